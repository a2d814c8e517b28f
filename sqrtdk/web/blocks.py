"""The block structure of a page as two parsers read it: Python-Markdown (our tree) and
GitHub's own parser, cmark-gfm (through `cmarkgfm`, the C library GitHub renders Markdown
with), so that where the two read a passage differently the author hears of it.

Each parse becomes a flat list of `Block`s in document order: a kind (p, h1…h6, ul, ol, li,
blockquote, pre, table, tr, th, td, hr, html), its nesting depth and, for blocks that hold
text, the letters and digits of that text (so inline markup, smart quotes and entities do
not count, words do). Wrappers that carry no Markdown structure (a table's thead/tbody, our
boxes' details/summary, divs) are transparent. Tight and loose lists read alike: the text of
a tight item counts as a paragraph. Footnotes are compared note by note, by label.

cmark-gfm gives each block its source position (`CMARK_OPT_SOURCEPOS`; a raw HTML block's is
found by `cmark_html`), so every Block from that side carries its line in the converted text
(1-based); ours carry 0.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import cmarkgfm
from cmarkgfm.cmark import Options

from ..html_parsing import VOID_ELEMENTS, HTMLParser
from .cmark_html import place_raw_html
from .md_emoji import emoji_text

LEAVES = {"p", "h1", "h2", "h3", "h4", "h5", "h6", "th", "td"}
CONTAINERS = {"ul", "ol", "li", "blockquote", "table", "tr"}
EMPTY = {"pre", "hr"}
TRANSPARENT = {"div", "thead", "tbody", "details", "section", "figure", "dl"}
SKIPPED = {"summary", "skip"}
_WORD = re.compile(r"\w+")
_CMARK_OPTIONS = Options.CMARK_OPT_SOURCEPOS | Options.CMARK_OPT_FOOTNOTES
_CMARK_EXTENSIONS = ["table", "autolink", "strikethrough", "tasklist"]
_OMITTED = "raw HTML omitted"


@dataclass(frozen=True)
class Block:
    """One block: `kind` (an HTML tag name, or 'html' for raw HTML), `depth` (containers
    around it), `key` (the letters and digits of its text; '' for containers, code and
    rules) and `line` (1-based line in the parsed text; 0 when the parser keeps none)."""

    kind: str
    depth: int
    key: str
    line: int = 0

    @property
    def signature(self) -> str:
        """What two parses must agree on (everything but the line)."""
        return f"{self.depth}:{self.kind}:{self.key}"


@dataclass
class Parse:
    """One parser's reading: the main flow (with the element of each block; None for the
    text of a tight list item), and each footnote's blocks (and their elements) by
    (lowercase) label."""

    blocks: list[Block]
    notes: dict[str, list[Block]]
    elements: list[etree.Element | None] = field(default_factory=list)
    note_elements: dict[str, list[etree.Element | None]] = field(default_factory=dict)


def key(text: str) -> str:
    """The letters and digits of `text` (case kept), the only part two parsers must agree on."""
    return "".join(_WORD.findall(text))


class _TreeBuilder(HTMLParser):
    """cmark-gfm's HTML as an ElementTree (raw HTML, which it omits, as an `html` element)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = etree.Element("root")
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        el = etree.SubElement(self.stack[-1], tag, {k: v or "" for k, v in attrs})
        if tag not in VOID_ELEMENTS:
            self.stack.append(el)

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID_ELEMENTS:
            return
        while len(self.stack) > 1:
            if self.stack.pop().tag == tag:
                break

    def handle_data(self, data: str) -> None:
        parent = self.stack[-1]
        children = list(parent)
        if children:
            children[-1].tail = (children[-1].tail or "") + data
        else:
            parent.text = (parent.text or "") + data

    def handle_comment(self, data: str) -> None:
        self.stack[-1].append(etree.Comment(data))


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def html_text(fragment: str) -> str:
    """The text of an HTML fragment (tags out, entities decoded)."""
    parser = _Text()
    parser.feed(fragment)
    parser.close()
    return "".join(parser.parts)


def cmark_html(source: str) -> str:
    """`source` as cmark-gfm writes it in HTML with GitHub's extensions (`cmark_tree`'s)."""
    return str(cmarkgfm.markdown_to_html_with_extensions(source, _CMARK_OPTIONS,
                                                         _CMARK_EXTENSIONS))


