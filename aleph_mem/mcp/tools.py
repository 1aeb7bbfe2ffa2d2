"""The twelve MCP tools: one small function each, over one ``Memory`` verb, returning a
typed value (its output schema). Shared state comes from the server's lifespan context
(``mcp_server.State``); ``run`` holds the lock, refreshes the activity stamp, turns library
errors into tool errors with their reason, and counts what the agent was shown as recalled.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import json
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from typing import Any, Literal, Protocol, TypeVar, cast

import apsw
from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, TypeAdapter

from aleph_mem import logs
from aleph_mem.errors import AlephError, DiskError
from aleph_mem.files import activity
from aleph_mem.mcp import budget
from aleph_mem.mcp.budget import Cut, size, within, without_empty
from aleph_mem.memory import (
    Envelope,
    Event,
    Filters,
    Found,
    GraphView,
    Memory,
    Reflection,
    WriteResult,
)

log = logs.get(__name__)
T = TypeVar("T")

READ = ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)
ADD = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False,
                      open_world_hint=False)
CHANGE = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=False,
                         open_world_hint=False)


class HitOut(BaseModel):
    path: str
    anchor: str
    title: str
    score: float
    snippet: str
    line: int
    version: dict[str, str] | None = None  # with `as_of`: which version the hit comes from


class SessionHitOut(BaseModel):
    session_id: str
    client: str
    project: str
    started: str
    ended: str
    title: str  # the session's first request
    score: float
    quotes: list[str]  # the passages that matched, matches in **bold**
    note: str  # the session note distilled from it, once written


class SummaryOut(BaseModel):
    answer: str | None  # every sentence cites sessions by number, e.g. [1][2]
    citations: list[dict[str, Any]]  # n -> session_id, started
    note: str = ""


class SearchOut(BaseModel):
    hits: list[HitOut]
    sessions: list[SessionHitOut] = []
    session_summary: SummaryOut | None = None
    notice: str | None = None  # e.g. "full-text only: …", "N chunks are still waiting…"


class LinkOut(BaseModel):
    raw: str
    target: str
    anchor: str
    resolved: str | None
    status: str


class NoteOut(BaseModel):
    path: str
    title: str
    hash: str
    frontmatter: dict[str, Any]
    content: str
    section: str | None
    links: list[LinkOut]
    backlinks: list[str]
    others: list[str] = []  # other notes the name fits (read one by its path)
    outline: list[str] = []  # a note cut to the budget: its headings, to read by `heading`
    version: dict[str, Any] | None = None  # with `as_of`: which version this is


class WriteOut(BaseModel):
    path: str
    hash: str | None
    event_id: str | None
    changed: bool
    warning: str | None = None
    same_facts_as: list[str] = []  # notes that already say this: edit one of them instead


class UndoOut(BaseModel):
    target: str  # what was undone, the undo's own run id, and each event restored or each
    run: str | None = None  # note refused with its reason
    undone: list[str] = []
    refused: list[dict[str, str]] = []
    regenerated: list[str] = []  # the dream's own pages written anew (the day's digest)


class DreamOut(BaseModel):
    state: str | None = None
    runs: list[dict[str, Any]] | None = None
    proposals: list[dict[str, Any]] | None = None
    report: dict[str, Any] | None = None


# the library's errors name the CLI's flags and commands; an agent has tool arguments
FOR_AGENTS = (("pass --expect-hash", "pass `expected_hash`"), ("--expect-hash", "`expected_hash`"),
              ("`aleph-mem log` lists them", "the `recent` tool lists them"),
              ("--include-archived", "`include_archived`"), ("--as-of", "`as_of`"),
              ("--since", "`since`"), ("--until", "`until`"), ("`--to` in the CLI", "`to`"))


def for_agent(message: str) -> str:
    """An error's message in the words of the tools (``expected_hash``, not
    ``--expect-hash``; the ``recent`` tool, not ``aleph-mem log``)."""
    for cli_words, tool_words in FOR_AGENTS:
        message = message.replace(cli_words, tool_words)
    return message


class ServerState(Protocol):
    """What the tools use of the server's lifespan context (server.py's ``State``)."""

    mem: Memory
    lock: AbstractContextManager[Any]

    def recall(self, result: object) -> None: ...

    def actor(self, ctx: Context) -> str: ...

    def writer(self, ctx: Context) -> str: ...


def _state(ctx: Context) -> ServerState:
    """The lifespan context: the tools' ``Context`` carries no type for it (the SDK's
    default is a dict)."""
    return cast(ServerState, ctx.request_context.lifespan_context)


def run(ctx: Context, fn: Callable[[Memory], T]) -> T:
    state = _state(ctx)
    with state.lock:
        before = dict(state.mem.store.events.appended_by)
        try:
            result = fn(state.mem)
        except AlephError as exc:
            raise ToolError(for_agent(str(exc))) from exc
        except OSError as exc:
            raise ToolError(str(DiskError("the tool", exc))) from exc
        except apsw.Error as exc:
            raise ToolError(f"the index refused the operation ({exc}); retry in a moment, "
                            "or run `aleph-mem index` if it persists") from exc
        except (ValueError, TypeError, RecursionError, UnicodeError) as exc:
            log.exception("tool failed")
            raise ToolError(f"aleph-mem could not do this ({type(exc).__name__}: {exc}); "
                            "check the arguments") from exc
        state.recall(result)
        if active(before, state.mem.store.events.appended_by):
            activity.touch(state.mem.vault.local_dir, "mcp")
        return result


def active(before: dict[str, int], after: Mapping[str, int]) -> bool:
    """Whether a call wrote as the agent (a write is activity the dream and the sessions
    job wait out; a read, or the dream the agent ran, is not)."""
    return any(n > before.get(who, 0) for who, n in after.items()
               if not who.startswith("dream:") and who != "human")


def writer(ctx: Context) -> str:
    """Who makes the change (the actor logged); a tool error for a read-only token."""
    return _state(ctx).writer(ctx)


def written(r: WriteResult) -> WriteOut:
    return WriteOut(path=r.path, hash=r.hash, event_id=r.event.id if r.event else None,
                    changed=r.event is not None, warning=r.warning,
                    same_facts_as=list(r.same_as))


def search(query: str, ctx: Context, limit: int = 10, folder: str | None = None,
           tags: list[str] | None = None, since: str | None = None, until: str | None = None,
           status: str | None = None, include_archived: bool = False,
           scope: Literal["notes", "sessions", "all"] = "notes",
           project: str | None = None, summarize: bool = False,
           as_of: str | None = None, budget_tokens: int = 2000) -> Cut[SearchOut]:
    """Search the notes by meaning and words, ranked, one hit per note: `path`, `anchor`
    (the passage), `title`, `snippet` (matches in **bold**), `line`; `read` a path for the
    whole note. Filters apply before ranking. `notice` says when ranking is limited.
    """
    filters = Filters(folder=folder, tags=tuple(tags or ()), since=since, until=until,
                      status=status, include_archived=include_archived)

    def go(m: Memory) -> Cut[SearchOut]:
        n = min(max(limit, 1), 50)
        browsing = not query.strip() or query.strip() == "*"
        notes = Found([]) if scope == "sessions" else \
            Found(m.browse(filters, project, n)) if browsing \
            else m.search_as_of(query, as_of, n, filters) if as_of else m.search(
                query, limit=n, filters=filters, wait_for_model=False)
        found, summary = [], None
        if scope != "notes":
            shits = m.session_list(project, n) if browsing else \
                m.session_search(query, n, project)
            found = [SessionHitOut(**{k: v for k, v in h.as_json().items()
                                      if k in SessionHitOut.model_fields}) for h in shits]
            if summarize:
                summary = SummaryOut(**m.session_summary(query, shits).__dict__)
        return searched(SearchOut(
            hits=[HitOut(path=h.path, anchor=h.anchor, title=h.title, score=h.score,
                         snippet=h.snippet, line=h.line, version=h.version)
                  for h in notes.hits],
            sessions=found, session_summary=summary, notice=notes.notice or None),
            budget_tokens)
    return run(ctx, go)


def searched(out: SearchOut, budget_tokens: int) -> Cut[SearchOut]:
    """The hits, then the sessions, best first, while they fit in the budget."""
    room = budget_tokens - size(out.session_summary) - size(out.notice)
    hits = budget.fit(out.hits, room)
    sessions = budget.fit(out.sessions, room - sum(size(h) + 1 for h in hits))
    left: list[BaseModel] = [*out.hits[len(hits):], *out.sessions[len(sessions):]]
    if not left:
        return Cut(out)
    counts = ((len(out.hits) - len(hits), "hits"), (len(out.sessions) - len(sessions),
                                                    "sessions"))
    counted = " and ".join(f"{n} more {what}" for n, what in counts if n)
    return Cut(out.model_copy(update={"hits": hits, "sessions": sessions}),
               f"{counted}: {budget.more(budget_tokens, left)}, or narrow with "
               "`folder`, `tags` or `since`")


def read(note: str, ctx: Context, heading: str | None = None,
         as_of: str | None = None, session: bool = False,
         budget_tokens: int = 2000) -> NoteOut | Cut[NoteOut]:
    """Read one note: `frontmatter`, `content`, `hash` (give it as `expected_hash` to
    `write` or `edit`), `links` and `backlinks`. An unknown name is an error listing the
    closest titles.
    """
    def go(m: Memory) -> NoteOut | Cut[NoteOut]:
        if session:
            session_view = m.session_show(note)
            s = session_view.session
            lines = [f"[{msg.id}] {msg.line()}" for msg in session_view.messages]
            return NoteOut(path=s.note or f"session {s.session_id}", title=s.session_id,
                           hash="", frontmatter={"client": s.client, "project": s.project,
                                                 "started": s.started, "ended": s.ended},
                           content=within("\n".join(lines), budget_tokens)[0], section=None,
                           links=[], backlinks=[])
        if as_of:
            old = m.show_as_of(note, as_of)
            return NoteOut(path=old.path, title=old.title, hash=old.hash,
                           frontmatter=old.frontmatter,
                           content=within(old.content, budget_tokens)[0], section=None,
                           links=[], backlinks=[], version=old.version)
        view, section = m.read_section(note, heading) if heading else (m.show(note), None)
        links = budget.fit([LinkOut(raw=lv.raw, target=lv.target, anchor=lv.anchor,
                                    resolved=lv.resolved, status=lv.status)
                            for lv in view.links], budget_tokens // 8)
        backlinks = budget.fit(view.backlinks, budget_tokens // 8)
        room = budget_tokens - sum(size(x) + 1 for x in [*links, *backlinks])
        section = within(section, room)[0] if section else section
        content, outline = ("", []) if heading else within(view.content, room)
        out = NoteOut(path=view.path, title=view.title, hash=view.hash,
                      frontmatter=view.frontmatter, content=content, section=section,
                      links=links, backlinks=backlinks, others=view.others, outline=outline)
        return Cut(out, left_out_of_note(len(view.links) - len(links),
                                         len(view.backlinks) - len(backlinks), outline))
    return run(ctx, go)


def left_out_of_note(links: int, backlinks: int, outline: list[str]) -> str:
    """What a note's answer did not hold, and how to get it."""
    parts = ["the rest of `content` (read a section by `heading`, see `outline`)"] \
        if outline else []
    parts += [f"{links} more links"] if links else []
    parts += [f"{backlinks} more backlinks (`graph` with `action` backlinks)"] \
        if backlinks else []
    return "; ".join(parts) + ("; or raise `budget_tokens`" if parts else "")


