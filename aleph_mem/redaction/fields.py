"""A value stored beside its name as two fields of one record: a password manager's export
(``{"value": "…", "name": "password"}``), a HAR's header (``{"name": "Cookie", "value":
"SID=…"}``), a Postman variable. ``pairs`` finds them; ``text.py`` reads each as the line
``name: value`` would be read, by every rule, so a name says what its value is wherever the
two stand in the record."""

from __future__ import annotations

import re
from collections.abc import Iterator

# one record with no record inside it, on one line or a few (a pretty-printed HAR's header)
RECORD = re.compile(r"\{[^{}]{0,800}\}")
# its name field, plain or JSON-escaped inside a string (a transcript's tool output)
NAME = re.compile(r"(\\?)\"(?:name|key|designation|label|field|header|purpose)\1\"\s*:\s*\1\""
                  r"([^\"\\\n]{1,60})\1\"")
VALUE = {"": re.compile(r"\"value\"\s*:\s*\"((?:[^\"\\\n]|\\.)*)\""),
         "\\": re.compile(r"\\\"value\\\"\s*:\s*\\\"((?:[^\"\\\n]|\\\\.)*?)\\\"")}
HINT = "value"


def pairs(text: str, view: str) -> Iterator[tuple[str, int, int]]:
    """Each record's name and where its value is: (name, start, end)."""
    if f'"{HINT}"' not in view and f'\\"{HINT}\\"' not in view:
        return
    for record in RECORD.finditer(text):
        body = record.group()
        if '"value' not in body and '\\"value' not in body:
            continue
        for name in NAME.finditer(body):
            value = VALUE[name.group(1)].search(body)
            if value and value.group(1):
                yield (name.group(2), record.start() + value.start(1),
                       record.start() + value.end(1))
