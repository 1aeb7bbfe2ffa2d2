"""Every change to a note, logged and undoable: ``writer`` (the one module that writes
notes: lock, compare-and-swap, pre-image, atomic swap, event; open it first), ``events``
(the append-only event log), ``undo``, ``outside_changes`` (what counts as a change made
outside aleph-mem), ``unlogged`` (what the index took in that the log does not hold:
a reconcile's paths until they are logged, the baseline), ``sync_settle`` (changes that
may have come by sync wait for their event) and ``versions`` (every note as it was at a
moment, from the log and the pre-images)."""

__all__ = ["events", "outside_changes", "sync_settle", "undo", "unlogged", "versions",
           "writer"]
