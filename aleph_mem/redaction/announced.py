"""Secrets a label, a command or a file announces: a label's password alone at a line's end
or on the next ("Kennwort: Blaubeerkuchen"), a passphrase of several words, a command that
prints a stored secret (``vault kv get -field``, ``op item get --reveal``), a key file shown
by ``cat``, a chat message that asks for a password and the one that answers, a security
question's answer, XML and Nix that name a secret, keys handed to tools by position. Part of
the structured rules, in their order (``rules.STRUCTURED``)."""

from __future__ import annotations

import re

from aleph_mem.redaction.published import placeholder
from aleph_mem.redaction.rule import Rule, rule
from aleph_mem.redaction.values import (
    HOST,
    announced_value,
    is_value,
    label_word,
    looks_random,
    password_like,
    pin_value,
    random_value,
    said_secret,
    said_token,
    words_passphrase,
)

# an address's domain: its last label letters (``kelly@mail.example.com``), not a package's
# version (``axios@0.30.4``, ``node@6.11.1``)
DOMAIN = r"[\w-]+(?:\.[\w-]+)*\.[A-Za-z][A-Za-z-]*(?![\w.-])"


def local_key(value: str) -> bool:
    """A device's local key under ``"key"``: a password's shape, or Tuya's sixteen printable
    characters (a sign and both cases, a digit or not); not a public id (Razorpay's key id
    goes in the page: ``rzp_live_…``)."""
    bare = value.replace("\\", "")
    if len(bare) < 12 or bare.startswith(("rzp_", "pk_", "pub_", "public_")):
        return False
    return password_like(bare) or len(bare) == 16 and bare.isascii() and \
        any(not c.isalnum() for c in bare) and bare.lower() != bare != bare.upper()


def wifi_key(value: str) -> bool:
    """A network's key after a label naming the network: a chosen password, or twenty digits
    (a FRITZ!Box's); not an SSID (a router's default "Livebox-B64F", "Vodafone-2A3F")."""
    if re.fullmatch(r"[A-Za-z!]+[-_][0-9A-Fa-f]{4}|.*[-_](?:2\.4|5)g(?:hz)?", value, re.I):
        return False
    return chosen_password(value) or value.isdigit() and len(value) >= 12 or \
        re.fullmatch(r"[a-z]{4,}\d{2,}", value) is not None  # "kaffeetasse341"


def chosen_password(value: str) -> bool:
    """A password a person chose, given in a sentence: letters and a digit, and a sign or
    both cases ("sunflower1997?", "$0lny$hk074"), not a word, a number or a name."""
    value = value.rstrip(",;.!?")
    return password_like(value) and any(c.isalpha() for c in value) and (
        any(not c.isalnum() for c in value) or value.lower() != value != value.upper())


def printed_secret(value: str) -> bool:
    """The line a password store printed, not its complaint ("Error: … is not in the
    password store.")."""
    return is_value(value) and not re.match(r"(?i)(?:error|gpg|warning|usage|fatal)\b", value)


