"""A note's parts as the rooms above read them, each rule written once: the body without
its frontmatter, the frontmatter's text, and the note a frontmatter value names
(``merged_into: "[[Heron|the project]]"`` names ``Heron``).

The parser (``notes/parser.py``) says where frontmatter ends; these helpers only use it.
"""

from __future__ import annotations

from typing import Any

from aleph_mem.notes.parser import split_frontmatter


def body_of_text(text: str) -> str:
    """A note's text without its frontmatter block (all of it when there is none, or when
    the block is never closed: then the parser reads it as body text too)."""
    raw, body_start, _ = split_frontmatter(text)
    if raw is None:
        return text
    return "\n".join(text.split("\n")[body_start:])


def frontmatter_text(text: str) -> tuple[str, str]:
    """(the frontmatter's YAML text, the body): ("", text) when there is none."""
    raw, body_start, _ = split_frontmatter(text)
    if raw is None:
        return "", text
    return raw, "\n".join(text.split("\n")[body_start:])


def linked_name(value: Any) -> str:
    """The note a frontmatter value names: ``[[Heron|alias]]``, ``[[Heron#Plan]]``,
    ``"[[Heron]]"`` and ``Heron`` all name ``Heron``; anything not a string names none."""
    if not isinstance(value, str):
        return ""
    name = value.strip().strip('"').strip()
    if name.startswith("[[") and name.endswith("]]"):
        name = name[2:-2]
    return name.split("|", 1)[0].split("#", 1)[0].strip()


def linked_path(value: Any) -> str:
    """``linked_name`` as a vault path (``.md`` added); "" when the value names none."""
    name = linked_name(value)
    return name if not name or name.endswith(".md") else name + ".md"
