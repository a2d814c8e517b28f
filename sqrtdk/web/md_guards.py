"""Treeprocessors that each refuse one kind of mistake, at the author's line, and change
nothing: a `///` line that is no box, raw HTML the page's Content-Security-Policy would
block, a formula inside raw HTML, template syntax left in the text."""
from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from collections.abc import Callable, Mapping
from types import MappingProxyType

from markdown import Markdown
from markdown.treeprocessors import Treeprocessor
from markdown.util import HTML_PLACEHOLDER

from ..html_parsing import HTMLParser
from .markers import ANY_MATH_RE, FILLER
from .math.formula import Formula
from .md_blocks import as_typed
from .md_foreign import (
    KRAMDOWN_TOC,
    KRAMDOWN_TOC_MESSAGE,
    OTHER_TOC,
    OTHER_TOC_MESSAGE,
    STRAIGHT,
    TEX_ACCENT,
    accented,
    admonition_instead,
    unique_id,
)
from .md_math import ContentError
from .positions import BoxLines, LineMap
from .quote_messages import BOX_NAMED, LITERAL_BRACES

_LITERAL_TEMPLATE = re.compile(r"\{\{|\}\}|\{%|%\}|\{#[^}]*#\}")
# BibTeX's accent in a name pasted from a citation, `Aky{\"{u}}rek`, `Jos{\'e}`: its '\"'
# or "\'" is a backslash escape by now (STX, the character's code, ETX)
_BIBTEX_ACCENT = re.compile(r"\{(?:\\[`'^\"~=.uvHckrbdt]|\x02(?:34|39|96|94|126|61|46)\x03)"
                            r"(?:\{[A-Za-z]\}|[A-Za-z])\}")




class BoxHeaderCheck(Treeprocessor):
    """A `///` line that pymdownx's blocks did not take as a box header (an id with a space or
    a dot, a misspelt `attrs:`, an unknown box type) would be published as text: an error."""

    def __init__(self, md: Markdown, readable: Callable[[str], str],
                 positions: LineMap | None = None, boxes: BoxLines | None = None,
                 text: Callable[[], str] = str):
        super().__init__(md)
        self.readable = readable
        self.positions = LineMap() if positions is None else positions
        self.boxes = BoxLines() if boxes is None else boxes
        self.text = text        # the article's text, as written

    def _not_taken(self, root: etree.Element) -> list[int]:
        """The opening lines (`boxes.openers`) of no box: in order, one per `///` line left
        as text (a line the line-by-line read took for a box's opening, Markdown did not)."""
        taken = {self.positions.box_line(d, self.boxes.openers) for d in root.iter("details")}
        return [line for line in self.boxes.openers if line not in taken]

    def run(self, root: etree.Element) -> None:
        for el in root.iter():
            if el.tag not in ("p", "li"):
                continue
            text = el.text or ""
            first = text.lstrip().split("\n", 1)[0]
            if first.startswith("///"):
                shown = self.readable(first)              # smart quotes and entities back
                typed = shown.translate(STRAIGHT)          # the quotes as the author typed
                # the whole first line (the element's own text stops at its first code span)
                lines = as_typed(el).lstrip().split("\n")
                whole = self.readable(lines[0]).translate(STRAIGHT)
                if re.fullmatch(r"/{3,}", whole.strip()):
                    self._closing_of_code(root, el)
                raise ContentError(
                    f"box not understood: '{whole[:40]}'; " + _option_hint(lines[1:2])
                    + "a box opens with '/// details | Title' "
                    "and its options follow on the next line, indented by four spaces, as "
                    "'    attrs: {id: some-id}' (an id is letters, digits, '-' and '_', and "
                    "starts with a letter); 'details' is the only kind of box",
                    (typed[:30], shown[:30], typed[:12]),
                    line=self.positions.at(el, "text", len(text) - len(text.lstrip()))
                    or next(iter(self._not_taken(root)), 0), after=self.positions.floor(el))


    def _closing_of_code(self, root: etree.Element, el: etree.Element) -> None:
        """A box's closing line `el` whose opening line is code: indented under an item of a
        list written right under a paragraph line, which this Markdown reads as text of that
        paragraph (the lines indented under it are code). Raises ContentError at the opening
        line, with the blank line that keeps the box in its item (its 'remove the indent'
        would take the box out of the item); returns where that is not the cause."""
        opening = next(iter(self._not_taken(root)), 0)
        source = self.text().split("\n")
        under = item_above(source, opening) if 0 < opening <= len(source) else None
        if under is None:
            return
        item, first = under
        closing = next((n for n in range(opening + 1, len(source) + 1)
                        if re.fullmatch(r"[ \t]*/{3,}[ \t]*", source[n - 1])), 0)
        written = source[opening - 1].strip()
        indent = source[opening - 1][:len(source[opening - 1]) - len(
            source[opening - 1].lstrip())]
        raise ContentError(
            f"'{written[:40]}' is indented under the list item of line {item}, but this "
            "Markdown reads that list as text of the paragraph above it (a list cannot start "
            "right under a paragraph line), so the box's lines are code and its closing line "
            f"closes nothing; put a blank line before the list, above its line {first}"
            + (f", and indent the closing '///' of line {closing} as this line is "
               f"('{indent}///')" if closing and not source[closing - 1].startswith(indent)
               else ""), written[:30], line=opening, after=self.positions.floor(el))


