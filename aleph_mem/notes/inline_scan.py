"""Inline Obsidian syntax: wikilinks, Markdown links, tags and block ids.

The scanner works on a *masked* copy of the body in which code blocks, code spans and
comments are blanked out (newlines kept), so offsets map straight to line numbers and
nothing inside code or comments is ever a link or a tag.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal
from urllib.parse import unquote

WIKILINK = re.compile(r"(!?)\[\[([^\[\]\n]+?)\]\]")
MD_LINK_START = re.compile(r"(!?)\[((?:[^\[\]\n]|\[[^\[\]\n]*\])*)\]\(")
URL_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:")
POSIX_CLASS = re.compile(r":[a-z]+:")  # [[:digit:]] in a shell or regex pattern
WEB_AFTER = re.compile(r"\((?:https?|ftp)://")
URL_SCHEME_ANY = re.compile(r"(?:https?|ftp|file|mailto):", re.I)  # [[https://…]] (DokuWiki)
SHELL_TEST = re.compile(r"\s+(?:-[a-zA-Z]\s|\$|!\s|\"\$).*\s$|.*\s(?:==|!=|=~|-eq|-ne|-lt|-gt)\s")
# a reference definition, "[readme]: README.md", is a link as CommonMark reads it (a
# footnote's "[^1]: ..." is not)
REFERENCE_DEF = re.compile(r"^ {0,3}\[(?!\^)([^\]\n]+)\]:[ \t]*(?:<([^>\n]+)>|(\S+))[^\n]*$", re.M)
COMMENT = re.compile(r"<!--.*?-->|%%.*?%%", re.DOTALL)
BACKTICKS = re.compile(r"`+")
# A tag: '#' after whitespace or at line start, then letters/digits/_-/ and any non-ASCII
# character (Cyrillic, emoji...), never ASCII punctuation or space.
TAG = re.compile(r"(?:(?<=\s)|^)#((?:[\w\-/]|[^\x00-\x7f\s])+)", re.MULTILINE)
BLOCK_ID = re.compile(r"(?:^|\s)\^([A-Za-z0-9][A-Za-z0-9\-]*)[ \t]*$", re.MULTILINE)


@dataclass(frozen=True)
class Link:
    raw: str
    kind: Literal["wikilink", "markdown"]
    embed: bool
    target: str  # the path part, decoded; "" links to the note itself
    heading: str | None  # "H1#H2" for nested heading anchors
    block: str | None
    alias: str | None  # the display text
    line: int  # 1-based, in the file

    @property
    def anchor(self) -> str:
        if self.block:
            return "#^" + self.block
        if self.heading:
            return "#" + self.heading
        return ""


def blank(text: str) -> str:
    """Replace every character but newlines with a space."""
    return re.sub(r"[^\n]", " ", text)


def mask_spans(text: str, spans: list[tuple[int, int]]) -> str:
    if not spans:
        return text
    parts: list[str] = []
    pos = 0
    for start, end in sorted(spans):
        if start < pos:
            start = pos
        if end <= start:
            continue
        parts.append(text[pos:start])
        parts.append(blank(text[start:end]))
        pos = end
    parts.append(text[pos:])
    return "".join(parts)


def code_span_ranges(text: str) -> list[tuple[int, int]]:
    """CommonMark code spans: a run of n backticks closed by the next run of exactly n,
    never across a blank line."""
    spans: list[tuple[int, int]] = []
    offset = 0
    for block in re.split(r"(\n[ \t]*\n)", text):
        runs = list(BACKTICKS.finditer(block))
        i = 0
        while i < len(runs):
            opener = runs[i]
            closer = next((j for j in range(i + 1, len(runs))
                           if len(runs[j].group()) == len(opener.group())), None)
            if closer is None:
                i += 1
                continue
            spans.append((offset + opener.start(), offset + runs[closer].end()))
            i = closer + 1
        offset += len(block)
    return spans


def mask_inline_code_and_comments(text: str) -> str:
    text = mask_spans(text, code_span_ranges(text))
    return COMMENT.sub(lambda m: blank(m.group()), text)


def _line_of(starts: list[int], offset: int) -> int:
    lo, hi = 0, len(starts)
    while lo + 1 < hi:
        mid = (lo + hi) // 2
        if starts[mid] <= offset:
            lo = mid
        else:
            hi = mid
    return lo


def _split_anchor(rest: str) -> tuple[str, str | None, str | None]:
    path, _, anchor = rest.partition("#")
    if not anchor:
        return path.strip(), None, None
    if anchor.startswith("^"):
        return path.strip(), None, anchor[1:].strip()
    return path.strip(), anchor.strip(), None


def _wikilink(m: re.Match[str], line: int, original: str | None = None) -> Link:
    """A wikilink found in the masked text, read from the ``original`` text at the same
    place: a code span inside the brackets (``[[#Using `+` here]]``) is part of the link,
    as in Obsidian, not blanked out of it."""
    raw = original[m.start():m.end()] if original is not None else m.group()
    inner = raw[len(m.group(1)) + 2:-2].replace("\\|", "|")
    target_part, bar, alias = inner.partition("|")
    path, heading, block = _split_anchor(target_part)
    return Link(raw, "wikilink", bool(m.group(1)), path, heading, block,
                alias.strip() if bar else None, line)


def _md_destination(text: str, start: int) -> tuple[str, int] | None:
    """Parse a link destination (and optional title) starting after '('; return the
    destination and the offset just past ')'."""
    i = start
    n = len(text)
    while i < n and text[i] in " \t":
        i += 1
    if i < n and text[i] == "<":
        close = text.find(">", i)
        if close == -1 or "\n" in text[i:close]:
            return None
        dest = text[i + 1:close]
        i = close + 1
    else:
        depth = 0
        j = i
        while j < n:
            c = text[j]
            if c == "\\" and j + 1 < n:
                j += 2
                continue
            if c.isspace():
                break
            if c == "(":
                depth += 1
            elif c == ")":
                if depth == 0:
                    break
                depth -= 1
            j += 1
        dest = text[i:j]
        i = j
    while i < n and text[i] in " \t":
        i += 1
    if i < n and text[i] in "\"'":
        close = text.find(text[i], i + 1)
        if close == -1:
            return None
        i = close + 1
        while i < n and text[i] in " \t":
            i += 1
    if i < n and text[i] == ")":
        return dest, i + 1
    return None


def scan_links(masked: str, first_line: int, original: str | None = None
               ) -> tuple[list[Link], list[tuple[int, int]]]:
    """All links in the masked body, and their spans (so tags can skip them).
    ``first_line`` is the file line number of the body's first line; ``original`` the body
    before masking (the same length), which a wikilink's text is read from."""
    starts = [0] + [m.end() for m in re.finditer(r"\n", masked)]
    found: list[tuple[int, Link]] = []
    spans: list[tuple[int, int]] = []
    for m in WIKILINK.finditer(masked):
        if masked[max(0, m.start() - 1):m.start()] == "\\" or m.group(2).endswith("\\") \
                or POSIX_CLASS.fullmatch(m.group(2)) or WEB_AFTER.match(masked, m.end()) \
                or URL_SCHEME_ANY.match(m.group(2).strip()) or SHELL_TEST.match(m.group(2)):
            continue  # "\[[x]]" is escaped, "[[^\]]+", "[[:digit:]]" patterns, "[[ -f $1 ]]"
            # a shell test: text; "[[pdf]](https://…)" and "[[https://…]]" web addresses
        found.append((m.start(), _wikilink(m, first_line + _line_of(starts, m.start()),
                                           original)))
        spans.append((m.start(), m.end()))
    rest = mask_spans(masked, spans)
    for m in MD_LINK_START.finditer(rest):
        parsed = _md_destination(rest, m.end())
        if parsed is None:
            continue
        dest, end = parsed
        raw = masked[m.start():end]
        spans.append((m.start(), end))
        if not dest or URL_SCHEME.match(dest) or dest.startswith("//"):
            continue
        path, heading, block = _split_anchor(unquote(dest))
        line = first_line + _line_of(starts, m.start())
        found.append((m.start(), Link(raw, "markdown", bool(m.group(1)), path, heading, block,
                                      m.group(2).strip() or None, line)))
    for m in REFERENCE_DEF.finditer(mask_spans(masked, spans)):
        dest = m.group(2) or m.group(3)
        if URL_SCHEME.match(dest) or dest.startswith(("//", "#")):
            continue
        path, heading, block = _split_anchor(unquote(dest))
        spans.append((m.start(), m.end()))
        found.append((m.start(), Link(m.group().strip(), "markdown", False, path, heading,
                                      block, m.group(1).strip() or None,
                                      first_line + _line_of(starts, m.start()))))
    found.sort(key=lambda x: x[0])
    return [link for _, link in found], spans


def scan_tags(masked_without_links: str) -> list[str]:
    tags = []
    for m in TAG.finditer(masked_without_links):
        tag = m.group(1).rstrip("/")
        if tag and not tag.replace("/", "").isdigit() and any(not c.isdigit() for c in tag):
            tags.append(tag)
    return tags


def scan_block_ids(masked: str, first_line: int) -> list[tuple[str, int]]:
    starts = [0] + [m.end() for m in re.finditer(r"\n", masked)]
    return [(m.group(1), first_line + _line_of(starts, m.start(1)))
            for m in BLOCK_ID.finditer(masked)]


def links_in_value(value: object) -> list[str]:
    """Wikilinks written inside frontmatter values (Obsidian properties)."""
    if isinstance(value, str):
        return [m.group() for m in WIKILINK.finditer(value)]
    if isinstance(value, list):
        return [raw for v in value for raw in links_in_value(v)]
    return []


def parse_wikilink(raw: str, line: int) -> Link:
    m = WIKILINK.fullmatch(raw)
    assert m is not None
    return _wikilink(m, line)
