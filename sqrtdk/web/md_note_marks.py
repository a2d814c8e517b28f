"""A footnote reference right after a number or a formula: its superscript number reads as
an exponent ("not 100.\u00b2" reads as 100 squared, "\u03c3 = 1.708.\u00b3" as a cube). A
warning at the reference's line, on the parsed tree (`NoteAfterNumber`).

The rule, in both languages: the reference follows, with nothing between but closing
punctuation (`. , ; :` and the full-width `\u3002\uff0c\uff1b\uff1a`, and a closing bracket
as below), a number (a digit or a number sign such as `\u00bc` or `\u00b2`, standing alone:
not the end of a word such as `H100`, `GPT-4` or `\u5b9e\u9a8c3`), a quoted result `{{ \u2026 }}`
shown as such a number, or an inline formula `$\u2026$`.

A closing bracket (`)` or `\uff09`) counts when what it closes is itself a number or a formula
(`(n = 100)`, `\uff08$\\sqrt{d_k}$\uff09`): as in algebra, a superscript after a bracket
raises the bracket. It does not when the bracket holds words (a citation, `(Vaswani et al.,
2017)`, `\uff08\u89c1\u8868 3\uff09`) or only a year (`Vaswani et al. (2017)`): that bracket is a
citation's date, not a quantity, and a note marker after a citation is where notes go.

Not prose, so never a number here: code, an address shown as a link's text (an autolink), an
image (an emoji), and the notes' own bodies."""
from __future__ import annotations

import logging
import re
import unicodedata
import xml.etree.ElementTree as etree
from collections.abc import Callable, Sequence
from pathlib import Path

from markdown import Markdown
from markdown.treeprocessors import Treeprocessor

from ..log import warn
from .markers import ANY_MARKER_RE, DISPLAY_MATH_RE, INLINE_MATH_RE, QUOTE_RE
from .positions import LineMap

LOGGER = logging.getLogger("sqrtdk.web")

# what may stand between a number and a note marker: closing punctuation (ASCII and
# full-width: ideographic full stop, fullwidth comma, semicolon, colon)
_PUNCTUATION = ".,;:\u3002\uff0c\uff1b\uff1a"
_CLOSERS = {")": "(", "\uff09": "\uff08"}
_WORD = "w"            # stands for code, an autolink, an image: a word, never a number
_BREAK = "\n"          # a block's edge or a display formula: nothing reads across it
_MATH = "\x00"         # an inline formula
_NOTE = "\x01"         # a footnote reference
_NOT_PROSE = frozenset(("code", "kbd", "samp", "pre", "img", "script", "style", "svg"))
# a year (the date of a citation) alone in brackets
_YEAR = re.compile(r"\s*(1[5-9]|20)\d\d\s*")
# a quote (its shown text: group 2), an inline formula (3), a display one (4), another marker
_MARKERS = re.compile(f"{QUOTE_RE.pattern}|{INLINE_MATH_RE.pattern}|{DISPLAY_MATH_RE.pattern}|"
                      f"{ANY_MARKER_RE.pattern}", re.S)
_HYPHENS = "-\u2010\u2011"
_SUPERSCRIPT = str.maketrans("0123456789", "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076"
                             "\u2077\u2078\u2079")


def _is_number_sign(c: str) -> bool:
    """A decimal digit or another number sign (a vulgar fraction, a superscript digit):
    Unicode's categories Nd and No. CJK numerals (category Lo) are words."""
    return unicodedata.category(c) in ("Nd", "No")


def _is_letter(c: str) -> bool:
    return unicodedata.category(c).startswith("L")


def _ends_in_number(flat: str, end: int) -> bool:
    """Whether `flat[:end]` ends in a number standing alone or an inline formula: the run of
    letters and digits it ends with holds no letter, and is not joined by a hyphen to a
    letter before it (`GPT-4`)."""
    if end <= 0:
        return False
    last = flat[end - 1]
    if last == _MATH:
        return True
    if not _is_number_sign(last):
        return False
    start = end - 1
    while start > 0 and flat[start - 1].isalnum() and flat[start - 1] not in (_MATH, _NOTE):
        start -= 1
    if any(_is_letter(c) for c in flat[start:end]):
        return False
    return not (start >= 2 and flat[start - 1] in _HYPHENS and _is_letter(flat[start - 2]))


def _bracket_counts(group: str) -> bool:
    """Whether a bracketed `group` reads as a quantity, so that a superscript after its
    bracket raises it: it ends in a number or a formula, holds no word (two letters in a row,
    or any CJK character) and is not a year alone (a citation's date)."""
    if _YEAR.fullmatch(group) or not _ends_in_number(group.rstrip(), len(group.rstrip())):
        return False
    run = 0
    for c in group:
        if _is_letter(c) and unicodedata.category(c) == "Lo":
            return False
        run = run + 1 if _is_letter(c) else 0
        if run >= 2:
            return False
    return True


