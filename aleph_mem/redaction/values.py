"""What a value taken out by a rule must be to count as a secret: not a number, a
placeholder, a variable, a lookup, a path, a URL without credentials, a secret manager's
reference or a published example; and the checks rules hand their values to."""

from __future__ import annotations

import base64
import binascii
import json
import re

from aleph_mem.redaction.published import PUBLISHED, placeholder

# a value that is no secret: a number, a boolean, a placeholder, a variable, a lookup, a
# path or a URL without credentials
NOT_A_SECRET = re.compile(
    r"^(?:\d+(?:\.\d+)?|true|false|yes|no|null|none|nil|required|optional|string|str|"
    r"bytes|int|long|integer|boolean|bool|number|uuid|varchar|double|float|void|"
    r"(?:HTTP|HTTPS|SPDY)/\d(?:\.\d)?|\$?this->.*|\$\w+->.*|\.\s*\$\w+\s*\.?|"
    r"(?:string|int|bool|boolean|long|float|double|number|any|char|byte|id)[)\],;!?]*|"
    # a hash's name; a framework's validation rules ('required|string|min:8|confirmed'); a
    # request's field ($_POST['password']); a version pin ("tiktoken==0.7.0")
    r"(?:sha-?\d+|md5|bcrypt|argon2\w*|pbkdf2\w*|scrypt|blake2\w*)|"
    r"(?:required|nullable|sometimes|string|min:\d+|max:\d+|confirmed|email)(?:\|[\w:,]+)+|"
    r"\$_(?:POST|GET|REQUEST|SERVER|ENV|COOKIE)\[.*|=[=~]?[\d.*]+|"
    # a property's access ("formData.password"), a name in snake case ("from_symbol"), a
    # version range ("^0.32.1"), a CSS custom property ("--muted"), a relative path
    r"(?-i:[a-z][A-Za-z]*(?:\.[a-z_][A-Za-z_]*)+)|(?-i:[a-z]+(?:_[a-z]+){1,2})|"
    r"[\^~><=]{1,2}\d+(?:\.\d+)+.*|--[\w-]+|\.[\w-]+(?:/[\w.\-]+)+/?|"
    r"\*+|x+|\.\.\.|…|<[^>]*>|%prompt|"
    # code around a value: a concatenated call ("'.base64_encode($d)"), a URL-encoded quote
    # (an XSS payload), a concatenated property ("+localStorage.token")
    r"\.\s*[A-Za-z_$][\w$]*\(.*|%2[27].*|\+\s*[A-Za-z_$][\w$]*(?:\.[\w$]+)+.*|"
    r"(?:bearer|basic|digest)[`'\".,;:)]*|\{\{.*\}\}|\$\{[^}]*\}\}?|\$\{?"
    r"(?-i:[A-Za-z_][A-Za-z_.]*\d*|[A-Za-z_][A-Za-z0-9_.]*[_.][A-Za-z0-9_.]*|[a-z_][a-z0-9_]*|"
    r"[A-Z_][A-Z0-9_]*|\d+)\}?|"  # a variable ($dbPass2, $s3_key); not "$oHtf4L9L6"
    r"\$\(.*|`.*`|%\(.*|#\{.*\}|@[\w.-]+@|\$\{?[A-Za-z_]\w*\}?/\S*|"  # "$PWD/certs/key.pem"
    r"(?:vault|arn|awssm|gcpsm|azkv|keyvault|doppler|infisical|ref\+[a-z]+):\S*|ENC[\[(].*|"
    r"(?:secret|kv|kv-v2|secrets)/[\w.-]+(?:/[\w.-]+)+\)?|"
    r"pk\.eyJ.*|pk_(?:live|test)_\w+|tok_[A-Za-z]+|pub[0-9a-f]{32}|!vault.*|\$ANSIBLE_VAULT.*|"
    r"1password|bitwarden|keepass(?:xc)?|lastpass|dashlane|keychain|op://.*|"
    r"!(?:secret|env_var|include)\b.*|"
    # a password's hash (crypt, PHC: argon2, pbkdf2, Apache's apr1, Pi-hole's BALLOON;
    # doubled "$$" in a compose file; bcrypt: ``hashed_password``), OpenWrt's "$p$root"
    r"\$\$?(?:argon2(?:id|i|d)|pbkdf2(?:-sha\d+)?|apr1|[156]|y|gy|7|scrypt|md5|sha1|"
    r"balloon-sha256)\$.*|\$p\$\w+|"
    # a GCP Secret Manager's resource name; Midtrans' client key (public, in a page)
    r"projects/[\w-]+/secrets/[\w.-]+(?:/versions/\w+)?|(?:SB-)?Mid-client-\S+|"
    # RevenueCat's public SDK keys (its secret keys are ``sk_``)
    r"(?:appl|goog|amzn)_[A-Za-z0-9]{20,}|@(?:keychain|env):\S*|"  # altool's references
    r"(?-i:(?:live|test)_[A-Z0-9]{32})|"  # Adyen's client key (public, in the page)
    # an OpenAI organization's id; a call's argument closed ("token)$data" in R)
    r"org-[A-Za-z0-9]{20,}|(?-i:[a-z_][a-z0-9_]*)\)(?:\$|\.\w|\[).*|"
    r"(?:window|globalthis|import\.meta\.env|app_config)\..*|"
    r"\{[\w.-]+\}?.*|#{2,}[\w-]+#{2,}|password|passwd|pass|pwd|secret|token|key|user|username|"
    r"[\d:+\-./TZ]+|0x[0-9a-fA-F]{40}|"  # a date, a time, a number; an account's address
    r"(?:os\.environ|os\.getenv|process\.env|env|getenv|settings|config|secrets|"
    r"self|args|opts|options|request|req)\b.*|[A-Za-z_][A-Za-z0-9_.:]*\(.*|"
    r"(?:~|\.{1,2})?/[\w.\-/]*|[a-z][a-z0-9+.-]*://[^@\s]*|"
    r"\[REDACTED:[a-z-]+\]|"
    # a PowerShell cmdlet (Read-Host …), a Java class by its package (org.apache….Http11…)
    r"\(?(?-i:[A-Z][a-z]+(?:[A-Z][a-z]+)?-[A-Z][A-Za-z]+)|(?-i:[a-z][a-z0-9]*(?:\.[a-z][a-z0-9]*){2,}\.[A-Z]\w*)|"
    # a reference to where the secret lives: Azure's Key Vault, a vault path ("kv/data/app:
    # password"), a credential's name and file (systemd's ``name:/path``, ``%d/name``)
    r"@Microsoft\.KeyVault\(.*|[a-z][a-z_.-]*(?:/[a-z_.-]+){2,}:[a-z_.-]+['\")]*|"
    r"[\w.-]+:(?:~|\.{1,2})?/[\w.\-/%]*|%[a-zA-Z]/\S*|"
    # a secret manager's path in words, one of them joined ("secret/data/ci/registry-pull",
    # "kv-app/smtp-password"; not a password with slashes in it, "pa/ss/word")
    r"(?-i:(?=[a-z0-9/.]*[a-z][-_][a-z])[a-z][a-z0-9_.-]*(?:/[a-z][a-z0-9_.-]*)+/?)|"
    # an encrypted value (Bitwarden's cipher string), a public browser key (New Relic's),
    # what a tool prints in place of one ("(protected)", "(typed, not echoed)")
    r"\d\.[A-Za-z0-9+/=]{16,}\|[A-Za-z0-9+/=|]+|NRJS-[0-9a-f]+|\([a-z][a-z ,]*\)?|"
    # a signing algorithm's name, a constant read from elsewhere (BuildConfig.OWM_API_KEY)
    r"aws4-hmac-sha256|(?-i:(?:[A-Za-z_]\w*\.)+[A-Z][A-Z0-9_]+)|%[A-Za-z_][A-Za-z0-9_]*%|"
    # a key's id or fingerprint in capitals (gitconfig's signingkey = 4CCB40840E4A684D)
    r"(?-i:[0-9A-F]{8}|[0-9A-F]{16}|[0-9A-F]{40})|"
    # code, not a value: a subscript, a method, a fetch option, a scheme alone, a URL's rest
    r"[A-Za-z_][\w.]*\[.*|(?-i:[A-Z][a-z]+\.[a-z_]+)|(?:sys|os|self|this|config|settings|env|"
    r"process|app|request|req|ctx|context|data|params|args)\.[\w.]+|include|omit|same-origin|"
    r"bearer|//\S*|filler|dummy|foo|bar|baz|qux|\[.*|\{.*|"
    r".*'\s*or\s.*|.*\bor\s+'?\d+'?\s*=.*)$",
    re.IGNORECASE)
