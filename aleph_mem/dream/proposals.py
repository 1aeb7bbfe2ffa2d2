"""A proposal's life (docs/design.md 4.2 and 4.6): what the dream may only propose, the marks
a person answers with, and the standing page that keeps every open proposal in sight.

A change to a person's note is always a proposal, and a proposal never replaces a value the
person set: a vault that uses ``status`` for its own words keeps them, ticked or not (the
judgment still counts in the index: ``judgments``). A proposal stays open until the person
ticks it (``- [x]``, applied on the next run if it still holds), dismisses it (``- [-]``: it
is never raised again as it is), or it is no longer true (withdrawn, with a line saying why).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING, Any, NamedTuple

from aleph_mem.dream.view import Action, NoteInfo
from aleph_mem.files.vault import DREAM
from aleph_mem.shown import one_line

if TYPE_CHECKING:
    from aleph_mem.store import Store
    from aleph_mem.writes.writer import WriteResult

PAGE = f"{DREAM}proposals.md"
TICKED = re.compile(r"^\s*- \[[xX]\] .*\((P-[0-9a-f]{8})\)\s*$", re.M)
DISMISSED = re.compile(r"^\s*- \[-\] .*\((P-[0-9a-f]{8})\)\s*$", re.M)
# states after which the same proposal is not raised again: it waits, it was done, or the
# person said no; after "outdated", "withdrawn" or "failed" it may be raised anew
BLOCKING = frozenset({"open", "applied", "dismissed"})
OWN_KEYS = ("status",)  # keys a person's vault often uses for its own vocabulary
# passes whose every run plans afresh over the whole vault: an open proposal one of them
# no longer plans is no longer true
WITHDRAWABLE = frozenset({"consolidate", "drift", "lint", "decay"})


def for_person(action: Action, note: NoteInfo | None) -> Action | None:
    """On a person's note every change is a proposal, and a proposal keeps every value the
    person set (a key already there with another value is left out, and the proposal says
    so); one with nothing left to change is not asked (None). Generated pages and hot
    memory (only ``remember`` writes it) are not notes."""
    if note is None or not note.human or action.op in ("generate", "remember"):
        return action
    if action.op != "set":
        return replace(action, propose=True)
    fm = note.frontmatter
    kept = {k: v for k, v in action.set_keys.items()  # an empty value is no value of theirs
            if k in fm and fm[k] not in (None, "") and fm[k] != v}
    if not kept:
        return replace(action, propose=True)
    keys = {k: v for k, v in action.set_keys.items() if k not in kept}
    if not keys and not action.unset:
        return None  # the person's value kept, nothing is left to ask
    said = ", ".join(f"{k}: {_plain(fm[k])}" for k in kept)
    return replace(action, set_keys=keys, propose=True,
                   judged=action.judged or str(action.set_keys.get("status") or ""),
                   reason=f"{action.reason}; your {said} is kept")


def _plain(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(_plain(v) for v in value)
    return value if isinstance(value, str) else str(value)


class Marks(NamedTuple):
    ticked: set[str]
    dismissed: set[str]
    not_yours: dict[str, str]  # proposal id -> the agent whose mark it is (not counted)


def marks(mem: Store) -> Marks:
    """The proposal ids the person ticked and dismissed, read from every digest and the
    standing page. A mark counts only when a person wrote it (an editor's save, the CLI):
    the event log says who added each marked line, and a box an agent marked through MCP
    is not the person's answer (``not_yours``)."""
    from aleph_mem.index import reading
    from aleph_mem.writes.events import by_person
    from aleph_mem.writes.line_authors import introduced_by

    ticked: set[str] = set()
    dismissed: set[str] = set()
    not_yours: dict[str, str] = {}
    for path in reading.digests_and(mem.con, PAGE):
        data = mem.vault.read_bytes(path)
        found = {}
        for line in (data or b"").decode("utf-8", "replace").splitlines():
            if m := TICKED.match(line):
                found[line] = (ticked, m.group(1))
            elif m := DISMISSED.match(line):
                found[line] = (dismissed, m.group(1))
        if not found:
            continue
        authors = introduced_by(mem.con, mem.objects, path, data, set(found))
        for line, (answer, pid) in found.items():
            if by_person(authors[line]):
                answer.add(pid)
            else:
                not_yours[pid] = authors[line]
    return Marks(ticked - dismissed, dismissed,
                 {p: a for p, a in not_yours.items() if p not in ticked | dismissed})


def with_mark(text: str, pid: str, mark: str) -> str | None:
    """The page's text with the open box of proposal ``pid`` marked (``x`` ticks it, ``-``
    dismisses it), exactly as a person marks it in their editor; None when the page holds
    no open box for it."""
    box = re.compile(rf"^(\s*- )\[ \]( .*\({re.escape(pid)}\)\s*)$", re.M)
    new, n = box.subn(lambda m: f"{m.group(1)}[{mark}]{m.group(2)}", text, count=1)
    return new if n else None


def mark(mem: Store, pid: str, box: str, actor: str) -> WriteResult:
    """Mark proposal ``pid``'s open box (``x`` ticks it, ``-`` dismisses it) where the person
    would: on the standing page, else in the newest digest that shows it; one logged edit
    through the one writer, compare-and-swap guarded, so the next run reads it as a mark made
    by ``actor`` (``marks``) and ``undo`` takes it back."""
    from aleph_mem.errors import BadInput
    from aleph_mem.files.vault import content_hash

    if box not in ("x", "-"):
        raise BadInput(f"a box is ticked (x) or dismissed (-), not {box!r}")
    digests = sorted((mem.vault.root / DREAM / "digests").glob("*.md"), reverse=True)
    for path in (PAGE, *(f"{DREAM}digests/{p.name}" for p in digests)):
        data = mem.vault.read_bytes(path)
        text = data.decode("utf-8", "surrogateescape") if data is not None else ""
        marked = with_mark(text, pid, box)
        if data is not None and marked is not None:
            return mem.writer(actor=actor).write(
                path, marked.encode("utf-8", "surrogateescape"), content_hash(data))
    raise BadInput(f"no open box for {pid} on {PAGE} or in a digest: it is answered already, "
                   "or no run has written its box yet (`aleph-mem dream run digest`)")


def standing_page(lines: list[str], day: str) -> str:
    """Every open proposal, the oldest first, as boxes to tick or dismiss."""
    head = ["---", "type: proposals", "generated_by: dream", "dream: false", "---",
            "# Open proposals", "",
            f"Every change the dream waits for you to answer, as of {day}. Tick a box "
            "(`- [x]`) and the next run applies it if it still holds; mark it `- [-]` and it "
            "is never raised again as it is. A proposal that is no longer true is withdrawn "
            "and the digest says why.", ""]
    return "\n".join(one_line(line) for line in head + (lines or ["- none"])) + "\n"
