"""What changed about a subject, in time order (``aleph-mem timeline``; MCP ``recent`` with
``subject``): every logged change of its notes with who made it and the lines that changed,
and the dates those notes state (``valid_from``, ``valid_until``, ``expires``, ``date``, and
the ends of validity their prose gives). The front door adds the agent sessions that
mention the subject.

A subject is a note (by path, file name, title or alias) with the notes about it: those
whose ``subject`` names it, or that carry its name as theirs; a subject that is no note is
the notes that best match its words.
"""

from __future__ import annotations

import datetime as dt
import difflib
import json
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from aleph_mem.errors import AlephError, NoteNotFound
from aleph_mem.index import reading
from aleph_mem.notes.note_parts import linked_name
from aleph_mem.notes.prose_dates import validity_end
from aleph_mem.writes.versions import history_of

if TYPE_CHECKING:
    from aleph_mem.store import Store

MAX_LINES = 8  # changed lines shown per change
DATE_KEYS = ("valid_from", "valid_until", "expires", "date")


@dataclass(frozen=True)
class Entry:
    at: str  # ISO time, or a date for a date a note states
    what: Literal["change", "stated", "session"]
    path: str
    summary: str
    actor: str = ""
    event: str = ""
    lines: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v not in ("", [])}


@dataclass(frozen=True)
class Timeline:
    subject: str
    notes: list[str]
    entries: list[Entry]

    def as_json(self) -> dict[str, Any]:
        return {"subject": self.subject, "notes": self.notes,
                "entries": [e.as_json() for e in self.entries]}


def notes_about(mem: Store, subject: str) -> list[str]:
    try:
        main = mem.find_note(subject)
    except NoteNotFound:  # the notes that say the subject as written, not one of its words
        phrase = '"' + subject.replace('"', " ") + '"'
        found = mem.search(phrase, limit=5, mode="fts", wait_for_model=False)
        return list(dict.fromkeys(h.path for h in found.hits))
    stem = main.rsplit("/", 1)[-1][:-3].casefold()
    names = {stem, subject.casefold()} | {a.casefold()
                                          for a in reading.aliases_of_path(mem.con, main)}
    about = [main]
    for path, fm in reading.frontmatters_except(mem.con, main):
        named = fm.get("subject")
        if linked_name(named).rsplit("/", 1)[-1].casefold() in names - {""}:
            about.append(path)
    return about


def build(mem: Store, subject: str, since: str | None = None) -> Timeline:
    paths = notes_about(mem, subject)
    texts = _Texts(mem)
    entries = [_change(mem, texts, row) for row in history_of(mem.con, set(paths), since)]
    for path in paths:
        entries += _stated(mem, path, since)
    entries.sort(key=lambda e: (e.at, e.what != "stated", e.path))
    return Timeline(subject, paths, entries)


def _change(mem: Store, texts: _Texts, row: tuple) -> Entry:
    """One logged change, its summary and changed lines as a reader may see them."""
    event, at, actor, kind, path, before, after, reason, data = row
    source = json.loads(data).get("from") if data else None
    summary = kind.removeprefix("note-") + (f" from {source}" if source else "") + (
        f" ({reason})" if reason else "")
    lines = [] if before == after else [mem.shown(ln) for ln in _lines(
        texts.of(before), texts.of(after))]
    return Entry(at, "change", path, mem.shown(summary), actor, event, lines)


def _lines(old: str, new: str) -> list[str]:
    """The lines a change removed (-) and added (+), the first few. The lines both versions
    share at the start and at the end are set aside before diffing, so a note appended to
    3,000 times is not diffed whole 3,000 times (issue #36: 12 s)."""
    start = _shared_start(old, new)
    start = old.rfind("\n", 0, start) + 1  # back to the start of a line
    a, b = old[start:].splitlines(), new[start:].splitlines()
    end = 0
    while end < min(len(a), len(b)) and a[-1 - end] == b[-1 - end]:
        end += 1
    a, b = a[:len(a) - end], b[:len(b) - end]
    out = [ln for ln in difflib.unified_diff(a, b, lineterm="", n=0)
           if ln[:1] in "+-" and not ln.startswith(("+++", "---")) and ln[1:].strip()]
    return out[:MAX_LINES] + ([f"… {len(out) - MAX_LINES} more lines"]
                              if len(out) > MAX_LINES else [])


def _shared_start(a: str, b: str) -> int:
    """How many characters ``a`` and ``b`` share at their start (a binary search whose
    comparisons copy each character about once: linear, at C speed)."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if b.startswith(a[lo:mid], lo):
            lo = mid
        else:
            hi = mid - 1
    return lo


class _Texts:
    """The texts of a note's versions by hash, the last two kept: one change's text after
    is the next one's text before, read once."""

    def __init__(self, mem: Store) -> None:
        self.mem = mem
        self.kept: dict[str, str] = {}

    def of(self, digest: str | None) -> str:
        if not digest:
            return ""
        if digest not in self.kept:
            if len(self.kept) >= 2:
                self.kept.pop(next(iter(self.kept)))
            self.kept[digest] = self._read(digest)
        return self.kept[digest]

    def _read(self, digest: str) -> str:
        try:
            return self.mem.objects.get(digest).decode("utf-8", "replace")
        except AlephError:
            return ""  # a version this device never held


def _stated(mem: Store, path: str, since: str | None) -> list[Entry]:
    fm = reading.frontmatter_of(mem.con, path) or {}
    out = []
    for key in DATE_KEYS:
        day = str(fm.get(key) or "")[:10]
        if _is_day(day) and day >= (since or "")[:10]:
            out.append(Entry(day, "stated", path, f"{key}: {day}"))
    text = (mem.vault.read_bytes(path) or b"").decode("utf-8", "replace")
    written = _day(str(fm.get("updated") or fm.get("created") or fm.get("date") or ""))
    end = validity_end(text, written or dt.date.today())
    if end and end[0].isoformat() >= (since or "")[:10]:
        out.append(Entry(end[0].isoformat(), "stated", path,
                         f"the text says it ends {end[0].isoformat()}"))
    return out


def _day(text: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(text[:10])
    except ValueError:
        return None


def _is_day(text: str) -> bool:
    return _day(text) is not None