def write(content: str, ctx: Context, path: str | None = None, title: str | None = None,
          folder: str = "inbox", frontmatter: dict[str, Any] | None = None,
          expected_hash: str | None = None, related_files: list[str] | None = None) -> WriteOut:
    """Create a note, or replace one whole (`path` and `expected_hash`); to add to
    one, `edit`. `same_facts_as` lists notes already saying this: edit one of them instead.
    """
    who = writer(ctx)

    def go(m: Memory) -> WriteOut:
        out = written(m.write_note(content, path, title, folder, frontmatter, expected_hash,
                                   related_files, who))
        out.same_facts_as = m.same_facts(out.path) if out.changed else []
        return out
    return run(ctx, go)


def edit(path: str, ctx: Context, expected_hash: str | None = None, append: str | None = None,
         under_heading: str | None = None, set_frontmatter: dict[str, Any] | None = None,
         remove_frontmatter: list[str] | None = None) -> WriteOut:
    """Change part of a note; the rest stays byte for byte.
    """
    who = writer(ctx)
    return run(ctx, lambda m: written(m.edit_note(
        path, expected_hash, append, under_heading, set_frontmatter, remove_frontmatter, who)))


def remember(fact: str, ctx: Context, priority: int = 3) -> WriteOut:
    """Add one durable fact (a preference, a standing decision, a name) to hot
    memory, MEMORY.md, which every agent sees first in `context`. Refused when full (the
    lowest facts are listed); a fact already there is not added twice; one that conflicts
    is added and `warning` names the older line. Anything longer: `write`.
    """
    who = writer(ctx)
    return run(ctx, lambda m: written(m.remember(fact, priority, who)))


