"""Our entries in agent clients' settings files: merged beside the person's, removed byte
for byte, in each client's own format."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from session_helpers import cli


def test_hooks_install_merges_and_uninstall_restores(vault: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    original = {"model": "opus", "permissions": {"allow": ["Bash(ls:*)"]},
                "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}],
                          "PreToolUse": [{"matcher": "Bash", "hooks": [
                              {"type": "command", "command": "guard.sh"}]}]}}
    settings.write_text(json.dumps(original, indent=4))
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "aleph_mem.cli", *args], env=env,
                              capture_output=True, text=True, timeout=60)
    first = run("hooks", "install", "claude-code", "--vault", str(vault))
    assert first.returncode == 0 and "installed" in first.stdout, first.stderr
    doc = json.loads(settings.read_text())
    assert doc["model"] == "opus" and doc["permissions"] == original["permissions"]
    assert doc["hooks"]["PreToolUse"] == original["hooks"]["PreToolUse"]
    assert doc["hooks"]["Stop"][0] == original["hooks"]["Stop"][0]
    ours = doc["hooks"]["SessionStart"][0]["hooks"][0]
    assert ours["command"].endswith(f"hook claude-code --vault {vault.resolve()}")
    assert json.loads(settings.with_name("settings.json.aleph-mem.bak").read_text()) == original
    installed = settings.read_bytes()
    assert "already installed" in run("hooks", "install", "claude-code", "--vault",
                                      str(vault)).stdout
    assert settings.read_bytes() == installed
    status = run("hooks", "status", "claude-code", "--json")
    assert json.loads(status.stdout)["missing"] == []
    assert run("hooks", "uninstall", "claude-code").returncode == 0
    assert settings.read_text() == json.dumps(original, indent=4)  # byte for byte
    assert run("hooks", "status", "claude-code").returncode == 1
    settings.write_text('{"hooks": {')  # broken: never rewritten
    bad = run("hooks", "install", "claude-code", "--vault", str(vault))
    assert bad.returncode == 1 and "not valid JSON" in bad.stderr
    assert settings.read_text() == '{"hooks": {'


@pytest.mark.parametrize("client", ["gemini"])
def test_gemini_hooks_install_in_its_format(vault: Path, tmp_path: Path, client: str) -> None:
    from aleph_mem.install import client_hooks

    path, changed = client_hooks.install(client, vault, "project", tmp_path)
    doc = json.loads(path.read_text())
    assert path == tmp_path / ".gemini" / "settings.json" and changed
    assert sorted(doc["hooks"]) == ["BeforeAgent", "PreCompress", "SessionEnd", "SessionStart"]
    entry = doc["hooks"]["SessionStart"][0]["hooks"][0]
    assert entry["timeout"] == 10_000 and entry["name"] == "aleph-mem-SessionStart"


def test_cursor_hooks_install_flat_and_answer_in_its_shape(vault: Path, tmp_path: Path) -> None:
    from aleph_mem.install import client_hooks

    path = tmp_path / ".cursor" / "hooks.json"
    path.parent.mkdir()
    theirs = {"command": "./audit.sh"}
    path.write_text(json.dumps({"version": 1, "hooks": {"stop": [theirs]}}))
    client_hooks.install("cursor", vault, "project", tmp_path)
    doc = json.loads(path.read_text())
    assert doc["version"] == 1 and doc["hooks"]["stop"][0] == theirs
    assert sorted(doc["hooks"]) == ["preCompact", "sessionEnd", "sessionStart", "stop"]
    assert doc["hooks"]["sessionStart"][0]["command"] == "aleph-mem hook cursor"  # shared
    assert client_hooks.status("cursor", "project", tmp_path).missing == []
    client_hooks.uninstall("cursor", "project", tmp_path)
    assert json.loads(path.read_text()) == {"version": 1, "hooks": {"stop": [theirs]}}
    out = cli("hook", "cursor", "--vault", str(vault), stdin=json.dumps({
        "hook_event_name": "sessionStart", "conversation_id": "c1",
        "workspace_roots": ["/work/projects/heron-api"]}))
    answer = json.loads(out.stdout)
    assert answer["continue"] is True and answer["additional_context"].startswith("# Memory")


def test_hooks_install_writes_through_a_symlinked_settings_file(vault: Path,
                                                                tmp_path: Path) -> None:
    """A settings.json kept in a dotfiles repository and linked in stays a link: the
    entries land in the repository's file; uninstall gives it back byte for byte."""
    from aleph_mem.install import client_hooks

    dotfiles = tmp_path / "dotfiles" / "claude-settings.json"
    dotfiles.parent.mkdir()
    original = b'{\n  "theme": "dark"\n}\n'
    dotfiles.write_bytes(original)
    link = tmp_path / ".claude" / "settings.json"
    link.parent.mkdir()
    link.symlink_to(dotfiles)
    path, changed = client_hooks.install("claude-code", vault, "project", tmp_path)
    assert path == link and changed and link.is_symlink()
    assert b"aleph-mem" in dotfiles.read_bytes() and b'"theme": "dark"' in dotfiles.read_bytes()
    client_hooks.uninstall("claude-code", "project", tmp_path)
    assert link.is_symlink() and dotfiles.read_bytes() == original