# a value that names a secret rather than holding one: ``"auth_token"``, ``new_password``
# a name's parts; digits only in the first of several ("libp2p_pub_key", not "secret123")
A_SECRETS_NAME = re.compile(r"[a-z][a-z0-9]*(?:[_.-][a-z]+)+|[a-z]+")
SECRET_WORD = re.compile(r"token|key|secret|passw|pwd|auth|cred")


# a bcrypt hash: a password's, or an API's key in that shape (JSONBin's master keys)
BCRYPT = re.compile(r"\$\$?2[abxy]?\$\$?\d\d\$\$?[./A-Za-z0-9]{53}")
# a name that says its value is a password (so a bcrypt value is that password's hash)
PASSWORD_NAME = re.compile(r"(?i)pass|pw|hash|crypt")


def digits_password(name: str, value: str) -> bool:
    """A password of digits only under a password's name (a router's 20-digit Wi-Fi key:
    ``wifi_password: "80142771696220222341"``); a number elsewhere is no value."""
    digits = value.strip("\"'")
    if digits in "01234567890123456789" or digits in "98765432109876543210" or \
            len(set(digits)) == 1:
        return False  # the most guessed of all ("123456789"), a run, one digit repeated
    return bool(re.fullmatch(r"\d{8,64}", digits)) and \
        bool(re.search(r"(?i)pass|psk|pwd|(?<![a-z])pw(?![a-z])", name)) and \
        not re.search(r"(?i)len|min|max|age|days|count|expir|rotat|port", name)


