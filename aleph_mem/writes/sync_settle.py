"""Changes that may have come by sync are held back until the sync settles.

On a vault another device also writes (its folder exists under ``.aleph/events/``), a note
can arrive before the event file that explains it. Logged at once, it would read as this
device's person's edit (and that event would sync back: history from the wrong device).
So a change made outside aleph-mem waits ``sync_settle_seconds``: if an event of another
device that left the note exactly so arrives meanwhile, nothing is logged; otherwise it is
logged then, as a person's change on this device. A vault only this device writes logs at
once, as before.

The watcher can tell more: a sync engine writes a note under a temporary name and renames
it into place (Syncthing ``.syncthing.NAME.tmp``, unison ``.unison.NAME….unison.tmp``),
while a person's editor writes the note, or its own temp file, in place. A change the
watcher saw written in place is this device's and is logged at once (``local``); only the
rest wait. Without that, both devices held their own person's edits as long as the other
waited for them, and at the end of the wait each could log the other's edit as its own
(measured with two Syncthing instances: 25 of 200 writes).
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass
from pathlib import Path

import apsw

from aleph_mem.files.atomic import write_atomic
from aleph_mem.index.indexer import NoteChange
from aleph_mem.index.reading import hashes_of
from aleph_mem.writes.outside_changes import last_states

FILE = "held-changes.json"
SYNC_TEMP = re.compile(
    r"^(?:\.syncthing\..+\.tmp|~syncthing~.+\.tmp|\.unison\..+|.+\.unison\.tmp)$")


def from_sync(name: str) -> bool:
    """Whether a file name is a sync engine's temporary name for a file it is writing."""
    return bool(SYNC_TEMP.match(name))


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
            write_atomic(self.path, json.dumps(self.items, sort_keys=True).encode())

    def hold(self, changes: list[NoteChange], now: float) -> None:
        for c in changes:
            have = self.items.get(c.path)
            self.items[c.path] = {"before": have["before"] if have else c.before,
                                  "after": c.after, "seen": have["seen"] if have else now}

    def release(self, con: apsw.Connection, now: float, settle: float) -> list[NoteChange]:
        """The held changes still unexplained after ``settle`` seconds (to log now); those
        an arrived event explains are dropped; the rest keep waiting."""
        states = last_states(con, list(self.items))
        indexed = hashes_of(con, self.items)
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
            settle: float, local: set[str] | frozenset[str] = frozenset()) -> list[NoteChange]:
    """Of these outside changes (and those held before), the ones to log now: those made
    here (``local``, seen written in place) at once, the rest once the sync settled."""
    held = Held.load(local_dir)
    mine = [c for c in changes if c.path in local]
    if not changes and not held.items:
        return []
    now = time.time()
    held.hold([c for c in changes if c.path not in local], now)
    ready = held.release(con, now, settle)
    held.save()
    return mine + ready
