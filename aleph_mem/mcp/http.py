"""``aleph-mem serve``: the same twelve tools over the MCP SDK's streamable HTTP transport, on
its own ASGI stack (Starlette, run by uvicorn), at ``/mcp``; every other path is the page
where a person sees memory (``web/``), behind its own gate.

Who gets in: on a loopback address with no token made, this machine's programs; once any
token exists (and always on any other address), only a request with ``Authorization:
Bearer <token>``: a bad or missing one gets 401 with an empty body. The gate puts the
token's ``Grant`` in the request's scope, where the tools read who writes and whether they
may. Host and Origin are checked by the SDK's own DNS-rebinding guard.

``listening`` binds and builds it; ``serve`` runs it in the main thread, ``daemon --serve``
in a thread beside the daemon's jobs (``Listening.run_until``), with the tools on a sibling
of the daemon's ``Memory``.
"""

from __future__ import annotations

import ipaddress
import signal
import socket
import sys
import threading
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mcp.server.transport_security import TransportSecuritySettings

from aleph_mem import logs
from aleph_mem.errors import AlephError, BadInput
from aleph_mem.install import serve_tokens
from aleph_mem.install.serve_tokens import Grant
from aleph_mem.mcp.server import GRANT, State, build_server, leave
from aleph_mem.web.app import ACTOR, Page
from aleph_mem.web.gate import Gate

if TYPE_CHECKING:
    import uvicorn

    from aleph_mem.memory import Memory

log = logs.get(__name__)

WILDCARDS = ("0.0.0.0", "::", "")

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


@dataclass(frozen=True)
class Address:
    host: str
    port: int

    @property
    def loopback(self) -> bool:
        return is_loopback(self.host)

    @property
    def netloc(self) -> str:
        return f"[{self.host}]:{self.port}" if ":" in self.host else f"{self.host}:{self.port}"

    @property
    def url(self) -> str:
        return f"http://{self.netloc}/mcp"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def security(address: Address, allowed: list[str]) -> TransportSecuritySettings:
    """The Host values a request may carry (the address bound, this machine's names on
    loopback, and the names given with ``--allow-host``) and the Origins that go with them."""
    hosts = [] if address.host in WILDCARDS else [address.netloc]
    if address.loopback:
        hosts += [f"{h}:{address.port}" for h in ("127.0.0.1", "localhost", "[::1]")]
    for name in allowed:
        hosts += [name, f"{name}:*"]
    hosts = list(dict.fromkeys(hosts))
    origins = [f"{scheme}://{h}" for h in hosts for scheme in ("http", "https")]
    return TransportSecuritySettings(enable_dns_rebinding_protection=True,
                                     allowed_hosts=hosts, allowed_origins=origins)


class TokenGate:
    """The ASGI layer in front of the SDK's app: bearer tokens, read afresh whenever the
    token file changes (a revoked token is refused at its next request)."""

    def __init__(self, app: ASGIApp, local_dir: Path, open_without_tokens: bool) -> None:
        self.app = app
        self.local_dir = local_dir
        self.open = open_without_tokens
        self._seen: tuple[int, int, int] | None = None
        self._tokens: list[serve_tokens.Token] | None = []

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # the lifespan: the SDK's session manager, our Memory
            await self.app(scope, receive, send)
            return
        tokens = self.tokens()
        if tokens is None or tokens or not self.open:
            grant = self.grant(scope, tokens or [])
            if grant is None:
                await respond(send, 401, b"", [(b"www-authenticate", b"Bearer")])
                return
            scope = {**scope, GRANT: grant}
        elif proxied(scope):
            await respond(send, 403, b"a request through a proxy needs a token: make one with "
                          b"`aleph-mem serve --new-token NAME`\n", [])
            return
        await self.app(scope, receive, send)

    def tokens(self) -> list[serve_tokens.Token] | None:
        """The stored tokens; None (nobody gets in) while the file cannot be read."""
        try:
            st = serve_tokens.path(self.local_dir).stat()
            seen = (st.st_mtime_ns, st.st_size, st.st_ino)
        except FileNotFoundError:
            seen = None
        if seen != self._seen:
            try:
                self._tokens = serve_tokens.load(self.local_dir)
            except (AlephError, OSError) as exc:
                log.error("tokens unreadable, every request is refused: %s", exc)
                self._tokens = None
            self._seen = seen
        return self._tokens

    @staticmethod
    def grant(scope: Scope, tokens: list[serve_tokens.Token]) -> Grant | None:
        for key, value in scope.get("headers", []):
            if key.lower() == b"authorization":
                kind, _, token = value.decode("latin-1").partition(" ")
                if kind.lower() == "bearer" and token.strip():
                    return serve_tokens.check(tokens, token.strip())
        return None


def proxied(scope: Scope) -> bool:
    return any(k.lower() in (b"forwarded", b"x-forwarded-for") for k, _ in scope["headers"])


