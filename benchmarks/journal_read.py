"""Reading the dream journal, every line checked (docs/dream.md: another device's journal
is input): ``Journal.proposals()`` over a journal of N proposals, read cold (a new
``Journal``, as the digest and MCP do) and again within one run (a run reads it once per
proposal it raises; unchanged files are not checked twice).

    python benchmarks/journal_read.py [--count 2000] [--repeat 21]

Prints one JSON object with the medians in milliseconds.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from aleph_mem.dream.journal import Journal
from aleph_mem.dream.view import Action


def median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return round(statistics.median(times) * 1000, 1)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=21)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        aleph = Path(tmp) / "vault" / ".aleph"
        (aleph / "local").mkdir(parents=True)
        journal = Journal(aleph)
        for i in range(args.count):
            action = Action("drift", "set", f"notes/n{i}.md", None, f"reason {i}",
                            set_keys={"status": "stale"})
            journal.propose(action, f"2024-01-01T00:{i // 60 % 60:02d}:{i % 60:02d}Z", "run")
        one = Journal(aleph)
        print(json.dumps({
            "proposals": args.count,
            "cold_ms": median_ms(lambda: Journal(aleph).proposals(), args.repeat),
            "within_a_run_ms": median_ms(one.proposals, args.repeat)}))


if __name__ == "__main__":
    main()
