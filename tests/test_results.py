"""Tests for sqrtdk.results: canonical values, canonical text, quoted values, save and load."""
from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from sqrtdk.config import DEFAULT_SEED
from sqrtdk.experiments import RULERS, run_all
from sqrtdk.results import SCHEMA, SIGNIFICANT, build, canonical, dumps, load, save


@pytest.fixture(scope="module")
def results(experiments, params):
    """build() of the session's experiments at the default parameters."""
    return build(experiments, params)


# --- canonical --------------------------------------------------------------------------------

def test_canonical_turns_numpy_scalars_into_plain_python_types():
    assert type(canonical(np.float64(0.25))) is float
    assert type(canonical(np.float32(0.5))) is float
    out = canonical(np.int64(7))
    assert type(out) is int and out == 7


def test_canonical_turns_tuples_into_lists_at_every_depth():
    out = canonical({"a": (1, (2.5, np.int32(3))), "b": [np.float64(0.5)]})
    assert out == {"a": [1, [2.5, 3]], "b": [0.5]}
    assert type(out["a"][1]) is list and type(out["a"][1][1]) is int


def test_canonical_makes_dict_keys_strings():
    assert canonical({4: 1.0, "x": 2}) == {"4": 1.0, "x": 2}


def test_canonical_keeps_bools_none_strings_and_integer_valued_floats():
    assert canonical([True, False, None, "sqrt(d)"]) == [True, False, None, "sqrt(d)"]
    assert type(canonical(True)) is bool
    assert type(canonical(2.0)) is float and type(canonical(np.float64(3.0))) is float


@pytest.mark.parametrize("x", [math.pi, -123456.789, 1 / 3 * 1e-7, 6.02214076e23,
                               np.float64(2 / 3), np.float32(0.1)])
def test_canonical_rounds_to_significant_digits(x):
    out = canonical(x)
    # Rounding to SIGNIFICANT digits moves x by at most half a unit in the last kept digit,
    # i.e. a relative error <= 0.5 * 10^(1 - SIGNIFICANT).
    assert abs(out - float(x)) <= 0.5 * 10.0 ** (1 - SIGNIFICANT) * abs(float(x))
    assert float(f"{out:.{SIGNIFICANT}g}") == out  # nothing beyond SIGNIFICANT digits is left
    assert canonical(out) == out


def test_canonical_drops_noise_past_the_last_significant_digit():
    assert canonical(1.0 + 4 * 10.0 ** -SIGNIFICANT) == 1.0
    kept = 1.0 + 10.0 ** (1 - SIGNIFICANT)
    assert canonical(kept) == pytest.approx(kept, rel=1e-15) and canonical(kept) != 1.0


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf, np.float64("nan"),
                                 np.float32("inf"), [1.0, math.nan], {"a": (math.inf,)}])
def test_canonical_rejects_nan_and_infinity(bad):
    with pytest.raises(ValueError):
        canonical(bad)


@pytest.mark.parametrize("bad", [object(), {1, 2}, b"bytes", 1 + 2j, Path("x"),
                                 np.array([1.0, 2.0]), [1.0, object()]])
def test_canonical_rejects_unsupported_objects(bad):
    with pytest.raises(TypeError):
        canonical(bad)


def test_canonical_keeps_numpy_bools_as_bools():
    assert canonical(np.bool_(True)) is True


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
def test_canonical_rejects_numpy_complex():
    with pytest.raises(TypeError):
        canonical(np.complex128(1 + 2j))


# --- dumps / save / load ----------------------------------------------------------------------

def _key_orders(text: str) -> list[list[str]]:
    """Every JSON object's keys in the order they appear in `text`."""
    orders: list[list[str]] = []

    def hook(pairs):
        orders.append([k for k, _ in pairs])
        return dict(pairs)

    json.loads(text, object_pairs_hook=hook)
    return orders


def test_dumps_sorts_keys_at_every_level():
    text = dumps({"b": {"z": 1, "a": [{"y": 1, "x": 2}]}, "a": 0})
    orders = _key_orders(text)
    assert len(orders) == 3
    assert all(keys == sorted(keys) for keys in orders)


def test_dumps_ends_with_exactly_one_newline():
    text = dumps({"a": 1})
    assert text.endswith("}\n") and not text.endswith("\n\n")


def test_dumps_of_results_sorts_keys_and_round_trips(results):
    text = dumps(results)
    assert all(keys == sorted(keys) for keys in _key_orders(text))
    assert json.loads(text) == results


