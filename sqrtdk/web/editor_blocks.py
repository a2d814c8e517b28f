"""Blocks other editors write into an article's Markdown, read from the article as written
(its comments still in it, so before `comments.drop_comments` takes them out).

- A generated contents list: VS Code's Markdown All in One and Markdown TOC write
  `<!-- TOC -->` … `<!-- /TOC -->`, markdown-toc `<!-- toc -->` … `<!-- tocstop -->`, doctoc
  `<!-- START doctoc … -->` … `<!-- END doctoc … -->`, around a list of links to the ids
  GitHub makes of the headings' text. The page draws its own contents, and the headings here
  carry the ids written after them, so each of its links would be told only as a link to a
  missing anchor: the block is told once, at its first line, as what it is (an error).
- Notion's callout: its Markdown export writes `<aside>`, an emoji (or its icon's `<img>`)
  and the text, `</aside>`, which the page shows as an unstyled aside and GitHub as bare
  text: a warning at its line giving the exact lines of the box to write.
- An anchor for the heading under it, `<a name="x"></a>` (or `<a id="x"></a>`) alone on the
  line before, or in the heading's line, as READMEs on GitHub made one: here
  every heading has the id written after it, `## Title {#x}`, and the anchor is an empty
  paragraph above it: a warning at its line giving the id to link to, or the heading to
  write with the anchor's id.
"""
from __future__ import annotations

import re
import unicodedata
import xml.etree.ElementTree as etree
from collections.abc import Callable, Iterable, Mapping
from itertools import pairwise
from pathlib import Path
from types import MappingProxyType

from ..errors import BuildError
from ..html_parsing import HTMLParser
from .blocks import cmark_tree, sourcepos_line
from .comments import comment_spans
from .md_foreign import box_slug, box_title, unique_id

_TOC_OPEN = re.compile(r"<!--[ \t]*(?:TOC\b[^\n]*?|START[ \t]+doctoc\b[^\n]*?)[ \t]*-->",
                       re.I)
_TOC_CLOSE = re.compile(r"<!--[ \t]*(?:/TOC|tocstop|END[ \t]+doctoc\b[^\n]*?)[ \t]*-->", re.I)


def generated_contents(path: Path, text: str,
                       fence_end: Callable[[list[str], int], int | None]) -> BuildError | None:
    """The error for the first generated contents list of `text` (an article, its front
    matter as blank lines: see the module docstring), at its opening comment's line; None
    when it has none. `fence_end` as for `comments.drop_comments`."""
    spans = comment_spans(path, text, fence_end)
    for n, (start, end) in enumerate(spans):
        opener = _TOC_OPEN.fullmatch(text, start, end)
        if opener is None:
            continue
        closer = next((text[s:e] for s, e in spans[n + 1:] if _TOC_CLOSE.fullmatch(text, s, e)),
                      None)
        if closer is None:
            continue
        return BuildError(path, text.count("\n", 0, start) + 1,
                          f"'{opener.group(0)}' … '{closer}' is a generated contents list "
                          "(VS Code's Markdown All in One, markdown-toc, doctoc), whose links "
                          "go to the ids GitHub makes of the headings' text; the page draws "
                          "its own contents, from the '##' and '###' headings (with the ids "
                          f"written after them): remove the block, from this line to its "
                          f"'{closer}' line")
    return None


def _emoji(text: str) -> bool:
    """Whether `text` starts with an emoji: a symbol ('\U0001f4a1'), or a character shown as
    an emoji by the variation selector after it ('\u2139\ufe0f')."""
    return unicodedata.category(text[0]) in ("So", "Sm", "Sk") or text[1:2] == "\ufe0f"


