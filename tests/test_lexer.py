"""The lexer takes formulas and code out before templates and Markdown see the article; every
line stays where it was, so every message names the author's line."""
from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

import pytest

from sqrtdk.errors import BuildError
from sqrtdk.web.lexer import mask
from sqrtdk.web.markers import CODE_RE, DISPLAY_MATH_RE, FILLER, INLINE_MATH_RE

P = Path("a.md")


def tex(text: str) -> list[tuple[str, bool, int]]:
    m = mask(P, text)
    return [(f.tex, f.display, f.line) for f in m.formulas]


def test_inline_math_is_found_with_its_line() -> None:
    assert tex("x\n\nA $a_i * b_i$ and $c$.\n") == [("a_i * b_i", False, 3), ("c", False, 3)]


def test_lines_are_kept() -> None:
    source = "a $x$\n\n$$\n\\frac{1}{2}\n\\\\ y\n$$\n\n```\ncode $z$\n```\nend $w$\n"
    m = mask(P, source)
    assert m.text.count("\n") == source.count("\n")
    assert m.text.split("\n")[10].startswith("end ")


def test_escaped_dollar_is_not_math() -> None:
    assert tex("It costs \\$5 and \\$10.\n") == []


def test_a_dollar_that_starts_no_formula_is_an_error_at_its_line() -> None:
    with pytest.raises(BuildError) as e:
        mask(P, "one\n\ntwo $ three\n")
    assert e.value.line == 3 and "'$' that starts no formula" in e.value.message


def test_prices_without_escapes_are_an_error_not_a_formula() -> None:
    with pytest.raises(BuildError) as e:
        mask(P, "first\nBetween $5 and $10 a day.\n")
    assert e.value.line == 2 and "never closed" in e.value.message


@pytest.mark.parametrize("source, price, column", [
    ("first\nIt costs $5\u2013$10 per run ($d_k$-independent).\n", "$5", 10),
    ("first\nIt costs $5 per run ($d_k$ here).\n", "$5", 10),
    ("first\nA fee of $12.50 per call ($n$ calls) and $m$ more.\n", "$12.50", 10),
])
def test_a_price_that_pairs_the_dollars_wrongly_is_named(source: str, price: str,
                                                         column: int) -> None:
    """A price's '$' ('costs $5') opened a formula closed by the next formula's '$', so the
    error fell on a later '$' ('$-independent)' is never closed), quoting a dollar sign that
    has a partner and not the price's, which has none; the price is named with its column."""
    with pytest.raises(BuildError) as e:
        mask(P, source)
    assert e.value.line == 2, e.value.message
    assert f"'{price}' at column {column}" in e.value.message, e.value.message
    assert f"'\\{price}'" in e.value.message, e.value.message


@pytest.mark.parametrize("source, named, write", [
    ("first\nA $5 fee and $x$ is small.\n", "'$5' at column 3", "'\\$5'"),
    ("first\nIt costs $3.50 while $d_k$ grows.\n", "'$3.50' at column 10", "'\\$3.50'"),
    # two prices before the formula: both named, or the fix of one finds the other
    ("first\nIt costs $5 and $10 for $x$ here.\n",
     "'$5' at column 10 and '$10' at column 17", "'\\$5' and '\\$10'"),
    ("first\nIt costs $5\u2013$10 and $x$ here.\n",
     "'$5' at column 10 and '$10' at column 13", "'\\$5' and '\\$10'"),
    # the price at a line's end, the formula on the paragraph's next line
    ("first\nA price of $5\nwhile $d_k$ grows.\n", "'$5' at column 12", "'\\$5'"),
    ("first\n\u4ef7\u683c $5\uff0c\u800c $d_k$ \u589e\u957f\u3002\n", "'$5' at column 4",
     "'\\$5'"),
], ids=["fee", "decimals", "two prices", "price range", "next line", "zh spaced"])
def test_a_price_whose_dollar_a_later_formula_closes_is_named(source: str, named: str,
                                                             write: str) -> None:
    """A price's '$' ('A $5 fee and $x$') opened a formula that the next formula's '$' closed,
    '5 fee and $x': the lexer let it through and KaTeX's refusal ('Can't use function '$' in
    math mode', at the formula's last line) said nothing of the price; it is named at its
    line, with what to write."""
    with pytest.raises(BuildError) as e:
        mask(P, source)
    assert e.value.line == 2, e.value.message
    assert f"price{'s' if ' and ' in named else ''} {named}" in e.value.message, e.value.message
    assert f"write {write} for the price" in e.value.message, e.value.message


def test_every_price_closed_by_a_formula_is_named_in_one_build() -> None:
    with pytest.raises(BuildError) as e:
        mask(P, "A $5 fee and $x$ here.\n\nA $6 fee and $y$ here.\n\nAnd $z$.\n")
    assert [x.line for x in e.value.errors] == [1, 3], e.value.errors


@pytest.mark.parametrize("text", ["Price: US$20, or 20$ in some locales.\n",
                                  "The fee is $3 per month, or 30$ a year.\n"])
def test_two_prices_read_as_one_formula_warn_at_the_line(text: str) -> None:
    """Two dollar signs of prices around words ('US$20, or 20$') were typeset as the formula
    '20, or 20', in italics, with no word."""
    from sqrtdk.log import captured
    with captured() as warned:
        mask(P, "first\n\n" + text)
    got = [w for w in warned if "dollar signs of prices" in w]
    assert len(got) == 1 and got[0].startswith("a.md:3: warning:"), warned


@pytest.mark.parametrize("text", ["$2 x + 1$", "$10^3$", "$3 \\text{ or } 4$", "$x or y$",
                                  "$1, 2, \\dots, n$", "$2k$",
                                  "$1/{{ rulers.positions | grouped }}$", "$2 x_i$",
                                  "$128 times 12288$", "$3 dot 4$"])
def test_a_formula_of_a_number_and_tex_is_no_price(text: str) -> None:
    """('$128 times 12288$', Typst's product in a study note, was told as two prices'
    dollar signs; it is a symbol written by its name, told as that.)"""
    from sqrtdk.log import captured
    with captured() as warned:
        mask(P, text + "\n")
    assert not [w for w in warned if "prices" in w], warned


@pytest.mark.parametrize("source, line", [
    ("\\[ some plain words here \\]\n", 3),
    ("$$ the sum of scores $$\n", 3),
    ("$$\nthe sum of scores,\nrow by row.\n$$\n", 4),
    ("```math\nthe sum of scores\n```\n", 4),
    ("A sentence with $the sum of scores$ inside.\n", 3),
], ids=["brackets", "dollars on a line", "dollars around lines", "math fence", "inline"])
def test_a_formula_of_only_prose_warns_at_its_line(source: str, line: int) -> None:
    """A formula holding only words (`\\[ some plain words \\]`) was typeset silently as
    math: each letter a variable in italics, the words run together. Written as the message
    says (as text, or its words in \\text{…}), it warns no more."""
    from sqrtdk.log import captured
    with captured() as warned:
        mask(P, "first\n\n" + source)
    got = [w for w in warned if "only words of prose" in w]
    assert len(got) == 1 and got[0].startswith(f"a.md:{line}: warning:"), warned
    assert "without the formula's delimiters" in got[0] and "\\text{" in got[0], got
    for fixed in ("first\n\nsome plain words here\n", "\\[ \\text{some plain words here} \\]\n"):
        with captured() as warned:
            mask(P, fixed)
        assert warned == [], warned


@pytest.mark.parametrize("text", ["$$ x = y $$", "\\[ \\text{the sum of scores} \\]",
                                  "$x or y$", "$a b c d$", "$$ f(x) of the sum $$",
                                  "$$ sum of x_i over all $$", "$the sum$"])
def test_a_formula_with_math_or_few_words_is_no_prose(text: str) -> None:
    from sqrtdk.log import captured
    with captured() as warned:
        mask(P, text + "\n")
    assert not [w for w in warned if "prose" in w], warned


def test_dollar_inside_braces_does_not_close_the_formula() -> None:
    assert tex("$\\text{for $a<b$ only}$\n") == [("\\text{for $a<b$ only}", False, 1)]


def test_dollar_in_tex_escape_is_tex() -> None:
    assert tex("$\\boxed{\\$1,\\!000}$\n") == [("\\boxed{\\$1,\\!000}", False, 1)]


def test_closing_dollar_before_a_digit_does_not_close() -> None:
    with pytest.raises(BuildError):
        mask(P, "$a$5\n")


