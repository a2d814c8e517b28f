"""Numbers in prose: Jinja expressions over the results, evaluated before Markdown.

Authors write `{{ spread.sd_large | fixed(2) }}`. The value is looked up in `results.json`
through `Node`s that remember their dotted path, so every quoted number is traced: the filter
emits `QUOTE_OPEN index QUOTE_MID text QUOTE_CLOSE` (private-use characters that Markdown
leaves alone); after Markdown, `mark_quotes` turns them into
`<span class="q" data-key="spread.sd_large">22.62</span>` and `strip_quotes` drops them where
markup cannot go (TeX, attributes, the <title>).

Collisions with what authors write (HOUSE_STYLE rule 5):
- code spans and fenced code are passed through `{% raw %}`: `{{` in code stays literal;
- `{{` or `{%` not followed by a space or `-` is literal text (TeX groups such as `x^{{2}}`);
- Jinja comments are `{## … ##}`, so heading attributes `{#id}` are plain text.
"""
from __future__ import annotations

import re
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2

from .errors import BuildError

QUOTE_OPEN, QUOTE_MID, QUOTE_CLOSE = "\ue000", "\ue001", "\ue002"
QUOTE_RE = re.compile(f"{QUOTE_OPEN}(\\d+){QUOTE_MID}(.*?){QUOTE_CLOSE}", re.S)
_MARKER_RE = re.compile(f"{QUOTE_OPEN}\\d+{QUOTE_MID}|{QUOTE_CLOSE}")

_FENCE_RE = re.compile(r"^( {0,3})(`{3,}|~{3,})[^\n]*\n.*?(?:^\1?\2[`~]*[ \t]*$|\Z)", re.M | re.S)
_CODE_SPAN_RE = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.S)
_LITERAL_OPEN_RE = re.compile(r"\{([{%])(?![\s\-+])")


class UnknownResult(Exception):
    """A name that is not in results.json. Deliberately not a LookupError: Jinja turns those
    into an Undefined whose message names our class instead of the missing result."""


class Node:
    """A branch of the results: attribute and index access return child Nodes or Quantities."""

    __slots__ = ("path", "value")

    def __init__(self, path: str, value: Any):
        self.path, self.value = path, value

    def _child(self, key: Any) -> "Node":
        v = self.value
        if isinstance(v, dict) and isinstance(key, str) and key in v:
            return wrap(f"{self.path}.{key}", v[key])
        if isinstance(v, list) and isinstance(key, int) and -len(v) <= key < len(v):
            return wrap(f"{self.path}.{key % len(v)}", v[key])
        have = ", ".join(sorted(v)) if isinstance(v, dict) else f"indices 0..{len(v) - 1}"
        raise UnknownResult(f"no result '{self.path}.{key}' ({self.path} has {have})")

    def __getattr__(self, key: str) -> "Node":
        if key.startswith("__"):
            raise AttributeError(key)
        return self._child(key)

    def __getitem__(self, key: Any) -> "Node":
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


def format_number(kind: str, value: float, digits: int = 0) -> str:
    """Format `value` as the filters do: fixed, pct, sig or grouped (`digits` as documented)."""
    if kind == "fixed":
        return f"{value:.{digits}f}"
    if kind == "pct":
        return f"{100 * value:.{digits}f}%"
    if kind == "sig":
        if value == 0:
            return "0"
        # the exponent after rounding to `digits` figures (0.9996 -> 1.00, not 1.000)
        exponent = int(f"{abs(value):.{max(digits - 1, 0)}e}".split("e")[1])
        return f"{value:.{max(digits - 1 - exponent, 0)}f}"
    if kind == "grouped":
        return f"{round(value):,}"
    raise ValueError(f"unknown number format '{kind}'")


@dataclass
class QuoteLog:
    """The results quoted on one page, in order: (dotted path, format, shown text)."""

    entries: list[tuple[str, str, str]] = field(default_factory=list)

    def emit(self, path: str, fmt: str, text: str) -> str:
        self.entries.append((path, fmt, text))
        return f"{QUOTE_OPEN}{len(self.entries) - 1}{QUOTE_MID}{text}{QUOTE_CLOSE}"


def _filters(log: QuoteLog) -> dict[str, Any]:
    def make(kind: str, default_digits: int):
        def flt(q: Any, digits: int = default_digits) -> str:
            if not isinstance(digits, int) or not 0 <= digits <= 12:
                raise TypeError(f"{kind}() takes a whole number of digits from 0 to 12, got {digits!r}")
            path, value = _number(q, kind)
            fmt = kind if kind == "grouped" else f"{kind}:{digits}"
            return log.emit(path, fmt, format_number(kind, value, digits))
        flt.__name__ = kind
        return flt
    return {"fixed": make("fixed", 2), "pct": make("pct", 1), "sig": make("sig", 3),
            "grouped": make("grouped", 0)}


