"""What a line of the dream journal must be before the dream acts on it.

The journal is synced like the event log, so a line in another device's folder is input:
a sync brings whatever that folder holds. Each line is checked the way an event is
(``writes/events.untrusted``): ids aleph-mem makes, ISO times, states, passes and
operations it knows, paths inside the vault, every field of the type its writer gives it.
A line that fails is skipped, with the reason, never acted on.
"""

from __future__ import annotations

import re
from typing import Any, Literal, get_args

from aleph_mem.clock import parse_iso
from aleph_mem.files.vault import path_problem

PROPOSAL_ID = re.compile(r"P-[0-9a-f]{8}")
HASH = re.compile(r"[0-9a-f]{64}")
DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
ProposalState = Literal["open", "applied", "dismissed", "outdated", "withdrawn", "failed",
                        "answered"]
Op = Literal["set", "archive", "rewrite", "fold", "generate", "remember"]  # Action.op
STATES: frozenset[str] = frozenset(get_args(ProposalState))
OPS: frozenset[str] = frozenset(get_args(Op))
HOT_MEMORY = "MEMORY.md"
# an action's fields as its writer gives them: (type, required)
ACTION_FIELDS: dict[str, tuple[type | tuple[type, ...], bool]] = {
    "pass_name": (str, True), "op": (str, True), "path": (str, True),
    "base": ((str, type(None)), True), "reason": (str, True), "set_keys": (dict, False),
    "unset": (list, False), "content": (str, False), "propose": (bool, False),
    "group": (str, False), "shows": (list, False), "judged": (str, False)}
RUN_LISTS = ("passes", "done", "merged")


def time_problem(value: Any) -> str | None:
    if not isinstance(value, str):
        return "its time is not a string"
    try:
        parse_iso(value)
    except (ValueError, TypeError):
        return "its time is not an ISO time"
    return None


def proposal_problem(rec: Any, passes: frozenset[str]) -> str | None:
    """Why a line of ``proposals.jsonl`` cannot be taken, or None."""
    if not isinstance(rec, dict):
        return "it is not a JSON object"
    if not isinstance(rec.get("id"), str) or not PROPOSAL_ID.fullmatch(rec["id"]):
        return "its id is not one the dream makes"
    problem = time_problem(rec.get("at"))
    if problem:
        return problem
    if not isinstance(rec.get("run", ""), str):
        return "its run is not a string"
    if rec.get("state") not in STATES:
        return "its state is not one the dream writes"
    if "action" in rec:
        return action_problem(rec["action"], passes)
    return None


def action_problem(action: Any, passes: frozenset[str]) -> str | None:
    if not isinstance(action, dict):
        return "its action is not an object"
    unknown = set(action) - set(ACTION_FIELDS)
    if unknown:
        return f"its action has fields the dream never writes: {sorted(unknown)[:3]}"
    for name, (kind, required) in ACTION_FIELDS.items():
        if name not in action:
            if required:
                return f"its action lacks {name}"
            continue
        if not isinstance(action[name], kind):
            return f"its action's {name} is not of the type the dream writes"
    if action["pass_name"] not in passes:
        return f"pass {action['pass_name'][:30]!r} is not one this vault runs"
    if action["op"] not in OPS:
        return f"operation {action['op'][:30]!r} is not one the dream applies"
    if action["base"] is not None and not HASH.fullmatch(action["base"]):
        return "its base is not a sha256 hash"
    if not all(isinstance(k, str) for k in action.get("set_keys", {})):
        return "its keys are not strings"
    if not all(isinstance(x, str) for x in (*action.get("unset", ()),
                                             *action.get("shows", ()))):
        return "its lists hold something other than strings"
    problem = path_problem(action["path"])
    if problem or not action["path"].endswith(".md"):
        return f"its path is not a note inside the vault ({problem or 'not a .md file'})"
    if (action["op"] == "remember") != (action["path"] == HOT_MEMORY):
        return "only a remember proposal writes hot memory, and it writes nothing else"
    return None


def run_problem(rec: Any) -> str | None:
    """Why a line of ``runs.jsonl`` cannot be taken, or None."""
    if not isinstance(rec, dict):
        return "it is not a JSON object"
    if not isinstance(rec.get("id"), str) or not isinstance(rec.get("status"), str):
        return "it lacks an id or a status string"
    problem = time_problem(rec.get("at"))
    if problem:
        return problem
    for name in RUN_LISTS:
        value = rec.get(name, [])
        if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
            return f"its {name} is not a list of strings"
    return None


def recall_problem(rec: Any) -> str | None:
    """Why a line of ``recalls.jsonl`` cannot be taken, or None."""
    if not isinstance(rec, dict):
        return "it is not a JSON object"
    if not isinstance(rec.get("day"), str) or not DAY.fullmatch(rec["day"]):
        return "its day is not a date"
    if not isinstance(rec.get("path"), str) or path_problem(rec["path"]):
        return "its path is not a note inside the vault"
    if not isinstance(rec.get("at", ""), str):
        return "its time is not a string"
    return None
