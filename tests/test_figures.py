"""Tests of sqrtdk.figures: every figure draws in both languages, as text, deterministically."""
from __future__ import annotations

import copy
import json
import logging
import re
import tomllib
import warnings
import xml.etree.ElementTree as ET
from pathlib import Path

import matplotlib as mpl
import pytest

from sqrtdk import figures
from sqrtdk.config import CONTENT_DIR, FIGURES_DIR, LANGUAGES, RESULTS_FILE

SVG = "{http://www.w3.org/2000/svg}"
CJK = re.compile("[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def results() -> dict:
    return json.loads((FIGURES_DIR / RESULTS_FILE).read_text(encoding="utf-8"))


def svg_texts(path: Path) -> list[tuple[str, str]]:
    """(text, style) of every <text> element of the SVG at `path` (parsing proves valid XML)."""
    root = ET.parse(path).getroot()
    return [("".join(el.itertext()), el.get("style", "")) for el in root.iter(f"{SVG}text")]


def plain_labels(labels: dict, name: str) -> list[str]:
    """The labels of figure `name` that are not str.format templates (so appear verbatim)."""
    return [v for v in labels[name].values() if isinstance(v, str) and "{" not in v]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", figures.FIGURE_NAMES)
def test_figure_renders_as_text(name: str, lang: str, results: dict, tmp_path: Path,
                                caplog: pytest.LogCaptureFixture) -> None:
    labels = figures.load_labels(lang)
    with warnings.catch_warnings(), caplog.at_level(logging.WARNING, logger="matplotlib"):
        warnings.simplefilter("error")  # e.g. "Glyph 28857 missing from font(s) DejaVu Sans"
        path = figures.render(name, lang, results, tmp_path)
    assert [r.getMessage() for r in caplog.records] == []  # mathtext and findfont only log
    assert path == tmp_path / f"{name}.{lang}.svg"
    texts = svg_texts(path)
    assert texts, "svg.fonttype none must leave <text> elements"
    joined = "\n".join(text for text, _ in texts)
    for label in plain_labels(labels, name):
        for line in label.splitlines():
            assert line in joined, f"{name}.{lang}: label {line!r} missing from the SVG"
    assert bool(CJK.search(joined)) == (lang == "zh")
    families = {re.search(r"font-family: ([^;]*)", style).group(1) for _, style in texts}
    assert all(f.endswith(", sans-serif") for f in families), families
    assert path.stat().st_size < 60_000


def test_svg_size_is_about_7_by_3_6_inches(results: dict, tmp_path: Path) -> None:
    root = ET.parse(figures.render("walk", "en", results, tmp_path)).getroot()
    assert (root.get("width"), root.get("height")) == ("504pt", "259.2pt")
    assert root.get("viewBox") == "0 0 504 259.2"


def test_rendering_twice_gives_identical_bytes(results: dict, tmp_path: Path) -> None:
    first = figures.render_all(results, tmp_path / "a")
    second = figures.render_all(results, tmp_path / "b")
    assert len(first) == len(figures.FIGURE_NAMES) * 2
    for a, b in zip(first, second):
        assert a.name == b.name
        data = a.read_bytes()
        assert data == b.read_bytes(), a.name
        assert b"<dc:date>" not in data and b"Date" not in data
        assert mpl.__version__.encode() not in data and b"Matplotlib v" not in data


def flat_keys(table: dict, prefix: str = "") -> set[str]:
    keys = set()
    for key, value in table.items():
        keys |= flat_keys(value, f"{prefix}{key}.") if isinstance(value, dict) else {prefix + key}
    return keys


def test_languages_have_the_same_label_keys() -> None:
    tables = {}
    for lang in LANGUAGES:
        with (CONTENT_DIR / lang / "figures.toml").open("rb") as f:
            tables[lang] = tomllib.load(f)
    zh, en = (flat_keys(tables[lang]) for lang in ("zh", "en"))
    assert zh == en, zh ^ en
    assert set(figures.FIGURE_NAMES) | {"style"} == set(tables["en"])


def test_no_chinese_in_python_files() -> None:
    source = Path(figures.__file__).read_text(encoding="utf-8")
    assert not CJK.search(source)


def test_missing_label_names_figure_and_key(results: dict) -> None:
    labels = copy.deepcopy(figures.load_labels("en"))
    del labels["batches"]["offchart"]
    with pytest.raises(KeyError, match="'batches'.*'offchart'"):
        figures.draw("batches", results, labels)


def test_unknown_figure_is_refused(results: dict) -> None:
    with pytest.raises(KeyError, match="nonesuch"):
        figures.draw("nonesuch", results, figures.load_labels("en"))


def test_chinese_without_the_cjk_font_is_caught(results: dict, tmp_path: Path) -> None:
    """The guard above is live: zh text with only DejaVu Sans warns about missing glyphs."""
    labels = copy.deepcopy(figures.load_labels("zh"))
    labels["style"]["font_family"] = ["DejaVu Sans", "sans-serif"]
    fig = figures.draw("walk", results, labels)
    with warnings.catch_warnings(), pytest.raises(UserWarning, match="missing from font"):
        warnings.simplefilter("error")
        figures.save(fig, tmp_path / "walk.svg", "walk")