class _Callout(HTMLParser):
    """A raw HTML block's first element's name, and whether its text starts with an emoji
    or an icon's `<img>` (Notion's callout)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.first = ""
        self.marked = False
        self.text = ""
        self.emoji = ""      # the emoji its text starts with ("": an icon's <img>, or none)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if not self.first:
            self.first = tag
        elif tag == "img" and not self.text.strip():
            self.marked = True

    def handle_data(self, data: str) -> None:
        if self.first and not self.text.strip() and not self.marked and data.strip() and \
                _emoji(data.strip()):
            self.marked, self.emoji = True, data.strip()[0]
        self.text += data


# the kind of note a callout's emoji says it is: Notion's light bulb (its default), the
# warning sign, the exclamation mark, the information sign
_CALLOUT_KINDS = {"\U0001f4a1": "tip", "\u26a0": "warning", "\u2757": "important",
                  "\u2139": "note"}


def notion_callout(title: str, slug: str = "") -> str:
    """The warning for a Notion callout, its box titled `title` (`notion_callouts`) with the id
    `slug` (`notion_callouts`: one no other callout's box and no id written in the article
    has; default: the title in lower case)."""
    slug = slug or title.lower()
    return ("'<aside>' with an emoji is Notion's callout (as its Markdown export writes it), "
            "which the page shows as a plain aside, not a box, and GitHub as its bare text; "
            f"write a box in its place, these lines: '/// details | {title}', "
            f"'    attrs: {{id: {slug}}}', a blank line, the callout's text without its emoji "
            "and without '<aside>', then '///' in place of '</aside>'")


def myst_box_fences(text: str, fences: Iterable[tuple[int, str, str]],
                    titles: Mapping[str, str] = MappingProxyType({}),
                    told: Iterable[str] = ()) -> list[tuple[int, str, str]]:
    """(line, warning, id) of each fence of `text` (an article, lines as in the file) that is
    a MyST (Jupyter Book) directive for a box of text (```` ```{important} ````,
    ```` ```{admonition} Title ````; `fences`: the lexer's (line, info, code) of each
    fence): shown as code here
    and on GitHub, it is told the lines of the box to write in its place, as GitHub's alerts
    and MkDocs' admonitions are (md_foreign): titled with its argument, else its kind's title
    in the page's language (md_foreign.box_title with `titles`, strings.toml's
    [box_titles]), with an id no id the article writes, no earlier such box and none of
    `told` (ids told for other boxes) has."""
    from .lexer import myst_box, myst_directive
    lines = text.split("\n")
    taken = {next(g for g in m.groups() if g) for m in _WRITTEN_ID.finditer(text)} | set(told)
    found = []
    for line, info, code in fences:
        m = myst_directive(info)
        if m is None or not myst_box(m) or not 0 < line <= len(lines):
            continue
        fence = _FENCE_RUN.search(lines[line - 1])
        fence_text = fence.group(0) if fence else "```"
        kind = m["name"].lower().rpartition(":")[2]
        title = (m["arg"] or "").strip() or box_title(kind, titles)
        slug = box_slug(title, kind, lambda stem: unique_id(stem, taken))
        title = _as_box_title(title)
        options = [x.strip() for x in code.split("\n") if _MYST_OPTION.match(x.strip())]
        without = (f" without its option line{'s' if len(options) > 1 else ''} "
                   f"('{options[0].split()[0]} …')") if options else ""
        found.append((line, f"'{fence_text}{info}' is a MyST (Jupyter Book, Sphinx) directive, "
                      "which this Markdown does not know: the page shows its lines as code, as "
                      "GitHub does; write a box in its place, these lines: "
                      f"'/// details | {title}', '    attrs: {{id: {slug}}}', a blank line, "
                      f"the fence's text{without}, then '///' in place of its closing "
                      f"'{fence_text}'", slug))
    return found


def _as_box_title(title: str) -> str:
    """A MyST directive's argument as a box's title line takes it: as written where the math
    scanner reads it (no '$', or a formula, `Why $\\sqrt{d}$`), else each '$' written '\\$'
    (`Cost in $`, a dollar sign in the fence's info string, would stop the build)."""
    from .lexer import mask
    if "$" not in title:
        return title
    try:
        mask(Path("title.md"), title)
    except BuildError:
        return title.replace("\\$", "$").replace("$", "\\$")
    return title


# a fence's run of backticks or tildes; a MyST directive's option line, `:class: dropdown`
_FENCE_RUN = re.compile(r"`{3,}|~{3,}")
_MYST_OPTION = re.compile(r":[\w-]+:(?:\s|$)")


def callout_kind(emoji: str) -> str:
    """The kind of box for a callout that starts with `emoji`: its kind where the emoji names
    one (a light bulb, 'tip'; a warning sign, 'warning'; an exclamation mark, 'important';
    the information sign, 'note'), else 'note'."""
    return _CALLOUT_KINDS.get(emoji, "note")


# an id the article writes: a heading's or block's `{#id}`, a box's `attrs: {id: x}`, HTML's id=
_WRITTEN_ID = re.compile(r"\{[^{}\n]*#([\w-]+)|\bid:[ \t]*([\w-]+)|\bid=[\"']?([\w-]+)")


def notion_callouts(text: str, titles: Mapping[str, str] = MappingProxyType({})
                    ) -> list[tuple[int, str, str]]:
    """The line of each Notion callout in `text` (an article, lines as in the file), with the
    title of the box to write for it (its kind's, `callout_kind`, in the page's language:
    md_foreign.box_title with `titles`, strings.toml's [box_titles]) and its id (box_slug:
    the title's Latin letters in lower case, else the kind), with '-2', '-3' after it where
    another callout's box or an id the article writes has it (two callouts alike were told
    the same id: followed, the build stopped on a duplicate).
    A callout is a raw HTML block (as cmark-gfm, GitHub's parser, reads it) that starts with
    `<aside>` and an emoji or an icon."""
    if "<aside" not in text.lower():
        return []
    taken = {next(g for g in m.groups() if g) for m in _WRITTEN_ID.finditer(text)}
    lines = text.split("\n")
    found = []
    for el in cmark_tree(text).iter("html"):
        first = sourcepos_line(el)
        span = el.get("data-sourcepos", "")
        last = int(span.split("-")[1].split(":")[0]) if "-" in span else first
        parser = _Callout()
        parser.feed("\n".join(lines[first - 1:last]))
        parser.close()
        if parser.first == "aside" and parser.marked:
            kind = callout_kind(parser.emoji)
            title = box_title(kind, titles)
            slug = box_slug(title, kind, lambda stem: unique_id(stem, taken))
            found.append((first, title, slug))
    return found


class _Anchor(HTMLParser):
    """Whether an HTML fragment is one empty `<a>` with a name or an id (`<a name="x"></a>`,
    `<a id="x">`) and nothing else: that name, else ""."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.name = ""
        self.other = False
        self.anchors = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs).get("name") or dict(attrs).get("id")
        if tag == "a" and named and not self.anchors and "href" not in dict(attrs):
            self.name, self.anchors = named, 1
        else:
            self.other = True

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        self.other = self.other or tag != "a"

    def handle_data(self, data: str) -> None:
        self.other = self.other or bool(data.strip())

    def handle_comment(self, data: str) -> None:
        self.other = True


_HEADING_TAGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
# the `{…}` ending a heading's line (the lookahead: only that one is read, in linear time)
_ATTRIBUTES = re.compile(r"\{(?=[^{}\n]*\}[ \t]*$)[^{}\n]*\}[ \t]*$")
_ID_IN = re.compile(r"#([^\s=}]+)")


class _InlineAnchors(HTMLParser):
    """The empty anchors (`<a name="x"></a>`, `<a id="x"></a>`) in one line of text: each
    one's name and the offsets of its start and end in the line."""

    def __init__(self, line: str) -> None:
        super().__init__(convert_charrefs=True)
        self.line = line
        self.found: list[tuple[str, int, int]] = []
        self.open: tuple[str, int] | None = None     # an anchor opened, nothing inside yet

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs).get("name") or dict(attrs).get("id")
        self.open = (named, self.getpos()[1]) if tag == "a" and named and \
            "href" not in dict(attrs) else None

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self.open is not None:
            end = self.line.find(">", self.getpos()[1]) + 1
            self.found.append((self.open[0], self.open[1], end))
        self.open = None

    def handle_data(self, data: str) -> None:
        if data.strip():
            self.open = None


