"""Reading on a phone and in both scripts (issue 8), in chromium: figure text that reads at
360 px, formulas never cut off, the contents folded out of the way, the right fonts for each
script (asked of chromium itself), no raw entities or template text, and copying formulas as
TeX. Facts about the article come from the page itself."""
from __future__ import annotations

import re
from typing import Any

import pytest
import sliders
from browser import (
    BAR_CLEAR,
    FRAMES,
    PHONE,
    assert_jumps_land_clear,
    click_reaching,
    hold_still,
    lay_out_everything,
    lay_out_now,
)

from sqrtdk.web.publish import unhashed_name

pytestmark = pytest.mark.browser
# `author` (run again on the author's copy, tests/test_author_copy.py) marks the tests whose
# outcome depends on the author's files (articles, strings, figure labels); those that
# exercise only the templates, the stylesheet or the scripts, which an author does not edit,
# run once, here.
LANGS = ("en", "zh")
CJK_FACE = re.compile(r"CJK|Hei|Song|Ming|Kai|Gothic|YaHei|PingFang|Hiragino|Source Han|"
                      r"WenQuanYi|SimSun|DengXian", re.I)
# the phone the figure and formula checks read (2 device pixels a CSS pixel, as most phones)
PHONE_2X = {"viewport": PHONE, "device_scale_factor": 2}


def open_every_box(page: Any) -> Any:
    """Opens every <details>; returns what undoes it (on a shared page)."""
    opened = page.evaluate("""() => [...document.querySelectorAll('details:not([open])')]
        .map((d, i) => { d.open = true; d.dataset.openedByTest = i; return i; })""")

    def close() -> None:
        page.evaluate("""n => document.querySelectorAll('[data-opened-by-test]').forEach(d => {
            d.open = false; delete d.dataset.openedByTest; })""", len(opened))
    return close


@pytest.mark.author
@pytest.mark.parametrize("lang", LANGS)
def test_every_figure_has_text_of_at_least_11_css_px_at_360_px(shared, lang: str) -> None:
    page = shared(f"{lang}/index.html", laid_out=True, **PHONE_2X).page
    sizes = page.evaluate("""async () => {
        const out = [];
        for (const img of document.querySelectorAll('article figure img')) {
            const svg = new DOMParser().parseFromString(await (await fetch(img.currentSrc)).text(),
                                                        'image/svg+xml');
            const view = svg.documentElement.getAttribute('viewBox').split(/\\s+/).map(Number);
            const px = [...svg.querySelectorAll('text')].map(t => {
                const m = /font(?:-size)?:[^;]*?([\\d.]+)px/.exec(t.getAttribute('style') || '');
                return m ? +m[1] : 16; });
            out.push([img.currentSrc.split('/').pop(), Math.min(...px) * img.getBoundingClientRect().width / view[2]]);
        }
        return out; }""")
    assert sizes, "the page has no figure"
    small = [(name, round(px, 2)) for name, px in sizes if px < 11]
    assert small == [], small
    assert all(unhashed_name(name).endswith(".narrow.svg") for name, _ in sizes)   # phone variant
    # the Try-it charts the script draws: their text scales with their box too
    charts = page.evaluate("""() => [...document.querySelectorAll('.widget svg.chart')]
        .flatMap(svg => { const k = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
            return [...svg.querySelectorAll('text')].map(t => [svg.getAttribute('class'),
                t.textContent, parseFloat(getComputedStyle(t).fontSize) * k]); })""")
    assert charts, "no Try-it chart has text"
    small = [(c, text, round(px, 2)) for c, text, px in charts if px < 10.95]
    assert small == [], small


# Where the words of a figure's SVG collide, asked of chromium laid out at the SVG's own size:
# two texts whose boxes overlap (more than 1 px across and 2 px up and down: the boxes are
# the font's, taller than the ink, and tick labels at a corner touch), a text crossing an
# axis line (matplotlib writes a spine as a two-point path in a `patch_` group), a text
# reaching past the figure's edge; and a panel's own words that are not an axis's (its title,
# a note, a legend inside it) closer than a third of their line's height above or below the
# words of an axis (a tick, an axis label) they share columns with: so close, a title and the
# axis label under it read as one phrase ("how much the shares still respond unscaled scores
# at dₖ ≈", figure 6 at 360 px).
COLLISIONS = """() => [...document.querySelectorAll('body > svg')].map(svg => {
    const edge = svg.getBoundingClientRect(), out = [];
    const boxes = [...svg.querySelectorAll('text')].filter(t => t.textContent.trim())
        .map(t => [t.textContent.trim(), t.getBoundingClientRect()]);
    const axisWords = [...svg.querySelectorAll('g[id^="matplotlib.axis"] text')]
        .filter(t => t.textContent.trim()).map(t => [t.textContent.trim(), t.getBoundingClientRect()]);
    [...svg.querySelectorAll('g[id^="axes_"] text')]
        .filter(t => t.textContent.trim() && !t.closest('g[id^="matplotlib.axis"]')).forEach(t => {
            const a = t.getBoundingClientRect();
            axisWords.forEach(([z, b]) => {
                const gap = Math.max(a.top, b.top) - Math.min(a.bottom, b.bottom);
                if (Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && gap > -2
                        && gap < a.height / 3)
                    out.push(`${t.textContent.trim()} | ${z} (${gap.toFixed(1)} px apart: one phrase)`); }); });
    const spines = [...svg.querySelectorAll('g[id^="patch_"] > path')]
        .filter(p => /^\\s*M[^MLz]+L[^MLz]+$/.test(p.getAttribute('d')))
        .map(p => p.getBoundingClientRect());
    const across = (a0, a1, b0, b1) => Math.min(a1, b1) - Math.max(a0, b0);
    boxes.forEach(([s, a], i) => {
        if (a.left < edge.left - 0.5 || a.right > edge.right + 0.5 || a.top < edge.top - 0.5
            || a.bottom > edge.bottom + 0.5) out.push(`${s} | the figure's edge`);
        boxes.slice(i + 1).forEach(([z, b]) => {
            if (across(a.left, a.right, b.left, b.right) > 1 && across(a.top, a.bottom, b.top, b.bottom) > 2)
                out.push(`${s} | ${z}`); });
        spines.forEach(l => {
            const vertical = l.width < l.height;
            if (vertical ? l.left > a.left + 1 && l.left < a.right - 1 && across(a.top, a.bottom, l.top, l.bottom) > 2
                         : l.top > a.top + 2 && l.top < a.bottom - 2 && across(a.left, a.right, l.left, l.right) > 1)
                out.push(`${s} | an axis line`); });
    });
    return [svg.dataset.name, out, spines.length]; })"""


