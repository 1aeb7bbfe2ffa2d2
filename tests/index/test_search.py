"""Full-text search: any query string works, filters apply before ranking, hits point at
the exact place in a note."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import open_mem, write

from aleph_mem.index.search import Filters


@pytest.fixture
def mem(vault: Path):
    write(vault, "projects/db.md", "---\ntags: [project/aleph, db]\ndate: 2026-03-01\n---\n"
          "# Database\n\n## Setup\n\nWe chose SQLite with WAL mode for the index. ^choice\n\n"
          "## Later\n\nNothing about it here.\n")
    write(vault, "journal/day.md", "---\ncreated: 2025-01-10\n---\n# Day\n\n"
          "Talked about SQLite again, and about coffee.\n")
    write(vault, "journal/other.md", "# Other\n\nCoffee only. #drink\n")
    m = open_mem(vault)
    m.reindex()
    yield m
    m.close()


def test_hits_carry_path_anchor_title_line_and_highlighted_snippet(mem) -> None:
    hits = mem.search("sqlite wal").hits
    assert [h.path for h in hits] == ["projects/db.md", "journal/day.md"]
    top = hits[0].as_json()
    assert top == {"path": "projects/db.md", "anchor": "#^choice", "title": "db",
                   "score": top["score"], "snippet": "We chose **SQLite** with **WAL** mode for "
                   "the index.", "line": 9, "heading": ["Database", "Setup"],
                   "block_id": "choice"}
    assert top["score"] > hits[1].score > 0


def test_one_hit_per_note_by_default_and_chunks_on_request(mem) -> None:
    write(mem.vault.root, "projects/db.md", "# DB\n\nsqlite one\n\n## B\n\nsqlite two\n")
    mem.reindex()
    assert [h.path for h in mem.search("sqlite").hits].count("projects/db.md") == 1
    chunks = [(h.path, h.anchor) for h in mem.search("sqlite", group=False).hits]
    assert ("projects/db.md", "#DB") in chunks and ("projects/db.md", "#B") in chunks


@pytest.mark.parametrize("query", ['"', '"unbalanced', "a-b", "x:y", "*", "AND", "OR NOT",
                                   "NEAR(", "col:sqlite", "'; DROP TABLE notes; --", "^",
                                   "sqlite*", "(sqlite", "", "   ", "ünïcödé", "🚀"])
def test_any_typed_string_is_safe(mem, query: str) -> None:
    mem.search(query)  # never raises
    assert mem.store.con.execute("SELECT count(*) FROM notes").fetchone()[0] == 5


def test_quoted_phrase_and_punctuation(mem) -> None:
    assert [h.path for h in mem.search('"about coffee"').hits] == ["journal/day.md"]
    assert [h.path for h in mem.search("SQLite: WAL-mode!").hits][0] == "projects/db.md"


def test_filters_apply_before_ranking(mem) -> None:
    assert [h.path for h in mem.search("coffee", filters=Filters(folder="journal")).hits] == [
        "journal/other.md", "journal/day.md"]  # the shorter note ranks first (BM25)
    assert [h.path for h in mem.search("sqlite", filters=Filters(folder="journal/")).hits] == [
        "journal/day.md"]
    assert [h.path for h in mem.search("sqlite", filters=Filters(tags=("project",))).hits] == [
        "projects/db.md"]
    assert [h.path for h in mem.search("coffee", filters=Filters(tags=("#drink",))).hits] == [
        "journal/other.md"]
    assert [h.path for h in mem.search("sqlite", filters=Filters(since="2026-01-01")).hits] == [
        "projects/db.md"]
    assert [h.path for h in mem.search("sqlite", filters=Filters(until="2025-01-10")).hits] == [
        "journal/day.md"]
    assert mem.search("sqlite", filters=Filters(folder="nowhere")).hits == []


def test_title_matches_rank_the_note(mem) -> None:
    hits = mem.search("database").hits
    assert hits[0].path == "projects/db.md"


def test_the_file_name_is_the_title_and_a_stray_heading_only_one_more_name(vault) -> None:
    """Obsidian's title is the file name: a clipped page whose first heading says
    "Clippings" is still "Zettelkasten method" to search, show and lint."""
    from conftest import open_mem

    write(vault, "References/Zettelkasten method.md", "# Clippings\n\nSlip boxes and links.\n")
    write(vault, "References/Other page.md", "# Clippings\n\nAnother clipped page.\n")
    with open_mem(vault) as mem:
        mem.reindex()
        hits = mem.search("zettelkasten method").hits
        assert [(h.path, h.title) for h in hits][:1] == [
            ("References/Zettelkasten method.md", "Zettelkasten method")]
        assert {h.path for h in mem.search("clippings").hits} == {
            "References/Zettelkasten method.md", "References/Other page.md"}  # one more name
        assert mem.show("Zettelkasten method").title == "Zettelkasten method"


def test_a_hybrid_search_without_vectors_never_loads_the_model(vault) -> None:
    """Nothing to compare with: the model (a second and 300 MiB) is not loaded at all."""
    (vault / ".aleph" / "config.toml").write_text("")  # the bundled model, as installed
    write(vault, "notes/a.md", "# A\n\nsqlite notes\n")
    with open_mem(vault) as mem:
        mem.reindex()
        found = mem.search("sqlite")
        assert [h.path for h in found.hits] == ["notes/a.md"]
        assert mem.store.model_slot.tried is False and "no vectors yet" in found.notice


def test_snippets_keep_wikilinks_whole_and_bold_never_nests(vault: Path) -> None:
    from aleph_mem.index.search import search

    write(vault, "notes/links.md", "# Links\n\nSee [[Sync your notes across devices]] and "
          "**Timing decorators** for more.\n")
    write(vault, "notes/plain.md", "# Plain\n\nTiming the sync of notes on two devices.\n")
    with open_mem(vault) as mem:
        mem.reindex()
        hits = {h.path: h.snippet for h in search(mem.store.con, "sync notes devices timing "
                                                  "decorators", 5, mode="fts")}
    assert hits["notes/links.md"] == ("See [[Sync your notes across devices]] and **Timing "
                                      "decorators** for more.")
    # the near miss: words outside a link are bold, each run once
    assert hits["notes/plain.md"] == "**Timing** the **sync** of **notes** on two **devices**."


def test_a_questions_verb_does_not_outrank_its_subject(vault: Path) -> None:
    """"What food does my pet like": the note about the pet comes first, not notes that
    say "like" over and over (the near miss: "like" alone still finds them)."""
    write(vault, "pets/Biscuit.md", "# Biscuit\n\nMy pet gets salmon kibble every morning.\n")
    for k in range(2):
        write(vault, f"journal/{k}.md", f"# Day {k}\n\nI like it, you like it, we like "
              f"mornings like this one.\n")
    for k in range(20):
        write(vault, f"notes/n{k}.md", f"# Note {k}\n\nThe weather was grey on day {k}.\n")
    with open_mem(vault) as m:
        m.reindex()
        assert m.search("what food does my pet like", mode="fts").hits[0].path == "pets/Biscuit.md"
        assert {h.path for h in m.search("like", mode="fts").hits} == {
            "journal/0.md", "journal/1.md"}


def test_a_search_reads_one_snapshot_while_another_connection_deletes(tmp_path) -> None:
    """The watcher removes a note on its own connection while a search is between its
    ranking and its hits (a full run beside a busy CPU once met this: the hit's row was
    gone, and the search failed). Inside one snapshot the reader sees the index as it was;
    after it, the note is gone (the near miss: no snapshot, no old row)."""
    import apsw

    from aleph_mem.index.db import snapshot

    path = str(tmp_path / "i.db")
    writer = apsw.Connection(path)
    writer.execute("PRAGMA journal_mode=WAL")
    writer.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, path TEXT)")
    writer.execute("INSERT INTO notes(path) VALUES ('a.md'), ('b.md')")
    reader = apsw.Connection(path)

    def count() -> int:
        return reader.execute("SELECT count(*) FROM notes").fetchone()[0]

    with snapshot(reader):
        assert count() == 2
        writer.execute("DELETE FROM notes WHERE path = 'a.md'")
        assert count() == 2  # the same index throughout
        with snapshot(reader):  # nested: the outer one holds
            assert count() == 2
    assert count() == 1 and not reader.in_transaction
