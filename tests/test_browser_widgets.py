"""The dₖ control for everyone and honest Try-it sheets at every state (issue 20, items 2-3).
Expected numbers come from results.json through sqrtdk.web.embed, never typed here; nothing
depends on the article's wording or on how many figures, sheets or sections it has."""
from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import sliders
from browser import FRAMES, PHONE, Parts, Visit

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


# The dₖ bar on a 360 × 780 phone, in each of its states: at most this share of the screen's
# height (issue 20, item 2: it took 22 % once a box's "change dₖ" had sent the reader there)
BAR_SHARE = 0.15
TARGET_PX = 24               # WCAG 2.5.8, target size (minimum), in CSS px
BAR = """() => { const b = document.querySelector('.dk-bar'), r = b.getBoundingClientRect();
    const controls = [...b.querySelectorAll('[role=slider], .dk-rulers label, button')]
        .filter(e => e.checkVisibility()).map(e => { const q = e.getBoundingClientRect();
            return [e.tagName + ' ' + e.textContent.trim(), q.width, q.height]; });
    const title = b.querySelector('.dk-title').getBoundingClientRect();
    // the words shown besides the controls' names and the value: what the bar says it is for
    const said = [...b.querySelectorAll(':scope > p, :scope > p *')].filter(e => e.checkVisibility())
        .flatMap(e => [...e.childNodes].filter(n => n.nodeType === 3).map(n => n.data.trim()))
        .filter(Boolean);
    return {share: r.height / innerHeight, top: r.top, controls, title: [title.width, title.height],
            said}; }"""


@pytest.mark.author
@pytest.mark.parametrize("lang", LANGS)
def test_the_bar_stays_small_labelled_and_explained_on_a_phone_with_targets_of_24_px(
        visit, lang) -> None:
    """In each state the bar says in words what it is for: shown by a sheet, before any tap,
    it said nothing but its title and its controls' names on a phone (its notes show only
    while it holds the focus; reader's pass), so a reader who saw it come did not know what
    it does."""
    page = visit(viewport={"width": 360, "height": 780}, is_mobile=True, has_touch=True
                 ).open(f"{lang}/index.html")
    jump = page.locator(".widget [data-dk-jump]").first
    for _ in range(5):      # blocks above it laid out on the way (content-visibility) move it
        jump.scroll_into_view_if_needed()
        page.evaluate(FRAMES)
        if 0 <= jump.bounding_box()["y"] < 780:
            break
    page.locator(".dk-bar:not(.dk-away)").wait_for()       # a sheet on screen shows the bar
    states = {"shown by a sheet": page.evaluate(BAR)}
    jump.focus()
    page.keyboard.press("Enter")                 # the box sends the reader to the bar: its
    assert page.evaluate("document.activeElement.id") == "dk-input"   # note and way back show
    page.locator(".dk-bar .dk-back").wait_for()
    states["reached from a box"] = page.evaluate(BAR)
    page.keyboard.press("ArrowRight")            # moved: the other note
    states["moved"] = page.evaluate(BAR)
    parts = Parts()
    for state, bar in states.items():
        with parts(state):
            assert bar["share"] <= BAR_SHARE, (state, round(bar["share"], 3))
            assert bar["top"] >= 0 and bar["title"][0] > 20 and bar["title"][1] > 0   # labelled
            assert len(bar["controls"]) >= 4, bar["controls"]    # slider and three rulers
            assert bar["said"], "the bar does not say what it is for"
            small = [c for c in bar["controls"] if min(c[1], c[2]) < TARGET_PX]
            assert small == [], small
    parts.done()


# The first and the last Try-it box brought a set distance apart: what lies between them (the
# blocks between, and what comes before the last box inside its own block) is put out of the
# page, and an empty block of the right height put in its place
GAP = """stretch => {
    const boxes = [...document.querySelectorAll('.widget')];
    const [a, b] = [boxes[0], boxes[boxes.length - 1]].map(w => w.closest('article > *'));
    let gap = document.getElementById('test-gap');
    if (!gap) {
        a.after(gap = Object.assign(document.createElement('div'), {id: 'test-gap'}));
        for (let el = gap.nextElementSibling; el && el !== b; el = el.nextElementSibling) el.style.display = 'none';
        [...b.children].filter(el => !el.contains(boxes[boxes.length - 1])).forEach(el => { el.style.display = 'none'; });
    }
    const apart = () => boxes[boxes.length - 1].getBoundingClientRect().top - boxes[0].getBoundingClientRect().bottom;
    gap.style.height = '1px';       // margins no longer collapse through it
    gap.style.height = Math.max(1, 1 + stretch + innerHeight - apart()) + 'px';
    const top = boxes[0].getBoundingClientRect().bottom + scrollY;
    return [top, top + apart(), apart() - innerHeight]; }"""
AWAY = "() => document.querySelector('.dk-bar').classList.contains('dk-away')"


