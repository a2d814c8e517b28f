"""Display formulas laid out for a phone: the author's TeX, cut into pieces at its relations.

KaTeX cannot break display math, so a formula that may be too wide for a phone's column gets a
second rendering beside the wide one (the stylesheet shows one of them by the width): the
formula's top level is cut before each relation (=, ≤, ⇒, …) and at a wide space (\\qquad,
\\quad) that ends a statement (the text since the last such cut holds a top-level relation:
`\\max \\quad f(x)` or `\\text{Max} \\quad L=\\infty` stay together, an operator or a word is
never parted from what it applies to), and each piece is rendered on its own (`{}=` keeps the
spacing of a relation that starts one). The page sets the pieces side by side and starts a new
line only where the whole does not fit (style.css .math-runs), by the browser's own widths.
That layout is still one formula (`drawn_as_runs`): the whole one's rendering, its MathML read
once by a screen reader and its TeX copied once, with the pieces' drawings as its drawn part.
Nothing inside braces, \\left…\\right or an environment is cut, and a formula that already
has lines (`\\\\`), an environment at its top or a `\\tag` is left as written. The TeX the author
wrote stays the source: this only adds `{}`.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from ...html_parsing import HTMLParser
from .formula import Formula, Quote

RELATIONS = ("=", "<", ">", r"\le", r"\leq", r"\ge", r"\geq", r"\approx", r"\sim", r"\simeq",
             r"\ne", r"\neq", r"\equiv", r"\propto", r"\to", r"\Rightarrow", r"\Longrightarrow",
             r"\implies", r"\iff", r"\Leftrightarrow", r"\mapsto", r"\coloneqq")
SEPARATORS = (r"\qquad", r"\quad")
_TOKEN = re.compile(r"\\[A-Za-z]+|\\.|.", re.S)
_OPEN = {r"\left", r"\begin"}
_CLOSE = {r"\right", r"\end"}
_LAID_OUT = re.compile(r"\\\\|\\tag\b|\\begin\{(?:aligned|align|gathered|gather|split|multline|"
                       r"array|cases|matrix|pmatrix|bmatrix)")

# a statement's last piece that is only its relation, or that ends with an operator or a
# function waiting for its argument, is not yet a statement
_OPERATOR_AT_END = re.compile(r"(?:^(?:" + "|".join(re.escape(r) for r in RELATIONS) + r")|"
                              r"[-+*/]|\\(?:cdot|times|pm|mp|sum|prod|int|oint|max|min|arg|lim|"
                              r"sup|inf|log|ln|exp|det|operatorname\*?))\s*$")
Piece = list[str | Quote]


def pieces(formula: Formula) -> list[tuple[str, Piece]]:
    """The formula's top level cut into (kind, parts): kind is "start" for the first piece,
    "rel" for a piece that starts with a relation, "new" after a separator (dropped).
    One piece when nothing can be cut or the author laid the formula out already."""
    return [(kind, p) for kind, p, _ in _cut(formula)]


def _cut(formula: Formula) -> list[tuple[str, Piece, str]]:
    """pieces(), each with the separator (\\quad, \\qquad) before it ("" for none)."""
    if _LAID_OUT.search(formula.plain):
        return [("start", list(formula.parts), "")]
    out: list[tuple[str, Piece]] = [("start", [])]
    seps = [""]
    depth = 0
    for part in formula.parts:
        if isinstance(part, Quote):
            out[-1][1].append(part)
            continue
        for tok in _TOKEN.findall(part):
            if tok == "{" or tok in _OPEN:
                depth += 1
            elif tok == "}" or tok in _CLOSE:
                depth -= 1
            if depth == 0 and tok in RELATIONS and _has_text(out[-1][1]):
                out.append(("rel", [tok]))
                seps.append("")
            elif depth == 0 and tok in SEPARATORS and _statement_ends(out):
                out.append(("new", []))
                seps.append(tok)
            else:
                _append(out[-1][1], tok)
    return [(kind, p, sep) for (kind, p), sep in zip(out, seps) if _has_text(p)]


def _statement_ends(out: list[tuple[str, Piece]]) -> bool:
    """Whether the text since the last wide-space cut is a statement: it holds a top-level
    relation (so the piece before a cut is never a bare operator, word or term)."""
    since = next(i for i in range(len(out) - 1, -1, -1) if out[i][0] != "rel")
    if len(out) - since < 2:
        return False
    last = out[-1][1]
    if any(isinstance(p, Quote) for p in last):
        return True
    text = "".join(p for p in last if isinstance(p, str)).strip()
    return not _OPERATOR_AT_END.search(text)


def _append(piece: Piece, tok: str) -> None:
    if piece and isinstance(piece[-1], str):
        piece[-1] += tok
    else:
        piece.append(tok)


def _has_text(piece: Piece) -> bool:
    return any(isinstance(p, Quote) or p.strip() for p in piece)


def _as_formula(formula: Formula, parts: Sequence[str | Quote]) -> Formula:
    """`parts` as a display formula at `formula`'s place, copied as `formula` is."""
    return Formula(tuple(parts), True, formula.line, formula.source, formula.tex_line,
                   formula.copy_text)


