"""Surgical frontmatter edits: one key set or removed, every other byte (comments, key
order, quoting, CRLF, a BOM, the body) exactly as it was; an edit that would not read back
as intended leaves the note alone."""

from __future__ import annotations

import pytest

from aleph_mem.errors import BadInput
from aleph_mem.notes.frontmatter_edit import dump_entry, patch

NOTE = ("---\n"
        "# kept: a comment\n"
        "title: 'Heron'   # trailing comment\n"
        "tags:\n"
        "  - bird\n"
        "  - grey\n"
        "status: draft\n"
        "---\n"
        "# Heron\n\nbody  with  spaces \n\n")


def test_setting_one_key_changes_only_its_line() -> None:
    out = patch(NOTE.encode(), {"status": "done"})
    assert out == NOTE.replace("status: draft", "status: done").encode()


def test_a_new_key_goes_last_and_a_list_replaces_its_whole_entry() -> None:
    out = patch(NOTE.encode(), {"tags": ["heron"], "reviewed": "2026-11-23"})
    assert out.decode() == NOTE.replace("tags:\n  - bird\n  - grey\n", "tags:\n- heron\n") \
        .replace("status: draft\n", "status: draft\nreviewed: '2026-11-23'\n")


def test_removing_a_key_takes_its_nested_lines_with_it() -> None:
    out = patch(NOTE.encode(), unset=["tags", "missing"])
    assert out.decode() == NOTE.replace("tags:\n  - bird\n  - grey\n", "")


def test_removing_the_last_key_drops_the_empty_block() -> None:
    assert patch(b"---\nstatus: x\n---\nbody\n", unset=["status"]) == b"body\n"


def test_a_note_without_frontmatter_gets_a_block_and_keeps_its_bytes() -> None:
    body = "# Café\r\nline\r\n".encode()
    assert patch(body, {"status": "done"}) == b"---\r\nstatus: done\r\n---\r\n" + body
    assert patch(b"x\n", {"status": "done"}) == b"---\nstatus: done\n---\nx\n"
    assert patch(body, unset=["status"]) == body  # nothing to do: the same bytes
    assert patch(b"", {"a": 1}) == b"---\na: 1\n---\n"


def test_crlf_and_a_bom_are_kept() -> None:
    crlf = "\ufeff" + NOTE.replace("\n", "\r\n")
    out = patch(crlf.encode(), {"status": "done"}).decode()
    assert out == crlf.replace("status: draft", "status: done")


def test_values_yaml_would_misread_are_quoted_and_read_back() -> None:
    assert dump_entry("title", "[wip] plans") == ["title: '[wip] plans'"]
    assert dump_entry("when", "2026-11-23") == ["when: '2026-11-23'"]
    assert dump_entry("ok", "yes") == ["ok: 'yes'"]
    assert dump_entry("name", "Zoë: ✓") == ["name: 'Zoë: ✓'"]
    assert dump_entry("n", 3) == ["n: 3"]
    out = patch(b"---\na: 1\n---\n", {"title": "#not a comment"})
    assert out == b"---\na: 1\ntitle: '#not a comment'\n---\n"


def test_a_quoted_key_is_the_same_key() -> None:
    assert patch(b'---\n"status": draft\n---\nx\n', {"status": "done"}) == (
        b"---\nstatus: done\n---\nx\n")


@pytest.mark.parametrize(("data", "says"), [
    (b"---\ntitle: [unclosed\n---\nbody\n", "cannot edit the frontmatter safely"),
    (b"---\ntitle: x\nno end\n", "cannot edit the frontmatter safely"),
    ("---\ntitle: é\n---\n".encode("latin-1"), "not valid UTF-8"),
])
def test_a_frontmatter_that_cannot_be_edited_safely_is_refused(data: bytes, says: str) -> None:
    with pytest.raises(BadInput, match=says):
        patch(data, {"status": "done"})


def test_an_edit_that_would_not_round_trip_is_refused() -> None:
    # a key spelled twice: YAML keeps the last, the edit would change the first
    data = b"---\nstatus: a\nstatus: b\n---\n"
    with pytest.raises(BadInput, match="did not round-trip"):
        patch(data, {"status": "c"})
    assert patch(b"---\nstatus: a\nother: b\n---\n", {"status": "c"}) == (
        b"---\nstatus: c\nother: b\n---\n")  # the near miss
