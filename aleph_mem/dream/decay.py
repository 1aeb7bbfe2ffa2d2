"""decay (docs/dream.md, decay): a note's salience fades with time since it was last reinforced
(edited or recalled), more slowly for linked, important and recalled notes; notes that
fall below the floor, old enough and unlinked, move to archive/ (proposed where a person
owns them). With an LLM, a note about to go is rated for importance first.

A pure function of a Snapshot and the clock: it returns actions and never writes."""

from __future__ import annotations

import datetime as dt
import hashlib
import math
import re
from typing import TYPE_CHECKING

from aleph_mem.clock import parse_iso
from aleph_mem.dream.view import Action, NoteInfo, Snapshot, as_date, body_of, in_templates
from aleph_mem.files.vault import ARCHIVE
from aleph_mem.notes.note_parts import linked_name
from aleph_mem.notes.prose import clipped

if TYPE_CHECKING:
    from aleph_mem.dream.judge import Judge

H0_DAYS = 30.0
ARCHIVE_BELOW = 0.1
MIN_AGE_DAYS = 30
PROTECTED_CATEGORIES = ("personal",)
HUB_LINKS = 3  # notes this many others link to are hubs: never archived
HOME_NAMES = frozenset({"readme", "index", "home", "start here", "start", "welcome", "_index",
                        "contents", "table of contents", "dashboard"})
MAP_TAGS = frozenset({"moc", "map", "index", "hub", "category", "categories", "toc"})
MAP_TITLE = re.compile(r"\bMOC\b|\bmap of content|\bindex\b|\boverview of\b", re.I)

SEVERITY_FLOOR = {"low": 0.0, "med": 0.5, "medium": 0.5, "high": 0.7, "critical": 0.85}


def salience(n: NoteInfo, now: dt.datetime, scored: float | None = None,
             linked_at: dt.datetime | None = None) -> tuple[float, float]:
    """(salience, half-life in days): a pure function of stored signals (docs/dream.md, decay).
    Recalls reset the clock and lengthen the half-life. ``scored`` is an importance the LLM
    gave a note that has none of its own (kept in the verdict cache, never in the note)."""
    fm = n.frontmatter
    recall_days = len(n.recall_days)
    importance = fm.get("importance", scored)
    imp = 0.5 + (float(importance) if isinstance(importance, int | float) else 5.0) / 5.0
    half = H0_DAYS * (1 + 0.5 * recall_days) * (1 + 0.25 * min(n.link_weight, 4)) * imp
    half = min(max(half, 7.0), 365.0)
    updated = as_date(fm.get("updated"))
    reinforced = max(n.changed_at, dt.datetime.combine(updated, dt.time(), dt.UTC)) if updated \
        else n.changed_at
    if linked_at is not None:  # the newest note linking here was written then
        reinforced = max(reinforced, linked_at)
    if n.recall_days:
        last = dt.datetime.combine(dt.date.fromisoformat(n.recall_days[-1]), dt.time(), dt.UTC)
        reinforced = max(reinforced, last)
    age = max(0.0, (now - reinforced).total_seconds() / 86400)
    floor = 1.0 if n.permanent else SEVERITY_FLOOR.get(str(fm.get("severity", "low")), 0.0)
    return max(math.pow(2, -age / half), floor), half


