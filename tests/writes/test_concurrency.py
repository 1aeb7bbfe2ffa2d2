"""Several processes write the same and different notes while a person's editor
overwrites one: no lost update, every conflict reported, the log complete."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from conftest import open_mem, write

from aleph_mem.files.vault import content_hash

WORKERS, WRITES = 4, 15


def test_concurrent_writers_and_an_outside_editor(vault: Path, tmp_path: Path) -> None:
    write(vault, "shared.md", "start\n")
    with open_mem(vault) as mem:
        mem.reindex()
    barrier = tmp_path / "barrier"
    barrier.mkdir()
    worker = Path(__file__).with_name("concurrent_worker.py")
    procs = [subprocess.Popen([sys.executable, str(worker), str(vault), str(w), str(WRITES),
                               str(barrier)], stdout=subprocess.PIPE, text=True)
             for w in range(WORKERS)]
    try:
        deadline = time.time() + 60
        while len(list(barrier.glob("ready-*"))) < WORKERS and time.time() < deadline:
            time.sleep(0.01)
        (vault / "shared.md").write_bytes(b"start\neditor line\n")  # a person saves meanwhile
        (barrier / "go").touch()
        results = [json.loads(p.communicate(timeout=120)[0]) for p in procs]
    finally:
        for p in procs:
            p.kill()
    assert all(p.returncode == 0 for p in procs)
    assert [r["stale_conflict"] for r in results] == [1] * WORKERS  # nobody overwrote it

    lines = (vault / "shared.md").read_text().splitlines()
    assert lines[:2] == ["start", "editor line"]
    assert sorted(lines[2:]) == sorted(f"w{w}-{i}" for w in range(WORKERS)
                                       for i in range(WRITES))
    for w in range(WORKERS):
        assert (vault / f"own-{w}.md").read_text().splitlines() == [
            f"own {i}" for i in range(WRITES)]

    with open_mem(vault) as mem:
        mem.reindex()
        events = mem.log(limit=10_000)
        shared = [e for e in events if e.path == "shared.md"]
        assert len([e for e in shared if e.actor.startswith("mcp:worker")]) == WORKERS * WRITES
        # the editor's save is in the history (logged by the first writer that saw it), and
        # every later version descends from it: each event's before is the previous after
        human = [e for e in shared if e.actor == "human"]
        assert [(e.kind, e.before) for e in human] == [("note-updated", content_hash(b"start\n"))]
        chain = sorted(shared, key=lambda e: e.id)
        assert chain[0] == human[0]
        assert all(a.after == b.before for a, b in zip(chain, chain[1:], strict=False))
        assert sum(1 for e in events if e.path.startswith("own-")) == WORKERS * WRITES
