"""Take math and code out of the way before templates and Markdown see the article.

TeX collides with everything around it: `_` and `*` with emphasis, `|` with table cells,
backticks with code spans, `{{` with templates, `$` inside `\\text{…}` with the formula's
own end. pymdownx.arithmatex finds math as an inline pattern *after* tables have split their
rows and code spans have taken their backticks, so KaTeX's own test corpus breaks in tables
and with backticks. Here, in one left-to-right pass over the source (as Pandoc and
markdown-it's math rules do), each formula and each piece of code is found first and
replaced by a private-use token on the same line; Jinja and Markdown then never see TeX, and
the TeX reaches KaTeX byte for byte as written.

Rules (Pandoc's for `$`):
- fenced code (``` or ~~~, at any indentation, also in lists, notes and quotes) and code
  spans are code: nothing in them is math or template; an unclosed fence is an error at the
  line where it opens;
- `$$` at the start of a line (after indentation, `>` or a list marker) opens display math,
  closed by a line ending in `$$`; the prefix is removed from every line of the TeX;
- `$` opens inline math when followed by a non-space; it closes at the next `$` outside
  braces that follows a non-space and is not followed by a digit; `\\$` is a dollar sign;
  inline math does not cross a blank line;
- LaTeX's delimiters work too (as in KaTeX's auto-render and pymdownx.arithmatex): `\\(…\\)`
  is inline math anywhere in a paragraph; `\\[` at the start of a line opens display math,
  closed at the end of that line or of a later one by `\\]`. Markdown also reads `\\[` as an
  escaped bracket (`\\[1\\] Smith`), so a `\\[` line whose text holds a `\\]` before its end,
  or that no `\\]` line closes before a blank line, stays text;
- a line starting with `\\begin{…}` of one of TeX's display environments (ENVIRONMENTS, as in
  KaTeX's auto-render) opens display math up to the line ending its `\\end{…}`; the
  environment is part of the TeX;
- comments, `<!-- … -->` and `{# … #}`, are removed first, their line breaks kept (see
  `comments`); nothing inside them is math, template or Markdown;
- template tags (`{{ … }}`, `{% … %}`), autolinks and tags of HTML elements are skipped
  whole; a tag-like token whose name is no HTML element (`<eos>`, `<T>`) is text, its `<`
  written `&lt;` (see `html_names`); a backslash escape is passed on to Markdown, which
  takes every ASCII punctuation mark as CommonMark does (`converter`), except `\\&`, written
  `&amp;` here.
The tokens are the text protocol's markers (sqrtdk.web.markers); each formula keeps the line
it was written on (`RawFormula.line`), so a message about it needs no search.
An indented (4-space) code block, as Python-Markdown reads one (after a blank line, under a
block that is no list item, footnote or definition, whose continuation it would be), is code
too, unless it holds what reads as a formula: that stays a formula, and the page stops at it
saying it is inside an indented code block (`md_guards.MathInRawHtml`).

This module reads the article's blocks (fences, display math); the text of each paragraph
between them is read by `lexer_inline` (code spans, inline math, template tags, angle
brackets), which also holds what the tokens stand for (`Masked`, `RawFormula`).
"""
from __future__ import annotations

import difflib
import logging
import re
from pathlib import Path

from ..errors import BuildError, shortened
from ..html_parsing import HTMLParser
from ..log import warn
from ..markup import paren_formulas
from .comments import drop_comments
from .html_names import element_names
from .lexer_inline import InlineScanner, Masked, RawFormula
from .markers import FILLER
from .numbers import FILTERS
from .quote_messages import BOX_NAMED
from .raw_html import code_tag_at, markdown_raw_lines, raw_html_lines

LOGGER = logging.getLogger("sqrtdk.web")
# a Han character, and what marks a line as code (not a Chinese caption converted from Word)
_HAN = re.compile("[\u3400-\u9fff\uf900-\ufaff]")
_CODE_MARKS = re.compile(r"[=(){}\[\];<>#/\\'\"`|@$]")

_FENCE_OPEN = re.compile(r"^(?P<prefix>(?:[ \t]*>)*[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?)"
                         r"(?P<fence>`{3,}|~{3,})(?P<info>[^\n]*)$")
_DISPLAY_OPEN = re.compile(r"^(?P<prefix>(?:[ \t]*>)*[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?)"
                           r"\$\$(?P<rest>.*)$")
_BRACKET_OPEN = re.compile(r"^(?P<prefix>(?:[ \t]*>)*[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?)"
                           r"\\\[(?P<rest>.*)$")
ENVIRONMENTS = ("equation", "equation*", "align", "align*", "alignat", "alignat*", "gather",
                "gather*", "CD")
_ENV_OPEN = re.compile(r"^(?P<prefix>(?:[ \t]*>)*[ \t]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?)"
                       r"(?P<rest>\\begin\{(?P<env>" + "|".join(re.escape(e) for e in ENVIRONMENTS)
                       + r")\}.*)$")
# `\[ x^2 \].`: only sentence marks after the `\]`, and TeX (a command, a sub- or
# superscript, a brace, an equals sign) before it; `\[1\]. Smith` is neither
_PUNCTUATION_ONLY = re.compile("[.,;:!?)\uff0c\u3002\uff1b\uff1a\uff01\uff1f\u3001\uff09]+")
# a label after the `$$` closing a display formula: `$$ {#eq-var}` (Quarto), `$$ {#eq:var}`
# (pandoc-crossref), `$$ (eq-var)` (MyST, Jupyter Book)
_EQUATION_LABEL = re.compile(r"\$\$[ \t]*(?P<label>\{#[^{}\n]*\}|\((?=[A-Za-z])[\w:.-]+\))"
                             r"[ \t]*$")
