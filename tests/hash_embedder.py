"""The deterministic test embedder: a real implementation behind the embedders' interface,
registered like any other model (importing this module registers it)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from aleph_mem.embed import embedders


class HashEmbedder:
    """A deterministic bag-of-words embedder: a real implementation behind the same
    interface, registered like any other model."""

    def __init__(self, name: str, dim: int) -> None:
        self.name, self.dim, self.calls = name, dim, 0

    def embed(self, texts: Sequence[str]) -> list[np.ndarray]:
        self.calls += len(texts)
        out = []
        for text in texts:
            v = np.zeros(self.dim, np.float32)
            for word in re.findall(r"\w+", text.lower()):
                v[int(hashlib.md5(word.encode()).hexdigest(), 16) % self.dim] += 1.0
            n = np.linalg.norm(v)
            out.append(v / n if n else v)
        return out


MODELS: dict[str, HashEmbedder] = {}


def factory(name: str, dim: int):
    def make(_cache: Path) -> HashEmbedder:
        MODELS[name] = HashEmbedder(name, dim)
        return MODELS[name]
    return make


embedders.register("test-hash", factory("test-hash", 64))
embedders.register("test-hash-32", factory("test-hash-32", 32))


def configure(vault: Path, model: str) -> None:
    (vault / ".aleph" / "config.toml").write_text(f'embed_model = "{model}"\n')