async def respond(send: Send, status: int, body: bytes,
                  headers: list[tuple[bytes, bytes]]) -> None:
    headers = [*headers, (b"content-length", str(len(body)).encode())]
    if body:
        headers.append((b"content-type", b"text/plain; charset=utf-8"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def routed(mcp: ASGIApp, page: ASGIApp) -> ASGIApp:
    """``/mcp`` (and the lifespan) to the SDK's app behind its token gate; every other path
    to the page, which keeps its own gate (``web/gate.py``)."""
    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or path == "/mcp" or path.startswith("/mcp/"):
            await mcp(scope, receive, send)
        else:
            await page(scope, receive, send)
    return app


def refusal(address: Address, tokens: list[serve_tokens.Token], allowed: list[str]) -> str | None:
    """Why the server must not start on this address, or None."""
    if not address.loopback and not tokens:
        return (f"{address.host} is not a loopback address: make a token first "
                "(`aleph-mem serve --new-token NAME`) and give it to each client")
    if address.host in WILDCARDS and not allowed:
        return (f"{address.host or 'every address'} answers on every interface: name the "
                "host clients use with --allow-host NAME (this machine's name or address)")
    return None


def bind(address: Address) -> socket.socket:
    family = socket.AF_INET6 if ":" in address.host else socket.AF_INET
    # IPPROTO_TCP named: asyncio turns Nagle off (TCP_NODELAY) only on sockets that say
    # they are TCP; without it every response waited ~40 ms for a delayed ACK
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((address.host, address.port))
        sock.listen(128)  # a client that connects before uvicorn runs waits, not refused
    except OSError as exc:
        sock.close()
        raise BadInput(f"cannot listen on {address.netloc} ({exc.strerror}); pick another "
                       "--port or --host") from exc
    return sock


@dataclass
class Listening:
    """A server bound to its address and ready to run: by ``serve`` in the main thread, or
    by ``daemon --serve`` in a thread beside the daemon's jobs (``run_until``)."""

    server: uvicorn.Server
    sock: socket.socket
    address: Address
    box: dict[str, State]
    line: str  # what it says when it starts

    @property
    def where(self) -> dict[str, str]:
        """Where it answers, for the daemon's status file."""
        return {"mcp": self.address.url, "page": f"http://{self.address.netloc}/"}

    def run_until(self, stop: threading.Event) -> None:
        """Serve in this thread (not the main one: no signal handlers) until ``stop`` is
        set, then shut down: requests in flight get up to GRACE_S seconds."""
        print(self.line, file=sys.stderr, flush=True)

        def stopper() -> None:
            stop.wait()
            self.server.should_exit = True
        threading.Thread(target=stopper, name="aleph-http-stop", daemon=True).start()
        self.server.run(sockets=[self.sock])


GRACE_S = 5


def listening(vault_root: Path, local_dir: Path, address: Address, allowed: list[str],
              flags: dict[str, Any] | None = None,
              opened: Callable[[], Memory] | None = None) -> Listening:
    """Bind ``address`` and build the app; refuses (BadInput) an address it must not open.
    ``opened``: the tools' Memory, shared with a daemon (``build_server``)."""
    import uvicorn

    tokens = serve_tokens.load(local_dir)
    why = refusal(address, tokens, allowed)
    if why:
        raise BadInput(why)
    sock = bind(address)
    address = Address(address.host, sock.getsockname()[1])  # --port 0: the one given
    box: dict[str, State] = {}
    app = build_server(vault_root, state_box=box, flags=flags, opened=opened) \
        .streamable_http_app(transport_security=security(address, allowed), host=address.host)
    gate = TokenGate(app, local_dir, open_without_tokens=address.loopback)
    page = Page(lambda: box["state"].mem.sibling(actor=ACTOR),
                Gate(gate.tokens, address.loopback, security(address, allowed).allowed_hosts))
    server = uvicorn.Server(uvicorn.Config(routed(gate, page), log_level="warning",
                                           lifespan="on", timeout_graceful_shutdown=GRACE_S))
    return Listening(server, sock, address, box, announcement(vault_root, address, tokens))


def serve_http(vault_root: Path, local_dir: Path, address: Address, allowed: list[str],
               flags: dict[str, Any] | None = None) -> int:
    """Serve until SIGINT or SIGTERM. Refuses (BadInput) an address it must not open."""
    ready = listening(vault_root, local_dir, address, allowed, flags)
    print(ready.line, file=sys.stderr, flush=True)
    # uvicorn turns SIGTERM into a graceful shutdown, then raises it again with this handler
    # back in place: leave as the stdio server does (status 0, no interpreter teardown)
    signal.signal(signal.SIGTERM, lambda *_: leave(ready.box))
    try:
        ready.server.run(sockets=[ready.sock])
    finally:
        leave(ready.box)
    return 0


def announcement(vault_root: Path, address: Address, tokens: list[serve_tokens.Token]) -> str:
    reach = ("only this machine can reach it" if address.loopback
             else "other machines can reach it")
    who = (f"{len(tokens)} token(s) admit clients (Authorization: Bearer)" if tokens
           else "no tokens: any program on this machine may use it")
    return (f"aleph-mem serves {vault_root} at {address.url} ({reach}; {who}); "
            f"the page is at http://{address.netloc}/")
