"""What ``status`` tells of the index: how much it holds, the notes it could not read
whole (and the files it skipped), and the links that name no note or more than one."""

from __future__ import annotations

import json
from typing import Any

import apsw


def counts(con: apsw.Connection) -> dict[str, int]:
    """Notes, chunks, links, distinct tags, and links by status."""
    one = con.execute
    out = {
        "notes": one("SELECT count(*) FROM notes").fetchone()[0],
        "chunks": one("SELECT count(*) FROM chunks").fetchone()[0],
        "links": one("SELECT count(*) FROM links").fetchone()[0],
        "tags": one("SELECT count(DISTINCT tag_lc) FROM tags").fetchone()[0],
    }
    by_status = dict(one("SELECT status, count(*) FROM links GROUP BY status").fetchall())
    out.update({f"links_{k}": by_status.get(k, 0)
                for k in ("resolved", "unresolved", "ambiguous")})
    return out


def problems(con: apsw.Connection) -> list[dict[str, str]]:
    """Each issue a note has, then each file skipped, by path."""
    out = [{"path": p, "reason": r}
           for p, issues in con.execute("SELECT path, issues FROM notes WHERE issues != '[]' "
                                        "ORDER BY path")
           for r in json.loads(issues)]
    return out + [{"path": p, "reason": r}
                  for p, r in con.execute("SELECT path, reason FROM skipped ORDER BY path")]


def unresolved_links(con: apsw.Connection) -> list[dict[str, Any]]:
    return [{"from": src, "raw": raw, "line": line} for src, raw, line in con.execute(
        "SELECT n.path, l.raw, l.line FROM links l JOIN notes n ON "
        "n.id=l.src_id WHERE l.status='unresolved' ORDER BY n.path, l.line")]


def ambiguous_links(con: apsw.Connection) -> list[dict[str, Any]]:
    return [{"from": src, "raw": raw, "line": line, "candidates": json.loads(c)}
            for src, raw, line, c in con.execute(
                "SELECT n.path, l.raw, l.line, l.candidates FROM links l JOIN notes n "
                "ON n.id=l.src_id WHERE l.status='ambiguous' ORDER BY n.path, l.line")]
