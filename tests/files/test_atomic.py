"""Atomic writes: a reader sees the old bytes or the new, never a mix; temp names stay short
for any note name; the checked swap hands back what it displaced; a hard link never
replaces."""

from __future__ import annotations

import fnmatch
import threading
from pathlib import Path

import pytest

from aleph_mem.files.atomic import (
    link_new,
    read_or_none,
    swap,
    temp_glob,
    temp_path,
    write_atomic,
)


def test_write_atomic_creates_and_replaces_and_leaves_no_temp(tmp_path: Path) -> None:
    target = tmp_path / "héron.md"
    write_atomic(target, b"one")
    write_atomic(target, "deux é".encode(), durable=False)
    write_atomic(tmp_path / "empty.md", b"")
    assert target.read_bytes() == "deux é".encode()
    assert (tmp_path / "empty.md").read_bytes() == b""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.md", "héron.md"]


def test_a_failed_write_leaves_the_old_bytes_and_no_temp(tmp_path: Path) -> None:
    target = tmp_path / "a.md"
    target.write_bytes(b"old")
    (tmp_path / "folder.md").mkdir()  # a rename over a folder fails
    with pytest.raises(IsADirectoryError):
        write_atomic(tmp_path / "folder.md", b"new")
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.md", "folder.md"]


def test_temp_names_stay_short_beside_a_long_unicode_name(tmp_path: Path) -> None:
    long = tmp_path / ("é" * 120 + ".md")  # 243 bytes: a legal note name
    tmp = temp_path(long, 4242)
    assert tmp.parent == tmp_path and tmp.name.startswith(".") and tmp.name.endswith("-4242")
    assert len(tmp.name.encode()) < 80
    tmp.name.encode("utf-8")  # a multi-byte letter cut in half is dropped, not kept torn
    write_atomic(long, b"x")
    assert long.read_bytes() == b"x"
    assert temp_path(tmp_path / "a.md", 1) != temp_path(tmp_path / "b.md", 1)


@pytest.mark.parametrize("name", ["heron.md", "plan [draft].md", "what?.md", "star*.md",
                                  "é" * 30 + ".md"])
def test_temp_glob_matches_the_temp_of_its_note_only(tmp_path: Path, name: str) -> None:
    target = tmp_path / name
    pattern = temp_glob(target)
    assert fnmatch.fnmatchcase(temp_path(target, 4242).name, pattern)
    assert not fnmatch.fnmatchcase(temp_path(tmp_path / ("other-" + name), 4242).name,
                                   pattern)
    temp_path(target, 4242).write_bytes(b"left by a killed writer")
    assert [p.name for p in tmp_path.glob(pattern)] == [temp_path(target, 4242).name]


def test_concurrent_atomic_writes_of_one_file_each_land_whole(tmp_path: Path) -> None:
    target = tmp_path / "stamp.json"
    bodies = [bytes([65 + i]) * 20_000 for i in range(4)]
    errors: list[BaseException] = []
    seen: set[bytes] = set()
    stop = threading.Event()

    def writer(body: bytes) -> None:
        try:
            for _ in range(80):
                write_atomic(target, body, durable=False)
        except BaseException as exc:  # noqa: BLE001 (collected, asserted below)
            errors.append(exc)

    def reader() -> None:
        while not stop.is_set():
            data = read_or_none(target)
            if data is not None:
                seen.add(data)

    threads = [threading.Thread(target=writer, args=(b,)) for b in bodies]
    watcher = threading.Thread(target=reader)
    watcher.start()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    stop.set()
    watcher.join()
    assert errors == []
    assert target.read_bytes() in bodies
    assert seen <= set(bodies)  # never an empty, torn or mixed file
    assert [p.name for p in tmp_path.iterdir()] == ["stamp.json"]


def test_swap_exchanges_two_names_and_hands_back_the_displaced_bytes(tmp_path: Path) -> None:
    a, b = tmp_path / "new.tmp", tmp_path / "note.md"
    a.write_bytes(b"new")
    b.write_bytes(b"what a person just typed")
    if not swap(a, b):
        pytest.skip("this file system has no atomic exchange")
    assert b.read_bytes() == b"new"
    assert a.read_bytes() == b"what a person just typed"
    with pytest.raises(FileNotFoundError):
        swap(tmp_path / "missing", b)
    assert b.read_bytes() == b"new"


def test_link_new_never_replaces(tmp_path: Path) -> None:
    src, target = tmp_path / "src.tmp", tmp_path / "note.md"
    src.write_bytes(b"mine")
    target.write_bytes(b"theirs")
    assert link_new(src, target) is False
    assert target.read_bytes() == b"theirs" and src.exists()
    target.unlink()
    assert link_new(src, target) is True
    assert target.read_bytes() == b"mine" and not src.exists()


def test_read_or_none(tmp_path: Path) -> None:
    assert read_or_none(tmp_path / "missing") is None
    (tmp_path / "f").write_bytes(b"")
    assert read_or_none(tmp_path / "f") == b""
