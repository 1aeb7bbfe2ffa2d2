"""Bounded work on hostile input (issue #36): a note of one huge line, a huge query, a note
with thousands of versions.

    python benchmarks/hostile_bounds.py [--line-mb 2] [--terms 200000] [--versions 3000] [--runs 5]

In one process on fresh vaults (no vectors): full-text search of a note of one line of
``--line-mb`` MB holding a rare word in its middle, the working memory (``context``) and
the prompt hook's notes for it; a search with ``--terms`` words; the timeline of a note
written ``--versions`` times (each version one more line, through the one writer). Prints
the median seconds of ``--runs`` runs of each as one JSON object.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from aleph_mem.install.new_vault import init_vault
from aleph_mem.memory import Memory
from aleph_mem.sessions.hook import handle


def median_s(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return round(statistics.median(times), 3)


def one_line_vault(mb: float) -> Path:
    root = Path(tempfile.mkdtemp(prefix="aleph-hostile-")) / "vault"
    init_vault(root)
    words = " ".join(f"filler{i % 499}" for i in range(int(mb * 1_000_000) // 10))
    half = len(words) // 2
    (root / "long.md").write_text(
        f"# Long\n\n{words[:half]} zebrafish quagga narwhal {words[half:]}\n")
    return root


def history_vault(versions: int) -> Path:
    root = Path(tempfile.mkdtemp(prefix="aleph-history-")) / "vault"
    init_vault(root)
    with Memory.open(root, {"embed_model": "none"}) as mem:
        mem.reindex()
        result = None
        text = b"# Kite\n\nThe kite uploader.\n"
        for i in range(versions):  # whole writes: appends re-read the note each time
            text += f"- change {i}: retries set to {i % 7}\n".encode()
            result = mem.store.writer(actor="mcp:bench").write(
                "notes/kite.md", text, result.hash if result else None)
    return root


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--line-mb", type=float, default=2.0)
    ap.add_argument("--terms", type=int, default=200_000)
    ap.add_argument("--versions", type=int, default=3000)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    out: dict[str, object] = {}
    root = one_line_vault(args.line_mb)
    flags = {"embed_model": "none"}
    with Memory.open(root, flags) as mem:
        t = time.perf_counter()
        mem.reindex()
        out["one_line_index_s"] = round(time.perf_counter() - t, 2)
        out["one_line_search_s"] = median_s(lambda: mem.search("quagga", mode="fts").hits,
                                            args.runs)
        out["one_line_context_s"] = median_s(lambda: mem.context("quagga narwhal"), args.runs)
        huge = "quagga " + " ".join(f"t{i}" for i in range(args.terms))
        out["huge_query_search_s"] = median_s(lambda: mem.search(huge, mode="fts").hits, args.runs)
    prompt = json.dumps({"hook_event_name": "UserPromptSubmit", "session_id": "b", "cwd": "/",
                         "prompt": "where did the zebrafish quagga narwhal go?"}).encode()
    out["one_line_prompt_hook_s"] = median_s(lambda: handle("claude-code", prompt, root, flags),
                                             args.runs)
    t = time.perf_counter()
    root = history_vault(args.versions)
    out["history_written_s"] = round(time.perf_counter() - t, 1)
    with Memory.open(root, flags) as mem:
        out["timeline_s"] = median_s(lambda: mem.timeline("notes/kite.md"), args.runs)
    print(json.dumps({"line_mb": args.line_mb, "terms": args.terms,
                      "versions": args.versions, "runs": args.runs, **out}, indent=1))


if __name__ == "__main__":
    main()
