"""lint with an LLM (docs/dream.md, lint): suggestions only, each checked by code.

- L042: relative time ("yesterday") rewritten as a date, reckoned from the note's own date;
  applied on agent-owned notes, proposed on a person's.
- Tags for untagged notes, chosen among tags the vault already uses: proposals.
- L020 weave: for an orphan, the model picks at most two related notes among numbered
  candidates (nearest by vector, else by shared title words); a "See also" line appended on
  an agent-owned orphan, proposed on a person's; at most 10 a run.
"""

from __future__ import annotations

import re
from typing import Any

from aleph_mem.dream.judge import Judge, fence
from aleph_mem.dream.lint import RELATIVE_TIME, _disabled, vault_off
from aleph_mem.dream.view import Action, NoteInfo, Snapshot, body_of
from aleph_mem.files.vault import content_hash
from aleph_mem.index.indexer import note_date
from aleph_mem.notes.prose import clipped, own_prose

MAX_DATES = 5
MAX_TAGS = 5
MAX_WEAVE = 10
CANDIDATES = 5
DATE_WORDS = re.compile(r"\b(1[89]|20)\d\d\b|\b(january|february|march|april|may|june|july|"
                        r"august|september|october|november|december)\b", re.IGNORECASE)
TAG = re.compile(r"^[\w][\w/-]{0,40}$")

DATES_SYSTEM = (
    "A note uses relative time words. Rewrite each as an absolute date, reckoned from the "
    "note's date (valid_at). Answer with one JSON object: {\"replacements\": [{\"find\": the "
    "exact words in the note, \"replace\": the words with an absolute date}]}.")
TAGS_SYSTEM = (
    "Suggest up to three tags for a note, chosen only from the list of tags given. Answer "
    "with one JSON object: {\"tags\": [tag, ...]} (an empty list if none fits).")
WEAVE_SYSTEM = (
    "Note 0 links to nothing and nothing links to it. Pick at most two of the numbered "
    "notes it should link to, only if they are clearly about the same thing. Answer with one "
    "JSON object: {\"links\": [note numbers]}.")


def plan_lint_llm(snap: Snapshot, judge: Judge) -> list[Action]:
    if not judge.available:
        return []
    off = vault_off(snap)
    return ([] if "L042" in off else dates(snap, judge)) + \
        ([] if "tags" in off else tags(snap, judge)) + \
        ([] if "L020" in off else weave(snap, judge))


def _valid_at(n: NoteInfo) -> str:
    """The note's own date, as the index dates notes (date, created, updated, file time)."""
    return note_date(n.frontmatter, int(n.changed_at.timestamp() * 1e9))[:10]


def validate_dates(obj: Any, body: str) -> dict[str, Any] | None:
    """Each find must be in the note and be a relative-time phrase; each replacement must
    carry a date, stay short and bring no link or line break."""
    if not isinstance(obj, dict) or not isinstance(obj.get("replacements"), list):
        return None
    out = []
    for r in obj["replacements"]:
        if not isinstance(r, dict):
            continue
        find, repl = r.get("find"), r.get("replace")
        if not (isinstance(find, str) and isinstance(repl, str)) or find not in body:
            continue
        if not RELATIVE_TIME.search(find) or len(find) > 60 or len(repl) > 60:
            continue
        if not DATE_WORDS.search(repl) or "[[" in repl or "\n" in repl or "`" in repl:
            continue
        out.append({"find": find, "replace": repl})
    return {"replacements": out} if out else None


def dates(snap: Snapshot, judge: Judge) -> list[Action]:
    out: list[Action] = []
    for n in snap.active():
        if len(out) >= MAX_DATES or _disabled(n, "L042"):
            continue
        body = body_of(n)
        if not RELATIVE_TIME.search(own_prose(body)) or clipped(n.path, n.frontmatter, n.tags) \
                or (snap.now - n.changed_at).days <= 2 or not n.whole or snap.dated(n):
            continue  # only the person's own words, in a note whose date does not anchor them
        verdict = judge.ask("dates", [n.hash], DATES_SYSTEM,
                            fence(1, n.display, body, _valid_at(n)),
                            lambda obj, b=body: validate_dates(obj, b))
        if verdict is None:
            continue
        text = n.body
        for r in verdict["replacements"]:
            text = _replace_outside_code(text, r["find"], r["replace"])
        if text != n.body:
            what = ", ".join(f"\"{r['find']}\" → \"{r['replace']}\"" for r in
                             verdict["replacements"])
            out.append(Action("lint", "rewrite", n.path, n.hash, f"L042 dated: {what}",
                              content=text, propose=n.human))
    return out


