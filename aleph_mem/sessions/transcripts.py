"""Agent clients' transcripts read into one shape: ``Message`` (who, when, what was said or
done, which tool, which files, which command), whatever client wrote them.

Claude Code and Codex CLI append one JSON object per line; both are read from a byte
offset so a hook reads only what is new (a line not yet ended is left for the next read).
Gemini CLI keeps a whole JSON file; its messages are told apart by id. A line that is not
JSON, or not a shape we know, is skipped and counted, never fatal. Nothing here redacts:
``raw.ingest`` passes every text through ``redact`` before it is kept.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

TOOL_TEXT_MAX = 1500  # characters of a tool's output kept (the start, and the last lines)
INPUT_TEXT_MAX = 600
CLIENTS = ("claude-code", "codex", "gemini", "cursor")
FILE_KEYS = ("file_path", "path", "notebook_path", "filename", "absolute_path")
REMINDER = re.compile(r"<system-reminder>.*?</system-reminder>\s*", re.DOTALL)
COMMAND_NAME = re.compile(r"<command-name>(.*?)</command-name>", re.DOTALL)
COMMAND_ARGS = re.compile(r"<command-args>(.*?)</command-args>", re.DOTALL)
LOCAL_OUTPUT = re.compile(r"<local-command-std(?:out|err)>(.*?)</local-command-std(?:out|err)>",
                          re.DOTALL)
PATCH_FILE = re.compile(r"^\*\*\* (?:Add|Update|Delete) File: (.+)$", re.MULTILINE)
CODEX_CONTEXT = ("<environment_context>", "<user_instructions>", "# AGENTS.md")


@dataclass(frozen=True)
class Message:
    id: str
    at: str
    role: str  # user | assistant | tool | summary
    text: str
    tool: str = ""
    error: bool = False
    files: tuple[str, ...] = ()
    command: str = ""
    sidechain: bool = False
    parent: str = ""  # the line this one answers (Claude Code: a rewind branches there)

    def line(self) -> str:
        """The message as one line (of a chunk, of ``sessions show``): who, which tool, what."""
        if self.role == "tool":
            return f"{self.tool or 'tool'} {'error' if self.error else 'result'}: {self.text}"
        if self.tool:
            return f"assistant ran {self.tool}: {self.command or self.text}"
        return f"{self.role}: {self.text}"

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "at": self.at, "role": self.role,
                               "text": self.text}
        for key in ("tool", "error", "files", "command", "sidechain", "parent"):
            value = getattr(self, key)
            if value:
                out[key] = list(value) if key == "files" else value
        return out

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Message:
        return cls(str(d["id"]), str(d.get("at", "")), str(d["role"]), str(d.get("text", "")),
                   str(d.get("tool", "")), bool(d.get("error")), tuple(d.get("files", ())),
                   str(d.get("command", "")), bool(d.get("sidechain")), str(d.get("parent", "")))


@dataclass
class Batch:
    """What one read of a transcript found: its messages, what the session says about
    itself (id, cwd, branch, start), where the next read starts, and the lines skipped."""

    messages: list[Message] = field(default_factory=list)
    meta: dict[str, str] = field(default_factory=dict)
    offset: int = 0
    skipped: int = 0


def clip(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    head = text[: limit * 2 // 3]
    tail = text[-(limit // 3):]
    return f"{head}\n[… {len(text) - len(head) - len(tail)} characters left out …]\n{tail}"


def read(client: str, path: Path, offset: int = 0, limit: int | None = None) -> Batch:
    """The messages of ``path`` from byte ``offset`` on (at most ``limit`` bytes of lines:
    a hook with a deadline reads a huge backlog in slices, the next call goes on)."""
    if client in ("claude-code", "cursor"):  # Cursor's agent transcripts: the same lines,
        return _read_lines(path, offset, _claude_line, limit)  # keyed by role, no type
    if client == "codex":
        return _read_lines(path, offset, _codex_line, limit)
    if client == "gemini":
        return _read_gemini(path)
    raise ValueError(f"no reader for client {client!r}; known: {', '.join(CLIENTS)}")


def _read_lines(path: Path, offset: int, parse: Any, limit: int | None = None) -> Batch:
    batch = Batch(offset=offset)
    with path.open("rb") as f:
        if offset > path.stat().st_size:  # rewritten from scratch: read it all again
            offset = batch.offset = 0
        f.seek(offset)
        data = f.read(limit) if limit else f.read()
        at_end = f.read(1) == b""
    end = data.rfind(b"\n") + 1  # a last line without its newline may still be written
    if at_end and data[end:].strip() and _whole_json(data[end:]):
        end = len(data)  # ...unless it is whole: files often end without one
    state: dict[str, Any] = {"calls": {}}
    at = offset
    for raw in data[:end].split(b"\n"):
        line_id, at = f"@{at}", at + len(raw) + 1  # where the line starts: stable across reads
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
            found = parse(obj, batch.meta, state, line_id) if isinstance(obj, dict) else None
        except (KeyError, TypeError, AttributeError, ValueError):
            found = None
        if found is None:
            batch.skipped += 1
        else:
            batch.messages.extend(found)
    batch.offset = offset + end
    return batch


def _whole_json(raw: bytes) -> bool:
    """A line cut while being written never parses: a JSON object is whole or invalid."""
    try:
        return isinstance(json.loads(raw), dict)
    except ValueError:
        return False


# -- Claude Code --------------------------------------------------------------------------

def _claude_line(obj: dict[str, Any], meta: dict[str, str], state: dict[str, Any],
                 fallback_id: str) -> list[Message] | None:
    kind = obj.get("type") or obj.get("role")
    for key, name in (("sessionId", "session_id"), ("cwd", "cwd"), ("gitBranch", "branch")):
        if obj.get(key) and name not in meta:
            meta[name] = str(obj[key])
    at = str(obj.get("timestamp", ""))
    if at and "started" not in meta:
        meta["started"] = at
    if at:
        meta["ended"] = at
    if kind == "summary":
        text = str(obj.get("summary", "")).strip()
        return [Message(str(obj.get("leafUuid") or fallback_id) + "#summary", at, "summary",
                        text)] if text else []
    if kind == "queue-operation" and obj.get("operation") == "remove" and \
            str(obj.get("content") or "").strip():  # typed while the agent worked: it steers
        return [Message(fallback_id, at, "user", str(obj["content"]).strip())]
    if kind not in ("user", "assistant"):
        return [] if isinstance(kind, str) else None  # snapshots, system lines: not memory
    message = obj.get("message")
    if not isinstance(message, dict):
        return None
    uid = str(obj.get("uuid") or fallback_id)
    side = bool(obj.get("isSidechain"))
    content = message.get("content")
    if isinstance(content, str):
        content = [{"type": "text", "text": content}]
    if not isinstance(content, list):
        return None
    if obj.get("isCompactSummary"):
        text = " ".join(str(c.get("text", "")) for c in content if isinstance(c, dict))
        return [Message(uid, at, "summary", text.strip())]
    out: list[Message] = []
    parent = str(obj.get("parentUuid") or "")
    for i, item in enumerate(content):
        if not isinstance(item, dict):
            continue
        mid = uid if i == 0 else f"{uid}#{i}"
        m = _claude_item(item, kind, mid, at, side, bool(obj.get("isMeta")), state)
        if m is not None:
            out.append(replace(m, parent=parent) if parent else m)
    return out


def _claude_item(item: dict[str, Any], kind: str, mid: str, at: str, side: bool, is_meta: bool,
                 state: dict[str, Any]) -> Message | None:
    t = item.get("type")
    if t == "text":
        text = str(item.get("text", ""))
        if kind == "assistant":
            return Message(mid, at, "assistant", text.strip(), sidechain=side) if text.strip() \
                else None
        return _claude_user_text(text, mid, at, side, is_meta)
    if t == "tool_use":
        name = str(item.get("name", "tool"))
        args = item.get("input") if isinstance(item.get("input"), dict) else {}
        state["calls"][item.get("id")] = name
        return Message(mid, at, "assistant", clip(_compact(args), INPUT_TEXT_MAX), tool=name,
                       files=_files_of(args), command=str(args.get("command", ""))[:2000],
                       sidechain=side)
    if t == "tool_result":
        body = item.get("content")
        if isinstance(body, list):
            body = "\n".join(str(c.get("text", "")) for c in body
                             if isinstance(c, dict) and c.get("type") == "text")
        name = state["calls"].get(item.get("tool_use_id"), "")
        return Message(mid, at, "tool", clip(str(body or "").strip(), TOOL_TEXT_MAX), tool=name,
                       error=bool(item.get("is_error")), sidechain=side)
    return None  # thinking, images: not kept


def _claude_user_text(text: str, mid: str, at: str, side: bool, is_meta: bool) -> Message | None:
    text = REMINDER.sub("", text)
    name = COMMAND_NAME.search(text)
    if name:
        args = COMMAND_ARGS.search(text)
        command = f"{name.group(1).strip()} {args.group(1).strip() if args else ''}".strip()
        return Message(mid, at, "user", command, command=command, sidechain=side)
    output = LOCAL_OUTPUT.search(text)
    if output:
        body = output.group(1).strip()
        return Message(mid, at, "tool", clip(body, TOOL_TEXT_MAX), tool="command",
                       sidechain=side) if body else None
    text = text.strip()
    if not text or is_meta or text.startswith("[Request interrupted"):
        return None
    return Message(mid, at, "user", text, sidechain=side)


def _files_of(args: dict[str, Any]) -> tuple[str, ...]:
    keys = [k for k in FILE_KEYS if not (k == "path" and "pattern" in args)]  # a search's folder
    found = [str(args[k]) for k in keys if isinstance(args.get(k), str) and args[k]]
    for key in ("input", "patch"):
        if isinstance(args.get(key), str):
            found += PATCH_FILE.findall(args[key])
    return tuple(dict.fromkeys(found))


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


# -- Codex CLI ----------------------------------------------------------------------------

def _codex_line(obj: dict[str, Any], meta: dict[str, str], state: dict[str, Any],
                fallback_id: str) -> list[Message] | None:
    kind, payload, at = obj.get("type"), obj.get("payload"), str(obj.get("timestamp", ""))
    if not isinstance(payload, dict):
        return None
    if at:
        meta.setdefault("started", at)
        meta["ended"] = at
    if kind == "session_meta":
        for key, name in (("id", "session_id"), ("cwd", "cwd")):
            if payload.get(key):
                meta.setdefault(name, str(payload[key]))
        branch = (payload.get("git") or {}).get("branch") if isinstance(
            payload.get("git"), dict) else None
        if branch:
            meta.setdefault("branch", str(branch))
        return []
    if kind == "turn_context" and payload.get("cwd"):
        meta.setdefault("cwd", str(payload["cwd"]))
        return []
    if kind != "response_item":
        return []  # event_msg repeats response items; unknown records are the future's
    t = payload.get("type")
    if t == "message":
        text = "\n".join(str(c.get("text", "")) for c in payload.get("content") or []
                         if isinstance(c, dict)).strip()
        role = str(payload.get("role", ""))
        if role not in ("user", "assistant") or not text or text.startswith(CODEX_CONTEXT):
            return []
        return [Message(fallback_id, at, role, text)]
    if t in ("function_call", "custom_tool_call"):
        name = str(payload.get("name", "tool"))
        raw_args = payload.get("arguments", payload.get("input", ""))
        args = _json_args(raw_args)
        state["calls"][payload.get("call_id")] = name
        command = args.get("cmd", args.get("command", ""))
        if isinstance(command, list):
            command = " ".join(map(str, command))
        files = _files_of(args) + tuple(PATCH_FILE.findall(raw_args if isinstance(
            raw_args, str) else ""))
        return [Message(fallback_id, at, "assistant", clip(str(raw_args), INPUT_TEXT_MAX),
                        tool=name, files=tuple(dict.fromkeys(files)), command=str(command))]
    if t in ("function_call_output", "custom_tool_call_output"):
        out = payload.get("output", "")
        if isinstance(out, list):
            out = "\n".join(str(c.get("text", "")) for c in out if isinstance(c, dict))
        text, error = _codex_output(str(out))
        return [Message(fallback_id, at, "tool", clip(text, TOOL_TEXT_MAX),
                        tool=state["calls"].get(payload.get("call_id"), ""), error=error)]
    return []  # reasoning (encrypted), web searches: not kept


def _json_args(raw: Any) -> dict[str, Any]:
    if isinstance(raw, dict):
        return raw
    try:
        value = json.loads(raw) if isinstance(raw, str) else {}
    except ValueError:
        return {"input": raw}
    return value if isinstance(value, dict) else {}


def _codex_output(out: str) -> tuple[str, bool]:
    """A tool output's text, and whether it failed (an exit code other than 0)."""
    try:
        value = json.loads(out)
    except ValueError:
        return out.strip(), False
    if isinstance(value, dict) and "output" in value:
        code = (value.get("metadata") or {}).get("exit_code", 0) if isinstance(
            value.get("metadata"), dict) else 0
        return str(value["output"]).strip(), bool(code)
    return out.strip(), False


