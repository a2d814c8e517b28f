"""Browser test plumbing: Debian's chromium driven by Playwright (fixtures in conftest.py).

`Visit` opens one page in a fresh context and records what must never happen: console errors
(CSP violations included), uncaught exceptions, failed or off-site requests. Waiting is on
the page's own signals (the `load` event, `html[data-ready]` set by explainer.js once its
widgets exist, `document.fonts.ready`), never on network silence.

`Pages` lets the read-only checks of one test module share one load of a page per (path,
context options, laid out or not): loading a page costs about a second of chromium's CPU,
most of a short check's cost. A test given a shared page must leave it as it found it, and
`Pages.unchanged` proves it did after each test (it fails the test that did not).
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqrtdk.web.quoting import format_number

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]
# Chromium's own window UI that headless chromium (156) still builds for every window, so for
# every Playwright context: the omnibox's two WebUI popups (chrome://omnibox-popup.top-chrome/),
# a renderer of their own. No page can reach them, and they cost about as much CPU as the page:
# one load of the English page, new context each, quiet 2-core machine, median of 6: 2.22 s of
# CPU and 1.59 s wall with them, 1.21 s and 1.07 s without.
BROWSER_UI_FEATURES = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup", "WebUIOmniboxFullPopup")
_DISABLED: list[str] = []       # the merged --disable-features names, found once per process
PHONE = {"width": 360, "height": 740}
PHONE_COLUMN = 328


def disabled_features(browser: Any) -> list[str]:
    """The feature names a running chromium has disabled: those of the last `--disable-features`
    switch of its command line (chrome://version shows it), the only one chromium applies."""
    page = browser.new_page()
    try:
        page.goto("chrome://version")
        words = page.locator("#command_line").inner_text().split()
    finally:
        page.close()
    names: list[str] = []
    for word in words:
        if word.startswith("--disable-features="):
            names = [n for n in word.partition("=")[2].split(",") if n]
    return names


def playwright_features(browser_type: Any, executable: str) -> list[str]:
    """The feature names Playwright itself disables (PaintHolding, HttpsUpgrades, ...): read
    off chrome://version of a chromium (`executable`) launched with CHROMIUM_ARGS alone."""
    probe = browser_type.launch(executable_path=executable, args=CHROMIUM_ARGS)
    try:
        return disabled_features(probe)
    finally:
        probe.close()


def launch_chromium(browser_type: Any, executable: str, *extra: str,
                    playwright_s: list[str] | None = None) -> Any:
    """Debian's chromium (`executable`) launched by Playwright with CHROMIUM_ARGS, `extra`, and
    BROWSER_UI_FEATURES disabled. Chromium keeps only the last `--disable-features` switch, and
    Playwright passes its own list (PaintHolding, HttpsUpgrades, ...): so the launch passes one
    switch holding both lists. Playwright's list is `playwright_s` when the caller read it
    already (playwright_features, once for all the workers of a run: each probe is a launch,
    about a second of chromium's CPU), else the first launch of a process reads it itself."""
    if not _DISABLED:
        if playwright_s is None:
            playwright_s = playwright_features(browser_type, executable)
        _DISABLED.extend(playwright_s)
        _DISABLED.extend(n for n in BROWSER_UI_FEATURES if n not in _DISABLED)
    return browser_type.launch(executable_path=executable, args=[
        *CHROMIUM_ARGS, *extra, "--disable-features=" + ",".join(_DISABLED)])


def fmt(spec: str, value: float, path: str = "", results: dict[str, Any] | None = None) -> str:
    """A value as the page shows it (`fixed:2`, `pct:2`, `sig:3` or `grouped`); with the
    result's `path`, rounded honestly by the bounds in results.json, as the page does."""
    from sqrtdk.web.quoting import bounds_for, honest_digits
    kind, _, digits = spec.partition(":")
    n = int(digits or 0)
    if path and results is not None:
        n = honest_digits(kind, float(value), n, bounds_for(path, results["meta"]["bounds"]))
    return format_number(kind, float(value), n)


class Visit:
    """One page with its problems recorded: in a fresh browser context, or with `pool`, a tab
    the pool gives (PagePool: as a fresh context would have it, bar the process it runs in)."""

    def __init__(self, browser: Any, base: str, *, pool: PagePool | None = None, **context: Any):
        _mark_changes()
        self.base = base
        self.js = context.get("java_script_enabled", True)
        self._pool = pool
        if pool is not None:
            self._context, self.page = pool.take(context)
        else:
            self._context = browser.new_context(**context)
            self.page = self._context.new_page()
        self.problems: list[str] = []
        problems = self.problems
        self._listeners = [
            ("console", lambda m: m.type in ("error", "warning") and problems.append(
                f"console {m.type}: {m.text}")),
            ("pageerror", lambda e: problems.append(f"exception: {e}")),
            # a load the browser cancelled (net::ERR_ABORTED: the page navigated away while a
            # lazy figure was still coming, as a language switch does) is no broken file: a
            # missing one answers 404 (below), a blocked one fails with another error
            ("requestfailed", lambda r: r.failure == "net::ERR_ABORTED" or problems.append(
                f"failed: {r.url} {r.failure}")),
            ("response", lambda r: r.status >= 400 and problems.append(f"{r.status}: {r.url}")),
            ("request", lambda r: r.url.startswith((base, "data:")) or problems.append(
                f"off-site request: {r.url}"))]
        for event, listener in self._listeners:
            _ORIGINAL["on"](self.page, event, listener)     # ours: not the test's change

    @property
    def context(self) -> Any:
        """The page's browser context; a test that takes it may change it (a route, a CDP
        session, closing it), so its tab goes back to no pool."""
        _changed(self._context)
        return self._context

    def close(self) -> None:
        """The test is done with the page: its tab goes back to the pool when the pool can
        give it out as new (PagePool.give_back), else its context is closed."""
        if self._pool is None:
            self._context.close()
            return
        if not self.page.is_closed():
            for event, listener in self._listeners:
                self.page.remove_listener(event, listener)
        self._pool.give_back(self._context, self.page, self.base)

    def open(self, path: str, ready: bool = True) -> Any:
        """Go to `path`; with `ready`, wait until the page's script has built its widgets."""
        self.page.goto(self.base + path, wait_until="load")
        if ready and self.js and self.page.locator('script[src*="explainer-data."]').count():
            self.page.wait_for_selector("html[data-ready]", state="attached")
        self.page.evaluate("document.fonts.ready.then(() => true)")
        return self.page

    def quoted(self, key: str) -> list[tuple[str, str]]:
        """(format, text) of every quoted number named `key` on the page: one result may be
        quoted in several formats (`fixed(2)` here, `fixed(3)` there). A quote given more
        digits by the numbers its paragraph relates (`data-shown`, embed.RELATED) is read in
        the format it shows."""
        return [tuple(pair) for pair in self.page.locator(f'[data-key="{key}"]').evaluate_all(
            "els => els.map(el => [el.dataset.shown || el.dataset.format, el.textContent])")]

    def shows(self, key: str, value: float) -> bool:
        """Whether every quote of `key` on the page shows `value` in its own format."""
        quotes = self.quoted(key)
        return bool(quotes) and all(text == fmt(spec, value) for spec, text in quotes)


# What a test may change on a tab or its context that a page load does not reset: a route, an
# init script, emulated media or viewport, an exposed function, an event listener, timeouts,
# the context itself (taken through `page.context`, for a CDP session or to close it). Each
# marks its object (_CHANGED), and PagePool never gives out a marked tab again.
_CHANGED = "_sqrtdk_changed"
_PAGE_CHANGES = ("route", "route_from_har", "route_web_socket", "unroute", "unroute_all",
                 "add_init_script", "expose_function", "expose_binding", "emulate_media",
                 "set_viewport_size", "set_extra_http_headers", "on", "once",
                 "add_locator_handler", "set_default_timeout", "set_default_navigation_timeout",
                 "pause", "context", "clock", "request")
_ORIGINAL: dict[str, Any] = {}


def _changed(obj: Any) -> None:
    setattr(obj, _CHANGED, True)


def _mark_changes() -> None:
    """Wraps Playwright's Page methods (and properties) of _PAGE_CHANGES so that a call marks
    the page: once per process; the originals stay in _ORIGINAL for the pool's own use."""
    from playwright.sync_api import Page
    if _ORIGINAL:
        return
    for name in _PAGE_CHANGES:
        original = Page.__dict__[name]
        _ORIGINAL[name] = original.fget if isinstance(original, property) else original
        if isinstance(original, property):
            setattr(Page, name, property(lambda self, _get=original.fget: (
                _changed(self), _get(self))[1]))
        else:
            def marking(self: Any, *args: Any, _call: Any = original, **kwargs: Any) -> Any:
                _changed(self)
                return _call(self, *args, **kwargs)
            marking.__name__, marking.__doc__ = name, original.__doc__
            setattr(Page, name, marking)


class PagePool:
    """Tabs kept for the next test of this process, one set per context options: a page load
    in a tab that has loaded pages before costs chromium about a quarter less CPU than one in
    a new context (0.68 against 0.92 core-seconds a load of the article, its new context's
    renderer processes and their start-up saved; quiet 2-core machine, median of 8).

    A tab given back is given out again only as a new context would have it: on no page
    (about:blank), with no cookie and nothing stored for the site (localStorage,
    sessionStorage), and never when the test changed it (_PAGE_CHANGES), took its context,
    opened another tab, closed it, or left it on another site. The site is served with
    `Cache-Control: no-store` (the `served` fixture), so each load fetches everything again,
    as a new context does."""

    def __init__(self, browser: Any):
        _mark_changes()
        self.browser = browser
        self.idle: dict[str, list[tuple[Any, Any]]] = {}

    def take(self, context: dict[str, Any]) -> tuple[Any, Any]:
        """(context, page): an idle tab made with these options, or a new one."""
        tabs = self.idle.setdefault(repr(sorted(context.items())), [])
        if tabs:
            return tabs.pop()
        made = self.browser.new_context(**context)
        page = made.new_page()
        page.__dict__["_sqrtdk_options"] = repr(sorted(context.items()))
        return made, page

    def give_back(self, context: Any, page: Any, base: str) -> None:
        """Back to the pool when it can be given out as new (see the class), else closed."""
        reusable = (not page.is_closed() and len(context.pages) == 1
                    and not getattr(page, _CHANGED, False) and not getattr(context, _CHANGED, False)
                    and page.url.startswith(base))
        if reusable:
            try:
                page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
                page.goto("about:blank")
                context.clear_cookies()
            except Exception:   # noqa: BLE001 - a tab that cannot be reset is not reused
                reusable = False
        if not reusable:
            context.close()
            return
        self.idle[page.__dict__["_sqrtdk_options"]].append((context, page))

    def close(self) -> None:
        for tabs in self.idle.values():
            for context, _ in tabs:
                context.close()
        self.idle.clear()


def ax_node(page: Any, selector: str) -> dict[str, Any]:
    """The element's node in chromium's accessibility tree (CDP's Accessibility domain): its
    role, name, value and description as a screen reader gets them. (CDP's `valuetext`
    property, left out, is a control's own value string, never aria-valuetext: a range
    input's step, "4"; empty for a role="slider": read aria-valuetext from the page.)"""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("Accessibility.enable")
    # the document's node alone (depth 0): DOM.querySelector brings the node it finds; the
    # whole tree (depth -1) cost chromium 1-4 s a call to serialize on a page of formulas
    root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    n = cdp.send("Accessibility.getPartialAXTree", {"nodeId": node, "fetchRelatives": False})["nodes"][0]
    cdp.detach()
    return {k: n.get(k, {}).get("value") for k in ("role", "name", "value", "description")}


# roles whose name is their own text, which their element's name already holds
TEXT_ROLES = ("StaticText", "InlineTextBox", "ListMarker")


def ax_names(cdp: Any) -> dict[int, tuple[str, str, str]]:
    """Every named node of chromium's accessibility tree (not ignored, not text itself), by its
    DOM node (backendDOMNodeId): (role, name, where the name came from: the attribute that
    gave it, such as "aria-label" or "alt", or "contents"). A list marker's name is chromium's
    own ("1. ")."""
    names: dict[int, tuple[str, str, str]] = {}
    for n in cdp.send("Accessibility.getFullAXTree")["nodes"]:
        role, name = n.get("role", {}).get("value"), n.get("name", {}).get("value")
        if n.get("ignored") or not name or role in TEXT_ROLES or "backendDOMNodeId" not in n:
            continue
        used = next((s for s in n["name"].get("sources", [])
                     if "value" in s and not s.get("superseded")), {})
        names[n["backendDOMNodeId"]] = (role, name, used.get("attribute") or used.get("type", ""))
    return names


class Parts:
    """The checks of a test that runs several on one page load, each judged whatever the
    others found: `with parts("what it checks"): ...` records a failed assertion under that
    name; `parts.done()` then fails the test naming every part that failed."""

    def __init__(self) -> None:
        self.failed: dict[str, str] = {}

    @contextmanager
    def __call__(self, name: str) -> Iterator[None]:
        try:
            yield
        except AssertionError as e:
            self.failed[name] = str(e) or repr(e)

    def done(self) -> None:
        assert not self.failed, "failed: " + "; ".join(f"{k}: {v}" for k, v in self.failed.items())


def lay_out_now(page: Any) -> None:
    """Style and layout brought up to date now (a forced layout, `offsetHeight`). CDP's
    CSS.getPlatformFontsForNode reads the fonts off the last layout and never lays out itself
    (nor reads a block that content-visibility skips): a node inserted or changed just before
    could otherwise answer no font at all, depending on whether a frame ran in between (two
    such failures in one CI run)."""
    page.evaluate("() => document.documentElement.offsetHeight > -1")


def lay_out_everything(page: Any) -> None:
    """Render every block and load every image now: content-visibility: auto skips blocks off
    screen and images load lazily, which a screenshot or a geometry check would see as empty."""
    page.evaluate("""async () => {
        document.querySelectorAll('article > *').forEach(el => el.style.contentVisibility = 'visible');
        const imgs = [...document.images];
        imgs.forEach(i => { i.loading = 'eager'; });
        await Promise.all(imgs.map(i => i.decode().catch(() => null)));
        await document.fonts.ready; }""")


# what a test could leave behind on a shared page: its address, scroll position and focus,
# and its whole document (attributes such as `open` and `style` included), hashed in the page;
# but not the tab stops of formula and table boxes, which explainer.js sets as they are laid
# out (a box is a stop only while it scrolls): opening a box lays out what it holds; nor an
# empty style attribute, which styles nothing (explainer.js draws the blocks holding targets
# for a frame and then clears their style: the attribute stays empty or goes, depending on
# which of its runs cleared it, and a change of the column's width, print's, runs it again)
_STATE = """() => { const doc = document.documentElement.cloneNode(true);
    doc.querySelectorAll('.math-scroll, article > table, .fig-data-scroll').forEach(e => e.removeAttribute('tabindex'));
    doc.querySelectorAll('[style]').forEach(e => e.getAttribute('style').trim() || e.removeAttribute('style'));
    const html = doc.outerHTML; let h = 0;
    for (let i = 0; i < html.length; i++) h = (Math.imul(h, 31) + html.charCodeAt(i)) | 0;
    const a = document.activeElement;
    return [location.href, scrollX, scrollY, a ? a.tagName + '#' + a.id : '', html.length, h]; }"""
FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))"


