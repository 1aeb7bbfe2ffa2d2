"""What every command shares: the registry, finding the vault, the settings given as flags,
opening the memory, printing JSON and progress. (Its own module so that `python -m
aleph_mem.cli` and the command modules fill one registry.)"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aleph_mem.cli.grammar import FLAG_PREFIX
from aleph_mem.errors import VaultNotFound
from aleph_mem.files import activity
from aleph_mem.files.vault import find_vault
from aleph_mem.settings import SETTINGS
from aleph_mem.shown import UNSAFE, printable

if TYPE_CHECKING:
    from aleph_mem.memory import Memory

Handler = Callable[[argparse.Namespace], int]
COMMANDS: dict[str, Handler] = {}


def command(name: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        COMMANDS[name] = fn
        return fn
    return register


def vault_root(args: argparse.Namespace) -> Path:
    """The vault a command works on: ``--vault``, else ``ALEPH_MEM_VAULT``, else the nearest
    folder at or above the working folder that holds ``.aleph/``. A place given that is no
    vault is an error naming where it came from (and the vault around it, if any)."""
    if getattr(args, "vault", None):
        return _checked(Path(args.vault).expanduser(), "--vault")
    env = os.environ.get("ALEPH_MEM_VAULT")
    if env:
        return _checked(Path(env).expanduser(), "ALEPH_MEM_VAULT")
    found = find_vault(Path.cwd())
    if found is None:
        raise VaultNotFound(str(Path.cwd()), "here")
    return found


def _checked(root: Path, source: str) -> Path:
    if (root / ".aleph").is_dir():
        return root
    around = find_vault(root) if root.exists() else None
    raise VaultNotFound(str(root), source, str(around) if around else None)


def setting_flags(args: argparse.Namespace) -> dict[str, Any]:
    """The settings given on the command line (``--embed-model none``): the flag layer."""
    return {s.name: getattr(args, FLAG_PREFIX + s.name) for s in SETTINGS
            if hasattr(args, FLAG_PREFIX + s.name)}


def open_memory(args: argparse.Namespace) -> Memory:
    from aleph_mem.memory import Memory

    mem = Memory.open(vault_root(args), setting_flags(args))
    OPENED.append(mem)
    return mem


OPENED: list[Memory] = []  # this command's vaults: a write there is activity (``wrote``)


def touch_if_wrote() -> None:
    """Refresh the idle stamp of each vault this command wrote to as the person: a write
    is activity the dream and the sessions job wait out; a reading command (``search``,
    ``status``, ``log``) is not, so checking never delays them."""
    for mem in OPENED:
        if mem.store.events.appended_by["cli"]:
            activity.touch(mem.vault.local_dir, "cli")
    OPENED.clear()


def say(text: str = "", one_line: bool = False) -> None:
    """Print one display line (or block) of the CLI, made ``printable``."""
    print(printable(text, one_line))


def emit_json(value: Any) -> None:
    """``value`` as JSON on stdout; a control character JSON leaves raw (DEL, C1, the
    line and direction marks) is written as its ``\\uXXXX`` escape: the same JSON value,
    safe on a terminal."""
    text = json.dumps(value, ensure_ascii=False, indent=2)
    sys.stdout.write(UNSAFE.sub(lambda m: f"\\u{ord(m[0]):04x}", text) + "\n")


def progress_printer(what: str = "indexing") -> Callable[[int, int], None] | None:
    """``what done/total`` redrawn on one stderr line, with the time left once it can be
    told, a newline when done; None when stderr is no terminal."""
    if not sys.stderr.isatty():
        return None
    started = time.monotonic()

    def show(done: int, total: int) -> None:
        spent = time.monotonic() - started
        left = ""
        if 0 < done < total and spent > 5:
            minutes = spent / done * (total - done) / 60
            left = f", about {minutes:.0f} min left" if minutes >= 1 else ", under a minute left"
        sys.stderr.write(f"\r{what} {done}/{total}{left}\x1b[K")  # the rest of the line cleared
        if done >= total:
            sys.stderr.write("\n")
        sys.stderr.flush()
    return show
