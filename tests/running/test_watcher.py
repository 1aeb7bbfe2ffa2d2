"""The watcher with real files and a real observer (inotify, and polling)."""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import open_mem, write

from aleph_mem.errors import WatcherRunning
from aleph_mem.files.locks import watcher_lock
from aleph_mem.memory import Memory
from aleph_mem.running.watcher import Watcher


def until(cond: Callable[[], object], timeout: float = 8.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return
        time.sleep(0.05)
    raise AssertionError("condition not met in time")


@pytest.fixture(params=["inotify", "polling"])
def watched(request, vault: Path):
    mem = Memory.open(vault)
    w = Watcher(mem, polling=request.param == "polling")
    w.start()
    reader = open_mem(vault)
    yield vault, w, reader
    w.stop()
    reader.close()
    mem.close()


def paths(reader: Memory, word: str) -> list[str]:
    return [h.path for h in reader.search(word).hits]


def human(reader: Memory) -> list[tuple[str, str, str | None]]:
    return [(e.kind, e.path, e.data.get("from")) for e in reversed(reader.log(actor="human"))]


def settle(w: Watcher) -> None:
    time.sleep(2.5 if w.polling else 0.3)
    assert w.wait_idle()


def test_editor_save_patterns_become_one_update(watched) -> None:
    root, w, reader = watched
    note = root / "notes" / "n.md"
    write(root, "notes/n.md", "first version alpha\n")
    until(lambda: paths(reader, "alpha") == ["notes/n.md"])
    # atomic save: temp file + rename (VS Code, Obsidian)
    tmp = root / "notes" / ".n.md.tmp123"
    tmp.write_text("second version bravo\n")
    os.replace(tmp, note)
    until(lambda: paths(reader, "bravo") == ["notes/n.md"])
    # vim: rename to backup, write new, delete backup; swap files around it
    (root / "notes" / ".n.md.swp").write_bytes(b"swap")
    os.rename(note, root / "notes" / "n.md~")
    note.write_text("third version charlie\n")
    (root / "notes" / "n.md~").unlink()
    (root / "notes" / "4913").write_bytes(b"")
    until(lambda: paths(reader, "charlie") == ["notes/n.md"])
    settle(w)
    kinds = human(reader)
    assert kinds[0] == ("note-created", "notes/n.md", None)
    assert set(kinds[1:]) == {("note-updated", "notes/n.md", None)}
    assert reader.status()["counts"]["notes"] == 3  # Welcome, MEMORY, n: no temp files


def test_renames_deletes_and_new_folders(watched) -> None:
    root, w, reader = watched
    write(root, "a.md", "rename chain delta\n")
    until(lambda: paths(reader, "delta") == ["a.md"])
    os.rename(root / "a.md", root / "b.md")
    os.rename(root / "b.md", root / "c.md")
    until(lambda: paths(reader, "delta") == ["c.md"])
    (root / "c.md").unlink()
    until(lambda: paths(reader, "delta") == [])
    write(root, "deep/new/folder/x.md", "nested echo\n")
    until(lambda: paths(reader, "echo") == ["deep/new/folder/x.md"])
    os.rename(root / "deep", root / "moved")
    until(lambda: paths(reader, "echo") == ["moved/new/folder/x.md"])
    write(root, "moved/new/folder/y.md", "inside the renamed folder kilo\n")
    until(lambda: paths(reader, "kilo") == ["moved/new/folder/y.md"])
    write(root, "deep/again.md", "the old name reused lima\n")
    until(lambda: paths(reader, "lima") == ["deep/again.md"])
    write(root, ".obsidian/workspace.md", "hidden foxtrot\n")
    write(root, "c.md", "recreated golf\n")
    until(lambda: paths(reader, "golf") == ["c.md"])
    assert paths(reader, "foxtrot") == []


def test_own_writes_are_not_counted_as_human(watched) -> None:
    root, w, reader = watched
    writer_mem = open_mem(root)
    r = writer_mem.store.writer().write("agent.md", b"written by aleph hotel\n", None)
    writer_mem.store.writer().write("agent.md", b"again india\n", r.hash)
    writer_mem.close()
    settle(w)
    assert paths(reader, "india") == ["agent.md"]
    assert human(reader) == []


def test_changes_while_down_are_reconciled_on_start(vault: Path) -> None:
    mem = Memory.open(vault)
    mem.reindex()
    write(vault, "offline.md", "made while nobody watched juliet\n")
    (vault / "MEMORY.md").unlink()
    w = Watcher(mem)
    w.start()
    try:
        assert [h.path for h in mem.search("juliet").hits] == ["offline.md"]
        assert {(e.kind, e.path) for e in mem.log(actor="human")} == {
            ("note-created", "offline.md"), ("note-deleted", "MEMORY.md")}
    finally:
        w.stop()
        mem.close()


def test_one_watcher_per_vault(vault: Path) -> None:
    with watcher_lock(vault / ".aleph" / "local"):
        with pytest.raises(WatcherRunning, match=f"pid {os.getpid()}"):
            with watcher_lock(vault / ".aleph" / "local"):
                pass
    with watcher_lock(vault / ".aleph" / "local"):  # released: the next one takes it
        pass


def test_daemon_process_status_stale_lock_and_sigterm(vault: Path) -> None:
    cmd = [sys.executable, "-m", "aleph_mem.cli", "--vault", str(vault), "daemon"]
    first = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True)
    status = vault / ".aleph" / "local" / "daemon.json"
    until(lambda: status.exists() and json.loads(status.read_text())["state"] == "running")
    second = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
    assert second.returncode == 1 and "another watcher" in second.stderr
    first.send_signal(signal.SIGKILL)  # killed: its lock dies with it
    first.wait()
    third = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True)
    until(lambda: json.loads(status.read_text()).get("pid") == third.pid)
    out = subprocess.run([sys.executable, "-m", "aleph_mem.cli", "--vault", str(vault),
                          "status", "--json"], capture_output=True, text=True, timeout=30)
    daemon = json.loads(out.stdout)["daemon"]
    assert daemon["state"] == "running" and daemon["pid"] == third.pid
    assert set(daemon) >= {"running_since", "last_event_at", "queue", "idle_for_s", "next_run"}
    third.send_signal(signal.SIGTERM)
    assert third.wait(timeout=30) == 0
    assert json.loads(status.read_text())["state"] == "stopped"


