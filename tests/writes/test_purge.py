"""`aleph-mem purge`: a secret pasted into a note, then removed, is kept in stored versions,
the index and (through a shape the redactor does not know) a captured transcript; purge
takes it out of all of them, leaves history readable and undoable without it, logs what it
did without the text, and leaves a near miss (another token) alone."""

from __future__ import annotations

import json
import zlib
from pathlib import Path

from conftest import open_mem, write
from session_helpers import cli

# a shape no rule knows (an in-house token): only purge can take it out of history
SECRET = "acme-int-7Fq2ZrX9pLw4Tn8Vb3Kd"
NEAR = "acme-int-9Hs5YtB2mQc7Rj4Ne6Wx"


def kept_anywhere(vault: Path, text: str) -> list[str]:
    out = []
    for p in vault.rglob("*"):
        if not p.is_file():
            continue
        data = p.read_bytes()
        if "objects" in p.parts and not p.suffix:
            data = zlib.decompress(data)
        if text.encode() in data:
            out.append(str(p.relative_to(vault)))
    return out


def test_purge_takes_a_secret_out_of_every_stored_version(vault: Path) -> None:
    note = write(vault, "notes/deploy.md", "# Deploy\n\nsteps for the heron deploy\n")
    cli("--vault", str(vault), "index")
    with open_mem(vault) as mem:
        first = mem.show("notes/deploy.md").hash
        mem.write_bytes("notes/deploy.md", note.read_bytes() + f"ref {SECRET}\n".encode(),
                        first)
        second = mem.show("notes/deploy.md").hash
        mem.write_bytes("notes/deploy.md", note.read_bytes().replace(
            f"ref {SECRET}\n".encode(), f"other {NEAR}\n".encode()), second)
        still = mem.show("notes/deploy.md").hash
    write(vault, "notes/runbook.md", f"# Runbook\n\nuse {SECRET} to log in\n")
    cli("--vault", str(vault), "index")
    (vault / ".aleph" / "raw").mkdir(exist_ok=True)
    raw = vault / ".aleph" / "raw" / "leftover.jsonl"
    raw.write_text(json.dumps({"text": f"I pasted {SECRET} here"}) + "\n")
    assert kept_anywhere(vault, SECRET)
    with open_mem(vault) as mem:  # history hands the old version back before the purge
        assert SECRET in mem.store.objects.get(second).decode()

    out = cli("--vault", str(vault), "purge", "--json", stdin=SECRET + "\n")
    report = json.loads(out.stdout)
    assert report["versions"] >= 2 and report["notes"] == ["notes/runbook.md"]
    assert report["files"] >= 1
    assert kept_anywhere(vault, SECRET) == []
    assert kept_anywhere(vault, NEAR)  # the near miss stays, in the note and its versions
    assert "[REDACTED:purged]" in (vault / "notes/runbook.md").read_text()
    assert (vault / "notes/deploy.md").read_bytes() == note.read_bytes()
    with open_mem(vault) as mem:
        old = mem.store.objects.get(second).decode()  # the old version still reads, masked
        assert "ref " + "*" * len(SECRET) in old and "steps for the heron deploy" in old
        assert mem.show("notes/deploy.md").hash == still
        purge = [e for e in mem.log(limit=5) if e.kind == "purge"]
        assert len(purge) == 1 and SECRET not in json.dumps(purge[0].as_json())
        assert not mem.search(SECRET[9:]).hits  # the index was rebuilt without it
    # the edit that added it can still be undone (to the masked text of then)
    out = cli("--vault", str(vault), "undo", "--json", json.loads(cli(
        "--vault", str(vault), "log", "notes/deploy.md", "--json").stdout)[0]["id"])
    assert out.returncode == 0
    assert SECRET not in (vault / "notes/deploy.md").read_text()


def test_purge_refuses_a_short_text_and_changes_nothing(vault: Path) -> None:
    write(vault, "notes/a.md", "# A\n\nthe word heron\n")
    cli("--vault", str(vault), "index")
    before = (vault / "notes/a.md").read_bytes()
    out = cli("--vault", str(vault), "purge", stdin="heron", check=False)
    assert out.returncode == 1 and "at least 8 characters" in out.stderr
    assert (vault / "notes/a.md").read_bytes() == before
