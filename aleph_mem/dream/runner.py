"""A dream run: reconcile, then each pass plans on a fresh snapshot and one shared step
applies its actions through the safe write path (actor ``dream:<pass>``, the run id on
every event, so ``aleph-mem undo RUN`` takes it all back)."""

from __future__ import annotations

import contextlib
import datetime as dt
import difflib
import fcntl
import logging
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import activity, frontmatter_edit
from ..errors import AlephError, ConflictError, NoteExists
from ..events import iso, utc_now
from ..memory import Memory
from ..ulid import new_ulid
from ..vault import content_hash
from . import digest, mentions
from .drift import plan_drift_llm
from .journal import Journal, action_from
from .judge import Judge
from .lint import REPORT_PATH, Ledger, lint_issues, lint_report
from .lint_llm import plan_lint_llm
from .model import Action, Snapshot, generated, snapshot, with_soft
from .passes import PLANNERS, plan_consolidate_llm, plan_decay
from .synthesis import plan_index, plan_synthesis_notes
from .weekly import clusters, moc_proposals, plan_weekly

log = logging.getLogger(__name__)

DAILY = ("consolidate", "drift", "lint", "decay", "digest")
WEEKLY = ("consolidate", "drift", "synthesis", "lint", "decay", "digest")
QUIET_MINUTES = 10
PROPOSAL_TTL_DAYS = 14
RECALL_RETENTION_DAYS = 90
EDIT_BUDGET = 32  # destructive edits (merges, archives) per run
TICKED = re.compile(r"^- \[[xX]\] .*\((P-[0-9a-f]{8})\)\s*$", re.M)


class Interrupted(Exception):
    pass


class DreamBusy(AlephError):
    def __init__(self) -> None:
        super().__init__("another dream run is in progress on this vault; wait for it "
                         "(`aleph-mem dream status`) and try again")


