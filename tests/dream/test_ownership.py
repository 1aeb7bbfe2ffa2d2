"""Who owns a note is who last wrote it, the dream aside (docs/dream.md): a person through
an editor or the CLI, an agent through MCP or a hook. Every path by which a note changes
hands, each followed by a dream that may write only to an agent's note; the near-miss
control on each is the same note last written by an agent, which the dream marks itself."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from pathlib import Path

from conftest import open_mem, write
from dream_helpers import NOW

from aleph_mem.dream.journal import Journal
from aleph_mem.dream.runner import Dream
from aleph_mem.memory import Memory

YEAR_AGO = (NOW - dt.timedelta(days=400)).timestamp()
EXPIRED = "---\nstatus: running\nexpires: 2020-01-01\n---\n# Build\n\nThe nightly build.\n"


def cli(vault: Path, *args: str, stdin: str | None = None) -> str:
    done = subprocess.run([sys.executable, "-m", "aleph_mem.cli", "--vault", str(vault), *args],
                          capture_output=True, text=True, timeout=120, input=stdin,
                          env={"ALEPH_MEM_EMBED_MODEL": "none", "PATH": "/usr/bin:/bin",
                               "HOME": str(vault.parent)})
    assert done.returncode == 0, done.stderr
    return done.stdout


def agents_note(vault: Path, path: str = "build.md", text: str = EXPIRED) -> None:
    with Memory.open(vault, actor="mcp:agent") as mem:
        mem.reindex()
        mem.store.writer(actor="mcp:agent").write(path, text.encode(), None)


def dream_writes(vault: Path, path: str) -> tuple[bytes, bytes, list[str]]:
    """The note's bytes before and after a drift run, and what the run proposed."""
    with open_mem(vault) as mem:
        mem.reindex()
        before = (vault / path).read_bytes()
        report = Dream(mem.store, NOW, force=True).run(("drift",))
    return before, (vault / path).read_bytes(), [p["what"] for p in report.proposed]


def answered(vault: Path, mem, passes: tuple[str, ...], mark: str, then: tuple[str, ...]):
    """A dream asks (``passes`` and the digest), the person marks every box on the standing
    page with ``mark`` ("x" ticks, "-" dismisses), and the next run (``then``) answers."""
    Dream(mem.store, NOW, force=True).run((*passes, "digest"))
    page = vault / "_dream/proposals.md"
    page.write_text(page.read_text().replace("- [ ]", f"- [{mark}]"))
    mem.reindex()
    return Dream(mem.store, NOW, force=True).run(then)


def ferry_pair(vault: Path) -> None:
    """Two of a person's notes, word for word the same, in one folder: a merge to ask."""
    same = ("The ferry leaves the harbour at nine and returns at five every weekday, "
            "except in winter.\n")
    write(vault, "notes/Ferry.md", f"# Ferry\n\n{same}")
    write(vault, "notes/Ferry copy.md", f"# Ferry copy\n\n{same}")


def test_the_control_an_agents_note_is_marked_by_the_dream(vault: Path) -> None:
    agents_note(vault)
    before, after, proposed = dream_writes(vault, "build.md")
    assert before == EXPIRED.encode() and b"stale_reason: expired" in after
    assert proposed == []


def test_an_editor_save_makes_the_note_the_persons(vault: Path) -> None:
    agents_note(vault)
    write(vault, "build.md", EXPIRED.replace("nightly", "nightly release"))
    before, after, proposed = dream_writes(vault, "build.md")
    assert after == before and len(proposed) == 1


def test_set_through_the_cli_makes_the_note_the_persons(vault: Path) -> None:
    agents_note(vault)
    cli(vault, "set", "build.md", "owner=me")
    before, after, proposed = dream_writes(vault, "build.md")
    assert b"owner: me" in before and after == before
    assert proposed == ["[[build]]: stale_reason: expired (expired: expires 2020-01-01 has "
                        "passed; your status: running is kept)"]


