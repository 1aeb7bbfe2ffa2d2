"""Every setting in one table, resolved in one place.

Precedence: flag > environment (``ALEPH_MEM_<NAME>``) > vault config
(``.aleph/config.toml``) > user config (``~/.config/aleph-mem/config.toml``) > default.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from aleph_mem.errors import ConfigError


@dataclass(frozen=True)
class Setting:
    name: str
    default: Any
    doc: str

    @property
    def env(self) -> str:
        return "ALEPH_MEM_" + self.name.upper()


SETTINGS: tuple[Setting, ...] = (
    Setting("embed_model", "all-MiniLM-L6-v2-int8",
            "Embedding model: the bundled 'all-MiniLM-L6-v2-int8', any fastembed model name, "
            "a local model folder, or 'none' for full-text search only."),
    Setting("embed_threads", 1,
            "Threads the embedding model may use (0 = every core). One leaves the other "
            "cores to you while the daemon embeds; two embedded about 1.4x faster on a "
            "2-core machine."),
    Setting("embed_quantized", "auto",
            "With the bundled model: 'auto' embeds a first embed of 3,000 chunks or more with "
            "an int8 version derived here from the same weights when it measures faster on "
            "this machine and keeps every sampled vector (about 1.7x faster; cosine >= 0.998 "
            "to the exact vectors on real chunks; LoCoMo dev hybrid within 0.3 points); 'on' "
            "always uses it; 'off' never. An index keeps the model its vectors came from; "
            "switching re-embeds."),
    Setting("ignore", [],
            "Extra glob patterns (vault-relative) never indexed, on top of .aleph/, "
            ".obsidian/, .git/ and .trash/."),
    Setting("max_note_bytes", 5_000_000,
            "Notes larger than this are indexed only up to this many bytes (and reported)."),
    Setting("search_limit", 10, "Default number of search hits."),
    Setting("search_recency_weight", 0.1,
            "Time decay in search: a note keeps 1 - this share of its score as it ages "
            "(half of the loss at search_half_life_days); 0 turns it off."),
    Setting("search_half_life_days", 180.0, "Half-life of the search time decay, in days."),
    Setting("search_link_share", 0.0,
            "Link-graph expansion: the best notes pass this share of their score to the notes "
            "they link with (0 = off; on LoCoMo it did not help, see docs/benchmarks.md)."),
    Setting("search_date_boost", 0.5,
            "A note dated in a period the query names (\"on 13 October 2023\", \"in May "
            "2023\", \"last week\") or up to a week after it scores this much more "
            "(0 = off)."),
    Setting("search_mmr_lambda", 0.95,
            "MMR diversity: 1 ranks by relevance alone; lower values push down hits that "
            "repeat one already shown."),
    Setting("idle_minutes", 15,
            "The vault counts as idle after this many minutes without edits or tool calls."),
    Setting("reconcile_minutes", 10,
            "The daemon re-walks the whole vault this often, to catch anything the file "
            "watcher missed (a full event queue, a network drive)."),
    Setting("watcher", "auto",
            "'auto' uses inotify and falls back to polling when the watch limit is reached; "
            "'polling' always polls (network drives, some containers)."),
    Setting("dream_window", "02:00-06:00",
            "Local time window for the daily dream run (it also runs outside it when no run "
            "succeeded for 26 hours and the vault has been idle an hour); 'off' stops "
            "scheduled runs (`aleph-mem dream` still works by hand)."),
    Setting("dream_propose", [],
            "Dream passes whose changes are only ever proposed (listed in the digest for a "
            "person to tick), e.g. ['consolidate', 'decay']."),
    Setting("dream_off", [],
            "Dream passes that never run, e.g. ['decay']."),
    Setting("decay_min_watch_days", 30,
            "decay proposes no archive until aleph-mem has watched the vault this many days "
            "(since the first event in its log): before that, no recall signals is no "
            "evidence that a note is unused."),
    Setting("decay_max_archives", 10,
            "At most this many archive proposals or moves by decay in one run, the coldest "
            "first."),
    Setting("dreamer_takeover_hours", 48,
            "Hours a vault's dreamer (the one device that dreams, `aleph-mem dreamer`) may be "
            "silent before another device takes the dream over"),
    Setting("sync_settle_seconds", 120,
            "On a vault another device also writes, a change made outside aleph-mem waits this "
            "long for the other device's event to arrive before it is logged as this device's "
            "(0: log at once)"),
    Setting("project_roots", [],
            "Folders that relative file paths in notes' code spans (`src/app.py`) are checked "
            "against by the dream's drift pass (a note's own `project_root` comes first); "
            "without one, only absolute paths and file:// links are checked."),
    Setting("lint_required_keys", ["category", "tags", "created"],
            "Frontmatter keys lint adds to agent-written notes when missing (L001/L003): "
            "category from the top folder, tags [], created from the note's history and file "
            "time; 'updated' may be added too, but nothing keeps it current afterwards."),
    Setting("lint_disable", [],
            "Lint rules off for the whole vault, e.g. ['L020', 'L030'] (a note's own "
            "`lint-disable:` frontmatter does the same for one note)."),
    Setting("lint_fix_human", False,
            "Also propose lint's frontmatter fixes (L001/L003/L004) for notes a person wrote "
            "(off: a person's plain notes are left as they are; they are never changed "
            "without a tick in the digest either way)."),
    Setting("sessions_folder", "sessions",
            "Vault folder of the session notes distilled from captured agent sessions."),
    Setting("session_notes", True,
            "Write a session note for each finished agent session (the daemon, when the "
            "vault is idle; `aleph-mem sessions compress` by hand)."),
    Setting("hot_memory_tick", False,
            "Standing preferences and states, goals and constraints a person states in an "
            "agent session wait for a tick in the digest before joining hot memory (off, the "
            "default: they join at once as agents' facts, logged, undoable, and listed in "
            "the digest for a veto)."),
    Setting("session_idle_minutes", 60,
            "A captured session whose client never said it ended counts as finished after "
            "this many minutes without a new message."),
    Setting("raw_retention_days", 0,
            "Captured transcripts (.aleph/raw) are removed this many days after they were "
            "captured, once their session note exists; 0 (the default) keeps them, so session "
            "search keeps finding them (`aleph-mem sessions prune` removes them by hand)."),
    Setting("hook_budget_tokens", 1500,
            "Tokens of memory a client's session-start hook injects (hot memory first)."),
    Setting("recall_secrets", False,
            "Hand secrets found in notes (tokens, passwords, keys) to agents and displays "
            "as written. Off (the default): a session's start, the prompt hook, search, "
            "read, context, reflect and history show them as [REDACTED:kind], since every "
            "answer may go on to an LLM provider. The notes themselves are never changed."),
    Setting("llm_model", "",
            "litellm model name (e.g. 'ollama/llama3.1', 'openai/gpt-4o-mini'); empty means "
            "no LLM is used. Provider keys come from the provider's usual environment "
            "variables (never from this file)."),
    Setting("llm_api_base", "",
            "Base URL of an OpenAI-compatible server (e.g. 'http://127.0.0.1:8080/v1'); its "
            "key, if any, from ALEPH_MEM_LLM_API_KEY."),
)

BY_NAME = {s.name: s for s in SETTINGS}
RANGES: dict[str, tuple[float, float]] = {  # inclusive bounds of numeric settings
    "max_note_bytes": (1_000, 2**31), "search_limit": (1, 1000),
    "search_recency_weight": (0, 1), "search_half_life_days": (0.01, 36_500),
    "search_link_share": (0, 1), "search_date_boost": (0, 100), "search_mmr_lambda": (0, 1),
    "idle_minutes": (0, 10_080), "reconcile_minutes": (1, 10_080),
    "decay_min_watch_days": (0, 3650), "decay_max_archives": (0, 1000),
    "dreamer_takeover_hours": (1, 8760), "sync_settle_seconds": (0, 86400),
    "session_idle_minutes": (1, 100_000), "raw_retention_days": (0, 36_500),
    "hook_budget_tokens": (100, 100_000),
}
BOOL_WORDS = {"true": True, "1": True, "yes": True, "on": True,
              "false": False, "0": False, "no": False, "off": False}


def _coerce(setting: Setting, value: Any, where: str) -> Any:
    out = _coerce_type(setting, value, where)
    low, high = RANGES.get(setting.name, (None, None))
    if low is not None and not low <= out <= high:
        raise ConfigError(where, f"{setting.name} must be between {low:g} and {high:g}, "
                          f"got {value!r}")
    return out


def _coerce_type(setting: Setting, value: Any, where: str) -> Any:
    want = type(setting.default)
    if want is list:
        if isinstance(value, str):
            return [v.strip() for v in value.split(",") if v.strip()]
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            return value
    elif want is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in BOOL_WORDS:
            return BOOL_WORDS[value.strip().lower()]
    elif want is int:
        try:
            return int(value)
        except (TypeError, ValueError):
            pass
    elif want is float and not isinstance(value, bool):
        try:
            return float(value)
        except (TypeError, ValueError):
            pass
    elif want is str and isinstance(value, str):
        return value
    kind = {list: "a list of strings", bool: "true or false", int: "a whole number",
            float: "a number",
            str: "a string"}[want]
    raise ConfigError(where, f"{setting.name} must be {kind}, got {value!r}")


def _parse_toml(text: str) -> dict[str, Any]:
    """The template's file is all comments: then no parser is loaded (a CLI call's start)."""
    if all(not line.strip() or line.lstrip().startswith("#") for line in text.splitlines()):
        return {}
    import tomllib

    return tomllib.loads(text)


def _read_toml(path: Path) -> dict[str, Any]:
    if not path.is_file():
        return {}
    try:
        data = _parse_toml(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:  # TOMLDecodeError is a ValueError
        raise ConfigError(str(path), f"not valid TOML ({exc}); fix or remove the file") from exc
    tables = {k: v for k, v in data.items() if isinstance(v, dict)}
    unknown = sorted(k for k in data if k not in BY_NAME and k not in tables)
    unknown += sorted(k for k in tables if k != "dream")
    if unknown:
        raise ConfigError(str(path),
                          f"unknown setting(s) {', '.join(unknown)}; see docs/settings.md")
    out = {k: v for k, v in data.items() if k in BY_NAME}
    out.update(_pass_modes(tables.get("dream", {}), out, str(path)))
    return out


PASS_NAMES = ("consolidate", "drift", "synthesis", "lint", "decay", "digest")
MODES = ("auto", "propose", "off")


def _pass_modes(dream: dict[str, Any], flat: dict[str, Any], where: str) -> dict[str, Any]:
    """the per-pass tables, ``[dream.consolidate] mode = "propose"``, folded into
    the ``dream_propose`` / ``dream_off`` lists (``auto`` takes a pass out of both)."""
    propose = list(flat.get("dream_propose", []))
    off = list(flat.get("dream_off", []))
    for name, table in dream.items():
        if name not in PASS_NAMES or not isinstance(table, dict) or set(table) - {"mode"}:
            raise ConfigError(where, f"[dream] supports one table per pass "
                              f"({', '.join(PASS_NAMES)}) with one key, mode; got "
                              f"dream.{name} = {table!r}; see docs/settings.md")
        mode = table.get("mode", "auto")
        if mode not in MODES:
            raise ConfigError(where, f"dream.{name}.mode must be one of {', '.join(MODES)}, "
                              f"got {mode!r}")
        propose = [p for p in propose if p != name] + ([name] if mode == "propose" else [])
        off = [p for p in off if p != name] + ([name] if mode == "off" else [])
    return {"dream_propose": propose, "dream_off": off} if dream else {}


def user_config_path() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "aleph-mem" / "config.toml"


@dataclass(frozen=True)
class Settings:
    """Every setting, typed and validated, resolved once at an entry point (the table above
    gives each its default and its documentation)."""

    embed_model: str = "all-MiniLM-L6-v2-int8"
    embed_threads: int = 1
    embed_quantized: str = "auto"
    ignore: tuple[str, ...] = ()
    max_note_bytes: int = 5_000_000
    search_limit: int = 10
    search_recency_weight: float = 0.1
    search_half_life_days: float = 180.0
    search_link_share: float = 0.0
    search_date_boost: float = 0.5
    search_mmr_lambda: float = 0.95
    idle_minutes: int = 15
    reconcile_minutes: int = 10
    watcher: str = "auto"
    dream_window: str = "02:00-06:00"
    dream_propose: tuple[str, ...] = ()
    dream_off: tuple[str, ...] = ()
    decay_min_watch_days: int = 30
    decay_max_archives: int = 10
    dreamer_takeover_hours: float = 48
    sync_settle_seconds: float = 120
    project_roots: tuple[str, ...] = ()
    lint_required_keys: tuple[str, ...] = ("category", "tags", "created")
    lint_disable: tuple[str, ...] = ()
    lint_fix_human: bool = False
    sessions_folder: str = "sessions"
    session_notes: bool = True
    hot_memory_tick: bool = False
    session_idle_minutes: int = 60
    raw_retention_days: int = 0
    hook_budget_tokens: int = 1500
    recall_secrets: bool = False
    llm_model: str = ""
    llm_api_base: str = ""
    sources: tuple[tuple[str, str], ...] = field(default=(), compare=False)  # name, where

    def where(self, name: str) -> str:
        """Which layer set ``name`` (a file, "environment", "command line"), or "default"."""
        return dict(self.sources).get(name, "default")


def load_settings(vault_root: Path | None, flags: Mapping[str, Any] | None = None,
                  environ: Mapping[str, str] | None = None) -> Settings:
    """Resolve every setting once, at an entry point."""
    env = os.environ if environ is None else environ
    layers: list[tuple[str, Mapping[str, Any]]] = [
        (str(user_config_path()), _read_toml(user_config_path())),
    ]
    if vault_root is not None:
        cfg = vault_root / ".aleph" / "config.toml"
        layers.append((str(cfg), _read_toml(cfg)))
    layers.append(("environment", {s.name: env[s.env] for s in SETTINGS if s.env in env}))
    layers.append(("command line", {k: v for k, v in (flags or {}).items() if v is not None}))
    values: dict[str, Any] = {}
    sources: dict[str, str] = {}
    for where, layer in layers:
        for name, value in layer.items():
            if name not in BY_NAME:
                raise ConfigError(where, f"unknown setting {name}; see docs/settings.md")
            coerced = _coerce(BY_NAME[name], value, where)
            values[name] = tuple(coerced) if isinstance(coerced, list) else coerced
            sources[name] = where
    return Settings(**values, sources=tuple(sorted(sources.items())))


def config_template() -> str:
    """The vault template's .aleph/config.toml: every setting, commented out."""
    import json
    import textwrap

    lines = ["# aleph-mem settings for this vault.",
             "# Every setting is listed with its default, commented out. Uncomment to change it.",
             "# Precedence: command-line flag > environment (ALEPH_MEM_<NAME>) > this file >",
             "# ~/.config/aleph-mem/config.toml > default.", ""]
    for s in SETTINGS:
        lines += ["# " + line for line in textwrap.wrap(s.doc, 88)]
        lines += [f"# {s.name} = {json.dumps(s.default)}", ""]
    lines += ["# A dream pass's mode, per-pass table style (auto | propose | off):",
              "# [dream.decay]", '# mode = "propose"', ""]
    return "\n".join(lines)


