"""Live sync: watch the vault (watchdog, inotify on Linux) and keep the index in step.

Events are collected per path and handled in debounced batches by one thread: editors'
atomic saves (temp file + rename, backup files, swap files) collapse into one update of
the real note; a burst (a branch switch, a sync) becomes one full reconcile. Changes made
by people become ``human`` events; aleph-mem's own writes are known by hash and skipped.
One watcher per vault: ``.aleph/local/watcher.lock`` elects it (the lock dies with its
process, so a stale one is simply taken over).
"""

from __future__ import annotations

import contextlib
import errno
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver, ObservedWatch
from watchdog.observers.polling import PollingObserver

from aleph_mem import logs
from aleph_mem.clock import iso, utc_now
from aleph_mem.files import activity
from aleph_mem.files.vault import ALWAYS_IGNORED_DIRS
from aleph_mem.memory import Memory
from aleph_mem.writes.sync_settle import from_sync

log = logs.get(__name__)

DEBOUNCE_S = 0.08  # quiet time that closes a batch
MAX_DELAY_S = 0.4  # a batch never waits longer than this for quiet
BURST = 300  # more paths than this in a batch: one full reconcile instead


@dataclass
class WatchStats:
    started_at: str = field(default_factory=lambda: iso(utc_now()))
    mode: str = "inotify"
    batches: int = 0
    full_reconciles: int = 0
    notes_changed: int = 0
    human_events: int = 0
    last_event_at: str | None = None
    last_batch_at: str | None = None


class _Handler(FileSystemEventHandler):
    def __init__(self, watcher: Watcher) -> None:
        self.watcher = watcher

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type in ("opened", "closed_no_write"):
            return
        paths = [event.src_path, getattr(event, "dest_path", "") or ""]
        if event.is_directory:
            if event.event_type in ("moved", "deleted", "created"):
                found = [os.fsdecode(p) for p in paths if p]
                if event.event_type in ("moved", "deleted"):
                    self.watcher.top_folder_gone(found[0])
                if event.event_type in ("moved", "created"):
                    self.watcher.new_top_folder(found[-1])
                self.watcher.note_dir_change(found)
            return
        # a sync engine's rename into place; or a note that only appeared (a rename whose
        # two halves inotify could not pair reads as "created"): it waits for its event
        synced = event.event_type == "created" or (event.event_type == "moved" and from_sync(
            os.path.basename(os.fsdecode(event.src_path))))
        for p in paths:
            if p:
                self.watcher.note_path(os.fsdecode(p), synced)


