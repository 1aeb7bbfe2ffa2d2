"""What the index took in that the event log does not hold: kept beside the index, in
``.aleph/local``, so neither a killed reconcile nor a lost index loses history.

- ``TakingIn`` (``taking-in.json``): the paths a reconcile is about to take into the index,
  each with the hash the index held for it, written (fsynced) before the first row is
  committed and dropped once their events are logged. A reconcile killed between the two
  leaves it; the next one logs what those paths hold now against what they held then (and
  the log's last state, so nothing logged before the kill is logged again).
- ``Baseline`` (``baseline.jsonl``): the version of every note the index took in when it
  first saw the whole vault, which no event names, and a line saying the baseline is
  complete. It is the reference state of a note the log never named once the index is
  rebuilt, deleted or damaged (an offline edit of it is then still a change), and it says
  that a note neither knows is new.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import apsw

from aleph_mem.files import jsonl
from aleph_mem.files.atomic import write_atomic

TAKING_IN = "taking-in.json"
BASELINE = "baseline.jsonl"
COMPLETE = b'{"complete":true}'


class TakingIn:
    def __init__(self, local_dir: Path) -> None:
        self.path = local_dir / TAKING_IN

    def load(self) -> dict[str, str | None]:
        """What a killed reconcile was taking in: path -> the hash the index held then."""
        try:
            found = json.loads(self.path.read_bytes())
        except (OSError, ValueError):  # none (or unreadable): the log alone is the reference
            return {}
        if not isinstance(found, dict):
            return {}
        return {str(p): h if isinstance(h, str) else None for p, h in found.items()}

    def save(self, paths: dict[str, str | None]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(self.path, json.dumps(paths, sort_keys=True).encode())

    def drop(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()


class Baseline:
    def __init__(self, local_dir: Path) -> None:
        self.path = local_dir / BASELINE
        self._states: dict[str, str | None] | None = None
        self._complete = False

    def _load(self) -> None:
        states: dict[str, str | None] = {}
        complete = False
        for record in jsonl.records(self.path):
            if not isinstance(record, dict):
                continue
            if record.get("complete") is True:
                complete = True
            elif isinstance(record.get("path"), str) and isinstance(record.get("hash"), str):
                states[record["path"]] = record["hash"]
        self._states, self._complete = states, complete

    @property
    def complete(self) -> bool:
        """The index once saw the whole vault: a note nobody knows is new. (Read from the
        file's last line: every reconcile asks.)"""
        if self._states is not None:
            return self._complete
        try:
            with open(self.path, "rb") as fh:
                fh.seek(max(0, fh.seek(0, 2) - len(COMPLETE) - 1))
                return fh.read().rstrip(b"\n").endswith(COMPLETE)
        except OSError:
            return False

    def state(self, path: str) -> tuple[bool, str | None]:
        """(whether the baseline holds this path, the hash it held)."""
        if self._states is None:
            self._load()
        assert self._states is not None
        return path in self._states, self._states.get(path)

    def record(self, con: apsw.Connection) -> None:
        """Keep every note the index holds now as the baseline, then say it is complete."""
        from aleph_mem.index.reading import paths_and_hashes

        lines: list[dict] = [{"path": p, "hash": h} for p, h in paths_and_hashes(con)]
        for start in range(0, len(lines), 5000):
            jsonl.append_many(self.path, lines[start:start + 5000])
        jsonl.append(self.path, {"complete": True})
        self._states = None
