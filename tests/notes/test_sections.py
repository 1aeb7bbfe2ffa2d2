"""Headings and their sections: only real headings count (not frontmatter, not fenced
code), a section ends at the next heading of its level or higher, and an unknown heading
lists the ones there are."""

from __future__ import annotations

import pytest

from aleph_mem.errors import BadInput
from aleph_mem.notes.sections import find_section, heading_lines

NOTE = """---
title: x
# not: a heading
---
# Birds
intro
## Heron ##
grey
```python
# a comment, not a heading
```
### Habitat
wet
## Owl
night
#hashtag is not a heading
#### Deep
# Fish
""".split("\n")


def test_heading_lines_skip_frontmatter_fences_and_tags() -> None:
    assert heading_lines(NOTE) == [(4, 1, "Birds"), (6, 2, "Heron"), (11, 3, "Habitat"),
                                   (13, 2, "Owl"), (16, 4, "Deep"), (17, 1, "Fish")]


@pytest.mark.parametrize(("heading", "span"), [
    ("Heron", (6, 13)),  # through its subsection, up to the next ## heading
    ("## heron", (6, 13)),  # the #s and the case are not part of the name
    ("Habitat", (11, 13)),
    ("Owl", (13, 17)),  # a deeper heading stays inside
    ("Birds", (4, 17)),
    ("Fish", (17, 19)),  # the last runs to the end
])
def test_find_section_spans_the_heading_to_the_next_of_its_level(heading: str,
                                                                  span: tuple) -> None:
    assert find_section(NOTE, heading) == span


def test_a_heading_ending_in_a_hash_is_found_by_its_name() -> None:
    lines = ["# Languages", "## C#", "typed", "## F#", "functional", "## Go ##", "simple"]
    assert heading_lines(lines) == [(0, 1, "Languages"), (1, 2, "C#"), (3, 2, "F#"),
                                    (5, 2, "Go")]
    assert find_section(lines, "C#") == (1, 3)
    assert find_section(lines, "Go") == (5, 7)


def test_an_unknown_heading_lists_the_headings_there_are() -> None:
    with pytest.raises(BadInput) as bad:
        find_section(NOTE, "Herons")
    assert str(bad.value) == (
        "no heading 'Herons' in this note (its headings: 'Birds', 'Heron', 'Habitat', "
        "'Owl', 'Deep', 'Fish'); use one of them, or leave the heading out")
    with pytest.raises(BadInput, match=r"its headings: none"):
        find_section(["no headings", "at all"], "x")
    with pytest.raises(BadInput):
        find_section([], "x")


def test_an_unclosed_fence_hides_the_headings_after_it() -> None:
    lines = ["# A", "~~~", "# inside", "# still inside"]
    assert heading_lines(lines) == [(0, 1, "A")]