def test_inline_formula_over_two_lines_keeps_both_lines_non_blank() -> None:
    m = mask(P, "a $x +\ny$ b\n")
    assert m.formulas[0].tex == "x +\ny"
    lines = m.text.split("\n")
    assert INLINE_MATH_RE.search(lines[0]) and lines[1] == FILLER + " b"


def test_inline_math_does_not_cross_a_blank_line() -> None:
    with pytest.raises(BuildError) as e:
        mask(P, "a $x +\n\ny$ b\n")
    assert e.value.line == 1


def test_display_block_in_a_nested_list_keeps_the_tex_exact() -> None:
    body = "\\begin{aligned}\n  a &= 1 \\\\\n  b &= 2\n\\end{aligned}"
    source = "- outer\n\n    - inner\n\n        $$\n" + "\n".join(
        "        " + line for line in body.split("\n")) + "\n        $$\n"
    assert tex(source) == [(body, True, 5)]


def test_display_block_in_a_blockquote() -> None:
    assert tex("> $$\n> x^2\n> $$\n") == [("x^2", True, 1)]


def test_display_on_one_line_and_with_tex_on_the_fence_lines() -> None:
    assert tex("$$ a+b $$\n\n$$x\ny$$\n") == [("a+b", True, 1), ("x\ny", True, 3)]


def test_unclosed_display_formula_names_its_opening_line() -> None:
    with pytest.raises(BuildError) as e:
        mask(P, "text\n\n$$\nx\n\nmore text\n")
    assert e.value.line == 3 and "not closed" in e.value.message


def test_display_dollars_inside_a_line_are_an_error() -> None:
    with pytest.raises(BuildError) as e:
        mask(P, "a\ntext $$x$$ more\n")
    assert e.value.line == 2


def test_code_spans_and_fences_hold_no_math() -> None:
    source = "`$x$` and ``a ` $y$`` then $z$\n\n~~~\n$$\n~~~\n"
    m = mask(P, source)
    assert [f.tex for f in m.formulas] == ["z"]
    restored = m.restore_code(m.text)
    assert restored.replace(INLINE_MATH_RE.search(restored).group(0), "$z$") == source


def test_a_backtick_inside_math_is_tex() -> None:
    assert tex("$\\text{``a''}$ and `code`\n") == [("\\text{``a''}", False, 1)]


def test_leftmost_wins_between_code_and_math() -> None:
    assert tex("`a $x` $y$\n") == [("y", False, 1)]


def test_fence_in_a_list_item_and_unclosed_fence() -> None:
    assert tex("- item\n\n    ```\n    $x$\n    ```\n\n$y$\n") == [("y", False, 7)]
    with pytest.raises(BuildError) as e:
        mask(P, "a\n\n```python\nx = 1\n")
    assert e.value.line == 3 and "never closed" in e.value.message


def test_template_tags_and_html_tags_are_skipped_whole() -> None:
    assert tex("{# a $ b #} <span title=\"$5\">x</span> $y$\n") == [("y", False, 1)]


def test_template_comments_go_and_their_lines_stay() -> None:
    m = mask(P, "a {# TODO: $x$\nreword #}b\n## T {#id}\n")
    assert m.text == f"a \n{FILLER}b\n## T {{#id}}\n" and m.formulas == []


COMMENTS = {
    "html, own lines": ("Intro.\n\n<!-- TODO: cite $\\sqrt{d_k}$ and\n{{ spread.nope }}\n\n"
                        "[a link](#gone) -->\n\nAfter.\n",
                        f"Intro.\n\n{FILLER}\n{FILLER}\n{FILLER}\n{FILLER}\n\nAfter.\n"),
    # a block of its own between two blocks stays one (a paragraph of FILLER, dropped later),
    # as GitHub's HTML block ends a list; its lines keep their quote's '>'
    "html, a block between blocks in a quote": ("> - a\n>\n> <!-- x\n>\n> y -->\n>\n> - b\n",
                                                 f"> - a\n>\n> {FILLER}\n>{FILLER}\n> {FILLER}\n"
                                                 ">\n> - b\n"),
    "html, at the article's start": ("<!-- x -->\n\nOne.\n", "\n\nOne.\n"),
    "template, blank line inside": ("Intro.\n\n{# draft:\n\n$$\nx\n$$\n#}\nAfter.\n",
                                    "Intro.\n\n\n\n\n\n\n\nAfter.\n"),
    "html, inside a line": ("One <!-- $x$ --> two.\n", "One  two.\n"),
    "html, between two lines of a paragraph": ("One\n<!-- note -->\ntwo.\n",
                                               f"One\n{FILLER}\ntwo.\n"),
    "html, over lines inside a paragraph": ("One <!-- a\n\nb --> two\nthree.\n",
                                            f"One \n{FILLER}\n{FILLER} two\nthree.\n"),
    "html, in a quote": ("> One.\n>\n> <!-- note -->\n", "> One.\n>\n> \n"),
    "html, the short forms": ("a <!--> b <!---> c\n", "a  b  c\n"),
}


@pytest.mark.parametrize("source, expected", COMMENTS.values(), ids=list(COMMENTS))
def test_comments_go_with_everything_inside_and_their_lines_stay(source: str,
                                                                 expected: str) -> None:
    m = mask(P, source)
    assert m.text == expected and m.formulas == []


@pytest.mark.parametrize("source", [
    "```html\n<!-- kept -->\n{# kept #}\n```\n",
    "Write `<!-- x -->` or `{# y #}` for a comment.\n",
    "An escaped \\<!-- is text, and so is \\{# .\n",
    "Intro.\n\n    <p>an indented code block</p>\n    <!-- {# kept\n-->\n",
    "    code <!-- and {# first\n\n    still code -->\n",
], ids=["fence", "code span", "escaped", "indented code", "indented code at the start"])
def test_comment_syntax_in_code_or_escaped_is_not_a_comment(source: str) -> None:
    m = mask(P, source)
    assert "<!--" in m.restore_code(m.text) and "{#" in m.restore_code(m.text)


@pytest.mark.parametrize("source, line, close", [
    ("One.\n\nTwo <!-- TODO\n\nThree.\n", 3, "-->"),
    ("One.\n{# draft\n\nThree. #\n", 2, "#}"),
], ids=["html", "template"])
def test_an_unclosed_comment_is_an_error_at_its_line(source: str, line: int,
                                                     close: str) -> None:
    with pytest.raises(BuildError) as e:
        mask(P, source)
    assert e.value.line == line and "never closed" in e.value.message
    assert f"'{close}'" in e.value.message


@pytest.mark.parametrize("source, kept", [
    ("Decoding stops at <eos>; <pad> positions are masked.\n", ["&lt;eos>", "&lt;pad>"]),
    ("A `List` of <T> and </T>, keyed by <id>.\n", ["&lt;T>", "&lt;/T>", "&lt;id>"]),
    ("<sub>2</sub>, <br>, <span class=\"x\">s</span>\n",
     ["<sub>2</sub>", "<br>", "<span class=\"x\">s</span>"]),
    ("<https://arxiv.org/abs/1706.03762> and <me@example.org>\n",
     ["<https://arxiv.org/abs/1706.03762>", "<me@example.org>"]),
    ("if a < b and c > d\n", ["a < b and c > d"]),
], ids=["tokens", "generic", "elements", "autolinks", "comparison"])
def test_angle_brackets_are_html_only_for_html_elements(source: str, kept: list[str]) -> None:
    text = mask(P, source).text
    assert all(k in text for k in kept), text


def test_pipes_in_a_table_cell_are_inside_the_token() -> None:
    m = mask(P, "| a | $\\left(x\\middle|y\\right)$ |\n")
    assert m.formulas[0].tex == "\\left(x\\middle|y\\right)" and m.text.count("|") == 3


def test_tokens_do_not_collide_with_katex_private_use_glyphs() -> None:
    # KaTeX writes U+E020 for the slash of \neq; the build's markers live in plane 15
    m = mask(P, "$a$ `b`\n")
    assert all(ord(c) > 0xFFFF for c in m.text if not c.isascii())
    assert DISPLAY_MATH_RE.pattern and CODE_RE.search(m.text)


# --- LaTeX's delimiters: \( … \) and \[ … \] ----------------------------------------------------

def test_latex_inline_delimiters_are_math_like_dollars() -> None:
    assert tex("a\n\nSo \\(q \\cdot k\\) grows, and \\( \\sqrt{d_k} \\) too.\n") == \
        [("q \\cdot k", False, 3), ("\\sqrt{d_k}", False, 3)]
    assert tex("a \\(x +\ny\\) b\n") == [("x +\ny", False, 1)]


