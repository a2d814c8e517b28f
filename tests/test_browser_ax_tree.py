"""What a screen reader gets of the article (issue 20: every reader). The style sheet lets
the browser skip laying out blocks off screen (`content-visibility: auto`); their text must
still be in the accessibility tree from the start, or a screen reader's "read all", its
search and its list of links would end where the first screens end.

Headless chromium builds its accessibility tree in part and on demand unless an assistive
technology has turned its accessibility mode on (there, read through the DevTools protocol,
the skipped blocks hold no text at all: that is chromium's laziness, not what a screen reader
gets); `platform_browser` runs in that mode, as the browser does with a screen reader."""
from __future__ import annotations

from typing import Any

import pytest
from browser import FRAMES, PHONE, TEXT_ROLES, Visit, ax_names, lay_out_everything

pytestmark = pytest.mark.browser

BLOCKS = "article > *, .footnote"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_block_s_text_is_in_the_screen_reader_s_tree_before_any_scrolling(
        platform_browser: Any, served: str, lang: str) -> None:
    """On a phone-sized page just loaded and never scrolled, each block of the article and
    of the notes that holds text has text nodes in the accessibility tree (not ignored ones):
    skipped blocks included."""
    v = Visit(platform_browser, served, viewport=PHONE)
    try:
        page = v.open(f"{lang}/index.html")
        cdp = v.context.new_cdp_session(page)
        root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        ids = cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": BLOCKS})["nodeIds"]
        blocks = page.evaluate(f"""() => [...document.querySelectorAll('{BLOCKS}')].map(e =>
            [`${{e.tagName}}#${{e.id}}.${{e.className}}`, e.textContent.trim().length,
             getComputedStyle(e).contentVisibility])""")
        assert len(ids) == len(blocks) and any(cv == "auto" for _, _, cv in blocks), \
            "no block is left to the browser to skip: this test checks nothing"
        silent = [name for nid, (name, chars, _) in zip(ids, blocks) if chars and not [
            n for n in cdp.send("Accessibility.queryAXTree", {"nodeId": nid, "role": "StaticText"}
                                )["nodes"] if not n.get("ignored")]]
        assert silent == [], f"{len(silent)} blocks with text give a screen reader none: {silent[:5]}"
        assert v.problems == []
    finally:
        v.context.close()


def skipped_blocks(page: Any) -> int:
    """How many of the article's blocks below the first screen the browser may skip drawing
    (content-visibility: auto)."""
    return int(page.evaluate("""() => [...document.querySelectorAll('article > *')]
        .filter(el => el.getBoundingClientRect().top > innerHeight
                      && getComputedStyle(el).contentVisibility === 'auto').length"""))


