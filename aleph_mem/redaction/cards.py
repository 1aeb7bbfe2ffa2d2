"""A payment card as a person writes it down: its number (a card network's prefix and length,
Luhn's check digit) and the security code given after it; not a masked number, a network's
documented test card, an order's or a ticket's number. One pass (``card_numbers``); a line
that says it gives a test card is declared public (``codes.PUBLIC_LINE``)."""

from __future__ import annotations

import re

from aleph_mem.redaction.rule import MARK

# sixteen digits in groups of four (or none), nineteen with a last group of three; American
# Express's fifteen in groups of four, six and five; not inside a list of numbers
NUMBER = re.compile(r"(?<![\w./-])(?<!\d,)(?<!\d )"
                    r"(?:[2-6]\d{3}([ -]?)\d{4}\1\d{4}\1\d{4}(?:\1\d{3})?|"
                    r"3[47]\d{2}([ -]?)\d{6}\2\d{5})(?![\w/-]|\.\d|,\d{3}(?!\d))")
# the networks' prefixes: Visa, Mastercard, American Express, Discover, JCB, UnionPay,
# Diners, Maestro
NETWORK = re.compile(r"4|5[1-5]|2[2-7]|3[47]|6011|65|64[4-9]|35|62|3[068]|5[06-9]|6[37]")
# what a card is called near its number, in the languages notes are written in
CARD_WORDS = re.compile(r"card|visa|master|amex|american express|discover|\bjcb\b|\bpan\b|"
                        r"\bcc\b|karte|tarjeta|carte|cart[ãa]o|carta|kaart|kort|karta|карт|"
                        r"カード|卡|카드|kart|número|numero|nummer|number|cvv|cvc|\bexp")
# a documented test card: one of the networks' well-known numbers, or a number of few digits
TEST_CARDS = frozenset({
    "4242424242424242", "4111111111111111", "4012888888881881", "5555555555554444",
    "5105105105105100", "2223003122003222", "5200828282828210", "378282246310005",
    "371449635398431", "6011111111111117", "6011000990139424", "3566002020360505",
    "6200000000000005", "4000056655665556", "4917610000000000", "5454545454545454",
    "4000002500003155", "4000002760003184", "4000000000003220", "4000000000009995",
    "4000000000000002", "4000000000000069", "4000000000000127", "4000000760000002",
    "4000001240000000", "5528790000000008", "4543590000000006"})
EXPIRY = re.compile(r"(?<![\d/])(?:0[1-9]|1[0-2])[ \t]*/[ \t]*(?:\d{2}|20\d\d)(?![\d/])")
CODE_LABEL = re.compile(r"(?i)\b(?:cvv2?|cvc2?|csc|cid|sec(?:urity)? code|sicherheitscode|"
                        r"prüfnummer|código de seguridad|cryptogramme|код)\b\D{0,12}?"
                        r"(?<!\d)(\d{3,4})(?!\d)")
LONE_CODE = re.compile(r"(?<![\d.])(\d{3,4})(?![\d./])")
SEPARATORS = " \t,;/|·-"  # between an expiry and the code after it


def luhn(digits: str) -> bool:
    """Luhn's check: the last digit makes the weighted sum a multiple of ten."""
    total = 0
    for i, c in enumerate(reversed(digits)):
        d = int(c) * (2 if i % 2 else 1)
        total += d - 9 if d > 9 else d
    return total % 10 == 0


def card_number(number: str, grouped: bool, near: str) -> bool:
    """A real card's number: a network's prefix, Luhn's digit, not a test card; written in
    groups, or with a card's word near it (a bare sixteen digits may be any id)."""
    digits = re.sub(r"\D", "", number)
    if not luhn(digits) or not NETWORK.match(digits) or digits in TEST_CARDS or \
            len(set(digits)) <= 5 or re.search(r"(\d\d)\1{3}|(\d)\2{5}", digits):
        return False
    return grouped or CARD_WORDS.search(near.lower()) is not None


def card_numbers(text: str, view: str) -> list[tuple[int, int, str]]:
    """Each card number, and its security code after it on its line or the next two: by its
    label ("CVV 123", "security code 3921") or, after the expiry, as the lone three or four
    digits that follow ("4302… / 06/26 / 138", a CSV row's "…,09/27,356,")."""
    out: list[tuple[int, int, str]] = []
    for m in NUMBER.finditer(text):
        line = text.rfind("\n", 0, m.start()) + 1
        above = line
        for _ in range(3):  # a table's header may stand a few rows up
            above = text.rfind("\n", 0, max(0, above - 1)) + 1
        if not card_number(m.group(), bool(m.group(1) or m.group(2)), text[above:m.end() + 40]):
            continue
        out.append((m.start(), m.end(), MARK.format("card")))
        end = m.end()
        for _ in range(3):
            end = text.find("\n", end + 1)
            if end == -1:
                end = len(text)
                break
        after = text[m.end():end]
        code = CODE_LABEL.search(after)
        expiry = EXPIRY.search(after)
        if code is None and expiry is not None:
            rest = after[expiry.end():]
            code = LONE_CODE.match(after, expiry.end() + len(rest) - len(rest.lstrip(SEPARATORS)))
        if code is not None:
            out.append((m.end() + code.start(1), m.end() + code.end(1), MARK.format("card")))
    return out
