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
from typing import Any

import apsw

from . import db, frontmatter_edit
from .errors import BadInput, ConflictError, NoteExists, NoteNotFound
from .events import Event, EventLog, iso, make_event, utc_now
from .indexer import Indexer
from .locks import write_lock
from .objects import ObjectStore, fsync_dir, write_atomic
from .sections import find_section
from .vault import FileStat, Vault, content_hash

ANY = "*"  # expected hash meaning "whatever is there now" (appends, patches by hand)
ARCHIVE = "archive"


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


class Writer:
    def __init__(self, vault: Vault, con: apsw.Connection, indexer: Indexer,
                 actor: str = "cli", run: str | None = None) -> None:
        self.vault = vault
        self.con = con
        self.indexer = indexer
        self.actor = actor
        self.run = run
        self.events = EventLog(vault.aleph_dir)
        self.objects = ObjectStore(vault.aleph_dir / "objects")
        self.pending_dir = vault.local_dir / "pending"

    # -- the one primitive ---------------------------------------------------------------

    def apply(self, changes: list[FileChange], kind: str, path: str,
              reason: str | None = None, data: dict[str, Any] | None = None,
              before: str | None = None) -> WriteResult:
        with write_lock(self.vault.local_dir):
            current = {c.path: self.vault.read_bytes(c.path) for c in changes}
            for c in changes:
                self._check(c, current[c.path])
            if all(c.data == current[c.path] for c in changes):
                return WriteResult(path, _hash(current.get(path)), None)
            main = next(c for c in changes if c.path == path)
            after = content_hash(main.data) if main.data is not None else None
            if before is None:
                before = _hash(current[data["from"]] if data and "from" in data
                               else current[path])
            for old in current.values():
                if old is not None:
                    self.objects.put(old)
            self._record_outside_edits(current)
            event = make_event(self.actor, kind, path, before, after, self.run, reason, data)
            intent = self._write_intent(event, changes)
            staged = {c.path: self._stage(c) for c in changes if c.data is not None}
            try:  # a last look just before the renames: the window for an editor is tiny
                for c in changes:
                    now = self.vault.read_bytes(c.path)
                    if now != current[c.path]:
                        raise ConflictError(c.path, _hash(current[c.path]), _hash(now))
            except BaseException:
                for tmp in staged.values():
                    tmp.unlink(missing_ok=True)
                intent.unlink()
                raise
            for c in sorted(changes, key=lambda c: c.data is None):  # writes before removals
                self._commit(c, staged.get(c.path))
            self.events.append(event)
            intent.unlink()
            self._reindex(changes, event)
            return WriteResult(path, after, event)

    def _record_outside_edits(self, current: dict[str, bytes | None]) -> None:
        """A file that differs from what the index last saw was changed by a person: log
        that first (its pre-image is in the object store), so history has no gap."""
        for path, data in current.items():
            row = self.con.execute("SELECT hash FROM notes WHERE path=?", (path,)).fetchone()
            indexed, now = (row[0] if row else None), _hash(data)
            if indexed != now:
                kind = ("note-created" if indexed is None else
                        "note-deleted" if now is None else "note-updated")
                self.events.append(make_event("human", kind, path, indexed, now))

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

    def _stage(self, c: FileChange) -> Path:
        """Write the new content to a temp file beside the target and fsync it."""
        target = self.vault.abs(c.path)
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.parent / f".{target.name}.aleph-tmp-{os.getpid()}"
        with open(tmp, "wb") as fh:
            fh.write(c.data or b"")
            fh.flush()
            os.fsync(fh.fileno())
        return tmp

    def _commit(self, c: FileChange, tmp: Path | None) -> None:
        target = self.vault.abs(c.path)
        if tmp is not None:
            os.replace(tmp, target)
        else:
            with contextlib.suppress(FileNotFoundError):
                target.unlink()
        fsync_dir(target.parent)

    def _remove(self, path: str) -> None:
        self._commit(FileChange(path, None, None), None)

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
                    sweep_temp(target.parent, f".{target.name}.aleph-tmp-*")
                written = all(_hash(self.vault.read_bytes(c["path"])) == c["after"]
                              for c in changes if c["after"] is not None)
                if written and event.id not in known:
                    for c in changes:
                        if c["after"] is None and _hash(self.vault.read_bytes(c["path"])) in (
                                c["expected"], None):
                            self._remove(c["path"])
                    self.events.append(event)
                    done += 1
                intent.unlink()
        return done

    # -- operations ------------------------------------------------------------------------

    def write(self, path: str, content: bytes, expected: str | None,
              reason: str | None = None) -> WriteResult:
        """Create (``expected`` None) or replace (``expected`` = the current hash)."""
        path = self.vault.normalise(path)
        kind = "note-created" if expected is None else "note-updated"
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
        return self.edit(path, expected, lambda old: append_text(old, text, under), reason)

    def set_frontmatter(self, path: str, set_keys: dict[str, Any], unset: list[str],
                        expected: str = ANY, reason: str | None = None) -> WriteResult:
        return self.edit(path, expected,
                         lambda old: frontmatter_edit.patch(old, set_keys, unset), reason)

    def move(self, old: str, new: str, expected: str = ANY,
             reason: str | None = None, kind: str = "note-moved",
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
        if path.startswith(ARCHIVE + "/"):
            raise BadInput(f"{path} is already in {ARCHIVE}/")
        keys = {"status": "archived", "archived_at": iso(now or utc_now()),
                "archived_from": path, "archived_reason": reason, **(extra or {})}
        return self.move(path, f"{ARCHIVE}/{path}", expected, reason, "note-archived",
                         lambda old: frontmatter_edit.patch(old, keys, []))

    def restore(self, path: str, expected: str = ANY, reason: str | None = None) -> WriteResult:
        path = self.vault.normalise(path)
        if not path.startswith(ARCHIVE + "/"):
            path = f"{ARCHIVE}/{path}"
        data = self.vault.read_bytes(path)
        if data is None:
            raise NoteNotFound(path)
        fm = _frontmatter(data)
        origin = fm.get("archived_from") or path[len(ARCHIVE) + 1:]
        unset = [k for k in ("archived_at", "archived_from", "archived_reason") if k in fm]
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
    from .parser import decode, parse_frontmatter

    return parse_frontmatter(decode(data)[0])[0]


def append_text(old: bytes, text: str, under: str | None = None) -> bytes:
    """Append ``text`` at the end, or at the end of the section under heading ``under``
    (before the next heading of the same or a higher level). No existing byte changes."""
    try:
        body = old.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInput("this note is not valid UTF-8; fix its encoding before appending") from exc
    nl = "\r\n" if "\r\n" in body else "\n"
    add = text.strip("\r\n").replace("\r\n", "\n").split("\n")
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