def settings_markdown() -> str:
    """docs/settings.md."""
    import json

    rows = [f"| `{s.name}` | `{s.env}` | `{json.dumps(s.default)}` | {s.doc} |"
            for s in SETTINGS]
    return "\n".join([
        "# Settings", "",
        "Each setting has one name everywhere: `embed_model` in `.aleph/config.toml` (or the",
        "user file `~/.config/aleph-mem/config.toml`) is `ALEPH_MEM_EMBED_MODEL` in the",
        "environment. Precedence: flag > environment > vault config > user config > default,",
        "resolved once at the entry point. On the command line every setting is a flag of",
        "every command, for that command only: `aleph-mem search x --search-limit 3`,",
        "`aleph-mem mcp --embed-model none` (lists comma-separated). An unknown key, a value of",
        "the wrong type or out of range is an error that names the file (or the command line)",
        "and the key. The vault template's `.aleph/config.toml`",
        "lists every setting, commented out, with its default (regenerate both with",
        "`python -c 'from aleph_mem import settings as s; print(s.settings_markdown())'`).",
        "", "| setting | environment | default | what it does |", "|---|---|---|---|",
        *rows, "",
        "A config file may also set a dream pass's mode as a per-pass table, one table",
        "per pass with one key: `[dream.decay]` / `mode = \"propose\"` (or `\"off\"`, or",
        "`\"auto\"`, the default). It is folded into `dream_propose` / `dream_off` of the same",
        "file; any other key in `[dream]` is an error that says so.", ""])


def _check_table() -> None:
    """The typed fields and the documented table must name the same settings."""
    typed = {f.name for f in fields(Settings)} - {"sources"}
    if typed != set(BY_NAME):
        raise RuntimeError(f"settings table and Settings differ: {sorted(typed ^ set(BY_NAME))}")


_check_table()