def hashed_password(name: str, value: str) -> bool:
    """A password's bcrypt hash under a password's name (``password: $2y$10$…``)."""
    return bool(BCRYPT.match(value.strip("'\"`"))) and bool(PASSWORD_NAME.search(name))


def pass_in_prose(before: str, name: str, value: str) -> bool:
    """"pass" as a sentence uses it ("first pass = entities", "consistency pass: view-toggle",
    a test's "PASS: critic"): the name is the bare word, after a word and a space or in
    capitals, and the value is a word, not a password."""
    if not re.fullmatch(r"(?i)pass\W*", name.strip()) or re.search(r"[\w-]$", before) or \
            not re.fullmatch(r"[^\W\d_]+(?:[-↔/][^\W\d_]+)*[.,;]?", value.strip("\"'`*")):
        return False
    if value.strip("\"'`*.,;").lower() in ("true", "false", "yes", "no", "ok", "fail", "failed"):
        return True  # a check's outcome ("**pass = True.**")
    return name.strip().startswith("PASS") or bool(re.search(r"[^\s*•>#|-] $", before))


NAME_TAIL = re.compile(r"[A-Za-z0-9_.-]*\Z")  # a name's part a rule's match starts after


def names_a_place(before: str, name: str, value: str) -> bool:
    """A value its name shows to be a name, not a secret: a slug under a key's, a token's or an
    id's name (``STORAGE_KEY = 'wallet-account'``, ``--initial-cluster-token etcd-cluster-1``),
    an id that starts with a date under a session's (``session_id: 20260705_155823_d2b79c``), a
    page's ``data-`` attribute (``data-client-key="sdk-…"``: its browser shows it), or
    a word after a capitalized dash in a list ("-Password Change", "Answ:-Password manager")."""
    bare, low = value.strip("\"'`"), name.lower().rstrip(" \t=:\"'")
    whole = NAME_TAIL.findall(before)[0].lower() + low  # the name's start too
    if re.match(r"public|data-", whole) or " " not in low and \
            re.search(r"(?:user_?name|email|login_?name)$", whole):
        return True  # ``publicKeyToken="31bf3856ad364e35"``, a cookie that holds a user's name
    if re.search(r"(?:key|token|session|_id|-id)$", low) and \
            not re.search(r"secret|pass|api|auth", low) \
            and re.fullmatch(r"[a-z][a-z0-9]*(?:[-:_.][a-z0-9]+)+", bare) and \
            sum(c.isdigit() for c in bare) <= 4 and not re.search(
                r"secret|token|pass|pwd|key|(?:19|20)\d\d", bare) and \
            any(len(w) >= 4 and w.isalpha() for w in re.split(r"[-:_.]", bare)):
        return True
    if "session" in low and re.match(r"(?:19|20)\d\d-?[01]\d-?[0-3]\d[-_T]", bare):
        return True
    if re.search(r"master[_-]?key$", low) and UUID.fullmatch(bare):
        return True  # a DPAPI master key's GUID ("MasterKey: 54d13d3c-…"), not the key
    if re.search(r"token\]?$", low) and not re.search(r"secret|pass|api|auth|access|refresh|bearer",
                                                     low) and re.fullmatch(r"[a-z]{3,16}", bare):
        return True  # a syntax theme's or a lexer's token ("token: 'comment'")
    return bool(re.fullmatch(r"-[A-Z][a-z]+[ \t]+", name) and (not before.strip() or
                before.endswith(":")) and re.fullmatch(r"[A-Za-z][a-z]+[:,-]?", value))


def escaped_break(text: str) -> bool:
    """Text that starts with a JSON-escaped line break ("Password: \\ndn: …" in a transcript):
    what follows a label on the next line, not a value."""
    return bool(re.match(r"\\+[nrt]", text.lstrip("\"'`")))


def names_a_secret(bare: str) -> bool:
    """A secret's name: ``auth_token``, in capitals ``PAPERLESS_API_TOKEN``, in camel case
    ``userPwd``, ``PrivateKey`` (a variable or a type in code, not a value)."""
    camel = re.fullmatch(r"[A-Za-z][a-z0-9]*(?:[A-Z][a-z0-9]+)+", bare)
    if camel:
        bare = re.sub(r"(?<!^)([A-Z])", r"_\1", bare).lower()
    low = bare.lower() if re.fullmatch(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+", bare) else bare
    # a name's digits end its parts ("dwRc4KeySize", "API_V2_TOKEN"); a word's do not
    # ("hunter2secret", "myRedisPassw0rd")
    name = re.sub(r"\d+(?=_|$)", "", low) if camel or low != bare else bare
    return bool(A_SECRETS_NAME.fullmatch(name)) and bool(SECRET_WORD.search(low))


def is_value(text: str) -> bool:
    """A value that may be a secret: not a number, placeholder, variable, path, URL, a
    secret manager's reference, or the name of a secret."""
    if escaped_break(text):
        return False  # a JSON-escaped line break ("Enter password: \\nERROR …"), not a value
    bare = re.sub(r"`[*_]+$", "`", text).strip("\\\"'`").strip()  # inline code in emphasis
    if bare.endswith(",") and re.fullmatch(r"[a-z_][\w.]*,", bare):
        bare = bare[:-1]  # an argument's name before its comma ("sagemaker_session,")
    if re.fullmatch(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+[)}\]]+", bare):
        return False  # a constant's name closing its call ("JUPITER_API_KEY})")
    if re.search(r"[，。、；：！？]", bare):
        return False  # prose in a CJK script ("登录凭证，一般就是密码…")
    if re.match(r"[;),]\s", bare):
        return False  # code between two strings ('"password:"; send "…"'), not a value
    if " " in bare.strip() and PROSE.search(bare):
        return False  # a message about it ("Password is required", "Password wajib diisi")
    if text.startswith("`") and not text.rstrip("*_.,;:)").endswith("`"):
        return False  # a command's substitution ("`kubectl get secret …`")
    if not_written_down(bare):
        return False
    return (len(bare) >= 6 and (not NOT_A_SECRET.match(bare) or aws_secret_shape(bare))
            and not placeholder(bare)
            and not names_a_secret(bare) and bare.split("&", 1)[0] not in PUBLISHED
            # its secret part a variable's ("root@pam!ci=$PVE_TOKEN_SECRET")
            and not re.search(r"[=:]\$\{?[A-Za-z_]\w*\}?$", bare)
            and not re.search(r"\s\.\s*\$|\$\w+\s*\.\s", bare))  # PHP: '" .$pass. "'


