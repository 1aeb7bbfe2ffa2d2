"""What each command's ``--help`` ends with: examples a person can run as written, and the
help of the arguments many commands share (``--json``, ``--limit``, ``--expect-hash``).
tests/cli/test_help.py parses every example with the real grammar."""

from __future__ import annotations

import argparse
from typing import Any

EXAMPLES: dict[str, tuple[str, ...]] = {
    "init": ("aleph-mem init ~/notes", "aleph-mem init .   # an Obsidian vault, kept as it is"),
    "index": ("aleph-mem index", "aleph-mem index --rebuild"),
    "search": ('aleph-mem search "sqlite wal"',
               'aleph-mem search "db port" --tag project --folder work --since 30d',
               'aleph-mem search "db port" --as-of 2026-03-01 --json'),
    "show": ('aleph-mem show "Project Heron"', "aleph-mem show notes/heron.md --json"),
    "remember": ('aleph-mem remember "Deploys go out on Tuesdays"',),
    "context": ("aleph-mem context", 'aleph-mem context "the heron migration" --folder work'),
    "reflect": ('aleph-mem reflect "what did we decide about the database?"',),
    "graph": ('aleph-mem graph "Project Heron" neighbours --depth 2',
              'aleph-mem graph "Project Heron" path --to "Kestrel"'),
    "timeline": ('aleph-mem timeline "Project Heron"',
                 'aleph-mem timeline "Project Heron" --since 2026-01-01'),
    "status": ("aleph-mem status", "aleph-mem status --json"),
    "write": ('echo "a thought" | aleph-mem write inbox/idea.md',
              "cat draft.md | aleph-mem write notes/draft.md"),
    "set": ("aleph-mem set notes/heron.md status=done", "aleph-mem set notes/heron.md --unset due"),
    "mv": ("aleph-mem mv notes/heron.md projects/heron.md",),
    "archive": ('aleph-mem archive notes/old.md --reason "replaced by the new plan"',),
    "purge": ('printf %s "$OLD_TOKEN" | aleph-mem purge',),
    "restore": ("aleph-mem restore archive/notes/old.md",),
    "log": ("aleph-mem log", "aleph-mem log notes/heron.md --limit 20",
            "aleph-mem log --actor dream --since 1d"),
    "undo": ("aleph-mem undo 01J0000000000000000000000A   # an event or a dream run",),
    "watch": ("aleph-mem watch",),
    "dream": ("aleph-mem dream --dry-run", "aleph-mem dream", "aleph-mem dream status"),
    "dreamer": ("aleph-mem dreamer", "aleph-mem dreamer set"),
    "plugins": ("aleph-mem plugins",),
    "mcp": ("aleph-mem mcp   # what a client's MCP configuration runs",),
    "mcp-reference": ("aleph-mem mcp-reference > docs/mcp-tools.md",),
    "serve": ("aleph-mem serve", "aleph-mem serve --new-token laptop",
              "aleph-mem serve --host 0.0.0.0 --port 8787"),
    "completion": ("aleph-mem completion bash > ~/.local/share/bash-completion/completions/"
                   "aleph-mem",),
    "daemon": ("aleph-mem daemon", "aleph-mem daemon --serve"),
    "service": ("aleph-mem service install", "aleph-mem service status"),
    "hook": ("aleph-mem hook claude-code < event.json   # what an installed hook runs",),
    "hooks": ("aleph-mem hooks install claude-code", "aleph-mem hooks status claude-code",
              "aleph-mem hooks uninstall claude-code"),
    "sessions": ("aleph-mem sessions list", 'aleph-mem sessions search "postgres port"',
                 "aleph-mem sessions import codex"),
    "mcp-config": ("aleph-mem mcp-config claude-code > .mcp.json",
                   "aleph-mem mcp-config claude-code --url http://127.0.0.1:8787/mcp"),
}

SHARED_HELP = {
    "json": "print JSON instead of text (the shapes are in docs/cli.md)",
    "limit": "how many to show at most",
    "expect_hash": "refuse unless the note's bytes still have this hash (from `show --json`); "
                   "a concurrent edit is then a conflict, not lost",
    "query": "what to look for: words, \"a phrase\", a question",
    "fact": "the fact, in one line",
    "question": "the question, in words",
    "note": "a note: its path, file name, title or alias",
    "path": "a note's path in the vault",
    "pairs": "KEY=VALUE properties to set (a list as a,b,c)",
    "unset": "a property to remove (repeat for more)",
    "old": "the note's path now",
    "new": "the path it moves to",
    "reason": "why, kept in the log and the note",
    "folder": "only notes under this folder",
    "depth": "how many links away (1 to 4)",
    "client": "the agent client (claude-code, gemini, cursor, codex, ...)",
    "shell": "bash, zsh or fish",
}


def attach(subparsers: Any) -> None:
    """Give every command's parser its examples and every argument without help the
    shared wording (``action`` arguments name their choices)."""
    for name, parser in subparsers.choices.items():
        if not parser.epilog and name in EXAMPLES:
            parser.epilog = "examples:\n" + "\n".join(f"  {e}" for e in EXAMPLES[name])
        for action in parser._actions:
            if action.help is None:
                action.help = SHARED_HELP.get(action.dest) or _choices_help(action)


def _choices_help(action: argparse.Action) -> str | None:
    if action.choices:
        return "one of: " + ", ".join(map(str, action.choices))
    return None