# Where a figure's words lie on its data: a text crossed by a data line (matplotlib's
# `line2d_` groups outside the axes' ticks and the legend: curves, reference lines) where the
# line is drawn, inside its clip rectangle, or overlapping a marker of one. The text's box is
# the font's, so it is taken 1 px narrower and 2 px shorter at each side, as above. A text on
# a white ground of its own (matplotlib's bbox, drawn after the lines) hides what it covers.
LINE_COLLISIONS = """() => [...document.querySelectorAll('body > svg')].map(svg => {
    const out = [];
    const grounded = t => [...t.parentElement.querySelectorAll(':scope > g[id^="patch_"] > path')]
        .some(p => /fill:\\s*#ffffff/.test(p.getAttribute('style') || ''));
    const boxes = [...svg.querySelectorAll('text')].filter(t => t.textContent.trim() && !grounded(t))
        .map(t => { const b = t.getBoundingClientRect();
            return [t.textContent.trim(), new DOMRect(b.x + 1, b.y + 2, b.width - 2, b.height - 4)]; });
    const inside = (p, b) => p.x > b.left && p.x < b.right && p.y > b.top && p.y < b.bottom;
    const clipOf = el => {      // [x, y, width, height] in the element's user units, or null
        const g = el.closest('[clip-path]'), id = g && /url\\(#([^)]+)\\)/.exec(g.getAttribute('clip-path'));
        const r = id && svg.getElementById(id[1])?.querySelector('rect');
        return r && ['x', 'y', 'width', 'height'].map(a => +r.getAttribute(a)); };
    const shown = (x, y, c) => !c || (x >= c[0] && x <= c[0] + c[2] && y >= c[1] && y <= c[1] + c[3]);
    const across = (a0, a1, b0, b1) => Math.min(a1, b1) - Math.max(a0, b0);
    [...svg.querySelectorAll('g[id^="line2d_"]')]
        .filter(g => !g.closest('g[id^="matplotlib.axis"], g[id^="legend"]')).forEach(g => {
            g.querySelectorAll(':scope > path').forEach(path => {
                const clip = clipOf(path), ctm = path.getScreenCTM(), length = path.getTotalLength();
                // only the texts that reach the line's box (its tight geometry, in the window's
                // pixels, 1 px wider each way) can hold a point of it: the others are not asked,
                // and a line that reaches none is not walked (each step costs chromium a walk
                // along the path from its start: most of the test's time)
                const g0 = path.getBBox(), corners = [[g0.x, g0.y], [g0.x + g0.width, g0.y],
                    [g0.x, g0.y + g0.height], [g0.x + g0.width, g0.y + g0.height]]
                    .map(([x, y]) => new DOMPoint(x, y).matrixTransform(ctm));
                const [x0, x1] = [Math.min(...corners.map(c => c.x)) - 1, Math.max(...corners.map(c => c.x)) + 1];
                const [y0, y1] = [Math.min(...corners.map(c => c.y)) - 1, Math.max(...corners.map(c => c.y)) + 1];
                const near = boxes.filter(([, b]) => b.right > x0 && b.left < x1 && b.bottom > y0 && b.top < y1);
                if (!near.length) return;
                for (let l = 0; l <= length; l += 0.5) {       // every half unit along the line
                    const p = path.getPointAtLength(l);
                    if (!shown(p.x, p.y, clip)) continue;
                    const hit = near.find(([, b]) => inside(new DOMPoint(p.x, p.y).matrixTransform(ctm), b));
                    if (hit) { out.push(`${hit[0]} | ${g.id}`); break; }
                } });
            g.querySelectorAll('use').forEach(marker => {
                if (!shown(+marker.getAttribute('x'), +marker.getAttribute('y'), clipOf(marker))) return;
                const m = marker.getBoundingClientRect();
                boxes.forEach(([s, b]) => {
                    if (across(m.left, m.right, b.left, b.right) > 0 && across(m.top, m.bottom, b.top, b.bottom) > 0)
                        out.push(`${s} | a marker of ${g.id}`); }); });
        });
    return [svg.dataset.name, [...new Set(out)]]; })"""


@pytest.mark.author
def test_no_figure_text_runs_into_other_text_an_axis_or_the_edge(browser, site_build) -> None:
    """Every SVG the build drew (each figure, language and layout), at its own size."""
    svgs = sorted(site_build["opts"].figures_dir.glob("*.svg"))
    assert svgs, "the build drew no SVG"
    # each from its <svg on: no XML declaration or doctype inside a body
    body = "".join("".join(svg.read_text(encoding="utf-8").partition("<svg")[1:])
                   for svg in svgs)
    names = [svg.name for svg in svgs]
    page = browser.new_page()
    try:
        page.set_content("<body style='margin:0'>" + body)
        page.evaluate("""names => document.querySelectorAll('body > svg')
            .forEach((s, i) => { s.dataset.name = names[i]; })""", names)
        found = page.evaluate(COLLISIONS)
        on_data = page.evaluate(LINE_COLLISIONS)
    finally:
        page.close()
    assert [name for name, _, _ in found] == names
    assert all(spines for _, _, spines in found), "an SVG without axis lines: is it matplotlib's?"
    assert {name: out for name, out, _ in found if out} == {}
    assert {name: out for name, out in on_data if out} == {}


@pytest.mark.author
@pytest.mark.parametrize("lang", LANGS)
def test_no_formula_is_cut_off_at_360_px(shared, lang: str) -> None:
    page = shared(f"{lang}/index.html", laid_out=True, **PHONE_2X).page
    close = open_every_box(page)
    outside = page.evaluate("""() => {
        const column = document.querySelector('article').getBoundingClientRect();
        const scrolls = el => {
            for (let a = el.parentElement; a; a = a.parentElement) {
                const s = getComputedStyle(a);
                if (/(auto|scroll)/.test(s.overflowX) && a.scrollWidth > a.clientWidth) return true;
            }
            return false; };
        return [...document.querySelectorAll('.katex')].filter(k => {
            if (k.closest('.fn-pop, template')) return false;
            const r = k.querySelector('.katex-html').getBoundingClientRect();
            if (r.width === 0) return false;
            return (r.left < column.left - 0.5 || r.right > column.right + 0.5) && !scrolls(k);
        }).map(k => k.querySelector('annotation')?.textContent.slice(0, 40)); }""")
    assert outside == []
    tags = page.evaluate("""() => [...document.querySelectorAll('.katex-tag')].filter(t => {
        const base = t.parentElement.querySelector('.katex-base');
        const a = t.getBoundingClientRect(), b = base.getBoundingClientRect();
        return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom; }).length""")
    assert tags == 0       # an equation number never overlaps its formula
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    close()


@pytest.mark.parametrize("lang", LANGS)
def test_the_contents_fold_away_on_a_phone_and_open_from_the_header(visit, lang: str) -> None:
    page = visit(viewport=PHONE, is_mobile=True, has_touch=True).open(f"{lang}/index.html")
    toc = page.locator("#toc")
    assert toc.get_attribute("open") is None
    assert page.evaluate("document.querySelector('h1').getBoundingClientRect().bottom") < PHONE["height"]
    # one "Contents" on screen at a time: the folded list at the top, the header's link below
    assert page.locator("#toc summary").is_visible() != page.locator(".toc-link").is_visible()
    page.evaluate("[...document.querySelectorAll('article h2')].pop().scrollIntoView()")
    page.locator(".toc-link").click()          # waits until the header shows the link
    assert toc.get_attribute("open") is not None
    assert page.locator("#toc ol a").first.is_visible()
    wide = visit(viewport={"width": 1280, "height": 900}).open(f"{lang}/index.html")
    assert wide.locator("#toc ol a").first.is_visible()      # a sidebar, always open
    assert not wide.locator(".toc-link").is_visible()


@pytest.mark.parametrize("lang", LANGS)
def test_before_the_pages_script_runs_the_first_screen_reads_contents_once(visit, lang: str) -> None:
    """On a slow network (3G) theme.js marks the page `.js` at once, but explainer.js, which
    hides the header's "Contents" link while the contents show, arrives a second or more later:
    until then a phone's first screen read "Contents" twice, one above the other (sixth
    newcomer pass), and for good when the script never runs (blocked, failed). Here the script
    is served empty, so it never runs."""
    v = visit(viewport=PHONE, is_mobile=True, has_touch=True)
    v.page.route("**/assets/explainer.*.js", lambda route: route.fulfill(
        status=200, content_type="text/javascript", body=""))
    page = v.open(f"{lang}/index.html", ready=False)
    assert page.evaluate("document.documentElement.classList.contains('js')")
    assert page.evaluate("!document.documentElement.hasAttribute('data-ready')")
    assert page.locator("#toc summary").is_visible()
    page.locator(".toc-link").wait_for(state="hidden", timeout=3000)   # "Contents" once
    page.locator("article h2").last.scroll_into_view_if_needed()
    page.locator(".toc-link").wait_for(state="visible", timeout=3000)  # and back when needed


