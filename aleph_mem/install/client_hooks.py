"""``aleph-mem hooks install|uninstall|status CLIENT``: our entries in an agent client's
``settings.json``, merged in beside whatever the person has there.

The file is read as JSON, our entries (recognised by the ``aleph-mem … hook`` command they
run) are replaced or removed, everything else is kept in its order, and the file is
written atomically after a backup (``settings.json.aleph-mem.bak``). Installing twice
changes nothing the second time. A file that is not valid JSON is never touched: the error
says where it is broken.
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from aleph_mem.errors import BadInput
from aleph_mem.files.atomic import write_atomic
from aleph_mem.install.clients import this_command

Scope = Literal["user", "project", "local"]  # which settings file of the client
MARK = " hook "  # what our command line holds, whatever the install path
EVENTS = {
    "claude-code": ("SessionStart", "UserPromptSubmit", "PreCompact", "Stop", "SessionEnd"),
    "gemini": ("SessionStart", "BeforeAgent", "PreCompress", "SessionEnd"),
    "cursor": ("sessionStart", "preCompact", "stop", "sessionEnd"),
}
FILES = {"claude-code": (".claude", "settings.json"), "gemini": (".gemini", "settings.json"),
         "cursor": (".cursor", "hooks.json")}
TIMEOUT_SECONDS = {"SessionStart": 10, "UserPromptSubmit": 5, "BeforeAgent": 5}
DEFAULT_TIMEOUT = 30


@dataclass(frozen=True)
class HookState:
    client: str
    path: str
    installed: list[str]  # events with our entry
    missing: list[str]
    command: str


def settings_path(client: str, scope: Scope, project: Path | None = None) -> Path:
    if client not in EVENTS:
        hint = (" Codex CLI offers no session hooks aleph-mem can use: bring its sessions in "
                "with `aleph-mem sessions import codex` (again whenever you like: only new "
                "messages are added; docs/agents.md), and give it memory with `aleph-mem "
                "mcp-config codex`" if client == "codex" else "")
        raise BadInput(f"hooks are for {', '.join(EVENTS)}, not {client!r}.{hint}")
    folder, name = FILES[client]
    if scope == "user":
        return Path.home() / folder / name
    if scope == "local" and client != "claude-code":
        raise BadInput(f"{client} has no local settings file; use --scope project or user")
    if scope in ("project", "local"):
        base = (project or Path.cwd()) / folder
        return base / ("settings.local.json" if scope == "local" else name)
    raise BadInput(f"scope {scope!r}: one of user, project, local")


def command_line(client: str, vault: Path, scope: Scope = "user") -> str:
    """The hook's command: this install and this vault, by absolute path, in a person's own
    settings; in a project's shared settings (a file teams commit) no path of this machine:
    ``aleph-mem`` from each person's PATH, the vault from their ``ALEPH_MEM_VAULT``."""
    if scope == "project":
        return shlex.join(["aleph-mem", "hook", client])
    return shlex.join([*this_command(), "hook", client, "--vault", str(vault.resolve())])


def _entry(client: str, event: str, command: str) -> dict[str, Any]:
    seconds = TIMEOUT_SECONDS.get(event, DEFAULT_TIMEOUT)
    if client == "cursor":  # Cursor's hooks.json lists commands, not groups of them
        return {"command": command}
    hook: dict[str, Any] = {"type": "command", "command": command,
                            "timeout": seconds * 1000 if client == "gemini" else seconds}
    if client == "gemini":
        hook = {"name": f"aleph-mem-{event}", **hook}
    return {"hooks": [hook]}


def ours(hook: Any) -> bool:
    """Whether a hook entry is one of ours (it runs ``aleph-mem … hook CLIENT``)."""
    if not isinstance(hook, dict):
        return False
    command = f" {hook.get('command', '')} "
    return MARK in command and ("aleph-mem" in command or "aleph_mem.cli" in command)


