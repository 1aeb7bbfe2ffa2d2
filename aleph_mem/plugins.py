"""Plugins (pluggy): the hooks an extension implements, and the one manager that loads them.

An outside package declares an entry point in the group ``aleph_mem`` pointing at a module
with ``@hookimpl`` functions; the built-in dream passes and embedders register through the
very same hooks (``aleph_mem.dream``, ``aleph_mem.embed.embedders``). See docs/plugins.md.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import pluggy

from aleph_mem import logs
from aleph_mem.plugin_index import BUILTIN_MODULES, GROUP, installed

log = logs.get(__name__)

hookspec = pluggy.HookspecMarker(GROUP)
hookimpl = pluggy.HookimplMarker(GROUP)


class Specs:
    @hookspec
    def register_dream_passes(self, register: Callable[[Any], None]) -> None:
        """Call ``register(DreamPass(name, plan, ...))`` for each pass this plugin adds
        (``aleph_mem.dream.registry``). A plugin pass runs in the daily and weekly
        pipelines just before the digest, and what it ``say``s appears in the digest."""

    @hookspec
    def register_embedders(self, register: Callable[[str, Callable[..., Any]], None]) -> None:
        """Call ``register(name, factory)``: ``factory(cache_dir, threads)`` returns an
        object with ``name``, ``dim`` and ``embed(texts) -> list of vectors``; the setting
        ``embed_model = "<name>"`` selects it."""

    @hookspec
    def on_note_changed(self, event: Any) -> None:
        """After an event is committed to the log (a note created, updated, moved,
        archived, restored or deleted, by anyone)."""

    @hookspec
    def on_search_results(self, query: str, hits: list[Any]) -> list[Any] | None:
        """May re-rank or filter: return a new list of hits, or None to leave them."""

    @hookspec
    def on_session_end(self, session: Any) -> None:
        """An agent session ended: ``session`` is its ``raw.Session`` (client, id, project,
        times), its redacted transcript stored and indexed."""


_manager: pluggy.PluginManager | None = None


def manager() -> pluggy.PluginManager:
    """The plugin manager: built-ins first, then every installed ``aleph_mem`` plugin."""
    global _manager
    if _manager is None:
        import importlib

        pm = pluggy.PluginManager(GROUP)
        pm.add_hookspecs(Specs)
        for name in BUILTIN_MODULES:
            pm.register(importlib.import_module(name), name=name)
        for name, target, package in installed():
            if pm.get_plugin(name) is not None or pm.is_blocked(name):
                continue
            try:
                module, _, attr = target.partition(":")
                plugin = importlib.import_module(module)
                for part in filter(None, attr.split(".")):
                    plugin = getattr(plugin, part)
                pm.register(plugin, name=name)
                _packages[name] = package
            except Exception as exc:  # a broken plugin must not take aleph-mem down
                log.warning("plugin %s (%s) could not be loaded: %s", name, package, exc)
        _manager = pm
    return _manager


_packages: dict[str, str] = {}  # plugin name -> "project version"


def dream_passes() -> dict[str, Any]:
    """Every registered dream pass by name (built-ins first; a plugin cannot replace one).
    Each plugin registers into a plain list (``list.append``), so registering never calls
    back into this module."""
    found: dict[str, Any] = {}
    for impl in manager().hook.register_dream_passes.get_hookimpls():
        given: list[Any] = []
        impl.function(register=given.append)
        for p in given:
            if p.name in found:
                log.warning("dream pass %r registered twice: the first one is kept", p.name)
            else:
                found[p.name] = p
    return found


def embedders() -> dict[str, Callable[..., Any]]:
    found: dict[str, Callable[..., Any]] = {}
    for impl in manager().hook.register_embedders.get_hookimpls():
        impl.function(register=found.setdefault)  # the first of a name is kept
    return found


def _tell(hook: str, **kwargs: Any) -> None:
    """Tell every plugin of something already done: a plugin's failure is only logged."""
    for impl in getattr(manager().hook, hook).get_hookimpls():
        try:
            impl.function(**kwargs)
        except Exception:
            log.exception("plugin %s failed on %s", impl.plugin_name, hook)


def note_changed(event: Any) -> None:
    _tell("on_note_changed", event=event)


def session_end(session: Any) -> None:
    _tell("on_session_end", session=session)


def search_results(query: str, hits: list[Any]) -> list[Any]:
    for impl in reversed(manager().hook.on_search_results.get_hookimpls()):
        # pluggy types a hook's function as returning object; the spec above says what
        out = cast("list[Any] | None", impl.function(query=query, hits=hits))
        if out is not None:
            hits = list(out)
    return hits


def describe() -> list[dict[str, Any]]:
    """Every plugin, built-ins included, with the hooks it implements and what it
    registers (``aleph-mem plugins``)."""
    pm = manager()
    passes_by: dict[str, list[str]] = {}
    embedders_by: dict[str, list[str]] = {}
    for impl in pm.hook.register_dream_passes.get_hookimpls():
        impl.function(register=lambda p, n=impl.plugin_name: passes_by.setdefault(
            n, []).append(p.name))
    for impl in pm.hook.register_embedders.get_hookimpls():
        impl.function(register=lambda name, f, n=impl.plugin_name: embedders_by.setdefault(
            n, []).append(name))
    out = []
    for name, plugin in pm.list_name_plugin():
        out.append({"name": name, "builtin": name in BUILTIN_MODULES,
                    "package": _packages.get(name, "aleph-mem"),
                    "hooks": sorted(h.name for h in pm.get_hookcallers(plugin) or []),
                    "dream_passes": passes_by.get(name, []),
                    "embedders": embedders_by.get(name, [])})
    return out
