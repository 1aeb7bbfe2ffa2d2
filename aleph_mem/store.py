"""One open vault with its index: indexing, search, reading notes, history, undo and
vectors. The passes, the context envelope and reflection take it; ``memory.Memory`` (the
front door the CLI, the MCP server, the page and the daemon call) holds one and adds the
verbs that reach the sessions and the dream."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

import apsw

from aleph_mem import logs, shown
from aleph_mem.embed.model_slot import VECTORS_OFF, ModelSlot, daemon_query, kept_problem
from aleph_mem.errors import NoteNotFound, ReadOnlyVault
from aleph_mem.files.preimages import ObjectStore
from aleph_mem.files.vault import Vault, make_private
from aleph_mem.index import db, graph, health, judgments, reading
from aleph_mem.index.reading import ChunkFacts
from aleph_mem.index.search import Filters, Fusion, Hit, search, terms_notice
from aleph_mem.index.timespec import check_limit, parse_when
from aleph_mem.index.vector_reader import VectorReader
from aleph_mem.settings import Settings, load_settings
from aleph_mem.ulid import new_ulid
from aleph_mem.writes.events import Event, EventLog, last_writers, logged

if TYPE_CHECKING:  # loaded when first used: a full-text search from a terminal needs none
    import numpy as np

    from aleph_mem.embed.embedders import Embedder
    from aleph_mem.index import vectors
    from aleph_mem.index.indexer import Indexer, Progress, ReconcileReport
    from aleph_mem.writes.undo import UndoReport
    from aleph_mem.writes.unlogged import Baseline
    from aleph_mem.writes.writer import Writer

log = logs.get(__name__)

POOL_MIN = 500  # chunks: below this, starting worker processes costs more than it saves
NO_VECTORS_YET = "no vectors yet (the daemon or `index` makes them)"


@dataclass(frozen=True)
class LinkView:
    raw: str
    target: str
    anchor: str
    alias: str | None
    embed: bool
    resolved: str | None
    status: str
    line: int
    candidates: list[str]


@dataclass(frozen=True)
class NoteView:
    path: str
    title: str
    frontmatter: dict[str, Any]
    hash: str
    tags: list[str]
    aliases: list[str]
    links: list[LinkView]
    backlinks: list[str]
    content: str
    issues: list[str]
    # what the dream judged of the note without writing it (a person's note): its status,
    # why, the note that supersedes it, and the proposal that asks the person
    judgment: dict[str, Any] | None = None
    version: dict[str, Any] | None = None  # shown --as-of a date: which version this is
    others: list[str] = field(default_factory=list)  # other notes the name asked for fits

    def as_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["links"] = [{k: v for k, v in asdict(lv).items()
                         if k in ("raw", "target", "anchor", "alias", "embed", "resolved")}
                        for lv in self.links]
        return out


@dataclass(frozen=True)
class Found:
    """A search's answer: the hits, and what a reader should know of how they were found
    (full text only and why, a stale index, why nothing matched), "" when nothing. It
    belongs to this one search: a browse or a search after it has its own."""

    hits: list[Hit]
    notice: str = ""


# what the front door embeds after the notes' chunks (the sessions'), given the model,
# the cache and the stop event; returns how many it embedded
EmbedMore = Callable[["Embedder", "vectors.Cache", "threading.Event | None"], int]


class Store:
    """One open vault: its files, settings, index connection, event log and model slot.
    Every entry point opens it the same way (``Store.open``); the front door
    (``memory.Memory``) holds one and adds the verbs that reach sessions and the dream."""

    def __init__(self, vault: Vault, settings: Settings, actor: str = "cli",
                 slot: ModelSlot | None = None) -> None:
        self.vault = vault
        self.settings = settings
        self.actor = actor
        self._slot = slot
        self._objects: ObjectStore | None = None
        self._one_shot = False
        self._recovered = False
        self._open_index()

    def _open_index(self) -> None:
        make_private(self.vault.aleph_dir)
        self.con, self.created, self.readonly = db.open_index(self.vault.index_path)
        self._vec: VectorReader | None = None
        self._indexer: Indexer | None = None
        self.events = EventLog(self.vault.aleph_dir)
        self.sync_events()

    def sync_events(self) -> None:
        """Mirror new event lines into the index; a read-only check first, so readers never
        wait for the write lock when there is nothing new."""
        if self.readonly or not self.events.behind(self.con):
            return
        try:
            with db.transaction(self.con):
                self.events.sync_index(self.con)
        except (apsw.FullError, apsw.ReadOnlyError, apsw.IOError) as exc:
            self.readonly = f"the index cannot be updated ({exc})"

    @classmethod
    def open(cls, root: Path, flags: dict[str, Any] | None = None,
             actor: str = "cli") -> Self:
        vault = Vault.open(root)
        return cls(vault, load_settings(vault.root, flags), actor)

    def sibling(self, actor: str | None = None) -> Self:
        """The same vault and settings on a connection of its own (for another thread);
        settings are never read again mid-run."""
        return type(self)(self.vault, self.settings, actor or self.actor, self.model_slot)

    # made on first use: capturing a session or writing a note never needs the vectors,
    # the model's slot or the copies of past versions
    @property
    def objects(self) -> ObjectStore:
        if self._objects is None:
            self._objects = ObjectStore(self.vault.aleph_dir / "objects")
        return self._objects

    @property
    def model_slot(self) -> ModelSlot:
        if self._slot is None:
            self._slot = ModelSlot()
        return self._slot

    @property
    def vec(self) -> VectorReader:
        if self._vec is None:
            self._vec = VectorReader(self.con)
            self._vec.one_shot = self._one_shot
        return self._vec

    @property
    def one_shot(self) -> bool:
        """This process searches once (a CLI search, a hook): vectors are read from the
        index, no in-memory matrices are built (index/vector_reader.py)."""
        return self._one_shot

    @one_shot.setter
    def one_shot(self, value: bool) -> None:
        self._one_shot = value
        if self._vec is not None:
            self._vec.one_shot = value

    @property
    def vector_problem(self) -> str:
        return self.model_slot.problem

    @property
    def indexer(self) -> Indexer:
        """The indexer (its parser loads on first use: reading needs no parser)."""
        if self._indexer is None:
            from aleph_mem.index.indexer import Indexer

            self._indexer = Indexer(self.vault, self.con, self.settings, self.objects)
        return self._indexer

    def writer(self, run: str | None = None, actor: str | None = None) -> Writer:
        from aleph_mem.writes.writer import Writer

        self.require_writable()
        return Writer(self.vault, self.con, self.indexer, actor or self.actor, run,
                      self.events)

    def require_writable(self) -> None:
        if self.readonly:
            raise ReadOnlyVault(self.readonly)

    def close(self) -> None:
        self.con.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- indexing -------------------------------------------------------------------------

    def reindex(self, rebuild: bool = False, progress: Progress | None = None,
                only: set[str] | None = None, local: set[str] | None = None) -> ReconcileReport:
        """Reconcile the index with the files. Changes made outside aleph-mem become
        ``human`` events, judged against the last logged state of each path (see history):
        a rebuilt, re-created or half-built index never invents events, and a reconcile
        killed before it logged what it indexed is logged by the next (writes/unlogged.py)."""
        self.require_writable()
        if rebuild:
            self.con.close()
            db.remove_index_files(self.vault.index_path)
            self._open_index()
        self.writer().recover(sweep_objects=not self._recovered)
        self._recovered = True
        from aleph_mem.files.locks import write_lock
        from aleph_mem.writes.outside_changes import human_events, outside_changes, recovered
        from aleph_mem.writes.sync_settle import other_devices, settled
        from aleph_mem.writes.unlogged import Baseline, TakingIn

        kept, taking = Baseline(self.vault.local_dir), TakingIn(self.vault.local_dir)
        with write_lock(self.vault.local_dir):
            with db.transaction(self.con):
                self.events.sync_index(self.con)
                self._keep_baseline(kept)
            unfinished = taking.load()  # what a killed reconcile indexed and never logged
            report = self.indexer.reconcile(
                progress, only, taking_in=lambda todo: taking.save({**todo, **unfinished}))
            changes = recovered(self.con, self.vault.root, unfinished, report.changes)
            changes = outside_changes(self.con, changes, kept)
            settle = float(self.settings.sync_settle_seconds)
            if settle > 0 and other_devices(self.vault.aleph_dir, self.events.host):
                changes = settled(self.con, self.vault.local_dir, changes, settle,
                                  local or frozenset())
            report.human = human_events(changes)
            self.events.append_all(report.human)
            with db.transaction(self.con):
                self.events.sync_index(self.con)
                if only is None and not kept.complete:
                    kept.record(self.con)
                self._keep_baseline(kept)
            taking.drop()  # every change it took in is logged (or held for a sync)
        return report

    def _keep_baseline(self, kept: Baseline) -> None:
        """The baseline lives in the index (``meta``) and beside it (writes/unlogged.py):
        an index that lost it (rebuilt, deleted, damaged) takes it back; one made before
        the file existed writes it."""
        from aleph_mem.writes.outside_changes import has_baseline, mark_baseline

        if has_baseline(self.con) and not kept.complete:
            kept.record(self.con)
        if kept.complete and not has_baseline(self.con):
            mark_baseline(self.con)

    # -- history ----------------------------------------------------------------------------

    def log(self, path: str | None = None, since: str | None = None,
            actor: str | None = None, limit: int = 100) -> list[Event]:
        check_limit(limit, "limit", 100_000)
        since = parse_when(since, "since") if since else None
        self.sync_events()  # other processes may have appended since
        return logged(self.con, self.vault.normalise(path) if path else None, since, actor,
                      limit)

    def undo(self, target: str, actor: str | None = None) -> UndoReport:
        """Undo an event or a run; the undo is itself a run that can be undone."""
        from aleph_mem.writes.undo import undo

        return undo(self.writer(run=new_ulid(), actor=actor), target)

    # -- reading --------------------------------------------------------------------------

    # -- vectors ----------------------------------------------------------------------------

    def embedder(self, wait: bool = True) -> Embedder | None:
        """The configured embedding model, loaded once; None when vectors are off or the
        model cannot load (``vector_problem`` says why)."""
        return self.model_slot.load(self.settings, ChunkFacts(self.con), self.vault.aleph_dir,
                                    self.vault.local_dir, wait)

    def embed(self, progress: Progress | None = None, stop: threading.Event | None = None,
              workers: int = 1, limit: int | None = None, more: EmbedMore | None = None) -> int:
        """Give every chunk without a vector one (resumable, in committed batches); with
        ``workers`` > 1, in that many processes (embed/pool.py), each with its own model.
        ``more`` embeds what lives beside the notes, after them, with the same model and
        cache (the front door hands the captured sessions' chunks)."""
        from aleph_mem.index import vectors

        model = self.embedder()
        if model is None:
            return 0
        cache = vectors.Cache(self.vault.aleph_dir / "cache" / "embeddings.db")
        pool = None
        if workers > 1 and vectors.state(self.con).pending > POOL_MIN:
            from aleph_mem.embed.pool import PoolEmbedder

            pool = PoolEmbedder(model, self.vault.aleph_dir / "cache", workers)
        try:
            done = vectors.embed_pending(self.con, pool or model, cache, stop, progress,
                                         vectors.BATCH * (workers if pool else 1), limit)
            return done + (more(pool or model, cache, stop) if more else 0)
        finally:
            cache.close()
            if pool is not None:
                pool.close()

    def vector_state(self) -> dict[str, Any]:
        """The vectors in the index, and why there are none (as the last model load in any
        process found it; this never loads the model)."""
        from aleph_mem.index import vectors

        st = vectors.state(self.con)
        problem = self.vector_problem or kept_problem(self.vault.local_dir,
                                                      self.settings.embed_model)
        return {"model": st.model, "dim": st.dim, "embedded": st.embedded,
                "pending": st.pending, "setting": self.settings.embed_model,
                "problem": problem}

    def search(self, query: str, limit: int | None = None, filters: Filters | None = None,
               group: bool = True, mode: str = "hybrid", explain: bool = False,
               fusion: Fusion | None = None, wait_for_model: bool = True,
               now: str | None = None) -> Found:
        """Search; ``hybrid`` (the default) and ``vector`` use whatever vectors exist, and
        fall back to full text (the answer's ``notice`` says why) when there are none.
        ``now`` (an ISO date or time) is the day the query's own dates are read against
        ("last month", "in March"), and the recency is counted from."""
        limit = check_limit(limit, "limit", 1000) if limit is not None else None
        if filters is not None and (filters.since or filters.until):
            filters = replace(
                filters, since=parse_when(filters.since, "since") if filters.since else None,
                until=parse_when(filters.until, "until") if filters.until else None)
        stale = f"{self.readonly}: results may be stale" if self.readonly else ""
        notice = stale
        qvec = None
        fallback = ""  # why this search runs on full text only
        if mode != "fts" and not self.vec.any():  # the model is not even loaded
            off = self.settings.embed_model in ("", "none")
            fallback = self.vector_problem or (VECTORS_OFF if off else NO_VECTORS_YET)
        elif mode != "fts":
            qvec = self._daemon_vector(query) if self.model_slot.model is None else None
            model = self.embedder(wait=wait_for_model) if qvec is None else None
            if qvec is None and model is not None and \
                    self.vec.ready(f"{model.name}:{model.dim}"):
                qvec = model.embed([query])[0]
            if qvec is None:
                fallback = self.vector_problem or (
                    "the embedding model is still loading" if not self.model_slot.tried
                    else NO_VECTORS_YET)
            else:
                pending = reading.chunks_waiting(self.con)
                if pending:
                    notice = notices(f"{pending} chunks are still waiting for vectors", stale)
        if fallback:
            notice = (stale + "; " if stale else "") + "full-text only: " + fallback
            mode = "fts"
        fusion = fusion or Fusion(
            recency_weight=float(self.settings.search_recency_weight),
            half_life_days=float(self.settings.search_half_life_days),
            link_share=float(self.settings.search_link_share),
            mmr_lambda=float(self.settings.search_mmr_lambda),
            date_boost=float(self.settings.search_date_boost))
        notice = notices(notice, terms_notice(query))
        hits = search(self.con, query, limit or self.settings.search_limit, filters, group,
                      qvec, mode, fusion, explain, knn=self.vec.knn,
                      vectors_of=self.vec.vectors_of if qvec is not None else None,
                      now=_moment(now) if now else None)
        if not hits:
            why = self._why_nothing(query, filters)
            notice = why if why.startswith("the index is empty") else notices(notice, why)
        from aleph_mem.plugin_index import hooks_possible

        if hooks_possible():  # a plugin may re-rank (else pluggy is not even loaded)
            from aleph_mem import plugins

            hits = plugins.search_results(query, hits)
        return Found([self.hit_shown(h) for h in hits], notice)

    def _why_nothing(self, query: str, filters: Filters | None) -> str:
        """Why a search found nothing, when it is not just the words: an empty index, a
        folder the vault does not have, matches only among archived notes."""
        if not reading.any_note(self.con):
            return "the index is empty: run `aleph-mem index` (or start `aleph-mem daemon`)"
        f = filters or Filters()
        if f.folder:
            folder = f.folder.strip("/")
            if not reading.folder_has_notes(self.con, folder):
                return f"no folder {folder!r} holds notes in this vault"
        if not f.include_archived and search(
                self.con, query, 1, replace(f, include_archived=True), True, None, "fts",
                Fusion()):
            return ("nothing outside archive/ matches, but archived notes do (search them "
                    "with --include-archived, or include_archived in MCP)")
        return ""

    def shown(self, text: str) -> str:
        """Text from the vault as a reader may see it: secrets hidden (``recall_secrets``)."""
        return shown.text(text, bool(self.settings.recall_secrets))

    def values_shown(self, value: Any) -> Any:
        """Frontmatter (keys and values, nested) as a reader may see it."""
        return shown.values(value, bool(self.settings.recall_secrets))

    def hit_shown(self, hit: Hit) -> Hit:
        """A hit as a reader may see it; a snippet with a secret hidden loses its **marks**
        (a mark inside ``password: …`` would hide the secret from the rules)."""
        snippet = hit.snippet
        if not self.settings.recall_secrets and snippet:
            plain = snippet.replace("**", "")
            hidden = self.shown(plain)
            snippet = snippet if hidden == plain else hidden
        return replace(hit, title=self.shown(hit.title), snippet=snippet)

    def _daemon_vector(self, query: str) -> np.ndarray | None:
        """The query's vector from the running daemon's warm model (embed/model_socket.py),
        when its model is the one the index holds vectors of; else None (load it here)."""
        found = self.daemon_query(query)
        return found[1] if found is not None and self.vec.ready(found[0]) else None

    def daemon_query(self, query: str) -> tuple[str, np.ndarray] | None:
        return daemon_query(self.vault.local_dir, query)

    def chunk_text(self, chunk_id: int) -> str:
        row = reading.chunk_text(self.con, chunk_id)
        return self.shown(row[1] or row[0]) if row else ""

    def find_note(self, ref: str) -> str:
        """A note's path from a path (``.md`` optional), a file name, a title or an alias."""
        return self.notes_named(ref)[0]

    def notes_named(self, ref: str) -> list[str]:
        """Every note ``ref`` names at the first rank that names any, best first: the name
        as written before a case twin of it, a person's note before an agent's, the
        shallowest path. Raises NoteNotFound (with the closest names) when none does."""
        ref = ref.strip()
        exact = reading.exact_path(self.con, ref)
        if exact:  # exactly the file asked for, never a case twin of it
            return [exact]
        from aleph_mem.index.resolver import closest, fold  # (a search needs no link resolution)

        bare = ref[:-3] if ref.lower().endswith(".md") else ref
        key = fold(bare)
        rows = reading.paths_and_titles(self.con)
        for test in (
            lambda p, t: fold(p[:-3]) == key,
            lambda p, t: fold(p[:-3].rsplit("/", 1)[-1]) == key,
            lambda p, t: fold(t) == key,
        ):
            hits = [(p, p[:-3].rsplit("/", 1)[-1]) for p, t in rows if test(p, t)]
            if hits:
                return self._best_first(hits, bare)
        names = reading.other_names(self.con)  # aliases, a declared title, a first heading
        for rank in (0, 1, 2):
            hits = [(p, str(name)) for p, name, r in names if r == rank and fold(str(name)) == key]
            if hits:
                return self._best_first(hits, bare)
        known = [(p, p[:-3]) for p, _ in rows] + [(p, p[:-3].rsplit("/", 1)[-1])
                                                   for p, _ in rows]
        raise NoteNotFound(ref, closest(key, known + [(p, str(n)) for p, n, _ in names]))

    def _best_first(self, hits: list[tuple[str, str]], asked: str) -> list[str]:
        from aleph_mem.writes.events import by_person

        agents = {p for p, actor in last_writers(self.con, [p for p, _ in hits])
                  if not by_person(actor)}
        ranked = sorted(hits, key=lambda h: (h[1] != asked and h[0][:-3] != asked,
                                             h[0] in agents, h[0].count("/"), len(h[0]), h[0]))
        return list(dict.fromkeys(p for p, _ in ranked))

    def show(self, ref: str) -> NoteView:
        path, *others = self.notes_named(ref)
        row = reading.note_row(self.con, path)
        if row is None:  # gone since it was named (another process moved it)
            raise NoteNotFound(ref)
        note_id, title, digest, fm, issues = row
        data = self.vault.read_bytes(path) or b""
        links = [LinkView(raw, target, _anchor(heading, block), alias, bool(embed), resolved,
                          status, line, json.loads(cands) if cands else [])
                 for raw, target, heading, block, alias, embed, resolved, status, line, cands
                 in graph.links_from(self.con, note_id)]
        backlinks = graph.backlinks(self.con, path)
        tags = reading.tags_of(self.con, note_id)
        aliases = reading.aliases_of(self.con, note_id)
        judged = judgments.of(self.con, path)
        return NoteView(path, self.shown(title), self.values_shown(json.loads(fm)), digest,
                        tags, aliases, links, backlinks,
                        self.shown(data.decode("utf-8", errors="replace")), json.loads(issues),
                        judged, others=others[:5])

    def status(self) -> dict[str, Any]:
        return {"vault": str(self.vault.root), "index": str(self.vault.index_path),
                "index_state": self.readonly or "writable",
                "counts": health.counts(self.con), "problems": health.problems(self.con),
                "unresolved_links": health.unresolved_links(self.con),
                "ambiguous_links": health.ambiguous_links(self.con)}


def notices(*said: str) -> str:
    """A search's notices as one (``Found.notice``), the empty ones left out."""
    return "; ".join(n for n in said if n)


def _moment(text: str) -> Any:
    from aleph_mem.clock import parse_iso

    value = parse_when(text, "--now")
    if "T" not in value:  # a date, a month or a year: its first day, at noon
        value = (value + "-01-01")[:10] + "T12:00:00Z"
    return parse_iso(value)


def _anchor(heading: str | None, block: str | None) -> str:
    if block:
        return "#^" + block
    return "#" + heading if heading else ""
