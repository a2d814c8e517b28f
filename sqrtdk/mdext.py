"""Python-Markdown extensions of the article pipeline.

Math is found by pymdownx.arithmatex (generic mode: protected by priority just after code spans,
as AtomicString, so `_` and `*` in TeX never become emphasis); these processors then collect
facts while converting, in the spirit of MkDocs' tiny Treeprocessors.

| class                  | registry        | name             | priority | does                                  |
|------------------------|-----------------|------------------|----------|---------------------------------------|
| MathCollector          | treeprocessors  | sqrtdk-math      | 16       | swaps each formula for a token         |
| FigureProcessor        | treeprocessors  | sqrtdk-figure    | 14       | lone image paragraph -> numbered figure|
| HeadingIdChecker       | treeprocessors  | sqrtdk-heading   | 6        | explicit ids (after attr_list, pre toc)|
| FootnoteHeading        | treeprocessors  | sqrtdk-notes     | 2        | titles the footnote list, drops <hr>   |
| FactCollector          | treeprocessors  | sqrtdk-facts     | 1        | footnotes, boxes, links; cleans attrs  |

Every processor reports author mistakes by raising `ContentError(message, needle)`; the page
builder turns the needle into a line of the source file.
"""
from __future__ import annotations

import html
import re
import xml.etree.ElementTree as etree
from typing import Callable

from markdown import Extension, Markdown
from markdown.treeprocessors import Treeprocessor

from .model import MATH_TOKEN, MATH_TOKEN_RE, Facts, Formula  # noqa: F401 (re-exported)
from .quoting import QUOTE_RE, QuoteLog, strip_quotes, tex_quotes

_INLINE_TEX = re.compile(r"^\\\((.*)\\\)$", re.S)
_BLOCK_TEX = re.compile(r"^\\\[(.*)\\\]$", re.S)
_HTML_DATA_KEY = re.compile(r"\\htmlData\{key=([^,}]+)")
_MISSING_FOOTNOTE = re.compile(r"\[\^([^\]\s]+)\]")
_LITERAL_BRACES = re.compile(r"\{\{[^\s\x02\x03]*")  # stops at Markdown's placeholders


class ContentError(Exception):
    """An author mistake found while converting; `needle` (text or regex) finds it in the
    source, at its `occurrence`-th match (Markdown keeps no line numbers)."""

    def __init__(self, message: str, needle: str | re.Pattern[str], occurrence: int = 1):
        super().__init__(message)
        self.message, self.needle, self.occurrence = message, needle, occurrence


def _text(el: etree.Element) -> str:
    return strip_quotes("".join(el.itertext())).strip()


class MathCollector(Treeprocessor):
    """Replace arithmatex's generic wrappers' TeX by MATH_TOKEN(n); record the Formula."""

    def __init__(self, md: Markdown, facts: Facts, quotes: QuoteLog):
        super().__init__(md)
        self.facts, self.quotes = facts, quotes

    def run(self, root: etree.Element) -> None:
        for el in root.iter():
            if "arithmatex" not in el.get("class", "").split():
                continue
            raw = html.unescape(el.text or "")
            m = (_BLOCK_TEX if el.tag == "div" else _INLINE_TEX).match(raw)
            if not m:
                continue
            display = el.tag == "div"
            tex = m.group(1).strip()
            self.facts.formulas.append(Formula(tex_quotes(tex, self.quotes), display,
                                               strip_quotes(tex)))
            el.text = MATH_TOKEN.format(len(self.facts.formulas) - 1)
            el.set("class", "math display" if display else "math")


