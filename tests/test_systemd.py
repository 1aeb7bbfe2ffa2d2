"""The systemd user unit is valid (checked with systemd-analyze where it exists)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO


def test_unit_verifies(tmp_path: Path) -> None:
    tool = shutil.which("systemd-analyze")
    if tool is None:
        pytest.skip("systemd-analyze is not installed here")
    exe = Path(sys.executable).with_name("aleph-mem")
    unit = (REPO / "systemd" / "aleph-mem.service").read_text()
    assert "ExecStart=%h/.local/bin/aleph-mem daemon" in unit and "Restart=on-failure" in unit
    target = tmp_path / "aleph-mem.service"
    target.write_text(unit.replace("%h/.local/bin/aleph-mem", str(exe)))
    out = subprocess.run([tool, "verify", str(target)], capture_output=True, text=True)
    if "Failed to initialize manager" in out.stderr:
        pytest.skip("systemd cannot run its checks in this sandbox")
    assert out.returncode == 0, out.stderr
