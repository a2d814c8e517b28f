"""The reading experience in a real browser: the site built by the pipeline into a temporary
folder, served from 127.0.0.1 by a stdlib server, driven through Playwright in Debian's chromium.

Without chromium the browser tests are skipped locally and fail in CI (the environment variable
CI is set), so CI never passes by skipping them. Screenshots (light, dark, 360 px phone, print)
land in test-artifacts/ at the repository root (`make shots`; not part of `make test`).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import sliders
from browser import PHONE, Parts, fmt, lay_out_everything
from helpers import Tree

from sqrtdk.web.embed import SLOTS, explainer_data

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
AXE = Path(__file__).resolve().parent.parent / "node_modules" / "axe-core" / "axe.min.js"
LANGS = ("zh", "en")   # the site's languages (checked against site.toml below)
# `author` (run again on the author's copy, tests/test_author_copy.py) marks the tests whose
# outcome depends on the author's files (articles, strings, figure labels); those that
# exercise only the templates, the stylesheet or the scripts, which an author does not edit,
# run once, here.


@pytest.fixture(scope="module")
def built(site_build) -> dict[str, Any]:
    """The session's site (conftest's `site_build`)."""
    assert set(LANGS) <= set(site_build["languages"])
    return {"site": site_build["site"], "results": site_build["results"]}


_lay_out_everything = lay_out_everything


# ---------------------------------------------------------------- the embedded data (no browser)

@pytest.mark.author
@pytest.mark.parametrize("lang", LANGS)
def test_embedded_data_is_the_results_subset(built, lang):
    from sqrtdk.web.embed import DATA_FILE, read_data_script
    from sqrtdk.web.publish import unhashed_name
    html = (built["site"] / lang / "index.html").read_text(encoding="utf-8")
    scripts = [e["attrs"] for e in Tree(html).elements if e["tag"] == "script" and "src" in e["attrs"]]
    names = [unhashed_name(a["src"]) for a in scripts]      # in the order the page has them
    data = scripts[names.index(f"../{DATA_FILE}")]
    assert "defer" in data                                   # each page loads it, before the script
    assert names.index(f"../{DATA_FILE}") < names.index("../assets/explainer.js")
    text = (built["site"] / lang / data["src"]).read_text(encoding="utf-8")
    assert read_data_script(text) == explainer_data(built["results"])
    import gzip
    assert len(gzip.compress(text.encode("utf-8"))) < 40_000   # issue 10: under 40 KB gzipped


# ---------------------------------------------------------------- loading, formulas, requests

@pytest.mark.author
@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGS)
def test_page_loads_without_errors_and_the_slider_at_16x_shows_the_results(visit, built, lang):
    """Two checks on one load (one load instead of two): the page as loaded and laid out
    (formulas, images, no console error, no failed or outside request), then scale slider
    at ×16 (share and sensitivity as in results.json). Each is judged whatever the other
    found."""
    v = visit()
    page = v.open(f"{lang}/index.html")
    parts = Parts()
    with parts("the page loads without errors or outside requests"):
        _lay_out_everything(page)
        assert page.locator(".katex-error").count() == 0
        assert page.locator(".katex").count() > 30
        assert page.evaluate("[...document.images].every(i => i.complete && i.naturalWidth > 0)")
        assert v.problems == []
    with parts("the slider at ×16 shows the share and sensitivity of the results"):
        slider_at_16x(v, built["results"]["saturation"])
    parts.done()


@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGS)
def test_page_works_from_file_urls_too(browser, built, lang):
    # README: the site works offline, from file://. There chromium refuses the two font
    # preloads (CORS needs http), which is noise: the fonts load through the style sheet.
    page = browser.new_page()
    problems: list[str] = []
    page.on("console", lambda m: m.type in ("error", "warning") and "woff2" not in m.text
            and "net::ERR_FAILED" not in m.text and problems.append(m.text))
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto((built["site"] / lang / "index.html").as_uri())
    page.locator("#fig-spread-hist .widget .widget-button").click()
    assert page.locator(".katex").count() > 30 and problems == []
    assert page.evaluate("document.fonts.check('16px KaTeX_Main') && document.fonts.check('16px KaTeX_Math')")
    page.close()


@pytest.mark.browser
def test_root_page_picks_the_browser_language_and_lists_both_without_js(visit):
    for locale, lang in (("zh-CN", "zh"), ("en-US", "en")):
        v = visit(locale=locale)
        page = v.open("index.html")
        page.wait_for_url(f"**/{lang}/index.html")
        assert v.problems == []
    page = visit(java_script_enabled=False).open("index.html")
    assert page.locator("a[data-lang]").count() == len(LANGS)
    assert page.url.endswith("/index.html") and "/zh/" not in page.url and "/en/" not in page.url


@pytest.mark.author
@pytest.mark.browser
def test_without_js_no_controls_show_and_every_number_is_there(visit, built):
    v = visit(java_script_enabled=False)
    page = v.open("en/index.html")
    assert page.locator(".widget").count() == 0
    assert not page.locator("[data-theme-toggle]").is_visible()
    assert page.locator("#fig-saturation-bars img").is_visible()
    # every quote of this number (it may be quoted in several formats), each in its own
    assert v.shows("spread.sd_small", built["results"]["spread"]["sd_small"])


# ---------------------------------------------------------------- paper 2: the scale slider

def slider_at_16x(v: Any, sa: dict[str, Any]) -> None:
    """The scale slider moved to ×16 shows the share and sensitivity of the results."""
    page = v.page
    i = sa["scales"].index(16.0)
    slider = page.get_by_role("slider", name=page.locator("#scale-label").text_content(), exact=True)
    assert slider.count() == 1
    assert sliders.bounds(page, "#scale-input") == (0, len(sa["scales"]) - 1)
    sliders.move(page, "#scale-input", i)
    widget = page.locator("#fig-saturation-bars .widget")
    assert widget.locator('[data-slot="share"]').text_content() == fmt(SLOTS["share"][1],
                                                                       sa["p_winner"][i])
    assert widget.locator('[data-slot="sens"]').text_content() == fmt("sig:3", sa["sensitivity"][i])
    assert slider.get_attribute("aria-valuetext") == "×" + fmt("sig:3", 16.0)
    heights = widget.locator("rect.bar").evaluate_all("rs => rs.map(r => +r.getAttribute('height'))")
    assert heights == pytest.approx([110 * p for p in sa["shares"][i]], abs=1e-6)
    assert v.problems == []


@pytest.mark.browser
def test_slider_steps_through_the_whole_grid_by_keyboard(visit, built):
    page = visit().open("en/index.html")
    sa = built["results"]["saturation"]
    page.locator("#scale-input").focus()
    page.keyboard.press("Home")
    r = built["results"]
    shown = """() => [document.querySelector('#scale-input').getAttribute('aria-valuetext'),
        document.querySelector('#fig-saturation-bars .widget [data-slot="share"]').textContent,
        document.querySelector('#fig-saturation-bars .widget [data-slot="sens"]').textContent]"""
    from sqrtdk.web.embed import slot_text, start_state
    for i in range(len(sa["scales"])):
        if i:
            page.keyboard.press("ArrowRight")
        text, share, sens = page.evaluate(shown)     # one round trip per step
        assert text == "×" + fmt("sig:3", sa["scales"][i])
        state = {**start_state(r), "k": i}         # rounded as the sheets round (embed)
        assert share == slot_text("share", r, state)[0]
        assert sens == slot_text("sens", r, state)[0]


# ---------------------------------------------------------------- paper 1: draw another batch

@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGS)
def test_batch_button_steps_through_the_batches_and_back_to_all_of_them(visit, built, lang):
    v = visit()
    page = v.open(f"{lang}/index.html")
    batches, sp = built["results"]["spread"]["batches"], built["results"]["spread"]
    keys = [k for k in ("sd_small", "sd_large", "ratio") if v.quoted(f"spread.{k}")]
    assert keys, "the article quotes none of the sheet's SDs"
    button = page.locator("#fig-spread-hist .widget .widget-button")
    hist = page.locator("#fig-spread-hist .widget path.hist-small")
    shapes = {hist.get_attribute("d")}
    from sqrtdk.science.results import at
    from sqrtdk.web.embed import FOLLOW, resolve, start_state
    state = start_state(built["results"])     # the sheet's view; the text follows it once moved

    def pooled(k: str) -> float:
        return float(at(built["results"], resolve(FOLLOW[f"spread.{k}"], {**state, "b": 0})))
    assert v.shows(f"spread.{keys[0]}", sp[keys[0]])     # before any click: the page as built
    for b in range(batches["n"]):
        button.click()
        for k in keys:     # batch b + 1 of the sheet's view (0 is all batches pooled)
            path = resolve(FOLLOW[f"spread.{k}"], {**state, "b": b + 1})
            assert v.shows(f"spread.{k}", at(built["results"], path)), (k, b, v.quoted(f"spread.{k}"))
        shapes.add(hist.get_attribute("d"))
    assert len(shapes) == batches["n"] + 1
    button.click()          # after the last batch: all of them again, as the text says
    for k in keys:
        assert v.shows(f"spread.{k}", pooled(k)), (k, v.quoted(f"spread.{k}"))
    page.reload()           # the URL keeps the view the reader moved to
    assert v.shows(f"spread.{keys[0]}", pooled(keys[0]))
    assert v.problems == []


# ---------------------------------------------------------------- footnotes

def _note_text(page: Any, ref: Any) -> str:
    """The text of the note a reference points to, without its back-link."""
    note_id = ref.get_attribute("href").lstrip("#")
    return page.locator(f'[id="{note_id}"]').evaluate(
        "li => { const c = li.cloneNode(true); c.querySelector('.footnote-backref')?.remove();"
        " return c.textContent.trim(); }")


@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGS)
def test_footnote_popover_on_hover_and_on_keyboard_focus(visit, lang):
    v = visit()
    page = v.open(f"{lang}/index.html")
    pop = page.locator("#fn-pop")
    ref = page.locator("a.footnote-ref").nth(1)
    ref.hover()
    assert pop.is_visible() and pop.get_attribute("role") == "tooltip"
    assert pop.text_content().strip() == _note_text(page, ref)
    assert ref.get_attribute("aria-describedby") == "fn-pop"
    assert pop.locator(".footnote-backref").count() == 0
    page.mouse.move(0, 0)
    pop.wait_for(state="hidden")
    # keyboard: Tab reaches the first reference, focus shows its note, Escape hides it
    first = page.locator("a.footnote-ref").first
    for _ in range(200):
        page.keyboard.press("Tab")
        if first.evaluate("a => a === document.activeElement"):
            break
    else:
        pytest.fail("Tab never reached the first footnote reference")
    assert pop.is_visible()
    assert pop.text_content().strip() == _note_text(page, first)
    assert pop.locator(".katex").count() > 0   # the note's math comes along
    page.keyboard.press("Escape")
    assert pop.is_hidden() and first.get_attribute("aria-describedby") is None
    # Tab on from a reference: its note goes with the focus, at once (it stayed a quarter
    # of a second, the pointer's grace to reach it, over what took the focus next)
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")
    assert pop.is_visible()
    page.keyboard.press("Tab")
    assert pop.is_hidden() and first.get_attribute("aria-describedby") is None
    assert v.problems == []


@pytest.mark.browser
def test_footnote_tap_shows_and_second_tap_hides(visit):
    page = visit(has_touch=True, is_mobile=True, viewport=PHONE).open("en/index.html")
    ref, pop = page.locator("a.footnote-ref").first, page.locator("#fn-pop")
    url = page.url
    ref.tap()
    assert pop.is_visible() and page.url == url
    box, vw = pop.bounding_box(), page.viewport_size["width"]
    assert box["x"] >= 0 and box["x"] + box["width"] <= vw
    ref.tap()
    assert pop.is_hidden()
    ref.tap()
    page.locator("h1").tap()
    assert pop.is_hidden()


# ---------------------------------------------------------------- language switch

@pytest.mark.author
@pytest.mark.browser
def test_language_switch_lands_on_the_same_section(visit):
    v = visit()
    page = v.open("en/index.html")
    ids = page.evaluate("[...document.querySelectorAll('article :is(h2, h3)[id]')].map(h => h.id)"
                        ".filter(id => id !== 'footnotes-title')")
    first = ids[1]
    # a later section long enough to read inside (150 px past its heading, the next heading
    # still below the reading line) and with enough page below it to scroll there
    later = page.evaluate("""() => {
        const hs = [...document.querySelectorAll('article :is(h2, h3)[id]')]
            .filter(h => h.id !== 'footnotes-title');
        const tops = hs.map(h => h.getBoundingClientRect().top + scrollY);
        const end = document.documentElement.scrollHeight;
        const fits = hs.filter((h, i) => i > 1 && (tops[i + 1] ?? end) - tops[i] > 150 + innerHeight / 3
                               && end - tops[i] > innerHeight + 150);
        return fits.length ? fits[fits.length - 1].id : null; }""")
    assert later, "no section long enough to read inside"
    page = v.open(f"en/index.html#{first}")
    page.locator("a[data-lang-switch]").click()
    page.wait_for_url(f"**/zh/index.html#{first}")
    page.wait_for_selector("html[data-ready]", state="attached")   # the sheets are in place
    # the section's heading lands under the fixed header and the dₖ bar, at the screen's top
    top, below, height = page.evaluate(f"""() => {{
        const bars = [...document.querySelectorAll('.site-header, .dk-bar')]
            .filter(b => !b.hidden && getComputedStyle(b).position !== 'static');
        return [document.getElementById('{first}').getBoundingClientRect().top,
                Math.max(0, ...bars.map(b => b.getBoundingClientRect().bottom)), innerHeight]; }}""")
    assert below - 1 <= top < height / 4, (top, below, height)
    # reading further down, without a hash: the last heading above the reading line counts
    page.evaluate(f"scrollTo(0, document.getElementById('{later}').offsetTop + 150)")
    page.locator("a[data-lang-switch]").click()
    page.wait_for_url(f"**/en/index.html#{later}")
    page.evaluate("scrollTo(0, 0)")
    page.locator("a[data-lang-switch]").click()
    page.wait_for_url("**/zh/index.html")
    assert page.url.endswith("/zh/index.html")
    assert v.problems == []


@pytest.mark.author
@pytest.mark.browser
def test_language_switch_from_inside_an_open_box_lands_in_that_box_opened(visit):
    """A reader deep inside an open box (a derivation, the note on real queries and keys)
    who switches language lands on that box, open, on the other page: not on the section's
    heading, a screen or more above it, with the box closed and the place lost. Only a box
    the reading line (a third of the way down the window) is inside counts."""
    v = visit(viewport=PHONE)
    page = v.open("en/index.html")
    # the article's box with an id that is tallest once open, read 150 px past its top
    box = page.evaluate("""() => {
        // a box's id: on the <details>, or on the div around its text (md_blocks.BoxTargets)
        const named = d => d.id || d.querySelector(':scope > .box[id]')?.id;
        const boxes = [...document.querySelectorAll('article details')].filter(named);
        boxes.forEach(d => { d.open = true; });
        const tall = boxes.map(d => [d.getBoundingClientRect().height, named(d)]).sort((a, b) => b[0] - a[0])[0];
        boxes.forEach(d => { d.open = false; });
        return tall && tall[0] > innerHeight / 3 + 200 ? tall[1] : null; }""")
    assert box, "no box tall enough to read inside"
    page.evaluate(f"""() => {{ const d = document.getElementById('{box}').closest('details'); d.open = true;
        scrollTo(0, d.getBoundingClientRect().top + scrollY - innerHeight / 3 + 150); }}""")
    page.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    page.locator("a[data-lang-switch]").click()
    page.wait_for_url(f"**/zh/index.html#{box}")
    page.wait_for_selector("html[data-ready]", state="attached")
    assert page.evaluate(f"document.getElementById('{box}').closest('details').open")
    # read past it (still open, its end just above the window), the box no longer holds the
    # reading line: a heading counts again
    page.evaluate(f"""() => {{ const d = document.getElementById('{box}').closest('details');
        scrollTo(0, d.getBoundingClientRect().bottom + scrollY + 50); }}""")
    page.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    page.locator("a[data-lang-switch]").click()
    page.wait_for_url("**/en/index.html#*")
    assert not page.url.endswith(f"#{box}")
    assert v.problems == []


# ---------------------------------------------------------------- phone, dark, accessibility

@pytest.mark.author
@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGS)
def test_at_360px_axe_finds_nothing_serious_and_nothing_scrolls_sideways(visit, lang):
    """Three checks on one load of the phone's page (one load instead of three): axe as
    test_axe_finds_no_serious_or_critical_violation runs it (the boxes closed, the scale at
    ×4) with its touch-target rule too; then, every box opened and the scale at its largest,
    nothing wider than the screen, and every target at least 24 × 24 px (TARGETS_TOO_SMALL).
    Then the same page narrowed to 320 px, the smallest phones in use: nothing wider than
    the screen either, and the sticky header still one row as tall as at 360 px (at 320 px
    its items did not fit: the language link and the theme button broke over two lines, the
    Chinese words inside a word, and the 75 px header hid the top of each heading a link
    scrolled to). Each is judged whatever the others found."""
    v = visit(bypass_csp=True, viewport=PHONE)   # the CSP bypass lets axe in (see below)
    page = v.open(f"{lang}/index.html")
    _lay_out_everything(page)
    bad = axe_violations(page, touch=True)
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
    small = page.evaluate(TARGETS_TOO_SMALL)
    sliders.move(page, "#scale-input", 32)
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    wide_js = """[...document.querySelectorAll('body *')].filter(el => {
        const r = el.getBoundingClientRect();
        return r.right > innerWidth + 0.5 && !el.closest('.math.display, table, pre, .hide-tail, .katex-mathml, .vh')
            && !el.ownerSVGElement;  // KaTeX's long svg strokes are clipped by .hide-tail
    }).map(el => el.tagName + '.' + el.getAttribute('class')).slice(0, 5)"""
    wide = page.evaluate(wide_js)
    header = page.evaluate(HEADER_ROW)
    page.set_viewport_size({"width": SMALLEST_PHONE, "height": PHONE["height"]})
    page.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    narrow_scroll_width = page.evaluate("document.documentElement.scrollWidth")
    narrow_wide = page.evaluate(wide_js)
    narrow_header = page.evaluate(HEADER_ROW)
    parts = Parts()
    with parts("axe: serious or critical violations"):
        assert bad == []
    with parts("no horizontal scrolling at 360 px"):
        assert scroll_width <= PHONE["width"]
        assert wide == []
    with parts("every target outside a sentence at least 24 x 24 px"):
        assert not small, f"{len(small)}: " + "; ".join(small)
    with parts(f"no horizontal scrolling at {SMALLEST_PHONE} px"):
        assert narrow_scroll_width <= SMALLEST_PHONE
        assert narrow_wide == []
    with parts(f"the header one row at {SMALLEST_PHONE} px, as at 360 px"):
        assert narrow_header["rows"] == 1 and narrow_header["height"] <= header["height"] + 0.5, \
            (header, narrow_header)
    parts.done()


SMALLEST_PHONE = 320    # CSS px: the narrowest phones in use (iPhone SE 1st gen, small Androids)
# the sticky header's height and how many rows its shown items take (an item starting below
# the bottom of those before it starts a row); an item whose words wrap makes it taller
HEADER_ROW = """() => { const h = document.querySelector('.site-header');
    const boxes = [...h.children].filter(el => el.getClientRects().length)
        .map(el => el.getBoundingClientRect()).sort((a, b) => a.top - b.top);
    let rows = 0, bottom = -Infinity;
    for (const r of boxes) { if (r.top >= bottom - 1) rows += 1; bottom = Math.max(bottom, r.bottom); }
    return {height: h.getBoundingClientRect().height, rows}; }"""


# Every target a finger can reach at least 24 x 24 CSS px of its own, the size WCAG 2.2's
# SC 2.5.8 asks for. Stricter than the SC, which also passes a smaller target with 24 px of
# room around it (axe's target-size rule, run above, checks the SC as written, and passed
# the targets a newcomer found too small to hit on a phone: a 16 px tall link, a 10 px wide
# "#"). Two things count as the SC says: a radio's or checkbox's target is the <label>
# around it (a tap on its words checks it), and a link inside a sentence is exempt (its
# height is the text's); a heading's own "#" link is not in a sentence. Invisible targets
# count (a heading's "#" is transparent until hovered, but a tap still follows it); those
# in closed boxes or hidden do not. Each entry: what, where, width x height.
TARGETS_TOO_SMALL = """() => {
    const display = el => getComputedStyle(el).display;
    const inSentence = el => {
        if (el.tagName !== 'A' || display(el) !== 'inline') return false;
        let block = el.parentElement;
        while (display(block) === 'inline' || display(block) === 'contents') block = block.parentElement;
        if (/^H[1-6]$/.test(block.tagName)) return false;
        return block.textContent.replace(el.textContent, '').trim() !== '';
    };
    return [...document.querySelectorAll(
            'a[href], button, input, select, textarea, summary, [role=slider]')]
        .filter(el => el.checkVisibility() && !inSentence(el))
        .map(el => {
            const target = el.matches('input') ? (el.closest('label') ?? el) : el;
            const r = target.getBoundingClientRect();
            return [r.width, r.height, target];
        })
        .filter(([w, h]) => w > 0 && h > 0 && (w < 23.995 || h < 23.995))
        .map(([w, h, t]) => `${t.tagName}.${t.className} "${t.textContent.trim().slice(0, 24)}"`
            + ` ${w.toFixed(1)} x ${h.toFixed(1)}`); }"""


def _background(page: Any) -> str:
    return page.evaluate("getComputedStyle(document.body).backgroundColor")


LIGHT_BG, DARK_BG = "rgb(253, 253, 252)", "rgb(22, 23, 27)"


@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGS)
def test_dark_system_gives_the_dark_page_and_axe_finds_nothing_serious_there(visit, lang):
    """Two checks on one load of the page in a dark system (one load instead of two): it is
    dark with the toggle offering light, and axe, run as on the light page, finds nothing serious.
    Each is judged whatever the other found."""
    page = visit(bypass_csp=True, color_scheme="dark").open(f"{lang}/index.html")
    parts = Parts()
    with parts("dark mode follows the system"):
        assert _background(page) == DARK_BG
        assert page.locator("[data-theme-toggle] .to-light").is_visible()   # it offers light
    with parts("axe: serious or critical violations"):
        _lay_out_everything(page)
        assert axe_violations(page) == []
    parts.done()


# Each visible element's text whose colour is under 7:1 against the background it sits on (the
# nearest opaque one), and each box or button edge under 3:1 against its parent's background;
# formulas, figures and charts aside (drawn in the text's colour or checked as figures)
_LOW_CONTRAST = """() => {
    const rgb = (s) => { const m = s.match(/[\\d.]+/g).map(Number); return m.length > 3 ? m : [...m, 1]; };
    const lum = (c) => c.slice(0, 3).map((v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
        .reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i], 0);
    const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
    const under = (el) => { for (let e = el; e; e = e.parentElement) {
        const c = rgb(getComputedStyle(e).backgroundColor); if (c[3] === 1) return c; }
        return [255, 255, 255, 1]; };
    const low = [];
    for (const el of document.body.querySelectorAll('*')) {
        if (el.closest('svg, .katex, img, [aria-hidden="true"]')
            || !el.checkVisibility({opacityProperty: true, visibilityProperty: true})) continue;
        const cs = getComputedStyle(el), name = el.tagName + '.' + el.className;
        if ([...el.childNodes].some((n) => n.nodeType === 3 && n.data.trim())) {
            const r = ratio(rgb(cs.color), under(el));
            if (r < 7) low.push(`text ${name} ${cs.color} ${r.toFixed(2)}`); }
        if (parseFloat(cs.borderTopWidth) > 0 && cs.borderTopStyle !== 'none' && rgb(cs.borderTopColor)[3] > 0) {
            const r = ratio(rgb(cs.borderTopColor), under(el.parentElement || el));
            if (r < 3) low.push(`edge ${name} ${cs.borderTopColor} ${r.toFixed(2)}`); }
    }
    return [...new Set(low)]; }"""


@pytest.mark.browser
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_more_contrast_asked_gives_text_at_7_to_1_and_edges_at_3_to_1_on_every_page(
        visit, built, scheme):
    """A reader whose system asks for more contrast (prefers-contrast: more) got the usual
    colours: muted text and links under 7:1 (WCAG 1.4.6), the edges of boxes and buttons at
    1.4:1, under the 3:1 of 1.4.11. On every page of the site, its boxes open, each text and
    edge reaches those ratios against what it is drawn on."""
    site = Path(built["site"])
    v = visit(contrast="more", color_scheme=scheme)
    low = {}
    for path in sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html")):
        page = v.open(path)
        page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")
        found = page.evaluate(_LOW_CONTRAST)
        if found:
            low[path] = found
    assert low == {}


@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGS)
def test_dark_mode_follows_the_remembered_toggle(visit, lang):
    # the system's dark: test_dark_system_gives_the_dark_page_and_axe_finds_nothing_serious_there
    v = visit(color_scheme="light")
    page = v.open(f"{lang}/index.html")
    toggle = page.locator("[data-theme-toggle]")
    assert _background(page) == LIGHT_BG and toggle.locator(".to-dark").is_visible()
    toggle.click()
    assert _background(page) == DARK_BG and toggle.locator(".to-light").is_visible()
    page.reload()   # remembered, and applied before the first paint (theme.js in <head>)
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert _background(page) == DARK_BG
    page.locator("[data-theme-toggle]").click()
    assert _background(page) == LIGHT_BG
    assert v.problems == []


# rules whose violations count whatever their impact: a header cell without a name (axe
# calls it minor; a screen reader then announces the column as nothing, issue 20)
AXE_ALWAYS = ("empty-table-header",)


def axe_violations(page: Any, touch: bool = False) -> list[Any]:
    """axe's serious and critical violations on the page, the scale slider at ×4 first;
    `touch` (a phone's page) adds axe's target-size rule (WCAG 2.2 SC 2.5.8, in its wcag22aa
    tag but off by default). axe-core comes from node_modules (pinned in package-lock.json),
    never from the network; the page's CSP forbids inline scripts, so only a context with
    bypass_csp lets it run."""
    sliders.move(page, "#scale-input", 4)
    page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    rules = "{'target-size': {enabled: true}}" if touch else "{}"
    result = page.evaluate(f"axe.run(document, {{resultTypes: ['violations'], rules: {rules}}})")
    return [(x["id"], x["impact"], [n["target"] for n in x["nodes"][:3]])
            for x in result["violations"]
            if x["impact"] in ("serious", "critical") or x["id"] in AXE_ALWAYS]


@pytest.mark.author
@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGS)
def test_axe_finds_no_serious_or_critical_violation(visit, lang):
    # the light page; the dark one: test_dark_system_gives_the_dark_page_and_axe_finds_nothing_serious_there,
    # the phone's: test_at_360px_axe_finds_nothing_serious_and_nothing_scrolls_sideways
    v = visit(bypass_csp=True, color_scheme="light")
    page = v.open(f"{lang}/index.html")
    _lay_out_everything(page)     # every block laid out once, as a reader who scrolled has it
    assert axe_violations(page) == []


@pytest.mark.browser
def test_controls_are_labelled_and_focus_is_visible(visit):
    page = visit().open("en/index.html")
    for sel in ("#scale-input", "#fig-spread-hist .widget .widget-button", "[data-theme-toggle]"):
        el = page.locator(sel)
        assert el.evaluate("""el => el.labels?.length || el.textContent.trim().length
            || document.getElementById(el.getAttribute('aria-labelledby'))?.textContent.trim().length""") > 0, sel
        el.focus()
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Tab")
        outline = el.evaluate("el => getComputedStyle(el).outlineStyle + ' ' + getComputedStyle(el).outlineWidth")
        assert outline.startswith("solid") and not outline.endswith(" 0px"), (sel, outline)


# ---------------------------------------------------------------- print and screenshots

@pytest.mark.author
@pytest.mark.browser
def test_print_opens_the_boxes_hides_the_controls_keeps_figures_and_notes(visit):
    """On paper every box is open, the controls are gone, and so are the figures' tables
    (fig_tables): each repeated its printed figure, a third of the pages. The article's own
    tables are printed."""
    page = visit().open("en/index.html")
    page.evaluate("dispatchEvent(new Event('beforeprint'))")
    page.emulate_media(media="print")
    assert page.evaluate("[...document.querySelectorAll('details')].every(d => d.open)")
    for sel in (".widget", "[data-theme-toggle]", ".site-header", ".toc", "figure table", ".fig-open"):
        assert all(not el.is_visible() for el in page.locator(sel).all()), sel
    assert all(el.is_visible() for el in page.locator("table:not(figure table)").all())
    assert page.locator("figure img").first.is_visible()
    assert page.locator("section.footnote").is_visible()
    # what introduces a block is kept on the page of the block: a box's title and the label
    # over a program's output were each left alone at a page's foot, their block overleaf
    alone = page.evaluate("""() => [...document.querySelectorAll(
            'article :is(h2, h3, summary, .reproduce-label)')]
        .filter(el => el.checkVisibility() && getComputedStyle(el).breakAfter !== 'avoid')
        .map(el => el.tagName + '.' + el.className)""")
    assert alone == [], sorted(set(alone))
    assert _background(page) == "rgb(255, 255, 255)"
    # On paper nothing scrolls: at the text width of an A4 page (210 mm less the 2 × 15 mm
    # margins of style.css's @page, at 96 px per inch) no box may hold more than it shows
    # (a `pre` keeping its lines whole would be cut at the page's edge), and nothing may
    # stick out of the page.
    page.set_viewport_size({"width": round((210 - 2 * 15) / 25.4 * 96), "height": 1100})
    cut = page.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter(el => el.clientWidth > 1          // a 1 px box is for screen readers only
                      && getComputedStyle(el).overflowX !== 'visible'
                      && el.scrollWidth > el.clientWidth + 1)
        .map(el => `${el.tagName.toLowerCase()}.${el.className}: ${el.scrollWidth} > ${el.clientWidth} px`)""")
    assert cut == [], cut
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")


