"""Full-text search: safe FTS5 queries, filters before ranking, best chunk per note."""

from __future__ import annotations

import datetime as dt
import json
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING

import apsw

from aleph_mem.index import ranking
from aleph_mem.index.db import snapshot
from aleph_mem.index.query_dates import periods
from aleph_mem.index.ranking import ChunkScore, VectorsOf

if TYPE_CHECKING:  # numpy loads with the first vector search, never for full text
    import numpy as np

STOPWORDS = frozenset("""a about above after again against all am an and any are as at be because
been before being below between both but by can could did do does doing down during each few for
from further had has have having he her here hers herself him himself his how i if in into is it
its itself just me more most my myself no nor not now of off on once only or other our ours
ourselves out over own same she should so some such than that the their theirs them themselves
then there these they this those through to too under until up very was we were what when where
which while who whom why will with would you your yours yourself yourselves
like likes liked""".split())  # "what does my pet like": a question's verb, not its subject

WORD = re.compile(r"[\w]+(?:['’][\w]+)*", re.UNICODE)
# a query's words past this many are not searched for: FTS5's cost grows faster than the
# number of OR-ed terms (20,000 took 5 s, 200,000 minutes), and no question needs more
MAX_QUERY_TERMS = 100
PHRASE = re.compile(r'"([^"]+)"')

# bm25 column weights: title (with aliases), heading path, body
WEIGHTS = (2.0, 1.5, 1.0)
# note score = best chunk + NOTE_SPREAD * the sum of its next best chunks (up to 3)
NOTE_SPREAD = 0.25


@dataclass(frozen=True)
class Filters:
    folder: str | None = None
    tags: tuple[str, ...] = ()
    since: str | None = None
    until: str | None = None
    status: str | None = None
    include_archived: bool = False


@dataclass
class Hit:
    path: str
    anchor: str
    title: str
    score: float
    snippet: str
    line: int
    heading: list[str] = field(default_factory=list)
    block_id: str | None = None
    chunk_id: int = 0
    explain: dict[str, float] | None = None
    version: dict[str, str] | None = None  # an --as-of hit: which version it comes from
    period: str | None = None  # a fact no longer current: when it held

    def as_json(self) -> dict:
        out = asdict(self)
        out.pop("chunk_id")
        for key in ("explain", "version", "period"):
            if out[key] is None:
                out.pop(key)
        return out


def query_terms(text: str) -> list[str]:
    """Anything a person types, as safe FTS5 terms: quoted phrases kept, every other word
    quoted, stopwords dropped unless nothing else is left; the first MAX_QUERY_TERMS."""
    return _all_terms(text)[:MAX_QUERY_TERMS]


def _all_terms(text: str) -> list[str]:
    phrases = [p.strip() for p in PHRASE.findall(text) if WORD.search(p)]
    rest = PHRASE.sub(" ", text)
    words = [w.lower() for w in WORD.findall(rest)]
    content = [w for w in words if w not in STOPWORDS] or words
    terms = [_quote(" ".join(WORD.findall(p))) for p in phrases]
    return list(dict.fromkeys(terms + [_quote(w) for w in content]))


def terms_notice(text: str) -> str:
    """What a search says when its query had more terms than it uses (else "")."""
    found = len(_all_terms(text)) if len(WORD.findall(text)) > MAX_QUERY_TERMS else 0
    if found <= MAX_QUERY_TERMS:
        return ""
    return (f"the query has {found} different words and phrases: only its first "
            f"{MAX_QUERY_TERMS} were searched for")


def fts_query(text: str, op: str = "OR") -> str | None:
    terms = query_terms(text)
    return f" {op} ".join(terms) if terms else None


