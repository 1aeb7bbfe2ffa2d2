"""Vectors for session chunks, so a session search understands meaning as a note search
does: the same model and the same embedding cache as the notes' vectors, kept in the
session chunk's own row (``session_chunks.vec``), and searched exactly (sessions hold far
fewer chunks than notes do). A different model empties them, as it does the notes'.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import apsw
import numpy as np

from aleph_mem.embed.embedders import Embedder
from aleph_mem.index import db
from aleph_mem.index.reading import meta_value, set_meta
from aleph_mem.index.vectors import BATCH, Cache, embed_cached

KEY = "session_vec_model"


def ensure_model(con: apsw.Connection, model: str, dim: int) -> None:
    want = f"{model}:{dim}"  # the same "name:dim" the daemon's socket answers with
    if meta_value(con, KEY) == want:
        return
    with db.transaction(con):
        con.execute("UPDATE session_chunks SET vec = NULL")
        set_meta(con, KEY, want)


def model_of(con: apsw.Connection) -> str | None:
    return meta_value(con, KEY)


def pending(con: apsw.Connection) -> int:
    return con.execute("SELECT count(*) FROM session_chunks WHERE vec IS NULL").fetchone()[0]


def any_waiting(con: apsw.Connection) -> bool:
    """A session chunk without a vector."""
    return con.execute("SELECT 1 FROM session_chunks WHERE vec IS NULL LIMIT 1").fetchone() \
        is not None


def embed_pending(con: apsw.Connection, embedder: Embedder, cache: Cache,
                  stop: threading.Event | None = None,
                  progress: Callable[[int, int], None] | None = None,
                  limit: int | None = None) -> int:
    """Give every session chunk without a vector one, in committed batches."""
    ensure_model(con, embedder.name, embedder.dim)
    total, done = pending(con), 0
    while not (stop and stop.is_set()) and (limit is None or done < limit):
        rows = con.execute("SELECT id, text FROM session_chunks WHERE vec IS NULL LIMIT ?",
                           (BATCH,)).fetchall()
        if not rows:
            break
        keys, cached = embed_cached(embedder, cache, [t for _, t in rows])
        with db.transaction(con):
            con.executemany("UPDATE session_chunks SET vec = ? WHERE id = ?",
                            [(cached[k], cid) for (cid, _), k in zip(rows, keys, strict=True)])
        done += len(rows)
        if progress:
            progress(done, total)
    return done


def nearest(con: apsw.Connection, query: np.ndarray, model: str, k: int = 50,
            where: str = "", args: tuple[object, ...] = ()) -> list[tuple[int, int, float]]:
    """(session row id, chunk id, cosine) of the k chunks nearest ``query``, when the
    stored vectors are ``model``'s."""
    if model_of(con) != model:
        return []
    rows = con.execute(
        "SELECT c.session, c.id, c.vec FROM session_chunks c JOIN sessions ON "
        f"sessions.id = c.session WHERE c.vec IS NOT NULL{where}", args).fetchall()
    if not rows:
        return []
    mat = np.frombuffer(b"".join(r[2] for r in rows), np.float32).reshape(len(rows), -1)
    sims = mat @ np.asarray(query, np.float32)
    top = np.argsort(-sims)[:k]
    return [(rows[i][0], rows[i][1], float(sims[i])) for i in top]

