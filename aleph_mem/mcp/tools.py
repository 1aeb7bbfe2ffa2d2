"""The twelve MCP tools: one small function each, over one ``Memory`` verb, returning a
typed value (its output schema). Shared state comes from the server's lifespan context
(``mcp_server.State``); ``run`` holds the lock, refreshes the activity stamp, turns library
errors into tool errors with their reason, and counts what the agent was shown as recalled.
"""

from __future__ import annotations

import functools
import inspect
import json
import re
from collections.abc import Callable
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
        activity.touch(state.mem.vault.local_dir, "mcp")
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
        return result


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
           as_of: str | None = None) -> SearchOut:
    """Search the notes (meaning and words, ranked; one hit per note, the best passage).

    Use it to find what the memory holds on a topic before answering or writing. Each hit
    has the note `path`, an `anchor` pointing at the passage (`#^blockid` or `#Heading`),
    the `title`, a `snippet` with matches in **bold**, and the `line`; `notice` says when
    the ranking is limited (full text only while the model loads, vectors still pending).
    Filters apply before ranking: `folder` (and below), `tags` (all must hold; nested tags
    match their children), `since`/`until` (ISO dates or spans such as `7d`, from the
    note's date or file time), `status` (e.g. "stale"). Archived notes are left out unless
    `include_archived`. A date named in the query itself ("on 13 October 2023", "in May
    2023", "last week") lifts notes dated then without hiding the others. Pass the path to
    `read` for the whole note.

    `scope` "sessions" searches past agent sessions instead (what was asked, done, run and
    said; secrets redacted): each in `sessions` with its id, project, times, the matching
    `quotes` and the session note made from it; "all" returns both. `project` keeps only
    that project's sessions. `summarize` (with an LLM configured) adds `session_summary`:
    an answer across the sessions found, each sentence citing them by number.

    An empty `query` (or "*") browses instead: the notes of `folder`, `tags` or `project`
    (their `project` key), newest first, the `snippet` holding the note's date; with `scope`
    "sessions", the latest sessions (of `project`). Read a session whole with `read` and
    `session`.

    `as_of` (a date or ISO time) searches the notes as they were then: a note created later
    is absent, a note changed since answers with its text of that day, an archived or
    deleted one with what it said before it went; each hit's `version` says which.
    """
    filters = Filters(folder=folder, tags=tuple(tags or ()), since=since, until=until,
                      status=status, include_archived=include_archived)

    def go(m: Memory) -> SearchOut:
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
        return SearchOut(hits=[HitOut(path=h.path, anchor=h.anchor, title=h.title,
                                      score=h.score, snippet=h.snippet, line=h.line,
                                      version=h.version) for h in notes.hits],
                         sessions=found, session_summary=summary,
                         notice=notes.notice or None)
    return run(ctx, go)


def read(note: str, ctx: Context, heading: str | None = None,
         as_of: str | None = None, session: bool = False,
         budget_tokens: int = 2000) -> NoteOut:
    """Read one note by path, file name, title or alias (case-insensitive).

    Returns its frontmatter, its `content` (within `budget_tokens`: a longer note is cut at
    a paragraph and `outline` lists its headings; read one with `heading`), its content
    `hash` (pass it as `expected_hash` to `write` or `edit` to change the note safely),
    outgoing `links` with what they resolve to, and `backlinks` (notes linking here). With
    `heading`, `section` holds just that heading's section (and `content` is left out).
    An unknown note is an error that lists the closest titles.
    With `as_of` (a date or ISO time), the note as it was then (also one archived, moved or
    deleted since), and `version` says since when and by whom it read so. With `session`
    true, `note` is a captured session's id (from `search` with `scope` "sessions"): its
    messages, one per line, in `content`.
    """
    def go(m: Memory) -> NoteOut:
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
        links = [LinkOut(raw=lv.raw, target=lv.target, anchor=lv.anchor, resolved=lv.resolved,
                         status=lv.status) for lv in view.links]
        content, outline = ("", []) if heading else within(view.content, budget_tokens)
        return NoteOut(path=view.path, title=view.title, hash=view.hash,
                       frontmatter=view.frontmatter, content=content, section=section,
                       links=links, backlinks=view.backlinks, others=view.others,
                       outline=outline)
    return run(ctx, go)


HEADING = re.compile(r"^#{1,6} +\S.*$", re.MULTILINE)


