"""L0 → L1: a finished session becomes one session note the person owns: what was asked,
what came of it, decisions, errors met and how they were resolved, preferences stated,
commands run and files touched. Without an LLM the note is read off the transcript's
structure (who said what, which tool failed, what ran next); with one, ``session_llm``
adds what structure cannot see, every item tied to a message that says it.

The note goes through the one writer (logged, undoable); a note the person has edited is
never written over. What the person stated about themselves is handed on to hot memory
once, when the note is first written (``kept_facts``).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aleph_mem.notes.compose import note_bytes, note_path
from aleph_mem.redaction.text import clean
from aleph_mem.sessions.across_projects import promote
from aleph_mem.sessions.kept_facts import hand_on
from aleph_mem.sessions.raw_store import Session, messages
from aleph_mem.sessions.summary import Digest, extract

if TYPE_CHECKING:
    import apsw

    from aleph_mem.store import Store

NOT_A_TAG = re.compile(r"(^|\s)#(?=[\w/-])")  # "#include", "issue #42": words, not tags
ESCAPED = r"\1\\#"  # Obsidian reads "\#word" as text

def render(d: Digest, session: Session, related: list[str] | None = None) -> tuple[
        dict[str, Any], str]:
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
                           ("States, goals and constraints stated", d.stated),
                           ("Procedures that worked", d.procedures)):
        if items:
            parts += [f"## {heading}", "",
                      *("- " + NOT_A_TAG.sub(ESCAPED, text) for text, _ in items), ""]
    if d.commands:
        parts += ["## Commands run", "", *(f"- `{c}`" + (" (failed)" if c in d.failed else "")
                                           for c in d.commands), ""]
    if d.files:
        parts += ["## Files touched", "", *(f"- `{f}`" for f in d.files), ""]
    if related:
        parts += ["## Related notes", "", *(f"- [[{p.removesuffix('.md')}]]" for p in related),
                  ""]
    return fm, "\n".join(parts)


READ_TOOL = re.compile(r"(?:^|__|\.)read$")  # aleph-mem's `read`, as each client names it
NOTE_ARG = re.compile(r'"note":\s*"((?:[^"\\]|\\.)*)"')


def related_notes(mem: Store, session: Session, msgs: list[Any], limit: int = 8) -> list[str]:
    """The notes a session note links to, so it is no orphan: its project's note, when the
    vault has one, the notes the session read through aleph-mem (``read``), and the
    project's session before it."""
    from aleph_mem.errors import AlephError

    names = [session.project] if session.project else []
    for m in msgs:
        if m.role == "assistant" and m.tool and READ_TOOL.search(m.tool.lower()):
            names += [json.loads(f'"{x}"') for x in NOTE_ARG.findall(m.text)]
    out: list[str] = []
    for name in names:
        try:
            path = mem.find_note(name)
        except (AlephError, ValueError):
            continue  # not a note of this vault (a project without one, a name read wrong)
        if path not in out and not path.startswith(mem.settings.sessions_folder + "/"):
            out.append(path)
    if session.project and session.started:  # the thread of the project's work
        from aleph_mem.index.reading import previous_session_note

        before = previous_session_note(mem.con, session.project, session.started)
        if before and before not in out:
            out.append(before)
    return out[:limit]


@dataclass(frozen=True)
class Compressed:
    session: Session
    path: str
    written: bool
    why: str = ""
    proposals: list[str] = field(default_factory=list)


def compress(mem: Store, session: Session, lines_path: Any, run: str | None = None,
             llm: bool = True) -> Compressed:
    """A finished session's note, top to bottom: its messages (L0), what happened in them,
    the note's bytes (redacted again), written once through the one writer (a note a person
    edited since is left as it is), the session marked compressed, and its preferences
    proposed for hot memory."""
    msgs = list(messages(lines_path))
    if not any(m.role == "user" and not m.command for m in msgs):
        return Compressed(session, "", False, "nothing was asked in it")
    digest, read_whole = _what_happened(mem, msgs, session, llm)
    fm, body = render(digest, session, related_notes(mem, session, msgs))
    data = clean(note_bytes(body, fm).decode("utf-8")).encode("utf-8")  # redacted twice
    path = session.note or _known_note(mem.con, session) or _path(mem, session, digest)
    written, why = _write(mem, session, path, data, run)
    if written is None:
        if not read_whole or session.enrich_failures:  # count the try, or that it worked
            session = _mark_compressed(mem, session, session.note or path, read_whole)
        return Compressed(session, path, False, why)
    if session.compressed_at:  # handed on once, when first written: a veto stays a veto
        done = _mark_compressed(mem, session, written.path, read_whole)
        return Compressed(done, written.path, written.event is not None)
    proposals = hand_on(mem, digest, written.path, session.client, run)
    promote(mem, digest, session, written.path, run)
    done = _mark_compressed(mem, session, written.path, read_whole)  # (last: all of it done)
    return Compressed(done, written.path, written.event is not None, proposals=proposals)


def _what_happened(mem: Store, msgs: list, session: Session, llm: bool) -> tuple[Digest, bool]:
    """(what the session did, whether an LLM configured read all of it)."""
    digest = extract(msgs, session)
    if llm and mem.settings.llm_model:
        from aleph_mem.sessions.llm_summary import enrich

        return enrich(mem.settings, digest, msgs)
    return digest, True


def _write(mem: Store, session: Session, path: str, data: bytes,
           run: str | None) -> tuple[Any, str]:
    """(the write's result, or None and why nothing was written)."""
    writer = mem.writer(run=run, actor=f"sessions:{session.client}")
    current = mem.vault.read_bytes(path)
    if current is None:
        return writer.write(path, data, None), ""
    if current == data:
        return None, "unchanged"
    if not _ours(mem, path):
        return None, "the note was edited since; left as it is"
    from aleph_mem.files.vault import content_hash

    return writer.write(path, data, content_hash(current)), ""


def _mark_compressed(mem: Store, session: Session, path: str, read_whole: bool = True) -> Session:
    """The session's note, when, and how many times its LLM reading failed (a later run
    tries again, up to ENRICH_TRIES)."""
    from aleph_mem.sessions.library import raw_store

    now = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    failures = 0 if read_whole else session.enrich_failures + 1
    done = Session(**{**session.as_json(), "note": path, "compressed_at": now,
                      "enrich_failures": failures})
    raw_store(mem).save(done)
    return done


def _known_note(con: apsw.Connection, session: Session) -> str | None:
    """The note this session already has (its id decides): a session imported again after
    its transcript was removed gets the same note, not a second one."""
    from aleph_mem.index.reading import session_note

    return session_note(con, session.session_id, session.client)


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
    last = mem.log(path=path, limit=1)
    return bool(last) and last[0].actor.startswith("sessions:")
