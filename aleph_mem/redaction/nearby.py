"""Secrets no rule knows by name, found by their look beside a credential's word. It is the
last pass: what a rule knows it has taken already, and this one catches a label's other forms
in any language or layout ("Moodle: lgomez / eBf1cinGeTtZ" above "misma contraseña", a TSV
under "Hasło", ``crypto isakmp key 6Q6u…``, a tool's output after ``occ … dbpassword``).

Random is measured, not listed: a random string changes between capitals, small letters and
digits about as often as its mix of them makes likely (``1 - Σ share²``), a word or an
identifier far less (``all-MiniLM-L6-v2``, ``aes256-sha256``); a password a person chose has
every class and a sign (``Movelga?3465Sb``). Labelled: a credential's word (password, psk,
token, key, Hasło, パスワード… in some forty spellings) is the nearest label before it on its
line; or the value stands out (alone on its line, at its end, in a table's row, at a tool's
output's start) with such a word on the line above or below. Kept whatever the words before
it say it is (an id, a user, a host, a hash, a public or a cache key, a name in JSON or XML),
inside a PEM block, a public key's lines, a link or a data URI, joined into a longer name (an
ARN), and hashes, UUIDs, versions, hosts and paths."""

from __future__ import annotations

import bisect
import re

from aleph_mem.redaction.codes import PRODUCT_KEY
from aleph_mem.redaction.context import id_list
from aleph_mem.redaction.rule import MARK
from aleph_mem.redaction.structure import (
    CAMEL,
    CRYPT_HASH,
    KEYS_BEFORE,
    PUBLIC_SHAPE,
    decodes_to_text,
    id_name,
)
from aleph_mem.redaction.values import (
    CMDLET,
    FILE_NAME,
    HOST,
    MODEL_ID,
    UUID,
    WORDLIKE,
    is_value,
)

# a credential's word, on the lower-cased view, in the languages people write notes in: each
# word's literal core (an alternation of plain words is scanned fast, by its first letters)
# and, where its edges matter, the word with them (``WORDS`` confirms them where a core is)
WORD_FORMS: tuple[tuple[str, str], ...] = (
    ("pass", r"passw|pass\b|\bpass[ _-]|passe\b|passphrase"), ("pwd", "pwd"),
    ("psk", r"psk\b"), ("secret", "secret"),
    ("token", r"token(?!s|_count|_usage)"),  # not a usage's "input_tokens"
    ("key", r"(?<!mon)key(?![a-rt-z])"), ("auth", r"auth(?!or|ent)"),
    *((w, w) for w in ("credential", "kennw", "contrase")), ("clave", r"\bclave\b"),
    *((w, w) for w in ("has[lł]o", "heslo", "jelsz", "l[öo]senord", "salasana", "[şs]ifre",
                       "senha", "parola", "wachtwoord", "adgangskode", "passord", "salasõna")),
    ("pin", r"\bpin\b"), ("cl[ée]", r"\bcl[ée]\b"), ("kodeord", r"\bkodeord\b"),
    *((w, w) for w in ("chiave", "schlüssel", "sleutel", "nyckel", "nøkkel", "nøgle", "klucz",
                       "klíč", "anahtar", "kulcs")), ("chave", r"\bchave\b"),
    *((w, w) for w in ("キー", "пароль", "ключ", "токен", "секрет", "密码", "密碼", "口令", "密钥",
                       "金鑰", "秘密", "パスワード", "トークン", "暗証", "비밀번호", "비번", "암호",
                       "토큰", "シークレット", "시크릿", "秘钥", "私钥",
                       "mật khẩu", "khóa", "รหัส", "كلمة", "مفتاح", "סיסמ", "κωδικ")))
WORDS = re.compile("|".join(word for _, word in WORD_FORMS))
CORES = re.compile("|".join(core for core, _ in WORD_FORMS))


def credential_word(view: str, start: int = 0, end: int | None = None) -> int:
    """Where the next credential's word is in ``view[start:end]``, or -1."""
    end = len(view) if end is None else end
    core = CORES.search(view, start, end)
    while core:
        if WORDS.match(view, core.start(), end):
            return core.start()
        core = CORES.search(view, core.start() + 1, end)
    return -1


