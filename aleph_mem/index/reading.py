"""Named questions of the index about the notes and what is parsed from them (titles,
hashes, frontmatter, tags, aliases, headings, chunks, the index's own ``meta``): the rooms
above ``index/`` ask these instead of writing SQL about tables they do not own. Each takes
the connection and the question's parameters and returns plain values."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import apsw

from aleph_mem.index.search import Filters, filter_sql, like_prefix

DIGESTS = "path LIKE '\\_dream/digests/%' ESCAPE '\\'"  # the dream's daily digests


# -- one note ---------------------------------------------------------------------------

def hash_of(con: apsw.Connection, path: str) -> str | None:
    """The hash the index holds of a note (None: it holds no such note)."""
    row = con.execute("SELECT hash FROM notes WHERE path = ?", (path,)).fetchone()
    return row[0] if row else None


def note_row(con: apsw.Connection, path: str) -> tuple[int, str, str, str, str] | None:
    """(id, title, hash, frontmatter JSON, issues JSON) of a note."""
    row = con.execute("SELECT id, title, hash, frontmatter, issues FROM notes WHERE path=?",
                      (path,)).fetchone()
    return row


def frontmatter_of(con: apsw.Connection, path: str) -> dict[str, Any] | None:
    row = con.execute("SELECT frontmatter FROM notes WHERE path = ?", (path,)).fetchone()
    return json.loads(row[0]) if row else None


def type_of(con: apsw.Connection, path: str) -> Any:
    """The note's frontmatter ``type`` (None: no such note, or none stated)."""
    row = con.execute("SELECT json_extract(frontmatter, '$.type') FROM notes WHERE path = ?",
                      (path,)).fetchone()
    return row[0] if row else None


def tags_of(con: apsw.Connection, note_id: int) -> list[str]:
    """A note's tags as written, in order, each once."""
    return list(dict.fromkeys(t for (t,) in con.execute(
        "SELECT tag FROM tags WHERE note_id=? ORDER BY rowid", (note_id,))))


def aliases_of(con: apsw.Connection, note_id: int) -> list[str]:
    return [a for (a,) in con.execute(
        "SELECT alias FROM aliases WHERE note_id=? ORDER BY rowid", (note_id,))]


def aliases_of_path(con: apsw.Connection, path: str) -> list[str]:
    return [a for (a,) in con.execute(
        "SELECT alias FROM aliases a JOIN notes n ON n.id = a.note_id WHERE n.path = ?",
        (path,))]


def chunk_text(con: apsw.Connection, chunk_id: int) -> tuple[str, str] | None:
    """(title, body) of a chunk."""
    row = con.execute("SELECT title, body FROM chunks_fts WHERE rowid = ?",
                      (chunk_id,)).fetchone()
    return (row[0], row[1]) if row else None


# -- many notes -------------------------------------------------------------------------

def hashes_of(con: apsw.Connection, paths: Iterable[str]) -> dict[str, str]:
    """path -> hash of those of ``paths`` the index holds (one query)."""
    return dict(con.execute(
        "SELECT path, hash FROM notes WHERE path IN (SELECT value FROM json_each(?))",
        (json.dumps(sorted(paths)),)).fetchall())


def paths_and_hashes(con: apsw.Connection) -> list[tuple[str, str]]:
    """(path, hash) of every note, by path."""
    return [(p, h) for p, h in con.execute("SELECT path, hash FROM notes ORDER BY path")]


def paths_and_titles(con: apsw.Connection) -> list[tuple[str, str]]:
    return [(p, t) for p, t in con.execute("SELECT path, title FROM notes")]


def any_note(con: apsw.Connection) -> bool:
    return con.execute("SELECT 1 FROM notes LIMIT 1").fetchone() is not None


def folder_has_notes(con: apsw.Connection, folder: str) -> bool:
    """A note lives in ``folder`` or below it."""
    return con.execute(
        "SELECT 1 FROM notes WHERE folder = ? OR folder LIKE ? ESCAPE '\\' LIMIT 1",
        (folder, like_prefix(folder) + "/%")).fetchone() is not None


