"""Live sync, measured from the outside.

    python benchmarks/watch.py [--saves 50] [--burst 5000] [--notes 10000]

1. Save-to-searchable: `aleph-mem watch` runs as its own process; this process saves a note
   with a new word (a plain file write, as an editor does) and searches for it (a separate
   index connection) until it appears. p50/p95 over the saves; goal p95 <= 1 s.
2. Burst: in a copy of a generated vault (already indexed), change --burst files at once
   while the watcher runs; time until the index agrees with every file. Then the same
   change on a fresh copy reconciled by `index` (in-process). Goal: watcher <= 2x index.
"""

from __future__ import annotations

import argparse
import json
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from scale import add_vault_args, generated_vault

from aleph_mem.files.daemon_status import read_status
from aleph_mem.files.vault import content_hash
from aleph_mem.install.new_vault import init_vault
from aleph_mem.memory import Memory


def start_watcher(root: Path) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "aleph_mem.cli", "--vault", str(root),
                             "watch"])
    deadline = time.time() + 120
    while time.time() < deadline:
        st = read_status(root / ".aleph" / "local")
        if st and st.get("state") == "running" and st.get("pid") == proc.pid:
            return proc
        time.sleep(0.05)
    proc.kill()
    raise SystemExit("the watcher did not start")


def stop(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=60)


def save_to_searchable(saves: int) -> dict:
    root = Path(tempfile.mkdtemp(prefix="aleph-watch-")) / "vault"
    init_vault(root)
    proc = start_watcher(root)
    lat = []
    try:
        with Memory.open(root) as reader:
            for i in range(saves):
                word = f"zq{i:04d}xv"
                t = time.perf_counter()
                (root / "notes" / f"save-{i % 5}.md").write_text(f"# Save\n\n{word}\n")
                while not reader.search(word, limit=1).hits:
                    if time.perf_counter() - t > 10:
                        raise SystemExit(f"save {i} never became searchable")
                    time.sleep(0.005)
                lat.append(time.perf_counter() - t)
                time.sleep(0.05)
    finally:
        stop(proc)
    lat.sort()
    return {"saves": saves, "save_to_search_ms_p50": round(statistics.median(lat) * 1000, 1),
            "save_to_search_ms_p95": round(lat[int(len(lat) * 0.95) - 1] * 1000, 1)}


def change_files(root: Path, count: int) -> dict[str, str]:
    expected = {}
    for p in sorted(root.rglob("*.md"))[:count]:
        data = p.read_bytes() + b"\nburst change\n"
        p.write_bytes(data)
        expected[p.relative_to(root).as_posix()] = content_hash(data)
    return expected


def consistent(root: Path, expected: dict[str, str]) -> bool:
    with Memory.open(root) as mem:
        rows = dict(mem.store.con.execute("SELECT path, hash FROM notes").fetchall())
    return all(rows.get(p) == h for p, h in expected.items())


def burst(base: Path, count: int) -> dict:
    work = Path(tempfile.mkdtemp(prefix="aleph-burst-"))
    a, b = work / "a", work / "b"
    shutil.copytree(base, a, symlinks=True)
    shutil.copytree(base, b, symlinks=True)
    proc = start_watcher(a)
    try:
        t = time.perf_counter()
        expected = change_files(a, count)
        while not consistent(a, expected):
            time.sleep(0.1)
        watcher_s = time.perf_counter() - t
    finally:
        stop(proc)
    change_files(b, count)
    t = time.perf_counter()
    with Memory.open(b) as mem:
        mem.reindex()
    index_s = time.perf_counter() - t
    shutil.rmtree(work, ignore_errors=True)
    return {"burst_files": count, "burst_watcher_s": round(watcher_s, 2),
            "burst_index_s": round(index_s, 2), "burst_ratio": round(watcher_s / index_s, 2)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--saves", type=int, default=50)
    ap.add_argument("--burst", type=int, default=5000)
    ap.add_argument("--notes", type=int, default=10000)
    add_vault_args(ap)
    args = ap.parse_args()
    figures = save_to_searchable(args.saves)
    base = generated_vault(args, args.notes)
    with Memory.open(base) as mem:
        mem.reindex()
    figures.update(burst(base, args.burst))
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