@pytest.mark.parametrize("viewport", [PHONE, {"width": 1280, "height": 900}], ids=["360px", "1280px"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_name_is_the_same_off_screen_as_on_screen(platform_browser: Any, served: str,
                                                    lang: str, viewport: Any) -> None:
    """Every name a screen reader gets (a control's, a box's, a link's) is the same while its
    block is skipped off screen (content-visibility) as once it is laid out. Skipped, chromium
    reads a name from content without the layout, and puts a space at every element's edge
    where neither side has one: each Try-it box's button was "Change dₖ (now 64 )" and a
    title "dₖ\u00a0 =\u00a0 64", read with pauses, until the box came on screen."""
    v = Visit(platform_browser, served, viewport=viewport)
    try:
        page = v.open(f"{lang}/index.html")
        cdp = v.context.new_cdp_session(page)
        assert skipped_blocks(page), "no block is left to the browser to skip: this test " \
            "checks nothing"
        before = ax_names(cdp)
        lay_out_everything(page)
        page.evaluate(FRAMES)
        page.evaluate(FRAMES)
        after = ax_names(cdp)
        changed = [(before[k][0], before[k][1], after[k][1]) for k in before.keys() & after.keys()
                   if before[k][1] != after[k][1]]
        assert len(before.keys() & after.keys()) > 20
        assert changed == [], f"{len(changed)} names change once laid out: {changed[:6]}"
        assert v.problems == []
    finally:
        v.context.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_nothing_the_page_hides_is_read_from_a_block_skipped_off_screen(
        platform_browser: Any, served: str, lang: str) -> None:
    """What the page hides from everyone (a `hidden` element, an element the style sheets
    give `display: none`) is no text in the accessibility tree, in a block the browser skips
    off screen (content-visibility) as well as on screen. Skipped, chromium builds the tree
    without the block's style, so hiddenness that only style carries is lost: a screen
    reader reading on from the top heard every formula's TeX source after the formula (the
    MathML annotation, which only copying uses) and a Try-it box's "Batch 0 of 8" beside its
    "All 8 batches together", until the block came on screen."""
    v = Visit(platform_browser, served, viewport=PHONE)
    try:
        page = v.open(f"{lang}/index.html")
        cdp = v.context.new_cdp_session(page)
        assert skipped_blocks(page), "no block is left to the browser to skip: this test " \
            "checks nothing"
        cdp.send("DOM.getDocument", {"depth": -1})
        read = [n for n in cdp.send("Accessibility.getFullAXTree")["nodes"]
                if not n.get("ignored") and n.get("role", {}).get("value") in TEXT_ROLES
                and "backendDOMNodeId" in n]
        # the hidden element each node is or lies in, found for the whole document at once:
        # a round trip to the browser for each node read (resolve it, then ask it) was most
        # of the test's time
        hiding = _hiding_elements(cdp, {n["backendDOMNodeId"] for n in read})
        heard = [(hiding[n["backendDOMNodeId"]], n.get("name", {}).get("value", "")[:40])
                 for n in read if hiding[n["backendDOMNodeId"]]]
        assert heard == [], f"{len(heard)} hidden texts are read: {heard[:6]}"
        assert v.problems == []
    finally:
        v.context.close()


_CELLS = "article td, article th"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_formula_in_a_table_cell_is_in_the_cell_s_name(platform_browser: Any, served: str,
                                                         lang: str) -> None:
    """A screen reader moving through a table by cells reads each by its name, and chromium
    leaves MathML out of a name read from content: header cells were named with their
    formulas' plain text (md_math.HeaderNames), but a data cell "$\\sqrt{d_k}$" was named ""
    and "Softmax as $d_k$ grows" "Softmax as grows". Every cell holding a formula, header or
    data, now has a name that is not its text without its formulas, holding each formula's
    plain text (its math element's label)."""
    v = Visit(platform_browser, served, viewport={"width": 1280, "height": 900})
    try:
        page = v.open(f"{lang}/index.html")
        lay_out_everything(page)
        cells = page.evaluate(f"""() => [...document.querySelectorAll('{_CELLS}')].map(c => {{
            const bare = c.cloneNode(true);
            bare.querySelectorAll('.katex').forEach(k => k.remove());
            return [c.querySelector('.katex') !== null, bare.textContent,
                    [...c.querySelectorAll('[role="math"][aria-label]')].map(
                        m => m.getAttribute('aria-label'))]; }})""")
        assert any(formula for formula, _, _ in cells), "no table cell holds a formula: " \
            "this test checks nothing"
        cdp = v.context.new_cdp_session(page)
        root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        ids = cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": _CELLS})["nodeIds"]
        assert len(ids) == len(cells)
        names = ax_names(cdp)
        one_line = lambda s: "".join(s.split())      # noqa: E731 (chromium's spaces vary)
        silent = []
        for nid, (formula, bare, labels) in zip(ids, cells):
            if not formula:
                continue
            node = cdp.send("DOM.describeNode", {"nodeId": nid})["node"]["backendNodeId"]
            name = names.get(node, ("", "", ""))[1]
            if one_line(name) == one_line(bare) or not labels or \
                    not all(one_line(label) in one_line(name) for label in labels):
                silent.append((name, bare.strip()[:40], labels))
        assert silent == [], f"{len(silent)} cells lose their formulas: {silent[:6]}"
        assert v.problems == []
    finally:
        v.context.close()


_HIDDEN_BY = """function () {
    for (let e = this.nodeType === 1 ? this : this.parentElement; e; e = e.parentElement)
        if (e.hidden || getComputedStyle(e).display === 'none')
            return e.localName + (e.className ? '.' + e.className : '');
    return ''; }"""
_MARK = "data-test-hidden-by"


def _hiding_elements(cdp: Any, nodes: set[int]) -> dict[int, str]:
    """backendNodeId -> the nearest element hiding the node (itself if an element, or an
    ancestor element: `hidden`, or `display: none` by the style sheets), as `tag.class`, or
    '' when none does, for each of `nodes`. The page marks every hidden element of its
    document in one call (an attribute of the test's own, set after the tree was read), and
    the document's tree, read once, says where each node lies; a node not in it (in a frame
    or a shadow root, where `parentElement` stops) is asked on its own."""
    cdp.send("Runtime.evaluate", {"expression": f"""(() => {{
        for (const e of document.querySelectorAll('*'))
            if (e.hidden || getComputedStyle(e).display === 'none')
                e.setAttribute('{_MARK}', e.localName + (e.className ? '.' + e.className : ''));
        }})()"""})
    found: dict[int, str] = {}

    def walk(node: dict[str, Any], hidden: str) -> None:
        attrs = node.get("attributes", [])
        hidden = dict(zip(attrs[::2], attrs[1::2])).get(_MARK) or hidden    # the nearest
        found[node["backendNodeId"]] = hidden
        for child in node.get("children", []):
            walk(child, hidden)
    walk(cdp.send("DOM.getDocument", {"depth": -1})["root"], "")
    for backend in nodes - found.keys():
        node = cdp.send("DOM.resolveNode", {"backendNodeId": backend})["object"]
        found[backend] = cdp.send("Runtime.callFunctionOn", {
            "objectId": node["objectId"], "returnByValue": True,
            "functionDeclaration": _HIDDEN_BY})["result"].get("value")
    return found
