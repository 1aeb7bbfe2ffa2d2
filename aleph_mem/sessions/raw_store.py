"""L0, the raw layer: captured agent sessions as files under ``.aleph/raw/<host>/<client>/``,
one session per file, written by this device only (a synced vault never gets two writers
on one file). ``<session>.jsonl`` holds the session's messages, redacted, one per line,
appended as they arrive; ``<session>.json`` says what the session is (client, project,
times, where its transcript is and how far it was read). The index of sessions is built
from these files and can be rebuilt from them.

``ingest`` reads a transcript from where the last read stopped, so a hook that fires five
times in a session reads every line once, and a transcript read twice (or imported after
its hooks captured it) adds nothing: messages are kept by id.
"""

from __future__ import annotations

import datetime as dt
import fcntl
import hashlib
import json
import os
import re
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path, PureWindowsPath
from typing import Any

from aleph_mem.clock import iso, utc_now
from aleph_mem.files.atomic import write_atomic
from aleph_mem.redaction.text import redact
from aleph_mem.sessions.transcripts import READ_MAX, Batch, Message, read

SAFE = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass(frozen=True)
class Session:
    client: str
    session_id: str
    host: str
    cwd: str = ""
    project: str = ""
    branch: str = ""
    started: str = ""
    ended: str = ""
    source: str = ""  # the client's transcript file
    offset: int = 0  # bytes of it read
    messages: int = 0
    redacted: int = 0
    skipped: int = 0
    closed: bool = False  # the client said the session ended
    note: str = ""  # the session note made from it (vault path), once compressed
    compressed_at: str = ""
    captured: str = ""  # when this device first kept it (retention counts from here)
    enrich_failures: int = 0  # LLM readings of it that failed (tried again on later runs)

    @property
    def key(self) -> str:
        return f"{self.host}/{self.client}/{file_name(self.session_id)}"

    def as_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Session:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in known})


@dataclass(frozen=True)
class IngestReport:
    session: Session
    added: int
    skipped: int
    redacted: int
    files: list[str] = field(default_factory=list)


def _more(transcript: Path, read_to: int, read_from: int) -> bool:
    """A bounded read stopped before the end of a transcript and made progress."""
    try:
        return read_from < read_to < transcript.stat().st_size
    except OSError:
        return False


def file_name(session_id: str) -> str:
    """A file name for a session id: the id itself where it is safe; otherwise its safe
    letters and a digest of the whole id, so ``a/b`` and ``a:b`` never share a file."""
    name = SAFE.sub("-", session_id).strip(".-")[:120] or "session"
    if name == session_id:
        return name
    return f"{name[:100]}-{hashlib.sha256(session_id.encode()).hexdigest()[:12]}"


WINDOWS_PATH = re.compile(r"^(?:[A-Za-z]:\\|\\\\)")  # C:\… or \\server\…


def project_of(cwd: str, roots: list[str] | None = None) -> str:
    """The project a working folder belongs to: the configured root holding it, else the
    git repository holding it, else the folder itself (its name)."""
    if not cwd:
        return ""
    if WINDOWS_PATH.match(cwd):  # a session captured on Windows (or synced from there)
        return PureWindowsPath(cwd).name
    path = Path(cwd)
    for root in roots or []:
        r = Path(root).expanduser()
        if path == r or r in path.parents:
            return r.name
    for folder in (path, *path.parents):
        try:
            if (folder / ".git").exists():
                return folder.name
        except OSError:
            break
    return path.name


