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
    compared_digits,
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


def test_two_numbers_set_side_by_side_never_read_alike_unless_they_agree_that_closely(results):
    """The slots a sentence compares (COMPARED: "ratio 0.0886, beside its theory 0.0884"), at
    every dₖ, ruler and batch: the two texts differ unless the values agree to the most digits
    a sheet shows, and neither takes more digits than needed to tell them apart."""
    assert compared_digits("fixed", 0.0886, 0.0884, 2) == 3         # 0.09 and 0.09: 0.089, 0.088
    assert compared_digits("fixed", 0.08872, 0.08858, 2) == 4
    assert compared_digits("fixed", 3.96, 4.0, 2) == 2
    assert compared_digits("fixed", 1.414210, 1.414214, 2) == 4    # alike at the most digits
    assert compared_digits("fixed", 1.0, 1.0, 2) == 2
    for a, b in COMPARED:
        assert SLOTS[a][1] == SLOTS[b][1], (a, b)      # one format for the pair
        kind, _, digits = SLOTS[a][1].partition(":")
        most = int(digits or 0) + 2
        for state in _every_state(results, 1):
            for batch in range(results["spread"]["batches"]["n"] + 1):
                s = {**state, "b": batch}
                va = float(_at(results, resolve(SLOTS[a][0], s)))
                vb = float(_at(results, resolve(SLOTS[b][0], s)))
                ta, tb = slot_text(a, results, s)[0], slot_text(b, results, s)[0]
                if va != vb and format_number(kind, va, most) != format_number(kind, vb, most):
                    assert ta != tb, (a, b, s, ta, tb)
                assert decimals(ta) == decimals(tb), (ta, tb)      # one precision for both


def test_related_operands_take_the_decimals_their_quotient_needs() -> None:
    """RELATED: the shown operands divide out to the shown quotient; both share one number
    of decimals, at most WIDGET_EXTRA_DIGITS more than their own formats show."""
    from sqrtdk.web.embed import RELATED, WIDGET_EXTRA_DIGITS, related_digits, related_specs
    # 1.00395 and 0.99934 print 1.00 and 0.999 (0.999 by hand), the ratio 0.995408 as 0.995
    assert related_digits(0.99934, 1.00395, "0.999", "1.00", 0.995408, "fixed:3") == 3
    specs = related_specs({"sd_large": 0.99934, "sd_small": 1.00395, "ratio": 0.995408,
                           "ratio_theory": 1.0},
                          {"sd_large": "sig:3", "sd_small": "sig:3", "ratio": "fixed:2",
                           "ratio_theory": "fixed:2"})
    assert specs == {"sd_large": "fixed:3", "sd_small": "fixed:3", "ratio": "fixed:3",
                     "ratio_theory": "fixed:3"}
    # already agreeing: the operands keep their own decimals (0.353 / 0.502 = 0.703 -> 0.70)
    assert related_digits(0.35332, 0.501975, "0.353", "0.502", 0.70386, "fixed:2") == 3
    # none agrees within the extra digits: the most
    assert related_digits(1.0, 3.0, "1.00", "3.00", 0.5, "fixed:2") == 2 + WIDGET_EXTRA_DIGITS
    assert all(len(t) == 3 for t in RELATED)