# the words before a value that say it is public, an identifier, a hash or a record
NOT_SECRET_WORDS = (
    r"public|publish|\bpub\b|domainkey|k=rsa|\bid\b|_id\b|\bids\b|identifier|\b[su]id\b|accessor|"
    r"fingerprint|etag|if-none-match|signature|signed|commit|\bsha|checksum|\bhash|digest|"
    r"\btx\b|txid|transaction|address|adresse|direcci|endere|indirizzo|\bcache\b|\brun\b|"
    r"\bevent\b|customer|charge|intent|example|e\.g\.|z\.b\.|beispiel|ejemplo|exemple|esempio|"
    r"exemplo|voorbeeld|przykład|пример|regex|pattern|cipher|\bsec\b|"
    r"\bssb\b|\bgpg\b|\bpgp\b|certificate|\bcert\b|\bca\b|session|request|trace|build|"
    r"version|release|revision|model|sitekey|site[ _-]key|\bnode|encrypted|sealed|\benc\(|"
    r"websocket|game key|serial|seriennummer|numéro de série|número de serie|\bexp(?:eriment)? key|"
    r"\bfile\b|fichier|datei|archivo|arquivo|bestand|\bplik")
# what a credential's word is not a secret's after: a public key, a site key, a cache key, a
# device's identity key (Matrix's "curve25519 key")
PUBLIC_BEFORE = re.compile(r"public|publish|\bpub(?:[ _-]?key)?\b|site|\bnode|host|cache|"
                           r"idempot|partition|sort|primary|foreign|curve25519|identity|"
                           r"surrogate|aggregation|dedup|routing|natural|business|composite|"
                           r"lookup|row|object|progress|page|continuation|sync|cancellation")
PUBLIC_LINE = re.compile(r"public|publish|\bpub(?:[ _-]?key)?\b")
EXAMPLES = re.compile(r"(?<![.@/\w-])(?:examples?|beispiele?|ejemplos?|exemples?|esempi[oa]?|"
                      r"exemplos?|voorbeeld(?:en)?|przykład\w*|пример\w*)(?![.\w-])|\be\.g\.|"
                      r"\bz\.b\.")
LABEL = re.compile(f"(?P<no>{NOT_SECRET_WORDS})|(?P<yes>{WORDS.pattern})")
# a run of a password's characters: letters, digits and the signs passwords are given with
CANDIDATE = re.compile(r"(?<![\w+/=*&!?#%@$^~.-])(?=[\w+/=*&!?#%@$^~.-]*\d)[\w+/=*&!?#%@$^~.-]{8,}")
LONGEST = 400  # longer runs are blobs: the base64 pass reads what they say
BREAKS = re.compile(r"\n|\\n")
# a name before the value whose last word says it holds no secret (``client_id =``)
NOT_SECRET_NAME = re.compile(
    r"(?:^|_)(?:id|ids|uuid|guid|signature|encrypted|content|hash|sha\d*|digest|checksum|"
    r"nonce|salt|iv|etag|commit|ref|version|name|user|username|login|account|email|mail|host|"
    r"hostname|url|uri|path|file|ssid|device|model|serial|number|phone|room|event|request|"
    r"session|trace|span|build|run|job|pipeline|project|tenant|org|region|bucket|fingerprint|"
    r"thumbprint|kid|kty|alg|use|crv|n|e|x|y|type|mode|format|algorithm|policy|hint|image|"
    r"accessor|sid|uid|channel|workspace|team|chat|guild|tag|label|nkey|author|owner|handle|"
    r"nick|nickname|by|opaque|realm|qop|cnonce|integrity|domain|time|date|timestamp|drive|"
    r"infohash|public_key|pub_key|pubkey)s?\d*$")
NAME_BEFORE = re.compile(r"([\w.$-]+)\\?[\"'\]]?\s*(?::=|=>|=|:)\s*\\?[\"'`]?$|<([\w.:-]+)>$|"
                         r"\boption\s+([\w.-]+)\s+'$")  # OpenWrt's UCI: option name 'value'
# a public key's body is on the lines after its type ("ssh-rsa AAAA…\\" wrapped)
PUBLIC_ABOVE = re.compile(r"ssh-(?:rsa|ed25519|dss|ecdsa)|begin (?:pgp )?public|public key block")
NAME_EQUALS = re.compile(r"-{0,2}[A-Za-z_][\w.-]*=(?=[^=])")
# a tool's output in a transcript's JSON begins as a line of its own does
OUTPUT_START = re.compile(r"\\?\"(?:content|output|stdout|result)\\?\"\s*:\s*\\?\"(?:\\+\")?$")
# a login, a slash and a password, with or without a credential's word near: "admin /
# W#P5EWoKiG" in a table's cell, "ana.ruiz@example.org / Gx7…" in a list
LOGIN_PAIR = re.compile(r"(?:^|(?<=[\s|:`]))((?:[\w.-]{0,20}\\)?[A-Za-z][\w.@+-]{1,39})`? //? `?"
                        r"([\w!@#$%^&*?~+=.-]{8,64})(?=`?(?:[\s|,;]|\\[nrt]|$))")
