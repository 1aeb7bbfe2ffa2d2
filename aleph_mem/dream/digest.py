"""The daily digest a person reads: ``_dream/digests/YYYY-MM-DD.md`` (daemon-owned).

Its content is a pure function of the event log, the index and the date, so a second run
the same day writes nothing new. A digest the person edited is never overwritten."""

from __future__ import annotations

import datetime as dt
import re
from typing import TYPE_CHECKING

from ..hot_memory import BUDGET, facts
from ..store import Store
from ..vault import content_hash
from .journal import Journal
from .judge import Judge
from .lint import Ledger, lint_issues
from .snapshot import dream_wrote_last
from .view import Action, Snapshot

if TYPE_CHECKING:
    from .registry import RunReport

MAX_GRAPH_NODES = 30


def digest_path(day: dt.date) -> str:
    return f"_dream/digests/{day.isoformat()}.md"


RETENTION_DAYS = 90


def plan_retention(mem: Store, now: dt.datetime) -> list[Action]:
    """Digests older than 90 days move to ``archive/_dream/digests/`` (never deleted)."""
    cutoff = (now.date() - dt.timedelta(days=RETENTION_DAYS)).isoformat()
    rows = mem.con.execute("SELECT path, hash FROM notes WHERE path LIKE '\\_dream/digests/%' "
                           "ESCAPE '\\' ORDER BY path").fetchall()
    return [Action("digest", "archive", path, digest, "old_digest") for path, digest in rows
            if path.rsplit("/", 1)[-1][:10] < cutoff]


def _link(path: str) -> str:
    return f"[[{path[:-3]}]]" if path.endswith(".md") else path


def plan_digest(mem: Store, now: dt.datetime, report: RunReport, journal: Journal,
                snap: Snapshot, judge: Judge | None = None) -> Action | None:
    path = digest_path(now.date())
    since = (now - dt.timedelta(hours=24)).isoformat().replace("+00:00", "Z")
    events = [e for e in reversed(mem.log(since=since, limit=5000))
              if not e.path.startswith("_dream/")]
    people = [e for e in events if not e.actor.startswith("dream:")]
    dreamt = [e for e in events if e.actor.startswith("dream:")]
    proposals = [p for p in journal.proposals().values() if p["state"] == "open"]
    if not people and not dreamt and not proposals and not report.said:
        return None
    current = mem.vault.read_bytes(path)
    base = None
    if current is not None:
        if not dream_wrote_last(mem, path, current):
            report.skipped.append({"path": path, "reason": "you edited today's digest; "
                                   "it is left as it is", "pass": "digest"})
            return None
        base = content_hash(current)
    content = render(mem, now, people, dreamt, proposals, report, snap, judge)
    if current is not None and current.decode("utf-8", "replace") == content:
        return None
    return Action("digest", "generate", path, base, "daily digest", content=content)


def render(mem: Store, now: dt.datetime, people: list, dreamt: list, proposals: list,
           report: RunReport, snap: Snapshot, judge: Judge | None = None) -> str:
    day = now.date().isoformat()
    kinds: dict[str, int] = {}
    for e in people + dreamt:
        kinds[e.kind] = kinds.get(e.kind, 0) + 1
    hot = (mem.vault.read_bytes("MEMORY.md") or b"").decode("utf-8", "replace")
    used = sum(len(f.text) for f in facts(hot))
    out = ["---", "type: digest", "generated_by: dream", "dream: false", f"date: {day}", "---",
           f"# Dream digest {day}", "", "## Counts", ""]
    out.append("- " + ", ".join(f"{kinds.get(k, 0)} {label}" for k, label in (
        ("note-created", "created"), ("note-updated", "updated"),
        ("note-archived", "archived"), ("note-restored", "restored"),
        ("note-moved", "moved"))) + " in the last 24 hours")
    merged = sum(1 for e in dreamt if e.kind == "note-archived" and e.reason == "merged")
    out.append(f"- {merged} merged by the dream; hot memory uses {used} of {BUDGET} characters")
    seen: dict[str, str] = {}
    for e in people:
        seen[e.path] = f"{e.kind.removeprefix('note-')} by {e.actor}"
    summary = summarise(mem, sorted(seen), judge) if judge is not None else None
    if summary:
        out += ["", "## Summary", "", summary]
    out += ["", "## New and updated notes", ""]
    out += [f"- {_link(p)}: {what}" for p, what in sorted(seen.items())] or ["- none"]
    out += ["", "## What the dream changed", ""]
    runs: dict[str, list] = {}
    for e in dreamt:
        runs.setdefault(e.run or e.id, []).append(e)
    for run, evs in sorted(runs.items()):
        out.append(f"- run `{run}` (undo all: `aleph-mem undo {run}`)")
        out += [f"  - {e.actor.split(':', 1)[1]}: {e.kind.removeprefix('note-')} "
                f"{_link(e.path)}" + (f" ({e.reason})" if e.reason else "") for e in evs]
    if not runs:
        out.append("- nothing")
    ledger = Ledger.load(mem.vault.local_dir)
    today = now.date().isoformat()
    issues = [i for i in report.issues if i["path"] in snap.notes] if "lint" in report.done \
        else [
        {"rule": i.rule, "path": i.path, "message": i.message,
         "since": ledger.first_seen(i, today)} for i in lint_issues(snap)]
    issues = sorted(issues, key=lambda i: (i["since"] != today, i["path"], i["rule"]))
    out += ["", "## Needs attention", ""]
    out += [f"- {i['rule']} {_link(i['path'])}: {i['message']}"
            + (" (new)" if i["since"] == today else "")
            for i in issues[:50]] or ["- nothing"]
    if len(issues) > 50:
        out.append(f"- … and {len(issues) - 50} more ([[_dream/lint]])")
    fixed = sum(1 for d in ledger.fixed.values() if d == today)
    if fixed:
        out.append(f"- {fixed} lint issue{'s' if fixed > 1 else ''} fixed today")
    out += ["", "## Proposals", "",
            "Tick a box and the next run applies it (if the note has not changed since).", ""]
    out += [f"- [ ] {p['action']['pass_name']}: {_describe(p)} ({p['id']})"
            for p in sorted(proposals, key=lambda p: p["id"])] or ["- none"]
    for name, lines in report.said.items():
        out += ["", f"## From the {name} pass", "", *[f"- {line}" for line in lines]]
    if report.skipped:
        out += ["", "## Skipped because you were editing", ""]
        out += [f"- {_link(s['path'])}: {s['reason']}" for s in report.skipped]
    graph = mermaid(mem, sorted(seen))
    if graph:
        out += ["", "## Today's notes and their links", "", *graph]
    return "\n".join(out) + "\n"


