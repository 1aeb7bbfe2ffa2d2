"""The append-only event log: ``.aleph/events/<host-id>/<YYYY-MM>.jsonl``.

One JSON object per line, appended and fsynced; one folder per host so syncing a vault
between machines never conflicts. A torn last line after a crash is skipped, never fatal.
The index mirrors the events into a table (``sync_index``) for fast history queries.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal, get_args

import apsw

from aleph_mem import logs
from aleph_mem.clock import iso, parse_iso, utc_now
from aleph_mem.files import jsonl
from aleph_mem.files.atomic import write_atomic
from aleph_mem.ulid import new_ulid

log = logs.get(__name__)

_HASH = re.compile(r"[0-9a-f]{64}")
ChangeKind = Literal["note-created", "note-updated", "note-moved", "note-archived",
                     "note-restored", "note-deleted"]  # an event that changes a note
Kind = Literal[ChangeKind, "save-displaced", "purge"]  # every kind aleph-mem writes
KINDS: tuple[ChangeKind, ...] = get_args(ChangeKind)
PERSON_ACTORS = ("human", "cli")  # an editor's save, or a person's own command


def by_person(actor: str) -> bool:
    """A person wrote it: through an editor (``human``) or the CLI (``cli``: ``set``,
    ``write``, ``mv``, ``undo``). Agents write as ``mcp:*``, ``hook:*``, ``sessions:*``."""
    return actor in PERSON_ACTORS


AGENT_ACTORS = ("mcp:", "hook:", "sessions:")


def by_agent(actor: str) -> bool:
    """An agent wrote it: through MCP (``mcp:*``), a client hook or a session note. The
    dream (``dream:*``) is neither: it applies what a person ticked, and writes its own."""
    return actor.startswith(AGENT_ACTORS)


def undone_event(reason: str | None) -> str | None:
    """The id of the event an undo event took back (its reason is ``undo <id>``)."""
    if reason and reason.startswith("undo ") and len(reason.split()) == 2:
        return reason.split()[1]
    return None


@dataclass(frozen=True)
class Event:
    id: str
    at: str
    actor: str
    kind: str
    path: str
    before: str | None
    after: str | None
    run: str | None = None
    reason: str | None = None
    data: dict[str, Any] = field(default_factory=dict)  # e.g. {"from": old path}
    host: str | None = None  # the device that logged it (its event folder; not in the line)

    def as_json(self) -> dict[str, Any]:
        out = asdict(self)
        if not out["data"]:
            out.pop("data")
        return {k: v for k, v in out.items() if v is not None}

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Event:
        """An event from one log line; a line whose fields are not what a writer writes
        is damaged (ValueError), so nothing downstream acts on it."""
        if not all(isinstance(obj.get(k), str) and obj[k] for k in ("id", "at", "actor",
                                                                     "kind", "path")):
            raise ValueError("an event needs id, at, actor, kind and path strings")
        for key in ("before", "after"):
            if obj.get(key) is not None and not _HASH.fullmatch(str(obj[key])):
                raise ValueError(f"{key} is not a sha256 hash")
        if not isinstance(obj.get("data") or {}, dict):
            raise ValueError("data is not an object")
        return cls(obj["id"], obj["at"], obj["actor"], obj["kind"], obj["path"],
                   obj.get("before"), obj.get("after"), obj.get("run"), obj.get("reason"),
                   obj.get("data") or {})


def make_event(actor: str, kind: Kind, path: str, before: str | None, after: str | None,
               run: str | None = None, reason: str | None = None,
               data: dict[str, Any] | None = None) -> Event:
    return Event(new_ulid(), iso(utc_now()), actor, kind, path, before, after, run, reason,
                 data or {})


def machine_fingerprint(local_dir: Path) -> str:
    """This machine and this vault folder: what a host id is bound to, so a copied
    ``.aleph/local`` (``cp -a`` of a vault, a restored backup) is noticed."""
    machine = ""
    for source in ("/etc/machine-id", "/var/lib/dbus/machine-id"):
        try:
            machine = Path(source).read_text().strip()
            break
        except OSError:
            continue
    import hashlib
    import socket
    import uuid

    machine = machine or f"{uuid.getnode():x}-{socket.gethostname()}"
    where = str(local_dir.resolve())
    return hashlib.sha256(f"{machine}\0{where}".encode()).hexdigest()[:16]


def host_id(local_dir: Path) -> str:
    """A stable id for this machine and vault copy, kept in ``.aleph/local/host-id`` with
    the fingerprint it is bound to. Found under another machine or folder (the local
    folder was copied), it is replaced by a new one, with a warning: two devices writing
    one per-host event file would conflict."""
    path = local_dir / "host-id"
    bound = machine_fingerprint(local_dir)
    try:
        lines = path.read_text().split()
    except FileNotFoundError:
        lines = []
    if lines and (len(lines) < 2 or lines[1] == f"bound:{bound}"):
        if len(lines) < 2:  # written before ids were bound: bind it where it is now
            write_atomic(path, f"{lines[0]}\nbound:{bound}\n".encode())
        return lines[0]
    local_dir.mkdir(parents=True, exist_ok=True)
    import socket

    name = "".join(c if c.isalnum() or c in "-_" else "-" for c in socket.gethostname())[:32]
    hid = f"{name or 'host'}-{new_ulid()[-8:].lower()}"
    if lines:
        log.warning("this vault's .aleph/local was copied from another machine or folder "
                    "(host id %s); this copy now writes its history as %s (never copy "
                    ".aleph/local: sync the notes and .aleph/events instead)", lines[0], hid)
    write_atomic(path, f"{hid}\nbound:{bound}\n".encode())
    return hid


class EventLog:
    def __init__(self, aleph_dir: Path) -> None:
        self.root = aleph_dir / "events"
        self._local = aleph_dir / "local"
        self._host: str | None = None
        self.appended_by: Counter[str] = Counter()  # events written through it, by actor

    @property
    def host(self) -> str:
        """This machine's id, made on the first write (a reader on a read-only vault never
        needs one)."""
        if self._host is None:
            self._host = host_id(self._local)
        return self._host

    def file_for(self, at: str) -> Path:
        return self.root / self.host / f"{at[:7]}.jsonl"

    def append(self, event: Event) -> None:
        """Append one line and fsync (the append-only rule of jsonl.py)."""
        jsonl.append(self.file_for(event.at), event.as_json())
        self.appended_by[event.actor] += 1
        from aleph_mem.plugins import note_changed  # plugins hear of it once it is committed

        note_changed(event)

    def append_all(self, events: list[Event], chunk: int = 500) -> None:
        """Append many events, ``chunk`` lines to a write and an fsync (a reconcile's
        thousands of changes cost a few fsyncs, not one each)."""
        from aleph_mem.plugins import note_changed

        for start in range(0, len(events), chunk):
            part = events[start:start + chunk]
            by_file: dict[Path, list[dict[str, Any]]] = {}
            for event in part:
                by_file.setdefault(self.file_for(event.at), []).append(event.as_json())
            for path, lines in by_file.items():
                jsonl.append_many(path, lines)
            self.appended_by.update(event.actor for event in part)  # (Counter: counts)
            for event in part:
                note_changed(event)

    def files(self) -> list[Path]:
        """The event files: regular files only. A folder or other odd thing where one
        belongs (synced in from elsewhere) is reported and skipped, never a stop."""
        if not self.root.is_dir():
            return []
        out = []
        for path in sorted(self.root.glob("*/*.jsonl")):
            if path.is_file():
                out.append(path)
            else:
                log.warning("%s is not a file of events: skipped", path)
        return out

    def read(self) -> Iterator[Event]:
        for path in self.files():
            yield from (e for e, _ in read_lines(path, 0))

    def behind(self, con: apsw.Connection) -> bool:
        """Whether some event file holds lines the index has not mirrored (a read only)."""
        seen = dict(con.execute("SELECT file, size FROM event_files").fetchall())
        return any(p.stat().st_size > seen.get(p.relative_to(self.root).as_posix(), 0)
                   for p in self.files())

    def sync_index(self, con: apsw.Connection) -> int:
        """Copy new complete lines of every event file into the ``events`` table."""
        seen = dict(con.execute("SELECT file, size FROM event_files").fetchall())
        added = 0
        for path in self.files():
            rel = path.relative_to(self.root).as_posix()
            start = seen.get(rel, 0)
            if path.stat().st_size <= start:
                continue
            rows, end = [], start
            try:
                for event, offset in read_lines(path, start):
                    end = offset
                    problem = untrusted(event)
                    if problem:  # synced in from elsewhere: input to check, never truth
                        log.warning("an event in %s is skipped (%s): %s", rel, problem,
                                    ascii(event.id)[:40])
                        continue
                    rows.append(event)
            except OSError as exc:  # unreadable (another user's, a damaged disk): skipped
                log.warning("events in %s could not be read: %s", path, exc)
                continue
            con.executemany(
                "INSERT OR IGNORE INTO events(id, at, actor, kind, path, before, after, run, "
                "reason, data, host) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                [(e.id, e.at, e.actor, e.kind, e.path, e.before, e.after, e.run, e.reason,
                  json.dumps(e.data) if e.data else None, rel.split("/")[0]) for e in rows])
            con.execute("INSERT OR REPLACE INTO event_files VALUES (?, ?)", (rel, end))
            added += len(rows)
        return added


# -- questions of the index's mirror of the log ---------------------------------------------

def logged(con: apsw.Connection, path: str | None = None, since: str | None = None,
           actor: str | None = None, limit: int = 50) -> list[Event]:
    """The latest events first: of a note (``path``, or a move from it), at or after
    ``since``, by ``actor`` (an exact actor, or ``mcp`` for every ``mcp:*``)."""
    sql, args = [], []
    if path:
        sql.append("(path = ? OR json_extract(data, '$.from') = ?)")
        args += [path, path]
    if since:
        sql.append("at >= ?")
        args.append(since)
    if actor:
        sql.append("(actor = ? OR actor LIKE ?)")
        args += [actor, actor.rstrip(":*") + ":%"]
    where = " WHERE " + " AND ".join(sql) if sql else ""
    rows = con.execute(
        "SELECT id, at, actor, kind, path, before, after, run, reason, data, host FROM "
        f"events{where} ORDER BY id DESC LIMIT ?", (*args, limit)).fetchall()
    # mypy cannot count a starred row: its first nine columns are Event's first nine fields
    return [Event(*r[:9], json.loads(r[9]) if r[9] else {}, r[10])  # type: ignore[call-arg]
            for r in rows]


def last_writers(con: apsw.Connection, paths: list[str]) -> list[tuple[str, str]]:
    """(path, actor) of the latest event of each of ``paths`` that has one (two when two
    share the latest moment)."""
    return [(p, a) for p, a in con.execute(
        "SELECT path, actor FROM events e WHERE at = (SELECT max(at) FROM events "
        "WHERE path = e.path) AND path IN (SELECT value FROM json_each(?))",
        (json.dumps(paths),))]


def last_change_at(con: apsw.Connection, path: str) -> str | None:
    """When the latest event of a note happened."""
    row = con.execute("SELECT max(at) FROM events WHERE path = ?", (path,)).fetchone()
    return row[0] if row else None


def changed_by_other_than_dream(con: apsw.Connection, since: str) -> bool:
    """An event after ``since`` that the dream did not write."""
    return con.execute("SELECT 1 FROM events WHERE at > ? AND actor NOT LIKE 'dream:%' "
                       "LIMIT 1", (since,)).fetchone() is not None


def first_logged(con: apsw.Connection) -> dict[str, str]:
    """path -> when its first event happened."""
    return dict(con.execute("SELECT path, min(at) FROM events GROUP BY path").fetchall())


def last_logged_but_dream(con: apsw.Connection) -> dict[str, str]:
    """path -> when its latest event not written by the dream happened."""
    return dict(con.execute(
        "SELECT path, max(at) FROM events WHERE actor NOT LIKE 'dream:%' GROUP BY path"))


def last_logged_by(con: apsw.Connection, actor: str) -> dict[str, str]:
    """path -> when ``actor`` last wrote it."""
    return dict(con.execute(
        "SELECT path, max(at) FROM events WHERE actor = ? GROUP BY path", (actor,)))


def dream_writes_with_mtime(con: apsw.Connection) -> Iterator[tuple[str, str]]:
    """(path, data JSON) of the dream's events that kept a file time, oldest first."""
    yield from con.execute(
        "SELECT path, data FROM events WHERE actor LIKE 'dream:%' AND data LIKE "
        "'%mtime_ns%' ORDER BY id")


