"""Each alarm class earns its place (docs/dream.md): relative time read against the vault's
own daily-note format, expiry only from statements of validity, never from history. Every
planted case beside its near-miss control."""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path

from conftest import open_mem, write
from dream_helpers import NOW

from aleph_mem.dream.drift import plan_drift, plan_drift_all
from aleph_mem.dream.lint import lint_issues
from aleph_mem.dream.snapshot import snapshot
from aleph_mem.notes.note_dates import dated_name, moment_pattern

YEAR_AGO = (NOW - dt.timedelta(days=400)).timestamp()


def old(vault: Path, rel: str, text: str) -> None:
    write(vault, rel, text)
    os.utime(vault / rel, (YEAR_AGO, YEAR_AGO))


def lint_now(vault: Path) -> list:
    """The vault indexed as it is, and what lint finds in it now."""
    with open_mem(vault) as mem:
        mem.reindex()
        return lint_issues(snapshot(mem.store, NOW))


def test_names_are_dated_in_the_vaults_format_and_common_shapes() -> None:
    fmt = "D MMMM YYYY dddd"
    assert moment_pattern(fmt).fullmatch("25 November 2025 Tuesday")
    assert dated_name("Journal/25 November 2025 Tuesday.md", [fmt])
    assert dated_name("journals/2024_01_23.md") and dated_name("Log/20240123.md")
    assert dated_name("日记/2024年1月23日.md") and dated_name("Nov 25, 2025 standup.md")
    assert dated_name("2024/01/Notes.md", ["YYYY/MM/[Notes]"])
    for plain in ("Plan.md", "Release 2.0.md", "Room 101.md", "Tuesday ideas.md",
                  "Top 1000 words.md", "iPhone 15.md"):
        assert not dated_name(plain, [fmt]), plain


def test_relative_time_reads_against_the_vaults_daily_format(vault: Path) -> None:
    (vault / ".obsidian").mkdir(exist_ok=True)
    (vault / ".obsidian" / "daily-notes.json").write_text(json.dumps(
        {"format": "D MMMM YYYY dddd", "folder": "Journal"}))
    said = "# Bank\n\nI'll call the bank tomorrow about the card.\n"
    old(vault, "Journal/25 November 2025 Tuesday.md", said)  # dated by the vault's format
    old(vault, "Journal/Gratitude.md", said)  # in the daily notes' folder
    old(vault, "notes/call.md", said)  # the control: undated, it aged
    old(vault, "notes/essay.md", "# Habits\n\nToday is a good day to start a habit.\n")
    old(vault, "notes/themes.md", "# Themes\n\nI switched to the Tomorrow Night theme.\n")
    old(vault, "notes/howto.md", "# How to\n\nYou can open today's note from the ribbon.\n")
    old(vault, "notes/todo.md", "# Todo\n\n- [ ] ask Sam about the flat next week\n")
    old(vault, "notes/book.md", "# Refactoring\n\nSmall code is easy to change today.\n")
    with open_mem(vault) as mem:
        mem.reindex()
        first = {i.id for i in lint_issues(snapshot(mem.store, NOW)) if i.rule == "L042"}
        later = {i.id for i in lint_issues(snapshot(mem.store, NOW + dt.timedelta(days=9)))
                 if i.rule == "L042"}
    assert first == later == {
        'L042:notes/call.md:relative time "tomorrow" in a note its name does not date: '
        'write the date instead',
        'L042:notes/todo.md:relative time "next week" in a note its name does not date: '
        'write the date instead'}


