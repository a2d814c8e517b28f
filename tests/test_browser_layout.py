"""Formulas laid out for a phone and every chart's numbers as a table (issue 20, items 4-5).
Nothing here depends on the article's wording or on how many formulas or figures it has."""
from __future__ import annotations

import re
from typing import Any

import pytest
from browser import PHONE, ax_names, lay_out_everything

from sqrtdk.figures import load, needed_results
from sqrtdk.web.fig_tables import TABLES, html

pytestmark = pytest.mark.browser
LANGS = ("en", "zh")
DESKTOP = {"width": 1280, "height": 900}


@pytest.mark.parametrize("lang", LANGS)
def test_no_display_formula_scrolls_sideways_at_360_px(visit, shared, lang: str) -> None:
    page = shared(f"{lang}/index.html", laid_out=True, viewport=PHONE).page
    page.evaluate("""() => document.querySelectorAll('details:not([open])').forEach(d => {
        d.open = true; d.dataset.openedByTest = ''; })""")
    wide = page.evaluate("""() => [...document.querySelectorAll(
            'article .math.display, article .math.display .math-scroll')]
        .filter(el => el.offsetWidth > 0 && el.scrollWidth > el.clientWidth)
        .map(el => el.querySelector('annotation')?.textContent.slice(0, 60))""")
    assert wide == []
    shown = page.evaluate("""() => [...document.querySelectorAll('article .math.display')]
        .filter(el => el.offsetWidth > 0).length""")
    assert shown > 0
    # the phone's layout copies as the author's TeX: its pieces' annotations, one after the
    # other, are the wide layout's (white space aside)
    pairs = page.evaluate("""() => [...document.querySelectorAll('.math.display')]
        .filter(el => el.querySelector('.math-narrow'))
        .map(el => [el.querySelector('.math-wide annotation').textContent,
                    [...el.querySelectorAll('.math-narrow annotation')]
                        .map(a => a.textContent).join('')])""")
    assert all("".join(a.split()) == "".join(b.split()) for a, b in pairs), pairs
    page.evaluate("""() => document.querySelectorAll('[data-opened-by-test]').forEach(d => {
        d.open = false; delete d.dataset.openedByTest; })""")
    wide_page = visit(viewport={"width": 1280, "height": 900}).open(f"{lang}/index.html")
    assert wide_page.evaluate("""() => [...document.querySelectorAll('.math-narrow')]
        .every(el => getComputedStyle(el).display === 'none')""")



# what a screen reader reads of a <math> element (its token leaves; not the TeX annotation)
# and which display formula of the article it is in (-1: none)
_READ = """function () {
    const all = [...document.querySelectorAll('article .math.display')];
    const leaves = [...this.querySelectorAll('*')].filter(e => !e.children.length && !e.closest('annotation'));
    return [all.indexOf(this.closest('.math.display')), leaves.map(e => e.textContent).join('')]; }"""


@pytest.mark.parametrize("viewport, js", [(PHONE, True), (PHONE, False), (DESKTOP, True)],
                         ids=["360px", "360px-no-js", "1280px"])
@pytest.mark.parametrize("lang", LANGS)
def test_a_screen_reader_meets_each_display_formula_once_and_whole(shared, lang: str,
                                                                   viewport: Any,
                                                                   js: bool) -> None:
    """The accessibility tree holds each display formula shown as one formula: one MathML
    tree, the whole formula's (as the wide layout has it), on a phone too, where the page
    draws it cut into pieces that wrap (each piece's own MathML read as a formula of its own,
    "o", then "= softmax(...)V", and the whole one's out of the tree, was the fault)."""
    page = shared(f"{lang}/index.html", laid_out=True, viewport=viewport,
                  java_script_enabled=js).page
    cdp = page.context.new_cdp_session(page)
    try:
        read: dict[int, list[str]] = {}
        for node in cdp.send("Accessibility.getFullAXTree")["nodes"]:
            if node.get("ignored") or node.get("role", {}).get("value") != "MathMLMath":
                continue
            obj = cdp.send("DOM.resolveNode", {"backendNodeId": node["backendDOMNodeId"]})
            at, text = cdp.send("Runtime.callFunctionOn", {
                "objectId": obj["object"]["objectId"], "functionDeclaration": _READ,
                "returnByValue": True})["result"]["value"]
            read.setdefault(at, []).append(text)
    finally:
        cdp.detach()
    read.pop(-1, None)                  # inline formulas, outside the display ones
    wholes = page.evaluate("""() => [...document.querySelectorAll('article .math.display')]
        .map(el => {
            if (!el.checkVisibility()) return null;     // in a closed box, say
            const whole = (el.querySelector('.math-wide') || el).querySelector('math');
            return [...whole.querySelectorAll('*')]
                .filter(e => !e.children.length && !e.closest('annotation'))
                .map(e => e.textContent).join(''); })""")
    assert any(w is not None for w in wholes)
    for k, whole in enumerate(wholes):
        assert read.get(k, []) == ([] if whole is None else [whole]), (k, whole, read.get(k))



