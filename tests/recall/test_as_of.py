"""The vault as it was: a history built on chosen days (``ALEPH_MEM_NOW``), then searched
and read at dates between the changes, each beside its near miss (a note created the day
after the date asked; an edit a minute before it)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import open_mem, write

from aleph_mem.errors import BadInput


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch):
    """Set the day aleph-mem lives in (its documented ALEPH_MEM_NOW)."""
    def at(when: str) -> None:
        monkeypatch.setenv("ALEPH_MEM_NOW", when)
    return at


def history(vault: Path, clock) -> None:
    with open_mem(vault) as mem:
        mem.reindex()
        w = mem.store.writer(actor="mcp:agent")
        clock("2026-01-10T09:00:00Z")
        w.write("infra/db.md", b"# Database\n\nThe postgres port is 5432.\n", None)
        w.write("projects/heron.md", b"# Heron\n\nHeron ships in spring. The port plan "
                b"is on hold.\n", None)
        clock("2026-02-11T09:00:00Z")  # the day after 2026-02-10
        w.write("infra/db.md", b"# Database\n\nThe postgres port is 5433 since the "
                b"migration.\n", mem.show("infra/db").hash)
        w.write("infra/cache.md", b"# Cache\n\nRedis listens on port 6379.\n", None)
        clock("2026-03-10T09:00:00Z")
        w.archive("projects/heron.md")
    clock("2026-03-20T09:00:00Z")
    write(vault, "notes/scratch.md", "# Scratch\n\nport ideas\n")
    with open_mem(vault) as mem:
        mem.reindex()  # a person's new note, logged on this day
    clock("2026-04-01T11:59:00Z")
    os.remove(vault / "notes/scratch.md")
    with open_mem(vault) as mem:
        mem.reindex()  # deleted by the person a minute before noon


def test_search_answers_from_the_versions_of_that_day(vault: Path, clock) -> None:
    history(vault, clock)
    with open_mem(vault) as mem:
        then = {h.path: h for h in mem.search_as_of("postgres port", "2026-02-10").hits}
        assert "5432" in then["infra/db.md"].snippet
        assert then["infra/db.md"].version == {"as": "the text of",
                                               "at": "2026-01-10T09:00:00.000Z",
                                               "event": then["infra/db.md"].version["event"]}
        assert "infra/cache.md" not in then  # created the day after: absent
        assert "projects/heron.md" in then  # archived a month later: as it was
        # an old version is titled by its note's name, and every hit has a real score
        # (a handful of candidates alone once weighed every word nothing: all 0.00)
        assert then["infra/db.md"].title == "db"
        assert all(h.score > 0.1 for h in then.values())
        assert list(then)[0] == "infra/db.md"  # both words, before "port" alone
        later = {h.path: h for h in mem.search_as_of("port", "2026-02-11").hits}
        assert "5433" in later["infra/db.md"].snippet and "infra/cache.md" in later
        now = [h.path for h in mem.search("postgres port", mode="fts").hits]
        assert "5433" in mem.show("infra/db").content and now[0] == "infra/db.md"


def test_an_edit_a_minute_before_counts_and_a_deleted_note_answers_with_its_text(
        vault: Path, clock) -> None:
    history(vault, clock)
    with open_mem(vault) as mem:
        assert "notes/scratch.md" in {h.path for h in mem.search_as_of(
            "port ideas", "2026-04-01T11:58:00Z").hits}
        assert "notes/scratch.md" not in {h.path for h in mem.search_as_of(
            "port ideas", "2026-04-01T12:00:00Z").hits}  # deleted a minute before
        assert mem.show_as_of("notes/scratch", "2026-03-25").content == \
            "# Scratch\n\nport ideas\n"
        with pytest.raises(BadInput, match="did not exist"):
            mem.show_as_of("notes/scratch", "2026-03-19")


def test_show_reads_a_note_as_it_was_and_says_which_version(vault: Path, clock) -> None:
    history(vault, clock)
    with open_mem(vault) as mem:
        old = mem.show_as_of("Database", "2026-02-10")
        assert old.content == "# Database\n\nThe postgres port is 5432.\n"
        assert old.version["since"] == "2026-01-10T09:00:00.000Z" and old.version["by"] == \
            "mcp:agent"
        assert "5433" in mem.show_as_of("Database", "2026-02-11").content
        heron = mem.show_as_of("projects/heron", "2026-03-01")  # archived since
        assert heron.path == "projects/heron.md" and "ships in spring" in heron.content
        with pytest.raises(BadInput, match="did not exist"):
            mem.show_as_of("infra/cache", "2026-02-10")


def test_a_vault_says_where_its_memory_starts(vault: Path, clock) -> None:
    history(vault, clock)
    with open_mem(vault) as mem:
        assert mem.search_as_of("port", "2025-06-01").notice == (
            "aleph-mem's memory of this vault starts 2026-01-10: notes as first seen then, "
            "changes before it unknown")
        assert mem.search_as_of("port", "2026-02-10").notice == ""
