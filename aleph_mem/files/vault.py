"""The vault on disk: where it is, which files are notes, and safe paths inside it."""

from __future__ import annotations

import errno
import fnmatch
import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from aleph_mem.errors import PathOutsideVault, VaultNotFound

ALWAYS_IGNORED_DIRS = frozenset({".aleph", ".obsidian", ".git", ".trash"})
# the vault's reserved folders, spelled here only (a test holds every room to it)
ARCHIVE = "archive/"  # archived notes, each at archive/<the path it had>
DREAM = "_dream/"  # the pages the dream writes for people: digests, lint, proposals


def content_hash(data: bytes) -> str:
    import hashlib  # here: loading OpenSSL is a good part of a read-only command's start

    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True)
class FileStat:
    mtime_ns: int
    size: int


@dataclass
class Listing:
    """One walk of the vault: notes with their stats, other files, and what was skipped."""

    notes: dict[str, FileStat] = field(default_factory=dict)
    attachments: set[str] = field(default_factory=set)
    skipped: list[tuple[str, str]] = field(default_factory=list)


def path_problem(rel: str) -> str | None:
    """Why a vault-relative path, as written (no file is looked at), leaves the vault or
    names aleph-mem's own data, or None. ``Vault.abs`` adds the symlinks on the way."""
    if not rel or "\x00" in rel:
        return "empty or invalid path"
    posix = rel.replace("\\", "/")
    parts = [p for p in posix.split("/") if p not in ("", ".")]  # as PurePosixPath reads it
    if posix.startswith("/") or (parts and parts[0].endswith(":")):
        return "absolute paths are not allowed"
    if ".." in parts:
        return "'..' is not allowed"
    if parts and parts[0] == ".aleph":
        return ".aleph/ holds aleph-mem's own data, not notes"
    return None


