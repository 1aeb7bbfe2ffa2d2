"""consolidate with an LLM (docs/dream.md, consolidate): reworded duplicates the word
rules cannot see, judged pair by pair, under the same precision rule as the deterministic tier.

The model only decides between options the code allows (MERGE, ABSORB_A/B, COEXIST, LINK),
refers to facts by number, and every verdict is checked by code: a merge must account for
every fact; a fact the model calls a repeat of another must state the same numbers, names,
dates and negations ("port 5432" never repeats "port 6543"); a fact carried over must not
restate a keeper's fact with another value (that is a contradiction, drift's business).
A person's notes are only ever proposed, one checkbox per merge."""

from __future__ import annotations

import hashlib

from aleph_mem.dream.consolidate import (
    MIN_MERGE_WORDS,
    keeper_order,
    merge_actions,
    near_pairs,
    normalized,
    vector_pairs,
)
from aleph_mem.dream.judge import Judge, fence
from aleph_mem.dream.view import Action, NoteInfo, Snapshot, body_of, facts_of
from aleph_mem.notes.facts import content_words, fact_tokens_text, jaccard

MERGE_SAFETY_FLOOR = 0.35
SAME_STATEMENT = 0.6  # word Jaccard (fact tokens aside) above which two facts restate one
ASK_COSINE = 0.85  # note vectors this close are worth a question (the code still decides)

SYSTEM = ("You decide whether two notes should become one. Their facts are numbered. "
          'Answer with one JSON object: {"decision": "MERGE" | "ABSORB_A" | "ABSORB_B" | '
          '"COEXIST" | "LINK", "facts": [{"text": "...", "from": [fact numbers]}], '
          '"duplicates": [[fact number, number of the kept fact it repeats]]}. For MERGE, '
          "every input fact must appear in `from` of an output fact or in `duplicates`. "
          "ABSORB_A means note 1 already says everything note 2 says: pair every fact of "
          "note 2 with the fact of note 1 it repeats, in `duplicates`; ABSORB_B the "
          "reverse. Two facts with different numbers, names, dates or a negation are never "
          "repeats.")


def merge_safety(a: list[str], b: list[str], novel: int, same_first_word: bool) -> float:
    fa, fb = {f.casefold() for f in a}, {f.casefold() for f in b}
    jac = len(fa & fb) / len(fa | fb) if fa | fb else 0.0
    score = 0.5 * jac + 0.5 * (1 - novel / max(1, len(b))) + (0.15 if same_first_word else 0)
    return max(0.0, min(1.0, score))


def validate_merge(obj: object, n_facts: int, n_first: int | None = None) -> dict | None:
    """A MERGE must account for every input fact: cited by an output fact, or named as a
    duplicate of a fact that is kept. ABSORB_A (note 1 already says all of note 2) must
    name every fact of note 2 as a duplicate of a fact of note 1; ABSORB_B the reverse.
    Anything else is COEXIST (no change)."""
    decisions = ("MERGE", "COEXIST", "LINK", "ABSORB_A", "ABSORB_B")
    if not isinstance(obj, dict) or obj.get("decision") not in decisions:
        return None
    if obj["decision"] in ("ABSORB_A", "ABSORB_B"):
        return _validate_absorb(obj, n_facts, n_facts if n_first is None else n_first)
    if obj["decision"] != "MERGE":
        return {"decision": obj["decision"]}
    facts, dups = obj.get("facts"), obj.get("duplicates", [])
    if not isinstance(facts, list) or not isinstance(dups, list):
        return None
    cited: set[int] = set()
    for f in facts:
        ids = f.get("from") if isinstance(f, dict) else None
        if not isinstance(ids, list) or not ids or not all(
                isinstance(i, int) and 1 <= i <= n_facts for i in ids):
            return {"decision": "COEXIST"}
        cited |= set(ids)
    pairs = []
    for d in dups:
        if not (isinstance(d, list) and len(d) == 2 and all(isinstance(i, int) for i in d)
                and 1 <= d[0] <= n_facts and d[1] in cited):
            return {"decision": "COEXIST"}
        pairs.append((d[0], d[1]))
    if cited | {a for a, _ in pairs} != set(range(1, n_facts + 1)):
        return {"decision": "COEXIST"}  # a fact would be lost
    return {"decision": "MERGE", "duplicates": sorted({a for a, _ in pairs}),
            "pairs": sorted(pairs)}


def _validate_absorb(obj: dict, n_facts: int, n_first: int) -> dict:
    first = set(range(1, n_first + 1))
    second = set(range(n_first + 1, n_facts + 1))
    absorbed, keeper = (second, first) if obj["decision"] == "ABSORB_A" else (first, second)
    dups = obj.get("duplicates")
    pairs = {tuple(d) for d in dups if isinstance(d, list) and len(d) == 2} \
        if isinstance(dups, list) else set()
    covered = {a for a, k in pairs if a in absorbed and k in keeper}
    if not absorbed or covered != absorbed:
        return {"decision": "COEXIST"}  # the absorbed note says something the keeper lacks
    return {"decision": obj["decision"],
            "pairs": sorted((a, k) for a, k in pairs if a in absorbed and k in keeper)}


