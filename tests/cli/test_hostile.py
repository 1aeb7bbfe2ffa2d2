"""Hostile and careless input: one odd file never stops the rest, no save vanishes, a failed
command changes nothing, reading never writes, history holds only what happened, and every
bad input gets one clear line."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import open_mem, write

from aleph_mem.errors import AlephError, BadName, ConflictError, IgnoredPath, PoisonNote
from aleph_mem.files.vault import content_hash

RECURSIVE = b"---\na: &x [*x]\n---\nrecursivebody\n"
NESTED = b"---\nb: " + b"[" * 5000 + b"]" * 5000 + b"\n---\nnestedbody\n"
BOMB = ("---\na: &a [" + ",".join(['"lol"'] * 9) + "]\n" + "".join(
    f"{n}: &{n} [" + ",".join([f"*{p}"] * 9) + "]\n"
    for p, n in zip("abcdefgh", "bcdefghi", strict=True)) + "---\nbombbody\n").encode()


def cli(*args: str, stdin: bytes = b"", cwd: Path | None = None,
        timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "aleph_mem.cli", *args], input=stdin,
                          capture_output=True, cwd=cwd, timeout=timeout,
                          env={**os.environ, "ALEPH_MEM_EMBED_MODEL": "none"})


def events(root: Path) -> list[dict]:
    out = []
    for f in sorted((root / ".aleph" / "events").glob("*/*.jsonl")):
        out += [json.loads(line) for line in f.read_text().splitlines() if line.strip()]
    return out


# -- poison notes ------------------------------------------------------------------------

def test_poison_frontmatter_is_a_problem_on_that_note_not_a_stop(vault: Path) -> None:
    for name, data in (("rec.md", RECURSIVE), ("nest.md", NESTED), ("bomb.md", BOMB)):
        write(vault, name, data)
    write(vault, "fine.md", "---\ntitle: Fine\n---\nfinebody\n")
    os.symlink("loop.md", vault / "loop.md")
    os.symlink("../self/x.md", vault / "self-loop.md")
    r = cli("--vault", str(vault), "index")
    assert r.returncode == 0, r.stderr
    with open_mem(vault) as mem:
        problems = {p["path"]: p["reason"] for p in mem.status()["problems"]}
        assert problems["rec.md"].startswith("frontmatter too complex: nested more than 32")
        assert problems["nest.md"].startswith("frontmatter too complex")
        assert problems["bomb.md"].startswith(
            "frontmatter too complex: more than 20000 values once YAML aliases are expanded")
        assert problems["loop.md"] == "symlink loop: not indexed"
        for word, path in (("recursivebody", "rec.md"), ("nestedbody", "nest.md"),
                           ("bombbody", "bomb.md"), ("finebody", "fine.md")):
            assert [h.path for h in mem.search(word, mode="fts").hits] == [path]
        assert mem.show("bomb.md").frontmatter == {}


@pytest.mark.parametrize("data", [RECURSIVE, NESTED, BOMB], ids=["recursive", "nested", "bomb"])
def test_a_poison_note_is_refused_before_it_reaches_the_disk(vault: Path, data: bytes) -> None:
    with open_mem(vault) as mem:
        mem.reindex()
        with pytest.raises(PoisonNote, match="frontmatter too complex"):
            mem.store.writer().write("inbox/p.md", data, None)
    assert not (vault / "inbox" / "p.md").exists()
    assert [e for e in events(vault) if e["path"] == "inbox/p.md"] == []


# -- an editor saving while we write --------------------------------------------------------

def test_no_editor_save_is_lost_to_a_concurrent_write(vault: Path) -> None:
    """An editor saves by temp file + rename while aleph-mem appends with and without the
    hash it read: every save's line is still in the note or in a kept version."""
    target = vault / "notes" / "race.md"
    write(vault, "notes/race.md", "# Race\n\n")
    stop, first = threading.Event(), threading.Event()
    saves = 150

    def editor() -> None:
        first.wait(timeout=120)  # the race starts once an append got through, on any machine
        for k in range(saves):
            tmp = target.parent / f".race.md.save{k}"
            tmp.write_bytes(target.read_bytes() + f"editor save {k}\n".encode())
            os.replace(tmp, target)
            time.sleep(0.003 + (k % 7) / 1000)
        stop.set()

    with open_mem(vault) as mem:
        mem.reindex()
        w = mem.store.writer(actor="mcp:race")
        thread = threading.Thread(target=editor)
        thread.start()
        n = conflicts = 0
        while not stop.is_set():
            try:
                seen = target.read_bytes()
                w.append("notes/race.md", f"aleph {n}", content_hash(seen) if n % 2 else "*")
                n += 1
                first.set()
            except ConflictError:
                conflicts += 1
        thread.join()
        kept = [target.read_bytes()] + [mem.store.objects.get(p.name) for p in
                                        (vault / ".aleph" / "objects").glob("*/*")
                                        if not p.name.startswith(".")]
    text = b"\n".join(kept).decode()
    assert [k for k in range(saves) if f"editor save {k}\n" not in text] == []
    assert n > 0


