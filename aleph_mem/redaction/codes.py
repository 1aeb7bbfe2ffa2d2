"""Codes people keep without a key's name beside them: recovery and license keys, backup
codes, one-time-password seeds, PINs and door codes, found by a shape no public identifier
has (a product key's five groups of five, BitLocker's eight groups of six digits, a base32
seed as an authenticator app shows it) or by the words that announce them in a note, in
some twenty languages. And the other side: a comment that declares the values under it
public (a publishable key, a documented example), which keeps them."""

from __future__ import annotations

import re
from collections.abc import Iterator

from aleph_mem.redaction.published import PUBLISHED, placeholder
from aleph_mem.redaction.rule import MARK, occurrences
from aleph_mem.redaction.values import (
    NOT_A_PASSWORD,
    label_word,
    pin_value,
    words_passphrase,
)

# shapes no identifier has: a product key (five groups of five), a recovery key of groups of
# four (Apple's seven, a vendor's serial after a short prefix), BitLocker's recovery key
PRODUCT_KEY = re.compile(r"(?<![\w-])[A-Z0-9]{5}(?:-[A-Z0-9]{5}){3,4}(?![\w-])")
GROUPS_OF_FOUR = re.compile(r"(?<![\w-])[A-Z0-9]{2,6}(?:-[A-Z0-9]{4}){4,}(?![\w-])")
ONEPASSWORD_KEY = re.compile(r"(?<![\w-])A3-[A-Z0-9]{6}(?:-[A-Z0-9]{5,6}){5}(?![\w-])")
GITHUB_CODE = re.compile(r"(?<![\w-])(?=[0-9a-f]{0,4}[a-f])(?=[0-9a-f]{0,4}\d)[0-9a-f]{5}-"
                         r"[0-9a-f]{5}(?![\w-])")
# a licence key of digits in five groups or more (Adobe's 6 × 4, MathWorks' 5 × 5): no date,
# phone number or card number has that many
# (not a TLS fingerprint's field of cipher numbers: JA3's "771,4865-4866-…,0-23-…")
DIGIT_GROUPS = re.compile(r"(?<![\d,-])(\d{4,5})(?:-\d{4,5}){4,}(?![\d,-])")
# a game's key (Steam's, Humble's): three or five groups of five
STEAM_KEY = re.compile(r"(?<![\w-])(?=[A-Z0-9-]*\d)(?=(?:[A-Z0-9-]*[A-Z]){4})[A-Z0-9]{5}-"
                       r"[A-Z0-9]{5}-[A-Z0-9]{5}(?:-[A-Z0-9]{5}-[A-Z0-9]{5})?(?![\w-])")
GAME_WORDS = ("steam", "humble", "redeem", "einlös", "eingelöst", "canjear", "gog", "fanatical",
              "game key", "spiel", "juego", "jeu ", "gift")
WHATSAPP_KEY = re.compile(r"(?<![\d ])\d{4}(?: \d{4}){15}(?![\d])")
BITLOCKER = re.compile(r"(?<![\d-])\d{6}(?:-\d{6}){7}(?![\d-])")
# a one-time-password seed in base32: one run, or groups of four as authenticator apps show it
BASE32_RUN = re.compile(r"(?<![A-Za-z0-9+/=_-])[A-Z2-7]{16,128}={0,6}(?![A-Za-z0-9+/=_-])")
BASE32_GROUPS = re.compile(r"(?<![\w-])(?:[a-z2-7]{4}[ -]){3,15}[a-z2-7]{4}(?![\w-])|"
                           r"(?<![\w-])(?:[A-Z2-7]{4}[ -]){3,15}[A-Z2-7]{4}(?![\w-])")
GROUP_SIGN = re.compile(r"-[A-Z0-9]{4,6}-")  # what every grouped key has: a literal first
SEED_HINTS = ("2fa", "mfa", "otp", "two-factor", "2-step", "authenticator", "seed", "secret",
              "2sv", "setup key", "two-step", "認証", "二段階", "2段階", "验证器", "身份验证",
              "key manually", "can't scan", "manual entry", "okta verify", "autentikator",
              "kunci penyiapan",
              "인증",
              "シークレット", "секрет", "geheim", "segreto", "sekret", "密钥", "비밀")