_OPTION = re.compile(r"[ \t]*([A-Za-z_][\w-]*)[ \t]*:[ \t]*(.*)")
_BOX_ID = re.compile(r"\{[ \t]*id[ \t]*:[ \t]*([^{}]*?)[ \t]*\}")


def _option_hint(second: list[str]) -> str:
    """What is wrong on a box's option line (the line under its `///` line), when it is one:
    a misspelt `attrs:` or an id that is no id; '' otherwise."""
    m = _OPTION.fullmatch(second[0]) if second else None
    if m is None:
        return ""
    if m.group(1) != "attrs":
        return f"'{m.group(1)}:' on the line under it is no option of a box: write 'attrs:'; "
    found = _BOX_ID.search(m.group(2))
    if found and not re.fullmatch(r"[A-Za-z][\w-]*", found.group(1)):
        return (f"the id '{found.group(1)}' is no id (a space, a dot or another character "
                "an id cannot hold): write it with letters, digits, '-' and '_'; ")
    return ""


# what the page's Content-Security-Policy (assemble.CSP) blocks, and why, by tag
_BLOCKED_TAGS = {
    "script": "would run a script, which the page's Content-Security-Policy blocks (only the "
              "site's own script files run); remove it",
    "style": "is an inline stylesheet, which the page's Content-Security-Policy blocks "
             "(style-src 'self'); put the rule in static/style.css, or use a style=\"…\" "
             "attribute on the element",
    "iframe": "embeds another page, which the page's Content-Security-Policy blocks (frames "
              "may show only this site, and the site loads nothing from others); link to it "
              "instead",
    "frame": "embeds another page, which the page's Content-Security-Policy blocks; link to "
             "it instead",
    "object": "embeds a plug-in object, which the page's Content-Security-Policy blocks "
              "(object-src 'none'); link to the file instead",
    "embed": "embeds a plug-in object, which the page's Content-Security-Policy blocks "
             "(object-src 'none'); link to the file instead",
    "base": "would change where every link of the page points, which the page's "
            "Content-Security-Policy blocks (base-uri 'none'); remove it",
    "form": "would submit nowhere: the page's Content-Security-Policy blocks form submission "
            "(form-action 'none'); remove it",
    "meta": "belongs in a page's head, which the build writes: in the text it shows nothing, "
            "or (http-equiv=\"refresh\") sends the reader to another address at once; "
            "remove it",
}
_RUNS_SCRIPT = _BLOCKED_TAGS["script"]


def url_scheme(url: str) -> str:
    """site_links.url_scheme (imported when used: site_links reads the converted pages)."""
    from .site_links import url_scheme as scheme
    return scheme(url)