def test_expiry_comes_from_validity_never_from_history(vault: Path) -> None:
    """On an agent's notes: a statement of validity whose end passed marks the note; history,
    a bare "until", a day's record and a quote do not. A person's note saying the same (the
    near miss) is left alone: their prose dates were a story's or history's, read blind."""
    notes = {
        "books/Empire.md": "---\ncreated: 2024-02-01\n---\n# Empire\n\nFrance kept the "
        "policy until 1914. The treaty was valid until 1920.\n",
        "books/Charter.md": "---\ncreated: 2024-02-01\n---\n# Charter\n\nThe charter is "
        "valid until 1920 in the book's world.\n",  # before the note was written
        "work/Budget.md": "# Budget\n\nTravel is limited until Dec. No plan until March.\n",
        "meetings/2025-01-10 Vendor.md": "# Vendor\n\nTheir offer is valid until March "
        "2025.\n",  # a meeting's record: what held that day
        "work/Quote.md": "> The discount is valid until March 2025.\n",  # a quote
        "story/Timeline.md": "# Timeline\n\nThe war ends on 2022-06-24.\n",  # a story's event
        "home/Offer.md": "---\ncreated: 2024-02-01\n---\n# Offer\n\nTheir offer is valid "
        "until March 2025.\n",  # the planted one: it stopped holding
    }
    old(vault, "mine/Offer.md", notes["home/Offer.md"])
    with open_mem(vault) as mem:
        mem.reindex()
        w = mem.store.writer(actor="mcp:agent")
        for path, text in notes.items():
            w.write(path, text.encode(), None)
        planned = {a.path: a.set_keys for a in plan_drift(snapshot(mem.store, NOW))}
    assert planned == {"home/Offer.md": {"status": "stale", "stale_reason": "expired",
                                         "valid_until": "2025-03-31"}}


def test_pages_a_query_or_a_tag_reaches_are_not_orphans(vault: Path) -> None:
    write(vault, "Books.md", "# Books\n\n```dataview\nTABLE author FROM #book OR \"Reading\"\n"
          "```\n")
    write(vault, "Reading/Dune.md", "# Dune\n\nSand.\n")  # its folder is queried
    write(vault, "Notes/Emma.md", "---\ntags: [book]\n---\n# Emma\n\nManners.\n")  # its tag
    write(vault, "Notes/Lone.md", "# Lone\n\nNothing reaches it.\n")  # the control
    orphans = {i.path for i in lint_now(vault) if i.rule == "L020"}
    assert orphans == {"Notes/Lone.md"}  # Books.md reaches pages through its query


def test_soft_mentions_only_for_distinctive_names(vault: Path) -> None:
    """A note named like a common word of the vault ("Links", in most notes) gets no soft
    links; a distinctive name mentioned twice does (the near miss)."""
    from aleph_mem.dream.mentions import find

    write(vault, "Links.md", "# Links\n\nSites.\n")
    write(vault, "Harbour Ferry.md", "# Harbour Ferry\n\nBoats.\n")
    for i in range(8):
        extra = " We took the harbour ferry." if i < 2 else ""
        write(vault, f"notes/n{i}.md", f"# Note {i}\n\nUseful links below.{extra}\n")
    with open_mem(vault) as mem:
        mem.reindex()
        soft = find(snapshot(mem.store, NOW))
    assert sorted(soft) == [("notes/n0.md", "Harbour Ferry.md", "Harbour Ferry"),
                            ("notes/n1.md", "Harbour Ferry.md", "Harbour Ferry")]


def test_an_anchor_with_a_code_span_resolves_and_a_wrong_one_is_broken(vault: Path) -> None:
    write(vault, "Java.md", "# Java\n\n## Concatenation with `+` Operator\n\nx\n\n"
          "See [[#Concatenation with `+` Operator]] and [[#Concatenation with `*` Operands]].\n")
    broken = [i.message for i in lint_now(vault) if i.rule == "L012"]
    assert broken == ["broken heading or block anchor [[#Concatenation with `*` Operands]]"]


def test_two_pages_that_describe_themselves_differently_do_not_contradict(vault: Path) -> None:
    """Two pages of one declared subject, each with its own `description:`: no
    contradiction; the near miss, a short value the two state differently (`port`), is
    one."""
    old(vault, "Plugins/Templates.md", "---\nsubject: '[[Templates]]'\nupdated: 2025-01-01\n"
        "description: Templates is a core plugin that inserts snippets.\nport: 80\n---\n"
        "# Templates\n\nx\n")
    old(vault, "Clipper/Templates.md", "---\nsubject: '[[Templates]]'\nupdated: 2025-03-01\n"
        "description: Web Clipper templates shape what a clipped page holds.\nport: 81\n---\n"
        "# Templates\n\ny\n")
    with open_mem(vault) as mem:
        mem.reindex()
        reasons = [a.reason for a in plan_drift_all(snapshot(mem.store, NOW))]
    assert len(reasons) == 1 and reasons[0].startswith("port: ")


