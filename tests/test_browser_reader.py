"""What a newcomer found reading the pages (issue 20's leftovers): the dₖ bar never covers the
title, "Contents" once at the top of a phone, headings named by their own words, formulas whose
MathML and copied TeX say the numbers shown, one precision rule in the sheets, √ set with its
radicand in Chinese text, and a hint that a wide table scrolls. Nothing here depends on the
article's wording or on how many figures, formulas or sections it has."""
from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

import pytest
import sliders
from browser import FRAMES, PHONE, ax_node, lay_out_now

pytestmark = pytest.mark.browser
LANGS = ("en", "zh")
DESKTOP = {"width": 1280, "height": 900}


def tab_to_bar(page: Any) -> None:
    for _ in range(8):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "dk-input":
            return
    raise AssertionError("the keyboard never reached the dₖ bar")


# whether the dₖ bar's last placing (explainer.js place) showed it: `on` waits for that
BAR_ON = "on => document.documentElement.classList.contains('dk-on') === on"


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("lang", LANGS)
def test_the_bar_focused_at_the_top_covers_no_part_of_the_title(visit, viewport, lang) -> None:
    page = visit(viewport=viewport).open(f"{lang}/index.html")
    tab_to_bar(page)
    # the bar places itself a task after the focus (explainer.js: focusin, setTimeout(place));
    # waited for by its mark (`dk-on`, set by place alone), not for 100 ms: a loaded
    # machine may run that task later
    page.wait_for_function(BAR_ON, arg=True)
    bar, h1 = page.locator(".dk-bar").bounding_box(), page.locator("h1").bounding_box()
    assert bar["height"] > 20
    assert h1["y"] >= bar["y"] + bar["height"] - 1, (bar, h1)
    page.keyboard.press("Shift+Tab")                 # the focus leaves: the page moves back
    page.wait_for_function(BAR_ON, arg=False)
    assert page.locator("h1").bounding_box()["y"] < h1["y"]


def visibility(page: Any, settled_as: str) -> str:
    """The header link's visibility, read each frame until it is `settled_as` or 5 s have
    passed (the IntersectionObserver that sets it reports when the browser gets to it, which
    under load can be many frames after a scroll)."""
    return str(page.evaluate("""want => new Promise(done => {
        const end = performance.now() + 5000;
        const read = () => {
          const v = getComputedStyle(document.querySelector('.toc-link')).visibility;
          if (v === want || performance.now() > end) done(v); else requestAnimationFrame(read);
        };
        requestAnimationFrame(read);
    })""", settled_as))


@pytest.mark.parametrize("lang", LANGS)
def test_contents_is_offered_once_at_the_top_of_a_phone(visit, lang) -> None:
    page = visit(viewport=PHONE).open(f"{lang}/index.html")
    link, toc = page.locator(".toc-link"), page.locator(".toc summary")
    assert toc.is_visible()
    assert visibility(page, "hidden") == "hidden"
    page.evaluate("scrollTo(0, document.documentElement.scrollHeight / 2)")
    assert visibility(page, "visible") == "visible"
    link.click()                                     # and from far down it still leads there
    assert page.locator("#toc").evaluate("d => d.open")


@pytest.mark.parametrize("lang", LANGS)
def test_a_figure_s_link_says_it_opens_the_full_size_figure(shared, site_build, lang) -> None:
    """A figure's picture is a link to its drawing at full size (md_figures); the link said
    only what the picture shows (its alt text), so a screen reader heard no destination and
    a phone reader tapping the figure left the page unwarned. Each link now says where it
    goes in the page's language (strings.toml's figure_open), in words shown with the
    picture, and so in the link's name."""
    words = site_build["strings"][lang].ui["figure_open"]
    page = shared(f"{lang}/index.html").page
    links = page.locator("figure a:has(img)")
    assert links.count() > 0
    assert page.get_by_role("link", name=words).count() == links.count()
    hidden = links.evaluate_all("""(links, words) => links.filter(a => ![...a.querySelectorAll(
        '*')].some(el => el.textContent.trim() === words && el.getClientRects().length
            && getComputedStyle(el).visibility === 'visible')).map(a => a.href)""", words)
    assert hidden == [], "the words are not shown with the picture"


def test_a_program_marked_english_keeps_its_monospace_face_on_every_page(shared) -> None:
    """A snippet's code and output are marked English (md_reproduce); on the Chinese page a
    rule giving English runs the Latin text face must not reach them: each language's page
    draws them in the same face. And the output is set as its code is: with the browser's
    own `monospace` it was a size larger (and on a Mac in another face)."""
    faces = {}
    for lang in LANGS:
        page = shared(f"{lang}/index.html").page
        found = page.locator(".reproduce :is(code, samp)[lang]").evaluate_all(
            "els => [...new Set(els.map(el => getComputedStyle(el).fontFamily + ' '"
            " + getComputedStyle(el).fontSize))]")
        if not found:
            pytest.skip("the article has no reproduce box")
        faces[lang] = sorted(found)
    assert [len(f) for f in faces.values()] == [1] * len(faces), faces    # code = output
    assert len({tuple(f) for f in faces.values()}) == 1, faces             # en = zh


# the advance (in ems) of a full-width opening mark starting a paragraph of the Chinese page:
# a paragraph holding each in turn is put under the title, measured and taken out again
OPENING_ADVANCE = """marks => {
    const h1 = document.querySelector('article h1'), out = {};
    for (const mark of marks) {
        const p = document.createElement('p');
        p.textContent = mark + '\u6d4b\u8bd5\u3002';
        h1.after(p);
        const range = document.createRange();
        range.setStart(p.firstChild, 0);
        range.setEnd(p.firstChild, 1);
        out[mark] = range.getBoundingClientRect().width / parseFloat(getComputedStyle(p).fontSize);
        p.remove();
    }
    return out; }"""


def test_a_chinese_paragraph_opening_with_a_bracket_or_quote_starts_flush(shared) -> None:
    """A paragraph of the Chinese page that opens with a full-width bracket or quote (《, “,
    （, 「) began half an em in from the text's edge, as if indented: the style sheet's
    `text-spacing-trim: normal` keeps the mark's blank half at a paragraph's first line
    (every later line starts flush). The mark is now set solid at every line's start."""
    page = shared("zh/index.html").page
    advance = page.evaluate(OPENING_ADVANCE, ["\u300a", "\u201c", "\uff08", "\u300c"])
    assert all(a <= 0.6 for a in advance.values()), advance


