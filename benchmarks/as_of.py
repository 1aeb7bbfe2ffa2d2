"""Searching the vault as it was, at scale: a generated vault with a year of history.

    python benchmarks/as_of.py [--count 10000] [--edits-per-day 15] [--queries 100]

The vault (../shared/eval/gen_vault.py) is indexed, then lived in for a year on a clock the
benchmark sets (``ALEPH_MEM_NOW``): each day some notes are edited (a line appended through
the one writer, as an agent would), one is archived and two are created. Then, in one
process, full-text search latency p50/p95 now and ``--as-of`` one, six and eleven months
back (the further back, the more notes changed since and are read back from their
pre-images), with the ratio to a normal search; the first ``--as-of`` query of each date is
shown apart (it parses the versions that date needs into the index, once). Prints one JSON
object.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from scale import add_vault_args, generated_vault, queries_for

from aleph_mem.clock import iso
from aleph_mem.install.new_vault import init_vault
from aleph_mem.memory import Memory


def live_a_year(mem: Memory, start: dt.datetime, per_day: int) -> int:
    rng = random.Random(11)
    paths = [p for (p,) in mem.store.con.execute(
        "SELECT path FROM notes WHERE path NOT LIKE 'archive/%' ORDER BY path")]
    writes = 0
    w = mem.store.writer(actor="mcp:bench")
    for day in range(365):
        os.environ["ALEPH_MEM_NOW"] = iso(start + dt.timedelta(days=day, hours=9))
        for path in rng.sample(paths, per_day):
            w.append(path, f"Day {day}: revisited, figure {rng.randint(1, 999)}.\n")
            writes += 1
        gone = paths.pop(rng.randrange(len(paths)))
        w.archive(gone)
        for k in range(2):
            new = f"journal/day-{day:03}-{k}.md"
            w.write(new, f"# Day {day} entry {k}\n\nNotes of day {day} about the harbour "
                    f"and the ferry timetable.\n".encode(), None)
            paths.append(new)
        writes += 3
    os.environ.pop("ALEPH_MEM_NOW", None)
    return writes


def latencies(fn, queries: list[str]) -> list[float]:
    out = []
    for q in queries:
        t = time.perf_counter()
        fn(q)
        out.append((time.perf_counter() - t) * 1000)
    return out


def summary(ms: list[float]) -> dict:
    return {"p50_ms": round(statistics.median(ms), 1),
            "p95_ms": round(statistics.quantiles(ms, n=20)[18], 1)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    add_vault_args(ap)
    ap.add_argument("--count", type=int, default=10_000)
    ap.add_argument("--edits-per-day", type=int, default=15)
    ap.add_argument("--queries", type=int, default=100)
    args = ap.parse_args()
    source = generated_vault(args, args.count)
    root = Path(tempfile.mkdtemp(prefix="aleph-asof-")) / "vault"
    os.system(f"cp -r '{source}' '{root}'")
    init_vault(root)
    start = dt.datetime(2025, 11, 24, tzinfo=dt.UTC)
    with Memory.open(root, {"embed_model": "none"}) as mem:
        os.environ["ALEPH_MEM_NOW"] = iso(start - dt.timedelta(days=1))
        mem.reindex()
        t = time.perf_counter()
        writes = live_a_year(mem, start, args.edits_per_day)
        lived_s = time.perf_counter() - t
        print(f"a year lived: {writes} writes in {lived_s:.0f} s", file=sys.stderr, flush=True)
        queries = queries_for(source, args.queries)
        mem.search(queries[0], mode="fts")  # warm
        now = latencies(lambda q: mem.search(q, mode="fts").hits, queries)
        result = {"notes": args.count, "events": writes, "history_s": round(lived_s, 1),
                  "search_now": summary(now)}
        for months in (1, 6, 11):
            when = (start + dt.timedelta(days=365 - 30 * months)).date().isoformat()
            changed = len(mem.store.con.execute(
                "SELECT DISTINCT path FROM events WHERE at > ?", (when,)).fetchall())
            ms = latencies(lambda q, w=when: mem.search_as_of(q, w).hits, queries)
            result[f"as_of_{months}_months_back"] = {
                **summary(ms[1:]), "first_query_ms": round(ms[0]),  # it reads the versions in
                "notes_changed_since": changed,
                "ratio_p50": round(statistics.median(ms[1:]) / statistics.median(now), 1)}
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