class Vault:
    def __init__(self, root: Path) -> None:
        self.root = root.resolve()

    @property
    def aleph_dir(self) -> Path:
        return self.root / ".aleph"

    @property
    def local_dir(self) -> Path:
        return self.aleph_dir / "local"

    @property
    def index_path(self) -> Path:
        return self.aleph_dir / "index.db"

    @classmethod
    def open(cls, root: Path) -> Vault:
        if not (root / ".aleph").is_dir():
            raise VaultNotFound(str(root))
        return cls(root)

    def rel(self, path: Path) -> str:
        return path.relative_to(self.root).as_posix()

    def abs(self, rel: str) -> Path:
        """The absolute path of a vault-relative path, refusing anything that leaves the vault."""
        problem = path_problem(rel)
        if problem:
            raise PathOutsideVault(rel, problem)
        target = self.root.joinpath(*PurePosixPath(rel.replace("\\", "/")).parts)
        try:
            resolved = target.resolve()
        except (RuntimeError, OSError):
            raise PathOutsideVault(rel, "a symlink on the way loops") from None
        if resolved != self.root and self.root not in resolved.parents:
            raise PathOutsideVault(rel, "a symlink on the way points outside the vault")
        return target

    def normalise(self, rel: str) -> str:
        """A clean vault-relative posix path for a note (adds .md when missing). A folder
        on the way that is a symlink within the vault is followed: the note is written,
        logged and indexed once, under the path the index knows it by (the scan does not
        follow symlinked folders)."""
        target = self.abs(rel)
        folder = target.parent.resolve()
        out = self.rel(folder / target.name) if folder != target.parent else self.rel(target)
        return out if out.lower().endswith(".md") else out + ".md"

    def read_bytes(self, rel: str) -> bytes | None:
        try:
            return self.abs(rel).read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            if exc.errno == errno.ENAMETOOLONG:
                return None  # no file can have that name
            raise

    def walk(self, ignore: Iterable[str] = ()) -> Listing:
        patterns = list(ignore)
        out = Listing()
        root = str(self.root)
        cut = len(root) + 1
        for dirpath, dirnames, filenames in os.walk(root):
            prefix = dirpath[cut:].replace(os.sep, "/")
            prefix = prefix + "/" if prefix else ""
            keep = []
            for d in dirnames:
                if d in ALWAYS_IGNORED_DIRS or d.startswith("."):
                    continue
                rel_d = prefix + d
                if not _utf8(d):
                    out.skipped.append((_shown(rel_d), NOT_UTF8))
                    continue
                if patterns and _ignored(rel_d + "/", patterns):
                    continue
                if os.path.islink(os.path.join(dirpath, d)):
                    out.skipped.append((rel_d, "symlinked folder: not followed"))
                    continue
                keep.append(d)
            dirnames[:] = sorted(keep)
            for name in filenames:
                rel_f = prefix + name
                if name.startswith(".") or (patterns and _ignored(rel_f, patterns)):
                    continue
                if not _utf8(name):  # one odd name never stops the rest of the vault
                    if name.lower().endswith(".md"):
                        out.skipped.append((_shown(rel_f), NOT_UTF8))
                    continue
                full = os.path.join(dirpath, name)
                try:
                    st = os.lstat(full)
                    if stat.S_ISLNK(st.st_mode):
                        problem = self.symlink_problem(Path(full))
                        if problem:
                            out.skipped.append((rel_f, problem))
                            continue
                        st = os.stat(full)
                except OSError as exc:
                    out.skipped.append((rel_f, f"cannot stat: {exc.strerror}"))
                    continue
                if not stat.S_ISREG(st.st_mode):  # a FIFO would hang the read, a device never end
                    if name.lower().endswith(".md"):
                        out.skipped.append((rel_f, "not a regular file (a pipe, a device or "
                                            "a socket): not read"))
                    continue
                if name.lower().endswith(".md"):
                    out.notes[rel_f] = FileStat(st.st_mtime_ns, st.st_size)
                else:
                    out.attachments.add(rel_f)
        return out


    def symlink_problem(self, link: Path) -> str | None:
        """Why a symlinked note is not indexed (it loops, dangles or leaves the vault)."""
        try:
            real = link.resolve(strict=True)
        except RuntimeError:
            return "symlink loop: not indexed"
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                return "symlink loop: not indexed"
            return "symlink that leaves the vault: not indexed"  # dangling
        if real != self.root and self.root not in real.parents:
            return "symlink that leaves the vault: not indexed"
        return None

    def is_note_path(self, rel: str, ignore: Iterable[str] = ()) -> bool:
        """Whether a vault-relative path is one the index holds as a note."""
        parts = rel.split("/")
        if not rel.lower().endswith(".md") or any(p.startswith(".") for p in parts):
            return False
        return not _ignored(rel, list(ignore))

    def stat_paths(self, paths: Iterable[str], ignore: Iterable[str] = ()) -> Listing:
        """A listing of just these paths (the watcher's batch), without walking the vault."""
        out = Listing()
        for rel in paths:
            if not self.is_note_path(rel, ignore):
                continue
            if not _utf8(rel):
                out.skipped.append((_shown(rel), NOT_UTF8))
                continue
            full = self.root / rel
            try:
                problem = self.symlink_problem(full) if full.is_symlink() else None
                if problem:
                    out.skipped.append((rel, problem))
                    continue
                st = full.stat()
            except FileNotFoundError:
                continue
            except OSError as exc:
                out.skipped.append((rel, f"cannot stat: {exc.strerror}"))
                continue
            if stat.S_ISREG(st.st_mode):
                out.notes[rel] = FileStat(st.st_mtime_ns, st.st_size)
        return out


NOT_UTF8 = "a file name that is not UTF-8: not indexed (rename it to read it)"


def _utf8(name: str) -> bool:
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:  # os.walk hands undecodable bytes back as surrogates
        return False
    return True


def _shown(rel: str) -> str:
    """A path that is not UTF-8, as it can be stored and printed (its odd bytes escaped)."""
    return rel.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def make_private(folder: Path) -> None:
    """``.aleph`` is its owner's: the index, captured transcripts, pre-images, locks and the
    model socket inside it are out of other local users' reach (a folder they cannot enter
    hides every file in it, whatever the file's own mode). Left alone when another user
    owns it or the disk is read-only."""
    try:
        st = folder.stat()
        if st.st_uid == os.getuid() and st.st_mode & 0o077:
            os.chmod(folder, stat.S_IMODE(st.st_mode) & 0o700)
    except OSError:
        pass


def _ignored(rel: str, patterns: list[str]) -> bool:
    return any(fnmatch.fnmatch(rel, p) or fnmatch.fnmatch(rel.rstrip("/"), p) for p in patterns)


def find_vault(start: Path) -> Path | None:
    """The nearest folder at or above ``start`` that holds ``.aleph/``."""
    here = start.resolve()
    for candidate in (here, *here.parents):
        if (candidate / ".aleph").is_dir():
            return candidate
    return None
