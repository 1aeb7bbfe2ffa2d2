"""The dream passes on real files: what they change, what they propose, and their safety
rules (docs/design.md 6)."""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path

import pytest
from conftest import open_mem, write

from aleph_mem.dream import consolidate, decay, drift, lint
from aleph_mem.dream.journal import Journal
from aleph_mem.dream.judge import Judge
from aleph_mem.dream.registry import PassContext, RunReport
from aleph_mem.dream.runner import Dream
from aleph_mem.dream.schedule import dream_due, in_window
from aleph_mem.dream.snapshot import snapshot
from aleph_mem.errors import BadName
from aleph_mem.files import activity
from aleph_mem.plugins import dream_passes
from aleph_mem.running.watcher import Watcher

NOW = dt.datetime.now(dt.UTC)
SAME = "Same text about the harbour plans and the ferry schedule for next year.\n"


def agent_vault(vault: Path):
    """Notes written by an agent (through aleph-mem), with planted problems."""
    mem = open_mem(vault)
    mem.reindex()
    w = mem.writer(actor="mcp:test")
    w.write("notes/one.md", f"---\ntags: [a, b, a]\n---\n# Harbour\n\n{SAME}".encode(), None)
    w.write("notes/two.md", f"---\ntags: [c]\n---\n# Harbour copy\n\n{SAME}".encode(), None)
    w.write("notes/old.md", b"---\nvalid_until: 2020-01-01\n---\n# Offer\n\nSee [[one]] and "
            b"[[Harbour copy]] ![map](maps/missing.png)\n", None)
    w.write("notes/new.md", b"# New plan\n\nThe current plan.\n", None)
    w.write("notes/replaced.md", b"---\nsuperseded_by: '[[new]]'\n---\n# Old plan\n\nx\n", None)
    return mem


def snap_files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*.md")}


def test_daily_run_changes_agent_notes_and_a_second_run_changes_nothing(vault: Path) -> None:
    mem = agent_vault(vault)
    report = Dream(mem, NOW, force=True).run()
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
    assert (old["status"], old["stale_reason"], old["stale_refs"]) == (
        "stale", "expired", ["maps/missing.png"])
    assert mem.show("notes/replaced").frontmatter["status"] == "superseded"
    # the absorbed title became an alias: links to it keep resolving
    assert [lv.resolved for lv in mem.show("notes/old").links][:2] == ["notes/one.md"] * 2
    digest = (vault / report.digest).read_text()
    assert "## What the dream changed" in digest and f"aleph-mem undo {report.run_id}" in digest
    assert "```mermaid" in digest
    before = snap_files(vault)
    again = Dream(mem, NOW, force=True).run()
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
        plans.append(Dream(mem, NOW, dry_run=True, force=True).run().plan)
        mem.close()
    assert plans[0] == plans[1] and len(plans[0]) >= 4


def test_human_notes_get_proposals_and_ticked_ones_are_applied(vault: Path) -> None:
    write(vault, "notes/p1.md", f"# Mine\n\n{SAME}")
    write(vault, "notes/p2.md", f"# Mine too\n\n{SAME}")
    mem = open_mem(vault)
    mem.reindex()
    report = Dream(mem, NOW, force=True).run()
    assert report.applied == [] and len(report.proposed) == 2
    assert (vault / "notes/p2.md").exists()
    digest = vault / report.digest
    text = digest.read_text()
    ids = [p["id"] for p in report.proposed]
    # the merge is one checkbox, named by one of its two actions, showing both notes
    boxes = [ln for ln in text.splitlines() if ln.startswith("- [ ] consolidate: ")]
    assert len(boxes) == 1 and sum(f"({i})" in boxes[0] for i in ids) == 1
    assert "merge [[notes/p2]] into [[notes/p1]]" in boxes[0]
    assert "the same text in both notes" in text
    digest.write_text(text.replace("- [ ]", "- [x]"))  # the person approves the merge
    mem.reindex()
    report = Dream(mem, NOW, force=True).run()
    assert sorted(a["path"] for a in report.applied if a["pass"] == "consolidate") == [
        "archive/notes/p2.md", "notes/p1.md"]
    assert {p["state"] for p in Journal(vault / ".aleph").proposals().values()} == {"applied"}
    assert any("you edited today's digest" in s["reason"] for s in report.skipped)
    mem.close()


