"""The math fonts cut down to what the formulas draw (sqrtdk/web/math/fonts.py); that the
browser draws every formula with them as with the full fonts is checked in
test_browser_reading.py."""
from __future__ import annotations

import io
import time
from pathlib import Path

from fontTools.ttLib import TTFont

from sqrtdk.options import PROJECT_ROOT
from sqrtdk.web.math.fonts import drawn_text, subset_woff2
from sqrtdk.web.math.katex import FONTS_PRELOADED

FONTS = PROJECT_ROOT / "node_modules" / "katex" / "dist" / "fonts"


def test_only_the_drawn_part_of_a_formula_counts(tmp_path: Path) -> None:
    html = ('<span class="katex"><span class="katex-mathml"><math><mi>Q</mi></math></span>'
            '<span class="katex-html"><span class="mord">a<br>&minus;</span></span></span>'
            '<span>b</span>')
    assert drawn_text([html], "katex-html") == {"a", "\u2212"}
    # kept by the fragments' digest: the second answer comes from the cache, the same
    assert drawn_text([html], "katex-html", tmp_path) == {"a", "\u2212"}
    assert drawn_text([html], "katex-html", tmp_path) == {"a", "\u2212"}
    assert drawn_text([html + "<b>c</b>"], "katex-html", tmp_path) == {"a", "\u2212"}
    assert len(list((tmp_path / "fonts").iterdir())) == 2


def test_a_cut_down_font_keeps_the_characters_asked_for_and_is_the_same_every_time(
        tmp_path: Path) -> None:
    font = FONTS / FONTS_PRELOADED[0]
    first = subset_woff2(font, "dxq0", None)
    time.sleep(1.1)      # a font's 'head' table holds a timestamp: it must not be renewed
    assert subset_woff2(font, "qxd0", None) == first
    cmap = set(map(chr, TTFont(io.BytesIO(first)).getBestCmap()))
    full = set(map(chr, TTFont(str(font)).getBestCmap()))
    assert {"d", "x", "q", "0"} <= cmap < full
    assert len(first) < font.stat().st_size
    # kept by its characters: the cache answers, with the same bytes
    assert subset_woff2(font, "dxq0", tmp_path) == first
    assert list((tmp_path / "fonts").iterdir())
    assert subset_woff2(font, "dxq0", tmp_path) == first
