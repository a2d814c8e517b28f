"""Quoting results in prose and in formulas: filters, honest rounding, claims, and errors that
name the line and suggest the right name. Uses small results of its own (not the build's)."""
from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from sqrtdk.errors import BuildError
from sqrtdk.web.lexer import RawFormula
from sqrtdk.web.markers import strip_markers
from sqrtdk.web.quoting import (
    Quote,
    QuoteLog,
    Quoter,
    format_number,
    honest_digits,
    mark_quotes,
)

RESULTS: dict[str, Any] = {
    "spread": {"sd_small": 2.0104, "sd_large": 22.6183, "n_pairs": 20000, "d_k": [4, 8, 16],
               "name": "H"},
    "share": {"p": 0.99623, "half": 0.5},
    "entropy": {"bits": 2.99975},
    "meta": {"seed": 7, "bounds": {"share.*": [0.0, 1.0], "entropy.bits": [0.0, 3.0]}},
}
CLAIMS = {"spread.grows": {"held": True}}
P = Path("a.md")


def render(source: str) -> tuple[str, Quoter]:
    q = Quoter(P, RESULTS, CLAIMS)
    return q.render_prose(source), q


def error(source: str) -> BuildError:
    with pytest.raises(BuildError) as e:
        render(source)
    return e.value


@pytest.mark.parametrize("kind, value, digits, shown", [
    ("fixed", 2.0104, 2, "2.01"), ("fixed", 22.6183, 1, "22.6"), ("fixed", -0.5, 0, "−0"), ("fixed", -0.804, 2, "−0.80"),
    ("sig", 1.8712e-10, 3, "1.87\u00a0×\u00a010⁻¹⁰"), ("sig", -2.5e-6, 2, "−2.5\u00a0×\u00a010⁻⁶"),
    ("pct", 0.99623, 2, "99.62%"), ("pct", 0.5, 0, "50%"),
    ("sig", 0.0037537, 3, "0.00375"), ("sig", 0.99962, 3, "1.00"), ("sig", 1234.6, 2, "1,200"),
    # large numbers round to their figures too (issue 20): 24,990 to 3 figures is 25,000
    ("sig", 24990.0, 3, "25,000"), ("sig", 24990.0, 1, "20,000"), ("sig", 999.6, 3, "1,000"),
    ("sig", -12345.0, 2, "−12,000"), ("sig", 123.4, 3, "123"), ("sig", 1250.0, 2, "1,200"),
    ("sig", 1350.0, 2, "1,400"), ("sig", 99999.0, 3, "100,000"),
    ("sig", 0.0, 3, "0"), ("grouped", 20000, 0, "20,000"), ("grouped", 1234567.4, 0, "1,234,567"),
    # one rule for thousands in every kind (issue 20): "1,024" in a fixed(0) as in a grouped
    ("fixed", 1024.0, 0, "1,024"), ("fixed", -12345.678, 1, "−12,345.7"), ("pct", 12.3456, 0, "1,235%"),
])
def test_format_number(kind: str, value: float, digits: int, shown: str) -> None:
    assert format_number(kind, value, digits) == shown


def test_unknown_format_kind() -> None:
    with pytest.raises(ValueError):
        format_number("round", 1.0, 2)


def test_each_filter_emits_a_traced_quote() -> None:
    text, q = render("{{ spread.sd_small | fixed(2) }} and {{ spread.n_pairs | grouped }}")
    assert strip_markers(text) == "2.01 and 20,000"
    assert q.log.entries == [("spread.sd_small", "fixed:2", "2.01"),
                             ("spread.n_pairs", "grouped", "20,000")]
    html = mark_quotes(text, q.log)
    assert html.startswith('<span class="q" data-key="spread.sd_small" data-format="fixed:2">2.01')


def test_list_index_and_strings() -> None:
    text, q = render("{{ spread.d_k[1] | grouped }} {{ spread.name }}")
    assert strip_markers(text) == "8 H" and q.log.entries[0][0] == "spread.d_k.1"


@pytest.mark.parametrize("source, shown, fmt", [
    ("{{ share.p | pct(0) }}", "99.6%", "pct:1"),        # not "100%": p < 1
    ("{{ share.p | fixed(2) }}", "0.996", "fixed:3"),    # not "1.00"
    ("{{ entropy.bits | fixed(2) }}", "2.9998", "fixed:4"),   # not "3.00" next to 3 bits
    ("{{ share.half | pct(0) }}", "50%", "pct:0"),       # no bound near: as asked
    ("{{ spread.sd_large | fixed(0) }}", "23", "fixed:0"),    # no bounds declared
])
def test_honest_rounding_never_prints_a_bound_the_value_does_not_reach(
        source: str, shown: str, fmt: str) -> None:
    text, q = render(source)
    assert strip_markers(text) == shown and q.log.entries[0][1] == fmt


def test_pct_refuses_a_number_that_is_not_a_share() -> None:
    e = error("a\nthe SD is {{ spread.sd_small | pct(0) }}")   # 2.01 would print as "201%"
    assert e.line == 2 and "pct()" in e.message and "fixed()" in e.message


def test_honest_digits_keeps_an_exact_bound() -> None:
    assert honest_digits("pct", 1.0, 0, (0.0, 1.0)) == 0
    assert honest_digits("fixed", 0.25, 3, (0.0, 0.25)) == 3
    assert honest_digits("fixed", 0.24995, 3, (0.0, 0.25)) == 5


def test_quotes_inside_a_formula_travel_as_data() -> None:
    q = Quoter(P, RESULTS, CLAIMS)
    f = q.render_formula(RawFormula(0, "\\sqrt{ {{ spread.n_pairs | grouped }} } x^{{2}}", False, 9))
    assert f.plain == "\\sqrt{ 20,000 } x^{{2}}"
    assert [p for p in f.parts if isinstance(p, Quote)] == [Quote("spread.n_pairs", "grouped", "20,000")]