def test_a_note_edited_between_plan_and_apply_is_skipped_untouched(vault: Path) -> None:
    mem = agent_vault(vault)
    action = next(a for a in drift.plan_drift(snapshot(mem, NOW)) if a.path == "notes/old.md")
    (vault / "notes/old.md").write_bytes(b"# Offer\n\na person rewrote it\n")
    dream = Dream(mem, NOW, force=True)
    from aleph_mem.dream.runner import RunReport

    report = RunReport("R", "now", False, ["drift"])
    dream._handle(action, report)
    assert report.applied == [] and "skipped_conflict" in report.skipped[0]["reason"]
    assert (vault / "notes/old.md").read_bytes() == b"# Offer\n\na person rewrote it\n"
    mem.close()


def test_recent_edits_are_left_alone_without_force(vault: Path) -> None:
    mem = agent_vault(vault)
    report = Dream(mem, NOW).run(("drift",))
    assert report.applied == []
    assert {s["path"] for s in report.skipped} == {"notes/new.md", "notes/old.md",
                                                   "notes/replaced.md"}
    mem.close()


def test_undo_a_run_byte_for_byte_and_refuse_over_a_later_edit(vault: Path) -> None:
    mem = agent_vault(vault)
    start = snap_files(vault)
    report = Dream(mem, NOW, force=True).run(("consolidate", "drift"))
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


def test_decay_archives_cold_agent_notes_only(vault: Path) -> None:
    mem = open_mem(vault)
    mem.reindex()
    w = mem.writer(actor="mcp:test")
    w.write("notes/cold.md", b"# Cold\n\nnobody reads this\n", None)
    w.write("notes/pinned.md", b"---\npermanent: true\n---\n# Keep\n\nforever\n", None)
    write(vault, "notes/human.md", "# Human\n\nmine\n")
    mem.reindex()
    later = NOW + dt.timedelta(days=400)
    report = Dream(mem, later, force=True).run(("decay",))
    assert [a["path"] for a in report.applied] == ["archive/notes/cold.md"]
    assert {p["what"] for p in report.proposed} >= {"archive [[notes/human]] (low_salience)"}
    assert (vault / "notes/pinned.md").exists()
    cold = snapshot(mem, later).notes["notes/pinned.md"]
    assert decay.salience(cold, later) == decay.salience(cold, later) == (1.0, 45.0)
    mem.close()


def test_pre_emption_stops_before_any_write_and_records_nothing(vault: Path) -> None:
    mem = agent_vault(vault)
    dream = Dream(mem, NOW, force=True)
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
    assert dream_due(mem, NOW, idle_s=3600)
    assert not dream_due(mem, NOW, idle_s=60)  # not idle long enough
    Dream(mem, NOW, force=True).run()
    assert not dream_due(mem, NOW, idle_s=3600)  # spent today
    tomorrow, next_week = NOW + dt.timedelta(days=1), NOW + dt.timedelta(days=8)
    assert not dream_due(mem, tomorrow, idle_s=3600)  # nothing changed since
    assert dream_due(mem, next_week, idle_s=3600)  # but decay is due once a week
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
        Dream(mem, NOW, force=True).run(("drift",))
        import time

        time.sleep(0.5)
        assert w.wait_idle()
        assert activity.last(vault / ".aleph" / "local") == stamp
        assert mem.log(actor="human") == []
        assert not snapshot(mem, NOW).notes["notes/old.md"].human
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
    w = mem.writer()
    w.write("notes/out.md", b"---\ndream: false\nvalid_until: 2000-01-01\ntags: [x, x]\n---\n"
            b"# Out\n\n" + SAME.encode(), None)
    later = NOW + dt.timedelta(days=999)
    ctx = PassContext(mem, later, Judge(mem.settings, vault / ".aleph"),
                      Journal(vault / ".aleph"), RunReport("R", "now", True, [name]), True, name)
    plans = dream_passes()[name].plan(snapshot(mem, later), ctx)
    assert all(a.path not in ("notes/out.md", "MEMORY.md") for a in plans)
    mem.close()


def test_weekly_review_lists_clusters_and_is_stable(vault: Path) -> None:
    from aleph_mem.dream.runner import WEEKLY

    mem = open_mem(vault)
    mem.reindex()
    w = mem.writer(actor="mcp:test")
    for group, tag in (("boat", "sailing"), ("bread", "baking")):
        for i in range(4):
            w.write(f"{group}/{group}{i}.md", f"---\ntags: [{tag}]\n---\n# {group} {i}\n\n"
                    f"links [[{group}{(i + 1) % 4}]]\n".encode(), None)
    w.write("tags.md", b"---\ntags: [machine-learning, machinelearning]\n---\n# T\n\nx\n",
            None)
    report = Dream(mem, NOW, force=True).run(WEEKLY)
    weekly = next(a["path"] for a in report.applied if a["path"].startswith("_dream/weekly/"))
    text = (vault / weekly).read_text()
    assert "(4 notes)" in text and "[[boat/boat0]]" in text and "[[bread/bread3]]" in text
    assert "#sailing (4)" in text
    assert "#machine-learning and #machinelearning look like one tag" in text
    again = Dream(mem, NOW, force=True).run(WEEKLY)
    assert again.applied == []
    mem.close()


