"""Treeprocessors that each collect one kind of fact (as MkDocs' tiny Treeprocessors do).
Each collector keeps what it gathered as its own attribute (read into the page's
`model.Conversion` by `converter.ArticleExtension.conversion`), with the line each item was
written on (from `positions`); the processors that only refuse a mistake are in
`md_guards`, the footnotes' own in `md_notes`. None of them changes what the reader sees,
except `HeadingCollector` (which adds the section link)."""
from __future__ import annotations

import copy
import html
import logging
import re
import xml.etree.ElementTree as etree
from collections.abc import Callable, Mapping

from markdown import Markdown
from markdown.treeprocessors import Treeprocessor, UnescapeTreeprocessor

from ..errors import line_of
from ..html_parsing import HTMLParser
from .markers import (
    CLAIM_RE,
    MATH_HTML_RE,
    QUOTE_RE,
    has_quote_or_claim,
    strip_markers,
)
from .math.formula import Formula
from .md_blocks import as_typed, hashtag_heading, level_one, without_id
from .md_math import ContentError
from .model import NOTE_PLACE, Citation, Heading
from .positions import BoxLines, LineMap
from .quoting import QuoteLog

LOGGER = logging.getLogger("sqrtdk.web")

_HEADING = re.compile(r"h[1-6]")
def _text(el: etree.Element) -> str:
    """An element's words as the author typed them, for a message: code in backticks."""
    return strip_markers(as_typed(el)).strip()


