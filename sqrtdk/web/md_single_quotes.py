"""Single quotes: an opening and a closing mark (U+2018, U+2019) around a quotation, the
closing mark for an apostrophe (it's, the '90s, rock 'n' roll, 'tis), as typographers set them.

- Latin pages: smarty curls each `'` by the characters beside it in its own text node, so it
  opened an elision ('tis, 'em, rock 'n' roll) and read the wrong neighbour where the text
  around was not plain letters: a quote after a slash or a comma opening a second quotation
  closed it (`'x'/'y'`, `'x','y'`), one after a link at a block's end opened (its text node
  holds the quote alone), one after a Chinese character closed. `SingleQuotes` reads each
  of smarty's single quotes beside what the reader sees around it (the text of the elements
  around, a formula or code as a letter) and sets the mark its flanking calls for (CommonMark's
  left- and right-flanking, spec 0.31, 6.2): only left-flanking opens, only right-flanking
  closes; between letters, or between blanks, smarty's choice stays.
  smarty also curls a double quote beside a single one as one piece (`"'` as U+201C U+2018);
  each is split into its own, so `md_text.EnglishQuotes` counts the double quotes right.
- CJK pages (no smarty quotes): the apostrophes are curled, and the other single quotes of
  each block are paired in order, as `md_text.CjkQuotes` pairs the double ones (an odd number
  is left as written, with a warning).

Elisions as WordPress's wptexturize lists them ('tis, 'twas, 'em, …; 'n' between two words),
decades as smarty's rule ('90s). Code and formulas are never read or changed.
"""
from __future__ import annotations

import html
import re
import unicodedata
import xml.etree.ElementTree as etree
from collections.abc import Iterator
from dataclasses import dataclass

from markdown.util import AtomicString

from .markers import ANY_MARKERS_RE, ANY_MATH_RE, QUOTE_RE
from .md_text import _CJK_CHAR, _SKIP, BLOCKS, _is_math, _QuoteBlocks

_OPEN, _CLOSE = "&lsquo;", "&rsquo;"
_SPLIT = {"&ldquo;&lsquo;": ("&ldquo;", "&lsquo;"), "&lsquo;&ldquo;": ("&lsquo;", "&ldquo;"),
          "&rsquo;&rdquo;": ("&rsquo;", "&rdquo;"), "&rdquo;&rsquo;": ("&rdquo;", "&rsquo;")}
_SHOWS = {"&ldquo;": "\u201c", "&rdquo;": "\u201d", "&lsquo;": "'", "&rsquo;": "'"}
# what a text slot holds besides letters: Markdown's stash placeholder, a backslash escape's
# placeholder, a quoted number, a formula, another marker, an ASCII single quote
_TOKEN = re.compile(f"\x02wzxhzdk:(?P<stash>\\d+)\x03|\x02(?P<escape>\\d+)\x03|"
                    f"(?P<number>{QUOTE_RE.pattern})|(?P<math>{ANY_MATH_RE.pattern})|"
                    f"{ANY_MARKERS_RE.pattern}|(?P<quote>')", re.S)
_TAG = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*")
# after an apostrophe: an elision (wptexturize's list), a decade (smarty's rule: the '90s)
_ELISION = re.compile(r"(?:tain't|twere|twas|tis|twill|til|bout|nuff|round|cause|em)(?![\w'])|"
                      r"\d\ds", re.I)
_STAND_INS = _SKIP | {"img"}     # shown as one letter: code, a picture; a formula (class math)


@dataclass(eq=False)
class _Site:
    """One single quote of a block: where it is in the block's visible text (`at`), and how
    to set it: stash entry `stash` (Latin pages), or character `offset` of a slot (CJK)."""

    at: int
    stash: int = -1
    el: etree.Element | None = None
    slot: str = ""
    offset: int = 0


