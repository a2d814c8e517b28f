"""Numbers in prose: Jinja expressions over the results, evaluated before Markdown.

Authors write `{{ spread.sd_large | fixed(2) }}`. The value is looked up in results.json
through `Node`s that remember their dotted path, so every quoted number is traced: a filter
emits a quote marker (`markers.quote(index, text)`, private-use characters that Markdown
leaves alone), and the page's `QuoteLog` records the line it was written on; after Markdown
they become `<span class="q" data-key=… data-format=…>`.
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
import functools
import hashlib
import logging
import math
import re
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2

from ..errors import BuildError, suggest
from ..log import warn
from .lexer import RawFormula
from .markers import CLAIM_RE, NEVER, QUOTE_RE, claim, line_of_marker, quote
from .math.formula import Formula, Quote

LOGGER = logging.getLogger("sqrtdk.quoting")
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
            hint = suggest(str(key), v, f"results in {self.path}", prefix=f"{self.path}.")
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
    digits before the point is shown whole) or grouped (an integer). Every kind groups the
    digits before the point in thousands with commas ("1,024", "1,024.50"): one rule for
    every number the page shows, in both languages. Python rounds exact ties to even; a
    negative number has a true minus sign (U+2212), and "× 10⁻⁵" is held to its number by
    no-break spaces. Raises ValueError for another kind."""
    text = _ascii_number(kind, value, digits)
    return "−" + text[1:] if text.startswith("-") else text


def tex_number(text: str) -> str:
    """A formatted number as TeX text: ASCII minus and spaces (KaTeX draws its own minus)."""
    return text.replace("−", "-").replace("\u00a0", " ")


def _ascii_number(kind: str, value: float, digits: int) -> str:
    if kind == "fixed":
        return f"{value:,.{digits}f}"
    if kind == "pct":
        return f"{100 * value:,.{digits}f}%"
    if kind == "sig":
        if value == 0:
            return "0"
        # the exponent after rounding to `digits` figures (0.9996 -> 1.00, not 1.000)
        mantissa, exp = f"{value:.{max(digits - 1, 0)}e}".split("e")
        exponent = int(exp)
        if exponent < -4:          # 1.87 × 10⁻¹⁰ rather than 0.000000000187
            return f"{mantissa}\u00a0×\u00a010{str(exponent).translate(_SUPERSCRIPT)}"
        return f"{value:,.{max(digits - 1 - exponent, 0)}f}"
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
    relies on, in order of appearance. `lines` and `claim_lines` hold the file line each quote
    and claim was written on (0 until the text around it is placed, see `place`)."""

    entries: list[tuple[str, str, str]] = field(default_factory=list)
    claims: list[str] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    claim_lines: list[int] = field(default_factory=list)

    def emit(self, path: str, fmt: str, text: str) -> str:
        """Record a quote; returns its marker."""
        self.entries.append((path, fmt, text))
        self.lines.append(0)
        return quote(len(self.entries) - 1, text)

    def add_claim(self, name: str) -> str:
        """Record that the text relies on claim `name`; returns its marker."""
        self.claims.append(name)
        self.claim_lines.append(0)
        return claim(len(self.claims) - 1)

    def place(self, text: str, first_line: int) -> None:
        """Record the line of each quote and claim marker in `text`, a rendered piece of the
        article whose first line is the file's line `first_line` (lines stay in place)."""
        for n, line in line_of_marker(text, QUOTE_RE, first_line).items():
            self.lines[n] = line
        for n, line in line_of_marker(text, CLAIM_RE, first_line).items():
            self.claim_lines[n] = line

    def line_of(self, path: str) -> int:
        """The line of the first quote of result `path` (0: not quoted, or not placed)."""
        return next((line for (p, _, _), line in zip(self.entries, self.lines, strict=True)
                     if p == path and line), 0)

    def line_of_claim(self, name: str) -> int:
        """The line of the first sentence relying on claim `name` (0: none)."""
        return next((line for c, line in zip(self.claims, self.claim_lines, strict=True)
                     if c == name and line), 0)


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


QUOTER_KEY = "_sqrtdk_quoter"   # the render context's entry holding the page's Quoter