def _heading_as_written(line: str, heading: etree.Element) -> tuple[str, str | None]:
    """A heading of cmark-gfm's tree as written on its first `line` (its code and emphasis
    kept), its `{…}` left out and written with '#' (a setext heading's line of words), and
    the id in that `{…}`."""
    typed = line.strip()
    attributes = _ATTRIBUTES.search(typed)
    own = _ID_IN.search(attributes.group(0)) if attributes else None
    typed = typed[:attributes.start()].rstrip() if attributes else typed
    if not typed.startswith("#"):
        typed = "#" * int(heading.tag[1]) + " " + typed
    return typed, own.group(1) if own else None


def _anchor_advice(name: str, typed: str, own: str | None, it: str) -> str:
    """What to do with anchor `name` (`it`: 'this line', 'it') of heading `typed` (as
    `_heading_as_written` gives it, without the anchor), whose own id is `own`."""
    with_anchor = f"'{typed} {{#{name}}}'"
    if own is None:
        return f"give the heading that id, {with_anchor}, and remove {it}"
    if own == name:
        return f"remove {it}: the heading's id is the same"
    return (f"remove {it}, and link to the heading's own id, '#{own}'; or give the heading "
            f"the anchor's id, {with_anchor}, in every language, and remove {it}")


def heading_anchors(text: str) -> list[tuple[int, str]]:
    """A warning (line, message) for each empty `<a name="x"></a>` or `<a id="x"></a>` that
    is a paragraph of its own right before a heading (blank lines between or not), or is in
    the heading's line, in `text` (an article, lines as in the file, as cmark-gfm reads
    it)."""
    return [(line, message) for line, message, _, _ in _heading_anchors(text)]


