"""A formula as plain text, for the names MathML does not reach (issue 20: a table header
holding only a formula had no name): sqrtdk.web.math_text and md_math.HeaderNames."""
from __future__ import annotations

from pathlib import Path

import pytest
from helpers import Tree, page

from sqrtdk.web.assemble import fill_math
from sqrtdk.web.math_text import mathml_text

M = '<span class="katex-mathml"><math xmlns="http://www.w3.org/1998/Math/MathML"><semantics>' \
    '<mrow>{}</mrow><annotation encoding="application/x-tex">TeX</annotation></semantics>' \
    '</math></span><span class="katex-html" aria-hidden="true">drawn</span>'


@pytest.mark.parametrize("mathml, text", [
    ("<msqrt><msub><mi>d</mi><mi>k</mi></msub></msqrt>", "√dₖ"),
    ("<mn>1</mn><mi mathvariant='normal'>/</mi><msqrt><msub><mi>d</mi><mi>k</mi></msub></msqrt>",
     "1/√dₖ"),
    ("<mfrac><mrow><mi>q</mi><mo>⋅</mo><mi>k</mi></mrow><msqrt><mi>d</mi></msqrt></mfrac>",
     "(q⋅k)/√d"),
    ("<msup><mi>x</mi><mn>2</mn></msup>", "x²"),
    ("<msup><mi>K</mi><mi mathvariant='normal'>⊤</mi></msup>", "K^⊤"),
    ("<mi>Var</mi><mo>\u2061</mo><mo>(</mo><mi>X</mi><mo>)</mo>", "Var(X)"),
    ("<msubsup><mo>∑</mo><mrow><mi>i</mi><mo>=</mo><mn>1</mn></mrow><mi>n</mi></msubsup>",
     "∑ᵢ₌₁ⁿ"),
])
def test_a_formula_reads_as_one_line_of_text(mathml: str, text: str) -> None:
    assert mathml_text(M.format(mathml)) == text


def test_no_math_no_text() -> None:
    assert mathml_text("<span>x</span>") == ""


def test_a_formula_in_a_header_or_a_data_cell_names_it(tmp_path: Path) -> None:
    """A data cell's formula was left unnamed: chromium left it out of the cell's name, which
    a screen reader moving by cells reads ('' for a cell "$a$"). Named as a header cell's."""
    p = page(tmp_path, "| by | $\\sqrt{d_k}$ | $1$ (none) |\n|---|---|---|\n| $a$ | b | c |\n",
             {"meta": {"seed": 1, "bounds": {}}})
    html = fill_math(p.body, [M.format("<msqrt><msub><mi>d</mi><mi>k</mi></msub></msqrt>"),
                              M.format("<mn>1</mn>"), M.format("<mi>a</mi>")])
    named = [(e["tag"], e["attrs"].get("aria-label"), e["ancestors"])
             for e in Tree(html).elements if e["attrs"].get("role") == "math"]
    assert [(tag, label) for tag, label, _ in named] == \
        [("span", "√dₖ"), ("span", "1"), ("span", "a")]
    assert [("th" in a, "td" in a) for _, _, a in named] == \
        [(True, False), (True, False), (False, True)]
    cells = [e["attrs"].get("aria-label") for e in Tree(html).elements if e["tag"] == "td"]
    assert cells == ["a", None, None]


def test_a_header_cell_holding_a_formula_is_named_by_its_whole_text(tmp_path: Path) -> None:
    """The cell's own name is its text with the formula's plain text in place: chromium puts
    a space beside a name an attribute gives (the formula's), so a header "$1$（不缩放）" was
    named "1 （不缩放）", a pause before the bracket. A cell without a formula keeps its name."""
    p = page(tmp_path, "| by | $1$（不缩放） | $1$ (none) |\n|---|---|---|\n| a | b | c |\n",
             {"meta": {"seed": 1, "bounds": {}}})
    html = fill_math(p.body, [M.format("<mn>1</mn>")] * 2)
    cells = [e["attrs"].get("aria-label") for e in Tree(html).elements if e["tag"] == "th"]
    assert cells == [None, "1（不缩放）", "1 (none)"]


def test_a_cell_s_name_reads_raw_html_in_it_as_text(tmp_path: Path) -> None:
    """Raw HTML beside a formula in a cell ('$a$<br>b', '<span title="t">w</span> $c$', a
    common way to break a cell's line) went into the cell's aria-label as Markdown's
    placeholder, filled with the raw tags after the tree was written: 'aria-label="a<br>b"'
    (a screen reader read '<br>') and 'aria-label="<span title="t">w</span> c"', which broke
    the cell's tag. Now its text: a line break a space, an image its alt."""
    p = page(tmp_path, "| x | y |\n|---|---|\n| $a$<br>b | <span title=\"t\">w</span> $c$ |\n"
             "| <img src=\"https://a.example/p.png\" alt=\"Pic\"> $d$ | "
             "![Chart](https://a.example/c.png) $e$ |\n", {"meta": {"seed": 1, "bounds": {}}})
    html = fill_math(p.body, [M.format(f"<mi>{v}</mi>") for v in "acde"])
    cells = [e["attrs"] for e in Tree(html).elements if e["tag"] == "td"]
    assert [c.get("aria-label") for c in cells] == ["a b", "w c", "Pic d", "Chart e"], cells
    assert all(set(c) == {"aria-label"} for c in cells), cells
