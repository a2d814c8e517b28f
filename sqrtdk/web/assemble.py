"""Site assembly: typeset the formulas, fill the templates, add the files around the pages.

Gather first, write last (MkDocs' build order): every page, asset and figure of the new site
is held in memory or named by path in a `Site`; `checks` validates it and `output` writes it
atomically, so a failed build leaves the old site untouched.
"""
from __future__ import annotations

import difflib
import logging
import re
import string
import xml.etree.ElementTree as etree
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import jinja2
from markupsafe import Markup

from ..errors import BuildError, Mistakes, suggest
from ..log import warn
from ..settings import Settings, Strings
from .embed import DATA_FILE, UnknownSlotError, data_script, explainer_data, slot_filter
from .embed_check import check_embed
from .fig_tables import fill_tables
from .markers import MATH_HTML_RE, MATH_TEXT_RE
from .math import Formula, MathRenderer, Rendered, page_head
from .math.lines import drawn_as_runs, runs
from .md_text import lang_marked
from .model import Heading, Page
from .output import Site
from .print_addresses import with_print_addresses
from .quoting import mark_quotes

LOGGER = logging.getLogger("sqrtdk.web")
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; "
       "img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; "
       "base-uri 'none'; form-action 'none'")
PHONE_COLUMN_PX = 328            # a 360 px phone's column (1 rem margins)
TEXT_PX = 17                     # body text 1.0625 rem (a formula's width_em is in its ems)
# The engine's width estimate (from its box tree: glyph advances, not all the glue) ran 0-60 %
# short of the width chromium lays out (measured on the articles' display formulas): a
# formula estimated wider than this share of a phone's column is treated as wide
WIDE_SHARE = 0.55
# A display formula estimated wider than this share of a phone's column gets a layout the page
# may break at its relations (math/lines.py runs), which it does only where the whole does not
# fit: the estimate ran 0.99-1.51 x short of chromium's width on the articles' display formulas
# and under 3 x on all but 3 of the 120 KaTeX screenshot cases measured (nested roots and
# rules, which it does not see), so a formula left whole here fits a phone's column
BREAKABLE_SHARE = 1 / 3
MIN_RUN_EM = 2.5                 # a narrower piece stays on its neighbour's line (in text ems)
CARD_SIZE = (1200, 630)


@dataclass(frozen=True)
class SiteInputs:
    """Everything assembly reads."""

    settings: Settings
    strings: Mapping[str, Strings]
    pages: list[Page]
    results: Mapping[str, Any]
    figures: Mapping[str, Path]          # file name -> path of every figure file
    static_dir: Path
    sources: Mapping[str, Path]          # experiment module name -> file (published)
    # (what, its inputs, make) -> what `make` makes: a cache may answer for inputs it has
    # seen (the printed addresses of a page whose HTML did not change); None: made each time
    memo: Callable[[str, str, Callable[[], str]], str] | None = None


def template_env(templates_dir: Path, cache_dir: Path | None = None) -> jinja2.Environment:
    """Strict, autoescaping environment for the page templates; compiled templates are kept in
    `cache_dir/jinja` (Jinja's own bytecode cache, checked against each template's source)."""
    bytecode = None
    if cache_dir is not None:
        (cache_dir / "jinja").mkdir(parents=True, exist_ok=True)
        bytecode = jinja2.FileSystemBytecodeCache(str(cache_dir / "jinja"))
    return jinja2.Environment(loader=jinja2.FileSystemLoader(templates_dir),
                              undefined=jinja2.StrictUndefined, autoescape=True,
                              keep_trailing_newline=True, bytecode_cache=bytecode)


def typeset(pages: list[Page], math: MathRenderer, macros: Mapping[str, str] | None = None,
            mistakes: Mistakes | None = None, box_names: Mapping[str, str] | None = None
            ) -> dict[str, list[str]]:
    """Every page's formulas, one call to the renderer per page (a page's macro definitions
    hold for its later formulas, never for another page's), starting from the site's
    `macros`; lang -> HTML per formula. `box_names`: lang -> the name of a formula's box
    that scrolls (strings.toml `formula_box`).

    Raises BuildError naming the file, the formula's line and the engine's message, or a
    macro given a second meaning; logs the engine's warnings and formulas wider than a
    phone as `path:line: warning: …`. The engine answers for each formula, so every one
    that fails is named (all together); after one that fails defining or redefining a
    macro, that page's later formulas are not (one may fail for want of its definition: a
    cascade).
    With `mistakes` (errors.Mistakes) they are kept there instead, and a formula that
    failed is left empty, so the site can be assembled and checked further.
    """
    found = Mistakes() if mistakes is None else mistakes
    out: dict[str, list[str]] = {}
    for page in pages:
        rendered: list[Rendered] = math.render(page.formulas, macros or {})
        failed = [False] * len(rendered)
        defining = False        # a formula that failed defining a macro: later ones may cascade
        for k, (f, r) in enumerate(zip(page.formulas, rendered)):
            failed[k] = bool(r.error or r.conflict)
            if failed[k] and not defining:
                with found.seam():
                    _formula_fault(page, k, rendered, macros or {}, math.label)
                defining = bool(r.conflict or _DEFINES.search(f.source))
            if not failed[k] and r.warnings:
                _warn_at(page, k, r)
        name = (box_names or {}).get(page.lang, "")
        out[page.lang] = ["" if bad else _laid_out(page, f, r, math, name, macros)
                          for f, r, bad in zip(page.formulas, rendered, failed)]
    if mistakes is None:
        found.raise_any()
    return out


