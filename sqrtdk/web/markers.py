"""The text protocol: markers that stand for what Jinja and Markdown must not see or change.

Before Markdown (and, for math and code, before Jinja) each formula, piece of code, quoted
number and claim is replaced by a marker; after Markdown, the markers are found again and
replaced by what they stand for. The markers are characters of Unicode's plane-15 private
use area (U+F0000…): KaTeX itself uses BMP private-use characters in its output (U+E020
draws the slash of \\neq), and no author types plane-15 characters. This module is the only
one that spells a marker's code point; the others make, find and replace markers through
the names below.

| marker          | made by        | stands for                           | consumed by      |
|-----------------|----------------|--------------------------------------|------------------|
| inline_math(n)  | lexer          | formula n, inline                    | md_math          |
| display_math(n) | lexer          | formula n, display                   | md_math          |
| FILLER          | lexer          | a line a formula or comment held     | md_math, md_text |
| code(n)         | lexer          | a line's piece of code n             | lexer.Masked     |
| quote(n, text)  | quoting        | quote n of the QuoteLog, shown text  | assemble, md_*   |
| claim(n)        | quoting        | claim n of the QuoteLog              | assemble, md_*   |
| math_html(n)    | md_math        | formula n's rendered HTML            | assemble         |
| math_text(n)    | md_math        | formula n as plain text (a label)    | assemble         |
| fig_data(name)  | md_figures     | figure NAME's table of numbers       | fig_tables       |
| probe(n)        | cjk_lint       | the n-th '[', found in cmark's HTML  | cjk_lint         |
| TEXT_BRACKET    | cjk_lint       | a '[' GitHub reads as text           | cjk_lint         |
| TEXT_BRACKET_CLOSE | cjk_lint    | the ']' closing such a '['           | cjk_lint         |
| NEVER           | quoting        | nothing: delimiters no text holds    | (Jinja)          |

Each table entry that records where it came from (a formula's `RawFormula.line`, a quote's or
claim's line in `QuoteLog`) lets a message name the author's line without searching the text.
"""
from __future__ import annotations

import re

# the block of code points the protocol uses (U+F0000-U+F00FF); anything in it on a page is
# a marker that was never replaced
_FIRST, _LAST = "\U000f0000", "\U000f00ff"
ANY_MARKER_RE = re.compile(f"[{_FIRST}-{_LAST}]")
ANY_MARKERS_RE = re.compile(f"[{_FIRST}-{_LAST}]+")
# every private-use character (BMP and planes 15-16): markers and anything else never shown
PRIVATE_USE_RE = re.compile("[\ue000-\uf8ff\U000f0000-\U0010ffff]")

_QUOTE_OPEN, _QUOTE_MID, _QUOTE_CLOSE = "\U000f0000", "\U000f0001", "\U000f0002"
_CLAIM_OPEN, _CLAIM_CLOSE = "\U000f0003", "\U000f0004"
_INLINE_OPEN, _INLINE_CLOSE = "\U000f0010", "\U000f0011"
_DISPLAY_OPEN, _DISPLAY_CLOSE = "\U000f0012", "\U000f0013"
FILLER = "\U000f0014"        # keeps a line that held part of a formula or a comment non-blank
_HTML_OPEN, _HTML_CLOSE = "\U000f0015", "\U000f0016"
_FIG_OPEN, _FIG_CLOSE = "\U000f0017", "\U000f0018"
_CODE_OPEN, _CODE_CLOSE = "\U000f0020", "\U000f0021"
_TEXT_OPEN, _TEXT_CLOSE = "\U000f0019", "\U000f001a"
_PROBE_OPEN, _PROBE_CLOSE = "\U000f0022", "\U000f0023"
TEXT_BRACKET = "\U000f0024"   # a '[' that is text, where a reader of links must not see one
TEXT_BRACKET_CLOSE = "\U000f0025"   # the ']' of such a '[' (nor a lone bracket to a reader)
NEVER = "\U000f00ff\U000f00fe"   # a delimiter no text holds (Jinja options that must not match)

