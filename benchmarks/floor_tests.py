"""Test lines per line of code, folder by folder: how thick the tests are where the
floors are. Counts non-blank lines of `aleph_mem/<folder>/*.py` against those of
`tests/<folder>/*.py` (helpers included), and times one folder's tests (median of runs).

    python benchmarks/floor_tests.py [--time files notes] [--runs 3]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def lines(folder: Path) -> int:
    """Non-blank lines of every Python file in `folder` (not below it)."""
    if not folder.is_dir():
        return 0
    return sum(1 for f in folder.glob("*.py")
               for line in f.read_text(encoding="utf-8").splitlines() if line.strip())


def density() -> None:
    pkg, tests = REPO / "aleph_mem", REPO / "tests"
    folders = sorted(p.name for p in pkg.iterdir() if (p / "__init__.py").is_file())
    print(f"{'folder':<10} {'code':>6} {'tests':>6} {'ratio':>6}")
    for name in folders:
        code, test = lines(pkg / name), lines(tests / name)
        print(f"{name:<10} {code:>6} {test:>6} {test / code:>6.2f}")
    code, test = lines(pkg), lines(tests)
    print(f"{'ground':<10} {code:>6} {test:>6} {test / code:>6.2f}  (top-level modules)")
    code = sum(lines(d) for d in [pkg, *pkg.rglob("*")] if d.is_dir())
    test = sum(lines(d) for d in [tests, *tests.rglob("*")] if d.is_dir())
    print(f"{'all':<10} {code:>6} {test:>6} {test / code:>6.2f}")


def timed(folders: list[str], runs: int) -> None:
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
           *(f"tests/{f}" for f in folders)]
    seconds = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, cwd=REPO, check=True, capture_output=True)
        seconds.append(time.perf_counter() - start)
    print(f"pytest -q {' '.join(f'tests/{f}' for f in folders)}: "
          f"median {statistics.median(seconds):.1f} s of {runs} runs")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--time", nargs="*", default=[], metavar="FOLDER")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    density()
    if args.time:
        timed(args.time, args.runs)


if __name__ == "__main__":
    main()
