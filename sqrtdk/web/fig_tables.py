"""Every chart's numbers as a table inside its figure (issue 20, item 5).

One function per figure, registered by the figure's name, reads the figure's own view of the
results (`needed_results(results, spec.needs)`: the paths its registration declares, so a
table cannot show a number the figure was not drawn from) and returns its tables, one per
panel of the figure where the panels show different quantities (`Table`s): column headers as
strings.toml [ui] keys (localized; `col_*`, the rulers' names), a result's own text (`Text`:
the positions' letters) or a number (`Num`: a scale), and rows of cells (value, format,
path). `html` writes them as <table>s in a closed <details> whose summary is
`ui.table_summary`; numbers are formatted as the Try-it sheets format them (never a bound
they do not reach).

Narrow by design (issue 20): a table has at most four columns of numbers, or short whole
numbers, so that it fits a 360 px phone's column without scrolling sideways (the quantity of
a panel compared across the three rulers is that table's caption, not a column group).
"""
from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup

from ..figure_ranges import SCALE_FROM
from .embed import ENTROPY_FORMAT as ENTROPY
from .embed import MEAN_SHARE_FORMAT as MEAN_SHARE
from .embed import SD_FORMAT as SD
from .embed import SHARE_FORMAT as SHARE
from .embed import is_open, is_small, split_spec, widget_number
from .markers import FIG_DATA_RE
from .numbers import bounds_for

Cell = tuple[float, str, str]    # value, format ("sig:3", "pct:1", "fixed:2", "grouped"), path
RULERS = ("raw", "sqrt", "linear")


@dataclass(frozen=True)
class Text:
    """A header shown as it is: a result's own text (a position's letter, a walk's number)."""

    text: str


@dataclass(frozen=True)
class Num:
    """A header that is a number (a scale), in the page's format, after `before` ("×")."""

    cell: Cell
    before: str = ""


Header = str | Text | Num        # str: a strings.toml [ui] key


@dataclass(frozen=True)
class Table:
    """Headers, rows of cells (the first heads its row: a number, or `Text`), optional column
    groups over the headers ((ui key, span) pairs; a header under the key "" spans both
    header rows) and an optional caption (a ui key: what the numbers are)."""

    headers: tuple[Header, ...]
    rows: tuple[tuple[Cell | Text, ...], ...]
    groups: tuple[tuple[str, int], ...] = ()
    caption: str = ""


Tables = tuple[Table, ...]
TablesOf = Callable[[Mapping[str, Any]], Tables]   # a figure's view of the results -> its tables
TABLES: dict[str, TablesOf] = {}


def table(name: str) -> Callable[[TablesOf], TablesOf]:
    """Register the tables of figure `name`; BuildError at the `@table` line when `name` has
    a table already."""
    import sys
    caller = sys._getframe(1)      # the `@table(…)` line, for a name registered twice

    def register(fn: TablesOf) -> TablesOf:
        if name in TABLES:
            from ..errors import BuildError
            raise BuildError(caller.f_code.co_filename, caller.f_lineno,
                             f"figure '{name}' has two tables: @table(\"{name}\") is "
                             "registered twice (the second would replace the first "
                             "silently); remove one, or name the figure it belongs to")
        TABLES[name] = fn
        return fn
    return register


class CellFormatError(ValueError):
    """A cell's format `_c` cannot print: told at the line of the table's function that
    asked for it (fill_tables)."""


_SPEC = re.compile(r"(?:fixed|pct|sig):\d+|grouped")


def _c(r: Mapping[str, Any], path: str, spec: str) -> Cell:
    if not _SPEC.fullmatch(spec):
        kind, digits = re.match(r"([a-z]*)\W*(\d*)", spec).groups()  # type: ignore[union-attr]
        meant = f"{kind}:{digits}" if kind in ("fixed", "pct", "sig") and digits else ""
        raise CellFormatError(f"the cell of '{path}' has format '{spec}', which is none of "
                              "'fixed:N', 'pct:N', 'sig:N' (N digits) and 'grouped'"
                              + (f"; did you mean '{meant}'?" if meant else ""))
    value: Any = r
    for part in path.split("."):
        value = value[int(part)] if isinstance(value, list) else value[part]
    return (float(value), spec, path)


