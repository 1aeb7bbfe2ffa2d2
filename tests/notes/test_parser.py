"""Obsidian syntax, exactly: what is a link, a tag, a block id, and where chunks fall."""

from __future__ import annotations

from aleph_mem.notes.parser import parse


def links(src: str) -> list[tuple]:
    return [(lk.kind, lk.embed, lk.target, lk.heading, lk.block, lk.alias, lk.line)
            for lk in parse(src.encode(), "n").links]


def test_wikilink_forms() -> None:
    src = ("[[Target]] [[Target|shown]] [[Target#Head]] [[Target#^blk]] ![[embed]]\n"
           "[[Note#H1#H2]] ![[img.png|100x145]] [[#Local]] [[Вики заметка]] [[🚀 Launch]]\n")
    assert links(src) == [
        ("wikilink", False, "Target", None, None, None, 1),
        ("wikilink", False, "Target", None, None, "shown", 1),
        ("wikilink", False, "Target", "Head", None, None, 1),
        ("wikilink", False, "Target", None, "blk", None, 1),
        ("wikilink", True, "embed", None, None, None, 1),
        ("wikilink", False, "Note", "H1#H2", None, None, 2),
        ("wikilink", True, "img.png", None, None, "100x145", 2),
        ("wikilink", False, "", "Local", None, None, 2),
        ("wikilink", False, "Вики заметка", None, None, None, 2),
        ("wikilink", False, "🚀 Launch", None, None, None, 2),
    ]


def test_markdown_links_to_notes_only() -> None:
    src = ("[a](notes/db.md) [b](<with space.md>) [c](../up.md#Some%20Head) "
           "[d](https://example.com/x.md) [e](mailto:x@y) ![f](pic.png) "
           "[g](#Rage%20(Level%201)) [h](note.md \"title\")\n")
    assert links(src) == [
        ("markdown", False, "notes/db.md", None, None, "a", 1),
        ("markdown", False, "with space.md", None, None, "b", 1),
        ("markdown", False, "../up.md", "Some Head", None, "c", 1),
        ("markdown", True, "pic.png", None, None, "f", 1),
        ("markdown", False, "", "Rage (Level 1)", None, "g", 1),
        ("markdown", False, "note.md", None, None, "h", 1),
    ]


def test_nothing_in_code_or_comments_is_a_link_or_tag() -> None:
    src = """Real [[A]] #real

```
[[in-fence]] #fence
```

    [[indented-code]] #indented

Inline `[[span]] #span` and ``[[double `tick`]]`` and `dice: [](weapons.md#^w)`

> [!note] Callout
> ```js
> [[in-callout-fence]]
> ```

<!-- [[html-comment]] #hc -->
Text %% [[obsidian-comment]] #oc %% after [[B]]
"""
    note = parse(src.encode(), "n")
    assert [lk.target for lk in note.links] == ["A", "B"]
    assert note.tags == [("real", "inline")]


def test_table_escaped_pipe_and_line_numbers() -> None:
    src = "---\ntitle: T\n---\n| a | b |\n|---|---|\n| [[A\\|B]] | x |\n"
    assert links(src) == [("wikilink", False, "A", None, None, "B", 6)]


def test_tags_inline_nested_unicode_and_not_numbers() -> None:
    src = "#top and #nested/tag, #1984 not, #y2k yes, #тег, (#paren no) a#b no\n# Heading\n"
    note = parse(src.encode(), "n")
    assert [t for t, _ in note.tags] == ["top", "nested/tag", "y2k", "тег"]


def test_frontmatter_tags_aliases_title() -> None:
    src = ("---\ntitle: My Title\ntags: [one, '#two', nested/three]\n"
           "aliases: Single Alias\ncustom: {a: 1}\n---\n# Ignored H1\n")
    note = parse(src.encode(), "file")
    assert note.title == "file"  # Obsidian's title is the file name
    assert note.names == ["My Title", "Ignored H1"]  # other names search knows it by
    assert note.aliases == ["Single Alias"]
    assert note.tags == [("one", "frontmatter"), ("two", "frontmatter"),
                         ("nested/three", "frontmatter")]
    assert note.frontmatter["custom"] == {"a": 1}


def test_the_title_is_the_file_name_and_a_differing_h1_one_more_name() -> None:
    note = parse(b"text\n# First H1\n# Second\n", "file")
    assert (note.title, note.names) == ("file", ["First H1"])
    assert parse(b"# File\n", "file").names == []  # the same name, in another case
    assert parse(b"## only h2\n", "file-name").names == []
    assert parse(b"---\ntags: x\n---\nbody", "stem").tags == [("x", "frontmatter")]


