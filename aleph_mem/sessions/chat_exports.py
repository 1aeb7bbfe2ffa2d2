"""Chat apps' data exports read into sessions: ChatGPT's and Claude.ai's ``conversations.json``
(as the export's zip or the file itself), one session per conversation, messages by id.

ChatGPT keeps a conversation as a tree (edits and regenerations branch it); the branch that
ends at ``current_node`` is the conversation as the person last saw it. Claude.ai keeps a
list of messages. Content that is not text (images, files) is left out; a conversation
that is not a shape we know is counted and skipped.
"""

from __future__ import annotations

import datetime as dt
import json
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from aleph_mem.errors import BadInput
from aleph_mem.sessions.transcripts import Batch, Message, Role

EXPORTS = ("chatgpt", "claude-ai")
MAX_EXPORT = 1 << 30  # bytes of conversations.json read at most (a real one: tens of MB)


def load(path: Path) -> list[Any]:
    """The conversations of an export: its zip, its folder, or its conversations.json."""
    if path.is_dir():
        path = path / "conversations.json"
    try:
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as z:
                name = next((n for n in z.namelist() if n.endswith("conversations.json")), None)
                if name is None:
                    raise BadInput(f"{path} holds no conversations.json; give the export's "
                                   "zip as downloaded, or the conversations.json in it")
                if z.getinfo(name).file_size > MAX_EXPORT:  # a zip bomb is not inflated
                    raise BadInput(f"{name} in {path} would inflate to "
                                   f"{z.getinfo(name).file_size:,} bytes, over "
                                   f"{MAX_EXPORT:,}: too large to read")
                with z.open(name) as f:
                    data = f.read(MAX_EXPORT + 1)
                if len(data) > MAX_EXPORT:
                    raise BadInput(f"{name} in {path} inflates past {MAX_EXPORT:,} bytes: "
                                   "too large to read")
        else:
            size = path.stat().st_size
            if size > MAX_EXPORT:
                raise BadInput(f"{path} is {size:,} bytes, over {MAX_EXPORT:,}: too large "
                               "to read")
            data = path.read_bytes()
        value = json.loads(data)
    except FileNotFoundError as exc:
        raise BadInput(f"no export at {path}: give the zip the app sent, or the "
                       "conversations.json in it") from exc
    except ValueError as exc:
        raise BadInput(f"{path} is not a conversations export ({exc})") from exc
    if not isinstance(value, list):
        raise BadInput(f"{path} holds no list of conversations")
    return value


def conversations(client: str, path: Path,
                  failed: list[str] | None = None) -> Iterator[tuple[str, Batch]]:
    """Each conversation as (its id, its messages); one that cannot be read is counted in
    ``failed`` (with why) and the import goes on."""
    read = {"chatgpt": _chatgpt, "claude-ai": _claude_ai}[client]
    for n, conv in enumerate(load(path)):
        if not isinstance(conv, dict):
            continue
        try:
            found = read(conv)
        except (KeyError, TypeError, ValueError, AttributeError, RecursionError) as exc:
            if failed is not None:
                name = str(conv.get("id") or conv.get("uuid") or "?")[:40]
                failed.append(f"conversation {n + 1} ({name}): not read "
                              f"({type(exc).__name__})")
            continue
        if found is not None:
            yield found


def _time(value: Any) -> str:
    if isinstance(value, int | float):
        return dt.datetime.fromtimestamp(value, dt.UTC).isoformat(timespec="seconds")
    return str(value or "")


def _chatgpt(conv: dict[str, Any]) -> tuple[str, Batch] | None:
    mapping = conv.get("mapping")
    cid = str(conv.get("conversation_id") or conv.get("id") or "")
    if not isinstance(mapping, dict) or not cid:
        return None
    chain: list[tuple[str, Any]] = []
    node = conv.get("current_node")
    while node in mapping and isinstance(mapping[node], dict) and len(chain) < 100_000:
        chain.append((str(node), mapping[node]))
        node = mapping[node].get("parent")
    batch = Batch(meta={"session_id": cid, "started": _time(conv.get("create_time")),
                        "ended": _time(conv.get("update_time"))})
    for key, item in reversed(chain):
        msg = item.get("message")
        if not isinstance(msg, dict):
            continue
        role = (msg.get("author") or {}).get("role")
        content = msg.get("content") or {}
        parts = content.get("parts") if isinstance(content, dict) else None
        text = "\n".join(p for p in parts or [] if isinstance(p, str)).strip()
        if isinstance(content, dict) and content.get("content_type") == "code":
            text = str(content.get("text", "")).strip()
        if role not in ("user", "assistant", "tool") or not text:
            continue
        tool = str((msg.get("author") or {}).get("name") or "") if role == "tool" else ""
        batch.messages.append(Message(str(msg.get("id") or item.get("id") or key),
                                      _time(msg.get("create_time")), role, text, tool=tool))
    return cid, batch


def _claude_ai(conv: dict[str, Any]) -> tuple[str, Batch] | None:
    cid = str(conv.get("uuid") or "")
    msgs = conv.get("chat_messages")
    if not cid or not isinstance(msgs, list):
        return None
    batch = Batch(meta={"session_id": cid, "started": _time(conv.get("created_at")),
                        "ended": _time(conv.get("updated_at"))})
    for n, m in enumerate(msgs):
        if not isinstance(m, dict):
            batch.skipped += 1
            continue
        text = str(m.get("text") or "").strip() or "\n".join(
            str(c.get("text", "")) for c in m.get("content") or []
            if isinstance(c, dict) and c.get("type") == "text").strip()
        roles: dict[str, Role] = {"human": "user", "assistant": "assistant"}
        role = roles.get(str(m.get("sender")))
        if role and text:
            batch.messages.append(Message(str(m.get("uuid") or f"#{n}"), _time(m.get("created_at")),
                                          role, text))
    return cid, batch
