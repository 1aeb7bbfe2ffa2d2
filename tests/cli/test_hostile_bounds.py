"""Bounded work and safe displays on hostile input (issue #36): a note of one huge line, a
huge query, hostile dates, escape sequences in notes, an odd session id, a long history and
deep frontmatter. Real processes; a subprocess timeout is a guard only, never the check."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import open_mem, write


def cli(*args: str, stdin: bytes = b"", env: dict[str, str] | None = None,
        timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "aleph_mem.cli", *args], input=stdin,
                          capture_output=True, timeout=timeout,
                          env={**os.environ, "ALEPH_MEM_EMBED_MODEL": "none", **(env or {})})


def one_line_note(size: int, middle: str) -> str:
    words = " ".join(f"filler{i % 499}" for i in range(size // 10))
    half = len(words) // 2
    return f"# Long\n\n{words[:half]} {middle} {words[half:]}\n"


# -- a note of one huge line --------------------------------------------------------------

def test_search_context_and_the_prompt_hook_on_one_huge_line(vault: Path) -> None:
    """A note of one 300 KB line holding three rare words in its middle: search finds it
    on line 3 with a short snippet around them, and the passage `context` and the prompt
    hook hand over is bounded; the control, a short note with one of the words, is found
    as before."""
    write(vault, "long.md", one_line_note(300_000, "zebrafish quagga narwhal"))
    write(vault, "short.md", "# Short\n\nzebrafish swim here\n")
    assert cli("--vault", str(vault), "index").returncode == 0
    r = cli("--vault", str(vault), "search", "quagga narwhal", "--json")
    hits = json.loads(r.stdout)
    assert [(h["path"], h["line"]) for h in hits] == [("long.md", 3)]
    assert "**quagga** **narwhal**" in hits[0]["snippet"] and len(hits[0]["snippet"]) < 400
    with open_mem(vault) as mem:
        hit = mem.search("quagga narwhal", mode="fts")[0]
        assert len(mem.chunk_text(hit.chunk_id)) <= 2400
    short = json.loads(cli("--vault", str(vault), "search", "zebrafish", "--json").stdout)
    assert {h["path"] for h in short} == {"long.md", "short.md"}
    ctx = json.loads(cli("--vault", str(vault), "context", "quagga narwhal", "--json").stdout)
    assert [r["path"] for r in ctx["relevant"]][:1] == ["long.md"]
    assert all(len(r["text"]) <= 2400 for r in ctx["relevant"])
    prompt = {"hook_event_name": "UserPromptSubmit", "session_id": "p", "cwd": "/x",
              "prompt": "where did the zebrafish quagga narwhal end up?"}
    out = cli("hook", "claude-code", "--vault", str(vault),
              stdin=json.dumps(prompt).encode())
    added = json.loads(out.stdout)["hookSpecificOutput"]["additionalContext"]
    assert "- long.md" in added and len(added) < 1500


# -- a huge query ----------------------------------------------------------------------------

def huge_query(first: str, count: int) -> str:
    return first + " " + " ".join(f"t{i}" for i in range(count))


def test_a_huge_query_searches_its_first_terms_and_says_so(vault: Path) -> None:
    """A query of 15,000 words searches its first 100 and says so on stderr; a word past
    them is not searched for; the control, a query of a few words, says nothing."""
    write(vault, "a.md", "# A\n\nquagga herds\n")
    write(vault, "b.md", "# B\n\nnarwhal tusks\n")
    assert cli("--vault", str(vault), "index").returncode == 0
    r = cli("--vault", str(vault), "search", huge_query("quagga", 15_000) + " narwhal",
            "--mode", "fts", "--json")
    assert r.returncode == 0
    assert [h["path"] for h in json.loads(r.stdout)] == ["a.md"]
    assert r.stderr.decode() == ("note: the query has 15002 different words and phrases: "
                                 "only its first 100 were searched for\n")
    plain = cli("--vault", str(vault), "search", "quagga narwhal", "--mode", "fts", "--json")
    assert {h["path"] for h in json.loads(plain.stdout)} == {"a.md", "b.md"}
    assert plain.stderr == b""
