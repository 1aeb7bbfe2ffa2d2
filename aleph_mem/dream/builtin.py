"""The built-in dream passes, registered through the same plugin hook an outside package
uses (``register_dream_passes``, in ``aleph_mem.dream``). Each is its deterministic
planner plus, where an LLM is configured, its LLM part; the logic lives in the pass's own
module, this file only says which planners make up each pass."""

from __future__ import annotations

import datetime as dt

from aleph_mem.dream import digest as digest_mod
from aleph_mem.dream.conflict_plan import plan_conflicts
from aleph_mem.dream.consolidate import plan_consolidate
from aleph_mem.dream.consolidate_llm import plan_consolidate_llm
from aleph_mem.dream.decay import plan_decay
from aleph_mem.dream.drift import plan_drift_all, plan_drift_llm
from aleph_mem.dream.lint import REPORT_PATH, Ledger, lint_issues, lint_report, plan_lint
from aleph_mem.dream.lint_llm import plan_lint_llm
from aleph_mem.dream.registry import DreamPass, PassContext
from aleph_mem.dream.snapshot import generated
from aleph_mem.dream.synthesis import plan_index, plan_synthesis_notes
from aleph_mem.dream.view import Action, Snapshot
from aleph_mem.dream.weekly import clusters, moc_proposals, plan_weekly
from aleph_mem.notes.note_parts import linked_name

RECALL_RETENTION_DAYS = 90
CHURN_RUNS, CHURN_LIMIT = 5, 3


def consolidate(snap: Snapshot, ctx: PassContext) -> list[Action]:
    planned = plan_consolidate(snap)
    if ctx.judge.available:
        judged, decided = plan_consolidate_llm(snap, ctx.judge)
        planned = [a for a in planned if not (a.propose and a.path in decided)] + judged
    return churn_guard(planned, ctx)


def churn_guard(planned: list[Action], ctx: PassContext) -> list[Action]:
    """A pair merged in 3 of the last 5 runs (a person keeps taking it back, whichever note
    was kept) is left alone: the dream must not oscillate with a person (Aleph's
    MutationGate)."""
    recent = [r for r in ctx.journal.runs() if r.get("status") == "success" and
              "consolidate" in (r.get("passes") or ())][-CHURN_RUNS:]
    counts: dict[str, int] = {}
    for r in recent:
        for pair in r.get("merged", []):
            counts[pair] = counts.get(pair, 0) + 1
    churned = {p for p, c in counts.items() if c >= CHURN_LIMIT}
    if not churned:
        return planned
    held: set[str] = set()
    for a in planned:
        keeper = linked_name(a.set_keys.get("merged_into"))
        if a.op == "archive" and keeper and \
                " + ".join(sorted((a.path, keeper + ".md"))) in churned:
            held |= {a.path, keeper + ".md"}
            ctx.report.skipped.append({"path": a.path, "reason": "merged and taken back "
                                       "again and again: left alone", "pass": "consolidate"})
    return [a for a in planned if a.path not in held]


def drift(snap: Snapshot, ctx: PassContext) -> list[Action]:
    planned = plan_drift_all(snap)
    return planned + plan_drift_llm(snap, ctx.judge) if ctx.judge.available else planned


def lint(snap: Snapshot, ctx: PassContext) -> list[Action]:
    planned = plan_lint(snap) + plan_conflicts(snap)
    if ctx.judge.available:  # one write per note a run
        busy = {a.path for a in planned}
        planned += [a for a in plan_lint_llm(snap, ctx.judge) if a.path not in busy]
    return planned


def lint_after(snap: Snapshot, ctx: PassContext) -> list[Action]:
    """The issues left after the fixes, the ledger of when each was first seen, and the
    regenerated ``_dream/lint.md``."""
    issues = lint_issues(snap)
    today = ctx.now.date().isoformat()
    ledger = Ledger.load(ctx.mem.vault.local_dir).updated(issues, today)
    ctx.report.issues = [{"rule": i.rule, "path": i.path, "message": i.message,
                          "since": ledger.first_seen(i, today)} for i in issues]
    if ctx.dry_run:
        return []
    ledger.save(ctx.mem.vault.local_dir)
    action = generated(ctx.mem, "lint", REPORT_PATH,
                       lint_report(issues, ledger, today, snap.soft), "lint report")
    return [action] if action is not None else []


def decay(snap: Snapshot, ctx: PassContext) -> list[Action]:
    if not ctx.dry_run:
        cutoff = ctx.now.date() - dt.timedelta(days=RECALL_RETENTION_DAYS)
        ctx.journal.prune_recalls(cutoff.isoformat())
    # a note another pass acted on, or asked about, this run or before (a merge's keeper, a
    # stale fact waiting for a tick) is in a person's hands: not also proposed for archive
    asked = {p["action"]["path"] for p in ctx.journal.proposals().values()
             if p["state"] == "open" and p["action"]["pass_name"] != "decay"}
    busy = asked | {a["path"] for a in ctx.report.applied}
    return plan_decay(snap, ctx.judge if ctx.judge.available else None, frozenset(busy))


def synthesis(snap: Snapshot, ctx: PassContext) -> list[Action]:
    """The weekly review, the category index and (with an LLM) cluster notes."""
    found = clusters(snap)
    planned = (plan_weekly(ctx.mem, snap, found), plan_index(ctx.mem, snap),
               *moc_proposals(snap, found),
               *plan_synthesis_notes(ctx.mem, snap, found, ctx.judge))
    return [a for a in planned if a is not None]


def digest(snap: Snapshot, ctx: PassContext) -> list[Action]:
    return digest_mod.plan_retention(ctx.mem.con, ctx.now)


def digest_after(snap: Snapshot, ctx: PassContext) -> list[Action]:
    action = digest_mod.plan_digest(ctx.mem, ctx.now, ctx.report, ctx.journal, snap,
                                     ctx.judge)
    page = digest_mod.plan_standing_page(ctx.mem, ctx.now, ctx.journal,
                                         ctx.report.awaiting)
    return [a for a in (action, page) if a is not None]


PASSES = (
    DreamPass("consolidate", consolidate, "merge notes that say the same thing"),
    DreamPass("drift", drift, "flag stale, contradicted and superseded notes"),
    DreamPass("synthesis", synthesis, "weekly review, category index, cluster notes",
              weekly_only=True),
    DreamPass("lint", lint, "structure and hygiene; safe fixes", after=lint_after),
    DreamPass("decay", decay, "let unused notes fade into archive/"),
    DreamPass("digest", digest, "the daily digest a person reads", after=digest_after),
)
