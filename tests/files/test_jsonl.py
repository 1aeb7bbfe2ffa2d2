"""The append-only line files (events, journals) read from a synced-in file: a line far
longer than any writer makes is skipped in bounded pieces, the lines around it are read."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

from aleph_mem.files import jsonl


def test_an_overlong_line_is_skipped_without_being_held_and_its_neighbours_read(
        tmp_path: Path) -> None:
    f = tmp_path / "2026-11.jsonl"
    with f.open("wb") as out:
        out.write(json.dumps({"n": 1}).encode() + b"\n")
        out.write(b'{"junk": "' + b"x" * (8 * jsonl.MAX_LINE) + b'"}\n')
        out.write(json.dumps({"n": 2}).encode() + b"\n")
        out.write(b'{"n": 3')  # a torn last line: not read, not an error
    tracemalloc.start()
    got = list(jsonl.read(f))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert [v for v, _ in got] == [{"n": 1}, {"n": 2}]
    assert got[-1][1] == f.stat().st_size - len(b'{"n": 3')  # offsets stay true
    assert peak < 4 * jsonl.MAX_LINE  # a few pieces at a time, never the 64 MiB line whole
    assert list(jsonl.read(f, got[0][1])) == [got[1]]  # resuming after the first line
