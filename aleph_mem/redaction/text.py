"""``redact``: every text a transcript brings in, an agent or a person writes through
aleph-mem, or a request sends to the LLM passes it before it is written to the raw store or
a note, indexed, shown or sent. The passes run in order (an AWS key pair, the token rules,
the structured rules where their hints appear, base64 blobs, literals, hex under a name, CSV
exports, a login call's arguments, the codes), each on the text the one before left.

Speed: token rules start with their literal prefix, and case-blind rules match a lower-cased
view of the text with lower-case patterns, which keeps a 5 MB transcript near a second
(benchmarks/redaction.py)."""

from __future__ import annotations

import bisect
import functools
import re
from collections.abc import Callable, Iterator

from aleph_mem.redaction.cards import card_numbers
from aleph_mem.redaction.codes import (
    DECLARED_HINTS,
    PUBLIC_WORDS,
    declared_public,
    named_codes,
    security_answers,
    shaped_codes,
)
from aleph_mem.redaction.context import (
    cookie_values,
    key_ends_a_string,
    names_code,
    value_end,
)
from aleph_mem.redaction.dumps import roasted
from aleph_mem.redaction.fields import pairs
from aleph_mem.redaction.labels import chosen_after_labels, labelled_codes
from aleph_mem.redaction.nearby import beside_credential_words, login_pairs, random_looking
from aleph_mem.redaction.published import PUBLISHED
from aleph_mem.redaction.rule import MARK, Rule, occurrences
from aleph_mem.redaction.rules import AWS_PAIR, STRUCTURED
from aleph_mem.redaction.seeds import joined_phrases, seed_phrases
from aleph_mem.redaction.structure import (
    CREDENTIAL_WORDS,
    CSV_HEADER_WORDS,
    blobs,
    call_passwords,
    csv_passwords,
    export_rows,
    hex_keys,
    hex_text,
    literals,
    table_secrets,
)
from aleph_mem.redaction.tokens import TOKENS
from aleph_mem.redaction.values import (
    base64_text,
    digits_password,
    hashed_password,
    looks_random,
    names_a_place,
    pass_in_prose,
    public_token,
)

QUOTE_PAIRS = frozenset(('""', "''", "``", "「」", "『』", "«»", "()", "[]"))
# the marks of rules that read a value by its name or its words, not by its shape: what they
# find in code, a formula or a list of options is not taken (``context.py``)
GENERIC = frozenset((MARK.format("password"), MARK.format("secret"), MARK.format("cookie")))
ALL_HINTS = tuple(sorted({h for rule in STRUCTURED for h in rule.hints}))
RULE_HINTS = [(rule, frozenset(rule.hints)) for rule in STRUCTURED]
# a token's two parts on two lines: the end of one line, the start of the next
RUN = re.compile(r"[A-Za-z0-9_.$+~%-]{8,}")  # a token's first part: from its prefix on (xoxd-…%2F…)
TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.$+~-")
# a line break inside a token: a plain or escaped one, a shell's backslash continuation, or a
# string literal closed and opened again on the next line ("…" + "…", implicit joins)
BREAK = re.compile(r"(?:\\?\r?\n|\\n|([\"'])[ \t]*[+.&]?[ \t]*\\?\r?\n[ \t]*[+.&]?[ \t]*\1)[ \t]*"
                   r"(?=[A-Za-z0-9_+/=.$~-]{2})")
TAIL = re.compile(r"[A-Za-z0-9_+/=.$~-]*")
NEXT_KEY = re.compile(r"[a-z]{2,6}_(?:test|live)_")
ASSIGNED = re.compile(r"[ \t]*(?:=(?![=\s])|:(?!//))")
PREFIXES = tuple(p for rule in TOKENS for p in rule.prefixes)
# the token rules by their prefixes' first two characters (every prefix has two or more)
PREFIX_RULES: dict[str, list[tuple[Rule, str]]] = {}
for _rule_ in TOKENS:
    for _p in _rule_.prefixes:
        PREFIX_RULES.setdefault(_p[:2], []).append((_rule_, _p))
