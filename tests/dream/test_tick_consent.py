"""A tick is the person's consent (issue #36, finding 6): a box an agent ticked through MCP
does not count (the events log says who wrote it), and the digest says it waits for the
person's tick; the same tick saved by the person is applied. A ticked hot-memory proposal
is a change of the run like any other, so `undo RUN` takes it back."""

from __future__ import annotations

from pathlib import Path

import anyio
from conftest import open_mem, write
from dream_helpers import NOW
from mcp import Client

from aleph_mem.dream.journal import Journal
from aleph_mem.dream.runner import Dream
from aleph_mem.dream.view import Action
from aleph_mem.mcp.server import build_server

EXPIRED = "---\nstatus: running\nexpires: 2020-01-01\n---\n# Build\n\nThe nightly build.\n"
PAGE = "_dream/proposals.md"


def through_mcp(vault: Path, tool: str, args: dict) -> None:
    server = build_server(vault, background_reconcile=False)

    async def go() -> None:
        async with Client(server) as c:
            r = await c.call_tool(tool, args)
            assert not r.is_error, r.content[0].text
    anyio.run(go)


def test_an_agents_tick_waits_for_the_persons(vault: Path) -> None:
    write(vault, "build.md", EXPIRED)
    with open_mem(vault) as mem:
        mem.reindex()
        asked = Dream(mem.store, NOW, force=True).run(("drift", "digest"))
        pid = asked.proposed[0]["id"]
    through_mcp(vault, "edit", {"path": PAGE, "append": f"- [x] drift: yes, do it ({pid})"})
    with open_mem(vault) as mem:
        report = Dream(mem.store, NOW, force=True).run(("drift", "digest"))
        assert (vault / "build.md").read_text() == EXPIRED
        assert [w["id"] for w in report.awaiting] == [pid]
        assert report.awaiting[0]["by"].startswith("mcp:")
        digest = (vault / report.digest).read_text()
        assert f"{pid}" in digest and "waits for your own tick" in digest
        assert [p["state"] for p in Journal(vault / ".aleph").proposals().values()] == ["open"]
        # the control: the person ticks the same box in their editor, and it is applied
        page = vault / PAGE
        page.write_text(page.read_text().replace("- [ ] drift:", "- [x] drift:", 1))
        mem.reindex()
        done = Dream(mem.store, NOW, force=True).run(("drift", "digest"))
        assert b"stale_reason: expired" in (vault / "build.md").read_bytes()
        assert [a["id"] for a in done.answered] == [pid] and done.awaiting == []


def test_an_agents_dismissal_waits_for_the_persons_too(vault: Path) -> None:
    write(vault, "build.md", EXPIRED)
    with open_mem(vault) as mem:
        mem.reindex()
        pid = Dream(mem.store, NOW, force=True).run(("drift", "digest")).proposed[0]["id"]
    through_mcp(vault, "edit", {"path": PAGE, "append": f"- [-] drift: no ({pid})"})
    with open_mem(vault) as mem:
        report = Dream(mem.store, NOW, force=True).run(("drift", "digest"))
        assert [p["state"] for p in Journal(vault / ".aleph").proposals().values()] == ["open"]
        assert [w["id"] for w in report.awaiting] == [pid]


def test_a_ticked_hot_memory_proposal_is_undone_with_its_run(vault: Path) -> None:
    write(vault, "MEMORY.md", "# Hot memory\n\n## Facts\n\n- [P2] Metric units (2024-01-01)\n")
    with open_mem(vault) as mem:
        mem.reindex()
        journal = Journal(vault / ".aleph")
        action = Action("sessions", "remember", "MEMORY.md", None,
                        'remember "Prefers tabs" (stated in [[sessions/s]])',
                        content="Prefers tabs", set_keys={"priority": 3}, propose=True)
        journal.propose(action, NOW.isoformat(timespec="seconds"), "01J00000000000000000SESSN")
        Dream(mem.store, NOW, force=True).run(("digest",))
        page = vault / PAGE
        page.write_text(page.read_text().replace("- [ ]", "- [x]"))
        mem.reindex()
        before = (vault / "MEMORY.md").read_bytes()
        report = Dream(mem.store, NOW, force=True).run(("digest",))
        assert "Prefers tabs" in (vault / "MEMORY.md").read_text()
        [event] = [e for e in mem.log(path="MEMORY.md", limit=10) if e.actor.startswith("dream")]
        assert event.run == report.run_id
        undone = mem.undo(report.run_id)
        assert event.id in undone.undone and not undone.refused
        assert (vault / "MEMORY.md").read_bytes() == before
