"""The one rule for append-only JSON-lines files (the event log, the dream's runs,
proposals, recalls and verdicts):

- appending writes whole lines and fsyncs them; a torn last line a crash left behind is
  closed off first, so it can never swallow the new record;
- reading takes complete lines only: a last line without its newline is torn (or still
  being written) and is left for later; a damaged line anywhere else is skipped with a
  warning, never fatal.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from aleph_mem import logs

log = logs.get(__name__)


def append(path: Path, record: dict[str, Any], **dumps: Any) -> None:
    append_many(path, [record], **dumps)


def append_many(path: Path, records: list[dict[str, Any]], **dumps: Any) -> None:
    """Append whole lines in one write and one fsync (a crash may tear only the last)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":"), **dumps) + "\n"
                    for r in records)
    with open(path, "ab+") as fh:
        if fh.tell() > 0:
            fh.seek(-1, os.SEEK_END)
            if fh.read(1) != b"\n":
                fh.write(b"\n")
        fh.write(lines.encode("utf-8"))
        fh.flush()
        os.fsync(fh.fileno())


MAX_LINE = 8 << 20  # bytes: an event or journal line is a few hundred


def read(path: Path, start: int = 0) -> Iterator[tuple[Any, int]]:
    """Each complete line's JSON value from byte ``start``, with the offset after it. A line
    longer than ``MAX_LINE`` (no writer of ours makes one; a file synced in might) is skipped
    with a warning, read in bounded pieces, never held whole."""
    try:
        fh = open(path, "rb")
    except FileNotFoundError:
        return
    with fh:
        fh.seek(start)
        offset = start
        while raw := fh.readline(MAX_LINE + 1):
            if not raw.endswith(b"\n"):
                if len(raw) <= MAX_LINE:
                    return  # a torn last line: the next append closes it off
                size = len(raw)
                while not raw.endswith(b"\n"):
                    raw = fh.readline(MAX_LINE)
                    if not raw:
                        return
                    size += len(raw)
                log.warning("skipping a line of %d bytes in %s at byte %d: too large to be "
                            "one of ours", size, path, offset)
                offset += size
                continue
            offset += len(raw)
            if not raw.strip():
                continue
            try:
                yield json.loads(raw), offset
            except ValueError:
                log.warning("skipping a damaged line in %s at byte %d", path,
                            offset - len(raw))


def records(path: Path) -> list[Any]:
    return [value for value, _ in read(path)]
