"""sqrtdk.quoting: results quoted in prose through Jinja, before Markdown.

The results are a small fixture (the contract is figures/results.json; its shape is all that
matters here), so the expected texts below do not move when the experiments change.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from sqrtdk.errors import BuildError
from sqrtdk.quoting import (QUOTE_CLOSE, QUOTE_MID, QUOTE_OPEN, QuoteLog, format_number,
                            mark_quotes, protect, render_source, strip_quotes)

RESULTS = {
    "spread": {"sd_small": 2.01603, "sd_large": 22.6166, "n_pairs": 20000, "d_ratio": 128,
               "d_k": [4, 8, 16]},
    "jacobian": {"winner_large": 0.900862},
    "rulers": {"quoted": {"sd_linear": 0.044009}},
    "meta": {"generator": "numpy PCG64 (default_rng)", "seed": 20170612, "ok": True},
}
SRC = Path("article.md")


def q(index: int, text: str) -> str:
    """The marker a filter emits for the `index`-th quote."""
    return f"{QUOTE_OPEN}{index}{QUOTE_MID}{text}{QUOTE_CLOSE}"


def render(source: str) -> tuple[str, QuoteLog]:
    return render_source(SRC, source, RESULTS)


def render_error(source: str) -> str:
    with pytest.raises(BuildError) as info:
        render(source)
    return str(info.value)


# --- format_number -------------------------------------------------------------------------------

@pytest.mark.parametrize("kind, value, digits, shown", [
    ("fixed", 22.6166, 2, "22.62"),
    ("fixed", 22.6166, 0, "23"),
    ("fixed", 2.0, 3, "2.000"),
    ("fixed", -0.125, 1, "-0.1"),          # round half to even on the binary value
    ("pct", 0.900862, 1, "90.1%"),
    ("pct", 0.900862, 0, "90%"),
    ("pct", 0.00375369, 2, "0.38%"),
    ("sig", 0.044009, 3, "0.0440"),        # trailing zero kept: three significant figures
    ("sig", 22.5326, 3, "22.5"),
    ("sig", 0.00367005, 2, "0.0037"),
    ("sig", -0.00123456, 2, "-0.0012"),
    ("sig", 123456.0, 3, "123456"),        # never rounds the integer part away
    ("sig", 0.0, 3, "0"),
    ("sig", 0.99581, 2, "1.0"),            # rounds up to the next power of ten: still 2 figures
    ("sig", 9.996, 3, "10.0"),
    ("sig", 99.96, 3, "100"),
    ("grouped", 20000, 0, "20,000"),
    ("grouped", 1234567.4, 0, "1,234,567"),
    ("grouped", 512, 0, "512"),
])
def test_format_number(kind: str, value: float, digits: int, shown: str) -> None:
    assert format_number(kind, value, digits) == shown


def test_format_number_unknown_kind() -> None:
    with pytest.raises(ValueError, match="unknown number format 'eng'"):
        format_number("eng", 1.0, 2)


# --- the filters ---------------------------------------------------------------------------------

def test_each_filter_emits_a_traced_quote() -> None:
    text, log = render("a {{ spread.sd_large | fixed(2) }} b {{ jacobian.winner_large | pct }} "
                       "c {{ rulers.quoted.sd_linear | sig }} d {{ spread.n_pairs | grouped }}")
    assert text == (f"a {q(0, '22.62')} b {q(1, '90.1%')} c {q(2, '0.0440')} "
                    f"d {q(3, '20,000')}")
    assert log.entries == [("spread.sd_large", "fixed:2", "22.62"),
                           ("jacobian.winner_large", "pct:1", "90.1%"),
                           ("rulers.quoted.sd_linear", "sig:3", "0.0440"),
                           ("spread.n_pairs", "grouped", "20,000")]


def test_filter_default_digits() -> None:
    _, log = render("{{ spread.sd_small | fixed }} {{ jacobian.winner_large | pct }} "
                    "{{ spread.sd_large | sig }}")
    assert [e[1:] for e in log.entries] == [("fixed:2", "2.02"), ("pct:1", "90.1%"),
                                            ("sig:3", "22.6")]


def test_list_index_is_traced_with_its_position() -> None:
    text, log = render("{{ spread.d_k[1] | grouped }} {{ spread.d_k[-1] | grouped }}")
    assert text == f"{q(0, '8')} {q(1, '16')}"
    assert [e[0] for e in log.entries] == ["spread.d_k.1", "spread.d_k.2"]


def test_strings_print_without_a_filter() -> None:
    text, log = render("Generator: {{ meta.generator }}.")
    assert text == "Generator: numpy PCG64 (default_rng)."
    assert log.entries == []


# --- protect: what authors write that looks like Jinja ---------------------------------------------

def test_code_span_keeps_braces_literally() -> None:
    text, log = render("Write `{{ spread.sd_large | fixed(2) }}` to quote {{ spread.sd_large | fixed(1) }}.")
    assert text == f"Write `{{{{ spread.sd_large | fixed(2) }}}}` to quote {q(0, '22.6')}."
    assert len(log.entries) == 1


def test_double_backtick_code_span_keeps_braces() -> None:
    text, _ = render("Use ``{{ x }} and `{% y %}` `` here.")
    assert text == "Use ``{{ x }} and `{% y %}` `` here."


@pytest.mark.parametrize("fence", ["```", "~~~", "````"])
def test_fenced_code_keeps_braces_literally(fence: str) -> None:
    source = (f"Before.\n\n{fence}jinja\n{{{{ undefined_name }}}}\n{{% for x in y %}}\n"
              f"{fence}\n\nAfter {{{{ spread.d_ratio | grouped }}}}.\n")
    text, _ = render(source)
    assert text == source.replace("{{ spread.d_ratio | grouped }}", q(0, "128"))


def test_fenced_code_containing_endraw() -> None:
    source = "```\n{% raw %}{{ a }}{% endraw %}\n```\n"
    assert render(source)[0] == source


def test_unclosed_fence_runs_to_the_end() -> None:
    source = "```\n{{ not evaluated }}\n"
    assert render(source)[0] == source


def test_tex_braces_stay_literal() -> None:
    text, log = render(r"$x^{{2}}$ and $\frac{{a}}{{b}}$ and ${%x$")
    assert text == r"$x^{{2}}$ and $\frac{{a}}{{b}}$ and ${%x$"
    assert log.entries == []


def test_expression_inside_tex_group() -> None:
    text, _ = render(r"$\sqrt{ {{ spread.d_ratio | grouped }} }$")
    assert text == "$\\sqrt{ " + q(0, "128") + " }$"


def test_heading_attribute_survives() -> None:
    text, _ = render("## Sheet 1 {#paper-1}\n\n### Notes {#notes .wide}\n")
    assert text == "## Sheet 1 {#paper-1}\n\n### Notes {#notes .wide}\n"


def test_jinja_comments_use_double_hash() -> None:
    assert render("a {## a note to editors ##}b")[0] == "a b"


def test_protect_keeps_every_line_in_place() -> None:
    source = ("---\ntitle: T\n---\n"
              "## H {#h}\n"
              "Inline `{{ a }}\nb` code over two lines, then {{ spread.sd_small | fixed(2) }}\n"
              "```\n{{ fenced }}\n\n{% if x %}\n```\n"
              "$x^{{2}}$\n"
              "last {{ spread.n_pairs | grouped }}\n")
    protected = protect(source)
    assert protected.count("\n") == source.count("\n")
    text, _ = render(source)
    out_lines, in_lines = text.split("\n"), source.split("\n")
    assert len(out_lines) == len(in_lines)
    changed = [i + 1 for i, (a, b) in enumerate(zip(in_lines, out_lines)) if a != b]
    assert changed == [6, 13]  # only the two lines that quote results
    assert strip_quotes(out_lines[5]) == "b` code over two lines, then 2.02"
    assert strip_quotes(out_lines[12]) == "last 20,000"


# --- errors ----------------------------------------------------------------------------------------

def test_number_without_filter_fails() -> None:
    msg = render_error("one\ntwo\nSeed {{ meta.seed }}.\n")
    assert msg == ("article.md:3: 'meta.seed' is a number: quote it through a format filter, "
                   "e.g. {{ meta.seed | fixed(2) }}")


def test_typed_number_fails() -> None:
    msg = render_error("one\nIt is {{ 42 }}.\n")
    assert msg.startswith("article.md:2: the number 42 is typed into the text")


def test_tex_minus_group_is_not_silently_eaten() -> None:
    # `{{-1}}` is Jinja's whitespace-control form of `{{ 1 }}`: it must fail, not print `1`
    msg = render_error("one\n$x^{{-1}}$\n")
    assert msg.startswith("article.md:2: the number 1 is typed into the text")


def test_group_without_key_fails() -> None:
    msg = render_error("\n{{ spread }}\n")
    assert msg == "article.md:2: 'spread' is a group of results, not a value; pick one of its keys"


def test_unknown_result_names_the_siblings() -> None:
    msg = render_error("a\nb\nc {{ spread.sd_smal | fixed(2) }}\n")
    assert msg == ("article.md:3: no result 'spread.sd_smal' (spread has d_k, d_ratio, n_pairs, "
                   "sd_large, sd_small)")


def test_unknown_top_level_name() -> None:
    msg = render_error("\n\n\n{{ sprad.sd_small | fixed(2) }}\n")
    assert msg.startswith("article.md:4: 'sprad' is undefined")
    assert msg.endswith("check the name against figures/results.json")


def test_unknown_filter() -> None:
    msg = render_error("a\n{{ spread.sd_small | fixd(2) }}\n")
    assert msg == "article.md:2: template syntax: No filter named 'fixd'."


def test_filter_on_a_string_names_the_result() -> None:
    msg = render_error("a\n{{ meta.generator | fixed }}\n")
    assert msg == ("article.md:2: filter 'fixed' formats a number from the results, got "
                   "'meta.generator' = 'numpy PCG64 (default_rng)'; numbers are looked up, "
                   "never typed")


def test_filter_on_a_bool_fails() -> None:
    msg = render_error("{{ meta.ok | fixed }}")
    assert msg.startswith("article.md:1: filter 'fixed' formats a number from the results, got "
                          "'meta.ok' = True")


def test_filter_on_a_typed_number_fails() -> None:
    msg = render_error("a\nb\n{{ 3.14 | fixed(2) }}")
    assert msg == ("article.md:3: filter 'fixed' formats a number from the results, got 3.14; "
                   "numbers are looked up, never typed")


@pytest.mark.parametrize("digits", ["13", "-1", "'2'", "1.5"])
def test_filter_digits_out_of_range(digits: str) -> None:
    msg = render_error(f"x\n{{{{ spread.sd_small | fixed({digits}) }}}}\n")
    assert msg.startswith("article.md:2: fixed() takes a whole number of digits from 0 to 12")


def test_syntax_error_line() -> None:
    msg = render_error("a\nb\nthe {{ spread.sd_small | fixed(2 }} here\nd\n")
    assert msg.startswith("article.md:3: template syntax: unexpected '}'")


def test_unclosed_expression_at_the_end() -> None:
    msg = render_error("a\nb\n{{ spread.sd_small | fixed(2)\n")
    assert msg == ("article.md:3: template syntax: unexpected end of template, expected "
                   "'end of print statement'.")


# --- markers ---------------------------------------------------------------------------------------

def test_mark_quotes_turns_markers_into_spans() -> None:
    text, log = render("<p>SD {{ spread.sd_large | fixed(2) }} of {{ spread.n_pairs | grouped }}</p>")
    assert mark_quotes(text, log) == (
        '<p>SD <span class="q" data-key="spread.sd_large" data-format="fixed:2">22.62</span> of '
        '<span class="q" data-key="spread.n_pairs" data-format="grouped">20,000</span></p>')


def test_mark_quotes_uses_the_index_not_the_order() -> None:
    log = QuoteLog([("a.b", "fixed:1", "1.0"), ("c.d", "pct:0", "5%")])
    assert mark_quotes(f"{q(1, '5%')}|{q(0, '1.0')}", log) == (
        '<span class="q" data-key="c.d" data-format="pct:0">5%</span>|'
        '<span class="q" data-key="a.b" data-format="fixed:1">1.0</span>')


def test_strip_quotes_keeps_the_shown_text() -> None:
    text, _ = render(r"$\sqrt{ {{ spread.d_ratio | grouped }} }\approx {{ spread.sd_large | fixed(1) }}$")
    assert strip_quotes(text) == r"$\sqrt{ 128 }\approx 22.6$"
    assert strip_quotes("no markers") == "no markers"


def test_quoted_numbers_inside_tex_become_katex_html_data() -> None:
    from sqrtdk.quoting import QuoteLog, tex_quotes
    log = QuoteLog()
    tex = r"\sqrt{128}\approx " + log.emit("spread.ratio_theory", "fixed:2", "11.31") + \
        " + " + log.emit("a.b", "pct:2", "99.62%") + " + " + log.emit("n", "grouped", "20,000")
    assert tex_quotes(tex, log) == (
        r"\sqrt{128}\approx \htmlData{key=spread.ratio_theory, format=fixed:2}{11.31} + "
        r"\htmlData{key=a.b, format=pct:2}{99.62\%} + \htmlData{key=n, format=grouped}{20{,}000}")
