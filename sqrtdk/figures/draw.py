"""Drawing with matplotlib: the shared style, the layouts, the labels, and the one door out.

Text stays text in the SVGs (`svg.fonttype: none`); mathtext is off (`text.parse_math:
False`), labels use Unicode (√d, ÷, pᵢ). The fonts are exactly the files named by
`sqrtdk/figure_fonts.py` (matplotlib's DejaVu and Noto Sans CJK SC from the `mplfonts` wheel,
by path): every other font the machine has is dropped from matplotlib's list, so the bytes
do not depend on it. Every SVG and PNG leaves through `save` (HOUSE_STYLE rule 3): a fixed
hash salt per figure, no date, no creator, the same bytes on every rebuild.

Sizes: WIDE figures are 7 in (672 CSS px) wide for a 40 rem column, type 9.5–11 pt; NARROW
ones are 3.6 in (346 px) for a 360 px phone's 328 px column, type ≥ 9 pt, so the smallest
text is at least 12 × 328/346 ≈ 11.4 CSS px on the phone.
"""
from __future__ import annotations

import io
import logging
import math
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import matplotlib as mpl
from cycler import cycler
from matplotlib import font_manager
from matplotlib.axes import Axes
from matplotlib.figure import Figure, SubFigure
from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

from ..errors import suggest
from ..figure_fonts import cjk_font_file, matplotlib_font_dir
from ..formats import FormatError, check_value
from . import NARROW, WIDE, Registration, needed_results

# "findfont: Font family 'X' not found" for every text drawn: the build warns once instead
logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)

# Okabe & Ito (2008) colour-blind-safe palette, plus greys. LIGHT fills a band behind lines;
# the dark page shows each figure inverted (style.css's --fig-filter, invert(0.9)), so a
# light grey there turns dark grey on near-black: #E4E4E4 read 1.3:1 against the background
# in both themes (a reader lost figure 4's band in dark mode), #CCCCCC reads 1.6:1 light and
# 1.7:1 dark (chromium's pixels), with the lines drawn over it still clear.
BLUE, VERMILLION, GREEN, ORANGE = "#0072B2", "#D55E00", "#009E73", "#E69F00"
SKY, PURPLE, GREY, LIGHT, INK = "#56B4E9", "#CC79A7", "#7F7F7F", "#CCCCCC", "#222222"
CYCLE = (BLUE, VERMILLION, GREEN, ORANGE, SKY, PURPLE)
TEXT_CONTRAST = 4.5     # WCAG 2.2 SC 1.4.3: text under 18 pt against its background


def relative_luminance(color: str) -> float:
    """WCAG 2.x relative luminance (0 black .. 1 white) of an sRGB colour such as '#D55E00'."""
    from matplotlib.colors import to_rgb

    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (linear(c) for c in to_rgb(color))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG 2.x contrast ratio of two colours, 1 (same) to 21 (black on white)."""
    hi, lo = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@cache
def text_ink(color: str, background: str = "white") -> str:
    """`color` for text: the same hue and saturation (HLS), darkened in steps of 1 % of
    lightness until it stands TEXT_CONTRAST (4.5:1) against `background`; `color` itself
    when it already does. A line keeps its colour (3:1 is enough for a graphic, SC 1.4.11),
    the words naming it take this one: the palette's vermillion stood 3.9:1 on white, its
    green 3.4:1, the grey 4.0:1. Returns '#rrggbb'. The dark page shows the figure through
    style.css's filter; tests/test_figures.py checks the text there too."""
    import colorsys

    from matplotlib.colors import to_hex, to_rgb
    h, lightness, sat = colorsys.rgb_to_hls(*to_rgb(color))
    ink = to_hex(to_rgb(color))
    while contrast(ink, background) < TEXT_CONTRAST and lightness > 0:
        lightness = max(0.0, lightness - 0.01)
        ink = to_hex(colorsys.hls_to_rgb(h, lightness, sat))
    return ink.upper()
RULER_STYLE = (("raw", VERMILLION, "o"), ("sqrt", BLUE, "s"), ("linear", GREEN, "^"))