def _filters() -> dict[str, Callable[..., str]]:
    """The format filters. They find the page being rendered (its QuoteLog and bounds) in the
    render context, so one environment and its compiled templates serve every page."""
    def make(kind: str, default_digits: int) -> Callable[..., str]:
        @jinja2.pass_context
        def flt(ctx: jinja2.runtime.Context, q: Any, digits: int = default_digits) -> str:
            if not isinstance(digits, int) or isinstance(digits, bool) or \
                    not 0 <= digits <= MAX_DIGITS:
                raise TypeError(f"{kind}() takes a whole number of digits from 0 to "
                                f"{MAX_DIGITS}, got {digits!r}")
            quoter: Quoter = ctx[QUOTER_KEY]
            path, value = _number(q, kind)
            if kind == "pct" and not 0 <= value <= 1:   # 2.01 would print as 201 %
                raise ValueError(f"pct() shows a share (0 to 1) as a percentage, and "
                                 f"'{path}' is {value:g}; use fixed() or sig() for it")
            digits = honest_digits(kind, value, digits, bounds_for(path, quoter.bounds))
            fmt = kind if kind == "grouped" else f"{kind}:{digits}"
            return quoter.log.emit(path, fmt, format_number(kind, value, digits))
        flt.__name__ = kind
        return flt
    return {"fixed": make("fixed", 2), "pct": make("pct", 1), "sig": make("sig", 3),
            "grouped": make("grouped", 0)}


@jinja2.pass_context
def _claim(ctx: jinja2.runtime.Context, name: Any) -> str:
    quoter: Quoter = ctx[QUOTER_KEY]
    return quoter.claim(name)


class _Sources(jinja2.BaseLoader):
    """Template sources by name, each name the digest of its source: a text seen before (in
    this process, or in Jinja's bytecode cache on disk) is never compiled again. The name is
    also the compiled code's file name, which is how an error finds its line."""

    def __init__(self) -> None:
        self.sources: dict[str, str] = {}

    def add(self, kind: str, source: str) -> str:
        """Register `source`; returns its name."""
        name = f"{kind}-{hashlib.sha256(source.encode('utf-8')).hexdigest()[:24]}"
        if len(self.sources) > 20000:   # a long --serve session: forget old texts
            self.sources.clear()
        self.sources[name] = source
        return name

    def get_source(self, environment: jinja2.Environment, template: str
                   ) -> tuple[str, str, Callable[[], bool]]:
        if template not in self.sources:
            raise jinja2.TemplateNotFound(template)
        return self.sources[template], template, lambda: True


@dataclass(frozen=True)
class Environments:
    """The prose and math environments of a process, sharing one loader."""

    prose: jinja2.Environment
    math: jinja2.Environment
    sources: _Sources


@functools.cache
def environments(cache_dir: Path | None = None) -> Environments:
    """The two environments (built once a process), with Jinja's bytecode cache in
    `cache_dir/jinja` when there is a cache: a one-shot rebuild after a text edit compiles
    only the paragraphs and formulas whose text changed."""
    sources = _Sources()
    bytecode = None
    if cache_dir is not None:
        (cache_dir / "jinja").mkdir(parents=True, exist_ok=True)
        bytecode = jinja2.FileSystemBytecodeCache(str(cache_dir / "jinja"))
    prose, math = prose_environment(sources, bytecode), math_environment(sources, bytecode)
    for env in (prose, math):
        env.filters.update(_filters())
    prose.globals["claim"] = _claim
    return Environments(prose, math, sources)


def _finalize(value: Any) -> str:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        raise TypeError(f"the number {value!r} is typed into the text; numbers are looked up, "
                        "never typed: quote a result")
    return str(value)


def prose_environment(loader: jinja2.BaseLoader | None = None,
                      bytecode: jinja2.BytecodeCache | None = None) -> jinja2.Environment:
    """The strict environment for article prose: `{{ … }}`, `{% … %}`, `{# … #}` (the space
    after `{#` keeps heading ids `{#id}` literal), only our filters and `claim`."""
    env = jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=False,
                             keep_trailing_newline=True, comment_start_string="{# ",
                             comment_end_string="#}", finalize=_finalize, loader=loader,
                             bytecode_cache=bytecode, cache_size=4096)
    env.filters = {}
    env.globals = {}
    env.tests = {}
    return env


def math_environment(loader: jinja2.BaseLoader | None = None,
                     bytecode: jinja2.BytecodeCache | None = None) -> jinja2.Environment:
    """Quotes inside TeX: `{{ ` and ` }}` with their spaces, no statements, no comments."""
    never = NEVER
    env = jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=False,
                             keep_trailing_newline=True, variable_start_string="{{ ",
                             variable_end_string="}}", block_start_string=never + "%",
                             block_end_string="%" + never, comment_start_string=never + "#",
                             comment_end_string="#" + never, finalize=_finalize,
                             loader=loader, bytecode_cache=bytecode, cache_size=4096)
    env.filters = {}
    env.globals = {}
    env.tests = {}
    return env


