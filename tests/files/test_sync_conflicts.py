"""Sync engines' conflict copies, recognised by name only in an engine's own shape with a
date in it, and git's conflict markers only in order and outside fenced code."""

from __future__ import annotations

import pytest

from aleph_mem.files.sync_conflicts import copy_of, has_markers, sides


@pytest.mark.parametrize(("path", "expected"), [
    ("heron.sync-conflict-20261123-101500-ABCDEFG.md", ("heron.md", "syncthing")),
    ("birds/heron.sync-conflict-20261123-101500.md", ("birds/heron.md", "syncthing")),
    ("heron (conflict_on_2026-11-23).md", ("heron.md", "unison")),
    ("a/heron (Ana's conflicted copy 2026-11-23).md", ("a/heron.md", "conflicted copy")),
    ("heron (Conflicted Copy 2026-11-23 101500).md", ("heron.md", "conflicted copy")),
    ("heron_conflict-20261123-101500.md", ("heron.md", "nextcloud")),
    ("日記.sync-conflict-20261123-101500-ABCDEFG.md", ("日記.md", "syncthing")),
])
def test_a_conflict_copy_names_its_note_and_engine(path: str, expected: tuple) -> None:
    assert copy_of(path) == expected


@pytest.mark.parametrize("path", [
    "Ukraine (conflict).md",  # a note about a conflict: no date
    "heron (Ana's conflicted copy).md",  # no date in it
    "heron.sync-conflict-2026-11-23.md",  # not Syncthing's shape
    "heron.sync-conflict-20261123-101500-abcdefg.md",  # Syncthing's id is upper case
    "heron.sync-conflict-20261123-101500-ABCDEFG.txt",  # not a note
    ".sync-conflict-20261123-101500.md",  # no note it copies
    "heron_conflict-2026.md",
    "heron.md",
])
def test_a_near_miss_is_a_note_not_a_copy(path: str) -> None:
    assert copy_of(path) is None


CONFLICT = ("# Heron\n"
            "<<<<<<< HEAD\n"
            "grey, 1 m\n"
            "=======\n"
            "grey, 90 cm\n"
            ">>>>>>> origin/main\n"
            "tail\n")


def test_markers_in_order_are_a_conflict_and_sides_split_it() -> None:
    assert has_markers(CONFLICT)
    assert sides(CONFLICT) == ("# Heron\ngrey, 1 m\ntail\n", "# Heron\ngrey, 90 cm\ntail\n")


def test_sides_keep_crlf_line_ends() -> None:
    crlf = CONFLICT.replace("\n", "\r\n")
    assert has_markers(crlf)
    assert sides(crlf) == ("# Heron\r\ngrey, 1 m\r\ntail\r\n",
                           "# Heron\r\ngrey, 90 cm\r\ntail\r\n")


@pytest.mark.parametrize("text", [
    "```\n" + CONFLICT + "```\n",  # an example in fenced code
    "~~~diff\n" + CONFLICT + "~~~\n",
    CONFLICT.replace("=======\n", ""),  # no middle
    CONFLICT.replace("<<<<<<< HEAD\n", ""),  # no opening
    ">>>>>>> x\n=======\n<<<<<<< y\n",  # out of order
    "Title\n=======\n",  # a setext heading's underline
    CONFLICT.replace("=======", "========"),  # eight is not seven
    "",
])
def test_near_misses_are_not_conflict_markers(text: str) -> None:
    assert not has_markers(text)


def test_sides_of_a_text_without_markers_are_the_text_twice() -> None:
    assert sides("a\nb") == ("a\nb", "a\nb")
