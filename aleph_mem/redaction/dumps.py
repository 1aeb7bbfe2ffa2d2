"""Credentials as a penetration tester's tools print them: an NT hash in secretsdump's and
pwdump's lines and under mimikatz's "NTLM" (a hash that logs in as it stands), a cleartext
``DOMAIN\\user:password`` in crackmapexec's hits and secretsdump's LSA secrets, a cracked
password in john's ``--show`` lines, a roastable Kerberos or NetNTLM hash and the password
cracked from it (``$krb5tgs$…:Summer2024!``), an account's Kerberos keys and a ticket in
base64, a TLS key log's secrets. Part of the structured
rules, in their order (``rules.STRUCTURED``), and one pass (``roasted``)."""

from __future__ import annotations

import re

from aleph_mem.redaction.rule import MARK, Rule, rule
from aleph_mem.redaction.values import is_value, password_like

# the NT hash of the empty password: a dump's filler, nobody's credential
EMPTY_NT = "31d6cfe0d16ae931b73c59d7e0c089c0"


def nt_hash(value: str) -> bool:
    """An NT hash that is someone's: not the empty password's."""
    return value.lower() != EMPTY_NT


def cracked(value: str) -> bool:
    """A password a cracker printed: a value, not a hash's next field, a status or a path."""
    return is_value(value) and not re.fullmatch(r"[0-9a-f]{16,}|[*!x]|\$\S*|/\S*", value)


DUMPS: tuple[Rule, ...] = (
    # secretsdump's and pwdump's "user:rid:LM:NT:::", LSA's "DOMAIN\host$:LM:NT"
    rule("ntlm-hash", r"(?m)((?:^|[ \t])[^\s:]+:\d+:[0-9a-f]{32}:)([0-9a-f]{32})(?=:::)", keep=1,
          hints=(':::',), lower=True, check=nt_hash),  # at a line's start or after CME's columns
    # a domain account's Kerberos keys (secretsdump's "krbtgt:aes256-cts-hmac-sha1-96:…",
    # mimikatz's "aes256_hmac (4096) : …") and a ticket in base64 (Rubeus', mimikatz's "doI…")
    rule("kerberos-key", r"(?m)((?:^|[ \t])[^\s:]+:"
          r"(?:aes(?:128|256)-cts-hmac-sha1-96|des-cbc-md5):)([0-9a-f]{16,64})(?![0-9a-f])",
          keep=1, hints=('-cts-hmac-', 'des-cbc-md5'), lower=True),
    rule("kerberos-key", r"(\baes(?:128|256)_hmac[ \t]*(?:\(\d+\))?[ \t]*:[ \t]*)([0-9a-f]{32,64})"
          r"(?![0-9a-f])", keep=1, hints=('_hmac',), lower=True, back=8),
    rule("kerberos-ticket", r"(?<![A-Za-z0-9+/])doI[A-Za-z0-9+/]{100,}={0,2}", hints=('doi',),
          back=0),
    rule("ntlm-hash", r"(?m)(^[ \t]*[^\s:]+:aad3b435b51404eeaad3b435b51404ee:)([0-9a-f]{32})"
          r"(?=[ \t]*$)", keep=1, hints=('aad3b435b51404ee',), lower=True, check=nt_hash,
          back=200),
    # mimikatz: "Hash NTLM: …", "* NTLM     : …"
    rule("ntlm-hash", r"(\bntlm(?:[ \t]+hash)?[ \t]*:[ \t]*)([0-9a-f]{32})(?![0-9a-f])", keep=1,
          hints=('ntlm',), lower=True, check=nt_hash, back=12),
    # crackmapexec's (netexec's) hit "[+] corp.local\\svc:Pass (Pwn3d!)"; secretsdump's
    # cleartext LSA secret, a line of its own: "corp\\svc_sql:Passw0rd"
    rule("password", r"(\[\+\][ \t]+[\w.-]+\\[\w.$-]+:)([^\s:]+)(?=[ \t]|$)", keep=1,
          hints=('[+]',), lower=True, check=password_like, back=0),
    rule("password", r"(?m)(^[ \t]*[a-z][\w.-]*\\[a-z][\w.$-]*:)([^\s:]+)(?=[ \t]*$)", keep=1,
          hints=('\\',), lower=True, check=password_like),  # one scan: a transcript's JSON
    # holds a backslash in every line, too many to try the pattern before each
    # john --show of a shadow file: "user:password:19500:0:99999:7:::"
    rule("password", r"(?m)(^[\w.$-]+:)([^\s:]+)(?=:\d+:\d*:\d*:\d*:\d*:\d*:\d*[ \t]*$)", keep=1,
          hints=(':::',), check=cracked),
    # a TLS key log (SSLKEYLOGFILE): a session's secret after its client random
    rule("tls-secret", r"(?m)(^(?:client_random|(?:client|server)_(?:handshake_)?traffic_secret"
          r"(?:_\d)?|(?:early_)?exporter_secret|client_early_traffic_secret)[ \t]+[0-9a-f]{64}"
          r"[ \t]+)([0-9a-f]{64,96})(?![0-9a-f])", keep=1,
          hints=('client_random', 'traffic_secret', 'exporter_secret'), lower=True, back=40),
)

# a hash a cracker is handed for a domain's account: Kerberoasting's and AS-REP roasting's,
# a NetNTLM response captured on the wire (user::domain:challenge:proof:blob), a cached
# domain logon (DCC2); what follows its last field after a colon is the password cracked
ROASTABLE = re.compile(r"(?<![^\s`'\"(:/])(?:\$krb5(?:tgs|asrep|pa)\$\d+\$|\$DCC2\$\d+#|"
                       r"[\w.-]+::[\w.-]+:[0-9a-fA-F]{16}:[0-9a-fA-F]{32}:[0-9a-fA-F]{8})"
                       r"[^\s`'\"]*")
HASH_BODY = re.compile(r"[0-9a-fA-F]{32}")
HASH_END = re.compile(r"[0-9a-fA-F]{8,}…?$|…$")


def roasted(text: str, view: str) -> list[tuple[int, int, str]]:
    """Each roastable hash (marked as a hash), and the password after it where a cracker
    printed one (``$krb5tgs$23$*svc$CORP$…$5f0f…:Sq1Serv1ce#2019``)."""
    if not any(w in view for w in ("$krb5", "$dcc2$", "::")):
        return []
    out = []
    for m in ROASTABLE.finditer(text):
        token, end = m.group().rstrip(":.,;)"), m.start() + len(m.group().rstrip(":.,;)"))
        head, _, tail = token.rpartition(":")
        if not HASH_BODY.search(token) and not (head.endswith("…") and cracked(tail)):
            continue  # a format's prefix or a snipped example ("$krb5tgs$23$*…*$[-SNIP-]")
        if head and not HASH_END.search(tail) and cracked(tail) and HASH_END.search(head):
            out += [(m.start(), m.start() + len(head), MARK.format("password-hash")),
                    (end - len(tail), end, MARK.format("password"))]
        else:
            out.append((m.start(), end, MARK.format("password-hash")))
    return out
