"""The index database (apsw): connection settings and the schema.

Everything here is derived from the vault and the event files; a schema-version mismatch
throws the file away and rebuilds it (no migrations for derived data).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

import apsw

from aleph_mem import logs
from aleph_mem.errors import IndexUnavailable

log = logs.get(__name__)

SCHEMA_VERSION = "19"  # 13: captured agent sessions; 14: their chunks' vectors; 15: offsets;
# 16: the dream's judgments of a person's notes; 17: old versions' chunks (--as-of);
# 18: an escaped "\[[x]]" or a pattern "[[^\]]" is text, not a link, and a Markdown
# link's GitHub-style anchor ("#er-模型") finds its heading, a heading's punctuation is
# ignored, a name's surrounding spaces are trimmed (notes re-read)
# 19: a line longer than a chunk is cut into chunk-sized pieces (notes re-read)

SCHEMA = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE notes(
    id INTEGER PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    folder TEXT NOT NULL,
    title TEXT NOT NULL,
    hash TEXT NOT NULL,
    mtime_ns INTEGER NOT NULL,
    size INTEGER NOT NULL,
    frontmatter TEXT NOT NULL,
    note_date TEXT,
    status TEXT,
    archived INTEGER NOT NULL DEFAULT 0,
    issues TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX notes_archived ON notes(id) WHERE archived != 0;
CREATE TABLE aliases(note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
                     alias TEXT NOT NULL);
CREATE INDEX aliases_note ON aliases(note_id);
CREATE TABLE tags(note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
                  tag TEXT NOT NULL, tag_lc TEXT NOT NULL, source TEXT NOT NULL);
CREATE INDEX tags_note ON tags(note_id);
CREATE INDEX tags_lc ON tags(tag_lc);
CREATE TABLE headings(note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
                      level INTEGER NOT NULL, text TEXT NOT NULL, line INTEGER NOT NULL);
CREATE INDEX headings_note ON headings(note_id);
CREATE TABLE blocks(note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
                    block_id TEXT NOT NULL, line INTEGER NOT NULL);
CREATE INDEX blocks_note ON blocks(note_id);
CREATE TABLE links(
    id INTEGER PRIMARY KEY,
    src_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
    raw TEXT NOT NULL, kind TEXT NOT NULL, embed INTEGER NOT NULL,
    target TEXT NOT NULL, heading TEXT, block TEXT, alias TEXT, line INTEGER NOT NULL,
    resolved_path TEXT, resolved_by TEXT, status TEXT NOT NULL DEFAULT 'unresolved',
    candidates TEXT, anchor_found INTEGER, target_key TEXT NOT NULL
);
CREATE INDEX links_src ON links(src_id);
CREATE INDEX links_resolved ON links(resolved_path);
CREATE INDEX links_key ON links(target_key);
CREATE TABLE chunks(
    id INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: vectors are keyed by it
    note_id INTEGER NOT NULL REFERENCES notes(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL, heading_path TEXT NOT NULL, block_id TEXT,
    line_start INTEGER NOT NULL, line_end INTEGER NOT NULL, hash TEXT NOT NULL,
    embedded INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX chunks_note ON chunks(note_id);
CREATE INDEX chunks_pending ON chunks(id) WHERE embedded = 0;
CREATE VIRTUAL TABLE chunks_fts USING fts5(
    title, heading, body, tokenize='porter unicode61 remove_diacritics 2');
CREATE TABLE skipped(path TEXT PRIMARY KEY, reason TEXT NOT NULL);
CREATE TABLE attachments(path TEXT PRIMARY KEY);
CREATE TABLE events(
    id TEXT PRIMARY KEY, at TEXT NOT NULL, actor TEXT NOT NULL, kind TEXT NOT NULL,
    path TEXT NOT NULL, before TEXT, after TEXT, run TEXT, reason TEXT, data TEXT,
    host TEXT NOT NULL
);
CREATE INDEX events_path ON events(path, at);
CREATE INDEX events_run ON events(run);
CREATE INDEX events_at ON events(at);
CREATE INDEX events_from ON events(json_extract(data, '$.from'));
CREATE TABLE event_files(file TEXT PRIMARY KEY, size INTEGER NOT NULL);
CREATE TABLE sessions(
    id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, client TEXT NOT NULL,
    session_id TEXT NOT NULL, host TEXT NOT NULL, project TEXT NOT NULL, cwd TEXT NOT NULL,
    started TEXT NOT NULL, ended TEXT NOT NULL, messages INTEGER NOT NULL,
    closed INTEGER NOT NULL, note TEXT NOT NULL, title TEXT NOT NULL,
    raw_size INTEGER NOT NULL, meta TEXT NOT NULL
);
CREATE INDEX sessions_project ON sessions(project, ended);
CREATE TABLE session_chunks(
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL, first_msg TEXT NOT NULL, last_msg TEXT NOT NULL, at TEXT NOT NULL,
    text TEXT NOT NULL, vec BLOB,
    raw_offset INTEGER NOT NULL  -- where its first message's line starts in the raw file
);
CREATE INDEX session_chunks_session ON session_chunks(session);
-- what the dream judged of a person's note without writing it (docs/design.md 4.2): mirrored
-- from the open proposals in the dream's journal, so a rebuild recovers it
CREATE TABLE judgments(path TEXT PRIMARY KEY, status TEXT NOT NULL, reason TEXT NOT NULL,
                       partner TEXT, proposal TEXT NOT NULL);
-- the chunks of note versions that are no longer current, filled when an --as-of search
-- first needs them (derived from the pre-images: a rebuild fills them again on demand)
CREATE TABLE version_chunks(id INTEGER PRIMARY KEY, hash TEXT NOT NULL, title TEXT NOT NULL,
                            heading_path TEXT NOT NULL, block_id TEXT, line INTEGER NOT NULL);
CREATE INDEX version_chunks_hash ON version_chunks(hash);
CREATE TABLE versions_read(hash TEXT PRIMARY KEY);
CREATE VIRTUAL TABLE version_fts USING fts5(
    title, heading, body, tokenize='porter unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE session_fts USING fts5(
    text, tokenize='porter unicode61 remove_diacritics 2');
"""