# letters only, both cases, after a separator: a key with no digit ("BdMXIkjCtwosdHRr")
LETTERS = re.compile(r"[:=：]\s*[\"'`]?((?=[A-Za-z]*[a-z][A-Z])(?=[A-Za-z]*[A-Z][a-z])"
                     r"[A-Za-z]{12,64})(?![\w+/=-])")
# a comment after a value in code: ``"…") // admin key``, ``'…'  # bot token``
COMMENT_AFTER = re.compile(r"[\\\"'`]*\)?[,;)]*[ \t]*(?://|#|--|/\*)[ \t]*")
# a chat message's line: "[12/03, 09:14] Claire: …", "Mom: …"
CHAT_LINE = re.compile(r"(?:\[[^\]\n]{3,30}\][ \t]*[^\W\d]|[A-Z])[\w .'-]{0,30}:[ \t]")
BLOB_LINE = re.compile(r"[A-Za-z0-9+/=_-]+")
# a name in camel case with digits (``CircomBn254Cfg``, ``Summer2024``): random only by label
# a product and its version, as a user agent names them ("AppleWebKit/537.36", "Chrome/111.0")
PRODUCT = re.compile(r"[A-Za-z][\w-]*/\d+(?:\.\d+)+")
IDENTIFIER = re.compile(r"[A-Za-z][a-z]+(?:[A-Z][a-z]+|\d+)+")
VERSION = re.compile(r"v?\d+(?:\.\d+){1,3}(?:[-+.][\w.]+)?")
# shapes public whatever stands before them: an SSH key's body, an extended public key, an
# address, an age recipient, Fernet's ciphertext, an object's id with its type's prefix, a
# regex's character class
PUBLIC_LOOK = re.compile(
    r"AAAA|gAAAAA|[xyzt]pub[1-9A-HJ-NP-Za-km-z]{20}|bc1[a-z0-9]{20}|age1[a-z0-9]{40}|"
    r"(?:pk|pi|ch|cus|sub|in|evt|prod|price|acct|seti|pm|src|txn|po|card|ba|re|tr|py|rzp_live|rzp_test|"
    r"msg|toolu|call|req|run|thread|asst|file|batch|resp|rs|fc|appl|goog)_|"
    r"(?:chatcmpl|org|proj)-|.*(?:a-z|A-Z|0-9)|"
    r"(?i:[0-7][0-9a-hjkmnp-tv-z]{25}$)|"  # a ULID
    r"(.{1,4})\1{3,}$|"  # a pattern repeated ("G0G0G0G0…"), an example
    r"[A-Za-z0-9+/=]{16,}--[A-Za-z0-9+/=]{8,}--[A-Za-z0-9+/=]{8,}$")  # Rails' encrypted text
# a password's hash ("$1$…", "$2b$12$…", "$argon2id$…"); a variable in a path ("$API_URL/v1")
CRYPT = re.compile(r"\$[\w-]{1,10}\$|\$\{?[A-Za-z_]\w*\}?/")
HASH_LENGTHS = (40, 64, 96, 128)  # SHA-1's, SHA-256's, SHA-384's and SHA-512's hex
BASE64ISH = re.compile(r"[A-Za-z0-9+/]{20,}={0,2}")  # its slashes make no path
HEX_PIECE = re.compile(r"[0-9A-Fa-f]+")
# a password a person chose: a word, a sign and a number ("xingxing&2013"; not an
# assignment's "main=227" or a column's "token#191847")
CHOSEN = re.compile(r"[A-Za-z]{3,}[!@$%&*?~^][0-9]{2,}|[0-9]{2,}[!@$%&*?~^][A-Za-z]{3,}|"
                    r"(?:[A-Z][a-z]{2,}\.){2,4}[0-9]{2,}|"  # "Sonnenblume.Zitrone.623"
                    r"[A-Z][a-z]{3,}[+=][0-9]{2,4}|"  # "Bamboo+1971", "Goiabada=1962"
                    r"[A-Za-z]{4,}[0-9]{2,}[!@$%&*?~^]+")  # "tulpen2010@"