def _per_ruler(name: str, r: Mapping[str, Any],
               kinds: tuple[tuple[str, str, str], ...]) -> Tables:
    """One table per (result, format, caption's ui key) of `kinds`: rows per dₖ of `name`,
    one column per ruler."""
    return tuple(Table(("col_d", *(f"ruler_{ru}" for ru in RULERS)), tuple(
        (_c(r, f"{name}.d_k.{i}", "grouped"),
         *(_c(r, f"{name}.{kind}.{ru}.{i}", spec) for ru in RULERS))
        for i in range(len(r[name]["d_k"]))), caption=caption) for kind, spec, caption in kinds)


@table("spread_hist")
def _spread_hist(r: Mapping[str, Any]) -> Tables:
    return (Table(("col_d", "col_sd", "col_pairs"), (
        (_c(r, "spread.d_small", "grouped"), _c(r, "spread.sd_small", SD),
         _c(r, "spread.n_pairs", "grouped")),
        (_c(r, "spread.d_large", "grouped"), _c(r, "spread.sd_large", SD),
         _c(r, "spread.n_pairs", "grouped")))),)


@table("spread_sd")
def _spread_sd(r: Mapping[str, Any]) -> Tables:
    return (Table(("col_d", "col_sd", "col_theory"), tuple(
        (_c(r, f"spread.d_k.{i}", "grouped"), _c(r, f"spread.sd.{i}", SD),
         _c(r, f"spread.sd_theory.{i}", SD)) for i in range(len(r["spread"]["d_k"])))),)


@table("batches")
def _batches(r: Mapping[str, Any]) -> Tables:
    n = len(r["spread"]["batches"]["ratio"])
    return (Table(("col_batch", "col_ratio", "col_theory"), tuple(
        ((i + 1.0, "grouped", ""), _c(r, f"spread.batches.ratio.{i}", "fixed:2"),
         _c(r, "spread.ratio_theory", "fixed:2")) for i in range(n))),)


