"""The article read line by line, its code and math masked (so a line inside code is never
taken for one of these), for what Markdown would lose without a word and for where things
were written: boxes (`/// details`) opened and closed alike, a box option given once,
a note defined once, a note's later paragraph indented as part of it, and the line of each
box's opening and `attrs:` line, each note's definition and each reference definition."""
from __future__ import annotations

import logging
import re
from collections.abc import Callable
from pathlib import Path

from ..errors import BuildError, line_at
from ..log import warn

LOGGER = logging.getLogger("sqrtdk.web")
_FOOTNOTE_DEF = re.compile(r"^ {0,3}\[\^([^\]]+)\]:", re.M)
# ... also inside a list item or a quote, where both parsers read one too (Typora's
# `- [^1]: the note`, a note written as a list item)
_FOOTNOTE_DEF_IN = re.compile(r"^(?:[ \t]*+(?:[-*+]|\d{1,9}[.)])[ \t]++|[ \t]*+>[ \t]?+)*+"
                              r" {0,3}\[\^([^\]]+)\]:", re.M)     # possessive: no backtracking
_BLOCK_OPEN = re.compile(r"^[ \t]*(/{3,})[ \t]*([A-Za-z][\w-]*)")
_BLOCK_CLOSE = re.compile(r"^[ \t]*(/{3,})[ \t]*$")
# a closing line with a space no one sees (no-break, zero-width, a byte-order mark): text
# inside the box for pymdownx, which then swallows the rest of the article
_INVISIBLE = "\u00a0\u200b\u200c\u200d\u2060\ufeff\u3000"
# a box's opening lines, its id among them (without it the box stops the build)
_BOX_OPENING = "'/// details | Title' and '    attrs: {id: some-id}' under it"
_BLOCK_CLOSE_HIDDEN = re.compile(rf"^[ \t{_INVISIBLE}]*/{{3,}}[ \t{_INVISIBLE}]*$")


def check_blocks(path: Path, masked: str, written: Callable[[int], str]) -> list[int]:
    """`/// name` boxes must be closed by a line of as many slashes: an unclosed one, or one
    closed with another number (`////` under `///`, which pymdownx reads as text inside the
    box), would swallow the rest of the article. Raises BuildError at the opening line, or
    at the closing line that closes nothing (code is masked, so it is never counted), a
    message quoting a line as the author wrote it (`written`: line number -> its text).
    Returns the line of every box's opening line, in order."""
    stack: list[tuple[int, str, str]] = []
    openers: list[int] = []
    closed = 0      # the line of the last box's closing line
    for number, line in enumerate(masked.split("\n"), 1):
        if stack and not _BLOCK_CLOSE.match(line) and _BLOCK_CLOSE_HIDDEN.match(line):
            hidden = ", ".join(sorted({f"U+{ord(c):04X}" for c in line if c in _INVISIBLE}))
            raise BuildError(path, number, f"this line of slashes holds an invisible space "
                                           f"({hidden}), so it closes no box; delete it, leaving "
                                           f"'{stack[-1][2]}' alone on the line")
        if close := _BLOCK_CLOSE.match(line):
            slashes = close.group(1)
            if not stack:
                _opened_in_code(path, masked, written, closed, number)
                comment = (" ('////' … '////' is AsciiDoc's comment block: write the comment "
                           "as <!-- … -->, which the page leaves out)" if len(slashes) >= 4
                           else "")
                raise BuildError(path, number, f"'{slashes}' closes no box; remove it, or open "
                                               f"the box with {_BOX_OPENING}{comment}")
            opened, name, fence = stack[-1]
            if slashes != fence:
                raise BuildError(path, number, f"'{slashes}' does not close the '{fence} {name}' "
                                 f"box opened at line {opened}: a box closes with as many "
                                 f"slashes as it opened with; write '{fence}'")
            stack.pop()
            closed = number
        elif m := _BLOCK_OPEN.match(line):
            if m.group(2).lower() != "details":     # `/// end`, `/// note`: no box here
                typed = written(number).strip()
                raise BuildError(path, number, f"box not understood: '{typed[:40]}'; a box opens "
                                 f"with {_BOX_OPENING} ('details' is the only kind of box) "
                                 "and ends with a line of slashes alone, '///'")
            stack.append((number, m.group(2), m.group(1)))
            openers.append(number)
    if stack:
        number, name, fence = stack[-1]
        raise BuildError(path, number, f"the '{fence} {name}' box opened here is never closed; "
                                       f"end it with a line '{fence}'")
    return openers