# -- Gemini CLI ---------------------------------------------------------------------------

def _read_gemini(path: Path) -> Batch:
    batch = Batch()
    try:
        doc = json.loads(path.read_bytes())
    except ValueError:
        batch.skipped = 1
        return batch
    if not isinstance(doc, dict):
        batch.skipped = 1
        return batch
    if doc.get("sessionId"):
        batch.meta["session_id"] = str(doc["sessionId"])
    for key, name in (("startTime", "started"), ("lastUpdated", "ended")):
        if doc.get(key):
            batch.meta[name] = str(doc[key])
    for n, m in enumerate(doc.get("messages") or []):
        if not isinstance(m, dict):
            batch.skipped += 1
            continue
        batch.messages.extend(_gemini_message(m, f"m{n}"))
    batch.offset = path.stat().st_size
    return batch


def _gemini_message(m: dict[str, Any], fallback_id: str) -> Iterator[Message]:
    mid, at = str(m.get("id") or fallback_id), str(m.get("timestamp", ""))
    content = m.get("content", "")
    if isinstance(content, list):
        content = "\n".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    role = {"user": "user", "gemini": "assistant", "model": "assistant"}.get(str(m.get("type")))
    if role and str(content).strip():
        yield Message(mid, at, role, str(content).strip())
    for i, call in enumerate(m.get("toolCalls") or []):
        if not isinstance(call, dict):
            continue
        args = call.get("args") if isinstance(call.get("args"), dict) else {}
        name = str(call.get("name", "tool"))
        yield Message(f"{mid}#t{i}", at, "assistant", clip(_compact(args), INPUT_TEXT_MAX),
                      tool=name, files=_files_of(args), command=str(args.get("command", "")))
        result = call.get("resultDisplay") or call.get("result")
        if result:
            text = result if isinstance(result, str) else _compact(result)
            yield Message(f"{mid}#r{i}", at, "tool", clip(text, TOOL_TEXT_MAX), tool=name,
                          error=str(call.get("status", "")).lower() == "error")


def rewound(msgs: list[Message]) -> set[str]:
    """The ids of messages on branches the person rewound: when two lines answer the same
    line, every one but the last started a branch that was abandoned, with all that
    followed it (Claude Code keeps them in the file)."""
    def line(mid: str) -> str:
        return mid.split("#", 1)[0]
    parent_of: dict[str, str] = {}
    children: dict[str, list[str]] = {}
    for m in msgs:
        if m.sidechain or not m.parent or line(m.id) in parent_of:
            continue
        parent_of[line(m.id)] = m.parent
        children.setdefault(m.parent, []).append(line(m.id))
    dropped = {k for kids in children.values() if len(kids) > 1 for k in kids[:-1]}
    if not dropped:
        return set()
    gone: dict[str, bool] = {}

    def abandoned(uid: str) -> bool:
        path = []
        while uid not in gone and uid not in dropped and uid in parent_of and len(path) < 10**6:
            path.append(uid)
            uid = parent_of[uid]
        answer = gone.get(uid, uid in dropped)
        for u in path:
            gone[u] = answer
        return answer
    return {m.id for m in msgs if abandoned(line(m.id))}
