"""The build, stage by stage, each stage timed: settings, science (experiments -> results),
figures, pages (Markdown), the site (math, templates, checks), then one atomic write. Mistakes
come first: when the results are known (cached, or committed with the experiments as
committed), the pages and the site are made against them and the figures on disk before the
science and figures stages, and kept if those give the same (sqrtdk/early.py).

Gather and validate everything first, then write (MkDocs' order): every author-edited file
is read and checked before a worker process starts, and nothing is written until the whole
site has passed its checks. `Builder` keeps what it loaded between builds, so `--serve`
rebuilds in a warm process; a one-shot build is a Builder used once.
"""
from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .cache import Cache, code_digest, digest, file_digest, tree_digest, versions, write_if_changed
from .errors import BuildError, display_path
from .log import captured, held, replay
from .options import PACKAGE_DIR, BuildOptions
from .settings import Settings, Strings, load_settings, load_strings

if TYPE_CHECKING:
    from .early import Checked
    from .web.math import MathRenderer
    from .web.model import FigureFiles, Page

LOGGER = logging.getLogger("sqrtdk")
FIGURE_PACKAGES = ("matplotlib", "mplfonts", "numpy")
WEB_PACKAGES = ("Markdown", "pymdown-extensions", "Jinja2", "PyYAML", "MarkupSafe", "cmarkgfm",
                "tinycss2")


@contextmanager
def stage(name: str, log: Callable[[str], None]) -> Iterator[Callable[[str], None]]:
    """Time a stage and log one line `name  0.123 s  (note)` when it ends successfully."""
    t0 = time.perf_counter()
    notes: list[str] = []
    yield notes.append
    extra = f"  ({'; '.join(notes)})" if notes else ""
    log(f"{name:<12} {time.perf_counter() - t0:6.3f} s{extra}")


@dataclass
class Inputs:
    """The author-edited files, read and validated."""

    settings: Settings
    strings: dict[str, Strings]
    labels: dict[str, dict[str, Any]]      # lang -> figures.toml data
    label_files: dict[str, Any]            # lang -> TomlFile


@dataclass
class FigureSet:
    """The figures of this build: file name -> path in figures_dir, and what each page needs."""

    files: dict[str, Path] = field(default_factory=dict)
    sizes: dict[str, tuple[int, int]] = field(default_factory=dict)   # file name -> px
    names: list[str] = field(default_factory=list)
    needs: list[str] = field(default_factory=list)   # results paths the figures read
    drawn: int = 0

    def resolver(self, lang: str) -> Callable[[str], FigureFiles]:
        """name -> the page language's files (KeyError for a figure the build does not make)."""
        from .web.model import FigureFiles

        def resolve(name: str) -> FigureFiles:
            wide, narrow = f"{name}.{lang}.svg", f"{name}.{lang}.narrow.svg"
            if wide not in self.files:
                raise KeyError(name)
            (w, h), (nw, nh) = self.sizes[wide], self.sizes[narrow]
            return FigureFiles(f"../figures/{wide}", w, h, f"../figures/{narrow}", nw, nh)
        return resolve


