"""A dream a person trusts on their own vault (docs/design.md 4.2, 4.6): never over their
words, time from what happened, alarms only where a person sees a problem, proposals that
live until answered. Each rule beside its near-miss control."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

from conftest import open_mem, write
from dream_helpers import NOW

from aleph_mem.dream.journal import Journal
from aleph_mem.dream.lint import lint_issues
from aleph_mem.dream.runner import Dream
from aleph_mem.dream.snapshot import snapshot

YEAR_AGO = (NOW - dt.timedelta(days=400)).timestamp()


def aged(vault: Path, rel: str, text: str, when: float = YEAR_AGO) -> None:
    write(vault, rel, text)
    os.utime(vault / rel, (when, when))


def proposals(vault: Path) -> dict[str, dict]:
    return Journal(vault / ".aleph").proposals()


def test_a_persons_own_status_is_never_written_over(vault: Path) -> None:
    """`expires:` past on a note whose `status` is the person's: a proposal that keeps
    their status, the note byte for byte; the same note an agent wrote is marked stale."""
    mine = "---\nstatus: \"[[Active]]\"\nexpires: 2020-01-01\n---\n# Gym plan\n\nMondays.\n"
    write(vault, "mine/gym.md", mine)
    with open_mem(vault) as mem:
        mem.reindex()
        mem.store.writer(actor="mcp:agent").write(
            "agent/gym.md", mine.replace("Gym plan", "Gym plan copy").encode(), None)
        report = Dream(mem.store, NOW, force=True).run(("drift",))
        assert (vault / "mine/gym.md").read_text() == mine
        assert [p["what"] for p in report.proposed] == [
            "[[mine/gym]]: stale_reason: expired (expired: expires 2020-01-01 has passed; your "
            "status: [[Active]] is kept)"]
        assert mem.show("agent/gym").frontmatter["status"] == "stale"
        # the judgment counts without touching the note: in the index, for search
        assert mem.store.con.execute("SELECT path, status FROM judgments").fetchall() == [
            ("mine/gym.md", "stale")]
        # ticked, it adds its key and still keeps the person's
        digest = vault / report.digest if report.digest else None
        assert digest is None  # a drift-only run writes no digest; tick on the page
        page = vault / "_dream/proposals.md"
        Dream(mem.store, NOW, force=True).run(("digest",))
        page.write_text(page.read_text().replace("- [ ]", "- [x]"))
        mem.reindex()
        Dream(mem.store, NOW, force=True).run(("drift",))
        assert mem.show("mine/gym").frontmatter == {
            "status": "[[Active]]", "expires": "2020-01-01", "stale_reason": "expired"}


def test_a_persons_newer_edit_is_not_contradicted_by_an_older_note(vault: Path) -> None:
    """Brokers raised 3 -> 5 in the subject note without touching `updated:`: the older
    meeting note is the one asked about; the control pair that agrees is left alone."""
    aged(vault, "Kafka.md", "---\nupdated: 2025-01-01\n---\n# Kafka\n\nbrokers:: 3\n")
    aged(vault, "meetings/Kafka sync.md", "---\nsubject: '[[Kafka]]'\ndate: 2025-02-01\n---\n"
         "# Kafka sync\n\nbrokers:: 3\n")
    aged(vault, "Zookeeper.md", "---\nupdated: 2025-01-01\n---\n# Zookeeper\n\nnodes:: 3\n")
    aged(vault, "meetings/ZK sync.md", "---\nsubject: '[[Zookeeper]]'\ndate: 2025-02-01\n---\n"
         "# ZK sync\n\nnodes:: 3\n")
    with open_mem(vault) as mem:
        mem.reindex()
        write(vault, "Kafka.md", "---\nupdated: 2025-01-01\n---\n# Kafka\n\nbrokers:: 5\n")
        mem.reindex()  # the person's edit, logged today
        report = Dream(mem.store, NOW, force=True).run(("drift",))
        assert report.applied == []
        assert [p["what"].split(":")[0] for p in report.proposed] == ["[[meetings/Kafka sync]]"]
        assert "brokers: 3 here, 5 in [[Kafka]]" in report.proposed[0]["what"]
        # the person fixes the meeting note: the proposal is withdrawn, with a line
        write(vault, "meetings/Kafka sync.md", "---\nsubject: '[[Kafka]]'\ndate: 2025-02-01\n"
              "---\n# Kafka sync\n\nbrokers:: 5\n")
        mem.reindex()
        again = Dream(mem.store, NOW, force=True).run(("drift", "digest"))
        assert again.proposed == [] and mem.store.con.execute(
            "SELECT count(*) FROM judgments").fetchone()[0] == 0
        assert {p["state"] for p in proposals(vault).values()} == {"withdrawn"}
        assert len(again.withdrawn) == 1  # and said in the digest


def test_a_contradiction_that_goes_away_is_withdrawn_and_said(vault: Path) -> None:
    aged(vault, "Ana.md", "---\nupdated: 2025-01-01\n---\n# Ana\n\ncity:: Lisbon\n")
    aged(vault, "log/Ana moved.md", "---\nsubject: '[[Ana]]'\n---\n# Ana moved\n\ncity:: Porto\n",
         (NOW - dt.timedelta(days=10)).timestamp())
    with open_mem(vault) as mem:
        mem.reindex()
        first = Dream(mem.store, NOW, force=True).run(("drift",))
        assert [p["what"].split(":")[0] for p in first.proposed] == ["[[Ana]]"]
        os.remove(vault / "log/Ana moved.md")  # the person drops the newer note
        mem.reindex()
        second = Dream(mem.store, NOW, force=True).run(("drift", "digest"))
    assert [w["what"].split(":")[0] for w in second.withdrawn] == ["[[Ana]]"]
    digest = (vault / second.digest).read_text()
    assert "withdrawn " + first.proposed[0]["id"] in digest and "no longer finds it" in digest


def test_proposals_live_until_answered_and_a_dismissal_is_kept(vault: Path) -> None:
    """A month later an unticked proposal is still open and on the standing page; `- [-]`
    dismisses it for good; a tick on one no longer open is answered."""
    aged(vault, "offer.md", "---\nvalid_until: 2020-01-01\n---\n# Offer\n\nTen percent.\n")
    aged(vault, "coupon.md", "---\nvalid_until: 2020-01-01\n---\n# Coupon\n\nFive percent.\n")
    with open_mem(vault) as mem:
        mem.reindex()
        first = Dream(mem.store, NOW, force=True).run()
        ids = {p["what"].split(":")[0]: p["id"] for p in first.proposed if p["pass"] == "drift"}
        later = NOW + dt.timedelta(days=31)
        Dream(mem.store, later, force=True).run()
        assert {proposals(vault)[i]["state"] for i in ids.values()} == {"open"}
        page = (vault / "_dream/proposals.md").read_text()
        assert all(i in page for i in ids.values())
        page = page.replace("- [ ] drift: [[coupon]]", "- [-] drift: [[coupon]]")
        (vault / "_dream/proposals.md").write_text(page)
        mem.reindex()
        Dream(mem.store, later, force=True).run()
        assert proposals(vault)[ids["[[coupon]]"]]["state"] == "dismissed"
        assert proposals(vault)[ids["[[offer]]"]]["state"] == "open"  # the control waits
        assert ids["[[coupon]]"] not in (vault / "_dream/proposals.md").read_text()
        # the person edits the offer, then ticks its box on the page as they last saw it
        seen = (vault / "_dream/proposals.md").read_text()
        write(vault, "offer.md", "---\nvalid_until: 2020-01-01\n---\n# Offer\n\nTwenty.\n")
        mem.reindex()
        Dream(mem.store, later, force=True).run(("drift",))  # outdated, raised again as it holds
        assert proposals(vault)[ids["[[offer]]"]]["state"] == "open"
        (vault / "_dream/proposals.md").write_text(seen.replace(
            "- [ ] drift: [[offer]]", "- [x] drift: [[offer]]"))
        mem.reindex()
        applied = Dream(mem.store, later, force=True).run(("drift",))
    assert [a["path"] for a in applied.applied] == ["offer.md"]  # judged again: it holds
    with open_mem(vault) as mem:
        assert mem.show("offer").frontmatter == {
            "valid_until": "2020-01-01", "status": "stale", "stale_reason": "expired"}


def test_only_the_persons_own_words_are_judged(vault: Path) -> None:
    """"today" in code, a quote, a link or a clipped page is no alarm; in prose it is. A
    note of properties is no empty note; an empty one is. A template with placeholders is
    not judged; a note whose YAML is broken is."""
    aged(vault, "code.md", "# Code\n\n```python\nd = date.today()\n```\n\nCall `today()`.\n\n"
         "> Do it today, she said.\n\nSee [[today]] and https://x.org/today.\n")
    aged(vault, "prose.md", "# Prose\n\nI will call the bank today.\n")
    aged(vault, "Clippings/Article.md", "---\nsource: https://example.org/a\n---\n# Article\n\n"
         "Markets fell today.\n")
    aged(vault, "record.md", "---\ntype: book\nauthor: Le Guin\nrating: 5\n---\n")
    aged(vault, "blank.md", "\n")
    aged(vault, "Meta/Book card.md", "---\ncreated: {{date}}\ntags: [{{title}}]\n---\n"
         "# {{title}}\n")
    aged(vault, "broken.md", "---\ntags: [a\n---\n# Broken\n\ntext\n")
    with open_mem(vault) as mem:
        mem.reindex()
        issues = {(i.rule, i.path) for i in lint_issues(snapshot(mem.store, NOW))
                  if i.rule in ("L042", "L040", "L002")}
    assert issues == {("L042", "prose.md"), ("L040", "blank.md"), ("L002", "broken.md")}


def test_an_anchor_obsidian_resolves_is_not_broken(vault: Path) -> None:
    write(vault, "guide.md", "# Guide\n\n## Set up the sync\n\ntext\n")
    write(vault, "links.md", "# Links\n\n[a](guide.md#Set%20up%20the%20sync) and "
          "[b](guide.md#Set%20down)\n")
    with open_mem(vault) as mem:
        mem.reindex()
        broken = [i.message for i in lint_issues(snapshot(mem.store, NOW)) if i.rule == "L012"]
    assert broken == ["broken heading or block anchor [b](guide.md#Set%20down)"]


def test_a_judged_note_ranks_below_its_control_and_show_says_why(vault: Path) -> None:
    aged(vault, "old plan.md", "---\nstatus: draft\nexpires: 2020-01-01\n---\n# Harbour plan"
         "\n\nThe harbour ferry plan for spring.\n")
    aged(vault, "new plan.md", "---\nstatus: draft\n---\n# Harbour plan two\n\nThe harbour "
         "ferry plan for spring.\n")
    with open_mem(vault) as mem:
        mem.reindex()
        before = [h.path for h in mem.search("harbour ferry plan", mode="fts").hits]
        Dream(mem.store, NOW, force=True).run(("drift",))
        after = [h.path for h in mem.search("harbour ferry plan", mode="fts").hits]
        assert (vault / "old plan.md").read_text().startswith("---\nstatus: draft\n")
        assert after == ["new plan.md", "old plan.md"] and set(before) == set(after)
        assert mem.show("old plan").judgment["status"] == "stale"
        assert mem.show("new plan").judgment is None
        caveats = {r["path"]: r.get("caveat") for r in mem.context("harbour ferry plan").relevant}
        assert caveats["new plan.md"] is None
        assert caveats["old plan.md"].startswith("stale: expired: expires 2020-01-01 has passed")
        mem.reindex(rebuild=True)  # a rebuilt index gets the judgment back from the journal
        assert mem.show("old plan").judgment["status"] == "stale"


def test_undo_gives_back_the_file_time(vault: Path) -> None:
    with open_mem(vault) as mem:
        mem.reindex()
        mem.store.writer(actor="mcp:agent").write("a.md", b"# A\n\nx\n", None)
        os.utime(vault / "a.md", (YEAR_AGO, YEAR_AGO))
        mem.reindex()
        r = mem.store.writer(actor="mcp:agent").append("a.md", "more\n")
        assert (vault / "a.md").stat().st_mtime > YEAR_AGO + 86400
        mem.undo(r.event.id)
    assert (vault / "a.md").read_bytes() == b"# A\n\nx\n"
    assert (vault / "a.md").stat().st_mtime == YEAR_AGO


def test_a_merge_offers_to_repoint_links_into_the_archive(vault: Path) -> None:
    """After a merge, a person's index page linking the absorbed note gets a proposal to
    link the keeper instead; a link to a note archived for another reason (the near miss)
    is only reported."""
    same = "The ferry leaves the harbour at nine and returns at five every weekday.\n"
    with open_mem(vault) as mem:
        mem.reindex()
        w = mem.store.writer(actor="mcp:agent")
        w.write("notes/ferry.md", f"# Ferry\n\n{same}".encode(), None)
        w.write("notes/ferry copy.md", f"# Ferry copy\n\n{same}".encode(), None)
        w.write("notes/gone.md", b"# Gone\n\nold\n", None)
        for i in range(2):  # the kept note is the better linked one
            w.write(f"notes/trip {i}.md", f"# Trip {i}\n\nTook [[ferry]].\n".encode(), None)
        write(vault, "Index.md", "# Index\n\n- [[ferry copy]]\n- [[gone]]\n")
        mem.reindex()
        first = Dream(mem.store, NOW, force=True).run(("consolidate",))
        assert "archive/notes/ferry copy.md" in [a["path"] for a in first.applied]
        mem.store.writer(actor="dream:decay").archive("notes/gone.md")
        second = Dream(mem.store, NOW, force=True).run(("lint",))
    assert [p["what"] for p in second.proposed] == [
        "[[Index]]: L010 repaired [[ferry copy]] → [[ferry|ferry copy]]"]
    assert (vault / "Index.md").read_text() == "# Index\n\n- [[ferry copy]]\n- [[gone]]\n"
    assert any(i["rule"] == "L013" and "[[gone]]" in i["message"] for i in second.issues)
    # the keeper's `source_notes` is the merge's own record, not a link to restore
    assert not any(i["rule"] == "L013" and i["path"] == "notes/ferry.md" for i in second.issues)


def test_a_note_ticked_stale_is_offered_for_the_archive_a_week_later(vault: Path) -> None:
    """One question at a time: the expired note is first asked about as stale; once the
    person agrees, the archive is offered a week later, with its evidence (the near miss:
    three days later, not yet)."""
    (vault / ".aleph" / "config.toml").write_text("decay_min_watch_days = 0\n")
    aged(vault, "Lease.md", "---\nvalid_until: 2023-08-31\n---\n# Lease\n\nThe old flat.\n")
    with open_mem(vault) as mem:
        mem.reindex()
        first = Dream(mem.store, NOW, force=True).run(("drift", "decay", "digest"))
        assert [p["pass"] for p in first.proposed] == ["drift"]  # not also the archive
        page = vault / "_dream/proposals.md"
        page.write_text(page.read_text().replace("- [ ]", "- [x]"))
        mem.reindex()
        ticked = Dream(mem.store, NOW, force=True).run(("drift", "decay"))
        assert [a["path"] for a in ticked.applied] == ["Lease.md"] and ticked.proposed == []
        soon = Dream(mem.store, NOW + dt.timedelta(days=3), force=True).run(("decay",))
        week = Dream(mem.store, NOW + dt.timedelta(days=8), force=True).run(("decay",))
    assert soon.proposed == []
    assert [p["what"] for p in week.proposed] == [
        "archive [[Lease]] (stale: valid_until 2023-08-31 has passed)"]
