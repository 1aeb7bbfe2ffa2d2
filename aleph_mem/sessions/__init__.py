"""Agent sessions as memory: L0 captured transcripts and L1 session notes.

Open ``library`` first (ingest, list, show, search, import). Capture: ``hook`` (one hook call
of a client), ``transcripts`` (each client's format read into messages), ``chat_exports``
(ChatGPT's and Claude.ai's exports; secrets are taken out by ``aleph_mem.redaction``),
``raw_store`` (this device's
captured sessions on disk). Search: ``chunk_index`` and ``chunk_vectors``. Distilling:
``upkeep`` (which sessions are finished, compression, retention), ``summary`` (what a session
did, without an LLM), ``llm_summary`` (with one), ``session_note`` (the note written). What an
agent is handed: ``session_start`` (the memory a session starts with) and ``working_memory``
(the budgeted envelope of the ``context`` verb). ``session_counts``: what ``status`` tells of
them."""

__all__ = [
    "chunk_index", "chunk_vectors", "hook", "library", "raw_store", "session_counts",
    "session_note", "upkeep", "working_memory"
]
