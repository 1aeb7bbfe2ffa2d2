"""End to end: `aleph-mem serve` as a real process on 127.0.0.1, reached over real HTTP by the
SDK's streamable HTTP client (and by plain requests for what the gate answers)."""

from __future__ import annotations

import json
import os
import queue
import re
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import anyio
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

CLI = [sys.executable, "-m", "aleph_mem.cli"]
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "probe", "version": "1"}}}
MCP_HEADERS = {"accept": "application/json, text/event-stream",
               "content-type": "application/json"}


def cli(vault: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, "--vault", str(vault), *args], capture_output=True,
                          text=True, timeout=60)


@contextmanager
def served(vault: Path, *args: str) -> Iterator[str]:
    """`aleph-mem serve --port 0 ARGS`; yields the URL it announces on stderr."""
    p = subprocess.Popen([*CLI, "--vault", str(vault), "serve", "--port", "0", *args],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in p.stderr], daemon=True).start()
    try:
        first = lines.get(timeout=60)
        found = re.search(r"http://\S+/mcp", first)
        assert found, first
        yield found.group(0)
    finally:
        p.terminate()
        assert p.wait(timeout=30) == 0


def connect(url: str, token: str | None = None) -> Client:
    headers = {"authorization": f"Bearer {token}"} if token else None
    return Client(streamable_http_client(url, http_client=create_mcp_http_client(headers)))


def post(url: str, headers: dict[str, str]) -> httpx2.Response:
    return httpx2.post(url, json=INIT, headers={**MCP_HEADERS, **headers}, timeout=30)


def test_on_loopback_without_tokens_the_tools_answer(vault: Path) -> None:
    async def scenario(url: str) -> None:
        async with connect(url) as c:
            assert len((await c.list_tools()).tools) == 12
            r = await c.call_tool("write", {"content": "# Quince\n\nquince jam", "title": "Quince"})
            assert not r.is_error and r.structured_content["path"] == "inbox/Quince.md"
            r = await c.call_tool("recent", {"limit": 1})
            assert r.structured_content["events"][0]["actor"] == "mcp:mcp"  # the client's name

    with served(vault) as url:
        assert url.startswith("http://127.0.0.1:")
        anyio.run(scenario, url)


def test_a_token_is_needed_once_one_exists_and_names_the_writer(vault: Path) -> None:
    made = cli(vault, "serve", "--new-token", "heron")
    assert made.returncode == 0, made.stderr
    token = made.stdout.strip()
    assert len(token) >= 40 and "shown this once" in made.stderr
    stored = vault / ".aleph" / "local" / "serve-tokens.json"
    assert stat.S_IMODE(os.stat(stored).st_mode) == 0o600
    assert token not in stored.read_text()  # only its hash is kept

    async def scenario(url: str) -> None:
        async with connect(url, token) as c:
            r = await c.call_tool("write", {"content": "# Heron\n\nthe heron's nest",
                                            "title": "Heron"})
            assert not r.is_error, r.content
            r = await c.call_tool("recent", {"limit": 1})
            event = r.structured_content["events"][0]
            assert (event["path"], event["actor"]) == ("inbox/Heron.md", "mcp:heron")

    with served(vault) as url:
        for headers in ({}, {"authorization": "Bearer " + token[:-1] + "x"},
                        {"authorization": token}, {"authorization": "Basic " + token}):
            r = post(url, headers)
            assert (r.status_code, r.content) == (401, b""), headers
        assert post(url, {"authorization": f"Bearer {token}"}).status_code == 200
        anyio.run(scenario, url)
    log = cli(vault, "log", "--json")
    assert '"mcp:heron"' in log.stdout

    revoked = cli(vault, "serve", "--revoke-token", "heron")
    assert revoked.returncode == 0, revoked.stderr
    cli(vault, "serve", "--new-token", "other")
    with served(vault) as url:  # the revoked token no longer opens the door
        assert post(url, {"authorization": f"Bearer {token}"}).status_code == 401