def context(ctx: Context, query: str | None = None, budget_tokens: int = 2000,
            folder: str | None = None, project: str | None = None,
            as_of: str | None = None) -> Cut[Envelope]:
    """Start a session or a task here: hot memory, the latest daily digest, the
    notes most relevant to `query` and the latest changes, within `budget_tokens`. Then
    `search` and `read` for detail.
    """
    def go(m: Memory) -> Cut[Envelope]:
        env = m.context(query, budget_tokens, folder, project, as_of)
        return Cut(env, left_out_of_context(m, env))
    return run(ctx, go)


def left_out_of_context(m: Memory, env: Envelope) -> str:
    """What the envelope did not hold, and the tool that gets each part."""
    parts = [f"{env.hot_memory_left_out} hot-memory facts (`read` MEMORY.md)"] \
        if env.hot_memory_left_out else []
    if env.digest and env.digest["text"].endswith("…"):
        parts.append("the rest of the digest (`read` its `path`)")
    clipped = sum(item["text"].endswith("…") for item in env.relevant)
    if clipped:
        parts.append(f"the rest of {clipped} relevant notes (`read` their `path`)")
    shown = len(env.recent)
    if env.truncated and shown < 20 and len(m.recent(shown + 1)) > shown:
        parts.append("older changes (`recent`)")
    return "; ".join(parts) + ("; or raise `budget_tokens`" if parts else "")