# A space a screen reader reads as a pause where the text has none, in a name: at either end,
# two in a row (a no-break space counts), before a closing mark or after an opening one; and,
# in a name that is one text (an attribute's, or one read from inline content), between two
# Chinese characters or beside a full-width mark. A name read from the content of several
# blocks or cells joins their texts with a space, a pause between them (a picture's alt and
# the link's words under it; a table's column headers), so there only the first rules apply.
_CJK = "\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef"
_FULL_WIDTH_MARK = "\u3000-\u303f\uff01-\uff0f\uff1a-\uff1f"
STRAY_SPACES = {
    "at an end": re.compile(r"^\s|\s$"),
    "two in a row": re.compile(r"\s\s"),
    "before a closing mark": re.compile(r"\s[,.;:!?)\]}]"),
    "after an opening mark": re.compile(r"[(\[{]\s"),
}
STRAY_IN_ONE_TEXT = {
    "between Chinese characters": re.compile(f"[{_CJK}]\\s+[{_CJK}]"),
    "beside a full-width mark": re.compile(f"\\s[{_FULL_WIDTH_MARK}]|[{_FULL_WIDTH_MARK}]\\s"),
}
# for a name read from content: [whether it leaves out a formula (MathML that no aria-label
# names, which chromium leaves out of such a name), whether its text is one text (no block,
# cell or picture of its own: a formula's drawing and what is hidden do not count)]
_CONTENT = """function () {
    const inFormula = (e) => e.closest('.katex, math, [aria-hidden="true"]');
    const parts = [...this.querySelectorAll('*')].filter((e) => !inFormula(e) && e.checkVisibility());
    return [[...this.querySelectorAll('math')].some((m) => !m.closest('[aria-label]')),
            parts.every((e) => /^inline/.test(getComputedStyle(e).display) && e.localName !== 'img')]; }"""


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["360px", "1280px"])
@pytest.mark.parametrize("lang", LANGS)
def test_no_name_holds_a_stray_space(shared, lang: str, viewport: Any) -> None:
    """Every name of the page (STRAY_SPACES) as a screen reader gets it, the page laid out. A
    Chinese header cell "$1$（不缩放）" was named "1 （不缩放）": chromium puts a space beside a
    name an attribute gives (its formula's). A name read from content that leaves out a
    formula is left to the tests of formulas: chromium leaves MathML out of such a name (a
    table cell's formula is named, test_browser_ax_tree)."""
    page = shared(f"{lang}/index.html", laid_out=True, viewport=viewport,
                  java_script_enabled=True).page
    cdp = page.context.new_cdp_session(page)
    try:
        names = ax_names(cdp)
        stray = []
        for node, (role, name, source) in names.items():
            one_text = True
            if source in ("contents", "aria-labelledby"):
                obj = cdp.send("DOM.resolveNode", {"backendNodeId": node})
                drops_formula, one_text = cdp.send("Runtime.callFunctionOn", {
                    "objectId": obj["object"]["objectId"], "functionDeclaration": _CONTENT,
                    "returnByValue": True})["result"]["value"]
                if drops_formula:
                    continue
                one_text = one_text and source == "contents"
            rules = {**STRAY_SPACES, **(STRAY_IN_ONE_TEXT if one_text else {})}
            found = [what for what, rule in rules.items() if rule.search(name)]
            if found:
                stray.append((role, source, name[:80], found))
    finally:
        cdp.detach()
    assert len(names) > 20
    assert stray == [], f"{len(stray)} names with a stray space: {stray[:6]}"


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["360px", "1280px"])
@pytest.mark.parametrize("lang", LANGS)
def test_a_screen_reader_meets_each_figure_by_its_caption_and_its_picture_by_its_alt(
        shared, lang: str, viewport: Any) -> None:
    """Each figure of the article is a figure named by its caption: its number, then every
    word of the caption (a formula read as its plain text), in order; the picture in it an
    image named by its alt text, what it shows. A figure's caption is not its last child (the
    table of numbers and the Try-it box follow it), so chromium named every figure ""."""
    page = shared(f"{lang}/index.html", laid_out=True, viewport=viewport,
                  java_script_enabled=True).page
    figures = page.evaluate("""() => [...document.querySelectorAll('article figure')].map(f => {
        const cap = f.querySelector('figcaption').cloneNode(true);
        cap.querySelectorAll('.katex').forEach(k => k.replaceWith('\\u0000'));
        cap.querySelectorAll('sup[id^="fnref"]').forEach(s => s.remove());
        return ['#' + f.id, f.querySelector('.fig-num').textContent, cap.textContent,
                f.querySelector('img').alt]; })""")
    assert figures, "the article has no figure: this test checks nothing"
    cdp = page.context.new_cdp_session(page)
    try:
        names = ax_names(cdp)
        found: dict[str, list[tuple[str, str]]] = {}
        for node, (role, name, _) in names.items():
            if role in ("figure", "image"):
                obj = cdp.send("DOM.resolveNode", {"backendNodeId": node})
                where = cdp.send("Runtime.callFunctionOn", {
                    "objectId": obj["object"]["objectId"], "returnByValue": True,
                    "functionDeclaration": "function () { return '#' + this.closest('figure')?.id; }"
                })["result"]["value"]
                found.setdefault(where, []).append((role, name))
    finally:
        cdp.detach()
    for fig_id, number, caption, alt in figures:
        got = found.get(fig_id, [])
        named = [name for role, name in got if role == "figure"]
        assert len(named) == 1, (fig_id, got)
        name = named[0]
        assert name.startswith(" ".join(number.split())), (fig_id, name)
        at = 0
        for piece in (" ".join(p.split()) for p in caption.split("\u0000")):
            at = name.find(piece, at)
            assert at >= 0, (fig_id, piece, name)
            at += len(piece)
        assert ("image", alt) in got, (fig_id, alt, got)


