"""The scoring pipeline after fusion, on real notes and a real index: status and time
decay, link-graph expansion, MMR diversity, successors of superseded notes, a floor."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from conftest import write

from aleph_mem.index.search import Fusion
from aleph_mem.memory import Memory

FTS_ONLY = {"embed_model": "none"}


def _mem(root: Path) -> Memory:
    m = Memory.open(root, FTS_ONLY)
    m.reindex()
    return m


def test_a_superseded_note_is_followed_by_the_note_that_replaced_it(vault: Path) -> None:
    write(vault, "notes/old-port.md", "---\nstatus: superseded\nsuperseded_by: \"[[endpoint]]\"\n"
          "---\n# Old port\n\nThe staging server listens on port 8080 for the billing api.\n")
    write(vault, "notes/endpoint.md", "# Endpoint now\n\nIt answers on 9090 since March.\n")
    write(vault, "notes/other.md", "# Other\n\nThe billing api has a staging server too.\n")
    with _mem(vault) as mem:
        hits = mem.search("billing api staging server port 8080", limit=5).hits
        paths = [h.path for h in hits]
        assert sorted(paths) == ["notes/endpoint.md", "notes/old-port.md", "notes/other.md"]
        assert paths.index("notes/endpoint.md") == paths.index("notes/old-port.md") + 1
        # without the stage the replacement is not found: it shares no words with the query
        plain = mem.search("billing api staging server port 8080", limit=5,
                           fusion=Fusion(surface_successors=False)).hits
        assert sorted(h.path for h in plain) == ["notes/old-port.md", "notes/other.md"]


def test_stale_notes_are_down_weighted_and_explain_says_so(vault: Path) -> None:
    body = "The deploy script runs the migrations first, then restarts the workers.\n"
    write(vault, "a.md", "---\nstatus: stale\n---\n# Deploy A\n\n" + body)
    write(vault, "b.md", "# Deploy B\n\n" + body)
    with _mem(vault) as mem:
        hits = mem.search("deploy migrations workers", explain=True).hits
        assert [h.path for h in hits] == ["b.md", "a.md"]
        assert hits[1].explain["status_factor"] == 0.5
        assert hits[0].explain["status_factor"] == 1.0
        assert hits[1].score < hits[0].score


def test_time_decay_prefers_the_recent_note_and_never_halves_an_old_one(vault: Path) -> None:
    today = dt.date.today()
    body = "Backups go to the blue disk every night at two.\n"
    write(vault, "recent.md", f"---\ndate: {today.isoformat()}\n---\n# Backups\n\n" + body)
    write(vault, "ancient.md", "---\ndate: 2001-01-01\n---\n# Backups\n\n" + body)
    with _mem(vault) as mem:
        hits = mem.search("backups blue disk", explain=True).hits
        assert [h.path for h in hits] == ["recent.md", "ancient.md"]
        assert hits[0].explain["recency_factor"] > 0.99
        assert hits[1].explain["recency_factor"] == 0.9  # 1 - search_recency_weight
        off = mem.search("backups blue disk", fusion=Fusion(recency_weight=0.0), explain=True).hits
        assert [h.explain["recency_factor"] for h in off] == [1.0, 1.0]


def test_link_expansion_brings_in_a_linked_note_that_shares_no_words(vault: Path) -> None:
    write(vault, "hub.md", "# Espresso\n\nDialing in the espresso grinder: see [[beans]].\n")
    write(vault, "beans.md", "# Beans\n\nEthiopian, roasted light, bought on Fridays.\n")
    write(vault, "far.md", "# Far\n\nNothing related at all.\n")
    with _mem(vault) as mem:
        assert [h.path for h in mem.search("espresso grinder").hits] == ["hub.md"]
        linked = mem.search("espresso grinder", fusion=Fusion(link_share=0.3), explain=True).hits
        assert [h.path for h in linked] == ["hub.md", "beans.md"]
        assert linked[1].explain["link_bonus"] > 0
        assert linked[1].anchor == ""  # shown by its title row


def test_mmr_pushes_a_repeat_below_a_different_answer(vault: Path) -> None:
    same = "Rotate the signing keys every ninety days using the vault cli rotate command.\n"
    write(vault, "keys-1.md", "# Keys one\n\n" + same)
    write(vault, "keys-2.md", "# Keys two\n\n" + same)
    write(vault, "keys-3.md", "# Keys three\n\nSigning keys live in the hardware module; "
          "rotation needs two people.\n")
    with _mem(vault) as mem:
        q = "rotate signing keys"
        plain = [h.path for h in mem.search(q, fusion=Fusion(mmr_lambda=1.0)).hits]
        assert plain[:2] == ["keys-1.md", "keys-2.md"]
        diverse = [h.path for h in mem.search(q, fusion=Fusion(mmr_lambda=0.5)).hits]
        assert diverse == ["keys-1.md", "keys-3.md", "keys-2.md"]


def test_the_floor_drops_hits_far_below_the_best(vault: Path) -> None:
    write(vault, "strong.md", "# Kubernetes upgrade\n\nKubernetes upgrade runbook: drain, "
          "upgrade kubelet, uncordon. Kubernetes upgrade done.\n")
    for i in range(30):
        write(vault, f"filler/{i}.md", f"# Filler {i}\n\n" + "words " * 200 + "upgrade\n")
    with _mem(vault) as mem:
        kept = mem.search("kubernetes upgrade", limit=40, fusion=Fusion(min_score=0.5)).hits
        assert [h.path for h in kept] == ["strong.md"]
        everything = mem.search("kubernetes upgrade", limit=40, fusion=Fusion(min_score=0.0)).hits
        assert len(everything) == 31


def test_a_date_in_the_query_lifts_notes_dated_then(vault: Path) -> None:
    body = "We moved the backups to the blue disk and checked the restore.\n"
    write(vault, "early.md", "---\ndate: 2023-05-02\n---\n# Backups\n\n" + body)
    write(vault, "mid.md", "---\ndate: 2023-06-03\n---\n# Backups\n\n" + body)  # 3 days on
    write(vault, "late.md", "---\ndate: 2023-09-10\n---\n# Backups\n\n" + body)
    with _mem(vault) as mem:
        plain = mem.search("backups blue disk", explain=True).hits
        assert [h.path for h in plain] == ["late.md", "mid.md", "early.md"]  # newest first
        assert {h.explain["date_factor"] for h in plain} == {1.0}
        dated = mem.search("backups blue disk in May 2023", explain=True).hits
        assert [h.path for h in dated] == ["mid.md", "early.md", "late.md"]
        assert [h.explain["date_factor"] for h in dated] == [1.5, 1.5, 1.0]
        day = mem.search("what happened to the backups on 10 September 2023?", explain=True).hits
        assert day[0].path == "late.md" and day[0].explain["date_factor"] == 1.5
    with Memory.open(vault, {**FTS_ONLY, "search_date_boost": 0}) as mem:
        assert [h.path for h in mem.search("backups blue disk in May 2023").hits] == \
            ["late.md", "mid.md", "early.md"]