# a licence key in groups of capitals and digits
GROUPED = re.compile(r"(?=[A-Z0-9-]*[0-9])(?=[A-Z0-9-]*[A-Z])[A-Z0-9]{4,6}(?:-[A-Z0-9]{4,6}){2,7}")
SEPARATORS = re.compile(r"[-_./:+=]+")
SIGNS = frozenset("!?#$%&*@^~")  # a chosen password's signs, not an identifier's joins
NO_SIGNS = str.maketrans("", "", "".join(SIGNS))
CHANGE_SHARE = 0.6  # of the class changes a random string of the same mix would have
ENDING = ".!?-"  # a sentence's end after a value is not part of it


CLASSES = {c: "u" if chr(c).isupper() else "l" if chr(c).islower() else
           "d" if chr(c).isdigit() else "o" for c in range(128)}  # for ASCII text


RUNS = re.compile(r"u+|l+|d+|o+")


def _classes(text: str) -> str:
    """Each character's class: u, l, d, or o for any other (the text is ASCII)."""
    return text.translate(CLASSES)


def random_looking(value: str) -> bool:
    """A string a generator or a person made as a secret (see the module's text): its shape
    first (cheap), then what it must not be (a host, a path, a published or public value)."""
    if not 8 <= len(value) <= LONGEST or not value.isascii():
        return False
    if HEX_PIECE.fullmatch(value) and (len(value) < 24 or len(value) in HASH_LENGTHS) or \
            UUID.fullmatch(value):
        return False  # the commonest tokens in tool output, told at once: hashes and UUIDs
    cls = _classes(value)
    if "d" not in cls or "u" not in cls and "l" not in cls or not _random_shape(value, cls):
        return False
    return not (HOST.fullmatch(value) and not CHOSEN.fullmatch(value) or  # not a host's shape
                FILE_NAME.search(value) or VERSION.fullmatch(value) or
                "@" in value and "." in value.split("@")[-1] or "://" in value or
                re.fullmatch(r"[a-z_][\w.-]*@(?=[\w-]*[A-Za-z])[\w-]{2,}", value) or  # user@host,
                # a prompt's (not "admin@123")
                re.fullmatch(r"[A-Za-z]+@\d{1,3}", value) or  # a metric (Recall@2)
                value.startswith(("/", "~", "./", "%")) or CRYPT.match(value) or
                PUBLIC_LOOK.match(value) or PUBLIC_SHAPE.match(value) and not (
                    BASE64ISH.fullmatch(value) and "u" in cls and "l" in cls) or
                PRODUCT_KEY.fullmatch(value) or re.search(r"&\w+=", value) or
                value.isupper() and "_" in value or
                not is_value(value) or decodes_to_text(value))


def _random_shape(value: str, cls: str) -> bool:
    """Whether the value's shape is a generator's or a chosen password's (``cls``: its
    characters' classes): the class changes inside its pieces against its mix's."""
    if GROUPED.fullmatch(value) and "l" not in cls and "u" in cls or CHOSEN.fullmatch(value):
        return True  # a licence key in groups ("EW8D-D6JK-NEDG-QMLD"); "xingxing&2013"
    if re.fullmatch(r"[A-Z0-9]{10,32}", value) and len(re.findall(r"\d+", value)) >= 2 and \
            cls.count("d") >= 3 and cls.count("u") >= 3:
        return True  # a router label's key in capitals, its digits in two places or more
    pieces = [p for p in SEPARATORS.split(value.rstrip("=")) if p]
    if all(HEX_PIECE.fullmatch(p) for p in pieces[1:]) and len(pieces) > 1 and \
            len(pieces[0]) <= 4:  # hex in groups after a short prefix ("LIC-A350…-E1A0…")
        hexes = pieces[1:] if not HEX_PIECE.fullmatch(pieces[0]) else pieces
    else:
        hexes = [max(pieces, key=len, default="")]
    hex_length = sum(map(len, hexes)) if all(HEX_PIECE.fullmatch(p) for p in hexes) else 0
    if hex_length and (hex_length < 24 or hex_length in HASH_LENGTHS):
        return False  # a commit, a hash, a colour, an object's id
    if SIGNS & set(value) and {"u", "l", "d"} <= set(cls) and \
            not re.search(r"\d\.\d|\b[A-Z][a-z]+\.[A-Z]+\b|#\d|(?i:^pass@\d)", value):
        return True  # a password a person chose: every class and a sign (not "Math.PI*2",
        # an issue "Post-#648", a benchmark's "Pass@1")
    words = [w for w in CAMEL.findall(value) if not w.isdigit()]
    if words and sum(len(w) for w in words if WORDLIKE.fullmatch(w)) >= 0.6 * sum(map(len, words)):
        return False  # words in camel case or in a slug (``x86_64-linux-gnu``)
    classes = [_classes(p.translate(NO_SIGNS)) for p in pieces if len(p) >= 3]  # not "v2"
    body = "".join(classes)
    pairs = sum(max(len(c) - 1, 0) for c in classes)
    if pairs < 9:  # ten characters or more: "Tib3rius" is a name
        return False
    changes = sum(len(RUNS.findall(c)) - 1 for c in classes if c)
    likely = 1 - sum((body.count(k) / len(body)) ** 2 for k in "uldo")
    return likely >= 0.3 and changes >= max(3, CHANGE_SHARE * likely * pairs)


