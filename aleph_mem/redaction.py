"""Secrets out: every text a transcript brings in, an agent or a person writes through
aleph-mem, or a request sends to the LLM passes ``redact`` before it is written to the raw
store or a note, indexed, or sent.

A rule set rather than a scanner: each rule names a credential by its shape (a provider's
key prefix, a private-key block, a password in an assignment, a URL or a header) and keeps
the words around it, so "the password policy wants 12 characters" or ``max_tokens = 400``
stay as they were. The tests hold a corpus of fake secrets and near-miss controls.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

MARK = "[REDACTED:{}]"


@dataclass(frozen=True)
class Rule:
    kind: str
    pattern: re.Pattern[str]
    keep: int = 0  # the pattern group kept in front of the mark (a key name, a scheme)
    hints: tuple[str, ...] = ()  # lower-case text one of which a match must hold


def _rule(kind: str, pattern: str, keep: int = 0, flags: int = 0,
          hints: tuple[str, ...] = ()) -> Rule:
    return Rule(kind, re.compile(pattern, flags), keep, hints)


KEY_WORDS = (r"(?:password|passwd|pwd|passphrase|secret|token|api[_-]?key|apikey|"
             r"access[_-]?key|secret[_-]?key(?:[_-]?base)?|private[_-]?key|client[_-]?secret|"
             r"credentials?|creds|auth[_-]?token|session[_-]?key|signing[_-]?key|"
             r"encryption[_-]?key|app[_-]?key|master[_-]?key|(?<![a-z])pass)")
# a value that is no secret: a number, a boolean, a placeholder, a variable or a lookup
NOT_A_SECRET = re.compile(
    r"^(?:\d+(?:\.\d+)?|true|false|yes|no|null|none|nil|required|optional|string|str|"
    r"bytes|int|\*+|x+|\.\.\.|…|<[^>]*>|\{\{.*\}\}|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|"
    r"(?:os\.environ|os\.getenv|process\.env|env|getenv|settings|config|secrets|"
    r"self|args|opts|options|request|req)\b.*|[A-Za-z_][A-Za-z0-9_]*\(.*\).*|"
    r"\[REDACTED:[a-z-]+\])$", re.IGNORECASE)

RULES: tuple[Rule, ...] = (
    _rule("private-key", r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
          r"(?:.*?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s:,\\-]*)",
          flags=re.DOTALL, hints=('private key',)),
    # the tail of a key whose BEGIN line was cut off (a clipped tool output)
    _rule("private-key", r"(?:[A-Za-z0-9+/=]{24,}(?:\\n|\s)+)+[A-Za-z0-9+/=]*(?:\\n|\s)*"
          r"-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----", hints=('private key',)),
    _rule("azure-key", r"((?:AccountKey|SharedAccessKey)=)[A-Za-z0-9+/=]{20,}", keep=1,
          flags=re.IGNORECASE, hints=('accountkey', 'sharedaccesskey')),
    _rule("discord-webhook", r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/"
          r"\d+/[A-Za-z0-9_-]+", hints=('discord',)),
    _rule("sentry-dsn", r"(https?://)[0-9a-f]{32}(?::[0-9a-f]{32})?(?=@[^\s/]*sentry)", keep=1,
          hints=('sentry',)),
    _rule("cookie", r"((?:^|[\s\"'])(?:set-)?cookie\s*:\s*)[^\n\"']{8,}", keep=1,
          flags=re.IGNORECASE, hints=('cookie',)),
    # curl -u user:pw, --user user:pw: the user stays
    _rule("basic-auth", r"((?:\s-u\s*|--user[\s=]+)[\"']?[^\s:\"']+:)[^\s\"']+", keep=1,
          hints=(' -u', '--user')),
    _rule("mysql-password", r"(\bmysql(?:dump|admin)?\b[^\n]*?\s-p)(?!\s)([^\s\"']+)", keep=1,
          hints=('mysql',)),
    _rule("sshpass", r"(\bsshpass\s+-p\s*)(\S+)", keep=1, hints=('sshpass',)),
    _rule("aws-key-id", r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA)[A-Z0-9]{16}\b",
          hints=('akia', 'asia', 'agpa', 'aida', 'aroa', 'aipa', 'anpa', 'anva')),
    _rule("github-token", r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})",
          hints=('gh', 'github_pat_')),
    _rule("gitlab-token", r"\bglpat-[A-Za-z0-9_-]{20,}", hints=('glpat-',)),
    _rule("llm-key", r"\bsk-(?:ant-[a-z0-9]+-|proj-|svcacct-|or-v1-)?[A-Za-z0-9_-]{20,}",
          hints=('sk-',)),
    _rule("slack-token", r"\bxox[abposre]-[A-Za-z0-9-]{10,}", hints=('xox',)),
    _rule("slack-webhook", r"https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9/_-]+",
          hints=('hooks.slack.com',)),
    _rule("stripe-key", r"\b[rsp]k_(?:live|test)_[A-Za-z0-9]{16,}", hints=('k_live_', 'k_test_')),
    _rule("google-api-key", r"\bAIza[0-9A-Za-z_-]{35}", hints=('aiza',)),
    _rule("npm-token", r"\bnpm_[A-Za-z0-9]{36}\b", hints=('npm_',)),
    _rule("huggingface-token", r"\bhf_[A-Za-z0-9]{30,}\b", hints=('hf_',)),
    _rule("sendgrid-key", r"\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}", hints=('sg.',)),
    _rule("jwt", r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",
          hints=('eyj',)),
    # "Authorization: Bearer abc…", "-H 'Authorization: token abc…'", "Bearer abc…"
    _rule("auth-header", r"((?:authorization|proxy-authorization|x-api-key|api-key)"
          r"[\"']?\s*[:=]\s*[\"']?(?:(?:bearer|basic|token|digest)\s+)?)[^\s\"',;]{6,}",
          keep=1, flags=re.IGNORECASE, hints=('authorization', 'api-key', 'api_key')),
    _rule("bearer", r"(\bbearer\s+)[A-Za-z0-9._~+/=-]{16,}", keep=1, flags=re.IGNORECASE,
          hints=('bearer',)),
    # scheme://user:password@host
    _rule("url-password", r"(\b[a-z][a-z0-9+.-]*://[^/\s:@\"'\[]*:)(?!\d+/)[^@\s\"']+(?=@)",
          keep=1, flags=re.IGNORECASE, hints=('://',)),
    # --password hunter2, --api-key=abc, -p 'x' is too short a flag to trust
    _rule("flag", r"(--(?:password|passwd|token|api-key|apikey|secret|client-secret|"
          r"access-key|secret-key|auth-token)(?:=|\s+))(?:\"[^\"]+\"|'[^']+'|[^\s\"']+)",
          keep=1, flags=re.IGNORECASE, hints=('--',)),
)

ASSIGNMENT_HINTS = ("pass", "pwd", "secret", "token", "key", "credential", "creds")
# NAME = value, NAME: value, "name": "value", export NAME=value: the name ends in a
# secret's word (``DB_PASSWORD``, ``aws_secret_access_key``; ``max_tokens`` and
# ``secret_name`` are not secrets' names). Matched from the word on (whatever comes before
# it is part of the name), which is what keeps a 5 MB transcript's redaction under a second.
ASSIGNMENT = re.compile(
    r"(" + KEY_WORDS + r"\\?[\"']?\s*(?::=|=>|=|:)\s*)(?!\\?[\"']?\[REDACTED:)"
    r"(\\\"(?:[^\"\\\n]|\\[^\"])*\\\"|\"[^\"\n]*\"|'[^'\n]*'|[^\s,;}\])]+)", re.IGNORECASE)


def _assignment(match: re.Match[str], counter: list[int]) -> str:
    value = match.group(2)
    bare = value.strip("\\\"'").strip()
    if len(bare) < 6 or NOT_A_SECRET.match(bare):
        return match.group(0)
    counter[0] += 1
    quote = value[0] if value[0] in "\"'" and value[-1] == value[0] and len(value) > 1 else ""
    return f"{match.group(1)}{quote}{MARK.format('password')}{quote}"


def _by_rule(rule: Rule, counter: list[int]) -> Callable[[re.Match[str]], str]:
    def replace(match: re.Match[str]) -> str:
        counter[0] += 1
        kept = match.group(rule.keep) if rule.keep else ""
        return f"{kept}{MARK.format(rule.kind)}"
    return replace


def redact(text: str) -> tuple[str, int]:
    """The text with every secret replaced by ``[REDACTED:kind]``, and how many were."""
    if not text:
        return text, 0
    counter = [0]
    low = text.lower()  # each rule runs only where its hint is: most text holds none
    for rule in RULES:
        if any(h in low for h in rule.hints):
            text = rule.pattern.sub(_by_rule(rule, counter), text)
    if any(w in low for w in ASSIGNMENT_HINTS):
        text = ASSIGNMENT.sub(lambda m: _assignment(m, counter), text)
    return text, counter[0]


def clean(text: str) -> str:
    return redact(text)[0]
