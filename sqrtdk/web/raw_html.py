"""The lines of an article that Markdown leaves as written: its blocks of raw HTML.

The article's line-by-line reads (`line_reads`: notes, boxes, reference definitions; the
Chinese spacing lint) look at lines, not at the tree, so a `[^x]: …` or a `///` written
inside a `<div>…</div>` looked like a note or a box to them, and gave a false error. Code,
formulas, comments and the front matter are masked by the lexer before these reads; raw
HTML blocks are found here, by the two parsers that read the article:

- cmark-gfm (GitHub's reading; CommonMark's seven kinds of HTML block, §4.6): which blocks
  are raw HTML, and their lines (`cmark_html`: cmark-gfm's HTML output keeps no position
  for one, the lines are found from what comes before it and its kind's end condition);
- Python-Markdown (the page's reading): the raw blocks its own `html_block` preprocessor
  stashes, each found where its text stands in the article at the start of a line.

A line counts as raw HTML only where both parsers read it so. Where they differ (a `<div>`
with blank lines inside, which Python-Markdown keeps whole and CommonMark ends at the first
blank line), the lines are read as before, and `md_blocks` warns that the readings part: a
check never skips a line the page's Markdown reads as Markdown.
"""
from __future__ import annotations

import re

import markdown

from ..html_parsing import VOID_ELEMENTS, HTMLParser
from ..markup import MARKDOWN_MARKS
from .blocks import cmark_tree, sourcepos_line
from .html_names import targets
from .markers import FILLER


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


IMAGE_TAGS = ("img", "picture", "source")      # the tags whose address is a picture's
_HEADING_TAGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))
_CODE_TAGS = frozenset(("pre", "code", "kbd", "samp", "script", "style", "textarea", "math",
                        "svg"))


