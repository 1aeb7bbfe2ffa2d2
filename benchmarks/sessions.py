"""Agent sessions, measured as a client meets them (whole processes, as a hook runs).

    python benchmarks/sessions.py [--notes 10000] [--starts 40] [--sessions 1000]

1. SessionStart hook on a generated vault of --notes notes (indexed, full-text), with a full
   hot memory and a project's 30 session notes: p50/p95 of --starts whole `aleph-mem hook`
   processes, beside a bare `python -c pass` (the goal: p95 <= 300 ms, no model, no LLM).
2. Ingest of a 5 MB Claude Code transcript by the Stop hook (whole process), then the same
   transcript again (nothing new: nothing changes), with 200 fake secrets planted in it:
   how many reach the raw store or the index (the goal: 0).
3. Import of --sessions transcripts (`aleph-mem sessions import`): total time; an import
   stopped half-way and run again (it resumes); a third run (nothing new).
4. With --real CLIENT=FILE... (public transcripts, e.g. a log viewer's test data): each is
   imported and compressed into its session note, and the note is checked beside its
   transcript: a title from the work (the client's own summary where there is one, never a
   greeting or the client's boilerplate), an Outcome, the files written and the todo list's
   state where the transcript has them, no dangling Markdown, and nothing invented (every
   Asked line is a prompt the person typed).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from scale import add_vault_args, generated_vault

from aleph_mem.memory import Memory

CLI = [sys.executable, "-m", "aleph_mem.cli"]
rng = random.Random(7)
WORDS = ("cache index query retry backoff deploy build test fixture schema migration "
         "config parser token upload queue worker timeout socket daemon vault note").split()


def sentence(n: int = 14) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."


def fake_secret(i: int) -> tuple[str, str]:
    body = hashlib.sha256(f"secret{i}".encode()).hexdigest()
    shapes = [("ghp_" + body[:36], "git push https://{}@github.com/x/y"),
              ("AKIA" + body[:16].upper(), "AWS_ACCESS_KEY_ID={}"),
              ("sk-proj-" + body + body[:8], "OPENAI_API_KEY={}"),
              ("Pw" + body[:10], "DB_PASSWORD='{}'")]
    secret, shape = shapes[i % len(shapes)]
    return shape.format(secret), secret


def transcript_rows(sid: str, cwd: str, target_bytes: int, secrets: int = 0) -> tuple[
        list[str], list[str]]:
    rows, planted, size, i = [], [], 0, 0
    while size < target_bytes:
        kind = i % 4
        ts = f"2026-11-20T{10 + i // 3600 % 10:02d}:{i // 60 % 60:02d}:{i % 60:02d}Z"
        extra = ""
        if secrets and i % max(1, (target_bytes // 3000) // max(secrets, 1)) == 0 \
                and len(planted) < secrets:
            text, secret = fake_secret(len(planted))
            planted.append(secret)
            extra = " " + text
        if kind == 0:
            msg = {"role": "user", "content": sentence(20) + extra}
        elif kind == 1:
            msg = {"role": "assistant", "content": [
                {"type": "text", "text": sentence(30)},
                {"type": "tool_use", "id": f"t{i}", "name": "Bash",
                 "input": {"command": f"pytest -q tests/test_{rng.choice(WORDS)}.py{extra}"}}]}
        elif kind == 2:
            msg = {"role": "user", "content": [{"type": "tool_result", "tool_use_id":
                   f"t{i - 1}", "is_error": rng.random() < 0.2,
                   "content": "\n".join(sentence(12) for _ in range(rng.randint(5, 60)))
                   + extra}]}
        else:
            msg = {"role": "assistant", "content": [{"type": "text",
                   "text": " ".join(sentence() for _ in range(6)) + extra}]}
        row = json.dumps({"type": msg["role"], "uuid": f"{sid}-{i}", "sessionId": sid,
                          "cwd": cwd, "timestamp": ts, "message": msg})
        rows.append(row)
        size += len(row) + 1
        i += 1
    return rows, planted


def run_hook(vault: Path, payload: dict) -> tuple[float, subprocess.CompletedProcess]:
    t = time.perf_counter()
    out = subprocess.run([*CLI, "hook", "claude-code", "--vault", str(vault)],
                         input=json.dumps(payload), capture_output=True, text=True)
    return time.perf_counter() - t, out


def bare_python(n: int = 15) -> float:
    times = []
    for _ in range(n):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def session_start(args: argparse.Namespace) -> None:
    base = generated_vault(args, args.notes)
    with Memory.open(base, {"embed_model": "none"}) as mem:
        mem.reindex()
    vault = Path(tempfile.mkdtemp(prefix="aleph-sess-")) / "vault"
    shutil.copytree(base, vault, ignore=shutil.ignore_patterns("local"))
    facts = "".join(f"- [P{1 + i % 5}] {sentence(10)} ({2026}-11-01)\n" for i in range(40))
    (vault / "MEMORY.md").write_text(f"# Hot memory\n\n## Facts\n\n{facts}")
    (vault / "sessions").mkdir(exist_ok=True)
    for i in range(30):
        (vault / "sessions" / f"2026-11-{1 + i % 28:02d} session {i}.md").write_text(
            f"---\ntype: session\nproject: heron-api\nstarted: '2026-11-{1 + i % 28:02d}T10:00:00Z'"
            f"\n---\n# Session {i}\n\n## Outcome\n\n- {sentence()}\n\n## Decisions\n\n- "
            f"{sentence()}\n\n## Errors and fixes\n\n- `Bash`: {sentence(6)} (not resolved in "
            "this session)\n")
    with Memory.open(vault, {"embed_model": "none"}) as mem:
        mem.reindex()
    bare = bare_python()
    times = []
    for i in range(args.starts):
        spent, out = run_hook(vault, {"hook_event_name": "SessionStart", "session_id": f"s{i}",
                                      "cwd": "/work/projects/heron-api", "source": "startup"})
        assert out.returncode == 0 and out.stdout, out.stderr
        times.append(spent)
    times.sort()
    p95 = times[int(len(times) * 0.95) - 1]
    ctx = json.loads(out.stdout)["hookSpecificOutput"]["additionalContext"]
    print(f"SessionStart hook, {args.notes}-note vault, {args.starts} whole processes: "
          f"p50 {statistics.median(times) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms "
          f"(bare python {bare * 1000:.0f} ms: {statistics.median(times) / bare:.1f}x); "
          f"context {len(ctx)} chars, {ctx.count('[P')} hot facts shown")
    shutil.rmtree(vault.parent)


def ingest(args: argparse.Namespace) -> None:
    vault = Path(tempfile.mkdtemp(prefix="aleph-ingest-")) / "vault"
    subprocess.run([*CLI, "init", str(vault)], check=True, capture_output=True)
    rows, planted = transcript_rows("big1", "/work/projects/heron-api", 5_000_000, 200)
    t_path = vault.parent / "big.jsonl"
    t_path.write_text("\n".join(rows) + "\n")
    payload = {"hook_event_name": "Stop", "session_id": "big1", "transcript_path": str(t_path),
               "cwd": "/work/projects/heron-api"}
    first, out = run_hook(vault, payload)
    assert out.returncode == 0 and not out.stderr, out.stderr
    raw = vault / ".aleph" / "raw"
    before = {p: p.read_bytes() for p in raw.rglob("*") if p.is_file()}
    again, _ = run_hook(vault, payload)
    after = {p: p.read_bytes() for p in raw.rglob("*") if p.is_file()}
    with Memory.open(vault) as mem:
        mem.store.con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        chunks = mem.store.con.execute("SELECT count(*) FROM session_chunks").fetchone()[0]
    stored = b"".join(p.read_bytes() for p in vault.rglob("*") if p.is_file())
    leaks = sum(1 for s in planted if s.encode() in stored)
    print(f"ingest of a {t_path.stat().st_size / 1e6:.1f} MB transcript ({len(rows)} lines) "
          f"by the Stop hook: {first:.2f} s whole process, {chunks} chunks; again: "
          f"{again:.2f} s, raw files unchanged: {before == after}; fake secrets planted "
          f"{len(planted)}, found in the vault or index: {leaks}")
    shutil.rmtree(vault.parent)


def import_many(args: argparse.Namespace) -> None:
    work = Path(tempfile.mkdtemp(prefix="aleph-import-"))
    vault = work / "vault"
    subprocess.run([*CLI, "init", str(vault)], check=True, capture_output=True)
    folder = work / "projects"
    for i in range(args.sessions):
        project = folder / f"-work-projects-p{i % 20}"
        project.mkdir(parents=True, exist_ok=True)
        rows, _ = transcript_rows(f"imp-{i:05d}", f"/work/projects/p{i % 20}", 12_000)
        (project / f"imp-{i:05d}.jsonl").write_text("\n".join(rows) + "\n")
    cmd = [*CLI, "sessions", "import", "claude-code", str(folder), "--vault", str(vault),
           "--json"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    time.sleep(args.interrupt_after)
    proc.kill()
    proc.wait()
    t = time.perf_counter()
    resumed = json.loads(subprocess.run(cmd, check=True, capture_output=True,
                                        text=True).stdout)
    resume_s = time.perf_counter() - t
    t = time.perf_counter()
    third = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    third_s = time.perf_counter() - t
    with Memory.open(vault) as mem:
        count = mem.store.con.execute("SELECT count(*) FROM sessions").fetchone()[0]
    print(f"import of {args.sessions} transcripts: stopped after {args.interrupt_after:.0f} s, "
          f"resumed: {resumed['sessions']} sessions read, {resumed['unchanged']} already done, "
          f"{resume_s:.1f} s; again: {third['unchanged']} unchanged, {third['messages']} new "
          f"messages, {third_s:.1f} s; sessions indexed {count}")
    t = time.perf_counter()
    vault2 = work / "vault2"
    subprocess.run([*CLI, "init", str(vault2)], check=True, capture_output=True)
    subprocess.run([*CLI, "sessions", "import", "claude-code", str(folder), "--vault",
                    str(vault2), "--json"], check=True, capture_output=True)
    print(f"import of {args.sessions} transcripts in one go: {time.perf_counter() - t:.1f} s")
    shutil.rmtree(work)


def real_notes(specs: list[str]) -> None:
    """Section 4: public transcripts compressed, each note checked beside its transcript."""
    from aleph_mem.install.new_vault import init_vault
    from aleph_mem.sessions import library
    from aleph_mem.sessions.transcripts import read
    from aleph_mem.sessions.upkeep import compress_one

    root = Path(tempfile.mkdtemp(prefix="aleph-real-sessions-")) / "vault"
    init_vault(root)
    for spec in specs:
        client, _, path = spec.partition("=")
        msgs = read(client, Path(path)).messages
        with Memory.open(root, {"embed_model": "none", "llm_model": ""}) as mem:
            report = library.ingest(mem.store, client, Path(path), closed=True)
            done = compress_one(mem.store, report.session.session_id)
            note = (root / done.path).read_text("utf-8") if done.path else ""
        print(json.dumps({"transcript": Path(path).name, "note": done.path,
                          "checks": note_checks(note, msgs)}), flush=True)


def note_checks(note: str, msgs: list) -> dict:
    import re

    title = next((ln[2:] for ln in note.splitlines() if ln.startswith("# ")), "")
    summary = next((m.text for m in msgs if m.role == "summary"), "")
    typed = {" ".join(m.text.split()) for m in msgs if m.role == "user"}
    asked = re.findall(r"^- (.+)$", note.split("## Asked", 1)[-1].split("\n## ", 1)[0], re.M)
    outcome = note.split("## Outcome", 1)[-1].split("\n## ", 1)[0] if "## Outcome" in note \
        else ""
    writes = [m for m in msgs if m.role == "assistant" and m.files and m.tool in (
        "Edit", "Write", "MultiEdit", "NotebookEdit")]
    todos = [m for m in msgs if m.tool == "TodoWrite"]
    return {
        "title_from_summary": title.rstrip("…")[:40] in summary if summary else "no summary",
        "title_not_greeting": not re.match(r"(?i)(hello|hi|hey)\b|caveat:", title),
        "outcome": bool(outcome.strip()),
        "files_written_said": not writes or "changed " in outcome,
        "todo_state_said": not todos or "todo list left with" in outcome,
        "no_dangling_markdown": outcome.count("**") % 2 == 0,
        "asked_was_typed": all(any(a.rstrip("…")[:60] in t for t in typed) for a in asked),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_vault_args(ap)
    ap.add_argument("--notes", type=int, default=10_000)
    ap.add_argument("--starts", type=int, default=40)
    ap.add_argument("--sessions", type=int, default=1000)
    ap.add_argument("--interrupt-after", type=float, default=4.0)
    ap.add_argument("--only", choices=["start", "ingest", "import", "real"])
    ap.add_argument("--real", nargs="*", default=[],
                    help="CLIENT=FILE: public transcripts to compress and check")
    args = ap.parse_args()
    if args.real:
        real_notes(args.real)
    if args.only == "real":
        return
    if args.only in (None, "start"):
        session_start(args)
    if args.only in (None, "ingest"):
        ingest(args)
    if args.only in (None, "import"):
        import_many(args)


if __name__ == "__main__":
    main()