def _opened_in_code(path: Path, masked: str, written: Callable[[int], str], after: int,
                    closing: int) -> None:
    """For a closing line (at `closing`) that closes no box: the nearest box's opening line
    after line `after` that is code (masked: indented by four spaces or a tab, an indented
    code block here and on GitHub, or inside a fence), which the author meant to open it.
    Raises BuildError at that opening line, with the indent to remove; returns if none."""
    lines = masked.split("\n")
    for number in range(closing - 1, after, -1):
        typed = written(number)
        if not _BLOCK_OPEN.match(typed) or _BLOCK_OPEN.match(lines[number - 1]):
            continue
        shown = typed.strip()[:40]
        indent = typed[:len(typed) - len(typed.lstrip(" \t"))]
        if len(indent.expandtabs(4)) < 4:
            raise BuildError(path, number, f"'{shown}' is inside a code block, not a box's "
                             f"opening, and the '///' of line {closing} closes no box; move "
                             "the box out of the code block, or show the closing line in it too")
        width = "a tab" if "\t" in indent else f"{len(indent)} spaces"
        raise BuildError(path, number, f"'{shown}' is indented by {width}, so it is an "
                         "indented code block (here and on GitHub), not a box's opening, and "
                         f"the '///' of line {closing} closes no box; remove its indent (a "
                         "box's opening line starts at the margin, its options under it "
                         "indented by four spaces)")


_OPTION_LINE = re.compile(r"^[ \t]+([A-Za-z_][\w-]*)[ \t]*:")   # `    attrs: {id: x}`


def check_box_options(path: Path, masked: str) -> dict[int, int]:
    """A box option given twice (`attrs:` on two lines under one `/// details`): the box's
    YAML keeps the last silently, so the first id vanished. Raises BuildError at the second.
    Returns the line of each box's `attrs:` option, by the line of the box's opening line."""
    lines = masked.split("\n")
    attrs: dict[int, int] = {}
    for i, line in enumerate(lines):
        if not _BLOCK_OPEN.match(line):
            continue
        seen: dict[str, int] = {}
        for j in range(i + 1, len(lines)):
            m = _OPTION_LINE.match(lines[j])
            if m is None:
                break
            if m.group(1) in seen:
                raise BuildError(path, j + 1, f"'{m.group(1)}:' is given twice for this box "
                                 f"(also at line {seen[m.group(1)]}); the box would keep only "
                                 "the last: write one line, e.g. attrs: {id: some-id}")
            seen[m.group(1)] = j + 1
        if "attrs" in seen:
            attrs[i + 1] = seen["attrs"]
    return attrs


def check_note_continuations(path: Path, masked: str) -> None:
    """A paragraph after a blank line under a note, indented by 1 to 3 spaces: it looks like
    part of the note but is read as the article's own paragraph (a note's later paragraphs are
    indented by 4). A warning at its line."""
    lines = masked.split("\n")
    note: tuple[str, int] | None = None     # (label, line) of the note being read
    blank = False
    for number, line in enumerate(lines, 1):
        if m := _FOOTNOTE_DEF.match(line):
            note, blank = (m.group(1), number), False
        elif not line.strip():
            blank = True
        elif note is not None and blank:
            indent = len(line) - len(line.lstrip(" "))
            if 1 <= indent <= 3:
                warn(LOGGER, path, number, f"this paragraph, indented by {indent} space(s) "
                     f"under the note [^{note[0]}] of line {note[1]}, is not part of the note "
                     "(a note's later paragraphs are indented by 4 spaces); indent it by 4 to "
                     "keep it in the note, or start it at the margin")
            if indent < 4:
                note = None
            blank = False
        else:
            blank = False


def check_footnote_definitions(path: Path, masked: str) -> dict[str, int]:
    """A label defined twice: Python-Markdown would silently keep the last definition.
    Returns the line of each label's definition."""
    seen: dict[str, int] = {}
    for m in _FOOTNOTE_DEF_IN.finditer(masked):
        line = line_at(masked, m.start())
        if m.group(1) in seen:
            raise BuildError(path, line, f"footnote '[^{m.group(1)}]' is defined twice, here "
                             f"and at line {seen[m.group(1)]}; keep one definition")
        seen[m.group(1)] = line
    return seen


_REFERENCE_DEF = re.compile(r"^[ \t>]{0,3}\[(?!\^)[^\]\n]+\]:[ \t]*<?([^\s>]+)", re.M)


def reference_urls(masked: str) -> dict[str, list[int]]:
    """The line of each reference definition `[label]: address`, by its address (every
    definition of an address, in order), read line by line from the article with its code
    masked."""
    urls: dict[str, list[int]] = {}
    line, at = 1, 0         # lines counted on from the definition before: linear
    for m in _REFERENCE_DEF.finditer(masked):
        line, at = line + masked.count("\n", at, m.start()), m.start()
        urls.setdefault(m.group(1), []).append(line)
    return urls