def test_write_through_the_cli_makes_the_note_the_persons(vault: Path) -> None:
    agents_note(vault)
    from aleph_mem.files.vault import content_hash

    cli(vault, "write", "build.md", "--expect-hash", content_hash(EXPIRED.encode()),
        stdin=EXPIRED.replace("nightly", "weekly"))
    before, after, proposed = dream_writes(vault, "build.md")
    assert b"weekly" in before and after == before and len(proposed) == 1


def test_mv_through_the_cli_makes_the_note_the_persons(vault: Path) -> None:
    agents_note(vault)
    cli(vault, "mv", "build.md", "work/build.md")
    before, after, proposed = dream_writes(vault, "work/build.md")
    assert before == EXPIRED.encode() and after == before and len(proposed) == 1


def test_undo_of_one_agent_event_makes_the_note_the_persons(vault: Path) -> None:
    agents_note(vault)
    with Memory.open(vault, actor="mcp:agent") as mem:
        event = mem.store.writer(actor="mcp:agent").append("build.md", "Runs at two.\n").event
    cli(vault, "undo", event.id)
    before, after, proposed = dream_writes(vault, "build.md")
    assert before == EXPIRED.encode() and after == before and len(proposed) == 1


def test_an_mcp_edit_hands_a_persons_note_to_the_agent(vault: Path) -> None:
    """The near miss of the person's paths: an agent's edit through MCP makes the note the
    agent's, and the dream marks it itself."""
    write(vault, "build.md", EXPIRED)
    with Memory.open(vault, actor="mcp:client") as mem:
        mem.reindex()
        mem.edit_note("build.md", append="Runs at two.\n")
    before, after, proposed = dream_writes(vault, "build.md")
    assert b"Runs at two." in before and b"stale_reason: expired" in after
    assert proposed == []


def test_undoing_a_dream_run_gives_the_note_back_to_its_owner(vault: Path) -> None:
    """A person ticks the proposal, the dream applies it, the person undoes that run (as
    the digest offers): the note is theirs again, and the next dream writes nothing to it."""
    write(vault, "build.md", EXPIRED)
    with open_mem(vault) as mem:
        mem.reindex()
        first = Dream(mem.store, NOW, force=True).run(("drift", "digest"))
        page = vault / "_dream/proposals.md"
        page.write_text(page.read_text().replace("- [ ]", "- [x]"))
        mem.reindex()
        applied = Dream(mem.store, NOW, force=True).run(("drift",))  # no digest of its own
        assert b"stale_reason: expired" in (vault / "build.md").read_bytes()
    digest = vault / first.digest
    assert "undone" not in digest.read_text()
    cli(vault, "undo", applied.run_id)
    assert (vault / "build.md").read_text() == EXPIRED
    # the digest is written anew at once: the run is listed as taken back
    assert f"run `{applied.run_id}`: 1 change(s) undone" in digest.read_text()
    before, after, proposed = dream_writes(vault, "build.md")
    assert before == after == EXPIRED.encode()
    assert proposed == []  # the undo answered the question: it is not asked again
    assert [p["state"] for p in Journal(vault / ".aleph").proposals().values()] == ["applied"]


def test_an_expiry_the_person_undid_is_not_offered_for_the_archive(vault: Path) -> None:
    """The person took the stale mark back: a date that passed is then no evidence for the
    archive (the near miss, kept marked, is offered a week later: test_trust)."""
    (vault / ".aleph" / "config.toml").write_text("decay_min_watch_days = 0\n")
    write(vault, "build.md", EXPIRED)
    os.utime(vault / "build.md", (YEAR_AGO, YEAR_AGO))
    with open_mem(vault) as mem:
        mem.reindex()
        applied = answered(vault, mem, ("drift",), "x", ("drift",))
        mem.undo(applied.run_id)
        later = Dream(mem.store, NOW + dt.timedelta(days=10), force=True).run(("drift", "decay"))
    assert later.proposed == [] and later.applied == []
    assert (vault / "build.md").read_text() == EXPIRED


