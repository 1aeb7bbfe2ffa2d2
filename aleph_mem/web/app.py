"""The page's routes, as a plain ASGI app mounted by ``aleph-mem serve`` beside ``/mcp``.

Reading needs no JavaScript; ``/static/page.js`` only adds a key to the search box and
keeps a button from being pressed twice. Each request is read strictly before anything is
done: a path, a query or a form that is not UTF-8, holds control characters, is too long,
or a body over ``MAX_BODY`` is answered with one line and changes nothing. Writes (undo,
a proposal's tick or dismissal) go through the front door as the person (``cli``, as the
CLI logs them), so they are logged, read by the dream as the person's, and undoable."""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable, MutableMapping
from importlib import resources
from typing import Any
from urllib.parse import parse_qsl, unquote_to_bytes

import anyio

from aleph_mem import logs
from aleph_mem.errors import AlephError, NoteNotFound
from aleph_mem.install.serve_tokens import check
from aleph_mem.memory import Memory
from aleph_mem.web import views
from aleph_mem.web.gate import COOKIE, Gate, Refused, Visitor
from aleph_mem.web.html import Html, button_form, document, esc, join, link, tag

log = logs.get(__name__)

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

ACTOR = "cli"  # the person's own writes, as the CLI logs them (events.PERSON_ACTORS)
MAX_BODY = 16 * 1024
MAX_VALUE = 2000
STATIC = {"/static/page.css": "text/css", "/static/page.js": "text/javascript"}
HEADERS = [(b"content-security-policy", b"default-src 'none'; style-src 'self'; "
            b"script-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none';"
            b" base-uri 'none'"),
           (b"x-content-type-options", b"nosniff"), (b"referrer-policy", b"same-origin"),
           (b"x-frame-options", b"DENY"), (b"cache-control", b"no-store")]


class Bad(Exception):
    """A request answered with one line: its status and the line."""

    def __init__(self, status: int, line: str) -> None:
        super().__init__(line)
        self.status = status


