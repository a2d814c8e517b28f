"""A measured number typed by hand in the prose (sqrtdk/web/md_typed.py): told at its line in
each language, with a quote that builds and prints the same number when written in its place;
round numbers, constants, years, sections, versions, code, formulas and addresses stay quiet,
and so does a page that quotes no result. Small results of our own, not the build's."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from helpers import BODY_START, page

from sqrtdk.log import captured

RESULTS: dict[str, Any] = {
    "spread": {"d_k": [4, 16, 64, 1024], "sd_small": 2.0104, "sd_large": 22.6183,
               "n_pairs": 20000, "ratio": 11.2508, "theory": [2.0, 2.8284271, 4.0]},
    "share": {"p": 0.996231, "uniform": 0.125, "near_root": 0.7071234},
    "walk": {"drop": 24989.5, "section": 3.2104, "year": 2017.2, "odd": 3.1104,
             "near_eight": 2.8301},
    "meta": {"seed": 7, "bounds": {"share.p": [0.0, 1.0]}},
}
QUOTE = "The pairs: {{ spread.n_pairs | grouped }}.\n\n"     # the page quotes a result


def told(tmp_path: Path, body: str, lang: str = "en") -> list[str]:
    """The typed-number warnings of a page made of `body`."""
    with captured() as warned:
        page(tmp_path, body, RESULTS, lang=lang)
    return [w for w in warned if "typed by hand" in w]


def shown(tmp_path: Path, body: str, lang: str) -> list[str]:
    """The numbers the page's quotes show."""
    return [text for _, _, text in page(tmp_path, body, RESULTS, lang=lang).quotes.entries]


SENTENCES = {"en": "The spread reached {} in the end.\n",
             "zh": "\u6700\u540e\u6807\u51c6\u5dee\u8fbe\u5230 {}\u3002\n"}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("typed", ["22.62", "22.6", "2.010", "99.6%", "99.62%", "24,990",
                                   "0.99623"])
def test_a_measured_number_typed_by_hand_is_told_at_its_line_with_a_quote_that_builds(
        tmp_path: Path, lang: str, typed: str) -> None:
    """newbie20 copied measured numbers from the built page into both articles; nothing was
    said, and they went stale with the next change of a parameter or the seed."""
    body = QUOTE + SENTENCES[lang].format(typed)
    warned = told(tmp_path, body, lang)
    line = BODY_START + 2
    assert len(warned) == 1 and f":{line}: warning: '{typed}' typed by hand" in warned[0], \
        warned
    advice = re.search(r"quote it: (\{\{ .+? \}\})", warned[0])
    assert advice, warned[0]
    followed = QUOTE + SENTENCES[lang].format(advice.group(1))
    assert told(tmp_path, followed, lang) == []
    assert shown(tmp_path, followed, lang)[-1] == typed       # the same number, now quoted


def test_a_typed_number_is_told_in_a_list_a_table_a_note_and_a_caption(
        tmp_path: Path) -> None:
    body = (QUOTE + "- one item\n- it fell 24,990-fold\n\n| a | b |\n|---|---|\n| x | 22.62 |\n\n"
            "Text.[^n]\n\n![Alt](spread_hist.svg \"Caption: 99.6% of it\")\n\n"
            "[^n]: A note: 2.010 here.\n")
    lines = sorted(int(w.split(":")[1]) for w in told(tmp_path, body))
    assert lines == [BODY_START + 3, BODY_START + 7, BODY_START + 11, BODY_START + 13], lines


def test_the_advice_follows_the_format_the_page_quotes_the_result_with(tmp_path: Path) -> None:
    """A quote written apart from the page's other quotes of the result is a warning of its
    own (one quantity at one precision): the advice writes the page's format."""
    body = QUOTE + "Quoted: {{ spread.sd_large | sig(4) }}.\n\nTyped: 22.62 here.\n"
    (warned,) = told(tmp_path, body)
    assert "{{ spread.sd_large | sig(4) }}" in warned and f":{BODY_START + 4}:" in warned, warned


QUIET = [
    "4, 16, 64, 100, 0.5 and 1.0",            # small and round numbers
    "the grid 4, 16, 64 and 1,024",          # the d_k grid (whole numbers are parameters)
    "the year 2017",                          # a year: a filter prints 2,017
    "\u00a73.2.1 and section 3.2.1",          # a section number, a dotted run
    "Python 3.11, version 3.11, v3.11",       # versions
    "a footnote 4 and 20,000 pairs",          # few significant digits
    "0.125 of the weight",                    # a fraction of a power of two: 1/8
    "1/\u221a2 \u2248 0.707",                  # a constant, though a result prints so too
    "\u221a8 \u2248 2.83",                     # \u221ad of the theory
    "`22.62` in code",                        # code
    "$22.62$ in a formula",                   # math
    "[a link](https://example.com/22.62)",    # a link's address
    "{{ spread.sd_large | fixed(2) }} quoted",  # a quote
]


