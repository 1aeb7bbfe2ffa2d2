"""The ``aleph-mem`` command: each command opens the vault, calls one library function and
prints the result (JSON with ``--json``). Library errors become one clean message."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import apsw

from aleph_mem import logs
from aleph_mem.cli import services, sessions  # noqa: F401 (their commands register themselves)
from aleph_mem.cli.common import (
    COMMANDS,
    command,
    emit_json,
    open_memory,
    printable,
    progress_printer,
    say,
    touch_if_wrote,
)
from aleph_mem.cli.grammar import EMBED_IN_FOREGROUND, build_parser, command_of
from aleph_mem.errors import AlephError, BadInput, DiskError

if TYPE_CHECKING:  # each command imports what it uses: a search pays for no daemon
    from aleph_mem.memory import WriteResult

# -- commands ---------------------------------------------------------------------------

@command("init")
def cmd_init(args: argparse.Namespace) -> int:
    from aleph_mem.files.vault import find_vault
    from aleph_mem.install.new_vault import holds_notes, init_vault

    root = Path(args.path or args.vault or ".").expanduser()
    around = find_vault(root.resolve().parent) if not (root / ".aleph").is_dir() else None
    if around is not None:
        raise BadInput(f"{str(root)!r} is inside the vault {str(around)!r}: a vault in a vault "
                       "would hold its notes twice; use that vault (--vault), or make the new "
                       "one outside it")
    persons = holds_notes(root) if root.is_dir() else False
    added = init_vault(root)
    if not added:
        say(f"vault at {root.resolve()} already has everything; nothing changed")
    elif persons:
        say(f"made {root.resolve()} a vault: your notes are as they were; added "
            f"{', '.join(added)} (MEMORY.md comes with the first `remember`)")
    else:
        say(f"vault at {root.resolve()}: added {', '.join(added)}")
    if added:
        from aleph_mem.install.clients import for_vault

        say(f"next: `{for_vault(root, 'index')}` (then `{for_vault(root, 'daemon')}` keeps "
            "it in step)")
    return 0


@command("index")
def cmd_index(args: argparse.Namespace) -> int:
    with open_memory(args) as mem:
        report = mem.reindex(rebuild=args.rebuild, progress=progress_printer())
        pending = mem.vector_state()["pending"]
        embed = args.embed or (not args.no_embed and pending <= EMBED_IN_FOREGROUND)
        from aleph_mem.embed.pool import cores

        workers = args.workers or (cores() if sys.stderr.isatty() else 1)
        embedded = mem.embed(progress=progress_printer("embedding"),
                             workers=workers) if embed else 0
        if mem.vector_problem and embed:
            print(f"note: {mem.vector_problem}", file=sys.stderr)
        elif not embed and not args.no_embed:
            print(f"note: {pending} chunks need vectors (about {pending // 600 + 1} min on a "
                  "laptop CPU): `aleph-mem daemon` computes them in the background, "
                  "`aleph-mem index --embed` now; search uses full text meanwhile",
                  file=sys.stderr)
        if args.json:
            emit_json({"scanned": report.scanned, "indexed": report.parsed,
                       "removed": report.removed, "unchanged": report.unchanged,
                       "links_resolved": report.links_resolved, "embedded": embedded})
        else:
            say(report.summary() + f", {embedded} chunks embedded")
    return 0


@command("search")
def cmd_search(args: argparse.Namespace) -> int:
    from aleph_mem.memory import Filters

    filters = Filters(folder=args.folder, tags=tuple(args.tag or ()), since=args.since,
                      until=args.until, include_archived=args.include_archived)
    with open_memory(args) as mem:
        mem.one_shot = True
        if args.as_of:
            found = mem.search_as_of(args.query, args.as_of, args.limit, filters)
        else:
            found = mem.search(args.query, limit=args.limit, filters=filters, mode=args.mode,
                               explain=args.explain, now=args.now)
    hits, notice = found.hits, found.notice
    if notice:
        print(printable(f"note: {notice}", one_line=True), file=sys.stderr)
    if args.json:
        emit_json([h.as_json() for h in hits])
        return 0
    if not hits:
        print("no matches", file=sys.stderr)
    for h in hits:
        say(f"{h.path}{h.anchor}  (line {h.line}, score {h.score:.2f})", one_line=True)
        say(f"    {h.title}" + (f"  [as of {args.as_of}: {_which_text(h.version)}]"
                                    if h.version else ""), one_line=True)
        if h.snippet:
            say("    " + " ".join(h.snippet.split()))
        if h.explain:
            say("    explain: " + ", ".join(f"{k}={v:.3f}" for k, v in h.explain.items()))
    return 0


def _which_text(version: dict[str, str]) -> str:
    """Which text an --as-of hit shows: "the text of 2026-01-10", "unchanged since …",
    or the text as first seen (before that, aleph-mem's memory of the vault is blank)."""
    at = version.get("at")
    if at:
        return f"{version['as']} {at[:10]}"
    return "the text as first seen" if version["as"] == "the text of" else \
        "unchanged since first seen"


@command("remember")
def cmd_remember(args: argparse.Namespace) -> int:
    if not 1 <= args.priority <= 5:
        raise BadInput("--priority is 1 (most important) to 5")
    with open_memory(args) as mem:
        result = mem.remember(args.fact, args.priority, actor="cli")
    if result.same_as and result.event is None:
        if args.json:
            emit_json({"path": result.path, "added": False, "same_as": list(result.same_as)})
        else:
            say("already in hot memory: " + "; ".join(result.same_as))
        return 0
    return report_write(result, args.json)


@command("context")
def cmd_context(args: argparse.Namespace) -> int:
    with open_memory(args) as mem:
        env = mem.context(args.query, args.budget, args.folder, args.project, args.as_of)
    if args.json:
        emit_json(env.as_json())
        return 0
    for title, text in (("Project", env.project), ("Hot memory", env.hot_memory),
                        ("Digest", (env.digest or {}).get("text", ""))):
        if text:
            say(f"## {title}\n\n{text.strip()}\n")
    if env.relevant:
        say("## Relevant notes\n")
        for r in env.relevant:
            caveat = f"  ({r['caveat']})" if r.get("caveat") else ""
            say(f"- {r['path']}{r['anchor']}{caveat}", one_line=True)
            say(f"  {' '.join(r['text'].split())[:300]}", one_line=True)
    print(f"\n({env.used_tokens} of {env.budget_tokens} tokens)", file=sys.stderr)
    return 0


@command("reflect")
def cmd_reflect(args: argparse.Namespace) -> int:
    with open_memory(args) as mem:
        found = mem.reflect(args.question, args.limit)
    if args.json:
        emit_json(found.as_json())
        return 0
    say(found.answer or found.note or "nothing in memory answers it")
    for p in found.passages:
        say(f"  [{p.n}] {p.path}{p.anchor}: {' '.join(p.text.split())[:160]}", one_line=True)
    return 0


@command("graph")
def cmd_graph(args: argparse.Namespace) -> int:
    with open_memory(args) as mem:
        view = mem.graph(args.note, args.action, args.depth, args.to)
    if args.json:
        emit_json({k: v for k, v in view.__dict__.items() if v is not None})
        return 0
    say(view.note)
    for key in ("links", "backlinks", "path"):
        for p in getattr(view, key) or []:
            say(f"  {key}: {p}", one_line=True)
    for n in view.neighbours or []:
        say(f"  {n['distance']} away: {n['path']}", one_line=True)
    return 0


@command("timeline")
def cmd_timeline(args: argparse.Namespace) -> int:
    with open_memory(args) as mem:
        found = mem.timeline(args.subject, args.since)
    if args.json:
        emit_json(found.as_json())
        return 0
    say(f"{found.subject}: " + (", ".join(found.notes) or "no note"))
    for e in found.entries:
        who = f" by {e.actor}" if e.actor else ""
        say(f"{e.at[:16].replace('T', ' ')}  {e.what:<7} {e.path}: {e.summary}{who}",
            one_line=True)
        for line in e.lines:
            say(f"      {line}", one_line=True)
    if not found.entries:
        print("nothing logged about it yet", file=sys.stderr)
    return 0


@command("show")
def cmd_show(args: argparse.Namespace) -> int:
    with open_memory(args) as mem:
        view = mem.show_as_of(args.note, args.as_of) if args.as_of else mem.show(args.note)
    if args.json:
        emit_json(view.as_json())
        return 0
    say(f"# {view.path}  ({view.title})\nhash: {view.hash}")
    if view.others:
        print(printable(f"({args.note!r} also names: {', '.join(view.others)}; show one by "
                        "its path)", one_line=True), file=sys.stderr)
    if view.version:
        v = view.version
        say(f"as of {v['as_of']}: this version since {(v['since'] or 'first seen')[:19]}"
            + (f" (event {v['event']}, by {v['by']})" if v["event"] else ""))
    if view.tags:
        say("tags: " + ", ".join(view.tags))
    if view.aliases:
        say("aliases: " + ", ".join(view.aliases))
    say("\n" + view.content.rstrip() + "\n")
    if view.links:
        say("links:")
        for lv in view.links:
            cands = ": " + ", ".join(lv.candidates) if lv.candidates else ""
            where = lv.resolved or f"({lv.status}{cands})"
            say(f"  line {lv.line}: {lv.raw} -> {where}", one_line=True)
    if view.backlinks:
        say("backlinks:\n" + "\n".join(f"  {p}" for p in view.backlinks))
    return 0


@command("status")
def cmd_status(args: argparse.Namespace) -> int:
    with open_memory(args) as mem:
        info = mem.full_status()
    if args.json:
        emit_json(info)
        return 0
    c = info["counts"]
    say(f"vault: {info['vault']}")
    say(f"daemon: {describe_daemon(info['daemon'])}")
    d = info["dreamer"]
    say("dreamer: " + (d["note"] if d["host"] is None else
                       f"{'this device' if d['this_device'] else d['host']} (last run "
                       f"{d['last_run']})"))
    v = info["vectors"]
    going = (info["daemon"] or {}).get("embedding") or {}
    eta = (f"; the daemon embeds {going['per_s']}/s, about {going['minutes_left']:.0f} min "
           "left" if v["pending"] and going.get("minutes_left") is not None else "")
    say(f"vectors: {v['model'] or 'none'}: {v['embedded']} chunks embedded, {v['pending']} "
        f"pending" + (f" ({v['problem']})" if v["problem"] else "") + eta)
    se = info["sessions"]
    say(f"agent sessions: {se['captured']} captured" + (
        f", the latest ended {se['latest']}, {se['without_note']} without a session note yet"
        if se["captured"] else " (`aleph-mem hooks install CLIENT` captures them)"))
    say(f"notes {c['notes']}, chunks {c['chunks']}, tags {c['tags']}, links {c['links']} "
        f"({c['links_resolved']} resolved, {c['links_unresolved']} unresolved, "
        f"{c['links_ambiguous']} ambiguous)")
    for key, label in (("problems", "problems"), ("unresolved_links", "unresolved links"),
                       ("ambiguous_links", "ambiguous links")):
        rows = info[key]
        if rows:
            say(f"\n{label} ({len(rows)}):")
            for r in rows[:50]:
                say("  " + _status_row(r), one_line=True)
            if len(rows) > 50:
                say(f"  … {len(rows) - 50} more (use --json for all)")
    return 0


def describe_daemon(d: dict[str, Any]) -> str:
    if d["state"] != "running":
        return "not running (start it with `aleph-mem daemon`)"
    idle = d.get("idle_for_s")
    nxt = ", ".join(f"{k} at {v}" for k, v in (d.get("next_run") or {}).items())
    return (f"running since {d.get('running_since')} (pid {d.get('pid')}, "
            f"{d.get('watch_mode')}); last event {d.get('last_event_at') or 'none'}, "
            f"queue {d.get('queue', 0)}, idle for "
            f"{'ever' if idle is None else f'{idle:.0f} s'}" + (f"; next: {nxt}" if nxt else "")
            + serving(d.get("serves")))


def serving(where: object) -> str:
    """What `daemon --serve` serves and where (from its status file)."""
    if not isinstance(where, dict) or not where.get("mcp"):
        return ""
    return f"; serves MCP at {where['mcp']} and the page at {where.get('page')}"


def _status_row(r: dict[str, Any]) -> str:
    if "reason" in r:
        return f"{r['path']}: {r['reason']}"
    cands = f" candidates: {', '.join(r['candidates'])}" if r.get("candidates") else ""
    return f"{r['from']}:{r['line']}: {r['raw']}{cands}"


@command("write")
def cmd_write(args: argparse.Namespace) -> int:
    if sys.stdin.isatty():
        print("reading the note's text from the terminal: type it, then Ctrl-D on a line of "
              "its own (or pipe it in: `cat draft.md | aleph-mem write PATH`)", file=sys.stderr)
    data = sys.stdin.buffer.read()
    if not args.path and (args.append or args.under or not args.title):
        raise BadInput("give a PATH, or --title to name a new note (in --folder)")
    with open_memory(args) as mem:
        if args.append or args.under:
            result = mem.edit_note(args.path, args.expect_hash, utf8(data), args.under)
        elif args.title or args.related or args.frontmatter:
            fm = dict(key_values(args.frontmatter or [])) or None
            result = mem.write_note(utf8(data), args.path, args.title, args.folder, fm,
                                    args.expect_hash, args.related)
        else:
            result = mem.write_bytes(args.path, data, args.expect_hash)
    return report_write(result, args.json)


def utf8(data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInput(f"the text on stdin is not UTF-8 (byte {exc.start}); convert it "
                       "first, e.g. with `iconv -t UTF-8`") from exc


def key_values(items: list[str]) -> list[tuple[str, object]]:
    """``KEY=VALUE`` arguments, each value read as YAML."""
    out = []
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise BadInput(f"{item!r} is not KEY=VALUE")
        out.append((key.strip(), yaml_value(value)))
    return out


@command("set")
def cmd_set(args: argparse.Namespace) -> int:
    pairs = dict(key_values(args.pairs))
    with open_memory(args) as mem:
        result = mem.edit_note(args.path, args.expect_hash, set_keys=pairs,
                               unset=args.unset or [])
    return report_write(result, args.json)


@command("mv")
def cmd_mv(args: argparse.Namespace) -> int:
    with open_memory(args) as mem:
        result = mem.move_note(args.old, args.new, args.expect_hash)
    return report_write(result, args.json)


@command("archive")
def cmd_archive(args: argparse.Namespace) -> int:
    with open_memory(args) as mem:
        result = mem.archive_note(args.path, args.reason, args.expect_hash)
    return report_write(result, args.json)


@command("purge")
def cmd_purge(args: argparse.Namespace) -> int:
    if sys.stdin.isatty():
        import getpass

        text = getpass.getpass("text to purge (not shown): ")
    else:
        text = sys.stdin.read().removesuffix("\n")
    with open_memory(args) as mem:
        report = mem.purge(text)
    if args.json:
        emit_json(report.as_json())
        return 0
    print(f"purged: {report.versions} stored version(s), {report.files} other file(s) under "
          f".aleph, {len(report.notes)} live note(s) edited; logged as {report.event}")
    for path in report.notes:
        say(f"  {path}", one_line=True)
    print("Copies on other devices, in backups and in git history are out of reach: purge "
          "there too.", file=sys.stderr)
    return 0


@command("restore")
def cmd_restore(args: argparse.Namespace) -> int:
    with open_memory(args) as mem:
        result = mem.restore_note(args.path, args.expect_hash)
    return report_write(result, args.json)


@command("log")
def cmd_log(args: argparse.Namespace) -> int:
    with open_memory(args) as mem:
        events = mem.log(args.path, args.since, args.actor, args.limit)
    if args.json:
        emit_json([e.as_json() for e in events])
        return 0
    if not events:
        print("no changes logged that match" if args.path or args.since or args.actor else
              "no changes logged yet: each change to a note is logged from the first index on",
              file=sys.stderr)
    for e in events:
        src = f"{e.data['from']} -> " if "from" in e.data else ""
        extra = f"  run {e.run}" if e.run else ""
        why = f"  ({e.reason})" if e.reason else ""
        where = f"  on {e.host}" if e.host else ""
        say(f"{e.id}  {e.at}  {e.actor:<12} {e.kind:<14} {src}{e.path}{why}{extra}{where}",
            one_line=True)
    return 0


@command("undo")
def cmd_undo(args: argparse.Namespace) -> int:
    with open_memory(args) as mem:
        report = mem.undo(args.id)
    if args.json:
        emit_json(report.as_json())
    else:
        if report.undone:
            say(f"undid {len(report.undone)} change(s) of {report.target} (this undo is "
                  f"run {report.run}: `aleph-mem undo {report.run}` redoes them)")
        elif report.regenerate and not report.refused:
            say(f"{report.target} changed no note: it wrote only the dream's own pages, "
                  f"written anew now ({', '.join(report.regenerate)})")
        elif not report.refused:
            say(f"{report.target}: nothing left to undo")
        for path in report.regenerate if report.undone else ():
            say(f"written anew: {path}")
        for path, why in report.refused:
            print(printable(f"refused {path}: {why}", one_line=True), file=sys.stderr)
    return 1 if report.refused else 0


@command("dream")
def cmd_dream(args: argparse.Namespace) -> int:
    with open_memory(args) as mem:
        if args.action == "status":
            st = mem.dream_status()
            body = {"runs": st.runs, "daemon": st.daemon, "open_proposals": st.open_proposals}
            emit_json(body) if args.json else _print_dream_status(body)
            return 0
        if args.action == "proposals":
            props = mem.proposals()
            if args.json:
                emit_json(props)
            for p in [] if args.json else props:
                say(f"{p['id']}  {p['action']['pass_name']}: {p['action']['reason']} "
                    f"({p['action']['path']})")
            return 0
        if args.action == "undo":
            if not args.id:
                raise BadInput("`dream undo` needs a run id (see `aleph-mem dream status`)")
            return cmd_undo(args)
        report = mem.dream(tuple(args.pass_name or ()), args.dry_run, args.force, args.weekly,
                           anyway=args.anyway)
    if args.json:
        emit_json(report.as_json())
        return 0
    if report.note:  # another device dreams for this vault
        say(report.note)
        return 0
    if args.dry_run:
        say("\n\n".join(report.plan) or "nothing to do")
    for a in report.applied:
        say(f"{a['pass']}: {a['what']}")
    for p in report.proposed:
        say(f"proposed {p['id']}: {p['what']}")
    for s in report.skipped:
        say(f"skipped {s['path']}: {s['reason']}")
    say(f"run {report.run_id}: {report.status}, {len(report.applied)} applied, "
        f"{len(report.proposed)} proposed, {len(report.issues)} lint issues"
        + (f", digest {report.digest}" if report.digest else "")
        + ("" if args.dry_run or not report.applied else
           f"; undo with `aleph-mem undo {report.run_id}`"))
    return 0


def _print_dream_status(body: dict[str, Any]) -> None:
    say(f"daemon: {describe_daemon(body['daemon'])}")
    say(f"open proposals: {body['open_proposals']}")
    for r in body["runs"]:
        say(f"{r['id']}  {r['at']}  {r['status']:<11} {r['trigger']:<9} applied "
            f"{r['applied']}, proposed {r['proposed']}, skipped {r['skipped']}")


@command("completion")
def cmd_completion(args: argparse.Namespace) -> int:
    """A completion script made from the parser every call uses, so it never lists a
    command or an option the CLI does not take."""
    import shtab

    from aleph_mem.cli.grammar import build_parser

    parser = build_parser()
    parser.prog = "aleph-mem"
    script = shtab.complete(parser, shell=args.shell) if args.shell != "fish" else \
        _fish(parser)
    sys.stdout.write(script if script.endswith("\n") else script + "\n")
    return 0


def _fish(parser: argparse.ArgumentParser) -> str:
    """fish's completions (shtab writes bash and zsh): each command, then its options."""
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    helps = {c.dest: c.help or "" for c in sub._choices_actions}
    lines = ["complete -c aleph-mem -f"]
    for name, grammar in sub.choices.items():
        said = helps.get(name, "").replace("'", "\\'")
        lines.append(f"complete -c aleph-mem -n __fish_use_subcommand -a {name} -d '{said}'")
        for action in grammar._actions:
            for flag in action.option_strings:
                if flag.startswith("--"):
                    lines.append(f"complete -c aleph-mem -n '__fish_seen_subcommand_from "
                                 f"{name}' -l {flag[2:]}")
    return "\n".join(lines)


@command("plugins")
def cmd_plugins(args: argparse.Namespace) -> int:
    from aleph_mem import plugins

    found = plugins.describe()
    if args.json:
        emit_json(found)
        return 0
    for p in found:
        kind = "built-in" if p["builtin"] else p["package"]
        say(f"{p['name']}  ({kind})")
        for key, label in (("dream_passes", "dream passes"), ("embedders", "embedders")):
            if p[key]:
                say(f"    {label}: {', '.join(p[key])}")
        other = [h for h in p["hooks"] if not h.startswith("register_")]
        if other:
            say(f"    hooks: {', '.join(other)}")
    return 0


def yaml_value(text: str) -> object:
    """``KEY=VALUE`` values are YAML (``tags=[a, b]``, ``n=3``); anything that is not valid
    YAML is kept as the string typed."""
    import yaml

    try:
        value = yaml.safe_load(text)
    except yaml.YAMLError:
        return text
    except RecursionError:
        raise BadInput(f"the value {text[:40]!r} is nested too deeply to keep in "
                       "frontmatter; quote it to keep it as text") from None
    return text if value is None and text.strip() not in ("null", "~") else value


def report_write(result: WriteResult, as_json: bool) -> int:
    if result.warning:
        print(printable(f"warning: {result.warning}", one_line=True), file=sys.stderr)
    if as_json:
        emit_json({"path": result.path, "hash": result.hash, "warning": result.warning,
                   "event": result.event.as_json() if result.event else None})
    elif result.event is None:
        say(f"{result.path}: unchanged (hash {result.hash})")
    else:
        say(f"{result.event.kind} {result.path} hash {result.hash} (event {result.event.id}; "
            f"undo with `aleph-mem undo {result.event.id}`)")
    return 0


# -- parser -----------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    named = command_of(words)
    args = build_parser(named if named in COMMANDS else None).parse_args(words)
    logs.configure(args.verbose)
    if not hasattr(args, "vault"):
        args.vault = None
    try:
        return COMMANDS[args.command](args)
    except AlephError as exc:
        print(printable(f"error: {exc}", one_line=True), file=sys.stderr)
        return 1
    except apsw.BusyError:
        print("error: the index is busy (another aleph-mem process is writing a large "
              "change); try again in a moment", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0
    except OSError as exc:
        print(f"error: {DiskError(args.command, exc)}", file=sys.stderr)
        return 1
    finally:
        touch_if_wrote()


if __name__ == "__main__":
    sys.exit(main())

