"""Sessions in the index: each raw session (``raw_store.py``) as a row, its messages in chunks of
about 400 tokens with 80 of overlap, cut at message boundaries, in full-text search. Built
from the raw files alone, so deleting the index loses nothing.

``search`` ranks sessions by their best chunk and returns key quotes (the matched passages)
so an agent can tell which session held what without reading it whole.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import apsw

from aleph_mem.index import db
from aleph_mem.index.search import fts_query, like_prefix
from aleph_mem.sessions.raw_store import RawStore, Session, messages_at
from aleph_mem.sessions.transcripts import Message

CHUNK_TOKENS = 400
OVERLAP_TOKENS = 80
CHARS_PER_TOKEN = 4


@dataclass(frozen=True)
class Chunk:
    seq: int
    first: str  # message ids
    last: str
    at: str
    text: str


@dataclass(frozen=True)
class SessionHit:
    key: str
    client: str
    session_id: str
    project: str
    started: str
    ended: str
    messages: int
    note: str
    score: float
    quotes: list[str] = field(default_factory=list)
    title: str = ""

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


def chunks(msgs: Iterable[Message], size: int = CHUNK_TOKENS,
           overlap: int = OVERLAP_TOKENS) -> list[Chunk]:
    """Messages in chunks of about ``size`` tokens; each chunk after the first starts with
    the last messages of the one before, up to ``overlap`` tokens. A message longer than a
    chunk is cut into windows of its own."""
    limit, keep = size * CHARS_PER_TOKEN, overlap * CHARS_PER_TOKEN
    pieces: list[tuple[Message, str]] = []
    for m in msgs:
        if m.sidechain and m.role == "tool":
            continue  # a sub-agent's tool output: its answer to the main agent is kept
        text = m.line()
        for start in range(0, len(text), limit - keep):
            pieces.append((m, text[start:start + limit]))
            if start + limit >= len(text):
                break
    out: list[Chunk] = []
    current: list[tuple[Message, str]] = []
    used = 0
    for piece in pieces:
        if current and used + len(piece[1]) > limit:
            out.append(_chunk(len(out), current))
            tail: list[tuple[Message, str]] = []
            room = keep
            for prev in reversed(current):
                if len(prev[1]) > room:
                    break
                tail.insert(0, prev)
                room -= len(prev[1])
            if not tail:  # the last message is longer than the overlap: its end is carried
                last = current[-1]
                tail = [(last[0], last[1][-keep:])]
            current, used = tail, sum(len(p[1]) for p in tail)
        current.append(piece)
        used += len(piece[1]) + 1
    if current and (not out or current[-1][0].id != out[-1].last or len(current) > 1):
        out.append(_chunk(len(out), current))
    return out


def _chunk(seq: int, pieces: list[tuple[Message, str]]) -> Chunk:
    return Chunk(seq, pieces[0][0].id, pieces[-1][0].id, pieces[0][0].at,
                 "\n".join(p[1] for p in pieces))


def first_prompt(msgs: Iterable[Message]) -> str:
    for m in msgs:
        if m.role == "user" and not m.command and not m.sidechain:
            return " ".join(m.text.split())[:200]
    return ""


def sync(con: apsw.Connection, store: RawStore) -> int:
    """Bring the sessions table in step with the raw files; returns sessions (re)indexed."""
    known = {key: (size, meta) for key, size, meta in con.execute(
        "SELECT key, raw_size, meta FROM sessions")}
    present: set[str] = set()
    changed = 0
    for session, lines_path in store.sessions():
        present.add(session.key)
        size = _size(lines_path)
        meta = json.dumps(session.as_json(), sort_keys=True)
        if known.get(session.key) == (size, meta):
            continue
        with db.transaction(con):
            _index(con, session, lines_path, size, meta)
        changed += 1
    gone = [k for k in known if k not in present]
    if gone:
        with db.transaction(con):
            for key in gone:
                _drop(con, key)
    return changed


def index_one(con: apsw.Connection, session: Session, lines_path: Path) -> None:
    with db.transaction(con):
        _index(con, session, lines_path, _size(lines_path),
               json.dumps(session.as_json(), sort_keys=True))


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def _index(con: apsw.Connection, s: Session, lines_path: Path, size: int, meta: str) -> None:
    """(Re)index a session. Its raw file only grows while it is captured, so a session
    indexed before keeps its chunks but the last, which is cut again with what is new
    (a late turn of a long session costs what it adds, and earlier chunks keep their
    vectors); a file that shrank is indexed anew."""
    row = con.execute("SELECT id, raw_size, messages, title FROM sessions WHERE key = ?",
                      (s.key,)).fetchone()
    last = con.execute("SELECT id, seq, raw_offset FROM session_chunks WHERE session = ? "
                       "ORDER BY seq DESC LIMIT 1", (row[0],)).fetchone() if row else None
    if row is None or last is None or size < row[1]:
        _drop(con, s.key)
        _fresh(con, s, lines_path, size, meta)
        return
    sid, old_size, count, title = row
    tail = list(messages_at(lines_path, last[2]))
    count += sum(1 for at, _ in tail if at >= old_size)
    con.execute("DELETE FROM session_fts WHERE rowid = ?", (last[0],))
    con.execute("DELETE FROM session_chunks WHERE id = ?", (last[0],))
    _insert_chunks(con, sid, tail, last[1])
    con.execute(
        "UPDATE sessions SET project = ?, cwd = ?, started = ?, ended = ?, messages = ?, "
        "closed = ?, note = ?, title = ?, raw_size = ?, meta = ? WHERE id = ?",
        (s.project, s.cwd, s.started, s.ended, count, int(s.closed), s.note,
         title or first_prompt(m for _, m in tail), size, meta, sid))


def _fresh(con: apsw.Connection, s: Session, lines_path: Path, size: int, meta: str) -> None:
    found = list(messages_at(lines_path))
    msgs = [m for _, m in found]
    con.execute(
        "INSERT INTO sessions(key, client, session_id, host, project, cwd, started, ended, "
        "messages, closed, note, title, raw_size, meta) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        (s.key, s.client, s.session_id, s.host, s.project, s.cwd, s.started, s.ended,
         len(msgs), int(s.closed), s.note, first_prompt(msgs), size, meta))
    _insert_chunks(con, con.last_insert_rowid(), found, 0)


def _insert_chunks(con: apsw.Connection, sid: int, found: list[tuple[int, Message]],
                   first_seq: int) -> None:
    where = {m.id: at for at, m in found}
    for c in chunks([m for _, m in found]):
        con.execute("INSERT INTO session_chunks(session, seq, first_msg, last_msg, at, text, "
                    "raw_offset) VALUES (?,?,?,?,?,?,?)",
                    (sid, first_seq + c.seq, c.first, c.last, c.at, c.text, where[c.first]))
        con.execute("INSERT INTO session_fts(rowid, text) VALUES (?, ?)",
                    (con.last_insert_rowid(), c.text))


def _drop(con: apsw.Connection, key: str) -> None:
    row = con.execute("SELECT id FROM sessions WHERE key = ?", (key,)).fetchone()
    if row is None:
        return
    con.execute("DELETE FROM session_fts WHERE rowid IN (SELECT id FROM session_chunks "
                "WHERE session = ?)", (row[0],))
    con.execute("DELETE FROM session_chunks WHERE session = ?", (row[0],))
    con.execute("DELETE FROM sessions WHERE id = ?", (row[0],))


COLUMNS = "key, client, session_id, project, started, ended, messages, note, title"


def listing(con: apsw.Connection, project: str | None = None,
            limit: int = 20) -> list[SessionHit]:
    where, args = _where(project)
    rows = con.execute(f"SELECT {COLUMNS} FROM sessions{where} ORDER BY ended DESC LIMIT ?",
                       (*args, limit)).fetchall()
    return [_hit(r, 0.0, []) for r in rows]


def _where(project: str | None) -> tuple[str, tuple[Any, ...]]:
    if not project:
        return "", ()
    return " WHERE lower(project) = lower(?)", (project,)


RRF_K = 60
MIN_SIMILARITY = 0.3  # a chunk less like the query than this is no match by meaning


def search(con: apsw.Connection, query: str, limit: int = 5, project: str | None = None,
           quotes: int = 3, qvec: tuple[str, Any] | None = None) -> list[SessionHit]:
    """Sessions whose messages match ``query`` (words, and meaning when ``qvec``, the
    query's ("model:dim", vector), is given), best first, each with its best passages."""
    where, args = _where(project)
    filt = where.replace(" WHERE ", " AND ")
    words: dict[int, list[str]] = {}  # session -> its matching passages, best first
    ranked: list[int] = []
    match = fts_query(query)
    if match is not None:
        for sid, snippet in con.execute(
                "SELECT c.session, snippet(session_fts, 0, '**', '**', '…', 28) "
                "FROM session_fts JOIN session_chunks c ON c.id = session_fts.rowid "
                "JOIN sessions ON sessions.id = c.session "
                f"WHERE session_fts MATCH ?{filt} ORDER BY bm25(session_fts) LIMIT 200",
                (match, *args)):
            said = words.setdefault(sid, [])
            if sid not in ranked:
                ranked.append(sid)
            text = " ".join(snippet.split())
            if len(said) < quotes and text not in said:
                said.append(text)
    meaning: list[tuple[int, int]] = []
    if qvec is not None:
        from aleph_mem.sessions.chunk_vectors import nearest

        seen: set[int] = set()
        for sid, cid, sim in nearest(con, qvec[1], qvec[0], 100, filt, args):
            if sid not in seen and sim >= MIN_SIMILARITY:
                seen.add(sid)
                meaning.append((sid, cid))
    fused: dict[int, float] = {}
    for rank, sid in enumerate(ranked):
        fused[sid] = fused.get(sid, 0.0) + 1 / (RRF_K + rank + 1)
    for rank, (sid, _cid) in enumerate(meaning):
        fused[sid] = fused.get(sid, 0.0) + 1 / (RRF_K + rank + 1)
    best_chunk = dict(meaning)
    out = []
    for sid in sorted(fused, key=lambda s: -fused[s])[:limit]:
        said = words.get(sid) or [_passage(con, best_chunk[sid])]
        r = con.execute(f"SELECT {COLUMNS} FROM sessions WHERE id = ?", (sid,)).fetchone()
        out.append(_hit(r, round(fused[sid] * 1000, 2), said))
    return out


def _passage(con: apsw.Connection, chunk_id: int, size: int = 240) -> str:
    text = con.execute("SELECT text FROM session_chunks WHERE id = ?", (chunk_id,)).fetchone()[0]
    return " ".join(text.split())[:size] + "…"


def _hit(r: tuple[Any, ...], score: float, quotes: list[str]) -> SessionHit:
    key, client, session_id, project, started, ended, count, note, title = r
    return SessionHit(key, client, session_id, project, started, ended, count, note, score,
                      quotes, title)


def find(con: apsw.Connection, ref: str) -> Session | None:
    """A session by its key, its id, or the start of its id (the latest such)."""
    row = con.execute("SELECT meta FROM sessions WHERE key = ? OR session_id = ? "
                      "ORDER BY ended DESC LIMIT 1", (ref, ref)).fetchone()
    if row is None and len(ref) >= 6:
        row = con.execute("SELECT meta FROM sessions WHERE session_id LIKE ? ESCAPE '\\' "
                          "ORDER BY ended DESC LIMIT 1",
                          (like_prefix(ref) + "%",)).fetchone()
    return Session.from_json(json.loads(row[0])) if row else None
