"""Math in the element tree: the lexer's tokens become math elements.

Runs after Markdown's inline patterns and after smarty (which sees each token as a word, so
a quote right after a formula closes). An inline token becomes
`<span class="math">markers.math_html(n)</span>`; a display token becomes
`<div class="math display">…</div>`, splitting the paragraph it was written in. Tokens left
in attributes (a link's title) become the formula's plain TeX.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from collections.abc import Sequence

from markdown import Markdown
from markdown.treeprocessors import Treeprocessor
from markdown.util import HTML_PLACEHOLDER_RE

from ..html_parsing import HTMLParser
from .markers import (
    ANY_MATH_RE,
    FILLER,
    MATH_HTML_RE,
    MATH_SPLIT_RE,
    has_math,
    is_display,
    math_html,
    math_text,
    strip_markers,
)
from .math.formula import Formula
from .md_foreign import (
    CONFLUENCE_MACRO,
    CONFLUENCE_MACRO_INSTEAD,
    KRAMDOWN_EXTENSION,
    KRAMDOWN_EXTENSION_INSTEAD,
    KRAMDOWN_TOC,
    KRAMDOWN_TOC_MESSAGE,
)
from .model import Outline
from .positions import LineMap


class ContentError(Exception):
    """An author mistake found while converting, at `line` (from the page's source
    positions, `positions.LineMap`). Where that is not known (0: a block the two parsers
    read differently), `needle` (text or regex) finds it in the article, from line `after`
    (the line its block cannot be before, where known), else at its `occurrence`-th match.
    `outline`: for a heading without an id, where it stands among the article's headings."""

    def __init__(self, message: str,
                 needle: str | re.Pattern[str] | tuple[str | re.Pattern[str], ...] = "",
                 occurrence: int = 1, line: int = 0, after: int = 0,
                 outline: Outline | None = None):
        super().__init__(message)
        self.message, self.needle, self.occurrence, self.line = message, needle, occurrence, line
        self.after, self.outline = after, outline
        # further mistakes the same check found in the page (each told at its line, in one
        # build): `with_more`
        self.more: list[ContentError] = []

    @staticmethod
    def with_more(found: list[ContentError]) -> ContentError:
        """The first of `found` (at least one), carrying the others."""
        found[0].more = found[1:]
        return found[0]


# the attributes an element's own Markdown gives it, before attr_list's (`[a](href "title")`)
_OWN_ATTRIBUTES = {"a": ("href", "title"), "img": ("src", "alt", "title")}
# an inline element attr_list can follow, in words
_INLINE_NAMES = {"strong": "the bold text", "em": "the italic text", "b": "the bold text",
                 "i": "the italic text", "code": "the code", "a": "the link",
                 "img": "the image", "del": "the struck text", "mark": "the marked text",
                 "sup": "the superscript", "sub": "the subscript"}
_BLOCK_NAMES = {"p": "the paragraph", "li": "the list item", "td": "the table cell",
                "th": "the table cell", "dt": "the term"}


