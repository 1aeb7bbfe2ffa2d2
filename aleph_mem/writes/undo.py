"""Undo an event or a whole run: restore pre-images in reverse order, each guarded by
compare-and-swap. A note that changed since is refused (and reported); the rest go on."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from aleph_mem.errors import AlephError, BadInput
from aleph_mem.files.vault import DREAM
from aleph_mem.writes.events import KINDS, ChangeKind, Event
from aleph_mem.writes.writer import FileChange, Writer

INVERSE_KIND: dict[str, ChangeKind] = {"note-archived": "note-restored",
                                       "note-restored": "note-archived"}


GENERATED = DREAM  # pages the dream writes for people: regenerated, never restored


@dataclass
class UndoReport:
    target: str
    undone: list[str] = field(default_factory=list)  # event ids
    refused: list[tuple[str, str]] = field(default_factory=list)  # (path, why)
    run: str | None = None
    regenerate: list[str] = field(default_factory=list)  # the dream's pages to write anew
    dreamt: bool = False  # a change the dream made was taken back: its digest is rewritten

    def as_json(self) -> dict:
        return {"target": self.target, "run": self.run, "undone": self.undone,
                "refused": [{"path": p, "reason": r} for p, r in self.refused],
                "regenerated": self.regenerate}


def events_for(writer: Writer, target: str) -> list[Event]:
    """A run's events, only those this device wrote (an event synced in from another device
    that names this run, as its run or as its id, never rides along and undoes notes the
    run never touched); else the one event with that id."""
    columns = "id, at, actor, kind, path, before, after, run, reason, data"
    rows = writer.con.execute(
        f"SELECT {columns} FROM events WHERE run = ? AND host = ? ORDER BY id DESC",
        (target, writer.events.host)).fetchall()
    if not rows:
        rows = writer.con.execute(f"SELECT {columns} FROM events WHERE id = ?",
                                  (target,)).fetchall()
    if not rows:
        raise BadInput(f"no event or run {target!r}; `aleph-mem log` lists them")
    # mypy cannot count a starred row: its first nine columns are Event's first nine fields
    return [Event(*r[:9], json.loads(r[9]) if r[9] else {})  # type: ignore[call-arg]
            for r in rows]


def undo(writer: Writer, target: str) -> UndoReport:
    report = UndoReport(target, run=writer.run)
    events = events_for(writer, target)
    whole_run = any(e.run == target for e in events)
    for event in events:
        if whole_run and event.path.startswith(GENERATED):
            report.regenerate.append(event.path)  # the digest of a run is written anew
            continue
        try:
            _revert(writer, event)
            report.undone.append(event.id)
            report.dreamt = report.dreamt or event.actor.startswith("dream:")
        except AlephError as exc:
            report.refused.append((event.path, str(exc)))
    return report


def _revert(writer: Writer, event: Event) -> None:
    if event.kind not in KINDS:
        raise BadInput(f"{event.kind} events record what happened beside a change and "
                       "cannot be undone" + (f"; its bytes are object {event.after}"
                                             if event.after else ""))
    src = event.data.get("from", event.path)
    old = writer.objects.get(event.before) if event.before is not None else None
    reason = f"undo {event.id}"
    ns = event.data.get("mtime_ns")  # the file time it had: Obsidian's "modified" order
    times = {src: ns} if isinstance(ns, int) and old is not None else {}
    if src == event.path:
        change = FileChange(event.path, event.after, old)
        kind: ChangeKind = "note-deleted" if old is None else (
            "note-created" if event.after is None else "note-updated")
        writer.apply([change], kind, event.path, reason, before=event.after, times=times)
        return
    changes = [FileChange(src, None, old), FileChange(event.path, event.after, None)]
    kind = INVERSE_KIND.get(event.kind, "note-moved")
    writer.apply(changes, kind, src, reason, {"from": event.path}, before=event.after,
                 times=times)
