"""Each credential by its shape: the structured rules (a private-key block, a password in an
assignment, a URL, a header, a CLI flag, a sentence that says "my password is …"); the token
rules (a provider's literal prefix and body) are in ``tokens.py``. A rule runs only where one
of its hints (lower-case text its match holds) appears."""

from __future__ import annotations

import re

from aleph_mem.redaction.announced import ANNOUNCED
from aleph_mem.redaction.dumps import DUMPS
from aleph_mem.redaction.published import PUBLISHED
from aleph_mem.redaction.rule import Rule, rule
from aleph_mem.redaction.said import SAID
from aleph_mem.redaction.seeds import PUBLISHED_PHRASES
from aleph_mem.redaction.tools import TOOLS
from aleph_mem.redaction.values import (
    HOST,
    UUID,
    announced_value,
    header_value,
    hook_secret,
    is_value,
    looks_random,
    not_encoded_text,
    not_placeholder,
    passphrase,
    payload,
    pem_body,
    pin_value,
    random_value,
    said_secret,
    secret_cookie,
)

KEY_WORDS = (r"(?:password|(?<!no)passwd|pwd|passphrase|passcode|secret|token|api[_-]?key|apikey|"
             r"access[_-]?key|secret[_-]?key(?:[_-]?base)?|private[_-]?key|client[_-]?secret|"
             r"credentials?|creds|auth[_-]?token|session[_-]?key|signing[_-]?key|"
             r"encryption[_-]?key|app[_-]?key|master[_-]?key|(?<![a-z])(?<!--- )pass|"
             r"(?<![a-z])pw|token[_-]?value|(?<![a-z])auth(?=\s*:\s*['\"])|"
             r"(?<![a-z])psk|wpa[_-]?passphrase|authtok|(?<![a-z])totp(?:[_-]?secret)?|"
             r"(?<![a-z0-9?&])sk(?=[\"']?\s*[:=])|"
             r"otp[_-]?secret|mfa[_-]?secret|(?<![a-z])_auth(?=\s*=)|"
             r"(?<![a-z])(?:aes|hmac|jwt|fernet|cipher|crypto|kms|license|licence|webhook|root|network|"
             r"admin|auth|client|service|account|storage|deploy|oauth|consumer|shared|sas|"
             r"integration|"
             r"db|database|dek|kek|wrapping|data)[_-]?key)")
VALUE = (r"((?<=\\\")(?:[^\"\\\n]|\\[^\"])*(?=\\\")|(?<=\")(?:[^\"\\\n]|\\.)*(?=\")|"
         r"(?<=')[^'\n]*(?=')|(?![&\\])(?:[^\s,;}\])&\\]|\\+(?![\\nrt])|&(?![\w.-]+=))+)")
# (unquoted, a form's next field ends it, and a JSON-escaped break: "None\\n+auth_token")

# the start of a chat's next message, its author and time (Slack's "Oskar 08:55  ", "[14:20]
# Aiko: "), or only the indent of a line
CHAT = (r"[ \t]*(?:[a-z][\w.' -]{0,30}?[ \t]+\d{1,2}:\d\d(?:[ \t]*[ap]m)?[ \t]+|"
        r"\[\d{1,2}:\d\d\][ \t]*(?:[a-z][\w.' -]{0,30}:[ \t]*)?)?")
ANY_SEP = re.compile(r"[a-z0-9_.-]{0,24}\\?[\"']?\]?\s*(?::=|=>|=|:)")

