"""Parse one note's bytes into what the index stores: frontmatter, title, aliases, tags,
links, headings, block ids and chunks. Parsing never fails: problems become ``issues``."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any

import frontmatter
import yaml
from markdown_it import MarkdownIt
from markdown_it.token import Token

from aleph_mem.errors import FrontmatterTooComplex
from aleph_mem.notes import inline_scan
from aleph_mem.notes.inline_scan import Link

_MD = MarkdownIt("commonmark").enable("table").disable("inline", ignoreInvalid=True)
_MD.options["maxNesting"] = 40
_YAML = frontmatter.YAMLHandler()

MAX_CHUNK_CHARS = 2400
MERGE_CHUNK_CHARS = 1200  # neighbouring blocks without block ids merge up to this size
CHUNK_BLOCKS = {"paragraph_open", "bullet_list_open", "ordered_list_open", "table_open",
                "blockquote_open", "fence", "code_block", "html_block"}


@dataclass(frozen=True)
class Heading:
    level: int
    text: str
    line: int


@dataclass(frozen=True)
class Chunk:
    seq: int
    heading_path: tuple[str, ...]
    block_id: str | None
    line_start: int  # 1-based, inclusive, in the file
    line_end: int
    text: str

    @property
    def anchor(self) -> str:
        if self.block_id:
            return "#^" + self.block_id
        if self.heading_path:
            return "#" + self.heading_path[-1]
        return ""


@dataclass
class ParsedNote:
    frontmatter: dict[str, Any]
    title: str
    aliases: list[str]
    tags: list[tuple[str, str]]  # (tag, "frontmatter" | "inline")
    links: list[Link]
    headings: list[Heading]
    block_ids: list[tuple[str, int]]
    chunks: list[Chunk]
    issues: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)  # a declared title, a differing H1


def decode(data: bytes) -> tuple[str, list[str]]:
    """Bytes to text: BOM dropped, CRLF folded, bad UTF-8 replaced (and reported)."""
    issues = []
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        issues.append(f"not valid UTF-8 at byte {exc.start}: undecodable bytes shown as U+FFFD")
        text = data.decode("utf-8-sig", errors="replace")
    return text.replace("\r\n", "\n").replace("\r", "\n"), issues


def looks_binary(data: bytes) -> bool:
    return b"\x00" in data[:8192]


MAX_FM_DEPTH = 32  # nesting levels a frontmatter value may have
MAX_FM_NODES = 20_000  # values after YAML aliases are expanded (a "billion laughs" stops here)


def json_safe(value: Any, budget: list[int] | None = None, depth: int = 0) -> Any:
    """A JSON-ready copy of a YAML value, within MAX_FM_DEPTH levels and MAX_FM_NODES values
    (a recursive alias such as ``a: &x [*x]`` is too deep; an alias bomb too large)."""
    budget = [MAX_FM_NODES] if budget is None else budget
    budget[0] -= 1
    if budget[0] < 0:
        raise FrontmatterTooComplex(
            f"more than {MAX_FM_NODES} values once YAML aliases are expanded")
    if depth > MAX_FM_DEPTH:
        raise FrontmatterTooComplex(f"nested more than {MAX_FM_DEPTH} levels deep "
                                    "(or a YAML alias that contains itself)")
    if isinstance(value, dict):
        return {str(k): json_safe(v, budget, depth + 1) for k, v in value.items()}
    if isinstance(value, list | tuple | set):
        return [json_safe(v, budget, depth + 1) for v in value]
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def split_frontmatter(text: str) -> tuple[str | None, int, str | None]:
    """Return (yaml text or None, number of lines before the body, problem or None)."""
    if not text.startswith("---"):
        return None, 0, None
    lines = text.split("\n")
    if lines[0].rstrip() != "---":
        return None, 0, None
    for i in range(1, len(lines)):
        if lines[i].rstrip() in ("---", "..."):
            return "\n".join(lines[1:i]), i + 1, None
    return None, 0, "frontmatter is not closed (no second '---' line): read as body text"


def parse_frontmatter(text: str) -> tuple[dict[str, Any], int, list[str]]:
    raw, body_start, problem = split_frontmatter(text)
    if raw is None:
        return {}, body_start, [problem] if problem else []
    try:
        data = _YAML.load(raw) if raw.strip() else {}
    except yaml.YAMLError as exc:
        if "nesting depth" in str(exc):  # PyYAML 6.0.4+ stops deep nesting itself
            return {}, body_start, [f"{TOO_COMPLEX}: nested too deeply to parse: ignored"]
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 2})" if mark is not None else ""
        return {}, body_start, [f"invalid YAML frontmatter{where}: {_first_line(exc)}"]
    except RecursionError:
        return {}, body_start, [f"{TOO_COMPLEX}: nested too deeply to parse: ignored"]
    if data is None:
        return {}, body_start, []
    if not isinstance(data, dict):
        return {}, body_start, ["frontmatter is not a key: value mapping: ignored"]
    try:
        return json_safe(data), body_start, []
    except (FrontmatterTooComplex, RecursionError) as exc:
        return {}, body_start, [f"{TOO_COMPLEX}: {exc}: ignored"]


TOO_COMPLEX = "frontmatter too complex"


def poison_problem(data: bytes) -> str | None:
    """Why a note's bytes must not be written (frontmatter that no reader could load within
    its budgets), or None. Used before new content reaches the disk."""
    text = decode(data)[0]
    return next((p for p in parse_frontmatter(text)[2] if p.startswith(TOO_COMPLEX)), None)


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def _as_list(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [str(v) for v in value if v is not None and not isinstance(v, dict | list)]
    return [str(value)]


def frontmatter_tags(fm: dict[str, Any]) -> list[str]:
    out = []
    for key in ("tags", "tag"):
        for item in _as_list(fm.get(key)):
            for part in re.split(r"[,\s]+", item):
                part = part.strip().lstrip("#").rstrip("/")
                if part:
                    out.append(part)
    return out


def frontmatter_aliases(fm: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for key in ("aliases", "alias"):
        out += [a.strip() for a in _as_list(fm.get(key)) if a.strip()]
    return list(dict.fromkeys(out))


def _block_tokens(body: str) -> tuple[list[Token], str | None]:
    try:
        return _MD.parse(body), None
    except RecursionError:
        return [], "structure nested too deeply to parse: indexed as plain text"


def _masked_body(body: str, tokens: list[Token]) -> str:
    lines = body.split("\n")
    for tok in tokens:
        if tok.map is None:
            continue
        if tok.type in ("fence", "code_block") or (
                tok.type == "html_block" and tok.content.lstrip().startswith("<!--")):
            for i in range(tok.map[0], min(tok.map[1], len(lines))):
                lines[i] = " " * len(lines[i])
    return inline_scan.mask_inline_code_and_comments("\n".join(lines))


def _heading_text(raw: str) -> str:
    return re.sub(r"\s+\^[A-Za-z0-9\-]+\s*$", "", raw).strip()


def parse(data: bytes, file_stem: str, max_bytes: int = 5_000_000) -> ParsedNote:
    issues: list[str] = []
    if len(data) > max_bytes:
        issues.append(f"larger than max_note_bytes ({len(data)} > {max_bytes} bytes): "
                      "only the beginning is indexed")
        data = data[:max_bytes]
    text, decode_issues = decode(data)
    issues += decode_issues
    fm, body_start, fm_issues = parse_frontmatter(text)
    issues += fm_issues
    body = "\n".join(text.split("\n")[body_start:])
    tokens, problem = _block_tokens(body)
    if problem:
        issues.append(problem)
    masked = _masked_body(body, tokens)
    first = body_start + 1
    links, spans = inline_scan.scan_links(masked, first,
                                          body if len(body) == len(masked) else None)
    links += _frontmatter_links(fm, text, body_start)
    tags = [(t, "frontmatter") for t in frontmatter_tags(fm)]
    tags += [(t, "inline") for t in inline_scan.scan_tags(inline_scan.mask_spans(masked, spans))]
    block_ids = inline_scan.scan_block_ids(masked, first)
    headings = _headings(tokens, body_start)
    chunks = _chunks(body, tokens, body_start, block_ids, masked)
    return ParsedNote(fm, file_stem, frontmatter_aliases(fm), tags, links, headings,
                      block_ids, chunks, issues, _other_names(fm, headings, file_stem))


def _frontmatter_links(fm: dict[str, Any], text: str, body_start: int) -> list[Link]:
    out = []
    fm_lines = text.split("\n")[:body_start]
    for value in fm.values():
        for raw in inline_scan.links_in_value(value):
            line = next((i + 1 for i, ln in enumerate(fm_lines) if raw in ln), 1)
            out.append(inline_scan.parse_wikilink(raw, line))
    return out


def _headings(tokens: list[Token], body_start: int) -> list[Heading]:
    out = []
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open" and tok.map is not None:
            out.append(Heading(int(tok.tag[1]), _heading_text(tokens[i + 1].content),
                               body_start + tok.map[0] + 1))
    return out


def declared_title(fm: dict[str, Any]) -> str | None:
    t = fm.get("title")
    if isinstance(t, str | int | float) and not isinstance(t, bool) and str(t).strip():
        return str(t).strip()
    return None


def _other_names(fm: dict[str, Any], headings: list[Heading], stem: str) -> list[str]:
    """Names a note goes by besides its file name (its title, as in Obsidian): a declared
    `title:` and a first heading that differs. Search finds the note by them; they never
    rename it."""
    h1 = next((h.text for h in headings if h.level == 1 and h.text), None)
    names = [n for n in (declared_title(fm), h1) if n]
    return [n for n in dict.fromkeys(names) if n.casefold() != stem.casefold()]


def _chunks(body: str, tokens: list[Token], body_start: int,
            block_ids: list[tuple[str, int]], masked: str) -> list[Chunk]:
    lines = body.split("\n")
    ids_by_line = {line: bid for bid, line in block_ids}
    units: list[tuple[tuple[str, ...], int, int]] = []  # (heading path, start, end) 0-based
    stack: list[tuple[int, str]] = []
    for i, tok in enumerate(tokens):
        if tok.level != 0 or tok.map is None:
            continue
        if tok.type == "heading_open":
            level = int(tok.tag[1])
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, _heading_text(tokens[i + 1].content)))
        elif tok.type in CHUNK_BLOCKS:
            end = min(tok.map[1], len(lines))
            while end > tok.map[0] + 1 and not lines[end - 1].strip():
                end -= 1
            units.append((tuple(h for _, h in stack), tok.map[0], end))
    if not tokens and body.strip():
        units.append(((), 0, len(lines)))
    chunks: list[Chunk] = []
    for path, start, end in units:
        raw_lines = lines[start:end]
        own_id = _block_id_in(ids_by_line, body_start, end)
        if chunks and own_id and _only_block_id(raw_lines) and chunks[-1].block_id is None:
            prev = chunks[-1]
            chunks[-1] = Chunk(prev.seq, prev.heading_path, own_id, prev.line_start,
                               body_start + end, prev.text)
            continue
        for s, e, piece, ends_block in _pieces(lines, start, end):
            text = _strip_block_ids(piece).strip()
            if not text:
                continue
            bid = _block_id_in(ids_by_line, body_start, e) if ends_block else None
            chunks.append(Chunk(len(chunks), path, bid, body_start + s + 1, body_start + e, text))
    return _merge_small(chunks)


def _merge_small(chunks: list[Chunk]) -> list[Chunk]:
    """Join neighbouring blocks under the same heading into one chunk while none of them
    carries a block id (which must stay addressable) and the result stays small."""
    out: list[Chunk] = []
    for c in chunks:
        prev = out[-1] if out else None
        if (prev is not None and prev.heading_path == c.heading_path and prev.block_id is None
                and c.block_id is None and len(prev.text) + len(c.text) <= MERGE_CHUNK_CHARS):
            out[-1] = Chunk(prev.seq, prev.heading_path, None, prev.line_start, c.line_end,
                            prev.text + "\n\n" + c.text)
        else:
            out.append(Chunk(len(out), c.heading_path, c.block_id, c.line_start, c.line_end,
                             c.text))
    return out


def _block_id_in(ids_by_line: dict[int, str], body_start: int, end: int) -> str | None:
    """The block id on the last line of a block (Obsidian puts it there)."""
    return ids_by_line.get(body_start + end)


def _only_block_id(raw_lines: list[str]) -> bool:
    return bool(re.fullmatch(r"\s*\^[A-Za-z0-9\-]+\s*", "\n".join(raw_lines)))


def _strip_block_ids(text: str) -> str:
    return re.sub(r"(^|\s)\^[A-Za-z0-9][A-Za-z0-9\-]*[ \t]*$", r"\1", text, flags=re.MULTILINE)


def _pieces(lines: list[str], start: int, end: int) -> list[tuple[int, int, str, bool]]:
    """A block as chunk-sized pieces (first line, end line, text, whether the piece ends
    the lines it spans): cut at line boundaries, and a line longer than MAX_CHUNK_CHARS
    cut at spaces, so no chunk is unbounded whatever the note's shape (one line of a
    megabyte made each search of it quadratic in FTS5's snippet, issue #36)."""
    out: list[tuple[int, int, str, bool]] = []
    for s, e in _split_long(lines[start:end], start):
        if e - s > 1 or len(lines[s]) <= MAX_CHUNK_CHARS:
            out.append((s, e, "\n".join(lines[s:e]), True))
            continue
        cuts = _cut_line(lines[s])
        out += [(s, e, piece, i == len(cuts) - 1) for i, piece in enumerate(cuts)]
    return out


def _cut_line(line: str) -> list[str]:
    """One overlong line in pieces of at most MAX_CHUNK_CHARS, each cut at the last space
    before the limit (a hard cut in a run without one)."""
    out, pos = [], 0
    while len(line) - pos > MAX_CHUNK_CHARS:
        cut = line.rfind(" ", pos + MAX_CHUNK_CHARS // 2, pos + MAX_CHUNK_CHARS)
        cut = cut + 1 if cut > 0 else pos + MAX_CHUNK_CHARS
        out.append(line[pos:cut])
        pos = cut
    out.append(line[pos:])
    return out


def _split_long(raw_lines: list[str], start: int) -> list[tuple[int, int]]:
    """Cut a block longer than MAX_CHUNK_CHARS at line boundaries."""
    out, s, size = [], start, 0
    for i, line in enumerate(raw_lines):
        if size and size + len(line) > MAX_CHUNK_CHARS:
            out.append((s, start + i))
            s, size = start + i, 0
        size += len(line) + 1
    out.append((s, start + len(raw_lines)))
    return out
