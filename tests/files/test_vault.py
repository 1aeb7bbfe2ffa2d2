"""The vault on disk: safe paths (no way out by `..`, an absolute path, a drive or a
symlink), which files are notes, and a walk that skips what it cannot read and says why."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from aleph_mem.errors import PathOutsideVault, VaultNotFound
from aleph_mem.files.vault import (
    NOT_UTF8,
    FileStat,
    Vault,
    content_hash,
    find_vault,
    make_private,
    path_problem,
)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    r = tmp_path / "vault"
    (r / ".aleph").mkdir(parents=True)
    return r


def put(root: Path, rel: str, text: str = "x") -> Path:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    return p


@pytest.mark.parametrize(("rel", "problem"), [
    ("", "empty or invalid path"),
    ("a\x00.md", "empty or invalid path"),
    ("/etc/passwd", "absolute paths are not allowed"),
    ("\\\\server\\share\\x.md", "absolute paths are not allowed"),
    ("C:/notes/x.md", "absolute paths are not allowed"),
    ("c:\\x.md", "absolute paths are not allowed"),
    ("notes/../../x.md", "'..' is not allowed"),
    ("notes\\..\\x.md", "'..' is not allowed"),
    (".aleph/index.db", ".aleph/ holds aleph-mem's own data, not notes"),
    ("./.aleph/config.toml", ".aleph/ holds aleph-mem's own data, not notes"),
])
def test_a_path_that_leaves_the_vault_or_names_its_data_is_refused(rel: str,
                                                                   problem: str) -> None:
    assert path_problem(rel) == problem


@pytest.mark.parametrize("rel", ["notes/x.md", "./x.md", "a:b.md", "..x.md", "x..md",
                                 "notes/.aleph/x.md", "aleph/x.md", "notes//x.md"])
def test_near_misses_are_paths_inside_the_vault(rel: str) -> None:
    assert path_problem(rel) is None


def test_open_needs_the_aleph_folder(tmp_path: Path, root: Path) -> None:
    assert Vault.open(root).root == root.resolve()
    with pytest.raises(VaultNotFound):
        Vault.open(tmp_path)


def test_abs_refuses_a_symlink_out_of_the_vault_and_a_loop(tmp_path: Path, root: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / "escape").symlink_to(outside)
    (root / "loop").symlink_to(root / "loop")
    (root / "inside").symlink_to(root / "real")
    (root / "real").mkdir()
    v = Vault(root)
    with pytest.raises(PathOutsideVault, match="points outside the vault"):
        v.abs("escape/x.md")
    with pytest.raises(PathOutsideVault, match="loops"):
        v.abs("loop/x.md")
    with pytest.raises(PathOutsideVault, match=r"'\.\.' is not allowed"):
        v.abs("real/../../x.md")
    assert v.abs("inside/x.md") == v.root / "inside" / "x.md"  # a link within: allowed
    assert v.abs("a\\b.md") == v.root / "a" / "b.md"  # a Windows separator is a folder


def test_normalise_adds_md_and_follows_a_folder_link_within(root: Path) -> None:
    (root / "real").mkdir()
    (root / "alias").symlink_to(root / "real")
    v = Vault(root)
    assert v.normalise("notes/heron") == "notes/heron.md"
    assert v.normalise("notes/Heron.MD") == "notes/Heron.MD"
    assert v.normalise("alias/heron.md") == "real/heron.md"
    assert v.normalise("./x") == "x.md"


def test_read_bytes_is_none_for_a_missing_or_impossible_name(root: Path) -> None:
    put(root, "a.md", "héron")
    v = Vault(root)
    assert v.read_bytes("a.md") == "héron".encode()
    assert v.read_bytes("b.md") is None
    assert v.read_bytes("x" * 300 + ".md") is None  # ENAMETOOLONG: no file can have it
    with pytest.raises(PathOutsideVault):
        v.read_bytes("../a.md")


def test_walk_lists_notes_and_attachments_and_skips_what_is_not_a_note(
        tmp_path: Path, root: Path) -> None:
    put(root, "a.md")
    put(root, "Birds/Heron.MD", "héron")
    put(root, "Birds/photo.png")
    put(root, ".obsidian/workspace.md")
    put(root, ".trash/old.md")
    put(root, ".hidden/x.md")
    put(root, "notes/.draft.md")
    put(root, "private/secret.md")
    put(root, "archive/2020.md")
    outside = put(tmp_path, "outside.md")
    (root / "escape.md").symlink_to(outside)
    (root / "dangling.md").symlink_to(root / "gone.md")
    (root / "same.md").symlink_to(root / "a.md")
    (root / "linked").symlink_to(root / "Birds")
    os.mkfifo(root / "pipe.md")
    listing = Vault(root).walk(ignore=["private/", "archive/*"])
    assert sorted(listing.notes) == ["Birds/Heron.MD", "a.md", "same.md"]
    assert listing.notes["Birds/Heron.MD"] == FileStat(
        (root / "Birds/Heron.MD").stat().st_mtime_ns, len("héron".encode()))
    assert listing.attachments == {"Birds/photo.png"}
    assert sorted(listing.skipped) == [
        ("dangling.md", "symlink that leaves the vault: not indexed"),
        ("escape.md", "symlink that leaves the vault: not indexed"),
        ("linked", "symlinked folder: not followed"),
        ("pipe.md", "not a regular file (a pipe, a device or a socket): not read"),
    ]


def test_walk_skips_a_name_that_is_not_utf8_and_reads_the_rest(root: Path) -> None:
    put(root, "good.md")
    (root.joinpath(os.fsdecode(b"bad\xff.md"))).write_text("x")
    (root.joinpath(os.fsdecode(b"dir\xfe"))).mkdir()
    listing = Vault(root).walk()
    assert list(listing.notes) == ["good.md"]
    assert sorted(listing.skipped) == [("bad\\xff.md", NOT_UTF8), ("dir\\xfe", NOT_UTF8)]


def test_an_empty_vault_walks_to_nothing(root: Path) -> None:
    listing = Vault(root).walk()
    assert (listing.notes, listing.attachments, listing.skipped) == ({}, set(), [])


def test_is_note_path_and_stat_paths_agree_with_the_walk(root: Path) -> None:
    put(root, "a.md")
    put(root, "b.txt")
    put(root, "private/c.md")
    os.mkfifo(root / "pipe.md")
    v = Vault(root)
    assert v.is_note_path("x/Y.MD")
    assert not v.is_note_path("x/.y.md") and not v.is_note_path(".git/x.md")
    assert not v.is_note_path("b.txt")
    assert not v.is_note_path("private/c.md", ["private/*"])
    got = v.stat_paths(["a.md", "b.txt", "private/c.md", "gone.md", "pipe.md"],
                       ["private/*"])
    assert got.notes == {"a.md": FileStat((root / "a.md").stat().st_mtime_ns, 1)}
    assert got.skipped == []


def test_find_vault_walks_up_to_the_nearest_aleph(tmp_path: Path, root: Path) -> None:
    deep = root / "a" / "b"
    deep.mkdir(parents=True)
    assert find_vault(deep) == root.resolve()
    assert find_vault(tmp_path) is None


def test_make_private_closes_aleph_to_other_users(root: Path) -> None:
    os.chmod(root / ".aleph", 0o755)
    make_private(root / ".aleph")
    assert (root / ".aleph").stat().st_mode & 0o777 == 0o700
    make_private(root / "missing")  # nothing there: nothing raised


def test_content_hash_is_sha256_of_the_bytes() -> None:
    assert content_hash(b"") == (
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    assert content_hash("é".encode()) != content_hash("é".encode("latin-1"))
