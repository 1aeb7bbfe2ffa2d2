"""The dream: passes that tidy the vault while it is idle (docs/dream.md).

``registry`` says what a pass is; ``builtin`` lists the built-in ones; ``runner`` runs a
pipeline of passes and applies their actions. The built-ins are registered here, through
the plugin hook every outside pass uses; the pass modules load only when a run asks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aleph_mem.plugins import hookimpl


@hookimpl
def register_dream_passes(register: Callable[[Any], None]) -> None:
    from aleph_mem.dream.builtin import PASSES

    for p in PASSES:
        register(p)

__all__ = ["journal", "lease", "runner", "schedule", "view"]