class Quoter:
    """Evaluates one page's prose and formulas against the results.

    `cache_dir`: where Jinja keeps compiled templates between processes (None: only in
    memory). The prose is compiled paragraph by paragraph (split at blank lines) unless it
    holds a statement `{% … %}`, which may span paragraphs; then it is one template."""

    def __init__(self, path: Path, results: Mapping[str, Any], claims: Mapping[str, Any],
                 cache_dir: Path | None = None):
        self.path = path
        self.log = QuoteLog()
        self.bounds = results.get("meta", {}).get("bounds", {})
        self.context = {k: wrap(k, v) for k, v in results.items()}
        self.claims = claims
        self.envs = environments(cache_dir)
        self.prose, self.math = self.envs.prose, self.envs.math
        self._render_context = {**self.context, QUOTER_KEY: self}

    def claim(self, name: Any) -> str:
        """`{{ claim("name") }}`: record that the sentence relies on a claim; its marker."""
        if not isinstance(name, str) or name not in self.claims:
            hint = suggest(str(name), self.claims, "claims")
            raise UnknownResultError(f"no claim {name!r}; {hint}")
        return self.log.add_claim(name)

    def render_prose(self, source: str) -> str:
        """Evaluate the template of the masked article; lines stay where they were.

        Raises BuildError(path, line, …) for a syntax error (an unclosed `{% … %}` at the
        line where it opens), an unknown name, filter or claim, or a number without a filter.
        """
        out = []
        for first_line, chunk in _paragraphs(source):
            name = self.envs.sources.add("prose", chunk)
            try:
                out.append(self.prose.get_template(name).render(self._render_context))
                self.log.place(out[-1], first_line)
            except jinja2.TemplateSyntaxError as e:
                line = e.lineno or 0
                if "end of template" in (e.message or ""):
                    line = _unclosed_block_line(self.prose, chunk) or line
                raise BuildError(self.path, first_line + line - 1 if line else 0,
                                 f"template syntax: {_syntax_message(e)}") from None
            except (jinja2.UndefinedError, UnknownResultError, TypeError, ValueError,
                    jinja2.TemplateNotFound) as e:
                line = _template_line(e, name)
                raise BuildError(self.path, first_line + line - 1 if line else 0,
                                 _message(e, self.context)) from None
        return "".join(out)

    def render_formula(self, raw: RawFormula) -> Formula:
        """Evaluate the quotes inside one formula; BuildError at the formula's own line.

        A formula without `{{ ` (most of them) is its own result: Jinja would hand its text
        back unchanged (keep_trailing_newline is on; newlines are already "\\n"), so it is
        not compiled."""
        for m in _TEX_BRACES.finditer(raw.tex):
            if m.group(1).split(".")[0] in self.context:
                warn(LOGGER, self.path, raw.first_line + raw.tex.count("\n", 0, m.start()),
                     f"'{m.group(0)}' in a formula is TeX (braces in braces), not a quote; "
                     f"to quote the result write '{{{{ {m.group(1)} | fixed(2) }}}}' (with the "
                     "spaces and a format filter)")
        if "{{ " not in raw.tex and "\r" not in raw.tex:
            return Formula((raw.tex,) if raw.tex else (), raw.display, raw.line, raw.tex,
                           raw.first_line)
        name = self.envs.sources.add("formula", raw.tex)
        try:
            tex = self.math.get_template(name).render(self._render_context)
        except jinja2.TemplateSyntaxError as e:
            raise BuildError(self.path, raw.first_line + (e.lineno or 1) - 1,
                             f"template syntax in a formula: {_syntax_message(e)}") from None
        except (jinja2.UndefinedError, UnknownResultError, TypeError, ValueError) as e:
            line = _template_line(e, name)
            raise BuildError(self.path, raw.first_line + max(line, 1) - 1,
                             _message(e, self.context)) from None
        parts: list[str | Quote] = []
        last = 0
        for m in QUOTE_RE.finditer(tex):
            if m.start() > last:
                parts.append(tex[last:m.start()])
            key, fmt, text = self.log.entries[int(m.group(1))]
            parts.append(Quote(key, fmt, tex_number(text)))
            last = m.end()
        if last < len(tex):
            parts.append(tex[last:])
        self.log.place(tex, raw.first_line)
        return Formula(tuple(parts), raw.display, raw.line, raw.tex, raw.first_line)


_BLANK_LINES = re.compile(r"\n[ \t]*\n")


