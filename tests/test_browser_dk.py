"""One dₖ for the whole page (issue 10): the bar sets dₖ and the ruler, every sheet answers
from the slice of results.json the page embeds, the URL keeps the view, the keyboard drives
every control. Expected numbers are read from results.json, never typed here."""
from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
import sliders
from browser import PHONE, fmt, lay_out_everything

from sqrtdk.science.results import at
from sqrtdk.web.embed import FOLLOW, PROSE_SLOTS, default_state, resolve, slot_text, start_state

pytestmark = pytest.mark.browser
# `author` (run again on the author's copy, tests/test_author_copy.py) marks the tests whose
# outcome depends on the author's files (articles, strings, figure labels); those that
# exercise only the templates, the stylesheet or the scripts, which an author does not edit,
# run once, here.
LANGS = ("en", "zh")


def lowest(results: dict[str, Any]) -> int:
    """The bar's first position: the dimension after sheet 1's baseline d_small (comparing
    d_small with itself would say nothing)."""
    return int(results["spread"]["d_k"].index(results["spread"]["d_small"])) + 1


def states(results: dict[str, Any]) -> list[dict[str, Any]]:
    """Both ends of the bar's range and its middle, under each ruler."""
    d = results["spread"]["d_k"]
    picks = [lowest(results), len(d) // 2, len(d) - 1]
    return [{"i": i, "r": r} for i in picks for r in results["rulers"]["names"]]


def set_state(page: Any, results: dict[str, Any], i: int, r: str) -> None:
    """Through the controls, as a reader would (the slider and the radio buttons); the bar
    shows while it holds the focus, which sliders.move gives the slider before it moves it."""
    sliders.move(page, "#dk-input", i)
    page.locator(f'.dk-bar input[type=radio][value="{r}"]').check()


def expected(results: dict[str, Any], name: str, state: dict[str, Any]) -> str:
    """What a sheet's slot shows in `state` (embed.widget_number's rounding)."""
    return slot_text(name, results, state)[0]


def slot_texts(widget: Any, name: str) -> set[str]:
    return set(widget.locator(f'[data-slot="{name}"]').all_text_contents())


def full_state(results: dict[str, Any], change: dict[str, Any]) -> dict[str, Any]:
    """The sheets' state after `change` (the mark's place `m` follows dₖ and the ruler)."""
    s = {**start_state(results), **change}
    return {**s, "m": results["saturation"]["scale_index"][s["r"]][s["i"]]}


# what test_every_sheet_answers_for_the_chosen_dk_and_ruler reads after each move, in one
# round trip (a locator call per slot cost chromium about 0.14 s each): the texts of each
# sheet's slots by name, the large histogram's shape, the scale slider's value, the class of
# each ruler's column in sheet 3, and (text, format) of every quote of each followed key in
# the text (not in a figure or a reproduce box)
_SHOWN = """({names, rulers, keys}) => {
    const all = sel => [...document.querySelectorAll(sel)];
    const slots = Object.fromEntries(Object.entries(names).map(([fig, list]) => [fig,
        Object.fromEntries(list.map(n => [n, all(`${fig} .widget [data-slot="${n}"]`)
            .map(e => e.textContent)]))]));
    return {slots,
        hist: all('#fig-spread-hist .widget path.hist-large').map(e => e.getAttribute('d')),
        scale: all('#scale-input').map(e => e.value),
        cols: Object.fromEntries(rulers.map(r => [r,
            all(`#fig-rulers-softmax .widget [data-col="${r}"]`).map(e => e.getAttribute('class') || '')])),
        quotes: Object.fromEntries(keys.map(k => [k, all(`[data-key="${k}"]`)
            // a figure's words and a reproduce box's describe what was built and stay as
            // built (explainer.js asBuilt; the test of AS_BUILT places checks they do)
            .filter(e => !e.closest('figure') && !e.closest('details')?.querySelector('.reproduce'))
            .map(e => [e.textContent, e.getAttribute('data-format')])]))}; }"""


@pytest.mark.author
@pytest.mark.parametrize("lang", LANGS)
def test_every_sheet_answers_for_the_chosen_dk_and_ruler(visit, site_build, lang: str) -> None:
    results = site_build["results"]
    v = visit()
    page = v.open(f"{lang}/index.html")
    rulers = results["rulers"]["names"]
    names = {"#fig-spread-hist": ("sd_small", "sd_large", "ratio", "ratio_theory", "d"),
             "#fig-saturation-bars": ("mark", "share", "sens"),
             "#fig-rulers-softmax": tuple(f"{kind}_{r}" for r in rulers for kind in ("win", "ent"))}
    shapes = set()
    for change in states(results):
        set_state(page, results, **change)
        s = full_state(results, change)
        shown = page.evaluate(_SHOWN, {"names": names, "rulers": rulers, "keys": list(FOLLOW)})
        for name in names["#fig-spread-hist"]:
            assert set(shown["slots"]["#fig-spread-hist"][name]) == {expected(results, name, s)}, \
                (name, change)
        assert len(shown["hist"]) == 1, shown["hist"]          # one large histogram
        shapes.add(shown["hist"][0])
        k = s["m"]
        assert shown["scale"] == [str(k)]
        s2 = {**s, "k": k}
        for name in names["#fig-saturation-bars"]:
            assert set(shown["slots"]["#fig-saturation-bars"][name]) == {expected(results, name, s2)}, \
                (name, change)
        for r in rulers:
            for name in (f"win_{r}", f"ent_{r}"):
                assert set(shown["slots"]["#fig-rulers-softmax"][name]) == {expected(results, name, s)}
            assert len(shown["cols"][r]) == 1, (r, shown["cols"][r])   # one column a ruler
            assert ("chosen" in shown["cols"][r][0].split()) == (r == s["r"])
        for key, template in FOLLOW.items():
            path = resolve(template, s)
            for text, form in shown["quotes"][key]:
                # a quote its paragraph relates to others (embed.PROSE_SLOTS) may show more
                # decimals, as a sheet would (test_browser_widgets checks which)
                more = f"fixed:{len(text.split('.')[1]) if '.' in text else 0}"
                allowed = {fmt(form, at(results, path), path, results)}
                if key in PROSE_SLOTS:
                    allowed.add(fmt(more, at(results, path)))
                assert text in allowed, (key, change)
    assert len(shapes) > 1
    assert v.problems == []


# the texts of the quotes of each key, in document order, in one round trip (a locator's
# all_text_contents a key cost chromium about 10 ms each on the article, three times a key)
_QUOTES = """keys => Object.fromEntries(keys.map(k => [k,
    [...document.querySelectorAll(`[data-key="${k}"]`)].map(e => e.textContent)]))"""


@pytest.mark.author
@pytest.mark.parametrize("lang", LANGS)
def test_the_default_view_is_the_static_page_and_comes_back(visit, site_build, lang: str) -> None:
    results = site_build["results"]
    keys = [k for k in FOLLOW if site_build["html"][lang].count(f'data-key="{k}"')]
    nojs = visit(java_script_enabled=False).open(f"{lang}/index.html")
    static = nojs.evaluate(_QUOTES, keys)
    page = visit().open(f"{lang}/index.html")
    assert page.evaluate(_QUOTES, keys) == static
    assert urlsplit(page.url).query == ""            # nothing moved: nothing to keep
    d = default_state(results)
    set_state(page, results, i=0, r="linear")
    set_state(page, results, i=d["i"], r=d["r"])
    assert page.evaluate(_QUOTES, keys) == static
    assert parse_qs(urlsplit(page.url).query) == {"dk": [str(results["spread"]["d_k"][d["i"]])],
                                                 "ruler": [d["r"]]}


@pytest.mark.author
def test_the_bar_says_the_figures_stay_as_built_once_the_prose_moves(visit, site_build) -> None:
    results = site_build["results"]
    home = default_state(results)
    page = visit().open("en/index.html")
    page.locator("#dk-input").focus()
    note, start = page.locator(".dk-bar .dk-note:not(.dk-start)"), page.locator(".dk-bar .dk-start")
    assert not note.is_visible() and start.is_visible()      # names what follows it, and what not
    assert start.text_content().count(str(results["spread"]["d_large"])) == 1
    set_state(page, results, i=lowest(results), r=home["r"])
    assert note.is_visible() and note.text_content().strip() and not start.is_visible()
    set_state(page, results, i=home["i"], r=home["r"])
    assert note.is_visible()            # moved once, the text keeps following the bar
    name = page.locator("#dk-title").text_content().strip()
    assert page.get_by_role("slider", name=name, exact=True).count() == 1   # named as the bar is
    # ... and once: no group around it bears the same name, and its value is not spoken again
    # by a live region (the slider's aria-valuetext already says it)
    bar = page.locator(".dk-bar")
    assert bar.get_by_role("group", name=name, exact=True).count() == 0
    assert bar.get_by_role("status").count() == 0 and bar.locator("[aria-live]").count() == 0


# the places whose words describe something drawn or written at build time, so never follow
# the bar: a figure's caption (the figure as drawn), the text of a box holding a numpy snippet
# (its code; a box once said "dₖ=8" above code drawing at 64)
AS_BUILT = {
    "caption": "[...document.querySelectorAll('article figure figcaption')]",
    "reproduce box": "[...document.querySelectorAll('article details')]"
                     ".filter(d => d.querySelector('.reproduce')).map(d => d.querySelector('p') || d)",
}


@pytest.mark.parametrize("place", AS_BUILT)
def test_words_about_what_was_built_keep_their_numbers_when_the_text_follows(
        visit, site_build, place: str) -> None:
    """When the text follows the bar, the quotes of each AS_BUILT place do not. A quote of the
    text that follows the bar is copied into every such place, so this holds whatever the
    places quote now; the quotes they hold themselves must not move either."""
    results = site_build["results"]
    home = default_state(results)
    page = visit().open("en/index.html")
    follow = page.evaluate("() => Object.keys(window.sqrtdkData.follow)")
    places = f"() => {AS_BUILT[place]}"
    copies = page.evaluate(f"""(keys) => {{
        const q = [...document.querySelectorAll('article p [data-key]')]
            .find(e => keys.includes(e.dataset.key) && !e.closest('figure, details'));
        const places = ({places})();
        if (!q || !places.length) return 0;
        places.forEach(p => p.append(' ', q.cloneNode(true)));
        return places.length; }}""", follow)
    assert copies, f"no {place}, or no quote in the text"
    texts = "els => els.map(e => e.textContent)"
    held = f"""(keys) => ({places})().flatMap(p => [...p.querySelectorAll('[data-key]')])
        .filter(e => keys.includes(e.dataset.key)).map(e => e.textContent)"""
    prose_before = page.locator("article p [data-key]").evaluate_all(texts)
    held_before = page.evaluate(held, follow)
    set_state(page, results, i=lowest(results), r=home["r"])
    prose_after = page.locator("article p [data-key]").evaluate_all(texts)
    assert prose_after != prose_before, "nothing in the text followed the bar: this checks nothing"
    assert len(held_before) >= copies
    assert page.evaluate(held, follow) == held_before


def test_the_url_keeps_the_view(visit, site_build) -> None:
    results = site_build["results"]
    d = results["spread"]["d_k"]
    page = visit().open("en/index.html")
    i = lowest(results)
    set_state(page, results, i=i, r="sqrt")
    query = parse_qs(urlsplit(page.url).query)
    assert query == {"dk": [str(d[i])], "ruler": ["sqrt"]}
    other = visit().open(f"zh/index.html?{urlsplit(page.url).query}")
    assert sliders.step(other, "#dk-input") == i
    assert other.locator('.dk-bar input[value="sqrt"]').is_checked()
    widget = other.locator("#fig-rulers-softmax .widget")
    assert slot_texts(widget, "d") == {expected(results, "d", full_state(results, {"i": i}))}
    fresh = visit()       # each address loads a new document: nothing carries over but the tab
    for query in ("dk=5&ruler=cube", f"dk={results['spread']['d_small']}"):
        bad = fresh.open(f"en/index.html?{query}")    # off the grid, or the baseline: default
        assert sliders.step(bad, "#dk-input") == start_state(results)["i"]


def test_the_keyboard_alone_drives_every_control(visit, site_build) -> None:
    results = site_build["results"]
    page = visit().open("en/index.html")
    dk = page.locator("#dk-input")
    dk.focus()
    page.keyboard.press("Home")
    assert sliders.step(page, "#dk-input") == lowest(results) and dk.get_attribute("aria-valuetext")
    page.keyboard.press("End")
    assert sliders.step(page, "#dk-input") == len(results["spread"]["d_k"]) - 1
    page.keyboard.press("Tab")               # into the rulers: arrows move the choice
    focused = page.evaluate("document.activeElement.name")
    assert focused == "dk-ruler"
    page.keyboard.press("ArrowRight")
    chosen = page.evaluate("document.querySelector('.dk-bar input:checked').value")
    assert chosen != default_state(results)["r"]
    assert parse_qs(urlsplit(page.url).query)["ruler"] == [chosen]
    button = page.locator("#fig-spread-hist .widget .widget-button")
    button.focus()
    page.keyboard.press("Enter")
    assert page.locator("#fig-spread-hist .widget [data-batch=one]").is_visible()
    scale = page.locator("#scale-input")
    scale.focus()
    before = sliders.step(page, "#scale-input")
    page.keyboard.press("ArrowLeft")
    assert sliders.step(page, "#scale-input") == before - 1


@pytest.mark.author
@pytest.mark.parametrize("context", ["phone", "desktop"])
def test_nothing_overflows_and_axe_finds_nothing_serious_in_other_views(visit, site_build,
                                                                        context: str) -> None:
    from pathlib import Path
    axe = Path(__file__).resolve().parent.parent / "node_modules" / "axe-core" / "axe.min.js"
    results = site_build["results"]
    options = {"viewport": PHONE} if context == "phone" else {"viewport": {"width": 1280, "height": 900}}
    d = results["spread"]["d_k"]
    v = visit(bypass_csp=True, **options)
    page = v.open(f"en/index.html?dk={d[-1]}&ruler=linear")
    lay_out_everything(page)
    page.locator("#fig-rulers-softmax").scroll_into_view_if_needed()
    page.locator(".dk-bar").wait_for(state="visible")   # the bar shows with a sheet on screen
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]
    page.add_script_tag(content=axe.read_text(encoding="utf-8"))
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    bad = [(x["id"], [n["target"] for n in x["nodes"][:3]]) for x in result["violations"]
           if x["impact"] in ("serious", "critical")]
    assert bad == []
