"""What the dream passes see (each note as ``NoteInfo``, the vault as a ``Snapshot``) and
what they return (``Action``s): plain values, with the small readers passes share.

Passes are pure functions of a ``Snapshot``, the settings and the clock; they return
actions that the runner's one shared step applies (``runner.Dream._apply``). How a
snapshot is read from the index is ``snapshot.py``."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from aleph_mem.clock import parse_iso
from aleph_mem.dream.journal_lines import Op
from aleph_mem.files.sync_conflicts import CONFLICT_ISSUE
from aleph_mem.files.vault import ARCHIVE, DREAM, content_hash
from aleph_mem.notes.note_parts import body_of_text, frontmatter_text

PROTECTED = ("MEMORY.md",)
GENERATED = DREAM


@dataclass(frozen=True)
class NoteInfo:
    path: str
    title: str
    hash: str
    frontmatter: dict[str, Any]
    status: str | None
    mtime: dt.datetime
    tags: tuple[str, ...]
    aliases: tuple[str, ...]
    inbound: int
    outbound: int
    body: str
    issues: tuple[str, ...]
    human: bool  # the bytes on disk were last written by a person (R2)
    recall_days: tuple[str, ...] = ()  # distinct days an agent recalled it (last 90)
    soft_inbound: int = 0  # unlinked mentions of it in other notes (L021 soft links)
    other_names: tuple[str, ...] = ()  # a declared `title:`, a first heading that differs
    first_logged: str | None = None  # its first event (synced: the same on every device)
    last_logged: str | None = None  # its latest change by a person or an agent (synced too)

    @property
    def changed_at(self) -> dt.datetime:
        """When a person or an agent last changed the note, as every device knows it: its
        latest logged change (the event files are synced; a file time later than that is
        only when the sync delivered it), else the date the note gives itself (`updated`,
        `created`, `date`), else, for a note nobody changed since aleph-mem began watching
        and that names no date, its file time (the one device-local fallback: git and
        unison do not keep file times)."""
        if self.last_logged:
            return min(parse_iso(self.last_logged), self.mtime)
        for key in ("updated", "created", "date"):
            day = as_date(self.frontmatter.get(key))
            if day is not None:
                return dt.datetime.combine(day, dt.time(), dt.UTC)
        return self.mtime

    @property
    def display(self) -> str:
        """The name to show a reader (a heading or declared title, else the file name)."""
        return self.other_names[0] if self.other_names else self.title

    @property
    def names(self) -> tuple[str, ...]:
        """Every name the note goes by: its file name (its title, as in Obsidian), then
        a declared title and a first heading; aliases are kept apart."""
        return (self.title, *self.other_names)

    @property
    def link_weight(self) -> float:
        """Inbound links for decay: a soft link (a mere mention) counts half."""
        return self.inbound + 0.5 * self.soft_inbound

    @property
    def folder(self) -> str:
        return self.path.rsplit("/", 1)[0] if "/" in self.path else ""

    @property
    def opted_out(self) -> bool:
        fm = self.frontmatter
        return fm.get("dream") is False or self.path in PROTECTED or \
            self.path.startswith((ARCHIVE, GENERATED)) or self.in_conflict

    @property
    def in_conflict(self) -> bool:
        """A sync engine's conflict copy, or a note holding git's markers: a person
        chooses, the passes leave it alone (files/sync_conflicts.py)."""
        return any(i.startswith(CONFLICT_ISSUE) for i in self.issues)

    @property
    def whole(self) -> bool:
        """``body`` is the file exactly (valid UTF-8, not cut at the read limit), so a new
        text computed from it can replace the file without losing a byte."""
        return content_hash(self.body.encode("utf-8")) == self.hash

    @property
    def issues_frontmatter(self) -> bool:
        """Its frontmatter could not be parsed (L002): never patched."""
        return any("frontmatter" in i or "YAML" in i for i in self.issues)

    @property
    def permanent(self) -> bool:
        return bool(self.frontmatter.get("permanent") or self.frontmatter.get("pinned")
                    or "pinned" in self.tags)


@dataclass
class Snapshot:
    now: dt.datetime
    notes: dict[str, NoteInfo]
    # src, resolved, status, raw, anchor found, line
    links: list[tuple[str, str | None, str, str, int | None, int]]
    memory_refs: set[str] = field(default_factory=set)  # notes MEMORY.md links to
    first_seen: dict[str, str] = field(default_factory=dict)  # path -> first event time
    settings: Any = None
    soft: list[tuple[str, str, str]] = field(default_factory=list)  # src, dst, name (L021)
    root: Path | None = None  # the vault folder (drift checks the files notes refer to)
    load_vectors: Callable[[], dict[str, np.ndarray]] | None = None
    _vectors: dict[str, np.ndarray] | None = None
    watched_since: dt.datetime | None = None  # the first event in the log (any device)
    template_folders: tuple[str, ...] = ()  # Obsidian's and Templater's templates folders
    daily_formats: tuple[tuple[str, str], ...] = ()  # (folder, moment format) of dated notes
    drift_marked: dict[str, str] = field(default_factory=dict)  # path -> drift's last write
    # (src, raw) of links aleph-mem resolves only through a note's frontmatter `title:`:
    # Obsidian does not open them, so for the person they are broken (reported, with the
    # note they mean; never rewritten: a tool that links by title meant them)
    by_title: set[tuple[str, str]] = field(default_factory=set)
    # a Logseq graph (``logseq/config.edn``): a page link creates its page, journals are
    # linked by their titles, namespaces live in file names, so no link of it is broken
    # and none is rewritten in Obsidian's syntax
    logseq: bool = False
    # the person keeps a folder "Archive/" (any case but ours): the dream's `archive/` would
    # clash with it on a case-insensitive disk, so nothing is archived (decay, merges)
    archive_clash: bool = False

    def vectors(self) -> dict[str, np.ndarray]:
        """Each note's vector (the normalised mean of its chunks'), loaded on first use;
        empty when the vault has none."""
        if self._vectors is None:
            self._vectors = self.load_vectors() if self.load_vectors else {}
        return self._vectors

    def dated(self, n: NoteInfo) -> bool:
        """A daily, weekly or meeting note: its name (in the vault's own daily-note format
        or a common one), its folder (the daily notes' folder) or its ``date`` says when
        it was written: a record of that day."""
        from aleph_mem.notes.note_dates import dated_name

        if n.frontmatter.get("date") or dated_name(n.path, [f for _, f in self.daily_formats]):
            return True
        return any(folder and n.path.startswith(folder + "/") for folder, _ in
                   self.daily_formats)

    def active(self) -> list[NoteInfo]:
        return [n for p, n in sorted(self.notes.items()) if not n.opted_out]


@dataclass(frozen=True)
class Action:
    """One change a pass wants. ``op``: set (frontmatter keys), archive, rewrite (a note's
    new text, ``content``, computed from the bytes ``base`` names), fold (keys plus text
    appended), generate (a daemon-owned file), remember (the fact ``content`` added to hot
    memory when applied, at ``set_keys["priority"]``: hot memory changes often, so no
    base). ``base`` is the hash the plan was made from."""

    pass_name: str
    op: Op
    path: str
    base: str | None
    reason: str
    set_keys: dict[str, Any] = field(default_factory=dict)
    unset: tuple[str, ...] = ()
    content: str = ""
    propose: bool = False  # R2/R6: record as a proposal instead of applying
    group: str = ""  # actions of one group are proposed as one checkbox and applied together
    shows: tuple[str, ...] = ()  # Markdown lines a proposal shows under its checkbox
    judged: str = ""  # the state drift judged (stale, contradicted, superseded), kept in the
    # index while the proposal is open, whatever the keys it would write

    @property
    def key(self) -> str:
        body = json.dumps([self.pass_name, self.op, self.path, self.set_keys, list(self.unset),
                           self.reason], sort_keys=True, default=str)
        return "P-" + hashlib.sha256(body.encode()).hexdigest()[:8]

    def describe(self) -> str:
        if self.op == "archive":
            return f"archive [[{self.path[:-3]}]] ({self.reason})"
        if self.op == "generate":
            return f"write {self.path}"
        if self.op in ("rewrite", "remember"):
            return f"[[{self.path[:-3]}]]: {self.reason}"
        keys = ", ".join(f"{k}: {v}" for k, v in self.set_keys.items())
        gone = ", ".join(f"remove {k}" for k in self.unset)
        return f"[[{self.path[:-3]}]]: {', '.join(x for x in (keys, gone) if x)} ({self.reason})"


def body_of(note: NoteInfo) -> str:
    return body_of_text(note.body)


def as_date(value: object) -> dt.date | None:
    if isinstance(value, str) and re.match(r"\d{4}-\d{2}-\d{2}", value):
        try:
            return dt.date.fromisoformat(value[:10])
        except ValueError:
            return None
    return None


def facts_of(n: NoteInfo) -> list[str]:
    """A note's facts: its list items and the sentences of its paragraphs."""
    text = re.sub(r"^#\s+.*$", "", body_of(n), count=1, flags=re.M)
    out = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", "```", "|")):
            continue
        if re.match(r"^[-*+]\s+|^\d+[.)]\s+", line):
            out.append(re.sub(r"^[-*+]\s+|^\d+[.)]\s+", "", line))
        else:
            out += [s.strip() for s in re.split(r"(?<=[.!?])\s+", line) if s.strip()]
    return out


TEMPLATE_FOLDERS = frozenset({"templates", "template", "_templates", "_template"})


def in_templates(n: NoteInfo, snap: Snapshot) -> bool:
    """A template (under ``Templates/`` or the folder Obsidian's or Templater's settings
    name): placeholders, not facts; the dream reads no staleness or decay into it."""
    if any(f.casefold() in TEMPLATE_FOLDERS for f in n.path.split("/")[:-1]):
        return True
    return any(n.path.startswith(t.rstrip("/") + "/") for t in snap.template_folders)


PLACEHOLDER = re.compile(r"\{\{[^{}\n]{1,80}\}\}|<%[\s\S]{0,400}?%>")


def templated(n: NoteInfo) -> bool:
    """A template kept outside a templates folder: a placeholder (``{{date}}``, Templater's
    ``<% %>``) in its frontmatter or its title line. A placeholder further down is text (an
    n8n or Jinja expression a note explains)."""
    head, rest = frontmatter_text(n.body)
    first = next((ln for ln in rest.splitlines() if ln.strip() and ln.strip() != "---"), "")
    return bool(PLACEHOLDER.search(head) or PLACEHOLDER.search(first))


GENERIC_NAMES = frozenset({
    "overview", "readme", "index", "notes", "note", "home", "todo", "to do", "tasks", "ideas",
    "log", "journal", "summary", "details", "info", "misc", "untitled", "draft", "meeting",
    "meeting notes", "agenda", "plan", "plans", "status", "changelog", "inbox", "scratch",
    "test", "tests", "temp", "tmp", "example", "sample", "demo", "new", "new note"})
DATE_NAME = re.compile(r"^\d{4}(-\d{2}){0,2}([ _-].*)?$|^\d{4}-w\d{2}$")


def generic_name(name: str) -> bool:
    """A file or page name that many folders use for different things (``Overview``,
    ``README``, ``index``, a date): two notes sharing it share no subject by that alone."""
    key = re.sub(r"^untitled( \d+)?$", "untitled", name.strip().casefold())
    return key in GENERIC_NAMES or bool(DATE_NAME.match(key))
