"""Real hook processes as a client calls them: start, prompt, capture, end; a hook never
fails its client."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

from conftest import open_mem
from session_helpers import CLAUDE, SID, cli, hook


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


def test_a_session_starts_with_the_projects_proven_procedures(vault: Path) -> None:
    """A session note's "Procedures that worked" reach the next session of its project;
    another project's (the control) do not."""
    for project, how in (("heron-api", "`pytest -p no:cacheprovider` worked where `pytest` "
                                        "failed"),
                         ("osprey", "`make dev` worked where `npm start` failed")):
        (vault / "sessions").mkdir(exist_ok=True)
        (vault / "sessions" / f"2026-11-20 {project}.md").write_text(
            f"---\ntype: session\nproject: {project}\nstarted: 2026-11-20T09:00:00Z\n---\n"
            f"# Work on {project}\n\n## Outcome\n\n- done\n\n## Procedures that worked\n\n"
            f"- {how}\n")
    with open_mem(vault) as mem:
        mem.reindex()
    got = hook(vault, "SessionStart", session_id="p1", cwd="/work/projects/heron-api")
    text = got["hookSpecificOutput"]["additionalContext"]
    assert "## Project heron-api: procedures that worked\n- `pytest -p no:cacheprovider` " \
        "worked where `pytest` failed" in text
    assert "make dev" not in text


def test_the_next_session_knows_of_the_last_before_its_note_is_written(
        vault: Path, tmp_path: Path) -> None:
    """A session captured but not yet distilled (its client stopped, never said it ended)
    is named at the next start of its project, with what it was asked; another project's
    start (the near miss) does not name it."""
    with open_mem(vault) as mem:
        mem.reindex()
    live = tmp_path / "t.jsonl"
    shutil.copy(CLAUDE, live)
    assert hook(vault, "Stop", session_id=SID, transcript_path=str(live),
                cwd="/work/projects/heron-api") is None
    text = hook(vault, "SessionStart", session_id="s2", cwd="/work/projects/heron-api")[
        "hookSpecificOutput"]["additionalContext"]
    block = text.split("## Project heron-api: last sessions")[1].split("\n\n")[0]
    assert "claude-code session (its note is not written yet), asked: The hero" in block
    other = hook(vault, "SessionStart", session_id="s3", cwd="/work/projects/osprey")[
        "hookSpecificOutput"]["additionalContext"]
    assert "not written yet" not in other


def test_a_session_ends_with_its_note_while_the_daemon_runs(vault: Path,
                                                          tmp_path: Path) -> None:
    """With a daemon running (its sessions job waits for the vault to be idle), a session
    that ends still has its note written at once, for the next session to start with."""
    import os
    import signal
    import subprocess
    import sys

    with open_mem(vault) as mem:
        mem.reindex()
    daemon = subprocess.Popen([sys.executable, "-m", "aleph_mem.cli", "--vault", str(vault),
                               "daemon"], stderr=subprocess.PIPE, text=True,
                              env={**os.environ, "ALEPH_MEM_EMBED_MODEL": "none"})
    try:
        daemon.stderr.readline()  # started: its watcher lock is held
        live = tmp_path / "t.jsonl"
        shutil.copy(CLAUDE, live)
        base = {"session_id": SID, "transcript_path": str(live),
                "cwd": "/work/projects/heron-api"}
        assert hook(vault, "SessionEnd", **base, reason="exit") is None
        note = None
        for _ in range(300):  # written by the hook's own detached process
            found = list((vault / "sessions").glob("*.md")) if (vault / "sessions").exists() \
                else []
            if found:
                note = found[0]
                break
            time.sleep(0.2)
        assert note is not None
    finally:
        daemon.send_signal(signal.SIGTERM)
        daemon.wait(timeout=60)
    text = hook(vault, "SessionStart", session_id="s2", cwd="/work/projects/heron-api")[
        "hookSpecificOutput"]["additionalContext"]
    assert note.stem in text and "not written yet" not in text


def test_a_procedures_count_moves_when_a_later_session_runs_it(vault: Path) -> None:
    """Each later session note of the project that ran the procedure's command moves its
    count (worked, or "(failed)" when it never worked there); the same command in another
    project, and a longer command that only starts the same, are near misses."""
    cmd = "pytest -p no:cacheprovider"

    def session(name: str, project: str, day: str, ran: list[str], proven: str = "") -> None:
        (vault / "sessions").mkdir(exist_ok=True)
        (vault / "sessions" / f"{name}.md").write_text(
            f"---\ntype: session\nproject: {project}\nstarted: {day}T09:00:00Z\n---\n"
            f"# {name}\n\n## Outcome\n\n- done\n\n"
            + (f"## Procedures that worked\n\n- {proven}\n\n" if proven else "")
            + "## Commands run\n\n" + "".join(f"- {r}\n" for r in ran))

    def line() -> str:
        got = hook(vault, "SessionStart", session_id="p1", cwd="/work/projects/heron-api")
        text = got["hookSpecificOutput"]["additionalContext"]
        block = text.split("## Project heron-api: procedures that worked\n")[1]
        return block.splitlines()[0]

    session("first", "heron-api", "2026-11-20", ["`pytest`", f"`{cmd}`"],
            f"`{cmd}` worked where `pytest` failed")
    session("elsewhere", "osprey", "2026-11-21", [f"`{cmd}`", f"`{cmd}` (failed)"])
    session("longer", "heron-api", "2026-11-21", [f"`{cmd} -x`"])
    with open_mem(vault) as mem:
        mem.reindex()
    assert line() == f"- `{cmd}` worked where `pytest` failed (worked in 1 session, failed in 0)"
    session("later", "heron-api", "2026-11-22", [f"`{cmd}` (failed)"])
    session("later still", "heron-api", "2026-11-23", ["`ls`", f"`{cmd}`"])
    with open_mem(vault) as mem:
        mem.reindex()
    assert line() == f"- `{cmd}` worked where `pytest` failed (worked in 2 sessions, failed in 1)"
