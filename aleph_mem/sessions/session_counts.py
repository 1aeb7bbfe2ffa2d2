"""What ``status`` tells of the captured sessions, from the index alone: how many, how many
have no session note yet, and when the latest ended. A module of its own so that ``status``
loads none of the transcripts' parsing."""

from __future__ import annotations

from typing import Any

import apsw


def counts(con: apsw.Connection) -> dict[str, Any]:
    count, waiting, latest = con.execute(
        "SELECT count(*), sum(note = ''), max(ended) FROM sessions").fetchone()
    return {"captured": count, "without_note": waiting or 0, "latest": latest}