def cmark_tree(source: str) -> etree.Element:
    """`source` parsed by cmark-gfm with GitHub's extensions (tables, autolinks,
    strikethrough, task lists, footnotes), as an element tree with `data-sourcepos`.

    cmark-gfm writes XHTML (escaping only & < > " in text and attributes) except for three
    attributes without a value; with those given one, expat reads it in a fraction of the
    time html.parser takes. Anything expat refuses (a control character in the text) goes
    through html.parser. A block of raw HTML, which cmark-gfm writes without a position,
    gets the lines CommonMark gives it (`cmark_html`). Emoji shortcodes outside code are
    their characters, as GitHub shows them after cmark-gfm (`:smile:` as the emoji; the page's
    `md_emoji`)."""
    html = cmark_html(source)
    xhtml = html.replace(" data-footnotes>", ' data-footnotes="">').replace(
        " data-footnote-ref>", ' data-footnote-ref="">').replace(
        " data-footnote-backref ", ' data-footnote-backref="" ')
    # cmark-gfm's own output: raw HTML (a DOCTYPE, an entity declaration) is omitted from it
    parser = etree.XMLParser(target=etree.TreeBuilder(insert_comments=True))  # noqa: S314
    try:
        parser.feed(f"<root>{xhtml}</root>")
        root = parser.close()
    except etree.ParseError:
        builder = _TreeBuilder()
        builder.feed(html)
        builder.close()
        root = builder.root
    _mark_raw_html(root)
    _show_emoji(root)
    _checkbox_into_paragraph(root)
    lines = source.split("\n")
    _place_tables(root, lines)
    place_raw_html(root, lines)
    return root


def _checkbox_into_paragraph(root: etree.Element) -> None:
    """A task item of a loose list (items parted by blank lines) holds its checkbox before
    its paragraph in cmark-gfm's output (`<li><input …/> <p>done</p>`), a tight one inside
    its text: the checkbox goes to the start of that paragraph, so that `_cmark_text` reads
    the item's words as typed, `[x] done`, in one paragraph, as this Markdown does (md_foreign
    warns about the task list; the item was also told to be 'a paragraph with other blocks
    inside it', to be indented by 4 spaces)."""
    for li in root.iter("li"):
        if len(li) < 2 or li[0].tag != "input" or li[0].get("type") != "checkbox" \
                or li[1].tag != "p" or (li.text or "").strip():
            continue
        box, para = li[0], li[1]
        li.remove(box)
        box.tail = " " + (para.text or "").lstrip()
        para.text = ""
        para.insert(0, box)


_CONTAINERS = frozenset({"blockquote", "li"})