_TEX_LIKE = re.compile(r"\\[A-Za-z]|[\^_{}=]")
# a Chinese character (CJK Unified Ideographs, their Extension A and Compatibility block)
_HAN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
# a TeX command, subscript or superscript: what a `\\[` never closed holds when a formula
# was meant (an escaped bracket's text, `\\[1] Smith`, holds none)
_TEX_COMMAND = re.compile(r"\\[A-Za-z]|[\^_]")
# ... and on the `\\[` line itself, where a word such as 'file_name' may follow an escaped
# bracket: a command, or a sub- or superscript of a group or after '^'
_TEX_AFTER_BRACKET = re.compile(r"\\[A-Za-z]|[\^_]\{|\^")
# a Markdown link or image in what a `\\[ … \\]` holds, `[English](README.md)`, `![a](b.png)`,
# `[text](https://…)`: its address has a scheme, starts with '#', '.' or '/', or names a file
# (a letter after its dot), and its words hold no TeX command (`[0,1](x)`,
# `f[x](0.5)`, `\\left[ a \\right](1.5)` are TeX's); a README's language switcher,
# `\\[ [English](README.md) | … \\]`, is such brackets, text on GitHub
_MARKDOWN_LINK = re.compile(r"\[[^\[\]\n\\]+\]\((?:[A-Za-z][A-Za-z0-9+.-]*:|[#./]"
                            r"|[\w-]+\.[A-Za-z]\w*[)#?])")
_LIST_MARKER = re.compile(r"(?:[-*+]|\d{1,9}[.)])[ \t]+$")
# a block whose indented lines continue it: a list item, a footnote, a definition
_CONTINUED = re.compile(r"[ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)|[ \t]*\[\^[^\]]+\]:|[ \t]*:[ \t]")
# a quote of a result or a claim (`{{ walk.steps | grouped }}`, `{{ claim("a.b") }}`) in a
# line of an indented code block: prose indented by a slip, its quotes shown as typed; a
# result only through one of our format filters, so a Jinja example's `{{ name | upper }}`
# or `{{ items|length }}` stays code
_QUOTE_IN_CODE = re.compile(r"\{\{-?[ \t]*(?:claim\(|[A-Za-z_][\w.]*(?:\[\d+\])*[ \t]*\|(?=[ \t]*"
                            r"(?:" + "|".join(FILTERS) + r")\b))")
# ... or through a filter named like one of ours, misspelt (`{{ walk.steps | groupd }}`), or
# a call named like claim (`{{ clam("a.b") }}`): the name called or filtered by (`_misspelt`)
_FILTERED_IN_CODE = re.compile(r"\{\{-?[ \t]*+(?:[A-Za-z_][\w.]*+(?:\[\d+\])*+[ \t]*+\|[ \t]*+"
                               r"([A-Za-z_]\w*+)|([A-Za-z_]\w*+)[ \t]*+\()")
# a box's opening line (`/// details | Why`, `/// note | Title`) in a line of an indented code
# block: a box indented by a slip, shown as code (not a Rust doc comment, `/// Returns x`)
_BOX_IN_CODE = re.compile(r"[ \t]*+/{3,}+[ \t]*+(?:details\b|[A-Za-z][\w-]*+[ \t]*+\|)")
# what reads as a formula in a line of an indented code block: `$x$` (not `\$`), or `\(x\)`
# (`_looks_like_math`)
_DOLLAR_MATH = re.compile(r"(?<!\\)\$(?=[^\s$])(?:[^$\n\\]|\\.)*?(?<=[^\s\\])\$(?!\d)")


# fences GitHub draws instead of showing their code: info string -> what it draws
_GITHUB_DRAWN = {"mermaid": "a diagram", "geojson": "a map", "topojson": "a map",
                 "stl": "a 3D model"}
# fences HackMD (CodiMD) draws, which GitHub shows as code as this site does
_HACKMD_DRAWN = {"sequence": "a sequence diagram", "flow": "a flowchart",
                 "graphviz": "a graph", "abc": "a music score", "vega": "a chart",
                 "plantuml": "a diagram", "markmap": "a mind map", "fretboard": "a fretboard"}
# a code chunk Quarto, R Markdown or Jupyter Book runs (```{python}, ```{r echo=FALSE}), not
# pandoc's attributes (```{.python}), whose output those tools show under the code
_RUN_CHUNK = re.compile(r"\{\s*(?P<lang>[A-Za-z][\w+-]*)(?:[\s,][^}]*)?\}")
# the language line codehilite (Python-Markdown's, as Pelican and MkDocs use it) reads off a
# code block's first line: `:::python` (with its options), `#!python` (also line numbers);
# not a shebang (`#!/usr/bin/env python`)
_CODEHILITE_HEADER = re.compile(r"(?::::|#!)(?P<lang>[A-Za-z][\w+#.-]*)(?:[ \t]+[^\n]*)?")
# a line of an indented code block in a quote: its '>' markers, then 4 columns. Each marker
# is an atomic group, as Python-Markdown strips one (`>` and one optional space): written as a
# plain group, the space after a `>` could go to it or to the next marker's indent, and a line
# of 30 nested quotes `> > > … x` took minutes to fail (2 ** 30 ways)
_QUOTED_CODE = re.compile(r"(?>[ \t]{0,3}>[ \t]?)+(?: {4}|\t)")
# a MyST (Jupyter Book, Sphinx) directive written as a fence: its name in braces, then any
# argument (```{note}, ```{admonition} Title, ```{code-cell} ipython3, ```{glue:figure} name)
_DIRECTIVE = re.compile(r"\{(?P<name>[A-Za-z][\w:.-]*)\}(?:[ \t]+(?P<arg>.*))?")
# directives that are a box of text, and what MyST calls a figure, a table, a notebook cell
_MYST_BOXES = frozenset((
    "note", "tip", "hint", "important", "warning", "caution", "attention", "danger", "error",
    "seealso", "admonition", "dropdown", "margin", "sidebar", "topic", "todo", "versionadded",
    "versionchanged", "deprecated", "exercise", "solution", "epigraph", "pull-quote", "card",
    "tab-set", "tab-item", "div", "aside", "proof", "theorem", "lemma", "definition",
    "example", "remark"))
_MYST_FIGURES = frozenset(("figure", "image", "glue:figure", "glue", "iframe"))
_MYST_TABLES = frozenset(("list-table", "csv-table", "table", "glue:table"))
_MYST_CELLS = frozenset(("code-cell", "jupyter-execute", "ipython", "exec"))
_MYST_NAMES = _MYST_BOXES | _MYST_FIGURES | _MYST_TABLES | _MYST_CELLS | {"math", "bibliography"}


