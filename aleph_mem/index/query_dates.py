"""Time expressions in a search query, as date periods: "on October 13, 2023", "in May
2023", "2023-10", "in 2023", "in July", "yesterday", "last week".

Search uses them as a soft signal (ranking.date_factor): a note dated inside a period the
question names rises; nothing is filtered out, so a wrong reading costs little. Hard
limits stay with the ``since`` / ``until`` filters.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

_MONTH_NAMES = ("january", "february", "march", "april", "may", "june", "july", "august",
                "september", "october", "november", "december")  # calendar's depend on locale
_MONTHS = {name: i for i, name in enumerate(_MONTH_NAMES, 1)}
_MONTHS.update({name[:3]: i for i, name in enumerate(_MONTH_NAMES, 1)})
_MONTHS["sept"] = 9
# every form without a digit needs one of these words: a month's name, or a relative word
_NAMES = frozenset(_MONTHS) | {"today", "yesterday", "week", "month", "year"}
_MON = "({}|{})\\.?".format(  # full names first; "Sept" before "Sep"; "May" once
    "|".join(n.capitalize() for n in _MONTH_NAMES),
    "|".join("Sept|Sep" if n == "september" else n[:3].capitalize()
             for n in _MONTH_NAMES if n != "may"))
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
_YEAR = r"((?:19|20)\d\d)"
_IN = r"(?:in|during|since|until|by|of|from|before|after|early|mid|late)"
_MON_ANY_CASE = f"(?i:{_MON})"


@dataclass(frozen=True)
class Period:
    start: dt.date
    end: dt.date
    any_year: bool = False  # "in July": that month of whichever year

    def holds(self, day: dt.date, after_days: int = 0) -> bool:
        """``day`` falls in the period, or up to ``after_days`` (under four weeks) after it:
        a note written shortly after an event tells of it."""
        if self.any_year:  # a whole month of any year
            earliest = dt.date.fromordinal(max(1, day.toordinal() - after_days))
            return self.start.month in (day.month, earliest.month)
        return self.start <= day and (day - self.end).days <= after_days  # 9999-12-31 too


def nothing_to_read(text: str) -> bool:
    """No form can match: every one needs a digit, a month's name or a relative word."""
    return not any(ch.isdigit() for ch in text) and \
        _NAMES.isdisjoint(re.findall("[a-z]+", text.lower()))


def periods(text: str, today: dt.date | None = None) -> list[Period]:
    """Every period ``text`` names, most specific forms first; each span of text is read
    once. A month without a year must be written with a capital ("in may" is a verb)."""
    if nothing_to_read(text):  # compiling every form is a CLI search's slowest step
        return []
    today = today or dt.date.today()
    taken: list[tuple[int, int]] = []
    out: list[Period] = []

    def free(m: re.Match) -> bool:
        return not any(a < m.end() and m.start() < b for a, b in taken)

    for pattern, read in _FORMS:
        for m in re.finditer(pattern, text):
            if not free(m):
                continue
            try:
                period = read(m, today)
            except (ValueError, OverflowError):  # past the calendar's ends: "9999-12" read
                period = None                     # on its last day, "last week" in year 1
            if period is None:
                continue
            taken.append((m.start(), m.end()))
            if re.search(r"(?i)\bsince\s*$", text[:m.start()]) or m[0].lower().startswith("since"):
                period = Period(period.start, max(period.end, today), period.any_year)
            out.append(period)
    return list(dict.fromkeys(out))


def _month_end(year: int, month: int) -> dt.date:
    first_of_next = dt.date(year + month // 12, month % 12 + 1, 1)
    return first_of_next - dt.timedelta(days=1)


def _day(year: str, month: str, day: str) -> Period | None:
    try:
        d = dt.date(int(year), _month(month), int(day))
    except ValueError:
        return None
    return Period(d, d)


def _month(word: str) -> int:
    return int(word) if word.isdigit() else _MONTHS[word.lower().rstrip(".")]


def _whole_month(year: str, month: str) -> Period | None:
    try:
        start = dt.date(int(year), _month(month), 1)
    except ValueError:
        return None
    return Period(start, _month_end(start.year, start.month))


def _month_any_year(month: str) -> Period:
    m = _month(month)
    return Period(dt.date(2000, m, 1), _month_end(2000, m), any_year=True)


def _relative(word: str, today: dt.date) -> Period:
    word = word.lower()
    if word == "today":
        return Period(today, today)
    if word == "yesterday":
        day = today - dt.timedelta(days=1)
        return Period(day, day)
    monday = today - dt.timedelta(days=today.weekday())
    if word == "this week":
        return Period(monday, today)
    if word == "last week":
        return Period(monday - dt.timedelta(days=7), monday - dt.timedelta(days=1))
    first = today.replace(day=1)
    if word == "this month":
        return Period(first, today)
    if word == "last month":
        prev = first - dt.timedelta(days=1)
        return Period(prev.replace(day=1), prev)
    if word == "this year":
        return Period(today.replace(month=1, day=1), today)
    return Period(dt.date(today.year - 1, 1, 1), dt.date(today.year - 1, 12, 31))  # last year


_FORMS = (
    (r"\b(\d{4})-(\d\d)-(\d\d)\b", lambda m, _: _day(m[1], m[2], m[3])),
    (rf"\b{_MON_ANY_CASE}\s+{_DAY},?\s+{_YEAR}\b", lambda m, _: _day(m[3], m[1], m[2])),
    (rf"\b{_DAY}\s+(?:of\s+)?{_MON_ANY_CASE},?\s+{_YEAR}\b",
     lambda m, _: _day(m[3], m[2], m[1])),
    (r"\b(\d{4})-(\d\d)\b(?!-)", lambda m, _: _whole_month(m[1], m[2])),
    (rf"\b{_MON_ANY_CASE},?\s+{_YEAR}\b", lambda m, _: _whole_month(m[2], m[1])),
    (rf"\b{_IN}\s+(?:the\s+year\s+)?{_YEAR}\b",
     lambda m, _: Period(dt.date(int(m[1]), 1, 1), dt.date(int(m[1]), 12, 31))),
    (rf"(?i:\b{_IN})\s+{_MON}\b(?!\s*\d)", lambda m, _: _month_any_year(m[1])),
    (r"(?i)\b(today|yesterday|(?:this|last)\s+(?:week|month|year))\b",
     lambda m, today: _relative(re.sub(r"\s+", " ", m[1]), today)),
)