# KaTeX's parse errors end with the formula around the fault, each character of the token at
# fault followed by U+0332 (a combining low line): "at position 1: \\̲f̲o̲o̲{a}"
_KATEX_CONTEXT = re.compile(r"(at position \d+): (.*)$", re.S)


def katex_reason(error: str) -> str:
    """KaTeX's error message on one line, its context (the formula around the fault, which
    the message quotes already) cut down to the token at fault, named in quotes: the
    combining underlines KaTeX marks it with show as stray marks in a terminal or a log.
    `error`: KaTeX's ParseError message (katex/src/ParseError.js)."""
    text = " ".join(error.split())
    m = _KATEX_CONTEXT.search(text)
    if not m or "\u0332" not in m[2]:
        return text.replace("\u0332", "")
    marked = "".join(ch for ch, after in zip(m[2], m[2][1:]) if after == "\u0332")
    return text[:m.start()] + f"{m[1]} ('{marked}')"


def _formula_fault(page: Page, k: int, rendered: list[Rendered],
                   macros: Mapping[str, str], label: str) -> None:
    """The BuildError of formula `k` of `page`, which the engine refused (`rendered[k]`): at
    the line of the fault, its column and the TeX around it named, and what to write."""
    f, r = page.formulas[k], rendered[k]
    if r.error:
        source = " ".join(f.source.split())
        source = source if len(source) <= 80 else source[:79] + "\u2026"
        dollars = "$$" if f.display else "$"
        at_end = r.error_at >= len(f.source.rstrip())
        line = f.line_at(r.error_at) if r.error_at >= 0 and not at_end else f.line
        if r.redefined and r.error_at < 0 and (defined := re.search(
                r"\\(?:re)?newcommand\s*\{?\s*" + re.escape(r.redefined) + r"(?![A-Za-z])",
                f.source)):
            line = f.line_at(defined.start())     # its own line, in a formula of many lines
        place = _placer(page, k)
        said = _fault_reason(r, f, place, label) if r.reason else katex_reason(r.error)
        advice = r.advice(place) if r.advice is not None else ""
        raise BuildError(page.source, line, f"invalid TeX {dollars}{source}{dollars}: "
                         + said + (f"; {advice}" if advice else "") + _dollar_hint(f)
                         + _command_hint(r, page.formulas, rendered, k, macros)
                         + ("" if "[math.macros]" in advice else _site_macro_hint(f, macros)))
    first = _defined_at(r.conflict, page, rendered, k)
    raise BuildError(page.source, f.line, f"{r.conflict} is defined again here "
                     f"with another meaning ({first}); a macro keeps one meaning "
                     "in an article: give the new one another name")


def _warn_at(page: Page, k: int, r: Rendered) -> None:
    """The engine's warnings of formula k, each at the line of its token and with its column
    when the engine says where it is (else at the formula's line)."""
    f = page.formulas[k]
    place = _placer(page, k)
    places = [*r.warnings_at, *[-1] * (len(r.warnings) - len(r.warnings_at))]
    for w, at in zip(r.warnings, places):
        if at < 0:
            warn(LOGGER, page.source, f.line, w)
            continue
        column = place(at).split(", ")[-1]
        head, sep, rest = w.partition("; ")
        said = f"{head} at {column}{sep}{rest}" if column.startswith("column") else w
        warn(LOGGER, page.source, f.line_at(at), said)


def _fault_reason(r: Rendered, f: Formula, place: Callable[[int], str], label: str) -> str:
    """The engine's message without its place (`r.reason`) after its `label`, then the place
    in the author's file, the column on the error's line (the line alone when the file does
    not show the formula as written), the token at fault, and the TeX around it when the
    formula is longer than that; "at the formula's end" and that place for an error there
    (its advice names what is open)."""
    said = f"{label}: {' '.join(r.reason.split()).rstrip('.')}"
    if r.error_at < 0:
        return said
    if r.error_at >= len(f.source.rstrip()):
        return f"{said} at the formula's end ({place(len(f.source.rstrip()))})"
    token = f.source[r.error_at:r.error_at + r.error_length]
    start, end = max(r.error_at - 15, 0), min(r.error_at + r.error_length + 15, len(f.source))
    around = (("\u2026" if start else "") + f.source[start:end]
              + ("\u2026" if end < len(f.source) else ""))
    around = " ".join(around.split())
    shown = f" ('{' '.join(token.split())}')" if token.strip() else ""
    if around != " ".join(f.source.split()):
        shown += f", in '{around}'"
    return f"{said} at {place(r.error_at).split(', ')[-1]}{shown}"


