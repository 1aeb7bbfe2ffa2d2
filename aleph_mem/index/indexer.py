"""Keep the index in step with the vault: incremental reconcile and full rebuild.

Reading and indexing never write to a note.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import posixpath
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import apsw

from aleph_mem import logs
from aleph_mem.files.preimages import ObjectStore
from aleph_mem.files.sync_conflicts import CONFLICT_ISSUE, copy_of, has_markers
from aleph_mem.files.vault import ARCHIVE, DREAM, FileStat, Vault, content_hash
from aleph_mem.index import db
from aleph_mem.index.resolver import Resolver, anchor_found, fold
from aleph_mem.notes.inline_scan import Link
from aleph_mem.notes.parser import Chunk, ParsedNote, declared_title, decode, looks_binary, parse
from aleph_mem.settings import Settings

log = logs.get(__name__)

BATCH = 500
ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}")


@dataclass(frozen=True)
class NoteChange:
    """A note whose bytes differ from what the index last saw."""

    path: str
    before: str | None  # hash, None when the note is new
    after: str | None  # hash, None when the note is gone


@dataclass
class ReconcileReport:
    scanned: int = 0
    parsed: int = 0
    unchanged: int = 0
    removed: int = 0
    changes: list[NoteChange] = field(default_factory=list)
    links_resolved: int = 0
    human: list = field(default_factory=list)  # events recorded for people's changes

    def summary(self) -> str:
        return (f"{self.scanned} notes scanned, {self.parsed} (re)indexed, "
                f"{self.removed} removed, {self.links_resolved} links resolved")


Progress = Callable[[int, int], None]


def target_key(target: str) -> str:
    base = target.rstrip("/").rsplit("/", 1)[-1]
    return fold(base[:-3] if base.lower().endswith(".md") else base)


def note_date(fm: dict, mtime_ns: int) -> str:
    for key in ("date", "created", "updated"):
        value = fm.get(key)
        if isinstance(value, str) and ISO_DATE.match(value):
            return value
    return dt.datetime.fromtimestamp(mtime_ns / 1e9, dt.UTC).strftime("%Y-%m-%dT%H:%M:%S")


def chunk_hash(heading: str, text: str) -> str:
    return hashlib.sha256(f"{heading}\n{text}".encode()).hexdigest()[:32]


class Indexer:
    def __init__(self, vault: Vault, con: apsw.Connection, settings: Settings,
                 objects: ObjectStore | None = None) -> None:
        self.vault = vault
        self.con = con
        self.settings = settings
        self.objects = objects  # keeps a copy of each indexed version, for undo
        self._cached: tuple[str, Resolver] | None = None

    # -- reconcile ----------------------------------------------------------------------

    def reconcile(self, progress: Progress | None = None,
                  only: Iterable[str] | None = None,
                  taking_in: Callable[[dict[str, str | None]], None] | None = None,
                  ) -> ReconcileReport:
        """Bring the index in line with the files. ``only`` limits the work to some paths
        (the watcher's batches); otherwise the whole vault is walked. ``taking_in`` hears
        the paths about to change (each with the hash the index holds) before the first
        row is committed, so a kill after that is recovered (writes/unlogged.py)."""
        report = ReconcileReport()
        if only is None:
            listing = self.vault.walk(self.settings.ignore)
            known = {p: (i, m, s, h) for i, p, m, s, h in self.con.execute(
                "SELECT id, path, mtime_ns, size, hash FROM notes")}
            paths = set(listing.notes) | set(known)
        else:
            paths = set(only)
            listing = self.vault.stat_paths(paths, self.settings.ignore)
            known = {p: (i, m, s, h) for i, p, m, s, h in self.con.execute(
                "SELECT id, path, mtime_ns, size, hash FROM notes WHERE path IN "
                "(SELECT value FROM json_each(?))", (json.dumps(sorted(paths)),))}
        report.scanned = len(listing.notes)
        todo = sorted(p for p in paths if p not in listing.notes
                      or (p not in known) or known[p][1:3] != (listing.notes[p].mtime_ns,
                                                               listing.notes[p].size))
        report.unchanged = report.scanned - len(todo)
        touched: set[str] = set()
        affected_keys: set[str] = set()
        skipped = dict(listing.skipped)
        if todo and taking_in is not None:
            taking_in({p: known[p][3] if p in known else None for p in todo})
        for start in range(0, len(todo), BATCH):
            batch = todo[start:start + BATCH]
            with db.transaction(self.con):
                for path in batch:
                    st = listing.notes.get(path)
                    row = known.get(path)
                    change = self._reconcile_one(path, st, row, skipped, affected_keys)
                    if change is not None:
                        report.changes.append(change)
                        touched.add(path)
                        if change.after is None:
                            report.removed += 1
                        else:
                            report.parsed += 1
            if progress:
                progress(min(start + BATCH, len(todo)), len(todo))
        with db.transaction(self.con):
            if only is None:
                self._store_side_tables(listing.attachments, skipped, affected_keys)
            report.links_resolved = self.resolve_links(touched, affected_keys)
        return report

    def _reconcile_one(self, path: str, st: FileStat | None, row: tuple | None,
                       skipped: dict[str, str], affected: set[str]) -> NoteChange | None:
        data = None
        if st is not None:
            try:
                data = self.vault.abs(path).read_bytes()
            except FileNotFoundError:
                data = None
            except OSError as exc:
                skipped[path] = f"cannot read: {exc.strerror}"
                return None
        if data is None:
            if row is None:
                return None
            self._delete(row[0], path, affected)
            if st is None and os.path.lexists(self.vault.root / path):
                return None  # still there, only no longer a note (ignored, hidden, a loop)
            return NoteChange(path, row[3], None)
        assert st is not None  # data was read, so the file was listed
        digest = content_hash(data)
        if row is not None and row[3] == digest:
            self.con.execute("UPDATE notes SET mtime_ns=?, size=? WHERE id=?",
                             (st.mtime_ns, st.size, row[0]))
            return None
        self.store(path, data, st, digest, affected)
        return NoteChange(path, row[3] if row else None, digest)

    # -- storing one note ---------------------------------------------------------------

    def _placement(self, path: str, data: bytes) -> tuple[int, str | None]:
        """Where the note stands (live, archived, or a sync engine's conflict copy beside
        the note it copies: kept out of search and the dream), and the conflict to list."""
        if is_archived(path):
            return ARCHIVED, None
        copied = copy_of(path)
        if copied and (self.vault.root / copied[0]).is_file():
            return CONFLICT_COPY, (f"{CONFLICT_ISSUE} a {copied[1]} conflict copy of "
                                   f"{copied[0]}, kept out of search until you choose")
        if b"\n=======" in data and has_markers(data.decode("utf-8", "replace")):
            return LIVE, (f"{CONFLICT_ISSUE} git conflict markers (<<<<<<< ======= >>>>>>>) "
                          "hold two versions of this note")
        return LIVE, None

    def store(self, path: str, data: bytes, st: FileStat, digest: str,
              affected: set[str]) -> None:
        """(Re)write every row of one note. Call inside a transaction."""
        if self.objects is not None:
            self.objects.put(data, durable=False)
        stem = posixpath.basename(path)[:-3]
        note = parse_safely(data, stem, self.settings.max_note_bytes)
        row = self.con.execute("SELECT id, title, json_extract(frontmatter, '$.title') FROM "
                               "notes WHERE path=?", (path,)).fetchone()
        old_aliases: set[str] = set()
        names = {fold(str(n)) for n in (note.title, declared_title(note.frontmatter)) if n}
        before = {fold(str(n)) for n in row[1:] if n is not None} if row else set()
        if names != before:  # a link by file name or declared title may resolve elsewhere
            affected.update(names | before)
        flag, conflict = self._placement(path, data)
        issues = [*note.issues, *([conflict] if conflict else [])]
        values = (path, posixpath.dirname(path), note.title, digest, st.mtime_ns, st.size,
                  json.dumps(note.frontmatter, ensure_ascii=False),
                  note_date(note.frontmatter, st.mtime_ns), _status(note.frontmatter),
                  flag, json.dumps(issues, ensure_ascii=False))
        if row is None:
            self.con.execute(
                "INSERT INTO notes(path, folder, title, hash, mtime_ns, size, frontmatter, "
                "note_date, status, archived, issues) VALUES (?,?,?,?,?,?,?,?,?,?,?)", values)
            note_id = self.con.last_insert_rowid()
            affected.add(target_key(path))
        else:
            note_id = row[0]
            old_aliases = {a for (a,) in self.con.execute(
                "SELECT alias FROM aliases WHERE note_id=?", (note_id,))}
            self._clear_children(note_id)
            self.con.execute(
                "UPDATE notes SET path=?, folder=?, title=?, hash=?, mtime_ns=?, size=?, "
                "frontmatter=?, note_date=?, status=?, archived=?, issues=? WHERE id=?",
                (*values, note_id))
        if old_aliases != set(note.aliases):
            affected.update(fold(a) for a in old_aliases ^ set(note.aliases))
        self._insert_children(note_id, note)

    def _clear_children(self, note_id: int) -> None:
        self.con.execute("DELETE FROM chunks_fts WHERE rowid IN "
                         "(SELECT id FROM chunks WHERE note_id=?)", (note_id,))
        for table, col in (("aliases", "note_id"), ("tags", "note_id"), ("headings", "note_id"),
                           ("blocks", "note_id"), ("links", "src_id"), ("chunks", "note_id")):
            self.con.execute(f"DELETE FROM {table} WHERE {col}=?", (note_id,))

    def _insert_children(self, note_id: int, note: ParsedNote) -> None:
        ex = self.con.executemany
        ex("INSERT INTO aliases VALUES (?,?)", [(note_id, a) for a in note.aliases])
        ex("INSERT INTO tags VALUES (?,?,?,?)",
           [(note_id, t, fold(t), src) for t, src in note.tags])
        ex("INSERT INTO headings VALUES (?,?,?,?)",
           [(note_id, h.level, h.text, h.line) for h in note.headings])
        ex("INSERT INTO blocks VALUES (?,?,?)", [(note_id, b, line) for b, line in note.block_ids])
        ex("INSERT INTO links(src_id, raw, kind, embed, target, heading, block, alias, line, "
           "target_key) VALUES (?,?,?,?,?,?,?,?,?,?)",
           [(note_id, lk.raw, lk.kind, int(lk.embed), lk.target, lk.heading, lk.block,
             lk.alias, lk.line, target_key(lk.target)) for lk in note.links])
        # One title row per note (seq -1); the body chunks carry no title, so a title word
        # matches one row per note rather than every chunk of it.
        self._insert_chunk(note_id, -1, "[]", None, 1, 1,
                           " ".join([note.title, *note.names, *note.aliases]), "", "")
        for c in note.chunks:
            heading = " / ".join(c.heading_path)
            self._insert_chunk(note_id, c.seq, json.dumps(list(c.heading_path), ensure_ascii=False),
                               c.block_id, c.line_start, c.line_end, "", heading, c.text)

    def _insert_chunk(self, note_id: int, seq: int, heading_json: str, block_id: str | None,
                      start: int, end: int, title: str, heading: str, text: str) -> None:
        self.con.execute(
            "INSERT INTO chunks(note_id, seq, heading_path, block_id, line_start, line_end, hash)"
            " VALUES (?,?,?,?,?,?,?)",
            (note_id, seq, heading_json, block_id, start, end, chunk_hash(heading, text)))
        self.con.execute("INSERT INTO chunks_fts(rowid, title, heading, body) VALUES (?,?,?,?)",
                         (self.con.last_insert_rowid(), title, heading, text))

    def _delete(self, note_id: int, path: str, affected: set[str]) -> None:
        affected.add(target_key(path))
        affected.update(fold(a) for (a,) in self.con.execute(
            "SELECT alias FROM aliases WHERE note_id=? UNION SELECT title FROM notes WHERE id=?",
            (note_id, note_id)))
        self._clear_children(note_id)
        self.con.execute("DELETE FROM notes WHERE id=?", (note_id,))

    def remove(self, path: str) -> bool:
        """Drop one note's rows (the file is gone). Call inside a transaction."""
        row = self.con.execute("SELECT id FROM notes WHERE path=?", (path,)).fetchone()
        if row is None:
            return False
        affected: set[str] = set()
        self._delete(row[0], path, affected)
        self.resolve_links({path}, affected)
        return True

    def _store_side_tables(self, attachments: set[str], skipped: dict[str, str],
                           affected: set[str]) -> None:
        old = {p for (p,) in self.con.execute("SELECT path FROM attachments")}
        if old != attachments:
            affected.update(target_key(p) for p in old ^ attachments)
            self.con.execute("DELETE FROM attachments")
            self.con.executemany("INSERT INTO attachments VALUES (?)",
                                 [(p,) for p in sorted(attachments)])
        self.con.execute("DELETE FROM skipped")
        self.con.executemany("INSERT OR REPLACE INTO skipped VALUES (?,?)", skipped.items())

    # -- links --------------------------------------------------------------------------

    def resolve_links(self, changed: set[str], affected_keys: set[str]) -> int:
        """Resolve the links that may have changed: those of changed notes, those whose
        target name or alias was added or removed, those pointing at changed notes, and
        every unresolved or ambiguous link."""
        if not changed and not affected_keys:
            return 0
        resolver = self._resolver(bump=bool(affected_keys))
        changed_json = json.dumps(sorted(changed))
        rows = self.con.execute(
            "SELECT l.id, n.path, l.raw, l.kind, l.embed, l.target, l.heading, l.block, l.alias,"
            " l.line FROM links l JOIN notes n ON n.id = l.src_id "
            "WHERE l.status != 'resolved' OR l.resolved_path IS NULL "
            "OR l.target_key IN (SELECT value FROM json_each(?)) "
            "OR l.resolved_path IN (SELECT value FROM json_each(?)) "
            "OR n.path IN (SELECT value FROM json_each(?))",
            (json.dumps(sorted(affected_keys)), changed_json, changed_json)).fetchall()
        anchors = _AnchorCache(self.con)
        updates = []
        for lid, src, raw, kind, embed, target, heading, block, alias, line in rows:
            link = Link(raw, kind, bool(embed), target, heading, block, alias, line)
            res = resolver.resolve(link, src)
            found = None
            if res.path is not None and res.by != "attachment" and (heading or block):
                found = anchors.check(link, res.path)
            updates.append((res.path, res.by, res.status,
                            json.dumps(list(res.candidates)) if res.candidates else None,
                            None if found is None else int(found), lid))
        self.con.executemany(
            "UPDATE links SET resolved_path=?, resolved_by=?, status=?, candidates=?, "
            "anchor_found=? WHERE id=?", updates)
        return len(updates)

    def _resolver(self, bump: bool) -> Resolver:
        """The resolver over every note name, rebuilt only when names changed (in any
        process: a version counter in ``meta`` says so)."""
        if bump:
            self.con.execute("INSERT INTO meta VALUES ('names_version', '1') ON CONFLICT(key) "
                             "DO UPDATE SET value = CAST(value AS INTEGER) + 1")
        row = self.con.execute("SELECT value FROM meta WHERE key='names_version'").fetchone()
        version = row[0] if row else "0"
        if self._cached is None or self._cached[0] != version:
            self._cached = (version, self._build_resolver())
        return self._cached[1]

    def _build_resolver(self) -> Resolver:
        paths = [p for (p,) in self.con.execute("SELECT path FROM notes")]
        titles = {p: str(t).strip() for p, t in self.con.execute(  # declared: never an H1
            "SELECT path, json_extract(frontmatter, '$.title') FROM notes WHERE "
            "json_type(frontmatter, '$.title') IN ('text', 'integer', 'real')")
            if str(t).strip()}
        aliases: dict[str, list[str]] = {}
        for p, a in self.con.execute(
                "SELECT n.path, a.alias FROM aliases a JOIN notes n ON n.id = a.note_id"):
            aliases.setdefault(p, []).append(a)
        files = [p for (p,) in self.con.execute("SELECT path FROM attachments")]
        return Resolver(paths, aliases, files, titles)


class _AnchorCache:
    def __init__(self, con: apsw.Connection) -> None:
        self.con = con
        self.cache: dict[str, tuple[list[str], list[str]]] = {}

    def check(self, link: Link, path: str) -> bool | None:
        if path not in self.cache:
            heads = [h for (h,) in self.con.execute(
                "SELECT h.text FROM headings h JOIN notes n ON n.id=h.note_id WHERE n.path=?",
                (path,))]
            blocks = [b for (b,) in self.con.execute(
                "SELECT b.block_id FROM blocks b JOIN notes n ON n.id=b.note_id WHERE n.path=?",
                (path,))]
            self.cache[path] = (heads, blocks)
        return anchor_found(link, *self.cache[path])


def parse_safely(data: bytes, stem: str, max_bytes: int) -> ParsedNote:
    """Parse one note; whatever goes wrong stays with that note (an issue, and its raw text
    indexed under its file name) and never stops the rest of the vault."""
    if looks_binary(data):
        return ParsedNote({}, stem, [], [], [], [], [], [],
                          ["binary content (NUL bytes): not indexed as text"])
    try:
        return parse(data, stem, max_bytes)
    except (RecursionError, MemoryError, ValueError, TypeError, IndexError, KeyError) as exc:
        log.warning("could not parse %s: %s", stem, exc)
        text = decode(data[:max_bytes])[0]
        lines = text.count("\n") + 1
        chunks = [Chunk(0, (), None, 1, lines, text.strip()[:20_000])] if text.strip() else []
        return ParsedNote({}, stem, [], [], [], [], [], chunks,
                          [f"could not be parsed ({type(exc).__name__}: {exc}): indexed as "
                           "plain text"])


LIVE, ARCHIVED, CONFLICT_COPY = 0, 1, 2  # notes.archived: default search takes only LIVE


def is_archived(path: str) -> bool:
    """Notes under ``archive/`` (and the dream's own reports under ``_dream/``) leave
    default search. A ``status: archived`` a person wrote elsewhere is only data (filter on
    it with ``status``)."""
    return path.startswith((ARCHIVE, DREAM))


def _status(fm: dict) -> str | None:
    value = fm.get("status")
    return value if isinstance(value, str) else None
