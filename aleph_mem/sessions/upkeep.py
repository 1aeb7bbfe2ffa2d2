"""The work done on captured sessions after the fact: which ones are finished and waiting
for their note, compressing them (by hand, or by the daemon when the vault is idle), and
removing transcripts past their retention once their note exists."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from aleph_mem import logs
from aleph_mem.errors import BadInput
from aleph_mem.sessions import library
from aleph_mem.sessions.raw_store import Session
from aleph_mem.sessions.session_note import Compressed, compress

if TYPE_CHECKING:
    from pathlib import Path

    from aleph_mem.store import Store

log = logs.get(__name__)


def finished(s: Session, idle_minutes: float, now: dt.datetime) -> bool:
    """Whether a session is over: its client said so, or nothing came for a while."""
    if s.closed:
        return True
    last = _time(s.ended or s.started)
    return last is not None and (now - last).total_seconds() >= idle_minutes * 60


def _time(value: str) -> dt.datetime | None:
    try:
        t = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return t if t.tzinfo else t.replace(tzinfo=dt.UTC)


def waiting(mem: Store, every: bool = False,
            now: dt.datetime | None = None) -> list[tuple[Session, Path]]:
    """This device's finished sessions with messages newer than their note."""
    now = now or dt.datetime.now(dt.UTC)
    idle = float(mem.settings.session_idle_minutes)
    out = []
    for s, lines in library.raw_store(mem).sessions(every_host=False):
        retry = bool(mem.settings.llm_model) and 0 < s.enrich_failures < ENRICH_TRIES
        if s.compressed_at and s.compressed_at[:19] >= s.ended[:19] and not retry:
            continue
        if every or finished(s, idle, now):
            out.append((s, lines))
    return out


ENRICH_TRIES = 3  # a session whose LLM reading failed is tried again on this many runs


def compress_one(mem: Store, ref: str, run: str | None = None) -> Compressed:
    session, lines = library.find(mem, ref)
    if session.host != mem.events.host:  # its raw files and their state are that device's
        raise BadInput(f"session {session.session_id} was captured on {session.host}, not on "
                       f"this device ({mem.events.host}): compress it there; its note "
                       "reaches this vault with the notes")
    caught = library.catch_up(mem, session)
    return compress(mem, caught.session if caught else session, lines, run)


def compress_finished(mem: Store, every: bool = False, run: str | None = None,
                      limit: int = 50) -> list[Compressed]:
    done = []
    for session, lines in waiting(mem, every)[:limit]:
        caught = library.catch_up(mem, session)  # what a hook left for later
        done.append(compress(mem, caught.session if caught else session, lines, run))
    if done:
        library.sync(mem)
    return done


def prune(mem: Store, now: dt.datetime | None = None, days: int | None = None) -> list[Session]:
    store = library.raw_store(mem)
    gone = store.expired(int(mem.settings.raw_retention_days if days is None else days), now)
    for s in gone:
        store.remove(s)
        log.info("removed the captured transcript of session %s (note %s kept)",
                 s.session_id, s.note)
    if gone:
        library.sync(mem)
    return gone
