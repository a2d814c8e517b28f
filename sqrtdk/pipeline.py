"""The build, stage by stage, each stage timed: inputs (inputs.py), science (experiments ->
results, science_stage.py and sweep.py), figures (figures_stage.py), pages (Markdown,
pages_stage.py), the site (math, templates, checks) and publish (site_stage.py), then one
atomic write. Each stage's module defines what it produces; this one only orders them. Mistakes
come first: when the results are known (cached, or committed with the experiments as
committed), the pages and the site are made against them and the figures on disk before the
science and figures stages, and kept if those give the same (sqrtdk/early.py).

Gather and validate everything first, then write (MkDocs' order): every author-edited file
is read and checked before a worker process starts, and nothing is written until the whole
site has passed its checks. `Builder` keeps what it loaded between builds, so `--serve`
rebuilds in a warm process; a one-shot build is a Builder used once.
"""
from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .cache import UNITS, Cache
from .errors import BuildError, combined, display_path
from .inputs import Inputs, read_inputs, told_import_error, told_syntax_error
from .log import as_error, captured, held, replay, unprinted
from .options import DEFAULT_SEED, BuildOptions

if TYPE_CHECKING:
    from .early import Checked
    from .figures_stage import DrawnFigures
    from .web.math import MathRenderer
    from .web.model import Page
    from .web.output import Site

LOGGER = logging.getLogger("sqrtdk")


@contextmanager
def stage(name: str, log: Callable[[str], None]) -> Iterator[Callable[[str], None]]:
    """Time a stage and log one line `name  0.123 s  (note)` when it ends successfully."""
    t0 = time.perf_counter()
    notes: list[str] = []
    yield notes.append
    extra = f"  ({'; '.join(notes)})" if notes else ""
    log(f"{name:<12} {time.perf_counter() - t0:6.3f} s{extra}")