class HeadingCollector(Treeprocessor):
    """Every heading needs an explicit `{#id}` (slugs of Chinese text are empty or `_1`);
    keeps a copy of each heading for the table of contents (serialised by `finish`, once
    Markdown's stash is complete) and adds a section link. `headings`: the page's headings,
    in order, once `finish` has run, each with its line from `lines` (heading element ->
    file line, as `md_blocks.BlockStructure` read it)."""

    def __init__(self, md: Markdown, permalink_title: str, text: Callable[[], str],
                 lines: Mapping[etree.Element, int], positions: LineMap | None = None,
                 mark: Callable[[etree.Element], None] | None = None):
        super().__init__(md)
        self.permalink_title, self.text, self.lines = permalink_title, text, lines
        self.mark = mark          # what the page's last processors do to text (its `lang`s)
        self.positions = LineMap() if positions is None else positions
        self.pending: list[tuple[int, str, int, etree.Element]] = []
        self.headings: list[Heading] = []

    def run(self, root: etree.Element) -> None:
        texts: list[str] = []        # the text of each heading so far
        for el in root.iter():
            if not _HEADING.fullmatch(el.tag) or el.get("id") == "footnotes-title":
                continue
            texts.append(_text(el))
            if not el.get("id"):
                raise self._without_id(texts[-1], sum(t.startswith(texts[-1][:40]) for t in texts),
                                       self.lines.get(el, 0), int(el.tag[1]))
            if el.tag == "h1":
                # only a note's heading gets here (md_blocks stops at one in the text)
                written = re.compile(r"^[ \t>]*#[ \t]*" + re.escape(texts[-1][:40]), re.M)
                raise ContentError(level_one(texts[-1], el.get("id")),
                                   written, line=self.lines.get(el, 0))
            self.pending.append((int(el.tag[1]), el.get("id", ""), self.lines.get(el, 0),
                                 copy.deepcopy(el)))
            # the heading is named by its own words, not by its section link's label too
            name = etree.Element("span", {"id": f"{el.get('id')}-name"})
            name.text, el.text = el.text, None
            for child in list(el):
                el.remove(child)
                name.append(child)
            el.append(name)
            self._moved(el, name)
            el.set("aria-labelledby", name.get("id", ""))
            # named by its label and the heading's words ("Link to this section The short
            # answer"): eleven links all named the label alone were one name eleven times
            # in a screen reader's list of links
            link = etree.SubElement(el, "a", {
                "class": "headerlink", "href": f"#{el.get('id')}", "id": f"{el.get('id')}-link",
                "aria-label": self.permalink_title,
                "aria-labelledby": f"{el.get('id')}-link {name.get('id')}"})
            link.text = "#"

    def _moved(self, heading: etree.Element, name: etree.Element) -> None:
        """`name` holds the heading's text now: its text starts where the heading's did,
        with the line breaks a processor removed from it (see positions.LineMap)."""
        at = self.positions
        at.place(name, at.line(heading), parent=heading)
        at.joined(name, "text", at.removed.pop((heading, "text"), []))

    def _without_id(self, text: str, occurrence: int, line: int, level: int) -> ContentError:
        """The error for heading `text` of `level`, the `occurrence`-th heading starting so:
        at its `line` where known, else at that heading's line found by its words (an earlier
        heading with the same words is not the one). A level-1 heading written `#word` (a
        hashtag to GitHub: in a note, where md_blocks does not look) says so."""
        start = re.escape(text[:40])
        written = re.compile(r"^[ \t>]*#{1,6}[ \t]*" + start, re.M)     # ##Title too
        setext = re.compile(r"^[ \t>]*" + start + r"[^\n]*\n[ \t>]*(?:=+|-+)[ \t]*$", re.M)
        if occurrence > 1 and not line:
            line = line_of(self.text(), written, occurrence) or \
                line_of(self.text(), setext, occurrence)
        glued = re.compile(r"^(?:[ \t>]|[-*+][ \t]+|\d{1,9}[.)][ \t]+)*#(?!#)" + start
                           + r"[^\n]*", re.M).search(self.text())
        hashtag = hashtag_heading(glued.group(0)) if level == 1 and glued else None
        return ContentError(hashtag or without_id(text, level),
                            (written, setext, _HEADING_WITHOUT_ID), line=line)

    def finish(self) -> None:
        """Serialise the headings as the page will show them (smart quotes, entities and math
        placeholders resolved as in the body), without footnote references, and with each
        link replaced by its words (the entry is a link itself), and `mark` run on each."""
        for level, ident, line, el in self.pending:
            for parent in list(el.iter()):
                for child in list(parent):
                    if child.tag == "sup" and child.find("a") is not None and \
                            "footnote-ref" in (child.find("a").get("class") or ""):  # type: ignore[union-attr]
                        _remove_keeping_tail(parent, child)
            el.tag, el.tail = "span", None
            el.attrib.clear()
            if self.mark is not None:      # the copy was taken before they ran on the page
                self.mark(el)
            serialized = self.md.serializer(el)
            inner = serialized[len("<span>"):-len("</span>")]
            for pp in self.md.postprocessors:
                inner = pp.run(inner)
            inner = _without_links(inner)     # the entry is a link: none inside it
            text = strip_markers(_plain(MATH_HTML_RE.sub("", inner)))
            self.headings.append(Heading(level, ident, inner.strip(), text.strip(), line))


_HEADING_WITHOUT_ID = re.compile(
    r"^[ \t>]*#{1,6}(?!#)(?![^\n]*\{(?=[^{}\n]*\}[ \t]*$)[^{}\n]*#[\w-]+[^{}\n]*\}[ \t]*$)",
    re.M)   # (linear: only the list ending the line is read, as md_blocks' _HEADING_ID)


