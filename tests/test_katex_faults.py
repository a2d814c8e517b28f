"""Every kind of KaTeX parse error tells the author what to write, at the line and column of
the fault in the Markdown file, with the TeX around it (KaTeX's own message said what it met,
'Expected 'EOF', got '&'', at a position in the formula only)."""
from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import BODY_START, page, site_renderer

from sqrtdk.errors import BuildError
from sqrtdk.web.assemble import typeset

RESULTS: dict[str, Any] = {"spread": {"sd_small": 2.0104}, "claims": {}, "meta": {"bounds": {}}}


@pytest.fixture(scope="module")
def katex() -> Iterator[Any]:
    renderer = site_renderer()
    yield renderer
    renderer.close()


def fault(tmp_path: Path, katex: Any, body: str, macros: dict[str, str] | None = None,
          lang: str = "en", name: str = "index.md") -> BuildError:
    built = page(tmp_path, body, RESULTS, lang=lang, name=name)
    with pytest.raises(BuildError) as raised:
        typeset([built], katex, macros or {})
    assert len(str(raised.value).splitlines()) == 1, str(raised.value)
    return raised.value


def column_of(line: str, piece: str, nth: int = 1) -> int:
    """The 1-based column of the nth occurrence of `piece` in `line`."""
    at = -1
    for _ in range(nth):
        at = line.index(piece, at + 1)
    return at + 1


# name -> (a line of an article holding the fault, the piece at fault (its column is checked,
# at its nth occurrence when "piece@@n"; None: the formula's end), what the advice must say)
KINDS: dict[str, tuple[str, str | None, str]] = {
    "brace too many": ("so $\\frac{a}{b}}$ ends", "}@@3", "this '}' closes no '{': remove it"),
    "brace missing before": ("so $\\frac{a}b}$ ends", "}@@2", "add the '{' that opens its group"),
    "misspelt command": ("so $x + \\sqrtt{d}$ ends", "\\sqrtt", "did you mean \\sqrt?"),
    "one argument of two": ("so $\\frac{a}$ ends", None, "\\frac at line {line}, column "
                            "<col:\\frac> is missing an argument"),
    "left without right": ("so $\\left( x$ ends", None,
                           "the \\left( at line {line}, column <col:\\left> has no \\right: "
                           "add \\right)"),
    "right without left": ("so $x \\right)$ ends", "\\right", "add \\left( where the pair begins"),
    "ampersand outside an environment": ("so $a & b$ ends", "&",
                                         "write the formula inside \\begin{aligned}"),
    "two carets": ("so $x^^2$ ends", "^", "'^^' is two superscript marks: write one"),
    "two subscripts": ("so $x_1_2$ ends", "_@@2", "put both in one group, x_{1_2}"),
    "two superscripts": ("so $x^1^2$ ends", "^@@2", "put both in one group, x^{1^2}"),
    "unknown environment": ("so $\\begin{pmatrx} a \\end{pmatrx}$ ends", "{pmatrx}",
                            "did you mean \\begin{pmatrix}"),
    "environments mismatched": ("so $\\begin{matrix} a \\end{bmatrix}$ ends", "\\end",
                                "write \\end{matrix} here"),
    "display environment inline": ("so $\\begin{align} a \\end{align}$ ends",
                                   "\\begin{align}",
                                   "or use {aligned}, which works inline too"),
    "environment never ended": ("so $\\begin{matrix} a$ ends", None,
                                "the \\begin{matrix} at line {line}, column <col:\\begin> is "
                                "never ended: add \\end{matrix}"),
    "comment hiding a brace": ("so $\\frac{a}{b % c}$ ends", None,
                               "the '%' at line {line}, column <col:%> starts a TeX comment"),
    "brace never closed": ("$$\\frac{a}{{b}$$", None,
                           "the '{' at line {line}, column <col:{{b}> ('{{b}') is never closed: "
                           "add the '}'"),
    "stray end": ("so $a \\end{matrix}$ ends", "\\end", "has no \\begin{…} before it"),
    "stray hash": ("so $a # b$ ends", "#", "write \\# for the sign"),
    "command without its argument": ("so $\\sqrt$ ends", None, "\\sqrt{…}"),
    "limits without an operator": ("so $x\\limits$ ends", "\\limits",
                                   "right after an operator"),
    "length without a unit": ("so $a\\hspace{3} b$ ends", "3", "a number and a unit"),
    "column letter": ("so $\\begin{array}{cx} a \\end{array}$ ends", "x",
                      "one letter, l, c or r"),
    "delimiter": ("so $\\left a \\right)$ ends", "a", "or . for none"),
    "big without delimiter": ("so $x\\big$ ends", None, "\\big needs a delimiter after it"),
    "middle without left": ("so $a \\middle| b$ ends", "|",
                            "put \\middle between a \\left and its \\right"),
    "two infix operators": ("so $a \\over b \\over c$ ends", "\\over@@2", "write \\frac{a}{b}"),
    "two tags": ("so $a \\tag{1} \\tag{2}$ ends", "\\tag@@2", "a formula takes one \\tag"),
    "math command in text": ("so $\\text{a \\sum b}$ ends", "\\sum",
                             "inside \\text{…}, write it between $ signs"),
    "color": ("so $\\color{#12}{x}$ ends", "{#12}", "a color name"),
    "renewcommand of nothing": ("so $\\renewcommand{\\zz}{1}$ ends",
                                "\\renewcommand{\\zz",
                                "write \\newcommand{\\zz}"),
    "formula marked twice": ("so $\\( y = x_1 + x_2 \\)$ ends", "\\(",
                             "marked twice, by its dollar signs and by '\\( … \\)': write "
                             "'$y = x_1 + x_2$' in its place"),
    "two formulas marked inside one": ("so $\\( a = 1 \\), \\( b = 2 \\)$ ends", "\\(",
                                       "write '$a = 1$, $b = 2$' in its place"),
    "formula marked twice in brackets": ("so $(\\( \\delta_o \\))$ ends", "\\(",
                                         "write '($\\delta_o$)' in its place"),
    "text around a marked formula": ("so $a + \\( b \\)$ ends", "\\(",
                                     "remove each \\( and \\)"),
    "dollar inside a formula": ("$$ d(x,y) = $argmin_s Crl(x,y,s) $$", "$@@3",
                                "a '$' inside a formula opens or closes nothing there"),
    "display formula marked twice": ("$$\\[ a = 1 \\]$$", "\\[", "write 'a = 1' in its place"),
    "optional argument never closed": ("so $\\sqrt[3{x}$ ends", None,
                                       "the '[' at line {line}, column <col:[> "),
}


