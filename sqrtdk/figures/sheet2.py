"""Sheet 2's figures: the row A–H turned up, and how much its shares still respond.

The scale axis also reads as a dimension: a row of SD σ times c has SD cσ, which unscaled
scores have at d ≈ (cσ)² (sqrtdk.science.saturation); the top axis of the sensitivity
figure is labelled in that d.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np
from matplotlib.layout_engine import ConstrainedLayoutEngine
from matplotlib.ticker import NullLocator

from ..figure_ranges import SCALE_FROM
from . import NARROW, figure
from .draw import (
    BLUE,
    GREEN,
    GREY,
    INK,
    VERMILLION,
    Canvas,
    Labels,
    legend,
    log2_axis,
    panels,
    powers_of_two,
    text_ink,
)

EDGE_ROOM = 8 / 72   # inches: the layout's padding at the figure's sides
PANEL_GAP = 0.12    # stacked on a phone: room between the panels, in axes heights
TITLE_PAD = 14.0     # points between a panel's title and the words of its top axis (default 6)


def _index(xs: list[float], x: float) -> int:
    hits = [i for i, v in enumerate(xs) if math.isclose(v, x, rel_tol=1e-9)]
    if not hits:
        raise ValueError(f"{x} is not on the grid of the results")
    return hits[0]


@figure("saturation_bars",
        needs=("saturation.labels", "saturation.winner", "saturation.scales",
               "saturation.shares", "saturation.shown_scales", "saturation.row_sd"),
        labels={"title": (), "panel": ("scale", "dk"), "winner": ("label", "share"),
                "xlabel": (), "ylabel": ()})
def saturation_bars(fig: Canvas, r: dict[str, Any], t: Labels, layout: str) -> None:
    """Bar charts of the shares A–H at a few scales; the winner's bar in vermillion."""
    sa = r["saturation"]
    names, w = sa["labels"], sa["labels"].index(sa["winner"])
    shown = sa["shown_scales"]
    axes = panels(fig, len(shown), layout, height=0.62, sharey=True, sharex=True)
    for ax, scale in zip(axes, shown):
        shares = sa["shares"][_index(sa["scales"], scale)]
        colors = [VERMILLION if i == w else GREY for i in range(len(names))]
        ax.bar(range(len(names)), shares, color=colors, width=0.7)
        tall = shares[w] > 0.8  # no room above the bar: write the value beside it
        ax.annotate(t("winner", label=names[w], share=shares[w]),
                    (w - 0.35 if tall else w, shares[w]),     # the bar's left edge, or its top
                    xytext=(-4, -2) if tall else (0, 3), textcoords="offset points",
                    ha="right" if tall else "center", va="top" if tall else "bottom",
                    color=text_ink(VERMILLION))
        ax.set(xticks=range(len(names)), xticklabels=names, ylim=(0, 1),
               title=t("panel", scale=scale, dk=(scale * sa["row_sd"]) ** 2))
    for ax in axes:
        ax.set_yticks([0, 0.5, 1])
    axes[0 if layout != NARROW else len(axes) // 2].set_ylabel(t("ylabel"))
    fig.suptitle(t("title"))
    fig.supxlabel(t("xlabel"))


@figure("saturation_sensitivity",
        needs=("saturation.scales", "saturation.p_winner", "saturation.sensitivity",
               "saturation.max_offdiag", "saturation.peak", "saturation.quoted",
               "saturation.winner", "saturation.row_sd"),
        labels={"left_title": ("label",), "right_title": (), "xlabel": (), "dk_axis": (),
                "sensitivity": (), "max_offdiag": (), "peak": ("scale", "p", "dk"),
                "quoted_left": ("scale", "p"), "quoted_right": ("scale", "s")})
def saturation_sensitivity(fig: Canvas, r: dict[str, Any], t: Labels, layout: str) -> None:
    """Left: the winner's share against the scale; right: its sensitivity p(1 − p) and the
    largest cross term |p_i p_j|. The top axes give the d_k at which unscaled scores have the
    row's SD."""
    sa = r["saturation"]
    x, pk, q, sigma = sa["scales"], sa["peak"], sa["quoted"], sa["row_sd"]
    left, right = panels(fig, 2, layout, sharex=True)
    left.plot(x, sa["p_winner"], color=VERMILLION)
    right.plot(x, sa["sensitivity"], color=BLUE, label=t("sensitivity"))
    right.plot(x, sa["max_offdiag"], color=GREEN, linestyle="--", label=t("max_offdiag"))
    texts = (t("quoted_left", scale=q["scale"], p=q["p_winner"]),
             t("quoted_right", scale=q["scale"], s=q["sensitivity"]))
    every = 2 if layout == NARROW else 1
    ticks = [v for v in powers_of_two(x) if v >= SCALE_FROM]   # its table starts there too
    for ax, y, text in zip((left, right), (q["p_winner"], q["sensitivity"]), texts):
        # the peak's scale: across the left panel; on the right, from the axis up to the peak
        # only (above it sit the peak's label and, on a desktop, the legend)
        ax.plot([pk["scale"]] * 2, [0, pk["sensitivity"]] if ax is right else [0, 1],
                color=GREY, linestyle=":", linewidth=1.2,
                transform=ax.transData if ax is right else ax.get_xaxis_transform())
        ax.plot(q["scale"], y, "o", color=INK)
        # left: centred above the dot, in the room left above the plateau; right: to its
        # right, above the flat tail (the curve falls into the dot from the left)
        ax.annotate(text, (q["scale"], y), xytext=(5, 5) if ax is right else (0, 6),
                    textcoords="offset points", ha="left" if ax is right else "center",
                    va="bottom")
        log2_axis(ax, "x", ticks, every)
        # stacked on a phone, the panels share one x axis, labelled under the lower one
        ax.set(xlim=(ticks[0], x[-1]), xlabel=t("xlabel") if ax is right or layout != NARROW
               else "")
        top = ax.secondary_xaxis("top", functions=(lambda c: (c * sigma) ** 2,
                                                   lambda dk: np.sqrt(dk) / sigma))
        top.set_xscale("log", base=2)
        dks = [4.0, 64.0, 1024.0] if layout == NARROW else [1.0, 4.0, 16.0, 64.0, 256.0, 1024.0]
        top.set_xticks([v for v in dks if ticks[0] <= math.sqrt(v) / sigma <= x[-1]])
        top.xaxis.set_major_formatter("{x:g}")
        top.xaxis.set_minor_locator(NullLocator())
        top.set_xlabel(t("dk_axis"))
    right.annotate(t("peak", scale=pk["scale"], p=pk["p_winner"], dk=pk["equivalent_dk"]),
                   (pk["scale"], pk["sensitivity"]),
                   # desktop: centred over the peak, under the legend (left of the peak, its
                   # second line ran over this panel's y axis); phone (legend below): to its
                   # right, above the curve as it falls
                   xytext=(0, 6) if layout != NARROW else (4, 4), textcoords="offset points",
                   ha="center" if layout != NARROW else "left", va="bottom")
    left.set(ylim=(0, 1.22), yticks=[0, 0.25, 0.5, 0.75, 1])
    right.set(ylim=(0, 1.7 * pk["sensitivity"]))   # room for the text
    # each panel's title sits over its top axis (the dₖ scale): set in bold and a line's
    # height above that axis's label, so that the two read as two things, not as one phrase
    # ("how much the shares still respond unscaled scores at dₖ ≈")
    for ax, title in ((left, t("left_title", label=sa["winner"])), (right, t("right_title"))):
        ax.set_title(title, fontweight="bold", pad=TITLE_PAD)
    legend(right, fig, layout, "upper right")
    # the right panel's quoted value ends near the figure's right edge: more room at the sides
    # than the layout's default padding (3 pt), so it does not end at the edge
    engine = fig.get_layout_engine()
    if isinstance(engine, ConstrainedLayoutEngine):
        engine.set(w_pad=EDGE_ROOM)
        if layout == NARROW:    # stacked: the lower title closer to its panel than to the upper one
            engine.set(hspace=PANEL_GAP)
