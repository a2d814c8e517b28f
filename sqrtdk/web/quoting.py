"""Numbers in prose: Jinja expressions over the results, evaluated before Markdown.

Authors write `{{ spread.sd_large | fixed(2) }}`. The value is looked up in results.json
through `Node`s that remember their dotted path, so every quoted number is traced: a filter
emits `QUOTE_OPEN index QUOTE_MID text QUOTE_CLOSE` (private-use characters that Markdown
leaves alone); after Markdown they become `<span class="q" data-key=… data-format=…>`.
`{{ claim("name") }}` marks the sentence that relies on a claim (sqrtdk.science.registry),
so a claim that stops holding stops the build at that line.

Math and code never reach Jinja (`lexer` masks them). Quotes inside a formula are evaluated
separately, with `{{ ` and ` }}` (spaces required, so TeX groups like `x^{{2}}` stay TeX)
and no statements or comments; they come back as data (`Formula.parts`), not as TeX.

Honest rounding (issue 7): each quantity's bounds come from results.json (meta.bounds); a
filter that would print a bound the value does not reach (0.9962 as "100%", 2.9997 bits as
"3.00") shows more digits until the gap shows.
"""
from __future__ import annotations

import fnmatch
import re
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2

from ..errors import BuildError, suggest
from .lexer import RawFormula

QUOTE_OPEN, QUOTE_MID, QUOTE_CLOSE = "\U000f0000", "\U000f0001", "\U000f0002"
CLAIM_MARK = "\U000f0003{}\U000f0004"
QUOTE_RE = re.compile(f"{QUOTE_OPEN}(\\d+){QUOTE_MID}(.*?){QUOTE_CLOSE}", re.S)
CLAIM_RE = re.compile("\U000f0003(\\d+)\U000f0004")
_MARKER_RE = re.compile(f"{QUOTE_OPEN}\\d+{QUOTE_MID}|{QUOTE_CLOSE}|\U000f0003\\d+\U000f0004")
FILTERS = ("fixed", "pct", "sig", "grouped")
_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
MAX_DIGITS = 12


class UnknownResultError(Exception):
    """A name that is not in results.json. Deliberately not a LookupError: Jinja turns those
    into an Undefined whose message names our class instead of the missing result."""


class Node:
    """A branch of the results: attribute and index access return child Nodes or Quantities."""

    __slots__ = ("path", "value")

    def __init__(self, path: str, value: Any):
        self.path, self.value = path, value

    def _child(self, key: Any) -> Node:
        v = self.value
        if isinstance(v, dict) and isinstance(key, str) and key in v:
            return wrap(f"{self.path}.{key}", v[key])
        if isinstance(v, list) and isinstance(key, int) and -len(v) <= key < len(v):
            return wrap(f"{self.path}.{key % len(v)}", v[key])
        if isinstance(v, dict):
            hint = suggest(str(key), v, f"results in {self.path}")
        else:
            hint = f"{self.path} is a list with indices 0..{len(v) - 1}"
        raise UnknownResultError(f"no result '{self.path}.{key}'; {hint}")

    def __getattr__(self, key: str) -> Node:
        if key.startswith("__"):
            raise AttributeError(key)
        return self._child(key)

    def __getitem__(self, key: Any) -> Node:
        return self._child(key)

    def __str__(self) -> str:
        raise TypeError(f"'{self.path}' is a group of results, not a value; pick one of its keys")


class Quantity(Node):
    """A leaf of the results: a number or a string, with its dotted path."""

    def __str__(self) -> str:
        if isinstance(self.value, str):
            return self.value
        raise TypeError(f"'{self.path}' is a number: quote it through a format filter, "
                        f"e.g. {{{{ {self.path} | fixed(2) }}}}")


def wrap(path: str, value: Any) -> Node:
    """Wrap a results value at `path`: dicts and lists become Nodes, scalars Quantities."""
    return Node(path, value) if isinstance(value, (dict, list)) else Quantity(path, value)


