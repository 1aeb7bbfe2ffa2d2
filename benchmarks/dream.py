"""The dream passes, measured.

    python benchmarks/dream.py [--notes 10000] [--messy 300]

1. A messy vault: --messy generated notes (written by an agent, so the passes may act)
   with planted problems of every kind the deterministic passes handle: exact and near
   duplicates, expired `valid_until`, `superseded_by`, missing local files, duplicate tags,
   cold notes, plus controls that must be left alone (distinct notes, opted-out and
   permanent notes, a human-written duplicate that may only be proposed). Precision and
   recall of each pass against the planted set.
2. The person-style vault of benchmarks/person_vault.py (dream_person.py): per-pass recall
   on planted problems and false positives on their near-miss controls, the second run,
   every proposal ticked (no line lost), and the first run on the SRD vault.
3. The time and peak memory of a no-LLM daily run on a generated vault of --notes notes.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import random
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

from dream_person import person, srd
from scale import add_vault_args, generated_vault

from aleph_mem.dream.runner import Dream
from aleph_mem.install.new_vault import init_vault
from aleph_mem.memory import Memory

WORDS = ("harbour ferry lantern orchard quarry meadow signal ledger compass glacier canyon "
         "beacon timber harvest spindle copper velvet marble thistle cobalt prairie summit "
         "willow falcon ember river basalt juniper saffron tundra").split()


def sentence(rng: random.Random, n: int = 14) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."


def messy_vault(root: Path, count: int, seed: int = 7) -> dict[str, set[tuple[str, str]]]:
    """Write the vault; return the planted truth: pass -> {(op, path)}."""
    rng = random.Random(seed)
    init_vault(root)
    truth: dict[str, set[tuple[str, str]]] = {p: set() for p in
                                              ("consolidate", "drift", "lint", "decay")}
    with Memory.open(root, {"embed_model": "none"}, actor="mcp:bench") as mem:
        mem.reindex()
        w = mem.store.writer()

        def note(path: str, body: str, fm: str = "", bare: bool = False) -> None:
            """A well-kept agent note carries the keys lint requires, unless ``bare``."""
            keys = {"category": path.split("/")[0], "tags": "[]", "created": "2026-01-01"}
            fm += "".join(f"{k}: {v}\n" for k, v in keys.items()
                          if not bare and f"{k}:" not in fm)
            head = f"---\n{fm}---\n" if fm else ""
            w.write(path, (head + body).encode(), None)

        for i in range(count):
            folder = f"f{i % 6}"
            note(f"{folder}/n{i:04d}.md", f"# Note {i}\n\n" + " ".join(
                sentence(rng) for _ in range(6)) + "\n", f"updated: {dt.date.today()}\n")
        for k in range(10):  # exact duplicates
            body = " ".join(sentence(rng) for _ in range(5))
            note(f"dup/a{k}.md", f"# Dup {k}\n\n{body}\n")
            note(f"dup/b{k}.md", f"# Dup {k} copy\n\n{body}\n")
            truth["consolidate"].add(("archive", f"dup/b{k}.md"))
            truth["consolidate"].add(("set", f"dup/a{k}.md"))
        for k in range(10):  # near duplicates: proposals
            body = [sentence(rng) for _ in range(12)]
            note(f"near/a{k}.md", "# Near\n\n" + " ".join(body) + "\n")
            note(f"near/b{k}.md", "# Near\n\n" + " ".join(body) + "\n\nWritten again.\n")
            truth["consolidate"].add(("propose", f"near/b{k}.md"))
            truth["consolidate"].add(("propose", f"near/a{k}.md"))
        for k in range(10):
            note(f"drift/expired{k}.md", f"# Expired {k}\n\n{sentence(rng)} [[n0001]]\n",
                 "valid_until: 2020-01-01\n")
            truth["drift"].add(("set", f"drift/expired{k}.md"))
            note(f"drift/new{k}.md", f"# New {k}\n\n{sentence(rng)} [[n0002]]\n")
            note(f"drift/old{k}.md", f"# Old {k}\n\n{sentence(rng)} [[n0003]]\n",
                 f"superseded_by: '[[new{k}]]'\n")
            truth["drift"].add(("set", f"drift/old{k}.md"))
            truth["drift"].add(("set", f"drift/new{k}.md"))  # gains the reverse `supersedes`
            note(f"drift/files{k}.md", f"# Files {k}\n\nSee ![scan](scans/s{k}.pdf) [[n0004]]\n")
            truth["drift"].add(("set", f"drift/files{k}.md"))
            note(f"lint/tags{k}.md", f"# Tags {k}\n\n{sentence(rng)} [[n0005]]\n",
                 "tags: [x, y, x]\n")
            truth["lint"].add(("set", f"lint/tags{k}.md"))
            note(f"cold/c{k}.md", f"# Cold {k}\n\n{sentence(rng)}\n", "updated: 2020-01-01\n")
            truth["decay"].add(("archive", f"cold/c{k}.md"))
        for k in range(10):  # no frontmatter (L001); a link with one loose match (L010)
            note(f"lint/bare{k}.md", f"# Bare {k}\n\n{sentence(rng)} [[n0006]]\n", bare=True)
            truth["lint"].add(("set", f"lint/bare{k}.md"))
            note(f"lint/target-{k}.md", f"# Goal {k}\n\n{sentence(rng)}\n")
            note(f"lint/link{k}.md", f"# Link {k}\n\nSee [[Target {k}]].\n")
            truth["lint"].add(("set", f"lint/link{k}.md"))
        # controls: never to be changed
        note("lint/twin-note.md", "# Twin one\n\na\n")
        note("lint/twin_note.md", "# Twin two\n\nb\n")
        note("lint/twinlink.md", "# Twins\n\nWhich [[Twin Note]]? Never guessed.\n")
        mem.reindex()
        for k in range(10):  # cold: untouched for years
            os.utime(root / f"cold/c{k}.md", (1577836800, 1577836800))
        mem.reindex()
        note("keep/out.md", "# Out\n\nx\n", "dream: false\nvalid_until: 2000-01-01\n"
             "tags: [a, a]\n")
        note("keep/perm.md", "# Perm\n\ny\n", "permanent: true\nupdated: 2001-01-01\n")
    (root / "human").mkdir()
    shared = " ".join(sentence(rng) for _ in range(5))
    (root / "human" / "h1.md").write_text(f"# Mine\n\n{shared}\n")
    (root / "human" / "h2.md").write_text(f"# Mine again\n\n{shared}\n")
    truth["consolidate"] |= {("propose", "human/h1.md"), ("propose", "human/h2.md")}
    return truth


def score(report, truth: dict[str, set[tuple[str, str]]], now: dt.datetime) -> dict:
    got: dict[str, set[tuple[str, str]]] = {p: set() for p in truth}
    for a in report.applied:
        if a["pass"] in got:
            op = "archive" if a["path"].startswith("archive/") else "set"
            got[a["pass"]].add((op, a["path"].removeprefix("archive/")))
    for p in report.proposed:
        what = p["what"]
        path = what.split("[[", 1)[1].split("]]", 1)[0] + ".md"
        got[p["pass"]].add(("propose", path))
    out = {}
    for name in truth:
        tp = len(got[name] & truth[name])
        out[name] = {"precision": round(tp / len(got[name]), 3) if got[name] else 1.0,
                     "recall": round(tp / len(truth[name]), 3) if truth[name] else 1.0,
                     "planted": len(truth[name]), "found": len(got[name])}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--notes", type=int, default=10000)
    ap.add_argument("--messy", type=int, default=300)
    add_vault_args(ap)
    ap.add_argument("--srd", type=Path, default=Path(__file__).resolve().parent.parent.parent
                    / "shared/eval/vaults/dnd5e-srd/vault", help="a real vault for a first run")
    args = ap.parse_args()
    # a vault aleph-mem has watched for a month (decay waits decay_min_watch_days)
    now = dt.datetime.now(dt.UTC) + dt.timedelta(days=31)
    root = Path(tempfile.mkdtemp(prefix="aleph-messy-")) / "vault"
    truth = messy_vault(root, args.messy)
    with Memory.open(root, {"embed_model": "none"}) as mem:
        report = Dream(mem.store, now, force=True).run()
        again = Dream(mem.store, now, force=True).run()
    figures = {"messy": score(report, truth, now),
               "second_run_changes": len(again.applied) + len(again.proposed)}
    print(json.dumps(figures), flush=True)
    print(json.dumps({"person_vault": person(None)}), flush=True)
    if args.srd.is_dir():
        print(json.dumps(srd(args.srd)), flush=True)
    base = generated_vault(args, args.notes)
    copy = Path(tempfile.mkdtemp(prefix="aleph-dream10k-")) / "vault"
    shutil.copytree(base, copy, symlinks=True)
    init_vault(copy)
    with Memory.open(copy, {"embed_model": "none"}) as mem:
        mem.reindex()
        t = time.perf_counter()
        big = Dream(mem.store, now, force=True).run()
        figures = {"notes": args.notes, "daily_run_s": round(time.perf_counter() - t, 1),
                   "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
                                         / 1024),
                   "applied": len(big.applied), "proposed": len(big.proposed),
                   "lint_issues": len(big.issues)}
    print(json.dumps(figures))
    shutil.rmtree(copy.parent, ignore_errors=True)
    sys.exit(0)


if __name__ == "__main__":
    main()