def within(text: str, budget_tokens: int) -> tuple[str, list[str]]:
    """A note's text within ``budget_tokens`` (about four characters a token): all of it,
    or its start cut at a paragraph with a line saying what is left, and its headings."""
    limit = max(200, budget_tokens) * 4
    if len(text) <= limit:
        return text, []
    cut = text.rfind("\n\n", 0, limit)
    head = text[:cut if cut > limit // 2 else limit]
    rest = len(text) - len(head)
    return (head.rstrip() + f"\n\n[… {rest} more characters: read a section by its "
            "`heading` (the `outline` lists them), or raise `budget_tokens`]"), \
        HEADING.findall(text)[:60]


def write(content: str, ctx: Context, path: str | None = None, title: str | None = None,
          folder: str = "inbox", frontmatter: dict[str, Any] | None = None,
          expected_hash: str | None = None, related_files: list[str] | None = None) -> WriteOut:
    """Create a note, or replace one completely.

    To create: give `content` (Markdown) and either a vault-relative `path` such as
    "projects/aleph/decisions.md", or a `title` (the file becomes `<folder>/<title>.md`,
    folder "inbox" by default). To replace: give the `path` and the `expected_hash` you got
    from `read`; if the note changed since, this fails and you should read it again.
    `frontmatter` (a dict) is written as the YAML header. Use [[Note title]] to link notes
    and #tags to tag them. Prefer `edit` to add to an existing note. `related_files`:
    source files this note describes (absolute, or relative to a `project_root` key in
    `frontmatter`), inside the vault or a project folder the person configured
    (`project_roots`); their hashes are recorded so the note is flagged stale when those
    files change. New names must suit every system (no `: * ? " < > | # ^ [ ]`, no control
    characters); a refused write says why. `same_facts_as` lists notes that already state
    the same facts: edit one of them rather than keep two.
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
    """Change part of an existing note without rewriting the rest.

    `append`: Markdown added at the end of the note, or at the end of the section under
    `under_heading`. `set_frontmatter` / `remove_frontmatter`: set or remove YAML keys (other
    keys, comments and the body stay byte for byte). Pass the `expected_hash` from `read`
    to be sure nobody changed the note meanwhile (recommended); without it the change
    applies to the note as it is now.
    """
    who = writer(ctx)
    return run(ctx, lambda m: written(m.edit_note(
        path, expected_hash, append, under_heading, set_frontmatter, remove_frontmatter, who)))


def remember(fact: str, ctx: Context, priority: int = 3) -> WriteOut:
    """Add one short, durable fact to hot memory (MEMORY.md), which every agent sees first
    via `context`.

    Use it for facts worth knowing in every session (the person's preferences, standing
    decisions, names); keep each to one sentence. `priority` runs from 1 (most important)
    to 5. Hot memory has a 2,200-character budget: when it is full this fails and lists
    the lowest-priority facts, so a person can prune them. A fact hot memory already
    states (the same numbers, names and negations, mostly the same words) is not added
    twice: `changed` is false and `same_facts_as` quotes the line that says it. A fact
    about the same thing with another value ("port 5433" beside "port 5432") is added and
    `warning` names the older line: `forget` it if an agent added it, else tell the person.
    MEMORY.md changes only through `remember` and `forget`; `write` and `edit` refuse it.
    For anything longer, use `write`.
    """
    who = writer(ctx)
    return run(ctx, lambda m: written(m.remember(fact, priority, who)))


def context(ctx: Context, query: str | None = None, budget_tokens: int = 2000,
            folder: str | None = None, project: str | None = None,
            as_of: str | None = None) -> Envelope:
    """The working-memory envelope to start a session or a task: hot memory (MEMORY.md,
    highest priority first; `hot_memory_left_out` counts what did not fit), the latest
    daily digest, the notes most relevant to `query` (or the most recently changed ones),
    and the latest changes, each within its share of `budget_tokens`. With `project` (the
    name of the repository or folder you work in), `project` holds that project's recent
    decisions, open problems, last agent sessions and notes first. Call it first; then
    `search`/`read` for detail. With `as_of` (a date or ISO time), the relevant notes are
    those of the vault as it was then.
    """
    return run(ctx, lambda m: m.context(query, budget_tokens, folder, project, as_of))


def reflect(question: str, ctx: Context, limit: int = 8) -> Reflection:
    """Answer a question from memory, with citations.

    With an LLM configured, `answer` is a short synthesis in which every sentence cites the
    numbered passages it rests on (checked: uncited sentences are dropped), and `citations`
    map numbers to notes. Without one, `answer` is null and `passages` are the
    best-matching passages, each cited by path and anchor: answer from them yourself.
    Prefer it over `search` for questions ("when did we decide…?").
    """
    return run(ctx, lambda m: m.reflect(question, limit))


def graph(note: str, ctx: Context,
          action: Literal["links", "backlinks", "neighbours", "path"] = "neighbours",
          depth: int = 1, to: str | None = None) -> GraphView:
    """Explore the link graph around a note (by path, title or alias).

    `links`: notes it links to; `backlinks`: notes linking to it; `neighbours`: notes
    within `depth` links either way (1-4), with their distance; `path`: the shortest chain
    of links from `note` to the note `to`.
    """
    return run(ctx, lambda m: m.graph(note, action, depth, to))


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
           path: str | None = None, subject: str | None = None) -> RecentOut:
    """The changes to the vault, newest first, in `events`: who (`human`, `cli`,
    `mcp:<client>`, `dream:<pass>`) did what (`note-created`, `note-updated`, `note-moved`,
    `note-archived`…) to which note, when, each with its `id` and, for changes made
    together, a `run` id (both can be given to `undo`). Filter by `since` (ISO time or a
    span such as `1h`), `actor` (`mcp` matches every MCP client) or `path` (a note's own
    history).

    With `subject` (a note's name, or words), `timeline` holds what changed about it, oldest
    first: each change to its notes with who made it and the lines that changed, the dates
    its notes state (`valid_from`, `valid_until`, prose ends of validity), and the agent
    sessions that mention it; `since` narrows it. Use it for "what changed about X".
    """
    def go(m: Memory) -> RecentOut:
        if subject:
            found = m.timeline(subject, since)
            return RecentOut(subject=subject, notes=found.notes, timeline=[
                TimelineEntryOut(**e.as_json()) for e in found.entries[-limit * 5:]])
        return RecentOut(events=m.recent(min(max(limit, 1), 200), since, actor, path))
    return run(ctx, go)


def forget(path: str, ctx: Context, reason: str = "forgotten by an agent",
           expected_hash: str | None = None, fact: str | None = None) -> WriteOut:
    """Archive a note: it moves to archive/ (with `archived_at`, `archived_from`,
    `archived_reason`) and leaves search results. Nothing is deleted; `undo` can undo
    it. Use it for notes that are wrong or no longer useful.

    Hot memory (MEMORY.md) is the person's and is never archived: to take back a fact an
    agent added with `remember`, give `path` "MEMORY.md" and the `fact` (its words). A fact
    the person wrote (or approved from a proposal) is refused: ask the person.
    """
    who = writer(ctx)
    if fact is not None:
        return run(ctx, lambda m: written(m.forget_fact(path, fact, who)))
    return run(ctx, lambda m: written(m.archive_note(path, reason, expected_hash, who)))


def undo(id: str, ctx: Context) -> UndoOut:
    """Undo an event or a whole run, by the `id` or `run` that `recent` lists.

    Each note is restored only if it still holds what that event wrote (otherwise it is
    listed under `refused`, untouched). An undo is itself a run: undo its `run` id to
    redo. Nothing is deleted either way: every version stays in the history.
    """
    if not id.strip():
        raise ToolError("undo needs `id`: an event or run id from `recent`")
    who = writer(ctx)
    return run(ctx, lambda m: UndoOut(**m.undo(id.strip(), who).as_json()))


def dream(ctx: Context, action: Literal["status", "proposals", "run"] = "status",
          passes: list[str] | None = None, dry_run: bool = True) -> DreamOut:
    """The dream daemon, which tidies the vault while it is idle (merges duplicates, marks
    stale and superseded notes, fixes safe lint issues, archives long-unused notes, writes
    a daily digest in _dream/digests/).

    `status`: the daemon's state and the last runs. `proposals`: changes waiting for a
    person's approval (they tick them on the proposals page). `run`: run the passes now
    (`passes` from consolidate, drift, lint, decay, digest, or a plugin's; all by default); with
    `dry_run` (the default) nothing is written and `plan` shows the changes as diffs. Every
    change of a real run can be undone with `undo` (the run id).
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
                        annotations=hints)


def compact(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The tool, answering with its typed value twice as the protocol asks: as structured
    content (every field, for clients that read it) and as the text an agent reads, which
    is JSON without indentation and without empty fields (null, [], {}, ""). The SDK's own
    text is indented JSON with every null: about a sixth more tokens for nothing."""
    @functools.wraps(fn)
    def answer(*args: Any, **kwargs: Any) -> CallToolResult:
        value = fn(*args, **kwargs)
        full = _adapter(type(value)).dump_python(value, mode="json", by_alias=True)
        text = json.dumps(_without_empty(full), ensure_ascii=False, separators=(",", ":"))
        return CallToolResult(content=[TextContent(type="text", text=text)],
                              structured_content=full)
    return answer


_ADAPTERS: dict[type, TypeAdapter[Any]] = {}


def _adapter(kind: type) -> TypeAdapter[Any]:
    """One adapter per answer type (a dataclass's is built from its fields: ~1 ms a call)."""
    if kind not in _ADAPTERS:
        _ADAPTERS[kind] = TypeAdapter(kind)
    return _ADAPTERS[kind]


def _without_empty(value: Any) -> Any:
    if isinstance(value, dict):
        kept = {k: _without_empty(v) for k, v in value.items()}
        return {k: v for k, v in kept.items() if v not in (None, [], {}, "")}
    if isinstance(value, list):
        return [_without_empty(v) for v in value]
    return value