QUOTE_RE = re.compile(f"{_QUOTE_OPEN}(\\d+){_QUOTE_MID}(.*?){_QUOTE_CLOSE}", re.S)
CLAIM_RE = re.compile(f"{_CLAIM_OPEN}(\\d+){_CLAIM_CLOSE}")
INLINE_MATH_RE = re.compile(f"{_INLINE_OPEN}(\\d+){_INLINE_CLOSE}")
DISPLAY_MATH_RE = re.compile(f"{_DISPLAY_OPEN}(\\d+){_DISPLAY_CLOSE}")
_MATH_OPENS, _MATH_CLOSES = _INLINE_OPEN + _DISPLAY_OPEN, _INLINE_CLOSE + _DISPLAY_CLOSE
ANY_MATH_RE = re.compile(f"[{_MATH_OPENS}](\\d+)[{_MATH_CLOSES}]")
MATH_SPLIT_RE = re.compile(f"([{_MATH_OPENS}]\\d+[{_MATH_CLOSES}])")   # keeps the markers
CODE_RE = re.compile(f"{_CODE_OPEN}(\\d+){_CODE_CLOSE}")
MATH_HTML_RE = re.compile(f"{_HTML_OPEN}(\\d+){_HTML_CLOSE}")
MATH_TEXT_RE = re.compile(f"{_TEXT_OPEN}(\\d+){_TEXT_CLOSE}")
FIG_DATA_RE = re.compile(f"{_FIG_OPEN}([a-z0-9_]+){_FIG_CLOSE}")
PROBE_RE = re.compile(f"{_PROBE_OPEN}(\\d+){_PROBE_CLOSE}")
# a marker cut short (its opening and digits without its closing: text sliced before its
# markers were replaced), which no message may show
_OPENS = (_QUOTE_OPEN + _CLAIM_OPEN + _MATH_OPENS + _HTML_OPEN + _FIG_OPEN + _CODE_OPEN +
          _TEXT_OPEN)
BROKEN_MARKER_RE = re.compile(
    f"[{_OPENS}]\\d*(?![\\d{_QUOTE_MID}{_CLAIM_CLOSE}{_MATH_CLOSES}{_HTML_CLOSE}"
    f"{_CODE_CLOSE}{_TEXT_CLOSE}a-z0-9_{_FIG_CLOSE}])")
# quote and claim markers without the quote's shown text (which stays)
_QUOTE_OR_CLAIM_RE = re.compile(f"{_QUOTE_OPEN}\\d+{_QUOTE_MID}|{_QUOTE_CLOSE}|"
                                f"{_CLAIM_OPEN}\\d+{_CLAIM_CLOSE}")


def inline_math(n: int) -> str:
    """The lexer's marker for formula n, written inline (`$…$`, `\\(…\\)`)."""
    return f"{_INLINE_OPEN}{n}{_INLINE_CLOSE}"


def display_math(n: int) -> str:
    """The lexer's marker for formula n, written as display math (`$$`, `\\[`, environments)."""
    return f"{_DISPLAY_OPEN}{n}{_DISPLAY_CLOSE}"


def is_display(marker: str) -> bool:
    """Whether a math marker (a match of ANY_MATH_RE) stands for display math."""
    return marker.startswith(_DISPLAY_OPEN)


def code(n: int) -> str:
    """The lexer's marker for line-piece n of code (never spans a newline)."""
    return f"{_CODE_OPEN}{n}{_CODE_CLOSE}"


def quote(n: int, text: str) -> str:
    """The marker of quote n of a page's QuoteLog around its shown text."""
    return f"{_QUOTE_OPEN}{n}{_QUOTE_MID}{text}{_QUOTE_CLOSE}"


def claim(n: int) -> str:
    """The (invisible) marker of claim n of a page's QuoteLog."""
    return f"{_CLAIM_OPEN}{n}{_CLAIM_CLOSE}"


def math_html(n: int) -> str:
    """Where formula n's rendered HTML goes (inside its math element, until assembly)."""
    return f"{_HTML_OPEN}{n}{_HTML_CLOSE}"


def math_text(n: int) -> str:
    """Where formula n's plain text goes (in an attribute, such as a header cell's label)."""
    return f"{_TEXT_OPEN}{n}{_TEXT_CLOSE}"


def fig_data(name: str) -> str:
    """Where figure `name`'s table of numbers goes (filled at assembly by fig_tables)."""
    return f"{_FIG_OPEN}{name}{_FIG_CLOSE}"


def probe(n: int) -> str:
    """A mark put before the n-th '[' of a text, to find that bracket in a parser's output."""
    return f"{_PROBE_OPEN}{n}{_PROBE_CLOSE}"


def has_quote_or_claim(text: str) -> bool:
    """Whether `text` holds a quote or claim marker."""
    return _QUOTE_OPEN in text or _CLAIM_OPEN in text


def strip_markers(text: str) -> str:
    """`text` without quote and claim markers, each quote's shown text kept."""
    return _QUOTE_OR_CLAIM_RE.sub("", text)


def has_math(text: str) -> bool:
    """Whether `text` holds a math marker or a FILLER."""
    return FILLER in text or ANY_MATH_RE.search(text) is not None


def line_of_marker(text: str, pattern: re.Pattern[str], first_line: int = 1
                   ) -> dict[int, int]:
    """{marker index: line} for each match of `pattern` (whose group 1 is the index) in
    `text`, whose first line is `first_line`: where each marker was written."""
    lines: dict[int, int] = {}
    line, last = first_line, 0
    for m in pattern.finditer(text):
        line += text.count("\n", last, m.start())
        last = m.start()
        lines[int(m.group(1))] = line
    return lines