def test_pass_modes_from_settings(vault: Path) -> None:
    mem = agent_vault(vault)
    mem.close()
    (vault / ".aleph" / "config.toml").write_text(
        "dream_propose = ['consolidate']\ndream_off = ['drift']\n")
    mem = open_mem(vault)
    report = Dream(mem, NOW, force=True).run(("consolidate", "drift"))
    assert report.applied == []
    assert {p["pass"] for p in report.proposed} == {"consolidate"}
    assert mem.show("notes/old").frontmatter.get("status") is None  # drift is off
    mem.close()


def test_recalls_keep_a_note_from_decay(vault: Path) -> None:
    mem = open_mem(vault)
    mem.reindex()
    w = mem.writer(actor="mcp:test")
    w.write("notes/cold.md", b"# Cold\n\nnobody reads this\n", None)
    w.write("notes/used.md", b"# Used\n\nagents keep reading this\n", None)
    later = NOW + dt.timedelta(days=400)
    Journal(vault / ".aleph").record_recall("notes/used.md",
                                            (later - dt.timedelta(days=10)).date().isoformat())
    report = Dream(mem, later, force=True).run(("decay",))
    assert [a["path"] for a in report.applied] == ["archive/notes/cold.md"]
    used = snapshot(mem, later).notes["notes/used.md"]
    assert decay.salience(used, later)[0] > 0.8
    mem.close()


def test_lint_reports_archived_targets_odd_names_and_relative_time(vault: Path) -> None:
    mem = open_mem(vault)
    mem.reindex()
    w = mem.writer(actor="mcp:test")
    w.write("notes/gone.md", b"# Gone\n\nold\n", None)
    w.write("notes/points.md", b"# Points\n\nsee [[gone]]\n", None)
    w.write("notes/met.md", b"# Met\n\nWe met yesterday about [[points]].\n", None)
    with pytest.raises(BadName, match=r"\?"):  # aleph-mem never makes such a name...
        w.write("notes/what?.md", b"# Odd\n\nodd\n", None)
    write(vault, "notes/what?.md", "# Odd\n\nodd\n")  # ...but a person's editor may
    mem.reindex()
    w.archive("notes/gone.md")
    issues = {(i.rule, i.path) for i in lint.lint_issues(
        snapshot(mem, NOW + dt.timedelta(days=5)))}
    assert {("L013", "notes/points.md"), ("L032", "notes/what?.md"),
            ("L042", "notes/met.md")} <= issues
    assert ("L042", "notes/met.md") not in {(i.rule, i.path) for i in lint.lint_issues(
        snapshot(mem, NOW))}  # "yesterday" is fine in a note written today
    mem.close()


def test_one_dream_run_at_a_time(vault: Path) -> None:
    from aleph_mem.errors import DreamBusy
    from aleph_mem.files.locks import dream_lock

    mem = agent_vault(vault)
    with dream_lock(vault / ".aleph" / "local"):
        with pytest.raises(DreamBusy, match="another dream run"):
            Dream(mem, NOW, force=True).run()
    assert Dream(mem, NOW, force=True).run().status == "success"
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
            Dream(mem, NOW, force=True).run()
        holder.send_signal(signal.SIGKILL)
        holder.wait(10)
        time.sleep(0.1)
        assert Dream(mem, NOW, force=True).run().status == "success"
    finally:
        holder.kill()
        mem.close()


