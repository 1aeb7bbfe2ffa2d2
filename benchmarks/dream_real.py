"""The dream judged on real vaults nobody on the project wrote, as their owners would.

    python benchmarks/dream_real.py NAME=DIR [NAME=DIR ...] [--keep OUT] [--json]

Each DIR is a folder of notes (an Obsidian vault, or one language of a documentation
vault); it is copied, never changed. Per vault, with a clock the benchmark controls:

1. file times set a year back, `init`, index, a first dream (day 0);
2. a person's small edits on day 1, straight to disk as an editor saves: `expires:` (a
   date already past) added to notes that carry their own `status`, and a planted pair
   (a subject note and an older meeting note about it, both stating `brokers:: 3`) where
   the person raises the subject note to 5 without touching `updated:`; beside it a
   near-miss control pair that agrees (`nodes:: 3` twice);
3. a dream a month later (day 31);
4. the person answers on the standing page `_dream/proposals.md`: the first two open
   proposals ticked, the third dismissed; a dream on day 32;
5. `undo` of that run, as the digest offers, the same day; a dream on day 33.

aleph-mem's own clock (``ALEPH_MEM_NOW``) is set to each step's day, so every event, run
and digest is dated as if it happened then.

Printed per vault (and, with --json, as one JSON object per line):

- values or lines changed without a tick: notes of the person's whose bytes a dream changed;
- broken links (L010) against an Obsidian resolver written here (link text to a file by
  path, else by name anywhere in the vault, attachments included): precision and recall;
- false alarms by class: relative time outside the person's own prose (code, quotes,
  links, clipped pages), "empty" notes that hold properties, templates judged as notes,
  file references the note never declared (drift), anchors Obsidian resolves;
- archive proposals a month later, with and without the note's own evidence (expired,
  superseded, said to be old, deprecated or obsolete by its words, tags or folder);
- proposals vanished: raised on day 0, neither answered, nor withdrawn with a reason, nor
  still shown on day 31;
- the person's newer edit marked contradicted by the older note (0 is right), and the
  control pair flagged (0 is right);
- digest lines per 100 notes, day 0 and day 31;
- the protocol: notes changed on day 32 other than those the ticks named, notes the undo
  did not restore, notes changed on day 33 (after the undo), ticks answered in the next
  digest, dismissed proposals raised again, empty proposals, proposals gone without a
  word, and whether the digest was written anew after the undo.

With --keep, every line a person is asked to read (each digest, and every open proposal on
the standing page on day 31) is written to ``OUT/NAME/lines.jsonl`` with its class, for a
blind reading; ``benchmarks/dream_judged.py`` tallies the reader's verdicts per class.

The vaults are public repositories evaluated where they are fetched; none is copied into
this repository.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import shutil
import tempfile
import unicodedata
from pathlib import Path

import yaml

from aleph_mem.dream.runner import Dream
from aleph_mem.dream.view import body_of_text
from aleph_mem.install.new_vault import init_vault
from aleph_mem.memory import Memory

YEAR_AGO = 365
SKIP_DIRS = {".git", ".trash", ".aleph", "_dream", "node_modules", ".github"}
RELATIVE = re.compile(r"\b(today|yesterday|tomorrow|tonight|this (?:morning|week|month)|"
                      r"last (?:night|week|month|year)|next (?:week|month|year|monday|tuesday|"
                      r"wednesday|thursday|friday|saturday|sunday))\b", re.I)
EVIDENCE_WORDS = re.compile(r"\b(deprecated|obsolete|outdated|superseded|no longer|"
                            r"old|archived?|legacy)\b", re.I)


# -- the vault as a person has it ---------------------------------------------------------

def copy_vault(src: Path, dst: Path, now: dt.datetime) -> None:
    def ignore(folder: str, names: list[str]) -> set[str]:
        settings = ".obsidian" in Path(folder).parts  # only its settings, not plugins' code
        return {n for n in names if n in SKIP_DIRS or (settings and not n.endswith(".json")
                                                        and not Path(folder, n).is_dir())}
    shutil.copytree(src, dst, ignore=ignore, symlinks=False, ignore_dangling_symlinks=True)
    base = (now - dt.timedelta(days=YEAR_AGO)).timestamp()
    for i, p in enumerate(sorted(dst.rglob("*"))):
        if p.is_file():
            t = base - (i % 90) * 86400  # a year back, spread over three months
            os.utime(p, (t, t))


def notes_of(root: Path) -> dict[str, bytes]:
    out = {}
    for p in root.rglob("*.md"):
        rel = p.relative_to(root).as_posix()
        if any(part.startswith((".", "_dream")) for part in rel.split("/")) or \
                rel.startswith(("archive/", "MEMORY.md")):
            continue
        out[rel] = p.read_bytes()
    return out


PAIR = {
    "aleph-bench/Kafka.md": "---\nupdated: {old}\n---\n# Kafka\n\nOur event bus.\n\n"
                            "brokers:: 3\n",
    "aleph-bench/Kafka sync.md": "---\nsubject: \"[[Kafka]]\"\ndate: {mid}\n---\n"
                                 "# Kafka sync\n\nWe talked about the cluster.\n\nbrokers:: 3\n",
    "aleph-bench/Zookeeper.md": "---\nupdated: {old}\n---\n# Zookeeper\n\nCoordination.\n\n"
                                "nodes:: 3\n",
    "aleph-bench/Zookeeper sync.md": "---\nsubject: \"[[Zookeeper]]\"\ndate: {mid}\n---\n"
                                     "# Zookeeper sync\n\nStill three.\n\nnodes:: 3\n",
}


def plant(root: Path, now: dt.datetime) -> None:
    old = (now - dt.timedelta(days=YEAR_AGO)).date().isoformat()
    mid = (now - dt.timedelta(days=YEAR_AGO - 10)).date().isoformat()
    t = (now - dt.timedelta(days=YEAR_AGO)).timestamp()
    for rel, text in PAIR.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text.format(old=old, mid=mid), "utf-8")
        os.utime(p, (t, t))


def person_edits(root: Path, when: dt.datetime) -> list[str]:
    """Day 1: `expires:` added to up to three notes with their own `status`, and the
    subject note's brokers raised 3 -> 5 (its `updated:` left as it was)."""
    edited = []
    past = (when - dt.timedelta(days=20)).date().isoformat()
    for rel, data in sorted(notes_of(root).items()):
        text = data.decode("utf-8", "replace")
        if len(edited) == 3:
            break
        if rel.startswith("aleph-bench/") or not text.startswith("---\n"):
            continue
        head = text.split("\n---", 1)[0]
        if re.search(r"^status:", head, re.M) and "expires:" not in head:
            (root / rel).write_text(text.replace("---\n", f"---\nexpires: {past}\n", 1),
                                    "utf-8")
            edited.append(rel)
    kafka = root / "aleph-bench/Kafka.md"
    kafka.write_text(kafka.read_text("utf-8").replace("brokers:: 3", "brokers:: 5"), "utf-8")
    edited.append("aleph-bench/Kafka.md")
    for rel in edited:
        os.utime(root / rel, (when.timestamp(), when.timestamp()))
    return edited


