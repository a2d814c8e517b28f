"""Where each block of raw HTML stands in cmark-gfm's reading: its HTML output keeps no
position for one (it writes `<!-- raw HTML omitted -->`, which `blocks` turns into an `html`
element), so a message about it named the line of the block after it. CommonMark's seven
kinds of HTML block (0.29, §4.6) tell the lines: each block starts on the first line after
what comes before it that can start one (its text, after a quote's `>` and a list item's
marker, begins with '<'), and ends where the end condition of its kind is met (its closing
tag for `<pre>`, `<script>`, `<style>`, `<textarea>`; `-->`, `?>`, `>`, `]]>` for the
others of kinds 2-5; a blank line for kinds 6 and 7), never past the start of the next
block. `place_raw_html` writes these lines into each `html` element's `data-sourcepos`, as
cmark-gfm writes them for its other blocks."""
from __future__ import annotations

import re
import xml.etree.ElementTree as etree

# CommonMark 0.29 §4.6, kinds 1-5: (how the block's first line starts, what ends the block)
_KIND_1 = ("pre", "script", "style", "textarea")
_ENDS = (("<!--", "-->"), ("<?", "?>"), ("<![CDATA[", "]]>"))
_PREFIX = " \t>"          # a blockquote's `>` and indentation before a block's text
_LIST_MARKER = re.compile(r"^(?:[-+*]|\d{1,9}[.)])[ \t]+")


def place_raw_html(root: etree.Element, lines: list[str]) -> None:
    """Give each `html` element of cmark-gfm's tree `root` (of the text `lines`) the
    `data-sourcepos` of its lines; one whose place is not known (at the start of a footnote,
    whose first line has no position) is left without."""
    starts = sorted({_lines(el)[0] for el in root.iter() if _lines(el)[0]})
    walk = _Walk(lines, starts)
    notes = [el for el in root if el.tag == "section" and "footnotes" in el.get("class", "")]
    for section in notes:      # first: the notes' lines are not the main flow's
        for note in section.iter("li"):
            walk.walk(note, None, len(lines), nested=True)
    walk.walk(root, 1, len(lines), nested=False)


def _lines(el: etree.Element) -> tuple[int, int]:
    """(first, last) line of an element's `data-sourcepos`; (0, 0) without one."""
    pos = el.get("data-sourcepos", "")
    if not pos[:1].isdigit():
        return 0, 0
    start, end = pos.split("-", 1)
    return int(start.split(":", 1)[0]), int(end.split(":", 1)[0])


class _Walk:
    """cmark-gfm's tree in document order, with the first line a raw HTML block can start on
    (`after`: the line after the block before it, or its container's first line; None: not
    known, as at the start of a note, whose first line has no position)."""

    def __init__(self, lines: list[str], starts: list[int]):
        self.lines, self.starts, self.found = lines, starts, set[int]()

    def walk(self, parent: etree.Element, after: int | None, last: int, nested: bool
             ) -> int | None:
        for el in parent:
            first, end = _lines(el)
            if el.tag == "html":
                after = self.html(el, after, last, nested) if after else None
            elif el.tag == "section" and "footnotes" in el.get("class", ""):
                continue
            elif first:
                self.walk(el, first, end, nested=True)
                after = end + 1
            else:
                after = self.walk(el, after, last, nested)
        return after

    def html(self, el: etree.Element, after: int, last: int, nested: bool) -> int:
        """Place the raw HTML block `el` at or after line `after` (the first line there that
        can start one: its text begins with '<', at the margin's indentation when the block
        is not nested, and no other block holds it); the line after the block."""
        first = next((n for n in range(after, last + 1) if n not in self.found and
                      _opens_html(self.lines[n - 1], nested)), 0)
        if not first:
            return after
        limit = min([s - 1 for s in self.starts if s > first] + [last])
        end = _end(self.lines, first, limit)
        self.found.update(range(first, end + 1))
        line = self.lines[first - 1]
        column = len(line[:line.index("<")].encode()) + 1
        el.set("data-sourcepos",
               f"{first}:{column}-{end}:{max(len(self.lines[end - 1].encode()), 1)}")
        return end + 1


def _opens_html(line: str, nested: bool) -> bool:
    """Whether `line` can be a raw HTML block's first line: its text (after a quote's '>'
    and a list item's marker) starts with '<'; at the top level, indented by 3 spaces at
    most (4 would be code)."""
    if not nested:
        return len(line) - len(line.lstrip(" ")) <= 3 and line.lstrip(" ").startswith("<")
    return _content(line).startswith("<")


def _content(line: str) -> str:
    """A line's text without a quote's '>', a list item's marker and indentation."""
    return _LIST_MARKER.sub("", line.lstrip(_PREFIX)).lstrip(_PREFIX)


def _blank(line: str) -> bool:
    return not line.strip(_PREFIX)


def _end(lines: list[str], first: int, limit: int) -> int:
    """The last line of the HTML block of CommonMark's kind that starts at line `first`,
    not past line `limit`."""
    head = _content(lines[first - 1]).lower()
    closing = next((f"</{tag}>" for tag in _KIND_1 if head.startswith(f"<{tag}") and
                    head[len(tag) + 1:len(tag) + 2] in ("", " ", "\t", ">")), None)
    closing = closing or next((end for start, end in _ENDS if head.startswith(start)), None)
    if closing is None and head.startswith("<!") and head[2:3].isalpha():
        closing = ">"
    if closing is not None:
        return next((n for n in range(first, limit + 1) if closing in _tail(lines, n, first)),
                    _trimmed(lines, limit, first))
    return next((n - 1 for n in range(first + 1, limit + 1) if _blank(lines[n - 1])), limit)


def _tail(lines: list[str], n: int, first: int) -> str:
    """Line n lowercased; the first line without its opening (`<!-->` does not end there)."""
    line = lines[n - 1].lower()
    return _content(line)[2:] if n == first else line


def _trimmed(lines: list[str], limit: int, first: int) -> int:
    return next((n for n in range(limit, first, -1) if not _blank(lines[n - 1])), first)

