"""Surgical frontmatter edits: set or remove top-level keys while every other line (other
keys, their order, comments) and every byte of the body stay exactly as they were."""

from __future__ import annotations

import re
from typing import Any

import yaml

from aleph_mem.errors import BadInput
from aleph_mem.notes.parser import json_safe, parse_frontmatter

BOM = "\ufeff"


def dump_entry(key: str, value: Any) -> list[str]:
    """``key: value`` as YAML lines, quoted wherever YAML needs it (``[wip] plans``)."""
    text = yaml.safe_dump({key: value}, sort_keys=False, allow_unicode=True,
                          default_flow_style=False, width=10**6)
    return text.rstrip("\n").split("\n")


def _entry_range(lines: list[str], key: str) -> tuple[int, int] | None:
    head = re.compile(rf"^(?:{re.escape(key)}|\"{re.escape(key)}\"|'{re.escape(key)}')\s*:")
    for i, line in enumerate(lines):
        if head.match(line):
            j = i + 1
            while j < len(lines) and (lines[j][:1] in (" ", "\t") or lines[j].startswith("- ")
                                      or (not lines[j].strip() and j + 1 < len(lines)
                                          and lines[j + 1][:1] in (" ", "\t"))):
                j += 1
            return i, j
    return None


def patch(data: bytes, set_keys: dict[str, Any] | None = None,
          unset: list[str] | tuple[str, ...] = ()) -> bytes:
    set_keys = dict(set_keys or {})
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInput("this note is not valid UTF-8, so its frontmatter cannot be edited "
                       "safely; fix its encoding first") from exc
    bom = BOM if text.startswith(BOM) else ""
    text = text[len(bom):]
    nl = "\r\n" if "\r\n" in text.split("\n", 1)[0] + "\n" and "\r\n" in text else "\n"
    old, body_start, problems = parse_frontmatter(text.replace("\r\n", "\n"))
    if problems:
        raise BadInput(f"cannot edit the frontmatter safely: {problems[0]}; fix it by hand first")
    lines = text.split(nl)
    if body_start:
        fm_lines, rest = lines[1:body_start - 1], lines[body_start - 1:]
    else:
        fm_lines, rest = [], None
    had_lines = bool(fm_lines)
    for key in unset:
        span = _entry_range(fm_lines, key)
        if span:
            del fm_lines[span[0]:span[1]]
    for key, value in set_keys.items():
        entry = dump_entry(key, value)
        span = _entry_range(fm_lines, key)
        if span:
            fm_lines[span[0]:span[1]] = entry
        else:
            fm_lines += entry
    expected = {k: v for k, v in old.items() if k not in unset}
    expected.update(json_safe(set_keys))
    if rest is None:
        if not fm_lines:
            return data
        out = bom + nl.join(["---", *fm_lines, "---"]) + nl + text
    elif had_lines and not fm_lines:  # the edit emptied it: drop the block it leaves
        out = bom + nl.join(rest[1:])
    else:
        out = bom + nl.join(["---", *fm_lines, *rest])
    new, _, new_problems = parse_frontmatter(out[len(bom):].replace("\r\n", "\n"))
    if new_problems or new != expected:
        raise BadInput("the frontmatter edit did not round-trip; the note was left untouched "
                       "(edit it by hand)")
    return out.encode("utf-8")
