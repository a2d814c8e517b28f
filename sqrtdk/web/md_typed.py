"""A measured number typed by hand in the prose (README, "Quote a result in the prose").

Every number the prose takes from the experiments is quoted (`{{ spread.sd_large | fixed(2) }}`)
so that it is checked and follows the results. A number copied from the built page and
typed instead ("the SD reaches 7.94") builds silently, and goes stale when a parameter or the
seed changes. `TypedNumbers`, a treeprocessor run on the final text of the page, warns at the
line of each number typed in the prose that equals a result as one of the filters would
print it (`fixed(n)`, `sig(n)`, `pct(n)`; `fixed(0)` prints a number grouped, "24,990"), naming
the quote to write. The prose: the text of paragraphs, headings, items, cells, notes and
figure captions; never a quote, a formula, code, a link's address or a figure's file name,
which are not text of the tree; not an alt text either, whose quotes are plain text by then
and cannot be told from a typed number.

False alarms are kept near zero by what counts (`typed_index`, `_significant`):

- a typed number needs 3 significant digits or more (7.94, 0.879, 87.9%, 24,990): 4, 16,
  64, 100, 0.5, 1.0, 25,000, a footnote's or a section's number have fewer. The committed
  results print about 160 three-digit forms: a number of 3 digits picked at random between
  0.1 and 10 equals one 3 to 5 times in a hundred (at 2 digits, "0.99", most would), and
  one typed on a page that quotes these results is far likelier a copied result than that
  coincidence; 4 digits would miss the copies newcomers make (7.94, 2.01);
- numbers within a dotted run (§3.2.1, 1.2.3), glued to letters (v2.11), after the name of
  what they version ("Python 3.11": `_VERSION_BEFORE`), or of 4 digits without a comma (a
  year: every filter groups thousands, "2,017") are not numbers of a result as printed;
- a result's value that is a whole number (a count, a d of the grid, an index, a scale the
  build sets) or a fraction of a power of two (1/8, the uniform share; a bin edge) is a
  constant of the argument, not a measurement; so are the theory values (`CONSTANT_PATHS`:
  √d and its ratios), the square roots of the grid's d and the usual constants
  (`_MATH`): a typed number equal to one of those at its digits ("√8 ≈ 2.83") is read as
  that constant, even where it also equals a measurement;
- candidates are single values and the first and last place of a list (`[0]`, `[-1]`, the
  places a quote may name without a warning; README); values deeper in lists (figures'
  data) are left out, and `claims`, `meta` and `reproduce` are no results a sentence quotes;
- a page that quotes no result at all (another site's article, a source document) is not
  wired to the experiments: its numbers are its own and nothing is told.
"""
from __future__ import annotations

import fnmatch
import logging
import math
import re
import xml.etree.ElementTree as etree
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from markdown import Markdown
from markdown.treeprocessors import Treeprocessor
from markdown.util import HTML_PLACEHOLDER_RE

from ..errors import line_of
from ..log import warn
from ..science.results import DIGEST
from .markers import ANY_MARKER_RE, CLAIM_RE, QUOTE_RE
from .numbers import bounds_for, format_number, honest_digits
from .positions import LineMap
from .quoting import QuoteLog

LOGGER = logging.getLogger("sqrtdk.web")
MIN_DIGITS = 3          # significant digits a typed number needs to be told (module docstring)
# sections of results.json that hold no result a sentence quotes
_NOT_QUOTED = ("claims", "meta", "reproduce", "sha256", "sweep")
# results that are constants of the argument (the theory a measurement is compared with,
# and what the build divides by), not measurements: a typed number equal to one is that
CONSTANT_PATHS = ("*theory*", "*.grid.scale.*", "two_scores.divisor", "*.max_entropy_bits",
                  "*.uniform_share", "*.band_*", "*.threshold", "*.norm_max")
# constants a text may type: pi, e, sqrt 2, sqrt 3, 1/sqrt 2, ln 2, 1/e, log2 e
_MATH = (math.pi, math.e, math.sqrt(2), math.sqrt(3), 1 / math.sqrt(2), math.log(2),
         1 / math.e, 1 / math.log(2))
