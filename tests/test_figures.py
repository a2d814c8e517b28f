"""The figures: every registered figure in every language and layout, drawn as text,
readable on a phone, byte-identical on rebuild. Most checks read the SVGs of the session's
build (conftest's `site_build`); the rest draw one figure."""
from __future__ import annotations

import functools
import json
import logging
import re
import threading
import tomllib
import warnings
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import matplotlib as mpl
import pytest

from sqrtdk import figures
from sqrtdk.figures import draw
from sqrtdk.options import PACKAGE_DIR, PROJECT_ROOT

# reads the author's files: runs again on the author's copy. It reads the labels and figure
# modules from the project's folders, so on the copy it runs in the copy's own pytest run
# (tests/test_author_copy.py)
pytestmark = [pytest.mark.author, pytest.mark.author_own_run]

SVG = "{http://www.w3.org/2000/svg}"
CJK = re.compile("[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
SPECS = figures.load()
PHONE_COLUMN = 328          # CSS px: a 360 px phone minus 1 rem on each side
DESKTOP_COLUMN = 640        # CSS px: the 40 rem column
_FONT = re.compile(r"font(?:-size)?:\s*(?:[\w-]+\s+)*?([\d.]+)px")


def texts(svg: Path) -> list[tuple[str, float]]:
    """(text, font size in SVG user units) of every <text>; parsing proves it is valid XML."""
    root = ET.parse(svg).getroot()
    out = []
    for el in root.iter(f"{SVG}text"):
        m = _FONT.search(el.get("style", ""))
        assert m, el.get("style")
        out.append(("".join(el.itertext()), float(m.group(1))))
    return out


def view_width(svg: Path) -> float:
    return float(ET.parse(svg).getroot().get("viewBox", "0 0 0 0").split()[2])


def labels(lang: str) -> dict[str, Any]:
    return tomllib.loads((PACKAGE_DIR.parent / "content" / lang / "figures.toml")
                         .read_text(encoding="utf-8"))


def files(site_build: dict[str, Any]) -> list[tuple[str, str, str, Path]]:
    folder = site_build["root"] / "figures"
    out = []
    for lang in site_build["languages"]:
        for name in SPECS:
            out.append((name, lang, "wide", folder / f"{name}.{lang}.svg"))
            out.append((name, lang, "narrow", folder / f"{name}.{lang}.narrow.svg"))
    return out


def test_every_figure_in_every_language_and_layout_is_text(site_build: dict[str, Any]) -> None:
    for name, lang, layout, path in files(site_build):
        found = texts(path)
        assert found, f"{path.name}: svg.fonttype none must leave <text> elements"
        joined = "\n".join(t for t, _ in found)
        # a title too wide for its figure is wrapped onto more lines (draw.fit_titles), so
        # compare with every space and line break taken out
        bare = "".join(joined.split())
        for key, fields in SPECS[name].labels.items():
            text = labels(lang)[name][key]
            if not fields:
                for line in text.splitlines():
                    assert "".join(line.split()) in bare, \
                        f"{path.name}: label {key} ({line!r}) missing"
        # Chinese in the figure exactly when its labels have Chinese (never from elsewhere)
        words = "".join(v for v in labels(lang)[name].values() if isinstance(v, str))
        assert bool(CJK.search(joined)) == bool(CJK.search(words)), path.name
        assert path.stat().st_size < 90_000, path.name


def test_phone_figures_have_text_of_at_least_11_css_px_at_360_px(
        site_build: dict[str, Any]) -> None:
    for name, lang, layout, path in files(site_build):
        scale = (PHONE_COLUMN if layout == "narrow" else DESKTOP_COLUMN) / view_width(path)
        px = min(size for _, size in texts(path)) * scale
        assert px >= (11 if layout == "narrow" else 10.5), (path.name, round(px, 2))


def test_drawing_twice_gives_identical_bytes_without_dates_or_versions() -> None:
    import json
    results = json.loads((PACKAGE_DIR.parent / "figures" / "results.json").read_text("utf-8"))
    table = labels("zh")
    for name in list(SPECS)[:2]:
        for layout in figures.LAYOUTS:
            a = draw.render(SPECS[name], "zh", layout, results, table[name],
                            table["style"]["font_family"])
            b = draw.render(SPECS[name], "zh", layout, results, table[name],
                            table["style"]["font_family"])
            assert a == b and b"<dc:date>" not in a and mpl.__version__.encode() not in a


def test_drawing_emits_no_warning(caplog: pytest.LogCaptureFixture) -> None:
    import json
    results = json.loads((PACKAGE_DIR.parent / "figures" / "results.json").read_text("utf-8"))
    table = labels("zh")
    name = next(iter(SPECS))
    with warnings.catch_warnings(), caplog.at_level(logging.WARNING, logger="matplotlib"):
        warnings.simplefilter("error")   # e.g. "Glyph 28857 missing from font(s) DejaVu Sans"
        draw.render(SPECS[name], "zh", "narrow", results, table[name], table["style"]["font_family"])
    assert [r.getMessage() for r in caplog.records] == []


def test_chinese_without_the_cjk_font_is_caught() -> None:
    """The guard above is live: Chinese labels with only DejaVu Sans warn about glyphs."""
    import json
    results = json.loads((PACKAGE_DIR.parent / "figures" / "results.json").read_text("utf-8"))
    table = labels("zh")
    # a figure whose Chinese labels have Chinese in them (an author's new figure may not)
    name = next(n for n in SPECS
                if CJK.search("".join(v for v in table[n].values() if isinstance(v, str))))
    with warnings.catch_warnings(), pytest.raises(UserWarning, match="missing from font"):
        warnings.simplefilter("error")
        draw.render(SPECS[name], "zh", "wide", results, table[name], ["DejaVu Sans", "sans-serif"])


def test_a_drawer_can_only_use_the_labels_it_registers() -> None:
    spec = next(iter(SPECS.values()))
    t = draw.Labels(dict.fromkeys(spec.labels, "x"), spec)
    with pytest.raises(TypeError, match="register"):
        t("not_a_label")


def test_a_drawer_reads_only_the_results_it_registers() -> None:
    view = figures.needed_results({"a": {"b": 1, "c": 2}, "d": 3}, ("a.b",))
    assert view == {"a": {"b": 1}}
    with pytest.raises(KeyError):
        figures.needed_results({"a": {}}, ("a.b",))


def _drawing_keys(results: dict[str, Any], tables: dict[str, dict[str, Any]],
                  social: str) -> dict[tuple[str, str, str], str]:
    """The figure stage's cache key of every drawing (figure, language, layout) for the
    languages `tables` (lang -> figures.toml data, in site.toml's order)."""
    from types import SimpleNamespace

    from sqrtdk.cache import Cache
    from sqrtdk.figures_stage import FigureFile, FigureStage
    from sqrtdk.options import BuildOptions
    settings = SimpleNamespace(languages=tuple(tables), social_figure=social)
    inputs: Any = SimpleNamespace(settings=settings, labels=tables)
    stage = FigureStage(BuildOptions.for_project(cache_dir=None), Cache(None), inputs)
    jobs = [FigureFile(name, lang, layout) for lang in tables for name in SPECS
            for layout in figures.LAYOUTS]
    jobs += [FigureFile(social, lang, "card") for lang in tables]
    keys = stage._keys(jobs, SPECS, results, dict.fromkeys(SPECS, "code"))
    return {(j.name, j.lang, j.layout): k for j, k in keys.items()}


def test_a_language_whose_labels_equal_another_s_shares_its_drawings(
        site_build: dict[str, Any]) -> None:
    """Each drawing is keyed on what it is drawn from and the first language with the same
    labels (whose name salts the SVG ids): a copy of English's labels gets English's
    drawings; one label changed gives that figure alone drawings of its own."""
    import copy
    social = next(iter(SPECS))
    results = site_build["results"]     # the built results.json (no experiment run again)
    tables = {"zh": labels("zh"), "en": labels("en"), "fr": copy.deepcopy(labels("en"))}
    keys = _drawing_keys(results, tables, social)
    drawings = {(n, layout) for n, _, layout in keys}
    assert all(keys[n, "fr", layout] == keys[n, "en", layout] for n, layout in drawings)
    assert all(keys[n, "zh", layout] != keys[n, "en", layout] for n, layout in drawings)
    name = next(n for n in SPECS if n != social)
    label = next(iter(tables["fr"][name]))
    tables["fr"][name][label] += " (fr)"
    changed = _drawing_keys(results, tables, social)
    assert all(changed[k] == keys[k] for k in keys if k[1] != "fr")   # the others' stay
    differ = sorted((n, layout) for n, lang, layout in keys
                    if lang == "fr" and changed[n, lang, layout] != keys[n, "en", layout])
    assert differ == [(name, layout) for layout in sorted(figures.LAYOUTS)]


def test_the_social_cards_are_1200_by_630_png(site_build: dict[str, Any]) -> None:
    for lang in site_build["languages"]:
        png = (site_build["root"] / "figures" / f"card.{lang}.png").read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        assert (int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")) == (1200, 630)
        assert b"Software" not in png and b"matplotlib" not in png.lower()


def test_no_chinese_in_python_files() -> None:
    for path in PACKAGE_DIR.rglob("*.py"):
        assert not CJK.search(path.read_text(encoding="utf-8")), path


def test_a_font_family_that_is_not_installed_is_one_warning_at_its_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """One warning at the font_family line, and matplotlib's own 'findfont' line per drawn
    text (thousands of lines in a build) stays quiet."""
    import json

    from sqrtdk.figure_labels import check_fonts
    from sqrtdk.textfiles import load_toml
    text = (PACKAGE_DIR.parent / "content" / "en" / "figures.toml").read_text("utf-8")
    path = tmp_path / "figures.toml"
    path.write_text(re.sub(r"^font_family = \[", 'font_family = ["No Such Face", ', text,
                           count=1, flags=re.M), encoding="utf-8")
    toml = load_toml(path)
    results = json.loads((PACKAGE_DIR.parent / "figures" / "results.json").read_text("utf-8"))
    name = next(iter(SPECS))
    with caplog.at_level(logging.WARNING):
        check_fonts(toml)
        draw.render(SPECS[name], "en", "wide", results, toml.data[name],
                    toml.data["style"]["font_family"])
    messages = [r.getMessage() for r in caplog.records]
    assert len(messages) == 1, messages[:3]
    assert f":{toml.line_of('style', 'font_family')}: warning:" in messages[0]
    assert "'No Such Face'" in messages[0]


_FRESH_DRAW = """
import json, sys
from pathlib import Path
from matplotlib import font_manager
from sqrtdk import figures
from sqrtdk.figures import draw
system = sorted({f.fname for f in font_manager.fontManager.ttflist if "CJK" in f.name})
root, lang, names = Path(sys.argv[1]), sys.argv[2], sys.argv[3].split(",")
import tomllib
table = tomllib.loads((root / "content" / lang / "figures.toml").read_text("utf-8"))
results = json.loads((root / "figures" / "results.json").read_text("utf-8"))
specs = figures.load()
differ = []
for name in names:
    for layout in figures.LAYOUTS:
        svg = draw.render(specs[name], lang, layout, results, table[name],
                          table["style"]["font_family"])
        file = f"{name}.{lang}.svg" if layout == "wide" else f"{name}.{lang}.narrow.svg"
        if svg != (root / "figures" / file).read_bytes():
            differ.append(file)
print(json.dumps({"system_cjk": system, "differ": differ}))
"""


def test_figures_are_the_committed_bytes_whatever_fonts_the_machine_has(tmp_path: Path) -> None:
    """A fresh matplotlib (empty MPLCONFIGDIR: it lists the machine's fonts anew, Debian's
    fonts-noto-cjk included when installed, as on CI) draws the Chinese figures of one module
    byte for byte as committed in figures/: the build uses only the font files it ships."""
    import json
    import os
    import subprocess
    import sys
    table = labels("zh")
    name = next(n for n in SPECS
                if CJK.search("".join(v for v in table[n].values() if isinstance(v, str))))
    env = {**os.environ, "MPLCONFIGDIR": str(tmp_path / "mpl"), "HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", _FRESH_DRAW, str(PACKAGE_DIR.parent), "zh", name],
                          env=env, cwd=PACKAGE_DIR.parent, capture_output=True, text=True,
                          check=True, timeout=600)
    report = json.loads(done.stdout.splitlines()[-1])
    assert report["differ"] == [], "drawn differently from figures/ (run build.py and commit?)"
    if not report["system_cjk"] and not os.environ.get("CI"):
        pytest.skip("no system CJK font installed: the check above could not tell")
    assert report["system_cjk"], "CI installs fonts-noto-cjk: matplotlib should list it"


def test_a_table_of_scales_lists_the_scales_its_chart_shows() -> None:
    """A figure's table whose rows are scales (first header `scale_label`) lists those the
    chart's scale axis shows, from its first tick to its last, one per doubling: a reader
    took a table starting two doublings before the axis for a second, different sample."""
    import json
    import math

    from sqrtdk.web.fig_tables import TABLES
    results = json.loads((PACKAGE_DIR.parent / "figures" / "results.json").read_text("utf-8"))
    table = labels("en")
    checked = 0
    for name, tables_of in TABLES.items():
        rows = [t.rows for t in tables_of(figures.needed_results(results, SPECS[name].needs))
                if t.headers[0] == "scale_label"]
        if not rows:
            continue
        fig = draw.draw(SPECS[name], results, table[name], table["style"]["font_family"],
                        figures.WIDE)
        for ax in fig.axes:
            if ax.get_xscale() != "log" or not ax.get_xticks().size:
                continue
            ticks = [v for v in ax.get_xticks() if ax.get_xlim()[0] <= v <= ax.get_xlim()[1]]
            for shown in rows:
                scales = [row[0][0] for row in shown]
                assert math.isclose(scales[0], min(ticks), rel_tol=1e-6), (name, scales, ticks)
                assert math.isclose(scales[-1], max(ticks), rel_tol=1e-6), (name, scales, ticks)
                assert all(math.isclose(b / a, 2, rel_tol=1e-6)
                           for a, b in zip(scales, scales[1:])), (name, scales)
                checked += 1
    assert checked       # some figure has a table of scales


def test_a_figure_without_a_table_of_its_numbers_is_warned_at_the_line_showing_it(
        caplog: pytest.LogCaptureFixture) -> None:
    """README's "Add a figure", step 4: a figure no `@table` is registered for is published
    without its numbers; the build says so at the line of the article that shows it, and
    says nothing about a figure that has one."""
    from types import SimpleNamespace

    from sqrtdk.web.checks import check_figure_tables
    from sqrtdk.web.fig_tables import TABLES
    has_one = next(iter(TABLES))
    conversion = SimpleNamespace(figures=[has_one, "no_table_here"],
                                 lines=SimpleNamespace(figures=[12, 34]))
    pages: Any = [SimpleNamespace(source=Path("content/xx/index.md"), conversion=conversion)]
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        check_figure_tables(pages)
    warned = [r.getMessage() for r in caplog.records]
    assert len(warned) == 1, warned
    assert warned[0].startswith(str(Path("content/xx/index.md")) + ":34: warning: ") and \
        "'no_table_here'" in warned[0] and '@table("no_table_here")' in warned[0], warned


def test_a_figure_without_a_table_is_warned_in_each_article_at_its_own_line(
        caplog: pytest.LogCaptureFixture) -> None:
    """The warning named the first language's file alone, at its line, though the second
    shows the figure at a line of its own (and a figure only the second shows was not told
    at all): each article that shows it is told at its own line."""
    from types import SimpleNamespace

    from sqrtdk.web.checks import check_figure_tables

    def shown(lang: str, figures: list[str], lines: list[int]) -> Any:
        return SimpleNamespace(source=Path(f"content/{lang}/index.md"), conversion=SimpleNamespace(
            figures=figures, lines=SimpleNamespace(figures=lines)))
    pages: Any = [shown("xx", ["no_table_here"], [12]),
                  shown("yy", ["only_yy_shows", "no_table_here"], [7, 20])]
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        check_figure_tables(pages)
    told = sorted((r.getMessage().split(": warning: ")[0], r.getMessage().split("'")[1])
                  for r in caplog.records)
    assert told == [(str(Path("content/xx/index.md")) + ":12", "no_table_here"),
                    (str(Path("content/yy/index.md")) + ":20", "no_table_here"),
                    (str(Path("content/yy/index.md")) + ":7", "only_yy_shows")], told


def _labels_with(tmp_path: Path, lang: str, family: str, label: str | None = None) -> Any:
    """A copy of `lang`'s figures.toml with font_family = `family` and, when given, the
    first figure's first label replaced by `label`; its TomlFile and that label's line."""
    from sqrtdk.textfiles import load_toml
    text = (PACKAGE_DIR.parent / "content" / lang / "figures.toml").read_text("utf-8")
    text = re.sub(r"^font_family = .*$", f"font_family = {family}", text, count=1, flags=re.M)
    path = tmp_path / "figures.toml"
    path.write_text(text, encoding="utf-8")
    name = next(iter(SPECS))
    key = next(iter(SPECS[name].labels))
    line = load_toml(path).line_of(name, key)
    if label is not None:
        lines = text.split("\n")
        lines[line - 1] = f'{key} = "{label}"'
        path.write_text("\n".join(lines), encoding="utf-8")
    return load_toml(path), name, key, line


def test_a_character_no_listed_font_has_is_an_error_at_its_label(tmp_path: Path) -> None:
    """Chinese labels with font_family = ["DejaVu Sans"] were drawn as boxes in the card's
    PNG, with build exit 0 and hundreds of matplotlib warnings in the terminal."""
    from sqrtdk.errors import BuildError
    from sqrtdk.figure_labels import check_fonts
    toml, name, key, line = _labels_with(tmp_path, "en", '["DejaVu Sans"]',
                                         "\\u4e2d\\u6587 label")
    with pytest.raises(BuildError) as e:
        check_fonts(toml)
    assert e.value.line == line and "'\u4e2d' (U+4E2D) is in none of the fonts" in e.value.message
    assert f"[{name}] {key}" in e.value.message


@pytest.mark.parametrize("family", ["[]", '[""]'])
def test_an_empty_font_family_is_an_error_at_its_line(tmp_path: Path, family: str) -> None:
    """font_family = [] drew every figure in matplotlib's default font, silently."""
    from sqrtdk.errors import BuildError
    from sqrtdk.figure_labels import validate_labels
    toml, *_ = _labels_with(tmp_path, "en", family)
    with pytest.raises(BuildError) as e:
        validate_labels(toml, SPECS)
    assert e.value.line == toml.line_of("style", "font_family")
    assert "a list of font names" in e.value.message


def test_the_project_labels_have_every_character_in_their_fonts() -> None:
    from sqrtdk.figure_labels import check_fonts
    from sqrtdk.textfiles import load_toml
    for folder in (PACKAGE_DIR.parent / "content").iterdir():
        if (folder / "figures.toml").is_file():
            check_fonts(load_toml(folder / "figures.toml"))


def _results() -> dict[str, Any]:
    import json
    return json.loads((PACKAGE_DIR.parent / "figures" / "results.json").read_text("utf-8"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_project_figures_draw_with_no_warning_squeeze_or_cut_text(lang: str) -> None:
    """The checks below (figure_fit) find nothing in the figures as their labels are (each
    figure drawn and saved once for this test and the key tests below: `_drawings`)."""
    drawn = [(name, layout, problem) for name, in_lang, layout, _, problem in _drawings()
             if in_lang == lang]
    assert len(drawn) == len(SPECS) * len(figures.LAYOUTS), drawn
    for name, layout, problem in drawn:
        assert problem is None, (name, layout, problem)


def _text_label(lang: str) -> tuple[str, str]:
    """(figure, label) of the first figure's first label that has no fields."""
    name, spec = next(iter(SPECS.items()))
    return name, next(k for k, fields in spec.labels.items() if not fields)


@pytest.mark.parametrize("layout", ["wide", "narrow", "card"])
def test_a_label_too_long_for_its_figure_is_an_error_at_it_saying_how_long_it_may_be(
        layout: str) -> None:
    """A 2 000-character label collapsed the figure's axes (matplotlib's UserWarning printed
    raw in the terminal) or ran past its edge, cut off, and the build exited 0. Now the
    drawing names the label and how many of its characters fit."""
    from sqrtdk.figures_stage import FigureFile, LabelError, draw_job
    name, key = _text_label("en")
    table = labels("en")
    figure = "card" if layout == "card" else name
    if layout == "card":
        key = "subtitle"
    table[figure] = {**table[figure], key: "long words " * 200}
    with warnings.catch_warnings():
        warnings.simplefilter("error")       # nothing reaches the terminal
        with pytest.raises(LabelError) as e:
            draw_job(FigureFile(name, "en", layout), _results(), table, name)
    assert (e.value.figure, e.value.key) == (figure, key), e.value
    m = re.search(r"at most (\d+) of its (\d+) characters fit", e.value.message)
    assert m and 0 < int(m.group(1)) < int(m.group(2)) == 2200, e.value.message


def _drawn_in_place_of_the_first(monkeypatch: pytest.MonkeyPatch, drawer: Any) -> Exception:
    """What drawing `drawer`, registered in place of the first figure (its name, results and
    labels), raised (English, wide); fails when it raised nothing."""
    from sqrtdk.figures_stage import FigureFile, draw_job
    name, spec = next(iter(SPECS.items()))
    monkeypatch.setitem(figures.FIGURES, name, figures.Registration(
        name, drawer, spec.needs, spec.labels))
    with pytest.raises(Exception) as raised:
        draw_job(FigureFile(name, "en", "wide"), _results(), labels("en"), name)
    return raised.value


@pytest.mark.parametrize("layout", ["wide", "card"])
def test_a_figure_that_draws_no_panel_says_so_at_its_line(monkeypatch: pytest.MonkeyPatch,
                                                          layout: str) -> None:
    """A drawing function without a panels(…) call was told at its line in matplotlib's
    words ('There are no gridspecs with layoutgrids'); it says what is wrong and what to
    call (the social card's drawing too)."""
    import inspect

    from sqrtdk.figures_stage import FigureCodeError, FigureFile, draw_job
    name, spec = next(iter(SPECS.items()))

    def empty(fig: Any, results: Any, words: Any, layout: str) -> None:
        """Draws nothing."""
    monkeypatch.setitem(figures.FIGURES, name, figures.Registration(
        name, empty, spec.needs, spec.labels))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(FigureCodeError) as e:
            draw_job(FigureFile(name, "en", layout), _results(), labels("en"), name)
    assert e.value.line == inspect.getsourcelines(empty)[1], e.value
    assert "draws no panel" in e.value.message and "panels(fig, n, layout)" in e.value.message
    assert "gridspec" not in e.value.message, e.value


def _saves_itself(fig: Any, results: Any, words: Any, layout: str) -> None:
    fig.add_subplot().plot([0, 1])
    fig.savefig("mine.png")


def _jitters_unseeded(fig: Any, results: Any, words: Any, layout: str) -> None:
    import numpy as np
    fig.add_subplot().plot(np.random.default_rng().standard_normal(3))


def _jitters_shared(fig: Any, results: Any, words: Any, layout: str) -> None:
    import numpy as np
    fig.add_subplot().plot(np.random.standard_normal(3))


@pytest.mark.parametrize(("drawer", "offset", "said"), [
    (_saves_itself, 2, "writes the file 'mine.png'"),
    (_jitters_unseeded, 2, "made without a seed (numpy's default_rng()"),
    (_jitters_shared, 0, "draws from a shared random generator"),
])
def test_a_drawing_that_saves_a_file_or_draws_unseeded_is_an_error_at_the_line(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, drawer: Any, offset: int,
        said: str) -> None:
    """`fig.savefig("x.png")` in a figure's drawing code wrote a file beside the project,
    silently; a drawing jittered with a generator without a seed (or numpy's shared one)
    differed from build to build. Each is an error at the line that does it (the shared
    generator's at the @figure line: nothing tells where it was drawn from), nothing is
    written."""
    import inspect

    from sqrtdk.figures_stage import FigureCodeError
    monkeypatch.chdir(tmp_path)
    error = _drawn_in_place_of_the_first(monkeypatch, drawer)
    assert isinstance(error, FigureCodeError), error
    assert (Path(error.file).name, error.line) == \
        (Path(__file__).name, inspect.getsourcelines(drawer)[1] + offset), error
    assert said in error.message, error.message
    assert list(tmp_path.iterdir()) == []


_TOLD = threading.Event()


def test_a_figure_still_drawing_is_named_at_its_line_once_it_draws_long(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An endless loop in a figure's drawing code hung the build with no word. A drawing
    still going after slow.SLOW_S seconds (here tiny) is named in one line at its @figure
    line, with the line it has reached; the drawing goes on and ends as it would."""
    import inspect

    from sqrtdk import slow
    from sqrtdk.errors import display_path
    from sqrtdk.figures_stage import FigureFile, draw_job
    name, spec = next(iter(SPECS.items()))
    said: list[str] = []

    def say(line: str) -> None:
        said.append(line)
        _TOLD.set()

    def slow_drawer(fig: Any, results: Any, words: Any, layout: str) -> None:
        """Waits to be told, then draws as the first figure does."""
        _TOLD.wait(timeout=60)    # a guard against a hang, not a measured time
        spec.draw(fig, results, words, layout)
    _TOLD.clear()
    monkeypatch.setattr(slow, "SLOW_S", 0.01)
    monkeypatch.setattr(slow, "_say", say)
    monkeypatch.setitem(figures.FIGURES, name, figures.Registration(
        name, slow_drawer, spec.needs, spec.labels))
    assert draw_job(FigureFile(name, "en", "wide"), _results(), labels("en"), name)
    first = inspect.getsourcelines(slow_drawer)[1]
    assert len(said) == 1, said
    assert said[0].startswith(f"{display_path(__file__)}:{first}: figure '{name}' (en, wide) "
                              "still drawing after 0.01 s"), said


def test_a_warning_no_label_causes_is_an_error_at_the_figure_s_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A warning the figure's code raises whatever its labels is reported at its @figure
    line, not printed raw."""
    import inspect

    from sqrtdk.figures_stage import FigureCodeError
    spec = next(iter(SPECS.values()))

    def noisy(fig: Any, results: Any, words: Any, layout: str) -> None:
        warnings.warn("invalid value encountered in divide", RuntimeWarning, stacklevel=1)
        spec.draw(fig, results, words, layout)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        e = _drawn_in_place_of_the_first(monkeypatch, noisy)
    assert isinstance(e, FigureCodeError), e
    assert e.line == inspect.getsourcelines(noisy)[1], e
    assert "RuntimeWarning: invalid value encountered in divide" in e.message


def test_a_label_the_drawer_does_not_register_is_an_error_at_the_line_asking_for_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A drawer asking for a label its @figure does not register (a misspelt key), or with
    other fields, stopped the build as 'a bug in the build, not in your files' with a
    traceback: it is the figure author's code, told at the line of the call, with the label
    it meant."""
    import inspect

    from sqrtdk.figures_stage import FigureCodeError
    spec = next(iter(SPECS.values()))
    key, fields = next(iter(spec.labels.items()))
    misspelt = key[:-1] + key[-1] * 2

    def misspelling(fig: Any, results: Any, words: Any, layout: str) -> None:
        words(misspelt)

    def other_fields(fig: Any, results: Any, words: Any, layout: str) -> None:
        words(key, **dict.fromkeys((*fields, "extra_field"), 1))

    for drawer, told in ((misspelling, f"did you mean '{key}'?"),
                         (other_fields, "'extra_field'")):
        e = _drawn_in_place_of_the_first(monkeypatch, drawer)
        assert isinstance(e, FigureCodeError), e
        assert (e.file, e.line) == (__file__, inspect.getsourcelines(drawer)[1] + 1), e
        assert told in e.message and "register" in e.message, e.message


def test_a_python_mistake_in_a_figure_module_is_an_error_at_its_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A misspelt matplotlib method or a call matplotlib refuses in a figure's drawing
    function stopped the build with a traceback and, under --serve, 'a bug in the build, not
    in your files' (author12): it is an error at the figure module's line, with what Python
    said. An error raised inside the project's own helpers stays a bug (a traceback)."""
    import inspect

    from sqrtdk.figures_stage import FigureCodeError
    name = next(iter(SPECS))

    def misspelt(fig: Any, results: Any, words: Any, layout: str) -> None:
        (ax,) = draw.panels(fig, 1, layout)
        ax.set_xscal("log")

    def refused(fig: Any, results: Any, words: Any, layout: str) -> None:
        (ax,) = draw.panels(fig, 1, layout)
        ax.plot([1, 2], [1, 2], linestyle="wavy")

    def in_our_helper(fig: Any, results: Any, words: Any, layout: str) -> None:
        draw.panels(fig, "one", layout)

    for drawer, says in ((misspelt, "AttributeError"), (refused, "ValueError")):
        e = _drawn_in_place_of_the_first(monkeypatch, drawer)
        assert isinstance(e, FigureCodeError), e
        assert (e.file, e.line) == (__file__, inspect.getsourcelines(drawer)[1] + 2), e
        assert says in e.message and name in e.message, e.message
    ours = _drawn_in_place_of_the_first(monkeypatch, in_our_helper)
    assert not isinstance(ours, FigureCodeError), ours


def test_sys_exit_in_a_figure_module_is_an_error_at_its_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`sys.exit()` in a figure's drawing function (a script's habit) is a SystemExit, which
    is not an Exception: it went past every check to the build's top and ended the build
    with no word, exit status 0 for `sys.exit(0)`, the site not written (a mutation pass).
    It is an error at its line like any other mistake of the figure's code."""
    import inspect
    import sys as system

    from sqrtdk.figures_stage import FigureCodeError

    def exits(fig: Any, results: Any, words: Any, layout: str) -> None:
        draw.panels(fig, 1, layout)
        system.exit(0)

    name, spec = next(iter(SPECS.items()))
    monkeypatch.setitem(figures.FIGURES, name, figures.Registration(
        name, exits, spec.needs, spec.labels))
    from sqrtdk.figures_stage import FigureFile, draw_job
    with pytest.raises(BaseException) as raised:
        draw_job(FigureFile(name, "en", "wide"), _results(), labels("en"), name)
    e = raised.value
    assert isinstance(e, FigureCodeError), repr(e)
    assert (e.file, e.line) == (__file__, inspect.getsourcelines(exits)[1] + 2), e
    assert "sys.exit(0)" in e.message and name in e.message, e.message


def _module_helper(xs: list[float], x: float) -> int:
    """A figure module's own helper, beside its drawing functions (sheet2.py's _index)."""
    return xs.index(x)


def test_a_python_mistake_in_a_figure_module_s_helper_is_an_error_at_its_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A figure module's helper function, called by its drawing function (sheet2.py has
    one), that raised stopped the build with a traceback as 'a bug in the build': only an
    error whose last frame was inside the drawing function was the author's. It is an error
    at the helper's line, where Python raised."""
    import inspect

    from sqrtdk.figures_stage import FigureCodeError
    name = next(iter(SPECS))

    def drawer(fig: Any, results: Any, words: Any, layout: str) -> None:
        draw.panels(fig, 1, layout)
        _module_helper([1.0, 2.0], 3.0)

    e = _drawn_in_place_of_the_first(monkeypatch, drawer)
    assert isinstance(e, FigureCodeError), e
    assert (e.file, e.line) == (__file__, inspect.getsourcelines(_module_helper)[1] + 2), e
    assert "ValueError" in e.message and name in e.message, e.message


_STYLE = re.compile(r"([\w-]+)\s*:\s*([^;]+)")


def test_a_translucent_area_is_outlined(site_build: dict[str, Any]) -> None:
    """A filled area drawn faint (a band of percentiles, its swatch in the key) has an edge in
    its colour: a fill at 15 % opacity stood about 1.2:1 against the page, light and dark,
    below the 3:1 that WCAG 1.4.11 asks of a graphic the reader needs, and the key's swatch
    was hardly visible. Read from every SVG: a path whose fill has opacity under 1/2 has a
    stroke that is neither none nor faint."""
    for name, lang, layout, path in files(site_build):
        for el in ET.parse(path).getroot().iter(f"{SVG}path"):
            style = dict(_STYLE.findall(el.get("style", "")))
            if style.get("fill", "none").strip() == "none":
                continue
            faint = min(float(style.get("fill-opacity", 1)), float(style.get("opacity", 1)))
            if faint >= 0.5:
                continue
            stroke = style.get("stroke", "none").strip()
            seen = min(float(style.get("stroke-opacity", 1)), float(style.get("opacity", 1)))
            assert stroke != "none" and seen >= 0.5, (path.name, el.get("style"))


def _fig_filters() -> list[list[Any]]:
    """Every value but `none` that static/style.css gives `--fig-filter` (the dark page's
    view of a figure), as its filter functions (tinycss2 FunctionBlock tokens)."""
    import tinycss2
    sheet = (PACKAGE_DIR.parent / "static" / "style.css").read_text(encoding="utf-8")
    found: list[list[Any]] = []

    def walk(tokens: Any) -> None:
        for node in tokens:
            content = getattr(node, "content", None)
            if node.type in ("qualified-rule", "at-rule") and content:
                for decl in tinycss2.parse_blocks_contents(content, skip_comments=True, skip_whitespace=True):
                    if decl.type == "declaration" and decl.name == "--fig-filter":
                        funcs = [t for t in decl.value if t.type == "function"]
                        if funcs:
                            found.append(funcs)
                walk(tinycss2.parse_blocks_contents(content, skip_comments=True, skip_whitespace=True))
    walk(tinycss2.parse_stylesheet(sheet, skip_comments=True, skip_whitespace=True))
    return found


def _filtered(rgb: tuple[float, float, float], funcs: list[Any]) -> tuple[float, float, float]:
    """`rgb` (sRGB, 0-1) through CSS filter functions, in sRGB as filter functions work
    (Filter Effects 1, section 13: invert is the transfer table [a, 1 - a], hue-rotate the
    feColorMatrix hueRotate matrix)."""
    import math
    r, g, b = rgb
    for f in funcs:
        arg = next(t for t in f.arguments if t.type in ("number", "percentage", "dimension"))
        if f.lower_name == "invert":
            a = arg.value / (100 if arg.type == "percentage" else 1)
            r, g, b = (a + c * (1 - 2 * a) for c in (r, g, b))
        elif f.lower_name == "hue-rotate":
            t = math.radians(arg.value) if arg.unit == "deg" else float(arg.value)
            cos, sin = math.cos(t), math.sin(t)
            m = ((0.213 + cos * 0.787 - sin * 0.213, 0.715 - cos * 0.715 - sin * 0.715,
                  0.072 - cos * 0.072 + sin * 0.928),
                 (0.213 - cos * 0.213 + sin * 0.143, 0.715 + cos * 0.285 + sin * 0.140,
                  0.072 - cos * 0.072 - sin * 0.283),
                 (0.213 - cos * 0.213 - sin * 0.787, 0.715 - cos * 0.715 + sin * 0.715,
                  0.072 + cos * 0.928 + sin * 0.072))
            r, g, b = (min(1.0, max(0.0, row[0] * r + row[1] * g + row[2] * b)) for row in m)
        else:
            raise AssertionError(f"--fig-filter uses {f.name}(): add its matrix to this test")
    return r, g, b


def _text_fills(svg: Path) -> list[tuple[str, str]]:
    """(text, fill) of every <text>: its own style's fill, else the nearest ancestor's, else
    SVG's initial black."""
    root = ET.parse(svg).getroot()
    out: list[tuple[str, str]] = []

    def walk(el: ET.Element, fill: str) -> None:
        style = dict(_STYLE.findall(el.get("style", "")))
        fill = style.get("fill", el.get("fill", fill)).strip()
        if el.tag == f"{SVG}text":
            out.append(("".join(el.itertext()), fill))
        for child in el:
            walk(child, fill)
    walk(root, "#000000")
    return out


def test_every_figure_text_stands_4_5_to_1_on_the_light_and_the_dark_page(
        site_build: dict[str, Any]) -> None:
    """WCAG 2.2 SC 1.4.3: figure text (all under 18 pt once shown) has 4.5:1 against the
    figure's white ground, and again on the dark page, which shows the figure through
    style.css's --fig-filter. Labels drawn in a line's colour stood 3.4:1 (green), 3.9:1
    (vermillion) and 4.0:1 (grey): now draw.text_ink's darker shade of the same hue."""
    from matplotlib.colors import to_hex, to_rgb
    filters = _fig_filters()
    assert filters, "style.css gives the dark page no --fig-filter: this test reads it"
    for name, lang, layout, path in files(site_build):
        for text, fill in _text_fills(path):
            if fill == "none" or not text.strip():
                continue
            grounds = [("light", fill, "#ffffff")] + [
                ("dark", to_hex(_filtered(to_rgb(fill), f)), to_hex(_filtered((1, 1, 1), f)))
                for f in filters]
            for page, ink, ground in grounds:
                ratio = draw.contrast(ink, ground)
                assert ratio >= 4.5, (path.name, text, fill, page, round(ratio, 2))


def test_text_ink_keeps_a_readable_colour_and_darkens_a_faint_one() -> None:
    import colorsys

    from matplotlib.colors import to_hex, to_rgb
    assert draw.text_ink("#0072B2") == "#0072B2"         # 5.2:1 already
    for faint in ("#D55E00", "#009E73", "#7F7F7F", "#E69F00", "#56B4E9"):
        ink = draw.text_ink(faint)
        assert draw.contrast(faint, "white") < 4.5 <= draw.contrast(ink, "white"), faint
        # no darker than it must be: a step (1 % of lightness, and the hex rounding) lighter
        # does not read; the hue stays
        h, light, s = colorsys.rgb_to_hls(*to_rgb(ink))
        lighter = to_hex(colorsys.hls_to_rgb(h, light + 0.012, s))
        assert draw.contrast(lighter, "white") < 4.5, faint
        assert abs(h - colorsys.rgb_to_hls(*to_rgb(faint))[0]) < 0.01, faint


@functools.cache
def _drawings() -> list[tuple[str, str, str, Any, str | None]]:
    """Every figure drawn from the committed results in every language and layout and saved
    as the build saves it, once for the tests that read them: (name, language, layout,
    matplotlib figure, the first problem figure_fit.checked finds in it or None)."""
    from sqrtdk import figure_fit
    results = _results()
    out = []
    for lang in ("en", "zh"):
        table = labels(lang)
        for name, spec in SPECS.items():
            for layout in sorted(figures.LAYOUTS):
                figs: list[Any] = []

                def drawn(t: Any, spec: Any = spec, layout: str = layout,
                          fonts: Any = table["style"]["font_family"],
                          figs: list[Any] = figs) -> tuple[bytes, Any]:
                    fig = draw.draw(spec, results, t, fonts, layout)
                    figs.append(fig)
                    return draw.save(fig, "x", layout=layout), fig
                problem = figure_fit.checked(drawn, table[name])[1]
                out.append((name, lang, layout, figs[0], problem))
    return out


def _keys_over_plots(fig: Any) -> list[tuple[Any, list[str]]]:
    """Every legend of `fig` (an axes', the figure's, a subfigure's) drawn over a plotting
    area, with the markers of its entries that are a bare marker (no line: how a measured
    point looks)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.legend import Legend
    from matplotlib.lines import Line2D
    renderer = FigureCanvasAgg(fig).get_renderer()
    out = []
    for leg in fig.findobj(Legend):
        box = leg.get_window_extent(renderer)
        if not any(ax.get_window_extent(renderer).overlaps(box) for ax in fig.axes):
            continue
        bare = [h.get_marker() for h in leg.legend_handles if isinstance(h, Line2D)
                and h.get_marker() not in (None, "", " ", "None", "none")
                and h.get_linestyle() in ("", " ", "None", "none")]
        out.append((leg, bare))
    return out


def test_a_key_entry_that_looks_like_a_data_point_is_framed() -> None:
    """An unframed legend inside the plot whose entry is a bare marker, the same dot as the
    measurements, reads as one more measurement: figure 3 (8 batches) showed a ninth dot at
    3.72, between batches 3 and 4, which was its key's "measured". Drawn every figure in
    every language and layout: a legend over a plotting area with such an entry has its
    frame."""
    for name, lang, layout, fig, _ in _drawings():
        for leg, bare in _keys_over_plots(fig):
            assert not bare or leg.get_frame_on(), (name, lang, layout, bare)


def test_a_drawer_s_bare_marker_key_over_its_plot_is_framed_and_a_line_key_is_not() -> None:
    """The same rule on a drawer of its own: a key with a bare marker inside the axes gets a
    frame; a key of lines only, or one placed outside the plot, keeps the house style (none)."""
    from sqrtdk.figures import Registration

    def drawer(kind: str) -> Any:
        def body(fig: Any, r: Any, t: Any, layout: str) -> None:
            (ax,) = draw.panels(fig, 1, layout)
            ax.plot([1, 2, 3], [1, 2, 3], "o" if kind != "line" else "-", label="measured")
            if kind == "outside":
                fig.legend(loc="outside lower center")
            else:
                ax.legend(loc="lower right")
        return body
    framed = {}
    for kind in ("marker", "line", "outside"):
        spec = Registration(f"t_{kind}", drawer(kind), ())
        fig = draw.draw(spec, {}, {}, ["DejaVu Sans"], "wide")
        legs = list(fig.findobj(lambda a: type(a).__name__ == "Legend"))
        assert len(legs) == 1
        framed[kind] = legs[0].get_frame_on()
    assert framed == {"marker": True, "line": False, "outside": False}


def _line_colours(fig: Any) -> set[str]:
    """The colours of the lines `fig` draws with data (Line2D with points, and line
    collections: error bars, vlines), as hex; not the edges of areas or bars."""
    from matplotlib.collections import LineCollection
    from matplotlib.colors import to_hex
    out: set[str] = set()
    for ax in fig.axes:
        out |= {to_hex(line.get_color()) for line in ax.lines if len(line.get_xdata())}
        for coll in ax.collections:
            if isinstance(coll, LineCollection):
                out |= {to_hex(c) for c in coll.get_colors()}
    return out


def test_every_line_in_a_key_has_the_colour_of_something_drawn() -> None:
    """A key's line stands for lines of its colour: the walk's '6 sample walks' was one grey
    line while every path was drawn in colour, so the key named a grey path the figure does
    not have (reader10). Drawn every figure in every language and layout: each line of every
    legend (a tuple entry's too) has the colour of a line the figure draws."""
    from matplotlib.colors import to_hex
    from matplotlib.legend import Legend
    from matplotlib.lines import Line2D
    for name, lang, layout, fig, _ in _drawings():
        drawn = _line_colours(fig)
        for leg in fig.findobj(Legend):
            keys = [a for a in leg.findobj(Line2D) if a.get_visible()
                    and a.get_linestyle() not in ("", " ", "None", "none")]
            for key in keys:
                assert to_hex(key.get_color()) in drawn, (name, lang, layout, key.get_color())


def test_a_misspelt_result_read_by_a_figure_is_told_did_you_mean_not_to_add_it_to_needs(
        ) -> None:
    """A figure or its table reading a path no experiment declares (a misspelt key:
    'gradient.dk') was told to add it to needs, which then refused it at the @figure line:
    it is told to be no result, with the declared paths it is closest to. A declared path
    outside the needs is still told to be added."""
    from sqrtdk.results_paths import NotNeededError
    from sqrtdk.science.outputs import declared
    name, spec = next(iter(SPECS.items()))
    path = next(p for p in spec.needs if declared().unknown(p) is None)
    misspelt = NotNeededError(path + "x").message(name, f"figure '{name}'")
    assert f"did you mean '{path}" in misspelt and "to needs" not in misspelt, misspelt
    outside = next(n for other in SPECS.values() for n in other.needs
                   if not any(n == m or n.startswith(m + ".") for m in spec.needs))
    told = NotNeededError(outside).message(name, f"figure '{name}'")
    assert "to needs" in told and "did you mean" not in told, told


@pytest.mark.parametrize("spec, meant", [("sig3", "sig:3"), ("fixed(2)", "fixed:2"),
                                         ("decimal", "")])
def test_a_table_cell_format_nothing_prints_is_an_error_at_its_line(
        monkeypatch: pytest.MonkeyPatch, spec: str, meant: str) -> None:
    """A figure's table (README's 'Add a figure', step 4) asking for a cell format the
    tables cannot print ('sig3', or the prose's 'fixed(2)') stopped the build with
    numbers.py's ValueError and a traceback (author12): it is an error at the line of the
    table's function, with the formats there are and the one it meant."""
    import inspect

    from sqrtdk.errors import BuildError
    from sqrtdk.web import fig_tables
    from sqrtdk.web.markers import fig_data
    name, spec_ = next(iter(SPECS.items()))
    path = "some.result"        # the format is refused before the value is looked up
    results = _results()

    def one_cell(r: Any) -> Any:
        return (fig_tables.Table(("col_d",), ((fig_tables._c(r, path, spec),),)),)

    monkeypatch.setitem(fig_tables.TABLES, name, one_cell)
    monkeypatch.setattr(fig_tables, "figure_needs", lambda: {name: spec_.needs})
    with pytest.raises(BuildError) as e:
        fig_tables.fill_tables(fig_data(name), {}, results)
    assert (str(e.value.path), e.value.line) == (__file__, inspect.getsourcelines(one_cell)[1]
                                                  + 1), e.value
    assert f"'{spec}'" in e.value.message and "'grouped'" in e.value.message, e.value.message
    assert (f"did you mean '{meant}'?" in e.value.message) == bool(meant), e.value.message


def test_a_drawing_function_taking_other_parameters_is_refused_at_registration() -> None:
    """A drawing function written with three parameters (no `layout`) was registered, then
    called with four in a worker: the build stopped with the pool's traceback (a mutation
    pass). `@figure` refuses it, naming the call it must accept (told at the `@figure` line
    by inputs.told_import_error); four parameters, or more with defaults, pass."""
    def three(fig: Any, r: Any, t: Any) -> None:
        pass

    def four_and_more(fig: Any, r: Any, t: Any, layout: str, extra: int = 1) -> None:
        pass

    with pytest.raises(TypeError, match=r"figure 'three_test'.*\(fig, r, t, layout\)"):
        figures.figure("three_test", needs=("walk",), labels={})(three)
    assert "three_test" not in figures.FIGURES
    try:
        figures.figure("four_test", needs=("walk",), labels={})(four_and_more)
        assert "four_test" in figures.FIGURES
    finally:
        figures.FIGURES.pop("four_test", None)


def _table_returns_none(r: Any) -> Any:
    return None


def _table_returns_a_bare_table(r: Any) -> Any:
    from sqrtdk.web.fig_tables import Table, _c
    return Table(("col_d",), ((_c(r, "walk.steps", "grouped"),),))


def _table_with_a_short_row(r: Any) -> Any:
    from sqrtdk.web.fig_tables import Table, _c
    return (Table(("col_d", "col_sd"), ((_c(r, "walk.steps", "grouped"),),)),)


def _table_with_a_misspelt_header(r: Any) -> Any:
    from sqrtdk.web.fig_tables import Table, _c
    return (Table(("col_dd",), ((_c(r, "walk.steps", "grouped"),),)),)


def _table_with_a_bad_cell(r: Any) -> Any:
    from sqrtdk.web.fig_tables import Table
    return (Table(("col_d",), (((1.0, "grouped:2", ""),),)),)


def _table_that_raises(r: Any) -> Any:
    from sqrtdk.web.fig_tables import Table, _c
    return (Table(("col_d",), ((_c(r, "walk.paths", "grouped"),),)),)


@pytest.mark.parametrize(("fn", "said", "at_read"), [
    (_table_returns_none, "returns NoneType, not a tuple of Table", False),
    (_table_returns_a_bare_table, "returns Table, not a tuple of Table", False),
    (_table_with_a_short_row, "row 1 has 1 cells under 2 headers", False),
    (_table_with_a_misspelt_header, "the header 'col_dd' is no [ui] key", False),
    (_table_with_a_bad_cell, "neither Text(…) nor (number, format, path)", False),
    (_table_that_raises, "stops here with TypeError", True),
])
def test_a_table_function_s_mistake_is_one_line_at_its_function(
        monkeypatch: pytest.MonkeyPatch, fn: Any, said: str, at_read: bool) -> None:
    """What a figure's @table function returns was not checked (a mutation pass): None, a
    Table without its tuple, a misspelt header key or a cell of the wrong kind stopped the
    build with a traceback from the HTML writer, a row short of a cell was published as a
    ragged table with exit status 0, and a Python error in the function kept its traceback.
    Each is one line at the table's function (an error raised there: at its line)."""
    import inspect

    from sqrtdk.errors import BuildError
    from sqrtdk.web import fig_tables
    from sqrtdk.web.markers import fig_data
    results = json.loads((PROJECT_ROOT / "figures" / "results.json").read_text("utf-8"))
    ui = tomllib.loads((PROJECT_ROOT / "content" / "en" / "strings.toml").read_text("utf-8"))["ui"]
    monkeypatch.setattr(fig_tables, "TABLES", {"walk": fn})
    with pytest.raises(BuildError) as e:
        fig_tables.fill_tables(fig_data("walk"), ui, results)
    lines, first = inspect.getsourcelines(fn)
    line = first + len(lines) - 1 if at_read else first
    assert (Path(e.value.path).name, e.value.line) == (Path(__file__).name, line), e.value
    assert "the table of figure 'walk'" in e.value.message and said in e.value.message, \
        e.value.message


def test_a_table_for_no_figure_or_registered_twice_is_refused() -> None:
    """`@table("wlak")` (no such figure) was kept and shown nowhere, its figure published
    without a table, with exit status 0 under a warning; a second `@table("walk")` replaced
    the first silently. The first is an error at its `@table` line with 'did you mean', the
    second at the second's `@table` line."""
    import inspect

    from sqrtdk.errors import BuildError
    from sqrtdk.web import fig_tables
    saved = dict(fig_tables.TABLES)
    try:
        fig_tables.TABLES["wlak"] = _table_returns_none
        with pytest.raises(BuildError, match=r"@table\(\"wlak\"\) names no figure.*'walk'"):
            fig_tables.check_table_names(list(SPECS))
        del fig_tables.TABLES["wlak"]
        fig_tables.check_table_names(list(SPECS))
        with pytest.raises(BuildError, match="registered twice") as twice:
            fig_tables.table("walk")(_table_returns_none)
        assert (Path(twice.value.path).name, twice.value.line) == \
            (Path(__file__).name, inspect.currentframe().f_lineno - 2)  # type: ignore[union-attr]
    finally:
        fig_tables.TABLES.clear()
        fig_tables.TABLES.update(saved)


@pytest.mark.filterwarnings("ignore:Glyph")
def test_the_gradient_band_key_says_the_levels_the_results_give() -> None:
    """The key of the gradient figure's band names its quantile levels from the results
    (`gradient.band_lo`, `band_hi`), not as typed text: with the levels moved to 25 % and
    75 %, the key says 25 and 75 in every language (it said "10–90%" whatever the code used)."""
    spec = SPECS.get("gradient_q")
    if spec is None:
        pytest.skip("no gradient figure registered")
    results = json.loads((PROJECT_ROOT / "figures" / "results.json").read_text("utf-8"))
    results["gradient"].update(band_lo=0.25, band_hi=0.75)
    for lang in ("en", "zh"):
        fig = draw.draw(spec, results, labels(lang)["gradient_q"], ["DejaVu Sans"], "wide")
        keys = [*fig.legends, *(ax.get_legend() for ax in fig.axes if ax.get_legend())]
        texts = [t.get_text() for key in keys for t in key.get_texts()]
        assert any("25" in t and "75" in t for t in texts), (lang, texts)
        assert not any("90" in t for t in texts), (lang, texts)
