"""The page's tests share: a real vault with notes, a captured session and an open
proposal; `aleph-mem serve` as a real process; plain HTTP requests to it."""

from __future__ import annotations

import http.client
import os
import queue
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from session_helpers import CLAUDE, SID

CLI = [sys.executable, "-m", "aleph_mem.cli"]
ENV = {**os.environ, "ALEPH_MEM_EMBED_MODEL": "none"}  # full text: no model to load
BUILD = ("---\nstatus: running\nexpires: 2020-01-01\n---\n# Build\n\n"
         "The nightly build; see [[Heron]].\n")
HERON = "# Heron\n\nThe heron nests by the river. <script>alert('x')</script> & [[Build]]\n"


def cli(vault: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    out = subprocess.run([*CLI, "--vault", str(vault), *args], capture_output=True, text=True,
                         input=stdin, timeout=120, env=ENV)
    assert out.returncode == 0, out.stderr
    return out


def real_vault(vault: Path, tmp_path: Path) -> str:
    """Notes, a captured agent session with its note, and an open proposal (the id)."""
    (vault / "notes").mkdir(exist_ok=True)
    (vault / "notes" / "build.md").write_text(BUILD)
    folder = tmp_path / "projects" / "-work-projects-heron-api"
    folder.mkdir(parents=True)
    (folder / f"{SID}.jsonl").write_text(CLAUDE.read_text())
    cli(vault, "index")
    cli(vault, "write", "notes/heron.md", stdin=HERON)  # a logged change, for the timeline
    cli(vault, "sessions", "import", "claude-code", str(tmp_path / "projects"))
    cli(vault, "sessions", "compress", "--all")
    out = cli(vault, "dream", "run", "--pass", "drift", "--pass", "digest", "--force")
    found = re.search(r"proposed (P-[0-9a-f]{8})", out.stdout)
    assert found, out.stdout
    return found.group(1)


@contextmanager
def served(vault: Path, *args: str) -> Iterator[str]:
    """`aleph-mem serve --port 0 ARGS`; yields the page's URL (http://127.0.0.1:PORT)."""
    p = subprocess.Popen([*CLI, "--vault", str(vault), "serve", "--port", "0", *args],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=ENV)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in p.stderr], daemon=True).start()
    try:
        first = lines.get(timeout=60)
        found = re.search(r"the page is at (http://\S+)/", first)
        assert found, first
        yield found.group(1)
    finally:
        p.terminate()
        assert p.wait(timeout=30) == 0


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8")


def request(url: str, method: str, target: str, body: bytes | None = None,
            headers: dict[str, str] | None = None) -> Answer:
    """One raw request (the path sent as given, bytes and all)."""
    parts = urlsplit(url)
    con = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
    try:
        con.putrequest(method, target, skip_host="host" in (headers or {}),
                       skip_accept_encoding=True)
        sent = {"content-type": "application/x-www-form-urlencoded"} if body is not None \
            else {}
        sent.update(headers or {})
        for k, v in sent.items():
            con.putheader(k, v)
        if body is not None and "content-length" not in sent:
            con.putheader("content-length", str(len(body)))
        con.endheaders(body)
        r = con.getresponse()
        return Answer(r.status, {k.lower(): v for k, v in r.getheaders()}, r.read())
    finally:
        con.close()


def get(url: str, target: str, **headers: str) -> Answer:
    return request(url, "GET", target, headers=headers)


def csrf_of(page: str) -> str:
    found = re.search(r'name="csrf" value="([0-9a-f]+)"', page)
    assert found, page
    return found.group(1)


def snapshot(vault: Path) -> dict[str, bytes]:
    """Every note and every event file: what a refused request must leave as it was."""
    return {p.relative_to(vault).as_posix(): p.read_bytes() for p in vault.rglob("*")
            if p.is_file() and (p.suffix == ".md" or "/events/" in p.as_posix())}
