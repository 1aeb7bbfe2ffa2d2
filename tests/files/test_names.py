"""Which names a new note may have: names Obsidian, Windows or a synced phone cannot hold
are refused with the reason, and a twin that differs only by case or Unicode form is
named; every refused name has a near miss beside it that passes."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

from aleph_mem.errors import BadName
from aleph_mem.files.names import check_new_name, fold_name, name_problem, twin_of, twin_on_disk

NFD_CAFE = unicodedata.normalize("NFD", "café")


@pytest.mark.parametrize(("bad", "near_miss", "reason"), [
    ("notes/a:b.md", "notes/a-b.md", "characters Windows or Obsidian links cannot use: :"),
    ("a|b.md", "a b.md", "characters Windows or Obsidian links cannot use: |"),
    ("plan #2.md", "plan 2.md", "characters Windows or Obsidian links cannot use: #"),
    ("[wip] x.md", "(wip) x.md", "characters Windows or Obsidian links cannot use: [ ]"),
    ("a\\b.md", "a b.md", "characters Windows or Obsidian links cannot use: \\"),
    ("con.md", "cone.md", "con is a reserved device name on Windows"),
    ("LPT1.notes.md", "LPT10.md", "LPT1 is a reserved device name on Windows"),
    ("projects/nul/x.md", "projects/null/x.md", "nul is a reserved device name on Windows"),
    ("draft /x.md", "draft/x.md",
     "a leading space or a trailing space or dot (Windows drops them)"),
    ("done./x.md", "done/x.md", "a leading space or a trailing space or dot (Windows drops them)"),
    (" x.md", "x.md", "a leading space or a trailing space or dot (Windows drops them)"),
    (".hidden.md", "hidden.md",
     "hidden names (starting with '.') are not notes: editors and sync skip them"),
    ("~backup.md", "back~up.md",
     "names starting with '~' look like a home folder or an editor's backup"),
    ("a\tb.md", "a b.md", "control or invisible formatting characters U+0009"),
    ("zero\u200bwidth.md", "zero width.md", "control or invisible formatting characters U+200B"),
    ("notes//a.md", "notes/a.md", "empty folder or file name"),
    ("../a.md", "a.md", "empty folder or file name"),
    (".ALEPH/x.md", "ALEPH/x.md",
     ".ALEPH is reserved for tools (on macOS and Windows .aleph too)"),
    ("x" * 253 + ".md", "x" * 252 + ".md", "longer than 255 bytes, the limit of file systems"),
    ("é" * 127 + ".md", "é" * 126 + ".md", "longer than 255 bytes, the limit of file systems"),
])
def test_a_name_that_breaks_sync_or_links_is_refused_with_its_reason(
        bad: str, near_miss: str, reason: str) -> None:
    part = next(p for p in bad.split("/") if name_problem(p))
    assert name_problem(bad) == f"{reason} (in {part!r})"
    assert name_problem(near_miss) is None


def test_a_name_in_nfd_form_is_refused_and_its_nfc_twin_passes() -> None:
    assert name_problem(f"{NFD_CAFE}.md") == (
        "the name is not in Unicode NFC form (macOS and Windows would show it as another name)")
    assert name_problem("café.md") is None
    assert name_problem("日本語/ノート.md") is None  # any script, in NFC, is a name


def test_fold_name_meets_case_and_unicode_twins_only() -> None:
    assert fold_name("Notes/Café.md") == fold_name(f"notes/{NFD_CAFE}.md") == "notes/café.md"
    assert fold_name("Straße.md") == fold_name("STRASSE.md")  # casefold, not lower
    assert fold_name("cafe.md") != fold_name("café.md")


def test_twin_of_names_the_other_spelling_never_the_same_one() -> None:
    existing = ["Heron.md", "notes/Owl.md"]
    assert twin_of("heron.md", existing) == "Heron.md"
    assert twin_of("NOTES/owl.md", existing) == "notes/Owl.md"
    assert twin_of("Heron.md", existing) is None  # the note itself is no twin
    assert twin_of("herons.md", existing) is None
    assert twin_of("heron.md", []) is None


def test_a_twin_on_disk_is_found_folder_by_folder(tmp_path: Path) -> None:
    (tmp_path / "Projects").mkdir()
    (tmp_path / "Projects" / f"{NFD_CAFE}.md").write_text("x")
    assert twin_on_disk(tmp_path, "projects/new.md") == "Projects"
    assert twin_on_disk(tmp_path, "Projects/café.md") == f"Projects/{NFD_CAFE}.md"
    assert twin_on_disk(tmp_path, "Projects/cafe.md") is None
    assert twin_on_disk(tmp_path, "Projects/new/deeper.md") is None  # a folder not made yet
    assert twin_on_disk(tmp_path, "Other/x.md") is None


def test_check_new_name_refuses_with_the_path_and_says_what_to_write_to(
        tmp_path: Path) -> None:
    (tmp_path / "Heron.md").write_text("x")
    with pytest.raises(BadName) as bad:
        check_new_name(tmp_path, "heron.md")
    assert "'Heron.md'" in str(bad.value) and "write to 'Heron.md'" in str(bad.value)
    with pytest.raises(BadName, match="reserved device name"):
        check_new_name(tmp_path, "aux.md")
    with pytest.raises(BadName, match="'Owl.md'"):  # a twin known to the index, not on disk
        check_new_name(tmp_path, "owl.md", existing=["Owl.md"])
    check_new_name(tmp_path, "Egret.md", existing=["Owl.md"])  # near miss: no error
    assert sorted(p.name for p in tmp_path.iterdir()) == ["Heron.md"]  # nothing written
