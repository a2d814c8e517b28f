"""The data the page hands to explainer.js: a subset of results.json at the same paths, JSON
that cannot break out of its <script> element, and the widgets' sentences with their numbers."""
from __future__ import annotations

import json

import pytest

from sqrtdk.science.results import at
from sqrtdk.web.embed import (
    COMPARED,
    EMBEDDED,
    FOLLOW,
    SLOTS,
    UnknownSlotError,
    default_state,
    explainer_data,
    is_open,
    json_script,
    relation_text,
    resolve,
    slot_filter,
    slot_text,
    start_state,
    widget_number,
)
from sqrtdk.web.quoting import bounds_for, format_number


def _leaves(tree: dict, prefix: str = ""):
    for k, v in tree.items():
        if isinstance(v, dict):
            yield from _leaves(v, f"{prefix}{k}.")
        else:
            yield f"{prefix}{k}", v


def _at(tree, path: str):
    return at(tree, path)


def test_every_embedded_value_is_the_result_at_the_same_path(results):
    data = explainer_data(results)["results"]
    for group, keys in EMBEDDED:
        for key in keys:
            assert _at(data, f"{group}.{key}") == _at(results, f"{group}.{key}"), (group, key)
    assert sorted(data) == sorted({g.split(".")[0] for g, _ in EMBEDDED})


def test_the_grids_the_widgets_step_through_are_complete(results):
    r = explainer_data(results)["results"]
    sa, sp = r["saturation"], r["spread"]
    assert len(sa["shares"]) == len(sa["p_winner"]) == len(sa["sensitivity"]) == len(sa["scales"])
    assert all(len(row) == len(sa["labels"]) for row in sa["shares"])
    ratios = {round(b / a, 4) for a, b in zip(sa["scales"], sa["scales"][1:])}  # 6 digits kept
    assert len(ratios) == 1, "the slider steps through a log grid of equal ratios"
    n = sp["batches"]["n"]
    hist = sp["grid"]["hist"]
    assert len(hist) == len(sp["d_k"]) and all(len(per_d) == n + 1 for per_d in hist)
    assert all(len(c) == len(sp["grid"]["z_edges"]) - 1 for per_d in hist for c in per_d)
    for r_name, idx in sa["scale_index"].items():
        assert all(0 <= k < len(sa["scales"]) for k in idx), r_name


def test_every_state_path_resolves_in_the_embedded_slice(results):
    data = explainer_data(results)
    sliced = {"results": data["results"]}
    d = results["spread"]["d_k"]
    for i in range(len(d)):
        for b in range(results["spread"]["batches"]["n"] + 1):
            for r in results["rulers"]["names"]:
                state = {**default_state(results), "i": i, "b": b, "r": r}
                for template in [*FOLLOW.values(), *(t for t, _ in SLOTS.values())]:
                    path = resolve(template, state)
                    if not path.isdigit():
                        assert _at(sliced["results"], path) == _at(results, path), path


def test_the_default_state_gives_the_numbers_the_page_shows(results):
    state = default_state(results)
    for key, template in FOLLOW.items():
        assert _at(results, resolve(template, state)) == pytest.approx(_at(results, key), rel=2e-6), key


def test_every_slot_shows_a_result_in_a_format_the_quoting_module_knows(results):
    state = default_state(results)
    for name in SLOTS:
        text, spec = slot_text(name, results, state)
        assert text and spec.split(":")[0] in ("fixed", "pct", "sig", "grouped"), name


def test_a_missing_result_is_named(results):
    broken = json.loads(json.dumps(results))
    del broken["spread"]["grid"]["hist"]
    with pytest.raises(KeyError, match="spread.grid.hist"):
        explainer_data(broken)


def test_json_script_cannot_close_its_element():
    text = str(json_script({"a": "</script><!-- & >"}))
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == {"a": "</script><!-- & >"}


UI = {"ruler_raw": "nothing"}


