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


def launch_chromium(browser_type: Any, executable: str, *extra: str) -> Any:
    """Debian's chromium (`executable`) launched by Playwright with CHROMIUM_ARGS, `extra`, and
    BROWSER_UI_FEATURES disabled. Chromium keeps only the last `--disable-features` switch, and
    Playwright passes its own list (PaintHolding, HttpsUpgrades, ...): so the first launch of a
    process starts chromium once without ours, reads Playwright's list off chrome://version,
    and then launches with one switch holding both lists."""
    if not _DISABLED:
        probe = browser_type.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            _DISABLED.extend(disabled_features(probe))
        finally:
            probe.close()
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
    """One page in a fresh browser context, with its problems recorded."""

    def __init__(self, browser: Any, base: str, **context: Any):
        self.base = base
        self.js = context.get("java_script_enabled", True)
        self.context = browser.new_context(**context)
        self.page = self.context.new_page()
        self.problems: list[str] = []
        p = self.page
        p.on("console", lambda m: m.type in ("error", "warning") and self.problems.append(
            f"console {m.type}: {m.text}"))
        p.on("pageerror", lambda e: self.problems.append(f"exception: {e}"))
        p.on("requestfailed", lambda r: self.problems.append(f"failed: {r.url} {r.failure}"))
        p.on("response", lambda r: r.status >= 400 and self.problems.append(f"{r.status}: {r.url}"))
        p.on("request", lambda r: r.url.startswith((base, "data:")) or self.problems.append(
            f"off-site request: {r.url}"))

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
# out (a box is a stop only while it scrolls): opening a box lays out what it holds
_STATE = """() => { const doc = document.documentElement.cloneNode(true);
    doc.querySelectorAll('.math-scroll, article > table, .fig-data-scroll').forEach(e => e.removeAttribute('tabindex'));
    const html = doc.outerHTML; let h = 0;
    for (let i = 0; i < html.length; i++) h = (Math.imul(h, 31) + html.charCodeAt(i)) | 0;
    const a = document.activeElement;
    return [location.href, scrollX, scrollY, a ? a.tagName + '#' + a.id : '', html.length, h]; }"""
FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))"


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

    def __init__(self, browser: Any, base: str):
        self.browser, self.base = browser, base
        self.visits: dict[str, tuple[Visit, Any]] = {}

    def __call__(self, path: str, laid_out: bool = False, **context: Any) -> Visit:
        key = repr((path, laid_out, sorted(context.items())))
        if key not in self.visits:
            v = Visit(self.browser, self.base, **context)
            v.open(path)
            if laid_out:
                lay_out_everything(v.page)
            self.visits[key] = (v, settled_state(v.page, v.js))
        return self.visits[key][0]

    def unchanged(self) -> Iterator[Pages]:
        """Fixture body for a test's use of the shared pages: yields them, then fails the
        test if any of them is not as it was when loaded (address, scroll, focus, document)."""
        yield self
        changed = [key for key, (v, state) in self.visits.items()
                   if settled_state(v.page, v.js) != state]
        for key in changed:          # the next test gets a fresh load, never a changed page
            self.visits.pop(key)[0].context.close()
        assert not changed, f"the test changed a shared page and did not restore it: {changed}"

    def close(self) -> None:
        for v, _ in self.visits.values():
            v.context.close()
        self.visits.clear()
