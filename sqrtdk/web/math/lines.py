"""Display formulas laid out for a phone: the author's TeX, broken into lines at its relations.

KaTeX cannot break display math, so a formula too wide for a phone's column gets a second,
narrow rendering beside the wide one (the stylesheet shows one of them by the width): the
formula's top level is cut before each relation (=, ≤, ⇒, …) and at a wide space (\\qquad,
\\quad) that ends a statement (the text since the last such cut holds a top-level relation:
`\\max \\quad f(x)` or `\\text{Max} \\quad L=\\infty` stay together, an operator or a word is
never parted from what it applies to), and the pieces are packed greedily into lines of
`aligned`, each continuation indented and its relation kept (`{}=` keeps the spacing of a
relation that starts a line). Nothing inside braces, \\left…\\right or an environment is cut,
and a formula that already has lines (`\\\\`), an environment at its top or a `\\tag` is left
as written. The TeX the author wrote stays the source: this only adds `&`, `\\\\` and `\\quad`.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence

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
    if _LAID_OUT.search(formula.plain):
        return [("start", list(formula.parts))]
    out: list[tuple[str, Piece]] = [("start", [])]
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
            elif depth == 0 and tok in SEPARATORS and _statement_ends(out):
                out.append(("new", []))
            else:
                _append(out[-1][1], tok)
    return [(kind, p) for kind, p in out if _has_text(p)]


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


def narrow(formula: Formula, measure: Callable[[Sequence[Formula]], list[float]],
           width_em: float) -> Formula | None:
    """`formula` as lines no wider than `width_em` where it can be cut (`measure` gives each
    formula's width in em); None when it has only one piece."""
    cut = pieces(formula)
    if len(cut) < 2:
        return None
    widths = measure([_as_formula(formula, p) for _, p in cut])
    lines: list[tuple[str, Piece, float]] = []
    for (kind, piece), w in zip(cut, widths):
        if lines and kind == "rel" and lines[-1][2] + w <= width_em:
            last = lines[-1]
            lines[-1] = (last[0], last[1] + piece, last[2] + w)
        else:
            lines.append((kind, list(piece), w))
    if len(lines) < 2:
        return None
    parts: list[str | Quote] = [r"\begin{aligned}"]
    for n, (kind, piece, _) in enumerate(lines):
        lead = "&" if kind != "rel" else r"&\quad{}"
        parts += [(r"\\" if n else "") + lead, *piece]
    parts.append(r"\end{aligned}")
    return _as_formula(formula, parts)


def _as_formula(formula: Formula, parts: Sequence[str | Quote]) -> Formula:
    """`parts` as a display formula at `formula`'s place, copied as `formula` is."""
    return Formula(tuple(parts), True, formula.line, formula.source, formula.tex_line,
                   formula.copy_text)