def test_slots_escape_the_words_and_fill_in_the_numbers(results):
    slots = slot_filter(results, UI)
    sa = results["saturation"]
    share, spec = slot_text("share", results, start_state(results))
    assert str(slots("{pH} = {share} <b> & 1 − {pH}, {ruler}")) == (
        f'<var>p</var><sub>{sa["winner"]}</sub> <span data-rel="= ">= </span><span class="q" '
        f'data-slot="share" data-format="{spec}">{share}</span> '
        f'&lt;b&gt; &amp; 1 − <var>p</var><sub>{sa["winner"]}</sub>, <span data-ruler>nothing</span>')


def test_a_relation_before_a_bound_gives_way_to_the_bounds_sign(results):
    """"p = > 99.9999%" never: the "=" written before a slot shows only beside an exact number,
    at every scale of the slider (where the share ends as a bound)."""
    sa = results["saturation"]
    slots = slot_filter(results, UI)
    shown = []
    for k in range(len(sa["scales"])):
        state = {**start_state(results), "k": k}
        share = slot_text("share", results, state)[0]
        shown.append(share)
        assert relation_text("=\u00a0", share) == ("" if share[0] in "<>" else "=\u00a0")
    assert [s for s in shown if s[0] in "<>"] and [s for s in shown if s[0] not in "<>"]
    html = str(slots("{pH}\u00a0=\u00a0{share}, {pH} \u2248 {sens}, {sd_small}"))
    assert html.count("data-rel=") == 2                     # "=" and "≈"; a bare slot has none


def test_an_unknown_slot_is_named(results):
    with pytest.raises(UnknownSlotError, match=r"unknown slot \{sd_smal\}") as e:
        slot_filter(results, UI)("{sd_smal}")
    assert e.value.name == "sd_smal" and "sd_small" in e.value.known


def test_a_sheet_never_shows_a_bound_a_value_does_not_reach_at_any_state(results):
    """Every slot at every dₖ, ruler, batch and scale: the text is never a bound's text (at
    any number of digits) unless the value is that bound."""
    n_scales = len(results["saturation"]["scales"])
    for name, (template, spec) in SLOTS.items():
        kind, _, digits = spec.partition(":")
        for state in _every_state(results, n_scales if "{k}" in template else 1):
            path = resolve(template, state)
            value = float(path) if path.isdigit() else float(_at(results, path))
            bounds = bounds_for(path, results["meta"]["bounds"])
            text, _ = slot_text(name, results, state)
            if bounds is None or kind == "grouped" or (value in bounds and not is_open(path)):
                continue
            assert text not in {format_number(kind, b, n) for b in bounds for n in range(13)}, \
                (name, path, value, text)


def _every_state(results, n_scales):
    for i in range(len(results["spread"]["d_k"])):
        for r in results["rulers"]["names"]:
            for k in range(n_scales):
                m = results["saturation"]["scale_index"][r][i]
                yield {**start_state(results), "i": i, "r": r, "k": k, "m": m}


def test_a_value_closer_to_a_bound_than_two_more_digits_reads_as_an_inequality():
    assert widget_number("pct", 1 - 1.9e-10, 2, (0.0, 1.0)) == ">\u00a099.9999%"
    assert widget_number("fixed", 2.14e-9, 2, (0.0, 3.0)) == "<\u00a00.0001"
    assert widget_number("pct", 0.9962, 0, (0.0, 1.0)) == "99.6%"     # one more digit is enough
    assert widget_number("fixed", 0.5, 2, (0.0, 3.0)) == "0.50"
    assert widget_number("fixed", 3.0, 2, (0.0, 3.0)) == "3.00"       # a bound reached is shown
    assert widget_number("pct", 1.0, 2, (0.0, 1.0), is_open=True) == ">\u00a099.9999%"  # rounded there


def decimals(text: str) -> int:
    number = text.rstrip("%").split("\u00a0")[-1]
    return len(number.partition(".")[2])


@pytest.mark.parametrize("kind, digits, toward", [("pct", 2, 1.0), ("pct", 1, 0.0),
                                                  ("fixed", 2, 0.0)])