def aws_secret_shape(text: str) -> bool:
    """An AWS secret access key (40 of base64's letters) that starts with "/" as a path
    does: random in both cases and digits, where a path's parts are words."""
    return bool(re.fullmatch(r"/[A-Za-z0-9/+]{39}", text)) and looks_random(text) and \
        sum(c.isdigit() for c in text) >= 2 and text != text.lower() and text != text.upper()


def looks_random(text: str) -> bool:
    """A token's body, not a word or a slug: a digit, or both cases, and no placeholder."""
    has_case = any(c.isupper() for c in text) and any(c.islower() for c in text)
    return (has_case or any(c.isdigit() for c in text)) and not placeholder(text)


def not_placeholder(text: str) -> bool:
    """Not a documented example (``T00000000/B00000000/XXXXXXXX``)."""
    return not placeholder(text)


# words joined by slashes or colons ("expired/malformed/missing", "focus:ring-button/50",
# "bg-gray-*/bg-white"): a list or a class's name (two words and one slash may be a login and
# its password: "ubuntu/homelab")
WORD_LIST = re.compile(r"[a-z][a-z0-9*-]*(?:[/:][a-z0-9*-]+)+")
# a style's class names ("border-gray-300 dark:border-gray-600")
CLASS_LIST = re.compile(r"[a-z][a-z0-9:/*]*-[a-z0-9:/*-]+(?:\s+[a-z][a-z0-9:/*]*-[a-z0-9:/*-]+)+")
# a command in inline code: a tool's name, a space, its arguments
COMMAND = re.compile(r"(?:npm|npx|pnpm|yarn|git|gh|docker|kubectl|helm|pip|uv|brew|apt|curl|"
                     r"aws|gcloud|az|cargo|go|make|ssh|scp|sudo|systemctl|op|vault)\s+[a-z-]")
# what no one writes down as a secret: a regular expression, a command's substitution, a
# template's field, an arithmetic expression, words in another script beside the key's own
# ("sk-cp-你的key"), a description that names the secret ("User's password"), a hash's name
REGEX = re.compile(r"\[[^\]]*\w-\w[^\]]*\]|\{\d+(?:,\d*)?\}|\\[dwsDWS][+*]|^/?\^.*\$/?$|"
                   r"^\.[*+]")
EXPRESSION = re.compile(r"[\w.]+(?:\s+(?:\*\*|[-+*/%])\s+[\w.]+)+")
DESCRIBED = re.compile(r"(?i)\s.*\b(?:password|passwort|token|secret|key)\b|"
                       r"\b(?:password|passwort|token|secret|key)\b.*\s")
HASH_NAME = re.compile(r"(?i)sha-?(?:1|224|256|384|512)|md5|bcrypt|scrypt|argon2\w*|pbkdf2\w*|"
                       r"netntlmv[12]|ntlm|aes-?(?:128|192|256)(?:-[a-z]{2,4})?|chacha20\S*|"
                       r"rsa-?\d{4}|ed25519")


CHUNK = re.compile(r"[A-Z]{2,5}(?=[A-Z][a-z]|\d|$|[-_])|[A-Z]?[a-z]+|(?<!\d)\d{1,2}(?!\d)|[-_]|"
                   r"[A-Z]")


# a word's shape: letters, a vowel, never four consonants in a row (WORD: three letters or
# more, as in a name made of words; WORDLIKE: four or more, as in a sentence or camel case)
SAYABLE = r"(?i)(?=[a-z]*[aeiouy])(?![a-z]*[^aeiouy\W\d_]{4})[a-z]{%d,}"
WORD, WORDLIKE = re.compile(SAYABLE % 3), re.compile(SAYABLE % 4)