@pytest.mark.parametrize("lang", LANGS)
def test_headings_are_named_by_their_words_not_by_their_section_link(shared, lang) -> None:
    page = shared(f"{lang}/index.html").page
    label = page.locator("article .headerlink").first.get_attribute("aria-label")
    assert label
    tree = page.locator("article").aria_snapshot()
    headings = re.findall(r'heading "(.*?)" \[level=[23]\]', tree)   # YAML may quote the line
    assert len(headings) == page.locator("article :is(h2, h3)").count() > 0, tree
    assert not [h for h in headings if label in h or not h.strip()], headings
    links = page.locator("article .headerlink").count()
    assert page.get_by_role("link", name=label).count() == links > 0      # the links remain
    # each link is named by its label and its heading's words: one name per section in a
    # screen reader's list of links (all eleven were the label alone)
    ids = page.eval_on_selector_all("article .headerlink",
                                    "links => links.map(a => CSS.escape(a.parentElement.id))")
    named = [(" ".join(ax_node(page, f"#{i} > .headerlink")["name"].split()),
              " ".join(ax_node(page, f"#{i}")["name"].split())) for i in ids]
    assert all(link == f"{label} {heading}" for link, heading in named), named
    assert len({link for link, _ in named}) == len(named) == links, named


def move_bar_to_the_end(page: Any) -> None:
    sliders.move(page, "#dk-input", sliders.bounds(page, "#dk-input")[1])


# the math engine's selectors, as the page gives them to its script (sqrtdk/web/math)
FORMULAS = """() => { const h = JSON.parse(document.getElementById('math-hooks').textContent);
    return [...document.querySelectorAll(h.formula)]
    .filter(k => k.querySelector(`${h.drawn} [data-key]`))
    .map(k => ({quotes: [...k.querySelectorAll(`${h.drawn} [data-key]`)].map(q => q.textContent),
                tex: k.querySelector(`${h.speech} annotation`).textContent,
                empty: [...k.querySelectorAll(`${h.speech} *`)]
                  .filter(n => !n.children.length && !n.textContent.trim()).length,
                tokens: [...k.querySelectorAll(`${h.speech} :is(mn, mtext)`)].map(n => n.textContent)})); }"""


def as_tex(text: str) -> str:
    return text.replace(",", "{,}").replace("\u2212", "-").replace("\u00a0", "\\,")


@pytest.mark.parametrize("lang", LANGS)
def test_a_formula_copied_or_read_aloud_says_the_numbers_shown_after_the_bar_moved(visit,
                                                                                   lang) -> None:
    page = visit().open(f"{lang}/index.html")
    before = page.evaluate(FORMULAS)
    if not before:
        pytest.skip("no formula quotes a number that follows dₖ")
    empty_before = sum(f["empty"] for f in before)
    move_bar_to_the_end(page)
    after = page.evaluate(FORMULAS)
    assert [f["quotes"] for f in after] != [f["quotes"] for f in before]
    for f in after:
        for q in f["quotes"]:
            assert as_tex(q) in f["tex"], f          # copy-tex copies the annotation's TeX
            assert q.lstrip("\u2212") in f["tokens"], f   # one MathML token per number
    assert sum(f["empty"] for f in after) == empty_before   # no emptied tokens left behind


def decimals(text: str) -> int:
    return len(re.sub(r"[^\d.]", "", text).partition(".")[2])


@pytest.mark.parametrize("lang", LANGS)
def test_one_precision_rule_on_the_scale_slider(visit, lang) -> None:
    """Along the slider and within one row of shares: a number shown as a bound ("> 99.9999%")
    has as many decimals as the most precise exact number of the same format."""
    page = visit().open(f"{lang}/index.html")
    rows = page.evaluate("""() => {
        const input = document.querySelector('#scale-input'), w = input.closest('.widget'), out = [];
        for (let k = +input.min; k <= +input.max; k++) {
            input.value = k; input.dispatchEvent(new Event('input'));
            out.push([w.querySelector('[data-slot="share"]').textContent,
                      (w.querySelector('svg.chart').ariaLabel.split(': ')[1] || '').split(', ')
                        .map(s => s.split(' ').slice(1).join(' '))]);
        }
        return out; }""")
    for texts in ([share for share, _ in rows], [t for _, row in rows for t in row]):
        exact = [t for t in texts if t and t[0] not in "<>"]
        bounded = [t for t in texts if t and t[0] in "<>"]
        if bounded:
            assert {decimals(t) for t in bounded} == {max(decimals(t) for t in exact)}, texts


def test_the_radical_sign_in_chinese_text_is_not_drawn_by_a_cjk_face(shared) -> None:
    page = shared("zh/index.html").page
    page.evaluate("""() => { const s = document.createElement('span'); s.id = 'radical';
        s.textContent = '\\u221a'; document.querySelector('article p').append(s); }""")
    lay_out_now(page)
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": "#radical"})["nodeId"]
    fonts = [f["familyName"] for f in cdp.send("CSS.getPlatformFontsForNode",
                                               {"nodeId": node})["fonts"]]
    cdp.detach()
    page.evaluate("document.getElementById('radical').remove()")
    assert fonts and not [f for f in fonts if "CJK" in f or "Han" in f], fonts


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("lang", LANGS)
def test_the_bar_is_in_the_tab_order_as_soon_as_the_page_is_parsed(visit, viewport,
                                                                   lang) -> None:
    """A keyboard run once went past the bar: built at an idle moment after load, it was not
    there yet for a Tab pressed early. It now exists when the document is parsed (before
    DOMContentLoaded's listeners run), and the first few Tabs reach it."""
    v = visit(viewport=viewport)
    v.page.add_init_script("""document.addEventListener('DOMContentLoaded', () => {
        window.barAtParse = !!document.getElementById('dk-input'); });""")
    v.page.goto(v.base + f"{lang}/index.html", wait_until="domcontentloaded")
    assert v.page.evaluate("window.barAtParse") is True
    tab_to_bar(v.page)


@pytest.mark.parametrize("lang", LANGS)
def test_a_link_to_a_box_opens_it(visit, lang) -> None:
    page = visit().open(f"{lang}/index.html")
    targets = page.evaluate("""() => [...document.querySelectorAll('article a[href^="#"]')]
        .map(a => a.getAttribute('href').slice(1))
        .filter(id => document.getElementById(decodeURIComponent(id))?.matches('details, details > .box'))""")
    if not targets:
        pytest.skip("no link of the article leads to a box")
    for target in dict.fromkeys(targets):
        # twice: a new address, then the same address again after the reader closed the box
        # and scrolled away (no hashchange then: the box stayed closed, seen in CI when a
        # pooled page was left at that address)
        for _ in range(2):
            page.evaluate("""id => { document.getElementById(decodeURIComponent(id)).closest('details').open = false;
                scrollTo(0, 0); }""", target)
            page.locator(f'article a[href="#{target}"]').first.click()
            page.wait_for_function("""id =>
                document.getElementById(decodeURIComponent(id)).closest('details').open""", arg=target,
                timeout=2000)                            # the box is open
            box = page.evaluate("""id => { const d = document.getElementById(decodeURIComponent(id)).closest('details');
                return d.getBoundingClientRect().top; }""", target)
            assert 0 <= box < page.viewport_size["height"], (target, box)   # and on screen


