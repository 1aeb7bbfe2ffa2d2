"""consolidate (docs/dream.md, consolidate): notes that say the same thing, found deterministically
(shingles, MinHash, note vectors) and, with an LLM, judged pair by pair.

Each planner is a pure function of a Snapshot and the settings: it returns actions, and
never writes. Human-touched notes only get metadata keys aleph-mem owns; anything more is a
proposal (R2). Planners are idempotent: a second run after the first plans nothing."""

from __future__ import annotations

import hashlib
import re
from itertools import combinations

import numpy as np

from aleph_mem.dream.view import (
    Action,
    NoteInfo,
    Snapshot,
    body_of,
    facts_of,
    in_templates,
    templated,
)
from aleph_mem.files.names import name_problem
from aleph_mem.files.vault import ARCHIVE
from aleph_mem.notes.facts import (
    MIN_MERGE_WORDS,
    SHINGLE_JACCARD,
    STATEMENT_OVERLAP,
    changed_statements,
    differing_table,
    fact_tokens_text,
    jaccard,
    normalized_text,
    shingles,
    statement_overlap,
    words,
)
from aleph_mem.notes.prose import CLIP_NAMES

NEAR_DUP_COSINE = 0.92  # note vectors this close are near duplicates (Aleph's threshold)
IDENTICAL_COSINE = 0.985  # and this close, with every fact covered, the same note
MAX_PAIRS = 200


# -- consolidate ---------------------------------------------------------------------------

def normalized(note: NoteInfo) -> str:
    return normalized_text(body_of(note))


def keeper_order(n: NoteInfo, daily: tuple[str, ...] = ()) -> tuple:
    """Human-touched over agent-owned; a filed note over its inbox copy; the original
    over a copy (a folder or name ending "copy" or "(1)", as a file manager names one, or a
    backup folder); a daily note in the vault's daily notes folder over a copy elsewhere;
    more inbound links; older (its `created`, else its first logged event: file times
    differ between devices a sync engine keeps in step, the synced history does not);
    smaller path."""
    created = str(n.frontmatter.get("created") or n.first_logged or n.mtime.isoformat())
    elsewhere = not any(n.path.startswith(f + "/") for f in daily)
    return (not n.human, in_inbox(n), is_copy(n), elsewhere, -n.inbound, created, n.path)


INBOX_FOLDERS = ("inbox", "_inbox", "00 inbox")


def in_inbox(n: NoteInfo, also: tuple[str, ...] = ()) -> bool:
    """The note sits in an inbox (or one of ``also``) at the vault's top: not yet filed."""
    return n.path.split("/", 1)[0].casefold() in (*INBOX_FOLDERS, *also)


def is_copy(n: NoteInfo) -> bool:
    """A folder or file of the note's path is named as a copy is (COPY_NAME), or a folder
    is a backup folder (``backups/``, ``bak/``)."""
    parts = n.path.split("/")
    return any(COPY_NAME.search(part.removesuffix(".md")) for part in parts) or any(
        part.casefold() in BACKUP_FOLDERS for part in parts[:-1])


BACKUP_FOLDERS = frozenset({"bak", ".bak", "backup", "backups", "_backup", "_backups"})
# what another tool keeps of its own: Logseq's backups and page versions are not notes
# a person files (a merge kept a backup over the live page: read blind, wrong)
TOOL_COPIES = ("logseq/bak/", "logseq/version-files/")


# a copy, as a file manager, a sync engine or a person names one: "Notes copy", "x (1)",
# "SKILL_20260125_091807" (a timestamped backup), "plan.bak", "plan backup", a sync
# engine's "x_Host.local_Jan-28-2024_CaseConflict" or "x (conflicted copy)"
COPY_NAME = re.compile(r"(?: copy(?: \d+)?| \(\d+\)|-copy|[ _-]\d{8}[ _-]?\d{4,6}|"
                       r"[ ._-]bak|[ _-]backup(?: \d+)?|[ _.(-][^/]*conflict[^/]*)$", re.I)


PERMUTATIONS, BANDS = 64, 16
BOILERPLATE = 3  # notes sharing one text: a template's unfilled body


def text_digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


