"""The scoring pipeline after fusion: what a note's state, age and links add to a hit,
diversity among the hits, and a floor under them.

Every stage is a small function over chunk scores or ranked hits so `search` reads as the
pipeline of docs/design.md 2: candidates → fusion → note factors (status, recency) → link
expansion → note ranking → MMR diversity → successors of superseded notes → minimum score.
Length normalisation needs no stage of its own: BM25 normalises by chunk length and cosine
similarity is length-free.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

import apsw

from aleph_mem.index.query_dates import Period

if TYPE_CHECKING:
    import numpy as np

DOWNWEIGHTED = ("stale", "contradicted", "superseded")
# a note dated up to this many days after a period the query names still tells of it
DATE_AFTER_DAYS = 7
WORD = re.compile(r"\w+")

# chunk ids -> their vectors (those that have one)
VectorsOf = Callable[[list[int]], dict[int, "np.ndarray"]]


class ChunkScore(NamedTuple):  # a tuple: built hundreds of times per search
    chunk_id: int
    note_id: int
    seq: int  # -1 for a note's title row
    score: float


@dataclass(frozen=True)
class NoteFactors:
    status: dict[int, float]
    recency: dict[int, float]
    successor: dict[int, str]  # note id -> the `superseded_by` target as written
    date: dict[int, float]  # notes dated in a period the query names

    def of(self, note_id: int) -> float:
        return (self.status.get(note_id, 1.0) * self.recency.get(note_id, 1.0)
                * self.date.get(note_id, 1.0))


def note_factors(con: apsw.Connection, note_ids: set[int], status_factor: float,
                 recency_weight: float, half_life_days: float,
                 now: dt.datetime | None = None, periods: list[Period] | None = None,
                 date_boost: float = 0.0) -> NoteFactors:
    """Down-weighting of stale, contradicted and superseded notes; a mild time decay:
    ``1 - w·(1 - 2^(-age/H))`` from the note's date (frontmatter ``date``, ``created`` or
    ``updated``, else the file time), so a note never loses more than ``w`` of its score;
    and ``1 + date_boost`` for a note dated in one of the query's ``periods`` (or up to
    DATE_AFTER_DAYS after it)."""
    now = now or dt.datetime.now(dt.UTC)
    status, recency, successor, dated = {}, {}, {}, {}
    rows = con.execute(  # a judgment the dream holds of a person's note counts as its status
        "SELECT n.id, COALESCE(j.status, n.status), n.note_date, n.frontmatter, j.partner "
        "FROM notes n LEFT JOIN judgments j ON j.path = n.path "
        "WHERE n.id IN (SELECT value FROM json_each(?))", (json.dumps(sorted(note_ids)),))
    for nid, st, date, fm, partner in rows:
        held = _held_then(json.loads(fm), periods) if st in DOWNWEIGHTED and periods else False
        if st in DOWNWEIGHTED and not held:  # true in the period asked about: not outdated
            status[nid] = status_factor
            target = partner or json.loads(fm).get("superseded_by") if st != "stale" else None
            if isinstance(target, str):
                successor[nid] = target
        age = _age_days(date, now)
        if recency_weight and age is not None and half_life_days > 0:
            recency[nid] = 1.0 - recency_weight * (1.0 - 2.0 ** (-age / half_life_days))
        if periods and date_boost and (held or _dated_in(date, periods)):
            dated[nid] = 1.0 + date_boost
    return NoteFactors(status, recency, successor, dated)


def _held_then(fm: dict, periods: list[Period]) -> bool:
    """A superseded or expired note whose stated validity (``valid_from`` to
    ``valid_until``) overlaps a period the question names: what was true then."""
    end = _date_of(fm.get("valid_until") or fm.get("expires"))
    if end is None:
        return False
    start = _date_of(fm.get("valid_from")) or dt.date.min
    return any(not p.any_year and p.start <= end and start <= p.end for p in periods)


def _date_of(value: object) -> dt.date | None:
    try:
        return dt.date.fromisoformat(str(value)[:10]) if value else None
    except ValueError:
        return None


def _dated_in(date: str | None, periods: list[Period]) -> bool:
    try:
        day = dt.date.fromisoformat(date[:10]) if date else None
    except ValueError:
        return False
    return day is not None and any(p.holds(day, DATE_AFTER_DAYS) for p in periods)


def _age_days(date: str | None, now: dt.datetime) -> float | None:
    when = _when(date[:19]) if date else None
    return None if when is None else max(0.0, (now - when).total_seconds() / 86400)


@functools.lru_cache(maxsize=1 << 16)
def _when(date: str) -> dt.datetime | None:
    """A note date as a moment (no zone: UTC); the same dates come back at every search."""
    try:
        when = dt.datetime.fromisoformat(date)
    except ValueError:
        return None
    return when if when.tzinfo is not None else when.replace(tzinfo=dt.UTC)


def link_bonus(con: apsw.Connection, notes: dict[int, float], top: int,
               share: float) -> dict[int, float]:
    """Link-graph expansion: each of the ``top`` best notes passes ``share`` of its score
    to the notes it links to and that link to it, divided by the square root of the
    receiving note's degree (so a hub every note links to gains little). Returns the
    bonus per note, including notes that had no candidate of their own."""
    if not share or not notes:
        return {}
    best = sorted(notes.items(), key=lambda x: (-x[1], x[0]))[:top]
    paths = dict(con.execute(
        "SELECT id, path FROM notes WHERE id IN (SELECT value FROM json_each(?))",
        (json.dumps([n for n, _ in best]),)).fetchall())
    pairs = set(con.execute(
        "SELECT l.src_id, t.id FROM links l "
        "JOIN notes s ON s.id = l.src_id JOIN notes t ON t.path = l.resolved_path "
        "WHERE l.status = 'resolved' AND s.archived = 0 AND t.archived = 0 AND "
        "(l.src_id IN (SELECT value FROM json_each(?)) OR l.resolved_path IN "
        "(SELECT value FROM json_each(?))) AND l.src_id != t.id",
        (json.dumps(list(paths)), json.dumps(list(paths.values())))).fetchall())
    gains: dict[int, float] = {}
    for src, dst in pairs:
        for giver, taker in ((src, dst), (dst, src)):
            if giver in paths and taker != giver:
                gains[taker] = max(gains.get(taker, 0.0), share * notes[giver])
    if not gains:
        return {}
    degree = _degrees(con, list(gains))
    return {n: g / math.sqrt(max(1, degree.get(n, 1))) for n, g in gains.items()}


def _degrees(con: apsw.Connection, note_ids: list[int]) -> dict[int, int]:
    return dict(con.execute(
        "SELECT n.id, (SELECT count(*) FROM links WHERE src_id = n.id AND status = 'resolved')"
        " + (SELECT count(*) FROM links WHERE resolved_path = n.path) FROM notes n "
        "WHERE n.id IN (SELECT value FROM json_each(?))", (json.dumps(note_ids),)).fetchall())


def title_rows(con: apsw.Connection, note_ids: list[int]) -> dict[int, int]:
    """note id -> the chunk id of its title row (every note has one)."""
    return dict(con.execute(
        "SELECT note_id, id FROM chunks WHERE seq = -1 AND note_id IN "
        "(SELECT value FROM json_each(?))", (json.dumps(note_ids),)).fetchall())


def mmr(con: apsw.Connection, ranked: list[tuple[ChunkScore, float]], keep: int,
        lam: float, vectors_of: VectorsOf | None = None) -> list[tuple[ChunkScore, float]]:
    """Maximal marginal relevance over the ranked hits: each next hit maximises
    ``λ·relevance − (1−λ)·(its highest similarity to a hit already chosen)``, relevance
    scaled to the best score. Similarity is the cosine of chunk vectors when every hit has
    one, else the Jaccard overlap of their words. ``λ = 1`` keeps the order."""
    if lam >= 1.0 or len(ranked) < 2:
        return ranked[:keep]
    pool = ranked[:max(keep * 3, keep)]
    row = _similarity_rows(con, [c.chunk_id for c, _ in pool], vectors_of)
    top = pool[0][1] or 1.0
    rel = [s / top for _, s in pool]
    closest = row(0)
    free = [True] * len(pool)
    free[0] = False
    order = [0]
    while len(order) < min(keep, len(pool)):
        best, i = -math.inf, -1
        for j, open_ in enumerate(free):  # ties: the earlier (better ranked) hit
            gain = lam * rel[j] - (1 - lam) * closest[j] if open_ else -math.inf
            if gain > best:
                best, i = gain, j
        order.append(i)
        free[i] = False
        if len(order) < min(keep, len(pool)):
            closest = [max(c, x) for c, x in zip(closest, row(i), strict=True)]
    return [pool[i] for i in order]


def _similarity_rows(con: apsw.Connection, ids: list[int],
                     vectors_of: VectorsOf | None) -> Callable[[int], list[float]]:
    """Row ``i`` of the hits' pairwise similarities: cosine of their vectors when every
    hit has one (numpy, already loaded for a vector search), else the Jaccard overlap of
    their words, computed only for the rows MMR asks for (plain Python: a full-text search
    loads no numpy)."""
    vecs = vectors_of(ids) if vectors_of else {}
    if len(vecs) == len(ids):
        import numpy as np

        mat = np.stack([vecs[i] for i in ids])
        return (mat @ mat.T).tolist().__getitem__  # one product: cheaper than rows
    words = _words(con, ids)
    bags = [words.get(i, set()) for i in ids]

    def jaccard(i: int) -> list[float]:
        a = bags[i]
        out = []
        for b in bags:
            common = len(a & b)
            union = len(a) + len(b) - common
            out.append(common / union if union else 0.0)
        return out
    return jaccard


def _words(con: apsw.Connection, chunk_ids: list[int]) -> dict[int, set[str]]:
    rows = con.execute("SELECT rowid, coalesce(title, '') || ' ' || coalesce(body, '') "
                       "FROM chunks_fts WHERE rowid IN (SELECT value FROM json_each(?))",
                       (json.dumps(chunk_ids),))
    return {cid: {w.lower() for w in WORD.findall(text or "")} for cid, text in rows}


def successor_ids(con: apsw.Connection, targets: dict[int, str]) -> dict[int, int]:
    """note id -> id of the active note its ``superseded_by`` names: a ``[[wikilink]]`` as
    the index resolved it (Obsidian's rules, the same as every other link), else a
    vault-relative path; unresolved or archived, no entry."""
    from aleph_mem.notes.inline_scan import links_in_value  # only when a hit was superseded

    out = {}
    for nid, raw in targets.items():
        written = links_in_value(raw)  # the link exactly as the index stored it
        if written:
            row = con.execute(
                "SELECT t.id FROM links l JOIN notes t ON t.path = l.resolved_path "
                "WHERE l.src_id = ? AND l.raw = ? AND l.status = 'resolved' AND t.archived = 0",
                (nid, written[0])).fetchone()
        else:
            path = raw.strip()
            row = con.execute("SELECT id FROM notes WHERE archived = 0 AND path IN (?, ?)",
                              (path, path + ".md")).fetchone()
        if row and row[0] != nid:
            out[nid] = row[0]
    return out


def floor(ranked: list[tuple[ChunkScore, float]],
          min_score: float) -> list[tuple[ChunkScore, float]]:
    """Drop hits scoring below ``min_score`` times the best one."""
    if not ranked or not min_score:
        return ranked
    top = max(s for _, s in ranked)
    return [(c, s) for c, s in ranked if s >= min_score * top]