@pytest.mark.parametrize("lang", LANGS)
def test_without_scripts_the_headers_contents_link_leads_to_contents_that_are_open(
        visit, lang: str) -> None:
    """Without JavaScript a phone's "Contents" link in the header landed on the folded box:
    its summary line alone, the entries out of sight (third newcomer pass). It now leads into
    the list, which the browser opens to show it. With scripts the link still opens the box
    and lands on the box itself, its summary line included. And without scripts too the link
    is hidden while the contents show (style.css): the first screen read "Contents" twice."""
    page = visit(viewport=PHONE, is_mobile=True, has_touch=True, java_script_enabled=False
                 ).open(f"{lang}/index.html")
    assert page.locator("#toc").get_attribute("open") is None        # folded on arrival
    page.locator(".toc-link").wait_for(state="hidden", timeout=3000)   # "Contents" once
    assert page.locator("#toc summary").is_visible()
    page.locator("article h2").last.scroll_into_view_if_needed()
    page.locator(".toc-link").tap()
    entry = page.locator("#toc ol a").first
    entry.wait_for(timeout=3000)
    box = entry.bounding_box()
    assert box is not None and 0 <= box["y"] < PHONE["height"], box     # in the window
    title, header = page.locator("#toc summary").bounding_box(), page.locator(".site-header").bounding_box()
    assert title["y"] >= header["y"] + header["height"] - 1, (title, header)   # and its title
    page = visit(viewport=PHONE, is_mobile=True, has_touch=True).open(f"{lang}/index.html")
    page.locator("article h2").last.scroll_into_view_if_needed()
    page.locator(".toc-link").click()
    page.wait_for_function("() => location.hash === '#toc' && document.querySelector('#toc').open")
    page.wait_for_function("""() => { const s = document.querySelector('#toc summary').getBoundingClientRect();
        return s.top >= document.querySelector('.site-header').getBoundingClientRect().bottom - 1
            && s.bottom <= innerHeight; }""")


@pytest.mark.author
@pytest.mark.parametrize("viewport", [PHONE, {"width": 1280, "height": 900}],
                         ids=["phone", "desktop"])
def test_a_jump_to_a_section_or_a_note_lands_below_the_header_and_the_dk_bar(
        visit, viewport: dict[str, int]) -> None:
    """Every heading that follows a figure (where the dₖ bar shows) and every footnote
    back-reference target, reached through its link, is not covered by the fixed bars."""
    page = visit(viewport=viewport).open("en/index.html")
    targets = page.evaluate("""() => {
        const ids = [...document.querySelectorAll('article h2[id], article h3[id]')]
            .filter(h => [...document.querySelectorAll('figure')].some(f =>
                f.compareDocumentPosition(h) & Node.DOCUMENT_POSITION_FOLLOWING)).map(h => h.id);
        const refs = [...document.querySelectorAll('a.footnote-ref')].map(a => a.parentElement.id);
        return [...ids.slice(0, 3), ...refs.filter(Boolean).slice(0, 2)]; }""")
    assert targets
    clear = """id => {
        const el = document.getElementById(id), top = el.getBoundingClientRect().top;
        const bars = [...document.querySelectorAll('.site-header, .dk-bar')]
            .filter(b => !b.hidden && getComputedStyle(b).position !== 'static');
        return top >= 0 && bars.every(b => b.getBoundingClientRect().bottom <= top + 1); }"""
    assert_jumps_land_clear(page, targets, clear)


@pytest.mark.author
@pytest.mark.parametrize("lang", LANGS)
def test_a_page_opened_at_a_section_with_a_try_it_box_on_screen_lands_below_the_dk_bar(
        visit, lang: str) -> None:
    """A fresh load at the address of a heading whose first screen holds a Try-it box or text
    that follows dₖ: the bar shows at once, after the browser's own jump, so the heading must
    still land below it. The heading is found from the page."""
    size = {"width": 1280, "height": 800}
    page = visit(viewport=size).open(f"{lang}/index.html")
    lay_out_everything(page)
    # the first heading that, brought to the top of the window, shows the bar with it
    target = page.evaluate("""async () => {
        const frame = () => new Promise(r => requestAnimationFrame(() => setTimeout(r, 50)));
        for (const h of document.querySelectorAll('article h2[id], article h3[id]')) {
            h.scrollIntoView(); await frame(); await frame();
            if (document.querySelector('.dk-bar:not(.dk-away)')) return h.id; }
        return null; }""")
    assert target, "no heading brings the dₖ bar on screen with it"
    page = visit(viewport=size).open(f"{lang}/index.html#{target}")
    page.wait_for_selector(".dk-bar:not(.dk-away)")
    page.wait_for_timeout(300)          # the bar's observer and any late layout have run
    assert page.evaluate(BAR_CLEAR, target), \
        f"#{target} opened under the dₖ bar, at " \
        f"{page.evaluate('id => document.getElementById(id).getBoundingClientRect().top', target):.0f} px"


@pytest.mark.author
@pytest.mark.parametrize("viewport", [PHONE, {"width": 1280, "height": 800}],
                         ids=["phone", "desktop"])
def test_a_page_opened_at_a_section_stays_where_the_browser_landed_it(
        visit, viewport: dict[str, int]) -> None:
    """A fresh load at the address of a heading whose first screen brings no dₖ bar: the
    browser's own jump put the heading under the header (its margin then), and the script,
    once ready, landed the page again below where the bar would be: the text jumped down by
    the bar's height a moment after the reader began (a second or more on a slow network;
    sixth newcomer pass). The heading is found from the page; its place is read once the
    page has loaded, before the script is ready, and again after."""
    size = {"viewport": viewport, "is_mobile": viewport is PHONE, "has_touch": viewport is PHONE}
    page = visit(**size).open("en/index.html")
    lay_out_everything(page)
    target = page.evaluate("""async () => {
        const frame = () => new Promise(r => requestAnimationFrame(() => setTimeout(r, 50)));
        for (const h of document.querySelectorAll('article h2[id], article h3[id]')) {
            h.scrollIntoView(); await frame(); await frame();
            if (!document.querySelector('.dk-bar:not(.dk-away)')) return h.id; }
        return null; }""")
    if target is None:
        pytest.skip("every heading brings the dk bar on screen with it")
    v = visit(**size)
    # the heading's place at every frame from the end of parsing until the script is ready
    # (the last one is where the browser's own jump left it), and no longer
    v.page.add_init_script("""(() => { const look = () => {
        if (document.documentElement.hasAttribute('data-ready')) return;
        const h = document.readyState !== 'loading'
            && document.getElementById(decodeURIComponent(location.hash.slice(1)));
        if (h) window.landedAt = h.getBoundingClientRect().top;
        requestAnimationFrame(look); }; requestAnimationFrame(look); })();""")
    page = v.open(f"en/index.html#{target}")
    page.wait_for_timeout(300)          # the bar's observer and any late layout have run
    landed = page.evaluate("window.landedAt")
    assert landed is not None, "no frame before the script was ready: nothing to compare"
    now = page.evaluate("id => document.getElementById(id).getBoundingClientRect().top", target)
    assert abs(now - landed) <= 24, f"#{target} landed at {landed:.0f} px, then moved to {now:.0f} px"


