"""The dₖ bar's slider and sheet 2's scale slider for screen readers, keyboards and pointers
(issue 20, item 2; the WAI-ARIA APG slider pattern): what a screen reader hears as a slider's
value is the value the page shows beside it ("dₖ = 64", "×16.0"), said once; keys and a
pointer drag move it. Every expected value comes from results.json and the page's own
formatting (sqrtdk.web.quoting); nothing depends on the article's wording."""
from __future__ import annotations

import re
from typing import Any

import pytest
import sliders
from browser import PHONE, ax_node

from sqrtdk.web.embed import start_state
from sqrtdk.web.quoting import format_number

pytestmark = pytest.mark.browser
LANGS = ("en", "zh")
DESKTOP = {"width": 1280, "height": 900}
SLIDERS = ("#dk-input", "#scale-input")
# the text shown beside each slider, which its value text must be
SHOWN = {"#dk-input": ".dk-bar .dk-value", "#scale-input": "#fig-saturation-bars .widget-value"}


def grid(results: dict[str, Any], selector: str) -> list[float]:
    """The values a slider's steps stand for: dₖ, or the scale."""
    return list(results["spread"]["d_k"] if selector == "#dk-input" else results["saturation"]["scales"])


def shown_as(results: dict[str, Any], selector: str, step: int) -> str:
    """The value as the page writes it beside the slider (explainer.js: "dₖ = " and dₖ
    grouped, "×" and the scale to 3 significant figures)."""
    v = grid(results, selector)[step]
    return "dₖ = " + format_number("grouped", v) if selector == "#dk-input" else "×" + format_number("sig", v, 3)


# ------------------------------------------------------------- the tree a screen reader gets

# one slider's line of chrome://accessibility's Linux tree, as chromium 156 prints it:
# [slider] name='…' … valuetext:dₖ = 64 current=64.000000 minimum=8.000000 maximum=1024.000000
SLIDER_LINE = re.compile(r"\[slider\] name='(?P<name>[^']*)'(?P<rest>.*)")
ATTRIBUTE = r"(?:^|\s){}[=:](?P<v>.*?)(?=\s[\w-]+[=:]|$)"


def platform_sliders(tree: str) -> dict[str, dict[str, str]]:
    """name -> {attribute: text} of every slider in a printed platform tree."""
    out = {}
    for line in tree.splitlines():
        m = SLIDER_LINE.search(line)
        if m:
            out[m["name"]] = {k: a["v"] for k in ("valuetext", "current", "minimum", "maximum",
                                                   "description")
                              if (a := re.search(ATTRIBUTE.format(k), m["rest"]))}
    return out


class PlatformTree:
    """chrome://accessibility beside the page, printing the page's tree in the platform's
    terms (only the attributes about values and descriptions)."""

    def __init__(self, page: Any, url: str):
        self.inspector = page.context.new_page()
        self.inspector.goto("chrome://accessibility", wait_until="load")
        options = self.inspector.locator("select").evaluate("s => [...s.options].map(o => o.value)")
        if "linux" not in options:
            pytest.skip(f"this chromium prints no Linux accessibility tree ({options})")
        self.inspector.select_option("select", "linux")
        self.inspector.fill("#filter-allow", "valuetext* current* minimum* maximum* description*")
        self.row = self.inspector.locator(".row").filter(has_text=url).first
        self.text = ""

    def read(self) -> dict[str, dict[str, str]]:
        """The sliders as the platform's tree has them now (chromium takes seconds to print a
        long page's tree: it is printed once per state)."""
        button = "Refresh accessibility tree" if self.text else "Show accessibility tree"
        self.row.get_by_text(button).click()
        self.inspector.wait_for_function(
            """([row, old]) => { const pre = row.querySelector('pre');
                return pre && pre.innerText.includes('[slider]') && pre.innerText !== old; }""",
            arg=[self.row.element_handle(), self.text], timeout=60_000)
        self.text = self.row.locator("pre").inner_text()
        return platform_sliders(self.text)


# chromium takes 7-15 s to print the tree of a long page: one print per case, each case a
# language and the sliders' state (as loaded, or moved by keys to opposite ends)
CASES = [("en", {}), ("zh", {"#dk-input": "End", "#scale-input": "Home"})]


