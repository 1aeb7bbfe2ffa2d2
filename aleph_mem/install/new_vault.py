"""Create a vault from the template, or make an existing folder of notes a vault.

A new (empty) folder gets the whole template: a welcome note, hot memory, the usual
folders. A folder that already holds notes (a person's Obsidian vault) stays as it was:
only `.aleph/` is created, and the ignore lines are added to a `.gitignore` or `.stignore`
it already has (or to a new one where git or Syncthing already keeps the folder);
`MEMORY.md` appears on the first `remember`, folders when something is written there."""

from __future__ import annotations

import os
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path

from aleph_mem.files.vault import ARCHIVE, DREAM

FOLDERS = ("inbox", "notes", ARCHIVE.rstrip("/"), f"{DREAM}digests", ".aleph/local")
SKIP = {"__init__.py", "__pycache__"}
IGNORE_FILES = {".gitignore": ".git", ".stignore": ".stfolder"}  # file -> what says it is used
HIDDEN = (".aleph", ".git", ".obsidian", ".trash", ".stfolder")


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


def holds_notes(root: Path) -> bool:
    """The folder holds Markdown notes of its own (not only the template's, outside tool
    folders): somebody's vault."""
    ours = {rel for rel, _ in template_files()}
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in HIDDEN]
        rel_dir = os.path.relpath(dirpath, root)
        for f in filenames:
            rel = f if rel_dir == "." else f"{rel_dir}/{f}"
            if f.lower().endswith(".md") and rel.replace(os.sep, "/") not in ours:
                return True
    return False


def init_vault(root: Path) -> list[str]:
    """Make ``root`` a vault; never overwrite. Returns what was added (or extended)."""
    root.mkdir(parents=True, exist_ok=True)
    persons = holds_notes(root)
    added = []
    for folder in (".aleph/local",) if persons else FOLDERS:
        target = root / folder
        if not target.is_dir():
            target.mkdir(parents=True, exist_ok=True)
            added.append(folder + "/")
    for rel, src in template_files():
        target = root / rel
        if rel in IGNORE_FILES:  # a person's vault: only where git or Syncthing keeps it
            create = not persons or (root / IGNORE_FILES[rel]).exists()
            if _ignore_lines(target, src.read_text("utf-8"), create):
                added.append(rel)
        elif not (target.exists() or target.is_symlink()) and (
                not persons or rel.startswith(".aleph/")):
            _create(target, src.read_bytes())  # a person's vault: no welcome, no hot memory
            added.append(rel)
    from aleph_mem.files.vault import make_private

    make_private(root / ".aleph")  # its owner's: index, transcripts, pre-images, locks
    return added


def _ignore_lines(target: Path, template: str, create: bool) -> bool:
    """Add the template's ignore lines that ``target`` lacks, under its comment line; a
    missing file is created only when ``create``. True if the file changed."""
    wanted = [ln for ln in template.splitlines() if ln.strip()]
    if not target.exists():
        if not create:
            return False
        _create(target, template.encode("utf-8"))
        return True
    have = target.read_text("utf-8", errors="replace")
    lines = {ln.strip() for ln in have.splitlines()}
    missing = [ln for ln in wanted[1:] if ln.strip() not in lines]
    if not missing:
        return False
    sep = "" if not have or have.endswith("\n") else "\n"
    with open(target, "a", encoding="utf-8") as fh:
        fh.write(f"{sep}\n{wanted[0]}\n" + "\n".join(missing) + "\n")
    return True


def _create(target: Path, data: bytes) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
