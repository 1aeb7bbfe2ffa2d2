"""Incremental reconcile, rebuild, resolution like Obsidian, schema changes."""

from __future__ import annotations

import json
import os
from pathlib import Path

from conftest import open_mem, write

from aleph_mem.index import db


def link_rows(mem, src: str) -> list[tuple]:
    return mem.store.con.execute(
        "SELECT l.raw, l.resolved_path, l.status, l.resolved_by, l.candidates FROM links l "
        "JOIN notes n ON n.id=l.src_id WHERE n.path=? ORDER BY l.line, l.id", (src,)).fetchall()


def test_resolution_order_and_ties(vault: Path) -> None:
    write(vault, "a/Note.md", "# A note\n")
    write(vault, "b/Note.md", "# B note\n")
    write(vault, "b/deep/Other.md", "---\naliases: [Nick]\n---\n")
    write(vault, "c/xxxx/Other.md", "x\n")
    write(vault, "q/Thing.md", "x\n")
    write(vault, "q/r/s/Thing.md", "x\n")
    write(vault, "root.md", "---\ntitle: Rooted Title\n---\n")
    write(vault, "b/src.md", "[[Note]] [[note]] [[a/Note]] [[Nick]] [[other]] [[Missing]] "
                             "[md](Note.md) [abs](/a/Note.md) [[../a/Note]] [[Rooted Title]]\n")
    write(vault, "z/src.md", "[[Note]] [[Other]] [[Thing]]\n")
    with open_mem(vault) as mem:
        mem.reindex()
        assert link_rows(mem, "b/src.md") == [
            ("[[Note]]", "b/Note.md", "resolved", "name", '["a/Note.md", "b/Note.md"]'),
            ("[[note]]", "b/Note.md", "resolved", "name", '["a/Note.md", "b/Note.md"]'),
            ("[[a/Note]]", "a/Note.md", "resolved", "path", None),
            ("[[Nick]]", "b/deep/Other.md", "resolved", "alias", None),
            ("[[other]]", None, "ambiguous", "name", '["b/deep/Other.md", "c/xxxx/Other.md"]'),
            ("[[Missing]]", None, "unresolved", None, None),
            ("[md](Note.md)", "b/Note.md", "resolved", "relative", None),
            ("[abs](/a/Note.md)", "a/Note.md", "resolved", "path", None),
            ("[[../a/Note]]", "a/Note.md", "resolved", "relative", None),
            ("[[Rooted Title]]", "root.md", "resolved", "title", None),
        ]
        assert link_rows(mem, "z/src.md") == [
            ("[[Note]]", None, "ambiguous", "name", '["a/Note.md", "b/Note.md"]'),
            ("[[Other]]", None, "ambiguous", "name", '["b/deep/Other.md", "c/xxxx/Other.md"]'),
            ("[[Thing]]", "q/Thing.md", "resolved", "name", '["q/Thing.md", "q/r/s/Thing.md"]'),
        ]


def test_links_follow_notes_that_appear_and_disappear(vault: Path) -> None:
    write(vault, "src.md", "[[Later]]\n")
    with open_mem(vault) as mem:
        mem.reindex()
        assert link_rows(mem, "src.md")[0][1:3] == (None, "unresolved")
        write(vault, "notes/Later.md", "hi\n")
        mem.reindex()
        assert link_rows(mem, "src.md")[0][1:3] == ("notes/Later.md", "resolved")
        (vault / "notes/Later.md").rename(vault / "notes/Renamed.md")
        mem.reindex()
        assert link_rows(mem, "src.md")[0][1:3] == (None, "unresolved")
        write(vault, "notes/Renamed.md", "---\naliases: [Later]\n---\n")
        mem.reindex()
        assert link_rows(mem, "src.md")[0][1:4] == ("notes/Renamed.md", "resolved", "alias")


