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

Here: the page's `QuoteLog`, the filters and `claim`, and the `Quoter` that renders a page.
The results as the templates see them are `result_nodes`; how a number prints, `numbers`;
the two Jinja environments, `jinja_envs`; what a template error says, `quote_messages`.
"""
from __future__ import annotations

import bisect
import functools
import itertools
import logging
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
import jinja2.exceptions

from ..errors import BuildError, Mistakes, combined, deepest_line, suggest, too_deep
from ..log import warn
from ..science.outputs import declared
from ..science.results import at
from .embed import (
    PROSE_SLOTS,
    missing_operands,
    prose_rows,
    relations,
    span_text,
    split_spec,
    steady_specs,
)
from .jinja_envs import Environments, SandboxBytecode, Sources, math_environment, prose_environment
from .lexer import RawFormula
from .markers import CLAIM_RE, QUOTE_RE, claim, line_of_marker, quote
from .math.formula import Formula, Quote
from .numbers import MAX_DIGITS, bounds_for, exact_digits, format_number, honest_digits, tex_number
from .quote_messages import (
    LITERAL_BRACES,
    error_message,
    syntax_message,
    template_line,
    unclosed_block_line,
    unclosed_tag,
    unclosed_tag_message,
)
from .result_nodes import UnknownResultError, number_of, wrap

LOGGER = logging.getLogger("sqrtdk.quoting")


@dataclass
class QuoteLog:
    """What one page quoted, in order: (dotted path, format, shown text); and the claims it
    relies on, in order of appearance. `lines` and `claim_lines` hold the file line each quote
    and claim was written on (0 until the text around it is placed, see `place`)."""

    entries: list[tuple[str, str, str]] = field(default_factory=list)
    # quote index -> the format it is shown with where a paragraph relates it to other quotes
    # (embed.steady_specs: the same at every dₖ the text follows; its entry keeps the
    # author's format; static/explainer.js shows the quote in this one)
    # (every quote a paragraph relates is here, also when its own format is the one shown)
    shown: dict[int, str] = field(default_factory=dict)
    # quote index -> why it is shown in `shown`'s format and not in its own (embed.relations)
    why: dict[int, str] = field(default_factory=dict)
    # quote index (a RELATED quotient) -> (the path of the operand its paragraph leaves out
    # while quoting the other, the other's format) (embed.missing_operands: typed by hand?)
    missing: dict[int, tuple[str, str]] = field(default_factory=dict)
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


QUOTER_KEY = "_sqrtdk_quoter"   # the render context's entry holding the page's Quoter


def _filters() -> dict[str, Callable[..., str]]:
    """The format filters. They find the page being rendered (its QuoteLog and bounds) in the
    render context, so one environment and its compiled templates serve every page."""
    def make(kind: str, default_digits: int) -> Callable[..., str]:
        @jinja2.pass_context
        def flt(ctx: jinja2.runtime.Context, q: Any, digits: int = default_digits,
                exact: bool = False) -> str:
            if not isinstance(digits, int) or isinstance(digits, bool) or \
                    not 0 <= digits <= MAX_DIGITS:
                raise TypeError(f"{kind}() takes a whole number of digits from 0 to "
                                f"{MAX_DIGITS}, got {digits!r}")
            if exact is not False and (exact is not True or kind not in ("fixed", "pct")):
                raise TypeError(f"exact=True (the value's own digits, as a figure's key "
                                f"prints a level) is for fixed() and pct(); {kind}() got "
                                f"exact={exact!r}")
            quoter: Quoter = ctx[QUOTER_KEY]
            path, value = number_of(q, kind)
            if kind == "pct" and not 0 <= value <= 1:   # 2.01 would print as 201 %
                raise ValueError(f"pct() shows a share (0 to 1) as a percentage, and "
                                 f"'{path}' is {value:g}; use fixed() or sig() for it")
            if exact:           # a level the build sets, printed whole (as its figure's key)
                try:
                    digits = exact_digits(kind, value, digits)
                except ValueError as e:     # 1e-20: any decimals up to 12 print another value
                    raise ValueError(f"exact=True prints '{path}' whole, and {e}; quote it "
                                     f"with sig(), which prints its own digits "
                                     f"({{{{ {path} | sig(2) }}}})") from None
            digits = honest_digits(kind, value, digits, bounds_for(path, quoter.bounds))
            fmt = kind if kind == "grouped" else f"{kind}:{digits}"
            return quoter.log.emit(path, fmt, format_number(kind, value, digits))
        flt.__name__ = kind
        return flt
    return {"fixed": make("fixed", 2), "pct": make("pct", 1), "sig": make("sig", 3),
            "grouped": make("grouped", 0)}


@jinja2.pass_context
def _claim(ctx: jinja2.runtime.Context, *names: Any, **named: Any) -> str:
    if len(names) != 1 or named:        # `claim()`, `claim("a", "b")`, `claim(name="a")`
        raise TypeError("claim() takes one claim's name in quotes, e.g. "
                        "{{ claim(\"spread.sqrt_not_linear\") }}; a sentence relying on two "
                        "claims quotes each: {{ claim(\"a.x\") }}{{ claim(\"b.y\") }}")
    quoter: Quoter = ctx[QUOTER_KEY]
    return quoter.claim(names[0])


@functools.cache
def environments(cache_dir: Path | None = None) -> Environments:
    """The two environments (built once a process), with Jinja's bytecode cache in
    `cache_dir/jinja` when there is a cache: a one-shot rebuild after a text edit compiles
    only the paragraphs and formulas whose text changed."""
    sources = Sources()
    bytecode = None
    if cache_dir is not None:
        (cache_dir / "jinja").mkdir(parents=True, exist_ok=True)
        bytecode = SandboxBytecode(str(cache_dir / "jinja"))
    prose, math = prose_environment(sources, bytecode), math_environment(sources, bytecode)
    for env in (prose, math):
        env.filters.update(_filters())
    prose.globals["claim"] = _claim
    return Environments(prose, math, sources)


class Quoter:
    """Evaluates one page's prose and formulas against the results.

    `cache_dir`: where Jinja keeps compiled templates between processes (None: only in
    memory). The prose is compiled paragraph by paragraph (split at blank lines) unless it
    holds a statement `{% … %}`, which may span paragraphs; then it is one template."""

    def __init__(self, path: Path, results: Mapping[str, Any], claims: Mapping[str, Any],
                 cache_dir: Path | None = None):
        self.path = path
        self.log = QuoteLog()
        self.results = results
        self.bounds = results.get("meta", {}).get("bounds", {})
        self.context = {k: wrap(k, v) for k, v in results.items()}
        self.claims = claims
        self.envs = environments(cache_dir)
        self.prose, self.math = self.envs.prose, self.envs.math
        self._render_context = {**self.context, QUOTER_KEY: self}
        self._prose_rows: list[dict[str, float]] | None = None

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
        Each piece (`_paragraphs`) is a template of its own, so the first mistake of every
        piece is raised, all together (errors.Mistakes); a piece never ends inside a `{{ … }}`
        and the text is one piece when it holds a statement, so none is another's cascade.
        """
        out = []
        mistakes = Mistakes()
        for first_line, chunk in _paragraphs(source, self.prose):
            with mistakes.seam():
                out.append(self._render_piece(first_line, chunk))
        mistakes.raise_any()
        return "".join(out)

    def _render_piece(self, first_line: int, chunk: str) -> str:
        """One piece of the prose, whose first line is the file's line `first_line`,
        rendered (`render_prose`); BuildError at its first mistake."""
        name = self.envs.sources.add("prose", chunk)
        first = len(self.log.entries)
        if _QUOTED_TEXT.search(chunk):
            self._no_literal_text(first_line, chunk)
        if _BRACE_AFTER_TAG.search(chunk):
            self._no_stray_brace(first_line, chunk)
        if "{%" in chunk:
            self._no_unknown_filter(first_line, chunk)
        try:
            text = self.relate(self.prose.get_template(name).render(self._render_context), first)
            self.log.place(text, first_line)
            if _MAY_INDEX.search(chunk):
                self._positional_quotes(self.prose, chunk, first_line)
            return text
        except jinja2.TemplateSyntaxError as e:
            line = e.lineno or 0
            opened, opener = unclosed_tag(self.prose, chunk, line)
            if opened:          # a `{{` never closed: Jinja gave up paragraphs later
                raise BuildError(self.path, first_line + opened - 1, "template syntax: "
                                 + unclosed_tag_message(opener, first_line + line - 1, e)
                                 ) from None
            if "end of template" in (e.message or ""):
                line = unclosed_block_line(self.prose, chunk) or line
            raise BuildError(self.path, first_line + line - 1 if line else 0,
                             f"template syntax: {syntax_message(e)}") from None
        except RecursionError:      # Jinja parses nested parentheses recursively
            raise too_deep(self.path, deepest_line(chunk, first_line),
                           "a quote's parentheses, brackets or {% … %} blocks") from None
        except _RENDER_MISTAKES as e:
            first_mistake = self._mistake(e, name, chunk, first_line)
        del self.log.entries[first:]
        raise self._every_quote_mistake(first_line, chunk, first_mistake)

    def _mistake(self, e: Exception, name: str, chunk: str, first_line: int) -> BuildError:
        """The BuildError at the article's line for a mistake `e` that rendering the piece
        `chunk` (template `name`, first line `first_line`) raised."""
        line = template_line(e, name)
        lines = chunk.split("\n")
        written = lines[line - 1] if 0 < line <= len(lines) else ""
        return BuildError(self.path, first_line + line - 1 if line else 0,
                          error_message(e, self.context, written))

    def _every_quote_mistake(self, first_line: int, chunk: str, first: BuildError
                             ) -> BuildError:
        """`first`, the mistake that stopped the piece, with every other quote's of the
        piece: each `{{ … }}` rendered on its own, at its own line (three misspelt quotes
        of one paragraph took three builds to find). A piece holding a statement is left
        with its first mistake: a quote may read what a `{% set %}` before it made. Quotes
        are found by Jinja's own lexer, their text taken as written."""
        if "{%" in chunk:
            return first
        mistakes = Mistakes()
        mistakes.add(first)
        told = {(e.path, e.line, e.message) for e in first.errors}
        at = len(self.log.entries)
        try:
            for lineno, quote in _quotes_of(self.prose, chunk):
                name = self.envs.sources.add("prose", "\n" * (lineno - 1) + quote)
                try:
                    self.prose.get_template(name).render(self._render_context)
                except _RENDER_MISTAKES as e:
                    found = self._mistake(e, name, chunk, first_line)
                    if (found.path, found.line, found.message) not in told:
                        told.add((found.path, found.line, found.message))
                        mistakes.add(found)
        except (jinja2.TemplateSyntaxError, RecursionError):
            return first        # the piece as a whole rendered up to its mistake: keep that
        finally:
            del self.log.entries[at:]
        return combined(mistakes.found)

    def _positional_quotes(self, env: jinja2.Environment, source: str, first_line: int
                           ) -> None:
        """A warning at each quote of `source` (a piece that rendered; its first line is the
        file's line `first_line`) that picks a value of a list along a grid of the
        experiments' parameters (`grid_level`, e.g. `gradient.p10.raw`, one value per d_k) by a
        written position other than the first or the last (`gradient.p10.raw[8]`): the
        position means "the last d" or "the quoted d" only while the grid has the length it
        has today, and a grid made longer (2048 added) quotes another value, silently. [0]
        and [-1] mean the same at any length. Read through Jinja's own parser, which reads
        `raw.8` as `raw[8]` too; an index named by `{% set i = 8 %}` is that place.

        Along any other list (`list_level`: `saturation.scores`, one value per position of
        the row, `saturation.shown_scales`, one per panel), whose length follows a parameter
        too, the places the piece quotes must cover the list when they are more than its first
        and last: a table row quoting `saturation.scores[0]` to `[7]` shows eight of ten
        scores, silently, once the row has ten. A warning at the line of the last such quote,
        naming the places not quoted (`_uncovered`)."""
        along: dict[str, tuple[str, dict[int, int]]] = {}     # path -> (level, place -> line)
        tree = env.parse(source)
        names = _set_ints(tree)
        for node in tree.find_all(jinja2.nodes.Getitem):
            i = _written_int(node.arg, names)
            path = _dotted(node.node)
            if i is None or path is None:
                continue
            level = list_level(path)
            if level is not None and level not in GRID_LEVELS and not level.isdigit():
                # ([2]: a length science/outputs fixes, which the results are checked against)
                along.setdefault(path, (level, {}))[1].setdefault(i, node.lineno)
            if i in (0, -1):
                continue
            grid = grid_level(path)
            if grid is None:
                continue
            try:
                points = at(dict(self.results), path)
            except (KeyError, IndexError, ValueError, TypeError):
                continue
            if not isinstance(points, list) or not -len(points) <= i < len(points):
                continue        # the rendering told it already
            d_k = points if path.split(".")[-1] == grid else _grid_beside(self.results, path, grid)
            n = len(points)
            where = "the last" if i % n == n - 1 else f"place {i % n + 1} of {n}"
            at_d = f" ({grid} = {d_k[i]})" if d_k and len(d_k) == n else ""
            warn(LOGGER, self.path, first_line + node.lineno - 1,
                 f"'{path}[{i}]' picks a value by its place along the grid {grid}: today "
                 f"{where}{at_d}, but with a grid of another length (a d added) it quotes "
                 f"another value, silently; quote a named result (one the experiment's "
                 f"section gives for that d, as rulers.quoted.d), or write {path}[-1] for "
                 f"the last, {path}[0] for the first")
        for path, (level, places) in along.items():
            self._uncovered(path, level, places, first_line)

    def _uncovered(self, path: str, level: str, places: Mapping[int, int], first_line: int
                   ) -> None:
        """A warning when the places `places` (written index -> its line in the piece whose
        first line is the file's `first_line`) of the list at `path` (level `level` of its
        declared shape) quote two or more of its values, not all, and more than its first and
        last: the values left out are shown nowhere in the piece, silently. One place quoted
        alone (`saturation.shown_scales[0]`, the first panel) names that place."""
        try:
            points = at(dict(self.results), path)
        except (KeyError, IndexError, ValueError, TypeError):
            return
        n = len(points) if isinstance(points, list) else 0
        if n == 0 or set(places) <= {0, -1} or any(not -n <= i < n for i in places):
            return              # the first and the last mean the same at any length; an
            #                     index past the end is told by the rendering already
        shown = sorted({i % n for i in places})
        missing = sorted(set(range(n)) - set(shown))
        if len(shown) < 2 or not missing:
            return              # one place quoted alone names that place, not a row of them
        written = (f"'{path}[{shown[0]}]' to '[{shown[-1]}]'"
                   if shown == list(range(shown[0], shown[-1] + 1))
                   else ", ".join(f"'{path}[{i}]'" for i in shown))
        line = first_line + max(places.values()) - 1
        more = ", ".join(f"{{{{ {path}[{i}] }}}}" for i in missing)
        left = ", ".join(f"[{i}]" for i in missing)
        warn(LOGGER, self.path, line,
             f"{written} quote {len(shown)} of the {n} values "
             f"of {path} by place (one per {level}; the list's length follows the "
             f"experiment's parameters), so {left} {'is' if len(missing) == 1 else 'are'} shown "
             f"nowhere here, silently; quote {'it' if len(missing) == 1 else 'each'} too "
             f"({more}: a cell more in the table's row, with its header; a panel more in the "
             f"text), or give the parameter {len(shown)} values again")

    def _no_unknown_filter(self, first_line: int, chunk: str) -> None:
        """BuildError at the first filter (or test) of the piece that Jinja does not know,
        in a branch of an `{% if %}` too: Jinja looks a filter up there only when the branch
        runs, so a misspelt one in the branch these results skip built silently, and failed
        with other results. A syntax error is left to the rendering, which tells it."""
        try:
            tree = self.prose.parse(chunk)
        except jinja2.TemplateSyntaxError:
            return
        for node in tree.find_all((jinja2.nodes.Filter, jinja2.nodes.Test)):
            known, kind = ((self.prose.filters, "filter") if isinstance(node, jinja2.nodes.Filter)
                           else (self.prose.tests, "test"))
            if node.name not in known:
                e = jinja2.TemplateSyntaxError(f"No {kind} named {node.name!r} found.",
                                               node.lineno, "prose")
                e.source = chunk
                raise BuildError(self.path, first_line + node.lineno - 1,
                                 f"template syntax: {syntax_message(e)}")

    def _no_literal_text(self, first_line: int, chunk: str) -> None:
        """BuildError at the first `{{ "text" }}` of the piece (a quoted string between two
        braces, Vue's or Jinja's interpolation of text, as pasted from a VitePress page):
        Jinja prints the words, GitHub shows the braces and quotes as typed, and no result
        is quoted. A syntax error is left to the rendering, which tells it."""
        try:
            tree = self.prose.parse(chunk)
        except jinja2.TemplateSyntaxError:
            return
        for output in tree.find_all(jinja2.nodes.Output):
            for node in output.nodes:
                value = _literal_text(node)
                if value is None:
                    continue
                line = first_line + node.lineno - 1
                typed = chunk.split("\n")[node.lineno - 1]
                shown = next((m.group(0) for m in _INTERPOLATION.finditer(typed)
                              if _QUOTED_TEXT.match(m.group(0))), "{{ … }}")
                raise BuildError(self.path, line,
                                 f"'{shown}' is a quoted string between two braces (Vue's or "
                                 f"Jinja's interpolation of text): the page would show "
                                 f"{value!r} while GitHub shows the braces and quotes as typed, "
                                 f"and it quotes no result; write the words themselves; "
                                 f"{LITERAL_BRACES}")

    def _no_stray_brace(self, first_line: int, chunk: str) -> None:
        """BuildError at the first '}' typed right after the closing braces of a quote, a
        statement or a comment (`{{ x | grouped }}}`, `{{ claim("a.b") }}}`, `{% endif %}}`:
        Mustache's and Handlebars' triple braces, or one brace too many): Jinja prints the
        brace as text beside the number ('16}'), silently. Found by Jinja's own lexer, so a
        brace inside the tag (`{{ {'a': 1}['a'] }}`) is not one. Math and code are masked
        before the prose is rendered: `\\frac{1}{ {{ x }}}` in a formula is not read here.
        A syntax error is left to the rendering, which tells it."""
        try:
            tokens = list(self.prose.lex(chunk))
        except jinja2.TemplateSyntaxError:
            return
        for (_, kind, _), (line, after, text) in itertools.pairwise(tokens):
            if kind in _TAG_ENDS and after == "data" and text.startswith("}"):
                raise BuildError(self.path, first_line + line - 1,
                                 "one '}' too many: a '}' right after the closing braces of a "
                                 "quote, claim, statement or comment is published as typed, "
                                 "beside what it prints; remove it (a quote is written "
                                 "{{ name | fixed(2) }}, two braces on each side, a statement "
                                 "{% … %}); " + LITERAL_BRACES)

    def relate(self, text: str, first: int) -> str:
        """`text`, a rendered piece of the article whose quotes are entries `first`… of the
        log, with the quotes each of its paragraphs relates (embed.PROSE_SLOTS: a whole
        COMPARED pair or RELATED triple in one paragraph; a piece holds several when the
        article has a statement) shown with the digits the relation needs at every dₖ the text
        can follow (embed.steady_specs over embed.prose_rows), recorded in `shown` with the
        reason in `why` (checks.check_precision warns where the author wrote fewer digits);
        and a quoted spread (embed.SPANS) as the difference of its operands as their table
        shows them."""
        mine = [(n, self.log.entries[n]) for n in range(first, len(self.log.entries))]
        changed: dict[int, str] = {}
        for n, (path, fmt, shown) in mine:
            span = span_text(path, self.results, fmt)
            if span is not None and span != shown:
                changed[n] = span
                self.log.entries[n] = (path, fmt, span)
        breaks = [m.end() for m in _BLANK_LINES.finditer(text)]
        paragraph = {int(m.group(1)): bisect.bisect_right(breaks, m.start())
                     for m in QUOTE_RE.finditer(text)}
        groups: dict[int, list[int]] = {}
        for n, (path, _, _) in mine:
            if path in PROSE_SLOTS:
                groups.setdefault(paragraph.get(n, -1), []).append(n)
        for group in groups.values():
            self._relate_paragraph(group, changed)
        if not changed:
            return text
        return QUOTE_RE.sub(lambda m: quote(int(m.group(1)), changed[int(m.group(1))])
                            if int(m.group(1)) in changed else m.group(0), text)

    def _relate_paragraph(self, group: list[int], changed: dict[int, str]) -> None:
        """Show the quotes `group` (log indices of one paragraph's PROSE_SLOTS quotes) that
        the paragraph relates with the digits the relation needs (`relate`); their new texts
        go into `changed`."""
        values: dict[str, float] = {}
        specs: dict[str, str] = {}
        for n in group:
            path, fmt, _ = self.log.entries[n]
            slot = PROSE_SLOTS[path]
            if slot not in specs:
                specs[slot] = fmt
                values[slot] = float(at(dict(self.results), path))
        path_of = {slot: p for p, slot in PROSE_SLOTS.items()}
        for slot, (left_out, other) in missing_operands(set(specs)).items():
            n = next(n for n in group if PROSE_SLOTS[self.log.entries[n][0]] == slot)
            self.log.missing[n] = (path_of[left_out], specs[other])
        why = relations(set(specs))
        if not why:
            return
        # the states the text can show: each dₖ the bar reaches, where the results hold
        # the grid the text follows; else (results without one) the page as built
        spread = self.results.get("spread", {})
        if not {"d_k", "d_small", "d_large"} <= spread.keys():
            rows: list[dict[str, float]] = [values]
        else:
            if self._prose_rows is None:
                self._prose_rows = prose_rows(self.results)
            rows = self._prose_rows
        wanted = steady_specs(rows, specs)
        for n in group:
            path, fmt, _ = self.log.entries[n]
            slot = PROSE_SLOTS[path]
            if slot not in why:
                continue
            self.log.shown[n] = wanted[slot]
            if wanted[slot] != fmt:
                self.log.why[n] = why[slot].format(written=_written(fmt))
                kind, digits = split_spec(wanted[slot])
                changed[n] = format_number(kind, values[slot], digits)
                self.log.entries[n] = (path, fmt, changed[n])

    def render_formula(self, raw: RawFormula) -> Formula:
        """Evaluate the quotes inside one formula; BuildError at the formula's own line.

        A formula without `{{ ` (most of them) is its own result: Jinja would hand its text
        back unchanged (keep_trailing_newline is on; newlines are already "\\n"), so it is
        not compiled."""
        for m in _TEX_BRACES.finditer(raw.tex):
            if m.group(2).split(".")[0] in self.context:
                warn(LOGGER, self.path, raw.first_line + raw.tex.count("\n", 0, m.start()),
                     f"'{m.group(0)}' in a formula is TeX (braces in braces), not a quote: "
                     "the page would show its letters; to quote the result write "
                     f"'{{{{ {m.group(1)} | {m.group(3) or 'fixed(2)'} }}}}' (with the spaces"
                     + (")" if m.group(3) else " and a format filter)"))
        if "{{ " not in raw.tex and "\r" not in raw.tex:
            return Formula((raw.tex,) if raw.tex else (), raw.display, raw.line, raw.tex,
                           raw.first_line)
        name = self.envs.sources.add("formula", raw.tex)
        try:
            tex = self.math.get_template(name).render(self._render_context)
        except jinja2.TemplateSyntaxError as e:
            line = e.lineno or 1
            opened, opener = unclosed_tag(self.math, raw.tex, line)
            raise BuildError(self.path, raw.first_line + (opened or line) - 1,
                             "template syntax in a formula: "
                             + (unclosed_tag_message(opener, raw.first_line + line - 1, e)
                                if opened else syntax_message(e))) from None
        except RecursionError:
            raise too_deep(self.path, deepest_line(raw.tex, raw.first_line),
                           "a quote's parentheses, brackets or {% … %} blocks") from None
        except (jinja2.UndefinedError, UnknownResultError, TypeError, ValueError,
                jinja2.exceptions.SecurityError) as e:
            line = template_line(e, name)
            raise BuildError(self.path, raw.first_line + max(line, 1) - 1,
                             error_message(e, self.context)) from None
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
        if _MAY_INDEX.search(raw.tex):
            self._positional_quotes(self.math, raw.tex, raw.first_line)
        return Formula(tuple(parts), raw.display, raw.line, raw.tex, raw.first_line)


