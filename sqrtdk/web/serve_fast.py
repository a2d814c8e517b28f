"""`--serve`'s fast path for a text edit: the edited page, patched, before the full build.

After a save of an article, the blocks (runs of lines between blank lines) that changed are
converted on their own, by the same steps as the whole article (pages.build_page: the lexer,
the quoted results, Python-Markdown with the article's extensions; then the site's: figure
tables, the formulas' HTML, the quotes' spans and the printed addresses of links to the site's
pages, see assemble.render_site), and their HTML replaces the same blocks' HTML in the page
the last full build made. The full build then runs as before and its page replaces the patched
one (a morph of an equal page changes nothing).

The patch is made only where it is known to be right: the blocks' old text, converted the
same way, must give HTML found exactly once in the last built page (so a block whose HTML
depends on the rest of the article, such as a footnote reference numbered by the others, a
heading whose id was made unique, a paragraph inside a list item or a fence, is left to the
full build); an edit of a definition (a footnote's or a link's), of the front matter, or of
more than one place, and blocks whose conversion raises a BuildError or warns are left to it
too. Nothing here writes a file or says anything to the author: an error is the full build's
to report, at its line (a bug of ours, any other exception, goes up to the server, which
prints its traceback and builds as without the fast path).
"""
from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..log import held
from ..settings import Strings
from .model import SvgPair

_BLANK_RUN = re.compile(r"\n(?:[ \t]*\n)+")
# a footnote's or a link's definition: its HTML is elsewhere (the notes) or none
_DEFINITION = re.compile(r"^ {0,3}\[[^\]\n]+\]:", re.M)
# characters converted ahead of the build at most: a larger edit (a pasted section) would
# cost nearly what the build's own conversion of the article does, and delay it
MOST_CHARS = 8000


@dataclass
class ArticleContext:
    """What converting one article needs besides its text (the arguments of
    pages.build_page, the site's macros and the math engine of the last build)."""

    path: Path
    rel: str                     # the page's site path
    strings: Strings
    results: Mapping[str, Any]
    resolve: Callable[[str], SvgPair]
    known_figures: list[str]
    source_url: Callable[[str], str]
    cache_dir: Path | None
    node_modules: Path
    macros: Mapping[str, str]
    math: Callable[[], Any]      # the MathRenderer (the Builder's, warm)
    base_url: str                # the site's (settings.base_url), for the printed addresses


@dataclass(frozen=True)
class Patch:
    """The page `rel` (site path) with the edited blocks' HTML `old` replaced by `new`."""

    rel: str
    old: str
    new: str
    page: str


def chunks(body: str) -> list[str]:
    """The runs of non-blank lines of `body` (a Markdown text), in order."""
    return [c for c in _BLANK_RUN.split(body.strip("\n")) if c.strip()]


def changed_blocks(old: list[str], new: list[str]) -> list[tuple[list[str], list[str]]]:
    """Ways to patch `old` into `new`: (the blocks of `old` that changed, what they became in
    `new`), for the one place where the two differ. When blocks were only added or removed,
    each way takes a neighbouring block that shows in the text (not a definition) on both
    sides, the one before, else the one after, so the place can be found in the page. None
    (an empty list) when nothing changed, more than one place did, or a definition did."""
    places = [op for op in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
              if op[0] != "equal"]
    if len(places) != 1:
        return []
    _, i1, i2, j1, j2 = places[0]
    gone, came = old[i1:i2], new[j1:j2]
    if any(_DEFINITION.search(c) for c in gone + came):
        return []
    if gone and came:
        return [(gone, came)]
    ways = []
    k = i1 - 1
    while k >= 0 and _DEFINITION.search(old[k]):
        k -= 1
    if k >= 0:
        ways.append(([old[k], *gone], [old[k], *came]))
    k = i2
    while k < len(old) and _DEFINITION.search(old[k]):
        k += 1
    if k < len(old):
        ways.append(([*gone, old[k]], [*came, old[k]]))
    return ways


