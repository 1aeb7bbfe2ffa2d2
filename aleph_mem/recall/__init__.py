"""What agents are handed from memory: ``hot_memory`` (``MEMORY.md``, the curated facts
every session sees first) and ``reflect`` (an answer from memory with cited notes)."""

__all__ = ["hot_memory", "reflect"]
