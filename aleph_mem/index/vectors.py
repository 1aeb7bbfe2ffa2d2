"""Chunk vectors: a sqlite-vec table in the index, an embedding cache beside it, and the
background worker that fills them.

One model at a time: the index remembers which model (and dimension) its vectors come
from, and a different model empties the table and re-embeds (vectors of two models are
never mixed). The cache (``.aleph/cache/embeddings.db``) is keyed by (model, hash of the
embedded text), so a rebuilt index never embeds unchanged text again.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import apsw
import numpy as np

from aleph_mem import logs
from aleph_mem.embed.embedders import Embedder
from aleph_mem.index import db

log = logs.get(__name__)

BATCH = 32


def load_extension(con: apsw.Connection) -> None:
    import sqlite_vec

    con.enable_load_extension(True)
    con.load_extension(sqlite_vec.loadable_path())
    con.enable_load_extension(False)


def embed_text(title: str, heading: str, body: str) -> str:
    """What a chunk's vector is computed from: a title row is its title (and aliases); a
    body chunk is its heading path and text. (Prefixing every chunk with its note title
    measured worse on LoCoMo: note R@5 83.3 against 83.9, block R@10 68.3 against 70.1.)"""
    context = " > ".join(x for x in (title, heading) if x)
    return f"{context}\n{body}" if body else context


def text_key(model: str, text: str) -> str:
    return hashlib.sha256(f"{model}\n{text}".encode()).hexdigest()


class Cache:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.con = db.connect(path)
        self.con.execute("CREATE TABLE IF NOT EXISTS vectors(key TEXT PRIMARY KEY, "
                         "vec BLOB NOT NULL)")

    def get(self, keys: list[str]) -> dict[str, bytes]:
        if not keys:
            return {}
        marks = ",".join("?" * len(keys))
        return dict(self.con.execute(f"SELECT key, vec FROM vectors WHERE key IN ({marks})",
                                     keys).fetchall())

    def put(self, rows: list[tuple[str, bytes]]) -> None:
        with db.transaction(self.con):
            self.con.executemany("INSERT OR REPLACE INTO vectors VALUES (?, ?)", rows)

    def close(self) -> None:
        self.con.close()


@dataclass(frozen=True)
class VectorState:
    model: str | None
    dim: int | None
    embedded: int
    pending: int


def ensure_table(con: apsw.Connection, model: str, dim: int) -> None:
    """The vector table for this model; a different model empties it first."""
    want = f"{model}:{dim}"
    row = con.execute("SELECT value FROM meta WHERE key='vec_model'").fetchone()
    if row and row[0] == want:
        return
    with db.transaction(con):
        con.execute("DROP TABLE IF EXISTS vec_chunks")
        con.execute(f"CREATE VIRTUAL TABLE vec_chunks USING vec0(chunk_id INTEGER PRIMARY KEY, "
                    f"embedding float[{dim}] distance_metric=cosine)")
        con.execute("UPDATE chunks SET embedded = 0")
        con.execute("INSERT OR REPLACE INTO meta VALUES ('vec_model', ?)", (want,))
        bump_version(con)


def state(con: apsw.Connection) -> VectorState:
    row = con.execute("SELECT value FROM meta WHERE key='vec_model'").fetchone()
    model, dim = (row[0].rsplit(":", 1)[0], int(row[0].rsplit(":", 1)[1])) if row else (None,
                                                                                          None)
    done, todo = con.execute("SELECT sum(embedded), sum(1 - embedded) FROM chunks").fetchone()
    if model is None:
        done, todo = 0, (done or 0) + (todo or 0)
    return VectorState(model, dim, done or 0, todo or 0)


def embed_cached(embedder: Embedder, cache: Cache,
                 texts: list[str]) -> tuple[list[str], dict[str, bytes]]:
    """Each text's cache key, and the vectors of all of them by key: from the cache, the
    model embedding only the texts it has not seen (then kept)."""
    keys = [text_key(embedder.name, t) for t in texts]
    cached = cache.get(keys)
    missing = [i for i, k in enumerate(keys) if k not in cached]
    if missing:
        vecs = embedder.embed([texts[i] for i in missing])
        fresh = [(keys[i], np.asarray(v, np.float32).tobytes())
                 for i, v in zip(missing, vecs, strict=True)]
        cache.put(fresh)
        cached.update(fresh)
    return keys, cached


def embed_pending(con: apsw.Connection, embedder: Embedder, cache: Cache,
                  stop: threading.Event | None = None,
                  progress: Callable[[int, int], None] | None = None,
                  batch: int = BATCH, limit: int | None = None) -> int:
    """Embed every chunk that has no vector yet, in small committed batches (a crash loses
    at most one batch). Returns how many chunks got vectors."""
    load_extension(con)
    ensure_table(con, embedder.name, embedder.dim)
    total = state(con).pending
    done = 0
    while not (stop and stop.is_set()) and (limit is None or done < limit):
        rows = con.execute(
            "SELECT c.id, f.title, f.heading, f.body, c.seq, n.title FROM chunks c "
            "JOIN chunks_fts f ON f.rowid = c.id JOIN notes n ON n.id = c.note_id "
            "WHERE c.embedded = 0 LIMIT ?", (batch,)).fetchall()
        if not rows:
            break
        keys, cached = embed_cached(embedder, cache,
                                    [embed_text(t, h, b) for _, t, h, b, _, _ in rows])
        with db.transaction(con):
            ids = [r[0] for r in rows]
            still = {cid for (cid,) in con.execute(
                f"SELECT id FROM chunks WHERE id IN ({','.join('?' * len(ids))})", ids)}
            con.executemany("DELETE FROM vec_chunks WHERE chunk_id = ?",
                            [(cid,) for cid in ids])
            con.executemany("INSERT INTO vec_chunks(chunk_id, embedding) VALUES (?, ?)",
                            [(cid, cached[k]) for cid, k in zip(ids, keys, strict=True)
                             if cid in still])
            con.executemany("UPDATE chunks SET embedded = 1 WHERE id = ?",
                            [(cid,) for cid in still])
            bump_version(con)
        done += len(rows)
        if progress:
            progress(done, total)
    prune_orphans(con)
    return done


def prune_orphans(con: apsw.Connection) -> int:
    """Vectors whose chunk is gone (the note changed); chunk ids are never reused."""
    with db.transaction(con):
        gone = [r[0] for r in con.execute(
            "SELECT chunk_id FROM vec_chunks WHERE chunk_id NOT IN (SELECT id FROM chunks)")]
        con.executemany("DELETE FROM vec_chunks WHERE chunk_id = ?", [(g,) for g in gone])
        if gone:
            bump_version(con)
    return len(gone)


def bump_version(con: apsw.Connection) -> None:
    con.execute("INSERT INTO meta VALUES ('vec_version', '1') ON CONFLICT(key) DO UPDATE "
                "SET value = CAST(value AS INTEGER) + 1")


def version(con: apsw.Connection) -> str:
    row = con.execute("SELECT value FROM meta WHERE key = 'vec_version'").fetchone()
    return row[0] if row else "0"


# The projection's size, and how many candidates it hands to the full vectors. On the real
# 10k-note vectors (44,702), the top 100 held this share of the exact top 100 (mean, worst
# query): 64 dims and a pool of 400 95.6 % / 49 %; 64 and 2,000 99.5 % / 84 %; 96 and
# 2,000 99.9 % / 93 %; 128 and 2,000 99.98 % / 99 %, about 1 ms more than 64 at 10k notes
# and 10 ms more at 100k. The top 150 (search's vector depth) from a pool of 2,000: the exact
# top 150 for each of 200 queries.
REDUCED_DIM = 128
POOL_PER_HIT = 13
MIN_POOL = 2_000
LOAD_BATCH = 8_192


@dataclass
class Matrix:
    """Nearest chunks in two steps, all in memory: every vector projected onto its 128
    principal directions (float32) picks the candidates with one product, and the full
    vectors, kept as float16 (half the bytes; cosine to about 1e-3), score them. About a
    quarter of the memory of the full float32 matrix and several times faster than
    sqlite-vec's scan (36 ms at 10k notes) or its point lookups (which read whole
    1,024-vector chunks)."""

    version: str
    ids: np.ndarray
    reduced: np.ndarray
    half: np.ndarray
    basis: np.ndarray | None
    order: np.ndarray | None = None  # argsort of ids, made on first use by `vectors`
    sorted_ids: np.ndarray | None = None  # ids in that order

    @classmethod
    def load(cls, con: apsw.Connection, ver: str) -> Matrix:
        ids_parts, red_parts, half_parts = [], [], []
        basis = None
        cur = con.execute("SELECT chunk_id, embedding FROM vec_chunks")
        while rows := list(itertools.islice(cur, LOAD_BATCH)):
            mat = np.frombuffer(b"".join(r[1] for r in rows), np.float32).reshape(len(rows), -1)
            if basis is None:  # principal directions of (a sample of) the first batch
                sample = mat[:: max(1, len(mat) // 4096)]
                dim = min(REDUCED_DIM, mat.shape[1], len(sample))
                basis = np.linalg.svd(sample, full_matrices=False)[2][:dim].T.astype(np.float32)
            ids_parts.append(np.fromiter((r[0] for r in rows), np.int64, len(rows)))
            red_parts.append(mat @ basis)
            half_parts.append(mat.astype(np.float16))
        if basis is None:
            empty = np.zeros((0, 1), np.float32)
            return cls(ver, np.zeros(0, np.int64), empty, empty.astype(np.float16), None)
        return cls(ver, np.concatenate(ids_parts), np.concatenate(red_parts),
                   np.concatenate(half_parts), basis)

    def vectors(self, chunk_ids: list[int]) -> dict[int, np.ndarray]:
        """The (float16-rounded) vectors of the given chunks that have one."""
        if not len(self.ids):
            return {}
        if self.order is None or self.sorted_ids is None:
            self.order = np.argsort(self.ids, kind="stable")
            self.sorted_ids = self.ids[self.order]
        sorted_ids = self.sorted_ids
        want = np.asarray(chunk_ids, np.int64)
        pos = np.clip(np.searchsorted(sorted_ids, want), 0, len(sorted_ids) - 1)
        found = sorted_ids[pos] == want
        return {int(c): self.half[self.order[p]].astype(np.float32)
                for c, p, ok in zip(want, pos, found, strict=True) if ok}

    def knn(self, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        if not len(self.ids) or self.basis is None:
            return []
        q = np.asarray(query, np.float32)
        approx = self.reduced @ (q @ self.basis)
        m = min(len(approx), max(POOL_PER_HIT * k, MIN_POOL))
        pool = np.argpartition(-approx, m - 1)[:m]
        sims = self.half[pool].astype(np.float32) @ q
        order = np.lexsort((self.ids[pool], -sims))[:k]
        return [(int(self.ids[pool[i]]), float(sims[i])) for i in order]


def vectors_of(con: apsw.Connection, chunk_ids: list[int]) -> dict[int, np.ndarray]:
    """The stored vectors of the given chunks that have one."""
    rows = con.execute("SELECT chunk_id, embedding FROM vec_chunks WHERE chunk_id IN "
                       "(SELECT value FROM json_each(?))", (json.dumps(chunk_ids),))
    return {cid: np.frombuffer(blob, np.float32) for cid, blob in rows}


def knn(con: apsw.Connection, query: np.ndarray, k: int) -> list[tuple[int, float]]:
    """The k nearest chunks: (chunk id, cosine similarity)."""
    rows = con.execute(
        "SELECT chunk_id, distance FROM vec_chunks WHERE embedding MATCH ? AND k = ?",
        (np.asarray(query, np.float32).tobytes(), k)).fetchall()
    return [(cid, 1.0 - dist) for cid, dist in rows]


def body_vectors(con: apsw.Connection) -> list[tuple[str, bytes]]:
    """(path, float32 bytes) of every body chunk's vector, by path; [] when the index has no
    vectors yet."""
    if con.execute("SELECT value FROM meta WHERE key='vec_model'").fetchone() is None:
        return []
    try:
        load_extension(con)
        return [(p, v) for p, v in con.execute(
            "SELECT n.path, v.embedding FROM vec_chunks v JOIN chunks c ON c.id = v.chunk_id "
            "JOIN notes n ON n.id = c.note_id WHERE c.seq >= 0 ORDER BY n.path").fetchall()]
    except apsw.SQLError:  # no vector table yet
        return []
