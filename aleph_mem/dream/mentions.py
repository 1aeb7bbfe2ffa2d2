"""L021: unlinked mentions of another note's title or alias, kept as soft links.

A soft link is index-side only (never a body edit): decay counts it as half an inbound link
and the weekly clusters as half an edge. Names must be unambiguous (owned by one note) and
long enough to mean something: four letters or more in alphabetic scripts, two in CJK.
At most five per note, and only for distinctive names: a name mentioned in more than
COMMON_SHARE of the notes (at least COMMON_MIN) is a common word of this vault ("Links",
"Summary", "Today"), not a reference to one note; nor is a generic page name ("Overview",
a date). The original design also capped new ones at 200 a run; that cap
made every run find more, so a second run right after the first changed the weekly
clusters and the lint report (against docs/design.md 4.9): all are kept at once instead
(they are never written into notes).
Kept in ``.aleph/local/soft-links.json``: derived, rebuilt by any run.
"""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

from aleph_mem.dream.view import Snapshot, body_of, generic_name
from aleph_mem.files.atomic import write_atomic

FILE_NAME = "soft-links.json"
PER_NOTE = 5
MAX_WORDS = 6
CONFIDENCE = 0.35
COMMON_SHARE = 0.02
COMMON_MIN = 5
WORD = re.compile(r"\w+")
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
LINK_OR_CODE = re.compile(r"`[^`]*`|\[\[[^\]]*\]\]|\]\([^)]*\)")

SoftLink = tuple[str, str, str]  # src path, dst path, the name mentioned


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def names(snap: Snapshot) -> tuple[dict[str, set[int]], dict[tuple[str, ...], tuple[str, str]],
                                   dict[str, str]]:
    """Word names: first word -> the lengths (in words) of names starting with it, and
    name words -> (path, name as written); CJK names apart (matched as substrings)."""
    owners: dict[str, set[str]] = {}
    shown: dict[str, str] = {}
    for n in snap.active():
        for name in dict.fromkeys([*n.names, *n.aliases]):
            key = " ".join(WORD.findall(_fold(name)))
            cjk = bool(CJK.search(name))
            if generic_name(name):
                continue
            if (cjk and len(key.replace(" ", "")) >= 2) or (not cjk and len(key) >= 4):
                owners.setdefault(key, set()).add(n.path)
                shown.setdefault(key, name)
    lengths: dict[str, set[int]] = {}
    by_words: dict[tuple[str, ...], tuple[str, str]] = {}
    cjk_names: dict[str, str] = {}
    for key, paths in owners.items():
        if len(paths) != 1:
            continue  # a name owned by two notes says nothing about which
        path = next(iter(paths))
        words = tuple(key.split())
        if CJK.search(key):
            cjk_names[key.replace(" ", "")] = path
        elif len(words) <= MAX_WORDS:
            lengths.setdefault(words[0], set()).add(len(words))
            by_words[words] = (path, shown[key])
    return lengths, by_words, cjk_names


def find(snap: Snapshot) -> list[SoftLink]:
    """Every unlinked mention, at most PER_NOTE per note, in a stable order."""
    lengths, by_words, cjk_names = names(snap)
    linked = {(s, d) for s, d, st, _, _, _ in snap.links if st == "resolved" and d}
    found_in: dict[str, dict[str, str]] = {}
    for n in snap.active():
        text = _fold(LINK_OR_CODE.sub(" ", body_of(n)))
        words = WORD.findall(text)
        found: dict[str, str] = {}
        for i, w in enumerate(words):
            for size in sorted(lengths.get(w, ()), reverse=True):  # the longest name
                hit = by_words.get(tuple(words[i:i + size]))
                if hit:
                    found.setdefault(*hit)
        if cjk_names and CJK.search(text):
            for key, path in cjk_names.items():
                if key in text:
                    found.setdefault(path, key)
        found_in[n.path] = found
    mentioned: dict[str, int] = {}
    for found in found_in.values():
        for path in found:
            mentioned[path] = mentioned.get(path, 0) + 1
    common = max(COMMON_MIN, COMMON_SHARE * len(found_in))
    out: list[SoftLink] = []
    for src, found in found_in.items():
        picks = [(p, s) for p, s in sorted(found.items()) if p != src and
                 (src, p) not in linked and mentioned[p] <= common][:PER_NOTE]
        out += [(src, p, s) for p, s in picks]
    return out


def load(local_dir: Path) -> list[SoftLink]:
    try:
        rows = json.loads((local_dir / FILE_NAME).read_text(encoding="utf-8"))
        return [tuple(r) for r in rows if isinstance(r, list) and len(r) == 3]
    except (FileNotFoundError, ValueError):
        return []


def refresh(local_dir: Path, snap: Snapshot, save: bool = True) -> tuple[list[SoftLink], int]:
    """The soft links true now. Returns (all, how many are new since the last run)."""
    links = sorted(find(snap))
    known = set(load(local_dir))
    new = [s for s in links if s not in known]
    if save:
        local_dir.mkdir(parents=True, exist_ok=True)
        write_atomic(local_dir / FILE_NAME, json.dumps([list(s) for s in links]).encode())
    return links, len(new)
