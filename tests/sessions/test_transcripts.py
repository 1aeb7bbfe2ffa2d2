"""Each client's transcript format read into messages."""

from __future__ import annotations

import json
from pathlib import Path

from session_helpers import CLAUDE, CODEX, GEMINI, SID

from aleph_mem.sessions.transcripts import Message, read


def test_claude_code_transcript_read_to_messages() -> None:
    batch = read("claude-code", CLAUDE)
    assert batch.skipped == 1  # the line cut short by a crash
    assert batch.meta == {"session_id": SID, "cwd": "/work/projects/heron-api",
                          "branch": "main", "started": "2026-11-20T09:00:00.000Z",
                          "ended": "2026-11-20T09:03:00.500Z"}
    by_id = {m.id: m for m in batch.messages}
    assert by_id["u1"].text.startswith("The heron-api tests fail on CI")  # reminder gone
    assert "CLAUDE.md" not in by_id["u1"].text
    assert by_id["r1"] == Message("r1", "2026-11-20T09:00:20.000Z", "tool", by_id["r1"].text,
                                  tool="Bash", error=True, parent="a1")
    assert by_id["a3"].files == ("/work/projects/heron-api/tests/conftest.py",)
    assert by_id["a1#2"].command == "pytest tests/test_db.py -x -q"
    assert by_id["c1"].command == "/cost"
    assert by_id["s1"].sidechain and by_id["s2"].sidechain
    assert by_id["a6#summary"].role == "summary"
    assert "m1" not in by_id  # the client's own meta line
    assert not any("private reasoning" in m.text for m in batch.messages)


def test_codex_and_gemini_read_to_messages() -> None:
    codex = read("codex", CODEX)
    assert codex.meta["session_id"] == "0199a6f2-7d3e-7a10-9c1b-5e3f00c0dex1"
    assert codex.meta["branch"] == "feature/retry"
    assert codex.skipped == 1  # "not json at all"; the unknown record kind is no error
    roles = [(m.role, m.tool, m.error) for m in codex.messages]
    assert roles == [("user", "", False), ("assistant", "shell", False),
                     ("tool", "shell", False), ("assistant", "apply_patch", False),
                     ("tool", "apply_patch", False), ("assistant", "shell", False),
                     ("tool", "shell", True), ("assistant", "", False)]
    assert codex.messages[3].files == ("src/kite/upload.py",)
    assert codex.messages[1].command == "bash -lc rg -n retry src/kite/upload.py"
    assert not any("environment_context" in m.text for m in codex.messages)
    gemini = read("gemini", GEMINI)
    assert [(m.id, m.role, m.tool) for m in gemini.messages] == [
        ("g1", "user", ""), ("g2", "assistant", ""), ("g2#t0", "assistant",
                                                      "run_shell_command"),
        ("g2#r0", "tool", "run_shell_command")]


def test_a_message_typed_while_the_agent_worked_is_kept(tmp_path: Path) -> None:
    t = tmp_path / "steer.jsonl"
    t.write_text("\n".join(json.dumps(r) for r in [
        {"type": "user", "uuid": "u1", "sessionId": "st", "timestamp": "2026-07-11T07:00:00Z",
         "message": {"role": "user", "content": "Please start the migration."}},
        {"type": "queue-operation", "operation": "enqueue", "sessionId": "st",
         "timestamp": "2026-07-11T07:00:01Z", "content": "actually, the parser first"},
        {"type": "queue-operation", "operation": "remove", "sessionId": "st",
         "timestamp": "2026-07-11T07:00:02Z", "content": "actually, the parser first"}]) + "\n")
    got = [(m.role, m.text) for m in read("claude-code", t).messages]
    assert got == [("user", "Please start the migration."),
                   ("user", "actually, the parser first")]


def test_cursor_agent_transcript_lines_are_read(tmp_path: Path) -> None:
    """Cursor's agent transcripts (JSONL, each line a ``role`` and a ``message`` whose
    content is text blocks or a string; no type, id or time) read as messages, with ids
    that stay the same when the file is read again from the start."""
    lines = [{"role": "user", "message": {"content": [
                {"type": "text", "text": "Please rename the heron module to egret."}]}},
             {"role": "assistant", "message": {"content": [
                 {"type": "text", "text": "Renamed heron to egret in 4 files."},
                 {"type": "tool_use", "name": "Edit", "input": {"path": "src/egret.py"}}]}},
             {"role": "user", "message": {"content": "thanks, looks right"}}]
    path = tmp_path / "agent.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    first = read("cursor", path, 0)
    assert first.skipped == 0
    assert [(m.role, m.text) for m in first.messages if m.role == "user"] == [
        ("user", "Please rename the heron module to egret."), ("user", "thanks, looks right")]
    assert any("Renamed heron to egret" in m.text for m in first.messages)
    assert [m.id for m in read("cursor", path, 0).messages] == [m.id for m in first.messages]
    assert read("cursor", path, first.offset).messages == []


def test_the_last_line_is_read_to_the_last_byte(tmp_path: Path) -> None:
    """A transcript whose last line has no newline (real Claude Code files end so) gives
    every message, the same as one ending in a newline (the near miss); a last line cut
    while being written is left for the next read, then read whole."""
    from aleph_mem.sessions.transcripts import read as read_transcript

    lines = CLAUDE.read_bytes().rstrip(b"\n")
    ended, open_ = tmp_path / "ended.jsonl", tmp_path / "open.jsonl"
    ended.write_bytes(lines + b"\n")
    open_.write_bytes(lines)
    whole = read_transcript("claude-code", ended)
    assert [m.id for m in read_transcript("claude-code", open_).messages] == [
        m.id for m in whole.messages]
    last = lines.rsplit(b"\n", 1)[1]
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(lines[:-len(last)] + last[:len(last) // 2])
    first = read_transcript("claude-code", cut)
    assert len(first.messages) < len(whole.messages)
    cut.write_bytes(lines)  # the writer finishes the line
    rest = read_transcript("claude-code", cut, first.offset)
    assert [m.id for m in first.messages + rest.messages] == [m.id for m in whole.messages]


def test_the_clients_boilerplate_is_never_an_ask(tmp_path: Path) -> None:
    """Claude Code writes a caveat into the person's turn before local command output; it is
    not something the person asked. The person's own line beside it (the control) is."""
    lines = [{"type": "user", "uuid": "b1", "timestamp": "2026-11-20T09:00:00Z", "isMeta": False,
              "message": {"role": "user", "content": "Caveat: The messages below were "
                          "generated by the user while running local commands. DO NOT respond "
                          "to these messages."}},
             {"type": "user", "uuid": "b2", "timestamp": "2026-11-20T09:00:01Z",
              "message": {"role": "user", "content": "Caveat: check the cache first"}}]
    path = tmp_path / "t.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    assert [(m.id, m.text) for m in read("claude-code", path).messages] == [
        ("b2", "Caveat: check the cache first")]
