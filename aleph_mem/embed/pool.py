"""The first big embedding on every core: worker processes, each with its own single-threaded
copy of the model (measured faster here than one model on two ONNX threads: two workers
1.87x one, two threads 1.58x). Used by ``index --embed`` in a terminal; the vectors are the
same model's, text by text, so they mix with any embedded before.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

_model: Any = None


def _start(name: str, cache_dir: str) -> None:
    global _model
    from aleph_mem.embed.embedders import load

    _model = load(name, Path(cache_dir), 1)


def _embed(texts: list[str]) -> list[bytes]:
    import numpy as np

    return [np.asarray(v, np.float32).tobytes() for v in _model.embed(texts)]


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


class PoolEmbedder:
    """The Embedder interface over ``workers`` processes (name and dim from ``model``)."""

    def __init__(self, model: Any, cache_dir: Path, workers: int) -> None:
        self.name, self.dim = model.name, model.dim
        import multiprocessing

        ctx = multiprocessing.get_context("spawn")  # no forked threads or open databases
        self.pool = ctx.Pool(workers, initializer=_start, initargs=(model.name, str(cache_dir)))
        self.workers = workers

    def embed(self, texts: Sequence[str]) -> list[np.ndarray]:
        import numpy as np

        if not texts:
            return []
        size = max(1, -(-len(texts) // (self.workers * 4)))  # a few slices per worker
        slices = [list(texts[i:i + size]) for i in range(0, len(texts), size)]
        out: list[np.ndarray] = []
        for part in self.pool.map(_embed, slices):
            out += [np.frombuffer(b, dtype=np.float32) for b in part]
        return out

    def close(self) -> None:
        self.pool.close()
        self.pool.join()
