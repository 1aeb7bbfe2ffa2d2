"""The ``aleph-mem`` command: each command opens the vault, calls one library function and
prints the result (JSON with ``--json``). Library errors become one clean message."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import __version__
from .errors import AlephError, VaultNotFound
from .memory import Memory
from .search import Filters
from .template import init_vault
from .vault import find_vault

Handler = Callable[[argparse.Namespace], int]
COMMANDS: dict[str, Handler] = {}


def command(name: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        COMMANDS[name] = fn
        return fn
    return register


def vault_root(args: argparse.Namespace) -> Path:
    if getattr(args, "vault", None):
        return Path(args.vault).expanduser()
    env = os.environ.get("ALEPH_MEM_VAULT")
    if env:
        return Path(env).expanduser()
    found = find_vault(Path.cwd())
    if found is None:
        raise VaultNotFound(str(Path.cwd()))
    return found


def open_memory(args: argparse.Namespace) -> Memory:
    return Memory.open(vault_root(args))


def emit_json(value: Any) -> None:
    json.dump(value, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")


def progress_printer() -> Callable[[int, int], None] | None:
    if not sys.stderr.isatty():
        return None

    def show(done: int, total: int) -> None:
        sys.stderr.write(f"\rindexing {done}/{total}")
        if done >= total:
            sys.stderr.write("\n")
        sys.stderr.flush()
    return show


# -- commands ---------------------------------------------------------------------------

@command("init")
def cmd_init(args: argparse.Namespace) -> int:
    root = Path(args.path or args.vault or ".").expanduser()
    added = init_vault(root)
    if added:
        print(f"vault at {root.resolve()}: added {', '.join(added)}")
    else:
        print(f"vault at {root.resolve()} already has everything; nothing changed")
    return 0


@command("index")
def cmd_index(args: argparse.Namespace) -> int:
    with open_memory(args) as mem:
        report = mem.reindex(rebuild=args.rebuild, progress=progress_printer())
        if args.json:
            emit_json({"scanned": report.scanned, "indexed": report.parsed,
                       "removed": report.removed, "unchanged": report.unchanged,
                       "links_resolved": report.links_resolved})
        else:
            print(report.summary())
    return 0


@command("search")
def cmd_search(args: argparse.Namespace) -> int:
    filters = Filters(folder=args.folder, tags=tuple(args.tag or ()), since=args.since,
                      until=args.until)
    with open_memory(args) as mem:
        hits = mem.search(args.query, limit=args.limit, filters=filters)
    if args.json:
        emit_json([h.as_json() for h in hits])
        return 0
    if not hits:
        print("no matches", file=sys.stderr)
    for h in hits:
        print(f"{h.path}{h.anchor}  (line {h.line}, score {h.score:.2f})")
        print(f"    {h.title}")
        if h.snippet:
            print("    " + " ".join(h.snippet.split()))
    return 0


@command("show")
def cmd_show(args: argparse.Namespace) -> int:
    with open_memory(args) as mem:
        view = mem.show(args.note)
    if args.json:
        emit_json(view.as_json())
        return 0
    print(f"# {view.path}  ({view.title})\nhash: {view.hash}")
    if view.tags:
        print("tags: " + ", ".join(view.tags))
    if view.aliases:
        print("aliases: " + ", ".join(view.aliases))
    print("\n" + view.content.rstrip() + "\n")
    if view.links:
        print("links:")
        for lv in view.links:
            cands = ": " + ", ".join(lv.candidates) if lv.candidates else ""
            where = lv.resolved or f"({lv.status}{cands})"
            print(f"  line {lv.line}: {lv.raw} -> {where}")
    if view.backlinks:
        print("backlinks:\n" + "\n".join(f"  {p}" for p in view.backlinks))
    return 0


@command("status")
def cmd_status(args: argparse.Namespace) -> int:
    with open_memory(args) as mem:
        info = mem.status()
    if args.json:
        emit_json(info)
        return 0
    c = info["counts"]
    print(f"vault: {info['vault']}")
    print(f"notes {c['notes']}, chunks {c['chunks']}, tags {c['tags']}, links {c['links']} "
          f"({c['links_resolved']} resolved, {c['links_unresolved']} unresolved, "
          f"{c['links_ambiguous']} ambiguous)")
    for key, label in (("problems", "problems"), ("unresolved_links", "unresolved links"),
                       ("ambiguous_links", "ambiguous links")):
        rows = info[key]
        if rows:
            print(f"\n{label} ({len(rows)}):")
            for r in rows[:50]:
                print("  " + _status_row(r))
            if len(rows) > 50:
                print(f"  … {len(rows) - 50} more (use --json for all)")
    return 0


def _status_row(r: dict[str, Any]) -> str:
    if "reason" in r:
        return f"{r['path']}: {r['reason']}"
    cands = f" candidates: {', '.join(r['candidates'])}" if r.get("candidates") else ""
    return f"{r['from']}:{r['line']}: {r['raw']}{cands}"


# -- parser -----------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--vault", default=argparse.SUPPRESS,
                        help="vault folder (else $ALEPH_MEM_VAULT, else the current folder)")
    p = argparse.ArgumentParser(prog="aleph-mem", parents=[common],
                                description="Long-term memory in a Markdown vault.")
    p.add_argument("--version", action="version", version=f"aleph-mem {__version__}")
    p.add_argument("-v", "--verbose", action="store_true", help="log details to stderr")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    s = sub.add_parser("init", parents=[common], help="create a vault (or add what is missing)")
    s.add_argument("path", nargs="?", help="vault folder (default: --vault or .)")

    s = sub.add_parser("index", parents=[common], help="bring the index up to date")
    s.add_argument("--rebuild", action="store_true", help="rebuild the index from nothing")
    s.add_argument("--json", action="store_true")

    s = sub.add_parser("search", parents=[common], help="full-text search")
    s.add_argument("query")
    s.add_argument("--limit", type=int, default=None)
    s.add_argument("--folder", help="only notes in this folder (and below)")
    s.add_argument("--tag", action="append", help="only notes with this tag (repeatable)")
    s.add_argument("--since", help="only notes dated on or after (YYYY-MM-DD)")
    s.add_argument("--until", help="only notes dated on or before (YYYY-MM-DD)")
    s.add_argument("--json", action="store_true")

    s = sub.add_parser("show", parents=[common], help="a note with its links and backlinks")
    s.add_argument("note", help="path, file name, title or alias")
    s.add_argument("--json", action="store_true")

    s = sub.add_parser("status", parents=[common], help="counts and problems")
    s.add_argument("--json", action="store_true")
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        stream=sys.stderr, format="%(levelname)s %(name)s: %(message)s")
    if not hasattr(args, "vault"):
        args.vault = None
    try:
        return COMMANDS[args.command](args)
    except AlephError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
