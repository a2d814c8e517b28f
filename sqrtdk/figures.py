"""The explainer's figures: one function per figure, one shared style, one door out (`save`).

Reads the results dict only; never runs an experiment. All text comes from
`content/<lang>/figures.toml` (a table per figure, plus `[style] font_family`). Chinese uses Noto
Sans CJK SC from the `mplfonts` wheel, registered by path (its setup is never run). Text stays
text (`svg.fonttype: none`); mathtext is off (`text.parse_math: False`), labels use Unicode
(√d, ÷, pᵢ), so every <text> names its fonts and ends with the generic `sans-serif`.
"""
from __future__ import annotations

import importlib.util
import math
import tomllib
from functools import cache
from pathlib import Path
from typing import Any, Callable

import matplotlib as mpl
import numpy as np
from matplotlib import font_manager
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

from . import config
from .config import CONTENT_DIR, SaturationParams

FIGURE_NAMES = config.FIGURE_NAMES  # article order; config holds it so the cache can
#                                   name figures without importing matplotlib

# Okabe & Ito (2008) colour-blind-safe palette, plus two greys.
BLUE, VERMILLION, GREEN, ORANGE = "#0072B2", "#D55E00", "#009E73", "#E69F00"
SKY, PURPLE, GREY, LIGHT = "#56B4E9", "#CC79A7", "#7F7F7F", "#E4E4E4"
CYCLE = (BLUE, VERMILLION, GREEN, ORANGE, SKY, PURPLE)
RULER_STYLE = (("raw", VERMILLION, "o"), ("sqrt", BLUE, "s"), ("linear", GREEN, "^"))
CJK_FONT_FILE = "NotoSansCJKsc-Regular.otf"  # inside the mplfonts wheel, in mplfonts/fonts/

STYLE: dict[str, Any] = {
    "figure.figsize": (7.0, 3.6), "figure.facecolor": "white", "savefig.facecolor": "white",
    "axes.facecolor": "white", "axes.edgecolor": "#333333", "axes.linewidth": 0.8,
    "axes.spines.top": False, "axes.spines.right": False, "axes.titlesize": 11,
    "axes.labelsize": 10.5, "axes.prop_cycle": mpl.cycler(color=CYCLE), "font.size": 10.5,
    "xtick.labelsize": 9.5, "ytick.labelsize": 9.5, "legend.fontsize": 9.5,
    "legend.frameon": False, "lines.linewidth": 1.6, "lines.markersize": 5,
    "text.color": "#222222", "text.parse_math": False, "svg.fonttype": "none",
    "font.sans-serif": ["DejaVu Sans"],  # what the SVG writes for the generic `sans-serif`
}


class Labels:
    """The text of one figure; a missing key raises KeyError naming the figure and the key."""

    def __init__(self, labels: dict, name: str) -> None:
        self.name = name
        self.table = _lookup(labels, name)

    def __call__(self, key: str, **values: Any) -> str:
        """Return label `key`, formatted with `values` (str.format fields in the TOML)."""
        text = _lookup(self.table, key, self.name)
        try:
            return text.format(**values)
        except (KeyError, IndexError) as err:
            raise KeyError(f"figure label [{self.name}] {key}: unknown field {err}") from None


def _lookup(table: dict, key: str, figure: str | None = None) -> Any:
    try:
        return table[key]
    except KeyError:
        where = f"figure {figure!r} has no label {key!r}" if figure else f"no table [{key}]"
        raise KeyError(f"figures.toml: {where}") from None


def load_labels(lang: str) -> dict:
    """Read content/<lang>/figures.toml; KeyError if a figure's table or [style] is missing."""
    path = CONTENT_DIR / lang / "figures.toml"
    with path.open("rb") as f:
        labels = tomllib.load(f)
    for table in ("style", *FIGURE_NAMES):
        if table not in labels:
            raise KeyError(f"{path}: no table [{table}]")
    return labels


@cache
def _register_cjk_font() -> None:
    """Add the CJK font bundled with mplfonts to matplotlib, by path, once per process."""
    spec = importlib.util.find_spec("mplfonts")  # locates the package without importing it
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("the mplfonts package (bundled CJK font) is not installed")
    font_manager.fontManager.addfont(
        str(Path(spec.submodule_search_locations[0]) / "fonts" / CJK_FONT_FILE))


