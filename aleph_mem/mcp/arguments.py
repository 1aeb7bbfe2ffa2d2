"""What each tool argument means, as `tools/list` hands it to an agent: one short
description per argument (wording shared where arguments share a meaning), and input
schemas without what only costs tokens (a title per field, ``anyOf`` with ``null`` for an
argument one may simply leave out). A test holds every argument to a description and the
whole list under 12,000 characters."""

from __future__ import annotations

from typing import Any

from mcp_types import Tool

BUDGET = "most tokens the answer may take; `left_out` names what did not fit and how to get it"
SHARED = {
    "as_of": "a date or ISO time: the vault as it was then",
    "budget_tokens": BUDGET,
    "expected_hash": "the `hash` from `read`: fails if the note changed since (read it again)",
    "since": "from then on: ISO date or time, or a span such as `7d`, `1h`",
    "until": "up to then: ISO date or a span",
    "folder": "only notes in this folder (and below)",
}
ARGUMENTS: dict[str, dict[str, str]] = {
    "search": {
        "query": "what to find; a date in it ('last week', 'May 2023') lifts notes dated "
                 "then; empty or `*` browses, newest first",
        "limit": "most hits (1-50)",
        "tags": "only notes with all these tags (a nested tag matches its children)",
        "status": "only notes with this `status`, e.g. `stale`",
        "include_archived": "also archived notes",
        "scope": "`sessions`: past agent sessions (secrets redacted) in `sessions`; `all`: both",
        "project": "only this project's sessions (browsing: notes with this `project` key)",
        "summarize": "with an LLM configured: `session_summary`, one answer across the "
                     "sessions found, citing them",
    },
    "read": {
        "note": "path, file name, title or alias (any case); with `session`, a session id",
        "heading": "only this heading's section, in `section`",
        "session": "`note` is a session id (`search` scope `sessions`): its messages",
        "budget_tokens": "a longer note is cut at a paragraph; `outline` lists its headings "
                         "to read by `heading`",
    },
    "write": {
        "content": "the Markdown ([[Note title]] links, #tags)",
        "path": "vault-relative, e.g. `projects/x/decisions.md`; none of `: * ? \" < > | # ^ [ ]`",
        "title": "instead of `path`: the note becomes `<folder>/<title>.md`",
        "folder": "the folder of a note named by `title`",
        "frontmatter": "the YAML header, as an object",
        "expected_hash": "to replace a note: the `hash` from `read` (fails if it changed since)",
        "related_files": "source files it describes (absolute, or under a `project_root` "
                         "frontmatter key): the note is marked stale when they change",
    },
    "edit": {
        "path": "the note's vault-relative path",
        "append": "Markdown added at the end of the note (or of `under_heading`'s section)",
        "under_heading": "the heading whose section `append` ends",
        "set_frontmatter": "YAML keys to set (the rest kept byte for byte)",
        "remove_frontmatter": "YAML keys to remove",
        "expected_hash": "the `hash` from `read`: fails if the note changed since "
                         "(recommended; without it the note as it is now is changed)",
    },
    "remember": {
        "fact": "one sentence",
        "priority": "1 (most important) to 5",
    },
    "context": {
        "query": "the task; without it, the latest notes",
        "folder": "relevant notes only from this folder",
        "project": "the repository or folder you work in: its decisions, open problems "
                   "and last sessions first, in `project`",
    },
    "reflect": {
        "question": "the question",
        "limit": "most passages (1-20)",
    },
    "graph": {
        "note": "path, title or alias",
        "action": "`links` (it links to), `backlinks`, `neighbours` (either way, nearest "
                  "first) or `path` (the shortest chain to `to`)",
        "depth": "for `neighbours`: links away, 1-4",
        "to": "for `path`: the note to reach",
        "budget_tokens": "past it notes are counted per `distance`, not named; `left_out` "
                         "says how to get them",
    },
    "recent": {
        "limit": "most events (1-200)",
        "actor": "only this actor's (`mcp` matches every MCP client)",
        "path": "one note's history",
        "subject": "a note's name or words: `timeline`, what changed about it, oldest first "
                   "(changes, dates its notes state, sessions naming it)",
    },
    "forget": {
        "path": "the note's vault-relative path, or `MEMORY.md` with `fact`",
        "reason": "why (kept as `archived_reason`)",
        "fact": "with `MEMORY.md`: the words of a fact an agent remembered (the person's "
                "are refused)",
    },
    "undo": {
        "id": "an event `id` or a `run` from `recent`",
    },
    "dream": {
        "action": "`status`: state and last runs; `proposals`: changes awaiting the "
                  "person's tick; `run`: run passes now",
        "passes": "for `run`: consolidate, drift, lint, decay, digest or a plugin's (all "
                  "by default)",
        "dry_run": "for `run`: write nothing and show the plan as diffs (a real run can "
                   "be undone by its run id)",
    },
}


def described(tool: Tool) -> Tool:
    """The tool as listed: its input schema lean and each argument described; no output
    schema (the answer comes as compact JSON text and as structured content)."""
    schema = dict(tool.input_schema)
    schema.pop("title", None)
    words = ARGUMENTS.get(tool.name, {})
    schema["properties"] = {
        name: lean(spec) | {"description": words.get(name) or SHARED.get(name, "")}
        for name, spec in schema.get("properties", {}).items()}
    return tool.model_copy(update={"input_schema": schema, "output_schema": None})


def lean(spec: dict[str, Any]) -> dict[str, Any]:
    """A property without its title, and an optional one (``X or null``, default null) as
    just ``X``: leaving it out is how one says none."""
    out = {k: v for k, v in spec.items() if k != "title"}
    options = out.pop("anyOf", None)
    if options is not None:
        kept = [o for o in options if o.get("type") != "null"]
        out |= kept[0] if len(kept) == 1 else {"anyOf": kept}
        if len(kept) < len(options) and out.get("default", "") is None:
            del out["default"]
    return out
