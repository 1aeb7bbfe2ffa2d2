"""Redaction speed: ``redact`` on a 5 MB Claude Code transcript (the Stop hook's, from
benchmarks/sessions.py, 200 fake secrets planted), whole and message by message, and on
5 MB of tool output (git logs, hashes, UUIDs, JSON, base64 data, wrapped lines), and on
hostile single lines (thousands of spaces, letters, signs): the median of --runs runs each.

    python benchmarks/redaction.py [--mb 5] [--runs 5]
"""

from __future__ import annotations

import argparse
import base64
import json
import random
import statistics
import time
from collections.abc import Callable

from sessions import sentence, transcript_rows

from aleph_mem.redaction.text import redact

rng = random.Random(11)


def tool_output(target_bytes: int) -> str:
    """Text that looks like secrets without being any: the near misses' haystack."""
    hexs = "0123456789abcdef"
    lines, size = [], 0
    while size < target_bytes:
        sha = "".join(rng.choice(hexs) for _ in range(40))
        blob = base64.b64encode(rng.randbytes(rng.randint(30, 300))).decode()
        chunk = "\n".join((
            f"commit {sha}\nAuthor: Dev <dev@example.com>\n\n    {sentence(8)}",
            f"| {sha[:32]} |\n| {sha[8:]} |",
            json.dumps({"id": f"{sha[:8]}-{sha[8:12]}-4{sha[13:16]}-a{sha[17:20]}-{sha[20:32]}",
                        "max_tokens": 400, "token_count": rng.randint(1, 9999),
                        "image": f"data:image/png;base64,{blob}"}),
            f"requests==2.{rng.randint(0, 32)}.{rng.randint(0, 9)} --hash=sha256:{sha}{sha[:24]}",
            f"{sentence(12)}\n{sentence(10)}",
        ))
        lines.append(chunk)
        size += len(chunk) + 1
    return "\n".join(lines)


# lines a note or a tool's output can hold that a careless pattern backtracks over for
# minutes (a line of 9,000 spaces took one rule 30 s): each is timed on its own
HOSTILE = {
    "9,000 spaces": " " * 9000,
    "9,000 spaces, a colon, a value": " " * 9000 + ": Xk29!qLm",
    "20,000 letters": "a" * 20000,
    "5,000 'password: '": "password: " * 5000,
    "20,000 '@'": "@" * 20000,
    "a table of 5,000 empty cells": "| " * 5000 + "\n|---|\n" + "| x " * 5000,
    # a command's name repeated on one line: every rule that looks along the line for the
    # command's flag from each occurrence ("login … -p", "vt … -k") was quadratic until its
    # look was bounded (40,000 "login " took 129 s); a transcript's escapes on one line
    "40,000 'login '": "login " * 40000,
    "20,000 'vt '": "vt " * 20000,
    "60,000 JSON escapes": '{"a":"b\\n\\"c\\"\\\\d"}' * 60000,
}


def median_seconds(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mb", type=float, default=5.0)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    size = int(args.mb * 1_000_000)
    rows, planted = transcript_rows("bench", "/work/projects/heron-api", size, secrets=200)
    whole = "\n".join(rows)
    out = redact(whole)[0]
    leaks = sum(1 for s in planted if s in out)
    noise = tool_output(size)
    changed = redact(noise)[0] != noise
    print(f"transcript {len(whole) / 1e6:.1f} MB as one text: "
          f"{median_seconds(lambda: redact(whole), args.runs):.2f} s "
          f"(median of {args.runs}); {len(planted)} planted secrets, {leaks} left")
    print(f"transcript message by message ({len(rows)} rows): "
          f"{median_seconds(lambda: [redact(r) for r in rows], args.runs):.2f} s")
    print(f"tool output {len(noise) / 1e6:.1f} MB (hashes, UUIDs, base64, wrapped lines): "
          f"{median_seconds(lambda: redact(noise), args.runs):.2f} s; changed: {changed}")
    for name, text in HOSTILE.items():
        print(f"one line, {name}: {median_seconds(lambda t=text: redact(t), args.runs):.3f} s")


if __name__ == "__main__":
    main()