WIDTH = {WIDE: 7.0, NARROW: 3.6}                    # inches
PANEL_HEIGHT = {WIDE: 3.6, NARROW: 2.55}            # inches per row of panels
TYPE = {  # point sizes per layout
    WIDE: {"title": 11.0, "label": 10.5, "tick": 9.5, "legend": 9.5, "note": 9.5},
    NARROW: {"title": 10.0, "label": 9.5, "tick": 9.0, "legend": 9.0, "note": 9.0},
}


def style(layout: str) -> dict[str, Any]:
    """matplotlib rc settings for `layout`."""
    t = TYPE[layout]
    return {
        "figure.figsize": (WIDTH[layout], PANEL_HEIGHT[layout]), "figure.facecolor": "white",
        "savefig.facecolor": "white", "axes.facecolor": "white", "axes.edgecolor": "#333333",
        "axes.linewidth": 0.8, "axes.spines.top": False, "axes.spines.right": False,
        "axes.titlesize": t["title"], "axes.labelsize": t["label"],
        "figure.titlesize": t["title"], "figure.labelsize": t["label"],
        "axes.prop_cycle": cycler(color=CYCLE), "font.size": t["note"],
        "xtick.labelsize": t["tick"], "ytick.labelsize": t["tick"],
        "legend.fontsize": t["legend"], "legend.title_fontsize": t["legend"],
        "legend.frameon": False, "lines.linewidth": 1.6, "lines.markersize": 5,
        "text.color": INK, "text.parse_math": False, "svg.fonttype": "none",
        "font.sans-serif": ["DejaVu Sans"],  # what the SVG writes for the generic sans-serif
    }


class LabelUseError(TypeError):
    """A drawer's call of its `Labels` that the registration does not allow (a label it does
    not register, or other fields): a mistake in the figure's code, told at that call's line
    (figures_stage.draw_job)."""


class NoPanelError(ValueError):
    """A drawer that made no axes (no `panels(…)` call): matplotlib's constrained layout
    then warned 'There are no gridspecs with layoutgrids', which says nothing of the cause;
    told at the figure's `@figure` line (figures_stage.draw_job)."""


def _drew_a_panel(spec: Registration, canvas: Figure | SubFigure) -> None:
    """NoPanelError when `spec`'s drawer left `canvas` without a single axes."""
    if not canvas.get_axes():
        raise NoPanelError(f"'{spec.name}' draws no panel")


class Labels:
    """The words of one figure in one language; checks each call against the registration
    (a label or field the registration does not declare is a bug in the drawer)."""

    def __init__(self, table: Mapping[str, str], spec: Registration):
        self.table, self.spec = table, spec

    def __call__(self, key: str, **values: Any) -> str:
        """Label `key` formatted with `values` (str.format fields of the TOML string)."""
        declared = self.spec.labels.get(key)
        name = self.spec.name
        if declared is None:
            raise LabelUseError(
                f"figure '{name}' uses label '{key}', which its @figure(…, labels=…) does not "
                f"register ({suggest(key, self.spec.labels, 'labels')}); use a registered "
                f"label, or register '{key}' and give it a text under [{name}] in every "
                "figures.toml")
        if set(values) != set(declared):
            raise LabelUseError(
                f"figure '{name}' formats label '{key}' with fields {sorted(values)}, but its "
                f"@figure(…, labels=…) registers {sorted(declared)} for it; pass exactly "
                "those, or change the registration")
        try:
            check_value(self.table[key], values)   # a percentage of 2.01, decimals on a count
            return self.table[key].format(**values)
        except FormatError as e:
            err = ValueError(str(e))
            err.label_key = key  # type: ignore[attr-defined]
            raise err from None
        except (ValueError, KeyError, IndexError, AttributeError) as e:
            err = ValueError(f"cannot format {self.table[key]!r}: {e}")
            err.label_key = key  # type: ignore[attr-defined]
            raise err from None


GENERIC_FAMILIES = {"serif", "sans-serif", "sans", "monospace", "cursive", "fantasy"}


def missing_fonts(families: list[str]) -> list[str]:
    """The names in a font_family list that matplotlib has no font for (generic names such as
    sans-serif always resolve). matplotlib would log a line for every text it draws with a
    missing family; the caller warns once instead."""
    register_cjk_font()
    installed = {f.name for f in font_manager.fontManager.ttflist}
    return [f for f in families if f not in installed and f.lower() not in GENERIC_FAMILIES]


