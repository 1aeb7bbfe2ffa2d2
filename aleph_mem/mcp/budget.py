"""What an answer leaves out to keep within its ``budget_tokens``, and how it says so.

A token is about four characters of the answer's text (compact JSON). A list is cut at its
end (the best, nearest or newest come first); the answer then carries ``left_out``: what
did not fit, counted, and the argument or tool that gets it.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

T = TypeVar("T")
CHARS_PER_TOKEN = 4
HEADING = re.compile(r"^#{1,6} +\S.*$", re.MULTILINE)


@dataclass(frozen=True)
class Cut(Generic[T]):
    """An answer as shown, and (when it was cut) what was left out and how to get it."""

    value: T
    left_out: str = ""


def tokens(value: Any) -> int:
    """The tokens ``value`` takes in an answer's text (its compact JSON, about four
    characters a token)."""
    text = value if isinstance(value, str) else json.dumps(
        value, ensure_ascii=False, separators=(",", ":"), default=str)
    return (len(text) + CHARS_PER_TOKEN - 1) // CHARS_PER_TOKEN


def size(value: Any) -> int:
    """The tokens a part of an answer (a model, a dataclass, a value) takes in its text."""
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json")
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        value = dataclasses.asdict(value)
    value = without_empty(value)
    return 0 if value in (None, [], {}, "") else tokens(value)


def without_empty(value: Any) -> Any:
    """``value`` without its empty fields (null, [], {}, ""), as an answer's text has it."""
    if isinstance(value, dict):
        kept = {k: without_empty(v) for k, v in value.items()}
        return {k: v for k, v in kept.items() if v not in (None, [], {}, "")}
    if isinstance(value, list):
        return [without_empty(v) for v in value]
    return value


def fit(items: Sequence[T], room: int, size: Callable[[Any], int] = size) -> list[T]:
    """The leading ``items`` that fit in ``room`` tokens together."""
    kept: list[T] = []
    for item in items:
        room -= size(item) + 1
        if room < 0:
            break
        kept.append(item)
    return kept


def more(budget_tokens: int, items: Sequence[Any]) -> str:
    """How to see them all: the budget that would hold every item."""
    need = budget_tokens + sum(size(i) + 1 for i in items)
    return f"raise `budget_tokens` ({-(-need // 100) * 100:,} holds them all)"


def left_out(what: str, rest: Sequence[Any], budget_tokens: int, also: str = "") -> str:
    """``N more <what>: raise budget_tokens …`` for the items that did not fit, or ""."""
    if not rest:
        return ""
    return f"{len(rest)} {what}: {more(budget_tokens, rest)}" + (f", {also}" if also else "")


def within(text: str, budget_tokens: int) -> tuple[str, list[str]]:
    """A note's text within ``budget_tokens``: all of it, or its start cut at a paragraph
    with a line saying what is left, and its headings."""
    limit = max(200, budget_tokens) * CHARS_PER_TOKEN
    if len(text) <= limit:
        return text, []
    cut = text.rfind("\n\n", 0, limit)
    head = text[:cut if cut > limit // 2 else limit]
    rest = len(text) - len(head)
    return (head.rstrip() + f"\n\n[… {rest} more characters: read a section by its "
            "`heading` (the `outline` lists them), or raise `budget_tokens`]"), \
        HEADING.findall(text)[:60]


def neighbours(near: list[dict[str, Any]], budget_tokens: int) -> Cut[list[dict[str, Any]]]:
    """A note's neighbours, nearest first, named while they fit; the rest counted per
    distance with the folders most of them are in."""
    kept = fit(near, budget_tokens - 60)
    rest = near[len(kept):]
    if not rest:
        return Cut(near)
    hops: list[str] = []
    for distance in sorted({n["distance"] for n in rest}):
        left = [n["path"] for n in rest if n["distance"] == distance]
        folders = Counter(p.rpartition("/")[0] or "." for p in left).most_common(3)
        where = ", ".join(f"{f}/ {c}" for f, c in folders)
        hops.append(f"{len(left)} at distance {distance} ({where})")
    return Cut(kept, f"not named: {'; '.join(hops)}; "
                     f"{more(budget_tokens, rest)}, or `graph` a named neighbour")


def names(items: list[str], what: str, budget_tokens: int) -> Cut[list[str]]:
    """A list of note paths, as many as fit; the rest counted."""
    kept = fit(items, budget_tokens - 30)
    return Cut(kept, left_out(f"more {what}", items[len(kept):], budget_tokens))
