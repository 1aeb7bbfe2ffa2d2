"""Time to first byte of the page served by `aleph-mem serve`, on a generated vault.

    python benchmarks/page.py [--count 10000] [--runs 20]

Indexes a generated vault of COUNT notes (benchmarks/scale.py's generator; full text, no
vectors: ALEPH_MEM_EMBED_MODEL=none), starts `aleph-mem serve --port 0` as a real process,
and prints one JSON line: the median and p95 time to the first byte of the home page, of a
note, and of a search, each over RUNS requests (one warm-up request first).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from scale import add_vault_args, generated_vault  # noqa: E402

QUERIES = ["project meeting notes", "budget review", "travel plans", "reading list",
           "garden", "release checklist", "weekly review", "ideas"]


def first_byte(port: int, target: str) -> float:
    con = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    start = time.perf_counter()
    con.request("GET", target)
    r = con.getresponse()
    r.read(1)
    took = time.perf_counter() - start
    assert r.status == 200, (target, r.status)
    r.read()
    con.close()
    return took


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--count", type=int, default=10000)
    ap.add_argument("--runs", type=int, default=20)
    add_vault_args(ap)
    args = ap.parse_args()
    env = {**os.environ, "ALEPH_MEM_EMBED_MODEL": "none"}
    root = generated_vault(args, args.count)
    cli = [sys.executable, "-m", "aleph_mem.cli", "--vault", str(root)]
    subprocess.run([*cli, "index"], check=True, env=env, capture_output=True)
    note = next(p for p in sorted(root.rglob("*.md")) if ".aleph" not in p.parts)
    p = subprocess.Popen([*cli, "serve", "--port", "0"], env=env, stderr=subprocess.PIPE,
                         stdout=subprocess.DEVNULL, text=True)
    try:
        port = int(re.search(r":(\d+)/mcp", p.stderr.readline()).group(1))
        targets = {"home": ["/"], "note": [f"/note?path={note.relative_to(root).as_posix()}"],
                   "search": [f"/search?q={q.replace(' ', '+')}" for q in QUERIES]}
        out: dict[str, object] = {"notes": args.count}
        for name, routes in targets.items():
            first_byte(port, routes[0])  # warm-up
            times = [first_byte(port, routes[i % len(routes)]) for i in range(args.runs)]
            out[f"{name}_ms_p50"] = round(statistics.median(times) * 1000, 1)
            out[f"{name}_ms_p95"] = round(sorted(times)[int(0.95 * (len(times) - 1))] * 1000, 1)
        print(json.dumps(out))
    finally:
        p.terminate()
        p.wait(timeout=30)


if __name__ == "__main__":
    main()
