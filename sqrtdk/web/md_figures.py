"""Figures: a paragraph holding only `![alt](NAME.svg "caption")` becomes a numbered figure.

The caption is the image's title, converted as inline Markdown (emphasis, links, math) by
Markdown's own inline processor; the number and its label come from strings.toml. The
picture offers the phone variant below 40 rem, and links to the full-size figure. After the
caption, a placeholder for the chart's numbers as a table (fig_tables, filled at assembly).
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from collections.abc import Callable, Sequence
from urllib.parse import parse_qs, unquote, urlsplit

from markdown import Markdown
from markdown.treeprocessors import InlineProcessor, Treeprocessor

from ..errors import shortened, suggest
from .markers import ANY_MATH_RE, fig_data
from .md_math import ContentError, spoken_text
from .model import SvgPair
from .positions import LineMap

NARROW_MEDIA = "(max-width: 40rem)"
# an attribute list on the line under a picture: `{: style="width: 100%" class="center"}`
# (kramdown), or right after it: `{width=50%}` (Pandoc, attr_list)
_ATTRIBUTES = re.compile(r"[ \t]*(?:\n[ \t]*)?(\{:?[^{}\n]*\})[ \t]*$")
_STASHED = re.compile("\x02[^\x03]*\x03")    # Python-Markdown's placeholders for stashed HTML


# what to write for a formula drawn as a picture by another site (formula_of_picture)
def formula_as_math(tex: str) -> str:
    """What a formula drawn as a picture by another site (TeX `tex`) is, and what to write for
    it. Zhihu's editor ends a display formula's TeX with `\\\\` (its only mark of one: the
    picture of `a=b\\\\` is set on a line of its own); written as `$a=b\\\\$` in a sentence
    that would be a line break in a formula, so such a one is told as the display formula
    it is, without the mark."""
    display = tex.rstrip()
    if display.endswith("\\\\") and display[:-2].rstrip():
        return ("a display formula drawn as a picture (as Zhihu draws them: its TeX ends with "
                "'\\\\', Zhihu's mark of a display formula); write it as math between two "
                f"'$$' lines, without that '\\\\': '$$', '{display[:-2].rstrip()}', '$$'")
    return ("a formula drawn as a picture (as Zhihu and CodeCogs draw them); write the "
            f"formula as math, ${tex}$ in a sentence, or between two '$$' lines for a "
            "display formula")


# Yuque's Markdown export draws each formula as a picture, `…/yuque/__latex/<hash>.svg`,
# whose address holds no TeX
_YUQUE_FORMULA = re.compile(r"(?:https?:)?//[^/]*nlark\.com/yuque/__latex/", re.I)
YUQUE_FORMULA_AS_MATH = ("a formula drawn as a picture by Yuque (\u8bed\u96c0), whose export "
                         "writes each formula so, its TeX not in the address; write the formula "
                         "as math, $…$ in a sentence or between two '$$' lines (its TeX is in "
                         "the Yuque document, where the formula is edited)")


def yuque_formula(url: str) -> bool:
    """Whether `url` is Yuque's picture of a formula."""
    return bool(_YUQUE_FORMULA.match(url))


# Markdown Nice's (markdown-it-imsize's) picture size after the address, `![a](x.png =150x150)`,
# `=40%x`: GitHub shows the whole image as text; Python-Markdown takes it as part of the address
IMAGE_SIZE = re.compile(r"\s+=\d*(?:\.\d+)?(?:%|px)?x\d*(?:\.\d+)?(?:%|px)?$")


def size_told(src: str) -> str | None:
    """The message for a picture whose address `src` ends with Markdown Nice's size, else
    None."""
    sized = IMAGE_SIZE.search(unquote(src))
    if not sized:
        return None
    return (f"picture '{shortened(unquote(src), 60)}': '{sized.group(0).strip()}' after its "
            "address is Markdown Nice's picture size (markdown-it-imsize's), which neither "
            "this Markdown nor GitHub reads (GitHub shows the whole picture as text, this "
            "Markdown takes the size for part of the address); remove it: the build sizes "
            "the figures it draws")


