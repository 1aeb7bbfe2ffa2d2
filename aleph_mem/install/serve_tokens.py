"""Who may reach ``aleph-mem serve``: bearer tokens, each with a name and a mode.

Only a token's SHA-256 is kept, in ``.aleph/local/serve-tokens.json`` (mode 0600); the token
itself is shown once, when it is made. A presented token is hashed and compared with every
stored hash in constant time. A token's name is the actor its writes are logged under
(``mcp:<name>``), so it is held to the characters an actor may carry.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import re
import secrets
from dataclasses import dataclass
from pathlib import Path

from aleph_mem.clock import utc_now
from aleph_mem.errors import BadInput
from aleph_mem.files.atomic import fsync_dir, temp_path
from aleph_mem.files.locks import tokens_lock

FILE = "serve-tokens.json"
NAME = re.compile(r"[A-Za-z0-9._-]{1,40}")


@dataclass(frozen=True)
class Grant:
    """What a presented token may do: its name (the actor) and whether it may write."""

    name: str
    write: bool


@dataclass(frozen=True)
class Token:
    name: str
    sha256: str
    write: bool
    created: str


def path(local_dir: Path) -> Path:
    return local_dir / FILE


def load(local_dir: Path) -> list[Token]:
    """The stored tokens; none when there is no file. A file that cannot be read as tokens
    is an error (the server then lets nobody in rather than everyone)."""
    try:
        raw = path(local_dir).read_bytes()
    except FileNotFoundError:
        return []
    try:
        return [Token(t["name"], t["sha256"], bool(t["write"]), t.get("created", ""))
                for t in json.loads(raw)["tokens"]]
    except (ValueError, KeyError, TypeError) as exc:
        raise BadInput(f"{path(local_dir)} is not a token list ({exc}); remove it and make "
                       "the tokens again with `aleph-mem serve --new-token NAME`") from exc


def create(local_dir: Path, name: str, write: bool) -> str:
    """Make a token called ``name`` and return it (the only time it is seen)."""
    if not NAME.fullmatch(name):
        raise BadInput(f"token name {name!r}: use 1-40 letters, digits, '.', '_' or '-' "
                       "(it is the actor its writes are logged under)")
    with tokens_lock(local_dir):  # read, add, write back: nobody else's token is lost
        tokens = load(local_dir)
        if any(t.name == name for t in tokens):
            raise BadInput(f"a token called {name!r} exists; revoke it first "
                           f"(`aleph-mem serve --revoke-token {name}`) or pick another name")
        secret = secrets.token_urlsafe(32)
        tokens.append(Token(name, digest(secret), write,
                            utc_now().isoformat(timespec="seconds")))
        _save(local_dir, tokens)
    return secret


def revoke(local_dir: Path, name: str) -> None:
    with tokens_lock(local_dir):
        tokens = load(local_dir)
        kept = [t for t in tokens if t.name != name]
        if len(kept) == len(tokens):
            names = ", ".join(t.name for t in tokens) or "none"
            raise BadInput(f"no token called {name!r} (tokens: {names})")
        _save(local_dir, kept)


def check(tokens: list[Token], presented: str) -> Grant | None:
    """The grant of the token presented, or None. Every stored hash is compared, in
    constant time, whichever matches."""
    found = None
    given = digest(presented)
    for t in tokens:
        if hmac.compare_digest(t.sha256, given):
            found = Grant(t.name, t.write)
    return found


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _save(local_dir: Path, tokens: list[Token]) -> None:
    """Atomically, and readable by this user alone from the first byte."""
    local_dir.mkdir(parents=True, exist_ok=True)
    body = json.dumps({"tokens": [t.__dict__ for t in tokens]}, indent=1).encode()
    target = path(local_dir)
    tmp = temp_path(target)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(body)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync_dir(local_dir)
