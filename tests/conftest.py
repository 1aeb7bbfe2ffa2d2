from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from aleph_mem.memory import Memory
from aleph_mem.template import init_vault

REPO = Path(__file__).resolve().parent.parent


def shared_dir() -> Path | None:
    """The team's shared evaluation data (never copied into the repo)."""
    for candidate in (os.environ.get("ALEPH_MEM_SHARED"), REPO.parent / "shared",
                      REPO.parent.parent / "shared"):
        if candidate and (Path(candidate) / "eval").is_dir():
            return Path(candidate)
    return None


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    init_vault(root)
    return root


def write(root: Path, rel: str, text: str | bytes) -> Path:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, str):
        p.write_text(text, encoding="utf-8")
    else:
        p.write_bytes(text)
    return p


@pytest.fixture
def dnd_vault(tmp_path_factory: pytest.TempPathFactory) -> Path:
    shared = shared_dir()
    if shared is None:
        pytest.skip("../shared/eval is not on this machine")
    root = tmp_path_factory.mktemp("dnd") / "vault"
    shutil.copytree(shared / "eval" / "vaults" / "dnd5e-srd" / "vault", root)
    (root / ".aleph").mkdir()
    return root


def open_mem(root: Path) -> Memory:
    return Memory.open(root)
