"""The vault's locks, all ``flock`` on files in ``.aleph/local/`` (a lock dies with its
process, so a killed holder never leaves one behind):

- ``write_lock``: one writer at a time across processes and threads (waits, then VaultBusy);
- ``watcher_lock``: one watcher (daemon) per vault, holding its pid (WatcherRunning);
- ``dream_lock``: one dream run at a time (DreamBusy);
- ``tokens_lock``: one change at a time to ``serve``'s token file (waits, then VaultBusy).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from aleph_mem.errors import AlephError, DreamBusy, VaultBusy, WatcherRunning

_thread_locks: dict[str, threading.RLock] = {}
_guard = threading.Lock()
_held = threading.local()


def _thread_lock(path: Path) -> threading.RLock:
    with _guard:
        return _thread_locks.setdefault(str(path), threading.RLock())


def write_lock(local_dir: Path, timeout: float = 30.0) -> contextlib.AbstractContextManager[None]:
    return waiting_lock(local_dir / "write.lock", timeout)


def tokens_lock(local_dir: Path, timeout: float = 30.0) -> contextlib.AbstractContextManager[None]:
    """Held while the token file is read, changed and written back, so two processes
    making tokens at once cannot lose one."""
    return waiting_lock(local_dir / "serve-tokens.lock", timeout)


@contextlib.contextmanager
def waiting_lock(path: Path, timeout: float = 30.0) -> Iterator[None]:
    """``path`` held by one thread of one process at a time; waits up to ``timeout``
    seconds, then VaultBusy. Re-entered by the thread holding it: already held."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tlock = _thread_lock(path)
    if not tlock.acquire(timeout=timeout):
        raise VaultBusy(path, timeout)
    held: set[str] = getattr(_held, "paths", set())
    _held.paths = held
    if str(path) in held:  # re-entered by the same thread: already locked
        try:
            yield
        finally:
            tlock.release()
        return
    held.add(str(path))
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            deadline = time.monotonic() + timeout
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise VaultBusy(path, timeout) from None
                    time.sleep(0.005)
            try:
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)
    finally:
        held.discard(str(path))
        tlock.release()


@contextlib.contextmanager
def exclusive(path: Path, busy: Callable[[str], AlephError]) -> Iterator[None]:
    """Hold ``path`` exclusively without waiting, with this process's pid written in it;
    a holder already there raises ``busy(its pid)``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 64, 0).decode(errors="replace").strip() or "?"
            raise busy(holder) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        yield
    finally:
        os.close(fd)


def is_held(path: Path) -> bool:
    """Whether some process holds the lock file ``path`` right now (a read only)."""
    if not path.exists():
        return False
    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def watcher_lock(local_dir: Path) -> contextlib.AbstractContextManager[None]:
    return exclusive(local_dir / "watcher.lock", WatcherRunning)


def watcher_running(local_dir: Path) -> bool:
    return is_held(local_dir / "watcher.lock")


def dream_lock(local_dir: Path) -> contextlib.AbstractContextManager[None]:
    return exclusive(local_dir / "dream.lock", lambda _pid: DreamBusy())
