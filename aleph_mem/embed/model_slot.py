"""The embedding model of one process, loaded once and shared by a store and its siblings
(the daemon's embedding thread and its socket use one copy, not two), and what the last
load found (``.aleph/local/vector-problem.json``, so ``status`` can say why there are no
vectors without loading the model)."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aleph_mem import logs
from aleph_mem.errors import AlephError
from aleph_mem.files.atomic import write_atomic

if TYPE_CHECKING:
    import numpy as np

    from aleph_mem.embed.embedders import Embedder
    from aleph_mem.embed.model_choice import IndexedChunks
    from aleph_mem.settings import Settings

log = logs.get(__name__)

VECTORS_OFF = 'vectors are off (embed_model = "none"); set embed_model to turn them on'
PROBLEM_FILE = "vector-problem.json"


@dataclass
class ModelSlot:
    lock: threading.Lock = field(default_factory=threading.Lock)
    model: Embedder | None = None
    tried: bool = False
    problem: str = ""

    def load(self, settings: Settings, chunks: IndexedChunks, aleph_dir: Path,
             local_dir: Path, wait: bool = True) -> Embedder | None:
        """The configured model, loaded on the first call that may wait; None when vectors
        are off or the model cannot load (``problem`` says why, and is kept for status)."""
        if not self.lock.acquire(blocking=wait):
            return None  # another thread is loading it right now
        try:
            if not self.tried and wait:
                self.tried = True
                from aleph_mem.embed.embedders import load as load_embedder
                from aleph_mem.embed.model_choice import choose

                cache, threads = aleph_dir / "cache", int(settings.embed_threads)
                try:
                    name = choose(settings.embed_model, str(settings.embed_quantized),
                                  chunks, cache, threads)
                    self.model = load_embedder(name, cache, threads)
                except AlephError as exc:
                    self.problem = str(exc)
                if self.model is None and not self.problem:
                    self.problem = VECTORS_OFF
                keep_problem(local_dir, settings.embed_model, self.problem)
            return self.model
        finally:
            self.lock.release()


def keep_problem(local_dir: Path, setting: str, problem: str) -> None:
    body = json.dumps({"model": setting, "problem": problem})
    try:
        write_atomic(local_dir / PROBLEM_FILE, body.encode(), durable=False)
    except OSError as exc:
        log.info("vector problem not kept: %s", exc)


def kept_problem(local_dir: Path, setting: str) -> str:
    """What the last model load in any process found for this setting ("" if nothing)."""
    try:
        kept: dict[str, Any] = json.loads((local_dir / PROBLEM_FILE).read_bytes())
    except (OSError, ValueError):
        return ""
    return (kept.get("problem") or "") if kept.get("model") == setting else ""


def daemon_query(local_dir: Path, query: str) -> tuple[str, np.ndarray] | None:
    """("model:dim", the query's vector) from the running daemon's warm model, or None
    (no daemon running, or it does not answer)."""
    from aleph_mem.embed import model_socket
    from aleph_mem.files.daemon_status import read_status

    st = read_status(local_dir) or {}
    where = st.get("embed_socket")
    if st.get("state") != "running" or not isinstance(where, str):
        return None
    return model_socket.query(Path(where), query)