# {{name}}, {{name|grouped}}, {{name[0] | fixed(2)}}: TeX (a group in a group), not a quote,
# unless written with the space after '{{' (the formula is then a template)
_TEX_BRACES = re.compile(r"\{\{(?![ ])(([A-Za-z_][\w.]*)(?:\[\d+\])*)[ \t]*"
                         r"(?:\|[ \t]*(\w+(?:\([^(){}\n]*\))?)[ \t]*)?\}\}")
_BLANK_LINES = re.compile(r"\n[ \t]*\n")
# `{{ "text" }}`, `{{ 'a' ~ 'b' }}`: an interpolation that starts with a quoted string
# what rendering a piece of prose raises for an author's mistake in a quote (BuildError then)
_RENDER_MISTAKES = (jinja2.UndefinedError, UnknownResultError, TypeError, ValueError,
                    jinja2.TemplateNotFound, jinja2.exceptions.SecurityError)


# the list levels of the declared results (science/outputs: a shape's `[name]`) that run
# over a grid of the experiments' parameters, one value per d (SpreadParams.d_k,
# RulerParams.d_k): their length follows the grid's (`grid_level`)
GRID_LEVELS = ("d_k",)


def list_level(path: str) -> str | None:
    """The name of the list level (a shape's `[name]` in science/outputs) that the value at
    dotted `path` of the results is a list along (`d_k` for `gradient.p10.raw`, `position`
    for `saturation.scores`, `scale` for `saturation.shares`, `position` for
    `saturation.shares.3`), or None (not declared, or not a list there)."""
    found = declared().find(path)
    if found is None:
        return None
    out, rest = found
    dims = out.dims
    if len(rest) >= len(dims):
        return None
    kind, name = dims[len(rest)]
    return name if kind == "[" else None


