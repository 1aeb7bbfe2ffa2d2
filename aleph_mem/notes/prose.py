"""A note's own prose: its text with what the person did not write in their own words
blanked out (code blocks and spans, comments, quotes and callouts, links, addresses, HTML),
line for line, so a rule that reads words ("today" in a relative-time check) judges only
what the person wrote. A clipped web page is somebody else's words altogether."""

from __future__ import annotations

import re
from typing import Any

from aleph_mem.notes.inline_scan import blank, mask_inline_code_and_comments

FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,}).*?^\1\2[`~]*[ \t]*$", re.M | re.S)
QUOTE = re.compile(r"^[ \t]{0,3}>.*$", re.M)
LINKS = re.compile(r"!?\[\[[^\]\n]*\]\]|!?\[[^\]\n]*\]\([^)\n]*\)|<[^>\n]+>|"
                   r"\b(?:https?|ftp|file)://\S+|\bwww\.\S+")
CLIP_KEYS = frozenset({"source", "url", "clipped", "clip_url", "original_url"})
CLIP_NAMES = frozenset({"clippings", "clipping", "webclips", "webclip", "web clips",
                        "web-clips", "readwise", "articles"})


def own_prose(body: str) -> str:
    """The body with code, comments, quotes, callouts, links and addresses blanked."""
    text = FENCE.sub(lambda m: blank(m.group()), body)
    text = mask_inline_code_and_comments(text)
    text = QUOTE.sub(lambda m: blank(m.group()), text)
    return LINKS.sub(lambda m: blank(m.group()), text)


def clipped(path: str, frontmatter: dict[str, Any], tags: tuple[str, ...] | list[str]) -> bool:
    """A page clipped from the web (Obsidian's web clipper, read-later exports): its
    address in the frontmatter, a clippings tag, or a clippings folder."""
    if CLIP_KEYS & {str(k).casefold() for k in frontmatter}:
        return True
    if any(t.casefold().lstrip("#").rsplit("/", 1)[-1] in CLIP_NAMES for t in tags):
        return True
    return any(f.casefold() in CLIP_NAMES for f in path.split("/")[:-1])
