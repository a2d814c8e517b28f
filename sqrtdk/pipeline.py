"""The build, stage by stage, each stage timed: science (experiments -> results -> figures),
then pages (Markdown), then the site (typeset, templates, checks, atomic write)."""
from __future__ import annotations

import time
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator
from contextlib import contextmanager

from . import config
from .errors import BuildError
from .pages import Page, build_page, load_strings, read_text


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
def stage(name: str, log: Callable[[str], None]) -> Iterator[None]:
    """Time a stage and log one line `name  0.123 s` when it ends."""
    t0 = time.perf_counter()
    yield
    log(f"{name:<12} {time.perf_counter() - t0:6.3f} s")


def run_science(opts: BuildOptions) -> tuple[dict[str, Any], dict[str, Path]]:
    """Run the experiments and draw the figures; returns (results, figure file -> path)."""
    from . import experiments, figures, results
    params = config.Params()
    res = results.build(experiments.run_all(params, opts.seed), params)
    opts.figures_dir.mkdir(parents=True, exist_ok=True)
    results.save(res, opts.figures_dir / config.RESULTS_FILE)
    paths = figures.render_all(res, opts.figures_dir, config.LANGUAGES)
    return res, {p.name: p for p in paths}


def figure_resolver(lang: str, figures: dict[str, Path]) -> Callable[[str], tuple[str, int, int]]:
    """name -> (URL from the page, width px, height px) of the page language's SVG."""
    from .svginfo import svg_size

    def resolve(name: str) -> tuple[str, int, int]:
        path = figures[f"{name}.{lang}.svg"]  # KeyError: not produced
        w, h = svg_size(path)
        return f"../figures/{name}.{lang}.svg", w, h
    return resolve


def build_pages(opts: BuildOptions, res: dict[str, Any], figures: dict[str, Path],
                strings: dict[str, dict]) -> list[Page]:
    """Convert the article of every language (content/<lang>/index.md)."""
    pages = []
    for lang in config.LANGUAGES:
        path = opts.content_dir / lang / "index.md"
        if not path.is_file():
            raise BuildError(path, 0, "missing article; every language needs content/<lang>/index.md")
        pages.append(build_page(path, lang, res, strings[lang], figure_resolver(lang, figures)))
    return pages


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
    from .output import write_site
    with stage("science", log):
        res, figures = run_science(opts)
    with stage("markdown", log):
        strings = {lang: load_strings(opts.content_dir, lang) for lang in config.LANGUAGES}
        settings = load_settings(opts.content_dir)
        pages = build_pages(opts, res, figures, strings)
        check_parity(pages)
    with stage("templates", log):
        site = render_site(pages, res, strings, settings, figures, opts.templates_dir)
        check_site(site, pages)
    with stage("write", log):
        write_site(site, opts.out)