class _TextOnly(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def _plain(fragment: str) -> str:
    """The text of an HTML fragment, entities decoded."""
    parser = _TextOnly()
    parser.feed(fragment)
    parser.close()
    return "".join(parser.parts)


class _Unlinked(HTMLParser):
    """An HTML fragment passed through as written, but for its `<a>` tags (their text and
    inner elements kept); entities and character references are left as they were."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag != "a":
            self.parts.append(self.get_starttag_text() or "")

    handle_startendtag = handle_starttag

    def handle_endtag(self, tag: str) -> None:
        if tag != "a":
            self.parts.append(f"</{tag}>")

    def handle_data(self, data: str) -> None:
        self.parts.append(data)

    def handle_entityref(self, name: str) -> None:
        self.parts.append(f"&{name};")

    def handle_charref(self, name: str) -> None:
        self.parts.append(f"&#{name};")

    def handle_comment(self, data: str) -> None:
        self.parts.append(f"<!--{data}-->")


def _without_links(fragment: str) -> str:
    """`fragment` (a heading's inner HTML) with every link replaced by its content: a table
    of contents entry is a link to its heading, and a link inside a link is invalid HTML,
    which browsers split into two links."""
    parser = _Unlinked()
    parser.feed(fragment)
    parser.close()
    return "".join(parser.parts)


def _remove_keeping_tail(parent: etree.Element, child: etree.Element) -> None:
    children = list(parent)
    i = children.index(child)
    if child.tail:
        if i > 0:
            children[i - 1].tail = (children[i - 1].tail or "") + child.tail
        else:
            parent.text = (parent.text or "") + child.tail
    parent.remove(child)


class IdCollector(Treeprocessor):
    """Every id on the page (`ids`), with the file line it was written on (`lines`: 0 where
    not known); a duplicate is an error at its second occurrence. `boxes`: where the boxes'
    opening and `attrs:` lines are (a box's id is written on the latter); `raw_ids`: the ids
    of raw HTML, `(id, line)` in order, which Markdown keeps out of the tree; `own_anchors`:
    `(id, line)` of the empty anchors in or right before a heading of that id
    (editor_blocks.own_id_anchors), told to be removed rather than renamed."""

    def __init__(self, md: Markdown, positions: LineMap | None = None,
                 boxes: BoxLines | None = None,
                 raw_ids: Callable[[], list[tuple[str, int]]] = list,
                 own_anchors: Callable[[], set[tuple[str, int]]] = set):
        super().__init__(md)
        self.positions = LineMap() if positions is None else positions
        self.box_lines = BoxLines() if boxes is None else boxes
        self.raw_ids = raw_ids
        self.own_anchors = own_anchors
        self.ids: set[str] = set()
        self.lines: dict[str, int] = {}

    def run(self, root: etree.Element) -> None:
        for el in root.iter():
            ident = el.get("id")
            if not ident:
                continue
            line = written_line(el, self.positions, self.box_lines, self.md.is_block_level)
            if ident in self.ids:
                first = self.lines[ident]
                raise ContentError(_duplicate(ident, first if line and first != line else 0),
                                   re.compile(r"[{\s]#" + re.escape(ident) + r"\b|"
                                              r"id:\s*" + re.escape(ident) + r"\b"),
                                   occurrence=2, line=line, after=self.positions.floor(el))
            self.ids.add(ident)
            self.lines[ident] = line
        for ident, line in self.raw_ids():
            if ident in self.ids and (ident, line) in self.own_anchors():
                raise ContentError(
                    f"this anchor gives the id '{ident}' a second time: the heading "
                    f"{'on its line' if self.lines[ident] == line else 'below it'} already "
                    f"has it ({{#{ident}}}); remove the anchor: links to '#{ident}' keep "
                    "reaching the heading", line=line)
            if ident in self.ids:
                first, second = sorted((self.lines[ident], line)) if self.lines[ident] else \
                    (0, line)
                raise ContentError(_duplicate(ident, first if first != second else 0),
                                   re.compile(r"\b(?:id|name)\s*=\s*[\"']?" +
                                              re.escape(ident) + r"\b"),
                                   line=second)
            self.ids.add(ident)
            self.lines[ident] = line


def _duplicate(ident: str, first: int) -> str:
    """The message for a second element with the id `ident` (the first at line `first`, 0:
    not known)."""
    return (f"duplicate id '{ident}'" + (f" (the other is at line {first})" if first else "")
            + "; ids must be unique on the page, and a link to it would reach only the first: "
            f"choose another id for one of them, and change what refers to that one (a "
            f"link's '#{ident}', an SVG's 'url(#{ident})' or href='#{ident}')")


def written_line(el: etree.Element, positions: LineMap, boxes: BoxLines,
                 is_block: Callable[[str], bool]) -> int:
    """The line an element's attributes were written on: a box's on its `attrs:` line, a
    block's attribute list `{…}` at the end of its text, an inline element's right after
    it; 0 if not known."""
    if el.tag == "details":
        opener = positions.box_line(el, boxes.openers)
        return boxes.id_line(opener) if opener else 0
    if is_block(el.tag):
        return positions.end(el)
    return positions.tails.get(el, 0) or positions.line(el)


class BoxCollector(Treeprocessor):
    """Ids of the collapsible boxes (`/// details`), which both languages share (`boxes`),
    and the line each box's id was written on (`lines`; 0: not known), from `boxes`."""

    def __init__(self, md: Markdown, positions: LineMap | None = None,
                 boxes: BoxLines | None = None):
        super().__init__(md)
        self.positions = LineMap() if positions is None else positions
        self.box_lines = BoxLines() if boxes is None else boxes
        self.boxes: list[str] = []
        self.lines: list[int] = []

    def run(self, root: etree.Element) -> None:
        for el in root.iter("details"):
            line = self.positions.box_line(el, self.box_lines.openers)
            if not el.get("id"):
                summary = el.find("summary")
                title = _text(summary) if summary is not None else ""
                raise ContentError("collapsible box without an id; add '    attrs: {id: some-id}' "
                                   "under its '/// details |' line",
                                   (re.compile(r"/// *details *\| *" + re.escape(title[:12])),
                                    re.compile(r"^[ \t>]*/// *details\b[^\n]*\n"    # the first
                                               r"(?![ \t>]*attrs:[^\n]*\bid\b)", re.M)),
                                   line=line)
            self.boxes.append(el.get("id", ""))
            self.lines.append(self.box_lines.id_line(line) if line else 0)


class LinkCollector(Treeprocessor):
    """Every href on the page, in order (`links`; checked against the site once it is
    assembled), and the lines each link's or image's address was written on (`lines`:
    address -> the line of each, where known, in order). A link inside a block the two
    parsers read differently has no line from the positions (a paragraph indented by 2
    spaces under a list item, as Typora writes one): its address is looked for in the
    article, `text()`, from the line its block cannot be before, as `[…](address`,
    `<address` or the address alone."""

    def __init__(self, md: Markdown, positions: LineMap | None = None,
                 text: Callable[[], str] = lambda: ""):
        super().__init__(md)
        self.positions = LineMap() if positions is None else positions
        self.text = text
        self.links: list[str] = []
        self.lines: dict[str, list[int]] = {}
        self.images: dict[str, list[int]] = {}      # the same, of images alone
        # the same, of links with nothing inside that names them (no text, no alt)
        self.empty: dict[str, list[int]] = {}

    def run(self, root: etree.Element) -> None:
        for el in root.iter():
            url = el.get("href") if el.tag == "a" else el.get("src")
            if url is not None:
                line = self.positions.line(el) or self._written(_as_read(url), el)
                for found in (self.lines, self.images) if el.tag == "img" else (self.lines,):
                    lines = found.setdefault(_as_read(url), [])
                    if line and line not in lines[-1:]:
                        lines.append(line)
                if el.tag == "a" and line and _nameless(el):
                    self.empty.setdefault(_as_read(url), []).append(line)
            cls = (el.get("class") or "").split()
            if el.tag == "a" and url is not None and not {"footnote-ref", "footnote-backref",
                                                          "headerlink"} & set(cls):
                self.links.append(url)

    def _written(self, url: str, el: etree.Element) -> int:
        """The line `url` of `el`, an element of no known line, was written on: found in the
        article from its block's floor on (else anywhere); 0 if not found."""
        text = self.text()
        if not text or not url:
            return 0
        needles = (f"]({url}", f"](<{url}", f"<{url}", url)
        floor = self.positions.floor(el) or 1
        return next((n for start in (floor, 1) for needle in needles
                     if (n := line_of(text, needle, start=start))), 0)


def _nameless(a: etree.Element) -> bool:
    """Whether link `a` has nothing inside that names it for a screen reader: no text, no
    image's alt, no aria-label (as the site's check reads the page, `site_links`)."""
    if (a.get("aria-label") or "").strip() or a.get("aria-labelledby"):
        return False
    return not "".join(a.itertext()).strip() and not any(
        (el.get("alt") or "").strip() or (el.get("aria-label") or "").strip()
        for el in a.iter())


# an entity Markdown's serializer leaves as it is in an attribute (`&quot;` of
# `[a](url &quot;x&quot;)`, which the tree keeps as typed)
_KEPT_ENTITY = re.compile(r"&(?:#[0-9]+|#x[0-9a-f]+|[0-9a-z]+);", re.I)


def _as_read(url: str) -> str:
    """An address of the tree as the site's check reads it from the page (its backslash
    escapes, still Markdown's placeholders, and its entities decoded), so that the check
    finds the line of a link written with either."""
    url = UnescapeTreeprocessor.RE.sub(lambda m: chr(int(m.group(1))), url)
    return _KEPT_ENTITY.sub(lambda m: html.unescape(m.group(0)), url)


class CitationCollector(Treeprocessor):
    """What each section (h2 id) cites: quoted results (in prose and in formulas), footnote
    references and claims; both languages must cite the same, as often. A note's text is
    its own place, `[^label]` (NOTE_PLACE), wherever its definition was written: the page
    lists every note after the last section, which did not cite them. `cited` holds them
    in order; `lines` the file line each was written on, from the quote's, claim's or
    formula's own record, a footnote reference's from `positions` (0: not known)."""

    def __init__(self, md: Markdown, quotes: QuoteLog, formulas: list[Formula],
                 positions: LineMap | None = None):
        super().__init__(md)
        self.quotes, self.formulas = quotes, formulas
        self.positions = LineMap() if positions is None else positions
        self.cited: list[Citation] = []
        self.lines: list[int] = []

    def _cite(self, section: str, kind: str, name: str, line: int) -> None:
        self.cited.append((section, kind, name))
        self.lines.append(line)

    def run(self, root: etree.Element) -> None:
        notes = next((el for el in root.iter()
                      if "footnote" in (el.get("class") or "").split()), None)
        in_notes = set(notes.iter()) if notes is not None else set()
        section = ""
        for el in root.iter():
            if el in in_notes:
                continue
            if el.tag == "h2" and el.get("id") and el.get("id") != "footnotes-title":
                section = el.get("id", "")
            self._read(el, section)
        for item in notes.iter("li") if notes is not None else ():
            ident = item.get("id") or ""
            if ident.startswith(NOTE_ID):
                for el in item.iter():
                    self._read(el, NOTE_PLACE.format(ident[len(NOTE_ID):]))

    def _read(self, el: etree.Element, section: str) -> None:
        """The citations `el`'s own text, tail and attributes hold, cited by `section`."""
        for text in (el.text or "", el.tail or "", *el.attrib.values()):
            for m in QUOTE_RE.finditer(text):
                n = int(m.group(1))
                self._cite(section, "result", self.quotes.entries[n][0], self.quotes.lines[n])
            for m in CLAIM_RE.finditer(text):
                n = int(m.group(1))
                self._cite(section, "claim", self.quotes.claims[n], self.quotes.claim_lines[n])
        if "math" in (el.get("class") or "").split() and el.text:
            placeholder = MATH_HTML_RE.fullmatch(el.text)
            if placeholder:
                formula = self.formulas[int(placeholder.group(1))]
                for q in formula.quotes:
                    self._cite(section, "result", q.key, formula.line)
        if el.tag == "a" and "footnote-ref" in (el.get("class") or "").split():
            self._cite(section, "footnote", el.get("href", "")[len("#" + NOTE_ID):],
                       self.positions.line(el))


NOTE_ID = "fn-"    # a note's element id: its label after this (the SEPARATOR converter sets)


class AttributeMarkers(Treeprocessor):
    """Quote and claim markers cannot go inside attributes (alt, title): keep the text."""

    def run(self, root: etree.Element) -> None:
        for el in root.iter():
            for key, value in el.attrib.items():
                if has_quote_or_claim(value):
                    el.set(key, strip_markers(value))
