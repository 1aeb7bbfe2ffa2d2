"""Sync engines' conflict copies and git conflict markers, recognised.

When two devices change one note before a sync, the engine keeps both: the loser becomes
a copy beside the note (``heron.sync-conflict-20261123-101500-ABCDEFG.md`` from Syncthing,
``heron (conflict_on_2026-11-23).md`` from unison, ``heron (Ana's conflicted copy
2026-11-23).md`` from Dropbox, Nextcloud or Obsidian Sync), or, in git, the note itself
holds both sides between ``<<<<<<<``, ``=======`` and ``>>>>>>>`` lines. A copy is somebody's
words: it is kept, indexed and listed (status, lint, the digest), but left out of search
and the dream's passes until a person chooses; a note with markers stays searchable and is
listed the same way.

Precision: a name counts as a copy only in an engine's own shape, with a date or time in it
("Ukraine (conflict).md" is a note), and only beside the note it copies.
"""

from __future__ import annotations

import re

# (engine, pattern on the file stem; group "base" is the note it copies)
PATTERNS = (
    ("syncthing", re.compile(r"^(?P<base>.+)\.sync-conflict-\d{8}-\d{6}(?:-[A-Z0-9]{7})?$")),
    ("unison", re.compile(r"^(?P<base>.+) \(conflict_on_[^)]*\d[^)]*\)$")),
    ("conflicted copy", re.compile(r"^(?P<base>.+) \([^()]*conflicted copy[^()]*\d[^()]*\)$",
                                   re.IGNORECASE)),
    ("nextcloud", re.compile(r"^(?P<base>.+)_conflict-\d{8}-\d{6}$")),
)
CONFLICT_ISSUE = "sync conflict:"  # how the index lists a conflict among a note's issues
MARKER_OPEN = re.compile(r"^<{7}(?: .*)?$")
MARKER_MID = re.compile(r"^={7}$")
MARKER_CLOSE = re.compile(r"^>{7}(?: .*)?$")


def copy_of(path: str) -> tuple[str, str] | None:
    """(the note this file is a conflict copy of, the engine) by name alone, or None."""
    if not path.lower().endswith(".md"):
        return None
    folder, _, name = path.rpartition("/")
    stem = name[:-3]
    for engine, pattern in PATTERNS:
        m = pattern.match(stem)
        if m and m.group("base").strip():
            base = f"{m.group('base')}.md"
            return (f"{folder}/{base}" if folder else base), engine
    return None


def has_markers(text: str) -> bool:
    """Git's conflict markers, all three in order, outside fenced code."""
    state = 0
    fenced = False
    for line in text.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        if fenced:
            continue
        if state == 0 and MARKER_OPEN.match(line):
            state = 1
        elif state == 1 and MARKER_MID.match(line):
            state = 2
        elif state == 2 and MARKER_CLOSE.match(line):
            return True
    return False


def sides(text: str) -> tuple[str, str]:
    """The note as each side of a git conflict had it (ours, theirs)."""
    ours, theirs = [], []
    state = 0
    for line in text.splitlines(keepends=True):
        bare = line.rstrip("\r\n")
        if state == 0 and MARKER_OPEN.match(bare):
            state = 1
        elif state == 1 and MARKER_MID.match(bare):
            state = 2
        elif state == 2 and MARKER_CLOSE.match(bare):
            state = 0
        elif state == 0:
            ours.append(line)
            theirs.append(line)
        else:
            (ours if state == 1 else theirs).append(line)
    return "".join(ours), "".join(theirs)