class _BlockedFinder(HTMLParser):
    """The first thing in a raw HTML block that the page's CSP would block: (what, why)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _BLOCKED_TAGS:
            self.found.append((f"<{tag}", _BLOCKED_TAGS[tag]))
        for name, value in attrs:
            if name.startswith("on"):
                self.found.append((name, _RUNS_SCRIPT))
            if name in ("href", "src", "action", "formaction", "data") and \
                    url_scheme(value or "") == "javascript":
                plain = (value or "").strip().lower().startswith("javascript:")
                self.found.append((f"{name}=\"javascript:" if plain else f"{name}=\"",
                                   _RUNS_SCRIPT))


class RawHtmlGuard(Treeprocessor):
    """Raw HTML the page's Content-Security-Policy would block (scripts, inline event
    handlers, javascript: URLs, inline stylesheets, frames, plug-ins, <base>, forms) is
    refused at its line (where its placeholder stands in the tree, from `positions`), with
    the policy's reason. It also takes out of every raw block the FILLERs that stand on the
    lines a comment held inside it (`comments`; the math step removes them from Markdown's
    text, which a stashed block never passes through)."""

    def __init__(self, md: Markdown, positions: LineMap | None = None,
                 text: Callable[[], str] | None = None):
        super().__init__(md)
        self.positions = LineMap() if positions is None else positions
        self.text = text        # the article's lines, to check the line found

    def run(self, root: etree.Element) -> None:
        stash = self.md.htmlStash.rawHtmlBlocks
        for n, block in enumerate(stash):
            if isinstance(block, str) and FILLER in block:
                stash[n] = block.replace(FILLER, "")
        for n, block in enumerate(self.md.htmlStash.rawHtmlBlocks):
            finder = _BlockedFinder()
            finder.feed(str(block))
            if finder.found:
                what, why = finder.found[0]
                line, after = self._line(root, n)
                line = self._own_line(what, line, str(block))
                raise ContentError(f"raw HTML '{what}…' {why}", re.compile(re.escape(what), re.I),
                                   line=line, after=after)

    def _own_line(self, what: str, line: int, block: str) -> int:
        """The line of `what` in the raw block whose placeholder is at `line`, which is the
        block's first line, or, for a block that GitHub reads as several (nbconvert's
        `<div>` holding `<style scoped>` and blank lines), the line of one of them: `what`'s
        own line in the block counted from `line` when it holds `what`, else the first line
        holding it from as many lines up as the block has."""
        if self.text is None or not line:
            return line
        lines, found = self.text().split("\n"), re.compile(re.escape(what), re.I)
        own = found.search(block)
        below = line + (block[:own.start()].count("\n") if own else 0)
        if below <= len(lines) and found.search(lines[below - 1]):
            return below
        span = block.count("\n") + 1
        return next((k for k in range(max(1, line - span), min(line + span, len(lines)) + 1)
                     if found.search(lines[k - 1])), line)

    def _line(self, root: etree.Element, n: int) -> tuple[int, int]:
        """(line, the line it cannot be before) of stash entry `n`'s placeholder in the tree
        ((0, 0): not in the tree)."""
        placeholder = HTML_PLACEHOLDER % n
        for el in root.iter():
            for slot in ("text", "tail"):
                at = ((el.text if slot == "text" else el.tail) or "").find(placeholder)
                if at >= 0:
                    return self.positions.at(el, slot, at), self.positions.floor(el)
        return 0, 0


class MathInRawHtml(Treeprocessor):
    """A formula inside a raw HTML block: Markdown leaves such a block as written, so the
    formula would never be typeset (its placeholder would reach the page). An error at the
    formula's own line (`RawFormula.line`); inside an indented code block under another tool's
    box line (MkDocs' `??? note`, `!!! tip`), at that line, naming it."""

    def __init__(self, md: Markdown, text: Callable[[], str], formulas: list[Formula],
                 readable: Callable[[str], str] = str,
                 raw_html: Callable[[], range] = lambda: range(0),
                 box_titles: Mapping[str, str] = MappingProxyType({})):
        super().__init__(md)
        self.text, self.formulas, self.readable = text, formulas, readable
        self.raw_html = raw_html     # the stash's entries that are raw HTML blocks
        self.box_titles = box_titles    # the page language's titles of boxes (box_title)
        self._ids: set[str] = set()     # the page's ids and those told so far

    def run(self, root: etree.Element) -> None:
        self._ids = {str(el.get("id")) for el in root.iter() if el.get("id")}
        found: list[ContentError] = []      # every such block is told, in one build
        for n, block in enumerate(self.md.htmlStash.rawHtmlBlocks):
            try:
                self._check(n, block)
            except ContentError as e:
                found.append(e)
        if found:
            raise ContentError.with_more(found)

    def _check(self, n: int, block: str | etree.Element) -> None:
        """ContentError when stashed block `n` holds a formula."""
        m = ANY_MATH_RE.search(str(block))
        if m is None:
            return
        at = self.formulas[int(m.group(1))].line
        # Markdown's indented code (stashed by the highlighter), not a raw <pre> block
        if str(block).lstrip().startswith("<pre") and n not in self.raw_html():
            opener = self._box_line(at)
            if opener:
                number, written = opener
                tab = _CONTENT_TAB.match(written) is not None
                what = "an MkDocs content tab" if tab else "MkDocs' admonition syntax"
                # an admonition is told the lines of its box, as its warning tells them
                # (it said "a '/// details | Title' box": followed, a box without an id
                # stopped the next build)
                instead = ("the variants one after another, each under its own heading or in "
                           + BOX_NAMED if tab else admonition_instead(
                               written.lstrip(" \t>"),
                               lambda slug: unique_id(slug, self._ids), self.box_titles))
                raise ContentError(f"'{written}' is {what}, which is not understood here: its "
                                   f"indented body, with the formula {m.group(0)}, would be "
                                   f"published as a code block; write {instead}", line=number)
            if (under := self._item_above(at)) is not None:
                item, first = under
                raise ContentError(f"formula {m.group(0)} is inside an indented code block: "
                                   f"it is indented under the list item of line {item}, but "
                                   "this Markdown reads that list as text of the paragraph "
                                   "above it (a list cannot start right under a paragraph "
                                   "line), so the indented lines are code; put a blank line "
                                   f"before the list, above its line {first}",
                                   m.group(0), line=at)
            raise ContentError(f"formula {m.group(0)} is inside an indented code block (a "
                               "line indented by four spaces is code); for code use a "
                               "fence (```), for text and math remove the indent",
                               m.group(0), line=at)
        # the block as the author wrote it (its formulas back) before it is cut short
        start = " ".join(self.readable(str(block)).split())[:30]
        how = ("for code, use a fence (```), inside which '$' is a dollar sign"
               if str(block).lstrip().startswith("<pre") else
               f"write the passage in Markdown ({BOX_NAMED} for a collapsible one), "
               "or keep the formula out of the HTML")
        raise ContentError(f"formula {m.group(0)} is inside raw HTML ('{start}…'), which "
                           f"Markdown leaves as written, so it is never typeset; {how} (a "
                           "dollar sign inside HTML is written '&#36;')", m.group(0), line=at)

    def _box_line(self, at: int) -> tuple[int, str] | None:
        """(line, text) of an admonition's or content tab's line right above the indented
        block holding line `at`, if there is one."""
        lines = self.text().split("\n")
        indent = len(lines[at - 1]) - len(lines[at - 1].lstrip()) if at else 0
        k = at - 2
        while k >= 0 and (not lines[k].strip() or len(lines[k]) - len(lines[k].lstrip()) >= indent):
            k -= 1
        if at and k >= 0 and (_ADMONITION.match(lines[k]) or _CONTENT_TAB.match(lines[k])):
            return k + 1, lines[k].strip()
        return None


    def _item_above(self, at: int) -> tuple[int, int] | None:
        """`item_above` in the article's text."""
        return item_above(self.text().split("\n"), at)


def item_above(lines: list[str], at: int) -> tuple[int, int] | None:
    """(line of the item, line of the list's first item) when the indented block holding
    line `at` (1-based, of `lines`) is indented under a list item of a list written right
    under a paragraph line (which this Markdown reads as text of that paragraph, so the
    indented lines are code); else None."""
    k = at - 2
    while k >= 0 and (not lines[k].strip() or _indent(lines[k]) >= 4):
        k -= 1
    if k < 0 or not _LIST_ITEM.match(lines[k]):
        return None
    first = k
    for j in range(k - 1, -1, -1):
        if not lines[j].strip():
            return None         # a blank line above the list: a list here too
        if _LIST_ITEM.match(lines[j]):
            first = j
        elif _indent(lines[j]) == 0:
            # a paragraph's line right above the list (not a heading's, a fence's)
            return None if _NOT_PARAGRAPH.match(lines[j]) else (k + 1, first + 1)
    return None


def _indent(line: str) -> int:
    return len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip(" "))