def publish_note(counts: Mapping[str, int]) -> str:
    """The publish line's note: what the site has, then what this build made of it rather
    than took from the cache (site_stage.publish_site)."""
    made = [f"{counts[f'made {what}']} {what}" for what in ("minified", "rewritten", "compressed")
            if counts.get(f"made {what}")]
    return (f"{counts['minified']} minified, {counts['hashed']} hashed, "
            f"{counts['compressed']} precompressed; "
            + (f"made: {', '.join(made)}, the rest cached" if made else "all cached"))


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
        # False: make the site even when the last build left it as these inputs make it
        # (--serve's first build: its pages and other files are what later builds compare to)
        self.replay = True

    # ---------------------------------------------------------------- the stages

    def build(self) -> None:
        """The whole build. Raises BuildError for author mistakes (and, with `strict`, for
        warnings, before anything is written); the old site stays intact. With `strict` the
        warnings are not printed as they come: every one is an error, listed with the
        build's other errors (`_strict`)."""
        from .web.output import check_out_dir, out_lock
        check_out_dir(self.opts.out, self.protected())   # before any work
        counter = _Counter()
        LOGGER.addHandler(counter)
        try:
            with unprinted() if self.opts.strict else nullcontext(), \
                    out_lock(self.opts.out, self.opts.cache_dir, self.log, self.opts.figures_dir):
                try:
                    self._stages(counter)
                except (Exception, SystemExit) as e:  # in a module an author edits: one line
                    told = told_syntax_error(e) if isinstance(e, SyntaxError) else \
                        told_import_error(e)
                    if told is None:
                        raise
                    raise told from None
        except BuildError as e:
            if self.opts.strict and counter.count:
                raise self._strict(counter, e.errors) from None
            raise
        finally:
            LOGGER.removeHandler(counter)

    def _strict(self, counter: _Counter, errors: list[BuildError] | None = None) -> BuildError:
        """`strict_failure` of this build's warnings so far and `errors`."""
        return strict_failure(list(counter.seen), self.opts.content_dir, errors or [],
                              self.opts.out)

    def _stages(self, counter: _Counter) -> None:
        from .unchanged import build_inputs, remember, replayed, source_stamps
        t0 = time.perf_counter()
        stamps = source_stamps(self.opts)     # before the bytes are read: see below
        inputs = build_inputs(self.opts, serve=self.memory)
        if inputs is not None and self.replay and replayed(self.opts, self.cache, inputs):
            self.log(f"{'unchanged':<12} {time.perf_counter() - t0:6.3f} s  (sources, code, "
                     "figures and site as the last build left them)")
            if self.opts.strict and counter.count:
                raise self._strict(counter)
            return
        with captured() as messages:
            fingerprint = self._full(counter)
        # a source saved while the stages ran (an editor's save, a git checkout under
        # --serve): the site is not the one these inputs make, so it is not remembered for
        # them (it was, and going back to that text replayed the other's site as unchanged);
        # saved and saved back to the same bytes, only the files' times and inodes tell
        if inputs is not None and build_inputs(self.opts, serve=self.memory) == inputs \
                and source_stamps(self.opts) == stamps:
            remember(self.opts, self.cache, inputs, fingerprint, list(messages))
        # --serve keeps its entries in memory, and another seed's build is a side trip (it
        # would prune the default seed's figures): the next default-seed build prunes
        if not self.memory and self.opts.seed == DEFAULT_SEED:
            self.cache.prune()

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
            note(publish_note(counts))
        if self.opts.strict and counter.count:
            raise self._strict(counter)
        if self.on_site is not None:
            self.on_site(site)
        with stage("write", self.log) as note:
            fingerprint, written = self.write(site)
            note(written)
        return fingerprint

    def check_first(self, inputs: Inputs) -> Checked | None:
        """Labels, pages and site checked against the results and figures the build already
        has (see sqrtdk/early.py), before the experiments and figures: raises their errors
        (every independent one the stages gather, see sqrtdk/errors.py); returns what it made
        (its warnings held back, for the build to use if the real results and figures are
        the same), or None when no results are known to be current."""
        from . import early
        from .figure_registrations import registered_figures
        from .science_stage import check_known_results, science_key, values_of
        from .sweep import sweep_for_build
        specs = registered_figures(self.cache)
        if specs is None:
            return None
        early.check_labels(inputs, specs)
        data = early.known_results(self.opts, self.cache, science_key(self.opts.seed))
        if data is None:
            return None
        known = values_of(data)
        check_known_results(known)      # as the science stage would (a cached run)
        with held() as sweep_said:     # a missing sweep.json's warning: said again on error
            results = {**known, "sweep": sweep_for_build(self.opts, self.cache, staleness=False)}
        figures = early.figures_on_disk(self.opts, self.cache, specs, {
            lang: inputs.labels[lang] for lang in inputs.settings.languages})
        try:
            with held() as messages:
                with stage("pages", self.log) as note:
                    pages, converted = self.pages(inputs, results, data, figures)
                    note(f"{converted} converted, {len(pages) - converted} cached")
                with stage("site", self.log):
                    site = self.site(inputs, results, pages, figures)
        except BuildError:
            # the warnings before the error, as a build prints them: also the sweep's (a
            # missing figures/sweep.json is why every quote of sweep.* fails)
            replay(list(sweep_said) + list(messages))
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
        """The inputs stage (sqrtdk/inputs.py)."""
        return read_inputs(self.opts)

    def science(self, inputs: Inputs) -> tuple[dict[str, Any], bytes, bool]:
        """The science stage (sqrtdk/science_stage.py), with the sweep (sqrtdk/sweep.py) as
        results["sweep"]: (results, results.json's bytes, whether they came from the cache).
        While the experiments run in the workers, this process loads matplotlib for the
        figure stage's workers (about 0.8 s of import off the build's path)."""
        from .figures_stage import load_drawing
        from .science_stage import run_science
        from .sweep import sweep_for_build
        done = run_science(self.opts, self.cache, meanwhile=load_drawing)
        results = {**done.values, "sweep": sweep_for_build(self.opts, self.cache)}
        return results, done.data, done.cached

    def figures(self, inputs: Inputs, results: Mapping[str, Any], data: bytes) -> DrawnFigures:
        """The figure stage (sqrtdk/figures_stage.py)."""
        from .figures_stage import FigureStage
        return FigureStage(self.opts, self.cache, inputs).run(results, data)

    def pages(self, inputs: Inputs, results: Mapping[str, Any], data: bytes,
              figures: DrawnFigures) -> tuple[list[Page], int]:
        """The pages stage (sqrtdk/pages_stage.py): (pages, number converted)."""
        from .pages_stage import convert_pages
        return convert_pages(self.opts, self.cache, inputs, results, data, figures)

    def site(self, inputs: Inputs, results: Mapping[str, Any], pages: list[Page],
             figures: DrawnFigures) -> Site:
        """The site stage (sqrtdk/site_stage.py); the template environment is kept by a
        warm --serve process."""
        from .site_stage import assemble_site
        return assemble_site(self.opts, self.cache, inputs, results, pages, figures,
                             self._template_env, lambda: self.math(inputs.settings.math))

    def _template_env(self) -> Any:
        from .web.assemble import template_env
        if self._env is None or not self.memory:
            self._env = template_env(self.opts.templates_dir, self.opts.cache_dir)
        return self._env

    def publish(self, inputs: Inputs, site: Site) -> dict[str, int]:
        """The publish stage (sqrtdk/site_stage.py). --serve (`memory`) skips the hashed
        names and the precompressed siblings, which only a host needs (its server sends every
        file uncached): a text edit would wait for the edited page to be parsed again, and
        for Brotli."""
        from .site_stage import publish_site
        return publish_site(self.cache, inputs, site, for_host=not self.memory,
                            node_modules=self.opts.node_modules)

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

    def write(self, site: Site) -> tuple[str, str]:
        """Swap the new site in (site_stage.write_out): (fingerprint, what was done)."""
        from .site_stage import write_out
        return write_out(site, self.opts.out, self.protected())

    def close(self) -> None:
        """Stop the math worker."""
        if self._math is not None:
            self._math.close()
            self._math = None


