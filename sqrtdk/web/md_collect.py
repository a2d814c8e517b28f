"""Treeprocessors that each collect one kind of fact (as MkDocs' tiny Treeprocessors do), and
the footnotes' own processors. Each collector keeps what it gathered as its own attribute
(read into the page's `model.Conversion` by `converter.ArticleExtension.conversion`); the
processors that only refuse a mistake are in `md_guards`. None of them changes what the
reader sees, except `HeadingCollector` (which adds the section link), `FootnoteNumbers` and
`FootnoteSection`."""
from __future__ import annotations

import copy
import logging
import re
import xml.etree.ElementTree as etree
from collections.abc import Callable, Mapping
from html.parser import HTMLParser

from markdown import Markdown
from markdown.extensions.footnotes import FootnoteExtension
from markdown.treeprocessors import Treeprocessor

from ..errors import line_of, suggest
from .markers import (
    CLAIM_RE,
    MATH_HTML_RE,
    QUOTE_RE,
    has_quote_or_claim,
    strip_markers,
)
from .math.formula import Formula
from .md_math import ContentError
from .model import Citation, Heading
from .positions import BoxLines, LineMap
from .quoting import QuoteLog

LOGGER = logging.getLogger("sqrtdk.web")

_HEADING = re.compile(r"h[1-6]")
_MISSING_FOOTNOTE = re.compile(r"\[\^([^\]\s]+)\]")
def _text(el: etree.Element) -> str:
    return strip_markers("".join(el.itertext())).strip()


class HeadingCollector(Treeprocessor):
    """Every heading needs an explicit `{#id}` (slugs of Chinese text are empty or `_1`);
    keeps a copy of each heading for the table of contents (serialised by `finish`, once
    Markdown's stash is complete) and adds a section link. `headings`: the page's headings,
    in order, once `finish` has run, each with its line from `lines` (heading element ->
    file line, as `md_blocks.BlockStructure` read it)."""

    def __init__(self, md: Markdown, permalink_title: str, text: Callable[[], str],
                 lines: Mapping[etree.Element, int]):
        super().__init__(md)
        self.permalink_title, self.text, self.lines = permalink_title, text, lines
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
                                       self.lines.get(el, 0))
            self.pending.append((int(el.tag[1]), el.get("id", ""), self.lines.get(el, 0),
                                 copy.deepcopy(el)))
            # the heading is named by its own words, not by its section link's label too
            name = etree.Element("span", {"id": f"{el.get('id')}-name"})
            name.text, el.text = el.text, None
            for child in list(el):
                el.remove(child)
                name.append(child)
            el.append(name)
            el.set("aria-labelledby", name.get("id", ""))
            link = etree.SubElement(el, "a", {"class": "headerlink", "href": f"#{el.get('id')}",
                                              "aria-label": self.permalink_title})
            link.text = "#"

    def _without_id(self, text: str, occurrence: int, line: int) -> ContentError:
        """The error for heading `text`, the `occurrence`-th heading starting so: at its
        `line` where known, else at that heading's line found by its words (an earlier heading
        with the same words is not the one)."""
        start = re.escape(text[:40])
        written = re.compile(r"^[ \t>]*#{1,6}[ \t]*" + start, re.M)     # ##Title too
        setext = re.compile(r"^[ \t>]*" + start + r"[^\n]*\n[ \t>]*(?:=+|-+)[ \t]*$", re.M)
        if occurrence > 1 and not line:
            line = line_of(self.text(), written, occurrence) or \
                line_of(self.text(), setext, occurrence)
        return ContentError(f"heading '{text}' has no explicit id; write it as '## Its title "
                            "{#some-id}', with the same id in every language",
                            (written, setext, _HEADING_WITHOUT_ID), line=line)

    def finish(self) -> None:
        """Serialise the headings as the page will show them (smart quotes, entities and math
        placeholders resolved as in the body), without footnote references."""
        for level, ident, line, el in self.pending:
            for parent in list(el.iter()):
                for child in list(parent):
                    if child.tag == "sup" and child.find("a") is not None and \
                            "footnote-ref" in (child.find("a").get("class") or ""):  # type: ignore[union-attr]
                        _remove_keeping_tail(parent, child)
            el.tag, el.tail = "span", None
            el.attrib.clear()
            serialized = self.md.serializer(el)
            inner = serialized[len("<span>"):-len("</span>")]
            for pp in self.md.postprocessors:
                inner = pp.run(inner)
            text = strip_markers(_plain(MATH_HTML_RE.sub("", inner)))
            self.headings.append(Heading(level, ident, inner.strip(), text.strip(), line))


