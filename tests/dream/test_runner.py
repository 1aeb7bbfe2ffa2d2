"""A dream run on real files: what it changes, what it proposes, and its safety rules
(docs/design.md 4 and 6): determinism, compare-and-swap, undo, pre-emption, the day's
run, the lock, ownership."""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path

import pytest
from conftest import open_mem, write
from dream_helpers import NOW, SAME, agent_vault, snap_files

from aleph_mem.dream import drift
from aleph_mem.dream.journal import Journal
from aleph_mem.dream.judge import Judge
from aleph_mem.dream.registry import PassContext, RunReport
from aleph_mem.dream.runner import Dream
from aleph_mem.dream.schedule import dream_due, in_window
from aleph_mem.dream.snapshot import snapshot
from aleph_mem.files import activity
from aleph_mem.plugins import dream_passes
from aleph_mem.running.watcher import Watcher


def test_daily_run_changes_agent_notes_and_a_second_run_changes_nothing(vault: Path) -> None:
    mem = agent_vault(vault)
    report = Dream(mem.store, NOW, force=True).run()
    assert report.status == "success" and report.proposed == []
    done = sorted((a["pass"], a["path"]) for a in report.applied)
    assert done == [("consolidate", "archive/notes/two.md"), ("consolidate", "notes/one.md"),
                    ("drift", "notes/new.md"), ("drift", "notes/old.md"),
                    ("drift", "notes/replaced.md"),
                    ("lint", "notes/new.md"), ("lint", "notes/old.md"), ("lint", "notes/one.md"),
                    ("lint", "notes/replaced.md")]
    one = mem.show("notes/one").frontmatter
    # created: when the note was first written (its file time or first event), not the run
    first = dt.datetime.fromisoformat(mem.log(path="notes/one.md")[-1].at.replace("Z", "+00:00"))
    created = dt.datetime.fromisoformat(one.pop("created").replace("Z", "+00:00"))
    assert abs((created - first).total_seconds()) < 2
    assert one == {"tags": ["a", "b", "c"], "aliases": ["Harbour copy"],
                   "source_notes": ["[[notes/two]]"], "category": "notes"}
    two = mem.show("archive/notes/two.md").frontmatter
    assert (two["status"], two["merged_into"]) == ("merged", "[[notes/one]]")
    old = mem.show("notes/old").frontmatter
    assert (old["status"], old["stale_reason"], "stale_refs" in old) == (
        "stale", "expired", False)  # its missing image is a broken link, not a stale fact
    assert mem.show("notes/replaced").frontmatter["status"] == "superseded"
    # the absorbed title became an alias: links to it keep resolving
    assert [lv.resolved for lv in mem.show("notes/old").links][:2] == ["notes/one.md"] * 2
    digest = (vault / report.digest).read_text()
    assert "## What the dream changed" in digest and f"aleph-mem undo {report.run_id}" in digest
    assert "```mermaid" in digest
    before = snap_files(vault)
    again = Dream(mem.store, NOW, force=True).run()
    assert (again.applied, again.proposed, again.digest) == ([], [], None)
    assert snap_files(vault) == before
    mem.close()


def test_same_vault_and_clock_give_the_same_plan(vault: Path, tmp_path: Path) -> None:
    plans = []
    for name in ("a", "b"):
        root = tmp_path / name
        root.mkdir()
        import shutil

        shutil.copytree(vault, root, dirs_exist_ok=True)
        mem = agent_vault(root)
        # the same vault: the same files with the same file times (lint dates from them)
        stamp = dt.datetime(2026, 1, 2, 3, 4, 5, tzinfo=dt.UTC).timestamp()
        for p in root.rglob("*.md"):
            os.utime(p, (stamp, stamp))
        plans.append(Dream(mem.store, NOW, dry_run=True, force=True).run().plan)
        mem.close()
    assert plans[0] == plans[1] and len(plans[0]) >= 4


