"""The LongMemEval runner on a few questions generated in the benchmark's own format (a
unit test of the runner, never its figures): a haystack becomes a ChatGPT export that is
imported as sessions, the answer sessions are found and scored with the official metrics,
an abstention question is skipped, and a session that shares one word with the question
(the near miss) ranks below the ones that answer it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import REPO

FILLER = ["We talked about the weather and a recipe for bread.",
          "Planning a trip to the coast; the train times were confusing.",
          "A question about houseplants that need little light.",
          "Some advice on a birthday present for a colleague."]


def question(qid: str, qtype: str, q: str, answers: dict[str, str]) -> dict:
    ids = [f"{qid}-s{i}" for i in range(len(FILLER))] + list(answers)
    texts = FILLER + list(answers.values())
    return {"question_id": qid, "question_type": qtype, "question": q, "answer": "x",
            "question_date": "2023/06/01 (Thu) 10:00",
            "haystack_session_ids": ids,
            "haystack_dates": [f"2023/05/{10 + i:02d} (Wed) 09:{i:02d}" for i in range(len(ids))],
            "haystack_sessions": [[{"role": "user", "content": t},
                                   {"role": "assistant", "content": "Noted, thank you."}]
                                  for t in texts],
            "answer_session_ids": list(answers)}


def test_the_runner_scores_a_generated_haystack(tmp_path: Path) -> None:
    data = tmp_path / "lme"
    data.mkdir()
    qs = [question("q1", "single-session-user", "Which marathon is the knee surgery delaying?",
                   {"q1-a": "My knee surgery means the Berlin marathon waits until spring."}),
          question("q2", "multi-session", "How many aquarium fish did I buy in total?",
                   {"q2-a": "I bought three aquarium fish, neon tetras.",
                    "q2-b": "Two more aquarium fish today: a pair of guppies I bought."}),
          question("q3_abs", "single-session-user", "What is my cat called?", {})]
    qs[0]["haystack_sessions"][0][0]["content"] += " The marathon on TV was long."  # near miss
    for q in qs:
        (data / f"{q['question_id']}.json").write_text(json.dumps(q))
    ids = tmp_path / "dev.txt"
    ids.write_text("q1\nq2\nq3_abs\n")
    out = tmp_path / "out.json"
    run = subprocess.run([sys.executable, str(REPO / "benchmarks" / "longmemeval.py"),
                          "--data", str(data), "--ids", str(ids), "--half", "dev",
                          "--modes", "fts,bm25", "--json", str(out)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    got = json.loads(out.read_text())
    assert got["questions"] == 2  # the abstention question skipped
    for mode in ("fts", "bm25"):
        rows = {r["question_id"]: r for r in got["results"][mode]}
        assert rows["q1"]["recall_all@5"] == 1.0 and rows["q1"]["ndcg@10"] == 1.0, mode
        assert rows["q2"]["recall_all@5"] == 1.0, mode
    assert "multi-session" in run.stdout and "recall_all@5" in run.stdout
    held = subprocess.run([sys.executable, str(REPO / "benchmarks" / "longmemeval.py"),
                           "--data", str(data), "--ids", str(ids), "--half", "held",
                           "--modes", "bm25"], capture_output=True, text=True, timeout=300)
    assert held.returncode == 1 and "no questions to run" in held.stderr  # all dev here
