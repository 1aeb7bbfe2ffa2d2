"""Undo restores byte for byte, by event and by run, and refuses over later edits."""

from __future__ import annotations

from pathlib import Path

from conftest import open_mem, write

from aleph_mem.ulid import new_ulid


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*.md")}


def test_a_run_of_writes_moves_and_archives_undone_byte_for_byte(vault: Path) -> None:
    write(vault, "notes/keep.md", "---\n# comment\ntitle: Keep\n---\nbody\n")
    with open_mem(vault) as mem:
        mem.reindex()
        start = snapshot(vault)
        run = new_ulid()
        w = mem.writer(run=run)
        r = w.write("inbox/new.md", b"# New\n\nfresh\n", None)
        w.append("inbox/new.md", "more", r.hash)
        w.set_frontmatter("notes/keep.md", {"status": "stale"}, ["title"])
        w.move("notes/keep.md", "notes/kept.md")
        w.archive("Welcome.md", reason="test")
        w.write("MEMORY.md", b"replaced\n", mem.show("MEMORY.md").hash)
        assert snapshot(vault) != start
        report = mem.undo(run)
        assert report.refused == [] and len(report.undone) == 6
        assert snapshot(vault) == start
        assert [h.path for h in mem.search("fresh")] == []
        assert mem.show("notes/keep.md").frontmatter["title"] == "Keep"
        # the undo is a run too: undoing it redoes everything
        mem.undo(report.run)
        assert (vault / "notes/kept.md").exists() and not (vault / "notes/keep.md").exists()
        assert (vault / "archive/Welcome.md").exists()


def test_undo_one_event_and_refuse_over_a_later_human_edit(vault: Path) -> None:
    with open_mem(vault) as mem:
        mem.reindex()
        w = mem.writer()
        r1 = w.write("a.md", b"v1\n", None)
        r2 = w.write("a.md", b"v2\n", r1.hash)
        r3 = w.write("b.md", b"b1\n", None)
        report = mem.undo(r2.event.id)
        assert report.undone == [r2.event.id]
        assert (vault / "a.md").read_bytes() == b"v1\n"
        (vault / "b.md").write_bytes(b"a person changed b\n")  # after the event
        report = mem.undo(r3.event.id)
        assert report.undone == []
        assert report.refused[0][0] == "b.md" and "conflict" in report.refused[0][1]
        assert (vault / "b.md").read_bytes() == b"a person changed b\n"


def test_a_persons_edit_can_be_undone(vault: Path) -> None:
    write(vault, "diary.md", "original words\n")
    with open_mem(vault) as mem:
        mem.reindex()
        (vault / "diary.md").write_bytes(b"oops, overwritten\n")
        (vault / "MEMORY.md").unlink()
        mem.reindex()
        for event in mem.log(actor="human"):
            assert mem.undo(event.id).refused == []
        assert (vault / "diary.md").read_bytes() == b"original words\n"
        assert (vault / "MEMORY.md").exists()


def test_partial_run_undo_restores_the_rest(vault: Path) -> None:
    with open_mem(vault) as mem:
        mem.reindex()
        run = new_ulid()
        w = mem.writer(run=run)
        w.write("x.md", b"x\n", None)
        w.write("y.md", b"y\n", None)
        (vault / "x.md").write_bytes(b"edited by a person\n")
        report = mem.undo(run)
        assert [p for p, _ in report.refused] == ["x.md"]
        assert len(report.undone) == 1
        assert not (vault / "y.md").exists()
        assert (vault / "x.md").read_bytes() == b"edited by a person\n"