# -- Obsidian's view, written here --------------------------------------------------------

def fold(s: str) -> str:
    return unicodedata.normalize("NFC", s).casefold()


WIKILINK = re.compile(r"!?\[\[([^\]\n]+?)\]\]")
CODE = re.compile(r"```.*?```|~~~.*?~~~|`[^`\n]*`", re.S)


def obsidian_broken(root: Path) -> set[tuple[str, str]]:
    """(note, link text) of every wikilink Obsidian leaves unresolved: the target by path
    (with or without its extension, from the vault or the note's folder, or the end of a
    longer path), else, a bare name, by file name or alias anywhere, case-insensitively."""
    files = [p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()
             and not any(part.startswith(".") for part in p.relative_to(root).parts)
             and p.relative_to(root).parts[0] not in SKIP_DIRS]
    by_path = {fold(f) for f in files} | {fold(f[:-3]) for f in files if f.endswith(".md")}
    by_name = {fold(f.rsplit("/", 1)[-1]) for f in files} | \
        {fold(f.rsplit("/", 1)[-1][:-3]) for f in files if f.endswith(".md")}
    notes = notes_of(root)
    for data in notes.values():  # a note's aliases name it too
        aliases = properties(data.decode("utf-8", "replace")).get("aliases") or []
        for alias in [aliases] if isinstance(aliases, str) else aliases:
            by_name.add(fold(str(alias)))
    out = set()
    for rel, data in notes.items():
        if template(rel, data.decode("utf-8", "replace")):
            continue  # a template is not a note (Obsidian shows its links all the same)
        text = CODE.sub("", data.decode("utf-8", "replace"))
        for m in WIKILINK.finditer(text):
            target = m.group(1).split("|")[0].rstrip("\\").split("#")[0].strip()
            if not target:
                continue
            folder = rel.rsplit("/", 1)[0] + "/" if "/" in rel else ""
            t = fold(target)
            if t in by_path or fold(folder + target) in by_path:
                continue
            if "/" in t and any(p.endswith("/" + t) for p in by_path):
                continue  # a partial path: the end of some note's path
            if "/" not in t and t in by_name:
                continue
            out.add((rel, m.group(0)))
    return out