def _quote(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def filter_sql(f: Filters) -> tuple[str, list]:
    sql, args = [], []
    if f.folder:
        folder = f.folder.strip("/")
        sql.append("(n.folder = ? OR n.folder LIKE ? ESCAPE '\\')")
        args += [folder, like_prefix(folder) + "/%"]
    for tag in f.tags:
        t = tag.lstrip("#").casefold()
        sql.append("EXISTS (SELECT 1 FROM tags t WHERE t.note_id = n.id AND "
                   "(t.tag_lc = ? OR t.tag_lc LIKE ? ESCAPE '\\'))")
        args += [t, like_prefix(t) + "/%"]
    if f.since:
        sql.append("n.note_date >= ?")
        args.append(f.since)
    if f.until:
        sql.append("n.note_date <= ?")
        args.append(f.until + "\uffff")
    if f.status:
        sql.append("COALESCE(n.status, 'active') = ?")
        args.append(f.status)
    return (" AND " + " AND ".join(sql)) if sql else "", args


def browse(con: apsw.Connection, filters: Filters, project: str | None = None,
           limit: int = 20) -> list[Hit]:
    """The notes the filters (and a ``project`` frontmatter key) select, newest first, with
    no words to rank by: a folder, a tag or a project looked through."""
    where, args = filter_sql(filters)
    if project:
        where += " AND lower(json_extract(n.frontmatter, '$.project')) = lower(?)"
        args.append(project)
    if not filters.include_archived:
        where += " AND n.archived = 0"
    rows = con.execute(
        "SELECT n.path, n.title, COALESCE(n.note_date, '') FROM notes n WHERE "
        "n.path NOT LIKE '\\_dream/%' ESCAPE '\\'" + where
        + " ORDER BY COALESCE(n.note_date, '') DESC, n.mtime_ns DESC LIMIT ?",
        (*args, limit)).fetchall()
    return [Hit(path, "", title, 0.0, date[:10], 1) for path, title, date in rows]


def like_prefix(s: str) -> str:
    """``s`` for the start of a LIKE pattern (its %, _ and \\ taken literally)."""
    return s.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def chunk_candidates(con: apsw.Connection, query: str, filters: Filters,
                     depth: int) -> list[ChunkScore]:
    """The best ``depth`` chunks by BM25. Terms are OR-ed; when at least ``depth`` chunks
    hold every term, those are ranked alone (same scores, far fewer rows to score)."""
    terms = query_terms(query)
    if not terms:
        return []
    if len(terms) > 1:
        both = _ranked(con, " AND ".join(terms), filters, depth)
        if len(both) >= depth:
            return both
    return _ranked(con, " OR ".join(terms), filters, depth)


def _ranked(con: apsw.Connection, match: str, filters: Filters,
            depth: int) -> list[ChunkScore]:
    where, args = filter_sql(filters)
    scoped = bool(where)
    w = WEIGHTS
    rank = f"-bm25(chunks_fts, {w[0]}, {w[1]}, {w[2]})"
    if not scoped:  # rank the FTS rows alone, then look up only the best ones
        top = con.execute(f"SELECT rowid, {rank} AS s FROM chunks_fts WHERE chunks_fts MATCH ? "
                          "ORDER BY s DESC LIMIT ?", (match, depth)).fetchall()
        if not top:
            return []
        hidden = set() if filters.include_archived else {
            nid for (nid,) in con.execute("SELECT id FROM notes WHERE archived != 0")}
        meta = {cid: (nid, seq) for cid, nid, seq in con.execute(
            "SELECT id, note_id, seq FROM chunks WHERE id IN (SELECT value FROM json_each(?))",
            (json.dumps([r[0] for r in top]),)) if nid not in hidden}
        return [ChunkScore(cid, *meta[cid], s) for cid, s in top if cid in meta]
    if not filters.include_archived:
        where += " AND n.archived = 0"
    sql = (f"SELECT c.id, c.note_id, c.seq, {rank} AS s "
           "FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid "
           "JOIN notes n ON n.id = c.note_id "
           f"WHERE chunks_fts MATCH ?{where} ORDER BY s DESC LIMIT ?")
    return [ChunkScore(*row) for row in con.execute(sql, (match, *args, depth))]


Knn = Callable[["np.ndarray", int], list[tuple[int, float]]]


@dataclass(frozen=True)
class Fusion:
    """How the two candidate lists combine and the scoring pipeline after them (tuned on
    the LoCoMo dev split where it can measure them; see docs/benchmarks.md)."""

    fts_weight: float = 1.0
    vector_weight: float = 1.0
    fts_depth: int = 300  # candidates from each list (more when a caller asks for over 30)
    vector_depth: int = 150
    note_share: float = 0.5  # a chunk's rank score adds this much of its note's score
    note_spread: float = NOTE_SPREAD  # a note's score: best chunk + this x its next three
    min_cosine: float = 0.4  # a chunk found only by vectors needs at least this similarity
    neighbour_share: float = 0.0  # a chunk adds this much of its best neighbour's score
    status_factor: float = 0.5  # stale / contradicted / superseded notes
    recency_weight: float = 0.1  # an old note keeps at least 1 - this of its score
    half_life_days: float = 180.0
    link_share: float = 0.0  # a top note passes this much of its score along its links
    mmr_lambda: float = 0.95  # 1 = pure relevance; lower trades relevance for variety
    date_boost: float = 0.5  # a note dated in a period the query names (query_dates.py)
    min_score: float = 0.01  # hits under this share of the best score are dropped
    surface_successors: bool = True  # a superseded hit brings the note that replaced it


def note_scores(cands: list[ChunkScore], spread: float = NOTE_SPREAD) -> dict[int, float]:
    per_note: dict[int, list[float]] = {}
    for c in sorted(cands, key=lambda c: -c.score):
        per_note.setdefault(c.note_id, []).append(c.score)
    return {n: s[0] + spread * sum(s[1:4]) for n, s in per_note.items()}


def vector_candidates(con: apsw.Connection, qvec: np.ndarray, filters: Filters,
                      depth: int, knn: Knn | None = None) -> dict[int, tuple[int, int, float]]:
    """chunk id -> (note id, seq, cosine) for the nearest chunks that pass the filters."""
    if knn is None:
        from aleph_mem.index.vectors import knn as sql_knn

        def knn(q: np.ndarray, k: int) -> list[tuple[int, float]]:
            return sql_knn(con, q, k)

    where, args = filter_sql(filters)
    if not filters.include_archived:
        where += " AND n.archived = 0"
    near = dict(knn(qvec, depth * (4 if where.count("AND") > 1 else 1)))
    if not near:
        return {}
    rows = con.execute(
        "SELECT c.id, c.note_id, c.seq FROM chunks c JOIN notes n ON n.id = c.note_id "
        f"WHERE c.id IN (SELECT value FROM json_each(?)){where}",
        (json.dumps(list(near)), *args)).fetchall()
    return {cid: (nid, seq, near[cid]) for cid, nid, seq in rows}


def fuse(fts: list[ChunkScore], vec: dict[int, tuple[int, int, float]],
         fusion: Fusion) -> tuple[list[ChunkScore], dict[int, dict[str, float]]]:
    """Weighted sum of max-normalised BM25 and min-max-normalised cosine, per chunk."""
    signals: dict[int, dict[str, float]] = {}
    meta: dict[int, tuple[int, int]] = {}
    top = max((c.score for c in fts), default=0.0) or 1.0
    for c in fts:
        meta[c.chunk_id] = (c.note_id, c.seq)
        signals[c.chunk_id] = {"bm25": round(c.score, 4),
                               "fts": fusion.fts_weight * c.score / top}
    if vec:
        sims = [v[2] for v in vec.values()]
        lo, hi = min(sims), max(sims)
        span = (hi - lo) or 1.0
        for cid, (nid, seq, sim) in vec.items():
            if sim < fusion.min_cosine and cid not in signals:
                continue
            meta[cid] = (nid, seq)
            sig = signals.setdefault(cid, {})
            sig["cosine"] = round(sim, 4)
            sig["vector"] = fusion.vector_weight * (sim - lo) / span
    out = [ChunkScore(cid, *meta[cid], sig.get("fts", 0.0) + sig.get("vector", 0.0))
           for cid, sig in signals.items()]
    return out, signals


def search(con: apsw.Connection, query: str, limit: int = 10,
           filters: Filters | None = None, group: bool = True,
           qvec: np.ndarray | None = None, mode: str = "hybrid",
           fusion: Fusion | None = None, explain: bool = False,
           knn: Knn | None = None, vectors_of: VectorsOf | None = None,
           now: dt.datetime | None = None) -> list[Hit]:
    """Chunks ranked by BM25 (``fts``), by vector similarity (``vector``) or by both fused
    (``hybrid``; needs ``qvec``), then the scoring pipeline (ranking.py). ``group`` keeps
    the best chunk per note, ranked by a note score that also counts its other matching
    chunks; otherwise chunks are ranked on their own score plus a share of their note's.
    One snapshot of the index throughout: a note the watcher removes meanwhile is never half
    found."""
    with snapshot(con):
        return _search(con, query, limit, filters, group, qvec, mode, fusion, explain, knn,
                       vectors_of, now)


def _search(con: apsw.Connection, query: str, limit: int, filters: Filters | None,
            group: bool, qvec: np.ndarray | None, mode: str, fusion: Fusion | None,
            explain: bool, knn: Knn | None, vectors_of: VectorsOf | None,
            now: dt.datetime | None) -> list[Hit]:
    filters = filters or Filters()
    fusion = fusion or Fusion()
    fts = [] if mode == "vector" else chunk_candidates(
        con, query, filters, depth=max(fusion.fts_depth, limit * 10))
    vec = vector_candidates(con, qvec, filters, max(fusion.vector_depth, limit * 5), knn) \
        if qvec is not None and mode != "fts" else {}
    if mode == "fts" or not vec:
        cands, signals = fts, {c.chunk_id: {"bm25": round(c.score, 4), "fts": c.score}
                               for c in fts} if explain else {}
    else:
        cands, signals = fuse(fts, vec, fusion)
    if not cands:
        return []
    if fusion.neighbour_share:
        cands = _with_neighbours(cands, fusion.neighbour_share)
    factors = ranking.note_factors(con, {c.note_id for c in cands}, fusion.status_factor,
                                   fusion.recency_weight, fusion.half_life_days,
                                   now=now, periods=periods(query, now.date() if now else None)
                                   + event_periods(con, query), date_boost=fusion.date_boost)
    cands = [ChunkScore(c.chunk_id, c.note_id, c.seq, c.score * factors.of(c.note_id))
             for c in cands]
    notes = note_scores(cands, fusion.note_spread)
    links = ranking.link_bonus(con, notes, limit, fusion.link_share)
    if links:
        cands += _link_only(con, links, notes, filters)
        notes = {n: notes.get(n, 0.0) + links.get(n, 0.0) for n in notes.keys() | links}
    scored = _rank(cands, notes, group, fusion.note_share)
    scored = ranking.mmr(con, scored, limit, fusion.mmr_lambda, vectors_of)[:limit]
    if fusion.surface_successors and factors.successor:
        scored = _with_successors(con, scored, factors.successor)
    scored = ranking.floor(scored, fusion.min_score)
    match = fts_query(query)
    snippets = _snippets(con, [c.chunk_id for c, _ in scored], match)
    hits = [_hit(con, c, s, snippets.get(c.chunk_id, "")) for c, s in scored]
    if explain:
        for h, (c, _) in zip(hits, scored, strict=True):
            h.explain = {**signals.get(c.chunk_id, {}), "chunk": round(c.score, 4),
                         "note": round(notes.get(c.note_id, 0.0), 4),
                         "status_factor": factors.status.get(c.note_id, 1.0),
                         "recency_factor": round(factors.recency.get(c.note_id, 1.0), 4),
                         "date_factor": factors.date.get(c.note_id, 1.0),
                         "link_bonus": round(links.get(c.note_id, 0.0), 4)}
    return hits


def _rank(cands: list[ChunkScore], notes: dict[int, float], group: bool,
          note_share: float) -> list[tuple[ChunkScore, float]]:
    if not group:
        return sorted(((c, c.score + note_share * notes[c.note_id]) for c in cands),
                      key=lambda x: (-x[1], x[0].chunk_id))
    best: dict[int, ChunkScore] = {}
    for c in sorted(cands, key=lambda c: (-c.score, c.chunk_id)):
        # the best body chunk shows the note; its title row only if alone
        if c.note_id not in best or (best[c.note_id].seq < 0 <= c.seq):
            best[c.note_id] = c
    ranked = sorted(best.values(), key=lambda c: (-notes[c.note_id], c.chunk_id))
    return [(c, notes[c.note_id]) for c in ranked]


def _link_only(con: apsw.Connection, links: dict[int, float], notes: dict[int, float],
               filters: Filters) -> list[ChunkScore]:
    """Title rows for notes that only the link graph brought in (filters still apply)."""
    new = [n for n in links if n not in notes]
    if not new:
        return []
    where, args = filter_sql(filters)
    if not filters.include_archived:
        where += " AND n.archived = 0"
    allowed = {nid for (nid,) in con.execute(
        f"SELECT n.id FROM notes n WHERE n.id IN (SELECT value FROM json_each(?)){where}",
        (json.dumps(new), *args))}
    rows = ranking.title_rows(con, sorted(allowed))
    return [ChunkScore(cid, nid, -1, 0.0) for nid, cid in rows.items()]


def _with_successors(con: apsw.Connection, scored: list[tuple[ChunkScore, float]],
                     targets: dict[int, str]) -> list[tuple[ChunkScore, float]]:
    """A superseded or contradicted hit is followed by the note that replaced it (if that
    note is not already shown), so an agent sees the current fact next to the old one; the
    list may grow past ``limit`` by these."""
    shown = {c.note_id for c, _ in scored}
    wanted = {nid: t for nid, t in targets.items() if nid in shown}
    succ = {k: v for k, v in ranking.successor_ids(con, wanted).items() if v not in shown}
    if not succ:
        return scored
    rows = ranking.title_rows(con, sorted(set(succ.values())))
    out = []
    for c, s in scored:
        out.append((c, s))
        new = succ.get(c.note_id)
        if new in rows and new not in shown:
            shown.add(new)
            out.append((ChunkScore(rows[new], new, -1, 0.0), s))
    return out


def _with_neighbours(cands: list[ChunkScore], share: float) -> list[ChunkScore]:
    """Context: a passage next to other matching passages of the same note rises."""
    by_pos = {(c.note_id, c.seq): c.score for c in cands}
    return [ChunkScore(c.chunk_id, c.note_id, c.seq, c.score + share * max(
        by_pos.get((c.note_id, c.seq - 1), 0.0), by_pos.get((c.note_id, c.seq + 1), 0.0)))
        if c.seq >= 0 else c for c in cands]


MARKS = "char(2), char(3)"  # FTS5 snippet()'s marks, made bold by ``bold``
_WIKILINK = re.compile(r"\[\[[^\]\n]*\]\]")


def bold(snippet: str) -> str:
    """An FTS5 snippet marked with ``MARKS`` as Markdown: matched words in ``**``, one run
    for neighbours, none inside a ``[[wikilink]]`` (it would stop being a link), and the
    passage's own ``**`` left out (a mark inside it nested: ``****Timing** …``)."""
    text = snippet.replace("**", "")
    text = _WIKILINK.sub(lambda m: m.group(0).replace("\x02", "").replace("\x03", ""), text)
    text = re.sub(r"\x03(\s+)\x02", r"\1", text)
    return text.replace("\x02", "**").replace("\x03", "**")


def _snippets(con: apsw.Connection, ids: list[int], match: str | None) -> dict[int, str]:
    """chunk id -> its passage with the matched words in bold (one query for all hits),
    else the start of its text."""
    found: dict[int, str] = {}
    if match and ids:
        found = {rowid: bold(text) for rowid, text in con.execute(
            f"SELECT rowid, snippet(chunks_fts, 2, {MARKS}, '…', 24) FROM chunks_fts "
            "WHERE chunks_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))",
            (match, json.dumps(ids))) if text}
    rest = [i for i in ids if i not in found]
    if rest:
        found.update(con.execute(
            "SELECT rowid, substr(body, 1, 200) FROM chunks_fts WHERE rowid IN "
            "(SELECT value FROM json_each(?))", (json.dumps(rest),)).fetchall())
    return found


def _hit(con: apsw.Connection, c: ChunkScore, score: float, snippet: str | None) -> Hit:
    path, title, heading_json, block_id, line, status, fm = con.execute(
        "SELECT n.path, n.title, c.heading_path, c.block_id, c.line_start, n.status, "
        "n.frontmatter FROM chunks c JOIN notes n ON n.id = c.note_id WHERE c.id = ?",
        (c.chunk_id,)).fetchone()
    heading = json.loads(heading_json)
    anchor = f"#^{block_id}" if block_id else (f"#{heading[-1]}" if heading else "")
    return Hit(path, anchor, title, round(score, 4), (snippet or "").strip(), line, heading,
               block_id, c.chunk_id, period=_period(status, fm))


def _period(status: str | None, fm_json: str) -> str | None:
    """When a note's facts held, for a note that is no longer current: "2025-03-01 to
    2026-02-10 (superseded)"."""
    if status not in ranking.DOWNWEIGHTED and '"valid_until"' not in fm_json:
        return None
    fm = json.loads(fm_json)
    start, end = (str(fm.get(k) or "")[:10] for k in ("valid_from", "valid_until"))
    if not (start or end):
        return f"({status})" if status else None
    return f"{start or '…'} to {end or '…'}" + (f" ({status})" if status else "")


EVENT_WORDS = re.compile(r"(?i)\b(before|after)\s+(?:the\s+|our\s+|my\s+|a\s+)?"
                         r"([^\W\d][\w-]*(?:\s+[^\W\d][\w-]*){0,2})")


def event_periods(con: apsw.Connection, query: str) -> list:
    """"before the migration", "after the launch": the period before or after the day of the
    note that best tells of that event (its date), as a period the ranking lifts notes of."""
    from aleph_mem.index.query_dates import Period

    out = []
    for m in EVENT_WORDS.finditer(query) if re.search(r"(?i)\b(before|after)\b", query) \
            else ():
        words = [w for w in m.group(2).split() if w.lower() not in STOPWORDS]
        match = fts_query(" ".join(words), "AND") if words else None
        if match is None or periods(m.group(0)):
            continue  # "before March": a date, read by query_dates
        row = con.execute(
            "SELECT n.note_date FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid "
            "JOIN notes n ON n.id = c.note_id WHERE chunks_fts MATCH ? AND n.note_date IS NOT "
            "NULL AND n.archived = 0 ORDER BY bm25(chunks_fts, 5.0, 2.0, 1.0) LIMIT 1",
            (match,)).fetchone()
        day = _date(row[0]) if row else None
        if day is None:
            continue
        out.append(Period(dt.date(1900, 1, 1), day - dt.timedelta(days=1))
                   if m.group(1).lower() == "before" else Period(day, dt.date(2999, 12, 31)))
    return out


def _date(text: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(text[:10])
    except ValueError:
        return None
