"""A wallet's recovery phrase: twelve words or more, every one of them from one of BIP-39's
word lists (the ``mnemonic`` package's), whatever label or none stands before them. A sentence
never is one: its little words ("the", "of", "is") are in no list; nor is a test vector that
repeats one word ("abandon abandon … about"), nor the list itself in its order. A diceware
passphrase written as one word (``pretty_earth_decade_tackle_evolve_romance``: six words or
more of one list, joined by one sign) is one too: a name in code is not made of such words."""

from __future__ import annotations

import functools
import re
import unicodedata

from aleph_mem.redaction.rule import MARK

# twelve words of three to nine letters in a row (BIP-39's longest, Italian's; an accent
# written apart rides on its letter: "flu\u0301or"), separated by spaces, commas or
# line breaks, a list's numbers allowed between them ("1. leader 2. immense …")
RUN = re.compile(r"(?:(?<=\\n)|(?<![\w-]))"  # possessive: a run is never tried again inside
                 r"(?:(?:[a-zà-ž][\u0300-\u036f]?){3,9}+"
                 r"(?:(?:[ \t,]++|\r?\n|\\n)(?:\d{1,2}[.):]?[ \t]++)?+|"
                 r"(?![\w-]))){12,}+")
# a word ("\\nleader": leader), its accents written apart or not ("flu\u0301or", "flúor")
LETTER = "[a-zà-ž\u0300-\u036f]"
WORD = re.compile(r"(?<=\\n)" + LETTER + r"+|(?<![a-zà-ž\u0300-\u036f\\])" + LETTER + "+")
LANGUAGES = ("english", "spanish", "french", "italian", "portuguese", "czech")
SHORTEST = 12
LENGTHS = (12, 15, 18, 21, 24)  # BIP-39's phrase lengths
# a lesson's word list: words to learn, not a wallet's (unless a wallet is named too)
VOCABULARY = re.compile(r"vocabular|vokabel|wortschatz|vocabolario|spelling|word list|"
                        r"words of the week|palabras de la semana|単語帳|生词")
WALLET_WORDS = re.compile(r"seed|phrase|mnemonic|recovery|wallet|ledger|trezor|metamask|bip-?39|"
                          r"\d\d words|単語|フレーズ|助记词|钱包|니모닉|지갑|сид|фраз|semilla|"
                          r"palabras|mots|wörter|parole|słów|kelime")


@functools.cache
def _word_lists() -> dict[str, int]:
    """Each word of BIP-39's Latin-script lists and the lists it is in (a bit each), read on
    the first text that could hold a phrase (the import is not paid at start-up)."""
    from mnemonic import Mnemonic

    lists: dict[str, int] = {}
    for bit, language in enumerate(LANGUAGES):
        for word in Mnemonic(language).wordlist:  # stored decomposed: "flu\u0301or"
            word = unicodedata.normalize("NFC", word)
            lists[word] = lists.get(word, 0) | 1 << bit
    return lists


def _phrases(view: str, start: int, end: int) -> list[tuple[int, int]]:
    """The parts of a run of words that are twelve or more words of one list in a row: one
    pass, carrying the lists every word so far is in."""
    lists = _word_lists()
    words = [(m.start(), m.end(), w if (w := m.group()).isascii() else
              unicodedata.normalize("NFC", w)) for m in WORD.finditer(view, start, end)]
    if len(words) in LENGTHS and _one_off(view, start, words, lists):
        return [(words[0][0], words[-1][1])]
    found, first, common = [], 0, 0
    for i, (_, _, word) in enumerate([*words, (0, 0, "")]):
        mask = lists.get(word, 0)
        if mask and (common & mask or i == first):
            common = (common & mask) if i > first else mask
            continue
        said = [w for _, _, w in words[first:i]]
        if len(said) >= SHORTEST and len(set(said)) > len(said) // 2 and said != sorted(said) \
                and max(map(said.count, set(said))) <= 2:  # a prompt's "… focus, … focus"
            found.append((words[first][0], words[i - 1][1]))
        first, common = (i, mask) if mask else (i + 1, 0)
    return found


