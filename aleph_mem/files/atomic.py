"""Atomic file operations: temp names that fit any file name, fsync of folders, atomic
writes, and the checked swap that lets a writer see exactly what its rename displaced.

Linux has ``renameat2(RENAME_EXCHANGE)`` and macOS ``renamex_np(RENAME_SWAP)``: both swap
two names in one step, so the bytes a rename would have destroyed end up in our temp file,
where they can be compared with what we meant to replace and put back. Where neither exists
the swap falls back to a last look followed by a plain rename (a window of microseconds).
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path

_AT_FDCWD = -100
_RENAME_EXCHANGE = 2  # Linux
_RENAME_SWAP = 2  # macOS renamex_np


@functools.cache
def _load_swap() -> Callable[..., int] | None:
    """The system's swap call, looked up on the first write (ctypes costs a read its
    start-up time)."""
    import ctypes
    import ctypes.util

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
    except OSError:
        return None
    fn = getattr(libc, "renameat2" if sys.platform.startswith("linux") else "renamex_np", None)
    if fn is not None:
        fn.restype = ctypes.c_int
    return fn



def temp_path(target: Path, pid: int | None = None) -> Path:
    """A hidden temp name beside ``target`` that stays short whatever the target's length
    (a 250-byte note name must still be writable), one per thread (two threads writing
    one file must not share a temp file), ending in the writer's pid."""
    thread = f"{threading.get_ident():x}"
    return target.parent / f"{_temp_stem(target)}{thread}.aleph-tmp-{pid or os.getpid()}"


def temp_glob(target: Path) -> str:
    """A glob for every temp file of ``target``, whichever thread or process wrote it."""
    import glob

    return glob.escape(_temp_stem(target)) + "*.aleph-tmp-*"


def _temp_stem(target: Path) -> str:
    import zlib  # not hashlib: loading OpenSSL cost every CLI call 3-4 ms

    digest = f"{zlib.crc32(target.name.encode('utf-8', 'surrogateescape')):08x}"
    short = target.name.encode("utf-8", "surrogateescape")[:40].decode("utf-8", "ignore")
    return f".{short}.{digest}."


def fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_atomic(target: Path, data: bytes, durable: bool = True) -> None:
    """Temp file in the same folder, (fsync), rename over the target, (fsync the folder)."""
    tmp = temp_path(target)
    try:
        write_temp(tmp, data, durable)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        raise
    if durable:
        fsync_dir(target.parent)


def write_temp(tmp: Path, data: bytes, durable: bool = True) -> None:
    with open(tmp, "wb") as fh:
        fh.write(data)
        if durable:
            fh.flush()
            os.fsync(fh.fileno())


def swap(a: Path, b: Path) -> bool:
    """Exchange two existing names atomically. False where the system or the file system
    has no such call (the caller falls back to a checked rename)."""
    call = _load_swap()
    if call is None:
        return False
    if sys.platform.startswith("linux"):
        rc = call(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    else:
        rc = call(os.fsencode(a), os.fsencode(b), _RENAME_SWAP)
    if rc == 0:
        return True
    import ctypes

    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False
    raise OSError(err, os.strerror(err), str(b))


def link_new(src: Path, target: Path) -> bool:
    """Give ``src`` the name ``target`` only if ``target`` does not exist (a hard link is
    atomic and never replaces). False when something already has that name."""
    try:
        os.link(src, target)
    except FileExistsError:
        return False
    except OSError as exc:  # a file system without hard links: check, then rename
        if exc.errno not in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK):
            raise
        if os.path.lexists(target):
            return False
        os.rename(src, target)
        return True
    os.unlink(src)
    return True


def read_or_none(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None