def live_note_count(con: apsw.Connection) -> int:
    """Notes outside ``archive/``."""
    return int(con.execute("SELECT count(*) FROM notes WHERE archived = 0").fetchone()[0])


def exact_path(con: apsw.Connection, ref: str) -> str | None:
    """The note at exactly ``ref`` or ``ref.md`` (never a case twin of it)."""
    row = con.execute("SELECT path FROM notes WHERE path IN (?, ?)",
                      (ref, ref + ".md")).fetchone()
    return row[0] if row else None


def other_names(con: apsw.Connection) -> list[tuple[str, Any, int]]:
    """(path, name, rank) of every name a note has besides its path: its aliases (rank 0),
    a declared title (1) and its first-level headings (2)."""
    return [(p, n, r) for p, n, r in con.execute(
        "SELECT n.path, a.alias, 0 FROM aliases a JOIN notes n ON n.id=a.note_id UNION ALL "
        "SELECT path, json_extract(frontmatter, '$.title'), 1 FROM notes WHERE "
        "json_type(frontmatter, '$.title') = 'text' UNION ALL "
        "SELECT n.path, h.text, 2 FROM headings h JOIN notes n ON n.id = h.note_id "
        "WHERE h.level = 1")]


def frontmatters_except(con: apsw.Connection, path: str) -> list[tuple[str, dict[str, Any]]]:
    """(path, frontmatter) of every note but one."""
    return [(p, json.loads(fm)) for p, fm in con.execute(
        "SELECT path, frontmatter FROM notes WHERE path != ?", (path,))]


def frontmatters_changed_since(con: apsw.Connection, mtime_ns: int) -> list[dict[str, Any]]:
    """The frontmatter of every live note outside the dream's folder whose file changed
    after ``mtime_ns``."""
    return [json.loads(fm) for (fm,) in con.execute(
        "SELECT frontmatter FROM notes WHERE mtime_ns > ? AND archived = 0 AND path NOT "
        "LIKE '\\_dream/%' ESCAPE '\\'", (mtime_ns,))]


def recent_notes(con: apsw.Connection, folder: str | None, limit: int) -> list[tuple[str, str]]:
    """(path, title) of the last-changed notes a reader is handed (not archived, not the
    dream's, not MEMORY.md), in ``folder`` when one is given."""
    return [(p, t) for p, t in con.execute(
        "SELECT path, title FROM notes WHERE path NOT LIKE 'archive/%' AND "
        "path NOT LIKE '\\_dream/%' ESCAPE '\\' AND path != 'MEMORY.md' "
        + ("AND (folder = ? OR folder LIKE ?) " if folder else "")
        + "ORDER BY mtime_ns DESC LIMIT ?",
        ((folder, folder.rstrip("/") + "/%") if folder else ()) + (limit,))]


def note_rows(con: apsw.Connection) -> list[tuple[int, str, str, str, str, str, int, str]]:
    """(id, path, title, hash, frontmatter JSON, status, mtime_ns, issues JSON) of every
    note."""
    return con.execute(
        "SELECT id, path, title, hash, frontmatter, status, mtime_ns, issues FROM notes"
    ).fetchall()


def tags_by_note(con: apsw.Connection) -> dict[int, list[str]]:
    """note id -> its tags as written, in order."""
    out: dict[int, list[str]] = {}
    for nid, tag in con.execute("SELECT note_id, tag FROM tags ORDER BY rowid"):
        out.setdefault(nid, []).append(tag)
    return out


def aliases_by_note(con: apsw.Connection) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for nid, alias in con.execute("SELECT note_id, alias FROM aliases ORDER BY rowid"):
        out.setdefault(nid, []).append(alias)
    return out


def first_headings(con: apsw.Connection) -> dict[int, str]:
    """note id -> the text of its first first-level heading."""
    out: dict[int, str] = {}
    for nid, text in con.execute("SELECT note_id, text FROM headings WHERE level = 1 "
                                 "ORDER BY note_id, line DESC"):
        out[nid] = text  # the first one wins
    return out


