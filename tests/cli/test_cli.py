"""The real command: a subprocess for the newcomer path, main() for the rest."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from pathlib import Path

from conftest import write

from aleph_mem.cli.main import main


def run(*args: str, cwd: Path | None = None,
        env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "aleph_mem.cli", *args], cwd=cwd,
                          capture_output=True, text=True, env={**os.environ, **(env or {})})


def test_newcomer_path_init_index_search(tmp_path: Path) -> None:
    root = tmp_path / "v"
    r = run("init", str(root))
    assert r.returncode == 0 and "Welcome.md" in r.stdout
    assert (root / ".aleph" / "config.toml").is_file()
    assert run("--vault", str(root), "index").returncode == 0
    r = run("search", "how a note is written", "--json", "--vault", str(root))
    hits = json.loads(r.stdout)
    assert hits[0]["path"] == "Welcome.md"
    assert set(hits[0]) == {"path", "anchor", "title", "score", "snippet", "line", "heading",
                            "block_id"}


def test_vault_from_env_and_from_current_folder(tmp_path: Path) -> None:
    root = tmp_path / "v"
    run("init", str(root))
    write(root, "sub/n.md", "findme\n")
    assert run("index", env={"ALEPH_MEM_VAULT": str(root)}).returncode == 0
    r = run("search", "findme", "--json", cwd=root / "sub")
    assert [h["path"] for h in json.loads(r.stdout)] == ["sub/n.md"]


def test_missing_vault_is_a_clear_error(tmp_path: Path) -> None:
    r = run("search", "x", cwd=tmp_path, env={"ALEPH_MEM_VAULT": ""})
    assert r.returncode == 1
    assert r.stdout == ""
    assert "no aleph-mem vault" in r.stderr and "aleph-mem init" in r.stderr


def test_show_and_status_json(vault: Path, capsys) -> None:
    write(vault, "a.md", "---\ntags: [x]\naliases: [Alpha]\n---\n# A\n[[b]] [[nope]]\n")
    write(vault, "b.md", "# B\n[[Alpha]]\n")
    assert main(["--vault", str(vault), "index"]) == 0
    capsys.readouterr()
    assert main(["show", "Alpha", "--json", "--vault", str(vault)]) == 0
    view = json.loads(capsys.readouterr().out)
    assert {k: view[k] for k in ("path", "title", "tags", "aliases", "backlinks")} == {
        "path": "a.md", "title": "a", "tags": ["x"], "aliases": ["Alpha"],
        "backlinks": ["b.md"]}
    assert [(lk["raw"], lk["resolved"]) for lk in view["links"]] == [
        ("[[b]]", "b.md"), ("[[nope]]", None)]
    assert len(view["hash"]) == 64
    assert main(["status", "--json", "--vault", str(vault)]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["counts"]["links_unresolved"] == 1
    assert status["unresolved_links"] == [{"from": "a.md", "raw": "[[nope]]", "line": 6}]


def test_show_unknown_note_suggests_closest(vault: Path, capsys) -> None:
    write(vault, "notes/Quarterly plan.md", "x\n")
    main(["--vault", str(vault), "index"])
    assert main(["--vault", str(vault), "show", "Quartely plan"]) == 1
    err = capsys.readouterr().err
    assert "no note matches 'Quartely plan'" in err and "Quarterly plan" in err


def test_bad_config_is_a_clear_error(vault: Path, capsys) -> None:
    (vault / ".aleph" / "config.toml").write_text("search_limit = 'many'\n")
    assert main(["--vault", str(vault), "index"]) == 1
    assert "search_limit must be a whole number" in capsys.readouterr().err
    (vault / ".aleph" / "config.toml").write_text("serch_limit = 3\n")
    assert main(["--vault", str(vault), "index"]) == 1
    assert "unknown setting(s) serch_limit" in capsys.readouterr().err
    (vault / ".aleph" / "config.toml").write_text("[dream.decay]\nhalf_life = 3\n")
    assert main(["--vault", str(vault), "index"]) == 1
    assert "[dream] supports one table per pass" in capsys.readouterr().err
    (vault / ".aleph" / "config.toml").write_text("[dream.lint]\nmode = 'sometimes'\n")
    assert main(["--vault", str(vault), "index"]) == 1
    assert "dream.lint.mode must be one of auto, propose, off" in capsys.readouterr().err


def test_dream_pass_tables_set_the_pass_modes(vault: Path, capsys) -> None:
    from aleph_mem.settings import load_settings

    (vault / ".aleph" / "config.toml").write_text(
        'dream_propose = ["lint", "decay"]\ndream_off = ["drift"]\n'
        '[dream.decay]\nmode = "off"\n[dream.drift]\nmode = "auto"\n'
        '[dream.consolidate]\nmode = "propose"\n')
    s = load_settings(vault, environ={})
    assert (s.dream_propose, s.dream_off) == (("lint", "consolidate"), ("decay",))
    # and a run honours them: consolidate proposes, decay never runs
    write(vault, "notes/a.md", "# A\n\n" + "same words about the harbour and ferry " * 3)
    write(vault, "notes/b.md", "# A copy\n\n" + "same words about the harbour and ferry " * 3)
    assert main(["--vault", str(vault), "dream", "--force", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert {p["pass"] for p in report["proposed"]} == {"consolidate"}
    assert "decay" not in report["done"] and "consolidate" in report["done"]
    assert report["applied"] == []


def test_every_setting_is_a_flag_over_the_environment(tmp_path: Path) -> None:
    root = tmp_path / "v"
    run("init", str(root))
    for i in range(3):
        write(root, f"n{i}.md", f"shared word {i}\n")
    env = {"ALEPH_MEM_SEARCH_LIMIT": "2", "ALEPH_MEM_EMBED_MODEL": "none"}
    assert run("--vault", str(root), "index", env=env).returncode == 0
    hits = json.loads(run("--vault", str(root), "search", "shared", "--json", env=env).stdout)
    assert len(hits) == 2
    r = run("--vault", str(root), "search", "shared", "--json", "--search-limit", "1", env=env)
    assert len(json.loads(r.stdout)) == 1
    r = run("--vault", str(root), "search", "shared", "--search-limit", "0", env=env)
    assert r.returncode == 1
    assert r.stderr == ("error: command line: search_limit must be between 1 and 1000, "
                        "got '0'\n")


def test_a_mistyped_command_or_option_names_the_one_meant(tmp_path: Path) -> None:
    """Exit 1 like every error, with the one meant; a word nothing is near (the near miss)
    gets no guess."""
    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "aleph_mem.cli", *args],
                              capture_output=True, text=True, timeout=60, cwd=tmp_path)

    typo, flag, far = run("serch", "x"), run("search", "x", "--limt", "3"), run("zzzz")
    assert (typo.returncode, flag.returncode, far.returncode) == (1, 1, 1)
    assert typo.stderr.rstrip().endswith("did you mean 'search'?")
    assert flag.stderr.rstrip().endswith("did you mean --limit?")
    assert "did you mean" not in far.stderr


def test_inits_next_step_runs_as_printed_on_the_path_or_not(tmp_path: Path) -> None:
    """The hint after `init` is a command that works as printed: with `--vault` when the
    vault is not the working folder, and the absolute command when `aleph-mem` is not on
    the PATH (a virtualenv not activated)."""
    import re
    import shlex

    bindir = str(Path(sys.executable).parent)
    bare = os.pathsep.join(p for p in os.environ.get("PATH", "").split(os.pathsep)
                           if p and Path(p).resolve() != Path(bindir).resolve())
    for path, word in ((bare, str(Path(bindir) / "aleph-mem")),
                       (bindir + os.pathsep + bare, "aleph-mem")):
        vault = tmp_path / f"v{len(word)}"
        out = subprocess.run([sys.executable, "-m", "aleph_mem.cli", "init", str(vault)],
                             capture_output=True, text=True, cwd=tmp_path,
                             env={**os.environ, "PATH": path}, timeout=120)
        hint = re.search(r"next: `([^`]+)`", out.stdout).group(1)
        assert shlex.split(hint)[0] == word and "--vault" in hint
        ran = subprocess.run(hint, shell=True, capture_output=True, text=True,
                             cwd=tmp_path, env={**os.environ, "PATH": path,
                                                "ALEPH_MEM_EMBED_MODEL": "none"}, timeout=300)
        assert ran.returncode == 0, ran.stderr


def test_finding_the_vault_says_where_it_looked_and_never_nests_one(tmp_path: Path) -> None:
    root = tmp_path / "v"
    run("init", str(root))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    r = run("search", "x", cwd=elsewhere, env={"ALEPH_MEM_VAULT": ""})
    assert r.returncode == 1 and "no aleph-mem vault here" in r.stderr
    assert f"init {elsewhere}" not in r.stderr  # not steered to make the folder a vault
    r = run("search", "x", "--vault", str(root / "notes"))
    assert r.returncode == 1 and f"inside the vault '{root}'" in r.stderr
    r = run("search", "x", env={"ALEPH_MEM_VAULT": str(tmp_path / "typo")})
    assert r.returncode == 1 and "(from ALEPH_MEM_VAULT)" in r.stderr
    r = run("init", str(root / "notes" / "inner"))
    assert r.returncode == 1 and "inside the vault" in r.stderr
    assert not (root / "notes" / "inner" / ".aleph").exists()
    # the near misses: the vault itself, from a folder inside it, and init again
    assert run("search", "x", "--vault", str(root)).returncode == 0
    assert run("search", "x", cwd=root / "notes", env={"ALEPH_MEM_VAULT": ""}).returncode == 0
    assert run("init", str(root)).returncode == 0


def test_empty_answers_say_why(tmp_path: Path) -> None:
    """A command that finds nothing says why when it is not just the words: a fresh log,
    a folder the vault does not have, matches only among archived notes; Codex's hooks
    point to the import that serves it. Near misses: a real folder, a plain miss."""
    root = tmp_path / "v"
    run("init", str(root))
    r = run("--vault", str(root), "log")
    assert r.returncode == 0 and r.stdout == "" and "no changes logged yet" in r.stderr
    write(root, "notes/ferry.md", "# Ferry\n\nThe ferry sails at nine.\n")
    write(root, "old/kite.md", "# Kite\n\nThe kite flies on windy days.\n")
    env = {"ALEPH_MEM_EMBED_MODEL": "none"}
    run("--vault", str(root), "index", env=env)
    run("--vault", str(root), "archive", "old/kite.md", env=env)
    r = run("--vault", str(root), "search", "ferry", "--folder", "nowhere", env=env)
    assert "no folder 'nowhere'" in r.stderr
    r = run("--vault", str(root), "search", "ferry", "--folder", "notes", env=env)
    assert r.stdout.startswith("notes/ferry.md") and "no folder" not in r.stderr
    r = run("--vault", str(root), "search", "kite windy", env=env)
    assert r.stdout == "" and "archived notes do" in r.stderr
    r = run("--vault", str(root), "search", "kite windy", "--include-archived", env=env)
    assert r.stdout.startswith("archive/old/kite.md")
    r = run("--vault", str(root), "search", "zeppelin", env=env)
    assert "no matches" in r.stderr and "archived" not in r.stderr
    r = run("--vault", str(root), "hooks", "install", "codex")
    assert r.returncode == 1 and "sessions import codex" in r.stderr
    r = run("--vault", str(root), "graph", "ferry", "path")
    assert r.returncode == 1 and "`--to` in the CLI" in r.stderr


def test_write_on_a_terminal_says_it_reads_the_text_from_it(tmp_path: Path) -> None:
    import pty

    root = tmp_path / "v"
    run("init", str(root))
    leader, follower = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "aleph_mem.cli", "--vault", str(root),
                             "write", "notes/typed.md"], stdin=follower,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    os.close(follower)
    os.write(leader, b"typed on a terminal\n\x04")
    out, err = proc.communicate(timeout=120)
    os.close(leader)
    assert "Ctrl-D" in err and proc.returncode == 0
    assert (root / "notes" / "typed.md").read_text() == "typed on a terminal\n"


def test_watch_names_itself_and_progress_leaves_no_debris(tmp_path: Path) -> None:
    import pty
    import signal

    from aleph_mem.cli.common import progress_printer

    root = tmp_path / "v"
    run("init", str(root))
    proc = subprocess.Popen([sys.executable, "-m", "aleph_mem.cli", "--vault", str(root),
                             "watch"], stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "ALEPH_MEM_EMBED_MODEL": "none"})
    try:
        first = proc.stderr.readline()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
    assert first.startswith(f"aleph-mem watch watching {root}")
    # a progress line redrawn shorter clears what the longer one left
    leader, follower = pty.openpty()
    saved = sys.stderr
    sys.stderr = open(follower, "w", closefd=False)
    try:
        show = progress_printer("embedding")
        assert show is not None
        show(1, 3)
        show(3, 3)
        sys.stderr.flush()
    finally:
        sys.stderr.close()
        sys.stderr = saved
    drawn = ""
    while not drawn.endswith("\n"):  # a pty hands over what was written in pieces
        ready, _, _ = select.select([leader], [], [], 30)
        assert ready, drawn
        drawn += os.read(leader, 4096).decode()
    os.close(leader)
    os.close(follower)
    assert [part.endswith("\x1b[K") for part in drawn.strip("\r\n").split("\r")
            if part] == [True, True]


def test_undo_of_a_run_that_wrote_only_its_digest_says_so(tmp_path: Path) -> None:
    root = tmp_path / "v"
    run("init", str(root))
    env = {"ALEPH_MEM_EMBED_MODEL": "none"}
    run("--vault", str(root), "index", env=env)
    dreamt = json.loads(run("--vault", str(root), "dream", "--json", env=env).stdout)
    assert dreamt["applied"] == [] and dreamt["digest"]
    r = run("--vault", str(root), "undo", dreamt["run_id"], env=env)
    assert r.returncode == 0 and "undid 0" not in r.stdout
    assert "changed no note" in r.stdout and dreamt["digest"] in r.stdout


def test_completion_offers_what_the_parser_takes(tmp_path: Path) -> None:
    """The bash script, loaded in a real bash, completes commands and their options from
    the same grammar; zsh and fish scripts name every command."""
    from aleph_mem.cli.main import COMMANDS

    script = tmp_path / "aleph-mem.bash"
    script.write_text(run("completion", "bash").stdout)

    def complete(*words: str) -> list[str]:
        line = " ".join(["aleph-mem", *words])
        out = subprocess.run(["bash", "-c", f"source {script}; COMP_WORDS=({line}); "
                              f"COMP_CWORD={len(words)}; COMP_LINE='{line}'; "
                              f"COMP_POINT={len(line)}; _shtab_aleph_mem; "
                              "printf '%s\\n' \"${COMPREPLY[@]}\""],
                             capture_output=True, text=True, timeout=60)
        return out.stdout.split()

    assert {"search", "service", "sessions", "set"} <= set(complete("se"))
    assert "sync" not in complete("se")  # no command the CLI lacks
    assert "--include-archived" in complete("search", "--inc")
    for shell in ("zsh", "fish"):
        text = run("completion", shell).stdout
        assert all(name in text for name in COMMANDS), shell
