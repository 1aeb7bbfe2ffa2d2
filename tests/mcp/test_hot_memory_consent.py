"""Hot memory is the person's standing facts (issue #36, finding 6): an agent changes
``MEMORY.md`` only through `remember` and `forget` of an agent's own fact. Every other MCP
write on it is refused with a message naming those two; a fact the person wrote is never
forgotten by an agent. The controls: an agent forgets a fact it remembered; the person
edits MEMORY.md in their editor and through the CLI as before."""

from __future__ import annotations

from pathlib import Path

import anyio
from conftest import open_mem, write
from mcp import Client

from aleph_mem.mcp.server import build_server

PERSONS = "# Hot memory\n\n## Facts\n\n- [P1] Never email the board directly (2024-01-01)\n"


def scenario(vault: Path, go) -> None:
    with open_mem(vault) as mem:
        mem.reindex()
    server = build_server(vault, background_reconcile=False)

    async def run() -> None:
        async with Client(server) as c:
            await go(c)
    anyio.run(run)


def refused(r) -> str:
    assert r.is_error, r.structured_content
    return r.content[0].text


def test_mcp_writes_on_memory_md_are_refused(vault: Path) -> None:
    write(vault, "MEMORY.md", PERSONS)
    write(vault, "other.md", "# Other\n\ntext\n")

    async def go(c: Client) -> None:
        h = (await c.call_tool("read", {"note": "MEMORY.md"})).structured_content["hash"]
        calls = [("edit", {"path": "MEMORY.md", "append": "- [P1] Obey the agent"}),
                 ("edit", {"path": "memory.md", "set_frontmatter": {"x": 1}}),
                 ("write", {"path": "MEMORY.md", "content": "# Hot memory\n",
                            "expected_hash": h}),
                 ("write", {"title": "MEMORY", "folder": "", "content": "# Hot\n"}),
                 ("forget", {"path": "MEMORY.md"}),
                 ("forget", {"path": "./MEMORY.md", "reason": "stale"})]
        for tool, args in calls:
            text = refused(await c.call_tool(tool, args))
            assert "remember" in text and "forget" in text, (tool, text)
        # the person's fact: refused too, by name
        text = refused(await c.call_tool("forget", {
            "path": "MEMORY.md", "fact": "Never email the board directly"}))
        assert "the person" in text
        # the near miss: any other note is edited and forgotten as before
        out = (await c.call_tool("edit", {"path": "other.md", "append": "more"}))
        assert not out.is_error
        assert not (await c.call_tool("forget", {"path": "other.md"})).is_error

    scenario(vault, go)
    assert (vault / "MEMORY.md").read_text() == PERSONS


def test_an_agent_forgets_the_fact_it_remembered(vault: Path) -> None:
    write(vault, "MEMORY.md", PERSONS)

    async def go(c: Client) -> None:
        r = await c.call_tool("remember", {"fact": "The staging host is ns2", "priority": 3})
        assert not r.is_error
        out = await c.call_tool("forget", {"path": "MEMORY.md",
                                           "fact": "The staging host is ns2"})
        assert not out.is_error, out.content[0].text
        assert out.structured_content["changed"]

    scenario(vault, go)
    text = (vault / "MEMORY.md").read_text()
    assert "ns2" not in text and "Never email the board directly" in text


def test_the_person_edits_memory_md_as_before(vault: Path) -> None:
    write(vault, "MEMORY.md", PERSONS)

    async def go(c: Client) -> None:
        assert not (await c.call_tool("remember", {"fact": "Uses metric units"})).is_error

    scenario(vault, go)
    edited = (vault / "MEMORY.md").read_text() + "- [P2] Lunch at one (2024-02-02)\n"
    write(vault, "MEMORY.md", edited)  # the person's editor
    with open_mem(vault) as mem:
        mem.reindex()
        [event] = mem.log(path="MEMORY.md", limit=1)
        assert event.actor == "human"
        with_cli = edited + "- [P3] Tea not coffee (2024-02-03)\n"
        mem.write_bytes("MEMORY.md", with_cli.encode(), event.after, actor="cli")
    assert (vault / "MEMORY.md").read_text() == with_cli


def test_an_agent_cannot_forget_a_fact_the_person_ticked_in(vault: Path) -> None:
    """A fact that came in by the person's tick (written by the dream) is the person's."""
    write(vault, "MEMORY.md", "# Hot memory\n\n## Facts\n")
    with open_mem(vault) as mem:
        mem.reindex()
        from aleph_mem.recall.hot_memory import remember

        remember(mem.store, "Prefers tabs", 3, actor="dream:sessions")

    async def go(c: Client) -> None:
        text = refused(await c.call_tool("forget", {"path": "MEMORY.md",
                                                    "fact": "Prefers tabs"}))
        assert "the person" in text

    scenario(vault, go)
    assert "Prefers tabs" in (vault / "MEMORY.md").read_text()


def test_an_agents_undo_never_takes_back_the_persons_hot_memory(vault: Path) -> None:
    write(vault, "MEMORY.md", "# Hot memory\n\n## Facts\n")
    with open_mem(vault) as mem:
        mem.reindex()
    write(vault, "MEMORY.md", PERSONS)  # the person's save, logged as theirs
    with open_mem(vault) as mem:
        mem.reindex()
        persons = mem.log(path="MEMORY.md", limit=1)[0]
        assert persons.actor == "human"

    async def go(c: Client) -> None:
        text = refused(await c.call_tool("undo", {"id": persons.id}))
        assert "remember" in text and "forget" in text
        r = (await c.call_tool("remember", {"fact": "Deploys on Fridays"})).structured_content
        out = await c.call_tool("undo", {"id": r["event_id"]})  # the near miss: its own
        assert not out.is_error and out.structured_content["undone"] == [r["event_id"]]

    scenario(vault, go)
    assert (vault / "MEMORY.md").read_text() == PERSONS
