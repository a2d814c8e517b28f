"""The chromium the browser tests drive (browser.launch_chromium): the browser's own window UI
is left out, and nothing Playwright turns off for its automation comes back on."""
from __future__ import annotations

from typing import Any

from browser import BROWSER_UI_FEATURES, disabled_features


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
