"""Sheet 3's figures: three rulers, what each does to softmax, and the gradient reaching q."""
from __future__ import annotations

import math
from typing import Any

from matplotlib.colors import to_rgba
from matplotlib.legend_handler import HandlerTuple
from matplotlib.patches import Patch

from ..web.numbers import format_number
from . import NARROW, figure
from .draw import (
    GREY,
    RULER_STYLE,
    Canvas,
    Labels,
    legend,
    log2_axis,
    log10_axis,
    panels,
    powers_of_two,
    text_ink,
)

BAND_ALPHA = 0.15    # opacity of a ruler's 10–90 % band (and of its swatch in the key)
# the band's edge, in its ruler's colour: the faint fill alone stood about 1.2:1 against the
# page (WCAG 1.4.11 asks 3:1 of a graphic the reader needs); the edge shows where it runs
BAND_EDGE = 0.6     # line width, points


@figure("rulers_sd",
        needs=("rulers.d_k", "rulers.sd", "rulers.sd_theory"),
        labels={"title": (), "xlabel": (), "ylabel": (), "note": (), "raw": (), "sqrt": (),
                "linear": (), "theory_raw": (), "theory_sqrt": (), "theory_linear": ()})
def rulers_sd(fig: Canvas, r: dict[str, Any], t: Labels, layout: str) -> None:
    """The SD of the scaled score under each ruler against d, beside its theory."""
    ru = r["rulers"]
    d = ru["d_k"]
    (ax,) = panels(fig, 1, layout, height=1.55)
    for name, color, marker in RULER_STYLE:
        theory = ru["sd_theory"][name]
        ax.plot(d, theory, color=color, linewidth=1.1, alpha=0.8)
        ax.plot(d, ru["sd"][name], marker, color=color, label=t(name))
        ax.annotate(t(f"theory_{name}"), (d[-1], theory[-1]), xytext=(8, 0),
                    textcoords="offset points", va="center", color=text_ink(color))
    every = 2 if layout == NARROW else 1
    log2_axis(ax, "x", [float(x) for x in d], every)
    log2_axis(ax, "y", powers_of_two([v for name in ru["sd"] for v in ru["sd"][name]]), every)
    ax.set(xlim=(d[0] / 1.3, d[-1] * (2.2 if layout != NARROW else 3.4)), title=t("title"),
           xlabel=t("xlabel"),
           ylabel=t("ylabel"))
    legend(ax, fig, layout, "upper left", title=t("note"), alignment="left")


@figure("rulers_softmax",
        needs=("rulers.d_k", "rulers.winner_share", "rulers.entropy_bits", "rulers.uniform_share",
               "rulers.max_entropy_bits", "rulers.positions"),
        labels={"left_title": (), "right_title": (), "xlabel": (), "raw": (), "sqrt": (),
                "linear": (), "uniform_share": ("n",), "max_entropy": ("bits",)})
def rulers_softmax(fig: Canvas, r: dict[str, Any], t: Labels, layout: str) -> None:
    """Mean winner share and mean entropy of the softmax against d, per ruler."""
    ru = r["rulers"]
    d = ru["d_k"]
    left, right = panels(fig, 2, layout, sharex=True)
    for name, color, marker in RULER_STYLE:
        left.plot(d, ru["winner_share"][name], marker + "-", color=color, label=t(name))
        right.plot(d, ru["entropy_bits"][name], marker + "-", color=color)
    refs = ((left, ru["uniform_share"], t("uniform_share", n=ru["positions"]), -3),
            (right, ru["max_entropy_bits"], t("max_entropy", bits=ru["max_entropy_bits"]), 6))
    every = 2 if layout == NARROW else 1
    # each label on the empty side of its dotted line (no share is below 1/n, no entropy
    # above its maximum), a few points off it: clear of the line and of the markers near it
    for ax, y, text, dy in refs:
        ax.axhline(y, color=GREY, linestyle=":", linewidth=1.2)
        ax.annotate(text, (0.02, y), xycoords=ax.get_yaxis_transform(), xytext=(0, dy),
                    textcoords="offset points", va="top" if dy < 0 else "bottom",
                    color=text_ink(GREY))
        log2_axis(ax, "x", [float(x) for x in d], every)
        # stacked on a phone, the panels share one x axis, labelled under the lower one
        ax.set(xlabel=t("xlabel") if ax is right or layout != NARROW else "")
    left.set(ylim=(0, 1), title=t("left_title"))
    # room above the maximum for its label (a phone's panel is shorter: more of it)
    right.set(ylim=(0, (1.3 if layout == NARROW else 1.22) * ru["max_entropy_bits"]),
              title=t("right_title"))
    fig.legend(handles=left.get_lines()[:3], loc="outside upper center",
               ncols=1 if layout == NARROW else 3)


