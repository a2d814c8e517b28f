"""Where each part of a page's element tree was written: the file line of every element, of
its text and of its tail, so that a mistake found while converting is reported at the line it
came from, not at the first place its words occur in the article.

Python-Markdown keeps no source positions. cmark-gfm does (`CMARK_OPT_SOURCEPOS`), and
`md_blocks.BlockStructure` matches its blocks to ours, so each block both parsers read alike
carries the line it starts on. `LineMap.record` (run there, right after Markdown's inline
patterns, before any of our processors changes the tree) gives every element inside such a
block its line by counting the line breaks of the text before it: Markdown keeps them in a
paragraph's text. Processors that later make elements (math, split paragraphs) or drop line
breaks (joined Chinese lines) tell the map (`place`, `joined`). An element inside a block the
two parsers read differently has no line (0): its message then falls back to finding its
text (see `pages._located`).
"""
from __future__ import annotations

import xml.etree.ElementTree as etree
from bisect import bisect_right
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from sqrtdk.errors import line_starts

Slot = str   # "text" (an element's own text) or "tail" (the text after it)


@dataclass(frozen=True)
class BoxLines:
    """Where the article's boxes were written (read line by line, code masked): the line of
    each box's `/// details` line in the file's order, and of its `attrs:` option (which
    holds its id) by the opening line."""

    openers: Sequence[int] = ()
    attrs: Mapping[int, int] = field(default_factory=dict)

    def id_line(self, opener: int) -> int:
        """The line a box's id was written on (its `attrs:` line), else its opening line."""
        return self.attrs.get(opener, opener)


class LineMap:
    """Element -> file line (1-based; 0: not known) of its start, its text's end and its tail;
    `joined` records line breaks a processor removed from a text slot (their offsets in the
    text as it is now), so that counting line breaks stays right after them."""

    def __init__(self) -> None:
        self.starts: dict[etree.Element, int] = {}
        self.ends: dict[etree.Element, int] = {}
        self.tails: dict[etree.Element, int] = {}
        self.removed: dict[tuple[etree.Element, Slot], list[int]] = {}
        self.parents: dict[etree.Element, etree.Element] = {}
        self.floors: dict[etree.Element, int] = {}

    def record(self, root: etree.Element, blocks: Mapping[etree.Element, int],
               is_block: Callable[[str], bool],
               floors: Mapping[etree.Element, int] | None = None) -> None:
        """Give every element under `root` its line: a block's from `blocks` (file lines), an
        element inside a block from the line breaks before it; an element inside a block of
        no known line (`is_block(tag)` and not in `blocks`) gets 0, and the line it cannot
        be before (`floor`: its block's from `floors`, where the two parsers' readings part,
        else the line after the block before it ends)."""
        self._walk(root, (0, 0, 0), blocks, is_block, floors or {})

    def _walk(self, el: etree.Element, at: tuple[int, int, int],
              blocks: Mapping[etree.Element, int], is_block: Callable[[str], bool],
              floors: Mapping[etree.Element, int]) -> int:
        line, floor, below = at      # `below`: the line after the block before it, if known
        if el in blocks:
            line = floor = blocks[el]
        elif isinstance(el.tag, str) and is_block(el.tag):
            line, floor = 0, max(floors.get(el, 0), floor, below)
        self.starts[el], self.floors[el] = line, floor
        line = _after(line, el.text)
        below = 0
        for child in el:
            self.parents[child] = el
            end = self._walk(child, (line, floor, below), blocks, is_block, floors)
            self.tails[child] = end
            line = _after(end, child.tail)
            below = end + 1 if end and isinstance(child.tag, str) and is_block(child.tag) \
                else 0
        self.ends[el] = line
        return line

    def line(self, el: etree.Element) -> int:
        """The line `el` starts on; for an element made after `record`, its parent's."""
        while el not in self.starts and el in self.parents:
            el = self.parents[el]
        return self.starts.get(el, 0)

    def floor(self, el: etree.Element) -> int:
        """The line `el` cannot be before (its own where known), for a search of its text
        where its line is not known; 0: anywhere."""
        while el not in self.floors and el in self.parents:
            el = self.parents[el]
        return self.starts.get(el, 0) or self.floors.get(el, 0)

    def end(self, el: etree.Element) -> int:
        """The line `el`'s own text and children end on (an attribute list `{…}` written
        after a heading or a paragraph is on it)."""
        return self.ends.get(el, 0) or self.line(el)

    def at(self, el: etree.Element, slot: Slot, offset: int) -> int:
        """The line of character `offset` of `el`'s text or tail, as it is now."""
        first = self.starts.get(el, 0) if slot == "text" else self.tails.get(el, 0)
        if not first:
            return 0 if slot == "tail" else self.line(el)
        text = (el.text if slot == "text" else el.tail) or ""
        joins = self.removed.get((el, slot), [])
        # a long text's line breaks are counted once (line_starts keeps them), not from its
        # start for each of its many messages
        breaks = text.count("\n", 0, offset) if offset < 4096 else \
            bisect_right(line_starts(text), offset) - 1
        return first + breaks + bisect_right(joins, offset)

    def box_line(self, details: etree.Element, openers: Sequence[int]) -> int:
        """The line of the `/// details` line that opened box `details`, from `openers`
        (the line of every box's opening line, in order): the last one at or before the box's
        first element of known line (a formula in its title is on the opening line itself),
        less one for each box nested before that element; 0 if the box has no element of
        known line."""
        nested, first = 0, 0
        for el in details.iter():
            if el is not details and el.tag == "details":
                nested += 1
            elif el is not details and self.starts.get(el):
                first = self.starts[el]
                break
        at = bisect_right(openers, first) - 1 - nested if first else -1
        return openers[at] if at >= 0 else 0

    def place(self, el: etree.Element, line: int, tail: int = 0,
              parent: etree.Element | None = None) -> None:
        """Record an element a processor made: it starts on `line`, its tail on `tail`."""
        if line:
            self.starts[el] = self.ends[el] = line
        if tail:
            self.tails[el] = tail
        if parent is not None:
            self.parents[el] = parent

    def joined(self, el: etree.Element, slot: Slot, offsets: list[int]) -> None:
        """A processor removed a line break at each of `offsets` of the slot's new text."""
        if offsets:
            self.removed[(el, slot)] = sorted(offsets)


def _after(line: int, text: str | None) -> int:
    return line + text.count("\n") if line and text else line
