"""Two devices, one vault, kept in step by a real pair of Syncthing instances on 127.0.0.1,
each device running its own `aleph-mem daemon` (watcher, index, dream).

    python benchmarks/devices.py [--trials 10] [--edits 100] [--notes 10000]

Needs `syncthing` on PATH (Debian: `apt-get install syncthing`). Reports:

1. save on one device → a search hit on the other: median and worst of --trials saves,
   against the goal of one sync interval (the folder watcher's delay, 1 s here) plus 2 s;
2. a day of edits compressed: --edits writes on each device (agents' writes through the
   CLI, a person's edits in files, on both sides, interleaved), then both devices dream:
   conflicting files, events a device logged for changes it did not see happen, which
   device dreamt, event bytes per 1,000 writes;
3. the first index of a synced --notes-note vault on the second device: the sync's time,
   then `aleph-mem index` there (0 skips it).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from scale import add_vault_args, generated_vault

from aleph_mem.memory import Memory

CLI = [sys.executable, "-m", "aleph_mem.cli"]
WATCH_DELAY_S = 1
SETTLE_S = 120  # sync_settle_seconds for the dream runs: the default


class Syncthing:
    def __init__(self, home: Path, gui: int, listen: int) -> None:
        self.home, self.gui, self.listen, self.key = home, gui, listen, f"bench-{gui}"
        env = {**os.environ, "STNOUPGRADE": "1", "STNODEFAULTFOLDER": "1"}
        subprocess.run(["syncthing", "generate", f"--home={home}", "--no-default-folder"],
                       check=True, capture_output=True, env=env)
        self.id = subprocess.run(["syncthing", "serve", f"--home={home}", "--device-id"],
                                 check=True, capture_output=True, text=True).stdout.strip()
        self.proc = subprocess.Popen(
            ["syncthing", "serve", f"--home={home}", "--no-browser", "--no-restart",
             f"--gui-address=http://127.0.0.1:{gui}", f"--gui-apikey={self.key}",
             "--skip-port-probing", "--no-default-folder"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        for _ in range(100):
            try:
                self.call("GET", "/rest/system/ping")
                break
            except OSError:
                time.sleep(0.2)
        self.call("PATCH", "/rest/config/options", {
            "listenAddresses": [f"tcp://127.0.0.1:{listen}"], "globalAnnounceEnabled": False,
            "localAnnounceEnabled": False, "relaysEnabled": False, "natEnabled": False,
            "urAccepted": -1, "crashReportingEnabled": False, "autoUpgradeIntervalH": 0})

    def call(self, method: str, path: str, body: object = None) -> object:
        req = urllib.request.Request(f"http://127.0.0.1:{self.gui}{path}", method=method,
                                     headers={"X-API-Key": self.key},
                                     data=json.dumps(body).encode() if body is not None
                                     else None)
        with urllib.request.urlopen(req, timeout=10) as r:
            data = r.read()
        return json.loads(data) if data else None

    def pair(self, other: Syncthing, folder: Path) -> None:
        self.call("POST", "/rest/config/devices", {
            "deviceID": other.id, "name": other.home.name,
            "addresses": [f"tcp://127.0.0.1:{other.listen}"]})
        self.call("POST", "/rest/config/folders", {
            "id": "vault", "label": "vault", "path": str(folder), "type": "sendreceive",
            "devices": [{"deviceID": self.id}, {"deviceID": other.id}],
            "fsWatcherEnabled": True, "fsWatcherDelayS": WATCH_DELAY_S,
            "rescanIntervalS": 60})

    def idle(self) -> bool:
        st = self.call("GET", "/rest/db/status?folder=vault")
        return isinstance(st, dict) and st.get("state") == "idle" and \
            st.get("needTotalItems", 1) == 0

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=20)


class Pair:
    """Two vault folders, two Syncthing instances, two aleph-mem daemons."""

    def __init__(self, work: Path, seed: Path | None = None) -> None:
        self.a, self.b = work / "laptop" / "vault", work / "desktop" / "vault"
        if seed is not None:
            shutil.copytree(seed, self.a, ignore=shutil.ignore_patterns("local", "index.db*",
                                                                         "cache"))
        subprocess.run([*CLI, "init", str(self.a)], check=True, capture_output=True)
        self.b.mkdir(parents=True)
        shutil.copy(self.a / ".stignore", self.b / ".stignore")
        self.st = [Syncthing(work / "laptop" / "st", 18391, 22101),
                   Syncthing(work / "desktop" / "st", 18392, 22102)]
        self.st[0].pair(self.st[1], self.a)
        self.st[1].pair(self.st[0], self.b)
        self.daemons: list[subprocess.Popen] = []

    def settle(self, timeout: float = 600) -> float:
        """Seconds until both instances are idle with nothing left to fetch."""
        t = time.perf_counter()
        calm = 0
        while time.perf_counter() - t < timeout:
            calm = calm + 1 if all(s.idle() for s in self.st) else 0
            if calm >= 3:
                break
            time.sleep(0.5)
        return time.perf_counter() - t

    def start_daemons(self) -> None:
        for v in (self.a, self.b):
            self.daemons.append(subprocess.Popen(
                [*CLI, "--vault", str(v), "--embed-model", "none", "daemon"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        time.sleep(3)

    def stop(self) -> None:
        for d in self.daemons:
            d.send_signal(signal.SIGTERM)
            d.wait(timeout=30)
        for s in self.st:
            s.stop()


def write_as_person(root: Path, rel: str, text: str) -> None:
    """What an editor does: a temp file, then a rename over the note."""
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_name(f".{p.name}.tmp")
    tmp.write_text(text)
    os.replace(tmp, p)


def found_on(root: Path, word: str) -> bool:
    with Memory.open(root, {"embed_model": "none"}) as mem:
        return any(True for _ in mem.search(word, limit=1, mode="fts").hits)


def latency(pair: Pair, trials: int) -> list[float]:
    out = []
    for i in range(trials):
        word = f"zephyrine{i}x{os.getpid()}"
        src, dst = (pair.a, pair.b) if i % 2 == 0 else (pair.b, pair.a)
        write_as_person(src, f"inbox/latency {i}.md", f"# Latency {i}\n\nThe word {word}.\n")
        t = time.perf_counter()
        while not found_on(dst, word) and time.perf_counter() - t < 60:
            time.sleep(0.1)
        out.append(time.perf_counter() - t)
    return out


def day_of_edits(pair: Pair, edits: int) -> dict:
    written: dict[str, set[str]] = {"a": set(), "b": set()}
    for i in range(edits):
        for side, root in (("a", pair.a), ("b", pair.b)):
            rel = f"work/{side} note {i % 25}.md"
            if i % 3 == 0:  # an agent's write through the CLI
                subprocess.run([*CLI, "--vault", str(root), "write", rel],
                               input=f"# {side} {i % 25}\n\nrevision {i} from {side}\n",
                               capture_output=True, text=True)
            else:  # a person's edit in an editor
                write_as_person(root, rel, f"# {side} {i % 25}\n\nrevision {i} by hand\n")
            written[side].add(rel)
        time.sleep(0.05)
    settle_s = pair.settle()
    time.sleep(5)  # the daemons' watchers index what arrived
    dream: dict[str, str] = {}
    for _ in range(2):  # as the daemons' ticks would: a claim, then (settled) a run
        for side, root in (("a", pair.a), ("b", pair.b)):
            out = subprocess.run([*CLI, "--vault", str(root), "--embed-model", "none",
                                  "--sync-settle-seconds", str(SETTLE_S), "dream", "--force",
                                  "--json"], capture_output=True, text=True)
            body = json.loads(out.stdout) if out.returncode == 0 else {}
            dream[side] = f"{body.get('status')}: {body.get('note') or ''}".strip(": ") \
                if body else out.stderr.strip()
        pair.settle()
        time.sleep(SETTLE_S + 1)
    conflicts = [str(p) for root in (pair.a, pair.b) for p in root.rglob("*sync-conflict*")]
    wrong = []  # events a device logged for notes only the other device wrote
    for side, root, other in (("a", pair.a, "b"), ("b", pair.b, "a")):
        with Memory.open(root, {"embed_model": "none"}) as mem:
            me = mem.store.events.host
            for e in mem.log(limit=100_000):
                if e.host == me and e.path in written[other] - written[side] and \
                        e.actor == "human":
                    wrong.append(f"{side}: {e.at} {e.kind} {e.path}")
    event_bytes = sum(p.stat().st_size for p in (pair.a / ".aleph" / "events").rglob("*.jsonl"))
    return {"writes": 2 * edits, "sync_settle_s": round(settle_s, 1),
            "conflicting_files": conflicts, "events_for_changes_not_seen": len(wrong),
            "wrong_events": wrong[:5],
            "event_bytes_per_1000_writes": round(event_bytes / (2 * edits) * 1000),
            "dream": dream}


def first_index(args: argparse.Namespace, work: Path) -> None:
    base = generated_vault(args, args.notes)
    pair = Pair(work / "big", seed=base)
    try:
        t = time.perf_counter()
        pair.settle(timeout=1800)
        synced = time.perf_counter() - t
        count = sum(1 for _ in pair.b.rglob("*.md"))
        t = time.perf_counter()
        subprocess.run([*CLI, "--vault", str(pair.b), "index", "--no-embed"], check=True,
                       capture_output=True)
        print(f"first index of a synced {args.notes}-note vault on the second device: sync "
              f"{synced:.0f} s ({count} notes arrived), then `aleph-mem index` "
              f"{time.perf_counter() - t:.1f} s")
    finally:
        pair.stop()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_vault_args(ap)
    ap.add_argument("--trials", type=int, default=10)
    ap.add_argument("--edits", type=int, default=100)
    ap.add_argument("--notes", type=int, default=10_000)
    args = ap.parse_args()
    if shutil.which("syncthing") is None:
        sys.exit("syncthing is not installed (Debian: apt-get install syncthing)")
    work = Path(tempfile.mkdtemp(prefix="aleph-devices-"))
    pair = Pair(work)
    try:
        print(f"paired in {pair.settle():.1f} s")
        pair.start_daemons()
        times = latency(pair, args.trials)
        print(f"save on one device → search hit on the other, {args.trials} saves: median "
              f"{statistics.median(times):.2f} s, worst {max(times):.2f} s (goal: one sync "
              f"interval, {WATCH_DELAY_S} s, plus 2 s)")
        day = day_of_edits(pair, args.edits)
        print(f"a day of edits: {day['writes']} writes on two devices, settled in "
              f"{day['sync_settle_s']} s; conflicting files {len(day['conflicting_files'])}; "
              f"events logged for changes the device did not see "
              f"{day['events_for_changes_not_seen']}; event log "
              f"{day['event_bytes_per_1000_writes']} bytes per 1,000 writes")
        for side, said in day["dream"].items():
            print(f"  dream on {'laptop' if side == 'a' else 'desktop'}: {said}")
        for c in day["conflicting_files"]:
            print(f"  conflict: {c}")
        for w in day["wrong_events"]:
            print(f"  logged here, written there: {w}")
    finally:
        pair.stop()
    if args.notes:
        first_index(args, work)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