class RawStore:
    def __init__(self, aleph_dir: Path, host: str) -> None:
        self.root = aleph_dir / "raw"
        self.host = host

    def paths(self, client: str, session_id: str) -> tuple[Path, Path]:
        folder = self.root / self.host / client
        name = file_name(session_id)
        return folder / f"{name}.json", folder / f"{name}.jsonl"

    def lines_of(self, session: Session) -> Path:
        """Where a session's messages are, whichever device captured it."""
        return self.root / f"{session.key}.jsonl"

    def ingest(self, client: str, transcript: Path, session_id: str = "", cwd: str = "",
               closed: bool = False, roots: list[str] | None = None,
               limit: int | None = None, piece: int = READ_MAX) -> IngestReport:
        """Read what is new in ``transcript`` (at most ``limit`` bytes of it; without a
        limit, all of it, ``piece`` bytes at a time) into this device's raw store."""
        first = read(client, transcript, 0, limit or piece) if not session_id else None
        session_id = session_id or (first.meta.get("session_id") if first else "") or \
            transcript.stem
        meta_path, _ = self.paths(client, session_id)
        meta_path.parent.mkdir(parents=True, exist_ok=True)
        with _locked(meta_path.with_suffix(".lock")):
            old = self.load(meta_path) or Session(client, session_id, self.host)
            source = str(transcript.resolve())
            offset = old.offset if old.source == source else 0
            batch = first if first is not None and offset == 0 else read(
                client, transcript, offset, limit or piece)
            report = self._keep(old, batch, source, cwd, closed, roots,
                                known=offset == 0 or batch.offset < offset)
            while limit is None and _more(transcript, batch.offset, offset):
                offset = batch.offset  # a read is bounded: go on from where it stopped
                batch = read(client, transcript, offset, piece)
                more = self._keep(self.load(meta_path) or old, batch, source, cwd, closed,
                                  roots, known=False)
                report = replace(report, session=more.session,
                                 added=report.added + more.added,
                                 skipped=report.skipped + more.skipped,
                                 redacted=report.redacted + more.redacted,
                                 files=report.files + more.files)
            return report

    def add(self, client: str, session_id: str, batch: Batch, source: str,
            closed: bool = True, roots: list[str] | None = None) -> IngestReport:
        """Keep a session read from elsewhere (an export holding many), by message id."""
        meta_path, _ = self.paths(client, session_id)
        meta_path.parent.mkdir(parents=True, exist_ok=True)
        with _locked(meta_path.with_suffix(".lock")):
            old = self.load(meta_path) or Session(client, session_id, self.host)
            return self._keep(old, batch, source, "", closed, roots, known=True)

    def _keep(self, old: Session, batch: Batch, source: str, cwd: str, closed: bool,
              roots: list[str] | None, known: bool) -> IngestReport:
        """Append the batch's new messages, redacted, and save what the session is now.
        ``known``: the batch may repeat messages kept before (ids already kept are
        skipped); else it starts where the last read stopped."""
        meta_path, lines_path = self.paths(old.client, old.session_id)
        seen = set(self.message_ids(lines_path)) if known else set()
        fresh, redacted = [], 0
        files: list[str] = []
        for m in batch.messages:
            if m.id in seen:
                continue
            seen.add(m.id)
            m, n = _redacted(m)
            redacted += n
            files += m.files
            fresh.append(m)
        if fresh:
            with lines_path.open("a", encoding="utf-8") as f:
                for m in fresh:
                    f.write(json.dumps(m.as_json(), ensure_ascii=False) + "\n")
                f.flush()
                os.fsync(f.fileno())
        meta = batch.meta
        where = cwd or old.cwd or meta.get("cwd", "")
        new = replace(
            old, cwd=where, project=old.project or project_of(where, roots),
            branch=old.branch or meta.get("branch", ""),
            started=old.started or meta.get("started", "") or (fresh[0].at if fresh else ""),
            ended=max(old.ended, meta.get("ended", ""), fresh[-1].at if fresh else ""),
            source=source, offset=batch.offset, messages=old.messages + len(fresh),
            redacted=old.redacted + redacted, skipped=old.skipped + batch.skipped,
            closed=old.closed or closed, captured=old.captured or iso(utc_now()))
        if new != old:
            write_atomic(meta_path, json.dumps(new.as_json(), indent=1).encode(),
                         durable=False)
        return IngestReport(new, len(fresh), batch.skipped, redacted, sorted(set(files)))

    def load(self, meta_path: Path) -> Session | None:
        try:
            return Session.from_json(json.loads(meta_path.read_bytes()))
        except (OSError, ValueError, TypeError):
            return None

    def save(self, session: Session) -> None:
        meta_path, _ = self.paths(session.client, session.session_id)
        with _locked(meta_path.with_suffix(".lock")):
            current = self.load(meta_path) or session
            merged = replace(current, note=session.note, compressed_at=session.compressed_at,
                             closed=current.closed or session.closed,
                             enrich_failures=session.enrich_failures)
            write_atomic(meta_path, json.dumps(merged.as_json(), indent=1).encode(),
                         durable=False)

    def message_ids(self, lines_path: Path) -> Iterator[str]:
        for m in messages(lines_path):
            yield m.id

    def sessions(self, every_host: bool = True) -> Iterator[tuple[Session, Path]]:
        """Every session kept here (with the path of its messages), any host's when the raw
        folder is synced, else this device's."""
        hosts = sorted(self.root.iterdir()) if every_host and self.root.is_dir() else [
            self.root / self.host]
        for host in hosts:
            for meta_path in sorted(host.glob("*/*.json")):
                s = self.load(meta_path)
                if s is not None:
                    yield s, meta_path.with_suffix(".jsonl")

    def remove(self, session: Session) -> None:
        meta_path, lines_path = self.paths(session.client, session.session_id)
        for p in (lines_path, meta_path, meta_path.with_suffix(".lock")):
            p.unlink(missing_ok=True)

    def expired(self, days: int, now: dt.datetime | None = None) -> list[Session]:
        """This device's sessions captured more than ``days`` ago that have their session
        note (or were never worth one): what retention removes when a person sets it. The
        days count from capture, not from the messages: an imported history is not gone the
        moment it arrives. A session kept before capture times were recorded counts from
        its note."""
        if days <= 0:
            return []
        cutoff = iso((now or utc_now()) - dt.timedelta(days=days))
        return [s for s, _ in self.sessions(every_host=False)
                if (s.note or s.compressed_at)
                and (s.captured or s.compressed_at or cutoff) < cutoff]


def messages(lines_path: Path) -> Iterator[Message]:
    for _, m in messages_at(lines_path):
        yield m


def messages_at(lines_path: Path, start: int = 0) -> Iterator[tuple[int, Message]]:
    """(where its line starts, the message) for each message from byte ``start`` on."""
    try:
        f = lines_path.open("rb")
    except FileNotFoundError:
        return
    with f:
        f.seek(start)
        at = start
        for line in f:
            here, at = at, at + len(line)
            try:
                yield here, Message.from_json(json.loads(line))
            except (ValueError, KeyError, TypeError):
                continue  # a line cut short by a crash: the rest still reads


def _redacted(m: Message) -> tuple[Message, int]:
    text, a = redact(m.text)
    command, b = redact(m.command)
    files, c = zip(*(redact(f) for f in m.files), strict=True) if m.files else ((), (0,))
    return replace(m, text=text, command=command, files=tuple(files)), a + b + sum(c)


class _locked:
    def __init__(self, path: Path) -> None:
        self.path = path

    def __enter__(self) -> None:
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(self.fd, fcntl.LOCK_EX)

    def __exit__(self, *exc: object) -> None:
        os.close(self.fd)
