"""Synthesis notes and the category index (the rest of the synthesis pass, docs/dream.md, weekly;
the review note is weekly.py): the generated category index and, with an LLM, one
synthesis note per cluster whose every insight cites its members.

The model only writes text the code then checks: members are numbered, every insight must
cite at least one of them (uncited ones are dropped), suggested links must name two members.
A synthesis note is updated in place next week when its members overlap the new cluster by
half or more (Jaccard), a note a person edited is never overwritten (the update becomes a
proposal), and a note the dream rewrote three runs in a row is frozen to proposals."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from collections import Counter
from typing import Any

from aleph_mem.dream.judge import Judge, fence
from aleph_mem.dream.snapshot import dream_wrote_last, generated
from aleph_mem.dream.view import Action, NoteInfo, Snapshot, body_of
from aleph_mem.files.vault import DREAM, content_hash
from aleph_mem.notes.note_parts import linked_path
from aleph_mem.store import Store

INDEX_PATH = f"{DREAM}index.md"
SYNTHESIS_DIR = "synthesis"
MAX_PER_CLUSTER = 15
NOTE_CHARS = 600
MAX_LINKS = 10
UPDATE_JACCARD = 0.5
FREEZE_AFTER = 3
INDEX_PER_CATEGORY = 50

SYNTHESIS_SYSTEM = (
    "You read a cluster of related notes from a person's knowledge base and write what they "
    "add up to. Answer with one JSON object: {\"title\": short title, \"insights\": [{\"text\": "
    "one sentence, \"evidence\": [note numbers]}], \"open_questions\": [short questions], "
    "\"suggested_links\": [[n, m]]}. Every insight must cite the notes it rests on by number; "
    "suggested_links pairs notes that should link to each other. Use only what the notes say.")


def validate_synthesis(obj: Any, n: int) -> dict[str, Any] | None:
    """Ids checked against 1..n, uncited insights dropped; nothing left means no change."""
    if not isinstance(obj, dict) or not isinstance(obj.get("insights"), list):
        return None
    insights = []
    for item in obj["insights"]:
        if not isinstance(item, dict) or not isinstance(item.get("text"), str):
            continue
        ids = sorted({i for i in item.get("evidence") or [] if isinstance(i, int)
                      and not isinstance(i, bool) and 1 <= i <= n})
        text = " ".join(item["text"].split())[:400]
        if ids and text:
            insights.append({"text": text, "evidence": ids})
    if not insights:
        return None
    title = obj.get("title")
    title = title if isinstance(title, str) else ""
    title = " ".join(re.sub(r"[\[\]#|^\n]", " ", title).split())[:80] or "Synthesis"
    questions = [" ".join(q.split())[:200] for q in obj.get("open_questions") or []
                 if isinstance(q, str) and q.strip()][:5]
    links = []
    for pair in obj.get("suggested_links") or []:
        if isinstance(pair, list) and len(pair) == 2 and all(
                isinstance(i, int) and not isinstance(i, bool) and 1 <= i <= n for i in pair) \
                and pair[0] != pair[1]:
            links.append(sorted(pair))
    return {"title": title, "insights": insights, "open_questions": questions,
            "suggested_links": [list(p) for p in dict.fromkeys(map(tuple, links))]}


def signature(members: list[str]) -> str:
    return hashlib.sha256("\n".join(sorted(members)).encode()).hexdigest()[:16]


def plan_synthesis_notes(mem: Store, snap: Snapshot, found: list[list[str]],
                         judge: Judge) -> list[Action]:
    if not judge.available:
        return []
    existing = _existing(snap)
    actions: list[Action] = []
    links_left = MAX_LINKS
    taken: set[str] = set()
    for members in found:
        notes = [snap.notes[p] for p in members[:MAX_PER_CLUSTER]]
        prompt = "\n\n".join(fence(i, n.display, body_of(n)[:NOTE_CHARS],
                                   n.changed_at.date().isoformat()) for i, n in enumerate(notes, 1))
        size = len(notes)
        verdict = judge.ask("synthesis", [n.hash for n in notes], SYNTHESIS_SYSTEM, prompt,
                            lambda obj, k=size: validate_synthesis(obj, k))
        if verdict is None:
            continue
        path = _target(existing, members, verdict["title"], taken)
        taken.add(path)
        content = render(verdict, notes, members, snap.now)
        actions += _write(mem, snap, path, content)
        for a, b in verdict["suggested_links"]:
            if links_left > 0:
                action = _link(notes[a - 1], notes[b - 1])
                if action is not None:
                    actions.append(action)
                    links_left -= 1
    return actions


def _existing(snap: Snapshot) -> dict[str, set[str]]:
    """Synthesis notes the dream wrote before: path -> their members."""
    out = {}
    for p, n in snap.notes.items():
        if n.frontmatter.get("type") == "synthesis" and \
                n.frontmatter.get("generated_by") == "dream":
            src = n.frontmatter.get("source_notes") or []
            out[p] = {linked_path(s) for s in src if isinstance(s, str)}
    return out


def _target(existing: dict[str, set[str]], members: list[str], title: str,
            taken: set[str]) -> str:
    mine = set(members)
    best = max(((len(mine & m) / len(mine | m), p) for p, m in existing.items()
                if p not in taken and mine | m), default=(0.0, ""))
    if best[0] >= UPDATE_JACCARD:
        return best[1]
    slug = re.sub(r"[^a-z0-9]+", "-", title.casefold()).strip("-")[:60] or "synthesis"
    path, i = f"{SYNTHESIS_DIR}/{slug}.md", 2
    while path in existing or path in taken:
        path, i = f"{SYNTHESIS_DIR}/{slug}-{i}.md", i + 1
    return path


def render(verdict: dict[str, Any], notes: list[NoteInfo], members: list[str],
           now: dt.datetime) -> str:
    link = lambda n: f"[[{n.path[:-3]}]]"  # noqa: E731
    out = ["---", "type: synthesis", "generated_by: dream", "dream_owned: true",
           "dream: false", f"cluster_signature: {signature(members)}", "source_notes:"]
    out += [f'  - "[[{p[:-3]}]]"' for p in members]
    out += ["---", f"# {verdict['title']}", "",
            f"What the dream read across {len(members)} related notes "
            f"(week of {now.date().isoformat()}). Each line cites its notes.", "",
            "## Insights", ""]
    out += [f"- {i['text']} ({', '.join(link(notes[e - 1]) for e in i['evidence'])})"
            for i in verdict["insights"]]
    if verdict["open_questions"]:
        out += ["", "## Open questions", ""] + [f"- {q}" for q in verdict["open_questions"]]
    return "\n".join(out) + "\n"


def _write(mem: Store, snap: Snapshot, path: str, content: str) -> list[Action]:
    current = mem.vault.read_bytes(path)
    if current is None:
        return [Action("synthesis", "generate", path, None, "weekly synthesis",
                       content=content)]
    text = current.decode("utf-8", "replace")
    if _body(text) == _body(content):
        return []
    events = mem.log(path=path, limit=FREEZE_AFTER)
    human = not dream_wrote_last(mem, path, current)
    frozen = len(events) >= FREEZE_AFTER and all(
        e.actor == "dream:synthesis" and e.kind == "note-updated" for e in events)
    if human or frozen:  # never overwrite a person's edit; stop oscillating
        why = "you edited it" if human else "rewritten three runs in a row"
        suggestion = (text.rstrip("\n") + f"\n\n## Suggested update "
                      f"({snap.now.date().isoformat()}, {why})\n\n" + _body(content))
        return [Action("synthesis", "rewrite", path, content_hash(current),
                       "suggested update of the synthesis", content=suggestion, propose=True)]
    return [Action("synthesis", "rewrite", path, content_hash(current), "weekly synthesis",
                   content=content)]


def _body(text: str) -> str:
    """A synthesis note's text below its title, without the dated line that changes weekly."""
    parts = text.split("\n## Insights\n", 1)
    return "## Insights\n" + parts[1] if len(parts) == 2 else text


