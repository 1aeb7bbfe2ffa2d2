"""What the line around a value says the value is, whatever rule found it: code that names a
value (a variable, a member, a call, a type, an enum's case), math between dollar signs, one
option among options, one of a list of ids, or a secret's word closing a string. None of
those is a secret a person wrote down, and each is a whole line of code or a formula an agent
can no longer read once it is taken out. And where a value ends: before the punctuation of
the line it stands in (``value_end``), each cookie of a header alone (``cookie_values``).

Only literals are secrets in code: ``password: "s3cret"`` holds one, ``password: a.Password``
and ``creds: .absent`` name where one is."""

from __future__ import annotations

import re

from aleph_mem.redaction.values import SERIALIZED, looks_random, not_encoded_text

IDENT = r"[A-Za-z_$][\w$]*"
# a name, a member of one (``a.Password``, ``Token::new``, ``user->pass``), an enum's case
# (``.absent``), a pointer's target or an address (``*token``, ``&cfg.key``), a grouping
# parenthesis before it (``(row['日期'] - start)``)
CHAIN = re.compile(rf"\(?([.*&@]?|!!|::){IDENT}((?:(?:\.|::|->|\?\.){IDENT})*)[!?]?")
# the names a chain of members starts from in code
ROOTS = frozenset(("self", "this", "os", "process", "Rails", "app", "config", "settings", "env",
                   "window", "document", "ctx", "req", "request", "res", "response", "System"))
# Terraform's references: ``var.client_secret``, ``local.token``, ``module.db.password``
TERRAFORM = frozenset(("var", "local", "module", "data"))
# an injection's payload in a query or a form (``?pw=' OR id='admin``, ``'1'='1``), not a value
INJECTION = re.compile(r"(?i)'\s*(?:or|and|\|\|)\s*(?:\(?\s*select\b|[\w.']+\s*(?:=|<|>|like\b))|"
                       r"\bunion\s+select\b|'1'\s*=\s*'1|%27|\bor\s+id\s*=|<@=")
# a type in a declaration (``{login: str, password: str}``, ``privateKey: Uint8Array;``)
TYPES = frozenset(("str", "string", "String", "int", "Int", "bool", "Bool", "boolean", "bytes",
                   "number", "any", "object", "Object", "Data", "Date", "None", "nil", "null",
                   "undefined", "true", "false", "True", "False", "Uint8Array", "Buffer",
                   "Secret", "SecretStr", "SecretString", "Optional", "Option", "char"))
# inline math as Obsidian reads it: "$" before a non-space, "$" after one, no digit after it
MATH = re.compile(r"(?<![\\$\w])\$(?=[^\s$])([^$\n]*?[^\s\\$])\$(?![\d$])")
MATH_SIGNS = re.compile(r"\\[A-Za-z]+|[\^_]\{?|[A-Za-z)]\s*[=<>+/*]\s*[A-Za-z(\d]|[A-Za-z]\(")
# a declaration before the name: the value after it is a type or a name (Swift, TypeScript,
# Kotlin, Rust)
DECLARATION = re.compile(r"[ \t>*`-]*(?:(?:private|public|internal|fileprivate|static|final|"
                         r"readonly|export|pub)[ \t]+)*(?:let|var|val|const|static|init|func|fn)\b")
# a variable's name: letters in one case or camel case, no digit ("access", "accessToken")
VARIABLE = re.compile(r"[a-z_]+|[a-z]+(?:[A-Z][a-z]+)+")
TYPE_NAME = re.compile(r"[A-Z][a-z]+(?:[A-Z][a-z]*)+")  # ``OAuthCredentials``
TYPE_MEMBER = re.compile(r"[A-Z][a-z]+(?:[A-Z][a-z]*)+\.[A-Z][a-z]+(?:[A-Z][a-z]*)+")
SHELL_VARIABLE = re.compile(r"\{?[A-Z_][A-Z0-9_]*\b")


def _line(text: str, start: int, end: int) -> tuple[int, int]:
    left = text.rfind("\n", 0, start) + 1
    right = text.find("\n", end)
    return left, len(text) if right == -1 else right