def plan_decay(snap: Snapshot, judge: Judge | None = None,
               busy: frozenset[str] = frozenset()) -> list[Action]:
    """Archive (or propose archiving) the coldest notes, at most ``decay_max_archives`` a
    run, and none until aleph-mem has watched the vault ``decay_min_watch_days``: before
    that, a missing recall is no evidence of disuse. Hubs, the vault's readme, templates
    and category or map pages are never archived; ``busy`` notes (another pass acted on or
    asked about them) are not counted against the cap."""
    settings = snap.settings
    watch = int(getattr(settings, "decay_min_watch_days", 30))
    if snap.watched_since is None or (snap.now - snap.watched_since).days < watch or \
            snap.archive_clash:
        return []
    linked_at, held = inbound_signals(snap)
    cold: list[tuple[float, NoteInfo, str]] = []
    for n in snap.active():
        if n.permanent or n.path in snap.memory_refs or n.path in busy or structural(n, snap):
            continue
        age = (snap.now - n.changed_at).days
        own = evidence(n, snap)
        if n.human and _archived_by_person(n):
            continue  # the person archived it their own way (a status, an Archive folder)
        if n.human and not by_age(n):  # a person's note: only on its own word (R2)
            if own and age >= MIN_AGE_DAYS and not _just_marked(n, snap) and \
                    not _expiry_unagreed(n, own) and not _a_linked_record(n, own):
                cold.append((0.0, n, f"stale: {own}"))
            continue
        s, _ = salience(n, snap.now, linked_at=linked_at.get(n.path))
        if s >= ARCHIVE_BELOW or n.path in held:
            continue
        if judge is not None and "importance" not in n.frontmatter:
            s, _ = salience(n, snap.now, importance_of(n, judge),  # only notes about to go
                            linked_at.get(n.path))
        category = n.frontmatter.get("category") or n.folder
        if (s < ARCHIVE_BELOW and age >= MIN_AGE_DAYS and n.link_weight < HUB_LINKS
                and category not in PROTECTED_CATEGORIES):
            why = f"stale: {own}" if own else (  # stable from run to run: one proposal
                f"low_salience: unchanged since {n.changed_at.date().isoformat()}, "
                + (f"last recalled {n.recall_days[-1]}" if n.recall_days else "never recalled")
                + f", {n.inbound} links in")
            cold.append((s, n, why))
    cold.sort(key=lambda sn: (sn[0], sn[1].changed_at, sn[1].path))
    most = int(getattr(settings, "decay_max_archives", 10))
    return [Action("decay", "archive", n.path, n.hash, why, propose=n.human)
            for _, n, why in cold[:most]]


MARKED_WAIT_DAYS = 7


def _just_marked(n: NoteInfo, snap: Snapshot) -> bool:
    """Drift marked the note (a person ticked it stale) less than a week ago: one question
    at a time; the archive is asked a week later."""
    marked = snap.drift_marked.get(n.path)
    return marked is not None and (snap.now - parse_iso(marked)).days < MARKED_WAIT_DAYS


def _archived_by_person(n: NoteInfo) -> bool:
    """``status: archived`` or an archive folder of the person's own: moving it to
    ``archive/`` repeats their choice against their own filing (read blind: not worth it)."""
    return _status(n) in ("archived", "archive") or any(
        f.casefold().lstrip("0123456789._- ") in ("archive", "archived", "archives")
        for f in n.path.split("/")[:-1])


def _a_linked_record(n: NoteInfo, own: str) -> bool:
    """A note other notes still link to whose status says it ended (abandoned, retired,
    defunct): the record of what happened, kept where its links and its folder expect it
    (read blind, archiving a campaign's abandoned hub away from its sessions was wrong). A
    note that says its content is wrong now (deprecated, obsolete, expired) still moves."""
    return n.inbound > 0 and own in RECORD_ENDS


RECORD_ENDS = frozenset({"status abandoned", "status retired", "status defunct"})


def _status(n: NoteInfo) -> str:
    """The note's ``status`` as a word (``[[Active]]`` reads "active")."""
    return linked_name(n.frontmatter.get("status") or "").casefold()


def _expiry_unagreed(n: NoteInfo, own: str) -> bool:
    """The evidence is a date that passed, but the person has not agreed the note is stale
    (drift asks that first; a person who dismissed it, or undid the mark, said no)."""
    return own.endswith("has passed") and n.status != "stale" and \
        n.frontmatter.get("stale_reason") != "expired"


OLD_WORDS = frozenset({"old", "deprecated", "obsolete", "outdated", "legacy", "archived",
                       "superseded", "expired", "abandoned", "retired", "defunct"})
# the note says it of itself ("This page is deprecated", a first line "Obsolete: ..."; not
# "Replaced by X", which tells a technology's history: read blind, 4 of 4 wrong):
# a word anywhere in its opening ("outdated workflows", Java's @Deprecated) was wrong on
# vaults read blind (docs/benchmarks.md)
SAYS_OLD = re.compile(r"\b(?:this|the) (?:page|note|document|doc|article|guide|post|"
                      r"section|method|approach|process|version|list|information|info)"
                      r" (?:is|are|was|has been|is now) (?:now )?(?:deprecated|obsolete|"
                      r"outdated|superseded|no longer (?:used|valid|maintained|relevant|"
                      r"true|accurate))\b|^\W*(?:deprecated|obsolete|outdated)\s*[:!-]|"
                      r"^\W*superseded by\b", re.I | re.M)


def by_age(n: NoteInfo) -> bool:
    """A note that may fade by age even when a person last wrote it: a session note
    aleph-mem distilled (``type: session`` with the ``client`` and ``session_id`` it
    writes). Not a person's inbox, nor a person's own "Sessions/" (a campaign's session
    logs): read blind on vaults nobody here wrote, age alone was wrong 19 of 19 times
    there (docs/benchmarks.md)."""
    fm = n.frontmatter
    return fm.get("type") == "session" and bool(fm.get("session_id")) and bool(fm.get("client"))


