"""lint on real files: what it reports, what it fixes on agent notes, what it proposes on a
person's."""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path

import pytest
from conftest import open_mem, write
from dream_helpers import NOW

from aleph_mem.dream import decay, lint
from aleph_mem.dream.runner import Dream
from aleph_mem.dream.snapshot import snapshot
from aleph_mem.errors import BadName


def test_lint_reports_archived_targets_odd_names_and_relative_time(vault: Path) -> None:
    mem = open_mem(vault)
    mem.reindex()
    w = mem.store.writer(actor="mcp:test")
    w.write("notes/gone.md", b"# Gone\n\nold\n", None)
    w.write("notes/points.md", b"# Points\n\nsee [[gone]]\n", None)
    w.write("notes/met.md", b"# Met\n\nWe met yesterday about [[points]].\n", None)
    with pytest.raises(BadName, match=r"\?"):  # aleph-mem never makes such a name...
        w.write("notes/what?.md", b"# Odd\n\nodd\n", None)
    write(vault, "notes/what?.md", "# Odd\n\nodd\n")  # ...but a person's editor may
    mem.reindex()
    w.archive("notes/gone.md")
    issues = {(i.rule, i.path) for i in lint.lint_issues(
        snapshot(mem.store, NOW + dt.timedelta(days=5)))}
    assert {("L013", "notes/points.md"), ("L032", "notes/what?.md"),
            ("L042", "notes/met.md")} <= issues
    assert ("L042", "notes/met.md") not in {(i.rule, i.path) for i in lint.lint_issues(
        snapshot(mem.store, NOW))}  # "yesterday" is fine in a note written today
    mem.close()


def test_lint_adds_missing_frontmatter_to_agent_notes_dated_from_their_history(
        vault: Path) -> None:
    mem = open_mem(vault)
    mem.reindex()
    w = mem.store.writer(actor="mcp:test")
    w.write("projects/plan.md", b"# Plan\n\nShip it.\n", None)
    w.write("projects/tagged.md", b"---\ntags: 'alpha, #beta gamma'\n---\n# T\n\nx\n", None)
    write(vault, "projects/mine.md", "# Mine\n\nA person's plain note.\n")
    old = dt.datetime(2024, 3, 5, 10, 0, tzinfo=dt.UTC).timestamp()
    os.utime(vault / "projects/plan.md", (old, old))
    mem.reindex()
    report = Dream(mem.store, NOW, force=True).run(("lint",))
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
    report = Dream(mem.store, NOW, force=True).run(("lint",))
    mtime = dt.datetime.fromtimestamp((vault / "projects/mine.md").stat().st_mtime, dt.UTC)
    assert [p["what"] for p in report.proposed if "projects/" in p["what"]] == [
        "[[projects/mine]]: category: projects, tags: [], created: "
        f"{mtime:%Y-%m-%dT%H:%M:%S}Z (L001 category, tags, created)"]
    mem.close()


def test_a_broken_link_is_repaired_only_when_one_note_matches_loosely(vault: Path) -> None:
    mem = open_mem(vault)
    mem.reindex()
    w = mem.store.writer(actor="mcp:test")
    w.write("ref/Ｓea_Charts.md", b"# Charts\n\n## Depths\n\nDeep.\n", None)
    w.write("ref/tide-table.md", b"# Tides\n\nHigh water.\n", None)
    w.write("a/moon phase.md", b"# Moon A\n\nx\n", None)
    w.write("b/moon_phase.md", b"# Moon B\n\nx\n", None)
    w.write("trip.md", b"# Trip\n\nRead [[sea charts#Depths]] and [[Tide Table|the tides]].\n"
            b"Also [[moon-phase]] and `[[tide table]]` in code.\n"
            b"Then ![[tide table]] again.\n", None)
    mem.reindex()
    report = Dream(mem.store, NOW, force=True).run(("lint",))
    assert (vault / "trip.md").read_text().split("---\n")[-1] == (
        "# Trip\n\nRead [[Ｓea_Charts#Depths]] and [[tide-table|the tides]].\n"
        "Also [[moon-phase]] and `[[tide table]]` in code.\n"
        "Then ![[tide-table|tide table]] again.\n")
    # two notes match "moon-phase" loosely: never guessed, still reported
    issues = {i.message for i in lint.lint_issues(snapshot(mem.store, NOW)) if i.path == "trip.md"}
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
    report = Dream(mem.store, NOW, force=True).run(("lint",))
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
    first = Dream(mem.store, now, force=True).run()
    today = now.date().isoformat()
    report = (vault / "_dream/lint.md").read_text()
    assert f"- [[a]]: broken link `[[nowhere]]` (since {today})" in report
    # two links and an orphan (the starter's Welcome note has tags: the tag pane reaches it)
    assert "3 open (3 new today), 0 fixed today" in report
    assert first.reports == ["_dream/lint.md"]
    digest = (vault / first.digest).read_text()
    # broken links and orphans never lead: one line of counts that links the lint page
    assert "> 0 things need attention; 3 more wait on [[_dream/lint]]." in digest
    assert "- also on [[_dream/lint]]: 2 broken links, 1 orphans (no links in or out)\n" \
        in digest
    assert digest.index("## Proposals") < digest.index("## Needs attention")
    # the next day a person fixes one link: one still open, one fixed
    (vault / "a.md").write_text("# A\n\nSee [[elsewhere]].\n")
    mem.reindex()
    tomorrow = now + dt.timedelta(days=1)
    Dream(mem.store, tomorrow, force=True).run()
    report = (vault / "_dream/lint.md").read_text()
    assert "2 open (0 new today), 1 fixed today" in report
    assert f"broken link `[[elsewhere]]` (since {today})" in report
    assert "- L010 a.md: broken link `[[nowhere]]`" in report.split("## Fixed today")[1]
    mem.close()


