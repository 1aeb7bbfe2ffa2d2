"""What counts as a change made outside aleph-mem, so history holds only what happened.

A path's reference state is the last logged state of that path (the ``after`` of its newest
event, or nothing once it was moved away or deleted); for a path never logged, it is what
the index held. Bytes that equal the reference are no change, whatever the index says (a
writer killed between logging and re-indexing, an index rebuilt or re-created). A path the
index never held and the log never named is a new note only once the index has seen the
whole vault (its baseline); before that it is part of the baseline, not an event.
"""

from __future__ import annotations

import apsw

from .events import KINDS
from .indexer import NoteChange

_STATE = "(" + ",".join(f"'{k}'" for k in KINDS) + ")"


def last_logged(con: apsw.Connection, path: str) -> tuple[bool, str | None]:
    """(whether the log names this path, the hash it left there: None when gone)."""
    row = con.execute(
        "SELECT path, after FROM events WHERE (path = ? OR json_extract(data, '$.from') = ?) "
        f"AND kind IN {_STATE} ORDER BY id DESC LIMIT 1", (path, path)).fetchone()
    if row is None:
        return False, None
    return True, (row[1] if row[0] == path else None)


def outside_change(con: apsw.Connection, path: str, indexed: str | None,
                   now: str | None) -> NoteChange | None:
    """The change to record for ``path`` now holding ``now`` (a hash, None when gone), or
    None when there is nothing to record."""
    known, logged = last_logged(con, path)
    if known:
        return None if logged == now else NoteChange(path, logged, now)
    if indexed is not None:
        return None if indexed == now else NoteChange(path, indexed, now)
    if now is None or not has_baseline(con):
        return None
    return NoteChange(path, None, now)


def has_baseline(con: apsw.Connection) -> bool:
    row = con.execute("SELECT value FROM meta WHERE key = 'baseline'").fetchone()
    return bool(row and row[0] == "1")


def mark_baseline(con: apsw.Connection) -> None:
    con.execute("INSERT OR REPLACE INTO meta VALUES ('baseline', '1')")
