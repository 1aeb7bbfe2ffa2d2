"""``aleph-mem mcp-config CLIENT``: the configuration each agent client documents for a stdio
MCP server, filled in with this install's command and one vault.

Every client gets an absolute command (desktop apps and editors do not read a shell's PATH):
the ``aleph-mem`` script beside this Python when there is one, else this Python with
``-m aleph_mem.cli``. The formats follow each client's own documentation: ``mcpServers``
JSON (Claude Desktop, Claude Code's ``.mcp.json``, Cursor, Gemini CLI, Windsurf), VS Code's
``servers`` with ``"type": "stdio"``, Codex CLI's ``[mcp_servers.<name>]`` TOML table.
With a URL (``--url``, a running ``aleph-mem serve``), the clients whose files take a
streamable HTTP server get theirs; the others are refused, saying why.
"""

from __future__ import annotations

import json
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

from aleph_mem.errors import BadInput

NAME = "aleph-mem"


@dataclass(frozen=True)
class Client:
    title: str
    files: tuple[str, ...]  # where the snippet goes (merged into what is there)
    shape: str  # mcpServers | vscode | codex


CLIENTS: dict[str, Client] = {
    "claude-code": Client("Claude Code", (
        ".mcp.json at a project's root (or run the `claude mcp add` line below)",), "mcpServers"),
    "claude-desktop": Client("Claude Desktop", (
        "macOS: ~/Library/Application Support/Claude/claude_desktop_config.json",
        "Windows: %APPDATA%\\Claude\\claude_desktop_config.json",
        "Linux: ~/.config/Claude/claude_desktop_config.json"), "mcpServers"),
    "cursor": Client("Cursor", ("~/.cursor/mcp.json (every project), or .cursor/mcp.json "
                                "(one project)",), "mcpServers"),
    "vscode": Client("VS Code", (".vscode/mcp.json in a workspace, or `MCP: Open User "
                                 "Configuration` for every workspace",), "vscode"),
    "codex": Client("Codex CLI", ("~/.codex/config.toml (or .codex/config.toml in a trusted "
                                  "project)",), "codex"),
    "gemini": Client("Gemini CLI", ("~/.gemini/settings.json (or .gemini/settings.json in a "
                                    "project)",), "mcpServers"),
    "windsurf": Client("Windsurf", ("~/.codeium/windsurf/mcp_config.json",), "mcpServers"),
}


def this_command() -> list[str]:
    """The absolute command that starts this install's aleph-mem."""
    script = Path(sys.executable).with_name("aleph-mem.exe" if sys.platform == "win32"
                                            else "aleph-mem")
    return [str(script)] if script.exists() else [sys.executable, "-m", "aleph_mem.cli"]


def typed(*args: str | Path) -> str:
    """A command line a person can type here: ``aleph-mem …`` when that name on the PATH
    is this install, else this install's absolute command (a virtualenv not activated)."""
    import shutil

    command = this_command()
    found = shutil.which(NAME)
    if found and len(command) == 1 and Path(found).resolve() == Path(command[0]).resolve():
        command = [NAME]
    return shlex.join([*command, *map(str, args)])


def for_vault(root: Path, *args: str) -> str:
    """``typed`` for one vault: with ``--vault`` unless the vault is the working folder."""
    here = Path.cwd().resolve() == root.resolve()
    return typed(*args) if here else typed("--vault", root.resolve(), *args)


def server(vault: Path) -> tuple[str, list[str]]:
    """(command, args) that serve ``vault`` over stdio."""
    command, *rest = this_command()
    return command, [*rest, "--vault", str(vault.resolve()), "mcp"]


def snippet(client: str, vault: Path, name: str = NAME) -> str:
    """The text to merge into the client's configuration."""
    if client not in CLIENTS:
        raise BadInput(f"unknown client {client!r}; one of: {', '.join(CLIENTS)}")
    command, args = server(vault)
    shape = CLIENTS[client].shape
    if shape == "codex":
        quoted = ", ".join(json.dumps(a) for a in args)
        return f"[mcp_servers.{name}]\ncommand = {json.dumps(command)}\nargs = [{quoted}]\n"
    entry: dict[str, object] = {"command": command, "args": args}
    if shape == "vscode":
        return json.dumps({"servers": {name: {"type": "stdio", **entry}}}, indent=2) + "\n"
    return json.dumps({"mcpServers": {name: entry}}, indent=2) + "\n"


TOKEN = "TOKEN"  # where the client's token goes: it is shown once, never stored in clear
# each client's documented entry for a streamable HTTP server: (top-level key, URL key, type)
REMOTE = {"claude-code": ("mcpServers", "url", "http"), "vscode": ("servers", "url", "http"),
          "cursor": ("mcpServers", "url", None), "gemini": ("mcpServers", "httpUrl", None)}
NOT_REMOTE = {
    "claude-desktop": "Claude Desktop's configuration file starts stdio servers only (a remote "
                      "server is added as a connector in its settings)",
    "codex": "aleph-mem does not print Codex CLI's HTTP form yet",
    "windsurf": "aleph-mem does not print Windsurf's HTTP form yet"}


def remote_snippet(client: str, url: str, name: str = NAME) -> str:
    """The entry for a running ``aleph-mem serve`` at ``url``, its token left as TOKEN."""
    if client in NOT_REMOTE:
        raise BadInput(f"{NOT_REMOTE[client]}; use `aleph-mem mcp-config {client}` without "
                       "--url (stdio)")
    if not url.startswith(("http://", "https://")):
        raise BadInput(f"--url {url!r}: give the server's address, e.g. "
                       "http://127.0.0.1:8765/mcp")
    top, key, kind = REMOTE[client]
    entry: dict[str, object] = {"type": kind} if kind else {}
    entry |= {key: url, "headers": {"Authorization": f"Bearer {TOKEN}"}}
    return json.dumps({top: {name: entry}}, indent=2) + "\n"


def guide(client: str, vault: Path, name: str = NAME,
          url: str | None = None) -> tuple[str, str]:
    """What `mcp-config` prints: the snippet alone (for stdout, so `> .mcp.json` writes a
    valid file), and where it goes and how to check it works (for stderr)."""
    text = remote_snippet(client, url, name) if url else snippet(client, vault, name)
    c = CLIENTS[client]
    notes = [f"# {c.title}: merge this into " + "; or ".join(c.files)]
    if url:
        notes += [f"# replace {TOKEN} with the token `aleph-mem serve --new-token NAME` "
                  "printed; on loopback with no token made, leave out \"headers\""]
    elif client == "claude-code":
        command, args = server(vault)
        notes += ["# or, from a terminal:",
                  f"claude mcp add {name} -- {shlex.join([command, *args])}"]
    notes += [f"# then restart {c.title}; its tool list shows aleph-mem's 12 tools "
              "(search, read, write, ..., dream)"]
    return text.rstrip() + "\n", "\n".join(notes) + "\n"
