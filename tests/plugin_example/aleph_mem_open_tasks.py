"""An aleph-mem plugin: the `open-tasks` dream pass lists notes with unticked tasks
(``- [ ] ...``) in the daily digest. It changes no note: it only reports."""

import re

from aleph_mem.dream.registry import DreamPass
from aleph_mem.plugins import hookimpl

OPEN_TASK = re.compile(r"^\s*[-*] \[ \] ", re.MULTILINE)


def plan(snapshot, context):
    counts = {n.path: len(OPEN_TASK.findall(n.body)) for n in snapshot.active()}
    busy = sorted((p for p, c in counts.items() if c), key=lambda p: (-counts[p], p))
    if busy:
        total = sum(counts.values())
        context.say(f"{total} open tasks in {len(busy)} notes: "
                    + ", ".join(f"[[{p[:-3]}]] ({counts[p]})" for p in busy[:10]))
    return []  # actions would go here: they are applied (and undoable) like the built-ins'


@hookimpl
def register_dream_passes(register):
    register(DreamPass("open-tasks", plan, "list notes with open tasks in the digest"))