def test_one_precision_rule_a_bound_is_shown_with_the_most_digits_a_number_gets(kind, digits,
                                                                                 toward):
    # Values closing in on a bound: "99.9999%" is never followed by the coarser "> 99.99%",
    # and one row never mixes "0.001%" with "< 0.1%"
    texts = [widget_number(kind, toward + (1 - 2 * toward) * 10.0 ** -e, digits, (0.0, 1.0))
             for e in range(1, 13)]
    exact = [t for t in texts if t[0] not in "<>"]
    bounded = [t for t in texts if t[0] in "<>"]
    assert exact and bounded, texts
    assert {decimals(t) for t in bounded} == {max(decimals(t) for t in exact)}, texts
    assert texts.index(bounded[0]) > texts.index(exact[-1])        # exact ones first, then bounds


def test_the_text_is_built_at_the_dk_where_the_bar_starts(results):
    # The prose's numbers that follow the bar (FOLLOW) are built in the default state; the bar
    # and the sheets start at the paper's dₖ: a reader sees one dₖ before moving anything
    assert default_state(results)["i"] == start_state(results)["i"]


def test_the_sheets_start_at_the_papers_dk_and_sheet_2_at_the_scale_it_gives(results):
    start = start_state(results)
    assert results["spread"]["d_k"][start["i"]] == results["two_scores"]["d_k"]
    assert start["k"] == start["m"] == results["saturation"]["scale_index"]["raw"][start["i"]]
    assert slot_text("mark", results, start)[0] == slot_text("scale", results, start)[0]


def figures(kind: str, text: str) -> int:
    """The digits a formatted number shows in its kind: decimals for fixed, significant
    digits for sig ("0.06229" 4, "15.94" 4, "2.00790" 6)."""
    if kind != "sig":
        return decimals(text)
    mantissa = text.split("\u00a0")[0].replace(",", "").replace("\u2212", "").replace(".", "")
    return len(mantissa.lstrip("0"))


def _sheet_texts(results):
    """(state, {joined slot: shown text}, {slot: value}) at every state a sheet can show."""
    from sqrtdk.web.embed import RELATED, sheet_states
    joined = {x for link in (*COMPARED, *RELATED) for x in link}
    for s in sheet_states(results):
        yield (s, {x: slot_text(x, results, s)[0] for x in joined},
               {x: float(_at(results, resolve(SLOTS[x][0], s))) for x in joined})


def test_steady_specs_tell_compared_numbers_apart_in_every_state() -> None:
    from sqrtdk.web.embed import steady_specs
    rows = [{"ratio": 0.0886, "ratio_theory": 0.0884}, {"ratio": 3.96, "ratio_theory": 4.0}]
    specs = {"ratio": "fixed:2", "ratio_theory": "fixed:2"}
    # 0.09 beside 0.09 in the first state: both take three decimals in every state
    assert steady_specs(rows, specs) == {"ratio": "fixed:3", "ratio_theory": "fixed:3"}
    assert steady_specs(rows[1:], specs) == specs
    # alike even at the most digits in some state: the fewest failing states, then digits
    close = [{"ratio": 1.414210, "ratio_theory": 1.414214}, *rows]
    assert steady_specs(close, specs) == {"ratio": "fixed:3", "ratio_theory": "fixed:3"}