SEED_WORDS = re.compile("|".join(map(re.escape, SEED_HINTS)))  # looked for on the lower-cased view

# the words that announce a code, and the code itself: grouped, a run of digits, or a
# token with letters and digits
CODE_WORDS = (
    "recovery code", "recovery key", "backup code", "recovery-code", "recovery_code",
    "códigos de respaldo", "códigos de recuperación", "codes de secours", "backup-codes",
    "schlüsseltresor", "portkod", "code de l'alarme", "code alarme", "code d'accès",
    "code du portail", "code de la porte",
    "kód od", "kód k", "kód na", "kód do", "kod do", "license key", "licence key",
    "product key", "activation key", "activation code", "registration key", "serial key",
    "installation key", "installationsschlüssel", "รหัสปลดล็อก", "รหัสผ่าน", "รหัสเครื่อง",
    "codice dell'allarme", "codice allarme", "digita il codice", "codice del portone",
    "codice del cancello", "codice di sblocco", "codice portone", "codice cancello",
    "alarmcode", "deurcode", "code van het alarm", "toegangscode deur", "kod do sejfu",
    "sejf na klucze", "kod alarmu", "kod do drzwi", "kod do bramy", "szyfr do",
    "código da fechadura", "código do alarme", "código da porta", "código do cofre",
    "zahlenkombination", "tresorcode", "kombination:", "code secret de la carte",
    "code de la carte", "code du wifi", "code wifi", "code wi-fi", "le code c'est",
    "manager passcode", "identity protection pin", "ip pin",
    "unlock code", "door code", "gate code", "keypad", "door lock",
    "alarm code", "safe code", "lock code", "set the code to", "the code is",
    "lock combination", "safe combination", "combination lock", "zahlenschloss",
    "keybox", "key box", "lockbox", "key safe", "digicode", "tastenfeld", "türcode",
    "torcode", "combo", "netzwerkschlüssel", "wlan-schlüssel", "wlan-passwort", "wifi password",
    "wi-fi password", "network key", "clé wifi", "clé wi-fi", "clave wifi", "contraseña wifi",
    "senha wifi", "steam key", "steamキー", "cd key", "cd-key", "game key", "redeem code",
    "einlösecode", "código de canje", "geheim halten", "keep it secret", "keep secret", "mullvad",
    "الرقم السري", "garagentor", "schlüsselbox", "schlüsselsafe", "caja fuerte", "cassaforte",
    "coffre-fort", "tresor", "széf", "הקוד של הכספת", "קוד הכספת", "金庫", "保险箱", "금고", "сейф",
    "bản quyền", "garage door", "alarmsysteem", "alarm system", "alarmanlage",
    "système d'alarme", "sistema de alarma", "sistema d'allarme", "sistema de alarme",
    "larmsystem", "system alarmowy", "záložní kód", "zálohovací kód", "combination:",
    "combinación:", "combinaison:", "combinazione:", "screen time", "bildschirmzeit",
    "temps d'écran", "tiempo de uso", "access code", "zugangscode", "código de acceso",
    "code secret", "code confidentiel", "code personnel", "clave de firma", "clave de operaciones",
    "zahlencode", "nummerncode", "garagencode", "haustürcode", "fahrradschloss", "bike lock",
    "bicycle lock", "namba ya siri", "رمز الدخول", "код від", "код от", "ダイヤルロック番号",
    "kode cadangan", "claim code", "gift card code", "pola kunci", "pattern lock",
    "entsperrmuster", "abholcode", "pickup code", "código de recogida", "code de retrait",
    "radio-code", "radio code", "radiocode", "code radio", "código de radio",
    "caixa de chaves", "caja de llaves", "portón", "clé de sécurité", "clave de seguridad",
    "chave de segurança", "sicherheitsschlüssel", "aktivierungs-code", "haustür-code", "tür-code",
    "tor-code", "garagen-code",
    "aktivierungscode", "freischaltcode", "code d'activation", "codice di attivazione",
    "geheimzahl",
    "garage code", "portail", "portão",
    "código de la puerta", "código del portal", "código do portão",
    "código de recuperación", "código de respaldo", "clave de licencia", "clave de producto",
    "código de activación", "clé de récupération", "code de secours", "clé de licence",
    "clé de produit", "code de récupération", "wiederherstellungsschlüssel",
    "wiederherstellungscode", "backup-code", "lizenzschlüssel", "produktschlüssel",
    "chiave di ripristino", "codici di backup", "codice di backup", "chiave di licenza",
    "codice di recupero", "código de backup", "chave de recuperação", "chave de licença",
    "herstelcode", "herstelsleutel", "licentiesleutel", "återställningskod", "licensnyckel",
    "kod odzyskiwania", "klucz licencyjny", "kod zapasowy", "kurtarma kodu", "yedek kod",
    "lisans anahtarı", "mã dự phòng", "mã khôi phục", "khóa bản quyền",
    "ключ восстановления", "код восстановления", "резервный код", "лицензионный ключ",
    "ключ активации", "ключ продукта",
    "恢复密钥", "恢复代码", "备用码", "备份码", "许可证密钥", "激活码", "产品密钥",
    "復旧キー", "回復キー", "リカバリーキー", "バックアップコード", "ライセンスキー",
    "プロダクトキー", "暗証番号",
    "복구 키", "복구 코드", "백업 코드", "라이선스 키", "제품 키", "도어락", "비밀번호",
    "مفتاح الترخيص", "مفتاح الاسترداد", "رمز الاسترداد", "رمز احتياطي",
    "קוד שחזור", "מפתח שחזור", "מפתח רישיון", "קוד גיבוי",
)
CODE_WORD = re.compile("|".join(re.escape(w) for w in sorted(CODE_WORDS, key=len, reverse=True)))
CODE = re.compile(r"(?<![\w#./%=?&:-])(?:\d(?: \d){3,7}(?![ \t]*\d)|\d(?:-\d){3,7}(?![\w-])|"
                  r"[a-z0-9]{4}(?: [a-z0-9]{4}){3,7}(?![\w-])|"
                  r"[A-Za-z0-9]{4,6}(?:-[A-Za-z0-9]{4,6}){1,8}|"
                  r"(?=[A-Za-z]*\d)[A-Za-z0-9]{4,6}(?: (?=[A-Za-z]*\d)[A-Za-z0-9]{4,6}){1,8}|"
                  r"[A-Za-z0-9]{6,40}|[A-Za-z][a-z]+_\d+[A-Z]?|[A-Za-z]?\d{4,5}[A-Za-z]?|"
                  r"\d{1,2}(?:-\d{1,2}){2,3})"
                  r"(?![\w@-]|[./]\w)")
