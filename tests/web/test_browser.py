"""The page as a person uses it, in a real browser: Debian's headless Chromium driven by its
chromedriver over the W3C WebDriver protocol (plain HTTP on loopback: the dozen commands
used here need no client library). It opens the pages, searches, ticks a proposal and
undoes a change; a screenshot of each step is kept in tests/artifacts/page/.

Skipped only when Chromium or chromedriver is not installed (`.ci/run` installs both)."""

from __future__ import annotations

import base64
import json
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from page_helpers import cli, real_vault, served

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "page"
pytestmark = pytest.mark.skipif(not (CHROMIUM and DRIVER), reason="no chromium and "
                                "chromedriver installed (apt-get install chromium "
                                "chromium-driver; .ci/run does)")


class Browser:
    """One WebDriver session: navigate, find by CSS, click, type, read, screenshot."""

    def __init__(self, base: str, session: str) -> None:
        self.base, self.session = base, session

    def call(self, method: str, path: str, body: dict | None = None) -> object:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(f"{self.base}/session/{self.session}{path}", data=data,
                                     method=method, headers={"content-type": "application/json"})
        with urllib.request.urlopen(req, timeout=60) as r:
            return json.loads(r.read())["value"]

    def go(self, url: str) -> None:
        self.call("POST", "/url", {"url": url})

    def find(self, css: str) -> str:
        found = self.call("POST", "/element", {"using": "css selector", "value": css})
        assert isinstance(found, dict)
        return next(iter(found.values()))

    def click(self, css: str) -> None:
        self.call("POST", f"/element/{self.find(css)}/click", {})

    def type(self, css: str, text: str) -> None:
        self.call("POST", f"/element/{self.find(css)}/value", {"text": text})

    def text(self, css: str = "main") -> str:
        return str(self.call("GET", f"/element/{self.find(css)}/text"))

    def url(self) -> str:
        return str(self.call("GET", "/url"))

    def settles(self, words: str) -> None:
        """Wait until the page shows ``words``: while the next page loads, the body may be
        gone for a moment (WebDriver answers 404), later on a busy machine."""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if words in self.text("body"):
                    return
            except urllib.error.HTTPError:
                pass  # between two pages
            time.sleep(0.1)

    def reaches(self, part: str) -> str:
        """The address once it holds ``part``: a click that posts a form or follows a link
        returns before the next page has loaded, later on a busy machine."""
        deadline = time.monotonic() + 60
        while part not in (now := self.url()) and time.monotonic() < deadline:
            time.sleep(0.1)
        return now

    def shot(self, name: str) -> None:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        png = base64.b64decode(str(self.call("GET", "/screenshot")))
        (ARTIFACTS / f"{name}.png").write_bytes(png)


@contextmanager
def browser(width: int = 412, height: int = 915) -> Iterator[Browser]:
    """Headless Chromium at a phone's size."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    driver = subprocess.Popen([str(DRIVER), f"--port={port}"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"{base}/status", timeout=5).read()
                break
            except OSError:
                time.sleep(0.1)
        args = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--window-size={width},{height}"]
        req = urllib.request.Request(f"{base}/session", method="POST", data=json.dumps(
            {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {
                "binary": CHROMIUM, "args": args}}}}).encode(),
            headers={"content-type": "application/json"})
        with urllib.request.urlopen(req, timeout=120) as r:
            session = json.loads(r.read())["value"]["sessionId"]
        b = Browser(base, session)
        try:
            yield b
        finally:
            b.call("DELETE", "")
    finally:
        driver.terminate()
        driver.wait(timeout=30)


def test_a_person_searches_ticks_and_undoes_in_a_browser(vault: Path, tmp_path: Path) -> None:
    pid = real_vault(vault, tmp_path)
    with served(vault) as url, browser() as b:
        b.go(url + "/")
        assert "proposal(s) wait for you" in b.text()
        b.shot("1-home")
        b.type("form.search input", "heron nests")
        b.click("form.search button")
        assert "/search?q=heron+nests" in b.reaches("/search?q=")
        assert "heron" in b.text("ol.hits") and "why: words" in b.text("ol.hits")
        b.shot("2-search")
        b.click("ol.hits a")
        assert b.reaches("/note?").endswith("/note?path=notes%2Fheron.md")
        assert "<script>alert('x')</script>" in b.text("pre.note")  # shown as text
        b.shot("3-note")
        b.go(url + "/sessions")
        assert "Fixed heron-api CI postgres port" in b.text()
        b.shot("4-sessions")
        b.go(url + "/dream")
        b.click(f"li#{pid} button.tick")
        assert b.reaches(f"#{pid}").endswith(f"/dream#{pid}")
        assert "ticked: the next run applies it" in b.text(f"li#{pid}")
        b.shot("5-ticked")
        page = (vault / "_dream" / "proposals.md").read_text()
        assert "- [x] drift:" in page and f"({pid})" in page
        b.go(url + "/log")
        b.click("ol.log li:first-child button.undo")  # the tick, the latest change
        b.settles("undid 1 change(s)")
        assert "undid 1 change(s)" in b.text()
        b.shot("6-undone")
        assert (vault / "_dream" / "proposals.md").read_text().count("- [ ] drift:") == 1
        b.go(url + "/dream")
        assert "tick" in b.text(f"li#{pid}")  # open again, its buttons back
        b.shot("7-open-again")
    log = json.loads(cli(vault, "log", "--json", "--limit", "3").stdout)
    assert [e["actor"] for e in log if e["path"] == "_dream/proposals.md"][:2] == ["cli", "cli"]