# a Windows path, `C:\Users\…\image.png` (Typora's pasted picture), which a browser reads
# as an address of the scheme 'c:'
WINDOWS_PATH = re.compile(r"[A-Za-z]:[\\/]")
# a path in a macOS or Linux home folder (`/Users/name/…`, `/home/name/…`, `~/…`), which the
# site reads as a file of its own that it does not have
HOME_PATH = re.compile(r"(?:/(?:Users|home)/[^/]+|~)/")
# the folder Typora puts a pasted picture in, on macOS `~/Library/Application Support/
# typora-user-images/`, on Linux `~/.config/Typora/typora-user-images/`
TYPORA_FOLDER = re.compile(r"[\\/]typora-user-images[\\/]", re.I)


def on_own_machine(url: str) -> str | None:
    """What to say of an address that is a path on the author's machine (a Windows path, a
    path in a home folder; Typora's pasted picture, named as such), else None; the caller
    adds what to do."""
    path = unquote(url)
    if WINDOWS_PATH.match(path):
        return ("is a file on your own machine (a Windows path, as Typora writes a pasted "
                "picture's, in typora-user-images), which no reader's browser can open")
    if not HOME_PATH.match(path):
        return None
    if TYPORA_FOLDER.search(path):
        return ("is a file on your own machine: Typora's copy of a pasted picture, in its "
                "folder typora-user-images (on macOS in ~/Library/Application Support), "
                "which no reader's browser can open")
    return ("is a file on your own machine (a path in your home folder), which no reader's "
            "browser can open")


def formula_of_picture(url: str) -> str | None:
    """The TeX of a formula drawn as a picture by another site, as a pasted post holds it
    (Zhihu's `…/equation?tex=…`, CodeCogs' `…/svg.latex?…`, GitHub's old
    `render/math?math=…`, Google Charts' `chl=…`), else None."""
    parts = urlsplit(url)
    query = parse_qs(parts.query)
    for key in ("tex", "math", "chl"):
        if query.get(key) and (key != "chl" or query.get("cht") == ["tx"]):
            return query[key][0].strip()
    if "codecogs" in parts.netloc and parts.query:
        return unquote(parts.query).strip()
    return None



