"""Sheet 1's figures: the two histograms, the SD against d, the batches, the random walk."""
from __future__ import annotations

import math
from typing import Any

import matplotlib as mpl
import numpy as np
from matplotlib.legend_handler import HandlerTuple
from matplotlib.lines import Line2D

from . import NARROW, figure
from .draw import (
    BLUE,
    CYCLE,
    GREY,
    INK,
    LIGHT,
    VERMILLION,
    Canvas,
    Labels,
    legend,
    log2_axis,
    panels,
    powers_of_two,
    text_ink,
)


@figure("spread_hist",
        needs=("spread.grid.hist", "spread.grid.z_edges", "spread.d_k", "spread.d_small",
               "spread.d_large", "spread.sd_small", "spread.sd_large", "spread.n_pairs"),
        labels={"title": (), "xlabel": (), "ylabel": (), "legend": ("d", "sd")})
def spread_hist(fig: Canvas, r: dict[str, Any], t: Labels, layout: str) -> None:
    """Histograms of q·k at the small and the large d (all batches pooled), one axis."""
    sp = r["spread"]
    (ax,) = panels(fig, 1, layout, height=1.25)
    z = np.asarray(sp["grid"]["z_edges"])
    for size, color in (("small", BLUE), ("large", VERMILLION)):
        d = sp[f"d_{size}"]
        edges = z * math.sqrt(d)
        counts = np.asarray(sp["grid"]["hist"][sp["d_k"].index(d)][0])
        density = counts / (sp["n_pairs"] * np.diff(edges))
        ax.stairs(density, edges, fill=True, facecolor=mpl.colors.to_rgba(color, 0.25),
                  edgecolor=color, linewidth=1.3, label=t("legend", d=d, sd=sp[f"sd_{size}"]))
    reach = 4.2 * sp["sd_large"]
    ax.set(xlim=(-reach, reach), ylim=(0, None), title=t("title"), xlabel=t("xlabel"),
           ylabel=t("ylabel"))
    if layout == NARROW:
        ax.yaxis.set_major_locator(mpl.ticker.MaxNLocator(4))
    legend(ax, fig, layout, "upper right")


@figure("spread_sd",
        needs=("spread.d_k", "spread.sd", "spread.sd_theory", "spread.d_small", "spread.d_large",
               "spread.n_pairs"),
        labels={"title": (), "xlabel": (), "ylabel": (), "theory": (), "measured": ("n",),
                "point": ("d", "sd")})
def spread_sd(fig: Canvas, r: dict[str, Any], t: Labels, layout: str) -> None:
    """The measured SD of q·k against d on log–log axes, beside √d."""
    sp = r["spread"]
    d, sd = sp["d_k"], sp["sd"]
    (ax,) = panels(fig, 1, layout, height=1.3)
    ax.plot(d, sp["sd_theory"], color=GREY, linestyle="--", label=t("theory"))
    ax.plot(d, sd, "o", color=BLUE, label=t("measured", n=sp["n_pairs"]))
    for dq in (sp["d_small"], sp["d_large"]):
        i = d.index(dq)
        ax.plot(dq, sd[i], "o", markersize=11, markerfacecolor="none", color=VERMILLION)
        # below the line to the right (the line rises away from the text); on a phone the
        # large one reads leftwards, above the line
        right = dq == sp["d_small"] or layout != NARROW
        offset = (10, -9) if right else (-4, 12)
        ax.annotate(t("point", d=dq, sd=sd[i]), (dq, sd[i]), xytext=offset,
                    textcoords="offset points", va="center", ha="left" if right else "right",
                    color=text_ink(VERMILLION))
    every = 2 if layout == NARROW else 1
    log2_axis(ax, "x", [float(x) for x in d], every)
    log2_axis(ax, "y", powers_of_two(sd + sp["sd_theory"]), every)
    ax.set(ylim=(min(sd) / 1.4, max(sd) * 1.3), title=t("title"), xlabel=t("xlabel"),
           ylabel=t("ylabel"))
    legend(ax, fig, layout, "upper left")


