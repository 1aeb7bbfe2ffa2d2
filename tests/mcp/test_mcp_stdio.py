"""End to end: `aleph-mem mcp` as a real subprocess, driven by the SDK's stdio client."""

from __future__ import annotations

import sys
from pathlib import Path

import anyio
from conftest import write
from mcp import Client, StdioServerParameters


def params(vault: Path) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable,
                                 args=["-m", "aleph_mem.cli", "mcp", "--vault", str(vault)])


def test_stdio_round_trip(vault: Path) -> None:
    write(vault, "notes/existing.md", "# Existing\n\nolder knowledge about lychees\n")

    async def scenario() -> None:
        async with Client(params(vault)) as c:
            tools = {t.name: t for t in (await c.list_tools()).tools}
            assert len(tools) == 12
            assert tools["search"].annotations.read_only_hint is True
            assert tools["forget"].annotations.destructive_hint is True

            r = await c.call_tool("write", {"content": "# Durian\n\nthe durian plan",
                                            "title": "Durian"})
            assert not r.is_error
            created = r.structured_content
            assert created["path"] == "inbox/Durian.md" and created["changed"]

            r = await c.call_tool("read", {"note": "durian"})
            note = r.structured_content
            assert note["content"] == "# Durian\n\nthe durian plan\n"
            assert note["hash"] == created["hash"]

            r = await c.call_tool("search", {"query": "durian plan"})
            assert [h["path"] for h in r.structured_content["hits"]] == ["inbox/Durian.md"]
            r = await c.call_tool("search", {"query": "lychees"})  # start-up reconcile
            assert [h["path"] for h in r.structured_content["hits"]] == ["notes/existing.md"]

            r = await c.call_tool("write", {"content": "new", "path": "inbox/Durian.md",
                                            "expected_hash": created["hash"]})
            assert not r.is_error
            r = await c.call_tool("write", {"content": "stale", "path": "inbox/Durian.md",
                                            "expected_hash": created["hash"]})
            assert r.is_error and "re-read it and retry" in r.content[0].text

            for bad in ("../escape.md", "/etc/passwd", ".aleph/index.md"):
                r = await c.call_tool("write", {"content": "x", "path": bad})
                assert r.is_error and "refused path" in r.content[0].text

            r = await c.call_tool("read", {"note": "Duriann plan"})
            assert r.is_error and "closest" in r.content[0].text

            r = await c.call_tool("recent", {"path": "inbox/Durian.md"})
            events = r.structured_content["events"]
            assert [e["kind"] for e in events] == ["note-updated", "note-created"]
            assert {e["actor"] for e in events} == {"mcp:mcp"}
            r = await c.call_tool("undo", {"id": events[0]["id"]})
            assert r.structured_content["refused"] == []
            r = await c.call_tool("recent", {"limit": 1})
            undo = r.structured_content["events"][0]  # logged under the client's one name
            assert (undo["kind"], undo["actor"]) == ("note-updated", "mcp:mcp")
            r = await c.call_tool("read", {"note": "inbox/Durian.md"})
            assert r.structured_content["content"] == "# Durian\n\nthe durian plan\n"

    anyio.run(scenario)
    assert not (vault.parent / "escape.md").exists()


def test_the_server_leaves_at_once_with_0_when_the_client_hangs_up(vault: Path) -> None:
    """Closing stdin or sending SIGTERM while the model loads or embeds ends the server with
    status 0 (it used to abort with SIGABRT from the embedding runtime's threads)."""
    import json
    import signal
    import subprocess
    import time

    for delay, how in ((0.0, "close"), (0.7, "close"), (1.2, "close"), (0.7, "term")):
        p = subprocess.Popen([sys.executable, "-m", "aleph_mem.cli", "mcp", "--vault",
                              str(vault)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)

        def send(obj: dict, p: subprocess.Popen = p) -> None:
            p.stdin.write((json.dumps(obj) + "\n").encode())
            p.stdin.flush()
        send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "hangup", "version": "1"}}})
        p.stdout.readline()
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        send({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "write", "arguments": {"content": "words " * 2000,
                                           "title": f"n{delay}{how}"}}})
        p.stdout.readline()
        time.sleep(delay)
        p.stdin.close() if how == "close" else p.send_signal(signal.SIGTERM)
        assert p.wait(timeout=20) == 0, p.stderr.read().decode()[-500:]
        p.stderr.close()
        p.stdout.close()


CLIENT_SHAPES = {  # how each client's documented format names the server's command
    "claude-code": lambda c: c["mcpServers"]["aleph-mem"],
    "claude-desktop": lambda c: c["mcpServers"]["aleph-mem"],
    "cursor": lambda c: c["mcpServers"]["aleph-mem"],
    "gemini": lambda c: c["mcpServers"]["aleph-mem"],
    "windsurf": lambda c: c["mcpServers"]["aleph-mem"],
    "vscode": lambda c: c["servers"]["aleph-mem"],
    "codex": lambda c: c["mcp_servers"]["aleph-mem"],
}


def test_every_clients_configuration_starts_a_working_server(vault: Path) -> None:
    """`aleph-mem mcp-config CLIENT` prints the client's documented format; the command and
    arguments read back from it (as the client would) start a server with the 12 tools,
    from any working directory."""
    import json
    import subprocess
    import tomllib

    write(vault, "notes/kiwi.md", "# Kiwi\n\nthe kiwi harvest\n")
    subprocess.run([sys.executable, "-m", "aleph_mem.cli", "--vault", str(vault), "index"],
                   check=True, capture_output=True, timeout=120)  # not racing the server's own
    seen = set()
    for client, entry_of in CLIENT_SHAPES.items():
        out = subprocess.run([sys.executable, "-m", "aleph_mem.cli", "--vault", str(vault),
                              "mcp-config", client], capture_output=True, text=True,
                             timeout=60, cwd="/")
        assert out.returncode == 0, out.stderr
        assert "merge this into" in out.stderr  # the guidance; stdout is the file alone
        body = out.stdout  # `mcp-config CLIENT > file` writes a valid file
        config = tomllib.loads(body) if client == "codex" else json.loads(body)
        entry = entry_of(config)
        if client == "vscode":
            assert entry["type"] == "stdio"
        assert Path(entry["command"]).is_absolute()  # desktop apps read no shell PATH
        seen.add((entry["command"], tuple(entry["args"])))
    assert len(seen) == 1  # one server, seven formats
    command, args = seen.pop()

    async def scenario() -> None:
        async with Client(StdioServerParameters(command=command, args=list(args),
                                                cwd="/")) as c:
            assert len((await c.list_tools()).tools) == 12
            r = await c.call_tool("search", {"query": "kiwi harvest"})
            assert [h["path"] for h in r.structured_content["hits"]] == ["notes/kiwi.md"]

    anyio.run(scenario)
