"""Link resolution the way Obsidian does it: relative, exact path, name, path suffix,
attachment, alias, title; a tie broken by the linking note's folder, then the shortest
path, and a real tie kept as ambiguous with its candidates."""

from __future__ import annotations

import unicodedata

import pytest

from aleph_mem.index.resolver import (
    Resolution,
    Resolver,
    anchor_found,
    anchor_key,
    closest,
    github_slugs,
    note_key,
)
from aleph_mem.notes.inline_scan import Link

NOTES = ["Heron.md", "birds/Heron.md", "birds/waders/Heron.md", "birds/Owl.md",
         "fish/Owl.md", "projects/Plan.md", "archive/projects/Plan.md",
         unicodedata.normalize("NFD", "café.md"), "Normal ones or .md", "wet/Egret.md",
         "dry/Egret.md", "wet/deep/Egret.md"]
EGRETS = ("dry/Egret.md", "wet/Egret.md", "wet/deep/Egret.md")
RESOLVER = Resolver(NOTES, {"birds/Owl.md": ["Night Bird"], "fish/Owl.md": ["Night bird"]},
                    attachments=["img/Photo.PNG"], titles={"projects/Plan.md": "The Plan"})


def link(target: str, kind: str = "wikilink", heading: str | None = None,
         block: str | None = None) -> Link:
    return Link(f"[[{target}]]", kind, False, target, heading, block, None, 1)


@pytest.mark.parametrize(("target", "src", "expected"), [
    ("", "birds/Owl.md", Resolution("birds/Owl.md", "self", "resolved")),
    ("birds/heron", "x.md", Resolution("birds/Heron.md", "path", "resolved")),
    ("/birds/Owl.md", "x.md", Resolution("birds/Owl.md", "path", "resolved")),
    ("./Owl", "fish/a.md", Resolution("fish/Owl.md", "relative", "resolved")),
    ("../birds/Owl", "fish/a.md", Resolution("birds/Owl.md", "relative", "resolved")),
    ("waders/heron", "x.md", Resolution("birds/waders/Heron.md", "path_suffix", "resolved")),
    ("heron", "birds/waders/x.md",  # an exact vault path wins over the folder
     Resolution("Heron.md", "path", "resolved")),
    ("egret", "wet/deep/x.md",  # among names, the linking note's folder wins
     Resolution("wet/deep/Egret.md", "name", "resolved", EGRETS)),
    ("egret", "wet/x.md", Resolution("wet/Egret.md", "name", "resolved", EGRETS)),
    ("egret", "x.md", Resolution(None, "name", "ambiguous", EGRETS)),  # a real tie
    ("Owl", "x.md",  # else the shortest path: fewest folders, then fewest letters
     Resolution("fish/Owl.md", "name", "resolved", ("birds/Owl.md", "fish/Owl.md"))),
    ("Plan", "x.md", Resolution("projects/Plan.md", "name", "resolved",
                                ("archive/projects/Plan.md", "projects/Plan.md"))),
    ("night bird", "birds/x.md", Resolution("birds/Owl.md", "alias", "resolved",
                                            ("birds/Owl.md", "fish/Owl.md"))),
    ("Night Bird", "x.md", Resolution("fish/Owl.md", "alias", "resolved",
                                      ("birds/Owl.md", "fish/Owl.md"))),
    ("the plan", "x.md", Resolution("projects/Plan.md", "title", "resolved")),
    ("CAFÉ", "x.md", Resolution(unicodedata.normalize("NFD", "café.md"), "path", "resolved")),
    ("Normal ones or", "x.md", Resolution("Normal ones or .md", "path", "resolved")),
    ("img/photo.png", "x.md", Resolution("img/Photo.PNG", "attachment", "resolved")),
    ("photo.png", "x.md", Resolution("img/Photo.PNG", "attachment", "resolved")),
    ("Herons", "x.md", Resolution(None, None, "unresolved")),
    ("../../outside", "a.md", Resolution(None, None, "unresolved")),
])
def test_a_link_resolves_as_obsidian_would(target: str, src: str,
                                           expected: Resolution) -> None:
    assert RESOLVER.resolve(link(target), src) == expected


def test_a_markdown_link_is_relative_to_the_linking_note_first() -> None:
    r = RESOLVER.resolve(link("Owl.md", "markdown"), "fish/a.md")
    assert r == Resolution("fish/Owl.md", "relative", "resolved")
    # the same target as a wikilink is a name: the shortest path
    assert RESOLVER.resolve(link("Owl.md"), "projects/a.md").path == "fish/Owl.md"


def test_case_twins_on_linux_are_ambiguous_never_a_guess() -> None:
    r = Resolver(["notes/heron.md", "notes/Heron.md"], {})
    assert r.resolve(link("notes/heron"), "x.md") == Resolution(
        None, "path", "ambiguous", ("notes/Heron.md", "notes/heron.md"))


def test_note_key_folds_case_form_and_trims_parts() -> None:
    assert note_key("Birds /Héron.MD") == "birds/héron"
    assert note_key(unicodedata.normalize("NFD", "Café.md")) == "café"


def test_anchors_match_as_obsidian_and_github_do() -> None:
    heads = ["How large can it be?", "`hasTag()`", "E/R 模型", "习题", "习题"]
    assert anchor_key("How large can it be?") == "how large can it be"
    assert anchor_found(link("x", heading="How large can it be"), heads, []) is True
    assert anchor_found(link("x", heading="hasTag"), heads, []) is True
    assert anchor_found(link("x", heading="Top#How%20large%20can%20it%20be"), heads, [])
    assert anchor_found(link("x", "markdown", heading="er-模型"), heads, []) is True
    assert anchor_found(link("x", heading="er-模型"), heads, []) is False  # wikilinks: no slugs
    assert anchor_found(link("x", heading="How big"), heads, []) is False
    assert anchor_found(link("x", block="abc"), heads, ["abc"]) is True
    assert anchor_found(link("x", block="abd"), heads, ["abc"]) is False
    assert anchor_found(link("x"), heads, []) is None
    assert github_slugs(heads) == {"how-large-can-it-be", "hastag", "er-模型", "习题", "习题-1"}


def test_closest_suggests_what_a_misspelling_meant() -> None:
    known = [("birds/Heron.md", "Heron"), ("fish/Heron.md", "heron"), ("birds/Owl.md", "Owl")]
    assert closest("herom", known) == ["birds/Heron.md", "fish/Heron.md"]
    assert closest("zzz", known) == []