@contextlib.contextmanager
def dream_lock(local_dir: Path) -> Iterator[None]:
    local_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(local_dir / "dream.lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise DreamBusy() from None
        yield
    finally:
        os.close(fd)


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

    def as_json(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items()}


class Dream:
    def __init__(self, mem: Memory, now: dt.datetime | None = None, dry_run: bool = False,
                 force: bool = False) -> None:
        self.mem = mem
        self.now = now or utc_now()
        self.dry_run = dry_run
        self.force = force
        self.journal = Journal(mem.vault.aleph_dir)
        self.started = utc_now()
        self.budget = EDIT_BUDGET
        self.writes = 0  # notes written by this run (a new snapshot is read after one)
        self._snap: tuple[int, Snapshot] | None = None
        self.judge = Judge(mem.settings, mem.vault.aleph_dir)

    def run(self, passes: tuple[str, ...] = DAILY, trigger: str = "manual") -> RunReport:
        """One run at a time per vault (``.aleph/local/dream.lock``, released with its
        process); a second one is refused with a clear error."""
        with dream_lock(self.mem.vault.local_dir):
            return self._run(passes, trigger)

    def _run(self, passes: tuple[str, ...], trigger: str) -> RunReport:
        report = RunReport(new_ulid(), iso(self.started), self.dry_run, list(passes))
        report.resumed = self._finished_today(passes, trigger)
        self.judge.before_call = lambda: self._check_idle(trigger)
        self.mem.reindex()
        self._soft_links(report)
        name = None
        try:
            if not self.dry_run:
                self._apply_ticked(report)
            for name in (p for p in passes if p not in self.mem.settings.dream_off
                         and p not in report.resumed):
                self._check_idle(trigger)
                if name == "digest":
                    for old in digest.plan_retention(self.mem, self.now):
                        self._handle(old, report)
                    self._digest(report)
                    report.done.append(name)
                    continue
                if name == "synthesis":
                    self._synthesis(report, trigger)
                    report.done.append(name)
                    continue
                snap = self._snapshot()
                planned = plan_decay(snap, self.judge) if name == "decay" and \
                    self.judge.available else PLANNERS[name](snap)
                if name == "drift" and self.judge.available:
                    planned += plan_drift_llm(snap, self.judge)
                if name == "consolidate" and self.judge.available:
                    judged, decided = plan_consolidate_llm(snap, self.judge)
                    planned = [a for a in planned if not (a.propose and a.path in decided)]
                    planned += judged
                if name == "decay" and not self.dry_run:
                    cutoff = self.now.date() - dt.timedelta(days=RECALL_RETENTION_DAYS)
                    self.journal.prune_recalls(cutoff.isoformat())
                if name == "lint" and self.judge.available:  # one write per note a run
                    busy = {a.path for a in planned}
                    planned += [a for a in plan_lint_llm(snap, self.judge)
                                if a.path not in busy]
                if name == "consolidate":
                    planned = self._churn_guard(planned, report)
                for action in planned:
                    self._check_idle(trigger)
                    self._handle(action, report)
                if name == "lint":
                    self._lint_report(report)
                report.done.append(name)
            report.status = "success"
        except Interrupted:
            report.status = "interrupted"
            report.interrupted_at = name
        except Exception:
            report.status = "error"  # recorded: it blocks further scheduled runs today
            log.exception("dream run %s failed", report.run_id)
        report.finished_at = iso(utc_now())
        worked = report.applied or report.proposed or report.digest or report.done
        if not self.dry_run and (worked or report.status in ("success", "error")):
            self.journal.record_run({"id": report.run_id, "at": report.started_at,
                                     "finished_at": report.finished_at, "status": report.status,
                                     "trigger": trigger, "passes": report.passes,
                                     "applied": len(report.applied),
                                     "proposed": len(report.proposed),
                                     "skipped": len(report.skipped),
                                     "done": report.resumed + report.done,
                                     "interrupted_at": report.interrupted_at,
                                     "merged": sorted(a["pair"] for a in report.applied
                                                      if "pair" in a)})
        return report

    def _snapshot(self) -> Snapshot:
        """The index as the passes see it, read again only after a write (reading every
        note's text is the costliest step of a run over a big vault)."""
        if self._snap is None or self._snap[0] != self.writes:
            self._snap = (self.writes, snapshot(self.mem, self.now))
        return self._snap[1]

    def _soft_links(self, report: RunReport) -> None:
        """L021's soft links, found before any pass (they write nothing), so the weekly
        clusters and decay of this run see the same ones the next run will."""
        if "L021" in (self.mem.settings.lint_disable or []):
            return
        soft, report.soft_links = mentions.refresh(self.mem.vault.local_dir, self._snapshot(),
                                                   save=not self.dry_run)
        self._snap = (self.writes, with_soft(self._snapshot(), soft))

    def _lint_report(self, report: RunReport) -> None:
        """The issues after the fixes, the ledger of when each was first seen, and the
        regenerated ``_dream/lint.md``."""
        snap = self._snapshot()
        issues = lint_issues(snap)
        soft = snap.soft
        today = self.now.date().isoformat()
        ledger = Ledger.load(self.mem.vault.local_dir).updated(issues, today)
        report.issues = [{"rule": i.rule, "path": i.path, "message": i.message,
                          "since": ledger.first_seen(i, today)} for i in issues]
        if self.dry_run:
            return
        ledger.save(self.mem.vault.local_dir)
        action = generated(self.mem, "lint", REPORT_PATH,
                           lint_report(issues, ledger, today, soft), "lint report")
        if action is not None:
            before = len(report.applied)
            self._handle(action, report)
            if len(report.applied) > before:  # a report, not a change to a note
                report.reports.append(report.applied.pop()["path"])

    def _finished_today(self, passes: tuple[str, ...], trigger: str) -> list[str]:
        """The resume cursor (R7): a scheduled run after one that activity interrupted
        today skips the passes that run finished (each pass's own plan then starts from
        what is already applied). The digest always runs again."""
        if trigger == "manual":
            return []
        today = [r for r in self.journal.runs() if r["at"][:10] == self.now.date().isoformat()]
        if not today or today[-1]["status"] != "interrupted":
            return []
        return [p for p in passes if p in today[-1].get("done", []) and p != "digest"]

    def _synthesis(self, report: RunReport, trigger: str) -> None:
        """The weekly review, the category index and (with an LLM) cluster notes."""
        snap = self._snapshot()
        found = clusters(snap)
        for action in (plan_weekly(self.mem, snap, found), plan_index(self.mem, snap),
                       *moc_proposals(snap, found),
                       *plan_synthesis_notes(self.mem, snap, found, self.judge)):
            if action is not None:
                self._check_idle(trigger)
                self._handle(action, report)

    def _churn_guard(self, planned: list[Action], report: RunReport) -> list[Action]:
        """A pair merged in 3 of the last 5 runs (a person keeps taking it back, whichever
        note was kept) is left alone: the dream must not oscillate with a person (Aleph's
        MutationGate)."""
        recent = [r for r in self.journal.runs() if r.get("status") == "success"][-5:]
        counts: dict[str, int] = {}
        for r in recent:
            for pair in r.get("merged", []):
                counts[pair] = counts.get(pair, 0) + 1
        churned = {p for p, c in counts.items() if c >= 3}
        if not churned:
            return planned
        held: set[str] = set()
        for a in planned:
            keeper = str(a.set_keys.get("merged_into", "")).strip("[]")
            if a.op == "archive" and keeper and \
                    " + ".join(sorted((a.path, keeper + ".md"))) in churned:
                held |= {a.path, keeper + ".md"}
                report.skipped.append({"path": a.path, "reason": "merged and taken back "
                                       "again and again: left alone", "pass": "consolidate"})
        return [a for a in planned if a.path not in held]

    def _check_idle(self, trigger: str) -> None:
        """Pre-emption: a person or an agent became active after the run started."""
        if trigger == "manual":
            return
        seen = activity.last(self.mem.vault.local_dir)
        if seen and seen[0] > self.started and seen[1] != "dream":
            raise Interrupted

    # -- the shared apply step ---------------------------------------------------------------

    def _handle(self, action: Action, report: RunReport) -> None:
        note = self.mem.vault.read_bytes(action.path)
        if action.pass_name in self.mem.settings.dream_propose and action.op != "generate":
            action = Action(**{**action.__dict__, "propose": True})
        if action.propose:
            self._propose(action, report)
            return
        if self.dry_run:
            report.plan.append(self._diff(action, note))
            return
        quiet = dt.timedelta(minutes=QUIET_MINUTES)
        if action.op != "generate" and not self.force and note is not None:
            mtime = dt.datetime.fromtimestamp(self.mem.vault.abs(action.path).stat().st_mtime,
                                              dt.UTC)
            if self.started - mtime < quiet:
                report.skipped.append({"path": action.path, "reason": "edited in the last "
                                       f"{QUIET_MINUTES} minutes", "pass": action.pass_name})
                return
        if action.op == "archive":
            if self.budget <= 0:
                report.skipped.append({"path": action.path, "reason": "edit budget spent",
                                       "pass": action.pass_name})
                return
            self.budget -= 1
        self._apply(action, report)

    def _apply(self, action: Action, report: RunReport) -> None:
        w = self.mem.writer(run=report.run_id, actor=f"dream:{action.pass_name}")
        try:
            if action.op == "set":
                r = w.set_frontmatter(action.path, action.set_keys, list(action.unset),
                                      action.base or "", reason=action.reason)
            elif action.op == "archive":
                r = w.archive(action.path, action.base or "", action.reason, self.now,
                              action.set_keys)
            elif action.op == "fold":  # keys, then the absorbed facts appended
                r = w.set_frontmatter(action.path, action.set_keys, [], action.base or "",
                                      reason=action.reason)
                if action.content:
                    r = w.append(action.path, action.content, r.hash or "",
                                 reason=action.reason)
            else:
                r = w.write(action.path, action.content.encode("utf-8"), action.base,
                            reason=action.reason)
        except (ConflictError, NoteExists):
            report.skipped.append({"path": action.path, "reason": "changed since the plan "
                                   "(skipped_conflict); retried next run",
                                   "pass": action.pass_name})
            return
        except AlephError as exc:
            report.skipped.append({"path": action.path, "reason": str(exc),
                                   "pass": action.pass_name})
            return
        if r.event is not None:
            self.writes += 1
            done = {"pass": action.pass_name, "path": r.path, "what": action.describe(),
                    "event": r.event.id}
            keeper = str(action.set_keys.get("merged_into", "")).strip("[]")
            if action.op == "archive" and keeper:
                done["pair"] = " + ".join(sorted((action.path, keeper + ".md")))
            report.applied.append(done)

    def _propose(self, action: Action, report: RunReport) -> None:
        known = self.journal.proposals()
        if action.key in known:
            return  # already open, applied or rejected: never re-proposed as-is
        if not self.dry_run:
            self.journal.propose(action, iso(self.now), report.run_id)
        report.proposed.append({"id": action.key, "pass": action.pass_name,
                                "what": action.describe()})

    def _apply_ticked(self, report: RunReport) -> None:
        """Proposals a person ticked (`- [x]`) in a digest are applied, still CAS-guarded.
        Open proposals whose note changed since are dropped (the next plan decides anew);
        those older than PROPOSAL_TTL_DAYS expire."""
        open_ = {}
        for pid, p in self.journal.proposals().items():
            if p["state"] != "open":
                continue
            action = action_from(p["action"])
            current = self.mem.vault.read_bytes(action.path)
            age = self.now - dt.datetime.fromisoformat(p["at"].replace("Z", "+00:00"))
            fresh = action.base is None and current is None  # a note still to create
            if not fresh and (current is None or content_hash(current) != action.base):
                self.journal.settle(pid, "outdated", iso(self.now), report.run_id)
            elif age > dt.timedelta(days=PROPOSAL_TTL_DAYS):
                self.journal.settle(pid, "expired", iso(self.now), report.run_id)
            else:
                open_[pid] = p
        if not open_:
            return
        ticked: set[str] = set()
        for path, in self.mem.con.execute(
                "SELECT path FROM notes WHERE path LIKE '_dream/digests/%'").fetchall():
            ticked |= set(TICKED.findall((self.mem.vault.read_bytes(path) or b"").decode(
                "utf-8", "replace")))
        for pid in sorted(ticked & set(open_)):
            action = action_from(open_[pid]["action"])
            action = Action(**{**action.__dict__, "propose": False})
            before = len(report.applied)
            self._apply(action, report)
            state = "applied" if len(report.applied) > before else "failed"
            self.journal.settle(pid, state, iso(self.now), report.run_id)

    def _diff(self, action: Action, note: bytes | None) -> str:
        old = (note or b"").decode("utf-8", "replace")
        if action.op == "set":
            new = frontmatter_edit.patch(note or b"", action.set_keys,
                                         list(action.unset)).decode("utf-8", "replace")
            target = action.path
        elif action.op == "archive":
            keys = {"status": "archived", "archived_from": action.path,
                    "archived_reason": action.reason, **action.set_keys}
            new = frontmatter_edit.patch(note or b"", keys, []).decode("utf-8", "replace")
            target = f"archive/{action.path}"
        else:
            new, target = action.content, action.path
        lines = difflib.unified_diff(old.splitlines(), new.splitlines(), f"a/{action.path}",
                                     f"b/{target}", lineterm="", n=1)
        return f"# {action.pass_name}: {action.describe()}\n" + "\n".join(lines)

    def _digest(self, report: RunReport) -> None:
        action = digest.plan_digest(self.mem, self.now, report, self.journal, self.judge)
        if action is None:
            return
        if self.dry_run:
            report.plan.append(self._diff(action, self.mem.vault.read_bytes(action.path)))
            return
        before = len(report.applied)
        self._apply(action, report)
        if len(report.applied) > before:
            report.digest = action.path
            report.applied.pop()  # the digest itself is not a change to report in itself
