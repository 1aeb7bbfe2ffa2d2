"""L0 → L1: a finished session becomes one session note the person owns: what was asked,
what came of it, decisions, errors met and how they were resolved, preferences stated,
commands run and files touched. Without an LLM the note is read off the transcript's
structure (who said what, which tool failed, what ran next); with one, ``session_llm``
adds what structure cannot see, every item tied to a message that says it.

The note goes through the one writer (logged, undoable); a note the person has edited is
never written over. A preference the person stated becomes a proposal for hot memory in
the digest, never a silent edit of ``MEMORY.md``.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from . import hot_memory
from .compose import note_bytes, note_path
from .raw import Session, messages
from .redact import clean
from .transcripts import Message

if TYPE_CHECKING:
    from .store import Store

SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'`(])")
DECISION = re.compile(
    r"\b(?:decided|decision|we(?:'ll| will) (?:use|go with|keep)|going with|chose|"
    r"opted (?:for|to)|settled on|switch(?:ed)? to|from now on|instead of)\b", re.I)
PREFERENCE = re.compile(
    r"\b(?:I (?:prefer|'d prefer|would prefer|like|want|don't want|do not want|hate)|"
    r"always|never|don't (?:ever )?use|do not use|please (?:use|don't|do not|always|never)|"
    r"let's (?:use|keep|always|never)|from now on)\b", re.I)
QUESTION_ONLY = re.compile(r"\?\s*$")
NOT_A_TAG = re.compile(r"(^|\s)#(?=[\w/-])")  # "#include", "issue #42": words, not tags
ESCAPED = r"\1\\#"  # Obsidian reads "\#word" as text
MAX_ITEMS = 8


@dataclass
class Digest:
    """What a session note says, each item with the message it comes from."""

    title: str
    asked: list[tuple[str, str]] = field(default_factory=list)
    outcome: list[tuple[str, str]] = field(default_factory=list)
    decisions: list[tuple[str, str]] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(default_factory=list)
    preferences: list[tuple[str, str]] = field(default_factory=list)
    procedures: list[tuple[str, str]] = field(default_factory=list)
    commands: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)


def one_line(text: str, limit: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1].rsplit(" ", 1)[0] + "…"


def sentences(text: str) -> list[str]:
    return [s.strip() for s in SENTENCE.split(" ".join(text.split())) if s.strip()]


def extract(msgs: list[Message], session: Session) -> Digest:
    """The session read off its structure."""
    from .transcripts import rewound

    gone = rewound(msgs)
    main = [m for m in msgs if not m.sidechain and m.id not in gone]
    prompts = [m for m in main if m.role == "user" and not m.command]
    summary = next((m.text for m in reversed(main) if m.role == "summary"), "")
    first = prompts[0].text if prompts else (summary or session.session_id)
    d = Digest(title=_title(summary or first))
    d.asked = [(one_line(m.text), m.id) for m in prompts[:MAX_ITEMS]]
    answers = [m for m in main if m.role == "assistant" and not m.tool]
    if answers:
        d.outcome = [(one_line(answers[-1].text, 500), answers[-1].id)]
    for m in answers:
        d.decisions += [(one_line(s), m.id) for s in sentences(m.text) if DECISION.search(s)]
    for m in prompts:
        d.preferences += [(one_line(s), m.id) for s in sentences(m.text)
                          if PREFERENCE.search(s) and not QUESTION_ONLY.search(s)]
    d.errors = _errors(main)
    d.commands = list(dict.fromkeys(one_line(m.command, 160) for m in main
                                    if m.command and m.role == "assistant"))[:12]
    d.files = list(dict.fromkeys(f for m in main if m.role == "assistant" and m.tool in (
        "Edit", "Write", "MultiEdit", "NotebookEdit", "apply_patch", "write_file", "replace")
        for f in m.files))
    d.procedures = _procedures(main)
    d.decisions = [x for x in d.decisions if x not in d.outcome]
    d.files = [_relative(f, session.cwd) for f in d.files]
    for name in ("decisions", "preferences"):
        setattr(d, name, list(dict.fromkeys(getattr(d, name)))[:MAX_ITEMS])
    return d


def _relative(path: str, cwd: str) -> str:
    prefix = cwd.rstrip("/") + "/"
    return path[len(prefix):] if cwd and path.startswith(prefix) else path


def _title(text: str) -> str:
    first = sentences(text)[0] if sentences(text) else text
    return one_line(first, 70).rstrip(".?!:") or "session"


def _errors(msgs: list[Message]) -> list[tuple[str, str]]:
    """Each failed tool call, and what the agent said once the same tool next succeeded."""
    out: list[tuple[str, str]] = []
    for i, m in enumerate(msgs):
        if m.role != "tool" or not m.error:
            continue
        problem = next((ln.strip() for ln in m.text.splitlines() if ln.strip()), "failed")
        fixed = ""
        for later in msgs[i + 1:]:
            if later.role == "tool" and later.tool == m.tool and not later.error:
                after = msgs[msgs.index(later) + 1:]
                said = next((x for x in after if x.role == "assistant" and not x.tool), None)
                fixed = sentences(said.text)[0] if said and sentences(said.text) else ""
                break
        item = f"`{m.tool or 'tool'}`: {one_line(problem, 200)}"
        out.append((item + (f" → {one_line(fixed, 300)}" if fixed else " (not resolved in "
                                                                          "this session)"),
                    m.id))
    return out[:MAX_ITEMS]


def _procedures(msgs: list[Message]) -> list[tuple[str, str]]:
    """Commands that failed and then worked in another form: how it is done here."""
    out: list[tuple[str, str]] = []
    failed: dict[str, str] = {}
    pending: dict[str, str] = {}
    for m in msgs:
        if m.role == "assistant" and m.command:
            pending[m.tool] = m.command
        elif m.role == "tool" and m.tool in pending:
            cmd = pending.pop(m.tool)
            if m.error:
                failed[m.tool] = cmd
            elif m.tool in failed and failed[m.tool] != cmd:
                out.append((f"`{one_line(cmd, 160)}` worked where `"
                            f"{one_line(failed.pop(m.tool), 160)}` failed", m.id))
    return out[:MAX_ITEMS]


def render(d: Digest, session: Session) -> tuple[dict[str, Any], str]:
    fm: dict[str, Any] = {"type": "session", "category": "sessions",
                          "client": session.client, "session_id": session.session_id}
    for key in ("project", "cwd", "branch", "started", "ended"):
        if getattr(session, key):
            fm[key] = getattr(session, key)
    if d.files:
        fm["files_touched"] = d.files
    fm["tags"] = ["session"]
    if session.started[:10]:
        fm["created"] = session.started[:10]
    parts = [f"# {NOT_A_TAG.sub(ESCAPED, d.title)}", ""]
    for heading, items in (("Asked", d.asked), ("Outcome", d.outcome),
                           ("Decisions", d.decisions), ("Errors and fixes", d.errors),
                           ("Preferences stated", d.preferences),
                           ("Procedures that worked", d.procedures)):
        if items:
            parts += [f"## {heading}", "",
                      *("- " + NOT_A_TAG.sub(ESCAPED, text) for text, _ in items), ""]
    if d.commands:
        parts += ["## Commands run", "", *(f"- `{c}`" for c in d.commands), ""]
    if d.files:
        parts += ["## Files touched", "", *(f"- `{f}`" for f in d.files), ""]
    return fm, "\n".join(parts)


@dataclass(frozen=True)
class Compressed:
    session: Session
    path: str
    written: bool
    why: str = ""
    proposals: list[str] = field(default_factory=list)


def compress(mem: Store, session: Session, lines_path: Any, run: str | None = None,
             llm: bool = True) -> Compressed:
    """Write the session note for ``session`` (once; a note a person edited since is left
    as it is) and propose its preferences for hot memory."""
    from .sessions import raw_store

    msgs = list(messages(lines_path))
    if not any(m.role == "user" and not m.command for m in msgs):
        return Compressed(session, "", False, "nothing was asked in it")
    digest = extract(msgs, session)
    if llm and mem.settings.llm_model:
        from .session_llm import enrich

        digest = enrich(mem, digest, msgs)
    fm, body = render(digest, session)
    data = clean(note_bytes(body, fm).decode("utf-8")).encode("utf-8")  # redacted twice
    path = session.note or _path(mem, session, digest)
    actor = f"sessions:{session.client}"
    if session.note and mem.vault.read_bytes(path) is not None:
        current = mem.vault.read_bytes(path)
        if current == data:
            return Compressed(session, path, False, "unchanged")
        if not _ours(mem, path):
            return Compressed(session, path, False, "the note was edited since; left as it is")
        from .vault import content_hash

        result = mem.writer(run=run, actor=actor).write(path, data, content_hash(current or b""))
    else:
        result = mem.writer(run=run, actor=actor).write(path, data, None)
    now = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    done = Session(**{**session.as_json(), "note": result.path, "compressed_at": now})
    raw_store(mem).save(done)
    return Compressed(done, result.path, result.event is not None,
                      proposals=propose_preferences(mem, digest, result.path, run))


def _path(mem: Store, session: Session, d: Digest) -> str:
    day = (session.started or session.ended or dt.datetime.now(dt.UTC).isoformat())[:10]
    folder = str(mem.settings.sessions_folder).strip("/") or "sessions"
    base = note_path(folder, f"{day} {d.title}", "")
    path, n = base, 2
    while mem.vault.read_bytes(path) is not None:
        path = f"{base[:-3]} ({n}).md"
        n += 1
    return path


def _ours(mem: Store, path: str) -> bool:
    """Whether the latest change of ``path`` was ours (a session writer's), so rewriting
    it loses nobody's edit."""
    row = mem.con.execute("SELECT actor FROM events WHERE path = ? ORDER BY at DESC, id DESC "
                          "LIMIT 1", (path,)).fetchone()
    return bool(row and str(row[0]).startswith("sessions:"))


def propose_preferences(mem: Store, d: Digest, note: str, run: str | None) -> list[str]:
    """Each stated preference not yet in hot memory, as a proposal the digest shows."""
    from .dream.journal import Journal
    from .dream.view import Action
    from .ulid import new_ulid
    from .vault import content_hash

    if not d.preferences:
        return []
    current = mem.vault.read_bytes(hot_memory.PATH)
    text = (current or b"").decode("utf-8", "replace")
    journal = Journal(mem.vault.aleph_dir)
    known = set(journal.proposals())
    out = []
    today = dt.datetime.now(dt.UTC).date()
    for pref, _mid in d.preferences[:3]:
        new = hot_memory.with_fact(text, pref, 3, today)
        if new is None:
            continue  # hot memory states it already
        action = Action("sessions", "rewrite", hot_memory.PATH,
                        content_hash(current) if current is not None else None,
                        f'remember "{pref}" (stated in [[{note[:-3]}]])', content=new,
                        propose=True)
        if action.key not in known:
            journal.propose(action, dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
                            run or new_ulid())
            out.append(action.key)
    return out