class SingleQuotes(_QuoteBlocks):
    """Sets each single quote's mark (see the module docstring); `cjk`: the page's script is
    CJK (pair in order), else Latin (smarty's marks corrected by flanking)."""

    cjk = False

    def run(self, root: etree.Element) -> None:
        if not self.cjk:
            self._split_sets(root)
        for block, slots in self._blocks(root):
            visible, sites = self._visible(block)
            if self.cjk:
                # a prime (Q', y') is no quote: left as typed, as GitHub shows it
                sites = [s for s in sites if not _prime(visible, s.at)]
            if not sites:
                continue
            quotes = [s for s in sites if not self._apostrophe(visible, s)]
            if self.cjk:
                self._pair(block, slots, sites, quotes)
            else:
                self._flank(visible, sites, quotes)

    def _split_sets(self, root: etree.Element) -> None:
        """smarty's `"'` (one stash entry for two marks) as two entries."""
        stash = self.md.htmlStash.rawHtmlBlocks

        def split(m: re.Match[str]) -> str:
            n = int(m.group(1))
            entry = stash[n] if n < len(stash) else None
            if not isinstance(entry, str) or entry not in _SPLIT:
                return m.group(0)
            first, second = _SPLIT[entry]
            stash[n] = first
            return m.group(0) + self.md.htmlStash.store(second)
        for el in root.iter():
            for slot in ("text", "tail"):
                text = getattr(el, slot)
                if text and "\x02wzxhzdk:" in text and not isinstance(text, AtomicString):
                    setattr(el, slot, re.sub("\x02wzxhzdk:(\\d+)\x03", split, text))

    def _flow(self, block: etree.Element) -> Iterator[tuple[etree.Element, str] | str]:
        """The block's own text slots in reading order, and what stands for the rest: a
        letter for code, a formula or a picture, a blank for a line break or a block inside."""
        def inside(el: etree.Element) -> Iterator[tuple[etree.Element, str] | str]:
            yield el, "text"
            for child in el:
                if child.tag in BLOCKS or child.tag in ("br", "pre"):
                    yield " "
                elif child.tag in _STAND_INS or _is_math(child):
                    yield "x"
                else:
                    yield from inside(child)
                yield child, "tail"
        yield from inside(block)

    def _visible(self, block: etree.Element) -> tuple[str, list[_Site]]:
        """The block's text as the reader sees it (a blank at each end) and its quotes."""
        stash = self.md.htmlStash.rawHtmlBlocks
        out, sites, at = [" "], [], 1
        for piece in self._flow(block):
            if isinstance(piece, str):
                out.append(piece)
                at += len(piece)
                continue
            el, slot = piece
            text = getattr(el, slot) or ""
            last = 0
            for m in _TOKEN.finditer(text):
                out.append(text[last:m.start()])
                at += m.start() - last
                last = m.end()
                if m.group("stash") is not None:
                    n = int(m.group("stash"))
                    shown = _shown(stash[n] if n < len(stash) else "")
                    if not self.cjk and stash[n] in (_OPEN, _CLOSE):
                        sites.append(_Site(at, stash=n))
                elif m.group("escape") is not None:
                    shown = chr(int(m.group("escape")))
                elif m.group("quote") is not None:
                    shown = "'"
                    if self.cjk:
                        sites.append(_Site(at, el=el, slot=slot, offset=m.start()))
                elif m.group("math") is not None:
                    shown = "x"
                elif m.group("number") is not None:
                    shown = QUOTE_RE.sub(r"\2", m.group(0))        # its text
                else:
                    shown = ""                      # another marker: nothing shown
                out.append(shown)
                at += len(shown)
            out.append(text[last:])
            at += len(text) - last
        out.append(" ")
        return "".join(out), sites

    def _apostrophe(self, visible: str, site: _Site) -> bool:
        """Is the quote at `site` an apostrophe: between two letters (it's), before an
        elision or a decade after a blank or a mark, either quote of 'n' between words."""
        before, after = visible[site.at - 1], visible[site.at + 1]
        if _letter(before, self.cjk) and _letter(after, self.cjk):
            return True
        starts = not _letter(before, self.cjk)
        if starts and _ELISION.match(visible, site.at + 1):
            return True
        return _rock_n_roll(visible, site.at) or _rock_n_roll(visible, site.at - 2)

    def _flank(self, visible: str, sites: list[_Site], quotes: list[_Site]) -> None:
        """Latin: the apostrophes as U+2019; a quote only left-flanking opens, only
        right-flanking closes, else smarty's mark stays."""
        stash = self.md.htmlStash.rawHtmlBlocks
        quoting = set(quotes)       # (a list's `in` for each site: their number squared)
        for site in sites:
            if site not in quoting:
                stash[site.stash] = _CLOSE
                continue
            before, after = visible[site.at - 1], visible[site.at + 1]
            left, right = _flanking(after, before), _flanking(before, after)
            if left != right:
                stash[site.stash] = _OPEN if left else _CLOSE

    def _pair(self, block: etree.Element, slots: list[tuple[etree.Element, str]],
              sites: list[_Site], quotes: list[_Site]) -> None:
        """CJK: the apostrophes as U+2019, the `quotes` paired in order (an odd number left
        as written, with a warning)."""
        quoting = set(quotes)
        marks = {s: "\u2019" for s in sites if s not in quoting}
        if len(quotes) % 2:
            self._odd(block, slots, "left as they are", mark="'")
        else:
            marks.update({s: "\u2018\u2019"[k % 2] for k, s in enumerate(quotes)})
        for site, mark in marks.items():
            if site.el is not None:
                text = getattr(site.el, site.slot)
                setattr(site.el, site.slot, text[:site.offset] + mark + text[site.offset + 1:])


