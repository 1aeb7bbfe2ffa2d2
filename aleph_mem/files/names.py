"""Which names a new note may have: every name must open in Obsidian and survive a sync to
macOS, Windows, Android and iOS, and no name may be a twin of an existing note that differs
only by letter case or Unicode normalisation."""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Iterable
from pathlib import Path

from aleph_mem.errors import BadName
from aleph_mem.files.vault import ALWAYS_IGNORED_DIRS

MAX_NAME_BYTES = 255  # one path component, on every common file system
WINDOWS_FORBIDDEN = set('<>:"|?*\\')
LINK_BREAKING = set("#^[]|")  # Obsidian cannot link to a file whose name holds these
RESERVED = {"con", "prn", "aux", "nul", *(f"com{i}" for i in range(10)),
            *(f"lpt{i}" for i in range(10))}


def name_problem(rel: str) -> str | None:
    """Why a vault-relative note path would break a synced vault or Obsidian, or None."""
    for part in rel.split("/"):
        problem = _part_problem(part)
        if problem:
            return f"{problem} (in {part!r})"
    if unicodedata.normalize("NFC", rel) != rel:
        return ("the name is not in Unicode NFC form (macOS and Windows would show it as "
                "another name)")
    return None


def _part_problem(part: str) -> str | None:
    if not part or part in (".", ".."):
        return "empty folder or file name"
    if part.lower() in ALWAYS_IGNORED_DIRS:  # `.ALEPH` is `.aleph` on macOS and Windows
        return f"{part} is reserved for tools (on macOS and Windows {part.lower()} too)"
    if part.startswith("."):
        return "hidden names (starting with '.') are not notes: editors and sync skip them"
    if part.startswith("~"):
        return "names starting with '~' look like a home folder or an editor's backup"
    bad = sorted(c for c in set(part) if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp"))
    if bad:
        return "control or invisible formatting characters " + ", ".join(
            f"U+{ord(c):04X}" for c in bad)
    forbidden = sorted(set(part) & (WINDOWS_FORBIDDEN | LINK_BREAKING))
    if forbidden:
        return "characters Windows or Obsidian links cannot use: " + " ".join(forbidden)
    if part != part.rstrip(" .") or part != part.lstrip(" "):
        return "a leading space or a trailing space or dot (Windows drops them)"
    if part.split(".", 1)[0].strip().lower() in RESERVED:
        return f"{part.split('.', 1)[0]} is a reserved device name on Windows"
    if len(part.encode("utf-8")) > MAX_NAME_BYTES:
        return f"longer than {MAX_NAME_BYTES} bytes, the limit of file systems"
    return None


def fold_name(rel: str) -> str:
    """The key under which two names are the same file on macOS or Windows."""
    return unicodedata.normalize("NFC", rel).casefold()


def twin_of(rel: str, existing: Iterable[str]) -> str | None:
    """An existing path that differs from ``rel`` only by case or normalisation."""
    key = fold_name(rel)
    return next((p for p in existing if p != rel and fold_name(p) == key), None)


def twin_on_disk(root: Path, rel: str) -> str | None:
    """A file or folder on the way to ``rel`` whose name differs only by case or Unicode
    form (``Notes/`` beside ``notes/``, an NFD ``café.md`` beside the NFC one)."""
    here = root
    parts = rel.split("/")
    for i, part in enumerate(parts):
        try:
            names = os.listdir(here)
        except OSError:
            return None
        twin = twin_of(part, names)
        if twin is not None:
            return "/".join([*parts[:i], twin])
        here = here / part
    return None


def check_new_name(root: Path, rel: str, existing: Iterable[str] = ()) -> None:
    """Refuse a new note's name that would break a synced vault, naming the reason."""
    problem = name_problem(rel)
    if problem:
        raise BadName(rel, problem)
    twin = twin_on_disk(root, rel) or twin_of(rel, existing)
    if twin:
        raise BadName(rel, f"it differs from the existing note {twin!r} only by letter case "
                      "or Unicode form, which is the same file on macOS and Windows; "
                      f"write to {twin!r} or choose another name")
