"""Index and search at scale, on vaults from ../shared/eval/gen_vault.py.

    python benchmarks/scale.py --sizes 1000,10000,100000 [--gen ../shared/eval/gen_vault.py]

For each size: cold index (a fresh process; wall time and peak RSS), no-change reconcile,
one-changed-file reconcile, index size on disk, full-text search latency p50/p95 over 200
queries in one process. Prints one JSON line per size.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from aleph_mem.install.new_vault import init_vault
from aleph_mem.memory import Memory

REPO = Path(__file__).resolve().parent.parent


def generate(gen: Path, root: Path, count: int) -> None:
    if (root / ".generated").exists():
        return
    subprocess.run([sys.executable, str(gen), str(root), "--count", str(count), "--force"],
                   check=True, stdout=subprocess.DEVNULL)
    (root / ".aleph").mkdir(exist_ok=True)
    (root / ".generated").write_text(str(count))


def add_vault_args(ap: argparse.ArgumentParser) -> None:
    """The options every benchmark on generated vaults takes."""
    ap.add_argument("--gen", default=str(REPO.parent / "shared" / "eval" / "gen_vault.py"),
                    help="the shared vault generator")
    ap.add_argument("--workdir", default="/tmp/aleph-scale",
                    help="where generated vaults are kept between runs")


def generated_vault(args: argparse.Namespace, count: int) -> Path:
    """A generated vault of ``count`` notes (made once, then reused) with aleph-mem's
    template files added."""
    root = Path(args.workdir) / f"vault-{count}"
    generate(Path(args.gen), root, count)
    init_vault(root)
    return root


def cold_index(root: Path) -> tuple[float, float]:
    """Rebuild in a child process; return (seconds, peak RSS MiB)."""
    code = ("import sys,time; from pathlib import Path; from aleph_mem.memory import Memory\n"
            "t=time.perf_counter(); m=Memory.open(Path(sys.argv[1]), {'embed_model':'none'}); "
            "m.reindex(rebuild=True); m.close(); print(time.perf_counter()-t)")
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    out = subprocess.run([sys.executable, "-c", code, str(root)], check=True,
                         capture_output=True, text=True).stdout
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return float(out.strip().splitlines()[-1]), max(peak, before) / 1024


def search_times(mem, queries: list[str]) -> list[float]:
    """Milliseconds per search (10 hits), sorted."""
    lat = []
    for q in queries:
        t = time.perf_counter()
        mem.search(q, limit=10)
        lat.append((time.perf_counter() - t) * 1000)
    return sorted(lat)


def queries_for(root: Path, n: int = 200) -> list[str]:
    probe = root.parent / (root.name + ".queries.txt")
    base = [q for q in probe.read_text().splitlines() if q.strip()] if probe.exists() else []
    rng = random.Random(7)
    titles = []
    for p in sorted(root.rglob("*.md"))[:2000]:
        m = re.search(r"^# (.+)$", p.read_text(encoding="utf-8"), re.M)
        if m:
            titles.append(m.group(1))
    while len(base) < n:
        words = re.findall(r"[A-Za-z]{4,}", rng.choice(titles))
        base.append(" ".join(rng.sample(words, min(2, len(words)))))
    return base[:n]


def timed(fn, repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        runs.append(time.perf_counter() - t)
    return statistics.median(runs)


def measure(root: Path, count: int) -> dict:
    cold_s, peak_mib = cold_index(root)
    figures = {"notes": count, "cold_index_s": round(cold_s, 2),
               "cold_peak_rss_mib": round(peak_mib, 1)}
    with Memory.open(root, {"embed_model": "none"}) as mem:
        figures["noop_reconcile_s"] = round(timed(mem.reindex, 5), 3)
        target = sorted(root.rglob("*.md"))[count // 2]
        original = target.read_bytes()
        counter = iter(range(10**6))

        def one_change() -> None:
            target.write_bytes(original + f"\nedit {next(counter)}\n".encode())
            mem.reindex()
        figures["one_change_reconcile_s"] = round(timed(one_change, 5), 3)
        target.write_bytes(original)
        mem.reindex()
        lat = search_times(mem, queries_for(root))
        figures["search_ms_p50"] = round(lat[len(lat) // 2], 2)
        figures["search_ms_p95"] = round(lat[int(len(lat) * 0.95)], 2)
    size = sum(p.stat().st_size for p in (root / ".aleph").glob("index.db*"))
    figures["index_mib"] = round(size / 2**20, 1)
    return figures


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1000,10000")
    add_vault_args(ap)
    args = ap.parse_args()
    for count in (int(s) for s in args.sizes.split(",")):
        print(json.dumps(measure(generated_vault(args, count), count)), flush=True)


if __name__ == "__main__":
    main()