# -- the dream's digests ----------------------------------------------------------------

def digests(con: apsw.Connection) -> list[tuple[str, str]]:
    """(path, hash) of the dream's digests, oldest first."""
    return [(p, h) for p, h in con.execute(
        f"SELECT path, hash FROM notes WHERE {DIGESTS} ORDER BY path")]


def any_digest(con: apsw.Connection) -> bool:
    return con.execute(f"SELECT 1 FROM notes WHERE {DIGESTS} LIMIT 1").fetchone() is not None


def latest_digest(con: apsw.Connection) -> str | None:
    row = con.execute(f"SELECT path FROM notes WHERE {DIGESTS} ORDER BY path DESC "
                      "LIMIT 1").fetchone()
    return row[0] if row else None


def digests_and(con: apsw.Connection, page: str) -> list[str]:
    """The digests' paths and ``page`` when the index holds it."""
    return [p for (p,) in con.execute(f"SELECT path FROM notes WHERE {DIGESTS} OR path = ?",
                                      (page,))]


# -- session notes and projects ---------------------------------------------------------

def session_note(con: apsw.Connection, session_id: str, client: str) -> str | None:
    """The live note of a captured session (its frontmatter names the session)."""
    row = con.execute(
        "SELECT path FROM notes WHERE json_extract(frontmatter, '$.session_id') = ? AND "
        "json_extract(frontmatter, '$.client') = ? AND path NOT LIKE 'archive/%' LIMIT 1",
        (session_id, client)).fetchone()
    return row[0] if row else None


def sessions_with_notes(con: apsw.Connection,
                        sessions: list[tuple[str, str]]) -> set[tuple[str, str]]:
    """Those of ``sessions`` ((session id, client)) that a note names, archived or not."""
    wanted = set(sessions)
    if not wanted:
        return set()
    return {(s, c) for s, c in con.execute(
        "SELECT json_extract(frontmatter, '$.session_id'), json_extract(frontmatter, "
        "'$.client') FROM notes WHERE json_extract(frontmatter, '$.session_id') IN "
        "(SELECT value FROM json_each(?))", (json.dumps(sorted({s for s, _ in sessions})),))
        if (s, c) in set(sessions)}


def project_session_notes(con: apsw.Connection, project: str, limit: int) -> list[str]:
    """The project's live session notes, latest started first."""
    return [p for (p,) in con.execute(
        "SELECT path FROM notes WHERE archived = 0 AND "
        "json_extract(frontmatter, '$.type') = 'session' AND "
        "lower(json_extract(frontmatter, '$.project')) = lower(?) "
        "ORDER BY json_extract(frontmatter, '$.started') DESC LIMIT ?", (project, limit))]


def other_projects_session_notes(con: apsw.Connection, project: str,
                                 limit: int) -> list[tuple[str, str]]:
    """(path, project) of the live session notes of every project but ``project``, latest
    started first."""
    return [(p, str(proj)) for p, proj in con.execute(
        "SELECT path, json_extract(frontmatter, '$.project') FROM notes WHERE archived = 0 "
        "AND json_extract(frontmatter, '$.type') = 'session' AND "
        "coalesce(json_extract(frontmatter, '$.project'), '') NOT IN ('', ?) "
        "ORDER BY json_extract(frontmatter, '$.started') DESC LIMIT ?", (project, limit))]


def previous_session_note(con: apsw.Connection, project: str, started: str) -> str | None:
    """The project's live session note that started last before ``started``."""
    row = con.execute(
        "SELECT path FROM notes WHERE archived = 0 AND "
        "json_extract(frontmatter, '$.type') = 'session' AND "
        "lower(json_extract(frontmatter, '$.project')) = lower(?) AND "
        "json_extract(frontmatter, '$.started') < ? "
        "ORDER BY json_extract(frontmatter, '$.started') DESC LIMIT 1", (project, started)
    ).fetchone()
    return row[0] if row else None


