"""Content-addressed, compressed copies of note versions: ``.aleph/objects/<aa>/<sha256>``.
Pre-images live here so any change (by aleph-mem or by a person) can be undone."""

from __future__ import annotations

import zlib
from pathlib import Path

from aleph_mem.errors import AlephError
from aleph_mem.files.atomic import write_atomic
from aleph_mem.files.vault import content_hash


class ObjectStore:
    def __init__(self, root: Path) -> None:
        self.root = root

    def path_of(self, digest: str) -> Path:
        return self.root / digest[:2] / digest

    def put(self, data: bytes, durable: bool = True) -> str:
        digest = content_hash(data)
        target = self.path_of(digest)
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(target, zlib.compress(data, 6), durable)
        return digest

    def has(self, digest: str) -> bool:
        return self.path_of(digest).exists()

    def get(self, digest: str) -> bytes:
        try:
            data = zlib.decompress(self.path_of(digest).read_bytes())
        except FileNotFoundError:
            raise AlephError(f"no stored copy of version {digest}: it was never indexed or "
                             "written through aleph-mem, so it cannot be restored") from None
        except (zlib.error, OSError) as exc:  # a damaged or unreadable copy: one line
            raise AlephError(f"stored copy {self.path_of(digest)} cannot be read ({exc}): "
                             "that version cannot be restored") from None
        if content_hash(data) != digest:
            raise AlephError(f"stored copy {self.path_of(digest)} is damaged (hash mismatch)")
        return data
