"""The weekly review (part of the synthesis pass, docs/dream.md, weekly; deterministic): clusters of
the week's notes and their neighbours, and a review note ``_dream/weekly/YYYY-Www.md`` for a
person: per cluster its members, hub and tags; graph health (orphans, bridge notes); topics
rising and falling by recall; conflicts left open; tag hygiene."""

from __future__ import annotations

import datetime as dt
import difflib
import re
from collections import Counter
from collections.abc import Callable

import networkx as nx

from aleph_mem.dream.snapshot import generated
from aleph_mem.dream.synthesis import topic_trends
from aleph_mem.dream.view import Action, Snapshot
from aleph_mem.files.vault import DREAM
from aleph_mem.store import Store

MIN_CLUSTER = 3
MAX_CLUSTERS = 10
SPLIT_ABOVE = 15  # components bigger than this are split by Louvain
EXCLUDED_TYPES = ("digest", "synthesis", "query")


def week_path(day: dt.date) -> str:
    year, week, _ = day.isocalendar()
    return f"{DREAM}weekly/{year}-W{week:02d}.md"


def clusters(snap: Snapshot) -> list[list[str]]:
    """Groups among the notes changed in the last 7 days and their one-hop neighbours,
    joined by links (weight 1) and shared tags (weight 0.5): each connected group of up to
    15 notes as it is (modularity would split even a tight ring of four in two), bigger
    ones split into Louvain communities."""
    since = snap.now - dt.timedelta(days=7)
    usable = {p: n for p, n in snap.notes.items() if not n.opted_out
              and n.frontmatter.get("type") not in EXCLUDED_TYPES}
    recent = {p for p, n in usable.items() if n.changed_at >= since}
    g: nx.Graph[str] = nx.Graph()
    for src, dst, status, _, _, _ in snap.links:
        if status == "resolved" and src in usable and dst in usable and src != dst \
                and (src in recent or dst in recent):
            g.add_edge(src, dst, weight=1.0)
    for src, dst, _ in snap.soft:  # an unlinked mention: half an edge
        if src in usable and dst in usable and (src in recent or dst in recent):
            w = g.get_edge_data(src, dst, {}).get("weight", 0.0)
            g.add_edge(src, dst, weight=w + 0.5)
    g.add_nodes_from(sorted(recent))  # node order steers Louvain: never a set's order
    by_tag: dict[str, list[str]] = {}
    for p in list(g.nodes):
        for t in usable[p].tags:
            by_tag.setdefault(t.casefold(), []).append(p)
    for members in by_tag.values():
        for a, b in zip(members, members[1:], strict=False):
            w = g.get_edge_data(a, b, {}).get("weight", 0.0)
            g.add_edge(a, b, weight=w + 0.5)
    if not g.number_of_nodes():
        return []
    found: list[set[str]] = []
    for part in nx.connected_components(g):  # a small component is one topic as it is
        found += [part] if len(part) <= SPLIT_ABOVE else nx.community.louvain_communities(
            g.subgraph(part), weight="weight", seed=42)
    out = [sorted(c) for c in found if len(c) >= MIN_CLUSTER]
    return sorted(out, key=lambda c: (-len(c), c[0]))[:MAX_CLUSTERS]


def _some(paths: list[str], link: Callable[[str], str], shown: int = 15) -> str:
    """The first ``shown`` as links, then how many more (a big cluster stays readable)."""
    text = ", ".join(link(p) for p in paths[:shown])
    return text + (f" and {len(paths) - shown} more" if len(paths) > shown else "")


def moc_proposals(snap: Snapshot, found: list[list[str]]) -> list[Action]:
    """A cluster of five or more notes without a hub (no member with 3 inbound links): a
    proposal to create a map-of-content note linking them, in the members' main folder."""
    out = []
    for members in found:
        hub = max(members, key=lambda p: (snap.notes[p].inbound, p))
        if len(members) < 5 or snap.notes[hub].inbound >= 3:
            continue
        folder = Counter(snap.notes[p].folder for p in members).most_common(1)[0][0]
        title = f"Map of {snap.notes[hub].display}"
        name = re.sub(r'[#^\[\]|\\:*?"<>/]', " ", title).strip()
        path = f"{folder}/{name}.md" if folder else f"{name}.md"
        if path in snap.notes:
            continue
        lines = ["---", "type: moc", "tags: [moc]", "---", f"# {title}", "",
                 "Notes the weekly review found together:", ""]
        lines += [f"- [[{p[:-3]}|{snap.notes[p].display}]]" for p in members]
        out.append(Action("synthesis", "generate", path, None, "map of content for a "
                          f"cluster of {len(members)} notes", content="\n".join(lines) + "\n",
                          propose=True))
    return out