def format_number(kind: str, value: float, digits: int = 0) -> str:
    """`value` as the filters print it: fixed (`digits` decimals), pct (a share as a
    percentage with `digits` decimals), sig (`digits` significant digits; a number with more
    digits before the point is shown whole) or grouped (an integer with thousands
    separators). Python rounds exact ties to even. Raises ValueError for another kind."""
    if kind == "fixed":
        return f"{value:.{digits}f}"
    if kind == "pct":
        return f"{100 * value:.{digits}f}%"
    if kind == "sig":
        if value == 0:
            return "0"
        # the exponent after rounding to `digits` figures (0.9996 -> 1.00, not 1.000)
        mantissa, exp = f"{value:.{max(digits - 1, 0)}e}".split("e")
        exponent = int(exp)
        if exponent < -4:          # 1.87 × 10⁻¹⁰ rather than 0.000000000187
            return f"{mantissa} × 10{str(exponent).translate(_SUPERSCRIPT)}"
        return f"{value:.{max(digits - 1 - exponent, 0)}f}"
    if kind == "grouped":
        return f"{round(value):,}"
    raise ValueError(f"unknown number format '{kind}'")


def honest_digits(kind: str, value: float, digits: int, bounds: tuple[float, float] | None
                  ) -> int:
    """The fewest digits ≥ `digits` with which `value` does not print as a bound it does not
    reach (both ends of `bounds`); `digits` itself when there are no bounds."""
    if bounds is None or kind == "grouped":
        return digits
    for d in range(digits, MAX_DIGITS + 1):
        shown = format_number(kind, value, d)
        if not any(b != value and shown == format_number(kind, b, d) for b in bounds):
            return d
    return MAX_DIGITS


def bounds_for(path: str, patterns: Mapping[str, list[float]]) -> tuple[float, float] | None:
    """The bounds of result `path` from results.json meta.bounds (fnmatch patterns)."""
    for pattern, b in patterns.items():
        if fnmatch.fnmatchcase(path, pattern):
            return (float(b[0]), float(b[1]))
    return None


@dataclass
class QuoteLog:
    """What one page quoted, in order: (dotted path, format, shown text); and the claims it
    relies on, in order of appearance."""

    entries: list[tuple[str, str, str]] = field(default_factory=list)
    claims: list[str] = field(default_factory=list)

    def emit(self, path: str, fmt: str, text: str) -> str:
        """Record a quote; returns its marker."""
        self.entries.append((path, fmt, text))
        return f"{QUOTE_OPEN}{len(self.entries) - 1}{QUOTE_MID}{text}{QUOTE_CLOSE}"


def _number(q: Any, filter_name: str) -> tuple[str, float]:
    if isinstance(q, jinja2.Undefined):
        q._fail_with_undefined_error()
    if not isinstance(q, Quantity) or isinstance(q.value, (str, bool)):
        raise TypeError(f"filter '{filter_name}' formats a number from the results, "
                        f"got {_describe(q)}; numbers are looked up, never typed")
    return q.path, float(q.value)


def _describe(q: Any) -> str:
    if isinstance(q, Quantity):
        return f"'{q.path}' = {q.value!r}"
    if isinstance(q, Node):
        return f"'{q.path}', a group of results"
    return repr(q)


def _filters(log: QuoteLog, bounds: Mapping[str, list[float]]) -> dict[str, Callable[..., str]]:
    def make(kind: str, default_digits: int) -> Callable[..., str]:
        def flt(q: Any, digits: int = default_digits) -> str:
            if not isinstance(digits, int) or isinstance(digits, bool) or \
                    not 0 <= digits <= MAX_DIGITS:
                raise TypeError(f"{kind}() takes a whole number of digits from 0 to "
                                f"{MAX_DIGITS}, got {digits!r}")
            path, value = _number(q, kind)
            digits = honest_digits(kind, value, digits, bounds_for(path, bounds))
            fmt = kind if kind == "grouped" else f"{kind}:{digits}"
            return log.emit(path, fmt, format_number(kind, value, digits))
        flt.__name__ = kind
        return flt
    return {"fixed": make("fixed", 2), "pct": make("pct", 1), "sig": make("sig", 3),
            "grouped": make("grouped", 0)}


