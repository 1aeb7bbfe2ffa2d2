"""The rebuildable index in ``.aleph/index.db``: ``db`` (the schema; open it first),
``indexer`` (the vault into rows) with ``resolver`` (links as Obsidian resolves them),
``search`` (full text and vectors fused) with ``ranking`` (the scoring pipeline),
``query_dates`` and ``timespec`` (dates in a query and in filters), ``vectors`` (chunk vectors
and the embedding cache) and ``graph`` (the link graph). The rooms above ask their questions
of the index through ``reading`` (notes and what is parsed from them), ``health`` (what
``status`` tells) and ``judgments`` (the dream's judgments of notes): no SQL about these
tables lives outside ``index/``."""

__all__ = ["db", "graph", "health", "indexer", "judgments", "reading", "resolver", "search",
           "timespec", "vector_reader", "vectors"]