@figure("batches",
        needs=("spread.batches.ratio", "spread.ratio_theory", "spread.d_ratio", "spread.d_small",
               "spread.d_large", "spread.batch_pairs"),
        labels={"title": ("n", "small", "large", "pairs"), "xlabel": (), "ylabel": (),
                "theory": ("ratio", "value"), "measured": (),
                "offchart": ("ratio", "small", "large")})
def batches(fig: Canvas, r: dict[str, Any], t: Labels, layout: str) -> None:
    """SD(d_large)/SD(d_small) of each independent batch, beside √(d_large/d_small)."""
    sp = r["spread"]
    ratios, theory = sp["batches"]["ratio"], sp["ratio_theory"]
    (ax,) = panels(fig, 1, layout, height=1.3)
    xs = list(range(1, len(ratios) + 1))
    ax.axhline(theory, color=GREY, ls="--", label=t("theory", ratio=sp["d_ratio"], value=theory))
    ax.plot(xs, ratios, "o", color=BLUE, markersize=7, label=t("measured"))
    lo, hi = min(*ratios, theory), max(*ratios, theory)
    sizes = {"small": sp["d_small"], "large": sp["d_large"]}
    ax.set(xticks=xs, ylim=(lo - (hi - lo), hi + 2.5 * (hi - lo)), xlabel=t("xlabel"),
           ylabel=t("ylabel"), title=t("title", n=len(ratios), pairs=sp["batch_pairs"], **sizes))
    ax.annotate(t("offchart", ratio=sp["d_ratio"], **sizes),  # the ratio itself sits far above
                xy=(0.7, 1.0), xycoords="axes fraction", xytext=(0.7, 0.8),
                textcoords="axes fraction", ha="center", va="center", color=text_ink(VERMILLION),
                arrowprops={"arrowstyle": "-|>", "color": VERMILLION, "linewidth": 1.2})
    if layout == NARROW:
        legend(ax, fig, layout, "lower left")
    else:
        ax.legend(loc="lower left", ncols=2)


@figure("walk", needs=("walk",),
        labels={"title": (), "xlabel": (), "ylabel": (), "band": (), "paths": ("n",),
                "final": ("t", "theory", "sd", "walks")})
def walk(fig: Canvas, r: dict[str, Any], t: Labels, layout: str) -> None:
    """A few ±1 random walks inside the ±√t band."""
    w = r["walk"]
    steps, theory = w["steps"], w["sd_theory"]
    ts = np.arange(steps + 1)
    (ax,) = panels(fig, 1, layout)
    # edged in GREY: the fill alone is a faint grey on the dark page, where the figure is shown
    # inverted; its edges there are mid-grey on near-black
    ax.fill_between(ts, -np.sqrt(ts), np.sqrt(ts), facecolor=LIGHT, edgecolor=GREY, linewidth=0.8,
                    label=t("band"))
    for i, path in enumerate(w["paths"]):
        ax.plot(ts, path, color=CYCLE[i % len(CYCLE)], linewidth=1.0)
    # the paths' entry shows their colours side by side (one grey line read as a path of its
    # own, drawn nowhere); matplotlib's HandlerTuple draws a tuple of handles in one key
    keys = tuple(Line2D([], [], color=CYCLE[i % len(CYCLE)], linewidth=1.0)
                 for i in range(min(3, len(w["paths"]))))
    ax.errorbar([steps], [0], yerr=[theory], color=INK, capsize=5, linewidth=1.6)
    ax.annotate(t("final", t=steps, theory=theory, sd=w["sd"], walks=w["n_walks"]),
                (steps, theory), xytext=(0, 8), textcoords="offset points", ha="right")
    lim = 1.3 * max(float(np.abs(w["paths"]).max()), 2 * theory)
    ax.set(xlim=(0, steps + 2), ylim=(-lim, lim), title=t("title"), xlabel=t("xlabel"),
           ylabel=t("ylabel"))
    handles, labels = ax.get_legend_handles_labels()
    ax.legend([*handles, keys], [*labels, t("paths", n=len(w["paths"]))],
              handler_map={tuple: HandlerTuple(ndivide=None, pad=0.1)}, handlelength=3,
              loc="lower left", ncols=1 if layout == NARROW else 2)  # the band's corner is empty
