"""Secrets out: every text a transcript brings in, an agent or a person writes through
aleph-mem, or a request sends to the LLM passes ``redact`` before it is written to the raw
store or a note, indexed, or sent.

A rule set rather than a scanner: each rule names a credential by its shape (a provider's
key prefix, a private-key block, a password in an assignment, a URL, a header, a CLI flag,
a sentence that says "my password is …") and keeps the words around it, so "the password
policy wants 12 characters" or ``max_tokens = 400`` stay as they were. No entropy guess:
a git SHA, a UUID or a checksum is never a secret by shape alone. Two passes look at
structure rather than words: a token wrapped across a line break is joined and redacted
whole, and a base64 blob is redacted when what it decodes to is a credential.

Speed: a rule runs only where one of its hints (lower-case text its match holds) appears;
token rules start with their literal prefix, and case-blind rules match a lower-cased view
of the text with lower-case patterns, which keeps a 5 MB transcript near a second
(benchmarks/redaction.py). The corpus is tests/redaction_corpus.py.
"""

from __future__ import annotations

import base64
import binascii
import functools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

MARK = "[REDACTED:{}]"


@dataclass(frozen=True)
class Rule:
    kind: str
    source: str  # the pattern, compiled when the rule is first tried (``pattern``)
    keep: int = 0  # the pattern group kept in front of the mark (a key name, a scheme)
    hints: tuple[str, ...] = ()  # lower-case text one of which a match must hold
    check: Callable[[str], bool] | None = None  # the taken-out text must pass, or stays
    lower: bool = False  # matched on the lower-cased text (the pattern is in lower case)
    back: int | None = None  # a match starts at most this far before a hint (None: anywhere)
    gate: re.Pattern[str] | None = None  # must match where the hint is, or the rule is not tried
    prefixes: tuple[str, ...] = ()  # a token's literal prefixes (the token rules)
    flags: int = 0

    @functools.cached_property
    def pattern(self) -> re.Pattern[str]:
        """Compiled on first use: a text holding none of a rule's hints never pays for it,
        so a search that shows a few snippets does not compile some sixty patterns."""
        return re.compile(self.source, self.flags)


# a value that is no secret: a number, a boolean, a placeholder, a variable, a lookup, a
# path or a URL without credentials
NOT_A_SECRET = re.compile(
    r"^(?:\d+(?:\.\d+)?|true|false|yes|no|null|none|nil|required|optional|string|str|"
    r"bytes|int|\*+|x+|\.\.\.|…|<[^>]*>|\{\{.*\}\}|\$\{?\{?[A-Za-z_][A-Za-z0-9_.]*\}?\}?|"
    r"\$\(.*|`.*`|%\(.*|#\{.*\}|@[\w.-]+@|"
    r"(?:vault|arn|awssm|gcpsm|azkv|keyvault|doppler|infisical|ref\+[a-z]+):\S*|ENC\[.*|"
    r"pk\.eyJ.*|pk_(?:live|test)_\w+|tok_[A-Za-z]+|pub[0-9a-f]{32}|!vault.*|\$ANSIBLE_VAULT.*|"
    r"1password|bitwarden|keepass(?:xc)?|lastpass|dashlane|keychain|op://.*|!secret\b.*|"
    r"(?:window|globalthis|import\.meta\.env|app_config)\..*|"
    r"\{[\w.-]+\}?.*|#{2,}[\w-]+#{2,}|password|passwd|pass|pwd|secret|token|key|user|username|"
    r"[\d:+\-./TZ]+|0x[0-9a-fA-F]{40}|"  # a date, a time, a number; an account's address
    r"(?:os\.environ|os\.getenv|process\.env|env|getenv|settings|config|secrets|"
    r"self|args|opts|options|request|req)\b.*|[A-Za-z_][A-Za-z0-9_.]*\(.*|"
    r"(?:~|\.{1,2})?/[\w.\-/]*|[a-z][a-z0-9+.-]*://[^@\s]*|"
    r"\[REDACTED:[a-z-]+\])$", re.IGNORECASE)
PLACEHOLDER_WORDS = re.compile(r"x{6,}|\*{4,}|\.\.\.|…|<|\$\{|your[_-]|example|placeholder|"
                               r"redacted|\[masked|\(hidden|\(sensitive|change[_-]?(?:me|it)|"
                               r"replace[_-]?(?:me|with)|generate[_-]with", re.IGNORECASE)
REPEATED = re.compile(r"(.)\1{9,}")


def placeholder(text: str) -> bool:
    """A documented stand-in, not a value: ``<your key>``, ``sk-xxxx…``, ``changeme``,
    ``[MASKED]``, or a character repeated through most of it (``0000000000``; a token
    that only starts with a run, as X's app tokens do with ``AAAA…``, is no stand-in)."""
    return bool(PLACEHOLDER_WORDS.search(text)) or bool(
        REPEATED.search(text) and len(set(text)) < 12)


# a value that names a secret rather than holding one: ``"auth_token"``, ``new_password``
A_SECRETS_NAME = re.compile(r"[a-z]+(?:[_.-][a-z]+)*")
SECRET_WORD = re.compile(r"token|key|secret|passw|pwd|auth|cred")
# keys published as a tool's fixed development key (Azurite's storage emulator)
# and the examples of the HTTP authentication RFCs ("username:password", "Aladdin:open sesame")
PUBLISHED = frozenset({
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==",
    "dXNlcm5hbWU6cGFzc3dvcmQ=", "QWxhZGRpbjpvcGVuIHNlc2FtZQ==",
    # jwt.io's example token (signed with "your-256-bit-secret")
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwi"
    "aWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
    # the example seed of Google Authenticator's key URI format and of pyotp's docs
    "JBSWY3DPEHPK3PXP", "base32secret3232"})


def names_a_secret(bare: str) -> bool:
    return bool(A_SECRETS_NAME.fullmatch(bare) and SECRET_WORD.search(bare))


def is_value(text: str) -> bool:
    """A value that may be a secret: not a number, placeholder, variable, path, URL, a
    secret manager's reference, or the name of a secret."""
    bare = text.strip("\\\"'`").strip()
    return (len(bare) >= 6 and not NOT_A_SECRET.match(bare) and not placeholder(bare)
            and not names_a_secret(bare) and bare not in PUBLISHED)


def looks_random(text: str) -> bool:
    """A token's body, not a word or a slug: a digit, or both cases, and no placeholder."""
    has_case = any(c.isupper() for c in text) and any(c.islower() for c in text)
    return (has_case or any(c.isdigit() for c in text)) and not placeholder(text)


def not_placeholder(text: str) -> bool:
    """Not a documented example (``T00000000/B00000000/XXXXXXXX``)."""
    return not placeholder(text)


def said_secret(text: str) -> bool:
    """A value a sentence gives as a password: quoted, or not a plain word (a digit, a
    symbol, a capital inside it)."""
    bare = text.strip("\"'`「」『』")
    if bare != text:
        return (len(bare) >= 4 and not NOT_A_SECRET.match(bare) and not placeholder(bare)
                and not names_a_secret(bare)
                and not re.fullmatch(r"[a-z]+(?:[:_./-][a-z]+)+", bare))  # 'admin:public_key'
    return is_value(bare) and (any(not c.isalpha() and c not in "-'’" for c in bare)
                               or bare[1:] != bare[1:].lower())


UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.IGNORECASE)


def hook_secret(segment: str) -> bool:
    """A webhook path's last segment that is a secret: random (digits among letters of both
    cases, or among short runs of letters), not a name like ``github-events-handler-v2``."""
    bare = segment.replace("-", "").replace("_", "")
    runs = re.findall(r"[a-zA-Z]+", bare)
    mixed = bare.lower() != bare and bare.upper() != bare
    return (len(bare) >= 16 and sum(c.isdigit() for c in bare) >= 3
            and (mixed or max((len(r) for r in runs), default=0) <= 8)
            and not placeholder(bare))


# cookies that hold no credential: analytics ids, preferences, a cookie's attributes
HARMLESS_COOKIES = re.compile(r"_ga(?:_\w+)?|_gid|_gat\w*|_fbp|_fbc|_gcl_\w+|_hj\w+|_ym\w*|"
                              r"ajs_anonymous_id|theme|lang|locale|tz|\w*consent|"
                              r"expires|path|domain|max-age|samesite|secure|httponly|version",
                              re.IGNORECASE)


def secret_cookie(header: str) -> bool:
    """A cookie header's value holds a secret: a cookie not known to be harmless, with a
    value that is one (``sessionid=""`` clears a cookie)."""
    for pair in header.split(";"):
        name, eq, value = pair.strip().partition("=")
        if eq and not HARMLESS_COOKIES.fullmatch(name.strip()) and \
                len(value.strip().strip('"')) >= 6 and not placeholder(value):
            return True
    return False


def passphrase(text: str) -> bool:
    """A key a person chose: a value with a digit or a sign in it, or a long one (a word
    such as "Absent" is what a tool prints where there is none)."""
    bare = text.strip()
    return is_value(bare) and (len(bare) >= 10 or not bare.isalpha())


def pin_value(text: str) -> bool:
    """A PIN, not a default or a run: not one digit repeated, not 1234 or 0000-like."""
    return len(set(text)) > 1 and text not in ("1234", "12345", "123456", "12345678")


def random_value(text: str) -> bool:
    return is_value(text) and looks_random(text)


def announced_value(text: str) -> bool:
    """A value given alone after a line that announces it: random, or a UUID (Railway's,
    Heroku's tokens are UUIDs; a UUID announced as a key is one)."""
    return is_value(text) and (looks_random(text) or bool(UUID.fullmatch(text)))


def said_token(text: str) -> bool:
    """A token given after its name without a verb ("use the api key abc123…")."""
    return (is_value(text) and any(c.isdigit() for c in text)
            and any(c.isalpha() for c in text) and looks_random(text))


def header_value(text: str) -> bool:
    """An ``Authorization:`` value without a scheme word is a token, not a word of prose."""
    return is_value(text) and (len(text) >= 20 or any(not c.isalpha() for c in text))


