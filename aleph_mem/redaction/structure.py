"""Passes that read structure rather than words: a random literal quoted in code or kept
under a key's name, password-like arguments of a call that logs in, the password column of
a CSV export, hex kept under a key's name, and the base64 blobs another pass decodes."""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator

from aleph_mem.redaction.published import placeholder
from aleph_mem.redaction.rule import MARK, occurrences
from aleph_mem.redaction.values import (
    MODEL_ID,
    WORDLIKE,
    identifier_words,
    is_value,
    password_like,
)

BASE64 = re.compile(r"(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{12,}={0,2}(?![A-Za-z0-9+/=_-])")

# a string literal in code or a value in a config: a key handed to a call by position
# (``Client("…")``, ``jwt.encode(p, "…")``) or kept under a name no rule knows (``key=…``)
LITERAL = re.compile(r"([\"'`])(?=[^\s\"'`\\]*[A-Z])(?=[^\s\"'`\\]*[a-z])"
                     r"(?=[^\s\"'`\\]*\d)([^\s\"'`\\]{16,200})\1")
UNQUOTED = re.compile(r"^[ \t]*([\w.-]*(?:key|token|secret|auth))[ \t]*[=:][ \t]*"
                      r"([^\s\"'`]{16,200})[ \t]*$", re.MULTILINE | re.IGNORECASE)
# what a domain publishes in DNS TXT records: site verifications, SPF, a DKIM public key
DNS_PUBLIC = re.compile(r"(?:google|facebook|apple|atlassian|docusign|adobe|stripe|zoom|"
                        r"openai|anthropic)[\w-]*-verification=|v=spf1|v=DKIM1|MS=ms\d")
CSP_SOURCES = ("nonce-", "sha256-", "sha384-", "sha512-")
# a password's hash quoted alone ("hashid '$2y$10$…'"): under a key's name a rule judges it
# (CurseForge's API keys look like bcrypt)
CRYPT_HASH = re.compile(r"\$\$?(?:1|2[abxy]?|5|6|y|7|apr1|argon2(?:id|i|d)?|scrypt|pbkdf2[-\w]*|"
                        r"balloon-sha256)\$", re.IGNORECASE)  # "$$": a compose file's escape
ID_WORD_BEFORE = re.compile(r"(?i)\b(?:id|ids|workflow|element|file|doc|uuid|guid)\s*[(:]?\s*$")
UUID_IN = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", re.I)
PIECES = re.compile(r"[-_.~+/=:!^*@#$%&]")
# what the literal's own shape says is public: a publishable key, an object's id, a hash, a
# public key, a content address, a date
PUBLIC_SHAPE = re.compile(
    r"(?:pk|pi|ch|cus|sub|in|evt|prod|price|acct|seti|pm|src|txn|po|card|ba|plink|file|"
    r"cs_live|cs_test|prj|team|org|usr|user|img|phc|rzp_live|rzp_test|wc_order)_|sq0idp-|pk\.|"
    r"(?:live|test)_g?ck_|AW-\d+/|sha\d+[-:]|solana:|eip155:|[xyztuv]pub[1-9A-HJ-NP-Za-km-z]{100}|"
    r"h1:|md5[-:]|AAAA|"
    r"nodekey:|discokey:|mkey:|"
    r"ssh-|ecdsa-|"
    r"data:|did:|urn:|Qm[1-9A-HJ-NP-Za-km-z]{44}$|bafy|\d{4}-\d\d-\d\d|[\w.-]*/[\w.-]*/|"
    r"[UCR][0-9a-f]{32}$")  # LINE's user, group and room ids
# a key in padded base64 (Cosmos DB's, a storage account's): its slashes make no path
PADDED_BASE64 = re.compile(r"[A-Za-z0-9+/]{38,}={1,2}")
# a name that says what it holds is an identifier, not a key
ID_NAME = re.compile(r"(?:^|[^a-z])(?:id|ids|uuid|guid|sha|hash|digest|checksum|etag|sheet|doc|"
                     r"file|path|url|uri|name|version|commit|ref|nonce|salt|iv|kid|fingerprint|"
                     r"checksum[_-]?hash|tid|openid|unionid|signature|"
                     r"integrity|slug|handle|model|label|title|class|image|tag|cid|hint|sid|uid|"
                     r"x5t|x5c|thumbprint|application_server_key|write_key|room|event|"
                     r"public[_-]?key|pub[_-]?key|publishable[_-]?key|web_?socket-key|"
                     # a CAPTCHA's site key (the page holds it; its secret key is not)
                     r"site[_-]?key|"
                     # GameAnalytics' game key (its secret key is not), Figma's file key, an
                     # account's address, a token's mint
                     r"game[_-]?key|file[_-]?key|address|mint|program[_-]?id|owner|"
                     # a citation's key ("bibtex_key: DeVerna2025-dl"), a search engine's task
                     r"bibtex[_-]?key|cite[_-]?key|citation[_-]?key|task|"
                     # a Salesforce record's id ("sfid", "memberperiodid__c")
                     r"sfid|[a-z]+id__c)s?\d*\W*$",
                     re.IGNORECASE)