@pytest.mark.parametrize("lang", LANGS)
def test_the_bar_stays_put_across_a_short_stretch_of_text_between_two_boxes(visit, lang) -> None:
    """On a phone the bar went away and came back over the ~400 px of text between a table
    that follows dₖ and the next Try-it box (newcomer, third pass). Between two boxes whose
    text apart takes less than a screen to scroll through, it now stays put all the way;
    over a longer stretch (here two and a half screens) it still goes away, and comes back
    with the next box."""
    page = visit(viewport=PHONE, is_mobile=True, has_touch=True).open(f"{lang}/index.html")
    if page.locator(".widget").count() < 2:
        pytest.skip("one Try-it box: no stretch between two")
    page.evaluate("document.documentElement.classList.add('laid-out')")
    h = PHONE["height"]
    above, below, stretch = page.evaluate(GAP, 0.6 * h)
    assert abs(stretch - 0.6 * h) < 2, stretch
    seen = []
    for y in range(int(above - h / 2), int(below - h / 2) + 1, h // 10):
        page.evaluate("y => scrollTo(0, y)", y)
        page.evaluate(FRAMES)
        if y == int(above - h / 2):
            page.locator(".dk-bar:not(.dk-away)").wait_for()     # the first box shows it
        seen.append((round(y - above), page.evaluate(AWAY)))
    assert not [y for y, away in seen if away], f"away at {seen} (px past the first box)"
    above, below, stretch = page.evaluate(GAP, 2.5 * h)
    page.evaluate("y => scrollTo(0, y)", (above + below - h) / 2)
    page.wait_for_function(AWAY, timeout=3000)                   # a long stretch: away
    page.evaluate("y => scrollTo(0, y)", below - h / 2)
    page.locator(".dk-bar:not(.dk-away)").wait_for(timeout=3000)   # the next box: back


# every layout shift of the page from its start, each with whether any of the boxes it moved
# belongs to the dₖ bar (a text node's box: its element's)
SHIFTS = """window.__sqrtdkShifts = [];
    new PerformanceObserver((list) => list.getEntries().forEach((e) => window.__sqrtdkShifts.push(
        [e.value, e.sources.some((s) => {
            const el = s.node && (s.node.nodeType === 1 ? s.node : s.node.parentElement);
            return !!el?.closest('.dk-bar'); })])))
    .observe({type: 'layout-shift', buffered: true});"""


@pytest.mark.parametrize("viewport", [PHONE, {"width": 1280, "height": 900}], ids=["phone", "desktop"])
def test_the_bar_comes_with_a_box_without_a_layout_shift(visit, viewport) -> None:
    """The bar, out of sight, then shown by a Try-it box scrolled into view, moves nothing:
    no layout shift (CLS) has a box of the bar among those it moved. Out of sight it was kept
    in a 1 px box that stacked its parts in a column, and their move to their places counted
    as a shift of 0.04 to 0.07 each time it came. Out of sight it takes no click: what is
    under it gets it."""
    v = visit(viewport=viewport)
    v.page.add_init_script(SHIFTS)
    page = v.open("en/index.html")
    assert page.evaluate(AWAY)
    under = page.evaluate("""() => { const r = document.querySelector('.dk-bar').getBoundingClientRect();
        const at = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height, 10) / 2);
        return at && !at.closest('.dk-bar'); }""")
    assert under, "a click where the bar is out of sight reaches the bar"
    box = page.locator(".widget").first
    for _ in range(5):      # blocks above it laid out on the way (content-visibility) move it
        box.scroll_into_view_if_needed()
        page.evaluate(FRAMES)
        if 0 <= box.bounding_box()["y"] < viewport["height"]:
            break
    page.locator(".dk-bar:not(.dk-away)").wait_for()
    page.evaluate(FRAMES)
    shifts = page.evaluate("window.__sqrtdkShifts")
    assert [value for value, bar in shifts if bar] == [], shifts
    assert v.problems == []


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


def the_bar_and_the_sheets_start_at_the_papers_dk(page: Any, results: dict[str, Any]) -> None:
    """On a freshly loaded page: the bar and the sheets at the paper's dₖ, one number for
    the scale slider and its mark."""
    start = start_state(results)
    assert results["spread"]["d_k"][start["i"]] == results["two_scores"]["d_k"]
    assert sliders.step(page, "#dk-input") == start["i"]
    assert sliders.step(page, "#scale-input") == start["m"]
    sheet = page.locator("#scale-input").locator("xpath=ancestor::*[contains(@class,'widget')]")
    shown = sheet.locator(".widget-value").text_content()
    mark = sheet.locator('[data-slot="mark"]').text_content()
    assert shown == "×" + mark == "×" + slot_text("mark", results, start)[0]


@pytest.mark.parametrize("lang", LANGS)
def test_the_bar_starts_at_the_papers_dk_and_formulas_mathml_says_the_numbers_shown(
        visit, site_build, lang: str) -> None:
    """Two checks on one load (one load instead of two): the page as loaded starts at the
    paper's dₖ; then, the bar moved to its end, each formula's MathML says the numbers it
    shows. Each is judged whatever the other found."""
    results = site_build["results"]
    page = visit().open(f"{lang}/index.html")
    parts = Parts()
    with parts("the bar and the sheets start at the paper's dk, one number for slider and mark"):
        the_bar_and_the_sheets_start_at_the_papers_dk(page, results)
    quoted = True
    with parts("formulas' MathML says the numbers the reader sees"):
        quoted = formulas_mathml_says_the_numbers_the_reader_sees(page, results)
    parts.done()
    if not quoted:
        pytest.skip("no formula quotes a number that follows dₖ (the start was checked)")


def formulas_mathml_says_the_numbers_the_reader_sees(page: Any, results: dict[str, Any]) -> bool:
    """False when no formula quotes a number that follows dₖ (nothing to check)."""
    # the math engine's selectors, as the page gives them to its script (sqrtdk/web/math)
    check = """() => { const h = JSON.parse(document.getElementById('math-hooks').textContent);
        return [...document.querySelectorAll(h.formula)].filter(k => k.querySelector(`${h.drawn} [data-key]`))
        .map(k => [[...k.querySelectorAll(`${h.drawn} [data-key]`)].map(q => q.textContent),
                   k.querySelector(h.speech).textContent.replace(/\\s/g, '')]); }"""
    before = page.evaluate(check)
    if not before:
        return False
    sliders.move(page, "#dk-input", len(results["spread"]["d_k"]) - 1)
    after = page.evaluate(check)
    assert after != before
    for quotes, mathml in after:
        for q in quotes:
            assert q.replace("\u00a0", "") in mathml, (q, mathml)
    return True


def tick_step(labels: list[str]) -> float:
    values = [float(t.replace("−", "-").replace(",", "")) for t in labels]
    steps = {round(b - a, 9) for a, b in zip(values, values[1:])}
    assert len(steps) == 1, labels
    return steps.pop()


def check_sheets(page: Any, results: dict[str, Any], state: dict[str, Any]) -> None:
    """Every slot of every sheet as embed.slot_text gives it; sheet 1's ticks on a 1-2-5 step."""
    shown, ticks = page.evaluate("""() => [[...document.querySelectorAll('.widget [data-slot]')]
        .map(el => [el.dataset.slot, el.textContent]),
        [...document.querySelectorAll('#fig-spread-hist .widget svg.chart g text')]
        .map(el => el.textContent)]""")              # one round trip for both
    assert shown
    for name, text in shown:
        if "{k}" in SLOTS[name][0]:
            continue                          # the scale slider's own sweep checks these
        assert text == slot_text(name, results, state)[0], (name, state)
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
        for r in rulers:     # move focuses the slider first: the bar shows for check
            sliders.move(page, "#dk-input", i)
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
    kind = SLOTS["share"][1].split(":")[0]
    shown_bounds = {format_number(kind, b, n) for b in bounds for n in range(13)}
    for k, share, sens, labels in every:
        state = {**start_state(results), "k": k}
        assert share == slot_text("share", results, state)[0], k
        assert sens == slot_text("sens", results, state)[0], k
        for text in labels:      # a softmax share never reaches 0 or 1 (embed.OPEN_BOUNDS)
            assert text not in shown_bounds, (k, text)
        assert share not in shown_bounds, k
        assert labels == [share], (k, labels, share)    # the winner's bar: the same quantity,
                                                         # the same precision as the readout


# Every text of the sheets and the bar (their words, numbers, chart labels and names for
# screen readers) at every dₖ of the grid under every ruler, then at every scale of sheet 2
SWEEP = """() => {
    const dk = document.querySelector('#dk-input'), scale = document.querySelector('#scale-input');
    const radios = [...document.querySelectorAll('.dk-bar input[type=radio]')];
    const grab = () => [...document.querySelectorAll('.widget, .dk-bar')].flatMap(w => [
        ...[...w.querySelectorAll('p, span, text, output, label, button')].map(e => e.textContent),
        ...[...w.querySelectorAll('[aria-label], [aria-valuetext]')].flatMap(e =>
            [e.getAttribute('aria-label') || '', e.getAttribute('aria-valuetext') || ''])]);
    const move = (el, v) => { el.value = v; el.dispatchEvent(new Event('input', {bubbles: true})); };
    const out = [];
    for (let i = +dk.min; i <= +dk.max; i++) for (const r of radios) {
        move(dk, i);
        r.checked = true; r.dispatchEvent(new Event('change', {bubbles: true}));
        out.push(...grab());
    }
    for (let k = +scale.min; k <= +scale.max; k++) { move(scale, k); out.push(...grab()); }
    return [...new Set(out)]; }"""
# a relation sign, then another: "= >", "=>", "≈ <", "> ="
RELATION_THEN_BOUND = re.compile(r"[=≈≤≥<>]\s*[<>≤≥]|[<>]\s*=")
SHOWN_AS_BOUND = re.compile(r"[<>]\s\d")


UNGROUPED = re.compile(r"(?<![\d.,])\d{4,}")     # four digits or more with no comma among them
QUOTED = """() => [...document.querySelectorAll('[data-key], .fig-data td, .fig-data th')]
    .map(e => e.textContent)"""


@pytest.fixture(scope="module")
def swept(browser: Any, served: str) -> Iterator[Callable[[str], tuple[list[str], list[str]]]]:
    """swept(lang) -> (SWEEP's texts on a freshly loaded page, then QUOTED's on the page the
    sweep left): one load and one sweep per language for the checks that read them (pure
    data; the page is closed at once)."""
    made: dict[str, tuple[list[str], list[str]]] = {}

    def sweep(lang: str) -> tuple[list[str], list[str]]:
        if lang not in made:
            v = Visit(browser, served)
            try:
                page = v.open(f"{lang}/index.html")
                made[lang] = (page.evaluate(SWEEP), page.evaluate(QUOTED))
            finally:
                v.context.close()
        return made[lang]
    yield sweep


@pytest.mark.parametrize("lang", LANGS)
def test_no_widget_writes_a_relation_before_a_bound(swept, lang: str) -> None:
    """"pH = > 99.9999%" never: where a number is shown as a bound, its sign takes the place
    of the relation written before it, at every dₖ, ruler and scale."""
    texts = swept(lang)[0]
    assert [t for t in texts if SHOWN_AS_BOUND.search(t)]     # the sweep met bounds
    assert not [t for t in texts if RELATION_THEN_BOUND.search(t)]


@pytest.mark.parametrize("lang", LANGS)
def test_every_number_groups_its_thousands_with_commas(swept, lang: str) -> None:
    """One rule in both languages: 1,024 in the prose's quoted numbers, the figures' tables,
    the sheets and the bar, at every state of the controls."""
    texts = [*swept(lang)[0], *swept(lang)[1]]
    assert [t for t in texts if re.search(r"\d,\d{3}", t)]     # some number is that large
    assert not [t for t in texts if UNGROUPED.search(t)]


# sheet 1's tags ("dₖ = 64") and the bars of both histograms under each, in the chart's units
TAGS_AND_BARS = """() => {
    const chart = document.querySelector('#fig-spread-hist .widget svg.chart'), out = [];
    const bars = (path) => { const d = path.getAttribute('d'), re = /V(-?[\\d.]+)H(-?[\\d.]+)/g;
        let x = +d.match(/^M(-?[\\d.]+)/)[1], m; const b = [];
        while ((m = re.exec(d))) { b.push([x, +m[2], +m[1]]); x = +m[2]; }
        return b; };
    const all = [...chart.querySelectorAll('path.hist')].flatMap(bars);
    return [...chart.querySelectorAll('text.tag')].map(t => { const b = t.getBBox();
        return [t.textContent, [b.x, b.y, b.width, b.height],
                all.filter(([l, r]) => r > b.x && l < b.x + b.width).map(x => x[2])]; }); }"""


@pytest.mark.parametrize("viewport", [PHONE, {"width": 1280, "height": 900}], ids=["phone", "desktop"])
def test_the_histogram_tags_cross_no_bar_at_any_dk_and_ruler(visit, site_build, viewport) -> None:
    results = site_build["results"]
    page = visit(viewport=viewport).open("en/index.html")
    page.locator("#fig-spread-hist .widget svg.chart").scroll_into_view_if_needed()
    for i in range(start_state(results)["s"] + 1, len(results["spread"]["d_k"])):
        for r in results["rulers"]["names"]:
            sliders.move(page, "#dk-input", i)
            page.locator(f'.dk-bar input[value="{r}"]').check()
            tags = page.evaluate(TAGS_AND_BARS)
            assert len(tags) == 2
            for text, (_, y, width, height), tops in tags:
                assert width > 0 and tops, (text, i, r)
                # every bar under the text's width starts below the text (1 unit of slack)
                assert min(tops) >= y + height - 1, (text, i, r, y + height, min(tops))


@pytest.mark.parametrize("lang", LANGS)
def test_the_slider_gives_assistive_technology_dk_not_its_grid_position(visit, site_build,
                                                                       lang: str) -> None:
    """The accessibility tree Chromium gives a screen reader (CDP's full tree): the dₖ
    slider's value, minimum and maximum are dimensions, and its value text is the bar's."""
    results = site_build["results"]
    d_k, s = results["spread"]["d_k"], start_state(results)["s"]
    page = visit().open(f"{lang}/index.html")
    name = page.locator(".dk-bar .dk-title").text_content().strip()
    cdp = page.context.new_cdp_session(page)
    root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    for i in range(s + 1, len(d_k)):
        sliders.move(page, "#dk-input", i)
        # the tree's sliders of that name (chromium searches its whole tree, ignored nodes
        # included; the same nodes as filtering getFullAXTree, without sending all of it)
        nodes = cdp.send("Accessibility.queryAXTree", {"nodeId": root, "role": "slider",
                                                       "accessibleName": name})["nodes"]
        assert len(nodes) == 1
        props = {p["name"]: p["value"].get("value") for p in nodes[0]["properties"]}
        assert nodes[0]["value"]["value"] == d_k[i], i
        assert (props["valuemin"], props["valuemax"]) == (d_k[s + 1], d_k[-1])
        text = page.locator("#dk-input").get_attribute("aria-valuetext") or ""
        assert text == page.locator(".dk-bar output").text_content()
        assert text.endswith(format_number("grouped", d_k[i])), text


def slider_ax(page: Any, selector: str = "#dk-input") -> dict[str, Any]:
    """The dₖ slider's node in chromium's accessibility tree (CDP's Accessibility domain: what
    the browser hands a screen reader): name, numeric value, bounds, value text, description."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("Accessibility.enable")
    # the document's node alone (depth 0): DOM.querySelector brings the node it finds; the
    # whole tree (depth -1) cost chromium 1-4 s a call to serialize on a page of formulas
    root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    ax = cdp.send("Accessibility.getPartialAXTree", {"nodeId": node, "fetchRelatives": False})
    n = ax["nodes"][0]
    out = {p["name"]: p["value"].get("value") for p in n.get("properties", [])}
    out.update(role=n["role"]["value"], name=n.get("name", {}).get("value", ""),
               value=n.get("value", {}).get("value"),
               description=n.get("description", {}).get("value", ""))
    cdp.detach()
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_a_screen_reader_gets_dk_itself_from_the_slider(visit, site_build, lang: str) -> None:
    """What the accessibility tree carries for the dₖ slider is dₖ itself, as a number (its
    value and bounds, never its step on the grid) and as the words shown beside it (its
    aria-valuetext), said once: no description repeats it; before and after the keyboard
    steps it. (CDP's tree leaves aria-valuetext out; test_browser_sliders.py reads it in the
    tree the platform's screen readers get.)"""
    d_k = site_build["results"]["spread"]["d_k"]
    page = visit(viewport=PHONE).open(f"{lang}/index.html")
    slider = page.locator("#dk-input")
    slider.focus()
    for press in ("", "ArrowRight", "ArrowLeft", "ArrowLeft"):
        if press:
            page.keyboard.press(press)
        i = sliders.step(page, "#dk-input")
        shown = page.locator(".dk-bar .dk-value").text_content()
        ax = slider_ax(page)
        assert ax["role"] == "slider" and ax["name"], ax
        assert ax["value"] == d_k[i], (press, ax)                       # dₖ, not its step
        assert ax["valuemax"] == d_k[-1] and ax["valuemin"] in d_k, ax
        assert not ax["description"] and shown == slider.get_attribute("aria-valuetext"), ax
        assert format_number("grouped", d_k[i], 0) in shown, (shown, d_k[i])


# Every "dₖ = N" a sheet shows or names for screen readers (text and aria-label), sheet 1's
# two tags and its chart's name, at every dₖ of the grid under every ruler; then the numbers
# explainer.js formats for the given [kind, value, digits] (its twin of format_number)
LABELS = """(cases) => {
    const dk = document.querySelector('#dk-input');
    const radios = [...document.querySelectorAll('.dk-bar input[type=radio]')];
    const chart = document.querySelector('#fig-spread-hist .widget svg.chart');
    const named = () => [...document.querySelectorAll('.widget')].flatMap(w => [w.textContent,
        ...[...w.querySelectorAll('[aria-label]')].map(e => e.getAttribute('aria-label'))])
        .flatMap(t => [...t.matchAll(/dₖ\\s*=\\s*(\\d{1,3}(?:,\\d{3})*)/g)].map(m => m[1]));
    const states = [];
    for (let i = +dk.min; i <= +dk.max; i++) for (const r of radios) {
        dk.value = i; dk.dispatchEvent(new Event('input', {bubbles: true}));
        r.checked = true; r.dispatchEvent(new Event('change', {bubbles: true}));
        states.push([i, r.value, [...new Set(named())],
                     [...chart.querySelectorAll('text.tag')].map(t => t.textContent),
                     chart.getAttribute('aria-label')]);
    }
    return [states, cases.map(([k, v, n]) => window.sqrtdkNumber(k, v, n))]; }"""


def number_cases() -> list[tuple[str, float, int]]:
    """Values for both formatters: large ones at few figures (24,990 to 3 is 25,000), exact
    ties at every place, small ones, negatives, and a seeded spread over 24 decades."""
    import random
    rng = random.Random(20)
    cases = [("sig", v, n) for v in (24990.0, 1234.6, 999.6, -12345.0, 150.0, 250.0, 1235.0,
                                     99999.0, 2.5e7, 0.000123456, 0.99962) for n in (1, 2, 3, 4)]
    cases += [("sig", rng.choice((1, -1)) * 10 ** rng.uniform(-8, 15), rng.randint(1, 5))
              for _ in range(300)]
    cases += [("sig", 5.0 * rng.randint(1, 10 ** 6), rng.randint(1, 5)) for _ in range(100)]
    cases += [(kind, rng.uniform(-2e4, 2e4), rng.randint(0, 4)) for kind in ("fixed", "pct")
              for _ in range(50)]
    return cases + [("grouped", float(rng.randint(0, 10 ** 7)), 0) for _ in range(20)]


@pytest.mark.parametrize("lang", LANGS)
def test_labels_follow_the_state_numbers_match_the_build_and_print_drops_control_words(
        visit, site_build, lang: str) -> None:
    """One load, four checks, each judged whatever the others found. (1) At every dₖ and ruler
    each dₖ a sheet names is the chosen one or sheet 1's fixed small one; sheet 1's tags are
    exactly those two and its chart's name says them. (2) explainer.js's formatting gives
    format_number's text for every kind, large and small, ties included. (3) The scale
    slider gives assistive technology the scale as its value, not its step on the grid.
    (4) What the article says about controls (.screen-only) shows on screen, not in print."""
    results = site_build["results"]
    d_k, s = results["spread"]["d_k"], start_state(results)["s"]
    cases = number_cases()
    page = visit().open(f"{lang}/index.html")
    states, formatted = page.evaluate(LABELS, [list(c) for c in cases])
    parts = Parts()
    with parts("every label follows the state"):
        assert len(states) == (len(d_k) - s - 1) * len(results["rulers"]["names"])
        small = format_number("grouped", d_k[s])
        for i, r, named, tags, name in states:
            chosen = format_number("grouped", d_k[i])
            assert set(named) <= {small, chosen} and chosen in named, (i, r, named)
            assert tags == [f"dₖ = {small}", f"dₖ = {chosen}"], (i, r, tags)
            assert all(t in name for t in tags), (i, r, name)
    with parts("the script's numbers are format_number's"):
        wrong = [(c, js, format_number(*c)) for c, js in zip(cases, formatted)
                 if js != format_number(*c)]
        assert not wrong, wrong[:5]
    with parts("the scale slider's value is the scale"):
        sa = results["saturation"]
        for k in (0, len(sa["scales"]) - 1):
            sliders.move(page, "#scale-input", k)
            assert slider_ax(page, "#scale-input")["value"] == pytest.approx(sa["scales"][k]), k
    with parts("words about controls show on screen only"):
        words = page.locator("article .screen-only")
        if words.count():
            assert all(w.is_visible() for w in words.all())
            page.emulate_media(media="print")
            assert not any(w.is_visible() for w in words.all())
            page.emulate_media(media="screen")
    parts.done()


# Sheet 1's readout at every dₖ × ruler × batch: [i, ruler, batch, {slot: text}]
READOUTS = """() => {
    const dk = document.querySelector('#dk-input'), w = document.querySelector('#fig-spread-hist .widget');
    const button = w.querySelector('.widget-button'), out = [];
    const radios = [...document.querySelectorAll('.dk-bar input[type=radio]')];
    const move = (el, v) => { el.value = v; el.dispatchEvent(new Event('input', {bubbles: true})); };
    const n = window.sqrtdkData.results.spread.batches.n;
    for (let i = +dk.min; i <= +dk.max; i++) for (const r of radios) {
        move(dk, i);
        r.checked = true; r.dispatchEvent(new Event('change', {bubbles: true}));
        for (let b = 0; b <= n; b++) {
            const shown = {};
            w.querySelectorAll('.widget-readout [data-slot]').forEach(e => { shown[e.dataset.slot] = e.textContent; });
            out.push([i, r.value, b, shown]);
            button.click();
        }
    }
    return out; }"""


def _figures(kind: str, text: str) -> int:
    """The digits a formatted number shows in its kind: decimals for fixed, significant
    digits for sig ("0.06229" 4, "2.00790" 6)."""
    if kind != "sig":
        return len(text.split(".")[1]) if "." in text else 0
    return len(text.split("\u00a0")[0].replace(",", "").replace("−", "").replace(".", "")
               .lstrip("0"))


def _kind(spec: str) -> tuple[str, int]:
    kind, _, digits = spec.partition(":")
    return kind, int(digits or 0)


def _check_relations(shown: dict[str, str], specs: dict[str, str], values: dict[str, float],
                     where: Any) -> int:
    """The shown operands of each RELATED triple in `shown` divide out to the shown quotient
    (wherever the stored results do: results.json keeps 6 figures), and a COMPARED pair
    differs wherever the values differ beyond the most digits a sheet shows; how many
    relations were checked."""
    from sqrtdk.web.embed import COMPARED, RELATED, WIDGET_EXTRA_DIGITS, divides_out, shown_value
    checked = 0
    for num, den, quotient in RELATED:
        if not all(x in shown for x in (num, den, quotient)):
            continue
        kind, n = _kind(specs[quotient])
        assert _kind(specs[num]) == _kind(specs[den]), (where, specs)
        if format_number(kind, values[num] / values[den], n) != shown[quotient]:
            continue
        got = shown_value(shown[num]) / shown_value(shown[den])
        assert divides_out(got, shown[quotient], kind, n), (where, shown)
        checked += 1
    for x, y in COMPARED:
        if x in shown and y in shown:
            assert specs[x] == specs[y], (where, specs)
            kind, n = _kind(SLOTS[x][1])
            most = n + WIDGET_EXTRA_DIGITS
            if format_number(kind, values[x], most) != format_number(kind, values[y], most):
                assert shown[x] != shown[y], (where, shown)
            checked += 1
    return checked


@pytest.mark.parametrize("lang", LANGS)
def test_sheet_1s_numbers_keep_their_digits_and_relations_at_every_dk_ruler_and_batch(
        visit, site_build, lang: str) -> None:
    """Each number of sheet 1's readout shows one number of digits in every state (every dₖ
    the bar reaches × ruler × batch): a quantity keeps its precision as the reader moves the
    controls. In every state the shown operands of a quotient (embed.RELATED) divide out to
    the shown quotient, the numbers compared (embed.COMPARED) differ where they differ, and
    every text is what embed.slot_text gives."""
    from sqrtdk.web.embed import sheet_specs
    results = site_build["results"]
    specs = sheet_specs(results)
    page = visit().open(f"{lang}/index.html")
    every = page.evaluate(READOUTS)
    n = results["spread"]["batches"]["n"]
    assert len(every) == (len(results["spread"]["d_k"]) - start_state(results)["s"] - 1) * 3 * (n + 1)
    digits: dict[str, set[int]] = {}
    checked = 0
    for i, r, b, shown in every:
        state = {**start_state(results), "i": i, "r": r, "b": b,
                 "m": results["saturation"]["scale_index"][r][i]}
        values = {}
        for name, text in shown.items():
            assert text == slot_text(name, results, state)[0], (name, i, r, b)
            digits.setdefault(name, set()).add(_figures(_kind(specs[name])[0], text))
            path = SLOTS[name][0].format(**state)
            values[name] = float(path) if path.isdigit() else float(
                _result(results, path))
        checked += _check_relations(shown, specs, values, (i, r, b))
    assert checked
    assert all(len(d) == 1 for d in digits.values()), digits


def _result(results: dict[str, Any], path: str) -> Any:
    from sqrtdk.science.results import at
    return at(results, path)


PROSE_AND_BOX = """() => [[...document.querySelectorAll('article [data-key]')]
        .filter(e => !e.closest('.widget')).map(e => [e.dataset.key, e.textContent]),
    [...document.querySelectorAll('#fig-spread-hist .widget .widget-readout [data-slot]')]
        .map(e => e.textContent)]"""


@pytest.mark.parametrize("lang", LANGS)
def test_the_text_describes_all_pairs_whichever_batch_the_box_shows(visit, site_build,
                                                                    lang: str) -> None:
    """The prose speaks of all the pairs: drawing another batch changes sheet 1's readout
    (which then names its batch) and no quoted number of the text, at a dₖ the reader chose."""
    results = site_build["results"]
    d_k = results["spread"]["d_k"][start_state(results)["s"] + 1]
    page = visit().open(f"{lang}/index.html?dk={d_k}&ruler=sqrt")
    before, box = page.evaluate(PROSE_AND_BOX)
    assert before
    page.locator("#fig-spread-hist .widget-button").click()
    after, box_after = page.evaluate(PROSE_AND_BOX)
    assert box_after != box                        # the box shows the batch…
    assert page.locator('#fig-spread-hist [data-batch="one"]').is_visible()
    assert after == before                         # …the text does not follow it


# every paragraph of the text quoting a prose slot (embed.PROSE_SLOTS), at every dₖ of the
# bar: [i, [{slot: [format shown, text]} per paragraph]]
PROSE_AT_EVERY_DK = """(prose) => {
    const dk = document.querySelector('#dk-input'), out = [];
    const move = (el, v) => { el.value = v; el.dispatchEvent(new Event('input', {bubbles: true})); };
    const grab = () => {
        const blocks = new Map();
        document.querySelectorAll('article [data-key]').forEach(e => {
            const name = prose[e.dataset.key], block = e.closest('article > *');
            if (!name || !block || e.closest('.widget')) return;
            if (!blocks.has(block)) blocks.set(block, {});
            blocks.get(block)[name] = [e.dataset.shown || e.dataset.format, e.textContent];
        });
        return [...blocks.values()];
    };
    out.push([-1, grab()]);                    // the page as built
    for (let i = +dk.min; i <= +dk.max; i++) { move(dk, i); out.push([i, grab()]); }
    return out; }"""


@pytest.mark.parametrize("lang", LANGS)
def test_the_texts_related_numbers_keep_their_digits_and_divide_out_at_every_dk(
        visit, site_build, lang: str) -> None:
    """Each quoted number of the text that follows dₖ shows one number of digits as built and
    at every dₖ of the bar; a paragraph that quotes a whole RELATED triple shows numbers that
    divide out, and one that quotes a whole COMPARED pair shows both at one precision and
    apart where they differ."""
    from sqrtdk.web.embed import FOLLOW, PROSE_SLOTS, default_state
    results = site_build["results"]
    page = visit().open(f"{lang}/index.html")
    every = page.evaluate(PROSE_AT_EVERY_DK, PROSE_SLOTS)
    by_slot = {name: path for path, name in PROSE_SLOTS.items()}
    digits: dict[tuple[int, str], set[int]] = {}
    checked = 0
    for i, blocks in every:
        state = {**default_state(results), **({} if i < 0 else {"i": i})}
        for n, quoted in enumerate(blocks):
            specs = {name: spec for name, (spec, _) in quoted.items()}
            shown = {name: text for name, (_, text) in quoted.items()}
            for name, text in shown.items():
                digits.setdefault((n, name), set()).add(_figures(_kind(specs[name])[0], text))
            values = {name: float(_result(results, FOLLOW[by_slot[name]].format(**state)))
                      for name in shown}
            checked += _check_relations(shown, specs, values, (i, n))
    assert checked
    assert all(len(d) == 1 for d in digits.values()), digits


@pytest.mark.parametrize("viewport", [PHONE, {"width": 1280, "height": 900}], ids=["phone", "desktop"])
def test_a_line_of_a_box_that_starts_a_row_starts_at_the_boxs_text_edge(visit, viewport) -> None:
    """Every line of text a Try-it box starts on a row of its own (a control row's text wrapped
    under its button included) starts where the box's title does: no stray margin."""
    page = visit(viewport=viewport).open("en/index.html")
    rows = page.evaluate("""() => [...document.querySelectorAll('.widget')].map(w => {
        const edge = w.querySelector('.widget-title').getBoundingClientRect().left;
        const lefts = [...w.querySelectorAll('.widget-controls > *:not([hidden])')]
            .map(e => e.getBoundingClientRect().left);
        const firsts = lefts.filter(l => l < edge + 40);   // the items that start a row
        return [edge, firsts]; })""")
    assert any(firsts for _, firsts in rows)          # some box has a row of controls
    for edge, firsts in rows:
        for left in firsts:
            assert abs(left - edge) < 0.5, (edge, firsts)


# the scale sheet's chart name at every scale of its slider: [k, aria-label]
SCALE_NAMES = """() => {
    const input = document.querySelector('#scale-input'), chart = input.closest('.widget').querySelector('svg');
    const out = [];
    for (let k = +input.min; k <= +input.max; k++) {
        input.value = k; input.dispatchEvent(new Event('input', {bubbles: true}));
        out.push([k, chart.getAttribute('aria-label')]);
    }
    return out; }"""


@pytest.mark.parametrize("lang", LANGS)
def test_the_scale_sheets_chart_names_every_share_as_the_tables_do(visit, site_build,
                                                                   lang: str) -> None:
    """At every scale of sheet 2's slider its chart's name gives each position's share as the
    figure tables print it (embed.widget_number with SMALL_SHARES: a tiny share in
    significant digits, never "0.0001" for 6.75 × 10⁻⁵)."""
    from sqrtdk.web.embed import SHARE_FORMAT, is_open, is_small, widget_number
    results = site_build["results"]
    sa = results["saturation"]
    bounds = bounds_for("saturation.shares.0.0", results["meta"]["bounds"])
    kind, _, digits = SHARE_FORMAT.partition(":")
    page = visit().open(f"{lang}/index.html")
    names = page.evaluate(SCALE_NAMES)
    assert len(names) == len(sa["scales"])
    tiny = 0
    for k, name in names:
        for label, v in zip(sa["labels"], sa["shares"][k]):
            path = f"saturation.shares.{k}"
            text = widget_number(kind, v, int(digits), bounds, is_open(path), is_small(path))
            assert f"{label} {text}" in name, (k, label, v, name)
            tiny += 0 < v < 1e-3
    assert tiny