def test_github_numbers_repeated_headings(vault: Path) -> None:
    write(vault, "Ex.md", "# Ex\n\n## 习题\n\n## 习题\n\n[a](#习题) [b](#习题-1) [c](#习题-2)\n")
    broken = [i.message for i in lint_now(vault) if i.rule == "L012"]
    assert broken == ["broken heading or block anchor [c](#习题-2)"]


def test_a_name_every_folder_repeats_names_each_folders_own_subject(vault: Path) -> None:
    """An agent's `Recon.md` in every CTF box's folder states each box's ports: no
    contradiction; the near miss, one person filed in two folders, still contradicts."""
    from aleph_mem.dream.drift import plan_fact_conflicts

    with open_mem(vault) as mem:
        mem.reindex()
        w = mem.store.writer(actor="mcp:agent")
        for i, box in enumerate(["Lame", "Blue", "Legacy"]):
            w.write(f"CTFs/{box}/Recon.md", f"---\nupdated: 2025-0{i + 1}-01\n---\n# Recon\n\n"
                    f"ports:: {20 + i}\n".encode(), None)
        w.write("people/Priya Raman.md", b"---\nupdated: 2025-01-01\n---\n# Priya\n\nphone:: 1\n",
                None)
        w.write("work/Priya Raman.md", b"---\nupdated: 2025-02-01\n---\n# Priya\n\nphone:: 2\n",
                None)
        planned = [a.path for a in plan_fact_conflicts(snapshot(mem.store, NOW))]
    assert planned == ["people/Priya Raman.md"]


def test_a_persons_notes_meet_only_by_a_declared_subject(vault: Path) -> None:
    """Two of a person's notes that share a name only: not one subject; the near miss, a
    meeting note that declares its subject, is asked about."""
    from aleph_mem.dream.drift import plan_fact_conflicts

    old(vault, "2023/Chapter 1.md", "---\nupdated: 2025-01-01\n---\n# Chapter 1\n\npages:: 30\n")
    old(vault, "2024/Chapter 1.md", "---\nupdated: 2025-02-01\n---\n# Chapter 1\n\npages:: 34\n")
    old(vault, "Kafka.md", "---\nupdated: 2025-03-01\n---\n# Kafka\n\nbrokers:: 5\n")
    old(vault, "meetings/Kafka sync.md", "---\nsubject: '[[Kafka]]'\nupdated: 2025-02-01\n---\n"
        "# Kafka sync\n\nbrokers:: 3\n")
    with open_mem(vault) as mem:
        mem.reindex()
        planned = [a.path for a in plan_fact_conflicts(snapshot(mem.store, NOW))]
    assert planned == ["meetings/Kafka sync.md"]


def test_a_logseq_graph_has_no_broken_links_and_none_is_rewritten(vault: Path) -> None:
    """In Logseq a page link makes its page: nothing is broken, orphaned or rewritten in
    Obsidian's syntax; the same notes without `logseq/config.edn` (the near miss) are
    judged as Obsidian does."""
    from aleph_mem.dream.lint import plan_lint

    write(vault, "pages/Groceries.md", "- [[Category/Groceries]] and [[groceries]] "
          "[[Jan 29th, 2023]]\n")
    write(vault, "pages/Category___Groceries.md", "- milk\n")
    write(vault, "journals/2023_01_29.md", "- went shopping\n")
    with open_mem(vault) as mem:
        mem.reindex()
        obsidian = {i.rule for i in lint_issues(snapshot(mem.store, NOW))}
        write(vault, "logseq/config.edn", "{:journal/page-title-format \"MMM do, yyyy\"}\n")
        snap = snapshot(mem.store, NOW)
        logseq = [i for i in lint_issues(snap) if i.rule in ("L010", "L011", "L012", "L020")]
        fixes = [a for a in plan_lint(snap) if a.reason.startswith("L010")]
    assert "L010" in obsidian and logseq == [] and fixes == []