def identifier_words(value: str) -> bool:
    """A name made of words (``MiniCPM3ForCausalLM``, ``originalValOfMethodArg1``): every
    piece a word with a vowel, an acronym or a small number (not a year: "ProdKey2026" was
    chosen as a secret), three words or more, where a generator's token breaks into pieces
    no one would say."""
    pieces = CHUNK.findall(value)
    if "".join(pieces) != value:
        return False
    words = [p for p in pieces if p[-1].islower()]
    letters = sum(c.isalpha() for c in value)
    return sum(len(w) >= 3 for w in words) >= 3 and \
        sum(len(w) for w in words if len(w) >= 3) >= 0.7 * letters and all(
        WORD.fullmatch(w) for w in words if len(w) >= 3)


# a model's name on a hub ("Qwen/Qwen2.5-32B-Instruct", "HuggingFaceTB/SmolLM2-1.7B-Instruct")
MODEL_ID = re.compile(r"[A-Za-z][\w.-]*/[A-Za-z][\w.]*-(?:[\w.]+-)*?(?:\d+(?:\.\d+)?[BMK]|"
                      r"Instruct|Chat|Base|hf|GGUF|AWQ|GPTQ)\b[\w.-]*")


# an object serialized and base64-encoded: Python's pickle (protocols 2 to 5), Java's
# ObjectOutputStream, PHP's serialize() (an object, a custom object, an array)
SERIALIZED = re.compile(r"gA[JNRS]|gASV|rO0AB|[TQ]zo\d|YTo\d")
# a state written where a value would be ("**hidden**", "'password' => 'hashed'")
STATUS_WORDS = frozenset(("allowed", "denied", "disabled", "enabled", "unset", "granted",
                          "forbidden", "redacted", "hidden", "masked", "hashed", "encrypted"))
# a PowerShell command: an approved verb, a dash, a noun ("Read-Host", "Start-Dnscat2")
CMDLET = re.compile(r"(?i:get|set|new|start|stop|invoke|import|export|add|remove|test|enable|"
                    r"disable|read|write|out|convertto|convertfrom|select|find|register|update|"
                    r"install|connect|resolve|restart|send|format|copy|move|rename|clear|join|"
                    r"split|wait|show|enter|grant|request|save)-[A-Za-z][A-Za-z0-9]+")
# an exploit writer's cyclic pattern (Metasploit's pattern_create: "Aa0Aa1Aa2…", any part)
CYCLIC = re.compile(r"[a-z]?\d?(?:[A-Z][a-z]\d){4,}[A-Z]?[a-z]?")
# a tool's list of flags in capitalized words ("CanChange-NotExpi-Req", winPEAS's account
# properties)
FLAG_LIST = re.compile(r"(?:[A-Z][a-z]+)+(?:-(?:[A-Z][a-z]*)+){2,}")


