"""The dₖ control for everyone and honest Try-it sheets at every state (issue 20, items 2-3).
Expected numbers come from results.json through sqrtdk.web.embed, never typed here; nothing
depends on the article's wording or on how many figures, sheets or sections it has."""
from __future__ import annotations

import math
import re
from typing import Any

import pytest
from browser import PHONE

from sqrtdk.web.embed import SLOTS, slot_text, start_state
from sqrtdk.web.quoting import bounds_for, format_number

pytestmark = pytest.mark.browser
LANGS = ("en", "zh")
TABS_FROM_THE_TOP = 6        # skip link, contents, language, theme: the bar comes next


def active(page: Any) -> str:
    return str(page.evaluate("document.activeElement.id || document.activeElement.className"))


@pytest.mark.parametrize("viewport", [PHONE, {"width": 1280, "height": 900}], ids=["phone", "desktop"])
def test_the_keyboard_reaches_the_bar_from_the_top_and_it_is_named(visit, viewport) -> None:
    page = visit(viewport=viewport).open("en/index.html")
    for _ in range(TABS_FROM_THE_TOP):
        page.keyboard.press("Tab")
        if active(page) == "dk-input":
            break
    assert active(page) == "dk-input"
    title = page.locator(".dk-bar .dk-title")
    assert title.is_visible() and title.bounding_box()["width"] > 20     # labelled on phones too
    slider = page.get_by_role("slider", name=title.text_content().strip())
    assert slider.count() == 1 and slider.get_attribute("aria-valuetext")
    box = page.locator(".dk-bar").bounding_box()
    assert box["height"] > 20 and box["y"] >= 0                           # on screen, not clipped


@pytest.mark.parametrize("lang", LANGS)
def test_every_try_it_box_leads_to_the_bar(visit, site_build, lang: str) -> None:
    page = visit().open(f"{lang}/index.html")
    widgets = page.locator(".widget")
    assert widgets.count() > 0
    for n in range(widgets.count()):
        page.evaluate("document.activeElement && document.activeElement.blur()")
        jump = widgets.nth(n).locator("[data-dk-jump]")
        jump.focus()
        page.keyboard.press("Enter")
        assert active(page) == "dk-input", n
        assert page.locator(".dk-bar").bounding_box()["height"] > 20


@pytest.mark.parametrize("lang", LANGS)
def test_the_bar_and_the_sheets_start_at_the_papers_dk_with_one_number_for_slider_and_mark(
        visit, site_build, lang: str) -> None:
    results = site_build["results"]
    start = start_state(results)
    assert results["spread"]["d_k"][start["i"]] == results["two_scores"]["d_k"]
    page = visit().open(f"{lang}/index.html")
    assert page.locator("#dk-input").input_value() == str(start["i"])
    assert page.locator("#scale-input").input_value() == str(start["m"])
    sheet = page.locator("#scale-input").locator("xpath=ancestor::*[contains(@class,'widget')]")
    shown = sheet.locator(".widget-value").text_content()
    mark = sheet.locator('[data-slot="mark"]').text_content()
    assert shown == "×" + mark == "×" + slot_text("mark", results, start)[0]


@pytest.mark.parametrize("lang", LANGS)
def test_formulas_mathml_says_the_numbers_the_reader_sees(visit, site_build, lang: str) -> None:
    results = site_build["results"]
    page = visit().open(f"{lang}/index.html")
    # the math engine's selectors, as the page gives them to its script (sqrtdk/web/math)
    check = """() => { const h = JSON.parse(document.getElementById('math-hooks').textContent);
        return [...document.querySelectorAll(h.formula)].filter(k => k.querySelector(`${h.drawn} [data-key]`))
        .map(k => [[...k.querySelectorAll(`${h.drawn} [data-key]`)].map(q => q.textContent),
                   k.querySelector(h.speech).textContent.replace(/\\s/g, '')]); }"""
    before = page.evaluate(check)
    if not before:
        pytest.skip("no formula quotes a number that follows dₖ")
    page.locator("#dk-input").focus()
    page.locator("#dk-input").fill(str(len(results["spread"]["d_k"]) - 1))
    after = page.evaluate(check)
    assert after != before
    for quotes, mathml in after:
        for q in quotes:
            assert q.replace("\u00a0", "") in mathml, (q, mathml)