def grid_level(path: str) -> str | None:
    """The grid (a name of `GRID_LEVELS`) whose points the list at dotted `path` of the
    results runs over, as science/outputs declares its shape (`gradient.p10.raw` and
    `spread.d_k` run over d_k; `spread.grid.sd.raw.3` over the batches; `saturation.scores`
    over the row's positions), or None (not declared, or not a list along a grid)."""
    level = list_level(path)
    return level if level in GRID_LEVELS else None


def _grid_beside(results: Mapping[str, Any], path: str, grid: str) -> list[Any] | None:
    """The values of the grid `grid` nearest above `path` (`gradient.d_k` for
    `gradient.p10.raw`), None when no group above holds it as a list."""
    parts = path.split(".")
    for n in range(len(parts) - 1, 0, -1):
        try:
            found = at(dict(results), ".".join([*parts[:n], grid]))
        except (KeyError, IndexError, ValueError, TypeError):
            continue
        if isinstance(found, list):
            return found
    return None


# a piece that may pick a value by its place: `raw[8]`, or `raw.8`, which Jinja reads alike
_MAY_INDEX = re.compile(r"\[|\.\s*\d")


def _set_ints(tree: jinja2.nodes.Template) -> dict[str, int]:
    """Name -> the whole number `{% set name = 8 %}` gives it in `tree`, for the names set
    only so (a name set twice, a loop's name, or one set to anything else is left out: its
    value depends on where)."""
    stored: dict[str, int] = {}
    for name in tree.find_all(jinja2.nodes.Name):
        if name.ctx != "load":
            stored[name.name] = stored.get(name.name, 0) + 1
    found: dict[str, int] = {}
    for node in tree.find_all(jinja2.nodes.Assign):
        if isinstance(node.target, jinja2.nodes.Name) and stored[node.target.name] == 1:
            value = _written_int(node.node, {})
            if value is not None:
                found[node.target.name] = value
    return found


