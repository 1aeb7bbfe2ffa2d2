"""The error types of aleph-mem; each message says what to do next."""

from __future__ import annotations


class AlephError(Exception):
    """Base class: every error the library raises on purpose."""


class VaultNotFound(AlephError):
    """No vault where one was looked for; the message names where the place came from
    (``--vault``, ``ALEPH_MEM_VAULT``, or the working folder and those above it)."""

    def __init__(self, path: str, source: str = "", inside: str | None = None) -> None:
        if inside:
            said = (f"{path!r} is inside the vault {inside!r}: pass --vault {inside} (a vault "
                    "is the folder that holds .aleph/)")
        elif source == "here":
            said = (f"no aleph-mem vault here: neither {path!r} nor a folder above it holds "
                    ".aleph/; cd into your vault, pass --vault PATH or set ALEPH_MEM_VAULT "
                    "(`aleph-mem init PATH` makes a new vault)")
        else:
            said = (f"no aleph-mem vault at {path!r}" + (f" (from {source})" if source else "")
                    + f": run `aleph-mem init {path}` to create one there, or give the folder "
                    "of your vault (the one that holds .aleph/)")
        super().__init__(said)
        self.path = path


class PathOutsideVault(AlephError):
    def __init__(self, path: str, reason: str = "it leaves the vault") -> None:
        super().__init__(
            f"refused path {path!r}: {reason}; use a vault-relative path such as 'notes/idea.md'"
        )
        self.path = path


class NoteNotFound(AlephError):
    def __init__(self, ref: str, suggestions: list[str] | None = None) -> None:
        hint = f"; closest: {', '.join(suggestions)}" if suggestions else ""
        super().__init__(f"no note matches {ref!r}{hint}")
        self.ref = ref
        self.suggestions = suggestions or []


class SessionNotFound(AlephError):
    def __init__(self, ref: str, recent: list[str]) -> None:
        hint = f"; the latest: {', '.join(recent)}" if recent else \
            "; none is captured yet (`aleph-mem hooks install claude-code`, or `sessions import`)"
        super().__init__(f"no session matches {ref!r}{hint}")
        self.ref = ref
        self.recent = recent


class NoteExists(AlephError):
    def __init__(self, path: str, current_hash: str) -> None:
        super().__init__(
            f"{path} already exists (hash {current_hash}); to replace it pass "
            f"--expect-hash {current_hash}"
        )
        self.path = path
        self.current_hash = current_hash


class ConflictError(AlephError):
    """The note changed since the caller read it (compare-and-swap failed)."""

    def __init__(self, path: str, expected: str | None, actual: str | None) -> None:
        super().__init__(
            f"conflict on {path}: expected hash {expected or '(no file)'}, found "
            f"{actual or '(no file)'}; the note changed since you read it: re-read it and "
            "retry with the new hash"
        )
        self.path = path
        self.expected = expected
        self.actual = actual


class ConfigError(AlephError):
    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where


class BadInput(AlephError):
    """A request that cannot be carried out as given."""


class BadName(BadInput):
    """A new note's name that would break Obsidian or a synced copy on another system."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"refused name {path!r}: {reason}; choose a plain name such as "
                         "'notes/meeting-2026-01-05.md'")
        self.path = path
        self.reason = reason


class IgnoredPath(BadInput):
    def __init__(self, path: str, why: str) -> None:
        super().__init__(f"refused path {path!r}: {why}, so aleph-mem would never see the "
                         "note again; write it under a visible folder of the vault")
        self.path = path


class PoisonNote(BadInput):
    """Content no reader could load within its budgets: refused before it reaches disk."""

    def __init__(self, path: str, problem: str) -> None:
        super().__init__(f"refused to write {path}: {problem}; simplify the frontmatter "
                         "(plain keys and values, no self-referencing YAML anchors)")
        self.path = path


class DiskError(AlephError):
    """The file system refused an operation (full, read-only, permissions, names)."""

    HINTS = {28: "the disk is full: free some space and retry",
             30: "the file system is read-only: remount it writable to change notes",
             13: "permission denied: check the owner and mode of the folder",
             1: "permission denied: check the owner and mode of the folder",
             36: "a name is too long for the file system",
             20: "a folder on the way is a file",
             21: "the path is a folder, not a note"}

    def __init__(self, what: str, exc: OSError) -> None:
        hint = self.HINTS.get(exc.errno or 0, exc.strerror or str(exc))
        name = str(exc.filename or "")
        where = f" ({name})" if name and ".aleph-tmp-" not in name else ""
        super().__init__(f"{what} failed: {hint}{where}")
        self.errno = exc.errno


class ReadOnlyVault(AlephError):
    def __init__(self, reason: str) -> None:
        super().__init__(f"cannot change the vault now: {reason}; search, show, status and "
                         "log still work")


class VaultBusy(AlephError):
    def __init__(self, path: object, seconds: float) -> None:
        super().__init__(f"the vault is busy: another writer held {path} for {seconds:.0f} s; "
                         "try again in a moment")


class WatcherRunning(AlephError):
    def __init__(self, pid: str) -> None:
        super().__init__(f"another watcher (pid {pid}) already keeps this vault's index; "
                         "other processes only read the index. Stop it first, or just use "
                         "the vault: it is being kept up to date")
        self.pid = pid


class DreamBusy(AlephError):
    def __init__(self) -> None:
        super().__init__("another dream run is in progress on this vault; wait for it "
                         "(`aleph-mem dream status`) and try again")


class WatchLimit(AlephError):
    """The system's inotify limit is reached (the watcher falls back to polling)."""


class IndexUnavailable(AlephError):
    def __init__(self, path: object, reason: str) -> None:
        super().__init__(f"the index {path} cannot be opened ({reason}); free disk space or "
                         "make the vault writable, then run `aleph-mem index`")


class EmbedderUnavailable(AlephError):
    """The configured embedding model cannot be loaded offline (search uses full text)."""


class LLMError(AlephError):
    """The configured LLM provider failed; the message carries its reason."""


class HotMemoryFull(BadInput):
    def __init__(self, used: int, budget: int, need: int, lowest: list[str]) -> None:
        super().__init__(
            f"hot memory is full ({used} of {budget} characters used, this fact needs {need}). "
            f"Lowest-priority facts: {'; '.join(lowest)}. Remove or shorten one (edit "
            "MEMORY.md), or store this fact as a note with `write` instead")
        self.lowest = lowest


class FrontmatterTooComplex(ValueError):
    """Frontmatter that would take unbounded time or memory to read: too deep, recursive,
    or too large once its YAML aliases are expanded (the parser reports it on the note)."""