_DIGITS = range(7)       # the digits of fixed() and sig() a result is printed with here
_SUPER = "⁰¹²³⁴⁵⁶⁷⁸⁹"
# a number as typed: a sign, digits (grouped by commas or not), a fraction, a power of ten
# as sig() prints it, a percent sign; not within a dotted run or glued to a letter or digit
# (ASCII: Chinese text may touch a number, "\u4e3a7.94"), but for a factor's "x" ("a 3.96x
# rise", not "3.96x2") and the hyphen of a range between numbers ("2.01-7.94"; not "1e-9");
# nor one of the Chinese units of ten thousand and a hundred million ("2.01 \u4e07" is 20,100)
NUMBER = re.compile(
    r"(?<![A-Za-z0-9_.,\u00a7#])(?<!(?<!\d)-)([-\u2212]?)(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?"
    rf"((?:[ \u00a0]?\u00d7[ \u00a0]?10[\u207b]?[{_SUPER}]+)?)"
    r"(?!x[A-Za-z0-9_]|[A-Za-wyz0-9_]|[.,]\d|[ \u00a0]?[\u4e07\u4ebf\u842c\u5104])"
    r"([ \u00a0]?[%\uff05])?")
# a version after the name of what it versions ("Python 3.11", "version 2.10"); a version is
# otherwise a dotted run (1.2.3) or glued to its letter (v3.11), which NUMBER never takes
_VERSION_BEFORE = re.compile(r"(?i)\b(?:version|release|python|numpy|pytorch|tensorflow|jax|"
                             r"node|katex|unicode|cuda|commonmark|gfm|spec)[ \u00a0]$")
# what the tree's text holds that is no text: quote, claim and other markers (a quote's
# shown number among them), the stash's placeholders, escaped characters (`\x02` 46 `\x03`)
_NOT_TEXT = re.compile(f"{QUOTE_RE.pattern}|{CLAIM_RE.pattern}|{HTML_PLACEHOLDER_RE.pattern}"
                       f"|\x02\\d+\x03|{ANY_MARKER_RE.pattern}", re.S)
# elements whose text is not prose: code, formulas (class "math"), scripts
_SKIPPED = {"code", "pre", "kbd", "samp", "script", "style", "math", "svg"}
_BLOCKS = {"p", "li", "td", "th", "dd", "dt", "h1", "h2", "h3", "h4", "h5", "h6"}


@dataclass
class TypedIndex:
    """Each number as a filter prints a result (`forms`: text -> [(dotted path as a quote
    names it, filter as written)], in the order found; a path once for each filter that prints
    the text: `fixed(3)` and `sig(4)` both print 2.008), and the constants of the argument
    (`constants`), built from the results by `typed_index`."""

    forms: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    constants: list[float] = field(default_factory=list)

    def constant(self, value: float, decimals: int) -> bool:
        """Whether `value`, typed with `decimals` decimals, is one of the constants at those
        digits (half a unit of the last digit typed)."""
        tol = 0.5 * 10.0 ** -decimals * (1 + 1e-9)
        return any(abs(c - value) <= tol for c in self.constants)


def typed_index(results: Mapping[str, Any]) -> TypedIndex:
    """The forms of every candidate result (module docstring) with `MIN_DIGITS` significant
    digits or more, printed as the filters print them (honest rounding included: the text a
    filter would show), and the constants. Cost: about twenty forms per candidate."""
    index = TypedIndex()
    bounds = results.get("meta", {}).get("bounds", {})
    candidates: list[tuple[str, float]] = []
    for section, node in results.items():
        if section not in _NOT_QUOTED:
            candidates += _candidates(node, str(section), index.constants)
    index.constants += _MATH
    for path, value in candidates:
        if _is_constant(path, value):
            index.constants.append(value)
            continue
        b = bounds_for(path.split("[", 1)[0], bounds)
        kinds = ["fixed", "sig"] + (["pct"] if 0 <= value <= 1 else [])
        for kind in kinds:
            for n in _DIGITS if kind != "sig" else _DIGITS[1:]:
                text = format_number(kind, value, honest_digits(kind, value, n, b))
                if _significant(text) >= MIN_DIGITS:
                    found = index.forms.setdefault(text, [])
                    if (path, f"{kind}({n})") not in found:
                        found.append((path, f"{kind}({n})"))
    return index


def _candidates(node: Any, path: str, constants: list[float]) -> Iterator[tuple[str, float]]:
    """(path as a quote names it, value) of single numbers and of the first and last place of
    each list of numbers under `node`; the d of a grid (a `d_k` list) adds √d and 1/√d to
    `constants`."""
    if isinstance(node, Mapping):
        for k, v in node.items():
            yield from _candidates(v, f"{path}.{k}", constants)
    elif isinstance(node, list):
        numbers = [x for x in node if _number(x)]
        if path.endswith("d_k"):
            constants += [f(float(d)) for d in numbers if d > 0
                          for f in (math.sqrt, lambda x: 1 / math.sqrt(x))]
        if numbers and len(numbers) == len(node):
            if fnmatch.fnmatchcase(path, "*theory*"):
                constants += [float(x) for x in numbers]
            yield f"{path}[0]", float(node[0])
            if len(node) > 1:
                yield f"{path}[-1]", float(node[-1])
        elif fnmatch.fnmatchcase(path, "*theory*") or fnmatch.fnmatchcase(path, "*.grid.scale*"):
            constants += [float(x) for x in _flat(node)]
    elif _number(node):
        yield path, float(node)