def reflect(question: str, ctx: Context, limit: int = 8,
            budget_tokens: int = 2000) -> Cut[Reflection]:
    """Answer a question from memory, with citations (prefer it to `search` for
    questions). With an LLM configured, every sentence of `answer` cites numbered
    passages; without one, answer from the cited `passages` yourself.
    """
    def go(m: Memory) -> Cut[Reflection]:
        r = m.reflect(question, limit)
        room = budget_tokens - size(r.answer) - size(r.citations) - size(r.note)
        kept = budget.fit(r.passages, room)
        left = [p.n for p in r.passages[len(kept):]]
        if not left:
            return Cut(r)
        return Cut(dataclasses.replace(r, passages=kept),
                   f"passages {left[0]}-{left[-1]} (`read` their notes, named in "
                   f"`citations`), or {budget.more(budget_tokens, r.passages[len(kept):])}")
    return run(ctx, go)


def graph(note: str, ctx: Context,
          action: Literal["links", "backlinks", "neighbours", "path"] = "neighbours",
          depth: int = 1, to: str | None = None, budget_tokens: int = 1000) -> Cut[GraphView]:
    """The link graph around a note: what it links to, what links to it, its neighbours
    nearest first, or the chain of links to another note.
    """
    def go(m: Memory) -> Cut[GraphView]:
        view = m.graph(note, action, depth, to)
        if view.neighbours is not None:
            near = budget.neighbours(view.neighbours, budget_tokens)
            return Cut(dataclasses.replace(view, neighbours=near.value), near.left_out)
        if view.links is not None:
            cut = budget.names(view.links, "links", budget_tokens)
            return Cut(dataclasses.replace(view, links=cut.value), cut.left_out)
        if view.backlinks is not None:
            cut = budget.names(view.backlinks, "backlinks", budget_tokens)
            return Cut(dataclasses.replace(view, backlinks=cut.value), cut.left_out)
        return Cut(view)
    return run(ctx, go)


class TimelineEntryOut(BaseModel):
    at: str
    what: str  # change | stated | session
    path: str
    summary: str
    actor: str = ""
    event: str = ""
    lines: list[str] = []


class RecentOut(BaseModel):
    events: list[Event] = []
    subject: str | None = None
    notes: list[str] = []  # with `subject`: the notes about it
    timeline: list[TimelineEntryOut] = []  # with `subject`: oldest first


