"""The answer first (issue 20, item 1): on a 360 × 780 phone and on a desktop, the short answer
(`#short-answer`, the heading id every language shares) and the first line of its text start
on the first screen, in every language, before any scrolling. Positions are asked of chromium;
nothing here reads the article's wording."""
from __future__ import annotations

import pytest

from sqrtdk.options import PROJECT_ROOT
from sqrtdk.settings import load_settings

pytestmark = pytest.mark.browser
LANGS = load_settings(PROJECT_ROOT / "content").languages
SCREENS = {"phone": {"width": 360, "height": 780}, "desktop": {"width": 1280, "height": 900}}


@pytest.mark.parametrize("screen", sorted(SCREENS))
@pytest.mark.parametrize("lang", LANGS)
def test_the_short_answer_starts_on_the_first_screen(visit, lang: str, screen: str) -> None:
    viewport = SCREENS[screen]
    phone = screen == "phone"
    page = visit(viewport=viewport, is_mobile=phone, has_touch=phone).open(f"{lang}/index.html")
    where = page.evaluate("""() => {
        const h = document.getElementById('short-answer');
        if (!h) return null;
        let text = h.nextElementSibling;
        while (text && !text.textContent.trim()) text = text.nextElementSibling;
        const line = text ? parseFloat(getComputedStyle(text).lineHeight) || 0 : 0;
        return {scrolled: scrollY, heading: h.getBoundingClientRect().top,
                text: text ? text.getBoundingClientRect().top : null, line}; }""")
    assert where is not None, "the page has no #short-answer"
    assert where["scrolled"] == 0
    assert where["text"] is not None, "#short-answer is followed by no text"
    assert 0 <= where["heading"] < viewport["height"], where
    # the first line of the answer itself is on screen, not only its heading
    assert where["text"] + where["line"] <= viewport["height"], where
