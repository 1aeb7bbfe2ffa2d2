"""Every command's --help ends with examples a person can run as written (each parsed here
by the real grammar), and no argument is left without a word of help."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys

import pytest

from aleph_mem.cli.grammar import build_parser

PARSER = build_parser()
COMMANDS = next(a for a in PARSER._actions
                if isinstance(a, type(PARSER._subparsers._group_actions[0]))).choices


def example_argv(line: str) -> list[str]:
    """The words after `aleph-mem` in an example line, its comment, pipe and redirection
    left out."""
    command = re.sub(r"\s+#.*$", "", line)
    command = command.split("|")[-1]
    words = shlex.split(re.sub(r"\s[<>].*$", "", command))
    return words[words.index("aleph-mem") + 1:]


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_each_commands_help_shows_examples_that_parse(name: str) -> None:
    epilog = COMMANDS[name].epilog or ""
    lines = [ln.strip() for ln in epilog.splitlines() if "aleph-mem" in ln]
    assert epilog.startswith(("examples:", "example:", "bash:")) and lines, name
    for line in lines:
        args = PARSER.parse_args(example_argv(line))
        assert args.command == name, line


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_no_argument_is_without_help(name: str) -> None:
    bare = [a.dest for a in COMMANDS[name]._actions if not a.help]
    assert bare == [], name


def test_the_help_a_person_reads_ends_with_the_examples() -> None:
    out = subprocess.run([sys.executable, "-m", "aleph_mem.cli", "search", "--help"],
                         capture_output=True, text=True, timeout=60).stdout
    assert out.rstrip().endswith('aleph-mem search "db port" --as-of 2026-03-01 --json')
    assert "examples:\n  aleph-mem search" in out
