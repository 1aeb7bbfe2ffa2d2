"""The working-memory envelope an agent asks for at the start of a session or a task: hot
memory, the latest digest, notes relevant to a query (or the most recent ones), and recent
changes, each slot within its share of a token budget the caller gives."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from aleph_mem.index import judgments, reading
from aleph_mem.index.search import Filters
from aleph_mem.store import Store

SHARES = {"hot_memory": 0.25, "digest": 0.15, "relevant": 0.45, "recent": 0.15}
CHARS_PER_TOKEN = 4


def tokens(text: str) -> int:
    return (len(text) + CHARS_PER_TOKEN - 1) // CHARS_PER_TOKEN


def clip(text: str, max_tokens: int) -> str:
    limit = max_tokens * CHARS_PER_TOKEN
    if len(text) <= limit:
        return text
    return text[:max(0, limit - 1)].rsplit(" ", 1)[0] + "…"


@dataclass
class Envelope:
    budget_tokens: int
    used_tokens: int = 0
    hot_memory: str = ""
    hot_memory_left_out: int = 0  # facts that did not fit (the lowest priorities)
    digest: dict[str, str] | None = None
    relevant: list[dict[str, Any]] = field(default_factory=list)
    recent: list[dict[str, Any]] = field(default_factory=list)
    project: str = ""  # the project's recent decisions, open problems, sessions and notes
    truncated: bool = False

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


def assemble(mem: Store, query: str | None = None, budget_tokens: int = 2000,
             folder: str | None = None, project: str | None = None,
             as_of: str | None = None) -> Envelope:
    env = Envelope(budget_tokens)
    spare = 0
    if project:  # what a session in that project starts with (start_context), first
        from aleph_mem.sessions.session_start import project_blocks

        env.project = "\n\n".join(project_blocks(mem, project, budget_tokens
                                                  * SHARES["relevant"] * CHARS_PER_TOKEN // 2))
        budget_tokens = max(200, budget_tokens - tokens(env.project))
    hot = mem.vault.read_bytes("MEMORY.md") if not as_of else _then(mem, "MEMORY.md", as_of)
    share = int(budget_tokens * SHARES["hot_memory"])
    if hot:
        from aleph_mem.recall.hot_memory import by_priority, facts

        text = mem.shown(hot.decode("utf-8", errors="replace"))
        if facts(text):  # the facts that fit, most important first; the rest counted
            view = by_priority(text, share * CHARS_PER_TOKEN)
            env.hot_memory = view.text + (
                f"\nRemembered by agents (not confirmed by the person):\n{view.agents}"
                if view.agents else "")
            env.hot_memory_left_out = view.left_out
            env.truncated |= view.left_out > 0
        else:
            env.hot_memory = clip(text, share)
            env.truncated |= env.hot_memory != text
    spare += share - tokens(env.hot_memory)
    share = int(budget_tokens * SHARES["digest"])
    latest = reading.latest_digest(mem.con)
    if latest:
        text = _digest_text(mem.shown((mem.vault.read_bytes(latest) or b"").decode(
            "utf-8", "replace")))
        env.digest = {"path": latest, "text": clip(text, share)}
        spare += share - tokens(env.digest["text"])
    else:
        spare += share
    recent_share = int(budget_tokens * SHARES["recent"])
    used_recent = 0
    for e in mem.log(limit=20):
        item = {"at": e.at, "actor": e.actor, "kind": e.kind, "path": e.path}
        cost = tokens(str(item))
        if used_recent + cost > recent_share:
            env.truncated = True
            break
        env.recent.append(item)
        used_recent += cost
    spare += recent_share - used_recent
    env.relevant = _relevant(mem, query, folder, int(budget_tokens * SHARES["relevant"]) + spare,
                             as_of)
    env.used_tokens = (tokens(env.project) + tokens(env.hot_memory)
                       + (tokens(env.digest["text"]) if env.digest else 0) + used_recent
                       + sum(tokens(r["text"]) + 10 for r in env.relevant))
    return env


def _then(mem: Store, path: str, as_of: str) -> bytes | None:
    """A file's bytes as they were at ``as_of`` (None: it did not exist then)."""
    from aleph_mem.errors import AlephError
    from aleph_mem.recall import as_of as history

    try:
        return history.read(mem, path, history.moment(as_of))[1].encode("utf-8")
    except AlephError:
        return None


def _relevant(mem: Store, query: str | None, folder: str | None,
              share: int, as_of: str | None = None) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if query and as_of:  # the vault as it was: each passage of its version then
        from aleph_mem.recall import as_of as history

        hits, _ = history.search(mem, query, history.moment(as_of), 8, Filters(folder=folder))
        items = [(h.path, h.anchor, mem.shown(h.title), mem.shown(h.snippet.replace("**", "")))
                 for h in hits]
    elif query:
        from aleph_mem.index.relevance import about

        hits = [h for h in mem.search(query, limit=8, filters=Filters(folder=folder)).hits
                if about(mem.con, query, h.path)]  # about the task, or not handed over
        items = [(h.path, h.anchor, h.title, mem.chunk_text(h.chunk_id)) for h in hits]
    else:
        rows = reading.recent_notes(mem.con, folder, 8)
        head = share * CHARS_PER_TOKEN + 200  # more than a note's share, redacted whole
        items = [(p, "", mem.shown(t), mem.shown(_head(
            (mem.vault.read_bytes(p) or b"").decode("utf-8", "replace"), head)))
            for p, t in rows]
    judged = judgments.caveats(mem.con)  # a caveat the dream holds on a person's note
    used = 0
    for path, anchor, title, text in items:
        room = share - used - 10
        if room < 20:
            break
        body = clip(text, min(room, max(60, share // 3)))
        item = {"path": path, "anchor": anchor, "title": title, "text": body}
        if path in judged:
            item["caveat"] = judged[path]
        out.append(item)
        used += tokens(body) + 10
    return out


def _head(text: str, chars: int) -> str:
    """The start of ``text``, cut at a space (a secret is not cut in half and half shown)."""
    if len(text) <= chars:
        return text
    cut = text[:chars]
    return cut[:max(cut.rfind(" "), cut.rfind("\n"), 0)]


def _digest_text(text: str) -> str:
    """A digest as an agent needs it: its body, without the YAML and the graph drawn for
    a person (a mermaid block of the day's notes: tokens that say nothing to an agent)."""
    import re

    from aleph_mem.notes.note_parts import body_of_text

    body = body_of_text(text)
    return re.sub(r"\n## [^\n]*\n+```mermaid\n.*?```\n?", "\n", body, flags=re.S).strip() + "\n"