def test_a_link_to_a_day_nobody_wrote_waits_on_the_lint_page(vault: Path) -> None:
    """A daily template's previous and next day, not written: on the lint page (L014),
    never in the digest; a dated meeting note that is missing (the near miss) is a broken
    link (L010)."""
    write(vault, "Daily/2024-01-12.md", "# 2024-01-12\n\n<< [[2024-01-11]] | [[2024-01-13]] >>\n"
          "See [[2024-01-10 Vendor meeting]].\n")
    found = sorted((i.rule, i.message) for i in lint_now(vault)
                   if i.rule in ("L010", "L014"))
    assert found == [("L010", "broken link [[2024-01-10 Vendor meeting]]"),  # in the digest
                     ("L014", "link to a day not written [[2024-01-11]]"),  # the lint page
                     ("L014", "link to a day not written [[2024-01-13]]")]


def test_a_markdown_anchor_written_for_github_finds_its_heading(vault: Path) -> None:
    """A vault written for GitHub or Typora links headings by their slug; a slug no
    heading has is still broken (the near miss), and a wikilink is read as Obsidian does."""
    write(vault, "DB.md", "# DB\n\n## E/R 模型中的约束\n\n## 1.2 Setup & Run\n\n"
          "[a](#er-模型中的约束) [b](#12-setup--run) [c](#er-模型中的键) [[#12-setup--run]]\n")
    broken = sorted(i.message for i in lint_now(vault) if i.rule == "L012")
    assert broken == ["broken heading or block anchor [[#12-setup--run]]",
                      "broken heading or block anchor [c](#er-模型中的键)"]


def test_a_link_broken_by_a_non_breaking_space_says_so(vault: Path) -> None:
    from aleph_mem.dream.lint import plan_lint

    write(vault, "C Pointers.md", "# C Pointers\n\nx\n")
    write(vault, "C MOC.md", "# C\n\n- [[C\u00a0Pointers]]\n- [[C Pointers]]\n")
    with open_mem(vault) as mem:
        mem.reindex()
        fix = next(a for a in plan_lint(snapshot(mem.store, NOW)) if a.path == "C MOC.md")
    assert fix.content == "# C\n\n- [[C Pointers]]\n- [[C Pointers]]\n"
    assert fix.reason == "L010 repaired [[C\u00a0Pointers]] → [[C Pointers]] (the link has a " \
        "non-breaking or doubled space its note's name has not)"


def test_a_folder_present_twice_keeps_the_original_and_its_tag_list(vault: Path) -> None:
    from aleph_mem.dream.consolidate import plan_consolidate

    text = ("---\ntags:\n  - food\n  - soup\n---\n# Soup\n\nSimmer the lentils for forty "
            "minutes with cumin, then blend half of them.\n")
    old(vault, "Recipes copy/Soup.md", text)  # the copy is the older file here
    write(vault, "Recipes/Soup.md", text)
    with open_mem(vault) as mem:
        mem.reindex()
        planned = plan_consolidate(snapshot(mem.store, NOW))
    assert [(a.op, a.path) for a in planned] == [("set", "Recipes/Soup.md"),
                                                 ("archive", "Recipes copy/Soup.md")]
    assert "tags" not in planned[0].set_keys  # the same tags: the list is left as written


def test_a_link_only_a_frontmatter_title_resolves_is_reported(vault: Path) -> None:
    """Obsidian opens [[Sourdough]] by a file name or alias, not by a `title:`; the alias
    (the near miss) is a link Obsidian opens."""
    write(vault, "bread-101.md", "---\ntitle: Sourdough\naliases: [Levain]\n---\n# Bread\n\nx\n")
    write(vault, "Bake.md", "# Bake\n\nSee [[Sourdough]] and [[Levain]].\n")
    broken = [i.message for i in lint_now(vault) if i.rule == "L010"]
    assert broken == ["broken link [[Sourdough]] (only bread-101.md's `title:` says so; "
                      "Obsidian links by file name): did you mean [[bread-101|Sourdough]]?"]


