"""Secrets never enter: a corpus of fake credentials, in every place a transcript carries
text (a prompt, a command, a tool's output, a tool's input, the agent's answer), is captured
by the real hook process and compressed with an LLM configured; not one secret reaches the
raw store, the index, a note or the LLM request. Near-miss controls beside them stay."""

from __future__ import annotations

import json
import random
import string
import subprocess
import sys
from pathlib import Path

from conftest import open_mem, use_stub_llm

from aleph_mem.sessions import library
from aleph_mem.sessions.redact import redact
from aleph_mem.sessions.upkeep import compress_one

rng = random.Random(20261123)
ALNUM = string.ascii_letters + string.digits


def token(n: int, alphabet: str = ALNUM) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def corpus() -> list[tuple[str, str]]:
    """(text holding a secret, the secret) pairs: each a shape people paste."""
    upper = string.ascii_uppercase + string.digits
    b64 = ALNUM + "+/"
    key_body = "\n".join(token(64, b64) for _ in range(6))
    pairs = [
        ("AKIA" + token(16, upper), "export AWS_ACCESS_KEY_ID={}"),
        (token(40, b64), "aws_secret_access_key = {}"),
        ("ghp_" + token(36), "git remote set-url origin https://{}@github.com/me/repo"),
        ("github_pat_" + token(40, ALNUM + "_"), "GITHUB_TOKEN={}"),
        ("sk-proj-" + token(48, ALNUM + "-_"), "the key is {} use it"),
        ("sk-ant-api03-" + token(60, ALNUM + "-_"), "ANTHROPIC_API_KEY: \"{}\""),
        ("xoxb-" + token(12, string.digits) + "-" + token(24), "slack token {}"),
        ("sk_live_" + token(24), "stripe.api_key = '{}'"),
        ("AIza" + token(35, ALNUM + "-_"), "maps key {} in the config"),
        ("eyJ" + token(20, ALNUM + "-_") + ".eyJ" + token(30, ALNUM + "-_") + "."
         + token(43, ALNUM + "-_"), "cookie session={}"),
        ("Tr0ub4dor&3x" + token(4), "DB_PASSWORD=\"{}\""),
        ("hunter" + token(8), "password: {}"),
        ("S3cret" + token(6), "postgres://admin:{}@db.internal:5432/app"),
        (token(32), "curl -H 'Authorization: Bearer {}' https://api.example.com"),
        ("Zx9!" + token(8), "mysql -u root --password={} heron"),
        ("npm_" + token(36), "//registry.npmjs.org/:_authToken={}"),
        ("hf_" + token(34), "HF_TOKEN={}"),
        (key_body.split("\n")[2], "-----BEGIN OPENSSH PRIVATE KEY-----\n" + key_body.replace(
            key_body.split("\n")[2], "{}") + "\n-----END OPENSSH PRIVATE KEY-----"),
    ]
    return [(template.format(secret), secret) for secret, template in pairs]


CONTROLS = [
    "the password policy requires 12 characters",
    "max_tokens = 400",
    "the token bucket refills 10 per second",
    "read the api key from the vault, never from the repo",
    "password: required",
    "secret_name = 'prod-db'",
    "sk-learn is not a package; scikit-learn is",
    "tokens: 1500",
    "Authorization header is missing",
]


def transcript(path: Path, texts: list[str]) -> None:
    rows = []
    for i, text in enumerate(texts):
        where = i % 5
        uid = f"m{i}"
        if where == 0:
            msg = {"role": "user", "content": f"I prefer you keep this handy: {text}"}
        elif where == 1:
            msg = {"role": "assistant", "content": [{"type": "tool_use", "id": f"t{i}",
                   "name": "Bash", "input": {"command": text}}]}
        elif where == 2:
            msg = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": f"t{i}",
                   "content": f"output line\n{text}\nDone"}]}
        elif where == 3:
            msg = {"role": "assistant", "content": [{"type": "tool_use", "id": f"w{i}",
                   "name": "Write", "input": {"file_path": "/p/.env", "content": text}}]}
        else:
            msg = {"role": "assistant", "content": [{"type": "text",
                   "text": f"Decision: we will use this setting. {text}"}]}
        rows.append({"type": msg["role"], "uuid": uid, "sessionId": "sec1",
                     "cwd": "/work/projects/vault-test", "timestamp": f"2026-11-20T10:{i:02d}:00Z",
                     "message": msg})
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))


def test_redact_corpus_and_controls() -> None:
    for text, secret in corpus():
        out, n = redact(text)
        assert secret not in out and n >= 1, text
    for text in CONTROLS:
        assert redact(text) == (text, 0)


def test_no_secret_reaches_raw_index_notes_or_llm(vault: Path, tmp_path: Path,
                                                  stub_llm) -> None:
    pairs = corpus()
    texts = [t for t, _ in pairs] + CONTROLS
    rng.shuffle(texts)
    t = tmp_path / "session.jsonl"
    transcript(t, texts)
    use_stub_llm(vault, stub_llm)
    stub_llm.replies = [json.dumps({"decisions": [], "errors": [], "procedures": [],
                                    "preferences": []})]
    hook = {"hook_event_name": "SessionEnd", "session_id": "sec1", "transcript_path": str(t),
            "cwd": "/work/projects/vault-test"}
    out = subprocess.run([sys.executable, "-m", "aleph_mem.cli", "hook", "claude-code",
                          "--vault", str(vault), "--session-notes", "false"],
                         input=json.dumps(hook), capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stderr == ""
    with open_mem(vault) as mem:
        done = compress_one(mem, "sec1")
        assert done.written
        assert library.show(mem, "sec1").session.redacted >= len(pairs)
        mem.con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    assert len(stub_llm.requests) == 1
    sent = json.dumps(stub_llm.requests)
    assert "token bucket refills" in sent and "[REDACTED:" in sent  # the transcript went
    stored = b"".join(p.read_bytes() for p in vault.rglob("*") if p.is_file())
    leaks = [s for _, s in pairs if s.encode() in stored or s in sent]
    assert leaks == []
    raw = b"".join(p.read_bytes() for p in (vault / ".aleph" / "raw").rglob("*.jsonl"))
    for text in CONTROLS:  # the near misses are kept as they were
        assert json.dumps(text)[1:-1].encode() in raw, text
