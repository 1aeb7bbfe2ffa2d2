"""Vectors at scale: embedding throughput and memory with the bundled model, and hybrid
search latency with a full vector table.

    python benchmarks/vectors.py --sizes 10000,100000 [--sample 640]

For each generated vault: --sample chunks are embedded for real (throughput in chunks/s,
batch 32, one thread), the rest of the vector table is filled with random unit vectors
(sqlite-vec's brute-force KNN costs the same whatever the values, so latency is measured
truly while a full first embed, about 25-40 chunks/s here, would take hours at 100k), then
200 hybrid queries run in one process, the query embedding included. Prints the
projected full first-embed time from the measured throughput, and peak RSS.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import time
from pathlib import Path

import numpy as np
from scale import add_vault_args, generated_vault, queries_for, search_times

from aleph_mem.index import db, vectors
from aleph_mem.memory import Memory


def fill(mem: Memory, sample: int) -> dict:
    model = mem.embedder()
    assert model is not None, mem.vector_problem
    vectors.load_extension(mem.store.con)
    vectors.ensure_table(mem.store.con, model.name, model.dim)
    rows = mem.store.con.execute("SELECT c.id, f.title, f.heading, f.body FROM chunks c JOIN "
                           "chunks_fts f ON f.rowid = c.id WHERE c.embedded = 0").fetchall()
    texts = [vectors.embed_text(t, h, b) for _, t, h, b in rows[:sample]]
    t = time.perf_counter()
    real = model.embed(texts)
    rate = len(texts) / (time.perf_counter() - t)
    rng = np.random.default_rng(1)

    def stand_in(_: int) -> bytes:  # one random unit vector at a time: no big arrays here
        v = rng.standard_normal(model.dim, dtype=np.float32)
        return (v / np.linalg.norm(v)).tobytes()

    with db.transaction(mem.store.con):
        mem.store.con.executemany("INSERT INTO vec_chunks(chunk_id, embedding) VALUES (?, ?)",
                            ((cid, np.asarray(real[i], np.float32).tobytes() if i < len(real)
                              else stand_in(i)) for i, (cid, *_) in enumerate(rows)))
        mem.store.con.execute("UPDATE chunks SET embedded = 1")
    return {"chunks": len(rows), "embed_chunks_per_s": round(rate, 1),
            "projected_first_embed_min": round(len(rows) / rate / 60, 1)}


def latencies(mem: Memory, qs: list[str]) -> dict:
    mem.search("warm up")
    lat = search_times(mem, qs)
    return {"hybrid_ms_p50": round(statistics.median(lat), 1),
            "hybrid_ms_p95": round(lat[int(len(lat) * 0.95) - 1], 1)}


def measure_embedded(root: Path, args: argparse.Namespace) -> None:
    """Search latency on real vectors (the generated vault's queries file, if beside it)."""
    qs = queries_for(root)
    with Memory.open(root) as mem:
        state = mem.vector_state()
        figures = {"vault": str(root), "vectors": state.get("embedded"),
                   "pending": state.get("pending"), **latencies(mem, qs)}
        assert (said := mem.search(qs[0] if qs else "warm up").notice) == "", said
    figures["peak_rss_mib"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    print(json.dumps(figures), flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="10000")
    ap.add_argument("--sample", type=int, default=640)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--embedded", help="a vault already fully embedded for real (e.g. by "
                    "`aleph-mem index --embed`): measure its search as it is, nothing filled")
    add_vault_args(ap)
    args = ap.parse_args()
    if args.embedded:
        measure_embedded(Path(args.embedded), args)
        return
    for count in (int(s) for s in args.sizes.split(",")):
        root = generated_vault(args, count)
        with Memory.open(root) as mem:
            mem.reindex()
            figures = {"notes": count, **fill(mem, args.sample)}
            qs = queries_for(root)
            figures.update(latencies(mem, qs))
            assert (said := mem.search(qs[0] if qs else "warm up").notice) == "", said
            if args.profile:
                import cProfile
                import pstats

                cProfile.runctx("for q in qs[:50]: mem.search(q, limit=10)", globals(),
                                {"mem": mem, "qs": qs}, "/tmp/vec.prof")
                pstats.Stats("/tmp/vec.prof").sort_stats("cumtime").print_stats(12)
            figures["peak_rss_mib"] = round(resource.getrusage(
                resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
            mem.store.con.execute("DROP TABLE vec_chunks")
            mem.store.con.execute("DELETE FROM meta WHERE key = 'vec_model'")
            mem.store.con.execute("UPDATE chunks SET embedded = 0")
        print(json.dumps(figures), flush=True)


if __name__ == "__main__":
    main()