ANNOUNCED: tuple[Rule, ...] = (
    # a key file shown: its key the long random word on the next line (``ed25519 a_x …``)
    rule("private-key", r"(\bcat\s+\S*\.key[ \t]*\r?\n(?:[^\n]{0,300}?[ \t])?)"
          r"([a-z0-9+/=_-]{32,})(?=[ \t]*(?:\r?\n|$))", keep=1, hints=('cat ',), lower=True,
          check=looks_random, back=0),
    # XML that names a secret in an attribute and holds it in another or in its text:
    # ``<env name="DB_PASSWORD" value="…"/>``, ``<string name="client_secret">…</string>``
    rule("password", r"(<[\w:.-]+\s+(?:[\w:-]+=\"[^\"\n]*\"\s+)*?(?:name|key)=\"[^\"\n]*"
          r"(?:password|passwd|secret|token|api[_-]?key|apikey|private[_-]?key)[^\"\n]*\"\s+"
          r"value=\")([^\"\n]+)(?=\")", keep=1, hints=('value="',), lower=True, check=is_value,
          back=200),
    rule("password", r"(<string\s+name=\"[^\"\n]*(?:password|passwd|secret|token|api[_-]?key|"
          r"apikey)[^\"\n]*\"[^>\n]*>)([^<\n]+)(?=</string>)", keep=1, hints=('<string',),
          lower=True, check=is_value, back=0),
    # Nix: a secret written into the store or a file under /etc
    rule("password", r"(writetext\s+\"[^\"\n]*(?:pass|secret|token|key)[^\"\n]*\"\s+\")"
          r"([^\"\n]+)(?=\")", keep=1, hints=('writetext',), lower=True, check=is_value, back=0),
    rule("password", r"(\.\"[^\"\n]*(?:password|passwd|secret|token)[^\"\n]*\"\.text\s*=\s*\")"
          r"([^\"\n]+)(?=\")", keep=1, hints=('.text',), lower=True, check=is_value, back=80),
    # keys handed to a tool by position: openssl's -K (and -k), a game server's login
    # token, Algolia's admin key after its application id
    rule("cli-password", r"(\bopenssl\b[^\n]{0,300}?\s-k\s+)(?!pass:)(\S+)", keep=1,
          hints=('openssl',), lower=True, check=is_value, back=0),
    rule("api-key", r"(\+sv_setsteamaccount\s+)([0-9a-f]{32})", keep=1,
          hints=('sv_setsteamaccount',), lower=True, back=1),
    rule("api-key", r"(algoliasearch\(\s*[\"'][a-z0-9]{10}[\"']\s*,\s*[\"'])([0-9a-f]{32})"
          r"(?=[\"'])", keep=1, hints=('algoliasearch(',), lower=True, back=0),
    # a license block (Sublime Text's), a key given as a list of bytes under its name
    rule("license-key", r"(-{3,} ?begin license ?-{3,}\s*\n)[\s\S]*?(?=-{3,} ?end license)",
          keep=1, hints=('begin license',), lower=True, back=8),
    rule("password", r"((?:key|secret)[\"']?\s*[:=]\s*)\[(?:\s*\d{1,3}\s*,){7,}\s*\d{1,3}\s*\]",
          keep=1, hints=('key', 'secret'), lower=True, back=12),
    # a link that carries its own credential: a password reset's or an invite's token
    rule("signed-url", r"(/(?:reset|password[-_]reset|reset[-_]password|confirm|verify|"
          r"activate|invite|magic[-_]?link)/(?:[a-z0-9_-]+/)?)([0-9a-z]{1,13}-[0-9a-f]{20,}|"
          r"[a-z0-9_-]{24,})", keep=1, hints=('/reset', '/password', '/confirm', '/verify',
                                              '/activate', '/invite', '/magic'),
          lower=True, check=looks_random, back=0),
    rule("signed-url", r"([?&](?:token|reset_token|access_token|invite_token|auth_token|api_key|"
          r"apikey)=)([a-z0-9%._~+/-]{16,})", keep=1, hints=('token=', 'api_key=', 'apikey='),
          lower=True, check=looks_random, back=16),
    # a key in a config of `Name value` lines (GeoIP.conf's LicenseKey)
    rule("password", r"(?m)(^[ \t]*[a-z_]*(?:licensekey|license_key|licencekey|apikey|api_key|"
          r"secretkey|secret_key|accesstoken|access_token|authtoken|auth_token)[ \t]+)(\S+)[ \t]*$",
          keep=1, hints=('licensekey', 'license_key', 'licencekey', 'apikey', 'api_key',
                         'secretkey', 'secret_key', 'accesstoken', 'access_token', 'authtoken',
                         'auth_token'), lower=True, check=said_token, back=30),
    # "changed the router admin pass to …": a password set to a value
    rule("password", r"(\b(?:changed|set|reset|updated?)\s+(?:[^\s.,;:]+\s+){0,4}?"
          r"(?:password|passwort|pass|passphrase|pin|code|passcode|pw|pwd)\s+to\s+)"
          r"(\"[^\"\n]+\"|'[^'\n]+'|[^\s,;]*[^\s,;.!?])", keep=1,
          hints=('changed', 'set', 'reset', 'update'), lower=True, check=said_secret, back=0),
    # pass(1), the standard Unix password manager: a password is the first line it shows
    rule("password", r"(\b(?:go)?pass\s+(?:show\s+)?(?!-)[\w.@/-]+[ \t]*\r?\n)"
          r"(\S+(?:[ \t][^\s=:]\S*){0,7})(?=[ \t]*(?:\r?\n|$))", keep=1,
          hints=('pass show', 'gopass'),
          lower=True, check=printed_secret, back=6),  # the whole line: a passphrase of words
    # a key decoded from hex or base64 into a variable named for a key (Go, Python, JS)
    rule("password", r"(\b[a-z_]*(?:key|secret)[a-z_]*(?:\s*,\s*_)?\s*:?=\s*[a-z_.]*"
          r"(?:decode|fromhex|from_hex|unhexlify|decodestring)\w*\(\s*b?[\"'])"
          r"([0-9a-f]{32,}|[a-z0-9+/]{32,}={0,2})(?=[\"'])", keep=1,
          hints=('decode', 'fromhex', 'from_hex', 'unhexlify'), lower=True, back=80),
    # a gem host's credentials for bundler; fish's and csh's exports
    rule("cli-password", r"(\bbundle\s+config\s+(?:set\s+)?(?:--\w+\s+)*[\w-]+(?:\.[\w-]+)+"
          r"\s+)(\S+)", keep=1, hints=('bundle config',), lower=True, check=is_value, back=0),
    rule("password", r"(\b(?:set\s+-[gxul]+|setenv)\s+[a-z0-9_]*(?:key|secret|token|password|"
          r"passwd|auth)[a-z0-9_]*\s+)(\"[^\"\n]+\"|'[^'\n]+'|\S+)", keep=1,
          hints=('set -', 'setenv'), lower=True, check=is_value, back=0),
    # a command that prints a stored secret: the line it prints (the command run, first on
    # its line after a prompt; not one a comment mentions, "# ask, or: op read …")
    rule("password", r"((?:^|(?<=\n))[ \t]*(?:\S{0,60}[$#%>❯][ \t]+|ps [^\n>]{0,60}>[ \t]*)?"
          r"(?:sudo[ \t]+(?:-\S+[ \t]+)*)?(?:vault\s+(?:kv\s+get|read)\b[^\n]{0,300}-field[= ]\S+|"
          r"op\s+(?:item\s+get\b[^\n]{0,300}--reveal|read\s+\S+)|"
          r"security\s+find-(?:generic|internet)-password\b[^\n]{0,300}\s-w\w*|"
          r"aws\s+secretsmanager\s+get-secret-value\b[^\n]{0,300}--output\s+text|"
          r"gcloud\s+secrets\s+versions\s+access\b|"
          r"aws\s+configure\s+get\s+\S*(?:secret|token|password)\S*|doppler\s+secrets\s+get\b[^\n]{0,300}--plain|"
          r"bw\s+get\s+password\b|az\s+keyvault\s+secret\s+show\b[^\n]{0,300}(?:-o|--output)\s+tsv|"
          r"plesk\s+bin\s+secret_key\s+(?:-c|--create)\b|aws\s+ecr\s+get-login-password\b|"
          r"gcloud\s+auth\s+print-(?:access|identity)-token\b|"
          r"terraform\s+output\s+-raw\s+\S*(?:password|secret|token|key)|"
          r"terraform\s+state\s+pull\b[^\n]{0,300}random_password)"
          r"[^\n]{0,300}\r?\n)(\S+)(?=[ \t]*(?:\r?\n|$))", keep=1,
          hints=('vault kv get', 'vault read', 'op item get', 'op read', 'find-generic-password',
                 'find-internet-password', 'get-secret-value', 'secrets versions access',
                 'doppler secrets get', 'bw get password', 'keyvault secret show',
                 'configure get', 'plesk bin secret_key', 'get-login-password',
                 'print-access-token', 'print-identity-token', 'terraform output',
                 'random_password'),
          lower=True, check=is_value, back=90),
    # a device's passcode: "iPhone code: 309427", a device's name above "Code: 309427"
    rule("code", r"((?:ipad|iphone|phone|handy|tablet|laptop|macbook|notebook|telefon|téléphone|"
          r"teléfono|telefone|smartphone|kindle|ordinateur|ordenador|computador)\b"
          r"(?:[^\n]{0,40}\n[ \t]*(?:[-*][ \t]+)?|[ \t-]*(?:\([^)\n]{0,30}\)[ \t]*)?)"
          r"(?:passcode|code|entsperrcode|sperrcode|código|codice|kod|kód)[ \t]*[:：][ \t]*)"
          r"(\d{4,8})(?![\w-])", keep=1,
          hints=('ipad', 'iphone', 'phone', 'handy', 'tablet', 'laptop', 'macbook', 'notebook',
                 'telefon', 'téléphone', 'teléfono', 'smartphone', 'kindle', 'ordinateur',
                 'ordenador', 'computador'), lower=True, check=pin_value, back=0),
    # a .netrc's password, its breaks plain or JSON-escaped (a tool's output in a transcript):
    # a hex one too, which alone would read as a hash
    rule("password", r"(\bmachine(?:\s|\\n)+\S+?(?:(?:\s|\\n)+login(?:\s|\\n)+\S+?)?"
          r"(?:\s|\\n)+password(?:\s|\\n)+)([^\s\\]+)", keep=1, hints=('machine',),
          lower=True, check=is_value, back=0),
    # passwords a game server's tools take by position: mcrcon -p, steamcmd +login USER PASS,
    # Ruby's Net::SMTP.start(host, port, helo, user, PASSWORD, …)
    rule("cli-password", r"(\b(?i:mcrcon)\b[^\n]{0,300}?\s-p\s+)('[^'\n]+'|\"[^\"\n]+\"|\S+)",
          keep=1, hints=('mcrcon',), check=is_value, back=0),  # case kept: -P is its port
    rule("cli-password", r"(\+login\s+[^\s+]\S*\s+)([^\s+]\S*)", keep=1, hints=('+login',),
          lower=True, check=is_value, back=0),
    rule("password", r"(\bnet::smtp\.start\(\s*(?:[^,()\n]+,\s*){4}[\"'])([^\"'\n]+)(?=[\"'])",
          keep=1, hints=('net::smtp',), lower=True, check=is_value, back=0),
    # a pentest's loot: a cracked hash's password (hashcat's "hash:password", "cracked … user :
    # password"), an NTLM hash passed (impacket's -hashes, -H), a team server's password
    rule("password", r"((?:^|(?<=\n))[0-9a-f]{32}(?:[0-9a-f]{8}|[0-9a-f]{32})?:)(\S+)"
          r"(?=[ \t]*(?:\r?\n|$))", keep=1, hints=('hashcat', 'cracked', 'potfile', 'john'),
          lower=True, check=lambda v: is_value(v) and v != "hashcat"),  # its example hashes' word
    rule("password", r"(\bcracked\b[^\n]{0,60}?[\s→>:-][\w.\\$-]{2,40}[ \t]*:[ \t]*)(\S{6,})"
          r"(?=[ \t]*(?:\r?\n|$))", keep=1, hints=('cracked',), lower=True,
          check=password_like, back=0),
    rule("ntlm-hash", r"((?:\s-hashes\s+(?:[0-9a-f]{32})?:|\s-h\s+)(?=[0-9a-f]{32}\b))"
          r"([0-9a-f]{32})",
          keep=1, hints=('-hashes', 'evil-winrm', 'crackmapexec', 'nxc ', 'pth-'), lower=True),
    rule("cli-password", r"(\bteamserver\s+\S+\s+)('[^'\n]+'|\"[^\"\n]+\"|\S+)", keep=1,
          hints=('teamserver',), lower=True, check=is_value, back=2),
    # a password typed as a user's name, as sshd logs it ("Invalid user Oskar65+# from …")
    rule("password", r"(\b(?:invalid user|illegal user)\s+)(\S+)(?=\s+from\b)", keep=1,
          hints=('invalid user', 'illegal user'), lower=True, check=password_like, back=0),
    # a keytab pasted as base64 under the line that names it
    rule("private-key", r"(\bkeytab\b[^\n]{0,300}\r?\n[ \t]*)([a-z0-9+/]{40,}={0,2})"
          r"(?=[ \t]*(?:\r?\n|$))",
          keep=1, hints=('keytab',), lower=True, back=0),
    # a PIN letter: the PIN alone on the line after "… lautet:" / "… is:", its word above
    rule("pin", r"((?:pin|geheimzahl|passcode|code)\b[^\n]{0,300}\r?\n(?:[^\n]{0,300}"
          r"\r?\n)?[^\n]{0,300}"
          r"\b(?:lautet|is|est|es|ist|è|é)[ \t]*:?[ \t]*(?:\r?\n[ \t]*)?)(\d{4,8})"
          r"(?=[ \t]*(?:\r?\n|$))",
          keep=1, hints=('pin', 'geheimzahl', 'passcode'), lower=True, check=pin_value, back=0),
    # a DSN's password handed to a format by position ("…://%s:%s@…", "report", "pw")
    rule("password", r"(://(?:%s|\{\}):(?:%s|\{\})@[^\"'\n]*[\"'][^,\n]*,\s*[\"'][^\"'\n]*[\"']\s*,"
          r"\s*[\"'])([^\"'\n]+)(?=[\"'])", keep=1, hints=('://%s:%s@', '://{}:{}@'),
          lower=True, check=is_value, back=0),
    # a fresh random value made to be a key: openssl rand's or pwgen's line, where the command
    # or the line after it says what for (not a nonce, an IV or a salt)
    rule("secret", r"(\b(?:openssl\s+rand\s+-(?:base64|hex)\b|pwgen\b)(?![^\n]{0,300}"
          r"\b(?:nonce|iv|salt|"
          r"test|example)\b)(?=[^\n]{0,300}(?:key|secret|passw|token)|[^\n]{0,300}\n[^\n]{0,300}\n[^\n]{0,300}(?:key|"
          r"secret|passw|token))[^\n]{0,300}\r?\n)([a-z0-9+/=]{12,})(?=[ \t]*(?:\r?\n|$))",
          keep=1, hints=('openssl rand', 'pwgen'), lower=True, check=random_value, back=0),
    # a Z-Wave network's S0/S2 keys (Z-Wave JS's settings)
    rule("encryption-key", r"(\bs(?:0_legacy|2_(?:unauthenticated|authenticated|accesscontrol|"
          r"access_control))\b[\"']?\s*[:=]\s*[\"']?)([0-9a-f]{32})\b", keep=1,
          hints=('s0_legacy', 's2_'), lower=True, back=0),
    # a Bitrix24 inbound webhook: its token in the path
    rule("webhook", r"(\.bitrix24\.[a-z.]+/rest/\d+/)([a-z0-9]{12,32})(?=/)", keep=1,
          hints=('bitrix24',), lower=True, back=1),
    # a C header's #define of a secret (an Arduino sketch's arduino_secrets.h)
    rule("password", r"(#define\s+\w*(?:pass|password|secret|token|api_?key|psk)\w*\s+\")"
          r"([^\"\n]+)(?=\")", keep=1, hints=('#define',), lower=True, check=is_value, back=0),
    # OMERO's login password
    rule("cli-password", r"(\bomero\s+login\b[^\n]{0,300}?\s-w\s+)('[^'\n]+'|\"[^\"\n]+\"|\S+)",
          keep=1, hints=('omero',), lower=True, check=is_value, back=0),
    # an OpenVPN auth-user-pass file: its user, then its password
    rule("password", r"(\bauth(?:-user-pass)?\.txt\b[^\n]{0,300}"
          r"\r?\n[ \t]*[^\s#]+[ \t]*\r?\n[ \t]*)"
          r"(\S+)(?=[ \t]*(?:\r?\n|$))", keep=1, hints=('auth.txt', 'auth-user-pass.txt'),
          lower=True, check=is_value, back=0),
    # a password a message gives with no verb, a few words after its word, a dash, a comma or
    # the message's end after it ("пароль от госуслуг мамы $0lny$hk074 — только не меняй")
    rule("password", r"((?<![\w=-])(?:пароль|парол[яю]|password|passwort|kennwort|contraseña|senha|"
          r"mot de passe|wachtwoord|hasło|heslo|şifre[mn]?|lösenord|salasana|jelszó)"
          r"(?:[ \t]+(?!(?:policy|policies|requires?|must|min|minimum|length|format|reset|rotation|"
          r"hint|manager|field|prompt|rules?|example|like)\b)[^\W\d_]{1,20}){0,4}[ \t]+)"
          r"([^\s\"'`,;()\[\]{}*]{6,40}?)"
          r"(?=[,;.!?]*(?:[ \t]+[—–-][ \t]|[ \t]*(?:,[ \t]|\\?\"|\r?\n|$)))", keep=1,
          hints=('пароль', 'парол', 'password', 'passwort', 'kennwort', 'contraseña', 'senha',
                 'mot de passe', 'wachtwoord', 'hasło', 'heslo', 'şifre', 'lösenord', 'salasana',
                 'jelszó'), lower=True, check=chosen_password, back=0),
    # an account written as a block: its e-mail address alone on a line, the password alone on
    # the next ("SimplePractice — my login ⏎ kelly@… ⏎ LotteOskar38")
    rule("password", r"((?:^|(?<=\n))[ \t]*(?:[-*][ \t]+)?[\w.+-]+@" + DOMAIN + r"[ \t]*\r?\n"
          r"[ \t]*(?:[-*][ \t]+)?)(?![\w.+-]+@[\w-]+\.)([^\s\"'`]{6,64})(?=[ \t]*(?:\r?\n|$))",
          keep=1, hints=('@',),
          check=chosen_password, back=80),
    # a Wi-Fi network's key after a label that names the network, no password's word
    # ("Club Wi-Fi (bar): MaximusSC1918", "Hotspot del telefono di Marco: kaffeetasse341")
    rule("wifi-key", r"((?:^|(?<=\n))[^\n:：]{0,40}(?:\b(?:wi-?fi|wlan|hotspot|wpa2?(?:-psk)?)\b|"
          r"ไวไฟ|واي فاي|вайфай|와이파이)"
          r"[^\n:：]{0,40}[:：][ \t]*)([^\s\"'`]{8,63})(?=[ \t]*(?:\r?\n|$))", keep=1,
          hints=('wifi', 'wi-fi', 'wlan', 'hotspot', 'wpa', 'ไวไฟ', 'واي فاي', 'вайфай',
                 '와이파이'),
          lower=True, check=wifi_key, back=100),
    # a CVV
    rule("pin", r"(\b(?:cvv2?|cvc2?|csc)\b[ \t:]*)(\d{3,4})(?!\d)", keep=1,
          hints=('cvv', 'cvc', 'csc'), lower=True, back=0),
    # a share link that gives edit rights (Overleaf's)
    rule("signed-url", r"(overleaf\.com/)(\d{10}[a-z]{12})\b", keep=1, hints=('overleaf.com/',),
          lower=True, back=0),
    # Make.com's webhooks; DeepL's free key; a Nostr private key; WordPress's keys and salts
    rule("webhook", r"(\bhook\.[a-z0-9]+\.make\.com/)([a-z0-9]{32})\b", keep=1,
          hints=('make.com/',), lower=True, back=20),
    rule("api-key", r"(?<![0-9a-f-])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-"
          r"[0-9a-f]{12}:fx\b",
          hints=(':fx',), lower=True, back=36),
    rule("private-key", r"\bnsec1[02-9ac-hj-np-z]{58}\b", hints=('nsec1',), lower=True, back=0),
    rule("password", r"(\bdefine\(\s*'\w*(?:KEY|SALT|PASS|PASSWORD|SECRET|TOKEN)\w*'\s*,\s*')"
          r"([^'\n]{8,})(?=')", keep=1, hints=("define(",), lower=False,
          check=lambda v: (len(v) >= 16 and not placeholder(v) and "unique phrase" not in v
                           or is_value(v)) and not HOST.fullmatch(v),  # a cache key's salt
          back=0),  # is the site's domain ('WP_CACHE_KEY_SALT', 'praxis-weber.de')
    # a session cookie named, then its value after a colon ("PHPSESSID of the admin session: …")
    rule("cookie", r"(\b(?:phpsessid|jsessionid|sessionid|session cookie)\b[^\n:=]{0,60}"
          r":[ \t]*)([a-z0-9%_-]{16,})", keep=1, hints=('sessid', 'session'), lower=True,
          check=random_value, back=6),
    # an expect script answering a password prompt: expect "password:"; send "pw\r"
    rule("cli-password", r"(\bexpect\s+(?:-\w+\s+)*\"[^\"\n]*pass[^\"\n]*\"[^\n]{0,80}?"
          r"(?:\n[ \t]*)?\bsend\s+"
          r"(?:--\s+)?\")([^\"\\\n]+)(?=(?:\\r|\\n)?\")", keep=1, hints=('send ',), lower=True,
          check=lambda v: is_value(v) and not re.fullmatch(r"\$(?:env\(\w+\)|[a-z_]\w*)", v),
          back=120),  # not Tcl's variables ("$env(SSH_PASS)")
    # a password fed to sudo -S by a here-string ("sudo -S systemctl restart app' <<< 'pw'")
    rule("cli-password", r"(\bsudo\s+-s\b[^\n]{0,300}?<<<\s*)('[^'\n]+'|\"[^\"\n]+\"|\S+)", keep=1,
          hints=('<<<',), lower=True, check=is_value, back=120),
    # a password piped into cryptsetup, zfs load-key, a key file; pihole's -p, VeraCrypt's /p,
    # NUT's MONITOR line
    rule("cli-password", r"(\becho\s+(?:-n\s+)?)('[^'\n]+'|\"[^\"\n]+\"|[^\s|]+)"
          r"(?=\s*\|\s*(?:sudo\s+)?"
          r"(?:cryptsetup|zfs\s+load-key|xxd\s+-r\s+-p\s*>\s*\S*key))", keep=1,
          hints=('echo',), lower=True, check=is_value, back=0),  # the hint before the value
    rule("cli-password", r"(\bpihole\s+-a\s+-p\s+)('[^'\n]+'|\"[^\"\n]+\"|\S+)", keep=1,
          hints=('pihole',), lower=True, check=is_value, back=0),
    rule("cli-password", r"(\bveracrypt\b[^\n]{0,300}?"
          r"\s/p(?:assword)?\s+)('[^'\n]+'|\"[^\"\n]+\"|\S+)",
          keep=1, hints=('veracrypt',), lower=True, check=is_value, back=60),
    rule("password", r"(\bmonitor\s+\S+@\S+\s+\d+\s+\S+\s+)(\S+)(?=\s+(?:primary|secondary|master|"
          r"slave)\b)", keep=1, hints=('monitor',), lower=True, check=is_value, back=0),
    # Google Authenticator's export (every account's seed in its data)
    rule("totp-seed", r"(otpauth-migration://offline\?data=)([a-z0-9%+/=_-]{20,})", keep=1,
          hints=('otpauth-migration',), lower=True, back=0),
    # a Borg key export: the key's lines under its header
    rule("private-key", r"(\bborg_key [0-9a-f]{64}\r?\n)((?:[a-z0-9+/=]{20,}\r?\n?)+)", keep=1,
          hints=('borg_key',), lower=True, back=0),
    # Mailchimp's API key (32 hex and its datacenter), wherever it stands
    rule("api-key", r"(?<![0-9a-f])[0-9a-f]{32}-us\d{1,2}\b", hints=('-us',), lower=True, back=40),
    # a plaintext password handed to a hash function (a seeder, a fixture)
    rule("password", r"(\b(?:hash::make|bcrypt|password_hash|make_password|"
          r"generate_password_hash|hashpw|bcrypt\.hash(?:sync)?|argon2\.hash)\(\s*b?[\"'])"
          r"([^\"'\n]{6,})(?=[\"'])", keep=1,
          hints=('hash::make', 'bcrypt', 'password_hash', 'make_password', 'generate_password_hash',
                 'hashpw', 'argon2.hash'), lower=True, check=is_value, back=10),
    # a CloudFormation parameter named for a password, its Default value
    rule("password", r"(\b\w*(?:password|passwd|secret|token|apikey|api_key)\w*:[ \t]*\r?\n"
          r"(?:[ \t]+\w+:[^\n]{0,300}\r?\n){0,4}?[ \t]+default:[ \t]*)(\"[^\"\n]+\"|'[^'\n]+'|\S+)",
          keep=1, hints=('default:',), lower=True, check=is_value, back=120),
    # an AWS secret key a sentence names, its key id nowhere near
    rule("aws-secret-key", r"(\bsecret access key\b[^\n]{0,80}?[`'\"\s:])"
          r"((?=[a-z0-9/+]{0,39}[0-9])[a-z0-9/+]{40})(?![a-z0-9/+=])", keep=1,
          hints=('secret access key',), lower=True, check=random_value, back=0),
    # heroku auth:token prints the account's token (a UUID) on its next line
    rule("api-key", r"(\bheroku\s+auth:token\b[\s\S]{0,300}?(?:\n|\\n)[ \t]*)"
          r"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})", keep=1,
          hints=('heroku auth:token',), lower=True, back=0),
    # a Fernet key handed to Fernet; an IFTTT webhook's key
    rule("encryption-key", r"(fernet\(\s*b?[\"'])([a-z0-9_-]{43}=)", keep=1, hints=('fernet(',),
          lower=True, back=0),
    rule("webhook", r"(maker\.ifttt\.com/trigger/[^/\s]+/(?:json/)?with/key/)([a-z0-9_-]{16,})",
          keep=1, hints=('maker.ifttt.com',), lower=True, back=0),
    # a label ending a line with the secret after its colon, a single word of any kind
    # ("Telefon-Banking Kennwort (…): Blaubeerkuchen", "Family safe word: tangerine-otter");
    # not a value's word ("MYSQL_ROOT_PASSWORD=password mysql:latest")
    rule("password", r"(?m)((?<![a-z0-9_=])(?<!salt for )(?<!hash for )(?<!salt of )(?<!hash of )"
          r"(?:[a-zäöüåæø-]{0,20}?(?:passwort|kennwort|lösenord|"
          r"wachtwoord|passord|adgangskode)|password|passwort|kennwort|mot de passe|mdp|contraseña|"
          r"senha|wachtwoord|lösenord|hasło|heslo|parola|palavra-passe|safe word|code word|"
          r"codeword|"
          r"şifre(?:si)?|jelszó|jelszava|kata sandi|mật khẩu|पासवर्ड|"
          r"palabra clave|mot de code|kodewort|codewort|losungswort|passphrase|memorable word|"
          r"memorable information|passcode|kenncode|código de acceso|codice d'accesso|"
          r"toegangscode|パスコード|salaisuus|salasana|hemlighet|geheimnis|secreto|"
          r"segreto|sekret|секрет|clé wpa|clé wi-?fi|wpa key|chave wpa|clave wpa|chiave wpa|"
          r"chave de transmissão|stream key|clave de transmisión|streamschlüssel|"
          r"chiave di streaming|ключ трансляции|clave secreta|chave secreta|clé secrète|"
          r"spend key|view key|приватный ключ|シークレットアクセスキー|シークレットキー|"
          r"passwort für|пароль|кодовое слово|合言葉|暗号化キー|暗号キー|ネットワークキー|"
          r"パスフレーズ|暗号|密码|无线密码|口令|비밀번호|암호|kodeord|kode|phrase de passe|pw|pwd|"
          r"الباسورد|الباسوورد|授权码|令牌|رمز|sandi aplikasi|sandi|토큰|アクセストークン|apiキー|"
          r"clé de (?:dé)?chiffrement|(?:de|en)cryption key|entschlüsselungsschlüssel|"
          r"clave de acceso|"
          r"κωδικός|κωδικ[όο]ς πρόσβασης|"
          r"chiave di (?:de)?crittografia|clave de (?:des)?cifrado|পাসওয়ার্ড)"
          r"(?![\w-])(?![^\n:：]{0,40}\b(?:promo|garansi|warranty|voucher|kupon|coupon|referral|"
          r"tracking|booking|order|resi|hash|infohash|checksum|fingerprint|digest|"
          # a policy's fields ("Password Complexity Flags: 000001", "password age (days):")
          r"policy|policies|complexity|flags|age|history|info|length|lockout|properties|"
          r"expiry|expires|expiration|requirements|strength|hint|المنتج|الخصم|القسيمة|البريد|البريدي|الدولة|التتبع|"
          r"الحجز|الطلب|السويفت|الفرع|الاستجابة|الخطأ|العملة|الشحن|الإحالة)\b)"
          r"(?:[^\n:：@/=<>{}\"'`|–—(]|\([^)\n]{0,80}\)|(?<=\w)['’](?=\w)|\"[^\"\n:]{1,30}\"){0,60}"
          r"(?:[:：]|[ \t][–—](?=[ \t]*\S*[\d!@#$%^&*?]))[ \t]*"
          r"(?:\r?\n[ \t]*)?(?P<tick>`?))"  # in inline code too
          r"((?:[a-z]{4} ){3}[a-z]{4}|(?:[a-z0-9]{4} ){5}[a-z0-9]{4}|«[^»\n]{4,90}»|"
          r"[^\s:：,;\"'`|]{4,90})"
          r"(?=(?P=tick)[ \t]*(?:[(（][^)）\n]*[)）][ \t]*)?$)",  # a note after it stays
          keep=1,
          hints=('passw', 'kennwort', 'mot de passe', 'mdp', 'contraseña', 'senha', 'palavra',
                 'wachtwoord', 'lösenord', 'hasło', 'heslo', 'parola', 'safe word', 'code word',
                 'codeword', 'palabra clave', 'mot de code', 'kodewort', 'codewort',
                 'losungswort', 'passphrase', 'пароль', 'кодовое слово', '合言葉', '暗号',
                 '暗号化キー', '暗号キー', 'ネットワークキー', 'パスフレーズ', '无线密码',
                 'lösenord', 'passord', 'adgangskode',
                 'memorable word', 'memorable information', 'passcode', 'kenncode',
                 'código de acceso', "codice d'accesso", 'toegangscode', 'パスコード',
                 'salaisuus', 'salasana', 'hemlighet', 'geheimnis', 'secreto', 'segreto',
                 'sekret', 'секрет', 'clé wpa', 'clé wi', 'wpa key', 'chave wpa', 'clave wpa',
                 'chiave wpa',
                 'chave de transmissão', 'stream key', 'clave de transmisión',
                 'streamschlüssel', 'chiave di streaming', 'ключ трансляции', 'clave secreta',
                 'chave secreta', 'clé secrète', 'spend key', 'view key', 'приватный ключ',
                 'シークレットアクセスキー', 'シークレットキー',
                 '密码', '口令', '비밀번호', 'şifre', 'jelsz', 'kata sandi', 'mật khẩu',
                 'पासवर्ड', '암호', 'kode', 'phrase de passe', 'chiffrement', 'cryption key', 'pw',
                 'entschlüsselungsschlüssel', 'crittografia', 'cifrado', 'পাসওয়ার্ড', 'الباسورد',
                 'الباسوورد', '授权码', '令牌', 'رمز', 'sandi', '토큰', 'アクセストークン',
                 'apiキー',
                 'clave de acceso', 'κωδικ'),
          lower=True, check=label_word, back=20),
    # a passphrase of several words after its label ("GPG-Passphrase (…): Leuchtturm Ebbe
    # Flut 1987", "私钥口令：quartz49 yarrow flint lagoon marble")
    rule("password", r"(?m)((?:(?<!\w)(?:passphrase|[a-zäöü]{0,20}passwort|"
          r"[a-zäöü]{0,20}kennwort|password|"
          r"парольная фраза|phrase secrète|frase de contraseña|hasło|heslo|contraseña|senha|"
          r"mot de passe|wachtwoord|lösenord|пароль|frase de acceso|backup passphrase|pw)|"
          r"口令|密码|密碼)(?![\w-])"
          # its colon or a dash; the words on the next line, or in inline code
          r"[^\n:：@=<>{}\"'`|]{0,90}(?:[:：]|[ \t][—–])[ \t]*(?:\r?\n[ \t]*)?`?)"
          r"((?:[^\s:：\"'`;]+[ \t]+){1,7}[^\s:：\"'`;]+)(?=`?[ \t]*$)", keep=1,
          hints=('passphrase', 'passwort', 'kennwort', 'password', '口令', '密码', '密碼',
                 'парольная фраза',
                 'hasło', 'heslo', 'contraseña', 'senha', 'mot de passe', 'wachtwoord',
                 'lösenord', 'пароль', 'frase de acceso',
                 'phrase secrète', 'frase de contraseña', 'pw'), lower=True, check=words_passphrase,
          back=20),  # a compound word before it ("Hauptkennwort")
    # a letter's or a message's password of digits, a sentence going on after it ("Пароль для
    # входа в личный кабинет: 207433. Лицевой счёт …")
    rule("password", r"((?<![\w-])(?:пароль|password|passwort|kennwort|mot de passe|contraseña|"
          r"senha|wachtwoord|hasło|heslo|şifre(?:niz)?)(?![\w-])"
          r"(?![^\n:：]{0,60}\b(?:numéro|number|nummer|número|numero|номер|id|client|customer|"
          r"kundennummer|kundennr|account|konto|compte|cuenta|conta|счёт|счет|"
          r"complexity|flags|age|history|length|policy|lockout|properties)\b)"
          r"[^\n:：=.!?]{0,60}[:：][ \t]*)"
          r"(\d{6,12})(?=[.,;][ \t]+\w|[ \t]*$)", keep=1,
          hints=('пароль', 'password', 'passwort', 'kennwort', 'mot de passe', 'contraseña',
                 'senha', 'wachtwoord', 'hasło', 'heslo', 'şifre'), lower=True,
          check=pin_value, back=0),
    # 密码 Lx2024@hz!: a password after its CJK word, without a colon
    rule("password", r"((?:密码|密碼|口令|パスワード|비밀번호)[ \t]*"
         r"(?:已?改(?:成|为|為)[ \t]*|是|为)?[ \t]*)"
          # not the host after a URL's placeholder ("admin:你的密码@localhost")
          r"(?!@)([a-z0-9!@#$%^&*_+=.~-]{4,40})(?![a-z0-9!@#$%^&*_+=.~-])", keep=1,
          hints=('密码', '密碼', '口令', 'パスワード', '비밀번호'), lower=True,
          check=lambda v: said_secret(v) or v.isdigit() and 4 <= len(v) <= 8 and pin_value(v),
          back=0),
    # a short label at a line's start: "Kw: …", "PW: …", "pwd = …"
    rule("password", r"(?m)(^[ \t]*(?:[-*][ \t]*)?(?:kw|pw|pwd)[ \t]*[:=][ \t]*)"
          r"(\S+?)(?=,?[ \t]*$)",
          keep=1, hints=('kw', 'pw'), lower=True, check=said_secret, back=8),
    # "jane@example.com / pw": an account and its password on one line of a list
    rule("password", r"(?m)([\w.+-]+@" + DOMAIN + r"[ \t]+/[ \t]+)(\S+)[ \t]*$", keep=1,
          hints=('@',), lower=True, check=said_secret, back=64),
    # postfix's sasl_passwd: a host, then user:password
    rule("password", r"(?m)(^\[?[\w.-]+\]?(?::\d+)?[ \t]+[^:\s]+:)(\S+)$", keep=1,
          hints=('sasl_passwd',), lower=True, check=is_value),
    # a local key in a JSON tool result (Tuya's), a JetBrains activation code
    rule("password", r"(\\?\"(?:key|local_key|localkey)\\?\"\s*:\s*\\?\")((?:[^\"\\\n]|\\.)+?)"
          r"(?=\\?\")", keep=1, hints=('key',), lower=True, check=local_key, back=4),
    rule("license-key", r"(?<![\w-])[a-z0-9]{10}-eyj[a-z0-9+/=]{40,}(?:-[a-z0-9+/=]{20,})*",
          hints=('-eyj',), lower=True, back=12),
    # Azure DevOps' personal access tokens (52 characters of lower-case base32)
    rule("api-key", r"(?<![a-z0-9+/=_-])[a-z0-9]{52}(?![a-z0-9+/=_-])",
          hints=('azure', 'devops', 'visualstudio'), lower=True,
          check=lambda v: v.islower() and sum(c.isdigit() for c in v) >= 4),
    # Rails' master key shown by a tool in a transcript; a secret written to a file
    rule("password", r"(master\.key[\s\S]{0,600}?\"content\":\s*\")([0-9a-f]{32})(?=\")", keep=1,
          hints=('master.key',), lower=True, back=0),
    rule("password", r"(\b(?:printf\s+'%s'\s+|printf\s+\"%s\"\s+|echo\s+(?:-n\s+)?))"
          r"('[^'\n]{6,}'|\"[^\"\n]{6,}\")(?=\s*>\s*\S*(?:pass|secret|token|key|cred))", keep=1,
          hints=('printf', 'echo'), lower=True, check=is_value, back=0),
    # a cookie set in code: `s.cookies.set("laravel_session", "…")`
    rule("cookie", r"(cookies\.set\(\s*[\"'][\w.-]+[\"']\s*,\s*[\"'])([^\"'\s]{16,})(?=[\"'])",
          keep=1, hints=('cookies.set(',), lower=True, check=is_value, back=0),
    # a chat message that announces a key, and the next message that is only the key
    rule("password", r"(?m)(^\[?[\d:]{4,8}\]?[^\n:]{0,40}:[^\n]{0,300}(?:clave|key|token|password|"
          r"passwort|пароль|токен|secret|contraseña|chave|senha|mot de passe|clé|schlüssel|"
          r"秘密|密钥|키)[^\n]{0,300}\r?\n\[?[\d:]{4,8}\]?[^\n:]{0,40}:[ \t]+)(\S{16,})[ \t]*$",
          keep=1, lower=True, check=announced_value),  # anchored at a line's start: one scan
    # Jenkins' first admin password, as its log prints it (also inside a transcript's JSON)
    rule("password", r"(password to proceed to installation:(?:\s|\\n|\*)*)([0-9a-f]{32})\b",
          keep=1, hints=('proceed to installation',), lower=True, back=12),
    # OpenVPN's auth-user-pass file shown: its second line is the password
    rule("password", r"(\bcat\s+\S*(?:auth[\w.-]*\.txt|auth-user-pass|\.netrc\b)[ \t]*\r?\n"
          r"[^\n]{0,300}\r?\n)(\S+)(?=[ \t]*(?:\r?\n|$))", keep=1, hints=('cat ',), lower=True,
          check=is_value, back=0),
    # the answer to a security question (a random word in place of a mother's maiden name)
    rule("password", r"((?:sicherheitsfrage|security question|question secrète|"
          r"pregunta de seguridad|domanda di sicurezza|pergunta de segurança|秘密の質問|密保问题|"
          r"보안 질문|секретный вопрос)[^\n:：]{0,120}[:：][ \t]*(?:j'ai mis |i used |i put |"
          r"habe ich |puse |ho messo )?)([^\s（(:：?？\"'{}]{3,40})(?=[\s（(]|$)", keep=1,
          hints=('sicherheitsfrage', 'security question', 'question secrète',
                 'pregunta de seguridad', 'domanda di sicurezza', 'pergunta de segurança',
                 '秘密の質問', '密保问题', '보안 질문', 'секретный вопрос'), lower=True,
          check=label_word, back=0),
    # a server token that is a UUID, handed to an API client (Postmark's)
    rule("api-key", r"((?:apiclient|serverclient|accountclient)(?:\.new|::new)?\(\s*[\"'])"
          r"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?=[\"'])", keep=1,
          hints=('apiclient', 'serverclient', 'accountclient'), lower=True, back=0),
    # registry credentials on a CLI (skopeo, crane), Consul's ACL tokens, a cookie file's line
    rule("cli-password", r"(--(?:dest-|src-)?creds[= ]+[\"']?[^:\s\"']+:)([^\s\"'\\]+)", keep=1,
          hints=('creds',), lower=True, check=is_value, back=12),
    rule("password", r"(\btokens\s*\{[^}]*?\b(?:default|agent|master|initial_management|"
          r"agent_recovery|replication)\s*=\s*\")([0-9a-f-]{36})(?=\")", keep=1,
          hints=('tokens',), lower=True, back=0),
    rule("cookie", r"(?m)(^\S+\t(?:true|false)\t\S+\t(?:true|false)\t\d+\t"
          r"(?!_ga|_gid|_fbp|theme|lang|locale|logged_in|dotcom_user|tz\t)\S+\t)(\S{16,})$",
          keep=1, hints=('\ttrue\t', '\tfalse\t'), lower=True,
          check=lambda v: is_value(v) and sum(c.isalpha() for c in v) >= 6 and "=" not in v,
          back=200),  # a value of key=value pairs is a preference cookie (PREF)
    # a lone token answering a chat message that asks for a password
    rule("password", r"(?m)(^[^\n]{0,300}"
          r"(?:password|passwort|salasana|пароль|mot de passe|contraseña|"
          r"senha|wachtwoord|lösenord|hasło|heslo|parola|密码|パスワード|비밀번호)[^\n]{0,300}"
          r"[?？][ \t]*"
          r"\r?\n"
          r"\[?[\d:]{4,8}\]?[^\n:]{0,40}:[ \t]+)(\S+)[ \t]*$", keep=1,
          lower=True, check=said_secret),  # anchored at a line's start: one scan
)
