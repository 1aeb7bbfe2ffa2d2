"""The front door: ``Memory`` is one open vault with every verb the CLI and the MCP server
offer, each one library call returning frozen values. The shells only parse arguments,
call a verb, and format the result or translate the error; a verb means the same thing
from the terminal and from an agent (naming, frontmatter, provenance).

``Memory`` holds one open vault, a ``store.Store`` (``Memory.open`` opens it as every
entry point does, the hook included): indexing, search, reading, history and undo live
there, and each other verb calls the module that holds its logic, handing it the store
(or just the connection, the vault or the settings), never the door itself. What the door
adds to a store's verb (the sessions' index and the dream's judgments after a reconcile,
the sessions' vectors after the notes', the checks around an undo) is written here, in
the verb, not in an override.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Self

from aleph_mem import logs
from aleph_mem.errors import AlephError, BadInput, FrontmatterTooComplex
from aleph_mem.files.locks import watcher_running
from aleph_mem.files.vault import ARCHIVE, Vault, content_hash
from aleph_mem.index import graph
from aleph_mem.index.search import Filters, Fusion, Hit, terms_notice
from aleph_mem.settings import Settings
from aleph_mem.store import Found, LinkView, NoteView, Store, notices
from aleph_mem.writes.events import Event

if TYPE_CHECKING:  # each verb loads its module when first called (fast CLI starts)
    import threading

    from aleph_mem.dream.registry import RunReport
    from aleph_mem.embed.embedders import Embedder
    from aleph_mem.index.indexer import Progress, ReconcileReport
    from aleph_mem.recall.reflect import Reflection
    from aleph_mem.recall.timeline import Timeline
    from aleph_mem.sessions.chunk_index import SessionHit
    from aleph_mem.sessions.library import ImportReport, SessionSummary, SessionView
    from aleph_mem.sessions.raw_store import Session
    from aleph_mem.sessions.session_note import Compressed
    from aleph_mem.sessions.working_memory import Envelope
    from aleph_mem.writes.purge import PurgeReport
    from aleph_mem.writes.undo import UndoReport
    from aleph_mem.writes.writer import WriteResult

# the front door's vocabulary: the values its verbs take and return, named here so the
# shells import nothing below it (those not already loaded load when first named)
__all__ = ["Envelope", "Event", "Filters", "Found", "GraphView", "LinkView", "Memory",
           "NoteView", "Reflection", "WriteResult"]
HOT_MEMORY_IS_THE_PERSONS = (
    "MEMORY.md is the person's hot memory, handed to every session: an agent adds a fact "
    "with `remember` and takes back a fact an agent added with `forget` (path \"MEMORY.md\" "
    "and `fact`); any other change to it is the person's to make")
_LATER = {"Reflection": "aleph_mem.recall.reflect",
          "Envelope": "aleph_mem.sessions.working_memory",
          "WriteResult": "aleph_mem.writes.writer"}


def __getattr__(name: str) -> Any:
    if name not in _LATER:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(_LATER[name]), name)


log = logs.get(__name__)

MAX_DEPTH = 50  # frontmatter nesting read for secrets (YAML aliases can make it endless)
GraphAction = Literal["links", "backlinks", "neighbours", "path"]


@dataclass(frozen=True)
class GraphView:
    note: str
    links: list[str] | None = None
    backlinks: list[str] | None = None
    neighbours: list[dict[str, Any]] | None = None
    to: str | None = None
    path: list[str] | None = None


@dataclass(frozen=True)
class DreamStatus:
    state: Literal["running", "not running"]  # the daemon
    runs: list[dict[str, Any]]
    open_proposals: int
    daemon: dict[str, Any] = field(default_factory=dict)


class Memory:
    """The front door: one open vault (``store``) and every verb the shells call."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @classmethod
    def open(cls, root: Path, flags: dict[str, Any] | None = None,
             actor: str = "cli") -> Self:
        return cls(Store.open(root, flags, actor))

    def sibling(self, actor: str | None = None) -> Self:
        """The same vault and settings on a connection of its own (for another thread)."""
        return type(self)(self.store.sibling(actor))

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- what the shells read of the open vault ---------------------------------------------

    @property
    def vault(self) -> Vault:
        return self.store.vault

    @property
    def settings(self) -> Settings:
        return self.store.settings

    @property
    def actor(self) -> str:
        return self.store.actor

    @property
    def readonly(self) -> str | None:
        """Why the index cannot be written, or None."""
        return self.store.readonly

    @property
    def vector_problem(self) -> str:
        return self.store.vector_problem

    @property
    def one_shot(self) -> bool:
        return self.store.one_shot

    @one_shot.setter
    def one_shot(self, value: bool) -> None:
        self.store.one_shot = value

    def sync_events(self) -> None:
        self.store.sync_events()

    # -- indexing and vectors --------------------------------------------------------------

    def reindex(self, rebuild: bool = False, progress: Progress | None = None,
                only: set[str] | None = None,
                local: set[str] | None = None) -> ReconcileReport:
        """The store's reconcile; a whole one also brings the captured sessions' index in
        step with their raw files (a rebuilt index gets them back) and the dream's
        judgments with its journal."""
        report = self.store.reindex(rebuild, progress, only, local)
        if only is None and not self.store.readonly:
            from aleph_mem.dream import judgments
            from aleph_mem.dream.journal import Journal
            from aleph_mem.sessions import library

            library.sync(self.store)
            judgments.refresh(self.store.con, Journal(self.vault.aleph_dir))
        return report

    def embed(self, progress: Progress | None = None, stop: threading.Event | None = None,
              workers: int = 1, limit: int | None = None) -> int:
        """Vectors for the notes' chunks, then for the captured sessions' chunks."""
        from aleph_mem.sessions import chunk_vectors

        return self.store.embed(progress, stop, workers, limit, more=lambda model, cache, st:
                                chunk_vectors.embed_pending(self.store.con, model, cache, st))

    def embedder(self, wait: bool = True) -> Embedder | None:
        return self.store.embedder(wait)

    def vector_state(self) -> dict[str, Any]:
        return self.store.vector_state()

    # -- searching and reading ---------------------------------------------------------------

    def search(self, query: str, limit: int | None = None, filters: Filters | None = None,
               group: bool = True, mode: str = "hybrid", explain: bool = False,
               fusion: Fusion | None = None, wait_for_model: bool = True,
               now: str | None = None) -> Found:
        """The hits and this search's own notice (``Store.search``)."""
        return self.store.search(query, limit, filters, group, mode, explain, fusion,
                                 wait_for_model, now)

    def show(self, ref: str) -> NoteView:
        return self.store.show(ref)

    def shown(self, text: str) -> str:
        return self.store.shown(text)

    def status(self) -> dict[str, Any]:
        return self.store.status()

    def log(self, path: str | None = None, since: str | None = None,
            actor: str | None = None, limit: int = 100) -> list[Event]:
        return self.store.log(path, since, actor, limit)

    # -- writing -------------------------------------------------------------------------

    def write_note(self, content: str, path: str | None = None, title: str | None = None,
                   folder: str = "inbox", frontmatter: dict[str, Any] | None = None,
                   expected_hash: str | None = None, related_files: list[str] | None = None,
                   actor: str | None = None) -> WriteResult:
        """Create a note (at ``path``, or named from ``title`` in ``folder``), or replace
        one given the hash it was read with."""
        from aleph_mem.notes import compose

        content, said = _no_secrets(content)
        frontmatter, said_fm = _no_secrets_in(frontmatter)
        if title:
            title, said_title = _no_secrets(title)
            said += said_title
        self._refuse_for_person(actor, said + said_fm)
        target = _no_secret_in_name(path) or compose.note_path(folder, title, content)
        related = None
        if related_files:
            allowed = [self.vault.root, *map(Path, self.settings.project_roots)]
            related = compose.file_hashes(related_files, (frontmatter or {}).get(
                "project_root"), allowed)
        data = compose.note_bytes(content, frontmatter, related)
        self._not_hot_memory(actor, target)
        return _told(self.store.writer(actor=actor).write(target, data, expected_hash),
                     said + said_fm)

    def same_facts(self, path: str, limit: int = 3) -> list[str]:
        """Other notes that already state what the note at ``path`` states (the same facts,
        nearly the same words): so an agent can edit one instead of adding a duplicate."""
        from aleph_mem.notes.facts import same_facts
        from aleph_mem.notes.note_parts import body_of_text

        data = self.vault.read_bytes(path)
        if data is None:
            return []
        body = body_of_text(data.decode("utf-8", "replace"))
        words = " ".join(body.split()[:40])
        out = []
        for hit in self.store.search(words, limit=10, mode="fts", group=True).hits:
            other = self.vault.read_bytes(hit.path) if hit.path != path else None
            if other is not None and same_facts(body, body_of_text(
                    other.decode("utf-8", "replace"))):
                out.append(hit.path)
        return out[:limit]

    def write_bytes(self, path: str, data: bytes, expected_hash: str | None = None,
                    actor: str | None = None) -> WriteResult:
        """Create or replace a note with these bytes (the CLI's stdin), secrets taken out."""
        self._not_hot_memory(actor, path)
        text, said = _no_secrets(data.decode("utf-8", "surrogateescape"))
        self._refuse_for_person(actor, said)
        if said:
            data = text.encode("utf-8", "surrogateescape")
        return _told(self.store.writer(actor=actor).write(_no_secret_in_name(path) or path, data,
                                                    expected_hash), said)

    def edit_note(self, path: str, expected_hash: str | None = None,
                  append: str | None = None, under: str | None = None,
                  set_keys: dict[str, Any] | None = None, unset: list[str] | None = None,
                  actor: str | None = None) -> WriteResult:
        """Change part of a note: frontmatter keys set or removed, then text appended (at
        the end, or at the end of the section ``under``); the rest stays byte for byte."""
        if append is None and not set_keys and not unset:
            raise BadInput("nothing to do: give text to append, or keys to set or remove")
        self._not_hot_memory(actor, path)
        w = self.store.writer(actor=actor)
        expected = expected_hash or unchecked()
        result = None
        set_keys, said = _no_secrets_in(set_keys)
        if append is not None:
            append, more = _no_secrets(append)
            said += more
        self._refuse_for_person(actor, said)
        if set_keys or unset:
            try:
                result = w.set_frontmatter(path, set_keys or {}, unset or [], expected)
            except (FrontmatterTooComplex, RecursionError) as exc:
                why = str(exc) or "nested too deeply"
                raise BadInput(f"a value is too complex to keep in frontmatter ({why}): give "
                               "it as plain text (quoted)") from None
            expected = result.hash or expected
        if append is not None:
            result = w.append(path, append, expected, under)
        assert result is not None
        return _told(result, said)

    def move_note(self, old: str, new: str, expected_hash: str | None = None,
                  actor: str | None = None) -> WriteResult:
        self._not_hot_memory(actor, old, new)
        return self.store.writer(actor=actor).move(old, _no_secret_in_name(new) or new,
                                             expected_hash or unchecked())

    def archive_note(self, path: str, reason: str = "manual", expected_hash: str | None = None,
                     actor: str | None = None) -> WriteResult:
        """Move a note under ``archive/`` with the archive keys (``forget`` for agents); a
        secret in the reason is taken out (the reason is kept in the note and the log)."""
        self._not_hot_memory(actor, path)
        reason, said = _no_secrets(reason)
        self._refuse_for_person(actor, said)
        return _told(self.store.writer(actor=actor).archive(path, expected_hash or unchecked(),
                                                      reason), said)

    def _refuse_for_person(self, actor: str | None, said: list[str]) -> None:
        """A person's own write (the CLI) that holds a secret is refused whole, nothing
        written: their text is theirs and is never stored changed. An agent's write is
        stored with the secret taken out, and its answer says so (``_told``)."""
        from aleph_mem.writes.events import by_person

        if said and by_person(actor or self.actor):
            kinds = ", ".join(sorted(set(said)))
            raise BadInput(f"the text holds {len(said)} secret(s) ({kinds}): aleph-mem keeps "
                           "none in the vault or its history, so nothing was written; take "
                           "them out (keep them in the environment or a secret store) and "
                           "write again")

    def restore_note(self, path: str, expected_hash: str | None = None,
                     actor: str | None = None) -> WriteResult:
        self._not_hot_memory(actor, path, path.removeprefix(ARCHIVE))
        return self.store.writer(actor=actor).restore(path, expected_hash or unchecked())

    def remember(self, fact: str, priority: int = 3, actor: str | None = None) -> WriteResult:
        """One durable fact into hot memory (MEMORY.md), within its budget; a secret in it
        is taken out first (hot memory is handed to every session)."""
        from aleph_mem.recall.hot_memory import remember

        fact, said = _no_secrets(fact)
        self._refuse_for_person(actor, said)
        return _told(remember(self.store, fact, priority, actor), said)

    def forget_fact(self, path: str, fact: str, actor: str | None = None) -> WriteResult:
        """An agent takes back a fact it (or another agent) added to hot memory; the
        person's facts are refused (``hot_memory.forget``)."""
        from aleph_mem.recall.hot_memory import PATH, forget

        if not self._is_hot_memory(path):
            raise BadInput(f"`fact` names a fact of hot memory: give path {PATH!r} with it, "
                           "or leave `fact` out to archive the note")
        return forget(self.store, fact, actor or self.actor)

    def _is_hot_memory(self, path: str | None) -> bool:
        from aleph_mem.files.names import fold_name
        from aleph_mem.recall.hot_memory import PATH

        try:
            rel = self.vault.normalise(path) if path else ""
        except AlephError:
            return False  # the writer refuses it, with its own reason
        return fold_name(rel) == fold_name(PATH)

    def _not_hot_memory(self, actor: str | None, *paths: str | None) -> None:
        """Hot memory is the person's standing facts, handed to every session: an agent
        changes it only through `remember` and `forget` of an agent's fact."""
        from aleph_mem.writes.events import by_agent

        if by_agent(actor or self.actor) and any(self._is_hot_memory(p) for p in paths):
            raise BadInput(HOT_MEMORY_IS_THE_PERSONS)

    # -- reading ---------------------------------------------------------------------------

    def context(self, query: str | None = None, budget_tokens: int = 2000,
                folder: str | None = None, project: str | None = None,
                as_of: str | None = None) -> Envelope:
        from aleph_mem.sessions.working_memory import assemble

        return assemble(self.store, query, max(200, budget_tokens), folder, project, as_of)

    def reflect(self, question: str, limit: int = 8) -> Reflection:
        from aleph_mem.recall.reflect import reflect

        return reflect(self.store, question, min(max(limit, 1), 20))

    def graph(self, note: str, action: GraphAction = "neighbours", depth: int = 1,
              to: str | None = None) -> GraphView:
        src = self.store.find_note(note)
        if action == "links":
            return GraphView(src, links=graph.outgoing(self.store.con, src))
        if action == "backlinks":
            return GraphView(src, backlinks=graph.backlinks(self.store.con, src))
        if action == "path":
            if not to:
                raise BadInput("`path` needs the note to reach: `to` (`--to` in the CLI)")
            dst = self.store.find_note(to)
            return GraphView(src, to=dst, path=graph.path_between(self.store.con, src, dst))
        near = graph.neighbours(self.store.con, src, depth)
        return GraphView(src, neighbours=[{"path": p, "distance": d} for p, d in near.items()])

    def undo(self, target: str, actor: str | None = None) -> UndoReport:
        """Undo an event or a whole run. A dream run's own pages (the digest) are not
        restored but written anew from the history as it now stands, after any undo of
        the dream's changes (so the digest never says the dream changed a note it gave back).
        An agent's undo never takes back what the person (or their tick) wrote to hot
        memory."""
        from aleph_mem.writes.events import by_agent

        if by_agent(actor or self.actor):
            from aleph_mem.writes.undo import events_for

            if any(not by_agent(e.actor) and (self._is_hot_memory(e.path) or
                                              self._is_hot_memory(e.data.get("from")))
                   for e in events_for(self.store.writer(actor=actor), target)):
                raise BadInput(f"{target} changed MEMORY.md as the person or their tick: "
                               + HOT_MEMORY_IS_THE_PERSONS)
        report = self.store.undo(target, actor)
        if (report.regenerate or report.dreamt or report.undone and self._digest_today()) \
                and not self.readonly:
            try:
                self.dream(("digest",), force=True)
            except AlephError as exc:  # a dream running now: its digest covers the undo
                log.info("digest not regenerated after undo: %s", exc)
        return report

    def purge(self, text: str) -> PurgeReport:
        """Take ``text`` (a secret pasted by mistake) out of everything aleph-mem keeps: the
        live notes (a logged edit each, the text replaced by ``[REDACTED:purged]``), every
        stored version, the event log, captured transcripts and the dream's journal (masked
        in place), then the index (rebuilt). The purge is logged: what and when, never the
        text. Copies on other devices and in backups are out of its reach (docs/history.md)."""
        from aleph_mem.files.locks import write_lock
        from aleph_mem.writes.events import make_event
        from aleph_mem.writes.purge import MIN_CHARS, PurgeReport, purge_stored

        self.store.require_writable()
        if len(text.strip()) < MIN_CHARS or "\n" in text:
            raise BadInput(f"give the exact text to purge, on one line and at least {MIN_CHARS} "
                           "characters (a shorter one would mask ordinary words everywhere)")
        if watcher_running(self.vault.local_dir):
            raise AlephError("the daemon is running and writes history as it goes: stop it "
                             "(`systemctl --user stop aleph-mem`, or end `aleph-mem daemon`), "
                             "purge, then start it again")
        edited = []
        secret = text.encode("utf-8")
        with write_lock(self.vault.local_dir):
            writer = self.store.writer(actor="cli")
            for path in sorted(self.vault.walk(self.settings.ignore).notes):
                data = self.vault.read_bytes(path) or b""
                if secret in data:
                    new = data.replace(secret, b"[REDACTED:purged]")
                    writer.write(path, new, content_hash(data), reason="purge")
                    edited.append(path)
            versions, files = purge_stored(self.vault.aleph_dir, text)
            event = make_event("cli", "purge", "*", None, None, reason="purge", data={
                "versions": versions, "files": files, "notes": edited})
            self.store.events.append(event)
        self.reindex(rebuild=True)
        return PurgeReport(versions, files, tuple(edited), event.id)

    def _digest_today(self) -> bool:
        """Today's digest is written: after any undo it is written anew, so it never says a
        note changed in a way that was taken back."""
        from aleph_mem.clock import utc_now
        from aleph_mem.dream.digest import digest_path

        return self.vault.read_bytes(digest_path(utc_now().date())) is not None

    def browse(self, filters: Filters | None = None, project: str | None = None,
               limit: int = 20) -> list[Hit]:
        """The notes in a folder, with a tag, or of a project, newest first (no query)."""
        from aleph_mem.index.search import browse

        return browse(self.store.con, filters or Filters(), project, min(max(limit, 1), 200))

    # -- the vault as it was ---------------------------------------------------------------

    def search_as_of(self, query: str, as_of: str, limit: int | None = None,
                     filters: Filters | None = None) -> Found:
        """The vault searched as it was at ``as_of`` (a date: the end of that day, or a
        time): notes created since absent, notes changed since with their text of then.
        The notice says where aleph-mem's memory of the vault starts."""
        from aleph_mem.recall import as_of as history

        hits, notice = history.search(
            self.store, query, history.moment(as_of), limit or int(self.settings.search_limit),
            filters)
        return Found([self.store.hit_shown(h) for h in hits],
                     notices(notice, terms_notice(query)))

    def show_as_of(self, ref: str, as_of: str) -> NoteView:
        """A note as it was at ``as_of`` (found by its name now, or its path then)."""
        from aleph_mem.notes.parser import parse
        from aleph_mem.recall import as_of as history

        path, text, v = history.read(self.store, ref, history.moment(as_of))
        note = parse(text.encode("utf-8"), path.rsplit("/", 1)[-1][:-3])
        return NoteView(path, self.store.shown(note.title),
                        self.store.values_shown(note.frontmatter),
                        v.hash or "", [t for t, _ in note.tags], note.aliases, [], [],
                        self.store.shown(text), note.issues,
                        version={"as_of": as_of, "since": v.at, "event": v.event,
                                 "by": v.actor})

    def timeline(self, subject: str, since: str | None = None) -> Timeline:
        """What changed about ``subject`` (a note, its aliases, or the notes about it), in
        time order: each change with who made it and the lines that changed, the dates its
        notes state, and the agent sessions that mention it."""
        from dataclasses import replace

        from aleph_mem.index.timespec import parse_when
        from aleph_mem.recall.timeline import Entry, build

        when = parse_when(since, "--since") if since else None
        found = build(self.store, subject, when)
        sessions = [Entry(h.started, "session", h.note or f"session {h.session_id}",
                          f"{h.client} session: {h.title}") for h in
                    self.session_search(subject, 5) if h.started >= (when or "")]
        entries = sorted(found.entries + sessions,
                         key=lambda e: (e.at, e.what != "stated", e.path))
        return replace(found, entries=entries)

    def read_section(self, note: str, heading: str) -> tuple[NoteView, str]:
        """A note and the text of one of its headings' sections (the heading line, its
        body and its subsections); an unknown heading is an error that lists the headings."""
        from aleph_mem.notes.sections import find_section

        view = self.store.show(note)
        lines = view.content.split("\n")
        start, end = find_section(lines, heading)
        return view, "\n".join(lines[start:end]).rstrip() + "\n"

    def record_recall(self, paths: set[str], day: str) -> None:
        """Notes a person's agent was shown count as recalled that day (decay keeps them
        longer). A read-only or full disk loses the signal, never the read."""
        from aleph_mem.dream.journal import Journal

        journal = Journal(self.vault.aleph_dir)
        for path in sorted(paths):
            try:
                journal.record_recall(path, day)
            except OSError as exc:
                log.info("recall of %s not recorded: %s", path, exc)
                return

    def recent(self, limit: int = 20, since: str | None = None, actor: str | None = None,
               path: str | None = None) -> list[Event]:
        return self.log(path, since, actor, limit)

    # -- agent sessions ------------------------------------------------------------------------

    def session_list(self, project: str | None = None, limit: int = 20) -> list[SessionHit]:
        from aleph_mem.sessions import library

        return library.listing(self.store, project, limit)

    def session_search(self, query: str, limit: int = 5, project: str | None = None,
                       wait_for_model: bool = False) -> list[SessionHit]:
        from aleph_mem.sessions import library

        return library.search(self.store, query, limit, project, wait_for_model=wait_for_model)

    def session_summary(self, query: str, hits: list[SessionHit]) -> SessionSummary:
        """An answer across the sessions found, each sentence citing them (with an LLM)."""
        from aleph_mem.sessions import library

        return library.summarize(self.store.settings, query, hits)

    def session_show(self, ref: str) -> SessionView:
        from aleph_mem.sessions import library

        return library.show(self.store, ref)

    def session_import(self, client: str, folder: Path | None = None,
                       progress: Any = None) -> ImportReport:
        """A client's whole history (or one export), resumably."""
        from aleph_mem.sessions import library

        return library.import_sessions(self.store, client, folder, progress)

    def session_compress(self, ref: str | None = None, every: bool = False) -> list[Compressed]:
        """Session notes for one session (``ref``) or every finished one."""
        from aleph_mem.sessions.upkeep import compress_finished, compress_one

        return [compress_one(self.store, ref)] if ref else compress_finished(self.store, every)

    def session_prune(self, days: int | None = None) -> list[Session]:
        """Captured transcripts captured more than ``days`` ago (default the
        ``raw_retention_days`` setting) removed, once their note exists (the notes stay)."""
        from aleph_mem.sessions.upkeep import prune

        return prune(self.store, days=days)

    # -- the daemon and the dream ------------------------------------------------------------

    def daemon_state(self) -> dict[str, Any]:
        """What the running daemon last wrote about itself, and whether it runs."""
        from aleph_mem.files.daemon_status import read_status

        body = read_status(self.vault.local_dir) or {}
        body["state"] = "running" if watcher_running(self.vault.local_dir) else "not running"
        return body

    def full_status(self) -> dict[str, Any]:
        """``status``: counts, problems, links, the daemon and the vectors (never loads the
        embedding model)."""
        info = self.status()
        info["daemon"] = self.daemon_state()
        info["dreamer"] = self.dreamer()
        info["vectors"] = self.vector_state()
        info["sessions"] = self.sessions_state()
        if info["vectors"]["model"] is None and not info["vectors"]["problem"]:
            info["vectors"]["problem"] = (
                "vectors are off (embed_model = \"none\")" if self.settings.embed_model
                in ("", "none") else "no vectors yet: `aleph-mem index` or the daemon "
                "computes them")
        return info

    def sessions_state(self) -> dict[str, Any]:
        """Captured agent sessions (from the index: `status` reads no transcript): how
        many, the latest, and how many have no session note yet."""
        from aleph_mem.sessions.session_counts import counts

        return counts(self.store.con)

    def dream(self, passes: tuple[str, ...] = (), dry_run: bool = False, force: bool = False,
              weekly: bool = False, trigger: str = "manual",
              anyway: bool = False) -> RunReport:
        """Run the dream's passes (default: the daily or weekly pipeline) and return its
        RunReport; every change of a real run is undone with ``undo(run_id)``. On a device
        that is not the vault's dreamer nothing runs (``note`` says why) unless ``anyway``.
        A run reconciles the notes first; the captured sessions' index is brought in step
        after it, as a whole ``reindex`` does (no pass reads it)."""
        from aleph_mem.dream.runner import Dream

        report = Dream(self.store, dry_run=dry_run, force=force, anyway=anyway).run(
            passes or None, trigger, weekly)
        if report.status != "not the dreamer" and not self.store.readonly:
            from aleph_mem.sessions import library

            library.sync(self.store)
        return report

    def dream_if_due(self, idle_seconds: float | None) -> RunReport | None:
        """The scheduled run (docs/design.md 5): the daily or weekly pipeline when one is due
        after ``idle_seconds`` of quiet, else None."""
        from aleph_mem.clock import utc_now
        from aleph_mem.dream.schedule import dream_due, weekly_due

        if not dream_due(self.store, utc_now(), idle_seconds):
            return None
        return self.dream(trigger="scheduled", weekly=weekly_due(self.store, utc_now()))

    def dreamer(self, take: bool = False) -> dict[str, Any]:
        """The vault's dreamer (the one device that dreams), made this device if ``take``."""
        from aleph_mem.clock import utc_now
        from aleph_mem.dream import lease
        from aleph_mem.writes.events import host_id

        me = host_id(self.vault.local_dir) if take else None
        held = lease.set_here(self.vault.aleph_dir, me, utc_now()) if me else \
            lease.read(self.vault.aleph_dir)
        if held is None:
            return {"host": None, "note": "no dreamer yet: the first device to dream claims it"}
        here = (self.vault.local_dir / "host-id").exists() and \
            host_id(self.vault.local_dir) == held.host
        return {"host": held.host, "since": held.since, "last_run": held.seen, "how": held.how,
                "this_device": here,
                "silent_hours": round(lease.silent_hours(held, utc_now()), 1)}

    def dream_status(self, runs: int = 10) -> DreamStatus:
        from aleph_mem.dream.journal import Journal

        journal = Journal(self.vault.aleph_dir)
        daemon = self.daemon_state()
        return DreamStatus(daemon["state"], journal.runs()[-runs:],
                           len(self.proposals()), daemon)

    def proposals(self) -> list[dict[str, Any]]:
        """Changes waiting for a person's tick in the digest."""
        from aleph_mem.dream.journal import Journal

        return [p for p in Journal(self.vault.aleph_dir).proposals().values()
                if p["state"] == "open"]

    def proposal_marks(self) -> Any:
        """The boxes marked in the digests and on the proposals page, as the next dream run
        reads them: ticked and dismissed ids, and the marks an agent made (not counted)."""
        from aleph_mem.dream.proposals import marks

        return marks(self.store)

    def mark_proposal(self, pid: str, box: Literal["x", "-"],
                      actor: str | None = None) -> WriteResult:
        """Tick (``x``) or dismiss (``-``) an open proposal's box, as a person does in their
        editor: the next dream run applies or drops it; ``undo`` takes the mark back."""
        from aleph_mem.dream.proposals import mark

        if pid not in {p["id"] for p in self.proposals()}:
            raise BadInput(f"no open proposal {pid!r} (`aleph-mem dream proposals` lists "
                           "them)")
        return mark(self.store, pid, box, actor or self.actor)


