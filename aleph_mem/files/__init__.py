"""The vault and ``.aleph/`` on disk: where the vault is and which files are notes
(``vault``, open it first), the names a new note may have (``names``), atomic writes and the
checked swap (``atomic``), the locks (``locks``), note versions kept for undo (``preimages``),
append-only JSON-lines files (``jsonl``), sync engines' conflict copies (``sync_conflicts``),
and the small state files in ``.aleph/local/``: the activity stamp (``activity``) and what the
running daemon says about itself (``daemon_status``).

Imports nothing of aleph-mem above the ground floor."""

__all__ = [
    "activity", "atomic", "daemon_status", "jsonl", "locks", "names", "preimages",
    "sync_conflicts", "vault"
]