def _placer(page: Page, k: int) -> Callable[[int], str]:
    """`place(offset)`: 'line L, column C' of an offset of formula k's TeX as written, in
    its Markdown file (the formula may start in the middle of a line, a list item's or a
    quote's prefix before each of its lines); 'line L' when the file does not show it."""
    f = page.formulas[k]
    try:
        lines = page.source.read_text(encoding="utf-8").split("\n")
    except (OSError, UnicodeDecodeError):
        lines = []

    def place(offset: int) -> str:
        offset = max(0, min(offset, len(f.source)))
        line = f.line_at(offset)
        first = f.source.rfind("\n", 0, offset) + 1
        piece = f.source[first:].split("\n")[0]
        text = lines[line - 1].rstrip("\r") if 0 < line <= len(lines) else ""
        after = 0
        if first == 0:      # the formula's first line: past the formulas before it there
            for g in page.formulas[:k]:
                if g.line_at(len(g.source)) == line and g.source:
                    last = g.source.split("\n")[-1]
                    found = text.find(last, after)
                    after = found + len(last) if found >= 0 else after
        column = text.find(piece, after)
        if column < 0:
            column = text.find(piece)
        if column < 0 or not piece:
            return f"line {line}"
        return f"line {line}, column {column + offset - first + 1}"
    return place


def _laid_out(page: Page, f: Formula, r: Rendered, math: MathRenderer, name: str,
              macros: Mapping[str, str] | None = None) -> str:
    """The formula's HTML; a display formula that may be too wide for a phone also gets a
    layout cut where it may break (math/lines.py runs), shown instead on narrow screens
    (style.css: .math-wide, .math-narrow), which the page breaks only where the whole does
    not fit its column: one formula still, the whole one's MathML and TeX drawn by the
    pieces (lines.drawn_as_runs). Warns when even its widest piece is wider than a phone's column.
    `name`: a scrolling box's."""
    html = _scroll_if_wide(f, r, name)
    if not f.display or r.width_em * TEXT_PX <= BREAKABLE_SHARE * PHONE_COLUMN_PX:
        return html
    cut = runs(f, lambda fs: [x.width_em for x in math.render(fs, macros)], MIN_RUN_EM)
    pieces = [p for p, _ in cut] if cut else []
    shown = math.render(pieces, macros) if cut else [r]
    for x in shown:
        if x.error:                       # our own TeX failed: a bug, not the author's
            raise RuntimeError(f"the phone layout of {f.plain!r} is invalid: {x.error}")
    wide = max(x.width_em for x in shown) * TEXT_PX
    if wide > 1.2 * PHONE_COLUMN_PX:
        # a formula with lines of its own (\\) is as wide as its widest line
        how = (", even broken at its relations" if cut is not None else
               " in its widest line" if "\\\\" in f.plain else "")
        warn(LOGGER, page.source, f.line, f"display formula about {wide:.0f} px wide, more "
             f"than a phone's {PHONE_COLUMN_PX} px column{how}: it will scroll sideways "
             "there; consider splitting it into shorter lines with \\\\")
    if cut is None:
        return html
    gaps = {"": "", "\\quad": '<span class="math-gap quad"> </span>',
            "\\qquad": '<span class="math-gap qquad"> </span>'}
    # one formula for a screen reader and for copying (the whole one's MathML and TeX), its
    # drawing the pieces': each piece's own MathML would be read as a formula of its own
    narrow_html = drawn_as_runs(r.html, [x.html for x in shown], [gaps[sep] for _, sep in cut],
                                math.hooks()["drawn"])
    if wide > WIDE_SHARE * PHONE_COLUMN_PX:
        from markupsafe import escape
        narrow_html = (f'<div class="math-scroll" tabindex="0" role="group" '
                       f'aria-label="{escape(name)}">{narrow_html}</div>')
    return f'<div class="math-wide">{html}</div><div class="math-narrow">{narrow_html}</div>'


def _dollar_hint(f: Formula) -> str:
    """What an invalid inline formula most likely is when it holds a `$` (one left open
    earlier ran into the next) or starts with a digit ($5: a price, not math)."""
    if f.display:
        return ""
    if f.source[:1].isdigit():          # `$5 and $10 for $x$`: prices, the lexer let through
        return "; if this '$' is a dollar sign, write '\\$'"
    if "$" in re.sub(r"\\.", "", f.source):      # `\$` is TeX's dollar sign
        return "; a '$' before it may have been left open (every inline formula ends with '$')"
    return ""


_DEFINES = re.compile(r"\\(?:(?:re)?new|provide)command\s*\{?(\\[A-Za-z]+)"
                      r"|\\[gex]?def\s*(\\[A-Za-z]+)")


def _macro_probe(name: str, body: str) -> Formula:
    """A formula using the macro `name` (TeX `body`) with `{x}` for each argument it takes."""
    args = max((int(n) for n in re.findall(r"#([1-9])", body)), default=0)
    tex = name + "{x}" * args
    return Formula((tex,), False, 0, tex, 0)


