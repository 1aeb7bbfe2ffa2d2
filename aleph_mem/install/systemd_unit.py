"""``aleph-mem service install|uninstall|status``: the daemon as a systemd user unit.

The unit runs this very install (the Python it was installed into), for one vault, and is
hardened as far as a user unit can be without losing the vault: read-only system and home
but for the vault, no devices, no privileges, system calls of an ordinary service, network
only by the families an LLM provider needs. The mount-namespace options need unprivileged
user namespaces in a user unit; where the kernel has them off, the unit keeps the others
(and says so) rather than fail to start.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from aleph_mem.errors import BadInput

NAME = "aleph-mem"

ALWAYS = """\
NoNewPrivileges=yes
RestrictNamespaces=yes
RestrictRealtime=yes
RestrictSUIDSGID=yes
LockPersonality=yes
RestrictAddressFamilies=AF_UNIX AF_INET AF_INET6
SystemCallArchitectures=native
SystemCallFilter=@system-service
SystemCallFilter=~@privileged @resources
KeyringMode=private
UMask=0077
"""
NAMESPACED = """\
PrivateUsers=yes
PrivateMounts=yes
PrivateTmp=yes
PrivateDevices=yes
ProtectSystem=strict
ProtectHome=read-only
ReadWritePaths={vault}
ProtectKernelTunables=yes
ProtectKernelModules=yes
ProtectKernelLogs=yes
ProtectControlGroups=yes
ProtectClock=yes
ProtectHostname=yes
ProtectProc=invisible
"""


def render(command: str, vault: str, sandbox: bool = True,
           serve: list[str] | None = None) -> str:
    """The unit text: ``command`` starts aleph-mem (an absolute path, or ``%h/...``), both it
    and ``vault`` already written as unit words (unit_word); ``serve``: the words after
    ``daemon`` that make it serve over HTTP too (``--serve --host H --port P``)."""
    daemon = " ".join(["daemon", *(unit_word(w) for w in serve or [])])
    hardening = ALWAYS + (NAMESPACED.format(vault=vault) if sandbox else "")
    return f"""\
# aleph-mem daemon for one vault, as a systemd *user* unit (`aleph-mem service install`
# writes it for the current install; see docs/daemon.md).
[Unit]
Description=aleph-mem: keep the memory vault at {vault} indexed and dream when idle
Documentation=https://github.com/aleph-mem/aleph-mem/blob/main/docs/daemon.md
After=default.target

[Service]
Type=simple
Environment=PYTHONUNBUFFERED=1
ExecStart={command} --vault {vault} {daemon}
Restart=on-failure
RestartSec=5
KillSignal=SIGTERM
TimeoutStopSec=30
Nice=10
IOSchedulingClass=idle
# hardening (systemd-analyze security: 3.3 of 10 with the namespaced part, 6.2 without)
{hardening}
[Install]
WantedBy=default.target
"""


def user_namespaces() -> bool:
    """Unprivileged user namespaces are on (a user unit's mount options need them)."""
    for knob, off in (("/proc/sys/kernel/unprivileged_userns_clone", "0"),
                      ("/proc/sys/user/max_user_namespaces", "0")):
        try:
            if Path(knob).read_text().strip() == off:
                return False
        except OSError:
            continue
    return sys.platform.startswith("linux")


def unit_dir() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "systemd" / "user"


def this_install() -> str:
    """How to start this install of aleph-mem from a unit: the absolute command the agent
    clients' configurations and hooks name too (clients.this_command), so a venv, pipx or
    a user install all work without being on PATH; each word quoted for a unit file."""
    from aleph_mem.install.clients import this_command

    return " ".join(unit_word(w) for w in this_command())


def unit_word(text: str) -> str:
    """One word of a unit's command line or path list, as systemd reads it back: ``%`` is
    a specifier and ``$`` a variable unless doubled; a word with a space, a quote or a
    backslash is double-quoted with C escapes. A line break would start a new directive:
    refused."""
    if any(ord(c) < 32 or c == "\x7f" for c in text):
        raise BadInput(f"{text!r} holds a line break or a control character, which a systemd "
                       "unit cannot carry: move the vault to a path without one")
    text = text.replace("%", "%%").replace("$", "$$")
    if re.search(r"[\s\"'\\;]", text):
        return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return text


NAME_RULE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.@-]{0,99}")


