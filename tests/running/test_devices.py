"""Two devices, one vault: conflict copies made by a real sync engine (unison) and by git
are recognised, kept out of search, listed, and resolved only by a person's tick."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from conftest import open_mem, write

from aleph_mem.files.sync_conflicts import copy_of, has_markers

UNISON = shutil.which("unison")


def test_conflict_copy_names_of_each_engine_and_their_near_misses() -> None:
    assert copy_of("a/heron.sync-conflict-20261123-101500-ABCDEFG.md") == (
        "a/heron.md", "syncthing")
    assert copy_of("heron (conflict_on_2026-11-23).md") == ("heron.md", "unison")
    assert copy_of("x/heron (Ana's conflicted copy 2026-11-23).md") == (
        "x/heron.md", "conflicted copy")
    assert copy_of("heron (Conflicted copy iPhone 202611231015).md")[0] == "heron.md"
    assert copy_of("heron_conflict-20261123-101500.md") == ("heron.md", "nextcloud")
    for note in ("Ukraine (conflict).md", "Conflicted copy of the essay.md",
                 "heron (conflict on two fronts).md", "heron.sync-conflict.md",
                 "heron (conflict_on_2026-11-23).txt"):
        assert copy_of(note) is None, note
    assert has_markers("a\n<<<<<<< HEAD\nmine\n=======\ntheirs\n>>>>>>> other\n")
    assert not has_markers("```\n<<<<<<< HEAD\nx\n=======\ny\n>>>>>>> z\n```\n")
    assert not has_markers("Title\n=======\n\ntext\n")  # a setext heading underline


def unison(a: Path, b: Path, home: Path) -> None:
    subprocess.run([UNISON, str(a), str(b), "-batch", "-auto", "-copyonconflict", "-prefer",
                    "newer", "-ignore", "Path .aleph"], check=True, capture_output=True,
                   env={**os.environ, "HOME": str(home)}, timeout=60)


@pytest.mark.skipif(UNISON is None, reason="unison is not installed (.ci/run installs it)")
def test_a_unison_conflict_copy_is_listed_never_searched_and_resolved_by_a_tick(
        tmp_path: Path, vault: Path) -> None:
    other, home = tmp_path / "laptop", tmp_path / "home"
    other.mkdir(), home.mkdir()
    write(vault, "notes/heron.md", "# Heron\n\nThe heron nests by the north pond.\n")
    write(vault, "notes/Ukraine.md", "# Ukraine\n\nNotes on the war.\n")
    write(vault, "notes/Ukraine (conflict).md", "# Ukraine (conflict)\n\nA reading list.\n")
    unison(vault, other, home)
    write(vault, "notes/heron.md", "# Heron\n\nThe heron nests by the south pond.\n")
    os.utime(vault / "notes/heron.md", (1, 1))  # this device's save is the older one
    write(other, "notes/heron.md", "# Heron\n\nThe heron nests by the east pond.\nIt "
          "fishes at dawn.\n")
    unison(vault, other, home)
    copies = sorted(p.name for p in (vault / "notes").glob("heron (conflict_on_*).md"))
    assert len(copies) == 1, sorted(p.name for p in (vault / "notes").iterdir())
    copy = f"notes/{copies[0]}"
    # unison kept the newer save (the laptop's) and put this device's beside it
    assert "east pond" in (vault / "notes/heron.md").read_text()
    assert "south pond" in (vault / copy).read_text()
    with open_mem(vault) as mem:
        mem.reindex()
        assert [h.path for h in mem.search("heron pond").hits] == ["notes/heron.md"]
        assert mem.search("heron pond", filters=None, limit=5).hits[0].path == "notes/heron.md"
        problems = {p["path"]: p["reason"] for p in mem.status()["problems"]}
        assert problems[copy].startswith("sync conflict: a unison conflict copy of "
                                         "notes/heron.md")
        assert "notes/Ukraine (conflict).md" not in problems  # a note, not a copy
        assert mem.search("reading list").hits[0].path == "notes/Ukraine (conflict).md"
        report = mem.dream(force=True)
        assert "sync conflicts" in (vault / report.digest).read_text()
        page = vault / "_dream/proposals.md"  # the ways out wait on the proposals page
        digest = page.read_text()
        boxes = [ln for ln in digest.splitlines() if ln.startswith("- [ ] lint:")
                 and "conflict" in ln.lower() or (ln.startswith("- [ ] lint:")
                                                  and "[[notes/heron" in ln)]
        assert len(boxes) == 3
        assert report.applied == [] or all(a["path"] != "notes/heron.md"
                                           for a in report.applied)
        take = next(ln for ln in boxes if "take the conflict copy" in ln)
        page.write_text(digest.replace(take, "- [x]" + take[5:]))
        mem.reindex()
        done = mem.dream(force=True)
        mine = (vault / "notes/heron.md").read_text()
        assert "south pond" in mine and not (vault / copy).exists()
        assert (vault / "archive" / copy).exists()
        assert [h.path for h in mem.search("heron pond").hits] == ["notes/heron.md"]
        mem.undo(done.run_id)
    assert "east pond" in (vault / "notes/heron.md").read_text()  # undone
    assert (vault / copy).exists()


def test_git_conflict_markers_are_listed_with_both_sides_as_ways_out(vault: Path) -> None:
    git = shutil.which("git")
    if git is None:
        pytest.skip("git is not installed")
    env = {**os.environ, "GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@x",
           "GIT_COMMITTER_NAME": "a", "GIT_COMMITTER_EMAIL": "a@x"}

    def run(*args: str) -> None:
        subprocess.run([git, *args], cwd=vault, env=env, capture_output=True, timeout=60)

    run("init", "-q", "-b", "main")
    write(vault, "notes/heron.md", "# Heron\n\nThe heron nests by the north pond.\n")
    run("add", "-A"), run("commit", "-qm", "base")
    run("checkout", "-qb", "laptop")
    write(vault, "notes/heron.md", "# Heron\n\nThe heron nests by the east pond.\n")
    run("commit", "-qam", "laptop")
    run("checkout", "-q", "main")
    write(vault, "notes/heron.md", "# Heron\n\nThe heron nests by the south pond.\n")
    run("commit", "-qam", "desktop")
    run("merge", "laptop")
    text = (vault / "notes/heron.md").read_text()
    assert "<<<<<<<" in text
    with open_mem(vault) as mem:
        mem.reindex()
        assert [h.path for h in mem.search("heron east pond").hits] == ["notes/heron.md"]
        report = mem.dream(("lint", "digest"), force=True)
        ways = [p["what"] for p in report.proposed if "git conflict" in p["what"]]
        assert len(ways) == 3
        issues = [i for i in report.issues if i["rule"] == "L050"]
        assert [i["path"] for i in issues] == ["notes/heron.md"]
    assert (vault / "notes/heron.md").read_text() == text  # nothing chosen for the person


def test_a_copied_vault_gets_its_own_host_id_and_never_shares_an_event_file(
        tmp_path: Path, vault: Path, caplog) -> None:
    with open_mem(vault) as mem:
        mem.reindex()
        mem.store.writer(actor="cli").write("notes/a.md", b"# A\n\nfirst\n", None)
        first = mem.store.events.host
    copy = tmp_path / "copied"
    shutil.copytree(vault, copy, symlinks=True)  # cp -a: .aleph/local comes along
    with open_mem(copy) as mem:
        mem.store.writer(actor="cli").write("notes/b.md", b"# B\n\nsecond\n", None)
        second = mem.store.events.host
    assert second != first and "was copied from another machine or folder" in caplog.text
    with open_mem(vault) as mem:  # the original keeps its id
        mem.store.writer(actor="cli").write("notes/c.md", b"# C\n\nthird\n", None)
        assert mem.store.events.host == first
    hosts = {p.name for p in (copy / ".aleph" / "events").iterdir()}
    assert hosts == {first, second}  # one event file per device: nothing to conflict
    assert (copy / ".aleph/local/host-id").read_text().startswith(second)
    with open_mem(copy) as mem:  # `log` says which device logged each change
        assert [(e.path, e.host) for e in mem.log(limit=2)] == [
            ("notes/b.md", second), ("notes/a.md", first)]


def test_one_dreamer_per_vault_claimed_shown_and_taken_over(tmp_path: Path,
                                                            vault: Path) -> None:
    """Two devices with one synced vault (the lease file travels with the notes): only the
    dreamer dreams; the other says so and writes nothing, unless asked, or until the
    dreamer has been silent too long."""
    import datetime as dt

    from aleph_mem.dream.runner import Dream

    write(vault, "notes/a.md", "# A\n\nsome words\n")
    laptop = tmp_path / "laptop"
    shutil.copytree(vault, laptop, symlinks=True)
    shutil.rmtree(laptop / ".aleph" / "local")  # set up as docs/devices.md says
    now = dt.datetime.now(dt.UTC)
    with open_mem(vault) as desk:
        desk.reindex()
        first = Dream(desk.store, now, force=True).run()
        assert first.status == "success" and desk.dreamer()["this_device"] is True
        owner = desk.dreamer()["host"]
    shutil.copy(vault / ".aleph" / "dreamer.json", laptop / ".aleph" / "dreamer.json")  # sync
    before = {p: p.read_bytes() for p in laptop.rglob("*") if p.is_file()
              and ".aleph" not in p.parts}
    with open_mem(laptop) as lap:
        lap.reindex()
        other = Dream(lap.store, now + dt.timedelta(hours=1), force=True).run()
        assert other.status == "not the dreamer" and owner in other.note
        assert {p: p.read_bytes() for p in laptop.rglob("*") if p.is_file()
                and ".aleph" not in p.parts} == before  # nothing written, no digest
        assert lap.full_status()["dreamer"]["host"] == owner
        assert Dream(lap.store, now + dt.timedelta(hours=1), force=True, anyway=True).run(
            ).status == "success"  # once, by hand
        assert lap.dreamer()["host"] == owner  # the lease did not move
        late = Dream(lap.store, now + dt.timedelta(hours=49), force=True).run()  # silent 49 h
        assert late.status == "success" and lap.dreamer()["how"] == "taken over"
        assert lap.dreamer()["this_device"] is True


def test_a_synced_change_waits_for_its_event_and_a_persons_edit_is_logged_after(
        tmp_path: Path, vault: Path) -> None:
    """A note that arrives before the event file explaining it is not logged as this
    device's person's change; an edit nobody logged is, once the sync has settled."""
    write(vault, "notes/shared.md", "# Shared\n\nfirst version\n")
    with open_mem(vault) as desk:
        desk.reindex()
        desk.store.writer(actor="mcp:agent").write("notes/x.md", b"# X\n\nfrom the desktop\n", None)
        desk_host = desk.store.events.host
    laptop = tmp_path / "laptop"
    shutil.copytree(vault, laptop, symlinks=True)  # the first sync
    shutil.rmtree(laptop / ".aleph" / "local")
    (laptop / ".aleph" / "config.toml").write_text("sync_settle_seconds = 1\n")
    with open_mem(laptop) as lap:
        lap.reindex()
        lap_host = lap.store.events.host
    with open_mem(vault) as desk:  # the desktop's agent writes again; only the note syncs
        x = desk.show("notes/x.md")
        desk.store.writer(actor="mcp:agent").write("notes/x.md", b"# X\n\nsecond\n", x.hash)
        desk.store.writer(actor="mcp:agent").write("notes/y.md", b"# Y\n\ncreated there\n", None)
    shutil.copy(vault / "notes/x.md", laptop / "notes/x.md")
    shutil.copy(vault / "notes/y.md", laptop / "notes/y.md")  # a creation, before its event
    write(laptop, "notes/shared.md", "# Shared\n\nedited on the laptop\n")  # a person
    with open_mem(laptop) as lap:
        lap.reindex()
        assert [e for e in lap.log() if e.host == lap_host] == []  # both held
        for f in (vault / ".aleph" / "events" / desk_host).iterdir():  # the events arrive
            shutil.copy(f, laptop / ".aleph" / "events" / desk_host / f.name)
        time.sleep(1.2)
        lap.reindex()
        mine = [(e.path, e.kind, e.actor) for e in lap.log() if e.host == lap_host]
        theirs = [(e.path, e.kind) for e in lap.log("notes/y.md")]
    assert mine == [("notes/shared.md", "note-updated", "human")]  # x.md was the desktop's
    assert theirs == [("notes/y.md", "note-created")]  # logged once, by its own device


def test_the_older_copy_is_told_by_the_synced_history_not_by_file_times(vault: Path) -> None:
    """Which of two identical notes is kept does not depend on file times (a sync engine or
    a git checkout resets them): the one logged first is the older."""
    import datetime as dt

    from aleph_mem.dream.consolidate import plan_consolidate
    from aleph_mem.dream.snapshot import snapshot

    body = ("The ferry leaves the north pier at nine every morning and the tickets are "
            "sold on board only, cash or card, so arrive early.\n")
    with open_mem(vault) as mem:
        mem.reindex()
        w = mem.store.writer(actor="mcp:agent")
        w.write("a/Ferry.md", f"# Ferry\n\n{body}".encode(), None)  # logged first
        time.sleep(0.01)
        w.write("b/Ferry.md", f"# Ferry\n\n{body}".encode(), None)
        os.utime(vault / "a/Ferry.md", (2_000_000_000, 2_000_000_000))  # "newer" on disk
        os.utime(vault / "b/Ferry.md", (1_000_000_000, 1_000_000_000))
        planned = plan_consolidate(snapshot(mem.store, dt.datetime.now(dt.UTC)))
    archived = [a.path for a in planned if a.op == "archive"]
    assert archived == ["b/Ferry.md"]  # the later one goes, whatever the file times say


def test_a_note_ages_from_its_logged_change_not_its_arrival(tmp_path: Path) -> None:
    """Two devices see the same note: one wrote it, the other got it from the sync later
    (a newer file time). The dream's passes date it by the synced event on both; a note
    with no event at all dates from its own `created`, on both."""
    import datetime as dt
    import os
    import shutil

    from aleph_mem.dream.snapshot import snapshot
    from aleph_mem.install.new_vault import init_vault
    from aleph_mem.memory import Memory

    a = tmp_path / "a"
    init_vault(a)
    with Memory.open(a) as mem:
        mem.store.writer(actor="mcp:test").write("notes/heron.md", b"# Heron\n\nport 5432\n", None)
    (a / "notes" / "old.md").write_text("---\ncreated: 2024-02-03\n---\n# Old\n\ntext\n")
    b = tmp_path / "b"
    shutil.copytree(a, b, ignore=shutil.ignore_patterns("local", "index.db*"))
    later = (dt.datetime.now(dt.UTC) + dt.timedelta(days=3)).timestamp()
    for p in (b / "notes").iterdir():
        os.utime(p, (later, later))  # arrived by sync three days on
    seen = []
    for root in (a, b):
        with Memory.open(root) as mem:
            mem.reindex()
            snap = snapshot(mem.store, dt.datetime.now(dt.UTC) + dt.timedelta(days=4))
            seen.append((snap.notes["notes/heron.md"].changed_at,
                         snap.notes["notes/old.md"].changed_at))
    assert seen[0] == seen[1]
    assert seen[0][1] == dt.datetime(2024, 2, 3, tzinfo=dt.UTC)


def test_a_claim_on_a_shared_vault_waits_for_the_sync_before_dreaming(vault: Path) -> None:
    """Measured with two Syncthing instances (benchmarks/devices.py): two devices that
    claimed the lease in the same minute both dreamt, and the digest and the lease
    conflicted. A claim on a vault another device writes now waits for the sync to settle;
    the sync engine's copy of a crossing claim is removed."""
    import datetime as dt

    from aleph_mem.dream.runner import Dream

    write(vault, "notes/a.md", "# A\n\nsome words\n")
    (vault / ".aleph" / "events" / "desktop-1a2b3c4d").mkdir(parents=True)  # another device
    (vault / ".aleph" / "config.toml").write_text("sync_settle_seconds = 120\n")
    now = dt.datetime.now(dt.UTC)
    with open_mem(vault) as mem:
        mem.reindex()
        claim = Dream(mem.store, now, force=True).run()
        assert claim.status == "not the dreamer" and "claimed" in claim.note
        assert not (vault / "_dream" / "digests").exists() or not any(
            (vault / "_dream" / "digests").iterdir())
        crossing = vault / ".aleph" / "dreamer.sync-conflict-20261123-062216-I3SYZKF.json"
        crossing.write_text('{"host": "desktop-1a2b3c4d"}')
        early = Dream(mem.store, now + dt.timedelta(seconds=60), force=True).run()
        assert early.status == "not the dreamer" and not crossing.exists()
        later = Dream(mem.store, now + dt.timedelta(seconds=121), force=True).run()
        assert later.status == "success" and mem.dreamer()["this_device"] is True
    # a vault only this device writes dreams at once, as before (the control)
    solo = vault.parent / "solo"
    shutil.copytree(vault, solo, ignore=shutil.ignore_patterns("local", "events",
                                                               "dreamer.json", "index.db*"))
    with open_mem(solo) as mem:
        mem.reindex()
        assert Dream(mem.store, now, force=True).run().status == "success"