def test_structured_facts_about_one_subject_contradict_by_date(vault: Path) -> None:
    mem = open_mem(vault)
    mem.reindex()
    w = mem.writer(actor="mcp:test")
    w.write("people/ana-2024.md", b"---\nsubject: Ana\nupdated: 2024-03-01\n---\n# Ana\n\n"
            b"city:: Lisbon\nrole:: engineer\n", None)
    w.write("people/ana-2026.md", b"---\nsubject: '[[Ana]]'\nupdated: 2026-02-01\n---\n"
            b"# Ana now\n\ncity:: Porto\nrole:: engineer\n", None)
    w.write("people/bo-old.md", b"---\nsubject: Bo\nvalid_from: 2020-01-01\nvalid_until: "
            b"2021-01-01\n---\n# Bo\n\ncity:: Faro\n", None)
    w.write("people/bo-new.md", b"---\nsubject: Bo\nvalid_from: 2022-01-01\n---\n# Bo\n\n"
            b"city:: Braga\n", None)
    plans = [a for a in drift.plan_fact_conflicts(snapshot(mem, NOW))]
    assert [(a.path, a.set_keys, a.reason) for a in plans] == [
        ("people/ana-2024.md", {"status": "contradicted", "superseded_by": "[[people/ana-2026]]",
                                "valid_until": "2026-02-01"},
         "city: Lisbon here, Porto in [[people/ana-2026]]")]  # Bo's periods do not overlap
    Dream(mem, NOW, force=True).run(("drift",))
    assert mem.show("people/ana-2024").frontmatter["status"] == "contradicted"
    assert drift.plan_fact_conflicts(snapshot(mem, NOW)) == []
    mem.close()


def test_a_subject_meets_the_note_of_that_title_or_alias(vault: Path) -> None:
    mem = open_mem(vault)
    mem.reindex()
    w = mem.writer(actor="mcp:test")
    w.write("people/ada.md", b"---\naliases: [Ada L.]\nupdated: 2024-01-01\n---\n# Ada\n\n"
            b"role:: engineer\n", None)
    w.write("log/promotion.md", b"---\nsubject: '[[Ada L.]]'\nupdated: 2026-05-01\n---\n"
            b"# Promotion\n\nrole:: manager\n", None)
    w.write("log/unrelated.md", b"---\nupdated: 2026-06-01\n---\n# Bob\n\nrole:: chef\n", None)
    plans = drift.plan_fact_conflicts(snapshot(mem, NOW))
    assert [(a.path, a.set_keys["superseded_by"], a.reason) for a in plans] == [
        ("people/ada.md", "[[log/promotion]]", "role: engineer here, manager in "
         "[[log/promotion]]")]
    mem.close()


def test_a_merge_a_person_keeps_undoing_stops_after_three(vault: Path) -> None:
    mem = agent_vault(vault)
    for _ in range(3):
        report = Dream(mem, NOW, force=True).run(("consolidate",))
        assert len(report.applied) == 2  # one note kept, the other archived as merged
        assert mem.undo(report.run_id).refused == []  # the person takes it back
    report = Dream(mem, NOW, force=True).run(("consolidate",))
    assert report.applied == []
    assert "again and again" in report.skipped[0]["reason"]
    assert (vault / "notes/two.md").exists() and (vault / "notes/one.md").exists()
    mem.close()


def test_templated_notes_with_different_names_are_not_duplicates(vault: Path) -> None:
    mem = open_mem(vault)
    mem.reindex()
    w = mem.writer(actor="mcp:test")
    body = ("You have resistance to one damage type while you wear this ring. The gem in the "
            "ring shows the type, which the DM chooses or determines randomly.\n")
    w.write("items/fire.md", f"# Ring of Fire Resistance\n\n{body}".encode(), None)
    w.write("items/force.md", f"# Ring of Force Resistance\n\n{body}".encode(), None)
    assert consolidate.plan_consolidate(snapshot(mem, NOW)) == []
    mem.close()


def test_lint_adds_missing_frontmatter_to_agent_notes_dated_from_their_history(
        vault: Path) -> None:
    mem = open_mem(vault)
    mem.reindex()
    w = mem.writer(actor="mcp:test")
    w.write("projects/plan.md", b"# Plan\n\nShip it.\n", None)
    w.write("projects/tagged.md", b"---\ntags: 'alpha, #beta gamma'\n---\n# T\n\nx\n", None)
    write(vault, "projects/mine.md", "# Mine\n\nA person's plain note.\n")
    old = dt.datetime(2024, 3, 5, 10, 0, tzinfo=dt.UTC).timestamp()
    os.utime(vault / "projects/plan.md", (old, old))
    mem.reindex()
    report = Dream(mem, NOW, force=True).run(("lint",))
    assert sorted(a["path"] for a in report.applied) == ["projects/plan.md",
                                                          "projects/tagged.md"]
    assert (vault / "projects/plan.md").read_text() == (
        "---\ncategory: projects\ntags: []\ncreated: '2024-03-05T10:00:00Z'\n---\n"
        "# Plan\n\nShip it.\n")  # the file's own date, not the day of the run
    assert mem.show("projects/tagged").frontmatter["tags"] == ["alpha", "beta", "gamma"]
    assert (vault / "projects/mine.md").read_text() == "# Mine\n\nA person's plain note.\n"
    assert report.proposed == []  # a person's plain note is a valid note
    mem.close()
    (vault / ".aleph" / "config.toml").write_text("lint_fix_human = true\n")
    mem = open_mem(vault)
    report = Dream(mem, NOW, force=True).run(("lint",))
    mtime = dt.datetime.fromtimestamp((vault / "projects/mine.md").stat().st_mtime, dt.UTC)
    assert [p["what"] for p in report.proposed if "projects/" in p["what"]] == [
        "[[projects/mine]]: category: projects, tags: [], created: "
        f"{mtime:%Y-%m-%dT%H:%M:%S}Z (L001 category, tags, created)"]
    mem.close()