@figure("gradient_q",
        needs=("gradient.d_k", "gradient.p10", "gradient.median", "gradient.p90",
               "gradient.below", "gradient.threshold", "gradient.band_lo", "gradient.band_hi"),
        labels={"left_title": (), "right_title": ("threshold",), "xlabel": (), "ylabel": (),
                "band": ("lo", "hi"), "raw": (), "sqrt": (), "linear": (),
                "band_below": ("value",)})
def gradient_q(fig: Canvas, r: dict[str, Any], t: Labels, layout: str) -> None:
    """Left: median ‖∂L/∂q‖ with its band (the `band_lo` to `band_hi` quantiles, 10–90 %
    today; the key says which, in percent: fields `lo`, `hi`) against d, per ruler (log scale);
    right: the share of rows whose gradient is below the threshold.

    The left axis stops two decades below the smallest median (the medians are what the
    panel compares); a band whose lower edge goes further down is cut there, and an arrow
    at the dₖ where it reaches lowest says how far (its value as the article's sig(2)
    prints it: `format_number`, imported from the web code, which this module's cache
    key then covers)."""
    g = r["gradient"]
    d = g["d_k"]
    left, right = panels(fig, 2, layout, sharex=True)
    # the key names every band and line drawn (one key in the no-scaling band's colour read
    # as naming that band only): each ruler's line over a swatch of its band, then what the
    # bands are beside a swatch of all three
    handles: list[Any] = []
    for name, color, marker in RULER_STYLE:
        left.fill_between(d, g["p10"][name], g["p90"][name],
                          facecolor=to_rgba(color, BAND_ALPHA), edgecolor=color,
                          linewidth=BAND_EDGE)
        (line,) = left.plot(d, g["median"][name], marker + "-", color=color)
        right.plot(d, [100 * v for v in g["below"][name]], marker + "-", color=color)
        handles.append((Patch(facecolor=to_rgba(color, BAND_ALPHA), edgecolor=color,
                              linewidth=BAND_EDGE), line))
    bands = tuple(h[0] for h in handles)
    # the band's levels in percent (0.1 -> 10: rounded, as 100 * 0.1 is not exactly 10)
    levels = {k: round(100 * g[f"band_{k}"], 6) for k in ("lo", "hi")}
    labels = [t(name) for name, _, _ in RULER_STYLE] + [t("band", **levels)]
    # a (band, line) pair is drawn one over the other (HandlerTuple's default); the three
    # bands side by side
    key = {"handler_map": {bands: HandlerTuple(ndivide=None, pad=0)}}
    handles.append(bands)
    log10_axis(left, "y")
    lowest = min(v for name in g["median"] for v in g["median"][name])
    bottom = 10.0 ** (math.floor(math.log10(lowest)) - 2)
    top = 10.0 ** math.ceil(math.log10(max(v for name in g["p90"] for v in g["p90"][name])))
    left.set_ylim(bottom, top)
    for name, color, _ in RULER_STYLE:
        p10 = g["p10"][name]
        if min(p10) < bottom:   # the band goes on below the axis: how far, where
            i = p10.index(min(p10))   # the last dₖ here; the alt texts quote it there
            left.annotate("", (d[i], bottom), xytext=(0, 20), textcoords="offset points",
                          arrowprops={"arrowstyle": "-|>", "color": color, "linewidth": 1.2,
                                      "shrinkA": 0, "shrinkB": 0})
            # three figures, as the text and the figure's table quote this percentile
            left.annotate(t("band_below", value=format_number("sig", min(p10), 3)),
                          (d[i], bottom), xytext=(-5, 3), textcoords="offset points",
                          ha="right", va="bottom", color=text_ink(color),
                          bbox={"facecolor": "white", "edgecolor": "none", "pad": 1.0,
                                "alpha": 0.85})   # over the band it speaks of
    every = 2 if layout == NARROW else 1
    for ax in (left, right):
        log2_axis(ax, "x", [float(x) for x in d], every)
        # stacked on a phone, the panels share one x axis, labelled under the lower one
        ax.set(xlabel=t("xlabel") if ax is right or layout != NARROW else "")
    left.set(title=t("left_title"), ylabel=t("ylabel"))
    right.set(ylim=(-3, 103), title=t("right_title", threshold=g["threshold"]))
    right.yaxis.set_major_formatter("{x:g}%")
    if layout == NARROW:   # below the figure, where it covers no data (draw.legend)
        fig.legend(handles, labels, loc="outside lower center", ncols=1, **key)
    else:   # the right panel's upper left is empty; the left one's lower corners are not
        right.legend(handles, labels, loc="upper left", **key)
