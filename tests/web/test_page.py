"""The page a person sees memory on, end to end: `aleph-mem serve` as a real process on
127.0.0.1, a real vault (notes, a captured session with its note, an open proposal),
reached over real HTTP. A tick and an undo from the page land in the vault and the log as
the CLI's would; hostile input on every route is one line and changes nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from page_helpers import (
    BUILD,
    ENV,
    cli,
    csrf_of,
    get,
    real_vault,
    request,
    served,
    snapshot,
)

ROUTES = ("/", "/search?q=heron", "/note?path=notes/heron.md", "/log", "/sessions",
          "/dream", "/memory", "/status")


def events(vault: Path, limit: int = 5) -> list[dict]:
    return json.loads(cli(vault, "log", "--json", "--limit", str(limit)).stdout)


def test_the_page_shows_a_real_vault(vault: Path, tmp_path: Path) -> None:
    pid = real_vault(vault, tmp_path)
    cli(vault, "remember", "Prefers metric units")
    with served(vault) as url:
        pages = {route: get(url, route) for route in ROUTES}
        for route, r in pages.items():
            assert r.status == 200, (route, r.body)
            assert r.headers["content-type"] == "text/html; charset=utf-8"
            assert "default-src 'none'" in r.headers["content-security-policy"]
            assert "http://" not in r.text.split("</head>")[0]  # nothing from another host
        found = pages["/search?q=heron"].text
        assert 'href="/note?path=notes%2Fheron.md"' in found and "why: words" in found
        note = pages["/note?path=notes/heron.md"].text
        assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &amp;" in note
        assert "<script>alert" not in note
        assert 'href="/note?path=notes%2Fbuild.md"' in note  # its link, and its backlink
        assert note.count("notes%2Fbuild.md") >= 2 and "note-created" not in note
        assert 'action="/undo"' in note and "created" in note  # the timeline, with undo
        sessions = pages["/sessions"].text
        assert "Fixed heron-api CI postgres port" in sessions and "claude-code" in sessions
        assert pid in pages["/dream"].text and 'action="/proposal"' in pages["/dream"].text
        assert "Prefers metric units" in pages["/memory"].text
        assert "&quot;notes&quot;: " in pages["/status"].text
        ref = pages["/sessions"].text.split('href="/session?ref=')[1].split('"')[0]
        one = get(url, f"/session?ref={ref}")
        assert one.status == 200 and "postgres" in one.text
        for name in ("page.css", "page.js"):
            assert get(url, f"/static/{name}").status == 200


def test_a_tick_from_the_page_is_the_persons_tick(vault: Path, tmp_path: Path) -> None:
    pid = real_vault(vault, tmp_path)
    page = vault / "_dream" / "proposals.md"
    before = page.read_text()
    with served(vault) as url:
        csrf = csrf_of(get(url, "/dream").text)
        r = request(url, "POST", "/proposal", f"id={pid}&box=x&csrf={csrf}".encode())
        assert (r.status, r.headers["location"]) == (303, f"/dream#{pid}")
        assert "ticked: the next run applies it" in get(url, "/dream").text
    # exactly the edit a person makes in their editor, logged as the person
    assert page.read_text() == before.replace("- [ ] drift:", "- [x] drift:", 1)
    tick = events(vault, 1)[0]
    assert (tick["actor"], tick["kind"], tick["path"]) == ("cli", "note-updated",
                                                          "_dream/proposals.md")
    cli(vault, "dream", "run", "--pass", "drift", "--pass", "digest", "--force")
    assert "stale_reason: expired" in (vault / "notes" / "build.md").read_text()
    assert (vault / "notes" / "heron.md").exists()  # the control: nothing else was touched


def test_an_undo_from_the_page_is_the_clis_undo(vault: Path, tmp_path: Path) -> None:
    real_vault(vault, tmp_path)
    cli(vault, "write", "notes/a.md", stdin="# A\n\nfirst\n")
    cli(vault, "write", "notes/b.md", stdin="# B\n\nfirst\n")
    for name in ("a", "b"):
        digest = json.loads(cli(vault, "show", f"notes/{name}.md", "--json").stdout)["hash"]
        cli(vault, "write", f"notes/{name}.md", "--expect-hash", digest,
            stdin=f"# {name.upper()}\n\nsecond\n")
    edit_b, edit_a = events(vault, 2)
    cli(vault, "undo", edit_b["id"])  # the CLI's undo of one
    with served(vault) as url:  # and the page's of the other
        csrf = csrf_of(get(url, "/log").text)
        r = request(url, "POST", "/undo", f"id={edit_a['id']}&csrf={csrf}".encode())
        assert r.status == 200 and "undid 1 change(s)" in r.text and "redo" in r.text
    assert (vault / "notes" / "a.md").read_text() == "# A\n\nfirst\n"
    assert (vault / "notes" / "b.md").read_text() == "# B\n\nfirst\n"
    # each undo also wrote today's digest anew (the dream's own page), the CLI's as the page's
    page_undo, cli_undo = [e for e in events(vault, 10) if e["path"].startswith("notes/")][:2]
    for undo, edit in ((page_undo, edit_a), (cli_undo, edit_b)):
        assert (undo["actor"], undo["kind"], undo["reason"], undo["after"]) == (
            "cli", "note-updated", f"undo {edit['id']}", edit["before"])


HOSTILE = [
    ("GET", "/note?path=../../../etc/passwd", None, {}, 404),
    ("GET", "/note?path=%2Fetc%2Fpasswd", None, {}, 404),
    ("GET", "/static/../memory.py", None, {}, 404),
    ("GET", "/%2e%2e/%2e%2e/etc/passwd", None, {}, 404),
    ("GET", "/search?q=%ff%fe", None, {}, 400),
    ("GET", "/search?q=a%00b", None, {}, 400),
    ("GET", "/%c3%28", None, {}, 400),
    ("GET", "/note?path=" + "a" * 5000, None, {}, 400),
    ("GET", "/session?ref=../../x", None, {}, 400),
    ("DELETE", "/log", None, {}, 405),
    ("GET", "/", None, {"host": "evil.example:80"}, 421),
    ("POST", "/undo", b"id=%ff&csrf=x", {}, 400),
    ("POST", "/undo", b"x" * 20000, {}, 413),
    ("POST", "/undo", b"id=1", {"content-length": "999999999"}, 413),
    ("POST", "/undo", b'{"id": "1"}', {"content-type": "application/json"}, 415),
]


def test_hostile_input_on_every_route_is_one_line_and_changes_nothing(
        vault: Path, tmp_path: Path) -> None:
    pid = real_vault(vault, tmp_path)
    last = events(vault, 1)[0]["id"]
    kept = snapshot(vault)
    with served(vault) as url:
        csrf = csrf_of(get(url, "/dream").text)
        forms = [
            ("/proposal", f"id={pid}&box=x&csrf=", {}),  # no CSRF token
            ("/proposal", f"id={pid}&box=x&csrf={'0' * 32}", {}),  # a wrong one
            ("/proposal", f"id={pid}&box=x&csrf={csrf}", {"origin": "http://evil.example"}),
            ("/proposal", f"id={pid}&box=x&csrf={csrf}", {"sec-fetch-site": "cross-site"}),
            ("/proposal", f"id={pid}&box=y&csrf={csrf}", {}),
            ("/proposal", f"id=P-00000000&box=x&csrf={csrf}", {}),
            ("/undo", f"id=nope&csrf={csrf}", {}),
            ("/nowhere", f"id={last}&csrf={csrf}", {}),
        ]
        cases = HOSTILE + [("POST", route, body.encode(), h, None) for route, body, h in forms]
        for method, target, body, headers, status in cases:
            r = request(url, method, target, body, headers)
            assert r.status >= 400 and (status is None or r.status == status), (target, r)
            assert r.body.endswith(b"\n") and r.body.count(b"\n") == 1, (target, r.body)
            assert len(r.body) < 300, (target, r.body)
        assert snapshot(vault) == kept
        # the near-miss control: the same form, whole and from the page, does change it
        r = request(url, "POST", "/proposal", f"id={pid}&box=x&csrf={csrf}".encode(),
                    {"origin": url, "sec-fetch-site": "same-origin"})
        assert r.status == 303
    assert snapshot(vault) != kept


def test_with_a_token_the_page_needs_it(vault: Path, tmp_path: Path) -> None:
    pid = real_vault(vault, tmp_path)
    writer = cli(vault, "serve", "--new-token", "phone").stdout.strip()
    reader = cli(vault, "serve", "--new-token", "tv", "--read-only").stdout.strip()
    with served(vault) as url:
        r = get(url, "/dream")
        assert (r.status, r.headers["location"]) == (303, "/login")
        assert get(url, "/dream", authorization=f"Bearer {writer[:-1]}x").status == 303
        bad = request(url, "POST", "/login", b"token=wrong")
        assert bad.status == 401 and "set-cookie" not in bad.headers
        signed = request(url, "POST", "/login", f"token={writer}".encode())
        assert signed.status == 303
        cookie = signed.headers["set-cookie"].split(";")[0]
        assert "HttpOnly" in signed.headers["set-cookie"]
        assert "SameSite=Strict" in signed.headers["set-cookie"]
        page = get(url, "/dream", cookie=cookie)
        assert page.status == 200 and pid in page.text
        kept = snapshot(vault)
        seen = get(url, "/dream", authorization=f"Bearer {reader}")
        assert seen.status == 200 and 'action="/proposal"' not in seen.text  # no buttons
        csrf = csrf_of(page.text)
        r = request(url, "POST", "/proposal", f"id={pid}&box=x&csrf={csrf}".encode(),
                    {"authorization": f"Bearer {reader}"})
        assert r.status == 403 and b"read-only" in r.body
        assert snapshot(vault) == kept
        r = request(url, "POST", "/proposal", f"id={pid}&box=-&csrf={csrf}".encode(),
                    {"cookie": cookie})
        assert r.status == 303
    assert "- [-] drift:" in (vault / "_dream" / "proposals.md").read_text()


PROBE = ("import http.client, sys\n"
         "c = http.client.HTTPConnection(sys.argv[1], int(sys.argv[2]))\n"
         "c.request('GET', '/')\nr = c.getresponse()\nprint(r.status, r.read().decode())\n")


SYSTEM_PYTHON = Path("/usr/bin/python3")  # one another user may run (the venv's may not be)


@pytest.mark.skipif(os.geteuid() != 0 or not SYSTEM_PYTHON.exists(),
                    reason="another user's client needs root to start, and /usr/bin/python3")
def test_on_loopback_without_a_token_only_the_servers_user_gets_in(vault: Path) -> None:
    (vault / "notes").mkdir(exist_ok=True)
    (vault / "notes" / "build.md").write_text(BUILD)
    with served(vault) as url:
        host, port = url.removeprefix("http://").split(":")
        other = subprocess.run([str(SYSTEM_PYTHON), "-c", PROBE, host, port], user="nobody",
                               capture_output=True, text=True, timeout=60, cwd="/", env=ENV)
        assert other.stdout.startswith("403 without a token this page opens only for the "
                                       "user serve runs as"), other.stderr
        same = subprocess.run([sys.executable, "-c", PROBE, host, port],
                              capture_output=True, text=True, timeout=60, env=ENV)
        assert same.stdout.startswith("200 "), same.stderr  # the control: this user
