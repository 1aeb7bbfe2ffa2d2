"""MEMORY.md: the curated hot memory every agent sees first. Facts are list items under
``## Facts``, each with a priority (P1 most important .. P5), kept within a character
budget; when it is full, nothing is pushed out silently: the lowest priorities are reported."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from aleph_mem.errors import BadInput, HotMemoryFull

if TYPE_CHECKING:  # a session's start reads the facts only: no parser, no writer
    from aleph_mem.store import Store
    from aleph_mem.writes.writer import WriteResult

PATH = "MEMORY.md"
HEADING = "Facts"
BUDGET = 2200
FACT = re.compile(r"^- \[P([1-5])\] (.+?)\s*$")
# the day a fact was remembered, and the agent that remembered it: a fact an agent keeps
# is never shown as the person's; the person makes it theirs by deleting ", agent …"
STAMP = re.compile(r"\s*\(\d{4}-\d{2}-\d{2}(?:, agent [^()\s]+)?\)$")
BY_AGENT = re.compile(r"\(\d{4}-\d{2}-\d{2}, agent [^()\s]+\)$")
SESSION_STAMP = re.compile(r"\((\d{4}-\d{2}-\d{2}), agent sessions:[^()\s]+\)$")


@dataclass(frozen=True)
class Fact:
    priority: int
    text: str
    line: int

    @property
    def by_agent(self) -> bool:
        return bool(BY_AGENT.search(self.text))


def facts(text: str) -> list[Fact]:
    return [Fact(int(m.group(1)), m.group(2), i + 1)
            for i, line in enumerate(text.splitlines()) if (m := FACT.match(line))]


def used_chars(found: list[Fact]) -> int:
    return sum(len(f.text) for f in found)


def said_in(text: str, fact: str) -> list[Fact]:
    """The facts of ``MEMORY.md``'s text that already say ``fact`` (maybe in other words;
    another number or a negation is another fact)."""
    from aleph_mem.notes.facts import same_short_fact

    return [f for f in facts(text) if same_short_fact(_plain(STAMP.sub("", f.text)),
                                                      _plain(fact))]


def _plain(fact: str) -> str:
    """A fact with case and punctuation set aside ("Markdown." and "markdown" are one)."""
    return " ".join(re.sub(r"[^\w\s.:/-]|(?<!\d)[.:](?!\d)", " ", fact.casefold()).split())


def contradicted_in(text: str, fact: str) -> list[Fact]:
    """The facts of ``MEMORY.md``'s text about the same thing with another value."""
    from aleph_mem.notes.facts import contradicting_short_fact

    return [f for f in facts(text) if contradicting_short_fact(_plain(STAMP.sub("", f.text)),
                                                               _plain(fact))]


def remember(mem: Store, fact: str, priority: int = 3, actor: str | None = None,
             today: dt.date | None = None, run: str | None = None) -> WriteResult:
    """Add ``fact`` under ``## Facts``, logged as ``actor`` (with ``run``: the dream applying
    a ticked proposal, so undoing the run takes the fact back)."""
    from aleph_mem.notes.sections import find_section
    from aleph_mem.writes.writer import ANY, WriteResult

    fact = " ".join(fact.split())
    if not fact:
        raise BadInput("the fact is empty; give one short sentence to remember")
    if not 1 <= priority <= 5:
        raise BadInput("priority runs from 1 (most important) to 5")
    from aleph_mem.clock import utc_now
    from aleph_mem.writes.events import by_person

    stamp = (today or utc_now().date()).isoformat()
    who = actor or mem.actor
    text = f"{fact} ({stamp})" if by_person(who) else f"{fact} ({stamp}, agent {_word(who)})"
    existing = mem.vault.read_bytes(PATH)
    data = existing or b"# Hot memory\n"
    body = data.decode("utf-8", errors="replace")
    current = facts(body)
    said = said_in(body, fact)
    if said:  # said already (maybe in other words): the agent may edit that line instead
        return WriteResult(PATH, None, None, same_as=tuple(
            f"{PATH}:{f.line} [P{f.priority}] {f.text}" for f in said))
    clash = contradicted_in(body, fact)
    used = used_chars(current)
    if used + len(text) > BUDGET:
        lowest = sorted(current, key=lambda f: (-f.priority, f.line))[:5]
        raise HotMemoryFull(used, BUDGET, len(text), [f"[P{f.priority}] {f.text}" for f in lowest])
    w = mem.writer(actor=actor, run=run)
    line = f"- [P{priority}] {text}"
    if existing is None:
        return w.write(PATH, f"# Hot memory\n\n## {HEADING}\n\n{line}\n".encode(), None)
    try:
        find_section(body.split("\n"), HEADING)
    except BadInput:
        result = w.append(PATH, f"## {HEADING}\n\n{line}", ANY, reason="remember")
    else:
        result = w.append(PATH, line, ANY, under=HEADING, reason="remember")
    if clash:  # added, and said: the older line may be what is now wrong
        from dataclasses import replace

        older = "; ".join(f"{PATH}:{f.line} [P{f.priority}] {f.text}" for f in clash)
        result = replace(result, warning=f"it contradicts {older}: if that line is no longer "
                         "true, remove it (an agent: `forget` it, when an agent added it; "
                         "else ask the person)" + (f"; {result.warning}"
                                                      if result.warning else ""))
    return result


