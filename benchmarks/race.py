"""An editor saving while aleph-mem writes the same note: is any save lost?

    python benchmarks/race.py [--saves 1000] [--mode append|edit|cli|all]
                              [--cadence 2-5|4-16|20|all]

An editor process saves the note the way editors do (write a temp file, rename it over the
note) every few milliseconds (``--cadence``, in ms: 2-5 is a save-on-keystroke editor at
full speed, 4-16 the default, 20 a fast typist's autosave), each save adding one marked
line to what it last read from disk. At the
same time aleph-mem writes the same note: `append` (Writer.append, what `write --append`
and MCP `edit` without a hash do), `edit` (read, then edit with the hash read, what MCP
`edit` with `expected_hash` does) or `cli` (real `aleph-mem write --append` processes).

A save is lost when its marked line is neither in the final note nor in any version kept in
the object store (where undo could bring it back). A save is *displaced* when its line is not
in the final note (a later write replaced it) and *named* when a version holding it is the
before or after of a logged event (so `log` and `undo` can find it, not only a search of the
object store). Prints one JSON line per mode and cadence: saves, aleph-mem writes done,
conflicts reported, saves lost, displaced, displaced but named by no event, and writes
reported as conflicts whose text is in the final note all the same (an editor read it
before it was taken back). Exits 1 if any
save was lost.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

NOTE = "notes/race.md"


CADENCES = {"2-5": (0.002, 0.005), "4-16": (0.004, 0.016), "20": (0.020, 0.020)}


def editor(root: Path, saves: int, seed: int, pause: tuple[float, float]) -> None:
    """Save like an editor: read, add a line, temp file + rename, every few ms."""
    rng = random.Random(seed)
    target = root / NOTE
    for k in range(saves):
        data = target.read_bytes()
        tmp = target.parent / f".race.md.editor-{k}"
        tmp.write_bytes(data + f"editor save {k}\n".encode())
        os.replace(tmp, target)
        time.sleep(rng.uniform(*pause))


def writer(root: Path, mode: str, stop: Path) -> None:
    from aleph_mem.errors import ConflictError
    from aleph_mem.files.vault import content_hash
    from aleph_mem.memory import Memory

    done = conflicts = 0
    refused = []
    with Memory.open(root, actor="mcp:race") as mem:
        w = mem.store.writer()
        while not stop.exists():
            tag = f"aleph {mode} {done}.{conflicts}"
            try:
                if mode == "append":
                    w.append(NOTE, tag)
                else:
                    seen = mem.vault.read_bytes(NOTE) or b""
                    w.append(NOTE, tag, content_hash(seen))
                done += 1
            except ConflictError:
                conflicts += 1
                refused.append(tag)
    print(json.dumps({"done": done, "conflicts": conflicts, "refused": refused}))


def cli_writer(root: Path, stop: Path) -> None:
    exe = Path(sys.executable).with_name("aleph-mem")
    done = conflicts = 0
    while not stop.exists():
        r = subprocess.run([str(exe), "--vault", str(root), "write", "--append", NOTE],
                           input=f"cli append {done}\n".encode(), capture_output=True)
        if r.returncode == 0:
            done += 1
        elif b"conflict" in r.stderr:
            conflicts += 1
        else:
            sys.stderr.write(r.stderr.decode())
    print(json.dumps({"done": done, "conflicts": conflicts}))


def kept_versions(root: Path) -> dict[str, str]:
    """Every version in the object store, by its hash."""
    out = {}
    for obj in (root / ".aleph" / "objects").glob("*/*"):
        if not obj.name.startswith("."):
            out[obj.name] = zlib.decompress(obj.read_bytes()).decode("utf-8", "replace")
    return out


def named_hashes(root: Path) -> set[str]:
    """The versions some logged event names (as its before or after)."""
    from aleph_mem.memory import Memory

    with Memory.open(root) as mem:
        return {h for e in mem.log(NOTE, limit=100_000) for h in (e.before, e.after) if h}


def run(mode: str, saves: int, seed: int, cadence: str) -> dict:
    from aleph_mem.install.new_vault import init_vault
    from aleph_mem.memory import Memory

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "vault"
        init_vault(root)
        (root / "notes").mkdir(exist_ok=True)
        (root / NOTE).write_text("# Race\n\n")
        with Memory.open(root) as mem:
            mem.reindex()
        stop = Path(tmp) / "stop"
        args = ["cli", str(root), str(stop)] if mode == "cli" else [mode, str(root), str(stop)]
        w = subprocess.Popen([sys.executable, __file__, "--child", *args],
                             stdout=subprocess.PIPE, text=True)
        start = time.monotonic()
        editor(root, saves, seed, CADENCES[cadence])
        stop.touch()
        out = json.loads(w.communicate(timeout=120)[0].strip().splitlines()[-1])
        with Memory.open(root) as mem:
            mem.reindex()  # what the daemon does next: the editor's last save is logged
        final = (root / NOTE).read_text()
        landed = sum(f"{tag}\n" in final for tag in out.get("refused", []))
        versions = kept_versions(root)
        named = named_hashes(root)
        lost = displaced = unnamed = 0
        for k in range(saves):
            line = f"editor save {k}\n"
            if line in final:
                continue
            holders = [h for h, text in versions.items() if line in text]
            if not holders:
                lost += 1
                continue
            displaced += 1
            unnamed += not any(h in named for h in holders)
        return {"mode": mode, "cadence_ms": cadence, "editor_saves": saves,
                "aleph_writes": out["done"], "conflicts": out["conflicts"],
                "saves_lost": lost, "displaced": displaced, "displaced_unnamed": unnamed,
                "conflicts_that_landed": landed,
                "seconds": round(time.monotonic() - start, 1)}


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        mode, root, stop = sys.argv[2], Path(sys.argv[3]), Path(sys.argv[4])
        cli_writer(root, stop) if mode == "cli" else writer(root, mode, stop)
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--saves", type=int, default=1000)
    ap.add_argument("--mode", choices=["append", "edit", "cli", "all"], default="all")
    ap.add_argument("--cadence", choices=[*CADENCES, "all"], default="4-16")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    lost = 0
    for cadence in (list(CADENCES) if args.cadence == "all" else [args.cadence]):
        for mode in (["append", "edit", "cli"] if args.mode == "all" else [args.mode]):
            result = run(mode, args.saves, args.seed, cadence)
            lost += result["saves_lost"]
            print(json.dumps(result), flush=True)
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