def convert_blocks(ctx: ArticleContext, text: str) -> str | None:
    """`text` (whole blocks of the article) as the page shows it: Markdown's HTML with the
    figure tables, formulas and quotes filled in; None when converting it raised or warned."""
    from ..errors import BuildError
    from .article_text import read_article
    from .assemble import fill_math, typeset
    from .converter import PageContext
    from .fig_tables import fill_tables
    from .lexer import mask
    from .markers import FIG_DATA_RE
    from .model import Page
    from .pages import convert
    from .print_addresses import with_print_addresses
    from .quoting import Quoter, mark_quotes
    try:
        with held() as messages:
            masked = mask(ctx.path, text, _elements(ctx.node_modules))
            quoter = Quoter(ctx.path, ctx.results, ctx.results.get("claims", {}), ctx.cache_dir)
            rendered = quoter.render_prose(masked.text)
            formulas = [quoter.render_formula(f) for f in masked.formulas]
            st = ctx.strings
            article = read_article(ctx.path, masked, rendered, 0)
            page = PageContext(ctx.path, quoter.log, formulas, st.ui, st.language, ctx.resolve,
                               ctx.known_figures, ctx.results.get("reproduce", {}),
                               ctx.source_url, article, st.box_titles)
            conversion = convert(page, masked)
            done = Page(lang=st.lang, source=ctx.path, meta={}, conversion=conversion,
                        quotes=quoter.log, formulas=formulas)
            math_html = typeset([done], ctx.math(), ctx.macros,
                                box_names={st.lang: st.ui["formula_box"]})[st.lang]
            html = conversion.html
            if FIG_DATA_RE.search(html):   # a figure's table of numbers (reads the registry)
                html = fill_tables(html, st.ui, ctx.results)
            html = mark_quotes(fill_math(html, math_html), quoter.log)
            html = with_print_addresses(html, ctx.rel, ctx.base_url, article=True)
    except (BuildError, RecursionError):     # the build says it, at its line (pages.build_page)
        return None
    return None if messages else html


def _elements(node_modules: Path) -> frozenset[str]:
    from .html_names import element_names
    return element_names(node_modules)


def patch_page(ctx: ArticleContext, old_text: str, new_text: str, page: str,
               known: dict[str, str] | None = None) -> Patch | None:
    """The page `page` (built from the article `old_text`) patched for the article
    `new_text`, or None where the patch could be wrong (see the module's docstring). `known`
    (a block's text -> its HTML, from earlier patches) spares converting an old block again:
    its HTML is used only where it is found in `page` as it must be."""
    from ..errors import BuildError
    from .pages import split_front_matter
    try:
        old_front, old_body = split_front_matter(ctx.path, old_text)
        new_front, new_body = split_front_matter(ctx.path, new_text)
    except BuildError:
        return None
    if old_front != new_front:
        return None
    for blocks in changed_blocks(chunks(old_body), chunks(new_body)):
        gone, came = ("\n\n".join(b) for b in blocks)
        if len(gone) + len(came) > MOST_CHARS:
            return None
        old_html = (known or {}).get(gone)
        if old_html is None or page.count(old_html) != 1:
            old_html = convert_blocks(ctx, gone)
        if not old_html or page.count(old_html) != 1:
            continue          # not found as it must be: the next way, else the build
        new_html = convert_blocks(ctx, came)
        if new_html is None:
            return None
        if known is not None:
            _remember(known, blocks, old_html, new_html)
        return Patch(ctx.rel, old_html, new_html, page.replace(old_html, new_html, 1))
    return None


def _remember(known: dict[str, str], blocks: tuple[list[str], list[str]], old_html: str,
              new_html: str) -> None:
    """Keep the new blocks' HTML for the next edit: all of them, and, when they were
    converted with an unchanged neighbour (an added block), those after it on their own."""
    gone, came = blocks
    known["\n\n".join(came)] = new_html
    if len(gone) == 1 and len(came) > 1 and came[0] == gone[0] \
            and new_html.startswith(old_html + "\n"):
        known["\n\n".join(came[1:])] = new_html[len(old_html) + 1:]
    if len(gone) == 1 and len(came) > 1 and came[-1] == gone[0] \
            and new_html.endswith("\n" + old_html):
        known["\n\n".join(came[:-1])] = new_html[:-len(old_html) - 1]
    if len(known) > 256:      # an editing session's worth
        del known[next(iter(known))]


def articles(content_dir: Path) -> dict[Path, str]:
    """Each language's article (`content_dir/<lang>/index.md`, resolved) as it is now: its
    text as the build reads it (textfiles.read_text); one that cannot be read is left out."""
    from ..errors import BuildError
    from ..textfiles import read_text
    found = {}
    for path in sorted(content_dir.glob("*/index.md")):
        try:
            found[path.resolve()] = read_text(path)
        except (BuildError, OSError, RuntimeError):    # RuntimeError: a link loop (3.11)
            continue
    return found


def contexts(builder: Any, inputs: Any, results: Mapping[str, Any],
             figures: Any) -> dict[Path, ArticleContext]:
    """Each language's article context for the Builder `builder` (its options and math
    engine) from one build's `inputs`, `results` and figures (pipeline.Builder.pages)."""
    opts = builder.opts
    return {(opts.content_dir / lang / "index.md").resolve(): ArticleContext(
        path=opts.content_dir / lang / "index.md", rel=f"{lang}/index.html",
        strings=inputs.strings[lang], results=results, resolve=figures.resolver(lang),
        known_figures=figures.names,
        source_url=lambda module: f"../source/{module}.html", cache_dir=opts.cache_dir,
        node_modules=opts.node_modules, macros=inputs.settings.macros,
        math=lambda: builder.math(inputs.settings.math), base_url=inputs.settings.base_url)
        for lang in inputs.settings.languages}