@pytest.mark.slow
@pytest.mark.parametrize(("lang", "moves"), CASES, ids=["en-as-loaded", "zh-moved"])
def test_a_screen_reader_hears_each_sliders_value_as_shown_once(platform_browser, served,
                                                                 site_build, lang: str,
                                                                 moves: dict[str, str]) -> None:
    """In the tree the platform's screen readers get, each slider (named by its visible
    label) has as its value text exactly what the page shows beside it, as its value the
    number itself (dₖ, the scale: never the step on the grid), the grid's ends as its bounds,
    and no description saying the value a second time."""
    results = site_build["results"]
    context = platform_browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        page.goto(f"{served}{lang}/index.html", wait_until="load")
        page.wait_for_selector("html[data-ready]", state="attached")
        names = {s: page.locator(f"#{page.locator(s).get_attribute('aria-labelledby')}")
                 .text_content().strip() for s in SLIDERS}
        start = start_state(results)
        steps = {"#dk-input": start["i"], "#scale-input": start["m"]}
        for selector, key in moves.items():
            page.locator(selector).focus()
            page.keyboard.press(key)
            steps[selector] = sliders.bounds(page, selector)[key == "End"]
        seen = PlatformTree(page, page.url).read()
        for selector, name in names.items():
            at = steps[selector]
            assert name in seen, (name, seen)
            node, values = seen[name], grid(results, selector)
            lo, hi = sliders.bounds(page, selector)
            assert sliders.step(page, selector) == at, selector
            assert page.locator(SHOWN[selector]).text_content() == shown_as(results, selector, at)
            assert node.get("valuetext") == shown_as(results, selector, at), (selector, node)
            assert float(node["current"]) == pytest.approx(values[at], rel=1e-6), (selector, node)
            assert float(node["minimum"]) == pytest.approx(values[lo], rel=1e-6), (selector, node)
            assert float(node["maximum"]) == pytest.approx(values[hi], rel=1e-6), (selector, node)
            assert "description" not in node, (selector, node)
    finally:
        context.close()


# ------------------------------------------------------------------- keys (the APG's table)

def factor_of_4(values: list[float]) -> int:
    """Page Up/Down's move: the fewest steps that multiply the value by 4 or more."""
    return next(k for k in range(1, len(values)) if values[k] >= 4 * values[0] * (1 - 1e-9))


# each key and its move: one step up or down, a page (a factor of 4) up or down, an end; at
# an end a key that would go past it stays there
KEYS = [("ArrowRight", "+"), ("ArrowUp", "+"), ("PageUp", "++"), ("ArrowLeft", "-"),
        ("ArrowDown", "-"), ("PageDown", "--"), ("End", "end"), ("ArrowUp", "+"),
        ("PageUp", "++"), ("PageDown", "--"), ("Home", "home"), ("ArrowLeft", "-"),
        ("PageDown", "--")]


@pytest.mark.parametrize("lang", LANGS)
def test_keys_move_each_slider_as_the_apg_says_and_the_tree_follows(visit, site_build,
                                                                    lang: str) -> None:
    """Right and Up one step up, Left and Down one step down, Page Up and Page Down a factor of
    4, Home and End the ends (the APG's slider keys), none of them left to scroll the page; after
    each, the tree's value is the grid's value at that step and aria-valuetext the text shown
    beside the slider, with no description."""
    results = site_build["results"]
    page = visit(viewport=DESKTOP).open(f"{lang}/index.html")
    # whether the page's own handling of each key (scrolling) was stopped
    page.evaluate("""() => { window.keysKept = [];
        addEventListener('keydown', e => keysKept.push([e.key, e.defaultPrevented])); }""")
    for selector in SLIDERS:
        values = grid(results, selector)
        page_step = factor_of_4(values)
        lo, hi = sliders.bounds(page, selector)
        page.locator(selector).focus()
        page.keyboard.press("Home")
        page.evaluate("window.keysKept = []")
        want = lo
        for key, sign in KEYS:
            page.keyboard.press(key)
            delta = {"+": 1, "-": -1, "++": page_step, "--": -page_step}.get(sign)
            want = (hi if sign == "end" else lo) if delta is None else min(hi, max(lo, want + delta))
            assert sliders.step(page, selector) == want, (selector, key)
            node = ax_node(page, selector)
            assert node["role"] == "slider" and node["name"], node
            assert node["value"] == pytest.approx(values[want], rel=1e-6), (selector, key, node)
            assert not node["description"], node
            text = page.locator(selector).get_attribute("aria-valuetext")
            assert text == page.locator(SHOWN[selector]).text_content() == shown_as(results, selector, want)
        kept = page.evaluate("window.keysKept")        # the keys moved the slider only
        assert len(kept) == len(KEYS) and all(prevented for _, prevented in kept), (selector, kept)


# ------------------------------------------------------------------- pointers: mouse and touch