def missing_glyph(families: list[str], text: str) -> str | None:
    """The first character of `text` (not a space) that none of the fonts `families` name
    has a glyph for, or None: matplotlib would draw a box for it (and warn in the terminal
    for every drawing). Families with no font are left out (`missing_fonts` warns of them)."""
    register_cjk_font()
    covered: set[int] = set()
    for family in families:
        try:
            path = font_manager.findfont(font_manager.FontProperties(family=family),
                                         fallback_to_default=False)
        except ValueError:
            continue
        covered |= _charmap(path)
    return next((c for c in text if not c.isspace() and ord(c) not in covered), None)


@cache
def _charmap(path: str) -> frozenset[int]:
    """The code points the font file at `path` has glyphs for."""
    from matplotlib.ft2font import FT2Font
    return frozenset(FT2Font(path).get_charmap())


def installed_fonts() -> list[str]:
    """The font family names matplotlib can use, sorted."""
    register_cjk_font()
    return sorted({f.name for f in font_manager.fontManager.ttflist})


@cache
def register_cjk_font() -> None:
    """Make matplotlib's font list exactly the shipped fonts (`fonts.font_files`), once per
    process: the system's fonts are dropped (a system "Noto Sans CJK SC" would otherwise win
    over the bundled one, which matplotlib lists last) and the CJK font is added by path."""
    manager = font_manager.fontManager
    own = matplotlib_font_dir().resolve()
    manager.ttflist = [f for f in manager.ttflist if Path(f.fname).resolve().parent == own]
    manager.afmlist = []       # PostScript metrics: only the PS/PDF backends use them
    manager.addfont(str(cjk_font_file()))
    font_manager.FontManager._findfont_cached.cache_clear()  # type: ignore[attr-defined]


Canvas = Figure | SubFigure


def _rc(settings: dict[str, Any]) -> Any:
    """rc settings for rc_context (its stubs list every key as a literal type)."""
    return settings


def panels(fig: Canvas, n: int, layout: str, height: float = 1.0, **kw: Any) -> list[Axes]:
    """n axes side by side (WIDE) or stacked (NARROW); sizes the top-level figure to fit
    (`height` scales a phone panel's height)."""
    rows, cols = (1, n) if layout == WIDE else (n, 1)
    if isinstance(fig, Figure):
        per = PANEL_HEIGHT[layout] * (height if layout == NARROW else 1.0)
        fig.set_size_inches(WIDTH[layout], per * rows + (0.3 if rows > 1 else 0))
    axes = fig.subplots(rows, cols, squeeze=False, **kw)
    return [ax for row in axes for ax in row]


def legend(ax: Axes, fig: Canvas, layout: str, loc: str, **kw: Any) -> None:
    """The axes' legend at `loc` on a desktop; on a phone below the figure, where it covers
    no data."""
    if layout == NARROW:
        handles, labels = ax.get_legend_handles_labels()
        fig.legend(handles, labels, loc="outside lower center", ncols=1, **kw)
    else:
        ax.legend(loc=loc, **kw)  # type: ignore[call-overload]  # loc is one of matplotlib's


def log2_axis(ax: Axes, which: str, ticks: list[float], every: int = 1) -> None:
    """Base-2 log scale on axis `which` ("x" or "y"), ticks labelled 1/8, 1, 32; `every`
    keeps one tick label in so many (a phone has room for fewer)."""
    getattr(ax, f"set_{which}scale")("log", base=2)
    axis = getattr(ax, f"{which}axis")
    axis.set_major_locator(FixedLocator(ticks))
    shown = set(ticks[::every]) | {ticks[-1]}
    axis.set_major_formatter(FuncFormatter(
        lambda v, _: "" if v not in shown else (f"{v:g}" if v >= 1 else f"1/{1 / v:g}")))
    axis.set_minor_locator(NullLocator())


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def log10_axis(ax: Axes, which: str) -> None:
    """Base-10 log scale on axis `which`, ticks labelled 10⁻³, 1, 10 in Unicode (mathtext
    is off, so matplotlib's default $10^{-3}$ would show its TeX)."""
    getattr(ax, f"set_{which}scale")("log")
    axis = getattr(ax, f"{which}axis")
    axis.set_major_formatter(FuncFormatter(
        lambda v, _: "1" if v == 1 else f"10{str(round(math.log10(v))).translate(_SUPERSCRIPT)}"))
    axis.set_minor_locator(NullLocator())


