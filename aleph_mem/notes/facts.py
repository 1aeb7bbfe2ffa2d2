"""What a note states, and whether two notes state the same things.

Precision before recall (anything here can end in a merge of a person's notes): two texts
are the same facts only when their fact tokens (numbers, amounts, dates, names, places,
negations) are the same and no statement of one was changed into another statement in the
other. A note may only add statements the other lacks (they are carried over when merged).
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

SHINGLE_JACCARD = 0.8
STATEMENT_OVERLAP = 0.75  # or this share of the longer note's statements in both
MIN_MERGE_WORDS = 12  # shorter bodies ("- [[index]]") say too little to call two notes one

STOPWORDS = frozenset("a an the is are was were be to of in on at for and or with by it its "
                      "this that as from".split())
# short words after a number that are not its unit ("port 5432 is", "at 9 on")
NOT_UNITS = r"(?i:is|are|was|be|at|on|in|to|and|or|the|for|of|a|an|by|it|as|if|so|from|with)"
FACT_TOKEN = re.compile(
    r"\d+(?:[.,:/-]\d+)*\s*(?:%|(?!" + NOT_UNITS + r"\b)[a-zA-Zµ°]{1,4}\b)?"  # amounts, dates
    r"|(?<![.!?]\s)(?<!^)\b[A-Z][\w'-]+"  # names and places (not a sentence's first word)
    r"|\b(?i:not|no|never|without|isn't|aren't|don't|doesn't|won't|can't|cannot)\b",
    re.MULTILINE)
TITLE_LINE = re.compile(r"^#\s+.*$", re.M)
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)")


def without_title(body: str) -> str:
    return TITLE_LINE.sub("", body, count=1)


def words(text: str) -> list[str]:
    """The words of a text, lower case (what every comparison here compares)."""
    return re.findall(r"\w+", text.casefold())


def content_words(text: str) -> set[str]:
    """Its words without the small ones ("the", "is", "of"...)."""
    return set(words(text)) - STOPWORDS


def normalized_text(body: str) -> str:
    """A body's words, lower case, the title line left out."""
    return " ".join(words(without_title(body)))


def shingles(text: str, k: int = 3) -> set[str]:
    words = text.split()
    return {" ".join(words[i:i + k]) for i in range(max(1, len(words) - k + 1))} if words \
        else set()


def jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


def fact_tokens_text(body: str) -> set[str]:
    """What makes a note's facts: its numbers (amounts, dates, hosts' digits), names and
    places, and negations; the title line is left out (two names for one thing)."""
    return {t.strip().casefold() for t in FACT_TOKEN.findall(without_title(body))}


def statements(body: str) -> list[str]:
    """A body's statements in order: each line (a table row, a list item), prose lines cut
    into sentences; compared by their words, lower case."""
    out = []
    for line in without_title(body).splitlines():
        for part in SENTENCE_END.split(line.strip()):
            said = " ".join(words(part))
            if said:
                out.append(said)
    return out


def changed_statements(body_a: str, body_b: str) -> list[tuple[str, str]]:
    """Statements of ``body_a`` that ``body_b`` changed into other statements (a table row
    with another amount, a sentence naming another host): (in a, in b) pairs. Empty when
    one only adds statements the other lacks."""
    a, b = statements(body_a), statements(body_b)
    out = []
    for op, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "replace":
            out += list(zip(a[i1:i2], b[j1:j2], strict=False))
    return out


def same_facts(body_a: str, body_b: str) -> bool:
    """Two bodies that state the same facts: enough words to judge, the same fact tokens,
    no statement changed, and the same words or nearly (3-shingle Jaccard)."""
    a, b = normalized_text(body_a), normalized_text(body_b)
    if len(a.split()) < MIN_MERGE_WORDS or fact_tokens_text(body_a) != fact_tokens_text(body_b):
        return False
    if a == b:
        return True
    return not changed_statements(body_a, body_b) and (
        jaccard(shingles(a), shingles(b)) >= SHINGLE_JACCARD
        or statement_overlap(body_a, body_b) >= STATEMENT_OVERLAP)


def statement_overlap(body_a: str, body_b: str) -> float:
    """The share of the longer body's statements that both state, word for word (a note
    and its copy with a line added: high, though their shingles differ more)."""
    a, b = statements(body_a), statements(body_b)
    if not a or not b:
        return 0.0
    same = sum(m.size for m in SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks())
    return same / max(len(a), len(b))


def side_by_side(left: str, right: str, most: int = 8) -> list[tuple[str, str]]:
    """The lines that differ between two bodies (titles left out), paired where one was
    changed into the other; a line only one side has is paired with ""."""
    a = [ln.rstrip() for ln in without_title(left).splitlines() if ln.strip()]
    b = [ln.rstrip() for ln in without_title(right).splitlines() if ln.strip()]
    key = [" ".join(words(x)) for x in a]
    keyb = [" ".join(words(x)) for x in b]
    rows: list[tuple[str, str]] = []
    for op, i1, i2, j1, j2 in SequenceMatcher(None, key, keyb, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        la, lb = a[i1:i2], b[j1:j2]
        width = max(len(la), len(lb))
        rows += [(la[k] if k < len(la) else "", lb[k] if k < len(lb) else "")
                 for k in range(width)]
    return rows[:most]



def same_short_fact(a: str, b: str) -> bool:
    """Two one-line facts (hot memory) that say the same: the same fact tokens (so
    "port 5432" and "port 6543", or "is" and "is not", never meet) and most of the same
    words (Jaccard >= 0.6 without the small words)."""
    if fact_tokens_text(a) != fact_tokens_text(b):
        return False
    return jaccard(content_words(a), content_words(b)) >= 0.6


def contradicting_short_fact(a: str, b: str) -> bool:
    """Two one-line facts about the same thing that give it another value: most of the same
    words (Jaccard >= 0.5 without the small words), other fact tokens (a number, a name, a
    negation): "the staging db listens on port 5433" against "... on port 5432"."""
    if fact_tokens_text(a) == fact_tokens_text(b):
        return False
    return jaccard(content_words(a), content_words(b)) >= 0.5


def differing_table(left_name: str, left: str, right_name: str, right: str, most: int = 8,
                    same: str = "the same text in both notes") -> tuple[str, ...]:
    """The lines that differ (side_by_side) as a Markdown table under the two names, for a
    proposal in the digest; ``same`` when nothing differs."""
    rows = side_by_side(left, right, most)
    if not rows:
        return (same,)

    def cell(text: str) -> str:
        return text.strip().replace("|", "\\|") or " "

    return (f"| {left_name} | {right_name} |", "| --- | --- |",
            *[f"| {cell(a)} | {cell(b)} |" for a, b in rows])