class FigureProcessor(Treeprocessor):
    """Lone figure images become <figure>; `resolve(name)` gives the page language's files
    or raises KeyError; `known` lists the figures the build makes (for "did you mean").
    `formula_lines`: the line of each formula (by its index). `figures`: the names of the
    page's figures, in order; `lines`: the line each was written on (from `positions`; 0:
    not known). `open_words`: what the link around the picture says it does (it opens the
    full-size figure), shown under the picture and so part of the link's name."""

    def __init__(self, md: Markdown, label: str, resolve: Callable[[str], SvgPair],
                 known: list[str], source: str = "", formula_lines: Sequence[int] = (),
                 positions: LineMap | None = None, source_line: int = 1,
                 open_words: str = ""):
        super().__init__(md)
        self.label, self.resolve, self.known = label, resolve, known
        self.open_words = open_words
        self.source, self.formula_lines = source, formula_lines
        self.source_line = source_line
        self.positions = LineMap() if positions is None else positions
        self.figures: list[str] = []
        self.lines: list[int] = []

    def run(self, root: etree.Element) -> None:
        for parent in list(root.iter()):
            for p in list(parent):
                if p.tag != "p" or not len(p) or p[0].tag != "img" or (p.text or "").strip():
                    continue
                rest = list(p)[1:]
                # the last paragraph of a footnote ends with its back-reference
                backref = rest[0] if len(rest) == 1 and "footnote-backref" in \
                    (rest[0].get("class") or "") else None
                tail = _STASHED.sub("", p[0].tail or "")  # the note's &#160; before its backref
                if (rest and backref is None) or tail.strip():
                    continue
                at = list(parent).index(p)
                parent[at] = self._figure(p[0])
                for made in parent[at].iter():
                    self.positions.place(made, self.positions.line(p[0]))
                if backref is not None:
                    after = etree.Element("p")
                    after.append(backref)
                    p[0].tail = None
                    parent.insert(at + 1, after)
        linked = {img for a in root.iter("a") for img in a.iter("img")}
        for img in root.iter("img"):  # left over: an image inside a link or a sentence
            if _figure_name(img.get("src", "")) and img in linked:
                raise ContentError(f"figure '{img.get('src')}' is wrapped in a link; a figure "
                                   "cannot be (the page links it to its full-size drawing "
                                   "itself): remove the link, '[' before it and '](…)' after "
                                   "it, and put the address in a sentence if it matters",
                                   _needle(img), line=self.positions.line(img),
                                   after=self.positions.floor(img))
            attributes = _ATTRIBUTES.match(img.tail or "")
            if _figure_name(img.get("src", "")) and attributes:
                line = self.positions.line(img)
                raise ContentError(
                    f"the attribute list '{attributes.group(1)[:50]}' "
                    f"{'under' if chr(10) in attributes.group(0) else 'after'} figure "
                    f"'{img.get('src')}' is kramdown's (Jekyll's) or Pandoc's way to size or "
                    "place a picture (GitHub shows it as text); the build sizes and places "
                    "figures itself: remove it",
                    re.compile(re.escape(attributes.group(1))),
                    line=line + attributes.group(0).count("\n") if line else 0,
                    after=self.positions.floor(img))
            if _figure_name(img.get("src", "")):
                raise ContentError(f"figure '{img.get('src')}' sits inside a sentence; give it "
                                   "a paragraph of its own (blank lines around it)", _needle(img),
                                   line=self.positions.line(img),
                                   after=self.positions.floor(img))

    def _figure(self, img: etree.Element) -> etree.Element:
        name, files = self._checked(img)
        self.figures.append(name)
        self.lines.append(self.positions.line(img))
        fig = etree.Element("figure", {"id": f"fig-{name.replace('_', '-')}"})
        link = etree.SubElement(fig, "a", {"class": "fig-link", "href": files.src})
        picture = etree.SubElement(link, "picture")
        etree.SubElement(picture, "source", {
            "media": NARROW_MEDIA, "srcset": files.narrow_src,
            "width": str(files.narrow_width), "height": str(files.narrow_height)})
        etree.SubElement(picture, "img", {
            "src": files.src, "alt": img.get("alt", ""), "width": str(files.width),
            "height": str(files.height), "loading": "lazy", "decoding": "async"})
        if self.open_words:     # a link named by the picture alone did not say where it goes
            etree.SubElement(link, "span", {"class": "fig-open"}).text = self.open_words
        cap = etree.SubElement(fig, "figcaption")
        num = etree.SubElement(cap, "span", {"class": "fig-num"})
        num.text = self.label.format(n=len(self.figures))
        num.tail = " "
        caption = etree.SubElement(cap, "span", {"class": "fig-caption"})
        caption.text = self._raw_title(img) or img.get("title") or ""
        _inline(self.md, caption)
        cap.tail = fig_data(name)      # the chart's numbers (fig_tables, at assembly)
        return fig

    def _checked(self, img: etree.Element) -> tuple[str, SvgPair]:
        """(figure name, its files) of a lone image; ContentError at its line for an image
        that is no figure of the build, has no alt text or TeX in it, has no caption (title),
        or is shown twice."""
        src, line = img.get("src", ""), self.positions.line(img)
        after = self.positions.floor(img)
        name = _figure_name(src)
        if (sized := size_told(src)) is not None:
            raise ContentError(sized, _needle(img), line=line, after=after)
        if not name and (own := on_own_machine(src)):
            raise ContentError(f"picture '{shortened(unquote(src), 60)}' {own}; draw it as a "
                               "figure (README, 'Add a figure'), or leave it out",
                               _needle(img), line=line, after=after)
        if not name:
            elsewhere = "://" in src or src.startswith("//")
            embedded = (" (a picture embedded as data, as Google Docs' Markdown export "
                        "writes each one: '![][image1]' and, at the end, '[image1]: "
                        "<data:image/png;base64,…>'; draw it as a figure, or leave it out)"
                        if src.lower().startswith("data:") else "")
            raise ContentError(f"figure source '{shortened(src, 60)}' is not a figure name such as "
                               "'spread_hist.svg': the pages show only figures the build "
                               "draws (sqrtdk/figures/; README, 'Add a figure')" + embedded
                               + (f"; and it is {formula_as_math(tex)}"
                                  if elsewhere and (tex := formula_of_picture(src)) else
                                  f"; and it is {YUQUE_FORMULA_AS_MATH}"
                                  if yuque_formula(src) else
                                  "; a picture from another site cannot load here (the "
                                  "pages' Content-Security-Policy), so link to it instead: "
                                  f"[what it shows]({src})" if elsewhere else ""),
                               _needle(img), line=line, after=after)
        if not (img.get("alt") or "").strip():
            raise ContentError(f"figure '{name}' has no alt text; say what the figure shows "
                               "between the brackets: ![what it shows](…)", _needle(img),
                               line=line, after=after)
        if not (img.get("title") or "").strip():     # else "Figure 3." over nothing
            raise ContentError(f"figure '{name}' has no caption; write one in quotes after "
                               f"its address: ![{img.get('alt', '')[:40]}]({src} \"What the "
                               "reader should see in it.\")", _needle(img), line=line,
                               after=after)
        formula = ANY_MATH_RE.search(img.get("alt", ""))
        if formula:     # alt text is plain text: TeX would be read aloud letter by letter
            raise ContentError(f"figure '{name}': its alt text holds the formula "
                               f"{formula.group(0)}, which screen readers would read as TeX; "
                               "write it in words or Unicode (q·k, √dₖ, dₖ) instead",
                               _needle(img), line=self.formula_lines[int(formula.group(1))])
        if name in self.figures:
            first = self.lines[self.figures.index(name)]
            raise ContentError(f"figure '{name}' appears twice; each figure appears once (to "
                               f"point to it again, link to it: [the figure](#fig-"
                               f"{name.replace('_', '-')}))"
                               + (f" (the other is at line {first})" if line and first else ""),
                               re.compile(r"\]\(" + re.escape(src)), occurrence=2, line=line,
                               after=after)
        try:
            return name, self.resolve(name)
        except KeyError:
            raise ContentError(f"figure '{name}' is not made by the build (no function of "
                               f"sqrtdk/figures/ is registered as @figure(\"{name}\", …)); "
                               + suggest(name, self.known, "figures") + " (for a new figure, "
                               "write and register its drawing first: README, \"Add a figure\")",
                               _needle(img), line=line, after=after) from None


    def _raw_title(self, img: etree.Element) -> str:
        """The caption as written: Markdown has already turned links inside an image title
        into plain text (links are matched before images), so read it from the source, from
        the image's own line where it is known (`source_line`: the file line of the source's
        first line), not from the same image written earlier in raw HTML."""
        src = re.escape(img.get("src", ""))
        pattern = re.compile(r"!\[[^\]]*\]\(\s*" + src + r'\s+"((?:[^"\\]|\\.)*)"\s*\)')
        skip = max(self.positions.line(img) - self.source_line, 0)
        start = sum(len(x) + 1 for x in self.source.split("\n")[:skip])
        m = pattern.search(self.source, start) or pattern.search(self.source)
        return m.group(1).replace('\\"', '"') if m else ""