def test_steady_specs_give_operands_the_digits_that_divide_out_in_every_state() -> None:
    from sqrtdk.web.embed import steady_specs
    specs = {"sd_large": "sig:3", "sd_small": "sig:3", "ratio": "fixed:3"}
    one = {"sd_large": 0.353320, "sd_small": 0.501975, "ratio": 0.703860}   # 0.353/0.502=0.703
    two = {"sd_large": 7.94431, "sd_small": 2.00790, "ratio": 3.95653}     # 7.94/2.01=3.950
    assert steady_specs([one], specs)["sd_large"] == "sig:3"    # 0.703 beside 0.704: 1 unit
    assert steady_specs([two], specs)["sd_large"] == "sig:4"    # 7.944/2.008 = 3.956
    both = steady_specs([one, two], specs)
    assert both["sd_large"] == both["sd_small"] == "sig:4" and both["ratio"] == "fixed:3"
    # a quotient of two decimals: 7.94/2.01 = 3.95 beside 3.96 is within its last digit
    assert steady_specs([two], {**specs, "ratio": "fixed:2"})["sd_large"] == "sig:3"
    # stored values that do not divide out themselves (6 significant digits) are not held
    # against the digits: 5.63372 / 1.96674 is 2.864497, stored as 2.8645
    odd = {"sd_large": 5.63372, "sd_small": 1.96674, "ratio": 2.8645}
    four = {**specs, "ratio": "sig:4"}
    assert steady_specs([odd, two], four) == steady_specs([two], four)
    with pytest.raises(ValueError, match="two kinds"):
        steady_specs([one], {**specs, "sd_small": "fixed:3"})


def test_every_joined_slot_keeps_its_digits_and_its_relations_at_every_dk_ruler_and_batch(
        results):
    """The slots a sentence compares or relates (COMPARED, RELATED) show one number of digits
    in every state a sheet can show (every dₖ the bar reaches × ruler × batch), while the
    compared pair differs wherever the values differ beyond the most digits a sheet shows and
    the shown operands divide out to the shown quotient (to within its last digit) wherever
    the results themselves do."""
    from sqrtdk.web.embed import RELATED, WIDGET_EXTRA_DIGITS, divides_out, sheet_specs, shown_value
    specs = sheet_specs(results)
    seen: dict[str, set[int]] = {}
    checked = 0
    for s, texts, values in _sheet_texts(results):
        for name, text in texts.items():
            seen.setdefault(name, set()).add(figures(split(specs[name])[0], text))
        for a, b in COMPARED:
            assert specs[a] == specs[b], (a, b)
            kind, n = split(SLOTS[a][1])
            most = n + WIDGET_EXTRA_DIGITS
            if format_number(kind, values[a], most) != format_number(kind, values[b], most):
                assert texts[a] != texts[b], (s, texts)
        for num, den, q in RELATED:
            assert specs[num] == specs[den], (num, den)
            q_kind, q_n = split(specs[q])
            if format_number(q_kind, values[num] / values[den], q_n) != texts[q]:
                continue          # the stored results (6 figures) do not divide out here
            got = shown_value(texts[num]) / shown_value(texts[den])
            assert divides_out(got, texts[q], q_kind, q_n), (s, texts)
            checked += 1
    assert checked > len(seen)
    assert all(len(n) == 1 for n in seen.values()), seen


def split(spec: str) -> tuple[str, int]:
    kind, _, digits = spec.partition(":")
    return kind, int(digits or 0)


def test_a_tiny_share_reads_in_significant_digits_never_rounded_to_0_0001() -> None:
    from sqrtdk.web.embed import is_small
    share = (0.0, 1.0)
    assert widget_number("fixed", 6.75e-5, 4, share, True, True) == "6.75\u00a0×\u00a010⁻⁵"
    assert widget_number("fixed", 1.36e-5, 4, share, True, True) == "1.36\u00a0×\u00a010⁻⁵"
    assert widget_number("fixed", 7.6e-4, 4, share, True, True) == "0.000760"
    assert widget_number("fixed", 0.0046, 4, share, True, True) == "0.0046"   # two figures
    assert widget_number("fixed", 0.9962, 4, share, True, True) == "0.9962"
    assert widget_number("fixed", 6.75e-5, 4, share, True) == "0.0001"        # not a share
    assert is_small("saturation.shares.3.4") and not is_small("spread.grid.sd.raw.1.0")


