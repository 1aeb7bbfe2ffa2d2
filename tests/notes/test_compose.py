"""A new note's name and bytes: a title cleaned into a legal name, the frontmatter block,
and related files hashed only inside the folders allowed."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from aleph_mem.errors import BadInput
from aleph_mem.files.names import name_problem
from aleph_mem.notes.compose import file_hashes, note_bytes, note_path


@pytest.mark.parametrize(("folder", "title", "content", "path"), [
    ("inbox", "Heron", "", "inbox/Heron.md"),
    ("", "Heron", "", "Heron.md"),
    ("inbox", None, "intro\n# Grey Heron\ntext", "inbox/Grey Heron.md"),
    ("inbox", "a/b: c? [d] #e ^f|g", "", "inbox/a b  c   d   e  f g.md"),
    ("inbox", "line\nbreak\ttab", "", "inbox/line break tab.md"),
    ("inbox", "...", "", "inbox/note.md"),
    ("inbox", " Café. ", "", "inbox/Café.md"),
    ("inbox", "x" * 300, "", "inbox/" + "x" * 120 + ".md"),
])
def test_a_title_becomes_a_legal_name(folder: str, title: str | None, content: str,
                                      path: str) -> None:
    assert note_path(folder, title, content) == path
    assert name_problem(path) is None


@pytest.mark.parametrize("folder", ["/etc", "\\\\srv", "~/notes", "C:notes", "c:\\x"])
def test_a_folder_outside_the_vault_is_refused(folder: str) -> None:
    with pytest.raises(BadInput, match="must be a folder inside the vault"):
        note_path(folder, "x", "")


def test_no_title_and_no_heading_is_refused() -> None:
    with pytest.raises(BadInput, match="give a path, or a title"):
        note_path("inbox", None, "just text\n## a level-two heading")
    with pytest.raises(BadInput):
        note_path("inbox", "", "")


def test_note_bytes_adds_a_newline_and_the_frontmatter_block() -> None:
    assert note_bytes("x") == b"x\n"
    assert note_bytes("") == b"\n"
    assert note_bytes("body\n", {"title": "Zoë", "tags": ["a"]}) == (
        "---\ntitle: Zoë\ntags:\n- a\n---\nbody\n".encode())
    with pytest.raises(BadInput, match="already starts with a frontmatter block"):
        note_bytes("---\na: 1\n---\nbody", {"b": 2})
    assert note_bytes("---\na: 1\n---\nbody") == b"---\na: 1\n---\nbody\n"  # the near miss


def test_related_files_are_hashed_inside_the_allowed_folders_only(tmp_path: Path) -> None:
    project, other = tmp_path / "project", tmp_path / "other"
    project.mkdir()
    other.mkdir()
    (project / "main.py").write_text("print(1)\n")
    (other / "secret.txt").write_text("no")
    (project / "link.txt").symlink_to(other / "secret.txt")
    sha = hashlib.sha256(b"print(1)\n").hexdigest()
    assert file_hashes(["main.py"], str(project), [project]) == {"main.py": sha}
    assert file_hashes([str(project / "main.py")], None, [project]) == {
        str(project / "main.py"): sha}
    assert file_hashes(["main.py"], None, [project]) == {"main.py": sha}  # under the first
    for outside in (str(other / "secret.txt"), "../other/secret.txt", "link.txt"):
        with pytest.raises(BadInput, match="outside the vault and the configured"):
            file_hashes([outside], str(project), [project])
    with pytest.raises(BadInput, match="is not a readable file here"):
        file_hashes(["gone.py"], str(project), [project])
    data = note_bytes("# x", related={"main.py": sha})
    assert data == f"---\nrelated_files:\n- main.py\nrelated_files_sha:\n  main.py: {sha}\n" \
                   "---\n# x\n".encode()