def _rule(kind: str, pattern: str, keep: int = 0, flags: int = 0, hints: tuple[str, ...] = (),
          check: Callable[[str], bool] | None = None, lower: bool = False,
          back: int | None = None, gate: re.Pattern[str] | None = None) -> Rule:
    return Rule(kind, pattern, keep, hints, check, lower, back, gate, flags=flags)


def _tokens(kind: str, *shapes: tuple[str, str]) -> Rule:
    """Tokens by their literal prefix and body: ``(prefix, body pattern)``. The prefix comes
    first in the pattern (a fast literal search) and must not follow a word character."""
    parts = [re.escape(p) + f"(?<![A-Za-z0-9_]{re.escape(p)})" + body for p, body in shapes]
    return Rule(kind, "|".join(f"(?:{p})" for p in parts), check=looks_random,
                prefixes=tuple(p for p, _ in shapes))


B = r"[A-Za-z0-9_-]"  # a URL-safe token character
TOKENS: tuple[Rule, ...] = (
    _tokens("aws-key-id", *((p, r"[A-Z0-9]{16}\b") for p in (
        "AKIA", "ASIA", "AGPA", "AIDA", "AROA", "AIPA", "ANPA", "ANVA", "ABIA", "ACCA"))),
    _tokens("aws-session-token", ("IQoJb3JpZ2lu", r"[A-Za-z0-9+/=]{40,}"),
            ("FwoGZXIvYXdz", r"[A-Za-z0-9+/=]{40,}")),
    _tokens("github-token", *((p, r"[A-Za-z0-9]{30,}") for p in (
        "ghp_", "gho_", "ghu_", "ghs_", "ghr_")), ("github_pat_", r"[A-Za-z0-9_]{22,}")),
    _tokens("gitlab-token", *((p, B + "{20,}") for p in (
        "glpat-", "glrt-", "gldt-", "glptt-", "glcbt-", "glft-", "glsoat-", "glimt-",
        "gloas-", "glffct-", "glagent-", "GR1348941"))),
    _tokens("llm-key", ("sk-", r"(?:ant-[a-z0-9]+-|proj-|svcacct-|admin-|or-v1-)?" + B + "{20,}"),
            ("gsk_", r"[A-Za-z0-9]{40,}"), ("xai-", r"[A-Za-z0-9]{60,}"),
            ("r8_", r"[A-Za-z0-9]{30,}"), ("pplx-", r"[A-Za-z0-9]{40,}"),
            ("hf_", r"[A-Za-z0-9]{30,}\b")),
    _tokens("slack-token", *((p, r"[A-Za-z0-9.-]{10,}") for p in (
        "xoxb-", "xoxp-", "xoxa-", "xoxo-", "xoxs-", "xoxr-", "xoxe-", "xoxe.", "xapp-"))),
    _tokens("stripe-key", *((p, r"[A-Za-z0-9]{16,}") for p in (
        "sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_"))),
    _tokens("payment-token", ("sq0atp-", B + "{22,}"), ("sq0csp-", B + "{40,}"),
            ("EAAA", B + "{60,}"), ("access_token$production$", r"[0-9a-z]{16}\$[0-9a-f]{32}"),
            ("access_token$sandbox$", r"[0-9a-z]{16}\$[0-9a-f]{32}"),
            *((p, r"[a-fA-F0-9]{32}") for p in ("shpat_", "shpss_", "shpca_", "shppa_")),
            ("access-production-", r"[0-9a-f-]{36}"), ("access-development-", r"[0-9a-f-]{36}"),
            ("rzp_live_", r"[A-Za-z0-9]{14}"), ("rzp_test_", r"[A-Za-z0-9]{14}"),
            ("pdl_live_", r"[A-Za-z0-9_]{30,}"), ("pdl_sdbx_", r"[A-Za-z0-9_]{30,}")),
    _tokens("registry-token", ("npm_", r"[A-Za-z0-9]{36}\b"), ("pypi-AgE", B + "{50,}"),
            ("rubygems_", r"[a-f0-9]{48}"), ("oy2", r"[a-z0-9]{43}\b"),
            ("dckr_pat_", B + "{20,}"), ("cio", r"[A-Za-z0-9]{32}\b"),
            ("AKCp", r"[A-Za-z0-9]{60,}"), ("CLOJARS_", r"[a-z0-9]{60}"),
            ("cmVmdGtuOjAx", r"[A-Za-z0-9]{40,}")),
    _tokens("ci-token", ("ATBB", r"[A-Za-z0-9_=.-]{28,}"), ("ATATT3", r"[A-Za-z0-9_=.-]{100,}"),
            ("bkua_", r"[a-f0-9]{40}"), ("CCIPAT_", r"[A-Za-z0-9_]{40,}")),
    _tokens("cloud-token", ("ya29.", B + "{20,}"), ("GOCSPX-", B + "{20,}"),
            ("AIza", B + "{35}"),
            *((p, r"[a-f0-9]{64}") for p in ("dop_v1_", "doo_v1_", "dor_v1_")),
            ("HRKU-", B + "{40,}"), ("LTAI", r"[A-Za-z0-9]{20}\b")),
    _tokens("secret-manager-token", *((p, B + "{24,}") for p in ("hvs.", "hvb.", "hvr.")),
            *((p, r"[A-Za-z0-9._-]{40,}") for p in (
                "dp.st.", "dp.pt.", "dp.ct.", "dp.sa.", "dp.scim.", "dp.audit.")),
            ("ops_eyJ", r"[A-Za-z0-9_=-]{100,}"), ("pul-", r"[a-f0-9]{40}")),
    _tokens("chat-token", ("SK", r"[0-9a-f]{32}\b"), ("syt_", r"[A-Za-z0-9_]{20,}")),
    _tokens("api-key", ("ntn_", r"[A-Za-z0-9]{40,}"), ("secret_", r"[A-Za-z0-9]{43}\b"),
            ("NRAK-", r"[A-Z0-9]{27}\b"), ("sntrys_", r"[A-Za-z0-9+/=_]{40,}"),
            ("sntryu_", r"[a-f0-9]{64}"), ("lin_api_", r"[A-Za-z0-9]{40}"),
            ("PMAK-", r"[a-f0-9]{24}-[a-f0-9]{34}"), ("figd_", B + "{40,}"),
            ("CFPAT-", B + "{43}"), ("sbp_", r"[a-f0-9]{40}"),
            ("pcsk_", r"[A-Za-z0-9]{4,8}_[A-Za-z0-9]{40,}"),
            ("lsv2_pt_", r"[a-f0-9]{32}_[a-f0-9]{10}"), ("lsv2_sk_", r"[a-f0-9]{32}_[a-f0-9]{10}"),
            ("glsa_", r"[A-Za-z0-9]{32}_[a-f0-9]{8}"), ("glc_", r"[A-Za-z0-9+/=]{32,}"),
            ("dapi", r"[a-f0-9]{32}(?:-\d)?\b"), ("FLWSECK_TEST-", r"[a-f0-9]{32}-X"),
            ("FLWSECK-", r"[a-f0-9]{32}-X"), ("key-", r"[a-f0-9]{32}\b"),
            ("sl.", B + "{100,}"), ("tfp_", r"[A-Za-z0-9_]{40,}"),
            ("shippo_live_", r"[a-f0-9]{40}"), ("shippo_test_", r"[a-f0-9]{40}"),
            ("pat", r"[A-Za-z0-9]{14}\.[a-f0-9]{64}"), ("sk.eyJ", B + r"{20,}\." + B + "{20,}"),
            ("fm2_", r"[A-Za-z0-9_=+/-]{40,}"), ("fo1_", r"[A-Za-z0-9_=+/-]{40,}"),
            ("phx_", r"[A-Za-z0-9]{30,}"), ("dt0c01.", r"[A-Z0-9]{24}\.[A-Z0-9]{64}"),
            ("hcaik_", r"[a-z0-9]{40,}"), ("hcxik_", r"[a-z0-9]{40,}"),
            ("NNSXS.", r"[A-Z0-9]{30,45}\.[A-Z0-9]{60,70}"), ("live_", r"[A-Za-z0-9]{30}\b"),
            *((p, r"[A-Z2-7]{55}") for p in ("SUA", "SAA", "SOA"))),
    _tokens("private-key", *((p, "[1-9A-HJ-NP-Za-km-z]{100,}") for p in (
        "xprv", "tprv", "yprv", "zprv", "uprv", "vprv"))),
    _tokens("private-key", ("AGE-SECRET-KEY-1", r"[0-9A-Z]{58}")),
    _tokens("sendgrid-key", ("SG.", B + r"{16,}\." + B + "{16,}")),
    _tokens("jwt", ("eyJ", B + r"{8,}\.eyJ" + B + r"{8,}\." + B + "{8,}")),
)

KEY_WORDS = (r"(?:password|passwd|pwd|passphrase|passcode|secret|token|api[_-]?key|apikey|"
             r"access[_-]?key|secret[_-]?key(?:[_-]?base)?|private[_-]?key|client[_-]?secret|"
             r"credentials?|creds|auth[_-]?token|session[_-]?key|signing[_-]?key|"
             r"encryption[_-]?key|app[_-]?key|master[_-]?key|(?<![a-z])pass|(?<![a-z])pat|"
             r"(?<![a-z])psk|wpa[_-]?passphrase|authtok|(?<![a-z])totp(?:[_-]?secret)?|"
             r"otp[_-]?secret|mfa[_-]?secret|"
             r"(?<![a-z])(?:aes|hmac|jwt|fernet|cipher|crypto|kms|license|webhook|root|"
             r"admin|auth|client|service|account|storage|deploy|oauth|consumer|shared|sas|"
             r"integration|"
             r"db|database|dek|kek|wrapping|data)[_-]?key)")
VALUE = (r"((?<=\\\")(?:[^\"\\\n]|\\[^\"])*(?=\\\")|(?<=\")[^\"\n]*(?=\")|"
         r"(?<=')[^'\n]*(?=')|[^\s,;}\])]+)")

ANY_SEP = re.compile(r"[a-z0-9_.-]{0,24}\\?[\"']?\]?\s*(?::=|=>|=|:)")

