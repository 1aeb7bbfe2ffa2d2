"""decay on real files: what is archived, what recalls and settings keep."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from conftest import open_mem, write
from dream_helpers import NOW, agent_vault

from aleph_mem.dream import decay
from aleph_mem.dream.journal import Journal
from aleph_mem.dream.runner import Dream
from aleph_mem.dream.snapshot import snapshot


def test_decay_archives_cold_agent_notes_only(vault: Path) -> None:
    mem = open_mem(vault)
    mem.reindex()
    w = mem.store.writer(actor="mcp:test")
    w.write("notes/cold.md", b"# Cold\n\nnobody reads this\n", None)
    w.write("notes/pinned.md", b"---\npermanent: true\n---\n# Keep\n\nforever\n", None)
    write(vault, "notes/human.md", "# Human\n\nmine\n")  # a person's: never on age alone
    write(vault, "notes/gone.md", "---\nstatus: obsolete\n---\n# Gone\n\nmine, and done\n")
    mem.reindex()
    later = NOW + dt.timedelta(days=400)
    report = Dream(mem.store, later, force=True).run(("decay",))
    assert [a["path"] for a in report.applied] == ["archive/notes/cold.md"]
    assert [p["what"] for p in report.proposed] == [
        "archive [[notes/gone]] (stale: status obsolete)"]
    assert (vault / "notes/pinned.md").exists()
    cold = snapshot(mem.store, later).notes["notes/pinned.md"]
    assert decay.salience(cold, later) == decay.salience(cold, later) == (1.0, 45.0)
    mem.close()


def test_recalls_keep_a_note_from_decay(vault: Path) -> None:
    mem = open_mem(vault)
    mem.reindex()
    w = mem.store.writer(actor="mcp:test")
    w.write("notes/cold.md", b"# Cold\n\nnobody reads this\n", None)
    w.write("notes/used.md", b"# Used\n\nagents keep reading this\n", None)
    later = NOW + dt.timedelta(days=400)
    Journal(vault / ".aleph").record_recall("notes/used.md",
                                            (later - dt.timedelta(days=10)).date().isoformat())
    report = Dream(mem.store, later, force=True).run(("decay",))
    assert [a["path"] for a in report.applied] == ["archive/notes/cold.md"]
    used = snapshot(mem.store, later).notes["notes/used.md"]
    assert decay.salience(used, later)[0] > 0.8
    mem.close()


def test_decay_keeps_recall_signals_for_90_days(vault: Path) -> None:
    mem = agent_vault(vault)
    journal = Journal(vault / ".aleph")
    for days in (200, 91, 89, 1):
        journal.record_recall("notes/one.md", (NOW - dt.timedelta(days=days)).date().isoformat())
    Dream(mem.store, NOW, force=True).run(("decay",))
    kept = journal.recalls("2000-01-01")["notes/one.md"]
    assert kept == sorted((NOW - dt.timedelta(days=d)).date().isoformat() for d in (89, 1))
    mem.close()
