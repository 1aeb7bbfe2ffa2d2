"""Embedding throughput per configuration, on real chunks of a vault.

    python benchmarks/embedding.py VAULT [--sample 1000] [--first-embed]

VAULT must be indexed (`aleph-mem index --no-embed`). On --sample of its chunks, for each
configuration: chunks/s, load time, and whether the vectors equal the reference
(fastembed, one thread) bit for bit; then the projected first embed of the whole vault at
the fastest identical rate. Configurations: fastembed with one thread (what aleph-mem ran
before), the bundled model run directly with one and two ONNX threads, worker processes
(embed/pool.py) with one thread each, and the int8 model derived from it (int8.py) on one
thread and in workers, with its cosine to the reference; then the projected first embed at
the best rate of each kind. ``--first-embed`` then runs the real thing to the end: a copy of
VAULT with its index and no vectors or cache, ``aleph-mem index --embed`` on every core with
the default settings (so the model is chosen as for a person), timed as a whole process with
its peak memory (the largest single process: the embedder, a worker, or the derive).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from aleph_mem.embed import embedders
from aleph_mem.embed.bundled_model import BundledEmbedder
from aleph_mem.embed.pool import PoolEmbedder, cores
from aleph_mem.index import vectors
from aleph_mem.memory import Memory


def chunk_texts(root: Path, sample: int) -> tuple[list[str], int]:
    with Memory.open(root, {"embed_model": "none"}) as mem:
        rows = mem.store.con.execute("SELECT f.title, f.heading, f.body FROM chunks c JOIN "
                               "chunks_fts f ON f.rowid = c.id ORDER BY c.id").fetchall()
    step = max(1, len(rows) // sample)
    return [vectors.embed_text(*r) for r in rows[::step][:sample]], len(rows)


def timed(make, texts: list[str]) -> tuple[float, float, list[np.ndarray]]:
    t = time.perf_counter()
    model = make()
    loaded = time.perf_counter() - t
    t = time.perf_counter()
    out = model.embed(texts)
    rate = len(texts) / (time.perf_counter() - t)
    if hasattr(model, "close"):
        model.close()
    return loaded, rate, out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("vault", type=Path)
    ap.add_argument("--sample", type=int, default=1000)
    ap.add_argument("--first-embed", action="store_true",
                    help="then embed a copy of the whole vault from nothing (minutes)")
    args = ap.parse_args()
    texts, total = chunk_texts(args.vault, args.sample)
    cache = Path(tempfile.mkdtemp(prefix="aleph-emb-"))
    folder = embedders.builtin_folder(cache)
    name = embedders.BUILTIN
    configs = {
        "fastembed, 1 thread": lambda: embedders.FastEmbedder(name, folder, None, 1),
        "direct, 1 thread": lambda: BundledEmbedder(name, folder, 1),
        "direct, 2 threads": lambda: BundledEmbedder(name, folder, 2),
        f"{cores()} workers, 1 thread each": lambda: PoolEmbedder(
            BundledEmbedder(name, folder, 1), cache, cores()),
        "int8 derived, 1 thread": lambda: embedders.load(embedders.QUANTIZED, cache, 1),
        f"int8 derived, {cores()} workers": lambda: PoolEmbedder(
            embedders.load(embedders.QUANTIZED, cache, 1), cache, cores()),
    }
    embedders.load(embedders.QUANTIZED, cache, 1)  # derived once, before the clock runs
    reference = None
    best = 0.0
    best_int8 = 0.0
    worst_int8 = 1.0
    for label, make in configs.items():
        loaded, rate, vecs = timed(make, texts)
        if reference is None:
            reference = vecs
        same = all(np.array_equal(a, b) for a, b in zip(reference, vecs, strict=True))
        cosine = min(float(np.dot(a, b)) for a, b in zip(reference, vecs, strict=True))
        if same:
            best = max(best, rate)
        elif label.startswith("int8"):
            best_int8 = max(best_int8, rate)
            worst_int8 = min(worst_int8, cosine)
        print(json.dumps({"config": label, "load_s": round(loaded, 2),
                          "chunks_per_s": round(rate, 1), "identical": same,
                          "min_cosine": round(cosine, 6)}), flush=True)
    print(json.dumps({"vault_chunks": total, "sample": len(texts),
                      "first_embed_minutes_at_best_identical": round(total / best / 60, 1),
                      "first_embed_minutes_at_best_int8": round(total / best_int8 / 60, 1)
                      if best_int8 else None, "int8_min_cosine": round(worst_int8, 5)}))

    if args.first_embed:
        print(json.dumps(first_embed(args.vault)))


# runs a command and says its peak memory (KiB, on stderr): this process's own children only
PEAK_OF = ("import resource, subprocess, sys; code = subprocess.run(sys.argv[1:]).returncode; "
           "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); "
           "sys.exit(code)")


def first_embed(vault: Path) -> dict:
    copy = Path(tempfile.mkdtemp(prefix="aleph-first-embed-")) / vault.name
    shutil.copytree(vault, copy, ignore=shutil.ignore_patterns("cache", "local"))
    with Memory.open(copy, {"embed_model": "none"}) as mem:  # the index, without vectors
        mem.store.con.execute("UPDATE chunks SET embedded = 0")
        mem.store.con.execute("DELETE FROM meta WHERE key = 'vec_model'")
    command = [sys.executable, "-m", "aleph_mem.cli", "--vault", str(copy), "index", "--embed",
               "--workers", str(cores())]
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", PEAK_OF, *command], capture_output=True,
                          text=True)
    wall = time.perf_counter() - started
    peak = float(done.stderr.strip().splitlines()[-1]) / 1024
    with Memory.open(copy) as mem:
        state = mem.vector_state()
    shutil.rmtree(copy.parent)
    return {"first_embed_s": round(wall, 1), "peak_rss_mib": round(peak, 1),
            "model": state["model"], "embedded": state["embedded"], "pending": state["pending"],
            "exit": done.returncode, "said": done.stdout.strip().splitlines()[-1:]}


if __name__ == "__main__":
    main()
