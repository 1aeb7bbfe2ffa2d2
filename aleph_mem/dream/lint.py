"""lint (docs/dream.md, lint): structure and hygiene. Issues are reported (the digest's "needs
attention"); the safe fixes are planned as actions like any other pass's."""

from __future__ import annotations

import calendar
import datetime as dt
import difflib
import json
import re
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from aleph_mem.clock import parse_iso
from aleph_mem.dream.view import (
    Action,
    NoteInfo,
    Snapshot,
    body_of,
    generic_name,
    in_templates,
    templated,
)
from aleph_mem.files.atomic import write_atomic
from aleph_mem.files.sync_conflicts import CONFLICT_ISSUE
from aleph_mem.files.vault import ARCHIVE, DREAM
from aleph_mem.notes import frontmatter_edit
from aleph_mem.notes.note_parts import linked_path
from aleph_mem.notes.prose import clipped, own_prose
from aleph_mem.shown import one_line


@dataclass(frozen=True)
class Issue:
    rule: str
    path: str
    message: str

    @property
    def id(self) -> str:
        return f"{self.rule}:{self.path}:{self.message}"


def lint_issues(snap: Snapshot) -> list[Issue]:
    out = []
    suggest = Suggester(snap)
    for src, target, status, raw, anchor, line in [] if snap.logseq else snap.links:
        note = snap.notes.get(src)
        if note is None or note.opted_out or _disabled(note, "L010") or \
                in_templates(note, snap) or templated(note):
            continue  # a template's links are placeholders for the notes made from it
        if status == "unresolved" and (HOST.match(raw) or folder_link(raw, src, snap)):
            continue  # a web address without its scheme; a folder (GitHub lists it)
        if status == "unresolved" and day_link(raw, snap):  # the lint page only
            out.append(Issue("L014", src, f"link to a day not written {raw}"))
        elif status == "unresolved" and clipping(note):  # the lint page only
            out.append(Issue("L015", src, f"broken link in a clipping {raw}"))
        elif status == "unresolved":
            out.append(Issue("L010", src, f"broken link {raw}{suggest.fix(raw)}"))
        elif (src, raw) in snap.by_title and target:
            out.append(Issue("L010", src, f"broken link {raw} (only {target}'s `title:` says "
                             "so; Obsidian links by file name): did you mean "
                             f"[[{suggest.link_name(target)}|{raw.strip('![]').split('|')[0]}]]?"))
        elif status == "ambiguous":
            out.append(Issue("L011", src, f"ambiguous link {raw}"))
        elif anchor == 0:
            out.append(Issue("L012", src, f"broken heading or block anchor {raw}"))
        elif target and target.startswith(ARCHIVE) and not src.startswith(ARCHIVE) \
                and line > _frontmatter_lines(note) and merged_into(snap, target) != src:
            # `source_notes` and "Merged from [[…]]" are the keeper's record of a merge
            out.append(Issue("L013", src, f"link to an archived note {raw}: restore it with "
                             f"`aleph-mem restore {target}` or update the link"))
    out += [Issue("L050", n.path, problem.removeprefix(CONFLICT_ISSUE).strip() + "; the "
                  "digest proposes the ways out") for n in snap.notes.values()
            if not n.path.startswith(ARCHIVE) and n.in_conflict
            for problem in n.issues if problem.startswith(CONFLICT_ISSUE)]
    titles: dict[str, list[str]] = {}
    queried = queried_sources(snap)
    for n in snap.active():
        if in_templates(n, snap) or templated(n):
            continue  # a template: placeholders, unlinked, "{{date}}", "Tomorrow", not a note
        for problem in n.issues:
            if "frontmatter" in problem or "YAML" in problem:
                out.append(Issue("L002", n.path, problem))
        if n.inbound == 0 and n.outbound == 0 and not _disabled(n, "L020") and \
                not snap.logseq and n.frontmatter.get("type") != "session" and not n.tags and \
                not reached_by_query(n, queried) and not QUERY.search(n.body):
            # tags and queries reach a note too, and a note of queries reaches others
            out.append(Issue("L020", n.path, "orphan: no links in or out"))
        if not body_of(n).strip() and not n.frontmatter and not n.issues_frontmatter \
                and not _disabled(n, "L040"):  # a note of properties is a record
            out.append(Issue("L040", n.path, "empty note"))
        name = n.path.rsplit("/", 1)[-1]
        if (UNSAFE_NAME.search(name) or name.lower().endswith(".md.md")) \
                and not _disabled(n, "L032"):
            out.append(Issue("L032", n.path, "file name with characters links and other "
                             "systems trip over (#^[]|\\:*?\"<>) or a doubled .md"))
        ended = stated_end(n, snap)
        if ended and not _disabled(n, "L043"):  # a person's: the lint page, never a mark
            out.append(Issue("L043", n.path, f"the text says it ended {ended[0].isoformat()}: "
                             f"\"{ended[1]}\""))
        phrase = aged_relative_time(n, snap)
        if phrase and not _disabled(n, "L042"):
            out.append(Issue("L042", n.path, f"relative time \"{phrase}\" in a note its name "
                             "does not date: write the date instead"))
        stem = name[:-3]
        if not generic_name(stem):  # six projects' Overview.md are named by their folders
            titles.setdefault(stem.casefold(), []).append(n.path)
    for paths in titles.values():
        if len(paths) > 1:
            out += [Issue("L030", p, f"name shared with {', '.join(x for x in paths if x != p)}"
                          f": a bare [[{p.rsplit('/', 1)[-1][:-3]}]] may open either")
                    for p in paths]
    off = vault_off(snap)
    return sorted((i for i in out if i.rule not in off), key=lambda i: (i.path, i.rule,
                                                                       i.message))


