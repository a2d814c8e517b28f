"""The article's block structure as GitHub would read it, and its headings.

The article is read by Python-Markdown with the extensions named in `converter`. Authors
learned Markdown on GitHub (CommonMark + GFM), and where the two disagree — a list or a
table right under a paragraph, a nested list indented by two spaces, a fence indented or
right under a paragraph line, a multi-line setext heading — the page would silently differ
from what the author meant. `BlockStructure` reads the same text a second time with
cmark-gfm (`blocks`), aligns the two block lists (difflib, as `diff` aligns lines) and warns
at the line where they part, saying what the page shows and how to write the passage so both
read it alike. It also warns where both parsers agree on losing what was typed: a table row
with more cells than its header (or fewer: an empty cell nobody wrote), table lines without
their `|---|` row, a reference link `[text][ref]` whose reference is never defined.
Headings: a level-1 heading stops the build (the page's title is its h1), a heading without
an id stops at its line, a level jump of more than one warns.
"""
from __future__ import annotations

import logging
import re
import xml.etree.ElementTree as etree
from bisect import bisect_left, bisect_right
from collections import deque
from collections.abc import Callable, Mapping
from difflib import SequenceMatcher
from html import escape, unescape
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import unquote, urlsplit

from markdown import Markdown
from markdown.extensions.def_list import DefListProcessor
from markdown.extensions.footnotes import FN_BACKLINK_TEXT, NBSP_PLACEHOLDER
from markdown.postprocessors import RawHtmlPostprocessor
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor
from markdown.util import AMP_SUBSTITUTE

from ..errors import BuildError, line_of, shortened
from ..html_parsing import HTMLParser
from ..log import warn
from ..textfiles import visible
from .block_diff import WORDS_ONLY, Alignment, align
from .blocks import (
    Block,
    Reader,
    cmark_reader,
    cmark_tree,
    html_text,
    inline_text,
    is_footnote_link,
    key,
    sourcepos_end,
    sourcepos_line,
)
from .emphasis_diff import HINT, characters, emphasis_difference, has_emphasis
from .lexer import directive_or_chunk, plain_fence
from .markers import ANY_MATH_RE
from .md_autolink import address_as_meant
from .md_emoji import escaped_as_github
from .md_figures import IMAGE_SIZE, on_own_machine, size_told
from .md_math import ContentError
from .model import Outline
from .positions import LineMap
from .quote_messages import BOX_LINES
from .raw_html import markdown_raw_lines
from .site_links import refused_scheme

LOGGER = logging.getLogger("sqrtdk.web")
_BLOCK_PLACEHOLDER = re.compile("\x02wzxhzdk:(\\d+)\x03")
_INLINE_PLACEHOLDER = re.compile("\x02klzzwxh:(\\d+)\x03")
_ESCAPED = re.compile("\x02(\\d+)\x03")
# (the lookahead keeps it linear: only the list that ends the line is read; its body tried
# from every '{' of a heading of many '{' and '#' and no '}' took cubic time, 13 s at 2,000)
_HEADING_ID = re.compile(r"\{(?=[^{}\n]*\}\s*$)[^{}\n]*#[\w-]+[^{}\n]*\}\s*$")
_STASHED = "\x1a"      # a stashed block left out of the text read (no bracket, no line)
_UNDEFINED_REFERENCE = re.compile(r"\[([^\]\[^][^\]\[]*)\]\[([^\]\[]*)\]")
# an autolink's address that is a path of Rust or C++ ('std::vec'): its scheme, then ':'
_PATH_NAME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]{1,31}):(?=:)")
# what stands right before the brackets of an array's index in prose (`dp[i][j]`, `A[0][1]`,
# `f(x)[k][m]`): a name's last letter or digit, a bracket or a parenthesis (a link's text
# follows a space, punctuation or a Chinese character)
_INDEXED = re.compile(r"[A-Za-z0-9_\])]")
# (in braces, only a `.class` first is the language: `{#id}` is an option)
_FENCE_INFO = re.compile(r"(?:`{3,}|~{3,})[ \t]*(?:\{[ \t]*(?:\.[\w#+.-]*)?|\.?[\w#+.-]*)"
                         r"(?P<options>[^}\n]*)")
_ESCAPED_PIPE_IN_CODE = re.compile(r"(`+)(?:(?!\1).)*\\\|(?:(?!\1).)*\1")
_CODE_SPAN = re.compile(r"(`+).+?\1")
_DELIMITER_ROW = re.compile(r"\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*")
_HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
_EMPHASIS_BLOCKS = {"p", "li", "th", "td", *_HEADINGS}
# a line superfences left for a fence (its stash placeholder), at the margin or in a quote
# (each marker an atomic group: see lexer._QUOTED_CODE)
_FENCE_LINE = re.compile("(?P<quote>(?>[ ]{0,3}>[ ]?)*)\x02wzxhzdk:\\d+\x03[ \t]*")