def test_tex_braces_in_a_formula_are_tex() -> None:
    q = Quoter(P, RESULTS, CLAIMS)
    for tex in ("x^{{-1}}", "{{x}}", "a_{{i}}^{2}", "\\frac{1}{2}"):
        assert q.render_formula(RawFormula(0, tex, True, 1)).plain == tex


def test_an_error_inside_a_formula_names_the_formula_line() -> None:
    q = Quoter(P, RESULTS, CLAIMS)
    with pytest.raises(BuildError) as e:
        q.render_formula(RawFormula(0, "a\n+ {{ spread.sd_smal | fixed(2) }}", True, 20))
    assert e.value.line == 21 and "did you mean 'spread.sd_small'" in e.value.message
    with pytest.raises(BuildError) as e:      # the TeX starts on the line after the `$$`
        q.render_formula(RawFormula(0, "a\n+ {{ spread.sd_smal | fixed(2) }}", True, 20, 21))
    assert e.value.line == 22


def test_claims_are_recorded_and_leave_no_text() -> None:
    text, q = render("It grows.{{ claim(\"spread.grows\") }}")
    assert strip_markers(text) == "It grows." and q.log.claims == ["spread.grows"]
    assert mark_quotes(text, q.log) == "It grows."


def test_each_quote_and_claim_records_the_line_it_was_written_on() -> None:
    quote = "{{ spread.sd_small | fixed(2) }}"
    source = (f"one {quote}\n\nthree{{{{ claim(\"spread.grows\") }}}}\nfour {quote} "
              f"{{{{ spread.n_pairs | grouped }}}}\n\n\nseven {quote}\n")
    _, q = render(source)
    assert q.log.lines == [1, 4, 4, 7] and q.log.claim_lines == [3]
    assert q.log.line_of("spread.n_pairs") == 4 and q.log.line_of("spread.sd_small") == 1
    assert q.log.line_of_claim("spread.grows") == 3 and q.log.line_of("share.p") == 0
    q.render_formula(RawFormula(0, "a\n+ {{ share.p | pct(1) }}", True, 20, 21))
    assert q.log.lines[-1] == 22 and q.log.line_of("share.p") == 22


def test_unknown_claim_suggests_the_right_name() -> None:
    e = error("a\nb {{ claim(\"spread.grow\") }}")
    assert e.line == 2 and "did you mean 'spread.grows'" in e.message


def test_unknown_result_names_its_siblings() -> None:
    e = error("a\n\n{{ spread.sd_smal | fixed(2) }}")
    assert e.line == 3 and "no result 'spread.sd_smal'" in e.message and "'spread.sd_small'" in e.message


def test_unknown_top_level_name_suggests() -> None:
    e = error("{{ sprad.sd_small | fixed(2) }}")
    assert e.line == 1 and "did you mean 'spread'" in e.message


def test_unknown_filter_suggests() -> None:
    e = error("x\n{{ spread.sd_small | fxed(2) }}")
    assert e.line == 2 and "No filter named 'fxed'" in e.message and "'fixed'" in e.message


@pytest.mark.parametrize("branch", ["if", "else"])
def test_an_unknown_filter_in_a_conditional_branch_is_told_at_its_line(branch: str) -> None:
    """Jinja looks up a filter inside an `{% if %}` branch only when the branch runs, and
    raises TemplateRuntimeError then: a misspelt filter there (a mutation pass over the
    article) stopped the build with a traceback."""
    taken, skipped = "{{ spread.n_pairs | gruoped }}", "{{ spread.n_pairs | grouped }}"
    if branch == "else":
        taken, skipped = skipped, taken
    e = error(f"x\n{{% if {'true' if branch == 'if' else 'false'} %}}a\n{taken} b"
              f"{{% else %}}\nc\nd {skipped}{{% endif %}}")
    assert e.line == (3 if branch == "if" else 5), e
    assert "No filter named 'gruoped'" in e.message and "'grouped'" in e.message, e


@pytest.mark.parametrize("results_take", ["if", "else"])
def test_an_unknown_filter_in_the_branch_the_results_skip_is_told_at_its_line(
        results_take: str) -> None:
    """A misspelt filter in the branch these results do not take built silently (Jinja
    looks it up only when the branch runs), and stopped a build with other results."""
    cond = "true" if results_take == "if" else "false"
    e = error(f"x\n{{% if {cond} %}}a{{% else %}}\nb {{{{ spread.n_pairs | gruoped }}}}"
              "{% endif %}\n{% if n is odd_ %}c{% endif %}")
    assert e.line == 3 and "No filter named 'gruoped'" in e.message, e
    assert "'grouped'" in e.message, e


@pytest.mark.parametrize("written, meant", [("round(3)", "fixed(n)"), ("int", "grouped"),
                                             ("percent(1)", "pct(n)"), ("format(3)", "fixed(n)")])
def test_a_filter_of_jinja_or_python_is_told_the_one_meant(written: str, meant: str) -> None:
    """`| round(3)` was told "did you mean 'grouped'?", which prints no decimals: a filter a
    newcomer knows from Jinja or Python is told which of ours does its work."""
    e = error("x\n{{ spread.sd_small | " + written + " }}")
    assert e.line == 2 and f"write {meant}" in e.message and "grouped'?" not in e.message, e


def test_a_claim_named_without_quotes_is_told_to_quote_it() -> None:
    """`{{ claim(spread.x) }}` was told "no result 'spread.x'" and the results of spread."""
    name = "spread.grows"                    # a claim of the test's results
    e = error("x\n\nIt holds.{{ claim(" + name + ") }}")
    assert e.line == 3 and f'write {{{{ claim("{name}") }}}}' in e.message, e


