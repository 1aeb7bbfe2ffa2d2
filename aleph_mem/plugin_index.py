"""Which ``aleph_mem`` plugins are installed, without importing the plugin machinery: a
command that only searches learns here that no plugin outside aleph-mem could change its
results, and pays neither for pluggy nor for a scan of every installed distribution."""

from __future__ import annotations

import functools
import json
import os
import sys
from pathlib import Path

from aleph_mem import logs

GROUP = "aleph_mem"
BUILTIN_MODULES = ("aleph_mem.dream", "aleph_mem.embed.embedders")

log = logs.get(__name__)


@functools.cache  # once a process, like the plugin manager itself
def installed() -> list[tuple[str, str, str]]:
    """Every ``aleph_mem`` entry point installed: (name, "module:attr", "project version").
    Scanning every installed distribution costs a command 30-40 ms at start, so the result
    is kept in the user's cache, keyed by the import path's folders and their times (an
    install or uninstall changes them)."""
    here = os.getcwd()  # `python -m` puts the working folder first: a vault, often written
    key = [[p, os.stat(p).st_mtime_ns] for p in sys.path
           if p and p != here and os.path.isdir(p)]
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / \
        "aleph-mem" / "entry-points.json"
    try:
        kept = json.loads(cache.read_bytes())
        if kept.get("key") == key:
            return [tuple(e) for e in kept["points"]]
    except (OSError, ValueError, AttributeError):
        pass
    from importlib.metadata import distributions

    points = sorted({(ep.name, ep.value, f"{d.metadata['name']} {d.version}")
                     for d in distributions() for ep in d.entry_points if ep.group == GROUP})
    try:
        from aleph_mem.files.atomic import write_atomic

        cache.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(cache, json.dumps({"key": key, "points": points}).encode(), durable=False)
    except OSError as exc:
        log.info("plugin list not cached: %s", exc)
    return points


def hooks_possible() -> bool:
    """A plugin could take part in this process: one is installed beyond the built-ins,
    or the plugin manager is already loaded (something may have registered in-process)."""
    if "aleph_mem.plugins" in sys.modules:
        return True
    return any(name not in BUILTIN_MODULES for name, _, _ in installed())
