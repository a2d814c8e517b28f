"""The pages stage: every language's article converted from Markdown (sqrtdk/web/pages.py),
each page cached on its own inputs (its article and strings, the results and sweep it may
quote, the figures it may show, the site half's code). It produces the `Page`s."""
from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .cache import Cache, code_digest, key_for
from .errors import BuildError, Mistakes, display_path
from .log import captured, replay
from .options import BuildOptions

if TYPE_CHECKING:
    from .figures_stage import DrawnFigures
    from .inputs import Inputs
    from .web.model import Page

WEB_PACKAGES = ("Markdown", "pymdown-extensions", "Jinja2", "PyYAML", "MarkupSafe", "cmarkgfm",
                "tinycss2")   # what the site half is made with


def page_key(opts: BuildOptions, lang: str, strings: str, results: Mapping[str, Any],
             data: bytes, figures: DrawnFigures, web_code: str) -> str:
    """The cache key of one language's page: the site half's code (`web_code`, see
    cache.code_digest), its article, the text of strings.toml the page is converted with
    (`strings`: as the inputs stage read it, not the file, which may have been saved since)
    and the HTML tag names (which <name> is HTML), the results and sweep, its figures' sizes
    and the figure names, and the libraries' versions."""
    sizes = sorted((n, s) for n, s in figures.sizes.items() if f".{lang}." in n)
    return key_for("pages", web_code,
                   [opts.content_dir / lang / "index.md",
                    opts.node_modules / "html-tag-names" / "index.js"],
                   strings, data, json.dumps(results.get("sweep", {}), sort_keys=True), repr(sizes),
                   repr(figures.names), lang, packages=WEB_PACKAGES)


def convert_pages(opts: BuildOptions, cache: Cache, inputs: Inputs, results: Mapping[str, Any],
                  data: bytes, figures: DrawnFigures) -> tuple[list[Page], int]:
    """Convert every language's article, reusing a cached conversion (and replaying its
    warnings) when none of its inputs changed; returns (pages, number converted). Raises
    BuildError for a missing article or an author's mistake in one: each article is converted
    on its own, so the mistakes of every language are raised together (each article's as
    web.pages.build_page finds them)."""
    pages, converted = [], 0
    web_code = code_digest("web")
    mistakes = Mistakes()
    for lang in inputs.settings.languages:
        with mistakes.seam():
            page, made = _page(opts, cache, inputs, lang, results, data, figures, web_code)
            pages.append(page)
            converted += made
    if mistakes:      # a heading without an id: the id the other languages give it there
        from .web.checks import with_shared_ids
        mistakes.found[:] = with_shared_ids(mistakes.found, pages)
    mistakes.raise_any()
    return pages, converted


def _page(opts: BuildOptions, cache: Cache, inputs: Inputs, lang: str,
          results: Mapping[str, Any], data: bytes, figures: DrawnFigures, web_code: str
          ) -> tuple[Page, bool]:
    """One language's page, from the cache (its warnings replayed) or converted; and whether
    it was converted. A conversion is cached only when its inputs are on disk as when its key
    was made (the article read for the key and, again, by the conversion)."""
    path = opts.content_dir / lang / "index.md"
    if not path.is_file():
        raise BuildError(path, 0, "missing article; every language needs "
                                  "content/<lang>/index.md")
    # the strings as read by the inputs stage, with which the page converts (keyed by the
    # file on disk, strings.toml saved after that stage kept the old words' page under the
    # new words' key, and the build for that save replayed it)
    strings = inputs.strings[lang].file.text
    stamp = _stamp(path)      # before the key reads the article: see below
    key = page_key(opts, lang, strings, results, data, figures, web_code)
    cached = cache.get_object("pages", key)
    if isinstance(cached, tuple):
        page, messages = cached
        old, page.source = page.source, path   # the same article, wherever it now is
        replay([m.replace(display_path(old), display_path(path)) for m in messages])
        return page, False
    from .web.pages import build_page  # Markdown is imported only here
    with captured() as messages:
        page = build_page(path, inputs.strings[lang], results, figures.resolver(lang),
                          figures.names, lambda module: f"../source/{module}.html",
                          opts.cache_dir, opts.node_modules)
    # the article saved while it converted: the page is of the new text, which the next
    # build keys again; kept under the old text's key it would be that text's page whenever
    # the author went back to it. Saved and saved back to the same bytes (a save and its
    # undo, a save of the same text in two writes read half-written), only the file's time
    # and inode tell
    if page_key(opts, lang, strings, results, data, figures, web_code) == key \
            and _stamp(path) == stamp:
        cache.put_object("pages", key, (page, list(messages)))
    return page, True


def _stamp(path: Path) -> tuple[int, int, int] | None:
    """The size, modification time and inode of `path` (None when it cannot be read)."""
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns, st.st_ino