# every layout shift chromium counts from the first paint on (Layout Instability API), each
# with the elements it moved
LAYOUT_SHIFTS = """window.shifts = []; new PerformanceObserver(list => list.getEntries().forEach(e =>
    window.shifts.push({value: e.value, input: e.hadRecentInput, moved: e.sources.map(s =>
        s.node && s.node.nodeType === 1 ? s.node.localName + '#' + s.node.id : String(s.node))})))
    .observe({type: 'layout-shift', buffered: true});"""


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("viewport", [PHONE, {"width": 1280, "height": 800}],
                         ids=["phone", "desktop"])
def test_a_page_opened_at_a_section_does_not_shift_under_the_reader(
        visit, lang: str, viewport: dict[str, int]) -> None:
    """Opened at a section's address, the page scored a layout shift of 0.04 to 0.17 (Chrome's
    Cumulative Layout Shift; 0.1 is "needs improvement"): explainer.js laid the blocks out
    whole (their guessed heights made real) in the frame the page scrolled to the heading, so
    the heading and the table under it had moved in the layout and came into the window at
    once. Now the page is laid out whole from its first layout when it has an address. The
    heading is the article's middle one; a sum of at most 0.01 leaves room for a contents
    entry marked bold (0.001 at 1280 px).

    Up to three fresh loads, one of which must hold still: the shift fixed came at every load
    (0.04 to 0.17 in each), while on a loaded machine (a fresh-clone CI beside other work) one
    load of the Chinese page at 360 px scored 0.11 once, its text moving as a late step of
    its layout landed; a page that shifts at every load still fails."""
    page = visit(viewport=viewport).open(f"{lang}/index.html")
    ids = page.evaluate("() => [...document.querySelectorAll('article h2[id]')].map(h => h.id)")
    assert ids
    scored = []
    for _ in range(3):
        v = visit(viewport=viewport)
        v.page.add_init_script(LAYOUT_SHIFTS)
        page = v.open(f"{lang}/index.html#{ids[len(ids) // 2]}")
        page.evaluate(FRAMES)
        page.evaluate(FRAMES)
        shifts = [s for s in page.evaluate("window.shifts") if not s["input"]]
        assert v.problems == []
        scored.append(shifts)
        if sum(s["value"] for s in shifts) <= 0.01:
            break
    else:
        pytest.fail(f"each of three loads shifted by more than 0.01: {scored}")


@pytest.mark.parametrize("lang", LANGS)
def test_the_first_click_on_a_note_reference_shows_the_note(visit, lang: str) -> None:
    """Each footnote reference, clicked on a freshly opened page at desktop size, scrolls its
    note into the window, and so does opening the page at a note's address: the article's
    blocks are laid out lazily (content-visibility), and without the script laying them all
    out first the blocks above the target keep a guessed height and the jump lands short.
    The references are counted on the first of those fresh pages (no load of its own).

    A press the page moved away from before its release (click_reaching) is no click on the
    reference: the page is opened afresh and pressed again, three times at most. The page
    itself holds still once ready (no layout shift after `data-ready` in 108 loads, both
    languages, 360 and 1280 px); what moves is this test's own jump to the reference (see
    hold_still), still settling under load when the press came (CI)."""
    v = visit(viewport={"width": 1280, "height": 900})
    page = v.open(f"{lang}/index.html")
    count = page.locator("a.footnote-ref").count()
    assert count
    for i in range(count):
        missed = []
        for attempt in range(3):
            if i or attempt:
                page = v.open(f"{lang}/index.html")
            ref = page.locator("a.footnote-ref").nth(i)
            href = ref.get_attribute("href")
            # where Playwright's click would scroll anyway, then aim once the text around it
            # holds still (the blocks drawn for the jump, the faces they ask for loaded)
            ref.scroll_into_view_if_needed()
            hold_still(ref)
            reached = click_reaching(ref)
            if not reached:
                break
            missed.append(f"{href}: the click reached {reached}")
        else:
            pytest.fail("three presses on fresh pages missed the reference: " + "; ".join(missed))
        page.wait_for_function("h => location.hash === h", arg=href)
        page.wait_for_timeout(150)      # let late layout (fonts, images) move things
        top, line, height = page.evaluate("""h => {
            const el = document.getElementById(decodeURIComponent(h.slice(1)));
            return [el.getBoundingClientRect().top, parseFloat(getComputedStyle(el).lineHeight)
                    || 24, innerHeight]; }""", href)
        assert 0 <= top <= height - line, f"{href}: the note's top is at {top:.0f} px " \
                                          f"in a {height} px window"
    page = v.open(f"{lang}/index.html{href}")          # a shared link to the last note
    page.wait_for_timeout(150)
    top = page.evaluate("h => document.getElementById(decodeURIComponent(h.slice(1)))"
                        ".getBoundingClientRect().top", href)
    assert 0 <= top <= page.evaluate("innerHeight") - 24, f"{href} opened at {top:.0f} px"


# the text moves right after the first press on a note reference, before its release: the
# pointerdown listener of the document (bubbling) runs after Playwright's check of what is
# under the pointer (at the window, capturing), as a reflow between the two would
_MOVE_ON_PRESS = """{ let moved = false;
    document.addEventListener('pointerdown', (e) => {
        const a = e.target.closest?.('a.footnote-ref');
        if (!a || moved) return;
        moved = true;
        a.parentElement.before(Object.assign(document.createElement('span'),
            { style: 'display: inline-block; width: 8rem' }));
    }); }"""


def test_a_press_the_text_moves_away_from_is_no_click_on_the_reference(visit) -> None:
    """click_reaching, the note test's press, tells a press whose target moved away before
    the release from one that reached it: Playwright's click reports success for both, and
    the link of the first is not followed (the note test then waited 30 s for the address)."""
    v = visit(viewport={"width": 1280, "height": 900})
    v.page.add_init_script(_MOVE_ON_PRESS)
    page = v.open("en/index.html")
    ref = page.locator("a.footnote-ref").first
    href = ref.get_attribute("href")
    ref.scroll_into_view_if_needed()
    hold_still(ref)
    assert click_reaching(ref), "the reference moved away, yet the click was said to reach it"
    assert page.evaluate("location.hash") != href
    hold_still(ref)
    assert click_reaching(ref) == ""
    page.wait_for_function("h => location.hash === h", arg=href)


# what chromium's choice of a font for an element's text depends on: the characters, the
# computed font-family, -style, -weight and -stretch, and the language (CJK fallback)
_FONT_GROUPS = """selector => {
    const keys = [], first = new Map();
    document.querySelectorAll(selector).forEach((el, i) => {
        const cs = getComputedStyle(el);
        const key = [el.textContent, cs.fontFamily, cs.fontStyle, cs.fontWeight, cs.fontStretch,
                     (el.closest('[lang]') || document.documentElement).lang].join('\\u0001');
        keys.push(key);
        if (!first.has(key)) { first.set(key, i); el.setAttribute('data-font-probe', ''); }
    });
    return keys; }"""


def platform_fonts(page: Any, selector: str) -> list[set[str]]:
    """For each element matching `selector`: the font families chromium used for its text.

    Chromium is asked once per group of elements that cannot differ in that answer (same
    text, computed font properties and language; see _FONT_GROUPS), not once per element:
    a page's formulas have thousands of leaves and far fewer groups."""
    keys = page.evaluate(_FONT_GROUPS, selector)
    client = page.context.new_cdp_session(page)
    client.send("DOM.enable")
    client.send("CSS.enable")
    # the document's root alone: querySelectorAll brings the matches (serializing the whole
    # tree, depth -1, cost chromium a second or more on a page of formulas)
    root = client.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    ids = client.send("DOM.querySelectorAll", {"nodeId": root,
                                               "selector": "[data-font-probe]"})["nodeIds"]
    page.evaluate("() => document.querySelectorAll('[data-font-probe]')"
                  ".forEach(el => el.removeAttribute('data-font-probe'))")
    lay_out_now(page)
    answers = [{f["familyName"] for f in client.send("CSS.getPlatformFontsForNode",
                                                     {"nodeId": node})["fonts"]} for node in ids]
    client.detach()
    by_key = dict(zip(dict.fromkeys(keys), answers))   # first occurrences, in document order
    assert len(by_key) == len(answers), "the probe marks and the groups disagree"
    return [by_key[key] for key in keys]


