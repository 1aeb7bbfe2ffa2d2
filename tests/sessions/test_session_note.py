"""Session notes: what a finished session's note holds, what it proposes, retention, and
where it is written."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import open_mem
from session_helpers import CLAUDE, CODEX, SID, cli

from aleph_mem.dream.journal import Journal
from aleph_mem.errors import BadInput
from aleph_mem.sessions import library
from aleph_mem.sessions.upkeep import compress_one


def test_session_note_from_structure(vault: Path) -> None:
    with open_mem(vault) as mem:
        library.ingest(mem.store, "claude-code", CLAUDE, SID, closed=True)
        done = compress_one(mem.store, SID[:8])
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
        # standing preferences join hot memory at once, as an agent's facts, logged
        hot = (vault / "MEMORY.md").read_text()
        assert "- [P3] I prefer that we always read the database port from DB_URL instead " \
            "of hard-coding it. (" in hot and "agent sessions:claude-code)" in hot
        assert "Let's use environment variables for every service address from now on." in hot
        assert not Journal(vault / ".aleph").proposals()
        assert {e.actor for e in mem.log(path="MEMORY.md")} == {"sessions:claude-code"}
        event = mem.log(path=done.path)[0]
        assert event.actor == "sessions:claude-code"
        # a second compress of an unchanged session writes nothing; a person's edit stays
        assert not compress_one(mem.store, SID).written
        (vault / done.path).write_text(text + "\nMy own remark.\n")
        mem.reindex()
        again = compress_one(mem.store, SID)
        assert not again.written and "edited" in again.why
        assert (vault / done.path).read_text().endswith("My own remark.\n")


def test_question_is_no_preference_and_known_facts_are_not_proposed(vault: Path,
                                                                     tmp_path: Path) -> None:
    with (vault / ".aleph" / "config.toml").open("a") as f:
        f.write("hot_memory_tick = true\n")  # every preference waits for a tick
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
        library.ingest(mem.store, "claude-code", t, "q1", closed=True)
        done = compress_one(mem.store, "q1")
        text = (vault / done.path).read_text()
    assert "squash" not in text.split("## Preferences stated")[1]
    reasons = [p["action"]["reason"] for p in Journal(vault / ".aleph").proposals().values()]
    assert len(reasons) == 1 and "tabs over spaces" in reasons[0]


def test_retention_counts_from_capture_and_keeps_by_default(vault: Path) -> None:
    """An imported year-old history is kept (by default always; with a retention set, for
    that many days from capture, not from its messages); a session without its note is
    kept whatever its age; its note stays."""
    import datetime as dt

    from aleph_mem.sessions.upkeep import prune

    with open_mem(vault) as mem:
        library.ingest(mem.store, "claude-code", CLAUDE, SID, closed=True)  # messages from 2026-11
        library.ingest(mem.store, "codex", CODEX)  # no note yet: kept whatever its age
        compress_one(mem.store, SID)
        year = dt.datetime.now(dt.UTC) + dt.timedelta(days=365)
        assert prune(mem.store, year) == []  # the default keeps every transcript
        assert prune(mem.store, dt.datetime.now(dt.UTC) + dt.timedelta(days=29), days=30) == []
        gone = prune(mem.store, dt.datetime.now(dt.UTC) + dt.timedelta(days=31), days=30)
        assert [s.session_id for s in gone] == [SID]
        assert [h.client for h in library.listing(mem.store)] == ["codex"]
        assert (vault / "sessions").exists()  # the note stays


def test_a_session_imported_again_keeps_its_one_note(vault: Path) -> None:
    """Its id decides: compressed, its transcript removed, imported and compressed again,
    it is one note (no "(2)"); another session of the same day gets its own (the control)."""
    import datetime as dt

    from aleph_mem.sessions.upkeep import prune

    with open_mem(vault) as mem:
        library.ingest(mem.store, "claude-code", CLAUDE, SID, closed=True)
        first = compress_one(mem.store, SID)
        prune(mem.store, dt.datetime.now(dt.UTC) + dt.timedelta(days=2), days=1)
        assert library.listing(mem.store) == []
        library.ingest(mem.store, "claude-code", CLAUDE, SID, closed=True)
        again = compress_one(mem.store, SID)
        other = library.ingest(mem.store, "claude-code", CLAUDE, "another-session", closed=True)
        second = compress_one(mem.store, other.session.session_id)
    assert again.path == first.path and not again.written  # the same bytes: unchanged
    assert second.path != first.path
    assert sorted(p.name for p in (vault / "sessions").rglob("*.md")) == sorted(
        {Path(first.path).name, Path(second.path).name})


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
        library.ingest(mem.store, "claude-code", t, closed=True)
        text = (vault / compress_one(mem.store, "rw").path).read_text()
    asked = text.split("## Asked")[1].split("##")[0]
    assert "Six by four metres" in asked and "Which seeds go in first?" in asked
    assert "Ten by ten" not in text and "four beds of clay" not in text
    assert "three beds, 1.2 m wide" in text
    assert "Peas and radishes go in first, in March." in text.split("## Outcome")[1]


def test_session_notes_are_records_not_orphans(vault: Path) -> None:
    (vault / "sessions").mkdir()
    (vault / "sessions" / "loose idea.md").write_text("# Loose idea\n\nNo links at all.\n")
    with open_mem(vault) as mem:
        library.ingest(mem.store, "claude-code", CLAUDE, SID, closed=True)
        note = compress_one(mem.store, SID).path
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
        library.ingest(mem.store, "claude-code", t, closed=True)
        view = mem.show(compress_one(mem.store, "h1").path)
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
        "stated": [
            {"text": "The person runs the heron-api CI.", "message": "a5",
             "quote": "the test database URL pointed"},  # the agent's words: dropped
            {"text": "Service addresses always come from environment variables.",
             "message": "u2",
             "quote": "use environment variables for every service address"}],  # kept
        "procedures": []})]
    with open_mem(vault) as mem:
        library.ingest(mem.store, "claude-code", CLAUDE, SID, closed=True)
        text = (vault / compress_one(mem.store, SID).path).read_text()
    assert "- Redis moved to an environment variable." in text
    assert "MySQL" not in text and "Port mismatch fixed" not in text
    assert "short answers" not in text and "- Read ports from DB_URL." in text
    assert "- Service addresses always come from environment variables." in text.split(
        "## States, goals and constraints stated")[1]
    assert "runs the heron-api CI" not in text
    hot = (vault / "MEMORY.md").read_text()  # a stated fact joins hot memory at once
    assert "Service addresses always come from environment variables." in hot
    prompt = stub_llm.requests[0]["messages"][1]["content"]
    assert prompt.startswith("<transcript>\n[u1] user: The heron-api tests fail")
    assert "subagent" not in prompt and "[s1]" not in prompt  # sub-agent lines stay out


def test_a_ticked_preference_joins_hot_memory_as_it_is_then(vault: Path) -> None:
    import datetime as dt

    from aleph_mem.dream.runner import Dream
    from aleph_mem.recall.hot_memory import remember

    with (vault / ".aleph" / "config.toml").open("a") as f:
        f.write("hot_memory_tick = true\n")
    with open_mem(vault) as mem:
        mem.reindex()
        library.ingest(mem.store, "claude-code", CLAUDE, SID, closed=True)
        compress_one(mem.store, SID)
        now = dt.datetime.now(dt.UTC)
        Dream(mem.store, now, force=True).run(("digest",))
        remember(mem.store, "The CI database is postgres 16", 2)  # hot memory moved on meanwhile
        digest = vault / "_dream" / "proposals.md"  # where the boxes wait
        text = digest.read_text()
        line = next(ln for ln in text.splitlines() if "I prefer that we always read" in ln)
        digest.write_text(text.replace(line, line.replace("- [ ]", "- [x]")))
        mem.reindex()
        Dream(mem.store, now + dt.timedelta(minutes=20), force=True).run(("digest",))
        hot = (vault / "MEMORY.md").read_text()
        assert "The CI database is postgres 16" in hot
        assert "- [P3] I prefer that we always read the database port from DB_URL instead " \
            "of hard-coding it." in hot
        assert "environment variables for every service" not in hot  # not ticked
        states = sorted(p["state"] for p in Journal(vault / ".aleph").proposals().values())
        assert states == ["applied", "open"]
        assert mem.log(path="MEMORY.md")[0].actor == "dream:sessions"


def test_a_session_captured_on_another_device_is_compressed_there(vault: Path) -> None:
    """With the raw folder synced, another device's session is listed here, but its raw
    files and their state are that device's: compressing it here is refused (nothing is
    written into this device's raw folder or the vault); this device's own still works."""
    with open_mem(vault) as mem:
        library.ingest(mem.store, "claude-code", CLAUDE, SID, closed=True)
        mine = vault / ".aleph" / "raw" / mem.store.events.host
        other = vault / ".aleph" / "raw" / "other-laptop"
        shutil.move(str(mine), str(other))
        for meta in other.glob("*/*.json"):
            body = json.loads(meta.read_text())
            meta.write_text(json.dumps({**body, "host": "other-laptop"}))
        before = sorted(p.relative_to(vault) for p in vault.rglob("*") if p.is_file()
                        and ".aleph" not in p.parts)
        with pytest.raises(BadInput, match="captured on other-laptop"):
            compress_one(mem.store, SID[:8])
        assert not mine.exists()
        assert sorted(p.relative_to(vault) for p in vault.rglob("*") if p.is_file()
                      and ".aleph" not in p.parts) == before
        library.ingest(mem.store, "claude-code", CLAUDE, SID + "-here", closed=True)
        assert compress_one(mem.store, SID + "-here").written


def test_the_outcome_says_what_changed(vault: Path) -> None:
    """Files written, the tests as they last ran, and the answer's first sentences with
    no dangling Markdown; identifiers keep their underscores."""
    from aleph_mem.sessions.raw_store import Session
    from aleph_mem.sessions.summary import _said, extract
    from aleph_mem.sessions.transcripts import read

    d = extract(read("claude-code", CLAUDE).messages,
                Session("claude-code", SID, "h", cwd="/work/projects/heron-api"))
    assert [text for text, _ in d.outcome][:2] == [
        "changed 2 files: `tests/conftest.py`, `src/heron/cache.py`",
        "ran `pytest tests/test_db.py -x -q`: passed"]  # it failed first, then passed
    assert "DB_URL" in d.outcome[-1][0]
    assert _said("**Caching** works now. Read DB_URL. More.") == "Caching works now. Read DB_URL."


def test_an_llm_reads_the_whole_session_in_slices_and_a_failure_is_tried_again(
        vault: Path, stub_llm, monkeypatch: pytest.MonkeyPatch) -> None:
    """A long session reaches the model in slices, its first part included (it used to get
    only the last 24,000 characters); a failed reading leaves the structure's note and the
    next run reads it again; a session read fine is not asked again (the control)."""
    from conftest import use_stub_llm

    from aleph_mem.sessions import llm_summary
    from aleph_mem.sessions.upkeep import compress_finished

    use_stub_llm(vault, stub_llm)
    monkeypatch.setattr(llm_summary, "TRANSCRIPT_CHARS", 600)  # a small slice: a long session
    with open_mem(vault) as mem:
        library.ingest(mem.store, "claude-code", CLAUDE, SID, closed=True)
        stub_llm.fail = 1
        first = compress_one(mem.store, SID)
        store = library.raw_store(mem.store)
        assert first.written and store.load(store.paths("claude-code", SID)[0]) \
            .enrich_failures == 1
        asked = len(stub_llm.requests)
        again = compress_finished(mem.store)  # tried again: every slice read this time
        parts = [r["messages"][1]["content"] for r in stub_llm.requests[asked:]]
        assert len(parts) > 1 and "(part 1 of" in parts[0] and "[u1]" in parts[0]
        assert [c.session.enrich_failures for c in again] == [0]
        assert compress_finished(mem.store) == []  # read whole: not asked again


def test_a_session_note_names_what_its_todo_list_left_open(vault: Path, tmp_path: Path) -> None:
    """The todo list as the session left it names the open items, not just a count; a list
    all done (the near miss) says so and names none."""
    lines = []
    for line in CLAUDE.read_text().splitlines():
        try:  # the fixture keeps a few damaged lines on purpose
            lines.append(json.loads(line))
        except ValueError:
            continue
    last = next(x for x in reversed(lines) if isinstance(x, dict) and x.get("uuid"))
    lines = [x for x in lines if isinstance(x, dict)]

    def todo_line(uuid: str, items: list[tuple[str, str]]) -> dict:
        todos = [{"content": what, "status": status, "activeForm": what} for what, status
                 in items]
        return {**last, "type": "assistant", "uuid": uuid, "parentUuid": last["uuid"],
                "message": {"id": f"msg_{uuid}", "type": "message", "role": "assistant",
                            "model": "claude-sonnet-4-5", "content": [
                                {"type": "tool_use", "id": f"toolu_{uuid}", "name": "TodoWrite",
                                 "input": {"todos": todos}}]}}

    for name, items in (("open", [("Find the port bug", "completed"),
                                  ("Add a regression test", "in_progress"),
                                  ("Update the \"CI\" docs", "pending")]),
                        ("done", [("Find the port bug", "completed")])):
        path = tmp_path / f"{name}.jsonl"
        sid = SID[:-4] + ("0001" if name == "open" else "0002")
        rows = [{**x, "sessionId": sid} for x in lines] + [
            {**todo_line("t9", items), "sessionId": sid}]
        path.write_text("\n".join(json.dumps(x) for x in rows) + "\n")
        with open_mem(vault) as mem:
            library.ingest(mem.store, "claude-code", path, sid, closed=True)
            text = (vault / compress_one(mem.store, sid[:8] if name == "open" else sid).path
                    ).read_text()
        if name == "open":
            assert ("todo list left with 1 of 3 done; still open: Add a regression test; "
                    "Update the \"CI\" docs") in text
        else:
            assert "todo list left with 1 of 1 done" in text and "still open" not in text


def test_a_session_note_links_its_project_and_the_notes_it_read(vault: Path,
                                                                tmp_path: Path) -> None:
    """A session note is no orphan: it links its project's note and the notes the session
    read through aleph-mem. Near misses: a read of a note the vault lacks, and a project
    without a note (no section at all)."""
    lines = []
    for line in CLAUDE.read_text().splitlines():
        try:
            lines.append(json.loads(line))
        except ValueError:
            continue
    lines = [x for x in lines if isinstance(x, dict)]
    last = next(x for x in reversed(lines) if x.get("uuid"))
    reads = [{**last, "type": "assistant", "uuid": f"r{i}", "parentUuid": last["uuid"],
              "message": {"id": f"msg_r{i}", "type": "message", "role": "assistant",
                          "model": "claude-sonnet-4-5", "content": [
                              {"type": "tool_use", "id": f"toolu_r{i}",
                               "name": "mcp__aleph-mem__read", "input": {"note": note}}]}}
             for i, note in enumerate(("Deploy runbook", "No such note"))]
    (vault / "projects").mkdir()
    (vault / "projects" / "heron-api.md").write_text("# heron-api\n\nthe service\n")
    (vault / "notes" / "Deploy runbook.md").write_text("# Deploy runbook\n\nsteps\n")
    with open_mem(vault) as mem:
        mem.reindex()
        path = tmp_path / "read.jsonl"
        path.write_text("\n".join(json.dumps(x) for x in lines + reads) + "\n")
        library.ingest(mem.store, "claude-code", path, SID, closed=True)
        text = (vault / compress_one(mem.store, SID[:8]).path).read_text()
    related = text.split("## Related notes\n\n")[1].split("\n\n")[0].splitlines()
    assert related == ["- [[projects/heron-api]]", "- [[notes/Deploy runbook]]"]
    (vault / "projects" / "heron-api.md").unlink()
    other = SID[:-4] + "0003"
    with open_mem(vault) as mem:
        mem.reindex()
        library.ingest(mem.store, "claude-code", CLAUDE, other, closed=True)
        text = (vault / compress_one(mem.store, other).path).read_text()
    assert "## Related notes" not in text


def test_a_session_that_only_read_says_what_it_read(vault: Path, tmp_path: Path) -> None:
    """A session that changed no file says which files it read (not just "nothing
    changed"); one that changed files (the near miss, the fixture as it is) says those."""
    rows = []
    for line in CLAUDE.read_text().splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if not isinstance(row, dict):
            continue
        content = (row.get("message") or {}).get("content")
        if isinstance(content, list):  # the edits taken out: a session of reading only
            content = [c for c in content if not (isinstance(c, dict) and c.get("name") in (
                "Edit", "Write", "MultiEdit"))]
            row = {**row, "message": {**row["message"], "content": content}}
        rows.append(row)
    path = tmp_path / "reading.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in rows) + "\n")
    with open_mem(vault) as mem:
        library.ingest(mem.store, "claude-code", path, SID, closed=True)
        text = (vault / compress_one(mem.store, SID[:8]).path).read_text()
    outcome = text.split("## Outcome\n\n")[1].split("\n\n")[0]
    assert outcome.startswith("- read 1 file: `") and "changed" not in outcome
    other = SID[:-4] + "0004"
    with open_mem(vault) as mem:
        library.ingest(mem.store, "claude-code", CLAUDE, other, closed=True)
        text = (vault / compress_one(mem.store, other).path).read_text()
    outcome = text.split("## Outcome\n\n")[1].split("\n\n")[0]
    assert outcome.startswith("- changed 2 files:") and "- read " not in outcome


def test_a_command_that_never_worked_is_marked_failed(vault: Path) -> None:
    """Codex's real rollout: the test run failed and was not fixed in the session (marked,
    so a later start counts it as a failure); the search that worked (the near miss) is not."""
    with open_mem(vault) as mem:
        r = library.ingest(mem.store, "codex", CODEX, closed=True)
        done = compress_one(mem.store, r.session.session_id)
        text = (vault / done.path).read_text()
    ran = text.split("## Commands run\n\n")[1].split("\n\n")[0].splitlines()
    assert ran == ["- `bash -lc rg -n retry src/kite/upload.py`",
                   "- `bash -lc pytest -q tests/test_upload.py` (failed)"]


def test_a_session_note_links_the_projects_session_before_it(vault: Path,
                                                            tmp_path: Path) -> None:
    """The next heron-api session links the real session before it; another project's
    session of the same day (the near miss) links no heron-api note."""
    def later(sid: str, cwd: str) -> Path:
        t = tmp_path / f"{sid}.jsonl"
        t.write_text(json.dumps({
            "type": "user", "uuid": f"{sid}-u", "sessionId": sid, "cwd": cwd,
            "timestamp": "2026-11-21T10:00:00Z",
            "message": {"role": "user", "content": "Add a retry to the cache client."}}) + "\n")
        return t

    with open_mem(vault) as mem:
        library.ingest(mem.store, "claude-code", CLAUDE, SID, closed=True)
        first = compress_one(mem.store, SID).path
        mem.reindex()
        for sid, cwd in (("n2", "/work/projects/heron-api"), ("o2", "/work/projects/osprey")):
            library.ingest(mem.store, "claude-code", later(sid, cwd), sid, closed=True)
        texts = {sid: (vault / compress_one(mem.store, sid).path).read_text()
                 for sid in ("n2", "o2")}
    assert f"## Related notes\n\n- [[{first[:-3]}]]" in texts["n2"]
    assert first[:-3] not in texts["o2"]


def test_a_real_sessions_note_leaves_out_ide_context_and_the_persons_refusals(
        vault: Path) -> None:
    """A real Claude Code session from an IDE: the file the IDE had open is not what was
    asked, and a tool call the person turned down is their choice, not an error; the edit
    that really failed (the near miss) stays under Errors."""
    from session_helpers import DATA

    real = DATA / "real" / "claude-code-jssoundrecorder.jsonl"
    with open_mem(vault) as mem:
        r = library.ingest(mem.store, "claude-code", real, closed=True)
        text = (vault / compress_one(mem.store, r.session.session_id).path).read_text()
    assert "ide_opened_file" not in text and "ide_selection" not in text
    assert "\n# OK, so this was just so you know what there is now" in text
    errors = text.split("## Errors and fixes\n\n")[1].split("\n\n")[0]
    assert "doesn't want to" not in errors
    assert "String to replace not found in file" in errors
    assert "Let me provide you with a summary" not in text  # a summary's run-on, no decision


def test_the_clients_summary_is_kept_whole_when_the_title_cuts_it(vault: Path,
                                                                  tmp_path: Path) -> None:
    long = ("Fixed heron-api CI postgres port; service addresses from env; the redis client "
            "reads REDIS_URL and the flaky cache test waits for its container to listen")
    t = tmp_path / "long.jsonl"
    t.write_text(CLAUDE.read_text().replace(
        '"summary": "Fixed heron-api CI postgres port; service addresses from env"',
        json.dumps({"summary": long})[1:-1]))
    with open_mem(vault) as mem:
        library.ingest(mem.store, "claude-code", t, "long-1", closed=True)
        whole = (vault / compress_one(mem.store, "long-1").path).read_text()
        library.ingest(mem.store, "claude-code", CLAUDE, SID, closed=True)
        short = (vault / compress_one(mem.store, SID).path).read_text()
    assert f"## Outcome\n\n- the client's summary: {long}\n" in whole
    assert "the client's summary" not in short  # its title says it all (the near miss)


def test_a_fix_a_second_project_meets_is_promoted_person_wide(vault: Path,
                                                              tmp_path: Path) -> None:
    """The real heron-api session's postgres error and its fix, met again in another
    project, reaches one person-wide note linking both sessions; the same error in the
    same project again, and Codex's unresolved test failure, are near misses."""
    def copy(sid: str, project: str) -> Path:
        t = tmp_path / f"{sid}.jsonl"
        t.write_text(CLAUDE.read_text().replace("/work/projects/heron-api",
                                                f"/work/projects/{project}")
                     .replace("2026-11-20T", "2026-11-22T"))
        return t

    with open_mem(vault) as mem:
        library.ingest(mem.store, "claude-code", CLAUDE, SID, closed=True)
        first = compress_one(mem.store, SID).path
        library.ingest(mem.store, "claude-code", copy("same-1", "heron-api"), "same-1",
                       closed=True)
        same = compress_one(mem.store, "same-1").path
        across = vault / "sessions" / "Across projects.md"
        assert not across.exists()  # one project, twice: nothing learned across projects
        r = library.ingest(mem.store, "codex", CODEX, closed=True)
        compress_one(mem.store, r.session.session_id)
        assert not across.exists()
        library.ingest(mem.store, "claude-code", copy("osprey-1", "osprey"), "osprey-1",
                       closed=True)
        second = compress_one(mem.store, "osprey-1").path
        text = across.read_text()
        assert mem.log(path="sessions/Across projects.md")[0].actor == "sessions:claude-code"
    fixes = [ln for ln in text.splitlines() if ln.startswith("- fix, ")]
    assert len(fixes) == 1
    assert f"met in osprey ([[{second[:-3]}]]) and heron-api" in fixes[0]
    assert "psycopg.OperationalError" in fixes[0] and "→ Fixed:" in fixes[0]
    assert any(f"and heron-api ([[{p[:-3]}]])" in fixes[0] for p in (first, same))
