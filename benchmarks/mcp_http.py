"""The same MCP tool calls over stdio and over streamable HTTP (with a token), side by side.

    python benchmarks/mcp_http.py [--notes 10000] [--calls 200]

Two servers on one generated vault (already indexed; full text, `--embed-model none`, so
neither embeds in the background): `aleph-mem mcp` through the SDK's stdio client, and
`aleph-mem serve` on loopback through its streamable HTTP client with a bearer token. Each
query is sent to both in turn (the order alternating), so load on a shared machine falls on
both alike: `search` (--calls queries), `read` of each query's first hit, and `context`
(2,000-token budget, every fourth query). Prints the median and p95 of each, over stdio and
over HTTP, and the ratio HTTP/stdio, as a Markdown table.
"""

from __future__ import annotations

import argparse
import queue
import re
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import AsyncExitStack, contextmanager
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from scale import add_vault_args, generated_vault, queries_for

from aleph_mem.memory import Memory

CLI = [sys.executable, "-m", "aleph_mem.cli"]
FLAGS = ["--embed-model", "none"]
TOKEN_NAME = "benchmark"


def token_for(root: Path) -> str:
    """A fresh read-only token (the one a previous run made is revoked first)."""
    subprocess.run([*CLI, "--vault", str(root), "serve", "--revoke-token", TOKEN_NAME],
                   capture_output=True)
    made = subprocess.run([*CLI, "--vault", str(root), "serve", "--new-token", TOKEN_NAME,
                           "--read-only"], capture_output=True, text=True, check=True)
    return made.stdout.strip()


@contextmanager
def http_server(root: Path) -> Iterator[str]:
    """`aleph-mem serve --port 0`; yields the /mcp URL it announces."""
    p = subprocess.Popen([*CLI, "--vault", str(root), *FLAGS, "serve", "--port", "0"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(ln) for ln in p.stderr], daemon=True).start()
    try:
        while True:
            found = re.search(r"http://\S+/mcp", lines.get(timeout=120))
            if found:
                yield found.group(0)
                break
    finally:
        p.terminate()
        p.wait(timeout=60)


Call = Callable[[str, dict[str, Any]], Awaitable[Any]]


async def timed(call: Call, tool: str, arguments: dict[str, Any], out: list[float]) -> Any:
    t = time.perf_counter()
    r = await call(tool, arguments)
    out.append(time.perf_counter() - t)
    assert not r.is_error, (tool, r.content)
    return r


async def measure(root: Path, url: str, token: str,
                  queries: list[str]) -> dict[str, dict[str, list[float]]]:
    stdio = StdioServerParameters(command=sys.executable,
                                  args=["-m", "aleph_mem.cli", "--vault", str(root), *FLAGS,
                                        "mcp"])
    http = create_mcp_http_client({"authorization": f"Bearer {token}"})
    times: dict[str, dict[str, list[float]]] = {
        tool: {"stdio": [], "http": []} for tool in ("search", "read", "context")}
    async with AsyncExitStack() as stack:
        clients = {"stdio": await stack.enter_async_context(Client(stdio)),
                   "http": await stack.enter_async_context(
                       Client(streamable_http_client(url, http_client=http)))}
        for c in clients.values():  # warm up: the first search opens what it needs
            await c.call_tool("search", {"query": "warm up"})
        for i, q in enumerate(queries):
            order = ("stdio", "http") if i % 2 == 0 else ("http", "stdio")
            for way in order:
                call = clients[way].call_tool
                r = await timed(call, "search", {"query": q}, times["search"][way])
                hits = r.structured_content["hits"]
                if hits:
                    await timed(call, "read", {"note": hits[0]["path"]}, times["read"][way])
                if i % 4 == 0:
                    await timed(call, "context", {"query": q, "budget_tokens": 2000},
                                times["context"][way])
    return times


def ms(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000


def table(times: dict[str, dict[str, list[float]]]) -> str:
    rows = ["| call | n | stdio p50 | stdio p95 | HTTP p50 | HTTP p95 | HTTP/stdio p50 | "
            "HTTP/stdio p95 |", "|---|---|---|---|---|---|---|---|"]
    for tool, ways in times.items():
        s, h = ways["stdio"], ways["http"]
        s50, s95 = statistics.median(s) * 1000, ms(s, 0.95)
        h50, h95 = statistics.median(h) * 1000, ms(h, 0.95)
        rows.append(f"| `{tool}` | {len(s)} | {s50:.1f} ms | {s95:.1f} ms | {h50:.1f} ms | "
                    f"{h95:.1f} ms | {h50 / s50:.2f} | {h95 / s95:.2f} |")
    return "\n".join(rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--notes", type=int, default=10000)
    ap.add_argument("--calls", type=int, default=200)
    add_vault_args(ap)
    args = ap.parse_args()
    root = generated_vault(args, args.notes)
    with Memory.open(root, {"embed_model": "none"}) as mem:
        mem.reindex()
    token = token_for(root)
    with http_server(root) as url:
        times = anyio.run(measure, root, url, token, queries_for(root, args.calls))
    print(f"{args.notes} notes, {args.calls} queries, full text; each call's round trip "
          "through the SDK's client")
    print(table(times))


if __name__ == "__main__":
    main()
