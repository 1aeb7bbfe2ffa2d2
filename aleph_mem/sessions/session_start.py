"""The memory a new agent session starts with, as text for the client to inject: hot memory
by priority (what does not fit is counted, never dropped silently), then the project in the
session's working folder: its last sessions and what they decided or left open, and its
notes; then where to look for more. Within ``hook_budget_tokens``; no model, no LLM.

A session keeps the snapshot it started with: when the client resumes or compacts it, the
same text comes back (kept in ``.aleph/local/hook/``), so hot memory edited meanwhile does
not shift under a running session.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from aleph_mem.files.atomic import write_atomic
from aleph_mem.index import reading
from aleph_mem.notes.note_parts import body_of_text
from aleph_mem.recall import hot_memory
from aleph_mem.sessions.raw_store import file_name, project_of
from aleph_mem.shown import DATA_NOTE, one_line

if TYPE_CHECKING:
    from aleph_mem.store import Store

CHARS_PER_TOKEN = 4
HOT_SHARE = 0.45
SECTION = re.compile(r"^## (Decisions|Errors and fixes|Outcome|Procedures that worked)\s*$",
                     re.MULTILINE)
UNRESOLVED = "(not resolved in this session)"
INLINE_FIELD = re.compile(r"^\s*[\w -]+::")  # Dataview's "Attendees:: …": metadata, not prose


def for_session(mem: Store, cwd: str, session_id: str = "", source: str = "startup") -> str:
    kept = mem.vault.local_dir / "hook" / f"{file_name(session_id)}.md" if session_id else None
    if kept is not None and source in ("resume", "compact") and kept.is_file():
        return kept.read_text(encoding="utf-8")
    text = build(mem, project_for(mem, cwd), int(mem.settings.hook_budget_tokens))
    if kept is not None and not mem.readonly:
        kept.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(kept, text.encode("utf-8"), durable=False)
    return text


def project_for(mem: Store, cwd: str) -> str:
    """The project of a working folder: a configured root or git repository holding it,
    else the project of the captured session that ran closest above it, else its name."""
    if not cwd:
        return ""
    found = project_of(cwd, list(mem.settings.project_roots))
    if found != Path(cwd).name or not found:
        return found
    row = mem.con.execute(
        "SELECT project FROM sessions WHERE project != '' AND (? = cwd OR ? LIKE cwd || '/%') "
        "ORDER BY length(cwd) DESC LIMIT 1", (cwd, cwd)).fetchone()
    return row[0] if row else found


def build(mem: Store, project: str, budget_tokens: int) -> str:
    budget = budget_tokens * CHARS_PER_TOKEN
    parts = [f"# Memory (aleph-mem vault {one_line(str(mem.vault.root))})\n\n{DATA_NOTE}"]
    hot = mem.shown((mem.vault.read_bytes(hot_memory.PATH) or b"").decode("utf-8", "replace"))
    view = hot_memory.by_priority(hot, int(budget * HOT_SHARE))
    if view.text:
        parts += ["## Hot memory (the person's standing facts, most important first)",
                  view.text]
    if view.agents:
        parts += ["## Facts remembered by agents (not confirmed by the person)", view.agents]
    room = budget - sum(len(p) + 1 for p in parts) - 300
    if project:
        parts += _project(mem, project, room)
    parts.append("More: the aleph-mem MCP tools `search` (scope \"sessions\" for past "
                 "sessions) and `read`, or `aleph-mem search` in a terminal.")
    return "\n\n".join(p for p in parts if p)


def project_blocks(mem: Store, project: str, room: float) -> list[str]:
    """The project's part of a session's start, within ``room`` characters."""
    return _project(mem, project, int(room))


def _project(mem: Store, project: str, room: int) -> list[str]:
    out: list[str] = []
    name = one_line(project)
    sessions = reading.project_session_notes(mem.con, project, 5)
    lines: list[str] = _undistilled(mem, project)
    decided: list[str] = []
    open_: list[str] = []
    proven: list[str] = []
    left: list[str] = []
    for path in sessions:
        body = mem.shown((mem.vault.read_bytes(path) or b"").decode("utf-8", "replace"))
        found = sections(body)
        if path == sessions[0]:  # what the last session left to do, by name
            left = [f"- {o} ([[{one_line(path[:-3])}]])" for o in found.get("Outcome", [])
                    if TODO_LEFT.match(o) and "still open:" in o]
        outcome = next(iter(found.get("Outcome", [])), "")
        lines.append(f"- [[{one_line(path[:-3])}]]" + (f": {outcome[:220]}" if outcome else ""))
        decided += found.get("Decisions", [])
        open_ += [e for e in found.get("Errors and fixes", []) if UNRESOLVED in e]
        proven += found.get("Procedures that worked", [])
    notes = reading.project_notes(mem.con, project, 8)
    proven = list(dict.fromkeys(proven))[:4]
    if proven:
        runs = _runs(mem, project)
        proven = [p + _counted(runs, p) for p in proven]
    for heading, items in (
            (f"## Project {name}: left open in the last session", left),
            (f"## Project {name}: recent decisions", [f"- {d}" for d in decided[:6]]),
            (f"## Project {name}: open problems", [f"- {p}" for p in open_[:4]]),
            (f"## Project {name}: procedures that worked",
             [f"- {p}" for p in proven]),
            (f"## Project {name}: last sessions", lines),
            (f"## Project {name}: notes", [_note_line(mem, p) for p, _ in notes])):
        if not items:
            continue
        block = "\n".join([heading, *items])
        if len(block) > room:
            block = block[:max(0, room)].rsplit("\n", 1)[0]
        if block.count("\n") == 0:
            break
        out.append(block)
        room -= len(block) + 2
    return out


COMMAND = re.compile(r"^`(.+?)`")
TODO_LEFT = re.compile(r"^todo list left with \d+ of \d+ done")
RAN = re.compile(r"^- `(.+)`( \(failed\))?$", re.MULTILINE)
COUNTED_NOTES = 60


def _runs(mem: Store, project: str) -> dict[str, tuple[int, int]]:
    """Each command of the project's sessions (their latest 60 notes' "Commands run"): in
    how many it worked, in how many it failed. Read off the notes, so it is as true as the
    notes are; each later session that runs a command moves its count."""
    runs: dict[str, tuple[int, int]] = {}
    for path in reading.project_session_notes(mem.con, project, COUNTED_NOTES):
        body = (mem.vault.read_bytes(path) or b"").decode("utf-8", "replace")
        ran = body.split("## Commands run", 1)[1].split("\n## ", 1)[0] if \
            "## Commands run" in body else ""
        here: dict[str, bool] = {}  # command -> failed (its first line in this note)
        for m in RAN.finditer(ran):
            here.setdefault(m.group(1), bool(m.group(2)))
        for cmd, failed_here in here.items():
            worked, failed = runs.get(cmd, (0, 0))
            runs[cmd] = (worked, failed + 1) if failed_here else (worked + 1, failed)
    return runs


def _counted(runs: dict[str, tuple[int, int]], procedure: str) -> str:
    """" (worked in 3 sessions, failed in 1)" for the procedure's command, or ""."""
    cmd = COMMAND.match(procedure)
    worked, failed = runs.get(cmd.group(1), (0, 0)) if cmd else (0, 0)
    if not worked and not failed:
        return ""
    return f" (worked in {worked} session{'s' * (worked != 1)}, failed in {failed})"


