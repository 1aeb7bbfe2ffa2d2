"""The session commands: ``hook`` (what a client's hook runs), ``hooks`` (installing them)
and ``sessions`` (the captured sessions: list, show, search, compress, import, prune)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aleph_mem.cli.common import (
    command,
    emit_json,
    open_memory,
    printable,
    progress_printer,
    say,
    setting_flags,
)
from aleph_mem.errors import BadInput

if TYPE_CHECKING:
    from aleph_mem.memory import Memory


@command("hook")
def cmd_hook(args: argparse.Namespace) -> int:
    from aleph_mem.files.vault import find_vault
    from aleph_mem.sessions.hook import handle

    root = Path(args.vault).expanduser() if args.vault else (
        Path(os.environ["ALEPH_MEM_VAULT"]).expanduser() if os.environ.get("ALEPH_MEM_VAULT")
        else find_vault(Path.cwd()))
    answer = handle(args.client, sys.stdin.buffer.read(), root, setting_flags(args))
    if answer.stdout:
        sys.stdout.write(answer.stdout + "\n")
    if answer.stderr:
        print(answer.stderr, file=sys.stderr)
    return 0  # a hook never fails its client


@command("hooks")
def cmd_hooks(args: argparse.Namespace) -> int:
    from aleph_mem.cli.common import vault_root
    from aleph_mem.install import client_hooks

    client_hooks.settings_path(args.client, args.scope)  # a client without hooks: why not
    if args.action == "install":
        vault = vault_root(args)
        from aleph_mem.files.vault import Vault

        Vault.open(vault)  # a vault that is not one fails here, not in every hook call
        path, changed = client_hooks.install(args.client, vault, args.scope)
        say(f"{'installed' if changed else 'already installed'}: aleph-mem hooks for "
              f"{args.client} in {path} (vault {vault.resolve()})")
        if changed and args.scope == "project":
            say("this file is shared: its hooks run `aleph-mem` from each person's PATH on "
                  "the vault in their ALEPH_MEM_VAULT (no path of this machine in it); for "
                  "this machine's paths use --scope local or user")
        if changed:
            say("check: start a new session; `aleph-mem sessions list` shows it once the "
                "first answer is done")
        return 0
    if args.action == "uninstall":
        path, changed = client_hooks.uninstall(args.client, args.scope)
        say(f"{'removed' if changed else 'none installed'}: aleph-mem hooks in {path}")
        return 0
    state = client_hooks.status(args.client, args.scope)
    if args.json:
        emit_json(state.__dict__)
    else:
        say(f"{state.client} ({state.path}): "
            + (f"installed for {', '.join(state.installed)}" if state.installed
               else "not installed")
            + (f"; missing {', '.join(state.missing)}" if state.installed and state.missing
               else ""))
        if state.command:
            say(f"  runs: {state.command}")
    return 0 if state.installed else 1


@command("sessions")
def cmd_sessions(args: argparse.Namespace) -> int:
    with open_memory(args) as mem:
        return ACTIONS[args.action](mem, args)


def _list(mem: Memory, args: argparse.Namespace) -> int:
    return _hits(mem.session_list(args.project, args.limit), args.json)


def _search(mem: Memory, args: argparse.Namespace) -> int:
    if not args.arg:
        raise BadInput("give what to search for: aleph-mem sessions search \"QUERY\"")
    hits = mem.session_search(args.arg, args.limit, args.project, wait_for_model=True)
    if not args.summary:
        return _hits(hits, args.json)
    summary = mem.session_summary(args.arg, hits)
    if args.json:
        emit_json({"sessions": [h.as_json() for h in hits], "summary": summary.__dict__})
        return 0
    _hits(hits, False)
    say(f"\n{summary.answer}" if summary.answer else f"\n({summary.note})")
    for c in summary.citations:
        say(f"  [{c['n']}] session {c['session_id']} ({c['started'][:10]})")
    return 0


def _show(mem: Memory, args: argparse.Namespace) -> int:
    if not args.arg:
        raise BadInput("give a session id (from `aleph-mem sessions list`)")
    view = mem.session_show(args.arg)
    if args.json:
        emit_json(view.as_json())
        return 0
    s = view.session
    say(f"{s.client} session {s.session_id} ({s.project or '-'}, {s.started} → "
        f"{s.ended}, {s.messages} messages{', note ' + s.note if s.note else ''})")
    for m in view.messages:
        say(f"[{m.id}] {m.line()}")
    return 0


def _import(mem: Memory, args: argparse.Namespace) -> int:
    if not args.arg:
        raise BadInput("name the client: aleph-mem sessions import claude-code [PATH]")
    report = mem.session_import(args.arg, Path(args.path) if args.path else None,
                                progress_printer("importing"))
    if args.json:
        emit_json(report.__dict__)
    else:
        say(f"{report.files} transcripts: {report.sessions} sessions took {report.messages} "
            f"new messages, {report.unchanged} had nothing new; {report.redacted} secrets "
            f"redacted, {report.skipped_lines} lines skipped")
        for f in report.failed:
            print(printable(f"failed: {f}", one_line=True), file=sys.stderr)
    return 1 if report.failed else 0


def _prune(mem: Memory, args: argparse.Namespace) -> int:
    if args.arg is not None and not args.arg.isdigit():
        raise BadInput("give the days to keep: aleph-mem sessions prune [DAYS]")
    gone = mem.session_prune(int(args.arg) if args.arg else None)
    say(f"{len(gone)} captured transcripts removed (their session notes stay)")
    return 0


def _compress(mem: Memory, args: argparse.Namespace) -> int:
    done = mem.session_compress(args.arg, args.all)
    if args.json:
        emit_json([{"session": c.session.session_id, "note": c.path, "written": c.written,
                    "why": c.why, "proposals": c.proposals} for c in done])
        return 0
    for c in done:
        say(f"{c.session.session_id}: "
            + (f"wrote {c.path}" if c.written else f"{c.path or 'no note'} ({c.why})")
            + (f"; {len(c.proposals)} preference(s) proposed for hot memory in the digest"
               if c.proposals else ""))
    if not done:
        say("no finished session is waiting for its note")
    return 0


ACTIONS = {"list": _list, "search": _search, "show": _show, "import": _import,
           "prune": _prune, "compress": _compress}


def _hits(hits: list[Any], as_json: bool) -> int:
    if as_json:
        emit_json([h.as_json() for h in hits])
        return 0
    if not hits:
        print("no sessions", file=sys.stderr)
        return 0
    for h in hits:
        score = f" score {h.score}" if h.score else ""
        say(f"{h.started[:16]}  {h.client:<11} {h.project or '-':<16} {h.session_id[:12]}  "
            f"{h.messages} msgs{score}  {h.title[:60]}")
        for q in h.quotes:
            say(f"    “{q}”")
        if h.note:
            say(f"    note: {h.note}")
    return 0
