"""Docs cannot go stale: every command and every setting is documented."""

from __future__ import annotations

from conftest import REPO

from aleph_mem.cli import COMMANDS
from aleph_mem.settings import SETTINGS, config_template, settings_markdown
from aleph_mem.template import template_files


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
    from aleph_mem.mcp_server import tools_reference
    from aleph_mem.template import init_vault

    init_vault(tmp_path)
    assert (REPO / "docs" / "mcp-tools.md").read_text() == tools_reference(tmp_path)