def check_unused_macros(pages: list[Page], math: MathRenderer, settings: Settings) -> None:
    """A warning at each macro of [math.macros] that no formula uses and the engine cannot
    typeset (`\\frac{` as its TeX): its fault showed only once a formula used it, far from
    the line where it was written. Each is tried with `{x}` for every argument it takes."""
    used = " ".join(f.source for page in pages for f in page.formulas)
    unused = [name for name in settings.macros
              if not re.search(re.escape(name) + r"(?![A-Za-z])", used)]
    if not unused:
        return
    probes = [_macro_probe(name, settings.macros[name]) for name in unused]
    for name, rendered in zip(unused, math.render(probes, settings.macros), strict=True):
        if rendered.error:
            reason = (f"{math.label}: {' '.join(rendered.reason.split()).rstrip('.')}"
                      if rendered.reason else katex_reason(rendered.error))
            advice = rendered.advice(lambda o: "its end") if rendered.advice else ""
            warn(LOGGER, settings.path, settings.macro_lines.get(name, 0),
                 f"[math.macros] {name} cannot be typeset ({reason}"
                 + (f"; {advice}" if advice else "") + "); no formula uses it yet, so no "
                 "page shows the fault: correct its TeX, or remove it")


def check_renewed_macros(math: MathRenderer, settings: Settings) -> None:
    """A warning at each macro of [math.macros] named as one of the engine's own commands:
    `'\\sqrt' = '\\surd'` gives every formula of the site that uses \\sqrt a new meaning
    (LaTeX's \\newcommand refuses it, and an article's \\newcommand here too), so a
    deliberate one goes in [math.renew]; one whose formula typesets as the engine's own
    (course notes' `'\\R' = '\\mathbb{R}'`) is told to be removed. And a warning at each
    macro of [math.renew] that names no command of the engine (nothing to give a new
    meaning to: it belongs in [math.macros]). Each is tried with `{x}` for every argument."""
    if not settings.macros:
        return
    own = set(math.commands())
    clashing = [n for n in settings.macros if n in own and n not in settings.renewed]
    probes = [_macro_probe(name, settings.macros[name]) for name in clashing]
    plain = math.render(probes, {})
    meant = math.render(probes, {n: settings.macros[n] for n in clashing})
    for name, a, b in zip(clashing, plain, meant, strict=True):
        where = (settings.path, settings.macro_lines.get(name, 0))
        if a.html == b.html and not a.error:
            warn(LOGGER, *where, f"[math.macros] {name} is a command the math engine has "
                 f"itself, with the same meaning: remove the line")
        else:
            warn(LOGGER, *where, f"[math.macros] {name} gives the math engine's own {name} a "
                 f"new meaning ('{settings.macros[name]}') in every formula of the site; if "
                 "that is meant, move it to [math.renew], else give the macro a name of its own")
    for name in sorted(settings.renewed - own):
        warn(LOGGER, settings.path, settings.macro_lines.get(name, 0), f"[math.renew] {name}: "
             f"the math engine has no command {name} to give a new meaning to; move it to "
             "[math.macros]")


def _site_macro_hint(f: Formula, macros: Mapping[str, str]) -> str:
    """The site's macros an invalid formula uses: the fault may be in their TeX."""
    used = [n for n in macros if re.search(re.escape(n) + r"(?![A-Za-z])", f.source)]
    return (f" (it uses {', '.join(used)} from [math.macros] in content/site.toml, whose TeX "
            "may be at fault)") if used else ""


def _defined_at(name: str, page: Page, rendered: list[Rendered], k: int) -> str:
    """Where the macro `name` got the meaning it has before formula k of `page`."""
    for j in range(k - 1, -1, -1):
        if name in rendered[j].defines:
            return f"first at line {page.formulas[j].line}"
    return "in [math.macros] of content/site.toml"


