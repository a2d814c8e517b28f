"""One precision and one kind of number per quantity (issue 20's leftovers): a result shown in
the prose (a quoted number), in a Try-it sheet (a slot) and in a figure's table is shown to the
same precision everywhere, as a percent everywhere or nowhere (a share read 0.879 in a table
and 87.9% in a figure's table), and each column of a table has one format. Read from the built pages and from
the code's own registries (embed.FOLLOW and SLOTS, fig_tables.TABLES); nothing here depends
on the article's wording or on how many figures or tables it has."""
from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Callable
from html.parser import HTMLParser
from typing import Any

from sqrtdk.results_paths import needed_results
from sqrtdk.science.results import at
from sqrtdk.web.embed import FOLLOW, SLOTS
from sqrtdk.web.fig_tables import TABLES, figure_needs


class Quotes(HTMLParser):
    """(data-key, data-format) of every quoted number of a page, and the formats of the
    quoted numbers in each column of each of the article's own tables."""

    def __init__(self) -> None:
        super().__init__()
        self.quotes: list[tuple[str, str]] = []
        self.columns: dict[tuple[int, int], set[str]] = defaultdict(set)
        self.table, self.col, self.in_fig_data = -1, -1, 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "details" and "fig-data" in (a.get("class") or ""):
            self.in_fig_data += 1
        elif tag == "table":
            self.table += 1
        elif tag == "tr":
            self.col = -1
        elif tag in ("td", "th"):
            self.col += 1
        if a.get("data-key") and a.get("data-format"):
            # a quote its paragraph relates to others (data-shown, quoting.relate: SD, SD and
            # their ratio) is shown with the digits the relation needs, more than the
            # quantity's own (README); the build warns where its filter asks for fewer
            if not a.get("data-shown"):
                self.quotes.append((str(a["data-key"]), str(a["data-format"])))
            if not self.in_fig_data and self.col >= 0:
                self.columns[(self.table, self.col)].add(str(a["data-format"]))

    def handle_endtag(self, tag: str) -> None:
        if tag == "details" and self.in_fig_data:
            self.in_fig_data -= 1
        elif tag == "table":
            self.col = -1                              # what follows is in no column


def resolution(spec: str) -> tuple[str, int]:
    """What a format shows: ("dec", decimals of the fraction) for fixed and pct (pct:1 shows
    what fixed:3 shows), ("sig", digits) for sig, ("dec", 0) for grouped integers."""
    kind, _, digits = spec.partition(":")
    n = int(digits or 0)
    if kind == "sig":
        return ("sig", n)
    return ("dec", n + 2 if kind == "pct" else n)


def concrete(template: str, results: dict[str, Any]) -> set[str]:
    """Every results path a FOLLOW or SLOTS template names over the grid, rulers and batch 0."""
    grid = [str(i) for i in range(len(results["spread"]["d_k"]))]
    scales = [str(k) for k in range(len(results["saturation"]["scales"]))]
    fills = {"i": grid, "s": grid, "b": ["0"], "r": list(results["rulers"]["names"]),
             "k": scales, "m": scales}
    names = [n for n in fills if "{" + n + "}" in template]
    return {template.format(**dict(zip(names, values)))
            for values in itertools.product(*(fills[n] for n in names))}


def kind_of(spec: str) -> tuple[str, int]:
    """The kind of number a format shows: a percent (pct) or a plain number (fixed, sig,
    grouped), with no precision: ("pct", 0) or ("number", 0)."""
    return ("pct" if spec.startswith("pct") else "number", 0)


def shown_formats(site_build: dict[str, Any], view: Callable[[str], tuple[str, int]] = resolution
                  ) -> dict[str, set[tuple[str, int]]]:
    """For every results path the pages show, what each place shows of it (`view` of its
    format: its precision by default)."""
    results = site_build["results"]
    shown: dict[str, set[tuple[str, int]]] = defaultdict(set)
    for page in site_build["html"].values():
        q = Quotes()
        q.feed(page)
        for key, spec in q.quotes:
            for path in concrete(FOLLOW.get(key, key), results):
                shown[path].add(view(spec))
    for template, spec in SLOTS.values():
        if template.startswith("{"):
            continue                                   # the batch number itself
        for path in concrete(template, results):
            shown[path].add(view(spec))
    needs = figure_needs()
    for name, fn in TABLES.items():
        for table in fn(needed_results(results, needs[name])):
            for row in table.rows:
                for cell in row:
                    if isinstance(cell, tuple) and cell[2]:
                        shown[cell[2]].add(view(cell[1]))
    return shown


def test_one_precision_per_result_in_prose_sheets_and_figure_tables(site_build) -> None:
    shown = shown_formats(site_build)
    assert len(shown) > 10                             # the three sources were all read
    results = site_build["results"]
    # an integer result (log₂ 8 = 3 bits) is exact: "3" and "3.00" say the same
    mixed = {path: specs for path, specs in shown.items()
             if len(specs) > 1 and not float(at(results, path)).is_integer()}
    assert not mixed, mixed


def test_one_kind_of_number_per_result_in_prose_sheets_and_figure_tables(site_build) -> None:
    shown = shown_formats(site_build, kind_of)
    assert len(shown) > 10
    mixed = {path: kinds for path, kinds in shown.items() if len(kinds) > 1}
    assert not mixed, mixed


def test_each_column_of_a_table_has_one_format(site_build) -> None:
    results = site_build["results"]
    needs = figure_needs()
    for name, fn in TABLES.items():
        for table in fn(needed_results(results, needs[name])):
            rows = table.rows
            assert rows, name
            for col in range(len(rows[0])):
                specs = {resolution(c[1]) if isinstance(c, tuple) else "text"
                         for c in (row[col] for row in rows)}
                assert len(specs) == 1, (name, col, specs)
    seen = 0
    for page in site_build["html"].values():
        q = Quotes()
        q.feed(page)
        for where, specs in q.columns.items():
            seen += 1
            assert len({resolution(s) for s in specs}) == 1, (where, specs)
    assert seen                                        # the article's tables quote numbers