def _flat(node: Any) -> Iterator[float]:
    if isinstance(node, list):
        for x in node:
            yield from _flat(x)
    elif _number(node):
        yield float(node)


def _number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def _is_constant(path: str, value: float) -> bool:
    """A whole number, a small fraction of a power of two (k/2^m, |k| at most 64, m at most
    10: 1/8, 3/4, -23/4; not 49979/2, a measured 24,989.5), or a theory value."""
    return value.is_integer() or ((value * 1024).is_integer() and abs(
        (value * 1024) / math.gcd(int(value * 1024), 1024)) <= 64) or any(
        fnmatch.fnmatchcase(path.split("[", 1)[0], p) for p in CONSTANT_PATHS)


def _significant(text: str) -> int:
    """Significant digits of a number as printed or typed ("0.0379": 3; "25,000": 2;
    "1.00": 3; "87.9%": 3); of its mantissa when it has a power of ten."""
    mantissa = text.split("\u00d7", 1)[0]
    whole, dot, frac = mantissa.partition(".")
    digits = re.sub(r"\D", "", whole) + re.sub(r"\D", "", frac)
    digits = digits.lstrip("0")
    return len(digits if dot else digits.rstrip("0"))


def _normal(m: re.Match[str]) -> tuple[str, float, int] | None:
    """A typed number as the filters print it (true minus, grouped, no-break spaces around a
    power's ×, '%' without a space), its value (a share for a percentage) and its decimals;
    None for one a filter never prints (4 digits or more not grouped: a year, an id)."""
    sign, whole, frac, power, pct = m.groups()
    if "," not in whole and len(whole) >= 4:
        if len(whole) < 5:
            return None       # a year; five digits or more are grouped, as a filter does
        whole = f"{int(whole):,}"
    frac = frac or ""
    text = ("\u2212" if sign else "") + whole + frac
    if power:
        text += "\u00a0×\u00a010" + power.split("10", 1)[1]
    if pct:
        text += "%"
    value = float(text.replace(",", "").replace("\u2212", "-").rstrip("%").split("\u00a0")[0])
    decimals = len(frac) - 1 if frac else 0
    if power:
        return text, value, 99          # no constant has a power of ten
    if pct:
        return text, value / 100, decimals + 2
    return text, value, decimals


_MADE: dict[str, TypedIndex] = {}      # the index of the results with this digest


