"""Vectors: offline model, cache, model changes, hybrid search, graceful fallback."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from conftest import REPO, open_mem, write
from hash_embedder import MODELS, HashEmbedder, configure, factory  # noqa: F401

from aleph_mem.cli.main import main
from aleph_mem.embed import embedders
from aleph_mem.index.search import Fusion
from aleph_mem.memory import Memory


@pytest.fixture
def hv(vault: Path) -> Path:
    configure(vault, "test-hash")
    write(vault, "a.md", "# Alpha\n\nsolar panels on the roof\n\nbattery storage plans\n")
    write(vault, "b.md", "# Beta\n\ngarden compost and worms\n")
    return vault


def test_embed_search_modes_and_explain(hv: Path) -> None:
    with open_mem(hv) as mem:
        mem.reindex()
        assert mem.embed() == mem.vector_state()["embedded"] > 0
        assert mem.vector_state()["pending"] == 0
        hits = mem.search("roof panels", mode="vector").hits
        assert hits[0].path == "a.md"
        found = mem.search("compost worms", explain=True)
        hits = found.hits
        assert hits[0].path == "b.md" and found.notice == ""
        assert {"bm25", "fts", "cosine", "vector", "note"} <= set(hits[0].explain)
        assert [h.path for h in mem.search("compost", mode="fts").hits] == ["b.md"]


def test_rebuild_reuses_the_cache_and_edits_get_new_vectors(hv: Path) -> None:
    with open_mem(hv) as mem:
        mem.reindex()
        mem.embed()
        first = MODELS["test-hash"].calls
        mem.reindex(rebuild=True)
        mem.embed()
    assert MODELS["test-hash"].calls == first  # a fresh embedder, nothing recomputed
    with open_mem(hv) as mem:
        mem.reindex()
        write(hv, "b.md", "# Beta\n\nbees and honey now\n")
        mem.reindex()
        assert mem.vector_state()["pending"] == 2  # its title row and its one chunk
        assert mem.embed() == 2
        assert mem.search("honey bees", mode="vector").hits[0].path == "b.md"
        orphans = mem.store.con.execute("SELECT count(*) FROM vec_chunks WHERE chunk_id NOT IN "
                                  "(SELECT id FROM chunks)").fetchone()[0]
        assert orphans == 0


def test_a_new_model_re_embeds_everything(hv: Path) -> None:
    with open_mem(hv) as mem:
        mem.reindex()
        mem.embed()
    configure(hv, "test-hash-32")
    with open_mem(hv) as mem:
        found = mem.search("solar")
        assert found.hits[0].path == "a.md"
        assert "full-text only" in found.notice  # old vectors are never used
        n = mem.embed()
        assert n == mem.vector_state()["embedded"] and mem.vector_state()["dim"] == 32
        assert mem.vector_state()["model"] == "test-hash-32"


def test_vectors_off_or_unavailable_fall_back_to_full_text(hv: Path, capsys) -> None:
    configure(hv, "none")
    with open_mem(hv) as mem:
        mem.reindex()
        assert mem.embed() == 0
        found = mem.search("compost")
        assert [h.path for h in found.hits] == ["b.md"]
        assert "embed_model" in found.notice
    configure(hv, "no-such-org/no-such-model")
    assert main(["--vault", str(hv), "index"]) == 0
    assert "cannot be loaded offline" in capsys.readouterr().err
    assert main(["--vault", str(hv), "search", "compost", "--json"]) == 0
    out = capsys.readouterr()
    assert '"b.md"' in out.out and "full-text only" in out.err
    assert main(["--vault", str(hv), "status"]) == 0
    assert "never downloads models" in capsys.readouterr().out


def test_the_bundled_model_loads_offline_and_means_something(vault: Path) -> None:
    write(vault, "cat.md", "# Pets\n\nThe cat sits on the mat.\n")
    write(vault, "money.md", "# Finance\n\nQuarterly revenue grew strongly.\n")
    with open_mem(vault) as mem:
        mem.reindex()
        mem.embed()
        assert mem.vector_state()["model"] == embedders.BUILTIN
        assert mem.vector_state()["dim"] == 384
        hits = mem.search("a kitten resting on a rug", mode="vector", limit=2).hits
        assert hits[0].path == "cat.md"


def test_the_bundled_model_run_directly_gives_fastembeds_vectors_bit_for_bit(
        tmp_path: Path) -> None:
    """An index embedded through fastembed stays valid: the direct path (no fastembed
    import, half the load time) computes the very same vectors on real text."""
    from aleph_mem.embed.bundled_model import BundledEmbedder

    folder = embedders.builtin_folder(tmp_path)
    texts = ["", "a", "Ünïcödé 東京 🚀", "word " * 600]  # empty, tiny, odd, over the limit
    for page in sorted((REPO / "docs").glob("*.md")):
        texts += [p for p in page.read_text().split("\n\n") if p.strip()][:20]
    direct = BundledEmbedder(embedders.BUILTIN, folder).embed(texts)
    through = embedders.FastEmbedder(embedders.BUILTIN, folder, None, 1).embed(texts)
    assert len(texts) > 150
    assert all(np.array_equal(a, b) for a, b in zip(direct, through, strict=True))
    assert isinstance(embedders.load(embedders.BUILTIN, tmp_path), BundledEmbedder)


def test_embed_threads_sets_the_model_threads_and_keeps_the_vectors(vault: Path) -> None:
    write(vault, "cat.md", "# Pets\n\nThe cat sits on the mat.\n")
    vecs = {}
    for threads in (1, 2):
        with Memory.open(vault, {"embed_threads": threads}) as mem:
            model = mem.embedder()
            # the ONNX session is what runs the threads
            assert model.session.get_session_options().intra_op_num_threads == threads
            vecs[threads] = model.embed(["The cat sits on the mat."])[0]
    assert float(vecs[1] @ vecs[2]) > 0.9999
    with Memory.open(vault, {"embed_threads": -1}) as mem:
        assert mem.embedder() is None
        assert "embed_threads is -1" in mem.vector_problem
        mem.reindex()
        assert [h.path for h in mem.search("cat mat").hits] == ["cat.md"]  # full text meanwhile


def test_index_leaves_a_big_backlog_to_the_daemon(vault: Path, capsys) -> None:
    configure(vault, "test-hash")
    for i in range(1050):  # a title row and a chunk each: over 2,000 chunks
        write(vault, f"n/{i}.md", f"# Note {i}\n\nword{i} text\n")
    assert main(["--vault", str(vault), "index"]) == 0
    out = capsys.readouterr()
    assert "chunks need vectors" in out.err and "0 chunks embedded" in out.out
    assert main(["--vault", str(vault), "index", "--embed", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["embedded"] > 2000


def test_mmr_uses_chunk_vectors_in_hybrid_search(vault: Path) -> None:
    configure(vault, "test-hash")
    same = "tidal energy turbines in the estuary\n"
    write(vault, "one.md", "# One\n\n" + same)
    write(vault, "two.md", "# Two\n\n" + same)
    write(vault, "three.md", "# Three\n\ntidal estuary birds and mud\n")
    with open_mem(vault) as mem:
        mem.reindex()
        mem.embed()
        q = "tidal energy estuary"
        plain = [h.path for h in mem.search(q, fusion=Fusion(mmr_lambda=1.0)).hits]
        assert sorted(plain[:2]) == ["one.md", "two.md"] and plain[2] == "three.md"
        # the two copies have cosine 1 (same text): the second one falls below the third
        diverse = [h.path for h in mem.search(q, fusion=Fusion(mmr_lambda=0.5)).hits]
        assert diverse == [plain[0], "three.md", plain[1]]


def test_a_one_shot_search_reads_vectors_from_the_index_and_ranks_the_same(
        vault: Path) -> None:
    """A CLI search or a hook searches once: it takes the nearest vectors and the MMR
    vectors from the index instead of building the in-memory matrices, with the same
    ranking (diversity included) as a long-lived process, up to float16 ties."""
    configure(vault, "test-hash")
    same = "tidal energy turbines in the estuary\n"
    write(vault, "one.md", "# One\n\n" + same)
    write(vault, "two.md", "# Two\n\n" + same)
    write(vault, "three.md", "# Three\n\ntidal estuary birds and mud\n")
    for i in range(30):
        write(vault, f"n{i}.md", f"# Note {i}\n\nwords {i} about rivers, {i * 7} boats\n")
    queries = ["tidal energy estuary", "rivers and boats", "boats 21", "mud"]
    with open_mem(vault) as mem:
        mem.reindex()
        mem.embed()
        kept = [[h.path for h in mem.search(q, fusion=Fusion(mmr_lambda=0.5)).hits]
                for q in queries]
        assert mem.store.vec.matrix is not None
    with open_mem(vault) as mem:
        mem.one_shot = True
        once = [[h.path for h in mem.search(q, fusion=Fusion(mmr_lambda=0.5)).hits]
                for q in queries]
        assert mem.store.vec.matrix is None
    # the matrices hold float16 copies, so notes whose scores tie to 1e-3 (these hash
    # vectors make many) may swap at the tail; the head must not move
    assert [q[:6] for q in once] == [q[:6] for q in kept]
    assert kept[0][:3] in (["one.md", "three.md", "two.md"], ["two.md", "three.md", "one.md"])


def test_embedding_on_every_core_gives_the_same_vectors(tmp_path: Path) -> None:
    """`index --embed --workers 2`: worker processes, each with its own copy of the bundled
    model, give every chunk the vector one process gives it (measured 1.9x faster on the
    SRD vault, docs/benchmarks.md)."""
    import shutil
    import subprocess
    import sys

    from aleph_mem.index import vectors as vec
    from aleph_mem.store import POOL_MIN

    one = tmp_path / "one"
    subprocess.run([sys.executable, "-m", "aleph_mem.cli", "init", str(one)], check=True,
                   capture_output=True)
    (one / ".aleph" / "config.toml").write_text("")  # the bundled model
    for i in range(POOL_MIN // 2 + 20):
        write(one, f"notes/n{i:03}.md", f"# Note {i}\n\nThe ferry number {i} leaves at dawn "
              f"from pier {i % 7}, carrying {i * 3} bicycles.\n")
    two = tmp_path / "two"
    shutil.copytree(one, two)
    for root, workers in ((one, "1"), (two, "2")):
        r = subprocess.run([sys.executable, "-m", "aleph_mem.cli", "--vault", str(root),
                            "index", "--embed", "--workers", workers], capture_output=True,
                           text=True, timeout=600)
        assert r.returncode == 0, r.stderr

    def vectors(root: Path) -> dict[str, bytes]:
        with Memory.open(root) as mem:
            vec.load_extension(mem.store.con)  # sqlite-vec, for the vector table
            return dict(mem.store.con.execute(
                "SELECT f.title || '|' || f.body, v.embedding FROM vec_chunks v JOIN "
                "chunks_fts f ON f.rowid = v.chunk_id").fetchall())

    a, b = vectors(one), vectors(two)
    assert len(a) > POOL_MIN and a == b


def test_int8_model_derived_here_keeps_the_vectors_and_is_chosen_by_measure(vault: Path,
                                                                            tmp_path: Path) -> None:
    """The int8 model is derived from the bundled weights (no download), its vectors stay
    within cosine 0.99 of the exact model's on real text, a vault asked for it holds only
    its vectors, and `auto` keeps a small vault (and any vault with vectors) on the exact
    model."""
    from aleph_mem.embed import int8
    from aleph_mem.embed.model_choice import choose
    from aleph_mem.index.reading import ChunkFacts

    cache = tmp_path / "cache"
    exact = embedders.load(embedders.BUILTIN, cache)
    older = cache / "models" / "all-MiniLM-L6-v2-q8"  # an earlier recipe's derived files
    older.mkdir(parents=True)
    (older / "model.onnx").write_bytes(b"old")
    fast = embedders.load(embedders.QUANTIZED, cache)
    assert fast.name == "all-MiniLM-L6-v2-q8-smooth6" and fast.dim == exact.dim == 384
    assert not older.exists()  # removed once the new recipe is derived; the exact stays
    assert (cache / "models" / embedders.BUILTIN / "tokenizer.json").exists()
    assert (int8.folder(cache) / "recipe.txt").read_text() == int8.RECIPE
    texts = [p for page in sorted((REPO / "docs").glob("*.md"))
             for p in page.read_text().split("\n\n") if len(p) > 80][:60]
    a = np.asarray(exact.embed(texts))
    b = np.asarray(fast.embed(texts))
    assert float(np.min(np.sum(a * b, axis=1))) >= 0.99
    assert not np.array_equal(a, b)  # another model: its vectors carry its own name
    found = int8.verdict(cache, exact, lambda: fast, texts)
    assert found.min_cosine >= 0.99 and found.ok == (found.speedup > 1.1)
    assert int8.verdict(cache, exact, lambda: fast, texts[:3]) == found  # kept
    write(vault, "notes/a.md", "# A\n\nThe heron nests by the reservoir in spring.\n")
    (vault / ".aleph" / "config.toml").write_text('embed_quantized = "on"\n')
    with open_mem(vault) as mem:
        mem.reindex()
        assert mem.embed() > 0
        assert mem.vector_state()["model"] == "all-MiniLM-L6-v2-q8-smooth6"
        assert mem.search("where do herons breed", mode="vector").hits[0].path == "notes/a.md"
        assert choose(embedders.BUILTIN, "auto", ChunkFacts(mem.store.con), cache,
                      1) == embedders.QUANTIZED
        assert choose(embedders.BUILTIN, "off", ChunkFacts(mem.store.con), cache,
                      1) == embedders.BUILTIN
    from aleph_mem.install.new_vault import init_vault

    other = tmp_path / "small"
    init_vault(other)
    write(other, "n.md", "# N\n\nsmall\n")
    with Memory.open(other, {"embed_model": "none"}) as mem:
        mem.reindex()
        assert choose(embedders.BUILTIN, "auto", ChunkFacts(mem.store.con), cache,
                      1) == embedders.BUILTIN


def test_fused_attention_graph_computes_what_the_bundled_model_does(tmp_path: Path) -> None:
    """The int8 model starts from a float graph whose attention blocks are one fused
    operator each: before any quantisation, it must give the bundled model's vectors on
    real text (the surgery changes how, not what), and a graph it does not know is
    refused rather than half-fused."""
    import shutil

    from aleph_mem.embed import int8_graph
    from aleph_mem.embed.bundled_model import BundledEmbedder

    cache = tmp_path / "cache"
    source = embedders.builtin_folder(cache)
    m = int8_graph.load(source / "model.onnx")
    assert int8_graph.widen(m) >= 36
    assert int8_graph.fuse_attention(m, 384, 12) == 6
    assert not [n for n in m.graph.node if n.op_type in ("Softmax", "Transpose", "IsNaN")]
    fused = tmp_path / "fused"
    shutil.copytree(source, fused, symlinks=False)
    (fused / "model.onnx").unlink()
    int8_graph.save(m, fused / "model.onnx")
    texts = [p for page in sorted((REPO / "docs").glob("*.md"))
             for p in page.read_text().split("\n\n") if len(p) > 80][:40] + ["a", "x " * 300]
    a = np.asarray(embedders.load(embedders.BUILTIN, cache).embed(texts))
    b = np.asarray(BundledEmbedder("fused", fused, 1).embed(texts))
    assert float(np.min(np.sum(a * b, axis=1))) > 0.99999
    assert int8_graph.fuse_attention(m, 384, 12) == 0  # nothing left to fuse
    assert int8_graph.fuse_attention(int8_graph.load(source / "model.onnx"), 512, 8) == 0
