"""Headings and their sections in a note's lines (frontmatter and fenced code skipped)."""

from __future__ import annotations

import re

from aleph_mem.errors import BadInput
from aleph_mem.notes.parser import split_frontmatter

# a closing run of #s follows a space ("## C#" is the heading "C#", as the parser reads it)
HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$")
FENCE = ("```", "~~~")


def heading_lines(lines: list[str]) -> list[tuple[int, int, str]]:
    """(line index, level, text) of every real heading."""
    out = []
    inside = False
    for i in range(split_frontmatter("\n".join(lines))[1], len(lines)):
        line = lines[i]
        if line.lstrip().startswith(FENCE):
            inside = not inside
            continue
        m = None if inside else HEADING.match(line)
        if m:
            out.append((i, len(m.group(1)), m.group(2).strip()))
    return out


def find_section(lines: list[str], heading: str) -> tuple[int, int]:
    """The heading's line index and the end of its section (the next heading of the same
    or a higher level, or the end). Headings compare case-insensitively."""
    want = heading.strip().lstrip("#").strip().casefold()
    heads = heading_lines(lines)
    for n, (i, level, text) in enumerate(heads):
        if text.casefold() == want:
            end = next((j for j, lv, _ in heads[n + 1:] if lv <= level), len(lines))
            return i, end
    names = ", ".join(repr(t) for _, _, t in heads[:12]) or "none"
    raise BadInput(f"no heading {heading!r} in this note (its headings: {names}); use one "
                   "of them, or leave the heading out")
