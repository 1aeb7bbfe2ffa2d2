"""Reading chunk vectors for a search: whether the index holds any, whether they are of
the query's model, and the nearest chunks, either through the in-memory matrices (a
process that searches again and again: the daemon, the MCP server) or straight from the
index (``one_shot``: a CLI search or a hook, which would pay 0.84 s at 10k notes to build
matrices it uses once, against 0.08 s to read the nearest vectors)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import apsw

if TYPE_CHECKING:
    import numpy as np

    from aleph_mem.index import vectors


class VectorReader:
    def __init__(self, con: apsw.Connection) -> None:
        self.con = con
        self.one_shot = False
        self.matrix: vectors.Matrix | None = None
        self._extension = False

    def any(self) -> bool:
        return self.con.execute("SELECT 1 FROM meta WHERE key = 'vec_model'").fetchone() \
            is not None and self.con.execute(
                "SELECT 1 FROM chunks WHERE embedded = 1 LIMIT 1").fetchone() is not None

    def ready(self, model: str) -> bool:
        """The index holds vectors of ``model`` ("name:dim"): the vector extension is
        loaded and a query vector of that model can be compared."""
        row = self.con.execute("SELECT value FROM meta WHERE key='vec_model'").fetchone()
        if not row or row[0] != model:
            return False
        from aleph_mem.index import vectors

        if not self._extension:
            vectors.load_extension(self.con)
            self._extension = True
        return True

    def knn(self, query: np.ndarray, k: int) -> list[tuple[int, float]]:
        """Nearest chunks (the matrices reloaded when the vector table changed)."""
        from aleph_mem.index import vectors

        if self.one_shot:
            return vectors.knn(self.con, query, k)
        version = vectors.version(self.con)
        if self.matrix is None or self.matrix.version != version:
            self.matrix = vectors.Matrix.load(self.con, version)
        return self.matrix.knn(query, k)

    def vectors_of(self, chunk_ids: list[int]) -> dict[int, np.ndarray]:
        if self.one_shot:
            from aleph_mem.index import vectors

            return vectors.vectors_of(self.con, chunk_ids)
        return self.matrix.vectors(chunk_ids) if self.matrix is not None else {}
