"""Crash safety: kill a writer process with SIGKILL at random points, many times.

    python benchmarks/crash.py --kills 300 [--seed 1]

After every kill: every note holds exactly a version that was written (an event's before or
after, or the in-flight intent's after), byte for byte; the event log parses (only a last
line may be torn); recovery plus `index` reconcile cleanly and record no `human` event
(every change aleph-mem made is accounted for). Prints a JSON line of figures and exits 1
on the first violation.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from aleph_mem.errors import AlephError
from aleph_mem.files.vault import content_hash
from aleph_mem.install.new_vault import init_vault
from aleph_mem.memory import Memory
from aleph_mem.writes.events import EventLog

NOTES = [f"notes/n{i}.md" for i in range(5)]


def child(root: Path, seed: int) -> None:
    """Write forever: replace, append, frontmatter, move and back, archive and restore."""
    rng = random.Random(seed)
    with Memory.open(root) as mem:
        w = mem.store.writer()
        i = 0
        ready = False
        while True:
            if i and not ready:  # one write done: the parent's kill lands among writes
                print("ready", flush=True)  # (never in start-up, however busy the machine)
                ready = True
            i += 1
            path = rng.choice(NOTES)
            current = mem.vault.read_bytes(path)
            try:
                op = rng.randrange(5)
                if current is None:
                    w.write(path, f"# {path}\n\nborn {i}\n".encode(), None)
                elif op == 0:
                    w.write(path, current + f"line {i} ".encode() * rng.randrange(1, 400),
                            content_hash(current))
                elif op == 1:
                    w.append(path, f"appended {i}")
                elif op == 2:
                    w.set_frontmatter(path, {"counter": i}, [])
                elif op == 3:
                    w.move(path, path + ".moved.md")
                    w.move(path + ".moved.md", path)
                else:
                    w.archive(path)
                    w.restore("archive/" + path)
            except AlephError:
                i -= 0 if ready else 1  # not a write yet: still not ready


def check(root: Path) -> dict:
    aleph = root / ".aleph"
    known: set[str] = set()
    torn = 0
    for f in sorted((aleph / "events").glob("*/*.jsonl")):
        for raw in f.read_bytes().split(b"\n"):
            try:
                e = json.loads(raw) if raw else None
            except ValueError:  # a line torn by a kill, closed off by the next append
                torn += 1
                continue
            if e:
                known.update(h for h in (e.get("before"), e.get("after")) if h)
    for intent in (aleph / "local" / "pending").glob("*.json"):
        body = json.loads(intent.read_bytes())
        known.update(c["after"] for c in body["changes"] if c["after"])
    for p in root.rglob("*.md"):
        digest = content_hash(p.read_bytes())
        if digest not in known and p.relative_to(root).as_posix() not in ("Welcome.md",
                                                                           "MEMORY.md"):
            raise SystemExit(f"{p} holds bytes that were never written whole ({digest})")
    with Memory.open(root) as mem:
        mem.reindex()
        humans = [e for e in mem.log(actor="human", limit=10)]
        if humans:
            raise SystemExit(f"unaccounted change after recovery: {humans[0].as_json()}")
        for path, digest in mem.store.con.execute("SELECT path, hash FROM notes"):
            if content_hash((root / path).read_bytes()) != digest:
                raise SystemExit(f"index disagrees with {path}")
    leftovers = [p for p in root.rglob("*aleph-tmp*")]
    if leftovers:
        raise SystemExit(f"temp files left behind: {leftovers[:3]}")
    return {"events": sum(1 for _ in EventLog(aleph).read()), "torn_lines_skipped": torn}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kills", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-delay", type=float, default=0.6)
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(Path(args.child), args.seed)
        return
    scratch = Path(tempfile.mkdtemp(prefix="aleph-crash-"))
    try:
        figures = _trials(scratch / "vault", args)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)  # the killed writers' vault, every run
    print(json.dumps(figures))


def _trials(root: Path, args: argparse.Namespace) -> dict:
    init_vault(root)
    with Memory.open(root) as mem:
        mem.reindex()
    rng = random.Random(args.seed)
    figures: dict = {"kills": 0}
    started = time.perf_counter()
    for k in range(args.kills):
        proc = subprocess.Popen([sys.executable, __file__, "--child", str(root),
                                 "--seed", str(args.seed * 100_000 + k)],
                                stdout=subprocess.PIPE, text=True)
        assert proc.stdout is not None
        proc.stdout.readline()  # its first write is done, however long its start-up took
        time.sleep(rng.random() * args.max_delay)  # then a random point among the writes
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        figures.update(check(root))
        figures["kills"] += 1
    figures["seconds"] = round(time.perf_counter() - started, 1)
    return figures


if __name__ == "__main__":
    main()