_HEADING_WITHOUT_ID = re.compile(
    r"^[ \t>]*#{1,6}(?!#)(?![^\n]*\{[^}\n]*#[\w-]+[^}\n]*\}[ \t]*$)", re.M)


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
    opening and `attrs:` lines are (a box's id is written on the latter)."""

    def __init__(self, md: Markdown, positions: LineMap | None = None,
                 boxes: BoxLines | None = None):
        super().__init__(md)
        self.positions = LineMap() if positions is None else positions
        self.box_lines = BoxLines() if boxes is None else boxes
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
                raise ContentError(f"duplicate id '{ident}'; ids must be unique on the page"
                                   + (f" (the other is at line {first})"
                                      if line and first and first != line else ""),
                                   re.compile(r"[{\s]#" + re.escape(ident) + r"\b|"
                                              r"id:\s*" + re.escape(ident) + r"\b"),
                                   occurrence=2, line=line)
            self.ids.add(ident)
            self.lines[ident] = line


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
    assembled), and the line each link's or image's address was first written on (`lines`:
    address -> line, where known)."""

    def __init__(self, md: Markdown, positions: LineMap | None = None):
        super().__init__(md)
        self.positions = LineMap() if positions is None else positions
        self.links: list[str] = []
        self.lines: dict[str, int] = {}

    def run(self, root: etree.Element) -> None:
        for el in root.iter():
            url = el.get("href") if el.tag == "a" else el.get("src")
            if url is not None and self.positions.line(el):
                self.lines.setdefault(url, self.positions.line(el))
            cls = (el.get("class") or "").split()
            if el.tag == "a" and url is not None and not {"footnote-ref", "footnote-backref",
                                                          "headerlink"} & set(cls):
                self.links.append(url)


class CitationCollector(Treeprocessor):
    """What each section (h2 id) cites: quoted results (in prose and in formulas), footnote
    references and claims; both languages must cite the same, as often. `cited` holds them
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
        section = ""
        for el in root.iter():
            if el.tag == "h2" and el.get("id") and el.get("id") != "footnotes-title":
                section = el.get("id", "")
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
                self._cite(section, "footnote", el.get("href", "")[len("#fn-"):],
                           self.positions.line(el))


class AttributeMarkers(Treeprocessor):
    """Quote and claim markers cannot go inside attributes (alt, title): keep the text."""

    def run(self, root: etree.Element) -> None:
        for el in root.iter():
            for key, value in el.attrib.items():
                if has_quote_or_claim(value):
                    el.set(key, strip_markers(value))


class FootnoteNumbers(Treeprocessor):
    """Footnote references numbered in the order a reader meets them. Python-Markdown numbers
    them in the order its inline processor reaches them, which visits list items, quotes and
    table cells after the paragraphs around them, so a note referenced in a list could read 6
    before 1 (Python-Markdown issue #1561, open). This rebuilds the extension's
    `footnote_order` from the tree in document order and renumbers the references; its own
    reordering of the notes (priority 19) then follows that order."""

    def __init__(self, md: Markdown, footnotes: FootnoteExtension):
        super().__init__(md)
        self.footnotes = footnotes

    def run(self, root: etree.Element) -> None:
        refs = [a for a in root.iter("a") if "footnote-ref" in (a.get("class") or "").split()]
        sep = self.footnotes.get_separator()
        labels = [a.get("href", "").split(sep, 1)[-1] for a in refs]
        order = list(dict.fromkeys(labels))
        order += [label for label in self.footnotes.footnote_order if label not in order]
        self.footnotes.footnote_order[:] = order
        text = self.footnotes.getConfig("SUPERSCRIPT_TEXT")
        for a, label in zip(refs, labels, strict=True):
            a.text = text.format(order.index(label) + 1)


