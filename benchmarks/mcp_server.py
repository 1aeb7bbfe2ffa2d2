"""The MCP server, measured through the SDK's stdio client.

    python benchmarks/mcp_server.py [--notes 10000] [--calls 200]

Cold start to initialized (a fresh `aleph-mem mcp` process each time, median of 5), then
`search` round trips (p50/p95 over --calls queries) and `context` assembly time on a
generated vault of --notes notes (already indexed).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters
from scale import add_vault_args, generated_vault, queries_for

from aleph_mem.memory import Memory


def params(root: Path) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable,
                                 args=["-m", "aleph_mem.cli", "mcp", "--vault", str(root)])


async def cold_starts(root: Path, n: int = 5) -> list[float]:
    out = []
    for _ in range(n):
        t = time.perf_counter()
        async with Client(params(root)) as c:
            out.append(time.perf_counter() - t)
            await c.list_tools()
    return out


async def round_trips(root: Path, queries: list[str]) -> tuple[list[float], list[float]]:
    search, ctx = [], []
    async with Client(params(root)) as c:
        await c.call_tool("search", {"query": "warm up"})
        for q in queries:
            t = time.perf_counter()
            r = await c.call_tool("search", {"query": q})
            search.append(time.perf_counter() - t)
            assert not r.is_error
        for q in queries[:20]:
            t = time.perf_counter()
            await c.call_tool("context", {"query": q, "budget_tokens": 2000})
            ctx.append(time.perf_counter() - t)
    return search, ctx


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--notes", type=int, default=10000)
    ap.add_argument("--calls", type=int, default=200)
    add_vault_args(ap)
    args = ap.parse_args()
    root = generated_vault(args, args.notes)
    with Memory.open(root) as mem:
        mem.reindex()
    starts = anyio.run(cold_starts, root)
    search, ctx = anyio.run(round_trips, root, queries_for(root, args.calls))
    search.sort()
    print(json.dumps({
        "notes": args.notes, "cold_start_s_median": round(statistics.median(starts), 3),
        "search_ms_p50": round(statistics.median(search) * 1000, 1),
        "search_ms_p95": round(search[int(len(search) * 0.95) - 1] * 1000, 1),
        "context_ms_median": round(statistics.median(ctx) * 1000, 1)}))


if __name__ == "__main__":
    main()