class TypedNumbers(Treeprocessor):
    """A warning at its line for each number typed in the page's prose that equals a result
    as a filter prints it (module docstring). `results`: the build's (results.json);
    `quotes`: the page's QuoteLog (which results the page quotes, and how); `text`: the
    article as written (`ArticleText.prose`), where a number of no known line is looked for
    from its block's line on."""

    def __init__(self, md: Markdown, source: Path, results: Mapping[str, Any], quotes: QuoteLog,
                 text: Callable[[], str], positions: LineMap | None = None):
        super().__init__(md)
        self.source, self.results, self.quotes, self.text = source, results, quotes, text
        self.positions = LineMap() if positions is None else positions
        self._index: TypedIndex | None = None

    def run(self, root: etree.Element) -> None:
        if not self.quotes.entries:     # a page wired to no result: its numbers are its own
            return
        self._visit(root, root)

    def _visit(self, el: etree.Element, block: etree.Element) -> None:
        """Check `el`'s text unless it is not prose, then each
        child and the text after it (`el`'s prose again)."""
        if el.tag in _SKIPPED or "math" in str(el.get("class", "")).split() or (
                el.tag == "a" and (el.text or "").strip() == el.get("href", "")):
            return          # code, a formula, a bare address shown as its own text
        if el.tag in _BLOCKS:
            block = el
        self._check(el.text, el, "text", block)
        for child in el:
            self._visit(child, block)
            self._check(child.tail, child, "tail", block)

    def _check(self, own: str | None, el: etree.Element, slot: str, block: etree.Element
               ) -> None:
        """A warning for each number of the text slot `own` that equals a result."""
        if not own or not any(c.isdigit() for c in own):
            return
        text = _NOT_TEXT.sub(lambda m: re.sub(r"[^\n]", "\x00", m.group(0)), own)
        for m in NUMBER.finditer(text):
            normal = _normal(m) if _significant(m.group(0)) >= MIN_DIGITS and not \
                _VERSION_BEFORE.search(text, max(0, m.start() - 12), m.start()) else None
            if normal is None:
                continue
            typed, value, decimals = normal
            index = self._typed_index()
            found = index.forms.get(typed)
            if not found or index.constant(value, decimals):
                continue
            line = self.positions.at(el, slot, m.start())
            if not line:
                floor = self.positions.floor(block) or 1
                line = line_of(self.text(), m.group(0).strip(), start=floor) or floor
            lines = (self.positions.floor(block), self.positions.end(block) or line)
            warn(LOGGER, self.source, line, self._message(typed, found, lines,
                                                          m.group(0).strip()))

    def _typed_index(self) -> TypedIndex:
        """The results' index, made once a process for results with a digest (both pages
        of a build, every rebuild of `--serve` on the same results), else once a page."""
        if self._index is None:
            digest = self.results.get(DIGEST)
            if not isinstance(digest, str):
                self._index = typed_index(self.results)
            else:
                if digest not in _MADE:
                    _MADE.clear()       # one set of results at a time
                    _MADE[digest] = typed_index(self.results)
                self._index = _MADE[digest]
        return self._index

    def _message(self, typed: str, found: list[tuple[str, str]],
                 lines: tuple[int, int] = (0, 0), as_typed: str = "") -> str:
        """What to write instead of `typed`: a result the page quotes before one it does not,
        a single value before a list's place; as the page quotes that result, if it does
        (one quantity at one precision), else with a filter that prints `typed`: the one a
        relation of its paragraph gives its operands (`QuoteLog.missing`: a quotient quoted
        with `sig(4)` wants its operand in `sig(4)` too, not `fixed(3)`), else one a quote on
        the lines of its block (`lines`: first, last) is written with, else the first.
        `as_typed`: the number as the author wrote it ("87.9 %", "87.9\uff05", "24990"), which
        the message names so that it can be found on the line (`typed` is as a filter prints
        it)."""
        first: dict[str, tuple[str, str, int]] = {}     # each result's first quote
        for n, ((p, fmt, text), line) in enumerate(zip(self.quotes.entries, self.quotes.lines,
                                                       strict=True)):
            if n not in self.quotes.shown:      # not shown with a relation's digits
                first.setdefault(p, (fmt, text, line))
        sections = {p.split(".", 1)[0] for p in first}
        ranked = sorted(found, key=lambda pf: (pf[0] not in first,
                                               pf[0].split(".", 1)[0] not in sections,
                                               "[" in pf[0]))
        path = ranked[0][0]
        written = self._filter(path, [f for p, f in found if p == path], lines)
        also = list(dict.fromkeys(p for p, _ in ranked if p != path))[:2]
        if path in first and first[path][1] == typed:      # as the page quotes it
            written = _written(first[path][0])
        said = f"'{as_typed or typed}' typed by hand equals {path} ({written})"
        if path in first and _written(first[path][0]) != written:
            fmt, text, line = first[path]
            at = f"line {line}" if line else "the page"
            advice = (f"{at} quotes it as {_written(fmt)} ({text}): quote it so, "
                      f"{{{{ {path} | {_written(fmt)} }}}} (one quantity at one precision)")
        else:
            advice = f"quote it: {{{{ {path} | {written} }}}}"
        more = f" (it also equals {', '.join(also)})" if also else ""
        return f"{said}; {advice}, or it goes stale when the experiment changes{more}"


    def _filter(self, path: str, filters: list[str], lines: tuple[int, int]) -> str:
        """Of `filters` (each prints the typed number from `path`), the one its paragraph's
        relation or quotes are written with (`_message`), else the first."""
        related = [_written(fmt) for p, fmt in self.quotes.missing.values() if p == path]
        lo, hi = lines
        near = [_written(fmt) for (_, fmt, _), line in zip(self.quotes.entries, self.quotes.lines,
                                                           strict=True)
                if lo and lo <= line <= max(lo, hi)]
        return next((f for f in related + near if f in filters), filters[0])


def _written(fmt: str) -> str:
    """A QuoteLog format as an author writes the filter: `fixed:2` -> `fixed(2)`."""
    kind, _, digits = fmt.partition(":")
    return f"{kind}({digits})" if digits else kind