def connect(path: Path, readonly: bool = False) -> apsw.Connection:
    flags = apsw.SQLITE_OPEN_READONLY if readonly else (
        apsw.SQLITE_OPEN_READWRITE | apsw.SQLITE_OPEN_CREATE)
    con = apsw.Connection(str(path), flags=flags)
    con.set_busy_timeout(10_000)
    if not readonly:
        con.execute("PRAGMA journal_mode=WAL")
        con.execute("PRAGMA synchronous=NORMAL")
    con.execute("PRAGMA foreign_keys=ON")
    return con


def schema_version(con: apsw.Connection) -> str | None:
    try:
        row = con.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
    except apsw.SQLError:
        return None
    return row[0] if row else None


def open_index(path: Path) -> tuple[apsw.Connection, bool, str | None]:
    """Open (creating or rebuilding as needed) the index. Returns it, whether it is new,
    and why it is read-only (None when writable). Only a damaged file or another schema
    is rebuilt; a full or read-only disk never costs the index: it is read as it is."""
    if path.exists():
        try:
            con = connect(path)
            version = schema_version(con)
            if version == SCHEMA_VERSION:
                return con, False, None
            con.close()
            log.info("index schema changed: rebuilding %s", path)
        except (apsw.CorruptError, apsw.NotADBError) as exc:
            log.warning("index %s is damaged (%s): rebuilding", path, exc)
        except (apsw.Error, OSError) as exc:
            return open_readonly(path, disk_state(path.parent) or exc)
        try:
            remove_index_files(path)
        except OSError as exc:
            raise IndexUnavailable(path, f"it needs a rebuild: {exc.strerror}") from exc
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        con = connect(path)
        with transaction(con):
            con.execute(SCHEMA)
            con.execute("INSERT INTO meta VALUES ('schema_version', ?)", (SCHEMA_VERSION,))
    except (apsw.Error, OSError) as exc:
        with contextlib.suppress(OSError):
            remove_index_files(path)
        raise IndexUnavailable(path, f"it cannot be created: {exc}") from exc
    return con, True, None


def disk_state(folder: Path) -> str | None:
    """"the disk is full" or "the file system is read-only" when one of them holds."""
    try:
        st = os.statvfs(folder)
    except OSError:
        return None
    if st.f_flag & os.ST_RDONLY:
        return "the file system is read-only"
    return "the disk is full" if st.f_bavail == 0 else None


def open_readonly(path: Path, why: BaseException | str) -> tuple[apsw.Connection, bool, str]:
    """The index as it is, read-only (a read-only mount or a full disk): still searchable,
    said to be possibly stale. Without room for its shared-memory file, SQLite can still
    read it as immutable (what the last checkpoint holds)."""
    last: BaseException | str = why
    for query in ("mode=ro", "mode=ro&immutable=1"):
        try:
            con = apsw.Connection(f"file:{path}?{query}",
                                  flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)
            con.set_busy_timeout(10_000)
            version = schema_version(con)
        except apsw.Error as exc:
            last = exc
            continue
        if version != SCHEMA_VERSION:
            raise IndexUnavailable(path, "it is from another version and cannot be rebuilt "
                                   f"now: {why}")
        return con, False, f"the index is read-only ({why})"
    raise IndexUnavailable(path, f"{why}; read-only too: {last}")


def remove_index_files(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            Path(str(path) + suffix).unlink()


@contextlib.contextmanager
def snapshot(con: apsw.Connection) -> Iterator[apsw.Connection]:
    """One read transaction: every read inside sees the index as it was at the first one,
    whatever another connection (the watcher's, the daemon's) commits meanwhile. Inside a
    transaction already, that one holds."""
    if con.in_transaction:
        yield con
        return
    con.execute("BEGIN")
    try:
        yield con
    finally:
        if con.in_transaction:
            con.execute("COMMIT")


@contextlib.contextmanager
def transaction(con: apsw.Connection) -> Iterator[apsw.Connection]:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on error."""
    con.execute("BEGIN IMMEDIATE")
    try:
        yield con
    except BaseException:
        con.execute("ROLLBACK")
        raise
    con.execute("COMMIT")