def _expected(says: str, line: int, text: str) -> str:
    return re.sub(r"<col:(.+?)>", lambda m: str(column_of(text, m[1])),
                  says.replace("{line}", str(line)))


@pytest.mark.parametrize("kind", KINDS)
def test_each_kind_of_katex_error_says_what_to_write_at_its_line_and_column(
        tmp_path: Path, katex: Any, kind: str) -> None:
    text, token, says = KINDS[kind]
    e = fault(tmp_path, katex, f"First paragraph.\n\n{text}\n")
    line = BODY_START + 2
    assert e.line == line, str(e)
    assert _expected(says, line, text) in e.message, e.message
    if token is not None:
        piece, _, nth = token.partition("@@")
        assert f"at column {column_of(text, piece, int(nth or 1))} ('{piece}')" in e.message, \
            e.message
    else:
        # just after the TeX: its closing '$' (or '$$')
        end = (text.rindex("$$") if text.startswith("$$") else
               text.index("$", text.index("$") + 1)) + 1
        assert f"at the formula's end (line {line}, column {end})" in e.message, e.message
    assert "\u0332" not in e.message and "at position" not in e.message, e.message


def test_a_misspelt_site_macro_is_named_with_the_macro_meant(tmp_path: Path, katex: Any) -> None:
    e = fault(tmp_path, katex, "so $\\vqq \\cdot k$ ends\n", {"\\vq": "\\mathbf{q}"})
    assert "did you mean \\vq (from [math.macros]" in e.message, e.message


@pytest.mark.parametrize("body, macro, says", [
    ("x^^", "x^^", "in \\m from [math.macros] in content/site.toml, at column 2 of its "
                   "TeX ('x^^'): '^^' is two superscript marks"),
    ("\\frac{#1", "\\frac{#1", "in \\m from [math.macros] in content/site.toml: the '{' "
                             "at column 6 of its TeX ('{#1') is never closed"),
    ("a}", "a}", "at column 2 of its TeX ('a}'): this '}' closes no '{'"),
], ids=["carets", "brace never closed", "brace too many"])
def test_a_fault_in_a_site_macro_s_tex_is_told_in_that_tex(tmp_path: Path, katex: Any, body: str,
                                                           macro: str, says: str) -> None:
    """KaTeX's position is then in the macro's TeX: the advice is about that TeX, not about
    the formula that uses it (it said the formula's \\m lacked an argument)."""
    e = fault(tmp_path, katex, "so $y + \\m{x} + 1$ ends\n", {"\\m": body})
    assert says in e.message, e.message