def test_a_terminal_search_borrows_the_running_daemons_model(vault: Path) -> None:
    """With the daemon running, a hybrid search in another process embeds its query
    through the daemon's warm model (a socket only this user can open) and loads none."""
    (vault / ".aleph" / "config.toml").write_text("")  # the bundled model
    write(vault, "notes/ferry.md", "# Ferry\n\nThe boat to the island leaves at nine.\n")
    write(vault, "notes/bread.md", "# Bread\n\nSourdough needs a starter and patience.\n")
    cli = [sys.executable, "-m", "aleph_mem.cli", "--vault", str(vault)]
    subprocess.run([*cli, "index", "--embed"], check=True, capture_output=True, timeout=120)
    daemon = subprocess.Popen([*cli, "daemon"], stderr=subprocess.PIPE, text=True)
    status = vault / ".aleph" / "local" / "daemon.json"
    try:
        until(lambda: status.exists() and json.loads(status.read_text()).get("embed_socket"),
              timeout=30)
        sock = Path(json.loads(status.read_text())["embed_socket"])
        assert stat.S_IMODE(sock.stat().st_mode) == 0o600
        with Memory.open(vault) as mem:
            found = mem.search("when does the ship sail", mode="vector")
            assert found.hits[0].path == "notes/ferry.md" and "full-text" not in found.notice
            assert mem.store.model_slot.tried is False  # no model loaded in this process
    finally:
        daemon.send_signal(signal.SIGTERM)
        assert daemon.wait(timeout=60) == 0
    said = daemon.stderr.read().splitlines()
    me = str(Path(sys.executable).with_name("aleph-mem"))  # not on the PATH here, maybe
    me = "aleph-mem" if shutil.which("aleph-mem") == me else me
    assert said[0] == (f"aleph-mem daemon watching {vault}: 4 notes, vectors for all "
                       f"{said[0].split('vectors for all ')[1].split(' ')[0]} chunks; terminal "
                       f"searches borrow its model. Agents connect with `{me} --vault "
                       f"{vault} mcp` (docs/mcp.md); their sessions become notes with "
                       f"`{me} --vault {vault} hooks install CLIENT` (docs/agents.md). Ctrl-C "
                       "stops it.")
    assert len(said) == 1  # then quiet (no scheduler chatter without -v)
    assert not sock.exists()
    with Memory.open(vault) as mem:  # no daemon: the search loads the model itself
        assert mem.search("when does the ship sail", mode="vector").hits[0].path == "notes/ferry.md"
        assert mem.store.model_slot.tried is True


