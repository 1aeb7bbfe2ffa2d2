"""History that survives a kill (#36): `aleph-mem index` and the daemon killed with SIGKILL
in the middle of a reconcile of a few thousand notes changed outside aleph-mem, then
started again, log every change exactly once; so does an index that is rebuilt, deleted or
damaged while notes were edited offline.

Kill points are chosen by what the killed process has done (rows committed to the index,
lines appended to the log), read from its files, never by sleeping."""

from __future__ import annotations

import datetime as dt
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import open_mem, write

from aleph_mem.clock import iso, parse_iso
from aleph_mem.files.vault import content_hash
from aleph_mem.install.new_vault import init_vault
from aleph_mem.writes.versions import at_time

NOTES = 3000  # half of them logged before (a person's earlier edit), half never logged
UNTOUCHED = 40  # the near-miss: notes not changed, which must gain no event
ENV = {**os.environ, "ALEPH_MEM_EMBED_MODEL": "none"}


def cli(root: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "aleph_mem.cli", "--vault", str(root), *args]


def note(i: int) -> str:
    return f"notes/{i % 20}/n{i}.md"


def run(root: Path, *args: str) -> None:
    out = subprocess.run(cli(root, *args), capture_output=True, text=True, env=ENV,
                         timeout=600)
    assert out.returncode == 0, out.stderr


def text(i: int, version: int) -> str:
    return f"# Note {i}\n\nversion {version} of note {i} [[n{(i + 1) % NOTES}]]\n"


def vault_edited_outside(root: Path) -> dict[str, tuple[str, str]]:
    """A vault indexed once (its baseline), half of its notes edited and logged, then every
    changed note edited again outside aleph-mem: path -> (the logged hash, the new hash)."""
    init_vault(root)
    for i in range(NOTES + UNTOUCHED):
        write(root, note(i), text(i, 0))
    run(root, "index")
    for i in range(0, NOTES, 2):
        write(root, note(i), text(i, 1))
    run(root, "index")
    out = {}
    for i in range(NOTES):
        old = content_hash((root / note(i)).read_bytes())
        write(root, note(i), text(i, 2))
        out[note(i)] = (old, content_hash(text(i, 2).encode()))
    return out


def until(done: Callable[[], bool], proc: subprocess.Popen) -> None:
    """Wait until ``done`` (polled), or the process has ended (it finished first)."""
    deadline = time.monotonic() + 300
    while not done() and proc.poll() is None:
        assert time.monotonic() < deadline, "the kill point was never reached"
        time.sleep(0.005)


def indexed_new(root: Path, changed: dict[str, tuple[str, str]]) -> int:
    """How many notes the index already holds in their new version (committed rows)."""
    new = [h for _, h in changed.values()]
    try:
        con = sqlite3.connect(f"file:{root / '.aleph' / 'index.db'}?mode=ro", uri=True,
                              timeout=0.05)
        try:
            marks = ",".join("?" * len(new))
            return con.execute(f"SELECT count(*) FROM notes WHERE hash IN ({marks})",
                               new).fetchone()[0]
        finally:
            con.close()
    except sqlite3.OperationalError:  # busy at this instant: not yet
        return 0


def logged_lines(root: Path) -> int:
    return sum(p.read_bytes().count(b"\n")
               for p in (root / ".aleph" / "events").glob("*/*.jsonl"))


def kill_when(proc: subprocess.Popen, done: Callable[[], bool]) -> None:
    until(done, proc)
    proc.send_signal(signal.SIGKILL)
    proc.wait()


def assert_logged_once(root: Path, changed: dict[str, tuple[str, str]]) -> None:
    """Every changed note has exactly one event, from its logged version to its new one;
    the untouched notes none; `as_of` and undo see the change."""
    with open_mem(root) as mem:
        rows = mem.store.con.execute("SELECT id, at, path, before, after FROM events WHERE "
                               "kind = 'note-updated' AND actor = 'human'").fetchall()
        new = {}
        for eid, at, path, before, after in rows:
            if path in changed and after == changed[path][1]:
                assert path not in new, f"{path} logged twice"
                new[path] = (eid, at, before)
        assert {p: b for p, (_, _, b) in new.items()} == {
            p: old for p, (old, _) in changed.items()}
        untouched = {note(i) for i in range(NOTES, NOTES + UNTOUCHED)}
        assert not [r for r in mem.store.con.execute("SELECT path FROM events").fetchall()
                    if r[0] in untouched]
        for path in (note(0), note(1)):  # one note logged before, one never logged
            eid, at, _ = new[path]
            just_before = iso(parse_iso(at) - dt.timedelta(milliseconds=1))
            assert at_time(mem.store.con, path, just_before).hash == changed[path][0]
            now = at_time(mem.store.con, path, at)
            assert (now.hash, now.event) == (changed[path][1], eid)
            report = mem.undo(eid)
            assert report.undone == [eid] and not report.refused
            assert content_hash((root / path).read_bytes()) == changed[path][0]