BRAND = re.compile(r"(?<![\w-])[A-Z][a-z]+(?:[A-Z][a-z]+)?[ \t]$")
CODE_NAME = re.compile(r"(?i)codes?|pin|passcode|kombination|combination|combinaison|"
                       r"combinazione|combinación|kod|kód|código|codice|nummer|zahl|mit|with")
NOT_THE_CODE = re.compile(r"\b(?:id|ids|identifier|fingerprint|hash|name|length|format|policy|"
                         r"count|expires?|version|ticket|order|invoice|serial|model|part|sku|"
                         r"batter(?:y|ie|ia|ía)|opener|\w*nummer|number|customer|typ|type|"
                         r"modell?|modelo|modèle|tag|s/n|serien-nr|nr|vertrag|\w*vertrag|"
                         r"contract|contrat|contrato|plz|postleitzahl|zip|postal|cep|numero|"
                         r"número|numéro|serie|série|scade|expira|location|page|transcript)\b|"
                         r"指紋|フィンガープリント|指纹")
# ("garage door opener: LiftMaster 8500W", "Kundennummer 40739355")
# a parenthetical note alone on the line after a heading
NOTE_LINE = re.compile(r"\r?\n[ \t]*[(（][^)）\n]{1,60}[)）][ \t]*\r?\n")
# a label on the line after a heading: the line up to its colon, a few words
LABEL_END = re.compile(r"\n[ \t]*(?:[-*][ \t]+)?[^\n:：]{1,60}[:：][ \t]*(?=\S)")
# a word in a code's letters ("1Password"): a code of one digit has none ("mlnxxm7z")
WORD = re.compile(r"(?i)(?=[a-z]*[aeiouy])(?![a-z]*[^aeiouy\W\d_]{4})[a-z]{4,}")
# what stands between a code's word and the code: a few words on the same line, or the end
# of that line and the code alone on the next
BETWEEN = 100