def protect(source: str) -> str:
    """Make code and TeX braces literal for Jinja without moving any line (see module doc)."""
    out, last = [], 0
    for m in _FENCE_RE.finditer(source):
        out.append(_protect_inline(source[last:m.start()]))
        out.append(_raw(m.group(0)))
        last = m.end()
    out.append(_protect_inline(source[last:]))
    return "".join(out)


def _raw(text: str) -> str:
    return "{% raw %}" + text.replace("{% endraw %}", "{% endraw %}{{ '{% endraw %}' }}{% raw %}") + "{% endraw %}"


def _protect_inline(text: str) -> str:
    parts, last = [], 0
    for m in _CODE_SPAN_RE.finditer(text):
        parts.append(_LITERAL_OPEN_RE.sub(r"{{ '{\1' }}", text[last:m.start()]))
        parts.append(_raw(m.group(0)))
        last = m.end()
    parts.append(_LITERAL_OPEN_RE.sub(r"{{ '{\1' }}", text[last:]))
    return "".join(parts)


def environment() -> jinja2.Environment:
    """The strict environment for article sources: StrictUndefined, only our filters."""
    env = jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=False,
                             keep_trailing_newline=True, comment_start_string="{##",
                             comment_end_string="##}", finalize=_finalize)
    env.filters = {}
    return env


def _finalize(value: Any) -> str:
    if isinstance(value, (int, float)):  # `{{ 42 }}`, or TeX `x^{{-1}}` read as `{{- 1 }}`
        raise TypeError(f"the number {value!r} is typed into the text; numbers are looked up, "
                        "never typed: quote a result, e.g. {{ spread.sd_large | fixed(2) }}")
    return str(value)


def render_source(path: Path, source: str, results: dict[str, Any]) -> tuple[str, QuoteLog]:
    """Evaluate the Jinja expressions of one article; returns the text and its quote log.

    Raises BuildError(path, line, …) for a syntax error, an unknown name or filter, or a number
    printed without a filter; the line is the article's line (`protect` keeps lines in place).
    """
    log = QuoteLog()
    env = environment()
    env.filters.update(_filters(log))
    name = str(path)
    try:
        template = env.from_string(protect(source))
        template.name = template.filename = name
        text = template.render({k: wrap(k, v) for k, v in results.items()})
    except jinja2.TemplateSyntaxError as e:
        raise BuildError(path, e.lineno or 0, f"template syntax: {e.message}") from None
    except (jinja2.UndefinedError, UnknownResult, TypeError, ValueError) as e:
        line = _template_line(e, name)
        raise BuildError(path, line, f"{_message(e)}") from None
    return text, log


def _message(e: Exception) -> str:
    msg = str(e.args[0]) if e.args else str(e)
    if isinstance(e, jinja2.UndefinedError):
        return f"{msg} — check the name against figures/results.json"
    if isinstance(e, TypeError) and ("Quantity" in msg or "Node" in msg):
        return ("results can only be shown through a format filter (fixed, pct, sig, grouped); "
                "comparisons and arithmetic on them are not supported — add the value you need "
                "to sqrtdk/results.py")
    return msg


def _template_line(e: BaseException, name: str) -> int:
    line = 0
    for frame, lineno in traceback.walk_tb(e.__traceback__):
        if frame.f_code.co_filename == name:
            line = lineno
    return line


def strip_quotes(text: str) -> str:
    """Remove quote markers, keeping the shown text (for TeX, attributes, plain titles)."""
    return _MARKER_RE.sub("", text)


def tex_quotes(tex: str, log: QuoteLog) -> str:
    """Turn quote markers inside TeX into KaTeX `\\htmlData{key=…, format=…}{text}`, so quoted
    numbers in formulas carry their result name too; `%` and `,` are escaped for TeX."""
    def data(m: re.Match) -> str:
        path, fmt, text = log.entries[int(m.group(1))]
        shown = m.group(2).replace("%", r"\%").replace(",", "{,}")
        return f"\\htmlData{{key={path}, format={fmt}}}{{{shown}}}"
    return QUOTE_RE.sub(data, tex)


def mark_quotes(html: str, log: QuoteLog) -> str:
    """Turn quote markers in HTML text into <span class="q" data-key=… data-format=…>."""
    def span(m: re.Match) -> str:
        path, fmt, _ = log.entries[int(m.group(1))]
        return f'<span class="q" data-key="{path}" data-format="{fmt}">{m.group(2)}</span>'
    return QUOTE_RE.sub(span, html)