_LIST_ITEM = re.compile(r" {0,3}(?:[-*+]|\d{1,9}[.)])[ \t]")
_NOT_PARAGRAPH = re.compile(r"#{1,6}(?:[ \t]|$)|`{3,}|~{3,}|>|<|\||\$\$")


_ADMONITION = re.compile(r"^[ \t>]*(?:!!!|\?\?\?\+?)[ \t]+\w+")
# MkDocs' content tab, `=== "PyTorch"`, whose body is indented as an admonition's
_CONTENT_TAB = re.compile(r"^[ \t>]*===\+?[ \t]+\S")


# a TeX command with an argument, `\frac{`, `\sqrt{`, `\operatorname{`
_TEX_COMMAND = re.compile(r"\\[A-Za-z]+\{")


SLIDE_ROW = ("'<![a](x.jpg),![b](y.jpg)>' is Markdown Nice's slide row (pictures that slide "
             "sideways in a WeChat post), which this Markdown and GitHub show as '<', the "
             "pictures and '>'; write each picture as a paragraph of its own, a figure the "
             "build draws (![what it shows](NAME.svg \"Caption\")) or a link to where it is "
             "published, [what it shows](address), without the '<', the commas and the '>'")
# the commas between a slide row's pictures: typed, or full-width
_SLIDE_COMMAS = frozenset({",", "\uff0c"})


