"""The library's front door: one open vault with its index. The CLI and the MCP server are
thin shells over these calls."""

from __future__ import annotations

import difflib
import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from . import db
from .errors import NoteNotFound
from .indexer import Indexer, Progress, ReconcileReport
from .resolver import fold
from .search import Filters, Hit, search
from .settings import Settings, load_settings
from .vault import Vault


@dataclass(frozen=True)
class LinkView:
    raw: str
    target: str
    anchor: str
    alias: str | None
    embed: bool
    resolved: str | None
    status: str
    line: int
    candidates: list[str]


@dataclass(frozen=True)
class NoteView:
    path: str
    title: str
    frontmatter: dict[str, Any]
    hash: str
    tags: list[str]
    aliases: list[str]
    links: list[LinkView]
    backlinks: list[str]
    content: str
    issues: list[str]

    def as_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["links"] = [{k: v for k, v in asdict(lv).items()
                         if k in ("raw", "target", "anchor", "alias", "embed", "resolved")}
                        for lv in self.links]
        return out


class Memory:
    def __init__(self, vault: Vault, settings: Settings) -> None:
        self.vault = vault
        self.settings = settings
        self.con, self.created = db.open_index(vault.index_path)
        self.indexer = Indexer(vault, self.con, settings)

    @classmethod
    def open(cls, root: Path, flags: dict[str, Any] | None = None) -> Memory:
        vault = Vault.open(root)
        return cls(vault, load_settings(vault.root, flags))

    def close(self) -> None:
        self.con.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- indexing -------------------------------------------------------------------------

    def reindex(self, rebuild: bool = False, progress: Progress | None = None) -> ReconcileReport:
        if rebuild:
            self.con.close()
            db.remove_index_files(self.vault.index_path)
            self.con, self.created = db.open_index(self.vault.index_path)
            self.indexer = Indexer(self.vault, self.con, self.settings)
        return self.indexer.reconcile(progress)

    # -- reading --------------------------------------------------------------------------

    def search(self, query: str, limit: int | None = None, filters: Filters | None = None,
               group: bool = True) -> list[Hit]:
        return search(self.con, query, limit or self.settings.search_limit, filters, group)

    def find_note(self, ref: str) -> str:
        """A note's path from a path (``.md`` optional), a file name, a title or an alias."""
        ref = ref.strip()
        key = fold(ref[:-3] if ref.lower().endswith(".md") else ref)
        rows = self.con.execute("SELECT path, title FROM notes").fetchall()
        for test in (
            lambda p, t: fold(p[:-3]) == key,
            lambda p, t: fold(p[:-3].rsplit("/", 1)[-1]) == key,
            lambda p, t: fold(t) == key,
        ):
            hits = sorted(p for p, t in rows if test(p, t))
            if hits:
                return min(hits, key=lambda p: (p.count("/"), len(p)))
        alias = self.con.execute(
            "SELECT n.path FROM aliases a JOIN notes n ON n.id=a.note_id "
            "WHERE lower(a.alias) = lower(?) ORDER BY length(n.path) LIMIT 1", (ref,)).fetchone()
        if alias:
            return alias[0]
        titles = {t: p for p, t in rows}
        close = difflib.get_close_matches(ref, list(titles) + [p for p, _ in rows], n=5)
        raise NoteNotFound(ref, close)

    def show(self, ref: str) -> NoteView:
        path = self.find_note(ref)
        note_id, title, digest, fm, issues = self.con.execute(
            "SELECT id, title, hash, frontmatter, issues FROM notes WHERE path=?",
            (path,)).fetchone()
        data = self.vault.read_bytes(path) or b""
        links = [LinkView(raw, target, _anchor(heading, block), alias, bool(embed), resolved,
                          status, line, json.loads(cands) if cands else [])
                 for raw, target, heading, block, alias, embed, resolved, status, line, cands
                 in self.con.execute(
                     "SELECT raw, target, heading, block, alias, embed, resolved_path, status, "
                     "line, candidates FROM links WHERE src_id=? ORDER BY line, id", (note_id,))]
        backlinks = [p for (p,) in self.con.execute(
            "SELECT DISTINCT n.path FROM links l JOIN notes n ON n.id=l.src_id "
            "WHERE l.resolved_path=? AND n.path != ? ORDER BY n.path", (path, path))]
        tags = list(dict.fromkeys(t for (t,) in self.con.execute(
            "SELECT tag FROM tags WHERE note_id=? ORDER BY rowid", (note_id,))))
        aliases = [a for (a,) in self.con.execute(
            "SELECT alias FROM aliases WHERE note_id=? ORDER BY rowid", (note_id,))]
        return NoteView(path, title, json.loads(fm), digest, tags, aliases, links, backlinks,
                        data.decode("utf-8", errors="replace"), json.loads(issues))

    def status(self) -> dict[str, Any]:
        one = self.con.execute
        counts = {
            "notes": one("SELECT count(*) FROM notes").fetchone()[0],
            "chunks": one("SELECT count(*) FROM chunks").fetchone()[0],
            "links": one("SELECT count(*) FROM links").fetchone()[0],
            "tags": one("SELECT count(DISTINCT tag_lc) FROM tags").fetchone()[0],
        }
        by_status = dict(one("SELECT status, count(*) FROM links GROUP BY status").fetchall())
        counts.update({f"links_{k}": by_status.get(k, 0)
                       for k in ("resolved", "unresolved", "ambiguous")})
        problems = [{"path": p, "reason": r}
                    for p, issues in one("SELECT path, issues FROM notes WHERE issues != '[]' "
                                         "ORDER BY path")
                    for r in json.loads(issues)]
        problems += [{"path": p, "reason": r}
                     for p, r in one("SELECT path, reason FROM skipped ORDER BY path")]
        unresolved = [{"from": src, "raw": raw, "line": line}
                      for src, raw, line in one(
                          "SELECT n.path, l.raw, l.line FROM links l JOIN notes n ON "
                          "n.id=l.src_id WHERE l.status='unresolved' ORDER BY n.path, l.line")]
        ambiguous = [{"from": src, "raw": raw, "line": line, "candidates": json.loads(c)}
                     for src, raw, line, c in one(
                         "SELECT n.path, l.raw, l.line, l.candidates FROM links l JOIN notes n "
                         "ON n.id=l.src_id WHERE l.status='ambiguous' ORDER BY n.path, l.line")]
        return {"vault": str(self.vault.root), "index": str(self.vault.index_path),
                "counts": counts, "problems": problems, "unresolved_links": unresolved,
                "ambiguous_links": ambiguous}


def _anchor(heading: str | None, block: str | None) -> str:
    if block:
        return "#^" + block
    return "#" + heading if heading else ""
