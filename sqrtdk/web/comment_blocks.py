"""Where a comment the page drops is a block on GitHub, and the two readings part.

`comments.drop_comments` takes every `<!-- … -->` out before anything reads the article (so
nothing inside one is read), and the GitHub comparison (`md_blocks`) reads the text without
them too, so it cannot see what a comment does on GitHub: one that starts a line (after a
quote's `>` and up to three spaces) begins a block of raw HTML there (CommonMark's HTML
block of kind 2), which

- ends the paragraph, list item, quote or table right above it: `line one`, `<!-- c -->`,
  `line two` is two paragraphs on GitHub, one on the page (the comment leaves a placeholder
  that keeps the lines together); `- item`, `<!-- note -->`, `- next` is two lists there,
  one here;
- runs to the end of the line holding its `-->`: text written after it on that line is
  HTML there (its Markdown is not read, and it is no paragraph), Markdown here.

cmark-gfm, GitHub's parser, reads the article with its comments to find these blocks; each
such comment is warned at its line, saying what to write so that both read it alike.
Template comments `{# … #}` are this site's own (GitHub shows them as text) and are left out.
"""
from __future__ import annotations

import xml.etree.ElementTree as etree
from collections.abc import Callable
from pathlib import Path

from .blocks import cmark_tree, sourcepos_line
from .comments import comment_spans

# blocks a paragraph-like line under them continues here, but a comment ends on GitHub
_ENDED = {"p", "li", "ul", "ol", "blockquote", "table", "tr", "td", "th"}
INTERRUPTS = ("this comment starts a line right under a line of text: GitHub ends the "
              "paragraph (list, quote or table) above it here and starts a new block under "
              "it, the page keeps the lines around it in one block; put a blank line before "
              "and after the comment (two blocks, as GitHub reads it), or move it to the end "
              "of the line above (one block in both)")
TEXT_AFTER = ("text follows this comment's '-->' on its line: GitHub reads a comment that "
              "starts a line as a block of raw HTML up to the end of that line (the text is "
              "HTML, its Markdown not read, and no paragraph), the page as Markdown; put the "
              "text on a line of its own after the comment, or the comment after the text")


def comment_block_warnings(path: Path, text: str,
                           fence_end: Callable[[list[str], int], int | None]
                           ) -> list[tuple[int, str]]:
    """(line, message) for each comment of `text` (an article, its front matter as blank
    lines) that GitHub reads as a block of its own where the page does not (see the module
    docstring), in order; `fence_end` as for `comments.drop_comments`."""
    spans = comment_spans(path, text, fence_end)
    leading = [(s, e) for s, e in spans if text.startswith("<!--", s) and
               not text[text.rfind("\n", 0, s) + 1:s].strip(" \t>")]
    if not leading:
        return []
    tree = cmark_tree(text)
    html_starts = {sourcepos_line(el) for el in tree.iter("html")}
    ends = {_last(el) for el in tree.iter() if el.tag in _ENDED}
    lines = text.split("\n")
    found = []
    for start, end in leading:
        first, last = text.count("\n", 0, start) + 1, text.count("\n", 0, end) + 1
        if first not in html_starts:
            continue                     # indented into a paragraph, or inside other HTML
        if _rest_of_line(text, end, spans).strip():
            found.append((last, TEXT_AFTER))
        elif first - 1 in ends and _text(lines, first - 2) and _text(lines, last):
            found.append((first, INTERRUPTS))
    return found


def _rest_of_line(text: str, end: int, spans: list[tuple[int, int]]) -> str:
    """What follows `end` on its line, other comments left out."""
    stop = text.find("\n", end)
    stop = len(text) if stop < 0 else stop
    rest, at = [], end
    for s, e in spans:
        if at <= s < stop:
            rest.append(text[at:s])
            at = max(at, e)
    if at < stop:
        rest.append(text[at:stop])
    return "".join(rest)


def _text(lines: list[str], index: int) -> bool:
    """Whether 0-based line `index` exists and holds more than a quote's `>` and spaces."""
    return 0 <= index < len(lines) and bool(lines[index].strip(" \t>"))


def _last(el: etree.Element) -> int:
    """The last line of a cmark-gfm element's `data-sourcepos` ('3:1-5:4' -> 5), or 0."""
    pos = el.get("data-sourcepos", "")
    return int(pos.split("-", 1)[1].split(":", 1)[0]) if "-" in pos else 0
