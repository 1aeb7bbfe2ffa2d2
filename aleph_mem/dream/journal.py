"""The dream's durable records, beside the event log and synced like it: one folder per
host under ``.aleph/dream/``, append-only JSON lines for runs and for proposals."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from aleph_mem.dream.view import Action
from aleph_mem.files import jsonl
from aleph_mem.files.atomic import write_atomic
from aleph_mem.writes.events import host_id


class Journal:
    def __init__(self, aleph_dir: Path) -> None:
        self.root = aleph_dir / "dream"
        self.host = host_id(aleph_dir / "local")

    def _append(self, name: str, record: dict[str, Any]) -> None:
        jsonl.append(self.root / self.host / name, record, sort_keys=True, default=str)

    def _read(self, name: str) -> list[dict[str, Any]]:
        out = [r for path in sorted(self.root.glob(f"*/{name}")) for r in jsonl.records(path)
               if isinstance(r, dict)]
        return sorted(out, key=lambda r: r.get("at", ""))

    def record_recall(self, path: str, day: str) -> None:
        """An agent read or was shown this note today (one line per note and day)."""
        self._append("recalls.jsonl", {"path": path, "day": day, "at": day})

    def recalls(self, since: str) -> dict[str, list[str]]:
        """Per note, the distinct days it was recalled on or after ``since``."""
        out: dict[str, set[str]] = {}
        for rec in self._read("recalls.jsonl"):
            if rec.get("day", "") >= since:
                out.setdefault(rec["path"], set()).add(rec["day"])
        return {p: sorted(days) for p, days in out.items()}

    def prune_recalls(self, before: str) -> int:
        """Drop this host's recall lines older than ``before`` (docs/dream.md, decay: recall
        signals are kept 90 days; each host prunes only its own file). Atomic. Returns how
        many lines went."""
        path = self.root / self.host / "recalls.jsonl"
        if not path.exists():
            return 0
        lines = jsonl.records(path)
        keep = [r for r in lines if isinstance(r, dict) and r.get("day", "") >= before]
        if len(keep) == len(lines):
            return 0
        write_atomic(path, b"".join(json.dumps(r, sort_keys=True).encode() + b"\n"
                                    for r in keep))
        return len(lines) - len(keep)

    def record_run(self, run: dict[str, Any]) -> None:
        self._append("runs.jsonl", run)

    def runs(self) -> list[dict[str, Any]]:
        return self._read("runs.jsonl")

    def propose(self, action: Action, at: str, run: str) -> None:
        self._append("proposals.jsonl", {"id": action.key, "at": at, "run": run,
                                         "state": "open", "action": asdict(action)})

    def settle(self, pid: str, state: str, at: str, run: str) -> None:
        self._append("proposals.jsonl", {"id": pid, "at": at, "run": run, "state": state})

    def proposals(self) -> dict[str, dict[str, Any]]:
        """Each proposal's first record, with the state of its latest one."""
        out: dict[str, dict[str, Any]] = {}
        for rec in self._read("proposals.jsonl"):
            if rec["id"] not in out or "action" in rec:  # raised again: its latest base
                out[rec["id"]] = dict(rec)
            out[rec["id"]]["state"] = rec["state"]
            out[rec["id"]]["settled_at"] = rec["at"]
        return out


def action_from(record: dict[str, Any]) -> Action:
    a = dict(record)
    a["unset"] = tuple(a.get("unset") or ())
    a["shows"] = tuple(a.get("shows") or ())
    return Action(**a)


def grouped(proposals: list[dict]) -> list[list[dict]]:
    """Open proposals as the person ticks them: the actions of one group (a merge: the
    keeper's update and the archive of the other note) together, the keeper's first."""
    groups: dict[str, list[dict]] = {}
    for p in sorted(proposals, key=lambda p: p["id"]):
        groups.setdefault(p["action"].get("group") or p["id"], []).append(p)
    return sorted((sorted(g, key=lambda p: (p["action"]["op"] == "archive", p["id"]))
                   for g in groups.values()), key=lambda g: g[0]["id"])