class FootnoteChecks(Treeprocessor):
    """A reference without a note (Python-Markdown leaves it as literal `[^x]`) and a note
    that is never referenced are errors; records the labels in definition order (`labels`)
    and the line of each definition (`lines`, from `definitions`: label -> file line, as the
    article's definition lines were read; 0: not known)."""

    def __init__(self, md: Markdown, footnotes: FootnoteExtension,
                 positions: LineMap | None = None, definitions: Mapping[str, int] | None = None):
        super().__init__(md)
        self.footnotes = footnotes
        self.positions = LineMap() if positions is None else positions
        self.definitions: Mapping[str, int] = definitions or {}
        self.labels: list[str] = []
        self.lines: list[int] = []

    def run(self, root: etree.Element) -> None:
        defined = list(self.footnotes.footnotes.keys())
        referenced: dict[str, int] = {}       # label -> the line of its first reference
        for el in root.iter():
            if el.tag == "a" and "footnote-ref" in (el.get("class") or "").split():
                referenced.setdefault(el.get("href", "")[len("#fn-"):], self.positions.line(el))
            for slot in ("tail",) if el.tag in ("code", "pre") else ("text", "tail"):
                m = _MISSING_FOOTNOTE.search((el.text if slot == "text" else el.tail) or "")
                if m:
                    raise ContentError(
                        f"footnote reference '[^{m.group(1)}]' has no note; add a line "
                        f"'[^{m.group(1)}]: …' at the end of the file"
                        + (f" ({suggest(m.group(1), defined, 'notes')})" if defined else ""),
                        m.group(0), line=self.positions.at(el, slot, m.start()))
        for label in defined:
            if not _LABEL_OK.fullmatch(label):     # it becomes the note's id and address
                raise ContentError(f"note label '{label}' has a space or a character an "
                                   "address cannot hold (it becomes the note's id, #fn-"
                                   f"{label}); write it as '{_label_slug(label)}' here and in "
                                   "its references", f"[^{label}]",
                                   line=referenced[label] if label in referenced else
                                   self._literal(root, label) or self.definitions.get(label, 0))
            if label not in referenced:
                raise ContentError(f"footnote '[^{label}]' is defined but never referenced; "
                                   "reference it in the text or delete it", f"[^{label}]:",
                                   line=self.definitions.get(label, 0))
        self.labels = defined
        self.lines = [self.definitions.get(label, 0) for label in defined]

    def _literal(self, root: etree.Element, label: str) -> int:
        """The line of the first reference `[^label]` Markdown left as text (a label with a
        space makes no reference), from where that text stands in the tree; 0 if none."""
        for el in root.iter():
            for slot in ("text", "tail"):
                at = ((el.text if slot == "text" else el.tail) or "").find(f"[^{label}]")
                if at >= 0:
                    return self.positions.at(el, slot, at)
        return 0


_LABEL_OK = re.compile(r"[^\s#%?/\\\"'<>`]+")   # what an id and a URL fragment keep as written


def _label_slug(label: str) -> str:
    """`my note` -> `my-note`: the label with its unsafe characters as hyphens."""
    return re.sub(r"[\s#%?/\\\"'<>`]+", "-", label.strip()).strip("-") or "note"


class FootnoteSection(Treeprocessor):
    """Python-Markdown's footnote list becomes a <section> landmark with a heading in the
    page's language; its <hr> goes (the heading separates it); back-links get a label."""

    def __init__(self, md: Markdown, title: str):
        super().__init__(md)
        self.title = title

    def run(self, root: etree.Element) -> None:
        for el in root.iter("a"):
            if "footnote-backref" in (el.get("class") or "").split():
                el.set("aria-label", el.get("title", ""))  # the arrow alone says nothing aloud
        for div in root.iter("div"):
            if div.get("class") == "footnote":
                div.tag = "section"
                div.set("aria-labelledby", "footnotes-title")
                for hr in div.findall("hr"):
                    div.remove(hr)
                h = etree.Element("h2", {"id": "footnotes-title"})
                h.text = self.title
                div.insert(0, h)
                return
