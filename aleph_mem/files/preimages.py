"""Content-addressed, compressed copies of note versions: ``.aleph/objects/<aa>/<sha256>``.
Pre-images live here so any change (by aleph-mem or by a person) can be undone."""

from __future__ import annotations

import re
import zlib
from pathlib import Path

from aleph_mem.errors import AlephError
from aleph_mem.files.atomic import write_atomic
from aleph_mem.files.vault import content_hash

HEX64 = re.compile(r"[0-9a-f]{64}")


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
        return self.path_of(digest).exists() or self._tombstone(digest).exists()

    def purge(self, digest: str, masked: str) -> None:
        """The version ``digest`` held a purged text: from now on it reads as the version
        ``masked`` (the same text with the purged part masked), and its own copy is gone."""
        write_atomic(self._tombstone(digest), masked.encode("ascii"))
        self.path_of(digest).unlink(missing_ok=True)

    def _tombstone(self, digest: str) -> Path:
        return self.path_of(digest).with_name(digest + ".purged")

    def get(self, digest: str) -> bytes:
        for _ in range(8):  # a purged version reads as its masked text (purged again, maybe)
            stone = self._tombstone(digest)
            if self.path_of(digest).exists() or not stone.is_file():
                break
            digest = stone.read_text(encoding="ascii", errors="replace").strip()
            if not HEX64.fullmatch(digest):
                raise AlephError(f"tombstone {stone} is damaged: that version cannot be read")
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