class CjkSingleQuotes(SingleQuotes):
    """`SingleQuotes` on a CJK page."""

    cjk = True


def _shown(entry: object) -> str:
    """What a stash entry shows: a quote mark, nothing for a tag (a blank for a line
    break), the character of an entity; a letter for an element."""
    if not isinstance(entry, str):
        return "x"
    if entry in _SHOWS:
        return _SHOWS[entry]
    if _TAG.match(entry):
        return " " if entry[1:3].lower() == "br" else ""
    return html.unescape(entry)


def _letter(c: str, cjk: bool) -> bool:
    """A letter or digit of a word an apostrophe joins (Latin pages: a Chinese character is
    a mark there; CJK pages: only Latin letters and digits join)."""
    return c.isalnum() and not _CJK_CHAR.match(c) and (not cjk or c.isascii())


def _flanking(beside: str, other: str) -> bool:
    """CommonMark's flanking of a mark with `beside` on one side and `other` on the
    other: left-flanking for (after, before), right-flanking for (before, after)."""
    if beside.isspace():
        return False
    return not _punctuation(beside) or other.isspace() or _punctuation(other)


def _punctuation(c: str) -> bool:
    return unicodedata.category(c)[0] in "PS" or bool(_CJK_CHAR.match(c))


def _prime(visible: str, at: int) -> bool:
    """Is the quote at `at` a prime after a one-letter name (the projected Q', K', a
    prediction y') or after a number (a step numbered 1', 12'): right after a Latin letter
    that no other letter, digit or quote comes before (so not the closing quote of 'a'), or a
    run of digits that starts the block or an opening bracket comes before, and before no
    letter or digit."""
    start = at - 1
    while start > 1 and visible[start].isascii() and visible[start].isdigit() and \
            visible[start - 1].isascii() and visible[start - 1].isdigit():
        start -= 1
    before, after = visible[start], visible[at + 1]
    ahead = visible[start - 1] if start >= 1 else " "
    if after.isascii() and after.isalnum():
        return False
    if before.isascii() and before.isdigit():
        # a number only where a block starts (a step's heading or item, '1' ...') or after
        # an opening bracket: elsewhere it may end a quotation ('\u7b2c 2')
        return start == 1 or ahead in "([\uff08"      # 1: past the blank `_visible` adds
    return before.isascii() and before.isalpha() and not (ahead.isascii() and ahead.isalnum()) \
        and ahead not in "'\u2018\u2019"


def _rock_n_roll(visible: str, at: int) -> bool:
    """Is `'n'` at `at` between two words (rock 'n' roll)?"""
    return at >= 2 and visible[at:at + 3] == "'n'" and visible[at - 1].isspace() and \
        visible[at - 2].isalpha() and visible[at + 3:at + 4].isspace() and \
        visible[at + 4:at + 5].isalpha()
