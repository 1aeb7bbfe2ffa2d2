"""A value stored beside its name as two fields of one record: a password manager's export
(``{"value": "…", "name": "password"}``), a HAR's header (``{"name": "Cookie", "value":
"SID=…"}``), a Postman variable, a Kubernetes container's env (``- name: API_KEY`` and
``value: …`` on the next line), a YAML name over its list's one item. ``pairs`` finds them;
``text.py`` reads each as the line ``name: value`` would be read, by every rule, so a name
says what its value is wherever the two stand in the record."""

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
# a YAML name whose value is a list of one item on the next line (Unity's settings asset:
# "secretKey:⏎  - 9f…")
YAML_ITEM = re.compile(r"(?m)^([ \t]*)([\w.-]{1,60}):[ \t]*\r?\n\1[ \t]*-[ \t]+"
                       r"([^\s#\"'][^\s\"']*)[ \t]*\r?$")
# a YAML list's item named on one line, its value on the next (a pod's env, a compose list)
YAML_PAIR = re.compile(r"(?m)^([ \t]*)- name:[ \t]*[\"']?([\w.-]{1,60})[\"']?[ \t]*\r?\n"
                       r"\1[ \t]+value:[ \t]*([\"']?)([^\s\"'#][^\n\"']*?)\3[ \t]*\r?$")


def pairs(text: str, view: str) -> Iterator[tuple[str, int, int]]:
    """Each record's name and where its value is: (name, start, end)."""
    if "- name:" in view and "value:" in view:
        for m in YAML_PAIR.finditer(text):
            yield m.group(2), m.start(4), m.end(4)
    if ":\n" in view and "- " in view:
        for m in YAML_ITEM.finditer(text):
            yield m.group(2), m.start(3), m.end(3)
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