@pytest.mark.author
@pytest.mark.parametrize("lang", LANGS)
def test_latin_text_is_never_drawn_with_a_cjk_face_nor_chinese_with_a_latin_one(shared,
                                                                                lang: str) -> None:
    page = shared(f"{lang}/index.html", laid_out=True).page
    # chromium reports the fonts of an element's text with its inline descendants', so an
    # element holding a passage marked Chinese (full-width punctuation in English prose is
    # marked so) is left out: that passage rightly uses a CJK face
    english = ":is(article, .site-footer) :is(p, li, figcaption, h1, h2, h3, td, th):lang(en)" \
              ":not(:has(:lang(zh)))"
    if lang == "en":
        english = ":is(article, .site-footer) :is(p, li, figcaption, h1, h2, h3, td, th)" \
                  ":not(:lang(zh) *):not(:lang(zh)):not(:has(:lang(zh)))"
    latin = platform_fonts(page, english)
    assert latin, "no English text on the page"
    assert not [f for fonts in latin for f in fonts if CJK_FACE.search(f)]
    # Chinese text and punctuation, in the page's own context for Chinese (the article of the
    # zh page, a span marked zh on the en page), must come from a CJK face alone
    page.evaluate("""() => {
        const p = document.createElement('p');
        p.id = 'probe-zh';
        p.style.contentVisibility = 'visible';   // a new block of the article is skipped until a frame
        p.innerHTML = document.documentElement.lang.startsWith('zh') ? '“引号”，逗号。冒号：「括号」！'
            : '<span lang="zh-CN">“引号”，逗号。冒号：「括号」！</span>';
        document.querySelector('article').prepend(p); }""")
    probe = platform_fonts(page, "#probe-zh")[0]
    page.evaluate("document.getElementById('probe-zh').remove()")
    assert probe and all(CJK_FACE.search(f) for f in probe), probe


@pytest.mark.author
@pytest.mark.parametrize("lang", LANGS)
def test_a_phrase_marked_with_another_language_keeps_its_sentences_style(shared,
                                                                        lang: str) -> None:
    """A phrase inside a sentence marked with another language than the page's (English
    words in a Chinese sentence, md_text) is drawn in that language's faces but in the style
    of the sentence around it: sans in a sans sentence, serif in a serif one (a quoted 'we
    suspect' was set in the serif inside the Chinese page's sans). Code, a program's output
    and keys keep their monospace face and are not counted."""
    page = shared(f"{lang}/index.html").page
    pairs = page.evaluate("""() => {
        const generic = el => getComputedStyle(el).fontFamily.split(',').pop().trim();
        const page = document.documentElement.lang;
        return [...document.querySelectorAll('article [lang]')]
            .filter(el => el.lang !== page && !el.closest('code, samp, kbd, pre')
                          && getComputedStyle(el).display === 'inline'
                          && getComputedStyle(el.parentElement).display !== 'inline-block')
            .map(el => [el.textContent.slice(0, 40), generic(el), generic(el.parentElement)]);
    }""")
    assert all(own == around for _, own, around in pairs), \
        [p for p in pairs if p[1] != p[2]]


@pytest.mark.parametrize("lang", LANGS)
def test_a_formula_in_a_passage_marked_with_the_other_language_keeps_its_fonts(
        shared, lang: str) -> None:
    """The faces chosen for a language (style.css) go to the passage marked with it and are
    inherited from there; a formula inside it keeps KaTeX's own faces on every part (they
    went to every element inside the passage, the formula's spans included)."""
    page = shared(f"{lang}/index.html").page
    fonts = page.evaluate("""() => {
        const formula = document.querySelector('article .katex');
        const other = document.documentElement.lang.startsWith('zh') ? 'en' : 'zh-CN';
        const p = document.createElement('p');
        p.lang = other;
        p.append(formula.cloneNode(true));
        document.querySelector('article').prepend(p);
        const faces = (f) => [...f.querySelectorAll('.katex-html *')]
            .map(el => getComputedStyle(el).fontFamily);
        const both = [faces(formula), faces(p.firstElementChild)];
        p.remove();
        return both; }""")
    assert fonts[0] and fonts[1] == fonts[0]


@pytest.mark.author
@pytest.mark.parametrize("lang", LANGS)
def test_no_visible_text_holds_a_raw_entity_or_template_syntax(shared, lang: str) -> None:
    page = shared(f"{lang}/index.html", laid_out=True).page
    close = open_every_box(page)
    # the page's text outside code, where an author may show `{{ x }}` or `&amp;` on purpose
    text = page.evaluate("""() => {
        const skip = 'code, pre, kbd, samp, script, style, annotation, .katex-mathml';
        const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, {
            acceptNode: n => n.parentElement.closest(skip) ? NodeFilter.FILTER_REJECT
                                                           : NodeFilter.FILTER_ACCEPT});
        const out = [];
        while (walk.nextNode()) out.push(walk.currentNode.data);
        return out.join(' '); }""")
    assert not re.findall(r"&(?:[a-z]+|#\d+|#x[0-9a-f]+);", text, re.I)
    assert "{{" not in text and "{%" not in text and "{#" not in text and "}}" not in text
    contents = page.locator("nav.toc").inner_text()
    close()
    assert "&" not in contents.replace("& ", "") and "$" not in contents and "\\" not in contents


def test_copying_a_sentence_with_formulas_gives_their_tex(visit) -> None:
    v = visit(permissions=["clipboard-read", "clipboard-write"])
    page = v.open("en/index.html")
    lay_out_everything(page)
    found = page.evaluate("""() => {
        const p = [...document.querySelectorAll('article p')].find(p => p.querySelector('.katex'));
        const range = document.createRange();
        range.selectNodeContents(p);
        const sel = getSelection(); sel.removeAllRanges(); sel.addRange(range);
        return [...p.querySelectorAll('.katex annotation')].map(a => a.textContent); }""")
    assert found
    page.keyboard.press("Control+c")
    copied = page.evaluate("navigator.clipboard.readText()")
    for tex in found:
        assert f"${tex}$" in copied, (tex, copied[:200])
    assert len(copied.splitlines()) <= 3        # not one glyph per line


_SELECT = """(el) => { const range = document.createRange(); range.selectNodeContents(el);
    const sel = getSelection(); sel.removeAllRanges(); sel.addRange(range); }"""


