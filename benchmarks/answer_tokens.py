"""What an agent's answers cost: the `tools/list` answer in characters (its JSON as a
client receives it), and each MCP tool's text (what a client hands the model) in tokens
(characters / 4), beside the SDK's own indented JSON of the same structured answer, on a
copy of the SRD vault from ../shared/eval (full text only: no model is loaded).

    python benchmarks/answer_tokens.py [--vault PATH] [--markdown]
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
         ("recent", {}), ("remember", {"fact": "The party is level 5"}),
         ("read", {"note": "rules/conditions.md"}),
         ("graph", {"note": "rules/conditions.md", "action": "backlinks"}),
         ("reflect", {"question": "how does grappling work"})]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vault", type=Path, default=SHARED)
    ap.add_argument("--markdown", action="store_true", help="print the tables as Markdown")
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
            wire = tools.model_dump_json(by_alias=True, exclude_none=True)
            print(f"{len(tools.tools)} tools, tools/list {len(wire):,} characters")
            rows = [(t.name, len(json.dumps(t.model_dump(mode="json", by_alias=True,
                                                         exclude_none=True),
                                            separators=(",", ":")))) for t in tools.tools]
            print(("| tool | characters |\n|---|---:|\n" if args.markdown else "")
                  + "\n".join(f"| `{n}` | {k:,} |" if args.markdown else f"{n:9} {k:6,}"
                              for n, k in rows))
            print("\n| tool | arguments | indented | ours | ratio |\n|---|---|---:|---:|---:|"
                  if args.markdown else
                  f"{'tool':9} {'arguments':44} {'indented':>9} {'ours':>6} ratio")
            for name, arguments in CALLS:
                r = await c.call_tool(name, arguments)
                ours = r.content[0].text
                indented = pydantic_core.to_json(r.structured_content, indent=2).decode()
                shown = json.dumps(arguments)[:44]
                print(f"| {name} | `{shown}` | {len(indented) // 4:,} | {len(ours) // 4:,} | "
                      f"{len(ours) / len(indented):.2f} |" if args.markdown else
                      f"{name:9} {shown:44} {len(indented) // 4:9,} "
                      f"{len(ours) // 4:6,} {len(ours) / len(indented):.2f}")

    anyio.run(go)
    shutil.rmtree(root.parent, ignore_errors=True)


if __name__ == "__main__":
    main()