def _inline(md: Markdown, el: etree.Element) -> None:
    """Run Markdown's inline patterns (emphasis, code, links, smart quotes) on `el`'s text."""
    holder = etree.Element("div")
    holder.append(el)
    InlineProcessor(md).run(holder)
    holder.remove(el)


class FigureNames(Treeprocessor):
    """Each figure is named by its caption (`aria-label`, "Figure 1. Both histograms ..."), so
    that a screen reader meeting the figure hears which one it is and what it says. Chromium
    names a figure from its figcaption only when the caption is the figure's first or last
    child, and ours is followed by the table of numbers (and explainer.js's Try-it box): each
    figure was a nameless "figure". Not `aria-labelledby` the caption: a name read from
    content leaves out a formula's MathML ("On log-log axes , ..."), and while the figure's
    block is skipped off screen (content-visibility) chromium puts a space at every element
    edge ("Figure 1 ."). The label is the caption's text on one line, each formula as its
    plain text (markers.math_text, filled in at assembly), a quote as its shown text, a note's
    reference left out (md_math.spoken_text). Runs after the checks of attributes (the
    marker there is ours)."""

    def run(self, root: etree.Element) -> None:
        for fig in root.iter("figure"):
            cap = fig.find("figcaption")
            if cap is not None and fig.get("aria-label") is None:
                text = spoken_text(cap, self.md.htmlStash.rawHtmlBlocks)
                if text:
                    fig.set("aria-label", text)


