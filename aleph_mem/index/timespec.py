"""Times a person types in filters: ISO dates and times, and spans back from now such as
``7d`` or ``12h``. Anything else is an error that shows what is accepted, never a filter
that silently matches nothing or everything."""

from __future__ import annotations

import datetime as dt
import re

from aleph_mem.clock import iso, parse_iso, utc_now
from aleph_mem.errors import BadInput

SPAN = re.compile(r"(\d{1,6})\s*(m|min|h|d|w)", re.IGNORECASE | re.ASCII)
UNIT_SECONDS = {"m": 60, "min": 60, "h": 3600, "d": 86_400, "w": 604_800}
YEAR_MONTH = re.compile(r"(\d{4})(?:-(\d{2}))?", re.ASCII)
FORMS = "YYYY, YYYY-MM, YYYY-MM-DD, an ISO time such as 2026-01-05T14:00, or a span back " \
        "from now such as 30m, 12h, 7d, 2w"


def parse_when(text: str, what: str = "--since", now: dt.datetime | None = None) -> str:
    """A comparable ISO string (UTC for times) for ``text``, or BadInput naming ``what``:
    also for a moment outside the years 0001 to 9999 once read in UTC (``0000``,
    ``999999w``, ``0001-01-01T00:00+14:00``), which Python's dates cannot hold."""
    try:
        return _when(text.strip(), now)
    except OverflowError:
        raise BadInput(f"{what} {text!r} falls outside the years 0001 to 9999 (in UTC); "
                       f"use {FORMS}") from None
    except ValueError:
        raise BadInput(f"{what} {text!r} is not a date or time; use {FORMS}") from None


def _when(value: str, now: dt.datetime | None) -> str:
    span = SPAN.fullmatch(value)
    if span:
        seconds = int(span.group(1)) * UNIT_SECONDS[span.group(2).lower()]
        return iso((now or utc_now()) - dt.timedelta(seconds=seconds))
    ym = YEAR_MONTH.fullmatch(value)
    if ym and int(ym.group(1)) == 0:
        raise OverflowError("year 0")
    if ym and (ym.group(2) is None or 1 <= int(ym.group(2)) <= 12):
        return value
    if len(value) == 10:
        return dt.date.fromisoformat(value).isoformat()
    return iso(parse_iso(value))


def check_limit(value: int, what: str = "--limit", most: int = 10_000) -> int:
    if not 1 <= value <= most:
        raise BadInput(f"{what} must be between 1 and {most}, got {value}")
    return value