def test_latex_inline_delimiters_skip_tex_escapes_and_stay_inside_code() -> None:
    assert tex("\\(f\\{x\\} \\\\ g(x)\\)\n") == [("f\\{x\\} \\\\ g(x)", False, 1)]
    assert tex("`\\(x\\)` and \\\\(not math)\n") == []


def test_an_unclosed_latex_inline_formula_is_an_error_at_its_line() -> None:
    with pytest.raises(BuildError) as e:
        mask(P, "one\n\ntwo \\(x +\n\ny\\)\n")
    assert e.value.line == 3 and "never closed" in e.value.message and "\\)" in e.value.message


@pytest.mark.parametrize("source, expected", [
    ("\\[ x^2 \\]\n", [("x^2", True, 1)]),
    ("text\n\n\\[\n\\frac{1}{2}\n\\]\n", [("\\frac{1}{2}", True, 3)]),
    ("\\[ a +\nb \\]\n", [("a +\nb", True, 1)]),
    ("> \\[\n> x\n> \\]\n", [("x", True, 1)]),
    ("- item\n\n    \\[\n    y\n    \\]\n", [("y", True, 3)]),
], ids=["one line", "own lines", "tex on the fence lines", "blockquote", "list item"])
def test_latex_display_delimiters_are_display_math(source: str, expected: list[object]) -> None:
    assert tex(source) == expected


@pytest.mark.parametrize("source, told", [
    ("\\[ \u4e2d\u6587 | English \\]\n", True),          # a language switcher, no link
    ("text\n\n\\[ \u66f4\u65b0\u65e5\u5fd7 \\]\n", True),  # a section's tag in brackets
    ("\\[\n\u4e2d\u6587\n\\]\n", True),
    ("\\[ \\text{\u901f\u5ea6} = v \\]\n", False),       # words in \text: a formula
    ("\\[ \u8ddd\u79bb \\times \u65f6\u95f4 \\]\n", False),
    ("\\[ x + y \\]\n", False),
], ids=["words and a bar", "words", "own lines", "text command", "a command", "no chinese"])
def test_a_latex_display_formula_of_chinese_words_alone_is_warned(source: str,
                                                                  told: bool) -> None:
    """'\\[ <Chinese> | English \\]' (a README's language line without its link) or
    '\\[ <Chinese words> \\]' is Markdown's escaped brackets around words on GitHub, and
    was typeset here as a display formula with no word: one of Chinese words and no TeX (no
    command, script, brace or '=') is still a formula, but told at its line."""
    from sqrtdk.log import captured
    with captured() as warned:
        m = mask(P, source)
    assert len(m.formulas) == 1
    assert bool(warned) == told, warned
    if told:
        assert f"{P}:{source.count(chr(10), 0, source.index(chr(92)))+ 1}:" in warned[0], warned
        assert "\\text{" in warned[0] and "without the backslashes" in warned[0], warned


@pytest.mark.parametrize("source", [
    "\\[1\\] Vaswani et al., 2017.\n",                   # Markdown's escaped brackets
    "\\[citation needed\\] and more text\n",
    "\\[ not closed\n\nbefore the blank line \\]\n",
    "mid-line \\[x\\] is an escaped bracket\n",
    "\\[1\\]. Vaswani, and \\[a\\], b\n",              # punctuation, but no TeX inside
    # a README's language switcher, brackets around links (GitHub shows '[ English | ... ]')
    "\\[ [English](README.md) | \u4e2d\u6587 \\]\n",
    "\\[ English | [\u4e2d\u6587](README_zh.md) \\]\n",
    "\\[[\u6e90\u7801](https://example.org/a...b), [\u6e90\u7801](https://example.org/c)\\]\n",
    "- item\n\n    \\[ ![logo](logo.png) \\]\n",
    "\\[\n[English](README.md) | \u4e2d\u6587\n\\]\n",
])
def test_an_escaped_bracket_stays_text(source: str) -> None:
    m = mask(P, source)
    assert m.formulas == [] and m.text == source


@pytest.mark.parametrize("source, held", [
    ("\\[ f[x](0.5) = 1 \\]\n", "f[x](0.5) = 1"),
    ("\\[ \\left[ a \\right](1.5) \\]\n", "\\left[ a \\right](1.5)"),
    ("\\[\nE[X](0.25) + \\alpha\n\\]\n", "E[X](0.25) + \\alpha"),
], ids=["a number after brackets", "a command in the brackets", "own lines"])
def test_tex_of_brackets_before_a_number_in_parentheses_stays_a_formula(source: str,
                                                                        held: str) -> None:
    """A README's '\\[ [English](README.md) \\]' is text (brackets around a link), but TeX
    of brackets before a number in parentheses, '[x](0.5)', took the number for a file's
    name (a name, a dot, a word) and the formula was published as text with no word; a
    file's name has a letter after its dot, and a link's words no TeX command."""
    assert [f.tex for f in mask(P, source).formulas] == [held]


@pytest.mark.parametrize("source, line", [
    ("text\n\n\\[ x^2 + y^2 \\].\n", 3),
    ("text\n\n\\[\n\\frac{1}{2}\n\\],\n", 5),
    ("- item\n\n    \\[ \\sqrt{d} \\]。\n", 3),
], ids=["one line", "own lines", "list item, CJK full stop"])
def test_punctuation_after_a_closing_bracket_is_an_error_at_its_line(source: str,
                                                                      line: int) -> None:
    with pytest.raises(BuildError) as e:     # it would publish "[ x^2 + y^2 ]." as text
        mask(P, source)
    assert e.value.line == line and "inside the formula" in e.value.message


@pytest.mark.parametrize("source, expected", [
    ("\\begin{align}\na &= b \\\\\nc &= d\n\\end{align}\n",
     [("\\begin{align}\na &= b \\\\\nc &= d\n\\end{align}", True, 1)]),
    ("text\n\n\\begin{equation*} x^2 \\end{equation*}\n",
     [("\\begin{equation*} x^2 \\end{equation*}", True, 3)]),
    ("- item\n\n    \\begin{gather}\n    y\n    \\end{gather}\n",
     [("\\begin{gather}\ny\n\\end{gather}", True, 3)]),
], ids=["align", "one line", "list item"])
def test_a_display_environment_at_a_line_start_is_display_math(source: str,
                                                               expected: list[object]) -> None:
    assert tex(source) == expected


def test_an_unended_environment_is_an_error_at_its_line() -> None:
    with pytest.raises(BuildError) as e:
        mask(P, "text\n\n\\begin{align}\nx\n\nmore\n")
    assert e.value.line == 3 and "\\end{align}" in e.value.message


def test_other_environments_and_mid_line_ones_are_not_math_here() -> None:
    assert tex("\\begin{itemize} is LaTeX, not math\n") == []
    assert tex("inline $\\begin{matrix}a\\end{matrix}$ stays inline\n") == \
        [("\\begin{matrix}a\\end{matrix}", False, 1)]


@pytest.mark.parametrize(("written", "meant"), [
    ("Value $ V(D, G) $ here.", "$V(D, G)$"),
    ("So $ \\theta(w) = \\max_{a_{i}}$ holds.", "$\\theta(w) = \\max_{a_{i}}$"),
])
def test_a_formula_with_a_space_after_its_dollar_is_told_how_to_write_it(written: str,
                                                                          meant: str) -> None:
    with pytest.raises(BuildError) as e:
        mask(P, "one\n\n" + written + "\n")
    assert e.value.line == 3 and f"write '{meant}'" in e.value.message, e.value.message
    # the suggestion is a formula
    assert tex(meant + "\n") == [(meant[1:-1], False, 1)]


@pytest.mark.parametrize(("written", "meant"), [
    ("as \\\\( h\\_t = \\tanh ( W\\_{hh} h\\_{t-1} ) \\\\), where",
     "\\( h_t = \\tanh ( W_{hh} h_{t-1} ) \\)"),
    ("so \\\\[ a\\*b \\\\\\\\ c \\\\] is", "\\[ a*b \\\\ c \\]"),
])
def test_a_formula_with_doubled_backslashes_is_told_the_tex_its_markdown_meant(
        written: str, meant: str) -> None:
    """MDX's and kramdown's `\\\\( h\\_t \\\\)`: Markdown took every backslash escape out
    before the TeX reached MathJax, `\\_` as `_` (a subscript) as well as `\\\\(` as `\\(`;
    the formula to write is the TeX meant (it kept `h\\_t`, which KaTeX shows as h_t)."""
    with pytest.raises(BuildError) as e:
        mask(P, "one\n\n" + written + "\n")
    assert e.value.line == 3 and f"write '{meant}'" in e.value.message, e.value.message


