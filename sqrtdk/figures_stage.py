"""The figure stage: check every figures.toml against the registered figures (figure_labels),
then draw what the cache does not hold, in worker processes; it produces `DrawnFigures`.

A manifest keyed on everything the stage reads (the figures code, the labels, results.json,
the sweep, the social figure) names every output file and its cache entry, so an unchanged
build reads bytes from the cache without importing matplotlib. Each drawing's own cache key
holds what it is drawn from: the results paths its figure registers as `needs`, so a change
in one experiment redraws only the figures that read it; the text of its labels, not the
language's name, so a language whose labels equal an earlier one's draws nothing and gets
that language's bytes (the SVG ids are salted with the first such language's name, see
`_keys`); and only the code the figure runs: the import closure of the module that registers
it (with `draw.py`, `figure_fonts.py` and the figures package), this module, and the digests
of the font files (`figure_fonts.py`), so a comment added to one figure module redraws only
the figures it registers.
"""
from __future__ import annotations

import functools
import hashlib
import json
import logging
import xml.etree.ElementTree as etree
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import figure_fit
from .cache import Cache, closure_digest, code_digest, digest, key_for, write_if_changed
from .errors import BuildError, Mistakes, raised_words, suggest
from .figure_labels import check_fonts, validate_every_language
from .log import captured, replay
from .options import BuildOptions
from .results_paths import SWEEP, NotNeededError, reader_line

if TYPE_CHECKING:
    from .figures import Registration
    from .inputs import Inputs
    from .web.model import SvgPair

LOGGER = logging.getLogger("sqrtdk.figures")
FIGURE_PACKAGES = ("matplotlib", "mplfonts", "numpy")   # what the drawings are made with
CARD_PX = (1200, 630)


@dataclass
class DrawnFigures:
    """What the figure stage produces: file name -> path in figures_dir, each file's size in
    CSS pixels, the figure names (in registration order) and the results paths they read."""

    files: dict[str, Path] = field(default_factory=dict)
    sizes: dict[str, tuple[int, int]] = field(default_factory=dict)   # file name -> px
    names: list[str] = field(default_factory=list)
    needs: list[str] = field(default_factory=list)   # results paths the figures read
    drawn: int = 0

    def resolver(self, lang: str) -> Callable[[str], SvgPair]:
        """name -> the page language's files (KeyError for a figure the build does not make)."""
        from .web.model import SvgPair

        def resolve(name: str) -> SvgPair:
            wide, narrow = f"{name}.{lang}.svg", f"{name}.{lang}.narrow.svg"
            if wide not in self.files:
                raise KeyError(name)
            (w, h), (nw, nh) = self.sizes[wide], self.sizes[narrow]
            return SvgPair(f"../figures/{wide}", w, h, f"../figures/{narrow}", nw, nh)
        return resolve


class LabelError(Exception):
    """A label that str.format refused while drawing (raised in a worker, reported against
    the figures.toml line by the parent)."""

    def __init__(self, lang: str, figure: str, key: str, message: str):
        super().__init__(lang, figure, key, message)
        self.lang, self.figure, self.key, self.message = lang, figure, key, message


@dataclass(frozen=True)
class FigureFile:
    """One output file: figure `name` in `lang` and `layout` ("card": the social card)."""

    name: str
    lang: str
    layout: str

    @property
    def file(self) -> str:
        """Its file name in figures/."""
        if self.layout == "card":
            return f"card.{self.lang}.png"
        return f"{self.name}.{self.lang}.svg" if self.layout == "wide" else \
            f"{self.name}.{self.lang}.narrow.svg"


def load_drawing() -> None:
    """Import matplotlib and the figure modules and register the CJK font in this process, so
    that the workers forked from it later draw at once (a cold build calls it while the
    experiments run in their workers: about 0.8 s of import off the build's path)."""
    from . import figures
    from .figures import draw
    figures.load()
    draw.register_cjk_font()


