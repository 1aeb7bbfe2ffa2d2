"""What an agent pays for the tools: `tools/list` under 12,000 characters with every
argument described, and answers that keep to `budget_tokens`, naming what they left out
and the argument that gets it (#33). Through the SDK's in-process client, on real files."""

from __future__ import annotations

import json
import re
from pathlib import Path

import anyio
from conftest import open_mem, write
from mcp import Client

from aleph_mem.mcp.server import build_server


def run(vault: Path, scenario) -> None:
    (vault / ".aleph" / "config.toml").write_text('embed_model = "none"\n')
    with open_mem(vault) as mem:
        mem.reindex()

    async def go() -> None:
        async with Client(build_server(vault, background_reconcile=False)) as c:
            await scenario(c)
    anyio.run(go)


async def said(c: Client, tool: str, arguments: dict) -> dict:
    r = await c.call_tool(tool, arguments)
    assert not r.is_error, r.content[0].text
    return json.loads(r.content[0].text)


def holds_them_all(left_out: str) -> int:
    """The budget a `left_out` sentence says would hold everything."""
    return int(re.search(r"raise `budget_tokens` \(([\d,]+) holds them all\)",
                         left_out)[1].replace(",", ""))


def test_tools_list_is_under_12000_characters_and_every_argument_is_described(
        vault: Path) -> None:
    async def scenario(c: Client) -> None:
        listed = await c.list_tools()
        wire = listed.model_dump_json(by_alias=True, exclude_none=True)
        assert len(listed.tools) == 12 and len(wire) <= 12_000, len(wire)
        for tool in listed.tools:
            assert tool.output_schema is None and 40 <= len(tool.description or "") <= 400
            props = tool.input_schema["properties"]
            assert props, tool.name
            for name, spec in props.items():
                assert len(spec.get("description", "")) >= 8, (tool.name, name)
                assert "title" not in spec and "anyOf" not in spec, (tool.name, name)

    run(vault, scenario)


def test_the_answer_keeps_every_field_as_structured_content_without_a_schema(
        vault: Path) -> None:
    write(vault, "notes/ferry.md", "# Ferry\n\nThe ferry sails at nine.\n")

    async def scenario(c: Client) -> None:
        r = await c.call_tool("search", {"query": "ferry sails"})
        assert r.structured_content["hits"][0]["path"] == "notes/ferry.md"
        assert r.structured_content["sessions"] == []  # every field, empty ones too

    run(vault, scenario)


def test_graph_names_the_nearest_and_counts_the_rest_per_distance(vault: Path) -> None:
    """A hub linked by 300 notes: depth 2 from a note beside it names its own neighbours
    and the note linked to both of them first, counts the rest per distance, and says
    which budget holds them all; with that budget nothing is left out (the near miss)."""
    write(vault, "a.md", "# A\n\n[[hub]] and [[b]]\n")
    write(vault, "b.md", "# B\n\nplain\n")
    write(vault, "hub.md", "# Hub\n\nthe middle\n")
    write(vault, "zz-both.md", "# Both\n\n[[hub]] and [[b]]\n")
    for i in range(300):
        write(vault, f"spokes/spoke-{i:03}.md", f"# Spoke {i}\n\nto [[hub]]\n")

    async def scenario(c: Client) -> None:
        g = await said(c, "graph", {"note": "a", "depth": 2})
        assert g["neighbours"][:3] == [{"path": "b.md", "distance": 1},
                                       {"path": "hub.md", "distance": 1},
                                       {"path": "zz-both.md", "distance": 2}]
        named = len(g["neighbours"])
        assert 20 < named < 100 and len(json.dumps(g)) // 4 <= 1_000
        assert f"{301 - (named - 2)} at distance 2 (spokes/ {301 - (named - 2)})" \
            in g["left_out"]
        everything = holds_them_all(g["left_out"])
        g = await said(c, "graph", {"note": "a", "depth": 2, "budget_tokens": everything})
        assert len(g["neighbours"]) == 303 and "left_out" not in g
        g = await said(c, "graph", {"note": "hub", "action": "backlinks",
                                    "budget_tokens": 300})
        assert g["left_out"].startswith(f"{302 - len(g['backlinks'])} more backlinks: ")
        r = await c.call_tool("graph", {"note": "a", "depth": 9})
        assert r.is_error and "`depth` runs from 1 to 4" in r.content[0].text

    run(vault, scenario)