def fingerprints(notes: list[NoteInfo]) -> tuple[np.ndarray, dict[bytes, list[int]]]:
    """Each note's MinHash signature (64 permutations of its word 3-shingles) and the notes
    grouped by a digest of their normalised text. One note's shingles at a time: a 10k-note
    vault's shingle sets would take hundreds of megabytes."""
    rng = np.random.default_rng(42)
    prime = (1 << 61) - 1
    a = rng.integers(1, prime, PERMUTATIONS, dtype=np.uint64)
    b = rng.integers(0, prime, PERMUTATIONS, dtype=np.uint64)
    sigs = np.empty((len(notes), PERMUTATIONS), dtype=np.uint64)
    copies: dict[bytes, list[int]] = {}
    for i, n in enumerate(notes):
        text = normalized(n)
        copies.setdefault(text_digest(text), []).append(i)
        x = np.fromiter((int.from_bytes(hashlib.blake2b(s.encode(), digest_size=7).digest(),
                                        "big") for s in shingles(text)), dtype=np.uint64)
        if not len(x):
            x = np.zeros(1, dtype=np.uint64)
        sigs[i] = ((np.outer(x, a) + b) % np.uint64(prime)).min(axis=0)
    return sigs, copies


def minhash_candidates(notes: list[NoteInfo], sigs: np.ndarray) -> set[tuple[int, int]]:
    """Pairs (indexes into ``notes``) likely to share >= ~half their shingles, by LSH
    banding of their MinHash signatures (16 bands of 4): near-linear, so a 10k-note vault
    is not compared pair by pair. Same folder only."""
    if len(notes) < 2:
        return set()
    rows = PERMUTATIONS // BANDS
    out: set[tuple[int, int]] = set()
    for band in range(BANDS):
        buckets: dict[tuple, list[int]] = {}
        for i, n in enumerate(notes):
            key = (n.folder, sigs[i, band * rows:(band + 1) * rows].tobytes())
            buckets.setdefault(key, []).append(i)
        for members in buckets.values():
            out.update(combinations(members, 2))
    return out


def same_name(a: NoteInfo, b: NoteInfo) -> bool:
    """Titles that could name one thing: one's words all appear in the other ("Harbour" and
    "Harbour copy"). Templated notes with the same text and different names ("Ring of Fire
    Resistance", "Ring of Force Resistance") are different things."""
    def named(name: str) -> set[str]:
        return set(words(name))
    if numbers_differ(a, b):
        return False
    return any(wa <= wb or wb <= wa for wa in map(named, a.names) for wb in map(named, b.names))


NUMBERS = re.compile(r"\d+")


def numbers_differ(a: NoteInfo, b: NoteInfo) -> bool:
    """Both names carry numbers and not the same ones: two days ("04-02-2022",
    "04-04-2022"), two lectures, two versions are two things, whatever their text (read
    blind, two blank daily notes merged was wrong). "Plan" and "Plan 1" may be one."""
    na, nb = (NUMBERS.findall(n.display) for n in (a, b))
    return bool(na and nb) and [int(x) for x in na] != [int(x) for x in nb]


def numbered_copy(keep: NoteInfo, drop: NoteInfo) -> bool:
    """``keep`` is ``drop``'s name with a number after it, as Obsidian names a duplicate
    ("Harness 1" beside "Harness")."""
    stem = keep.path.rsplit("/", 1)[-1][:-3]
    m = re.fullmatch(r"(.+) \d+", stem)
    return m is not None and m.group(1).casefold() == drop.path.rsplit("/", 1)[-1][:-3].casefold()


# keys about the file, not what the note records: two copies may differ in them
FILE_KEYS = frozenset({"created", "updated", "modified", "date created", "date modified",
                       "last_modified", "mtime", "ctime", "id", "uid"})


def records_differ(a: NoteInfo, b: NoteInfo) -> bool:
    """A property both notes set to different plain values (``wake: 8:30`` and ``wake:
    4:50``): two records with the same words, not one note twice."""
    fa, fb = a.frontmatter, b.frontmatter
    return any(str(fa[k]) != str(fb[k]) for k in set(fa) & set(fb)
               if k.casefold() not in FILE_KEYS and not isinstance(fa[k], (list, dict))
               and not isinstance(fb[k], (list, dict)))


