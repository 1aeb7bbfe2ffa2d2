"""``aleph-mem mcp``: the agents' door, a stdio MCP server. ``server`` (open it first: the
server, its lifespan and shutdown) and ``tools`` (the twelve tools, one ``Memory`` verb
each)."""

__all__ = ["server"]
