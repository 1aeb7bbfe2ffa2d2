"""aleph-mem: long-term memory as a plain Markdown vault."""

__version__ = "0.1.0"