def test_a_read_only_token_reads_but_may_not_write(vault: Path) -> None:
    token = cli(vault, "serve", "--new-token", "reader", "--read-only").stdout.strip()
    (vault / "notes" / "fig.md").write_text("# Fig\n\nthe fig tree\n")
    cli(vault, "index")  # indexed before the server starts, not raced by its own reconcile

    async def scenario(url: str) -> None:
        async with connect(url, token) as c:
            r = await c.call_tool("read", {"note": "notes/fig.md"})
            assert not r.is_error and "fig tree" in r.structured_content["content"]
            r = await c.call_tool("search", {"query": "fig tree"})
            assert not r.is_error
            for tool, arguments in (("write", {"content": "x", "title": "Nope"}),
                                    ("edit", {"path": "notes/fig.md", "append": "more"}),
                                    ("remember", {"fact": "figs are ripe"}),
                                    ("forget", {"path": "notes/fig.md"}),
                                    ("undo", {"id": "01ABC"}),
                                    ("dream", {"action": "run", "dry_run": False})):
                r = await c.call_tool(tool, arguments)
                assert r.is_error and "read-only" in r.content[0].text, tool
            r = await c.call_tool("dream", {"action": "status"})
            assert not r.is_error

    with served(vault) as url:
        anyio.run(scenario, url)
    assert (vault / "notes" / "fig.md").read_text() == "# Fig\n\nthe fig tree\n"
    assert not (vault / "inbox" / "Nope.md").exists()


def test_a_foreign_host_or_origin_is_refused(vault: Path) -> None:
    """DNS rebinding: a page on evil.example whose name now points at 127.0.0.1 sends its own
    Host and Origin; this machine's own names pass."""
    with served(vault) as url:
        port = url.split(":")[2].split("/")[0]
        assert post(url, {"host": "evil.example"}).status_code == 421
        assert post(url, {"host": f"evil.example:{port}"}).status_code == 421
        assert post(url, {"origin": "http://evil.example"}).status_code == 403
        assert post(url, {"host": f"localhost:{port}"}).status_code == 200
        assert post(url, {"origin": f"http://127.0.0.1:{port}"}).status_code == 200
        r = post(url, {"x-forwarded-for": "203.0.113.9"})  # a proxy, and no token
        assert r.status_code == 403 and b"--new-token" in r.content


def test_another_address_without_a_token_refuses_to_start(vault: Path) -> None:
    for host in ("0.0.0.0", "192.0.2.7"):
        out = cli(vault, "serve", "--host", host, "--port", "0")
        assert out.returncode == 1
        assert out.stderr.count("\n") == 1 and "aleph-mem serve --new-token NAME" in out.stderr
    cli(vault, "serve", "--new-token", "laptop")
    out = cli(vault, "serve", "--host", "0.0.0.0", "--port", "0")  # a token, but every address
    assert out.returncode == 1 and "--allow-host" in out.stderr


def test_token_names_and_revocations_are_checked(vault: Path) -> None:
    for bad in ("has space", "a/b", "x" * 41, ""):
        out = cli(vault, "serve", "--new-token", bad)
        assert out.returncode == 1 and "token name" in out.stderr, bad
    assert cli(vault, "serve", "--new-token", "ok-name.1").returncode == 0
    again = cli(vault, "serve", "--new-token", "ok-name.1")
    assert again.returncode == 1 and "revoke it first" in again.stderr
    gone = cli(vault, "serve", "--revoke-token", "nobody")
    assert gone.returncode == 1 and "ok-name.1" in gone.stderr


def test_the_url_configurations_reach_a_running_server(vault: Path) -> None:
    """`mcp-config CLIENT --url URL` prints each client's documented HTTP entry; Claude
    Code's, read back with its token filled in, reaches the server and its 12 tools. The
    clients whose files take no HTTP server are refused, saying so."""
    import json

    token = cli(vault, "serve", "--new-token", "editor").stdout.strip()
    with served(vault) as url:
        shapes = {"claude-code": ("mcpServers", "url"), "vscode": ("servers", "url"),
                  "cursor": ("mcpServers", "url"), "gemini": ("mcpServers", "httpUrl")}
        entries = {}
        for client, (top, key) in shapes.items():
            out = cli(vault, "mcp-config", client, "--url", url)
            assert out.returncode == 0 and "replace TOKEN" in out.stderr, out.stderr
            entries[client] = entry = json.loads(out.stdout)[top]["aleph-mem"]
            assert entry[key] == url and entry["headers"] == {"Authorization": "Bearer TOKEN"}
        assert entries["claude-code"]["type"] == entries["vscode"]["type"] == "http"
        for client in ("claude-desktop", "codex", "windsurf"):
            out = cli(vault, "mcp-config", client, "--url", url)
            assert (out.returncode, out.stdout) == (1, "") and "without --url" in out.stderr

        entry = entries["claude-code"]
        headers = {k: v.replace("TOKEN", token) for k, v in entry["headers"].items()}

        async def scenario() -> None:
            client = create_mcp_http_client(headers)
            async with Client(streamable_http_client(entry["url"], http_client=client)) as c:
                assert len((await c.list_tools()).tools) == 12

        anyio.run(scenario)


