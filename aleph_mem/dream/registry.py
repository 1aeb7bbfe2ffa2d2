"""What a dream pass is, what it is given, and what a run reports.

A pass is a name and a planner: ``plan(snapshot, context) -> actions``, a function of what
it is shown that writes nothing. The runner applies every action through one shared step
(the safe write path). A pass may also have ``after``, planned on the snapshot taken once
its own actions are applied; what ``after`` returns is a report for people (lint's
``_dream/lint.md``, the digest), not a change to a note. A pass may ``say`` things for the
digest without touching any note.

Built-in passes and passes from plugins are registered the same way (``plugins.py``); the
daily and weekly pipelines are lists of names.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aleph_mem.dream.view import Action, Snapshot

if TYPE_CHECKING:
    from aleph_mem.dream.journal import Journal
    from aleph_mem.dream.judge import Judge
    from aleph_mem.store import Store

DAILY = ("consolidate", "drift", "lint", "decay", "digest")
WEEKLY = ("consolidate", "drift", "synthesis", "lint", "decay", "digest")


@dataclass
class RunReport:
    run_id: str
    started_at: str
    dry_run: bool
    passes: list[str]
    status: str = "running"
    applied: list[dict[str, Any]] = field(default_factory=list)
    proposed: list[dict[str, Any]] = field(default_factory=list)
    skipped: list[dict[str, Any]] = field(default_factory=list)
    issues: list[dict[str, str]] = field(default_factory=list)
    plan: list[str] = field(default_factory=list)  # the readable diff (dry runs)
    digest: str | None = None
    finished_at: str | None = None
    done: list[str] = field(default_factory=list)  # passes finished (the resume cursor)
    reports: list[str] = field(default_factory=list)  # regenerated reports (_dream/lint.md)
    soft_links: int = 0  # unlinked mentions newly kept as soft links (L021)
    interrupted_at: str | None = None
    resumed: list[str] = field(default_factory=list)  # passes an earlier run finished today
    said: dict[str, list[str]] = field(default_factory=dict)  # pass -> lines for the digest
    note: str = ""  # why nothing ran (another device is the vault's dreamer)
    withdrawn: list[dict[str, Any]] = field(default_factory=list)  # no longer true
    answered: list[dict[str, Any]] = field(default_factory=list)  # late ticks, answered
    # boxes an agent marked (not the person's answer): each waits for the person's own
    awaiting: list[dict[str, Any]] = field(default_factory=list)
    journal_skipped: int = 0  # dream journal lines that failed their checks (synced in)

    def as_json(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items()}


@dataclass
class PassContext:
    """What a planner may look at besides the snapshot. Reading through ``mem`` is allowed;
    every change goes back to the runner as an action."""

    mem: Store
    now: dt.datetime
    judge: Judge
    journal: Journal
    report: RunReport
    dry_run: bool
    pass_name: str = ""

    @property
    def settings(self) -> Any:
        return self.mem.settings

    def say(self, line: str) -> None:
        """A line for today's digest, under this pass's name (no note is changed)."""
        self.report.said.setdefault(self.pass_name, []).append(line)


Planner = Callable[[Snapshot, PassContext], list[Action]]


@dataclass(frozen=True)
class DreamPass:
    name: str
    plan: Planner
    about: str = ""
    after: Planner | None = None  # reports planned once the pass's own actions applied
    weekly_only: bool = False


def pipeline(passes: dict[str, DreamPass], weekly: bool) -> tuple[str, ...]:
    """The built-in order, with plugin passes before the digest (so it can report them)."""
    base = WEEKLY if weekly else DAILY
    extra = tuple(n for n, p in passes.items() if n not in WEEKLY
                  and (weekly or not p.weekly_only))
    return base[:-1] + extra + base[-1:]
