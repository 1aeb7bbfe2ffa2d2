"""A dream run: reconcile, then each pass plans on a fresh snapshot and one shared step
applies its actions through the safe write path (actor ``dream:<pass>``, the run id on
every event, so ``aleph-mem undo RUN`` takes it all back)."""

from __future__ import annotations

import datetime as dt
import difflib
import re
from dataclasses import replace

from aleph_mem import logs
from aleph_mem.clock import iso, utc_now
from aleph_mem.dream import judgments, lease, mentions
from aleph_mem.dream.journal import Journal, action_from, grouped
from aleph_mem.dream.journal_lines import ProposalState
from aleph_mem.dream.judge import Judge
from aleph_mem.dream.proposals import BLOCKING, WITHDRAWABLE, for_person, marks
from aleph_mem.dream.registry import DAILY, WEEKLY, DreamPass, PassContext, RunReport, pipeline
from aleph_mem.dream.snapshot import dream_wrote_last, snapshot, with_soft
from aleph_mem.dream.view import Action, Snapshot
from aleph_mem.errors import AlephError, BadInput, ConflictError, NoteExists
from aleph_mem.files import activity
from aleph_mem.files.locks import dream_lock
from aleph_mem.files.vault import ARCHIVE, DREAM, content_hash
from aleph_mem.index import reading
from aleph_mem.notes import frontmatter_edit
from aleph_mem.notes.note_parts import linked_name
from aleph_mem.plugins import dream_passes
from aleph_mem.store import Store
from aleph_mem.ulid import new_ulid
from aleph_mem.writes.events import host_id
from aleph_mem.writes.sync_settle import other_devices

__all__ = ["DAILY", "WEEKLY", "Dream", "RunReport"]

log = logs.get(__name__)

QUIET_MINUTES = 10
ELSEWHERE = ("raised on another device, and the dream here does not find it: nothing was "
             "changed")
EDIT_BUDGET = 32  # destructive edits (merges, archives) per run
DIGESTS = f"{DREAM}digests/"


class Interrupted(Exception):
    pass