def near_duplicate_tags(snap: Snapshot) -> list[tuple[str, str]]:
    tags = sorted({t.casefold() for n in snap.active() for t in n.tags})
    pairs = []
    for i, a in enumerate(tags):
        for b in tags[i + 1:]:
            na, nb = a.replace("-", "").replace("_", ""), b.replace("-", "").replace("_", "")
            if na != nb and re.sub(r"\d+", "#", na) == re.sub(r"\d+", "#", nb):
                continue  # spell/level/1 and spell/level/7: numbered on purpose
            if na == nb or na.rstrip("s") == nb.rstrip("s") or \
                    difflib.SequenceMatcher(None, na, nb).ratio() >= 0.9:
                pairs.append((a, b))
    return pairs


def plan_weekly(mem: Store, snap: Snapshot, found: list[list[str]]) -> Action | None:
    now = snap.now
    path = week_path(now.date())
    link = lambda p: f"[[{p[:-3]}]]"  # noqa: E731
    out = ["---", "type: digest", "generated_by: dream", "dream: false",
           f"week: {path.rsplit('/', 1)[1][:-3]}", "---",
           f"# Weekly review {path.rsplit('/', 1)[1][:-3]}", "", "## Clusters", ""]
    if not found:
        out.append("- no cluster of three or more notes this week")
    for n, members in enumerate(found, 1):
        hub = max(members, key=lambda p: (snap.notes[p].inbound, p))
        tags = Counter(t for p in members for t in snap.notes[p].tags).most_common(3)
        since = now - dt.timedelta(days=7)
        new = [p for p in members if snap.notes[p].changed_at >= since]
        out.append(f"### {n}. around {link(hub)} ({len(members)} notes)")
        out.append("")
        out.append("- members: " + _some(members, link))
        out.append("- changed this week: " + (_some(new, link) if new else "none"))
        if tags:
            out.append("- top tags: " + ", ".join(f"#{t} ({c})" for t, c in tags))
        if len(members) >= 5 and snap.notes[hub].inbound < 3:
            out.append("- no hub note yet: a map-of-content note linking these would help "
                       "(proposed in today's digest)")
        out.append("")
    active = snap.active()
    orphans = [n.path for n in active if n.inbound == 0 and n.outbound == 0]
    g: nx.Graph[str] = nx.Graph()
    g.add_edges_from((s, d) for s, d, st, _, _, _ in snap.links
                     if st == "resolved" and d is not None and d != s)
    bridges = sorted(p for p in nx.articulation_points(g) if p in snap.notes)[:10] \
        if g.number_of_nodes() else []
    out += ["## Graph health", "", f"- {len(active)} notes, {len(orphans)} orphans"
            + (": " + ", ".join(link(p) for p in orphans[:10]) if orphans else "")]
    if bridges:
        out.append("- bridge notes (removing one splits the graph): "
                   + ", ".join(link(p) for p in bridges))
    rising, falling = topic_trends(snap)
    out += ["", "## Topics by recall", ""]
    out += ["- rising: " + ", ".join(f"#{t} (+{c} days)" for t, c in rising)] if rising else []
    out += ["- falling: " + ", ".join(f"#{t} ({c} days)" for t, c in falling)] \
        if falling else []
    if not rising and not falling:
        out.append("- no change in what agents recalled, week over week")
    old = sorted(p for p, n in snap.notes.items() if p.startswith(f"{DREAM}conflicts/")
                 and now - n.changed_at >= dt.timedelta(days=7))
    if old:
        out += ["", "## Conflicts open for more than a week", ""]
        out += [f"- {link(p)}" for p in old]
    dup_tags = near_duplicate_tags(snap)
    out += ["", "## Tag hygiene", ""]
    out += [f"- #{a} and #{b} look like one tag" for a, b in dup_tags[:20]] or [
        "- nothing to tidy"]
    return generated(mem, "synthesis", path, "\n".join(out) + "\n", "weekly review")