def _command_hint(r: Rendered, formulas: list[Formula], rendered: list[Rendered],
                  k: int, macros: Mapping[str, str]) -> str:
    """Why a TeX command is unknown or refused (`r`, formula k's failure) when LaTeX habit
    explains it: equation references, a macro used before the formula that defines it, a
    macro defined twice, or a \\newcommand of a command KaTeX has itself (`\\R`, `\\N`:
    course notes define them for LaTeX, which lacks them). `macros`: the site's."""
    if r.redefined:
        where = next((f"at line {formulas[j].line}" for j in range(k - 1, -1, -1)
                      if r.redefined in rendered[j].defines),
                     "in [math.macros] of content/site.toml" if r.redefined in macros else "")
        if not where:
            return (f"; {r.redefined} is one of KaTeX's own commands: remove this definition "
                    f"if KaTeX's {r.redefined} means what it says (KaTeX's list of supported "
                    f"functions has it), or write \\renewcommand{{{r.redefined}}} to replace "
                    "it for the rest of the article")
        return (f"; {r.redefined} is already defined {where}, and a definition holds for the "
                "rest of the article: remove this one, or give it another name")
    if not r.undefined or r.undefined in ("\\[", "\\]"):
        return ""   # (\\[ \\]: the formula marked twice, katex_faults says so)
    command = r.undefined
    if command[1] in string.punctuation:
        # a mark escaped for Markdown (`w^\\*`), as a post for MathJax behind Markdown,
        # which resolves the escape, writes it
        return (f"; '{command}' is a '{command[1]}' escaped for Markdown (a post written for "
                "MathJax behind Markdown escapes it; here the formula reaches KaTeX as "
                f"written): write '{command[1]}'" + (" (or \\ast)" if command[1] == "*" else ""))
    if command in ("\\label", "\\eqref", "\\ref"):
        return ("; equation labels and references are not supported: number an equation "
                "with \\tag{…} and refer to it in words")
    if command == "\\DeclareMathOperator":
        return _operator_hint(formulas[k].source)
    if command == "\\unicode":
        return _unicode_hint(formulas[k].source)
    if command in _MATHJAX_ONLY:
        return f"; {command} is MathJax's: {_MATHJAX_ONLY[command]}"
    if command in _LATEX_ONLY:
        return f"; {command} is LaTeX's (amsmath's, amsthm's), which KaTeX does not have: " \
            + _LATEX_ONLY[command]
    if command in _PACKAGE_ONLY:
        return (f"; {command} is a LaTeX package's (machine-learning posts use it), which "
                f"KaTeX does not have: {_PACKAGE_ONLY[command]}")
    if command in _PHYSICS_ONLY:
        return (f"; {command} is the physics package's (physics course notes use it), which "
                f"KaTeX does not have: {_PHYSICS_ONLY[command]}")
    later = next((f for f in formulas[k + 1:]
                  if command in {a or b for a, b in _DEFINES.findall(f.source)}), None)
    if later is not None:
        return (f"; {command} is defined later, at line {later.line}, and a definition holds "
                "from its formula on: move the definition up, into this formula or an "
                "earlier one")
    if r.nearest:
        named = " or ".join(n + (" (from [math.macros] in content/site.toml)" if n in macros
                                 else "") for n in r.nearest)
        return (f"; {command} is no command KaTeX knows: did you mean {named}? If not, "
                "write it with KaTeX's commands, or define it, in a formula (\\newcommand) or "
                "in [math.macros] of content/site.toml")
    return (f"; {command} is no command KaTeX knows (a package's, or a macro of the site the post "
            "was written for): write it with KaTeX's commands, or define it, in a formula "
            "(\\newcommand) or in [math.macros] of content/site.toml")


# amsmath's preamble command, written into a formula by course notes: its name, its TeX
_DECLARE_OPERATOR = re.compile(
    r"\\DeclareMathOperator(\*?)\s*(?:\{\s*(\\[A-Za-z]+)\s*\}|(\\[A-Za-z]+))\s*\{([^{}]*)\}")


def _operator_hint(source: str) -> str:
    """What to write for amsmath's \\DeclareMathOperator (a preamble command KaTeX lacks):
    the \\newcommand that defines the same operator, from the formula's own first one."""
    m = _DECLARE_OPERATOR.search(source)
    star, name, text = (m[1], m[2] or m[3], m[4]) if m else ("", "\\name", "text")
    return (f"; \\DeclareMathOperator is a LaTeX preamble command, which KaTeX does not have: "
            f"write \\newcommand{{{name}}}{{\\operatorname{star}{{{text}}}}} instead (it holds "
            "for the later formulas too)")


# LaTeX's (amsmath's, amsthm's) commands of course notes that KaTeX lacks
_INTERTEXT = ("end the formula there, write the words as a paragraph between two formulas, "
              "and open the next one")
_LATEX_ONLY = {
    "\\intertext": _INTERTEXT, "\\shortintertext": _INTERTEXT,
    "\\qedhere": "remove it, and end the proof with \\blacksquare (\u220e) or \\square "
                  "(\u25a1), in the formula or after it",
    "\\hfill": "remove it, or space with \\qquad or \\hspace{2em}",
    "\\numberthis": "number the formula with \\tag{1} and refer to it in words",
    # LaTeX's small capitals (an algorithm's name, \textsc{Softmax}): KaTeX has none
    "\\textsc": "KaTeX has no small capitals: write \\text{Softmax} or "
                  "\\operatorname{softmax}",
    "\\scshape": "KaTeX has no small capitals: write \\text{Softmax} or "
                   "\\operatorname{softmax}",
}