class Builder:
    """Builds the site for `opts`; keeps imports, caches and the math worker between builds
    (`memory=True` keeps cache entries in memory too, for --serve)."""

    def __init__(self, opts: BuildOptions, log: Callable[[str], None] = print,
                 memory: bool = False):
        self.opts, self.log = opts, log
        self.cache = Cache(opts.cache_dir, memory=memory)
        self.memory = memory
        self._math: MathRenderer | None = None
        self._env: Any = None
        # --serve's hook: the site, checked and published, just before it is written
        self.on_site: Callable[[Any], None] | None = None

    # ---------------------------------------------------------------- the stages

    def build(self) -> None:
        """The whole build. Raises BuildError for author mistakes (and, with `strict`, for
        warnings, before anything is written); the old site stays intact."""
        from .web.output import check_out_dir
        check_out_dir(self.opts.out, self.protected())   # before any work
        counter = _Counter()
        LOGGER.addHandler(counter)
        try:
            self._stages(counter)
        finally:
            LOGGER.removeHandler(counter)

    def _stages(self, counter: _Counter) -> None:
        t0 = time.perf_counter()
        key = self.build_key()
        if key is not None and self.memory:   # --serve writes no precompressed files
            key = digest(key, "serve")
        if key is not None and self._unchanged(key):
            self.log(f"{'unchanged':<12} {time.perf_counter() - t0:6.3f} s  (sources, code, "
                     "figures and site as the last build left them)")
            if self.opts.strict and counter.count:
                raise BuildError(self.opts.content_dir, 0, f"{counter.count} warning(s) above, "
                                 "and --strict makes them errors; fix them")
            return
        with captured() as messages:
            fingerprint = self._full(counter)
        if key is not None:
            self.cache.put_object("build", digest(key, self._outputs_state()),
                                  (fingerprint, list(messages), self._site_state()))

    def build_key(self) -> str | None:
        """The digest of everything a build reads, or None without a cache: the code of every
        half, the library versions, the options (paths as messages show them: relative to the
        working folder, so a project copied elsewhere and built from its root still matches),
        and the bytes of every file under content/, templates/ and static/,
        the sweep and the math engines' installed versions. With the state of the figures
        folder (see `_outputs_state`) it keys the whole build, so an unchanged rebuild reads no
        page, result or figure (cost measured by `make bench`: the 'unchanged rebuild' case)."""
        o = self.opts
        if o.cache_dir is None:
            return None
        where = [display_path(p) for p in (o.content_dir, o.templates_dir, o.static_dir,
                                            o.figures_dir, o.node_modules, o.out, o.sweep_file)]
        from .web.math import identity_files
        return digest(code_digest("science", "figures", "web"),
                      versions(*FIGURE_PACKAGES, *WEB_PACKAGES), repr((where, o.seed, o.strict)),
                      tree_digest(o.content_dir, o.templates_dir, o.static_dir, suffixes=None),
                      file_digest(o.sweep_file, *identity_files(o.node_modules)))

    def _outputs_state(self) -> str:
        """Names, sizes and modification times of the files in the figures folder (the build
        writes them; a deleted or edited one makes the next build go through every stage)."""
        folder = self.opts.figures_dir
        entries = sorted(folder.iterdir()) if folder.is_dir() else []
        return repr([(p.name, p.stat().st_size, p.stat().st_mtime_ns)
                     for p in entries if p.is_file()])

    def _site_state(self) -> str:
        """Digest of the path, size and modification time of every file in the output
        folder, as the last build left it: a hand edit, a new or a deleted file changes it
        (as for make and rsync; not the change time or inode, so a project copied with its
        times kept still matches). Stat only, no file is read: about 4 ms for the site's 122
        files against 53 ms to hash their bytes, measured on the loaded 2-core machine."""
        import os
        out = self.opts.out
        entries = []
        for folder, dirs, files in os.walk(out):
            dirs.sort()
            for name in sorted(files):
                st = os.stat(os.path.join(folder, name))
                entries.append((os.path.relpath(os.path.join(folder, name), out), st.st_size,
                                st.st_mtime_ns))
        return digest(repr(entries))

    def _unchanged(self, key: str) -> bool:
        """Whether the last build had these inputs and the output folder still holds its site,
        every file as that build left it (see `_site_state`); if so, its warnings are logged
        again. Otherwise the build goes through its stages and `write` puts back any file
        edited by hand, and names it."""
        entry = self.cache.get_object("build", digest(key, self._outputs_state()))
        if not isinstance(entry, tuple) or len(entry) != 3 or entry[2] != self._site_state():
            return False
        fingerprint, messages, _ = entry
        from .web.output import MARKER
        try:
            marker = (self.opts.out / MARKER).read_text(encoding="utf-8")
        except OSError:
            return False
        if not marker.strip().endswith(fingerprint):
            return False
        replay(messages)
        return True

    def _full(self, counter: _Counter) -> str:
        """Every stage; returns the written site's fingerprint. The pages and the site are
        made first against the results and figures already known (`check_first`), so an
        author's mistake is reported before any experiment runs or any figure is drawn."""
        with stage("inputs", self.log):
            inputs = self.read_inputs()
        checked = self.check_first(inputs)
        with stage("science", self.log) as note:
            results, data, hit = self.science(inputs)
            note("cached" if hit else "ran")
        with stage("figures", self.log) as note:
            figures = self.figures(inputs, results, data)
            note(f"{figures.drawn} drawn, {len(figures.files) - figures.drawn} cached")
        if checked is not None and checked.holds_for(data, figures):
            replay(checked.messages)
            site = checked.site
        else:
            again = "; again: the results or figures differ from those checked" \
                if checked is not None else ""
            with stage("pages", self.log) as note:
                pages, converted = self.pages(inputs, results, data, figures)
                note(f"{converted} converted, {len(pages) - converted} cached{again}")
            with stage("site", self.log):
                site = self.site(inputs, results, pages, figures)
        with stage("publish", self.log) as note:
            counts = self.publish(inputs, site)
            note(f"{counts['hashed']} hashed, {counts['compressed']} precompressed")
        if self.opts.strict and counter.count:
            raise BuildError(self.opts.content_dir, 0, f"{counter.count} warning(s) above, and "
                             "--strict makes them errors; fix them (nothing was written)")
        if self.on_site is not None:
            self.on_site(site)
        with stage("write", self.log) as note:
            fingerprint, written = self.write(site)
            note(written)
        return fingerprint

    def check_first(self, inputs: Inputs) -> Checked | None:
        """Labels, pages and site checked against the results and figures the build already
        has (see sqrtdk/early.py), before the experiments and figures: raises their first
        error; returns what it made (its warnings held back, for the build to use if the real
        results and figures are the same), or None when no results are known to be current."""
        from . import early
        from .sweep import science_key
        specs = early.registered_figures(self.cache)
        if specs is None:
            return None
        early.check_labels(inputs, specs)
        data = early.known_results(self.opts, self.cache, science_key(self.opts.seed))
        if data is None:
            return None
        from .science.results import DIGEST
        known = json.loads(data)
        known.pop(DIGEST, None)             # the file's own digest is no result
        with held():
            results = {**known, "sweep": self._sweep(known, staleness=False)}
        figures = early.figures_on_disk(self.opts, self.cache, specs,
                                        list(inputs.settings.languages))
        try:
            with held() as messages:
                with stage("pages", self.log) as note:
                    pages, converted = self.pages(inputs, results, data, figures)
                    note(f"{converted} converted, {len(pages) - converted} cached")
                with stage("site", self.log):
                    site = self.site(inputs, results, pages, figures)
        except BuildError:
            replay(messages)       # the warnings before the error, as a build prints them
            raise
        return early.Checked(data, figures, pages, site, list(messages))

    def protected(self) -> tuple[Path, ...]:
        """Folders the site must never be written into (the sources, figures, cache)."""
        extra = [self.opts.figures_dir] + ([self.opts.cache_dir] if self.opts.cache_dir else [])
        project = self.opts.content_dir.parent
        if (project / "build.py").is_file():   # this repository's layout: its other folders too
            extra += [project / d for d in ("tests", "bench", ".git", ".venv", ".ci", "sqrtdk")]
        return self.opts.sources + tuple(extra)

    def read_inputs(self) -> Inputs:
        """site.toml, every language's strings.toml and figures.toml, validated."""
        from .textfiles import load_toml
        settings = load_settings(self.opts.content_dir)
        strings = load_strings(self.opts.content_dir, settings.languages)
        files = {lang: load_toml(self.opts.content_dir / lang / "figures.toml")
                 for lang in settings.languages}
        from .web.embed import SLOTS
        from .web.ui_check import check_ui_strings
        check_ui_strings(strings, self.opts.templates_dir, tuple(SLOTS))
        return Inputs(settings, strings, {k: f.data for k, f in files.items()}, files)

    def science(self, inputs: Inputs) -> tuple[dict[str, Any], bytes, bool]:
        """results.json for the seed: from the cache, or by running the experiments (each
        one cached on its own module's code: only those whose code changed run). A
        results.json edited by hand (its digest does not match) is refused, not overwritten."""
        from .science.results import DIGEST
        from .sweep import refuse_edited, science_key
        cache = self.opts.cache_dir
        # another seed's results live in the cache folder, not in git: simply rewritten
        if cache is None or cache not in self.opts.results_file.parents:
            refuse_edited(self.opts.results_file, "delete it and run build.py again (the "
                          "experiments recompute it)")
        key = science_key(self.opts.seed)
        data = self.cache.get("results", key)
        hit = data is not None
        if data is None:
            data = self._run_science()
            self.cache.put("results", key, data)
        write_if_changed(self.opts.results_file, data)
        results: dict[str, Any] = json.loads(data)
        results.pop(DIGEST, None)
        results["sweep"] = self._sweep(results)
        return results, data, hit

    def _run_science(self) -> bytes:
        from .results_paths import check_results
        from .science.results import dumps_signed
        from .science.run import run_all
        from .sweep import ExperimentCache
        from .workers import Pool

        def map_then_load(fn: Callable[[Any], Any], jobs: Iterable[Any]) -> Iterator[Any]:
            outputs = pool.map(fn, jobs)     # every job is with the workers now
            from .figures_stage import load_drawing
            load_drawing()                   # meanwhile: matplotlib for the figure workers
            return outputs
        with Pool(self.opts.jobs) as pool:
            results = run_all(self.opts.seed, map_then_load, ExperimentCache(self.cache))
        check_results(results)               # as sqrtdk/science/outputs/ declares them
        return dumps_signed(results).encode("utf-8")

    def _sweep(self, results: dict[str, Any], staleness: bool = True) -> dict[str, Any]:
        """The claims over many seeds (figures/sweep.json), for the text to quote. Refused
        when edited by hand; a warning when missing, or naming the claims whose code or
        results changed since (sweep.claim_code) with the command that refreshes only them
        (`staleness=False`: not looked at, since it imports the experiments: the pages
        checked first only read the file)."""
        from .log import warn
        from .sweep import read_sweep, refresh_command, stale_claims
        path = self.opts.sweep_file
        sweep = read_sweep(path)
        if sweep is None:
            warn(LOGGER, path, 0, "no sweep of the claims over many seeds; restore the "
                 f"committed one (git checkout -- {display_path(path)}) or compute it ('make "
                 "sweep', build.py --sweep 100: a few minutes) and commit it")
            return {}
        if not staleness:
            return sweep
        from .options import PACKAGE_DIR
        key = digest(tree_digest(PACKAGE_DIR / "science"), file_digest(path), versions("numpy"))
        stale = self.cache.get_object("sweep", key)  # the claims' keys import the experiments
        if not isinstance(stale, list):
            stale = stale_claims(sweep)
            self.cache.put_object("sweep", key, stale)
        if stale:
            warn(LOGGER, path, 0, f"the sweep of claim(s) {', '.join(stale)} was computed by "
                 "other code or results than today's; run '" + refresh_command(
                     int(sweep.get("n_seeds", 100)), stale) + "' and commit the file")
        return sweep

    def figures(self, inputs: Inputs, results: Mapping[str, Any], data: bytes) -> FigureSet:
        """Every figure in every language and layout, and the social cards: from the cache,
        or drawn in worker processes; stale files in figures_dir are removed."""
        from .figures_stage import FigureStage
        return FigureStage(self.opts, self.cache, inputs).run(results, data)

    def pages(self, inputs: Inputs, results: Mapping[str, Any], data: bytes,
              figures: FigureSet) -> tuple[list[Page], int]:
        """Convert every language's article, reusing a cached conversion when none of its
        inputs changed; returns (pages, number converted)."""
        pages, converted = [], 0
        web_code = code_digest("web")
        sweep = json.dumps(results.get("sweep", {}), sort_keys=True)
        for lang in inputs.settings.languages:
            path = self.opts.content_dir / lang / "index.md"
            if not path.is_file():
                raise BuildError(path, 0, "missing article; every language needs "
                                          "content/<lang>/index.md")
            sizes = sorted((n, s) for n, s in figures.sizes.items() if f".{lang}." in n)
            key = digest(web_code, file_digest(path, self.opts.content_dir / lang / "strings.toml",
                                               self.opts.node_modules / "html-tag-names" /
                                               "index.js"),     # which <name> is HTML
                         data, sweep, repr(sizes), repr(figures.names), lang,
                         versions(*WEB_PACKAGES))
            cached = self.cache.get_object("pages", key)
            if isinstance(cached, tuple):
                page, messages = cached
                old, page.source = page.source, path   # the same article, wherever it now is
                replay([m.replace(display_path(old), display_path(path)) for m in messages])
            else:
                from .web.pages import build_page  # Markdown is imported only here
                with captured() as messages:
                    page = build_page(path, inputs.strings[lang], results,
                                      figures.resolver(lang), figures.names,
                                      lambda module: f"../source/{module}.html",
                                      self.opts.cache_dir, self.opts.node_modules)
                self.cache.put_object("pages", key, (page, list(messages)))
                converted += 1
            pages.append(page)
        return pages, converted

    def site(self, inputs: Inputs, results: Mapping[str, Any], pages: list[Page],
             figures: FigureSet) -> Any:
        """Check parity and claims, typeset, fill the templates, check the assembled site."""
        from .textfiles import read_text
        from .web.assemble import SiteInputs, render_site, template_env
        from .web.checks import check_claims, check_parity, check_site, check_unused_results
        sources = {p.lang: read_text(p.source) for p in pages}
        check_parity(pages, sources)
        check_claims(pages, results)
        check_unused_results(results, used_results(results, pages, figures),
                             self.opts.results_file)
        if self._env is None or not self.memory:
            self._env = template_env(self.opts.templates_dir, self.opts.cache_dir)
        site = render_site(SiteInputs(
            settings=inputs.settings, strings=inputs.strings, pages=pages, results=results,
            figures=figures.files, static_dir=self.opts.static_dir,
            sources=experiment_sources()), self._env, self.math(inputs.settings.math))
        check_site(site, pages, inputs.settings.base_url, _LinkCache(self.cache))
        return site

    def publish(self, inputs: Inputs, site: Any) -> dict[str, int]:
        """Content-hashed asset names, `_headers` and the precompressed siblings; see
        sqrtdk/web/publish.py. --serve (`memory`) skips the names and the siblings, which only
        a host needs (its server sends every file uncached): a text edit would wait for the
        edited page to be parsed again, and for Brotli."""
        from .web.assemble import CSP
        from .web.publish import publish
        return publish(site, inputs.settings.base_url, CSP,
                       None if self.memory else self._compressed, self._rewritten,
                       hashed=not self.memory)

    def _rewritten(self, page: bytes, names: dict[str, str], rewrite: Callable[[], bytes]
                   ) -> bytes:
        """A page with its references rewritten, cached by its bytes, the names and the
        site half's code (see publish.fingerprint)."""
        key = digest(code_digest("web"), json.dumps(names, sort_keys=True), page)
        found = self.cache.get("published", key)
        if found is None:
            found = rewrite()
            self.cache.put("published", key, found)
        return found

    def _compressed(self, encoding: str, data: bytes) -> bytes:
        """publish.compressed, cached by the bytes, the encoding and Brotli's version."""
        import brotli

        from .web.publish import BROTLI_QUALITY, GZIP_LEVEL, compressed
        key = digest(encoding, brotli.version, str((BROTLI_QUALITY, GZIP_LEVEL)), data)
        found = self.cache.get("compressed", key)
        if found is None:
            found = compressed(encoding, data)
            self.cache.put("compressed", key, found)
        return found

    def math(self, engine: str) -> MathRenderer:
        """The renderer of the math engine named `engine` (content/site.toml's `math`); its
        worker process lives as long as this Builder, or until another engine is named."""
        if self._math is not None and self._math.name != engine:
            self.close()
        if self._math is None:
            from .web.math import renderer
            self._math = renderer(engine, self.opts.node_modules, self.opts.cache_dir,
                                  self.memory)
        return self._math

    def write(self, site: Any) -> tuple[str, str]:
        """Swap the new site in, unless the folder already holds exactly these bytes (its
        marker names this site and every file reads back as built); returns the site's
        fingerprint and what was done ("written", "unchanged", or the files put back)."""
        from .web.output import MARKER, edited_files, site_digest, write_site
        fingerprint = site_digest(site)
        marker = self.opts.out / MARKER
        if marker.is_file() and marker.read_text(encoding="utf-8").strip().endswith(fingerprint):
            edited = edited_files(site, self.opts.out)
            if not edited:
                return fingerprint, "unchanged"
            write_site(site, self.opts.out, self.protected(), fingerprint)
            shown = ", ".join(edited[:5]) + (f" and {len(edited) - 5} more" if len(edited) > 5
                                              else "")
            return fingerprint, f"put back {len(edited)} file(s) changed since the last " \
                                f"build: {shown}"
        write_site(site, self.opts.out, self.protected(), fingerprint)
        return fingerprint, "written"

    def close(self) -> None:
        """Stop the math worker."""
        if self._math is not None:
            self._math.close()
            self._math = None


