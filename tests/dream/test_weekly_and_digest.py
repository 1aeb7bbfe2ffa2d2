"""The weekly review, map-of-content proposals, the early weekly run and old digests."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from conftest import open_mem
from dream_helpers import NOW, agent_vault

from aleph_mem.dream.runner import Dream


def test_weekly_review_lists_clusters_and_is_stable(vault: Path) -> None:
    from aleph_mem.dream.runner import WEEKLY

    mem = open_mem(vault)
    mem.reindex()
    w = mem.store.writer(actor="mcp:test")
    for group, tag in (("boat", "sailing"), ("bread", "baking")):
        for i in range(4):
            w.write(f"{group}/{group}{i}.md", f"---\ntags: [{tag}]\n---\n# {group} {i}\n\n"
                    f"links [[{group}{(i + 1) % 4}]]\n".encode(), None)
    w.write("tags.md", b"---\ntags: [machine-learning, machinelearning]\n---\n# T\n\nx\n",
            None)
    report = Dream(mem.store, NOW, force=True).run(WEEKLY)
    weekly = next(a["path"] for a in report.applied if a["path"].startswith("_dream/weekly/"))
    text = (vault / weekly).read_text()
    assert "(4 notes)" in text and "[[boat/boat0]]" in text and "[[bread/bread3]]" in text
    assert "#sailing (4)" in text
    assert "#machine-learning and #machinelearning look like one tag" in text
    again = Dream(mem.store, NOW, force=True).run(WEEKLY)
    assert again.applied == []
    mem.close()


def test_digests_older_than_90_days_move_to_the_archive(vault: Path) -> None:
    mem = agent_vault(vault)
    old_day = (NOW - dt.timedelta(days=91)).date().isoformat()
    recent_day = (NOW - dt.timedelta(days=89)).date().isoformat()
    for day in (old_day, recent_day):
        mem.store.writer(actor="dream:digest").write(f"_dream/digests/{day}.md",
                                              f"---\ntype: digest\n---\n# {day}\n".encode(),
                                              None)
    report = Dream(mem.store, NOW, force=True).run(("digest",))
    assert not (vault / f"_dream/digests/{old_day}.md").exists()
    kept = vault / f"archive/_dream/digests/{old_day}.md"
    assert "archived_reason: old_digest" in kept.read_text()
    assert (vault / f"_dream/digests/{recent_day}.md").exists()
    assert [a["path"] for a in report.applied] == [f"archive/_dream/digests/{old_day}.md"]
    mem.close()


def test_a_big_cluster_without_a_hub_gets_a_map_of_content_proposal(vault: Path) -> None:
    from aleph_mem.dream.runner import WEEKLY

    mem = open_mem(vault)
    mem.reindex()
    w = mem.store.writer(actor="mcp:test")
    for i in range(6):
        w.write(f"garden/bed{i}.md", f"---\ntags: [garden]\n---\n# Bed {i}\n\nSoil notes "
                f"[[bed{(i + 1) % 6}]]\n".encode(), None)
    report = Dream(mem.store, NOW, force=True).run(WEEKLY)
    moc = [p for p in report.proposed if "Map of" in p["what"]]
    assert [p["what"] for p in moc] == ["write garden/Map of Bed 5.md"]
    digest = vault / "_dream/proposals.md"
    digest.write_text(digest.read_text().replace(f"- [ ] synthesis: write garden/Map of Bed "
                                                 f"5.md ({moc[0]['id']})",
                                                 f"- [x] synthesis: write garden/Map of Bed "
                                                 f"5.md ({moc[0]['id']})"))
    mem.reindex()
    Dream(mem.store, NOW, force=True).run(("digest",))
    text = (vault / "garden/Map of Bed 5.md").read_text()
    assert "type: moc" in text and "- [[garden/bed0|Bed 0]]" in text
    mem.close()


def test_many_important_changes_bring_the_weekly_run_forward(vault: Path) -> None:
    from aleph_mem.dream.runner import WEEKLY
    from aleph_mem.dream.schedule import weekly_due

    mem = open_mem(vault)
    mem.reindex()
    Dream(mem.store, NOW, force=True).run(WEEKLY)
    assert not weekly_due(mem.store, NOW + dt.timedelta(days=1))
    w = mem.store.writer(actor="mcp:test")
    for i in range(15):  # 15 x importance 10 = 150
        w.write(f"n/{i}.md", b"---\nimportance: 10\n---\n# Big\n\nnews\n", None)
    assert weekly_due(mem.store, NOW + dt.timedelta(days=1))
    mem.close()


def test_the_digest_counts_notes_not_the_paths_they_passed_through(vault: Path) -> None:
    """A note created and moved twice is one note under its path now; one created and
    deleted the same day is not listed; one note is "1 note". The near miss: a note
    created and left where it is."""
    from aleph_mem.memory import Memory

    with Memory.open(vault) as mem:
        mem.reindex()
        mem.write_bytes("notes/a.md", b"# A\n\nalpha\n", actor="cli")
        mem.move_note("notes/a.md", "notes/b.md", actor="cli")
        mem.move_note("notes/b.md", "notes/c.md", actor="cli")
        mem.write_bytes("notes/e.md", b"# E\n\ngone again\n", actor="cli")
        (vault / "notes" / "e.md").unlink()
        mem.reindex()
        report = mem.dream(force=True)
        text = (vault / report.digest).read_text()
    listed = text.split("## New and updated notes")[1].split("##")[0]
    assert "[[notes/c]]: created by cli, moved from `notes/a.md`" in listed
    assert "notes/a.md`:" not in listed and "notes/b" not in listed and "notes/e" not in listed
    assert "changed 1 note and" in text
    mem2 = Memory.open(vault)
    mem2.write_bytes("notes/f.md", b"# F\n\nstays\n", actor="cli")
    mem2.close()
    with Memory.open(vault) as mem:
        text = (vault / mem.dream(force=True).digest).read_text()
    assert "[[notes/f]]: created by cli" in text and "changed 2 notes and" in text