def thumb_centre(page: Any, selector: str) -> tuple[float, float]:
    box = page.locator(f"{selector} .slider-thumb").bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def ends(page: Any, selector: str) -> tuple[float, float, float]:
    """x of the track's left and right edges, y of its middle."""
    box = page.locator(selector).bounding_box()
    return box["x"], box["x"] + box["width"], box["y"] + box["height"] / 2


def test_a_mouse_drags_and_clicks_each_slider(visit, site_build) -> None:
    """A drag of the thumb to the track's right end gives the last step, to its left end the
    first; a click in the middle of the track the middle step (within one); what the tree
    and the text beside the slider say follows."""
    results = site_build["results"]
    page = visit(viewport=DESKTOP).open("en/index.html")
    for selector in reversed(SLIDERS):      # the sheet's in view shows the bar: then the bar's
        page.locator(selector).scroll_into_view_if_needed()
        page.wait_for_timeout(100)
        lo, hi = sliders.bounds(page, selector)
        left, right, y = ends(page, selector)
        for to, want in ((right + 40, hi), (left - 40, lo)):      # past the ends: clamped
            x0, y0 = thumb_centre(page, selector)
            page.mouse.move(x0, y0)
            page.mouse.down()
            page.mouse.move((x0 + to) / 2, y0 + 3, steps=4)       # a hand's drag wobbles
            page.mouse.move(to, y0 + 6, steps=4)
            page.mouse.up()
            assert sliders.step(page, selector) == want, (selector, to)
            assert ax_node(page, selector)["value"] == pytest.approx(grid(results, selector)[want])
        left, right, y = ends(page, selector)
        page.mouse.click((left + right) / 2, y)
        assert abs(sliders.step(page, selector) - (lo + hi) / 2) <= 1, selector
        assert page.locator(SHOWN[selector]).text_content() == shown_as(
            results, selector, sliders.step(page, selector))
        assert page.evaluate("document.activeElement.id") == selector[1:]   # the click focused it
        page.evaluate("document.activeElement.blur()")
        assert page.evaluate("document.activeElement === document.body")
        title = page.locator(selector).get_attribute("aria-labelledby")
        page.locator(f"#{title}").click()                   # its title focuses it, as a label
        assert page.evaluate("document.activeElement.id") == selector[1:], title


def test_a_finger_drags_each_slider_on_a_phone(visit, site_build) -> None:
    """A touch drag along the track moves the slider (touch-action lets the horizontal drag
    through to the page's script); the bar's slider stays focused, so its note shows."""
    page = visit(viewport=PHONE, is_mobile=True, has_touch=True).open("en/index.html")
    cdp = page.context.new_cdp_session(page)

    def touch(kind: str, x: float, y: float) -> None:
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [] if kind == "touchEnd"
                                              else [{"x": x, "y": y}]})
    for selector in reversed(SLIDERS):        # the sheet's in view shows the bar: then the bar's
        page.locator(selector).scroll_into_view_if_needed()
        page.wait_for_timeout(100)
        lo, hi = sliders.bounds(page, selector)
        for end, want in (("right", hi), ("left", lo)):
            x0, y0 = thumb_centre(page, selector)
            left, right, _ = ends(page, selector)
            to = right + 20 if end == "right" else left - 20
            touch("touchStart", x0, y0)
            for k in range(1, 6):
                touch("touchMove", x0 + (to - x0) * k / 5, y0 + k)
            touch("touchEnd", to, y0)
            assert sliders.step(page, selector) == want, (selector, end)
    cdp.detach()


def test_the_thumb_and_rail_show_in_forced_colours_and_the_focus_ring_is_drawn(visit) -> None:
    """In forced colours (Windows' high contrast, here its dark theme) the thumb and the rail
    keep a colour of their own, unlike the page's background; focused by the keyboard, a
    slider draws a ring."""
    page = visit(viewport=DESKTOP, color_scheme="dark", forced_colors="active").open("en/index.html")
    for selector in SLIDERS:
        el = page.locator(selector)
        colours = el.evaluate("""el => { const bg = getComputedStyle(document.body).backgroundColor;
            return [bg, getComputedStyle(el.querySelector('.slider-thumb')).backgroundColor,
                    getComputedStyle(el, '::before').backgroundColor,
                    getComputedStyle(el, '::before').backgroundImage]; }""")
        page_bg, thumb, rail, rail_image = colours
        assert thumb not in (page_bg, "rgba(0, 0, 0, 0)"), colours
        assert rail not in (page_bg, "rgba(0, 0, 0, 0)") and rail_image == "none", colours
        el.focus()
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.id") == selector[1:]
        ring = el.evaluate("el => [getComputedStyle(el).outlineStyle, parseFloat(getComputedStyle(el).outlineWidth)]")
        assert ring[0] != "none" and ring[1] >= 2, (selector, ring)
