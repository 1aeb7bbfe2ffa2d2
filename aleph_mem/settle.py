"""Changes that may have come by sync are held back until the sync settles.

On a vault another device also writes (its folder exists under ``.aleph/events/``), a note
can arrive before the event file that explains it. Logged at once, it would read as this
device's person's edit (and that event would sync back: history from the wrong device).
So a change made outside aleph-mem waits ``sync_settle_seconds``: if an event of another
device that left the note exactly so arrives meanwhile, nothing is logged; otherwise it is
logged then, as a person's change on this device. A vault only this device writes logs at
once, as before.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

import apsw

from .atomic import write_atomic
from .history import last_states
from .indexer import NoteChange

FILE = "held-changes.json"


def waiting(local_dir: Path) -> bool:
    """Some change is held back (the daemon then reconciles until it is settled)."""
    try:
        return (local_dir / FILE).stat().st_size > 2  # more than an empty "{}"
    except FileNotFoundError:
        return False


def other_devices(aleph_dir: Path, me: str) -> bool:
    """Another device writes this vault's history (its event folder arrived by sync)."""
    events = aleph_dir / "events"
    return events.is_dir() and any(p.is_dir() and p.name != me for p in events.iterdir())


@dataclass
class Held:
    path: Path
    items: dict[str, dict]  # note path -> {"before", "after", "seen"}

    @classmethod
    def load(cls, local_dir: Path) -> Held:
        try:
            items = json.loads((local_dir / FILE).read_bytes())
        except (OSError, ValueError):
            items = {}
        return cls(local_dir / FILE, items if isinstance(items, dict) else {})

    def save(self) -> None:
        if self.items or self.path.exists():
            write_atomic(self.path, json.dumps(self.items, sort_keys=True).encode(),
                         durable=False)

    def hold(self, changes: list[NoteChange], now: float) -> None:
        for c in changes:
            have = self.items.get(c.path)
            self.items[c.path] = {"before": have["before"] if have else c.before,
                                  "after": c.after, "seen": have["seen"] if have else now}

    def release(self, con: apsw.Connection, now: float, settle: float) -> list[NoteChange]:
        """The held changes still unexplained after ``settle`` seconds (to log now); those
        an arrived event explains are dropped; the rest keep waiting."""
        states = last_states(con, list(self.items))
        indexed = dict(con.execute(
            "SELECT path, hash FROM notes WHERE path IN (SELECT value FROM json_each(?))",
            (json.dumps(sorted(self.items)),)).fetchall())
        out = []
        for path, item in sorted(self.items.items()):
            known, state = states.get(path, (False, None))
            if known and state == item["after"]:
                del self.items[path]  # another device's event explains it
            elif indexed.get(path) != item["after"]:
                del self.items[path]  # changed again since: that change speaks for itself
            elif now - float(item["seen"]) >= settle:
                before = state if known else item["before"]
                if before != item["after"]:
                    out.append(NoteChange(path, before, item["after"]))
                del self.items[path]
        return out


def settled(con: apsw.Connection, local_dir: Path, changes: list[NoteChange],
            settle: float) -> list[NoteChange]:
    """Of these outside changes (and those held before), the ones to log now."""
    held = Held.load(local_dir)
    if not changes and not held.items:
        return []
    now = time.time()
    held.hold(changes, now)
    ready = held.release(con, now, settle)
    held.save()
    return ready
