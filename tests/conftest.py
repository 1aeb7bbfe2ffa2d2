from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from aleph_mem.install.new_vault import init_vault
from aleph_mem.memory import Memory

REPO = Path(__file__).resolve().parent.parent


def shared_dir() -> Path | None:
    """The team's shared evaluation data (never copied into the repo)."""
    for candidate in (os.environ.get("ALEPH_MEM_SHARED"), REPO.parent / "shared",
                      REPO.parent.parent / "shared"):
        if candidate and (Path(candidate) / "eval").is_dir():
            return Path(candidate)
    return None


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    init_vault(root)
    return root


def write(root: Path, rel: str, text: str | bytes) -> Path:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, str):
        p.write_text(text, encoding="utf-8")
    else:
        p.write_bytes(text)
    return p


@pytest.fixture
def dnd_vault(tmp_path_factory: pytest.TempPathFactory) -> Path:
    shared = shared_dir()
    if shared is None:
        pytest.skip("../shared/eval is not on this machine")
    root = tmp_path_factory.mktemp("dnd") / "vault"
    shutil.copytree(shared / "eval" / "vaults" / "dnd5e-srd" / "vault", root)
    (root / ".aleph").mkdir()
    return root


def open_mem(root: Path) -> Memory:
    return Memory.open(root)


class StubLLM:
    """A local OpenAI-compatible server on 127.0.0.1: replies from a queue, records
    every request body. Reached through litellm's real client."""

    def __init__(self) -> None:
        import json
        import threading
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

        self.replies: list[str] = []
        self.requests: list[dict] = []
        self.on_request = None  # called on each request, e.g. a person coming back
        self.fail = 0  # the next this many requests are refused (a provider's 400)
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                stub.requests.append(body)
                if stub.on_request:
                    stub.on_request()
                if stub.fail > 0:
                    stub.fail -= 1
                    refused = json.dumps({"error": {"message": "stub refuses", "type":
                                                    "invalid_request_error"}}).encode()
                    self.send_response(400)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(refused)))
                    self.end_headers()
                    self.wfile.write(refused)
                    return
                text = stub.replies.pop(0) if stub.replies else "I cannot tell [1]."
                out = json.dumps({
                    "id": "stub-1", "object": "chat.completion", "created": 0,
                    "model": body.get("model", "stub"),
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": text}}],
                    "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
                }).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(out)))
                self.end_headers()
                self.wfile.write(out)

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def use_stub_llm(root: Path, stub: StubLLM, extra: str = 'embed_model = "none"\n') -> None:
    """Point a vault's settings at the stub LLM (through litellm's real client)."""
    (root / ".aleph" / "config.toml").write_text(
        f'llm_model = "openai/stub"\nllm_api_base = "{stub.base}"\n{extra}')


@pytest.fixture
def stub_llm():
    stub = StubLLM()
    yield stub
    stub.close()