class Lines:
    """Where a text's lines start and end, a JSON-escaped break counting as one, and where
    its PEM blocks are (found once: a value inside one is a key's body, judged by the PEM
    rule)."""

    def __init__(self, view: str) -> None:
        self.breaks = [(m.start(), m.end()) for m in BREAKS.finditer(view)]
        self.starts = [b for b, _ in self.breaks]
        self.size = len(view)
        self.blocks: list[tuple[int, int]] = []
        begin = view.find("-----begin")
        while begin != -1:
            end = view.find("-----end", begin)
            self.blocks.append((begin, len(view) if end == -1 else end))
            begin = view.find("-----begin", len(view) if end == -1 else end)
        begin = view.find("```compressed-json")  # an Excalidraw drawing's data
        while begin != -1:
            end = view.find("```", begin + 18)
            self.blocks.append((begin, len(view) if end == -1 else end))
            begin = view.find("```compressed-json", len(view) if end == -1 else end)
        self.blocks.sort()

    def in_block(self, at: int) -> bool:
        i = bisect.bisect_right(self.blocks, (at, self.size)) - 1
        return i >= 0 and self.blocks[i][0] <= at < self.blocks[i][1]

    def number(self, at: int) -> int:
        return bisect.bisect_right(self.starts, at - 1) if at else 0

    def span(self, number: int) -> tuple[int, int]:
        """The line's first character and its end (where its break starts)."""
        number = min(max(number, 0), len(self.starts))
        start = self.breaks[number - 1][1] if number > 0 else 0
        end = self.starts[number] if number < len(self.starts) else self.size
        return start, end


def _windows(view: str, lines: Lines) -> list[tuple[int, int]]:
    """The stretches a credential's word makes suspect: its line, the two before and after."""
    out: list[tuple[int, int]] = []
    found = credential_word(view)
    while found != -1:
        number = lines.number(found)
        start, end = lines.span(max(0, number - 2))[0], lines.span(number + 2)[1]
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
        found = credential_word(view, lines.span(number + 1)[0]) \
            if number < len(lines.starts) else -1  # the line's other words: the same stretch
    return out


def _spoken(text: str) -> str:
    """The text as its words read, lower-cased, camel case split (``applicationServerKey``:
    "application server key"): where ``LABEL`` looks for the words before a value."""
    return re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", text).lower()


def _looks_chosen(value: str) -> bool:
    """A value a person or a generator chose, not a word or a name: a sign, or every class."""
    return bool(SIGNS & set(value)) or {"u", "l", "d"} <= set(_classes(value))


def _said_no_secret(view: str, lines: Lines, before: str, words: str,
                    label: list[re.Match[str]], start: int, alone: bool) -> bool:
    """What stands before the value (``words``: ``before`` spoken; ``label``: the label words
    in them) says it is none: the name it is given (an id, a user, a host), the nearest label
    word (public, commit, hash…, or a credential's word after "public"), a longer name it is
    joined into (an ARN's, ``auth0|…``, ``nodekey:…``), a PEM block or a public key's wrapped
    lines it is inside."""
    found = NAME_BEFORE.search(before)
    name = found and (found.group(1) or found.group(2) or found.group(3))
    if name and (id_name(name) or NOT_SECRET_NAME.search(
            re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name).lower().replace("-", "_"))):
        return True
    if EXAMPLES.search(words):
        return True  # "Beispiele für schlechte Passwörter — 123456, hallo123, Schule2024!"
    if label and (label[-1].group("no") or PUBLIC_BEFORE.search(
            words, max(0, label[-1].start() - 12), label[-1].start()) or
            alone and PUBLIC_LINE.search(words, 0, label[-1].start())):
        return True  # "Public Key:"; above a value alone, "wg pubkey < privatekey"
    keys = KEYS_BEFORE.findall(before)
    if keys and id_name(keys[-1]):
        return True  # ``applicationServerKey: decode("…")``
    joined = not alone and not re.search(r"<[\w.:-]+>$", before) and \
        re.search(r"(\S*?)([\w.-]*)([:|@<>])$", before)  # an element's tag is no join
    if joined and (joined.group(3) != ":" or "arn:" in joined.group(1) or
                   not WORDS.search(joined.group(2).lower())):
        return True
    return lines.in_block(start) or bool(PUBLIC_ABOVE.search(view, max(0, start - 300), start))