def deepest_block(source: str) -> tuple[int, int]:
    """How deep cmark-gfm's quotes, lists and list items nest in `source` at most, and the
    first line where they do (0 when none nests): where the recursive parts of the
    conversion give up (Python-Markdown's lists at a few hundred levels). cmark-gfm itself
    parses and writes them without recursion, and html.parser reads its output as a stream."""
    found = [0, 0]
    depth = 0

    class Depth(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            nonlocal depth
            if tag in _CONTAINERS:
                depth += 1
                pos = dict(attrs).get("data-sourcepos") or ""
                if depth > found[0] and (m := re.match(r"(\d+):", pos)):
                    found[:] = [depth, int(m.group(1))]

        def handle_endtag(self, tag: str) -> None:
            nonlocal depth
            if tag in _CONTAINERS:
                depth = max(depth - 1, 0)

    parser = Depth(convert_charrefs=True)
    parser.feed(cmark_html(source))
    parser.close()
    return found[0], found[1]


def _show_emoji(el: etree.Element) -> None:
    """Each shortcode in the text of `el` and its descendants, outside code, as its emoji,
    as the page shows them (one right before a code span is a role's name, as typed)."""
    if el.tag in ("code", "pre"):
        return
    children = list(el)
    if el.text:
        el.text = emoji_text(el.text, bool(children) and children[0].tag == "code")
    for k, child in enumerate(children):
        _show_emoji(child)
        if child.tail:
            child.tail = emoji_text(child.tail, k + 1 < len(children)
                                    and children[k + 1].tag == "code")


def _place_tables(root: etree.Element, lines: list[str]) -> None:
    """A table right under a paragraph line gets its header row's line: cmark-gfm gives
    such a table, its header row and its header cells the paragraph's first line (and the
    paragraph no position, '0:0-0:0'), so a message about the table named the paragraph's
    first line, and a check of its header row read the paragraph's. The header row is the
    line above the delimiter row, which is the line above the first body row (or the
    table's last line). The paragraph gets its lines, up to the header row."""
    parents = {child: parent for parent in root.iter() for child in parent}
    for table in list(root.iter("table")):
        (start, column), (end, end_column) = _span(table)
        rows = [row for row in table.iter("tr") if _span(row)[0][0]]
        if not start or not rows:
            continue
        header = (_span(rows[1])[0][0] if len(rows) > 1 else end + 1) - 2
        if not start < header <= len(lines):
            continue
        line = lines[header - 1]
        at, width = len(line) - len(line.lstrip(" \t>")) + 1, len(line.encode())
        shift = _span(rows[0])[1][1] - width   # the cells' columns count from the paragraph's
        _set(table, (header, at), (end, end_column))
        _set(rows[0], (header, at), (header, width))
        for cell in rows[0]:
            (_, first), (_, last) = _span(cell)
            _set(cell, (header, first - shift), (header, last - shift))
        siblings = list(parents.get(table, root))
        above = siblings[siblings.index(table) - 1] if siblings.index(table) else None
        if above is not None and above.tag == "p" and not _span(above)[0][0]:
            _set(above, (start, column), (header - 1, len(lines[header - 2].encode())))


def _span(el: etree.Element) -> tuple[tuple[int, int], tuple[int, int]]:
    """((line, column), (line, column)) of an element's `data-sourcepos`; zeros without."""
    pos = el.get("data-sourcepos", "")
    if not pos[:1].isdigit():
        return (0, 0), (0, 0)
    first, last = ((int(n) for n in x.split(":", 1)) for x in pos.split("-", 1))
    return (next(first), next(first)), (next(last), next(last))


def _set(el: etree.Element, first: tuple[int, int], last: tuple[int, int]) -> None:
    el.set("data-sourcepos", f"{first[0]}:{first[1]}-{last[0]}:{last[1]}")


def _mark_raw_html(root: etree.Element) -> None:
    """cmark-gfm's `<!-- raw HTML omitted -->` becomes an `html` block where it stands on a
    line of its own outside a paragraph (a block of raw HTML), an empty span elsewhere."""
    comment: object = etree.Comment
    for parent in root.iter():
        before = parent.text or ""
        for el in parent:
            if el.tag is comment and (el.text or "").strip() == _OMITTED:
                # a block of raw HTML has a line of its own; inline HTML is left as a span
                alone = not before.strip(" ") or before.endswith("\n")
                block = alone and (el.tail or "\n")[0] == "\n" and parent.tag not in LEAVES
                el.tag, el.text = ("html" if block else "span"), None
            before = el.tail or ""


def sourcepos_line(el: etree.Element) -> int:
    """The first line of a cmark-gfm element's `data-sourcepos` ('3:1-5:4' -> 3), or 0."""
    pos = el.get("data-sourcepos", "")
    return int(pos.split(":", 1)[0]) if pos[:1].isdigit() else 0


def sourcepos_end(el: etree.Element) -> int:
    """The last line of a cmark-gfm element's `data-sourcepos` ('3:1-5:4' -> 5), or 0."""
    end = el.get("data-sourcepos", "").partition("-")[2]
    return int(end.split(":", 1)[0]) if end[:1].isdigit() else 0


Classify = Callable[[etree.Element], str | None]
TextOf = Callable[[etree.Element], str]
# a tight list item's text cut where a block stands inside it: (kind, text) pieces, kind
# "text" for inline text, else the block's kind (our fences are stashed in the item's text)
Split = Callable[[str], list[tuple[str, str]]]


class Reader:
    """Flattens one parser's tree into Blocks. `classify` may name an element's kind itself
    (our stashed fences and raw HTML blocks); `text_of` gives an inline element's text."""

    def __init__(self, classify: Classify, text_of: TextOf, line: Callable[[etree.Element], int],
                 plain: Callable[[str], str] = str, split: Split = lambda t: [("text", t)],
                 code_inside: Callable[[etree.Element], int] = lambda el: 0):
        self.classify, self.text_of, self.line, self.plain = classify, text_of, line, plain
        self.split = split
        # the code blocks inside a raw HTML block (ours: fences stashed in it, which the page
        # shows as code; cmark-gfm reads each as a block of its own between raw HTML)
        self.code_inside = code_inside

    def read(self, root: etree.Element) -> Parse:
        """The main flow and the footnotes of a tree."""
        parse = Parse([], {})
        self._walk(root, 0, parse.blocks, parse)
        return parse

    def _add(self, out: list[Block], block: Block, el: etree.Element | None,
             parse: Parse) -> None:
        out.append(block)
        if out is parse.blocks:
            parse.elements.append(el)

    def _walk(self, parent: etree.Element, depth: int, out: list[Block], parse: Parse) -> None:
        run: list[str] = []
        run_line = self.line(parent)
        if parent.tag == "li":
            self._item_text(parent.text, run, depth, out, parse)
        for child in parent:
            kind = self.classify(child) or child.tag
            if _is_notes(child):
                self._notes(child, parse)
            elif kind in SKIPPED:
                pass
            elif kind in TRANSPARENT or kind in LEAVES | CONTAINERS | EMPTY | {"html"}:
                self._flush(run, depth, out, run_line, parse)
                run_line = self.line(child)
                if not (kind == "html" and out and out[-1].kind == "html"
                        and out[-1].depth == depth):
                    # raw HTML right after raw HTML is one block, however each parser cuts
                    # it (`<div>…</div>` then `<div>…</div>` on the next line: one to
                    # cmark-gfm, which ends it at a blank line; two to Python-Markdown)
                    self._block(child, kind, depth, out, parse)
            elif parent.tag == "li":       # inline content of a tight list item
                run.append(self.text_of(child))
            if parent.tag == "li":
                self._item_text(child.tail, run, depth, out, parse)
        self._flush(run, depth, out, run_line, parse)

    def _item_text(self, text: str | None, run: list[str], depth: int, out: list[Block],
                   parse: Parse) -> None:
        """A tight list item's inline text joins `run`; a block inside it (`split`) ends
        the run and is a block of its own."""
        for kind, piece in self.split(text or ""):
            if kind == "text":
                run.append(piece)
            else:
                self._flush(run, depth, out, 0, parse)
                self._add(out, Block(kind, depth, "", 0), None, parse)

    def _block(self, el: etree.Element, kind: str, depth: int, out: list[Block],
               parse: Parse) -> None:
        if kind in TRANSPARENT:
            self._walk(el, depth, out, parse)
        elif kind in LEAVES:
            text = key(self.plain(self.inline_text(el)))
            self._add(out, Block(kind, depth, text, self.line(el)), el, parse)
        elif kind in CONTAINERS:
            self._add(out, Block(kind, depth, "", self.line(el)), el, parse)
            self._walk(el, depth + 1, out, parse)
        else:
            self._add(out, Block(kind, depth, "", self.line(el)), el, parse)
            if kind == "html" and (fences := self.code_inside(el)):
                for _ in range(fences):
                    self._add(out, Block("pre", depth, "", 0), None, parse)
                self._add(out, Block("html", depth, "", 0), None, parse)

    def inline_text(self, el: etree.Element) -> str:
        parts = [el.text or ""]
        for child in el:
            parts += [self.text_of(child), child.tail or ""]
        return "".join(parts)

    def _flush(self, run: list[str], depth: int, out: list[Block], line: int,
               parse: Parse) -> None:
        text = key(self.plain("".join(run)))
        if text:
            self._add(out, Block("p", depth, text, line), None, parse)
        run.clear()

    def _notes(self, section: etree.Element, parse: Parse) -> None:
        for li in section.iter("li"):
            ident = li.get("id", "")
            if ident.startswith("fn-"):
                note = Parse([], parse.notes)
                self._walk(li, 0, note.blocks, note)
                kept = [i for i, b in enumerate(note.blocks) if b.kind != "li"]
                parse.notes[ident[3:].lower()] = [note.blocks[i] for i in kept]
                parse.note_elements[ident[3:].lower()] = [note.elements[i] for i in kept]


def _is_notes(el: etree.Element) -> bool:
    """Python-Markdown's `div.footnote` or cmark-gfm's `section.footnotes`."""
    return el.tag in ("div", "section") and el.get("class", "") in ("footnote", "footnotes")


def inline_text(el: etree.Element, skip: Callable[[etree.Element], bool],
                code: Callable[[str], str] = str) -> str:
    """The text of an inline element, without the parts `skip` rejects (footnote links);
    `code` turns a `<code>`'s own text into its characters (Python-Markdown keeps a code
    span's text escaped, `&lt;`, in its tree)."""
    if skip(el):
        return ""
    parts = [code(el.text or "") if el.tag == "code" else el.text or ""]
    for child in el:
        parts += [inline_text(child, skip, code), child.tail or ""]
    return "".join(parts)


def is_footnote_link(el: etree.Element) -> bool:
    """A footnote reference or back-reference (numbered differently by the two parsers)."""
    classes = el.get("class", "").split()
    return "footnote-ref" in classes or "footnote-backref" in classes


_BOX_LINE = re.compile(r"[ \t>]*///")
_DEFINITION_LINE = re.compile(r"[ \t>]*:[ \t]")
_FENCE_LINE = re.compile(r"[ \t>]*(?:`{3,}|~{3,})[ \t]*")


def cmark_reader(lines: list[str]) -> Reader:
    """A Reader of cmark-gfm's tree of the text `lines`, each block with its line.
    Paragraphs that are our own syntax to cmark-gfm (a `///` box line, a definition list's
    `:   …` line, and its term a blank line above it) are left out: their content is
    compared, not their markers. So is a table
    row that is a `///` line: GitHub reads a box's closing line right under a table's last
    row as one more row, and this Markdown closes the box there."""

    def classify(el: etree.Element) -> str | None:
        first, pos = sourcepos_line(el), el.get("data-sourcepos", "")
        if el.tag == "tr" and first and 0 < first <= len(lines) and \
                _BOX_LINE.match(lines[first - 1]):
            return "skip"
        if el.tag != "p" or not first:
            return None
        last = int(pos.split("-", 1)[1].split(":", 1)[0])
        own = lines[first - 1:last]
        if _BOX_LINE.match(own[0]):
            return "skip"
        if any(_DEFINITION_LINE.match(x) for x in own) and not (
                _DEFINITION_LINE.match(own[0]) and _after_fence(lines, first)):
            return "skip"
        if _term_above_definition(lines, own[0], last):
            return "skip"
        return None
    return Reader(classify, _cmark_text, sourcepos_line)


def _term_above_definition(lines: list[str], first: str, last: int) -> bool:
    """Whether the paragraph whose first line is `first` and whose last is 1-based line
    `last` is a definition's term a blank line above its `:   …` line (Python-Markdown's
    def_list takes the paragraph before a definition as its terms, blank lines between
    or not), at the paragraph's own indentation and quote marks."""
    after = next((x for x in lines[last:] if x.strip(" \t>")), "")
    below = _DEFINITION_LINE.match(after)
    if below is None or last >= len(lines) or lines[last].strip(" \t>"):
        return False
    return len(below.group(0)) - 2 == len(first) - len(first.lstrip(" \t>"))


def _after_fence(lines: list[str], first: int) -> bool:
    """Whether the last line with text above 1-based line `first` closes a code fence (a
    fence is never a definition's term here, md_blocks.StashTermDefList: a `:   …` line
    under one is a paragraph, as on GitHub)."""
    above = next((x for x in reversed(lines[:first - 1]) if x.strip(" \t>")), "")
    return bool(_FENCE_LINE.fullmatch(above))


def _cmark_text(el: etree.Element) -> str:
    """`inline_text` of a cmark-gfm element (footnote links left out), a task item's
    checkbox written back as the `[x]` / `[ ]` it was typed as: this Markdown keeps those
    characters as text (md_foreign warns about them), so the two readings' texts agree and
    only that warning is given."""
    if is_footnote_link(el):
        return ""
    if el.tag == "input" and el.get("type") == "checkbox":
        return "[x]" if el.get("checked") is not None else "[ ]"
    parts = [el.text or ""]
    for child in el:
        parts += [_cmark_text(child), child.tail or ""]
    return "".join(parts)


def iter_headings(blocks: list[Block]) -> Iterator[tuple[int, Block]]:
    """(level, block) of every heading of a flow, in order."""
    for b in blocks:
        if len(b.kind) == 2 and b.kind[0] == "h" and b.kind[1].isdigit():
            yield int(b.kind[1]), b