def near_pairs(snap: Snapshot, notes: list[NoteInfo]) -> list[tuple[NoteInfo, NoteInfo,
                                                                    str, float]]:
    """Candidate duplicates in one folder whose titles could name one thing: (a, b, how,
    similarity), how = "text" (same normalised text), "shingles" (word 3-shingle Jaccard
    >= 0.8, among MinHash candidates) or "cosine" (note vectors >= 0.92, when the vault
    has vectors). Best first, at most MAX_PAIRS."""
    sigs, copies = fingerprints(notes)
    found: dict[tuple[str, str], tuple[NoteInfo, NoteInfo, str, float]] = {}
    boilerplate = {key for key, same in copies.items() if len(same) >= BOILERPLATE}
    for same in copies.values():  # exact copies in any folder (an inbox copy of a filed note)
        if len(same) >= BOILERPLATE:
            continue  # a text three notes share is a template's body, not a note twice
        for a, b in combinations(sorted((notes[i] for i in same), key=lambda n: n.path), 2):
            if same_name(a, b):  # templated notes with other names are other things
                found[(a.path, b.path)] = (a, b, "text", 1.0)
    for i, j in sorted(minhash_candidates(notes, sigs)):
        a, b = sorted((notes[i], notes[j]), key=lambda n: n.path)
        if (a.path, b.path) in found or not same_name(a, b):
            continue
        text_a, text_b = normalized(a), normalized(b)
        if text_a == text_b:
            if text_digest(text_a) not in boilerplate:
                found[(a.path, b.path)] = (a, b, "text", 1.0)
        elif (score := jaccard(shingles(text_a), shingles(text_b))) >= SHINGLE_JACCARD or \
                statement_overlap(body_of(a), body_of(b)) >= STATEMENT_OVERLAP:
            found[(a.path, b.path)] = (a, b, "shingles", score)
    for a, b, cos in vector_pairs(notes, snap.vectors()):
        if (a.path, b.path) not in found and same_name(a, b):
            found[(a.path, b.path)] = (a, b, "cosine", cos)
    order = {"text": 0, "shingles": 1, "cosine": 1}
    ranked = sorted(found.values(), key=lambda p: (order[p[2]], -p[3], p[0].path, p[1].path))
    return ranked[:MAX_PAIRS]


def vector_pairs(notes: list[NoteInfo], vecs: dict[str, np.ndarray],
                 floor: float = NEAR_DUP_COSINE, by_folder: bool = True,
                 ) -> list[tuple[NoteInfo, NoteInfo, float]]:
    """Pairs of notes (in one folder, unless ``by_folder`` is false) whose note vectors
    have cosine >= ``floor``."""
    groups: dict[str, list[NoteInfo]] = {}
    for n in notes:
        if n.path in vecs:
            groups.setdefault(n.folder if by_folder else "", []).append(n)
    out = []
    for group in groups.values():
        if len(group) < 2:
            continue
        mat = np.stack([vecs[n.path] for n in group])
        for start in range(0, len(group), 1024):  # bounded memory in big folders
            sims = mat[start:start + 1024] @ mat.T
            for i, j in zip(*np.nonzero(sims >= floor), strict=True):
                if start + i < j:
                    a, b = sorted((group[start + i], group[j]), key=lambda n: n.path)
                    out.append((a, b, round(float(sims[i, j]), 4)))
    return out


def covers(keep: NoteInfo, drop: NoteInfo) -> bool:
    """Every fact of ``drop`` is also a fact of ``keep`` (so nothing is lost)."""
    mine = {f.casefold() for f in facts_of(keep)}
    return all(f.casefold() in mine for f in facts_of(drop))


def differing_facts(a: NoteInfo, b: NoteInfo) -> tuple[list[str], list[str]]:
    """The fact tokens one note states and the other does not (both empty: the same
    facts). A different number, name, date, place, amount or negation makes two notes
    different things, never a merge."""
    ta, tb = fact_tokens_text(body_of(a)), fact_tokens_text(body_of(b))
    return sorted(ta - tb), sorted(tb - ta)


def different_things(a: NoteInfo, b: NoteInfo) -> bool:
    """Near in words, different in facts: another number, name, date, place, amount or
    negation, or a statement of one changed into another statement in the other ("toor
    dal" / "moong dal", "promote ns2" / "promote ns3")."""
    return any(differing_facts(a, b)) or bool(changed_statements(body_of(a), body_of(b)))


def plan_consolidate(snap: Snapshot) -> list[Action]:
    if snap.archive_clash:
        return []  # a merge archives the absorbed note: `archive/` would clash with theirs
    notes = [n for n in snap.active()
             if not n.permanent and len(normalized(n).split()) >= MIN_MERGE_WORDS
             and not n.path.startswith(TOOL_COPIES) and not in_templates(n, snap)
             and not templated(n)]  # a template and a note made from it are not one thing
    daily = tuple(folder for folder, _ in snap.daily_formats if folder)
    actions: list[Action] = []
    absorbed: set[str] = set()
    for a, b, how, sim in near_pairs(snap, notes):
        keep, drop = sorted((a, b), key=lambda n: keeper_order(n, daily))
        if numbered_copy(keep, drop) and keep.human == drop.human:
            keep, drop = drop, keep  # "Harness" over "Harness 1"
        if drop.path in absorbed or keep.path in absorbed:
            continue
        if how == "text" and records_differ(keep, drop):
            continue  # the same words under other values: two records (two days' habits)
        if how != "text" and different_things(keep, drop):
            continue  # near in words, different in facts: drift's business, not a merge
        if kept_apart(keep, drop) or name_problem(f"{ARCHIVE}{drop.path}"):
            continue  # kept apart; or its name cannot move into archive/ (half a merge)
        absorbed.add(drop.path)
        if how == "text":
            same = body_of(keep).strip() == body_of(drop).strip()
            actions += merge_actions(keep, drop, True, "identical text" if same else
                                     "the same words, formatted differently", carried=[])
        elif how == "cosine" and sim >= IDENTICAL_COSINE and covers(keep, drop):
            actions += merge_actions(keep, drop, True, f"the same facts (cosine {sim:.3f})")
        else:
            label = "shingle Jaccard" if how == "shingles" else "cosine"
            actions += merge_actions(keep, drop, False, f"near duplicate ({label} {sim:.2f})")
    return actions


