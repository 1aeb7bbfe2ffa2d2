"""LongMemEval (Di Wu et al., ICLR 2025; MIT) retrieval at session level: each question's
haystack of dated chat sessions captured as a chat app's sessions are (a ChatGPT export
imported with ``aleph-mem sessions import chatgpt``), the question asked through session
search, and the official metrics: recall_any@k, recall_all@k and NDCG@k over the answer
sessions, by question type, abstention questions (``_abs``) skipped.

    python benchmarks/longmemeval.py --data DIR \
        --ids ../shared/eval/longmemeval/dev_question_ids.txt \
        --half dev --modes fts,hybrid,bm25 [--sample 100] [--json OUT]

DIR holds the questions as fetched (outside this repository, never committed): one JSON
file per question, or one file with the list. ``--half dev`` runs the questions listed in
``--ids``; ``--half held`` the others (run once, at the end). ``bm25`` is the baseline: Okapi
BM25 over each whole session's text, written here. ``--sample N`` takes N questions
stratified by type (the same N on every run).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import re
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
KS = (5, 10)
DATE = re.compile(r"(\d{4})/(\d{2})/(\d{2})(?:\s*\(\w+\))?\s*(\d{1,2}):(\d{2})")
WORD = re.compile(r"\w+")


def load(data: Path) -> list[dict[str, Any]]:
    files = sorted(data.glob("*.json")) if data.is_dir() else [data]
    out: list[dict[str, Any]] = []
    for f in files:
        value = json.loads(f.read_text(encoding="utf-8"))
        out += value if isinstance(value, list) else [value]
    return [q for q in out if isinstance(q, dict) and "haystack_sessions" in q]


def chosen(questions: list[dict[str, Any]], ids: set[str], half: str,
           sample: int | None) -> list[dict[str, Any]]:
    picked = [q for q in questions if not str(q["question_id"]).endswith("_abs")
              and (str(q["question_id"]) in ids) == (half == "dev")]
    if not sample or sample >= len(picked):
        return picked
    by_type: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for q in sorted(picked, key=lambda q: str(q["question_id"])):
        by_type[q["question_type"]].append(q)
    out: list[dict[str, Any]] = []
    while len(out) < sample:  # one of each type in turn: stratified, the same every run
        for group in by_type.values():
            if group and len(out) < sample:
                out.append(group.pop(0))
    return out


def when(text: str) -> float:
    m = DATE.search(text or "")
    if not m:
        return 0.0
    y, mo, d, h, mi = (int(x) for x in m.groups())
    return dt.datetime(y, mo, d, h, mi, tzinfo=dt.UTC).timestamp()


def export(q: dict[str, Any]) -> list[dict[str, Any]]:
    """The haystack as a ChatGPT export: one conversation per session, its turns a chain."""
    convs = []
    for sid, date, turns in zip(q["haystack_session_ids"], q["haystack_dates"],
                                q["haystack_sessions"], strict=True):
        t0 = when(date)
        mapping: dict[str, Any] = {"root": {"id": "root", "message": None, "parent": None}}
        parent = "root"
        for i, turn in enumerate(turns):
            node = f"{sid}-{i}"
            mapping[node] = {"id": node, "parent": parent, "message": {
                "id": node, "author": {"role": turn["role"]}, "create_time": t0 + i,
                "content": {"content_type": "text", "parts": [turn["content"]]}}}
            parent = node
        convs.append({"id": sid, "conversation_id": sid, "title": sid, "create_time": t0,
                      "update_time": t0 + len(turns), "mapping": mapping,
                      "current_node": parent})
    return convs


def ranked_by_search(q: dict[str, Any], root: Path, mode: str) -> tuple[list[str], float]:
    """The haystack imported into a new vault; the sessions search finds, best first (and
    the seconds the vault took to build, embedding included)."""
    from aleph_mem.install.new_vault import init_vault
    from aleph_mem.memory import Memory

    init_vault(root)
    flags = {"embed_model": "none"} if mode == "fts" else {}
    (root.parent / "conversations.json").write_text(json.dumps(export(q)), encoding="utf-8")
    start = time.perf_counter()
    with Memory.open(root, flags) as mem:
        mem.session_import("chatgpt", root.parent / "conversations.json")
        if mode == "hybrid":
            mem.embed()
        built = time.perf_counter() - start
        hits = mem.session_search(q["question"], limit=50, wait_for_model=mode == "hybrid")
    return list(dict.fromkeys(h.session_id for h in hits)), built


def tokens(text: str) -> list[str]:
    return WORD.findall(text.lower())


def ranked_by_bm25(q: dict[str, Any], k1: float = 1.2, b: float = 0.75) -> list[str]:
    """Okapi BM25 over each whole session (every turn's text): the baseline."""
    docs = {sid: Counter(tokens(" ".join(t["content"] for t in turns)))
            for sid, turns in zip(q["haystack_session_ids"], q["haystack_sessions"],
                                  strict=True)}
    n = len(docs)
    avg = sum(sum(c.values()) for c in docs.values()) / max(n, 1)
    df = Counter(w for c in docs.values() for w in c)
    terms = set(tokens(q["question"]))
    scores = {}
    for sid, c in docs.items():
        size = sum(c.values())
        scores[sid] = sum(math.log(1 + (n - df[w] + 0.5) / (df[w] + 0.5)) * c[w] * (k1 + 1)
                          / (c[w] + k1 * (1 - b + b * size / avg)) for w in terms if c[w])
    return sorted(scores, key=lambda s: -scores[s])


def metrics(ranked: list[str], answers: Iterable[str]) -> dict[str, float]:
    """The official session-level retrieval metrics at each k."""
    gold = set(answers)
    out = {}
    for k in KS:
        top = ranked[:k]
        found = gold & set(top)
        out[f"recall_any@{k}"] = float(bool(found))
        out[f"recall_all@{k}"] = float(found == gold)
        dcg = sum(1 / math.log2(i + 2) for i, s in enumerate(top) if s in gold)
        ideal = sum(1 / math.log2(i + 2) for i in range(min(len(gold), k)))
        out[f"ndcg@{k}"] = dcg / ideal if ideal else 0.0
    return out


def run(args: argparse.Namespace) -> dict[str, Any]:
    ids = set(Path(args.ids).read_text().split())
    questions = chosen(load(Path(args.data)), ids, args.half, args.sample)
    if not questions:
        sys.exit(f"no questions to run: {args.data} holds none of the {args.half} half "
                 f"(its ids are listed in {args.ids}; abstention questions are skipped)")
    results: dict[str, list[dict[str, Any]]] = {m: [] for m in args.modes}
    built: dict[str, list[float]] = defaultdict(list)
    for i, q in enumerate(questions, 1):
        for mode in args.modes:
            if mode == "bm25":
                ranked = ranked_by_bm25(q)
            else:
                with tempfile.TemporaryDirectory() as tmp:
                    ranked, secs = ranked_by_search(q, Path(tmp) / "vault", mode)
                built[mode].append(secs)
            results[mode].append({"question_id": q["question_id"],
                                  "question_type": q["question_type"],
                                  **metrics(ranked, q["answer_session_ids"])})
        print(f"{i}/{len(questions)} {q['question_id']}", file=sys.stderr)
    return {"half": args.half, "questions": len(questions), "results": results,
            "build_seconds_median": {m: statistics.median(v) for m, v in built.items()}}


def table(out: dict[str, Any]) -> str:
    keys = ["recall_any@5", "recall_all@5", "recall_all@10", "ndcg@10"]
    lines = [f"LongMemEval_s, {out['half']} half, {out['questions']} questions "
             "(abstention skipped), session level",
             f"{'mode':8} {'type':26} {'n':>4} " + " ".join(f"{k:>13}" for k in keys)]
    for mode, rows in out["results"].items():
        groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for r in rows:
            groups[r["question_type"]].append(r)
        for name, group in [*sorted(groups.items()), ("all", rows)]:
            vals = [statistics.mean(r[k] for r in group) for k in keys]
            lines.append(f"{mode:8} {name:26} {len(group):>4} " + " ".join(
                f"{v * 100:>13.1f}" if not k.startswith("ndcg") else f"{v:>13.3f}"
                for k, v in zip(keys, vals, strict=True)))
    for mode, secs in out["build_seconds_median"].items():
        lines.append(f"{mode}: a haystack captured and indexed in {secs:.1f} s (median)")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True, help="the questions' folder (or one file)")
    ap.add_argument("--ids", required=True, help="dev_question_ids.txt")
    ap.add_argument("--half", choices=("dev", "held"), default="dev")
    ap.add_argument("--modes", type=lambda s: s.split(","), default=["fts", "hybrid", "bm25"])
    ap.add_argument("--sample", type=int, default=None)
    ap.add_argument("--json", help="write every question's figures here")
    args = ap.parse_args()
    out = run(args)
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))
    print(table(out))


if __name__ == "__main__":
    main()
