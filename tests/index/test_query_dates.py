"""Time expressions read out of search queries (query_dates.py)."""

from __future__ import annotations

import datetime as dt

import pytest

from aleph_mem.index.query_dates import Period, periods

TODAY = dt.date(2026, 11, 22)  # a Sunday
D = dt.date


def spans(text: str) -> list[tuple[dt.date, dt.date]]:
    return [(p.start, p.end) for p in periods(text, TODAY)]


@pytest.mark.parametrize("text, expected", [
    ("What did Melanie paint on October 13, 2023?", [(D(2023, 10, 13), D(2023, 10, 13))]),
    ("on Oct. 13th 2023", [(D(2023, 10, 13), D(2023, 10, 13))]),
    ("the weekend before 4th of October, 2023", [(D(2023, 10, 4), D(2023, 10, 4))]),
    ("news shared on 9 december 2023", [(D(2023, 12, 9), D(2023, 12, 9))]),
    ("what changed in May 2023", [(D(2023, 5, 1), D(2023, 5, 31))]),
    ("classes joined in mid-August 2023", [(D(2023, 8, 1), D(2023, 8, 31))]),
    ("the 2024-02 budget", [(D(2024, 2, 1), D(2024, 2, 29))]),
    ("deploys on 2023-10-13 and in 2021",
     [(D(2023, 10, 13), D(2023, 10, 13)), (D(2021, 1, 1), D(2021, 12, 31))]),
    ("what did we decide yesterday", [(D(2026, 11, 21), D(2026, 11, 21))]),
    ("notes from last week", [(D(2026, 11, 9), D(2026, 11, 15))]),
    ("what I read last month", [(D(2026, 10, 1), D(2026, 10, 31))]),
    ("what changed since 2024", [(D(2024, 1, 1), TODAY)]),
    ("every release since March 3, 2025", [(D(2025, 3, 3), TODAY)]),
])
def test_dates_days_months_years_and_relative_words(text: str, expected: list) -> None:
    assert spans(text) == expected


@pytest.mark.parametrize("text", [
    "may I ask about the 2023 people count",  # a verb, and a bare number
    "on February 30, 2023",  # no such day: nothing, rather than a guess
    "port 8080 on host 2023-99",
    "towards the end of summer 2023",  # seasons depend on the hemisphere: not read
])
def test_what_is_not_a_date_is_not_read_as_one(text: str) -> None:
    assert spans(text) == []


def test_a_month_without_a_year_holds_in_any_year_and_a_week_after() -> None:
    (july,) = periods("When did Melanie go camping in July?", TODAY)
    assert july.any_year
    assert july.holds(D(2019, 7, 31)) and july.holds(D(2023, 7, 1))
    assert not july.holds(D(2023, 8, 5))
    assert july.holds(D(2023, 8, 5), after_days=7)
    assert not july.holds(D(2023, 6, 30), after_days=7)
    assert periods("in may we rest", TODAY) == []  # lower case: the verb


def test_a_period_holds_up_to_the_days_after_it() -> None:
    day = Period(D(2023, 10, 13), D(2023, 10, 13))
    assert day.holds(D(2023, 10, 13)) and not day.holds(D(2023, 10, 12))
    assert not day.holds(D(2023, 10, 21), after_days=7)
    assert day.holds(D(2023, 10, 20), after_days=7)


def test_text_skipped_unread_holds_no_form() -> None:
    """A query with no digit, month name or relative word is not read at all (compiling
    the forms is most of a CLI search's own work): on every line of the docs, such a line
    matches none of the forms, and a line that does match is read."""
    import re

    from conftest import REPO

    from aleph_mem.index import query_dates

    lines = [line for page in sorted((REPO / "docs").glob("*.md"))
             for line in page.read_text().splitlines() if line.strip()]
    lines += ["in July we met", "LAST WEEK", "notes from Sept. 2023", "yesterday's call"]
    skipped = 0
    for line in lines:
        matches = any(re.search(pattern, line) for pattern, _ in query_dates._FORMS)
        unread = query_dates.nothing_to_read(line)
        assert not (unread and matches), line
        skipped += unread
        if unread:
            assert query_dates.periods(line) == []
    assert 100 < skipped < len(lines)
    assert query_dates.periods("in July we met") and query_dates.periods("LAST WEEK")
