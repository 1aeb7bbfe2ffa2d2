"""Transcripts and process helpers the session tests share."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

DATA = Path(__file__).parent / "transcripts"


CLAUDE = DATA / "claude_code_session.jsonl"


CODEX = next(DATA.glob("rollout-*.jsonl"))


GEMINI = DATA / "gemini_session.json"


SID = "7c1e2a90-0000-4000-8000-00000000c0de"


def cli(*args: str, stdin: str = "", check: bool = True) -> subprocess.CompletedProcess:
    out = subprocess.run([sys.executable, "-m", "aleph_mem.cli", *args], input=stdin,
                         capture_output=True, text=True, timeout=120)
    if check:
        assert out.returncode == 0, out.stderr
    return out


def hook(vault: Path, event: str, client: str = "claude-code", **fields: str) -> dict | None:
    out = cli("hook", client, "--vault", str(vault),
              stdin=json.dumps({"hook_event_name": event, **fields}))
    return json.loads(out.stdout) if out.stdout.strip() else None

