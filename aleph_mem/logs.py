"""Our loggers, which load Python's logging module when they first log.

A full-text search from a terminal logs nothing, and importing logging (with threading,
weakref, string and traceback) cost it about 4 ms. ``get(__name__)`` stands for
``logging.getLogger(__name__)``; ``configure`` is what the CLI asks for (warnings on stderr
with the time; with ``-v`` our own events), applied at once when logging is already loaded,
else at the first log. A command that runs for long (the daemon, the MCP server) calls
``ready()`` at its start, so the libraries it loads log in the same format from the start.
"""

from __future__ import annotations

import sys
from typing import Any

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
_pending: list[bool] = []  # the verbosity main asked for, until logging is set up


class Logger:
    """``logging.getLogger(name)``, fetched on first use (``info``, ``warning``, ...)."""

    __slots__ = ("name", "_real")

    def __init__(self, name: str) -> None:
        self.name = name
        self._real: Any = None

    def __getattr__(self, attr: str) -> Any:
        if self._real is None:
            import logging

            ready()
            self._real = logging.getLogger(self.name)
        return getattr(self._real, attr)


def get(name: str) -> Logger:
    return Logger(name)


def configure(verbose: bool) -> None:
    _pending[:] = [verbose]
    if "logging" in sys.modules:
        ready()


def ready() -> None:
    """Set logging up as ``configure`` asked, if it has not been yet."""
    if not _pending:
        return
    verbose = _pending.pop()
    import logging

    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format=FORMAT,
                        datefmt="%H:%M:%S")
    if verbose:  # our own events; the scheduler's and libraries' stay at warnings
        logging.getLogger("aleph_mem").setLevel(logging.INFO)