def _load(path: Path) -> tuple[dict[str, Any], bytes | None]:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return {}, None
    try:
        doc = json.loads(data or b"{}")
    except ValueError as exc:
        raise BadInput(f"{path} is not valid JSON ({exc}); fix it (or move it away) and run "
                       "this again: aleph-mem never rewrites a file it cannot read") from exc
    if not isinstance(doc, dict):
        raise BadInput(f"{path} holds no JSON object; aleph-mem leaves it as it is")
    return doc, data


def _without_ours(groups: Any) -> list[Any]:
    out = []
    for group in groups if isinstance(groups, list) else []:
        if isinstance(group, dict) and isinstance(group.get("hooks"), list):
            kept = [h for h in group["hooks"] if not ours(h)]
            if kept:
                out.append({**group, "hooks": kept})
            continue
        if not ours(group):  # Cursor's flat entries
            out.append(group)
    return out


def _style(before: bytes | None) -> tuple[str | int | None, bool]:
    """The file's own JSON layout: its indentation (two spaces for a new file) and whether
    it ends with a newline, so what aleph-mem did not change stays as the person wrote it."""
    if before is None:
        return 2, True
    text = before.decode("utf-8", errors="replace")
    found = re.search(r"\n([ \t]+)\S", text)
    return (found.group(1) if found else None), text.endswith("\n")


def _save(path: Path, doc: dict[str, Any], before: bytes | None) -> bool:
    if before is not None and json.loads(before or b"{}") == doc:
        return False
    indent, newline = _style(before)
    text = json.dumps(doc, indent=indent, ensure_ascii=False)
    data = (text + ("\n" if newline else "")).encode("utf-8")
    path.parent.mkdir(parents=True, exist_ok=True)
    if before is not None:
        write_atomic(_backup(path), before)
    # a settings file kept in a dotfiles repository is a symlink: write where it points,
    # so the link (and the repository's copy) stays the person's one file
    write_atomic(path.resolve() if path.is_symlink() else path, data)
    return True


def _backup(path: Path) -> Path:
    return path.with_name(path.name + ".aleph-mem.bak")


def install(client: str, vault: Path, scope: Scope = "user",
            project: Path | None = None) -> tuple[Path, bool]:
    """Our hook entries in the client's settings; returns the file and whether it changed."""
    path = settings_path(client, scope, project)
    doc, before = _load(path)
    hooks = doc.get("hooks")
    hooks = hooks if isinstance(hooks, dict) else {}
    command = command_line(client, vault, scope)
    merged = dict(hooks)
    for event in EVENTS[client]:
        merged[event] = [*_without_ours(hooks.get(event)), _entry(client, event, command)]
    new = {**doc, "hooks": merged}
    if client == "cursor":
        new = {"version": doc.get("version", 1), **new}
    return path, _save(path, new, before)


def uninstall(client: str, scope: Scope = "user", project: Path | None = None) -> tuple[Path, bool]:
    path = settings_path(client, scope, project)
    doc, before = _load(path)
    if before is None or not isinstance(doc.get("hooks"), dict):
        return path, False
    hooks = {}
    for event, groups in doc["hooks"].items():
        kept = _without_ours(groups)
        if kept:
            hooks[event] = kept
    if hooks == doc["hooks"]:
        return path, False  # none of ours there
    new = {**doc, "hooks": hooks} if hooks else {k: v for k, v in doc.items() if k != "hooks"}
    if new in ({}, {"version": 1}) and not _backup(path).exists():
        path.unlink()  # we made the file (no backup of one before it): nothing of it stays
        return path, True
    return path, _save(path, new, before)


def status(client: str, scope: Scope = "user", project: Path | None = None) -> HookState:
    path = settings_path(client, scope, project)
    doc, _ = _load(path)
    hooks = doc.get("hooks")
    hooks = hooks if isinstance(hooks, dict) else {}
    have, command = [], ""
    for event in EVENTS[client]:
        for group in hooks.get(event) or []:
            inner = group.get("hooks") if isinstance(group, dict) else None
            for h in inner if isinstance(inner, list) else [group]:
                if ours(h):
                    have.append(event)
                    command = str(h.get("command"))
    return HookState(client, str(path), sorted(set(have)),
                     [e for e in EVENTS[client] if e not in have], command)