def test_results_are_already_canonical(results):
    assert canonical(results) == results


def test_dumps_is_identical_for_two_runs_of_the_same_seed(results, params):
    fresh = build(run_all(params, DEFAULT_SEED), params)
    assert dumps(fresh) == dumps(results)


def test_save_then_load_round_trips(tmp_path, results):
    path = tmp_path / "nested" / "results.json"
    save(results, path)
    assert path.read_text(encoding="utf-8") == dumps(results)
    assert load(path) == results


def test_load_of_a_missing_file_raises(tmp_path):
    with pytest.raises(FileNotFoundError):
        load(tmp_path / "missing.json")


# --- quoted values are entries of the per-d and per-scale lists -------------------------------

def test_meta_records_the_seed_and_schema(results):
    assert results["meta"]["seed"] == DEFAULT_SEED
    assert results["meta"]["schema"] == SCHEMA


def test_spread_quotes_are_entries_of_the_per_d_list(results, params):
    sp = results["spread"]
    assert sp["sd_small"] == sp["sd"][sp["d_k"].index(params.spread.d_small)]
    assert sp["sd_large"] == sp["sd"][sp["d_k"].index(params.spread.d_large)]
    assert sp["d_ratio"] * sp["d_small"] == sp["d_large"]
    assert sp["ratio_theory"] == canonical(math.sqrt(sp["d_large"] / sp["d_small"]))


def test_spread_batch_summary_matches_the_batches(results, params):
    sp = results["spread"]
    batches = sp["batches"]
    assert batches["n"] == len(batches["ratio"]) == params.spread.n_batches
    assert sp["ratio"] == batches["ratio"][0]
    # Rounding is monotone, so the rounded min/max are the min/max of the rounded ratios.
    assert batches["ratio_min"] == min(batches["ratio"])
    assert batches["ratio_max"] == max(batches["ratio"])
    assert batches["sd_small"][0] == sp["sd_small"] and batches["sd_large"][0] == sp["sd_large"]


def test_walk_quotes_match_the_walk(results, experiments):
    assert results["walk"]["sd"] == canonical(experiments.walk.sd)
    assert results["walk"]["sd_theory"] == canonical(math.sqrt(experiments.walk.steps))


def test_saturation_quotes_are_entries_of_the_per_scale_lists(results, params):
    sa = results["saturation"]
    i = sa["scales"].index(params.saturation.quoted_scale)
    assert sa["quoted"] == {"scale": sa["scales"][i], "p_winner": sa["p_winner"][i],
                            "sensitivity": sa["sensitivity"][i],
                            "max_offdiag": sa["max_offdiag"][i]}
    assert sa["first"] == {"scale": sa["scales"][0], "p_winner": sa["p_winner"][0],
                           "sensitivity": sa["sensitivity"][0]}
    assert sa["winner"] == sa["labels"][sa["scores"].index(max(sa["scores"]))]


def test_saturation_peak_is_the_grid_argmax_of_the_sensitivity(results, experiments):
    sa = results["saturation"]
    i = int(np.argmax(experiments.saturation.sensitivity))
    assert sa["peak"]["scale"] == sa["scales"][i]
    assert sa["peak"]["sensitivity"] == sa["sensitivity"][i] == max(sa["sensitivity"])
    assert sa["peak"]["p_winner"] == sa["p_winner"][i]
    assert sa["peak"]["half_scale"] == canonical(experiments.saturation.half_scale)


def test_rulers_quotes_are_entries_of_the_per_d_lists(results, params):
    ru = results["rulers"]
    i = ru["d_k"].index(params.rulers.quoted_d)
    assert ru["quoted"]["d"] == params.rulers.quoted_d
    for kind in ("sd", "winner_share", "entropy_bits"):
        for r in RULERS:
            assert ru["quoted"][f"{kind}_{r}"] == ru[kind][r][i], (kind, r)
    assert ru["names"] == list(RULERS)
    assert ru["uniform_share"] == canonical(1 / ru["positions"])


def test_build_rejects_a_quoted_scale_off_the_grid(experiments, params):
    off = replace(params, saturation=replace(params.saturation,
                                             quoted_scale=params.saturation.quoted_scale + 0.1))
    with pytest.raises(ValueError):
        build(experiments, off)


def test_build_rejects_a_quoted_d_off_the_grid(experiments, params):
    off = replace(params, rulers=replace(params.rulers, quoted_d=params.rulers.quoted_d + 1))
    with pytest.raises(ValueError):
        build(experiments, off)