class _Addresses(HTMLParser):
    """The lines of each href, src and srcset address in the tags of a text (html.parser
    reads Markdown's text between the tags as data), and each id (an <a>'s name too: a
    link's target as well, `html_names.targets`) with its line, in order."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: dict[str, list[int]] = {}     # address -> the line of each tag holding it
        self.images: dict[str, list[int]] = {}    # the same, of the tags that show a picture
        self.ids: list[tuple[str, int]] = []
        # (tag, line, the tag's last line) of each markdown="…"
        self.markdown: list[tuple[str, int, int]] = []
        # (Markdown's mark as written, line) in the text between the tags, not in code
        self.marks: list[tuple[str, int]] = []
        self.headings: list[tuple[str, int]] = []  # (tag, line) of each <h1> … <h6>
        # address -> the line of each <a href> with nothing inside that names it (no text,
        # no alt, no aria-label): its line is where it opens
        self.empty: dict[str, list[int]] = {}
        self._anchor: tuple[str, int] | None = None     # the open <a>, while it has no name
        self._code = 0      # how many <pre>, <code>, <script>, … the text is inside

    def handle_data(self, data: str) -> None:
        if data.strip():
            self._anchor = None
        if self._code:
            return
        line = self.getpos()[0]
        # bold, links, code; a note's reference or definition, `[^1]`, `[^1]:`: no note here
        # either. Each match's line counted on from the one before (from the text's start
        # for each, an article with no HTML, one text, took the square of its length)
        for pattern in (MARKDOWN_MARKS, _NOTE_MARK):
            at, n = 0, line
            for m in pattern.finditer(data):
                if pattern is MARKDOWN_MARKS and not (m.group(0)[:2] in ("**", "__")
                                                      or m.group(0)[0] in "[`"):
                    continue
                n += data.count("\n", at, m.start())
                at = m.start()
                self.marks.append((m.group(0), n))

    def handle_endtag(self, tag: str) -> None:
        if tag in _CODE_TAGS and self._code:
            self._code -= 1
        if tag == "a" and self._anchor is not None:
            self.empty.setdefault(self._anchor[0], []).append(self._anchor[1])
        if tag == "a":
            self._anchor = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        line = self.getpos()[0]
        if tag in _CODE_TAGS:
            self._code += 1
        if tag in _HEADING_TAGS and not self._code:
            self.headings.append((tag, line))
        # markdown="0" (kramdown's) asks for the inside as typed: what both parsers do
        if any(name == "markdown" and (value or "").strip() != "0" for name, value in attrs):
            # with the line the tag ends on (its attributes may run over several lines)
            self.markdown.append((tag, line, line + (self.get_starttag_text() or "").count("\n")))
        self.ids += [(target, line) for target in targets(tag, dict(attrs))]
        named = {k: (v or "").strip() for k, v in attrs if k in ("alt", "aria-label",
                                                                  "aria-labelledby")}
        if tag == "a":
            href = dict(attrs).get("href")
            self._anchor = None if href is None or any(named.values()) else (href, line)
        elif any(named.values()):
            self._anchor = None
        for name, value in attrs:
            if name in ("href", "src") and value is not None:
                self._at(value, line, tag)
            elif name == "srcset" and value:
                for part in value.split(","):
                    if part.split():
                        self._at(part.split()[0], line, tag)

    def _at(self, address: str, line: int, tag: str) -> None:
        for found in (self.lines, self.images) if tag in IMAGE_TAGS else (self.lines,):
            lines = found.setdefault(address, [])
            if not lines or lines[-1] != line:
                lines.append(line)


def raw_html_urls(text: str) -> dict[str, list[int]]:
    """The line of every `<a href>`, `<img src>` (any tag's href, src or srcset) of the raw
    HTML in `text`, an article's lines with its code masked, by address, in order: Markdown
    stashes raw HTML, blocks and inline tags alike, so the tree the collectors read never
    holds them, and a broken address in them is reported at each of these lines."""
    return _read(text).lines


def raw_html_images(text: str) -> dict[str, list[int]]:
    """The lines of `raw_html_urls` whose tag shows a picture (<img>, <source>, <picture>):
    a fault told of an image is told at these."""
    return _read(text).images


def raw_html_empty_links(text: str) -> dict[str, list[int]]:
    """The line of every `<a href>` of the raw HTML in `text` (as for `raw_html_urls`) with
    nothing inside that names it (no text, no image's alt, no aria-label), by address, in
    order: a link a screen reader finds with no name, told at the line that opens it."""
    return _read(text).empty


def raw_html_ids(text: str) -> list[tuple[str, int]]:
    """Every id of the raw HTML in `text` (as for `raw_html_urls`), with the line of its
    tag, in order: the tree the collectors read never holds them (md_collect.IdCollector
    checks them against the tree's and each other)."""
    return _read(text).ids


def markdown_attributes(text: str) -> list[tuple[str, int, bool]]:
    """(tag, line, GitHub's reading) of each tag of a raw HTML block of `text` (as for
    `raw_html_urls`) that asks for Markdown inside it (`<div markdown="1">`: md_in_html's,
    kramdown's, PHP Markdown Extra's attribute), which this build does not read: its lines
    are published as typed. GitHub's reading: whether the block holds a blank line below
    the tag, after which GitHub (CommonMark, an HTML block ends at a blank line) reads the
    lines as Markdown (`<details markdown="1">`, `<summary>…</summary>`, a blank line, then
    text); without one GitHub keeps them as typed too. `markdown="0"` (kramdown: keep the
    inside as typed) asks for what both do, and is left out."""
    in_raw = markdown_raw_lines(text)
    lines = text.split("\n")

    def github_reads(end: int) -> bool:
        n = end + 1
        while n in in_raw and n + 1 in in_raw:
            if not lines[n - 1].strip():
                return True
            n += 1
        return False
    return [(tag, n, github_reads(end)) for tag, n, end in _read(text).markdown if n in in_raw]


def raw_headings(text: str) -> list[tuple[str, int]]:
    """(tag, line) of each heading element, `<h1>` … `<h6>`, of a raw HTML block of `text`
    (as for `raw_html_urls`; `<center><h1>The Annotated Transformer</h1></center>`): a
    heading the page's contents and heading checks never see, since Markdown keeps the
    block as written."""
    in_raw = markdown_raw_lines(text)
    return [(tag, n) for tag, n in _read(text).headings if n in in_raw]


def markdown_in_raw_html(text: str) -> list[tuple[str, int]]:
    """(mark, line) of Markdown's bold, links, code spans and notes' references (`[^1]`, and
    definitions `[^1]:`) written between the tags of a raw HTML block of `text` (as for
    `raw_html_urls`; `<center>**bold**</center>`, as a cnblogs or CSDN post holds it):
    Markdown does not read them there, here nor on GitHub, and the page shows the
    asterisks, brackets and backticks."""
    in_raw = raw_html_lines(text)
    return [(mark, n) for mark, n in _read(text).marks if n in in_raw]


# a footnote's reference or definition as Python-Markdown's footnotes read it
_NOTE_MARK = re.compile(r"\[\^[^\]\s]+\]:?")


_SHOWN_AS_CODE = ("pre", "code", "kbd", "samp")


class _OpenTags(HTMLParser):
    """The elements open at the end of a piece of HTML, outermost first (a void element
    opens none; an end tag closes up to its own start, a stray one nothing)."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in VOID_ELEMENTS:
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.open:
            del self.open[len(self.open) - 1 - self.open[::-1].index(tag):]


def code_tag_at(html: str) -> str:
    """The innermost element among <pre>, <code>, <kbd>, <samp> (tags GitHub keeps) open at
    the end of `html` (a block of raw HTML up to a character of it), whose text a browser
    shows as code, in <pre> as typed, line by line; '' when none is open. Raises nothing."""
    return next((tag for tag in reversed(_OpenTags(html).open) if tag in _SHOWN_AS_CODE), "")


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
    first, counted = 1, 0       # the line of offset `counted` (counted on, not from 0 each
    for block in md.htmlStash.rawHtmlBlocks:   # time: in the square of the blocks)
        start = _at_line_start(source, str(block), at)
        if start < 0:
            continue
        at = start + len(str(block))
        first += source.count("\n", counted, start)
        counted = start
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
    found: set[int] = set()
    for el in cmark_tree(text).iter("html"):
        if first := sourcepos_line(el):
            last = int(el.get("data-sourcepos", "").split("-", 1)[1].split(":", 1)[0])
            found.update(range(first, last + 1))
    return found
