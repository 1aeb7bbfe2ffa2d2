"""lint (DREAM.md 3.5): structure and hygiene. Issues are reported (the digest's "needs
attention"); the safe fixes are planned as actions like any other pass's."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .model import Action, NoteInfo, Snapshot, body_of


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
    for src, target, status, raw, anchor in snap.links:
        note = snap.notes.get(src)
        if note is None or note.opted_out or _disabled(note, "L010"):
            continue
        if status == "unresolved":
            out.append(Issue("L010", src, f"broken link {raw}"))
        elif status == "ambiguous":
            out.append(Issue("L011", src, f"ambiguous link {raw}"))
        elif anchor == 0:
            out.append(Issue("L012", src, f"broken heading or block anchor {raw}"))
        elif target and target.startswith("archive/") and not src.startswith("archive/"):
            out.append(Issue("L013", src, f"link to an archived note {raw}: restore it with "
                             f"`aleph-mem restore {target}` or update the link"))
    titles: dict[str, list[str]] = {}
    for n in snap.active():
        for problem in n.issues:
            if "frontmatter" in problem or "YAML" in problem:
                out.append(Issue("L002", n.path, problem))
        if n.inbound == 0 and n.outbound == 0 and not _disabled(n, "L020"):
            out.append(Issue("L020", n.path, "orphan: no links in or out"))
        if not body_of(n).strip() and not _disabled(n, "L040"):
            out.append(Issue("L040", n.path, "empty note"))
        name = n.path.rsplit("/", 1)[-1]
        if (UNSAFE_NAME.search(name) or name.lower().endswith(".md.md")) \
                and not _disabled(n, "L032"):
            out.append(Issue("L032", n.path, "file name with characters links and other "
                             "systems trip over (#^[]|\\:*?\"<>) or a doubled .md"))
        age = (snap.now - n.mtime).days
        phrase = RELATIVE_TIME.search(body_of(n))
        if phrase and age > 2 and not _disabled(n, "L042"):
            out.append(Issue("L042", n.path, f"relative time \"{phrase.group()}\" in a note "
                             f"last changed {age} days ago: write the date instead"))
        titles.setdefault(n.title.casefold(), []).append(n.path)
    for paths in titles.values():
        if len(paths) > 1:
            out += [Issue("L030", p, f"title shared with {', '.join(x for x in paths if x != p)}")
                    for p in paths]
    return sorted(out, key=lambda i: (i.path, i.rule, i.message))


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
    """The safe auto-fix: duplicate entries in tags/aliases (L006), first order kept.
    (L007, `updated` from the file time, is left out: the dream's own metadata writes move
    the file time, so it would chase itself.)"""
    actions = []
    for n in snap.active():
        if _disabled(n, "L006"):
            continue
        keys = {}
        for key in ("tags", "aliases", "source_notes"):
            v = n.frontmatter.get(key)
            if isinstance(v, list) and len(v) != len(dedup := list(dict.fromkeys(v))):
                keys[key] = dedup
        if keys:
            actions.append(Action("lint", "set", n.path, n.hash, "L006 duplicate entries",
                                  keys, propose=n.human))
    return actions


