"""The redactor against its development corpus (tests/redaction_corpus.py): every credential
shape loses its secret, whole and in every 12-character piece; every near miss comes out
byte-identical, with nothing counted."""

from __future__ import annotations

import re

import pytest
from redaction_corpus import NEAR_MISSES, Shape, shapes

from aleph_mem.redaction.text import redact

SHAPES = shapes()
PIECE = 12


def pieces(secret: str) -> list[str]:
    """The secret and each of its 12-character windows: none of them may survive."""
    if len(secret) <= PIECE:
        return [secret]
    return [secret[i:i + PIECE] for i in range(len(secret) - PIECE + 1)]


def leaked(shape: Shape) -> list[str]:
    out, _ = redact(shape.text)
    return [p for p in pieces(shape.secret) if p in out]


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{s.family}:{s.text[:40]!r}")
def test_a_credential_shape_loses_its_secret(shape: Shape) -> None:
    out, n = redact(shape.text)
    assert n >= 1 and "[REDACTED:" in out, out
    assert leaked(shape) == [], out


NEAR = [(family, text) for family, texts in NEAR_MISSES.items() for text in texts]


@pytest.mark.parametrize(("family", "text"), NEAR, ids=lambda v: str(v)[:40])
def test_a_near_miss_stays_byte_identical(family: str, text: str) -> None:
    assert redact(text) == (text, 0)


def test_the_corpus_covers_every_family_with_shapes_and_near_misses() -> None:
    families = {s.family for s in SHAPES}
    assert families - set(NEAR_MISSES) == set()
    assert len(SHAPES) >= 150 and len(NEAR) >= 80


def test_corpus_figures() -> None:
    """The figures docs/agents.md gives: shapes caught of the total, near misses kept."""
    caught = sum(1 for s in SHAPES if not leaked(s))
    kept = sum(1 for _, text in NEAR if redact(text) == (text, 0))
    assert (caught, kept) == (len(SHAPES), len(NEAR))


def test_a_split_token_is_redacted_whole_and_the_lines_stay() -> None:
    token = "ghp_" + "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3fG"
    out, n = redact(f"token: {token[:20]}\n{token[20:]}\nnext line")
    assert out == "token: [REDACTED:github-token]\nnext line" and n == 1


def test_a_base64_blob_is_redacted_only_when_it_holds_a_credential() -> None:
    out, n = redact("auth: dXNlcjpzM2NyZXRQYXNzdzByZA==")  # user:s3cretPassw0rd
    assert (out, n) == ("auth: [REDACTED:base64-credential]", 1)
    fine = "logo: aGVsbG8gd29ybGQsIHRoaXMgaXMgbm90IGEgc2VjcmV0"  # prose
    assert redact(fine) == (fine, 0)


def test_a_mark_is_never_read_as_a_key_or_a_value() -> None:
    """A later rule never takes an earlier rule's mark apart ("token for heron is ghp_…"
    once came out as "[REDACTED:[REDACTED:password]"); every shape's marks stay whole."""
    text = "Deploy token for heron is ghp_" + "Q7rT2mZx9LkW4vB8nC3pY6sD1fH5jK0aE2uR" + " (today)"
    assert redact(text) == ("Deploy token for heron is [REDACTED:github-token] (today)", 1)
    import re

    broken = re.compile(r"\[REDACTED:(?![a-z0-9-]+\])")  # a mark cut open by another
    for shape in SHAPES:
        out, _ = redact(shape.text)
        assert not broken.search(out), out


def test_every_shape_in_one_text_loses_every_secret() -> None:
    """One long text holding every shape: passes that change the text early must not lose
    track of where later rules look (the hints found once are moved, not searched again)."""
    text = "\n\n".join(s.text for s in SHAPES)
    out, n = redact(text)
    # a piece is leaked when the output holds it more often than the words around the
    # secrets do ("access_token" opens a Braintree token and names keys elsewhere)
    around = "\n\n".join(s.text.replace(s.secret, "\0") for s in SHAPES)
    assert [s.secret for s in SHAPES
            if any(out.count(p) > around.count(p) for p in pieces(s.secret))] == []
    assert n >= len(SHAPES)