class FenceBreaks(Preprocessor):
    """A code fence right under a line of text, or with text right under its closing fence,
    is a block of its own, as on GitHub (CommonMark: a fence interrupts a paragraph). Runs
    after superfences (priority 25), which leaves one placeholder line for each fence:
    Markdown read that line as words of the paragraph around it, and the page held a
    `<pre>` inside a `<p>`, which a browser closes early (the text after the code then sat
    in no paragraph). A fence at the margin or in a quote gets a blank line (in a quote, an
    empty `>` line) on each side where text touches it; above it, that also ends a list
    item or a quote the text belonged to, as GitHub ends them. A fence inside a list item is
    left in the item's text, where it is already a block of the item, as on GitHub.
    Python-Markdown keeps no line numbers (superfences already turned each fence into one
    line), and every line the build names comes from cmark-gfm's reading of the text as
    written (`positions`), so the added lines move none."""

    def run(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        for i, line in enumerate(lines):
            m = _FENCE_LINE.fullmatch(line)
            if m is None:
                out.append(line)
                continue
            blank = m["quote"].rstrip()
            if out and out[-1].strip(" \t>"):
                out.append(blank)
            out.append(line)
            after = lines[i + 1] if i + 1 < len(lines) else ""
            if after.strip(" \t>"):
                out.append(blank if after.lstrip().startswith(">") else "")
        return out


class PlainBracedFences(Preprocessor):
    """A fence whose info string is a MyST directive or a Quarto chunk (```` ```{important} ````,
    ```` ```{r echo=FALSE} ````) is converted with no info, a plain block of code, as GitHub
    shows it: superfences read the braces as an attribute list and gave the code element an
    attribute per bare word, `<code important="None">`, which no reader sees and the page
    should not carry. One whose info is an attribute list with more than a language
    (```` ```{.python title="t"} ````) is converted with the language alone, as md_blocks
    warns (superfences published the rest: an id, classes, a tooltip). `lines()`: the file
    line of each such fence -> the info to convert it with (lexer.braced_info). The lexer
    and pages warn what to write for it. Runs before superfences (priority 25), on
    the article's lines (the Markdown's line k is the file's `first_line() + k + 1`)."""

    def __init__(self, md: Markdown, lines: Callable[[], Mapping[int, str]],
                 first_line: Callable[[], int]):
        super().__init__(md)
        self.lines, self.first_line = lines, first_line

    def run(self, lines: list[str]) -> list[str]:
        braced = self.lines()
        if not braced:
            return lines
        first = self.first_line()
        return [plain_fence(line) + braced[first + k + 1] if first + k + 1 in braced else line
                for k, line in enumerate(lines)]


class FenceParagraphs(Treeprocessor):
    """A fence still inside a paragraph after `FenceBreaks` (indented under a paragraph line
    by 1 to 3 spaces, or inside a note under its text) ends the paragraph: the paragraph
    becomes the text before the fence, the fence, and the text after it, as GitHub reads
    them (a `<pre>` inside a `<p>` is no valid HTML). A tight list item's text holds no
    paragraph and is left alone. Runs after inline patterns (20), before `BlockStructure`
    (19.8) compares the blocks and records their lines. `is_fence`: whether stash entry n
    holds a fence (superfences' output, stashed before any raw HTML block)."""

    def __init__(self, md: Markdown, is_fence: Callable[[int], bool]):
        super().__init__(md)
        self.is_fence = is_fence

    def run(self, root: etree.Element) -> None:
        for parent in list(root.iter()):
            for p in [c for c in parent if c.tag == "p"]:
                if not any(self._fences(t) for t in (p.text, *(c.tail for c in p))):
                    continue
                at = list(parent).index(p)
                parent.remove(p)
                for block in self._split(p):
                    parent.insert(at, block)
                    at += 1

    def _fences(self, text: str | None) -> list[re.Match[str]]:
        return [m for m in _BLOCK_PLACEHOLDER.finditer(text or "")
                if self.is_fence(int(m.group(1)))]

    def _split(self, p: etree.Element) -> list[etree.Element]:
        blocks = [etree.Element("p", p.attrib)]

        def place(text: str | None, owner: etree.Element | None) -> None:
            """Put `text` (p's text, or the tail of its child `owner`) in the current
            paragraph, starting a new one after each fence in it."""
            at, cut = 0, False
            for m in self._fences(text):
                assert text is not None
                before = text[at:m.start()]
                _put(blocks[-1], owner, (before.lstrip() if cut else before).rstrip())
                fence = etree.Element("p")
                fence.text = m.group(0)
                blocks.extend((fence, etree.Element("p", p.attrib)))
                owner, at, cut = None, m.end(), True
            rest = text[at:] if text else None
            _put(blocks[-1], owner, rest.lstrip() if cut and rest else rest)

        place(p.text, None)
        for child in list(p):
            tail, child.tail = child.tail, None
            blocks[-1].append(child)
            place(tail, child)
        return [b for b in blocks if len(b) or (b.text or "").strip()]



def _code_as_html(span: str) -> str:
    """A code span of a table cell (`x \\| y`) as the HTML both parsers show alike in a
    cell, its pipes as '&#124;' (<code>x &#124; y</code>)."""
    ticks = len(span) - len(span.lstrip("`"))
    inner = span[ticks:len(span) - ticks].replace("\\|", "|")
    if inner.startswith(" ") and inner.endswith(" ") and inner.strip():
        inner = inner[1:-1]          # CommonMark strips one space from each side
    return f"<code>{escape(inner, quote=False).replace('|', '&#124;')}</code>"

def _put(p: etree.Element, owner: etree.Element | None, text: str | None) -> None:
    """`text` as the text of paragraph `p` (owner None) or the tail of its child `owner`."""
    if owner is None:
        p.text = text or None
    else:
        owner.tail = text or None


class RawHtmlEntries:
    """Which entries of Markdown's stash hold raw HTML blocks (its `html_block` preprocessor
    stashes them, priority 20), as opposed to the code superfences stashes (priority 25, and
    later in lists): `register` puts a preprocessor on each side of it that notes the
    stash's length."""

    def __init__(self, md: Markdown):
        self.md, self.start, self.entries = md, 0, range(0)

    def register(self) -> None:
        """Run around Markdown's `html_block` preprocessor (priority 20)."""
        self.md.preprocessors.register(_Noting(self.md, self._before), "sqrtdk-stash-0", 20.5)
        self.md.preprocessors.register(_Noting(self.md, self._after), "sqrtdk-stash-1", 19.5)

    def _before(self) -> None:
        self.start = len(self.md.htmlStash.rawHtmlBlocks)

    def _after(self) -> None:
        self.entries = range(self.start, len(self.md.htmlStash.rawHtmlBlocks))


class LoneTags(Treeprocessor):
    """A paragraph holding only one tag of inline HTML (a line of only `<br>`) is a block of
    raw HTML on GitHub (CommonMark's kind 7, or part of the HTML block right above it: a real
    post's `<hr …>` then `<br>`), written as typed; Python-Markdown makes a paragraph of it,
    and the page showed an empty paragraph with its margins (`<p><br></p>`). The tag is put
    in place of the paragraph, as GitHub writes it. (The comparison of the two readings
    already reads such a paragraph as raw HTML: `BlockStructure._classify`.)"""

    def run(self, root: etree.Element) -> None:
        parents = [el for el in root.iter() if any(child.tag == "p" for child in el)]
        for parent in parents:
            for p in [child for child in parent if child.tag == "p"]:
                if not len(p) and not p.attrib and self._lone_tag(p.text or ""):
                    _replace_by_text(parent, p, (p.text or "").strip())

    def _lone_tag(self, text: str) -> bool:
        m = _BLOCK_PLACEHOLDER.fullmatch(text.strip())
        if not m:
            return False
        stashed = self.md.htmlStash.rawHtmlBlocks[int(m.group(1))]
        return isinstance(stashed, str) and _one_tag(stashed)


class BlockTags(RawHtmlPostprocessor):
    """Markdown's own `raw_html` postprocessor (priority 30), reading a block's tag name up
    to any whitespace: Python-Markdown's stops at a space only, so a block of raw HTML whose
    first tag has its attributes on the next line (`<div`, then `class="x">`) had the name
    'div\nclass="x"', no block-level element, and was wrapped in a `<p>` (a `<div>` inside a
    paragraph, which GitHub writes as typed)."""

    BLOCK_LEVEL_REGEX = re.compile(r"^</?([^\s>/]+)")


class _Tags(HTMLParser):
    """The tags and the text of an HTML fragment, counted."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags = self.other = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags += 1

    def handle_endtag(self, tag: str) -> None:
        self.tags += 1

    def handle_data(self, data: str) -> None:
        self.other += bool(data.strip())

    def handle_comment(self, data: str) -> None:
        self.other += 1

    def handle_decl(self, decl: str) -> None:
        self.other += 1

    def handle_pi(self, data: str) -> None:
        self.other += 1


def _one_tag(fragment: str) -> bool:
    """Whether `fragment` is one start or end tag (`<br>`, `<a href="…">`, `</span>`) and
    nothing else (no text, no entity, no comment)."""
    parser = _Tags()
    parser.feed(fragment)
    parser.close()
    return parser.tags == 1 and not parser.other and fragment.strip().startswith("<")


def _replace_by_text(parent: etree.Element, el: etree.Element, text: str) -> None:
    """`el` out of `parent`, `text` (and `el`'s tail) in its place, on lines of their own."""
    at = list(parent).index(el)
    put = "\n" + text + "\n" + (el.tail or "")
    if at:
        before = parent[at - 1]
        before.tail = (before.tail or "") + put
    else:
        parent.text = (parent.text or "") + put
    parent.remove(el)


class _Noting(Preprocessor):
    """A preprocessor that changes nothing and calls `note`."""

    def __init__(self, md: Markdown, note: Callable[[], None]):
        super().__init__(md)
        self.note = note

    def run(self, lines: list[str]) -> list[str]:
        self.note()
        return lines


class BlockStructure(Treeprocessor):
    """Compares the tree (after inline parsing, before footnotes are renumbered: priority
    19.8) with cmark-gfm's reading of the same text; warns or stops at the author's line
    (see the module docstring). `block_lines`: the file line of each block element both
    parsers read alike, and `heading_lines` of each heading, from cmark-gfm's source
    positions; `positions` the line of every element, from these (later processors name a
    line from it, not by searching the text)."""

    def __init__(self, md: Markdown, path: Path, text: Callable[[], str],
                 searchable: Callable[[], str], first_line: Callable[[], int],
                 readable: Callable[[str], str] = str):
        super().__init__(md)
        self.path, self.text, self.searchable, self.first_line = (path, text, searchable,
                                                                  first_line)
        self.readable = readable      # text as the author wrote it (formulas back), for messages
        self.raw_html = RawHtmlEntries(md)     # a raw `<pre>` block is HTML, not a fence
        self.heading_lines: dict[etree.Element, int] = {}
        self.block_lines: dict[etree.Element, int] = {}
        self.block_floors: dict[etree.Element, int] = {}
        self.positions = LineMap()
        self.searched = _Lines([])      # the text's lines, as `run` reads them
        self.raw_warned: frozenset[int] = frozenset()
        self.raw_kept: frozenset[int] = frozenset()    # lines of HTML blocks kept as typed
        # links to this site written with a space, text on GitHub: address -> 'write …'
        self.spaced: dict[str, str] = {}
        # the addresses of pictures the build stops at (`_told_pictures`)
        self.told_pictures: frozenset[str] = frozenset()

    def run(self, root: etree.Element) -> None:
        source = self.text()
        lines = source.split("\n")
        self.searched = _Lines(lines)
        tree = cmark_tree(source)
        theirs = cmark_reader(lines).read(tree)
        # a shortcode left as typed in our text is one written with a backslash (`\:smile:`),
        # which GitHub shows as the emoji (told by `md_foreign`): its words are the emoji's
        ours = Reader(self._classify, lambda el: inline_text(el, is_footnote_link, unescape),
                      lambda el: 0, lambda text: self.plain(escaped_as_github(text)),
                      self._fences_in, self._fences_inside).read(root)
        main = align(ours.blocks, theirs.blocks, lines)
        self._keep_lines(ours.elements, main)
        differences = main.differences + self._emphasis(ours.elements, theirs.elements, main)
        notes = []
        for label, blocks in ours.notes.items():
            if label in theirs.notes:
                note = align(blocks, theirs.notes[label], lines)
                self._keep_lines(ours.note_elements[label], note)
                differences += note.differences + self._emphasis(
                    ours.note_elements[label], theirs.note_elements[label], note)
                notes.append((blocks, ours.note_elements[label], note))
        self._headings(ours.blocks, ours.elements, main, lines)
        for blocks, elements, note in notes:      # a note's headings: no level to follow
            self._headings(blocks, elements, note, lines, levels=False)
        self.positions.record(root, {**self.block_lines, **self.heading_lines},
                              self.md.is_block_level, self.block_floors)
        first: dict[int, str] = {}       # one warning a line: its first stretch's
        for line, message in differences:
            first.setdefault(line, message)
        self.raw_kept = markdown_raw_lines(source)
        self.raw_warned = _raw_runs_warned(self.raw_kept, first)
        told_lines, self.told_pictures = self._told_pictures(root)
        links = self._link_warnings(tree, root, lines)
        for line, message in sorted(first.items()):
            # words that differ only by a link one reading makes: the link's warning says why;
            # by a picture the build stops at (md_figures), which GitHub shows as typed
            if not ((line in {at for at, _ in links} or line in told_lines)
                    and WORDS_ONLY in message):
                self._warn(line, message)
        self._tables(tree, lines)
        self._fence_options(tree, lines)
        self._references(root)
        for line, message in links:
            if message:          # '': told once the site's files are known (`spaced`)
                self._warn(line, message)

    def _told_pictures(self, root: etree.Element) -> tuple[frozenset[int], frozenset[str]]:
        """The pictures the build stops at with a message saying what to write (md_figures):
        one whose address ends with Markdown Nice's size (`![a](x.png =150x150)`), one on the
        author's machine (Typora's `/Users/name/Library/Application Support/typora-user-images/
        a.png`, its space an address's end on GitHub). GitHub shows such a picture as typed:
        the lines (in the text read) of the blocks holding them, where the two readings'
        words differ by it, and their addresses without the size, which GitHub links in that
        text. A difference there is no other mistake to tell."""
        parents = {child: parent for parent in root.iter() for child in parent}
        lines: set[int] = set()
        addresses: set[str] = set()
        for img in root.iter("img"):
            src = unquote(self.plain(img.get("src", "")))
            if size_told(src) is None and on_own_machine(src) is None:
                continue
            addresses.add(_same_address(IMAGE_SIZE.sub("", src)))
            block: etree.Element | None = img
            while block is not None and block not in self.block_lines and \
                    block not in self.block_floors:
                block = parents.get(block)
            if block is not None:
                lines.add((self.block_lines.get(block) or self.block_floors[block]) -
                          self.first_line())
        return frozenset(lines), frozenset(addresses)

    def _emphasis(self, ours: list[etree.Element | None], theirs: list[etree.Element | None],
                  alignment: Alignment) -> list[tuple[int, str]]:
        """A warning at its line for each block both parsers read alike (a paragraph, a
        heading, a cell, a list item's own text) whose emphasis they read differently
        (`emphasis_diff`)."""
        found = []
        for el, partner in zip(ours, alignment.partners, strict=True):
            github = theirs[partner] if partner >= 0 else None
            if el is None or github is None or el.tag not in _EMPHASIS_BLOCKS or \
                    not (has_emphasis(el) or has_emphasis(github)):
                continue
            mine = characters(el, self.plain, is_footnote_link)
            difference = emphasis_difference(mine, characters(github, str, is_footnote_link))
            if difference:
                found.append((sourcepos_line(github), f"this Markdown and GitHub (CommonMark) "
                              f"read the emphasis here differently: "
                              f"{self.readable(difference)}; {HINT}"))
        return found

    def _keep_lines(self, elements: list[etree.Element | None], alignment: Alignment) -> None:
        """The file line of each block both parsers read alike."""
        for el, line, start in zip(elements, alignment.lines, alignment.starts, strict=True):
            if el is not None and start and line:
                self.block_lines[el] = line + self.first_line()
            elif el is not None and line:      # where the readings part: it is not before
                self.block_floors[el] = line + self.first_line()

    def _warn(self, line: int, message: str) -> None:
        warn(LOGGER, self.path, line + self.first_line() if line else 0, message)

    def _classify(self, el: etree.Element) -> str | None:
        """A paragraph that is only a stashed block (a fence, raw HTML) is that block;
        definition lists and `///` lines are left out, as on cmark-gfm's side."""
        if el.tag == "dl" or (el.tag == "p" and (el.text or "").lstrip().startswith("///")):
            return "skip"             # ours (a `///` line not understood is BoxHeaderCheck's)
        if el.tag == "p" and len(el) and all(is_footnote_link(c) for c in el) and not \
                key(self.plain("".join([el.text or "", *(c.tail or "" for c in el)]))):
            return "skip"             # a note's back link, in a paragraph of its own after code
        if el.tag != "p" or len(el) or not (m := _BLOCK_PLACEHOLDER.fullmatch(
                (el.text or "").strip())):
            return None
        n = int(m.group(1))
        stashed = str(self.md.htmlStash.rawHtmlBlocks[n])
        if _ENTITIES_ONLY.fullmatch(stashed):
            return None     # `&nbsp;` alone (a spacer of CSDN's, Yuque's): a paragraph on GitHub
        unwraps = self.md.postprocessors["raw_html"]     # Markdown's own test of the tag
        if "\n" in stashed.strip() and isinstance(unwraps, RawHtmlPostprocessor) and \
                not unwraps.isblocklevel(stashed.strip()):
            # an inline tag alone, over lines (`<img alt="…` going on to the next line): the
            # page keeps it in its paragraph, and GitHub reads a paragraph (a block of raw
            # HTML there needs its tag whole on its first line)
            return None
        return "pre" if "<pre" in stashed and n not in self.raw_html.entries else "html"

    def is_fence(self, n: int) -> bool:
        """Whether entry n of Markdown's stash holds a code block (not raw HTML)."""
        stashed = self.md.htmlStash.rawHtmlBlocks[n]
        return isinstance(stashed, str) and stashed.lstrip().startswith("<pre") and \
            n not in self.raw_html.entries

    def _fences_inside(self, el: etree.Element) -> int:
        """The fences stashed inside the raw HTML block `el` stands for (a traceback in a
        `<details>` box, after a blank line): the page shows each as code, as GitHub does."""
        m = _BLOCK_PLACEHOLDER.fullmatch((el.text or "").strip())
        stashed = self.md.htmlStash.rawHtmlBlocks[int(m.group(1))] if m else ""
        if not isinstance(stashed, str):
            return 0
        return sum(self.is_fence(int(n.group(1))) for n in _BLOCK_PLACEHOLDER.finditer(stashed))

    def _fences_in(self, text: str) -> list[tuple[str, str]]:
        """A tight list item's text cut at the fences stashed in it (a fence right under the
        item's line, `1. step` then an indented fence: cmark-gfm reads the item's paragraph,
        then the code, and so does the page): ("text", …) and ("pre", placeholder)."""
        out: list[tuple[str, str]] = []
        at = 0
        for m in _BLOCK_PLACEHOLDER.finditer(text):
            if self.is_fence(int(m.group(1))):
                out += [("text", text[at:m.start()]), ("pre", m.group(0))]
                at = m.end()
        return [*out, ("text", text[at:])]

    def plain(self, text: str) -> str:
        """Our tree's text with Markdown's placeholders resolved (escapes, entities, smart
        quotes: their characters; inline raw HTML: its text). Entities and inline HTML are
        in Markdown's stash under its block placeholder, smart quotes under the inline one."""
        def stashed(m: re.Match[str]) -> str:
            item = self.md.htmlStash.rawHtmlBlocks[int(m.group(1))]
            if not isinstance(item, str):
                return "".join(item.itertext())
            return html_text(item) if "<" in item else unescape(item)
        text = _INLINE_PLACEHOLDER.sub(stashed, text.replace(NBSP_PLACEHOLDER, "")
                                       .replace(FN_BACKLINK_TEXT, ""))
        text = _BLOCK_PLACEHOLDER.sub(stashed, text)
        if AMP_SUBSTITUTE in text:      # an e-mail autolink's address, written as entities
            text = unescape(text.replace(AMP_SUBSTITUTE, "&"))
        return _ESCAPED.sub(lambda m: chr(int(m.group(1))), text)

    def _headings(self, blocks: list[Block], elements: list[etree.Element | None],
                  alignment: Alignment, source: list[str], levels: bool = True) -> None:
        """The checks of the headings of `blocks` (the text's, or one note's: `elements`
        theirs, `alignment` their match to cmark-gfm's reading): a level-1 heading, one
        without an id, a `[[anchor]]` left beside an id; with `levels`, a level skipped."""
        previous, after, first = 1, 1, levels
        found: list[ContentError] = []    # every heading's mistake, each at its line, at once
        for block, el, matched, exact in zip(blocks, elements, alignment.lines,
                                             alignment.exact, strict=True):
            if exact and matched:
                after = matched
            opens, first = first and el is not None, first and el is None
            if el is None or block.kind not in _HEADINGS:
                continue
            level, text = int(block.kind[1]), self.plain("".join(el.itertext())).strip()
            # where cmark-gfm reads no heading, the line that holds the heading's text
            line = matched if exact else _atx_line(self.searched, after, text) or \
                _line_from(self.searched, after, text) or matched
            at = line + self.first_line() if line else 0
            self.heading_lines[el] = at
            written = source[line - 1] if 0 < line <= len(source) else ""
            # for a message: as the reader sees it (code in `…`, formulas as written, no {#id})
            typed = self._shown(_HEADING_ID.sub("", self.plain(as_typed(el))).strip())
            ident = _HEADING_ID.search(text)
            problem = (seven_hashes(written, previous + 1) if level == 6 else
                       hashtag_heading(written) if level == 1 else None) or ""
            problem = problem or other_tools_heading(
                written, source[line - 2] if 1 < line <= len(source) else "",
                source[line] if 0 < line < len(source) else "")
            setext = setext_hint(written, source[line] if 0 < line < len(source) else "")
            if not problem and level == 1 and opens:
                # the post's own title over its text (a Hugging Face blog post, a Jekyll
                # post, a README): the page shows the front matter's title there already
                problem = (f"heading '{typed}' at the article's start is a title: the page "
                           "shows the front matter's 'title:' as its only level-1 heading, "
                           "above the text; remove this line (and put its words in 'title:' "
                           f"if they differ){setext}")
            below = source[line] if 0 < line < len(source) else ""
            if not problem and not ident and setext and written.lstrip().startswith(">") and \
                    not below.lstrip().startswith(">"):
                # `> A quote line.` over `---`: a quote, then a rule, on GitHub
                problem = (f"the line '{below.strip()}' right under the quote's line "
                           f"'{written.strip()}' makes that line a heading here (GitHub reads "
                           "the quote, then a horizontal rule): put a blank line before the "
                           f"'{below.strip()}'")
            outline = None
            if not problem and (level == 1 or not ident):
                # a level-1 heading is told its level, its id and its anchor at once
                problem = without_id(typed, level, setext) if not ident else \
                    level_one(typed, m.group(1) if (m := _ID_IN.search(ident.group(0))) else
                              None) + setext
                if not ident and levels:     # the text's, not a note's: its place is known
                    outline = self._outline(blocks, elements, el, typed, level, setext)
            if problem:
                found.append(ContentError(problem, re.compile(r"^[ \t>]*#{1,6}[ \t]+" +
                                                              re.escape(text[:40]), re.M),
                                          line=at, outline=outline))
            anchor = _BRACKET_ANCHOR.fullmatch(_HEADING_ID.sub("", typed).strip())
            if anchor and anchor.group(1).strip():       # `## Title[[anchor]] {#id}`
                self._warn(line, f"heading '{self._shown(typed)}' ends with "
                                 f"'[[{anchor.group(2)}]]', the Hugging Face course's anchor "
                                 "syntax, which the page (and GitHub) shows as text; remove "
                                 "it: the heading's id is the one in its {#…}")
            if levels and level > previous + 1:
                self._warn(line, f"heading level jumps from {previous} to {level} "
                                 f"('{typed}'), skipping a level readers of "
                                 "the contents and screen readers rely on; make it "
                                 f"'{'#' * (previous + 1)} …'")
            previous = level
        if found:
            raise ContentError.with_more(found)

    def _outline(self, blocks: list[Block], elements: list[etree.Element | None],
                 heading: etree.Element, typed: str, level: int, why: str) -> Outline:
        """The place of `heading` (without an id) among the headings of `blocks` (the text's,
        `elements` theirs) and their ids, for the message naming another language's id."""
        found = [el for block, el in zip(blocks, elements, strict=True)
                 if el is not None and block.kind in _HEADINGS]
        ids = tuple(m.group(1) if (written := _HEADING_ID.search(
            self.plain("".join(el.itertext())).strip())) and (m := _ID_IN.search(
                written.group(0))) else None for el in found)
        return Outline(found.index(heading), ids, typed, level, why)

    def _tables(self, tree: etree.Element, lines: list[str]) -> None:
        """Rows with more cells than their header, or fewer (an empty cell the author did not
        write); lines of pipes without a `|---|` row."""
        for table in tree.iter("table"):
            header = len(list(table.iter("th")))
            for row in table.iter("tr"):
                line, text = _source_of(row, lines)
                cells = _cells(text) if line else 0
                if line and (escaped := _ESCAPED_PIPE_IN_CODE.search(text)):
                    # not "drop the backslash": a bare '|' in code ends the cell on GitHub
                    self._warn(line, "a '\\|' inside `code` in a table cell: GitHub shows '|', "
                                     "this Markdown the backslash too; write the code as HTML, "
                                     f"'{_code_as_html(escaped.group(0))}', which both show "
                                     "with its '|' (a bare '|' in `code` ends the cell on "
                                     "GitHub)")
                if line and any("\\|" in self.readable(m.group(0))
                                for m in ANY_MATH_RE.finditer(text)):
                    self._warn(line, "a '\\|' inside math in a table cell: GitHub's table "
                                     "reads it as an escaped pipe and shows '|' (absolute "
                                     "value), this page TeX's '\\|' (a double bar); write "
                                     "'\\vert' for | or '\\Vert' for \u2016 (both read the "
                                     "same everywhere)")
                if cells > header:
                    self._warn(line, f"this table row has {cells} cells, its header {header}; "
                                     "the extra cells are dropped (on GitHub too): add header "
                                     "cells, or write a '|' that belongs to the text as '\\|'")
                # a line with no '|' is no row the author wrote but a line GitHub's table
                # took in (a caption right under it, a sentence): told where it is read
                # (nor one whose '|' in `code` GitHub takes for a cell's end, giving it its
                # header's cells: told above as a row the two split differently)
                elif 0 < cells < header and "|" in text.replace("\\|", "") and \
                        _cells(text, github=True) < header:
                    self._warn(line, f"this table row has {cells} "
                                     f"cell{'' if cells == 1 else 's'}, its header {header}; "
                                     f"the page (and GitHub) shows {header - cells} empty "
                                     "cell" + ("" if header - cells == 1 else "s") + " at its "
                                     "end: add the missing cells, or write an empty one as "
                                     "'| |' where a cell is meant to be empty")
                elif line and "|" not in text.replace("\\|", "") and \
                        not _CAPTION_UNDER.match(text) and not _OWN_LINE_UNDER.match(text):
                    self._warn(line, "this line right under a table, with no blank line "
                                     "between, has no '|', but is read as one more row of "
                                     "the table (here and on GitHub), its words in the first "
                                     "cell; if it is a sentence of its own, put a blank line "
                                     "above it")
        for p in tree.iter("p"):
            first, pos = sourcepos_line(p), p.get("data-sourcepos", "")
            own = lines[first - 1:int(pos.split("-", 1)[1].split(":", 1)[0])] if first else []
            if len(own) > 1 and all(re.fullmatch(r"[ \t>]*\|.*\|[ \t]*", x) for x in own):
                header, under = _cells(own[0].lstrip(" \t>")), own[1].lstrip(" \t>")
                if _DELIMITER_ROW.fullmatch(under) and _cells(under) != header:
                    self._warn(first + 1, f"the line under this table's header row has "
                                          f"{_cells(under)} cells, the header {header}, so "
                                          "no table is made: they are published as a "
                                          "paragraph of pipes; write one '---' per header "
                                          f"cell, '|{'---|' * header}'")
                    continue
                self._warn(first, "these lines look like a table, but a table needs a line "
                                  "like '|---|---|' right under its header row; without it "
                                  "they are published as a paragraph of pipes")

    def _fence_options(self, tree: etree.Element, lines: list[str]) -> None:
        """Options after a fence's language (`title="…"`, `linenums="1"`, `hl_lines="2"`)
        are dropped (superfences' relaxed headers); a warning at the fence's line."""
        for pre in tree.iter("pre"):
            line, fence = _source_of(pre, lines)
            m = _FENCE_INFO.match(fence)
            options = m.group("options").strip() if m else ""
            # a MyST directive's argument or a Quarto chunk's options are no fence options:
            # the lexer names the directive or chunk, and what to write.
            # `{2}` as written: the pattern leaves a `{.python …}`'s brace out
            if options and not directive_or_chunk(fence.lstrip(" \t>`~")):
                self._warn(line, fence_options(options + "}" * (options.count("{") -
                                                                options.count("}"))))
            if not line or not fence.lstrip(" \t>").startswith(("```", "~~~")):
                continue
            # mdBook's directive as the code (the Rust book's listings): its preprocessor
            # pastes a file's lines there, this page (and GitHub) shows the directive
            for k, code in enumerate("".join(pre.itertext()).split("\n")):
                if book := _MDBOOK_CODE.match(code):
                    self._warn(line + 1 + k, f"'{{{{#{book[1]} …}}}}' in code is mdBook's "
                               "directive (the Rust book's), which this page does not run: "
                               "it shows the directive itself as the code, as GitHub does; "
                               "write the lines it names in its place")
                elif _SNIPPET_CODE.match(code):
                    self._warn(line + 1 + k, "'--8<--' in code is a line of pymdown's "
                               "Snippets (MkDocs', OI-wiki's listings), which this page does "
                               "not run: it shows the line itself as the code, as GitHub "
                               "does; write the lines of the file it names in its place")

    def _references(self, root: etree.Element) -> None:
        """`[text][ref]` without a `[ref]: address` line is published as typed. Only
        Markdown's text is read: a fence or a block of raw HTML stashed in it is neither
        (`x["train"]["s1"]` in code is no reference)."""
        def left_out(m: re.Match[str]) -> str:
            n = int(m.group(1))
            if not self.is_fence(n) and n not in self.raw_html.entries:
                return m.group(0)
            # its line breaks kept, so a line counted past it stays where it was
            return _STASHED + "\n" * str(self.md.htmlStash.rawHtmlBlocks[n]).count("\n")

        def prose(text: str) -> str:
            return self.plain(_BLOCK_PLACEHOLDER.sub(left_out, text))
        for el in root.iter():
            slots = ["tail"] if el.tag in ("code", "pre") else ["text", "tail"]
            for slot in slots:
                text = prose((el.text if slot == "text" else el.tail) or "")
                for m in _UNDEFINED_REFERENCE.finditer(text):
                    if text[m.start() - 1:m.start()] == "[" and text[m.end():m.end() + 1] == "]":
                        continue     # an org-mode link `[[address][text]]`: md_foreign's
                    if _INDEXED.match(text[m.start() - 1:m.start()]):
                        continue     # an index in the text, `dp[i][j]`: shown as typed, as meant
                    label = m.group(2) or m.group(1)
                    line = self.positions.at(el, slot, 0)
                    after = self.positions.floor(el) or 1    # where it cannot be before
                    line = line + text.count("\n", 0, m.start()) if line else \
                        line_of(self.searchable(), m.group(0), start=after) or \
                        line_of(self.searchable(), m.group(0))
                    warn(LOGGER, self.path, line, f"'{m.group(0)}' is a reference link, but "
                         f"no line '[{label}]: address' defines '{label}', so it is published "
                         f"as typed; add that line, or write the link as [{m.group(1)}](address)"
                         " (text that is not a link, such as A[i][j], goes in `code`)")


    def _link_warnings(self, tree: etree.Element, root: etree.Element, lines: list[str]
                       ) -> _LineWarnings:
        """Links the two parsers make differently, each a warning at its line: GitHub links
        a bare `https://…`, `www.…` or e-mail address (GFM's extended autolinks) and
        `<scheme:…>` of any scheme, this Markdown only `<http(s)://…>`, `<ftp://…>` and
        `<address@…>`; it takes `<https://a b>` (a space inside) for a link, GitHub for
        text; and it keeps a title in parentheses, `[t](https://… (title))`, in the address.
        The two readings' links are paired by place (their texts aligned as `diff` aligns
        lines, then by line), never by count, so a link one reading lacks is named at its own
        line. Links to this page (`#…`, footnote references among them) are left out."""
        parents = {child: parent for parent in tree.iter() for child in parent}
        theirs: list[_Link] = []
        seen: dict[tuple[int, str], int] = {}    # GitHub's links of each text in a block
        marked: dict[tuple[int, str], int] = {}    # … and of each text as Markdown (`_markup`)
        for a in tree.iter("a"):
            href = _same_address(a.get("href", ""))
            if href.startswith("#") or not href:
                continue
            block: etree.Element | None = a
            while block is not None and not sourcepos_line(block):
                block = parents.get(block)
            start = sourcepos_line(block) if block is not None else 1
            end = sourcepos_end(block) if block is not None else 0
            text = "".join(a.itertext())
            nth = seen[start, text] = seen.get((start, text), -1) + 1
            markup = _markup(a)
            kth = marked[start, markup] = marked.get((start, markup), -1) + 1
            theirs.append(_Link(href, text, a.get("title", ""), _line_from(
                self.searched, start, text, nth, end, (markup, kth)) or start, markup))
        ours: list[_Link] = []
        for a in root.iter("a"):
            href = _same_address(self.plain(a.get("href", "")))
            if not href or (href.startswith("#") and " " not in href):
                continue     # a '#…' with a space: text on GitHub, no id here (`spaced`)
            text = self.plain("".join(a.itertext()))
            line = self.positions.line(a)
            line = line - self.first_line() if line else \
                _line_from(self.searched, max(self.positions.floor(a) - self.first_line(), 1),
                           text)
            ours.append(_Link(href, text, self.plain(a.get("title", "")), line))
        # the text GitHub linked past CJK punctuation, where this page ends an address and
        # may start another (md_autolink): a link made inside it is no difference to report
        swallowed = [x.text for x in theirs if address_as_meant(x.text) != x.text]
        said: _LineWarnings = []
        for mine, github in _paired(ours, theirs):
            if mine and mine.text and any(mine.text in t for t in swallowed) and \
                    (github is None or github.text in swallowed):
                continue
            if any(x and _foreign_link(x, self.searched) for x in (mine, github)):
                continue     # another tool's link, told as such (md_foreign)
            if any(x and refused_scheme(x.href) for x in (mine, github)):
                continue     # `javascript:void(0)`: the site's check stops the build there
            if github and not mine and github.href in self.told_pictures:
                continue     # a picture's address GitHub shows as typed: told there
            if mine and github and mine.href != github.href:
                said.append((mine.line or github.line, self._other_address(mine, github)))
            elif github and not mine and github.line in self.raw_warned:
                continue     # in raw HTML the page keeps as typed, already warned as such
            elif github and not mine and github.line in self.raw_kept:
                # Markdown after a blank line in a <div> (a README's badges): written as
                # Markdown already, so '[text](address)' is no advice
                said.append((github.line, f"GitHub makes '{self._shown(github.text)}' a link "
                                          f"(to {shortened(github.href)}), this Markdown does "
                                          "not: the line is inside an HTML block this Markdown "
                                          "keeps as typed (Markdown inside it is not read; "
                                          "GitHub reads it after a blank line): write the "
                                          "Markdown outside the HTML block, or the link in "
                                          "HTML, <a href=\"…\">…</a>"))
            elif github and not mine and (path := _PATH_NAME.match(github.href)):
                # a path of Rust or C++ in angle brackets (`<std::vec::Vec<u8>>`)
                said.append((github.line, f"GitHub makes '{self._shown(github.text)}' a link "
                                          "(CommonMark's autolink takes "
                                          f"'{path.group(1)}:' for an address's scheme), this "
                                          "Markdown does not: the page shows it as text; a "
                                          "name with '::' (a path of Rust or C++) is no "
                                          "address: write its '<' as '\\<', which both show "
                                          "as typed, or put it in `code`"))
            elif github and not mine:
                said.append((github.line, f"GitHub makes '{self._shown(github.text)}' a link "
                                          f"(to {shortened(github.href)}), this Markdown does "
                                          "not: the page shows it as text; "
                                          f"{self._write(github)}"))
            elif mine and not github and _on_this_site(mine.href) and " " in mine.href:
                # a file of this site, or none: the site's check knows which, and says it
                self.spaced[mine.href] = self._write(mine)
                said.append((mine.line, ""))
            elif mine and not github:
                source = lines[mine.line - 1] if 0 < mine.line <= len(lines) else ""
                why = ("an address in <…> has no spaces, and its scheme is followed by ':': "
                       "write the address without spaces, or its '<' as '&lt;' if it is text"
                       if "<" in source else
                       f"if it should be a link on both, {self._write(mine)}")
                said.append((mine.line, f"this Markdown makes '{self._shown(mine.text)}' a "
                                        f"link (to {shortened(mine.href)}) and GitHub does "
                                        f"not: the page shows a link, GitHub text; {why}"))
        return said

    def _shown(self, text: str, most: int = 60) -> str:
        """`text` as the author wrote it (formulas back), shortened to `most` characters."""
        return shortened(" ".join(self.readable(text).split()), most)

    def _other_address(self, mine: _Link, github: _Link) -> str:
        """The warning for a link both make, to different addresses."""
        said = (f"the page links '{self._shown(mine.text)}' to '{shortened(mine.href, 80)}', "
                f"GitHub to '{shortened(github.href, 80)}'" +
                (f" (with the title '{github.title[:60]}')" if github.title else ""))
        rest = mine.href[len(github.href):]
        if github.title and mine.href.startswith(github.href) and rest.strip() in (
                f"({github.title})", f"'{github.title}'", f'"{github.title}"'):
            return (f"{said}: this Markdown takes a title in parentheses for part of the "
                    f"address; put the title in double quotes, {self._write(github)}")
        if " " in mine.href and mine.text == mine.href:       # `<https://a b>`
            spaced = mine.href.replace(" ", "%20").replace("$", "\\$")
            return (f"{said}: GitHub ends an address at a space; write each space as "
                    f"%20, <{spaced}>")
        if " " in mine.href and github.href.startswith(mine.href.split(" ")[0]):
            return f"{said}: GitHub ends an address at a space; {self._write(mine)}"
        return f"{said}; {self._write(github)}"

    def _write(self, link: _Link) -> str:
        """'write [text](address)' for `link`, when that text is accepted by the build and
        read as this link by both parsers; else a hint without a text to copy."""
        # `\$` is a dollar sign here; GitHub keeps the backslash of one in `<…>`
        link = link._replace(href=link.href.replace("\\$", "$"),
                             text=link.text.replace("\\$", "$"),
                             title=link.title.replace("\\$", "$"))
        written = _written(link)
        kept = _written(link, link.markup) if link.markup else written
        if kept != written and _reads_as(kept, link, code=True):
            return f"write {kept}"
        if _reads_as(written, link):
            return f"write {written}"
        return ("write it as [text](address), with each '$' written '\\$' and the address "
                "without spaces")


_LineWarnings = list[tuple[int, str]]


# an address as another tool's link syntax leaves it in an autolink: Slack's
# `<https://…|text>`, org-mode's `[[https://…][text]]`, AsciiDoc's `https://…[text]`
_FOREIGN_IN_ADDRESS = re.compile(r"\|(?=\S)|\]\[|(?<![/\[\\])\[[^\[\]\\]*\]?$")


def _foreign_link(link: _Link, lines: _Lines) -> bool:
    """Whether `link` (an address linked by either reading) is part of another tool's link
    syntax, which md_foreign tells as such (a difference of the two readings there is no
    advice to follow): the forms of `_FOREIGN_IN_ADDRESS`, or MediaWiki's `[https://… text]`
    on its line."""
    return bool(_FOREIGN_IN_ADDRESS.search(link.href)) or \
        lines.wiki_link(link.line, link.text)


def _on_this_site(href: str) -> bool:
    """Whether `href` (decoded) names a file of this site: no scheme, no host."""
    parts = urlsplit(href)
    return not (parts.scheme or parts.netloc or href.startswith("//"))


class _Link(NamedTuple):
    """One link of one reading: its address (`_same_address`), its text, its title and its
    line in the converted text (1-based; 0: not known)."""

    href: str
    text: str
    title: str
    line: int
    markup: str = ""     # the text as Markdown, its code and emphasis kept (GitHub's links)


def _raw_runs_warned(raw: frozenset[int], warned: dict[int, str]) -> frozenset[int]:
    """The lines (1-based) of each run of raw HTML lines this Markdown keeps as typed
    (`raw`: `raw_html.markdown_raw_lines` of the source) where a difference of the readings
    was warned (at `warned`'s lines): a link GitHub makes there is part of that warning."""
    out: set[int] = set()
    for line in sorted(raw):
        if line - 1 in raw:
            continue
        run = set()
        n = line
        while n in raw:
            run.add(n)
            n += 1
        if any(w in run for w in warned):
            out |= run
    return frozenset(out)


def _paired(ours: list[_Link], theirs: list[_Link]) -> list[tuple[_Link | None, _Link | None]]:
    """The two readings' links side by side: first those of the same text on the same
    line (a link GitHub alone makes earlier, in raw HTML this Markdown keeps as typed, would
    shift an alignment by order onto the next link of its text); then the rest aligned by
    their texts' words (difflib), and where the texts differ, paired when they are on the
    same line; the rest alone. Of those of one text on one line, one to the same address
    first: '[`x`][]' (a link GitHub alone makes) before '[`x`](b)' (both make) was paired
    with ours to b, and told 'the page links x to b, GitHub to a'."""
    places: dict[tuple[str, int], deque[int]] = {}
    same: dict[tuple[str, int, str], deque[int]] = {}
    for j, github in enumerate(theirs):
        if github.line:
            places.setdefault((key(github.text), github.line), deque()).append(j)
            same.setdefault((key(github.text), github.line, github.href), deque()).append(j)
    taken: set[int] = set()

    def first(found: deque[int] | None) -> int | None:
        while found and found[0] in taken:
            found.popleft()
        return found.popleft() if found else None
    pairs: list[tuple[_Link | None, _Link | None]] = []
    later: list[_Link] = []
    for mine in ours:       # the same text, line and address
        k = first(same.get((key(mine.text), mine.line, mine.href))) if mine.line else None
        if k is None:
            later.append(mine)
        else:
            taken.add(k)
            pairs.append((mine, theirs[k]))
    rest: list[_Link] = []
    for mine in later:      # the same text and line
        k = first(places.get((key(mine.text), mine.line))) if mine.line else None
        if k is None:
            rest.append(mine)
        else:
            taken.add(k)
            pairs.append((mine, theirs[k]))
    order = {id(mine): i for i, mine in enumerate(ours)}
    pairs.sort(key=lambda pair: order[id(pair[0])])     # in our order, as before
    return pairs + _aligned(rest, [x for j, x in enumerate(theirs) if j not in taken])


def _aligned(ours: list[_Link], theirs: list[_Link]) -> list[tuple[_Link | None, _Link | None]]:
    """`_paired`'s second step: aligned by texts' words, else by line, else alone."""
    matcher = SequenceMatcher(None, [key(x.text) for x in ours], [key(x.text) for x in theirs],
                              autojunk=False)
    pairs: list[tuple[_Link | None, _Link | None]] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            pairs += zip(ours[i1:i2], theirs[j1:j2], strict=True)
            continue
        left = list(theirs[j1:j2])
        for mine in ours[i1:i2]:
            github = next((x for x in left if mine.line and x.line == mine.line), None)
            if github is not None:
                left.remove(github)
            pairs.append((mine, github))
        pairs += [(None, github) for github in left]
    return pairs


def _written(link: _Link, markup: str = "") -> str:
    """`link` as Markdown both parsers read alike: '$' as '\\$', brackets in the text
    escaped, a space of the address as %20, the address in <…> when it holds a parenthesis,
    a title in double quotes. `markup`: the text as Markdown (`_markup`), in place of the
    link's text escaped."""
    text = markup or _escaped(link.text)
    # a space as %20, as an address is mostly written (both read it as a space)
    href = link.href.replace("$", "\\$").replace(" ", "%20")
    if re.search(r"[\s()<>]", href):
        href = "<" + href.replace("<", "%3C").replace(">", "%3E") + ">"
    title = ' "' + link.title.replace('"', '\\"').replace("$", "\\$") + '"' if link.title else ""
    return f"[{text}]({href}{title})"


def _escaped(text: str) -> str:
    """`text` with each mark Markdown reads in a link's text escaped."""
    return re.sub(r"([\[\]\\$`*_])", r"\\\1", text)


def _markup(el: etree.Element) -> str:
    """The text of cmark-gfm's element `el` as Markdown: its code spans in backticks (more
    than any run inside), its emphasis in '*' and '**', the rest escaped (`_escaped`); ''
    when it holds anything else (a picture, a line break, HTML)."""
    parts = [_escaped(el.text or "")]
    for child in el:
        if child.tag == "code" and not len(child):
            code = child.text or ""
            fence = "`" * (max(map(len, re.findall("`+", code)), default=0) + 1)
            pad = " " if code.startswith("`") or code.endswith("`") else ""
            parts.append(f"{fence}{pad}{code}{pad}{fence}")
        elif child.tag in ("em", "strong"):
            inner = _markup(child)
            if not inner:
                return ""
            mark = "*" if child.tag == "em" else "**"
            parts.append(f"{mark}{inner}{mark}")
        else:
            return ""
        parts.append(_escaped(child.tail or ""))
    return "".join(parts)


def _reads_as(written: str, link: _Link, code: bool = False) -> bool:
    """Whether `written` passes the math scanner (no formula, no error) and both this
    Markdown and cmark-gfm read it as one link to `link.href` with `link.text` (`code`:
    code spans in it allowed, as `_markup` writes them)."""
    from markdown import markdown as convert

    from .lexer import mask
    try:
        masked = mask(Path("suggestion.md"), written)
    except BuildError:
        return False
    if masked.formulas or (masked.code and not code):
        return False
    ours = etree.fromstring(f"<r>{convert(written.replace(chr(92) + '$', '&#36;'))}</r>")  # noqa: S314
    theirs = cmark_tree(written)
    for tree in (ours, theirs):
        found = [(_same_address(a.get("href", "")), "".join(a.itertext()),
                  a.get("title", "")) for a in tree.iter("a")]
        if found != [(link.href, link.text, link.title)]:
            return False
    return True


def _same_address(href: str) -> str:
    """A link's address in a form both readings share: entities (this Markdown writes an
    e-mail address as entities) and %-escapes (cmark-gfm's) decoded, cut before CJK
    punctuation (where this page ends a bare address and GitHub does not: md_autolink)."""
    from urllib.parse import unquote
    return address_as_meant(unquote(unescape(href.replace(AMP_SUBSTITUTE, "&"))))


# a heading's hashes followed by a word with no space between (`#hashtag`), where GitHub
# reads a paragraph: the hashes and the word; also as a list item's first word (`- #tag`,
# Logseq's `- #[[open question]]`), which Python-Markdown reads as a heading inside the item
_HASH_WORD = re.compile(r"^(?:[ \t>]|[-*+][ \t]+|\d{1,9}[.)][ \t]+)*(#{1,6}[^\s#]\S*)")
# org-mode's keyword line, `#+TITLE: …`, `#+BEGIN_SRC python`, `#+END_SRC`
_ORG_KEYWORD = re.compile(r"#\+(?P<end>END_)?(?P<begin>BEGIN_)?(?P<name>[A-Za-z_]+)(?::|\b)",
                          re.I)
_ORG_FENCE = "a code fence, '```python' … '```'"
_ORG_BLOCKS = {"src": _ORG_FENCE, "example": _ORG_FENCE,
               "quote": "'> ' at the start of each quoted line",
               "equation": "the formula between two '$$' lines",
               "latex": "the formula between two '$$' lines",
               "export": "what it holds in Markdown, or nothing"}
_ORG_LINES = {"title": "the title in the front matter (title:), and remove the line",
              "caption": "the caption as a sentence of its own, and remove the line"}


def _org_keyword(word: str) -> str | None:
    """The message for org-mode's keyword line starting with `word` (`#+BEGIN_SRC`,
    `#+TITLE:`), or None for another word."""
    m = _ORG_KEYWORD.match(word)
    if m is None:
        return None
    name = m["name"].lower()
    if m["begin"] or m["end"]:
        instead = _ORG_BLOCKS.get(name, BOX_LINES)
        shown = f"#+BEGIN_{m['name']} … #+END_{m['name']}"
        return (f"'{shown}' is an org-mode block, whose lines this Markdown (Python-Markdown) "
                "reads as level-1 headings (GitHub as text); write " + instead +
                ", without its '#+' lines")
    instead = _ORG_LINES.get(name, "nothing: remove the line (the title and description go "
                                   "in the front matter)")
    return (f"'#+{m['name']}' is an org-mode keyword line, which this Markdown "
            f"(Python-Markdown) reads as a level-1 heading (GitHub as text); write {instead}")


def as_typed(el: etree.Element) -> str:
    """An element's words as the author typed them, for a message: its code in backticks
    (`itertext` drops them: "the `x` axis" read "the x axis")."""
    parts = [el.text or ""]
    for child in el:
        parts += [f"`{as_typed(child)}`" if child.tag == "code" else as_typed(child),
                  child.tail or ""]
    return "".join(parts)


# Pandoc's unnumbered heading, `## References {-}`
# a heading's id whose '}' was lost, `## Title {#title`: attr_list leaves it in the words
_UNCLOSED_ID = re.compile(r"(.*?\S)[ \t]+\{:?[ \t]*#([\w-]+)[^{}]*")
# an id whose brace or hash a Chinese input method typed full-width (`## \u6807\u9898 \uff5b#id}`)
_WIDE_ID = re.compile(r"(.*?\S)[ \t]*(?=[^ \t]*[\uff5b\uff5d\uff03])([{\uff5b]:?[ \t]*[#\uff03]"
                      r"([\w-]+)[ \t]*[}\uff5d])[ \t]*")
_UNNUMBERED = re.compile(r"(.*?)[ \t]*\{-\}[ \t]*", re.S)
# the Hugging Face course's heading anchor, `## Title[[anchor]]` (its doc-builder's syntax)
_BRACKET_ANCHOR = re.compile(r"(.*?)[ \t]*\[\[([^\[\]\s]+)\]\][ \t]*", re.S)


# what a fence option asks for, by its name (pymdown's, MkDocs Material's, Docusaurus' and
# Sphinx's spellings), which the page does not show
_FENCE_OPTION_KINDS = {
    "title": "title bar", "filename": "title bar",
    "linenums": "line numbers", "linenostart": "line numbers", "lineno": "line numbers",
    "linenos": "line numbers", "showlinenumbers": "line numbers", "line-numbers": "line numbers",
    "hl_lines": "marked lines", "highlight": "marked lines", "emphasize-lines": "marked lines",
    "mark": "marked lines",
}
_FENCE_OPTION = re.compile(
    r"""([\w.-]+)(?:[ \t]*=[ \t]*(?:"[^"]*"|'[^']*'|\S+))?|\{[^}]*\}?|\S+""")
_OUT = "'out' marks a program's output in the Hugging Face course, which this Markdown does not"


def fence_options(options: str) -> str:
    """The warning for a code fence's `options` after its language, which the page drops:
    it names only what they would have shown (a title bar, line numbers, marked lines; the
    Hugging Face course's `out`, a program's output)."""
    found = list(_FENCE_OPTION.finditer(options))
    kinds: list[str] = []
    for m in found:
        # HackMD's line numbers `python=`, `python=12`, `python=+`; reveal.js' steps of
        # marked lines `[1|2-3]`
        kind = (_FENCE_OPTION_KINDS.get((m.group(1) or "").lower()) or
                ("marked lines" if re.fullmatch(r"\{[\d,\s-]*\}?|\[[\d|,\s-]*\]?",
                                                m.group(0)) else
                 "line numbers" if re.fullmatch(r"=\d*\+?", m.group(0)) else
                 _OUT if m.group(0) == "out" else ""))
        if kind and kind not in kinds:
            kinds.append(kind)
    shown = [k for k in kinds if k != _OUT]
    listed = " or ".join(shown) if len(shown) < 3 else f"{', '.join(shown[:-1])} or {shown[-1]}"
    plural, it, are = ("s", "them", "are") if len(found) > 1 else ("", "it", "is")
    why = ([f"no {listed}"] if shown else []) + ([_OUT] if _OUT in kinds else []) or \
        [f"this Markdown does not know {it}"]
    what = (f"code fence option{plural} '{shortened(options, 40)}' {are} not supported here "
            f"({'; '.join(why)}): the code is shown without {it}; remove {it}")
    if "title bar" in kinds:
        what += ", and name the file in the sentence before the code if it matters"
    if _OUT in kinds:
        what += ", and say in the sentence before the code that it is what the program prints"
    return what


# a stashed paragraph of nothing but character references: `&nbsp;`, `&emsp;&emsp;`, `&#160;`
_ENTITIES_ONLY = re.compile(r"(?:&(?:[A-Za-z][A-Za-z0-9]*|#[0-9]+|#[xX][0-9A-Fa-f]+);|\s)+")
# a heading's id in its `{…}` (`{#id}`, `{: #id .class}`)
_ID_IN = re.compile(r"#([^\s=}]+)")    # as attr_list reads it: `{#sec:intro}`, `{#fig.1}`
# a `{…}` attribute list as a heading's whole text (`## {#x}`: attr_list needs words before it)
_ATTR_LIST = re.compile(r"\{[^{}\n]*\}")   # (no "{" inside: one scan per "{", linear)
# a line of seven or more '#' and its words (GitHub: a paragraph; Python-Markdown: level 6)
_SEVEN = re.compile(r"[ \t>]*(#{7,})(?:[ \t]+(.*?))?[ \t]*")
_LEVEL_ONE = ("a level-1 heading (the page's title, from the front matter, is its only "
              "level-1 heading: start sections at level 2, '## …')")


def without_id(typed: str, level: int, why: str = "",
               shared: tuple[str, str] | None = None) -> str:
    """The message for heading `typed` (its text as written) of `level`, which has no `{#id}`;
    an anchor written as the Hugging Face course does, `Title[[anchor]]`, is named, with the
    heading to write. A level-1 heading is told to become level 2 in the same message (the
    level's error came first, and the id's only on the next build). `why`: what makes the
    line a heading where the author may not see it (`setext_hint`), said after that.
    `shared`: (the id, the heading that has it: "the zh article's heading here (path:line)")
    where another language's article gives the heading at this place an id, which the
    heading to write then has (ids are shared by the languages)."""
    hashes = "#" * max(level, 2)
    one = (f" and is {_LEVEL_ONE}" if level == 1 else "") + why
    same = (f": {shared[1]} has {{#{shared[0]}}}, and a section has the same id in every "
            "language") if shared else ", with the same id in every language"
    if not visible(_ATTR_LIST.sub("", typed)):     # `##`, `## {#x}`: no words to link
        ident = shared[0] if shared else (m.group(1) if (m := _ID_IN.search(typed)) else
                                          "some-id")
        codes = ", ".join(dict.fromkeys(f"U+{ord(c):04X}" for c in typed if not c.isspace()))
        only = ("" if not typed.strip() else f" (only invisible characters, {codes})"
                if not visible(typed) else f" (only '{typed}', which this Markdown shows as text)")
        return (f"heading '{hashes}' has no words{only}{why}: a heading names its section in the "
                "contents and in links to it; write its words and an id, "
                f"'{hashes} Its words {{#{ident}}}'{same}, or delete the line if no section "
                "starts here")
    m = _BRACKET_ANCHOR.fullmatch(typed)
    if m and m.group(1).strip():
        anchor = shared[0] if shared else \
            re.sub(r"[^\w-]+", "-", m.group(2)).strip("-") or "some-id"
        return (f"heading '{typed}' has no explicit id{one}: '[[{m.group(2)}]]' is the Hugging "
                "Face course's anchor syntax, which this Markdown (and GitHub) shows as text; "
                f"write '{hashes} {m.group(1).strip()} {{#{anchor}}}'{same}")
    ident = shared[0] if shared else "some-id"
    written = typed
    if m := _WIDE_ID.fullmatch(typed):
        written, ident = m.group(1), shared[0] if shared else m.group(3)
        one += (f" (its '{m.group(2)}' has a full-width brace or hash, typed by a Chinese "
                "input method, so it is shown as words)")
    elif m := _UNCLOSED_ID.fullmatch(typed):
        written, ident = m.group(1), shared[0] if shared else m.group(2)
        one += f" (its '{{#{m.group(2)}' has no closing '}}', so it is shown as words)"
    elif m := _UNNUMBERED.fullmatch(typed):      # Pandoc's `{-}`, which attr_list leaves as text
        written = m.group(1)
        one += (" ('{-}' is Pandoc's mark of an unnumbered heading, which this Markdown shows "
                "as text: no heading here is numbered)")
    return f"heading '{typed}' has no explicit id{one}; write it as '{hashes} {written} " \
        f"{{#{ident}}}'{same}"


_SETEXT_UNDERLINE = re.compile(r"[ \t>]*(=+|-+)[ \t]*")
_ATX = re.compile(r"[ \t>]*#")


def seven_hashes(written: str, deeper: int) -> str | None:
    """The message for a heading line `written` that starts with seven or more '#' (None for
    another): GitHub reads it as a paragraph, this Markdown as a level-6 heading whose text
    starts with the rest of the hashes; `deeper`: the level one below the heading before."""
    m = _SEVEN.fullmatch(written)
    if not m:
        return None
    words = _HEADING_ID.sub("", m.group(2) or "").strip() or "Its words"
    ident = m2.group(1) if (m2 := _ID_IN.search(m.group(2) or "")) else "some-id"
    hashes = "#" * min(max(deeper, 2), 6)
    return (f"'{m.group(1)}' is {len(m.group(1))} '#', and headings have six levels at most: "
            "GitHub (CommonMark) reads the line as a paragraph, this Markdown as a level-6 "
            f"heading starting with '{m.group(1)[6:]}'; for a heading write at most six, e.g. "
            f"'{hashes} {words} {{#{ident}}}', for a paragraph start it with '\\#'")


def setext_hint(written: str, below: str) -> str:
    """For a heading whose line, `written`, has no '#' and whose next line, `below`, is a
    line of '-' or '=' (a setext heading, which an author may not know for one): why it is a
    heading, and what a blank line before that line makes of it; '' for another."""
    m = _SETEXT_UNDERLINE.fullmatch(below)
    if not written.strip() or _ATX.match(written) or not m:
        return ""
    under = m.group(1)[:3]
    rule = ("a blank line before the '---' makes that line a horizontal rule" if under[0] == "-"
            else "for the text and a line of '=' as text, put a blank line between them")
    return (f" (the line '{under}' under it makes it a heading: a line of '---' or '===' right "
            f"under a line of text underlines that text as a heading; {rule})")


def level_one(typed: str, ident: str | None) -> str:
    """The message for level-1 heading `typed` (as written, without its `{…}`), whose `{…}`
    gives the id `ident` (None: no id found in it): the heading to write at level 2, without
    the Hugging Face course's `[[anchor]]` where one is left beside the id (its warning came
    only once the level was fixed). Also for a note's heading (md_collect)."""
    m = _BRACKET_ANCHOR.fullmatch(typed)
    title = m.group(1).strip() if m and m.group(1).strip() else typed
    anchor = (f"; '[[{m.group(2)}]]' is the Hugging Face course's anchor syntax, which the page "
              "(and GitHub) shows as text: remove it" if title != typed and m else "")
    written = f"## {title} {{#{ident or 'some-id'}}}"
    return f"heading '{typed}' is {_LEVEL_ONE}{anchor}; write '{written}'"


_LIST_HASH = re.compile(r"[ \t]*#[ \t]+\S")


# a line of YAML front matter, `key: value` (`theme: smartblue`, `date: 2023-01-01`)
_YAML_KEY = re.compile(r"[ \t]*[a-z_][a-z0-9_-]*:(?:[ \t]|$)")


def other_tools_heading(written: str, above: str, below: str) -> str:
    """The message for a heading line `written` (between the lines `above` and `below`) that
    is another tool's syntax, not a heading meant: HackMD's (CodiMD's) tags line, `######
    tags: `a` `b``, and a numbered list of Confluence (Jira) or Textile, `# item` lines one
    under another; '' for another heading."""
    if re.match(r"[ \t]*######[ \t]+tags[ \t]*:", written, re.I):
        return (f"'{shortened(written.strip(), 30)}' is HackMD's (CodiMD's) tags line, a "
                "level-6 heading here and on GitHub; remove it (the page shows no tags)")
    if re.fullmatch(r"[ \t]*---[ \t]*", above) and _YAML_KEY.match(written):
        # a pasted post's own front matter (Juejin's `theme: smartblue`, Hexo's, Jekyll's)
        # away from the article's top: its `key: value` lines over the closing '---' are a
        # heading here and on GitHub, the opening '---' a horizontal rule
        return (f"'{shortened(written.strip(), 30)}' is a line of a pasted post's own front "
                "matter (the '---' lines around 'key: value' lines, as Juejin's 'theme: "
                "smartblue' and Hexo's or Jekyll's posts start), a horizontal rule and a "
                "heading here and on GitHub; remove the block from '---' to '---' (the "
                "page's title and description are in the front matter at the top)")
    if _LIST_HASH.match(written) and (_LIST_HASH.match(above) or _LIST_HASH.match(below)):
        return (f"'{shortened(written.strip(), 30)}' and the '# ' line next to it are a "
                "numbered list in Confluence (Jira) and Textile, but level-1 headings here "
                "and on GitHub; write '1. ' at the start of each item's line")
    return ""


def hashtag_heading(written: str) -> str | None:
    """The message for a level-1 heading written as `#word` (no space after the '#', which
    GitHub reads as a paragraph: a hashtag), `written` being its line; None for another."""
    m = _HASH_WORD.match(written)
    if not m:
        return None
    if org := _org_keyword(m.group(1)):
        return org
    # at the margin, a section heading as kramdown and Typora take it (`#\u4e00\u3001\u6982\u8ff0`,
    # `#1. git \u7b80\u4ecb` in a Chinese note): the heading to write, besides the literal '#'
    title = written.strip().lstrip("#").strip()
    ident = "" if re.search(r"\{#[^}]*\}\s*$", title) else " {#some-id}"
    heading = (f"; for a section heading, write '## {shortened(title, 60)}{ident}' (a space "
               "after the '#'s; sections start at level 2)") if written.startswith("#") and \
        title else ""
    return (f"'{m.group(1)}…' starts a level-1 heading here: in this Markdown "
            "(Python-Markdown) a '#' at the start of a line begins a heading even when a word "
            "follows it without a space (GitHub reads it as text); for a literal #, write "
            f"'\\{m.group(1)}'{heading}")


def _atx_line(lines: _Lines, start: int, text: str) -> int:
    """The first line from `start` (1-based) that starts with a heading's hashes and then
    the start of `text` (`#hashtag is text.`, not `A #hashtag is text.` above it); 0 if
    none."""
    if not text.strip() or not 0 < start <= len(lines.lines):
        return 0
    head = re.compile(r"^[ \t>]*#{1,6}[ \t]*" + re.escape(text[:20].strip()), re.M)
    m = head.search(lines.text, lines.starts[max(start, 1) - 1])
    return lines.line_at(m.start()) if m else 0


_BRACKETED = re.compile(r"\[([^\[\]\n]*)\]")    # '[text]', no bracket inside: one scan
_WIKI_START = re.compile(r"\[([^\s\[\]]+)[ \t]")    # '[word ', no bracket inside: one scan


class _Lines:
    """The converted text's lines (`lines`, 1-based numbers), searched as one text (`text`,
    line n from `starts[n - 1]`) at the speed of `str.find`, with every '[text]' (no
    bracket inside) indexed once: a search for the k-th link of a text or for its words
    costs its own length and a bisection, not a scan of the lines before it."""

    def __init__(self, lines: list[str]):
        self.lines = lines
        self.text = "\n".join(lines)
        self.starts = [0]
        for line in lines:
            self.starts.append(self.starts[-1] + len(line) + 1)
        self._bracketed: dict[str, list[int]] | None = None
        self._wiki: dict[int, set[str]] | None = None

    def line_at(self, offset: int) -> int:
        """The line holding character `offset` of `text`."""
        return bisect_right(self.starts, offset)

    def bracketed(self, text: str, start: int, nth: int, end: int) -> int:
        """The line of the `nth` (from 0) '[text]' from line `start` to line `end` (below
        `start`: the last line); 0 if there are fewer."""
        last = end if end >= start else len(self.lines)
        if not 0 < start <= len(self.lines):
            return 0
        if "[" in text or "]" in text or "\n" in text:     # not indexed: each found in turn
            at, stop = self.starts[start - 1], self.starts[last] - 1
            for _ in range(nth + 1):
                found = self.text.find(f"[{text}]", at, stop) if "\n" not in text else -1
                if found < 0:
                    return 0
                at = found + len(text) + 2
            return self.line_at(found)
        if self._bracketed is None:
            self._bracketed = {}
            for m in _BRACKETED.finditer(self.text):
                self._bracketed.setdefault(m.group(1), []).append(self.line_at(m.start()))
        lines = self._bracketed.get(text, [])
        i = bisect_left(lines, start) + nth
        return lines[i] if i < len(lines) and lines[i] <= last else 0

    def wiki_link(self, line: int, text: str) -> bool:
        """Whether line `line` holds `text` as MediaWiki's link holds its address, '[' and
        then `text`, a space or tab and more words up to a ']' (`[https://… its text]`)."""
        if not 0 < line <= len(self.lines):
            return False
        if not text or re.search(r"[\s\[\]]", text):   # not indexed: its line searched
            return re.search(r"\[" + re.escape(text) + r"[ \t]+[^\]\n]+\]",
                             self.lines[line - 1]) is not None
        if self._wiki is None:
            self._wiki = {}
            closers = [m.start() for m in re.finditer(r"\]", self.text)]
            for m in _WIKI_START.finditer(self.text):
                at = self.line_at(m.start())
                space = m.end() - 1
                k = bisect_left(closers, space)
                # a ']' on the same line, with a character besides the space before it
                if k < len(closers) and space + 2 <= closers[k] < self.starts[at]:
                    self._wiki.setdefault(at, set()).add(m.group(1))
        return text in self._wiki.get(line, ())

    def holding(self, head: str, start: int, end: int = 0) -> int:
        """The first line from `start` to `end` (0: the last line) that holds `head` (one
        line's text); 0 if none."""
        if not head or "\n" in head or not 0 < start <= len(self.lines):
            return 0
        stop = self.starts[end] - 1 if start <= end <= len(self.lines) else len(self.text)
        found = self.text.find(head, self.starts[start - 1], stop)
        return self.line_at(found) if found >= 0 else 0


def _line_from(lines: _Lines, start: int, text: str, nth: int | None = None,
               end: int = 0, markup: tuple[str, int] | None = None) -> int:
    """The first line from `start` (1-based) that holds the start of `text`; 0 if none.
    With `nth` (a link's text), first the line that holds the `nth` (from 0) `text` in
    brackets, `[text]`, counted from `start` up to the block's last line `end` (0: the
    file's), as a link's text is mostly written: the paragraph's second link 'tablesort' is
    at the second '[tablesort]', and '[tablesort documentation]' is none; then, with
    `markup` (the link's text as Markdown, `**w**`, and its count among the block's links
    of that markup), the line of that '[**w**]'; a link whose text is written otherwise
    still is looked for in its block alone, not in every line below it."""
    first = max(start, 1)
    if nth is not None and text.strip():
        line = lines.bracketed(text, first, nth, end)
        if not line and markup and markup[0] and markup[0] != text:
            line = lines.bracketed(markup[0], first, markup[1], end)
        if line:
            return line
    return lines.holding(text[:20].strip(), first, end if nth is not None else 0)


# mdBook's directive standing for a file's lines, `{{#rustdoc_include ../listing/main.rs:here}}`
_MDBOOK_CODE = re.compile(r"[ \t]*\{\{\s*#(include|rustdoc_include|playground|playpen)\b")
# pymdown's Snippets line standing for a file's lines, `--8<-- "docs/code/fft.cpp"`, or the
# line opening and closing a list of such files (its block form): read inside a fence too
_SNIPPET_CODE = re.compile(r"[ \t]*-{1,2}8<-{1,2}(?:[ \t]+\S|[ \t]*$)")


# the start of Pandoc's and Quarto's table caption (`: Scores`, `Table: Scores`)
_CAPTION_UNDER = re.compile(r"[ \t>]*(?:Table)?:[ \t]+(?=\S)")
# a line under a table that GitHub's table takes in as a row but this Markdown reads as what
# it is: a box's `///` (its end, or another box's start; the readings' comparison tells what
# differs there)
_OWN_LINE_UNDER = re.compile(r"[ \t>]*/{3}")


def _source_of(el: etree.Element, lines: list[str]) -> tuple[int, str]:
    """(line, the text of that line from the element's first column) of a cmark-gfm element
    (its `data-sourcepos` counts bytes); (0, '') without a position."""
    pos = el.get("data-sourcepos", "")
    if not pos[:1].isdigit():
        return 0, ""
    line, column = (int(x) for x in pos.split("-", 1)[0].split(":"))
    return line, lines[line - 1].encode()[column - 1:].decode(errors="replace")


def _cells(row: str, github: bool = False) -> int:
    """The number of cells a table row's line holds (code spans and `\\|` kept whole), or
    with `github` as GitHub counts them (a '|' in a code span ends a cell there too)."""
    text = row.replace("\\|", "")
    text = (text if github else _CODE_SPAN.sub("code", text)).strip()
    if text.startswith("|"):
        text = text[1:]
    if text.endswith("|"):
        text = text[:-1]
    return text.count("|") + 1


class StashTermDefList(DefListProcessor):
    """def_list's processor, except that a fence is never a definition's term: Pandoc's and
    Quarto's listing caption under a fence (`: Listing 1 {#lst-x}`, right under it or after
    a blank line) made def_list put the code block in a <dt> (a <pre> inside a term);
    GitHub shows the code, then a paragraph `: Listing 1 …`, and so does the page now
    (`FenceParagraphs` parts the fence from the paragraph; md_foreign warns at the caption;
    `blocks.cmark_reader` compares that paragraph). `is_fence`: whether stash entry n holds a
    fence."""

    def __init__(self, parser: Any, is_fence: Callable[[int], bool]):
        super().__init__(parser)
        self.is_fence = is_fence

    def run(self, parent: etree.Element, blocks: list[str]) -> bool | None:
        m = self.RE.search(blocks[0])
        terms = [t.strip() for t in blocks[0][:m.start()].split("\n") if t.strip()] if m \
            else []
        sibling = self.lastChild(parent)
        if terms and all(self._fence(t) for t in terms):
            return False
        if not terms and sibling is not None and sibling.tag == "p" and not len(sibling) and \
                self._fence((sibling.text or "").strip()):
            return False
        return super().run(parent, blocks)

    def _fence(self, text: str) -> bool:
        m = _BLOCK_PLACEHOLDER.fullmatch(text)
        return m is not None and self.is_fence(int(m.group(1)))


class BoxTargets(Treeprocessor):
    """A box's id (`/// details` with `attrs: {id: …}`) moves from the `<details>` onto a
    `<div class="box">` around everything under its summary. A link to the box (`#id`, the
    language switch's address, a shared address) then names an element inside the box's
    content, which chromium opens the closed box to show (the HTML standard's ancestor
    details revealing, as find-in-page does) without JavaScript too; on the `<details>`
    itself the link landed on the box closed. The id stays one: every link, the other
    language's page and static/explainer.js find the box by it (the box is the div's
    parent). Runs after every check of ids and boxes (md_collect), which read the id on
    the `<details>` where the author wrote it."""

    def run(self, root: etree.Element) -> None:
        for details in list(root.iter("details")):
            ident = details.get("id")
            if not ident:
                continue
            body = etree.Element("div", {"class": "box", "id": ident})
            del details.attrib["id"]
            # everything but the summary (pymdownx writes it first) goes into the div
            moved = [c for c in details if c.tag != "summary"]
            body.text, details.text = details.text, None
            for child in moved:
                details.remove(child)
                body.append(child)
            details.append(body)