def strict_failure(warnings: list[str], content_dir: Path, errors: list[BuildError],
                   out: Path) -> BuildError:
    """--strict's failure: the build's `errors` and its distinct `warnings` (as logged), each
    an error at its own line, sorted together, and a last line saying why the warnings are
    errors. The site folder `out` is left as it was; what the checks read first (the
    experiments' results.json, the figures) has been written, so the line says the former
    only ('nothing was written' was not so)."""
    return combined([*errors, *(as_error(text, content_dir) for text in warnings)], note=(
        f"{display_path(content_dir)}: --strict makes the {len(warnings)} warning(s) listed "
        f"errors; fix them (the site was not written: {display_path(out)} is as it was)"))


class _Counter(logging.Handler):
    """Counts the distinct warnings of one build (the printer shows a repeated one once) and
    keeps them, in order, for --strict to list."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.seen: dict[str, None] = {}

    @property
    def count(self) -> int:
        return len(self.seen)

    def emit(self, record: logging.LogRecord) -> None:
        self.seen[record.getMessage()] = None


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
    """Delete the built site (only if it carries the build's marker) and everything the build
    keeps in the cache folder: its units (cache.UNITS) and other seeds' figures
    (options.seed_figures_dir), holding the lock of builds into the output folder (a build
    running meanwhile finishes first). Returns what was done, one line each; an entry of the
    cache folder the build did not make is kept and named."""
    from .web.output import out_lock
    with out_lock(opts.out, opts.cache_dir, lambda _: None):
        return _clean(opts)


def _clean(opts: BuildOptions) -> list[str]:
    """`clean`'s work."""
    import shutil

    from .errors import display_path
    from .options import is_seed_folder
    from .web.output import remove_built, remove_leftovers
    done = []
    if opts.out.exists():
        remove_built(opts.out)
        done.append(f"removed {display_path(opts.out)}")
    remove_leftovers(opts.out)      # previous sites a stopped build left beside it
    if opts.cache_dir is not None and opts.cache_dir.is_dir():
        for entry in sorted(opts.cache_dir.iterdir()):
            if (entry.name in UNITS and entry.is_dir()) or is_seed_folder(entry):
                shutil.rmtree(entry)
        kept = sorted(p.name for p in opts.cache_dir.iterdir())
        where = display_path(opts.cache_dir)
        done.append(f"emptied {where}" if not kept else
                    f"emptied {where} of what the build keeps there; kept what it did not make: "
                    + ", ".join(kept))
    return done


__all__ = ["BuildOptions", "Builder", "build", "check_reproducible", "clean"]
