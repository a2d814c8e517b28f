"""The chromium the browser tests drive (browser.launch_chromium): the browser's own window UI
is left out, and nothing Playwright turns off for its automation comes back on."""
from __future__ import annotations

from typing import Any

import pytest
from browser import BROWSER_UI_FEATURES, PagePool, Pages, Visit, disabled_features


def test_a_new_context_brings_no_window_ui_renderer(browser: Any) -> None:
    """Every context is a window, and a window of headless chromium 156 made the omnibox's
    WebUI popups (chrome://omnibox-popup.top-chrome/), a renderer costing as much CPU as the
    page: none may exist beside the test's own page."""
    context = browser.new_context()
    try:
        context.new_page().goto("about:blank")
        cdp = browser.new_browser_cdp_session()
        targets = cdp.send("Target.getTargets")["targetInfos"]
        cdp.detach()
    finally:
        context.close()
    ui = [t["url"] for t in targets if t["type"] != "page" or t["url"].startswith("chrome://")]
    assert ui == [], f"chromium built window UI for a context: {ui}"


def test_the_one_disable_features_switch_keeps_playwright_s_list(browser: Any) -> None:
    """Chromium keeps only its last `--disable-features`: the session's chromium has one list
    holding Playwright's own names (PaintHolding, ...) and ours."""
    names = disabled_features(browser)
    probe = browser.browser_type.launch(executable_path=browser_executable(browser),
                                        args=["--headless", "--no-sandbox"])
    try:
        playwright_s = disabled_features(probe)
    finally:
        probe.close()
    assert playwright_s, "Playwright passed no --disable-features (its list moved?)"
    assert set(playwright_s) | set(BROWSER_UI_FEATURES) <= set(names), names


def browser_executable(browser: Any) -> str:
    """The session's chromium (conftest's `browser` launched it found on PATH)."""
    import shutil
    found = shutil.which("chromium")
    assert found is not None
    return found


def test_a_tab_given_back_is_given_out_again_as_a_new_context_has_it(browser: Any,
                                                                    served: str) -> None:
    """browser.PagePool: the next test's page loads in the tab a test gave back (that is
    the saving), with nothing of the last test left: no cookie, nothing stored for the
    site, the top of the page, and the last test's problems listeners gone."""
    pool = PagePool(browser)
    try:
        first = Visit(browser, served, pool=pool)
        page = first.open("en/index.html")
        page.evaluate("""() => { localStorage.setItem('k', '1'); sessionStorage.setItem('k', '1');
            document.cookie = 'k=1; path=/'; scrollTo(0, 2000); }""")
        assert page.evaluate("scrollY") > 0
        first.close()
        second = Visit(browser, served, pool=pool)
        assert second.page is page and page.url == "about:blank"
        second.open("en/index.html")
        assert page.evaluate("""() => [localStorage.length, sessionStorage.length,
            document.cookie, scrollY]""") == [0, 0, "", 0]
        page.evaluate("console.error('only the second test made this')")
        assert first.problems == [] and len(second.problems) == 1
        second.close()
    finally:
        pool.close()


CHANGES = {
    "a route": lambda v: v.page.route("**/*.woff2", lambda route: route.abort()),
    "an init script": lambda v: v.page.add_init_script("window.x = 1"),
    "emulated media": lambda v: v.page.emulate_media(media="print"),
    "a viewport": lambda v: v.page.set_viewport_size({"width": 500, "height": 500}),
    "a listener": lambda v: v.page.on("dialog", lambda d: d.dismiss()),
    "its context": lambda v: v.context.new_cdp_session(v.page).send("Accessibility.enable"),
    "the page's context": lambda v: v.page.context.set_offline(True),
    "a second tab": lambda v: _popup(v.page),
    "another site": lambda v: v.page.goto("data:text/html,<p>elsewhere"),
    "a closed tab": lambda v: v.page.close(),
}


def _popup(page: Any) -> None:
    page.evaluate("""document.body.insertAdjacentHTML('afterbegin',
        '<a id="pop" target="_blank" href="404.html">new tab</a>')""")
    with page.expect_popup():
        page.click("#pop")


@pytest.mark.parametrize("change", CHANGES)
def test_a_tab_a_test_changed_is_never_given_out_again(browser: Any, served: str,
                                                      change: str) -> None:
    """What a page load does not reset (browser._PAGE_CHANGES, a context taken, another tab
    or site, a closed tab): the tab's context is closed, none kept for the next test."""
    pool = PagePool(browser)
    try:
        v = Visit(browser, served, pool=pool)
        v.open("404.html")      # a page of the site, and a short one: a tenth of the article's CPU
        context = v._context
        CHANGES[change](v)
        v.close()
        assert not any(pool.idle.values()) and context not in browser.contexts
    finally:
        pool.close()


@pytest.mark.parametrize("change", ["scroll", "an opened box", "focus"])
def test_a_shared_page_a_test_changed_fails_that_test_and_is_loaded_anew(
        browser: Any, served: str, change: str) -> None:
    """browser.Pages.unchanged: a test that leaves a shared page other than it found it fails,
    whichever test of the module asked for the page before, and the next test that asks for
    the page gets a new load, never the changed one."""
    pages = Pages(browser, served)
    try:
        for step in pages.unchanged():                  # an earlier test loads both pages
            step("en/index.html")
            step("404.html")
        test = pages.unchanged()
        v = next(test)("en/index.html")                 # this test asks for one of them
        v.page.evaluate({
            "scroll": "scrollTo(0, 1500)",
            "an opened box": "document.querySelector('article details:not([open])').open = true",
            "focus": "document.querySelector('a[href]').focus()"}[change])
        told = {"scroll": "scrollY", "an opened box": "hash", "focus": "focus"}[change]
        with pytest.raises(AssertionError, match=f"did not restore.*'{told}'"):
            next(test, None)
        assert pages("en/index.html") is not v
    finally:
        pages.close()


def test_a_shared_page_in_print_media_is_a_page_of_its_own_and_stays_printed(
        browser: Any, served: str) -> None:
    """browser.Pages with media="print": the page is not the screen's shared page, and it
    stays in print media from one test to the next (no round trip back to the screen), which
    the unchanged check after each test accepts."""
    pages = Pages(browser, served)
    is_print = "() => matchMedia('print').matches"
    try:
        for step in pages.unchanged():
            screen, paper = step("en/index.html"), step("en/index.html", media="print")
            assert screen is not paper
            assert (screen.page.evaluate(is_print), paper.page.evaluate(is_print)) == (False, True)
        for step in pages.unchanged():                  # the next test: the same printed page
            again = step("en/index.html", media="print")
            assert again is paper and again.page.evaluate(is_print)
    finally:
        pages.close()
