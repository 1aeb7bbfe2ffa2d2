"""A code after a label that names a lock, or a code where a door, a card, an alarm or a
safe is named on its line or the line above ("carte bleue de maman – code : 4610",
"Кодовый замок подвала: 0054", "digicode immeuble : B805#", "Schlüsselbox am Eingang ⏎
Code: 9859"). What a label says a number is wins: a postal or an area code, an error's, an
order's, a customer's, a school's or a business's code (APE, centre) is no secret.

And a value a person chose as a password (letters, a digit and a sign: "Ines&Kenji1994") alone
after any label at a line's end ("conta da banda: …", "Synology DSM admin 'nas': …"): the
label need not name a password when the value says what it is. A label that says the value
is an example, an id, a version or a hash wins."""

from __future__ import annotations

import re

from aleph_mem.redaction.nearby import EXAMPLES, NOT_SECRET_WORDS
from aleph_mem.redaction.rule import MARK
from aleph_mem.redaction.values import is_value, pin_value

# a word that names a code or a lock, then (a few words on) its colon and the code
CODE_NAME = re.compile(
    r"(?<![\w-])(?:codes?|código|codice|kod|kód|код\w*|кодовый замок|κωδικός|pin|combinación|"
    r"storno-code|stornocode|beheerderscode|managercode|manager code|supervisor code|"
    r"combinaison|combinazione|digicode|cadenas|candado|coffre|schlüsselbox|smart lock|замок|"
    r"домофон\w*|lockbox|key ?box)(?![\w-])")
# a lock's own word: its code needs no other
LOCK = re.compile(r"digicode|cadenas|candado|coffre|schlüsselbox|smart lock|замок|домофон|lockbox|"
                  r"key ?box|combinación|combinaison|combinazione")
# what a code opens, said on the code's line or the line above
OPENS = re.compile(
    r"door|porte|puerta|porta|tür|portail|gate|portón|portão|garage|alarm|συναγερμ|safe|"
    r"tresor|caja fuerte|cassaforte|lock|schloss|carte|card|karte|tarjeta|cartão|cps|porteur|"
    r"atm|\bsim\b|puk|box|boîte|caixa|caja|kiosque|immeuble|building|edificio|подъезд|квартир|"
    r"flat|appart|wohnung|ferienwohnung|haus|house|maison|casa|locker|taquilla|spind|"
    r"desconexi|disarm|unscharf|désactivation|storno|void|manager|kierownik|beheerder|"
    r"sleutelkluis|keysafe|key safe|schlüsseltresor|kasa|kassa|kasse|caja registradora|pos\b")
CODE_AFTER = re.compile(
    r"[^\n:：=?!]{0,40}?[ \t]*(?:[:：=]|\bist(?: jetzt)?|\bis(?: now)?)[ \t]*(?P<q>['\"`]?)"
    r"(\d{4,8}|\d{1,2}(?:-\d{1,2}){2,3}|[A-Z]\d{3,6}#?|\d{3,6}[A-ZА-Я#*])(?P=q)"
    r"(?=[ \t]*(?:$|\n|[,(;.]|/|puis\b|then\b|dann\b|und\b|и\b|y\b|e\b|et\b))")
# what a label says its number is, when it is no code
NOT_A_CODE = re.compile(
    r"(?i)\b(?:id|ids|number|nummer|numéro|número|numero|nr|no|zip|postal|post|postleitzahl|"
    r"plz|area|country|error|status|exit|http|qr|bar|barcode|promo|discount|coupon|voucher|"
    r"tracking|order|invoice|customer|client|kunden\w*|ref|reference|version|model|serial|s/n|"
    r"tel|phone|fax|iban|bic|swift|blz|sort|routing|account|konto|cuenta|compte|vat|tax|steuer|"
    r"cost|kosten|price|preis|room|zimmer|floor|etage|line|zeile|iso|ean|isbn|sku|article|"
    r"artikel|part|unit|qty|year|jahr|año|année|source|html|python|bash|css|sql|shortcut)\b")


