"""Notes and readers the dream's tests share."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from conftest import open_mem

NOW = dt.datetime.now(dt.UTC)


SAME = "Same text about the harbour plans and the ferry schedule for next year.\n"


def agent_vault(vault: Path):
    """Notes written by an agent (through aleph-mem), with planted problems."""
    mem = open_mem(vault)
    mem.reindex()
    w = mem.store.writer(actor="mcp:test")
    w.write("notes/one.md", f"---\ntags: [a, b, a]\n---\n# Harbour\n\n{SAME}".encode(), None)
    w.write("notes/two.md", f"---\ntags: [c]\n---\n# Harbour copy\n\n{SAME}".encode(), None)
    w.write("notes/old.md", b"---\nvalid_until: 2020-01-01\n---\n# Offer\n\nSee [[one]] and "
            b"[[Harbour copy]] ![map](maps/missing.png)\n", None)
    w.write("notes/new.md", b"# New plan\n\nThe current plan.\n", None)
    w.write("notes/replaced.md", b"---\nsuperseded_by: '[[new]]'\n---\n# Old plan\n\nx\n", None)
    return mem


def snap_files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*.md")}

