"""A claim marker inside a figure's alt text or its caption (the image's title) is a claim
like any other: a claim that does not hold there stops the build at the figure's line, the
languages' parity check counts it in its section, and the page keeps no marker of it."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import BODY_START, page

from sqrtdk.errors import BuildError
from sqrtdk.web.checks import check_claims, check_parity
from sqrtdk.web.markers import CLAIM_RE
from sqrtdk.web.quoting import mark_quotes

CLAIM = '{{ claim("a.b") }}'
# where the marker sits: in the alt text, or in the caption
FIGURES = {
    "alt text": f'![It rises.{CLAIM}](spread_hist.svg "It is drawn.")',
    "caption": f'![It is drawn.](spread_hist.svg "It rises.{CLAIM}")',
}
WITHOUT = '![It is drawn.](spread_hist.svg "It is drawn.")'


def results(held: bool) -> dict[str, Any]:
    return {"claims": {"a.b": {"held": held, "statement": "it rises", "value": -1.0,
                               "op": ">=", "bound": 0.0, "unit": "rise"}},
            "meta": {"seed": 7, "bounds": {}}}


def body(figure: str) -> str:
    return f"## One {{#one}}\n\nText.\n\n{figure}\n"


FIGURE_LINE = BODY_START + body("X").split("\n").index("X")


@pytest.mark.parametrize("where", FIGURES)
def test_a_claim_that_fails_in_a_figure_stops_the_build_at_the_figure(
        tmp_path: Path, where: str) -> None:
    built = page(tmp_path, body(FIGURES[where]), results(False))
    with pytest.raises(BuildError) as e:
        check_claims([built], results(False))
    assert e.value.line == FIGURE_LINE and "'a.b'" in e.value.message, str(e.value)
    check_claims([page(tmp_path, body(FIGURES[where]), results(True))], results(True))


@pytest.mark.parametrize("where", FIGURES)
def test_a_claim_in_a_figure_leaves_no_marker_in_the_page(tmp_path: Path, where: str) -> None:
    built = page(tmp_path, body(FIGURES[where]), results(True))
    html = mark_quotes(built.body, built.quotes)       # as the page is written
    assert built.quotes.claims == ["a.b"] and not CLAIM_RE.search(html), html
    assert "claim" not in html and ('alt="It rises."' in html or "It rises.</span>" in html), html


@pytest.mark.parametrize("where", FIGURES)
@pytest.mark.parametrize("extra_in", ["en", "zh"])
def test_the_languages_must_rely_on_a_figure_s_claim_alike(tmp_path: Path, where: str,
                                                           extra_in: str) -> None:
    with_claim, without = body(FIGURES[where]), body(WITHOUT)
    en, zh = (with_claim, without) if extra_in == "en" else (without, with_claim)
    pages = [page(tmp_path, en, results(True), lang="en", name="en.md"),
             page(tmp_path, zh, results(True), lang="zh", name="zh.md")]
    with pytest.raises(BuildError) as e:
        check_parity(pages)
    assert e.value.path.name == f"{extra_in}.md" and e.value.line == FIGURE_LINE, str(e.value)
    assert "a.b" in e.value.message, e.value.message
    both = [page(tmp_path, with_claim, results(True), lang="en", name="en.md"),
            page(tmp_path, with_claim, results(True), lang="zh", name="zh.md")]
    check_parity(both)