QUERY = re.compile(r"^```(?:dataview|dataviewjs|query|tasks)\b|\bdv\.pages\(", re.M)
DATAVIEW_FROM = re.compile(r"\bFROM\s+(.+)$", re.I | re.M)
DV_PAGES = re.compile(r"dv\.pages\(\s*['\"]([^'\"]+)['\"]")
SOURCE = re.compile(r"#([\w/-]+)|\"([^\"\n]+)\"")


MD_DEST = re.compile(r"^!?\[[^\]]*\]\(<?([^)>]+?)>?(?:\s+\"[^\"]*\")?\)$")


def folder_link(raw: str, src: str, snap: Snapshot) -> bool:
    """A Markdown link to a folder of the vault (``[notes](books/cpp)``): GitHub and most
    editors open it as the folder's listing; it is not a broken link."""
    m = MD_DEST.match(raw)
    if not m or snap.root is None:
        return False
    from urllib.parse import unquote

    dest = unquote(m.group(1)).split("#")[0].strip().rstrip("/")
    if not dest:
        return False
    base = snap.root / src.rsplit("/", 1)[0] if "/" in src else snap.root
    try:
        folder = (base / dest).resolve()
        return folder.is_dir() and folder.is_relative_to(snap.root.resolve())
    except (OSError, ValueError):
        return False


def clipping(n: NoteInfo) -> bool:
    """Filed as a clipping (a clippings or Readwise folder or tag): its links are its
    source's ("[[Cal Newport]]" by the exporter), not the person's. A `source:` key alone
    does not make one: people note where their own notes came from."""
    return clipped(n.path, {}, n.tags)


def day_link(raw: str, snap: Snapshot) -> bool:
    """A wikilink to a day (``[[2024-01-12]]``, or in the vault's daily-note format): a
    daily template's previous and next day, which Obsidian makes when clicked. Read blind,
    19 of 20 such "broken links" in one journal were days nobody wrote, not worth a line."""
    from aleph_mem.notes.note_dates import dated_name

    m = WIKI.match(raw)
    if not m or not m.group(2).strip():
        return False
    name = m.group(2).strip().rsplit("/", 1)[-1]
    formats = [f for _, f in snap.daily_formats]
    return dated_name(name + ".md", formats) and not re.search(r"[A-Za-z]{4,}",
                                                               CALENDAR_WORDS.sub("", name))


