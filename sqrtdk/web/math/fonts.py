"""Web fonts cut down to the characters the site draws with them (fontTools' subsetter).

The math engine's two preloaded fonts sit on the first screen's critical path (the first
paragraph has inline math, and the browser hides a formula's text until its font arrives),
so the site serves them with only the glyphs its formulas use: about a third of their size.
A character missing from a subset would be drawn in the next font of the CSS stack, never
dropped, and `drawn_text` collects every character of every formula's visible HTML.
"""
from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from pathlib import Path

from ...cache import atomic_write, key_for
from ...html_parsing import VOID_ELEMENTS as VOID
from ...html_parsing import HTMLParser


class _VisibleText(HTMLParser):
    """The characters inside elements with class `visible_class` (KaTeX's `katex-html`, the
    part drawn with its fonts; `katex-mathml` is for screen readers and copying)."""

    def __init__(self, visible_class: str) -> None:
        super().__init__(convert_charrefs=True)
        self.visible_class, self.inside, self.chars = visible_class, [False], set[str]()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in VOID:
            classes = (dict(attrs).get("class") or "").split()
            self.inside.append(self.inside[-1] or self.visible_class in classes)

    def handle_endtag(self, tag: str) -> None:
        if tag not in VOID and len(self.inside) > 1:
            self.inside.pop()

    def handle_data(self, data: str) -> None:
        if self.inside[-1]:
            self.chars.update(data)


def drawn_text(fragments: Sequence[str], visible_class: str, cache_dir: Path | None = None
               ) -> set[str]:
    """Every character inside a `visible_class` element of the HTML `fragments` (one
    formula's HTML each). Parsing a page's formulas takes about 0.1 s, so the answer is kept
    in `cache_dir/fonts/` by a digest of the fragments (a text edit leaves them as they were).
    """
    cached = cache_dir / "fonts" / f"drawn-{key_for('fonts', visible_class, *fragments)}.txt" \
        if cache_dir else None
    if cached is not None and cached.is_file():
        return set(cached.read_text(encoding="utf-8"))
    chars: set[str] = set()
    for html in fragments:
        parser = _VisibleText(visible_class)
        parser.feed(html)
        parser.close()
        chars |= parser.chars
    if cached is not None:
        cached.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(cached, "".join(sorted(chars)).encode("utf-8"))
    return chars


def subset_woff2(font: Path, chars: Iterable[str], cache_dir: Path | None) -> bytes:
    """`font` (a .woff2 file) with the glyphs of `chars` only, as WOFF2 bytes: the same bytes
    for the same font and characters (no timestamp). Kept in `cache_dir/fonts/` by a digest of
    the font, the characters and fontTools' and Brotli's versions (Brotli, pinned in
    requirements.txt, is what fontTools compresses WOFF2 with).
    """
    import brotli  # WOFF2 compression, for fontTools (both packages' roots import quickly)
    import fontTools

    text = "".join(sorted(set(chars)))
    key = key_for("fonts", font.read_bytes(), text, fontTools.version,
                  getattr(brotli, "__version__", ""))
    cached = cache_dir / "fonts" / f"{key}.woff2" if cache_dir else None
    if cached is not None and cached.is_file():
        return cached.read_bytes()
    from fontTools import subset  # the subsetter only when the cache cannot answer
    from fontTools.ttLib import TTFont
    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = ["*"]          # keep kerning and ligatures among kept glyphs
    options.name_IDs = ["*"]                 # keep the font's names and licence
    options.notdef_outline = True
    ttf = TTFont(str(font), recalcTimestamp=False)
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=text)
    subsetter.subset(ttf)
    out = io.BytesIO()
    subset.save_font(ttf, out, options)
    data = out.getvalue()
    if cached is not None:
        cached.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(cached, data)
    return data