def own_id_anchors(text: str) -> set[tuple[str, int]]:
    """(name, line) of each anchor `heading_anchors` tells that names the id its heading
    already has (`## Why <a name="why"></a> {#why}`): a second element of that id, which
    links to it do not need (the heading is their target)."""
    return {(name, line) for line, _, name, own in _heading_anchors(text) if name == own}


def _heading_anchors(text: str) -> list[tuple[int, str, str, str | None]]:
    """`heading_anchors`' warnings, each with the anchor's name and its heading's own id
    (None: none written)."""
    if "<a" not in text.lower():
        return []
    lines = text.split("\n")
    found: list[tuple[int, str, str, str | None]] = []
    for heading in cmark_tree(text).iter():
        if heading.tag not in _HEADING_TAGS or not sourcepos_line(heading):
            continue
        line = lines[sourcepos_line(heading) - 1]
        inside = _InlineAnchors(line)
        inside.feed(line)
        inside.close()
        for name, start, end in inside.found:
            # the heading without the anchor (and the space it leaves doubled)
            rest = line[:start].rstrip(" \t") + " " + line[end:].lstrip(" \t")
            typed, own = _heading_as_written(rest, heading)
            advice = _anchor_advice(name, typed, own, "it")
            found.append((sourcepos_line(heading),
                          f"'{line[start:end]}' in the heading is an anchor as GitHub READMEs "
                          "make one; here each heading has its own id, written after it as "
                          f"'{{#id}}' (an attribute list); {advice}", name, own))
    for parent in cmark_tree(text).iter():
        for p, heading in pairwise(parent):
            if p.tag != "p" or heading.tag not in _HEADING_TAGS or not sourcepos_line(p):
                continue
            span = p.get("data-sourcepos", "")
            first = sourcepos_line(p)
            last = int(span.split("-")[1].split(":")[0]) if "-" in span else first
            written = "\n".join(lines[first - 1:last]).strip()
            parser = _Anchor()
            parser.feed(written)
            parser.close()
            if not parser.name or parser.other:
                continue
            typed, own = _heading_as_written(lines[sourcepos_line(heading) - 1], heading)
            found.append((first, f"'{written}' right before a heading is an anchor as GitHub "
                                 "READMEs make one; here each heading has its own id, written "
                                 "after it as '{#id}' (an attribute list), and this line "
                                 "publishes an empty paragraph above it; "
                                 f"{_anchor_advice(parser.name, typed, own, 'this line')}",
                          parser.name, own))
    return sorted(found)
