"""Plugins through pluggy: the built-ins register through the same hooks, a real package
with an entry point adds a dream pass that reports in a real dream, and the note and search
hooks see what happens."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from conftest import REPO, open_mem, write

from aleph_mem import plugins
from aleph_mem.plugins import hookimpl


def run(*args: str, extra_path: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "ALEPH_MEM_EMBED_MODEL": "none",  # and a cache of the tests' own
           "XDG_CACHE_HOME": str(Path(tempfile.gettempdir()) / "aleph-mem-test-cache")}
    if extra_path is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(extra_path),
                                                          env.get("PYTHONPATH")]))
    return subprocess.run([sys.executable, "-m", "aleph_mem.cli", *args], env=env,
                          capture_output=True, text=True, timeout=300)


def test_builtins_are_listed_as_plugins() -> None:
    found = {p["name"]: p for p in json.loads(run("plugins", "--json").stdout)}
    assert found["aleph_mem.dream"]["dream_passes"] == [
        "consolidate", "drift", "synthesis", "lint", "decay", "digest"]
    assert found["aleph_mem.embed.embedders"]["embedders"] == ["all-MiniLM-L6-v2-int8"]
    assert all(p["builtin"] for p in found.values())


def test_an_installed_plugin_pass_reports_in_a_real_dream(tmp_path: Path) -> None:
    target = tmp_path / "site"
    target.mkdir()
    before = {p["name"] for p in json.loads(run("plugins", "--json", extra_path=target).stdout)}
    assert "open_tasks" not in before  # and the entry points are cached, keyed by the path
    r = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target",
                        str(target), str(REPO / "tests" / "plugin_example")],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-2000:]
    found = {p["name"]: p for p in json.loads(  # the install changed the folder: rescanned
        run("plugins", "--json", extra_path=target).stdout)}
    assert found["open_tasks"] == {
        "name": "open_tasks", "builtin": False, "package": "aleph-mem-open-tasks 0.1.0",
        "hooks": ["register_dream_passes"], "dream_passes": ["open-tasks"], "embedders": []}
    vault = tmp_path / "v"
    assert run("init", str(vault)).returncode == 0
    write(vault, "chores.md", "# Chores\n\n- [ ] fix the gate\n- [x] done\n- [ ] call Priya\n")
    write(vault, "trip.md", "# Trip\n\n- [ ] book the ferry\n")
    r = run("--vault", str(vault), "dream", "--force", "--json", extra_path=target)
    report = json.loads(r.stdout)
    assert report["status"] == "success" and "open-tasks" in report["done"]
    assert report["said"] == {"open-tasks": [
        "3 open tasks in 2 notes: [[chores]] (2), [[trip]] (1)"]}
    digest = (vault / report["digest"]).read_text()
    assert ("## From the open-tasks pass\n\n- 3 open tasks in 2 notes: [[chores]] (2), "
            "[[trip]] (1)\n") in digest
    again = json.loads(run("--vault", str(vault), "dream", "--force", "--json",
                           extra_path=target).stdout)
    assert again["digest"] is None and again["applied"] == []  # the same day: nothing new
    r = run("--vault", str(vault), "dream", "--force", "--pass", "nope", extra_path=target)
    assert r.returncode == 1 and "unknown dream pass nope; passes: consolidate" in r.stderr
    assert "open-tasks" in r.stderr


class Recorder:
    """A plugin registered in-process: hears note changes, reverses search results."""

    def __init__(self) -> None:
        self.changed: list[tuple[str, str, str]] = []
        self.queries: list[str] = []

    @hookimpl
    def on_note_changed(self, event) -> None:  # noqa: ANN001
        self.changed.append((event.actor, event.kind, event.path))

    @hookimpl
    def on_search_results(self, query, hits):  # noqa: ANN001, ANN201
        self.queries.append(query)
        return [h for h in hits if not h.path.startswith("hidden/")]


def test_note_and_search_hooks_see_what_happens(vault: Path) -> None:
    rec = Recorder()
    plugins.manager().register(rec, name="recorder")
    try:
        with open_mem(vault) as mem:
            mem.reindex()
            mem.store.writer().write("notes/kiwi.md", b"kiwi orchard plans\n", None)
            write(vault, "hidden/kiwi.md", "kiwi orchard secrets\n")
            mem.reindex()
            assert [h.path for h in mem.search("kiwi orchard", mode="fts").hits] == [
                "notes/kiwi.md"]
        assert rec.changed == [("cli", "note-created", "notes/kiwi.md"),
                               ("human", "note-created", "hidden/kiwi.md")]
        assert rec.queries == ["kiwi orchard"]
    finally:
        plugins.manager().unregister(name="recorder")