def hold_still(locator: Any, frames: int = 3, limit: int = 120) -> None:
    """Wait until the element's box (and the window's scroll) stays the same for `frames`
    frames in a row (at most `limit` frames), the faces its text asks for loaded. After a jump
    (scroll_into_view_if_needed) chromium draws the blocks around the new place that
    content-visibility skipped and corrects the scroll (scroll anchoring) over the next frames;
    under load that went on after two frames (Playwright then found the element "not stable"
    in 17 of 200 clicks with three busy loops on two cores; none with this wait)."""
    locator.evaluate("""async (el, [frames, limit]) => {
        let last = '', same = 0;
        for (let n = 0; n < limit && same < frames; n++) {
            await document.fonts.ready;
            await new Promise((r) => requestAnimationFrame(r));
            const r = el.getBoundingClientRect();
            const now = [r.x, r.y, r.width, r.height, scrollX, scrollY].join();
            same = now === last ? same + 1 : 0;
            last = now;
        } }""", [frames, limit])


def click_reaching(locator: Any) -> str:
    """Click the element with the mouse (Playwright's click); '' when the click event reached
    it, else what the click reached instead. Playwright checks what is under the pointer when
    it presses, not when it releases: text that moves away between the two sends the click to
    the element holding both places (the paragraph), and Playwright still reports success. A
    link so pressed is not followed, and a test waiting for its effect waits in vain."""
    locator.evaluate("""el => { const seen = window.__sqrtdkClicks = [];
        addEventListener('click', (e) => seen.push(el.contains(e.target) ? '' :
            e.target.localName + (e.target.className ? '.' + e.target.className : '')),
            { capture: true }); }""")
    locator.click()
    seen: list[str] = locator.page.evaluate("window.__sqrtdkClicks")
    return "" if "" in seen else " then ".join(seen) or "no click event"