def _seed(run: str, view: str, start: int, above: int = 1, fewest: int = 2) -> bool:
    """A base32 run that is a seed: digits among its letters (a word in capitals has none),
    not the alphabet written out; a short one only where its line or the ``above`` lines
    before speak of a second factor."""
    letters = sum(c.isalpha() for c in run)
    digits = sum(c.isdigit() for c in run)
    if digits < fewest or letters < 8 or "ABCDEFGH" in run.upper() or placeholder(run) \
            or run in PUBLISHED or len(run) == 56 and run[0] in "NACOUXPVG":
        return False  # a NATS public nkey, a Stellar account's key (a seed begins with S)
    if len(run.rstrip("=")) >= 26 and digits >= 3 and run.isupper():
        return True
    line_start = start
    for _ in range(above + 1):
        line_start = view.rfind("\n", 0, max(0, line_start))
    return bool(SEED_WORDS.search(view, max(0, line_start), start))


def _grouped(code: str) -> bool:
    """A key of groups: letters and digits both, and not a handful of characters repeated."""
    bare = code.replace("-", "")
    return (any(c.isdigit() for c in bare) and any(c.isalpha() for c in bare)
            and len(set(bare)) >= 8 and not placeholder(code))


def _words_around(text: str, hits: Iterator[int], lines: int = 0) -> Iterator[tuple[int, int]]:
    """(start, end) of the word around each hit (``lines``: and of that many lines after
    it), each place once: the shapes are looked for only where their cheap sign is."""
    done = -1
    for p in hits:
        if p < done and not lines:
            continue  # a word's window once; a line window from each hit (its lines differ)
        start = max(text.rfind(c, 0, p) for c in " \t\n") + 1
        end = p
        for _ in range(lines + 1):
            end = text.find("\n", end + 1)
            if end == -1:
                end = len(text)
                break
        if not lines:
            ends = [i for i in (text.find(c, p) for c in " \t\n") if i != -1]
            end = min(ends, default=len(text))
        done = end
        yield start, end


def shaped_codes(text: str, view: str) -> list[tuple[int, int, str]]:
    """Codes by a shape no identifier has: product and recovery keys, BitLocker's, seeds;
    each looked for only where its sign is (a dash between groups, a line about a second
    factor), which keeps a 5 MB transcript's cost in string searches."""
    out = []
    games = any(w in view for w in GAME_WORDS)  # looked for once, not once a window
    for start, end in _words_around(text, (m.start() for m in GROUP_SIGN.finditer(text))):
        for m in PRODUCT_KEY.finditer(text, start, end):
            groups = m.group().split("-")  # four groups only with letters in three of them
            if _grouped(m.group()) and (len(groups) == 5 or sum(
                    any(c.isalpha() for c in g) for g in groups) >= 3):
                out.append((m.start(), m.end(), MARK.format("license-key")))
        for m in GROUPS_OF_FOUR.finditer(text, start, end):
            if _grouped(m.group()) and sum(c.isalpha() for c in m.group()) >= 6:
                out.append((m.start(), m.end(), MARK.format("recovery-key")))
        for m in DIGIT_GROUPS.finditer(text, start, end):
            if {len(g) for g in m.group().split("-")} == {len(m.group(1))} and \
                    not re.search(r"\bdsk\b", view[max(0, m.start() - 40):m.start()]):
                out.append((m.start(), m.end(), MARK.format("license-key")))  # no Z-Wave DSK
        if games:
            for m in STEAM_KEY.finditer(text, start, end):
                out.append((m.start(), m.end(), MARK.format("license-key")))
        for m in BITLOCKER.finditer(text, start, end):
            out.append((m.start(), m.end(), MARK.format("recovery-key")))
        for m in ONEPASSWORD_KEY.finditer(text, start, end):
            if _grouped(m.group()):
                out.append((m.start(), m.end(), MARK.format("recovery-key")))
    if "backup" in view or "key" in view:  # WhatsApp's end-to-end backup key: 16 × 4 digits
        for m in WHATSAPP_KEY.finditer(text):
            out.append((m.start(), m.end(), MARK.format("recovery-key")))
    if "recovery" in view or "backup code" in view:  # GitHub's recovery codes, by shape
        for m in GITHUB_CODE.finditer(view):
            out.append((m.start(), m.end(), MARK.format("code")))
    for m in BASE32_RUN.finditer(text):
        if _seed(m.group(), view, m.start()):
            out.append((m.start(), m.end(), MARK.format("totp-seed")))
    seen = set()
    for start, end in _words_around(view, _hits(view, SEED_HINTS), lines=2):
        for m in BASE32_GROUPS.finditer(text, start, end):
            # a setup key in groups, as an app shows it, two lines under "Enter a setup key"
            if m.start() not in seen and _seed(re.sub(r"[ -]", "", m.group()), view, m.start(),
                                               above=2, fewest=1):  # grouped as an app shows it
                seen.add(m.start())
                out.append((m.start(), m.end(), MARK.format("totp-seed")))
    return out