# commands of LaTeX packages that ML posts use (bbm, dsfont, physics, commath) and KaTeX lacks
_PACKAGE_ONLY = {
    "\\mathbbm": "write \\mathbf{1} for the indicator's 1 (KaTeX's \\mathbb has capitals "
                  "only)",
    "\\mathds": "write \\mathbf{1} for the indicator's 1 (KaTeX's \\mathbb has capitals "
                 "only)",
    "\\norm": "write \\lVert q \\rVert, or define it: "
               "\\newcommand{\\norm}[1]{\\left\\lVert #1 \\right\\rVert}",
    "\\abs": "write \\lvert s \\rvert, or define it: "
              "\\newcommand{\\abs}[1]{\\left\\lvert #1 \\right\\rvert}",
}
# the physics package's commands (physics course notes use them) that KaTeX does not have
_PHYSICS_ONLY = {
    "\\pdv": "write \\frac{\\partial f}{\\partial x}, or define it: "
              "\\newcommand{\\pdv}[2]{\\frac{\\partial #1}{\\partial #2}}",
    "\\dv": "write \\frac{d f}{d x}, or define it: "
             "\\newcommand{\\dv}[2]{\\frac{\\mathrm{d} #1}{\\mathrm{d} #2}}",
    "\\vb": "write \\mathbf{F}, or define it: \\newcommand{\\vb}[1]{\\mathbf{#1}}",
    "\\vu": "write \\hat{\\mathbf{x}}, or define it: "
             "\\newcommand{\\vu}[1]{\\hat{\\mathbf{#1}}}",
    "\\grad": "write \\nabla f",
    "\\curl": "write \\nabla \\times \\mathbf{A}",
    "\\divergence": "write \\nabla \\cdot \\mathbf{A}",
    "\\qty": "write the brackets it sizes, \\left( … \\right)",
    "\\expval": "write \\langle A \\rangle, or define it: "
                 "\\newcommand{\\expval}[1]{\\left\\langle #1 \\right\\rangle}",
    "\\dd": "write \\mathrm{d}x, or define it: \\newcommand{\\dd}{\\mathrm{d}}",
}
# commands of MathJax (which blog posts written for it use) that KaTeX does not have
_MATHJAX_ONLY = {
    "\\require": "KaTeX loads no extensions and has \\cancel and \\bm "
                  "built in: remove \\require{…}",
    "\\class": "remove it, keeping its second argument",
    "\\cssId": "remove it, keeping its second argument",
    "\\style": "remove it, keeping its second argument",
    "\\bbox": "remove it, or write \\boxed{…} or \\colorbox{…}{…}",
    "\\enclose": "write \\boxed{…}, \\cancel{…} or \\bcancel{…} for its notation",
    "\\ce": "its mhchem extension, which this site does not load; write the formula with "
           "\\mathrm: $\\mathrm{H_2O}$",
    "\\pu": "its mhchem extension, which this site does not load; write the unit with "
           "\\mathrm: $5\\,\\mathrm{mol/L}$",
}
# MathJax's \unicode{x2248} (a character by its code point, hexadecimal or decimal)
_UNICODE = re.compile(r"\\unicode\s*(?:\[[^\]]*\])?\s*\{\s*(x?)([0-9A-Fa-f]+)\s*\}")


def _unicode_hint(source: str) -> str:
    """What to write for MathJax's \\unicode{…}: the character it stands for, itself."""
    m = _UNICODE.search(source)
    try:
        char = chr(int(m[2], 16 if m[1] else 10)) if m else ""
    except (ValueError, OverflowError):
        char = ""
    shown = f"the character itself, '{char}'" if char.isprintable() and char else \
        "the character itself"
    return f"; \\unicode is MathJax's: write {shown}, or the KaTeX command that draws it"


def _scroll_if_wide(f: Formula, r: Rendered, name: str) -> str:
    """A formula too wide for a phone's column gets a box of its own that scrolls and the
    keyboard can reach (an inline one is never cut off; a display one never pushes the page
    sideways). A tab stop needs a name (WCAG 4.1.2): the box is a group named `name` (the
    page language's `formula_box`), as the figures' tables and the reproduce boxes are named
    groups; not the formula's own text, which would go stale where its numbers follow dₖ."""
    if r.width_em * TEXT_PX <= WIDE_SHARE * PHONE_COLUMN_PX:
        return r.html
    from markupsafe import escape
    tag = "div" if f.display else "span"
    return (f'<{tag} class="math-scroll" tabindex="0" role="group" aria-label="{escape(name)}">'
            f'{r.html}</{tag}>')


