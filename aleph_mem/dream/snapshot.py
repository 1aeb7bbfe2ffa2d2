"""Reading the index into a ``Snapshot`` for the dream passes, and the rules for the files
the dream itself owns (a generated page is rewritten only while the dream wrote it last)."""

from __future__ import annotations

import datetime as dt
import json
import re
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from aleph_mem.clock import parse_iso
from aleph_mem.dream.journal import Journal
from aleph_mem.dream.mentions import load as load_soft
from aleph_mem.dream.view import Action, NoteInfo, Snapshot
from aleph_mem.files.vault import content_hash
from aleph_mem.index import graph, reading
from aleph_mem.notes.parser import declared_title
from aleph_mem.store import Store
from aleph_mem.writes import events
from aleph_mem.writes.events import by_person, undone_event

if TYPE_CHECKING:
    import apsw


def generated(mem: Store, pass_name: str, path: str, content: str,
              reason: str) -> Action | None:
    """Write (or rewrite) a daemon-owned file, unless it already says this, or a person
    edited it since the dream last wrote it (then it is theirs and is left alone)."""
    current = mem.vault.read_bytes(path)
    if current is None:
        return Action(pass_name, "generate", path, None, reason, content=content)
    if current.decode("utf-8", "replace") == content:
        return None
    if not dream_wrote_last(mem, path, current):
        return None
    return Action(pass_name, "generate", path, content_hash(current), reason, content=content)


def dream_wrote_last(mem: Store, path: str, current: bytes) -> bool:
    """These bytes are the dream's own last write of the file (no person edited it since)."""
    last = mem.log(path=path, limit=1)
    return bool(last) and last[0].actor.startswith("dream:") and \
        last[0].after == content_hash(current)


def snapshot(mem: Store, now: dt.datetime) -> Snapshot:
    human = _human_paths(mem.con)
    since = (now - dt.timedelta(days=90)).date().isoformat()
    recalls = Journal(mem.vault.aleph_dir).recalls(since)
    inbound = graph.inbound_counts(mem.con)  # what the dream itself writes does not count
    outbound = graph.outbound_counts(mem.con)
    tags = reading.tags_by_note(mem.con)
    aliases = reading.aliases_by_note(mem.con)
    headings = reading.first_headings(mem.con)
    notes = {}
    for nid, path, title, digest, fm, status, mtime_ns, issues in reading.note_rows(mem.con):
        data = _head(mem, path)
        meta = json.loads(fm)
        heading = headings.get(nid)
        if heading is not None and not _opens_with(data, heading):
            heading = None  # a "# References" further down names a section, not the note
        notes[path] = NoteInfo(
            path, title, digest, meta, status,
            dt.datetime.fromtimestamp(mtime_ns / 1e9, dt.UTC), tuple(tags.get(nid, ())),
            tuple(aliases.get(nid, ())), inbound.get(path, 0), outbound.get(path, 0),
            data.decode("utf-8", errors="replace"), tuple(json.loads(issues)), path in human,
            tuple(recalls.get(path, ())), other_names=other_names(title, meta, heading))
    links = graph.links_outside_dream(mem.con)
    refs = {r[1] for r in links if r[0] == "MEMORY.md" and r[1]}
    first = events.first_logged(mem.con)
    last = events.last_logged_but_dream(mem.con)  # the dream's writes do not make it fresh
    notes = {p: replace(n, first_logged=first.get(p), last_logged=last.get(p))
             if p in first else n for p, n in notes.items()}
    for path, ns in _times_before_dream(mem.con, set(notes) - set(last)).items():
        notes[path] = replace(notes[path], mtime=dt.datetime.fromtimestamp(ns / 1e9, dt.UTC))
    watched = min(first.values(), default=None)
    marked = events.last_logged_by(mem.con, "dream:drift")
    snap = Snapshot(now, notes, links, refs, first, mem.settings, [], mem.vault.root,
                    lambda: note_vectors(mem.con), watched_since=parse_iso(watched) if watched
                    else None, template_folders=template_folders(mem.vault.root),
                    daily_formats=daily_formats(mem.vault.root),
                    logseq=(mem.vault.root / "logseq" / "config.edn").is_file(),
                    archive_clash=any(d.is_dir() and d.name.casefold() == "archive" and
                                      d.name != "archive" for d in mem.vault.root.iterdir()),
                    by_title=graph.resolved_by_title(mem.con),
                    drift_marked=marked)
    return with_soft(snap, load_soft(mem.vault.local_dir))


def _times_before_dream(con: apsw.Connection, paths: set[str]) -> dict[str, int]:
    """For notes only the dream has written since aleph-mem began watching, the file time
    they had before its first write (kept in that event): the dream's own writes never make
    a note look fresh."""
    out: dict[str, int] = {}
    for path, data in events.dream_writes_with_mtime(con):
        if path in paths and path not in out:
            ns = json.loads(data).get("mtime_ns")
            if isinstance(ns, int):
                out[path] = ns
    return out


