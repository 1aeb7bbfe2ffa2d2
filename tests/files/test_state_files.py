"""The small state files in ``.aleph/local/``: the activity stamp and the daemon's status.
A missing or damaged file reads as nothing there; a disk that refuses the stamp loses only
the stamp."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from aleph_mem.files import activity
from aleph_mem.files.daemon_status import read_status, write_status

T0 = dt.datetime(2026, 11, 23, 10, 0, tzinfo=dt.UTC)


def test_the_stamp_says_who_was_last_and_how_long_ago(tmp_path: Path) -> None:
    local = tmp_path / "local"
    assert activity.last(local) is None
    assert activity.idle_seconds(local, T0) is None
    activity.touch(local, "mcp", T0)
    assert activity.last(local) == (T0, "mcp")
    assert activity.idle_seconds(local, T0 + dt.timedelta(seconds=90)) == 90.0
    assert activity.idle_seconds(local, T0 - dt.timedelta(seconds=5)) == 0.0  # clock skew
    activity.touch(local, "cli", T0 + dt.timedelta(minutes=1))
    assert activity.last(local) == (T0 + dt.timedelta(minutes=1), "cli")


@pytest.mark.parametrize("body", [b"", b"{\"at\": \"2026-11-23T10:00", b"{}",
                                  b"{\"at\": \"yesterday\", \"actor\": \"cli\"}",
                                  b"null", b"[]", b"{\"at\": 5, \"actor\": \"cli\"}"])
def test_a_damaged_stamp_reads_as_no_activity(tmp_path: Path, body: bytes) -> None:
    activity.stamp_path(tmp_path).write_bytes(body)
    assert activity.last(tmp_path) is None
    assert activity.idle_seconds(tmp_path, T0) is None


def test_a_disk_that_refuses_the_stamp_loses_the_stamp_not_the_call(tmp_path: Path) -> None:
    local = tmp_path / "local"
    local.write_text("a file where the folder should be")  # mkdir and the write both fail
    activity.touch(local, "cli", T0)
    assert local.read_text() == "a file where the folder should be"


def test_the_daemon_status_round_trips_and_a_damaged_one_is_none(tmp_path: Path) -> None:
    assert read_status(tmp_path) is None
    body = {"state": "idle", "pid": 42, "next": {"dream": "2026-11-23T10:00:00Z"},
            "note": "héron ✓"}
    write_status(tmp_path, body)
    assert read_status(tmp_path) == body
    (tmp_path / "daemon.json").write_bytes(b'{"state": "id')
    assert read_status(tmp_path) is None
    (tmp_path / "daemon.json").write_bytes(b"\x00" * 16)  # what a power cut can leave
    assert read_status(tmp_path) is None
    (tmp_path / "daemon.json").write_bytes(b"[1, 2]")  # JSON, but not what a daemon says
    assert read_status(tmp_path) is None