def test_every_share_a_figure_table_shows_keeps_two_significant_digits(results) -> None:
    """Every share in every figure's table (sqrtdk.web.fig_tables) keeps at least two
    significant digits and so lies within 5 % of its value: one rule, whatever its size."""
    from sqrtdk.web.embed import is_small, shown_value
    from sqrtdk.web.fig_tables import TABLES, Text, _number
    bounds = results["meta"]["bounds"]
    seen = 0
    for tables in TABLES.values():
        for t in tables(results):
            for row in t.rows:
                for cell in row:
                    if isinstance(cell, Text) or not is_small(cell[2]) or not cell[0]:
                        continue
                    text = _number(cell, bounds)
                    if text.startswith(("<", ">")):
                        continue
                    assert abs(shown_value(text) / cell[0] - 1) < 0.05, (cell, text)
                    seen += cell[0] < 1e-3
    assert seen          # some share is that small


def test_a_quoted_spread_is_the_difference_of_its_operands_as_their_table_shows_them(
        results) -> None:
    """A quoted spread (SPANS) equals the largest minus the smallest of the numbers the
    figure table shows, whatever the unrounded difference rounds to; the table does show
    those operands in that format; and every result the results' schema calls a range is
    one (a new one would otherwise be quoted from the unrounded values)."""
    import ast
    from pathlib import Path

    from sqrtdk.web.embed import SPANS, shown_value, span_text
    from sqrtdk.web.fig_tables import TABLES, Text, _number
    cells = {cell[2]: cell for tables in TABLES.values() for t in tables(results)
             for row in t.rows for cell in row if not isinstance(cell, Text)}
    bounds = results["meta"]["bounds"]
    for path, (pattern, spec) in SPANS.items():
        group = pattern.rpartition(".")[0]
        values = _at(results, group)
        texts = []
        for j in range(len(values)):
            assert cells[f"{group}.{j}"][1] == spec, (path, j)       # the table shows it so
            texts.append(_number(cells[f"{group}.{j}"], bounds))
        shown = [shown_value(t) for t in texts]
        for digits in (2, 3):
            got = span_text(path, results, f"fixed:{digits}")
            assert got == format_number("fixed", round(max(shown) - min(shown), 12), digits)
    # shown 0.344 and 0.363: 0.019, though the unrounded spread 0.01802 reads 0.018
    made = {"rulers": {"winner_share": {"sqrt": [0.34449, 0.36251]}}, "meta": {"bounds": {}}}
    assert span_text("rulers.flat.share_range_sqrt", made, "fixed:3") == "0.019"
    assert span_text("spread.ratio", made, "fixed:3") is None
    schema = Path(__file__).parents[1] / "sqrtdk" / "science" / "outputs"
    ranges = set()
    for f in schema.glob("*.py"):
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Dict):
                for k, v in zip(node.keys, node.values):
                    if (isinstance(k, ast.Constant) and isinstance(v, ast.Tuple)
                            and isinstance(v.elts[-1], ast.Constant)
                            and str(v.elts[-1].value).startswith("range of")):
                        ranges.add(k.value)
    assert ranges and all(any(p.endswith("." + r) for p in SPANS) for r in ranges), ranges


def test_a_quotient_divides_out_to_within_its_last_digit_and_no_further() -> None:
    """The reader's division of the shown operands lands on the shown quotient or next to it
    in its last digit (2.008 and 7.944 give 3.956 beside a shown 3.957), never two units off
    ("1.00; 0.999; ratio 0.995"), whatever the format's kind."""
    from sqrtdk.web.embed import divides_out, last_digit_unit
    assert last_digit_unit("3.957") == pytest.approx(0.001)
    assert last_digit_unit("1,024") == 1
    assert last_digit_unit("1.87\u00a0×\u00a010⁻¹⁰") == pytest.approx(1e-12)
    assert divides_out(7.944 / 2.008, "3.957", "fixed", 3)
    assert divides_out(7.944 / 2.008, "3.956", "fixed", 3)
    assert not divides_out(7.944 / 2.008, "3.958", "fixed", 3)
    assert not divides_out(0.999 / 1.00, "0.995", "fixed", 3)
    assert divides_out(0.0310487 / 0.501975, "0.06185", "sig", 4)
    assert not divides_out(0.0310 / 0.502, "0.06185", "sig", 4)