def _written_int(node: jinja2.nodes.Node, names: Mapping[str, int]) -> int | None:
    """The whole number an index is written as (`8`, `-2`, `+2`, or a name `names` gives a
    number), None for anything else."""
    if isinstance(node, jinja2.nodes.Name) and node.ctx == "load":
        return names.get(node.name)
    sign = 1
    if isinstance(node, jinja2.nodes.Neg):
        sign, node = -1, node.node
    elif isinstance(node, jinja2.nodes.Pos):
        node = node.node
    if isinstance(node, jinja2.nodes.Const) and isinstance(node.value, int) \
            and not isinstance(node.value, bool):
        return sign * node.value
    return None


def _dotted(node: jinja2.nodes.Node) -> str | None:
    """The dotted path a quote's expression names (`a.b['c']`), None for anything else
    (a call, a filter, a computed index)."""
    names: list[str] = []
    while True:
        if isinstance(node, jinja2.nodes.Name):
            return ".".join([node.name, *reversed(names)])
        if isinstance(node, jinja2.nodes.Getattr):
            names.append(node.attr)
        elif (isinstance(node, jinja2.nodes.Getitem) and isinstance(node.arg, jinja2.nodes.Const)
              and isinstance(node.arg.value, (str, int)) and not isinstance(node.arg.value, bool)):
            names.append(str(node.arg.value))
        else:
            return None
        node = node.node