def test_incremental_reconcile_parses_only_changed_files(vault: Path) -> None:
    for i in range(20):
        write(vault, f"n/{i}.md", f"note {i}\n")
    with open_mem(vault) as mem:
        first = mem.reindex()
        assert (first.parsed, first.removed) == (22, 0)  # + Welcome and MEMORY
        again = mem.reindex()
        assert (again.parsed, again.removed, again.unchanged) == (0, 0, 22)
        write(vault, "n/3.md", "changed\n")
        (vault / "n/4.md").unlink()
        p = vault / "n/5.md"
        os.utime(p, ns=(p.stat().st_atime_ns, p.stat().st_mtime_ns + 10**9))  # touch only
        third = mem.reindex()
        assert (third.parsed, third.removed) == (1, 1)
        assert [c.path for c in third.changes] == ["n/3.md", "n/4.md"]


def dump(mem) -> dict:
    q = mem.store.con.execute
    return {
        "notes": q("SELECT path, title, hash, frontmatter, note_date, issues FROM notes "
                   "ORDER BY path").fetchall(),
        "links": q("SELECT n.path, l.raw, l.line, l.resolved_path, l.status FROM links l "
                   "JOIN notes n ON n.id=l.src_id ORDER BY 1, 3, 2").fetchall(),
        "tags": q("SELECT n.path, t.tag FROM tags t JOIN notes n ON n.id=t.note_id "
                  "ORDER BY 1, 2").fetchall(),
        "chunks": q("SELECT n.path, c.seq, c.block_id, c.line_start, c.line_end, c.hash "
                    "FROM chunks c JOIN notes n ON n.id=c.note_id ORDER BY 1, 2").fetchall(),
        "search": [h.as_json() for h in mem.search("note changed", limit=20).hits],
    }


def test_rebuild_gives_the_same_answers_as_incremental(vault: Path) -> None:
    for i in range(10):
        write(vault, f"n/{i}.md", f"# Note {i}\n\nnote body {i} [[{(i + 1) % 10}]] #t{i}\n")
    with open_mem(vault) as mem:
        mem.reindex()
        write(vault, "n/3.md", "# Note 3\n\nchanged body [[Missing]]\n")
        (vault / "n/4.md").unlink()
        mem.reindex()
        incremental = dump(mem)
        mem.reindex(rebuild=True)
        assert dump(mem) == incremental


def test_schema_version_mismatch_rebuilds(vault: Path) -> None:
    write(vault, "a.md", "alpha\n")
    with open_mem(vault) as mem:
        mem.reindex()
        mem.store.con.execute("UPDATE meta SET value='0' WHERE key='schema_version'")
    with open_mem(vault) as mem:
        assert mem.store.created
        assert db.schema_version(mem.store.con) == db.SCHEMA_VERSION
        assert mem.store.con.execute("SELECT count(*) FROM notes").fetchone()[0] == 0
        mem.reindex()
        assert [h.path for h in mem.search("alpha").hits] == ["a.md"]


def test_corrupt_index_file_is_rebuilt(vault: Path) -> None:
    write(vault, "a.md", "alpha\n")
    (vault / ".aleph" / "index.db").write_bytes(b"this is not a database" * 100)
    with open_mem(vault) as mem:
        mem.reindex()
        assert [h.path for h in mem.search("alpha").hits] == ["a.md"]


def test_show_resolves_path_title_and_alias(vault: Path) -> None:
    write(vault, "people/ada.md", "---\ntitle: Ada Lovelace\naliases: [Countess]\n---\nMath.\n")
    write(vault, "notes/x.md", "See [[ada]] and [[Countess]].\n")
    with open_mem(vault) as mem:
        mem.reindex()
        for ref in ("people/ada.md", "people/ada", "ada", "Ada Lovelace", "countess"):
            assert mem.show(ref).path == "people/ada.md"
        view = mem.show("Ada Lovelace")
        assert view.backlinks == ["notes/x.md"]
        assert view.as_json()["frontmatter"] == {"title": "Ada Lovelace", "aliases": ["Countess"]}
        out = mem.show("notes/x").as_json()["links"]
        assert out == [
            {"raw": "[[ada]]", "target": "ada", "anchor": "", "alias": None, "embed": False,
             "resolved": "people/ada.md"},
            {"raw": "[[Countess]]", "target": "Countess", "anchor": "", "alias": None,
             "embed": False, "resolved": "people/ada.md"},
        ]
        json.dumps(view.as_json())