def test_an_unused_site_macro_that_cannot_be_typeset_says_what_to_write(
        tmp_path: Path, katex: Any, caplog: pytest.LogCaptureFixture) -> None:
    import logging

    from sqrtdk.options import PROJECT_ROOT
    from sqrtdk.settings import load_settings
    from sqrtdk.web.assemble import check_unused_macros
    content = tmp_path / "content"
    shutil.copytree(PROJECT_ROOT / "content", content)
    site = content / "site.toml"
    site.write_text(site.read_text(encoding="utf-8") + "\n[math.macros]\n'\\broken' = '\\frac{'\n",
                    encoding="utf-8")
    built = page(tmp_path, "A formula $x$ here.\n", RESULTS)
    with caplog.at_level(logging.WARNING):
        check_unused_macros([built], katex, load_settings(content))
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 1 and "\u0332" not in said[0], said
    assert "in \\broken from [math.macros] in content/site.toml: the '{' at column 6" in said[0], said


def test_a_misspelt_macro_of_the_article_is_named_with_the_macro_meant(
        tmp_path: Path, katex: Any) -> None:
    e = fault(tmp_path, katex, "so $\\gdef\\half{\\frac12}$ and $\\halff x$ ends\n")
    assert "did you mean \\half?" in e.message, e.message


def test_no_suggestion_for_a_command_close_to_none(tmp_path: Path, katex: Any) -> None:
    e = fault(tmp_path, katex, "so $\\qwzxv y$ ends\n")
    assert "did you mean" not in e.message and "is no command KaTeX knows" in e.message, \
        e.message


def test_katex_s_names_come_from_katex_itself(katex: Any) -> None:
    """The names suggested are those the installed KaTeX knows (read from its package and
    checked with it), not a list of ours: its commands, environments and none it refuses."""
    commands, environments = katex.names()
    assert {"\\sqrt", "\\frac", "\\operatorname", "\\mathbb", "\\left"} <= set(commands)
    assert {"aligned", "pmatrix", "cases", "array"} <= set(environments)
    assert len(commands) > 500, len(commands)
    refused = [r.error for r in katex.render(
        [formula(c) for c in commands[::25]]) if "Undefined control sequence" in r.error]
    assert not refused, refused


def formula(tex: str) -> Any:
    from sqrtdk.web.math import Formula
    return Formula((tex,), True, 1, tex, 1)


@pytest.mark.parametrize("body, line, piece, nth", [
    # mid-line, after another formula holding the same TeX
    ("a $x_1$ and $y$ then $x_1_2$ ends\n", 0, "_", 3),
    # a display formula over several lines, the fault on its third
    ("Text.\n\n$$\na = b \\\\\nc = d\n+ \\sqrtt{e}\n$$\n", 5, "\\sqrtt", 1),
    # inside a list item, indented
    ("- an item\n\n    $$\n    a = b\n    + \\fracc{1}{2}\n    $$\n", 4, "\\fracc", 1),
    # with a quoted result before it in the formula
    ("so $x = {{ spread.sd_small | fixed(2) }} + \\sqrtt{y}$ ends\n", 0, "\\sqrtt", 1),
    # in a block quote
    ("> quoted $a + b}$ ends\n", 0, "}", 1),
], ids=["second on a line", "display lines", "list item", "quoted result", "block quote"])
def test_the_column_is_the_author_s_in_the_markdown_file(tmp_path: Path, katex: Any, body: str,
                                                         line: int, piece: str, nth: int) -> None:
    e = fault(tmp_path, katex, body)
    text = body.split("\n")[line]
    assert e.line == BODY_START + line, str(e)
    assert f"at column {column_of(text, piece, nth)} ('{piece}')" in e.message, e.message


def test_a_long_formula_is_quoted_around_the_fault(tmp_path: Path, katex: Any) -> None:
    e = fault(tmp_path, katex, "so $a + b + c + d + e + f + g + \\sqrtt{h} + i + j + k + l$\n")
    assert "in '… + e + f + g + \\sqrtt{h} + i + j + k…'" in e.message, e.message


