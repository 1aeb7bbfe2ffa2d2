"""`aleph-mem daemon --serve` as a real process: the daemon's jobs and the HTTP server (MCP
and the page) in one process, reached by the SDK's streamable HTTP client over loopback."""

from __future__ import annotations

import json
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import anyio
import httpx2
from conftest import write
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

CLI = [sys.executable, "-m", "aleph_mem.cli"]


def until(cond: Callable[[], object], timeout: float = 60.0) -> object:
    """Poll ``cond`` until it gives something true (generous: the machine is shared)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = cond()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError("condition not met in time")


def cli(vault: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CLI, "--vault", str(vault), *args], capture_output=True,
                          text=True, timeout=60)


def started(vault: Path, *args: str) -> tuple[subprocess.Popen[str], queue.Queue[str]]:
    p = subprocess.Popen([*CLI, "--vault", str(vault), "daemon", *args],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        for line in p.stderr:
            lines.put(line)
        lines.put("")  # the end of its stderr
    threading.Thread(target=read, daemon=True).start()
    return p, lines


def announced_url(lines: queue.Queue[str], said: list[str]) -> str:
    """The /mcp address the server announces (after the daemon's own start line)."""
    while True:
        line = lines.get(timeout=120)
        assert line, f"the daemon ended: {said}"
        said.append(line)
        found = re.search(r"http://\S+/mcp", line)
        if found:
            return found.group(0)


def test_one_process_runs_the_daemon_and_serves_what_its_watcher_indexes(vault: Path) -> None:
    write(vault, "notes/heron.md", "# Heron\n\nThe heron nests by the weir.\n")
    token = cli(vault, "serve", "--new-token", "laptop").stdout.strip()
    status = vault / ".aleph" / "local" / "daemon.json"
    daemon, lines = started(vault, "--serve", "--port", "0")
    said: list[str] = []
    try:
        url = announced_url(lines, said)
        assert said[0].startswith(f"aleph-mem daemon watching {vault}: ")
        assert said[-1].startswith(f"aleph-mem serves {vault} at {url} (only this machine")
        base = url.removesuffix("/mcp")
        headers = {"authorization": f"Bearer {token}"}

        async def scenario() -> None:
            http = create_mcp_http_client(headers)
            async with Client(streamable_http_client(url, http_client=http)) as c:
                assert len((await c.list_tools()).tools) == 12
                r = await c.call_tool("search", {"query": "heron weir"})
                assert [h["path"] for h in r.structured_content["hits"]][:1] == \
                    ["notes/heron.md"]
                r = await c.call_tool("remember", {"fact": "the otter den is under the mill"})
                assert not r.is_error, r.content
                r = await c.call_tool("recent", {"limit": 1})
                assert r.structured_content["events"][0]["actor"] == "mcp:laptop"
                # a person's edit saved to disk: the daemon's watcher indexes it
                write(vault, "notes/kingfisher.md", "# Kingfisher\n\nA kingfisher on the "
                      "quillwort bank.\n")
                deadline = time.monotonic() + 60
                while True:
                    r = await c.call_tool("search", {"query": "quillwort"})
                    paths = [h["path"] for h in r.structured_content["hits"]]
                    if paths or time.monotonic() > deadline:
                        break
                    await anyio.sleep(0.1)
                assert paths == ["notes/kingfisher.md"]

        anyio.run(scenario)
        bare = httpx2.post(url, json={}, headers={"accept": "application/json, "
                                                  "text/event-stream"}, timeout=30)
        assert (bare.status_code, bare.content) == (401, b"")  # the token rules hold
        page = httpx2.get(f"{base}/search?q=quillwort", headers=headers, timeout=30)
        assert page.status_code == 200 and "Kingfisher" in page.text
        info = json.loads(cli(vault, "status", "--json").stdout)["daemon"]
        assert (info["state"], info["pid"]) == ("running", daemon.pid)
        assert info["serves"] == {"mcp": url, "page": f"{base}/"}
        assert f"serves MCP at {url} and the page at {base}/" in cli(vault, "status").stdout
    finally:
        daemon.send_signal(signal.SIGTERM)
        code = daemon.wait(timeout=60)
    assert code == 0
    rest = list(iter(lambda: lines.get(timeout=30), ""))
    assert rest == [], rest  # quiet to the end: no traceback, no warning
    assert json.loads(status.read_text())["state"] == "stopped"  # the daemon's part ended
    host, port = base.removeprefix("http://").rsplit(":", 1)
    try:  # and the server's: nothing listens on its port any more
        socket.create_connection((host, int(port)), timeout=5).close()
        raise AssertionError("the port still answers after the daemon stopped")
    except ConnectionRefusedError:
        pass
    log = cli(vault, "log", "--json").stdout
    assert '"mcp:laptop"' in log


def test_ctrl_c_stops_both_parts(vault: Path) -> None:
    daemon, lines = started(vault, "--serve", "--port", "0")
    url = announced_url(lines, [])
    until(lambda: httpx2.get(url.removesuffix("/mcp") + "/status", timeout=30).status_code
          == 200)
    daemon.send_signal(signal.SIGINT)
    assert daemon.wait(timeout=60) == 0
    status = vault / ".aleph" / "local" / "daemon.json"
    assert json.loads(status.read_text())["state"] == "stopped"


def test_the_serve_refusals_hold_before_the_daemon_starts(vault: Path) -> None:
    status = vault / ".aleph" / "local" / "daemon.json"
    out = cli(vault, "daemon", "--serve", "--host", "192.0.2.7", "--port", "0")
    assert out.returncode == 1 and "aleph-mem serve --new-token NAME" in out.stderr
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    try:
        port = str(taken.getsockname()[1])
        out = cli(vault, "daemon", "--serve", "--port", port)
        assert out.returncode == 1 and f"cannot listen on 127.0.0.1:{port}" in out.stderr
    finally:
        taken.close()
    out = cli(vault, "daemon", "--port", "9999")  # where to listen, but not --serve
    assert out.returncode == 1 and "go with --serve" in out.stderr
    assert not status.exists()  # none of them started a daemon


def test_a_server_that_stops_on_its_own_stops_the_daemon_with_status_1(vault: Path) -> None:
    """A companion that ends before it is asked takes the daemon down (status 1, so
    systemd's Restart=on-failure brings both back); one that waits for the stop (the
    control) keeps the daemon running until it is stopped, status 0."""
    from aleph_mem.memory import Memory
    from aleph_mem.running.daemon import Companion, Daemon

    def run(companion: Companion) -> tuple[Daemon, list[int], threading.Thread]:
        mem = Memory.open(vault, {"embed_model": "none"})
        daemon = Daemon(mem, scheduler=False, companion=companion)
        codes: list[int] = []
        # not the main thread: the daemon installs no signal handlers in the test run
        worker = threading.Thread(target=lambda: codes.append(daemon.run()))
        worker.start()
        return daemon, codes, worker

    daemon, codes, worker = run(Companion("quitter", {"mcp": "x"}, lambda stop: None))
    worker.join(timeout=120)
    daemon.mem.close()
    assert codes == [1]
    status = json.loads((vault / ".aleph" / "local" / "daemon.json").read_text())
    assert status["state"] == "stopped"

    daemon, codes, worker = run(Companion("waiter", {"mcp": "y"}, lambda stop: stop.wait()))
    until(lambda: json.loads((vault / ".aleph" / "local" / "daemon.json").read_text())
          .get("serves") == {"mcp": "y"})
    assert codes == [] and worker.is_alive()
    daemon.stop_event.set()
    worker.join(timeout=120)
    daemon.mem.close()
    assert codes == [0]