def _quotes_of(env: jinja2.Environment, chunk: str) -> list[tuple[int, str]]:
    """(line, text as written) of each `{{ … }}` of `chunk`, found by `env`'s own lexer (its
    raw tokens, which keep the text as typed, quotes of strings included).

    Raises jinja2.TemplateSyntaxError where the lexer cannot read the chunk."""
    found: list[tuple[int, str]] = []
    current: list[str] | None = None
    start = 0
    for lineno, kind, value in env.lex(chunk):
        if kind == "variable_begin":
            current, start = [value], lineno
        elif current is not None:
            current.append(value)
            if kind == "variable_end":
                found.append((start, "".join(current)))
                current = None
    return found


_QUOTED_TEXT = re.compile(r"\{\{-?[ \t\n]*[\"']")
# a brace typed right after a tag's closing braces (`}}}`, `%}}`, `#}}`): `_no_stray_brace`
_BRACE_AFTER_TAG = re.compile(r"[}%#]\}\}")
_TAG_ENDS = frozenset({"variable_end", "block_end", "comment_end"})
_INTERPOLATION = re.compile(r"\{\{.*?\}\}")


def _literal_text(node: jinja2.nodes.Node) -> str | None:
    """The text an output expression prints when it is text alone (a string, or strings
    joined with `~` or `+`), else None."""
    if isinstance(node, jinja2.nodes.Const):
        return node.value if isinstance(node.value, str) else None
    if isinstance(node, jinja2.nodes.Concat):
        parts = [_literal_text(n) for n in node.nodes]
        return None if any(p is None for p in parts) else "".join(p or "" for p in parts)
    if isinstance(node, jinja2.nodes.Add):
        left, right = _literal_text(node.left), _literal_text(node.right)
        return None if left is None or right is None else left + right
    return None



