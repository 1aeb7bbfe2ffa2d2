"""``aleph-mem daemon``: the watcher plus a scheduler that ticks, knows when the vault has
been idle, and runs due jobs (the periodic reconcile now; the dream passes later), and, with
``--serve``, a companion beside them (the HTTP server, which the CLI hands in: this floor
does not know it)."""

from __future__ import annotations

import datetime as dt
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy  # noqa: F401 (in the main thread, before any worker: NUMPY_FIRST)
from apscheduler.schedulers.background import BackgroundScheduler

from aleph_mem import logs
from aleph_mem.clock import iso, utc_now
from aleph_mem.embed import model_socket
from aleph_mem.files import activity
from aleph_mem.files.daemon_status import write_status
from aleph_mem.files.locks import watcher_lock
from aleph_mem.index.indexer import Progress
from aleph_mem.index.reading import any_chunk_waiting, live_note_count, meta_value
from aleph_mem.memory import Memory
from aleph_mem.running.watcher import Watcher
from aleph_mem.sessions.chunk_vectors import any_waiting as any_session_chunk_waiting
from aleph_mem.writes.sync_settle import waiting

log = logs.get(__name__)
# NUMPY_FIRST (see mcp/server.py): the watcher, embedding, socket and scheduler threads.

TICK_S = 15
SLICE = 4000  # chunks embedded before the daemon judges the free cores again
CORES_IDLE_SECONDS = 120  # a person this recent keeps the other cores (dreams wait longer)


def vectors_pending(mem: Memory) -> bool:
    if mem.settings.embed_model == "none":
        return False
    con = mem.store.con
    return any_chunk_waiting(con) or any_session_chunk_waiting(con) or \
        meta_value(con, "vec_model") is None


@dataclass
class Job:
    """Something the daemon runs every ``every`` seconds; ``needs_idle`` jobs wait until the
    vault has been idle for ``idle_minutes``."""

    name: str
    every: float
    needs_idle: bool
    run: Callable[[], None]
    last_run: dt.datetime | None = None

    def due(self, now: dt.datetime) -> bool:
        return self.last_run is None or (now - self.last_run).total_seconds() >= self.every


@dataclass(frozen=True)
class Companion:
    """Something the daemon runs in a thread of its own while it runs (``daemon --serve``:
    the MCP and page server). ``run(stop)`` returns once ``stop`` is set; if it returns
    before, the daemon stops too (and exits 1, so a service manager restarts both).
    ``where`` goes into the status file."""

    name: str
    where: dict[str, str]
    run: Callable[[threading.Event], None]


def start_line(mem: Memory, socket: str | None, name: str = "daemon") -> str:
    """The one line a daemon says when it starts: what it watches, what it holds, how an
    agent connects."""
    notes = live_note_count(mem.store.con)
    st = mem.vector_state()
    if st["setting"] == "none":
        vectors = "vectors off (full-text search)"
    elif st["problem"]:
        vectors = f"vectors off: {st['problem']}"
    elif st["pending"]:
        vectors = (f"vectors for {st['embedded'] or 0} of {st['embedded'] + st['pending']} "
                   "chunks, the rest in the background")
    else:
        vectors = f"vectors for all {st['embedded'] or 0} chunks"
    shared = "; terminal searches borrow its model" if socket else ""
    from aleph_mem.install.clients import for_vault, typed

    return (f"aleph-mem {name} watching {mem.vault.root}: {notes} notes, {vectors}{shared}. "
            f"Agents connect with `{typed('--vault', mem.vault.root, 'mcp')}` (docs/mcp.md); "
            f"their sessions become notes with `{for_vault(mem.vault.root, 'hooks', 'install')}"
            " CLIENT` (docs/agents.md). Ctrl-C stops it.")


