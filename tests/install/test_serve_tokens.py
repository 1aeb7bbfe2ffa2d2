"""The token file of `aleph-mem serve` under several processes at once."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from aleph_mem.install import serve_tokens

# each process waits for the go file, then makes its own tokens and tries one shared name
MAKER = """\
import os, sys, time
from pathlib import Path
from aleph_mem.errors import BadInput
from aleph_mem.install import serve_tokens
local, me, go = Path(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
while not go.exists():
    time.sleep(0.001)
for i in range(15):
    serve_tokens.create(local, f"{me}-{i}", write=i % 2 == 0)
try:
    serve_tokens.create(local, "shared", write=True)
    print("made shared")
except BadInput:
    print("refused shared")
"""


def test_tokens_made_by_several_processes_at_once_are_all_kept(tmp_path: Path) -> None:
    local, go = tmp_path / "local", tmp_path / "go"
    makers = [subprocess.Popen([sys.executable, "-c", MAKER, str(local), f"p{n}", str(go)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
              for n in range(6)]
    go.touch()
    said = [m.communicate(timeout=120) for m in makers]
    assert [m.returncode for m in makers] == [0] * 6, [err for _, err in said]
    kept = serve_tokens.load(local)
    assert sorted(t.name for t in kept) == sorted(
        [f"p{n}-{i}" for n in range(6) for i in range(15)] + ["shared"])
    assert {t.name: t.write for t in kept}["p3-4"] is True
    assert {t.name: t.write for t in kept}["p3-5"] is False
    # the near miss: one name asked for by every process is made once, refused five times
    assert sorted(out.strip() for out, _ in said) == ["made shared"] + ["refused shared"] * 5


def test_revoking_while_others_make_tokens_loses_nothing_else(tmp_path: Path) -> None:
    local, go = tmp_path / "local", tmp_path / "go"
    for n in range(10):
        serve_tokens.create(local, f"old-{n}", write=True)
    revoker = ("import sys, time\nfrom pathlib import Path\n"
               "from aleph_mem.install import serve_tokens\n"
               "go = Path(sys.argv[2])\nwhile not go.exists():\n    time.sleep(0.001)\n"
               "for n in range(0, 10, 2):\n"
               "    serve_tokens.revoke(Path(sys.argv[1]), f'old-{n}')\n")
    procs = [subprocess.Popen([sys.executable, "-c", revoker, str(local), str(go)])]
    procs += [subprocess.Popen([sys.executable, "-c", MAKER, str(local), f"p{n}", str(go)],
                               stdout=subprocess.DEVNULL) for n in range(3)]
    go.touch()
    assert [p.wait(timeout=120) for p in procs] == [0] * 4
    names = sorted(t.name for t in serve_tokens.load(local))
    assert names == sorted([f"old-{n}" for n in range(1, 10, 2)] + ["shared"] +
                           [f"p{n}-{i}" for n in range(3) for i in range(15)])