def properties(text: str) -> dict:
    if not text.startswith("---\n"):
        return {}
    try:
        found = yaml.safe_load(text[4:].split("\n---", 1)[0])
    except (yaml.YAMLError, ValueError):  # ValueError: a date no calendar has (2024-03-50)
        return {}
    return found if isinstance(found, dict) else {}


def own_prose(text: str) -> str:
    """A note's text as its person wrote it: without code, quotes, links and URLs."""
    text = CODE.sub(" ", body_of_text(text))
    text = re.sub(r"^\s*>.*$", " ", text, flags=re.M)
    text = re.sub(r"\[\[[^\]]*\]\]|\[[^\]]*\]\([^)]*\)|https?://\S+", " ", text)
    return text


def clipped(rel: str, text: str) -> bool:
    head = text.split("\n---", 1)[0] if text.startswith("---") else ""
    return bool(re.search(r"^(source|url|clipped|author):", head, re.M)) or \
        "clipping" in rel.casefold() or "webclip" in rel.casefold().replace(" ", "")


def template(rel: str, text: str) -> bool:
    """In a templates folder, or a placeholder in its frontmatter or title line."""
    folders = [f.casefold() for f in rel.split("/")[:-1]]
    head = text[:text.find("\n", text.find("\n---", 3) + 4) + 1] if text.startswith("---") \
        else text.split("\n", 1)[0]
    body = text[len(head):].lstrip("\n").split("\n", 1)[0] if text.startswith("---") else ""
    return any(f in ("templates", "template", "_templates") for f in folders) or \
        bool(re.search(r"\{\{[^}]*\}\}|<%", head + body))


def has_properties(text: str) -> bool:
    head = text.split("\n---", 1)[0] if text.startswith("---\n") else ""
    return bool(re.search(r"^[^\s#][^:]*:", head[4:], re.M))


def obsidian_heading(root: Path, rel: str, raw: str) -> bool:
    """Obsidian finds the heading or block the link's anchor names."""
    m = re.match(r"!?\[\[([^\]|#]*)#([^\]|]+)", raw)
    if not m:
        return False
    target, anchor = m.group(1).strip(), m.group(2).strip()
    path = rel if not target else next((p.relative_to(root).as_posix() for p in root.rglob(
        "*.md") if fold(p.stem) == fold(target.rsplit("/", 1)[-1])), None)
    if path is None:
        return False
    text = (root / path).read_text("utf-8", "replace")
    if anchor.startswith("^"):
        return re.search(r"\s\^" + re.escape(anchor[1:]) + r"\s*$", text, re.M) is not None
    want = [fold(re.sub(r"[\s#:|^\[\]]+", " ", a).strip()) for a in anchor.split("#")]
    heads = [fold(re.sub(r"[\s#:|^\[\]]+", " ", h).strip())
             for h in re.findall(r"^#{1,6}\s+(.*?)\s*#*\s*$", text, re.M)]
    return all(w in heads for w in want)