class Dream:
    def __init__(self, mem: Store, now: dt.datetime | None = None, dry_run: bool = False,
                 force: bool = False, anyway: bool = False) -> None:
        self.mem = mem
        self.anyway = anyway  # dream here although another device is the vault's dreamer
        self.now = now or utc_now()
        self.dry_run = dry_run
        self.force = force
        self.journal = Journal(mem.vault.aleph_dir)
        self.started = utc_now()
        self.budget = EDIT_BUDGET
        self.writes = 0  # notes written by this run (a new snapshot is read after one)
        self._snap: tuple[int, Snapshot] | None = None
        self.judge = Judge(mem.settings, mem.vault.aleph_dir)
        self._outdated: dict[str, dict] = {}  # open proposals whose note changed since
        self._reticked: set[str] = set()  # ... of them, those the person had ticked
        self._elsewhere: set[str] = set()  # ... of them, ticked ones another device raised

    def run(self, passes: tuple[str, ...] | None = None, trigger: str = "manual",
            weekly: bool = False) -> RunReport:
        """Run ``passes`` (default: the daily or weekly pipeline, plugin passes included).
        One run at a time per vault (``.aleph/local/dream.lock``, released with its
        process); a second one is refused with a clear error."""
        registered = dream_passes()
        chosen = passes or pipeline(registered, weekly)
        unknown = [p for p in chosen if p not in registered]
        if unknown:
            raise BadInput(f"unknown dream pass {', '.join(unknown)}; passes: "
                           f"{', '.join(registered)}")
        with dream_lock(self.mem.vault.local_dir):
            me = host_id(self.mem.vault.local_dir)
            allowed, why = lease.may_dream(
                self.mem.vault.aleph_dir, me, self.now,
                float(self.mem.settings.dreamer_takeover_hours), self.anyway,
                renew=not self.dry_run and not self.mem.readonly,
                shared=other_devices(self.mem.vault.aleph_dir, me),
                settle_seconds=float(self.mem.settings.sync_settle_seconds))
            if not allowed:
                report = RunReport(new_ulid(), iso(self.started), self.dry_run, list(chosen),
                                   status="not the dreamer", note=why)
                return report
            return self._run(tuple(chosen), trigger, registered)

    def _run(self, passes: tuple[str, ...], trigger: str,
             registered: dict[str, DreamPass]) -> RunReport:
        report = RunReport(new_ulid(), iso(self.started), self.dry_run, list(passes))
        report.resumed = self._finished_today(passes, trigger)
        self.judge.before_call = lambda: self._check_idle(trigger)
        self._reconcile()
        report.journal_skipped = self.journal.audit()
        self._soft_links(report)
        name = None
        try:
            if not self.dry_run:
                self._apply_ticked(report)
            for name in (p for p in passes if p not in self.mem.settings.dream_off
                         and p not in report.resumed):
                if name == "digest":
                    self._settle_outdated(report)
                self._run_pass(registered[name], report, trigger)
                report.done.append(name)
            self._settle_outdated(report)
            report.status = "success"
        except Interrupted:
            report.status = "interrupted"
            report.interrupted_at = name
        except Exception:
            report.status = "error"  # recorded: it blocks further scheduled runs today
            log.exception("dream run %s failed", report.run_id)
        report.finished_at = iso(utc_now())
        report.journal_skipped = len(self.journal.skipped)
        if not self.dry_run and not self.mem.readonly:
            judgments.refresh(self.mem.con, self.journal)
        worked = report.applied or report.proposed or report.digest or report.done
        if not self.dry_run and (worked or report.status in ("success", "error")):
            self.journal.record_run({"id": report.run_id, "at": report.started_at,
                                     "finished_at": report.finished_at, "status": report.status,
                                     "trigger": trigger, "passes": report.passes,
                                     "applied": len(report.applied),
                                     "proposed": len(report.proposed),
                                     "skipped": len(report.skipped),
                                     "journal_skipped": report.journal_skipped,
                                     "done": report.resumed + report.done,
                                     "interrupted_at": report.interrupted_at,
                                     "merged": sorted(a["pair"] for a in report.applied
                                                      if "pair" in a)})
        return report

    def _reconcile(self) -> None:
        """The index in step with the files before the passes read it: the notes, and the
        dream's judgments of them (the captured sessions' index is the door's to sync:
        ``Memory.dream``)."""
        self.mem.reindex()
        if not self.mem.readonly:
            judgments.refresh(self.mem.con, self.journal)

    def _snapshot(self) -> Snapshot:
        """The index as the passes see it, read again only after a write (reading every
        note's text is the costliest step of a run over a big vault)."""
        if self._snap is None or self._snap[0] != self.writes:
            self._snap = None  # two snapshots of a big vault never live at once
            self._snap = (self.writes, snapshot(self.mem, self.now))
        return self._snap[1]

    def _run_pass(self, dream_pass: DreamPass, report: RunReport, trigger: str) -> None:
        """Plan on the current snapshot, apply each action through the one step; then the
        pass's reports, planned on the snapshot after its own changes."""
        ctx = PassContext(self.mem, self.now, self.judge, self.journal, report, self.dry_run,
                          dream_pass.name)
        self._check_idle(trigger)
        snap = self._snapshot()
        planned = [a for a in (for_person(a, snap.notes.get(a.path))
                               for a in dream_pass.plan(snap, ctx)) if a is not None]
        self._withdraw(dream_pass.name, {a.key for a in planned}, report)
        for action in planned:
            self._check_idle(trigger)
            self._handle(action, report)
        if dream_pass.after is not None:
            for action in dream_pass.after(self._snapshot(), ctx):
                self._report(action, report)

    def _report(self, action: Action, report: RunReport) -> None:
        """A generated page for people (lint's report, the digest): written like any
        change (or shown as a diff in a dry run), listed as a report, not as a change."""
        if self.dry_run:
            report.plan.append(self._diff(action, self.mem.vault.read_bytes(action.path)))
            return
        before = len(report.applied)
        self._apply(action, report)
        if len(report.applied) > before:
            path = report.applied.pop()["path"]
            if path.startswith(DIGESTS):
                report.digest = path
            else:
                report.reports.append(path)

    def _soft_links(self, report: RunReport) -> None:
        """L021's soft links, found before any pass (they write nothing), so the weekly
        clusters and decay of this run see the same ones the next run will."""
        if "L021" in (self.mem.settings.lint_disable or []):
            return
        soft, report.soft_links = mentions.refresh(self.mem.vault.local_dir, self._snapshot(),
                                                   save=not self.dry_run)
        self._snap = (self.writes, with_soft(self._snapshot(), soft))

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
            if self.started - mtime < quiet and not dream_wrote_last(self.mem, action.path,
                                                                      note):
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
            elif action.op == "remember":  # a fact for hot memory, added as it is now
                from aleph_mem.recall.hot_memory import remember

                r = remember(self.mem, action.content, int(action.set_keys.get("priority", 3)),
                             actor=f"dream:{action.pass_name}", today=self.now.date(),
                             run=report.run_id)
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
            keeper = linked_name(action.set_keys.get("merged_into"))
            if action.op == "archive" and keeper:
                done["pair"] = " + ".join(sorted((action.path, keeper + ".md")))
            report.applied.append(done)

    def _withdraw(self, name: str, planned: set[str], report: RunReport) -> None:
        """Open proposals of a pass that plans afresh over the whole vault, which it no
        longer plans: no longer true (the conflict or staleness is gone), withdrawn with a
        line in the digest."""
        if name not in WITHDRAWABLE or self.dry_run:
            return
        for pid, p in self.journal.proposals().items():
            action = action_from(p["action"])
            if p["state"] == "open" and action.pass_name == name and pid not in planned:
                self.journal.settle(pid, "withdrawn", iso(self.now), report.run_id)
                report.withdrawn.append({"id": pid, "pass": name, "what": action.describe(),
                                         "why": "the dream no longer finds it"})

    def _set_aside(self, pid: str, p: dict, ticked: bool, report: RunReport) -> None:
        """An open proposal whose note changed since it was asked, or one another device
        raised that the person ticked: its pass judges the note again this run; what it no
        longer finds is said (withdrawn, or a tick answered)."""
        self.journal.settle(pid, "outdated", iso(self.now), report.run_id)
        self._outdated[pid] = p
        if ticked:
            self._reticked.add(pid)
        if p.get("host") != self.journal.host:
            self._elsewhere.add(pid)

    def _settle_outdated(self, report: RunReport) -> None:
        """Proposals set aside this run that their pass, run since, did not raise again:
        never gone without a word."""
        for pid, p in list(self._outdated.items()):
            action = action_from(p["action"])
            if action.pass_name not in report.done:
                continue
            del self._outdated[pid]
            if pid in self._reticked:
                self.journal.settle(pid, "answered", iso(self.now), report.run_id)
                report.answered.append({"id": pid, "what": action.describe(), "why": ELSEWHERE
                                        if pid in self._elsewhere else "the note changed "
                                        "after your tick and it no longer holds: nothing "
                                        "was changed"})
            else:
                self.journal.settle(pid, "withdrawn", iso(self.now), report.run_id)
                report.withdrawn.append({"id": pid, "pass": action.pass_name,
                                         "what": action.describe(), "why": "the note changed "
                                         "since and the dream no longer finds it"})

    def _propose(self, action: Action, report: RunReport) -> None:
        if action.key in self._outdated:  # judged again after the note changed: still holds
            self._outdated.pop(action.key)
            if action.key in self._reticked and not action.group and not self.dry_run:
                applied = self._apply_ticked_one(action, report) is None
                state: ProposalState = "applied" if applied else "failed"
                self.journal.settle(action.key, state, iso(self.now), report.run_id)
                report.answered.append({"id": action.key, "what": action.describe(), "why": (
                    "applied: raised on another device, and it still holds here" if
                    action.key in self._elsewhere else "applied: the note changed after "
                    "your tick and it still holds") if state == "applied" else
                    "it could not be applied; the digest says why"})
                return
        known = self.journal.proposals()
        if action.key in known and known[action.key]["state"] in BLOCKING:
            return  # waiting, done, or dismissed by the person: never raised again as-is
        if not self.dry_run:
            self.journal.propose(action, iso(self.now), report.run_id)
        report.proposed.append({"id": action.key, "pass": action.pass_name,
                                "what": action.describe()})

    def _apply_ticked(self, report: RunReport) -> None:
        """Proposals a person ticked (`- [x]`) in a digest or on the standing page are
        applied, still CAS-guarded; those marked `- [-]` are dismissed for good. An open
        proposal whose note changed since is set aside (the passes then plan anew and raise
        it again if it still holds). A tick on a proposal no longer open is answered once.
        Proposals never expire."""
        ticked, dismissed, not_yours = marks(self.mem)
        marked_no = set(dismissed)
        known = self.journal.proposals()
        for pid, by in sorted(not_yours.items()):  # an agent's mark is not the person's
            if pid in known and known[pid]["state"] == "open":
                report.awaiting.append({"id": pid, "by": by, "what": action_from(
                    known[pid]["action"]).describe()})
        said_no = {p["action"].get("group") for pid, p in known.items() if pid in dismissed}
        dismissed |= {pid for pid, p in known.items()  # a merge is dismissed as a whole
                      if p["action"].get("group") and p["action"].get("group") in said_no}
        open_ = {}
        stale_groups = set()
        for pid, p in known.items():
            if p["state"] == "outdated" and pid not in self._outdated:
                self._outdated[pid] = p  # set aside by a run that did not run its pass (a
                if pid in ticked:  # digest after an undo): this run's pass says it
                    self._reticked.add(pid)
            if p["state"] != "open":
                if pid in ticked and p["state"] in ("withdrawn", "failed"):
                    self.journal.settle(pid, "answered", iso(self.now), report.run_id)
                    report.answered.append({"id": pid, "what": action_from(
                        p["action"]).describe(), "why": f"it no longer holds ({p['state']}): "
                        "nothing was changed"})
                continue
            if pid in dismissed:
                self.journal.settle(pid, "dismissed", iso(self.now), report.run_id)
                if pid in marked_no:  # the box the person marked: answered once
                    report.answered.append({"id": pid, "what": action_from(
                        p["action"]).describe(), "why": "dismissed: it is not asked again"})
                continue
            action = action_from(p["action"])
            if p["host"] != self.journal.host and pid in ticked:  # raised elsewhere:
                if action.op == "remember":  # judged here, as this device would raise it
                    if not self._stated_here(action):
                        self.journal.settle(pid, "answered", iso(self.now), report.run_id)
                        report.answered.append({"id": pid, "what": action.describe(),
                                                "why": ELSEWHERE})
                        continue
                else:
                    self._set_aside(pid, p, True, report)
                    stale_groups.add(action.group)
                    continue
            try:
                current = self.mem.vault.read_bytes(action.path)
            except AlephError as exc:  # a symlink on the way leads out of the vault
                self.journal.settle(pid, "failed", iso(self.now), report.run_id)
                said = {"id": pid, "what": action.describe(), "why": f"not applied: {exc}"}
                if pid in ticked:
                    report.answered.append(said)
                else:
                    report.withdrawn.append({**said, "pass": action.pass_name})
                continue
            fresh = action.base is None and current is None  # a note still to create
            if action.op == "remember":  # hot memory changes often: only "said since" counts
                from aleph_mem.recall.hot_memory import said_in

                fresh = not said_in((current or b"").decode("utf-8", "replace"),
                                    action.content)
            if not fresh and (current is None or content_hash(current) != action.base):
                self._set_aside(pid, p, pid in ticked, report)
                stale_groups.add(action.group)
            else:
                open_[pid] = p
        for pid, p in list(open_.items()):  # one part of a merge is outdated: all of it is
            if p["action"].get("group") and p["action"]["group"] in stale_groups:
                self._set_aside(pid, p, pid in ticked, report)
                del open_[pid]
        for group in grouped(list(open_.values())):
            if not ticked & {p["id"] for p in group}:
                continue
            # a group (a merge) is applied in order, and stops at a failure
            state: ProposalState = "applied"
            why = "applied"
            for p in group:
                if state == "applied":
                    failed = self._apply_ticked_one(action_from(p["action"]), report)
                    if failed is not None:
                        state, why = "failed", f"not applied: {failed}"
                self.journal.settle(p["id"], state, iso(self.now), report.run_id)
            report.answered.append({"id": group[0]["id"], "what": action_from(
                group[0]["action"]).describe(), "why": why})

    def _stated_here(self, action: Action) -> bool:
        """A hot-memory proposal from another device holds here when the session note it
        cites is in this vault, a session note, and states the preference."""
        cited = re.search(r"\(stated in \[\[([^\]]+)\]\]\)$", action.reason)
        path = f"{cited.group(1)}.md" if cited else ""
        if reading.type_of(self.mem.con, path) != "session":
            return False
        data = self.mem.vault.read_bytes(path) or b""
        return " ".join(action.content.split()) in " ".join(
            data.decode("utf-8", "replace").split())

    def _apply_ticked_one(self, action: Action, report: RunReport) -> str | None:
        """Apply a proposal the person ticked; None when it was applied, else why not."""
        before, skipped = len(report.applied), len(report.skipped)
        self._apply(replace(action, propose=False), report)
        if len(report.applied) > before:
            return None
        return report.skipped[-1]["reason"] if len(report.skipped) > skipped else \
            "nothing to change"

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
            target = f"{ARCHIVE}{action.path}"
        else:
            new, target = action.content, action.path
        lines = difflib.unified_diff(old.splitlines(), new.splitlines(), f"a/{action.path}",
                                     f"b/{target}", lineterm="", n=1)
        return f"# {action.pass_name}: {action.describe()}\n" + "\n".join(lines)