def _opens_with(data: bytes, heading: str) -> bool:
    """The note's text (after its frontmatter) opens with this H1: the heading names it."""
    from aleph_mem.notes.note_parts import body_of_text

    for line in body_of_text(data[:4096].decode("utf-8", "replace")).splitlines():
        if line.strip():
            return _plain(line.strip().lstrip("#")) == _plain(heading)
    return False


def _plain(text: str) -> str:
    return re.sub(r"\W+", "", text.casefold())


def other_names(stem: str, frontmatter: dict, heading: str | None) -> tuple[str, ...]:
    names = [declared_title(frontmatter) or "", heading or ""]
    return tuple(n for n in dict.fromkeys(names) if n and n != stem)  # "Move" for move.md


def template_folders(root: Path) -> tuple[str, ...]:
    """The folders a person keeps templates in: ``Templates/`` by convention, and what
    Obsidian's core Templates plugin and the Templater plugin are set to."""
    found = set()
    for rel, key in ((".obsidian/templates.json", "folder"),
                     (".obsidian/plugins/templater-obsidian/data.json", "templates_folder")):
        try:
            value = json.loads((root / rel).read_text(encoding="utf-8")).get(key)
        except (OSError, ValueError, AttributeError):
            continue
        if isinstance(value, str) and value.strip("/ "):
            found.add(value.strip("/ "))
    return tuple(sorted(found))


def daily_formats(root: Path) -> tuple[tuple[str, str], ...]:
    """(folder, moment.js format) of the vault's dated notes, as Obsidian's core Daily
    notes and the Periodic Notes plugin (daily, weekly, monthly) are set; the core
    plugin's default format when it is on without one."""
    found: set[tuple[str, str]] = set()
    sources: list[tuple[str, tuple[str, ...]]] = [(".obsidian/daily-notes.json", ()), (
        ".obsidian/plugins/periodic-notes/data.json", ("daily", "weekly", "monthly"))]
    for rel, kinds in sources:
        try:
            data = json.loads((root / rel).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        for entry in [data.get(k) for k in kinds] if kinds else [data]:
            if not isinstance(entry, dict) or entry.get("enabled") is False:
                continue
            fmt, folder = entry.get("format"), entry.get("folder")
            found.add((folder.strip("/ ") if isinstance(folder, str) else "",
                       fmt if isinstance(fmt, str) and fmt.strip() else "YYYY-MM-DD"))
    return tuple(sorted(found))


def with_soft(snap: Snapshot, soft: list[tuple[str, str, str]]) -> Snapshot:
    """The snapshot with these soft links (L021) and each note's count of them."""
    soft = [s for s in soft if s[0] in snap.notes and s[1] in snap.notes]
    counts = Counter(dst for _, dst, _ in soft)
    notes = {p: n if n.soft_inbound == counts[p] else replace(n, soft_inbound=counts[p])
             for p, n in snap.notes.items()}
    return replace(snap, notes=notes, soft=soft)


def note_vectors(con: apsw.Connection) -> dict[str, np.ndarray]:
    """path -> the normalised mean of the note's body-chunk vectors, if the index has any
    from the configured model (a note half embedded gets the vectors it has)."""
    from aleph_mem.index import vectors

    rows = vectors.body_vectors(con)
    sums: dict[str, np.ndarray] = {}
    for path, blob in rows:
        v = np.frombuffer(blob, np.float32)
        sums[path] = sums[path] + v if path in sums else v.copy()
    out = {}
    for path, v in sums.items():
        norm = float(np.linalg.norm(v))
        if norm:
            out[path] = v / norm
    return out


def _head(mem: Store, path: str, limit: int = 1_000_000) -> bytes:
    """The first megabyte of a note: enough to judge it, without loading a huge file."""
    try:
        with open(mem.vault.abs(path), "rb") as fh:
            return fh.read(limit)
    except FileNotFoundError:
        return b""


def _human_paths(con: apsw.Connection) -> set[str]:
    """Notes a person owns (R2): no event explains the current bytes (a person's edit not
    yet logged, or a note indexed before aleph-mem wrote it), or the last writer other than
    the dream was a person (an editor or the CLI). The dream's own writes (a status marker,
    an approved merge), and an undo of them, never change who owns a note: undoing a run
    gives the note back to its owner. Ownership follows the note through moves."""
    last_hash: dict[str, str | None] = {}
    owner: dict[str, str] = {}
    dreamt: set[str] = set()
    for eid, path, actor, kind, after, reason, data in events.all_changes(con):
        moved_from = json.loads(data).get("from") if data else None
        if moved_from and moved_from in owner:
            owner[path] = owner[moved_from]
        elif path not in owner and path not in last_hash and kind != "note-created":
            owner[path] = "human"  # it was there before aleph-mem logged any write to it
        last_hash[path] = after
        if actor.startswith("dream:"):
            dreamt.add(eid)
        elif undone_event(reason) not in dreamt:
            owner[path] = "human" if by_person(actor) else actor
    out = set()
    for path, digest in reading.paths_and_hashes(con):
        if path not in last_hash or last_hash[path] != digest or owner.get(path) == "human":
            out.add(path)
    return out
