"""A writer process for the concurrency test (run as a script)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from aleph_mem.errors import ConflictError, NoteExists
from aleph_mem.files.vault import content_hash
from aleph_mem.memory import Memory


def cas_append(mem: Memory, path: str, line: str) -> int:
    """Read, add a line, write with the hash read; retry on conflict. Returns conflicts."""
    conflicts = 0
    while True:
        data = mem.vault.read_bytes(path)
        expected = None if data is None else content_hash(data)
        try:
            mem.store.writer().write(path, (data or b"") + line.encode() + b"\n", expected)
            return conflicts
        except (ConflictError, NoteExists):
            conflicts += 1


def main() -> None:
    root, wid, n, barrier = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), Path(sys.argv[4])
    with Memory.open(root, actor=f"mcp:worker{wid}") as mem:
        seen = mem.vault.read_bytes("shared.md") or b""
        (barrier / f"ready-{wid}").touch()
        while not (barrier / "go").exists():
            time.sleep(0.01)
        stale = 0
        try:
            mem.store.writer().write("shared.md", seen + b"stale write\n", content_hash(seen))
        except ConflictError:
            stale = 1
        conflicts = 0
        for i in range(n):
            conflicts += cas_append(mem, "shared.md", f"w{wid}-{i}")
            conflicts += cas_append(mem, f"own-{wid}.md", f"own {i}")
    print(json.dumps({"stale_conflict": stale, "conflicts": conflicts}))


if __name__ == "__main__":
    main()