class _LinkCache:
    """checks.LinkMemo over the build's cache: each page's links by its HTML's digest and
    the checks module's source (so a text edit parses only the edited page; a change to the
    parser in checks.py parses every page again)."""

    def __init__(self, cache: Cache) -> None:
        from .web import checks
        self.cache, self.code = cache, file_digest(Path(checks.__file__))

    def get(self, key: str) -> Any:
        from .web.checks import PageLinks
        found = self.cache.get_object("links", digest(self.code, key))
        return found if isinstance(found, PageLinks) else None

    def put(self, key: str, links: Any) -> None:
        self.cache.put_object("links", digest(self.code, key), links)


class _Counter(logging.Handler):
    """Counts the warnings of one build."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


def used_results(results: Mapping[str, Any], pages: list[Page], figures: FigureSet) -> set[str]:
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


def build(opts: BuildOptions, log: Callable[[str], None] = print) -> None:
    """One build (see Builder.build)."""
    builder = Builder(opts, log)
    try:
        builder.build()
    finally:
        builder.close()


def check_reproducible(opts: BuildOptions) -> str:
    """Build twice into temporary folders, the second time without the cache; raise
    BuildError naming the first file whose bytes differ. Returns a one-line summary."""
    import dataclasses
    import filecmp
    import tempfile
    with tempfile.TemporaryDirectory(prefix="sqrtdk-check-") as tmp:
        runs = []
        for i, cache in enumerate((opts.cache_dir, None)):
            root = Path(tmp) / f"run{i}"
            build(dataclasses.replace(opts, out=root / "site", figures_dir=root / "figures",
                                      cache_dir=cache, sweep_path=opts.sweep_file),
                  log=lambda _: None)
            runs.append(root)
        files = sorted(p.relative_to(runs[0]) for p in runs[0].rglob("*") if p.is_file())
        other = sorted(p.relative_to(runs[1]) for p in runs[1].rglob("*") if p.is_file())
        if files != other:
            odd = sorted(set(files) ^ set(other))[0]
            raise BuildError(odd, 0, "only one of two builds produced this file")
        for rel in files:
            if not filecmp.cmp(runs[0] / rel, runs[1] / rel, shallow=False):
                raise BuildError(rel, 0, "two builds with the same seed differ in this file")
    return f"check: two builds (with and without cache) are byte-identical, {len(files)} files"


def clean(opts: BuildOptions) -> list[str]:
    """Delete the built site (only if it carries the build's marker) and the cache entries."""
    import shutil

    from .web.output import remove_built
    done = []
    if opts.out.exists():
        remove_built(opts.out)
        done.append(f"removed {opts.out}")
    if opts.cache_dir is not None and opts.cache_dir.is_dir():
        for entry in ("results", "figures", "pages", "jinja", "math", "manifest", "sweep",
                      "build", "links", "experiments", "registry", "compressed", "published"):
            path = opts.cache_dir / entry
            if path.is_dir():
                shutil.rmtree(path)
        done.append(f"emptied {opts.cache_dir}")
    return done


__all__ = ["BuildOptions", "Builder", "build", "check_reproducible", "clean"]
