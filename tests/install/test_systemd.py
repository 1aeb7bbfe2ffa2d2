"""The systemd user unit: valid, hardened (checked with systemd-analyze where it exists),
and written, shown and removed by `aleph-mem service` for the current install."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

from aleph_mem.install.systemd_unit import render


def analyze(*args: str) -> subprocess.CompletedProcess:
    tool = shutil.which("systemd-analyze")
    if tool is None:
        pytest.skip("systemd-analyze is not installed here")
    out = subprocess.run([tool, *args], capture_output=True, text=True)
    if "Failed to initialize manager" in out.stderr:
        pytest.skip("systemd cannot run its checks in this sandbox")
    return out


def exposure(unit: Path) -> float:
    out = analyze("security", "--offline=yes", str(unit))
    found = re.search(r"Overall exposure level for \S+: ([\d.]+)", out.stdout + out.stderr)
    assert found, out.stdout + out.stderr
    return float(found.group(1))


def test_the_shipped_unit_is_the_rendered_one_and_verifies(tmp_path: Path) -> None:
    unit = (REPO / "systemd" / "aleph-mem.service").read_text()
    assert unit == render("%h/.local/bin/aleph-mem", "%h/aleph-vault")  # one source
    exe = Path(sys.executable).with_name("aleph-mem")
    target = tmp_path / "aleph-mem.service"
    target.write_text(unit.replace("%h/.local/bin/aleph-mem", str(exe)))
    out = analyze("verify", str(target))
    assert out.returncode == 0, out.stderr


def test_the_unit_is_hardened_and_keeps_the_vault_writable(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    sandboxed, plain = tmp_path / "a.service", tmp_path / "b.service"
    sandboxed.write_text(render(f"{sys.executable} -m aleph_mem.cli", str(vault)))
    plain.write_text(render(f"{sys.executable} -m aleph_mem.cli", str(vault), sandbox=False))
    assert exposure(sandboxed) <= 4.0  # the goal; 9.6 UNSAFE before
    assert exposure(plain) < 9.6  # without user namespaces: still limited
    text = sandboxed.read_text()
    assert f"ReadWritePaths={vault}\n" in text and "ProtectHome=read-only" in text
    assert "AF_INET6" in text  # an LLM provider stays reachable


def test_service_install_status_uninstall_for_this_install(tmp_path: Path) -> None:
    vault, config = tmp_path / "vault", tmp_path / "config"
    env = {**os.environ, "XDG_CONFIG_HOME": str(config), "HOME": str(tmp_path)}
    cli = [sys.executable, "-m", "aleph_mem.cli"]
    subprocess.run([*cli, "init", str(vault)], check=True, capture_output=True, env=env)
    out = subprocess.run([*cli, "--vault", str(vault), "service", "install"],
                         capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 0, out.stderr
    unit = config / "systemd" / "user" / "aleph-mem.service"
    text = unit.read_text()
    from aleph_mem.install.clients import this_command

    command = " ".join(this_command())  # the same command the clients' configurations name
    assert f"ExecStart={command} --vault {vault.resolve()} daemon" in text
    assert out.stdout.startswith(f"wrote {unit}")
    st = subprocess.run([*cli, "service", "status", "--json"], capture_output=True, text=True,
                        env=env, timeout=60)
    body = json.loads(st.stdout)
    assert (body["installed"], body["vault"]) == (True, str(vault.resolve()))
    other = tmp_path / "other"
    subprocess.run([*cli, "init", str(other)], check=True, capture_output=True, env=env)
    clash = subprocess.run([*cli, "--vault", str(other), "service", "install"],
                           capture_output=True, text=True, env=env, timeout=60)
    assert clash.returncode == 1 and "runs another vault" in clash.stderr
    assert unit.read_text() == text  # the first vault's unit is untouched
    gone = subprocess.run([*cli, "service", "uninstall"], capture_output=True, text=True,
                          env=env, timeout=60)
    assert gone.returncode == 0 and f"removed {unit}" in gone.stdout and not unit.exists()
    bad = subprocess.run([*cli, "--vault", str(tmp_path / "nowhere"), "service", "install"],
                         capture_output=True, text=True, env=env, timeout=60)
    assert bad.returncode == 1 and "aleph-mem init" in bad.stderr


def test_a_vault_path_with_a_space_or_percent_is_quoted_and_a_newline_refused(
        tmp_path: Path) -> None:
    """An "Obsidian Vault" folder stays one argument, `%` stays a percent sign (not a
    specifier), a line break cannot inject a directive, and --name stays in the unit
    folder; a plain path (the control) is written as it is."""
    from aleph_mem.errors import BadInput
    from aleph_mem.install.systemd_unit import check_name, unit_word

    vault = tmp_path / "Obsidian Vault 100%"
    text = render(unit_word(sys.executable) + " -m aleph_mem.cli", unit_word(str(vault)))
    assert f'--vault "{tmp_path}/Obsidian Vault 100%%" daemon' in text
    assert f'ReadWritePaths="{tmp_path}/Obsidian Vault 100%%"' in text
    assert unit_word(str(tmp_path / "plain")) == str(tmp_path / "plain")
    with pytest.raises(BadInput, match="line break"):
        unit_word(str(tmp_path / "a\nExecStartPre=/bin/true"))
    for bad in ("../..", "a/b", ""):
        with pytest.raises(BadInput, match="not a unit name"):
            check_name(bad)
    assert check_name("aleph-mem-work") == "aleph-mem-work"
    unit = tmp_path / "aleph-mem.service"
    unit.write_text(text)
    if shutil.which("systemd-analyze"):
        out = analyze("verify", str(unit))
        assert out.returncode == 0, out.stderr


def test_service_install_serve_puts_daemon_serve_in_the_unit(tmp_path: Path) -> None:
    """`service install --serve` runs `daemon --serve` where it will listen; an address the
    server would refuse is refused at install time (not at every restart), and leaves no
    unit behind; without --serve (the control) the unit is as before."""
    vault, config = tmp_path / "vault", tmp_path / "config"
    env = {**os.environ, "XDG_CONFIG_HOME": str(config), "HOME": str(tmp_path)}
    cli = [sys.executable, "-m", "aleph_mem.cli", "--vault", str(vault)]
    subprocess.run([sys.executable, "-m", "aleph_mem.cli", "init", str(vault)], check=True,
                   capture_output=True, env=env)
    unit = config / "systemd" / "user" / "aleph-mem.service"

    def install(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*cli, "service", "install", *args], capture_output=True,
                              text=True, env=env, timeout=60)

    for refused, says in ((["--serve", "--host", "0.0.0.0"], "--new-token"),
                          (["--port", "9000"], "go with --serve")):
        out = install(*refused)
        assert out.returncode == 1 and says in out.stderr, out.stderr
        assert not unit.exists()
    out = install("--serve", "--port", "8790")
    assert out.returncode == 0, out.stderr
    start = next(ln for ln in unit.read_text().splitlines() if ln.startswith("ExecStart="))
    assert start.endswith(f"--vault {vault.resolve()} daemon --serve --host 127.0.0.1 "
                          "--port 8790")
    st = subprocess.run([*cli, "service", "status", "--json"], capture_output=True, text=True,
                        env=env, timeout=60)
    body = json.loads(st.stdout)
    assert (body["vault"], body["serves"]) == (str(vault.resolve()),
                                               "--serve --host 127.0.0.1 --port 8790")
    subprocess.run([*cli, "serve", "--new-token", "phone"], check=True, capture_output=True,
                   env=env)
    out = install("--serve", "--host", "0.0.0.0", "--allow-host", "daemon.lan")
    assert out.returncode == 0, out.stderr  # a token now: another address may be served
    text = unit.read_text()
    assert "daemon --serve --host 0.0.0.0 --port 8765 --allow-host daemon.lan\n" in text
    body = json.loads(subprocess.run([*cli, "service", "status", "--json"],
                                     capture_output=True, text=True, env=env).stdout)
    assert body["vault"] == str(vault.resolve())  # a host named "daemon…" misleads nothing
    target = tmp_path / "served.service"
    target.write_text(text)
    if shutil.which("systemd-analyze"):
        assert analyze("verify", str(target)).returncode == 0
    assert install().returncode == 0  # the control: back to the plain daemon
    assert next(ln for ln in unit.read_text().splitlines()
                if ln.startswith("ExecStart=")).endswith(f"--vault {vault.resolve()} daemon")
