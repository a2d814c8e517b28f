"""The lines of an article that Markdown leaves as written: its blocks of raw HTML.

The article's line-by-line reads (`line_reads`: notes, boxes, reference definitions; the
Chinese spacing lint) look at lines, not at the tree, so a `[^x]: …` or a `///` written
inside a `<div>…</div>` looked like a note or a box to them, and gave a false error. Code,
formulas, comments and the front matter are masked by the lexer before these reads; raw
HTML blocks are found here, by the two parsers that read the article:

- cmark-gfm (GitHub's reading; CommonMark's seven kinds of HTML block, §4.6): which blocks
  are raw HTML and where the blocks around them are (`data-sourcepos`). cmark-gfm's HTML
  output keeps no position for a raw HTML block (it writes `<!-- raw HTML omitted -->`), so
  each one starts on the first non-blank line after what comes before it, and ends where
  CommonMark's end condition of its kind is met (its closing tag for `<pre>`, `<script>`,
  `<style>`, `<textarea>`; `-->`, `?>`, `>`, `]]>` for the others of kinds 2-5; a blank
  line for kinds 6 and 7), never past the start of the next block;
- Python-Markdown (the page's reading): the raw blocks its own `html_block` preprocessor
  stashes, each found where its text stands in the article at the start of a line.

A line counts as raw HTML only where both parsers read it so. Where they differ (a `<div>`
with blank lines inside, which Python-Markdown keeps whole and CommonMark ends at the first
blank line), the lines are read as before, and `md_blocks` warns that the readings part: a
check never skips a line the page's Markdown reads as Markdown.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from html.parser import HTMLParser

import markdown

from .blocks import cmark_tree, sourcepos_line
from .markers import FILLER

# CommonMark 0.29 §4.6, kinds 1-5: (how the block's first line starts, what ends the block)
_KIND_1 = ("pre", "script", "style", "textarea")
_ENDS = (("<!--", "-->"), ("<?", "?>"), ("<![CDATA[", "]]>"))
_PREFIX = " \t>"          # a blockquote's `>` and indentation before a block's text
_LIST_MARKER = re.compile(r"^(?:[-+*]|\d{1,9}[.)])[ \t]+")


def raw_html_lines(text: str) -> frozenset[int]:
    """The 1-based lines of `text` (an article, its front matter as blank lines, code and
    formulas masked) that both cmark-gfm and Python-Markdown read as a block of raw HTML."""
    if "<" not in text:
        return frozenset()
    ours = _python_markdown(text)
    return frozenset(ours & _cmark(text)) if ours else frozenset()


def markdown_raw_lines(text: str) -> frozenset[int]:
    """The 1-based lines of `text` (as for `raw_html_lines`) that Python-Markdown alone reads
    as a block of raw HTML: the page keeps them as HTML, whatever cmark-gfm reads."""
    return frozenset(_python_markdown(text)) if "<" in text else frozenset()


class _Addresses(HTMLParser):
    """The line of each href, src and srcset address in the tags of a text (html.parser
    reads Markdown's text between the tags as data), and each id with its line, in order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: dict[str, int] = {}
        self.ids: list[tuple[str, int]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        line = self.getpos()[0]
        for name, value in attrs:
            if name == "id" and value:
                self.ids.append((value, line))
            if name in ("href", "src") and value is not None:
                self.lines.setdefault(value, line)
            elif name == "srcset" and value:
                for part in value.split(","):
                    if part.split():
                        self.lines.setdefault(part.split()[0], line)


def raw_html_urls(text: str) -> dict[str, int]:
    """The line of the first `<a href>`, `<img src>` (any tag's href, src or srcset) of the
    raw HTML in `text`, an article's lines with its code masked, by address: Markdown
    stashes raw HTML, blocks and inline tags alike, so the tree the collectors read never
    holds them, and a broken address in one is reported at this line."""
    return _read(text).lines


def raw_html_ids(text: str) -> list[tuple[str, int]]:
    """Every id of the raw HTML in `text` (as for `raw_html_urls`), with the line of its
    tag, in order: the tree the collectors read never holds them (md_collect.IdCollector
    checks them against the tree's and each other)."""
    return _read(text).ids


def _read(text: str) -> _Addresses:
    parser = _Addresses()
    parser.feed(text)
    parser.close()
    return parser


def blank_lines(text: str, numbers: frozenset[int], filler: str = FILLER) -> str:
    """`text` with each line whose 1-based number is in `numbers` (say `raw_html_lines`)
    replaced by `filler`: line numbers stay, and a line read line by line is never taken
    for Markdown's syntax (a FILLER keeps the line non-blank; "" makes it blank)."""
    if not numbers:
        return text
    return "\n".join(filler if n in numbers else line
                     for n, line in enumerate(text.split("\n"), 1))


def _python_markdown(text: str) -> set[int]:
    """Lines of the raw blocks Python-Markdown's `html_block` preprocessor stashes."""
    md = markdown.Markdown()
    lines = md.preprocessors["normalize_whitespace"].run(text.split("\n"))
    source = "\n".join(lines)
    md.preprocessors["html_block"].run(lines)
    found: set[int] = set()
    at = 0
    for block in md.htmlStash.rawHtmlBlocks:
        start = _at_line_start(source, str(block), at)
        if start < 0:
            continue
        at = start + len(str(block))
        first = source.count("\n", 0, start) + 1
        found.update(range(first, first + str(block).rstrip("\n").count("\n") + 1))
    return found


def _at_line_start(source: str, block: str, at: int) -> int:
    """The offset of `block` in `source` from `at` where only up to three spaces precede
    it on its line (where Python-Markdown starts a raw block); -1 if nowhere."""
    while block and (start := source.find(block, at)) >= 0:
        line_start = source.rfind("\n", 0, start) + 1
        if start - line_start <= 3 and not source[line_start:start].strip(" "):
            return start
        at = start + 1
    return -1


def _cmark(text: str) -> set[int]:
    """Lines of the blocks of raw HTML in cmark-gfm's reading (see the module docstring)."""
    lines = text.split("\n")
    root = cmark_tree(text)
    starts = sorted({sourcepos_line(el) for el in root.iter() if sourcepos_line(el)})
    walk = _Walk(lines, starts)
    notes = [el for el in root if el.tag == "section" and "footnotes" in el.get("class", "")]
    for section in notes:      # first: the notes' lines are not the main flow's
        for note in section.iter("li"):
            walk.walk(note, None, len(lines), nested=True)
    walk.walk(root, 1, len(lines), nested=False)
    return walk.found


class _Walk:
    """cmark-gfm's tree in document order, with the first line a raw HTML block can start on
    (`after`: the line after the block before it, or its container's first line; None: not
    known, as at the start of a note, whose first line has no position)."""

    def __init__(self, lines: list[str], starts: list[int]):
        self.lines, self.starts, self.found = lines, starts, set[int]()

    def walk(self, parent: etree.Element, after: int | None, last: int, nested: bool
             ) -> int | None:
        for el in parent:
            pos = el.get("data-sourcepos", "")
            if el.tag == "html":
                after = self.html(after, last, nested) if after else None
            elif el.tag == "section" and "footnotes" in el.get("class", ""):
                continue
            elif pos[:1].isdigit():
                first, end = sourcepos_line(el), int(pos.split("-", 1)[1].split(":", 1)[0])
                self.walk(el, first, end, nested=True)
                after = end + 1
            else:
                after = self.walk(el, after, last, nested)
        return after

    def html(self, after: int, last: int, nested: bool) -> int:
        """Record the raw HTML block starting at or after line `after` (the first line there
        that can start one: its text begins with '<', at the margin's indentation when the
        block is not nested, and no other block holds it); the line after the block."""
        first = next((n for n in range(after, last + 1) if n not in self.found and
                      _opens_html(self.lines[n - 1], nested)), 0)
        if not first:
            return after
        limit = min([s - 1 for s in self.starts if s > first] + [last])
        end = _end(self.lines, first, limit)
        self.found.update(range(first, end + 1))
        return end + 1


def _opens_html(line: str, nested: bool) -> bool:
    """Whether `line` can be a raw HTML block's first line: its text (after a quote's '>'
    and a list item's marker) starts with '<'; at the top level, indented by 3 spaces at
    most (4 would be code)."""
    if not nested:
        return len(line) - len(line.lstrip(" ")) <= 3 and line.lstrip(" ").startswith("<")
    return _content(line).startswith("<")


def _content(line: str) -> str:
    """A line's text without a quote's '>', a list item's marker and indentation."""
    return _LIST_MARKER.sub("", line.lstrip(_PREFIX)).lstrip(_PREFIX)


def _blank(line: str) -> bool:
    return not line.strip(_PREFIX)


def _end(lines: list[str], first: int, limit: int) -> int:
    """The last line of the HTML block of CommonMark's kind that starts at line `first`,
    not past line `limit`."""
    head = _content(lines[first - 1]).lower()
    closing = next((f"</{tag}>" for tag in _KIND_1 if head.startswith(f"<{tag}") and
                    head[len(tag) + 1:len(tag) + 2] in ("", " ", "\t", ">")), None)
    closing = closing or next((end for start, end in _ENDS if head.startswith(start)), None)
    if closing is None and head.startswith("<!") and head[2:3].isalpha():
        closing = ">"
    if closing is not None:
        return next((n for n in range(first, limit + 1) if closing in _tail(lines, n, first)),
                    _trimmed(lines, limit, first))
    return next((n - 1 for n in range(first + 1, limit + 1) if _blank(lines[n - 1])), limit)


def _tail(lines: list[str], n: int, first: int) -> str:
    """Line n lowercased; the first line without its opening (`<!-->` does not end there)."""
    line = lines[n - 1].lower()
    return _content(line)[2:] if n == first else line


def _trimmed(lines: list[str], limit: int, first: int) -> int:
    return next((n for n in range(limit, first, -1) if not _blank(lines[n - 1])), first)