@pytest.mark.parametrize("lang", LANGS)
def test_copying_the_whole_article_keeps_its_lines_and_leaves_out_what_it_hides(visit,
                                                                                 lang: str) -> None:
    """KaTeX's copy-tex gave a selection holding a formula as the text of its nodes: blocks
    ran together where the HTML has no line break between them (`$$…$$How fast…`), the
    headings' "#" links came along, and so did all the page hides, a closed box's figure
    table as one run of digits. Copied whole, the article gives each paragraph with a formula
    on a line of its own, as copying that paragraph alone gives it, no heading link nor a
    note's link back ("↩︎"), and nothing of a closed box but its title."""
    page = visit(permissions=["clipboard-read", "clipboard-write"]).open(f"{lang}/index.html")

    def copy(handle: Any) -> str:
        page.evaluate(_SELECT, handle)
        page.evaluate("navigator.clipboard.writeText('')")
        page.keyboard.press("Control+c")
        return str(page.evaluate("navigator.clipboard.readText()"))

    paragraphs = page.locator("article p:has(.katex)").element_handles()
    alone = [copy(p).strip() for p in paragraphs
             if p.evaluate("p => p.checkVisibility() && !p.closest('details:not([open])')")]
    hidden_rows = page.evaluate("""() => [...document.querySelectorAll(
        'article details:not([open]) tr')].map(tr => tr.textContent).filter(t => t.length > 8)""")
    backlinks = page.evaluate("""() => [...new Set([...document.querySelectorAll(
        'article .footnote-backref')].map(a => a.textContent.trim()))].filter(Boolean)""")
    headings = page.evaluate("""() => [...document.querySelectorAll('article :is(h2, h3)')]
        .filter(h => h.querySelector('.headerlink')).map(h => h.querySelector('[id$="-name"]')
        ?.textContent).filter(Boolean)""")
    assert alone and hidden_rows and headings
    whole = copy(page.locator("article").element_handle())
    lines = [line.strip() for line in whole.splitlines()]
    assert [p for p in alone if p not in lines] == []
    assert [row for row in hidden_rows if row in whole] == []
    assert [h for h in headings if h not in lines] == []
    assert [b for b in backlinks if b in whole] == []      # a note's way back, no text


@pytest.mark.parametrize("lang", LANGS)
def test_copying_text_with_a_note_reference_leaves_the_note_number_out(visit, lang: str
                                                                         ) -> None:
    """Copying a sentence with a footnote reference glued the note's number to the text
    before it ('100.2 Simulating', '$k$1'): the clipboard holds the text without it, as it
    holds a note without its link back, through the browser's own copy (a paragraph with no
    formula) and through KaTeX's copy-tex (one with a formula)."""
    page = visit(permissions=["clipboard-read", "clipboard-write"]).open(f"{lang}/index.html")
    lay_out_everything(page)
    cases = page.evaluate("""() => {
        const found = {};
        for (const p of document.querySelectorAll('article p')) {
            const kind = p.querySelector('.katex') ? 'tex' : 'plain';
            const a = p.querySelector('a.footnote-ref');
            const before = a && a.closest('sup').previousSibling;
            if (found[kind] || !before || before.nodeType !== 3 || before.data.trim().length < 3
                || !p.checkVisibility() || p.closest('details:not([open])')) continue;
            p.dataset.copyCase = kind;
            found[kind] = [before.data.trimStart().slice(-3), a.textContent];
        }
        return found; }""")
    assert cases, "no paragraph with a note reference"
    for kind, (before, number) in cases.items():
        page.evaluate(_SELECT, page.locator(f"[data-copy-case={kind}]").element_handle())
        page.evaluate("navigator.clipboard.writeText('')")
        page.keyboard.press("Control+c")
        copied = str(page.evaluate("navigator.clipboard.readText()"))
        assert before in copied, (kind, before, copied)
        assert before + number not in copied, (kind, before + number, copied)


@pytest.mark.author
@pytest.mark.parametrize("lang", LANGS)
def test_cut_down_math_fonts_draw_every_formula_as_the_full_fonts_do(visit, lang: str) -> None:
    """The preloaded KaTeX fonts are served cut down to the characters the formulas draw
    (sqrtdk/web/math/fonts.py). Asked of chromium, every piece of every formula is drawn with
    the same fonts as with KaTeX's full files, at the default view and at the largest dₖ,
    where the script has written other numbers into the formulas."""
    from sqrtdk.options import PROJECT_ROOT
    dist = PROJECT_ROOT / "node_modules" / "katex" / "dist" / "fonts"
    leaves = ".katex-html span:not(:has(*))"
    drawn: dict[str, list[list[set[str]]]] = {}
    for kind in ("cut down", "full"):
        v = visit()
        if kind == "full":
            v.page.route("**/assets/katex/fonts/*.woff2", lambda route: route.fulfill(
                body=(dist / unhashed_name(route.request.url.rsplit("/", 1)[-1])).read_bytes(),
                content_type="font/woff2", headers={"Access-Control-Allow-Origin": "*"}))
        page = v.open(f"{lang}/index.html")
        sizes = page.evaluate("""() => performance.getEntriesByType('resource')
            .filter(e => e.name.endsWith('.woff2')).map(e => [e.name.split('/').pop(), e.decodedBodySize])""")
        if kind == "cut down":
            assert sizes, "no math font was loaded"
            smaller = [n for n, size in sizes if size < (dist / unhashed_name(n)).stat().st_size]
            assert smaller, sizes     # at least the preloaded ones are cut down
        lay_out_everything(page)
        views = [platform_fonts(page, leaves)]
        # the largest dₖ under the raw ruler, set through the bar as a reader would (the same
        # view as the address ?dk=…&ruler=raw gives, without a second load of the page)
        sliders.move(page, "#dk-input", sliders.bounds(page, "#dk-input")[1])
        page.locator('.dk-bar input[type=radio][value="raw"]').check()
        assert page.evaluate("""() => { const q = new URLSearchParams(location.search);
            return [q.get('dk'), q.get('ruler')]; }""") == [
            str(page.evaluate("() => window.sqrtdkData.results.spread.d_k.at(-1)")), "raw"]
        page.evaluate(FRAMES)       # laid out once more, so the faces the new digits need are
        lay_out_everything(page)    # asked for before it waits on document.fonts.ready
        views.append(platform_fonts(page, leaves))
        drawn[kind] = views
    assert drawn["cut down"][0], "no formula on the page"
    for cut, full in zip(drawn["cut down"], drawn["full"]):
        assert len(cut) == len(full)
        differ = [(i, c, f) for i, (c, f) in enumerate(zip(cut, full)) if c != f]
        assert differ == [], differ[:5]


@pytest.mark.author
@pytest.mark.parametrize("lang", LANGS)
def test_nothing_around_a_numbered_equation_keeps_its_counter_to_itself(shared, lang: str) -> None:
    """KaTeX numbers \\begin{align} lines with one CSS counter across the page; an ancestor
    with style containment (contain: style, or content-visibility: auto, which implies it)
    would restart it, and every number would read (1). Equations are put where an author
    would: a block of the article, a list item, a footnote. The page is not laid out ahead
    (lay_out_everything lifts content-visibility: auto, which this looks for)."""
    page = shared(f"{lang}/index.html").page
    contained = page.evaluate("""() => {
        const eq = () => { const d = document.createElement('div');
            d.className = 'math display';
            d.innerHTML = '<span class="katex-display"><span class="katex"><span class="katex-html">'
                + '<span class="tag"><span class="eqn-num"></span></span></span></span></span>';
            return d; };
        const article = document.querySelector('article');
        const places = [article, article.querySelector('li') || article,
                        document.querySelector('.footnote li') || article];
        const found = [];
        for (const place of places) {
            const added = place.appendChild(eq()), num = added.querySelector('.eqn-num');
            for (let el = num; el; el = el.parentElement) {
                const cs = getComputedStyle(el);
                if (cs.contentVisibility === 'auto' || /style|content|strict/.test(cs.contain))
                    found.push(el.tagName + '.' + el.className);
            }
            added.remove();
        }
        return found; }""")
    assert contained == []