def _figure(ncols: int = 1, **kw: Any) -> tuple[Figure, list]:
    fig = Figure(layout="constrained")
    return fig, list(fig.subplots(1, ncols, squeeze=False, **kw)[0])


def _log2(ax: Axes, which: str, ticks: list[float]) -> None:
    """Base-2 log scale on axis `which` ("x" or "y"), fixed ticks labelled 1/8, 1, 32."""
    getattr(ax, f"set_{which}scale")("log", base=2)
    axis = getattr(ax, f"{which}axis")
    axis.set_major_locator(FixedLocator(ticks))
    axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}" if v >= 1 else f"1/{1 / v:g}"))
    axis.set_minor_locator(NullLocator())


def _pow2(values: list[float]) -> list[float]:
    lo, hi = math.floor(math.log2(min(values))), math.ceil(math.log2(max(values)))
    return [2.0**k for k in range(lo, hi + 1)]


def _index(xs: list[float], x: float) -> int:
    hits = [i for i, v in enumerate(xs) if math.isclose(v, x)]
    if not hits:
        raise ValueError(f"{x} is not on the grid of the results")
    return hits[0]


def _spread_hist(r: dict, t: Labels) -> Figure:
    sp = r["spread"]
    edges = np.asarray(sp["hist"]["edges"])
    fig, (ax,) = _figure()
    for size, color in (("small", BLUE), ("large", VERMILLION)):  # batch 0, one path each
        density = np.asarray(sp["hist"][size][0]) / (sp["n_pairs"] * np.diff(edges))
        ax.stairs(density, edges, fill=True, facecolor=mpl.colors.to_rgba(color, 0.25),
                  edgecolor=color, linewidth=1.3,
                  label=t("legend", d=sp[f"d_{size}"], sd=sp[f"sd_{size}"]))
    ax.set(xlim=(edges[0], edges[-1]), ylim=(0, None), title=t("title"),
           xlabel=t("xlabel"), ylabel=t("ylabel"))
    ax.legend(loc="upper right")
    return fig


def _spread_sd(r: dict, t: Labels) -> Figure:
    sp = r["spread"]
    d, sd = sp["d_k"], sp["sd"]
    fig, (ax,) = _figure()
    ax.plot(d, sp["sd_theory"], color=GREY, linestyle="--", label=t("theory"))
    ax.plot(d, sd, "o", color=BLUE, label=t("measured", n=sp["n_pairs"]))
    for dq in (sp["d_small"], sp["d_large"]):
        i = d.index(dq)
        ax.plot(dq, sd[i], "o", markersize=11, markerfacecolor="none", color=VERMILLION)
        ax.annotate(t("point", d=dq, sd=sd[i]), (dq, sd[i]), xytext=(10, -9),
                    textcoords="offset points", va="center", color=VERMILLION)
    _log2(ax, "x", d)
    _log2(ax, "y", _pow2(sd + sp["sd_theory"]))
    ax.set(ylim=(min(sd) / 1.4, max(sd) * 1.3), title=t("title"), xlabel=t("xlabel"),
           ylabel=t("ylabel"))
    ax.legend(loc="upper left")
    return fig


def _batches(r: dict, t: Labels) -> Figure:
    sp = r["spread"]
    ratios, theory = sp["batches"]["ratio"], sp["ratio_theory"]
    fig, (ax,) = _figure()
    xs = list(range(1, len(ratios) + 1))
    ax.axhline(theory, color=GREY, ls="--", label=t("theory", ratio=sp["d_ratio"], value=theory))
    ax.plot(xs, ratios, "o", color=BLUE, markersize=7, label=t("measured"))
    lo, hi = min(*ratios, theory), max(*ratios, theory)
    sizes = {"small": sp["d_small"], "large": sp["d_large"]}
    ax.set(xticks=xs, ylim=(lo - (hi - lo), hi + 2.5 * (hi - lo)), xlabel=t("xlabel"),
           ylabel=t("ylabel"), title=t("title", n=len(ratios), **sizes))
    ax.annotate(t("offchart", ratio=sp["d_ratio"], **sizes),  # 128 would sit far above
                xy=(0.72, 1.0), xycoords="axes fraction", xytext=(0.72, 0.8),
                textcoords="axes fraction", ha="center", va="center", color=VERMILLION,
                arrowprops={"arrowstyle": "-|>", "color": VERMILLION, "linewidth": 1.2})
    ax.legend(loc="lower left", ncols=2)
    return fig