def _undistilled(mem: Store, project: str, limit: int = 3) -> list[str]:
    """The project's captured sessions whose note is not written yet (one still running,
    or ended a moment ago): what each was asked first, so the next session knows of it."""
    waiting = mem.con.execute(  # (the index learns of a note a moment after it is written)
        "SELECT s.started, s.client, s.title, s.session_id FROM sessions s WHERE s.note = '' "
        "AND lower(s.project) = lower(?) ORDER BY s.started DESC", (project,)).fetchall()
    noted = reading.sessions_with_notes(mem.con, [(sid, c) for _, c, _, sid in waiting])
    rows = [(started, client, title) for started, client, title, sid in waiting
            if (sid, client) not in noted][:limit]
    if not rows:
        return []
    from aleph_mem.sessions.summary import one_line as clipped  # (transcripts' parsing)

    out = []
    for started, client, title in rows:
        asked = clipped(mem.shown(title), 160)
        out.append(one_line(f"- {started[:16].replace('T', ' ')} {client} session (its note "
                            f"is not written yet), asked: {asked}"))
    return out


def _note_line(mem: Store, path: str, size: int = 140) -> str:
    """A note as a link and its first line of prose (what it is about, at a glance)."""
    text = mem.shown((mem.vault.read_bytes(path) or b"")[:4000].decode("utf-8", "replace"))
    text = body_of_text(text)
    first = next((ln.strip() for ln in text.splitlines()
                  if ln.strip() and not ln.lstrip().startswith(("#", "---", ">", "|", "!["))
                  and not INLINE_FIELD.match(ln)), "")
    first = " ".join(first.lstrip("-*0123456789. ").split())
    if len(first) > size:
        first = first[:size].rsplit(" ", 1)[0] + "…"
    return f"- [[{one_line(path[:-3])}]]" + (f": {one_line(first)}" if first else "")


def sections(body: str) -> dict[str, list[str]]:
    """The list items under a session note's Decisions, Errors and Outcome headings."""
    found: dict[str, list[str]] = {}
    marks = list(SECTION.finditer(body))
    for i, m in enumerate(marks):
        end = marks[i + 1].start() if i + 1 < len(marks) else len(body)
        chunk = body[m.end():end].split("\n## ", 1)[0]
        found[m.group(1)] = [ln[2:].strip() for ln in chunk.splitlines() if ln.startswith("- ")]
    return found