@pytest.mark.parametrize("after", ["", "\n```python\nx = 1\n"],
                         ids=["alone", "before a fence never closed"])
def test_every_formula_with_doubled_backslashes_is_named_in_one_build(after: str) -> None:
    """A post pasted from a Jekyll site or the Hugging Face blog writes every formula
    `\\\\( … \\\\)`: the build named only the first, one build each. Each such formula is now
    named at its line in one build (a display one over several lines too), with a later
    mistake that stops the scan (a fence never closed) after them; a plain `\\(…\\)`
    between them is no mistake."""
    source = ("Let \\\\(q\\_i\\\\) and \\\\(k\\_i\\\\) be keys.\n\n"
              "Then \\(x\\) is fine and\n\n"
              "\\\\[\nd\\_k\n\\\\]\n\nand \\\\(\\sqrt{d}\\\\) again.\n" + after)
    with pytest.raises(BuildError) as e:
        mask(P, source)
    got = [(x.line, x.message) for x in e.value.errors]
    doubled = [(line, m) for line, m in got if "doubled backslashes" in m]
    assert [line for line, _ in doubled] == [1, 1, 5, 9], got
    assert "'\\(q_i\\)'" in doubled[0][1] and "'\\(k_i\\)'" in doubled[1][1], got
    assert len(got) == 4 + bool(after), got
    if after:
        assert got[-1][0] == 11 and "never closed" in got[-1][1], got


def test_every_inline_double_dollar_formula_is_named_in_one_build() -> None:
    """Zhihu's editor (and kramdown) writes an inline formula `$$x$$`: the build named only
    the first, one build each, saying '$$' inside a line without the formula. Each is now
    named at its line, all in one build, with the '$…$' to write; a `$$` never closed on its
    paragraph keeps the old message."""
    source = ("设 $$\\boldsymbol{q}$$ 与 $$k$$ 为向量。\n\n"
              "Then $$d_k$$ grows.\n\nA lone $$ here.\n")
    with pytest.raises(BuildError) as e:
        mask(P, source)
    got = [(x.line, x.message) for x in e.value.errors]
    assert [line for line, _ in got] == [1, 1, 3, 5], got
    assert "'$\\boldsymbol{q}$'" in got[0][1] and "'$k$'" in got[1][1], got
    assert "'$d_k$'" in got[2][1] and all("inside a line" in m for _, m in got), got


def test_double_dollars_ending_a_line_of_text_are_told_to_go_to_a_line_of_their_own() -> None:
    """A notebook's Markdown for MathJax opens a display formula at the end of a sentence's
    line, `the counts, where $$`, its TeX and a closing `$$` line below (a real machine
    learning course's tutorial): told "'$$' inside a line … inline math is '$…$'", advice
    for another habit. It is told to move the '$$' to a line of its own, and the text so
    written holds the formula and no error."""
    source = "We count, where $$\nN_k = \\sum_n r_{nk}\n$$\n\nEnd.\n"
    with pytest.raises(BuildError) as e:
        mask(P, source)
    got = [(x.line, x.message) for x in e.value.errors]
    assert len(got) == 1 and got[0][0] == 1 and "line of its own" in got[0][1], got
    assert "inline math is" not in got[0][1], got
    fixed = source.replace("where $$\n", "where\n$$\n")
    assert len(mask(P, fixed).formulas) == 1


def test_double_dollar_signs_that_are_no_formula_are_told_how_to_write_dollar_signs() -> None:
    """Hugo's passthrough delimiters as TOML in a sentence, `['$$', '$$']`
    (gohugoio/hugoDocs' content-management/mathematics.md), were told "'$$' inside a line
    ('$$', '$$'): … inline math is '$', '$'", advice that makes the formula `', '` of them;
    the author meant dollar signs. The message also says to write each '$' as '\\$', and
    the line so written holds no formula and no error."""
    source = "block = [['\\[', '\\]'], ['$$', '$$']]\n"
    with pytest.raises(BuildError) as e:
        mask(P, source)
    message = e.value.errors[0].message
    assert "write each '$' as '\\$'" in message, message
    assert not mask(P, source.replace("$", "\\$")).formulas


def test_every_formula_with_spaces_inside_its_dollars_is_named_in_one_build() -> None:
    """Typora and Zhihu take `$ x $` for a formula: the build named only the first, one build
    each. Each is now named at its line in one build, with the formula to write."""
    source = "设 $ q $ 与 $ k_i $ 为向量。\n\nThen $ d_k $ grows, and $x$ is fine.\n"
    with pytest.raises(BuildError) as e:
        mask(P, source)
    got = [(x.line, x.message) for x in e.value.errors]
    assert [line for line, _ in got] == [1, 1, 3], got
    assert [m.split("write '")[1].split("'")[0] for _, m in got] == ["$q$", "$k_i$", "$d_k$"], got


@pytest.mark.parametrize("source", ["a \\(\n", "\\(\n", "a \\(\n\nb\n", "> a \\(\n"])
def test_a_paren_formula_opened_at_a_paragraph_s_end_is_named(source: str) -> None:
    """`\\(` at the end of a paragraph: the message quoted the TeX's first line, and there
    was none (an IndexError, a traceback, not the author's line)."""
    with pytest.raises(BuildError) as e:
        mask(P, source)
    assert e.value.line == 1 and "'\\(…' is never closed" in e.value.message, e.value.message


def test_a_lone_dollar_before_a_price_is_told_to_escape() -> None:
    with pytest.raises(BuildError) as e:
        mask(P, "It costs $ 5, and $ 6 with tax.\n")
    assert "write '\\$' for a dollar sign" in e.value.message, e.value.message


@pytest.mark.parametrize("source, written", [
    ("first\nA step costs $-$1 and a fall $-$100.\n", "$-1$"),      # the erl notes' minus
    # a '$' after a space further on, which the message blamed ('remove the space')
    ("first\nA step costs $-$1\u5206 \u7684\u60e9\u7f5a\uff0c\u4f1a\u6709 $-$100 \u5206\n",
     "$-1$"),
    ("first\nThe value is $-$15 at the corner.\n", "$-15$"),
    # a formula further on: the '$' before the digit was run through up to its '$'
    ("first\nA step costs $-$1 and a state $s$ none.\n", "$-1$"),
])
def test_a_closing_dollar_before_a_digit_is_told_to_take_the_digit_in(source: str,
                                                                      written: str) -> None:
    """A '$' right before a digit never closes a formula (so '$5 and $10' stays text); the
    message says so and how to write the formula, not that it is never closed or that a
    space should go."""
    with pytest.raises(BuildError) as e:
        mask(P, source)
    assert e.value.line == 2 and "before a digit" in e.value.message, e.value.message
    assert f"'{written}'" in e.value.message and "remove the space" not in e.value.message


@pytest.mark.parametrize("source, line, meant", [
    # the easy-rl notes: the formula ran on to the next formula's '$' and KaTeX failed
    ("one\n\n\u8bbe $\\gamma \\in [0,1] $ \u662f\u6298\u6263\u56e0\u5b50\uff0c\u72b6\u6001 $x$ "
     "\u7684\u503c\u3002\n", 3, "$\\gamma \\in [0,1]$"),
    ("one\n\n\u8bbe $\\gamma \\in [0,1] $\u662f\u6298\u6263\u56e0\u5b50\uff0c$x$\n", 3,
     "$\\gamma \\in [0,1]$"),
    ("one\n\nLet $\\gamma \\in [0,1] $ be the discount, and $x$ the state.\n", 3,
     "$\\gamma \\in [0,1]$"),
    ("one\n\nLet $\\gamma\n\\in [0,1] $ be the discount,\nand $x$ the state.\n", 4,
     "$\\gamma \\in [0,1]$"),
    # no formula after it: the formula is never closed
    ("one\n\n\u8bbe $\\gamma \\in [0,1] $\u662f\u6298\u6263\u56e0\u5b50\u3002\n", 3,
     "$\\gamma \\in [0,1]$"),
    ("one\n\nLet $\\gamma \\in [0,1] $ be the discount.\n", 3, "$\\gamma \\in [0,1]$"),
], ids=["zh, a formula after it", "zh, no space after it", "en, a formula after it",
        "over two lines", "zh, never closed", "en, never closed"])