def test_a_filter_given_a_list_a_group_or_a_text_says_what_to_quote() -> None:
    """`{{ spread.sd | sig(3) }}` (a list) and `{{ x.text | fixed(2) }}` were told only
    "numbers are looked up, never typed", which the author had done."""
    n = len(RESULTS["spread"]["d_k"])
    e = error("{{ spread.d_k | sig(3) }}")
    assert f"spread.d_k[0] to spread.d_k[{n - 1}]" in e.message, e
    e = error("{{ spread | fixed(2) }}")
    assert "quote one of its results: spread." in e.message, e
    e = error("{{ spread.name | fixed(2) }}")
    assert "write {{ spread.name }}, without a filter" in e.message, e


@pytest.mark.parametrize("quote, says", [
    # the claim function's own name and Python's words ('_claim() missing 1 required
    # positional argument') were the message
    ("{{ claim() }}", "claim() takes one claim's name in quotes"),
    ('{{ claim("spread.grows", "spread.grows") }}', "quotes each"),
    ('{{ claim(name="spread.grows") }}', "claim() takes one claim's name in quotes"),
    # a filter on another's output showed its private-use marker, the digits among them
    ("{{ share.p | pct(1) | pct(1) }}", "a format filter takes a result, once"),
    ('{{ claim("spread.grows") | fixed(2) }}', "claim() takes no filter"),
    # a part of one value: "sqrtdk.web.result_nodes.Quantity object has no element 0"
    ("{{ spread.sd_small[0] | fixed(2) }}", "'spread.sd_small' is one value, with no parts"),
    ("{{ spread.sd_small.mean | fixed(2) }}", "'spread.sd_small.mean' is no result"),
    ("{{ spread.name.x }}", "quote spread.name itself"),
])
def test_a_quote_misusing_claim_a_filter_or_a_value_says_what_to_write(quote: str,
                                                                      says: str) -> None:
    import re
    e = error("x\n\nIt holds " + quote + ".")
    assert e.line == 3 and says in e.message, e.message
    assert not re.search(r"_claim|Quantity|Node|positional|[\ue000-\uf8ff\U000f0000-\U0010ffff]",
                         e.message), e.message
    with pytest.raises(BuildError) as inside:       # and inside a formula
        Quoter(P, RESULTS, CLAIMS).render_formula(RawFormula(0, "a + " + quote, True, 20))
    assert says in inside.value.message or "claim" in quote, inside.value.message


def test_number_without_filter_and_typed_numbers() -> None:
    assert "through a format filter" in error("{{ spread.sd_small }}").message
    assert "typed into the text" in error("{{ 42 }}").message
    # a typed number is matched to the result it stands for, at the digits typed
    typed = f"{RESULTS['spread']['sd_small']:.2f}"
    e = error("the SD is {{ " + typed + " }} here")
    assert "{{ spread.sd_small | fixed(2) }}" in e.message, e.message


def test_a_count_without_filter_is_told_the_filter_for_a_count() -> None:
    """`{{ spread.n_pairs }}` (a whole number) was told to write `| fixed(2) }}`, which prints
    a count of pairs as 20,000.00; a whole number is told `grouped`, as README's filters say."""
    e = error("over {{ spread.n_pairs }} pairs")
    assert "{{ spread.n_pairs | grouped }}" in e.message and "fixed" not in e.message, e
    e = error("over {{ spread.n_pairs[0] }} pairs")
    assert "{{ spread.n_pairs | grouped }}" in e.message and "fixed" not in e.message, e
    assert "fixed(2)" in error("{{ spread.sd_small }}").message


def test_filter_on_a_group_or_a_string() -> None:
    assert "a group of results" in error("{{ spread | fixed(2) }}").message
    assert "'spread.name' = 'H'" in error("{{ spread.name | fixed(2) }}").message


@pytest.mark.parametrize("digits", ["13", "-1", "'2'", "1.5", "True"])
def test_filter_digits_out_of_range(digits: str) -> None:
    assert "whole number of digits" in error("{{ spread.sd_small | fixed(" + digits + ") }}").message


def test_syntax_error_line_and_unclosed_block_names_where_it_opens() -> None:
    assert error("a\nb\n{{ spread.sd_small | fixed(2 }}\n").line == 3
    e = error("one\n{% if true %}\ntwo\nthree\n")
    assert e.line == 2 and "template syntax" in e.message


@pytest.mark.parametrize("opener, closer", [("{{ spread.sd_small | fixed(2)", "}}"),
                                            ("{% if true", "%}"), ("{# a note", "#}")])
def test_a_tag_never_closed_is_named_at_the_line_that_opens_it(opener: str,
                                                                closer: str) -> None:
    """Jinja reads the paragraphs after a `{{` never closed as the tag's words and gives up
    a paragraph or more later: the error named that line, not the `{{`'s."""
    e = error(f"Intro.\n\nA sentence {opener}\nends here.\n\nWords.\n\nMore words.\n")
    assert e.line == 3, e
    assert "template syntax" in e.message and f"'{closer}'" in e.message or \
        "comment" in e.message, e.message
    e = error(f"Intro.\n\nA {opener}\n\nNext {{{{ spread.sd_small | fixed(2) }}}} words.\n")
    assert e.line == 3, e


def test_a_tag_spanning_lines_keeps_the_line_of_its_own_mistake() -> None:
    assert error("a\n{{ spread.sd_small\n | fixed(2 }}\n").line == 3
    assert error("a\n{{ spread.sd_small }} {{ spread.sd_small\n | fixed(2) x }}\n").line == 3


def test_a_quote_never_closed_in_a_formula_is_named_at_its_line() -> None:
    q = Quoter(P, RESULTS, CLAIMS)
    with pytest.raises(BuildError) as e:
        q.render_formula(RawFormula(0, "a + {{ spread.sd_small | fixed(2)\n+ b\n\n+ c", True,
                                    20))
    assert e.value.line == 20 and "never closed" in e.value.message, e.value