def test_the_digest_is_written_anew_after_any_undo(vault: Path) -> None:
    """A person's edit undone: today's digest no longer lists it as changed; the edit
    kept (the near miss) is still listed."""
    write(vault, "a.md", "# A\n\nx\n")
    write(vault, "b.md", "# B\n\nx\n")
    with Memory.open(vault) as mem:
        mem.reindex()
        edit = mem.edit_note("a.md", append="more\n")
        mem.edit_note("b.md", append="more\n")
        report = Dream(mem.store, force=True).run(("digest",))
        digest = vault / report.digest
        assert "[[a]]" in digest.read_text() and "[[b]]" in digest.read_text()
    cli(vault, "undo", edit.event.id)
    text = digest.read_text()
    assert "[[a]]" not in text.split("## New and updated notes")[1] and "[[b]]" in text


def test_a_merge_ticked_and_undone_is_not_asked_again_in_part(vault: Path) -> None:
    """The person ticks a merge, the dream applies it, the person undoes the run: no part
    of the merge comes back alone (an "archive (merged)" with no merge)."""
    ferry_pair(vault)
    with open_mem(vault) as mem:
        mem.reindex()
        applied = answered(vault, mem, ("consolidate",), "x", ("consolidate",))
        assert len(applied.answered) == 1  # one checkbox: the keeper's keys and the archive
        assert (vault / "archive/notes/Ferry copy.md").exists()
    cli(vault, "undo", applied.run_id)
    with open_mem(vault) as mem:
        mem.reindex()
        again = Dream(mem.store, NOW, force=True).run(("consolidate", "digest"))
    assert again.proposed == [] and again.applied == []
    assert "merge" not in (vault / "_dream/proposals.md").read_text()  # the undo answered it


def test_a_dismissed_merge_is_dismissed_whole(vault: Path) -> None:
    """`- [-]` on a merge's checkbox answers every part of it: no lone "archive (merged)"
    is left on the page or raised again."""
    ferry_pair(vault)
    with open_mem(vault) as mem:
        mem.reindex()
        again = answered(vault, mem, ("consolidate",), "-", ("consolidate", "digest"))
        page = vault / "_dream/proposals.md"
    assert again.proposed == [] and again.applied == []
    assert [a["why"] for a in again.answered] == ["dismissed: it is not asked again"]
    answers = (vault / again.digest).read_text().split("## Your ticks answered")[1]
    assert "- none" not in answers.split("##")[0]
    states = [p["state"] for p in Journal(vault / ".aleph").proposals().values()]
    assert states == ["dismissed", "dismissed"]
    assert "merged" not in page.read_text()


def test_a_proposal_set_aside_by_a_digest_only_run_is_still_said(vault: Path) -> None:
    """An undo's digest run sets aside a proposal whose note changed but does not run its
    pass; the next run that does says what became of it (withdrawn), never silence; the
    near miss, a proposal that still holds, is raised again."""
    ferry_pair(vault)
    write(vault, "notes/Lease.md", "---\nstatus: signed\nexpires: 2020-01-01\n---\n# Lease\n\nx\n")
    with open_mem(vault) as mem:
        mem.reindex()
        asked = Dream(mem.store, NOW, force=True).run(("consolidate", "drift", "digest"))
        merge = next(p["id"] for p in asked.proposed if p["pass"] == "consolidate")
        write(vault, "notes/Ferry copy.md", "# Ferry copy\n\nThe winter timetable differs "
              "entirely: one boat at noon.\n")
        write(vault, "notes/Lease.md", "---\nstatus: signed\nexpires: 2020-01-01\n---\n"
              "# Lease\n\ny\n")
        mem.reindex()
        Dream(mem.store, NOW, force=True).run(("digest",))  # what an undo runs: no consolidate
        later = Dream(mem.store, NOW, force=True).run(("consolidate", "drift", "digest"))
    assert merge in [w["id"] for w in later.withdrawn]
    assert [p["pass"] for p in later.proposed] == ["drift"]  # the lease: still expired
    assert merge in (vault / later.digest).read_text()