def _misspelt(line: str) -> tuple[re.Match[str], str] | None:
    """The first quote of `line` through a filter that is none of ours but is named like one
    (`groupd`, `fixd`, `Pct`: the same letters but one or two, as difflib's ratio of 0.8
    or more measures it), or calling a name like `claim` (`clam(`), and that name of ours;
    None if none. Jinja's own filters and functions stay apart (`groupby` is 0.71 from
    `grouped`, `first` 0.4 from `fixed`, `range` from `claim`)."""
    for m in _FILTERED_IN_CODE.finditer(line):
        name, ours = (m.group(1), FILTERS) if m.group(1) else (m.group(2), ("claim",))
        if name in ours:
            continue
        close = difflib.get_close_matches(name.lower(), ours, 1, 0.8)
        if close:
            return m, close[0]
    return None


def _looks_like_math(line: str) -> bool:
    """Whether a line of an indented code block holds what reads as a formula."""
    return bool(_DOLLAR_MATH.search(line)) or next(paren_formulas(line), None) is not None


def myst_directive(info: str) -> re.Match[str] | None:
    """The fence's info string read as a MyST directive (`{name} argument`), or None: one
    with an argument after its brace, a ':' or '-' in its name (`{prf:theorem}`,
    `{code-cell}`) or a name MyST gives its directives (`{note}`, `{math}`); `{python}`,
    `{r echo=FALSE}` are Quarto's chunks."""
    m = _DIRECTIVE.fullmatch(info.strip())
    if m is None:
        return None
    name = m["name"].lower()
    return m if (m["arg"] or ":" in name or "-" in name or name in _MYST_NAMES) else None


def directive_message(fence: str, info: str, m: re.Match[str]) -> str:
    """What a MyST directive fence (`myst_directive`) becomes here, and what to write."""
    name = m["name"].lower()
    head = (f"'{fence}{info.strip()}' is a MyST (Jupyter Book, Sphinx) directive, which this "
            "Markdown does not know: the page shows its lines as code, as GitHub does")
    kind = name.rpartition(":")[2]
    if name == "math":
        return (f"'{fence}{{math}}' is a display formula in MyST (Jupyter Book), which this "
                "Markdown does not know: the page shows its TeX as code, as GitHub does; "
                "write the TeX between two '$$' lines (a ':label:' as '\\tag{1}' inside, "
                "referred to in words)")
    if name in _MYST_CELLS:
        lang = (m["arg"] or "python").split()[0].lower()
        lang = "python" if lang.startswith("ipython") or lang == "python3" else lang
        return (f"'{fence}{info.strip()}' is a notebook cell MyST-NB (Jupyter Book) runs, "
                "showing its output under it; this site does not run it: the page shows its "
                "code alone (as GitHub does), and its output is lost; put the output in the "
                "article (a figure the build draws, a number quoted from the results) and "
                f"write the fence as '{fence}{lang}'")
    if name in _MYST_FIGURES or kind == "figure":
        return head + "; write a figure as a paragraph of its own, " \
                      "![what it shows](NAME.svg \"Caption\")"
    if name in _MYST_TABLES or kind == "table":
        return head + "; write the table as a pipe table ('| a | b |' over '|---|---|')"
    return head + "; write what it stands for in Markdown, or remove it"


def myst_box(m: re.Match[str]) -> bool:
    """Whether a MyST directive (`myst_directive`) is a box of text (`{note}`, `{admonition}
    Title`, `{prf:theorem}`): told the lines of the box to write in its place, with the
    page language's title (editor_blocks.myst_box_fences), not by the lexer."""
    name = m["name"].lower()
    return name in _MYST_BOXES or name.rpartition(":")[2] in _MYST_BOXES


# an attribute list as a fence's whole info string, Pandoc's and superfences' `{.python
# #id title="t"}`: its first word
_ATTRIBUTE_INFO = re.compile(r"\{[ \t]*(?P<first>[.#][^\s}]*)(?P<rest>[^}]*)\}[ \t]*")


def braced_info(info: str) -> str | None:
    """The info string a fence is converted with, in place of `info`, or None to keep it. A
    MyST directive or a Quarto (R Markdown) chunk, `{name …}` (`myst_directive`): "" (a plain
    block of code, as GitHub shows it), as Python-Markdown's attribute list (superfences
    reads the braces as one) would give the code element an attribute per bare word
    (`name="None"`). An attribute list with more than a language, `{.python #id
    title="t"}`: the language alone ("python"; "" with no `.class` first), as md_blocks
    warns that the rest is dropped: superfences would publish it, an id and classes on the
    code and `title` as a tooltip."""
    if directive_or_chunk(info):
        return ""
    m = _ATTRIBUTE_INFO.fullmatch(info.strip())
    if m is None or (not m["rest"].strip() and m["first"].startswith(".")):
        return None
    return m["first"][1:] if m["first"].startswith(".") else ""


def directive_or_chunk(info: str) -> bool:
    """Whether a fence's info string is a MyST directive or a Quarto (R Markdown) chunk,
    `{name …}`, `{r echo=FALSE}`: the lexer tells what to write for it, options included."""
    return bool(myst_directive(info) or _RUN_CHUNK.fullmatch(info.strip()))


def plain_fence(line: str) -> str:
    """A fence's opening `line` without its info string (its prefix and fence kept);
    `line` itself when it opens no fence."""
    m = _FENCE_OPEN.match(line)
    return m["prefix"] + m["fence"] if m else line


def _unprefixed(raw: str, cont: str) -> str:
    """A later line of a block without the block's continuation prefix (or its indentation)."""
    return raw[len(cont):] if raw.startswith(cont) else raw.lstrip(" \t")


def _continuation_prefix(prefix: str) -> str:
    """The prefix of a block's later lines: list markers become spaces, `>` stay."""
    m = _LIST_MARKER.search(prefix)
    return prefix if not m else prefix[:m.start()] + " " * (m.end() - m.start())


