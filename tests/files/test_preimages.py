"""The object store: a version put in comes back byte for byte, is stored once, and a
damaged, missing or purged copy is one clear error (or the masked text), never a crash."""

from __future__ import annotations

import zlib
from pathlib import Path

import pytest

from aleph_mem.errors import AlephError
from aleph_mem.files.preimages import ObjectStore
from aleph_mem.files.vault import content_hash


@pytest.fixture
def store(tmp_path: Path) -> ObjectStore:
    return ObjectStore(tmp_path / "objects")


@pytest.mark.parametrize("data", [b"", "# Héron\r\ngrey 🐦\n".encode(), b"\x00\xff" * 5000])
def test_a_version_round_trips_byte_for_byte(store: ObjectStore, data: bytes) -> None:
    digest = store.put(data)
    assert digest == content_hash(data)
    assert store.path_of(digest) == store.root / digest[:2] / digest
    assert store.has(digest)
    assert store.get(digest) == data


def test_the_same_version_is_stored_once(store: ObjectStore) -> None:
    a = store.put(b"same")
    mtime = store.path_of(a).stat().st_mtime_ns
    assert store.put(b"same", durable=False) == a
    assert store.path_of(a).stat().st_mtime_ns == mtime
    assert [p.name for p in store.root.rglob("*") if p.is_file()] == [a]


def test_a_missing_version_says_it_cannot_be_restored(store: ObjectStore) -> None:
    digest = content_hash(b"never stored")
    assert not store.has(digest)
    with pytest.raises(AlephError, match="never indexed or written through aleph-mem"):
        store.get(digest)


def test_a_damaged_copy_is_one_clear_error(store: ObjectStore) -> None:
    good, bad, swapped = store.put(b"kept"), store.put(b"torn"), store.put(b"swapped")
    store.path_of(bad).write_bytes(store.path_of(bad).read_bytes()[:5])
    store.path_of(swapped).write_bytes(zlib.compress(b"other words"))
    with pytest.raises(AlephError, match="cannot be read"):
        store.get(bad)
    with pytest.raises(AlephError, match=r"is damaged \(hash mismatch\)"):
        store.get(swapped)
    assert store.get(good) == b"kept"  # the near miss beside them


def test_a_purged_version_reads_as_its_masked_text(store: ObjectStore) -> None:
    secret = store.put(b"password: hunter2")
    masked = store.put(b"password: [purged]")
    store.purge(secret, masked)
    assert not store.path_of(secret).exists()
    assert store.has(secret)
    assert store.get(secret) == b"password: [purged]"
    twice = store.put(b"password: [purged twice]")  # the masked version purged in its turn
    store.purge(masked, twice)
    assert store.get(secret) == store.get(masked) == b"password: [purged twice]"


def test_a_damaged_tombstone_is_one_clear_error(store: ObjectStore) -> None:
    secret = store.put(b"token")
    store.purge(secret, store.put(b"[purged]"))
    store.path_of(secret).with_name(secret + ".purged").write_text("../../etc/passwd")
    with pytest.raises(AlephError, match="tombstone .* is damaged"):
        store.get(secret)


def test_a_tombstone_loop_ends_in_an_error_not_a_hang(store: ObjectStore) -> None:
    a, b = content_hash(b"a"), content_hash(b"b")
    store.path_of(a).parent.mkdir(parents=True, exist_ok=True)
    store.path_of(b).parent.mkdir(parents=True, exist_ok=True)
    store.path_of(a).with_name(a + ".purged").write_text(b)
    store.path_of(b).with_name(b + ".purged").write_text(a)
    with pytest.raises(AlephError, match="no stored copy"):
        store.get(a)