def _toc(headings: list[Heading]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for h in headings:
        item = {"id": h.id, "html": Markup(h.html), "children": []}
        if h.level == 2 or not out:
            out.append(item)
        elif h.level == 3:
            out[-1]["children"].append(item)
    return out


def _fill(text: str, math_html: list[str], page: Page) -> str:
    return mark_quotes(fill_math(text, math_html), page.quotes)


def fill_math(text: str, math_html: list[str]) -> str:
    """`text` with each formula's marker replaced by its HTML, and each marker of a formula's
    plain text (an attribute's: md_math.HeaderNames) by that text, escaped for an attribute."""
    from markupsafe import escape

    from .math_text import mathml_text
    text = MATH_TEXT_RE.sub(lambda m: str(escape(mathml_text(math_html[int(m.group(1))]))), text)
    return MATH_HTML_RE.sub(lambda m: math_html[int(m.group(1))], text)


def _with_tables(body: str, st: Strings, results: Mapping[str, Any]) -> Markup:
    """The article's HTML with every figure's table of numbers (fig_tables)."""
    return Markup(fill_tables(body, st.ui, results))


def render_site(inputs: SiteInputs, env: jinja2.Environment, math: MathRenderer,
                mistakes: Mistakes | None = None) -> Site:
    """Fill the templates for every article, the root page and the 404 page; add the
    sitemap, robots.txt, the published experiment sources, assets and figures. With
    `mistakes`, the formulas that fail are kept there (`typeset`) and the site is made
    without them, for the checks that follow; without, they are raised."""
    s, results = inputs.settings, inputs.results
    math_html = typeset(inputs.pages, math, inputs.settings.macros, mistakes,
                        {lang: st.ui["formula_box"] for lang, st in inputs.strings.items()})
    check_unused_macros(inputs.pages, math, inputs.settings)
    check_renewed_macros(math, inputs.settings)
    alternates = [{"lang": p.lang, "html_lang": inputs.strings[p.lang].html_lang,
                   "name": inputs.strings[p.lang].language["name"], "title": p.meta["title"],
                   "og_locale": inputs.strings[p.lang].language["og_locale"],
                   "switch_to": inputs.strings[p.lang].ui["switch_to"],   # in its own language
                   "not_found": inputs.strings[p.lang].ui["not_found"],   # the 404 page
                   "not_found_title": inputs.strings[p.lang].ui["not_found_title"],
                   "source_intro": inputs.strings[p.lang].ui["source_intro"],   # site/source/
                   "description": p.meta["description"]} for p in inputs.pages]
    site = Site()
    check_embed(inputs.static_dir)     # every path the script reads is declared and embedded
    site.files[DATA_FILE] = data_script(explainer_data(results))
    head = Markup(page_head(math, "../"))
    for page in inputs.pages:
        st = inputs.strings[page.lang]
        env.filters["slots"] = slot_filter(results, st.ui)  # widget sentences, numbers filled in
        context = {
            "html_lang": st.html_lang, "lang": page.lang, "root": "../", "csp": CSP,
            "title": page.meta["title"], "description": page.meta["description"],
            "base_url": s.base_url, "canonical": f"{s.base_url}{page.lang}/",
            "alternates": alternates, "og": _og(s, st, page, alternates),
            "ui": st.ui, "toc": _toc(page.conversion.headings),
            "body": _with_tables(page.body, st, results),
            "math_head": head, "explainer_data": DATA_FILE,
            "built_with": st.ui["built_with"].format(seed=results["meta"]["seed"],
                                                     numpy=results["meta"]["numpy"]),
        }
        text = _render(env, "article.html", context, st)
        filled = _printed(inputs, _fill(text, math_html[page.lang], page),
                          f"{page.lang}/index.html")
        site.files[f"{page.lang}/index.html"] = filled.encode()
        site.link_html[f"{page.lang}/index.html"] = text
    default = next(a for a in alternates if a["lang"] == s.default_language)
    # the title's words in the default language's `lang`, each run in the other script marked
    # with its own (site.toml's title names the site in every language)
    home = inputs.strings[s.default_language]
    title_html = Markup(lang_marked(s.title, home.language["script"],
                                    home.language.get("other_lang", "")))
    common = {"csp": CSP, "title": s.title, "title_html": title_html, "base_url": s.base_url,
              "alternates": alternates,
              "description": " / ".join(a["description"] for a in alternates),
              "html_lang": default["html_lang"], "og": None}
    # the root page's card: the site's title and both descriptions, the default language's
    # picture (a link to the bare address is the one most often shared)
    root_og = {"type": "website", "title": s.title, "description": common["description"],
               "url": s.base_url, "locale": default["og_locale"],
               "locale_alternates": [a["og_locale"] for a in alternates if a is not default],
               "image": f"{s.base_url}figures/card.{default['lang']}.png",
               "image_alt": default["title"],
               "image_width": CARD_SIZE[0], "image_height": CARD_SIZE[1]}
    site.files["index.html"] = _render(env, "index.html", {**common, "root": "",
                                                           "canonical": s.base_url,
                                                           "og": root_og}).encode()
    base_path = urlsplit(s.base_url).path or "/"
    # its title says what the page is, in every language: not the root page's title alone
    lost = " / ".join(a["not_found_title"] for a in alternates) + f" \u00b7 {s.title}"
    site.files["404.html"] = _render(env, "404.html", {**common, "root": base_path,
                                                       "canonical": "", "title": lost}).encode()
    site.files["sitemap.xml"] = sitemap(s.base_url, alternates)
    site.files["robots.txt"] = f"User-agent: *\nAllow: /\n\nSitemap: {s.base_url}sitemap.xml\n" \
        .encode()
    for name, path in sorted(inputs.sources.items()):
        site.files[f"source/{name}.html"] = _render(env, "source.html", {
            **common, "root": "../", "canonical": "", "name": name,
            "title": f"{name} \u00b7 {s.title}",   # named by its module: one tab from the next
            "code": path.read_text(encoding="utf-8")}).encode()
    _add_assets(site, inputs, math, [h for page in math_html.values() for h in page])
    return site


def _printed(inputs: SiteInputs, page: str, rel: str) -> str:
    """`with_print_addresses` of the page `rel`, through `inputs.memo` when there is one (it
    parses the whole page: a text edit changes one language's only)."""
    base_url = inputs.settings.base_url
    if inputs.memo is None:
        return with_print_addresses(page, rel, base_url)
    return inputs.memo("print addresses", "\0".join((rel, base_url, page)),
                       lambda: with_print_addresses(page, rel, base_url))


def _og(s: Settings, st: Strings, page: Page, alternates: list[dict[str, Any]]) -> dict[str, Any]:
    return {"type": "article", "title": page.meta["title"], "description": page.meta["description"],
            "locale": st.language["og_locale"], "url": f"{s.base_url}{page.lang}/",
            "locale_alternates": [a["og_locale"] for a in alternates if a["lang"] != page.lang],
            "image": f"{s.base_url}figures/card.{page.lang}.png", "image_alt": page.meta["title"],
            "image_width": CARD_SIZE[0], "image_height": CARD_SIZE[1]}


_MISSING_ATTR = re.compile(r"has no attribute '([^']+)'")


def _render(env: jinja2.Environment, name: str, context: dict[str, Any],
            strings: Strings | None = None) -> str:
    """A template, with a missing ui string reported against strings.toml."""
    try:
        return env.get_template(name).render(context)
    except jinja2.UndefinedError as e:
        m = _MISSING_ATTR.search(str(e))
        if strings is not None and m is not None:
            key = m.group(1)
            raise BuildError(strings.path, strings.file.line_of("ui"),
                             f"the page templates use ui string '{key}', which this file does "
                             f"not have; add {key} = \"…\" under [ui] ("
                             + suggest(key, strings.ui, "ui strings") + ")") from None
        mistake = _template_mistake(env, e, context)
        if mistake is None:
            raise
        raise mistake from None
    except UnknownSlotError as e:
        if strings is None:
            raise
        key = next((k for k, text in strings.ui.items() if "{" + e.name + "}" in text), "")
        # rows_readout's {win} and {ent} become {win_<ruler>}, {ent_<ruler>} per row
        known = sorted({k.split("_")[0] if k.startswith(("win_", "ent_")) else k
                        for k in e.known})
        close = difflib.get_close_matches(e.name, known, n=1, cutoff=0.6)
        raise BuildError(strings.path, strings.file.line_of("ui", key or None),
                         f"[ui] {key or 'a widget sentence'}: {{{e.name}}} is not a number "
                         "the page can fill in; "
                         + (f"did you mean {{{close[0]}}}? " if close else "")
                         + "the slots are " + ", ".join("{" + k + "}" for k in known)) from None
    except Exception as e:
        mistake = _template_mistake(env, e)
        if mistake is None:
            raise
        raise mistake from None


_UNDEFINED_NAME = re.compile(r"^'(\w+)' is undefined$")


def _template_mistake(env: jinja2.Environment, e: Exception,
                      context: Mapping[str, Any] | None = None) -> BuildError | None:
    """A template's own mistake, at its line: an error Jinja raised while rendering it (an
    undefined name, a template it includes that is not there) or one its expression raised
    (`{{ 1 / 0 }}`); None for one raised in our code it called (a filter's bug). An undefined
    name is one whichever code found it (`{{ nope }}` is found by the escaping, in
    markupsafe): the names the template is given (`context`) are suggested."""
    folders = [Path(p).resolve() for p in getattr(env.loader, "searchpath", [])]
    frames = []
    tb = e.__traceback__
    while tb is not None:
        frames.append((Path(tb.tb_frame.f_code.co_filename).resolve(), tb.tb_lineno))
        tb = tb.tb_next
    ours = [(path, line) for path, line in frames if any(f in path.parents for f in folders)]
    if not ours or not frames:
        return None
    inner = frames[-1][0]
    if inner != ours[-1][0] and not isinstance(e, jinja2.UndefinedError) and not (
            isinstance(e, jinja2.TemplateError)
            and Path(jinja2.__file__).resolve().parent in inner.parents):
        return None
    what = f"no template '{e.name}' in the templates folder" \
        if isinstance(e, jinja2.TemplateNotFound) else \
        e.message if isinstance(e, jinja2.TemplateError) and e.message else str(e)
    undefined = _UNDEFINED_NAME.match(what) if isinstance(e, jinja2.UndefinedError) else None
    if undefined is not None and context is not None:
        what = f"{what} ({suggest(undefined[1], context, 'names the template is given')})"
    return BuildError(ours[-1][0], ours[-1][1],
                      f"{type(e).__name__}: {what.rstrip('.')}; fix the template")

def sitemap(base_url: str, alternates: list[dict[str, Any]]) -> bytes:
    """sitemap.xml: one <url> per language, each listing every language as an alternate."""
    ns, xhtml = "http://www.sitemaps.org/schemas/sitemap/0.9", "http://www.w3.org/1999/xhtml"
    etree.register_namespace("", ns)
    etree.register_namespace("xhtml", xhtml)
    urlset = etree.Element(f"{{{ns}}}urlset")
    for a in alternates:
        url = etree.SubElement(urlset, f"{{{ns}}}url")
        etree.SubElement(url, f"{{{ns}}}loc").text = f"{base_url}{a['lang']}/"
        for b in alternates:
            etree.SubElement(url, f"{{{xhtml}}}link", {
                "rel": "alternate", "hreflang": b["html_lang"], "href": f"{base_url}{b['lang']}/"})
        etree.SubElement(url, f"{{{xhtml}}}link", {"rel": "alternate", "hreflang": "x-default",
                                                   "href": base_url})
    etree.indent(urlset)
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + etree.tostring(urlset) + b"\n"


def _add_assets(site: Site, inputs: SiteInputs, math: MathRenderer, rendered: list[str]
                ) -> None:
    for f in sorted(inputs.static_dir.rglob("*")):
        if f.is_file():
            site.copies[f"assets/{f.relative_to(inputs.static_dir).as_posix()}"] = f
    for path, asset in math.assets(rendered).items():
        if isinstance(asset, bytes):
            site.files[path] = asset
        else:
            site.copies[path] = asset
    for name, src in inputs.figures.items():
        site.copies[f"figures/{name}"] = src
