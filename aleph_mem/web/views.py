"""Each page as HTML, from the values the front door's verbs return; nothing here reads the
vault or the index itself. Secrets are hidden by the verbs (``Store.show``, ``hit_shown``,
the timeline's lines), and every value is escaped by ``html.tag``."""

from __future__ import annotations

import json
from typing import Any

from aleph_mem.errors import NoteNotFound
from aleph_mem.memory import Event, Memory
from aleph_mem.web.html import Html, button_form, esc, join, link, note_link, tag

Page = tuple[str, Html]
HOT_MEMORY = "MEMORY.md"


def home(mem: Memory, csrf: str) -> Page:
    status = mem.status()["counts"]
    dream = mem.dream_status(runs=1)
    said = tag("p", f"{status['notes']} notes, {status['links']} links; the daemon is "
                    f"{dream.state}; {dream.open_proposals} proposal(s) wait for you.")
    return "memory", join([said, tag("h2", "latest changes"), changes(mem.recent(10), csrf)])


def search(mem: Memory, query: str, csrf: str) -> Page:
    if not query.strip():
        return "search", tag("p", "Type words above: the notes that hold them, or mean them.")
    answer = mem.search(query, limit=20, explain=True, wait_for_model=False)
    notice = tag("p", answer.notice, class_="notice") if answer.notice else Html()
    rows = [tag("li", join([note_link(h.path, h.title), tag("small", f" {h.path}{h.anchor}"),
                            tag("p", " ".join(h.snippet.replace("**", "").split())),
                            tag("p", why(h.explain or {}), class_="why")]))
            for h in answer.hits]
    found = tag("ol", join(rows), class_="hits") if rows else tag("p", "no matches")
    sessions = mem.session_search(query, 5)
    met = [tag("li", join([link("/session", s.title or s.session_id, ref=s.key),
                           tag("small", f" {s.client}, {s.started[:16]}")]))
           for s in sessions]
    more = join([tag("h2", "in agent sessions"), tag("ul", join(met))]) if met else Html()
    return f"search: {query}", join([notice, found, more])


def why(explain: dict[str, float]) -> str:
    """Why a hit came, in the four signals a person can weigh: the words it holds (BM25),
    its meaning (vector similarity), the links from other hits, and time (how recent it
    is, and dates the query names)."""
    said = []
    if explain.get("bm25"):
        said.append(f"words {explain['bm25']:.2f}")
    if explain.get("cosine"):
        said.append(f"meaning {explain['cosine']:.2f}")
    if explain.get("link_bonus"):
        said.append(f"links +{explain['link_bonus']:.2f}")
    time = explain.get("recency_factor", 1.0) * explain.get("date_factor", 1.0)
    if abs(time - 1.0) >= 0.005:
        said.append(f"time ×{time:.2f}")
    return "why: " + (", ".join(said) or "its note's other matches")


def note(mem: Memory, ref: str, csrf: str) -> Page:
    view = mem.show(ref)
    links = [tag("li", note_link(lv.resolved, lv.raw) if lv.resolved else
                 join([esc(lv.raw), tag("small", f" {lv.status}")])) for lv in view.links]
    back = [tag("li", note_link(p)) for p in view.backlinks]
    timeline = mem.timeline(view.path)
    meta = tag("p", join([tag("small", view.path), esc(" · tags: " + ", ".join(view.tags))
                          if view.tags else Html()]))
    return view.title, join([
        meta, tag("pre", view.content, class_="note"),
        tag("h2", "links"), tag("ul", join(links)) if links else tag("p", "none"),
        tag("h2", "backlinks"), tag("ul", join(back)) if back else tag("p", "none"),
        tag("h2", "timeline"), entries(timeline.entries, csrf)])


def entries(found: list[Any], csrf: str) -> Html:
    """A timeline: each change with who made it, when, its lines and an undo button; the
    dates notes state, and sessions that mention the subject."""
    rows = []
    for e in found:
        head = join([tag("time", e.at[:19].replace("T", " ")), esc(" "),
                     tag("b", e.actor or e.what), esc(" "), note_link(e.path)
                     if e.what != "session" else esc(e.path), esc(f" {e.summary}")])
        diff = tag("pre", "\n".join(e.lines), class_="diff") if e.lines else Html()
        undo = undo_button(e.event, csrf) if e.event else Html()
        rows.append(tag("li", join([head, undo, diff])))
    return tag("ol", join(rows), class_="timeline") if rows else tag("p", "no changes logged")


