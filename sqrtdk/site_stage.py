"""The site stage and the publish stage: the pages checked together (parity, claims, unused
results), typeset and filled into the templates (sqrtdk/web/assemble.py), the whole site
checked (links, ids); then content-hashed names, `_headers` and precompressed siblings
(sqrtdk/web/publish.py), each rewritten page and compressed file cached on its own inputs.
The site stage produces a `Site` (sqrtdk/web/output.py), which `write_out` swaps in."""
from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .cache import Cache, code_digest, key_for
from .errors import Mistakes
from .options import DEFAULT_SEED, PACKAGE_DIR, BuildOptions

if TYPE_CHECKING:
    from .figures_stage import DrawnFigures
    from .inputs import Inputs
    from .web.math import MathRenderer
    from .web.model import Page
    from .web.output import Site


def _previous_page(path: Path) -> str | None:
    """The text of a page of the previous build (the site on disk), None without one."""
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def assemble_site(opts: BuildOptions, cache: Cache, inputs: Inputs, results: Mapping[str, Any],
                  pages: list[Page], figures: DrawnFigures, env: Callable[[], Any],
                  math: Callable[[], MathRenderer]) -> Site:
    """Check parity and claims, typeset, fill the templates, check the assembled site; raises
    BuildError at the author's line. `env` and `math` give the template environment
    (web.assemble.template_env) and the math renderer.

    The checks are independent of each other, and each is a seam (errors.Mistakes): the
    languages' parity (its first difference: the others shift with it), the claims (the
    first that does not hold), every formula (web.assemble.typeset: a formula that fails
    is left empty and the site is still assembled) and every link and id (checks.check_site;
    not when the languages differ: a link to a heading, box or note only one of them has
    would be told twice). Their mistakes are raised together once the site is assembled and
    checked."""
    from .web.assemble import SiteInputs, render_site
    from .web.checks import (
        check_claims,
        check_figure_tables,
        check_parity,
        check_precision,
        check_site,
        check_unshown_figures,
        check_unused_results,
    )
    from .web.fig_tables import check_table_names
    mistakes = Mistakes()
    with mistakes.seam():
        check_parity(pages)
    same = not mistakes
    check_figure_tables(pages)
    with mistakes.seam():
        check_table_names(figures.names)
    check_unshown_figures(pages, figures.names, inputs.settings.social_figure)
    check_precision(pages, opts.seed if opts.seed != DEFAULT_SEED else None)
    with mistakes.seam():
        check_claims(pages, results)
    check_unused_results(results, used_results(results, pages, figures), opts.results_file)
    site = None
    with mistakes.seam():
        site = render_site(SiteInputs(
            settings=inputs.settings, strings=inputs.strings, pages=pages, results=results,
            figures=figures.files, static_dir=opts.static_dir,
            sources=experiment_sources(), memo=TextCache(cache)), env(), math(), mistakes)
    if site is not None and same:
        with mistakes.seam():
            check_site(site, pages, inputs.settings.base_url, LinkCache(cache),
                       lambda rel: _previous_page(opts.out / rel))
    mistakes.raise_any()
    assert site is not None
    return site


class TextCache:
    """assemble.SiteInputs.memo over the build's cache: text made by the site half's code
    from text, kept by what it is, those inputs and the code (so an edit to the code makes
    it again)."""

    def __init__(self, cache: Cache) -> None:
        self.cache, self.code = cache, code_digest("web")

    def __call__(self, what: str, inputs: str, make: Callable[[], str]) -> str:
        key = key_for("published", what, self.code, inputs)
        return _cached(self.cache, "published", key, lambda: make().encode("utf-8"),
                       lambda: None).decode("utf-8")


class LinkCache:
    """checks.LinkMemo over the build's cache: each page's links by its HTML's digest and
    the checks module's source (so a text edit parses only the edited page; a change to the
    parser in checks.py parses every page again)."""

    def __init__(self, cache: Cache) -> None:
        from .web import checks
        self.cache, self.code = cache, Path(checks.__file__)

    def get(self, key: str) -> Any:
        """The links kept for the page whose HTML has digest `key`, or None."""
        from .web.checks import PageLinks
        found = self.cache.get_object("links", key_for("links", self.code, key))
        return found if isinstance(found, PageLinks) else None

    def put(self, key: str, links: Any) -> None:
        """Keep one page's links."""
        self.cache.put_object("links", key_for("links", self.code, key), links)


def used_results(results: Mapping[str, Any], pages: list[Page], figures: DrawnFigures
                 ) -> set[str]:
    """Dotted paths of the results something uses: quoted by a page, drawn by a figure,
    embedded for the page's script (its sentences included), read by a claim, or kept as
    evidence (meta.evidence)."""
    from .web.embed import EMBEDDED, FOLLOW, SLOTS
    used = {path for p in pages for path, _, _ in p.quotes.entries} | set(figures.needs)
    used |= {f"{group}.{key}" for group, keys in EMBEDDED for key in keys}
    used |= {path.split(".{", 1)[0] for path in [*FOLLOW, *FOLLOW.values(),
                                               *(v[0] for v in SLOTS.values())]}
    used |= {read for c in results.get("claims", {}).values() for read in c.get("reads", ())}
    used |= set(results.get("meta", {}).get("evidence", ()))
    return used


