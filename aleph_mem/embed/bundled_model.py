"""The bundled MiniLM, run directly with onnxruntime and tokenizers.

Loading it through fastembed cost about 1.1 s, of which importing fastembed was 0.6 s for
nothing this one model needs. This is the same computation, step for step (the tokenizer
set up from the same files in the same way, the same session options, the same batch of
one text, mean pooling in float64, L2 normalisation, float32): the vectors are bit-identical
to fastembed's (tests/embed/test_vectors.py checks it on real chunks), so an index embedded
before is still valid.
"""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np



def _context(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= sys.maxsize:
        return None
    return value


def load_tokenizer(folder: Path) -> Any:
    """The tokenizer, truncated and padded as the model's own config files say."""
    from tokenizers import AddedToken, Tokenizer

    cfg = json.loads((folder / "tokenizer_config.json").read_text(encoding="utf-8"))
    config_path = folder / "config.json"
    config = json.loads(config_path.read_text(encoding="utf-8")) if config_path.exists() else {}
    tok = Tokenizer.from_file(str(folder / "tokenizer.json"))
    limits = [c for c in (_context(cfg.get("model_max_length")), _context(cfg.get("max_length")))
              if c is not None]
    if not limits:
        raise ValueError(f"no context length in {folder}/tokenizer_config.json")
    truncation = tok.truncation or {}
    tok.enable_truncation(max_length=min(limits), direction=cfg.get("truncation_side")
                          or truncation.get("direction", "right"))
    specials_path = folder / "special_tokens_map.json"
    specials = json.loads(specials_path.read_text(encoding="utf-8")) \
        if specials_path.exists() else {}
    for value in specials.values():
        for token in value if isinstance(value, list) else [value]:
            if isinstance(token, str):
                tok.add_special_tokens([token])
            elif isinstance(token, dict):
                tok.add_special_tokens([AddedToken(**token)])
    padding = tok.padding or {}
    pad_token = padding.get("pad_token") or cfg.get("pad_token")
    pad_id = padding.get("pad_id", config.get("pad_token_id"))
    if pad_id is None:
        pad_id = tok.token_to_id(pad_token)
    tok.enable_padding(direction=cfg.get("padding_side") or padding.get("direction", "right"),
                       pad_id=pad_id, pad_type_id=padding.get("pad_type_id", 0),
                       pad_token=pad_token, pad_to_multiple_of=padding.get("pad_to_multiple_of"),
                       length=None)
    return tok


def model_inputs(encoded: Sequence[Any], inputs: set[str]) -> tuple[dict[str, Any], Any]:
    """The model's feed for tokenised texts (those of ``inputs`` it takes), and their
    attention mask (for the pooling)."""
    import numpy as np

    ids = np.array([e.ids for e in encoded], dtype=np.int64)
    mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
    feed = {"input_ids": ids}
    if "attention_mask" in inputs:
        feed["attention_mask"] = mask
    if "token_type_ids" in inputs:
        feed["token_type_ids"] = np.zeros_like(ids)
    return feed, mask


class BundledEmbedder:
    """The bundled model (``embedders.BUILTIN``) behind the Embedder interface."""

    def __init__(self, name: str, folder: Path, threads: int = 1, batch: int = 1) -> None:
        import onnxruntime as ort

        self.name = name
        self.batch = batch  # texts per model call (embedders.BATCH: one, so no padding)
        self._lock = threading.Lock()  # one call at a time (the daemon's loop and socket)
        self.tokenizer = load_tokenizer(folder)
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        if threads:
            options.intra_op_num_threads = threads
            options.inter_op_num_threads = threads
        self.session = ort.InferenceSession(str(folder / "model.onnx"),
                                            providers=["CPUExecutionProvider"],
                                            sess_options=options)
        self.inputs = {i.name for i in self.session.get_inputs()}
        self.dim = int(len(self.embed(["dimension probe"])[0]))

    def embed(self, texts: Sequence[str]) -> list[np.ndarray]:
        import numpy as np

        out: list[np.ndarray] = []
        with self._lock:
            for start in range(0, len(texts), self.batch):
                encoded = self.tokenizer.encode_batch(list(texts[start:start + self.batch]))
                feed, mask = model_inputs(encoded, self.inputs)
                hidden = self.session.run(None, feed)[0]
                summed = np.sum(hidden, axis=1, where=mask[:, :, np.newaxis].astype(bool),
                                dtype=np.float64)
                pooled = summed / np.maximum(np.sum(mask, axis=1, keepdims=True), 1e-9)
                norm = np.maximum(np.linalg.norm(pooled, ord=2, axis=1, keepdims=True), 1e-12)
                out += list((pooled / norm).astype(hidden.dtype))
        return out
