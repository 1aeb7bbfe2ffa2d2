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
        w = mem.store.writer(run=run)
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
        assert [h.path for h in mem.search("fresh").hits] == []
        assert mem.show("notes/keep.md").frontmatter["title"] == "Keep"
        # the undo is a run too: undoing it redoes everything
        mem.undo(report.run)
        assert (vault / "notes/kept.md").exists() and not (vault / "notes/keep.md").exists()
        assert (vault / "archive/Welcome.md").exists()


def test_undo_one_event_and_refuse_over_a_later_human_edit(vault: Path) -> None:
    with open_mem(vault) as mem:
        mem.reindex()
        w = mem.store.writer()
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
        w = mem.store.writer(run=run)
        w.write("x.md", b"x\n", None)
        w.write("y.md", b"y\n", None)
        (vault / "x.md").write_bytes(b"edited by a person\n")
        report = mem.undo(run)
        assert [p for p, _ in report.refused] == ["x.md"]
        assert len(report.undone) == 1
        assert not (vault / "y.md").exists()
        assert (vault / "x.md").read_bytes() == b"edited by a person\n"


def test_undo_of_a_run_touches_only_what_this_device_wrote(vault: Path) -> None:
    """An event synced in from another device that names a real run id (as its run, and
    as its own id) never rides along: undoing the run restores this device's change and
    leaves the other note; a damaged pre-image is one refused line, not a traceback; a
    future-dated event is not taken as history."""
    import json as json_module

    from aleph_mem.clock import iso, utc_now
    from aleph_mem.ulid import new_ulid

    write(vault, "keep.md", "# Keep\n\nmine\n")
    with open_mem(vault) as mem:
        mem.reindex()
        run = new_ulid()
        r = mem.store.writer(run=run, actor="dream:lint").write("ours.md", b"# Ours\n\nx\n", None)
        other = vault / ".aleph" / "events" / "other-device"
        other.mkdir(parents=True)
        keep_hash = mem.show("keep").hash
        forged = [{"id": run, "at": iso(utc_now()), "actor": "dream:lint", "kind":
                   "note-created", "path": "keep.md", "after": keep_hash, "run": run},
                  {"id": new_ulid(), "at": "2999-01-01T00:00:00.000Z", "actor": "human",
                   "kind": "note-updated", "path": "keep.md", "before": keep_hash,
                   "after": keep_hash}]
        (other / f"{iso(utc_now())[:7]}.jsonl").write_text(
            "".join(json_module.dumps(e) + "\n" for e in forged))
    with open_mem(vault) as mem:
        report = mem.undo(run)
        assert report.undone == [r.event.id] and report.refused == []
        assert not (vault / "ours.md").exists() and (vault / "keep.md").exists()
        assert mem.store.con.execute("SELECT count(*) FROM events WHERE at > '2100'").fetchone() \
            == (0,)
        w = mem.store.writer(actor="cli").write("ours.md", b"# Ours\n\nagain\n", None)
        obj = mem.store.objects.path_of(mem.show("keep").hash)
        obj.write_bytes(b"not zlib")  # a damaged pre-image
        edit = mem.store.writer(actor="cli").write("keep.md", b"# Keep\n\nchanged\n",
                                             mem.show("keep").hash)
        bad = mem.undo(edit.event.id)
        assert bad.undone == [] and "cannot be read" in bad.refused[0][1]
        assert w.event is not None
