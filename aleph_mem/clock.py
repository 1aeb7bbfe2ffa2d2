"""The one clock and the one ISO 8601 reader and writer: times are timezone-aware UTC
inside, ISO 8601 with a ``Z`` outside."""

from __future__ import annotations

import datetime as dt
import os


def utc_now() -> dt.datetime:
    """Now; or, where ``ALEPH_MEM_NOW`` holds an ISO time, that time (a replay, a test that
    builds a history on chosen days: every event and every date aleph-mem writes reads it)."""
    fixed = os.environ.get("ALEPH_MEM_NOW")
    return parse_iso(fixed) if fixed else dt.datetime.now(dt.UTC)


def iso(t: dt.datetime) -> str:
    """``2026-11-23T01:02:03.456Z``: how events, runs and stamps write a time."""
    return t.astimezone(dt.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def parse_iso(text: str) -> dt.datetime:
    """A time written by ``iso`` (or any ISO 8601 time; one without an offset is UTC)."""
    t = dt.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    return t if t.tzinfo is not None else t.replace(tzinfo=dt.UTC)


def parse_day(text: str) -> dt.date:
    """The date at the start of an ISO date or time (``2026-11-23`` or later text)."""
    return dt.date.fromisoformat(text.strip()[:10])
