"""Link addresses: bare ones (`https://…`, `www.…`) in text written with CJK punctuation, and
spaces in written ones.

GitHub's extended autolinks, and pymdownx.magiclink, which makes them here, end a bare address
only at whitespace or `<`: an address followed by an ideographic full stop and more Chinese
words is linked together with them. A Chinese sentence has no space after an address, so here
the address also ends before the first CJK or fullwidth punctuation mark or space (see
`ends_address`), as the author meant, and an `http(s)://` address also starts right after CJK
punctuation or letters (inside fullwidth parentheses, say), as on GitHub. `md_blocks` compares
links with GitHub's reading after the same cut (`address_as_meant`), so this deliberate
difference is not reported as one. An address that runs straight into CJK letters is linked as
both parsers read it (letters can belong to an internationalised address), with a warning at
its line saying to write `<…>`.

`EncodedAddresses`: a space in a link's address (`[text](<https://example.com/a b>)`) is
written `%20`, and a backslash `%5C`, as GitHub writes them. `ReferenceEscapes`: a backslash
escape in a reference definition's address or title is the mark it escapes, as on GitHub.
"""
from __future__ import annotations

import logging
import re
import string
import unicodedata
import xml.etree.ElementTree as etree
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

from markdown import Markdown
from markdown.treeprocessors import Treeprocessor
from markdown.util import ETX, STX
from pymdownx.magiclink import (
    LINK_TRAILING,
    RE_AUTOLINK,
    RE_LINK,
    RE_MAIL,
    MagiclinkAutoPattern,
    MagiclinkExtension,
    MagiclinkMailPattern,
    MagiclinkPattern,
)

from ..errors import line_of, shortened
from ..log import warn
from .positions import LineMap

LOGGER = logging.getLogger("sqrtdk.web")
# quotes, the ellipsis and the dash as Chinese text uses them (East Asian width "ambiguous")
_CJK_PUNCTUATION = frozenset("\u2018\u2019\u201c\u201d\u2026\u2014")
# where magiclink lets a bare link start: after a space or one of these (its RE_LINK)
_MAGIC_BEFORE = "*_~^[('\"\x03"
_LOOKBEHIND = "(?<![^\\s*_~^[('\"\\x03])"
if _LOOKBEHIND not in RE_LINK:
    raise ImportError("pymdownx.magiclink's RE_LINK changed: review sqrtdk.web.md_autolink")
# ... and here also after CJK punctuation or letters, where GitHub starts an http(s) link too
# (inside fullwidth parentheses, or right after a CJK letter); checked in
# `CjkEndingLinkPattern.handleMatch`
_RE_LINK = RE_LINK.replace(_LOOKBEHIND, "(?<![A-Za-z0-9])")


def ends_address(c: str) -> bool:
    """Whether the character `c` ends a bare address: punctuation or a space of East Asian
    width (wide, fullwidth or halfwidth: the CJK Symbols and Punctuation block, U+3000-303F,
    and the punctuation of the Halfwidth and Fullwidth Forms, U+FF00-FFEF), or the quotes,
    ellipsis and dash Chinese text writes with general punctuation (“ ” ‘ ’ … —)."""
    return (unicodedata.east_asian_width(c) in "WFH" and unicodedata.category(c)[0] in "PZ") \
        or c in _CJK_PUNCTUATION


def wide_letter(c: str) -> bool:
    """Whether `c` is a letter of East Asian width wide or fullwidth (ideographs, kana,
    hangul, fullwidth Latin)."""
    return unicodedata.east_asian_width(c) in "WF" and unicodedata.category(c)[0] == "L"


def address_as_meant(href: str) -> str:
    """`href` up to its first character that `ends_address`, without the characters a bare
    address never ends with (`.`, `,`, `?`, …, as magiclink drops them); unchanged when it
    holds no such character."""
    cut = next((i for i, c in enumerate(href) if ends_address(c)), None)
    return href if cut is None else href[:cut].rstrip("".join(LINK_TRAILING))


class CjkEndingLinkPattern(MagiclinkPattern):  # type: ignore[misc]
    """magiclink's bare `https://…` / `www.…` link, ending before CJK punctuation too, and an
    `http(s)://` one starting after CJK punctuation or letters too; `ambiguous` collects each
    link whose text holds a wide letter (element, text)."""

    def __init__(self, pattern: str, md: Markdown | None = None) -> None:
        super().__init__(pattern, md)
        self.ambiguous: list[tuple[etree.Element, str]] = []

    def handleMatch(self, m: Any, data: str) -> Any:  # noqa: N802 (Python-Markdown's name)
        before = data[m.start(0) - 1] if m.start(0) else " "
        if not (before.isspace() or before in _MAGIC_BEFORE) and \
                (m.group("www") or not (ends_address(before) or wide_letter(before))):
            return None, None, None      # GitHub starts `www.` only after a space or `*_~(`
        end = m.end(0)
        while end < len(data) and not data[end].isspace() and not ends_address(data[end]):
            end += 1
        el, start, stop = super().handleMatch(m, data[:end])
        if el is not None and any(wide_letter(c) for c in el.text or ""):
            self.ambiguous.append((el, str(el.text)))
        return el, start, stop


