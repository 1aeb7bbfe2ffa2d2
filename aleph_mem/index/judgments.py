"""The ``judgments`` table: what the dream judged of a person's notes while the proposal is
open (a note it would mark stale, contradicted or superseded). A table of the index like the
notes it judges: search ranking (``ranking.note_factors``) and ``show`` read it below the
dream, and the dream (``dream/judgments.py``) makes it anew from its journal through
``replace``."""

from __future__ import annotations

import apsw

# (path, status, reason, partner, proposal)
Judgment = tuple[str, str, str, str | None, str]


def replace(con: apsw.Connection, rows: list[Judgment]) -> None:
    """The table made anew from these rows, in one transaction."""
    with con:
        con.execute("DELETE FROM judgments")
        con.executemany("INSERT INTO judgments VALUES (?, ?, ?, ?, ?)", rows)


def of(con: apsw.Connection, path: str) -> dict[str, str | None] | None:
    """The judgment of one note: its status, reason, partner and proposal."""
    row = con.execute("SELECT status, reason, partner, proposal FROM judgments "
                      "WHERE path = ?", (path,)).fetchone()
    return dict(zip(("status", "reason", "partner", "proposal"), row, strict=True)) \
        if row else None


def caveats(con: apsw.Connection) -> dict[str, str]:
    """path -> "status: reason" of every judged note."""
    return dict(con.execute("SELECT path, status || ': ' || reason FROM judgments")
                .fetchall())
