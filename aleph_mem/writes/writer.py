"""The one module that writes notes.

Every change is a list of file changes, each checked against the hash its author based it
on (compare-and-swap), applied under the vault write lock: pre-images saved to the object
store, an intent written, each file written atomically (temp, fsync, rename, fsync of the
folder), the event appended, the index updated at once (read-your-writes). A crash at any
point leaves every note either old or new, byte for byte; ``recover`` finishes or drops
what an interrupted writer left.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import apsw

from aleph_mem import logs
from aleph_mem.clock import iso, utc_now
from aleph_mem.errors import (
    BadInput,
    ConflictError,
    DiskError,
    IgnoredPath,
    NoteExists,
    NoteNotFound,
    PoisonNote,
)
from aleph_mem.files.atomic import (
    fsync_dir,
    link_new,
    read_or_none,
    swap,
    temp_glob,
    temp_path,
    write_atomic,
    write_temp,
)
from aleph_mem.files.locks import write_lock
from aleph_mem.files.names import check_new_name
from aleph_mem.files.preimages import ObjectStore
from aleph_mem.files.vault import ARCHIVE, FileStat, Vault, content_hash
from aleph_mem.index import db
from aleph_mem.index.indexer import Indexer
from aleph_mem.index.reading import hash_of
from aleph_mem.notes import frontmatter_edit
from aleph_mem.notes.parser import poison_problem
from aleph_mem.notes.sections import find_section
from aleph_mem.writes.events import ChangeKind, Event, EventLog, make_event
from aleph_mem.writes.outside_changes import human_events, last_logged, outside_change
from aleph_mem.writes.unlogged import Baseline, TakingIn

log = logs.get(__name__)

ANY = "*"  # expected hash meaning "whatever is there now" (appends, patches by hand)
APPEND_TRIES = 5  # an append without a hash is tried again this often when a save races it


@dataclass(frozen=True)
class FileChange:
    path: str
    expected: str | None  # hash the change is based on; None = the file must not exist
    data: bytes | None  # new content; None = the file goes away (its content is kept)


@dataclass(frozen=True)
class WriteResult:
    path: str
    hash: str | None
    event: Event | None  # None when nothing changed
    warning: str | None = None  # written, but a later step (logging, re-indexing) lagged
    same_as: tuple[str, ...] = ()  # what already says this (a fact not added twice)


_SAME = object()  # what a checked rename returns when it displaced exactly what we expected


class Writer:
    def __init__(self, vault: Vault, con: apsw.Connection, indexer: Indexer,
                 actor: str = "cli", run: str | None = None,
                 events: EventLog | None = None) -> None:
        self.vault = vault
        self.con = con
        self.indexer = indexer
        self.actor = actor
        self.run = run
        self.events = events or EventLog(vault.aleph_dir)  # the opener's: it counts writes
        self.objects = ObjectStore(vault.aleph_dir / "objects")
        self.pending_dir = vault.local_dir / "pending"

    # -- the one primitive ---------------------------------------------------------------

    def apply(self, changes: list[FileChange], kind: ChangeKind, path: str,
              reason: str | None = None, data: dict[str, Any] | None = None,
              before: str | None = None, times: dict[str, int] | None = None) -> WriteResult:
        """Apply ``changes`` as one logged event, or change nothing and raise.

        Anything an earlier writer left half done is finished or dropped first. A save that
        lands between our last look and our rename is detected by the swap (atomic.swap),
        put back, and reported as a conflict; if a later step fails, the steps already made
        are rolled back. Once the notes are written the command has succeeded: a failure to
        re-index them is a warning on the result. The file time the changed note had is kept
        in the event (``mtime_ns``), so undo can give it back; ``times`` sets the written
        files' times (undo: an editor's "modified" order is as it was)."""
        with write_lock(self.vault.local_dir):
            self.recover()
            current = {c.path: self.vault.read_bytes(c.path) for c in changes}
            held = (data or {}).get("from", path)
            if current.get(held) is not None and times is None:
                data = {**(data or {}), "mtime_ns": self._mtime_ns(held)}
            for c in changes:
                self._check(c, current[c.path])
                self._admit(c, current[c.path])
            if all(c.data == current[c.path] for c in changes):
                return WriteResult(path, _hash(current.get(path)), None)
            main = next(c for c in changes if c.path == path)
            after = content_hash(main.data) if main.data is not None else None
            if before is None:
                before = _hash(current[data["from"]] if data and "from" in data
                               else current[path])
            try:
                for old in current.values():
                    if old is not None:
                        self.objects.put(old)
                self._record_outside_edits(current)
                event = make_event(self.actor, kind, path, before, after, self.run, reason,
                                   data)
                intent = self._write_intent(event, changes)
            except OSError as exc:
                raise DiskError(f"writing {path}", exc) from exc
            try:
                self._commit_all(changes, current)
                for rel, ns in (times or {}).items():
                    os.utime(self.vault.abs(rel), ns=(ns, ns))
            except BaseException as exc:
                intent.unlink(missing_ok=True)
                if isinstance(exc, OSError):
                    raise DiskError(f"writing {path}", exc) from exc
                raise
            try:
                self.events.append(event)
            except OSError as exc:  # the intent stays: the next writer logs the event
                return WriteResult(path, after, event, f"the change was written but not yet "
                                   f"logged ({DiskError('logging', exc)}); it is logged as "
                                   "soon as the disk takes it")
            intent.unlink()
            return WriteResult(path, after, event, self._reindex_or_warn(changes, event))

    def _mtime_ns(self, rel: str) -> int | None:
        try:
            return self.vault.abs(rel).stat().st_mtime_ns
        except OSError:
            return None

    def _reindex_or_warn(self, changes: list[FileChange], event: Event) -> str | None:
        try:
            self._reindex(changes, event)
        except (apsw.Error, OSError) as exc:
            log.warning("re-indexing after %s failed: %s", event.id, exc)
            return (f"the change was written and logged, but re-indexing it failed ({exc}); "
                    "`aleph-mem index` catches up once the problem is fixed")
        return None

    def _commit_all(self, changes: list[FileChange], current: dict[str, bytes | None]) -> None:
        """Put every change in place (writes before removals); on any failure put back the
        ones already made, so a failed command changes nothing."""
        done: list[FileChange] = []
        try:
            for c in sorted(changes, key=lambda c: c.data is None):
                self._put(c.path, current[c.path], c.data)
                done.append(c)
        except BaseException:
            for c in reversed(done):
                try:
                    self._put(c.path, c.data, current[c.path])
                except (ConflictError, OSError) as exc:
                    log.error("could not roll back %s: %s", c.path, exc)
            raise

    def _put(self, path: str, expected: bytes | None, new: bytes | None) -> None:
        """Replace ``expected`` at ``path`` by ``new`` (None: no file), checking what the
        rename displaces; a save that slipped in is put back and raises ConflictError."""
        target = self.vault.abs(path)
        tmp = temp_path(target)
        if new is not None:
            target.parent.mkdir(parents=True, exist_ok=True)
            try:
                write_temp(tmp, new)
                displaced = self._place(tmp, target, expected, new)
            finally:
                tmp.unlink(missing_ok=True)
        else:
            displaced = self._take_away(target, tmp, expected)
        fsync_dir(target.parent)
        if displaced is not _SAME:
            raise ConflictError(path, _hash(expected), _hash(cast("bytes | None", displaced)))

    def _place(self, tmp: Path, target: Path, expected: bytes | None,
               new: bytes) -> bytes | None | object:
        if expected is None:
            return _SAME if link_new(tmp, target) else read_or_none(target)
        if swap(tmp, target):
            displaced = read_or_none(tmp)
            if displaced == expected:
                return _SAME
            swap(tmp, target)  # put the save back at once: the shorter our bytes show, the
            back = read_or_none(tmp)  # fewer editors read them and save them with their own
            if displaced is not None:  # an editor may have done so: keep the save we took
                self.objects.put(displaced)
            if back != new:  # yet another save landed between the two swaps
                self._keep_displaced(target, back)
            return displaced
        now = read_or_none(target)  # no swap here: a last look, then a plain rename
        if now != expected:
            return now
        os.replace(tmp, target)
        return _SAME

    def _take_away(self, target: Path, tmp: Path, expected: bytes | None) -> bytes | None | object:
        try:
            os.rename(target, tmp)
        except FileNotFoundError:
            return _SAME if expected is None else None
        displaced = read_or_none(tmp)
        if displaced == expected:
            tmp.unlink()
            return _SAME
        if displaced is not None:
            self.objects.put(displaced)  # kept, whatever happens to the name meanwhile
        if not link_new(tmp, target):  # someone wrote the name meanwhile: keep both
            self._keep_displaced(target, displaced)
        tmp.unlink(missing_ok=True)
        return displaced

    def _name_displaced(self, path: str, digest: str) -> None:
        """The save put back after a conflict was then saved over by an editor that had
        read our bytes (the note holds our text, not that save): name it in the log."""
        if not self.objects.has(digest):
            return
        with write_lock(self.vault.local_dir):
            self._log_displaced(path, digest, "an editor saved over this save with bytes it "
                                "read from an aleph-mem write")

    def _keep_displaced(self, target: Path, data: bytes | None) -> None:
        """Bytes that a concurrent save put in our way and that are no longer at their
        path: kept in the object store with an event, so no save vanishes without a trace."""
        if data is None:
            return
        self._log_displaced(self.vault.rel(target), self.objects.put(data),
                            "a save raced with an aleph-mem write")

    def _log_displaced(self, path: str, digest: str, why: str) -> None:
        """The ``save-displaced`` event naming kept bytes (under the write lock)."""
        self.events.append(make_event(
            "human", "save-displaced", path, None, digest,
            reason=f"{why}; its bytes are kept as object {digest} (`aleph-mem` undo cannot "
            "place them, restore them by hand)"))

    def _record_outside_edits(self, current: dict[str, bytes | None]) -> None:
        """A file that differs from its last recorded state was changed by a person: log
        that first (its pre-image is in the object store), so history has no gap."""
        unfinished = TakingIn(self.vault.local_dir).load()  # a killed reconcile's paths
        kept = Baseline(self.vault.local_dir)
        for path, data in current.items():
            indexed = unfinished[path] if path in unfinished else hash_of(self.con, path)
            change = outside_change(self.con, path, indexed, _hash(data), kept)
            for event in human_events([change] if change else []):
                self.events.append(event)

    def _admit(self, c: FileChange, current: bytes | None) -> None:
        """Refuse what the vault must never hold: a note where aleph-mem would not see it,
        a new name another system or Obsidian cannot take, content no reader can load."""
        ignore = self.indexer.settings.ignore
        if not self.vault.is_note_path(c.path, ignore):
            raise IgnoredPath(c.path, "hidden folders and files and the `ignore` setting's "
                              "patterns are not indexed" if c.path.lower().endswith(".md")
                              else "only .md files are notes")
        if current is None and c.data is not None and not last_logged(self.con, c.path)[0]:
            check_new_name(self.vault.root, c.path)  # a name the vault never had
        if c.data is not None and c.data != current:
            problem = poison_problem(c.data)
            if problem:
                raise PoisonNote(c.path, problem)

    def _check(self, c: FileChange, current: bytes | None) -> None:
        actual = _hash(current)
        if c.expected == ANY:
            if current is None and c.data is None:
                raise NoteNotFound(c.path)
            return
        if c.expected is None and current is not None:
            raise NoteExists(c.path, actual or "")
        if c.expected != actual:
            raise ConflictError(c.path, c.expected, actual)

    def _write_intent(self, event: Event, changes: list[FileChange]) -> Path:
        self.pending_dir.mkdir(parents=True, exist_ok=True)
        body = {"event": event.as_json(),
                "changes": [{"path": c.path, "expected": c.expected,
                             "after": _hash(c.data)} for c in changes]}
        target = self.pending_dir / f"{event.id}.json"
        write_atomic(target, json.dumps(body).encode())
        return target

    def _reindex(self, changes: list[FileChange], event: Event | None) -> None:
        with db.transaction(self.con):
            affected: set[str] = set()
            changed = set()
            for c in changes:
                changed.add(c.path)
                if c.data is None:
                    self.indexer.remove(c.path)
                    continue
                st = self.vault.abs(c.path).stat()
                self.indexer.store(c.path, c.data, FileStat(st.st_mtime_ns, st.st_size),
                                   content_hash(c.data), affected)
            self.indexer.resolve_links(changed, affected)
            if event is not None:
                self.events.sync_index(self.con)

    # -- crash recovery -------------------------------------------------------------------

    def recover(self, sweep_objects: bool = False) -> int:
        """Finish or drop the writes an interrupted process left. Returns how many events
        were completed. ``sweep_objects`` also clears temp files a killed process left in
        the object store (worth it once per process, not per batch)."""
        if sweep_objects:
            for folder in self.objects.root.glob("*"):
                sweep_temp(folder, ".*.aleph-tmp-*")
        if not self.pending_dir.is_dir():
            return 0
        sweep_temp(self.pending_dir, ".*.aleph-tmp-*")
        if not any(self.pending_dir.glob("*.json")):
            return 0
        done = 0
        with write_lock(self.vault.local_dir):
            with db.transaction(self.con):
                self.events.sync_index(self.con)
            known = {r[0] for r in self.con.execute("SELECT id FROM events")}
            for intent in sorted(self.pending_dir.glob("*.json")):
                try:
                    body = json.loads(intent.read_bytes())
                except ValueError:
                    intent.unlink()
                    continue
                event = Event.from_json(body["event"])
                changes = body["changes"]
                for c in changes:
                    target = self.vault.abs(c["path"])
                    sweep_temp(target.parent, temp_glob(target))
                written = all(_hash(self.vault.read_bytes(c["path"])) == c["after"]
                              for c in changes if c["after"] is not None)
                if written and event.id not in known:
                    for c in changes:
                        left = self.vault.read_bytes(c["path"])
                        if c["after"] is None and left is not None and (
                                _hash(left) == c["expected"]):
                            self._put(c["path"], left, None)
                    self.events.append(event)
                    done += 1
                intent.unlink()
            if done:  # what is logged now is the state a person's edit is judged against
                with db.transaction(self.con):
                    self.events.sync_index(self.con)
        return done

    # -- operations ------------------------------------------------------------------------

    def write(self, path: str, content: bytes, expected: str | None,
              reason: str | None = None) -> WriteResult:
        """Create (``expected`` None) or replace (``expected`` = the current hash)."""
        path = self.vault.normalise(path)
        kind: ChangeKind = "note-created" if expected is None else "note-updated"
        return self.apply([FileChange(path, expected, content)], kind, path, reason)

    def edit(self, path: str, expected: str, fn: Callable[[bytes], bytes],
             reason: str | None = None) -> WriteResult:
        path = self.vault.normalise(path)
        with write_lock(self.vault.local_dir):
            current = self.vault.read_bytes(path)
            if current is None:
                raise NoteNotFound(path)
            if expected != ANY and _hash(current) != expected:
                raise ConflictError(path, expected, _hash(current))
            return self.apply([FileChange(path, content_hash(current), fn(current))],
                              "note-updated", path, reason)

    def append(self, path: str, text: str, expected: str = ANY, under: str | None = None,
               reason: str | None = None) -> WriteResult:
        """Append ``text``. Without an ``expected`` hash, a save that races the append is
        not the caller's problem: the append is tried again on what is there now. With or
        without a hash, if the racing editor read our bytes before they were taken back and
        saved them with its own, the text is in the note: that is reported as done, never
        as a conflict (a conflict means nothing changed), and never appended twice."""
        def add(old: bytes) -> bytes:
            return append_text(old, text, under)

        path = self.vault.normalise(path)
        start = self.vault.read_bytes(path)
        had = _occurrences(start, text)
        tries = APPEND_TRIES if expected == ANY else 1  # a hash means: only onto that state
        for attempt in range(tries):
            try:
                return self.edit(path, expected, add, reason)
            except ConflictError as exc:
                now = self.vault.read_bytes(path)
                if now is not None and _occurrences(now, text) > had:
                    if exc.actual and exc.actual != _hash(now):
                        self._name_displaced(path, exc.actual)
                    return WriteResult(path, _hash(now), None, (
                        "an editor saved this note while the text was being appended and "
                        "kept the text in its own save; it is in the note once"))
                if attempt == tries - 1:
                    raise
        raise AssertionError("unreachable")

    def set_frontmatter(self, path: str, set_keys: dict[str, Any], unset: list[str],
                        expected: str = ANY, reason: str | None = None) -> WriteResult:
        return self.edit(path, expected,
                         lambda old: frontmatter_edit.patch(old, set_keys, unset), reason)

    def move(self, old: str, new: str, expected: str = ANY,
             reason: str | None = None, kind: ChangeKind = "note-moved",
             transform: Callable[[bytes], bytes] | None = None) -> WriteResult:
        old, new = self.vault.normalise(old), self.vault.normalise(new)
        if old == new:
            raise BadInput(f"{old} is already at that path")
        with write_lock(self.vault.local_dir):
            current = self.vault.read_bytes(old)
            if current is None:
                raise NoteNotFound(old)
            digest = content_hash(current)
            if expected not in (ANY, digest):
                raise ConflictError(old, expected, digest)
            data = transform(current) if transform else current
            return self.apply([FileChange(new, None, data), FileChange(old, digest, None)],
                              kind, new, reason, {"from": old})

    def archive(self, path: str, expected: str = ANY, reason: str = "manual",
                now: dt.datetime | None = None,
                extra: dict[str, Any] | None = None) -> WriteResult:
        path = self.vault.normalise(path)
        if path.startswith(ARCHIVE):
            raise BadInput(f"{path} is already in {ARCHIVE}")
        keys = {"status": "archived", "archived_at": iso(now or utc_now()),
                "archived_from": path, "archived_reason": reason, **(extra or {})}

        def moved(old: bytes) -> bytes:  # the note's own `status` is its person's word: kept
            own = "status" in _frontmatter(old)
            return frontmatter_edit.patch(
                old, {k: v for k, v in keys.items() if k != "status" or not own}, [])
        return self.move(path, f"{ARCHIVE}{path}", expected, reason, "note-archived", moved)

    def restore(self, path: str, expected: str = ANY, reason: str | None = None) -> WriteResult:
        path = self.vault.normalise(path)
        if not path.startswith(ARCHIVE):
            path = f"{ARCHIVE}{path}"
        data = self.vault.read_bytes(path)
        if data is None:
            raise NoteNotFound(path)
        fm = _frontmatter(data)
        origin = fm.get("archived_from") or path[len(ARCHIVE):]
        unset: list[str] = [k for k in ("archived_at", "archived_from", "archived_reason")
                            if k in fm]
        if fm.get("status") == "archived":
            unset.append("status")
        return self.move(path, str(origin), expected, reason, "note-restored",
                         lambda old: frontmatter_edit.patch(old, {}, unset))


def sweep_temp(folder: Path, pattern: str) -> None:
    """Remove temp files whose writing process is gone (``….aleph-tmp-<pid>``)."""
    for tmp in folder.glob(pattern):
        pid = tmp.name.rsplit("-", 1)[-1]
        if pid.isdigit() and not _alive(int(pid)):
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _hash(data: bytes | None) -> str | None:
    return None if data is None else content_hash(data)


def _frontmatter(data: bytes) -> dict[str, Any]:
    from aleph_mem.notes.parser import decode, parse_frontmatter

    return parse_frontmatter(decode(data)[0])[0]


def _lines_added(text: str) -> list[str]:
    """The lines an append lays out for ``text`` (joined by the note's own line break)."""
    return text.strip("\r\n").replace("\r\n", "\n").split("\n")


def _occurrences(data: bytes | None, text: str) -> int:
    """How often the appended ``text`` (as append_text would lay it out) is in ``data``."""
    if not data:
        return 0
    nl = b"\r\n" if b"\r\n" in data else b"\n"
    marker = nl.join(x.encode("utf-8") for x in _lines_added(text))
    return data.count(marker) if marker.strip() else 0


def append_text(old: bytes, text: str, under: str | None = None) -> bytes:
    """Append ``text`` at the end, or at the end of the section under heading ``under``
    (before the next heading of the same or a higher level). No existing byte changes."""
    try:
        body = old.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInput("this note is not valid UTF-8; fix its encoding before appending") from exc
    nl = "\r\n" if "\r\n" in body else "\n"
    add = _lines_added(text)
    if under is None:
        if not body:
            return (nl.join(add) + nl).encode("utf-8")
        sep = "" if body.endswith(nl * 2) else (nl if body.endswith(nl) else nl * 2)
        return (body + sep + nl.join(add) + nl).encode("utf-8")
    lines = body.split(nl)
    start, end = find_section(lines, under)
    while end > start + 1 and not lines[end - 1].strip():
        end -= 1
    new = lines[:end] + ["", *add] + lines[end:]
    out = nl.join(new)
    return (out if out.endswith(nl) else out + nl).encode("utf-8")