# -- one vault ----------------------------------------------------------------------------

def run(name: str, src: Path, keep: Path | None) -> dict:
    now = dt.datetime.now(dt.UTC).replace(microsecond=0)
    base = keep / name if keep else Path(tempfile.mkdtemp(prefix=f"aleph-real-{name}-"))
    root = base / "vault"
    if root.exists():
        shutil.rmtree(root)
    copy_vault(src, root, now)
    plant(root, now)
    before = notes_of(root)
    init_vault(root)
    clock(now)
    with Memory.open(root, {"embed_model": "none"}) as mem:
        mem.reindex()
        day0 = Dream(mem.store, now, force=True).run()
    texts31 = {"day0": (root / day0.digest).read_text("utf-8") if day0.digest else ""}
    after0 = notes_of(root)
    edited = person_edits(root, now + dt.timedelta(days=1))
    person = notes_of(root)
    clock(now + dt.timedelta(days=1))
    with Memory.open(root, {"embed_model": "none"}) as mem:
        mem.reindex()  # the watcher logs the person's edits the day they make them
    later = now + dt.timedelta(days=31)
    clock(later)
    with Memory.open(root, {"embed_model": "none"}) as mem:
        mem.reindex()
        day31 = Dream(mem.store, later, force=True).run()
        journal = {p["id"]: p for p in _proposals(mem)}
    after31 = notes_of(root)
    if day31.digest:
        texts31["day31"] = (root / day31.digest).read_text("utf-8")
    page = root / "_dream" / "proposals.md"
    if page.exists():  # every open proposal, not only the newest the digest shows
        texts31["page31"] = "\n".join(["## Proposals", *(
            ln for ln in page.read_text("utf-8").splitlines() if ln.startswith("- ["))])
    follow = answer_and_undo(root, now, after31)
    n_notes = len(person)
    unticked0 = sorted(r for r, b in before.items() if after0.get(r) != b)
    changed = sorted(r for r, b in person.items() if after31.get(r) != b)
    issues = day31.issues
    ours = {(i["path"], m.group(0)) for i in issues if i["rule"] in ("L010", "L014", "L015")
            for m in [re.search(r"!?\[\[[^\]]*\]\]", i["message"])] if m}
    truth = obsidian_broken(root)
    tp = len(ours & truth)
    texts = {r: b.decode("utf-8", "replace") for r, b in after31.items()}
    alarms = {"relative_time": [], "empty_with_properties": [], "template": [],
              "undeclared_file": [], "anchor_obsidian_resolves": []}
    for i in issues:
        text = texts.get(i["path"], "")
        if i["rule"] == "L042":
            phrase = re.search(r'"([^"]+)"', i["message"]).group(1)
            if clipped(i["path"], text) or not re.search(r"\b" + re.escape(phrase) + r"\b",
                                                         own_prose(text), re.I):
                alarms["relative_time"].append(i["path"])
        elif i["rule"] == "L040" and has_properties(text):
            alarms["empty_with_properties"].append(i["path"])
        elif i["rule"] == "L002" and template(i["path"], text):
            alarms["template"].append(i["path"])
        elif i["rule"] == "L012":
            raw = re.search(r"!?\[\[[^\]]*\]\]", i["message"])
            if raw and obsidian_heading(root, i["path"], raw.group(0)):
                alarms["anchor_obsidian_resolves"].append(i["path"])
    for report in (day0, day31):
        for a in [*report.applied, *report.proposed]:
            if a["pass"] == "drift" and ("missing_file" in a["what"] or "stale_refs" in
                                          a["what"]):
                alarms["undeclared_file"].append(a.get("path") or a["what"])
    archive = [p for p in day31.proposed if p["pass"] == "decay"] + \
        [a for a in day31.applied if a["pass"] == "decay"]
    with_evidence = [a for a in archive if _evidence(root, a["what"], texts)]
    inbox = [a for a in archive if a not in with_evidence and "[[inbox/" in a["what"]]
    vanished = [pid for pid, p in journal.items() if pid in {x["id"] for x in day0.proposed}
                and p["state"] in ("expired",)]
    flagged = _flagged(root, day31, journal)
    digest0 = texts31["day0"].count("\n")  # as written that day (an undo rewrites today's)
    digest31 = texts31.get("day31", "").count("\n")
    out = {
        "vault": name, "notes": n_notes, "person_edited": len(edited),
        "changed_without_tick": {"day0": len(unticked0), "day31": len(changed)},
        "changed_examples": (unticked0 + changed)[:4],
        "L010": {"ours": len(ours), "obsidian": len(truth),
                 "precision": round(tp / len(ours), 3) if ours else 1.0,
                 "recall": round(tp / len(truth), 3) if truth else 1.0},
        "false_alarms": {k: len(v) for k, v in alarms.items()},
        "false_alarm_examples": {k: sorted(set(v))[:3] for k, v in alarms.items() if v},
        "archive_proposals_day31": {"with_evidence": len(with_evidence),
                                    "without": len(archive) - len(with_evidence),
                                    "of_which_inbox_by_age": len(inbox),
                                    "examples": [a["what"] for a in archive
                                                 if a not in with_evidence][:4]},
        "proposals": {"day0": len(day0.proposed), "vanished": len(vanished)},
        "person_edit_contradicted": int("aleph-bench/Kafka.md" in flagged),
        "control_flagged": int(bool({"aleph-bench/Zookeeper.md",
                                     "aleph-bench/Zookeeper sync.md"} & flagged)),
        "older_note_flagged": int("aleph-bench/Kafka sync.md" in flagged),
        "digest_lines_per_100": {"day0": round(100 * digest0 / n_notes, 1),
                                 "day31": round(100 * digest31 / n_notes, 1)},
        **follow["figures"],
    }
    lines = judged_lines({**texts31, **follow["digests"]}, name)
    out["lines_to_judge"] = len(lines)
    if keep:
        (base / "lines.jsonl").write_text("".join(json.dumps(x, ensure_ascii=False) + "\n"
                                                  for x in lines), "utf-8")
    os.environ.pop("ALEPH_MEM_NOW", None)
    if not keep:
        shutil.rmtree(base, ignore_errors=True)
    return out