def _link(a: NoteInfo, b: NoteInfo) -> Action | None:
    """A suggested link, appended to an agent-owned note; proposed on a person's."""
    if f"[[{b.path[:-3]}]]" in a.body or f"[[{a.path[:-3]}]]" in b.body:
        return None
    src, dst = (a, b) if not a.human or b.human else (b, a)
    if not src.whole:
        return None  # not valid UTF-8, or too big to hold whole: never rewritten
    text = src.body.rstrip("\n") + (f"\n\nSee also [[{dst.path[:-3]}]] (suggested by the "
                                    "weekly synthesis).\n")
    return Action("synthesis", "rewrite", src.path, src.hash,
                  f"suggested link to {dst.path}", content=text, propose=src.human)


def plan_index(mem: Store, snap: Snapshot) -> Action | None:
    """``_dream/index.md``: every category (frontmatter ``category``, else the top folder)
    with its note count and its most-linked notes."""
    groups: dict[str, list[NoteInfo]] = {}
    for n in snap.active():
        if n.frontmatter.get("type") in ("digest", "synthesis", "conflict"):
            continue
        cat = n.frontmatter.get("category")
        key = cat if isinstance(cat, str) and cat else (n.folder.split("/")[0] or "(top level)")
        groups.setdefault(key, []).append(n)
    out = ["---", "type: digest", "generated_by: dream", "dream: false", "---",
           "# Index", "", f"{sum(len(v) for v in groups.values())} notes in "
           f"{len(groups)} categories; the most linked first.", ""]
    for cat in sorted(groups, key=str.casefold):
        notes = sorted(groups[cat], key=lambda n: (-n.inbound, n.title.casefold(), n.path))
        out += [f"## {cat} ({len(notes)})", ""]
        out += [f"- [[{n.path[:-3]}|{n.display}]]" for n in notes[:INDEX_PER_CATEGORY]]
        if len(notes) > INDEX_PER_CATEGORY:
            out.append(f"- … and {len(notes) - INDEX_PER_CATEGORY} more")
        out.append("")
    return generated(mem, "synthesis", INDEX_PATH, "\n".join(out), "category index")


def topic_trends(snap: Snapshot, limit: int = 5) -> tuple[list[tuple[str, int]],
                                                           list[tuple[str, int]]]:
    """Tags whose notes were recalled on more days this week than last (rising) or fewer
    (falling): (tag, change in recall days), biggest first."""
    today = snap.now.date()
    week = {(today - dt.timedelta(days=d)).isoformat() for d in range(7)}
    last = {(today - dt.timedelta(days=d)).isoformat() for d in range(7, 14)}
    change: Counter[str] = Counter()
    for n in snap.active():
        delta = sum(d in week for d in n.recall_days) - sum(d in last for d in n.recall_days)
        for t in {t.casefold() for t in n.tags}:
            change[t] += delta
    rising = sorted(((t, c) for t, c in change.items() if c > 0), key=lambda x: (-x[1], x[0]))
    falling = sorted(((t, c) for t, c in change.items() if c < 0), key=lambda x: (x[1], x[0]))
    return rising[:limit], falling[:limit]
