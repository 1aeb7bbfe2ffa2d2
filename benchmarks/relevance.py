"""Which notes the per-prompt hook may add: calibrating the relevance floor.

    python benchmarks/relevance.py --help-vault VAULTS/obsidian-help/en \\
        --person-vault VAULTS/kepano-obsidian [--floors 0.3,0.4,0.5,0.6,0.7]

Prompts written for this benchmark against two real vaults: for each, the notes a person
would want added (same subject), or none (another subject: coding questions asked of a
vault about Obsidian or about a person's life). Per floor: the notes the hook would add
(its top 3 hits that pass the floor), precision (added notes that are wanted) and recall
(wanted notes that are added), and how many off-subject prompts got anything. Full text
only, as a hook answers while no model is warm.
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
from pathlib import Path

from aleph_mem.index.relevance import MIN_WORDS, coverage
from aleph_mem.index.search import query_terms
from aleph_mem.install.new_vault import init_vault
from aleph_mem.memory import Memory

HITS = 3  # what the hook shows at most

HELP = [  # (prompt, the pages that answer it) on the Obsidian Help vault
    ("how do I embed a block from another note", {"Linking notes and files/Embed files.md",
                                                  "Linking notes and files/Internal links.md"}),
    ("sync my vault between my iPhone and my laptop", {
        "Obsidian Sync/Introduction to Obsidian Sync.md",
        "Obsidian Sync/Set up Obsidian Sync.md",
        "Getting started/Sync your notes across devices.md"}),
    ("what are properties in the frontmatter and which types exist",
     {"Editing and formatting/Properties.md"}),
    ("how do I create a canvas and add cards to it", {"Plugins/Canvas.md"}),
    ("change the default folder where new attachments are saved", {
        "Editing and formatting/Attachments.md", "Files and folders/Accepted file formats.md"}),
    ("how to write a Bases formula with a filter on tags", {
        "Bases/Bases syntax.md", "Bases/Functions.md", "Bases/Formulas.md",
        "Bases/Create a base.md"}),
    ("publish my notes as a website with a custom domain", {
        "Obsidian Publish/Custom domains.md",
        "Obsidian Publish/Introduction to Obsidian Publish.md"}),
    ("keyboard shortcut to open the command palette", {"Plugins/Command palette.md",
                                                       "User interface/Hotkeys.md"}),
    ("how does the graph view filter orphan notes", {"Plugins/Graph view.md"}),
    ("restore a note I deleted by accident", {
        "Plugins/File recovery.md", "Obsidian Sync/Version history.md",
        "Files and folders/Manage notes.md"}),
]
CODING = [  # another subject: nothing in either vault bears on these
    "show me a decorator that takes parameters",
    "fix the docker GPG error when running apt-get update",
    "why does my React useEffect run twice in development",
    "write a SQL query for the second highest salary per department",
    "my pytest fixture is not found when I run from the repo root",
    "how do I rebase my branch onto main without losing commits",
    "kubernetes pod stuck in CrashLoopBackOff after the deploy",
    "convert a pandas dataframe column from string to datetime",
    "what does the Rust borrow checker error E0502 mean",
    "set up nginx as a reverse proxy with TLS for a node app",
]
PERSON = [  # on the kepano vault: a person's own notes
    ("what did I think of the movie Blade Runner", {"References/Blade Runner.md"}),
    ("the recipe for brown butter nectarine tart", {
        "References/Brown butter nectarine tart.md"}),
    ("notes from my 2023 Japan trip", {"Notes/2023 Japan Trip.md"}),
    ("what are evergreen notes", {
        "Notes/Evergreen notes turn ideas into objects that you can manipulate.md",
        "Categories/Evergreen.md"}),
]


def indexed(vault: Path) -> Path:
    root = Path(tempfile.mkdtemp(prefix="aleph-rel-")) / "vault"
    shutil.copytree(vault, root, ignore=shutil.ignore_patterns(".git", ".obsidian"))
    init_vault(root)
    with Memory.open(root, {"embed_model": "none"}) as mem:
        mem.reindex()
    return root


def added(mem: Memory, prompt: str, floor: float) -> list[str]:
    out = []
    for h in mem.search(prompt, limit=HITS, mode="fts").hits:
        share, words = coverage(mem.store.con, prompt, h.path)
        if share >= floor and words >= min(MIN_WORDS, len(query_terms(prompt))):
            out.append(h.path)
    return out


def score(mem: Memory, on: list[tuple[str, set[str]]], off: list[str], floor: float) -> dict:
    shown = wanted = found = 0
    misses = []
    for prompt, pages in on:
        got = added(mem, prompt, floor)
        shown += len(got)
        found += len(set(got) & pages)
        wanted += min(len(pages), HITS)
        if not set(got) & pages:
            misses.append(prompt)
    noise = {p: added(mem, p, floor) for p in off}
    noisy = {p: g for p, g in noise.items() if g}
    shown_all = shown + sum(len(g) for g in noise.values())
    return {"precision": round(found / shown_all, 3) if shown_all else 1.0,
            "recall": round(found / wanted, 3) if wanted else 1.0,
            "on_subject_prompts_answered": len(on) - len(misses),
            "off_subject_prompts_with_notes": len(noisy), "missed": misses[:3],
            "noise": dict(list(noisy.items())[:2])}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--help-vault", type=Path, required=True)
    ap.add_argument("--person-vault", type=Path, required=True)
    ap.add_argument("--floors", default="0,0.3,0.4,0.5,0.6,0.7")
    args = ap.parse_args()
    vaults = {"help": (indexed(args.help_vault), HELP), "person": (indexed(args.person_vault),
                                                                   PERSON)}
    for floor in (float(f) for f in args.floors.split(",")):
        row = {"floor": floor}
        for name, (root, on) in vaults.items():
            with Memory.open(root, {"embed_model": "none"}) as mem:
                row[name] = score(mem, on, CODING, floor)
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