def test_a_formula_cut_for_a_phone_copies_as_its_tex_once(visit) -> None:
    """Copying a display formula the phone shows cut into pieces gives the author's TeX, the
    formula's once (each piece copied as a formula of its own was the fault: `$$o$$$${}=…$$`)."""
    page = visit(viewport=PHONE, permissions=["clipboard-read", "clipboard-write"]).open(
        "en/index.html")
    lay_out_everything(page)
    tex = page.evaluate("""() => {
        const el = [...document.querySelectorAll('article .math.display')]
            .find(el => el.querySelector('.math-narrow') && el.querySelector('.math-narrow').checkVisibility());
        if (!el) return null;
        const range = document.createRange();
        range.selectNodeContents(el.querySelector('.math-narrow'));
        const sel = getSelection(); sel.removeAllRanges(); sel.addRange(range);
        return el.querySelector('.math-wide annotation').textContent; }""")
    if tex is None:
        pytest.skip("no display formula is cut into pieces on a phone")
    page.keyboard.press("Control+c")
    assert page.evaluate("navigator.clipboard.readText()").strip() == f"$${tex}$$"


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_selection_over_a_formula_with_two_layouts_copies_its_tex_once(visit,
                                                                         viewport: Any) -> None:
    """A display formula with a phone layout holds two (one hidden by the width): a selection
    from the text above over the formula held both, and KaTeX's copy-tex copied the formula's
    TeX twice. The copy gives the text and the formula's TeX once, at either width, and the
    page keeps both layouts afterwards (the formula's boxes are opened: what a closed box
    holds is not copied, test_browser_reading)."""
    page = visit(viewport=viewport, permissions=["clipboard-read", "clipboard-write"]).open(
        "en/index.html")
    lay_out_everything(page)
    found = page.evaluate("""() => {
        const el = [...document.querySelectorAll('article .math.display')]
            .find(el => el.querySelector('.math-narrow') && el.previousElementSibling);
        if (!el) return null;
        // a closed box's text is not copied (the page hides it): the box is opened first
        for (let box = el.closest('details'); box; box = box.parentElement.closest('details')) box.open = true;
        const range = document.createRange();
        range.setStartBefore(el.previousElementSibling);
        range.setEndAfter(el);
        const sel = getSelection(); sel.removeAllRanges(); sel.addRange(range);
        return [el.querySelector('.math-wide annotation').textContent,
                el.querySelectorAll('.math-wide, .math-narrow').length]; }""")
    if found is None:
        pytest.skip("no display formula has a phone layout")
    tex, layouts = found
    page.keyboard.press("Control+c")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.count(f"$${tex}$$") == 1, copied
    assert page.evaluate("""() => [...document.querySelectorAll('article .math.display')]
        .find(el => el.querySelector('.math-narrow') && el.previousElementSibling)
        .querySelectorAll('.math-wide, .math-narrow').length""") == layouts