# -- failures change nothing; reading never writes -------------------------------------------

@contextlib.contextmanager
def mounted(path: Path, options: str) -> Iterator[None]:
    """A private tmpfs (needs root and mount; the test is skipped without them)."""
    path.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0 or subprocess.run(
            ["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(path)],
            capture_output=True).returncode != 0:
        pytest.skip("needs root and mount for a real read-only or full file system")
    try:
        yield
    finally:
        subprocess.run(["umount", "-l", str(path)], capture_output=True)


def remount(path: Path, options: str) -> None:
    subprocess.run(["mount", "-o", f"remount,{options}", str(path)], check=True)


def test_a_failed_move_changes_nothing_and_is_never_completed_later(tmp_path: Path) -> None:
    root = tmp_path / "mnt" / "v"
    with mounted(tmp_path / "mnt", "size=30m"):
        assert cli("init", str(root)).returncode == 0
        assert cli("--vault", str(root), "write", "locked/a.md", stdin=b"hello\n").returncode == 0
        locked = root / "locked"
        subprocess.run(["mount", "--bind", str(locked), str(locked)], check=True)
        try:
            remount(locked, "bind,ro")
            for args in (["mv", "locked/a.md", "notes/a.md"], ["archive", "locked/a.md"]):
                r = cli("--vault", str(root), *args)
                assert r.returncode == 1
                assert r.stderr.decode().startswith("error: writing ")
                assert "the file system is read-only" in r.stderr.decode()
        finally:
            subprocess.run(["umount", str(locked)], check=True)
        assert cli("--vault", str(root), "index", "--no-embed").returncode == 0
        assert sorted(p.relative_to(root).as_posix() for p in root.rglob("a.md")) == [
            "locked/a.md"]
        assert [e["kind"] for e in events(root) if "a.md" in e["path"]] == ["note-created"]
        assert list((root / ".aleph" / "local" / "pending").glob("*.json")) == []


@pytest.mark.parametrize("how", ["read-only", "full"])
def test_reading_works_and_keeps_the_index_on_a_read_only_or_full_disk(
        tmp_path: Path, how: str) -> None:
    mnt = tmp_path / "mnt"
    root = mnt / "v"
    with mounted(mnt, "size=8m"):
        cli("init", str(root))
        cli("--vault", str(root), "write", "notes/a.md", stdin=b"hello there\n")
        assert cli("--vault", str(root), "index").returncode == 0
        size = (root / ".aleph" / "index.db").stat().st_size
        if how == "read-only":
            remount(mnt, "ro")
        else:
            with contextlib.suppress(OSError), open(mnt / "filler", "wb") as fh:
                while True:
                    fh.write(b"\0" * (1 << 20))
        for args in (["search", "hello", "--json"], ["show", "notes/a.md"], ["status"],
                     ["log"]):
            r = cli("--vault", str(root), *args)
            assert r.returncode == 0, (args, r.stderr)
        r = cli("--vault", str(root), "search", "hello", "--json")
        assert [h["path"] for h in json.loads(r.stdout)] == ["notes/a.md"]
        assert "results may be stale" in r.stderr.decode()
        assert mcp_reads(root) == {"search": False, "read": False, "context": False,
                                   "recent": False, "write": True}
        r = cli("--vault", str(root), "write", "notes/b.md", stdin=b"x\n")
        assert r.returncode == 1 and r.stderr.decode().count("\n") == 1
        assert ("the disk is full" if how == "full" else "read-only") in r.stderr.decode()
        assert (root / ".aleph" / "index.db").stat().st_size == size


def mcp_reads(root: Path) -> dict[str, bool]:
    """Whether each MCP tool call failed (through the SDK's in-process client)."""
    import anyio
    from mcp import Client

    from aleph_mem.mcp.server import build_server

    calls = {"search": {"query": "hello"}, "read": {"note": "notes/a.md"}, "context": {},
             "recent": {}, "write": {"content": "x", "title": "y"}}
    failed: dict[str, bool] = {}

    async def go() -> None:
        async with Client(build_server(root, background_reconcile=False)) as c:
            for name, args in calls.items():
                failed[name] = (await c.call_tool(name, args)).is_error
    anyio.run(go)
    return failed


def test_a_failed_reindex_after_a_durable_write_is_a_warning(vault: Path) -> None:
    import apsw

    with open_mem(vault) as mem:
        mem.reindex()
        mem.store.con.set_busy_timeout(50)
        other = apsw.Connection(str(vault / ".aleph" / "index.db"))
        other.execute("BEGIN EXCLUSIVE")
        try:
            result = mem.store.writer().write("notes/w.md", b"written anyway\n", None)
        finally:
            other.execute("ROLLBACK")
        assert result.event is not None and result.warning is not None
        assert "written and logged, but re-indexing it failed" in result.warning
        assert (vault / "notes" / "w.md").read_bytes() == b"written anyway\n"
        mem.reindex()
        assert [h.path for h in mem.search("anyway", mode="fts").hits] == ["notes/w.md"]
    assert [e["actor"] for e in events(vault) if e["path"] == "notes/w.md"] == ["cli"]


# -- history that happened -------------------------------------------------------------------

def test_a_killed_rebuild_or_a_recreated_index_invents_no_history(vault: Path) -> None:
    for i in range(400):
        write(vault, f"notes/n{i}.md", f"# Note {i}\n\n" + "words " * 200 + "\n")
    assert cli("--vault", str(vault), "index", "--no-embed").returncode == 0
    before = len(events(vault))
    for delay in (0.3, 0.6, 0.9):
        p = subprocess.Popen([sys.executable, "-m", "aleph_mem.cli", "--vault", str(vault),
                              "index", "--rebuild", "--no-embed"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        p.send_signal(signal.SIGKILL)
        p.wait()
        assert cli("--vault", str(vault), "index", "--no-embed").returncode == 0
    (vault / ".aleph" / "index.db").write_bytes(b"this is not a database" * 100)
    for suffix in ("-wal", "-shm"):
        Path(str(vault / ".aleph" / "index.db") + suffix).unlink(missing_ok=True)
    assert cli("--vault", str(vault), "index", "--no-embed").returncode == 0
    assert len(events(vault)) == before
    # a person's edit while the index was gone is still history, once
    (vault / "notes" / "n3.md").write_text("# Note 3\n\nchanged by hand\n")
    (vault / ".aleph" / "index.db").unlink()
    assert cli("--vault", str(vault), "index", "--no-embed").returncode == 0
    assert cli("--vault", str(vault), "index", "--no-embed").returncode == 0
    assert [(e["actor"], e["kind"], e["path"]) for e in events(vault)[before:]] == [
        ("human", "note-updated", "notes/n3.md")]  # judged against the kept baseline (#36)


def test_a_change_logged_but_not_indexed_is_not_logged_again(vault: Path) -> None:
    with open_mem(vault) as mem:
        mem.reindex()
        w = mem.store.writer()
        w.write("notes/a.md", b"one\n", None)
        (vault / ".aleph" / "index.db").unlink()  # as if the writer died before indexing
    with open_mem(vault) as mem:
        mem.store.writer().append("notes/a.md", "two")
        mem.reindex()
    assert [(e["actor"], e["kind"]) for e in events(vault)] == [
        ("cli", "note-created"), ("cli", "note-updated")]


def test_ignored_paths_are_refused_and_changing_ignore_deletes_nothing(vault: Path) -> None:
    with open_mem(vault) as mem:
        mem.reindex()
        w = mem.store.writer()
        for rel in (".obsidian/x.md", ".trash/x.md", ".git/x.md", "notes/.hidden.md"):
            with pytest.raises(IgnoredPath, match="refused path"):
                w.write(rel, b"x\n", None)
            assert not (vault / rel).exists()
        w.write("private/diary.md", b"dear diary\n", None)
    n = len(events(vault))
    (vault / ".aleph" / "config.toml").write_text('ignore = ["private/*"]\n')
    with open_mem(vault) as mem:
        mem.reindex()
        assert mem.search("diary", mode="fts").hits == []
        with pytest.raises(IgnoredPath):
            mem.store.writer().write("private/other.md", b"x\n", None)
    assert len(events(vault)) == n
    assert (vault / "private" / "diary.md").exists()


# -- names -----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", [
    "notes/a\nb.md", "notes/a\tb.md", "notes/bell\x07.md", "notes/evil\u202egpj.md",
    "CON.md", "notes/nul.md", "notes/x:y.md", "notes/x*?.md", "~/x.md", ".ALEPH/x.md",
    "notes/link[1].md", "notes/a#b.md", "Notes /x.md",
    "notes/" + "x" * 253 + ".md"])
def test_names_that_break_obsidian_or_a_synced_copy_are_refused(vault: Path,
                                                                 name: str) -> None:
    before = sorted(p for p in vault.rglob("*") if ".aleph" not in p.parts)
    with open_mem(vault) as mem:
        with pytest.raises((BadName, AlephError), match="refused"):
            mem.store.writer().write(name, b"x\n", None)
    assert sorted(p for p in vault.rglob("*") if ".aleph" not in p.parts) == before


def test_case_and_unicode_twins_are_refused_and_reads_are_exact(vault: Path) -> None:
    nfc = unicodedata.normalize("NFC", "notes/café.md")
    nfd = unicodedata.normalize("NFD", "notes/café.md")
    with open_mem(vault) as mem:
        w = mem.store.writer()
        w.write(nfc, b"cafe\n", None)
        w.write("notes/dup.md", b"lower\n", None)
        with pytest.raises(BadName, match="not in Unicode NFC"):
            w.write(nfd, b"twin\n", None)
        with pytest.raises(BadName, match="differs from the existing note 'notes/dup.md'"):
            w.write("notes/DUP.md", b"upper\n", None)
        with pytest.raises(BadName, match="'Notes/x.md'|differs"):
            w.write("Notes/x.md", b"folder twin\n", None)
        write(vault, "notes/DUP.md", "a person's upper twin\n")  # made by hand
        mem.reindex()
        assert mem.show("notes/dup.md").content == "lower\n"
        assert mem.show("notes/DUP.md").content == "a person's upper twin\n"
        long = "notes/" + "l" * 240 + ".md"
        assert mem.store.writer().write(long, b"long name\n", None).event is not None
        assert (vault / long).read_bytes() == b"long name\n"



def test_a_name_that_fits_two_notes_reads_the_persons_and_says_so(vault: Path) -> None:
    write(vault, "projects/Heron.md", "# Heron\n\nthe person's project note\n")
    write(vault, "notes/x.md", "lower x\n")
    write(vault, "notes/X.md", "upper X\n")
    write(vault, "notes/Kite.md", "# Kite\n\nonly one note has this name\n")
    with open_mem(vault) as mem:
        mem.reindex()
        mem.write_note("# Heron\n\nan agent's inbox copy\n", "inbox/Heron.md",
                       actor="mcp:test")
        view = mem.show("Heron")
        assert view.path == "projects/Heron.md" and view.others == ["inbox/Heron.md"]
        assert mem.show("x").path == "notes/x.md" and mem.show("X").path == "notes/X.md"
        assert mem.show("Kite").others == []  # the near miss: one note, nothing to say
    out = cli("--vault", str(vault), "show", "Heron")
    assert out.stdout.startswith(b"# projects/Heron.md") and b"inbox/Heron.md" in out.stderr


# -- one clear line for every bad input -------------------------------------------------------

@pytest.mark.parametrize("args,message", [
    (["search", "x", "--since", "not-a-date"], "since 'not-a-date' is not a date or time"),
    (["search", "x", "--since", "-1d"], "--since needs a value (one that starts with '-' is "
     "written --since=VALUE)"),
    (["log", "--limit"], "--limit needs a value"),
    (["search", "x", "--until", "2020-13-45"], "until '2020-13-45' is not a date or time"),
    (["search", "x", "--limit", "-1"], "limit must be between 1 and 1000, got -1"),
    (["search", "x", "--limit", "99999999999999999999"], "limit must be between 1 and 1000"),
    (["log", "--since", "yesterday-ish"], "since 'yesterday-ish' is not a date or time"),
    (["write", "notes/f.md/child.md"], "a folder on the way is a file"),
    (["undo", "01BADEVENT"], "no event or run '01BADEVENT'"),
])
def test_bad_input_gets_one_clear_error_line(vault: Path, args: list[str],
                                            message: str) -> None:
    write(vault, "notes/f.md", "a note, not a folder\n")
    r = cli("--vault", str(vault), *args, stdin=b"text\n")
    err = r.stderr.decode()
    assert r.returncode == 1 and err.startswith("error: ") and err.count("\n") == 1, err
    assert message in err


def test_filters_accept_iso_times_and_spans(vault: Path) -> None:
    cli("--vault", str(vault), "write", "notes/new.md", stdin=b"fresh words\n")
    for since in ("1h", "7d", "2w", "2020", "2020-01", "2020-01-02T03:04"):
        r = cli("--vault", str(vault), "log", "--since", since, "--json")
        assert r.returncode == 0 and len(json.loads(r.stdout)) == 1, (since, r.stderr)
    r = cli("--vault", str(vault), "log", "--since", "2099-01-01", "--json")
    assert json.loads(r.stdout) == []


def test_non_utf8_stdin_and_bad_settings_are_clear(vault: Path) -> None:
    cli("--vault", str(vault), "write", "notes/a.md", stdin=b"x\n")
    r = cli("--vault", str(vault), "write", "--append", "notes/a.md", stdin=b"caf\xe9\n")
    assert r.returncode == 1 and "stdin is not UTF-8" in r.stderr.decode()
    (vault / ".aleph" / "config.toml").write_text("search_limit = -3\n")
    r = cli("--vault", str(vault), "search", "x")
    assert r.returncode == 1
    assert "search_limit must be between 1 and 1000, got -3" in r.stderr.decode()


def test_a_damaged_event_line_is_skipped_not_undone(vault: Path) -> None:
    cli("--vault", str(vault), "write", "notes/a.md", stdin=b"x\n")
    log_file = next((vault / ".aleph" / "events").glob("*/*.jsonl"))
    bad = {"id": "01DAMAGEDLINE0000000000000", "at": "2026-01-01T00:00:00Z", "actor": "cli",
           "kind": "note-updated", "path": "notes/a.md", "before": 5, "after": "zz"}
    with open(log_file, "a") as fh:
        fh.write(json.dumps(bad) + "\n")
    r = cli("--vault", str(vault), "undo", bad["id"])
    assert r.returncode == 1 and "no event or run '01DAMAGEDLINE" in r.stderr.decode()
    assert (vault / "notes" / "a.md").read_bytes() == b"x\n"


def test_a_torn_dream_record_never_swallows_the_next(vault: Path) -> None:
    """The dream's journal follows the event log's append-only rule (jsonl.py): a line torn
    by a crash is closed off before the next record, so that record is kept."""
    from aleph_mem.dream.journal import Journal

    journal = Journal(vault / ".aleph")
    journal.record_run({"id": "R1", "at": "2026-01-01T00:00:00Z", "status": "success"})
    runs_file = next((vault / ".aleph" / "dream").glob("*/runs.jsonl"))
    with open(runs_file, "ab") as fh:
        fh.write(b'{"id": "R2", "at": "2026-01-02')  # killed mid-line
    journal.record_run({"id": "R3", "at": "2026-01-03T00:00:00Z", "status": "success"})
    assert [r["id"] for r in Journal(vault / ".aleph").runs()] == ["R1", "R3"]


def test_a_hook_fed_deeply_nested_json_still_exits_0(vault: Path) -> None:
    """A hook never fails its client: JSON nested past Python's recursion limit is one line
    on stderr and exit 0; a well-formed call beside it (the control) answers."""
    deep = b'{"hook_event_name": "SessionStart", "x": ' + b"[" * 50_000 + b"]" * 50_000 + b"}"
    r = cli("hook", "claude-code", "--vault", str(vault), stdin=deep)
    assert (r.returncode, r.stdout, r.stderr) == (
        0, b"", b"aleph-mem hook: could not read the hook input (nested too deeply)\n")
    ok = cli("hook", "claude-code", "--vault", str(vault),
             stdin=b'{"hook_event_name": "SessionStart", "cwd": "/"}')
    assert ok.returncode == 0 and b'"additionalContext"' in ok.stdout


def test_set_refuses_a_recursive_yaml_value_in_one_line(vault: Path) -> None:
    write(vault, "a.md", "# A\n\nx\n")
    assert cli("--vault", str(vault), "index").returncode == 0
    r = cli("--vault", str(vault), "set", "a.md", "k=&a [*a]")
    assert r.returncode == 1 and r.stderr.startswith(
        b"error: a value is too complex to keep in frontmatter") and \
        b"Traceback" not in r.stderr
    assert (vault / "a.md").read_text() == "# A\n\nx\n"
    fine = cli("--vault", str(vault), "set", "a.md", "k=[a, b]")  # the control
    assert fine.returncode == 0


def test_log_never_prints_a_forged_line_or_an_escape_sequence(vault: Path) -> None:
    """An event another device synced in with a line break and ANSI escapes in its actor
    and path prints as one line with the escapes shown; a plain event (the control) prints
    as it is."""
    other = vault / ".aleph" / "events" / "other-device"
    other.mkdir(parents=True)
    forged = {"id": "01M86X1PEJE7MJ2MPEWJHXFE9J", "at": "2026-11-24T10:00:00.000Z",
              "actor": "human\n01M86X1PEJE7MJ2MPEWJHXFE9K  2026  cli  note-deleted  all.md",
              "kind": "note-created", "path": "a\x1b[2J.md", "after": "0" * 64}
    plain = {"id": "01M86X1PEJE7MJ2MPEWJHXFE9M", "at": "2026-11-24T10:01:00.000Z",
             "actor": "human", "kind": "note-created", "path": "b.md", "after": "1" * 64}
    (other / "2026-11.jsonl").write_text(json.dumps(forged) + "\n" + json.dumps(plain) + "\n")
    r = cli("--vault", str(vault), "log")
    assert r.returncode == 0
    lines = r.stdout.decode().splitlines()
    assert len([ln for ln in lines if ln.startswith("01M86X1PEJE7MJ2MPEWJHXFE9")]) == 2
    assert b"\x1b" not in r.stdout and "a\\x1b[2J.md" in r.stdout.decode()
    assert any(ln.endswith(" b.md  on other-device") or " b.md" in ln for ln in lines)


def test_a_folder_where_an_event_file_belongs_is_skipped_not_a_stop(vault: Path) -> None:
    """Synced in from elsewhere, a folder named like an event file: status, log and a hook
    go on (one warning); the events beside it (the control) are still read."""
    assert cli("--vault", str(vault), "write", "a.md", stdin=b"# A\n\nx\n").returncode == 0
    (vault / ".aleph" / "events" / "other" / "2026-11.jsonl").mkdir(parents=True)
    status = cli("--vault", str(vault), "status")
    assert status.returncode == 0 and b"is not a file of events: skipped" in status.stderr
    logged = cli("--vault", str(vault), "log")
    assert logged.returncode == 0 and b"a.md" in logged.stdout
    hooked = cli("hook", "claude-code", "--vault", str(vault),
                 stdin=b'{"hook_event_name": "SessionStart", "cwd": "/"}')
    assert hooked.returncode == 0 and b'"additionalContext"' in hooked.stdout


def test_aleph_is_private_and_a_squatted_socket_gets_no_query(
        vault: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """.aleph (index, transcripts, pre-images, locks) is its owner's alone; the model
    socket's folder in the shared temp folder must be this user's and private, and a
    socket that is not this user's (or not a socket) gets no query; this user's own
    socket (the control) is trusted."""
    import socket
    import stat
    import tempfile

    from aleph_mem.embed import model_socket

    os.chmod(vault / ".aleph", 0o755)
    assert cli("--vault", str(vault), "index").returncode == 0
    assert stat.S_IMODE((vault / ".aleph").stat().st_mode) == 0o700
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    squat = tmp_path / f"aleph-mem-{os.getuid()}"
    squat.mkdir(mode=0o755)
    os.chmod(squat, 0o755)  # as another user would leave it: enterable by all
    with pytest.raises(OSError, match="not this user's private folder"):
        model_socket.socket_path(tmp_path / ("x" * 120) / "local")
    fake = tmp_path / "fake.sock"
    fake.write_text("not a socket")
    assert not model_socket.owned(fake) and model_socket.query(fake, "hello") is None
    real = tmp_path / "real.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.bind(str(real))
        assert model_socket.owned(real)


LISTENER = """
import base64, json, os, socket, sys
uid = int(sys.argv[2])
if uid != os.getuid():
    os.setuid(uid)
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(sys.argv[1]); s.listen(1); print("ready", flush=True)
c, _ = s.accept(); c.recv(65536)
c.sendall(json.dumps({"model": "squat:2", "vector": base64.b64encode(bytes(8)).decode()})
          .encode() + b"\\n")
"""


@pytest.mark.skipif(os.getuid() != 0, reason="needs root to run a listener as another user")
@pytest.mark.parametrize("uid", [65534, 0])
def test_a_query_goes_only_to_a_listener_of_this_user(tmp_path: Path, uid: int) -> None:
    """A socket file this user owns, with another user's process listening on it, gets no
    query (the kernel names the peer); this user's own listener (the control) is asked."""
    import shutil
    import tempfile

    from aleph_mem.embed import model_socket

    folder = Path(tempfile.mkdtemp(prefix="aleph-peer-"))  # one both users can enter
    os.chmod(folder, 0o777)
    path = folder / "embed.sock"
    proc = subprocess.Popen([sys.executable, "-c", LISTENER, str(path), str(uid)],
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "ready"
        os.chown(path, os.getuid(), os.getgid())  # the name looks like ours either way
        answer = model_socket.query(path, "hello")
    finally:
        proc.kill()
        proc.wait()
        shutil.rmtree(folder, ignore_errors=True)
    assert (answer is None) == (uid != 0)