def test_read_cuts_a_hubs_backlinks_and_says_which_tool_lists_them(vault: Path) -> None:
    write(vault, "hub.md", "# Hub\n\nthe middle\n")
    write(vault, "leaf.md", "# Leaf\n\nthe edge\n")
    for i in range(300):
        write(vault, f"spokes/spoke-{i:03}.md", f"# Spoke {i}\n\nto [[hub]]\n")
    for i in range(3):
        write(vault, f"twigs/twig-{i}.md", f"# Twig {i}\n\nto [[leaf]]\n")

    async def scenario(c: Client) -> None:
        hub = await said(c, "read", {"note": "hub"})
        assert 10 < len(hub["backlinks"]) < 300 and len(json.dumps(hub)) // 4 <= 2_000
        assert hub["content"] == "# Hub\n\nthe middle\n"
        assert hub["left_out"] == (f"{300 - len(hub['backlinks'])} more backlinks (`graph` "
                                   "with `action` backlinks); or raise `budget_tokens`")
        leaf = await said(c, "read", {"note": "leaf"})
        assert len(leaf["backlinks"]) == 3 and "left_out" not in leaf

    run(vault, scenario)


def test_search_recent_and_reflect_keep_to_the_budget(vault: Path) -> None:
    """Cut: the best hits, the newest events, the first passages, and a `left_out` that
    counts the rest and names the argument; at the budget that holds them all, whole."""
    async def scenario(c: Client) -> None:
        for i in range(10):  # through the tool: each write is an event for `recent`
            await said(c, "write", {"path": f"notes/heron-{i}.md", "content":
                                    f"# Heron {i}\n\nThe heron project, part {i}: "
                                    + "wading birds stand still in shallow water. " * 8})
        whole = await said(c, "search", {"query": "heron wading"})
        assert len(whole["hits"]) == 10 and "left_out" not in whole
        cut = await said(c, "search", {"query": "heron wading", "budget_tokens": 300})
        assert cut["hits"] == whole["hits"][:len(cut["hits"])] and 0 < len(cut["hits"]) < 10
        assert cut["left_out"].startswith(f"{10 - len(cut['hits'])} more hits: raise "
                                          "`budget_tokens`")
        again = await said(c, "search", {"query": "heron wading",
                                         "budget_tokens": holds_them_all(cut["left_out"])})
        assert again["hits"] == whole["hits"] and "left_out" not in again

        events = await said(c, "recent", {"budget_tokens": 150})
        assert 0 < len(events["events"]) < 10
        assert "older events: raise `budget_tokens`" in events["left_out"]
        assert "narrow with `since`, `actor` or `path`" in events["left_out"]
        assert "left_out" not in await said(c, "recent", {"limit": 2})

        r = await said(c, "reflect", {"question": "heron wading birds", "budget_tokens": 300})
        shown = [p["n"] for p in r["passages"]]
        assert shown == list(range(1, len(shown) + 1)) and len(r["citations"]) == 8
        assert r["left_out"].startswith(f"passages {len(shown) + 1}-8 (`read` their notes")
        assert "left_out" not in await said(c, "reflect", {"question": "heron wading birds"})

    run(vault, scenario)


def test_context_says_which_notes_it_clipped_and_how_to_read_them(vault: Path) -> None:
    write(vault, "notes/long.md", "# Long\n\n" + "a long note about lanterns. " * 400 + "\n")
    write(vault, "notes/short.md", "# Short\n\nlanterns\n")

    async def scenario(c: Client) -> None:
        env = await said(c, "context", {"query": "lanterns", "budget_tokens": 600})
        assert env["left_out"] == ("the rest of 1 relevant notes (`read` their `path`); "
                                   "or raise `budget_tokens`")
        small = await said(c, "context", {"query": "lanterns", "folder": "notes",
                                          "budget_tokens": 600})
        assert [r["path"] for r in small["relevant"]][:1] == ["notes/long.md"]

    run(vault, scenario)


def test_on_the_srd_vault_graph_depth_2_keeps_the_nearest_within_1500_tokens(
        dnd_vault: Path) -> None:
    """The benchmark's call: the grappler feat's neighbourhood at depth 2 (350 notes, 6,184
    tokens as a flat list) comes named nearest first within the default budget."""
    async def scenario(c: Client) -> None:
        g = await said(c, "graph", {"note": "compendium/feats/grappler.md", "depth": 2})
        text = json.dumps(g, separators=(",", ":"))
        assert len(text) // 4 <= 1_500
        assert [n["path"] for n in g["neighbours"] if n["distance"] == 1] == [
            "compendium/feats/feats.md", "rules/conditions.md"]
        left = int(re.search(r"not named: (\d+) at distance 2", g["left_out"])[1])
        g = await said(c, "graph", {"note": "compendium/feats/grappler.md", "depth": 2,
                                    "budget_tokens": holds_them_all(g["left_out"])})
        assert "left_out" not in g and len(g["neighbours"]) > left

    run(dnd_vault, scenario)
