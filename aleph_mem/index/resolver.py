"""Link resolution, the way Obsidian does it.

Order: the note itself (empty target), a path relative to the linking note's folder
(``./``, ``../``, and any Markdown link), an exact vault path (``.md`` optional,
case-insensitive), the file name or a path suffix (case-insensitive), then aliases, and
last a frontmatter ``title`` (an aleph-mem rule: many tools link notes by title).
Several candidates: one in the linking note's own folder wins, else the shortest path;
a remaining tie is *ambiguous* and the candidates are kept.
"""

from __future__ import annotations

import difflib
import posixpath
import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal
from urllib.parse import unquote

from aleph_mem.notes.inline_scan import Link


def fold(s: str) -> str:
    return unicodedata.normalize("NFC", s).casefold()


def _strip_md(path: str) -> str:
    return path[:-3] if path.lower().endswith(".md") else path


def note_key(path: str) -> str:
    """A note's path as links name it: folded, ``.md`` off, and each part trimmed (a file
    saved as "Normal ones or .md" opens from ``[[Normal ones or]]``, as in Obsidian)."""
    return "/".join(part.strip() for part in fold(_strip_md(path)).split("/"))


def folder_of(path: str) -> str:
    return posixpath.dirname(path)


@dataclass(frozen=True)
class Resolution:
    path: str | None
    by: str | None  # self|relative|path|name|path_suffix|attachment|alias|title
    status: Literal["resolved", "unresolved", "ambiguous"]
    candidates: tuple[str, ...] = ()


UNRESOLVED = Resolution(None, None, "unresolved")


class Resolver:
    def __init__(self, notes: Iterable[str], aliases: Mapping[str, Iterable[str]],
                 attachments: Iterable[str] = (),
                 titles: Mapping[str, str] | None = None) -> None:
        self.by_path: dict[str, list[str]] = defaultdict(list)
        self.by_name: dict[str, list[str]] = defaultdict(list)
        self.by_alias: dict[str, list[str]] = defaultdict(list)
        self.files: dict[str, list[str]] = defaultdict(list)
        self.file_names: dict[str, list[str]] = defaultdict(list)
        for p in notes:
            key = note_key(p)
            self.by_path[key].append(p)
            self.by_name[key.rsplit("/", 1)[-1]].append(p)
        for p, names in aliases.items():
            for a in names:
                self.by_alias[fold(a)].append(p)
        self.by_title: dict[str, list[str]] = defaultdict(list)
        for p, t in (titles or {}).items():
            self.by_title[fold(t)].append(p)
        for p in attachments:
            self.files[fold(p)].append(p)
            self.file_names[fold(p).rsplit("/", 1)[-1]].append(p)

    def resolve(self, link: Link, src: str) -> Resolution:
        target = link.target.strip()
        if not target:
            return Resolution(src, "self", "resolved")
        if target.startswith("/"):
            target = target.lstrip("/")
            return self._exact(target, "path") or UNRESOLVED
        src_dir = folder_of(src)
        if link.kind == "markdown" or target.startswith(("./", "../")):
            rel = posixpath.normpath(posixpath.join(src_dir, target))
            if not rel.startswith("../"):
                found = self._exact(rel, "relative")
                if found:
                    return found
        found = self._exact(target, "path")
        if found:
            return found
        key = note_key(target)
        if "/" in key:
            cands = [p for k, ps in self.by_path.items() if k.endswith("/" + key) for p in ps]
            by = "path_suffix"
        else:
            cands = list(self.by_name.get(key, ()))
            by = "name"
        if not cands:
            cands = list(self.file_names.get(fold(target).rsplit("/", 1)[-1], ()))
            by = "attachment"
        if not cands and "/" not in key:
            cands = list(dict.fromkeys(self.by_alias.get(fold(target), ())))
            by = "alias"
        if not cands:
            cands = list(self.by_title.get(fold(target), ()))
            by = "title"
        return pick(cands, src_dir, by)

    def _exact(self, target: str, by: str) -> Resolution | None:
        key = fold(target)
        hits = self.by_path.get(note_key(target), [])
        if not hits and not key.endswith(".md"):
            hits = self.files.get(key, [])
            by = "attachment" if hits else by
        if len(hits) == 1:
            return Resolution(hits[0], by, "resolved")
        if len(hits) > 1:  # same path in different cases (possible on Linux)
            return Resolution(None, by, "ambiguous", tuple(sorted(hits)))
        return None


def pick(cands: list[str], src_dir: str, by: str) -> Resolution:
    if not cands:
        return UNRESOLVED
    if len(cands) == 1:
        return Resolution(cands[0], by, "resolved")
    ordered = tuple(sorted(cands))
    same = [c for c in cands if folder_of(c) == src_dir]
    if len(same) == 1:
        return Resolution(same[0], by, "resolved", ordered)
    pool = same or cands
    best = min(_depth_len(c) for c in pool)
    shortest = [c for c in pool if _depth_len(c) == best]
    if len(shortest) == 1:
        return Resolution(shortest[0], by, "resolved", ordered)
    return Resolution(None, by, "ambiguous", ordered)


def _depth_len(path: str) -> tuple[int, int]:
    return (path.count("/"), len(path))


_ANCHOR_NOISE = re.compile(r"[#|^:%\[\]\\/*_`~=]")


def anchor_key(text: str) -> str:
    """Headings compare case-insensitively with formatting, link syntax and punctuation
    ignored, as Obsidian matches them (``#How large can it be`` opens "How large can it
    be?", ``#hasTag`` opens "`hasTag()`")."""
    return " ".join(re.sub(r"[^\w\s]|_", " ", _ANCHOR_NOISE.sub(" ", fold(text))).split())


def anchor_found(link: Link, headings: Iterable[str], blocks: Iterable[str]) -> bool | None:
    if link.block:
        return link.block in set(blocks)
    if link.heading:
        last = unquote(link.heading.split("#")[-1])  # a Markdown link's %20
        headings = list(headings)
        if anchor_key(last) in {anchor_key(h) for h in headings}:
            return True
        # GitHub, GitLab, Typora and VS Code slug a heading ("E/R 模型" -> "er-模型"): a
        # Markdown link written for them opens there, and the note is not broken for it
        return link.kind == "markdown" and slug(last) in github_slugs(headings)
    return None


def github_slugs(headings: Iterable[str]) -> set[str]:
    """Every heading's slug as GitHub numbers repeats: "习题", "习题-1", "习题-2"."""
    seen: dict[str, int] = {}
    out = set()
    for h in headings:
        base = slug(h)
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def slug(text: str) -> str:
    """A heading as GitHub's anchor: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", fold(text).strip())
    return text.replace(" ", "-")


def closest(key: str, known: list[tuple[str, str]], most: int = 5) -> list[str]:
    """The notes a misspelt reference most likely meant, by path, file name, alias or
    other name (pairs of path and name), compared without case: paths, best first."""
    by: dict[str, set[str]] = {}
    for path, name in known:
        by.setdefault(fold(name), set()).add(path)
    out: list[str] = []
    for k in difflib.get_close_matches(key, list(by), n=most * 2, cutoff=0.6):
        out += [p for p in sorted(by[k]) if p not in out]
    return out[:most]