def test_a_space_before_a_closing_dollar_is_named_with_the_formula_to_write(
        source: str, line: int, meant: str) -> None:
    """`$x $ is … $y$`: the '$' after the space closes nothing, so the formula runs on to the
    next '$' (KaTeX then failed with 'a '$' before it may have been left open'); the message
    names the space and the formula meant, at the line of that '$'."""
    with pytest.raises(BuildError) as e:
        mask(P, source)
    message = e.value.message
    assert e.value.line == line and "space" in message and f"write '{meant}'" in message, \
        message
    assert "left open" not in message and "never closed; end it" not in message, message
    assert tex(meant + "\n") == [(meant[1:-1], False, 1)]     # the suggestion is a formula


@pytest.mark.parametrize("source, line, meant", [
    # the closing '$' put at the start of the next line: a line break is a space
    ("one\n\nLet $\\gamma \\in [0,1]\n$ be the discount, and $x$ the state.\n", 4,
     "$\\gamma \\in [0,1]$"),
    ("one\n\n\u8bbe $\\gamma \\in [0,1]\n$ \u662f\u6298\u6263\u56e0\u5b50\uff0c$x$\n", 4,
     "$\\gamma \\in [0,1]$"),
    ("one\n\nLet $\\gamma\n\\in [0,1]\n$, the discount, and $x$ the state.\n", 5,
     "$\\gamma \\in [0,1]$"),
    ("one\n\n- Let $\\gamma \\in [0,1]\n  $ be the discount, and $x$ the state.\n", 4,
     "$\\gamma \\in [0,1]$"),
    ("one\n\nLet $\\gamma \\in [0,1]\n$ be the discount.\n", 4, "$\\gamma \\in [0,1]$"),
], ids=["en, a formula after it", "zh", "over three lines", "in a list item",
        "never closed"])
def test_a_line_break_before_a_closing_dollar_is_named_with_the_formula_to_write(
        source: str, line: int, meant: str) -> None:
    """`$x` + line break + `$ is … $y$`: the '$' after the line break closes nothing (it
    follows a space to Markdown), so the formula runs on; the message names the line break
    and the formula meant, not KaTeX's '$' left open or a space to remove."""
    with pytest.raises(BuildError) as e:
        mask(P, source)
    message = e.value.message
    assert e.value.line == line and "line break" in message, message
    assert f"write '{meant}'" in message and "remove the space" not in message, message
    assert "left open" not in message and "never closed; end it" not in message, message
    assert tex(meant + "\n") == [(meant[1:-1], False, 1)]


@pytest.mark.parametrize("source", [
    "See $a $b$ here.\n",                 # '$b' opens a formula: the fault is elsewhere
    "See $x$ and $ y$ here.\n",
    "It costs $5 and $10.\n",
])
def test_a_dollar_after_a_space_that_opens_a_formula_is_not_told_to_lose_the_space(
        source: str) -> None:
    try:
        mask(P, source)
    except BuildError as e:
        assert "remove the space before it" not in e.message, e.message


@pytest.mark.parametrize(("source", "line"), [
    ("a\n\n$$\nx^2\n$$ {#eq-var}\n\nmore\n", 5),
    ("a\n\n$$ x^2 $$ {#eq:var}\n", 3),
    ("- item\n\n    $$\n    x\n    $$ {#eq-x}\n", 5),
    ("a\n\n$$\nx^2\n$$ (eq-var)\n\nmore\n", 5),
    ("a\n\n$$ x^2 $$ (eq:var)\n", 3),
    ("> $$\n> x\n> $$ (my_label)\n", 3),
])
def test_a_label_after_a_display_formula_is_named_at_its_line(source: str, line: int) -> None:
    """Quarto's and pandoc-crossref's '$$ {#eq-…}' was told the formula is not closed, at
    its opening line; so was MyST's (Jupyter Book's) '$$ (eq-…)'."""
    with pytest.raises(BuildError) as e:
        mask(P, source)
    assert e.value.line == line and "labels a display formula" in e.value.message
    assert "\\tag{1}" in e.value.message


@pytest.mark.parametrize(("source", "line", "said"), [
    ("a\n\n\\begin{equation}\nx = y\n  (\\#eq:attn)\n\\end{equation}\n", 5, "\\tag{1}"),
    ("a\n\n$$\nx = y (\\#eq:attn)\n$$\n", 4, "\\tag{1}"),
    ("a\n\n\\begin{align}\nx &= 0 (\\#eq:mean) \\\\\ny &= 1 (\\#eq:var)\n\\end{align}\n", 4,
     "\\tag{1}"),
    ("With $d_k = `r d_k[2]`$, the SD.\n", 1, "R Markdown's inline code"),
])
def test_bookdown_in_a_formula_is_named_at_its_line(source: str, line: int, said: str) -> None:
    """bookdown's equation label '(\\#eq:attn)' and R Markdown's inline code '`r x`' inside
    a formula reached KaTeX, which drew them as text of the formula ('(#eq:attn)', quotes
    around 'r d_k[2]'), silently. An error at the line of each, saying what to write."""
    with pytest.raises(BuildError) as e:
        mask(P, source)
    assert e.value.line == line and said in e.value.message, (e.value.line, e.value.message)


@pytest.mark.parametrize(("source", "line", "said"), [
    ("The set $\\\\{1,\\dots,d_k\\\\}$ of indices.\n", 1, "\\{"),
    ("a\n\nThe set\n$S = \\\\{ i : p_i > 0 \\\\}$ here.\n", 4, "\\{"),
    ("a\n\n$$\nA = \\\\{ x \\in \\mathbb R^d : \\|x\\| = 1 \\\\}\n$$\n", 4, "\\{"),
    ("a\n\n$$\nS = \\left\\{ x \\right.\n\\\\{ y \\\\}\n$$\n", 5, "\\{"),
    ("A thin space $a\\\\,b$ here.\n", 1, "\\,"),
    ("No space $a\\\\!b$ here.\n", 1, "\\!"),
])
def test_a_backslash_doubled_for_markdown_in_a_formula_is_named(source: str, line: int,
                                                                said: str) -> None:
    """A post written for MathJax behind Markdown (a Jekyll or Hexo blog, an answer pasted
    from one) doubles the backslash of '\\{' (Markdown halves it there); here the TeX reaches
    KaTeX as written, so '\\\\{1, 2\\\\}' drew a line break and a group: the set's braces were
    lost, silently. An error at its line, giving the TeX to write."""
    with pytest.raises(BuildError) as e:
        mask(P, source)
    assert e.value.line == line and f"write '{said}'" in e.value.message, (e.value.line,
                                                                            e.value.message)


@pytest.mark.parametrize(("source", "line", "meant"), [
    ("In LaTeX: $\\\\operatorname{Var}(q \\\\cdot k) = d\\_k$.\n", 1,
     "'$\\operatorname{Var}(q \\cdot k) = d_k$'"),
    ("a\n\nso $\\\\sqrt{d\\_k}$ grows\n", 3, "'$\\sqrt{d_k}$'"),
    ("a\n\n$$\np\\_j \\= \\\\frac{e^{s\\_j}}{\\\\sum\\_l e^{s\\_l}}\n$$\n", 4,
     "'p_j = \\frac{e^{s_j}}{\\sum_l e^{s_l}}' between its '$$' lines"),
])
def test_a_formula_escaped_for_markdown_is_told_the_tex_it_means(source: str, line: int,
                                                                  meant: str) -> None:
    """Google Docs' Markdown export escapes a formula typed in the document as text: every
    backslash doubled, '\\_' for '_'. KaTeX drew '$\\\\sqrt{d\\_k}$' as a line break and
    the letters 'sqrt' and 'd_k', silently. An error at its line, giving the formula meant."""
    with pytest.raises(BuildError) as e:
        mask(P, source)
    assert e.value.line == line and f"write {meant}" in e.value.message, (e.value.line,
                                                                           e.value.message)
    assert "Google Docs" in e.value.message


