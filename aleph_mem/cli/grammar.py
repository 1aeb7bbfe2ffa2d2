"""The command line's grammar: every command, its arguments and the flags all share (the
vault, and each setting as a flag). ``cli`` holds what each command does."""

from __future__ import annotations

import argparse
import os
from typing import Any

from aleph_mem import __version__
from aleph_mem.settings import SETTINGS

FLAG_PREFIX = "setting_"
EMBED_IN_FOREGROUND = 2000  # chunks `index` embeds by itself (a few minutes at most)


def _formatter(prog: str) -> argparse.HelpFormatter:
    """argparse's formatter, told the terminal's width: left to find it, it imports shutil
    (and with it bz2 and lzma) on every command's start. Descriptions and examples keep
    their lines."""
    try:
        width = os.get_terminal_size().columns
    except OSError:
        width = 100
    return argparse.RawDescriptionHelpFormatter(prog, width=max(width - 2, 40))


class _Only:
    """Subparsers that build only one command's parser (the one being run: building all
    of them costs a command 10 ms of its start); ``only`` None builds them all."""

    def __init__(self, sub: Any, only: str | None) -> None:
        self.sub, self.only = sub, only

    def add_parser(self, name: str, **kwargs: Any) -> Any:
        if self.only is not None and name != self.only:
            return _Unused()
        return self.sub.add_parser(name, formatter_class=_formatter, **kwargs)


class _Unused:
    def add_argument(self, *args: Any, **kwargs: Any) -> None:
        return None


def command_of(argv: list[str]) -> str | None:
    """The command named in ``argv`` (the first word that is not a flag or a flag's
    value), or None."""
    skip = False
    for word in argv:
        if skip:
            skip = False
        elif word.startswith("--"):
            skip = "=" not in word and word not in ("--verbose", "--version", "--help")
        elif not word.startswith("-"):
            return word
    return None


class Parser(argparse.ArgumentParser):
    """argparse, forgiving: a mistyped command or option names the one meant ("did you
    mean 'search'?"), and a bad command line exits 1 like every other error
    (docs/cli.md), not argparse's 2."""

    def error(self, message: str) -> Any:
        import difflib
        import re
        import sys

        hint = ""
        choice = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
        unknown = re.search(r"unrecognized arguments: (--[\w-]+)", message)
        if choice:
            options = re.findall(r"'([^']*)'", choice.group(2))
            near = difflib.get_close_matches(choice.group(1), options, n=1, cutoff=0.6)
            hint = f"; did you mean '{near[0]}'?" if near else ""
        elif unknown:
            flags = {f for action in _all_actions(self) for f in action.option_strings
                     if f.startswith("--")}
            near = difflib.get_close_matches(unknown.group(1), sorted(flags), n=1, cutoff=0.6)
            hint = f"; did you mean {near[0]}?" if near else ""
        missing = re.match(r"argument (--[\w-]+)(?:/[^:]*)?: expected one argument", message)
        if missing:  # one line: the value was left out, or it starts with '-'
            flag = missing.group(1)
            sys.stderr.write(f"error: {flag} needs a value (one that starts with '-' is "
                             f"written {flag}=VALUE)\n")
            raise SystemExit(1)
        self.print_usage(sys.stderr)
        sys.stderr.write(f"error: {message}{hint}\n")
        raise SystemExit(1)