def test_heading_ids_are_not_comments() -> None:
    text, _ = render("## Title {#paper-1}\n\nA sentence {#id}.\n")
    assert text == "## Title {#paper-1}\n\nA sentence {#id}.\n"


def test_a_result_name_in_double_braces_inside_math_is_tex_and_warned_about(
        caplog: pytest.LogCaptureFixture) -> None:
    q = Quoter(P, RESULTS, CLAIMS)
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        f = q.render_formula(RawFormula(0, "m = {{spread.n_pairs}} + x^{{2}}", False, 9))
    assert f.plain == "m = {{spread.n_pairs}} + x^{{2}}"        # TeX, as written
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 1 and "{{ spread.n_pairs | fixed(2) }}" in said[0] and ":9:" in said[0]



@pytest.mark.parametrize("tex, meant", [
    ("m = {{spread.n_pairs|grouped}}", "{{ spread.n_pairs | grouped }}"),
    ("m = {{spread.sd_small | fixed(3)}}", "{{ spread.sd_small | fixed(3) }}"),
    ("m = {{spread.d_k[0]|grouped}}", "{{ spread.d_k[0] | grouped }}"),
], ids=["filter", "spaced filter", "index"])
def test_a_quote_without_its_first_space_inside_math_is_warned_about(
        caplog: pytest.LogCaptureFixture, tex: str, meant: str) -> None:
    """`$d = {{spread.d_small|grouped}}$` built silently, the formula showing the letters
    'spread.d_small∣grouped': only `{{name}}` alone was told to be TeX."""
    q = Quoter(P, RESULTS, CLAIMS)
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        q.render_formula(RawFormula(0, tex, False, 9))
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 1 and f"write '{meant}'" in said[0] and ":9:" in said[0], said


def precision_warnings(caplog: pytest.LogCaptureFixture, quotes: list[tuple[str, str, str, int]],
                       shown: dict[int, str] | None = None) -> list[str]:
    """The warnings `check_precision` gives one page (content/en/index.md) holding `quotes`,
    each (result path, format, shown text, line), and `shown` (QuoteLog.shown)."""
    from types import SimpleNamespace

    from sqrtdk.web.checks import check_precision
    log = QuoteLog()
    for path, fmt, text, line in quotes:
        log.emit(path, fmt, text)
        log.lines[-1] = line
    log.shown.update(shown or {})
    page = SimpleNamespace(source=Path("content/en/index.md"), quotes=log)
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        check_precision([page])   # type: ignore[list-item]
    return [r.getMessage() for r in caplog.records]


@pytest.mark.parametrize("first, second, warned", [
    (("fixed:4", "0.4996"), ("fixed:2", "0.50"), True),
    (("sig:3", "1.45 × 10⁻¹⁶"), ("sig:2", "1.5 × 10⁻¹⁶"), True),
    (("fixed:3", "0.879"), ("pct:1", "87.9%"), True),
    (("fixed:0", "3"), ("fixed:3", "3.000"), False),
    (("fixed:3", "0.879"), ("fixed:3", "0.879"), False),
], ids=["fewer decimals", "fewer significant digits", "a share as a percent",
        "an exact value", "the same format"])
def test_one_result_at_two_precisions_warns_at_the_later_quote(
        caplog: pytest.LogCaptureFixture, first: tuple[str, str], second: tuple[str, str],
        warned: bool) -> None:
    """README: one quantity at one precision everywhere. A page quoting one result at two
    precisions (prose, alt texts and formulas alike) gets a warning at the later quote, naming
    the earlier one's format and line; an exact value shown as 3 and as 3.000 is one number."""
    got = precision_warnings(caplog, [("spread.slope", *second, 20),    # recorded out of
                                      ("spread.slope", *first, 10)])    # reading order
    if not warned:
        assert got == []
        return
    written = first[0].replace(":", "(") + ")"
    assert len(got) == 1 and "index.md:20: warning: 'spread.slope'" in got[0], got
    assert f"write {written} here" in got[0] and "at line 10" in got[0], got


def test_one_quote_apart_from_the_others_is_the_one_told(
        caplog: pytest.LogCaptureFixture) -> None:
    """A result quoted as a percent three times and, first, once as a decimal (an author who
    wrote fixed(2) in one place) is told at that one quote, to write what the others write;
    not at the three others, to write the odd one's fixed(2)."""
    got = precision_warnings(caplog, [("gradient.raw_below_last", "fixed:2", "0.60", 10),
                                      ("gradient.raw_below_last", "pct:0", "60%", 20),
                                      ("gradient.raw_below_last", "pct:0", "60%", 30),
                                      ("gradient.raw_below_last", "pct:0", "60%", 40)])
    assert len(got) == 1 and "index.md:10: warning:" in got[0], got
    assert "write pct(0) here" in got[0] and "at line 20" in got[0], got

RELATED_RESULTS: dict[str, Any] = {
    "spread": {"sd_small": 2.0104, "sd_large": 22.6183, "ratio": 11.2507,
               "ratio_theory": 11.3137},
    "meta": {"seed": 7, "bounds": {}},
}


@pytest.mark.parametrize("statement", ["", "{% if true %}{% endif %}"],
                         ids=["paragraphs", "one template"])