@pytest.mark.parametrize("lang", LANGS)
def test_targets_of_two_blocks_never_overlap_on_a_page_not_scrolled_through(shared, lang: str
                                                                           ) -> None:
    """On a freshly loaded phone page, never scrolled (not laid out ahead: that is what
    Lighthouse's axe reads), no link, summary or control of one block of the article overlaps
    one of another block. The browser skips blocks off screen (content-visibility: auto) and
    gives each a placeholder height, but measures what it holds at its real size when asked
    (getBoundingClientRect): a skipped block holding a target would hang over the blocks
    below, and its target seem to cover theirs (axe's target-size: a figure's "show the
    numbers" under the next figure's link, a 1 px target). Targets inside closed boxes,
    which nobody can reach, are left out (checkVisibility); overlaps inside one block are
    real layout, not this."""
    page = shared(f"{lang}/index.html", viewport=PHONE).page
    targets, overlaps = page.evaluate("""() => {
        const els = [...document.querySelectorAll(
                'article :is(a[href], summary, button, input, select, textarea, [role=slider])')]
            .filter(el => el.checkVisibility())
            .map(el => ({el, block: el.closest('article > *'), r: el.getBoundingClientRect()}))
            .filter(t => t.r.width > 0 && t.r.height > 0);
        const name = t => `${t.block.tagName}#${t.block.id} ${t.el.tagName}.${t.el.className}`
            + ` [${Math.round(t.r.top + scrollY)}, ${Math.round(t.r.bottom + scrollY)}]`;
        const out = [];
        for (const a of els) for (const b of els) {
            if (a.block === b.block || a.el.compareDocumentPosition(b.el)
                    !== Node.DOCUMENT_POSITION_FOLLOWING || a.el.contains(b.el)) continue;
            const w = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
            const h = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
            if (w > 0.5 && h > 0.5) out.push(name(a) + ' / ' + name(b));
        }
        return [els.length, out]; }""")
    assert targets, "the article has no link, summary or control"
    assert overlaps == [], f"{len(overlaps)} overlapping pairs, e.g. {overlaps[:4]}"


@pytest.mark.parametrize("lang", LANGS)
def test_blocks_holding_targets_are_never_skipped_only_without_scripts(visit, lang: str) -> None:
    """Without scripts, every block of the article holding a link, summary or control is laid
    out (content-visibility: visible; explainer.js, which otherwise draws such blocks for a
    frame, is not there to do it); with scripts that rule does not apply (its :has() walk is
    not even made: style.css), and the blocks below the first screen stay skippable."""
    found = {}
    for js in (False, True):
        page = visit(java_script_enabled=js, viewport=PHONE).open(f"{lang}/index.html")
        found[js] = page.evaluate("""() => [...document.querySelectorAll('article > *')]
            .filter(b => b.querySelector('a[href], summary, button, input, select, textarea'))
            .map(b => getComputedStyle(b).contentVisibility)""")
    assert found[False] and set(found[False]) == {"visible"}, found[False]
    assert "auto" in found[True], found[True]


@pytest.mark.parametrize("lang", LANGS)
def test_at_the_top_of_the_page_no_section_is_being_read(shared, lang: str) -> None:
    """At the page's very top the reader is at the title and the opening: the contents mark no
    section and the language switch leads to the other page's top, even when the window is
    tall enough for the first section's heading to sit in its top third (a zh page at
    1280x900 marked its first section and sent "Read in English" to it, skipping the title
    and the opening; the en page at the same size did not)."""
    page = shared(f"{lang}/index.html", viewport={"width": 1280, "height": 3000}).page
    got = page.evaluate("""() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => {
        const a = document.querySelector('a[data-lang-switch]'), href = a.getAttribute('href');
        a.dispatchEvent(new Event('pointerdown'));
        const after = a.getAttribute('href');
        a.setAttribute('href', href);
        done([scrollY, after, [...document.querySelectorAll('.toc a[aria-current]')]
              .map(x => x.getAttribute("href"))]); })))""")
    top, href, marked = got
    assert top == 0
    assert "#" not in href and marked == [], (href, marked)


@pytest.mark.parametrize("lang", LANGS)
def test_a_variable_in_a_try_it_box_is_set_as_the_formulas_set_it(shared, lang: str) -> None:
    """A variable the Try-it boxes' sentences name (a <var>: the winner's share p with its
    subscript) is the formulas' variable: the same face and style as the math engine's
    italic letters (KaTeX's .mathnormal), at the size a formula's letters have beside the
    text around it. It was the box's sans italic beside the formulas' math italic."""
    page = shared(f"{lang}/index.html", laid_out=True).page
    got = page.evaluate("""() => {
        const style = el => { const s = getComputedStyle(el);
            return [s.fontFamily.split(',')[0].trim().replace(/"/g, ''), s.fontStyle]; };
        const math = document.querySelector('article .katex .mathnormal');
        const vars = [...document.querySelectorAll('.widget var')];
        const size = el => parseFloat(getComputedStyle(el).fontSize)
            / parseFloat(getComputedStyle(el.parentElement).fontSize);
        const katex = document.querySelector('article .katex');
        return [style(math), vars.map(style), vars.map(size),
                parseFloat(getComputedStyle(katex).fontSize)
                / parseFloat(getComputedStyle(katex.parentElement).fontSize)]; }""")
    math, vars_, sizes, katex = got
    assert vars_, "no Try-it box names a variable"
    assert all(v == math for v in vars_), (math, vars_)
    assert all(abs(s - katex) < 0.01 for s in sizes), (sizes, katex)
    # drawn with the math engine's face itself (its letter is among the formulas' letters)
    letters = page.evaluate("""() => [...document.querySelectorAll('article .katex .mathnormal')]
        .map(e => e.textContent).join('')""")
    drawn = [f for f, text in zip(platform_fonts(page, ".widget var"),
                                  page.locator(".widget var").all_text_contents())
             if set(text) <= set(letters)]
    assert all(f == {math[0]} for f in drawn), drawn


# ---------------------------------------------------------------- on paper, for a screen reader

@pytest.fixture
def printed(shared: Any) -> Any:
    """printed(lang) -> the article in `lang` laid out as for print (page.pdf's media): a
    shared page of its own that stays in print media (Pages: media). Taking the screen's
    shared page to print and back for each test once left it changed after the round trip
    (a fresh-clone CI run, under load)."""
    return lambda lang: shared(f"{lang}/index.html", laid_out=True, media="print").page


# each printed link of the article with its words (a figure's link is the printed figure):
# its href, the address the page would open, what prints after it, its underline and the
# display of what follows it
PRINTED_LINKS = """() => [...document.querySelectorAll('article a[href]')]
    .filter(a => a.getClientRects().length && a.textContent.trim() && !a.querySelector('img'))
    .map(a => { const after = getComputedStyle(a, '::after');
        return [a.getAttribute('href'), a.href, after.content,
                getComputedStyle(a).textDecorationLine, after.display,
                after.textDecorationLine]; })"""


@pytest.mark.author
@pytest.mark.parametrize("lang", LANGS)
def test_on_paper_a_link_to_another_page_of_the_site_shows_its_full_address(
        printed, lang: str) -> None:
    """Printed, a link to one of the site's own pages (an experiment's source, the other
    language: its href is relative) is followed by its full address under the site's address
    (the page's canonical link), which a reader on paper can type; a link inside the page
    shows none."""
    page = printed(lang)
    canonical = page.evaluate("() => document.querySelector('link[rel=canonical]').href")
    links = page.evaluate(PRINTED_LINKS)
    own = [(href, after, page.evaluate("([h, c]) => new URL(h, c).href", [href, canonical]))
           for href, _, after, *_ in links
           if not href.startswith("#") and not re.match(r"[a-z][a-z0-9+.-]*:|//", href, re.I)]
    assert own, "no printed link to another page of the site"
    missing = [(href, after) for href, after, full in own
               if not full.startswith(canonical.rsplit("/", 2)[0]) or full not in after]
    assert missing == [], missing