class Page:
    def __init__(self, opener: Callable[[], Memory], gate: Gate) -> None:
        self.opener = opener
        self.gate = gate
        self.lock = threading.Lock()
        self._mem: Memory | None = None

    def memory(self) -> Memory:
        if self._mem is None:
            self._mem = self.opener()
        return self._mem

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", [])}
        try:
            status, body, extra = await self.answer(scope, receive, headers)
        except Refused as no:
            if no.sign_in and scope.get("method") == "GET":
                status, body, extra = 303, b"", [(b"location", b"/login")]
            else:
                status, body, extra = no.status, line(str(no)), []
        except Bad as bad:
            status, body, extra = bad.status, line(str(bad)), []
        except AlephError as exc:
            status = 404 if isinstance(exc, NoteNotFound) else 400
            body, extra = line(str(exc)), []
        await send({"type": "http.response.start", "status": status,
                    "headers": [*HEADERS, *extra, (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})

    async def answer(self, scope: Scope, receive: Receive, headers: dict[str, str]
                     ) -> tuple[int, bytes, list[tuple[bytes, bytes]]]:
        route = path_of(scope)
        method = scope.get("method", "GET")
        if method not in ("GET", "HEAD", "POST"):
            raise Bad(405, f"{method} is not answered here: the page reads with GET, its "
                      "forms POST")
        if route in STATIC and method != "POST":
            return 200, static(route), [(b"content-type", STATIC[route].encode() +
                                         b"; charset=utf-8")]
        if route == "/login":
            if not self.gate.host_allowed(headers.get("host", "")):
                raise Refused(421, "this server does not answer to that Host")
            return await self.login(scope, receive, headers, method)
        who = self.gate.visitor(scope, headers)
        if method == "POST":
            form = await read_form(receive, headers)
            self.gate.check_form(who, headers, form.get("csrf", ""))
            return await self.run(self.write, route, form, who)
        return await self.run(self.read, route, query_of(scope), who)

    async def run(self, fn: Callable[..., tuple[int, bytes, list]], *args: Any
                  ) -> tuple[int, bytes, list[tuple[bytes, bytes]]]:
        def locked() -> tuple[int, bytes, list]:
            with self.lock:
                return fn(*args)
        return await anyio.to_thread.run_sync(locked)

    def read(self, route: str, q: dict[str, str], who: Visitor
             ) -> tuple[int, bytes, list[tuple[bytes, bytes]]]:
        mem = self.memory()
        mem.sync_events()
        csrf = self.gate.csrf(who) if who.write else ""
        pages: dict[str, Callable[[], views.Page]] = {
            "/": lambda: views.home(mem, csrf),
            "/search": lambda: views.search(mem, q.get("q", ""), csrf),
            "/note": lambda: views.note(mem, need(q, "path"), csrf),
            "/log": lambda: views.log(mem, csrf),
            "/sessions": lambda: views.sessions(mem),
            "/session": lambda: views.session(mem, need(q, "ref")),
            "/dream": lambda: views.dream(mem, csrf),
            "/memory": lambda: views.memory(mem),
            "/status": lambda: views.status(mem),
        }
        if route not in pages:
            raise Bad(404, f"no page at {route}: / lists the pages")
        title, body = pages[route]()
        return 200, document(title, body, q.get("q", "") if route == "/search" else ""), \
            [(b"content-type", b"text/html; charset=utf-8")]

    def write(self, route: str, form: dict[str, str], who: Visitor
              ) -> tuple[int, bytes, list[tuple[bytes, bytes]]]:
        mem = self.memory()
        mem.sync_events()
        if route == "/proposal":
            box = need(form, "box")
            if box not in ("x", "-"):
                raise Bad(400, "box is x (tick) or - (dismiss)")
            pid = need(form, "id")
            mem.mark_proposal(pid, "x" if box == "x" else "-", actor=ACTOR)
            return 303, b"", [(b"location", f"/dream#{pid}".encode())]
        if route == "/undo":
            report = mem.undo(need(form, "id"), actor=ACTOR)
            return 200, document("undone", undone(report, self.gate.csrf(who))), \
                [(b"content-type", b"text/html; charset=utf-8")]
        raise Bad(404, f"no form posts to {route}")

    async def login(self, scope: Scope, receive: Receive, headers: dict[str, str],
                    method: str) -> tuple[int, bytes, list[tuple[bytes, bytes]]]:
        if method != "POST":
            box = Html('<form method="post" action="/login"><label>token <input '
                       'type="password" name="token" autocomplete="current-password">'
                       '</label> <button type="submit">sign in</button></form>')
            said = tag("p", "Paste a token made with `aleph-mem serve --new-token NAME`; "
                       "this browser keeps it in a cookie only this server reads.")
            return 200, document("sign in", join([said, box])), \
                [(b"content-type", b"text/html; charset=utf-8")]
        form = await read_form(receive, headers)
        origin = headers.get("origin")
        if origin is not None and not self.gate.host_allowed(origin.split("://", 1)[-1]):
            raise Bad(403, "a sign-in from another origin is refused")
        token = form.get("token", "").strip()
        tokens = self.gate.tokens() or []
        if not token or check(tokens, token) is None:
            raise Bad(401, "that token is not valid: make one with `aleph-mem serve "
                      "--new-token NAME`")
        cookie = f"{COOKIE}={token}; Path=/; HttpOnly; SameSite=Strict; Max-Age=31536000"
        return 303, b"", [(b"location", b"/"), (b"set-cookie", cookie.encode())]


def undone(report: Any, csrf: str) -> Html:
    said = [tag("p", f"undid {len(report.undone)} change(s) of {report.target}")]
    if report.run and report.undone:
        said.append(join([esc("This undo is run "), tag("code", report.run),
                          esc(": undo it to redo them. "),
                          button_form("/undo", "redo", csrf, "undo", id=report.run)]))
    said += [tag("p", f"written anew: {p}") for p in report.regenerate]
    said += [tag("p", f"refused {p}: {why}", class_="notice") for p, why in report.refused]
    said.append(tag("p", link("/log", "all changes")))
    return join(said)


def line(text: str) -> bytes:
    return (" ".join(text.split()) + "\n").encode("utf-8", "replace")


def path_of(scope: Scope) -> str:
    raw = scope.get("raw_path") or scope.get("path", "/").encode("utf-8", "surrogateescape")
    try:
        route = unquote_to_bytes(raw.split(b"?", 1)[0]).decode("utf-8")
    except UnicodeDecodeError:
        raise Bad(400, "the path is not UTF-8") from None
    return checked(route)


def query_of(scope: Scope) -> dict[str, str]:
    return parsed(scope.get("query_string", b""))


async def read_form(receive: Receive, headers: dict[str, str]) -> dict[str, str]:
    """A form's fields; a body over MAX_BODY is refused before it is read whole."""
    kind = headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/x-www-form-urlencoded":
        raise Bad(415, "a form is sent as application/x-www-form-urlencoded")
    size = headers.get("content-length", "0")
    if not size.isdigit() or int(size) > MAX_BODY:
        raise Bad(413, f"a form's body is at most {MAX_BODY} bytes")
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if len(body) > MAX_BODY:
            raise Bad(413, f"a form's body is at most {MAX_BODY} bytes")
        if not message.get("more_body"):
            return parsed(body)


def parsed(raw: bytes) -> dict[str, str]:
    try:
        pairs = parse_qsl(raw.decode("ascii"), max_num_fields=20, encoding="utf-8",
                          errors="strict")
    except UnicodeDecodeError:
        raise Bad(400, "the query or form is not percent-encoded UTF-8") from None
    except ValueError:
        raise Bad(400, "too many fields") from None
    return {checked(k): checked(v) for k, v in pairs}


def checked(value: str) -> str:
    if len(value) > MAX_VALUE:
        raise Bad(400, f"a value is at most {MAX_VALUE} characters")
    if any(ord(c) < 32 and c not in "\t\n\r" or ord(c) == 127 for c in value):
        raise Bad(400, "a value holds control characters")
    return value


def need(fields: dict[str, str], key: str) -> str:
    value = fields.get(key, "").strip()
    if not value:
        raise Bad(400, f"give {key}")
    return value


def static(route: str) -> bytes:
    return resources.files("aleph_mem.web").joinpath(route.lstrip("/")).read_bytes()
