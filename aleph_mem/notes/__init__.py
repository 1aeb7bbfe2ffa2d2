"""One note's bytes read and written as Obsidian reads them: ``parser`` (open it first:
frontmatter, title, links, tags, chunks) with ``inline_scan`` (wikilinks, tags, block ids
outside code), ``sections`` (headings and their lines), ``frontmatter_edit`` (set a key, every
other byte kept), ``compose`` (a new note's name and bytes) and ``facts`` (what a note states).

Pure functions of text: imports nothing above ``files/``."""

__all__ = ["compose", "facts", "frontmatter_edit", "inline_scan", "parser", "prose", "prose_dates",
           "sections"]