HEX_UNDER_NAME = re.compile(r"(key|token|secret)\\?[\"']?\s*[=:]\s*\\?[\"']?"
                            r"([0-9a-f]{32,128})(?![\w-])")  # on the lower-cased view
# keys that name a place in a table or a request, not a credential
NOT_A_SECRETS_KEY = re.compile(r"(?:cache|idempotency|partition|sort|primary|foreign|lookup|"
                               r"object|dedup|row|table|map|dict|api_version|node|disco|machine|"
                               r"exam|config)"
                               r"[ _-]?key$",
                               re.IGNORECASE)
KEYS_BEFORE = re.compile(r"([\w$-]+)[\"']?\s*[:=]")
# a Solana account's or program's address (a public key in base58) where Solana is written of
BASE58_ADDRESS = re.compile(r"[1-9A-HJ-NP-Za-km-z]{32,44}")
SOLANA_WORDS = re.compile(r"solana|\bmint\b|program|pubkey|lamports|\bspl\b|wallet|jito|"
                          r"anchor|declare_id|devnet|mainnet")
# a name before a value: ``name = ``, ``"name": ``, ``call(``, OpenWrt's UCI ``option name ``
NAME_BEFORE = re.compile(r"([\w.$-]+)[\"'\]]?\s*(?::=|=>|=|:|\()\s*$|,\s*$|"
                         r"\boption\s+([\w.-]+)\s+$")


CAMEL = re.compile(r"[A-Z][a-z]+|[a-z]+|[A-Z]+(?![a-z])|\d+")


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
    ``PUBLIC_VAPID_KEY``, a page's ``data-client-key``): camel case read as words."""
    words = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    return bool(ID_NAME.search(words)) or "public" in name.lower() or \
        "publishable" in name.lower() or name.lower().startswith("data-")


NOT_PLAIN = re.compile(r"[^ -~\r\n\t]")  # what is not plain ASCII text


