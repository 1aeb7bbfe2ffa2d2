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

import pytest
from conftest import open_mem, use_stub_llm

from aleph_mem.redaction.text import redact
from aleph_mem.sessions import library
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
        done = compress_one(mem.store, "sec1")
        assert done.written
        assert library.show(mem.store, "sec1").session.redacted >= len(pairs)
        mem.store.con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    assert len(stub_llm.requests) == 1
    sent = json.dumps(stub_llm.requests)
    assert "token bucket refills" in sent and "[REDACTED:" in sent  # the transcript went
    stored = b"".join(p.read_bytes() for p in vault.rglob("*") if p.is_file())
    leaks = [s for _, s in pairs if s.encode() in stored or s in sent]
    assert leaks == []
    raw = b"".join(p.read_bytes() for p in (vault / ".aleph" / "raw").rglob("*.jsonl"))
    for text in CONTROLS:  # the near misses are kept as they were
        assert json.dumps(text)[1:-1].encode() in raw, text


SHAPES = {  # each a credential shape that used to get past the redactor (fake values)
    "key tail": "clipped...\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\n"
                "AoIBAQC7MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSj\n-----END PRIVATE KEY-----\n",
    "key in JSON": '{"content": "-----BEGIN RSA PRIVATE KEY-----\\nMIIEowIBAAKCAQEAabcdef'
                   'ghijklmnop\\nqrstuvwx\\n-----END RSA PRIVATE KEY-----\\n"}',
    "double JSON": '{\\"password\\": \\"hunter2secret\\"}',
    "SECRET_KEY_BASE": "SECRET_KEY_BASE=9f8e7d6c5b4a39281706f5e4d3c2b1a0",
    "ENCRYPTION_KEY": "ENCRYPTION_KEY=Zm9vYmFyYmF6cXV4cXV1eA==",
    "DATABASE_PASS": "DATABASE_PASS=s3cr3tpassw0rd",
    "APP_KEY": "APP_KEY=base64:abcdEFGHijklMNOPqrstUVWXyz0123456789abcd=",
    "SERVICE_CREDS": "SERVICE_CREDS=admin:Sup3rS3cret!",
    "redis": "redis://:myRedisPassw0rd@cache.internal:6379/0",
    "slash": "postgres://app:pa/ss/word@db.internal/app",
    "curl -u": "curl -u deploy:Tr0ub4dor3 https://api.example.com",
    "mysql -p": "mysql -u root -pS3cretPw -h db",
    "sshpass": "sshpass -p 'Hunter22!' ssh pi@host",
    "azure": "AccountName=x;AccountKey=abcdefghijklmnopqrstuvwxyz0123456789ABCD==;",
    "discord": "https://discord.com/api/webhooks/123456789012345678/abcDEF_ghiJKL-mnoPQR",
    # a DSN's key is public (Sentry's docs); a legacy DSN's second part is its secret
    "sentry": "https://0123456789abcdef0123456789abcdef:fedcba9876543210fedcba9876543210"
              "@o123.ingest.sentry.io/456",
    "cookie": "Cookie: session=eyJhbGciOiJIUzI1NiJ9abcdef; theme=dark",
}
SECRETS = ("AoIBAQC7MIIE", "abcdefghijklmnop", "hunter2secret", "9f8e7d6c5b4a", "Zm9vYmFy",
           "s3cr3tpassw0rd", "abcdEFGH", "Sup3rS3cret", "myRedisPassw0rd", "pa/ss/word",
           "Tr0ub4dor3", "S3cretPw", "Hunter22", "abcdefghijklmnopqrstuvwxyz0123",
           "abcDEF_ghiJKL", "fedcba9876543210fedc", "eyJhbGciOiJIUzI1NiJ9")
NEAR_MISSES = ("the password policy wants 12 characters", "bypass = true", "compass: north",
               "http://localhost:8080/path@v2", "mysql -p to be asked for the password",
               "a cookie policy", "secret_name = prod-db", "max_tokens = 4000",
               "https://example.com/docs/page",
               "https://0123456789abcdef0123456789abcdef@o123.ingest.sentry.io/456")


@pytest.mark.parametrize("name", list(SHAPES))
def test_each_credential_shape_is_redacted(name: str) -> None:
    out, n = redact(SHAPES[name])
    assert n >= 1 and "[REDACTED:" in out
    assert not [s for s in SECRETS if s in out], out


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_near_misses_stay_byte_exact(text: str) -> None:
    assert redact(text) == (text, 0)


def test_an_agents_writes_and_remember_store_no_secret(vault: Path) -> None:
    """MCP write, edit and remember (and the CLI's) take a secret out and say so; a note
    about passwords without one (the control) is stored as written, with no warning."""
    with open_mem(vault) as mem:
        mem.reindex()
        w = mem.write_note("Deploy with -----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk"
                           "tdjEAAAAABG5vbmU\n-----END OPENSSH PRIVATE KEY-----\n",
                           path="ops/deploy.md", actor="mcp:agent")
        assert "PRIVATE KEY" not in (vault / "ops/deploy.md").read_text().split("[REDACTED")[0]
        assert "b3BlbnNzaC1rZXk" not in (vault / "ops/deploy.md").read_text()
        assert w.warning.startswith("1 secret(s) taken out (private-key)")
        e = mem.edit_note("ops/deploy.md", append="db: postgres://app:hunter2xyz@db/app\n",
                          actor="mcp:agent")
        assert "hunter2xyz" not in (vault / "ops/deploy.md").read_text() and e.warning
        r = mem.remember("The CI token is ghp_abcdefghijklmnopqrstuvwxyz0123456789",
                         actor="mcp:agent")
        assert "ghp_" not in (vault / "MEMORY.md").read_text() and "github-token" in r.warning
        fine = mem.write_note("The password policy wants 12 characters.\n",
                              path="ops/policy.md", actor="mcp:agent")
        assert fine.warning is None
        assert (vault / "ops/policy.md").read_text().endswith(
            "The password policy wants 12 characters.\n")


def test_an_llm_request_carries_no_secret_whatever_sent_it(vault: Path, stub_llm) -> None:
    """A person's note may hold a credential (they may keep a vault that way); the dream or
    a summary quoting it to the LLM sends it redacted. Control: the words around it go."""
    from aleph_mem import llm
    from aleph_mem.settings import load_settings

    use_stub_llm(vault, stub_llm)
    stub_llm.replies = ["ok"]
    token = "ghp_" + "".join(rng.choice(string.ascii_letters) for _ in range(36))
    note = f"Deploy notes: the CI bot uses {token} for the mirror.\nmax_tokens = 400"
    settings = load_settings(vault)
    assert llm.complete(settings, [{"role": "user", "content": note}]) == "ok"
    sent = json.dumps(stub_llm.requests)
    assert token not in sent and "[REDACTED:github-token]" in sent
    assert "Deploy notes: the CI bot uses" in sent and "max_tokens = 400" in sent