def test_project_hooks_hold_no_path_of_this_machine(vault: Path, tmp_path: Path) -> None:
    """A project's settings file is committed and shared: its hooks name no absolute path
    (not this install, not this vault). The near miss: a person's own settings do, so the
    hook runs without a PATH or an environment variable."""
    import sys

    from aleph_mem.install import client_hooks

    project = tmp_path / "repo"
    project.mkdir()
    path, _ = client_hooks.install("claude-code", vault, "project", project)
    shared = path.read_text()
    assert str(vault) not in shared and sys.prefix not in shared
    assert '"aleph-mem hook claude-code"' in shared
    path, _ = client_hooks.install("claude-code", vault, "local", project)
    assert str(vault.resolve()) in path.read_text()


def test_uninstall_leaves_nothing_where_there_was_no_file(vault: Path, tmp_path: Path) -> None:
    from aleph_mem.install import client_hooks

    for client in ("claude-code", "cursor", "gemini"):
        project = tmp_path / client
        project.mkdir()
        path, _ = client_hooks.install(client, vault, "project", project)
        assert path.is_file()
        client_hooks.uninstall(client, "project", project)
        assert not path.exists() and list(path.parent.iterdir()) == []
    # the near miss: a file the person had keeps what was theirs, with a backup
    mine = tmp_path / "mine" / ".claude" / "settings.json"
    mine.parent.mkdir(parents=True)
    mine.write_text('{\n  "hooks": {}\n}\n')
    client_hooks.install("claude-code", vault, "project", tmp_path / "mine")
    client_hooks.uninstall("claude-code", "project", tmp_path / "mine")
    assert json.loads(mine.read_text()) == {}


@pytest.mark.parametrize("folder", ["my notes (2026)", "it's $HOME & `x`; rm -rf"])
def test_a_vault_path_with_spaces_and_shell_characters_reaches_the_hook(
        tmp_path: Path, folder: str) -> None:
    """The client runs the installed command through a shell: a vault whose path holds
    spaces, quotes, `$`, backquotes or `;` is still the vault the hook opens (the near
    miss: a plain path)."""
    from aleph_mem.install.new_vault import init_vault

    home = tmp_path / "home"
    for name in (folder, "plain"):
        vault = tmp_path / name / "vault"
        init_vault(vault)
        env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
        done = subprocess.run([sys.executable, "-m", "aleph_mem.cli", "hooks", "install",
                               "claude-code", "--vault", str(vault)], env=env,
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        doc = json.loads((home / ".claude" / "settings.json").read_text())
        command = doc["hooks"]["SessionStart"][0]["hooks"][0]["command"]
        answer = subprocess.run(["sh", "-c", command], input=json.dumps(
            {"hook_event_name": "SessionStart", "cwd": str(tmp_path)}), env=env,
            capture_output=True, text=True, timeout=120)
        assert answer.returncode == 0, answer.stderr
        context = json.loads(answer.stdout)["hookSpecificOutput"]["additionalContext"]
        assert f"vault {vault.resolve()}" in context  # the vault the path names, opened
        assert not (tmp_path / "x").exists()  # nothing the path spelled ran
        subprocess.run([sys.executable, "-m", "aleph_mem.cli", "hooks", "uninstall",
                        "claude-code"], env=env, capture_output=True, timeout=60)