def restates(a: str, b: str) -> bool:
    """Two facts that make the same statement (most of the same words once numbers, names
    and negations are set aside)."""
    def plain(text: str) -> set[str]:
        return {w for w in content_words(text) if not w.isdigit()} - fact_tokens_text(text)
    return jaccard(plain(a), plain(b)) >= SAME_STATEMENT


def precise(verdict: dict, facts: list[str], n_first: int) -> bool:
    """The precision rule on a verdict: every pair the model calls a repeat states the same
    fact tokens; no fact carried into the keeper restates a keeper's fact with another
    value."""
    for a, k in verdict.get("pairs", []):
        if fact_tokens_text(facts[a - 1]) != fact_tokens_text(facts[k - 1]):
            return False  # "port 5432" is no repeat of "port 6543"
    if verdict["decision"] != "MERGE":
        return True
    dup = set(verdict["duplicates"])
    keeper = facts[:n_first]
    for i, fact in enumerate(facts[n_first:], n_first + 1):
        if i in dup:
            continue
        for kf in keeper:
            if restates(fact, kf) and fact_tokens_text(fact) != fact_tokens_text(kf):
                return False  # carried, it would contradict the keeper: not a merge
    return True


def llm_pairs(snap: Snapshot, notes: list[NoteInfo]) -> list[tuple[NoteInfo, NoteInfo]]:
    """Pairs worth asking about: near duplicates the word rules found but could not settle,
    then notes whose vectors are nearly the same whatever their titles and folders
    (reworded duplicates). Keeper first."""
    seen: set[tuple[str, str]] = set()
    out = []
    for a, b, how, _ in near_pairs(snap, notes):
        if how != "text":
            seen.add((a.path, b.path))
            first, second = sorted((a, b), key=keeper_order)
            out.append((first, second))
    vecs = snap.vectors()
    ranked = sorted(vector_pairs(notes, vecs, ASK_COSINE, by_folder=False),
                    key=lambda p: -p[2])
    for a, b, _ in ranked:
        if (a.path, b.path) not in seen and normalized(a) != normalized(b):
            seen.add((a.path, b.path))
            first, second = sorted((a, b), key=keeper_order)
            out.append((first, second))
    return out


def plan_consolidate_llm(snap: Snapshot, judge: Judge, max_pairs: int = 20) -> tuple[
        list[Action], set[str]]:
    """Near and reworded duplicates, judged by the model, checked by code. Returns the
    actions and the paths it decided about (their deterministic proposals drop)."""
    notes = [n for n in snap.active()
             if not n.permanent and len(normalized(n).split()) >= MIN_MERGE_WORDS]
    actions: list[Action] = []
    decided: set[str] = set()
    for keep, drop in llm_pairs(snap, notes)[:max_pairs]:
        if keep.path in decided or drop.path in decided:
            continue
        fk, fd = facts_of(keep), facts_of(drop)
        numbered = [f"{i}. {f}" for i, f in enumerate([*fk, *fd], 1)]
        prompt = "\n\n".join([fence(1, keep.display, "\n".join(numbered[:len(fk)]), ""),
                              fence(2, drop.display, "\n".join(numbered[len(fk):]), "")])
        bodies = [hashlib.sha256(body_of(n).encode()).hexdigest() for n in (keep, drop)]
        n_facts, n_first = len(fk) + len(fd), len(fk)
        verdict = judge.ask("consolidate", bodies, SYSTEM, prompt,
                            lambda obj, n=n_facts, k=n_first: validate_merge(obj, n, k))
        if verdict is None:
            continue
        decided |= {keep.path, drop.path}
        if not precise(verdict, [*fk, *fd], n_first):
            continue
        if verdict["decision"] in ("ABSORB_A", "ABSORB_B"):  # nothing new: archive into it
            winner, loser = (keep, drop) if verdict["decision"] == "ABSORB_A" else (drop, keep)
            actions += merge_actions(winner, loser, True, f"the model's {verdict['decision']}"
                                     ", every fact repeated", carried=[])
            continue
        if verdict["decision"] != "MERGE":
            continue
        dup = set(verdict["duplicates"])
        known = {f.casefold() for f in fk}
        novel = [f for i, f in enumerate(fd, len(fk) + 1)
                 if i not in dup and f.casefold() not in known]
        same_first = keep.title.split()[:1] == drop.title.split()[:1]
        if merge_safety(fk, fd, len(novel), same_first) < MERGE_SAFETY_FLOOR:
            continue
        actions += merge_actions(keep, drop, True, "the model's MERGE, every fact accounted "
                                 "for", carried=[f"- {f}" for f in novel])
    return actions, decided