def not_written_down(bare: str) -> bool:
    """A value that is no secret whatever its name says (see above)."""
    return bool(REGEX.search(bare) or bare.startswith(("$(", "{{", "{%", "${{")) or
                re.match(r"\$_*[A-Za-z]*\{", bare) or MODEL_ID.fullmatch(bare) or
                re.search(r"\{[A-Za-z_]\w*(?::[^}]*)?\}", bare) or  # a template's field, f"{t:04d}"
                re.search(r"\^[A-Z]+\^|§|^__\w+__$", bare) or  # a tool's placeholder (^PASS^, §…§)
                re.fullmatch(r"[+.]\s*\w[\w.()]*\s*[+.]", bare) or  # '" + sessionToken + "'
                re.match(r"[A-Za-z]:\\", bare) or  # a Windows path
                len(re.findall(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]", bare)) * 2 >=
                len(bare) or  # words in another script ("帧级+视频级", "[密码]")
                re.fullmatch(r"[\W_]+|:[a-z_]\w*|(?i:realm=.*)", bare) or  # "=====", ":password"
                re.match(r"[#$]\{", bare) or  # MyBatis' #{password}
                bare.strip("*_").lower() in STATUS_WORDS or
                # an environment's or a constant's name (a k8s secretKey's DATABASE_URL), a
                # dotfile's, an absolute path, Compose's escaped $$VAR and $$(…), a build
                # secret's spec (docker build --secret id=npmrc,src=.npmrc)
                re.fullmatch(r"[A-Z]{2,}(?:_[A-Z]{2,})+|\.[a-z][a-z0-9_.-]*", bare) or
                re.fullmatch(r"(?:~|/[\w.-]+)(?:/[\w.*-]*)+", bare) and
                sum(c.isdigit() for c in bare) <= 4 or  # not a key that starts with "/"
                re.match(r"\$\$[({A-Za-z_]|(?:id|src|source|target|type|env)=", bare) or
                re.match(r"f['\"]\{", bare) or EXPRESSION.fullmatch(bare) or
                re.search(r"[\u3400-\u9fff\uff08\uff09]", bare) and re.search(r"[A-Za-z]", bare)
                or DESCRIBED.search(bare) or HASH_NAME.fullmatch(bare) or
                re.fullmatch(r"[^\W\d_]+:", bare) or  # a prompt's label ('read -p "Password: "')
                bare.startswith("|") or "=|" in bare or  # a pattern's alternatives ("pass=|pwd=")
                re.fullmatch(r"[a-z]{2,8}(?:[._-][a-z]{2,5})*[._-]", bare) or  # a prefix: `ghp_`
                re.match(r"pk_(?:live|test)_|(?:live|test)_g?ck_", bare) or  # a page's client key
                re.match(r"%env\(|!?\[\[", bare) or  # Symfony's '%env(KEY)%', a wikilink
                FLAG_LIST.fullmatch(bare) or  # flags, a header's name, a prompt (root@//host/:)
                CYCLIC.fullmatch(bare) or  # an exploit's cyclic pattern ("Aa0Aa1Aa2…")
                SERIALIZED.match(bare) or  # a pickled, Java- or PHP-serialized object in base64
                re.fullmatch(r"\^[A-Za-z0-9-]{6,}", bare) or  # an Obsidian block's id
                CMDLET.fullmatch(bare) or  # PowerShell's Read-Host, Start-Dnscat2
                bare.lower() in ("authorization", "bearer", "x-api-key") or
                bare.endswith(":") and ("@" in bare or "/" in bare) or
                len(bare.split()) >= 3 and ", " in bare)  # a list ("kafka, harbor, env group")


def said_secret(text: str) -> bool:
    """A value a sentence gives as a password: quoted, or not a plain word (a digit, a
    symbol, a capital inside it)."""
    if escaped_break(text):
        return False  # a JSON-escaped line break ("Password: \\ndn: …"), not a value
    text = re.sub(r"\\[nrt].*", "", text)  # "required\\n\"}": the value ends at the break
    text = re.sub(r"^[*_]+(?=[`\"'])|(?<=[`\"'])[*_]+$", "", text)  # "**`op://`**": emphasis
    if text[-1:] in "\"'\\" and text[:1] not in "\"'`「『":
        text = text.rstrip("\"'\\")  # a JSON string's end after a word ('loaded"'), no quote
    word = re.sub(r"[.,;!?]?['\"][)\]}]*;?$", "", text)
    if text[:1] not in "\"'`「『" and word != text and word.isalpha():
        return False  # a word at a string's or a call's end ("… is incorrect.'])")
    bare = text.strip("\"'`「」『』\\")
    if bare in PUBLISHED or re.match(r"[;)]\s", bare):
        return False  # a published key; code between two strings ('"pass:"; send "…"')
    if bare != text:
        return (len(bare) >= 4 and not NOT_A_SECRET.match(bare) and not placeholder(bare)
                and not names_a_secret(bare) and not CODE_TEXT.search(bare)
                and not (" " in bare and PROSE.search(bare))  # "Password wajib diisi"
                and not re.match(r"[a-z][\w.-]*\s+-(?:-?\w|\s|$)", bare)  # a command, a flag
                and not (" " in bare and "://" in bare)  # "`keyring set https://… __token__`"
                and not (text[:1] == "`" and COMMAND.match(bare))  # "`npm token list`"
                and not not_written_down(bare) and not CLASS_LIST.fullmatch(bare)
                and not re.fullmatch(r"[A-Z][a-z]+(?:[A-Z][a-z]+)+|[a-z]+(?:[A-Z][a-z]+)+", bare)
                and not re.fullmatch(r"[a-z]+(?:[:_./-][a-z]+)+", bare))  # 'admin:public_key'
    bare = bare.strip(":*_")  # ":elevate", "**stateless**": a word in punctuation or emphasis
    if re.fullmatch(r"[\d.,]+[×x%]?(?:[–-][\d.,]+[×x%]?)?\)?", bare):
        return False  # a number or a range ("10×–100×)")
    if re.fullmatch(r"[^\W\d_]+[.,;!?]+", bare) and bare.rstrip(".,;!?").islower():
        return False  # a sentence's last word ("… you entered is incorrect.")
    if re.fullmatch(r"[^\W\d_]{4,12}[.,;!?]*", bare) and bare.rstrip(".,;!?").isupper():
        return False  # a status in capitals ("API key 401 — RESUELTO"), not a password
    for opening, closing in ("()", "[]", "{}"):  # "string)": a bracket without its pair
        if closing in bare and opening not in bare or opening in bare and closing not in bare:
            bare = bare.strip(opening + closing)
    if not bare.isascii() and not any(c.isdigit() or c in "!@#$%^&*_+=.?" for c in bare):
        return False  # a word in another script ("Token คือสตริงยาว…") is prose
    if re.fullmatch(r"[a-z]+(?:_[a-z]+)+|[A-Z][a-z]+(?:[A-Z][a-z]+)+", bare):
        return False  # an identifier ("email_log"), a name in camel case ("TypeScript")
    if "](" in text or WORD_LIST.fullmatch(bare) and (bare.count("/") >= 2 or ":" in bare or
                                                     "*" in bare) and \
            sum(len(w) >= 3 for w in re.split(r"[-/:*]", bare) if w.isalpha()) >= 2 or \
            re.fullmatch(r"\d{1,3}-[^\W\d_]{3,}|[A-Z][a-z]*(?:-[A-Z][a-z]+)+", bare):
        return False  # a link's text, "lost/regenerated", "7-krokowy", "X-Guest-Token"
    return is_value(bare) and not bare.endswith((":", "：")) and (
        any(not c.isalpha() and c not in "-'’" for c in bare)
        or bare[1:] != bare[1:].lower() or app_password(bare))


# a sentence about a password, not one: a form's message, a policy
PROSE = re.compile(r"(?i)\b(?:is|are|must|be|should|required|invalid|incorrect|wrong|match|"
                   r"least|wajib|harus|diisi|erforderlich|obligatoire|requerido|requerida|"
                   r"obrigatória|obbligatoria|characters|zeichen|caractères|caracteres|"
                   r"entered|enter|empty|missing)\b")
# code, not a value: a call, a string joined to another ('" . f(32) . "')
CODE_TEXT = re.compile(r"\w\(|\s\.\s|\s\+\s")
# a file's name ("Pass Safe_1.2.12_apkcombo.com.apk!classes.dex")
FILE_NAME = re.compile(r"\.(?:apk|dex|jar|exe|dll|so|zip|tar|gz|py|js|ts|md|txt|json|ya?ml|xml|"
                       r"html?|png|jpe?g|pdf|csv|log|sh|rb|go|rs|java|kt|swift|php|c|h)(?:!|$|\W)",
                       re.IGNORECASE)


def app_password(text: str) -> bool:
    """An app password as Google and Microsoft give them: sixteen lower-case letters."""
    return bool(re.fullmatch(r"[a-z]{16}|(?:[a-z]{4} ){3}[a-z]{4}|(?:[a-z]{4}-){3}[a-z]{4}", text))


# what follows a password's label and is no password: a state, a rule, an absence
NOT_A_PASSWORD = frozenset("""required optional none empty expired forgotten changed reset unchanged
unknown hidden masked protected same default standard unset set disabled enabled missing invalid
incorrect wrong vergessen geändert abgelaufen leer keins keine aucun aucune vide oublié oublie
expiré ninguna ninguno vacío vacía olvidada caducada nenhuma vazia esquecida nessuna vuota
scaduta dimenticata saknas tomt glömt brak puste zapomniane нет пусто см siehe see below
above later tbd todo n/a""".split())


def label_word(text: str) -> bool:
    """A password given alone after its label's colon: any word but a state or an absence
    ("Kennwort: Blaubeerkuchen" is one, "Password: required" and "Passwort: vergessen" not)."""
    bare = text.strip("\"'`«» ").strip()
    if escaped_break(bare):
        return False  # a JSON-escaped line break, not a value
    if bare.isdigit():  # "contraseña de comercio: 816535": digits after a password's label
        return 4 <= len(bare) <= 12 and pin_value(bare)
    long_enough = len(bare) >= 6 or not bare.isascii() and len(bare) >= 3  # "ゆずポン酢"
    if re.match(r"!?\[\[|[A-Z][A-Z0-9]*_[A-Z0-9_]*=\S", bare) or \
            bare.strip("*_").lower() in NOT_A_PASSWORD:
        return False  # a wikilink's embed, an environment's line (BACKUP_DIR=…), "**hidden**"
    return long_enough and not NOT_A_SECRET.match(bare) and not placeholder(bare) and \
        not names_a_secret(bare) and bare not in PUBLISHED and \
        bare.lower() not in NOT_A_PASSWORD and \
        not bare.lower().startswith(("http", "www.", "(")) and not bare.endswith(("…", "...")) \
        and not FLAG_LIST.fullmatch(bare)


STOP_WORDS = frozenset("""the a an at be is are must least characters chars long and or of to for
your see same ask use via every ogni cada tous chaque alle days giorni jours días dias tage
tagen dni dagen scade caduca vence expire expires expira läuft
with from in on min max minimum maximum required letters digits numbers symbols one two three
mindestens zeichen und oder mit ein eine der die das au moins caractères et ou de la le les un une
des mínimo caracteres y o el los las con al menos almeno caratteri il lo e di""".split())


def words_passphrase(text: str) -> bool:
    """A passphrase of words after its label: a digit or a sign among them, and none of the
    little words a sentence about a password has ("at least 12 characters")."""
    words = text.split()
    if re.match(r"(?:\S{0,20}[ \t])?[$#>%][ \t]", text) or " | " in text:
        return False  # a shell's next command ("$ ls -lh /backup | tail -1"), not words
    if re.search(r"\s//?\s", text) or text.startswith(("- ", "* ")):
        return False  # a login and its password ("- root // qwer1234!@"), a list's item
    if not any(c.isdigit() for c in text):  # diceware: four words or more, none a little one
        return len(words) >= 4 and all(re.fullmatch(r"[A-Za-z][a-z]{2,9}", w) for w in words) and \
            not any(w.lower() in STOP_WORDS or w.lower() in NOT_A_PASSWORD for w in words)
    if re.match(r"\d+[ \t]+[^\W\d]", text) or re.search(r"(?i)passw|passcode|characters", text):
        return False  # a count and what it counts ("24 passwords remembered"), a policy
    return not text.startswith(("(", "[", "<")) and \
        not re.search(r"[().=;{}]", text) and \
        not any(w.lower().strip(".,;:!?()") in STOP_WORDS for w in words) and \
        all(len(w) <= 24 for w in words) and not placeholder(text)


def pem_body(text: str) -> bool:
    """A private key block with a key in it, not a sentence naming its BEGIN and END lines."""
    return not_placeholder(text) and bool(re.search(r"[A-Za-z0-9+/]{16}", text))


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
                              r"ajs_anonymous_id|theme|lang|locale|tz|\w*consent|__cf_bm|_cfuvid|"
                              r"expires|path|domain|max-age|samesite|secure|httponly|version",
                              re.IGNORECASE)