# a value cut by a line break: right after a character a word never ends in (``…S/``), or
# followed by a line that is nothing but the rest of a random token
WRAPPED = re.compile(r"\\?\r?\n[ \t]*[A-Za-z0-9+/=_.-]{4,}(?=[\s)\"',;]|$)")
REST_LINE = re.compile(r"\r?\n[ \t]*([A-Za-z0-9+/_-]{8,}={0,2})[ \t]*(?=\r?\n|$)")
REST_OF_WRAP = re.compile(r"\r?\n[ \t]*([A-Za-z0-9+/_.-]{8,}={0,2})[ \t]*(?=\r?\n|$)")
# a value worth looking for again: a token's or a password's characters, a letter and a digit
TAKEN_AGAIN = re.compile(r"(?=[^\d]*\d)(?=[^A-Za-z]*[A-Za-z])[A-Za-z0-9+/=_.!@#$%^&~:-]"
                         r"[A-Za-z0-9+/=_.!@#$%^&~:*()?-]+")
# user:password, not a serialized object ('O:9:"UserModel":1:{s:8:…}')
USER_PASSWORD = re.compile(r"(?=[^:]*[A-Za-z])[\w.@+\\-]{1,64}:(?!//)(?!\d+:)[^\s{}\";]{6,}")


def _lower_view(text: str) -> str:
    """The text in lower case, each character where it was (a few letters, such as 'İ',
    lower into two characters: those stay as they are)."""
    low = text.lower()
    if len(low) == len(text):
        return low
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in text)


def _found(view: str, hints: tuple[str, ...], seen: dict[str, list[int]]) -> list[int]:
    """Where each hint appears in the lower-cased text, in order (each hint looked for once
    per text: ``seen``, which the caller moves along as passes replace spans)."""
    at: list[int] = []
    for hint in hints:
        if hint not in seen:
            seen[hint] = occurrences(view, hint)
        at += seen[hint]
    return sorted(set(at))


def _matches(rule: Rule, text: str, view: str,
             seen: dict[str, list[int]]) -> Iterator[re.Match[str]]:
    """The rule's matches: over the whole text, or only where a hint is (``back``)."""
    src = view if rule.lower else text
    if rule.back is None:
        yield from rule.pattern.finditer(src)
        return
    done = 0
    for p in _found(view, rule.hints, seen):
        if p < done or (rule.gate and not rule.gate.match(view, p)):
            continue
        for start in range(max(done, p - rule.back), p + 1):
            m = rule.pattern.match(src, start)
            if m and m.end() > p:
                done = m.end()
                yield m
                break


def _spans(rule: Rule, seen: dict[str, list[int]], text: str,
           view: str) -> list[tuple[int, int, str]]:
    """Where ``rule`` takes a secret out of ``text``: (start, end, replacement)."""
    out: list[tuple[int, int, str]] = []
    for m in _matches(rule, text, view, seen):
        if "[REDACTED:" in text[m.start():m.end()]:
            continue  # a mark an earlier rule left is never read as a key or a value
        start = m.end(rule.keep) if rule.keep else m.start()
        value = text[start:m.end()]
        if rule.check and not rule.check(value) and not (
                rule.keep and digits_password(m.group(rule.keep), value)):
            continue
        if rule.keep:
            out += _named_value(rule, m, text)
        else:
            out.append((start, m.end(), MARK.format(rule.kind)))
    return out