def test_beside_a_daemon_the_tools_use_the_daemons_model(vault: Path) -> None:
    """`daemon --serve` hands the server a sibling of the daemon's Memory: a search over
    HTTP embeds its query with the model the daemon loaded, and loads no second one."""
    import threading

    from aleph_mem.mcp.http import Address, listening
    from aleph_mem.memory import Memory

    (vault / "notes").mkdir(exist_ok=True)
    (vault / "notes" / "ferry.md").write_text("# Ferry\n\nThe boat to the island leaves at "
                                              "nine.\n")
    (vault / "notes" / "bread.md").write_text("# Bread\n\nSourdough needs a starter.\n")
    with Memory.open(vault) as daemons:
        daemons.reindex()
        daemons.embed(workers=1)
        model = daemons.store.model_slot.model
        assert model is not None
        ready = listening(vault, daemons.vault.local_dir, Address("127.0.0.1", 0), [],
                          opened=lambda: daemons.sibling(actor="mcp:client"))
        stop = threading.Event()
        server = threading.Thread(target=ready.run_until, args=(stop,))
        server.start()

        async def scenario() -> None:
            async with connect(ready.address.url) as c:
                r = await c.call_tool("search", {"query": "when does the ship sail"})
                out = r.structured_content
                assert out["hits"][0]["path"] == "notes/ferry.md", out
                assert "full-text" not in (out.get("notice") or ""), out

        try:
            anyio.run(scenario)
            tools_mem = ready.box["state"].mem
            assert tools_mem is not daemons
            assert tools_mem.store.model_slot is daemons.store.model_slot
            assert daemons.store.model_slot.model is model  # the one copy, not reloaded
        finally:
            stop.set()
            server.join(timeout=60)
        assert not server.is_alive()


def test_a_connection_the_server_accepts_has_nagle_off() -> None:
    """The listening socket says it is TCP, so asyncio (which serves it) sets TCP_NODELAY on
    each connection it accepts: a small response goes out at once instead of waiting for
    the client's delayed ACK (about 40 ms a call on Linux loopback, found by
    benchmarks/mcp_http.py)."""
    import asyncio
    import socket

    from aleph_mem.mcp.http import Address, bind

    async def accepted_nodelay() -> int:
        seen: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        class Probe(asyncio.Protocol):
            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                conn = transport.get_extra_info("socket")
                seen.set_result(conn.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
                transport.close()

        server = await asyncio.get_running_loop().create_server(
            Probe, sock=bind(Address("127.0.0.1", 0)))
        port = server.sockets[0].getsockname()[1]
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            return await asyncio.wait_for(seen, timeout=30)
        finally:
            writer.close()
            server.close()

    assert asyncio.run(accepted_nodelay()) != 0


def test_two_agents_writing_at_once_lose_nothing_and_are_told_apart(vault: Path) -> None:
    """Two clients, each with its own token, append to one shared note and write notes of
    their own at the same time: every line and note lands once, each logged as its own
    agent."""
    tokens = {}
    for name in ("heron", "kestrel"):
        made = cli(vault, "serve", "--new-token", name)
        assert made.returncode == 0, made.stderr
        tokens[name] = made.stdout.strip()
    (vault / "shared.md").write_text("# Shared\n\n")
    rounds = 12

    async def agent(url: str, name: str) -> None:
        async with connect(url, tokens[name]) as c:
            for k in range(rounds):
                r = await c.call_tool("edit", {"path": "shared.md",
                                               "append": f"{name} line {k}"})
                assert not r.is_error, r.content
                r = await c.call_tool("write", {"content": f"# {name} {k}\n\nx",
                                                "title": f"{name} {k}"})
                assert not r.is_error, r.content

    async def both(url: str) -> None:
        async with anyio.create_task_group() as tg:
            for name in tokens:
                tg.start_soon(agent, url, name)

    with served(vault) as url:
        anyio.run(both, url)
    shared = (vault / "shared.md").read_text()
    for name in tokens:
        assert [shared.count(f"{name} line {k}\n") for k in range(rounds)] == [1] * rounds
        assert len(list((vault / "inbox").glob(f"{name} *.md"))) == rounds
    events = json.loads(cli(vault, "log", "--json", "--limit", "500").stdout)
    actors = {e["path"]: e["actor"] for e in events if e["path"].startswith("inbox/")}
    assert {a for p, a in actors.items() if "heron" in p} == {"mcp:heron"}
    assert {a for p, a in actors.items() if "kestrel" in p} == {"mcp:kestrel"}
