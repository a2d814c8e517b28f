"""Whether a drawn figure came out as drawn: no warning from matplotlib while drawing and
saving it (a label so long that constrained layout collapsed the axes), no plot squeezed
to a sliver by the text around it, and no text past the figure's edge (a long axis label is
cut off without a warning). Run in the worker that draws
(figures_stage.draw_job); matplotlib is imported only here, when drawing.

A problem is tied to the label that causes it by drawing the figure again with each label
cut to one letter (only when there is a problem): the first label whose shortening makes
the problem go away is the one, and the longest start of it that still fits is how long it
may be. A problem no label causes belongs to the figure's code (its `@figure` line).
"""
from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

# how far past the figure's edge a text's box may reach (pixels at the figures' 100 dpi):
# a box holds the font's whole ascent and descent, which constrained layout lets reach a
# pixel or two past the edge with no glyph cut (the Chinese axis labels do)
EDGE_PX = 4.0


@contextmanager
def recorded() -> Iterator[list[str]]:
    """Every warning raised inside (matplotlib's, numpy's), as its message, instead of
    printed to the terminal (each one once)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        said: list[str] = []
        yield said
    for w in caught:
        first = " ".join(str(w.message).split()).split(". ")[0].rstrip(".")   # its sentence
        text = f"{w.category.__name__}: {first}"
        if text not in said:
            said.append(text)


def past_the_edge(fig: Any) -> str | None:
    """The first text of the drawn figure `fig` (a title, an axis label, a legend, an
    annotation: not the axes' numbers, which the labels do not make) that reaches past its
    edge, as the problem to report; None when every text lies inside."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.text import Text
    renderer = FigureCanvasAgg(fig).get_renderer()  # type: ignore[no-untyped-call]
    box = fig.bbox
    ticks = {id(label) for ax in fig.get_axes() for axis in (ax.xaxis, ax.yaxis)
             for tick in axis.get_major_ticks() + axis.get_minor_ticks()
             for label in (tick.label1, tick.label2)}     # numbers, also those not drawn
    for text in fig.findobj(Text):
        if not text.get_visible() or not text.get_text().strip() or id(text) in ticks:
            continue
        extent = text.get_window_extent(renderer)
        if extent.x0 < box.x0 - EDGE_PX or extent.x1 > box.x1 + EDGE_PX or \
                extent.y0 < box.y0 - EDGE_PX or extent.y1 > box.y1 + EDGE_PX:
            words = " ".join(text.get_text().split())
            shown = words if len(words) <= 30 else words[:29] + "…"
            return f"the text '{shown}' reaches past the figure's edge and is cut off"
    return None


# the smallest side a plot may keep (inches: 60 px at 100 dpi, about 58 CSS px wide): the
# figures' own plots are at least 1 in on each side; text that squeezes one below this
# (a title wrapped onto many lines) leaves a plot no reader can read
SMALLEST_PLOT_IN = 0.6


def squeezed(fig: Any) -> str | None:
    """The problem of a plot of `fig` squeezed below SMALLEST_PLOT_IN by the text around it;
    None when every plot keeps its room."""
    width, height = fig.get_size_inches()
    for ax in fig.get_axes():
        box = ax.get_position()
        side = min(box.width * width, box.height * height)
        if ax.get_visible() and side < SMALLEST_PLOT_IN:
            return (f"the text around a plot squeezes it to {max(side, 0) * 96:.0f} px "
                    f"(at least {SMALLEST_PLOT_IN * 96:.0f} px needed)")
    return None


Draw = Callable[[Mapping[str, str]], tuple[bytes, Any]]   # labels -> (bytes, the figure)


def checked(draw: Draw, table: Mapping[str, str]) -> tuple[bytes, str | None]:
    """`draw(table)`'s bytes and its first problem (a warning while drawing or saving, a
    plot squeezed by text, or a text past the edge), None when there is none."""
    with recorded() as said:
        blob, fig = draw(table)
    return blob, (said[0] if said else squeezed(fig) or past_the_edge(fig))


def culprit(draw: Draw, table: Mapping[str, str]) -> tuple[str, int] | None:
    """(the label of `table` whose length causes `draw`'s problem, the number of its
    characters that fit), or None when shortening no single label makes the problem go."""
    longest_first = sorted(table.items(), key=lambda kv: -len(str(kv[1])))   # the likely one
    for key, text in longest_first:
        if not isinstance(text, str) or len(text) < 2 or \
                checked(draw, {**table, key: _start(text, 1)})[1] is not None:
            continue
        fits, too_long = 1, len(text)          # the start of `fits` characters draws well
        while too_long - fits > 1:
            middle = (fits + too_long) // 2
            if checked(draw, {**table, key: _start(text, middle)})[1] is None:
                fits = middle
            else:
                too_long = middle
        return key, len(_start(text, fits))
    return None


def _start(text: str, n: int) -> str:
    """The first `n` characters of label `text`, cut before a `{field}` the cut would split
    (at least one character, so that a label is never empty)."""
    start = text[:n]
    opened = start.rfind("{")
    if opened > start.rfind("}") and not start[opened:].startswith("{{"):
        start = start[:opened]
    return start or "x"
