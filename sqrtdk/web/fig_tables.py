"""Every chart's numbers as a table inside its figure (issue 20, item 5).

One function per figure, registered by the figure's name, reads the figure's own view of the
results (`needed_results(results, spec.needs)`: the paths its registration declares, so a
table cannot show a number the figure was not drawn from) and returns a `Table`: column
headers as strings.toml [ui] keys (localized; `col_*`, the rulers' names, or a result's own
text such as the positions' letters) and rows of (value, format). `html` writes it as a
<table> in a closed <details> whose summary is `ui.table_summary`; numbers are formatted as
the Try-it sheets format them (never a bound they do not reach).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from .embed import ENTROPY_FORMAT as ENTROPY
from .embed import MEAN_SHARE_FORMAT as MEAN_SHARE
from .embed import SD_FORMAT as SD
from .embed import SHARE_FORMAT as SHARE
from .embed import is_open, split_spec, widget_number
from .markers import FIG_DATA_RE
from .numbers import bounds_for

Cell = tuple[float, str, str]    # value, format ("sig:3", "pct:1", "fixed:2", "grouped"), path
RULERS = ("raw", "sqrt", "linear")


@dataclass(frozen=True)
class Table:
    """Headers (each a ui key, or ("text", shown text)), optional column groups over them
    ((ui key, span) pairs), and rows of cells; the first column heads each row."""

    headers: tuple[str | tuple[str, str], ...]
    rows: tuple[tuple[Cell, ...], ...]
    groups: tuple[tuple[str, int], ...] = ()


TABLES: dict[str, Callable[[Mapping[str, Any]], Table]] = {}


def table(name: str) -> Callable[[Callable[[Mapping[str, Any]], Table]],
                                  Callable[[Mapping[str, Any]], Table]]:
    """Register the table of figure `name`."""
    def register(fn: Callable[[Mapping[str, Any]], Table]) -> Callable[[Mapping[str, Any]], Table]:
        TABLES[name] = fn
        return fn
    return register


def _c(r: Mapping[str, Any], path: str, spec: str) -> Cell:
    value: Any = r
    for part in path.split("."):
        value = value[int(part)] if isinstance(value, list) else value[part]
    return (float(value), spec, path)


def _per_ruler(name: str, r: Mapping[str, Any], kinds: tuple[tuple[str, str], ...]) -> Table:
    """Rows per dₖ of `name`; for each (result, format) of `kinds`, one column per ruler."""
    rows = tuple((_c(r, f"{name}.d_k.{i}", "grouped"),
                  *(_c(r, f"{name}.{kind}.{ru}.{i}", spec)
                    for kind, spec in kinds for ru in RULERS))
                 for i in range(len(r[name]["d_k"])))
    return Table(("col_d", *(f"ruler_{ru}" for _ in kinds for ru in RULERS)), rows,
                 (("", 1), *((f"col_{kind}", len(RULERS)) for kind, _ in kinds)))


@table("spread_hist")
def _spread_hist(r: Mapping[str, Any]) -> Table:
    return Table(("col_d", "col_sd", "col_pairs"), (
        (_c(r, "spread.d_small", "grouped"), _c(r, "spread.sd_small", SD),
         _c(r, "spread.n_pairs", "grouped")),
        (_c(r, "spread.d_large", "grouped"), _c(r, "spread.sd_large", SD),
         _c(r, "spread.n_pairs", "grouped"))))


@table("spread_sd")
def _spread_sd(r: Mapping[str, Any]) -> Table:
    return Table(("col_d", "col_sd", "col_theory"), tuple(
        (_c(r, f"spread.d_k.{i}", "grouped"), _c(r, f"spread.sd.{i}", SD),
         _c(r, f"spread.sd_theory.{i}", SD)) for i in range(len(r["spread"]["d_k"]))))


@table("batches")
def _batches(r: Mapping[str, Any]) -> Table:
    n = len(r["spread"]["batches"]["ratio"])
    return Table(("col_batch", "col_ratio", "col_theory"), tuple(
        ((i + 1.0, "grouped", ""), _c(r, f"spread.batches.ratio.{i}", "fixed:2"),
         _c(r, "spread.ratio_theory", "fixed:2")) for i in range(n)))


@table("walk")
def _walk(r: Mapping[str, Any]) -> Table:
    w = r["walk"]
    steps, paths = int(w["steps"]), w["paths"]
    every = max(steps // 10, 1)
    return Table(("col_step", *(("text", str(j + 1)) for j in range(len(paths))), "col_theory"),
                 tuple(((t * 1.0, "grouped", ""),
                        *(_c(r, f"walk.paths.{j}.{t}", "grouped") for j in range(len(paths))),
                        (t ** 0.5, "fixed:2", "")) for t in range(0, steps + 1, every)),
                 (("", 1), ("col_walks", len(paths)), ("", 1)))


def _scale_rows(r: Mapping[str, Any], picks: list[int], cols: Callable[[int], tuple[Cell, ...]]
                ) -> tuple[tuple[Cell, ...], ...]:
    return tuple((_c(r, f"saturation.scales.{k}", "sig:3"), *cols(k)) for k in picks)


@table("saturation_bars")
def _saturation_bars(r: Mapping[str, Any]) -> Table:
    sa = r["saturation"]
    picks = [min(range(len(sa["scales"])), key=lambda k: abs(sa["scales"][k] - s))
             for s in sa["shown_scales"]]
    return Table(("scale_label", *(("text", label) for label in sa["labels"])), _scale_rows(
        r, picks, lambda k: tuple(_c(r, f"saturation.shares.{k}.{j}", SHARE)
                                  for j in range(len(sa["labels"])))))


@table("saturation_sensitivity")
def _saturation_sensitivity(r: Mapping[str, Any]) -> Table:
    sa = r["saturation"]
    # one row per doubling of the scale (the chart's grid has many more points)
    first = min(range(len(sa["scales"])), key=lambda k: abs(sa["scales"][k] - 1.0))
    per_octave = next(k for k in range(1, len(sa["scales"]))
                      if sa["scales"][k] >= 2 * sa["scales"][0] * (1 - 1e-9))
    picks = list(range(first % per_octave, len(sa["scales"]), per_octave))
    return Table(("scale_label", "col_share", "col_sensitivity", "col_max_offdiag"),
                 _scale_rows(r, picks, lambda k: (
                     _c(r, f"saturation.p_winner.{k}", SHARE),
                     _c(r, f"saturation.sensitivity.{k}", "sig:3"),
                     _c(r, f"saturation.max_offdiag.{k}", "sig:3"))))


@table("rulers_sd")
def _rulers_sd(r: Mapping[str, Any]) -> Table:
    return _per_ruler("rulers", r, (("sd", SD),))


@table("rulers_softmax")
def _rulers_softmax(r: Mapping[str, Any]) -> Table:
    return _per_ruler("rulers", r, (("winner_share", MEAN_SHARE), ("entropy_bits", ENTROPY)))


@table("gradient_q")
def _gradient_q(r: Mapping[str, Any]) -> Table:
    # the share of rows below the threshold as the prose quotes it, in whole percent
    return _per_ruler("gradient", r, (("median", "sig:3"), ("below", "pct:0")))


def _number(cell: Cell, bounds: Mapping[str, list[float]]) -> str:
    value, spec, path = cell
    kind, digits = split_spec(spec)
    return widget_number(kind, value, digits, bounds_for(path, bounds) if path else None,
                         is_open(path))


def _header(key: str | tuple[str, str], ui: Mapping[str, str]) -> str:
    return key[1] if isinstance(key, tuple) else ui[key]


def html(t: Table, ui: Mapping[str, str], bounds: Mapping[str, list[float]]) -> Markup:
    """The table inside a closed <details>, headers localized from `ui`; raises KeyError
    naming a missing ui key."""
    # the box scrolls sideways on a phone: the keyboard reaches it, and it is named
    out = [Markup('<details class="fig-data"><summary>{0}</summary><div class="fig-data-scroll" '
                  'tabindex="0" role="group" aria-label="{0}"><table><thead>'
                  ).format(ui["table_summary"])]
    if t.groups:
        out.append(Markup("<tr>"))
        for key, span in t.groups:
            out.append(Markup('<th scope="colgroup" colspan="{}">{}</th>').format(
                span, ui[key] if key else ""))
        out.append(Markup("</tr>"))
    out.append(Markup("<tr>") + Markup("").join(
        Markup('<th scope="col">{}</th>').format(_header(h, ui)) for h in t.headers)
        + Markup("</tr></thead><tbody>"))
    for row in t.rows:
        head, *cells = (_number(c, bounds) for c in row)
        out.append(Markup('<tr><th scope="row">{}</th>').format(head) + Markup("").join(
            Markup("<td>{}</td>").format(c) for c in cells) + Markup("</tr>"))
    out.append(Markup("</tbody></table></div></details>"))
    return Markup("").join(out)


def fill_tables(text: str, ui: Mapping[str, str], results: Mapping[str, Any]) -> str:
    """`text` with each figure's table marker (markers.fig_data) replaced by its table
    (figures without a registered table lose the marker). Raises KeyError for a path outside
    the figure's `needs` (a bug in the table's function)."""
    from ..results_paths import needed_results
    needs = figure_needs()

    def one(m: re.Match[str]) -> str:
        name = m.group(1)
        if name not in TABLES or name not in needs:
            return ""
        view = needed_results(results, needs[name])
        return _html_of(TABLES[name](view), ui, results.get("meta", {}).get("bounds", {}))
    return FIG_DATA_RE.sub(one, text)


_MADE: dict[tuple[Any, ...], str] = {}   # this process (--serve rebuilds): table HTML by input


def _html_of(t: Table, ui: Mapping[str, str], bounds: Mapping[str, list[float]]) -> str:
    """`html(t, ui, bounds)`, remembered by its inputs (a text edit fills the same tables)."""
    key = (t, tuple(sorted(ui.items())), repr(sorted(bounds.items())))
    made = _MADE.get(key)
    if made is None:
        made = str(html(t, ui, bounds))
        if len(_MADE) >= 256:
            _MADE.clear()
        _MADE[key] = made
    return made


def figure_needs() -> dict[str, tuple[str, ...]]:
    """Each registered figure's `needs`, read from the registrations without importing the
    figure modules (which import matplotlib: a text edit imports neither it nor numpy); the
    modules are imported only when a registration cannot be read that way."""
    from ..cache import Cache
    from ..figure_registrations import registered_figures
    read = registered_figures(Cache(None))
    if read is not None:
        return {name: r.needs for name, r in read.items()}
    from ..figures import load
    return {name: spec.needs for name, spec in load().items()}
