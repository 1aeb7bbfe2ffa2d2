"""drift (docs/dream.md, drift): contradictions, stale facts, dead references.

The deterministic core (expiry, supersession, missing files, structured-fact conflicts) and,
with an LLM, pairs of notes judged for contradictions; conflict pages for a person when the
model cannot tell which note is current."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from dataclasses import replace
from pathlib import Path

import numpy as np

from aleph_mem.dream.judge import DRIFT_SYSTEM, Judge, fence, validate_drift
from aleph_mem.dream.view import (
    Action,
    NoteInfo,
    Snapshot,
    as_date,
    body_of,
    facts_of,
    generic_name,
    in_templates,
)
from aleph_mem.files.vault import DREAM
from aleph_mem.notes.facts import fact_tokens_text
from aleph_mem.notes.note_parts import linked_name, linked_path
from aleph_mem.notes.prose_dates import validity_end

CODE_PATH = re.compile(r"(?<!`)`([^`\s]*/[^`\s]*\.[A-Za-z0-9]{1,6})`(?!`)")


def missing_files(snap: Snapshot, n: NoteInfo) -> list[str]:
    """Files the note declares that are not there (docs/dream.md, drift): where the note
    declares a project (its ``project_root``, or the ``project_roots`` setting), path-like
    code spans relative to it. A file the note only links or embeds (an image in a pasted
    README, ``[site](example.com)``) is a broken link for lint, never a stale note; a path
    the prose merely mentions (``~/.zshrc``, ``/rss.xml``, a ``file://`` address) names
    something on some other machine; the files a note lists are ``related_files``
    (related_state). URLs are never fetched."""
    out: list[str] = []
    roots = [Path(r).expanduser() for r in getattr(snap.settings, "project_roots", []) or []]
    own = n.frontmatter.get("project_root")
    if isinstance(own, str) and own.strip():
        roots.insert(0, Path(own.strip()).expanduser())
    if roots:
        for ref in CODE_PATH.findall(body_of(n)):
            path = Path(ref).expanduser()
            if not path.is_absolute() and not any((base / path).exists() for base in roots):
                out.append(ref)
    return sorted(set(out))


def related_state(snap: Snapshot, n: NoteInfo) -> str | None:
    """``related_files`` with ``related_files_sha`` (path -> sha256, or a list in the same
    order): ``source_changed`` when a file's bytes changed, ``missing_file`` when it is
    gone; paths relative to the note's ``project_root``, else the vault."""
    files = n.frontmatter.get("related_files")
    shas = n.frontmatter.get("related_files_sha")
    if not isinstance(files, list) or not files:
        return None
    if isinstance(shas, list):
        shas = dict(zip(files, shas, strict=False))
    shas = shas if isinstance(shas, dict) else {}
    own = n.frontmatter.get("project_root")
    base = Path(own).expanduser() if isinstance(own, str) and own.strip() else snap.root
    state = None
    for f in (x for x in files if isinstance(x, str)):
        path = Path(f).expanduser()
        path = path if path.is_absolute() or base is None else base / path
        if not path.is_file():
            return "missing_file"
        want = shas.get(f)
        if isinstance(want, str) and want and \
                hashlib.sha256(path.read_bytes()).hexdigest() != want.lower():
            state = "source_changed"
    return state


def plan_drift(snap: Snapshot) -> list[Action]:
    today = snap.now.date()
    resolved = {(src, raw): target for src, target, _, raw, _, _ in snap.links}
    actions = []
    for n in snap.active():
        if in_templates(n, snap):
            continue  # a template's dates and files are placeholders for the notes made from it
        fm = n.frontmatter
        keys: dict[str, object] = {}
        why = ""
        until = as_date(fm.get("valid_until") or fm.get("expires"))
        settled = n.status in ("stale", "superseded", "contradicted")
        if until and until < today and not settled:
            keys = {"status": "stale", "stale_reason": "expired"}
            why = f"expired: {'valid_until' if fm.get('valid_until') else 'expires'} " \
                  f"{until.isoformat()} has passed"
        elif n.status == "stale" and fm.get("stale_reason") == "expired" and not n.human \
                and (until is None or until >= today):  # its date moved: no longer stale
            actions.append(Action("drift", "set", n.path, n.hash, "no longer expired", {},
                                  ("status", "stale_reason")))
            continue
        elif until is None and not settled and not n.human and not snap.dated(n):
            # an agent's note only: read blind, a date a person's prose gives was a story's
            # or history's, not the note's end; a day's or a meeting's record held then
            stated = validity_end(body_of(n), _written(n), as_date(fm.get("created")))
            if stated and stated[0] < today:  # a fact whose stated end has passed
                keys = {"status": "stale", "stale_reason": "expired",
                        "valid_until": stated[0].isoformat()}
                why = f"expired: the text says it ends {stated[0].isoformat()}"
        sup = fm.get("superseded_by")
        if isinstance(sup, str) and n.status not in ("superseded", "merged", "contradicted"):
            target = resolved.get((n.path, sup.strip()))  # a frontmatter [[link]]
            if target in snap.notes and target != n.path:
                keys = {"status": "superseded"}
        refs = missing_files(snap, n)
        if refs and fm.get("stale_refs") != refs:
            keys = {**keys, "stale_refs": refs}
            if "status" not in keys and n.status not in ("stale", "superseded", "contradicted"):
                keys.update({"status": "stale", "stale_reason": "missing_file"})
        source = related_state(snap, n)
        if source and "status" not in keys and fm.get("stale_reason") != source:
            keys.update({"status": "stale", "stale_reason": source})
        if keys:  # a missing file or a date read from prose: on a person's note only asked
            weak = ("stale_refs" in keys and keys.get("stale_reason") in (None, "missing_file")
                    ) or ("valid_until" in keys and until is None)
            actions.append(Action("drift", "set", n.path, n.hash, why if why and keys.get(
                "stale_reason") == "expired" else str(keys.get("stale_reason") or keys.get(
                    "status") or "missing files"), keys, propose=n.human and weak))
    return actions + supersession_pairs(snap, resolved)


def supersession_pairs(snap: Snapshot, resolved: dict) -> list[Action]:
    """``superseded_by`` and ``supersedes`` kept symmetric: the missing reverse key is added
    (a proposal on a person's note). A person's newer note is not asked for ``supersedes``:
    the older note's ``superseded_by`` already says it, and a second question for one
    answer is not worth their attention."""
    out = []
    for n in snap.active():
        for key, back in (("superseded_by", "supersedes"), ("supersedes", "superseded_by")):
            raw = n.frontmatter.get(key)
            target = resolved.get((n.path, raw.strip())) if isinstance(raw, str) else None
            other = snap.notes.get(target or "")
            if other is None or other.path == n.path or other.opted_out or (
                    other.human and back == "supersedes"):
                continue
            have = other.frontmatter.get(back)
            have_target = resolved.get((other.path, have.strip())) if isinstance(have, str) \
                else None
            if have is None:
                out.append(reverse_key(other, n, back))
            elif have_target != n.path:
                continue  # it names another note: a person's call (lint reports neither)
    return out


def plan_drift_all(snap: Snapshot) -> list[Action]:
    """Every drift change of this run, at most one action per note (keys of the same note
    merged), so one run reaches the fixpoint: a contradiction marks the older note and, in
    the same run, names it on the newer one (``supersedes``)."""
    planned = plan_drift(snap)
    touched = {a.path for a in planned}
    conflicts = [a for a in plan_fact_conflicts(snap) if a.path not in touched]
    by_path = {a.path: a for a in planned + conflicts}
    for a in conflicts:
        newer = snap.notes.get(linked_path(a.set_keys.get("superseded_by")))
        if newer is None or newer.opted_out or newer.frontmatter.get("supersedes") or \
                newer.human or snap.notes[a.path].human:
            continue  # a person's side: one question (the older note), not two
        back = {"supersedes": f"[[{a.path[:-3]}]]"}
        have = by_path.get(newer.path)
        if have is not None and have.op == "set" and "supersedes" not in have.set_keys:
            by_path[newer.path] = replace(have, set_keys={**have.set_keys, **back})
        elif have is None:
            by_path[newer.path] = reverse_key(newer, snap.notes[a.path], "supersedes")
    return list(by_path.values())


def reverse_key(note: NoteInfo, other: NoteInfo, key: str) -> Action:
    """``note`` names ``other`` under ``key`` (``supersedes`` or ``superseded_by``), so the
    two stay symmetric. One wording whichever rule found it: a proposal is known by its
    text, and the same change must never be asked for twice."""
    return Action("drift", "set", note.path, note.hash,
                  f"{key} {other.path} (kept symmetric with {other.path})",
                  {key: f"[[{other.path[:-3]}]]"}, propose=note.human)



# -- drift with an LLM ---------------------------------------------------------------------

LOOKBACK_DAYS = 7
MAX_LLM_PAIRS = 20


def _written(n: NoteInfo) -> dt.date:
    """The note's own date: ``updated``, else ``created``, else its file date."""
    return as_date(n.frontmatter.get("updated")) or as_date(n.frontmatter.get("created")) \
        or n.changed_at.date()


def _valid_at(n: NoteInfo) -> str:
    """When the note's statements hold from: its ``valid_from``; else, on a person's note,
    the later of its ``updated`` and its latest change (a person who edits a value without
    touching ``updated:`` has just stated it); on an agent's note, the ``updated`` it wrote
    (an agent dates what it writes), else its latest change."""
    start = as_date(n.frontmatter.get("valid_from"))
    if start:
        return start.isoformat()
    updated = as_date(n.frontmatter.get("updated"))
    changed = n.changed_at.date()
    if updated is None:
        return changed.isoformat()
    return max(updated, changed).isoformat() if n.human else updated.isoformat()


def plan_drift_llm(snap: Snapshot, judge: Judge) -> list[Action]:
    """Recently changed notes against the notes they link to: the model says whether they
    contradict and which is current; code decides what that may change (docs/dream.md, drift)."""

    since = snap.now - dt.timedelta(days=LOOKBACK_DAYS)
    pairs = []
    for src, target, status, _, _, _ in snap.links:
        a, b = snap.notes.get(src), snap.notes.get(target or "")
        if a is None or b is None or status != "resolved" or a.path == b.path:
            continue
        if a.opted_out or b.opted_out or a.changed_at < since:
            continue
        pair = tuple(sorted((a.path, b.path)))
        if pair not in pairs:
            pairs.append(pair)
    pairs += [p for p in neighbour_pairs(snap, since) if p not in pairs]
    actions: list[Action] = []
    marked: set[str] = set()
    for pa, pb in pairs[:MAX_LLM_PAIRS]:
        a, b = snap.notes[pa], snap.notes[pb]
        prompt = "\n\n".join([fence(1, a.display, body_of(a), _valid_at(a)),
                              fence(2, b.display, body_of(b), _valid_at(b))])
        bodies = [hashlib.sha256(body_of(n).encode()).hexdigest() for n in (a, b)]
        verdict = judge.ask("drift", bodies, DRIFT_SYSTEM, prompt, validate_drift)
        if not verdict or verdict["verdict"] != "CONTRADICTORY":
            continue
        if fact_tokens_text(body_of(a)) == fact_tokens_text(body_of(b)):
            continue  # the same numbers, names, dates and negations: nothing to contradict
        newer = a if _valid_at(a) > _valid_at(b) else b if _valid_at(b) > _valid_at(a) else None
        current = {1: a, 2: b}.get(verdict["which_is_current"])
        if current is not None and current is newer:
            old = b if current is a else a
            if old.path not in marked and old.status != "contradicted":
                marked.add(old.path)
                keys = {"status": "contradicted", "superseded_by": f"[[{current.path[:-3]}]]"}
                if not old.human:  # a person's note keeps its own dates
                    keys["valid_until"] = _valid_at(current)
                actions.append(Action("drift", "set", old.path, old.hash,
                                      f"contradicted by {current.path}", keys))
            continue
        for mine, other in ((a, b), (b, a)):  # unknown, or against the dates: mark both
            link = f"[[{other.path[:-3]}]]"
            have = mine.frontmatter.get("contradicts") or []
            if link not in have and mine.path not in marked:
                marked.add(mine.path)
                actions.append(Action("drift", "set", mine.path, mine.hash,
                                      f"contradicts {other.path} (which is current is unclear)",
                                      {"contradicts": [*have, link]}))
        actions += conflict_page(snap, a, b)
    return actions


NEIGHBOUR_COSINE = 0.85


def neighbour_pairs(snap: Snapshot, since: dt.datetime) -> list[tuple[str, str]]:
    """Recently changed notes and their unlinked embedding neighbours (cosine >= 0.85):
    Graphiti's invalidation candidates. Empty when the vault has no vectors."""
    vecs = snap.vectors()
    usable = [n for n in snap.active() if n.path in vecs]
    recent = [n for n in usable if n.changed_at >= since]
    if not recent or len(usable) < 2:
        return []
    linked = {tuple(sorted((s, d))) for s, d, st, _, _, _ in snap.links if st == "resolved"
              and d}
    mat = np.stack([vecs[n.path] for n in usable])
    out = []
    for n in recent:
        sims = mat @ vecs[n.path]
        for j in np.argsort(-sims)[:6]:
            other = usable[int(j)]
            pair = (min(n.path, other.path), max(n.path, other.path))
            if other.path != n.path and sims[j] >= NEIGHBOUR_COSINE and pair not in linked \
                    and pair not in out:
                out.append(pair)
    return out


def conflict_page(snap: Snapshot, a: NoteInfo, b: NoteInfo) -> list[Action]:
    """A page for a person: both notes, their dates, and a proposal for each way out."""
    slug = re.sub(r"[^a-z0-9]+", "-", f"{a.path[:-3]}--{b.path[:-3]}".casefold()).strip("-")
    path = f"{DREAM}conflicts/{slug}.md"
    if path in snap.notes:
        return []
    ways = [Action("drift", "set", old.path, old.hash, f"{new.path} is current",
                   {"status": "contradicted", "superseded_by": f"[[{new.path[:-3]}]]",
                    "valid_until": _valid_at(new)}, propose=True)
            for new, old in ((a, b), (b, a))]
    lines = ["---", "type: conflict", "generated_by: dream", "dream: false", "---",
             f"# Conflict: {a.display} / {b.display}", "",
             "The dream found these notes saying incompatible things and could not tell which "
             "is current. Tick one proposal in today's digest, or edit the notes yourself.", ""]
    for n in (a, b):
        lines += [f"## [[{n.path[:-3]}]] (valid from {_valid_at(n)})", "",
                  *[f"> {f}" for f in facts_of(n)[:8]], ""]
    lines += ["## Ways out", "",
              f"- {ways[0].key}: [[{a.path[:-3]}]] is current",
              f"- {ways[1].key}: [[{b.path[:-3]}]] is current",
              "- both valid for different periods: add `valid_from`/`valid_until` to each", ""]
    page = Action("drift", "generate", path, None, "conflict page", content="\n".join(lines))
    return [page, *ways]



# -- drift: structured facts ------------------------------------------------------------------

INLINE_FIELD = re.compile(r"^\s*[-*]?\s*([A-Za-z][\w -]{0,40}?)::\s*(.+?)\s*$", re.M)
SYSTEM_KEYS = frozenset("""title tags tag aliases alias subject status created updated date
valid_from valid_until expires superseded_by supersedes contradicts stale_reason stale_refs
importance severity permanent pinned category source_notes merged_into archived_at
archived_from archived_reason dream lint-disable dream_checked related_files
related_files_sha project_root type id""".split())


# keys about the file rather than its subject (when it was made, where it is published)
FILE_KEYS = re.compile(r"(^|[-_ ])(created|modified|updated|date|time|timestamp|published|"
                       r"publish|draft|permalink|uid|id|cssclass|cssclasses|banner|cover|"
                       r"icon|template|source|url|author|layout|weight|order|description|summary|"
                       r"excerpt|abstract|subtitle|caption|comment|notes?|image)($|[-_ ])", re.I)
FACT_WORDS = 8  # a longer value is prose describing the note, not a value it states


def stated_facts(n: NoteInfo) -> dict[str, str]:
    """What a note states as key: value: inline `key:: value` fields, then its own
    frontmatter keys (not the ones aleph-mem or Obsidian use, nor keys about the file:
    ``created-at`` differs between any two notes and says nothing of their subject, nor a
    ``description``: two pages describe themselves differently without disagreeing)."""
    out = {m.group(1).strip().casefold(): m.group(2).strip()
           for m in INLINE_FIELD.finditer(body_of(n))}
    for key, value in n.frontmatter.items():
        if key.casefold() not in SYSTEM_KEYS and not FILE_KEYS.search(key) \
                and isinstance(value, str | int | float) and not isinstance(value, bool):
            out.setdefault(key.casefold(), str(value))
    return {k: v for k, v in out.items() if len(v.split()) <= FACT_WORDS}


def _names_in_many_folders(snap: Snapshot) -> set[str]:
    """File names this vault gives notes in three or more folders ("Recon" in every CTF
    box's folder, "Setup" in every project's): each names its folder's subject, as a
    generic name does; a name in two folders may still be one subject (a person filed
    twice)."""
    folders: dict[str, set[str]] = {}
    for n in snap.active():
        folders.setdefault(n.title.casefold(), set()).add(n.folder)
    return {name for name, where in folders.items() if len(where) >= 3}


def plan_fact_conflicts(snap: Snapshot) -> list[Action]:
    """Notes about the same subject that give one key different values: unless their
    validity periods do not overlap, every older statement is contradicted by the newest
    one about the subject (Graphiti's interval rule, docs/dream.md, drift), dated by what
    happened (``_valid_at``). A note's subject is its `subject` field, else its title and
    aliases, so `subject: "[[Ada]]"` meets the note titled Ada. A person's notes meet only
    by a subject one of them declares: read blind on vaults nobody here wrote, notes that
    only shared a name (each CTF box's "Recon", two editions' chapters) were 29 of 29
    wrong contradictions (docs/benchmarks.md). An agent's note the dream marked
    contradicted whose statements now agree with the newest gets its marks back off."""
    groups: dict[str, list[NoteInfo]] = {}
    facts: dict[str, dict[str, str]] = {}
    repeated = _names_in_many_folders(snap)
    declared: set[str] = set()
    for n in snap.active():
        facts[n.path] = stated_facts(n)
        if not facts[n.path]:
            continue
        subject = n.frontmatter.get("subject")
        named = isinstance(subject, str) and bool(subject.strip())
        names = [str(subject)] if named else [*n.names, *n.aliases]
        for name in sorted({linked_name(x).rsplit("/", 1)[-1].casefold() for x in names}):
            # "Overview" in two project folders names two subjects, not one
            key = name if named or not (generic_name(name) or name in repeated) \
                else f"{n.folder}/{name}"
            groups.setdefault(key, []).append(n)
            if named:
                declared.add(key)
    actions: dict[str, Action] = {}
    for subject, members in groups.items():
        members = sorted({m.path: m for m in members}.values(), key=lambda m: m.path)
        if subject not in declared and all(m.human for m in members):
            continue  # a person's notes meet only by a subject one of them declares
        for key in sorted({k for m in members for k in facts[m.path]}):
            stating = [m for m in members if key in facts[m.path]]
            if len({facts[m.path][key].casefold() for m in stating}) < 2:
                continue
            newest = max(stating, key=lambda m: (_valid_at(m), m.path))
            now_value = facts[newest.path][key]
            if any(_valid_at(m) == _valid_at(newest) and facts[m.path][key].casefold()
                   != now_value.casefold() for m in stating if m is not newest):
                continue  # two statements of the same moment: a person decides
            for old in stating:
                if old is newest or facts[old.path][key].casefold() == now_value.casefold():
                    continue
                ends = as_date(old.frontmatter.get("valid_until"))
                if (ends and ends.isoformat() <= _valid_at(newest)) or old.path in actions \
                        or old.status in ("contradicted", "superseded"):
                    continue  # periods that do not overlap, or already settled
                set_keys: dict[str, object] = {"status": "contradicted",
                                               "superseded_by": f"[[{newest.path[:-3]}]]"}
                if not old.human:
                    set_keys["valid_until"] = _valid_at(newest)
                actions[old.path] = Action(
                    "drift", "set", old.path, old.hash,
                    f"{key}: {facts[old.path][key]} here, {now_value} in "
                    f"[[{newest.path[:-3]}]]", set_keys,
                    judged="contradicted")
    for members in groups.values():  # the conflict is gone: the dream's marks come off
        for n in members:
            other = snap.notes.get(linked_path(n.frontmatter.get("superseded_by")))
            if n.human or n.status != "contradicted" or n.path in actions or other is None \
                    or other not in members:
                continue
            shared = facts[n.path].keys() & facts[other.path].keys()
            if shared and all(facts[n.path][k].casefold() == facts[other.path][k].casefold()
                              for k in shared):
                actions[n.path] = Action(
                    "drift", "set", n.path, n.hash, f"agrees with {other.path} again", {},
                    ("status", "superseded_by", "valid_until"))
    return list(actions.values())
