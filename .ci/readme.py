"""Run the README's blocks as a newcomer would, on this machine, with an empty HOME.

    python3 .ci/readme.py EXE

EXE is an installed `aleph-mem` (the tool install .ci/run made); its folder goes first on
PATH, so the README's bare `aleph-mem` is that program. In order:

1. the quick start, exactly as written, in a copy of this clone: a venv, an install, a new
   vault, the daemon; while it runs, the next step the README names (a search from the
   venv), then Ctrl-C (SIGINT), which must stop it cleanly;
2. every line of "Using it", in `~/notes`, after a note holding a fake token is written
   (so `purge` has a pasted secret to take out); a placeholder is given its value
   (`EVENT_OR_RUN_ID` the newest event, `$OLD_TOKEN` that token); commands that run until
   stopped (`daemon`, `serve`) must still be running after their start-up, then stop on
   SIGINT; `mcp` gets an empty stdin and must end;
3. every line of "Uninstall" that applies to this install, after which every note in the
   vault is byte for byte what it was before the block.

Each command must exit 0 (or, for the long-running ones, stop cleanly on SIGINT). The
first failure prints the command, its exit code and its output, and exits 1.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LONG_RUNNING = re.compile(r"^aleph-mem (?:daemon|serve)\b")
FAKE_TOKEN = "ghp_" + "R3adm3T0k3nF0rPurg3Ch3ckAbCdEfGh1234"


def blocks(readme: str) -> dict[str, list[str]]:
    """The README's bash blocks by the heading above them: each command a line (a
    trailing comment taken off)."""
    out: dict[str, list[str]] = {}
    heading = ""
    for part in re.split(r"^(## .+)$", readme, flags=re.M):
        if part.startswith("## "):
            heading = part[3:].strip()
            continue
        for body in re.findall(r"```bash\n(.*?)```", part, flags=re.S):
            lines = [re.sub(r"\s+# .*$", "", ln).strip() for ln in body.splitlines()]
            out.setdefault(heading, []).extend(ln for ln in lines if ln)
    return out


def fail(what: str, code: int | None, output: str) -> None:
    print(f"README: FAILED: {what}\n  exit {code}\n{output[-3000:]}")
    sys.exit(1)


def run(cmd: str, env: dict[str, str], cwd: Path, timeout: int = 600) -> str:
    """Run one command; stdin is empty (`mcp` reads it to its end), a failure stops it all."""
    proc = subprocess.run(["bash", "-c", cmd], env=env, cwd=cwd, input="",
                          capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        fail(cmd, proc.returncode, proc.stdout + proc.stderr)
    return proc.stdout


def run_until_stopped(cmd: str, env: dict[str, str], cwd: Path, ready: str,
                      during: tuple[str, ...] = ()) -> list[str]:
    """Start a command that runs until stopped; once it says it runs (its output holds
    ``ready``, as a person waits for the start line), run ``during`` beside it (their
    outputs are returned), then Ctrl-C."""
    log = tempfile.TemporaryFile("w+")
    proc = subprocess.Popen(["bash", "-c", f"exec {cmd}" if cmd.startswith("aleph-mem ")
                             else cmd], env=env, cwd=cwd, stdout=log, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 900
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            log.seek(0)
            fail(f"{cmd} (stopped by itself)", proc.returncode, log.read())
        log.seek(0)
        if ready in log.read():
            break
        time.sleep(0.5)
    else:
        os.killpg(proc.pid, signal.SIGKILL)
        fail(f"{cmd} (never became ready)", None, "")
    outputs = [run(other, env, cwd) for other in during]
    os.killpg(proc.pid, signal.SIGINT)
    try:
        code = proc.wait(timeout=120)
    except subprocess.TimeoutExpired:  # where it hangs: Python's stacks (faulthandler)
        os.killpg(proc.pid, signal.SIGABRT)
        time.sleep(2)
        os.killpg(proc.pid, signal.SIGKILL)
        code = None
    log.seek(0)
    if code not in (0, 130, -signal.SIGINT):
        fail(f"{cmd} (Ctrl-C)", code, log.read())
    print(f"README: ok: {cmd} (ran, then stopped on Ctrl-C)")
    return outputs


def quick_start(lines: list[str], readme: str, env: dict[str, str], home: Path) -> None:
    clone = home.parent / "clone"
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                           check=True).stdout.decode().split("\0")
    for rel in filter(None, files):
        (clone / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, clone / rel)
    step = re.search(r"try `(\.venv/bin/aleph-mem [^`]+)`", readme)
    if step is None:
        fail("the quick start's next step (`try ...`) is not in the README", None, "")
        return
    for line in lines:
        found = run_until_stopped(line, env, clone, "Ctrl-C", during=(step.group(1),))
        if not found[0].strip():
            fail(f"{step.group(1)} found nothing while the daemon ran", 0, found[0])
        print(f"README: ok: next step `{step.group(1)}`, beside the daemon")


def using_it(lines: list[str], env: dict[str, str], notes: Path) -> None:
    for line in lines:
        if line.startswith("aleph-mem init "):
            run(line, env, notes.parent)
            (notes / "inbox").mkdir(exist_ok=True)
            (notes / "inbox" / "pasted.md").write_text(
                f"# Pasted\n\nThe deploy token was {FAKE_TOKEN} until today.\n")
            print(f"README: ok: {line}")
            continue
        cmd = line.replace("EVENT_OR_RUN_ID", newest_event(env, notes))
        if LONG_RUNNING.match(cmd):
            run_until_stopped(cmd, env, notes, "Ctrl-C" if "daemon" in cmd else "http://")
            continue
        if cmd.startswith("cd "):
            continue  # every command here runs in the vault already
        run(cmd, env | {"OLD_TOKEN": FAKE_TOKEN}, notes)
        print(f"README: ok: {line}")
    if FAKE_TOKEN in (notes / "inbox" / "pasted.md").read_text():
        fail("the README's purge left the pasted token in the note", 0, "")


def newest_event(env: dict[str, str], notes: Path) -> str:
    out = subprocess.run(["aleph-mem", "log", "--json"], env=env, cwd=notes,
                         capture_output=True, text=True).stdout
    ids = re.findall(r'"id":\s*"([0-9A-Z]{26})"', out)
    return ids[0] if ids else "EVENT_OR_RUN_ID"


def uninstall(lines: list[str], env: dict[str, str], notes: Path) -> None:
    before = {p: p.read_bytes() for p in notes.rglob("*.md") if ".aleph" not in p.parts}
    for line in lines:
        if line.startswith(("uv tool", "pipx")):
            continue  # this install's own way out is .ci/run's (a temporary tool folder)
        run(line, env, notes)
        print(f"README: ok: {line}")
    after = {p: p.read_bytes() for p in notes.rglob("*.md") if ".aleph" not in p.parts}
    if before != after:
        changed = sorted(str(p) for p in set(before) | set(after)
                         if before.get(p) != after.get(p))
        fail("uninstall changed notes", 0, "\n".join(changed))
    print(f"README: ok: uninstall left {len(after)} notes byte for byte")


def main() -> None:
    exe = Path(sys.argv[1]).resolve()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    found = blocks(readme)
    work = Path(tempfile.mkdtemp(prefix="aleph-readme-"))
    home = work / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("ALEPH_MEM_")}
    env |= {"HOME": str(home), "PYTHONFAULTHANDLER": "1",
            "PATH": f"{exe.parent}{os.pathsep}{env.get('PATH', '')}",
            "PIP_CACHE_DIR": env.get("PIP_CACHE_DIR")
            or str(Path(os.environ.get("HOME", "/root")) / ".cache" / "pip")}
    quick_start(found["Quick start"][:1], readme, env, home)
    notes = home / "notes"
    using_it(found["Using it"], env, notes)
    uninstall(found["Uninstall"], env, notes)
    shutil.rmtree(work, ignore_errors=True)
    print("README: every block ran as written")


if __name__ == "__main__":
    main()