def kept_apart(a: NoteInfo, b: NoteInfo) -> bool:
    """A person's same-named notes in two folders, neither an inbox nor a copy: the person
    keeps each in its place (a book's two editions, a course per year), even word for word.
    Read blind on vaults nobody here wrote, merging them was wrong (docs/benchmarks.md);
    a folder present twice ("Recipes copy/") and a page overwritten with another's text
    (two names, one text) are still proposed."""
    if a.folder == b.folder or not (a.human and b.human) or a.title.casefold() != \
            b.title.casefold():
        return False
    return not any(in_inbox(n, also=tuple(CLIP_NAMES)) or is_copy(n) for n in (a, b))


def merge_actions(keep: NoteInfo, drop: NoteInfo, identical: bool, why: str,
                  carried: list[str] | None = None) -> list[Action]:
    """Keeper gains the tags, aliases (plus the absorbed title, so links by title keep
    resolving; links by file name find the archived note) and source notes; what the
    absorbed note says that the keeper does not is carried under "Merged from"; the
    absorbed note is archived as merged (``carried``: the lines to carry, when the caller
    knows them better than a line diff). Applied only for identical content (the same
    text, or every fact of the absorbed note already in the keeper); a near duplicate, or a
    human-touched absorbed note, becomes a proposal: one checkbox for the whole merge,
    showing the lines that differ side by side."""
    propose = drop.human or not identical
    tags = list(dict.fromkeys([*_fm_list(keep, "tags"), *_fm_list(drop, "tags")]))
    mine = {name.casefold() for name in keep.names}
    aliases = [a for a in dict.fromkeys([*_fm_list(keep, "aliases"), *_fm_list(drop, "aliases"),
                                         *drop.other_names]) if a.casefold() not in mine]
    sources = list(dict.fromkeys([*_fm_list(keep, "source_notes"), f"[[{drop.path[:-3]}]]"]))
    set_keys: dict[str, object] = {"source_notes": sources}
    if aliases and aliases != _fm_list(keep, "aliases"):
        set_keys["aliases"] = aliases
    if tags and tags != _fm_list(keep, "tags"):  # the same tags: the person's list as it is
        set_keys["tags"] = tags
    group = f"merge {drop.path} into {keep.path}"
    shows = differing_table(f"{keep.path[:-3]} (kept)", body_of(keep),
                            f"{drop.path[:-3]} (archived)", body_of(drop)) if propose else ()
    carried = missing_lines(keep, drop) if carried is None else carried
    archive = Action("consolidate", "archive", drop.path, drop.hash, "merged",
                     {"status": "merged", "merged_into": f"[[{keep.path[:-3]}]]"},
                     propose=propose, group=group)
    if carried:  # nothing the absorbed note says is lost: it moves under "Merged from"
        return [Action("consolidate", "fold", keep.path, keep.hash, f"merged {drop.path}: {why}",
                       set_keys, content=f"## Merged from [[{drop.path[:-3]}]]\n\n"
                       + "\n".join(carried), propose=propose, group=group, shows=shows),
                archive]
    return [Action("consolidate", "set", keep.path, keep.hash, f"merged {drop.path}: {why}",
                   set_keys, propose=propose, group=group, shows=shows), archive]


def missing_lines(keep: NoteInfo, drop: NoteInfo) -> list[str]:
    """The absorbed note's lines (not its title) that the keeper does not hold."""
    have = {ln.strip().casefold() for ln in body_of(keep).splitlines()}
    lines = body_of(drop).splitlines()
    if lines and lines[0].startswith("# "):
        lines = lines[1:]
    return [ln for ln in lines if ln.strip() and ln.strip().casefold() not in have]


def _fm_list(n: NoteInfo, key: str) -> list[str]:
    v = n.frontmatter.get(key)
    if isinstance(v, str):
        return [v]
    return [str(x) for x in v] if isinstance(v, list) else []
