"""The dream's judgment on a vault nobody here wrote, each rule beside its near-miss
control: what decay may archive, which names are a shared subject, which links Obsidian
resolves."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

from conftest import open_mem, write

from aleph_mem.dream.decay import plan_decay
from aleph_mem.dream.lint import lint_issues
from aleph_mem.dream.snapshot import snapshot

NOW = dt.datetime.now(dt.UTC)
YEAR_AGO = (NOW - dt.timedelta(days=400)).timestamp()


def old(vault: Path, rel: str, text: str) -> None:
    write(vault, rel, text)
    os.utime(vault / rel, (YEAR_AGO, YEAR_AGO))


def agent_old(vault: Path, rel: str, text: str) -> None:
    """A note an agent wrote through aleph-mem, a year ago (the file's time says so)."""
    with open_mem(vault) as mem:
        mem.store.writer(actor="mcp:agent").write(rel, text.encode(), None)
    os.utime(vault / rel, (YEAR_AGO, YEAR_AGO))


def year_old_vault(vault: Path, old=None) -> None:
    """A year-old vault an agent keeps (decay may archive its cold notes by age): plain
    notes, its readme, templates, maps. ``old`` writes a note (default: as the agent)."""
    old = old or agent_old
    for i in range(15):
        old(vault, f"notes/cold-{i:02}.md", f"# Cold {i}\n\nA plain thought number {i}.\n")
    old(vault, "README.md", "# My vault\n\nHow I keep notes.\n")
    old(vault, "Templates/Daily.md", "# {{date}}\n\n## Tasks\n")
    old(vault, "Blueprints/Meeting.md", "# Meeting\n\nattendees::\n")  # Obsidian's setting
    write(vault, ".obsidian/templates.json", '{"folder": "Blueprints"}')
    old(vault, "Topics/Cooking MOC.md", "# Cooking\n\nRecipes I like.\n")
    old(vault, "Topics/Garden.md", "---\ntags: [moc]\n---\n# Garden\n\nBeds and seeds.\n")
    old(vault, "Topics/Reading list.md", "# Reading list\n\n"
        + "".join(f"- [[cold-{i:02}]]\n" for i in range(6)))
    old(vault, "Projects/Projects.md", "# Projects\n\nAll my projects.\n")  # a folder note
    old(vault, "notes/hub.md", "# Hub\n\nA note many others link to.\n")
    for i in range(3):
        old(vault, f"notes/refers-{i}.md", f"# Refers {i}\n\nSee [[hub]].\n")
    # near misses: names that only look structural stay ordinary notes
    old(vault, "templates-old/Leftover.md", "# Leftover\n\nNot a template folder.\n")
    old(vault, "notes/Indexing strategy.md", "# Indexing strategy\n\nHow to index books.\n")
    old(vault, "notes/Links I liked.md", "# Links I liked\n\nA long paragraph about links "
        "and why [[hub]] matters, with more words than links, many more words.\n")


def test_decay_waits_until_it_has_watched_the_vault(vault: Path) -> None:
    year_old_vault(vault)
    with open_mem(vault) as mem:
        mem.reindex()
        assert plan_decay(snapshot(mem.store, NOW)) == []  # first run: nothing was ever watched
        mem.store.writer().write("notes/new.md", b"# New\n\nwritten today\n", None)
        assert plan_decay(snapshot(mem.store, NOW + dt.timedelta(days=29))) == []
        assert plan_decay(snapshot(mem.store, NOW + dt.timedelta(days=31))) != []


def test_decay_never_takes_the_vaults_structure_and_takes_ten_at_most(vault: Path) -> None:
    year_old_vault(vault)
    with open_mem(vault) as mem:
        mem.reindex()
        mem.store.writer().write("notes/new.md", b"# New\n\nwritten today\n", None)
        planned = plan_decay(snapshot(mem.store, NOW + dt.timedelta(days=31)))
    paths = [a.path for a in planned]
    assert len(paths) == 10 and not any(a.propose for a in planned)  # an agent's notes
    never = {"README.md", "Templates/Daily.md", "Blueprints/Meeting.md", "Projects/Projects.md",
             "Topics/Cooking MOC.md", "Topics/Garden.md", "Topics/Reading list.md",
             "notes/hub.md"}
    assert not never & set(paths)
    (vault / ".aleph" / "config.toml").write_text("decay_max_archives = 100\n")
    with open_mem(vault) as mem:
        all_cold = {a.path for a in plan_decay(snapshot(mem.store, NOW + dt.timedelta(days=31)))}
    near_misses = {"templates-old/Leftover.md", "notes/Indexing strategy.md",
                   "notes/Links I liked.md"}
    assert not never & all_cold and near_misses <= all_cold
    # the notes the reading list files are held by it (archiving them would point the
    # person's map into archive/); the same cold notes unlisted are archived
    assert all_cold == near_misses | {f"notes/cold-{i:02}.md" for i in range(6, 15)} | {
        f"notes/refers-{i}.md" for i in range(3)}
    assert set(paths) < all_cold


def test_a_generic_name_in_two_folders_is_not_one_subject(vault: Path) -> None:
    from aleph_mem.dream.drift import plan_fact_conflicts

    old(vault, "projects/alpha/Overview.md", "# Overview\n\nowner:: Ana\nport:: 5432\n")
    write(vault, "projects/beta/Overview.md", "# Overview\n\nowner:: Ben\nport:: 6543\n")
    old(vault, "daily/2025-03-01.md", "weather:: rain\n")
    write(vault, "journal/2025-03-01.md", "weather:: sun\n")
    # a person's two notes sharing only a name meet by no declared subject: not one subject
    old(vault, "people/Priya Raman.md", "# Priya Raman\n\nphone:: 555-0101\n")
    write(vault, "work/Priya Raman.md", "# Priya Raman\n\nphone:: 555-0199\n")
    # controls: a generic name named explicitly, a subject declared
    old(vault, "projects/gamma/Overview.md", "---\nsubject: '[[Gamma]]'\n---\nlead:: Cy\n")
    write(vault, "projects/gamma/Gamma status.md", "---\nsubject: '[[Gamma]]'\n---\nlead:: Di\n")
    with open_mem(vault) as mem:
        mem.reindex()
        planned = plan_fact_conflicts(snapshot(mem.store, NOW))
    assert sorted((a.path, a.reason) for a in planned) == [
        ("projects/gamma/Overview.md", "lead: Cy here, Di in [[projects/gamma/Gamma status]]")]


def test_obsidian_judges_links_a_heading_is_not_a_name(vault: Path) -> None:
    from aleph_mem.dream.lint import lint_issues, plan_lint

    write(vault, "people/priya.md", "# Priya Raman\n\nWorks on the ferry project.\n")
    write(vault, "notes/some-note.md", "# Some note\n\ntext\n")
    write(vault, "notes/gen-123.md", "---\ntitle: Declared Title\n---\n# Declared Title\n\nx\n")
    write(vault, "notes/meeting.md", "# Meeting\n\nWith [[Priya Raman]] about [[some note]]"
          " and [[Declared Title]].\n")
    # controls: links Obsidian opens, and one already written as the fix says
    write(vault, "people/Ada Lovelace.md", "# Ada\n\nMathematician.\n")
    write(vault, "notes/other.md", "# Other\n\nWith [[Ada Lovelace]] and [[priya|Priya Raman]]"
          " and [[Ada]]... no, Ada is only a heading here.\n")
    with open_mem(vault) as mem:
        mem.reindex()
        snap = snapshot(mem.store, NOW)
        found = sorted((i.path, i.message) for i in lint_issues(snap) if i.rule == "L010")
        fixes = {a.path: a for a in plan_lint(snap) if a.reason.startswith("L010")}
    heading = " (only {}'s heading or title says so; Obsidian links by file name)"
    assert found == [
        ("notes/meeting.md", "broken link [[Declared Title]] (only notes/gen-123.md's `title:` "
         "says so; Obsidian links by file name): did you mean [[gen-123|Declared Title]]?"),
        ("notes/meeting.md", "broken link [[Priya Raman]]" + heading.format("people/priya.md")
         + ": did you mean [[priya|Priya Raman]]?"),
        ("notes/meeting.md", "broken link [[some note]]: did you mean [[some-note]]?"),
        ("notes/other.md", "broken link [[Ada]]" + heading.format("people/Ada Lovelace.md")
         + ": did you mean [[Ada Lovelace|Ada]]?")]
    assert fixes["notes/meeting.md"].propose  # a person's note: asked, never rewritten
    # a name only another note's heading or title gives is a guess: hinted, never rewritten
    assert ("With [[Priya Raman]] about [[some-note|some note]] and [[Declared Title]]."
            in fixes["notes/meeting.md"].content)


def test_one_run_reaches_the_fixpoint_and_undo_regenerates_the_digest(vault: Path) -> None:
    with open_mem(vault) as mem:
        mem.reindex()
        w = mem.store.writer(actor="mcp:agent")
        w.write("db/Postgres.md", b"---\nvalid_from: 2025-01-01\n---\n# Postgres\n\n"
                b"port:: 5432\nhost:: db1\n", None)
        w.write("ops/Postgres.md", b"---\nvalid_from: 2025-06-01\n---\n# Postgres\n\n"
                b"port:: 6543\nhost:: db1\n", None)
        first = mem.dream(force=True)
        assert sorted(a["path"] for a in first.applied if a["pass"] == "drift") == [
            "db/Postgres.md", "ops/Postgres.md"]
        older, newer = mem.show("db/Postgres.md"), mem.show("ops/Postgres.md")
        assert (older.frontmatter["status"], older.frontmatter["superseded_by"]) == (
            "contradicted", "[[ops/Postgres]]")
        assert newer.frontmatter["supersedes"] == "[[db/Postgres]]"
        digest = (vault / first.digest).read_bytes()
        second = mem.dream(force=True)  # the same day: nothing left to plan or write
        assert (second.applied, second.proposed, second.digest, second.skipped) == (
            [], [], None, [])
        assert (vault / first.digest).read_bytes() == digest
        undone = mem.undo(first.run_id, "cli")
        assert undone.refused == [] and first.digest in undone.regenerate
        assert "status" not in mem.show("db/Postgres.md").frontmatter
        after_undo = (vault / first.digest).read_text()
        assert "undo" in after_undo and after_undo != digest.decode()
        third = mem.dream(force=True)  # the digest is still the dream's: never "you edited"
        assert not [s for s in third.skipped if s["path"] == first.digest]


def test_consolidate_merges_the_same_facts_only_and_loses_no_line(vault: Path) -> None:
    from aleph_mem.dream.consolidate import plan_consolidate

    filler = ("We keep this note to remember how the whole thing works, step by step, "
              "for the next time we need it in the kitchen or at the office.")
    sourdough = f"# Sourdough\n\nFeed the starter at 8 pm with 50 g flour. {filler}\n"
    write(vault, "recipes/Sourdough.md", sourdough)
    write(vault, "inbox/Sourdough.md", sourdough)  # an inbox copy of a filed note
    write(vault, "notes/Ferry times.md", f"# Ferry times\n\nThe ferry leaves Oban at 9 am. "
          f"{filler}\n")
    write(vault, "notes/Ferry times copy.md", f"# Ferry times copy\n\nThe ferry leaves Oban at "
          f"9 am. {filler}\nBring the tickets.\n")
    # near misses: the same words with one fact changed
    write(vault, "recipes/Pancakes.md", f"# Pancakes\n\nMix 200 g flour with 3 eggs. {filler}\n")
    write(vault, "recipes/Pancakes copy.md", f"# Pancakes copy\n\nMix 300 g flour with 3 eggs. "
          f"{filler}\n")
    write(vault, "ops/Failover.md", f"# Failover\n\nFail over to host Tarn when it breaks. "
          f"{filler}\n")
    write(vault, "ops/Failover copy.md", f"# Failover copy\n\nFail over to host Brae when it "
          f"breaks. {filler}\n")
    write(vault, "ops/Database.md", f"# Database\n\nWe will use the big server here. {filler}\n")
    write(vault, "ops/Database copy.md", f"# Database copy\n\nWe will not use the big server "
          f"here. {filler}\n")
    with open_mem(vault) as mem:
        mem.reindex()
        planned = plan_consolidate(snapshot(mem.store, NOW))
    merged = sorted((a.path, a.op) for a in planned)
    assert merged == [("inbox/Sourdough.md", "archive"), ("notes/Ferry times copy.md", "archive"),
                      ("notes/Ferry times.md", "fold"), ("recipes/Sourdough.md", "set")]
    fold = next(a for a in planned if a.op == "fold")
    assert fold.content == "## Merged from [[notes/Ferry times copy]]\n\nBring the tickets."
    assert all(a.propose for a in planned)  # a person's notes: only ever proposed


def test_a_missing_attachment_is_a_broken_link_never_a_stale_note(vault: Path) -> None:
    """An image in a pasted README or a linked file that is gone: a broken link (L010) on
    the note, which stays fresh; a web address without its scheme is neither (the near
    miss); a template's placeholders are left alone."""
    from aleph_mem.dream.drift import plan_drift

    write(vault, "README.md", "# My vault\n\nImport [the snippets](snippets/admon.json).\n"
          "![shot](assets/screenshot.png) from [the site](example.com) and [docs](www.x.org/a)\n")
    write(vault, "Templates/NPC.md", "# {{name}}\n\n![portrait](images/{{name}}.png)\n")
    with open_mem(vault) as mem:
        mem.reindex()
        mem.store.writer(actor="mcp:agent").write(
            "notes/agent.md", b"# Agent\n\nSee [the log](logs/gone.txt).\n", None)
        snap = snapshot(mem.store, NOW)
        planned = plan_drift(snap)
        broken = sorted((i.path, i.message) for i in lint_issues(snap) if i.rule == "L010")
    assert planned == []
    assert broken == [("README.md", "broken link ![shot](assets/screenshot.png)"),
                      ("README.md", "broken link [the snippets](snippets/admon.json)"),
                      ("notes/agent.md", "broken link [the log](logs/gone.txt)")]


def test_stale_facts_stated_in_prose_take_the_periods_end(vault: Path) -> None:
    from aleph_mem.dream.drift import plan_drift
    from aleph_mem.notes.prose_dates import validity_end

    written = dt.date(2023, 1, 10)
    planted = {"The office is open until March 2021.": "2021-03-31",
               "The voucher expires 2024-05-01.": "2024-05-01",
               "The pilot runs through Q3 2023.": "2023-09-30",
               "This discount is valid till end of June.": "2023-06-30"}
    for text, end in planted.items():
        assert str(validity_end(text, written)[0]) == end, text
    for control in ("The office is open until March 2031.",
                    "We used Postgres until March 2021; now we use MySQL.",
                    "I will wait until I find time.", "The shop is open until 5 pm.",
                    "Keep the May 2021 notes together.", "Stay until may be too late."):
        found = validity_end(control, written)
        assert found is None or found[0] > NOW.date(), control
    write(vault, "notes/office.md", "---\nupdated: 2020-06-01\n---\n# Office\n\n"
          "The office is open until March 2021.\n")
    write(vault, "notes/history.md", "---\nupdated: 2020-06-01\n---\n# History\n\n"
          "We used Postgres until March 2021; now we use MySQL.\n")
    write(vault, "notes/future.md", "# Future\n\nThe lease runs until March 2031.\n")
    with open_mem(vault) as mem:
        mem.reindex()
        mem.store.writer(actor="mcp:agent").write(
            "notes/pilot.md", b"---\nupdated: 2023-01-10\n---\n# Pilot\n\n"
            b"The pilot runs through Q3 2023.\n", None)
        planned = {a.path: a for a in plan_drift(snapshot(mem.store, NOW))}
    # an agent's note only: a person's prose dates were a story's or history's when read
    # blind (docs/benchmarks.md), so their office note is left alone
    assert sorted(planned) == ["notes/pilot.md"]
    assert planned["notes/pilot.md"].set_keys == {
        "status": "stale", "stale_reason": "expired", "valid_until": "2023-09-30"}
    assert not planned["notes/pilot.md"].propose


def test_a_changed_statement_is_another_thing_and_a_merge_is_one_box(vault: Path) -> None:
    """Lower-case words and list numbers carry facts too ("toor dal" / "moong dal", "2.
    promote ns2" / "2. promote ns3"); a copy with only a line added is proposed as one
    checkbox that shows the differing line side by side, and ticking it applies both."""
    from aleph_mem.dream.consolidate import plan_consolidate

    dal = ("# Dal\n\n| Ingredient | Amount |\n| --- | --- |\n| toor dal | 250 g |\n"
           "| onion | 1 |\n\nSimmer everything gently with the spices and serve it warm with "
           "rice and a simple salad on the side.\n")
    write(vault, "recipes/Dal.md", dal)
    write(vault, "recipes/Dal v2.md", dal.replace("toor dal", "moong dal"))
    dns = ("# DNS cutover\n\n1. Confirm `ns1` is down from two regions before anything.\n"
           "2. Promote `ns2` and point the service at it on port 53.\n"
           "3. Watch error rates for fifteen minutes, then write up the incident.\n")
    write(vault, "ops/DNS cutover.md", dns)
    write(vault, "ops/DNS cutover v2.md", dns.replace("`ns2`", "`ns3`"))
    write(vault, "ops/Restart.md", dns.replace("DNS cutover", "Restart"))
    write(vault, "ops/Restart (2).md", dns.replace("DNS cutover", "Restart")
          + "\nWritten up again from memory.\n")
    with open_mem(vault) as mem:
        mem.reindex()
        planned = plan_consolidate(snapshot(mem.store, NOW))
        assert sorted(a.path for a in planned) == ["ops/Restart (2).md", "ops/Restart.md"]
        assert len({a.group for a in planned}) == 1
        fold = next(a for a in planned if a.op == "fold")
        assert fold.shows == ("| ops/Restart (kept) | ops/Restart (2) (archived) |",
                              "| --- | --- |", "|   | Written up again from memory. |")
        report = mem.dream(force=True)
        assert "- 1 wait on [[_dream/proposals]], oldest first: 1 merges" in (
            vault / report.digest).read_text()  # the box waits on the proposals page
        page = vault / "_dream/proposals.md"
        text = page.read_text()
        boxes = [ln for ln in text.splitlines() if ln.startswith("- [ ] consolidate")]
        assert len(boxes) == 1 and "| --- | --- |" in text
        page.write_text(text.replace(boxes[0], "- [x]" + boxes[0][5:]))
        mem.reindex()
        applied = mem.dream(force=True)
    assert sorted(a["path"] for a in applied.applied if a["pass"] == "consolidate") == [
        "archive/ops/Restart (2).md", "ops/Restart.md"]
    assert "Written up again from memory." in (vault / "ops/Restart.md").read_text()
    assert (vault / "recipes/Dal v2.md").exists() and (vault / "ops/DNS cutover v2.md").exists()


def test_a_broken_link_names_its_fix_only_when_one_note_is_close(vault: Path) -> None:
    from aleph_mem.dream.lint import lint_issues

    for name in ("Amara Okafor", "Tomás Ortega", "Lisbon 2025", "Jon Smith", "Jan Smith"):
        write(vault, f"people/{name}.md", f"# {name}\n\nx\n")
    write(vault, "notes/plan.md", "# Plan\n\n[[Amara Okafro]] [[Tomas Ortega]] [[mei-lin]]\n"
          "[[Lisbon 2026]] [[Jen Smith]] [[Quarterly plan]]\n")
    write(vault, "people/Mei Lin.md", "# Mei Lin\n\nx\n")
    with open_mem(vault) as mem:
        mem.reindex()
        found = {i.message for i in lint_issues(snapshot(mem.store, NOW)) if i.rule == "L010"}
    assert found == {"broken link [[Amara Okafro]]: did you mean [[Amara Okafor]]?",
                     "broken link [[Tomas Ortega]]: did you mean [[Tomás Ortega]]?",
                     "broken link [[mei-lin]]: did you mean [[Mei Lin]]?",
                     "broken link [[Lisbon 2026]]",  # another number: another thing
                     "broken link [[Jen Smith]]",  # two notes as close: never a guess
                     "broken link [[Quarterly plan]]"}


def test_decay_spares_what_a_map_files_or_a_live_note_links_or_a_person_is_asked(
        vault: Path) -> None:
    year_old_vault(vault)
    old = agent_old
    old(vault, "notes/filed.md", "# Filed\n\nA recipe the cooking map lists.\n")
    old(vault, "Topics/Cooking.md", "---\ntags: [moc]\n---\n# Cooking\n\n- [[filed]]\n")
    old(vault, "notes/linked.md", "# Linked\n\nAn old note a fresh one points to.\n")
    write(vault, "notes/fresh.md", "# Fresh\n\nSee [[linked]].\n")  # written today
    old(vault, "notes/unfiled.md", "# Unfiled\n\nThe same kind of note, listed nowhere.\n")
    (vault / ".aleph").mkdir(exist_ok=True)
    (vault / ".aleph" / "config.toml").write_text("decay_max_archives = 100\n")
    with open_mem(vault) as mem:
        mem.reindex()
        mem.store.writer().write("notes/new.md", b"# New\n\nwritten today\n", None)
        cold = {a.path for a in plan_decay(snapshot(mem.store, NOW + dt.timedelta(days=31)))}
    assert "notes/unfiled.md" in cold
    assert not {"notes/filed.md", "notes/linked.md"} & cold


def test_dated_notes_keep_their_relative_times_and_prose_reads_expires_in(vault: Path) -> None:
    from aleph_mem.dream.lint import lint_issues
    from aleph_mem.notes.prose_dates import validity_end

    old(vault, "Daily/2025-03-08.md", "# 2025-03-08\n\n- check the calendar for next week\n")
    old(vault, "Meetings/Sync.md", "---\ndate: 2025-03-08\n---\n# Sync\n\nDecide next week.\n")
    old(vault, "notes/plan.md", "# Plan\n\nWe decide next week.\n")  # undated: it aged
    with open_mem(vault) as mem:
        mem.reindex()
        aged = {i.path for i in lint_issues(snapshot(mem.store, NOW)) if i.rule == "L042"}
    assert aged == {"notes/plan.md"}
    written = dt.date(2023, 1, 10)
    assert str(validity_end("The card expires in December 2023.", written)[0]) == "2023-12-31"
    assert validity_end("It expires in 30 days.", written) is None


def test_a_persons_contradiction_is_asked_once(vault: Path) -> None:
    """A contradiction between a person's notes is one question (the older note), never a
    second one for the reverse ``supersedes``; a second run asks nothing new."""
    write(vault, "Contacts/Jonas details.md", "---\nsubject: '[[Jonas]]'\n---\n# Jonas details"
          "\n\n- Phone:: +44 7700 900123\n")
    os.utime(vault / "Contacts/Jonas details.md", (YEAR_AGO, YEAR_AGO))
    write(vault, "Inbox/Jonas update.md", "---\nsubject: '[[Jonas]]'\n---\n# Jonas update\n\n"
          "- Phone:: +44 7700 900456\n")
    with open_mem(vault) as mem:
        mem.reindex()
        first = mem.dream(force=True)
        second = mem.dream(force=True)
    assert [a for a in first.applied if a["pass"] == "drift"] == []  # a person's notes
    assert [p["what"].split(":")[0] for p in first.proposed] == ["[[Contacts/Jonas details]]"]
    assert (second.applied, second.proposed) == ([], [])


def test_a_shared_name_is_the_file_name_obsidian_links_by(vault: Path) -> None:
    from aleph_mem.dream.lint import lint_issues

    write(vault, "Recipes/Banana bread.md", "# Banana bread\n\nx\n")
    write(vault, "Recipes/Banana bread v2.md", "# Banana bread\n\ny\n")  # one H1: two names
    write(vault, "Inbox/Sourdough.md", "# Sourdough\n\nx\n")
    write(vault, "Recipes/Sourdough.md", "# Sourdough\n\nx\n")  # one name: [[Sourdough]]
    for project in ("Heron", "Atlas"):  # a generic name in each folder: named by the folder
        write(vault, f"Projects/{project}/Overview.md", f"# {project}\n\nx\n")
    write(vault, "Templates/Daily.md", "# {{date}}\n\nTomorrow:\n")
    with open_mem(vault) as mem:
        mem.reindex()
        issues = lint_issues(snapshot(mem.store, NOW + dt.timedelta(days=30)))
    assert sorted(i.path for i in issues if i.rule == "L030") == [
        "Inbox/Sourdough.md", "Recipes/Sourdough.md"]
    assert not [i for i in issues if i.path.startswith("Templates/")]


def test_a_persons_notes_fade_only_on_their_own_word(vault: Path) -> None:
    """A person's year-old vault: reference pages, a daily note, a recipe are never proposed
    for the archive on age alone; a note the person tagged `old`, filed in `Old/` and
    listed by a map of content is, with its evidence; beside it the same note untagged in
    the same map (the near miss) is not, nor is a person's inbox note by its age."""
    year_old_vault(vault, old=old)
    old(vault, "Old/Phone plan.md", "---\ntags: [old]\n---\n# Phone plan\n\nThe 2021 plan.\n")
    old(vault, "Plans/Phone plan 2.md", "# Phone plan 2\n\nThe plan we have now.\n")
    old(vault, "Topics/Plans MOC.md", "# Plans\n\n- [[Phone plan]]\n- [[Phone plan 2]]\n")
    old(vault, "notes/Say so.md", "# Say so\n\nThis page is deprecated: see the new one.\n")
    old(vault, "inbox/half a thought.md", "# Half a thought\n\nmaybe later\n")
    # near misses: the word about something else, and a clipped page saying it of itself
    old(vault, "notes/Zaps.md", "# Zaps\n\nAutomate outdated workflows with Zapier.\n")
    old(vault, "notes/Clip.md", "---\nurl: https://x.org/a\n---\n# Clip\n\nThis page is "
        "deprecated.\n")
    with open_mem(vault) as mem:
        mem.reindex()
        mem.store.writer().write("notes/new.md", b"# New\n\nwritten today\n", None)
        planned = plan_decay(snapshot(mem.store, NOW + dt.timedelta(days=31)))
    assert sorted((a.path, a.reason, a.propose) for a in planned) == [
        ("Old/Phone plan.md", "stale: in the folder Old/", True),
        ("notes/Say so.md", 'stale: says "This page is deprecated"', True)]
