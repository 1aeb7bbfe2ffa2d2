"""Purge: a text (a secret pasted by mistake, say) taken out of everything aleph-mem keeps
beside the notes: every stored version in ``.aleph/objects``, the event log, captured
transcripts, the dream's journal, the session-start snapshots. The front door edits the
live notes first (``Memory.purge``), then calls ``purge_stored`` and rebuilds the index.

Outside the objects the text is masked in place with as many ``*`` as it had bytes, so
every offset a reader keeps into an append-only file still holds. A stored version holding
the text is stored again masked, and its old copy leaves a tombstone naming the masked one
(``<digest>.purged``): history still reads and undoes, without the text.
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from pathlib import Path

from aleph_mem.files.atomic import write_atomic
from aleph_mem.files.preimages import ObjectStore

# what under .aleph is never rewritten: the index (rebuilt whole), the settings, the
# embedding cache (vectors, no text), the objects (stored again, below), the locks
SKIPPED = ("index.db", "config.toml", "cache", "objects", "write.lock", "host-id")
MIN_CHARS = 8


@dataclass(frozen=True)
class PurgeReport:
    versions: int  # stored versions that held the text, now stored masked
    files: int  # other files under .aleph that held it (events, transcripts, journal)
    notes: tuple[str, ...] = ()  # live notes it was taken out of (logged edits)
    event: str | None = None  # the purge's own event (what and when, never the text)

    def as_json(self) -> dict[str, object]:
        return {"versions": self.versions, "files": self.files, "notes": list(self.notes),
                "event": self.event}


def forms(text: str) -> list[bytes]:
    """The ways ``text`` is written in a file: as it is, and inside a JSON string."""
    raw = text.encode("utf-8")
    escaped = json.dumps(text)[1:-1].encode("utf-8")
    ascii_only = json.dumps(text, ensure_ascii=True)[1:-1].encode("ascii")
    return list(dict.fromkeys((raw, escaped, ascii_only)))


def masked(data: bytes, found: list[bytes]) -> bytes:
    for form in found:
        data = data.replace(form, b"*" * len(form))
    return data


def purge_stored(aleph_dir: Path, text: str) -> tuple[int, int]:
    """Mask ``text`` in every stored version and every other file aleph-mem keeps under
    ``aleph_dir``; how many versions and files held it. Run under the vault's write lock."""
    found = forms(text)
    return _purge_objects(ObjectStore(aleph_dir / "objects"), found), \
        _purge_files(aleph_dir, found)


def _purge_objects(store: ObjectStore, found: list[bytes]) -> int:
    n = 0
    if not store.root.is_dir():
        return 0
    for path in sorted(store.root.glob("??/*")):
        if path.suffix or not path.is_file():
            continue  # a tombstone, or a temporary file of an atomic write
        try:
            data = zlib.decompress(path.read_bytes())
        except (zlib.error, OSError):
            continue  # a damaged copy: get() already says so
        if not any(form in data for form in found):
            continue
        store.purge(path.name, store.put(masked(data, found)))
        n += 1
    return n


def _purge_files(aleph_dir: Path, found: list[bytes]) -> int:
    n = 0
    for path in sorted(aleph_dir.rglob("*")):
        rel = path.relative_to(aleph_dir).parts
        if not path.is_file() or path.is_symlink() or rel[0] in SKIPPED \
                or rel[-1] in SKIPPED or rel[-1].startswith("index.db"):
            continue
        data = path.read_bytes()
        if any(form in data for form in found):
            write_atomic(path, masked(data, found))
            n += 1
    return n
