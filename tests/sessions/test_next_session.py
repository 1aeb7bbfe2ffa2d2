"""Tell it once, with real sessions of two clients: when the client says a session ended,
its note is written at once (by a process of its own, no daemon), and the next session of
the project starts with it, the todos it left open named; another project's start (the
near miss) carries none of it."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest
from session_helpers import DATA, cli, hook

REAL = DATA / "real"
CASES = [  # client, transcript, its working folder, the next session's folder, left open
    ("claude-code", "claude-code-jssoundrecorder.jsonl", "/Users/dain/workspace/JSSoundRecorder",
     "/Users/dain/workspace/JSSoundRecorder/js",
     ["Test recording with new AudioWorklet implementation",
      "Test drone synth with new AudioWorklet implementation"]),
    ("codex", "codex-empire-of-bits.jsonl", r"C:\Users\kunal\Downloads\Empire-of-bits-main",
     r"C:\Users\kunal\Downloads\Empire-of-bits-main",
     ["Export AI session transcript(s) into the project root as grant proof",
      "Collect project evidence from README, package metadata, git history, and repo"]),
]


def session_id(path: Path) -> str:
    first = json.loads(path.read_text().splitlines()[0])
    return str(first.get("sessionId") or first.get("payload", {}).get("id") or "")


@pytest.mark.parametrize(("client", "name", "cwd", "next_cwd", "left"), CASES,
                         ids=[c[0] for c in CASES])
def test_the_next_session_starts_with_the_last_ones_note_and_open_todos(
        vault: Path, tmp_path: Path, client: str, name: str, cwd: str, next_cwd: str,
        left: list[str]) -> None:
    live = tmp_path / name
    shutil.copy(REAL / name, live)
    sid = session_id(live)
    assert sid
    base = {"session_id": sid, "transcript_path": str(live), "cwd": cwd}
    assert hook(vault, "Stop", client, **base) is None
    assert hook(vault, "SessionEnd", client, **base, reason="exit") is None
    note = ""
    for _ in range(600):  # no daemon runs: the hook's own process writes it
        rows = json.loads(cli("sessions", "list", "--json", "--vault", str(vault)).stdout)
        note = next((r["note"] for r in rows if r["session_id"] == sid and r.get("note")), "")
        if note:
            break
        time.sleep(0.2)
    assert note, "the session's note was not written"
    start = hook(vault, "SessionStart", client, session_id="next-1", cwd=next_cwd,
                 source="startup")
    assert start is not None
    text = start["hookSpecificOutput"]["additionalContext"]
    opened = text.split(": left open in the last session\n")[1].split("\n\n")[0]
    for item in left:
        assert item in opened
    assert f"[[{note[:-3]}]]" in text
    other = hook(vault, "SessionStart", client, session_id="next-2", cwd="/w/elsewhere",
                 source="startup")
    assert other is not None
    elsewhere = other["hookSpecificOutput"]["additionalContext"]
    assert note[:-3] not in elsewhere and left[0] not in elsewhere
