"""The vault write lock: one writer at a time across processes (flock) and threads."""

from __future__ import annotations

import contextlib
import fcntl
import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from .errors import AlephError

_thread_locks: dict[str, threading.RLock] = {}
_guard = threading.Lock()
_held = threading.local()


class VaultBusy(AlephError):
    def __init__(self, path: Path, seconds: float) -> None:
        super().__init__(f"the vault is busy: another writer held {path} for {seconds:.0f} s; "
                         "try again in a moment")


def _thread_lock(path: Path) -> threading.RLock:
    with _guard:
        return _thread_locks.setdefault(str(path), threading.RLock())


@contextlib.contextmanager
def write_lock(local_dir: Path, timeout: float = 30.0) -> Iterator[None]:
    local_dir.mkdir(parents=True, exist_ok=True)
    path = local_dir / "write.lock"
    tlock = _thread_lock(path)
    if not tlock.acquire(timeout=timeout):
        raise VaultBusy(path, timeout)
    held = getattr(_held, "paths", set())
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