def _named_value(rule: Rule, m: re.Match[str], text: str) -> list[tuple[int, int, str]]:
    """The marks for a value given after its name (``rule.keep``, the match's group that
    stays): none where the name and the line say it is no secret, else the value alone,
    without the line's punctuation or the quotes around it; a Cookie header's values one by
    one, its names kept."""
    name, start = m.group(rule.keep), m.end(rule.keep)  # lower-cased where the rule reads so
    value, written = text[start:m.end()], text[m.start(rule.keep):start]
    line = text[text.rfind("\n", 0, m.start()) + 1:m.start()]
    if hashed_password(name, value) or any(f(line, written, value)
                                           for f in (pass_in_prose, names_a_place)):
        return []
    if key_ends_a_string(text, m.start(rule.keep), name) or \
            text[start - 1:start] in ("\"", "'") and value[:1].isspace():
        return []  # a message's last word, what stands between two strings
    end = _wrapped_end(text, m.end())
    if end == m.end():
        end = value_end(text, start, end)
    if end <= start or end < m.end() and rule.check and not rule.check(text[start:end]):
        return []  # what is left once the line's punctuation is not a value
    while end - start > 2 and text[start] + text[end - 1] in QUOTE_PAIRS:
        start, end = start + 1, end - 1  # the quotes and brackets stay around the mark
    if rule.kind == "cookie" and re.match(r"[\w.-]+=[^=;\s]", text[start:end]):
        return [(a, b, MARK.format("cookie")) for a, b in cookie_values(text, start, end)]
    return [(start, end, MARK.format(rule.kind))]


def _wrapped_end(text: str, end: int) -> int:
    """Where a value that may go on past a line break ends: with the next line when the
    value stops on a connecting character, or the next line is only a random token's rest."""
    wrapped = WRAPPED.match(text, end) if text[end - 1] in "/+-_\\" else None
    if wrapped:
        return wrapped.end()
    width, line = end - (text.rfind("\n", 0, end) + 1), REST_LINE
    while (rest := line.match(text, end)) and any(c.isdigit() for c in rest.group(1)) \
            and looks_random(rest.group(1)):
        end = rest.end()  # wrapped at a fixed width: each full line the rest of the value
        if len(rest.group(1)) < min(width, 40):
            break
        width, line = len(rest.group(0).lstrip("\r\n")), REST_OF_WRAP
    return end


def _apply(text: str, spans: list[tuple[int, int, str]]
           ) -> tuple[str, list[tuple[int, int, str]]]:
    """The text with each span replaced (a span overlapping an earlier one is dropped), and
    the spans that were."""
    parts, at, done = [], 0, []
    for start, end, new in sorted(spans):
        if start < at:
            continue
        parts += [text[at:start], new]
        at = end
        done.append((start, end, new))
    return "".join(parts) + text[at:], done


def _shift(done: list[tuple[int, int, str]]) -> Callable[[int], tuple[int, bool]]:
    """Where a position of the text is after ``done`` (sorted, apart) replaced spans in it:
    moved by what was replaced before it, and whether a replaced span held it."""
    starts = [a for a, _, _ in done]
    cum = [0]
    for a, b, new in done:
        cum.append(cum[-1] + len(new) - (b - a))

    def at(pos: int) -> tuple[int, bool]:
        i = bisect.bisect_right(starts, pos) - 1
        inside = i >= 0 and pos < done[i][1]
        return pos + cum[i if inside else i + 1], inside
    return at


def _moved(regions: list[tuple[int, int]], done: list[tuple[int, int, str]]
           ) -> list[tuple[int, int]]:
    """Where regions of the text are after ``done`` replaced spans in it (each boundary
    moves by what was replaced before it)."""
    at = _shift(done)
    return [(at(a)[0], at(b)[0]) for a, b in regions]


def _token_runs(text: str) -> list[tuple[int, int, Rule]]:
    """Each run of token characters that starts with a token rule's prefix: one scan of
    the text, whatever the number of prefixes."""
    out = []
    for m in RUN.finditer(text):
        start = m.start()
        if text[start - 1:start] == "\\" and text[start] in "nrt" and \
                text[start + 1:start + 3] in PREFIX_RULES:
            start += 1  # after a JSON-escaped break ("\\nghp_…"), not its letter
        rules = PREFIX_RULES.get(text[start:start + 2])
        if rules:
            rule = next((r for r, p in rules if text.startswith(p, start)), None)
            if rule:
                out.append((start, m.end(), rule))
    # a prefix alone at a line's end, its token on the next line (``NPM_TOKEN=npm_⏎…``)
    at = text.find("\n")
    while at != -1:
        end = at - 1 if at and text[at - 1] == "\r" else at
        end = end - 1 if end and text[end - 1] == "\\" else end
        for rule in TOKENS if text.endswith(PREFIXES, 0, end) else ():
            p = next((p for p in rule.prefixes if text.endswith(p, 0, end)), None)
            if p and (end == len(p) or text[end - len(p) - 1] not in TOKEN_CHARS):
                out.append((end - len(p), end, rule))
                break
        at = text.find("\n", at + 1)
    return sorted(out)