def _all_actions(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """Every argument of a parser and of its commands' parsers."""
    out = list(parser._actions)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                out += _all_actions(sub)
    return out


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line: the common flags (the vault, every setting) and each
    command's arguments; with ``only``, that one command's."""
    common = Parser(add_help=False, allow_abbrev=False,
                                     formatter_class=_formatter)
    common.add_argument("--vault", default=argparse.SUPPRESS,
                        help="vault folder, the one holding .aleph/ (else $ALEPH_MEM_VAULT, else "
                        "the nearest folder at or above the current one holding .aleph/)")
    group = common.add_argument_group(
        "settings", "any setting for this command only, over the environment and the config\n"
        "files (lists comma-separated; see docs/settings.md)")
    for setting in SETTINGS:
        group.add_argument("--" + setting.name.replace("_", "-"), metavar="VALUE",
                           dest=FLAG_PREFIX + setting.name, default=argparse.SUPPRESS,
                           help=argparse.SUPPRESS)
    p = Parser(prog="aleph-mem", parents=[common], allow_abbrev=False,
                                description="Long-term memory in a Markdown vault.",
                                formatter_class=_formatter)
    p.add_argument("--version", action="version", version=f"aleph-mem {__version__}")
    p.add_argument("-v", "--verbose", action="store_true", help="log details to stderr")
    sub: Any = _Only(p.add_subparsers(dest="command", required=True, metavar="COMMAND"), only)
    _reading_commands(sub, common)
    _changing_commands(sub, common)
    _running_commands(sub, common)
    from aleph_mem.cli import examples

    examples.attach(sub.sub)
    return p


def _reading_commands(sub: Any, common: argparse.ArgumentParser) -> None:
    """Making and reading the vault: init, index, search, show, status."""
    s = sub.add_parser("init", parents=[common], help="create a vault (or add what is missing)")
    s.add_argument("path", nargs="?", help="vault folder (default: --vault or .)")

    s = sub.add_parser("index", parents=[common], help="bring the index up to date")
    s.add_argument("--rebuild", action="store_true", help="rebuild the index from nothing")
    s.add_argument("--no-embed", action="store_true",
                   help="skip computing vectors (the daemon does it in the background)")
    s.add_argument("--embed", action="store_true",
                   help=f"compute every missing vector now, even more than "
                   f"{EMBED_IN_FOREGROUND} chunks (which can take long)")
    s.add_argument("--workers", type=int, default=0,
                   help="processes that embed (default: every core on a terminal, else 1)")
    s.add_argument("--json", action="store_true")

    s = sub.add_parser("search", parents=[common], help="search by words and meaning")
    s.add_argument("query")
    s.add_argument("--limit", type=int, default=None)
    s.add_argument("--folder", help="only notes in this folder (and below)")
    s.add_argument("--tag", action="append", help="only notes with this tag (repeatable)")
    s.add_argument("--since", help="only notes dated on or after (YYYY-MM-DD, or 7d)")
    s.add_argument("--until", help="only notes dated on or before (YYYY-MM-DD)")
    s.add_argument("--mode", choices=["hybrid", "fts", "vector"], default="hybrid",
                   help="full text and vectors fused (default), or one of them")
    s.add_argument("--explain", action="store_true", help="show each signal per hit")
    s.add_argument("--include-archived", action="store_true",
                   help="also notes under archive/ (left out by default)")
    s.add_argument("--as-of", help="search the vault as it was then (a date, a month, an ISO "
                   "time, or a span back such as 30d)")
    s.add_argument("--now", help="read dates in the query (\"last month\", \"in March\") "
                   "against this day instead of today")
    s.add_argument("--json", action="store_true")

    s = sub.add_parser("show", parents=[common], help="a note with its links and backlinks")
    s.add_argument("note", help="path, file name, title or alias")
    s.add_argument("--as-of", help="the note as it was then (a date or an ISO time)")
    s.add_argument("--json", action="store_true")

    s = sub.add_parser("remember", parents=[common],
                       help="one durable fact into hot memory (MEMORY.md)")
    s.add_argument("fact")
    s.add_argument("--priority", type=int, default=3, help="1 (most important) to 5")
    s.add_argument("--json", action="store_true")

    s = sub.add_parser("context", parents=[common],
                       help="the working memory an agent would start with")
    s.add_argument("query", nargs="?", help="what the task is about")
    s.add_argument("--budget", type=int, default=2000, help="tokens, at least 200")
    s.add_argument("--folder")
    s.add_argument("--project", help="the repository or folder a session works in")
    s.add_argument("--as-of", help="the notes as they were then")
    s.add_argument("--json", action="store_true")

    s = sub.add_parser("reflect", parents=[common],
                       help="an answer from memory, every sentence citing its notes")
    s.add_argument("question")
    s.add_argument("--limit", type=int, default=8)
    s.add_argument("--json", action="store_true")

    s = sub.add_parser("graph", parents=[common], help="a note's links, backlinks, "
                       "neighbours, or a path to another note")
    s.add_argument("note")
    s.add_argument("action", nargs="?", default="neighbours",
                   choices=["links", "backlinks", "neighbours", "path"])
    s.add_argument("--to", help="with `path`: the note to reach")
    s.add_argument("--depth", type=int, default=1)
    s.add_argument("--json", action="store_true")

    s = sub.add_parser("timeline", parents=[common],
                       help="what changed about a subject, in time order")
    s.add_argument("subject", help="a note (path, file name, title or alias) or words")
    s.add_argument("--since", help="only from this time on (ISO date or time, or 30d)")
    s.add_argument("--json", action="store_true")

    s = sub.add_parser("status", parents=[common], help="counts and problems")
    s.add_argument("--json", action="store_true")


def _changing_commands(sub: Any, common: argparse.ArgumentParser) -> None:
    """Changing notes and their history: write, set, mv, archive, restore, log, undo."""
    s = sub.add_parser("write", parents=[common],
                       help="create, replace or append to a note (content on stdin)")
    s.add_argument("path", nargs="?", help="the note (or name it with --title)")
    s.add_argument("--title", help="name a new note from this title (in --folder), as an "
                   "agent's write does")
    s.add_argument("--folder", default="inbox", help="folder for --title (default inbox)")
    s.add_argument("--frontmatter", action="append", metavar="KEY=VALUE",
                   help="a frontmatter key for a new note (repeatable; values are YAML)")
    s.add_argument("--related", action="append", metavar="FILE",
                   help="a source file the note describes (repeatable): its hash is kept "
                   "so the dream flags the note when the file changes")
    s.add_argument("--expect-hash", help="the hash you read (required to replace a note)")
    s.add_argument("--append", action="store_true", help="append instead of replacing")
    s.add_argument("--under", metavar="HEADING", help="append at the end of this section")
    s.add_argument("--json", action="store_true")

    s = sub.add_parser("set", parents=[common], help="set or remove frontmatter keys")
    s.add_argument("path")
    s.add_argument("pairs", nargs="*", metavar="KEY=VALUE")
    s.add_argument("--unset", action="append", metavar="KEY")
    s.add_argument("--expect-hash")
    s.add_argument("--json", action="store_true")

    s = sub.add_parser("mv", parents=[common], help="move or rename a note")
    s.add_argument("old")
    s.add_argument("new")
    s.add_argument("--expect-hash")
    s.add_argument("--json", action="store_true")

    s = sub.add_parser("archive", parents=[common], help="move a note under archive/")
    s.add_argument("path")
    s.add_argument("--reason", default="manual")
    s.add_argument("--expect-hash")
    s.add_argument("--json", action="store_true")

    s = sub.add_parser(
        "purge", parents=[common],
        help="take a text (a secret pasted by mistake) out of every stored version",
        description="Reads the text from stdin (asked for, not echoed, on a terminal) so it "
        "never lands in your shell's history, and takes it out of the live notes, every "
        "stored version, the event log, captured transcripts and the index.",
        epilog="example: printf %s \"$OLD_TOKEN\" | aleph-mem purge")
    s.add_argument("--json", action="store_true")

    s = sub.add_parser("restore", parents=[common], help="bring an archived note back")
    s.add_argument("path")
    s.add_argument("--expect-hash")
    s.add_argument("--json", action="store_true")

    s = sub.add_parser("log", parents=[common], help="the history of changes")
    s.add_argument("path", nargs="?")
    s.add_argument("--since", help="ISO date or time (UTC), or a span back from now: 1h, 7d")
    s.add_argument("--actor", help="human, cli, mcp, mcp:<client>, dream:<pass>…")
    s.add_argument("--limit", type=int, default=100)
    s.add_argument("--json", action="store_true")

    s = sub.add_parser("undo", parents=[common], help="undo an event or a run")
    s.add_argument("id", help="an event id or a run id (from `aleph-mem log`)")
    s.add_argument("--json", action="store_true")


def _running_commands(sub: Any, common: argparse.ArgumentParser) -> None:
    """The watcher, the daemon, the dream, agents and plugins."""
    sub.add_parser("watch", parents=[common],
                   help="keep the index in step with the files (foreground)")
    s = sub.add_parser("dream", parents=[common],
                       help="run the dream passes by hand, or see their status")
    s.add_argument("action", nargs="?", default="run",
                   choices=["run", "status", "proposals", "undo"])
    s.add_argument("id", nargs="?", help="the run id, for undo")
    s.add_argument("--pass", dest="pass_name", action="append",
                   help="only this pass (repeatable): consolidate, drift, synthesis, lint, "
                   "decay, digest, or a plugin's (`aleph-mem plugins`)")
    s.add_argument("--weekly", action="store_true",
                   help="the weekly pipeline (adds synthesis after drift)")
    s.add_argument("--dry-run", action="store_true", help="print the plan as a diff; write "
                   "nothing")
    s.add_argument("--force", action="store_true",
                   help="also touch notes edited in the last few minutes")
    s.add_argument("--anyway", action="store_true",
                   help="dream on this device although another one is the vault's dreamer")
    s.add_argument("--json", action="store_true")

    s = sub.add_parser("dreamer", parents=[common],
                       help="which device dreams for the vault (one per vault)")
    s.add_argument("action", nargs="?", default="show", choices=["show", "set"],
                   help="show it, or make this device the dreamer")
    s.add_argument("--json", action="store_true")

    s = sub.add_parser("plugins", help="installed plugins (built-ins included) and what "
                       "each registers")
    s.add_argument("--json", action="store_true")

    sub.add_parser("mcp", parents=[common],
                   help="serve the vault to an agent over stdio (MCP)")
    sub.add_parser("mcp-reference", help="print the MCP tools reference (docs/mcp-tools.md)")
    s = sub.add_parser("serve", parents=[common],
                       help="serve the same MCP tools over HTTP (streamable HTTP at /mcp)")
    _address_args(s)
    s.add_argument("--new-token", metavar="NAME",
                   help="make a token for one client, print it once, and exit")
    s.add_argument("--read-only", action="store_true",
                   help="with --new-token: the token may search and read, not change")
    s.add_argument("--revoke-token", metavar="NAME", help="remove a token, and exit")
    s = sub.add_parser("completion", help="a completion script for your shell",
                       epilog="bash: aleph-mem completion bash > "
                       "~/.local/share/bash-completion/completions/aleph-mem; zsh: aleph-mem "
                       "completion zsh > ~/.zfunc/_aleph-mem (with ~/.zfunc on fpath); fish: "
                       "aleph-mem completion fish > ~/.config/fish/completions/aleph-mem.fish")
    s.add_argument("shell", choices=["bash", "zsh", "fish"])
    s = sub.add_parser("daemon", parents=[common],
                       help="the watcher plus the scheduler (periodic reconcile, dream passes)")
    s.add_argument("--serve", action="store_true",
                   help="also serve the MCP tools and the page over HTTP, as `serve` does, "
                   "sharing the daemon's model")
    _address_args(s)
    s = sub.add_parser("service", parents=[common],
                       help="the daemon as a systemd user unit for this install and vault")
    s.add_argument("action", choices=["install", "uninstall", "status"])
    s.add_argument("--name", default="aleph-mem", help="the unit's name (one per vault)")
    s.add_argument("--serve", action="store_true",
                   help="install: the unit runs `daemon --serve` (with --host, --port, "
                   "--allow-host)")
    _address_args(s)
    s.add_argument("--json", action="store_true")
    _session_commands(sub, common)
    s = sub.add_parser("mcp-config", parents=[common],
                       help="the MCP configuration for an agent client, for this install")
    s.add_argument("client", choices=["claude-code", "claude-desktop", "cursor", "vscode",
                                      "codex", "gemini", "windsurf"])
    s.add_argument("--name", default="aleph-mem", help="the server's name in the client")
    s.add_argument("--url", help="a running `aleph-mem serve` (e.g. http://127.0.0.1:8765/mcp) "
                   "instead of a stdio command")


def _address_args(s: argparse.ArgumentParser) -> None:
    """Where `serve` (and `daemon --serve`) listens."""
    s.add_argument("--host", default="127.0.0.1",
                   help="the address to listen on (loopback by default; any other needs a "
                   "token)")
    s.add_argument("--port", type=int, default=8765, help="the port (0: any free one)")
    s.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                   help="another Host a request may name (a reverse proxy's public name)")


def _session_commands(sub: Any, common: argparse.ArgumentParser) -> None:
    """Agent sessions: the hook a client calls, installing it, and the captured sessions."""
    s = sub.add_parser("hook", parents=[common],
                       help="what an agent client's hook runs (reads the hook's JSON on stdin)")
    s.add_argument("client", choices=["claude-code", "gemini", "codex", "cursor"])
    s = sub.add_parser("hooks", parents=[common],
                       help="install, remove or check aleph-mem's hooks in a client's settings")
    s.add_argument("action", choices=["install", "uninstall", "status"])
    s.add_argument("client", choices=["claude-code", "gemini", "cursor", "codex"],
                   help="the client (Codex CLI has no hooks: its sessions are imported)")
    s.add_argument("--scope", default="user", choices=["user", "project", "local"],
                   help="user settings (default), the project's, or the project's local file")
    s.add_argument("--json", action="store_true")
    s = sub.add_parser("sessions", parents=[common], help="captured agent sessions: list, "
                       "show, search, compress into notes, import a client's history")
    s.add_argument("action", choices=["list", "show", "search", "compress", "import", "prune"])
    s.add_argument("arg", nargs="?", help="show/compress: a session id; search: the query; "
                   "import: the client (claude-code, codex, gemini, cursor) or an "
                   "export (chatgpt, claude-ai)")
    s.add_argument("path", nargs="?", help="import: the transcripts' folder or one file "
                   "(default: where the client keeps them); an export's zip or "
                   "conversations.json")
    s.add_argument("--project", help="only this project's sessions")
    s.add_argument("--limit", type=int, default=20)
    s.add_argument("--all", action="store_true",
                   help="compress: every finished session without a note")
    s.add_argument("--summary", action="store_true",
                   help="search: with an LLM configured, an answer across the sessions found, "
                   "citing them")
    s.add_argument("--json", action="store_true")