def test_a_persons_same_note_in_two_folders_is_kept_apart(vault: Path) -> None:
    """Two editions' identical chapter, each in its folder: no merge; the near misses, a
    folder copy and a page overwritten with another's text, are proposed."""
    from aleph_mem.dream.consolidate import plan_consolidate

    text = ("# Ch 1\n\nObjects send messages to each other; classes describe their behaviour "
            "and their state over time.\n")
    old(vault, "1.2/ch01.md", text)
    old(vault, "1.6/ch01.md", text)
    other = ("# Soup\n\nSimmer the lentils for forty minutes with cumin and onion, then blend "
             "half of them.\n")
    old(vault, "Recipes/Soup.md", other)
    old(vault, "Recipes copy/Soup.md", other)
    trip = ("# Lisbon\n\nTram 28 from Martim Moniz at eight, then the castle and the "
            "viewpoint before lunch.\n")
    old(vault, "Trips/Lisbon.md", trip)
    old(vault, "Places/Porto.md", trip)  # a page overwritten with another's text
    with open_mem(vault) as mem:
        mem.reindex()
        dropped = sorted(a.path for a in plan_consolidate(snapshot(mem.store, NOW))
                         if a.op == "archive")
    assert dropped == ["Recipes copy/Soup.md", "Trips/Lisbon.md"]


def test_a_repair_in_a_table_cell_escapes_its_bar(vault: Path) -> None:
    """A repaired link's `|` in a table row would end the cell: it is written `\\|`; in a
    list (the near miss) it is a plain bar."""
    from aleph_mem.dream.lint import plan_lint

    write(vault, "tide-table.md", "# Tides\n\nx\n")
    write(vault, "MOC.md", "# MOC\n\n| link | note |\n|---|---|\n| [[Tide Table]] | x |\n\n"
          "- [[Tide Table]]\n")
    with open_mem(vault) as mem:
        mem.reindex()
        fix = next(a for a in plan_lint(snapshot(mem.store, NOW)) if a.path == "MOC.md")
    assert fix.content == ("# MOC\n\n| link | note |\n|---|---|\n| [[tide-table\\|Tide Table]] | x"
                           " |\n\n- [[tide-table|Tide Table]]\n")


def test_a_timestamped_backup_gives_way_to_the_live_note(vault: Path) -> None:
    from aleph_mem.dream.consolidate import plan_consolidate

    text = ("# Skill\n\nRun the weekly review every Sunday evening and file the notes into "
            "their projects.\n")
    old(vault, "skills/SKILL_20260125_091807.md", text)  # the older file here
    write(vault, "skills/SKILL.md", text)
    with open_mem(vault) as mem:
        mem.reindex()
        planned = plan_consolidate(snapshot(mem.store, NOW))
    assert [(a.op, a.path) for a in planned] == [("set", "skills/SKILL.md"),
                                                 ("archive", "skills/SKILL_20260125_091807.md")]


def test_a_clippings_broken_links_wait_on_the_lint_page(vault: Path) -> None:
    write(vault, "Readwise/Books/Deep Work.md", "# Deep Work\n\n- Author: [[Cal Newport]]\n")
    write(vault, "notes/Focus.md", "# Focus\n\nSee [[Cal Newport]].\n")  # the near miss
    found = sorted((i.rule, i.path) for i in lint_now(vault)
                   if i.rule in ("L010", "L015"))
    assert found == [("L010", "notes/Focus.md"), ("L015", "Readwise/Books/Deep Work.md")]


def test_a_keepers_merged_from_heading_is_not_a_link_to_restore(vault: Path) -> None:
    """"## Merged from [[notes/old]]" in the kept note is the merge's record; another
    note's link into the archive (the near miss) is reported."""
    write(vault, "archive/notes/old.md", "---\nstatus: merged\nmerged_into: '[[notes/keep]]'\n"
          "---\n# Old\n\nx\n")
    write(vault, "notes/keep.md", "# Keep\n\nx\n\n## Merged from [[notes/old]]\n\ny\n")
    write(vault, "notes/other.md", "# Other\n\nSee [[notes/old]].\n")
    flagged = [i.path for i in lint_now(vault) if i.rule == "L013"]
    assert flagged == ["notes/other.md"]


