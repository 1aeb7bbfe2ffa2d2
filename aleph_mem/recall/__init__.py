"""What agents and people are handed from memory: ``hot_memory`` (``MEMORY.md``, the
curated facts every session sees first), ``reflect`` (an answer from memory with cited
notes), ``as_of`` (the vault searched and read as it was at a moment) and ``timeline``
(what changed about a subject, in time order)."""

__all__ = ["as_of", "hot_memory", "reflect", "timeline"]
