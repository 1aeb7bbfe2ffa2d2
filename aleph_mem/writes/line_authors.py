"""Who put a line into a file: the actor of the newest logged change that added it.

Every change is an event with the hash of the bytes before it, and every version is kept in
the object store (the writer keeps each pre-image, the indexer each version it reads), so
a file's history can be read back line by line. A line the log cannot explain (there
before aleph-mem watched, or a version no longer kept) is the person's: no agent is ever
credited with what the log does not show it wrote.
"""

from __future__ import annotations

import apsw

from aleph_mem.errors import AlephError
from aleph_mem.files.preimages import ObjectStore
from aleph_mem.files.vault import content_hash
from aleph_mem.writes.events import KINDS

PERSON = "human"  # what the log cannot explain was written by hand
_CHANGES = "(" + ",".join(f"'{k}'" for k in KINDS) + ")"


def introduced_by(con: apsw.Connection, objects: ObjectStore, path: str,
                  current: bytes | None, lines: set[str]) -> dict[str, str]:
    """For each of ``lines`` that ``current`` (the file's bytes now) holds, the actor who
    added it. Bytes the log has not seen yet (an editor's save not logged so far) are the
    person's."""
    pending = lines & _lines(current)
    out: dict[str, str] = {}
    rows = con.execute(f"SELECT actor, before, after FROM events WHERE path = ? AND kind IN "
                       f"{_CHANGES} ORDER BY at DESC, id DESC", (path,)).fetchall()
    newest = rows[0][2] if rows else None
    if current is not None and rows and newest != content_hash(current):
        rows = [(PERSON, newest, content_hash(current)), *rows]  # an unlogged save
    for actor, before, _after in rows:
        if not pending:
            break
        try:
            older = _lines(objects.get(before)) if before is not None else set()
        except AlephError:
            break  # the version before is not kept: what is left is the person's
        for line in pending - older:
            out[line] = actor
        pending &= older
    return {**{line: PERSON for line in pending}, **out}


def _lines(data: bytes | None) -> set[str]:
    return set((data or b"").decode("utf-8", "replace").splitlines())
