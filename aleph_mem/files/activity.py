"""The shared activity stamp (``.aleph/local/activity.json``): every human edit, CLI command
and MCP call refreshes it, so the daemon can tell when the vault has been idle."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

from aleph_mem import logs
from aleph_mem.clock import iso, parse_iso, utc_now
from aleph_mem.files.atomic import write_atomic

log = logs.get(__name__)


def stamp_path(local_dir: Path) -> Path:
    return local_dir / "activity.json"


def touch(local_dir: Path, actor: str, now: dt.datetime | None = None) -> None:
    """Refresh the stamp; on a read-only or full disk there is nothing to keep idle, so a
    failure is only logged (a reader must keep working there)."""
    body = json.dumps({"at": iso(now or utc_now()), "actor": actor}).encode()
    try:
        local_dir.mkdir(parents=True, exist_ok=True)
        write_atomic(stamp_path(local_dir), body, durable=False)
    except OSError as exc:
        log.info("activity stamp not written: %s", exc)


def last(local_dir: Path) -> tuple[dt.datetime, str] | None:
    try:
        body = json.loads(stamp_path(local_dir).read_bytes())
        if not isinstance(body, dict) or not isinstance(body.get("at"), str):
            return None  # damaged: read as no activity, like a torn stamp
        return parse_iso(body["at"]), str(body["actor"])
    except (FileNotFoundError, ValueError, KeyError):
        return None


def idle_seconds(local_dir: Path, now: dt.datetime | None = None) -> float | None:
    """Seconds since the last activity, or None if there never was any."""
    seen = last(local_dir)
    if seen is None:
        return None
    return max(0.0, ((now or utc_now()) - seen[0]).total_seconds())
