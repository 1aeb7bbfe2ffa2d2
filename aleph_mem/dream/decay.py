"""decay (DREAM.md 3.6): a note's salience fades with time since it was last reinforced
(edited or recalled), more slowly for linked, important and recalled notes; notes that
fall below the floor, old enough and unlinked, move to archive/ (proposed where a person
owns them). With an LLM, a note about to go is rated for importance first.

A pure function of a Snapshot and the clock: it returns actions and never writes."""

from __future__ import annotations

import datetime as dt
import hashlib
import math

from .view import Action, NoteInfo, Snapshot, as_date, body_of

H0_DAYS = 30.0
ARCHIVE_BELOW = 0.1
MIN_AGE_DAYS = 30
PROTECTED_CATEGORIES = ("personal",)

SEVERITY_FLOOR = {"low": 0.0, "med": 0.5, "medium": 0.5, "high": 0.7, "critical": 0.85}


def salience(n: NoteInfo, now: dt.datetime,
             scored: float | None = None) -> tuple[float, float]:
    """(salience, half-life in days): a pure function of stored signals (DREAM.md 3.6).
    Recalls reset the clock and lengthen the half-life. ``scored`` is an importance the LLM
    gave a note that has none of its own (kept in the verdict cache, never in the note)."""
    fm = n.frontmatter
    recall_days = len(n.recall_days)
    importance = fm.get("importance", scored)
    imp = 0.5 + (float(importance) if isinstance(importance, int | float) else 5.0) / 5.0
    half = H0_DAYS * (1 + 0.5 * recall_days) * (1 + 0.25 * min(n.link_weight, 4)) * imp
    half = min(max(half, 7.0), 365.0)
    updated = as_date(fm.get("updated"))
    reinforced = max(n.mtime, dt.datetime.combine(updated, dt.time(), dt.UTC)) if updated \
        else n.mtime
    if n.recall_days:
        last = dt.datetime.combine(dt.date.fromisoformat(n.recall_days[-1]), dt.time(), dt.UTC)
        reinforced = max(reinforced, last)
    age = max(0.0, (now - reinforced).total_seconds() / 86400)
    floor = 1.0 if n.permanent else SEVERITY_FLOOR.get(str(fm.get("severity", "low")), 0.0)
    return max(math.pow(2, -age / half), floor), half


def plan_decay(snap: Snapshot, judge=None) -> list[Action]:
    actions = []
    for n in snap.active():
        s, _ = salience(n, snap.now)
        if s < ARCHIVE_BELOW and judge is not None and "importance" not in n.frontmatter:
            scored = importance_of(n, judge)  # only notes about to go are asked
            s, _ = salience(n, snap.now, scored)
        age = (snap.now - n.mtime).days
        category = n.frontmatter.get("category") or n.folder
        if (s < ARCHIVE_BELOW and age >= MIN_AGE_DAYS and n.link_weight < 3 and not n.permanent
                and category not in PROTECTED_CATEGORIES and n.path not in snap.memory_refs):
            actions.append(Action("decay", "archive", n.path, n.hash, "low_salience",
                                  propose=n.human))
    return actions


def importance_of(n: NoteInfo, judge) -> float | None:
    """The LLM's 1-10 importance for a note (Generative Agents' poignancy), cached by the
    note's body; None when there is no valid answer."""
    from .judge import fence

    system = ("Rate how important this note is to keep in a person's long-term memory, from "
              '1 (trivial, e.g. a passing remark) to 10 (core, e.g. a key decision). Answer '
              'with one JSON object: {"importance": <integer 1-10>}.')

    def validate(obj: object) -> dict | None:
        value = obj.get("importance") if isinstance(obj, dict) else None
        return {"importance": value} if isinstance(value, int) and 1 <= value <= 10 else None

    verdict = judge.ask("importance", [hashlib.sha256(body_of(n).encode()).hexdigest()],
                        system, fence(1, n.title, body_of(n), n.mtime.date().isoformat()),
                        validate)
    return float(verdict["importance"]) if verdict else None