def runs(formula: Formula, measure: Callable[[Sequence[Formula]], list[float]],
         min_em: float) -> list[tuple[Formula, str]] | None:
    """`formula` cut where a phone may start a new line (the page breaks there only when the
    whole does not fit its column, style.css .math-runs): each piece as a display formula of
    its own, with the separator the author wrote before it ("" before a relation). A piece
    narrower than `min_em` (`measure`: each formula's width in em) is kept with its neighbour,
    so a symbol (`o` of `o = …`, `=0`) never stands alone on a line. Each copies as the author
    wrote it; a relation that starts a piece keeps its spacing (`{}=`). None when it cannot be
    cut in two."""
    cut = _cut(formula)
    if len(cut) < 2:
        return None
    widths = measure([_as_formula(formula, p) for _, p, _ in cut])
    kept: list[tuple[str, Piece, str, float]] = []
    for (kind, piece, sep), w in zip(cut, widths):
        if kept and kind == "rel" and min(w, kept[-1][3]) < min_em:
            k, p, s, before = kept[-1]
            kept[-1] = (k, p + piece, s, before + w)
        else:
            kept.append((kind, list(piece), sep, w))
    if len(kept) < 2:
        return None
    out: list[tuple[Formula, str]] = []
    for kind, piece, sep, _ in kept:
        text = Formula(tuple(piece), True, 0, "", 0).copy_text
        copied = sep + (" " if sep and text[:1].isalnum() else "") + text
        parts = [r"{}", *piece] if kind == "rel" else piece
        out.append((Formula(tuple(parts), True, formula.line, formula.source,
                            formula.tex_line, copied), sep))
    return out


class _Element(HTMLParser):
    """Where the first element with class `cls` sits in an HTML fragment: the offsets of its
    start tag's first character, of its content's first and last + 1 (its end tag's `<`)."""

    def __init__(self, html: str, cls: str) -> None:
        super().__init__(convert_charrefs=False)
        self.cls, self.tag, self.depth = cls, "", 0
        self.found: tuple[int, int, int] | None = None
        self._start = self._inner = 0
        # where each line starts, as getpos counts lines: after each "\n" only
        self._lines = [0, *(k + 1 for k, ch in enumerate(html) if ch == "\n")]
        self.feed(html)
        self.close()

    def _at(self) -> int:
        line, col = self.getpos()
        return self._lines[line - 1] + col

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.found is not None:
            return
        if self.depth:
            self.depth += tag == self.tag
        elif self.cls in (dict(attrs).get("class") or "").split():
            self.tag, self.depth, self._start = tag, 1, self._at()
            self._inner = self._start + len(self.get_starttag_text() or "")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        pass            # <path …/> inside an SVG: no content, never the element sought

    def handle_endtag(self, tag: str) -> None:
        if self.found is None and self.depth and tag == self.tag:
            self.depth -= 1
            if not self.depth:
                self.found = (self._start, self._inner, self._at())


def _element(html: str, hook: str) -> tuple[int, int, int]:
    """_Element's offsets for `hook`, a CSS selector of one class (an engine's hook)."""
    if not re.fullmatch(r"\.[A-Za-z][\w-]*", hook):
        raise ValueError(f"the hook {hook!r} is not one class")
    found = _Element(html, hook[1:]).found
    if found is None:
        raise ValueError(f"no {hook} in the rendered formula")
    return found


def drawn_as_runs(whole: str, pieces: Sequence[str], gaps: Sequence[str], drawn: str) -> str:
    """The formula rendered whole (`whole`: its HTML, with its MathML, what a screen reader
    reads and copying gives as TeX), with its drawn part (`drawn`, the engine's hook: a CSS
    class) replaced by each piece's drawn part side by side in a `.math-run`, a line break
    allowed between two, `gaps[k]` (HTML) before piece k: one formula for assistive
    technology and for copying, the pieces for the eye (the drawn part is aria-hidden)."""
    _, inner, end = _element(whole, drawn)
    shown = []
    for gap, piece in zip(gaps, pieces, strict=True):
        p_start, _, p_end = _element(piece, drawn)
        p_close = piece.index(">", p_end) + 1
        shown.append(f'{gap}<span class="math-run">{piece[p_start:p_close]}</span>')
    return (whole[:inner] + '<span class="math-runs">' + "<wbr>".join(shown) + "</span>"
            + whole[end:])