def _one_off(view: str, start: int, words: list[tuple[int, int, str]],
             lists: dict[str, int]) -> bool:
    """A phrase with one word misspelt or off the list ("sculpture"), on one line, where a
    wallet's word stands in the lines above it."""
    masks = [lists.get(w, 0) for _, _, w in words]
    if masks.count(0) > 1:
        return False  # the common case, prose: told by dictionary lookups alone
    common = max(sum(1 for m in masks if m & 1 << bit) for bit in range(len(LANGUAGES)))
    said = [w for _, _, w in words]
    return common == len(words) - 1 and len(set(said)) == len(said) and \
        "\n" not in view[start:words[-1][1]] and \
        bool(WALLET_WORDS.search(view, max(0, start - 200), start))


# twelve to twenty-four words of a script with no Latin letters, apart by spaces or the
# ideographic space (Japanese's list is written "ていぼう　ときどき …", Chinese's "诺 枪 展 …")
CJK_RUN = re.compile(r"(?<![^\s\u3000：:])(?:[^\x00-\u024f\s\u3000]{1,8}[ \u3000]){11,23}"
                     r"[^\x00-\u024f\s\u3000]{1,8}(?![^\s\u3000])")
CJK_LANGUAGES = ("japanese", "chinese_simplified", "chinese_traditional", "korean")


@functools.cache
def _cjk_lists() -> tuple[frozenset[str], ...]:
    from mnemonic import Mnemonic

    return tuple(frozenset(unicodedata.normalize("NFC", w) for w in Mnemonic(language).wordlist)
                 for language in CJK_LANGUAGES)


def _cjk_phrases(text: str) -> list[tuple[int, int, str]]:
    out = []
    for m in CJK_RUN.finditer(text):
        words = [unicodedata.normalize("NFC", w) for w in re.split(r"[ \u3000]", m.group())]
        if len(words) in LENGTHS and len(set(words)) > len(words) // 2 and \
                any(all(w in listed for w in words) for listed in _cjk_lists()):
            out.append((m.start(), m.end(), MARK.format("seed-phrase")))
    return out


# the phrases local development chains fund by default: Ganache's deterministic (-d) one,
# Hardhat's and Anvil's
PUBLISHED_PHRASES = frozenset({
    "myth like bonus scare over problem client lizard pioneer submit female collect",
    "test test test test test test test test test test test junk"})


def seed_phrases(text: str, view: str) -> list[tuple[int, int, str]]:
    """Recovery phrases in the text (found on the lower-cased view)."""
    out: list[tuple[int, int, str]] = []
    if not text.isascii() and (" " in text or "\u3000" in text):
        out += _cjk_phrases(text)
    for m in RUN.finditer(view):
        before = view[max(0, m.start() - 300):m.start()]
        if VOCABULARY.search(before) and not WALLET_WORDS.search(before):
            continue  # "English class vocabulary, week 8: found, promote, rich, …"
        for start, end in _phrases(view, m.start(), m.end()):
            if " ".join(view[start:end].split()) in PUBLISHED_PHRASES:
                continue  # a local chain's default phrase (Ganache's -d, Hardhat's)
            if not any(a <= start < b for a, b, _ in out):
                out.append((start, end, MARK.format("seed-phrase")))
    return out


# six words or more of three to eight letters joined by one sign ("pretty_earth_decade_…")
JOINED = re.compile(r"(?<![\w.-])[a-z]{3,8}([_.-])[a-z]{3,8}(?:\1[a-z]{3,8}){4,11}(?![\w-])")


def joined_phrases(text: str, view: str) -> list[tuple[int, int, str]]:
    """Diceware passphrases written as one word, every part of it in one of BIP-39's lists."""
    out = []
    for m in JOINED.finditer(text):
        before = text[max(0, m.start() - 3):m.start()]
        if text[m.end():m.end() + 1] == "(" or not re.search(r"[`\"':]\s*$", before):
            continue  # a name in code ("test_author_can_edit_own_post()"); quoted or labelled only
        parts = m.group().split(m.group(1))
        if len(set(parts)) < len(parts) - 1:
            continue  # a word repeated: no passphrase drawn at random
        lists = _word_lists()
        common = -1
        for part in parts:
            common &= lists.get(part, 0)
        if common:
            out.append((m.start(), m.end(), MARK.format("password")))
    return out
