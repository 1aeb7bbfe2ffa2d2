"""Create a vault from the template, or add what is missing to an existing one."""

from __future__ import annotations

import os
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path

FOLDERS = ("inbox", "notes", "archive", "_dream/digests", ".aleph/local")
SKIP = {"__init__.py", "__pycache__"}


def _files(node: Traversable, prefix: str = "") -> list[tuple[str, Traversable]]:
    out = []
    for child in sorted(node.iterdir(), key=lambda c: c.name):
        if child.name in SKIP or child.name.endswith(".pyc"):
            continue
        rel = f"{prefix}{child.name}"
        if child.is_dir():
            out += _files(child, rel + "/")
        else:
            out.append((rel, child))
    return out


def template_files() -> list[tuple[str, Traversable]]:
    return _files(resources.files("aleph_mem.vault_template"))


def init_vault(root: Path) -> list[str]:
    """Copy every template file that is missing; never overwrite. Returns what was added."""
    root.mkdir(parents=True, exist_ok=True)
    added = []
    for folder in FOLDERS:
        target = root / folder
        if not target.is_dir():
            target.mkdir(parents=True, exist_ok=True)
            added.append(folder + "/")
    for rel, src in template_files():
        target = root / rel
        if target.exists() or target.is_symlink():
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        data = src.read_bytes()
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        added.append(rel)
    return added