@pytest.mark.parametrize("point", ["first index batch", "half the index", "first event",
                                   "half the events"])
def test_index_killed_mid_reconcile_logs_every_change_once(tmp_path: Path, point: str) -> None:
    root = tmp_path / "vault"
    changed = vault_edited_outside(root)
    start = logged_lines(root)
    when = {"first index batch": lambda: indexed_new(root, changed) >= 1,
            "half the index": lambda: indexed_new(root, changed) >= NOTES // 2,
            "first event": lambda: logged_lines(root) > start,
            "half the events": lambda: logged_lines(root) >= start + NOTES // 2}[point]
    kill_when(subprocess.Popen(cli(root, "index"), env=ENV, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL), when)
    run(root, "index")
    run(root, "index")  # and once more: nothing new
    assert_logged_once(root, changed)


def test_daemon_killed_in_its_start_reconcile_logs_every_change_once(tmp_path: Path) -> None:
    root = tmp_path / "vault"
    changed = vault_edited_outside(root)
    kill_when(subprocess.Popen(cli(root, "daemon"), env=ENV, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL),
              lambda: indexed_new(root, changed) >= 1)
    daemon = subprocess.Popen(cli(root, "daemon"), env=ENV, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    try:  # the restarted daemon's own start reconcile recovers what the kill left
        status = root / ".aleph" / "local" / "daemon.json"
        until(lambda: status.exists() and json.loads(status.read_bytes()).get("pid")
              == daemon.pid, daemon)  # it says so once its start reconcile is done
    finally:
        daemon.send_signal(signal.SIGTERM)
        assert daemon.wait(timeout=120) == 0
    assert_logged_once(root, changed)


@pytest.mark.parametrize("how", ["rebuild", "deleted", "damaged"])
def test_offline_edits_are_logged_once_after_the_index_is_lost(vault: Path, how: str) -> None:
    write(vault, "never.md", "# Never\n\nnever logged\n")
    write(vault, "logged.md", "# Logged\n\nfirst\n")
    write(vault, "same.md", "# Same\n\nunchanged\n")  # the near-miss: no event
    run(vault, "index")
    write(vault, "logged.md", "# Logged\n\nsecond\n")
    run(vault, "index")
    before = {p: content_hash((vault / p).read_bytes()) for p in ("never.md", "logged.md")}
    write(vault, "never.md", "# Never\n\nedited offline\n")
    write(vault, "logged.md", "# Logged\n\nedited offline\n")
    write(vault, "new.md", "# New\n\ncreated offline\n")
    index = vault / ".aleph" / "index.db"
    if how == "deleted":
        for p in vault.joinpath(".aleph").glob("index.db*"):
            p.unlink()
    elif how == "damaged":
        index.write_bytes(b"this is not a database" * 100)
    run(vault, "index", *(["--rebuild"] if how == "rebuild" else []))
    run(vault, "index", "--rebuild")  # rebuilt again with nothing changed: nothing new
    with open_mem(vault) as mem:
        rows = mem.store.con.execute("SELECT kind, path, before, after FROM events WHERE "
                               "actor = 'human' ORDER BY id").fetchall()
    now = {p: content_hash((vault / p).read_bytes()) for p in ("never.md", "logged.md",
                                                               "new.md")}
    assert sorted(rows[1:]) == [  # the first: logged.md's logged edit
        ("note-created", "new.md", None, now["new.md"]),
        ("note-updated", "logged.md", before["logged.md"], now["logged.md"]),
        ("note-updated", "never.md", before["never.md"], now["never.md"]),
    ]