class Daemon:
    def __init__(self, mem: Memory, scheduler: bool = True,
                 progress: Callable[[str], Progress | None] | None = None,
                 companion: Companion | None = None) -> None:
        self.mem = mem
        self.companion = companion
        self.exit_code = 0
        # what shows the first index's and the first embedding's progress (a terminal)
        self.progress = progress or (lambda _what: None)
        self.local = mem.vault.local_dir
        self.watcher = Watcher(mem, polling=mem.settings.watcher == "polling",
                               on_batch=lambda _: self.write_status())
        self.use_scheduler = scheduler
        self.jobs: list[Job] = [Job("reconcile", mem.settings.reconcile_minutes * 60, False,
                                    self.watcher.request_full, utc_now()),
                                Job("dream", 60, True, self.maybe_dream),
                                Job("sessions", 300, True, self.session_notes)]
        self.stop_event = threading.Event()
        self.started_at = iso(utc_now())
        self.sched: BackgroundScheduler | None = None
        self.socket: str | None = None  # where the warm model is lent (embed_socket)
        self.embedding: dict[str, object] | None = None  # the backlog's progress, for status

    def maybe_dream(self) -> None:
        """Run the daily passes when they are due (docs/design.md 5), on a connection of their
        own; activity during the run pre-empts it."""
        with self.mem.sibling(actor="dream") as mem:
            report = mem.dream_if_due(self.idle_for())
            if report is None:
                return
            log.info("dream run %s: %s, %d applied, %d proposed", report.run_id,
                     report.status, len(report.applied), len(report.proposed))

    def session_notes(self) -> None:
        """Finished agent sessions become session notes, and transcripts past their
        retention go, while the vault is idle (on a connection of their own)."""
        with self.mem.sibling(actor="sessions") as mem:
            if mem.settings.session_notes:
                for done in mem.session_compress():
                    log.info("session %s: %s", done.session.session_id,
                             f"wrote {done.path}" if done.written else done.why)
            mem.session_prune()

    def idle_for(self) -> float | None:
        return activity.idle_seconds(self.local)

    def tick(self) -> None:
        now = utc_now()
        if waiting(self.local):  # changes waiting for a sync to settle
            self.watcher.request_full()
        idle = self.idle_for()
        idle_enough = idle is None or idle >= self.mem.settings.idle_minutes * 60
        for job in self.jobs:
            if job.due(now) and (idle_enough or not job.needs_idle):
                job.last_run = now
                try:
                    job.run()
                except Exception:
                    log.exception("job %s failed", job.name)
        self.write_status()

    def next_runs(self) -> dict[str, str]:
        """When each job will really run: the dream by its window, catch-up and quiet rule
        (its 60 s tick only checks), the others at their next tick."""
        from aleph_mem.dream.schedule import next_dream

        out = {}
        now = utc_now()
        idle = self.idle_for()
        for job in self.jobs:
            at = (job.last_run or now) + dt.timedelta(seconds=job.every)
            if job.needs_idle and idle is not None:  # not before the vault has been idle
                at = max(at, now + dt.timedelta(
                    seconds=max(0.0, self.mem.settings.idle_minutes * 60 - idle)))
            out[job.name] = iso(at)
        out["dream"] = next_dream(self.mem.store, utc_now())
        return out

    def write_status(self) -> None:
        st = self.watcher.stats
        idle = self.idle_for()
        write_status(self.local, {
            "state": "running", "pid": os.getpid(), "running_since": self.started_at,
            "watch_mode": st.mode, "scheduler": self.use_scheduler,
            "last_event_at": st.last_event_at, "last_batch_at": st.last_batch_at,
            "queue": self.watcher.queue_length, "batches": st.batches,
            "human_events": st.human_events,
            "idle_for_s": None if idle is None else round(idle, 1),
            "idle_minutes": self.mem.settings.idle_minutes,
            "next_run": self.next_runs() if self.use_scheduler else {},
            "embed_socket": self.socket,
            "embedding": self.embedding,
            "serves": self.companion.where if self.companion else None,
            "updated_at": iso(utc_now())})

    def free_cores(self, running: int = 1, load: float | None = None) -> int:
        """Worker processes for the embedding backlog: every core once nobody has used the
        vault for CORES_IDLE_SECONDS and nothing else keeps the machine busy, else one
        (re-judged every SLICE chunks, so a person coming back gets the cores back within
        about a minute).
        ``running``: the embedding processes of the slice just done, whose load the
        one-minute average (``load``, else the machine's) still holds."""
        from aleph_mem.embed.pool import cores

        idle = self.idle_for()
        n = cores()
        if n < 2 or (idle is not None and idle < CORES_IDLE_SECONDS):
            return 1
        try:
            others = (os.getloadavg()[0] if load is None else load) - running
        except OSError:
            return 1
        return max(1, min(n, round(n - max(0.0, others))))

    def _embedding(self, show: Progress | None, base: int = 0) -> Progress:
        """Progress for the terminal and for `status` (rate and time left); ``base``: the
        chunks earlier slices of this backlog embedded (the counts add up)."""
        started = time.monotonic()

        def progress(done: int, total: int) -> None:
            if show:
                show(base + done, base + total)
            spent = time.monotonic() - started
            rate = done / spent if spent > 0 else 0.0
            left = max(0, total - done)
            self.embedding = {"done": done, "of": total, "per_s": round(rate, 1),
                              "minutes_left": round(left / rate / 60, 1) if rate else None}
        return progress

    def _embed_query(self, text: str) -> tuple[str, numpy.ndarray] | None:
        """A query's vector for another process (embed_socket), with the daemon's model."""
        model = self.mem.embedder()
        if model is None:
            return None
        return f"{model.name}:{model.dim}", model.embed([text])[0]

    def _embed_loop(self) -> None:
        """Give new chunks vectors in the background, on a connection of its own."""
        try:
            with self.mem.sibling() as mem:
                show = self.progress("embedding")  # the first backlog, slice after slice
                base, workers = 0, 1
                while not self.stop_event.is_set():
                    if vectors_pending(mem):  # slice by slice, the cores judged before each
                        workers = self.free_cores(running=workers)
                        done = mem.embed(stop=self.stop_event,
                                         progress=self._embedding(show, base),
                                         workers=workers, limit=SLICE)
                        base += done
                        if mem.vector_problem:
                            log.warning("vectors are off: %s", mem.vector_problem)
                            return
                        if done:
                            continue  # straight on to the next slice
                    else:
                        show, base = None, 0  # the backlog is done: later ones are quiet
                    self.stop_event.wait(5.0)
        except Exception:
            log.exception("the embedding worker stopped; search stays full-text for new notes")

    def _companion(self, companion: Companion) -> None:
        """Run the companion; its end, asked for or not, ends the daemon."""
        try:
            companion.run(self.stop_event)
        except Exception:
            log.exception("%s failed", companion.name)
        if not self.stop_event.is_set():
            log.error("%s stopped on its own: the daemon stops too", companion.name)
            self.exit_code = 1
            self.stop_event.set()

    def run(self) -> int:
        with watcher_lock(self.local):
            self._install_signals()
            self.watcher.start(self.progress("indexing"))
            try:
                lend = model_socket.Server(model_socket.socket_path(self.local),
                                           self._embed_query)
                self.socket = str(lend.path) if lend.start() else None
            except OSError as exc:  # no private place for it: searches load the model
                log.warning("the warm model is not lent to other processes: %s", exc)
                self.socket = None
            name = "daemon" if self.use_scheduler else "watch"
            print(start_line(self.mem, self.socket, name), file=sys.stderr, flush=True)
            embedder = threading.Thread(target=self._embed_loop, name="aleph-embed",
                                        daemon=True)
            embedder.start()
            beside = None
            if self.companion is not None:
                beside = threading.Thread(target=self._companion, args=(self.companion,),
                                          name=f"aleph-{self.companion.name}", daemon=True)
                beside.start()
            if self.use_scheduler:
                self.sched = BackgroundScheduler(
                    job_defaults={"max_instances": 1, "coalesce": True})
                self.sched.add_job(self.tick, "interval", seconds=TICK_S, id="tick")
                self.sched.start()
            self.write_status()
            log.info("watching %s (%s)", self.mem.vault.root, self.watcher.stats.mode)
            try:
                while not self.stop_event.wait(1.0):
                    pass
            finally:
                self.stop_event.set()
                if beside is not None:
                    beside.join(timeout=30)
                if self.sched is not None:
                    self.sched.shutdown(wait=True)
                lend.stop()
                self.watcher.stop()
                embedder.join(timeout=30)
                write_status(self.local, {"state": "stopped", "pid": os.getpid(),
                                          "running_since": self.started_at,
                                          "stopped_at": iso(utc_now())})
        return self.exit_code

    def _install_signals(self) -> None:
        if threading.current_thread() is not threading.main_thread():
            return
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, lambda *_: self.stop_event.set())