def experiment_sources() -> dict[str, Path]:
    """The experiment modules the site publishes (reproduce boxes link to them)."""
    science = PACKAGE_DIR / "science"
    return {p.name: p for p in sorted(science.glob("*.py")) if not p.name.startswith("_")}


def publish_site(cache: Cache, inputs: Inputs, site: Site, for_host: bool,
                 node_modules: Path) -> dict[str, int]:
    """`_headers` and (`for_host`) minified style sheets and scripts (esbuild, from
    `node_modules`), content-hashed asset names and the precompressed siblings, see
    sqrtdk/web/publish.py; returns its counts, with how many of them this build made
    rather than took from the cache (`made minified`, `made rewritten`: pages and style
    sheets whose references were rewritten, `made compressed`: .br and .gz files)."""
    from .web.assemble import CSP
    from .web.publish import publish
    web_code = code_digest("web")          # read once: it reads every module of the half
    made: Counter[str] = Counter()
    lock = threading.Lock()        # publish.precompress compresses in threads

    def count(what: str) -> Callable[[], None]:
        def one() -> None:
            with lock:
                made[f"made {what}"] += 1
        return one

    def rewritten(what: str, data: bytes, names: dict[str, str],
                  make: Callable[[], bytes]) -> bytes:
        """A page or style sheet with its references rewritten, or the references of a
        sheet, cached by `what`, its bytes, the names and the site half's code (see
        publish.fingerprint)."""
        key = key_for("published", what, web_code, json.dumps(names, sort_keys=True), data)
        return _cached(cache, "published", key, make,
                       count("rewritten") if what == "rewrite" else lambda: None)

    def compressed(encoding: str, data: bytes) -> bytes:
        """publish.compressed, cached by the bytes, the encoding and Brotli's version."""
        import brotli

        from .web.publish import BROTLI_QUALITY, GZIP_LEVEL
        from .web.publish import compressed as compress
        key = key_for("compressed", encoding, brotli.version, str((BROTLI_QUALITY, GZIP_LEVEL)),
                      data)
        return _cached(cache, "compressed", key, lambda: compress(encoding, data),
                       count("compressed"))

    def minified(rel: str, data: bytes, source: Path) -> bytes:
        """minify.minify, cached by the bytes, the loader, esbuild's options and version; a
        style sheet is checked first (minify.lint_css: its key adds stylelint's version and
        the rules' file)."""
        from .web.minify import (
            CSS_LINT,
            LOADERS,
            OPTIONS,
            esbuild_version,
            lint_css,
            minify,
            stylelint_version,
        )
        loader = LOADERS[Path(rel).suffix]
        checker = (stylelint_version(node_modules), CSS_LINT) if loader == "css" else ()

        def make() -> bytes:
            if checker:
                lint_css(node_modules, data, source)
            return minify(node_modules, rel, data, source)
        key = key_for("minified", esbuild_version(node_modules), repr(OPTIONS), loader, data,
                      *checker)
        return _cached(cache, "minified", key, make, count("minified"))

    counts = publish(site, inputs.settings.base_url, CSP, compressed if for_host else None,
                     rewritten, hashed=for_host, minify=minified if for_host else None)
    return counts | {name: made[name] for name in
                     ("made minified", "made rewritten", "made compressed")}


def _cached(cache: Cache, unit: str, key: str, make: Callable[[], bytes],
            count: Callable[[], None]) -> bytes:
    """The cache's entry for `key`, else what `make` makes (then `count` is called), kept."""
    found = cache.get(unit, key)
    if found is None:
        found = make()
        count()
        cache.put(unit, key, found)
    return found


def write_out(site: Site, out: Path, protected: tuple[Path, ...]) -> tuple[str, str]:
    """Swap the new site into `out`, unless the folder already holds exactly these bytes (its
    marker names this site and every file reads back as built); returns the site's
    fingerprint and what was done ("written", "unchanged", or the files put back and the
    files added by hand, removed)."""
    from .web.output import MARKER, edited_files, site_digest, write_site
    fingerprint = site_digest(site)
    marker = out / MARKER
    if marker.is_file() and marker.read_text(encoding="utf-8").strip().endswith(fingerprint):
        edited = edited_files(site, out)
        if not edited:
            return fingerprint, "unchanged"
        write_site(site, out, protected, fingerprint)
        added = [rel for rel in edited if rel not in site.paths()]
        back = [rel for rel in edited if rel not in added]
        told = ([f"put back {len(back)} file(s) changed or deleted since the last build: "
                 + _some(back)] if back else []) \
            + ([f"removed {len(added)} file(s) added since the last build: " + _some(added)]
               if added else [])
        return fingerprint, "; ".join(told)
    write_site(site, out, protected, fingerprint)
    return fingerprint, "written"


def _some(names: list[str]) -> str:
    """The first five of `names`, then how many more."""
    return ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