def _paragraphs(source: str) -> list[tuple[int, str]]:
    """(first line, text) of the pieces of `source` to compile one by one: paragraphs, each
    ending after the blank line(s) that follow it, so the pieces add up to the source. All of
    it is one piece when it holds a statement, and a piece never ends inside `{{ … }}`."""
    if "{%" in source:
        return [(1, source)]
    pieces, start, line = [], 0, 1
    for m in _BLANK_LINES.finditer(source):
        piece = source[start:m.end()]
        if piece.count("{{") != piece.count("}}"):
            continue
        pieces.append((line, piece))
        line += piece.count("\n")
        start = m.end()
    if start < len(source):
        pieces.append((line, source[start:]))
    return pieces


_UNKNOWN_TAG = re.compile(r"Encountered unknown tag '([^']+)'")
_TEXT_KNOWS = ("the text knows quotes {{ name | fixed(2) }} and claims {{ claim(\"…\") }}; "
               "for a link write [text](../en/), for a figure ![alt](NAME.svg \"Caption\"), "
               "for a box '/// details | Title'")


def _syntax_message(e: jinja2.TemplateSyntaxError) -> str:
    msg = e.message or str(e)
    lines = (e.source or "").split("\n")
    written = lines[e.lineno - 1] if e.lineno and e.lineno <= len(lines) else ""
    if tag := _UNKNOWN_TAG.match(msg):
        return (f"'{{% {tag.group(1)} … %}}' is not a statement here (it is Liquid's, as in "
                f"Jekyll, or another tool's); {_TEXT_KNOWS}")
    if "{{<" in written or "{{%" in written:
        return f"{msg}: a Hugo shortcode ('{{{{< … >}}}}') is not known here; {_TEXT_KNOWS}"
    if msg.startswith("No filter named"):
        name = msg.split("'")[1] if "'" in msg else ""
        return f"{msg.rstrip('.')}; " + suggest(name, FILTERS, "filters")
    if "'}'" in msg or "end of print statement" in msg or "'end of template'" in msg:
        return (f"{msg}; a quote is written {{{{ name | fixed(2) }}}}, two braces on each side, "
                "with its filter's digits in parentheses")
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


_TEX_BRACES = re.compile(r"\{\{([A-Za-z_][\w.]*)\}\}")   # {{name}}: TeX, unless spaced


_TYPED_NUMBER = re.compile(r"^the number (\S+) is typed into the text")


def _typed_number_hint(typed: str, known: Mapping[str, Any]) -> str:
    """The results a typed number stands for: those equal to it at the digits typed."""
    digits = len(typed.split(".", 1)[1]) if "." in typed else 0
    target = round(float(typed), digits)
    found: list[str] = []

    def walk(node: Any, path: str) -> None:
        node = getattr(node, "value", node)        # the raw result behind a wrapped one
        if isinstance(node, Mapping):
            for k, v in node.items():
                if path or k not in ("claims", "meta", "sweep"):
                    walk(v, f"{path}.{k}" if path else str(k))
        elif isinstance(node, (int, float)) and not isinstance(node, bool) and \
                math.isfinite(node) and round(float(node), digits) == target:
            found.append(path)
    walk(known, "")
    if not found:
        return ", e.g. {{ group.name | fixed(2) }} (see figures/results.json)"
    also = f" (or {', '.join(found[1:3])})" if len(found) > 1 else ""
    return f": {typed} is {{{{ {found[0]} | fixed({digits}) }}}}{also}"


def _message(e: Exception, known: Mapping[str, Any]) -> str:
    msg = str(e.args[0]) if e.args else str(e)
    if isinstance(e, TypeError) and (typed := _TYPED_NUMBER.match(msg)):
        return msg + _typed_number_hint(typed.group(1), known)
    if isinstance(e, jinja2.UndefinedError):
        name = re.search(r"'([^']+)' is undefined", msg)
        hint = suggest(name.group(1), known, "result groups") if name else ""
        return f"{msg}; {hint} (see figures/results.json)"
    if isinstance(e, jinja2.TemplateNotFound):
        return (f"'{{% include %}}', '{{% import %}}' and '{{% extends %}}' would read another "
                f"file ('{e.name}'), which an article cannot; write its text here")
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


def mark_quotes(html: str, log: QuoteLog) -> str:
    """Quote markers in HTML text become <span class="q" data-key=… data-format=…>; claim
    markers (invisible) are dropped."""
    def span(m: re.Match[str]) -> str:
        path, fmt, _ = log.entries[int(m.group(1))]
        return f'<span class="q" data-key="{path}" data-format="{fmt}">{m.group(2)}</span>'
    return CLAIM_RE.sub("", QUOTE_RE.sub(span, html))