STRUCTURED: tuple[Rule, ...] = (
    _rule("private-key", r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
          r"(?:.*?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s:,\\-]*)",
          flags=re.DOTALL, hints=('private key',), check=not_placeholder),
    # the tail of a key whose BEGIN line was cut off (a clipped tool output)
    _rule("private-key", r"(?:[A-Za-z0-9+/=]{24,}(?:\\n|\s)+)+[A-Za-z0-9+/=]*(?:\\n|\s)*"
          r"-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----", hints=('private key',)),
    _rule("private-key", r"(private-lines:\s*\d+\s*\n)(?:[a-z0-9+/=]+\n?)+", keep=1,
          hints=('private-lines',), lower=True, back=0),
    _rule("private-key", r"(untrusted comment: [^\n]*secret key\s*\n)[a-z0-9+/=]{40,}", keep=1,
          hints=('untrusted comment:',), lower=True, back=0),
    _rule("private-key", r"(\"(?:d|p|q|dp|dq|qi|k)\"\s*:\s*\")[a-z0-9_-]{20,}", keep=1,
          hints=('"kty"',), lower=True),
    _rule("azure-key", r"((?:accountkey|sharedaccesskey)=)[a-z0-9+/=]{20,}", keep=1,
          hints=('accountkey=', 'sharedaccesskey='), lower=True, back=0,
          check=lambda v: v not in PUBLISHED),
    _rule("azure-key", r"(?<![a-z0-9_~.])[a-z0-9_~.]{3}\dq~[a-z0-9_~.-]{31,34}", hints=('q~',),
          lower=True, back=4),
    _rule("signed-url", r"([?&](?:sig|code)=)[a-z0-9%+/=_-]{20,}", keep=1,
          hints=('sig=', 'code='), lower=True, back=1),
    _rule("cloud-token", r"1//0[A-Za-z0-9_-]{40,}", hints=('1//0',), back=0),
    _rule("chat-token", r"(?<!\d)\d{8,10}:AA[A-Za-z0-9_-]{33}", hints=(':aa',), back=10),
    _rule("chat-token", r"(?<![A-Za-z0-9_-])[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\."
          r"[A-Za-z0-9_-]{27,40}",
          hints=('discord', 'bot_token', 'bot token', 'client.run', 'bot.run', 'bot.start')),
    _rule("secret-manager-token", r"(?<![a-z0-9])[a-z0-9]{14}\.atlasv1\.[a-z0-9_=-]{60,}",
          hints=('.atlasv1.',), lower=True, back=14),
    _rule("secret-manager-token", r"(?<![\w.])0\.[0-9a-f-]{36}\.[A-Za-z0-9]{30}:"
          r"[A-Za-z0-9+/]{20,}=*", hints=('0.',), back=0),
    _rule("webhook", r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/"
          r"\d+/[a-z0-9_-]+", hints=('/api/webhooks/',), lower=True),
    _rule("webhook", r"https://hooks\.slack\.com/(?:services|workflows)/[a-z0-9/_-]+",
          hints=('hooks.slack.com',), lower=True, back=8, check=not_placeholder),
    _rule("webhook", r"https://[a-z0-9-]+\.webhook\.office\.com/webhookb2/[^\s\"'<>]+",
          hints=('.webhook.office.com',), lower=True),
    _rule("sentry-dsn", r"(https?://[0-9a-f]{32}:)[0-9a-f]{32}(?=@[^\s/]*sentry)", keep=1,
          hints=('sentry',), lower=True),
    _rule("cookie", r"((?:^|(?<=[\s\"']))(?:set-)?cookie\s*:\s*)(?=[^\s=;,]+=)[^\n\"']{8,}",
          keep=1, hints=('cookie',), lower=True, back=4, check=lambda v: secret_cookie(v)),
    # curl -u user:pw, --user user:pw: the user stays
    _rule("basic-auth", r"((?:\s-u\s*|--user[\s=]+)[\"']?[^\s:\"']+:)[^\s\"']+", keep=1,
          hints=(' -u', '--user'), check=is_value, back=0),
    _rule("cli-password", r"(\bmysql(?:dump|admin)?\b[^\n]*?\s-p)(?!\s)([^\s\"']+)", keep=1,
          hints=('mysql',), back=0),
    _rule("cli-password", r"(\bsshpass\s+-p\s*)(\S+)", keep=1, hints=('sshpass',), back=0),
    _rule("cli-password", r"(\blogin\b[^\n]*?\s(?:-p|--password)(?:\s+|=))(?!-)(\S+)", keep=1,
          hints=('login',), check=is_value, back=0),
    _rule("cli-password", r"(\bconfigure\s+set\s+[\w.-]*(?:secret|token|password|key)[\w.-]*"
          r"\s+)(\S+)", keep=1, hints=('configure',), lower=True, check=is_value, back=0),
    _rule("cli-password", r"(\bhtpasswd(?=[^\n]*\s-\w*b)(?:\s+-\w+)*\s+\S+\s+\S+\s+)(\S+)",
          keep=1, hints=('htpasswd',), back=0),
    _rule("cli-password", r"(\bredis-cli\b[^\n]*?\s-a\s+)(\S+)", keep=1, hints=('redis-cli',),
          back=0),
    _rule("cli-password", r"((?:-pass(?:in|out)?|-passwd|-k)\s+pass:)(\S+)", keep=1,
          hints=('-pass', '-k'), back=0),
    _rule("cli-password", r"(-(?:store|key|srcstore|deststore|srckey|destkey)pass\s+)(\S+)",
          keep=1, hints=('-store', '-key', '-src', '-dest'), back=0),
    _rule("cli-password", r"(\bsqlcmd\b[^\n]*?\s-P\s*)(\S+)", keep=1, hints=('sqlcmd',), back=0),
    _rule("cli-password", r"(\bldap\w+\b[^\n]*?\s-w\s+)(\S+)", keep=1, hints=('ldap',), back=0),
    _rule("cli-password", r"((?:\s-U\s*|--user[= ])[^\s%/]+%)(\S+)", keep=1,
          hints=(' -u', '--user'), back=0),
    _rule("cli-password", r"(\b(?:zip|unzip)\b[^\n]*?\s-P\s*|\b(?:7z|7za|rar|unrar)\b[^\n]*?"
          r"\s-p)(?!-)(\S+)", keep=1, hints=('zip', 'unzip', '7z', 'rar', 'unrar'),
          check=is_value, back=0),
    _rule("cli-password", r"(\bsecret\s+set\s+\S+\s+(?:-b|--body)[\s=]+)(\S+)", keep=1,
          hints=('secret set',), check=is_value, back=0),
    _rule("cli-password", r"(\b(?:requirepass|masterauth)\s+)(\"[^\"\n]*\"|\S+)", keep=1,
          hints=('requirepass', 'masterauth'), lower=True, check=is_value, back=0),
    # `mongosh … -u admin -p PW`, `psql -U x -p …` is a port (a number: no value)
    _rule("cli-password", r"(\s-u\s*[\"']?[^\s\"']+[\"']?\s+-p\s*)(?!-)(\S+)", keep=1,
          hints=(' -u',), check=said_secret, back=0),  # `mysql -u root -p db` asks for it
    # a Wi-Fi key: in a join-network QR string, and as Windows shows a saved profile's
    _rule("wifi-key", r"(\bwifi:(?:[a-z]:[^;\n]*;)*?p:)((?:\\.|[^;\\\n])+)(?=;)", keep=1,
          hints=('wifi:',), lower=True, check=is_value, back=0),
    _rule("wifi-key", r"(\bkey content\s*:[ \t]*)(\S+)", keep=1, hints=('key content',),
          lower=True, check=passphrase, back=0),
    # a token announced at the end of a line ("the unseal key:", "token'ı burada, …:")
    # and given alone on the next
    _rule("announced", r"^((?=[^\n]{0,200}:[ \t]*\r?\n[ \t]*[a-z0-9+/=_.~-]{16,}[ \t]*(?:\r?\n|$))"
          r"(?=[^\n]*?(?:key|token|passw|secret|kennwort|schlüssel|clave|contraseña|"
          r"mot de passe|senha|chiave|şifre|wachtwoord|lösenord|hasło|пароль|ключ|токен|密码|"
          r"密钥|パスワード|비밀번호))(?![^\n]*(?:accessor|\bid\b|hash|digest|fingerprint|"
          r"checksum|public|publishable))[^\n]{0,200}:[ \t]*\r?\n[ \t]*)"
          r"([a-z0-9+/=_.~-]{16,})[ \t]*(?=\r?\n|$)", keep=1,
          hints=('key', 'token', 'passw', 'secret', 'kennwort', 'schlüssel', 'clave',
                 'contraseña', 'mot de passe', 'senha', 'chiave', 'şifre', 'wachtwoord',
                 'lösenord', 'hasło', 'пароль', 'ключ', 'токен', '密码', '密钥', 'パスワード',
                 '비밀번호'), lower=True, check=announced_value, flags=re.M),
    # a Kubernetes secret decoded on the command line: its value is the next line
    _rule("k8s-secret", r"(\bget secrets?\b[^\n]*\bbase64 (?:-d|--decode|-D)\b[^\n]*\r?\n)"
          r"([^\s]{8,})", keep=1, hints=('base64 -d', 'base64 --decode', 'base64 -d'),
          lower=True, check=is_value, back=300),
    # Windows: `net use Z: \\server\share /user:DOMAIN\name PASSWORD`
    _rule("cli-password", r"(\bnet use\b[^\n]*?/user:\S+[ \t]+)(?![/*])(\S+)", keep=1,
          hints=('net use',), lower=True, check=is_value, back=0),
    # "… and password `…`" in prose, in several languages
    _rule("password", r"(\b(?:password|passwort|kennwort|contraseña|senha|mot de passe|"
          r"wachtwoord|lösenord|hasło|пароль)\s+(?:is\s+|è\s+|es\s+|ist\s+|é\s+)?`)"
          r"([^`\n]{6,})(?=`)", keep=1, hints=('passw', 'kennwort', 'contraseña', 'senha',
                                                'mot de passe', 'wachtwoord', 'lösenord',
                                                'hasło', 'пароль'),
          lower=True, check=is_value, back=0),
    # a session cookie by its name, as devtools or a test's output shows it
    _rule("cookie", r"(\b(?:session|sessionid|session_id|connect\.sid|phpsessid|"
          r"jsessionid|laravel_session|_session|remember_token)=)([^;\s\"'`]{16,})", keep=1,
          hints=('session', 'connect.sid=', 'remember_token='), lower=True, check=is_value,
          back=12),
    # an XML element named for a secret: <pre-shared-key>…</pre-shared-key>, <password>…
    _rule("password", r"(<([a-z_:-]*(?:password|passwd|secret|pre-shared-key|preshared[_-]?key|"
          r"psk|api[_-]?key|auth[_-]?token|access[_-]?token)[a-z_-]*)>)([^<\n]{6,})(?=</\2>)",
          keep=1, hints=('password>', 'passwd>', 'secret>', 'key>', 'psk>', 'token>'),
          lower=True, check=is_value, back=40),
    # OpenWrt's `option key '…'`; Cisco's cleartext `secret 0 …`, `password 0 …`
    _rule("password", r"(\boption\s+(?:key|password|sae_password|wpa_passphrase|auth_secret)"
          r"\s+[\"'])([^\"'\n]+)(?=[\"'])", keep=1, hints=('option key', 'option password',
                                                    'option sae_password',
                                                    'option wpa_passphrase',
                                                    'option auth_secret'),
          lower=True, check=is_value, back=0),
    _rule("password", r"(\b(?:secret|password)\s+0\s+)(\S+)", keep=1,
          hints=('secret 0 ', 'password 0 '), lower=True, check=is_value, back=0),
    # a game server's or a tool's single-dash flag: `-password "…"`, `-pass …`
    _rule("flag", r"((?<![\w-])-(?:password|passwd|pass|pw|rcon[_-]?password)[\s=]+)"
          r"(\"[^\"\n]+\"|'[^'\n]+'|[^\s\"'-][^\s\"']*)", keep=1,
          hints=('-password', '-passwd', '-pass ', '-pw ', '-rcon'), lower=True,
          check=is_value, back=0),
    # a config line `name "value"` whose name is a password's (Source's rcon_password)
    _rule("password", r"(?m)(^[ \t]*[\w.]*(?:password|passwd)[ \t]+)(\"[^\"\n]+\"|'[^'\n]+')",
          keep=1, hints=('password ', 'passwd '), lower=True, check=is_value, back=40),
    # ssh-keygen's new passphrase
    _rule("flag", r"(\bssh-keygen\b[^\n]*?\s-N\s+)('[^'\n]+'|\"[^\"\n]+\"|[^\s'\"-]\S*)",
          keep=1, hints=('ssh-keygen',), check=is_value, back=0),  # -N, not -n (principals)
    # a secret piped into the tool that takes it: `printf '%s' '…' | docker secret create`
    _rule("password", r"(\b(?:printf\s+'%s'|printf\s+\"%s\"|echo(?:\s+-n)?)\s+)"
          r"('[^'\n]+'|\"[^\"\n]+\")(?=\s*\|\s*(?:docker|podman)\s+secret|\s*\|\s*gpg\b"
          r"|\s*\|\s*cryptsetup|\s*\|\s*openssl)", keep=1,
          hints=('| docker secret', '| podman secret', '| gpg', '| cryptsetup', '| openssl'),
          lower=True, check=is_value, back=None),
    # `cat` of a file named for a secret, its content the next line
    _rule("password", r"(\bcat\s+(?!\S*htpasswd)\S*(?:password|passwd|secret|token|api[_-]?key|"
          r"credential)"
          r"\S*[ \t]*\r?\n)(?!-----)([^\s]{8,})(?=[ \t]*(?:\r?\n|$))", keep=1,
          hints=('cat ',), lower=True, check=is_value, back=0),
    # a PIN given after its name (a card's, a phone's, a door's, an alarm's)
    _rule("pin", r"((?<![A-Za-z])(?:PIN|PUK|(?i:pin-code|code pin|pin-kode|disarm code|"
          r"door code|gate code|alarm code|keypad code)|पिन|暗証番号)(?![A-Za-z])"
          r"[^\n\d]{0,16}?)(\d{4,8})(?![\d.,:/-])", keep=1,
          hints=('pin', 'puk', 'disarm code', 'door code', 'gate code', 'alarm code',
                 'keypad code', 'पिन', '暗証番号'), check=pin_value, back=0),
    # a KeePass XML export's password entry
    _rule("password", r"(<key>(?:password|passwort|kennwort)</key>\s*<value[^>]*>)([^<\n]+)"
          r"(?=</value>)", keep=1, hints=('<key>password</key>', '<key>passwort</key>',
                                          '<key>kennwort</key>'),
          lower=True, check=is_value, back=0),
    # a one-time-password seed (base32): in an otpauth:// URI, handed to pyotp or oathtool
    _rule("totp-seed", r"((?:otpauth://[th]otp/[^\s?]*\?(?:[^\s#&]*&)*secret=)|"
          r"(?:pyotp\.[th]otp\(\s*[\"'])|(?:\boathtool\b[^\n]*?(?:\s-b|--base32)"
          r"(?:\s+-[\w-]+)*\s+))([a-z2-7]{16,}=*)(?![a-z0-9])", keep=1,
          hints=('otpauth', 'pyotp', 'oathtool'), lower=True, check=is_value, back=0),
    # a Vault unseal key, as `vault operator init` prints it
    _rule("secret-manager-token", r"(unseal key(?: \d+)?:\s*)([a-z0-9+/=]{40,})", keep=1,
          hints=('unseal key',), lower=True, back=0),
    # a key handed to a client in code: `cohere.Client("…")`, `Api(token="…")`
    _rule("api-key", r"((?:client|api|sdk|session)\(\s*(?:(?:api_)?key\s*=\s*|token\s*=\s*)?"
          r"[\"'])([a-z0-9_-]{24,})(?=[\"'])", keep=1,
          hints=('client(', 'api(', 'sdk(', 'session('), lower=True, check=looks_random,
          back=0),
    # a webhook's secret path: Zapier's catch hooks, Mattermost's and Rocket.Chat's ids
    _rule("webhook", r"(/hooks/catch/\d+/)([a-z0-9]{5,})", keep=1, hints=('/hooks/catch/',),
          lower=True, back=0),
    _rule("webhook", r"(/hooks/)([a-z0-9]{26})(?![a-z0-9/])", keep=1, hints=('/hooks/',),
          lower=True, check=looks_random, back=0),
    # a .pgpass line: host:port:database:user:password
    _rule("password", r"(?m)(^[\w.*-]+:(?:\d{2,5}|\*):[^:\s]+:[^:\s]+:)(\S+)$", keep=1,
          hints=('pgpass', ':5432:', ':5433:', ':6432:', ':*:'), check=is_value),
    # SQL: CREATE/ALTER USER|ROLE … PASSWORD '…', IDENTIFIED BY '…'
    _rule("password", r"(\b(?:create|alter)\s+(?:user|role|login)\b[^;\n]*?"
          r"\b(?:password\s*=?\s*|identified\s+by\s+)')([^'\n]+)(?=')", keep=1,
          hints=('create', 'alter'), lower=True, check=is_value, back=0),
    # NEO4J_AUTH: neo4j/pw: an `…_AUTH` value given as user/password
    _rule("password", r"([a-z0-9_]*_auth[\"']?\s*[:=]\s*[\"']?[\w.@-]+[/:])([^\s\"']+)", keep=1,
          hints=('_auth',), lower=True, check=is_value, back=30),
    # Go's DSN: user:password@tcp(host)/db
    _rule("url-password", r"(\b[\w.-]+:)([^@\s\"':/]+)(?=@(?:tcp|unix|udp)\()", keep=1,
          hints=('@tcp(', '@unix(', '@udp('), lower=True, check=is_value),
    # a signature or a token in a URL's query string, or an AWS request's signature
    _rule("signed-url", r"([?&](?:x-amz-signature|x-goog-signature|x-amz-security-token|"
          r"signature|access_token|api_key|apikey|token|key|auth_token|client_secret|secret|"
          r"password|passwd|pwd|private_token|appid|app_key|subscription-key|access_key|"
          r"accesskey)=)([a-z0-9%+/=_.!*~-]{6,}?)(?=[&#\s\"'<>)]|$)",
          keep=1, hints=('signature=', 'security-token=', 'token=', 'key=', 'secret=',
                         'password=', 'passwd=', 'pwd=', 'appid='), lower=True, back=24,
          check=lambda v: is_value(v) and looks_random(v)),
    _rule("signed-url", r"(\bsignature=)([a-f0-9]{64})", keep=1, hints=('signature=',),
          lower=True, back=10),
    # chat hooks whose path or key is the secret: Feishu/Lark, WeCom
    _rule("webhook", r"(/open-apis/bot/v2/hook/)([a-z0-9-]{20,})", keep=1,
          hints=('/open-apis/bot/v2/hook/',), lower=True, back=0),
    # <password>…</password>, <apiToken>…</apiToken> in XML (Maven's settings.xml)
    _rule("password", r"(<[\w.:-]*(?:password|passwd|passphrase|secret|token|apikey|api-key|"
          r"api_key|privatekey|private-key)[\w.-]*>)([^<\n]{4,}?)(?=</)", keep=1,
          hints=('password>', 'passwd>', 'passphrase>', 'secret>', 'token>', 'key>'),
          lower=True, check=is_value, back=40),
    # a Vault AppRole secret_id (a UUID, which alone is no secret)
    _rule("secret-manager-token", r"(secret[_-]?id[\"']?\s*[:=]\s*[\"']?)"
          r"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})", keep=1,
          hints=('secret_id', 'secret-id', 'secretid'), lower=True, back=0),
    # Twilio's client built from an account SID and its auth token
    _rule("api-key", r"([\"']ac[0-9a-f]{32}[\"']\s*,\s*[\"'])([0-9a-f]{32})(?=[\"'])", keep=1,
          hints=('"ac', "'ac"), lower=True, back=0),
    # Terraform: a variable named for a secret, with a default
    _rule("password", r"(variable\s+\"[^\"\n]*(?:password|passwd|secret|token|key)[^\"\n]*\"\s*"
          r"\{[^}]*?\bdefault\s*=\s*\")([^\"\n]+)(?=\")", keep=1, hints=('variable "',),
          lower=True, check=is_value, back=0),
    # SMTP: the base64 answer to "Password:" (334 UGFzc3dvcmQ6), and AUTH PLAIN
    _rule("password", r"(334 (?:ugfzc3dvcmq6|cgfzc3dvcmq6)\s*\r?\n\s*(?:c:\s*)?)([a-z0-9+/=]{4,})",
          keep=1, hints=('334 ugfzc3dvcmq6', '334 cgfzc3dvcmq6'), lower=True, back=0),
    _rule("password", r"(\bauth plain\s+)([a-z0-9+/=]{8,})", keep=1, hints=('auth plain',),
          lower=True, back=0),
    # "Authorization: Bearer abc…", "-H 'X-Auth-Token: abc…'", "PRIVATE-TOKEN: abc…"
    _rule("auth-header", r"((?:authorization|x-api-key|api-key|x-auth-token|private-token|"
          r"x-vault-token|x-access-token|x-shopify-access-token|x-goog-api-key|"
          r"ocp-apim-subscription-key)[\"']?\s*[:=]\s*[\"']?"
          r"(?:(?:bearer|basic|token|digest|bot|sso-key|ssws|apikey|key|splunk|pat|oauth|"
          r"hmac|mac|flyv1)\s+(?=[^\s\"',;]{6}))?)"
          r"([^\s\"',;]{6,})", keep=1,
          hints=('authorization', 'x-api-key', 'api-key', 'x-auth-token', 'private-token',
                 'x-vault-token', 'x-access-token', 'x-shopify-access-token', 'x-goog-api-key',
                 'ocp-apim-subscription-key'), lower=True, check=header_value, back=0),
    _rule("auth-header", r"(\b(?:bearer|basic)\s+)([a-z0-9._~+/=-]{16,})", keep=1,
          hints=('bearer', 'basic'), lower=True, check=is_value, back=0),
    # scheme://user:password@host (the scheme and the user stay)
    _rule("url-password", r"(://[^/\s:@\"'\[]*:)(?!\d+/)([^@\s\"']+)(?=@)",
          keep=1, hints=('://',), lower=True, check=is_value, back=0),
    # --password hunter2, --http-password=abc, --api-key=abc; -p 'x' is too short to trust
    _rule("flag", r"(--[a-z-]*?(?:password|passwd|passphrase|token|api-key|apikey|secret|"
          r"client-secret|"
          r"access-key|secret-key|auth-token)(?:=|\s+))(\"[^\"]+\"|'[^']+'|[^\s\"']+)",
          keep=1, hints=('--',), lower=True, check=is_value, back=0),
    # an env dump's NAME=value: the value runs to the line's end (Django keys hold "()")
    _rule("password", r"(?m)(^[ \t]*(?:export[ \t]+)?[A-Z0-9_]*(?:SECRET|PASSWORD|PASSWD|TOKEN|"
          r"API_KEY|APIKEY|PRIVATE_KEY|AUTH)[A-Z0-9_]*=)(\S+)$", keep=1,
          hints=('secret', 'passw', 'token', 'api_key', 'apikey', 'private_key', 'auth'),
          check=is_value),
    # NAME = value, NAME: value, "name": "value", export NAME=value: the name ends in a
    # secret's word (``DB_PASSWORD``, ``aws_secret_access_key``; ``max_tokens`` and
    # ``secret_name`` are not secrets' names); looked for only where a separator follows
    _rule("password", r"((?<![:/])" + KEY_WORDS
          + r"\\?[\"']?\]?\s*(?::=|=>|=|:)[ \t]*(?:&\[u8\]\s*=\s*)?(?:\[\]byte\(|b(?=\"))?"
          r"(?:\\\"|\"|')?)"
          r"(?!\[redacted:)" + VALUE, keep=1,
          hints=("pass", "pwd", "secret", "token", "key", "cred", "pat", "psk", "authtok",
                 "totp"),
          lower=True, check=is_value, back=24, gate=ANY_SEP),
    # a wallet's key: WIF (5…, K…, L…), a 64-byte key in base58 (Solana), where a wallet is
    # named
    _rule("private-key", r"(?<![A-Za-z0-9+/=_-])[5KL][1-9A-HJ-NP-Za-km-z]{50,51}"
          r"(?![A-Za-z0-9+/=_-])",
          hints=('wif:', 'wif ', 'privkey', 'private key', 'wallet', 'bitcoin', 'solana',
                 'phantom', 'keypair', 'secret key'), check=looks_random),
    # a 64-byte key in base58 only where a key is named: a transaction's signature (`solana
    # confirm …`) has the same shape
    _rule("private-key", r"(?<![A-Za-z0-9+/=_-])[1-9A-HJ-NP-Za-km-z]{86,88}(?![A-Za-z0-9+/=_-])",
          hints=('privkey', 'private key', 'phantom', 'keypair', 'secret key', 'export'),
          check=looks_random),
    # a seed phrase: twelve to twenty-four words after its name
    _rule("seed-phrase", r"((?:seed|recovery|secret|backup|mnemonic)(?: phrase| words)?"
          r"[^\n:=]{0,20}?(?:[:=]|\bis\b)\s*[\"']?)((?:[a-z]{3,8}[ \t]+){11,23}[a-z]{3,8})",
          keep=1, hints=('seed', 'recovery', 'mnemonic', 'secret phrase', 'backup phrase'),
          lower=True, back=0,  # a test vector repeats its words ("abandon … about")
          check=lambda v: len(set(v.split())) > len(v.split()) // 3),
    # session cookies: `curl -b 'sessionid=…'`, `document.cookie = "session=…"`, PHPSESSID=…
    _rule("cookie", r"((?:\s-b|--cookie)[\s=]+[\"']?[\w.-]+=)([^\s;\"']{16,})", keep=1,
          hints=(' -b', '--cookie'), check=is_value, back=0),
    _rule("cookie", r"(document\.cookie\s*=\s*[\"'`][\w.-]+=)([^;\"'`\s]{16,})", keep=1,
          hints=('document.cookie',), lower=True, check=is_value, back=0),
    _rule("cookie", r"((?<![a-z0-9_])(?:phpsessid|jsessionid|sessionid|session_id|connect\.sid|"
          r"laravel_session|[a-z0-9_]*_session)\s*[=:]\s*[\"']?)([^\s;\"',]{16,})", keep=1,
          hints=('phpsessid', 'jsessionid', 'sessionid', 'session_id', 'connect.sid',
                 '_session'), lower=True, check=lambda v: is_value(v) and not UUID.fullmatch(v),
          back=16),
    # passwords on command lines: sqlplus user/pw@db, rabbitmqctl, net user, chpasswd,
    # mosquitto and ipmitool -P, lftp -u user,pw
    _rule("cli-password", r"(\bsqlplus\s+(?:-\w+\s+)*[\w.$#]+/)([^@\s/]+)", keep=1,
          hints=('sqlplus',), lower=True, check=is_value, back=0),
    _rule("cli-password", r"(\brabbitmqctl\s+(?:add_user|change_password)\s+\S+\s+)(\S+)",
          keep=1, hints=('rabbitmqctl',), lower=True, check=is_value, back=0),
    _rule("cli-password", r"(\bnet\s+user\s+\S+\s+)(?!/)(\S+)", keep=1, hints=('net user',),
          lower=True, check=is_value, back=0),
    _rule("cli-password", r"(\becho\s+[\"']?[\w.-]+:)([^\s\"'|]+)(?=[\"']?\s*\|\s*(?:sudo\s+)?"
          r"chpasswd)", keep=1, hints=('chpasswd',), check=is_value),
    _rule("cli-password", r"(\b(?:mosquitto_\w+|ipmitool)\b[^\n]*?\s-P\s+)(\S+)", keep=1,
          hints=('mosquitto_', 'ipmitool'), check=is_value, back=0),
    _rule("cli-password", r"(\blftp\b[^\n]*?\s-u\s+[^\s,]+,)([^\s\"']+)", keep=1,
          hints=('lftp',), check=is_value, back=0),
    # a webhook whose last path segment is its secret (n8n, Rocket.Chat, self-hosted tools)
    _rule("webhook", r"(/(?:webhooks?|hooks)/(?:[a-z0-9_-]+/)*?)([a-z0-9_-]{20,})"
          r"(?=[\s\"'<>)?#]|$)", keep=1, hints=('/webhook', '/hooks/'), lower=True,
          check=lambda v: hook_secret(v), back=0),
    # a secret piped into a login: `echo … | az devops login`, `… | docker login --password-stdin`
    _rule("cli-password", r"(\becho\s+[\"']?)([^\s\"'|]{8,})(?=[\"']?\s*\|\s*(?:sudo\s+)?"
          r"(?:[^\n|]*\blogin\b|[^\n|]*--password-stdin|[^\n|]*--with-token|[^\n|]*chpasswd))",
          keep=1, hints=('login', 'password-stdin', 'with-token'), lower=True, check=is_value),
    _rule("secret-manager-token", r"(\bvault\s+operator\s+unseal\s+(?:-\S+\s+)*)"
          r"([a-z0-9+/=]{20,})", keep=1, hints=('operator unseal',), lower=True, back=6),
    # RDP clients: xfreerdp /p:'…'
    _rule("cli-password", r"(\s/p:[\"']?)([^\s\"']+)", keep=1, hints=('/p:',), check=is_value,
          back=1),
    # msmtp, .netrc: `password VALUE` on a line (a Google app password is four words)
    _rule("password", r"(?m)(^[ \t]*(?:password|passwd|passphrase)[ \t]+)"
          r"((?:[a-z]{4} ){3}[a-z]{4}|[^\s=:]\S*)[ \t]*$", keep=1,
          hints=('password', 'passwd', 'passphrase'), check=said_secret, back=16),
    # a user and a password joined in one string (`CURLOPT_USERPWD, "admin:…"`)
    _rule("password", r"((?:userpwd|userpass|user_pass|basic_auth)\W{1,6}[\"'][^:\"'\s]+:)"
          r"([^\"'\s]+)(?=[\"'])", keep=1, hints=('userpwd', 'userpass', 'user_pass', 'basic_auth'),
          lower=True, check=is_value, back=0),
    _rule("password", r"(convertto-securestring\s+(?:-string\s+)?[\"'])([^\"'\n]+)(?=[\"'])",
          keep=1, hints=('convertto-securestring',), lower=True, check=is_value, back=0),
    # Postman's exported auth: {"key": "value", "value": "…"}
    _rule("api-key", r"(\"key\"\s*:\s*\"(?:value|token|password|apikey|api_key|secret)\"\s*,\s*"
          r"\"value\"\s*:\s*\")([^\"\n]{6,})(?=\")", keep=1, hints=('"key"',), lower=True,
          check=is_value, back=0),
    # `snyk config set api=…`, `npm config set //…:_authToken=…`: a key set on a CLI
    _rule("cli-password", r"(\bconfig\s+set\s+[\w.:/-]*(?:api|token|key|secret|password|auth)"
          r"[\w.-]*[=\s]+)(\S+)", keep=1, hints=('config set',), lower=True, check=is_value,
          back=0),
    _rule("cli-password", r"(snmp-server\s+community\s+)(\S+)", keep=1, hints=('snmp-server',),
          check=lambda v: is_value(v) and v.lower() not in ("public", "private"), lower=True,
          back=0),
    _rule("password", r"(:\s*psk\s+[\"']?)([^\"'\n]+?)(?=[\"']?\s*$)", keep=1,
          hints=(': psk',), lower=True, check=is_value, back=2, flags=re.MULTILINE),
    _rule("cli-password", r"(\bnmcli\b[^\n]*?\spassword\s+[\"']?)([^\"'\s]+)", keep=1,
          hints=('nmcli',), lower=True, check=is_value, back=0),
    # a wallet's key where a tool keeps it: Hardhat's accounts, a Solana keypair file, an
    # RPC provider's key in its URL
    _rule("private-key", r"(accounts\s*:\s*\[\s*[\"'])(0x[0-9a-f]{64})", keep=1,
          hints=('accounts',), lower=True, back=0),
    _rule("private-key", r"\[(?:\s*\d{1,3}\s*,){63}\s*\d{1,3}\s*\]",
          hints=('id.json', 'keypair', 'solana')),
    _rule("api-key", r"((?:\.alchemy\.com|\.alchemyapi\.io)/v2/|infura\.io/v3/)([a-z0-9_-]{20,})",
          keep=1, hints=('alchemy.com/v2/', 'alchemyapi.io/v2/', 'infura.io/v3/'), lower=True,
          back=12),
    # AWS SSM's SecureString, Rails' master.key, WordPress' define(), unattend.xml
    _rule("password", r"(\"type\"\s*:\s*\"securestring\",\s*\"value\"\s*:\s*\")([^\"\n]+)",
          keep=1, hints=('"securestring"',), lower=True, back=8),
    _rule("password", r"(master\.key\s*\n)([0-9a-f]{32})\b", keep=1, hints=('master.key',),
          lower=True, back=0),
    _rule("password", r"(define\(\s*['\"][a-z0-9_]*(?:password|secret|key|salt|token)[a-z0-9_]*"
          r"['\"]\s*,\s*['\"])([^'\"\n]+)(?=['\"])", keep=1, hints=('define(',), lower=True,
          check=is_value, back=0),
    _rule("password", r"(<[\w:]*password[\w:]*>\s*<value>)([^<]+)(?=</value>)", keep=1,
          hints=('password>',), lower=True, check=is_value, back=40),
    _rule("private-key", r"-----BEGIN OpenVPN Static key V1-----.*?-----END OpenVPN Static key "
          r"V1-----", flags=re.DOTALL, hints=('openvpn static key',)),
    # a Firebase server key, wrapped or not
    _rule("cloud-token", r"AAAA[A-Za-z0-9_-]{7}:APA91b(?:[A-Za-z0-9_-]|\r?\n)+",
          hints=(':apa91b',), back=12),
    # "मेरा पासवर्ड … है": the verb after the value
    _rule("password", r"(पासवर्ड\s+)(\S+)(?=\s+है)", keep=1, hints=('पासवर्ड',),
          check=said_secret, back=0),
    # "my password is …", "das Passwort ist …", "la contraseña es …", "パスワードは …"
    _rule("password", r"((?:(?<![a-z0-9_:/])(?:password|passwort|kennwort|passwd|passphrase|pw|"
          r"pwd|passcode|mot de passe|contraseña|contrasena|senha|wachtwoord|parola|hasło|haslo|"
          r"psk|pre-shared key|clé pré-partagée|license key|licence key|product key|"
          r"recovery key|recovery code|backup code|chiave di ripristino|clé de récupération|"
          r"wiederherstellungsschlüssel|אסימון|口令|ライセンスキー|復旧キー|回復キー|"
          r"sleutel|api-sleutel|schlüssel|api-schlüssel|clé api|chiave api|clave api|"
          r"пароль|api key|api token|access token|secret|token|mật khẩu|kata sandi|şifre|"
          r"şifresi|συνθηματικό|κωδικός|lösenord(?:et)?|heslo|salasana|adgangskode|passord|"
          r"jelszó|jelszava|private key|secret key|privkey)|パスワード|密码|密碼|비밀번호|"
          r"كلمة المرور|كلمة السر|الرقم السري|رمز عبور|पासवर्ड|รหัสผ่าน|סיסמה)"
          # up to eight words to the verb: "the password admin is", "le mot de passe du compte
          # admin c'est", "הסיסמה למערכת הניהול היא"
          r"(?:[ \t]+(?!(?:is|was|ist|est|es|c'est|är|er|je|là|هي|هو|היא|הוא|είναι|sono|era|now|"
          r"ids?(?=\s*[:：])|hash|fingerprint)\b)[(\[]?[^\W_][^\s.,;:!?—=]{0,23}){0,8}?"
          r"(?:[ \t]+(?:is|was|ist|est|es|c'est|é|è|är|er|now|lautet|heißt|heisst|sono|era|هي|"
          r"هو|là|adalah|είναι|היא|הוא|je)\b|[ \t]*(?:[:=：は是는—]|[\u0e00-\u0e7f]{0,30}?คือ))"
          r"[ \t]*"
          r"(?:(?:now|jetzt|ab heute|heute|ora|ahora|maintenant|désormais|agora|nu|teraz|"
          r"currently|still):?[ \t]+)?)"
          r"(?!\[redacted:)(\"[^\"\n]+\"|'[^'\n]+'|`[^`\n]+`|「[^」\n]+」|『[^』\n]+』|"
          r"[^\s,;\u3000-\u30ff\u3400-\u9fff\uac00-\ud7af\uff00-\uffef]*"
          r"[^\s,;.!?\u3000-\u30ff\u3400-\u9fff\uac00-\ud7af\uff00-\uffef])",
          keep=1, hints=('pass', 'kennwort', 'pw', 'mot de passe', 'contrase', 'senha',
                         'wachtwoord', 'parola', 'hasło', 'haslo', 'пароль', 'パスワード',
                         '密码', '密碼', '비밀번호', 'api key', 'api token', 'access token',
                         'secret', 'token', 'كلمة', 'رمز عبور', 'पासवर्ड', 'รหัสผ่าน',
                         'mật khẩu', 'kata sandi', 'şifre', 'συνθηματικό', 'κωδικός', 'סיסמה',
                         'lösenord', 'heslo', 'salasana', 'adgangskode', 'passord', 'jelsz',
                         'private key', 'privkey', 'الرقم السري', 'sleutel', 'schlüssel',
                         'clé api', 'chiave api', 'clave api', 'psk', 'pre-shared key',
                         'clé pré-partagée', 'license key', 'licence key', 'product key',
                         'recovery key', 'recovery code', 'backup code', 'chiave di ripristino',
                         'clé de récupération', 'wiederherstellungsschlüssel', 'אסימון',
                         '口令', 'ライセンスキー', '復旧キー', '回復キー'), lower=True,
          check=said_secret, back=0),
    # "use the api key abc123…": a token after its name, no verb
    _rule("password", r"((?<![a-z0-9_])(?:password|passwort|api key|api token|access key|"
          r"secret key|token|secret|şifresi|şifre|parola|contraseña|senha|heslo|hasło|"
          r"пароль|mật khẩu|kata sandi|salasana|lösenord)\s+)([a-z0-9_+/=.~!@#$%^&*-]{12,})"
          r"(?![^\s,;.!?])",
          keep=1, hints=('password', 'passwort', 'api key', 'api token', 'access key',
                         'secret key', 'token', 'secret', 'şifre', 'parola', 'contraseña',
                         'senha', 'heslo', 'hasło', 'пароль', 'mật khẩu', 'kata sandi',
                         'salasana', 'lösenord'), lower=True, check=said_token, back=0),
)

# a token's two parts on two lines: the end of one line, the start of the next
RUN = re.compile(r"[A-Za-z0-9_.$+~-]{8,}")  # a token's first part: from its prefix on
TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.$+~-")
# a line break inside a token: a plain or escaped one, a shell's backslash continuation, or a
# string literal closed and opened again on the next line ("…" + "…", implicit joins)
BREAK = re.compile(r"(?:\\?\r?\n|\\n|([\"'])[ \t]*[+.&]?[ \t]*\\?\r?\n[ \t]*[+.&]?[ \t]*\1)[ \t]*"
                   r"(?=[A-Za-z0-9_+/=.$~-]{2})")
TAIL = re.compile(r"[A-Za-z0-9_+/=.$~-]*")
PREFIXES = tuple(p for rule in TOKENS for p in rule.prefixes)
# the token rules by their prefixes' first two characters (every prefix has two or more)
PREFIX_RULES: dict[str, list[tuple[Rule, str]]] = {}
for _rule_ in TOKENS:
    for _p in _rule_.prefixes:
        PREFIX_RULES.setdefault(_p[:2], []).append((_rule_, _p))
BASE64 = re.compile(r"(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{12,}={0,2}(?![A-Za-z0-9+/=_-])")
# a value cut by a line break: right after a character a word never ends in (``…S/``), or
# followed by a line that is nothing but the rest of a random token
WRAPPED = re.compile(r"\\?\r?\n[ \t]*[A-Za-z0-9+/=_-]{4,}(?=[\s)\"',;]|$)")
REST_LINE = re.compile(r"\r?\n[ \t]*([A-Za-z0-9+/=_-]{8,})[ \t]*(?=\r?\n|$)")
USER_PASSWORD = re.compile(r"(?=[^:]*[A-Za-z])[\w.@+\\-]{1,64}:(?!//)\S{6,}")


def _lower_view(text: str) -> str:
    """The text in lower case, each character where it was (a few letters, such as 'İ',
    lower into two characters: those stay as they are)."""
    low = text.lower()
    if len(low) == len(text):
        return low
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text)


