"""Which embedding model a vault's vectors come from, when the setting leaves a choice.
``embed_quantized = "auto"`` (the default) takes the int8 model derived here (int8.py)
for a first embed large enough for the time to matter (3,000 chunks: the generated 10k
vault's 44,702 take 8.6 minutes instead of 14 on two cores), when it measures faster on
this machine and keeps every vector of a sample of the vault's own chunks within cosine
0.99 of the exact model's; a small vault, or one whose sample fails, gets the exact model.
An index that already holds vectors keeps its model (no silent re-embed). ``"on"`` always
asks for the int8 model, ``"off"`` never."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from aleph_mem import logs
from aleph_mem.embed.embedders import BUILTIN, QUANTIZED
from aleph_mem.errors import ConfigError

log = logs.get(__name__)

AUTO_MIN_CHUNKS = 3_000  # below this a first embed takes a few minutes either way
CHOICES = ("auto", "on", "off")


class IndexedChunks(Protocol):
    """What the choice asks of the index's chunks (``index/reading.py``: ``ChunkFacts``),
    each only when it needs the answer."""

    def held_model(self) -> str | None: ...  # the "model:dim" the vectors come from
    def has_vectors(self) -> bool: ...
    def count(self) -> int: ...
    def sample(self, n: int) -> list[str]: ...  # the first chunk bodies over 40 characters


def choose(setting_model: str, quantize: str, chunks: IndexedChunks, cache_dir: Path,
           threads: int) -> str:
    """The model name to load for this vault."""
    if quantize not in CHOICES:
        raise ConfigError("embed_quantized", f"{quantize!r}: one of auto, on, off")
    if setting_model != BUILTIN or quantize == "off":
        return setting_model
    if quantize == "on":
        return QUANTIZED
    row = chunks.held_model()
    held = row.rsplit(":", 1)[0] if row else None
    if held in (BUILTIN, QUANTIZED) and chunks.has_vectors():
        return held
    if chunks.count() < AUTO_MIN_CHUNKS:
        return BUILTIN
    from aleph_mem.embed import embedders, int8

    sample = chunks.sample(int8.FIDELITY_SAMPLE)
    exact = embedders.load(BUILTIN, cache_dir, 1)
    found = int8.verdict(cache_dir, exact, lambda: embedders.load(QUANTIZED, cache_dir, 1),
                              sample)
    log.info("first embed: %s", found.why)
    return QUANTIZED if found.ok else BUILTIN