def _walk(r: dict, t: Labels) -> Figure:
    w = r["walk"]
    steps, theory = w["steps"], w["sd_theory"]
    ts = np.arange(steps + 1)
    fig, (ax,) = _figure()
    ax.fill_between(ts, -np.sqrt(ts), np.sqrt(ts), color=LIGHT, linewidth=0, label=t("band"))
    for i, path in enumerate(w["paths"]):
        ax.plot(ts, path, color=CYCLE[i % len(CYCLE)], linewidth=1.0)
    ax.plot([], [], color=GREY, linewidth=1.0, label=t("paths", n=len(w["paths"])))
    ax.errorbar([steps], [0], yerr=[theory], color="#222222", capsize=5, linewidth=1.6)
    ax.annotate(t("final", t=steps, theory=theory, sd=w["sd"], walks=w["n_walks"]),
                (steps, theory), xytext=(0, 8), textcoords="offset points", ha="right")
    lim = 1.3 * max(np.abs(w["paths"]).max(), 2 * theory)
    ax.set(xlim=(0, steps + 2), ylim=(-lim, lim), title=t("title"), xlabel=t("xlabel"),
           ylabel=t("ylabel"))
    ax.legend(loc="lower left", ncols=2)
    return fig


def _saturation_bars(r: dict, t: Labels) -> Figure:
    sa = r["saturation"]
    names, w = sa["labels"], sa["labels"].index(sa["winner"])
    shown = SaturationParams().shown_scales  # not in results.json: the config's default
    fig, axes = _figure(ncols=len(shown), sharey=True)
    for ax, scale in zip(axes, shown):
        shares = sa["shares"][_index(sa["scales"], scale)]
        colors = [VERMILLION if i == w else GREY for i in range(len(names))]
        ax.bar(range(len(names)), shares, color=colors, width=0.7)
        tall = shares[w] > 0.8  # no room above the bar: write the value beside it
        ax.annotate(t("winner", label=names[w], share=shares[w]), (w, shares[w]),
                    xytext=(-8, -2) if tall else (0, 3), textcoords="offset points",
                    ha="right" if tall else "center", va="top" if tall else "bottom",
                    color=VERMILLION)
        ax.set(xticks=range(len(names)), xticklabels=names, title=t("panel", scale=scale))
    axes[0].set(ylim=(0, 1), ylabel=t("ylabel"))
    fig.suptitle(t("title"))
    fig.supxlabel(t("xlabel"), fontsize=STYLE["axes.labelsize"])
    return fig


def _saturation_sensitivity(r: dict, t: Labels) -> Figure:
    sa = r["saturation"]
    x, pk, q = sa["scales"], sa["peak"], sa["quoted"]
    fig, (left, right) = _figure(ncols=2, sharex=True)
    left.plot(x, sa["p_winner"], color=VERMILLION)
    right.plot(x, sa["sensitivity"], color=BLUE, label=t("sensitivity"))
    right.plot(x, sa["max_offdiag"], color=GREEN, linestyle="--", label=t("max_offdiag"))
    texts = (t("quoted_left", scale=q["scale"], p=q["p_winner"]),
             t("quoted_right", scale=q["scale"], s=q["sensitivity"]))
    for ax, y, text in zip((left, right), (q["p_winner"], q["sensitivity"]), texts):
        ax.axvline(pk["scale"], color=GREY, linestyle=":", linewidth=1.2)
        ax.plot(q["scale"], y, "o", color="#222222")
        ax.annotate(text, (q["scale"], y), xytext=(4, 9) if ax is right else (0, -24),
                    textcoords="offset points", ha="left" if ax is right else "center")
        ax.set(xlabel=t("xlabel"))
        _log2(ax, "x", _pow2(x))
    right.annotate(t("peak", scale=pk["scale"], p=pk["p_winner"]), (pk["scale"], pk["sensitivity"]),
                   xytext=(6, 2), textcoords="offset points", va="bottom")
    left.set(ylim=(0, 1.05), title=t("left_title", label=sa["winner"]))
    right.set(ylim=(0, 1.18 * pk["sensitivity"]), title=t("right_title"))
    right.legend(loc="center right")
    return fig


