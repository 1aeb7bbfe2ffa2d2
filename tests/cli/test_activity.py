"""Only a write is activity: the idle stamp the dream and the sessions job wait out moves
when a command or a tool writes as the person or the agent, never when one reads (checking
`status` must not delay what it reports on)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from aleph_mem.files import activity


def cli(vault: Path, *args: str) -> None:
    out = subprocess.run([sys.executable, "-m", "aleph_mem.cli", *args, "--vault", str(vault)],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr


def stamp(vault: Path) -> str:
    path = activity.stamp_path(vault / ".aleph" / "local")
    return path.read_text() if path.exists() else ""


def test_reading_commands_leave_the_idle_stamp_and_a_write_moves_it(vault: Path) -> None:
    cli(vault, "index")
    activity.touch(vault / ".aleph" / "local", "human")
    before = stamp(vault)
    for reading in (["search", "anything at all"], ["status"], ["log"], ["show", "MEMORY.md"],
                    ["sessions", "list"], ["dream", "status"]):
        cli(vault, *reading)
        assert stamp(vault) == before, reading
    cli(vault, "remember", "The staging database listens on port 5433")
    after = json.loads(stamp(vault))
    assert after["actor"] == "cli" and stamp(vault) != before
