"""The redactor's last passes on their own: a random value beside a credential's word
(aleph_mem/redaction/nearby.py) and a recovery phrase by BIP-39's word lists
(aleph_mem/redaction/seeds.py). The development corpus (tests/redaction_corpus.py) holds
their cases in context; these check the measures they rest on."""

from __future__ import annotations

import random
import string

import pytest
from mnemonic import Mnemonic

from aleph_mem.redaction.nearby import WORDS, credential_word, random_looking
from aleph_mem.redaction.seeds import seed_phrases
from aleph_mem.redaction.text import redact

rng = random.Random(1717)


def draw(n: int, alphabet: str) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


ALPHABETS = {
    "base62": string.ascii_letters + string.digits,
    "base64": string.ascii_letters + string.digits + "+/",
    "hex": "0123456789abcdef",
}


@pytest.mark.parametrize(("alphabet", "length"), [
    ("base62", 12), ("base62", 16), ("base62", 24), ("base62", 40),
    ("base64", 44), ("hex", 32)])
def test_random_strings_look_random_nearly_always(alphabet: str, length: int) -> None:
    """A generator's output is judged random by how often it changes class against its mix:
    of 500 drawn, all but a few (those without a digit cannot count: a word has none); a
    short one less surely (12 characters: 90 %)."""
    drawn = [draw(length, ALPHABETS[alphabet]) for _ in range(500)]
    counted = [v for v in drawn if any(c.isdigit() for c in v) and
               any(c.isalpha() for c in v)]
    judged = sum(random_looking(v) for v in counted)
    share = 0.9 if length < 16 else 0.95
    assert judged >= share * len(counted), (alphabet, length, judged, len(counted))


NOT_RANDOM = [
    # (a name in camel case with digits, "CircomBn254Cfg", is told from a random value only by
    # what labels it: unlabelled it is kept, labelled as a key it is taken)
    "getElementsByTagName2", "withApiV1", "all-MiniLM-L6-v2",
    "x86_64-linux-gnu", "aes256-sha256-modp2048", "Qwen2.5-Coder-32B", "v2.14.0-rc.1",
    "api.example.com", "/etc/ssl/private/key.pem", "3f2a9c1e-8b7d-4e6f-a5c4-2d1e0f9a8b7c",
    "9f3b2e7a1c4d8e6f0b5a9c2d7e4f1a8b3c6d9e2f", "e3b0c44298fc1c149afbf4c8996fb924"
    "27ae41e4649b934ca495991b7852b855", "82609f2d", "G0G0G0G0G0G0G0G0", "Tib3rius",
    "Math.PI*2", "Post-#648", "Pass@1Chen", "01kqswype9xa6xgvb2z75d5tw7", "WPA2-Personal",
    "Freebox-7C4603-Invites", "ssh-ed25519", "TLS_AES_256_GCM_SHA384", "pk_live_4eC39HqLyj",
]


@pytest.mark.parametrize("value", NOT_RANDOM)
def test_words_names_versions_hashes_and_ids_do_not(value: str) -> None:
    assert not random_looking(value)


def test_every_credential_word_is_found_where_its_pattern_says() -> None:
    """``credential_word`` finds each word by a fast literal core, then its edges: the same
    places as the full pattern, in many languages, and not inside other words."""
    text = ("Passwort: x; hasło; contraseña; パスワード；密码；비밀번호；пароль; şifresi; "
            "Clé : y; chiave; Schlüssel; api key; apikey; keys list; psk=; token <- z; "
            "monkey; keyboard; author; authentication; auth=; pin 1234; spinning; "
            "mật khẩu; κωδικός; סיסמה; كلمة المرور").lower()
    expected, found, at = [m.start() for m in WORDS.finditer(text)], [], 0
    while (at := credential_word(text, at)) != -1:
        found.append(at)
        at += 1
    assert found == expected
    words = {text[p:p + 6] for p in found}
    assert not any(w.startswith(("monkey", "keyboa", "author", "spinni")) for w in words)


BIP39 = Mnemonic("english").wordlist


@pytest.mark.parametrize("count", [12, 15, 18, 24])
def test_a_recovery_phrase_is_found_whatever_stands_before_it(count: int) -> None:
    words = " ".join(rng.choice(BIP39) for _ in range(count))
    for text in (words, f"my words: {words}\nthanks", f"助记词：\n{words}"):
        out, n = redact(text)
        assert words not in out and n >= 1 and "[REDACTED:seed-phrase]" in out, text


def test_prose_test_vectors_and_the_list_itself_are_not_phrases() -> None:
    prose = ("keep the seed phrase on paper and never type the words into a phone, a laptop "
             "or a cloud note; check each word against the list before you close the drawer")
    vector = " ".join(["abandon"] * 11 + ["about"])
    in_order = " ".join(BIP39[:14])
    eleven = " ".join(rng.choice(BIP39) for _ in range(11))
    for text in (prose, vector, in_order, eleven):
        assert seed_phrases(text, text) == [], text


def test_a_key_of_letters_only_is_taken_right_after_its_label() -> None:
    """With no digit to tell it from a word, a letters-only key counts only right after a
    credential's word and its colon, by its case changes: most drawn keys, no camel-case
    name."""
    drawn = [draw(16, string.ascii_letters) for _ in range(300)]
    taken = sum("[REDACTED:" in redact(f"PSK: {v}")[0] for v in drawn)
    assert taken >= 0.7 * len(drawn), taken
    for name in ("ExampleServiceName", "MyVeryLongSecretName", "getElementsByTagName"):
        assert redact(f"key: {name}") == (f"key: {name}", 0)
    assert redact(f"see {drawn[0]} for the rest")[1] == 0  # no label: a word it may be
