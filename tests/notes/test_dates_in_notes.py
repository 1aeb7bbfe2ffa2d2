"""Dates a note states: the end of a fact's validity in prose (``prose_dates``) and the
date a note's name gives it (``note_dates``). Each reading has its near miss beside it."""

from __future__ import annotations

import datetime as dt

import pytest

from aleph_mem.notes.note_dates import dated_name, moment_pattern
from aleph_mem.notes.prose_dates import validity_end

WRITTEN = dt.date(2026, 11, 23)


@pytest.mark.parametrize(("text", "end", "words"), [
    ("The badge is valid until 2027-01-15.", dt.date(2027, 1, 15), "valid until 2027-01-15"),
    ("The offer expires on 3rd of March 2027.", dt.date(2027, 3, 3),
     "expires on 3rd of March 2027"),
    ("Good through March 4, 2027 only.", dt.date(2027, 3, 4), "Good through March 4, 2027"),
    ("The rota runs through Q1 2027.", dt.date(2027, 3, 31), "runs through Q1 2027"),
    ("Passes are valid until Feb 2028.", dt.date(2028, 2, 29), "valid until Feb 2028"),
    ("The plan is in effect until 2027.", dt.date(2027, 12, 31), "in effect until 2027"),
    ("Discount valid till end of March.", dt.date(2027, 3, 31),
     "valid till end of March"),  # a month without a year: the next one
    ("Open until December.", dt.date(2026, 12, 31), "Open until December"),
    ("Valid until Nov.", dt.date(2026, 11, 30), "Valid until Nov"),  # this month still
    ("Valid until 2027-05-01. Also expires 2027-02-01.", dt.date(2027, 2, 1),
     "expires 2027-02-01"),  # the earliest
])
def test_a_stated_end_of_validity_is_read(text: str, end: dt.date, words: str) -> None:
    assert validity_end(text, WRITTEN) == (end, words)


@pytest.mark.parametrize("text", [
    "We kept the policy until 1914.",  # a bare until tells history
    "We used Jira valid until 2021, now Linear.",  # history words in the sentence
    "The shop is open until 5 pm.",  # a time of day
    "> The pass is valid until 2027-01-15.",  # someone else's words
    "It may be valid until may be later.",  # "may" is a verb
    "Valid until 30 February 2027.",  # not a date
    "The war ends on 2027-01-01.",  # a story's event
    "",
])
def test_a_near_miss_ends_nothing(text: str) -> None:
    assert validity_end(text, WRITTEN) is None


def test_an_end_before_the_note_was_first_written_is_history() -> None:
    text = "Valid until 2025-06-30."
    assert validity_end(text, WRITTEN, since=dt.date(2025, 7, 1)) is None
    assert validity_end(text, WRITTEN, since=dt.date(2025, 6, 30)) == (
        dt.date(2025, 6, 30), "Valid until 2025-06-30")


@pytest.mark.parametrize("path", [
    "daily/2026-11-25.md", "20261125.md", "2026.11.25 standup.md", "25-11-2026.md",
    "25 November 2026.md", "Nov 25, 2026 sync.md", "2026年11月25日.md", "2026-W48.md",
    "2026-11.md", "meeting 2026_11_25.md",
])
def test_a_name_with_a_date_in_a_common_shape_is_dated(path: str) -> None:
    assert dated_name(path)


@pytest.mark.parametrize("path", [
    "2026-11-25/notes.md",  # the date is the folder's, not the name's
    "Heron.md", "project 12345678.md", "2026-13-01.md", "20261340.md", "v2026.md",
    "room 101.md", "1999 and 2026 plans x.md",
])
def test_a_name_without_a_date_is_not_dated(path: str) -> None:
    assert not dated_name(path)


def test_a_vaults_own_moment_format_dates_a_name() -> None:
    fmt = "D MMMM YYYY dddd"
    assert dated_name("25 November 2026 Wednesday.md", [fmt])
    assert moment_pattern(fmt).fullmatch("25 November 2026 Wednesday")
    assert not moment_pattern(fmt).fullmatch("25 Novembre 2026 Wednesday")
    assert dated_name("journal/2026/11/25.md", ["[journal]/YYYY/MM/DD"])
    assert not dated_name("notes/2026/11/25x.md", ["[journal]/YYYY/MM/DD"])
    assert moment_pattern("[Week] w") is not None
    assert moment_pattern("[Notes]") is None  # no date in it
    assert moment_pattern("") is None
