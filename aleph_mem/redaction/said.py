"""A password a sentence gives: after its word and a verb or a colon, in some thirty
languages ("my password is …", "das Passwort ist …", "la contraseña es …", "パスワードは …",
"मेरा पासवर्ड … है"), or right after its word with no verb ("use the api key abc123…"). These
run last of the structured rules (``rules.STRUCTURED``)."""

from __future__ import annotations

from aleph_mem.redaction.rule import Rule, rule
from aleph_mem.redaction.values import said_secret, said_token

SAID: tuple[Rule, ...] = (
    # "(password BSUHMbc-fqd)": a password's word and its value in one pair of brackets
    rule("password", r"(\((?:password|passwort|kennwort|pw|pwd|pass|mot de passe|mdp|contraseña|"
          r"senha|wachtwoord|пароль)[ \t]*[:=]?[ \t]+)([^\s()]{4,64})(?=\))", keep=1,
          hints=('(password', '(passwort', '(kennwort', '(pw', '(pass', '(mot de passe', '(mdp',
                 '(contraseña', '(senha', '(wachtwoord', '(пароль'), lower=True,
          check=said_secret, back=0),
    # "log into the router with admin and waldmeister@kartoffel-74": a login, then its password
    rule("password", r"(\blog(?:[ \t]*in(?:to)?|on)\b(?:[^.\n]|\.(?=\S)){0,80}?\bwith[ \t]+"
          r"(?:user[ \t]+)?(?!(?:google|github|gitlab|apple|microsoft|facebook|sso|saml|okta|"
          r"passkey|your|my|the|touch|face)\b)"  # a provider or a device, not a login
          r"[\w.@-]{2,40}[ \t]+(?:and|&|/)[ \t]+(?:(?:the[ \t]+)?(?:password|pw)[ \t]+)?)"
          r"(\S{6,64}?)(?=[,;.!?]?(?:[ \t]|$|\\?\"))", keep=1, hints=('log',), lower=True,
          check=said_secret, back=0),
    # "set `DB_PASSWORD` in `.env` to `…`", "setze `DB_PASSWORD` in `.env` auf `…`"
    rule("password", r"(\b(?:set|sets|setting|setze|setzt|mets|pon|imposta|zet|ustaw)[ \t]+`?"
          r"[a-z0-9_]*(?:password|passwd|secret|token|api_key|_pass|_pw)[a-z0-9_]*`?"
          r"(?:[ \t]+(?:in|im|dans|en|to|auf)[ \t]+`?[\w./-]+`?)?[ \t]+"
          r"(?:to|auf|à|a|op|na|=)[ \t]+[`\"'])([^`\"'\s]{4,128})(?=[`\"'])", keep=1,
          hints=('set', 'setze', 'setzt', 'mets', 'pon ', 'imposta', 'zet ', 'ustaw'), lower=True,
          check=said_secret, back=0),
    # "change the Netflix pw (currently EcUq…&)": the value in brackets after its word
    rule("password", r"((?<![\w-])(?:password|passwort|kennwort|pw|pwd|mot de passe|mdp|"
          r"contraseña|senha|wachtwoord|пароль)(?:[ \t]+[^\W\d_]+){0,2}[ \t]+\((?:currently|now|"
          r"aktuell|derzeit|zurzeit|actuellement|actualmente|atualmente|attualmente|сейчас|jetzt|"
          r"still|noch)[ \t]*:?[ \t]+)([^\s()]{4,64})(?=\))", keep=1,
          hints=('(currently', '(now', '(aktuell', '(derzeit', '(zurzeit', '(actuellement',
                 '(actualmente', '(atualmente', '(attualmente', '(сейчас', '(jetzt', '(still',
                 '(noch'), lower=True, check=said_secret, back=60),
    # "मेरा पासवर्ड … है": the verb after the value
    rule("password", r"(पासवर्ड\s+)(\S+)(?=\s+है)", keep=1, hints=('पासवर्ड',),
          check=said_secret, back=0),
    # "my password is …", "das Passwort ist …", "la contraseña es …", "パスワードは …"
    rule("password", r"((?:(?<![a-z0-9_:/=])(?<!salt for )(?<!hash for )(?:password|pasword|"
          r"passwort|kennwort|passwd|"
          r"passphrase|pw|"
          r"(?<![=\w-])pass(?=[ \t]+(?:is|was)[ \t])|"  # "db pass is …", not "dmarc=pass"
          r"pwd|passcode|mot de passe|mdp|contraseña|contrasena|senha|wachtwoord|"
          r"parola(?![ \t]+chiave)|"
          r"parolası|hasło|haslo|huvudlösenord|masterpasswort|hauptpasswort|"
          r"psk|pre-shared key|clé pré-partagée|license key|licence key|product key|"
          r"recovery key|recovery code|backup code|chiave di ripristino|clé de récupération|"
          r"wiederherstellungsschlüssel|אסימון|口令|ライセンスキー|復旧キー|回復キー|"
          r"sleutel|api-sleutel|schlüssel|api-schlüssel|clé api|chiave api|clave api|"
          r"api-key|api-nyckel|api-nøkkel|api-nøgle|api-avain|"
          r"парольная фраза|кодовая фраза|"
          r"пароль|api key|api token|access token|secret|token|mật khẩu|kata sandi|şifre|"
          r"şifresi|συνθηματικό|κωδικός|lösenord(?:et)?|heslo|salasana|adgangskode|passord|"
          r"jelszó|jelszava|private key|secret key|privkey)|パスワード|密码|密碼|비밀번호|비번|"
          r"كلمة المرور|كلمة مرور|كلمة السر|الرقم السري|رمز عبور|पासवर्ड|รหัสผ่าน|סיסמה)"
          # up to eight words to the verb: "the password admin is", "le mot de passe du compte
          # admin c'est", "הסיסמה למערכת הניהול היא"
          r"(?:[ \t]+\((?![^()\n]*\b(?:id|public|publishable)\b)[^()\n]{0,40}\)|"
          r"[ \t]+(?!\(?(?:is|was|ist|est|es|c'est|är|er|là|هي|هو|היא|הוא|είναι|sono|era|now|"
          r"user|username|login|benutzer|utilisateur|usuario|utente|użytkownik|χρήστης|"
          r"name|nom|nombre|nome|safe|vault|path|folder|entry|item|"
          r"пользователь|логин|kullanıcı|"
          r"ids?(?=\)?\s*[:：])|\w*hash|fingerprint|scopes?|type|expir\w*|lifetime|"
          r"length|format|policy|rotation|prefix|endpoint|usage|public|publishable)\b)[(\[]?[^\W_]"
          r"(?:[^\s.,;:!?—=]|\.(?=\w)){0,23},?){0,8}?"
          r"(?:[ \t]+(?:is|was|ist|est|es|c'est|é|è|är|er|now|lautet|heißt|heisst|sono|era|هي|"
          r"هو|là|adalah|είναι|היא|הוא|(?:je|ni)(?=[ \t]+[\"'`]|[ \t]+\S*[\d!@#$%^&*?]))\b"
          r"[ \t]*[:：]?|"
          r"[ \t]*(?::(?!:)|[=：は是는—]|[\u0e00-\u0e7f]{0,30}?คือ))"  # not "::add-mask::"
          r"[ \t]*"
          r"(?:(?:now|jetzt|ab heute|heute|ora|ahora|maintenant|désormais|agora|nu|teraz|"
          r"currently|still|toujours|encore|immer noch|todavía|ainda|sempre|теперь|сейчас):?"
          r"[ \t]+)?)"
          r"(?!\[redacted:)(\"[^\"\n]+\"|'[^'\n]+'|`[^`\n]+`|「[^」\n]+」|『[^』\n]+』|«[^»\n]+»|"
          # unquoted, a query's next field ends it ("token=$TOKEN&ip=")
          r"(?:(?!&[\w.-]+=)[^\s,;\u3000-\u30ff\u3400-\u9fff\uac00-\ud7af\uff00-\uffef])*"
          r"[^\s,;.!?&\u3000-\u30ff\u3400-\u9fff\uac00-\ud7af\uff00-\uffef])",
          keep=1, hints=('pass', 'pasword', 'kennwort', 'pw', 'mot de passe', 'contrase', 'senha',
                         'wachtwoord', 'parola', 'hasło', 'haslo', 'пароль', 'パスワード',
                         '密码', '密碼', '비밀번호', '비번', 'api key', 'api token', 'access token',
                         'secret', 'token', 'كلمة', 'رمز عبور', 'पासवर्ड', 'รหัสผ่าน',
                         'mật khẩu', 'kata sandi', 'şifre', 'συνθηματικό', 'κωδικός', 'סיסמה',
                         'парольная фраза', 'кодовая фраза',
                         'lösenord', 'heslo', 'salasana', 'adgangskode', 'passord', 'jelsz',
                         'private key', 'privkey', 'الرقم السري', 'sleutel', 'schlüssel',
                         'clé api', 'chiave api', 'clave api', 'psk', 'pre-shared key',
                         'api-key', 'api-nyckel', 'api-nøkkel', 'api-nøgle', 'api-avain',
                         'clé pré-partagée', 'license key', 'licence key', 'product key',
                         'recovery key', 'recovery code', 'backup code', 'chiave di ripristino',
                         'clé de récupération', 'wiederherstellungsschlüssel', 'אסימון',
                         '口令', 'ライセンスキー', '復旧キー', '回復キー', 'mdp', 'parolası',
                         'huvudlösenord', 'masterpasswort', 'hauptpasswort'), lower=True,
          check=said_secret, back=0),
    # "use the api key abc123…": a token after its name, no verb (not a resource's name after
    # "kubectl get secret")
    rule("password", r"((?<![a-z0-9_!])(?<!get )(?<!describe )(?<!delete )(?<!edit )"
          r"(?:password|[a-zäöü]*passwort|[a-zäöü]*kennwort|api key|api token|access key|"
          r"secret key|token|secret|şifresi|şifre|parola|contraseña|senha|heslo|hasło|"
          r"пароль|mật khẩu|kata sandi|salasana|lösenord|pw|pwd|mot de passe|kennwort|"
          r"wachtwoord|clave|schlüssel|clé|chiave|passord|adgangskode|salasana|κωδικός|şifren|"
          r"シークレットキー|アクセストークン|apiキー|토큰|액세스 토큰|访问令牌)"
          r"(?:[ \t]+(?:temporal|temporaria|temporária|"
          r"provisoria|provisória|provisoire|temporaire|temporary|temp|new|nueva|nuevo|nova|"
          r"nouveau|nouvelle|neue|neues|initial|inicial|default|временный|новый))?[ \t]+`?)"
          r"([\w+/=.~!@#$%^&*-]{8,})"
          r"(?![^\s,;.!?`)])",
          keep=1, hints=('password', 'passwort', 'api key', 'api token', 'access key',
                         'secret key', 'token', 'secret', 'şifre', 'parola', 'contraseña',
                         'senha', 'heslo', 'hasło', 'пароль', 'mật khẩu', 'kata sandi',
                         'salasana', 'lösenord', 'pw', 'mot de passe', 'kennwort',
                         'wachtwoord', 'clave', 'schlüssel', 'clé', 'chiave', 'passord',
                         'adgangskode', 'κωδικός', 'シークレットキー', 'アクセストークン',
                         'apiキー', '토큰', '访问令牌'), lower=True, check=said_token, back=16),
)