# Each display formula shown on the page, measured: `natural`, its width and height on one
# line (its wide layout copied into the same column, unconstrained); `height`, the height of
# what the page shows (its .katex boxes, padding aside); `lines`, the width of each line of a
# layout cut into pieces (.math-run), a new line where a piece starts left of the one before
_MEASURED = """() => [...document.querySelectorAll('article .math.display')]
    .filter(el => el.offsetWidth > 0).map(el => {
    const wide = el.querySelector('.math-wide') || el;
    const probe = document.createElement('div');
    probe.className = 'math display';
    probe.style.cssText = 'position:absolute;visibility:hidden;width:max-content;' +
        'content-visibility:visible';
    probe.appendChild(wide.querySelector('.katex-display').cloneNode(true));
    el.after(probe);
    const one = probe.querySelector('.katex').getBoundingClientRect();
    probe.remove();
    const shown = [el.querySelector('.math-narrow'), el.querySelector('.math-wide'), el]
        .find(c => c && c.getClientRects().length > 0);
    const boxes = [...shown.querySelectorAll('.katex')].map(k => k.getBoundingClientRect());
    const height = Math.max(...boxes.map(b => b.bottom)) - Math.min(...boxes.map(b => b.top));
    const runs = [...shown.querySelectorAll('.math-run')].map(r => r.getBoundingClientRect());
    const lines = [];
    runs.forEach((b, i) => {
        if (i === 0 || b.left < runs[i - 1].left) lines.push([b.left, b.right]);
        else lines[lines.length - 1][1] = b.right; });
    return {tex: wide.querySelector('annotation').textContent, column: el.clientWidth,
            natural: one.width, one_line: one.height, height,
            em: parseFloat(getComputedStyle(el.querySelector('.katex')).fontSize),
            lines: lines.map(([l, r]) => r - l), scrolls: el.scrollWidth > el.clientWidth};
})"""


@pytest.mark.parametrize("lang", LANGS)
def test_a_display_formula_is_broken_on_a_phone_only_where_it_does_not_fit(shared,
                                                                          lang: str) -> None:
    """A 360 px phone broke display formulas 198-292 px wide at their relations in its 328 px
    column (the build's cautious width estimate decided), one leaving `o` of `o = …` alone on
    its line. Now one that fits shows on one line (a break adds a line at least half the
    formula's em high), one that does not breaks into lines that fit, none a lone symbol
    (a line at least 2 em wide), and none scrolls."""
    page = shared(f"{lang}/index.html", laid_out=True, viewport=PHONE).page
    rows = page.evaluate(_MEASURED)
    assert rows
    fits = [r for r in rows if r["natural"] <= r["column"]]
    assert fits, "no display formula fits a phone's column: nothing to check"
    broken = [(r["tex"][:50], round(r["natural"]), round(r["height"]), round(r["one_line"]))
              for r in fits if r["height"] > r["one_line"] + r["em"] / 2]
    assert broken == []
    for r in rows:
        assert not r["scrolls"], r["tex"][:50]
        assert all(2 * r["em"] <= w <= r["column"] + 0.5 for w in r["lines"]), \
            (r["tex"][:50], r["lines"])


