"""Full-text search: safe FTS5 queries, filters before ranking, best chunk per note."""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field

import apsw

STOPWORDS = frozenset("""a about above after again against all am an and any are as at be because
been before being below between both but by can could did do does doing down during each few for
from further had has have having he her here hers herself him himself his how i if in into is it
its itself just me more most my myself no nor not now of off on once only or other our ours
ourselves out over own same she should so some such than that the their theirs them themselves
then there these they this those through to too under until up very was we were what when where
which while who whom why will with would you your yours yourself yourselves""".split())

WORD = re.compile(r"[\w]+(?:['’][\w]+)*", re.UNICODE)
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

    def as_json(self) -> dict:
        out = asdict(self)
        out.pop("chunk_id")
        return out


def query_terms(text: str) -> list[str]:
    """Anything a person types, as safe FTS5 terms: quoted phrases kept, every other word
    quoted, stopwords dropped unless nothing else is left."""
    phrases = [p.strip() for p in PHRASE.findall(text) if WORD.search(p)]
    rest = PHRASE.sub(" ", text)
    words = [w.lower() for w in WORD.findall(rest)]
    content = [w for w in words if w not in STOPWORDS] or words
    terms = [_quote(" ".join(WORD.findall(p))) for p in phrases]
    return list(dict.fromkeys(terms + [_quote(w) for w in content]))


def fts_query(text: str, op: str = "OR") -> str | None:
    terms = query_terms(text)
    return f" {op} ".join(terms) if terms else None


def _quote(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def _filter_sql(f: Filters) -> tuple[str, list]:
    sql, args = [], []
    if f.folder:
        folder = f.folder.strip("/")
        sql.append("(n.folder = ? OR n.folder LIKE ? ESCAPE '\\')")
        args += [folder, _like_prefix(folder) + "/%"]
    for tag in f.tags:
        t = tag.lstrip("#").casefold()
        sql.append("EXISTS (SELECT 1 FROM tags t WHERE t.note_id = n.id AND "
                   "(t.tag_lc = ? OR t.tag_lc LIKE ? ESCAPE '\\'))")
        args += [t, _like_prefix(t) + "/%"]
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


def _like_prefix(s: str) -> str:
    return s.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


@dataclass(frozen=True)
class ChunkScore:
    chunk_id: int
    note_id: int
    seq: int  # -1 for a note's title row
    score: float


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
    where, args = _filter_sql(filters)
    scoped = bool(where)
    w = WEIGHTS
    rank = f"-bm25(chunks_fts, {w[0]}, {w[1]}, {w[2]})"
    if not scoped:  # rank the FTS rows alone, then look up only the best ones
        top = con.execute(f"SELECT rowid, {rank} AS s FROM chunks_fts WHERE chunks_fts MATCH ? "
                          "ORDER BY s DESC LIMIT ?", (match, depth)).fetchall()
        if not top:
            return []
        hidden = set() if filters.include_archived else {
            nid for (nid,) in con.execute("SELECT id FROM notes WHERE archived = 1")}
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


def note_scores(cands: list[ChunkScore]) -> dict[int, float]:
    per_note: dict[int, list[float]] = {}
    for c in cands:
        per_note.setdefault(c.note_id, []).append(c.score)
    return {n: s[0] + NOTE_SPREAD * sum(s[1:4]) for n, s in per_note.items()}


def search(con: apsw.Connection, query: str, limit: int = 10,
           filters: Filters | None = None, group: bool = True) -> list[Hit]:
    """BM25 over chunks. ``group`` keeps the best chunk per note (ranked by a note score
    that also counts its other matching chunks); otherwise chunks are ranked on their own
    score plus a share of their note's."""
    filters = filters or Filters()
    cands = chunk_candidates(con, query, filters, depth=max(200, limit * 10))
    if not cands:
        return []
    notes = note_scores(cands)
    if group:
        best: dict[int, ChunkScore] = {}
        for c in cands:  # the best body chunk shows the note; its title row only if alone
            if c.note_id not in best or (best[c.note_id].seq < 0 <= c.seq):
                best[c.note_id] = c
        ranked = sorted(best.values(), key=lambda c: (-notes[c.note_id], c.chunk_id))
        scored = [(c, notes[c.note_id]) for c in ranked[:limit]]
    else:
        scored = sorted(((c, c.score + 0.5 * notes[c.note_id]) for c in cands),
                        key=lambda x: (-x[1], x[0].chunk_id))[:limit]
    match = fts_query(query)
    return [_hit(con, c, s, match) for c, s in scored]


def _hit(con: apsw.Connection, c: ChunkScore, score: float, match: str | None) -> Hit:
    path, title, heading_json, block_id, line = con.execute(
        "SELECT n.path, n.title, c.heading_path, c.block_id, c.line_start FROM chunks c "
        "JOIN notes n ON n.id = c.note_id WHERE c.id = ?", (c.chunk_id,)).fetchone()
    row = con.execute(
        "SELECT snippet(chunks_fts, 2, '**', '**', '…', 24) FROM chunks_fts "
        "WHERE chunks_fts MATCH ? AND rowid = ?", (match, c.chunk_id)).fetchone()
    heading = json.loads(heading_json)
    anchor = f"#^{block_id}" if block_id else (f"#{heading[-1]}" if heading else "")
    snippet = row[0] if row and row[0] else ""
    return Hit(path, anchor, title, round(score, 4), snippet.strip(), line, heading, block_id,
               c.chunk_id)