@pytest.mark.parametrize("source", [
    "| Step | Kalman form |\n|---|---|\n| update | $y = z - \\bar{x}\\\\K = \\frac{p}{p + r}"
    "\\\\P = (1 - K)\\bar{p}$ |\n",
    "Then $a = \\hat{b}\\\\c = 2$ holds.\n",
])
def test_a_line_break_before_a_letter_among_single_backslash_commands_is_no_escape(
        source: str) -> None:
    """Rows written with '\\\\' in an inline formula (a table's cell holding an update's
    equations one under another, as a Kalman filter's notes write them) among commands of one
    backslash ('\\bar') were told as a formula escaped for Markdown, with the advice to
    write '\\bar{x}\\K', which KaTeX stops at ('\\K' is no command). Only a formula
    whose every command is doubled is so escaped, inline as in display math; KaTeX draws
    these rows as the author meant."""
    mask(P, source)


@pytest.mark.parametrize(("source", "line", "name"), [
    ("The mean is $\\\\alpha + \\beta$ here.\n", 1, "alpha"),
    ("a\n\nSo $x \\\\cdot \\frac{1}{2}$ holds.\n", 3, "cdot"),
    ("| a | b |\n|---|---|\n| $\\bar{x} \\\\times 2$ | c |\n", 3, "times"),
])
def test_a_command_doubled_among_single_backslash_commands_is_told(source: str, line: int,
                                                                   name: str) -> None:
    """617ca8e let a doubled command pass in an inline formula holding any command of one
    backslash (for rows, '\\\\K = …'), so '$\\\\alpha + \\beta$' was published as a
    line break and the letters 'alpha', with no word. A math command's name after '\\\\'
    (a row of a letter or of words is still quiet) is told at its line, with the command
    written with one backslash."""
    with pytest.raises(BuildError) as e:
        mask(P, source)
    assert e.value.line == line and f"write '\\{name}'" in e.value.message, (e.value.line,
                                                                              e.value.message)


@pytest.mark.parametrize(("source", "line"), [
    ("a\n\n$$\n\\begin{align}\ng(x) & = 1 \\\\\\\\\n& = 2 \\\\\\\\\n\\end{align}\n$$\n", 5),
    ("a\n\n$$ \\begin{aligned}\n  x & = 1 \\\\\\\\\n  & = 2\n\\end{aligned} $$\n", 4),
    ("有 $\\begin{cases} 1 & x>0 \\\\\\\\ 0 & x\\le 0 \\end{cases}$。\n", 1),
])
def test_a_line_break_doubled_for_markdown_in_a_formula_is_named(source: str,
                                                                 line: int) -> None:
    """A post written for MathJax behind Markdown writes each row's end '\\\\\\\\' (Markdown
    halves it to '\\\\'); KaTeX read two line breaks and drew an empty row after every
    row of the aligned equations, silently. An error at the first one's line."""
    with pytest.raises(BuildError) as e:
        mask(P, source)
    assert e.value.line == line and "write '\\\\'" in e.value.message, (e.value.line,
                                                                       e.value.message)


@pytest.mark.parametrize(("source", "line", "meant"), [
    ("损失为 $J=\\frac{1}{2}\\sum\\_{i=1}^m (h_\\theta(x_i)-y_i)^2$。\n", 1,
     "'$J=\\frac{1}{2}\\sum_{i=1}^m (h_\\theta(x_i)-y_i)^2$'"),
    ("a\n\n对每个 $x\\_i$ 和 $w\\_\\theta$ 求和\n", 3, "'$x_i$'"),
    ("a\n\n$$\nx = 1\n\\mathbf{h}\\_t = \\sum\\_{s=1}^{t} \\gamma\\_s\n$$\n", 5,
     "'x = 1 \\mathbf{h}_t = \\sum_{s=1}^{t} \\gamma_s' between its '$$' lines"),
    ("a \\(X\\_{1m} + \\text{a\\_b}\\) b\n", 1, "'$X_{1m} + \\text{a\\_b}$'"),
    # after a command, two letters are a subscript, not a name's second word
    ("a \\(\\alpha\\_ij + batch\\_size\\) b\n", 1, "'$\\alpha_ij + batch\\_size$'"),
    ("a \\(\\sum\\_ij x\\) b\n", 1, "'$\\sum_ij x$'"),
])
def test_a_subscript_escaped_for_markdown_is_told_the_tex_it_means(source: str, line: int,
                                                                    meant: str) -> None:
    """A post written for MathJax behind Markdown (Hexo's marked, pandoc's Markdown output)
    escapes a subscript's '_' as '\\_' (Markdown would pair two into emphasis) while its
    commands keep one backslash; here the TeX reaches KaTeX as written, which drew
    '\\sum\\_{i=1}^m' as a sum, an underscore and 'i=1' raised, silently. An error at
    the line, giving the formula meant."""
    with pytest.raises(BuildError) as e:
        mask(P, source)
    assert e.value.line == line and f"write {meant}" in e.value.message, (e.value.line,
                                                                           e.value.message)
    assert "Markdown" in e.value.message


@pytest.mark.cpu_timeout(60)    # linear: about a second; before, minutes
def test_a_long_formula_of_many_text_commands_is_read_in_linear_time() -> None:
    """Each text command's argument was read from the command to its end, and each escaped
    '\\_' looked for among all of them: a formula of 30,000 '\\text{a}x\\_1' took time
    in the square of their number (6 s at 8,000)."""
    with pytest.raises(BuildError) as e:
        mask(P, "a $" + " ".join(["\\text{a}x\\_1"] * 30_000) + "$ b\n")
    assert e.value.line == 1 and "'\\_' in a formula" in e.value.message, e.value.message


@pytest.mark.cpu_timeout(30)    # linear: about a second; before, a minute
def test_a_long_formula_of_symbol_names_in_text_is_read_in_linear_time() -> None:
    """Each symbol's name in a formula (Typst's `dot`) was asked of every text command's
    argument whether it stood inside: a formula of 40,000 '\\text{delta}' took time in
    the square of their number (2 s at 8,000). The bare name after them is still told."""
    from sqrtdk.log import captured
    with captured() as warned:
        mask(P, "a $" + " ".join(["\\text{delta}"] * 40_000) + " delta$ b\n")
    told = [w for w in warned if "by its name without a backslash" in w]
    assert len(told) == 1 and "a.md:1:" in told[0] and "'\\delta' for 'delta'" in told[0], told


@pytest.mark.parametrize("source", [
    "A name $\\text{max\\_len}$, $\\mathrm{batch\\_size}$, $\\operatorname{d\\_model}(x)$.\n",
    "A blank $f(\\_)$, a rule $\\_\\_$ and a break $a \\\\_i$.\n",
    "A method $\\_\\_init\\_\\_$ and $\\mathtt{\\_\\_len\\_\\_}$.\n",
    "a\n\n$$\n\\texttt{x\\_1} + \\textbf{{y\\_2}}\n$$\n",
    # a name's underscore outside \text, as a chat answer writes it for MathJax
    "A shape \\(Q \\in \\mathbb{R}^{batch\\_size \\times seq\\_len}\\) and $max\\_len$.\n",
])
def test_an_underscore_written_as_text_in_a_formula_is_no_escape(source: str) -> None:
    mask(P, source)


@pytest.mark.parametrize("source", [
    "a\n\n$$\n\\begin{aligned}\nx &= 1 \\\\\n{}&= 2\n\\end{aligned}\n$$\n",
    "a\n\n$$\n\\begin{cases} 1 & x \\\\ 0 & \\text{else} \\end{cases}\n$$\n",
    "a\n\n$$\n\\begin{aligned} a &= b \\\\{}&= c \\end{aligned}\n$$\n",
    "The set $\\{1, 2\\}$ and $\\left\\{ x \\right\\}$.\n",
])
def test_a_line_break_in_a_display_formula_is_no_doubled_backslash(source: str) -> None:
    mask(P, source)


# (what is repeated in one paragraph, how often): each was read from every opener to the
# paragraph's end (or from its line's start), so the paragraph's time grew with the square
# of its length: 3000 unclosed links took 9 s of an article's build
LONG_PARAGRAPHS = {
    "unclosed link addresses": ("[a](", 20000),
    "links inside unclosed addresses": ("]([a](", 20000),
    "unclosed link titles": ("[a](x (t ", 20000),
    "GitHub math never closed": ("$`a$ ", 30000),
    "code spans": ("`a` $x$ ", 100000),
    "svg elements never closed": ("<svg>x ", 100000),
    "doubled backslashes never closed": ("\\\\(x ", 100000),
    "tokens in angle brackets": ("a <Tensor> <eos> ", 50000),
    # each '<Name' read to its line's end for its '>'
    "capitalised names after '<' on one line": ("x <Ab y ", 60000),
}


