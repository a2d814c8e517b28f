"""The data the page hands to explainer.js: a subset of results.json at the same paths, JSON
that cannot break out of its <script> element, and the widgets' sentences with their numbers."""
from __future__ import annotations

import json

import pytest

from sqrtdk.web.embed import EMBEDDED, SLOTS, explainer_data, json_script, slot_filter
from sqrtdk.web.quoting import format_number


def _leaves(tree: dict, prefix: str = ""):
    for k, v in tree.items():
        if isinstance(v, dict):
            yield from _leaves(v, f"{prefix}{k}.")
        else:
            yield f"{prefix}{k}", v


def _at(tree: dict, path: str):
    for part in path.split("."):
        tree = tree[part]
    return tree


def test_every_embedded_value_is_the_result_at_the_same_path(results):
    data = explainer_data(results)
    leaves = dict(_leaves(data))
    assert sorted(leaves) == sorted(f"{g}.{k}" for g, keys in EMBEDDED for k in keys)
    for path, value in leaves.items():
        assert value == _at(results, path), path


def test_the_grids_the_widgets_step_through_are_complete(results):
    sa, sp = explainer_data(results)["saturation"], explainer_data(results)["spread"]
    assert len(sa["shares"]) == len(sa["p_winner"]) == len(sa["sensitivity"]) == len(sa["scales"])
    assert all(len(row) == len(sa["labels"]) for row in sa["shares"])
    ratios = {round(b / a, 4) for a, b in zip(sa["scales"], sa["scales"][1:])}  # 6 digits kept
    assert len(ratios) == 1, "the slider steps through a log grid of equal ratios"
    n = len(sp["batches"]["ratio"])
    hist = sp["grid"]["hist"]
    assert len(hist) == len(sp["d_k"]) and all(len(per_d) == n + 1 for per_d in hist)
    assert all(len(c) == len(sp["grid"]["z_edges"]) - 1 for per_d in hist for c in per_d)


def test_every_slot_shows_a_result_in_a_format_the_quoting_module_knows(results):
    for name, (path, spec, _) in SLOTS.items():
        kind, _, digits = spec.partition(":")
        assert format_number(kind, float(_at(results, path)), int(digits or 0)), name


def test_a_missing_result_is_named(results):
    broken = json.loads(json.dumps(results))
    del broken["spread"]["batches"]["ratio"]
    with pytest.raises(KeyError, match="spread.batches.ratio"):
        explainer_data(broken)


def test_json_script_cannot_close_its_element():
    text = str(json_script({"a": "</script><!-- & >"}))
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == {"a": "</script><!-- & >"}


def test_slots_escape_the_words_and_fill_in_the_numbers(results):
    slots = slot_filter(results)
    sa, sp = results["saturation"], results["spread"]
    assert str(slots("{pH} = {share} <b> & 1 − {pH}")) == (
        f'<var>p</var><sub>{sa["winner"]}</sub> = <span class="q" data-slot="share" '
        f'data-format="pct:2">{format_number("pct", sa["first"]["p_winner"], 2)}</span> '
        f'&lt;b&gt; &amp; 1 − <var>p</var><sub>{sa["winner"]}</sub>')
    assert str(slots("batch {b}: {sd_small}")) == (
        'batch <span class="q" data-slot="b" data-format="grouped">1</span>: '
        '<span class="q" data-slot="sd_small" '
        f'data-key="spread.sd_small" data-format="fixed:2">{format_number("fixed", sp["sd_small"], 2)}'
        '</span>')


def test_an_unknown_slot_is_named(results):
    with pytest.raises(KeyError, match=r"unknown slot '\{sd_smal\}'"):
        slot_filter(results)("{sd_smal}")
