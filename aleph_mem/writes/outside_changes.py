"""What counts as a change made outside aleph-mem, so history holds only what happened.

A path's reference state is the last logged state of that path (the ``after`` of its newest
event, or nothing once it was moved away or deleted); for a path never logged, it is what
the index held, and where the index holds nothing (rebuilt, deleted, damaged), the version
the baseline kept (writes/unlogged.py). Bytes that equal the reference are no change,
whatever the index says (a writer killed between logging and re-indexing, a reconcile
killed between indexing and logging, an index rebuilt or re-created). A path that neither
the log, the index nor the baseline knew is a new note only once the index has seen the
whole vault (its baseline); before that it is part of the baseline, not an event.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import apsw

from aleph_mem.index.indexer import NoteChange
from aleph_mem.index.reading import hashes_of, meta_value, set_meta
from aleph_mem.writes.events import KINDS, ChangeKind, Event, make_event
from aleph_mem.writes.unlogged import Baseline

_STATE = "(" + ",".join(f"'{k}'" for k in KINDS) + ")"


def last_logged(con: apsw.Connection, path: str) -> tuple[bool, str | None]:
    """(whether the log names this path, the hash it left there: None when gone)."""
    return last_states(con, [path]).get(path, (False, None))


def last_states(con: apsw.Connection, paths: list[str]) -> dict[str, tuple[bool, str | None]]:
    """``last_logged`` for many paths in one query (the ``events_from`` index serves the
    moved-from side)."""
    wanted = json.dumps(sorted(set(paths)))
    out: dict[str, tuple[bool, str | None]] = {}
    for path, after, moved_from in con.execute(
            "SELECT path, after, json_extract(data, '$.from') FROM events "
            f"WHERE kind IN {_STATE} AND (path IN (SELECT value FROM json_each(?1)) "
            "OR json_extract(data, '$.from') IN (SELECT value FROM json_each(?1))) "
            "ORDER BY id", (wanted,)):
        out[path] = (True, after)
        if moved_from:
            out[moved_from] = (True, None)
    return out


def outside_change(con: apsw.Connection, path: str, indexed: str | None,
                   now: str | None, kept: Baseline | None = None) -> NoteChange | None:
    """The change to record for ``path`` now holding ``now`` (a hash, None when gone), or
    None when there is nothing to record."""
    if indexed == now and indexed is not None:
        return None  # the index saw these bytes: they were accounted for then
    found = outside_changes(con, [NoteChange(path, indexed, now)], kept)
    return found[0] if found else None


def outside_changes(con: apsw.Connection, changes: list[NoteChange],
                    kept: Baseline | None = None) -> list[NoteChange]:
    """Of the changes the index saw (``before`` = what it held), the ones to record as
    made outside aleph-mem, each with ``before`` = the path's reference state."""
    if not changes:
        return []
    logged = last_states(con, [c.path for c in changes])
    baseline = has_baseline(con) or bool(kept and kept.complete)
    out = []
    for c in changes:
        known, state = logged.get(c.path, (False, None))
        if not known and c.before is None and kept is not None:
            known, state = kept.state(c.path)  # the index lost it: the baseline kept it
        if known:
            if state != c.after:
                out.append(NoteChange(c.path, state, c.after))
        elif c.before is not None:
            if c.before != c.after:
                out.append(c)
        elif c.after is not None and baseline:
            out.append(c)
    return out


def recovered(con: apsw.Connection, root: Path, unfinished: dict[str, str | None],
              changes: list[NoteChange]) -> list[NoteChange]:
    """A killed reconcile's paths (``unfinished``: path -> what the index held before it)
    joined to this reconcile's changes: each change from what the index held before the
    kill to what it holds now. A path that left the index while its file stays is no
    change (ignored, hidden, a loop), as in a reconcile."""
    if not unfinished:
        return changes
    seen = {c.path for c in changes}
    out = [NoteChange(c.path, unfinished[c.path], c.after) if c.path in unfinished else c
           for c in changes]
    indexed = hashes_of(con, unfinished)
    for path, before in sorted(unfinished.items()):
        if path in seen or (path not in indexed and os.path.lexists(root / path)):
            continue
        out.append(NoteChange(path, before, indexed.get(path)))
    return out


def has_baseline(con: apsw.Connection) -> bool:
    return meta_value(con, "baseline") == "1"


def mark_baseline(con: apsw.Connection) -> None:
    set_meta(con, "baseline", "1")


def human_events(changes: list[NoteChange]) -> list[Event]:
    """Events for changes made outside aleph-mem. A note that vanished and one that
    appeared with the same bytes is a move."""
    gone = {c.before: c for c in changes if c.after is None}
    out, moved = [], set()
    for c in changes:
        if c.before is None and c.after in gone and gone[c.after].path not in moved:
            src = gone[c.after].path
            moved.add(src)
            out.append(make_event("human", "note-moved", c.path, c.after, c.after,
                                  data={"from": src}))
    for c in changes:
        if c.path in moved or (c.before is None and any(
                e.path == c.path for e in out)):
            continue
        kind: ChangeKind = ("note-created" if c.before is None else
                "note-deleted" if c.after is None else "note-updated")
        out.append(make_event("human", kind, c.path, c.before, c.after))
    return out
