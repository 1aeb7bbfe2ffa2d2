"""drift on real files: contradictions by date, subjects, the files a note refers to,
supersession."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

from conftest import open_mem, write
from dream_helpers import NOW

from aleph_mem.dream import drift
from aleph_mem.dream.runner import Dream
from aleph_mem.dream.snapshot import snapshot


def dated(vault: Path, rel: str, day: str) -> None:
    t = dt.datetime.fromisoformat(day).replace(tzinfo=dt.UTC).timestamp()
    os.utime(vault / rel, (t, t))


def test_structured_facts_about_one_subject_contradict_by_date(vault: Path) -> None:
    mem = open_mem(vault)
    mem.reindex()
    w = mem.store.writer(actor="mcp:test")
    w.write("people/ana-2024.md", b"---\nsubject: Ana\nupdated: 2024-03-01\n---\n# Ana\n\n"
            b"city:: Lisbon\nrole:: engineer\n", None)
    w.write("people/ana-2026.md", b"---\nsubject: '[[Ana]]'\nupdated: 2026-02-01\n---\n"
            b"# Ana now\n\ncity:: Porto\nrole:: engineer\n", None)
    w.write("people/bo-old.md", b"---\nsubject: Bo\nvalid_from: 2020-01-01\nvalid_until: "
            b"2021-01-01\n---\n# Bo\n\ncity:: Faro\n", None)
    w.write("people/bo-new.md", b"---\nsubject: Bo\nvalid_from: 2022-01-01\n---\n# Bo\n\n"
            b"city:: Braga\n", None)
    for rel, day in (("people/ana-2024.md", "2024-03-01"), ("people/ana-2026.md", "2026-02-01")):
        dated(vault, rel, day)  # each written on the day its `updated` says
    plans = [a for a in drift.plan_fact_conflicts(snapshot(mem.store, NOW))]
    assert [(a.path, a.set_keys, a.reason) for a in plans] == [
        ("people/ana-2024.md", {"status": "contradicted", "superseded_by": "[[people/ana-2026]]",
                                "valid_until": "2026-02-01"},
         "city: Lisbon here, Porto in [[people/ana-2026]]")]  # Bo's periods do not overlap
    Dream(mem.store, NOW, force=True).run(("drift",))
    assert mem.show("people/ana-2024").frontmatter["status"] == "contradicted"
    assert drift.plan_fact_conflicts(snapshot(mem.store, NOW)) == []
    mem.close()


def test_a_subject_meets_the_note_of_that_title_or_alias(vault: Path) -> None:
    mem = open_mem(vault)
    mem.reindex()
    w = mem.store.writer(actor="mcp:test")
    w.write("people/ada.md", b"---\naliases: [Ada L.]\nupdated: 2024-01-01\n---\n# Ada\n\n"
            b"role:: engineer\n", None)
    w.write("log/promotion.md", b"---\nsubject: '[[Ada L.]]'\nupdated: 2026-05-01\n---\n"
            b"# Promotion\n\nrole:: manager\n", None)
    w.write("log/unrelated.md", b"---\nupdated: 2026-06-01\n---\n# Bob\n\nrole:: chef\n", None)
    dated(vault, "people/ada.md", "2024-01-01")
    dated(vault, "log/promotion.md", "2026-05-01")
    plans = drift.plan_fact_conflicts(snapshot(mem.store, NOW))
    assert [(a.path, a.set_keys["superseded_by"], a.reason) for a in plans] == [
        ("people/ada.md", "[[log/promotion]]", "role: engineer here, manager in "
         "[[log/promotion]]")]
    mem.close()


def test_drift_checks_the_files_a_note_refers_to(vault: Path, tmp_path: Path) -> None:
    import hashlib

    project = tmp_path / "proj"
    (project / "src").mkdir(parents=True)
    (project / "src" / "app.py").write_text("print('v1')\n")
    (project / "src" / "lib.py").write_text("x = 1\n")
    sha = hashlib.sha256(b"x = 1\n").hexdigest()
    mem = open_mem(vault)
    mem.reindex()
    w = mem.store.writer(actor="mcp:test")
    root = f"project_root: {project}\n"
    w.write("code/ok.md", f"---\n{root}---\n# Ok\n\nSee `src/app.py` and "
            f"file://{project}/src/app.py.\n".encode(), None)
    # paths the prose merely mentions name things on some machine: never checked (a file://
    # address, an absolute path, a home-folder path), beside the one the note's project holds
    w.write("code/gone.md", f"---\n{root}---\n# Gone\n\nSee `src/old.py`, `{project}/x.rs`, "
            f"`~/.zshrc` and file://{project}/nope.txt.\n".encode(), None)
    # a file the note only embeds is a broken link (lint), not a stale note
    w.write("code/linked.md", b"# Linked\n\n![map](maps/missing.png) and [ok](ok.md)\n", None)
    w.write("code/loose.md", b"# Loose\n\nA path with no root proves nothing: `src/any.py`.\n",
            None)
    w.write("code/source.md", f"---\n{root}related_files: [src/lib.py]\nrelated_files_sha: "
            f"{{src/lib.py: {sha}}}\n---\n# Source\n\nAbout lib.\n".encode(), None)
    w.write("code/vanished.md", f"---\n{root}related_files: [src/deleted.py]\n---\n"
            "# Vanished\n\nAbout a file.\n".encode(), None)
    plans = {a.path: a.set_keys for a in drift.plan_drift(snapshot(mem.store, NOW))}
    assert plans == {"code/gone.md": {"stale_refs": ["src/old.py"],
                                      "status": "stale", "stale_reason": "missing_file"},
                     "code/vanished.md": {"status": "stale", "stale_reason": "missing_file"}}
    (project / "src" / "lib.py").write_text("x = 2\n")  # the source the note is about changed
    plans = {a.path: a.set_keys for a in drift.plan_drift(snapshot(mem.store, NOW))}
    assert plans["code/source.md"] == {"status": "stale", "stale_reason": "source_changed"}
    mem.close()


def test_supersession_is_kept_symmetric(vault: Path) -> None:
    mem = open_mem(vault)
    mem.reindex()
    w = mem.store.writer(actor="mcp:test")
    w.write("a/new.md", b"# New\n\nnow\n", None)
    w.write("a/old.md", b"---\nsuperseded_by: '[[new]]'\n---\n# Old\n\nthen\n", None)
    write(vault, "b/mine-new.md", "---\nsupersedes: '[[mine-old]]'\n---\n# Mine new\n\nx\n")
    write(vault, "b/mine-old.md", "# Mine old\n\ny\n")
    mem.reindex()
    got = [(a.path, a.set_keys, a.propose) for a in
           drift.supersession_pairs(snapshot(mem.store, NOW), {
               (s, r): t for s, t, _, r, _, _ in snapshot(mem.store, NOW).links})]
    assert got == [("a/new.md", {"supersedes": "[[a/old]]"}, False),
                   ("b/mine-old.md", {"superseded_by": "[[b/mine-new]]"}, True)]
    mem.close()


def test_a_persons_newer_note_is_not_asked_for_the_reverse_key(vault: Path) -> None:
    """The older note says `superseded_by`: the person's newer note is not asked to add
    `supersedes` (one question per answer); an agent's newer note gets it (the near miss)."""
    mem = open_mem(vault)
    write(vault, "b/mine-new.md", "# Mine new\n\nx\n")
    write(vault, "b/mine-old.md", "---\nsuperseded_by: '[[mine-new]]'\n---\n# Mine old\n\ny\n")
    mem.reindex()
    w = mem.store.writer(actor="mcp:test")
    w.write("a/new.md", b"# New\n\nnow\n", None)
    w.write("a/old.md", b"---\nsuperseded_by: '[[new]]'\n---\n# Old\n\nthen\n", None)
    snap = snapshot(mem.store, NOW)
    got = [(a.path, a.set_keys) for a in drift.supersession_pairs(
        snap, {(s, r): t for s, t, _, r, _, _ in snap.links})]
    assert got == [("a/new.md", {"supersedes": "[[a/old]]"})]
    mem.close()