def test_unlinked_mentions_become_soft_links_that_decay_counts_half(vault: Path) -> None:
    mem = open_mem(vault)
    mem.reindex()
    w = mem.store.writer(actor="mcp:test")
    w.write("p/harbour.md", b"---\naliases: [Port Plan]\n---\n# Harbour Plans\n\nx\n", None)
    w.write("p/ada.md", b"# Ada\n\ny\n", None)
    w.write("p/m1.md", b"# Meeting\n\nz\n", None)
    w.write("p/m2.md", b"# Meeting\n\nz\n", None)
    w.write("p/tokyo.md", "# 東京\n\nw\n".encode(), None)
    w.write("p/a.md", "# A\n\nThe harbour plans changed; Ada said so at the meeting in 東京. "
            "`Port Plan` in code is not a mention.\n".encode(), None)
    w.write("p/b.md", b"# B\n\nSee [[harbour]]: the port plan again.\n", None)
    report = Dream(mem.store, NOW, force=True).run(("lint",))
    soft = json.loads((vault / ".aleph/local/soft-links.json").read_text())
    # Ada is too short, Meeting belongs to two notes, b already links to the harbour
    assert soft == [["p/a.md", "p/harbour.md", "Harbour Plans"],
                    ["p/a.md", "p/tokyo.md", "東京"]]
    assert report.soft_links == 2
    assert "[[p/a]] mentions \"Harbour Plans\" ([[p/harbour]])" in (
        vault / "_dream/lint.md").read_text()
    assert (vault / "p/a.md").read_text().count("[[") == 0  # never a body edit
    snap = snapshot(mem.store, NOW)
    harbour = snap.notes["p/harbour.md"]
    assert (harbour.inbound, harbour.soft_inbound, harbour.link_weight) == (1, 1, 1.5)
    # half-life: 30 d x (1 + 0.25 x 1.5 links) x 1.5 (importance 5)
    assert decay.salience(harbour, NOW)[1] == 30 * 1.375 * 1.5
    again = Dream(mem.store, NOW, force=True).run(("lint",))
    assert again.soft_links == 0  # known ones are kept, not new
    mem.close()


def test_lint_rules_can_be_turned_off_for_the_whole_vault(vault: Path) -> None:
    write(vault, "a.md", "# A\n\nSee [[nowhere]] and the Welcome note.\n")
    write(vault, "b.md", "# B\n\nAlone.\n")
    with open_mem(vault) as mem:
        mem.reindex()
        before = Dream(mem.store, NOW, force=True, dry_run=True).run(("lint",))
    assert {"L010", "L020"} <= {i["rule"] for i in before.issues}
    (vault / ".aleph" / "config.toml").write_text("lint_disable = ['L020', 'L010', 'L021']\n")
    with open_mem(vault) as mem:
        after = Dream(mem.store, NOW, force=True).run(("lint",))
    assert {i["rule"] for i in after.issues} & {"L010", "L020"} == set()
    assert not (vault / ".aleph/local/soft-links.json").exists()