@pytest.mark.cpu_timeout(30)
@pytest.mark.parametrize("repeated, times", LONG_PARAGRAPHS.values(), ids=LONG_PARAGRAPHS)
def test_a_long_paragraph_is_read_in_linear_time(repeated: str, times: int) -> None:
    """Each opener's search is kept for the openers after it (a failing search answers
    theirs), so a paragraph of `times` openers takes a second or less, not minutes."""
    from sqrtdk.log import captured
    with captured(), contextlib.suppress(BuildError):      # the time is what is tested
        mask(P, "first\n\n" + repeated * times + "\n")


@pytest.mark.cpu_timeout(10)
@pytest.mark.parametrize("opener", ["<math>", "<math display=\"block\">"])
def test_text_after_an_unclosed_math_tag_is_read_in_linear_time(opener: str) -> None:
    """MediaWiki's `<math>TeX</math>` was looked for with `[^<]*?\\S[^<]*?`, which, after a
    `<math>` that nothing closes, tried every split of the text up to the next '<': 7 s for
    20,000 characters, a minute for 60,000 (the test's timeout). Read once now."""
    from sqrtdk.log import captured
    with captured(), contextlib.suppress(BuildError):
        mask(P, "first\n\nBrowsers draw " + opener + " " + "x " * 30000 + "\n")


@pytest.mark.parametrize("tex", ["", " ", "\n"])
def test_an_empty_mediawiki_math_tag_is_not_told_as_a_formula(tex: str) -> None:
    """Only a `<math>` holding TeX is told as MediaWiki's formula (as before the regex read
    its text once)."""
    try:
        mask(P, f"first\n\nan empty <math>{tex}</math> element\n")
    except BuildError as e:
        assert "MediaWiki" not in e.message, e.message


@pytest.mark.cpu_timeout(10)
def test_a_code_line_of_many_paren_openers_is_read_in_linear_time() -> None:
    """Whether a line of an indented code block holds a formula was a lazy '\\(.*?\\)',
    which scanned to the line's end from every '\\(': 30,000 of them with no '\\)' took
    seconds, 100,000 of them minutes (the test's timeout); the line is code, read in one
    pass (markup.paren_formulas)."""
    m = mask(P, "Intro.\n\n    " + "\\( " * 100000 + "\n")
    assert m.formulas == []


@pytest.mark.parametrize("source, line", [
    ("text\n\n\\[\n= \\frac{1}{2}, \\text{where} x\n\nNext.\n", 3),      # its '\]' lost
    ("text\n\n\\[ x^2 + y^2\n\nNext.\n", 3),
    ("> \\[\n> \\sqrt{d_k}\n", 1),
])
def test_a_display_bracket_never_closed_is_an_error_at_its_line(source: str, line: int) -> None:
    """A `\\[` over lines of TeX that no `\\]` closes (a copied solution whose closing line
    was lost) was Markdown's escaped bracket: the page showed '[' and the TeX as text, and
    a line starting '= \\frac' was told as an AsciiDoc title."""
    with pytest.raises(BuildError) as e:
        mask(P, source)
    assert e.value.line == line and "no line ending with '\\]' closes" in e.value.message


@pytest.mark.parametrize("source", ["\\[1] see file_name.py\n\nNext.\n",
                                    "\\[\nnot a formula\n\nNext.\n"])
def test_an_escaped_bracket_over_words_is_no_formula_never_closed(source: str) -> None:
    assert mask(P, source).formulas == []


@pytest.mark.parametrize(("source", "line", "closing"), [
    ("a\n\n$$\n\\begin{gather*}\nx = 1\n\n\\end{gather*}\n$$\n", 6, 8),
    ("a\n\n$$\n\\frac{a}{b}\n\n\\\\\n= \\frac{c}{d}\n$$\n", 5, 8),
])
def test_a_blank_line_inside_a_closed_display_formula_is_named(source: str, line: int,
                                                               closing: int) -> None:
    """A Jekyll post's display formula with a blank line before its '\\end{gather*}' and its
    '$$' was told 'not closed before the blank line below it; end it with a line '$$'' at its
    opening line, though a '$$' closed it: the error is now at the blank line, naming the
    '$$' that closes the formula, and says to remove the blank line."""
    with pytest.raises(BuildError) as e:
        mask(P, source)
    assert e.value.line == line, (e.value.line, e.value.message)
    assert f"its '$$' is at line {closing}" in e.value.message, e.value.message
    assert "remove this line" in e.value.message, e.value.message


def test_a_formula_left_open_above_a_paragraph_is_still_told_to_close() -> None:
    with pytest.raises(BuildError) as e:
        mask(P, "a\n\n$$\nx = 1\n\nSome text follows.\n\n$$\ny\n$$\n")
    assert e.value.line == 3 and "end it with a line '$$'" in e.value.message, e.value.message


@pytest.mark.cpu_timeout(60)
@pytest.mark.parametrize("body", [
    "para\n1) x\n\n" * 30000, "    a\n\n" * 30000, "1) x\n" * 20000 + "\n    y\n" * 20000,
    "- a\n\n" + "  b\n\n" * 30000,
], ids=["paragraphs and items", "indented blocks", "blocks under a long list", "under an item"])
def test_the_blocks_holding_each_line_are_found_in_linear_time(body: str) -> None:
    """Whether a line starts an indented code block asks where the content of the list item
    holding it starts: each line walked back over every line above it left of it (3,000
    paragraphs each followed by a numbered item took 24 s). Found in one pass now."""
    from sqrtdk.log import captured
    with captured(), contextlib.suppress(BuildError):      # the time is what is tested
        mask(P, body)


def test_the_content_column_found_in_one_pass_is_the_one_walked_back() -> None:
    """`_content_column` (one pass over the lines) agrees with walking back from each line."""
    import random

    from sqrtdk.web.lexer import _content_column, _walked_column
    pieces = ["", "a", "  a", "    a", "      a", "\ta", "- a", "  - a", "    - a", "1) a",
              "  1. b", "[^n]: x", ": def", "   ", "        x", "  * y"]
    rnd = random.Random(7)
    for _ in range(3000):
        lines = [rnd.choice(pieces) for _ in range(rnd.randint(1, 12))]
        for i in range(len(lines)):
            assert _content_column(lines, i) == _walked_column(lines, i), (lines, i)


@pytest.mark.cpu_timeout(20)    # about 1 s each (the growth check)
@pytest.mark.parametrize("unit, n", [("```\nx\n```\n\n<!-- a -->\n\n", 10_000),
                                     ("a\n\n<!-- a -->\n\nb\n", 20_000)],
                         ids=["comments after fences", "comments between paragraphs"])
def test_many_comments_are_dropped_in_linear_time(unit: str, n: int) -> None:
    """Each comment looked through every code block before it for one holding it, and
    sliced the whole text before and after its line (10,000 fences each followed by a
    comment: 6 s). Read once now.

    comments.drop_comments (what the lexer's `mask` starts with; the rest of `mask` is the
    same for any comment) on n and 4n units: after fences, 10,000 and 40,000 take about
    0.2 s and 0.8 s of CPU, with the fix reverted 6 s and over a minute; between
    paragraphs, 20,000 and 80,000 about 0.19 s and 0.74 s (4 times; the limit is 8, the
    square 16), reverted 0.58 s and 12.5 s (22 times). Each keeps the text's lines."""
    from helpers import assert_linear_growth

    from sqrtdk.web.comments import drop_comments
    from sqrtdk.web.lexer import code_block_end

    def text(size: int) -> Any:
        written = unit * size

        def work() -> None:
            dropped = drop_comments(P, written, FILLER, code_block_end)
            assert "<!--" not in dropped and dropped.count("\n") == written.count("\n")
        return work
    assert_linear_growth(text, n)


@pytest.mark.parametrize("block", [
    '<script>\nvar price = "$5 and $6";\nconst t = "$$x$$ \\\\frac{a}{b}";\n</script>',
    '<script>var price = "$5 and `$6";</script>',
    '<style>\n.note::after { content: "$x"; }\n</style>',
    '<script\n  type="module">\n$$\nvar s = "$";\n</script>',
], ids=["script", "one line", "style", "tag over lines"])
def test_a_scripts_or_style_sheets_text_is_no_prose(block: str) -> None:
    """The text of a <script> or <style> in a block of raw HTML was scanned as prose: a
    '$' in a script's string stopped the build as a formula never closed (before the
    block's own error at its tag), '$$' as display math. html.parser's reading of the
    block (raw text up to the end tag) is now left as written; formulas around it are
    still formulas."""
    text = f"A $x$ here.\n\n{block}\n\nAnd $y$ there.\n"
    m = mask(P, text)
    assert [f.tex for f in m.formulas] == ["x", "y"]
    assert m.restore_code(m.text).split("\n")[2:-3] == block.split("\n")


