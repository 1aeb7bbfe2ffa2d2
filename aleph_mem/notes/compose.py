"""A new note's name and bytes, the same whoever asks (the CLI, an agent over MCP): a path,
or a name made from the title (or the first ``# heading``) in a folder; the frontmatter
block; and the hashes of the source files the note describes (``related_files``), read
only inside the vault or a configured project root."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

import yaml

from aleph_mem.errors import BadInput
from aleph_mem.files.names import LINK_BREAKING, WINDOWS_FORBIDDEN
from aleph_mem.notes import frontmatter_edit

# what names.py refuses in a name, and the folder separator: a cleaned title is a legal name
UNSAFE_IN_NAMES = re.compile(
    "[" + re.escape("".join(sorted(WINDOWS_FORBIDDEN | LINK_BREAKING | {"/"}))) + r"\x00-\x1f]+")


def note_path(folder: str, title: str | None, content: str) -> str:
    """``<folder>/<title>.md``, the title cleaned of what file names and links cannot hold."""
    if folder.startswith(("/", "\\", "~")) or re.match(r"^[A-Za-z]:", folder):
        raise BadInput(f"folder {folder!r} must be a folder inside the vault, such as "
                       "'inbox' or 'projects/aleph'")
    name = title or next((ln[2:].strip() for ln in content.splitlines()
                          if ln.startswith("# ")), None)
    if not name:
        raise BadInput("give a path, or a title to name the new note")
    safe = UNSAFE_IN_NAMES.sub(" ", name).strip(" .")[:120] or "note"
    return f"{folder.strip('/')}/{safe}.md" if folder.strip("/") else f"{safe}.md"


def note_bytes(content: str, frontmatter: dict[str, Any] | None = None,
               related: dict[str, str] | None = None) -> bytes:
    """The note's text with ``frontmatter`` as its YAML block and, when given, the related
    files with their hashes (``related_files``, ``related_files_sha``)."""
    body = content if content.endswith("\n") else content + "\n"
    if frontmatter:
        if body.startswith("---"):
            raise BadInput("the content already starts with a frontmatter block; put the "
                           "keys there, or pass the frontmatter with a body only")
        header = yaml.safe_dump(frontmatter, sort_keys=False, allow_unicode=True)
        body = f"---\n{header}---\n{body}"
    data = body.encode("utf-8")
    if related:
        data = frontmatter_edit.patch(data, {"related_files": list(related),
                                             "related_files_sha": related})
    return data


def file_hashes(files: list[str], root: str | None, allowed: list[Path]) -> dict[str, str]:
    """sha256 of each file (absolute, or under ``root``), for drift's source_changed. Only
    files inside ``allowed`` folders (the vault, the configured project roots) are read: an
    agent must not learn anything about other files on the machine."""
    out = {}
    bounds = [a.expanduser().resolve() for a in allowed]
    for f in files:
        p = Path(f).expanduser()
        p = p if p.is_absolute() else Path(root).expanduser() / p if root else bounds[0] / p
        real = p.resolve()
        if not any(real == b or b in real.parents for b in bounds):
            raise BadInput(f"related file {f} is outside the vault and the configured "
                           "project_roots; add its project folder to `project_roots` in "
                           ".aleph/config.toml to track it")
        if not p.is_file():
            raise BadInput(f"related file {f} is not a readable file here"
                           + ("" if Path(f).is_absolute() or root else " (relative paths "
                              "need a `project_root` in frontmatter)"))
        out[f] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out
