"""The link graph (networkx): links, backlinks, neighbourhoods and paths between notes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import apsw

from aleph_mem.errors import BadInput

if TYPE_CHECKING:
    import networkx as nx


@dataclass(frozen=True)
class Edge:
    source: str
    target: str
    raw: str
    line: int


def edges(con: apsw.Connection) -> list[Edge]:
    return [Edge(*row) for row in con.execute(
        "SELECT n.path, l.resolved_path, l.raw, l.line FROM links l JOIN notes n "
        "ON n.id = l.src_id JOIN notes t ON t.path = l.resolved_path "
        "WHERE l.resolved_path != n.path ORDER BY n.path, l.line")]


def build(con: apsw.Connection) -> nx.DiGraph:
    import networkx as nx  # loaded only when a graph is needed

    g: nx.DiGraph[str] = nx.DiGraph()
    g.add_nodes_from(p for (p,) in con.execute("SELECT path FROM notes"))
    for e in edges(con):
        g.add_edge(e.source, e.target)
    return g


def outgoing(con: apsw.Connection, path: str) -> list[str]:
    return [t for (t,) in con.execute(
        "SELECT DISTINCT l.resolved_path FROM links l JOIN notes n ON n.id = l.src_id "
        "WHERE n.path = ? AND l.resolved_path IS NOT NULL AND l.resolved_path != ? "
        "ORDER BY 1", (path, path))]


def backlinks(con: apsw.Connection, path: str) -> list[str]:
    return [s for (s,) in con.execute(
        "SELECT DISTINCT n.path FROM links l JOIN notes n ON n.id = l.src_id "
        "WHERE l.resolved_path = ? AND n.path != ? ORDER BY 1", (path, path))]


def neighbours(con: apsw.Connection, path: str, depth: int = 1) -> dict[str, int]:
    """Notes within ``depth`` links of ``path`` in either direction, with their distance,
    nearest first: by distance, then by how many notes one link nearer each is linked
    with (a note three of the neighbours link to is closer than one reached through a
    single hub), then by path."""
    import networkx as nx

    if not 1 <= depth <= 4:
        raise BadInput(f"`depth` runs from 1 to 4, not {depth}")
    g = build(con).to_undirected(as_view=True)
    dist = nx.single_source_shortest_path_length(g, path, cutoff=depth)
    ties = {p: sum(dist.get(q) == d - 1 for q in g[p]) for p, d in dist.items()}
    return {p: d for p, d in sorted(dist.items(), key=lambda x: (x[1], -ties[x[0]], x[0]))
            if p != path}


def path_between(con: apsw.Connection, a: str, b: str) -> list[str]:
    """The shortest chain of links between two notes (either direction), or []."""
    import networkx as nx

    g = build(con).to_undirected(as_view=True)
    try:
        return nx.shortest_path(g, a, b)
    except nx.NetworkXNoPath:
        return []


def links_from(con: apsw.Connection, note_id: int) -> list[tuple]:
    """(raw, target, heading, block, alias, embed, resolved path, status, line, candidates
    JSON) of each link a note makes, in the order written."""
    return [tuple(r) for r in con.execute(
        "SELECT raw, target, heading, block, alias, embed, resolved_path, status, "
        "line, candidates FROM links WHERE src_id=? ORDER BY line, id", (note_id,))]


def resolved_pairs(con: apsw.Connection) -> list[tuple[str, str]]:
    """(source, target) of every resolved link between two different notes, once each."""
    return [(s, t) for s, t in con.execute(
        "SELECT DISTINCT n.path, l.resolved_path FROM links l JOIN notes n ON "
        "n.id = l.src_id WHERE l.resolved_path IS NOT NULL AND n.path != l.resolved_path "
        "ORDER BY 1, 2")]


def inbound_counts(con: apsw.Connection) -> dict[str, int]:
    """path -> how many other notes link to it; what the dream itself writes does not
    count."""
    return dict(con.execute(
        "SELECT l.resolved_path, count(DISTINCT l.src_id) FROM links l JOIN notes n ON "
        "n.id = l.src_id WHERE l.resolved_path IS NOT NULL AND l.resolved_path != n.path "
        "AND n.path NOT LIKE '\\_dream/%' ESCAPE '\\' GROUP BY 1").fetchall())


def outbound_counts(con: apsw.Connection) -> dict[str, int]:
    """path -> how many resolved links it makes to other notes."""
    return dict(con.execute(
        "SELECT n.path, count(*) FROM links l JOIN notes n ON n.id = l.src_id "
        "WHERE l.resolved_path IS NOT NULL AND l.resolved_path != n.path GROUP BY 1").fetchall())


def links_outside_dream(con: apsw.Connection) -> list[tuple]:
    """(source, resolved path, status, raw, anchor found, line) of every link outside the
    dream's own notes, by source and line."""
    return [tuple(r) for r in con.execute(
        "SELECT n.path, l.resolved_path, l.status, l.raw, l.anchor_found, l.line FROM links l "
        "JOIN notes n ON n.id = l.src_id WHERE n.path NOT LIKE '\\_dream/%' ESCAPE '\\' "
        "ORDER BY n.path, l.line")]


def resolved_by_title(con: apsw.Connection) -> set[tuple[str, str]]:
    """(source, raw) of the wikilinks that found their note by its title, not its name."""
    return {(s, r) for s, r in con.execute(
        "SELECT n.path, l.raw FROM links l JOIN notes n ON n.id = l.src_id "
        "WHERE l.resolved_by = 'title' AND l.kind = 'wikilink'")}