def _paragraphs(source: str, env: jinja2.Environment) -> list[tuple[int, str]]:
    """(first line, text) of the pieces of `source` to compile one by one: paragraphs, each
    ending after the blank line(s) that follow it, so the pieces add up to the source. A
    piece never ends inside `{{ … }}`, nor, when the text holds statements, inside a tag or
    a block statement (`{% if %}` … `{% endif %}`: `_joined_lines`); the text is one piece
    when its statements could reach beyond their block (`_joined_lines` gives None)."""
    joined: set[int] = set()
    if "{%" in source:
        found = _joined_lines(source, env)
        if found is None:
            return [(1, source)]
        joined = found
    pieces, start, line = [], 0, 1
    # the braces and lines of the piece so far, counted stretch by stretch (a `{{` never
    # closed made every later paragraph count the piece again from its start: quadratic)
    at = opened = lines = 0
    for m in _BLANK_LINES.finditer(source):
        stretch = source[at:m.end()]        # no `{{` or `}}` spans a blank line's end
        opened += stretch.count("{{") - stretch.count("}}")
        lines += stretch.count("\n")
        at = m.end()
        if opened or line + lines in joined:
            continue
        pieces.append((line, source[start:m.end()]))
        line += lines
        start, lines = m.end(), 0
    if start < len(source):
        pieces.append((line, source[start:]))
    return pieces


