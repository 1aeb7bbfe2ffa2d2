"""Search and read the vault as it was at a moment (``--as-of``; MCP ``as_of``).

The notes unchanged since then answer from the index; the notes changed, moved, archived or
deleted since answer with their text of that day, read back from the pre-images
(versions.py); the notes created since are absent. Both kinds are ranked together in one
small full-text index of the candidates (BM25 over the same words), so a note's old text and
another note's present text compete fairly. Every hit says which version it comes from.
"""

from __future__ import annotations

import calendar
import datetime as dt
import json
import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import apsw

from aleph_mem import logs
from aleph_mem.clock import iso
from aleph_mem.errors import AlephError, BadInput
from aleph_mem.files.vault import ARCHIVE, DREAM
from aleph_mem.index import reading
from aleph_mem.index.db import transaction
from aleph_mem.index.search import MARKS, Filters, Hit, bold, fts_query
from aleph_mem.writes.events import last_change_at
from aleph_mem.writes.versions import Version, changed_since, dated, memory_starts

if TYPE_CHECKING:
    from aleph_mem.store import Store

CANDIDATES = 200  # present-day hits re-ranked with the old versions
BACKGROUND = 300  # passages of the vault that give the candidates' ranking its statistics

log = logs.get(__name__)


@dataclass(frozen=True)
class AsOf:
    when: str  # ISO time asked for
    starts: str | None  # the first event in the log: history is known from there
    changed: dict[str, Version]

    @property
    def notice(self) -> str:
        if self.starts is None:
            return "no history yet: the vault as it is now (aleph-mem logs from its first change)"
        if self.when < self.starts:
            return (f"aleph-mem's memory of this vault starts {self.starts[:10]}: notes as "
                    "first seen then, changes before it unknown")
        return ""


def moment(text: str, now: dt.datetime | None = None) -> str:
    """An ``--as-of`` value as an ISO time: a date, a month or a year means the end of it
    (UTC); a time or a span back from now (``30d``) is that moment."""
    from aleph_mem.index.timespec import parse_when

    when = parse_when(text, "--as-of", now)
    if re.fullmatch(r"\d{4}", when):
        end = dt.date(int(when), 12, 31)
    elif re.fullmatch(r"\d{4}-\d{2}", when):
        year, month = int(when[:4]), int(when[5:])
        end = dt.date(year, month, calendar.monthrange(year, month)[1])  # 9999-12 too
    elif re.fullmatch(r"\d{4}-\d{2}-\d{2}", when):
        end = dt.date.fromisoformat(when)
    else:
        return when
    return iso(dt.datetime.combine(end, dt.time(23, 59, 59, 999000), dt.UTC))


def state(mem: Store, when: str) -> AsOf:
    return AsOf(when, memory_starts(mem.con), changed_since(mem.con, when))


def search(mem: Store, query: str, when: str, limit: int = 10,
           filters: Filters | None = None) -> tuple[list[Hit], str]:
    """The best passages of the vault as it was at ``when``, and a notice (where memory
    starts). Each hit carries ``version``: the date and event of the text it comes from.

    The old texts are searched in the index's ``version_fts`` (each version's chunks, added
    the first time a search needs them); the best of them and the best present-day passages
    are then ranked together in one small full-text index, so both compete on the same
    word statistics."""
    match = fts_query(query)
    if match is None:
        raise BadInput("give words to search for")
    then = state(mem, when)
    now_hits = [(h, text) for h, text in _present_passages(mem.con, match, filters)
                if h.path not in then.changed]
    old = {v.hash: v for v in then.changed.values()
           if v.hash is not None and _wanted(v.path, filters)}
    con = apsw.Connection(":memory:")
    con.execute("CREATE VIRTUAL TABLE t USING fts5(key UNINDEXED, title, heading, body, "
                "tokenize='porter unicode61 remove_diacritics 2')")
    _background(mem.con, con)
    rows: dict[int, tuple[Hit, dict[str, Any]]] = {}
    for h, text in now_hits:
        rows[len(rows)] = (h, {"as": "unchanged since"})
        con.execute("INSERT INTO t VALUES (?, ?, ?, ?)", (len(rows) - 1, h.title,
                                                          " ".join(h.heading), text))
    for h, text, v in _old_passages(mem, match, old):
        rows[len(rows)] = (h, {"as": "the text of", "version": v})
        con.execute("INSERT INTO t VALUES (?, ?, ?, ?)", (len(rows) - 1, h.title,
                                                          " ".join(h.heading), text))
    found = con.execute("SELECT key, -bm25(t, 0, 2.0, 1.5, 1.0) AS s, "
                        f"snippet(t, 3, {MARKS}, '…', 24) FROM t WHERE t MATCH ? "
                        "ORDER BY s DESC LIMIT ?", (match, limit * 5)).fetchall()
    out: list[Hit] = []
    for key, score, snippet in found:
        if int(key) < 0:
            continue  # a background passage (below)
        h, version = rows[int(key)]
        if any(x.path == h.path for x in out):
            continue
        if "version" in version:  # dated only for what is shown: one query per hit
            v = dated(mem.con, version["version"], when)
            version = {"as": "the text of", "at": v.at, "event": v.event}
        else:
            version = {"as": "unchanged since", "at": _last_change(mem.con, h.path)}
        out.append(replace(h, score=round(score, 4), snippet=bold(snippet) or h.snippet,
                           version={k: v for k, v in version.items() if v}))
        if len(out) == limit:
            break
    return out, then.notice