@pytest.mark.parametrize("lang", LANGS)
def test_every_chart_has_its_numbers_as_a_closed_table_read_by_screen_readers(
        visit, site_build, lang: str) -> None:
    results, ui = site_build["results"], site_build["strings"][lang].ui
    specs = load()
    page = visit().open(f"{lang}/index.html")
    lay_out_everything(page)
    figures = page.locator("article figure")
    # each figure's id and its table boxes (open or not, the summary's words), in one round trip
    boxes = figures.evaluate_all("""figs => figs.map(f => [f.id,
        [...f.querySelectorAll('details.fig-data')].map(d => [d.hasAttribute('open'),
            [...d.querySelectorAll('summary')].map(s => s.textContent)])])""")
    assert len(boxes) > 0
    for n, (fig_id, box) in enumerate(boxes):
        fig = figures.nth(n)
        name = fig_id.removeprefix("fig-").replace("-", "_")
        assert len(box) == 1, name
        assert box[0][0] is False, name                            # collapsed by default
        assert box[0][1] == [ui["table_summary"]]
        fig.locator("details.fig-data summary").click()
        tables = fig.get_by_role("table")
        assert tables.count() >= 1, name
        headers = fig.get_by_role("columnheader").all_text_contents()
        assert headers and all(h.strip() for h in headers if h), name
        assert fig.get_by_role("rowheader").count() > 0, name
        # the same cells as the figure's own results give (headers from strings.toml)
        view = needed_results(results, specs[name].needs)
        expected = html(TABLES[name](view), ui, results["meta"]["bounds"])
        cells = tables.locator("td").all_text_contents()
        for cell in cells:
            assert f"<td>{cell}</td>" in str(expected).replace("&lt;", "<").replace("&gt;", ">")
        assert len(cells) == str(expected).count("<td>"), name
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def test_a_table_reads_only_what_its_figure_was_drawn_from(site_build: dict[str, Any]) -> None:
    """Each table function gets only the figure's `needs`: reading anything else would raise."""
    results, specs = site_build["results"], load()
    assert set(TABLES) <= set(specs)
    for name, fn in TABLES.items():
        tables = fn(needed_results(results, specs[name].needs))
        assert tables, name
        for table in tables:
            assert table.rows and all(len(r) == len(table.headers) for r in table.rows), name
            if table.groups:
                assert sum(span for _, span in table.groups) == len(table.headers), name
                # a header spanning both header rows stands alone under the empty group
                assert all(span == 1 for key, span in table.groups if not key), name


# every opened table's scroll box, its table and the article's column, measured after two
# frames (explainer.js takes a box's tab stop away, in a ResizeObserver, once it fits)
OPENED_TABLES = """async () => {
    const frames = () => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
    const column = document.querySelector('article').getBoundingClientRect();
    const out = [];
    for (const d of document.querySelectorAll('article details.fig-data')) {
        d.querySelector('summary').click();
        await frames();
        for (const box of d.querySelectorAll('.fig-data-scroll')) {
            const t = box.querySelector('table'), r = t.getBoundingClientRect();
            out.push({figure: d.closest('figure').id, caption: t.caption?.textContent || '',
                      scrollWidth: box.scrollWidth, clientWidth: box.clientWidth,
                      inColumn: r.left >= column.left - 0.5 && r.right <= column.right + 0.5,
                      tabIndex: box.tabIndex, role: box.getAttribute('role'),
                      name: box.getAttribute('aria-label') || ''});
        }
        d.querySelector('summary').click();
    }
    return out; }"""


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("lang", LANGS)
def test_every_figure_table_opened_fits_its_column(visit, viewport, lang: str) -> None:
    """At 360 px (and 1280 px) every figure's table, opened, fits the column: its box does
    not scroll sideways, and explainer.js leaves no tab stop on a box that does nothing. Each
    box is still named for screen readers (the page without JavaScript keeps every box a
    tab stop, in case a reader's font makes one wider)."""
    page = visit(viewport=viewport).open(f"{lang}/index.html")
    lay_out_everything(page)
    boxes = page.evaluate(OPENED_TABLES)
    assert boxes
    wide = [b for b in boxes if b["scrollWidth"] > b["clientWidth"] or not b["inColumn"]]
    assert wide == [], wide
    assert all(b["tabIndex"] == -1 for b in boxes), boxes
    assert all(b["role"] == "group" and b["name"].strip() for b in boxes), boxes


@pytest.mark.parametrize("lang", LANGS)
def test_formulas_are_drawn_at_the_size_their_width_estimate_takes(shared, lang: str) -> None:
    """The phone layout's width estimate (Rendered.width_em, in the text's ems) scales the
    engine's measure by FONT_SCALE; a site rule that loses to the engine's own sheet (as a
    `font-size: 1.08em` did against KaTeX's 1.21em) leaves every estimate off by the ratio."""
    from sqrtdk.web.math.katex import FONT_SCALE, HOOKS
    page = shared(f"{lang}/index.html", laid_out=True, viewport=PHONE).page
    ratios = page.evaluate("""sel => [...document.querySelectorAll(sel)].map(el =>
        parseFloat(getComputedStyle(el).fontSize)
        / parseFloat(getComputedStyle(el.parentElement).fontSize))""", HOOKS["formula"])
    assert ratios
    # computed sizes are kept to 1/64 px: at 17 px text the ratio is exact to ±0.001
    assert all(abs(r - FONT_SCALE) < 0.002 for r in ratios), sorted(set(ratios))