def tick_step(labels: list[str]) -> float:
    values = [float(t.replace("−", "-").replace(",", "")) for t in labels]
    steps = {round(b - a, 9) for a, b in zip(values, values[1:])}
    assert len(steps) == 1, labels
    return steps.pop()


def check_sheets(page: Any, results: dict[str, Any], state: dict[str, Any]) -> None:
    """Every slot of every sheet as embed.slot_text gives it; sheet 1's ticks on a 1-2-5 step."""
    shown = page.evaluate("""() => [...document.querySelectorAll('.widget [data-slot]')]
        .map(el => [el.dataset.slot, el.textContent])""")
    assert shown
    for name, text in shown:
        if "{k}" in SLOTS[name][0]:
            continue                          # the scale slider's own sweep checks these
        assert text == slot_text(name, results, state)[0], (name, state)
    ticks = page.locator("#fig-spread-hist .widget svg.chart g text").all_text_contents()
    assert "0" in ticks and all(re.fullmatch(r"−?[\d,]+(\.\d+)?", t) for t in ticks), ticks
    step = tick_step(ticks)
    mantissa = step / 10 ** math.floor(math.log10(step))
    assert round(mantissa, 6) in (1, 2, 5), ticks


@pytest.mark.parametrize("lang", LANGS)
def test_every_sheet_is_honest_at_every_dk_and_ruler(visit, site_build, lang: str) -> None:
    results = site_build["results"]
    d_k, rulers = results["spread"]["d_k"], results["rulers"]["names"]
    page = visit().open(f"{lang}/index.html")
    for i in range(start_state(results)["s"] + 1, len(d_k)):
        for r in rulers:
            page.locator("#dk-input").focus()
            page.locator("#dk-input").fill(str(i))
            page.locator(f'.dk-bar input[value="{r}"]').check()
            state = {**start_state(results), "i": i, "r": r,
                     "m": results["saturation"]["scale_index"][r][i]}
            check_sheets(page, results, state)


@pytest.mark.parametrize("lang", LANGS)
def test_the_scale_slider_never_shows_a_bound_the_share_does_not_reach(visit, site_build,
                                                                       lang: str) -> None:
    results = site_build["results"]
    sa = results["saturation"]
    page = visit().open(f"{lang}/index.html")
    every = page.evaluate("""() => {
        const input = document.querySelector('#scale-input'), w = input.closest('.widget'), out = [];
        for (let k = +input.min; k <= +input.max; k++) {
            input.value = k; input.dispatchEvent(new Event('input'));
            out.push([k, w.querySelector('[data-slot="share"]').textContent,
                      w.querySelector('[data-slot="sens"]').textContent,
                      [...w.querySelectorAll('svg text.win')].map(t => t.textContent)]);
        }
        return out; }""")
    assert len(every) == len(sa["scales"])
    bounds = bounds_for("saturation.shares", results["meta"]["bounds"])
    assert bounds is not None
    shown_bounds = {format_number("pct", b, n) for b in bounds for n in range(13)}
    for k, share, sens, labels in every:
        state = {**start_state(results), "k": k}
        assert share == slot_text("share", results, state)[0], k
        assert sens == slot_text("sens", results, state)[0], k
        for text in labels:      # a softmax share never reaches 0 or 1 (embed.OPEN_BOUNDS)
            assert text not in shown_bounds, (k, text)
        assert share not in shown_bounds, k
        assert labels == [share], (k, labels, share)    # the winner's bar: the same quantity,
                                                         # the same precision as the readout
