"""What is written down but is no secret by its value alone: a documented stand-in
(``<your key>``, ``sk-xxxx…``, ``changeme``, "your" in other languages, counted digits) and a
key its owner publishes (a development emulator's key, an RFC's, an API reference's or a
chain's example, a local chain's default key)."""

from __future__ import annotations

import re

PLACEHOLDER_WORDS = re.compile(r"x{6,}|(?:x{3,}[-_ ]){2,}x{3,}|\*{4,}|●{3,}|•{3,}|\.\.\.|…|^<|"
                               r"<[\w\s-]+>|(?:^|[_=:/-])<[\w-]*$|^[\w-]+>$|"
                               r"\$\{|your[_-]|example|placeholder|deadbeef|cafebabe|^mypass(?:word)?$|"
                               r"^(?:tu|votre|ta|deine?|seu|sua|il[_-]tuo|la[_-]tua)[_-]|발급받은|"
                               # "your" in a stand-in in other languages (live_DEIN_API_…,
                               # UW_HMAC_SLEUTEL, ТОКЕН_ОТ_BOTFATHER, sandbox-api-anahtarınız)
                               r"(?:^|[_-])(?:dein|deine|ihr|uw|jouw|votre|vos|tus?|sua|seu|ditt|din|"
                               r"tuo|tua|vostro|twoj|ваш|ваша|ваше|твой|sizin)[_-]|"
                               r"[_-](?:api[_-])?(?:schluessel|schlüssel|sleutel|anahtar\w*|"
                               r"clave|chave|chiave|klucz|ключ|токен)$|^(?:токен|ключ|пароль)_|"
                               r"redacted|\[masked|\(hidden|\(sensitive|change[_-]?(?:me|it)|"
                               # Nextcloud's occ, Firefly III's .env.example, a bot token's
                               # stand-in in tutorials
                               r"removed sensitive value|somerandomstring|^#{4,}$|"
                               r"^(?:abc123|abcdef|123abc|xyz123)$|^(?:你的|您的|あなたの)|"
                               r"(?-i:ABCdefGhIJKlmNoPQRsTUVwxyZ|^[Yy]our[A-Z][a-z])|"
                               # a token's stand-in of counted digits ("re_123456789")
                               r"(?:^|[_-])0?123456789\d*$|"
                               # counting bytes: a cipher's test vector (FIPS-197's key)
                               r"000102030405|001122334455|0123456789abcdef|"
                               r"replace[_-]?(?:me|with)|generate[_-]with|^generate$|"
                               # WordPress's stand-in; hydra's ^PASS^ and ffuf's FUZZ
                               # words; what local OpenAI-compatible servers take as a key
                               # (Ollama, LM Studio, vLLM)
                               r"put your unique phrase here|"
                               r"(?-i:\^(?:USER|PASS|PASSWORD|LOGIN)\^|[A-Z]*FUZZ\b)|"
                               r"^(?:ollama|lm-studio|lmstudio|"
                               r"not-needed|no-key(?:-required)?|sk-no-key-required|empty)$",
                               re.IGNORECASE)
REPEATED = re.compile(r"(.)\1{9,}")


def placeholder(text: str) -> bool:
    """A documented stand-in, not a value: ``<your key>``, ``sk-xxxx…``, ``changeme``,
    ``[MASKED]``, or a character repeated through most of it (``0000000000``; a token
    that only starts with a run, as X's app tokens do with ``AAAA…``, is no stand-in)."""
    return bool(PLACEHOLDER_WORDS.search(text)) or bool(
        REPEATED.search(text) and len(set(text)) < 12)


# keys published as a tool's fixed development key (Azurite's storage emulator)
# and the examples of the HTTP authentication RFCs ("username:password", "Aladdin:open sesame")
PUBLISHED = frozenset({
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==",
    "dXNlcm5hbWU6cGFzc3dvcmQ=", "QWxhZGRpbjpvcGVuIHNlc2FtZQ==",
    # jwt.io's example token (signed with "your-256-bit-secret")
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwi"
    "aWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
    # the example seed of Google Authenticator's key URI format and of pyotp's docs
    "JBSWY3DPEHPK3PXP", "base32secret3232", "HXDMVJECJJWSRB3HWIZR4IFUGFTMXBOZ",
    "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ",
    # Stripe's API reference's test keys
    "sk_test_4eC39HqLyjWDarjtT1zdp7dc", "sk_test_BQokikJOvBiI2HlWgH4olfQ2",
    # the signature of AWS's presigned-URL example (examplebucket/test.txt, SigV4 docs); the
    # passphrase of BIP-39's test vectors
    "aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404", "TREZOR",
    # redis.conf's documented requirepass example; MinIO's default root password; ntfy's
    # docs' example access token; Grafana's defaults.ini secret_key
    "foobared", "minioadmin", "tk_AgQdq7mVBoFD37zQVN29RhuMzNIz2", "SW2YcwTIb9zpOOhoPsMm",
    # BIP-32's first test vector's master key; the Bitcoin wiki's WIF example; Hardhat's and
    # Anvil's first default account's key (every local chain funds it)
    "xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3T"
    "GtRBeJgk33yuGBxrMPHi", "5HueCGU8rMjxEXxiPuD5BDku4MkFqeZyd4dZ1jvhTVqvbTLvyTJ",
    "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
    "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
    # the Telegram Bot API's documented tokens
    "123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11", "110201543:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw",
    # Binance's API docs' worked example; CoinMarketCap's sandbox key; Solana's programs and
    # USDC's mint (addresses every program names)
    "NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j",
    "vmPUZE6mv9SD5VNHk4HlWFsOr6aKE2zvsw0MuIgwCIPy6utIco14y7Ju91duEh8A",
    "b54bcf4d-1bca-4e8e-9a24-22ff2c3d462c", "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
    "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL", "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v",
    "So11111111111111111111111111111111111111112"})