def _tokens_in(text: str, runs: list[tuple[int, int, Rule]]) -> list[tuple[int, int, str]]:
    """The tokens, each taken out whole; a token wrapped across a line break (a terminal's
    width, a pasted chat line) is joined with the next line's first word and taken out
    with both its parts when the two match its rule across the break (two words, or a hash
    wrapped in a table, start with no prefix and match none)."""
    out = []
    for start, end, rule in runs:
        first = rule.pattern.match(text, start)  # the token's first line may hold a '/'
        end = max(end, first.end()) if first else end
        joined, at, stop = text[start:end], end, None
        while (brk := BREAK.match(text, at)) is not None:  # wrapped once, or again
            tail = TAIL.match(text, brk.end())
            assert tail is not None  # TAIL matches the empty string too
            if tail.group().startswith(PREFIXES) or NEXT_KEY.match(tail.group()):
                break  # the next line's own token (a docs page's sk_test_… above pk_test_…)
            whole_line = tail.end() == len(text) or text.startswith(("\n", "\r\n"), tail.end())
            if stop is not None and not whole_line:
                break  # a second wrap only when the line holds nothing but the token's rest
            m = rule.pattern.match(joined + tail.group())
            if not (m and m.end() > len(joined) and looks_random(m.group())):
                if stop is None and whole_line and len(tail.group()) >= 40 and \
                        len(joined) >= 40 and len(joined) < 8000:
                    joined, at = joined + tail.group(), tail.end()
                    continue  # wrapped at a fixed width: whole only after more lines
                break
            if ASSIGNED.match(text, brk.end() + m.end() - len(joined)):
                break  # the next line's name of a setting ("KEY=…", "key: …"), not the rest
            stop = brk.end() + m.end() - len(joined)
            if m.end() < len(joined) + len(tail.group()) or not whole_line:
                break  # the token ends inside this line
            joined, at = joined + tail.group(), tail.end()
        if stop is not None:
            if not public_token(BREAK.sub("", text[start:stop])):
                out.append((start, stop, MARK.format(rule.kind)))
            continue
        m = rule.pattern.match(text, start)
        if m and looks_random(m.group()) and not public_token(m.group()):
            out.append((start, m.end(), MARK.format(rule.kind)))
    return out


def _base64(text: str, depth: int) -> list[tuple[int, int, str]]:
    """A base64 blob that decodes to a credential: ``user:password``, or text the rules
    redact (a docker config's ``auth``, a Kubernetes secret's value, a key file)."""
    out = []
    for start, end in blobs(text):
        blob = "".join(text[start:end].split())
        if blob.lower() == blob or blob.upper() == blob or blob in PUBLISHED:
            continue
        said = base64_text(blob)
        if said is None or not all(c.isprintable() or c in "\n\r\t" for c in said):
            continue
        if USER_PASSWORD.fullmatch(said.strip()) or _redact(said, depth + 1)[1]:
            out.append((start, end, MARK.format("base64-credential")))
    return out


def _named_fields(text: str, view: str, depth: int) -> list[tuple[int, int, str]]:
    """A record's value read as ``name: value`` would be (``fields.py``): what the rules
    take out of that line is taken out of the value."""
    out = []
    for name, start, end in pairs(text, view):
        value = text[start:end]
        if "[REDACTED:" in value:
            continue
        line = f"{name}: {value}"
        said, n = _redact(line, depth + 1)
        if n and said.startswith(f"{name}: "):
            out.append((start, end, said[len(name) + 2:]))
    return out