def decodes_to_text(value: str) -> bool:
    """Base64 of readable text (a config, a JSON document, a script in UTF-16 as PowerShell's
    -EncodedCommand takes it, or a piece of one cut anywhere): the base64 pass judges what it
    says; its letters are not a random key."""
    try:
        raw = base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
        if len(raw) >= 8 and re.sub(r"[\r\n\t]", "", raw.decode("utf-8")).isprintable():
            return True
    except (binascii.Error, UnicodeDecodeError, ValueError):
        pass
    if not re.fullmatch(r"[A-Za-z0-9+/]{16,}=*", value) or "A" not in value:
        return False
    for skip in range(4):  # a piece of a longer string: its first characters may belong before
        piece = value[skip:].rstrip("=")
        piece = piece[:len(piece) // 4 * 4]
        try:
            raw = base64.b64decode(piece, validate=True)
        except (binascii.Error, ValueError):
            continue
        for start in (0, 1):
            said = raw[start:][:(len(raw) - start) // 2 * 2].decode("utf-16-le", "replace")
            if len(said) >= 8 and len(NOT_PLAIN.sub("", said)) >= 0.9 * len(said):
                return True  # UTF-16 of a script: almost all of it plain ASCII
    return False


ARRAY_OPEN = re.compile(r"[\"']([\w.-]+)[\"']\s*:\s*\[\s*$")
ELEMENT_LINE = re.compile(r"\s*[\"'][^\"'\n]*[\"'],?\s*")


def _array_name(text: str, at: int) -> str:
    """The name of the JSON list a value alone on its line is an element of, or ""."""
    line_start = text.rfind("\n", 0, at) + 1
    if text[line_start:at].strip():
        return ""
    for _ in range(50):  # up over the list's other elements to where it opens
        if not line_start:
            return ""
        above = text.rfind("\n", 0, line_start - 1) + 1
        line = text[above:line_start - 1]
        if (opened := ARRAY_OPEN.search(line)):
            return opened.group(1)
        if not ELEMENT_LINE.fullmatch(line):
            return ""
        line_start = above
    return ""


def literals(text: str, view: str) -> list[tuple[int, int, str]]:
    """Random strings quoted in code (unless named as an identifier: ``doc_id = "…"``), and
    unquoted values of a key, token or secret no other rule knows by name."""
    out = []
    for m in LITERAL.finditer(text):
        value = m.group(2)
        if text[m.end():m.end() + 3].lstrip().startswith(":") or \
                re.search(r"0x[0-9a-fA-F]{40}", value) or \
                BASE58_ADDRESS.fullmatch(value) and SOLANA_WORDS.search(view):
            continue  # a key's name ('"eifSigningCertSha256": "…"'); an account's address
        if (m.start() and (text[m.start() - 1].isalnum() or text[m.start() - 1] in "_$\\")
                or value.startswith(CSP_SOURCES) or CRYPT_HASH.search(value)
                or value.startswith("gAAAAA")  # Fernet's ciphertext (Codex's encrypted_content)
                or not _random_value(value)):
            continue  # a page's script nonce or hash ("'nonce-G74M…'") is sent to every visitor
        if DNS_PUBLIC.match(value):
            continue  # a DNS TXT record: published for anyone to read
        line_start = text.rfind("\n", 0, m.start()) + 1
        if not text[line_start:m.start()].strip() and line_start:  # `KEY =⏎  "…"`
            line_start = text.rfind("\n", 0, line_start - 1) + 1
        before = NAME_BEFORE.search(text, line_start, m.start())
        name = before and (before.group(1) or before.group(2))
        if name and id_name(name) or any(
                id_name(k) for k in KEYS_BEFORE.findall(text, line_start, m.start())):
            continue  # `doc_id = "…"`, `applicationServerKey: decode("…")`
        if m.group(1) == "`" and not (before and before.group(1) and re.search(
                r"[\w$\]]\s*(?::=|=>|=|:)\s*$|\w\($", text[line_start:m.start()])):
            continue  # Markdown's inline code in prose holds ids (a workflow's, a file's)
        if ID_WORD_BEFORE.search(text, max(line_start, m.start() - 24), m.start()):
            continue  # 'Credential with ID "R9aMmpO1jdJ8XPJP"
        if before and before.group(1) and "encrypted" in before.group(1).lower():
            continue  # '"encrypted_content": "…"': ciphertext
        if id_name(_array_name(text, m.start())):
            continue  # an element of a list of ids ('"groupIds": [⏎ "p19xWm1J…"')
        out.append((m.start(2), m.end(2), MARK.format("secret")))
    if any(w in view for w in ("key", "token", "secret", "auth")):
        for m in UNQUOTED.finditer(text):
            if (_random_value(m.group(2)) or re.fullmatch(r"\d+:" + UUID_IN.pattern, m.group(2),
                                                            re.I)) and \
                    not id_name(m.group(1)):  # "uid:uuid" under a key's name (".cdsapirc")
                out.append((m.start(2), m.end(2), MARK.format("secret")))
    return out


# a call that takes a user and a password by position: FTP_TLS(host, user, pw),
# getConnection(url, user, pw), NetworkCredential(user, pw, domain), new PDO(dsn, user, pw),
# mysqli_connect(…), smtp.login(user, pw)
CREDENTIAL_WORDS = ("credential", "connect", "login", "logon", "ftp", "pdo", "smtp", "imap",
                    "ldap", "mysqli")  # connection, ftp_tls, sftp: found by a word inside them
CREDENTIAL_CALL = re.compile(r"(?:" + "|".join(CREDENTIAL_WORDS) + r")\w*\s*\(")
STRING = re.compile(r"([\"'])((?:\\.|(?!\1)[^\\\n])*)\1")
DSN = re.compile(r"(?:^|[:;])(?:host|dbname|server|database|port|charset)=[^;]*;")


# an argument's name before its string (``clientId: '…'``, ``issuer_id="…"``)
KEYWORD_BEFORE = re.compile(r"([A-Za-z_]\w*)\s*[:=]\s*$")
NOT_A_PASSWORD_ARG = re.compile(r"(?i)user|name|host|client|server|url|uri|path|topic|issuer|"
                                r"region|database|schema|port")


def call_passwords(text: str, view: str) -> list[tuple[int, int, str]]:
    """Password-like strings among the arguments of a call that logs in or connects."""
    out = []
    for m in CREDENTIAL_CALL.finditer(view):
        depth, end = 1, m.end()
        for end in range(m.end(), min(len(text), m.end() + 400)):  # the call's closing paren
            depth += {"(": 1, ")": -1}.get(text[end], 0)
            if depth == 0:
                break
        strings = list(STRING.finditer(text, m.end(), end))
        for k, lit in enumerate(strings):
            if DSN.search(lit.group(2)):
                continue  # a data source's name ("mysql:host=…;dbname=…"), not a password
            named = KEYWORD_BEFORE.search(text, max(m.end(), lit.start() - 40), lit.start())
            if named and (id_name(named.group(1)) or NOT_A_PASSWORD_ARG.search(named.group(1))):
                continue  # an argument named for what is no password ("clientId: '…'")
            if password_like(lit.group(2)) or k == 1 and m.group().startswith("login") \
                    and "@" in strings[0].group(2) and is_value(lit.group(2)):
                out.append((lit.start(2), lit.end(2), MARK.format("password")))  # login(user, pw)
    return out


def _random_value(value: str) -> bool:
    return ((PADDED_BASE64.fullmatch(value) or not PUBLIC_SHAPE.match(value))
            and is_value(value) and random_token(value)
            and not decodes_to_text(value) and not identifier_words(value)
            and not MODEL_ID.fullmatch(value))


# a password manager's or a browser's export: a CSV header naming a password column
CSV_SECRET_COLUMNS = frozenset({"password", "passwort", "kennwort", "login_password", "totp",
                                "otpauth", "login_totp", "secret", "api key", "api_key",
                                "apikey"})
# what a header with one of those columns holds (a column's name, or a part of one)
CSV_HEADER_WORDS = ("password", "passwort", "kennwort", "totp", "otpauth", "pin", "api key",
                    "api_key", "apikey", "secret", "cvv", "cvc")
# columns of codes: a PIN's four to eight digits, a card's security code
CSV_CODE_COLUMNS = {"pin": re.compile(r"\d{4,8}"), "cvv": re.compile(r"\d{3,4}"),
                    "cvc": re.compile(r"\d{3,4}")}


def _csv_fields(line: str, sep: str = ",") -> list[tuple[int, int]]:
    """Where each field of one CSV line is (its quotes left out): (start, end); ``sep``: a
    comma, or the semicolon of a spreadsheet saved in a comma-decimal locale."""
    out, i, n = [], 0, len(line)
    while i <= n:
        if i < n and line[i] == '"':
            j = i + 1
            while j < n and not (line[j] == '"' and (j + 1 >= n or line[j + 1] != '"')):
                j += 2 if line[j] == '"' else 1
            out.append((i + 1, j))
            i = line.find(sep, j) + 1 or n + 1
        else:
            j = line.find(sep, i)
            j = n if j == -1 else j
            out.append((i, j))
            i = j + 1
    return out


def _csv_headers(view: str) -> Iterator[tuple[int, int, str]]:
    """(start, end, separator) of each line that names a secret's column and has commas,
    semicolons or tabs: found from the column names, not by reading every line."""
    starts = {view.rfind("\n", 0, i) + 1 for word in CSV_HEADER_WORDS
              for i in occurrences(view, word)}
    for start in sorted(starts):
        end = view.find("\n", start)
        end = len(view) if end == -1 else end
        line = view[start:end]
        if "," in line or ";" in line or "\t" in line:
            yield start, end, max(",;\t", key=line.count)


def csv_passwords(text: str, view: str) -> list[tuple[int, int, str]]:
    """The values under a CSV export's or a pasted table's password, TOTP, key, PIN and
    security code columns, row by row, to the first line with another number of fields."""
    out: list[tuple[int, int, str]] = []
    for start, end, sep in _csv_headers(view):
        header = view[start:end].rstrip("\r")
        names = [header[a:b].strip() for a, b in _csv_fields(header, sep)]
        cols = [i for i, name in enumerate(names)
                if name in CSV_SECRET_COLUMNS or name in CSV_CODE_COLUMNS]
        if not cols:
            continue
        pos = end + 1
        while pos < len(text):
            stop = text.find("\n", pos)
            stop = len(text) if stop == -1 else stop
            line = text[pos:stop].rstrip("\r")
            fields = _csv_fields(line, sep)
            if len(fields) != len(names):
                break
            for c in cols:
                a, b = fields[c]
                code = CSV_CODE_COLUMNS.get(names[c])
                if code.fullmatch(line[a:b]) if code else \
                        is_value(line[a:b]) or UUID_IN.fullmatch(line[a:b]):
                    out.append((pos + a, pos + b, MARK.format("pin" if code else "password")))
            pos = stop + 1
    return out


def hex_keys(text: str, view: str) -> list[tuple[int, int, str]]:
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
        if not id_name(name) and not NOT_A_SECRETS_KEY.search(name) and \
                not NOT_A_SECRETS_KEY.search(view, max(0, start - 16), m.end(1)) and \
                "public" not in view[max(0, start - 12):start] and \
                len(set(m.group(2))) > 2:  # "PUBLIC KEY: …"; "1111…1111" is a stand-in
            out.append((m.start(2), m.end(2), MARK.format("secret")))
    return out


def blobs(text: str) -> list[tuple[int, int]]:
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



# a Markdown table whose header names a secret's column: the cells under it, row by row
TABLE_SECRET = re.compile(r"passw|kennwort|mot de passe|mdp|contraseña|senha|wachtwoord|"
                          r"lösenord|hasło|heslo|пароль|密码|パスワード|비밀번호|\bpin\b|passcode|"
                          r"secret|api[ _-]?key|api[ _-]?token|access[ _-]?token|licen[cs]e key|"
                          r"lizenzschlüssel|product key|serial key|seed phrase|\bpass\b|\bpwd\b|"
                          r"\bpw\b|\bschlüssel\b")
# a cell that is a count, a share or a shortcut, not a secret: 1,884 · 91.5% · Ctrl+K
NOT_A_CELL = re.compile(r"[\d,.%\s]+|\d{4}-\d\d-\d\d.*|[<>=~^]*\d+(?:\.\d+)+.*|"
                        r"(?i:(?:ctrl|cmd|alt|shift|option|meta|super|win)\b.*)")
NOT_A_SECRET_COLUMN = re.compile(r"\bid\b|hint|policy|length|expir|name|hash|fingerprint|"
                                 r"public|rotat|owner|where|location|stored|vault|manager|scope")
SOFTWARE = re.compile(r"software|program|app\b|product|licen[cs]e|lizenz")
# a key/value table's columns: its "key" holds names ("| Schlüssel | Wert |")
KEY_COLUMN = re.compile(r"key|schlüssel|clé|clave|chiave|sleutel|ключ|variable|name")
VALUE_COLUMN = re.compile(r"value|wert|valeur|valor|valore|waarde|значение|wartość")


def _named_columns(heads: list[str], name: re.Pattern[str]) -> list[int]:
    """The columns whose whole header (on the lower-cased view, emphasis aside) ``name``
    matches."""
    return [k for k, h in enumerate(heads) if name.fullmatch(h.strip(" *_`"))]


def _key_value_columns(heads: list[str]) -> tuple[int, int] | None:
    """A key/value table's columns (``| Schlüssel | Wert |``): where its names and its values
    are, or None."""
    keys, values = _named_columns(heads, KEY_COLUMN), _named_columns(heads, VALUE_COLUMN)
    return (keys[0], values[0]) if keys and values else None


def _cells(line: str) -> list[tuple[int, int]]:
    """(start, end) of each cell of a Markdown table row, its padding left out."""
    out: list[tuple[int, int]] = []
    at = line.find("|") + 1 if line.lstrip().startswith("|") else 0
    while at <= len(line):
        end = line.find("|", at)
        end = len(line) if end == -1 else end
        cell = line[at:end]
        a = at + len(cell) - len(cell.lstrip())
        b = end - (len(cell) - len(cell.rstrip()))
        if end < len(line) or cell.strip():
            out.append((a, max(a, b)))
        at = end + 1
    return out


def table_value(cell: str) -> bool:
    """A cell that holds a secret: one word (a password has no spaces; an app password's
    four groups aside), not a placeholder, a parenthesis or a reference."""
    bare = cell.strip("`*_ ")
    if len(bare) < 4 or placeholder(bare) or bare.startswith(("(", "[", "<", "http", "op://")) \
            or NOT_A_CELL.fullmatch(bare):
        return False
    if cell.strip(" *_").startswith("`") and re.fullmatch(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+", bare):
        return False  # a secret's name in inline code ("| `VM_SSH_KEY` | SSH private key |")
    if cell.strip(" *_").startswith("`") and \
            re.fullmatch(r"[a-z][a-z]*(?:_[a-z]+)+(?:/[a-z]+)*", bare):
        return False  # a field's name under a glossary's "Schlüssel" ("| `date_start` | …")
    if " " in bare and not re.fullmatch(r"(?:[a-z]{4} ){3}[a-z]{4}|(?:\d{4} ){2,}\d{4}", bare):
        return False
    return any(c.isdigit() for c in bare) or not bare.isalpha() or bare[1:] != bare[1:].lower()


def table_secrets(text: str, view: str) -> list[tuple[int, int, str]]:
    """The cells under a Markdown table's password, PIN, key or license column."""
    out: list[tuple[int, int, str]] = []
    for sep in SEPARATOR_LINE.finditer(text):
        head_start = text.rfind("\n", 0, max(0, sep.start() - 1)) + 1
        if sep.start() == 0 or "|" not in text[head_start:sep.start()]:
            continue
        out += _table_at(text, view, head_start, sep.start() - 1, sep.end())
    return out


SEPARATOR_LINE = re.compile(r"(?m)^\|?[ \t]*:?-{3,}:?[ \t]*\|[-:| \t]*$")


def _table_at(text: str, view: str, head_start: int, head_end: int,
              rows_start: int) -> list[tuple[int, int, str]]:
    """The secret cells of one table: its header line, then its rows after the separator
    (to the first line that is no row)."""
    out: list[tuple[int, int, str]] = []
    header = view[head_start:head_end]
    software = bool(SOFTWARE.search(header))
    heads = [header[a:b] for a, b in _cells(header)]
    pair = _key_value_columns(heads)
    names = _named_columns(heads, KEY_COLUMN) if pair else []  # a key/value table's names
    cols = [k for k, head in enumerate(heads)
            if (TABLE_SECRET.search(head) or software and "serial" in head)
            and not NOT_A_SECRET_COLUMN.search(head) and k not in names]
    at = rows_start + 1
    while (cols or pair) and at < len(text):
        end = text.find("\n", at)
        end = len(text) if end == -1 else end
        row = text[at:end]
        if "|" not in row:
            break
        cells = _cells(row)
        for k in cols:
            if k < len(cells) and table_value(row[cells[k][0]:cells[k][1]]):
                out.append((at + cells[k][0], at + cells[k][1], MARK.format("password")))
        if pair and max(pair) < len(cells):  # "| MATCH_PASSWORD | `…` |": its name says
            key, value = (row[cells[k][0]:cells[k][1]] for k in pair)
            if TABLE_SECRET.search(key.lower()) and not NOT_A_SECRET_COLUMN.search(key.lower()) \
                    and table_value(value):
                out.append((at + cells[pair[1]][0], at + cells[pair[1]][1],
                            MARK.format("password")))
        at = end + 1
    return out


# hex that decodes to text: a key written as hex to keep it out of sight (`xxd -r -p`)
HEX_TEXT = re.compile(r"(?<![0-9a-fA-F])(?:[0-9a-fA-F]{2}){16,128}(?![0-9a-fA-F])")


def hex_text(text: str, view: str) -> list[tuple[int, int, str]]:
    """Hex whose bytes are a printable random token (a hash's bytes are not printable)."""
    out = []
    for hint in HEX_HINTS:  # only on the lines around a command that turns hex to text
        for at in occurrences(view, hint):
            start = view.rfind("\n", 0, max(0, view.rfind("\n", 0, at))) + 1
            end = view.find("\n", view.find("\n", at) + 1)
            for m in HEX_TEXT.finditer(text, start, len(text) if end == -1 else end):
                raw = bytes.fromhex(m.group())
                if all(32 < b < 127 for b in raw) and random_token(raw.decode("ascii")):
                    out.append((m.start(), m.end(), MARK.format("hex-credential")))
    return sorted(set(out))


HEX_HINTS = ("xxd", "fromhex", "unhexlify", "hex2bin", "hex -d")


# a browser's password export row without its header (Chrome: name,url,username,password)
EXPORT_ROW = re.compile(r"(?m)(?:^|(?<=\\n))([^,\n\\]*,\"?https?://[^,\s\"]*\"?,\"?[^,\"\n]*\"?,\"?)"
                        r"([^,\"\n\\]+)(?=\"?(?:,|$)|\\n)")


def export_rows(text: str, view: str) -> list[tuple[int, int, str]]:
    return [(m.start(2), m.end(2), MARK.format("password")) for m in EXPORT_ROW.finditer(text)
            if password_like(m.group(2)) or said_export(m.group(2))]


def said_export(value: str) -> bool:
    """A password in an export row: any value but a note's words."""
    return is_value(value) and " " not in value.strip()