def powers_of_two(values: list[float]) -> list[float]:
    """Powers of two covering `values`."""
    lo, hi = math.floor(math.log2(min(values))), math.ceil(math.log2(max(values)))
    return [2.0**k for k in range(lo, hi + 1)]


def new_figure(layout: str) -> Figure:
    """An empty figure with constrained layout at the layout's default size."""
    return Figure(figsize=(WIDTH[layout], PANEL_HEIGHT[layout]), layout="constrained")


def draw(spec: Registration, results: Mapping[str, Any], table: Mapping[str, str],
         font_family: list[str], layout: str) -> Figure:
    """Draw figure `spec` from the paths of `results` it needs, in `layout`."""
    register_cjk_font()
    with mpl.rc_context(_rc({**style(layout), "font.family": font_family})):
        fig = new_figure(layout)
        spec.draw(fig, needed_results(results, spec.needs), Labels(table, spec), layout)
        _drew_a_panel(spec, fig)
        if fit_titles(fig):
            lay_out(fig)                     # the wrapped titles take their room
        frame_marker_keys(fig)
        keep_layout(fig)
        return fig


def _bare_marker(handle: Any) -> bool:
    """Whether a legend entry is a marker without a line: how a measured point looks."""
    from matplotlib.lines import Line2D
    return (isinstance(handle, Line2D)
            and handle.get_marker() not in (None, "", " ", "None", "none")
            and handle.get_linestyle() in ("", " ", "None", "none"))


def frame_marker_keys(fig: Figure) -> None:
    """Give its frame to every legend (an axes', the figure's, a subfigure's) that lies over a
    plotting area and has an entry drawn as a bare marker. The house style has no frame
    (rc `legend.frameon`), and such a key entry, the same dot as the measurements, read as
    one more of them: figure 3's 8 batches showed a ninth dot between batches 3 and 4. A
    key of lines or swatches, or one beside the plot, stays unframed. Call it once the
    figure is laid out (where the legends are)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.legend import Legend
    renderer = FigureCanvasAgg(fig).get_renderer()  # type: ignore[no-untyped-call]  # extents
    plots = [ax.get_window_extent(renderer) for ax in fig.axes]
    for leg in fig.findobj(Legend):
        if leg.get_frame_on() or not any(_bare_marker(h) for h in leg.legend_handles):
            continue
        box = leg.get_window_extent(renderer)
        if any(plot.overlaps(box) for plot in plots):
            leg.set_frame_on(True)


def lay_out(fig: Figure) -> None:
    """Place the axes with the figure's layout engine (constrained layout), now."""
    engine = fig.get_layout_engine()
    if engine is not None:
        engine.execute(fig)


def keep_layout(fig: Figure) -> None:
    """Keep the axes where the last layout put them: the figure drops its layout engine, so
    saving neither lays it out again nor draws it once first with drawing disabled (what
    matplotlib's savefig does for a figure with an engine). That was about 60% of a figure's
    drawing time, and the bytes are the same. (None, not "none": "none" leaves a placeholder
    engine that savefig still draws first for; the rc settings have no autolayout, so None
    means no engine.)"""
    fig.set_layout_engine(None)


