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


def test_append_closes_off_a_torn_last_line_so_it_cannot_swallow_the_new_record(
        tmp_path: Path) -> None:
    f = tmp_path / "events" / "2026-11.jsonl"
    jsonl.append(f, {"n": 1, "text": "héron ✓"})
    with f.open("ab") as out:
        out.write(b'{"n": 2, "te')  # a crash mid-line
    assert jsonl.records(f) == [{"n": 1, "text": "héron ✓"}]  # the torn line waits
    jsonl.append(f, {"n": 3})
    assert jsonl.records(f) == [{"n": 1, "text": "héron ✓"}, {"n": 3}]
    assert f.read_bytes().splitlines()[1] == b'{"n": 2, "te'  # kept, not rewritten
    assert "héron ✓" in f.read_text(encoding="utf-8")  # written as UTF-8, not escaped


def test_a_damaged_or_blank_line_in_the_middle_is_skipped_and_the_rest_read(
        tmp_path: Path, caplog) -> None:
    f = tmp_path / "log.jsonl"
    f.write_bytes(b'{"n": 1}\n\n  \nnot json\n\xff\xfe\n{"n": 2}\r\n[3]\n')
    assert jsonl.records(f) == [{"n": 1}, {"n": 2}, [3]]
    assert [r.getMessage() for r in caplog.records] == [
        f"skipping a damaged line in {f} at byte 13",
        f"skipping a damaged line in {f} at byte 22"]


def test_reading_a_missing_or_empty_file_is_nothing(tmp_path: Path) -> None:
    assert jsonl.records(tmp_path / "none.jsonl") == []
    (tmp_path / "empty.jsonl").write_bytes(b"")
    assert jsonl.records(tmp_path / "empty.jsonl") == []
    assert list((tmp_path).iterdir()) == [tmp_path / "empty.jsonl"]  # reading made nothing


def test_offsets_resume_exactly_after_each_line(tmp_path: Path) -> None:
    f = tmp_path / "log.jsonl"
    for n in range(3):
        jsonl.append(f, {"n": n, "w": "é" * n})
    got = list(jsonl.read(f))
    assert got[-1][1] == f.stat().st_size
    assert [v for v, _ in jsonl.read(f, got[0][1])] == [{"n": 1, "w": "é"},
                                                      {"n": 2, "w": "éé"}]
    assert list(jsonl.read(f, got[-1][1])) == []