@pytest.mark.parametrize("lang", LANGS)
def test_every_box_that_is_a_tab_stop_has_a_name(shared, lang: str) -> None:
    """A box the build makes a tab stop so that a keyboard can scroll it (a formula's, an
    article table, a figure's table) is named in the accessibility tree (WCAG 4.1.2; axe does
    not check it): a Markdown table had no name, a formula's box was a generic element named
    "". Read on the phone's page without JavaScript, where every such box keeps its stop (a
    box hidden at this width is not in the tree and is left out)."""
    page = shared(f"{lang}/index.html", laid_out=True, viewport=PHONE,
                  java_script_enabled=False).page
    cdp = page.context.new_cdp_session(page)
    try:
        root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        found = cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": (
            "article [tabindex='0']:not(a, button, summary, [role=slider])")})["nodeIds"]
        nodes = [cdp.send("Accessibility.getPartialAXTree", {"nodeId": n, "fetchRelatives": False}
                          )["nodes"][0] for n in found]
    finally:
        cdp.detach()
    shown = [n for n in nodes if not n.get("ignored")]
    assert shown, "no box is a tab stop: this test checks nothing"
    unnamed = [(n["role"]["value"], n.get("name", {}).get("value")) for n in shown
               if not (n.get("name") or {}).get("value", "").strip()]
    assert unnamed == [], unnamed


# the width in ems of each sign of `signs` in the page's text, as drawn
_SIGN_WIDTHS = """signs => {
    const out = [], walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) for (const s of signs) {
        for (let at = n.data.indexOf(s); at >= 0; at = n.data.indexOf(s, at + 1)) {
            const r = document.createRange(); r.setStart(n, at); r.setEnd(n, at + 1);
            const w = r.getBoundingClientRect().width;
            if (w > 0) out.push([s, w / parseFloat(getComputedStyle(n.parentElement).fontSize)]);
        }
    }
    return out; }"""


@pytest.mark.parametrize("lang", LANGS)
def test_section_and_root_signs_are_drawn_narrow_in_every_language(shared, lang: str) -> None:
    """A CJK face draws § and √ full-width: the Chinese page showed "§ 3.2.1" with a gap.
    Every § and √ of the page's text (formulas have their own fonts) is at most 0.7 em wide."""
    page = shared(f"{lang}/index.html", laid_out=True).page
    widths = page.evaluate(_SIGN_WIDTHS, ["\u00a7", "\u221a"])
    if not widths:
        pytest.skip("the page's text has no section or root sign")
    assert [(s, round(w, 2)) for s, w in widths if w > 0.7] == []


@pytest.mark.parametrize("lang", LANGS)
def test_a_scrolling_inline_formula_glued_to_its_punctuation_stays_in_the_column(
        visit, lang: str) -> None:
    """An inline formula wider than a phone's column scrolls in its own box, the column's
    width; glued to the full-width comma after it (a Chinese sentence, MathPunctuationGlue's
    `.nobr`), the comma stood past the column's edge and the whole page scrolled sideways at
    360 px. The formula is made here, as the page's own markup for one (the article needs
    none that wide)."""
    page = visit(viewport=PHONE).open(f"{lang}/index.html")
    got = page.evaluate("""() => {
        const p = document.createElement('p');
        p.innerHTML = '\u5b9a\u4e49\u4e3a\uff1a<span class="nobr" style="--marks: 3">' +
            '\uff08<span class="math">' +
            '<span class="math-scroll" tabindex="0"><span class="katex" style="display:' +
            'inline-block;width:2000px">x</span></span></span>\uff09\uff0c</span>\u5176\u4e2d';
        const article = document.querySelector('article');
        article.querySelector('h1').after(p);   // the title: every page has it
        const column = article.getBoundingClientRect();
        const glue = p.querySelector('.nobr').getBoundingClientRect();
        const out = [glue.right - column.right, document.documentElement.scrollWidth,
                     document.documentElement.clientWidth];
        p.remove();
        return out; }""")
    assert got[0] <= 0.5 and got[1] <= got[2], got
