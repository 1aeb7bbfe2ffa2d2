"""Bad input never stops indexing, is reported with path and reason, and no note is
ever written."""

from __future__ import annotations

import os
from pathlib import Path

from conftest import open_mem, write


def test_bad_files_are_indexed_as_far_as_possible_and_reported(vault: Path,
                                                               tmp_path: Path) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("secret outside the vault\n")
    files = {
        "bad-yaml.md": b"---\ntitle: [unclosed\n---\nbody words yamlbody\n",
        "unclosed.md": b"---\ntitle: x\nno end marker unclosedbody\n",
        "latin1.md": "caf\u00e9 latinbody\n".encode("latin-1"),
        "bom.md": b"\xef\xbb\xbf---\ntitle: Bommed\n---\nbombody\n",
        "crlf.md": b"---\r\ntitle: Crlf\r\n---\r\n# H\r\n\r\ncrlfbody [[bom]]\r\n",
        "binary.md": bytes(range(256)) * 4,
        "empty.md": b"",
        "scalar-fm.md": b"---\njust a string\n---\nscalarbody\n",
        "nested.md": ("".join("  " * i + "- level\n" for i in range(400))
                      + "nestedbody\n").encode(),
        "huge.md": b"# Huge\n\n" + b"hugeword filler text\n" * 300_000,
    }
    for rel, data in files.items():
        write(vault, rel, data)
    os.symlink(outside, vault / "escape.md")
    os.symlink(tmp_path / "missing-target.md", vault / "dangling.md")
    (vault / ".aleph" / "config.toml").write_text("max_note_bytes = 1000000\n")
    before = {p: p.read_bytes() for p in vault.rglob("*.md") if not p.is_symlink()}
    with open_mem(vault) as mem:
        mem.reindex()
        problems = {(p["path"], p["reason"].split(":")[0].split(" (")[0])
                    for p in mem.status()["problems"]}
        assert problems == {
            ("bad-yaml.md", "invalid YAML frontmatter"),
            ("unclosed.md", "frontmatter is not closed"),
            ("latin1.md", "not valid UTF-8 at byte 3"),
            ("binary.md", "binary content"),
            ("scalar-fm.md", "frontmatter is not a key"),
            ("huge.md", "larger than max_note_bytes"),
            ("escape.md", "symlink that leaves the vault"),
            ("dangling.md", "symlink that leaves the vault"),
        }
        for word, path in (("yamlbody", "bad-yaml.md"), ("unclosedbody", "unclosed.md"),
                           ("latinbody", "latin1.md"), ("bombody", "bom.md"),
                           ("crlfbody", "crlf.md"), ("scalarbody", "scalar-fm.md"),
                           ("nestedbody", "nested.md"), ("hugeword", "huge.md")):
            assert [h.path for h in mem.search(word).hits] == [path], word
        assert mem.search("secret").hits == []
        assert mem.show("Bommed").path == "bom.md"  # found by its heading (BOM dropped)
        crlf = mem.show("crlf")
        assert (crlf.title, [lv.resolved for lv in crlf.links]) == ("crlf", ["bom.md"])
        assert crlf.links[0].line == 6
    after = {p: p.read_bytes() for p in vault.rglob("*.md") if not p.is_symlink()}
    assert after == before


def test_file_deleted_between_listing_and_reading(vault: Path) -> None:
    write(vault, "gone.md", "soon gone\n")
    with open_mem(vault) as mem:
        listing = mem.vault.walk()
        (vault / "gone.md").unlink()
        report = mem.store.indexer.reconcile()
        assert "gone.md" in listing.notes
        assert report.parsed == 2 and mem.search("gone").hits == []


def test_init_on_an_existing_obsidian_vault_adds_only_what_is_missing(tmp_path: Path) -> None:
    from aleph_mem.install.new_vault import init_vault

    root = tmp_path / "obsidian"
    write(root, ".obsidian/app.json", "{}")
    write(root, "Welcome.md", "my own welcome, not yours\n")
    write(root, "daily/2026-01-01.md", "---\ntitle: [wip] plans\n---\nx\n")
    write(root, ".gitignore", "node_modules/")  # no newline at the end
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    added = init_vault(root)
    # nothing visible: no welcome note, no hot memory, no folders; the ignore lines added
    assert sorted(added) == [".aleph/config.toml", ".aleph/local/", ".gitignore"]
    assert {p: p.read_bytes() for p in before if p.name != ".gitignore"} == {
        p: b for p, b in before.items() if p.name != ".gitignore"}
    ignore = (root / ".gitignore").read_text()
    assert ignore.startswith("node_modules/\n\n# aleph-mem") and ".aleph/index.db\n" in ignore
    assert not (root / ".stignore").exists()  # Syncthing does not keep this folder
    assert init_vault(root) == []
    with open_mem(root) as mem:
        mem.reindex()
        assert mem.status()["counts"]["notes"] == 2
        mem.remember("Prefers tea")  # hot memory appears when it is first used
    assert (root / "MEMORY.md").exists()
    assert {p: p.read_bytes() for p in before if p.name != ".gitignore"} == {
        p: b for p, b in before.items() if p.name != ".gitignore"}


def test_a_pipe_a_name_not_utf8_are_reported_and_the_rest_indexes(vault: Path) -> None:
    """A FIFO named like a note would hang the read, a file name that is not UTF-8 stopped
    every index: both are reported and skipped; the note beside them (the control) is
    found."""
    import os
    import subprocess
    import sys

    os.mkfifo(vault / "pipe.md")
    with open(os.fsencode(vault) + b"/bad\xff name.md", "wb") as f:
        f.write(b"# Bad\n\nbadword\n")
    (vault / "fine.md").write_text("# Fine\n\nfineword\n")
    cli = [sys.executable, "-m", "aleph_mem.cli", "--vault", str(vault)]
    env = {**os.environ, "ALEPH_MEM_EMBED_MODEL": "none"}
    r = subprocess.run([*cli, "index"], capture_output=True, text=True, timeout=60, env=env)
    assert r.returncode == 0, r.stderr
    with open_mem(vault) as mem:
        problems = {p["path"]: p["reason"] for p in mem.status()["problems"]}
        assert [h.path for h in mem.search("fineword", mode="fts").hits] == ["fine.md"]
    assert problems["pipe.md"] == "not a regular file (a pipe, a device or a socket): not read"
    assert problems["bad\\xff name.md"] == ("a file name that is not UTF-8: not indexed "
                                           "(rename it to read it)")
