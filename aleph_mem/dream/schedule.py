"""When a scheduled dream run is due (docs/design.md 5): idle, inside the window or catching
up, not already spent today, and something changed since the last successful run or the
last decay pass is a week old."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from aleph_mem.clock import parse_iso
from aleph_mem.dream.journal import Journal
from aleph_mem.index import reading
from aleph_mem.store import Store
from aleph_mem.writes.events import changed_by_other_than_dream

if TYPE_CHECKING:
    import apsw

CATCHUP_HOURS = 26
CATCHUP_IDLE_MINUTES = 60
MAX_RESUMES_PER_DAY = 3
DECAY_EVERY_DAYS = 7


def in_window(window: str, local: dt.datetime) -> bool:
    start_s, _, end_s = window.partition("-")
    start = dt.time.fromisoformat(start_s.strip())
    end = dt.time.fromisoformat(end_s.strip())
    t = local.time()
    return start <= t < end if start <= end else (t >= start or t < end)


EARLY_IMPORTANCE = 150


def weekly_due(mem: Store, now: dt.datetime) -> bool:
    """The daily run becomes the weekly one when no weekly run succeeded for 7 days, or
    early, when the notes changed since the last one add up to an importance of 150
    (Generative Agents' reflection trigger; a note without `importance` counts 5)."""
    last = last_success_with(Journal(mem.vault.aleph_dir).runs(), "synthesis")
    if last is None or now - last >= dt.timedelta(days=7):
        return True
    return changed_importance(mem.con, last) >= EARLY_IMPORTANCE


def last_success_with(runs: list[dict], pass_name: str) -> dt.datetime | None:
    """When the latest successful run that included ``pass_name`` started."""
    done = [r for r in runs if r["status"] == "success" and pass_name in r.get("passes", [])]
    return parse_iso(done[-1]["at"]) if done else None


def changed_importance(con: apsw.Connection, since: dt.datetime) -> float:
    total = 0.0
    for fm in reading.frontmatters_changed_since(con, int(since.timestamp() * 1e9)):
        value = fm.get("importance")
        total += float(value) if isinstance(value, int | float) and \
            not isinstance(value, bool) else 5.0
    return total


def dream_due(mem: Store, now: dt.datetime, idle_s: float | None) -> bool:
    window = mem.settings.dream_window
    if window == "off":
        return False
    idle_min = mem.settings.idle_minutes
    if idle_s is not None and idle_s < idle_min * 60:
        return False
    runs = Journal(mem.vault.aleph_dir).runs()
    today = now.date().isoformat()
    spent = [r for r in runs if r["at"][:10] == today]
    if any(r["status"] in ("success", "error", "timeout") for r in spent):
        return False
    if sum(1 for r in spent if r["status"] == "interrupted") > MAX_RESUMES_PER_DAY:
        return False
    ok = [r for r in runs if r["status"] == "success"]
    last_ok = ok[-1]["at"] if ok else None
    catching_up = last_ok is None or (
        now - parse_iso(last_ok)
        >= dt.timedelta(hours=CATCHUP_HOURS))
    if not in_window(window, now.astimezone()) and not (
            catching_up and (idle_s is None or idle_s >= CATCHUP_IDLE_MINUTES * 60)):
        return False
    if last_ok is None:
        return True
    if changed_by_other_than_dream(mem.con, last_ok):
        return True
    decayed = last_success_with(runs, "decay")  # salience falls with time alone
    return decayed is None or now - decayed >= dt.timedelta(days=DECAY_EVERY_DAYS)


def next_dream(mem: Store, now: dt.datetime) -> str:
    """When the scheduled dream will really run, in words: the earliest time the window or a
    catch-up allows, and the quiet it waits for (not the scheduler's next tick)."""
    window = mem.settings.dream_window
    if window == "off":
        return "never by itself (dream_window is off; `aleph-mem dream` runs it)"
    quiet = f"once the vault has been quiet {mem.settings.idle_minutes} min"
    runs = Journal(mem.vault.aleph_dir).runs()
    local = now.astimezone()
    spent = any(r["at"][:10] == now.date().isoformat() and r["status"] in
                ("success", "error", "timeout") for r in runs)
    start = dt.time.fromisoformat(window.partition("-")[0].strip())
    day = local.date() + dt.timedelta(days=1 if spent or local.time() >= start and
                                      not in_window(window, local) else 0)
    if not spent and in_window(window, local):
        return f"now, inside its window {window}, {quiet}"
    opens = dt.datetime.combine(day, start, local.tzinfo)
    ok = [r for r in runs if r["status"] == "success"]
    if not spent and ok:
        catch = parse_iso(ok[-1]["at"]) + dt.timedelta(hours=CATCHUP_HOURS)
        if catch < opens.astimezone(dt.UTC):
            return (f"{catch.astimezone().strftime('%Y-%m-%d %H:%M')} to catch up (no run for "
                    f"{CATCHUP_HOURS} h), once the vault has been quiet "
                    f"{CATCHUP_IDLE_MINUTES} min; else {opens.strftime('%Y-%m-%d %H:%M')}")
    if not ok and not spent:
        return f"now, to catch up (it never ran), once quiet {CATCHUP_IDLE_MINUTES} min"
    return f"{opens.strftime('%Y-%m-%d %H:%M')} (its window {window}), {quiet}"
