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
    assert "**quagga narwhal**" in hits[0]["snippet"] and len(hits[0]["snippet"]) < 400
    with open_mem(vault) as mem:
        hit = mem.search("quagga narwhal", mode="fts").hits[0]
        assert len(mem.store.chunk_text(hit.chunk_id)) <= 2400
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


# -- hostile dates and spans ------------------------------------------------------------------

DATE_OPTIONS = (("search", "alpha", "--since"), ("search", "alpha", "--until"),
                ("search", "alpha", "--as-of"), ("search", "alpha", "--now"),
                ("show", "a", "--as-of"), ("context", "alpha", "--as-of"),
                ("timeline", "alpha", "--since"), ("log", "--since"))
HOSTILE_DATES = ("0000", "0000-01", "0000-01-01", "999999w", "999999d",
                 "0001-01-01T00:00+14:00", "9999-12-31T23:59-14:00", "2024-02-30", "2024-13",
                 "2024-01-01T25:00", "2024-01-01T00:00+99:00", "١٢٣٤", "２０２４", "1d2h",
                 "-1d", "10000", "nan", " ")
EDGE_DATES = ("0001", "9999-12", "9999-12-31", "2024-01-01T00:00+14:00", "999999h")


def test_hostile_dates_are_one_clear_line_and_edge_dates_work(vault: Path) -> None:
    """Every date option given a date Python's calendar cannot hold, a span past year 1,
    an offset that crosses the calendar's ends or a non-ASCII year: exit 1 and one line
    `error: ...`, never a traceback. The controls, the calendar's own first and last days
    and a +14:00 offset inside it, answer (exit 0), as does a query naming 9999-12."""
    write(vault, "a.md", "---\ndate: 9999-12-31\n---\n# A\n\nalpha beta\n")
    assert cli("--vault", str(vault), "index").returncode == 0
    for option in DATE_OPTIONS:
        for date in HOSTILE_DATES:
            r = cli("--vault", str(vault), *option[:-1], f"{option[-1]}={date}")
            err = r.stderr.decode()
            assert (r.returncode, err.count("\n")) == (1, 1), (option, date, err)
            assert err.startswith("error: ") and f" {date!r} " in err, (option, date, err)
        for date in EDGE_DATES:
            r = cli("--vault", str(vault), *option[:-1], f"{option[-1]}={date}")
            assert r.returncode == 0 and b"Traceback" not in r.stderr, (option, date, r.stderr)
    for query in ("alpha 9999-12", "alpha last week", "alpha 0001-01-01"):
        for now in ("0001-01-01", "9999-12-31T23:59"):
            r = cli("--vault", str(vault), "search", query, "--now", now, "--mode", "fts")
            assert r.returncode == 0 and r.stdout.startswith(b"a.md"), (query, now, r.stderr)


# -- escape sequences in notes -----------------------------------------------------------------

ESCAPES = ("\x1b]52;c;ZXZpbA==\x07"  # OSC 52: write the clipboard
           "\x1b]0;pwned\x07"  # OSC 0: retitle the window
           "\x1b[2J\x1b[H"  # CSI: clear the screen
           "\x9b31m"  # C1 CSI alone
           "\r\u202e\x08\x7f")
SHOWN = "\\x1b]52;c;ZXZpbA==\\x07\\x1b]0;pwned\\x07\\x1b[2J\\x1b[H\\x9b31m\\r\\u202e\\x08\\x7f"
FINE = "tab\there, a family 👨\u200d👩\u200d👧, café, 東京"  # the control: shown as it is


