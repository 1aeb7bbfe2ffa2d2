"""Every note as it was at a moment, read back from the event log and the pre-images.

The log holds each change with the hash of the bytes before and after it, and the object
store holds those bytes, so the vault at any time since aleph-mem began watching is a
function of the log: a note unchanged since then is as it is now; a note changed since is
what the first later change found (its ``before``), at the path it had then (a later move
or archive names where it came from); a note created since did not exist. Before the
first event, the log knows nothing: ``memory_starts`` says from when it does.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import apsw

from aleph_mem.writes.events import KINDS

CHANGES = "(" + ",".join(f"'{k}'" for k in KINDS) + ")"


@dataclass(frozen=True)
class Version:
    path: str  # where the note lived then
    hash: str | None  # its bytes' hash then; None: there was no such note
    at: str | None  # when it became so (its last logged change by then); None: as first seen
    event: str | None  # that change's event id
    actor: str | None = None


def memory_starts(con: apsw.Connection) -> str | None:
    """The time of the first event in the log (any device): history is known from there."""
    row = con.execute("SELECT min(at) FROM events").fetchone()
    return row[0] if row else None


def changed_since(con: apsw.Connection, when: str) -> dict[str, Version]:
    """Every path whose state at ``when`` (an ISO time) differs from now, with that state."""
    out: dict[str, Version] = {}
    for path, before, data in con.execute(
            f"SELECT path, before, data FROM events WHERE at > ? AND kind IN {CHANGES} "
            "ORDER BY at, id", (when,)):
        source = json.loads(data).get("from") if data else None
        if source and source not in out:
            out[source] = Version(source, before, None, None)  # it lived there, as before
        if path not in out:
            out[path] = Version(path, None if source else before, None, None)
    return out


def dated(con: apsw.Connection, v: Version, when: str) -> Version:
    """The version with the change that made it so (the path's last event by ``when``)."""
    if v.hash is None:
        return v
    row = con.execute(
        f"SELECT id, at, actor FROM events WHERE (path = ? OR json_extract(data, '$.from') = ?) "
        f"AND at <= ? AND kind IN {CHANGES} ORDER BY at DESC, id DESC LIMIT 1",
        (v.path, v.path, when)).fetchone()
    return Version(v.path, v.hash, row[1], row[0], row[2]) if row else v


def at_time(con: apsw.Connection, path: str, when: str) -> Version:
    """One note's version at ``when``: as now when nothing changed it since."""
    changed = changed_since(con, when)
    if path in changed:
        return dated(con, changed[path], when)
    from aleph_mem.index.reading import hash_of

    return dated(con, Version(path, hash_of(con, path), None, None), when)


def history_of(con: apsw.Connection, paths: set[str], since: str | None = None) -> list[tuple]:
    """Every logged change of these notes (under their present or former paths), oldest
    first: (id, at, actor, kind, path, before, after, reason, data)."""
    names = sorted(paths)
    marks = ",".join("?" * len(names))
    rows = con.execute(
        f"SELECT id, at, actor, kind, path, before, after, reason, data FROM events "
        f"WHERE (path IN ({marks}) OR json_extract(data, '$.from') IN ({marks})) "
        f"AND at >= ? AND kind IN {CHANGES} ORDER BY at, id",
        (*names, *names, since or "")).fetchall()
    return rows