def test_human_notes_get_proposals_and_ticked_ones_are_applied(vault: Path) -> None:
    write(vault, "notes/p1.md", f"# Mine\n\n{SAME}")
    write(vault, "notes/p2.md", f"# Mine too\n\n{SAME}")
    mem = open_mem(vault)
    mem.reindex()
    report = Dream(mem.store, NOW, force=True).run()
    assert report.applied == [] and len(report.proposed) == 2
    assert (vault / "notes/p2.md").exists()
    digest = vault / "_dream/proposals.md"  # the boxes wait on the proposals page
    text = digest.read_text()
    ids = [p["id"] for p in report.proposed]
    # the merge is one checkbox, named by one of its two actions, showing both notes
    boxes = [ln for ln in text.splitlines() if ln.startswith("- [ ] consolidate: ")]
    assert len(boxes) == 1 and sum(f"({i})" in boxes[0] for i in ids) == 1
    assert "merge [[notes/p2]] into [[notes/p1]]" in boxes[0]
    assert "the same text in both notes" in text
    digest.write_text(text.replace("- [ ]", "- [x]"))  # the person approves the merge
    mem.reindex()
    report = Dream(mem.store, NOW, force=True).run()
    assert sorted(a["path"] for a in report.applied if a["pass"] == "consolidate") == [
        "archive/notes/p2.md", "notes/p1.md"]
    assert {p["state"] for p in Journal(vault / ".aleph").proposals().values()} == {"applied"}
    mem.close()


def test_a_note_edited_between_plan_and_apply_is_skipped_untouched(vault: Path) -> None:
    mem = agent_vault(vault)
    action = next(a for a in drift.plan_drift(snapshot(mem.store, NOW)) if a.path == "notes/old.md")
    (vault / "notes/old.md").write_bytes(b"# Offer\n\na person rewrote it\n")
    dream = Dream(mem.store, NOW, force=True)
    from aleph_mem.dream.runner import RunReport

    report = RunReport("R", "now", False, ["drift"])
    dream._handle(action, report)
    assert report.applied == [] and "skipped_conflict" in report.skipped[0]["reason"]
    assert (vault / "notes/old.md").read_bytes() == b"# Offer\n\na person rewrote it\n"
    mem.close()


def test_recent_edits_are_left_alone_without_force(vault: Path) -> None:
    mem = agent_vault(vault)
    report = Dream(mem.store, NOW).run(("drift",))
    assert report.applied == []
    assert {s["path"] for s in report.skipped} == {"notes/new.md", "notes/old.md",
                                                   "notes/replaced.md"}
    mem.close()


def test_undo_a_run_byte_for_byte_and_refuse_over_a_later_edit(vault: Path) -> None:
    mem = agent_vault(vault)
    start = snap_files(vault)
    report = Dream(mem.store, NOW, force=True).run(("consolidate", "drift"))
    assert len(report.applied) == 5
    (vault / "notes/replaced.md").write_bytes(b"# Old plan\n\nedited after the dream\n")
    undo = mem.undo(report.run_id)
    assert [p for p, _ in undo.refused] == ["notes/replaced.md"]
    after = snap_files(vault)
    for path in ("notes/one.md", "notes/two.md", "notes/old.md", "notes/new.md"):
        assert after[path] == start[path]
    assert "archive/notes/two.md" not in after
    assert after["notes/replaced.md"] == b"# Old plan\n\nedited after the dream\n"
    mem.close()


def test_pre_emption_stops_before_any_write_and_records_nothing(vault: Path) -> None:
    mem = agent_vault(vault)
    dream = Dream(mem.store, NOW, force=True)
    activity.touch(vault / ".aleph" / "local", "cli",
                   now=dream.started + dt.timedelta(seconds=1))
    report = dream.run(trigger="scheduled")
    assert report.status == "interrupted" and report.applied == []
    assert Journal(vault / ".aleph").runs() == []
    mem.close()


def test_once_a_day_and_the_window(vault: Path) -> None:
    mem = agent_vault(vault)
    (vault / ".aleph" / "config.toml").write_text('dream_window = "00:00-23:59"\n')
    mem.close()
    mem = open_mem(vault)
    assert dream_due(mem.store, NOW, idle_s=3600)
    assert not dream_due(mem.store, NOW, idle_s=60)  # not idle long enough
    Dream(mem.store, NOW, force=True).run()
    assert not dream_due(mem.store, NOW, idle_s=3600)  # spent today
    tomorrow, next_week = NOW + dt.timedelta(days=1), NOW + dt.timedelta(days=8)
    assert not dream_due(mem.store, tomorrow, idle_s=3600)  # nothing changed since
    assert dream_due(mem.store, next_week, idle_s=3600)  # but decay is due once a week
    assert in_window("22:00-02:00", dt.datetime(2026, 1, 1, 23, 30))
    assert not in_window("02:00-06:00", dt.datetime(2026, 1, 1, 7, 0))
    mem.close()