def number_before(flat: str, at: int) -> int:
    """The start of the number or formula the note marker at `flat[at]` follows with at most
    closing punctuation between (see the module docstring), or -1 when it follows none.
    `flat`: a block's text, formulas as `_MATH`, code and the like as `_WORD`."""
    i = at
    while i > 0 and (flat[i - 1] in _PUNCTUATION or flat[i - 1] in _CLOSERS):
        if flat[i - 1] in _CLOSERS:
            opener, depth, j = _CLOSERS[flat[i - 1]], 0, i - 1
            while j > 0:
                j -= 1
                if flat[j] == _BREAK:          # no opener in its block
                    return -1
                if flat[j] == flat[i - 1]:
                    depth += 1
                elif flat[j] == opener:
                    if depth == 0:
                        break
                    depth -= 1
            else:
                return -1
            if flat[j] != opener or not _bracket_counts(flat[j + 1:i - 1]):
                return -1
            return j
        i -= 1
    if not _ends_in_number(flat, i):
        return -1
    if flat[i - 1] == _MATH:
        return i - 1
    start = i      # the number: its digits and signs, and the points and commas inside it
    while start > 0 and (_is_number_sign(flat[start - 1]) or (
            flat[start - 1] in ".," and start >= 2 and _is_number_sign(flat[start - 2]))):
        start -= 1
    return start


class NoteAfterNumber(Treeprocessor):
    """A warning at its line for each footnote reference right after a number or a formula
    (see the module docstring), at the line `positions` gives for the reference; `formulas`:
    the page's formulas as the author wrote them, by number (for the message); `separator`:
    the footnote extension's, between `fn` and a note's label in its address."""

    def __init__(self, md: Markdown, source: Path, formulas: Callable[[], Sequence[str]],
                 separator: str, positions: LineMap | None = None):
        super().__init__(md)
        self.separator = separator
        self.source = source
        self.formulas = formulas
        self.positions = LineMap() if positions is None else positions

    def run(self, root: etree.Element) -> None:
        flat: list[str] = []       # one character (or sentinel) a slot
        shown: list[str] = []      # what each stands for, as the author wrote it
        notes: list[tuple[int, etree.Element, etree.Element]] = []
        self._walk(root, flat, shown, notes)
        text = "".join(flat)
        for at, sup, a in notes:
            start = number_before(text, at)
            if start < 0:
                continue
            before = "".join(shown[start:at]).strip()
            href = a.get("href", "")
            label = href.split(self.separator, 1)[-1]
            number = (a.text or "").strip()
            raised = number.translate(_SUPERSCRIPT) if number.isdigit() else f"^{number}"
            bare = before.rstrip(_PUNCTUATION)
            what = "a formula" if text[start] == _MATH else \
                "a bracketed number" if text[start] in "(\uff08" else "a number"
            warn(LOGGER, self.source, self.positions.line(sup) or self.positions.floor(sup),
                 f"the note marker [^{label}] right after {what}, '{before}', reads as an "
                 f"exponent ({bare}{raised}); put it after a word: 'taken over these "
                 f"scores,[^{label}] is \u2026'")

    def _walk(self, el: etree.Element, flat: list[str], shown: list[str],
              notes: list[tuple[int, etree.Element, etree.Element]]) -> None:
        block = isinstance(el.tag, str) and self.md.is_block_level(el.tag)
        if block:
            flat.append(_BREAK)
            shown.append(" ")
        self._text(el.text, flat, shown)
        for child in el:
            tag = child.tag if isinstance(child.tag, str) else ""
            classes = (child.get("class") or "").split()
            ref = child.find("a") if tag == "sup" else None
            if tag == "div" and "footnote" in classes:
                pass                                  # the notes' own bodies
            elif ref is not None and "footnote-ref" in (ref.get("class") or "").split():
                notes.append((len(flat), child, ref))
                flat.append(_NOTE)
                shown.append("")
            elif tag in _NOT_PROSE or (tag == "a" and _autolink(child)):
                flat.append(_WORD)
                shown.append(" " if tag == "pre" else "\u2026")
            elif tag == "br":
                flat.append(" ")
                shown.append(" ")
            elif tag:
                self._walk(child, flat, shown, notes)
            self._text(child.tail, flat, shown)
        if block:
            flat.append(_BREAK)
            shown.append(" ")

    def _text(self, text: str | None, flat: list[str], shown: list[str]) -> None:
        if not text:
            return
        pos = 0
        for m in _MARKERS.finditer(text):
            for c in text[pos:m.start()]:
                flat.append(c)
                shown.append(c)
            if m.group(2) is not None:                 # a quote: its text as shown
                for c in m.group(2):
                    flat.append(c)
                    shown.append(c)
            elif m.group(3) is not None:               # an inline formula
                flat.append(_MATH)
                formulas = self.formulas()
                n = int(m.group(3))
                shown.append(f"${formulas[n]}$" if n < len(formulas) else "$\u2026$")
            elif m.group(4) is not None:               # a display formula
                flat.append(_BREAK)
                shown.append(" ")
            pos = m.end()
        for c in text[pos:]:
            flat.append(c)
            shown.append(c)


def _autolink(a: etree.Element) -> bool:
    """A link whose text is its address (`<https://\u2026>`, a bare address): not prose."""
    href, text = a.get("href", ""), "".join(a.itertext()).strip()
    return bool(text) and (text == href or href.endswith(text) or
                           href.removeprefix("mailto:") == text)