def test_a_related_quote_shown_with_more_digits_than_written_warns_at_its_line(
        caplog: pytest.LogCaptureFixture, statement: str) -> None:
    """A paragraph quoting an SD, another SD and their ratio shows the two SDs with the digits
    with which they divide out to the ratio shown (quoting.relate): the author's sig(2) is
    shown as sig(3). That is a warning at the quote's line saying what is shown, why and
    what to write; a quote whose filter already asks for the digits shown gets none. Another
    paragraph that relates nothing shows exactly what its filter asks, also when a statement
    makes the article one template."""
    from types import SimpleNamespace

    from sqrtdk.web.checks import check_precision
    q = Quoter(P, RELATED_RESULTS, CLAIMS)
    text = q.render_prose(
        statement + "From {{ spread.sd_small | sig(2) }} to {{ spread.sd_large | sig(3) }},\n"
        "a factor {{ spread.ratio | sig(4) }}, near {{ spread.ratio_theory | sig(4) }}.\n\n"
        "Alone: {{ spread.sd_small | sig(2) }}.\n")
    shown = strip_markers(text).split("\n")
    assert shown[:2] == ["From 2.01 to 22.6,", "a factor 11.25, near 11.31."], shown
    assert shown[3] == "Alone: 2.0.", shown
    page = SimpleNamespace(source=Path("content/en/index.md"), quotes=q.log)
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        check_precision([page])   # type: ignore[list-item]
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 1, said
    assert said[0].startswith("content/en/index.md:1: warning: 'spread.sd_small' is written "
                              "sig(2) here but shown as sig(3) (2.01)"), said
    assert "'spread.ratio'" in said[0] and said[0].endswith("; write sig(3)"), said


@pytest.mark.parametrize("statement", ["", "{% if true %}{% endif %}"],
                         ids=["paragraphs", "one template"])
def test_a_ratio_quoted_beside_one_operand_but_not_the_other_warns_at_the_ratio(
        caplog: pytest.LogCaptureFixture, statement: str) -> None:
    """The new author's second trial: a quote of one SD replaced by a typed number left
    "from 2.5 to 22.62, a factor of 11.25", which divides to nothing, and no warning said so.
    A paragraph quoting a ratio and one of its operands but not the other warns at the ratio,
    naming the one left out and how to quote it; a paragraph with all three, or with the
    two SDs and no ratio (an alt text's), gets no such warning."""
    from types import SimpleNamespace

    from sqrtdk.web.checks import check_precision
    q = Quoter(P, RELATED_RESULTS, CLAIMS)
    q.render_prose(
        statement + "Both: {{ spread.sd_small | sig(4) }} and {{ spread.sd_large | sig(4) }}.\n\n"
        "From 2.5 to {{ spread.sd_large | sig(4) }},\n"
        "a factor of {{ spread.ratio | sig(4) }}.\n\n"
        "All: {{ spread.sd_small | sig(4) }}, {{ spread.sd_large | sig(4) }}, "
        "{{ spread.ratio | sig(4) }}.\n")
    q.log.lines[:] = [1, 1, 3, 4, 6, 6, 6]
    page = SimpleNamespace(source=Path("content/en/index.md"), quotes=q.log)
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        check_precision([page])   # type: ignore[list-item]
    said = [r.getMessage() for r in caplog.records if "typed" in r.getMessage()]
    assert len(said) == 1, said
    assert said[0].startswith("content/en/index.md:4: warning: 'spread.ratio' (11.25) is a "
                              "ratio of two results"), said
    assert "not 'spread.sd_small'" in said[0] and \
        said[0].endswith("{{ spread.sd_small | sig(4) }}"), said


def test_every_tag_of_another_tool_is_named_in_one_build() -> None:
    """Tags no Jinja statement knows (Hexo's, Liquid's), in three paragraphs: each is an error
    at its line (the first of its paragraph), all in one build, not only the first."""
    source = ("Intro.\n\n{% asset_img curve.png The curve %}\n\nText {{ share.p | fixed(2) }}.\n\n"
              "{% blockquote Vaswani et al. %}\nWe suspect.\n{% endblockquote %}\n\n"
              "{% katex %}\nx^2\n{% endkatex %}\n")
    e = error(source)
    lines = sorted(err.line for err in e.errors)
    assert lines == [3, 7, 11], [str(x) for x in e.errors]     # the first of each paragraph


def test_every_mistaken_quote_of_a_paragraph_is_named_in_one_build() -> None:
    """Several quotes of one paragraph each with its own mistake (a misspelt result, a
    number without a filter, an unknown claim, a misspelt section) were told one a build,
    the first only: each is an error at its own line now, in one build, with no line twice
    and nothing said of the good quotes between them."""
    source = ("Intro.\n\nOne {{ spread.sd_smal | sig(3) }} and {{ share.p | pct(1) }},\n"
              "{{ spread.sd_large }} then {{ claim(\"spread.grow\") }}\n"
              "and {{ entropi.bits | fixed(2) }} with {{ spread.n_pairs | grouped }}.\n")
    e = error(source)
    told = sorted((err.line, err.message) for err in e.errors)
    assert [line for line, _ in told] == [3, 4, 4, 5], told
    said = " ".join(message for _, message in told)
    misspelt = ("spread.sd_smal", "spread.grow", "entropi")      # misspelt on purpose
    for name in (*misspelt, "spread.sd_large"):
        assert name in said, told
    assert "share.p" not in said and "n_pairs" not in said, told


def test_a_paragraph_with_a_statement_keeps_its_first_mistake_only() -> None:
    """A quote may read what a `{% set %}` before it made, so a piece holding a statement is
    not taken apart: its first mistake is told, and a quote of the set name is no mistake."""
    source = "Intro.\n\n{% set x = spread.sd_small %}{{ x | fixed(2) }} {{ spread.nope }}\n"
    e = error(source)
    assert [err.line for err in e.errors] == [3] and "spread.nope" in e.errors[0].message


def test_a_jekyll_include_does_not_hide_the_other_tags_of_the_text() -> None:
    """An al-folio post's `{% include figure.html … %}` beside `{% cite … %}` tags: an include
    cannot reach beyond its paragraph, so each tag is an error at its own line in one build
    (the include made the text one template, and only its first tag was named)."""
    source = ("Scaled {% cite vaswani2017 %}.\n\n"
              "{% include figure.html path=\"assets/img/a.png\" class=\"img-fluid\" %}\n\n"
              "See {% cite yang2022 kaplan2020 %} and {% include \"footer.html\" %}.\n")
    e = error(source)
    lines = sorted(err.line for err in e.errors)
    assert lines == [1, 3, 5], [str(x) for x in e.errors]