def test_block_ids_and_chunks_follow_headings_and_paragraphs() -> None:
    src = """---
title: T
---
# Top

First paragraph. ^p1

Second paragraph.

## Sub

- item one
- item two ^list

| h |
|---|
| v |

^table
"""
    note = parse(src.encode(), "n")
    assert note.block_ids == [("p1", 6), ("list", 13), ("table", 19)]
    got = [(c.heading_path, c.block_id, c.line_start, c.line_end, c.text) for c in note.chunks]
    assert got == [
        (("Top",), "p1", 6, 6, "First paragraph."),
        (("Top",), None, 8, 8, "Second paragraph."),
        (("Top", "Sub"), "list", 12, 13, "- item one\n- item two"),
        (("Top", "Sub"), "table", 15, 19, "| h |\n|---|\n| v |"),
    ]
    assert [c.anchor for c in note.chunks] == ["#^p1", "#Top", "#^list", "#^table"]


def test_small_neighbouring_paragraphs_merge_but_block_ids_stay_addressable() -> None:
    src = "# H\n\none\n\ntwo\n\nthree ^b3\n\nfour\n"
    got = [(c.text, c.block_id, c.line_start, c.line_end)
           for c in parse(src.encode(), "n").chunks]
    assert got == [("one\n\ntwo", None, 3, 5), ("three", "b3", 7, 7), ("four", None, 9, 9)]


def test_long_block_is_split_at_line_boundaries() -> None:
    line = "word " * 100
    src = "\n".join([line.strip()] * 20) + "\n"
    chunks = parse(src.encode(), "n").chunks
    assert len(chunks) > 1
    assert chunks[0].line_start == 1 and chunks[-1].line_end == 20
    assert all(len(c.text) <= 2400 for c in chunks)


def test_one_overlong_line_is_cut_into_bounded_chunks_at_spaces() -> None:
    """A note of one line of 300 KB (issue #36: FTS5's snippet is quadratic in one huge
    chunk) becomes chunks of at most 2400 characters, cut at spaces, that together hold
    the whole line; its block id stays on its last piece. A run without spaces is cut hard.
    The control, a short line with a block id, is one chunk as before."""
    words = " ".join(f"w{i % 997}" for i in range(60_000))
    chunks = parse(f"# Long\n\n{words} ^tail\n".encode(), "n").chunks
    assert all(len(c.text) <= 2400 for c in chunks) and len(chunks) > 100
    assert " ".join(c.text for c in chunks) == words
    assert {(c.line_start, c.line_end, c.heading_path) for c in chunks} == {(3, 3, ("Long",))}
    assert [c.block_id for c in chunks] == [None] * (len(chunks) - 1) + ["tail"]
    run = parse(("x" * 6000 + "\n").encode(), "n").chunks
    assert [len(c.text) for c in run] == [2400, 2400, 1200]
    short = parse(b"# Long\n\nthree short words ^tail\n", "n").chunks
    assert [(c.text, c.block_id, c.line_start) for c in short] == [
        ("three short words", "tail", 3)]


def test_an_escaped_bracket_or_a_pattern_is_text_not_a_link() -> None:
    """``\\[[x]]`` is escaped and ``[[^\\]]+`` is a regular expression in prose: neither is
    a link (a broken-link report on them is noise); the plain link beside them is one."""
    note = parse(b"# T\n\nA\\[[x]] and [[^\\]]+ or [[:digit:]] match, see [[real]] and "
                 b"[[a\\|b]].\n", "T")
    assert [link.raw for link in note.links] == ["[[real]]", "[[a\\|b]]"]


def test_a_code_span_inside_a_wikilink_is_part_of_the_link() -> None:
    """As Obsidian reads it: ``[[#Using `+` here]]`` links the heading with the code span
    in it (blanking it made every such anchor broken); a link inside a code span is text."""
    note = parse(b"# T\n\n## Using `+` here\n\n[[#Using `+` here]] and `[[not a link]]`\n", "T")
    assert [(lk.raw, lk.heading) for lk in note.links] == [
        ("[[#Using `+` here]]", "Using `+` here")]


def test_a_reference_definition_is_a_link() -> None:
    """``[readme]: README.md`` links the note as CommonMark reads it (a vault written for
    GitHub links pages this way); a footnote, a web address and a definition in code are not."""
    note = parse(b"# T\n\nSee [the readme][readme][^1].\n\n[readme]: README.md\n[^1]: a note.md\n"
                 b"[web]: https://x.org\n"
                 b"[spec]: <docs/the spec.md#Intro> \"t\"\n\n```\n[q]: inside.md\n```\n", "T")
    assert [(lk.target, lk.heading, lk.line) for lk in note.links] == [
        ("README.md", None, 5), ("docs/the spec.md", "Intro", 8)]


def test_a_web_address_or_a_shell_test_in_brackets_is_not_a_note_link() -> None:
    """``[[https://…]]`` (a DokuWiki import) names a web page and ``[[ -f $1 ]]`` is a
    shell test; ``[[ spaced ]]`` (the near miss) is a link."""
    note = parse(b"# T\n\nif [[ $1 ]] or [[ -f x ]] or [[ $a == b ]]; see "
                 b"[[https://github.com/a/b]] and [[ spaced ]].\n", "T")
    assert [lk.raw for lk in note.links] == ["[[ spaced ]]"]
