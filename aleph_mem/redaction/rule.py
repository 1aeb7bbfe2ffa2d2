"""One rule: a credential's pattern, where it may be (its hints), what the taken-out text must
be (its check), and how a match is replaced (``MARK``). Token rules start with a literal
prefix; ``rule`` and ``token_rule`` build both kinds."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

from aleph_mem.redaction.values import looks_random

MARK = "[REDACTED:{}]"


@dataclass(frozen=True)
class Rule:
    kind: str
    source: str  # the pattern, compiled when the rule is first tried (``pattern``)
    keep: int = 0  # the pattern group kept in front of the mark (a key name, a scheme)
    hints: tuple[str, ...] = ()  # lower-case text one of which a match must hold
    check: Callable[[str], bool] | None = None  # the taken-out text must pass, or stays
    lower: bool = False  # matched on the lower-cased text (the pattern is in lower case)
    back: int | None = None  # a match starts at most this far before a hint (None: anywhere)
    gate: re.Pattern[str] | None = None  # must match where the hint is, or the rule is not tried
    prefixes: tuple[str, ...] = ()  # a token's literal prefixes (the token rules)
    flags: int = 0

    @functools.cached_property
    def pattern(self) -> re.Pattern[str]:
        """Compiled on first use: a text holding none of a rule's hints never pays for it,
        so a search that shows a few snippets does not compile some sixty patterns."""
        return re.compile(self.source, self.flags)


def rule(kind: str, pattern: str, keep: int = 0, flags: int = 0, hints: tuple[str, ...] = (),
         check: Callable[[str], bool] | None = None, lower: bool = False,
         back: int | None = None, gate: re.Pattern[str] | None = None) -> Rule:
    return Rule(kind, pattern, keep, hints, check, lower, back, gate, flags=flags)


def token_rule(kind: str, *shapes: tuple[str, str]) -> Rule:
    """Tokens by their literal prefix and body: ``(prefix, body pattern)``. The prefix comes
    first in the pattern (a fast literal search) and must not follow a word character (the
    letter of a JSON-escaped break, ``\\nghp_…``, is none)."""
    parts = [re.escape(p) + f"(?<!(?<!\\\\)[A-Za-z0-9_]{re.escape(p)})" + body
             for p, body in shapes]
    return Rule(kind, "|".join(f"(?:{p})" for p in parts), check=looks_random,
                prefixes=tuple(p for p, _ in shapes))


def occurrences(view: str, word: str) -> list[int]:
    """Where ``word`` is in the text, every place, in order (str.find: no regex over it)."""
    found, i = [], view.find(word)
    while i != -1:
        found.append(i)
        i = view.find(word, i + 1)
    return found
