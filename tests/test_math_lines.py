"""Display formulas broken into lines for a phone (sqrtdk/web/math/lines.py): cuts only at
top-level relations and wide spaces, never inside braces, \\left…\\right or environments; the
author's own layout is left alone; quoted numbers travel as Quotes."""
from __future__ import annotations

from sqrtdk.web.math.lines import narrow, pieces
from sqrtdk.web.quoting import Formula, Quote


def formula(*parts: str | Quote) -> Formula:
    text = "".join(p if isinstance(p, str) else p.text for p in parts)
    return Formula(tuple(parts), True, 1, text, 1)


def by_length(fs):               # a stand-in for KaTeX's widths: a quarter em per character
    return [len(f.plain) / 4 for f in fs]


def test_cuts_before_relations_and_at_wide_spaces_only_at_the_top_level():
    f = formula(r"\frac{a=b}{c}=\left(x=y\right)\le 2,\qquad z\Rightarrow w")
    assert [(kind, "".join(map(str, p)).strip()) for kind, p in pieces(f)] == [
        ("start", r"\frac{a=b}{c}"), ("rel", r"=\left(x=y\right)"), ("rel", r"\le 2,"),
        ("new", "z"), ("rel", r"\Rightarrow w")]


def test_a_formula_the_author_laid_out_or_numbered_is_left_as_written():
    for tex in (r"a=b\\c=d", r"\begin{aligned}a&=b\end{aligned}", r"a=b \tag{1}"):
        assert len(pieces(formula(tex))) == 1
        assert narrow(formula(tex), by_length, 1.0) is None


def test_lines_are_packed_greedily_and_continuations_are_indented():
    f = formula(r"aaaa=bbbb=cccc=dddd")
    lines = narrow(f, by_length, 2.5)         # "aaaa" is 1 em, "=bbbb" 1.25 em
    assert lines is not None
    assert lines.plain == (r"\begin{aligned}&aaaa=bbbb\\&\quad{}=cccc=dddd\end{aligned}")
    assert narrow(f, by_length, 100.0) is None    # fits on one line: nothing to break


def test_a_quoted_number_stays_a_quote_in_the_lines():
    q = Quote("spread.sd_large", "fixed:2", "22.77")
    lines = narrow(formula(r"\operatorname{SD}=", q, r"\qquad d=512"), by_length, 1.0)
    assert lines is not None and lines.quotes == [q]
    assert lines.plain == r"\begin{aligned}&\operatorname{SD}\\&\quad{}=22.77\\& d\\&\quad{}=512\end{aligned}"
