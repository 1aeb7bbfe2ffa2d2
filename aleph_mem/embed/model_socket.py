"""The running daemon's warm embedding model, lent to other processes on this machine.

A hybrid search from a terminal would otherwise load the model itself (about a second and
300 MiB) to embed one query. The daemon listens on a Unix socket only its user can open
(mode 0600, in the vault's local folder, or in the temp folder when that path is too long
for a socket); a request is one JSON line ``{"text": ...}``, the answer one JSON line with
the model's ``name:dim`` and the vector (float32, base64). Anything unexpected on either
side means "load the model yourself": the socket only ever saves time.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import json
import os
import socket
import socketserver
import stat
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from aleph_mem import logs

if TYPE_CHECKING:
    import numpy as np

log = logs.get(__name__)

MAX_TEXT = 20_000  # characters: a query, not a document
SOCKET_PATH_MAX = 100  # bytes; AF_UNIX allows 104-108


def socket_path(local_dir: Path) -> Path:
    """Where this vault's daemon listens: in the vault's private ``.aleph/local``, or, when
    that path is too long for a socket, in a folder of the shared temp folder only this
    user can enter (made so, and refused when another user made it first)."""
    here = local_dir / "embed.sock"
    if len(os.fsencode(here)) < SOCKET_PATH_MAX:
        return here
    digest = hashlib.sha1(os.fsencode(local_dir)).hexdigest()[:12]
    return private_dir() / f"{digest}.sock"


def private_dir() -> Path:
    folder = Path(tempfile.gettempdir()) / f"aleph-mem-{os.getuid()}"
    with contextlib.suppress(FileExistsError):
        folder.mkdir(mode=0o700)
    st = folder.lstat()
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077:
        raise OSError(f"{folder} is not this user's private folder (another user may have "
                      "made it): the model is not lent through it")
    return folder


def owned(path: Path) -> bool:
    """The socket is this user's: another user's socket at that name gets no query (a
    squatter would read every search and prompt)."""
    try:
        st = path.lstat()
    except OSError:
        return False
    return stat.S_ISSOCK(st.st_mode) and st.st_uid == os.getuid()


def _peer_is_me(s: socket.socket) -> bool:
    """The process at the other end runs as this user (Linux tells the kernel's view:
    SO_PEERCRED), so a query never reaches another user's listener, whatever the name."""
    cred = getattr(socket, "SO_PEERCRED", None)
    if cred is None:
        return True  # no such call here: the owner checks on the name and folder stand
    import struct

    _pid, uid, _gid = struct.unpack("3i", s.getsockopt(socket.SOL_SOCKET, cred,
                                                        struct.calcsize("3i")))
    return uid == os.getuid()


def available() -> bool:
    return hasattr(socket, "AF_UNIX")


class Server:
    """Answers embedding requests with ``embed`` (text -> (model "name:dim", vector))."""

    def __init__(self, path: Path, embed: Callable[[str], tuple[str, np.ndarray] | None]):
        self.path = path
        self.embed = embed
        self._server: socketserver.UnixStreamServer | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> bool:
        if not available():
            return False
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()  # a socket left by a killed daemon (the watcher lock is ours)
        outer = self

        class Handler(socketserver.StreamRequestHandler):
            def handle(self) -> None:
                self.connection.settimeout(5.0)
                try:
                    request = json.loads(self.rfile.readline(MAX_TEXT * 4 + 64))
                    text = request["text"]
                    if not isinstance(text, str) or len(text) > MAX_TEXT:
                        raise ValueError("not a query")
                    found = outer.embed(text)
                except (ValueError, KeyError, TypeError, OSError):
                    found = None
                if found is None:
                    reply = {"error": "no model"}
                else:
                    model, vec = found
                    reply = {"model": model, "vector": base64.b64encode(
                        vec.astype("<f4").tobytes()).decode()}
                with contextlib.suppress(OSError):
                    self.wfile.write(json.dumps(reply).encode() + b"\n")

        old = os.umask(0o177)  # the socket is created 0600: only this user can connect
        try:
            self._server = socketserver.ThreadingUnixStreamServer(str(self.path), Handler)
        except OSError as exc:
            log.info("no embedding socket (%s); searches load the model themselves", exc)
            return False
        finally:
            os.umask(old)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, name="aleph-sock",
                                        daemon=True)
        self._thread.start()
        return True

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            with contextlib.suppress(FileNotFoundError):
                self.path.unlink()


def query(path: Path, text: str, timeout: float = 2.0) -> tuple[str, np.ndarray] | None:
    """The daemon's vector for ``text`` and its model's "name:dim", or None (no daemon,
    not this user's, busy, or anything else: the caller loads the model)."""
    if not available() or not owned(path) or len(text) > MAX_TEXT:
        return None
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
            s.settimeout(timeout)
            s.connect(str(path))
            if not _peer_is_me(s):
                return None
            s.sendall(json.dumps({"text": text}).encode() + b"\n")
            data = b""
            while not data.endswith(b"\n"):
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
        reply = json.loads(data)
        import numpy as np

        vec = np.frombuffer(base64.b64decode(reply["vector"]), dtype="<f4").astype(np.float32)
        return str(reply["model"]), vec
    except (OSError, ValueError, KeyError, TypeError):
        return None
