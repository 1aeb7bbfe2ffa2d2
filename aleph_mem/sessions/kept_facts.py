"""What a session's note hands on to hot memory: the standing preferences and the states,
goals and constraints the person stated join ``MEMORY.md`` at once as agents' facts (each
logged as the session's writer, undoable, listed in the digest for a veto with what it
contradicts there); other preferences, or all of them with ``hot_memory_tick`` on,
wait as proposals for the person's tick."""

from __future__ import annotations

from typing import TYPE_CHECKING

from aleph_mem.clock import utc_now
from aleph_mem.recall import hot_memory
from aleph_mem.sessions.stated import standing

if TYPE_CHECKING:
    from aleph_mem.sessions.summary import Digest
    from aleph_mem.store import Store

AT_ONCE = 4  # facts a session may add at once; more is a session about the person, for a tick
PROPOSED = 3


def hand_on(mem: Store, d: Digest, note: str, client: str, run: str | None) -> list[str]:
    """Add what the session stated to hot memory (or, with ``hot_memory_tick``, propose it);
    the proposals raised."""
    at_once = [text for text, _ in d.preferences if standing(text) == "preference"]
    at_once += [text for text, _ in d.stated]
    rest = [text for text, _ in d.preferences if text not in at_once]
    if mem.settings.hot_memory_tick:
        rest, at_once = at_once + rest, []
    for fact in at_once[:AT_ONCE]:
        if not _add(mem, fact, client, run):
            rest.insert(0, fact)  # hot memory full: the person decides what goes
    return propose(mem, rest[:PROPOSED], note, run)


def _add(mem: Store, fact: str, client: str, run: str | None) -> bool:
    """Whether hot memory took the fact, or says it already (a clash is listed by the
    digest, which reads MEMORY.md); False when it is full."""
    from aleph_mem.errors import HotMemoryFull

    try:
        hot_memory.remember(mem, fact, 3, actor=f"sessions:{client}", run=run)
    except HotMemoryFull:
        return False
    return True


def propose(mem: Store, prefs: list[str], note: str, run: str | None) -> list[str]:
    """Each preference not yet in hot memory, as a proposal the digest shows."""
    from aleph_mem.dream.journal import Journal
    from aleph_mem.dream.view import Action
    from aleph_mem.ulid import new_ulid

    if not prefs:
        return []
    text = (mem.vault.read_bytes(hot_memory.PATH) or b"").decode("utf-8", "replace")
    journal = Journal(mem.vault.aleph_dir)
    known = set(journal.proposals())
    out = []
    now = utc_now()
    today = now.date()
    for pref in prefs:
        if hot_memory.with_fact(text, pref, 3, today) is None:
            continue  # hot memory states it already
        action = Action("sessions", "remember", hot_memory.PATH, None,
                        f'remember "{pref}" (stated in [[{note[:-3]}]])', content=pref,
                        set_keys={"priority": 3}, propose=True)
        if action.key not in known:
            journal.propose(action, now.isoformat(timespec="seconds"),
                            run or new_ulid())
            out.append(action.key)
    return out