def _redact(text: str, depth: int = 0) -> tuple[str, int]:
    if not text:
        return text, 0
    count = 0
    low = _lower_view(text)
    seen: dict[str, list[int]] = {}
    passes: list[Callable[[str, str], list[tuple[int, int, str]]]] = [
        functools.partial(_spans, AWS_PAIR, seen), lambda t, v: _tokens_in(t, _token_runs(t))]
    present = {h for h in ALL_HINTS if h in low}  # each hint looked for once, whatever shares it
    for rule, hints in RULE_HINTS:
        if not hints or not hints.isdisjoint(present):  # a rule runs where one of its hints is
            passes.append(functools.partial(_spans, rule, seen))
    if depth < 2:
        passes.append(lambda t, v: _base64(t, depth))
        passes.append(lambda t, v: _named_fields(t, v, depth))
    passes += [roasted, card_numbers, literals, hex_keys, shaped_codes]
    if ("," in text or ";" in text or "\t" in text) and any(
            w in low for w in CSV_HEADER_WORDS):
        passes.append(csv_passwords)
    if any(w in low for w in CREDENTIAL_WORDS):
        passes.append(call_passwords)
    passes += [named_codes, labelled_codes, chosen_after_labels, security_answers]
    if "|" in text and "---" in text:
        passes.append(table_secrets)
    if ",http" in low or ',"http' in low:
        passes.append(export_rows)
    if any(w in low for w in ("xxd", "fromhex", "unhexlify", "hex2bin", "hex -d")):
        passes.append(hex_text)
    # last: what no rule names
    passes += [seed_phrases, joined_phrases, login_pairs, beside_credential_words]
    # what comments declare public: found once, moved along as passes replace spans
    public = declared_public(low) if any(w in low for w in DECLARED_HINTS + PUBLIC_WORDS) \
        else []
    taken: dict[str, str] = {}  # each value taken out, and its mark
    for find in passes:
        spans = find(text, low)
        if spans and public:
            spans = _undeclared(spans, public)
        if spans:
            spans = [s for s in spans if s[2] not in GENERIC or not names_code(text, s[0], s[1])]
        if spans:
            before = text
            text, done = _apply(text, spans)
            count += len(done)
            taken.update((before[a:b], new) for a, b, new in done if new.startswith("[REDACTED:"))
            public = _moved(public, done) if public else public
            low = _lower_view(text)
            _move_hints(seen, done)
    text, again = _everywhere(text, taken)
    return text, count + again


def _everywhere(text: str, taken: dict[str, str]) -> tuple[str, int]:
    """A value taken out in one place taken out wherever else it stands in the text (a tool's
    output that a transcript repeats in ``toolUseResult``, a key quoted again in a reply)."""
    values = sorted((v for v in taken if len(v) >= 8 and TAKEN_AGAIN.fullmatch(v) and
                     (random_looking(v) or any(c in "!@#$%^&*~+=?" for c in v))),
                    key=len, reverse=True)  # not a word ("postgres" in "postgresql"), no prose
    if not values:
        return text, 0
    found = re.compile(r"(?<![A-Za-z0-9_])(?:" + "|".join(map(re.escape, values))
                       + r")(?![A-Za-z0-9_])")  # one pass, however many; whole values only
    return found.subn(lambda m: taken[m.group()], text)


def _move_hints(seen: dict[str, list[int]], done: list[tuple[int, int, str]]) -> None:
    """Where each hint found so far is after ``done`` replaced spans: a hint inside a
    replaced span is gone (a mark is never read again), the others move by what was
    replaced before them, so a 5 MB text is searched for each hint once, not once a pass."""
    at = _shift(done)
    for hint, found in seen.items():
        seen[hint] = [moved for moved, inside in map(at, found) if not inside]


def _undeclared(spans: list[tuple[int, int, str]],
                public: list[tuple[int, int]]) -> list[tuple[int, int, str]]:
    """The spans outside what a comment declares public (a private key never is)."""
    return [s for s in spans if s[2] == MARK.format("private-key")
            or not any(a <= s[0] < b for a, b in public)]


def redact(text: str) -> tuple[str, int]:
    """The text with every secret replaced by ``[REDACTED:kind]``, and how many were."""
    return _redact(text)


def clean(text: str) -> str:
    return redact(text)[0]
