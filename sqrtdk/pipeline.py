"""The build, stage by stage, each stage timed: science (experiments -> results -> figures),
then pages (Markdown), then the site (typeset, templates, checks, atomic write)."""
from __future__ import annotations

import json
import os
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Callable, Iterator

from . import config
from .cache import Cache, digest, file_digest, versions, write_if_changed
from .errors import BuildError
from .textfiles import load_strings, read_text

if TYPE_CHECKING:
    from .model import Page


@dataclass(frozen=True)
class BuildOptions:
    """What one build does; paths default to the project's folders."""

    seed: int = config.DEFAULT_SEED
    out: Path = config.SITE_DIR
    content_dir: Path = config.CONTENT_DIR
    templates_dir: Path = config.TEMPLATES_DIR
    figures_dir: Path = config.FIGURES_DIR
    cache_dir: Path | None = config.CACHE_DIR


@contextmanager
def stage(name: str, log: Callable[[str], None]) -> Iterator[Callable[[str], None]]:
    """Time a stage and log one line `name  0.123 s  (note)` when it ends successfully."""
    t0 = time.perf_counter()
    notes: list[str] = []
    yield notes.append
    extra = f"  ({'; '.join(notes)})" if notes else ""
    log(f"{name:<12} {time.perf_counter() - t0:6.3f} s{extra}")


def _science_key(seed: int) -> str:
    pkg = Path(__file__).parent
    return digest(file_digest(pkg / "experiments.py", pkg / "results.py", pkg / "config.py"),
                  repr(config.Params()), str(seed), versions("numpy"))


def _figure_key(name: str, lang: str, results_text: bytes, code: str) -> str:
    return digest(code, file_digest(config.CONTENT_DIR / lang / "figures.toml"),
                  results_text, name, lang, versions("matplotlib", "mplfonts"))


def _draw_figure(name: str, lang: str, results: dict[str, Any]) -> bytes:
    """Worker task: draw one figure and return its SVG bytes (matplotlib imported here only)."""
    import tempfile
    from . import figures
    with tempfile.TemporaryDirectory() as tmp:
        return figures.render(name, lang, results, Path(tmp)).read_bytes()


class _Pool:
    """A process pool created on first use (a cached build never starts one)."""

    def __init__(self) -> None:
        self.executor: Any = None

    def map(self, fn: Callable, *iterables: Any) -> Iterator[Any]:
        if self.executor is None:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor
            self.executor = ProcessPoolExecutor(max_workers=os.cpu_count() or 1,
                                                mp_context=multiprocessing.get_context("fork"))
        return self.executor.map(fn, *iterables)

    def close(self) -> None:
        if self.executor is not None:
            self.executor.shutdown(cancel_futures=True)


def run_experiments(opts: BuildOptions, cache: Cache, pool: _Pool) -> tuple[dict[str, Any], bytes, bool]:
    """Results for the seed, from the cache or by running the experiments in `pool`.

    Returns (results, canonical results bytes, whether they came from the cache).
    """
    key = _science_key(opts.seed)
    data = cache.get("results", key)
    hit = data is not None
    if data is None:
        from . import experiments, results
        params = config.Params()
        data = results.dumps(results.build(
            experiments.run_all(params, opts.seed, map_fn=pool.map), params)).encode("utf-8")
        cache.put("results", key, data)
    write_if_changed(opts.figures_dir / config.RESULTS_FILE, data)
    return json.loads(data), data, hit


def run_figures(opts: BuildOptions, res: dict[str, Any], data: bytes, cache: Cache,
                pool: _Pool) -> tuple[dict[str, Path], int]:
    """Every figure in every language, drawn in `pool` unless cached; stale SVGs are removed.

    Returns (file name -> path in figures/, number of figures drawn).
    """
    jobs = [(n, lang) for lang in config.LANGUAGES for n in config.FIGURE_NAMES]
    code = file_digest(Path(__file__).parent / "figures.py")
    keys = {job: _figure_key(*job, data, code) for job in jobs}
    svgs = {job: cache.get("figures", keys[job]) for job in jobs}
    missing = [job for job in jobs if svgs[job] is None]
    for job, svg in zip(missing, pool.map(_draw_figure, *zip(*missing), [res] * len(missing))
                        if missing else []):
        svgs[job] = svg
        cache.put("figures", keys[job], svg)
    out = {}
    for (name, lang), svg in svgs.items():
        path = opts.figures_dir / f"{name}.{lang}.svg"
        write_if_changed(path, svg)
        out[path.name] = path
    for stale in opts.figures_dir.glob("*.svg"):
        if stale.name not in out:
            stale.unlink()
    return out, len(missing)


