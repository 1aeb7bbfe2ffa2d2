"""Sync conflicts, each with a proposal per way out (lint's part of the dream's "surface,
never guess"): the dream never picks a side; a person ticks one box in the digest and the
runner applies it through the one writer (undoable like any change). Once one way is
applied, the others no longer match the notes and drop.

A conflict copy beside its note: keep the note (the copy goes to the archive), keep the
copy's version (it replaces the note, then goes to the archive), or keep both (what the copy
says that the note does not is appended under a heading). A note holding git's markers:
keep one side, the other, or both under headings."""

from __future__ import annotations

from aleph_mem.dream.view import Action, NoteInfo, Snapshot
from aleph_mem.files.sync_conflicts import copy_of, sides
from aleph_mem.files.vault import ARCHIVE
from aleph_mem.notes.facts import differing_table
from aleph_mem.notes.note_parts import body_of_text

SHOWN_ROWS = 6


def plan_conflicts(snap: Snapshot) -> list[Action]:
    actions: list[Action] = []
    for path, n in sorted(snap.notes.items()):
        if path.startswith(ARCHIVE) or not n.in_conflict or not n.whole:
            continue
        copied = copy_of(path)
        base = snap.notes.get(copied[0]) if copied else None
        if copied and base is not None and base.whole:
            actions += _copy_ways(base, n, copied[1])
        elif not copied:
            actions += _marker_ways(n)
    return actions


def _copy_ways(base: NoteInfo, copy: NoteInfo, engine: str) -> list[Action]:
    shows = differing_table(base.path[:-3], base.body, f"{copy.path[:-3]} ({engine})",
                            copy.body, SHOWN_ROWS, "the same text in both")
    have = {ln.strip() for ln in base.body.splitlines()}
    extra = [ln for ln in copy.body.splitlines() if ln.strip() and ln.strip() not in have]
    both = base.body.rstrip("\n") + f"\n\n## From the {engine} conflict copy\n\n" + \
        "\n".join(extra) + "\n"

    def archive(group: str, why: str, shown: tuple[str, ...] = ()) -> Action:
        return Action("lint", "archive", copy.path, copy.hash, why,
                      {"conflict_of": f"[[{base.path[:-3]}]]"}, propose=True, group=group,
                      shows=shown)

    keep = f"conflict {copy.path}: keep {base.path}"
    take = f"conflict {copy.path}: take the copy"
    merge = f"conflict {copy.path}: keep both"
    out = [archive(keep, f"keep [[{base.path[:-3]}]] as it is; the conflict copy goes to "
                   "the archive", shows)]
    out += [Action("lint", "rewrite", base.path, base.hash, "take the conflict copy's version "
                   f"([[{copy.path[:-3]}]])", content=copy.body, propose=True, group=take),
            archive(take, "its version now in the note")]
    if extra:
        out += [Action("lint", "rewrite", base.path, base.hash, "keep both: the copy's "
                       f"{len(extra)} other lines appended under a heading", content=both,
                       propose=True, group=merge), archive(merge, "its lines now in the note")]
    return out


def _marker_ways(n: NoteInfo) -> list[Action]:
    ours, theirs = sides(n.body)
    both = ours.rstrip("\n") + "\n\n## The other side of the conflict\n\n" + "\n".join(
        ln for ln in theirs.splitlines() if ln.strip() and ln not in ours.splitlines()) + "\n"
    shows = differing_table("this side (ours)", ours, "the other side (theirs)", theirs,
                            SHOWN_ROWS, "the same text in both")
    ways = [Action("lint", "rewrite", n.path, n.hash, "git conflict: keep this side (ours)",
                   content=ours, propose=True, group=f"markers {n.path}: ours", shows=shows),
            Action("lint", "rewrite", n.path, n.hash, "git conflict: keep the other side "
                   "(theirs)", content=theirs, propose=True, group=f"markers {n.path}: theirs"),
            Action("lint", "rewrite", n.path, n.hash, "git conflict: keep both, the other "
                   "side under a heading", content=both, propose=True,
                   group=f"markers {n.path}: both")]
    # a side that leaves the note without its text is no way out (read blind: "keep theirs"
    # of an empty side would have deleted a note's only line)
    return [w for w in ways if body_of_text(w.content).strip()]