@pytest.mark.parametrize(("quote", "says"), [
    ("{{ 'a' * 1000000000 }}", "'*' is arithmetic"),        # filled the memory as it compiled
    ("{{ 'ab'.ljust(1000000000) }}", "calls something other than claim()"),
    ("{{ ''.__class__.__mro__ }}", "'.__class__' is no result"),   # was published as typed out
    ("{{ spread.sd_small + 1 }}", "'+' is arithmetic"),
    ("{{ (spread.n_pairs ** 99999999) | grouped }}", "'**' is arithmetic"),
    ("{{ '{}'.format(1) }}", "calls something other than claim()"),
])
def test_a_quote_that_computes_is_an_error_at_its_line(quote: str, says: str) -> None:
    """A quote names a result and formats it; a template that computes published what no
    result holds, ran any Python reachable from a string, or (arithmetic on a string) took
    all the machine's memory before any message."""
    e = error(f"a\n\nthe text {quote} here")
    assert e.line == 3 and says in e.message and "add the value you need" in e.message, e


def test_a_quote_in_a_formula_that_computes_is_an_error_at_its_line() -> None:
    q = Quoter(P, RESULTS, CLAIMS)
    with pytest.raises(BuildError) as e:
        q.render_formula(RawFormula(0, "a\n+ {{ 'x' * 99 }}", True, 20))
    assert e.value.line == 21 and "'*' is arithmetic" in e.value.message


def test_an_undefined_function_is_still_named_undefined() -> None:
    assert "'range' is undefined" in error("{{ range(3) }}").message


@pytest.mark.parametrize("source", ["Text with {{monospace}} code.",
                                    "a\n\n{{sd_small}} and more"])
def test_braces_against_a_word_are_told_as_confluence_monospace(source: str) -> None:
    """Confluence's and Jira's monospace, '{{text}}', was told "'monospace' is undefined;
    known result groups: …", as if a result were meant; it is now told to be code, at its
    line, with how a quote is written."""
    e = error(source)
    assert e.line == source.count("\n") + 1, e
    assert "Confluence" in e.message and "`" in e.message and "fixed(2)" in e.message, e


def test_a_related_quote_s_digits_at_another_seed_are_told_to_be_that_seed_s(
        caplog: pytest.LogCaptureFixture) -> None:
    """`--seed 2` warned "write sig(5)" as if for the article, though the default seed's page
    needs fewer digits and following it changes that page too: at another seed the warning
    says the digits are that seed's and what writing them does."""
    from types import SimpleNamespace

    from sqrtdk.web.checks import check_precision
    q = Quoter(P, RELATED_RESULTS, CLAIMS)
    q.render_prose("From {{ spread.sd_small | sig(2) }} to {{ spread.sd_large | sig(3) }},\n"
                   "a factor {{ spread.ratio | sig(4) }}, near {{ spread.ratio_theory | sig(4) }}.\n")
    page = SimpleNamespace(source=Path("content/en/index.md"), quotes=q.log)
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        check_precision([page], seed=2)   # type: ignore[list-item]
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 1 and "shown as sig(3)" in said[0], said
    assert "this page of seed 2 shows sig(3) either way" in said[0], said
    assert "write sig(3) only to show them at every seed" in said[0], said


@pytest.mark.parametrize("source, said", [
    ("需要使用：{% asset_img timg.jpg This is an example image %}\n",
     "'{% asset_img … %}' is a Hexo tag, which this text does not know; write a figure the "
     "build draws"),
    ("{% codeblock lang:python %}\nx = 1\n{% endcodeblock %}\n", "a Hexo tag"),
    ("{% note success %}\n成功。\n{% endnote %}\n", "a Hexo (NexT) tag"),
    ("See {% post_link hello-world %}.\n", "a Hexo tag"),
])
def test_a_hexo_tag_is_named_with_what_to_write(source: str, said: str) -> None:
    """A Hexo post's `{% asset_img … %}` (a picture), `{% codeblock %}`, `{% note %}` (NexT's
    box) were told to be Liquid's, as in Jekyll, 'or another tool's', with the list of what
    the text knows: now named as Hexo's, with what to write for each."""
    e = error(source)
    assert said in e.message, e.message


@pytest.mark.cpu_timeout(60)    # linear: about a second; before, minutes (square of the length)
def test_a_quote_never_closed_before_many_paragraphs_is_told_in_linear_time() -> None:
    """The prose is compiled paragraph by paragraph, a piece never ending inside `{{ … }}`:
    after a `{{` never closed, each later paragraph counted the braces and lines of the
    whole piece again from that `{{` (80,000 paragraphs took minutes). The counts now go on
    from the paragraph before."""
    q = Quoter(P, RESULTS, CLAIMS)
    with pytest.raises(BuildError) as e:
        q.render_prose("Intro.\n\n{{ spread.sd_small | sig(3)\n\n" + "Words.\n\n" * 80000)
    assert "template syntax" in str(e.value), e.value


def test_the_pieces_of_the_prose_add_up_to_it_and_start_at_their_lines() -> None:
    """A piece ends after the blank lines of a paragraph, except inside `{{ … }}`."""
    from sqrtdk.web.quoting import _paragraphs, environments
    source = "a\n\nb {{ x\n\ny }} c\n\n\nd\n"
    pieces = _paragraphs(source, environments().prose)
    assert "".join(p for _, p in pieces) == source
    assert pieces == [(1, "a\n\n"), (3, "b {{ x\n\ny }} c\n\n"), (7, "\nd\n")]


