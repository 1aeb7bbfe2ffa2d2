"""The real Obsidian vault under ../shared/eval/vaults: links resolve as an independent
reference resolver says (expected_links.json)."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import open_mem, shared_dir


def expected() -> dict:
    path = shared_dir() / "eval" / "vaults" / "dnd5e-srd" / "expected_links.json"
    return json.loads(path.read_text())


def test_links_tags_and_aliases_match_the_reference(dnd_vault: Path) -> None:
    exp = expected()
    with open_mem(dnd_vault) as mem:
        mem.reindex()
        con = mem.store.con
        ours = {}
        for src, raw, line, resolved, anchor_found in con.execute(
                "SELECT n.path, l.raw, l.line, l.resolved_path, l.anchor_found FROM links l "
                "JOIN notes n ON n.id=l.src_id"):
            ours.setdefault(src, []).append((raw, line, resolved, anchor_found))
        theirs = {}
        for src, note in exp["notes"].items():
            for lk in note["links"]:
                if lk.get("in_comment"):
                    continue
                found = lk.get("anchor_found")
                theirs.setdefault(src, []).append(
                    (lk["raw"], lk["line"], lk["resolved_path"],
                     None if found is None or lk["resolved_path"] is None else int(found)))
        assert sum(map(len, ours.values())) == exp["totals"]["links_total"]
        mismatches = [(src, a, b) for src in theirs
                      for a, b in zip(sorted(ours.get(src, [])), sorted(theirs[src]), strict=False)
                      if a != b]
        assert mismatches == []
        assert {s: sorted(v) for s, v in ours.items()} == {s: sorted(v) for s, v in theirs.items()}

        for src, note in exp["notes"].items():
            tags = sorted({t.casefold() for (t,) in con.execute(
                "SELECT t.tag FROM tags t JOIN notes n ON n.id=t.note_id WHERE n.path=?", (src,))})
            assert tags == sorted({t.casefold() for t in note["tags"]}), src
            aliases = [a for (a,) in con.execute(
                "SELECT a.alias FROM aliases a JOIN notes n ON n.id=a.note_id WHERE n.path=?",
                (src,))]
            assert aliases == note["aliases"], src
            blocks = sorted(b for (b,) in con.execute(
                "SELECT b.block_id FROM blocks b JOIN notes n ON n.id=b.note_id WHERE n.path=?",
                (src,)))
            assert blocks == sorted(note["block_ids"]), src


def test_index_never_modifies_a_note(dnd_vault: Path) -> None:
    before = {p: p.read_bytes() for p in dnd_vault.rglob("*.md")}
    stats = {p: p.stat().st_mtime_ns for p in before}
    with open_mem(dnd_vault) as mem:
        mem.reindex()
        mem.reindex(rebuild=True)
    assert {p: p.read_bytes() for p in dnd_vault.rglob("*.md")} == before
    assert {p: p.stat().st_mtime_ns for p in before} == stats


def test_the_weekly_plan_is_the_same_in_any_process(dnd_vault: Path) -> None:
    """Regression: the weekly clusters took their node order from a set, so two processes
    (two string-hash seeds) clustered the real vault differently and a second run rewrote
    the review."""
    import json
    import os
    import subprocess
    import sys

    from aleph_mem.cli.main import main

    assert main(["--vault", str(dnd_vault), "index", "--no-embed"]) == 0
    plans = []
    for seed in ("1", "2"):
        out = subprocess.run(
            [sys.executable, "-c", "from aleph_mem.cli.main import main; raise SystemExit(main())",
             "--vault", str(dnd_vault), "dream", "--weekly", "--dry-run", "--force", "--json"],
            capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": seed},
            check=True)
        plans.append(json.loads(out.stdout)["plan"])
    weekly = [[p for p in plan if "_dream/weekly/" in p.split("\n", 1)[0]] for plan in plans]
    assert weekly[0] and weekly[0] == weekly[1]
    assert plans[0] == plans[1]