def draw_job(job: FigureFile, results: Mapping[str, Any], labels: Mapping[str, Any],
             social: str) -> bytes:
    """Worker task: one file's bytes (matplotlib is imported here, in the worker). A warning
    while drawing or a text past the figure's edge (figure_fit) is a LabelError at the label
    that causes it, or else a FigureCodeError at the figure's `@figure` line. A drawing
    still going after slow.SLOW_S seconds is named at that line on stderr (slow.told_if_slow).
    Drawing code that makes a generator without a seed or writes a file (side_effects.refused:
    `fig.savefig("x.png")` wrote beside the project) is a FigureCodeError at the line that did
    it; one that draws from numpy's or Python's shared generator, at the `@figure` line."""
    from . import figures
    from .figures import draw
    from .side_effects import SideEffectError, refused, shared_generators
    from .slow import told_if_slow
    specs = figures.load()
    name = social if job.layout == "card" else job.name
    family = labels["style"]["font_family"]

    def drawn(table: Mapping[str, str]) -> tuple[bytes, Any]:
        mine = {k: v for k, v in table.items() if not k.startswith(_CARD)}
        if job.layout == "card":
            card = {k[len(_CARD):]: v for k, v in table.items() if k.startswith(_CARD)}
            return draw.card_figure(specs[name], job.lang, results, mine, card, family)
        fig = draw.draw(specs[name], results, mine, family, job.layout)
        return draw.save(fig, f"{name}.{job.lang}.{job.layout}", layout=job.layout), fig

    table = dict(labels[name])
    if job.layout == "card":
        table.update({_CARD + k: v for k, v in labels["card"].items()})
    what = f"figure '{name}' ({job.lang}, {job.layout})"
    before = shared_generators()
    try:
        author = functools.partial(_in_figure_code, specs[name].draw)
        with told_if_slow(specs[name].draw, what, "drawing", author=author), \
                refused(author) as done:
            try:
                blob, problem = figure_fit.checked(drawn, table)
                found = None if problem is None else figure_fit.culprit(drawn, table)
            except SideEffectError:
                pass        # told below, at its line (also one the figure's code caught)
        if done:
            raise _side_effect_error(specs[name].draw, what, done[0])
        if shared_generators() != before:
            raise FigureCodeError.at(specs[name].draw, (
                f"{what} draws from a shared random generator (numpy's np.random.… functions "
                "or Python's random module), whose numbers depend on what was drawn before "
                "in the worker: the figure would differ from build to build; draw from a "
                "seeded generator, rng = np.random.default_rng(a fixed number)"))
        if problem is None:
            return blob
    except FigureCodeError:
        raise
    except NotNeededError as e:       # reported by the parent at the line that read the path
        raise e.at_reader(specs[name].draw) from None
    except draw.NoPanelError:         # the figure's code, at its @figure line
        raise FigureCodeError.at(specs[name].draw, (
            f"figure '{name}' ({job.lang}, {job.layout}) draws no panel (its function makes no "
            "axes); call panels(fig, n, layout) and draw into the axes it returns")) from None
    except draw.LabelUseError as e:   # the figure's code, at the line that asked for the label
        raise FigureCodeError(*reader_line(specs[name].draw, e), str(e)) from None
    except (Exception, SystemExit) as e:    # sys.exit() too: it would end the build silently
        key = getattr(e, "label_key", "")
        if key and isinstance(e, (ValueError, KeyError, IndexError, AttributeError)):
            raise LabelError(job.lang, name, key, str(e)) from None
        if at := _module_line(specs[name].draw, e):    # the figure module's line, not ours
            raise FigureCodeError(*at, (
                f"figure '{name}' ({job.lang}, {job.layout}) stops here with "
                f"{raised_words(e)}; fix its code")) from None
        raise
    if found is None:
        raise FigureCodeError.at(specs[name].draw, f"figure '{name}' ({job.lang}, {job.layout}) "
                              f"does not draw as meant: {problem}; fix its code")
    key, fits = found
    figure = "card" if key.startswith(_CARD) else name
    raise LabelError(job.lang, figure, key.removeprefix(_CARD),
                     f"too long for its place in the {_LAYOUTS[job.layout]} ({problem}); at "
                     f"most {fits} of its {len(table[key])} characters fit: shorten it")


def _in_figure_code(drawer: Callable[..., None], filename: str) -> bool:
    """Whether `filename` is the file of `drawer` (a figure's drawing function) or of a
    figure module of sqrtdk/figures/ (not draw.py, the drawing machinery)."""
    import inspect

    from .options import PACKAGE_DIR
    path = Path(filename)
    return filename == inspect.getsourcefile(drawer) or (
        path.is_relative_to(PACKAGE_DIR / "figures") and path.name != "draw.py")