def base64_text(value: str) -> str | None:
    """What base64 says as UTF-8 text (standard or URL-safe, padded or not), or None."""
    try:
        return base64.b64decode(value.replace("-", "+").replace("_", "/")
                                + "=" * (-len(value.rstrip("=")) % 4)).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None


def payload(value: str) -> bool:
    """Base64 (URL-encoded or not) of a serialized object (PHP's ``O:9:"UserModel":…``,
    ``C:19:…``, ``a:2:{…``): an exploit's payload. Not an encrypted envelope (Laravel's
    ``{"iv":…,"value":…,"mac":…}`` is a session)."""
    value = value.replace("%3D", "=").replace("%3d", "=")
    if "." in value or len(value) < 16 or not re.fullmatch(r"[A-Za-z0-9+/_-]+=*", value):
        return False
    said = base64_text(value)
    return said is not None and said.isprintable() and bool(re.match(r"[OCa]:\d+:[{\"]", said))


def secret_cookie(header: str) -> bool:
    """A cookie header's value holds a secret: a cookie not known to be harmless, with a
    value that is one (``sessionid=""`` clears a cookie)."""
    for pair in header.split(";"):
        name, eq, value = pair.strip().partition("=")
        bare = value.strip().strip('"')
        named = bool(re.search(r"sess|auth|token|sid|jwt|remember|login", name, re.IGNORECASE))
        if payload(bare):
            continue  # a serialized object sent as a cookie (an exploit's payload), no session
        if eq and not HARMLESS_COOKIES.fullmatch(name.strip()) and bare.lower() not in (
                "deleted", "null", "none", "expired", "invalid") and \
                len(bare) >= (6 if named else 16) and not placeholder(value) and \
                not re.fullmatch(r"[a-z]+", bare):  # "policy=strict", "samesite=lax"
            return True  # an unknown cookie counts when long ("ab_variant=checkout_v2" not)
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


