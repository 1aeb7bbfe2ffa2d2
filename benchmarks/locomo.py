"""LoCoMo retrieval yardstick: one vault and index per conversation, every question asked
through the library's search, a run file in the shared scorer's format.

    python benchmarks/locomo.py --data ../shared/eval/locomo/data/locomo10.json \
        --out bench-out/locomo-fts.jsonl --mode fts [--score]
    python benchmarks/locomo.py ... --mode hybrid --embed-quantized on   # the int8 model

The vault of each conversation is written by the shared exporter (locomo_eval.py, found
beside --data), exactly as ../shared/eval/locomo/README.md describes. The data is never
copied into this repository.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from aleph_mem.dream.runner import Dream
from aleph_mem.index.search import Fusion
from aleph_mem.install.new_vault import init_vault
from aleph_mem.memory import Memory

DEPTH = 30


def load_eval_module(eval_dir: Path):
    spec = importlib.util.spec_from_file_location("locomo_eval", eval_dir / "locomo_eval.py")
    if spec is None or spec.loader is None:
        sys.exit(f"cannot load {eval_dir / 'locomo_eval.py'}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def result_ids(hits) -> list[str]:
    out = []
    for h in hits:
        out.append(f"{h.path}#^{h.block_id}" if h.block_id else h.path)
    return out


def run(args: argparse.Namespace) -> dict:
    eval_dir = Path(args.eval_dir or Path(args.data).resolve().parent.parent)
    le = load_eval_module(eval_dir)
    data = le.load(args.data)
    for i, sample in enumerate(data):
        sample["_idx"] = i
    queries, _ = le.build_queries(data)
    work = Path(args.workdir or tempfile.mkdtemp(prefix="aleph-locomo-"))
    index_s, latencies, n = [], [], 0
    embed_s: list[tuple[int, float]] = []
    dream_changes: list[int] = []
    fusion = Fusion(**{k: v for k, v in (("fts_weight", args.fts_weight),
                                         ("vector_weight", args.vector_weight),
                                         ("note_share", args.note_share),
                                         ("min_cosine", args.min_cosine),
                                         ("note_spread", args.note_spread),
                                         ("neighbour_share", args.neighbour_share))
                     if v is not None})
    out_path = Path(args.out)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    with out_path.open("w", encoding="utf-8") as out:
        for sample in data:
            sid = sample["sample_id"]
            root = work / sid
            if not root.exists():
                le.export_vault([sample], root)
            init_vault(root)
            t0 = time.perf_counter()
            settings = {"embed_model": "none"} if args.mode == "fts" else \
                {"embed_quantized": args.embed_quantized}
            with Memory.open(root, settings) as mem:
                mem.reindex(rebuild=True)
                index_s.append(time.perf_counter() - t0)
                if args.dream:
                    dreamt = Dream(mem.store, force=True).run()
                    dream_changes.append(len(dreamt.applied) + len(dreamt.proposed))
                if args.mode != "fts":
                    t1 = time.perf_counter()
                    embed_s.append((mem.embed(), time.perf_counter() - t1))
                for q in queries:
                    if q["conversation"] != sid:
                        continue
                    t = time.perf_counter()
                    hits = mem.search(q["question"], limit=DEPTH, group=args.group, mode=args.mode,
                                      fusion=fusion).hits
                    latencies.append((time.perf_counter() - t) * 1000)
                    out.write(json.dumps({"qid": q["qid"], "results": result_ids(hits)}) + "\n")
                    n += 1
    lat = sorted(latencies)
    figures = {"mode": args.mode, "conversations": len(data), "questions": n,
               "index_s_median": round(statistics.median(index_s), 3),
               "search_ms_p50": round(lat[len(lat) // 2], 2),
               "search_ms_p95": round(lat[int(len(lat) * 0.95)], 2),
               "embedded_chunks": sum(n for n, _ in embed_s),
               "embed_s": round(sum(t for _, t in embed_s), 1), "fusion": fusion.__dict__,
               "dream_changes": sum(dream_changes) if args.dream else None}
    print(json.dumps(figures))
    if args.score:
        for cats in ("1,2,3,4", "5"):  # the headline, and the adversarial ones apart
            subprocess.run([sys.executable, str(eval_dir / "locomo_eval.py"), "score",
                            "--data", args.data, "--run-file", str(out_path),
                            "--categories", cats], check=True)
    return figures


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True, help="a LoCoMo JSON file (any subset)")
    ap.add_argument("--out", required=True, help="run file to write (JSONL)")
    ap.add_argument("--mode", default="fts", choices=["fts", "vector", "hybrid"])
    ap.add_argument("--eval-dir", help="folder holding locomo_eval.py (default: beside --data)")
    ap.add_argument("--workdir", help="where the vaults are built (default: a temp folder)")
    ap.add_argument("--score", action="store_true", help="score the run with the shared scorer")
    ap.add_argument("--group", action="store_true", help="one hit per note (as the CLI shows)")
    ap.add_argument("--embed-quantized", default="off", choices=["off", "on"],
                    help="the int8 model derived from the bundled one (int8.py)")
    ap.add_argument("--dream", action="store_true", help="run the dream passes before asking")
    for name in ("fts-weight", "vector-weight", "note-share", "min-cosine", "note-spread",
                 "neighbour-share"):
        ap.add_argument(f"--{name}", type=float, help="override the default fusion setting")
    run(ap.parse_args())


if __name__ == "__main__":
    main()