def _found(view: str, hints: tuple[str, ...], seen: dict[str, list[int]]) -> list[int]:
    """Where each hint appears in the lower-cased text, in order (each hint looked for once
    per text: ``seen``, which the caller empties when the text changes)."""
    at: list[int] = []
    for hint in hints:
        if hint not in seen:
            found, i = [], view.find(hint)
            while i != -1:
                found.append(i)
                i = view.find(hint, i + 1)
            seen[hint] = found
        at += seen[hint]
    return sorted(set(at))


def _matches(rule: Rule, text: str, view: str,
             seen: dict[str, list[int]]) -> Iterator[re.Match[str]]:
    """The rule's matches: over the whole text, or only where a hint is (``back``)."""
    src = view if rule.lower else text
    if rule.back is None:
        yield from rule.pattern.finditer(src)
        return
    done = 0
    for p in _found(view, rule.hints, seen):
        if p < done or (rule.gate and not rule.gate.match(view, p)):
            continue
        for start in range(max(done, p - rule.back), p + 1):
            m = rule.pattern.match(src, start)
            if m and m.end() > p:
                done = m.end()
                yield m
                break


def _spans(rule: Rule, seen: dict[str, list[int]], text: str,
           view: str) -> list[tuple[int, int, str]]:
    """Where ``rule`` takes a secret out of ``text``: (start, end, replacement)."""
    out = []
    for m in _matches(rule, text, view, seen):
        if "[REDACTED:" in text[m.start():m.end()]:
            continue  # a mark an earlier rule left is never read as a key or a value
        start = m.end(rule.keep) if rule.keep else m.start()
        if rule.check and not rule.check(text[start:m.end()]):
            continue
        out.append((start, _wrapped_end(text, m.end()) if rule.keep else m.end(),
                    MARK.format(rule.kind)))
    return out