def not_encoded_text(value: str) -> bool:
    """A URL's value that is no text encoded for the URL (spaces, line breaks, braces,
    quotes: ``use%20std%3A%3A…``, ``%7B%22pageId…``) nor base64 of readable text."""
    if re.search(r"%(?:20|0a|0d|22|3b|7b|7d)", value, re.I):
        return False
    try:
        said = base64.b64decode(value + "=" * (-len(value) % 4), validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return True
    return not (len(said) >= 24 and re.sub(r"\s", "", said).isprintable() and
                sum(c.isspace() for c in said) >= 3)


def announced_value(text: str) -> bool:
    """A value given alone after a line that announces it: random, or a UUID (Railway's,
    Heroku's tokens are UUIDs; a UUID announced as a key is one); not a setting's line of its
    own (``TURNSTILE_SITE_KEY=1x00…AA`` under "test keys:", its value judged by its name)."""
    return is_value(text) and not re.match(r"[a-z_][\w.-]*=[^=]", text, re.I) and (
        looks_random(text) or bool(UUID.fullmatch(text)))


def said_token(text: str) -> bool:
    """A token given after its name without a verb ("use the api key abc123…")."""
    return (is_value(text) and any(c.isdigit() for c in text) and not FILE_NAME.search(text)
            and not re.fullmatch(r"id_(?:rsa|dsa|ecdsa|ed25519)(?:\.pub)?", text)
            and any(c.isalpha() for c in text) and looks_random(text))


def header_value(text: str) -> bool:
    """An ``Authorization:`` value without a scheme word is a token, not a word of prose."""
    return is_value(text) and text.isascii() and (len(text) >= 20 or
                                                   any(not c.isalpha() for c in text))


# the payload of jwt.io's example token, whatever it is signed with
JWT_IO = {"sub": "1234567890", "name": "John Doe", "iat": 1516239022}


def public_token(token: str) -> bool:
    """A token its provider publishes for clients: a published example, Supabase's anon key
    (a JWT whose role is ``anon``)."""
    if token in PUBLISHED:
        return True
    if token.startswith("eyJ") and token.count(".") == 2:
        body = token.split(".")[1]
        try:
            claims = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
        except (binascii.Error, ValueError, UnicodeDecodeError):
            return False
        return isinstance(claims, dict) and (claims.get("role") == "anon" or claims == JWT_IO)
    return False


HOST = re.compile(r"[a-z0-9-]+(?:\.[a-z0-9-]+)+(?::\d+)?", re.IGNORECASE)


def password_like(value: str) -> bool:
    """A string a person chose as a password: no spaces, not a host, URL or path, with a
    digit and a symbol or both cases (``svc_reports``, ``ftp.example.com`` are not)."""
    if not 6 <= len(value) <= 128 or any(c.isspace() for c in value) or HOST.fullmatch(value) \
            or re.fullmatch(r"[\w.-]+:\d{2,5}", value) \
            or not is_value(value) or not any(c.isdigit() for c in value):
        return False
    return any(not c.isalnum() for c in value) or (value.lower() != value != value.upper())