def _rulers_sd(r: dict, t: Labels) -> Figure:
    ru = r["rulers"]
    d = ru["d_k"]
    fig, (ax,) = _figure()
    for name, color, marker in RULER_STYLE:
        theory = ru["sd_theory"][name]
        ax.plot(d, theory, color=color, linewidth=1.1, alpha=0.8)
        ax.plot(d, ru["sd"][name], marker, color=color, label=t(name))
        ax.annotate(t(f"theory_{name}"), (d[-1], theory[-1]), xytext=(8, 0),
                    textcoords="offset points", va="center", color=color)
    _log2(ax, "x", d)
    _log2(ax, "y", _pow2([v for name in ru["sd"] for v in ru["sd"][name]]))
    ax.set(xlim=(d[0] / 1.3, d[-1] * 1.9), title=t("title"), xlabel=t("xlabel"),
           ylabel=t("ylabel"))
    ax.legend(loc="upper left", title=t("note"), alignment="left")
    return fig


def _rulers_softmax(r: dict, t: Labels) -> Figure:
    ru = r["rulers"]
    d = ru["d_k"]
    fig, (left, right) = _figure(ncols=2, sharex=True)
    for name, color, marker in RULER_STYLE:
        left.plot(d, ru["winner_share"][name], marker + "-", color=color, label=t(name))
        right.plot(d, ru["entropy_bits"][name], marker + "-", color=color)
    refs = ((left, ru["uniform_share"], t("uniform_share", n=ru["positions"]), -3),
            (right, ru["max_entropy_bits"], t("max_entropy", bits=ru["max_entropy_bits"]), 3))
    for ax, y, text, dy in refs:  # label below the 1/8 line, above the 3-bit line
        ax.axhline(y, color=GREY, linestyle=":", linewidth=1.2)
        ax.annotate(text, (0.02, y), xycoords=ax.get_yaxis_transform(), xytext=(0, dy),
                    textcoords="offset points", va="top" if dy < 0 else "bottom", color=GREY)
        _log2(ax, "x", d)
        ax.set(xlabel=t("xlabel"))
    left.set(ylim=(0, 1), title=t("left_title"))
    right.set(ylim=(0, 1.15 * ru["max_entropy_bits"]), title=t("right_title"))
    fig.legend(handles=left.get_lines()[:3], loc="outside upper center", ncols=3)
    return fig


_DRAWERS: dict[str, Callable[[dict, Labels], Figure]] = {
    name: globals()[f"_{name}"] for name in FIGURE_NAMES}  # figure `x` is drawn by `_x`


def draw(name: str, results: dict, labels: dict) -> Figure:
    """Draw figure `name` from `results` with the text in `labels` (from `load_labels`).

    Raises KeyError for an unknown figure or a missing label (naming figure and key).
    """
    if name not in _DRAWERS:
        raise KeyError(f"unknown figure {name!r}; known: {', '.join(FIGURE_NAMES)}")
    _register_cjk_font()
    family = _lookup(_lookup(labels, "style"), "font_family", "style")
    with mpl.rc_context({**STYLE, "font.family": family}):
        return _DRAWERS[name](results, Labels(labels, name))


def save(fig: Figure, path: Path, name: str) -> None:
    """Write `fig` as SVG to `path`, the one door: ids salted with `name` (same bytes every
    time), no date, no creator, text as text.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    with mpl.rc_context({**STYLE, "svg.hashsalt": name, "svg.fonttype": "none"}):
        fig.savefig(path, format="svg", metadata={"Date": None, "Creator": None})


def render(name: str, lang: str, results: dict, out_dir: Path) -> Path:
    """Draw figure `name` in language `lang` and save it to out_dir / f"{name}.{lang}.svg"."""
    path = Path(out_dir) / f"{name}.{lang}.svg"
    save(draw(name, results, load_labels(lang)), path, name)
    return path


def render_all(results: dict, out_dir: Path, langs: tuple[str, ...] = ("zh", "en")) -> list[Path]:
    """Render every figure in every language, sequentially; returns the paths in order."""
    return [render(name, lang, results, out_dir) for lang in langs for name in FIGURE_NAMES]