def labelled_codes(text: str, view: str) -> list[tuple[int, int, str]]:
    """Codes after a label that names a code or a lock."""
    out = []
    for word in CODE_NAME.finditer(view):
        m = CODE_AFTER.match(text, word.end())
        if not m:
            continue
        line_start = view.rfind("\n", 0, word.start()) + 1
        label = view[max(line_start, word.start() - 60):m.start(2)]
        above = view[view.rfind("\n", 0, max(0, line_start - 1)) + 1:line_start]
        if not (LOCK.search(label) or OPENS.search(label) or OPENS.search(above)):
            continue
        code = m.group(2)
        digits = re.sub(r"\D", "", code)
        if NOT_A_CODE.search(label) or re.fullmatch(r"(?:19|20)\d\d", code) or \
                "-" not in code and not pin_value(digits):
            continue
        out.append((m.start(2), m.end(2), MARK.format("code")))
    return out


# a label, its colon, a value alone at the line's end (or before a note in brackets)
LABELLED_VALUE = re.compile(
    # (possessive, the label starting with no space: a line of 9,000 spaces is no label)
    r"(?m)^[ \t]*+(?:[-*+][ \t]+(?:\[[ xX]\][ \t]+)?)?(?P<label>[^\s:：=`][^\n:：=`]{1,47}?)"
    r"[ \t]*[:：][ \t]+"
    r"(?P<tick>`?)(?P<value>[^\s`\"'<>|]{8,64})(?P=tick)[ \t]*(?:\([^)\n]{0,80}\)[ \t]*)?\r?$")
CHOSEN_SIGNS = frozenset("!@#$%^&*+=?~")
# a label that is code, a header's name (``X-Request-Id``), a config's key (``build_id``)
CODE_LABEL = re.compile(r"[(){};<>=]|^[ \t]*[\"'][^\"']*[\"'][ \t]*$|^[ \t]*(?:#|//)|"
                        r"^[ \t]*[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+[ \t]*$|"
                        r"^[ \t]*[a-z_]+[ \t]*$")
NOT_CHOSEN_LABEL = re.compile(NOT_SECRET_WORDS)
# an account's words: a code's label they say is no code, a password's they say is one
ACCOUNT_WORDS = frozenset({"account", "konto", "cuenta", "compte", "customer", "client"})


def _chosen(value: str) -> bool:
    """Letters (three or more, in both cases), a digit and a sign; not
    a link, an address, a path, a handle, a file, a hash's marker or a list of fields."""
    if not value.isascii() or re.search(r"[/\\=:,;()#\[\]]|\.[a-z]{2,5}$|\*\*|__|\+\+", value):
        return False
    if value[0] in "@$~!^" or re.fullmatch(r"[\w.+-]+@[\w.-]+", value):
        return False  # a handle, a variable, a UPI id, an e-mail address
    if re.search(r"\b[A-Z]&[A-Z]\b", value):
        return False  # "Q&A", "R&D", "AT&T"
    letters = sum(c.isalpha() for c in value)
    return letters >= 3 and any(c.isdigit() for c in value) and \
        any(c in CHOSEN_SIGNS for c in value) and value != value.upper() and \
        value != value.lower() and not re.fullmatch(r"[\w.-]+\?[\w.=&%-]+", value)


def chosen_after_labels(text: str, view: str) -> list[tuple[int, int, str]]:
    """A password-shaped value alone after any label at its line's end."""
    out = []
    for m in LABELLED_VALUE.finditer(text):
        value = m.group("value").rstrip(".,;")
        label = m.group("label")
        if not _chosen(value) or CODE_LABEL.search(label) or not is_value(value):
            continue  # code ('"0": process.env.PCR0!'), a reference, a stand-in
        low = view[m.start("label"):m.end("label")]
        if EXAMPLES.search(low) or NOT_CHOSEN_LABEL.search(low) or any(
                w.group() not in ACCOUNT_WORDS for w in NOT_A_CODE.finditer(low)):
            continue
        out.append((m.start("value"), m.start("value") + len(value), MARK.format("password")))
    return out