CALENDAR_WORDS = re.compile("|".join(sorted(
    {w for w in (*calendar.month_name, *calendar.day_name) if w}, key=len, reverse=True)), re.I)


def queried_sources(snap: Snapshot) -> tuple[set[str], set[str]]:
    """(tags, folders) that Dataview queries in the vault list pages from (``FROM #book``,
    ``FROM "Projects"``, ``dv.pages('"Projects"')``): a page they list is reached."""
    tags: set[str] = set()
    folders: set[str] = set()
    for n in snap.notes.values():
        if "dataview" not in n.body and "dv." not in n.body:
            continue
        for source in [*DATAVIEW_FROM.findall(n.body), *DV_PAGES.findall(n.body)]:
            for tag, folder in SOURCE.findall(source):
                if tag:
                    tags.add(tag.casefold())
                elif folder:
                    folders.add(folder.strip("/"))
    return tags, folders


def reached_by_query(n: NoteInfo, queried: tuple[set[str], set[str]]) -> bool:
    tags, folders = queried
    return any(t.casefold().lstrip("#") in tags for t in n.tags) or \
        any(n.path.startswith(f + "/") for f in folders if f)


def stated_end(n: NoteInfo, snap: Snapshot) -> tuple[dt.date, str] | None:
    """On a person's undated note with no `valid_until` or `expires`, an end of validity its
    prose states that has passed ("our lease runs until March 2021"). Shown on the lint
    page only: read blind, such dates in a person's prose were as often a story's or
    history's (docs/benchmarks.md), so the note is never marked for it."""
    from aleph_mem.dream.view import as_date
    from aleph_mem.notes.prose_dates import validity_end

    fm = n.frontmatter
    if not n.human or snap.dated(n) or fm.get("valid_until") or fm.get("expires") or \
            n.status in ("stale", "superseded", "contradicted"):
        return None
    written = as_date(fm.get("updated")) or as_date(fm.get("created")) or n.changed_at.date()
    found = validity_end(body_of(n), written, as_date(fm.get("created")))
    return found if found and found[0] < snap.now.date() else None


def aged_relative_time(n: NoteInfo, snap: Snapshot) -> str | None:
    """A relative time a person wrote of their own doings ("I'll call them tomorrow", "we
    met last week") in a note that no name, folder or ``date`` dates, changed more than two
    days ago: the day it meant is lost. Not a quote, code, a link or a clipped page; not a
    name ("the Tomorrow theme", "Today view"); not prose addressed to a reader or general
    ("you can open today's note", "today is a good day to start")."""
    if (snap.now - n.changed_at).days <= 2 or snap.dated(n) or \
            clipped(n.path, n.frontmatter, n.tags):
        return None
    for line in own_prose(body_of(n)).splitlines():
        if line.lstrip().startswith(("#", "|")):
            continue  # a heading names a section; a table cell is data
        for sentence in SENTENCE_END.split(line):
            m = RELATIVE_TIME.search(sentence)
            if m is None or READER.search(sentence) or GENERAL.search(sentence) or not (
                    FIRST_PERSON.search(sentence) or TASK.match(line)):
                continue  # only the writer's own doings: "I", "we", or a task of theirs
            starts = not sentence[:m.start()].strip(" -*>[]0123456789.)")
            if m.group()[0].isupper() and not starts:
                continue  # a name in mid-sentence
            return m.group()
    return None


HOST = re.compile(r"^!?\[[^\]]*\]\(<?(?:www\.|(?:[a-z0-9-]+\.)+(?:com|org|net|io|dev|app|ai|"
                  r"co|me|edu|gov|info|xyz|so|gg|tv|fm|sh|ly|to|us|uk|de|fr|jp|cn|ru|ca|au|in|"
                  r"nl|eu|ch|se|es|it|br|kr|tw|vn)(?:[/?#:][^)\s]*)?[>)\s])", re.I)
SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
FIRST_PERSON = re.compile(r"\b(?:I|I'm|I'll|I've|I'd)\b|"
                          r"\b(?i:me|my|we|we're|we'll|we've|us|our)\b")
TASK = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?:\[.\]\s+)?")
READER = re.compile(r"\b(?:you|your|you'll|you're|yourself|one can|users?)\b", re.I)
GENERAL = re.compile(r"\b(?:today|tomorrow|yesterday)(?:'s)?\s+(?:is|are|was|will be)\s+"
                     r"(?:a|an|the|not|never|always|just|another)\b|\b(?:is|was|for|of|until)\s+"
                     r"today\b", re.I)


QUOTED_LINK = re.compile(r"^(broken link |ambiguous link |broken heading or block anchor |"
                         r"link to an archived note |link to a day not written |"
                         r"broken link in a clipping )(.+?)(?=: | \(only |$)")


def as_read(message: str) -> str:
    """An issue as a page shows it: the link it is about as code, so the page itself holds
    no broken link (in Obsidian one would show in the graph and make a note when clicked)."""
    return QUOTED_LINK.sub(lambda m: m.group(1) + code(m.group(2)), message, count=1)


def code(text: str) -> str:
    """``text`` as a Markdown code span, fenced with more backticks than it holds (a link
    whose heading has a code span in it stays one span)."""
    fence = "`" * (max((len(r) for r in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def vault_off(snap: Snapshot) -> set[str]:
    """Rules the `lint_disable` setting turns off for the whole vault."""
    return set(getattr(snap.settings, "lint_disable", None) or [])


UNSAFE_NAME = re.compile(r'[#^\[\]|\\:*?"<>]')
RELATIVE_TIME = re.compile(r"\b(today|yesterday|tomorrow|tonight|this (?:morning|week|month)|"
                           r"last (?:night|week|month|year)|next (?:week|month|year|monday|"
                           r"tuesday|wednesday|thursday|friday|saturday|sunday))\b",
                           re.IGNORECASE)


def _disabled(n: NoteInfo, rule: str) -> bool:
    off = n.frontmatter.get("lint-disable")
    items = off if isinstance(off, list) else [off] if isinstance(off, str) else []
    return "all" in items or rule in items


def plan_lint(snap: Snapshot) -> list[Action]:
    """The safe fixes: duplicate entries (L006), missing frontmatter or keys (L001/L003),
    tags written as one string (L004), broken wikilinks with exactly one loose match (L010).
    On a note a person wrote they are proposals, and L001/L003/L004 are only proposed there
    when ``lint_fix_human`` is on (a person's plain notes are valid notes). (L007, `updated`
    from the file time, is left out: the dream's own metadata writes move the file time,
    so it would chase itself.)"""
    fix_human = bool(getattr(snap.settings, "lint_fix_human", False))
    required = list(getattr(snap.settings, "lint_required_keys", REQUIRED_KEYS))
    off = vault_off(snap)
    repairs = {} if "L010" in off else link_repairs(snap)
    actions = []
    for n in snap.active():
        fixes: dict[str, dict] = {}
        if not _disabled(n, "L006"):
            fixes["L006"] = _dedup(n)
        if (fix_human or not n.human) and not n.issues_frontmatter:
            if not _disabled(n, "L004"):
                fixes["L004"] = _tags_as_list(n)
            rule = "L003" if n.frontmatter else "L001"
            if not _disabled(n, rule):
                defaults = _defaults(n, snap)
                fixes[rule] = {k: defaults[k] for k in required
                               if k in defaults and k not in n.frontmatter}
        fixes = {r: f for r, f in fixes.items() if r not in off}
        keys = {k: v for rule in ("L006", "L004", "L001", "L003")
                for k, v in fixes.get(rule, {}).items()}
        why = "; ".join(f"{r} {', '.join(f)}" for r, f in fixes.items() if f)
        if n.path in repairs:  # one write per note: the links, then the keys
            text, what = repairs[n.path]
            if keys:
                text = frontmatter_edit.patch(text.encode("utf-8"), keys, []).decode("utf-8")
            actions.append(Action("lint", "rewrite", n.path, n.hash, "; ".join(
                x for x in (what, why) if x), content=text, propose=n.human))
        elif keys:
            actions.append(Action("lint", "set", n.path, n.hash, why, keys, propose=n.human))
    return actions


REQUIRED_KEYS = ("category", "tags", "created")


def _dedup(n: NoteInfo) -> dict:
    """A list property with an item twice, written once. Only lists of plain values: an
    unquoted ``[Title: Subtitle]`` reads as a mapping, which the dream leaves as it is."""
    keys = {}
    for key in ("tags", "aliases", "source_notes"):
        v = n.frontmatter.get(key)
        if not isinstance(v, list) or not all(isinstance(x, (str, int, float)) for x in v):
            continue
        if len(v) != len(dedup := list(dict.fromkeys(v))):
            keys[key] = dedup
    return keys


def _tags_as_list(n: NoteInfo) -> dict:
    """``tags: "a, b #c"`` → ``[a, b, c]``: lossless, so safe."""
    v = n.frontmatter.get("tags")
    if not isinstance(v, str):
        return {}
    tags = [t.lstrip("#") for t in re.split(r"[,\s]+", v) if t.lstrip("#")]
    return {"tags": list(dict.fromkeys(tags))}


def _defaults(n: NoteInfo, snap: Snapshot) -> dict:
    """lint L001: ``category`` from the top folder, ``tags: []``, ``created`` from the
    earliest of the first event aleph-mem logged for the note and its file time (never
    simply today), ``updated`` from the file time."""
    mtime = n.mtime.astimezone(dt.UTC).replace(microsecond=0)
    first = snap.first_seen.get(n.path)
    created = min(mtime, _parse(first)) if first else mtime
    out = {"tags": [], "created": _rfc3339(created), "updated": _rfc3339(mtime)}
    if "/" in n.path:
        out["category"] = n.path.split("/", 1)[0]
    return out


def _parse(at: str) -> dt.datetime:
    return parse_iso(at).replace(microsecond=0)


def _rfc3339(t: dt.datetime) -> str:
    return t.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


# -- L010: broken wikilinks with one loose match ---------------------------------------------

WIKI = re.compile(r"^(!?)\[\[([^\]|#]*)((?:#[^\]|]*)?)((?:\|[^\]]*)?)\]\]$")
IN_LINE = re.compile(WIKI.pattern[1:-1])  # the same, anywhere in a line


def loose_key(name: str) -> str:
    """Case-, width- and separator-insensitive: ``Ｍy_Note`` ~ ``my note`` ~ ``my-note``."""
    text = unicodedata.normalize("NFKC", name).casefold()
    # separators between words only: "[[Haskell -]]" (the minus operator's note) is not
    # a loose "Haskell" (read blind, that repair was wrong)
    return re.sub(r"(?<=\w)[\s_\-]+(?=\w)", " ", text).strip()


class Suggester:
    """The fix a broken wikilink names, when exactly one note is a close match: the same
    name but for case, width and separators, or a near spelling (difflib ratio >= 0.85,
    ``[[Amara Okafro]]``, ``[[Tomas Ortega]]``) with the same digits, since
    ``[[Lisbon 2026]]`` is not a misspelt ``Lisbon 2025``. Never a guess among two."""

    CUTOFF = 0.85

    def __init__(self, snap: Snapshot) -> None:
        self.names = repair_candidates(snap)
        self.headings = heading_candidates(snap)
        self.stems = Counter(p.rsplit("/", 1)[-1][:-3].casefold() for p in snap.notes)
        self.by_first: dict[str, list[str]] = {}
        for key in self.names:
            self.by_first.setdefault(_first(key), []).append(key)

    def loose(self, target: str) -> tuple[set[str], bool]:
        """The notes a link target names but for case, width and separators: by file name
        or alias, else by a declared title or first heading (True: found by heading)."""
        key = loose_key(target.rsplit("/", 1)[-1])
        if key in self.names:
            return self.names[key], False
        return self.headings.get(key, set()), True

    def link_name(self, path: str) -> str:
        """How a link names ``path``: its file name, or its path where two share it."""
        stem = path.rsplit("/", 1)[-1][:-3]
        return stem if self.stems.get(stem.casefold(), 0) == 1 else path[:-3]

    def fix(self, raw: str) -> str:
        m = WIKI.match(raw)
        if not m or not m.group(2).strip() or ":" in m.group(2):
            return ""  # a plugin's "[[folder:x]]" names no note
        found, by_heading = self.loose(m.group(2))
        shown = (m.group(4) or "|" + m.group(2).strip()) if found and by_heading else ""
        if not found:
            key = loose_key(m.group(2).rsplit("/", 1)[-1])
            digits = re.findall(r"\d+", key)
            close = [k for k in difflib.get_close_matches(
                key, self.by_first.get(_first(key), []), n=3, cutoff=self.CUTOFF)
                if re.findall(r"\d+", k) == digits]
            found = self.names[close[0]] if len(close) == 1 else set()
        if len(found) != 1:
            return ""
        path = next(iter(found))
        why = f" (only {path}'s heading or title says so; Obsidian links by file name)" \
            if shown else SPACES if _only_spaces_differ(m.group(2), self.link_name(path)) \
            else ""
        return f"{why}: did you mean [[{self.link_name(path)}{shown}]]?"


def _first(key: str) -> str:
    """The first letter without its accent (``Tomás`` and ``Tomas`` meet)."""
    decomposed = unicodedata.normalize("NFKD", key[:1])
    return decomposed[:1]


def heading_candidates(snap: Snapshot) -> dict[str, set[str]]:
    """loose key → the active notes a declared title or first heading names so (aleph-mem
    finds them by it; Obsidian does not open a link by it)."""
    out: dict[str, set[str]] = {}
    for n in snap.notes.values():
        if not n.path.startswith(ARCHIVE):
            for name in n.other_names:
                out.setdefault(loose_key(name), set()).add(n.path)
    return out


def repair_candidates(snap: Snapshot) -> dict[str, set[str]]:
    """loose key → the active notes whose file name or alias has it."""
    out: dict[str, set[str]] = {}
    for n in snap.notes.values():
        if n.path.startswith(ARCHIVE):
            continue
        stem = n.path.rsplit("/", 1)[-1][:-3]
        for name in (stem, *n.aliases):
            out.setdefault(loose_key(name), set()).add(n.path)
    return out


def link_repairs(snap: Snapshot) -> dict[str, tuple[str, str]]:
    """A broken wikilink is rewritten only when exactly one note's file name or alias
    matches it loosely (case, width, separators), or, failing that, exactly one note's
    declared title or first heading (names aleph-mem knows and Obsidian does not open);
    two or more candidates, or none: it stays reported. The shown text is kept with an
    alias (``[[Real Name|as written]]``). Returns path → (its new text, what was
    repaired)."""
    suggest = Suggester(snap)
    fixes: dict[str, list[tuple[int, str, str]]] = {}
    for src, resolved, status, raw, _, line in [] if snap.logseq else snap.links:
        note = snap.notes.get(src)
        m = WIKI.match(raw)
        if not m or note is None or note.opted_out or _disabled(note, "L010"):
            continue
        bang, target, anchor, alias = m.groups()
        keeper = merged_into(snap, resolved) if status == "resolved" else None
        if keeper is not None:  # a merge left this link pointing into the archive
            if keeper == src or line <= _frontmatter_lines(note):
                continue  # the keeper's own record of what it absorbed (source_notes)
            found = {keeper}
        elif status != "unresolved":
            continue
        else:
            if ":" in target:
                continue  # no note's name holds ":": a plugin's "[[folder:x]]", not a slip
            if "/" in target and generic_name(target.rsplit("/", 1)[-1]):
                continue  # "[[Notes/Refactor/Test]]": a generic name elsewhere is a guess
            found, by_heading = suggest.loose(target)
            if by_heading:
                continue  # another note's heading is a guess at what was meant: only hinted
        if len(found) != 1 or found == {src}:
            continue  # none, several, or the note itself (a link to itself repairs nothing)
        name = suggest.link_name(next(iter(found)))
        if _linked_on_line(note.body, line, name, raw):
            continue  # the line already links there: the person meant another note

        spaced = _only_spaces_differ(target, name)
        shown = alias or ("|" + target.strip() if not anchor and not spaced else "")
        if shown.startswith("|") and _in_table(note.body, line):
            shown = "\\" + shown  # a table cell's bar ends the cell: Obsidian's escape
        fixes.setdefault(src, []).append(
            (line, raw, f"{bang}[[{name}{anchor}{shown}]]" + (SPACES if spaced else "")))
    out = {}
    for src, edits in sorted(fixes.items()):
        note = snap.notes[src]
        if not note.whole:
            continue  # not valid UTF-8, or too big to hold whole: never rewritten
        text = _rewrite_lines(note.body, [(ln, o, n.removesuffix(SPACES)) for ln, o, n in edits])
        if text is not None and text != note.body:
            shown = [f"{o} → {n}" for _, o, n in edits[:REPAIRS_SHOWN]]
            more = len(edits) - REPAIRS_SHOWN
            out[src] = (text, "L010 repaired " + ", ".join(shown)
                        + (f" and {more} more in the note" if more > 0 else ""))
    return out


REPAIRS_SHOWN = 5  # a proposal names at most this many of a note's repairs


def _linked_on_line(body: str, line: int, name: str, raw: str) -> bool:
    """The file's line ``line`` already holds another link to ``name`` (by its name or
    path), beside the broken one."""
    lines = body.split("\n")
    if not 0 < line <= len(lines):
        return False
    want = {name.casefold(), name.rsplit("/", 1)[-1].casefold()}
    return any(m.group(0) != raw and m.group(2).strip().casefold() in want
               for m in IN_LINE.finditer(lines[line - 1]))


def _in_table(body: str, line: int) -> bool:
    """The file's line ``line`` (1-based) is a row of a Markdown table."""
    lines = body.split("\n")
    return 0 < line <= len(lines) and lines[line - 1].lstrip().startswith("|")


SPACES = " (the link has a non-breaking or doubled space its note's name has not)"


def _only_spaces_differ(target: str, name: str) -> bool:
    """The link and the note's name read the same but for the kind or number of spaces
    (a non-breaking space pasted in): the repair would look like no change at all."""
    plain = " ".join(target.split())
    return target != name and plain == name.rsplit("/", 1)[-1]


def _frontmatter_lines(n: NoteInfo) -> int:
    return n.body[:len(n.body) - len(body_of(n))].count("\n")


def merged_into(snap: Snapshot, target: str | None) -> str | None:
    """The note an archived note was merged into, when it is still there."""
    gone = snap.notes.get(target or "") if (target or "").startswith(ARCHIVE) else None
    raw = gone.frontmatter.get("merged_into") if gone is not None else None
    keeper = linked_path(raw)
    return keeper if keeper in snap.notes and not keeper.startswith(ARCHIVE) else None


def _rewrite_lines(body: str, edits: list[tuple[int, str, str]]) -> str | None:
    """Each edit replaces the link on its own line (1-based); a line holding a code span
    is left alone (the same text could be code there). None when nothing applies."""
    lines = body.split("\n")
    done = False
    for line, old, new in edits:
        i = line - 1
        if 0 <= i < len(lines) and old in lines[i] and "`" not in lines[i]:
            lines[i] = lines[i].replace(old, new, 1)
            done = True
    return "\n".join(lines) if done else None


# -- what is new, still open, fixed: the ledger and the report ----------------------------------

REPORT_PATH = f"{DREAM}lint.md"
LEDGER_NAME = "lint-seen.json"
KEEP_FIXED_DAYS = 7


@dataclass(frozen=True)
class Ledger:
    """When each open issue was first seen, and when recent ones were fixed (by id). Kept in
    ``.aleph/local/`` (derived: deleting it only resets "new since")."""

    open: dict[str, str]
    fixed: dict[str, str]
    was: dict[str, str] = field(default_factory=dict)  # a fixed issue -> when first seen

    @classmethod
    def load(cls, local_dir: Path) -> Ledger:
        try:
            data = json.loads((local_dir / LEDGER_NAME).read_text(encoding="utf-8"))
            return cls(dict(data.get("open", {})), dict(data.get("fixed", {})),
                       dict(data.get("was", {})))
        except (FileNotFoundError, ValueError, AttributeError, TypeError):
            return cls({}, {})

    def updated(self, issues: list[Issue], today: str) -> Ledger:
        """Issues open now keep the day first seen, also one fixed and back within
        KEEP_FIXED_DAYS (an undo brings a note's old broken links back: not new)."""
        now = {i.id for i in issues}
        cutoff = (dt.date.fromisoformat(today) - dt.timedelta(days=KEEP_FIXED_DAYS)).isoformat()
        fixed = {k: d for k, d in self.fixed.items() if d >= cutoff and k not in now}
        fixed.update({k: today for k in self.open if k not in now and k not in fixed})
        was = {k: self.was.get(k) or self.open.get(k) or today for k in fixed}
        return Ledger({k: self.open.get(k) or self.was.get(k) or today for k in sorted(now)},
                      fixed, was)

    def save(self, local_dir: Path) -> None:
        local_dir.mkdir(parents=True, exist_ok=True)
        write_atomic(local_dir / LEDGER_NAME, json.dumps(
            {"open": self.open, "fixed": self.fixed, "was": self.was}).encode())

    def first_seen(self, issue: Issue, today: str) -> str:
        return self.open.get(issue.id, today)


def lint_report(issues: list[Issue], ledger: Ledger, today: str,
                soft: Sequence[tuple[str, str, str]] = ()) -> str:
    """``_dream/lint.md``: every open issue by rule, with the day it was first seen, and
    the unlinked mentions kept as soft links (L021)."""
    fixed_today = sorted(k for k, d in ledger.fixed.items() if d == today)
    new = sum(1 for i in issues if ledger.first_seen(i, today) == today)
    out = ["---", "type: digest", "generated_by: dream", "dream: false", "---",
           "# Lint report", "",
           f"{len(issues)} open ({new} new today), {len(fixed_today)} fixed today. "
           "Rules are described in the aleph-mem docs (docs/dream.md); silence one for a note "
           "with `lint-disable: [L020]` in its frontmatter.", ""]
    by_rule: dict[str, list[Issue]] = {}
    for i in issues:
        by_rule.setdefault(i.rule, []).append(i)
    for rule in sorted(by_rule):
        out += [f"## {rule} ({len(by_rule[rule])})", ""]
        out += [f"- [[{i.path[:-3]}]]: {as_read(i.message)} (since "
                f"{ledger.first_seen(i, today)})"
                for i in by_rule[rule]]
        out.append("")
    if soft:
        out += [f"## L021 unlinked mentions ({len(soft)}, kept as soft links)", "",
                "Not changed in the notes; link them yourself where the mention is meant.", ""]
        out += [f"- [[{s[:-3]}]] mentions \"{name}\" ([[{d[:-3]}]])"
                for s, d, name in soft[:200]] + [""]
    if fixed_today:
        out += ["## Fixed today", ""]
        out += [f"- {k.split(':', 2)[0]} {k.split(':', 2)[1]}: {as_read(k.split(':', 2)[2])}"
                for k in fixed_today] + [""]
    return "\n".join(one_line(line) for line in out)