STRUCTURED: tuple[Rule, ...] = (
    rule("private-key", r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----"
          r"(?:.*?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s:,\\-]*)",
          flags=re.DOTALL, hints=('private key',), check=pem_body),
    # the tail of a key whose BEGIN line was cut off (a clipped tool output)
    rule("private-key", r"(?:[A-Za-z0-9+/=]{24,}(?:\\n|\s)+)+[A-Za-z0-9+/=]*(?:\\n|\s)*"
          r"-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----", hints=('private key',)),
    rule("private-key", r"(private-lines:\s*\d+\s*\n)(?:[a-z0-9+/=]+\n?)+", keep=1,
          hints=('private-lines',), lower=True, back=0),
    rule("private-key", r"(untrusted comment: [^\n]{0,300}secret key\s*\n)[a-z0-9+/=]{40,}", keep=1,
          hints=('untrusted comment:',), lower=True, back=0),
    rule("private-key", r"(\"(?:d|p|q|dp|dq|qi|k)\"\s*:\s*\")[a-z0-9_-]{20,}", keep=1,
          hints=('"kty"',), lower=True),
    rule("azure-key", r"((?:accountkey|sharedaccesskey)=)[a-z0-9+/=]{20,}", keep=1,
          hints=('accountkey=', 'sharedaccesskey='), lower=True, back=0,
          check=lambda v: v not in PUBLISHED),
    rule("azure-key", r"(?<![a-z0-9_~.])[a-z0-9_~.]{3}\dq~[a-z0-9_~.-]{31,34}", hints=('q~',),
          lower=True, back=4),
    # a signature or an OAuth code in a URL; not a playground's source (code=use%20std…,
    # code=<base64 of a script>)
    rule("signed-url", r"([?&](?:sig|code)=)[a-z0-9%+/=_-]{20,}", keep=1,
          hints=('sig=', 'code='), lower=True, back=1, check=not_encoded_text),
    rule("cloud-token", r"1//0[A-Za-z0-9_-]{40,}", hints=('1//0',), back=0),
    rule("chat-token", r"(?<!\d)\d{8,10}:AA[A-Za-z0-9_-]{33}", hints=(':aa',), back=10),
    rule("chat-token", r"(?<![A-Za-z0-9_-])[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\."
          r"[A-Za-z0-9_-]{27,40}",
          hints=('discord', 'bot_token', 'bot token', 'client.run', 'bot.run', 'bot.start',
                 'token', 'токен')),
    rule("secret-manager-token", r"(?<![a-z0-9])[a-z0-9]{14}\.atlasv1\.[a-z0-9_=-]{60,}",
          hints=('.atlasv1.',), lower=True, back=14),
    rule("secret-manager-token", r"(?<![\w.])0\.[0-9a-f-]{36}\.[A-Za-z0-9]{30}:"
          r"[A-Za-z0-9+/]{20,}=*", hints=('0.',), back=0),
    rule("webhook", r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/"
          r"\d+/[a-z0-9_-]+", hints=('/api/webhooks/',), lower=True),
    rule("webhook", r"https://hooks\.slack\.com/(?:services|workflows)/[a-z0-9/_-]++(?!…|\.\.\.)",
          hints=('hooks.slack.com',), lower=True, back=8, check=not_placeholder),
    rule("webhook", r"https://[a-z0-9-]+\.webhook\.office\.com/webhookb2/[^\s\"'<>]+",
          hints=('.webhook.office.com',), lower=True, check=not_placeholder),
    rule("webhook", r"https://hook\.(?:[a-z0-9]+\.)?(?:integromat|make)\.com/[a-z0-9]{20,}",
          hints=('integromat.com', 'make.com'), lower=True),
    rule("sentry-dsn", r"(https?://[0-9a-f]{32}:)[0-9a-f]{32}(?=@[^\s/]*sentry)", keep=1,
          hints=('sentry',), lower=True),
    rule("cookie", r"((?:^|(?<=[\s\"']))cookie\s*:\s*[\"']?)(?=[^\s=;,]+=)[^\n\"']{8,}",
          keep=1, hints=('cookie',), lower=True, back=4, check=lambda v: secret_cookie(v)),
    # a server's Set-Cookie sets one cookie: its attributes after it stay (path, Max-Age…)
    rule("cookie", r"((?:^|(?<=[\s\"']))set-cookie\s*:\s*[\"']?)(?=[^\s=;,]+=)[^\n\"';]{8,}",
          keep=1, hints=('set-cookie',), lower=True, back=4, check=lambda v: secret_cookie(v)),
    # curl -u user:pw, --user user:pw: the user stays
    # (not date's -u +%Y-%m-%dT%H:%M:%SZ, quoted or not: a format, no user; not python -u
    # "c:\Users\…": a drive)
    rule("basic-auth", r"((?:\s-u\s*|--user[\s=]+)(?![\"']?\+?%)(?![\"']?[A-Za-z]:\\)"
          r"(?![\"']?[\w.+-]+:(?:[\w.+-]+:)?//)"  # beeline's -u "jdbc:hive2://…": a URL
          r"[\"']?[^\s:\"'%]+:['\"]?)[^\s\"'\\]+",
          keep=1,
          hints=(' -u', '--user'), check=is_value, back=0),
    # …quoted, spaces in it (WordPress's application passwords: six groups of four)
    rule("basic-auth", r"((?:\s-u\s*|--user[\s=]+)([\"'])(?!\+?%)(?![\w.+-]+:(?:[\w.+-]+:)?//)"
          r"[^\s:\"']+:)([^\"'\n]+)(?=\2)",
          keep=1,
          hints=(' -u', '--user'), check=is_value, back=0),
    rule("cli-password", r"(\bmysql(?:dump|admin)?\b[^\n]{0,300}?\s-p)(?!\s)([^\s\"']+)", keep=1,
          hints=('mysql',), back=0,  # not "-p`", not a variable ("-p$pwd`"), no template
          check=lambda v: bool(v.strip("`)*_")) and not v.startswith(("{{", "{%", "${"))
          and not re.fullmatch(r"\$\{?\w+\}?", v.strip("`'\""))),
    rule("cli-password", r"(\bsshpass\s+-p\s*)(\S+)", keep=1, hints=('sshpass',), back=0,
          check=lambda v: not v.startswith(("`", "$(", "{{"))),  # a command's output, a template
    rule("cli-password", r"(\blogin\b[^\n]{0,300}?\s(?:-p|--password)(?:\s+|=))(?!-)(\S+)", keep=1,
          hints=('login',), check=is_value, back=0),
    rule("cli-password", r"(\bconfigure\s+set\s+[\w.-]*(?:secret|token|password|key)[\w.-]*"
          r"\s+)(\S+)", keep=1, hints=('configure',), lower=True, check=is_value, back=0),
    rule("cli-password", r"(\bhtpasswd(?=[^\n]{0,300}\s-\w*b)(?:\s+-\w+)*\s+\S+\s+\S+\s+)(\S+)",
          keep=1, hints=('htpasswd',), back=0),
    rule("cli-password", r"(\bredis-cli\b[^\n]{0,300}?\s-a\s+)(\S+)", keep=1, hints=('redis-cli',),
          check=is_value, back=0),  # not '-a \\"$REDIS_PASSWORD\\"' in a transcript
    rule("cli-password", r"((?:-pass(?:in|out)?|-passwd|-k)\s+pass:)(\S+)", keep=1,
          hints=('-pass', '-k'), back=0),
    rule("cli-password", r"(-(?:store|key|srcstore|deststore|srckey|destkey)pass\s+)(\S+)",
          keep=1, hints=('-store', '-key', '-src', '-dest'), back=0),
    rule("cli-password", r"(\bsqlcmd\b[^\n]{0,300}?"
          r"\s-P\s*)(\S+)", keep=1, hints=('sqlcmd',), back=0),
    rule("cli-password", r"(\bldap\w+\b[^\n]{0,300}?\s-w\s+)(\S+)", keep=1, hints=('ldap',),
          check=is_value, back=0),
    rule("cli-password", r"((?:\s-U\s*|--user[= ])[^\s%/]+%)(\S+)", keep=1,
          hints=(' -u', '--user'), check=is_value, back=0),
    rule("cli-password", r"(\b(?:zip|unzip)\b[^\n]{0,300}?"
          r"\s-P\s*|\b(?:7z|7za|rar|unrar)\b[^\n]{0,300}?"
          r"\s-p)(?!-)(\S+)", keep=1, hints=('zip', 'unzip', '7z', 'rar', 'unrar'),
          check=is_value, back=0),
    rule("cli-password", r"(\bsecret\s+set\s+\S+\s+(?:-b|--body)[\s=]+)(\S+)", keep=1,
          hints=('secret set',), check=is_value, back=0),
    rule("cli-password", r"(\b(?:requirepass|masterauth)\s+)(\"[^\"\n]*\"|\S+)", keep=1,
          hints=('requirepass', 'masterauth'), lower=True,
          check=lambda v: is_value(v) or v.startswith("/") and looks_random(v), back=0),
    # `mongosh … -u admin -p PW`, `psql -U x -p …` is a port (a number: no value)
    rule("cli-password", r"(\s-u\s*[\"']?[^\s\"']+[\"']?\s+-p[ \t]*)(?!-)([^\s\"\\]+)", keep=1,
          hints=(' -u',), back=0,  # `mysql -u root -p db` asks for it, and so with `shop_db`;
          # the next line is its prompt ("mysql> …"), not the password
          # a usage text lists flags ("-usr/--username, -psw/--password")
          check=lambda v: said_secret(v) and "/--" not in v and
          not re.fullmatch(r"[a-z]+(?:_[a-z0-9]+)+", v)),
    # a Wi-Fi key: in a join-network QR string, and as Windows shows a saved profile's
    rule("wifi-key", r"(\bwifi:(?:[a-z]:[^;\n]*;)*?p:)((?:\\.|[^;\\\n])+)(?=;)", keep=1,
          hints=('wifi:',), lower=True, check=is_value, back=0),
    rule("wifi-key", r"(\bkey content\s*:[ \t]*)(\S+)", keep=1, hints=('key content',),
          lower=True, check=passphrase, back=0),
    # a token announced at the end of a line ("the unseal key:", "token'ı burada, …:")
    # and given alone on the next
    rule("announced", r"^((?=[^\n]{0,200}(?::|👇|⬇️?|↓)[ \t]*\r?\n" + CHAT +
          r"[a-z0-9+/=_.~-]{16,}[ \t]*(?:\r?\n|$))"
          r"(?=[^\n]{0,300}?(?:key|token|passw|secret|kennwort|schlüssel|sleutel|nyckel|nøkkel|"
          r"nøgle|klucz|anahtar|chave|clave|contraseña|"
          r"mot de passe|senha|chiave|şifre|wachtwoord|lösenord|hasło|пароль|ключ|токен|密码|"
          r"密钥|パスワード|비밀번호))(?![^\n]{0,300}(?:accessor|\bid\b|hash|digest|fingerprint|"
          r"checksum|public|publishable))[^\n]{0,200}(?::|👇|⬇️?|↓)[ \t]*\r?\n" + CHAT + ")"
          r"([a-z0-9+/=_.~-]{16,})[ \t]*(?=\r?\n|$)", keep=1,
          hints=('key', 'token', 'passw', 'secret', 'kennwort', 'schlüssel', 'sleutel', 'nyckel',
                 'nøkkel', 'nøgle', 'klucz', 'anahtar', 'chave', 'clave',
                 'contraseña', 'mot de passe', 'senha', 'chiave', 'şifre', 'wachtwoord',
                 'lösenord', 'hasło', 'пароль', 'ключ', 'токен', '密码', '密钥', 'パスワード',
                 '비밀번호'), lower=True, check=announced_value, flags=re.M),
    # a Kubernetes secret decoded on the command line: its value is the next line
    rule("k8s-secret", r"(\bget secrets?\b[^\n]{0,300}\bbase64 (?:-d|--decode|-D)\b[^\n]{0,300}"
          r"\r?\n"
          r"(?:[^\n]{0,300}?\"content\":\s*\")?)([^\s\"]{8,})", keep=1,  # or a transcript's result
          hints=('base64 -d', 'base64 --decode', 'base64 -d'),
          lower=True, check=is_value, back=300),
    # Windows: `net use Z: \\server\share /user:DOMAIN\name PASSWORD`
    rule("cli-password", r"(\bnet use\b[^\n]{0,300}?/user:\S+[ \t]+)(?![/*])(\S+)", keep=1,
          hints=('net use',), lower=True, check=is_value, back=0),
    # "… and password `…`" in prose, in several languages
    rule("password", r"(\b(?:password|passwort|kennwort|contraseña|senha|mot de passe|"
          r"wachtwoord|lösenord|hasło|пароль)\s+(?:is\s+|è\s+|es\s+|ist\s+|é\s+)?`)"
          r"([^`\n]{6,})(?=`)", keep=1, hints=('passw', 'kennwort', 'contraseña', 'senha',
                                                'mot de passe', 'wachtwoord', 'lösenord',
                                                'hasło', 'пароль'),
          lower=True, check=said_secret, back=0),  # not "recover-password `email_log`"
    # a session cookie by its name, as devtools or a test's output shows it
    rule("cookie", r"(\b(?:[a-z]{2,12}session|session|sessionid|session_id|connect\.sid|phpsessid|"
          r"jsessionid|laravel_session|_session|remember_token|"
          r"wordpress_(?:logged_in|sec)_[0-9a-f]{32})=)([^;\s\"'`]{16,})", keep=1,
          hints=('session', 'connect.sid=', 'remember_token=', 'wordpress_'), lower=True,
          check=lambda v: is_value(v) and not payload(v), back=60),
    # an XML element named for a secret: <pre-shared-key>…</pre-shared-key>, <password>…
    rule("password", r"(<([a-z_:-]*(?:password|passwd|secret|pre-shared-key|preshared[_-]?key|"
          r"psk|api[_-]?key|auth[_-]?token|access[_-]?token)[a-z_-]*|pass)(?:\s[^<>\n]*)?>)"
          r"([^<\n]{6,})(?=</\2>)",  # FileZilla's <Pass encoding="base64">
          keep=1, hints=('password>', 'passwd>', 'secret>', 'key>', 'psk>', 'token>', '<pass '),
          lower=True, check=is_value, back=60),
    # OpenWrt's `option key '…'`; Cisco's cleartext `secret 0 …`, `password 0 …`
    rule("password", r"(\boption\s+(?:key|password|sae_password|wpa_passphrase|auth_secret)"
          r"\s+[\"'])([^\"'\n]+)(?=[\"'])", keep=1, hints=('option key', 'option password',
                                                    'option sae_password',
                                                    'option wpa_passphrase',
                                                    'option auth_secret'),
          lower=True, check=is_value, back=0),
    rule("password", r"(\b(?:secret|password)\s+0\s+)(\S+)", keep=1,
          hints=('secret 0 ', 'password 0 '), lower=True, check=is_value, back=0),
    # Cisco's type 7 password: a reversible encoding, as good as the password itself
    rule("password", r"(\b(?:password|key)\s+7\s+)([0-9a-f]{8,})\b", keep=1,
          hints=('password 7 ', 'key 7 '), lower=True, back=0),
    # a game server's or a tool's single-dash flag: `-password "…"`, `-pass …`
    rule("flag", r"((?<![\w-])-(?:password|passwd|pass|pw|rcon[_-]?password)[ \t=]+)"
          r"(\"[^\"\n]+\"|'[^'\n]+'|[^\s\"'-][^\s\"']*)", keep=1,
          hints=('-password', '-passwd', '-pass ', '-pw ', '-rcon'), lower=True,
          check=is_value, back=0),
    # a config line `name "value"` whose name is a password's (Source's rcon_password)
    rule("password", r"(?m)(^[ \t]*[\w.]*(?:password|passwd)[ \t]+)(\"[^\"\n]+\"|'[^'\n]+')",
          keep=1, hints=('password ', 'passwd '), lower=True, check=is_value, back=40),
    # ssh-keygen's new passphrase
    rule("flag", r"(\bssh-keygen\b[^\n]{0,300}?\s-N\s+)('[^'\n]+'|\"[^\"\n]+\"|[^\s'\"-]\S*)",
          keep=1, hints=('ssh-keygen',), check=is_value, back=0),  # -N, not -n (principals)
    # a secret piped into the tool that takes it: `printf '%s' '…' | docker secret create`
    rule("password", r"(\b(?:printf\s+'%s'|printf\s+\"%s\"|echo(?:\s+-n)?)\s+)"
          r"('[^'\n]+'|\"[^\"\n]+\")(?=\s*\|\s*(?:docker|podman)\s+secret|\s*\|\s*gpg\b"
          r"|\s*\|\s*cryptsetup|\s*\|\s*openssl)", keep=1,
          hints=('| docker secret', '| podman secret', '| gpg', '| cryptsetup', '| openssl'),
          lower=True, check=is_value, back=None),
    # `cat` of a file named for a secret, its content the next line
    rule("password", r"(\bcat\s+(?!\S*htpasswd)(?!/etc/passwd\b)(?!\S*\.enc\b)\S*(?:password|"
          r"passwd|secret|token|api[_-]?key|"
          r"credential|creds\b|(?<![a-z])pass(?![a-z])|_pass\b|private)"
          r"[^\s)]*(?:[ \t]+[^\s|;&)]+)*[ \t]*\r?\n)(?!-----)([^\s]{8,})(?=[ \t]*(?:\r?\n|$))",
          keep=1,  # not a script's $(cat …) (its next line is the script's)
          hints=('cat ',), lower=True, check=is_value, back=0),
    *ANNOUNCED,
    *TOOLS,
    *DUMPS,
    # SNMP communities in snmpd.conf (rocommunity SECRET 10.0.0.0/24)
    rule("password", r"(\b(?:ro|rw)community6?[ \t]+)(\S+)", keep=1,
         hints=('rocommunity', 'rwcommunity'), lower=True,
         check=lambda v: is_value(v) and v.lower() not in ("public", "private"), back=0),
    # a PIN given after its name (a card's, a phone's, a door's, an alarm's)
    rule("pin", r"((?<![A-Za-z])(?:[MT]?PIN\d?|PUK\d?|(?i:pin-code|code pin|pin-kode|disarm code|"
          r"door code|gate code|alarm code|keypad code)|पिन|暗証番号)(?![A-Za-z])"
          r"(?:(?!über|via\b|call|anruf|nummer|number|tel\b|hotline|ending|endet)[^\n\d.;(?!]){0,60}?)"
          r"(\d{4}-\d{4}(?![\d-])|\d{4,8}(?!\d|[.,:/-]\d))", keep=1,
          hints=('pin', 'puk', 'disarm code', 'door code', 'gate code', 'alarm code',
                 'keypad code', 'पिन', '暗証番号'), check=pin_value, back=1),  # MPIN
    # …and after its label's colon, whatever stands between ("UPI पिन (SBI खाता): 999244")
    # (a NIP of ten digits is Poland's tax number, not Mexico's PIN)
    rule("pin", r"((?<![A-Za-z])(?:[MTI]?PIN\d?|PUK\d?|NIP(?![^\n:：]{0,60}[:：][ \t]*\d{7})|"
          r"(?i:pin-code|code pin|pin-kode)|पिन|"
          r"暗証番号|(?i:пин(?:-код)?|пін|পিন|ፒን|namba ya siri|رمز الدخول|رمز سري))"
          r"(?![A-Za-z])[^\n:：]{0,60}[:：][ \t]*)(\d{4,12})(?![\d.,:/-])", keep=1,
          hints=('pin', 'puk', 'nip', 'पिन', '暗証番号', 'пин', 'пін', 'পিন', 'ፒን', 'namba ya siri',
                 'رمز الدخول', 'رمز سري'), check=pin_value, back=1),
    # a lower-case "pin" right before its digits ("EcoCash pin 8894", "transaction pin na 6920")
    rule("pin", r"(\b(?:[a-z]+ )?pin(?: na| is| ni| ya)?[ \t]+)(\d{4,8})"
          r"(?=[ \t]*(?:$|\r?\n|[—–,;!)]|\.(?!\d)|[ \t][—–-][ \t]))",  # "pin 2048 does not" stays
          keep=1, hints=('pin',), lower=True, check=pin_value, back=16),
    # a PIN in a config file's line ("pin = 36679", a banking tool's INI)
    rule("pin", r"((?:^|(?<=\n))[ \t]*(?:pin|pincode|pin_code|pin-code)[ \t]*[=:][ \t]*)(\d{4,8})"
          r"[ \t]*(?=\r?\n|$)", keep=1, hints=('pin',), lower=True, check=pin_value, back=40),
    # a PIN of letters, both cases, after "PIN:" (an online bank's "dOmEt")
    rule("pin", r"((?<![A-Za-z])PIN[ \t]*[:：][ \t]*)"
          r"((?=[A-Za-z]*[a-z])(?=[A-Za-z]*[A-Z])[A-Za-z]{5,8})"
          r"(?=[ \t]*(?:\r?\n|$))", keep=1, hints=('pin',), back=1),
    # a KeePass XML export's password entry
    # (a KDBX's inner XML: a Protected="True" value is XOR'd with its stream, no password)
    rule("password", r"(<key>(?:password|passwort|kennwort)</key>\s*"
          r"<value(?![^>]*protected=\"true\")[^>]*>)([^<\n]+)"
          r"(?=</value>)", keep=1, hints=('<key>password</key>', '<key>passwort</key>',
                                          '<key>kennwort</key>'),
          lower=True, check=is_value, back=0),
    # a one-time-password seed (base32): in an otpauth:// URI, handed to pyotp or oathtool
    rule("totp-seed", r"((?:otpauth://[th]otp/[^\s?]*\?(?:[^\s#&]*&)*secret=)|"
          r"(?:pyotp\.[th]otp\(\s*[\"'])|(?:\boathtool\b[^\n]{0,300}?(?:\s-b|--base32)"
          r"(?:\s+-[\w-]+)*\s+))([a-z2-7]{16,}=*)(?![a-z0-9])", keep=1,
          hints=('otpauth', 'pyotp', 'oathtool'), lower=True, check=is_value, back=0),
    # a Vault unseal key, as `vault operator init` prints it
    rule("secret-manager-token", r"(unseal key(?: \d+)?:\s*)([a-z0-9+/=]{40,})", keep=1,
          hints=('unseal key',), lower=True, back=0),
    # a key handed to a client in code: `cohere.Client("…")`, `Api(token="…")`
    rule("api-key", r"((?:client|api|sdk|session)\(\s*(?:(?:api_)?key\s*=\s*|token\s*=\s*)?"
          r"[\"'])([a-z0-9_-]{24,})(?=[\"'])", keep=1,
          hints=('client(', 'api(', 'sdk(', 'session('), lower=True, check=looks_random,
          back=0),
    # a webhook's secret path: Zapier's catch hooks, Mattermost's and Rocket.Chat's ids
    rule("webhook", r"(/hooks/catch/\d+/)([a-z0-9]{5,})", keep=1, hints=('/hooks/catch/',),
          lower=True, back=0),
    rule("webhook", r"(/hooks/)([a-z0-9]{26})(?![a-z0-9/])", keep=1, hints=('/hooks/',),
          lower=True, check=looks_random, back=0),
    # a .pgpass line: host:port:database:user:password
    # .pgpass: host:port:db:user:password, also as an agent's file read shows it ("00001| …",
    # "     1→…") inside a JSON string
    rule("password", r"((?:^|(?<=\n)|(?<=\\n))(?:[ \t]*\d+(?:\||→|\t)[ \t]?)?"
          r"[\w.*-]+:(?:\d{2,5}|\*):[^:\s]+:[^:\s]+:)([^\s\\]+)(?=[ \t]*(?:\r?\n|\\n|$))", keep=1,
          hints=('pgpass', ':5432:', ':5433:', ':6432:', ':*:'),
          check=lambda v: is_value(v) and ":/" not in v),  # not /etc/passwd's "Jamie:/home/…"
    # SQL: CREATE/ALTER USER|ROLE … PASSWORD '…', IDENTIFIED BY '…'
    rule("password", r"(\b(?:create|alter)\s+(?:user|role|login)\b[^;\n]*?"
          r"\b(?:password\s*=?\s*|identified\s+by\s+)(['\"]))([^'\"\n]+)(?=\2)", keep=1,
          hints=('create', 'alter'), lower=True, check=is_value, back=0),
    # NEO4J_AUTH: neo4j/pw: an `…_AUTH` value given as user/password
    rule("password", r"([a-z0-9_]*_auth[\"']?\s*[:=]\s*[\"']?[\w.@-]+[/:])([^\s\"']+)", keep=1,
          hints=('_auth',), lower=True, check=is_value, back=30),
    # Go's DSN: user:password@tcp(host)/db
    rule("url-password", r"(\b[\w.-]+:)([^@\s\"':/]+)(?=@(?:tcp|unix|udp)\()", keep=1,
          hints=('@tcp(', '@unix(', '@udp('), lower=True, check=is_value),
    # a signature or a token in a URL's query string, or an AWS request's signature (an old
    # Google Sheets link's ``ccc?key=`` is the sheet's id)
    rule("signed-url", r"([?&](?:x-amz-signature|x-goog-signature|x-amz-security-token|"
          r"signature|access_token|api_key|apikey|token|(?<!/ccc\?)(?<!/pub\?)key|auth_token|client_secret|secret|"
          r"password|passwd|pwd|private_token|appid|app_key|subscription-key|access_key|"
          r"accesskey)=)([a-z0-9%+/=_.!*~-]{6,}?)(?=[&#\s\"'<>)]|$)",
          keep=1, hints=('signature=', 'security-token=', 'token=', 'key=', 'secret=',
                         'password=', 'passwd=', 'pwd=', 'appid='), lower=True, back=24,
          check=lambda v: is_value(v) and looks_random(v)),
    rule("signed-url", r"(\bsignature=)([a-f0-9]{64})", keep=1, hints=('signature=',),
          lower=True, back=10, check=is_value),
    # a Grafana public dashboard's address: its token is the only protection
    rule("signed-url", r"(/public-dashboards/)([a-z0-9_-]{32,})", keep=1,
          hints=('/public-dashboards/',), lower=True, back=0, check=looks_random),
    # Mailgun's private API key; Laravel's app key as `key:generate --show` prints it; the
    # user a Hue bridge gives an app, which is the path's first part after /api/
    rule("api-key", r"(?<![0-9a-f-])[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8}(?![0-9a-f-])",
          hints=('mailgun', 'mg.'), lower=True),
    rule("encryption-key", r"(?<![\w/+])base64:[A-Za-z0-9+/]{43}=", hints=('base64:',)),
    rule("api-key", r"(/api/)([a-z0-9-]{30,48})(?=/(?:lights|groups|config|sensors|scenes|"
          r"schedules|rules|resourcelinks|capabilities)\b)", keep=1, hints=('/api/',),
          lower=True, check=looks_random),
    # chat hooks whose path or key is the secret: Feishu/Lark, WeCom
    rule("webhook", r"(/open-apis/bot/v2/hook/)([a-z0-9-]{20,})", keep=1,
          hints=('/open-apis/bot/v2/hook/',), lower=True, back=0),
    # <password>…</password>, <apiToken>…</apiToken> in XML (Maven's settings.xml)
    rule("password", r"(<[\w.:-]*(?:password|passwd|passphrase|secret|token|apikey|api-key|"
          r"api_key|privatekey|private-key)[\w.-]*>)([^<\n]{4,}?)(?=</)", keep=1,
          hints=('password>', 'passwd>', 'passphrase>', 'secret>', 'token>', 'key>'),
          lower=True, check=is_value, back=40),
    # a Vault AppRole secret_id (a UUID, which alone is no secret)
    rule("secret-manager-token", r"(secret[_-]?id[\"']?\s*[:=]\s*[\"']?)"
          r"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})", keep=1,
          hints=('secret_id', 'secret-id', 'secretid'), lower=True, back=0),
    # Twilio's client built from an account SID and its auth token
    rule("api-key", r"([\"']ac[0-9a-f]{32}[\"']\s*,\s*[\"'])([0-9a-f]{32})(?=[\"'])", keep=1,
          hints=('"ac', "'ac"), lower=True, back=0),
    # Terraform: a variable named for a secret, with a default
    rule("password", r"(variable\s+\"[^\"\n]*(?:password|passwd|secret|token|key)[^\"\n]*\"\s*"
          r"\{[^}]*?\bdefault\s*=\s*\")([^\"\n]+)(?=\")", keep=1, hints=('variable "',),
          lower=True, check=is_value, back=0),
    # SMTP: the base64 answer to "Password:" (334 UGFzc3dvcmQ6), and AUTH PLAIN
    rule("password", r"(334 (?:ugfzc3dvcmq6|cgfzc3dvcmq6)\s*\r?\n\s*(?:c:\s*)?)([a-z0-9+/=]{4,})",
          keep=1, hints=('334 ugfzc3dvcmq6', '334 cgfzc3dvcmq6'), lower=True, back=0),
    rule("password", r"(\bauth plain\s+)([a-z0-9+/=]{8,})", keep=1, hints=('auth plain',),
          lower=True, back=0),
    # "Authorization: Bearer abc…", "-H 'X-Auth-Token: abc…'", "PRIVATE-TOKEN: abc…"
    rule("auth-header", r"((?:authorization|x-api-key|api-key|x-auth-token|private-token|"
          r"x-vault-token|x-access-token|x-shopify-access-token|x-goog-api-key|"
          r"ocp-apim-subscription-key|grpc-metadata-macaroon)"
          r"(?:[\"']?\s*[:=]\s*[\"']?|[\"'],[ \t]*[\"'])"
          r"(?:(?:bearer|basic|token|digest|bot|sso-key|ssws|apikey|key|splunk|pat|oauth|"
          r"hmac|mac|flyv1|kakaoak|sharedkey|deepl-auth-key|zoho-oauthtoken|"
          r"klaviyo-api-key|genie ?key)\s+(?=[^\s\"',;]{6}))?)"
          r"([^\s\"',;]{6,})", keep=1,
          hints=('authorization', 'x-api-key', 'api-key', 'x-auth-token', 'private-token',
                 'x-vault-token', 'x-access-token', 'x-shopify-access-token', 'x-goog-api-key',
                 'ocp-apim-subscription-key', 'grpc-metadata-macaroon'), lower=True,
          check=header_value, back=0),
    rule("auth-header", r"(\bauthorization:\s*(?:cpanel|whm)\s+[^:\s\"']+:)([a-z0-9]{20,})", keep=1,
          hints=('cpanel ', 'whm '), lower=True, check=is_value, back=20),
    rule("auth-header", r"(\b(?:bearer|basic)\s+)([a-z0-9._~+/=-]{16,})", keep=1,
          hints=('bearer', 'basic'), lower=True, check=random_value, back=0),
    # scheme://user:password@host (the scheme and the user stay)
    rule("url-password", r"(://[^/\s:@\"'\[]*:)(?!\d+/)((?:[^@\s\"']|@(?=[^@\s\"'/]*@))+)(?=@)",
          keep=1, hints=('://',), lower=True, check=is_value, back=0),
    # --password hunter2, --http-password=abc, --api-key=abc; -p 'x' is too short to trust
    rule("flag", r"(--[a-z-]*?(?:password|passwd|passphrase|token|api-key|apikey|secret|pass|"
          r"client-secret|"
          r"access-key|secret-key|auth-token|private-key)(?:=|[ \t]+))(?!-)"
          r"(\"[^\"]+\"|'[^']+'|[^\s\"']+)",
          keep=1, hints=('--',), lower=True, check=is_value, back=0),
    # a personal access token under "PAT": random only ("PAT: Integrations > API" is a path)
    rule("password", r"((?<![a-z])pat\\?[\"']?\s*(?::=|=|:(?!:))[ \t]*[\"'`]?)"
          r"([a-z0-9_.~+/=-]{16,})(?=[\s\"'`,;]|$)", keep=1, hints=('pat',), lower=True,
          check=random_value, back=0),  # not a call ("github_pat": regexp.MustCompile(…))
    # an env dump's NAME=value: the value runs to the line's end (Django keys hold "()")
    # (a line of a tool's output in a transcript starts after "content": " or an escaped break)
    rule("password", r"(?m)((?:^|(?<=\\n)|(?<=\": \"))[ \t]*(?:export[ \t]+|-[ \t]+)?[A-Z0-9_]*"
          r"(?:SECRET|PASSWORD|PASSWD|TOKEN|PW(?=[_=])|"
          r"API_KEY|APIKEY|PRIVATE_KEY|AUTH)[A-Z0-9_]*(?<!_ID)(?<!_URL)(?<!_URI)(?<!_DOMAIN)"
          r"(?<!_AUDIENCE)(?<!_SCOPE)(?<!_ISSUER)(?<!_HOST)(?<!_USER)(?<!_NAME)"
          # how a login is made, not its secret: AUTHTYPE=database, AUTH_METHOD=ldap
          r"(?<!TYPE)(?<!MODE)(?<!METHOD)(?<!_PROVIDER)(?<!_BACKEND)(?<!_STRATEGY)=[\"']?)"
          r"((?:(?!\\[nrt\"])[^\s\"'])+)(?=[\"']?[ \t]*$|\\[nrt]|\\?\")",
          keep=1,
          hints=('secret', 'passw', 'token', 'api_key', 'apikey', 'private_key', 'auth', 'pw=',
                 'pw_'),
          check=is_value),
    # an access key's id under its name, twenty capitals and digits as AWS's and its
    # look-alikes issue them (Naver's, Huawei's, an S3-compatible store's)
    rule("access-key-id", r"((?i:access[_ -]?key[_ -]?id|accesskeyid|(?<![a-z0-9-])ak)[\"']?"
          r"(?:[ \t]*\[[^\]\n]{0,20}\])?[ \t]*[:=][ \t]*[\"']?)([A-Z0-9]{20}|[0-9a-f]{32})"
          r"(?![A-Za-z0-9])", keep=1,
          hints=('access_key_id', 'accesskeyid', 'access-key-id', 'access key id', 'ak =', 'ak=',
                 'ak:', 'ak :'),
          check=lambda v: sum(c.isdigit() for c in v) >= 2 and sum(c.isalpha() for c in v) >= 6,
          back=40),
    # NAME = value, NAME: value, "name": "value", export NAME=value: the name ends in a
    # secret's word (``DB_PASSWORD``, ``aws_secret_access_key``; ``max_tokens`` and
    # ``secret_name`` are not secrets' names); looked for only where a separator follows
    rule("password", r"((?<![:/])(?<!existing)(?<!existing_)(?<!existing-)(?<!progress)"
          r"(?<!page)(?<!page_)(?<!continuation)(?<!sync)(?<!cancellation)(?<!public_)"
          r"(?<!public)(?<!public-)" + KEY_WORDS
          + r"\\?[\"']?\]?\s*(?::=|=>|=|:(?!:))[ \t]*(?:&\[u8\]\s*=\s*|&(?:'static\s+)?str\s*=\s*|"
          r"(?:string|str|bytes)\s*=\s*)?(?:\[\]byte\(|b(?=\"))?"
          r"(?:\\\"|\"|')?)"
          # unquoted, three words in a row are a sentence ("Password: chiedere a Giulia")
          r"(?!\[redacted:)(?:(?<=[\"'])|(?![^\W\d_]+(?:-[^\W\d_]+)*(?:[ \t]+[`\"'(/]?[^\W\d_]|"
          r",[ \t]+[^\W\d_])))"
          + VALUE, keep=1,
          hints=("pass", "pwd", "pw", "secret", "token", "key", "cred", "psk", "authtok", "sk",
                 "totp", "_auth", "auth:", "auth :"),
          lower=True, check=is_value, back=24, gate=ANY_SEP),
    # a wallet's key: WIF (5…, K…, L…), a 64-byte key in base58 (Solana), where a wallet is
    # named
    rule("private-key", r"(?<![A-Za-z0-9+/=_-])[5KL][1-9A-HJ-NP-Za-km-z]{50,51}"
          r"(?![A-Za-z0-9+/=_-])",
          hints=('wif:', 'wif ', 'wif)', 'privkey', 'private key', 'wallet', 'bitcoin', 'solana',
                 'phantom', 'keypair', 'secret key'),
          check=lambda v: looks_random(v) and v not in PUBLISHED),
    # a 64-byte key in base58 only where a key is named: a transaction's signature (`solana
    # confirm …`) has the same shape
    rule("private-key", r"(?<![A-Za-z0-9+/=_-])[1-9A-HJ-NP-Za-km-z]{86,88}(?![A-Za-z0-9+/=_-])",
          hints=('privkey', 'private key', 'phantom', 'keypair', 'secret key', 'export'),
          check=looks_random),
    # a seed phrase: twelve to twenty-four words after its name
    rule("seed-phrase", r"((?:seed|recovery|secret|backup|mnemonic|wiederherstellungsphrase|"
          r"phrase de récupération|frase de recuperación|frase semente|frase di recupero|"
          r"мнемоническая фраза|сид-фраза|助记词|シードフレーズ|복구 구문|frase semilla|semilla|"
          r"recovery sheet|återställningsfras|herstelzin|frase de recuperação|"
          r"фраза восстановления|сід-фраза|мнемонічна фраза)(?: phrase| words)?"
          r"[^\n:=]{0,80}?(?:[:=]|\bis\b)\s*[\"']?(?:```\w*\s*)?)"
          r"((?:[a-zñáéíóúü]{3,8}(?:[ \t]+|[ \t]*\r?\n(?:```[ \t]*\r?\n)?[ \t]*)){11,23}"
          r"[a-zñáéíóúü]{3,8})",
          keep=1, hints=('seed', 'recovery', 'mnemonic', 'secret phrase', 'backup phrase',
                         'wiederherstellungsphrase', 'phrase de récupération',
                         'frase de recuperación', 'frase semente', 'frase di recupero',
                         'мнемоническая фраза', 'сид-фраза', '助记词', 'シードフレーズ',
                         '복구 구문', 'semilla', 'recovery sheet', 'återställningsfras',
                         'herstelzin', 'frase de recuperação', 'фраза восстановления',
                         'сід-фраза', 'мнемонічна фраза'),
          lower=True, back=0,  # a test vector repeats its words ("abandon … about")
          check=lambda v: len(set(v.split())) > len(v.split()) // 3 and
          " ".join(v.split()) not in PUBLISHED_PHRASES),
    # session cookies: `curl -b 'sessionid=…'`, `document.cookie = "session=…"`, PHPSESSID=…
    rule("cookie", r"((?:\s-b|--cookie)[\s=]+[\"']?[\w.-]+=)([^\s;\"']{16,})", keep=1,
          hints=(' -b', '--cookie'),  # ldapsearch's -b is a base DN, not a cookie
          check=lambda v: is_value(v) and not re.search(r"(?i)\b(?:dc|ou|cn|o)=", v), back=0),
    rule("cookie", r"(document\.cookie\s*=\s*[\"'`][\w.-]+=)([^;\"'`\s]{16,})", keep=1,
          hints=('document.cookie',), lower=True, check=is_value, back=0),
    rule("cookie", r"((?<![a-z0-9_])(?:phpsessid|jsessionid|sessionid|session_id|connect\.sid|"
          r"laravel_session|[a-z0-9_]*_session)\s*[=:]\s*[\"']?)([^\s;\"',]{16,})", keep=1,
          hints=('phpsessid', 'jsessionid', 'sessionid', 'session_id', 'connect.sid',
                 '_session'), lower=True,
          check=lambda v: is_value(v) and not UUID.fullmatch(v) and not payload(v),
          back=16),
    # passwords on command lines: sqlplus user/pw@db, rabbitmqctl, net user, chpasswd,
    # mosquitto and ipmitool -P, lftp -u user,pw
    rule("cli-password", r"(\bsqlplus\s+(?:-\w+\s+)*[\w.$#]+/)([^@\s/]+)", keep=1,
          hints=('sqlplus',), lower=True, check=is_value, back=0),
    rule("cli-password", r"(\brabbitmqctl\s+(?:add_user|change_password)\s+\S+\s+)(\S+)",
          keep=1, hints=('rabbitmqctl',), lower=True, check=is_value, back=0),
    # net user NAME PASSWORD [/add], a command (first on its line, after a prompt, RUN, && or
    # ;): not "net user /domain NAME", a table's description, "dot net user group interlude"
    rule("cli-password", r"((?:^|(?<=[>$`\n])|(?<=\brun )|(?<=&& )|(?<=; ))[ \t]*"
          r"net[ \t]+user[ \t]+(?!/)\S+ +)(?![/*])(\S+)(?=[ \t]*(?:/|\r?\n|$))",
          keep=1, hints=('net user',), lower=True, check=is_value, back=12),
    rule("cli-password", r"(\becho\s+[\"']?[\w.-]+:)([^\s\"'|]+)(?=[\"']?\s*\|\s*(?:sudo\s+)?"
          r"chpasswd)", keep=1, hints=('chpasswd',), check=is_value),
    rule("cli-password", r"(\b(?:mosquitto_\w+|ipmitool)\b[^\n]{0,300}?\s-P\s+)(\S+)", keep=1,
          hints=('mosquitto_', 'ipmitool'), check=is_value, back=0),
    rule("cli-password", r"(\blftp\b[^\n]{0,300}?\s-u\s+[^\s,]+,)([^\s\"']+)", keep=1,
          hints=('lftp',), check=is_value, back=0),
    # a webhook whose last path segment is its secret (n8n, Rocket.Chat, self-hosted tools)
    rule("webhook", r"(/(?:webhooks?|hooks)/(?:[a-z0-9_-]+/)*?)([a-z0-9_-]{20,})"
          r"(?=[\s\"'<>)?#]|$)", keep=1, hints=('/webhook', '/hooks/'), lower=True,
          check=lambda v: hook_secret(v), back=0),
    # a secret piped into a login: `echo … | az devops login`, `… | docker login --password-stdin`,
    # `echo … | sudo -S apt-get …` (sudo reads the password from its input)
    rule("cli-password", r"(\becho\s+[\"']?)([^\s\"'|]{6,})(?=[\"']?\s*\|\s*(?:sudo\s+-s\b|"
          r"(?:sudo\s+)?(?:[^\n|]*\blogin\b|[^\n|]*--password-stdin|[^\n|]*--with-token|"
          r"[^\n|]*chpasswd)))",
          keep=1, hints=('login', 'password-stdin', 'with-token', 'sudo -s'), lower=True,
          check=is_value),
    rule("secret-manager-token", r"(\bvault\s+operator\s+unseal\s+(?:-\S+\s+)*)"
          r"([a-z0-9+/=]{20,})", keep=1, hints=('operator unseal',), lower=True, back=6),
    # RDP clients: xfreerdp /p:'…'
    rule("cli-password", r"(\s/p:[\"']?)(?![\w.]+=)([^\s\"']+)", keep=1, hints=('/p:',),
          check=is_value, back=1),  # not msbuild's /p:Configuration=Release
    # msmtp, .netrc: `password VALUE` on a line (a Google app password is four words)
    # (not a test runner's verdict: "PASS  Tests\Feature\WalletTest", "PASS src/app.test.ts")
    rule("password", r"(?m)(^[ \t]*(?i:password|passwd|passphrase|"
          r"pass(?!(?-i:[ \t]+[A-Z]\w*[\\/.])))"
          r"[ \t]+)((?:[a-z]{4} ){3}[a-z]{4}|[^\s=:]\S*)[ \t]*$", keep=1,
          hints=('pass',), check=said_secret, back=16),
    # a user and a password joined in one string (`CURLOPT_USERPWD, "admin:…"`)
    rule("password", r"((?:userpwd|userpass|user_pass|basic_auth)\W{1,6}[\"'][^:\"'\s]+:)"
          r"([^\"'\s]+)(?=[\"'])", keep=1, hints=('userpwd', 'userpass', 'user_pass', 'basic_auth'),
          lower=True, check=is_value, back=0),
    rule("password", r"(convertto-securestring\s+(?:-string\s+)?[\"'])([^\"'\n]+)(?=[\"'])",
          keep=1, hints=('convertto-securestring',), lower=True, check=is_value, back=0),
    # Postman's exported auth: {"key": "value", "value": "…"}
    rule("api-key", r"(\"key\"\s*:\s*\"(?:value|[\w-]*(?:token|password|apikey|api_key|secret))\""
         r"\s*,\s*"
          r"\"value\"\s*:\s*\")([^\"\n]{6,})(?=\")", keep=1, hints=('"key"',), lower=True,
          check=is_value, back=0),
    # `snyk config set api=…`, `npm config set //…:_authToken=…`: a key set on a CLI
    rule("cli-password", r"(\bconfig\s+set\s+[\w.:/-]*(?:api|token|key|secret|password|auth)"
          r"[\w.-]*[=\s]+)(\S+)", keep=1, hints=('config set',), lower=True, check=is_value,
          back=0),
    rule("cli-password", r"(snmp-server\s+community\s+)(\S+)", keep=1, hints=('snmp-server',),
          check=lambda v: is_value(v) and v.lower() not in ("public", "private"), lower=True,
          back=0),
    rule("password", r"(:\s*psk\s+[\"']?)([^\"'\n]+?)(?=[\"']?\s*$)", keep=1,
          hints=(': psk',), lower=True, check=is_value, back=2, flags=re.MULTILINE),
    rule("cli-password", r"(\bnmcli\b[^\n]{0,300}?\spassword\s+[\"']?)([^\"'\s]+)", keep=1,
          hints=('nmcli',), lower=True, back=0,
          check=lambda v: is_value(v) or v.isdigit() and len(v) >= 8),  # a Wi-Fi key of digits
    # a wallet's key where a tool keeps it: Hardhat's accounts, a Solana keypair file, an
    # RPC provider's key in its URL
    rule("private-key", r"(accounts\s*:\s*\[\s*[\"'])(0x[0-9a-f]{64})", keep=1,
          hints=('accounts',), lower=True, back=0),
    rule("private-key", r"\[(?:\s*\d{1,3}\s*,){63}\s*\d{1,3}\s*\]",
          hints=('id.json', 'keypair', 'solana')),
    rule("api-key", r"((?:\.alchemy\.com|\.alchemyapi\.io)/v2/|infura\.io/v3/)([a-z0-9_-]{20,})",
          keep=1, hints=('alchemy.com/v2/', 'alchemyapi.io/v2/', 'infura.io/v3/'), lower=True,
          back=12),
    # AWS SSM's SecureString, Rails' master.key, WordPress' define(), unattend.xml
    rule("password", r"(\"type\"\s*:\s*\"securestring\",\s*\"value\"\s*:\s*\")([^\"\n]+)",
          keep=1, hints=('"securestring"',), lower=True, back=8),
    rule("password", r"(master\.key\s*\n)([0-9a-f]{32})\b", keep=1, hints=('master.key',),
          lower=True, back=0),
    rule("password", r"(define\(\s*['\"][a-z0-9_]*(?:password|secret|key|salt|token)[a-z0-9_]*"
          r"['\"]\s*,\s*['\"])([^'\"\n]+)(?=['\"])", keep=1, hints=('define(',), lower=True,
          check=lambda v: is_value(v) and not HOST.fullmatch(v), back=0),
    rule("password", r"(<[\w:]*password[\w:]*>\s*<value>)([^<]+)(?=</value>)", keep=1,
          hints=('password>',), lower=True, check=is_value, back=40),
    rule("private-key", r"-----BEGIN OpenVPN Static key V1-----.*?-----END OpenVPN Static key "
          r"V1-----", flags=re.DOTALL, hints=('openvpn static key',)),
    # a Firebase server key, wrapped or not
    rule("cloud-token", r"AAAA[A-Za-z0-9_-]{7}:APA91b(?:[A-Za-z0-9_-]|\r?\n)+",
          hints=(':apa91b',), back=12),
    *SAID,  # last: a sentence that gives a password (said.py)
)

# an AWS secret key (40 characters of base64, both cases and a digit) given within a few
# lines after its key id: looked for before the token pass marks the key id
AWS_PAIR = rule("aws-secret-key", r"((?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])[\s\S]{0,300}?"
                 r"(?<![A-Za-z0-9/+=]))(?=[A-Za-z0-9/+]{0,39}[a-z])"
                 r"(?=[A-Za-z0-9/+]{0,39}[A-Z])(?=[A-Za-z0-9/+]{0,39}[0-9])"
                 r"([A-Za-z0-9/+]{40}(?:[A-Za-z0-9/+]{4})?)(?![A-Za-z0-9/+=])", keep=1,
                 hints=('akia', 'asia'), check=random_value, back=0)