class MathElements(Treeprocessor):
    """Replace math tokens in text and tails by math elements; record which formulas the
    page shows (`used`), in order."""

    def __init__(self, md: Markdown, formulas: list[Formula],
                 positions: LineMap | None = None):
        super().__init__(md)
        self.formulas = formulas
        self.positions = LineMap() if positions is None else positions
        self.used: list[int] = []

    def run(self, root: etree.Element) -> None:
        _drop_filler_rows(root)
        _drop_filler_paragraphs(root)
        for parent in list(root.iter()):
            for key, value in list(parent.attrib.items()):
                if value is None and key.lower() == "toc":     # kramdown's `{:toc}`
                    raise ContentError(KRAMDOWN_TOC_MESSAGE, KRAMDOWN_TOC,
                                       line=self._attributes_line(parent),
                                       after=self.positions.floor(parent))
                if value is None and re.fullmatch(r"_[a-z]*", key) and not \
                        {"id", "class"} & set(parent.attrib):   # kramdown's `{:/comment}`
                    # (its '/' as attr_list makes a name of it; not a word of a list that
                    # gives an id or a class, `{#res (draft)}`: '_draft_', a bare word)
                    raise ContentError(
                        "kramdown's (Jekyll's) extension '{::…}' … '{:/…}' is not understood "
                        f"here (its end '{{:/…}}' would be read as an attribute list); write "
                        f"{KRAMDOWN_EXTENSION_INSTEAD}", KRAMDOWN_EXTENSION,
                        line=self._attributes_line(parent), after=self.positions.floor(parent))
                if value is None:      # attr_list read a bare word: `{#bars note}`
                    raise ContentError(self._bare_word(parent, key), re.compile(
                                           r"\{[^{}\n]*\b" + re.escape(key) + r"\b[^{}\n]*\}"),
                                       line=self._attributes_line(parent),
                                       after=self.positions.floor(parent))
                if has_math(value):
                    parent.set(key, ANY_MATH_RE.sub(self._plain, value).replace(FILLER, ""))
            self._text(parent)
            for child in list(parent):
                self._tail(parent, child)
        self._split_paragraphs(root)

    def _bare_word(self, el: etree.Element, key: str) -> str:
        """The message for `key`, a word attr_list read as an attribute with no value, in the
        attribute list `{…}` that gave `el` its attributes: the list quoted as typed (its
        entries in the order written, which is the order attr_list set them), what reads it
        so, and the fix: an id with a space (`{#bars note}`), or braces meant as text right
        after an inline element (`**bold**{x}`)."""
        own = _OWN_ATTRIBUTES.get(el.tag, ())
        written = []
        for name, value in el.attrib.items():
            if name in own:
                continue
            if name == "id":
                written.append(f"#{value}")
            elif name == "class":
                written += [f".{c}" for c in (value or "").split()]
            else:
                written.append(name if value is None else f'{name}="{value}"')
        typed = "{" + " ".join(written) + "}"
        ident = el.get("id")
        if ident:
            return (f"'{key}' in the attribute list '{typed}' is not an attribute; an id has "
                    f"no spaces: write '{{#{ident}-{key}}}'")
        if self.md.is_block_level(el.tag):
            block = "the heading" if re.fullmatch(r"h[1-6]", el.tag) else \
                _BLOCK_NAMES.get(el.tag, "the block")
            where = f"at the end of {block}"
        else:
            where = f"right after {_INLINE_NAMES.get(el.tag, f'the <{el.tag}> element')}"
        said = (f"'{typed}' {where} is read as an attribute list (Python-Markdown's attr_list; "
                f"GitHub shows it as text), and '{key}' in it is not an attribute")
        if len(written) == 1 and CONFLUENCE_MACRO.fullmatch(key):
            return (f"'{typed}' {where} is a Confluence (Jira) macro, which this Markdown reads "
                    "as an attribute list (Python-Markdown's attr_list; GitHub shows it as "
                    f"text); write {CONFLUENCE_MACRO_INSTEAD}")
        literal = "\\" + typed
        return (f"{said}: for the braces as text, write '{literal}' (a backslash before the "
                "'{')")

    def _attributes_line(self, el: etree.Element) -> int:
        """The line of the attribute list `{…}` that gave `el` its attributes: written at the
        end of a block's text, or right after an inline element."""
        if self.md.is_block_level(el.tag):
            return self.positions.end(el)
        return self.positions.tails.get(el, 0)

    def _plain(self, m: re.Match[str]) -> str:
        return self.formulas[int(m.group(1))].plain

    def _pieces(self, text: str, joins: list[int]) -> list[tuple[str | etree.Element, list[int]]]:
        """`text` split at its math tokens, each token made a math element; each piece of
        text (FILLERs out) with the line breaks `CjkLineJoin` removed inside it (`joins`:
        their offsets in `text`), as offsets in that piece."""
        out: list[tuple[str | etree.Element, list[int]]] = []
        start = 0
        for m in [*MATH_SPLIT_RE.finditer(text), None]:
            end = m.start() if m else len(text)
            piece = text[start:end]
            if piece.replace(FILLER, ""):
                out.append((piece.replace(FILLER, ""),
                            [j - start - piece.count(FILLER, 0, j - start) for j in joins
                             if start <= j < end or (m is None and j == end)]))
            if m is not None:
                token = m.group(0)         # an opening marker, the formula's number, a closing
                out.append((self._element(int(token[1:-1]), is_display(token)), []))
                start = m.end()
        return out

    def _element(self, n: int, display: bool) -> etree.Element:
        el = etree.Element("div" if display else "span",
                           {"class": "math display" if display else "math"})
        el.text = math_html(n)
        line = self.formulas[n].line
        self.positions.place(el, line, tail=line)   # its text goes on from the `$` line
        self.used.append(n)
        return el

    def _text(self, el: etree.Element) -> None:
        if not el.text or not has_math(el.text):
            return
        pieces = self._pieces(el.text, self.positions.removed.pop((el, "text"), []))
        el.text = None
        for i, (piece, joins) in enumerate(pieces):
            if isinstance(piece, str):
                if i == 0:
                    el.text = piece
                    self.positions.joined(el, "text", joins)
                else:
                    prev = pieces[i - 1][0]
                    assert isinstance(prev, etree.Element)
                    prev.tail = (prev.tail or "") + piece
                    self.positions.joined(prev, "tail", joins)
            else:
                el.insert(sum(1 for p, _ in pieces[:i] if not isinstance(p, str)), piece)

    def _tail(self, parent: etree.Element, child: etree.Element) -> None:
        if not child.tail or not has_math(child.tail):
            return
        pieces = self._pieces(child.tail, self.positions.removed.pop((child, "tail"), []))
        child.tail = None
        at = list(parent).index(child) + 1
        last = child
        for piece, joins in pieces:
            if isinstance(piece, str):
                last.tail = (last.tail or "") + piece
                self.positions.joined(last, "tail", joins)
            else:
                parent.insert(at, piece)
                at += 1
                last = piece

    def _split_paragraphs(self, root: etree.Element) -> None:
        """A display formula inside a paragraph: the paragraph ends before it and resumes
        after it (display math is a block of its own)."""
        for parent in list(root.iter()):
            for p in [c for c in parent if c.tag == "p"]:
                if not any(c.tag == "div" and "display" in c.get("class", "") for c in p):
                    continue
                at = list(parent).index(p)
                parent.remove(p)
                for block in _split(p, self.positions):
                    parent.insert(at, block)
                    at += 1


