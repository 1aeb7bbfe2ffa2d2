"""The page where a person sees memory, served by ``aleph-mem serve`` beside ``/mcp``: search
with why each hit came, a note with its links and its history (with undo), captured
sessions, the dream's runs and proposals (tick, dismiss), hot memory and ``status``.

Open ``app.py`` first (the routes); ``gate.py`` says who may see and write, ``views.py``
turns the front door's values into HTML with ``html.py``'s escaping helpers."""

__all__ = ["app"]