# -- the person answers, undoes a run, and the dream goes on -------------------------------

TICK_LINE = re.compile(r"^- \[ \] .*\((P-[0-9a-f]{8})\)\s*$", re.M)


def clock(when: dt.datetime) -> None:
    """aleph-mem's clock (``ALEPH_MEM_NOW``) set to the protocol's day, so every event, run
    and digest is dated as if it happened then."""
    os.environ["ALEPH_MEM_NOW"] = when.isoformat()


def answer_and_undo(root: Path, now: dt.datetime, after31: dict[str, bytes]) -> dict:
    """Day 31 as a person: two proposals ticked and one dismissed on the standing page;
    day 32 a dream; then ``undo`` of that run, as the digest offers; day 33 a dream.
    Counts what changed without a tick at each step, ticks answered, dismissals kept,
    empty and vanished proposals."""
    from aleph_mem.dream.journal import Journal

    page = root / "_dream" / "proposals.md"
    ids = TICK_LINE.findall(page.read_text("utf-8")) if page.exists() else []
    ticked, dismissed = ids[:2], ids[2:3]
    if ids:
        text = page.read_text("utf-8")
        for pid in ticked:
            text = re.sub(rf"^- \[ \](.*\({pid}\))", r"- [x]\1", text, flags=re.M)
        for pid in dismissed:
            text = re.sub(rf"^- \[ \](.*\({pid}\))", r"- [-]\1", text, flags=re.M)
        page.write_text(text, "utf-8")
    journal = Journal(root / ".aleph")
    known = journal.proposals()
    touched = set()  # the notes the ticked proposals name (a merge: both of its notes)
    for pid in ticked:
        group = known[pid]["action"].get("group") or pid
        touched |= {p["action"]["path"] for p in known.values()
                    if p["id"] == pid or (p["action"].get("group") or None) == group}
        touched |= {m + ".md" for m in re.findall(r"\[\[([^\]|]+)", json.dumps(
            known[pid]["action"].get("set_keys", {})))}
    day32_at, day33_at = now + dt.timedelta(days=32), now + dt.timedelta(days=33)
    clock(day32_at)
    with Memory.open(root, {"embed_model": "none"}) as mem:
        mem.reindex()
        day32 = Dream(mem.store, day32_at, force=True).run()
        after32 = notes_of(root)
        digests = {"day32": (root / day32.digest).read_text("utf-8") if day32.digest else ""}
        clock(day32_at + dt.timedelta(hours=2))
        undo = mem.undo(day32.run_id)  # the same day, from the digest's command
    after_undo = notes_of(root)
    clock(day33_at)
    with Memory.open(root, {"embed_model": "none"}) as mem:
        mem.reindex()
        day33 = Dream(mem.store, day33_at, force=True).run()
    after33 = notes_of(root)
    if day33.digest:
        digests["day33"] = (root / day33.digest).read_text("utf-8")
    undone_digest = "\n".join(p.read_text("utf-8") for p in (root / "_dream").rglob("*.md"))
    final = Journal(root / ".aleph").proposals()
    said = set()
    for r in (day32, day33):
        said |= {w["id"] for w in r.withdrawn} | {a["id"] for a in r.answered}
    vanished = [pid for pid, p in final.items() if p["state"] in ("outdated", "withdrawn",
                                                                  "expired", "failed")
                and pid not in said and not _said_before(root, pid)]
    everything = [*day32.proposed, *day33.proposed]
    return {"digests": digests, "figures": {
        "protocol": {
            "ticked": len(ticked), "dismissed": len(dismissed),
            "changed_without_tick_day32": sorted(r for r, b in after31.items()
                                                 if after32.get(r) != b and r not in touched),
            "undo_refused": len(undo.refused),
            "not_restored_by_undo": sorted(r for r, b in after31.items()
                                           if after_undo.get(r) != b),
            "changed_after_undo_day33": sorted(r for r, b in after_undo.items()
                                               if after33.get(r) != b),
            "ticks_answered": sum(1 for pid in ticked if f"your tick on {pid}" in
                                  digests["day32"]),
            "dismissed_raised_again": sum(1 for p in everything if p["id"] in dismissed),
            "empty_proposals": sum(1 for p in everything if re.search(r"\]\]:\s+\(", p["what"])),
            "vanished": vanished,
            "digest_rewritten_after_undo": f"run `{day32.run_id}`: " in undone_digest
            if undo.undone else None,
        }}}