# statements a piece of the prose may hold: blocks that open and close in it, and what is
# said inside them, and `include`, which sets nothing the text after it could read (Jekyll's
# `{% include figure.html … %}`, an error of its own paragraph, must not hide the `{% cite %}`
# tags of the others); any other (`set`, `macro`, `raw`) leaves the text one piece, as does
# whitespace control (`{%-` takes the blank lines before it)
_BLOCKS = frozenset(("if", "for", "filter", "with", "autoescape"))
_INSIDE = frozenset(("elif", "else"))
_LOCAL = frozenset(("include",))
# the statements this Jinja knows (its own and its extensions'): a tag naming none of them
# (Liquid's `{% post_url … %}`, Hexo's `{% asset_img … %}`) is a syntax error of its own
# paragraph, which cannot reach beyond it: the other paragraphs are still compiled, so every
# such tag is named in one build
_STATEMENTS = frozenset((
    "for", "if", "block", "extends", "print", "macro", "include", "from", "import", "set",
    "with", "autoescape", "filter", "call", "raw", "trans", "pluralize", "do", "break",
    "continue", "elif", "else", "debug"))
_OPENING = ("block_begin", "variable_begin", "comment_begin")
_CLOSING = ("block_end", "variable_end", "comment_end")


def _joined_lines(source: str, env: jinja2.Environment) -> set[int] | None:
    """The lines of `source` a piece may not start at (`_paragraphs`): inside a tag, or inside
    a block statement from its opening tag to its end tag (to the end of the text when it is
    never closed), read with Jinja's own lexer. None when the text must stay one piece: a
    statement other than those blocks (or one out of place), whitespace control, or text the
    lexer refuses (its error is then the template's)."""
    joined: set[int] = set()
    open_blocks: list[str] = []
    opened = tag = 0
    naming = False
    try:
        for line, kind, value in env.lex(source):
            if kind in ("raw_begin", "raw_end"):
                return None
            if kind in _OPENING or kind in _CLOSING:
                if "-" in value or "+" in value:
                    return None
                if kind in _OPENING:
                    tag, naming = line, kind == "block_begin"
                else:
                    joined.update(range(tag + 1, line + 1))
            elif naming and kind == "name":
                naming = False
                if value in _BLOCKS:
                    opened = opened if open_blocks else line
                    open_blocks.append(value)
                elif open_blocks and value == "end" + open_blocks[-1]:
                    open_blocks.pop()
                    if not open_blocks:
                        joined.update(range(opened + 1, line + 1))
                elif value.removeprefix("end") not in _STATEMENTS or value in _LOCAL:
                    continue        # no statement: an error of its own piece (`_STATEMENTS`)
                elif not (open_blocks and value in _INSIDE):
                    return None
            elif naming and kind != "whitespace":
                return None
    except jinja2.TemplateSyntaxError:
        return None
    if open_blocks:         # never closed: the rest is one piece, whose error says so
        joined.update(range(opened + 1, source.count("\n") + 2))
    return joined


def _written(fmt: str) -> str:
    """A quote's format as an author writes the filter: `fixed:2` -> `fixed(2)`."""
    kind, _, digits = fmt.partition(":")
    return f"{kind}({digits})" if digits else kind


def mark_quotes(html: str, log: QuoteLog) -> str:
    """Quote markers in HTML text become <span class="q" data-key=… data-format=…>; claim
    markers (invisible) are dropped."""
    def span(m: re.Match[str]) -> str:
        n = int(m.group(1))
        path, fmt, _ = log.entries[n]
        shown = f' data-shown="{log.shown[n]}"' if n in log.shown else ""
        return (f'<span class="q" data-key="{path}" data-format="{fmt}"{shown}>'
                f'{m.group(2)}</span>')
    return CLAIM_RE.sub("", QUOTE_RE.sub(span, html))


__all__ = ["Formula", "Quote", "QuoteLog", "Quoter", "UnknownResultError", "bounds_for",
           "environments", "format_number", "honest_digits", "mark_quotes", "tex_number"]