@pytest.mark.parametrize("level", [0.1, 0.9, 0.125, 0.875, 0.0625, 1 / 3, 0.05])
def test_a_level_quoted_exact_reads_as_its_figure_s_key_prints_it(level: float) -> None:
    """A level the build sets (the gradient band's, RulerParams.band) is printed by its
    figure's key as the value has it, '{lo:g}' of round(100 * level, 6) (12.5 for 0.125),
    while pct(0) rounded it (12 %, or 13 %): set to a level that is no whole percent, the
    prose and the key disagreed. `exact=True` prints at least the digits asked and as many
    more as the value has, so the two read alike."""
    q = Quoter(P, {"band": {"lo": level}, "meta": {"bounds": {}}}, CLAIMS)
    shown = strip_markers(q.render_prose("{{ band.lo | pct(0, exact=True) }}"))
    assert shown == f"{round(100 * level, 6):g}%", shown
    fixed = strip_markers(q.render_prose("{{ band.lo | fixed(1, exact=True) }}"))
    assert float(fixed) == round(level, 6) and len(fixed.split(".")[1]) >= 1, fixed


def test_exact_is_refused_where_it_means_nothing() -> None:
    for source in ("{{ spread.n_pairs | grouped(exact=True) }}",
                   "{{ spread.sd_small | sig(3, exact=True) }}",
                   "{{ share.p | pct(0, exact=1) }}"):
        e = error(source)
        assert "exact=True" in e.message and "fixed() and pct()" in e.message, e.message


GRID_RESULTS: dict[str, Any] = {        # paths as science/outputs declares them
    "rulers": {"d_k": [4, 8, 16, 32], "quoted": {"d": 8},
               "winner_share": {"raw": [0.5, 0.6, 0.7, 0.8]}},
    "spread": {"d_k": [4, 8, 16, 32], "grid": {"sd": {"raw": [[1.0, 2.0, 3.0]] * 4}}},
    "saturation": {"scores": [1.0, 2.0, 3.0, 4.0, 5.0]},
    "meta": {"bounds": {}},
}


def _told(caplog: pytest.LogCaptureFixture, quote: str, formula: bool,
          around: tuple[str, str] = ("At d, ", " it is.")) -> list[str]:
    """The warnings a Quoter over GRID_RESULTS gives for `quote`, in a formula of a file's
    line 7 (`formula`) or in prose at its line 3, between the words `around`."""
    caplog.clear()
    q = Quoter(P, GRID_RESULTS, CLAIMS)
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        if formula:
            q.render_formula(RawFormula(0, "x = " + quote, False, 7))
        else:
            q.render_prose("Some text.\n\n" + around[0] + quote + around[1] + "\n")
    return [r.getMessage() for r in caplog.records]


@pytest.mark.parametrize("quote, warned", [
    ("{{ rulers.d_k[2] | grouped }}", "rulers.d_k[2]"),
    ("{{ rulers.winner_share.raw[3] | fixed(2) }}", "rulers.winner_share.raw[3]"),
    ("{{ rulers['winner_share'].raw[-2] | fixed(2) }}", "rulers.winner_share.raw[-2]"),
    ("{{ spread.grid.sd.raw[3][0] | fixed(2) }}", "spread.grid.sd.raw[3]"),
    ("{{ rulers.d_k[0] | grouped }} to {{ rulers.d_k[-1] | grouped }}", None),
    ("{{ rulers.winner_share.raw[-1] | fixed(2) }} at {{ rulers.quoted.d | grouped }}", None),
    ("{{ spread.grid.sd.raw[-1][2] | fixed(2) }}", None),      # a batch, not a d
    ("{{ saturation.scores[2] | fixed(2) }}", None),         # the row's positions, not a d
    # written otherwise: Jinja reads `raw.2` and `raw[+2]` as `raw[2]`, and `raw[i]` after
    # `{% set i = 2 %}` picks that place too (the check looked for a '[' and a bare number)
    ("{{ rulers.winner_share.raw.2 | fixed(2) }}", "rulers.winner_share.raw[2]"),
    ("{{ rulers.winner_share.raw . 2 | fixed(2) }}", "rulers.winner_share.raw[2]"),
    ("{{ rulers.winner_share.raw[+2] | fixed(2) }}", "rulers.winner_share.raw[2]"),
    ("{% set i = 2 %}{{ rulers.winner_share.raw[i] | fixed(2) }}",
     "rulers.winner_share.raw[2]"),
    ("{{ rulers.winner_share.raw.0 | fixed(2) }}", None),
    ("{% set i = -1 %}{{ rulers.winner_share.raw[i] | fixed(2) }}", None),
    ("{{ spread.grid.sd.raw.0.2 | fixed(2) }}", None),      # a batch, not a d
], ids=["grid", "per d", "bracketed, from the end", "outer level", "first and last", "named",
        "inner level", "not along d",
        "dotted", "dotted, spaced", "plus sign", "set to a place", "dotted first",
        "set to the last", "dotted inner level"])
def test_a_quote_by_position_along_a_grid_is_warned_about(
        caplog: pytest.LogCaptureFixture, quote: str, warned: str | None) -> None:
    """`{{ gradient.p10.raw[8] }}` meant "at the last d" (and `rulers.d_k[4]` "the quoted
    d"): with 2048 added to the grid it quoted another value, silently. A warning at the
    quote's line (prose and formula), saying what the index means and what to write."""
    for formula in (False, True):
        if formula and "{%" in quote:
            continue        # a formula holds quotes only
        said = _told(caplog, quote, formula)
        if warned is None:
            assert said == [], said
            continue
        line = 7 if formula else 3
        assert len(said) == 1 and f":{line}:" in said[0] and warned in said[0], said
        path = warned.split("[")[0]
        assert f"{path}[-1] for the last" in said[0] and "named result" in said[0], said


@pytest.mark.parametrize(("value", "shown"), [(1e-7, "0.0000001"), (-2.5e-8, "−0.000000025"),
                                              (0.1 + 0.2, "0.3")])