def fence_end(lines: list[str], i: int) -> int | None:
    """The index of the line that closes the code fence opened at lines[i] (the last line when
    none does: the scanner reports that), or None when lines[i] opens no fence."""
    m = _FENCE_OPEN.match(lines[i])
    if not m or (m["fence"][0] == "`" and "`" in m["info"]):
        return None
    closing = _fence_closing(m["fence"])
    return next((j for j in range(i + 1, len(lines)) if closing.match(lines[j])),
                len(lines) - 1)


def code_block_end(lines: list[str], i: int) -> int | None:
    """The index of the last line of the code block that starts at lines[i]: a fence
    (`fence_end`), or an indented code block as Python-Markdown reads one (`_indented_at`;
    up to its last indented line, over blank lines between them); None when lines[i] starts
    no code block. What `comments.drop_comments` skips: `<!--` in code is text."""
    end = fence_end(lines, i)
    if end is not None or not _indented_at(lines, i):
        return end
    last, column = i, _content_column(lines, i) + 4
    for j in range(i + 1, len(lines)):
        if lines[j].strip() and _indent(lines[j]) < column:
            break
        if lines[j].strip():
            last = j
    return last


def _indented_at(lines: list[str], i: int) -> bool:
    """Whether lines[i] starts an indented code block: indented by 4 columns more than the
    content of the list item, footnote or definition holding it (if any), after a blank line
    (or the file's start)."""
    return (bool(lines[i].strip()) and (i == 0 or not lines[i - 1].strip())
            and _indent(lines[i]) >= _content_column(lines, i) + 4)


def _content_column(lines: list[str], i: int) -> int:
    """The column where the content of the innermost list item, footnote or definition
    holding lines[i] starts, as Python-Markdown reads them (4 columns in from its marker's
    line); 0 where none holds it. Back over blank lines and lines indented as far as lines[i]
    to the block above, left of it: a run of lines holding such a marker (the innermost
    whose content lines[i] reaches), or a paragraph, whose own container holds lines[i].
    Every line's answer is found in one pass over `lines` (`_ContentColumns`), kept while the
    same list is asked about: walking back from each line took the square of the length."""
    global _COLUMNS
    if _COLUMNS is None or _COLUMNS.lines is not lines or len(_COLUMNS.columns) != len(lines):
        _COLUMNS = _ContentColumns(lines)
    column = _COLUMNS.columns[i]
    return column if column >= 0 else _walked_column(lines, i)


def _walked_column(lines: list[str], i: int) -> int:
    """`_content_column` walked back from lines[i] (what `_ContentColumns` finds at once;
    asked only of a blank line, whose indentation is spaces alone)."""
    want, k = _indent(lines[i]), i - 1
    while k >= 0 and (not lines[k].strip() or _indent(lines[k]) >= want):
        k -= 1
    if k < 0:
        return 0
    run = []                           # the lines of that block, up to a blank line
    while k >= 0 and lines[k].strip():
        run.append(lines[k])
        k -= 1
    markers = [_indent(line) for line in run if _CONTINUED.match(line)
               and _indent(line) + 4 <= want]
    if markers:
        return max(markers) + 4
    top = k + 1                        # the run's first line, a paragraph's
    return _walked_column(lines, top) if _indent(lines[top]) >= 4 else 0


