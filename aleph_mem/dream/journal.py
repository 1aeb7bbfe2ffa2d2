"""The dream's durable records, beside the event log and synced like it: one folder per
host under ``.aleph/dream/``, append-only JSON lines for runs and for proposals.

Every line is checked before it is used (``journal_lines``): a folder synced in from
another device holds whatever that device, or anyone who could write there, put in it. A
line that fails is skipped with a warning and counted (``skipped``, in the run's report)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from aleph_mem import logs
from aleph_mem.dream import journal_lines
from aleph_mem.dream.view import Action
from aleph_mem.files import jsonl
from aleph_mem.files.atomic import write_atomic
from aleph_mem.writes.events import host_id

log = logs.get(__name__)

SESSIONS = "sessions"  # not a dream pass: session notes raise hot-memory proposals


class Journal:
    def __init__(self, aleph_dir: Path) -> None:
        self.root = aleph_dir / "dream"
        self.host = host_id(aleph_dir / "local")
        self.skipped: dict[tuple[str, int], str] = {}  # (file, line) -> why, once each
        # each file's checked lines, kept while its size and time stay (a run reads the
        # proposals once per proposal it raises)
        self._checked: dict[Path, tuple[tuple[int, int], list[dict[str, Any]]]] = {}

    def _append(self, name: str, record: dict[str, Any]) -> None:
        jsonl.append(self.root / self.host / name, record, sort_keys=True, default=str)

    def _read(self, name: str, problem: Callable[[Any], str | None]) -> list[dict[str, Any]]:
        """Every host's lines of ``name`` that pass ``problem``, oldest first, each with
        the host whose folder holds it (``host``)."""
        out = []
        for path in sorted(self.root.glob(f"*/{name}")):
            try:
                st = path.stat()
                if not path.is_file():
                    self._skip(path, 0, "it is not a file")
                    continue
                seen = self._checked.get(path)
                if seen is None or seen[0] != (st.st_size, st.st_mtime_ns):
                    seen = ((st.st_size, st.st_mtime_ns), self._check(path, problem))
                    self._checked[path] = seen
            except OSError as exc:
                self._skip(path, 0, f"it cannot be read ({exc.strerror})")
                continue
            out += seen[1]
        return sorted(out, key=lambda r: r.get("at", ""))

    def _check(self, path: Path, problem: Callable[[Any], str | None]) -> list[dict[str, Any]]:
        out = []
        for rec, offset in jsonl.read(path):
            why = problem(rec)
            if why:
                self._skip(path, offset, why)
                continue
            out.append({**rec, "host": path.parent.name})
        return out

    def _skip(self, path: Path, offset: int, why: str) -> None:
        key = (path.relative_to(self.root).as_posix(), offset)
        if key not in self.skipped:
            self.skipped[key] = why
            log.warning("a dream journal line in %s (before byte %d) is skipped: %s",
                        key[0], offset, why)

    def audit(self) -> int:
        """Read every journal file once; how many lines are skipped."""
        self.runs()
        self.proposals()
        self.recalls("")
        return len(self.skipped)

    def record_recall(self, path: str, day: str) -> None:
        """An agent read or was shown this note today (one line per note and day)."""
        self._append("recalls.jsonl", {"path": path, "day": day, "at": day})

    def recalls(self, since: str) -> dict[str, list[str]]:
        """Per note, the distinct days it was recalled on or after ``since``."""
        out: dict[str, set[str]] = {}
        for rec in self._read("recalls.jsonl", journal_lines.recall_problem):
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
        keep = [r for r in lines if journal_lines.recall_problem(r) is None
                and r["day"] >= before]
        if len(keep) == len(lines):
            return 0
        write_atomic(path, b"".join(json.dumps(r, sort_keys=True).encode() + b"\n"
                                    for r in keep))
        return len(lines) - len(keep)

    def record_run(self, run: dict[str, Any]) -> None:
        self._append("runs.jsonl", run)

    def runs(self) -> list[dict[str, Any]]:
        return [{k: v for k, v in r.items() if k != "host"}
                for r in self._read("runs.jsonl", journal_lines.run_problem)]

    def propose(self, action: Action, at: str, run: str) -> None:
        self._append("proposals.jsonl", {"id": action.key, "at": at, "run": run,
                                         "state": "open", "action": asdict(action)})

    def settle(self, pid: str, state: journal_lines.ProposalState, at: str, run: str) -> None:
        self._append("proposals.jsonl", {"id": pid, "at": at, "run": run, "state": state})

    def proposals(self) -> dict[str, dict[str, Any]]:
        """Each proposal's first record, with the state of its latest one; ``host`` is the
        device whose dream raised it (the folder of the record its action comes from). A
        line naming a proposal no record raised is skipped."""
        from aleph_mem.plugins import dream_passes

        passes = frozenset((*dream_passes(), SESSIONS))
        out: dict[str, dict[str, Any]] = {}
        for rec in self._read("proposals.jsonl",
                              lambda r: journal_lines.proposal_problem(r, passes)):
            if rec["id"] not in out or "action" in rec:  # raised again: its latest base
                out[rec["id"]] = dict(rec)
            out[rec["id"]]["state"] = rec["state"]
            out[rec["id"]]["settled_at"] = rec["at"]
        for pid in [pid for pid, p in out.items() if "action" not in p]:
            log.warning("the dream journal answers proposal %s, which no record raised: "
                        "skipped", pid)
            del out[pid]
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