class CjkMagiclinkExtension(MagiclinkExtension):  # type: ignore[misc]
    """pymdownx.magiclink with `CjkEndingLinkPattern` for bare links (`link_pattern`)."""

    def setup_autolinks(self, md: Markdown, config: dict[str, Any]) -> None:
        auto_link_pattern = MagiclinkAutoPattern(RE_AUTOLINK, md)
        auto_link_pattern.config = config
        md.inlinePatterns.register(auto_link_pattern, "autolink", 120)
        self.link_pattern = CjkEndingLinkPattern(_RE_LINK, md)
        self.link_pattern.config = config
        md.inlinePatterns.register(self.link_pattern, "magic-link", 85)
        md.inlinePatterns.register(MagiclinkMailPattern(RE_MAIL, md), "magic-mail", 84.9)


class AmbiguousAddresses(Treeprocessor):
    """A warning at its line for each bare address that runs into CJK letters (the
    `ambiguous` links of `pattern`): GitHub and this page link the letters too, which the
    author rarely means."""

    def __init__(self, md: Markdown, pattern: CjkEndingLinkPattern, source: Path,
                 text: Callable[[], str], positions: LineMap | None = None):
        super().__init__(md)
        self.pattern, self.source, self.text = pattern, source, text
        self.positions = LineMap() if positions is None else positions

    def run(self, root: etree.Element) -> None:
        for el, link in self.pattern.ambiguous:
            line = self.positions.line(el) or line_of(self.text(), link)
            meant = next((link[:i] for i, c in enumerate(link) if wide_letter(c)), link)
            warn(LOGGER, self.source, line,
                 f"the bare address '{shortened(link)}' runs straight into the letters after "
                 "it, so GitHub and this page link them too; if the address ends before them, "
                 f"write it in angle brackets, <{meant}>, or put a space after it")
        self.pattern.ambiguous.clear()


class EncodedAddresses(Treeprocessor):
    """Spaces and other whitespace in a link's address (which
    `[text](<https://example.com/a b>)` allows) percent-encoded, as GitHub writes them
    (`%20`): a raw space is not valid in an address. So is a backslash (`%5C`), typed
    (`[a](foo\\bar)`) or escaped (`foo\\\\bar`, still Markdown's placeholder here): a browser
    takes a raw one for a '/' (`foo/bar`), GitHub sends it. Links within the page (`#…`)
    are left to the id checks (a note label with a space is an error there)."""

    def run(self, root: etree.Element) -> None:
        for el in root.iter("a"):
            href = el.get("href")
            if href is None or href.startswith("#"):
                continue
            href = href.replace(_ESCAPED_BACKSLASH, "\\")
            if any(_unsafe(c) for c in href):
                el.set("href", "".join(quote(c) if _unsafe(c) else c for c in href))


class ReferenceEscapes(Treeprocessor):
    """A backslash escape in a reference definition's address or title (`[r]: /a\\(b\\)
    "t\\*"`) is the punctuation mark it escapes, as in an inline link and on GitHub:
    Python-Markdown kept the backslash there (the address `/a\\(b\\)`, sent as
    `/a%5C(b%5C)`). Runs after block parsing collected the definitions, before the inline
    patterns use them."""

    def run(self, root: etree.Element) -> None:
        references = self.md.references
        for label, (href, title) in list(references.items()):
            references[label] = (_BACKSLASH_ESCAPE.sub(r"\1", href),
                                 None if title is None else _BACKSLASH_ESCAPE.sub(r"\1", title))


_BACKSLASH_ESCAPE = re.compile("\\\\([" + re.escape(string.punctuation) + "])")
_ESCAPED_BACKSLASH = f"{STX}92{ETX}"     # Markdown's placeholder of an escaped backslash


def _unsafe(c: str) -> bool:
    """A backslash, or whitespace (not the control characters of Markdown's placeholders,
    such as the e-mail address's `\x02amp\x03`, which its postprocessors turn back into
    `&`)."""
    return c == "\\" or (c.isspace() and c not in "\x02\x03")