def _wrapped_end(text: str, end: int) -> int:
    """Where a value that may go on past a line break ends: with the next line when the
    value stops on a connecting character, or the next line is only a random token's rest."""
    wrapped = WRAPPED.match(text, end) if text[end - 1] in "/+-_" else None
    if wrapped:
        return wrapped.end()
    rest = REST_LINE.match(text, end)
    if rest and any(c.isdigit() for c in rest.group(1)) and looks_random(rest.group(1)):
        return rest.end()
    return end


def _apply(text: str, spans: list[tuple[int, int, str]]) -> tuple[str, int]:
    """The text with each span replaced (a span overlapping an earlier one is dropped), and
    how many were."""
    parts, at, n = [], 0, 0
    for start, end, new in sorted(spans):
        if start < at:
            continue
        parts += [text[at:start], new]
        at, n = end, n + 1
    return "".join(parts) + text[at:], n


def _token_runs(text: str) -> list[tuple[int, int, Rule]]:
    """Each run of token characters that starts with a token rule's prefix: one scan of
    the text, whatever the number of prefixes."""
    out = []
    for m in RUN.finditer(text):
        start = m.start()
        rules = PREFIX_RULES.get(text[start:start + 2])
        if rules:
            rule = next((r for r, p in rules if text.startswith(p, start)), None)
            if rule:
                out.append((start, m.end(), rule))
    # a prefix alone at a line's end, its token on the next line (``NPM_TOKEN=npm_⏎…``)
    at = text.find("\n")
    while at != -1:
        end = at - 1 if at and text[at - 1] == "\r" else at
        end = end - 1 if end and text[end - 1] == "\\" else end
        for rule in TOKENS if text.endswith(PREFIXES, 0, end) else ():
            p = next((p for p in rule.prefixes if text.endswith(p, 0, end)), None)
            if p and (end == len(p) or text[end - len(p) - 1] not in TOKEN_CHARS):
                out.append((end - len(p), end, rule))
                break
        at = text.find("\n", at + 1)
    return sorted(out)