def test_note_and_session_text_never_reaches_the_terminal_as_escapes(
        vault: Path, tmp_path: Path) -> None:
    """A note and a captured session holding OSC 52, a title change, a screen clear, a C1
    CSI, a carriage return and a direction override: search, show, context, timeline and
    sessions show print them escaped (and --json as \\u escapes: the same values); tabs,
    line breaks, a ZWJ emoji and accents (the control) print as they are."""
    from session_helpers import CLAUDE

    write(vault, "notes/zoo.md", f"# Zoo\n\nquagga {ESCAPES} end\n\n{FINE}\nline two\n")
    assert cli("--vault", str(vault), "index").returncode == 0
    transcript = tmp_path / "t.jsonl"
    lines = CLAUDE.read_text().splitlines()
    evil = json.loads(lines[1])
    evil.update(uuid="u9", parentUuid=None, timestamp="2026-11-20T10:00:00.000Z")
    evil["message"]["content"] = [{"type": "text", "text": f"quagga {ESCAPES} end"}]
    transcript.write_text("\n".join([*lines, json.dumps(evil)]) + "\n")
    stop = {"hook_event_name": "Stop", "session_id": "7c1e2a90-0000-4000-8000-00000000c0de",
            "transcript_path": str(transcript), "cwd": "/work/projects/heron-api"}
    assert cli("hook", "claude-code", "--vault", str(vault),
               stdin=json.dumps(stop).encode()).returncode == 0
    shown = {}
    for args in (("search", "quagga", "--mode", "fts"), ("show", "notes/zoo.md"),
                 ("context", "quagga"), ("timeline", "quagga"),
                 ("sessions", "show", "7c1e2a90")):
        r = cli("--vault", str(vault), *args)
        assert r.returncode == 0, (args, r.stderr)
        shown[args[0]] = r.stdout.decode()
        for bad in "\x1b\x07\x9b\r\u202e\x08\x7f":
            assert bad not in shown[args[0]], (args, bad)
    assert f"quagga {SHOWN} end\n\n{FINE}\nline two\n" in shown["show"]
    assert SHOWN in shown["sessions"]  # context shows the passage on one line: \r is a space
    assert SHOWN.replace("\\r", " ") in shown["context"]
    assert "**quagga** \\x1b]52;c;ZXZpbA==\\x07" in shown["search"]
    raw = cli("--vault", str(vault), "show", "notes/zoo.md", "--json").stdout.decode()
    assert "\x1b" not in raw and "\x9b" not in raw and "\\u009b31m" in raw
    assert json.loads(raw)["content"] == f"# Zoo\n\nquagga {ESCAPES} end\n\n{FINE}\nline two\n"


# -- an odd session id in a hook's payload ------------------------------------------------------

def test_a_hook_refuses_a_session_id_that_would_be_an_option(vault: Path,
                                                              tmp_path: Path) -> None:
    """A SessionEnd whose session id is "--all" (the compress command's option: every
    session's note) or holds a slash, a space or an escape is refused in one line, exit 0,
    nothing captured; the control, a client's UUID, is captured."""
    from session_helpers import CLAUDE, SID

    transcript = tmp_path / "t.jsonl"
    transcript.write_text(CLAUDE.read_text())
    for bad in ("--all", "-x", "--vault=/tmp", "../up", "a b", "id\x1b[2J", "x" * 201):
        end = {"hook_event_name": "SessionEnd", "session_id": bad, "reason": "exit",
               "transcript_path": str(transcript), "cwd": "/work/projects/heron-api"}
        r = cli("hook", "claude-code", "--vault", str(vault), stdin=json.dumps(end).encode())
        assert (r.returncode, r.stdout) == (0, b""), bad
        assert r.stderr.decode() == (
            f"aleph-mem hook: SessionEnd: the session id {bad[:80]!r} is not one a client "
            "sends (letters, digits and . _ : @ + = -, not first; at most 200); nothing "
            "done\n")
    listed = cli("--vault", str(vault), "sessions", "list", "--json")
    assert json.loads(listed.stdout) == []
    stop = {"hook_event_name": "Stop", "session_id": SID, "transcript_path": str(transcript),
            "cwd": "/work/projects/heron-api"}
    assert cli("hook", "claude-code", "--vault", str(vault),
               stdin=json.dumps(stop).encode()).stderr == b""
    listed = cli("--vault", str(vault), "sessions", "list", "--json")
    assert [s["session_id"] for s in json.loads(listed.stdout)] == [SID]


# -- frontmatter nested 200 deep ------------------------------------------------------------------

def test_a_write_with_frontmatter_nested_200_deep_is_refused_in_one_line(vault: Path) -> None:
    """Block mappings, flow mappings and lists nested 200 deep, on stdin and as a --frontmatter
    value: exit 1 and one line saying the frontmatter is too complex, nothing written (the
    timeout is a guard only); the control, nested 3 deep, is written."""
    block = "\n".join(" " * i + "a:" for i in range(200)) + " x"
    flow = "{a: " * 200 + "1" + "}" * 200
    for i, fm in enumerate((block, f"b: {flow}", "b: " + "[" * 200 + "]" * 200)):
        r = cli("--vault", str(vault), "write", f"inbox/deep{i}.md",
                stdin=f"---\n{fm}\n---\nbody\n".encode())
        err = r.stderr.decode()
        assert (r.returncode, err.count("\n")) == (1, 1), err
        assert "frontmatter too complex: nested more than 32 levels deep" in err
        assert not (vault / "inbox" / f"deep{i}.md").exists()
    r = cli("--vault", str(vault), "write", "--title", "Deep", "--frontmatter",
            "k=" + "[" * 200 + "]" * 200, stdin=b"body\n")
    assert r.returncode == 1 and "too complex to keep in frontmatter" in r.stderr.decode()
    ok = cli("--vault", str(vault), "write", "inbox/fine.md",
             stdin=b"---\na:\n b:\n  c: x\n---\nbody\n")
    assert ok.returncode == 0 and (vault / "inbox" / "fine.md").exists()
