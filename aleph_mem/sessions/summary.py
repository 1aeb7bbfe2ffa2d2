"""What a session note says, read off a transcript's structure: what was asked, what came
of it, decisions, errors and their fixes, preferences, procedures, commands and files. Each
item keeps the id of the message it comes from. (``session_note`` writes it as a note;
``session_llm`` adds what structure cannot see.)"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from aleph_mem.sessions.raw_store import Session
from aleph_mem.sessions.stated import standing
from aleph_mem.sessions.transcripts import Message, rewound

SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'`(])")
DECISION = re.compile(
    r"\b(?:decided|decision|we(?:'ll| will) (?:use|go with|keep)|going with|chose|"
    r"opted (?:for|to)|settled on|switch(?:ed)? to|from now on|instead of)\b", re.I)
PREFERENCE = re.compile(
    r"\b(?:I (?:prefer|'d prefer|would prefer|like|hate)|"
    r"I (?:want|don't want|do not want)(?! (?:you|to)\b)|"  # "I want you to …": a request
    r"always|never|don't (?:ever )?use|do not use|please (?:use|don't|do not|always|never)|"
    r"let's (?:use|keep|always|never)|from now on)\b", re.I)
# a sentence holding Markdown headings or numbered lists: a summary's run-on, no decision
SUMMARY_BLOCK = re.compile(r"(?:^|\s)#{1,6} |\s\d+\. \*\*")
QUESTION_ONLY = re.compile(r"\?\s*$")
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
    stated: list[tuple[str, str]] = field(default_factory=list)  # states, goals, constraints
    procedures: list[tuple[str, str]] = field(default_factory=list)
    commands: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)  # commands that never worked in it
    files: list[str] = field(default_factory=list)


def one_line(text: str, limit: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1].rsplit(" ", 1)[0] + "…"


def sentences(text: str) -> list[str]:
    return [s.strip() for s in SENTENCE.split(" ".join(text.split())) if s.strip()]


def extract(msgs: list[Message], session: Session) -> Digest:
    """The session read off its structure."""
    gone = rewound(msgs)
    main = [m for m in msgs if not m.sidechain and m.id not in gone]
    prompts = [m for m in main if m.role == "user" and not m.command]
    client_said = next((m for m in reversed(main) if m.role == "summary"), None)
    summary = client_said.text if client_said else ""
    first = prompts[0].text if prompts else (summary or session.session_id)
    d = Digest(title=_title(summary or first))
    d.asked = [(one_line(m.text), m.id) for m in prompts[:MAX_ITEMS]]
    answers = [m for m in main if m.role == "assistant" and not m.tool]
    d.outcome = _what_changed(main, session)
    if client_said and " ".join(summary.split()).rstrip(".?!:") != d.title:  # the title cut it
        d.outcome.insert(0, (f"the client's summary: {one_line(summary, 2000)}",
                             client_said.id))
    if answers:
        d.outcome.append((_said(answers[-1].text), answers[-1].id))
    for m in answers:
        d.decisions += [(one_line(s), m.id) for s in sentences(m.text)
                        if DECISION.search(s) and not SUMMARY_BLOCK.search(s)]
    for m in prompts:
        for s in sentences(m.text):
            if standing(s) == "state":
                d.stated.append((one_line(s), m.id))
            elif PREFERENCE.search(s) and not QUESTION_ONLY.search(s):
                d.preferences.append((one_line(s), m.id))
    d.errors = _errors(main)
    d.commands, d.failed = _commands(main)
    d.files = list(dict.fromkeys(f for m in main if m.role == "assistant" and m.tool in (
        "Edit", "Write", "MultiEdit", "NotebookEdit", "apply_patch", "write_file", "replace")
        for f in m.files))
    d.procedures = _procedures(main)
    d.decisions = [x for x in d.decisions if x not in d.outcome]
    d.files = [_relative(f, session.cwd) for f in d.files]
    for name in ("decisions", "preferences", "stated"):
        setattr(d, name, list(dict.fromkeys(getattr(d, name)))[:MAX_ITEMS])
    return d


TEST_RUN = re.compile(r"\b(pytest|py\.test|unittest|tox|nox|npm (?:run )?test|yarn test|"
                      r"pnpm test|jest|vitest|cargo test|go test|mvn test|gradle test|"
                      r"rspec|phpunit|make test|ctest)\b")
# the person said no to a tool call: their choice, not an error to fix
REFUSED = re.compile(r"\s*The user doesn't want to (?:proceed|take this action)")
READERS = ("Read", "read_file", "view", "NotebookRead")
WRITERS = ("Edit", "Write", "MultiEdit", "NotebookEdit", "apply_patch", "write_file",
           "replace")


def _what_changed(msgs: list[Message], session: Session) -> list[tuple[str, str]]:
    """The outcome as work done: files written, tests run and how they ended, the todo list
    as it was left."""
    out: list[tuple[str, str]] = []
    written = [m for m in msgs if m.role == "assistant" and m.tool in WRITERS and m.files]
    read = [m for m in msgs if m.role == "assistant" and m.tool in READERS and m.files]
    for verb, used in (("changed", written), ("read", read if not written else [])):
        if not used:  # a session that only read says what it read, not "nothing changed"
            continue
        files = list(dict.fromkeys(_relative(f, session.cwd) for m in used for f in m.files))
        out.append((f"{verb} {len(files)} file{'s' if len(files) > 1 else ''}: "
                    + ", ".join(f"`{f}`" for f in files[:6]) + (" …" if len(files) > 6 else ""),
                    used[-1].id))
    runs: dict[str, tuple[str, str]] = {}
    for i, m in enumerate(msgs):
        if m.role == "assistant" and m.command and TEST_RUN.search(m.command):
            result = next((x for x in msgs[i + 1:] if x.role == "tool" and x.tool == m.tool),
                          None)
            if result is not None:
                runs[one_line(m.command, 80)] = ("failed" if result.error else "passed",
                                                 result.id)
    out += [(f"ran `{cmd}`: {how}", mid) for cmd, (how, mid) in list(runs.items())[-3:]]
    todo = next((m for m in reversed(msgs) if m.role == "assistant" and
                 m.tool in ("TodoWrite", "todo_write", "update_plan")), None)
    if todo is not None:
        items = _todo_items(todo.text)
        done = [what for what, status in items if status == "completed"]
        left = [what for what, status in items if status != "completed"]
        if items:
            said = f"todo list left with {len(done)} of {len(items)} done"
            if left:
                said += "; still open: " + "; ".join(one_line(x, 80) for x in left[:4]) + (
                    f" (and {len(left) - 4} more)" if len(left) > 4 else "")
            out.append((said, todo.id))
    return out


TODO_ITEM = re.compile(r"\{[^{}]*\}")
TODO_WHAT = re.compile(r'"(?:content|step|title|task|description)":\s*"((?:[^"\\]|\\.)*)"')
TODO_STATUS = re.compile(r'"status":\s*"(\w+)"')


def _todo_items(text: str) -> list[tuple[str, str]]:
    """A todo tool's list as (what, status) (Claude Code's ``todos``, Codex's ``plan``):
    read item by item, so a list clipped in the transcript still gives what it holds."""
    out = []
    for item in TODO_ITEM.findall(text):
        what, status = TODO_WHAT.search(item), TODO_STATUS.search(item)
        if status:
            try:
                name = json.loads(f'"{what.group(1)}"') if what else ""
            except ValueError:
                name = what.group(1) if what else ""
            out.append((name or "(unnamed)", status.group(1)))
    return out


def _said(text: str) -> str:
    """The last answer's first sentences, on one line, Markdown emphasis taken off so a cut
    never leaves a dangling ``**``."""
    plain = re.sub(r"\*\*(\S.*?)\*\*", r"\1", text)
    plain = re.sub(r"(?<!\w)__(\S.*?)__(?!\w)", r"\1", plain)
    return one_line(" ".join(sentences(plain)[:2]) or plain, 300)


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
        if m.role != "tool" or not m.error or REFUSED.match(m.text):
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


def _commands(msgs: list[Message], most: int = 12) -> tuple[list[str], list[str]]:
    """(the commands run, first run first; those of them that failed every time they ran):
    what a later session's start counts a procedure's runs by."""
    ran: dict[str, bool | None] = {}  # command -> worked at least once (None: no result seen)
    pending: dict[str, str] = {}
    for m in msgs:
        if m.role == "assistant" and m.command:
            cmd = one_line(m.command, 160)
            ran.setdefault(cmd, None)
            pending[m.tool] = cmd
        elif m.role == "tool" and m.tool in pending:
            cmd = pending.pop(m.tool)
            ran[cmd] = bool(ran[cmd]) or not m.error
    listed = list(ran)[:most]
    return listed, [c for c in listed if ran[c] is False]


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