def test_exact_never_prints_a_small_value_as_zero(value: float, shown: str) -> None:
    """fixed(exact=True) rounded the value to 6 decimals before counting its digits, so a
    value below 5e-7 (a threshold of 1e-7) counted none and printed as 0, a value it is not.
    It counts the value's 6 significant digits, as its docstring says."""
    q = Quoter(P, {"band": {"lo": value}, "meta": {"bounds": {}}}, CLAIMS)
    got = strip_markers(q.render_prose("{{ band.lo | fixed(0, exact=True) }}"))
    assert got == shown, got


ROW = "".join(f"| {{{{ saturation.scores[{i}] | fixed(2) }}}} " for i in range(3)) + "|"


@pytest.mark.parametrize("quote, warned", [
    (ROW, "[3], [4]"),
    ("{{ saturation.scores[0] | fixed(2) }},\n{{ saturation.scores[-2] | fixed(2) }}", "[1], [2], [4]"),
    ("".join(f"{{{{ saturation.scores[{i}] | fixed(2) }}}} " for i in range(5)), None),
    ("{{ saturation.scores[0] | fixed(2) }} to {{ saturation.scores[-1] | fixed(2) }}", None),
    ("{{ saturation.scores[2] | fixed(2) }}", None),
], ids=["a row short of the list", "over two lines", "every place", "first and last",
        "one place"])
def test_quotes_by_place_that_leave_part_of_a_list_out_are_warned_about(
        caplog: pytest.LogCaptureFixture, quote: str, warned: str | None) -> None:
    """A table row quoting `saturation.scores[0]` to `[7]` showed eight of the row's scores,
    silently, once SaturationParams.scores had ten (and an alt text naming panels [0] to [2]
    left a fourth panel out). A warning at the line of the last quote of the piece, naming
    the places left out; none where the quotes cover the list, name its first and last, or
    one place alone."""
    for formula in (False, True):
        said = _told(caplog, quote, formula, around=("", ""))
        if warned is None:
            assert said == [], said
            continue
        line = (7 if formula else 3) + quote.count("\n")
        assert len(said) == 1 and f":{line}:" in said[0], said
        assert f"so {warned} are shown nowhere" in said[0] and "saturation.scores" in said[0], said


def test_a_loop_over_a_list_of_results_quotes_each_value() -> None:
    """`{% for s in saturation.scores %}{{ s | fixed(2) }} |{% endfor %}` writes a table row
    once for every value, however many the parameters give (a row of `[0]` to `[7]` showed
    eight of ten, silently); each value keeps its path. Before, the loop failed past the end:
    "no result 'saturation.scores.5'". A loop over a table of results is told at its line."""
    q = Quoter(P, GRID_RESULTS, CLAIMS)
    html = q.render_prose("| {% for s in saturation.scores %}{{ s | fixed(1) }} | {% endfor %}\n")
    assert strip_markers(html).split() == ["|", "1.0", "|", "2.0", "|", "3.0", "|", "4.0",
                                           "|", "5.0", "|"], html
    assert [k for k, _, _ in q.log.entries] == [f"saturation.scores.{i}" for i in range(5)]
    with pytest.raises(BuildError) as raised:
        Quoter(P, GRID_RESULTS, CLAIMS).render_prose(
            "Text.\n\n{% for s in rulers.quoted %}{{ s }}{% endfor %}\n")
    e = raised.value
    assert e.line == 3 and "rulers.quoted" in e.message and "not a list" in e.message, e


def test_a_place_past_the_end_of_a_list_says_what_to_write() -> None:
    """With SaturationParams.scores given six values the table's `saturation.scores[6]` and
    `[7]` were told ("no result 'saturation.scores.6'; ... indices 0..5") without what to
    write: a place it has, [-1] for the last, or a loop over the list."""
    with pytest.raises(BuildError) as raised:
        Quoter(P, GRID_RESULTS, CLAIMS).render_prose(
            "Text.\n\n{{ saturation.scores[5] | fixed(2) }}\n")
    e = raised.value
    assert e.line == 3 and "indices 0..4" in e.message, e
    assert "saturation.scores[-1]" in e.message and "{% for v in saturation.scores %}" in \
        e.message, e


@pytest.mark.parametrize("value", [1.5e-12, 1e-20, -3e-14])
def test_exact_refuses_a_value_its_decimals_cannot_print_whole(value: float) -> None:
    """fixed(exact=True) tried up to 12 decimals for the value's own digits and, finding
    none that print it whole, printed it at 12 all the same: 1.5e-12 as 0.000000000002 and
    1e-20 as 0.000000000000, values it is not, with exit 0 (a threshold the science lets an
    author set: RulerParams.grad_threshold is any length above 0). An error at the quote's
    line, naming sig(), which prints such a value's own digits."""
    q = Quoter(P, {"band": {"lo": value}, "meta": {"bounds": {}}}, CLAIMS)
    with pytest.raises(BuildError) as e:
        q.render_prose("Some text.\n\nAt {{ band.lo | fixed(0, exact=True) }} it is.\n")
    assert e.value.line == 3 and "band.lo" in e.value.message and "sig(" in e.value.message, \
        e.value


def test_a_slice_of_results_is_told_as_such() -> None:
    """A slice of a list of results stopped the build with "no result
    'rulers.winner_share.raw.slice(1, 3, None)'": it is told as what it is, at its line. (A
    loop over a whole list quotes each value: test_a_loop_over_a_list_of_results_quotes_each_value.)"""
    q = Quoter(P, GRID_RESULTS, CLAIMS)
    source = "{% for v in rulers.winner_share.raw[1:3] %}{{ v | fixed(2) }}{% endfor %}"
    with pytest.raises(BuildError) as e:
        q.render_prose("Some text.\n\nAt d, " + source + " it is.\n")
    assert e.value.line == 3 and "slice" in e.value.message, e.value
    assert "slice(" not in e.value.message, e.value