def settled_state(page: Any, scripts: bool = True) -> Any:
    """The page's _STATE once two readings a couple of frames apart agree (observers that
    run late under load, such as the dₖ bar's, have had their say). A page without scripts
    (`scripts` False) is read once: nothing of its own changes it, and with JavaScript off
    chromium never runs a frame callback, so waiting for frames would never end."""
    state = page.evaluate(_STATE)
    if not scripts:
        return state
    for _ in range(20):
        page.evaluate(FRAMES)
        again = page.evaluate(_STATE)
        if again == state:
            return state
        state = again
    return state


class Pages:
    """Loaded pages shared by the tests of one module (a module-scoped fixture holds one):
    `pages(path, laid_out=..., **context)` gives the `Visit` of that page, loaded once. Its
    base URL is the `served` fixture's, so it follows whichever site the module runs on."""

    def __init__(self, browser: Any, base: str, pool: PagePool | None = None):
        self.browser, self.base, self.pool = browser, base, pool
        self.visits: dict[str, tuple[Visit, Any]] = {}
        self.given: set[str] = set()        # the keys handed out during the current test

    def __call__(self, path: str, laid_out: bool = False, media: str | None = None,
                 **context: Any) -> Visit:
        """The shared Visit of `path` (loaded on first use): `laid_out` renders every block
        first (lay_out_everything); `media` ("print") emulates that media from then on, for
        good: a page of its own, never taken back to the screen's media (a round trip runs
        the page's observers twice, and under load it once left the page changed)."""
        key = repr((path, laid_out, sorted(context.items())) + ((media,) if media else ()))
        self.given.add(key)
        if key not in self.visits:
            v = Visit(self.browser, self.base, pool=self.pool, **context)
            v.open(path)
            if laid_out:
                lay_out_everything(v.page)
            if media:
                v.page.emulate_media(media=media)
                v.page.evaluate(FRAMES)     # the page's observers have seen the new layout
            self.visits[key] = (v, settled_state(v.page, v.js))
        return self.visits[key][0]

    def unchanged(self) -> Iterator[Pages]:
        """Fixture body for a test's use of the shared pages: yields them, then fails the
        test if any of them is not as it was when loaded (address, scroll, focus, document).
        Only the pages handed to this test are read again: a test reaches a shared page only
        by asking for it (each is a tab of its own context), and reading every page of the
        module after every test cost a quarter of the wall time of test_browser_reading and
        test_browser_layout (195.8 s against 142.5 s, one process)."""
        self.given = set()
        yield self
        now = {key: settled_state(v.page, v.js) for key, (v, _) in self.visits.items()
               if key in self.given}
        # what changed, read from _STATE's fields: the address, scroll, focus or document
        changed = {key: {name: (was, is_) for name, was, is_ in zip(
                            ("address", "scrollX", "scrollY", "focus", "length", "hash"),
                            self.visits[key][1], state) if was != is_}
                   for key, state in now.items() if state != self.visits[key][1]}
        for key in changed:          # the next test gets a fresh load, never a changed page
            self.visits.pop(key)[0].context.close()      # never back to the pool
        assert not changed, f"the test changed a shared page and did not restore it: {changed}"

    def close(self) -> None:
        """Each page back to the pool (Visit.close), or its context closed."""
        for v, _ in self.visits.values():
            v.close()
        self.visits.clear()


# whether the element with id `id` is on screen below the header and the dₖ bar, where they
# stay on screen (a page's jump to it must land there)
BAR_CLEAR = """id => {
    const top = document.getElementById(id).getBoundingClientRect().top;
    const bars = [...document.querySelectorAll('.site-header, .dk-bar')]
        .filter(b => !b.hidden && getComputedStyle(b).position !== 'static'
                && b.getBoundingClientRect().height > 2);
    return top >= 0 && bars.every(b => b.getBoundingClientRect().bottom <= top + 1); }"""


def assert_jumps_land_clear(page: Any, targets: list[str], clear: str = BAR_CLEAR) -> None:
    """Each id of `targets`, reached through its link (the address's hash), lands where the
    function `clear` (JavaScript, given the id) says it is clear of the header and the dₖ bar;
    AssertionError naming the first that does not, once the page had 3 s to settle (the
    bar's observer runs after the scroll)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    for target in targets:
        page.evaluate("id => { location.hash = ''; location.hash = id; }", target)
        try:
            page.wait_for_function(clear, arg=target, timeout=3000)
        except PlaywrightTimeout:
            raise AssertionError(f"#{target} stays under the header or the dₖ bar") from None