def _no_secrets(text: str) -> tuple[str, list[str]]:
    """The text with every secret replaced by ``[REDACTED:kind]``, and the kinds taken out:
    no secret is stored, whoever writes it (docs/agents.md)."""
    import re

    from aleph_mem.redaction.text import redact

    out, n = redact(text)
    return out, re.findall(r"\[REDACTED:([a-z-]+)\]", out)[-n:] if n else []


def _no_secrets_in(values: dict[str, Any] | None) -> tuple[dict[str, Any] | None, list[str]]:
    """Frontmatter with every secret taken out, in nested lists and mappings too, keys
    included (a value is read with its key: ``password: …``)."""
    if not values:
        return values, []
    said: list[str] = []

    def clean(value: Any, key: str = "", depth: int = 0) -> Any:
        if depth > MAX_DEPTH:  # a recursive YAML alias, or a value nested past reading
            raise BadInput("a value is too complex to keep in frontmatter (nested more than "
                           f"{MAX_DEPTH} deep): give it as plain text (quoted)")
        if isinstance(value, str):
            out, kinds = _no_secrets(f"{key}: {value}" if key else value)
            said.extend(kinds)
            return out.split(": ", 1)[1] if key else out
        if isinstance(value, list):
            return [clean(v, key, depth + 1) for v in value]
        if isinstance(value, dict):
            return {clean(k, "", depth + 1) if isinstance(k, str) else k:
                    clean(v, str(k), depth + 1) for k, v in value.items()}
        return value

    return clean(values), said


def _no_secret_in_name(path: str | None) -> str | None:
    """A note's path as given, refused when it holds a secret (a file name syncs to every
    device and shows in every listing; it cannot be redacted and still name the note)."""
    if path and _no_secrets(path)[1]:
        kinds = ", ".join(sorted(set(_no_secrets(path)[1])))
        raise BadInput(f"the note's path holds a secret ({kinds}): name the note without "
                       "it; aleph-mem never stores secrets")
    return path


def _told(result: WriteResult, said: list[str]) -> WriteResult:
    """The write's result, saying what was taken out and why, so an agent does not retry."""
    if not said:
        return result
    from dataclasses import replace

    kinds = ", ".join(sorted(set(said)))
    note = (f"{len(said)} secret(s) taken out ({kinds}) and stored as [REDACTED:…]: aleph-mem "
            "never stores secrets (they would sync and reach every session); keep them in "
            "the environment or a secret store, and write the note without them")
    return replace(result, warning=f"{note}; {result.warning}" if result.warning else note)


def unchecked() -> Any:
    """The writer's "whatever the note holds now" (no expected hash was given)."""
    from aleph_mem.writes.writer import ANY

    return ANY