def all_changes(con: apsw.Connection) -> Iterator[tuple[str, str, str, str, str | None,
                                                        str | None, str | None]]:
    """(id, path, actor, kind, after, reason, data JSON) of every event, oldest first."""
    yield from con.execute(
        "SELECT id, path, actor, kind, after, reason, data FROM events ORDER BY id")


ULID = re.compile(r"[0-9A-HJKMNP-TV-Z]{26}")
KNOWN_KINDS: tuple[str, ...] = get_args(Kind)


def untrusted(e: Event) -> str | None:
    """Why an event cannot be taken as history, or None: an id that is no ULID, a time
    that is not ISO or runs more than a day ahead (it would stay newest and make every
    later edit impossible to undo), a kind aleph-mem does not write, a path that is not a
    vault path."""
    if not ULID.fullmatch(e.id):
        return "its id is not one aleph-mem makes"
    try:
        when = parse_iso(e.at)
    except ValueError:
        return "its time is not an ISO time"
    if when > utc_now() + dt.timedelta(days=1):
        return f"its time {e.at[:19]} runs ahead"
    if e.kind not in KNOWN_KINDS:
        return f"kind {e.kind[:30]!r} is not one aleph-mem writes"
    for p in (e.path, str(e.data.get("from") or "")):
        if p and (p.startswith("/") or ".." in p.split("/") or "\x00" in p):
            return "its path leaves the vault"
    return None


def read_lines(path: Path, start: int) -> Iterator[tuple[Event, int]]:
    """Events of complete lines from byte ``start``, each with the offset after its line
    (jsonl.py's rule); a line that is JSON but not an event is skipped with a warning."""
    for obj, offset in jsonl.read(path, start):
        try:
            yield Event.from_json(obj), offset
        except (ValueError, KeyError, TypeError, AttributeError):
            log.warning("skipping a damaged event line in %s before byte %d", path, offset)