def test_a_broken_link_is_repaired_only_when_one_note_matches_loosely(vault: Path) -> None:
    mem = open_mem(vault)
    mem.reindex()
    w = mem.writer(actor="mcp:test")
    w.write("ref/Ｓea_Charts.md", b"# Charts\n\n## Depths\n\nDeep.\n", None)
    w.write("ref/tide-table.md", b"# Tides\n\nHigh water.\n", None)
    w.write("a/moon phase.md", b"# Moon A\n\nx\n", None)
    w.write("b/moon_phase.md", b"# Moon B\n\nx\n", None)
    w.write("trip.md", b"# Trip\n\nRead [[sea charts#Depths]] and [[Tide Table|the tides]].\n"
            b"Also [[moon-phase]] and `[[tide table]]` in code.\n"
            b"Then ![[tide table]] again.\n", None)
    mem.reindex()
    report = Dream(mem, NOW, force=True).run(("lint",))
    assert (vault / "trip.md").read_text().split("---\n")[-1] == (
        "# Trip\n\nRead [[Ｓea_Charts#Depths]] and [[tide-table|the tides]].\n"
        "Also [[moon-phase]] and `[[tide table]]` in code.\n"
        "Then ![[tide-table|tide table]] again.\n")
    # two notes match "moon-phase" loosely: never guessed, still reported
    issues = {i.message for i in lint.lint_issues(snapshot(mem, NOW)) if i.path == "trip.md"}
    assert issues == {"broken link [[moon-phase]]"}
    assert [lv.resolved for lv in mem.show("trip").links if lv.resolved] == [
        "ref/Ｓea_Charts.md", "ref/tide-table.md", "ref/tide-table.md"]
    assert any("L010 repaired" in a["what"] for a in report.applied)
    mem.close()


def test_a_broken_link_in_a_persons_note_is_a_proposal(vault: Path) -> None:
    write(vault, "ref/tide-table.md", "# Tides\n\nHigh water.\n")
    write(vault, "mine.md", "# Mine\n\nSee [[Tide Table]].\n")
    mem = open_mem(vault)
    mem.reindex()
    report = Dream(mem, NOW, force=True).run(("lint",))
    assert report.applied == []
    assert [p["what"] for p in report.proposed] == [
        "[[mine]]: L010 repaired [[Tide Table]] → [[tide-table|Tide Table]]"]
    assert (vault / "mine.md").read_text() == "# Mine\n\nSee [[Tide Table]].\n"
    mem.close()


def test_lint_report_tells_new_from_still_open_and_fixed(vault: Path) -> None:
    mem = open_mem(vault)
    mem.reindex()
    write(vault, "a.md", "# A\n\nSee [[nowhere]] and [[elsewhere]].\n")  # a person's edit
    mem.reindex()
    now = dt.datetime.now(dt.UTC)
    first = Dream(mem, now, force=True).run()
    today = now.date().isoformat()
    report = (vault / "_dream/lint.md").read_text()
    assert f"- [[a]]: broken link [[nowhere]] (since {today})" in report
    assert "4 open (4 new today), 0 fixed today" in report  # two links, two orphans
    assert first.reports == ["_dream/lint.md"]
    digest = (vault / first.digest).read_text()
    assert "- **L010 broken links**: 2\n  - [[a]]: broken link [[elsewhere]]\n" in digest
    assert "> 4 things need attention (2 broken links, 2 orphans (no links in or out))." in digest
    # the next day a person fixes one link: one still open, one fixed
    (vault / "a.md").write_text("# A\n\nSee [[elsewhere]].\n")
    mem.reindex()
    tomorrow = now + dt.timedelta(days=1)
    Dream(mem, tomorrow, force=True).run()
    report = (vault / "_dream/lint.md").read_text()
    assert "3 open (0 new today), 1 fixed today" in report
    assert f"broken link [[elsewhere]] (since {today})" in report
    assert "- L010 a.md: broken link [[nowhere]]" in report.split("## Fixed today")[1]
    mem.close()