def forget(mem: Store, fact: str, actor: str) -> WriteResult:
    """Take one fact out of hot memory for an agent: only a fact an agent added (the event
    log says who added its line); a fact the person wrote, or ticked in from a proposal,
    is theirs, and is refused."""
    from aleph_mem.files.vault import content_hash
    from aleph_mem.writes.events import by_agent
    from aleph_mem.writes.line_authors import introduced_by

    fact = " ".join(fact.split())
    data = mem.vault.read_bytes(PATH)
    text = (data or b"").decode("utf-8", "replace")
    found = [f for f in facts(text) if _plain(STAMP.sub("", f.text)) == _plain(fact)] \
        or said_in(text, fact)
    if not fact or not found:
        raise BadInput(f"no fact in {PATH} says {fact!r}: give its words as `remember` was "
                       "given them (`context` shows hot memory)")
    if len(found) > 1:
        raise BadInput(f"{len(found)} facts in {PATH} say that: give the words of one: " +
                       "; ".join(f"[P{f.priority}] {f.text}" for f in found))
    f = found[0]
    line = text.splitlines()[f.line - 1]
    who = introduced_by(mem.con, mem.objects, PATH, data, {line})[line]
    if not by_agent(who):
        raise BadInput(f"{PATH}:{f.line} [P{f.priority}] {f.text} is the person's (written "
                       f"by {who}): an agent forgets only a fact an agent added with "
                       "`remember`; ask the person to change or remove it")

    def drop(old: bytes) -> bytes:
        lines = old.decode("utf-8", "replace").splitlines(keepends=True)
        if lines[f.line - 1].rstrip("\r\n") != line:
            raise BadInput(f"{PATH} changed meanwhile: forget it again")
        return "".join(lines[:f.line - 1] + lines[f.line:]).encode("utf-8")

    return mem.writer(actor=actor).edit(PATH, content_hash(data or b""), drop,
                                        reason="forget")


def with_fact(text: str, fact: str, priority: int, today: dt.date) -> str | None:
    """``MEMORY.md``'s text with one more fact under ``## Facts`` (the file made when
    ``text`` is empty), or None when a fact there says it already."""
    from aleph_mem.notes.sections import find_section

    fact = " ".join(fact.split())
    if said_in(text, fact):
        return None
    line = f"- [P{priority}] {fact} ({today.isoformat()})"
    if not text.strip():
        return f"# Hot memory\n\n## {HEADING}\n\n{line}\n"
    from aleph_mem.writes.writer import append_text

    lines = text.split("\n")
    try:
        find_section(lines, HEADING)
    except BadInput:
        return append_text(text.encode(), f"## {HEADING}\n\n{line}").decode()
    return append_text(text.encode(), line, HEADING).decode()


@dataclass(frozen=True)
class HotView:
    """Hot memory as a session sees it: the person's facts that fit, most important first,
    then the facts agents remembered (never shown as the person's), and how many were left
    out (with the highest priority among them)."""

    text: str
    shown: int
    left_out: int
    left_out_best: int | None
    agents: str = ""  # the agents' facts that fit, as lines


def by_priority(text: str, budget_chars: int) -> HotView:
    """The facts of ``MEMORY.md`` within ``budget_chars``: the person's first, P1 first
    (file order within a priority), then the agents'; what does not fit is counted, never
    silently dropped."""
    found = facts(text)
    kept: list[Fact] = []
    used = 0
    left: list[Fact] = []
    for f in sorted(found, key=lambda f: (f.by_agent, f.priority, f.line)):
        cost = len(f.text) + 8
        if used + cost <= budget_chars:
            kept.append(f)
            used += cost
        else:
            left.append(f)
    lines = [f"- [P{f.priority}] {f.text}" for f in kept if not f.by_agent]
    if left:
        lines.append(f"- ({len(left)} more, P{min(f.priority for f in left)} and lower: "
                     "read MEMORY.md)")
    return HotView("\n".join(lines), len(kept), len(left),
                   min((f.priority for f in left), default=None),
                   "\n".join(f"- [P{f.priority}] {f.text}" for f in kept if f.by_agent))


def kept_by_sessions(text: str, since: dt.date) -> list[tuple[Fact, list[Fact]]]:
    """The facts a session's note handed on since ``since`` (stamped ``agent sessions:…``),
    each with the facts of hot memory it contradicts: what the digest lists for a veto."""
    return [(f, [o for o in contradicted_in(text, STAMP.sub("", f.text)) if o.line != f.line])
            for f in facts(text) if (stamp := SESSION_STAMP.search(f.text))
            and dt.date.fromisoformat(stamp.group(1)) >= since]


def _word(actor: str) -> str:
    """An actor as one word of a fact's stamp (``mcp:claude-code``)."""
    return re.sub(r"[^\w:.-]+", "-", actor).strip("-") or "unknown"
