"""The dream judged on a vault in a person's style (benchmarks/person_vault.py).

    python benchmarks/dream_person.py [--keep DIR] [--srd ../shared/eval/vaults/dnd5e-srd/vault]

Per pass: recall on the planted problems and false positives on the near-miss controls;
for lint, whether the fix is named where there is one close match. Then, as a person would:
a second run straight after the first (must write nothing), every proposal ticked and
applied (no line of any note may be lost), and one more run (nothing again). Last, the
first run on a real vault (the SRD) with year-old file times: proposals, archives and the
digest's length. Prints one JSON object per part.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import shutil
import tempfile
import time
from pathlib import Path

from person_vault import Truth, build

from aleph_mem.dream.runner import Dream
from aleph_mem.install.new_vault import init_vault
from aleph_mem.memory import Memory

LINK_RULES = ("L010", "L011", "L012")


def touched(report) -> dict[str, set[str]]:
    """pass -> the notes it changed or proposed to change (both sides of a merge)."""
    out: dict[str, set[str]] = {}
    for a in report.applied:
        out.setdefault(a["pass"], set()).add(a["path"].removeprefix("archive/"))
        out[a["pass"]] |= {p.strip() for p in a.get("pair", "").split(" + ") if p.strip()}
    for p in report.proposed:
        found = {m + ".md" for m in re.findall(r"\[\[([^\]|#]+)", p["what"])}
        found |= set(re.findall(r"merged (\S+\.md)", p["what"]))
        out.setdefault(p["pass"], set()).update(found)
    return out


def score(report, truth: Truth) -> dict[str, dict]:
    got = touched(report)
    links: dict[str, list[str]] = {}
    for i in report.issues:
        if i["rule"] in LINK_RULES:
            links.setdefault(i["path"], []).append(i["message"])
    got["lint"] = set(links)
    # a person's prose end of validity is reported on the lint page (L043), not marked
    got.setdefault("drift", set()).update(i["path"] for i in report.issues
                                          if i["rule"] == "L043")
    out = {}
    for name in ("consolidate", "drift", "lint", "decay"):
        planted, controls = truth.planted.get(name, set()), truth.controls.get(name, set())
        hits = got.get(name, set())
        out[name] = {"planted": len(planted), "found": len(planted & hits),
                     "recall": round(len(planted & hits) / len(planted), 3) if planted else 1.0,
                     "controls": len(controls), "false_positives": sorted(controls & hits),
                     "other": len(hits - planted - controls)}
    named = [p for p, fix in truth.fixes.items()
             if any(f"[[{fix}" in m for m in links.get(p, []))]
    out["lint"]["fix_named"] = f"{len(named)}/{len(truth.fixes)}"
    out["lint"]["fix_missing"] = sorted(set(truth.fixes) - set(named))
    out["lint"]["fix_guessed"] = sorted(  # a fix named where none is right
        p for p in truth.broken if p not in truth.fixes
        and any("did you mean" in m for m in links.get(p, [])))
    return out


def plain(line: str) -> str:
    """A line as it reads: a wikilink as its shown text, so a repaired link is the same
    line (``[[Mei_Lin]]`` and ``[[Mei Lin|Mei_Lin]]`` both read "Mei_Lin")."""
    return re.sub(r"\[\[(?:[^\]|]*\|)?([^\]]*)\]\]", r"\1", line.strip())


def lines_of(root: Path) -> dict[str, set[str]]:
    out = {}
    for p in root.rglob("*.md"):
        rel = p.relative_to(root).as_posix()
        if rel.startswith((".aleph/", "_dream/")):
            continue
        out[rel] = {plain(ln) for ln in p.read_text("utf-8", "replace").splitlines()
                    if ln.strip() and ln.strip() != "---"}
    return out


def tick_all(root: Path) -> int:
    """Every box a person sees: the digests' and the standing proposals page's."""
    n = 0
    for p in [*(root / "_dream" / "digests").glob("*.md"), root / "_dream" / "proposals.md"]:
        if not p.exists():
            continue
        text = p.read_text("utf-8")
        ticked = re.sub(r"^- \[ \] (.*\(P-[0-9a-f]{8}\))$", r"- [x] \1", text, flags=re.M)
        n += text.count("- [ ] ") - ticked.count("- [ ] ")
        p.write_text(ticked, "utf-8")
    return n


def person(keep: Path | None) -> dict:
    root = (keep or Path(tempfile.mkdtemp(prefix="aleph-person-"))) / "vault"
    if root.exists():
        shutil.rmtree(root)
    truth = build(root)
    init_vault(root)
    before = lines_of(root)
    now = dt.datetime.now(dt.UTC) + dt.timedelta(days=31)  # watched for a month
    with Memory.open(root, {"embed_model": "none"}) as mem:
        mem.reindex()
        t = time.perf_counter()
        first = Dream(mem.store, now, force=True).run()
        seconds = time.perf_counter() - t
        second = Dream(mem.store, now, force=True).run()
        digest = (root / "_dream" / "digests" / f"{now.date()}.md").read_text("utf-8")
        ticked = tick_all(root)
        mem.reindex()
        applied = Dream(mem.store, now, force=True).run()
        mem.reindex()
        last = Dream(mem.store, now, force=True).run()
    after = lines_of(root)
    every_line = set().union(*after.values())
    lost = sorted({(p, ln) for p, lns in before.items() for ln in lns
                   if ln not in every_line and not ln.startswith(("tags:", "aliases:"))})
    return {"notes": len(before), "run_s": round(seconds, 2), "passes": score(first, truth),
            "second_run_writes": len(second.applied) + len(second.proposed),
            "digest_lines": digest.count("\n"), "proposals_ticked": ticked,
            "ticked_applied": len(applied.applied), "ticked_skipped": [
                f"{x['path']}: {x['reason']}" for x in applied.skipped],
            "lines_lost": len(lost), "lost_sample": lost[:5],
            "after_ticks_writes": len(last.applied) + len(last.proposed)}


def srd(vault: Path) -> dict:
    root = Path(tempfile.mkdtemp(prefix="aleph-srd-")) / "vault"
    shutil.copytree(vault, root)
    old = time.time() - 400 * 86400
    for p in root.rglob("*"):
        if p.is_file():
            os.utime(p, (old, old))
    init_vault(root)
    now = dt.datetime.now(dt.UTC)
    with Memory.open(root, {"embed_model": "none"}) as mem:
        mem.reindex()
        r = Dream(mem.store, now, force=True).run()
        later = Dream(mem.store, now + dt.timedelta(days=31), force=True).run()  # watched a month
    digest = (root / "_dream" / "digests" / f"{now.date()}.md").read_text("utf-8")
    shutil.rmtree(root.parent, ignore_errors=True)
    return {"srd_notes": sum(1 for _ in vault.rglob("*.md")), "changes": len(r.applied),
            "proposals": len(r.proposed),
            "archive_proposals": sum(1 for p in r.proposed if p["pass"] == "decay"),
            "digest_lines": digest.count("\n"),
            "a_month_later": {"changes": len(later.applied), "proposals": len(later.proposed),
                              "archive_proposals": [p["what"] for p in later.proposed
                                                    if p["pass"] == "decay"]}}


def main() -> None:
    here = Path(__file__).resolve().parent
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--keep", type=Path, help="write the vault here and keep it to read")
    ap.add_argument("--srd", type=Path,
                    default=here.parent.parent / "shared/eval/vaults/dnd5e-srd/vault")
    args = ap.parse_args()
    print(json.dumps(person(args.keep), indent=1), flush=True)
    if args.srd.is_dir():
        print(json.dumps(srd(args.srd)))


if __name__ == "__main__":
    main()