# the box an address names, opened by the page's address alone, and its title's place: a box
# is found by its id wherever the build puts it (on the <details> or on an element in it)
BOX_LANDED = """id => { const t = document.getElementById(id), d = t && t.closest('details');
    if (!d) return null;
    const s = d.querySelector('summary').getBoundingClientRect(),
        h = document.querySelector('.site-header').getBoundingClientRect();
    return {open: d.open, top: s.top, bottom: s.bottom, under: h.bottom,
            ids: document.querySelectorAll('[id="' + id + '"]').length}; }"""


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("js", [False, True], ids=["no-script", "script"])
def test_a_page_opened_at_a_box_s_address_shows_the_box_open_with_its_title(
        visit, lang: str, js: bool) -> None:
    """A link to a box (`#reproduce-…`, shared or followed from the other language) landed on
    the box closed without JavaScript: chromium opens a closed <details> only for a target
    inside it, and the id was on the <details>. Now the page opened at the address shows the
    box open, its title on screen below the header, one element with that id, with and
    without scripts, on a phone (titles of two lines). A text fragment inside a closed box
    (the address form of find-in-page, which opens a box by the same rule) still opens it."""
    v = visit(viewport=PHONE, java_script_enabled=js)
    page = v.open(f"{lang}/index.html")
    ids = page.evaluate("""() => [...document.querySelectorAll('article details')]
        .map(d => d.id || d.querySelector(':scope > :not(summary)[id]')?.id).filter(Boolean)""")
    if not ids:
        pytest.skip("the article has no box with an id")
    box = ids[len(ids) // 2]
    page.goto(v.base + f"{lang}/index.html#{box}", wait_until="load")
    if js:
        page.wait_for_selector("html[data-ready]", state="attached")
        page.evaluate(FRAMES)       # (without scripts a requestAnimationFrame never answers)
    landed = page.evaluate(BOX_LANDED, box)
    assert landed and landed["open"] and landed["ids"] == 1, (box, landed)
    assert landed["under"] - 1 <= landed["top"] and landed["bottom"] <= PHONE["height"], (box, landed)
    words = page.evaluate("""id => { const d = document.getElementById(id).closest('details');
        const walk = document.createTreeWalker(d, NodeFilter.SHOW_TEXT);
        for (let n; (n = walk.nextNode());) {
          const w = n.data.trim().split(/\\s+/).slice(0, 3).join(' ');
          if (!n.parentElement.closest('summary, .katex, pre') && w.length > 12) return w;
        }
        return ''; }""", box)
    assert words, box
    page.goto("about:blank")        # a text fragment is followed on a new document only
    page.goto(v.base + f"{lang}/index.html#:~:text={quote(words)}", wait_until="load")
    page.wait_for_function("id => document.getElementById(id).closest('details').open", arg=box,
                           timeout=3000)
    assert v.problems == []


FOCUS_RING = """() => { const s = document.querySelector('.toc summary'), cs = getComputedStyle(s);
    const grow = parseFloat(cs.outlineOffset) + parseFloat(cs.outlineWidth), r = s.getBoundingClientRect();
    const box = s.closest('details').getBoundingClientRect(), toc = document.querySelector('.toc').getBoundingClientRect();
    return {focused: document.activeElement === s && s.matches(':focus-visible'), style: cs.outlineStyle,
            ring: [r.left - grow, r.top - grow, r.right + grow, r.bottom + grow],
            summary: [r.left, r.top, r.right], box: [box.left, box.top, box.right],
            toc: [toc.left, toc.top, toc.right, toc.bottom], scrolls: getComputedStyle(s.closest('.toc')).overflowY}; }"""


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("lang", LANGS)
def test_the_contents_focus_ring_runs_round_its_box_and_is_not_cut(visit, viewport,
                                                                   lang) -> None:
    """On a phone the contents' summary is a tab stop whose focus ring runs round its box. In
    the side column (wide screens) the contents are always shown: the summary is open and no
    tab stop (second newcomer pass: a stop where Enter did nothing)."""
    page = visit(viewport=viewport).open(f"{lang}/index.html")
    stops = []
    for _ in range(12):
        page.keyboard.press("Tab")
        stops.append(page.evaluate("document.activeElement.localName"))
        if stops[-1] == "summary":
            break
    if viewport is DESKTOP:
        assert "summary" not in stops and page.evaluate("document.getElementById('toc').open")
        return
    f = page.evaluate(FOCUS_RING)
    assert f["focused"] and f["style"] != "none", f
    assert all(abs(a - b) <= 2 for a, b in zip(f["summary"], f["box"])), f


# Every tab stop of the article focused in turn (el.focus({focusVisible: true}), as a Tab
# would show it): the rectangle its ring takes (its box grown by outline-offset and -width)
# must lie inside every block around it that clips what it paints: a scroll box, a block
# with paint containment (content-visibility: auto implies it), grown by the block's
# overflow-clip-margin where that applies (not to a scroll box). Each cut ring: what, which
# sides, by what.
RINGS_CUT = """() => {
  const clips = el => { const out = []; for (let a = el.parentElement; a; a = a.parentElement) {
      const cs = getComputedStyle(a);
      if (cs.overflowX !== 'visible' || cs.overflowY !== 'visible' || cs.contentVisibility === 'auto'
          || /paint|strict|content/.test(cs.contain)) out.push(a); } return out; };
  const cut = [];
  for (const el of document.querySelectorAll('article a[href], article summary, article button, article input, article [tabindex="0"]')) {
    if (!el.checkVisibility()) continue;
    el.focus({focusVisible: true});
    if (document.activeElement !== el) continue;
    const cs = getComputedStyle(el);
    if (cs.outlineStyle === 'none') continue;
    const w = parseFloat(cs.outlineWidth), o = parseFloat(cs.outlineOffset), grow = o + w;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const ring = {l: r.left - grow, t: r.top - grow, r: r.right + grow, b: r.bottom + grow};
    for (const a of clips(el)) {
      const c = a.getBoundingClientRect();
      const bl = a.clientLeft, bt = a.clientTop;
      const ac = getComputedStyle(a);
      const m = (ac.overflowX === 'visible' || ac.overflowX === 'clip') ? (parseFloat(ac.overflowClipMargin) || 0) : 0;
      const box = {l: c.left + bl - m, t: c.top + bt - m, r: c.left + bl + a.clientWidth + m, b: c.top + bt + a.clientHeight + m};
      const sides = [];
      if (ring.l < box.l - 0.5) sides.push('left'); if (ring.t < box.t - 0.5) sides.push('top');
      if (ring.r > box.r + 0.5) sides.push('right'); if (ring.b > box.b + 0.5) sides.push('bottom');
      if (sides.length) { cut.push(`${el.localName}.${el.className} "${el.textContent.trim().slice(0,20)}" cut ${sides} by ${a.localName}.${a.className}`); break; }
    }
  }
  document.activeElement.blur();
  return cut;
}"""


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("lang", LANGS)
def test_no_focus_ring_in_the_article_is_cut_by_a_block_around_it(visit, viewport,
                                                                   lang) -> None:
    """A newcomer tabbing through the page saw only the bottom edge of a figure's ring: the
    figure (content-visibility: auto) clipped the rest; a formula's scrolling box showed no
    ring at all inside its display box, and links at a line's start lost their left side."""
    page = visit(viewport=viewport).open(f"{lang}/index.html")
    cut = page.evaluate(RINGS_CUT)
    assert cut == [], f"{len(cut)} cut: " + "; ".join(cut[:6])


# each display formula whose covers (the gradients at its ends that hide the scrolling
# shadows while there is nothing to scroll) differ from the colour of what it sits on: the
# first background colour found on it or above it
COVERS_OFF = """() => [...document.querySelectorAll('.math.display')].map(el => {
    const cover = getComputedStyle(el).backgroundImage.match(/rgba?\\([^)]*\\)/)?.[0];
    let a = el.parentElement;
    while (a && getComputedStyle(a).backgroundColor === 'rgba(0, 0, 0, 0)') a = a.parentElement;
    const under = a ? getComputedStyle(a).backgroundColor : '';
    return cover === under ? '' : `${el.textContent.trim().slice(0, 20)}: ${cover} on ${under}`;
}).filter(Boolean)"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("lang", LANGS)
def test_a_formula_s_covers_are_the_colour_of_what_it_sits_on(shared, lang, scheme) -> None:
    """A formula in a box, a quote or a note showed a band of the page's colour with shaded
    ends under it (a newcomer, dark mode): its covers were the page's colour."""
    page = shared(f"{lang}/index.html", color_scheme=scheme).page
    off = page.evaluate(COVERS_OFF)
    assert off == [], f"{len(off)}: " + "; ".join(off[:5])


@pytest.mark.parametrize("width", [1280, 1600])
def test_the_bar_beside_the_contents_covers_none_of_them(visit, width: int) -> None:
    """Where the contents sit beside the text, the dₖ bar (fixed under the header while a
    sheet is on screen) spans the text's column only; across the page it hid the contents'
    title and first entries."""
    page = visit(viewport={"width": width, "height": 900}).open("en/index.html")
    page.locator(".widget").first.scroll_into_view_if_needed()
    page.locator(".dk-bar:not(.dk-away)").wait_for()
    bar, toc = (page.locator(sel).bounding_box() for sel in (".dk-bar", ".toc"))
    assert bar and toc and toc["width"] > 0
    side_by_side = toc["x"] + toc["width"] <= bar["x"]
    apart = toc["y"] >= bar["y"] + bar["height"] or toc["y"] + toc["height"] <= bar["y"]
    assert side_by_side or apart, (bar, toc)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_theme_button_says_what_a_press_does(visit, site_build, lang, scheme) -> None:
    """Its name (what a screen reader hears) and its visible words offer the theme the page is
    not in, before and after a press; the words shown are part of the name (WCAG 2.5.3)."""
    ui = site_build["strings"][lang].ui
    page = visit(viewport=PHONE, color_scheme=scheme).open(f"{lang}/index.html")
    button = page.locator("[data-theme-toggle]")
    offers = "light" if scheme == "dark" else "dark"
    for _ in range(2):
        name, shown = ui[f"theme_{offers}_name"], ui[f"theme_{offers}"]
        assert page.get_by_role("button", name=name, exact=True).count() == 1, (offers, name)
        assert shown in button.inner_text() and shown.lower() in name.lower()
        other = "dark" if offers == "light" else "light"
        assert ui[f"theme_{other}"] not in button.inner_text()
        assert button.get_attribute("aria-pressed") is None    # a name that changes: no state
        button.click()
        offers = other


# every element that scrolls sideways (its overflow lets it, and it is wider inside than out)
SCROLLERS = """() => [...document.querySelectorAll('body *')].filter(e => {
    const o = getComputedStyle(e).overflowX;
    return (o === 'auto' || o === 'scroll') && e.scrollWidth > e.clientWidth + 1; })
    .map((e, n) => { e.dataset.scroller = n; return [n, e.localName, e.className, e.tabIndex]; })"""


def ax_name(cdp: Any, root: int, selector: str) -> str:
    """The element's accessible name as the browser's accessibility tree gives it (what a
    screen reader reads), through the CDP Accessibility domain."""
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    tree = cdp.send("Accessibility.getPartialAXTree", {"nodeId": node, "fetchRelatives": False})
    return str(tree["nodes"][0].get("name", {}).get("value", ""))


@pytest.mark.parametrize("lang", LANGS)
def test_every_box_that_scrolls_sideways_on_a_phone_is_reached_by_the_keyboard_and_named(
        visit, lang) -> None:
    """axe's scrollable-region-focusable: a box that scrolls sideways at 360 px (code, a
    figure's table, a formula) can be focused, so arrow keys scroll it, and has a name, so a
    screen reader says what it reached (not "blank"). Every box open, every block laid out."""
    from browser import lay_out_everything
    page = visit(viewport=PHONE).open(f"{lang}/index.html")
    lay_out_everything(page)
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
    scrollers = page.evaluate(SCROLLERS)
    assert scrollers                                 # at 360 px something does scroll
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("Accessibility.enable")
    root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    for n, tag, cls, tab in scrollers:
        assert tab >= 0, (tag, cls)
        assert ax_name(cdp, root, f'[data-scroller="{n}"]').strip(), (tag, cls)
        page.locator(f'[data-scroller="{n}"]').focus()
        assert page.evaluate("document.activeElement.dataset.scroller") == str(n), (tag, cls)


# Every inline formula, and every word of strings.toml's keep_whole in the article's and the
# sheets' text: the tops of the lines it is laid out on (one top: it is whole on one line)
WHOLE = """words => {
    const lines = rects => new Set([...rects].filter(r => r.width > 0).map(r => Math.round(r.bottom)));
    const formulas = [...document.querySelectorAll('article span.math')]
        .filter(m => !m.closest('.math-scroll')).map(m => [m.textContent.slice(0, 30), lines(m.getClientRects()).size]);
    const found = [], walk = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) for (const w of words) {
        for (let at = n.data.indexOf(w); at >= 0; at = n.data.indexOf(w, at + 1)) {
            const r = document.createRange(); r.setStart(n, at); r.setEnd(n, at + w.length);
            found.push([w, lines(r.getClientRects()).size]);
        }
    }
    return {formulas, words: found, wide: document.documentElement.scrollWidth - innerWidth}; }"""


@pytest.mark.parametrize("lang", LANGS)
def test_short_formulas_and_unit_words_stay_whole_on_a_phone(visit, site_build, lang) -> None:
    """At 360 px no line breaks inside an inline formula (a break inside q·k/√dₖ) or inside a
    word strings.toml keeps whole (the Chinese unit for bits split between its two characters), and nothing scrolls the page
    sideways. The sheets are drawn at a dₖ whose numbers are long (the grid's largest)."""
    from browser import lay_out_everything
    words = site_build["strings"][lang].ui["keep_whole"].split()
    page = visit(viewport=PHONE).open(f"{lang}/index.html")
    lay_out_everything(page)
    page.evaluate("document.querySelectorAll('article details').forEach(d => d.open = true)")
    seen = page.evaluate(WHOLE, words)
    assert seen["formulas"] and seen["wide"] <= 0, seen["wide"]
    assert not [f for f in seen["formulas"] if f[1] != 1], seen["formulas"]
    if lang == "zh":
        assert seen["words"]                               # the words are there to check
    assert not [w for w in seen["words"] if w[1] != 1], seen["words"]


def _focus_at_the_bottom_edge(page: Any, button: Any) -> None:
    """The button scrolled to the window's bottom edge, where tabbing to it leaves it, and
    focused there."""
    button.evaluate("b => scrollBy(0, b.getBoundingClientRect().bottom - innerHeight + 2)")
    page.evaluate(FRAMES)
    button.focus()


@pytest.mark.parametrize("lang", LANGS)
def test_escape_from_the_bar_goes_back_to_the_box_that_sent_the_reader(visit, lang) -> None:
    """From each box's "change dₖ" button the keyboard reaches the bar and, after changing
    dₖ with the arrow keys, Escape brings the focus back to that same button, where it was on
    screen (the page did not jump to the top or anywhere else), except that a box running
    below the window scrolls up to show what the change did: as far as its bottom, or until
    the button is just under the header and the bar (second newcomer pass: the button left at
    the bottom edge, the chart it changed out of sight)."""
    page = visit(viewport=DESKTOP).open(f"{lang}/index.html")
    jumps = page.locator(".widget button.dk-jump")
    assert jumps.count() >= 1
    for n in range(jumps.count()):
        button = jumps.nth(n)
        _focus_at_the_bottom_edge(page, button)
        before = button.bounding_box()
        value = sliders.step(page, "#dk-input")
        page.keyboard.press("Enter")
        assert page.evaluate("document.activeElement.id") == "dk-input", n
        page.keyboard.press("ArrowRight" if value == sliders.bounds(page, "#dk-input")[0]
                            else "ArrowLeft")
        assert sliders.step(page, "#dk-input") != value, n      # dₖ did change
        page.keyboard.press("Escape")
        assert button.evaluate("b => b === document.activeElement"), n
        page.evaluate(FRAMES)
        after = button.bounding_box()
        assert after is not None and 0 <= after["y"] < DESKTOP["height"], (n, after)
        box, cover = button.evaluate("""b => [b.closest('.widget').getBoundingClientRect().bottom,
            Math.max(document.querySelector('.site-header').getBoundingClientRect().bottom,
                     document.querySelector('.dk-bar').getBoundingClientRect().bottom)]""")
        assert after["y"] <= before["y"] + 4, (n, before, after)          # never down
        assert box <= DESKTOP["height"] + 1 or after["y"] - cover < 20, (n, box, after, cover)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("went", [-1, 1], ids=["up", "down"])
def test_back_from_the_bar_the_box_is_not_under_the_bar(visit, lang, went: int) -> None:
    """A reader sent to the bar by a box's "change dₖ" scrolls a screen away (up to look at
    the figure, or down) and comes back (Escape, or the bar's "back" button): the box comes
    back with its top, and the button that has the focus, below the header and the bar. The
    bar is counted as it shows over the box: out of sight while the reader was away from the
    boxes, it came back over the button (third newcomer pass: the button at 57 px, under a
    bar ending at 107)."""
    page = visit(viewport=PHONE, is_mobile=True, has_touch=True).open(f"{lang}/index.html")
    jumps = page.locator(".widget button.dk-jump")
    assert jumps.count() >= 1
    for n in range(jumps.count()):
        button = jumps.nth(n)
        _focus_at_the_bottom_edge(page, button)
        page.keyboard.press("Enter")
        assert page.evaluate("document.activeElement.id") == "dk-input", n
        page.evaluate("d => scrollBy(0, d * innerHeight)", went)
        page.evaluate(FRAMES)
        page.keyboard.press("Escape")
        assert button.evaluate("b => b === document.activeElement"), n
        page.locator(".dk-bar:not(.dk-away)").wait_for()       # the box on screen shows it
        page.evaluate(FRAMES)
        box, at, cover = button.evaluate("""b => [b.closest('.widget').getBoundingClientRect().top,
            b.getBoundingClientRect(), Math.max(...['.site-header', '.dk-bar'].map(s =>
                document.querySelector(s).getBoundingClientRect().bottom))]""")
        assert box >= cover - 1 and at["top"] >= cover - 1, (n, box, at["top"], cover)
        assert at["bottom"] <= PHONE["height"], (n, at["bottom"])


@pytest.mark.parametrize("lang", LANGS)
def test_the_scale_slider_gives_a_screen_reader_the_scale_it_shows(visit, lang) -> None:
    """The scale shown beside the slider ("×16.0") is the slider's value text, and the scale
    itself its value in chromium's accessibility tree, before and after a key moves it; it is
    not said a second time as a description. (CDP's tree leaves out aria-valuetext: the value
    text a screen reader hears is checked in the platform's tree, test_browser_widgets.py.)"""
    page = visit(viewport=PHONE).open(f"{lang}/index.html")
    slider = page.locator("#scale-input")
    slider.focus()
    for press in ("", "ArrowRight", "ArrowLeft", "ArrowLeft"):
        if press:
            page.keyboard.press(press)
        shown, scale = page.locator("#scale-input").evaluate("""i => [
            i.closest('.widget').querySelector('.widget-value').textContent,
            window.sqrtdkData.results.saturation.scales[+i.value]]""")
        ax = ax_node(page, "#scale-input")
        assert ax["role"] == "slider" and ax["name"], ax
        assert ax["value"] == pytest.approx(scale) and not ax["description"], (press, ax)
        assert shown.startswith("×") and slider.get_attribute("aria-valuetext") == shown, (press, shown)


@pytest.mark.parametrize("lang", LANGS)
def test_the_bar_shows_a_way_back_to_the_box_only_after_a_box_sent_the_reader(visit, lang) -> None:
    """The bar's "back" button is in sight (and in the tab order after the rulers) once a
    box's "change dₖ" sent the reader there, takes the focus back to that button, and is
    gone again when the bar was reached some other way."""
    page = visit(viewport=PHONE).open(f"{lang}/index.html")
    back = page.locator(".dk-bar .dk-back")
    tab_to_bar(page)
    assert back.is_hidden()
    button = page.locator(".widget button.dk-jump").last
    button.scroll_into_view_if_needed()
    button.focus()
    page.keyboard.press("Enter")
    assert back.is_visible()
    for _ in range(6):                               # the slider, the rulers, then the way back
        page.keyboard.press("Tab")
        if back.evaluate("b => b === document.activeElement"):
            break
    else:
        raise AssertionError("the keyboard never reached the way back")
    page.keyboard.press("Enter")
    assert button.evaluate("b => b === document.activeElement")
    assert back.is_hidden()


# every element made a tab stop by a tabindex (and rendered: under display: none it is none),
# each marked for the accessibility tree's look-up
TAB_STOPS = """() => [...document.querySelectorAll('[tabindex]')]
    .filter(e => e.tabIndex >= 0 && e.getClientRects().length)
    .map((e, n) => { e.dataset.stop = n; return [n, e.localName, e.className]; })"""


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("lang", LANGS)
def test_no_tab_stop_is_unnamed(visit, viewport, lang) -> None:
    """Every element the tabindex attribute puts in the tab order (a box that scrolls: code,
    a figure's table, an article's table, a formula) has a name in the accessibility tree:
    a keyboard never stops on something a screen reader calls nothing. A box that fits its
    column is no tab stop at all. Every box open and laid out."""
    from browser import FRAMES, lay_out_everything
    page = visit(viewport=viewport).open(f"{lang}/index.html")
    lay_out_everything(page)
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
    page.evaluate(FRAMES)                            # resize observers report after a frame
    page.evaluate(FRAMES)
    stops = page.evaluate(TAB_STOPS)
    assert stops                                      # the page has boxes reached this way
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("Accessibility.enable")
    root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    unnamed = [(tag, cls) for n, tag, cls in stops
               if not ax_name(cdp, root, f'[data-stop="{n}"]').strip()]
    assert not unnamed, unnamed


@pytest.mark.parametrize("lang", LANGS)
def test_print_leaves_out_the_footnotes_back_references(visit, lang) -> None:
    """On paper a footnote's back-reference (the arrow back to where it was cited) leads
    nowhere: it is not printed; the footnotes themselves are."""
    page = visit(viewport=DESKTOP).open(f"{lang}/index.html")
    backrefs = page.locator(".footnote-backref")
    assert backrefs.count() and backrefs.first.is_visible()   # on screen they are there
    page.emulate_media(media="print")
    assert all(b.is_hidden() for b in backrefs.all())
    assert page.locator(".footnote li").first.is_visible()


@pytest.mark.parametrize("lang", LANGS)
def test_on_paper_a_box_s_words_about_its_snippet_stay_with_the_snippet(visit, lang) -> None:
    """A reproduce box on paper: its snippet's code is kept whole (a page break inside it cut
    a program in two), so when it did not fit, the code went overleaf alone, and the words
    that introduce it stayed at the page's foot over the rest of the box's grey background,
    empty to the page's end. The words are kept whole and on the page of the code: the only
    place left to break is before the box."""
    page = visit(viewport=DESKTOP).open(f"{lang}/index.html")
    page.evaluate("dispatchEvent(new Event('beforeprint'))")
    page.emulate_media(media="print")
    found = page.evaluate("""() => [...document.querySelectorAll('article .reproduce')]
        .filter(el => el.checkVisibility()).map(el => {
            const words = el.previousElementSibling, style = getComputedStyle(el);
            return [words ? words.localName : null,
                    words ? getComputedStyle(words).breakInside : null, style.breakBefore];
        })""")
    assert found                                      # the page has reproduce boxes
    loose = [f for f in found if f[0] == "p" and f[1:] != ["avoid", "avoid"]]
    assert loose == [], loose


@pytest.mark.parametrize("lang", LANGS)
def test_a_screen_reader_hears_a_note_reference_as_a_note(visit, lang) -> None:
    """A note's reference shows a bare number, in sentences full of numbers: named by that
    number alone, a screen reader read "σ = 0.493 3" (a link "3", its superscript unsaid).
    Each reference's name says more than its number, and holds the number shown (so a
    reader who says what they see to voice control reaches it). Every block laid out: headless
    chromium leaves skipped blocks out of the tree it gives the DevTools protocol."""
    from browser import lay_out_everything
    page = visit().open(f"{lang}/index.html")
    lay_out_everything(page)
    sups = page.eval_on_selector_all("a.footnote-ref", "as => as.map(a => a.parentElement.id)")
    assert sups and all(sups)
    seen = []
    for sup in sups:
        ref = f"#{sup} > a.footnote-ref"
        seen.append((page.locator(ref).text_content().strip(),
                     (ax_node(page, ref)["name"] or "").strip()))
    assert all(shown in name and name != shown for shown, name in seen), seen


COVERED = """() => {
    const e = document.activeElement;
    const toc = e && e.closest('.toc');             // the contents, where they scroll with the page
    if (!e || !(e.closest('main') || (toc && getComputedStyle(toc).position !== 'sticky'))) return null;
    let cover = 0;
    for (const s of ['.site-header', '.dk-bar']) {
        const x = document.querySelector(s);
        if (!x || getComputedStyle(x).visibility === 'hidden' || x.classList.contains('dk-away')) continue;
        cover = Math.max(cover, x.getBoundingClientRect().bottom);
    }
    const r = e.getBoundingClientRect();
    return [e.localName + '.' + e.className, Math.round(r.top), Math.round(cover)];
}"""


# COVERED once two FRAMES have run twice and the last frame's rendering step (its observers)
# is over: in one round trip, not three (each Shift+Tab of the test reads it)
AFTER_FRAMES_COVERED = f"""async () => {{
    for (let i = 0; i < 2; i++) await ({FRAMES})();
    await new Promise(r => setTimeout(r));
    return ({COVERED})(); }}"""


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("lang", LANGS)
def test_tabbing_back_up_the_article_never_leaves_the_focus_under_the_header(visit, viewport,
                                                                             lang) -> None:
    """Shift+Tab from the end of the page up through the article: the browser brings each
    link, button or box it focuses into view at the window's top edge, where the sticky
    header and the dₖ bar lie over it (a box's title, a figure's table hidden whole). Each
    focused element of the article, and of the contents where they scroll with the page,
    starts below them (WCAG 2.4.11)."""
    page = visit(viewport=viewport).open(f"{lang}/index.html")
    page.keyboard.press("End")
    page.evaluate(FRAMES)
    page.evaluate("() => document.activeElement.blur()")
    covered, seen = [], 0
    for _ in range(500):
        page.keyboard.press("Shift+Tab")
        at = page.evaluate(AFTER_FRAMES_COVERED)     # the bar shows or goes after a scroll
        if at is None:
            if seen:
                break
            continue
        seen += 1
        if at[1] < at[2] - 1:
            covered.append(at)
    assert seen > 1
    assert covered == [], covered


LOADED_FACES = """() => [...document.fonts].filter(f => f.status === 'loaded')
    .map(f => `${f.family} ${f.style} ${f.weight}`)"""


@pytest.mark.parametrize("lang", LANGS)
def test_a_printout_needs_no_font_the_idle_page_has_not_fetched(visit, lang) -> None:
    """A browser fetches a web font when a block it lays out first needs it, and a printout
    does not wait for one still on its way: a formula in a block the reader never scrolled to
    (or in a closed box) printed without the glyphs of the math fonts only it uses (E in
    \\mathbb, a large sum sign, tall brackets: blank on paper). Once the page is idle after
    load, no font its printout draws with is still to be fetched."""
    page = visit(viewport=DESKTOP).open(f"{lang}/index.html")
    page.evaluate("() => new Promise(r => requestIdleCallback(() => r(true), {timeout: 2000}))")
    page.evaluate("document.fonts.ready.then(() => true)")
    before = set(page.evaluate(LOADED_FACES))
    page.emulate_media(media="print")
    lay_out_now(page)                                # the print layout asks for its fonts
    page.evaluate(FRAMES)
    page.evaluate("document.fonts.ready.then(() => true)")
    printed = set(page.evaluate(LOADED_FACES))
    assert before and printed - before == set(), sorted(printed - before)


# The contents' rule, as a reader would state it: the entry marked is the last of the headings
# they list whose top is above the top third of the window (none above, or the page at its
# very top, at the title: nothing to say).
# Returns [wanted id or null, [ids marked]].
MARKED = """() => {
    const links = [...document.querySelectorAll('.toc a[href^="#"]')];
    const ids = links.map(a => decodeURIComponent(a.hash.slice(1)));
    const above = ids.map(id => document.getElementById(id))
        .filter(h => h && scrollY >= 1 && h.getBoundingClientRect().top < innerHeight / 3);
    return [above.length ? above.pop().id : null,
            links.filter(a => a.getAttribute('aria-current') === 'location')
                 .map(a => decodeURIComponent(a.hash.slice(1)))];
}"""


# In one round trip (one a heading, not five): the heading brought a quarter of the way down
# the window; then, read each frame for up to 5 s, MARKED once the contents mark what it
# wants (or it wants none), with the boxes of the marked entries and of the contents, as
# Playwright's bounding_box gives them (null for an element with no box); null if never.
SCROLLED_TO = f"""async id => {{
    const h = document.getElementById(id);
    scrollTo(0, h.getBoundingClientRect().top + scrollY - innerHeight / 4);
    const box = el => {{ if (!el || !el.getClientRects().length) return null;
        const r = el.getBoundingClientRect();
        return {{x: r.x, y: r.y, width: r.width, height: r.height}}; }};
    const start = performance.now();
    for (;;) {{
        const [want, got] = ({MARKED})();
        if (want === null || (got.length === 1 && got[0] === want))
            return [[want, got], [...document.querySelectorAll('.toc a[aria-current="location"]')]
                .map(box), box(document.querySelector('.toc'))];
        if (performance.now() - start > 5000) return null;
        await new Promise(r => requestAnimationFrame(r));
    }} }}"""


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("lang", LANGS)
def test_the_contents_mark_the_section_being_read(visit, viewport, lang) -> None:
    """Brought in turn to a quarter of the way down the window, every heading the contents
    list is the one entry they mark (aria-current="location"), unless a later heading is
    above the top third too (then that one). On a wide screen the marked entry is in the side
    column's view; on a phone, the header's "Contents" link lands on the contents with the
    mark where the reader was."""
    from browser import lay_out_everything
    page = visit(viewport=viewport).open(f"{lang}/index.html")
    lay_out_everything(page)                  # blocks keep their real heights while scrolling
    ids = page.eval_on_selector_all('.toc a[href^="#"]',
                                    "as => as.map(a => decodeURIComponent(a.hash.slice(1)))")
    assert len(ids) > 1
    marked_alone = []
    for id_ in ids:
        settled = page.evaluate(SCROLLED_TO, id_)
        assert settled is not None, f"#{id_}: the contents never marked the heading's section"
        (want, got), links, column = settled
        if want == id_:
            marked_alone.append(id_)
        if viewport is DESKTOP and got:
            assert len(links) == 1, (id_, links)
            link = links[0]
            assert column["y"] <= link["y"] and \
                link["y"] + link["height"] <= column["y"] + column["height"] + 1, (id_, link, column)
    # each heading not followed at once by another (a section with some text) was the mark
    assert len(marked_alone) >= len(ids) // 2, (marked_alone, ids)
    if viewport is PHONE:
        middle = marked_alone[len(marked_alone) // 2]
        page.evaluate("""id => { const h = document.getElementById(id);
            scrollTo(0, h.getBoundingClientRect().top + scrollY - innerHeight / 4); }""", middle)
        page.wait_for_function(f"id => ({MARKED})()[1][0] === id", arg=middle, polling="raf")
        page.locator(".toc-link").click()
        page.wait_for_function("() => document.querySelector('#toc').open")
        mark = page.locator('.toc a[aria-current="location"]')
        assert mark.count() == 1 and mark.evaluate("a => a.hash.slice(1)") == middle
        box = mark.bounding_box()
        assert 0 <= box["y"] and box["y"] + box["height"] <= PHONE["height"], box


# The block of the article just under the header, found at the middle of the column 4 px
# below the header's bottom edge: marked, and its top in the window returned
UNDER_HEADER = """() => {
    const h = document.querySelector('.site-header').getBoundingClientRect().bottom;
    const a = document.querySelector('article').getBoundingClientRect();
    const e = document.elementFromPoint(a.left + a.width / 2, h + 4)?.closest('article > *');
    if (!e) return null;
    e.dataset.underHeader = '';
    return [h, e.getBoundingClientRect().top]; }"""
MARKED_TOP = "() => document.querySelector('[data-under-header]').getBoundingClientRect().top"


@pytest.mark.parametrize("lang", LANGS)
def test_tabbing_into_the_dk_bar_mid_page_covers_no_text(visit, lang: str) -> None:
    """A phone, read down to a heading far from any Try-it box (the dₖ bar out of sight);
    Tab from the header's last button reaches the bar's slider and the bar shows: it pushes
    the text down by its height instead of lying over it (the heading under the header was
    half hidden, the focus's context hidden, WCAG 2.4.11). Focus going back to the header
    puts the text back where it was."""
    page = visit(viewport=PHONE).open(f"{lang}/index.html")
    found = False
    for i in range(1, page.locator("article h2").count()):
        page.evaluate("i => document.querySelectorAll('article h2')[i].scrollIntoView()", i)
        page.evaluate(AFTER_FRAMES_COVERED)
        if page.evaluate("() => document.querySelector('.dk-bar').classList.contains('dk-away')"):
            found = True
            break
    assert found, "no heading far from every Try-it box"
    before = page.evaluate(UNDER_HEADER)
    assert before is not None
    header, top = before
    page.evaluate("() => document.querySelector('[data-theme-toggle]').focus()")
    page.keyboard.press("Tab")
    page.evaluate(AFTER_FRAMES_COVERED)
    assert page.evaluate("() => document.activeElement.closest('.dk-bar') !== null")
    bar = page.evaluate("() => document.querySelector('.dk-bar').getBoundingClientRect().bottom")
    moved = page.evaluate(MARKED_TOP) - top
    assert moved >= bar - header - 1, (moved, bar - header)
    page.keyboard.press("Shift+Tab")
    page.evaluate(AFTER_FRAMES_COVERED)
    assert abs(page.evaluate(MARKED_TOP) - top) < 2


# The lines of each shown note of the dₖ bar: the width of the text on each line (the text
# nodes' boxes grouped by their top)
BAR_NOTE_LINES = """() => [...document.querySelectorAll('.dk-bar :is(.dk-note, .dk-hint)')]
    .filter(p => p.getClientRects().length && getComputedStyle(p).display !== 'none')
    .map(p => { const lines = new Map(), walk = document.createTreeWalker(p, NodeFilter.SHOW_TEXT);
        for (let t; (t = walk.nextNode());) {
            if (!t.parentElement.getClientRects().length) continue;
            const r = document.createRange(); r.selectNodeContents(t);
            for (const b of r.getClientRects()) {
                const key = Math.round(b.top / 4);
                lines.set(key, (lines.get(key) || 0) + b.width); } }
        return [p.className, [...lines.entries()].sort((a, b) => a[0] - b[0]).map(e => e[1])]; })"""


@pytest.mark.parametrize("lang", LANGS)
def test_the_dk_bar_notes_never_end_with_a_word_or_two_alone(visit, lang: str) -> None:
    """The dₖ bar's notes, at the widths of a desktop, a tablet and a phone: a note on two
    lines or more has a last line at least a third as long as its longest (the Chinese note
    ended with "dₖ = 64）。" alone under a full line on a desktop)."""
    page = visit(viewport=DESKTOP).open(f"{lang}/index.html")
    short = []
    # as the page opens, then with dₖ moved and the focus on the bar (its other notes)
    for moved in (False, True):
        if moved:
            page.focus("#dk-input")
            page.keyboard.press("ArrowRight")
        for width in (1280, 1100, 900, 700, 360):
            page.set_viewport_size({"width": width, "height": 900})
            page.evaluate("() => document.querySelector('.widget').scrollIntoView({block: 'center'})")
            page.evaluate(AFTER_FRAMES_COVERED)
            notes = page.evaluate(BAR_NOTE_LINES)
            assert notes, "no note of the bar shows"
            short += [(moved, width, name, [round(w) for w in lines]) for name, lines in notes
                      if len(lines) > 1 and lines[-1] < max(lines) / 3]
    assert short == [], short


@pytest.mark.parametrize("lang", LANGS)
def test_on_paper_a_link_to_another_site_shows_its_address_and_no_other_link_does(
        visit, lang: str) -> None:
    """Printed, a link to another site is followed by its address (a reader on paper cannot
    click "the paper"); a link inside the page (a section, a note's reference, its way back)
    is not: its address would be a "#..." the paper cannot use."""
    page = visit(viewport=DESKTOP).open(f"{lang}/index.html")
    page.emulate_media(media="print")
    links = page.evaluate("""() => [...document.querySelectorAll('article a[href]')]
        .filter(a => a.getClientRects().length)
        .map(a => [a.getAttribute('href'), getComputedStyle(a, '::after').content])""")
    outside = [(href, after) for href, after in links if re.match(r"https?://", href)]
    assert outside, "no link to another site is printed"
    assert all(href in after for href, after in outside), outside
    inside = [(href, after) for href, after in links if href.startswith("#")]
    assert inside and all(after in ("none", "normal", "") for _, after in inside), inside


@pytest.mark.parametrize("lang", LANGS)
def test_the_dk_bar_s_title_is_spoken_as_the_bar_s_and_the_slider_s_name_only(visit,
                                                                             lang: str) -> None:
    """A screen reader going through the bar heard its title three times in a row: as the
    landmark's name, as text, and as the slider's name. The title names both; as text it is
    not in the accessibility tree (a click on it still gives the slider the focus)."""
    page = visit().open(f"{lang}/index.html")
    name = page.locator(".dk-bar .dk-title").text_content().strip()
    cdp = page.context.new_cdp_session(page)
    root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    bar = cdp.send("DOM.querySelector", {"nodeId": root, "selector": ".dk-bar"})["nodeId"]
    nodes = cdp.send("Accessibility.queryAXTree", {"nodeId": bar, "accessibleName": name})["nodes"]
    spoken = sorted(n["role"]["value"] for n in nodes if not n.get("ignored"))
    assert spoken == ["complementary", "slider"], spoken
    page.evaluate("() => document.querySelector('.widget').scrollIntoView({block: 'center'})")
    page.evaluate(AFTER_FRAMES_COVERED)                 # the bar shows beside a Try-it box
    page.locator(".dk-bar .dk-title").click()
    assert page.evaluate("() => document.activeElement.id") == "dk-input"


# the leftmost dark pixel of each line of text in a PNG (rows of ink taller than `least`
# pixels: an underline's few rows are no line), top to bottom
def _line_starts(png: bytes, least: int = 8) -> list[int]:
    import io

    from PIL import Image
    image = Image.open(io.BytesIO(png)).convert("L")
    width, height = image.size
    pixels = image.load()
    lines: list[tuple[int, int]] = []            # (rows, leftmost x)
    rows, left = 0, width
    for y in range(height):
        ink = next((x for x in range(width) if pixels[x, y] < 128), None)
        if ink is not None:
            rows, left = rows + 1, min(left, ink)
        elif rows:
            lines.append((rows, left))
            rows, left = 0, width
    if rows:
        lines.append((rows, left))
    return [left for rows, left in lines if rows > least]


def test_on_paper_an_address_that_starts_a_line_starts_with_its_parenthesis(browser) -> None:
    """A link's printed address, too long for what is left of its line, starts the next
    line with its '(' where a line of text starts: it began with a gap, the space before the
    '(' (an inline-block that went to the next line whole, its leading space kept). Drawn
    large, against a line that is the address alone, for both kinds of printed address."""
    from sqrtdk.options import PROJECT_ROOT
    sheet = (PROJECT_ROOT / "static" / "style.css").read_text(encoding="utf-8")
    address = "https://example.org/" + "a-long-part-of-the-path/" * 5 + "end.html"
    links = {"another site's": f'<a href="{address}">a link</a>',
             "the site's own": f'<a href="../zh/" data-print-href="{address}">a link</a>'}
    tab = browser.new_page(viewport={"width": 500, "height": 900})
    try:
        tab.set_content(
            f"<style>{sheet}</style><style>article p {{ font-size: 40px; margin: 0 }}</style>"
            "<body style='margin: 0 10px'><article>"
            + "".join(f"<p>Words and {link} then words.</p>" for link in links.values())
            + f'<p><span style="font-size: 0.85em">({address})</span></p></article>')
        tab.emulate_media(media="print")
        shots = [_line_starts(p.screenshot()) for p in tab.locator("article p").all()]
    finally:
        tab.close()
    *printed, alone = shots
    for kind, lines in zip(links, printed, strict=True):
        # the first line: the words; the next: the address from its '('
        assert len(lines) > 2 and abs(lines[1] - alone[0]) <= 1, (kind, lines, alone)
