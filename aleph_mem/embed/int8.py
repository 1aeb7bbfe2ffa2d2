"""A real int8 version of the bundled model, derived on this machine from the bundled
weights (never downloaded): the bundled "int8" file stores int8 weights but multiplies in
float (its weights are widened when it loads). Here, once (int8_graph.py):

1. the weights are widened into a float graph;
2. each layer's attention is fused into one operator (which the quantiser turns into one
   ``QAttention``: the three projections in one int8 product);
3. each layer norm's output is smoothed into the weights that read it (SmoothQuant), with
   ranges measured on fixed texts shipped in ``model_files/calibration.txt``, so the
   derived file is the same on every machine and for every vault;
4. the products are quantised for int8 arithmetic (onnxruntime's dynamic quantisation:
   weights int8 per output channel, activations uint8 per call), except the feed-forward
   output products, which stay float: they read the GELU's widest activations.

Measured on 800 real chunks of the generated 10k vault (docs/benchmarks.md): cosine to the
exact vectors min 0.9989; 1.7x the exact model's speed on one core; LoCoMo dev hybrid
within 0.3 of the exact model. Each step was needed: unfused and unsmoothed, with three
feed-forward outputs float, it was 1.5x and min 0.992, and LoCoMo note R@5 lost 0.6.

``verdict`` decides whether this machine should use it: it must embed a sample of the
vault's own chunks faster than the exact model, with cosine >= 0.99 to the exact vectors
for every one of them. The derived file and the verdict are kept in the embedding cache's
folder. Its vectors carry its own model name (which names the recipe), so a vault never
mixes them with the exact model's, or with an older recipe's: switching re-embeds, as any
model change does.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from aleph_mem import logs
from aleph_mem.files.atomic import write_atomic

Embedder = Any  # embedders.Embedder: what has ``name``, ``dim`` and ``embed(texts)``

log = logs.get(__name__)

FAMILY = "all-MiniLM-L6-v2-q8"  # every recipe's name starts so
NAME = f"{FAMILY}-smooth6"
RECIPE = "smooth6"  # what `derive` does; another recipe makes the file (and verdict) again
FLOAT_FFN_OUT = 6  # the first layers whose feed-forward output product stays float: all
SMOOTH_ALPHA = 0.7  # how much of a layer norm channel's range moves into the weights
MIN_COSINE = 0.99
SPEED_SAMPLE = 48
FIDELITY_SAMPLE = 200


def folder(cache_dir: Path) -> Path:
    return cache_dir / "models" / NAME


def derive(source: Path, cache_dir: Path) -> Path:
    """The derived model's folder (tokenizer files beside ``model.onnx``), made once from
    the bundled model's folder ``source``, in a process of its own (its peak memory, about
    450 MiB for 3 s, is freed with it)."""
    target = folder(cache_dir)
    stamp = target / "recipe.txt"
    if (target / "model.onnx").exists() and stamp.exists() and stamp.read_text() == RECIPE:
        return target
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", __name__, str(source), str(cache_dir)],
                          capture_output=True, text=True)
    if done.returncode != 0:  # its own process: a few hundred MiB for a few seconds, freed
        lines = done.stderr.strip().splitlines() or [f"exit status {done.returncode}"]
        raise ValueError(lines[-1])
    log.info("derived %s in %.1f s", NAME, time.perf_counter() - started)
    for older in target.parent.glob(FAMILY + "*"):  # other recipes' files: never used again
        if older.name != NAME:
            shutil.rmtree(older, ignore_errors=True)
    return target


def _derive_here(source: Path, cache_dir: Path) -> None:
    target = folder(cache_dir)
    target.mkdir(parents=True, exist_ok=True)
    for p in source.iterdir():
        if p.name != "model.onnx":
            shutil.copy(p, target / p.name)
    float_path = target / f".float-{os.getpid()}.onnx"
    int8_path = target / f".int8-{os.getpid()}.onnx"
    try:
        keep = _float_graph(source, float_path)
        import logging

        from onnxruntime.quantization import QuantType, quantize_dynamic

        logging.disable(logging.WARNING)  # its advice to pre-process, on the root logger
        try:
            quantize_dynamic(str(float_path), str(int8_path), per_channel=True,
                             weight_type=QuantType.QInt8,
                             op_types_to_quantize=["MatMul", "Attention"],
                             nodes_to_exclude=keep, extra_options={"MatMulConstBOnly": True})
        finally:
            logging.disable(logging.NOTSET)
        os.replace(int8_path, target / "model.onnx")
    finally:
        float_path.unlink(missing_ok=True)
        int8_path.unlink(missing_ok=True)
    write_atomic(target / "recipe.txt", RECIPE.encode(), durable=False)


def _float_graph(source: Path, target: Path) -> list[str]:
    """Write the bundled graph with float weights, fused attention and smoothed layer norm
    outputs (int8_graph.py); returns the products that stay float."""
    from aleph_mem.embed import int8_graph

    config = json.loads((source / "config.json").read_text(encoding="utf-8"))
    hidden, heads = int(config["hidden_size"]), int(config["num_attention_heads"])
    layers = int(config["num_hidden_layers"])
    m = int8_graph.load(source / "model.onnx")
    widened = int8_graph.widen(m)
    fused = int8_graph.fuse_attention(m, hidden, heads)
    normed = int8_graph.norm_outputs(m)
    ranges = int8_graph.activation_ranges(m, normed, _calibration_feeds(source))
    smoothed = int8_graph.smooth(m, ranges, SMOOTH_ALPHA)
    ffn_out = [n.name for n in int8_graph.projections(m, 4 * hidden, hidden)]
    if widened < 6 * layers or fused != layers or len(ffn_out) != layers \
            or smoothed != 2 * layers:
        raise ValueError(f"the bundled model's graph is not the one this recipe knows "
                         f"({widened} weights, {fused} attention blocks, {smoothed} smoothed "
                         f"norms, {len(ffn_out)} feed-forward outputs for {layers} layers)")
    int8_graph.save(m, target)
    return ffn_out[:FLOAT_FFN_OUT]


def _calibration_feeds(source: Path) -> list[dict[str, Any]]:
    """The model's inputs for the fixed calibration texts shipped with the package (so the
    derived model is the same on every machine and for every vault)."""
    from aleph_mem.embed import model_files
    from aleph_mem.embed.bundled_model import load_tokenizer, model_inputs

    tokenizer = load_tokenizer(source)
    text = (Path(model_files.__file__).parent / "calibration.txt").read_text(encoding="utf-8")
    inputs = {"attention_mask", "token_type_ids"}  # the recipe's graph takes both
    return [model_inputs([tokenizer.encode(line)], inputs)[0]
            for line in filter(str.strip, text.splitlines())]


@dataclass(frozen=True)
class Verdict:
    ok: bool
    why: str
    min_cosine: float
    speedup: float
    recipe: str = RECIPE


def verdict(cache_dir: Path, exact: Embedder, load_fast: Callable[[], Embedder],
            sample: Sequence[str]) -> Verdict:
    """Whether the derived model is the one to use on this machine (kept once decided)."""
    path = folder(cache_dir) / "verdict.json"
    try:
        kept = Verdict(**json.loads(path.read_bytes()))
        if kept.recipe == RECIPE:
            return kept
    except (OSError, ValueError, TypeError):
        pass
    import numpy as np

    try:
        fast = load_fast()
    except Exception as exc:  # onnx missing, a graph this recipe does not know: stay exact
        found = Verdict(False, f"could not be derived here: {exc}", 0.0, 0.0)
        log.info("int8 model not used: %s", found.why)
        return found
    texts = list(sample[:FIDELITY_SAMPLE])
    timed = texts[:SPEED_SAMPLE]
    rates = []
    for model in (exact, fast):
        model.embed(timed[:2])  # warm
        t = time.perf_counter()
        model.embed(timed)
        rates.append(len(timed) / max(time.perf_counter() - t, 1e-9))
    a = np.asarray(exact.embed(texts), np.float32)
    b = np.asarray(fast.embed(texts), np.float32)
    cosine = float(np.min(np.sum(a * b, axis=1))) if len(texts) else 0.0
    speedup = rates[1] / rates[0] if rates[0] else 0.0
    ok = cosine >= MIN_COSINE and speedup > 1.1
    why = (f"{speedup:.2f}x the exact model's speed here, cosine to its vectors >= "
           f"{cosine:.4f} on {len(texts)} of this vault's chunks")
    found = Verdict(ok, why if ok else f"not used: {why} (needs > 1.1x and >= {MIN_COSINE})",
                    round(cosine, 5), round(speedup, 3))
    write_atomic(path, json.dumps(asdict(found)).encode(), durable=False)
    log.info("int8 model: %s", found.why)
    return found


if __name__ == "__main__":  # derive's own process: python -m aleph_mem.embed.int8 SOURCE CACHE
    _derive_here(Path(sys.argv[1]), Path(sys.argv[2]))