@pytest.mark.parametrize("text", QUIET)
def test_round_numbers_constants_and_what_is_not_prose_stay_quiet(tmp_path: Path,
                                                                   text: str) -> None:
    assert told(tmp_path, QUOTE + f"Here: {text}.\n") == []


def test_a_figure_its_caption_s_quotes_and_an_address_stay_quiet(tmp_path: Path) -> None:
    body = (QUOTE + "![SD {{ spread.sd_large | fixed(2) }}](spread_hist.svg \"SD "
            "{{ spread.sd_large | fixed(2) }} on one axis.\")\n\n[the data](data/sd-22.62.csv)\n")
    assert told(tmp_path, body) == []


def test_a_page_that_quotes_no_result_is_not_told(tmp_path: Path) -> None:
    """A source document converted as it is quotes nothing: its numbers are its own, even
    where it computed what the experiments compute."""
    assert told(tmp_path, "It reached 22.62 and 99.6%.\n") == []


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_advice_for_a_relation_s_operand_writes_the_relation_s_filter(
        tmp_path: Path, lang: str) -> None:
    """A paragraph relating a quotient to its operands writes one kind of number for all
    (sig(4)); a typed operand was told fixed(3), which prints the same digits, and the advice
    followed stopped the build ('two kinds of number')."""
    relation = {"en": "The SD {} grows to {{{{ spread.sd_large | sig(4) }}}}, a factor "
                      "{{{{ spread.ratio | sig(4) }}}}.\n",
                "zh": "\u6807\u51c6\u5dee\u4ece {} \u589e\u5230 {{{{ spread.sd_large | sig(4) }}}}"
                      "\uff0c\u500d\u6570 {{{{ spread.ratio | sig(4) }}}}\u3002\n"}[lang]
    (warned,) = told(tmp_path, QUOTE + relation.format("2.010"), lang)
    advice = re.search(r"quote it: (\{\{ .+? \}\})", warned)
    assert advice and "sig(4)" in advice.group(1), warned
    assert told(tmp_path, QUOTE + relation.format(advice.group(1)), lang) == []


@pytest.mark.parametrize("text", ["a 11.25x rise", "from 1.50-22.62 over d", "ranges 2.010-22.62"])
def test_a_factor_s_x_and_a_range_s_hyphen_do_not_hide_a_typed_number(tmp_path: Path,
                                                                       text: str) -> None:
    """'3.96x' (a factor as authors write it) and the second end of '2.01-7.94' were taken
    for a number glued to a letter and for a negative number's sign in a longer run."""
    typed = re.findall(r"11\.25|22\.62|2\.010", text)
    warned = told(tmp_path, QUOTE + f"Here: {text}.\n")
    assert [w.split("'")[1] for w in warned] == typed, warned


@pytest.mark.parametrize("text", ["1e-9 and 3e-4", "22.62x2 and 512x512", "0x2262",
                                  "a 11.25xl size"])
def test_a_power_of_ten_a_product_and_a_hex_number_stay_quiet(tmp_path: Path,
                                                             text: str) -> None:
    assert told(tmp_path, QUOTE + f"Here: {text}.\n") == []


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("typed", ["99.6 %", "99.6\uff05", "24990", "99.62 %"])
def test_the_warning_names_the_number_as_it_is_typed(tmp_path: Path, lang: str,
                                                     typed: str) -> None:
    """'87.9\uff05' or '87.9 %' was named as a filter prints it, '87.9%', which is not on the
    author's line; the advice, put in place of the number named, builds quiet."""
    body = QUOTE + SENTENCES[lang].format(typed)
    (warned,) = told(tmp_path, body, lang)
    assert f"'{typed}' typed by hand" in warned, warned
    advice = re.search(r"quote it: (\{\{ .+? \}\})", warned)
    assert advice, warned
    assert told(tmp_path, body.replace(typed, advice.group(1)), lang) == []


@pytest.mark.parametrize("text", ["\u7ea6 2.010 \u4e07\u5bf9", "22.62\u4ebf\u6b21",
                                  "2.010\u842c"])
def test_a_number_of_ten_thousands_in_chinese_stays_quiet(tmp_path: Path, text: str) -> None:
    """'2.01 \u4e07' is 20,100, not the result a filter prints as 2.01."""
    assert told(tmp_path, QUOTE + f"\u8fd9\u91cc\uff1a{text}\u3002\n", "zh") == []