def fit_titles(fig: Figure, share: float = 0.96) -> bool:
    """Break every title (of the axes and the figure) that is wider than `share` of the
    figure onto more lines, at spaces where it has them (CJK text breaks between any two
    characters), so that no title is cut off at the figure's edge. Lays the figure out first
    (to know where each title centres); returns whether a title was broken (then the layout
    is out of date)."""
    import textwrap

    from matplotlib.backends.backend_agg import FigureCanvasAgg
    renderer = FigureCanvasAgg(fig).get_renderer()  # type: ignore[no-untyped-call]  # extents
    lay_out(fig)                             # where the axes will be, so where titles centre
    full = fig.bbox.width

    def room(centre: float) -> float:     # a centred line fits within both figure edges
        return share * 2 * min(centre, full - centre)

    titles = [(ax.title, room(ax.get_position().x0 * full + ax.get_position().width * full / 2))
              for ax in fig.get_axes()]
    titles += [(t, share * full) for t in (getattr(f, "_suptitle", None)
                                          for f in [fig, *fig.subfigs]) if t]
    wrapped = False
    for title, limit in titles:
        text = title.get_text()
        width = title.get_window_extent(renderer).width
        if not text or width <= limit:
            continue
        lines = text.split("\n")
        longest = max(len(line) for line in lines)
        chars = max(8, int(longest * limit / width))
        title.set_text("\n".join(wrapped for line in lines
                                 for wrapped in textwrap.wrap(line, chars) or [""]))
        wrapped = True
    return wrapped


def save(fig: Figure, salt: str, fmt: str = "svg", layout: str = WIDE) -> bytes:
    """The one door out: `fig` as SVG (text as text) or PNG bytes, ids salted with `salt`
    so the bytes are the same every time; no date, no creator, no software version."""
    buf = io.BytesIO()
    with mpl.rc_context(_rc({**style(layout), "svg.hashsalt": salt, "svg.fonttype": "none"})):
        if fmt == "svg":
            fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
        else:
            fig.savefig(buf, format="png", dpi=100, metadata={"Software": None})
    return buf.getvalue()


def render(spec: Registration, lang: str, layout: str, results: Mapping[str, Any],
           table: Mapping[str, str], font_family: list[str]) -> bytes:
    """Figure `spec` in language `lang` and `layout`, as SVG bytes."""
    return save(draw(spec, results, table, font_family, layout), f"{spec.name}.{lang}.{layout}",
                layout=layout)


CARD_SIZE = (12.0, 6.3)   # inches at 100 dpi: the 1200 × 630 px social card


def render_card(spec: Registration, lang: str, results: Mapping[str, Any],
                table: Mapping[str, str], card: Mapping[str, str], font_family: list[str]
                ) -> bytes:
    """The social card of language `lang`: the article's title and subtitle above figure
    `spec`, as a 1200 × 630 PNG (what link previews show)."""
    return card_figure(spec, lang, results, table, card, font_family)[0]


def card_figure(spec: Registration, lang: str, results: Mapping[str, Any],
                table: Mapping[str, str], card: Mapping[str, str], font_family: list[str]
                ) -> tuple[bytes, Figure]:
    """`render_card`'s bytes and the figure they were saved from."""
    register_cjk_font()
    with mpl.rc_context(_rc({**style(WIDE), "font.family": font_family, "font.size": 16,
                             "axes.titlesize": 17, "axes.labelsize": 16, "xtick.labelsize": 14,
                             "ytick.labelsize": 14, "legend.fontsize": 15})):
        fig = Figure(figsize=CARD_SIZE, layout="constrained")
        head, body = fig.subfigures(2, 1, height_ratios=(1, 3.2))  # type: ignore[misc]
        # labels without fields, formatted like every other label ({{ is a literal brace)
        head.text(0.03, 0.62, card["title"].format(), fontsize=32, va="center")
        head.text(0.03, 0.18, card["subtitle"].format(), fontsize=17, color=text_ink(GREY),
                  va="center")
        spec.draw(body, needed_results(results, spec.needs), Labels(table, spec), WIDE)
        _drew_a_panel(spec, body)
        lay_out(fig)
        frame_marker_keys(fig)
        keep_layout(fig)
        return save(fig, f"card.{lang}", fmt="png"), fig


__all__ = [
    "BLUE",
    "CYCLE",
    "GREEN",
    "GREY",
    "INK",
    "LIGHT",
    "NARROW",
    "RULER_STYLE",
    "TEXT_CONTRAST",
    "TYPE",
    "VERMILLION",
    "WIDE",
    "LabelUseError",
    "Labels",
    "NoPanelError",
    "card_figure",
    "contrast",
    "draw",
    "legend",
    "log2_axis",
    "log10_axis",
    "panels",
    "powers_of_two",
    "render",
    "render_card",
    "save",
    "text_ink",
]