def _tokens_in(text: str, runs: list[tuple[int, int, Rule]]) -> list[tuple[int, int, str]]:
    """The tokens, each taken out whole; a token wrapped across a line break (a terminal's
    width, a pasted chat line) is joined with the next line's first word and taken out
    with both its parts when the two match its rule across the break (two words, or a hash
    wrapped in a table, start with no prefix and match none)."""
    out = []
    for start, end, rule in runs:
        joined, at, stop = text[start:end], end, None
        while (brk := BREAK.match(text, at)) is not None:  # wrapped once, or again
            tail = TAIL.match(text, brk.end())
            assert tail is not None  # TAIL matches the empty string too
            whole_line = tail.end() == len(text) or text.startswith(("\n", "\r\n"), tail.end())
            if stop is not None and not whole_line:
                break  # a second wrap only when the line holds nothing but the token's rest
            m = rule.pattern.match(joined + tail.group())
            if not (m and m.end() > len(joined) and looks_random(m.group())):
                break
            stop = brk.end() + m.end() - len(joined)
            if m.end() < len(joined) + len(tail.group()) or not whole_line:
                break  # the token ends inside this line
            joined, at = joined + tail.group(), tail.end()
        if stop is not None:
            out.append((start, stop, MARK.format(rule.kind)))
            continue
        m = rule.pattern.match(text, start)
        if m and looks_random(m.group()) and m.group() not in PUBLISHED:
            out.append((start, m.end(), MARK.format(rule.kind)))
    return out


