"""The names the page puts together for screen readers (issue 20, item 6): a Chinese page's
read with Chinese punctuation (，：；（）, no space after), an English page's with English
punctuation, whatever the controls show. Read from the page's accessibility names; nothing
here depends on the article's wording or on how many charts it has."""
from __future__ import annotations

import re
from typing import Any

import pytest
import sliders

pytestmark = pytest.mark.browser

# every name an element carries in an attribute (aria-label, aria-valuetext), and the name
# of each chart the script draws (an SVG role=img inside a Try-it sheet)
NAMES = """() => [...document.querySelectorAll('[aria-label], [aria-valuetext]')].flatMap(el =>
    [el.getAttribute('aria-label'), el.getAttribute('aria-valuetext')].filter(Boolean))"""
CHARTS = """() => [...document.querySelectorAll('.widget svg[role=img]')]
    .map(el => el.getAttribute('aria-label'))"""
HAN = "\u3400-\u9fff"
# English punctuation as the page joins parts: a comma, colon or semicolon before a space, a
# parenthesis opened after a space or a Han character ("1,024" and "p(1 − p)" are no joins)
ENGLISH_JOIN = re.compile(rf"[,:;]\s|(?:^|(?<=[\s{HAN}]))\(")
CHINESE = re.compile("[，：；（）、]")


def names_in_two_views(page: Any) -> tuple[list[str], list[str]]:
    """Every name on the page, and the charts' names, as built and after the reader moved
    the dₖ bar to its other end and picked another ruler, through the controls."""
    names, charts = page.evaluate(NAMES), page.evaluate(CHARTS)
    (low, high), now = sliders.bounds(page, "#dk-input"), sliders.step(page, "#dk-input")
    sliders.move(page, "#dk-input", low if now == high else high)
    other = page.evaluate("""() => [...document.querySelectorAll('.dk-bar input[type=radio]')]
        .findIndex(r => !r.checked)""")
    page.locator(".dk-bar input[type=radio]").nth(other).check()
    return names + page.evaluate(NAMES), charts + page.evaluate(CHARTS)


def test_the_chinese_page_puts_its_names_together_with_chinese_punctuation(visit) -> None:
    page = visit().open("zh/index.html")
    names, charts = names_in_two_views(page)
    assert charts and all(re.search(r"\d", c) for c in charts), charts   # drawn by the script
    joined = [n for n in names if ENGLISH_JOIN.search(n)]
    assert joined == [], joined
    # between two Han characters, no space around full-width punctuation either
    spaced = [n for n in names if re.search(r"[，：；]\s|\s[，：；]", n)]
    assert spaced == [], spaced


def test_the_english_page_puts_its_names_together_with_english_punctuation(visit) -> None:
    page = visit().open("en/index.html")
    names, charts = names_in_two_views(page)
    assert charts and all(re.search(r"\d", c) for c in charts), charts
    chinese = [n for n in names if CHINESE.search(n)]
    assert chinese == [], chinese