def _side_effect_error(drawer: Callable[..., None], what: str, done: Any) -> FigureCodeError:
    """The error for a side_effects.SideEffectError `done` while drawing `what`: at its line,
    or at the `@figure` line of `drawer` when no line of the figure's code made it."""
    from .side_effects import UNSEEDED
    if done.what.startswith(UNSEEDED):
        said = (f"{what} {done.what}: its numbers come from the operating system, so the "
                "figure would differ in every build; seed it, rng = np.random.default_rng(a "
                "fixed number)")
    else:
        said = (f"{what} {done.what}: the build saves each figure itself (figures/, from "
                "what the drawing function drew on `fig`); remove the call")
    if done.line:
        return FigureCodeError(done.path, done.line, said)
    return FigureCodeError.at(drawer, said)


def _module_line(drawer: Callable[..., None], error: BaseException) -> tuple[str, int] | None:
    """The file and line at which `error` was raised in the module of `drawer` (a figure's
    drawing function, code nested in it, or a helper of that module the function calls),
    when that is the last frame of the project's code in its traceback: a mistake of the
    figure's module, such as a misspelt matplotlib method, or a call matplotlib refuses.
    None for an error raised in the project's own helpers (draw.py, figure_fit.py), which
    stays a bug of ours."""
    import traceback

    from .options import PACKAGE_DIR
    module = drawer.__code__.co_filename
    ours = [(frame.f_code.co_filename, line)
            for frame, line in traceback.walk_tb(error.__traceback__)
            if frame.f_code.co_filename == module
            or Path(frame.f_code.co_filename).is_relative_to(PACKAGE_DIR)]
    return ours[-1] if ours and ours[-1][0] == module else None


_CARD = "card."             # the social card's own labels, beside its figure's
_LAYOUTS = {"wide": "figure", "narrow": "phone's figure", "card": "link-preview card"}


class FigureCodeError(Exception):
    """A drawing that goes wrong with every label short: its figure's code is at fault,
    reported at its `@figure` line by the parent (raised in a worker)."""

    def __init__(self, file: str, line: int, message: str):
        super().__init__(file, line, message)     # args as given: it is pickled back
        self.file, self.line, self.message = file, line, message

    @classmethod
    def at(cls, drawer: Callable[..., None], message: str) -> FigureCodeError:
        """The error at the `@figure` line of `drawer`, the registered function."""
        import inspect
        return cls(inspect.getsourcefile(drawer) or "", inspect.getsourcelines(drawer)[1],
                   message)


def figures_code_digest(cache: Cache | None = None) -> str:
    """Digest of the code every drawing of the stage may run, for the manifest's key: the
    figures package's files (a module added or removed changes it), the import closure of
    each of its modules (`cache.import_closure`: a figure module importing, say,
    `sqrtdk.web.numbers` is redrawn when that module changes, which the package and the
    shared modules alone would miss) and this module.

    Reading the closure parses the figure modules (~50 ms), too slow for every text edit: with
    a `cache`, the digest is kept under the digest of the whole package's code, so it is
    worked out again only after some module of the package changed."""
    from .options import PACKAGE_DIR
    whole = ""
    if cache is not None:
        parts = sorted(p.name for p in PACKAGE_DIR.iterdir()      # web/ has no __init__.py
                       if p.is_dir() and p.name != "__pycache__")
        whole = key_for("manifest", "figures code", code_digest(*parts))   # this module too
        kept = cache.get_object("manifest", whole)
        if isinstance(kept, str):
            return kept
    modules = sorted(f"sqrtdk.figures.{p.stem}" for p in (PACKAGE_DIR / "figures").glob("*.py"))
    made = digest(code_digest("figures"), closure_digest(*modules, extra=[Path(__file__)]))
    if cache is not None:
        cache.put_object("manifest", whole, made)
    return made