def _said_before(root: Path, pid: str) -> bool:
    """Some digest written so far names the proposal as withdrawn or answers it."""
    folder = root / "_dream" / "digests"
    return any(re.search(rf"(withdrawn|your tick on) {pid}", p.read_text("utf-8"))
               for p in folder.glob("*.md")) if folder.exists() else False


def judged_lines(digests: dict[str, str], vault: str) -> list[dict]:
    """Every line a person is asked to read in the digests, each once, with its class:
    a proposal by its pass and kind, a lint example by its rule, an answer, a withdrawal,
    the counts line, the summary."""
    out: dict[str, dict] = {}
    for day, text in digests.items():
        section, rule = "", ""
        for line in text.splitlines():
            if line.startswith("## "):
                section, rule = line[3:], ""
                continue
            m = re.match(r"^- \*\*(L\d{3})", line)
            if m:
                rule = m.group(1)
                continue
            cls = _line_class(section, rule, line)
            if cls and line not in out:
                out[line] = {"vault": vault, "day": day, "class": cls, "line": line,
                             "notes": sorted(set(re.findall(r"\[\[([^\]|#]+)", line)))}
    return list(out.values())


def _line_class(section: str, rule: str, line: str) -> str | None:
    if not line.strip():
        return None
    if line.startswith(">"):
        return "summary"
    if section == "Proposals" and line.startswith("- [ ] "):
        what = line[6:]
        kind = ("merge" if "merge [[" in what else "archive" if "archive [[" in what else
                "expired (prose)" if "the text says it ends" in what else
                "expired" if "expired" in what else
                "contradicted" if "contradict" in what or " here, " in what else
                "superseded" if "supersede" in what else
                "link repair" if "repaired" in what else "other")
        return f"proposal: {what.split(':', 1)[0]} {kind}"
    if section == "Needs attention" and line.startswith("  - [[") and rule:
        return f"attention: {rule}"
    if section == "Needs attention" and line.startswith("- also on"):
        return "attention: counts line"
    if section.startswith("Your ticks"):
        return "answer" if line.startswith("- your tick") else "withdrawal"
    if section == "What the dream changed" and line.startswith("  - "):
        return "dream changed"
    return None


