"""Per-class precision of what the dream put in front of a person, from a blind reading.

    python benchmarks/dream_judged.py KEEP_DIR VERDICTS_DIR [--json]

KEEP_DIR is the ``--keep`` folder of ``benchmarks/dream_real.py`` (one ``<vault>/lines.jsonl``
each: every digest and proposals line, with its class); VERDICTS_DIR holds a reader's
``<vault>.verdicts.jsonl`` (``{"id": "<vault>-<n>", "verdict": "A"|"B"|"C"}``, ``n`` the
line's place in ``lines.jsonl``): A right and useful, B right but not worth attention,
C wrong. The reader sees the lines and the notes, never the code. Lines about the
benchmark's own planted pair (``aleph-bench/``) are not judged (verdict ``skip``).

Printed per class over all the vaults given: lines, A, B, C, precision ((A + B) / lines:
what is true) and worth (A / lines: what earns attention).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path


def tally(keep: Path, verdicts: Path) -> dict[str, Counter]:
    by_class: dict[str, Counter] = {}
    for lines in sorted(keep.glob("*/lines.jsonl")):
        vault = lines.parent.name
        judged_file = verdicts / f"{vault}.verdicts.jsonl"
        if not judged_file.exists():
            continue
        judged = {}
        for row in judged_file.read_text("utf-8").splitlines():
            if row.strip():
                v = json.loads(row)
                judged[v["id"]] = v["verdict"]
        for i, row in enumerate(lines.read_text("utf-8").splitlines()):
            item = json.loads(row)
            verdict = judged.get(f"{vault}-{i}")
            if verdict not in ("A", "B", "C"):
                continue  # not judged, or about the benchmark's own planted notes ("skip")
            by_class.setdefault(item["class"], Counter())[verdict] += 1
    return by_class


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("keep", type=Path)
    ap.add_argument("verdicts", type=Path)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    table = tally(args.keep, args.verdicts)
    if args.json:
        print(json.dumps({k: dict(v) for k, v in sorted(table.items())}))
        return
    print("| class | lines | A | B | C | precision | worth |")
    print("|---|---|---|---|---|---|---|")
    total = Counter()
    for cls, c in sorted(table.items()):
        n = sum(c.values())
        total.update(c)
        print(f"| {cls} | {n} | {c['A']} | {c['B']} | {c['C']} | "
              f"{(c['A'] + c['B']) / n:.2f} | {c['A'] / n:.2f} |")
    n = sum(total.values())
    if n:
        print(f"| all | {n} | {total['A']} | {total['B']} | {total['C']} | "
              f"{(total['A'] + total['B']) / n:.2f} | {total['A'] / n:.2f} |")


if __name__ == "__main__":
    main()