def png_size(path: Path) -> tuple[int, int]:
    """Width and height of a PNG file in pixels, from its IHDR chunk (PNG spec, 11.2.2)."""
    import struct
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR", f"{path} is not a PNG"
    width, height = struct.unpack(">II", head[16:24])
    return width, height


@pytest.mark.browser
@pytest.mark.shots
def test_screenshots_for_the_record(visit):
    """Only writes files for a person to look at: `make shots`, not `make test`. Each file is
    removed first, so what is checked is what this run wrote: a PNG as wide as its viewport
    (device pixels) and taller than one screen (the whole page), and a PDF."""
    ARTIFACTS.mkdir(exist_ok=True)
    shots = {"light": {}, "dark": {"color_scheme": "dark"},
             "phone": {"viewport": PHONE, "device_scale_factor": 2, "is_mobile": True,
                       "has_touch": True}}
    names = [f"{lang}-{name}.png" for lang in LANGS for name in shots] + \
        [f"{lang}-print.pdf" for lang in LANGS]
    for name in names:
        (ARTIFACTS / name).unlink(missing_ok=True)
    for lang in LANGS:
        for name, context in shots.items():
            page = visit(**context).open(f"{lang}/index.html")
            _lay_out_everything(page)
            path = ARTIFACTS / f"{lang}-{name}.png"
            page.screenshot(path=str(path), full_page=True)
            view = page.viewport_size
            width, height = png_size(path)
            scale = context.get("device_scale_factor", 1)
            assert width == view["width"] * scale and height > view["height"] * scale, \
                (path.name, width, height)
        page = visit().open(f"{lang}/index.html")     # the print preview, as chromium prints it
        _lay_out_everything(page)
        page.pdf(path=str(ARTIFACTS / f"{lang}-print.pdf"))
        assert (ARTIFACTS / f"{lang}-print.pdf").read_bytes()[:5] == b"%PDF-"
    assert all((ARTIFACTS / name).is_file() for name in names)
