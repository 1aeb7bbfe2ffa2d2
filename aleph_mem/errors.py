"""The error types of aleph-mem; each message says what to do next."""

from __future__ import annotations


class AlephError(Exception):
    """Base class: every error the library raises on purpose."""


class VaultNotFound(AlephError):
    def __init__(self, path: str) -> None:
        super().__init__(
            f"no aleph-mem vault at {path!r}: run `aleph-mem init {path}` to create one, "
            "or pass --vault PATH (or set ALEPH_MEM_VAULT)"
        )
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