class FigureStage:
    """Draws the figures of one build (see the module docstring)."""

    def __init__(self, opts: BuildOptions, cache: Cache, inputs: Inputs):
        self.opts, self.cache, self.inputs = opts, cache, inputs

    def run(self, results: Mapping[str, Any], data: bytes) -> DrawnFigures:
        """Every figure file in figures_dir, from the cache or drawn."""
        settings = self.inputs.settings
        fonts = self._fonts()
        key = key_for("manifest", figures_code_digest(self.cache), fonts,
                      json.dumps(self.inputs.labels, sort_keys=True), data,
                      json.dumps(results.get(SWEEP, {}), sort_keys=True),   # figures may need it
                      settings.social_figure, repr(settings.languages), packages=FIGURE_PACKAGES)
        manifest = self.cache.get_object("manifest", key)
        out = DrawnFigures()
        if isinstance(manifest, dict) and self._restore(manifest, out):
            replay(manifest["warnings"])
            return out
        with captured() as messages:
            manifest = self._draw(results, fonts, out)
        manifest["warnings"] = list(messages)
        self.cache.put_object("manifest", key, manifest)
        return out

    def _restore(self, manifest: dict[str, Any], out: DrawnFigures) -> bool:
        """Put every file of a cached figure set in place; a file already holding the right
        bytes (its SHA-256 as recorded) is left alone and its cache entry is not read."""
        for file, (entry, size, sha) in manifest["files"].items():
            path = self.opts.figures_dir / file
            try:
                current = hashlib.sha256(path.read_bytes()).hexdigest()
            except OSError:
                current = ""
            if current == sha:
                out.files[file] = path
                out.sizes[file] = (int(size[0]), int(size[1]))
                self.cache.keep("figures", entry)     # the drawing a deleted file comes back from
                continue
            svg = self.cache.get("figures", entry)
            if svg is None:
                return False
            self._write(file, svg, size, out)
        out.names, out.needs = list(manifest["names"]), list(manifest["needs"])
        self._remove_stale(out)
        return True

    def _fonts(self) -> str:
        """fonts.fonts_digest, each file's digest remembered in the cache by its size, mtime
        and inode (hashing the 24 MB of fonts anew would cost every build 0.1–0.2 s)."""
        from .figure_fonts import fonts_digest
        memo = self.cache.get_object("manifest", "font-digests")
        memo = dict(memo) if isinstance(memo, dict) else {}
        before = dict(memo)
        found = fonts_digest(memo)
        if memo != before:
            self.cache.put_object("manifest", "font-digests", memo)
        return found

    def _draw(self, results: Mapping[str, Any], fonts: str, out: DrawnFigures) -> dict[str, Any]:
        from . import figures
        specs = figures.load()
        settings = self.inputs.settings
        mistakes = Mistakes()       # each figures.toml's first mistake, all together
        validate_every_language((self.inputs.label_files[lang] for lang in settings.languages),
                                specs, mistakes, then=check_fonts)
        if settings.social_figure not in specs:
            mistakes.add(BuildError(settings.path, settings.lines.get("social_figure", 0),
                                    f"social_figure '{settings.social_figure}' is not a "
                                    "figure; " + suggest(settings.social_figure, specs,
                                                         "figures")))
        mistakes.raise_any()
        jobs = [FigureFile(name, lang, layout) for lang in settings.languages for name in specs
                for layout in ("wide", "narrow")]
        jobs += [FigureFile(settings.social_figure, lang, "card") for lang in settings.languages]
        codes = {name: module_code(spec.draw.__module__, fonts) for name, spec in specs.items()}
        keys = self._keys(jobs, specs, results, codes)
        drawings = {key: self.cache.get("figures", key) for key in keys.values()}
        missing: dict[str, FigureFile] = {}      # one drawing per key, by its first job
        for job, key in keys.items():
            if drawings[key] is None:
                missing.setdefault(key, job)
        if missing:
            drawings.update(self._draw_missing(missing, results))
        files = {}
        for job in jobs:
            blob = drawings[keys[job]] or b""
            size = CARD_PX if job.layout == "card" else svg_size(blob)
            self._write(job.file, blob, size, out)
            files[job.file] = (keys[job], size, hashlib.sha256(blob).hexdigest())
        out.names, out.drawn = list(specs), len(missing)
        out.needs = sorted({need for spec in specs.values() for need in spec.needs})
        self._remove_stale(out)
        return {"files": files, "names": out.names, "needs": out.needs}

    def _draw_missing(self, missing: Mapping[str, FigureFile], results: Mapping[str, Any]
                      ) -> dict[str, bytes]:
        """Draw each job of `missing` (cache key -> job) in the workers; each drawing is put
        in the cache under its key. A label str.format refuses is a BuildError at its line."""
        from .workers import Pool
        social, drawn = self.inputs.settings.social_figure, {}
        with Pool(self.opts.jobs) as pool:
            futures = {key: pool.submit(draw_job, job, results, self.inputs.labels[job.lang],
                                        social) for key, job in missing.items()}
            for key, future in futures.items():
                try:
                    drawn[key] = future.result()
                except LabelError as e:
                    toml = self.inputs.label_files[e.lang]
                    raise BuildError(toml.path, toml.line_of(e.figure, e.key),
                                     f"[{e.figure}] {e.key}: {e.message}") from None
                except FigureCodeError as e:
                    raise BuildError(e.file, e.line, e.message) from None
                except NotNeededError as e:
                    job = missing[key]
                    name = social if job.layout == "card" else job.name
                    raise BuildError(e.file, e.line, e.message(name, f"figure '{name}'")
                                     ) from None
                self.cache.put("figures", key, drawn[key])
        return drawn

    def _keys(self, jobs: list[FigureFile], specs: Mapping[str, Registration],
              results: Mapping[str, Any], codes: Mapping[str, str]) -> dict[FigureFile, str]:
        """Each job's cache key: what its drawing is made of (the code, the results it
        needs, its labels' text, name and layout) and the first language whose labels give
        the same drawing (that language names the SVG's ids, draw.save's salt). So a language
        whose labels equal an earlier one's shares that language's drawing, bytes and all,
        and a build draws it once."""
        inputs = {job: self._drawing_inputs(job, specs, results) for job in jobs}
        first: dict[tuple[str, str, str], str] = {}     # (inputs, name, layout) -> language
        keys = {}
        for job in jobs:        # in the order of the languages in site.toml
            owner = first.setdefault((inputs[job], job.name, job.layout), job.lang)
            name = self.inputs.settings.social_figure if job.layout == "card" else job.name
            keys[job] = key_for("figures", codes[name], inputs[job], job.name, owner, job.layout,
                                packages=FIGURE_PACKAGES)
        return keys

    def _drawing_inputs(self, job: FigureFile, specs: Mapping[str, Registration],
                        results: Mapping[str, Any]) -> str:
        """What job's drawing is drawn from, as JSON: the results its figure needs, its
        labels' text, the figures' style and (the card) the card's words."""
        from .figures import needed_results
        name = self.inputs.settings.social_figure if job.layout == "card" else job.name
        labels = self.inputs.labels[job.lang]
        parts = {"needs": needed_results(results, specs[name].needs), "table": labels[name],
                 "style": labels["style"], "card": labels["card"] if job.layout == "card" else {}}
        return json.dumps(parts, sort_keys=True)

    def _write(self, file: str, blob: bytes, size: tuple[int, int], out: DrawnFigures) -> None:
        path = self.opts.figures_dir / file
        write_if_changed(path, blob)
        out.files[file] = path
        out.sizes[file] = (int(size[0]), int(size[1]))

    def _remove_stale(self, out: DrawnFigures) -> None:
        for stale in list(self.opts.figures_dir.glob("*.svg")) + \
                list(self.opts.figures_dir.glob("*.png")):
            if stale.name not in out.files:
                stale.unlink()


def module_code(module: str, fonts: str) -> str:
    """The code key of the figures registered in `module` (a dotted name in this package):
    the bytes of its import closure with draw.py's (the figures package and figure_fonts.py
    among them), of this module (the worker's side of drawing) and `fonts` (fonts_digest)."""
    return digest(closure_digest(module, "sqrtdk.figures.draw", extra=[Path(__file__)]), fonts)


def svg_size(svg: bytes) -> tuple[int, int]:
    """(width, height) in CSS pixels from the root <svg> element (pt or px units)."""
    import io
    for _, el in etree.iterparse(io.BytesIO(svg), events=("start",)):  # noqa: S314 - ours
        def px(value: str) -> int:
            number = float(value.rstrip("ptx"))
            return round(number * (4 / 3 if value.endswith("pt") else 1))
        return px(el.get("width", "0")), px(el.get("height", "0"))
    raise ValueError("not an SVG")