def _finalize(value: Any) -> str:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        raise TypeError(f"the number {value!r} is typed into the text; numbers are looked up, "
                        "never typed: quote a result, e.g. {{ spread.sd_large | fixed(2) }}")
    return str(value)


def prose_environment() -> jinja2.Environment:
    """The strict environment for article prose: `{{ … }}`, `{% … %}`, `{# … #}` (the space
    after `{#` keeps heading ids `{#id}` literal), only our filters and `claim`."""
    env = jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=False,
                             keep_trailing_newline=True, comment_start_string="{# ",
                             comment_end_string="#}", finalize=_finalize)
    env.filters = {}
    env.globals = {}
    env.tests = {}
    return env


def math_environment() -> jinja2.Environment:
    """Quotes inside TeX: `{{ ` and ` }}` with their spaces, no statements, no comments."""
    never = "\U000f00ff\U000f00fe"
    env = jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=False,
                             keep_trailing_newline=True, variable_start_string="{{ ",
                             variable_end_string="}}", block_start_string=never + "%",
                             block_end_string="%" + never, comment_start_string=never + "#",
                             comment_end_string="#" + never, finalize=_finalize)
    env.filters = {}
    env.globals = {}
    env.tests = {}
    return env


@dataclass(frozen=True)
class Quote:
    """A quoted result inside a formula: its path, format and the text shown."""

    key: str
    format: str
    text: str


@dataclass(frozen=True)
class Formula:
    """A formula ready for the math renderer: `parts` are TeX text and Quotes (which the
    renderer may mark up as data); `plain` is the TeX with the quoted numbers written in."""

    parts: tuple[str | Quote, ...]
    display: bool
    line: int
    source: str        # as the author wrote it (for messages)

    @property
    def plain(self) -> str:
        """The TeX with each quote's text in place."""
        return "".join(p if isinstance(p, str) else p.text for p in self.parts)

    @property
    def quotes(self) -> list[Quote]:
        """The quoted results inside, in order."""
        return [p for p in self.parts if isinstance(p, Quote)]


class Quoter:
    """Evaluates one page's prose and formulas against the results."""

    def __init__(self, path: Path, results: Mapping[str, Any], claims: Mapping[str, Any]):
        self.path = path
        self.log = QuoteLog()
        bounds = results.get("meta", {}).get("bounds", {})
        self.context = {k: wrap(k, v) for k, v in results.items()}
        self.claims = claims
        self.prose, self.math = prose_environment(), math_environment()
        for env in (self.prose, self.math):
            env.filters.update(_filters(self.log, bounds))
        self.prose.globals["claim"] = self._claim

    def _claim(self, name: Any) -> str:
        if not isinstance(name, str) or name not in self.claims:
            hint = suggest(str(name), self.claims, "claims")
            raise UnknownResultError(f"no claim {name!r}; {hint}")
        self.log.claims.append(name)
        return CLAIM_MARK.format(len(self.log.claims) - 1)

    def render_prose(self, source: str) -> str:
        """Evaluate the template of the masked article; lines stay where they were.

        Raises BuildError(path, line, …) for a syntax error (an unclosed `{% … %}` at the
        line where it opens), an unknown name, filter or claim, or a number without a filter.
        """
        name = str(self.path)
        try:
            template = self.prose.from_string(source)
            template.name = template.filename = name
            return template.render(self.context)
        except jinja2.TemplateSyntaxError as e:
            line = e.lineno or 0
            if "end of template" in (e.message or ""):
                line = _unclosed_block_line(self.prose, source) or line
            raise BuildError(self.path, line, f"template syntax: {_syntax_message(e)}") from None
        except (jinja2.UndefinedError, UnknownResultError, TypeError, ValueError) as e:
            line = _template_line(e, name)
            raise BuildError(self.path, line, _message(e, self.context)) from None

    def render_formula(self, raw: RawFormula) -> Formula:
        """Evaluate the quotes inside one formula; BuildError at the formula's own line.

        A formula without `{{ ` (most of them) is its own result: Jinja would hand its text
        back unchanged (keep_trailing_newline is on; newlines are already "\\n"), so it is
        not compiled."""
        if "{{ " not in raw.tex and "\r" not in raw.tex:
            return Formula((raw.tex,) if raw.tex else (), raw.display, raw.line, raw.tex)
        name = f"{self.path}#formula{raw.index}"
        try:
            template = self.math.from_string(raw.tex)
            template.name = template.filename = name
            tex = template.render(self.context)
        except jinja2.TemplateSyntaxError as e:
            raise BuildError(self.path, raw.line + (e.lineno or 1) - 1,
                             f"template syntax in a formula: {_syntax_message(e)}") from None
        except (jinja2.UndefinedError, UnknownResultError, TypeError, ValueError) as e:
            line = _template_line(e, name)
            raise BuildError(self.path, raw.line + max(line, 1) - 1,
                             _message(e, self.context)) from None
        parts: list[str | Quote] = []
        last = 0
        for m in QUOTE_RE.finditer(tex):
            if m.start() > last:
                parts.append(tex[last:m.start()])
            key, fmt, text = self.log.entries[int(m.group(1))]
            parts.append(Quote(key, fmt, text))
            last = m.end()
        if last < len(tex):
            parts.append(tex[last:])
        return Formula(tuple(parts), raw.display, raw.line, raw.tex)


