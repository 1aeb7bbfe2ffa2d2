"""Three paths through the package, traced: a CLI search, a captured session to its note, a
dream run. Each runs in this process on a generated 60-note vault (``embed_model = "none"``)
with every call into a module of ours recorded (``sys.setprofile``; a module's own import
is not a call): the modules each path visits, and the modules it goes back into (a call
into a module already on the stack with another module of ours between, A -> B -> A).

    python benchmarks/paths.py [--show]

``--show`` lists the modules of each path. docs/architecture.md quotes the figures.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import shutil
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
TRANSCRIPT = REPO / "tests" / "transcripts" / "claude_code_session.jsonl"
SID = "7c1e2a90-0000-4000-8000-00000000c0de"


class Trace:
    """The modules of ours a call visits, and where it goes back into one."""

    def __init__(self) -> None:
        self.visited: set[str] = set()
        self.back: Counter[tuple[str, str]] = Counter()  # (module, the one between) -> calls
        self.stack: list[str] = []
        self.frames: list[FrameType] = []

    def __call__(self, frame: FrameType, event: str, _arg: Any) -> None:
        if event == "call":
            name = frame.f_globals.get("__name__", "")
            if not name.startswith("aleph_mem") or frame.f_code.co_name == "<module>":
                return
            if name in self.stack and self.stack[-1] != name:
                self.back[(name, self.stack[-1])] += 1
            self.visited.add(name)
            self.stack.append(name)
            self.frames.append(frame)
        elif event == "return" and self.frames and self.frames[-1] is frame:
            self.frames.pop()
            self.stack.pop()

    def run(self, step: Callable[[], Any]) -> None:
        sys.setprofile(self)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                step()
        finally:
            sys.setprofile(None)


def vault(root: Path) -> Path:
    from aleph_mem.cli.main import main

    with contextlib.redirect_stdout(io.StringIO()):
        main(["init", str(root)])
    (root / ".aleph" / "config.toml").write_text('embed_model = "none"\n')
    topics = ["postgres", "redis", "deploy", "retries", "cache", "tests"]
    for i in range(60):
        t = topics[i % len(topics)]
        (root / "notes").mkdir(exist_ok=True)
        (root / "notes" / f"{t} {i}.md").write_text(
            f"---\ntags: [{t}]\n---\n# {t} {i}\n\nHow {t} works here, part {i}: see "
            f"[[{topics[(i + 1) % len(topics)]} {(i + 1) % 60}]].\n")
    with contextlib.redirect_stdout(io.StringIO()):
        main(["index", "--vault", str(root)])
    return root


def paths(root: Path) -> dict[str, Callable[[], Any]]:
    from aleph_mem.cli.main import main
    from aleph_mem.memory import Memory
    from aleph_mem.sessions.hook import handle

    live = root.parent / "t.jsonl"
    shutil.copy(TRANSCRIPT, live)

    def session() -> None:
        payload = {"hook_event_name": "Stop", "session_id": SID, "transcript_path": str(live),
                   "cwd": "/work/projects/heron-api"}
        handle("claude-code", json.dumps(payload).encode(), root, {})
        with Memory.open(root) as mem:
            mem.session_compress(SID)

    def dream() -> None:
        with Memory.open(root) as mem:
            mem.dream(force=True)

    return {"a CLI search": lambda: main(["search", "postgres retries", "--vault",
                                          str(root)]),
            "a captured session to its note": session,
            "a dream run": dream}


def report(show: bool) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = vault(Path(tmp) / "vault")
        for name, step in paths(root).items():
            t = Trace()
            t.run(step)
            back = Counter[str]()
            via: dict[str, set[str]] = {}
            for (mod, between), n in t.back.items():
                back[mod] += n
                via.setdefault(mod, set()).add(between)
            said = ", ".join(f"{m.removeprefix('aleph_mem.')} ({n} calls, via "
                             f"{', '.join(sorted(v.removeprefix('aleph_mem.') for v in via[m]))})"
                             for m, n in sorted(back.items())) or "none"
            print(f"{name}: {len(t.visited)} modules visited; gone back into: {said}")
            if show:
                print("  " + " ".join(sorted(m.removeprefix("aleph_mem.") for m in t.visited)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--show", action="store_true", help="list each path's modules")
    report(ap.parse_args().show)


if __name__ == "__main__":
    main()
