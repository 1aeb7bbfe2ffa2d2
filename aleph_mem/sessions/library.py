"""Agent sessions as memory, the library side of ``aleph-mem sessions`` and the hooks:
ingest a transcript into the raw store and the index at once, list, show and search the
sessions, and import a client's history (every transcript it keeps, resumably).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aleph_mem.errors import BadInput, SessionNotFound
from aleph_mem.sessions import chunk_index
from aleph_mem.sessions.raw_store import IngestReport, RawStore, Session, messages
from aleph_mem.sessions.transcripts import CLIENTS, Message

if TYPE_CHECKING:
    import apsw
    import numpy as np

    from aleph_mem.settings import Settings
    from aleph_mem.store import Store


@dataclass(frozen=True)
class SessionView:
    session: Session
    messages: list[Message]

    def as_json(self) -> dict[str, Any]:
        return {"session": self.session.as_json(),
                "messages": [m.as_json() for m in self.messages]}


@dataclass(frozen=True)
class ImportReport:
    files: int
    sessions: int
    messages: int
    unchanged: int
    skipped_lines: int
    redacted: int
    failed: list[str]


def raw_store(mem: Store) -> RawStore:
    return RawStore(mem.vault.aleph_dir, mem.events.host)


def check_client(client: str) -> str:
    if client not in CLIENTS:
        raise BadInput(f"unknown client {client!r}: aleph-mem reads {', '.join(CLIENTS)}")
    return client


def ingest(mem: Store, client: str, transcript: Path, session_id: str = "", cwd: str = "",
           closed: bool = False, limit: int | None = None) -> IngestReport:
    """Read what is new in a transcript (at most ``limit`` bytes of it) into the raw
    store, and index the session."""
    check_client(client)
    if not transcript.is_file():
        raise BadInput(f"no transcript at {transcript}; give the path the client wrote "
                       "(Claude Code: ~/.claude/projects/<project>/<session>.jsonl)")
    store = raw_store(mem)
    report = store.ingest(client, transcript, session_id, cwd, closed,
                          list(mem.settings.project_roots), limit)
    if not mem.readonly and (report.added or closed):
        _, lines = store.paths(client, report.session.session_id)
        chunk_index.index_one(mem.con, report.session, lines)
    if closed:
        from aleph_mem.plugin_index import hooks_possible

        if hooks_possible():
            from aleph_mem import plugins

            plugins.session_end(report.session)
    return report


def catch_up(mem: Store, session: Session) -> IngestReport | None:
    """Read the rest of a session's transcript where a hook read only a slice of it (a
    huge backlog) or stopped before the end; None when nothing is left."""
    from aleph_mem.sessions.chat_exports import EXPORTS

    source = Path(session.source) if session.source else None
    if session.client in EXPORTS:
        return None  # an app's export is read whole when imported: nothing follows it
    if source is None or not source.is_file() or source.stat().st_size <= session.offset:
        return None
    return ingest(mem, session.client, source, session.session_id, session.cwd,
                  session.closed)


def sync(mem: Store) -> int:
    return 0 if mem.readonly else chunk_index.sync(mem.con, raw_store(mem))


def find(mem: Store, ref: str) -> tuple[Session, Path]:
    """A session (as its raw file's meta says, which `sync` just mirrored into the index)
    and the path of its messages."""
    sync(mem)
    session = chunk_index.find(mem.con, ref)
    if session is None:
        near = [h.session_id for h in chunk_index.listing(mem.con, limit=5)]
        raise SessionNotFound(ref, near)
    return session, raw_store(mem).lines_of(session)


def show(mem: Store, ref: str) -> SessionView:
    session, lines = find(mem, ref)
    return SessionView(session, list(messages(lines)))


def listing(mem: Store, project: str | None = None, limit: int = 20) -> list[
        chunk_index.SessionHit]:
    sync(mem)
    return chunk_index.listing(mem.con, project, limit)


def search(mem: Store, query: str, limit: int = 5, project: str | None = None,
           wait_for_model: bool = False) -> list[chunk_index.SessionHit]:
    """Sessions matching ``query``: by words, and by meaning when a model answers (this
    process's, the daemon's, or with ``wait_for_model`` one loaded here)."""
    from aleph_mem.index.db import snapshot

    sync(mem)
    qvec = query_vector(mem, query, wait_for_model) if _has_vectors(mem.con) else None
    with snapshot(mem.con):  # one index throughout, whatever the daemon commits meanwhile
        return chunk_index.search(mem.con, query, limit, project, qvec=qvec)


def query_vector(mem: Store, query: str, wait: bool) -> tuple[str, np.ndarray] | None:
    """("model:dim", the query's vector) from the model this process holds, else the
    running daemon's warm model, else (``wait``) the model loaded here; None when vectors
    are off or no model answers."""
    import numpy as np

    if mem.settings.embed_model in ("", "none"):
        return None
    model = mem.embedder(wait=False)
    if model is None:
        found = mem.daemon_query(query)
        if found is not None:
            return found[0], np.asarray(found[1], np.float32)
        model = mem.embedder(wait=True) if wait else None
    if model is None:
        return None
    return f"{model.name}:{model.dim}", np.asarray(model.embed([query])[0], np.float32)


def _has_vectors(con: apsw.Connection) -> bool:
    return con.execute("SELECT 1 FROM session_chunks WHERE vec IS NOT NULL "
                           "LIMIT 1").fetchone() is not None


@dataclass(frozen=True)
class SessionSummary:
    """An LLM's answer across the sessions a search found: every sentence cites them by
    number (checked: a sentence citing nothing found is dropped)."""

    answer: str | None
    citations: list[dict[str, Any]]
    note: str = ""


def summarize(settings: Settings, query: str, hits: list[chunk_index.SessionHit]) -> SessionSummary:
    from aleph_mem import llm
    from aleph_mem.recall.reflect import SYSTEM, Passage, fence, validate
    from aleph_mem.redaction.text import clean

    if not hits:
        return SessionSummary(None, [], "no session matches")
    if not llm.configured(settings):
        return SessionSummary(None, [], "no LLM configured (llm_model): read the quotes")
    passages = [Passage(i + 1, f"session {h.session_id}", "", h.title,
                        clean(f"{h.started[:10]} {h.project}: {h.title}\n" + "\n".join(
                            h.quotes)).replace("**", ""))
                for i, h in enumerate(hits)]
    prompt = "\n\n".join(fence(p) for p in passages) + f"\n\nQuestion: {query}"
    raw = llm.complete(settings, [
        {"role": "system", "content": SYSTEM.replace("notes", "past agent sessions")},
        {"role": "user", "content": prompt}])
    answer, cited = validate(raw, passages)
    return SessionSummary(answer, [{"n": n, "session_id": hits[n - 1].session_id,
                                    "started": hits[n - 1].started} for n in cited],
                          "" if answer else "the LLM's answer cited no session found")


# -- import ---------------------------------------------------------------------------------

def default_folder(client: str) -> Path:
    home = Path.home()
    return {"claude-code": Path(os.environ.get("CLAUDE_CONFIG_DIR", home / ".claude"))
            / "projects",
            "codex": Path(os.environ.get("CODEX_HOME", home / ".codex")) / "sessions",
            "gemini": home / ".gemini" / "tmp",
            "cursor": home / ".cursor" / "projects"}[client]


def transcripts(client: str, folder: Path) -> Iterator[Path]:
    """Every transcript the client keeps under ``folder`` (or ``folder`` itself, a file)."""
    if folder.is_file():
        yield folder
        return
    pattern = {"claude-code": "*.jsonl", "codex": "rollout-*.jsonl",
               "gemini": "session-*.json", "cursor": "*.jsonl"}[client]
    for path in sorted(folder.rglob(pattern)):
        if client == "claude-code" and "subagents" in path.parts:
            continue  # a sub-agent's own log: its work is in the main transcript
        yield path


def import_sessions(mem: Store, client: str, folder: Path | None = None,
                    progress: Callable[[int, int], None] | None = None) -> ImportReport:
    """Ingest every transcript of a client: idempotent (a transcript read before adds only
    what is new) and resumable (each session keeps how far its file was read)."""
    from aleph_mem.sessions.chat_exports import EXPORTS

    if client in EXPORTS:
        if folder is None:
            raise BadInput(f"give the {client} export: `aleph-mem sessions import {client} "
                           "PATH` (the zip the app sent, or its conversations.json)")
        return _import_export(mem, client, folder.expanduser(), progress)
    check_client(client)
    folder = (folder or default_folder(client)).expanduser()
    if not folder.exists():
        raise BadInput(f"no {client} transcripts at {folder}; give their folder: "
                       f"`aleph-mem sessions import {client} PATH`")
    store = raw_store(mem)
    done_before = {s.source: s.offset for s, _ in store.sessions(every_host=False)}
    paths = list(transcripts(client, folder))
    sessions = added = unchanged = skipped = redacted = 0
    failed: list[str] = []
    for n, path in enumerate(paths, 1):
        try:
            if done_before.get(str(path.resolve())) == path.stat().st_size:
                unchanged += 1
            else:
                report = ingest(mem, client, path)
                sessions += 1 if report.added else 0
                unchanged += 0 if report.added else 1
                added += report.added
                skipped += report.skipped
                redacted += report.redacted
        except (OSError, UnicodeDecodeError) as exc:
            failed.append(f"{path}: {exc}")
        if progress:
            progress(n, len(paths))
    return ImportReport(len(paths), sessions, added, unchanged, skipped, redacted, failed)


def _import_export(mem: Store, client: str, path: Path,
                   progress: Callable[[int, int], None] | None) -> ImportReport:
    from aleph_mem.sessions.chat_exports import conversations

    store = raw_store(mem)
    failed: list[str] = []
    found = list(conversations(client, path, failed))
    sessions = added = unchanged = skipped = redacted = 0
    for n, (cid, batch) in enumerate(found, 1):
        report = store.add(client, cid, batch, str(path.resolve()))
        if report.added:
            sessions += 1
            added += report.added
            _, lines = store.paths(client, cid)
            if not mem.readonly:
                chunk_index.index_one(mem.con, report.session, lines)
        else:
            unchanged += 1
        skipped += report.skipped
        redacted += report.redacted
        if progress:
            progress(n, len(found))
    return ImportReport(len(found), sessions, added, unchanged, skipped, redacted, failed)