class FigureProcessor(Treeprocessor):
    """A paragraph holding only `![alt](NAME.svg "caption")` becomes a numbered <figure>.

    `resolve(name)` returns (src, width, height) for the page's language or raises KeyError.
    """

    def __init__(self, md: Markdown, facts: Facts, label: str,
                 resolve: Callable[[str], tuple[str, int, int]]):
        super().__init__(md)
        self.facts, self.label, self.resolve = facts, label, resolve

    def run(self, root: etree.Element) -> None:
        for parent in root.iter():
            for i, p in enumerate(list(parent)):
                if p.tag == "p" and len(p) == 1 and p[0].tag == "img" \
                        and not (p.text or "").strip() and not (p[0].tail or "").strip():
                    parent[i] = self._figure(p[0])
        for img in root.iter("img"):  # left over: an image inside a sentence
            if _figure_name(img.get("src", "")):
                raise ContentError(f"figure '{img.get('src')}' sits inside a sentence; give it "
                                   "a paragraph of its own (blank lines around it)", _needle(img))

    def _figure(self, img: etree.Element) -> etree.Element:
        src = img.get("src", "")
        name = _figure_name(src)
        if not name:
            raise ContentError(f"figure source '{src}' is not a figure name such as "
                               "'spread_hist.svg'", _needle(img))
        if not (img.get("alt") or "").strip():
            raise ContentError(f"figure '{name}' has no alt text; say what the figure shows",
                               _needle(img))
        if name in self.facts.figures:
            raise ContentError(f"figure '{name}' appears twice; each figure appears once",
                               re.compile(r"\]\(" + re.escape(src)), occurrence=2)
        try:
            url, width, height = self.resolve(name)
        except KeyError:
            raise ContentError(f"figure '{name}' is not produced by the build; "
                               "add it to sqrtdk/figures.py or fix the name", _needle(img)) from None
        self.facts.figures.append(name)
        number = len(self.facts.figures)
        fig = etree.Element("figure", {"id": f"fig-{name.replace('_', '-')}"})
        etree.SubElement(fig, "img", {"src": url, "alt": img.get("alt", ""), "width": str(width),
                                      "height": str(height), "loading": "lazy",
                                      "decoding": "async"})
        cap = etree.SubElement(fig, "figcaption")
        num = etree.SubElement(cap, "span", {"class": "fig-num"})
        num.text = self.label.format(n=number)
        num.tail = " " + (img.get("title") or "")
        return fig


def _figure_name(src: str) -> str:
    return src[:-4] if src.endswith(".svg") and "/" not in src and ":" not in src else ""


def _needle(img: etree.Element) -> str:
    """How the image was written: `![alt](src` (more precise than the src alone)."""
    return f"![{img.get('alt', '')}]({img.get('src', '')}"


class HeadingIdChecker(Treeprocessor):
    """Every heading needs an explicit `{#id}`: slugs of Chinese text are empty or `_1`."""

    def __init__(self, md: Markdown, facts: Facts):
        super().__init__(md)
        self.facts = facts

    def run(self, root: etree.Element) -> None:
        for el in root.iter():
            if re.fullmatch(r"h[1-6]", el.tag):
                text = MATH_TOKEN_RE.sub(self._tex, _text(el))  # the source, for message and line
                if not el.get("id"):
                    raise ContentError(f"heading '{text}' has no explicit id; write it as "
                                       f"'## {text} {{#some-id}}' with the same id in both "
                                       "languages", text)
                self.facts.headings.append((int(el.tag[1]), el.get("id"), text))

    def _tex(self, m: re.Match) -> str:
        return f"${self.facts.formulas[int(m.group(1))].tex}$"


