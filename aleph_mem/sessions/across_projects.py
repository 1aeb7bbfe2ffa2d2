"""A fix or a decision that a second project meets: promoted from the projects' session
notes to one person-wide note, ``<sessions folder>/Across projects.md``, so what was learned
in one project is there when the same thing comes up in the next (search and the prompt hook
find it; each entry links the sessions that met it).

"The same thing": an error whose first line says the same once paths, numbers, quoted
values and ids are set aside (most of its words shared), fixed in at least one of them; a
decision with most of its words the same. A second session of the same project is no
second project."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from aleph_mem.index.reading import other_projects_session_notes
from aleph_mem.notes.facts import content_words, jaccard
from aleph_mem.sessions.session_start import sections

if TYPE_CHECKING:
    from aleph_mem.sessions.raw_store import Session
    from aleph_mem.sessions.summary import Digest
    from aleph_mem.store import Store

NAME = "Across projects.md"
SAME = 0.75  # shared words (Jaccard) for two errors or decisions to be one
MIN_WORDS = 4
LOOKED_AT = 200  # other projects' latest session notes compared
VARYING = re.compile(r"`[^`]*`|\"[^\"]*\"|'[^']*'|\S*[/\\]\S*|\b0x[0-9a-f]+\b|\b[0-9a-f]{7,}\b|"
                     r"\d+(?:\.\d+)*")
FIXED = " → "


def what_it_says(item: str) -> set[str]:
    """An error's or a decision's words, what varies between projects set aside."""
    problem = item.split(FIXED, 1)[0]
    return content_words(VARYING.sub(" ", problem.casefold()))


def promote(mem: Store, d: Digest, session: Session, note: str,
            run: str | None) -> list[str]:
    """The entries this session added to the person-wide note."""
    if not session.project:
        return []
    said = [("fix", t) for t, _ in d.errors if FIXED in t] + [("decision", t)
                                                                for t, _ in d.decisions]
    mine = [(k, t, w) for k, t in said if len(w := what_it_says(t)) >= MIN_WORDS]
    if not mine:
        return []
    folder = str(mem.settings.sessions_folder).strip("/") or "sessions"
    path = f"{folder}/{NAME}"
    current = (mem.vault.read_bytes(path) or b"").decode("utf-8", "replace")
    added: list[str] = []
    for other, project in other_projects_session_notes(mem.con, session.project, LOOKED_AT):
        body = (mem.vault.read_bytes(other) or b"").decode("utf-8", "replace")
        found = sections(body)
        theirs = found.get("Errors and fixes", []) + found.get("Decisions", [])
        for kind, text, words in list(mine):
            if not any(jaccard(words, what_it_says(t)) >= SAME for t in theirs):
                continue
            entry = (f"- {kind}, met in {session.project} ([[{note[:-3]}]]) and {project} "
                     f"([[{other[:-3]}]]): {text}")
            if f"[[{note[:-3]}]]" in current and text in current:
                continue
            added.append(entry)
            mine.remove((kind, text, words))
    if added:
        _write(mem, path, current, added, session.client, run)
    return added


def _write(mem: Store, path: str, current: str, added: list[str], client: str,
           run: str | None) -> None:
    from aleph_mem.notes.compose import note_bytes
    from aleph_mem.writes.writer import ANY

    writer = mem.writer(run=run, actor=f"sessions:{client}")
    if not current:
        body = ("# Across projects\n\nFixes and decisions that more than one of your projects "
                "met, each with the sessions that met it (written by aleph-mem from session "
                "notes; edit or delete freely).\n\n" + "\n".join(added))
        writer.write(path, note_bytes(body, {"type": "note", "category": "sessions",
                                             "tags": ["sessions"]}), None)
    else:
        writer.append(path, "\n".join(added), ANY, reason="across projects")