def test_the_chinese_article_s_fault_is_at_its_own_line_and_column(
        tmp_path: Path, katex: Any) -> None:
    """A Chinese file: its own line, the column counted in characters (a CJK character is
    one), the advice the same."""
    text = "注意力公式 $\\frac{q}{\\sqrtt{d_k}}$ 在此。"
    e = fault(tmp_path, katex, f"第一段。\n\n第二段。\n\n{text}\n", lang="zh", name="zh.md")
    assert e.path.name == "zh.md" and e.line == BODY_START + 4, str(e)
    command = "\\sqrtt"
    assert f"at column {column_of(text, command)} ('{command}')" in e.message, e.message
    assert "did you mean \\sqrt?" in e.message, e.message


def test_show_in_a_formula_does_not_break_the_renderer(katex: Any) -> None:
    """KaTeX's \\show prints with console.log, on the worker's stdout, where the build reads
    answers: the build failed to read them (a traceback). Now it is a formula like any."""
    rendered = katex.render([formula("\\show\\alpha x"), formula("y")])
    assert all(r.html and not r.error for r in rendered), rendered


@pytest.mark.parametrize("body, line, piece", [
    ("so $x — y$ ends\n", 0, "—"),
    ("Text.\n\n$$\na = b\n+ c — d\n$$\n", 4, "—"),
    ("so $x = \\text{é} + \\mathbb{1}$ ends\n", 0, "\\mathbb{1}"),
    ("- an item: $a_{\\text{max}} = 最大$ ends\n", 0, "最大"),
], ids=["inline", "display line", "blackboard bold", "Chinese in math"])
def test_a_katex_warning_is_at_its_line_and_column(tmp_path: Path, katex: Any, body: str,
                                                   line: int, piece: str) -> None:
    """KaTeX's strict-mode warnings (a character its fonts lack, text in math) were told at
    the formula's first line: now at the character's line and column (with --strict they
    are the build's errors)."""
    from sqrtdk.log import captured
    built = page(tmp_path, body, RESULTS)
    with captured() as said:
        typeset([built], katex, {})
    text = body.split("\n")[line]
    at = f"index.md:{BODY_START + line}: warning: "
    assert any(at in s and f" at column {column_of(text, piece)}; " in s for s in said), said


@pytest.mark.parametrize("body, ascii_, words", [
    ("设函数 $f（x）= x^2$ 成立\n", "'(' for '（', ')' for '）'", False),
    ("若 $a：b = 1：2$ 则\n", "':' for '：'", False),
    ("且 $欧式距离：loss=1$ 时\n", "':' for '：'", True),
])
def test_full_width_punctuation_in_math_is_told_its_ascii(tmp_path: Path, katex: Any, body: str,
                                                          ascii_: str, words: bool) -> None:
    """A Chinese input method's '（x）' or '：' in a formula (`$f（x）$`, as Chinese notes
    hold it) was told "put words inside \\text{…}", advice for words: the ASCII character
    is what was meant."""
    from sqrtdk.log import captured
    built = page(tmp_path, body, RESULTS, lang="zh")
    with captured() as said:
        typeset([built], katex, {})
    told = [s for s in said if "unicodeTextInMathMode" in s]
    assert len(told) == 1 and ascii_ in told[0], said
    assert ("\\text{" in told[0]) == words, told


@pytest.mark.parametrize("body, meant", [
    ("最优解 $w^\\*$ 是\n", "'*'"),
    ("so $a \\+ b$ ends\n", "'+'"),
])
def test_a_mark_escaped_for_markdown_in_a_formula_is_told_the_mark(
        tmp_path: Path, katex: Any, body: str, meant: str) -> None:
    """A post written for MathJax behind Markdown escapes '*' as '\\*' (Markdown would
    read two as emphasis); KaTeX refused '\\*' as an undefined control sequence, and the
    message said nothing to do (its command-name hints read letters only)."""
    e = fault(tmp_path, katex, body)
    assert "escaped for Markdown" in e.message and f"write {meant}" in e.message, e.message


def test_an_invisible_character_in_a_formula_is_told_once(tmp_path: Path,
                                                          katex: Any) -> None:
    """A zero-width space pasted into a formula (as Zhihu's and CSDN's pages hold them) drew
    two warnings from KaTeX, an unknown symbol and a character its fonts lack, the second
    without a column and telling to put it inside \\text{…}; the first one tells it all."""
    from sqrtdk.log import captured
    built = page(tmp_path, "so $\\sigma(x)=1+e^{-x}1\u200b,y$ ends\n", RESULTS)
    with captured() as said:
        typeset([built], katex, {})
    told = [s for s in said if "U+200B" in s]
    assert len(told) == 1 and "delete it" in told[0] and " at column " in told[0], said