def test_a_templates_expiry_is_a_placeholder(vault: Path) -> None:
    old(vault, "Templates/Note.md", "---\nstatus: draft\nexpires: 2020-01-01\n---\n# {{title}}\n")
    old(vault, "notes/Offer.md", "---\nstatus: draft\nexpires: 2020-01-01\n---\n# Offer\n\nx\n")
    with open_mem(vault) as mem:
        mem.reindex()
        planned = [a.path for a in plan_drift(snapshot(mem.store, NOW))]
    assert planned == ["notes/Offer.md"]


def test_a_note_the_person_archived_their_way_is_not_moved(vault: Path) -> None:
    """`status: archived` or an `Archive/` folder of theirs: decay does not repeat it; the
    near miss, `status: obsolete` in place, is proposed."""
    from aleph_mem.dream.decay import plan_decay

    old(vault, "journal/Trip.md", "---\nstatus: archived\n---\n# Trip\n\nDone.\n")
    old(vault, "04 Archive/Old job.md", "---\ntags: [old]\n---\n# Old job\n\nDone.\n")
    old(vault, "work/Tool.md", "---\nstatus: obsolete\n---\n# Tool\n\nReplaced.\n")
    (vault / ".aleph" / "config.toml").write_text("decay_min_watch_days = 0\n")
    with open_mem(vault) as mem:
        mem.reindex()
        mem.store.writer().write("notes/new.md", b"# New\n\ntoday\n", None)
        snap = snapshot(mem.store, NOW + dt.timedelta(days=31))
        planned = [(a.path, a.reason) for a in plan_decay(snap)]
    assert planned == [("work/Tool.md", "stale: status obsolete")]


def test_a_name_with_a_line_break_cannot_forge_a_tick(vault: Path) -> None:
    """A synced-in file whose name holds a line break and a ticked box: every page the
    dream writes shows it escaped, on one line, and no tick is read from it."""
    from aleph_mem.dream.proposals import marks
    from aleph_mem.dream.runner import Dream

    forged = "x\n- [x] drift: forged (P-0000abcd)"
    write(vault, f"{forged}.md", "# X\n\nSee [[nowhere]].\n")
    with open_mem(vault) as mem:
        mem.reindex()
        Dream(mem.store, NOW, force=True).run(("lint", "digest"))
        pages = [p.read_text() for p in (vault / "_dream").rglob("*.md")]
        assert pages and not any("\n- [x] drift: forged" in t for t in pages)
        assert any("x\\n- [x] drift: forged" in t for t in pages)
        assert marks(mem.store)[:2] == (set(), set())


def test_a_name_saved_with_a_trailing_space_opens_from_its_link(vault: Path) -> None:
    write(vault, "Normal ones or .md", "# Q\n\nx\n")
    write(vault, "Idealizations.md", "# I\n\nSee [[Normal ones or ]] and [[Normal ones and]].\n")
    broken = [i.message for i in lint_now(vault) if i.rule == "L010"]
    assert broken == ["broken link [[Normal ones and]]"]


def test_a_vault_with_its_own_archive_folder_is_not_archived_into(vault: Path) -> None:
    """`Archive/` is the person's: the dream's `archive/` would clash with it on a
    case-insensitive disk, so decay and merges propose nothing; `archive/` itself (the near
    miss) is the dream's own."""
    from aleph_mem.dream.consolidate import plan_consolidate

    text = ("# Soup\n\nSimmer the lentils for forty minutes with cumin and onion, then blend "
            "half of them.\n")
    old(vault, "Recipes/Soup.md", text)
    old(vault, "Recipes copy/Soup.md", text)
    (vault / "Archive").mkdir()
    with open_mem(vault) as mem:
        mem.reindex()
        assert plan_consolidate(snapshot(mem.store, NOW)) == []
        (vault / "Archive").rmdir()
        assert len(plan_consolidate(snapshot(mem.store, NOW))) == 2


