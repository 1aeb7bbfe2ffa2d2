"""One dreamer per vault: a lease in the synced ``.aleph/dreamer.json`` names the device
that dreams. Two devices dreaming on the same day wrote the same changes twice and fought
over the digest; now the other devices watch, index and serve agents, and a dream there
says which device dreams and writes nothing (unless asked to anyway).

The lease is set by a command (``aleph-mem dreamer set``), claimed by the first device that
dreams when none is set, and taken over by another device only when its holder has been
silent longer than ``dreamer_takeover_hours``: the holder renews it at every run, so only
the dreamer ever writes the file.

A claim on a vault other devices write is not a run: two devices claiming in the same
minute would both dream before either saw the other's claim (measured with Syncthing: the
digest and the lease conflicted). So a claim waits ``sync_settle_seconds``; by then the
sync engine has settled the two claims into one file (Syncthing keeps the newer; its copy
of the other, ``dreamer.sync-conflict-….json``, is removed here), and only the device that
file names dreams.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import asdict, dataclass
from pathlib import Path

from aleph_mem import logs
from aleph_mem.clock import iso, parse_iso, utc_now
from aleph_mem.files.atomic import write_atomic

FILE = "dreamer.json"


log = logs.get(__name__)


@dataclass(frozen=True)
class Lease:
    host: str
    since: str  # when this device became the dreamer
    seen: str  # its last run (or claim)
    how: str  # "set" (a command), "claimed" (first to dream), "taken over"


def read(aleph_dir: Path) -> Lease | None:
    """The lease, or None when there is none or it cannot be trusted: unreadable, times that
    are not ISO times, or times more than a year ahead (a lease from another device's broken
    clock would otherwise never fall silent, and no device would dream again; a replay on a
    clock set ahead stays within a year). A bad one is logged and the next claim replaces
    it."""
    try:
        raw = json.loads((aleph_dir / FILE).read_bytes())
        lease = Lease(str(raw["host"]), str(raw["since"]), str(raw["seen"]), str(raw["how"]))
        ahead = utc_now() + dt.timedelta(days=366)
        if max(parse_iso(lease.since), parse_iso(lease.seen)) > ahead:
            raise ValueError(f"its times run ahead ({lease.seen})")
        return lease
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        log.warning("%s is not a lease to trust (%s): the next dream claims it anew",
                    aleph_dir / FILE, exc)
        return None


def write(aleph_dir: Path, lease: Lease) -> None:
    write_atomic(aleph_dir / FILE, json.dumps(asdict(lease), indent=1).encode() + b"\n")


def silent_hours(lease: Lease, now: dt.datetime) -> float:
    return (now - parse_iso(lease.seen)).total_seconds() / 3600


def drop_conflict_copies(aleph_dir: Path) -> int:
    """A sync engine's copies of the lease (two claims crossed): the file itself is what
    the engine settled on, the same on every device."""
    gone = 0
    for p in aleph_dir.glob("dreamer*"):
        if p.name != FILE and "conflict" in p.name.lower():  # Syncthing, Dropbox, Nextcloud
            p.unlink(missing_ok=True)
            gone += 1
    return gone


def may_dream(aleph_dir: Path, me: str, now: dt.datetime, takeover_hours: float,
              anyway: bool = False, renew: bool = True, shared: bool = False,
              settle_seconds: float = 0) -> tuple[bool, str]:
    """Whether this device dreams now, and why (for the person). Claims the lease when
    none is set, takes it over when its holder has been silent too long, and renews it
    when this device holds it (``renew``: a dry run only asks). On a vault other devices
    write (``shared``), a fresh claim dreams only once ``settle_seconds`` have passed."""
    lease = read(aleph_dir)
    stamp = iso(now)
    if renew:
        drop_conflict_copies(aleph_dir)
    if lease is None:
        if renew:
            write(aleph_dir, Lease(me, stamp, stamp, "claimed"))
        if shared and settle_seconds > 0:
            return False, (f"this device ({me}) claimed the dreamer's lease; it dreams once "
                           f"the other devices have seen the claim ({settle_seconds:g} s)")
        return True, f"this device ({me}) now dreams for the vault (no dreamer was set)"
    if lease.host == me and lease.how == "claimed" and lease.since == lease.seen and \
            shared and (now - parse_iso(lease.since)).total_seconds() < settle_seconds:
        return False, (f"this device ({me}) claimed the dreamer's lease at {lease.since}; "
                       f"it dreams once the claim has settled ({settle_seconds:g} s)")
    if lease.host == me:
        if renew:
            write(aleph_dir, Lease(me, lease.since, stamp, lease.how))
        return True, f"this device ({me}) is the vault's dreamer"
    silent = silent_hours(lease, now)
    if silent > takeover_hours:
        if renew:
            write(aleph_dir, Lease(me, stamp, stamp, "taken over"))
        return True, (f"{lease.host} has not dreamt for {silent:.0f} h (more than "
                      f"{takeover_hours:g}): this device ({me}) dreams now")
    if anyway:
        return True, f"{lease.host} is the vault's dreamer; this run was asked for anyway"
    return False, (f"{lease.host} is the vault's dreamer (last run {lease.seen}); this device "
                   f"({me}) watches, indexes and serves agents, and does not dream. "
                   "`aleph-mem dreamer set` makes this device the dreamer; `--anyway` runs "
                   "once here")


def set_here(aleph_dir: Path, me: str, now: dt.datetime) -> Lease:
    lease = Lease(me, iso(now), iso(now), "set")
    write(aleph_dir, lease)
    return lease