def test_a_script_tag_in_code_leaves_the_formulas_after_it_formulas() -> None:
    """'<script>' shown in a fence is code, not the start of a script's text."""
    text = "```html\n<script>\n```\n\nThen $z$ here.\n\n</script>\n"
    assert [f.tex for f in mask(P, text).formulas] == ["z"]


@pytest.mark.parametrize("line", ["    The walk takes {{ walk.steps | grouped }} steps.",
                                  "    It holds.{{ claim(\"walk.sd_near_sqrt\") }}",
                                  "\tThe SD is {{ spread.sd[0]|fixed(2) }} here."])
def test_a_quote_in_an_indented_code_block_is_an_error_at_its_line(line: str) -> None:
    """A paragraph indented by four spaces by a slip is code, its quotes shown as typed
    ('{{ walk.steps | grouped }}' on the page), silently (a mutation pass over the article);
    as a formula there does, a quote there stops the build at its line."""
    with pytest.raises(BuildError) as e:
        mask(P, f"Intro.\n\n    code = 1\n{line}\n\nAfter.\n")
    assert e.value.line == 4 and "inside an indented code block" in e.value.message, e.value


@pytest.mark.parametrize("line, meant", [
    ("    The walk takes {{ walk.steps | groupd }} steps.", "grouped"),
    ("    The SD is {{ spread.sd[0]|fixd(2) }} here.", "fixed"),
    ("\tA share of {{ walk.share | Pct }}.", "pct"),
    ("    It holds.{{ clam(\"walk.sd_near_sqrt\") }}", "claim")])
def test_a_quote_with_a_misspelt_filter_in_an_indented_code_block_is_told(line: str,
                                                                           meant: str) -> None:
    """A quote indented by a slip is told (above) only through one of our filters, so that
    a Jinja example's '{{ name | upper }}' stays code: with a filter misspelt
    ('{{ walk.steps | groupd }}', which elsewhere stops the build with 'No filter named
    groupd; did you mean grouped?') it was published as typed, silently. A filter name
    close to one of ours (or a call named like claim) is now told at its line, with both
    slips."""
    with pytest.raises(BuildError) as e:
        mask(P, f"Intro.\n\n    code = 1\n{line}\n\nAfter.\n")
    assert e.value.line == 4 and "inside an indented code block" in e.value.message, e.value
    assert f"did you mean '{meant}'" in e.value.message, e.value


@pytest.mark.parametrize("box", ["    /// details | Why\n        attrs: {id: why}\n\n    Text.\n    ///\n",
                                 "    code = 1\n    /// note | Mind it\n    ///\n"])
def test_a_box_in_an_indented_code_block_is_an_error_at_its_opening_line(box: str) -> None:
    """A whole box indented by four spaces by a slip (its opening line, options, text and
    closing line) is an indented code block: the box was published as code, its syntax
    shown, silently. Its opening line now stops the build at its line, as a quote there
    does."""
    with pytest.raises(BuildError) as e:
        mask(P, f"Intro.\n\n{box}\nAfter.\n")
    at = 3 + next(k for k, line in enumerate(box.split("\n")) if "///" in line)
    assert e.value.line == at and "indented code block" in e.value.message, e.value
    assert "remove the indent" in e.value.message, e.value


@pytest.mark.parametrize("code", ["    {{ x }}", "    {{1}, {2}}", "    a = {{'k': 1}}",
                                  "    {% if x %}",
                                  # a Jinja example's filters, none of this site's
                                  "    <h1>{{ user.name | upper }}</h1>",
                                  "    {{ items|length }} items, {{- name | trim -}}",
                                  "    {{ rows | groupby('k') }} {{ n | int }} {{ x | first }}",
                                  "    {% for i in range(3) %}{{ lipsum(2) }}{{ caller() }}",
                                  # Rust's doc comments are no box
                                  "    /// Returns the sum.\n    /// Examples\n    fn f() {}"])
def test_braces_in_an_indented_code_block_that_quote_nothing_stay_code(code: str) -> None:
    mask(P, f"Intro.\n\n{code}\n\nAfter.\n")


@pytest.mark.parametrize(("source", "line", "column", "words"), [
    ("\u5176\u4e2d$x\u662f\u53d8\u91cf\uff0c$y$\u662f\u53e6\u4e00\u4e2a\u3002\n", 1, 3,
     "\u662f\u53d8\u91cf\uff0c"),
    ("\u8bbe$q\u4e0e$k$\u72ec\u7acb\uff0c\u65b9\u5dee\u4e3a$d_k$\u3002\n", 1, 2, "\u4e0e"),
    ("\u7b2c\u4e00\u884c\n\n\u8bbe $x$ \u548c $y \u90fd\u662f\n\u5411\u91cf\uff0c$z$ "
     "\u4e5f\u662f\u3002\n", 3, 9, "\u90fd\u662f"),
])
def test_an_unclosed_dollar_in_a_chinese_paragraph_is_told_where_it_opens(
        source: str, line: int, column: int, words: str) -> None:
    """A '$' never closed in a Chinese paragraph was told at a later '$' of it (the one left
    over after each '$' paired wrong), not at the one left open: a formula holding Chinese
    text is where it ran on to the next '$', told at its opening '$'."""
    with pytest.raises(BuildError) as e:
        mask(P, source)
    assert e.value.line == line, e.value
    assert e.value.message.startswith(f"the '$' at column {column} is never closed"), e.value
    assert f"holds Chinese text ('{words}')" in e.value.message, e.value.message
    if source.count("\n") > 1:
        assert "up to the one at line 4, column 6 left" in e.value.message, e.value.message


def test_an_unclosed_dollar_after_formulas_of_math_only_is_told_where_it_is() -> None:
    """Without a formula holding Chinese text before it (or with Chinese only inside
    \\text{…}), the '$' left over is the one told."""
    for source in ("A $x\\text{\u662f}$ and $y\n", "\u5176\u4e2d$x$\u662f\n\n$y\u662f\n"):
        with pytest.raises(BuildError) as e:
            mask(P, source)
        assert e.value.message.startswith("formula '$y"), e.value.message


@pytest.mark.parametrize("source", [
    "A bold variable $\\mathbf{delta}$ and $\\boldsymbol{theta}_1$.\n",
    "Sets $\\mathcal{Delta}$, $\\mathbb{sigma}$, $\\bm{alpha}$, $\\mathsf{times}$.\n",
    "Nested $\\mathbf{x_{delta}}$ and $\\textbf{beta}$.\n",
])
def test_a_symbol_s_name_in_a_font_command_is_no_lost_backslash(source: str) -> None:
    """`$\\mathbf{delta}$` (a bold variable named delta) was warned as a symbol written
    without its backslash: a name inside a font command's argument (bold, calligraphic,
    blackboard, sans) is the author's word, as in \\text{…} or \\mathit{…}; outside one it is
    still told."""
    from sqrtdk.log import captured
    with captured() as warned:
        mask(P, source)
        mask(P, "A $\\mathbf{x} delta$.\n")
    told = [w for w in warned if "by its name without a backslash" in w]
    assert len(told) == 1 and "'\\delta' for 'delta'" in told[0], told


@pytest.mark.parametrize(("source", "name"), [
    ("Spacing $a \\mathbin{times} b$.\n", "times"),
    ("A relation $x \\mathrel{leq} y$.\n", "leq"),
    ("Under a sum $\\sum_{\\mathclap{alpha}} x$.\n", "alpha"),
])
def test_a_symbol_s_name_in_a_math_class_command_is_still_told(source: str, name: str) -> None:
    """`\\mathbin{…}`, `\\mathrel{…}`, `\\mathclap{…}` set math, not a font: a name there
    (`\\mathrel{leq}` for `\\mathrel{\\leq}`) is a symbol with its backslash lost, as outside.
    The skip for fonts' arguments (`\\mathbf{delta}`) took every `\\math…` command."""
    from sqrtdk.log import captured
    with captured() as warned:
        mask(P, source)
    told = [w for w in warned if "by its name without a backslash" in w]
    assert len(told) == 1 and f"'\\{name}' for '{name}'" in told[0], told