def _figure_name(src: str) -> str:
    return src[:-4] if src.endswith(".svg") and "/" not in src and ":" not in src else ""


def _needle(img: etree.Element) -> tuple[str | re.Pattern[str], ...]:
    """How the image was written: `![alt](src` (more precise than the src alone), or, when
    the alt text quotes results (the file has `{{ … }}` where the page has numbers), an image
    whose source is `src`."""
    src = img.get("src", "")
    return (f"![{img.get('alt', '')}]({src}",
            re.compile(r"!\[[^\n]*\]\(\s*<?" + re.escape(src) + r"[\s>)]"))


class ScrollingTables(Treeprocessor):
    """Every table scrolls sideways inside itself when it is wider than the column (the
    stylesheet's `overflow-x: auto`); `tabindex="0"` lets a keyboard reach it and scroll it
    (WCAG 2.1.1; axe's rule scrollable-region-focusable). A tab stop needs a name (WCAG
    4.1.2), which a Markdown table (no caption) lacked: it is `aria-labelledby` its header
    row, or, when that row has no words, the heading above it (in the page's language
    either way). The row gets an id no other element of the page has: `taken()` gives the
    ids already on the page (md_collect.IdCollector's, raw HTML's included), so this runs
    after that collector, once every heading has its id. Records each table's number of
    header cells (`shapes`) and its file line (`lines`, from `positions`; 0: not known),
    which every language must share (checks.check_parity)."""

    def __init__(self, md: Markdown, taken: Callable[[], set[str]] = set,
                 positions: LineMap | None = None):
        super().__init__(md)
        self.taken = taken
        self.positions = LineMap() if positions is None else positions
        self.shapes: list[str] = []
        self.lines: list[int] = []

    def run(self, root: etree.Element) -> None:
        taken = set(self.taken()) | {el.get("id", "") for el in root.iter()}
        heading: etree.Element | None = None
        tables = 0
        for el in root.iter():
            if el.tag in _HEADINGS and el.get("id"):
                heading = el
            if el.tag != "table":
                continue
            el.set("tabindex", "0")
            tables += 1
            row = el.find("thead/tr")
            self.shapes.append(str(len(row.findall("th")) if row is not None else 0))
            self.lines.append(self.positions.line(el))
            if row is not None and "".join(row.itertext()).strip():
                ident = row.get("id") or _free(f"table-{tables}-head", taken)
                row.set("id", ident)
                taken.add(ident)
                el.set("aria-labelledby", ident)
            elif heading is not None:
                # the heading's words (md_collect.HeadingCollector names it by them), not
                # its section link's name, which a name taken from the heading would hold
                name = heading.get("aria-labelledby") or heading.get("id") or ""
                el.set("aria-labelledby", name)


_HEADINGS = ("h2", "h3", "h4", "h5", "h6")


def _free(ident: str, taken: set[str]) -> str:
    """`ident`, or `ident-2`, `ident-3`, … : the first not in `taken`."""
    n, free = 1, ident
    while free in taken:
        n += 1
        free = f"{ident}-{n}"
    return free