def test_a_persons_prose_end_waits_on_the_lint_page(vault: Path) -> None:
    """A person's note whose text says its period ended: one line on the lint page (L043),
    the note untouched; a future end (the near miss) is nothing."""
    old(vault, "home/Lease.md", "---\ncreated: 2020-02-01\n---\n# Lease\n\nOur lease runs until "
        "March 2021.\n")
    old(vault, "home/Flat.md", "# Flat\n\nOur lease runs until March 2031.\n")
    with open_mem(vault) as mem:
        mem.reindex()
        snap = snapshot(mem.store, NOW)
        ended = [(i.path, i.message) for i in lint_issues(snap) if i.rule == "L043"]
        planned = plan_drift(snap)
    assert ended == [("home/Lease.md", 'the text says it ended 2021-03-31: "runs until March '
                      '2021"')]
    assert planned == []


def test_links_to_a_folder_or_the_web_are_not_broken(vault: Path) -> None:
    """`[notes](books/cpp)` opens the folder on GitHub; `[[pdf]](https://…)` is a web link
    whose text is "[pdf]"; a link to a folder that is not there (the near miss) is broken."""
    write(vault, "books/cpp/ch01.md", "# Ch 1\n\nx\n")
    write(vault, "README.md", "# Books\n\n- [notes](books/cpp) [[pdf]](https://x.org/a.pdf)\n"
          "- [notes](books/rust)\n")
    broken = [i.message for i in lint_now(vault) if i.rule == "L010"]
    assert broken == ["broken link [notes](books/rust)"]


def test_a_campaigns_session_logs_and_a_persons_inbox_never_fade_by_age(vault: Path) -> None:
    """A person's `Sessions/Session 4.md` (`type: session`) and `Inbox/` notes stay; a
    session note aleph-mem distilled (its `client` and `session_id`), the near miss, may
    fade."""
    from aleph_mem.dream.decay import plan_decay

    (vault / ".aleph" / "config.toml").write_text("decay_min_watch_days = 0\n")
    old(vault, "Sessions/Session 4.md", "---\ntype: session\n---\n# Session 4\n\nWe met.\n")
    old(vault, "Inbox/Thought.md", "# Thought\n\nmaybe\n")
    with open_mem(vault) as mem:
        mem.reindex()
        mem.store.writer(actor="sessions:claude-code").write(
            "agents/2025-01-01 fix.md", b"---\ntype: session\nclient: claude-code"
            b"\nsession_id: abc\n---\n# Fix\n\nFixed the build.\n", None)
        os.utime(vault / "agents/2025-01-01 fix.md", (YEAR_AGO, YEAR_AGO))
        mem.reindex()
        snap = snapshot(mem.store, NOW + dt.timedelta(days=400))
        planned = [a.path for a in plan_decay(snap)]
    assert planned == ["agents/2025-01-01 fix.md"]


def test_a_sync_engines_conflict_copy_gives_way(vault: Path) -> None:
    from aleph_mem.dream.consolidate import plan_consolidate

    text = ("# Don't Stop\n\nPlayed it twice on the drive home; the chorus sticks for days "
            "after.\n")
    old(vault, "Songs/Don't Stop_Mac.local_Jan-28-123711-2024_CaseConflict.md", text)
    write(vault, "Songs/Don't Stop.md", text)
    with open_mem(vault) as mem:
        mem.reindex()
        kept = [a.path for a in plan_consolidate(snapshot(mem.store, NOW)) if a.op != "archive"]
    assert kept == ["Songs/Don't Stop.md"]


def test_a_conflict_side_that_empties_the_note_is_not_offered(vault: Path) -> None:
    """Git markers whose other side is empty: keeping it would delete the note's only line,
    so only "ours" and "both" are offered; a conflict with text on both sides (the near
    miss) offers all three."""
    from aleph_mem.dream.conflict_plan import plan_conflicts

    write(vault, "link.md", "<<<<<<< HEAD\nhttps://x.org/a\n=======\n>>>>>>> other\n")
    write(vault, "plan.md", "<<<<<<< HEAD\nLeave at nine.\n=======\nLeave at ten.\n>>>>>>> o\n")
    with open_mem(vault) as mem:
        mem.reindex()
        ways = sorted((a.path, a.reason) for a in plan_conflicts(snapshot(mem.store, NOW)))
    assert [w for w in ways if w[0] == "link.md"] == [
        ("link.md", "git conflict: keep both, the other side under a heading"),
        ("link.md", "git conflict: keep this side (ours)")]
    assert len([w for w in ways if w[0] == "plan.md"]) == 3


