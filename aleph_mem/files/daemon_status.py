"""``.aleph/local/daemon.json``: what the running daemon says about itself (its state, pid,
queue, next runs, where it lends its model), read by `status`, the MCP server and a
terminal's search."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from aleph_mem.files.atomic import write_atomic


def write_status(local_dir: Path, body: dict[str, Any]) -> None:
    write_atomic(local_dir / "daemon.json", json.dumps(body, indent=1).encode(),
                 durable=False)


def read_status(local_dir: Path) -> dict[str, Any] | None:
    try:
        body = json.loads((local_dir / "daemon.json").read_bytes())
    except (FileNotFoundError, ValueError):
        return None
    return body if isinstance(body, dict) else None  # JSON, but not what a daemon writes
