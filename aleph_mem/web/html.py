"""The page's HTML, written by hand: every value from the vault goes through ``esc`` (text)
or ``href`` (a link to one of the page's own routes), so note text is only ever text.
``Html`` marks markup already built, so it is not escaped twice."""

from __future__ import annotations

from html import escape
from urllib.parse import urlencode

NAV = (("/", "search"), ("/log", "changes"), ("/sessions", "sessions"),
       ("/dream", "dream"), ("/memory", "hot memory"), ("/status", "status"))


VOID = ("input", "meta", "link", "br")


class Html(str):
    """Markup built here from escaped parts."""


def esc(value: object) -> Html:
    return value if isinstance(value, Html) else Html(escape(str(value), quote=True))


def join(parts: list[Html] | tuple[Html, ...], sep: str = "") -> Html:
    return Html(sep.join(parts))


def tag(name: str, body: object = "", /, **attrs: object) -> Html:
    """``<name attrs>body</name>`` (``<input>`` and ``<meta>`` have no end); an attribute
    named ``class_`` is ``class``, ``aria_label`` is ``aria-label``; True is a bare
    attribute, None or False leaves it out."""
    said = "".join(f' {k.rstrip("_").replace("_", "-")}' if v is True else
                   f' {k.rstrip("_").replace("_", "-")}="{esc(v)}"'
                   for k, v in attrs.items() if v is not None and v is not False)
    if name in VOID:
        return Html(f"<{name}{said}>")
    return Html(f"<{name}{said}>{esc(body)}</{name}>")


def href(route: str, **params: object) -> str:
    """A link to one of the page's own routes (never to another host)."""
    kept = {k: str(v) for k, v in params.items() if v not in (None, "")}
    return route + ("?" + urlencode(kept) if kept else "")


def link(route: str, text: object, **params: object) -> Html:
    return tag("a", text, href=href(route, **params))


def note_link(path: str, text: object | None = None) -> Html:
    return link("/note", text if text is not None else path, path=path)


def button_form(action: str, label: str, csrf: str, css: str = "", **fields: str) -> Html:
    """A form of one button that POSTs ``fields`` (with the CSRF token) to ``action``;
    nothing for a visitor who may not write (no token)."""
    if not csrf:
        return Html()
    hidden = join([tag("input", type="hidden", name=k, value=v)
                   for k, v in {**fields, "csrf": csrf}.items()])
    return Html(f'<form method="post" action="{esc(action)}" class="inline">{hidden}'
                f'{tag("button", label, type="submit", class_=css or None)}</form>')


def document(title: str, body: Html, query: str = "") -> bytes:
    """The whole page: a head that loads only the page's own files, the navigation, and a
    search box on every page."""
    nav = join([link(route, text) for route, text in NAV], " ")
    box = tag("input", type="search", name="q", value=query, placeholder="search memory",
              aria_label="search")
    search = Html('<form method="get" action="/search" class="search" role="search">'
                  f'{box}<button type="submit">search</button></form>')
    return (f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{esc(title)} · aleph-mem</title>'
            f'<link rel="stylesheet" href="/static/page.css">'
            f'<script src="/static/page.js" defer></script></head>'
            f'<body><header><nav>{nav}</nav>{search}</header>'
            f'<main><h1>{esc(title)}</h1>{body}</main></body></html>\n').encode()