@pytest.mark.author
@pytest.mark.parametrize("lang", LANGS)
def test_on_paper_a_link_s_address_is_not_underlined(printed, lang: str) -> None:
    """The address printed after a link is not underlined with the link's words: an underline
    (a text decoration) reaches an inline child such as ::after whatever that child's own
    text-decoration says, and reaches no inline-block one (CSS Text Decoration 3, 2)."""
    links = [row for row in printed(lang).evaluate(PRINTED_LINKS)
             if row[2] not in ("none", "normal", "")]
    assert links, "no printed link shows an address"
    underlined = [(href, display, own) for href, _, _, line, display, own in links
                  if "underline" in line and (display == "inline" or "underline" in own)]
    assert underlined == [], underlined


@pytest.mark.author
@pytest.mark.parametrize("lang", LANGS)
def test_on_paper_a_link_s_address_runs_on_after_its_words_with_a_space(printed,
                                                                         lang: str) -> None:
    """The printed address is an inline ::after that starts with a space. A link laid out as
    a flex or grid box on screen (a reproduce box's link to the full source is an inline-flex
    box, tall enough to tap) makes its ::after a flex item, which is blockified and loses its
    leading space: "The experiment's full source(https://...)". On paper every such link is
    inline, so the address reads "source (https://...)"."""
    links = [row for row in printed(lang).evaluate(PRINTED_LINKS)
             if row[2] not in ("none", "normal", "")]
    assert links, "no printed link shows an address"
    not_inline = [(href, display) for href, _, _, _, display, _ in links if display != "inline"]
    assert not_inline == [], not_inline


@pytest.mark.author
@pytest.mark.parametrize("lang", LANGS)
def test_on_paper_a_link_within_the_page_reads_as_plain_words(printed, lang: str) -> None:
    """A link to a place on the same page ('new to attention?', 'the box on real queries
    and keys') prints no address (paper cannot jump), yet it printed underlined: a mark
    that promises a link the reader cannot follow. Its words print as plain text (the box
    or section it names is printed too)."""
    inside = [(href, line) for href, _, _, line, _, _ in printed(lang).evaluate(PRINTED_LINKS)
              if href.startswith("#")]
    assert inside, "no link within the page"
    underlined = [(href, line) for href, line in inside if "underline" in line]
    assert underlined == [], underlined


@pytest.mark.author
@pytest.mark.parametrize("lang", LANGS)
def test_on_paper_a_displayed_formula_stays_on_the_page_of_the_words_that_lead_into_it(
        printed, lang: str) -> None:
    """A displayed formula is introduced by the block before it ("... so", "the chain rule
    gives", a sentence ending in a colon); printed, a page break between the two left the
    lead-in alone at a page's foot and the formula at the next page's head. No break is
    allowed between a displayed formula and the block before it."""
    kept = printed(lang).evaluate("""() => [...document.querySelectorAll('article .math.display')]
        .filter(m => m.previousElementSibling && m.getClientRects().length)
        .map(m => [m.textContent.slice(0, 30), getComputedStyle(m).breakBefore,
                   getComputedStyle(m.previousElementSibling).breakAfter])""")
    assert kept, "no displayed formula after a block"
    apart = [(tex, before, after) for tex, before, after in kept
             if "avoid" not in (before, after)]
    assert apart == [], apart


@pytest.mark.author
@pytest.mark.parametrize("lang", LANGS)
def test_on_paper_a_quotation_list_or_table_stays_with_the_paragraph_leading_into_it(
        printed, lang: str) -> None:
    """The class of the displayed formula's rule: a block quotation, a list or a table is
    introduced by the paragraph before it ("... one sentence in §3.2.1, plus the footnote
    attached to it:", "compare as follows:", "pin down three things:"). Printed, the paper's
    quoted sentence went overleaf and left its lead-in alone at the foot of page 2. No break
    is allowed between such a block and a paragraph just before it."""
    kept = printed(lang).evaluate("""() => [...document.querySelectorAll(
            'article blockquote, article ul, article ol, article table')]
        .filter(b => b.previousElementSibling && b.previousElementSibling.tagName === 'P'
                     && b.getClientRects().length && b.previousElementSibling.getClientRects().length)
        .map(b => [b.tagName, b.textContent.trim().slice(0, 30), getComputedStyle(b).breakBefore,
                   getComputedStyle(b.previousElementSibling).breakAfter])""")
    assert {tag for tag, *_ in kept} >= {"BLOCKQUOTE", "TABLE"}, kept
    apart = [(tag, text, before, after) for tag, text, before, after in kept
             if "avoid" not in (before, after)]
    assert apart == [], apart


# each control's generated text (a ::before or ::after with a string, its own or a
# descendant's), in the order of CONTROLS
CONTROLS = "a[href], button, summary, label"
GENERATED = """(sel) => [...document.querySelectorAll(sel)].map(c =>
    [c, ...c.querySelectorAll('*')].flatMap(e => ['::before', '::after'].map(p =>
        getComputedStyle(e, p).content))
      .map(v => (v.match(/^"((?:[^"\\\\]|\\\\.)*)"/) || [])[1] || '')
      .map(v => v.trim()).filter(v => v))"""


@pytest.mark.author
@pytest.mark.parametrize("lang", LANGS)
def test_a_control_s_decorative_mark_is_not_part_of_its_accessible_name(shared, lang: str) -> None:
    """A marker drawn by CSS (the contents box's "▸") is read out with the control's words
    unless its content gives an empty alternative text: a screen reader said "black
    right-pointing small triangle, Contents". No control's name holds its generated text."""
    drawn, read_out = [], []
    for context in ({}, PHONE_2X):             # the phone's layout draws marks the desk's does not
        page = shared(f"{lang}/index.html", laid_out=True, **context).page
        generated = page.evaluate(GENERATED, CONTROLS)
        cdp = page.context.new_cdp_session(page)
        try:
            root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
            ids = cdp.send("DOM.querySelectorAll",
                           {"nodeId": root, "selector": CONTROLS})["nodeIds"]
            names = [cdp.send("Accessibility.getPartialAXTree",
                              {"nodeId": nid, "fetchRelatives": False})["nodes"][0]
                     .get("name", {}).get("value", "") for nid in ids]
        finally:
            cdp.detach()
        drawn += [marks for marks in generated if marks]
        read_out += [(name, marks) for name, marks in zip(names, generated, strict=True)
                     if any(mark in name for mark in marks)]
    assert drawn, "no control draws a generated mark"
    assert read_out == [], read_out


@pytest.mark.author
@pytest.mark.parametrize("lang", LANGS)
def test_every_control_s_accessible_name_has_no_space_at_either_end(shared, lang: str) -> None:
    """Each button, link, slider and other control, every widget built, is named by chromium's
    accessibility tree without a space (any white space) at its start or end: a screen reader
    reads the name as given ("␣Switch to dark mode")."""
    page = shared(f"{lang}/index.html", laid_out=True).page
    selector = ("a[href], button, input, select, textarea, summary, [role=slider], "
                "[role=button], [role=link], [tabindex]")
    cdp = page.context.new_cdp_session(page)
    try:
        root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        ids = cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": selector})["nodeIds"]
        named = []
        for nid in ids:
            node = cdp.send("Accessibility.getPartialAXTree",
                            {"nodeId": nid, "fetchRelatives": False})["nodes"][0]
            if not node.get("ignored"):
                named.append((node.get("role", {}).get("value"),
                              node.get("name", {}).get("value", "")))
    finally:
        cdp.detach()
    roles = {role for role, _ in named}
    assert {"button", "link", "slider"} <= roles, roles
    untrimmed = [(role, name) for role, name in named if name != name.strip()]
    assert untrimmed == [], untrimmed
