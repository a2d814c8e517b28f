"""A phone whose reader set the browser's text size to 200 % (Chrome's "font size" setting,
here through the DevTools protocol's default font size): the page's own bars must not take the
screen, and nothing may stick out past its edges. Nothing here depends on the article's
wording or on how many sections, figures or boxes it has."""
from __future__ import annotations

from typing import Any

import pytest
from browser import FRAMES, Parts, Visit, assert_jumps_land_clear, lay_out_everything

pytestmark = pytest.mark.browser
LANGS = ("en", "zh")
SMALL_PHONE = {"width": 360, "height": 640}
TEXT_PX = 32                 # the browser's default text size at 200 % (16 px at 100 %)
# the header and the dₖ bar together, with a Try-it box on screen: at most this share of the
# screen's height (they took 83 % once, leaving three lines of text)
BARS_SHARE = 0.5

OUTSIDE = """() => { const W = document.documentElement.clientWidth;
    // inside a box that scrolls sideways (a table, a formula's box) it is reached by scrolling
    const scrolls = el => { for (let p = el.parentElement; p; p = p.parentElement)
        if (/auto|scroll/.test(getComputedStyle(p).overflowX)) return true; return false; };
    const out = [];
    for (const el of document.querySelectorAll('.site-header *, .dk-bar *, article :is(h2, h3), article .nobr, article span.math')) {
        const r = el.getBoundingClientRect();
        if (r.width && el.checkVisibility() && (r.left < -1 || r.right > W + 1) && !scrolls(el))
            out.push(`${el.tagName}.${el.className} ${Math.round(r.left)}..${Math.round(r.right)}`
                     + ` ${el.textContent.trim().slice(0, 30)}`);
    }
    return out; }"""


def open_at_200_percent(v: Visit, lang: str) -> Any:
    page = v.page
    cdp = v.context.new_cdp_session(page)
    cdp.send("Page.enable")
    cdp.send("Page.setFontSizes", {"fontSizes": {"standard": TEXT_PX, "fixed": TEXT_PX * 13 // 16}})
    return v.open(f"{lang}/index.html")


@pytest.mark.parametrize("lang", LANGS)
def test_at_200_percent_text_on_a_small_phone_the_bars_leave_half_the_screen_and_nothing_is_cut(
        browser: Any, served: str, lang: str) -> None:
    v = Visit(browser, served, viewport=SMALL_PHONE, is_mobile=True, has_touch=True)
    try:
        page = open_at_200_percent(v, lang)
        assert page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)") \
            == TEXT_PX, "the text size setting did not reach the page: this test checks nothing"
        lay_out_everything(page)
        parts = Parts()
        with parts("nothing past the screen's edges"):
            assert page.evaluate(OUTSIDE) == []
        with parts("the page does not scroll sideways"):
            assert page.evaluate("document.documentElement.scrollWidth") <= SMALL_PHONE["width"]
        box = page.locator(".widget").first
        for _ in range(5):      # blocks above it laid out on the way move it
            box.scroll_into_view_if_needed()
            page.evaluate(FRAMES)
            if 0 <= box.bounding_box()["y"] < SMALL_PHONE["height"]:
                break
        page.locator(".dk-bar:not(.dk-away)").wait_for()
        page.evaluate(FRAMES)
        covered = page.evaluate("""() => { const H = innerHeight;
            const seen = r => Math.max(0, Math.min(r.bottom, H) - Math.max(r.top, 0));
            const h = document.querySelector('.site-header').getBoundingClientRect();
            const b = document.querySelector('.dk-bar').getBoundingClientRect();
            const pos = getComputedStyle(document.querySelector('.site-header')).position;
            return [(pos === 'static' ? 0 : seen(h)) + seen(b), H, b.top]; }""")
        with parts("the bars leave the text room"):
            assert covered[0] <= BARS_SHARE * covered[1], covered
        with parts("the bar is on screen"):
            assert 0 <= covered[2] < covered[1], covered
        with parts("the bar's controls are on screen"):
            assert page.evaluate(OUTSIDE) == []
        parts.done()
        assert v.problems == []
    finally:
        v.context.close()


# a phone at 125 % text (Chrome's "font size" setting), where the header still stays on
# screen but takes two rows: taller than the 2.9rem the bar's margin assumed for it
MID_TEXT_PX = 20


@pytest.mark.parametrize("lang", LANGS)
def test_at_125_percent_text_a_jump_lands_below_a_header_of_two_rows_and_the_bar(
        browser: Any, served: str, lang: str) -> None:
    """The bar's rule for targets measured the bar, not the header: where a larger text size
    wraps the sticky header to two rows (109 px), a heading reached by its link landed under
    the bar by ~40 px. The headings after the first figure (where the bar shows) are found
    from the page."""
    v = Visit(browser, served, viewport=SMALL_PHONE, is_mobile=True, has_touch=True)
    try:
        cdp = v.context.new_cdp_session(v.page)
        cdp.send("Page.enable")
        cdp.send("Page.setFontSizes", {"fontSizes": {"standard": MID_TEXT_PX,
                                                     "fixed": MID_TEXT_PX * 13 // 16}})
        page = v.open(f"{lang}/index.html")
        header = page.evaluate("""() => { const h = document.querySelector('.site-header');
            return [h.getBoundingClientRect().height, getComputedStyle(h).position]; }""")
        rem = page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)")
        assert header[1] == "sticky" and header[0] > 3.5 * rem, \
            f"the header is one row here {header}: this test checks nothing"
        targets = page.evaluate("""() => [...document.querySelectorAll('article h2[id], article h3[id]')]
            .filter(h => [...document.querySelectorAll('figure')].some(f =>
                f.compareDocumentPosition(h) & Node.DOCUMENT_POSITION_FOLLOWING))
            .map(h => h.id).slice(0, 3)""")
        assert targets
        assert_jumps_land_clear(page, targets)
        assert v.problems == []
    finally:
        v.context.close()
