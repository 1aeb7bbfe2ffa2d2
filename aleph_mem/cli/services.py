"""The commands that run or install something beside the notes: the watcher and the
daemon, the MCP server (over stdio, and over HTTP with its tokens) and each client's
configuration, the systemd unit, the dreamer lease. Registered in ``cli.COMMANDS`` like
every other command."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from aleph_mem import logs
from aleph_mem.cli.common import (
    command,
    emit_json,
    open_memory,
    progress_printer,
    setting_flags,
    vault_root,
)
from aleph_mem.errors import BadInput

if TYPE_CHECKING:
    from aleph_mem.memory import Memory
    from aleph_mem.running.daemon import Companion


def run_daemon(args: argparse.Namespace, scheduler: bool) -> int:
    from aleph_mem.memory import Memory
    from aleph_mem.running.daemon import Daemon

    logs.ready()  # before the scheduler and watcher load: they log in our format
    # not open_memory: starting the daemon is no sign of a person at work (the activity
    # stamp would keep the first embed on one core and the dream waiting)
    serve = getattr(args, "serve", False)
    if hasattr(args, "serve"):
        only_with_serve(args)
    with Memory.open(vault_root(args), setting_flags(args)) as mem:
        beside = http_companion(args, mem) if serve else None
        return Daemon(mem, scheduler=scheduler, progress=progress_printer,
                      companion=beside).run()


def only_with_serve(args: argparse.Namespace) -> None:
    """--host, --port and --allow-host say where `--serve` listens: alone, they are a
    mistake worth saying rather than ignoring."""
    if not args.serve and (args.host != "127.0.0.1" or args.port != 8765 or args.allow_host):
        raise BadInput("--host, --port and --allow-host go with --serve (where the daemon "
                       "serves MCP over HTTP); add --serve or leave them out")


def http_companion(args: argparse.Namespace, mem: Memory) -> Companion:
    """`daemon --serve`: the HTTP server, bound now (a refused address or a port in use
    stops the daemon before it starts), run beside the daemon's jobs. Its tools use a
    sibling of the daemon's Memory: one embedding model in the process, one index."""
    from aleph_mem.mcp.http import Address, listening
    from aleph_mem.running.daemon import Companion

    ready = listening(mem.vault.root, mem.vault.local_dir, Address(args.host, args.port),
                      args.allow_host, opened=lambda: mem.sibling(actor="mcp:client"))
    return Companion("http server", ready.where, ready.run_until)


@command("watch")
def cmd_watch(args: argparse.Namespace) -> int:
    return run_daemon(args, scheduler=False)


@command("mcp")
def cmd_mcp(args: argparse.Namespace) -> int:
    from aleph_mem.mcp.server import serve
    from aleph_mem.memory import Memory

    logs.ready()
    root = vault_root(args)
    Memory.open(root, setting_flags(args)).close()  # a clear error now if there is no vault
    return serve(root, setting_flags(args))


@command("serve")
def cmd_serve(args: argparse.Namespace) -> int:
    from aleph_mem.files.vault import Vault
    from aleph_mem.install import serve_tokens

    root = vault_root(args)
    local = Vault(root).local_dir
    if args.new_token is not None:
        token = serve_tokens.create(local, args.new_token, write=not args.read_only)
        print(token)  # stdout alone: `> file` keeps just the token
        mode = "read-only" if args.read_only else "read-write"
        print(f"token {args.new_token!r} ({mode}) made; it is shown this once. Give it to the "
              "client as the header `Authorization: Bearer <token>`; its writes are logged "
              f"as mcp:{args.new_token}", file=sys.stderr)
        return 0
    if args.revoke_token is not None:
        serve_tokens.revoke(local, args.revoke_token)
        print(f"token {args.revoke_token!r} revoked", file=sys.stderr)
        return 0
    from aleph_mem.mcp.http import Address, serve_http
    from aleph_mem.memory import Memory

    logs.ready()
    Memory.open(root, setting_flags(args)).close()  # a clear error now if there is no vault
    return serve_http(root, local, Address(args.host, args.port), args.allow_host,
                      setting_flags(args))


@command("mcp-reference")
def cmd_mcp_reference(args: argparse.Namespace) -> int:
    import tempfile

    from aleph_mem.install.new_vault import init_vault
    from aleph_mem.mcp.server import tools_reference

    with tempfile.TemporaryDirectory() as tmp:
        init_vault(Path(tmp))
        sys.stdout.write(tools_reference(Path(tmp)))
    return 0


@command("daemon")
def cmd_daemon(args: argparse.Namespace) -> int:
    return run_daemon(args, scheduler=True)


def serve_args(args: argparse.Namespace, root: Path) -> list[str]:
    """`daemon --serve`'s words for the unit, refused now (not at every restart) where the
    server would refuse to start."""
    from aleph_mem.files.vault import Vault
    from aleph_mem.install import serve_tokens
    from aleph_mem.mcp.http import Address, refusal

    tokens = serve_tokens.load(Vault(root).local_dir)
    why = refusal(Address(args.host, args.port), tokens, args.allow_host)
    if why:
        raise BadInput(why)
    words = ["--serve", "--host", args.host, "--port", str(args.port)]
    for name in args.allow_host:
        words += ["--allow-host", name]
    return words


@command("dreamer")
def cmd_dreamer(args: argparse.Namespace) -> int:
    with open_memory(args) as mem:
        body = mem.dreamer(take=args.action == "set")
    if args.json:
        emit_json(body)
    elif body["host"] is None:
        print(body["note"])
    else:
        who = "this device" if body["this_device"] else body["host"]
        print(f"{who} dreams for the vault ({body['how']} {body['since']}; last run "
              f"{body['last_run']}, {body['silent_hours']} h ago)")
    return 0


@command("mcp-config")
def cmd_mcp_config(args: argparse.Namespace) -> int:
    from aleph_mem.install.clients import guide

    root = vault_root(args)
    config, notes = guide(args.client, root, args.name, args.url)
    sys.stdout.write(config)  # the file's content only: `> .mcp.json` is valid
    sys.stderr.write(notes)
    return 0


@command("service")
def cmd_service(args: argparse.Namespace) -> int:
    from aleph_mem.install import systemd_unit

    if args.action == "status":
        body = systemd_unit.status(args.name)
        if args.json:
            emit_json(body)
        else:
            for key, value in body.items():
                print(f"{key}: {value}")
        return 0
    if args.action == "install":
        root = vault_root(args)
        only_with_serve(args)
        serving = serve_args(args, root) if args.serve else []
        outcome = systemd_unit.install(root, args.name, serving)
    else:
        outcome = systemd_unit.uninstall(args.name)
    for line in outcome.lines:
        print(line)
    return 0