def summarise(mem: Store, paths: list[str], judge: Judge) -> str | None:
    """With an LLM: a short summary of the day in which every sentence cites the day's
    notes; citations are checked and uncited sentences dropped."""
    from ..reflect import SENTENCE
    from .judge import SUMMARY_SYSTEM, fence

    notes = [(p, mem.show(p)) for p in paths[:10] if mem.vault.read_bytes(p) is not None]
    if not notes:
        return None
    prompt = "\n\n".join(fence(i + 1, v.title, v.content, "") for i, (_, v) in enumerate(notes))

    def validate(obj: object) -> dict | None:
        return obj if isinstance(obj, dict) and isinstance(obj.get("text"), str) else None

    verdict = judge.ask("digest", [v.hash for _, v in notes], SUMMARY_SYSTEM + (
        ' Answer as JSON: {"text": "..."}.'), prompt, validate)
    if not verdict:
        return None
    kept = []
    for sentence in SENTENCE.split(verdict["text"].strip()):
        nums = [int(n) for n in re.findall(r"\[(\d{1,2})\]", sentence)]
        if nums and all(1 <= n <= len(notes) for n in nums):
            kept.append(re.sub(r"\[(\d{1,2})\]",
                               lambda m: _link(notes[int(m.group(1)) - 1][0]), sentence))
    return " ".join(kept) or None


def _describe(p: dict) -> str:
    from .journal import action_from

    return action_from(p["action"]).describe()


def mermaid(mem: Store, paths: list[str]) -> list[str]:
    """A Mermaid graph of the day's notes and the links between them and their
    neighbours (Obsidian renders it)."""
    if not paths:
        return []
    nodes = list(dict.fromkeys(paths))[:MAX_GRAPH_NODES]
    edges = []
    for src, dst in mem.con.execute(
            "SELECT DISTINCT n.path, l.resolved_path FROM links l JOIN notes n ON "
            "n.id = l.src_id WHERE l.resolved_path IS NOT NULL AND n.path != l.resolved_path "
            "ORDER BY 1, 2"):
        generated = src.startswith("_dream/") or dst.startswith("_dream/")
        if (src in paths or dst in paths) and not generated:
            for p in (src, dst):
                if p not in nodes and len(nodes) < MAX_GRAPH_NODES:
                    nodes.append(p)
            if src in nodes and dst in nodes:
                edges.append((src, dst))
    ids = {p: f"n{i}" for i, p in enumerate(nodes)}
    titles = dict(mem.con.execute("SELECT path, title FROM notes").fetchall())
    lines = ["```mermaid", "graph LR"]
    for p in nodes:
        label = re.sub(r'["\[\]{}<>|]', " ", titles.get(p, p)).strip() or p
        style = ":::today" if p in paths else ""
        lines.append(f'  {ids[p]}["{label}"]{style}')
    lines += [f"  {ids[a]} --> {ids[b]}" for a, b in edges]
    lines += ["  classDef today fill:#ffd966", "```"]
    return lines