def _in_link(token: str) -> bool:
    """Part of a URL, a Markdown link, a data URI or an encoded string: its own rules judge
    those (a data URI's payload is content)."""
    return "://" in token or "](" in token or "[[" in token or "www." in token or \
        ";base64," in token or "data:" in token or \
        bool(re.search(r"%[0-9A-Fa-f]{2}|&#x?\w+;?|&[a-z]+;", token))


def _labelled(text: str, view: str, lines: Lines, a: int, e: int) -> bool:
    """Whether the value is given as a credential: a credential's word is the nearest label
    before it on its line; or, with no label there, the value stands out (last on its line,
    or in a table's or a TSV's cell, not in Markdown's inline code) with a credential's word
    on the line above (two above when it is alone on its line), the line below or after it."""
    number = lines.number(a)
    line_start, line_end = lines.span(number)
    before = text[max(line_start, a - 80):a]
    alone = not before.strip(" \t\"'`-*•>") or bool(OUTPUT_START.search(before))
    if alone and number:  # alone on its line: the line above labels it
        above_start, above_end = lines.span(number - 1)
        before = text[max(above_start, above_end - 80):above_end]
    said = _spoken(before)
    label = list(LABEL.finditer(said))
    if _said_no_secret(view, lines, before, said, label, a, alone):
        return False
    if "[[" in text[line_start:a] and "]]" not in text[text.rfind("[[", line_start, a):a]:
        return False  # inside a wikilink: a note's name
    if text[a - 1:a] == "`":  # Markdown's inline code holds ids: only a label right before
        return bool(label) and bool(label[-1].group("yes")) and \
            not said[label[-1].end():].strip(" \t:=`\"'*")
    if re.search(r"[);{]\s*(?://|#)\s*$", before):
        return False  # a change marker commenting code ("…Check = false) // crmv@34947")
    if label and label[-1].group("yes"):
        # a call's name, the call closed before the value, is code, not a label
        # ("validateCSRFToken(); // crmv@171581"; not 'ApiKeyAuth("sk_…")')
        return not re.match(r"\([^()]*\)", said[label[-1].end():])
    after = text[e:line_end]
    value = text[a:e]
    comment = COMMENT_AFTER.match(after)
    if comment and credential_word(view, e + comment.end(), line_end) != -1 and \
            not PUBLIC_LINE.search(view, e, line_end):
        return True  # ``NewClient("5QLE58KY3P", "3ac2…") // admin key``
    if len(value) > 100 or IDENTIFIER.fullmatch(value) or not _looks_chosen(value) or \
            value.isupper() and len(value) < 16:
        return False  # unlabelled, a value must look chosen: not hex, a name, an id in capitals
    row = "|" in text[line_start:a] or "\t" in text[line_start:a]
    last = not re.sub(r"\\[nrt]", "", after).strip(" \t\"'`.,;:!?)}]\\")  # a message's end too
    if not (row or last or credential_word(view, e, line_end) != -1):
        return False
    chat = last and number > 0 and bool(CHAT_LINE.match(text, line_start)) and \
        bool(CHAT_LINE.match(text, lines.span(number - 1)[0]))  # an answer two messages on
    near = [lines.span(n) for n in (number - 1, number + 1,
                                    number - 2 if alone or chat else -1)
            if 0 <= n <= len(lines.starts)]
    if alone and any((len(line := text[s:t].strip(" \t")) == len(value) or len(line) >= 40)
                     and BLOB_LINE.fullmatch(line) for s, t in near[:2]):
        return False  # a line of a blob (a drawing's compressed JSON) or of a listing of ids
    return credential_word(view, e, line_end) != -1 or any(_names_above(view, s, t)
                                                           for s, t in near)


# a credential's word giving a value of its own on its line ("preshared key: (hidden)")
OWN_VALUE = re.compile(r"[\w-]*[ \t]?[\w-]*[ \t]*[:=：][ \t]*[^\s:=]")


