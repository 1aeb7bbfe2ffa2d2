"""A wallet's recovery phrase: twelve words or more, every one of them from one of BIP-39's
word lists (the ``mnemonic`` package's), whatever label or none stands before them. A sentence
never is one: its little words ("the", "of", "is") are in no list; nor is a test vector that
repeats one word ("abandon abandon … about"), nor the list itself in its order."""

from __future__ import annotations

import functools
import re

from aleph_mem.redaction.rule import MARK

# twelve words of three to eight letters or more in a row, separated by spaces, commas or
# line breaks, a list's numbers allowed between them ("1. leader 2. immense …")
RUN = re.compile(r"(?:(?<=\\n)|(?<![\w-]))"  # possessive: a run is never tried again inside
                 r"(?:[a-zà-ž]{3,8}+(?:(?:[ \t,]++|\r?\n|\\n)(?:\d{1,2}[.):]?[ \t]++)?+|"
                 r"(?![\w-]))){12,}+")
WORD = re.compile(r"(?<=\\n)[a-zà-ž]+|(?<![a-zà-ž\\])[a-zà-ž]+")  # "\\nleader": leader
LANGUAGES = ("english", "spanish", "french", "italian", "portuguese", "czech")
SHORTEST = 12


@functools.cache
def _word_lists() -> dict[str, int]:
    """Each word of BIP-39's Latin-script lists and the lists it is in (a bit each), read on
    the first text that could hold a phrase (the import is not paid at start-up)."""
    from mnemonic import Mnemonic

    lists: dict[str, int] = {}
    for bit, language in enumerate(LANGUAGES):
        for word in Mnemonic(language).wordlist:
            lists[word] = lists.get(word, 0) | 1 << bit
    return lists


def _phrases(view: str, start: int, end: int) -> list[tuple[int, int]]:
    """The parts of a run of words that are twelve or more words of one list in a row: one
    pass, carrying the lists every word so far is in."""
    lists = _word_lists()
    words = [(m.start(), m.end(), m.group()) for m in WORD.finditer(view, start, end)]
    found, first, common = [], 0, 0
    for i, (_, _, word) in enumerate([*words, (0, 0, "")]):
        mask = lists.get(word, 0)
        if mask and (common & mask or i == first):
            common = (common & mask) if i > first else mask
            continue
        said = [w for _, _, w in words[first:i]]
        if len(said) >= SHORTEST and len(set(said)) > len(said) // 2 and said != sorted(said):
            found.append((words[first][0], words[i - 1][1]))
        first, common = (i, mask) if mask else (i + 1, 0)
    return found


def seed_phrases(text: str, view: str) -> list[tuple[int, int, str]]:
    """Recovery phrases in the text (found on the lower-cased view)."""
    out: list[tuple[int, int, str]] = []
    for m in RUN.finditer(view):
        for start, end in _phrases(view, m.start(), m.end()):
            if not any(a <= start < b for a, b, _ in out):
                out.append((start, end, MARK.format("seed-phrase")))
    return out