def test_unlinked_mentions_become_soft_links_that_decay_counts_half(vault: Path) -> None:
    mem = open_mem(vault)
    mem.reindex()
    w = mem.writer(actor="mcp:test")
    w.write("p/harbour.md", b"---\naliases: [Port Plan]\n---\n# Harbour Plans\n\nx\n", None)
    w.write("p/ada.md", b"# Ada\n\ny\n", None)
    w.write("p/m1.md", b"# Meeting\n\nz\n", None)
    w.write("p/m2.md", b"# Meeting\n\nz\n", None)
    w.write("p/tokyo.md", "# 東京\n\nw\n".encode(), None)
    w.write("p/a.md", "# A\n\nThe harbour plans changed; Ada said so at the meeting in 東京. "
            "`Port Plan` in code is not a mention.\n".encode(), None)
    w.write("p/b.md", b"# B\n\nSee [[harbour]]: the port plan again.\n", None)
    report = Dream(mem, NOW, force=True).run(("lint",))
    soft = json.loads((vault / ".aleph/local/soft-links.json").read_text())
    # Ada is too short, Meeting belongs to two notes, b already links to the harbour
    assert soft == [["p/a.md", "p/harbour.md", "Harbour Plans"],
                    ["p/a.md", "p/tokyo.md", "東京"]]
    assert report.soft_links == 2
    assert "[[p/a]] mentions \"Harbour Plans\" ([[p/harbour]])" in (
        vault / "_dream/lint.md").read_text()
    assert (vault / "p/a.md").read_text().count("[[") == 0  # never a body edit
    snap = snapshot(mem, NOW)
    harbour = snap.notes["p/harbour.md"]
    assert (harbour.inbound, harbour.soft_inbound, harbour.link_weight) == (1, 1, 1.5)
    # half-life: 30 d x (1 + 0.25 x 1.5 links) x 1.5 (importance 5)
    assert decay.salience(harbour, NOW)[1] == 30 * 1.375 * 1.5
    again = Dream(mem, NOW, force=True).run(("lint",))
    assert again.soft_links == 0  # known ones are kept, not new
    mem.close()


def test_digests_older_than_90_days_move_to_the_archive(vault: Path) -> None:
    mem = agent_vault(vault)
    old_day = (NOW - dt.timedelta(days=91)).date().isoformat()
    recent_day = (NOW - dt.timedelta(days=89)).date().isoformat()
    for day in (old_day, recent_day):
        mem.writer(actor="dream:digest").write(f"_dream/digests/{day}.md",
                                              f"---\ntype: digest\n---\n# {day}\n".encode(),
                                              None)
    report = Dream(mem, NOW, force=True).run(("digest",))
    assert not (vault / f"_dream/digests/{old_day}.md").exists()
    kept = vault / f"archive/_dream/digests/{old_day}.md"
    assert "archived_reason: old_digest" in kept.read_text()
    assert (vault / f"_dream/digests/{recent_day}.md").exists()
    assert [a["path"] for a in report.applied] == [f"archive/_dream/digests/{old_day}.md"]
    mem.close()


def test_note_vectors_find_duplicates_whose_words_are_reordered(vault: Path) -> None:
    from test_vectors import configure  # registers the deterministic test embedder

    configure(vault, "test-hash")
    facts = ["The ferry leaves at nine from the north pier.",
             "Tickets cost twelve euros on board.",
             "The crossing takes forty minutes.", "Bicycles travel free."]
    mem = open_mem(vault)
    mem.reindex()
    w = mem.writer(actor="mcp:test")
    w.write("notes/ferry.md", ("# Ferry\n\n" + "\n".join(f"- {f}" for f in facts) + "\n")
            .encode(), None)
    w.write("notes/ferry-2.md", ("# Ferry again\n\n" + "\n".join(
        f"- {f}" for f in reversed(facts)) + "\n").encode(), None)
    w.write("notes/ferry-3.md", ("# Ferry times\n\n" + "\n".join(f"- {f}" for f in facts)
            + "\n- Dogs must stay on a lead at all times.\n").encode(), None)
    mem.embed()
    report = Dream(mem, NOW, force=True).run(("consolidate",))
    merged = [a for a in report.applied if a["path"] == "notes/ferry-2.md" or
              a["path"] == "notes/ferry.md"]
    assert "(merged notes/ferry-2.md: the same facts (cosine 0.9" in merged[0]["what"]
    assert (vault / "archive/notes/ferry-2.md").exists()
    # the third note has a fact the others lack: never merged without a person
    assert (vault / "notes/ferry-3.md").exists()
    mem.close()