def _hits(view: str, words: tuple[str, ...]) -> Iterator[int]:
    """Where each of the words is in the text, in order (str.find: no regex over it)."""
    return iter(sorted(p for w in words for p in occurrences(view, w)))


def _code(value: str) -> bool:
    """A code, not a word, a count or a date: digits in it (a PIN is four to eight of them,
    not a run like 1234), and letters only beside digits."""
    bare = value.replace("-", "").replace(" ", "")
    digits = sum(c.isdigit() for c in bare)
    if re.fullmatch(r"\d{1,2}(?:-\d{1,2}){2,3}", value) and len(set(bare)) > 1:
        return True  # a lock's combination ("0-7-1", "35-26-27")
    groups = value.split(" ")
    spaced = len(groups) >= 4 and all(len(g) == 4 for g in groups)  # Dropbox's four by four
    if digits == 0 or placeholder(value) or re.fullmatch(r"(?:19|20)\d\d", bare) or \
            re.fullmatch(r"(?i)pkcs\d+|x\.?509|sha\d+|rsa\d*|aes\d*|md5", bare) or \
            not spaced and any(not any(c.isdigit() for c in g) for g in groups) or \
            spaced and sum(any(c.isdigit() for c in g) for g in groups) < 2:
        return False  # a year; "2000 lines": groups apart are a code only with digits in each
    if bare.isdigit():
        return 4 <= len(bare) <= 40 and pin_value(bare)
    letters = re.sub(r"[^A-Za-z]", "", bare)
    return len(bare) >= 6 and (digits >= 2 or len(bare) >= 8 and not WORD.fullmatch(letters)) or \
        bool(re.fullmatch(r"[A-Za-z]\d{4,5}|\d{4,5}[A-Za-z]", bare))


def named_codes(text: str, view: str) -> list[tuple[int, int, str]]:
    """A code given after the words that announce it ("recovery codes: 905df-0828d", "mã
    dự phòng …: niic-s4f3", "비밀번호 861213"), on its line or alone on the next."""
    out = []
    for w in _code_words(view):
        word = w.group()
        after = view[w.end():w.end() + 2]
        if word.isascii() and (w.start() and view[w.start() - 1].isalnum() or after[:1].isalpha()
                               and not (after[0] == "s" and not after[1:].isalpha())):
            continue  # inside a word ("keypads" no, "recovery codes" yes)
        line_end = view.find("\n", w.end())
        line_end = len(view) if line_end == -1 else line_end
        stop = min(line_end, w.end() + BETWEEN)
        next_end = view.find("\n", line_end + 1) if line_end < len(view) else -1
        places = [(w.end(), stop)]
        rest = re.sub(r"^s?[._-]?(?:txt|md|csv|pdf)$|^s?[ \t]*[(（][^)）]*[)）]:?$", "",
                      view[w.end():line_end].strip())  # a file's name, a parenthesis
        announced = not rest.strip(" \t:：.-—–()（）") or rest.rstrip().endswith((":", "："))
        if announced:
            places.append((line_end + 1, len(view) if next_end == -1 else next_end))
        elif len(rest) <= 70 and not rest.rstrip().endswith((".", "!", "?")) and \
                not re.search(r"[:=：]", rest) and \
                w.start() - (view.rfind("\n", 0, w.start()) + 1) <= 20:
            if (label := LABEL_END.match(view, line_end)):
                places.append((label.end(), len(view) if next_end == -1 else next_end))
                # a heading's code after a label on the next line ("Záložní kódy ⏎ …: 1825")
            elif (note := NOTE_LINE.match(view, line_end)):
                out += _listed(text, note.end())  # "Backup-Codes für … ⏎ (noch übrig) ⏎ 9254 8625"
        taken = []
        for start, end in places:
            taken = _codes_at(text, view, w.end(), start, end)
            if taken:
                break
        out += taken + _more_of(text, taken)
        if announced and (not taken or taken[-1][0] > line_end):
            out += _listed(text, line_end + 1)
    return out


