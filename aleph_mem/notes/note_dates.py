"""The date a note's name gives it: a daily, weekly or meeting note is written on the day
its name says, so "tomorrow" in it reads against that day and never ages.

Names are read in the vault's own formats (the moment.js formats Obsidian's Daily notes
and the Periodic Notes plugin are set to, ``D MMMM YYYY dddd`` say) and in the shapes
people commonly use: ``2026-11-25``, ``20261125``, ``2026.11.25``, ``25-11-2026``,
``25 November 2026``, ``Nov 25, 2026``, ``2026年11月25日``, ``2026-W48``, ``2026-11``."""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterable
from functools import lru_cache

_MONTHS = "|".join(sorted((m for m in (*calendar.month_name, *calendar.month_abbr) if m),
                          key=len, reverse=True))
_DAYS = "|".join(sorted((d for d in (*calendar.day_name, *calendar.day_abbr) if d),
                        key=len, reverse=True))
COMMON = re.compile(
    r"(?<!\d)(?:(?:19|20)\d{2}[-_./](?:0?[1-9]|1[0-2])(?:[-_./](?:0?[1-9]|[12]\d|3[01]))?"
    r"|(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])"
    r"|(?:0?[1-9]|[12]\d|3[01])[-_./](?:0?[1-9]|1[0-2])[-_./](?:19|20)\d{2}"
    r"|(?:19|20)\d{2}-?W\d{2}"
    r"|(?:19|20)\d{2}\s*年\s*\d{1,2}\s*月(?:\s*\d{1,2}\s*日)?)(?!\d)"
    rf"|\b(?:\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{_MONTHS})\.?,?\s+(?:19|20)\d{{2}}"
    rf"|(?:{_MONTHS})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+(?:19|20)\d{{2}})\b", re.I)

# moment.js tokens, longest first, and what each matches in a file name
_TOKENS = [("YYYY", r"\d{4}"), ("gggg", r"\d{4}"), ("GGGG", r"\d{4}"), ("YY", r"\d{2}"),
           ("MMMM", rf"(?:{_MONTHS})"), ("MMM", rf"(?:{_MONTHS})"), ("MM", r"\d{2}"),
           ("M", r"\d{1,2}"), ("Do", r"\d{1,2}(?:st|nd|rd|th)"), ("DDDD", r"\d{3}"),
           ("DD", r"\d{2}"), ("D", r"\d{1,2}"), ("dddd", rf"(?:{_DAYS})"),
           ("ddd", rf"(?:{_DAYS})"), ("dd", r"\w{2}"), ("d", r"\d"), ("ww", r"\d{2}"),
           ("WW", r"\d{2}"), ("w", r"\d{1,2}"), ("W", r"\d{1,2}"), ("Q", r"[1-4]")]


@lru_cache(maxsize=64)  # a vault has a few formats; every note's name is read in them
def moment_pattern(fmt: str) -> re.Pattern[str] | None:
    """A file-name pattern for a moment.js date format (``[literal]`` text kept as it is);
    None for a format with no year, month, week or day in it."""
    out, dated, i = [], False, 0
    while i < len(fmt):
        if fmt[i] == "[":
            end = fmt.find("]", i)
            end = len(fmt) if end < 0 else end
            out.append(re.escape(fmt[i + 1:end]))
            i = end + 1
            continue
        for token, rx in _TOKENS:
            if fmt.startswith(token, i):
                out.append(rx)
                dated = True
                i += len(token)
                break
        else:
            out.append(re.escape(fmt[i]))
            i += 1
    return re.compile("".join(out), re.I) if dated else None


def dated_name(path: str, formats: Iterable[str] = ()) -> bool:
    """The note's name (or, for a format with folders in it, its path) carries a date, in
    one of the vault's own formats or a common shape."""
    stem = path.rsplit("/", 1)[-1].removesuffix(".md")
    if COMMON.search(stem):
        return True
    for fmt in formats:
        pattern = moment_pattern(fmt)
        target = path.removesuffix(".md") if "/" in fmt else stem
        if pattern is not None and pattern.search(target):
            return True
    return False