def _drop_filler_paragraphs(root: etree.Element) -> None:
    """A paragraph that only holds the filler of a comment standing as a block of its own
    (`comments`: it keeps blocks apart, as on GitHub) is no paragraph: the author hid it."""
    for parent in list(root.iter()):
        for p in [c for c in parent if c.tag == "p"]:
            if not len(p) and FILLER in (p.text or "") and not (p.text or "").replace(
                    FILLER, "").strip():
                parent.remove(p)


def _drop_filler_rows(root: etree.Element) -> None:
    """A table row that only holds the filler of a comment line (`<!-- … -->` between two rows,
    see `comments`) is no row: the author hid it."""
    for body in list(root.iter()):
        for row in [r for r in body if r.tag == "tr"]:
            cells = list(row)
            if cells and all(not len(c) and (c.text or "").strip() in ("", FILLER)
                             for c in cells) and any(FILLER in (c.text or "") for c in cells):
                body.remove(row)


def _rstrip(p: etree.Element) -> None:
    """Drop the line break that ended the text before a display formula."""
    if len(p):
        p[-1].tail = (p[-1].tail or "").rstrip() or None
    else:
        p.text = (p.text or "").rstrip() or None


def _split(p: etree.Element, positions: LineMap) -> list[etree.Element]:
    """Paragraph `p` as paragraphs and display divs, in order; empty paragraphs dropped.
    Each new paragraph is placed in `positions` at the line its text starts on."""
    blocks: list[etree.Element] = []
    current = etree.Element("p", p.attrib)
    current.text = p.text
    positions.place(current, positions.line(p))
    for child in list(p):
        if child.tag == "div" and "display" in child.get("class", ""):
            _rstrip(current)
            blocks.append(current)
            tail, child.tail = child.tail, None
            blocks.append(child)
            current = etree.Element("p", p.attrib)
            current.text = tail.lstrip("\n") if tail else None
            after = positions.tails.get(child, 0)
            positions.place(current, after + len(tail or "") - len(current.text or "")
                            if after else 0)
        else:
            current.append(child)
    blocks.append(current)
    return [b for b in blocks if b.tag != "p" or len(b) or (b.text or "").strip()]


