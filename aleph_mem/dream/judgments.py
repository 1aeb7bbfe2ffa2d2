"""What the dream judged of a person's notes without writing them (docs/design.md 4.2): a
note it would mark stale, contradicted or superseded, while that proposal is open. Mirrored
into the index's ``judgments`` table from the journal (synced, append-only), so search
ranking, ``show``, ``context`` and the digest use the judgment, and a rebuilt index gets it
back without a dream run."""

from __future__ import annotations

from typing import TYPE_CHECKING

import apsw

from aleph_mem.dream.journal import Journal
from aleph_mem.index import judgments
from aleph_mem.notes.note_parts import linked_path

if TYPE_CHECKING:
    from aleph_mem.dream.view import Action

JUDGED = ("stale", "contradicted", "superseded")


def judged(action: Action) -> str:
    """The state a drift action judges its note to be in, or ""."""
    state = action.judged or str(action.set_keys.get("status") or "")
    return state if action.pass_name == "drift" and state in JUDGED else ""


def partner(action: Action) -> str | None:
    """The note that supersedes or contradicts it, as a vault path."""
    raw = action.set_keys.get("superseded_by")
    if isinstance(raw, str) and raw.strip().startswith("[["):
        return linked_path(raw)
    return None


def refresh(con: apsw.Connection, journal: Journal) -> int:
    """The table made anew from the open proposals; returns how many notes are judged."""
    from aleph_mem.dream.journal import action_from

    rows = {}
    for pid, p in sorted(journal.proposals().items()):
        if p["state"] != "open":
            continue
        action = action_from(p["action"])
        state = judged(action)
        if state:
            rows[action.path] = (action.path, state, action.reason, partner(action), pid)
    judgments.replace(con, list(rows.values()))
    return len(rows)