def test_dream_writes_are_not_activity_and_keep_notes_agent_owned(vault: Path) -> None:
    mem = agent_vault(vault)
    watcher_mem = open_mem(vault)
    w = Watcher(watcher_mem)
    w.start()
    try:
        stamp = activity.last(vault / ".aleph" / "local")
        Dream(mem.store, NOW, force=True).run(("drift",))
        import time

        time.sleep(0.5)
        assert w.wait_idle()
        assert activity.last(vault / ".aleph" / "local") == stamp
        assert mem.log(actor="human") == []
        assert not snapshot(mem.store, NOW).notes["notes/old.md"].human
    finally:
        w.stop()
        watcher_mem.close()
        mem.close()


def test_cli_dry_run_writes_nothing(vault: Path, capsys) -> None:
    from aleph_mem.cli.main import main

    mem = agent_vault(vault)
    mem.close()
    before = snap_files(vault)
    assert main(["--vault", str(vault), "dream", "--dry-run", "--force"]) == 0
    out = capsys.readouterr().out
    assert "+status: stale" in out and "--- a/notes/old.md" in out
    assert snap_files(vault) == before
    assert main(["--vault", str(vault), "dream", "status", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["runs"] == []


@pytest.mark.parametrize("name", ["consolidate", "drift", "lint", "decay"])
def test_opted_out_and_protected_notes_are_never_planned(vault: Path, name: str) -> None:
    mem = agent_vault(vault)
    w = mem.store.writer()
    w.write("notes/out.md", b"---\ndream: false\nvalid_until: 2000-01-01\ntags: [x, x]\n---\n"
            b"# Out\n\n" + SAME.encode(), None)
    later = NOW + dt.timedelta(days=999)
    ctx = PassContext(mem, later, Judge(mem.settings, vault / ".aleph"),
                      Journal(vault / ".aleph"), RunReport("R", "now", True, [name]), True, name)
    plans = dream_passes()[name].plan(snapshot(mem.store, later), ctx)
    assert all(a.path not in ("notes/out.md", "MEMORY.md") for a in plans)
    mem.close()


def test_pass_modes_from_settings(vault: Path) -> None:
    mem = agent_vault(vault)
    mem.close()
    (vault / ".aleph" / "config.toml").write_text(
        "dream_propose = ['consolidate']\ndream_off = ['drift']\n")
    mem = open_mem(vault)
    report = Dream(mem.store, NOW, force=True).run(("consolidate", "drift"))
    assert report.applied == []
    assert {p["pass"] for p in report.proposed} == {"consolidate"}
    assert mem.show("notes/old").frontmatter.get("status") is None  # drift is off
    mem.close()


def test_one_dream_run_at_a_time(vault: Path) -> None:
    from aleph_mem.errors import DreamBusy
    from aleph_mem.files.locks import dream_lock

    mem = agent_vault(vault)
    with dream_lock(vault / ".aleph" / "local"):
        with pytest.raises(DreamBusy, match="another dream run"):
            Dream(mem.store, NOW, force=True).run()
    assert Dream(mem.store, NOW, force=True).run().status == "success"
    mem.close()


def test_a_killed_dreamer_leaves_no_lock_to_take_over(vault: Path) -> None:
    """docs/design.md 6, with an OS lock: while the holder lives nobody takes over;
    once it is killed (no chance to clean up) the next run goes ahead at once."""
    import signal
    import subprocess
    import sys
    import time

    from aleph_mem.errors import DreamBusy

    mem = agent_vault(vault)
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from pathlib import Path; "
         "from aleph_mem.files.locks import dream_lock\n"
         "with dream_lock(Path(sys.argv[1])):\n    print('held', flush=True); time.sleep(60)",
         str(vault / ".aleph" / "local")], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(DreamBusy):
            Dream(mem.store, NOW, force=True).run()
        holder.send_signal(signal.SIGKILL)
        holder.wait(10)
        time.sleep(0.1)
        assert Dream(mem.store, NOW, force=True).run().status == "success"
    finally:
        holder.kill()
        mem.close()


def test_a_dream_marker_never_makes_a_persons_note_agent_owned(vault: Path) -> None:
    """Regression: drift marked a person's note stale, the note's last writer became the
    dream, and the same run's lint then added frontmatter to it as if an agent owned it."""
    write(vault, "mine/old.md", "---\nvalid_until: 2020-01-01\n---\n# Old\n\nFrom before.\n")
    mem = open_mem(vault)
    mem.reindex()  # indexed with the vault: no event explains it, a person's
    write(vault, "mine/offer.md", "---\nvalid_until: 2020-01-01\n---\n# Offer\n\nMy offer.\n")
    mem.reindex()  # a person's edit, logged as such
    report = Dream(mem.store, NOW, force=True).run()
    assert [a for a in report.applied if a["path"].startswith("mine/")] == []  # asked only
    assert sorted((p["pass"], p["what"]) for p in report.proposed) == [
        ("drift", f"[[mine/{name}]]: status: stale, stale_reason: expired (expired: "
                  "valid_until 2020-01-01 has passed)") for name in ("offer", "old")]
    digest = vault / "_dream/proposals.md"
    digest.write_text(digest.read_text().replace("- [ ]", "- [x]"))  # the person agrees
    mem.reindex()
    report = Dream(mem.store, NOW, force=True).run()
    assert sorted((a["pass"], a["path"]) for a in report.applied) == [
        ("drift", "mine/offer.md"), ("drift", "mine/old.md")]
    assert mem.show("mine/offer").frontmatter == {
        "valid_until": "2020-01-01", "status": "stale", "stale_reason": "expired"}
    assert snapshot(mem.store, NOW).notes["mine/offer.md"].human
    assert snapshot(mem.store, NOW).notes["mine/old.md"].human
    # and the dream's own move keeps it the person's (an archive of their note)
    mem.store.writer(actor="dream:decay").archive("mine/offer.md")
    assert snapshot(mem.store, NOW).notes["archive/mine/offer.md"].human
    mem.close()


def test_status_says_when_the_dream_will_really_run(vault: Path, monkeypatch) -> None:
    """Not the scheduler's next tick: the window, a catch-up, the quiet it waits for."""
    import time as time_module

    from aleph_mem.dream.schedule import next_dream

    monkeypatch.setenv("TZ", "UTC")
    time_module.tzset()
    noon = dt.datetime(2026, 11, 24, 12, 0, tzinfo=dt.UTC)
    with open_mem(vault) as mem:
        mem.reindex()
        assert next_dream(mem.store, noon) == "now, to catch up (it never ran), once quiet 60 min"
        monkeypatch.setenv("ALEPH_MEM_NOW", "2026-11-24T11:00:00Z")
        Dream(mem.store, noon, force=True).run()
        assert next_dream(mem.store, noon) == (
            "2026-11-25 02:00 (its window 02:00-06:00), once the vault has been quiet 15 min")
        at_three = dt.datetime(2026, 11, 25, 3, 0, tzinfo=dt.UTC)
        assert next_dream(mem.store, at_three) == ("now, inside its window 02:00-06:00, once the "
                                             "vault has been quiet 15 min")
    (vault / ".aleph" / "config.toml").write_text('dream_window = "off"\n')
    with open_mem(vault) as mem:
        assert next_dream(mem.store, noon).startswith("never by itself")
    monkeypatch.delenv("TZ")
    time_module.tzset()


@pytest.mark.parametrize("bad", ['{"host": "x", "since": "yesterday", "seen": "soon", '
                                 '"how": "set"}',
                                 '{"host": "x", "since": "9999-01-01T00:00:00Z", "seen": '
                                 '"9999-01-01T00:00:00Z", "how": "set"}', "not json"],
                         ids=["not-iso", "year-9999", "unreadable"])
def test_a_bad_dreamer_lease_synced_in_neither_crashes_nor_stops_dreaming(
        vault: Path, bad: str) -> None:
    """A dreamer.json another device synced in with times that are not ISO, or in the year
    9999, or no JSON at all: status and dream go on, and this device dreams (claiming the
    lease anew); a good lease of another device (the control) still keeps it from dreaming."""
    (vault / ".aleph" / "dreamer.json").write_text(bad)
    with open_mem(vault) as mem:
        mem.reindex()
        assert mem.full_status()["dreamer"]["host"] is None
        report = Dream(mem.store, NOW, force=True).run()
        assert report.status == "success"
    (vault / ".aleph" / "dreamer.json").write_text(json.dumps(
        {"host": "other", "since": NOW.isoformat(), "seen": NOW.isoformat(), "how": "set"}))
    with open_mem(vault) as mem:
        assert Dream(mem.store, NOW, force=True).run().status == "not the dreamer"
