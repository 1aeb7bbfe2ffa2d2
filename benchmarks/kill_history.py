"""History after kill -9: kill `aleph-mem index` (or the daemon) with SIGKILL at a random
point of a reconcile of thousands of notes changed outside aleph-mem, start it again, and
count the changes never logged (and any logged twice).

    python benchmarks/kill_history.py [--trials 10] [--notes 6000] [--seed 1] [--daemon]

Each trial: a vault indexed once (its baseline), half its notes edited and logged, then
every note edited outside aleph-mem; the reconcile is killed once a random number of the
new versions are in the index or a random number of their events are in the log (read
from those files, never by sleeping), then `aleph-mem index` runs to the end. Prints one
line per trial and a last JSON line: trials, unlogged changes, duplicates.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from aleph_mem.files.vault import content_hash
from aleph_mem.install.new_vault import init_vault

ENV = {**os.environ, "ALEPH_MEM_EMBED_MODEL": "none"}


def cli(root: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "aleph_mem.cli", "--vault", str(root), *args]


def run(root: Path, *args: str) -> None:
    subprocess.run(cli(root, *args), env=ENV, check=True, capture_output=True)


def note(i: int) -> str:
    return f"notes/{i % 20}/n{i}.md"


def build(root: Path, n: int) -> list[str]:
    """The vault, every note changed outside aleph-mem; returns the new hashes."""
    init_vault(root)
    for version, step in ((0, 1), (1, 2), (2, 1)):
        for i in range(0, n, step):
            p = root / note(i)
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(f"# Note {i}\n\nversion {version} of note {i} [[n{(i + 1) % n}]]\n")
        if version < 2:
            run(root, "index")
    return [content_hash((root / note(i)).read_bytes()) for i in range(n)]


def indexed(root: Path, new: list[str]) -> int:
    try:
        con = sqlite3.connect(f"file:{root / '.aleph' / 'index.db'}?mode=ro", uri=True,
                              timeout=0.05)
        try:
            return con.execute("SELECT count(*) FROM notes WHERE hash IN (SELECT value FROM "
                               "json_each(?))", (json.dumps(new),)).fetchone()[0]
        finally:
            con.close()
    except sqlite3.OperationalError:
        return 0


def lines(root: Path) -> int:
    return sum(p.read_bytes().count(b"\n") for p in (root / ".aleph" / "events").glob("*/*"))


def trial(root: Path, n: int, rng: random.Random, daemon: bool) -> dict:
    new = build(root, n)
    start = lines(root)
    k = rng.randrange(1, n)
    by_index = rng.random() < 0.5
    proc = subprocess.Popen(cli(root, "daemon" if daemon else "index"), env=ENV,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while proc.poll() is None and (indexed(root, new) if by_index
                                   else lines(root) - start) < k:
        time.sleep(0.005)
    killed = proc.poll() is None
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    run(root, "index")
    counts: dict[str, int] = {}
    for path in (root / ".aleph" / "events").glob("*/*.jsonl"):
        for line in path.read_text().splitlines():
            event = json.loads(line)
            if event.get("actor") == "human" and event.get("after") in new:
                counts[event["after"]] = counts.get(event["after"], 0) + 1
    return {"kill_after": f"{k} {'indexed' if by_index else 'logged'}", "killed": killed,
            "unlogged": sum(1 for h in new if h not in counts),
            "duplicates": sum(c - 1 for c in counts.values())}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--trials", type=int, default=10)
    ap.add_argument("--notes", type=int, default=6000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--daemon", action="store_true", help="kill the daemon's start reconcile")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    results = []
    for t in range(args.trials):
        with tempfile.TemporaryDirectory() as tmp:
            results.append(trial(Path(tmp) / "vault", args.notes, rng, args.daemon))
        print(t + 1, json.dumps(results[-1]), flush=True)
    print(json.dumps({"trials": len(results), "notes": args.notes,
                      "unlogged_changes": sum(r["unlogged"] for r in results),
                      "trials_with_loss": sum(1 for r in results if r["unlogged"]),
                      "duplicates": sum(r["duplicates"] for r in results)}))


if __name__ == "__main__":
    main()