def check_name(name: str) -> str:
    """A unit's name stays a file in the unit folder: letters, digits, ``_.@-``."""
    if not NAME_RULE.fullmatch(name) or ".." in name:
        raise BadInput(f"--name {name!r} is not a unit name: use letters, digits and _ . @ -"
                       " (it names a file in ~/.config/systemd/user)")
    return name


@dataclass
class Outcome:
    unit: Path
    lines: list[str]  # what was done, and what the person may still have to run


def _systemctl(*args: str) -> tuple[bool, str]:
    tool = shutil.which("systemctl")
    if tool is None:
        return False, "systemctl is not installed"
    try:
        r = subprocess.run([tool, "--user", *args], capture_output=True, text=True,
                           timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return False, str(exc)
    return r.returncode == 0, (r.stdout + r.stderr).strip()


def install(vault: Path, name: str = NAME, serve: list[str] | None = None) -> Outcome:
    """Write, enable and start the unit; ``serve``: ``daemon --serve``'s words (render)."""
    vault = vault.resolve()
    if not (vault / ".aleph").is_dir():
        raise BadInput(f"{vault} is not a vault yet: run `aleph-mem init {vault}` first")
    if not sys.platform.startswith("linux"):
        raise BadInput("`service install` writes a systemd user unit (Linux); on this system "
                       "start `aleph-mem daemon` from your login items instead")
    unit = unit_dir() / f"{check_name(name)}.service"
    text = render(this_install(), unit_word(str(vault)), sandbox=user_namespaces(),
                  serve=serve)
    if unit.exists() and f"--vault {unit_word(str(vault))} daemon" not in unit.read_text():
        raise BadInput(f"{unit} runs another vault: `aleph-mem service uninstall` first, or "
                       f"give this one another --name")
    unit.parent.mkdir(parents=True, exist_ok=True)
    unit.write_text(text)
    lines = [f"wrote {unit}"]
    if "ProtectSystem" not in text:
        lines.append("user namespaces are off in this kernel: the unit keeps the system-call "
                     "and privilege limits, not the read-only file system")
    ok, said = _systemctl("daemon-reload")
    if ok:
        ok, said = _systemctl("enable", "--now", f"{name}.service")
    if ok:
        lines.append(f"enabled and started; its log: journalctl --user -u {name} -f")
    else:
        why = said.splitlines()[-1] if said else "no reply"
        lines += [f"systemd's user manager did not answer ({why}); run:",
                  "  systemctl --user daemon-reload",
                  f"  systemctl --user enable --now {name}.service"]
    return Outcome(unit, lines)


def uninstall(name: str = NAME) -> Outcome:
    unit = unit_dir() / f"{check_name(name)}.service"
    lines = []
    ok, said = _systemctl("disable", "--now", f"{name}.service")
    lines.append("stopped and disabled" if ok else f"systemctl: {said or 'no reply'}")
    if unit.exists():
        unit.unlink()
        lines.append(f"removed {unit}")
        _systemctl("daemon-reload")
    else:
        lines.append(f"no unit at {unit}")
    return Outcome(unit, lines)


def status(name: str = NAME) -> dict[str, object]:
    unit = unit_dir() / f"{check_name(name)}.service"
    text = unit.read_text() if unit.exists() else ""
    start = next((ln.split("--vault ", 1)[1] for ln in text.splitlines()
                  if ln.startswith("ExecStart=") and "--vault " in ln), None)
    vault, serves = None, None
    if start is not None:  # VAULT daemon, or VAULT daemon --serve --host H --port P ...
        vault, serving, words = start.rpartition(" daemon --serve")
        if serving:
            serves = "--serve" + words
        else:
            vault = start.rsplit(" daemon", 1)[0]
    active = _systemctl("is-active", f"{name}.service")[1] or "unknown"
    enabled = _systemctl("is-enabled", f"{name}.service")[1] or "unknown"
    return {"unit": str(unit), "installed": unit.exists(), "vault": vault, "serves": serves,
            "active": active.splitlines()[-1], "enabled": enabled.splitlines()[-1],
            "sandboxed": "ProtectSystem=strict" in text}