def _names_above(view: str, start: int, end: int) -> bool:
    """Whether a line near a value holds a credential's word that could name it: a heading,
    a column's name, a sentence; not one that gives its own line's value (``wg show``'s
    "private key: (hidden)" above a peer's public key)."""
    found = credential_word(view, start, end)
    while found != -1:
        word = WORDS.match(view, found, end)
        if word is None or not OWN_VALUE.match(view, word.end(), end):
            return True
        found = credential_word(view, word.end(), end)
    return False


def beside_credential_words(text: str, view: str) -> list[tuple[int, int, str]]:
    """Random strings a credential's word labels (the last pass)."""
    if credential_word(view) == -1:
        return []
    lines = Lines(view)
    out = []
    for start, end in _windows(view, lines):
        for m in CANDIDATE.finditer(text, start, end):
            around = _token_around(text, m.start(), m.end())
            if not _worth_a_look(text, view, lines, m.start(), m.end()) or \
                    _in_link(around) or CRYPT_HASH.search(around) or \
                    re.match(r"[\"'`]?[A-Za-z]:\\", around):
                continue  # a link's part; a password's hash ("$argon2id$v=19$…"); a file's
                # name in a Windows path ("C:\\Users\\…\\Credentials\\DFBE70A7…")
            a, value = m.start(), m.group().rstrip("*_")
            if value[-1:] in ENDING and not random_looking(value):
                value = value.rstrip(ENDING + "*_")  # a sentence's end ("… is Xy7kQ2m.")
            if text[a - 1:a] == "\\" and re.match(r"u[0-9a-fA-F]{4}", value):
                continue  # an escaped character ("motd=\\u00a76Kumpel"), not a value
            if text[a - 1:a] == "\\" and value[:1] in "nrt":
                a, value = a + 1, value[1:]  # a JSON-escaped break before it, not its letter
            lead = len(value) - len(value.lstrip("*_?&#@~"))
            a, value = a + lead, value[lead:]  # emphasis, a query's or a handle's sign
            name = NAME_EQUALS.match(value)
            if name and not (CHOSEN.fullmatch(value) and text[a - 2:a] == ": "):
                # ``psk=5jSy…`` unquoted: the name stays ("Shop: Goiabada=1962" is one value)
                a, value = a + name.end(), value[name.end():]
            if lead and text[m.start()] == "@" or text[m.start()] == "^" or \
                    CMDLET.fullmatch(value) or not random_looking(value) or \
                    PRODUCT.fullmatch(value) or \
                    re.fullmatch(r"0x[0-9a-fA-F]{1,16}", value):
                continue  # a handle; a block id ("^nXMD9Rmg"); "AppleWebKit/537.36"; 0xC000006D
            key = NAME_BEFORE.search(text, max(0, a - 60), a)
            if key and id_name(key.group(1) or key.group(2) or key.group(3)) or \
                    MODEL_ID.fullmatch(value) or \
                    text[a - 1:a] == "\\" and text[a + len(value):a + len(value) + 1] == "\\":
                continue  # an id's or a citation's key by its name ("bibtex_key: …"), a model's
                # name, a registry path's part ("SOFTWARE\\Wow6432Node\\…")
            if _labelled(text, view, lines, a, a + len(value)):
                out.append((a, a + len(value), MARK.format("secret")))
        out += _letters_after_labels(text, view, start, end)
    return out


def _letters_after_labels(text: str, view: str, start: int, end: int) -> list[tuple[int, int,
                                                                                   str]]:
    """A key of letters only ("PSK: BdMXIkjCtwosdHRr"), taken only right after a credential's
    word and its colon or equals sign: with no digit to tell it from a word, its label and its
    case changes must."""
    out = []
    for m in LETTERS.finditer(text, start, end):
        value = m.group(1)
        said = _spoken(text[max(0, m.start() - 40):m.start()])
        label = list(LABEL.finditer(said))
        if not label or not label[-1].group("yes") or \
                said[label[-1].end():].strip(" \t\"'`()") not in (":", "=", "：", ""):
            continue
        words = CAMEL.findall(value)
        if sum(len(w) for w in words if WORDLIKE.fullmatch(w)) >= 0.5 * len(value):
            continue  # words in camel case ("ExampleServiceName")
        cls = _classes(value)
        pairs = len(value) - 1
        upper = cls.count("u") / len(value)
        changes = len(RUNS.findall(cls)) - 1
        if changes >= max(6, CHANGE_SHARE * 2 * upper * (1 - upper) * pairs):
            out.append((m.start(1), m.end(1), MARK.format("secret")))
    return out