def _replace_outside_code(text: str, find: str, repl: str) -> str:
    """The first occurrence on a line with no code span, outside fenced code."""
    lines, fenced = text.split("\n"), False
    for i, line in enumerate(lines):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced and "`" not in line and find in line:
            lines[i] = line.replace(find, repl, 1)
            break
    return "\n".join(lines)


def tags(snap: Snapshot, judge: Judge) -> list[Action]:
    known = sorted({t for n in snap.active() for t in n.tags})
    if not known:
        return []
    out: list[Action] = []
    for n in snap.active():
        if len(out) >= MAX_TAGS or n.tags or n.issues_frontmatter or _disabled(n, "tags"):
            continue
        prompt = "Tags: " + ", ".join(known[:300]) + "\n\n" + fence(
            1, n.display, body_of(n)[:2000], _valid_at(n))
        verdict = judge.ask("tags", [n.hash, content_hash(" ".join(known).encode())],
                            TAGS_SYSTEM, prompt,
                            lambda obj: validate_tags(obj, set(known)))
        if verdict:
            out.append(Action("lint", "set", n.path, n.hash, "suggested tags",
                              {"tags": verdict["tags"]}, propose=True))
    return out


def validate_tags(obj: Any, known: set[str]) -> dict[str, Any] | None:
    """Only tags the vault already uses (no invented ones), at most three."""
    if not isinstance(obj, dict) or not isinstance(obj.get("tags"), list):
        return None
    picked = [t.lstrip("#") for t in obj["tags"] if isinstance(t, str)]
    picked = [t for t in dict.fromkeys(picked) if TAG.match(t) and t in known][:3]
    return {"tags": picked} if picked else None


def candidates(snap: Snapshot, n: NoteInfo, pool: list[NoteInfo]) -> list[NoteInfo]:
    """The notes nearest to ``n``: by note vector when there are vectors, else by shared
    title and body words (Jaccard)."""
    vecs = snap.vectors()
    others = [o for o in pool if o.path != n.path]
    if n.path in vecs:
        scored = [(float(vecs[n.path] @ vecs[o.path]), o.path, o) for o in others
                  if o.path in vecs]
    else:
        mine = set(re.findall(r"\w{4,}", (n.title + " " + body_of(n)).casefold()))
        scored = []
        for o in others:
            theirs = set(re.findall(r"\w{4,}", (o.title + " " + body_of(o)).casefold()))
            union = mine | theirs
            scored.append((len(mine & theirs) / len(union) if union else 0.0, o.path, o))
    scored.sort(key=lambda x: (-x[0], x[1]))
    return [o for s, _, o in scored[:CANDIDATES] if s > 0]


def weave(snap: Snapshot, judge: Judge) -> list[Action]:
    pool = [n for n in snap.active() if n.frontmatter.get("type") not in ("digest", "synthesis")]
    out: list[Action] = []
    for n in pool:
        if len(out) >= MAX_WEAVE:
            break
        if n.inbound or n.outbound or _disabled(n, "L020") or not n.whole:
            continue
        near = candidates(snap, n, pool)
        if not near:
            continue
        prompt = "\n\n".join([fence(0, n.display, body_of(n)[:1500], _valid_at(n))] + [
            fence(i, o.display, body_of(o)[:600], _valid_at(o)) for i, o in enumerate(near, 1)])
        size = len(near)
        verdict = judge.ask("weave", [n.hash, *[o.hash for o in near]], WEAVE_SYSTEM, prompt,
                            lambda obj, k=size: validate_weave(obj, k))
        if not verdict:
            continue
        targets = [near[i - 1] for i in verdict["links"]]
        line = "See also " + ", ".join(f"[[{t.path[:-3]}]]" for t in targets) + \
            " (suggested by the dream)."
        out.append(Action("lint", "rewrite", n.path, n.hash, "L020 linked an orphan to "
                          + ", ".join(t.path for t in targets),
                          content=n.body.rstrip("\n") + "\n\n" + line + "\n", propose=n.human))
    return out


def validate_weave(obj: Any, k: int) -> dict[str, Any] | None:
    if not isinstance(obj, dict) or not isinstance(obj.get("links"), list):
        return None
    ids = [i for i in obj["links"] if isinstance(i, int) and not isinstance(i, bool)
           and 1 <= i <= k]
    ids = list(dict.fromkeys(ids))[:2]
    return {"links": ids} if ids else None