# a string literal in code or a value in a config: a key handed to a call by position
# (``Client("…")``, ``jwt.encode(p, "…")``) or kept under a name no rule knows (``key=…``)
LITERAL = re.compile(r"([\"'`])(?=[^\s\"'`\\]*[A-Z])(?=[^\s\"'`\\]*[a-z])"
                     r"(?=[^\s\"'`\\]*\d)([^\s\"'`\\]{16,200})\1")
UNQUOTED = re.compile(r"^[ \t]*([\w.-]*(?:key|token|secret|auth))[ \t]*[=:][ \t]*"
                      r"([^\s\"'`]{16,200})[ \t]*$", re.MULTILINE | re.IGNORECASE)
PIECES = re.compile(r"[-_.~+/=:!^*@#$%&]")
# what the literal's own shape says is public: a publishable key, an object's id, a hash, a
# public key, a content address, a date
PUBLIC_SHAPE = re.compile(
    r"(?:pk|pi|ch|cus|sub|in|evt|prod|price|acct|seti|pm|src|txn|po|card|ba|plink|file|"
    r"cs_live|cs_test|prj|team|org|usr|user|img|phc)_|sq0idp-|pk\.|sha\d+[-:]|h1:|md5[-:]|AAAA|"
    r"nodekey:|discokey:|mkey:|"
    r"ssh-|ecdsa-|"
    r"data:|did:|urn:|Qm[1-9A-HJ-NP-Za-km-z]{44}$|bafy|\d{4}-\d\d-\d\d|[\w.-]*/[\w.-]*/")
# a name that says what it holds is an identifier, not a key
ID_NAME = re.compile(r"(?:^|[^a-z])(?:id|ids|uuid|guid|sha|hash|digest|checksum|etag|sheet|doc|"
                     r"file|path|url|uri|name|version|commit|ref|nonce|salt|iv|kid|fingerprint|"
                     r"integrity|slug|handle|model|label|title|class|image|tag|cid|hint|sid|"
                     r"x5t|x5c|thumbprint|application_server_key|write_key|"
                     r"public[_-]?key|pub[_-]?key|publishable[_-]?key|websocket-key)s?\W*$",
                     re.IGNORECASE)
HEX_UNDER_NAME = re.compile(r"(key|token|secret)[\"']?\s*[=:]\s*[\"']?"
                            r"([0-9a-f]{32,128})(?![\w-])")  # on the lower-cased view
# keys that name a place in a table or a request, not a credential
NOT_A_SECRETS_KEY = re.compile(r"(?:cache|idempotency|partition|sort|primary|foreign|lookup|"
                               r"object|dedup|row|table|map|dict|api_version|node|disco|machine)"
                               r"[_-]?key$",
                               re.IGNORECASE)
KEYS_BEFORE = re.compile(r"([\w$-]+)[\"']?\s*[:=]")
NAME_BEFORE = re.compile(r"([\w.$-]+)[\"'\]]?\s*(?::=|=>|=|:|\()\s*$|,\s*$")


CAMEL = re.compile(r"[A-Z][a-z]+|[a-z]+|[A-Z]+(?![a-z])|\d+")
# a word's shape: four letters or more, a vowel, never four consonants in a row
WORDLIKE = re.compile(r"(?i)(?=[a-z]*[aeiouy])(?![a-z]*[^aeiouy\W\d_]{4})[a-z]{4,}")


def random_token(text: str) -> bool:
    """A random string, not a word, a name or a version: in its longest piece between
    punctuation, 16 characters or more of both cases and digits that change class as often
    as a random string does (``getElementsByTagName`` and ``Qwen2.5-Coder-32B`` do not)."""
    piece = max(PIECES.split(text), key=len)  # placeholders and published keys: is_value
    if len(piece) < 16:
        return False
    words = [w for w in CAMEL.findall(piece) if not w.isdigit()]
    if words and sum(len(w) for w in words if WORDLIKE.fullmatch(w)) >= 0.7 * sum(map(len, words)):
        return False  # words in camel case (``Argon2PasswordHasher``), not random letters
    cls = ["u" if c.isupper() else "l" if c.islower() else "d" if c.isdigit() else "o"
           for c in piece]
    if not {"u", "l", "d"} <= set(cls):
        return False
    return sum(a != b for a, b in zip(cls, cls[1:], strict=False)) >= 0.3 * len(piece)


def id_name(name: str) -> bool:
    """A name that says its value is an identifier or public (``clientId``, ``VersionId``,
    ``PUBLIC_VAPID_KEY``): camel case read as words."""
    words = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    return bool(ID_NAME.search(words)) or "public" in name.lower() or \
        "publishable" in name.lower()


