"""Dates in prose that end a fact's validity: "until March 2021", "expires 2024-05-01",
"through Q3 2023", "valid till end of June". Read deterministically, the period's end
taken (March 2021 -> 2021-03-31, Q3 2023 -> 2023-09-30, 2024 -> 2024-12-31); a month
without a year is the first such month ending on or after the note's own date. A sentence
that tells history ("we used X until 2021, now Y") ends nothing, and neither does a time
of day ("open until 5 pm").

Only a statement of validity counts: something valid, good, available, open, running or
lasting until a date, or expiring on one ("the war ends on ..." is a story's event). A
bare "until" ("kept the policy until 1914", "limited until Dec.", "no plan until March")
tells history or a plan, not that the note stops holding; a quoted line (``>``) is
someone else's words; and an end before the note was first written (``since``) is
history."""

from __future__ import annotations

import calendar
import datetime as dt
import re

NAMES = {name: i for i, name in enumerate(calendar.month_name) if name}
NAMES.update({name: i for i, name in enumerate(calendar.month_abbr) if name})
NAMES["Sept"] = 9
MONTHS = {name.casefold(): i for name, i in NAMES.items()}
# a month is capitalised ("until May 2021"; "until may be" is a verb)
MONTH = r"(?P<month>(?-i:" + "|".join(sorted(NAMES, key=len, reverse=True)) + r"))\.?"
TRIGGER = (r"\b(?:(?:valid|good|available|open|runs?|lasts?|in\s+effect|in\s+force)\s+"
           r"(?:until|till|til|through|thru)|expires?(?:\s+on)?|expiring(?:\s+on)?|"
           r"no\s+longer\s+valid\s+after)\s+(?:in\s+|at\s+)?(?:the\s+)?(?P<end>end\s+of\s+)?")
DATE = (r"(?:(?P<iso>\d{4}-\d{2}-\d{2})"
        r"|(?P<day1>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?" + MONTH + r",?\s+(?P<year1>\d{4})"
        r"|" + MONTH.replace("month", "month2") + r"\s+(?P<day2>\d{1,2})(?:st|nd|rd|th)?,?\s+"
        r"(?P<year2>\d{4})"
        r"|[Qq](?P<quarter>[1-4])\s+(?P<year3>\d{4})"
        r"|" + MONTH.replace("month", "month3") + r"(?:\s+(?P<year4>\d{4}))?"
        r"|(?P<year5>(?:19|20)\d{2}))\b")
PHRASE = re.compile(TRIGGER + DATE, re.IGNORECASE)
HISTORY = re.compile(r"\b(?:used|was|were|had|did|worked|lived|stayed|since then|now|"
                     r"nowadays|previously|formerly|back then|until then)\b", re.IGNORECASE)
SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


def validity_end(text: str, written: dt.date, since: dt.date | None = None
                 ) -> tuple[dt.date, str] | None:
    """The earliest end of validity the text states (and the words that state it), or
    None. ``written`` is the note's own date (for a month named without a year); ``since``
    when it was first written, if known (an end before it is history)."""
    found: list[tuple[dt.date, str]] = []
    own = "\n".join(ln for ln in text.splitlines() if not ln.lstrip().startswith(">"))
    for sentence in SENTENCE.split(own):
        if HISTORY.search(sentence):
            continue
        for m in PHRASE.finditer(sentence):
            end = _period_end(m, written)
            if end is not None and (since is None or end >= since):
                found.append((end, m.group(0).strip()))
    return min(found) if found else None


def _period_end(m: re.Match[str], written: dt.date) -> dt.date | None:
    g = m.groupdict()
    try:
        if g["iso"]:
            return dt.date.fromisoformat(g["iso"])
        if g["year1"]:
            return dt.date(int(g["year1"]), MONTHS[g["month"].casefold()], int(g["day1"]))
        if g["year2"]:
            return dt.date(int(g["year2"]), MONTHS[g["month2"].casefold()], int(g["day2"]))
    except ValueError:
        return None  # "30 February": not a date
    if g["quarter"]:
        return _month_end(int(g["year3"]), int(g["quarter"]) * 3)
    if g["month3"]:
        month = MONTHS[g["month3"].casefold()]
        if g["year4"]:
            return _month_end(int(g["year4"]), month)
        end = _month_end(written.year, month)
        return end if end >= written else _month_end(written.year + 1, month)
    if g["year5"]:
        return dt.date(int(g["year5"]), 12, 31)
    return None


def _month_end(year: int, month: int) -> dt.date:
    return dt.date(year, month, calendar.monthrange(year, month)[1])
