"""Crash safety with real processes: a writer killed with SIGKILL at random points."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import REPO


def test_sigkilled_writers_leave_every_note_whole_and_the_log_readable() -> None:
    out = subprocess.run([sys.executable, str(REPO / "benchmarks" / "crash.py"), "--kills", "12",
                          "--seed", "3"], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout + out.stderr
    figures = json.loads(out.stdout.strip().splitlines()[-1])
    assert figures["kills"] == 12 and figures["events"] >= 12  # each child wrote before its kill
