"""Mistakes first (issue 19, item 3): the author's files are checked against the results and
figures already on disk before any experiment runs or any figure is drawn.

On a fresh clone, with no cache, the experiments and the figures take seconds, but the
committed `figures/results.json` and figure files say what they will produce. So the labels
are checked against the figures' registrations (read from their modules' source, without
importing matplotlib), and the pages are converted and the site assembled and checked
(quotes, claims, links, parity, math) against those files first: a mistake is reported at once.
The real results and figures then confirm: when they are what the check used (the usual
case), its pages and site are the build's; otherwise both are made again from the real ones.

The check runs only against results known to be the current experiments' output: the
cache's entry for this seed's key, or a results file that git says is as committed, together
with the experiment code (CI fails when a build changes a committed output, so the two are in
step). Otherwise (the experiment code was edited, say) the experiments run first and the
stages keep their old order; the labels are checked first either way.
"""
from __future__ import annotations

import json
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .cache import Cache, key_for, versions
from .errors import BuildError, Mistakes, suggest
from .figure_labels import validate_every_language
from .figures_stage import CARD_PX, DrawnFigures, svg_size
from .log import held
from .options import PACKAGE_DIR, BuildOptions
from .results_paths import matches_schema

if TYPE_CHECKING:
    from .figure_registrations import ParsedRegistration
    from .inputs import Inputs
    from .web.model import Page

SVG_HEAD = 4096   # bytes of an SVG read for its size: the root element's start tag is in them


@dataclass
class Checked:
    """The pages and site the check made, the warnings they gave, and what they were made from."""

    data: bytes
    figures: DrawnFigures
    pages: list[Page]
    site: Any
    messages: list[str] = field(default_factory=list)

    def holds_for(self, data: bytes, figures: DrawnFigures) -> bool:
        """Whether the real results and figures are those the check used."""
        return data == self.data and _shape(figures) == _shape(self.figures)


def _shape(figures: DrawnFigures) -> tuple[Any, ...]:
    return (sorted(figures.sizes.items()), figures.names, sorted(figures.needs))


def known_results(opts: BuildOptions, cache: Cache, key: str) -> bytes | None:
    """Results known to be the current experiments' output, to check against: the cache's
    entry under `key` (this seed's science key), else this seed's results file if git says
    it and the experiment code are as committed and it records the installed numpy; else
    None (the experiments must run first)."""
    data = cache.get("results", key)
    if data is not None:
        return data
    try:
        data = opts.results_file.read_bytes()
        results = json.loads(data)
        meta = results["meta"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not isinstance(meta, dict) or meta.get("seed") != opts.seed \
            or meta.get("numpy") != versions("numpy").partition("==")[2]:
        return None
    if not matches_schema(results):    # written before a path was renamed: run them first
        return None
    return data if as_committed(opts.results_file, PACKAGE_DIR / "science") else None


def as_committed(*paths: Path) -> bool:
    """Whether git says every path (a file or a folder) is in one repository, tracked, and
    unmodified, with no untracked file among them. False without git or outside a repository."""
    try:
        proc = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all",
                               "--", *map(str, paths)], cwd=paths[0].parent,
                              capture_output=True, timeout=30, check=False)
        tracked = subprocess.run(["git", "ls-files", "--error-unmatch", "--", str(paths[0])],
                                 cwd=paths[0].parent, capture_output=True, timeout=30,
                                 check=False)
    except (OSError, subprocess.SubprocessError):
        return False
    return proc.returncode == 0 and not proc.stdout.strip() and tracked.returncode == 0


def figures_on_disk(opts: BuildOptions, cache: Cache, specs: dict[str, ParsedRegistration],
                    labels: Mapping[str, Mapping[str, Any]]) -> DrawnFigures:
    """The figure set the build will make, with each file's size as the file in figures_dir
    has it (a figure not yet drawn gets 0 × 0, so the real one differs and the pages are
    made again). `labels`: each language's figures.toml, in site.toml's order. A language
    whose labels of a figure (and style) equal an earlier language's gets that language's
    drawing from the figure stage (figures_stage.FigureStage._keys), so its size is read from
    that language's file: a new language's first build converts its pages once. The sizes
    are kept in `cache` by the files' names, sizes and times."""
    out = DrawnFigures(names=list(specs),
                       needs=sorted({need for spec in specs.values() for need in spec.needs}))
    drawn_as: dict[str, Path] = {}       # file -> the file on disk whose drawing it gets
    for lang, owner in _owners(specs, labels).items():
        for name, by in owner.items():
            for layout in ("svg", "narrow.svg"):
                out.files[f"{name}.{lang}.{layout}"] = opts.figures_dir / f"{name}.{lang}.{layout}"
                drawn_as[f"{name}.{lang}.{layout}"] = opts.figures_dir / f"{name}.{by}.{layout}"
        card = f"card.{lang}.png"
        out.files[card], out.sizes[card] = opts.figures_dir / card, CARD_PX
    svgs = sorted(set(drawn_as.values()))
    key = key_for("registry", repr([(p.name, *_stat(p)) for p in svgs]))
    sizes = cache.get_object("registry", key)
    if not isinstance(sizes, dict) or not all(p.name in sizes for p in svgs):
        sizes = {p.name: _svg_size(p) for p in svgs}
        cache.put_object("registry", key, sizes)
    out.sizes.update({file: sizes[path.name] for file, path in drawn_as.items()})
    return out


def _owners(specs: Mapping[str, ParsedRegistration], labels: Mapping[str, Mapping[str, Any]]
            ) -> dict[str, dict[str, str]]:
    """lang -> figure -> the first language whose labels of that figure and style are the
    same (the language whose drawing the figure stage gives it)."""
    first: dict[tuple[str, str], str] = {}
    owners: dict[str, dict[str, str]] = {}
    for lang, table in labels.items():
        owners[lang] = {}
        for name in specs:
            text = json.dumps([table.get(name), table.get("style")], sort_keys=True)
            owners[lang][name] = first.setdefault((name, text), lang)
    return owners


def _stat(path: Path) -> tuple[int, int]:
    try:
        st = path.stat()
    except OSError:
        return -1, -1
    return st.st_size, st.st_mtime_ns


def _svg_size(path: Path) -> tuple[int, int]:
    try:
        with path.open("rb") as f:
            return svg_size(f.read(SVG_HEAD))
    except (OSError, ValueError, SyntaxError):
        return 0, 0


def check_labels(inputs: Inputs, specs: dict[str, ParsedRegistration]) -> None:
    """Every figures.toml against the registrations, and site.toml's social figure: the
    errors the figure stage would raise (its warnings are left to it); each file's first,
    all together (errors.Mistakes)."""
    registry: dict[str, Any] = dict(specs)
    mistakes = Mistakes()
    with held():
        validate_every_language((inputs.label_files[lang] for lang in inputs.settings.languages),
                                registry, mistakes)
    settings = inputs.settings
    if settings.social_figure not in specs:
        mistakes.add(BuildError(settings.path, settings.lines.get("social_figure", 0),
                                f"social_figure '{settings.social_figure}' is not a figure; "
                                + suggest(settings.social_figure, specs, "figures")))
    mistakes.raise_any()