# a line that gives a malware sample's configuration (its keys are an indicator, not ours)
SAMPLE_CONFIG = re.compile(r"\bmutex\b|\bcampaign[ _]id\b|\bbotnet\b")


def _worth_a_look(text: str, view: str, lines: Lines, a: int, e: int) -> bool:
    """What ``_labelled`` could accept, told by string searches before the value is weighed:
    a credential's word before it on its line, or a place a value stands out in (its line's
    end, a table's or a TSV's row, a line or a tool's output of its own)."""
    line_start, line_end = lines.span(lines.number(a))
    if SAMPLE_CONFIG.search(view, line_start, line_end) or \
            re.search(r"(?:global|local|basenamedobjects)\\+$", view[max(0, a - 20):a]):
        return False  # a malware sample's extracted config, a mutex's name: what it holds
    if credential_word(view, max(line_start, a - 80), a) != -1:
        return True
    before = text[max(line_start, a - 80):a]
    if "|" in before or "\t" in before or not before.strip(" \t\"'`-*•>"):
        return True
    rest = text[e:min(line_end, e + 40)]
    if not re.sub(r"\\[nrt]", "", rest).strip(" \t\"'`.,;:!?)}]*_") or OUTPUT_START.search(before):
        return True
    comment = COMMENT_AFTER.match(rest)  # "…") // admin key"
    return comment is not None and credential_word(view, e + comment.end(), line_end) != -1


def _token_around(text: str, start: int, end: int) -> str:
    """The whitespace-delimited word the candidate is part of."""
    near = max(0, start - 200)
    left = max(text.rfind(" ", near, start), text.rfind("\n", near, start),
               text.rfind("\t", near, start), near - 1)
    right = min((i for i in (text.find(" ", end, end + 200), text.find("\n", end, end + 200))
                 if i != -1), default=min(len(text), end + 200))
    return text[left + 1:right]


def login_pairs(text: str, view: str) -> list[tuple[int, int, str]]:
    """Passwords given after a login and a slash ("admin / W#P5EWoKiG"): a value a person
    chose (every class, or a sign among its letters and digits), after a login that is a
    word or an address, not a random string itself."""
    if " / " not in text and " // " not in text:
        return []
    out = []
    for m in LOGIN_PAIR.finditer(text):
        login, value = m.group(1), m.group(2).rstrip(ENDING + "*_")  # a sentence's end, emphasis
        if random_looking(login) or id_list(login, value):
            continue
        whole = m.group(2).rstrip(".*_")
        if whole != value and random_looking(whole) and _looks_chosen(whole):
            value = whole  # its sign is the password's ("Bateau.volcan99!")
        if not (random_looking(value) and _looks_chosen(value) or
                PASSWORD_LIKE.fullmatch(value) and not VERSION.fullmatch(value) and
                _said_login(view, m.start())):
            continue
        out.append((m.start(2), m.start(2) + len(value), MARK.format("password")))
    return out


# letters and digits a person chose, with a sign or not ("f4lc0n125", "hedgehog#1962")
PASSWORD_LIKE = re.compile(r"(?=[^\s]*[A-Za-z])(?=[^\s]*\d)[A-Za-z0-9!@#$%^&*?~+=._-]{8,40}")
LOGIN_WORDS = re.compile(r"\b(?:login|logins|log-in|wi-?fi|wlan|creds|credentials|zugang|"
                         r"zugangsdaten|anmeldung|acceso|accès|identifiants|accesso|credenciais|"
                         r"credenciales|inloggning|inloggen|dane logowania)\b")


PAIR_ABOVE = re.compile(r"\b(?:id/pw|id / pw|user/pass\w*|login/pass\w*|logins?|credentials?|"
                        r"accounts?|konten|cuentas?|comptes?)\b[^\n]*[:：]\s*$")


def _said_login(view: str, at: int) -> bool:
    """Whether a login's word stands before a pair: on its line, or in its table's header."""
    line_start = view.rfind("\n", 0, at) + 1
    above = view.rfind("\n", 0, max(0, line_start - 1)) + 1
    if LOGIN_WORDS.search(view, line_start, at) or \
            PAIR_ABOVE.search(view, above, max(above, line_start - 1)):
        return True  # "ID/PW:" on the line above
    if not view.startswith("|", line_start):
        return False
    header = line_start
    while header and view.startswith("|", view.rfind("\n", 0, header - 1) + 1):
        header = view.rfind("\n", 0, header - 1) + 1
    return bool(LOGIN_WORDS.search(view, header, view.find("\n", header)))