def _decodes_to_text(value: str) -> bool:
    """Base64 of readable text (a config, a JSON document): the base64 pass judges what it
    says; its letters are not a random key."""
    try:
        raw = base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
        return len(raw) >= 8 and raw.decode("utf-8").isprintable()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return False


def _literals(text: str, view: str) -> list[tuple[int, int, str]]:
    """Random strings quoted in code (unless named as an identifier: ``doc_id = "…"``), and
    unquoted values of a key, token or secret no other rule knows by name."""
    out = []
    for m in LITERAL.finditer(text):
        value = m.group(2)
        if (m.start() and (text[m.start() - 1].isalnum() or text[m.start() - 1] in "_$\\")
                or not _random_value(value)):
            continue
        line_start = text.rfind("\n", 0, m.start()) + 1
        if not text[line_start:m.start()].strip() and line_start:  # `KEY =⏎  "…"`
            line_start = text.rfind("\n", 0, line_start - 1) + 1
        before = NAME_BEFORE.search(text, line_start, m.start())
        if before and before.group(1) and id_name(before.group(1)) or any(
                id_name(k) for k in KEYS_BEFORE.findall(text, line_start, m.start())):
            continue  # `doc_id = "…"`, `applicationServerKey: decode("…")`
        out.append((m.start(2), m.end(2), MARK.format("secret")))
    if any(w in view for w in ("key", "token", "secret", "auth")):
        for m in UNQUOTED.finditer(text):
            if _random_value(m.group(2)) and not id_name(m.group(1)):
                out.append((m.start(2), m.end(2), MARK.format("secret")))
    return out


# a call that takes a user and a password by position: FTP_TLS(host, user, pw),
# getConnection(url, user, pw), NetworkCredential(user, pw, domain), new PDO(dsn, user, pw),
# mysqli_connect(…), smtp.login(user, pw)
CREDENTIAL_WORDS = ("credential", "connect", "login", "logon", "ftp", "pdo", "smtp", "imap",
                    "ldap")  # connection, ftp_tls, sftp: found by a word inside them
CREDENTIAL_CALL = re.compile(r"(?:" + "|".join(CREDENTIAL_WORDS) + r")\w*\s*\(")
STRING = re.compile(r"([\"'])((?:\\.|(?!\1)[^\\\n])*)\1")
HOST = re.compile(r"[a-z0-9-]+(?:\.[a-z0-9-]+)+(?::\d+)?", re.IGNORECASE)


def password_like(value: str) -> bool:
    """A string a person chose as a password: no spaces, not a host, URL or path, with a
    digit and a symbol or both cases (``svc_reports``, ``ftp.example.com`` are not)."""
    if not 6 <= len(value) <= 128 or any(c.isspace() for c in value) or HOST.fullmatch(value) \
            or not is_value(value) or not any(c.isdigit() for c in value):
        return False
    return any(not c.isalnum() for c in value) or (value.lower() != value != value.upper())


def _call_passwords(text: str, view: str) -> list[tuple[int, int, str]]:
    """Password-like strings among the arguments of a call that logs in or connects."""
    out = []
    for m in CREDENTIAL_CALL.finditer(view):
        depth, end = 1, m.end()
        for end in range(m.end(), min(len(text), m.end() + 400)):  # the call's closing paren
            depth += {"(": 1, ")": -1}.get(text[end], 0)
            if depth == 0:
                break
        for lit in STRING.finditer(text, m.end(), end):
            if password_like(lit.group(2)):
                out.append((lit.start(2), lit.end(2), MARK.format("password")))
    return out


def _random_value(value: str) -> bool:
    return (not PUBLIC_SHAPE.match(value) and is_value(value) and random_token(value)
            and not _decodes_to_text(value))


# a password manager's or a browser's export: a CSV header naming a password column
CSV_SECRET_COLUMNS = frozenset({"password", "passwort", "kennwort", "login_password", "totp",
                                "otpauth", "login_totp"})


def _csv_fields(line: str) -> list[tuple[int, int]]:
    """Where each field of one CSV line is (its quotes left out): (start, end)."""
    out, i, n = [], 0, len(line)
    while i <= n:
        if i < n and line[i] == '"':
            j = i + 1
            while j < n and not (line[j] == '"' and (j + 1 >= n or line[j + 1] != '"')):
                j += 2 if line[j] == '"' else 1
            out.append((i + 1, j))
            i = line.find(",", j) + 1 or n + 1
        else:
            j = line.find(",", i)
            j = n if j == -1 else j
            out.append((i, j))
            i = j + 1
    return out


def _csv_headers(view: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each line that names a password column and has commas: found from
    the column names, not by reading every line."""
    starts: set[int] = set()
    for word in ("password", "passwort", "kennwort", "totp", "otpauth"):
        i = view.find(word)
        while i != -1:
            starts.add(view.rfind("\n", 0, i) + 1)
            i = view.find(word, i + 1)
    for start in sorted(starts):
        end = view.find("\n", start)
        end = len(view) if end == -1 else end
        if "," in view[start:end]:
            yield start, end


def _csv_passwords(text: str, view: str) -> list[tuple[int, int, str]]:
    """The values under a CSV export's password (and TOTP) columns, row by row, to the first
    line with another number of fields."""
    out: list[tuple[int, int, str]] = []
    for start, end in _csv_headers(view):
        header = view[start:end].rstrip("\r")
        names = [header[a:b].strip() for a, b in _csv_fields(header)]
        cols = [i for i, name in enumerate(names) if name in CSV_SECRET_COLUMNS]
        if not cols:
            continue
        pos = end + 1
        while pos < len(text):
            stop = text.find("\n", pos)
            stop = len(text) if stop == -1 else stop
            line = text[pos:stop].rstrip("\r")
            fields = _csv_fields(line)
            if len(fields) != len(names):
                break
            for c in cols:
                a, b = fields[c]
                if is_value(line[a:b]):
                    out.append((pos + a, pos + b, MARK.format("password")))
            pos = stop + 1
    return out


def _hex_keys(text: str, view: str) -> list[tuple[int, int, str]]:
    """A hex value kept under a key's, token's or secret's name (``"routing_key":
    "9f…"``, ``DD-APPLICATION-KEY: 27…``): a hash alone is no secret, but its name says so."""
    out: list[tuple[int, int, str]] = []
    if not any(w in view for w in ("key", "token", "secret")):
        return out
    for m in HEX_UNDER_NAME.finditer(view):
        start = m.start()
        while start and (text[start - 1].isalnum() or text[start - 1] in "_.-"):
            start -= 1
        name = text[start:m.end(1)]
        if not id_name(name) and not NOT_A_SECRETS_KEY.search(name):
            out.append((m.start(2), m.end(2), MARK.format("secret")))
    return out


def _base64(text: str, depth: int) -> list[tuple[int, int, str]]:
    """A base64 blob that decodes to a credential: ``user:password``, or text the rules
    redact (a docker config's ``auth``, a Kubernetes secret's value, a key file)."""
    out = []
    for start, end in _blobs(text):
        blob = "".join(text[start:end].split())
        if blob.lower() == blob or blob.upper() == blob or blob in PUBLISHED:
            continue
        try:
            raw = base64.b64decode(blob.replace("-", "+").replace("_", "/")
                                   + "=" * (-len(blob.rstrip("=")) % 4), validate=False)
            said = raw.decode("utf-8")
        except (binascii.Error, UnicodeDecodeError, ValueError):
            continue
        if not all(c.isprintable() or c in "\n\r\t" for c in said):
            continue
        if USER_PASSWORD.fullmatch(said.strip()) or _redact(said, depth + 1)[1]:
            out.append((start, end, MARK.format("base64-credential")))
    return out


def _blobs(text: str) -> list[tuple[int, int]]:
    """Each base64 blob, and each run of blobs wrapped at a fixed width (``base64`` prints
    76 columns): lines of 40 characters or more, one after another, joined."""
    found = [(m.start(), m.end()) for m in BASE64.finditer(text)]
    out = list(found)
    run = found[:1]
    for prev, cur in zip(found, found[1:], strict=False):
        if prev[1] - prev[0] >= 40 and text[prev[1]:cur[0]] in ("\n", "\r\n"):
            run.append(cur)
            continue
        if len(run) > 1:
            out.append((run[0][0], run[-1][1]))
        run = [cur]
    if len(run) > 1:
        out.append((run[0][0], run[-1][1]))
    return out


# an AWS secret key (40 characters of base64, both cases and a digit) given within a few
# lines after its key id: looked for before the token pass marks the key id
AWS_PAIR = _rule("aws-secret-key", r"((?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])[\s\S]{0,300}?"
                 r"(?<![A-Za-z0-9/+=]))(?=[A-Za-z0-9/+]{0,39}[a-z])"
                 r"(?=[A-Za-z0-9/+]{0,39}[A-Z])(?=[A-Za-z0-9/+]{0,39}[0-9])"
                 r"([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])", keep=1,
                 hints=('akia', 'asia'), check=random_value, back=0)


def _redact(text: str, depth: int = 0) -> tuple[str, int]:
    if not text:
        return text, 0
    count = 0
    low = _lower_view(text)
    seen: dict[str, list[int]] = {}
    passes: list[Callable[[str, str], list[tuple[int, int, str]]]] = [
        functools.partial(_spans, AWS_PAIR, seen), lambda t, v: _tokens_in(t, _token_runs(t))]
    for rule in STRUCTURED:
        if rule.back is not None or any(h in low for h in rule.hints):
            passes.append(functools.partial(_spans, rule, seen))
    if depth < 2:
        passes.append(lambda t, v: _base64(t, depth))
    passes += [_literals, _hex_keys]
    if "," in text and any(w in low for w in ("password", "passwort", "kennwort", "totp",
                                              "otpauth")):
        passes.append(_csv_passwords)
    if any(w in low for w in CREDENTIAL_WORDS):
        passes.append(_call_passwords)
    for find in passes:
        spans = find(text, low)
        if spans:
            text, n = _apply(text, spans)
            count += n
            low = _lower_view(text)
            seen.clear()
    return text, count


def redact(text: str) -> tuple[str, int]:
    """The text with every secret replaced by ``[REDACTED:kind]``, and how many were."""
    return _redact(text)


def clean(text: str) -> str:
    return redact(text)[0]
