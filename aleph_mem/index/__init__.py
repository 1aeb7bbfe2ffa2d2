"""The rebuildable index in ``.aleph/index.db``: ``db`` (the schema; open it first),
``indexer`` (the vault into rows) with ``resolver`` (links as Obsidian resolves them),
``search`` (full text and vectors fused) with ``ranking`` (the scoring pipeline),
``query_dates`` and ``timespec`` (dates in a query and in filters), ``vectors`` (chunk vectors
and the embedding cache) and ``graph`` (the link graph)."""

__all__ = ["db", "graph", "indexer", "resolver", "search", "timespec", "vector_reader", "vectors"]
