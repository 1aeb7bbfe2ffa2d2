"""Who may see the page and who may change the vault from it.

- The same tokens as ``/mcp``: a request with ``Authorization: Bearer <token>``, or a
  browser with the token in its cookie (set by signing in at ``/login``, HttpOnly and
  SameSite=Strict). A read-only token reads; its forms are refused.
- Without a token, only while no token exists, only on loopback, only not through a proxy,
  and only for the person ``serve`` runs as: the browser's socket must belong to the same
  user (``peer.uid_of``), so another account on the machine cannot open it.
- ``Host`` must be one the server answers to (DNS rebinding), and a form's POST must carry
  the page's CSRF token (an HMAC of the visitor under a secret made when the server
  started) and, when the browser sends them, a same-origin ``Origin`` and
  ``Sec-Fetch-Site``.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from http.cookies import CookieError, SimpleCookie

from aleph_mem.install import serve_tokens
from aleph_mem.web.peer import uid_of

COOKIE = "aleph-mem-token"
PERSON = "you"  # the visitor who came in without a token (the person serve runs as)


@dataclass(frozen=True)
class Visitor:
    name: str
    write: bool


class Refused(Exception):
    """A request the gate answers itself: a status and one line (or a way to sign in)."""

    def __init__(self, status: int, line: str, sign_in: bool = False) -> None:
        super().__init__(line)
        self.status = status
        self.sign_in = sign_in


class Gate:
    def __init__(self, tokens: Callable[[], list[serve_tokens.Token] | None], loopback: bool,
                 hosts: list[str]) -> None:
        self.tokens = tokens
        self.loopback = loopback
        self.hosts = hosts
        self.secret = secrets.token_bytes(32)
        self.uid = os.geteuid()

    def visitor(self, scope: Mapping, headers: Mapping[str, str]) -> Visitor:
        """The visitor of a request, or Refused."""
        if not self.host_allowed(headers.get("host", "")):
            raise Refused(421, "this server does not answer to that Host")
        tokens = self.tokens()
        if tokens is None:
            raise Refused(503, "the token file cannot be read: see the server's log")
        given = presented(headers)
        if given:
            grant = serve_tokens.check(tokens, given)
            if grant is None:
                raise Refused(401, "that token is not (or no longer) valid: sign in again",
                              sign_in=True)
            return Visitor(grant.name, grant.write)
        if tokens:
            raise Refused(401, "sign in with a token", sign_in=True)
        if "forwarded" in headers or "x-forwarded-for" in headers:
            raise Refused(403, "a request through a proxy needs a token: make one with "
                          "`aleph-mem serve --new-token NAME`")
        client, server = scope.get("client"), scope.get("server")
        if not self.loopback or not client or not server or \
                uid_of(tuple(client), tuple(server)) != self.uid:
            raise Refused(403, "without a token this page opens only for the user serve runs "
                          "as: make a token (`aleph-mem serve --new-token NAME`) and sign in")
        return Visitor(PERSON, True)

    def host_allowed(self, host: str) -> bool:
        if not self.hosts:  # a wildcard address with no --allow-host never starts
            return False
        for allowed in self.hosts:
            if host == allowed or (allowed.endswith(":*") and
                                   host.rsplit(":", 1)[0] == allowed[:-2]):
                return True
        return False

    def csrf(self, visitor: Visitor) -> str:
        return hmac.new(self.secret, visitor.name.encode(), hashlib.sha256).hexdigest()[:32]

    def check_form(self, visitor: Visitor, headers: Mapping[str, str], token: str) -> None:
        """A POST from the page itself, by a visitor who may write; else Refused."""
        if not visitor.write:
            raise Refused(403, f"the token {visitor.name!r} is read-only: it may read but not "
                          "change the vault")
        if headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
            raise Refused(403, "a form from another site is refused")
        origin = headers.get("origin")
        if origin is not None and not self.host_allowed(origin.split("://", 1)[-1]):
            raise Refused(403, "a form from another origin is refused")
        if not hmac.compare_digest(token.encode(), self.csrf(visitor).encode()):
            raise Refused(403, "the form's CSRF token is missing or stale: reload the page "
                          "and try again")


def presented(headers: Mapping[str, str]) -> str:
    """The token a request carries: in ``Authorization: Bearer``, else in the cookie."""
    kind, _, token = headers.get("authorization", "").partition(" ")
    if kind.lower() == "bearer" and token.strip():
        return token.strip()
    try:
        jar = SimpleCookie(headers.get("cookie", ""))
    except CookieError:
        return ""
    return jar[COOKIE].value if COOKIE in jar else ""
