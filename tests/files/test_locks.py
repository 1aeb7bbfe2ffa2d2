"""The vault's locks are flocks: a lock held by another process makes a writer wait then
give up with VaultBusy, makes the watcher and dream locks refuse at once naming the holder,
and dies with its holder."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from aleph_mem.errors import DreamBusy, VaultBusy, WatcherRunning
from aleph_mem.files.locks import (
    dream_lock,
    is_held,
    watcher_lock,
    watcher_running,
    write_lock,
)

HOLD = """
import fcntl, os, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o644)
fcntl.flock(fd, fcntl.LOCK_EX)
os.ftruncate(fd, 0)
os.pwrite(fd, b"%d" % os.getpid(), 0)
print("held", flush=True)
sys.stdin.readline()
"""


@contextmanager
def held_elsewhere(path: Path) -> Iterator[subprocess.Popen[str]]:
    """``path`` flocked by a real second process until the block ends."""
    path.parent.mkdir(parents=True, exist_ok=True)
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(path)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "held\n"
        yield proc
    finally:
        proc.kill()
        proc.wait()


def test_a_write_lock_held_by_another_process_is_vault_busy(tmp_path: Path) -> None:
    local = tmp_path / "local"
    with held_elsewhere(local / "write.lock"):
        assert is_held(local / "write.lock")
        with pytest.raises(VaultBusy), write_lock(local, timeout=0.2):
            pass
    assert not is_held(local / "write.lock")  # the holder died: so did its lock
    with write_lock(local, timeout=0.2):
        assert is_held(local / "write.lock")


def test_the_write_lock_is_reentrant_in_one_thread_and_exclusive_across_threads(
        tmp_path: Path) -> None:
    local = tmp_path / "local"
    order: list[str] = []
    inside = threading.Event()

    def other() -> None:
        inside.wait()
        with write_lock(local):
            order.append("other")

    t = threading.Thread(target=other)
    t.start()
    with write_lock(local):
        with write_lock(local):  # the same thread again: no deadlock
            inside.set()
            order.append("nested")
        assert is_held(local / "write.lock")  # the outer hold is still on
        order.append("outer")
    t.join()
    assert order == ["nested", "outer", "other"]
    assert not is_held(local / "write.lock")


def test_a_second_thread_gives_up_with_vault_busy(tmp_path: Path) -> None:
    local = tmp_path / "local"
    got: list[BaseException] = []

    def other() -> None:
        try:
            with write_lock(local, timeout=0.05):
                pass
        except VaultBusy as exc:
            got.append(exc)

    with write_lock(local):
        t = threading.Thread(target=other)
        t.start()
        t.join()
    assert len(got) == 1
    with write_lock(local, timeout=0.05):  # released: a near miss that gets it
        pass


def test_the_watcher_lock_names_the_pid_holding_it(tmp_path: Path) -> None:
    with held_elsewhere(tmp_path / "watcher.lock") as proc:
        assert watcher_running(tmp_path)
        with pytest.raises(WatcherRunning) as busy, watcher_lock(tmp_path):
            pass
        assert str(proc.pid) in str(busy.value)
    assert not watcher_running(tmp_path)
    with watcher_lock(tmp_path):
        assert (tmp_path / "watcher.lock").read_text() == str(__import__("os").getpid())
        assert watcher_running(tmp_path)


def test_one_dream_at_a_time(tmp_path: Path) -> None:
    with dream_lock(tmp_path):
        with pytest.raises(DreamBusy), dream_lock(tmp_path):
            pass
    with dream_lock(tmp_path):  # released
        pass


def test_is_held_on_a_missing_file_is_false_and_creates_nothing(tmp_path: Path) -> None:
    assert not is_held(tmp_path / "none.lock")
    assert not watcher_running(tmp_path)
    assert list(tmp_path.iterdir()) == []
