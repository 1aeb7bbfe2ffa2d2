"""A secret written through aleph-mem is kept nowhere, whichever part of a write carries it:
a frontmatter list or mapping (as a value or a key), a `forget` or `archive` reason (the
synced event log), a title (it becomes a file name). Nothing of it in the vault, the event
log, the stored versions or the index; a near miss beside each stays as written."""

from __future__ import annotations

import zlib
from pathlib import Path

import anyio
from conftest import open_mem
from mcp import Client
from session_helpers import cli

from aleph_mem.mcp.server import build_server

TOKEN = "glpat-" + "x7Kq2LmZ9vB4nC8pW3sT"
NEAR = "token-rotation-every-90-days"


def everything_stored(vault: Path) -> bytes:
    """Every byte aleph-mem keeps: notes, events, versions (inflated), the index."""
    out = []
    for p in vault.rglob("*"):
        if not p.is_file():
            continue
        data = p.read_bytes()
        out.append(p.name.encode() + b"\n" + data)
        if "objects" in p.parts:
            try:
                out.append(zlib.decompress(data))
            except zlib.error:
                pass
    return b"\n".join(out)


def test_no_secret_enters_through_a_writes_side_doors(vault: Path) -> None:
    with open_mem(vault) as mem:
        mem.reindex()

    async def scenario(c: Client) -> None:
        r = await c.call_tool("write", {
            "content": "# Deploy\n\nHow heron deploys.\n", "title": "Heron deploy",
            "frontmatter": {"tokens": [TOKEN, NEAR], "auth": {"gitlab": TOKEN, "policy": NEAR},
                            TOKEN: "a key that is itself a secret"}})
        assert not r.is_error, r.content
        r = await c.call_tool("write", {"content": "# Keys\n\nwhere keys live\n",
                                        "title": f"Keys {TOKEN}"})
        assert not r.is_error, r.content
        r = await c.call_tool("forget", {"path": r.structured_content["path"],
                                         "reason": f"superseded; old token was {TOKEN}"})
        assert not r.is_error, r.content

    server = build_server(vault, background_reconcile=False)

    async def go() -> None:
        async with Client(server) as c:
            await scenario(c)
    anyio.run(go)
    (vault / "notes").mkdir(exist_ok=True)
    (vault / "notes" / "old.md").write_text("# Old\n\nan old note\n")
    cli("--vault", str(vault), "index")
    out = cli("--vault", str(vault), "archive", "notes/old.md", "--reason",
              f"token {TOKEN} revoked; {NEAR}", check=False)  # the person's: refused whole
    assert out.returncode == 1 and (vault / "notes" / "old.md").exists()
    cli("--vault", str(vault), "archive", "notes/old.md", "--reason", f"revoked; {NEAR}")
    stored = everything_stored(vault)
    assert TOKEN.encode() not in stored and TOKEN[6:18].encode() not in stored
    assert NEAR.encode() in stored  # the near misses are kept as written
    deploy = (vault / "inbox" / "Heron deploy.md").read_text()
    assert NEAR in deploy and "[REDACTED:gitlab-token]" in deploy


def test_a_persons_own_write_with_a_secret_is_refused_and_keeps_nothing(vault: Path) -> None:
    """Through the CLI a person's text is never stored changed: a write, an append or a
    remember holding a secret is refused whole, nothing written or logged. The near miss:
    the same text without the secret is written as it is."""
    before = everything_stored(vault)
    for args in (["write", "notes/keys.md"], ["write", "Welcome.md", "--append"],
                 ["remember", f"the token is {TOKEN}"]):
        out = cli("--vault", str(vault), *args, stdin=f"token {TOKEN}\n", check=False)
        assert out.returncode == 1 and "nothing was written" in out.stderr, out.stderr
        assert "gitlab-token" in out.stderr and TOKEN not in out.stderr
    assert not (vault / "notes" / "keys.md").exists()
    assert TOKEN.encode() not in everything_stored(vault)
    assert everything_stored(vault).count(b"gitlab-token") == before.count(b"gitlab-token")
    out = cli("--vault", str(vault), "write", "notes/keys.md", stdin=f"policy {NEAR}\n")
    assert (vault / "notes" / "keys.md").read_text() == f"policy {NEAR}\n"
