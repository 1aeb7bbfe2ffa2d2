"""What an agent's answers cost: each MCP tool's text (what a client hands the model) in
tokens (characters / 4), beside the SDK's own indented JSON of the same structured answer,
on a copy of the SRD vault from ../shared/eval (full text only: no model is loaded).

    python benchmarks/answer_tokens.py [--vault PATH]
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
from pathlib import Path

import anyio
import pydantic_core
from mcp import Client

from aleph_mem.mcp.server import build_server
from aleph_mem.memory import Memory

SHARED = Path(__file__).resolve().parents[2] / "shared" / "eval" / "vaults" / "dnd5e-srd" / "vault"
CALLS = [("search", {"query": "how does grappling work"}),
         ("read", {"note": "compendium/feats/grappler.md"}),
         ("context", {}), ("context", {"query": "spell slots for a wizard"}),
         ("graph", {"note": "compendium/feats/grappler.md", "depth": 2}),
         ("recent", {}), ("remember", {"fact": "The party is level 5"})]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vault", type=Path, default=SHARED)
    args = ap.parse_args()
    root = Path(tempfile.mkdtemp(prefix="aleph-tokens-")) / "vault"
    shutil.copytree(args.vault, root)
    (root / ".aleph").mkdir(exist_ok=True)
    (root / ".aleph" / "config.toml").write_text('embed_model = "none"\n')
    with Memory.open(root) as mem:
        mem.reindex()
        mem.dream(force=True)  # a digest for context to hand over
    server = build_server(root, background_reconcile=False)

    async def go() -> None:
        async with Client(server) as c:
            tools = await c.list_tools()
            schema = sum(len(json.dumps(t.model_dump(mode="json", exclude_none=True)))
                         for t in tools.tools)
            print(f"{len(tools.tools)} tools, schemas {schema:,} characters")
            print(f"{'tool':9} {'arguments':44} {'indented':>9} {'ours':>6} ratio")
            for name, arguments in CALLS:
                r = await c.call_tool(name, arguments)
                ours = r.content[0].text
                indented = pydantic_core.to_json(r.structured_content, indent=2).decode()
                print(f"{name:9} {json.dumps(arguments)[:44]:44} {len(indented) // 4:9,} "
                      f"{len(ours) // 4:6,} {len(ours) / len(indented):.2f}")

    anyio.run(go)
    shutil.rmtree(root.parent, ignore_errors=True)


if __name__ == "__main__":
    main()