def _syntax_message(e: jinja2.TemplateSyntaxError) -> str:
    msg = e.message or str(e)
    if msg.startswith("No filter named"):
        name = msg.split("'")[1] if "'" in msg else ""
        return f"{msg.rstrip('.')}; " + suggest(name, FILTERS, "filters")
    return msg


_PAIRED_TAGS = ("if", "for", "raw", "macro", "call", "filter", "block", "with")


def _unclosed_block_line(env: jinja2.Environment, source: str) -> int:
    """Line of the innermost `{% tag %}` that is never closed (Jinja reports the file's end)."""
    stack: list[tuple[str, int]] = []
    expect_name = False
    try:
        for lineno, kind, value in env.lex(source):
            if kind == "block_begin":
                expect_name = True
            elif kind == "name" and expect_name:
                expect_name = False
                if value.startswith("end") and stack and stack[-1][0] == value[3:]:
                    stack.pop()
                elif value in _PAIRED_TAGS:
                    stack.append((value, lineno))
            elif kind != "whitespace":
                expect_name = False
    except jinja2.TemplateSyntaxError:
        pass
    return stack[-1][1] if stack else 0


def _message(e: Exception, known: Mapping[str, Any]) -> str:
    msg = str(e.args[0]) if e.args else str(e)
    if isinstance(e, jinja2.UndefinedError):
        name = re.search(r"'([^']+)' is undefined", msg)
        hint = suggest(name.group(1), known, "result groups") if name else ""
        return f"{msg}; {hint} (see figures/results.json)"
    if isinstance(e, TypeError) and ("Quantity" in msg or "Node" in msg):
        return ("results can only be shown through a format filter (fixed, pct, sig, grouped); "
                "comparisons and arithmetic on them are not supported — add the value you need "
                "as a result in sqrtdk/science/")
    return msg


def _template_line(e: BaseException, name: str) -> int:
    line = 0
    for frame, lineno in traceback.walk_tb(e.__traceback__):
        if frame.f_code.co_filename == name:
            line = lineno
    return line


def strip_markers(text: str) -> str:
    """Remove quote and claim markers, keeping the shown text (for TeX, attributes, titles)."""
    return _MARKER_RE.sub("", text)


def mark_quotes(html: str, log: QuoteLog) -> str:
    """Quote markers in HTML text become <span class="q" data-key=… data-format=…>; claim
    markers (invisible) are dropped."""
    def span(m: re.Match[str]) -> str:
        path, fmt, _ = log.entries[int(m.group(1))]
        return f'<span class="q" data-key="{path}" data-format="{fmt}">{m.group(2)}</span>'
    return CLAIM_RE.sub("", QUOTE_RE.sub(span, html))