def _open_brackets(before: str) -> int:
    """How many of the line's brackets are open before the value (a call's or a literal's)."""
    depth = 0
    for c in re.sub(r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'", "", before):
        if c in "([{":
            depth += 1
        elif c in ")]}" and depth:
            depth -= 1
    return depth


def expression(text: str, start: int, end: int) -> bool:
    """Whether the value at ``text[start:end]`` is code that names a value: unquoted, and a
    call, an index, a member or an enum's case, or a name or a type inside the brackets of a
    call or a literal, followed by what ends an argument."""
    if start and text[start - 1] in "\"'":
        return False  # a string literal holds what it says
    value = text[start:end]
    if re.match(r"[A-Za-z][\w-]*\(", value + text[end:end + 1]) and "-" in value.split("(")[0] \
            or re.fullmatch(r"\d+[*/][A-Za-z_][\w.]*[)]*", value):
        return True  # a call by a hyphenated name ("HKDF-Extract(…"), "5*time.Second"
    m = CHAIN.match(value)
    if not m:
        return False
    rest = value[m.end():]
    after = text[end:end + 1]
    chain, lead = m.group(2), m.group(1)
    bare = value.strip(")]};,`").lstrip("(!@&*:.")
    root = bare.split(".")[0]
    code_like = not re.search(r"\d", bare) and (
        "_" in bare or re.search(r"[a-z][A-Z]", bare) or root in ROOTS)
    if not rest.strip(")]};,`") and chain and (
            "::" in chain or "->" in chain or chain.count(".") >= 2 and code_like or
            root in TERRAFORM and "_" in bare or
            lead in ("::", "!!") or TYPE_MEMBER.fullmatch(bare)):
        return True  # ``Rails.application.secret_key_base``, ``CredentialCache.DefaultNetwork…``
    if chain and not rest and re.match(r" [a-z_]\w*,", text[end:end + 40]):
        return True  # a call without its parentheses (Ruby's ``JWT.encode payload, key``)
    if rest[:1] in ("(", "[") or not rest and after in ("(", "["):
        # a call or an index: of a member (``Token::new(``), or a variable's (``$creds['…']``)
        return bool(chain or lead or value.startswith(("$", "(", "($")))
    rest = rest.rstrip("`")  # inline code's end
    if rest.strip(")]};,") or value.startswith("("):
        return value.startswith("(") and not rest.strip(")]};,") and bool(chain)
    left, right = _line(text, start, end)
    inside = _open_brackets(text[left:start]) > 0
    follows = text[end:right].lstrip(" \t")[:1]
    ends_argument = not follows or follows in ",;)]}" or rest[:1] in tuple(",;)]}")
    word = value.rstrip(")]};,!?`").lstrip("(")
    if DECLARATION.match(text, left) and (chain or TYPE_NAME.fullmatch(word)):
        return True  # ``let credentials: OAuthCredentials``, ``let key = Prefs.runway``
    if not inside and (rest or text[end:right].strip()) == "," and \
            (VARIABLE.fullmatch(word) or re.fullmatch(r"@[a-z_]+", word)):
        return True  # an object literal's property on a line of its own: ``session: sessionLink,``
    if not (inside and ends_argument):
        return False
    if TYPE_NAME.fullmatch(word) and text[left:start].rstrip().endswith(":"):
        return True  # a parameter's type: ``init(credentials: OAuthCredentials)``
    if lead == "@":
        return bool(re.fullmatch(r"@[a-z_]+", word))  # Ruby's ``token: @token`` (not "@tigre1978")
    if lead or chain and re.match(r"[a-z_$]", word):
        return True  # ``.absent``, ``*token``, ``a.Password`` (not "Falcon.Cooper97")
    if word in TYPES:
        return True
    return bool(VARIABLE.fullmatch(word))


def value_end(text: str, start: int, end: int) -> int:
    """Where an unquoted value really ends: at its table cell's border, or before the quote
    or backtick that closes a string or inline code opened before it on its line
    (``"password=test123".``, `` `DB_PASSWORD=Icin2026` |``), so the mark takes the value
    and leaves the line's punctuation."""
    if start and text[start - 1] in "\"'":
        return end  # a quoted value ends at its own quote
    left, _ = _line(text, start, end)
    value = text[start:end]
    before = text[left:start]
    if before.lstrip().startswith("|") and "|" in value:
        value = value[:value.index("|")]
    for quote in "`\"'":
        if quote in value[1:] and before.count(quote) % 2 == 1 and value.count(quote) % 2 == 1:
            value = value[:value.index(quote, 1)]
    if "</" in value:
        value = value[:value.index("</")]  # an element's end ("<div>Key: …</div>")
    for opening, closing in ("()", "[]", "{}"):  # "(login:nzbget, password:tegbzn6789)"
        if value.endswith(closing) and opening not in value and opening in before:
            value = value.rstrip(closing)
    return start + len(value.rstrip())


def key_ends_a_string(text: str, key_start: int, name: str) -> bool:
    """Whether a secret's word closes a string that began before it ("'Show password' : …",
    a ternary's two messages), not a quoted key of its own (``"db_password": …``)."""
    m = re.match(r"[\w.-]+([\"'])\s*(?:=>|[:=])", name)
    if not m:
        return False
    i = key_start
    while i and (text[i - 1].isalnum() or text[i - 1] in "_.-$"):
        i -= 1
    return text[i - 1:i] != m.group(1)


def in_math(text: str, start: int, end: int) -> bool:
    """Whether the value stands in a formula between dollar signs (``$a(bG) = abG$``), not
    in quotes (a Django key: ``'$sp9o2suc8066=13*u+j$…'``)."""
    if start and text[start - 1] in "\"'":
        return False
    left, right = _line(text, start, end)
    if "$" not in text[left:right]:
        return False
    for m in MATH.finditer(text, left, right):
        if m.start() <= start + 1 and end - 1 <= m.end() or m.start() <= start < m.end():
            body = m.group(1)
            if SHELL_VARIABLE.match(body) or any(c in body for c in "\"'`"):
                continue  # "$HOME/x:$PATH", '"$USER" "$PASS"': a shell's variables
            if MATH_SIGNS.search(body):
                return True
    return False


def id_list(login: str, value: str) -> bool:
    """Two ids of one shape side by side (a list of posts' ids, ``DblTFNfE_Tr / DblG8smExWc``),
    not a login and its password."""
    return len(login) == len(value) >= 8 and login[:2] == value[:2] and \
        bool(re.fullmatch(r"[\w-]+", login)) and bool(re.fullmatch(r"[\w-]+", value))


def one_of_options(text: str, start: int, end: int) -> bool:
    """Whether the value is one of a list of options in inline code ("mode: `auto`, `dark`,
    or `light`"): a backtick opens the next item or closed the one before on its line (a
    string in JSON or a CSV row is a value whatever follows it)."""
    if "`" not in (text[start - 1:start], text[start:start + 1]):
        return False
    after = text[end:end + 12].lstrip("`")
    before = text[max(0, start - 12):start].rstrip("`")
    return bool(re.match(r"(?:,|[ \t]+or|[ \t]+and)[ \t]*`", after) or
                re.search(r"`[ \t]*(?:,|or|and)[ \t]*$", before))  # not "`login` / `password`"


def in_a_link(text: str, start: int, end: int) -> bool:
    """Whether the value is part of a wikilink on its line: a note's name ("[[…/Basic
    Probability/Mutual Exclusion]]"), where a Markdown link's URL may carry a key."""
    left, right = _line(text, start, end)
    before, after = text[left:start], text[end:right]
    return "[[" in before and "]]" not in before[before.rindex("[["):] and "]]" in after


def names_code(text: str, start: int, end: int) -> bool:
    """Whether what a rule would take out is code, math, a link's target or an injection's
    payload, not a value written down."""
    return expression(text, start, end) or in_math(text, start, end) or \
        one_of_options(text, start, end) or in_a_link(text, start, end) or \
        bool(INJECTION.search(text, max(0, start - 3), min(len(text), end + 40)))


COOKIE_PAIR = re.compile(r"([^\s=;,]+)=([^;,\s]*)")
SESSION_NAME = re.compile(r"(?i)sess|sid|auth|token|jwt|remember|csrf|xsrf|secret|key|pass|login|"
                          r"user_?id|identity|access|refresh|ticket|sso|saml|oidc")


def cookie_values(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Where the secret values of a Cookie header stand: each cookie named for a session or a
    credential, or holding a random value, taken alone; the names, and a cookie that holds a
    word or a flag ("verify=carlos", "Admin=true"), stay as they are."""
    out = []
    for m in COOKIE_PAIR.finditer(text, start, end):
        name, value = m.group(1), m.group(2).strip("'\"")
        if not value or not not_encoded_text(value) or SERIALIZED.match(value):
            continue  # a preference or an analytics cookie's text ("%7B%22pageId%22…")
        if SESSION_NAME.search(name) and len(value) >= 6 or \
                len(value) >= 12 and looks_random(value):
            out.append((m.start(2), m.start(2) + len(m.group(2).rstrip("'\""))))
    return out
