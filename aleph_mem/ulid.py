"""ULIDs: 48-bit millisecond time + 80 random bits, Crockford base32, 26 characters.
Monotonic within a process, so ids sort in the order they were made."""

from __future__ import annotations

import os
import threading
import time

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_lock = threading.Lock()
_last = (0, 0)


def _encode(value: int, length: int) -> str:
    out = []
    for _ in range(length):
        out.append(ALPHABET[value & 31])
        value >>= 5
    return "".join(reversed(out))


def new_ulid(now_ms: int | None = None) -> str:
    global _last
    ms = int(time.time() * 1000) if now_ms is None else now_ms
    with _lock:
        last_ms, last_rand = _last
        if ms <= last_ms:
            ms, rand = last_ms, last_rand + 1
        else:
            rand = int.from_bytes(os.urandom(10), "big") >> 1  # room to increment
        _last = (ms, rand)
    return _encode(ms, 10) + _encode(rand, 16)


def ulid_time_ms(ulid: str) -> int:
    value = 0
    for ch in ulid[:10]:
        value = value * 32 + ALPHABET.index(ch)
    return value