def figure_resolver(lang: str, figures: dict[str, Path]) -> Callable[[str], tuple[str, int, int]]:
    """name -> (URL from the page, width px, height px) of the page language's SVG."""
    from .svginfo import svg_size

    def resolve(name: str) -> tuple[str, int, int]:
        path = figures[f"{name}.{lang}.svg"]  # KeyError: not produced
        w, h = svg_size(path)
        return f"../figures/{name}.{lang}.svg", w, h
    return resolve


def _page_key(path: Path, lang: str, results_text: bytes, figures: dict[str, Path],
              content_dir: Path) -> str:
    from .svginfo import svg_size
    pkg = Path(__file__).parent
    sizes = sorted((n, svg_size(p)) for n, p in figures.items() if n.endswith(f".{lang}.svg"))
    return digest(file_digest(*(pkg / m for m in ("quoting.py", "mdext.py", "pages.py", "model.py",
                                                  "textfiles.py", "errors.py", "svginfo.py"))),
                  file_digest(path, content_dir / lang / "strings.toml"), results_text,
                  repr(sizes), str(path), lang,
                  versions("Markdown", "pymdown-extensions", "Jinja2", "PyYAML"))


def build_pages(opts: BuildOptions, res: dict[str, Any], results_text: bytes,
                figures: dict[str, Path], cache: Cache) -> tuple[list[Page], int]:
    """Convert the article of every language (content/<lang>/index.md), reusing a cached
    conversion when none of its inputs changed; returns (pages, number converted)."""
    pages, converted = [], 0
    for lang in config.LANGUAGES:
        path = opts.content_dir / lang / "index.md"
        if not path.is_file():
            raise BuildError(path, 0, "missing article; every language needs content/<lang>/index.md")
        key = _page_key(path, lang, results_text, figures, opts.content_dir)
        page = cache.get_object("pages", key)
        if page is None:
            from .pages import build_page, load_strings  # Markdown is imported only here
            page = build_page(path, lang, res, load_strings(opts.content_dir, lang),
                              figure_resolver(lang, figures))
            cache.put_object("pages", key, page)
            converted += 1
        pages.append(page)
    return pages, converted


def load_settings(content_dir: Path) -> dict[str, Any]:
    """content/site.toml: base_url, default_language, title."""
    path = content_dir / "site.toml"
    try:
        settings = tomllib.loads(read_text(path))
    except tomllib.TOMLDecodeError as e:
        raise BuildError(path, 0, f"invalid TOML: {e}") from None
    for key in ("base_url", "default_language", "title"):
        if key not in settings:
            raise BuildError(path, 0, f"missing setting '{key}'")
    if not str(settings["base_url"]).endswith("/"):
        raise BuildError(path, line_of_key(path, "base_url"), "base_url must end with '/'")
    return settings


def line_of_key(path: Path, key: str) -> int:
    """Line of `key =` in a TOML file (0 when absent)."""
    for i, line in enumerate(read_text(path).split("\n"), 1):
        if line.strip().startswith(key):
            return i
    return 0


def build(opts: BuildOptions, log: Callable[[str], None] = print) -> None:
    """The whole build. Raises BuildError for author mistakes; the old site stays intact."""
    from .assemble import render_site
    from .checks import check_parity, check_site
    from .output import check_out_dir, write_site
    check_out_dir(opts.out)  # refuse a dangerous --out before any work
    cache, pool = Cache(opts.cache_dir), _Pool()
    try:
        with stage("experiments", log) as note:
            res, data, hit = run_experiments(opts, cache, pool)
            note("cached" if hit else "ran")
        with stage("figures", log) as note:
            figures, drawn = run_figures(opts, res, data, cache, pool)
            note(f"{drawn} drawn, {len(figures) - drawn} cached")
    finally:
        pool.close()
    with stage("markdown", log) as note:
        strings = {lang: load_strings(opts.content_dir, lang) for lang in config.LANGUAGES}
        settings = load_settings(opts.content_dir)
        pages, converted = build_pages(opts, res, data, figures, cache)
        check_parity(pages)
        note(f"{converted} converted, {len(pages) - converted} cached")
    with stage("templates", log):
        site = render_site(pages, res, strings, settings, figures, opts.templates_dir,
                           opts.cache_dir)
        check_site(site, pages)
    with stage("write", log):
        write_site(site, opts.out)


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
                                      cache_dir=cache), log=lambda _: None)
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
    from .output import remove_built
    done = []
    if opts.out.exists():
        remove_built(opts.out)
        done.append(f"removed {opts.out}")
    if opts.cache_dir is not None:
        for entry in ("results", "figures", "pages", "jinja", "katex.json"):
            path = opts.cache_dir / entry
            if path.is_dir():
                shutil.rmtree(path)
            elif path.exists():
                path.unlink()
        done.append(f"emptied {opts.cache_dir}")
    return done