def undo_button(event: str, csrf: str) -> Html:
    return button_form("/undo", "undo", csrf, "undo", id=event)


def changes(events: list[Event], csrf: str) -> Html:
    rows = [tag("li", join([tag("time", e.at[:19].replace("T", " ")), esc(" "),
                            tag("b", e.actor), esc(f" {e.kind.removeprefix('note-')} "),
                            note_link(e.path) if e.path.endswith(".md") else esc(e.path),
                            esc(f" ({e.reason})" if e.reason else ""),
                            undo_button(e.id, csrf)]))
            for e in events]
    return tag("ol", join(rows), class_="log") if rows else tag("p", "no changes logged")


def log(mem: Memory, csrf: str) -> Page:
    return "changes", changes(mem.recent(100), csrf)


def sessions(mem: Memory) -> Page:
    rows = [tag("li", join([link("/session", s.title or s.session_id, ref=s.key),
                            tag("small", f" {s.client} · {s.project or 'no project'} · "
                                         f"{s.started[:16]} · {s.messages} messages"),
                            esc(" · note: ") if s.note else Html(),
                            note_link(s.note) if s.note else Html()]))
            for s in mem.session_list(limit=100)]
    return "sessions", tag("ol", join(rows)) if rows else tag("p", "no sessions captured yet")


def session(mem: Memory, ref: str) -> Page:
    view = mem.session_show(ref)
    s = view.session
    head = tag("p", join([esc(f"{s.client} · {s.project or 'no project'} · {s.started[:16]}"
                              f" to {s.ended[:16]} · {s.messages} messages"),
                          esc(" · note: ") if s.note else Html(),
                          note_link(s.note) if s.note else Html()]))
    msgs = [tag("li", join([tag("b", m.role), esc(f" {m.at[:16]}"),
                            tag("pre", mem.shown(m.text))]), class_=m.role)
            for m in view.messages]
    return f"session {s.session_id}", join([head, tag("ol", join(msgs), class_="messages")])


def dream(mem: Memory, csrf: str) -> Page:
    st = mem.dream_status(runs=10)
    marks = mem.proposal_marks()
    rows = []
    for p in sorted(mem.proposals(), key=lambda p: (p["at"], p["id"])):
        a = p["action"]
        state = ("ticked: the next run applies it" if p["id"] in marks.ticked else
                 "dismissed: the next run drops it" if p["id"] in marks.dismissed else "")
        buttons = Html() if state else join([
            button_form("/proposal", "tick", csrf, "tick", id=p["id"], box="x"),
            button_form("/proposal", "dismiss", csrf, "dismiss", id=p["id"], box="-")])
        keys = ", ".join(f"{k}: {v}" for k, v in (a.get("set_keys") or {}).items())
        rows.append(tag("li", join([
            tag("b", a.get("pass_name", "")), esc(" "), note_link(a.get("path", "")),
            esc(f" {a.get('op', '')} {keys} ({a.get('reason', '')}) "), tag("small", p["id"]),
            tag("p", state, class_="state") if state else buttons]), id=p["id"]))
    runs = [tag("li", join([tag("time", str(r.get("at", ""))[:19].replace("T", " ")),
                            esc(f" {r.get('trigger', '')} run {r.get('id', '')} "
                                f"({', '.join(r.get('passes') or [])}): {r.get('status')}, "
                                f"{r.get('applied', 0)} applied, {r.get('proposed', 0)} "
                                "proposed "), undo_button(str(r.get("id", "")), csrf)
                            if r.get("applied") else Html()]))
            for r in reversed(st.runs)]
    return "dream", join([
        tag("p", f"The daemon is {st.state}."),
        tag("h2", "open proposals"),
        tag("ol", join(rows), class_="proposals") if rows else tag("p", "none"),
        tag("h2", "runs"), tag("ol", join(runs)) if runs else tag("p", "no runs yet")])


def memory(mem: Memory) -> Page:
    try:
        view = mem.show(HOT_MEMORY)
    except NoteNotFound:
        return "hot memory", tag("p", "no hot memory yet: `aleph-mem remember FACT` adds one")
    return "hot memory", tag("pre", view.content, class_="note")


def status(mem: Memory) -> Page:
    info = mem.full_status()
    return "status", tag("pre", json.dumps(info, indent=2, ensure_ascii=False, default=str))
