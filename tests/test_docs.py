"""Docs cannot go stale: every command and every setting is documented."""

from __future__ import annotations

import os
import shutil
import zipfile

import pytest
from conftest import REPO

from aleph_mem.cli.grammar import build_parser
from aleph_mem.cli.main import COMMANDS
from aleph_mem.install.new_vault import template_files
from aleph_mem.settings import SETTINGS, config_template, settings_markdown


def test_every_command_is_documented() -> None:
    text = (REPO / "docs" / "cli.md").read_text()
    missing = [c for c in COMMANDS if f"## `aleph-mem {c}" not in text]
    assert missing == []


def test_every_setting_is_documented_and_in_the_template() -> None:
    assert (REPO / "docs" / "settings.md").read_text() == settings_markdown()
    template = dict(template_files())[".aleph/config.toml"].read_text()
    assert template == config_template()
    for s in SETTINGS:
        assert f"\n# {s.name} = " in template, s.name


def test_template_has_what_the_design_lists() -> None:
    names = {rel for rel, _ in template_files()}
    assert {"Welcome.md", "MEMORY.md", ".gitignore", ".stignore", ".aleph/config.toml"} <= names
    ignored = dict(template_files())[".gitignore"].read_text()
    for local in (".aleph/index.db", ".aleph/cache/", ".aleph/local/"):
        assert local in ignored


def test_mcp_tools_reference_is_current(tmp_path) -> None:
    from aleph_mem.install.new_vault import init_vault
    from aleph_mem.mcp.server import tools_reference

    init_vault(tmp_path)
    page = (REPO / "docs" / "mcp-tools.md").read_text()
    generated, measured = page.split("## Tokens per call\n")
    assert generated == tools_reference(tmp_path)
    assert "| `tools/list`" in measured and "benchmarks/answer_tokens.py" in measured


def shell_examples() -> list[tuple[str, list[str]]]:
    """Every `aleph-mem ...` command in the README's and the docs' shell blocks: (where,
    argv after `aleph-mem`), split at `&&`, `|` and `;`, comments dropped."""
    import re
    import shlex

    out = []
    for page in [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]:
        blocks = re.findall(r"```(?:bash|sh|console)\n(.*?)```", page.read_text(), re.S)
        for block in blocks:
            for line in block.replace("\\\n", " ").splitlines():
                line = re.sub(r"\s\d?>>?&?\s*[^\s#]+", " ", line)  # redirections: the shell's
                for part in re.split(r"&&|\||;", line):
                    words = shlex.split(part, comments=True)
                    if words and words[0].endswith("aleph-mem"):
                        out.append((page.name, words[1:]))
    return out


def test_every_documented_command_is_one_the_cli_takes() -> None:
    """A page cannot name a command or a flag the CLI does not have (as it did once)."""
    examples = shell_examples()
    assert len(examples) >= 15
    parser = build_parser()
    for page, argv in examples:
        try:
            parser.parse_args(argv)
        except SystemExit:
            pytest.fail(f"{page}: `aleph-mem {' '.join(argv)}` is not a valid command")


