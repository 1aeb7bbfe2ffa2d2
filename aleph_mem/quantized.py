"""A real int8 version of the bundled model, derived on this machine from the bundled
weights (never downloaded): the bundled "int8" file stores int8 weights but multiplies in
float (its weights are widened when it loads). Here they are widened once into a float
graph, then quantised for int8 arithmetic (onnxruntime's dynamic quantisation: weights
int8 per output channel, activations uint8 per call), except the feed-forward output
products of the first three layers, which stay float: they carry the widest activations,
and quantising them cost the most fidelity (measured on 2,000 real chunks of the generated
10k vault: every product int8, cosine to the exact vectors min 0.987; the first layer's
kept float 0.989; the first three 0.992, 1.69x the exact model's speed on one core).

``verdict`` decides whether this machine should use it: it must embed a sample of the
vault's own chunks faster than the exact model, with cosine >= 0.99 to the exact vectors
for every one of them. The derived file and the verdict are kept in the embedding cache's
folder. Its vectors carry its own model name, so a vault never mixes them with the exact
model's: switching re-embeds, as any model change does.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .atomic import write_atomic

Embedder = Any  # embedders.Embedder: what has ``name``, ``dim`` and ``embed(texts)``

log = logging.getLogger(__name__)

NAME = "all-MiniLM-L6-v2-q8"
RECIPE = "3"  # what `derive` does; another recipe makes the file (and verdict) again
FLOAT_FFN_OUT = 3  # the first layers whose feed-forward output product stays float
FFN_OUT_SHAPE = [1536, 384]
MIN_COSINE = 0.99
SPEED_SAMPLE = 48
FIDELITY_SAMPLE = 200


def folder(cache_dir: Path) -> Path:
    return cache_dir / "models" / NAME


def derive(source: Path, cache_dir: Path) -> Path:
    """The derived model's folder (tokenizer files beside ``model.onnx``), made once from
    the bundled model's folder ``source``."""
    target = folder(cache_dir)
    stamp = target / "recipe.txt"
    if (target / "model.onnx").exists() and stamp.exists() and stamp.read_text() == RECIPE:
        return target
    target.mkdir(parents=True, exist_ok=True)
    for p in source.iterdir():
        if p.name != "model.onnx":
            shutil.copy(p, target / p.name)
    started = time.perf_counter()
    float_path = target / f".float-{os.getpid()}.onnx"
    int8_path = target / f".int8-{os.getpid()}.onnx"
    try:
        keep = _widen(source / "model.onnx", float_path)
        from onnxruntime.quantization import QuantType, quantize_dynamic

        logging.disable(logging.WARNING)  # its advice to pre-process, on the root logger
        try:
            quantize_dynamic(str(float_path), str(int8_path), per_channel=True,
                             weight_type=QuantType.QInt8, op_types_to_quantize=["MatMul"],
                             nodes_to_exclude=keep, extra_options={"MatMulConstBOnly": True})
        finally:
            logging.disable(logging.NOTSET)
        os.replace(int8_path, target / "model.onnx")
    finally:
        float_path.unlink(missing_ok=True)
        int8_path.unlink(missing_ok=True)
    write_atomic(stamp, RECIPE.encode(), durable=False)
    log.info("derived %s in %.1f s", NAME, time.perf_counter() - started)
    return target


def _widen(source: Path, target: Path) -> list[str]:
    """Write the bundled graph with its int8 weights widened to float initializers
    (each weight is ``Cast(int8) * scale``); returns the products that stay float."""
    import numpy as np
    import onnx
    from onnx import numpy_helper

    m = onnx.load(str(source))
    init = {i.name: i for i in m.graph.initializer}
    made_by = {o: n for n in m.graph.node for o in n.output}
    folded, widened = set(), []
    for n in m.graph.node:
        if n.op_type != "Mul" or len(n.input) != 2:
            continue
        cast = made_by.get(n.input[0])
        if cast is None or cast.op_type != "Cast" or cast.input[0] not in init or \
                n.input[1] not in init:
            continue
        q = numpy_helper.to_array(init[cast.input[0]]).astype(np.float32)
        scale = numpy_helper.to_array(init[n.input[1]]).astype(np.float32)
        widened.append(numpy_helper.from_array((q * scale).astype(np.float32), n.output[0]))
        folded.update((id(n), id(cast)))
    nodes = [n for n in m.graph.node if id(n) not in folded]
    del m.graph.node[:]
    m.graph.node.extend(nodes)
    m.graph.initializer.extend(widened)
    used = {x for n in m.graph.node for x in n.input}
    kept = [i for i in m.graph.initializer if i.name in used]
    del m.graph.initializer[:]
    m.graph.initializer.extend(kept)
    dims = {i.name: list(i.dims) for i in kept}
    ffn_out = [n.name for n in m.graph.node
               if n.op_type == "MatMul" and dims.get(n.input[1]) == FFN_OUT_SHAPE]
    if len(ffn_out) != 6 or len(widened) < 36:
        raise ValueError(f"the bundled model's graph is not the one this recipe knows "
                         f"({len(widened)} weights, {len(ffn_out)} feed-forward outputs)")
    onnx.save(m, str(target))
    return ffn_out[:FLOAT_FFN_OUT]


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
