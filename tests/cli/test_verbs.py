"""The verbs people share with agents, through the real command: remember, context,
reflect, graph."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import write


def cli(vault: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "aleph_mem.cli", "--vault", str(vault), *args],
                          capture_output=True, text=True, timeout=120,
                          env={"ALEPH_MEM_EMBED_MODEL": "none", "PATH": "/usr/bin:/bin",
                               "HOME": str(vault.parent)})


def test_remember_context_reflect_and_graph_from_a_terminal(vault: Path) -> None:
    write(vault, "infra/db.md", "# Database\n\nThe postgres port is 5433. See [[ops]].\n")
    write(vault, "infra/ops.md", "# Ops\n\nRunbooks live here.\n")
    assert cli(vault, "index").returncode == 0
    first = cli(vault, "remember", "The staging database listens on port 5433", "--json")
    assert first.returncode == 0 and json.loads(first.stdout)["path"] == "MEMORY.md"
    again = cli(vault, "remember", "the staging database listens on port 5433.")
    assert again.returncode == 0 and again.stdout.startswith("already in hot memory")
    env = json.loads(cli(vault, "context", "postgres port", "--json").stdout)
    assert "port 5433" in env["hot_memory"]
    assert env["relevant"][0]["path"] == "infra/db.md"
    answer = json.loads(cli(vault, "reflect", "which port does postgres use", "--json").stdout)
    assert answer["passages"][0]["path"] == "infra/db.md"
    links = json.loads(cli(vault, "graph", "Database", "links", "--json").stdout)
    assert links == {"note": "infra/db.md", "links": ["infra/ops.md"]}
    bad = cli(vault, "remember", "x", "--priority", "9")
    assert bad.returncode == 1 and bad.stderr == "error: --priority is 1 (most important) to 5\n"


def test_remember_says_when_a_fact_contradicts_one_in_hot_memory(vault: Path) -> None:
    """"port 5433" beside "port 5432" is added and the older line named; the same fact in
    another case and punctuation is not added twice; another subject (the near miss) is
    added without a word."""
    assert cli(vault, "remember", "The staging database listens on port 5432").returncode == 0
    clash = cli(vault, "remember", "The staging database listens on port 5433")
    assert clash.returncode == 0 and clash.stderr.startswith(
        "warning: it contradicts MEMORY.md:12 [P3] The staging database listens on port 5432 (")
    same = cli(vault, "remember", "the STAGING database listens on port 5433!")
    assert same.stdout.startswith("already in hot memory")
    other = cli(vault, "remember", "The wiki lives on the intranet")
    assert other.returncode == 0 and other.stderr == ""