class Watcher:
    """Watches one vault and applies debounced batches through the front door (its
    reconcile also keeps the sessions' index and the dream's judgments in step)."""

    def __init__(self, mem: Memory, polling: bool = False,
                 on_batch: Callable[[dict[str, Any]], None] | None = None) -> None:
        self.mem = mem
        self.root = str(mem.vault.root)
        self.polling = polling
        self.on_batch = on_batch
        self.stats = WatchStats()
        self._pending: set[str] = set()
        self._synced: set[str] = set()  # of those, the ones a sync engine put in place
        self._full = False
        self._first_at = 0.0
        self._last_at = 0.0
        self._cond = threading.Condition()
        self._stop = threading.Event()
        self._observer: BaseObserver | None = None
        self._thread: threading.Thread | None = None
        self._busy = False

    # -- events from the observer thread ---------------------------------------------------

    def _rel(self, path: str) -> str | None:
        if not path.startswith(self.root + os.sep):
            return None
        rel = path[len(self.root) + 1:].replace(os.sep, "/")
        first = rel.split("/", 1)[0]
        if first in ALWAYS_IGNORED_DIRS:
            return None
        return rel

    def note_path(self, path: str, synced: bool = False) -> None:
        """A note changed; ``synced``: a sync engine renamed it into place."""
        rel = self._rel(path)
        if rel is None or not self.mem.vault.is_note_path(rel, self.mem.settings.ignore):
            return  # temp, swap and backup files, hidden and ignored folders
        self._add({rel}, full=False, synced={rel} if synced else set())

    def note_dir_change(self, paths: list[str]) -> None:
        if any(self._rel(p) is not None for p in paths):
            self._add(set(), full=True)

    def request_full(self) -> None:
        self._add(set(), full=True)

    def _add(self, rels: set[str], full: bool, synced: set[str] | None = None) -> None:
        with self._cond:
            self._synced |= synced or set()
            now = time.monotonic()
            if not self._pending and not self._full:
                self._first_at = now
            self._last_at = now
            self._pending |= rels
            self._full = self._full or full
            self.stats.last_event_at = iso(utc_now())
            self._cond.notify()

    @property
    def queue_length(self) -> int:
        with self._cond:
            return len(self._pending) + int(self._full)

    # -- the batch thread -------------------------------------------------------------------

    def _next_batch(self) -> tuple[set[str], bool, set[str]] | None:
        with self._cond:
            while not self._pending and not self._full:
                if self._stop.is_set():
                    return None
                self._cond.wait(0.25)
            while not self._stop.is_set():
                now = time.monotonic()
                quiet = now - self._last_at >= DEBOUNCE_S
                late = now - self._first_at >= MAX_DELAY_S
                if quiet or late:
                    break
                self._cond.wait(DEBOUNCE_S / 2)
            batch, full, synced = self._pending, self._full, self._synced
            self._pending, self._full, self._synced = set(), False, set()
            return batch, full, synced

    def _loop(self) -> None:
        while True:
            item = self._next_batch()
            if item is None:
                return
            self._busy = True
            try:
                self._apply(*item)
            except Exception:  # keep watching; the next full reconcile repairs the index
                log.exception("could not apply a batch of %d changes", len(item[0]))
            finally:
                self._busy = False

    def _apply(self, paths: set[str], full: bool, synced: set[str] | None = None) -> None:
        full = full or len(paths) > BURST
        report = self.mem.reindex(only=None if full else paths,
                                  local=None if full else paths - (synced or set()))
        self.stats.batches += 1
        self.stats.full_reconciles += int(full)
        self.stats.notes_changed += len(report.changes)
        self.stats.human_events += len(report.human)
        self.stats.last_batch_at = iso(utc_now())
        if report.human:
            activity.touch(self.mem.vault.local_dir, "human")
        if self.on_batch:
            self.on_batch({"paths": len(paths), "full": full, "changes": len(report.changes)})

    # -- life cycle -------------------------------------------------------------------------

    def start(self, progress: Callable[[int, int], None] | None = None) -> None:
        """Reconcile what changed while nobody watched (``progress(done, total)`` for a
        terminal), then watch."""
        self.mem.reindex(progress=progress)
        self._observer = self._start_observer()
        self._thread = threading.Thread(target=self._loop, name="aleph-watch", daemon=True)
        self._thread.start()

    def _watch_tree(self, observer: BaseObserver, handler: _Handler) -> None:
        """The vault's top level, and each visible top-level folder recursively: the
        hidden ones (.aleph with its hundreds of object folders, .git, .obsidian) cost no
        inotify watch and send no events."""
        observer.schedule(handler, self.root, recursive=False)
        for entry in sorted(os.scandir(self.root), key=lambda e: e.name):
            self._watch_folder(observer, handler, entry.path)

    def _watch_folder(self, observer: BaseObserver, handler: _Handler, path: str) -> None:
        name = os.path.basename(path)
        if name.startswith(".") or not os.path.isdir(path) or os.path.islink(path) \
                or path in self._watched:
            return
        self._watched[path] = observer.schedule(handler, path, recursive=True)

    def new_top_folder(self, path: str) -> None:
        """A folder appeared at the vault's top level: watch it too."""
        if self._observer is not None and os.path.dirname(path) == self.root:
            with contextlib.suppress(OSError):
                self._watch_folder(self._observer, self._handler, path)

    def top_folder_gone(self, path: str) -> None:
        watch = self._watched.pop(path, None)
        if watch is not None and self._observer is not None:
            with contextlib.suppress(Exception):
                self._observer.unschedule(watch)

    def _start_observer(self) -> BaseObserver:
        handler = self._handler = _Handler(self)
        self._watched: dict[str, ObservedWatch] = {}
        if not self.polling:
            observer = Observer()
            try:
                self._observer = observer
                self._watch_tree(observer, handler)
                observer.start()
                self.stats.mode = "inotify"
                return observer
            except OSError as exc:
                if exc.errno not in (errno.ENOSPC, errno.EMFILE):
                    raise
                log.warning(
                    "the inotify watch limit is reached (%s): falling back to polling every "
                    "2 s, which costs more CPU. Raise the limit with `sudo sysctl "
                    "fs.inotify.max_user_watches=524288` (and max_user_instances) and restart",
                    exc.strerror)
                with contextlib.suppress(Exception):
                    observer.stop()
        observer = PollingObserver(timeout=2)
        self._watched = {}
        self._observer = observer
        self._watch_tree(observer, handler)
        observer.start()
        self.stats.mode = "polling"
        return observer

    def stop(self) -> None:
        self._stop.set()
        with self._cond:
            self._cond.notify_all()
        if self._observer is not None:
            self._observer.stop()
            self._observer.join(timeout=5)
        if self._thread is not None:
            self._thread.join(timeout=30)

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Block until every event seen so far has been applied (for tests and tools)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._cond:
                busy = bool(self._pending or self._full) or self._busy
            if not busy:
                return True
            time.sleep(0.02)
        return False