class _ContentColumns:
    """`_content_column` of every line of `lines` (-1 for a blank line: walked back when
    asked), found in one pass: the block above a line, left of it, is the top of a stack of
    the lines above, each left of the next (a line as far in as a later one is never that
    later one's block); that line's run is asked for its markers by their indentations
    (each with the first line it is met on), not line by line."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.columns = [-1] * len(lines)
        stack: list[tuple[int, int]] = []       # (indentation, index), indentation rising
        # of each line: the first line of its run, and the run's markers up to then and
        # after (indentation -> first line with it: the run's one dict, growing)
        starts: dict[int, int] = {}
        markers: dict[int, dict[int, int]] = {}
        start = 0
        first_at: dict[int, int] = {}
        asked: dict[tuple[int, int], int] = {}  # (line above, want) -> its markers' column
        for i, line in enumerate(lines):
            if not line.strip():
                start, first_at = i + 1, {}
                continue
            want = _indent(line)
            while stack and stack[-1][0] >= want:
                stack.pop()
            column = 0
            if stack:
                k = stack[-1][1]
                if (k, want) not in asked:
                    found = [d for d, j in markers[k].items() if j <= k and d + 4 <= want]
                    asked[(k, want)] = max(found) + 4 if found else -1
                column = asked[(k, want)]
                if column < 0:
                    top = starts[k]
                    column = self.columns[top] if _indent(lines[top]) >= 4 else 0
            self.columns[i] = column
            stack.append((want, i))
            if _CONTINUED.match(line):
                first_at.setdefault(want, i)
            starts[i], markers[i] = start, first_at


_COLUMNS: _ContentColumns | None = None


def _fence_closing(fence: str) -> re.Pattern[str]:
    return re.compile(r"^(?:[ \t]*>)*[ \t]*" + re.escape(fence[0]) + "{" + str(len(fence)) +
                      r",}[ \t]*$")


# jupytext's cell marker, `# %%`, `# %% [markdown]`, `# %% tags=["hide-input"]`
_PERCENT_CELL = re.compile(r"#[ \t]*%%(?:[ \t]|$)")


class _Scanner(InlineScanner):
    """The article line by line: fences and display math are blocks of lines; the lines
    between are paragraphs, whose inline math and code `InlineScanner` masks."""

    def __init__(self, path: Path, text: str, elements: frozenset[str]):
        super().__init__(path, elements)
        self.lines = text.split("\n")
        self.out: list[str] = []

    def raw_html_block(self, line: int, column: int) -> tuple[int, str, str] | None:
        """See `InlineScanner.raw_html_block`: read on an error's way only (a Markdown pass
        and cmark-gfm's, an HTML parser's over the block), from the article's lines as they
        stand."""
        raw = raw_html_lines("\n".join(self.lines))
        if line not in raw:
            return None
        first = line
        while first - 1 in raw:
            first -= 1
        before = "\n".join([*self.lines[first - 1:line - 1], self.lines[line - 1][:column - 1]])
        return (first, shortened(self.lines[first - 1].lstrip(" \t>").rstrip(), 30),
                code_tag_at(before))

    def run(self) -> Masked:
        i = 0
        paragraph: list[tuple[int, str]] = []
        while i < len(self.lines):
            line = self.lines[i]
            fence, display = _FENCE_OPEN.match(line), _DISPLAY_OPEN.match(line)
            if fence and not (fence["fence"][0] == "`" and "`" in fence["info"]):
                self.flush(paragraph)
                i = self.fenced(i, fence)
            elif display:
                self.flush(paragraph)
                i = self.display(i, display)
            elif env := _ENV_OPEN.match(line):
                self.flush(paragraph)
                i = self.environment(i, env)
            elif (bracket := _BRACKET_OPEN.match(line)) and \
                    (end := self.bracket_end(i, bracket)) is not None:
                self.flush(paragraph)
                i = self.bracket_display(i, bracket, end)
            elif not line.strip() or line.strip(" \t>") == "":
                self.flush(paragraph)
                self.out.append(line)
                i += 1
            else:
                if _PERCENT_CELL.match(line):
                    self._percent_script(i + 1, line)
                paragraph.append((i + 1, line))
                i += 1
        self.flush(paragraph)
        self.masked.text = "\n".join(self.out)
        return self.masked

    def _percent_script(self, n: int, line: str) -> None:
        """Line n, `line`, of text (not code) is a cell marker of a script in jupytext's
        percent format (`# %% [markdown]` over `# ` comment lines, `# %%` over code), pasted
        whole: every '# ' line is a level-1 heading here, its math and code mangled; an
        error at the first marker, with the mistakes found before it."""
        raise self.error(n, f"'{line.strip()[:30]}' is a cell marker of a jupytext script "
                            "(percent format): a Python file, whose Markdown cells are '# ' "
                            "comments, which this Markdown reads as level-1 headings; convert "
                            "it first (jupytext --to md), or write its Markdown cells without "
                            "the '# ' and its code cells in '```python' fences")

    def fenced(self, i: int, m: re.Match[str]) -> int:
        closing = _fence_closing(m["fence"])
        for j in range(i + 1, len(self.lines)):
            if closing.match(self.lines[j]):
                self._no_fence_inside(i, j, m["fence"])
                if m["info"].strip() == "math":
                    return self.math_fence(i, j, m)
                if (kind := m["info"].strip().lower()) in _GITHUB_DRAWN:
                    warn(LOGGER, self.path, i + 1,
                         f"a '{m['fence']}{kind}' fence is {_GITHUB_DRAWN[kind]} on GitHub, "
                         "but this site does not draw it: the page shows its source as code; "
                         "make it a figure the build draws, or an image")
                if kind in _HACKMD_DRAWN:
                    warn(LOGGER, self.path, i + 1,
                         f"a '{m['fence']}{kind}' fence is {_HACKMD_DRAWN[kind]} in HackMD "
                         "(CodiMD), which neither this site nor GitHub draws: the page shows "
                         "its source as code; make it a figure the build draws, or an image")
                if kind == "mdx-code-block":
                    warn(LOGGER, self.path, i + 1,
                         f"'{m['fence']}mdx-code-block' is Docusaurus' MDX wrapper: Docusaurus "
                         "reads what it holds as MDX (JSX components, imports) and shows no "
                         "code; here, as on GitHub, the page shows it as a block of code; "
                         "write what it shows in Markdown, without the fence, or remove it")
                if directive := myst_directive(m["info"]):
                    if not myst_box(directive):     # a box: told with its title (pages)
                        warn(LOGGER, self.path, i + 1,
                             directive_message(m["fence"], m["info"], directive))
                elif (chunk := _RUN_CHUNK.fullmatch(m["info"].strip())) and \
                        chunk["lang"].lower() in ("block", "block2"):
                    warn(LOGGER, self.path, i + 1,
                         f"'{m['fence']}{m['info'].strip()}' is bookdown's custom block, a box "
                         "of text this Markdown does not know: the page shows its lines as "
                         f"code, as GitHub does; write {BOX_NAMED}, or a plain quote")
                elif chunk:
                    warn(LOGGER, self.path, i + 1,
                         f"'{m['fence']}{m['info'].strip()}' is a code chunk Quarto or R "
                         "Markdown runs, showing its output under it; this site does not run "
                         "it: the page shows its code alone (as GitHub does), and its output "
                         "is lost; put the output in the article (a figure the build draws, "
                         "a number quoted from the results) and write the fence as "
                         f"'{m['fence']}{chunk['lang'].lower()}'")
                if not m["info"].strip() and j > i + 1:
                    self._codehilite_header(i + 2, self.lines[i + 1])
                self.masked.fences.append((i + 1, m["info"].strip(), "\n".join(
                    line.lstrip(" \t>") for line in self.lines[i + 1:j])))
                self.out += [self.code(x) for x in self.lines[i:j + 1]]
                return j + 1
        raise self.error(i + 1, f"code fence '{m['fence']}' is never closed; end the code with "
                                f"a line '{m['fence']}'")

    def _tab_indented_text(self, block: list[tuple[int, str]]) -> None:
        """An indented code block of one line, indented by a tab, that holds Chinese words
        and no code: a caption or paragraph of a document converted from Word or WPS, which
        indent with a tab; code here and on GitHub. A warning at its line."""
        if len(block) != 1 or not block[0][1].startswith("\t"):
            return
        n, line = block[0]
        words = line.strip(" \t\u3000")
        if _HAN.search(words) and not _CODE_MARKS.search(words):
            warn(LOGGER, self.path, n,
                 f"'{words[:30]}', indented by a tab after a blank line, is a code block here "
                 "and on GitHub, its words shown as code (a Word or WPS indent, as of a caption?); "
                 "remove the tab for a paragraph, or write code in a fence (```)")

    def _codehilite_header(self, n: int, line: str) -> None:
        """Line n (1-based), the first of a code block: codehilite's language line
        (`:::python`, `#!python`) is a warning there, since the page shows it as code."""
        header = _CODEHILITE_HEADER.fullmatch(line.lstrip(" \t>").rstrip())
        if header is None:
            return
        typed = header.group(0)
        warn(LOGGER, self.path, n,
             f"'{typed}' on a code block's first line is the language line of Python-Markdown's "
             "codehilite (Pelican, MkDocs), which this build does not read: the page shows it as "
             "the code's first line, as GitHub does; remove the line and write the code in a "
             f"fence, ```{header['lang'].lower()}")

    def math_fence(self, i: int, j: int, m: re.Match[str]) -> int:
        """GitHub's display math, a fence ```` ```math ```` from line i to line j: the
        display formula of its lines, as between two `$$` lines."""
        prefix, cont = m["prefix"], _continuation_prefix(m["prefix"])
        tex = "\n".join(_unprefixed(raw, cont) for raw in self.lines[i + 1:j])
        if not tex.strip():
            raise self.error(i + 1, "empty display formula; put the TeX between the "
                                    f"'{m.group('fence')}math' line and the closing "
                                    f"'{m.group('fence')}'")
        self.out.append(prefix + self.formula(tex.strip("\n"), True, i + 1, i + 2))
        self.out += [cont + FILLER] * (j - i)
        return j + 1

    def _no_fence_inside(self, i: int, j: int, fence: str) -> None:
        """A line opening a fence of the same kind inside (```python, ```reproduce) whose
        closing line would close this one too (as long or longer) means the fence at line
        i + 1 was left open and swallowed text up to another fence's end; a shorter one inside
        a longer (```` ```` ```` around ```` ``` ````) is code shown as code, as on GitHub."""
        for k in range(i + 1, j):
            inner = _FENCE_OPEN.match(self.lines[k])
            if inner and inner["fence"][0] == fence[0] and inner["info"].strip() and \
                    len(inner["fence"]) >= len(fence):
                raise self.error(i + 1, f"code fence '{fence}' is not closed before line "
                                 f"{k + 1}, which opens another ('{self.lines[k].strip()}'); end "
                                 f"the code with a line '{fence}' (to show a fence inside code, "
                                 f"open the outer one with '{fence[0] * (len(fence) + 1)}')")

    def display(self, i: int, m: re.Match[str]) -> int:
        prefix, rest = m["prefix"], m["rest"]
        cont = _continuation_prefix(prefix)
        if rest.rstrip().endswith("$$") and rest.strip() != "$$" and len(rest.rstrip()) >= 2:
            self.out.append(prefix + self.formula(rest.rstrip()[:-2].strip(), True, i + 1))
            return i + 1
        self._no_equation_label(i, rest)
        if rest.strip() == "$$":
            raise self.error(i + 1, "empty display formula '$$$$'; write the TeX between a "
                                    "'$$' line and a closing '$$' line")
        body = [rest] if rest.strip() else []
        for j in range(i + 1, len(self.lines)):
            raw = self.lines[j]
            text = _unprefixed(raw, cont)
            self._no_equation_label(j, text)
            if text.rstrip().endswith("$$"):
                last = text.rstrip()[:-2]
                if last.strip():
                    body.append(last)
                tex = "\n".join(body)
                if not tex.strip():
                    raise self.error(i + 1, "empty display formula; put the TeX between the "
                                            "two '$$' lines")
                self.out.append(prefix + self.formula(tex, True, i + 1,
                                                      i + 1 if rest.strip() else i + 2))
                self.out += [cont + FILLER] * (j - i)
                return j + 1
            if not raw.strip() and any(x.strip() for x in body):
                if (close := self._closed_after_blank(j, cont)) is not None:
                    raise self.error(j + 1, f"a blank line inside the display formula opened "
                                            f"at line {i + 1} (its '$$' is at line {close}) "
                                            "ends it here and on GitHub: TeX has no blank "
                                            "lines inside a formula; remove this line")
                raise self.error(i + 1, "display formula opened with '$$' is not closed before "
                                        "the blank line below it; end it with a line '$$' "
                                        "(TeX has no blank lines inside a formula)")
            body.append(text)
        raise self.error(i + 1, "display formula opened with '$$' is never closed; end it "
                                "with a line '$$'")

    def _closed_after_blank(self, j: int, cont: str) -> int | None:
        """The 1-based line of the '$$' that closes a display formula after the blank line
        `j` (0-based), when every line between reads as TeX (a command, '=', '^', '_', '&'
        or a brace: `\\end{gather*}`, `= \\frac{…}`), not as a paragraph of text: the
        blank line is then inside the formula. None for another."""
        k = j + 1
        while k < len(self.lines) and not self.lines[k].strip():
            k += 1
        seen = False
        for n in range(k, len(self.lines)):
            text = _unprefixed(self.lines[n], cont).strip()
            if not text or (text.startswith("$$") and text != "$$"):
                return None
            if text.endswith("$$"):
                return n + 1 if seen or text != "$$" else None
            if not re.search(r"[\\=^_&{]", text):
                return None
            seen = True
        return None

    def _no_equation_label(self, j: int, text: str) -> None:
        """`$$ {#eq-var}` (Quarto, pandoc-crossref), `$$ (eq-var)` (MyST): a label after
        the `$$` that closes a display formula, which this Markdown does not know (the formula
        would be read as never closed): an error at line j saying what to write."""
        label = _EQUATION_LABEL.search(text)
        if label is not None:
            tools = "MyST, Jupyter Book" if label["label"].startswith("(") else \
                "Quarto, pandoc-crossref"
            raise self.error(j + 1, f"'$$ {label['label']}' labels a display formula ({tools}), "
                                    "which this Markdown does not know; end "
                                    "the formula with '$$' alone, number it with "
                                    "'\\tag{1}' inside if the text refers to it, and write "
                                    "the reference as words ('equation (1)')")

    def bracket_end(self, i: int, m: re.Match[str]) -> int | None:
        """The line closing the `\\[` display formula opened at line i (itself, for a one-line
        formula), or None when this `\\[` is an escaped bracket (see the module docstring)."""
        rest = m["rest"].rstrip()
        if rest.endswith("\\]") and not rest.endswith("\\\\]"):
            inner = rest[:-2]
            return i if inner.strip() and "\\]" not in inner and \
                not _MARKDOWN_LINK.search(inner) else None
        if "\\]" in rest:
            self._text_after_close(i, rest, rest)
            return None
        cont = _continuation_prefix(m["prefix"])
        for j in range(i + 1, len(self.lines)):
            raw = self.lines[j]
            text = _unprefixed(raw, cont).rstrip()
            if not raw.strip(" \t>"):
                self._never_closed(i, rest, self.lines[i + 1:j])
                return None
            if text.endswith("\\]") and not text.endswith("\\\\]"):
                # brackets around a link, as on one line, are text
                held = "\n".join([rest, *self.lines[i + 1:j], text])
                return None if _MARKDOWN_LINK.search(held) else j
            if "\\]" in text:
                self._text_after_close(j, text, "\n".join(self.lines[i:j + 1]))
        self._never_closed(i, rest, self.lines[i + 1:])
        return None

    def _never_closed(self, i: int, rest: str, below: list[str]) -> None:
        """A `\\[` that opens line i, alone or before TeX (`\\[ x^2`), over lines of TeX that
        no `\\]` closes before the blank line: a display formula whose `\\]` was lost (a
        copied solution's), which Markdown would show as '[' and its TeX as text; an error at
        line i. An escaped bracket's text (`\\[1] Smith`, `\\[see below]`) stays text."""
        if rest.strip() and not _TEX_AFTER_BRACKET.search(rest):
            return
        if not _TEX_COMMAND.search(rest + "\n" + "\n".join(below)):
            return
        raise self.error(i + 1, "'\\[' opens a display formula that no line ending with "
                                "'\\]' closes before the blank line under it: the page would "
                                "show '[' and its TeX as text; end the formula's last line with "
                                "'\\]' (or write it between two '$$' lines)")

    def _text_after_close(self, j: int, line: str, tex: str) -> None:
        """`\\[ x^2 \\].`: punctuation after the `\\]` of what is plainly TeX would leave
        the formula as bracketed text; an error at line j says where the mark goes."""
        close = line.rfind("\\]")
        after = line[close + 2:].strip()
        inner = tex[:tex.rfind("\\]")]
        if after and _PUNCTUATION_ONLY.fullmatch(after) and _TEX_LIKE.search(inner):
            raise self.error(j + 1, f"'{after}' after the '\\]' that closes a display formula; "
                                    "'\\]' must end its line: put the mark inside the formula, "
                                    "before the '\\]' (bracketed text is written [ … ])")

    def _words_alone(self, i: int, tex: str) -> None:
        """A `\\[ … \\]` formula of Chinese words and no TeX (no command, script, brace or
        '='), '\\[ <Chinese> | English \\]' or '\\[ <a tag> \\]', is Markdown's escaped
        brackets around words on GitHub: still a formula here, but a warning at line i."""
        if _HAN.search(tex) and not _TEX_LIKE.search(tex):
            words = shortened(" ".join(tex.split()), 40)
            warn(LOGGER, self.path, i + 1,
                 f"'\\[ {words} \\]' is typeset as a display formula (LaTeX's "
                 "delimiters), but holds words and no TeX: GitHub shows it as the words in "
                 "brackets; for brackets as text, write them without the backslashes, "
                 f"'[ {words} ]'; for a formula, put its words in \\text{{…}}")

    def bracket_display(self, i: int, m: re.Match[str], end: int) -> int:
        """A display formula `\\[ … \\]` from line i to line `end` (see bracket_end)."""
        prefix, cont = m["prefix"], _continuation_prefix(m["prefix"])
        if end == i:
            tex = m["rest"].rstrip()[:-2].strip()
            self._words_alone(i, tex)
            self.out.append(prefix + self.formula(tex, True, i + 1))
            return i + 1
        body = [m["rest"]] if m["rest"].strip() else []
        for raw in self.lines[i + 1:end + 1]:
            body.append(_unprefixed(raw, cont))
        body[-1] = body[-1].rstrip()[:-2]
        tex = "\n".join(x for x in body if x.strip()).strip()
        if not tex:
            raise self.error(i + 1, "empty display formula; put the TeX between '\\[' and "
                                    "'\\]'")
        self._words_alone(i, tex)
        self.out.append(prefix + self.formula(tex, True, i + 1,
                                              i + 1 if m["rest"].strip() else i + 2))
        self.out += [cont + FILLER] * (end - i)
        return end + 1

    def environment(self, i: int, m: re.Match[str]) -> int:
        """A display formula `\\begin{env} … \\end{env}` opened at line i."""
        prefix, cont, end = m["prefix"], _continuation_prefix(m["prefix"]), f"\\end{{{m['env']}}}"
        body = [m["rest"]]
        for j in range(i, len(self.lines)):
            if j > i:
                raw = self.lines[j]
                if not raw.strip(" \t>"):
                    raise self.error(i + 1, f"'\\begin{{{m['env']}}}' is not ended before the "
                                            f"blank line below it; end it with '{end}' (TeX has "
                                            "no blank lines inside a formula)")
                body.append(_unprefixed(raw, cont))
            if body[-1].rstrip().endswith(end):
                self.out.append(prefix + self.formula("\n".join(body).strip(), True, i + 1))
                self.out += [cont + FILLER] * (j - i)
                return j + 1
        raise self.error(i + 1, f"'\\begin{{{m['env']}}}' is never ended; end it with '{end}'")

    def flush(self, paragraph: list[tuple[int, str]]) -> None:
        """Mask the inline math and code spans of consecutive non-blank lines; the lines of
        an indented code block (`indented_code`) are code, unless they hold what reads as a
        formula (then it is one, and the page says it is inside an indented code block)."""
        if not paragraph:
            return
        code = self.indented_code(paragraph)
        if code and not any(_looks_like_math(line) for _, line in paragraph[:code]):
            for number, line in paragraph[:code]:
                quoted = _QUOTE_IN_CODE.search(line)
                slip = ""
                if quoted is None and (misspelt := _misspelt(line)) is not None:
                    quoted, meant = misspelt
                    kind = "filter" if quoted.group(1) else "function"
                    slip = (f"; and '{quoted.group(1) or quoted.group(2)}' is no {kind} of "
                            f"this site's: did you mean '{meant}'?")
                if _BOX_IN_CODE.match(line):
                    raise self.error(number, f"'{shortened(line.strip(), 40)}' is a box's "
                                             "opening line inside an indented code block (a "
                                             "line indented by four spaces is code), which "
                                             "shows it as typed, the box never made; for a "
                                             "box remove the indent (its options stay indented "
                                             "by four spaces), for code that shows one use a "
                                             "fence (```)")
                if quoted is not None:
                    raise self.error(number, f"the quote '{quoted.group(0)} … }}}}' is inside "
                                             "an indented code block (a line indented by four "
                                             "spaces is code), which shows it as typed; for "
                                             "text remove the indent, for code that shows a "
                                             f"quote use a fence (```){slip}")
            self._codehilite_header(*paragraph[0])
            self._tab_indented_text(paragraph[:code])
            self.out += [self.code(line) for _, line in paragraph[:code]]
            del paragraph[:code]
        elif not code and _QUOTED_CODE.match(paragraph[0][1]) and \
                (paragraph[0][0] == 1 or not self.lines[paragraph[0][0] - 2].strip(" \t>")):
            self._codehilite_header(*paragraph[0])     # a quote's indented code block
        if paragraph:
            first = paragraph[0][0]
            text = "\n".join(line for _, line in paragraph)
            self.out += self.inline(text, first).split("\n")
        paragraph.clear()

    def indented_code(self, paragraph: list[tuple[int, str]]) -> int:
        """How many of the paragraph's first lines Python-Markdown reads as an indented code
        block: lines indented by 4 columns after a blank line, when the block before them
        (the last one starting at the margin, left of 4 columns) is no list, footnote or
        definition, whose content they would continue."""
        first = paragraph[0][0]           # 1-based
        if first > 1 and self.lines[first - 2].strip():
            return 0
        column = _content_column(self.lines, first - 1) + 4
        return next((k for k, (_, line) in enumerate(paragraph) if _indent(line) < column),
                    len(paragraph))


def _indent(line: str) -> int:
    """The columns of a line's leading whitespace (a tab to the next multiple of 4)."""
    width = 0
    for c in line:
        if c == " ":
            width += 1
        elif c == "\t":
            width += 4 - width % 4
        else:
            break
    return width

_RAW_TEXT_TAGS = ("script", "style")


class _RawTextFinder(HTMLParser):
    """Where the text of each `<script>` and `<style>` of a block of HTML starts and ends,
    as (line, column) pairs of `getpos` (lines from 1, columns from 0): html.parser reads
    it as raw text up to its end tag, as a browser does (`ends`: the block's end, for one
    never closed)."""

    def __init__(self, ends: tuple[int, int]):
        super().__init__(convert_charrefs=False)
        self.spans: list[tuple[tuple[int, int], tuple[int, int]]] = []
        self.ends = ends
        self._open: tuple[int, int] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _RAW_TEXT_TAGS and self._open is None:
            line, column = self.getpos()
            written = self.get_starttag_text() or ""
            if "\n" in written:
                line, column = line + written.count("\n"), len(written.rsplit("\n", 1)[1])
            else:
                column += len(written)
            self._open = (line, column)

    def handle_endtag(self, tag: str) -> None:
        if tag in _RAW_TEXT_TAGS and self._open is not None:
            self.spans.append((self._open, self.getpos()))
            self._open = None

    def close(self) -> None:
        super().close()
        if self._open is not None:
            self.spans.append((self._open, self.ends))
            self._open = None


def _raw_text(text: str) -> dict[int, list[tuple[int, int]]]:
    """The text of the `<script>` and `<style>` elements in the blocks of raw HTML this
    Markdown keeps as typed (not in code): for each line (from 0) of `text`, the columns
    (start, end) it holds of them, in order."""
    lowered = text.lower()
    if not any(f"<{tag}" in lowered for tag in _RAW_TEXT_TAGS):
        return {}       # (the reading of raw blocks costs a Markdown pass: not for nothing)
    lines = text.split("\n")
    code: set[int] = set()
    i = 0
    while i < len(lines):
        end = code_block_end(lines, i)
        if end is not None:
            code.update(range(i, end + 1))
            i = end + 1
        else:
            i += 1
    raw = sorted(n - 1 for n in markdown_raw_lines(text) if n - 1 not in code)
    found: dict[int, list[tuple[int, int]]] = {}
    k = 0
    while k < len(raw):
        first = last = raw[k]
        while k + 1 < len(raw) and raw[k + 1] == last + 1:
            k, last = k + 1, last + 1
        k += 1
        block = lines[first:last + 1]
        if not any(f"<{tag}" in line.lower() for line in block for tag in _RAW_TEXT_TAGS):
            continue
        finder = _RawTextFinder((len(block), len(block[-1])))
        finder.feed("\n".join(block))
        finder.close()
        for (l0, c0), (l1, c1) in finder.spans:
            for n in range(l0, l1 + 1):
                start, end = c0 if n == l0 else 0, c1 if n == l1 else len(block[n - 1])
                if end > start:
                    found.setdefault(first + n - 1, []).append((start, end))
    return found


def mask(path: Path, text: str, elements: frozenset[str] | None = None) -> Masked:
    """`text` (an article without its front matter, lines kept) with its comments removed and
    its formulas and code replaced by tokens; `elements` are HTML's element names (default:
    `html_names.element_names()`). Raises BuildError at the line of an unclosed comment,
    fence or formula, or a `$` that starts no formula."""
    text = drop_comments(path, text, FILLER, code_block_end)
    scanner = _Scanner(path, text, element_names() if elements is None else elements)
    # a script's or a style sheet's text is no prose: no formula, code span or check there
    for i, spans in _raw_text(text).items():
        line = scanner.lines[i]
        for start, end in reversed(spans):
            line = line[:start] + scanner.code(line[start:end]) + line[end:]
        scanner.lines[i] = line
    try:
        masked = scanner.run()
    except BuildError as e:
        scanner.raise_independent(e)
        raise
    scanner.raise_independent()
    return masked


__all__ = ["ENVIRONMENTS", "Masked", "RawFormula", "code_block_end", "fence_end", "mask"]
