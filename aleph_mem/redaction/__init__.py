"""Secrets out of every text aleph-mem stores, indexes, shows or sends: ``text`` (open it
first: ``redact`` and ``clean``, the passes in the order they run), ``rule`` (one rule:
its pattern, hints and check), ``rules`` (each credential by its shape: token prefixes and
structured rules), ``announced`` (secrets a label, a command or a file announces: part of
the structured rules, in their order), ``values`` (what a taken-out
value must be to count: not a placeholder, a variable, a path or a published example),
``structure`` (passes that read structure rather than words: literals in code, a call's
arguments, CSV exports, hex under a key's name, base64 blobs) and ``codes`` (codes people
keep without a key's name: recovery and license keys, one-time-password seeds, PINs).

A rule set rather than a scanner: each rule names a credential by its shape and keeps the
words around it, so "the password policy wants 12 characters" or ``max_tokens = 400`` stay
as they were. No entropy guess: a git SHA, a UUID or a checksum is never a secret by shape
alone. The corpus is tests/redaction_corpus.py."""

__all__ = ["text"]
