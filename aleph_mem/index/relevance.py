"""Whether a passage is about a question, or merely shares a word with it.

A search always returns its best hits, however weak; a note added to an agent's prompt
unasked must be about the prompt. The measure: the share of the question's information
its passage holds, each of the question's words weighted by how rare it is in the vault
(inverse document frequency over the chunks), so "parameters" or "error" in a coding prompt
count little in a vault full of them and the rare words decide. The floor was calibrated on
prompts written against real vaults of the same and of another subject
(benchmarks/relevance.py, docs/benchmarks.md).
"""

from __future__ import annotations

import math

import apsw

from aleph_mem.index.search import query_terms

FLOOR = 0.5  # share of the question's weight a note must hold
MIN_WORDS = 2  # and at least this many of its words (one shared word is a coincidence)


def coverage(con: apsw.Connection, question: str, path: str) -> tuple[float, int]:
    """(share of the question's IDF weight the note holds, in its title or any passage;
    how many of the question's words it holds)."""
    terms = query_terms(question)
    if not terms:
        return 0.0, 0
    total = con.execute("SELECT count(*) FROM chunks_fts").fetchone()[0] or 1
    weight = held = 0.0
    words = 0
    for term in terms:
        df = con.execute("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?",
                         (term,)).fetchone()[0]
        idf = math.log((total + 1) / (df + 1)) if df else 0.0  # a word the vault lacks
        weight += idf or math.log(total + 1)
        if df and con.execute(
                "SELECT 1 FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid IN (SELECT c.id "
                "FROM chunks c JOIN notes n ON n.id = c.note_id WHERE n.path = ?) LIMIT 1",
                (term, path)).fetchone():
            held += idf
            words += 1
    return (held / weight if weight else 0.0), words


def about(con: apsw.Connection, question: str, path: str, floor: float = FLOOR) -> bool:
    share, words = coverage(con, question, path)
    return share >= floor and words >= min(MIN_WORDS, len(query_terms(question)))
