"""consolidate on real files: duplicates merged or proposed, and the near misses that must
stay apart."""

from __future__ import annotations

from pathlib import Path

from conftest import open_mem, write
from dream_helpers import NOW, agent_vault

from aleph_mem.dream import consolidate
from aleph_mem.dream.runner import Dream
from aleph_mem.dream.snapshot import snapshot


def test_a_merge_a_person_keeps_undoing_stops_after_three(vault: Path) -> None:
    mem = agent_vault(vault)
    for _ in range(3):
        report = Dream(mem.store, NOW, force=True).run(("consolidate",))
        assert len(report.applied) == 2  # one note kept, the other archived as merged
        assert mem.undo(report.run_id).refused == []  # the person takes it back
    report = Dream(mem.store, NOW, force=True).run(("consolidate",))
    assert report.applied == []
    assert "again and again" in report.skipped[0]["reason"]
    assert (vault / "notes/two.md").exists() and (vault / "notes/one.md").exists()
    mem.close()


def test_templated_notes_with_different_names_are_not_duplicates(vault: Path) -> None:
    mem = open_mem(vault)
    mem.reindex()
    w = mem.store.writer(actor="mcp:test")
    body = ("You have resistance to one damage type while you wear this ring. The gem in the "
            "ring shows the type, which the DM chooses or determines randomly.\n")
    w.write("items/fire.md", f"# Ring of Fire Resistance\n\n{body}".encode(), None)
    w.write("items/force.md", f"# Ring of Force Resistance\n\n{body}".encode(), None)
    assert consolidate.plan_consolidate(snapshot(mem.store, NOW)) == []
    mem.close()


def test_note_vectors_find_duplicates_whose_words_are_reordered(vault: Path) -> None:
    from hash_embedder import configure  # registers the deterministic test embedder

    configure(vault, "test-hash")
    facts = ["The ferry leaves at nine from the north pier.",
             "Tickets cost twelve euros on board.",
             "The crossing takes forty minutes.", "Bicycles travel free."]
    mem = open_mem(vault)
    mem.reindex()
    w = mem.store.writer(actor="mcp:test")
    w.write("notes/ferry.md", ("# Ferry\n\n" + "\n".join(f"- {f}" for f in facts) + "\n")
            .encode(), None)
    w.write("notes/ferry-2.md", ("# Ferry again\n\n" + "\n".join(
        f"- {f}" for f in reversed(facts)) + "\n").encode(), None)
    w.write("notes/ferry-3.md", ("# Ferry times\n\n" + "\n".join(f"- {f}" for f in facts)
            + "\n- Dogs must stay on a lead at all times.\n").encode(), None)
    mem.embed()
    report = Dream(mem.store, NOW, force=True).run(("consolidate",))
    merged = [a for a in report.applied if a["path"] == "notes/ferry-2.md" or
              a["path"] == "notes/ferry.md"]
    assert "(merged notes/ferry-2.md: the same facts (cosine 0.9" in merged[0]["what"]
    assert (vault / "archive/notes/ferry-2.md").exists()
    # the third note has a fact the others lack: never merged without a person
    assert (vault / "notes/ferry-3.md").exists()
    mem.close()


def test_numbered_tags_are_not_near_duplicates(vault: Path) -> None:
    from aleph_mem.dream.weekly import near_duplicate_tags

    mem = open_mem(vault)
    mem.reindex()
    write(vault, "t.md", "---\ntags: [spell/level/1, spell/level/7, machine-learning, "
          "machinelearning, book, books]\n---\n# T\n\nx\n")
    mem.reindex()
    assert near_duplicate_tags(snapshot(mem.store, NOW)) == [("book", "books"),
                                                       ("machine-learning", "machinelearning")]
    mem.close()
