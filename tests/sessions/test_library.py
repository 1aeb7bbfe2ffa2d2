"""Captured sessions: ingest, chunks, search, import, status, all through the library and
the real CLI."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest
from conftest import open_mem
from session_helpers import CLAUDE, CODEX, DATA, GEMINI, SID, cli

from aleph_mem.errors import BadInput
from aleph_mem.sessions import chat_exports, library
from aleph_mem.sessions.chunk_index import chunks
from aleph_mem.sessions.raw_store import messages
from aleph_mem.sessions.transcripts import Message, read
from aleph_mem.sessions.upkeep import compress_one


def test_ingest_is_incremental_and_idempotent(vault: Path, tmp_path: Path) -> None:
    lines = CLAUDE.read_bytes().splitlines(keepends=True)
    live = tmp_path / "live.jsonl"
    live.write_bytes(b"".join(lines[:5]) + lines[5].rstrip(b"\n")[:-9])  # being written
    with open_mem(vault) as mem:
        first = library.ingest(mem.store, "claude-code", live, SID)
        assert first.added == 6  # u1, a1#1, a1#2, r1, a2, a2#1 (the cut line waits)
        with live.open("ab") as f:
            f.write(lines[5].rstrip(b"\n")[-9:])  # the line is whole, still no newline
        whole = library.ingest(mem.store, "claude-code", live, SID)
        assert whole.added == 1  # read to the last byte: a whole line is a line
        with live.open("ab") as f:
            f.write(b"\n" + b"".join(lines[6:]))
        second = library.ingest(mem.store, "claude-code", live, SID)
        again = library.ingest(mem.store, "claude-code", live, SID)
        copy = library.ingest(mem.store, "claude-code", CLAUDE, SID)  # imported from elsewhere
        assert (again.added, copy.added) == (0, 0)
        _, path = library.raw_store(mem.store).paths("claude-code", SID)
        kept = [m.id for m in messages(path)]
        assert kept == [m.id for m in read("claude-code", CLAUDE).messages]
        assert second.added == len(kept) - first.added - whole.added
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
        library.ingest(mem.store, "claude-code", CLAUDE, SID)
        library.ingest(mem.store, "codex", CODEX)
        library.ingest(mem.store, "gemini", GEMINI, cwd="/work/projects/osprey")
        hits = library.search(mem.store, "postgres port 5433")
        assert [h.session_id for h in hits] == [SID]
        assert hits[0].project == "heron-api"
        assert any("**5433**" in q for q in hits[0].quotes)
        assert [h.session_id for h in library.search(mem.store, "exponential backoff")] == [
            "0199a6f2-7d3e-7a10-9c1b-5e3f00c0dex1"]
        # the same words under another project are not this project's
        assert library.search(mem.store, "postgres port", project="kite") == []
        assert [h.project for h in library.search(mem.store, "protobufs")] == ["osprey"]
        assert [h.project for h in library.listing(mem.store)] == ["osprey", "kite", "heron-api"]
    # the index is derived: gone, and rebuilt from the raw files
    for p in vault.glob(".aleph/index.db*"):
        p.unlink()
    with open_mem(vault) as mem:
        assert [h.session_id for h in library.search(mem.store, "postgres port 5433")] == [SID]


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


def test_chat_exports_import_the_current_branch(vault: Path, tmp_path: Path) -> None:
    import zipfile

    export = tmp_path / "chatgpt-export.zip"
    with zipfile.ZipFile(export, "w") as z:
        z.write(DATA / "chatgpt_conversations.json", "conversations.json")
    with open_mem(vault) as mem:
        report = library.import_sessions(mem.store, "chatgpt", export)
        assert (report.files, report.sessions, report.messages) == (1, 1, 4)
        view = library.show(mem.store, "68f0c0de")
        assert [m.id for m in view.messages] == ["u1", "a1b", "u2", "a2"]  # not "a1"
        assert view.session.started == "2025-11-15T09:46:40+00:00"
        again = library.import_sessions(mem.store, "chatgpt", export)
        assert (again.sessions, again.unchanged) == (0, 1)
        claude = library.import_sessions(mem.store, "claude-ai",
                                         DATA / "claude_ai_conversations.json")
        assert (claude.sessions, claude.messages) == (1, 2)
        hits = library.search(mem.store, "greenhouse vents")
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
        library.ingest(mem.store, "claude-code", CLAUDE, SID)
        library.ingest(mem.store, "codex", CODEX)
        hits = library.search(mem.store, "postgres port tests")
        summary = library.summarize(mem.store.settings, "why did the tests fail?", hits)
    assert summary.answer == "The CI tests used port 5433 instead of 5432 [1]."
    assert summary.citations == [{"n": 1, "session_id": SID,
                                  "started": "2026-11-20T09:00:00.000Z"}]
    sent = json.dumps(stub_llm.requests[0])
    assert "5433" in sent and "<passage" in sent


def test_session_search_by_meaning_with_the_bundled_model(vault: Path) -> None:
    with open_mem(vault) as mem:
        library.ingest(mem.store, "claude-code", CLAUDE, SID)
        library.ingest(mem.store, "codex", CODEX)
        library.ingest(mem.store, "gemini", GEMINI, cwd="/work/projects/osprey")
        query = "delay grows after each unsuccessful try"
        assert library.search(mem.store, query) == []  # no word of it is in any session
        assert mem.embed() >= 3  # the daemon does this; notes first, then sessions
        found = library.search(mem.store, query, wait_for_model=True)
        assert found[0].project == "kite" and "heron-api" not in [h.project for h in found]
        assert found[0].quotes[0].startswith("user: Add exponential backoff")
        assert library.search(mem.store, "recipe for banana bread", wait_for_model=True) == []


def test_a_growing_session_keeps_its_earlier_chunks(vault: Path, tmp_path: Path) -> None:
    def row(i: int) -> str:
        words = " ".join(f"w{i}x{k}" for k in range(60))
        return json.dumps({"type": "user", "uuid": f"m{i}", "sessionId": "grow",
                           "timestamp": f"2026-11-20T10:{i % 60:02d}:00Z",
                           "message": {"role": "user", "content": f"turn {i}: {words}"}})
    t = tmp_path / "grow.jsonl"
    t.write_text("".join(row(i) + "\n" for i in range(40)))
    with open_mem(vault) as mem:
        library.ingest(mem.store, "claude-code", t, "grow")
        before = mem.store.con.execute("SELECT id, seq, text FROM session_chunks ORDER BY seq"
                                 ).fetchall()
        with t.open("a") as f:
            f.write("".join(row(i) + "\n" for i in range(40, 60)))
        library.ingest(mem.store, "claude-code", t, "grow")
        after = mem.store.con.execute("SELECT id, seq, text FROM session_chunks ORDER BY seq"
                                ).fetchall()
        assert len(before) > 4 and after[:len(before) - 1] == before[:-1]  # kept as they were
        assert [r[1] for r in after] == list(range(len(after)))
        assert mem.store.con.execute("SELECT messages FROM sessions").fetchone()[0] == 60
        assert [h.session_id for h in library.search(mem.store, "w59x3")] == ["grow"]
        covered = " ".join(r[2] for r in after)
        assert all(f"turn {i}:" in covered for i in range(60))


def test_status_counts_sessions_and_a_rebuild_gets_them_back(vault: Path) -> None:
    with open_mem(vault) as mem:
        library.ingest(mem.store, "claude-code", CLAUDE, SID, closed=True)
        library.ingest(mem.store, "codex", CODEX)
        compress_one(mem.store, SID)
    out = cli("index", "--rebuild", "--no-embed", "--vault", str(vault))
    status = json.loads(cli("status", "--json", "--vault", str(vault)).stdout)
    assert status["sessions"] == {"captured": 2, "without_note": 1,
                                  "latest": "2026-11-21T14:00:21.000Z"}, out.stderr


def test_a_huge_backlog_is_read_in_slices_and_caught_up(vault: Path) -> None:
    with open_mem(vault) as mem:
        part = library.ingest(mem.store, "claude-code", CLAUDE, SID, limit=3000)  # a hook's slice
        assert 0 < part.session.offset <= 3000 < CLAUDE.stat().st_size
        nxt = library.ingest(mem.store, "claude-code", CLAUDE, SID, limit=3000)  # the next call
        assert part.session.offset < nxt.session.offset <= part.session.offset + 3000
        done = compress_one(mem.store, SID)  # the rest is read before the note is written
        kept = [m.id for m in messages(library.raw_store(mem.store).paths("claude-code", SID)[1])]
        assert kept == [m.id for m in read("claude-code", CLAUDE).messages]
        assert done.session.offset == CLAUDE.stat().st_size
        assert "Let's use environment variables" in (vault / done.path).read_text()


def test_one_malformed_conversation_is_counted_and_the_import_goes_on(
        vault: Path, tmp_path: Path) -> None:
    """An export whose second conversation is malformed imports the good one (the control)
    and reports the bad one; a zip that would inflate past the limit is refused in one
    line, not inflated."""
    good = json.loads((DATA / "chatgpt_conversations.json").read_text())
    broken = {"id": "broken-1", "mapping": {"x": {"message": {"author": 7, "content": 3}}},
              "current_node": "x"}
    export = tmp_path / "conversations.json"
    export.write_text(json.dumps(good + [broken]))
    with open_mem(vault) as mem:
        report = library.import_sessions(mem.store, "chatgpt", export)
    assert report.sessions == 1 and len(report.failed) == 1
    assert report.failed[0].startswith(f"conversation {len(good) + 1} (broken-1): not read")
    bomb = tmp_path / "bomb.zip"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as z:
        with z.open("conversations.json", "w", force_zip64=True) as f:
            block = b" " * (1 << 24)
            for _ in range(chat_exports.MAX_EXPORT // len(block) + 1):
                f.write(block)
    with pytest.raises(BadInput, match="too large to read"):
        chat_exports.load(bomb)
    plain = tmp_path / "conversations.json"
    with plain.open("r+b") as f:
        f.truncate(chat_exports.MAX_EXPORT + 1)  # sparse: nothing written to disk
    with pytest.raises(BadInput, match="too large to read"):
        chat_exports.load(plain)


def test_ids_that_share_safe_letters_keep_their_own_files_and_messages(
        vault: Path, tmp_path: Path) -> None:
    """Conversation ids ``a/b`` and ``a:b`` are two sessions, not one file; messages an
    export gives without an id stay apart. Control: a safe id keeps its own name."""
    from aleph_mem.sessions.raw_store import file_name

    assert file_name("5f3c-uuid") == "5f3c-uuid"
    assert file_name("a/b") != file_name("a:b")
    assert "/" not in file_name("../../etc") and not file_name("../../etc").startswith(".")
    convs = json.loads((DATA / "claude_ai_conversations.json").read_text())
    first, second = json.loads(json.dumps(convs[0])), json.loads(json.dumps(convs[0]))
    first["uuid"], second["uuid"] = "a/b", "a:b"
    second["chat_messages"][1]["content"][0]["text"] = "Close them when frost is due."
    for m in first["chat_messages"]:
        del m["uuid"]
    export = tmp_path / "claude.json"
    export.write_text(json.dumps([first, second]))
    with open_mem(vault) as mem:
        report = library.import_sessions(mem.store, "claude-ai", export)
        assert (report.sessions, report.messages) == (2, 4)
        assert len(library.show(mem.store, "a/b").messages) == 2
        assert "frost" in library.show(mem.store, "a:b").messages[1].text


def test_a_transcript_is_read_in_bounded_pieces_to_the_same_messages(
        vault: Path, tmp_path: Path) -> None:
    """Without a deadline a transcript is read whole, but in pieces (2 KiB here, 256 MiB by
    default): the same messages as one read (the control), nothing twice; a Gemini file,
    one JSON document, is refused past its bound in one line instead of being read."""
    from aleph_mem.sessions.raw_store import RawStore

    one = RawStore(tmp_path / "a", "h").ingest("claude-code", CLAUDE)
    pieces = RawStore(tmp_path / "b", "h").ingest("claude-code", CLAUDE, piece=2048)
    whole = [m.id for m in messages(RawStore(tmp_path / "a", "h").paths(
        "claude-code", one.session.session_id)[1])]
    cut = [m.id for m in messages(RawStore(tmp_path / "b", "h").paths(
        "claude-code", pieces.session.session_id)[1])]
    assert CLAUDE.stat().st_size > 4 * 2048 and len(whole) > 5
    assert cut == whole and pieces.added == one.added == len(whole)
    assert pieces.session.offset == one.session.offset == CLAUDE.stat().st_size
    huge = tmp_path / "session-huge.json"
    with huge.open("wb") as f:
        f.truncate(300 << 20)  # sparse: 300 MiB on paper, nothing on disk
    with pytest.raises(BadInput, match="too large to read"):
        read("gemini", huge)


def test_a_dream_run_leaves_the_sessions_index_in_step(vault: Path) -> None:
    """Issue #32: the dream runner no longer calls the door's reindex back by dispatch;
    ``Memory.dream`` brings the captured sessions' index in step after its run, as the
    door's reconcile did before. The store's own rebuild (the control) does not."""
    with open_mem(vault) as mem:
        library.ingest(mem.store, "claude-code", CLAUDE, SID)
        captured = mem.sessions_state()  # what `status` reads: the index, no transcript
        mem.store.reindex(rebuild=True)  # the notes only: the sessions' index is empty now
        assert mem.sessions_state() != captured
        mem.dream(force=True)
        assert mem.sessions_state() == captured and captured["captured"] == 1


def test_an_imported_export_is_distilled_like_a_captured_session(vault: Path,
                                                               tmp_path: Path) -> None:
    """`sessions compress --all` after importing a ChatGPT or Claude export (as
    docs/agents.md shows) writes their notes; it once failed on "unknown client 'chatgpt'"
    reading the export as a transcript to catch up. The near miss: a Claude Code session
    beside them is distilled too."""
    import shutil
    import zipfile

    export = tmp_path / "chatgpt-export.zip"
    with zipfile.ZipFile(export, "w") as z:
        z.write(DATA / "chatgpt_conversations.json", "conversations.json")
    projects = tmp_path / "projects" / "-work-heron"
    projects.mkdir(parents=True)
    shutil.copy(DATA / "claude_code_session.jsonl", projects)
    for client, source in (("chatgpt", export), ("claude-ai",
                                                 DATA / "claude_ai_conversations.json"),
                           ("claude-code", tmp_path / "projects")):
        done = cli("sessions", "import", client, str(source), "--vault", str(vault))
        assert done.returncode == 0, done.stderr
    out = cli("sessions", "compress", "--all", "--vault", str(vault), check=False)
    assert out.returncode == 0, out.stderr
    listed = json.loads(cli("sessions", "list", "--vault", str(vault), "--json").stdout)
    assert {s["client"] for s in listed if s.get("note")} == {"chatgpt", "claude-ai",
                                                               "claude-code"}