def _proposals(mem: Memory) -> list[dict]:
    from aleph_mem.dream.journal import Journal

    return list(Journal(mem.vault.aleph_dir).proposals().values())


def _flagged(root: Path, report, journal: dict) -> set[str]:
    """Notes a dream marked contradicted or superseded, applied or proposed (open)."""
    out = set()
    for a in [*report.applied, *report.proposed]:
        if a["pass"] == "drift" and ("contradicted" in a["what"] or "superseded_by"
                                     in a["what"]):
            m = re.match(r"\[\[([^\]]+)\]\]", a["what"])
            if m:
                out.add(m.group(1) + ".md")
    for p in journal.values():
        act = p.get("action", {})
        if p["state"] == "open" and act.get("pass_name") == "drift" and \
                act.get("set_keys", {}).get("status") == "contradicted":
            out.add(act["path"])
    for rel, data in notes_of(root).items():
        head = data.decode("utf-8", "replace").split("\n---", 1)[0]
        if re.search(r"^status: (contradicted|superseded)", head, re.M):
            out.add(rel)
    return out


def _evidence(root: Path, what: str, texts: dict[str, str]) -> bool:
    m = re.search(r"\[\[([^\]]+)\]\]", what)
    if not m:
        return False
    rel = m.group(1) + ".md"
    text = texts.get(rel) or ""
    head = text.split("\n---", 1)[0] if text.startswith("---") else ""
    if re.search(r"^(expires|valid_until|superseded_by):", head, re.M):
        return True
    if re.search(r"^status:\s*(deprecated|obsolete|old|archived|superseded)", head, re.M):
        return True
    if re.search(r"\b(old|deprecated|obsolete|archive[ds]?|outdated|legacy)\b",
                 "/".join(rel.split("/")[:-1]).casefold()):
        return True
    own = properties(text).get("tags") or []
    tags = re.findall(r"#([\w/-]+)", text) + ([own] if isinstance(own, str) else
                                             [str(t) for t in own])
    if any(t.casefold() in ("old", "deprecated", "obsolete", "outdated", "archive", "legacy")
           for t in tags):
        return True
    first = " ".join(body_of_text(text).split()[:80])
    return bool(re.search(r"\b(deprecated|obsolete|outdated|no longer (used|valid|"
                          r"maintained))\b", first, re.I))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("vaults", nargs="+", help="NAME=DIR")
    ap.add_argument("--keep", type=Path, help="keep each vault under this folder to read")
    ap.add_argument("--json", action="store_true", help="one JSON object per vault")
    args = ap.parse_args()
    for spec in args.vaults:
        name, _, folder = spec.partition("=")
        result = run(name, Path(folder).expanduser(), args.keep)
        print(json.dumps(result) if args.json else json.dumps(result, indent=1), flush=True)


if __name__ == "__main__":
    main()