def test_a_value_taken_out_once_is_taken_out_wherever_it_stands() -> None:
    """A transcript repeats a tool's output (``toolUseResult``) and a reply quotes a key again:
    what a rule took out in one place goes everywhere in the text; a short value (a PIN)
    stays where no rule took it (it is in a phone number too)."""
    text = ("db:\n  password: Xk29fLq0ZmT7\n\nnotes\n-----\nthe wiki bot still logs in with "
            "Xk29fLq0ZmT7 every morning\nPIN: 4821\ncall 0171 4821 333 for the alarm")
    out, n = redact(text)
    assert "Xk29fLq0ZmT7" not in out and n == 3
    assert "PIN: [REDACTED:pin]" in out and "call 0171 4821 333 for the alarm" in out


def test_a_note_after_a_password_stays() -> None:
    """Only the value goes: a tool's progress note after it on the line stays (medusa's
    "(1 of 8 complete)"), and a label's parenthesis before it too."""
    out, n = redact("ACCOUNT CHECK: [mssql] User: sa (1 of 17, 0 complete) Password: Qz7!vLm2 "
                    "(1 of 8 complete)")
    assert n == 1 and out.endswith("Password: [REDACTED:password] (1 of 8 complete)")


def test_a_mark_takes_the_value_and_nothing_after_it() -> None:
    """What follows a secret on its line stays: a Set-Cookie's name and attributes, a form's
    next field, a user agent's products after a reset token in an access log."""
    cookie = "Set-Cookie: sessionid=kkkkkkQ2m9xLp4Wz7vTb3n; Path=/; HttpOnly; Max-Age=1209600"
    assert redact(cookie) == (
        "Set-Cookie: sessionid=[REDACTED:cookie]; Path=/; HttpOnly; Max-Age=1209600", 1)
    form = "--data 'user=alice&password=Kx8!tQ2mZ9&remember-me=on'"
    out, n = redact(form)
    assert n == 1 and "Kx8!" not in out and out.endswith("=on'") and "user=alice&password=" in out
    log = ('"GET /forgot-password?temp-forgot-password-token=yd7scgKr0YB4Gkfxc9qPGwyQTZpkVgTL '
           'HTTP/1.1" 200 "user-agent: Mozilla/5.0 (Victim) AppleWebKit/537.36 (KHTML)"')
    out, n = redact(log)
    assert n == 1 and "yd7scg" not in out and "AppleWebKit/537.36 (KHTML" in out
    env = 'SMTPPASSWORD="Bldcnt2020&*()"  '  # its quotes and the line's spaces stay
    assert redact(env) == ('SMTPPASSWORD="[REDACTED:password]"  ', 1)


def test_a_login_under_a_password_label_stays() -> None:
    """"ID/PW:" above "- root // qwer1234!@": the password goes, the login and the list's
    dash stay (the line is no passphrase of words)."""
    out, n = redact("ID/PW:  \n- root // qwer1234!@  ")
    assert n == 1 and "- root // [REDACTED:" in out and "qwer1234" not in out


@pytest.mark.parametrize(("text", "redacted"), [
    ('the file holds "password=Tq8#mZp2x". Then commit it',
     'the file holds "password=[REDACTED:password]". Then commit it'),
    ("| DB | `DB_PASSWORD=Tq8#mZp2x` |", "| DB | `DB_PASSWORD=[REDACTED:password]` |"),
    ("Web UI (login:nzbget, password:Tq8mZp2x6789)",
     "Web UI (login:nzbget, password:[REDACTED])"),
    ('The password to the vault is "Tq8#mZp2x."', 'The password to the vault is "[REDACTED]"'),
    ("<div>Your API key is: Tq8mZp2xLw4Rn7Vb</div>", "<div>Your API key is: [REDACTED]</div>"),
    ("Cookie: verify=carlos; session=NMkr6rIvj2IbQdZy38EorgBMqFFpxvRk",
     "Cookie: verify=carlos; session=[REDACTED]"),
])
def test_a_mark_takes_the_value_and_leaves_the_lines_punctuation(text: str, redacted: str) -> None:
    """The quotes, the backticks, the parenthesis and the table's border around a value stay:
    a reader still sees the line's shape, and nothing of the secret."""
    marks = re.sub(r"\[REDACTED:[\w-]+\]", "[REDACTED]", redact(text)[0])
    assert marks == re.sub(r"\[REDACTED:[\w-]+\]", "[REDACTED]", redacted)