def _more_of(text: str, taken: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """The lines after the codes taken that hold nothing but more codes of their shape
    (GitHub's recovery codes, four to a line: "dezj2-rhyfq hqs33-4iaqy …"), to eight lines."""
    if not taken:
        return []
    first = text[taken[0][0]:taken[0][1]]
    shape = re.sub(r"[A-Za-z0-9]+", lambda m: f"[A-Za-z0-9]{{{len(m.group())}}}", re.escape(first))
    code, line = re.compile(shape), re.compile(rf"[ \t]*(?:{shape}[ \t]*)+(?=\r?\n|$)")
    out: list[tuple[int, int, str]] = []
    at = text.find("\n", taken[-1][1])
    while at != -1 and len(out) < 64 and (m := line.match(text, at + 1)):
        out += [(c.start(), c.end(), MARK.format("code"))
                for c in code.finditer(text, at + 1, m.end())]
        at = text.find("\n", m.end())
    return out


LISTED = re.compile(r"[ \t]*(?:[-*]|\d+[.)])?[ \t]*"
                    r"([A-Za-z0-9]{4,12}(?:[- ][A-Za-z0-9]{4,12}){0,3})"
                    r"[ \t]*(?:\r?\n|$)")


def _listed(text: str, at: int) -> list[tuple[int, int, str]]:
    """Codes listed one a line after the line that announces them (a fence line skipped),
    to the first line that is no code: "GitHub recovery codes:⏎```⏎7b481-dfc25⏎…"."""
    out: list[tuple[int, int, str]] = []
    if text.startswith("\n", at) or text.startswith("\r\n", at):
        at = text.find("\n", at) + 1  # one blank line between
    if text.startswith("```", at):
        at = text.find("\n", at) + 1 or len(text)
    while len(out) < 32 and (m := LISTED.match(text, at)) and m.end() > at:
        if not _code(m.group(1)):
            break
        out.append((m.start(1), m.end(1), MARK.format("code")))
        at = m.end()
    return out


def _code_words(view: str) -> Iterator[re.Match[str]]:
    """Each code word in the text: found by str.find, checked by the regex where found."""
    done = -1
    for p in _hits(view, CODE_WORDS):
        if p >= done and (m := CODE_WORD.match(view, p)):
            done = m.end()
            yield m


def _codes_at(text: str, view: str, word_end: int, start: int,
              end: int) -> list[tuple[int, int, str]]:
    """The first code between ``start`` and ``end``, and the codes listed right after it
    ("backup codes: 11269-67763 26811-22244 …"); after a colon, a code of letters only when
    it is no word ("backup code: bjfbxxti")."""
    out: list[tuple[int, int, str]] = []
    labelled = re.match(r"s?[ \t]*[:：][ \t]*([a-z]{6,12})(?![\w-])", view[word_end:word_end + 20])
    if labelled and not WORD.fullmatch(labelled.group(1)) and \
            labelled.group(1) not in NOT_A_PASSWORD:
        at = word_end + labelled.start(1)
        return [(at, at + len(labelled.group(1)), MARK.format("code"))]
    for m in CODE.finditer(text, start, end):
        if out and text[out[-1][1]:m.start()].strip(" \t,;") or \
                not out and NOT_THE_CODE.search(view, word_end, m.start()):
            break  # "recovery key ID: …", "license key length …"; the list has ended
        if not out and _code(m.group()) and \
                (brand := BRAND.search(text, max(start, m.start() - 30), m.start())) \
                and not CODE_WORD.match(view, brand.start()) and \
                not CODE_NAME.fullmatch(brand.group().strip()):
            break  # a product's model after its name ("Abus Bordo 6500", "LiftMaster 8500W")
        if re.match(r":~?\d", text[m.end():m.end() + 3]):
            break  # a place in a file or a transcript ("15765a88:~670"), not a code
        if _code(m.group()) or m.group().isdigit() and text.startswith("#", m.end()):
            # a keypad's entry ("1959#") is no year
            out.append((m.start(), m.end(), MARK.format("code")))
        elif out:
            break
    return out


# a comment that says the values under it (or beside it) are public: a publishable key, a
# documented example, an identifier shipped to the browser; not one that says "never"
PUBLIC_LINE = re.compile(r"\bgvlk\b|kms client setup key|"
                         # a network's test card, a standard's test vector, a wiki's example
                         r"\btest ?cards?\b|testkarte|tarjeta de prueba|cart[ãa]o de teste|"
                         r"\btest mode\b|test kart|"
                         r"carte de test|テストカード|测试卡|test vectors?\b|"
                         r"\b(?:example|sample) from the [\w -]{0,20}(?:wiki|docs|rfc|spec)")
COMMENT_START = re.compile(r"[ \t]*(?:#|//|;|--|<!--|/\*|\*|rem\b)")
COMMENT = re.compile(r"^[ \t]*(?:#|//|;|--|<!--|/\*|\*|rem\b)|[ \t](?:#|//)[ \t]", re.M)
DECLARED = re.compile(
    r"\b(?:is|are)\s+(?:a\s+)?public\b|[(\[]public[,;)\]]|"
    r"public\s+(?:by design|identifiers?|client identifier|"
    r"sdk key|(?:[a-z]+\s+)?key[,;:)]|(?:[a-z]+\s+)?token[,;:)]|digest)|"
    r"ok in (?:the )?client|designed to be public|"
    r"safe to (?:ship|commit|publish|expose)|"
    r"search-only|"
    r"fine to ship|meant for the browser|shipped to every (?:browser|client)|by design|"
    r"ships? (?:in|inside|with) the (?:client|browser|"
    r"bundle|apk|app|binary)|publishable|documented (?:test |example )?(?:key|token|value)|"
    r"(?:docs?|documentation|api reference)\b[^\n]{0,40}\b(?:sample|example)|"
    r"(?:sample|example) (?:key|token|value|request|format)|not a secret|obviously fake|"
    r"fake credentials|dummy (?:key|token|password|credentials)|test fixture|"
    r"published (?:in|by) [^\n]{0,30}(?:docs|documentation)|\bgvlk\b|kms client setup key")
DECLARED_HINTS = ("public", "publishable", "safe to ", "fine to ship", "meant for the browser",
                  "ship", "documented", "docs", "documentation", "api reference", "sample",
                  "example", "not a secret", "fake", "dummy", "fixture", "published", "gvlk",
                  "kms client", "search-only", "test card", "testcard", "testkarte",
                  "tarjeta de prueba", "de teste", "carte de test", "テストカード", "测试卡",
                  "test vector", " from the ", "test mode", "test kart")
DENIED = re.compile(r"\b(?:never|not public|not a public|don't|do not|must not|server[- ]side only|"
                    r"keep (?:it |this )?secret|private key|secret key (?:below|here))")


FIREBASE = ("firebase", "google-services", "googleservice-info")
PUBLIC_WORDS = ("sealedsecret", *FIREBASE)  # what makes declared_public worth a look
GOOGLE_KEY = re.compile(r"aiza[0-9a-z_-]{35}")
SEALED = re.compile(r"^(\+?[ \t]*)encrypteddata:[ \t]*\n((?:\1[ \t]+[^\n]*(?:\n|$))+)",
                    re.M)  # in a diff too ("+  encryptedData:")


def declared_public(view: str) -> list[tuple[int, int]]:
    """Where values are declared public: from such a comment to the first blank line (at
    most a dozen lines), or the rest of the line a trailing comment ends; and a
    SealedSecret's encrypted data, which only the cluster can open; a Google API key in a
    Firebase app's config."""
    out = [(m.start(2), m.end(2)) for m in SEALED.finditer(view)] if "sealedsecret" in view else []
    if any(w in view for w in FIREBASE):  # Firebase documents its API key as an identifier
        out += [(m.start(), m.end()) for m in GOOGLE_KEY.finditer(view)]
    for said in PUBLIC_LINE.finditer(view):  # "Microsoft's public GVLK table: …", any line
        line_start = view.rfind("\n", 0, said.start()) + 1
        line_end = view.find("\n", said.end())
        next_end = view.find("\n", line_end + 1) if line_end != -1 else -1
        out.append((line_start, len(view) if next_end == -1 else next_end))
    read: set[int] = set()
    for hit in _hits(view, DECLARED_HINTS):
        line_start = view.rfind("\n", 0, hit) + 1
        if line_start in read and hit - line_start < 200:
            continue  # one look at a short line; a long one (a JSON row) near each hit
        before = view[max(line_start, hit - 200):hit]
        if not (COMMENT_START.match(view, line_start) or " # " in before or " // " in before
                or "\t# " in before):
            continue  # no comment before the word: nothing is declared (a string search)
        read.add(line_start)  # (a word before the comment, a name, leaves the line unread)
        line_end = view.find("\n", hit)
        line_end = len(view) if line_end == -1 else line_end
        short = line_end - line_start < 200  # a short line is read once, whole
        m = DECLARED.search(view, line_start if short else max(line_start, hit - 60),
                            line_end if short else min(line_end, hit + 80))
        if m is None:
            continue
        line_start = view.rfind("\n", 0, m.start()) + 1
        line_end = view.find("\n", m.end())
        line_end = len(view) if line_end == -1 else line_end
        comment = COMMENT.search(view, line_start, m.start())
        if not comment or DENIED.search(view, line_start, line_end):
            continue
        if view[line_start:comment.start()].strip():  # a trailing comment: its own line
            out.append((line_start, line_end))
            continue
        end, lines = line_end, 0
        while end < len(view) and lines < 12:
            nxt = view.find("\n", end + 1)
            nxt = len(view) if nxt == -1 else nxt
            if not view[end + 1:nxt].strip():
                break
            end, lines = nxt, lines + 1
        out.append((line_start, end))
    return out


# the answer to a security question, on its own line under the question
ANSWER = re.compile(r"(?m)^[ \t]*(?:[-*][ \t]*)?(?:respuesta|answer|antwort|réponse|risposta|"
                    r"resposta|答え|答案|回答|ответ|답변?|odpowiedź|svar|antwoord|a)"
                    r"[ \t]*[:：][ \t]*"
                    r"([^\s（(]{3,40}(?:[ \t]+[^\s（(]{1,24}){0,5})[ \t]*(?=[（(\n]|$)")
QUESTION = re.compile(r"seguridad|security question|sicherheitsfrage|question secrète|sécurité|"
                      r"sicurezza|segurança|秘密の質問|密保|安全问题|보안 질문|секретн|"
                      r"pytanie|säkerhetsfråga|beveiligingsvraag|memorable")
ANSWER_HINTS = ("respuesta", "answer", "antwort", "réponse", "risposta", "resposta", "答え",
                "答案", "回答", "ответ", "답", "odpowiedź", "svar", "antwoord")


def security_answers(text: str, view: str) -> list[tuple[int, int, str]]:
    """An answer given under a security question ("Pregunta: …⏎Respuesta: Pd2-lince-Cuenca"):
    the questions' words within a few lines above it."""
    if not any(h in view for h in ANSWER_HINTS):
        return []
    out = []
    for m in ANSWER.finditer(view):
        answer = text[m.start(1):m.end(1)]
        if QUESTION.search(view, max(0, m.start() - 300), m.start()) and \
                (label_word(answer) if " " not in answer else words_passphrase(answer)):
            out.append((m.start(1), m.end(1), MARK.format("password")))
    return out