class FactCollector(Treeprocessor):
    """Collect ids, boxes, footnotes and links; strip quote markers from attributes;
    reject unresolved footnote references and literal `{{`."""

    def __init__(self, md: Markdown, facts: Facts, quotes: QuoteLog):
        super().__init__(md)
        self.facts, self.quotes, self.section = facts, quotes, ""

    def run(self, root: etree.Element) -> None:
        refs: list[str] = []
        for el in root.iter():
            if el.tag == "h2" and el.get("id"):
                self.section = el.get("id")
            self._cite(el)
            for k, v in el.attrib.items():
                el.set(k, strip_quotes(v))
            if el.get("id"):
                if el.get("id") in self.facts.ids:
                    raise ContentError(f"duplicate id '{el.get('id')}'; ids must be unique",
                                       re.compile(r"[{\s]#" + re.escape(el.get("id")) + r"\b|"
                                                  r"id:\s*" + re.escape(el.get("id")) + r"\b"),
                                       occurrence=2)
                self.facts.ids.add(el.get("id"))
            self._element(el, refs)
        self._footnotes(refs)

    def _cite(self, el: etree.Element) -> None:
        """Record the results and footnotes this element cites, under the current section."""
        texts = [el.text or "", el.tail or "", *el.attrib.values()]
        for text in texts:
            for m in QUOTE_RE.finditer(text):
                self.facts.cited.append((self.section, "result",
                                         self.quotes.entries[int(m.group(1))][0]))
            for m in MATH_TOKEN_RE.finditer(text):
                for key in _HTML_DATA_KEY.findall(self.facts.formulas[int(m.group(1))].tex):
                    self.facts.cited.append((self.section, "result", key))
        if el.tag == "a" and "footnote-ref" in el.get("class", "").split():
            self.facts.cited.append((self.section, "footnote", el.get("href", "")[len("#fn-"):]))

    def _element(self, el: etree.Element, refs: list[str]) -> None:
        cls = el.get("class", "").split()
        if el.tag == "details":
            if not el.get("id"):
                summary = el.find("summary")
                title = "".join(summary.itertext()).strip() if summary is not None else ""
                raise ContentError("collapsible box without an id; add '    attrs: {id: some-id}' "
                                   "under its '/// details |' line",
                                   re.compile(r"/// *details *\| *" + re.escape(title)))
            self.facts.boxes.append(el.get("id"))
        elif el.tag == "a" and "footnote-ref" in cls:
            refs.append(el.get("href", "")[len("#fn-"):])
        elif el.tag == "a" and "footnote-backref" in cls:
            el.set("aria-label", el.get("title", ""))  # the arrow alone says nothing aloud
        elif el.tag == "a" and el.get("href") is not None:
            self.facts.links.append(el.get("href"))
        if el.tag not in ("code", "pre"):
            self._check_text(el.text or "")
        self._check_text(el.tail or "")  # text after `code` is prose again

    def _check_text(self, text: str) -> None:
        at = text.find("$")   # math was taken out already; `\$` is still an escape placeholder
        if at >= 0:
            raise ContentError("a '$' that starts no formula: display math needs '$$' lines with "
                               "a blank line before and after; write '\\$' for a dollar sign",
                               strip_quotes(text[max(at - 30, 0):at + 1]).lstrip())
        m = _MISSING_FOOTNOTE.search(text)
        if m:
            raise ContentError(f"footnote reference '[^{m.group(1)}]' has no definition; add a "
                               f"line '[^{m.group(1)}]: …' at the end of the file", m.group(0))
        m = _LITERAL_BRACES.search(text)
        if m:  # the needle runs on to the next space: `{{` alone may match code on an earlier line
            raise ContentError("literal '{{' in the text; quote a result as "
                               "'{{ name | fixed(2) }}' (with spaces)", m.group(0))

    def _footnotes(self, refs: list[str]) -> None:
        ext = next((e for e in self.md.registeredExtensions
                    if type(e).__name__ == "FootnoteExtension"), None)
        defined = list(ext.footnotes.keys()) if ext else []
        for label in defined:
            if label not in refs:
                raise ContentError(f"footnote '[^{label}]' is defined but never referenced; "
                                   "reference it in the text or delete it", f"[^{label}]:")
        self.facts.footnotes = defined


class FootnoteHeading(Treeprocessor):
    """Give Python-Markdown's footnote list a heading in the page's language and make it a
    <section> landmark; the <hr> goes (the heading separates it)."""

    def __init__(self, md: Markdown, title: str):
        super().__init__(md)
        self.title = title

    def run(self, root: etree.Element) -> None:
        for div in root.iter("div"):
            if div.get("class") == "footnote":
                div.tag = "section"  # a named region: a landmark screen readers list
                div.set("aria-labelledby", "footnotes-title")
                for hr in div.findall("hr"):
                    div.remove(hr)
                h = etree.Element("h2", {"id": "footnotes-title"})
                h.text = self.title
                div.insert(0, h)
                return


class ArticleExtension(Extension):
    """Registers the processors above on a fresh Markdown instance (one per page)."""

    def __init__(self, facts: Facts, ui: dict[str, str],
                 resolve: Callable[[str], tuple[str, int, int]], quotes: QuoteLog | None = None):
        super().__init__()
        self.facts, self.ui, self.resolve = facts, ui, resolve
        self.quotes = quotes if quotes is not None else QuoteLog()

    def extendMarkdown(self, md: Markdown) -> None:
        tp = md.treeprocessors
        tp.register(MathCollector(md, self.facts, self.quotes), "sqrtdk-math", 16)
        tp.register(FigureProcessor(md, self.facts, self.ui["figure"], self.resolve),
                    "sqrtdk-figure", 14)
        tp.register(HeadingIdChecker(md, self.facts), "sqrtdk-heading", 6)
        tp.register(FootnoteHeading(md, self.ui["footnotes"]), "sqrtdk-notes", 2)
        tp.register(FactCollector(md, self.facts, self.quotes), "sqrtdk-facts", 1)