def recent(ctx: Context, limit: int = 20, since: str | None = None, actor: str | None = None,
           path: str | None = None, subject: str | None = None,
           budget_tokens: int = 2000) -> Cut[RecentOut]:
    """The vault's changes, newest first: who (`human`, `cli`, `mcp:<client>`,
    `dream:<pass>`) did what to which note, when, with an `id` and, for changes made
    together, a `run` (either can be given to `undo`).
    """
    def go(m: Memory) -> Cut[RecentOut]:
        if subject:
            found = m.timeline(subject, since)
            entries = [TimelineEntryOut(**e.as_json()) for e in found.entries[-limit * 5:]]
            room = budget_tokens - size(found.notes) - 20
            kept = budget.fit(entries[::-1], room)[::-1]  # the latest, oldest first
            return Cut(RecentOut(subject=subject, notes=found.notes, timeline=kept),
                       budget.left_out("older timeline entries",
                                       entries[:len(entries) - len(kept)], budget_tokens,
                                       "or narrow with `since`"))
        events = m.recent(min(max(limit, 1), 200), since, actor, path)
        shown = budget.fit(events, budget_tokens - 20)
        return Cut(RecentOut(events=shown), budget.left_out(
            "older events", events[len(shown):], budget_tokens,
            "or narrow with `since`, `actor` or `path`"))
    return run(ctx, go)


def forget(path: str, ctx: Context, reason: str = "forgotten by an agent",
           expected_hash: str | None = None, fact: str | None = None) -> WriteOut:
    """Archive a wrong or useless note: it moves to archive/ and leaves search;
    `undo` brings it back. Nothing is deleted.
    """
    who = writer(ctx)
    if fact is not None:
        return run(ctx, lambda m: written(m.forget_fact(path, fact, who)))
    return run(ctx, lambda m: written(m.archive_note(path, reason, expected_hash, who)))


def undo(id: str, ctx: Context) -> UndoOut:
    """Undo an event or a whole run. A note changed since is `refused`, untouched;
    an undo is itself a run (undo it to redo).
    """
    if not id.strip():
        raise ToolError("undo needs `id`: an event or run id from `recent`")
    who = writer(ctx)
    return run(ctx, lambda m: UndoOut(**m.undo(id.strip(), who).as_json()))


def dream(ctx: Context, action: Literal["status", "proposals", "run"] = "status",
          passes: list[str] | None = None, dry_run: bool = True) -> DreamOut:
    """The dream daemon, which tidies the vault while idle: merges duplicates,
    marks stale notes, fixes safe lint, archives unused notes, writes a daily digest.
    """
    if action == "run":
        writer(ctx)  # a read-only token runs no pass

    def go(m: Memory) -> DreamOut:
        if action == "proposals":
            return DreamOut(proposals=m.proposals())
        if action == "run":
            return DreamOut(report=m.dream(tuple(passes or ()), dry_run).as_json())
        st = m.dream_status(runs=5)
        return DreamOut(state=st.state, runs=st.runs)
    return run(ctx, go)


TOOLS = ((search, READ), (read, READ), (write, CHANGE), (edit, CHANGE), (remember, ADD),
         (context, READ), (reflect, READ), (graph, READ), (recent, READ), (forget, CHANGE),
         (undo, CHANGE), (dream, CHANGE))


def register(server: MCPServer) -> None:
    for fn, hints in TOOLS:
        server.add_tool(compact(fn), description=inspect.cleandoc(fn.__doc__ or ""),
                        annotations=hints, structured_output=False)


def compact(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The tool, answering with its typed value twice as the protocol asks: as structured
    content (every field, for clients that read it) and as the text an agent reads, which
    is JSON without indentation and without empty fields (null, [], {}, ""). The SDK's own
    text is indented JSON with every null: about a sixth more tokens for nothing."""
    @functools.wraps(fn)
    def answer(*args: Any, **kwargs: Any) -> CallToolResult:
        value, left_out = fn(*args, **kwargs), ""
        if isinstance(value, Cut):
            value, left_out = value.value, value.left_out
        full = _adapter(type(value)).dump_python(value, mode="json", by_alias=True)
        if left_out:
            full["left_out"] = left_out
        text = json.dumps(without_empty(full), ensure_ascii=False, separators=(",", ":"))
        return CallToolResult(content=[TextContent(type="text", text=text)],
                              structured_content=full)
    return answer


_ADAPTERS: dict[type, TypeAdapter[Any]] = {}


def _adapter(kind: type) -> TypeAdapter[Any]:
    """One adapter per answer type (a dataclass's is built from its fields: ~1 ms a call)."""
    if kind not in _ADAPTERS:
        _ADAPTERS[kind] = TypeAdapter(kind)
    return _ADAPTERS[kind]