def _background(index: apsw.Connection, con: apsw.Connection) -> None:
    """Passages of the vault spread over it (the same ones every time), added to the small
    index of candidates as background: with the candidates alone a term in half of them
    weighs nothing, and a search matching few passages gave every score 0.00 and a tie."""
    for title, heading, body in reading.spread_passages(index, BACKGROUND):
        con.execute("INSERT INTO t VALUES (-1, ?, ?, ?)", (title, heading, body))


def _present_passages(con: apsw.Connection, match: str, filters: Filters | None) -> list[
        tuple[Hit, str]]:
    """The best passages of the notes as they are (BM25 alone: the union is ranked again),
    CANDIDATES of them, with their text."""
    rows = reading.best_passages(con, match, filters or Filters(), CANDIDATES)
    out = []
    for path, title, heading_json, block_id, line, body in rows:
        heading = json.loads(heading_json)
        anchor = f"#^{block_id}" if block_id else (f"#{heading[-1]}" if heading else "")
        out.append((Hit(path, anchor, title, 0.0, "", line, heading, block_id), body or ""))
    return out


def _old_passages(mem: Store, match: str, old: dict[str, Version]) -> list[
        tuple[Hit, str, Version]]:
    """The passages of these old versions that match, best first (CANDIDATES of them)."""
    if not old:
        return []
    known = {d for (d,) in mem.con.execute(
        "SELECT hash FROM versions_read WHERE hash IN (SELECT value FROM json_each(?))",
        (json.dumps(sorted(old)),))}
    _add_versions(mem, [h for h in old if h not in known])
    rows = mem.con.execute(
        "SELECT c.hash, c.title, c.heading_path, c.block_id, c.line, f.body FROM version_fts f "
        "JOIN version_chunks c ON c.id = f.rowid WHERE version_fts MATCH ? AND c.hash IN "
        "(SELECT value FROM json_each(?)) ORDER BY bm25(version_fts, 2.0, 1.5, 1.0) LIMIT ?",
        (match, json.dumps(sorted(old)), CANDIDATES)).fetchall()
    out = []
    for digest, title, heading_json, block_id, line, body in rows:
        v = old[digest]
        heading = json.loads(heading_json)
        anchor = f"#^{block_id}" if block_id else (f"#{heading[-1]}" if heading else "")
        name = v.path.rsplit("/", 1)[-1].removesuffix(".md")
        out.append((Hit(v.path, anchor, title if title not in ("", "version") else name, 0.0,
                        "", line, heading, block_id), body, v))
    return out


def _add_versions(mem: Store, digests: list[str]) -> None:
    """Parse these versions once and keep their chunks in the index (on a read-only disk
    they cannot be kept, and are not searched)."""
    from aleph_mem.notes.parser import parse

    if not digests:
        return
    rows = []
    for digest in digests:
        try:
            data = mem.objects.get(digest)
        except AlephError:
            data = b""  # a version this device never held: nothing to search
        if not data:
            continue
        note = parse(data, "")  # no title: the path's name, when shown
        for c in note.chunks:
            rows.append((digest, note.title, json.dumps(list(c.heading_path)), c.block_id,
                         c.line_start, c.text))
    try:
        with transaction(mem.con):
            _insert(mem.con, digests, rows)
    except (apsw.ReadOnlyError, apsw.CantOpenError) as exc:  # a read-only disk
        log.info("old versions not added to the index: %s", exc)


def _insert(con: apsw.Connection, digests: list[str], rows: list[tuple]) -> None:
    for digest, title, heading, block_id, line, text in rows:
        con.execute("INSERT INTO version_chunks(hash, title, heading_path, block_id, line) "
                    "VALUES (?, ?, ?, ?, ?)", (digest, title, heading, block_id, line))
        con.execute("INSERT INTO version_fts(rowid, title, heading, body) VALUES "
                    "(last_insert_rowid(), ?, ?, ?)", (title, heading, text))
    con.executemany("INSERT OR IGNORE INTO versions_read VALUES (?)", [(d,) for d in digests])


def read(mem: Store, ref: str, when: str) -> tuple[str, str, Version]:
    """(path, text, version) of a note as it was at ``when``, found by path, file name, title
    or alias now, or by its path then (a note archived, moved or deleted since)."""
    then = state(mem, when)
    path = _path_then(mem, ref, then)
    if path in then.changed:
        version = dated(mem.con, then.changed[path], when)
    else:
        from aleph_mem.writes.versions import at_time

        version = at_time(mem.con, path, when)
    if version.hash is None:
        raise BadInput(f"{path} did not exist at {when[:19]}Z" + (
            f"; {then.notice}" if then.notice else ""))
    return path, _bytes(mem, version).decode("utf-8", "replace"), version


def _path_then(mem: Store, ref: str, then: AsOf) -> str:
    wanted = ref.strip().removesuffix(".md")
    named = [p for p in then.changed  # a path that changed since: gone, moved or new
             if p.removesuffix(".md") in (wanted, wanted.removeprefix(ARCHIVE))]
    if named:
        return max(named, key=lambda p: then.changed[p].hash is not None)
    path = mem.find_note(ref)
    if path.startswith(ARCHIVE) and path[len(ARCHIVE):] in then.changed:
        return path[8:]
    return path


def _bytes(mem: Store, v: Version) -> bytes:
    try:
        return mem.objects.get(v.hash or "")
    except AlephError as exc:
        raise AlephError(f"the text {v.path} had then is not kept here ({exc})") from None


def _wanted(path: str, f: Filters | None) -> bool:
    if path.startswith((ARCHIVE, DREAM)) or path == "MEMORY.md":
        return False
    return f is None or not f.folder or path.startswith(f.folder.rstrip("/") + "/")


def _last_change(con: apsw.Connection, path: str) -> str | None:
    return last_change_at(con, path)