def evidence(n: NoteInfo, snap: Snapshot) -> str | None:
    """The note's own word that it is done, or None: expired, superseded, or said to be old,
    deprecated or obsolete by its status, tags, folder or opening words. Age is never
    evidence: a reference page is read rarely and recalled never, and stays true."""
    fm = n.frontmatter
    until = as_date(fm.get("valid_until") or fm.get("expires"))
    if until and until < snap.now.date():
        key = "valid_until" if fm.get("valid_until") else "expires"
        return f"{key} {until.isoformat()} has passed"
    if isinstance(fm.get("superseded_by"), str) and fm["superseded_by"].strip():
        return f"superseded_by {fm['superseded_by'].strip()}"
    status = _status(n)
    if status in OLD_WORDS:
        return f"status {status}"
    for tag in n.tags if not n.human else ():  # a person's tags name topics: "#legacy"
        if tag.casefold().lstrip("#").rsplit("/", 1)[-1] in OLD_WORDS:  # systems, an
            return f"tagged #{tag.lstrip('#')}"  # imported "#archived" (read blind: wrong)
    for folder in n.path.split("/")[:-1]:
        if folder.casefold() in OLD_WORDS:
            return f"in the folder {folder}/"
    if clipped(n.path, fm, n.tags):
        return None  # a clipped page's words are its author's, not the person's verdict
    opening = "\n".join(" ".join(ln.split()) for ln in body_of(n).splitlines()[:12]
                        if ln.strip() and not ln.lstrip().startswith("#"))
    said = SAYS_OLD.search(opening)
    return f"says \"{said.group(0)}\"" if said else None


def inbound_signals(snap: Snapshot) -> tuple[dict[str, dt.datetime], set[str]]:
    """For each note: when the newest active note linking to it was written (a link from a
    note in use reinforces its target, docs/dream.md, decay), and the notes a readme, map of
    content or category page lists (a person filed them there: never archived, or the
    page would point into the archive)."""
    newest: dict[str, dt.datetime] = {}
    held: set[str] = set()
    maps: dict[str, bool] = {}
    for src, target, status, *_ in snap.links:
        n = snap.notes.get(src)
        if status != "resolved" or not target or target == src or n is None or \
                n.path.startswith(ARCHIVE):
            continue
        if target not in newest or n.changed_at > newest[target]:
            newest[target] = n.changed_at
        if src not in maps:
            maps[src] = structural(n, snap) and not in_templates(n, snap)
        if maps[src]:
            held.add(target)
    return newest, held


def structural(n: NoteInfo, snap: Snapshot) -> bool:
    """A page that holds the vault together rather than a fact that can go stale: the
    readme or home page, a template, a category index or map of content (by name, tag, or
    being mostly a list of links)."""
    stem = n.path.rsplit("/", 1)[-1][:-3].casefold()
    folders = [f.casefold() for f in n.path.split("/")[:-1]]
    if stem in HOME_NAMES or stem == (folders[-1] if folders else ""):
        return True  # a readme, or a folder note (Folder/Folder.md)
    if in_templates(n, snap):
        return True
    if {t.casefold().lstrip("#") for t in n.tags} & MAP_TAGS or \
            any(MAP_TITLE.search(t) for t in n.names):
        return True
    lines = [ln for ln in body_of(n).splitlines() if ln.strip() and not ln.startswith("#")]
    links = sum(1 for ln in lines if "[[" in ln)
    return n.outbound >= 5 and links >= 0.6 * len(lines)


def importance_of(n: NoteInfo, judge: Judge) -> float | None:
    """The LLM's 1-10 importance for a note (Generative Agents' poignancy), cached by the
    note's body; None when there is no valid answer."""
    from aleph_mem.dream.judge import fence

    system = ("Rate how important this note is to keep in a person's long-term memory, from "
              '1 (trivial, e.g. a passing remark) to 10 (core, e.g. a key decision). Answer '
              'with one JSON object: {"importance": <integer 1-10>}.')

    def validate(obj: object) -> dict | None:
        value = obj.get("importance") if isinstance(obj, dict) else None
        return {"importance": value} if isinstance(value, int) and 1 <= value <= 10 else None

    verdict = judge.ask("importance", [hashlib.sha256(body_of(n).encode()).hexdigest()],
                        system, fence(1, n.display, body_of(n), n.changed_at.date().isoformat()),
                        validate)
    return float(verdict["importance"]) if verdict else None