def project_notes(con: apsw.Connection, project: str, limit: int) -> list[tuple[str, str]]:
    """(path, title) of the live notes about a project other than its session notes: its
    ``project`` stated, its title the project's name, or in a folder of that name; latest
    first."""
    return [(p, t) for p, t in con.execute(
        "SELECT path, title FROM notes WHERE archived = 0 AND "
        "coalesce(json_extract(frontmatter, '$.type'), '') != 'session' AND ("
        "lower(json_extract(frontmatter, '$.project')) = lower(?) OR lower(title) = lower(?) "
        "OR lower(path) LIKE ? ESCAPE '\\' OR lower(path) LIKE ? ESCAPE '\\') "
        "ORDER BY coalesce(note_date, '') DESC, mtime_ns DESC LIMIT ?",
        (project, project, f"%/{like_prefix(project.lower())}/%",
         f"{like_prefix(project.lower())}/%", limit))]


# -- chunks and the index's own settings --------------------------------------------------

def spread_passages(con: apsw.Connection, n: int) -> list[tuple[str, str, str]]:
    """(title, heading, body) of up to ``n`` chunks spread over the whole vault (the same
    ones every time)."""
    total = con.execute("SELECT max(rowid) FROM chunks_fts").fetchone()[0] or 0
    step = max(1, total // n)
    return [(t, h, b) for t, h, b in con.execute(
        "SELECT title, heading, body FROM chunks_fts WHERE rowid % ? = 0 LIMIT ?", (step, n))]


def best_passages(con: apsw.Connection, match: str, filters: Filters,
                  limit: int) -> list[tuple[str, str, str, str | None, int, str | None]]:
    """(path, title, heading path JSON, block id, line, body) of the ``limit`` passages of
    live notes outside the dream's folder that match best (BM25 alone)."""
    where, args = filter_sql(filters)
    return con.execute(
        "SELECT n.path, n.title, c.heading_path, c.block_id, c.line_start, f.body "
        "FROM chunks_fts f JOIN chunks c ON c.id = f.rowid JOIN notes n ON n.id = c.note_id "
        "WHERE chunks_fts MATCH ? AND n.archived = 0 AND n.path NOT LIKE '\\_dream/%' "
        "ESCAPE '\\'" + where + " ORDER BY bm25(chunks_fts, 5.0, 2.0, 1.0) LIMIT ?",
        (match, *args, limit)).fetchall()


def chunks_waiting(con: apsw.Connection) -> int:
    """Chunks without a vector (the partial index keeps this cheap)."""
    return int(con.execute("SELECT count(*) FROM chunks WHERE embedded = 0").fetchone()[0])


def any_chunk_waiting(con: apsw.Connection) -> bool:
    return con.execute("SELECT 1 FROM chunks WHERE embedded = 0 LIMIT 1").fetchone() \
        is not None


def meta_value(con: apsw.Connection, key: str) -> str | None:
    row = con.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return row[0] if row else None


def set_meta(con: apsw.Connection, key: str, value: str) -> None:
    con.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))


class ChunkFacts:
    """What the choice of an embedding model asks of the index (embed/model_choice.py),
    each asked only when the choice needs it."""

    def __init__(self, con: apsw.Connection) -> None:
        self.con = con

    def held_model(self) -> str | None:
        """The "model:dim" the index holds vectors of."""
        return meta_value(self.con, "vec_model")

    def has_vectors(self) -> bool:
        return self.con.execute("SELECT 1 FROM chunks WHERE embedded = 1 LIMIT 1") \
            .fetchone() is not None

    def count(self) -> int:
        return int(self.con.execute("SELECT count(*) FROM chunks").fetchone()[0])

    def sample(self, n: int) -> list[str]:
        """The first ``n`` chunk bodies longer than 40 characters."""
        return [r[0] for r in self.con.execute(
            "SELECT body FROM chunks_fts WHERE length(body) > 40 ORDER BY rowid LIMIT ?",
            (n,))]
