"""Times typed in filters: ISO dates and times and spans back from now; anything else,
and any moment Python's dates cannot hold, is one error that shows what is accepted."""

from __future__ import annotations

import datetime as dt

import pytest

from aleph_mem.errors import BadInput
from aleph_mem.index.timespec import check_limit, parse_when

NOW = dt.datetime(2026, 11, 23, 12, 0, tzinfo=dt.UTC)


@pytest.mark.parametrize(("text", "expected"), [
    ("2026", "2026"),
    ("2026-02", "2026-02"),
    (" 2026-11-05 ", "2026-11-05"),
    ("2026-01-05T14:00", "2026-01-05T14:00:00.000Z"),
    ("2026-01-05T14:00+02:00", "2026-01-05T12:00:00.000Z"),
    ("2026-01-05T14:00:00Z", "2026-01-05T14:00:00.000Z"),
    ("30m", "2026-11-23T11:30:00.000Z"),
    ("30min", "2026-11-23T11:30:00.000Z"),
    ("12H", "2026-11-23T00:00:00.000Z"),
    ("7 d", "2026-11-16T12:00:00.000Z"),
    ("2w", "2026-11-09T12:00:00.000Z"),
    ("0d", "2026-11-23T12:00:00.000Z"),
])
def test_accepted_forms(text: str, expected: str) -> None:
    assert parse_when(text, now=NOW) == expected


@pytest.mark.parametrize("text", ["", "yesterday", "2026-13", "2026-00", "2026-02-30",
                                  "7y", "-7d", "7", "１２h", "2026-1-5", "1234567d"])
def test_anything_else_is_an_error_showing_the_forms(text: str) -> None:
    with pytest.raises(BadInput) as bad:
        parse_when(text, "--since", now=NOW)
    assert str(bad.value) == (
        f"--since {text!r} is not a date or time; use YYYY, YYYY-MM, YYYY-MM-DD, an ISO "
        "time such as 2026-01-05T14:00, or a span back from now such as 30m, 12h, 7d, 2w")


@pytest.mark.parametrize("text", ["0000", "0000-01", "999999w", "0001-01-01T00:00+14:00"])
def test_a_moment_outside_the_calendar_is_one_error(text: str) -> None:
    with pytest.raises(BadInput, match=r"falls outside the years 0001 to 9999 \(in UTC\)"):
        parse_when(text, "--until", now=NOW)


def test_the_calendars_edges_are_accepted() -> None:
    assert parse_when("0001", now=NOW) == "0001"
    assert parse_when("9999-12-31") == "9999-12-31"
    assert parse_when("0001-01-01T00:00Z") == "0001-01-01T00:00:00.000Z"


def test_check_limit() -> None:
    assert check_limit(1) == 1 and check_limit(10_000) == 10_000
    for bad in (0, -1, 10_001):
        with pytest.raises(BadInput, match=f"--limit must be between 1 and 10000, got {bad}"):
            check_limit(bad)