def test_drift_checks_the_files_a_note_refers_to(vault: Path, tmp_path: Path) -> None:
    import hashlib

    project = tmp_path / "proj"
    (project / "src").mkdir(parents=True)
    (project / "src" / "app.py").write_text("print('v1')\n")
    (project / "src" / "lib.py").write_text("x = 1\n")
    sha = hashlib.sha256(b"x = 1\n").hexdigest()
    mem = open_mem(vault)
    mem.reindex()
    w = mem.writer(actor="mcp:test")
    root = f"project_root: {project}\n"
    w.write("code/ok.md", f"---\n{root}---\n# Ok\n\nSee `src/app.py` and "
            f"file://{project}/src/app.py.\n".encode(), None)
    w.write("code/gone.md", f"---\n{root}---\n# Gone\n\nSee `src/old.py`, `{project}/x.rs` "
            f"and file://{project}/nope.txt.\n".encode(), None)
    w.write("code/loose.md", b"# Loose\n\nA path with no root proves nothing: `src/any.py`.\n",
            None)
    w.write("code/source.md", f"---\n{root}related_files: [src/lib.py]\nrelated_files_sha: "
            f"{{src/lib.py: {sha}}}\n---\n# Source\n\nAbout lib.\n".encode(), None)
    w.write("code/vanished.md", f"---\n{root}related_files: [src/deleted.py]\n---\n"
            "# Vanished\n\nAbout a file.\n".encode(), None)
    plans = {a.path: a.set_keys for a in drift.plan_drift(snapshot(mem, NOW))}
    assert plans == {"code/gone.md": {"stale_refs": [f"{project}/nope.txt", f"{project}/x.rs",
                                                     "src/old.py"],
                                      "status": "stale", "stale_reason": "missing_file"},
                     "code/vanished.md": {"status": "stale", "stale_reason": "missing_file"}}
    (project / "src" / "lib.py").write_text("x = 2\n")  # the source the note is about changed
    plans = {a.path: a.set_keys for a in drift.plan_drift(snapshot(mem, NOW))}
    assert plans["code/source.md"] == {"status": "stale", "stale_reason": "source_changed"}
    mem.close()


def test_supersession_is_kept_symmetric(vault: Path) -> None:
    mem = open_mem(vault)
    mem.reindex()
    w = mem.writer(actor="mcp:test")
    w.write("a/new.md", b"# New\n\nnow\n", None)
    w.write("a/old.md", b"---\nsuperseded_by: '[[new]]'\n---\n# Old\n\nthen\n", None)
    write(vault, "b/mine-new.md", "---\nsupersedes: '[[mine-old]]'\n---\n# Mine new\n\nx\n")
    write(vault, "b/mine-old.md", "# Mine old\n\ny\n")
    mem.reindex()
    got = [(a.path, a.set_keys, a.propose) for a in
           drift.supersession_pairs(snapshot(mem, NOW), {
               (s, r): t for s, t, _, r, _, _ in snapshot(mem, NOW).links})]
    assert got == [("a/new.md", {"supersedes": "[[a/old]]"}, False),
                   ("b/mine-old.md", {"superseded_by": "[[b/mine-new]]"}, True)]
    mem.close()


def test_a_big_cluster_without_a_hub_gets_a_map_of_content_proposal(vault: Path) -> None:
    from aleph_mem.dream.runner import WEEKLY

    mem = open_mem(vault)
    mem.reindex()
    w = mem.writer(actor="mcp:test")
    for i in range(6):
        w.write(f"garden/bed{i}.md", f"---\ntags: [garden]\n---\n# Bed {i}\n\nSoil notes "
                f"[[bed{(i + 1) % 6}]]\n".encode(), None)
    report = Dream(mem, NOW, force=True).run(WEEKLY)
    moc = [p for p in report.proposed if "Map of" in p["what"]]
    assert [p["what"] for p in moc] == ["write garden/Map of Bed 5.md"]
    digest = vault / report.digest
    digest.write_text(digest.read_text().replace(f"- [ ] synthesis: write garden/Map of Bed "
                                                 f"5.md ({moc[0]['id']})",
                                                 f"- [x] synthesis: write garden/Map of Bed "
                                                 f"5.md ({moc[0]['id']})"))
    mem.reindex()
    Dream(mem, NOW, force=True).run(("digest",))
    text = (vault / "garden/Map of Bed 5.md").read_text()
    assert "type: moc" in text and "- [[garden/bed0|Bed 0]]" in text
    mem.close()