def _slide_row(p: etree.Element) -> bool:
    """Whether paragraph (or tight list item) `p` is Markdown Nice's slide row,
    `<![a](x.jpg),![b](y.jpg)>`: pictures only, after a '<', parted by commas, before a '>'."""
    pictures = list(p)
    if not pictures or any(child.tag != "img" for child in pictures):
        return False
    between = [(child.tail or "").strip() for child in pictures]
    return ((p.text or "").strip() == "<" and between[-1] == ">"
            and all(comma in _SLIDE_COMMAS for comma in between[:-1]))


class LeftoverCheck(Treeprocessor):
    """Template syntax that reached the text unevaluated (`{{x}}` without spaces after a
    code edit, `{#comment#}` without its spaces), and another tool's table of contents
    (kramdown's `{:toc}`, a paragraph `[TOC]`), are errors, not published, at their line
    (from `positions`)."""

    def __init__(self, md: Markdown, positions: LineMap | None = None,
                 text: Callable[[], str] | None = None):
        super().__init__(md)
        self.positions = LineMap() if positions is None else positions
        self.text = text        # the article's lines, to check the line found

    def run(self, root: etree.Element) -> None:
        for el in root.iter():
            whole = "".join(el.itertext()).strip() if el.tag == "p" else ""
            if el.tag in ("p", "li") and _slide_row(el):
                raise ContentError(SLIDE_ROW, re.compile(r"<!\["), line=self.positions.line(el),
                                   after=self.positions.floor(el))
            if OTHER_TOC.fullmatch(whole):
                typed = next((t for t in el.itertext() if t.strip()), whole).strip()
                raise ContentError(OTHER_TOC_MESSAGE.format(whole if "@" not in whole
                                                            else "@[TOC](…)"),
                                   re.compile(re.escape(typed), re.I),
                                   line=self.positions.line(el), after=self.positions.floor(el))
            for name in ("alt", "title") if el.tag == "img" else ():
                # a picture's alt text and title are no text slots, but are published
                if m := _LITERAL_TEMPLATE.search(el.get(name) or ""):
                    raise ContentError(f"template syntax '{m.group(0)}' left in the picture's "
                                       f"{'alt text' if name == 'alt' else 'title'}; quote a "
                                       "result as '{{ name | fixed(2) }}'; " + LITERAL_BRACES
                                       + " (a backslash does not escape them)", m.group(0),
                                       line=self.positions.line(el),
                                       after=self.positions.floor(el))
            for slot in ("tail",) if el.tag in ("code", "pre") else ("text", "tail"):
                text = (el.text if slot == "text" else el.tail) or ""
                if toc := KRAMDOWN_TOC.search(text):
                    raise ContentError(KRAMDOWN_TOC_MESSAGE, KRAMDOWN_TOC,
                                       line=self.positions.at(el, slot, toc.start()),
                                       after=self.positions.floor(el))
                m = _LITERAL_TEMPLATE.search(text)
                if m:
                    found = m.group(0)
                    hint = ("a template comment is written '{# … #}' with spaces"
                            if found.startswith("{#") else
                            "quote a result as '{{ name | fixed(2) }}'; " + LITERAL_BRACES
                            + " (a backslash does not escape them)")
                    if _BIBTEX_ACCENT.search(text):
                        # the letter this accent writes (it said 'ü', its example's, for
                        # every accent: 'Jos{\'{e}}' too)
                        letter = next((a for m in TEX_ACCENT.finditer(text)
                                       if (a := accented(m))), "")
                        hint = ("it is a BibTeX accent (a name pasted from a citation, "
                                "'Aky{\\\"{u}}rek'): write the letter itself"
                                + (f", '{letter}'" if letter else "") + "; else " + hint)
                    elif _TEX_COMMAND.search(text):
                        # `\frac{a}{\sqrt{d_k}}` outside math: a formula another tool
                        # marked (reStructuredText's `.. math::`, AsciiDoc's `[stem]`)
                        hint = ("it stands in TeX outside a formula (a reStructuredText "
                                "'.. math::' block, AsciiDoc's '[stem]' block, a formula "
                                "without its dollars?): write the formula between two '$$' "
                                "lines, or '$…$' in a sentence; else " + hint)
                    raise ContentError(f"template syntax '{found[:20]}' left in the text; {hint}",
                                       found, line=self.positions.at(el, slot, m.start()),
                                       after=self.positions.floor(el))
