"""The ``aleph-mem`` command: a thin shell that parses, calls one front-door verb and
prints. ``main`` (open it first: the commands), ``grammar`` (every command's arguments),
``common`` (the registry, opening the vault, printing), ``services`` (daemon, MCP, installs)
and ``sessions`` (hooks and the captured sessions)."""

__all__ = ["main"]
