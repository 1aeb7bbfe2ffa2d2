"""The long-running side: ``daemon`` (open it first: the watcher plus a scheduler that
runs due jobs when the vault is idle) and ``watcher`` (the index kept in step with every
edit)."""

__all__ = ["daemon"]