@table("walk")
def _walk(r: Mapping[str, Any]) -> Tables:
    # short whole numbers: a column per walk still fits a phone
    w = r["walk"]
    steps, paths = int(w["steps"]), w["paths"]
    every = max(steps // 10, 1)
    return (Table(("col_step", *(Text(str(j + 1)) for j in range(len(paths))), "col_theory"),
                  tuple(((t * 1.0, "grouped", ""),
                         *(_c(r, f"walk.paths.{j}.{t}", "grouped") for j in range(len(paths))),
                         (t ** 0.5, "fixed:2", "")) for t in range(0, steps + 1, every)),
                  (("", 1), ("col_walks", len(paths)), ("", 1))),)


@table("saturation_bars")
def _saturation_bars(r: Mapping[str, Any]) -> Tables:
    # a row per position and a column per panel (scale): eight positions do not fit across
    sa = r["saturation"]
    picks = [min(range(len(sa["scales"])), key=lambda k: abs(sa["scales"][k] - s))
             for s in sa["shown_scales"]]
    return (Table(("col_position", *(Num(_c(r, f"saturation.scales.{k}", "sig:3"), "×")
                                     for k in picks)),
                  tuple((Text(label), *(_c(r, f"saturation.shares.{k}.{j}", SHARE)
                                        for k in picks))
                        for j, label in enumerate(sa["labels"])),
                  (("", 1), ("scale_label", len(picks)))),)


@table("saturation_sensitivity")
def _saturation_sensitivity(r: Mapping[str, Any]) -> Tables:
    sa = r["saturation"]
    # one row per doubling of the scale (the chart's grid has many more points), over the
    # scales the chart's axis shows (it starts at SCALE_FROM, above the grid's first scale)
    first = min(range(len(sa["scales"])), key=lambda k: abs(sa["scales"][k] - 1.0))
    per_octave = next(k for k in range(1, len(sa["scales"]))
                      if sa["scales"][k] >= 2 * sa["scales"][0] * (1 - 1e-9))
    picks = [k for k in range(first % per_octave, len(sa["scales"]), per_octave)
             if sa["scales"][k] >= SCALE_FROM * (1 - 1e-9)]
    # a table per panel: the winner's share; how much the shares still respond
    scale = {k: _c(r, f"saturation.scales.{k}", "sig:3") for k in picks}
    return (Table(("scale_label", "col_share"), tuple(
                (scale[k], _c(r, f"saturation.p_winner.{k}", SHARE)) for k in picks)),
            Table(("scale_label", "col_sensitivity", "col_max_offdiag"), tuple(
                (scale[k], _c(r, f"saturation.sensitivity.{k}", "sig:3"),
                 _c(r, f"saturation.max_offdiag.{k}", "sig:3")) for k in picks),
                caption="col_response"))


@table("rulers_sd")
def _rulers_sd(r: Mapping[str, Any]) -> Tables:
    return _per_ruler("rulers", r, (("sd", SD, "col_sd_scaled"),))


@table("rulers_softmax")
def _rulers_softmax(r: Mapping[str, Any]) -> Tables:
    return _per_ruler("rulers", r, (("winner_share", MEAN_SHARE, "col_winner_share"),
                                     ("entropy_bits", ENTROPY, "col_entropy_bits")))


@table("gradient_q")
def _gradient_q(r: Mapping[str, Any]) -> Tables:
    # the median line and the band's two edges (its quantiles at band_lo and band_hi) the chart
    # draws, then the share of rows below the threshold as the prose quotes it, in whole percent
    return _per_ruler("gradient", r, (("median", "sig:3", "col_median"),
                                        ("p10", "sig:3", "col_p10"),
                                        ("p90", "sig:3", "col_p90"),
                                        ("below", "pct:0", "col_below")))


def _number(cell: Cell | Text, bounds: Mapping[str, list[float]]) -> str:
    if isinstance(cell, Text):
        return cell.text
    value, spec, path = cell
    kind, digits = split_spec(spec)
    return widget_number(kind, value, digits, bounds_for(path, bounds) if path else None,
                         is_open(path), is_small(path))


def _header(h: Header, ui: Mapping[str, str], bounds: Mapping[str, list[float]]) -> str:
    if isinstance(h, Num):
        return h.before + _number(h.cell, bounds)
    return _number(h, bounds) if isinstance(h, Text) else ui[h]


def _table(t: Table, ui: Mapping[str, str], bounds: Mapping[str, list[float]]) -> Markup:
    """One table in its scroll box. The box is a named tab stop (a keyboard can scroll it
    without JavaScript); explainer.js takes the stop away while the table fits its column."""
    name = ui[t.caption] if t.caption else ui["table_summary"]
    out = [Markup('<div class="fig-data-scroll" tabindex="0" role="group" aria-label="{}">'
                  '<table>').format(name)]
    if t.caption:
        out.append(Markup("<caption>{}</caption>").format(name))
    th = Markup('<th scope="col">{}</th>')
    if t.groups:
        # a header under the empty group spans both header rows; the others sit under their
        # group's header, which the <colgroup>s give its columns
        out.extend(Markup('<colgroup span="{}"></colgroup>').format(span) for _, span in t.groups)
        out.append(Markup("<thead><tr>"))
        first: list[Markup] = []
        second: list[Markup] = []
        at = 0
        for key, span in t.groups:
            heads = [_header(h, ui, bounds) for h in t.headers[at:at + span]]
            at += span
            if key:
                first.append(Markup('<th scope="colgroup" colspan="{}">{}</th>').format(
                    span, ui[key]))
                second.extend(th.format(h) for h in heads)
            else:
                first.extend(Markup('<th scope="col" rowspan="2">{}</th>').format(h)
                             for h in heads)
        out.append(Markup("").join(first) + Markup("</tr><tr>") + Markup("").join(second)
                   + Markup("</tr></thead><tbody>"))
    else:
        out.append(Markup("<thead><tr>") + Markup("").join(
            th.format(_header(h, ui, bounds)) for h in t.headers)
            + Markup("</tr></thead><tbody>"))
    for row in t.rows:
        head, *cells = (_number(c, bounds) for c in row)
        out.append(Markup('<tr><th scope="row">{}</th>').format(head) + Markup("").join(
            Markup("<td>{}</td>").format(c) for c in cells) + Markup("</tr>"))
    out.append(Markup("</tbody></table></div>"))
    return Markup("").join(out)


def html(tables: Tables, ui: Mapping[str, str], bounds: Mapping[str, list[float]]) -> Markup:
    """A figure's tables inside one closed <details>, words localized from `ui`; raises
    KeyError naming a missing ui key."""
    return (Markup('<details class="fig-data"><summary>{}</summary><div class="fig-data-tables">'
                   ).format(ui["table_summary"])
            + Markup("").join(_table(t, ui, bounds) for t in tables)
            + Markup("</div></details>"))


def fill_tables(text: str, ui: Mapping[str, str], results: Mapping[str, Any]) -> str:
    """`text` with each figure's table marker (markers.fig_data) replaced by its table
    (figures without a registered table lose the marker). A path the table's function reads
    that the figure's `needs` do not list is a BuildError at the line that reads it."""
    from ..errors import BuildError, raised_words
    from ..results_paths import NotNeededError, needed_results, reader_line
    needs = figure_needs()

    def one(m: re.Match[str]) -> str:
        name = m.group(1)
        if name not in TABLES or name not in needs:
            return ""
        view = needed_results(results, needs[name])
        try:
            tables = TABLES[name](view)
        except NotNeededError as e:
            at = e.at_reader(TABLES[name])
            raise BuildError(at.file, at.line, at.message(name, f"the table of figure '{name}'")
                             ) from None
        except CellFormatError as e:
            raise BuildError(*reader_line(TABLES[name], e), f"the table of figure '{name}': "
                             f"{e}") from None
        except (Exception, SystemExit) as e:    # a mistake of the table's own code
            raise BuildError(*reader_line(TABLES[name], e), f"the table of figure '{name}' "
                             f"stops here with {raised_words(e)}; fix its code") from None
        problem = _misshapen(tables, ui)
        if problem:
            raise BuildError(*_line_of(TABLES[name]), f"the table of figure '{name}': "
                             f"{problem}") from None
        return _html_of(tables, ui, results.get("meta", {}).get("bounds", {}))
    return FIG_DATA_RE.sub(one, text)


def check_table_names(figures: list[str]) -> None:
    """Raise BuildError at its `@table` line for a table registered under a name that is
    none of `figures` (the registered figures): its table would be shown nowhere, and its
    figure published without one, with 'did you mean'."""
    from ..errors import BuildError, suggest
    for name, fn in TABLES.items():
        if name not in figures:
            raise BuildError(*_line_of(fn), f"@table(\"{name}\") names no figure, so its table "
                             f"is shown nowhere; {suggest(name, figures, 'figures')}")


def _line_of(fn: Callable[..., Any]) -> tuple[str, int]:
    """The file and `@table` line of a table function."""
    import inspect
    return inspect.getsourcefile(fn) or "", inspect.getsourcelines(fn)[1]


def _misshapen(tables: Any, ui: Mapping[str, str]) -> str:
    """What is wrong with what a table function returned, for its message ("" if nothing):
    not a tuple of `Table`s, a header that is no [ui] key, a row whose number of cells is
    not the number of headers (the table would be drawn ragged, its columns under the wrong
    headers), a cell that is neither `Text` nor (number, format, path)."""
    if not isinstance(tables, tuple) or not all(isinstance(t, Table) for t in tables):
        return (f"it returns {type(tables).__name__}, not a tuple of Table(…) (one table: "
                "'return (Table(…),)', with the comma)")
    for t in tables:
        for key in [h for h in t.headers if isinstance(h, str)] + \
                [k for k, _ in t.groups if k] + ([t.caption] if t.caption else []):
            if key not in ui:
                from ..errors import suggest
                return (f"the header '{key}' is no [ui] key of strings.toml; "
                        + suggest(key, [k for k in ui if k.startswith("col_")] or ui, "keys"))
        for i, row in enumerate(t.rows):
            if len(row) != len(t.headers):
                return (f"row {i + 1} has {len(row)} cells under {len(t.headers)} headers; "
                        "give every row one cell per header")
            for cell in row:
                if isinstance(cell, Text):
                    continue
                if not (isinstance(cell, tuple) and len(cell) == 3
                        and isinstance(cell[0], (int, float)) and not isinstance(cell[0], bool)
                        and isinstance(cell[1], str) and _SPEC.fullmatch(cell[1])
                        and isinstance(cell[2], str)):
                    return (f"row {i + 1} holds the cell {cell!r}, which is neither Text(…) "
                            "nor (number, format, path); make it with _c(r, path, format)")
    return ""


_MADE: dict[tuple[Any, ...], str] = {}   # this process (--serve rebuilds): table HTML by input


def _html_of(t: Tables, ui: Mapping[str, str], bounds: Mapping[str, list[float]]) -> str:
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
