"""Agent sessions: transcripts of three clients read, captured incrementally into the raw
store, indexed, searched, compressed into session notes, all through the real CLI and
real hook processes where a client would call them."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import open_mem

from aleph_mem.dream.journal import Journal
from aleph_mem.errors import BadInput
from aleph_mem.sessions import library
from aleph_mem.sessions.chunk_index import chunks
from aleph_mem.sessions.raw_store import messages
from aleph_mem.sessions.transcripts import Message, read
from aleph_mem.sessions.upkeep import compress_one

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


def test_ingest_is_incremental_and_idempotent(vault: Path, tmp_path: Path) -> None:
    lines = CLAUDE.read_bytes().splitlines(keepends=True)
    live = tmp_path / "live.jsonl"
    live.write_bytes(b"".join(lines[:5]) + lines[5].rstrip(b"\n"))  # a line being written
    with open_mem(vault) as mem:
        first = library.ingest(mem, "claude-code", live, SID)
        assert first.added == 6  # u1, a1#1, a1#2, r1, a2, a2#1 (the unfinished line waits)
        with live.open("ab") as f:
            f.write(b"\n" + b"".join(lines[6:]))
        second = library.ingest(mem, "claude-code", live, SID)
        again = library.ingest(mem, "claude-code", live, SID)
        copy = library.ingest(mem, "claude-code", CLAUDE, SID)  # imported from elsewhere
        assert (again.added, copy.added) == (0, 0)
        _, path = library.raw_store(mem).paths("claude-code", SID)
        kept = [m.id for m in messages(path)]
        assert kept == [m.id for m in read("claude-code", CLAUDE).messages]
        assert second.added == len(kept) - first.added
        assert second.session.messages == len(kept)
        assert second.files == ["/work/projects/heron-api/src/heron/cache.py",
                                "/work/projects/heron-api/tests/conftest.py"]


def test_chunks_hold_400_tokens_with_overlap_at_message_boundaries() -> None:
    msgs = [Message(f"m{i}", "", "user" if i % 2 else "assistant", f"word{i} " * 60)
            for i in range(40)]
    out = chunks(msgs)
    assert len(out) > 5
    for a, b in zip(out, out[1:], strict=False):
        assert len(a.text) <= 400 * 4 + 10
        assert b.text.split("\n")[0] in a.text  # the next chunk starts inside the last one
        assert b.first != a.first
    assert out[-1].last == "m39"
    long = chunks([Message("big", "", "tool", "x" * 5000, tool="Bash")])
    assert [c.first for c in long] == ["big"] * len(long) and len(long) == 4


def test_session_search_ranks_and_quotes_and_filters_by_project(vault: Path) -> None:
    with open_mem(vault) as mem:
        library.ingest(mem, "claude-code", CLAUDE, SID)
        library.ingest(mem, "codex", CODEX)
        library.ingest(mem, "gemini", GEMINI, cwd="/work/projects/osprey")
        hits = library.search(mem, "postgres port 5433")
        assert [h.session_id for h in hits] == [SID]
        assert hits[0].project == "heron-api"
        assert any("**5433**" in q for q in hits[0].quotes)
        assert [h.session_id for h in library.search(mem, "exponential backoff")] == [
            "0199a6f2-7d3e-7a10-9c1b-5e3f00c0dex1"]
        # the same words under another project are not this project's
        assert library.search(mem, "postgres port", project="kite") == []
        assert [h.project for h in library.search(mem, "protobufs")] == ["osprey"]
        assert [h.project for h in library.listing(mem)] == ["osprey", "kite", "heron-api"]
    # the index is derived: gone, and rebuilt from the raw files
    for p in vault.glob(".aleph/index.db*"):
        p.unlink()
    with open_mem(vault) as mem:
        assert [h.session_id for h in library.search(mem, "postgres port 5433")] == [SID]


def test_session_note_from_structure(vault: Path) -> None:
    with open_mem(vault) as mem:
        library.ingest(mem, "claude-code", CLAUDE, SID, closed=True)
        done = compress_one(mem, SID[:8])
        text = (vault / done.path).read_text()
        assert done.path == ("sessions/2026-11-20 Fixed heron-api CI postgres port; service "
                             "addresses from env.md")
        fm = mem.show(done.path).frontmatter
        assert fm["project"] == "heron-api" and fm["session_id"] == SID
        assert fm["files_touched"] == ["tests/conftest.py", "src/heron/cache.py"]
        assert "## Errors and fixes\n\n- `Bash`: E psycopg.OperationalError" in text
        assert "→ Fixed: the test database URL pointed at port 5433" in text
        assert "## Preferences stated\n\n- I prefer that we always read the database port " \
            "from DB_URL instead of hard-coding it.\n- Let's use environment variables" in text
        assert "- `pytest tests/test_db.py -x -q`" in text
        assert "subagent" not in text and "REDIS = 'localhost:6379'" not in text
        # preferences are proposals for hot memory, never edits
        assert (vault / "MEMORY.md").read_bytes() == mem.vault.read_bytes("MEMORY.md")
        props = Journal(vault / ".aleph").proposals()
        assert sorted(p["action"]["reason"][:31] for p in props.values()) == [
            'remember "I prefer that we alwa', 'remember "Let\'s use environment']
        event = mem.log(path=done.path)[0]
        assert event.actor == "sessions:claude-code"
        # a second compress of an unchanged session writes nothing; a person's edit stays
        assert not compress_one(mem, SID).written
        (vault / done.path).write_text(text + "\nMy own remark.\n")
        mem.reindex()
        again = compress_one(mem, SID)
        assert not again.written and "edited" in again.why
        assert (vault / done.path).read_text().endswith("My own remark.\n")


def test_question_is_no_preference_and_known_facts_are_not_proposed(vault: Path,
                                                                     tmp_path: Path) -> None:
    (vault / "MEMORY.md").write_text(
        "# Hot memory\n\n## Facts\n\n- [P2] Always run the linter before committing (2026-11-01)\n")
    t = tmp_path / "q.jsonl"
    rows = [("u1", "Should we always squash merges?"),
            ("u2", "Please always run the linter before committing."),
            ("u3", "I prefer tabs over spaces in the Makefile.")]
    t.write_text("".join(json.dumps({
        "type": "user", "uuid": u, "sessionId": "q1", "cwd": "/w/p",
        "timestamp": f"2026-11-20T10:0{i}:00Z", "message": {"role": "user", "content": text}})
        + "\n" for i, (u, text) in enumerate(rows)))
    with open_mem(vault) as mem:
        mem.reindex()
        library.ingest(mem, "claude-code", t, "q1", closed=True)
        done = compress_one(mem, "q1")
        text = (vault / done.path).read_text()
    assert "squash" not in text.split("## Preferences stated")[1]
    reasons = [p["action"]["reason"] for p in Journal(vault / ".aleph").proposals().values()]
    assert len(reasons) == 1 and "tabs over spaces" in reasons[0]


def test_hook_processes_start_capture_and_end(vault: Path, tmp_path: Path) -> None:
    (vault / "MEMORY.md").write_text(
        "# Hot memory\n\n## Facts\n\n" + "".join(
            f"- [P{2 + i % 4}] filler fact number {i} about the build cache and its keys "
            f"(2026-11-01)\n" for i in range(20))
        + "- [P1] Deploys go out on Tuesdays only (2026-11-01)\n")
    with open_mem(vault) as mem:
        mem.reindex()
    live = tmp_path / "t.jsonl"
    shutil.copy(CLAUDE, live)
    base = {"session_id": SID, "transcript_path": str(live), "cwd": "/work/projects/heron-api"}
    assert hook(vault, "Stop", **base) is None
    assert hook(vault, "SessionEnd", **base, reason="exit") is None
    note = None
    for _ in range(100):  # compressed by a detached process (no daemon runs)
        found = list((vault / "sessions").glob("*.md")) if (vault / "sessions").exists() else []
        if found:
            note = found[0]
            break
        time.sleep(0.2)
    assert note is not None
    out = cli("--hook-budget-tokens", "400", "hook", "claude-code", "--vault", str(vault),
              stdin=json.dumps({"hook_event_name": "SessionStart", "session_id": "s2",
                                "cwd": "/work/projects/heron-api/src", "source": "startup"}))
    ctx = json.loads(out.stdout)["hookSpecificOutput"]
    assert ctx["hookEventName"] == "SessionStart"
    text = ctx["additionalContext"]
    hot = text.split("## Hot memory")[1].split("\n\n")[1].splitlines()
    assert hot[0] == "- [P1] Deploys go out on Tuesdays only (2026-11-01)"
    assert hot[1].startswith("- [P2] filler fact number 0 ")
    assert [h[:6] for h in hot[1:-1]] == sorted(h[:6] for h in hot[1:-1])  # by priority
    assert hot[-1].startswith("- (") and "lower: read MEMORY.md" in hot[-1]
    assert "## Project heron-api: last sessions" in text and note.stem in text
    # a resumed session gets the snapshot it started with, though hot memory changed
    (vault / "MEMORY.md").write_text("# Hot memory\n\n## Facts\n\n- [P1] Something new\n")
    again = hook(vault, "SessionStart", session_id="s2", cwd="/work/projects/heron-api",
                 source="resume")
    assert again["hookSpecificOutput"]["additionalContext"] == text


def test_hook_never_fails_its_client(vault: Path) -> None:
    for stdin, said in (("not json", "could not read the hook input"),
                        ('{"hook_event_name": "Stop", "transcript_path": "/nowhere.jsonl"}',
                         "no transcript"),
                        ('{"hook_event_name": "Notification"}', "not one aleph-mem handles")):
        out = cli("hook", "claude-code", "--vault", str(vault), stdin=stdin)
        assert out.stdout == "" and said in out.stderr
    out = cli("hook", "claude-code", "--vault", str(vault / "missing"),
              stdin='{"hook_event_name": "SessionStart", "cwd": "/x"}')
    assert out.returncode == 0 and out.stdout == "" and "not handled" in out.stderr


def test_prompt_hook_adds_relevant_notes_only(vault: Path) -> None:
    (vault / "notes" / "kite uploader.md").write_text(
        "# Kite uploader\n\nRetries use exponential backoff, five attempts.\n")
    with open_mem(vault) as mem:
        mem.reindex()
    got = hook(vault, "UserPromptSubmit", prompt="how many retry attempts does the kite "
               "uploader make with backoff?", session_id="p", cwd="/x")
    assert "notes/kite uploader.md" in got["hookSpecificOutput"]["additionalContext"]
    assert hook(vault, "UserPromptSubmit", prompt="ok thanks", session_id="p", cwd="/x") is None


def test_hooks_install_merges_and_uninstall_restores(vault: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    original = {"model": "opus", "permissions": {"allow": ["Bash(ls:*)"]},
                "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
                          "PreToolUse": [{"matcher": "Bash", "hooks": [
                              {"type": "command", "command": "guard.sh"}]}]}}
    settings.write_text(json.dumps(original, indent=4))
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "aleph_mem.cli", *args], env=env,
                              capture_output=True, text=True, timeout=60)
    first = run("hooks", "install", "claude-code", "--vault", str(vault))
    assert first.returncode == 0 and "installed" in first.stdout, first.stderr
    doc = json.loads(settings.read_text())
    assert doc["model"] == "opus" and doc["permissions"] == original["permissions"]
    assert doc["hooks"]["PreToolUse"] == original["hooks"]["PreToolUse"]
    assert doc["hooks"]["Stop"][0] == original["hooks"]["Stop"][0]
    ours = doc["hooks"]["SessionStart"][0]["hooks"][0]
    assert ours["command"].endswith(f"hook claude-code --vault {vault.resolve()}")
    assert json.loads(settings.with_name("settings.json.aleph-mem.bak").read_text()) == original
    installed = settings.read_bytes()
    assert "already installed" in run("hooks", "install", "claude-code", "--vault",
                                      str(vault)).stdout
    assert settings.read_bytes() == installed
    status = run("hooks", "status", "claude-code", "--json")
    assert json.loads(status.stdout)["missing"] == []
    assert run("hooks", "uninstall", "claude-code").returncode == 0
    assert settings.read_text() == json.dumps(original, indent=4)  # byte for byte
    assert run("hooks", "status", "claude-code").returncode == 1
    settings.write_text('{"hooks": {')  # broken: never rewritten
    bad = run("hooks", "install", "claude-code", "--vault", str(vault))
    assert bad.returncode == 1 and "not valid JSON" in bad.stderr
    assert settings.read_text() == '{"hooks": {'


def test_import_is_idempotent_and_reports(vault: Path, tmp_path: Path) -> None:
    folder = tmp_path / "projects" / "-work-projects-heron-api"
    folder.mkdir(parents=True)
    for i in range(3):
        text = CLAUDE.read_text().replace(SID, f"{SID[:-4]}{i:04d}")
        (folder / f"{SID[:-4]}{i:04d}.jsonl").write_text(text)
    (folder / SID / "subagents").mkdir(parents=True)
    (folder / SID / "subagents" / "agent-x.jsonl").write_text(CLAUDE.read_text())
    out = cli("sessions", "import", "claude-code", str(tmp_path / "projects"), "--vault",
              str(vault), "--json")
    report = json.loads(out.stdout)
    assert (report["files"], report["sessions"], report["unchanged"]) == (3, 3, 0)
    assert report["skipped_lines"] == 3
    again = json.loads(cli("sessions", "import", "claude-code", str(tmp_path / "projects"),
                           "--vault", str(vault), "--json").stdout)
    assert (again["sessions"], again["messages"], again["unchanged"]) == (0, 0, 3)
    listed = json.loads(cli("sessions", "list", "--vault", str(vault), "--json").stdout)
    assert len(listed) == 3


def test_retention_removes_old_transcripts_once_their_note_exists(vault: Path) -> None:
    import datetime as dt

    from aleph_mem.sessions.upkeep import prune

    with open_mem(vault) as mem:
        library.ingest(mem, "claude-code", CLAUDE, SID, closed=True)
        library.ingest(mem, "codex", CODEX)  # no note yet: kept whatever its age
        compress_one(mem, SID)
        later = dt.datetime(2027, 6, 1, tzinfo=dt.UTC)
        gone = prune(mem, later)
        assert [s.session_id for s in gone] == [SID]
        assert [h.client for h in library.listing(mem)] == ["codex"]
        assert (vault / "sessions").exists()  # the note stays


@pytest.mark.parametrize("client", ["gemini"])
def test_gemini_hooks_install_in_its_format(vault: Path, tmp_path: Path, client: str) -> None:
    from aleph_mem.install import client_hooks

    path, changed = client_hooks.install(client, vault, "project", tmp_path)
    doc = json.loads(path.read_text())
    assert path == tmp_path / ".gemini" / "settings.json" and changed
    assert sorted(doc["hooks"]) == ["BeforeAgent", "PreCompress", "SessionEnd", "SessionStart"]
    entry = doc["hooks"]["SessionStart"][0]["hooks"][0]
    assert entry["timeout"] == 10_000 and entry["name"] == "aleph-mem-SessionStart"


def test_cursor_hooks_install_flat_and_answer_in_its_shape(vault: Path, tmp_path: Path) -> None:
    from aleph_mem.install import client_hooks

    path = tmp_path / ".cursor" / "hooks.json"
    path.parent.mkdir()
    theirs = {"command": "./audit.sh"}
    path.write_text(json.dumps({"version": 1, "hooks": {"stop": [theirs]}}))
    client_hooks.install("cursor", vault, "project", tmp_path)
    doc = json.loads(path.read_text())
    assert doc["version"] == 1 and doc["hooks"]["stop"][0] == theirs
    assert sorted(doc["hooks"]) == ["preCompact", "sessionEnd", "sessionStart", "stop"]
    assert doc["hooks"]["sessionStart"][0]["command"].endswith(f"--vault {vault.resolve()}")
    assert client_hooks.status("cursor", "project", tmp_path).missing == []
    client_hooks.uninstall("cursor", "project", tmp_path)
    assert json.loads(path.read_text()) == {"version": 1, "hooks": {"stop": [theirs]}}
    out = cli("hook", "cursor", "--vault", str(vault), stdin=json.dumps({
        "hook_event_name": "sessionStart", "conversation_id": "c1",
        "workspace_roots": ["/work/projects/heron-api"]}))
    answer = json.loads(out.stdout)
    assert answer["continue"] is True and answer["additional_context"].startswith("# Memory")


def test_chat_exports_import_the_current_branch(vault: Path, tmp_path: Path) -> None:
    import zipfile

    export = tmp_path / "chatgpt-export.zip"
    with zipfile.ZipFile(export, "w") as z:
        z.write(DATA / "chatgpt_conversations.json", "conversations.json")
    with open_mem(vault) as mem:
        report = library.import_sessions(mem, "chatgpt", export)
        assert (report.files, report.sessions, report.messages) == (1, 1, 4)
        view = library.show(mem, "68f0c0de")
        assert [m.id for m in view.messages] == ["u1", "a1b", "u2", "a2"]  # not "a1"
        assert view.session.started == "2025-11-15T09:46:40+00:00"
        again = library.import_sessions(mem, "chatgpt", export)
        assert (again.sessions, again.unchanged) == (0, 1)
        claude = library.import_sessions(mem, "claude-ai", DATA / "claude_ai_conversations.json")
        assert (claude.sessions, claude.messages) == (1, 2)
        hits = library.search(mem, "greenhouse vents")
        assert [h.client for h in hits] == ["claude-ai"]
        assert any("**vents**" in q for q in hits[0].quotes)
    bad = cli("sessions", "import", "chatgpt", str(tmp_path / "nowhere.zip"), "--vault",
              str(vault), check=False)
    assert bad.returncode == 1 and "no export at" in bad.stderr


def test_summary_across_sessions_cites_them(vault: Path, stub_llm) -> None:
    from conftest import use_stub_llm

    use_stub_llm(vault, stub_llm)
    stub_llm.replies = ["The CI tests used port 5433 instead of 5432 [1]. "
                        "The uploader was rewritten in Rust [7]."]
    with open_mem(vault) as mem:
        library.ingest(mem, "claude-code", CLAUDE, SID)
        library.ingest(mem, "codex", CODEX)
        hits = library.search(mem, "postgres port tests")
        summary = library.summarize(mem, "why did the tests fail?", hits)
    assert summary.answer == "The CI tests used port 5433 instead of 5432 [1]."
    assert summary.citations == [{"n": 1, "session_id": SID,
                                  "started": "2026-11-20T09:00:00.000Z"}]
    sent = json.dumps(stub_llm.requests[0])
    assert "5433" in sent and "<passage" in sent


def test_session_search_by_meaning_with_the_bundled_model(vault: Path) -> None:
    with open_mem(vault) as mem:
        library.ingest(mem, "claude-code", CLAUDE, SID)
        library.ingest(mem, "codex", CODEX)
        library.ingest(mem, "gemini", GEMINI, cwd="/work/projects/osprey")
        query = "delay grows after each unsuccessful try"
        assert library.search(mem, query) == []  # no word of it is in any session
        assert mem.embed() >= 3  # the daemon does this; notes first, then sessions
        found = library.search(mem, query, wait_for_model=True)
        assert found[0].project == "kite" and "heron-api" not in [h.project for h in found]
        assert found[0].quotes[0].startswith("user: Add exponential backoff")
        assert library.search(mem, "recipe for banana bread", wait_for_model=True) == []


def test_a_rewound_branch_is_not_in_the_note(vault: Path, tmp_path: Path) -> None:
    def row(uid: str, parent: str | None, kind: str, text: str, minute: int, **extra) -> str:
        return json.dumps({"type": kind, "uuid": uid, "parentUuid": parent, "sessionId": "rw",
                           "cwd": "/w/garden", "timestamp": f"2026-11-20T10:{minute:02d}:00Z",
                           "message": {"role": kind, "content": [{"type": "text",
                                                                  "text": text}]}, **extra})
    lines = [row("u1", None, "user", "Plan the raised beds for spring.", 0),
             row("a1", "u1", "assistant", "Sure: what size is the plot?", 1),
             row("b1u", "a1", "user", "Ten by ten metres of clay soil.", 2),
             row("b1a", "b1u", "assistant", "Decision: we will use four beds of clay.", 3),
             row("b2u", "a1", "user", "Six by four metres, sandy soil.", 10),  # rewound to a1
             row("b2a", "b2u", "assistant", "Decision: we will use three beds, 1.2 m wide.", 11),
             json.dumps({"type": "system", "subtype": "compact_boundary", "uuid": "cb",
                         "parentUuid": None, "logicalParentUuid": "b2a", "sessionId": "rw",
                         "timestamp": "2026-11-20T10:20:00Z", "content": "compacted"}),
             row("cs", "cb", "user", "This session is being continued: beds planned.", 21,
                 isCompactSummary=True),
             row("p1u", "cs", "user", "Which seeds go in first?", 22),
             row("p1a", "p1u", "assistant", "Peas and radishes go in first, in March.", 23)]
    t = tmp_path / "rw.jsonl"
    t.write_text("\n".join(lines) + "\n")
    with open_mem(vault) as mem:
        library.ingest(mem, "claude-code", t, closed=True)
        text = (vault / compress_one(mem, "rw").path).read_text()
    asked = text.split("## Asked")[1].split("##")[0]
    assert "Six by four metres" in asked and "Which seeds go in first?" in asked
    assert "Ten by ten" not in text and "four beds of clay" not in text
    assert "three beds, 1.2 m wide" in text
    assert "Peas and radishes go in first, in March." in text.split("## Outcome")[1]


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


def test_session_notes_are_records_not_orphans(vault: Path) -> None:
    (vault / "sessions").mkdir()
    (vault / "sessions" / "loose idea.md").write_text("# Loose idea\n\nNo links at all.\n")
    with open_mem(vault) as mem:
        library.ingest(mem, "claude-code", CLAUDE, SID, closed=True)
        note = compress_one(mem, SID).path
        mem.reindex()
    out = cli("dream", "--dry-run", "--pass", "lint", "--vault", str(vault), "--json")
    orphans = [i["path"] for i in json.loads(out.stdout)["issues"] if i["rule"] == "L020"]
    assert "sessions/loose idea.md" in orphans  # the control, in the same folder
    assert note not in orphans
    fm = open_mem(vault).show(note).frontmatter
    assert (fm["category"], fm["created"], fm["tags"]) == ("sessions", "2026-11-20", ["session"])


def test_words_with_a_hash_in_a_session_do_not_become_tags(vault: Path, tmp_path: Path) -> None:
    t = tmp_path / "h.jsonl"
    t.write_text(json.dumps({
        "type": "user", "uuid": "u1", "sessionId": "h1", "timestamp": "2026-11-20T10:00:00Z",
        "message": {"role": "user", "content": "Why does #include <vector> fail? See issue "
                    "#42 and the #build-fix channel."}}) + "\n")
    with open_mem(vault) as mem:
        library.ingest(mem, "claude-code", t, closed=True)
        view = mem.show(compress_one(mem, "h1").path)
    assert view.tags == ["session"]
    assert "Why does \\#include <vector> fail? See issue \\#42" in view.content


def test_llm_items_must_quote_the_message_they_cite(vault: Path, stub_llm) -> None:
    from conftest import use_stub_llm

    use_stub_llm(vault, stub_llm)
    stub_llm.replies = [json.dumps({
        "decisions": [
            {"text": "Redis moved to an environment variable.", "message": "a6",
             "quote": "so I moved it to REDIS_URL"},  # true: kept
            {"text": "The team chose MySQL.", "message": "a6",
             "quote": "we chose MySQL over postgres"}],  # not in a6: dropped
        "errors": [{"text": "Port mismatch fixed.", "message": "nope",
                    "quote": "port 5433 failed"}],  # no such message: dropped
        "preferences": [
            {"text": "Prefers short answers.", "message": "a5",
             "quote": "the test database URL pointed"},  # the agent's words: dropped
            {"text": "Read ports from DB_URL.", "message": "u2",
             "quote": "always read the database port from DB_URL"}],  # kept
        "procedures": []})]
    with open_mem(vault) as mem:
        library.ingest(mem, "claude-code", CLAUDE, SID, closed=True)
        text = (vault / compress_one(mem, SID).path).read_text()
    assert "- Redis moved to an environment variable." in text
    assert "MySQL" not in text and "Port mismatch fixed" not in text
    assert "short answers" not in text and "- Read ports from DB_URL." in text
    prompt = stub_llm.requests[0]["messages"][1]["content"]
    assert prompt.startswith("<transcript>\n[u1] user: The heron-api tests fail")
    assert "subagent" not in prompt and "[s1]" not in prompt  # sub-agent lines stay out


def test_a_growing_session_keeps_its_earlier_chunks(vault: Path, tmp_path: Path) -> None:
    def row(i: int) -> str:
        words = " ".join(f"w{i}x{k}" for k in range(60))
        return json.dumps({"type": "user", "uuid": f"m{i}", "sessionId": "grow",
                           "timestamp": f"2026-11-20T10:{i % 60:02d}:00Z",
                           "message": {"role": "user", "content": f"turn {i}: {words}"}})
    t = tmp_path / "grow.jsonl"
    t.write_text("".join(row(i) + "\n" for i in range(40)))
    with open_mem(vault) as mem:
        library.ingest(mem, "claude-code", t, "grow")
        before = mem.con.execute("SELECT id, seq, text FROM session_chunks ORDER BY seq"
                                 ).fetchall()
        with t.open("a") as f:
            f.write("".join(row(i) + "\n" for i in range(40, 60)))
        library.ingest(mem, "claude-code", t, "grow")
        after = mem.con.execute("SELECT id, seq, text FROM session_chunks ORDER BY seq"
                                ).fetchall()
        assert len(before) > 4 and after[:len(before) - 1] == before[:-1]  # kept as they were
        assert [r[1] for r in after] == list(range(len(after)))
        assert mem.con.execute("SELECT messages FROM sessions").fetchone()[0] == 60
        assert [h.session_id for h in library.search(mem, "w59x3")] == ["grow"]
        covered = " ".join(r[2] for r in after)
        assert all(f"turn {i}:" in covered for i in range(60))


def test_a_ticked_preference_joins_hot_memory_as_it_is_then(vault: Path) -> None:
    import datetime as dt

    from aleph_mem.dream.runner import Dream
    from aleph_mem.recall.hot_memory import remember

    with open_mem(vault) as mem:
        mem.reindex()
        library.ingest(mem, "claude-code", CLAUDE, SID, closed=True)
        compress_one(mem, SID)
        now = dt.datetime.now(dt.UTC)
        Dream(mem, now, force=True).run(("digest",))
        remember(mem, "The CI database is postgres 16", 2)  # hot memory moved on meanwhile
        digest = next((vault / "_dream" / "digests").glob("*.md"))
        text = digest.read_text()
        line = next(ln for ln in text.splitlines() if "I prefer that we always read" in ln)
        digest.write_text(text.replace(line, line.replace("- [ ]", "- [x]")))
        mem.reindex()
        Dream(mem, now + dt.timedelta(minutes=20), force=True).run(("digest",))
        hot = (vault / "MEMORY.md").read_text()
        assert "The CI database is postgres 16" in hot
        assert "- [P3] I prefer that we always read the database port from DB_URL instead " \
            "of hard-coding it." in hot
        assert "environment variables for every service" not in hot  # not ticked
        states = sorted(p["state"] for p in Journal(vault / ".aleph").proposals().values())
        assert states == ["applied", "open"]
        assert mem.log(path="MEMORY.md")[0].actor == "dream:sessions"


def test_status_counts_sessions_and_a_rebuild_gets_them_back(vault: Path) -> None:
    with open_mem(vault) as mem:
        library.ingest(mem, "claude-code", CLAUDE, SID, closed=True)
        library.ingest(mem, "codex", CODEX)
        compress_one(mem, SID)
    out = cli("index", "--rebuild", "--no-embed", "--vault", str(vault))
    status = json.loads(cli("status", "--json", "--vault", str(vault)).stdout)
    assert status["sessions"] == {"captured": 2, "without_note": 1,
                                  "latest": "2026-11-21T14:00:21.000Z"}, out.stderr


def test_a_huge_backlog_is_read_in_slices_and_caught_up(vault: Path) -> None:
    with open_mem(vault) as mem:
        part = library.ingest(mem, "claude-code", CLAUDE, SID, limit=3000)  # a hook's slice
        assert 0 < part.session.offset <= 3000 < CLAUDE.stat().st_size
        nxt = library.ingest(mem, "claude-code", CLAUDE, SID, limit=3000)  # the next call
        assert part.session.offset < nxt.session.offset <= part.session.offset + 3000
        done = compress_one(mem, SID)  # the rest is read before the note is written
        kept = [m.id for m in messages(library.raw_store(mem).paths("claude-code", SID)[1])]
        assert kept == [m.id for m in read("claude-code", CLAUDE).messages]
        assert done.session.offset == CLAUDE.stat().st_size
        assert "Let's use environment variables" in (vault / done.path).read_text()


def test_session_start_lists_the_projects_notes_with_what_each_is_about(vault: Path) -> None:
    (vault / "projects" / "heron").mkdir(parents=True)
    (vault / "projects" / "heron" / "2026-11-02 Sync.md").write_text(
        "---\ndate: 2026-11-02\n---\n# Sync\n\nAttendees:: [[Priya]]\n\n"
        "Decided to move the CI database to postgres 16.\n")
    (vault / "notes" / "heron elsewhere.md").write_text("# Elsewhere\n\nNot the project.\n")
    with open_mem(vault) as mem:
        mem.reindex()
    got = hook(vault, "SessionStart", session_id="n1", cwd="/work/projects/heron")
    text = got["hookSpecificOutput"]["additionalContext"]
    assert "- [[projects/heron/2026-11-02 Sync]]: Decided to move the CI database to " \
        "postgres 16." in text
    assert "heron elsewhere" not in text  # the control: a note that only names it


def test_a_session_captured_on_another_device_is_compressed_there(vault: Path) -> None:
    """With the raw folder synced, another device's session is listed here, but its raw
    files and their state are that device's: compressing it here is refused (nothing is
    written into this device's raw folder or the vault); this device's own still works."""
    with open_mem(vault) as mem:
        library.ingest(mem, "claude-code", CLAUDE, SID, closed=True)
        mine = vault / ".aleph" / "raw" / mem.events.host
        other = vault / ".aleph" / "raw" / "other-laptop"
        shutil.move(str(mine), str(other))
        for meta in other.glob("*/*.json"):
            body = json.loads(meta.read_text())
            meta.write_text(json.dumps({**body, "host": "other-laptop"}))
        before = sorted(p.relative_to(vault) for p in vault.rglob("*") if p.is_file()
                        and ".aleph" not in p.parts)
        with pytest.raises(BadInput, match="captured on other-laptop"):
            compress_one(mem, SID[:8])
        assert not mine.exists()
        assert sorted(p.relative_to(vault) for p in vault.rglob("*") if p.is_file()
                      and ".aleph" not in p.parts) == before
        library.ingest(mem, "claude-code", CLAUDE, SID + "-here", closed=True)
        assert compress_one(mem, SID + "-here").written


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