def test_the_daemon_gives_the_cores_back_when_a_person_is_active(vault: Path) -> None:
    """The embedding backlog uses every core only while the vault is idle; a person at
    work (any aleph-mem activity) gets them back. `status` learns the rate and time left."""
    from aleph_mem.embed.pool import cores
    from aleph_mem.files import activity
    from aleph_mem.running.daemon import Daemon

    with open_mem(vault) as mem:
        d = Daemon(mem, scheduler=False)
        activity.touch(mem.vault.local_dir, "human")
        assert d.free_cores() == 1
        assert d.free_cores(running=0, load=0.0) == 1  # active: one, however quiet
        an_hour_ago = dt.datetime.now(dt.UTC) - dt.timedelta(hours=1)
        activity.touch(mem.vault.local_dir, "human", now=an_hour_ago)
        # idle: the load of its own workers is not someone else's; another busy core is
        n = cores()
        if n >= 2:
            assert d.free_cores(running=2, load=2.3) == n
            assert d.free_cores(running=1, load=1.1) == n
            assert d.free_cores(running=2, load=3.2) == n - 1
        report = d._embedding(None)
        report(0, 100)
        time.sleep(0.05)
        report(40, 100)
        assert d.embedding["done"] == 40 and d.embedding["of"] == 100
        assert d.embedding["per_s"] > 0 and d.embedding["minutes_left"] >= 0


def test_a_sync_engines_rename_waits_and_an_editors_save_is_logged_at_once(
        vault: Path) -> None:
    """On a vault another device writes: a note a sync engine renamed into place waits for
    the other device's event; a note the person saved here is this device's at once
    (with two Syncthing instances, both devices held their own edits, and at the end of the
    wait logged each other's as their own)."""
    (vault / ".aleph" / "events" / "desktop-1a2b3c4d").mkdir(parents=True)
    (vault / ".aleph" / "config.toml").write_text("sync_settle_seconds = 120\n")
    mem = Memory.open(vault)
    w = Watcher(mem)  # inotify: it reports the name a file was renamed from
    w.start()
    try:
        (vault / "notes").mkdir(exist_ok=True)
        tmp = vault / "notes" / ".mine.md.tmp"  # an editor's own temp file
        tmp.write_text("# Mine\n\nwritten here\n")
        os.replace(tmp, vault / "notes" / "mine.md")
        synced = vault / "notes" / ".syncthing.theirs.md.tmp"
        synced.write_text("# Theirs\n\nwritten on the desktop\n")
        os.replace(synced, vault / "notes" / "theirs.md")
        reader = open_mem(vault)
        until(lambda: reader.search("written desktop", mode="fts").hits and reader.log(
            path="notes/mine.md"))
        assert [e.actor for e in reader.log(path="notes/mine.md")] == ["human"]
        assert reader.log(path="notes/theirs.md") == []  # held for the other's event
        held = json.loads((vault / ".aleph" / "local" / "held-changes.json").read_text())
        assert list(held) == ["notes/theirs.md"]
    finally:
        w.stop()


def test_status_says_when_an_idle_job_will_really_run(vault: Path) -> None:
    """The sessions job waits for the vault to be idle: right after activity its next run
    is idle_minutes away, not its next 5-minute tick; the reconcile (no idle rule, the near
    miss) stays at its tick."""
    from aleph_mem.clock import parse_iso, utc_now
    from aleph_mem.files import activity
    from aleph_mem.memory import Memory
    from aleph_mem.running.daemon import Daemon

    with Memory.open(vault) as mem:
        activity.touch(mem.vault.local_dir, "cli")
        runs = Daemon(mem).next_runs()
        wait = (parse_iso(runs["sessions"]) - utc_now()).total_seconds()
        assert mem.settings.idle_minutes * 60 - 30 < wait <= mem.settings.idle_minutes * 60
        tick = (parse_iso(runs["reconcile"]) - utc_now()).total_seconds()
        assert tick <= mem.settings.reconcile_minutes * 60