def test_the_documented_reading_commands_run(tmp_path) -> None:
    """The examples that only read or write notes run as written against a vault."""
    import subprocess
    import sys

    vault = tmp_path / "notes"
    cli = [sys.executable, "-m", "aleph_mem.cli"]
    subprocess.run([*cli, "init", str(vault)], check=True, capture_output=True)
    (vault / "notes" / "Some note.md").write_text("# Some note\n\nsqlite wal mode #project\n")
    runnable = {"index", "search", "show", "status", "write", "log", "dream", "plugins",
                "mcp-config", "init", "hooks", "sessions", "completion"}
    home = tmp_path / "home"  # hooks write into the client's settings under HOME, and a
    project = home / ".claude" / "projects" / "-work-heron"  # client keeps its sessions
    project.mkdir(parents=True)
    found = REPO / "tests" / "transcripts"  # where agents.md says each client keeps them
    shutil.copy(found / "claude_code_session.jsonl", project)
    codex = home / ".codex" / "sessions" / "2026" / "11" / "21"
    codex.mkdir(parents=True)
    shutil.copy(next(found.glob("rollout-*.jsonl")), codex)
    (home / "Downloads" / "claude-export").mkdir(parents=True)
    shutil.copy(found / "claude_ai_conversations.json",
                home / "Downloads" / "claude-export" / "conversations.json")
    with zipfile.ZipFile(home / "Downloads" / "chatgpt-export.zip", "w") as z:
        z.write(found / "chatgpt_conversations.json", "conversations.json")
    ran = 0
    for page, argv in shell_examples():
        command = next((a for a in argv if not a.startswith("-") and a not in (
            "--vault",)), None)
        if command not in runnable or "EVENT_OR_RUN_ID" in argv or "open-tasks" in argv:
            continue  # an id from the log; the example plugin (tests/plugin_example)
        if "dream" in argv and "--dry-run" not in argv:
            argv = [*argv, "--dry-run"]
        args = [a for i, a in enumerate(argv) if a != "--vault" and (
            i == 0 or argv[i - 1] != "--vault")]
        if command == "init":
            args = ["init", str(tmp_path / "fresh")]
        if ">" in args:  # `completion bash > FILE`: the shell's redirection, not an argument
            args = args[:args.index(">")]
        args = [a.replace("~", str(home), 1) if a.startswith("~/") else a for a in args]
        r = subprocess.run([*cli, "--vault", str(vault), *args], input=b"a thought\n",
                           capture_output=True, timeout=120, cwd=vault,
                           env={**os.environ, "HOME": str(home)})
        assert r.returncode == 0, (page, argv, r.stderr.decode())
        ran += 1
    assert ran >= 8


def test_every_module_a_doc_or_a_comment_names_exists() -> None:
    """A module path named in the docs, the README or the package's own docstrings and
    comments (``aleph_mem.index.search``, ``writes/writer.py``) exists: docs fall out of step
    when modules move, and a newcomer follows them."""
    import importlib
    import importlib.util
    import re

    dotted = re.compile(r"\baleph_mem(?:\.[a-z_0-9]+)+")
    slashed = re.compile(r"(?<![\w./-])((?:aleph_mem/|tests/|benchmarks/)?(?:[a-z_0-9]+/)+"
                         r"[a-z_0-9]+\.py)\b")
    texts = [(p, p.read_text()) for p in [REPO / "README.md", *(REPO / "docs").glob("*.md"),
                                          *(REPO / "aleph_mem").rglob("*.py")]]
    missing = []
    for page, text in texts:
        for name in set(dotted.findall(text)):
            parts = name.rstrip(".").split(".")
            found = False
            for cut in range(len(parts), 1, -1):  # a module, or a module's attribute
                try:
                    spec = importlib.util.find_spec(".".join(parts[:cut]))
                except ModuleNotFoundError:
                    spec = None
                if spec is not None:
                    obj = importlib.import_module(".".join(parts[:cut]))
                    found = all((obj := getattr(obj, a, None)) is not None
                                for a in parts[cut:])
                    break
            if not found:
                missing.append(f"{page.name}: {name}")
        for rel in set(slashed.findall(text)):
            if rel.startswith("src/"):
                continue  # an example project's file (related_files), not ours
            if not any((root / rel).is_file() for root in (REPO, REPO / "aleph_mem")):
                missing.append(f"{page.name}: {rel}")
    assert sorted(set(missing)) == [], "\n".join(sorted(set(missing)))


def test_the_readme_test_command_is_what_ci_runs() -> None:
    """The README's test command is the line `.ci/run` runs, types checked before the tests."""
    readme = (REPO / "README.md").read_text()
    commands = [line for line in readme.splitlines()
                if line.startswith("python3 -m venv .venv && ") and "pytest" in line]
    assert len(commands) == 1
    ci = (REPO / ".ci" / "run").read_text().splitlines()
    assert commands[0] in ci
    # `set -e` does not stop at a failure inside an `&&` chain: the next line must
    assert ci[ci.index(commands[0]) + 1].startswith('status=$?; [ "$status" -eq 0 ] || {')
    steps = commands[0].split(" && ")
    assert steps.index(".venv/bin/ruff check .") < steps.index(".venv/bin/mypy aleph_mem") \
        < steps.index(".venv/bin/python -m pytest -q")
