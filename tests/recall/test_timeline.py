"""What changed about a subject, in time order, on a history built on chosen days."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import open_mem, write


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch):
    def at(when: str) -> None:
        monkeypatch.setenv("ALEPH_MEM_NOW", when)
    return at


def heron(vault: Path, clock) -> None:
    with open_mem(vault) as mem:
        mem.reindex()
        w = mem.store.writer(actor="mcp:agent")
        clock("2026-01-05T10:00:00Z")
        w.write("projects/Heron.md", b"---\naliases: [Project Heron]\nvalid_until: "
                b"2026-12-31\n---\n# Heron\n\nShips in spring.\nOwner: Ana.\n", None)
        clock("2026-03-02T10:00:00Z")
        w.write("meetings/heron sync.md", b"---\nsubject: '[[Project Heron]]'\n---\n"
                b"# Heron sync\n\nMoved to summer.\n", None)
        clock("2026-03-03T10:00:00Z")
        w.write("projects/Heron.md", b"---\naliases: [Project Heron]\nvalid_until: "
                b"2026-12-31\n---\n# Heron\n\nShips in summer.\nOwner: Ana.\n",
                mem.show("Heron").hash)
        w.write("projects/Osprey.md", b"# Osprey\n\nUnrelated, also ships.\n", None)


def test_a_subjects_changes_dates_and_lines_in_time_order(vault: Path, clock) -> None:
    heron(vault, clock)
    with open_mem(vault) as mem:
        found = mem.timeline("Project Heron")
    assert found.notes == ["projects/Heron.md", "meetings/heron sync.md"]
    assert [(e.at[:10], e.what, e.path, e.summary) for e in found.entries] == [
        ("2026-01-05", "change", "projects/Heron.md", "created"),
        ("2026-03-02", "change", "meetings/heron sync.md", "created"),
        ("2026-03-03", "change", "projects/Heron.md", "updated"),
        ("2026-12-31", "stated", "projects/Heron.md", "valid_until: 2026-12-31")]
    assert found.entries[2].lines == ["-Ships in spring.", "+Ships in summer."]
    assert found.entries[2].actor == "mcp:agent"
    assert "projects/Osprey.md" not in found.notes  # the near miss: shares a word only


def test_since_narrows_and_the_cli_prints_it(vault: Path, clock) -> None:
    heron(vault, clock)
    with open_mem(vault) as mem:
        later = mem.timeline("Heron", since="2026-03-01")
    assert [e.at[:10] for e in later.entries] == ["2026-03-02", "2026-03-03", "2026-12-31"]
    out = subprocess.run([sys.executable, "-m", "aleph_mem.cli", "--vault", str(vault),
                          "timeline", "Heron", "--json"], capture_output=True, text=True,
                         check=True)
    assert json.loads(out.stdout)["entries"][2]["lines"] == ["-Ships in spring.",
                                                              "+Ships in summer."]


def test_each_change_shows_its_own_lines_wherever_it_falls(vault: Path) -> None:
    """The lines both versions share at the start and the end are set aside before the
    diff (issue #36: 3,000 appends took 12 s): an append, an edit in the middle among
    repeated lines, an edit of the first line, a dropped last newline (no line changed), an
    edit of a last line without its newline and a note
    emptied each show exactly their own lines."""
    versions = [b"# Kite\n\n- a\n- a\n- b\n", b"# Kite\n\n- a\n- a\n- b\n- c\n",
                b"# Kite\n\n- a\n- x\n- b\n- c\n", b"# Kite v2\n\n- a\n- x\n- b\n- c\n",
                b"# Kite v2\n\n- a\n- x\n- b\n- c", b"# Kite v2\n\n- a\n- x\n- b\n- cd",
                b"\n"]
    with open_mem(vault) as mem:
        mem.reindex()
        w = mem.store.writer(actor="cli")
        result = None
        for data in versions:
            result = w.write("notes/kite.md", data, result.hash if result else None)
        entries = mem.timeline("notes/kite.md").entries
    assert [e.lines for e in entries if e.what == "change"] == [
        ["+# Kite", "+- a", "+- a", "+- b"], ["+- c"], ["-- a", "+- x"],
        ["-# Kite", "+# Kite v2"], [], ["-- c", "+- cd"],
        ["-# Kite v2", "-- a", "-- x", "-- b", "-- cd"]]


def test_a_subject_no_note_is_named_for_is_found_only_as_a_phrase(vault: Path) -> None:
    """No note is called "Project Heron": the notes that say "Project Heron" are its
    timeline's, not a note that says "project" somewhere (the starter vault's Welcome)."""
    write(vault, "Welcome.md", "# Welcome\n\nStart a project note with a template.\n")
    write(vault, "meetings/kickoff.md", "# Kickoff\n\nWe started Project Heron today.\n")
    with open_mem(vault) as mem:
        mem.reindex()
        assert mem.timeline("Project Heron").notes == ["meetings/kickoff.md"]
        assert mem.timeline("Project Kestrel").notes == []