class HeaderNames(Treeprocessor):
    """A formula in a table cell, header or data, is named by its plain text
    (markers.math_text, filled in at assembly from the formula's MathML:
    sqrtdk.web.math_text): its element becomes `role="math"` with that `aria-label`. A
    browser leaves MathML out of a name computed from the cell's content, so "$\\sqrt{d_k}$"
    alone named its column "" (axe: empty-table-header) and "$1$ (no scaling)" " (no
    scaling)"; a data cell "$\\sqrt{d_k}$" was "" and "Softmax as $d_k$ grows" "Softmax as
    grows" to a screen reader moving through the table by cells; a named math element
    counts. Runs after the checks of attributes (the marker there is ours)."""

    def run(self, root: etree.Element) -> None:
        for th in (el for el in root.iter() if el.tag in ("th", "td")):
            named = False
            for el in th.iter():
                m = MATH_HTML_RE.fullmatch(el.text or "")
                if "math" in (el.get("class") or "").split() and m:
                    el.set("role", "math")
                    el.set("aria-label", math_text(int(m.group(1))))
                    named = True
            # ...and the cell by its whole text: chromium puts a space between a name given
            # by an attribute and the text beside it, so a Chinese header "$1$" + "(no
            # scaling)" in full-width brackets was named "1 (...": a pause before the bracket
            if named:
                th.set("aria-label", spoken_text(th, self.md.htmlStash.rawHtmlBlocks))


def spoken_text(el: etree.Element, stash: Sequence[object] = ()) -> str:
    """`el`'s text on one line, as a name for screen readers (an attribute's): each formula
    as its plain text (markers.math_text, filled in at assembly), a quote as shown, a note's
    reference left out (its number would run into the word before it), raw HTML written in
    the text (`stash`: Markdown's htmlStash.rawHtmlBlocks, which the tree holds as
    placeholders) as its text, an image as its alt, `<br>` as a space: the placeholder itself
    was filled with the raw tags after the tree was written, inside the attribute
    ('aria-label="<span title="t">w</span> …"' broke the cell's tag)."""
    text = HTML_PLACEHOLDER_RE.sub(lambda m: _stashed_text(stash, int(m.group(1))), _spoken(el))
    return re.sub(r"[ \t\n\r\f]+", " ", strip_markers(text)).strip()


class _Spoken(HTMLParser):
    """A fragment of raw HTML's text as a screen reader gets it: text, an image's alt, a
    line break as a space."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "br":
            self.parts.append(" ")
        elif tag == "img":
            self.parts.append(dict(attrs).get("alt") or "")


def _stashed_text(stash: Sequence[object], n: int) -> str:
    """The text of raw HTML `stash[n]` (`_Spoken`); '' if there is none."""
    if n >= len(stash):
        return ""
    parser = _Spoken()
    parser.feed(str(stash[n]))
    parser.close()
    return "".join(parser.parts)


def _spoken(el: etree.Element) -> str:
    if el.tag == "sup" and (el.get("id") or "").startswith("fnref"):
        return ""
    if el.tag == "img":         # a picture in the text: its alt, as a screen reader reads it
        return el.get("alt") or ""
    m = MATH_HTML_RE.fullmatch(el.text or "")
    if m and "math" in (el.get("class") or "").split():
        return math_text(int(m.group(1)))
    return (el.text or "") + "".join(_spoken(c) + (c.tail or "") for c in el)