def test_a_dangling_separator_is_not_a_loose_name_and_history_is_not_evidence(
        vault: Path) -> None:
    """`[[Haskell -]]` (the minus operator's note, not written) is not a loose `Haskell`;
    `[[mei-lin]]` (the near miss) is `Mei Lin`. "Replaced by SDRAM" tells history: no
    archive; "This page is obsolete" (the near miss) is the note's own word."""
    from aleph_mem.dream.decay import evidence
    from aleph_mem.dream.lint import plan_lint

    write(vault, "Haskell.md", "# Haskell\n\nx\n")
    write(vault, "Mei Lin.md", "# Mei Lin\n\nx\n")
    write(vault, "Ops.md", "# Ops\n\n- [[Haskell -]]\n- [[mei-lin]]\n")
    old(vault, "SIMM.md", "# SIMM\n\nReplaced by DIMM in the late 1990s.\n")
    old(vault, "Tool.md", "# Tool\n\nThis page is obsolete.\n")
    with open_mem(vault) as mem:
        mem.reindex()
        snap = snapshot(mem.store, NOW)
        fix = next(a for a in plan_lint(snap) if a.path == "Ops.md")
        said = {p: evidence(snap.notes[p], snap) for p in ("SIMM.md", "Tool.md")}
    assert fix.content == "# Ops\n\n- [[Haskell -]]\n- [[Mei Lin|mei-lin]]\n"
    assert said == {"SIMM.md": None, "Tool.md": 'says "This page is obsolete"'}


def test_a_plugins_link_and_an_unarchivable_name_are_left_alone(vault: Path) -> None:
    """`[[folder:内心]]` (ExcaliBrain's) is not a slip for the note `内心`; a merge whose
    absorbed note's name cannot move into archive/ ("?") is not proposed (it would be
    half done); the near miss, a loose name beside it, is repaired."""
    from aleph_mem.dream.consolidate import plan_consolidate
    from aleph_mem.dream.lint import plan_lint

    write(vault, "内心.md", "# 内心\n\nx\n")
    write(vault, "Tide Table.md", "# Tide\n\nx\n")
    write(vault, "excalibrain.md", "# E\n\n- [[folder:内心]]\n- [[tide-table]]\n")
    text = ("# RAG\n\nRetrieval augmented generation grounds a model's answer in documents it "
            "looks up first.\n")
    old(vault, "Clippings/Qué es RAG?.md", text)
    old(vault, "Clippings/Qué es RAG.md", text)
    with open_mem(vault) as mem:
        mem.reindex()
        snap = snapshot(mem.store, NOW)
        fix = next(a for a in plan_lint(snap) if a.path == "excalibrain.md")
        merged = [a for a in plan_consolidate(snap)]
    assert fix.content == "# E\n\n- [[folder:内心]]\n- [[Tide Table|tide-table]]\n"
    assert merged == []


def test_an_issue_an_undo_brings_back_is_not_new(tmp_path: Path) -> None:
    """A broken link fixed by the dream's run and back after its undo keeps the day it was
    first seen; one never seen before (the near miss) is new."""
    from aleph_mem.dream.lint import Issue, Ledger

    old_link = Issue("L010", "a.md", "broken link [[x]]")
    fresh = Issue("L010", "b.md", "broken link [[y]]")
    day1 = Ledger({}, {}).updated([old_link], "2026-01-01")
    day2 = day1.updated([], "2026-01-02")  # the run repaired it
    day2.save(tmp_path)
    back = Ledger.load(tmp_path).updated([old_link, fresh], "2026-01-02")  # undone
    assert (back.first_seen(old_link, "2026-01-02"), back.first_seen(fresh, "2026-01-02")) \
        == ("2026-01-01", "2026-01-02")