def test_many_important_changes_bring_the_weekly_run_forward(vault: Path) -> None:
    from aleph_mem.dream.runner import WEEKLY
    from aleph_mem.dream.schedule import weekly_due

    mem = open_mem(vault)
    mem.reindex()
    Dream(mem, NOW, force=True).run(WEEKLY)
    assert not weekly_due(mem, NOW + dt.timedelta(days=1))
    w = mem.writer(actor="mcp:test")
    for i in range(15):  # 15 x importance 10 = 150
        w.write(f"n/{i}.md", b"---\nimportance: 10\n---\n# Big\n\nnews\n", None)
    assert weekly_due(mem, NOW + dt.timedelta(days=1))
    mem.close()


def test_a_dream_marker_never_makes_a_persons_note_agent_owned(vault: Path) -> None:
    """Regression: drift marked a person's note stale, the note's last writer became the
    dream, and the same run's lint then added frontmatter to it as if an agent owned it."""
    write(vault, "mine/old.md", "---\nvalid_until: 2020-01-01\n---\n# Old\n\nFrom before.\n")
    mem = open_mem(vault)
    mem.reindex()  # indexed with the vault: no event explains it, a person's
    write(vault, "mine/offer.md", "---\nvalid_until: 2020-01-01\n---\n# Offer\n\nMy offer.\n")
    mem.reindex()  # a person's edit, logged as such
    report = Dream(mem, NOW, force=True).run()
    assert sorted((a["pass"], a["path"]) for a in report.applied) == [
        ("drift", "mine/offer.md"), ("drift", "mine/old.md")]
    assert mem.show("mine/offer").frontmatter == {
        "valid_until": "2020-01-01", "status": "stale", "stale_reason": "expired"}
    assert snapshot(mem, NOW).notes["mine/offer.md"].human
    assert snapshot(mem, NOW).notes["mine/old.md"].human
    # and the dream's own move keeps it the person's (an archive of their note)
    mem.writer(actor="dream:decay").archive("mine/offer.md")
    assert snapshot(mem, NOW).notes["archive/mine/offer.md"].human
    mem.close()


def test_numbered_tags_are_not_near_duplicates(vault: Path) -> None:
    from aleph_mem.dream.weekly import near_duplicate_tags

    mem = open_mem(vault)
    mem.reindex()
    write(vault, "t.md", "---\ntags: [spell/level/1, spell/level/7, machine-learning, "
          "machinelearning, book, books]\n---\n# T\n\nx\n")
    mem.reindex()
    assert near_duplicate_tags(snapshot(mem, NOW)) == [("book", "books"),
                                                       ("machine-learning", "machinelearning")]
    mem.close()


def test_decay_keeps_recall_signals_for_90_days(vault: Path) -> None:
    mem = agent_vault(vault)
    journal = Journal(vault / ".aleph")
    for days in (200, 91, 89, 1):
        journal.record_recall("notes/one.md", (NOW - dt.timedelta(days=days)).date().isoformat())
    Dream(mem, NOW, force=True).run(("decay",))
    kept = journal.recalls("2000-01-01")["notes/one.md"]
    assert kept == sorted((NOW - dt.timedelta(days=d)).date().isoformat() for d in (89, 1))
    mem.close()


def test_lint_rules_can_be_turned_off_for_the_whole_vault(vault: Path) -> None:
    write(vault, "a.md", "# A\n\nSee [[nowhere]] and the Welcome note.\n")
    write(vault, "b.md", "# B\n\nAlone.\n")
    with open_mem(vault) as mem:
        mem.reindex()
        before = Dream(mem, NOW, force=True, dry_run=True).run(("lint",))
    assert {"L010", "L020"} <= {i["rule"] for i in before.issues}
    (vault / ".aleph" / "config.toml").write_text("lint_disable = ['L020', 'L010', 'L021']\n")
    with open_mem(vault) as mem:
        after = Dream(mem, NOW, force=True).run(("lint",))
    assert {i["rule"] for i in after.issues} & {"L010", "L020"} == set()
    assert not (vault / ".aleph/local/soft-links.json").exists()
