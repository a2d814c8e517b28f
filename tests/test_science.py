"""Tests for the science half, `sqrtdk.science`: softmax identities, named streams, canonical
results, the registries and `Run`, and every results section against its theory.

Statistical tolerances come from the sampling distribution of the quantity under test; the
derivation is written next to each one, and no expected measurement is hard-coded.

Shared convention: a statistical check allows N_SE = 5 standard errors. For an approximately
normal estimate, P(|Z| > 5) ~ 5.7e-7 per check. The file makes about 500 such checks (most of
them the rank checks of the gradient quantiles), so by the union bound the chance that any of
them fails on a correct implementation is below 3e-4, whatever the seed. (The normal
approximation is good here: every estimate averages >= 2 000 draws.) The strict monotone
trends of the rulers are argued separately.

Numbers read from results.json were rounded by `canonical` to SIGNIFICANT significant digits,
i.e. each carries a relative error <= ROUND = 0.5 * 10^(1 - SIGNIFICANT); identities between
them are checked within the error their rounding allows, derived where it is used.
"""
from __future__ import annotations

import fnmatch
import json
import math
import os
import platform
import re
import subprocess
import sys
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sqrtdk.errors import display_path
from sqrtdk.options import DEFAULT_SEED, PROJECT_ROOT
from sqrtdk.science import registry, reproduce, rulers, saturation, spread
from sqrtdk.science.grid import DIMENSIONS, RULERS, divisor, sd_theory
from sqrtdk.science.registry import (
    CLAIMS,
    EXPERIMENTS,
    SECTIONS,
    SNIPPETS,
    Claim,
    Experiment,
    Registry,
    Section,
)
from sqrtdk.science.results import SCHEMA, SIGNIFICANT, at, canonical, dumps, load
from sqrtdk.science.run import Run
from sqrtdk.science.softmax import entropy_bits, softmax, softmax_jacobian, softmax_vjp
from sqrtdk.science.streams import normals, stream

registry.load()   # every experiment, section, claim and snippet, for the parametrisations

N_SE = 5.0
OTHER_SEED = DEFAULT_SEED + 1
# canonical() rounds to SIGNIFICANT digits: half a unit in the last kept digit is a relative
# error <= 0.5 * 10^(1 - SIGNIFICANT) of the value (the leading digit is >= 1). The factor
# 1.0001 leaves room for the float arithmetic of the comparison itself.
ROUND = 0.5 * 10.0 ** (1 - SIGNIFICANT) * 1.0001


def sd_rse(kurtosis: float, n: int) -> float:
    """Relative standard error SE(s)/sigma of the sample SD s of n iid draws with this kurtosis.

    Var(s^2) ~ sigma^4 (kappa - 1) / n, and by the delta method SE(s) ~ SE(s^2) / (2 sigma),
    so SE(s) / sigma ~ sqrt((kappa - 1) / (4 n)).
    """
    return math.sqrt((kurtosis - 1.0) / (4.0 * n))


def dot_kurtosis(d: int) -> float:
    """Kurtosis of q.k for q, k with d iid N(0, 1) components: 3 + 6/d.

    One product x = q_i k_i has E x^2 = 1 and E x^4 = E q^4 E k^4 = 3 * 3 = 9, so its excess
    kurtosis is 6; the excess kurtosis of a sum of d iid terms is the term's divided by d.
    """
    return 3.0 + 6.0 / d


def share_mean_se(positions: int, n_rows: int) -> float:
    """Upper bound on the SE of a mean of n_rows winner shares.

    The winner's share lies in [1/positions, 1], so by Popoviciu's inequality its SD is at most
    half the range, (1 - 1/positions) / 2, and the SE of the mean at most that over sqrt(n_rows).
    """
    return (1.0 - 1.0 / positions) / 2.0 / math.sqrt(n_rows)


def entropy_mean_se(positions: int, n_rows: int) -> float:
    """Upper bound on the SE of a mean of n_rows entropies: they lie in [0, log2 n], SD <= half."""
    return math.log2(positions) / 2.0 / math.sqrt(n_rows)


def jacobian_frobenius_bound() -> float:
    """The largest Frobenius norm a softmax Jacobian can have: 1/2.

    ||J||_F^2 = sum_i p_i^2 (1 - p_i)^2 + sum_{i != j} p_i^2 p_j^2 = S2 - 2 S3 + S2^2 with
    S2 = sum p_i^2, S3 = sum p_i^3. Averaging under the weights p, S2 = E_p[p] and
    S3 = E_p[p^2] >= (E_p[p])^2 = S2^2 (Jensen), so ||J||_F^2 <= S2 - S2^2 <= 1/4. Equality needs
    S2 = 1/2 with p constant on its support: two shares of 1/2. (1/sqrt 2 is valid but loose.)
    """
    return 0.5


def assembled(name: str, params: Any, seed: int) -> Any:
    """Experiment `name` run with `params` (one job after the other) and assembled."""
    exp = EXPERIMENTS[name]
    return exp.assemble(params, {j.key: j.fn(*j.args) for j in exp.jobs(params, seed)})


def section_at(name: str, seed: int) -> dict[str, Any]:
    """Results section `name` for `seed` at the registered parameters, built afresh."""
    sec = SECTIONS[name]
    data = {n: assembled(n, EXPERIMENTS[n].params, seed) for n in sec.needs}
    built: dict[str, Any] = canonical(sec.build(data))
    return built


def leaves(value: Any, prefix: str = "") -> dict[str, Any]:
    """Every leaf of a results tree by dotted path (list indices as numbers, as `at` reads)."""
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        items = ((str(i), v) for i, v in enumerate(value))
    else:
        return {prefix: value}
    out: dict[str, Any] = {}
    for key, v in items:
        out.update(leaves(v, f"{prefix}.{key}" if prefix else key))
    return out


# --- softmax, its Jacobian and entropy --------------------------------------------------------

def _random_cases() -> list[tuple[str, np.ndarray]]:
    cases = []
    for seed in range(4):
        rng = np.random.default_rng(seed)
        for n, scale in ((1, 1.0), (2, 3.0), (8, 1.0), (8, 30.0), (64, 5.0)):
            cases.append((f"seed{seed}-n{n}-x{scale:g}", rng.normal(0.0, scale, n)))
    return cases


ADVERSARIAL = [
    ("huge-gap", np.array([1000.0, -1000.0])),
    ("huge-and-zero", np.array([-1000.0, 1000.0, 0.0])),
    ("huge-tie", np.array([1000.0, 1000.0, -1000.0])),
    ("all-very-negative", np.array([-1000.0, -1000.0, -1001.0])),
    ("near-tie-at-1000", np.array([1000.0, 999.999])),
    ("all-equal", np.zeros(8)),
    ("two-way-tie", np.array([5.0, 5.0, 1.0])),
    ("single", np.array([3.0])),
]
CASES = _random_cases() + ADVERSARIAL
CASE_IDS = [name for name, _ in CASES]
CASE_SCORES = [s for _, s in CASES]


@pytest.mark.parametrize("scores", CASE_SCORES, ids=CASE_IDS)
def test_softmax_shares_lie_in_unit_interval_and_sum_to_one(scores):
    p = softmax(scores)
    assert p.shape == scores.shape
    assert np.all((p >= 0.0) & (p <= 1.0))
    # n shares each carry a relative rounding error ~ 1e-16, so the sum is 1 within n * 1e-16.
    assert abs(p.sum() - 1.0) < 1e-13


@pytest.mark.parametrize("scores", CASE_SCORES, ids=CASE_IDS)
@pytest.mark.parametrize("shift", [-1000.0, -3.5, 0.25, 1000.0])
def test_softmax_is_shift_invariant(scores, shift):
    # Adding c rounds each score to within ulp(|s| + |c|) / 2 <= 1.2e-13 for |s| + |c| <= 2000,
    # and sum_j |dp_i/ds_j| = 2 p_i (1 - p_i) <= 1/2, so the shares move by < 1e-12.
    np.testing.assert_allclose(softmax(scores + shift), softmax(scores), rtol=0, atol=1e-12)


def test_softmax_ties_share_equally_and_huge_gaps_give_one_hot():
    np.testing.assert_array_equal(softmax(np.array([1000.0, 1000.0, -1000.0])), [0.5, 0.5, 0.0])
    np.testing.assert_array_equal(softmax(np.array([1000.0, -1000.0])), [1.0, 0.0])
    np.testing.assert_allclose(softmax(np.zeros(8)), np.full(8, 1 / 8), rtol=1e-15)


def test_softmax_works_row_by_row_on_a_batch():
    rows = np.stack([s for s in CASE_SCORES if s.shape == (8,)])
    np.testing.assert_array_equal(softmax(rows), np.stack([softmax(r) for r in rows]))


@pytest.mark.parametrize("scores", CASE_SCORES, ids=CASE_IDS)
def test_jacobian_is_symmetric_with_zero_row_and_column_sums(scores):
    jac = softmax_jacobian(softmax(scores))
    np.testing.assert_array_equal(jac, jac.T)  # p_i p_j and p_j p_i are the same product
    # Row i sums to p_i (1 - sum p) = p_i * O(n eps); symmetry makes the columns sum to 0 too.
    np.testing.assert_allclose(jac.sum(axis=1), 0.0, atol=1e-14)
    np.testing.assert_allclose(jac.sum(axis=0), 0.0, atol=1e-14)


@pytest.mark.parametrize("scores", CASE_SCORES, ids=CASE_IDS)
def test_jacobian_entries_are_p_one_minus_p_and_minus_p_i_p_j(scores):
    p = softmax(scores)
    jac = softmax_jacobian(p)
    # The diagonal is computed as p - p*p: for p near 1 that cancels, leaving an absolute (not
    # relative) rounding error of a few eps, <= 1e-15.
    np.testing.assert_allclose(np.diag(jac), p * (1 - p), rtol=1e-14, atol=1e-15)
    off = ~np.eye(len(p), dtype=bool)
    np.testing.assert_allclose(jac[off], -np.outer(p, p)[off], rtol=1e-14, atol=1e-300)


@pytest.mark.parametrize("scores", CASE_SCORES, ids=CASE_IDS)
def test_jacobian_matches_central_differences_of_softmax(scores):
    h = 1e-5
    # Error budget of (softmax(s + h e_j) - softmax(s - h e_j)) / 2h: truncation h^2/6 * |d^3 p|
    # <= 2e-11 (third derivatives of softmax are polynomials in p, bounded by 1); rounding of
    # the difference ~ 2 eps / 2h ~ 2e-11; at |s| = 1000 the step itself is represented only to
    # ulp(1000)/2 ~ 5.7e-14, a relative error 5.7e-9 of h, i.e. <= 1.5e-9 on entries <= 1/4.
    jac = softmax_jacobian(softmax(scores))
    for j in range(len(scores)):
        step = np.zeros_like(scores)
        step[j] = h
        column = (softmax(scores + step) - softmax(scores - step)) / (2 * h)
        np.testing.assert_allclose(jac[:, j], column, rtol=0, atol=1e-8)


def test_jacobian_works_on_a_batch_of_shares():
    rows = softmax(np.random.default_rng(5).normal(size=(3, 8)))
    batch = softmax_jacobian(rows)
    assert batch.shape == (3, 8, 8)
    np.testing.assert_array_equal(batch, np.stack([softmax_jacobian(r) for r in rows]))


@pytest.mark.parametrize("scores", CASE_SCORES, ids=CASE_IDS)
def test_jacobian_frobenius_norm_never_exceeds_one_half(scores):
    assert np.linalg.norm(softmax_jacobian(softmax(scores))) <= jacobian_frobenius_bound() + 1e-15


def test_jacobian_frobenius_norm_reaches_one_half_at_two_equal_shares():
    p = np.array([0.5, 0.5, 0.0, 0.0, 0.0])
    assert np.linalg.norm(softmax_jacobian(p)) == pytest.approx(jacobian_frobenius_bound(),
                                                                 rel=1e-15)


@pytest.mark.parametrize("scores", CASE_SCORES, ids=CASE_IDS)
def test_softmax_vjp_equals_the_jacobian_times_the_upstream_vector(scores):
    p = softmax(scores)
    u = np.random.default_rng(len(scores)).normal(size=len(scores))
    # Both sides are sums of <= n products of numbers bounded by max|u| (the shares are <= 1):
    # rounding error <= n * eps * max|u| * a few, below 1e-13 for n <= 64 and |u| < 5.
    np.testing.assert_allclose(softmax_vjp(p, u), softmax_jacobian(p) @ u, rtol=0, atol=1e-13)


@pytest.mark.parametrize("gap", [5.0, 40.0, 120.0])
def test_softmax_vjp_keeps_its_precision_in_a_saturated_row(gap: float) -> None:
    """Against the exact value (decimal arithmetic at 100 digits from the same float scores
    and u): every entry within 1e-12 of its own size, also when the winner's share rounds to
    1.0 (gap 40 and 120: the others' shares are below 1e-17), where p_i (u_i - p·u) leaves
    float64 rounding of ~1e-16 in place of an entry of ~1e-18 or ~1e-52. The bound: each
    entry is a sum of <= n products of a few float64 roundings each, so its relative error
    stays within a small multiple of n * 2.2e-16 ≈ 2e-15 (no term cancels: the u_i - u_j of
    one entry are weighted by positive shares)."""
    from decimal import Decimal, localcontext
    rng = np.random.default_rng(int(gap))
    scores = np.concatenate([[gap], rng.normal(size=7)])
    u = rng.normal(size=8)
    with localcontext() as ctx:
        ctx.prec = 100     # p·u agrees with the winner's u to ~52 digits at gap 120
        e = [(Decimal(float(x)) - Decimal(float(scores.max()))).exp() for x in scores]
        p_exact = [x / sum(e) for x in e]
        pu = sum(pi * Decimal(float(ui)) for pi, ui in zip(p_exact, u))
        exact = [pi * (Decimal(float(ui)) - pu) for pi, ui in zip(p_exact, u)]
    got = softmax_vjp(softmax(scores), u)
    for g, x in zip(got, exact):
        assert abs(Decimal(float(g)) - x) <= abs(x) * Decimal("1e-12"), (g, x)


def test_softmax_vjp_is_the_gradient_of_u_dot_softmax_and_works_on_a_batch():
    rng = np.random.default_rng(11)
    scores, u = rng.normal(size=(4, 8)), rng.normal(size=(4, 8))
    got = softmax_vjp(softmax(scores), u)
    assert got.shape == (4, 8)
    np.testing.assert_allclose(got, np.einsum("rij,rj->ri", softmax_jacobian(softmax(scores)), u),
                               rtol=0, atol=1e-13)
    # Central differences of L = u.softmax(s): as for the Jacobian above, truncation and
    # rounding together stay below ~1e-10 times max|u|.
    h = 1e-5
    for j in range(8):
        step = np.zeros(8)
        step[j] = h
        diff = ((softmax(scores + step) * u).sum(axis=1)
                - (softmax(scores - step) * u).sum(axis=1)) / (2 * h)
        np.testing.assert_allclose(got[:, j], diff, rtol=0, atol=1e-8)


@pytest.mark.parametrize("n", [1, 2, 8, 100])
def test_entropy_is_zero_for_one_hot_and_log2_n_for_uniform(n):
    one_hot = np.zeros(n)
    one_hot[n // 2] = 1.0
    assert entropy_bits(one_hot) == 0.0
    assert entropy_bits(np.full(n, 1.0 / n)) == pytest.approx(math.log2(n), abs=1e-12)


@pytest.mark.parametrize("scores", CASE_SCORES, ids=CASE_IDS)
def test_entropy_lies_between_zero_and_log2_n(scores):
    h = entropy_bits(softmax(scores))
    assert -1e-12 <= h <= math.log2(len(scores)) + 1e-12


# --- named streams ----------------------------------------------------------------------------

def test_stream_is_deterministic():
    a = stream(DEFAULT_SEED, "spread/d=4/batch=0").standard_normal(16)
    b = stream(DEFAULT_SEED, "spread/d=4/batch=0").standard_normal(16)
    np.testing.assert_array_equal(a, b)


def test_stream_is_the_same_in_another_process():
    # Python's own hash() of a str changes with PYTHONHASHSEED; the stream key must not.
    code = ("from sqrtdk.science.streams import stream; "
            f"print(repr(stream({DEFAULT_SEED}, 'walk').standard_normal(4).tolist()))")
    outputs = {subprocess.run([sys.executable, "-c", code], cwd=PROJECT_ROOT, check=True,
                              encoding="utf-8", capture_output=True,
                              env={**os.environ, "PYTHONHASHSEED": hs}).stdout
               for hs in ("1", "2")}
    here = repr(stream(DEFAULT_SEED, "walk").standard_normal(4).tolist())
    assert outputs == {here + "\n"}


def test_stream_names_and_seeds_give_different_numbers():
    base = stream(DEFAULT_SEED, "spread/d=4/batch=0").standard_normal(16)
    for seed, name in ((DEFAULT_SEED, "spread/d=8/batch=0"), (DEFAULT_SEED, "spread/d=4/batch=1"),
                       (OTHER_SEED, "spread/d=4/batch=0")):
        assert not np.array_equal(base, stream(seed, name).standard_normal(16)), (seed, name)


def test_stream_rejects_a_negative_seed():
    with pytest.raises(ValueError):
        stream(-1, "walk")


def test_normals_are_float32_standard_normals_of_the_shape_asked():
    x = normals(stream(DEFAULT_SEED, "test/normals"), (4_000, 5))
    assert x.shape == (4_000, 5) and x.dtype == np.float32
    # 20 000 N(0, 1) draws: the mean has SE 1/sqrt(20 000) = 0.0071; the SD has relative SE
    # sqrt(2 / (4 * 20 000)) = 0.005 (kurtosis 3). 5 SE each.
    assert abs(float(x.mean())) < N_SE / math.sqrt(x.size)
    assert abs(float(x.std()) - 1.0) < N_SE * sd_rse(3.0, x.size)


# --- adding a dimension or a batch changes no other number ------------------------------------

SMALL_SPREAD = replace(spread.SpreadParams(), d_k=(4, 512), d_large=512, n_pairs=2_000,
                       n_batches=2)
SMALL_RULERS = replace(rulers.RulerParams(), d_k=(4, 64), n_rows=200, quoted_d=64)


def test_adding_a_dimension_keeps_the_other_spread_batches():
    a = assembled("spread", SMALL_SPREAD, DEFAULT_SEED)
    b = assembled("spread", replace(SMALL_SPREAD, d_k=(4, 16, 512)), DEFAULT_SEED)
    assert b.batches[0] == a.batches[0] and b.batches[2] == a.batches[1]
    sa = spread.spread_section({"spread": a})
    sb = spread.spread_section({"spread": b})
    assert (sb["sd"][0], sb["sd"][2]) == tuple(sa["sd"])
    assert sb["batches"] == sa["batches"]


def test_adding_a_batch_keeps_the_other_spread_batches():
    # Same pairs per batch (1 000), one batch more: the first two batches are the same draws.
    a = assembled("spread", SMALL_SPREAD, DEFAULT_SEED)
    b = assembled("spread", replace(SMALL_SPREAD, n_pairs=3_000, n_batches=3), DEFAULT_SEED)
    for old, new in zip(a.batches, b.batches):
        assert new[:2] == old


def test_spread_sample_is_the_job_output():
    job = next(j for j in spread.jobs(SMALL_SPREAD, DEFAULT_SEED) if j.key == (512, 1))
    assert job.fn(*job.args) == spread.sample(SMALL_SPREAD, DEFAULT_SEED, 512, 1)


def test_adding_a_dimension_keeps_the_other_ruler_rows():
    p_a, stats_a = assembled("rulers", SMALL_RULERS, DEFAULT_SEED)
    p_b, stats_b = assembled("rulers", replace(SMALL_RULERS, d_k=(4, 16, 64)), DEFAULT_SEED)
    assert (stats_b[0], stats_b[2]) == stats_a
    assert stats_a[1] == rulers.rows(SMALL_RULERS, DEFAULT_SEED, 64)


def test_spread_jobs_refuse_inconsistent_parameters():
    with pytest.raises(ValueError):
        spread.jobs(replace(SMALL_SPREAD, d_large=1024), DEFAULT_SEED)
    with pytest.raises(ValueError):
        spread.jobs(replace(SMALL_SPREAD, n_pairs=2_001), DEFAULT_SEED)


def test_rulers_section_refuses_a_quoted_d_off_the_grid_and_mismatched_grids():
    data = {"rulers": assembled("rulers", SMALL_RULERS, DEFAULT_SEED),
            "spread": assembled("spread", replace(SMALL_SPREAD, d_k=(4, 64), d_large=64),
                                DEFAULT_SEED)}
    assert rulers.rulers_section(data)["quoted"]["d"] == 64
    p, stats = data["rulers"]
    with pytest.raises(ValueError):
        rulers.rulers_section({**data, "rulers": (replace(p, quoted_d=512), stats)})
    with pytest.raises(ValueError):
        rulers.rulers_section({**data, "spread": assembled("spread", SMALL_SPREAD, DEFAULT_SEED)})


def test_saturation_refuses_a_quoted_scale_off_the_grid_and_a_row_that_never_crosses_half():
    p = saturation.SaturationParams()
    with pytest.raises(ValueError):
        saturation.saturation_section(
            {"saturation": saturation.saturation(replace(p, quoted_scale=16.1))})
    # Two scores: the winner holds more than 1/2 at every positive scale.
    with pytest.raises(ValueError):
        saturation.saturation(replace(p, labels=("A", "B"), scores=(0.0, 1.0)))


# --- canonical values and canonical text ------------------------------------------------------

def test_canonical_turns_numpy_scalars_into_plain_python_types():
    assert type(canonical(np.float64(0.25))) is float
    assert type(canonical(np.float32(0.5))) is float
    out = canonical(np.int64(7))
    assert type(out) is int and out == 7
    assert type(canonical(np.uint8(3))) is int
    assert canonical(np.bool_(True)) is True


def test_canonical_turns_numpy_arrays_into_lists_of_plain_values():
    out = canonical(np.array([[1.0, 2.5], [3.0, 4.0]]))
    assert out == [[1.0, 2.5], [3.0, 4.0]]
    assert type(out) is list and type(out[0]) is list and type(out[0][0]) is float
    ints = canonical(np.arange(3))
    assert ints == [0, 1, 2] and all(type(v) is int for v in ints)
    assert canonical(np.array([True, False])) == [True, False]
    zero_d = canonical(np.array(2.5))
    assert type(zero_d) is float and zero_d == 2.5


def test_canonical_turns_tuples_into_lists_at_every_depth():
    out = canonical({"a": (1, (2.5, np.int32(3))), "b": [np.float64(0.5)]})
    assert out == {"a": [1, [2.5, 3]], "b": [0.5]}
    assert type(out["a"][1]) is list and type(out["a"][1][1]) is int


def test_canonical_makes_dict_keys_strings():
    assert canonical({4: 1.0, "x": 2, np.int64(8): 3}) == {"4": 1.0, "x": 2, "8": 3}


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
                                 np.float32("inf"), [1.0, math.nan], {"a": (math.inf,)},
                                 np.array([1.0, np.nan])])
def test_canonical_rejects_nan_and_infinity(bad):
    with pytest.raises(ValueError):
        canonical(bad)


@pytest.mark.parametrize("bad", [object(), {1, 2}, b"bytes", 1 + 2j, Path("x"),
                                 [1.0, object()], {"a": {"b": object()}}])
def test_canonical_rejects_unsupported_objects(bad):
    with pytest.raises(TypeError):
        canonical(bad)


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
def test_canonical_rejects_numpy_complex():
    with pytest.raises(TypeError):
        canonical(np.complex128(1 + 2j))
    with pytest.raises(TypeError):
        canonical(np.array([1 + 2j]))


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


def test_dumps_ends_with_exactly_one_newline_and_keeps_non_ascii():
    text = dumps({"a": "√d"})
    assert text.endswith("}\n") and not text.endswith("\n\n")
    assert "√d" in text


def test_dumps_of_results_sorts_keys_and_round_trips(results, tmp_path):
    text = dumps(results)
    assert all(keys == sorted(keys) for keys in _key_orders(text))
    assert json.loads(text) == results
    path = tmp_path / "results.json"
    path.write_text(text, encoding="utf-8")
    assert load(path) == results


def test_load_of_a_missing_file_raises(tmp_path):
    with pytest.raises(FileNotFoundError):
        load(tmp_path / "missing.json")


def test_results_are_already_canonical(results):
    assert canonical(results) == results


def test_at_reads_dotted_paths_with_list_indices(results):
    assert at(results, "spread.sd.0") == results["spread"]["sd"][0]
    assert at(results, "spread.grid.sd.raw.2.3") == results["spread"]["grid"]["sd"]["raw"][2][3]
    with pytest.raises(KeyError):
        at(results, "spread.no_such_key")
    with pytest.raises(IndexError):
        at(results, f"spread.sd.{len(results['spread']['sd'])}")


# --- registries and Run -----------------------------------------------------------------------

def test_registering_the_same_name_twice_raises():
    reg: Registry[Experiment] = Registry("thing")
    first = Experiment("a", None, lambda p, seed: [], lambda p, out: None)
    assert reg.register(first) is first
    with pytest.raises(ValueError):
        reg.register(Experiment("a", 1, lambda p, seed: [], lambda p, out: None))
    assert reg.names() == ["a"] and reg["a"] is first and "a" in reg and "b" not in reg
    with pytest.raises(KeyError):
        reg["b"]


def test_the_real_registries_refuse_a_second_registration_and_stay_unchanged():
    before = EXPERIMENTS.names()
    with pytest.raises(ValueError):
        EXPERIMENTS.register(EXPERIMENTS["walk"])
    assert EXPERIMENTS.names() == before
    registry.load()   # loading again imports nothing twice
    assert EXPERIMENTS.names() == before


def test_every_section_needs_registered_experiments_and_every_claim_a_section():
    for section in SECTIONS:
        assert section.needs, section.name
        for name in section.needs:
            assert name in EXPERIMENTS, (section.name, name)
    for claim in CLAIMS:
        assert claim.section in SECTIONS, claim.name
        assert claim.op in ("<=", ">="), claim.name


def test_every_snippet_file_and_source_module_exists():
    science = Path(reproduce.__file__).parent
    for snippet in SNIPPETS:
        assert snippet.path.is_file(), snippet.name
        assert (science / snippet.source).is_file(), snippet.name


def test_claim_holds_reads_its_operator():
    le = Claim("x", "s", "", lambda s: 0.0, "<=", 1.0)
    ge = Claim("y", "s", "", lambda s: 0.0, ">=", 1.0)
    assert le.holds(1.0) and le.holds(0.5) and not le.holds(1.5)
    assert ge.holds(1.0) and ge.holds(1.5) and not ge.holds(0.5)


def test_run_lists_jobs_largest_first_with_distinct_keys_per_experiment():
    run = Run(DEFAULT_SEED)
    costs = [job.cost for _, job in run.jobs]
    assert costs == sorted(costs, reverse=True)
    for name in EXPERIMENTS.names():
        keys = [job.key for n, job in run.jobs if n == name]
        assert keys and len(set(keys)) == len(keys), name
    assert not run.finished
    with pytest.raises(RuntimeError):
        run.results()


@pytest.fixture(scope="module")
def job_outputs() -> list[tuple[str, Any, Any]]:
    """Every job of the default seed run once more (~3 s): (experiment, key, output)."""
    return [(name, job.key, job.fn(*job.args)) for name, job in Run(DEFAULT_SEED).jobs]


def _feed(outputs: list[tuple[str, Any, Any]]) -> tuple[dict[str, Any], list[str]]:
    """Feed outputs to a fresh Run in the order given; (its results, sections as built)."""
    run = Run(DEFAULT_SEED)
    built: list[str] = []
    for i, (name, key, output) in enumerate(outputs):
        assert not run.finished
        new = run.done(name, key, output)
        for section in new:   # a section is built as soon as everything it needs is there
            assert all(n in run.assembled for n in SECTIONS[section].needs), section
        built += new
        assert run.finished == (i == len(outputs) - 1)
    return run.results(), built


def test_run_builds_every_section_once_in_reverse_completion_order(results, job_outputs):
    fed, built = _feed(job_outputs[::-1])
    assert sorted(built) == sorted(SECTIONS.names())
    assert fed == results


def test_the_same_seed_gives_identical_bytes(results, job_outputs):
    # The jobs ran again in another order of completion; the canonical text is the same bytes.
    fed, _ = _feed(job_outputs[1::2] + job_outputs[::2])
    assert dumps(fed).encode("utf-8") == dumps(results).encode("utf-8")


def test_results_hold_every_section_claims_and_meta(results):
    assert set(results) == set(SECTIONS.names()) | {"claims", "meta"}


# --- another seed: other random numbers, the same deterministic sections ----------------------

def test_another_seed_leaves_the_deterministic_sections_unchanged(results):
    for name in ("saturation", "two_scores"):
        assert section_at(name, OTHER_SEED) == results[name], name


def test_another_seed_gives_other_spread_samples_still_within_theory(results):
    sp = results["spread"]
    for d in (4, 64):
        i = sp["d_k"].index(d)
        sd = spread.sample_sd([spread.sample(spread.SpreadParams(), OTHER_SEED, d, 0)])
        assert canonical(sd) != sp["grid"]["sd"]["raw"][i][1], d   # batch 0 at the default seed
        # One batch of batch_pairs pairs: SE as in test_each_spread_batch_sd_is_near_sqrt_d.
        tol = N_SE * math.sqrt(d) * sd_rse(dot_kurtosis(d), sp["batch_pairs"])
        assert abs(sd - math.sqrt(d)) < tol, f"d={d}: SD {sd:.4f}"


def test_another_seed_gives_other_walks_rulers_and_jacobians(results):
    walk = section_at("walk", OTHER_SEED)
    assert walk["sd"] != results["walk"]["sd"] and walk["paths"] != results["walk"]["paths"]
    # Same tolerance as test_walk_sd_is_within_five_se_of_sqrt_steps.
    n = walk["steps"]
    assert abs(walk["sd"] - math.sqrt(n)) < N_SE * math.sqrt(n) * sd_rse(3 - 2 / n,
                                                                          walk["n_walks"])
    row = rulers.rows(rulers.RulerParams(), OTHER_SEED, DIMENSIONS[0])
    assert canonical(list(row.example_scores)) != results["rulers"]["example"]["scores"][0]
    assert canonical(row.winner_share["raw"]) != results["rulers"]["winner_share"]["raw"][0]
    jac = section_at("jacobian", OTHER_SEED)
    assert jac["norm_small"] != results["jacobian"]["norm_small"]
    assert jac["norm_large"] != results["jacobian"]["norm_large"]
    # Same band as test_jacobian_norm_shrinks_when_the_score_variance_grows.
    assert jac["norm_small"] - jac["norm_large"] > N_SE * math.sqrt(2) * 0.25 / math.sqrt(
        jac["n_rows"])


def test_another_seed_changes_the_seed_line_of_seeded_snippets_only(results):
    for snippet in SNIPPETS:
        text = snippet.path.read_text(encoding="utf-8")
        other = reproduce.with_seed(text, OTHER_SEED)
        seeded = re.search(r"^SEED = \d+$", text, re.M) is not None
        assert (other != results["reproduce"][snippet.name]["code"]) == seeded, snippet.name
        if seeded:
            assert re.findall(r"^SEED = \d+$", other, re.M) == [f"SEED = {OTHER_SEED}"]


# --- spread: the SD of q.k grows as sqrt(d) ---------------------------------------------------

def test_pooled_spread_sd_is_within_five_se_of_sqrt_d_at_every_d(results):
    sp = results["spread"]
    for d, sd in zip(sp["d_k"], sp["sd"]):
        theory = math.sqrt(d)
        # SE(s) = sqrt(d) * sqrt((kappa - 1) / 4n), kappa = 3 + 6/d (see dot_kurtosis).
        tol = N_SE * theory * sd_rse(dot_kurtosis(d), sp["n_pairs"])
        assert abs(sd - theory) < tol, f"d={d}: SD {sd:.4f}, theory {theory:.4f} +- {tol:.4f}"


def test_each_spread_batch_sd_is_near_sqrt_d(results):
    sp = results["spread"]
    assert sp["batch_pairs"] * sp["batches"]["n"] == sp["n_pairs"]
    for d, row in zip(sp["d_k"], sp["grid"]["sd"]["raw"]):
        assert len(row) == sp["batches"]["n"] + 1
        # Each batch is its own sample of batch_pairs pairs: the same SE with n = batch_pairs
        # (1.9 % of sqrt(d) at d = 4, 1.4 % at large d), 5 SE.
        tol = N_SE * math.sqrt(d) * sd_rse(dot_kurtosis(d), sp["batch_pairs"])
        for b, sd in enumerate(row[1:]):
            assert abs(sd - math.sqrt(d)) < tol, f"d={d}, batch {b}: SD {sd:.4f} +- {tol:.4f}"


def test_spread_batches_are_distinct_samples(results):
    # Each batch has its own named stream; continuous SDs of distinct samples never coincide.
    for d, row in zip(results["spread"]["d_k"], results["spread"]["grid"]["sd"]["raw"]):
        assert len(set(row[1:])) == len(row) - 1, d


def test_spread_batch_ratios_are_near_sqrt_of_the_dimension_ratio(results):
    sp, batches = results["spread"], results["spread"]["batches"]
    theory = math.sqrt(sp["d_large"] / sp["d_small"])
    assert sp["ratio_theory"] == canonical(theory)
    assert sp["d_ratio"] * sp["d_small"] == sp["d_large"]
    # The two SDs of a batch come from independent streams; by the delta method the relative SE
    # of their ratio is sqrt(rse_small^2 + rse_large^2) (2.4 % with 2 500 pairs), 5 SE.
    rse = math.hypot(sd_rse(dot_kurtosis(sp["d_small"]), sp["batch_pairs"]),
                     sd_rse(dot_kurtosis(sp["d_large"]), sp["batch_pairs"]))
    tol = N_SE * theory * rse
    raw = sp["grid"]["sd"]["raw"]
    i_small, i_large = sp["d_k"].index(sp["d_small"]), sp["d_k"].index(sp["d_large"])
    assert batches["n"] == len(batches["ratio"]) == len(raw[i_small]) - 1
    for b, (small, large, ratio) in enumerate(zip(raw[i_small][1:], raw[i_large][1:],
                                                  batches["ratio"])):
        assert abs(ratio - theory) < tol, f"batch {b}: ratio {ratio:.3f} +- {tol:.3f}"
        # ratio is large/small before rounding: three roundings, relative error <= 3 ROUND.
        assert ratio == pytest.approx(large / small, rel=3 * ROUND)
    # Rounding is monotone, so the rounded min/max are the min/max of the rounded ratios.
    assert batches["ratio_min"] == min(batches["ratio"])
    assert batches["ratio_max"] == max(batches["ratio"])
    worst = max(abs(r / theory - 1) for r in batches["ratio"])
    # The claim on them is checked at each dₖ of the bar; at the built one it reads the
    # worst batch. Each ratio is off by <= ROUND relative, so |r/theory - 1| moves by <= 1.1
    # ROUND (and the claim reads the grid's min and max, rounded once more).
    claim = results["claims"]["spread.batches_near_sqrt"]
    at_built = claim["values"][claim["d_k"].index(sp["d_large"])]
    assert at_built == pytest.approx(worst, abs=3 * ROUND)


def test_spread_summaries_are_entries_of_the_grid(results):
    sp = results["spread"]
    raw = sp["grid"]["sd"]["raw"]
    i_small, i_large = sp["d_k"].index(sp["d_small"]), sp["d_k"].index(sp["d_large"])
    assert sp["sd"] == [row[0] for row in raw]           # one quantity, one (rounded) value
    assert sp["sd_small"] == sp["sd"][i_small] and sp["sd_large"] == sp["sd"][i_large]
    assert sp["ratio"] == pytest.approx(sp["sd_large"] / sp["sd_small"], rel=3 * ROUND)
    assert sp["sd_theory"] == canonical([math.sqrt(d) for d in sp["d_k"]])
    assert sp["d_k"] == list(DIMENSIONS)


def test_spread_grid_under_each_ruler_is_the_raw_sd_divided_by_its_divisor(results):
    g, d_k = results["spread"]["grid"], results["spread"]["d_k"]
    for r in RULERS:
        assert g["scale"][r] == canonical([math.sqrt(d) / divisor(r, d) for d in d_k]), r
        for i, d in enumerate(d_k):
            # Both sides rounded once from the same unrounded SD: relative error <= 2 ROUND.
            np.testing.assert_allclose(g["sd"][r][i], np.asarray(g["sd"]["raw"][i]) /
                                       divisor(r, d), rtol=2 * ROUND, atol=0)
            # ratio = sd / sd at the first d, per batch: three roundings.
            np.testing.assert_allclose(g["ratio"][r][i], np.asarray(g["sd"][r][i]) /
                                       np.asarray(g["sd"][r][0]), rtol=3 * ROUND, atol=0)
            assert g["ratio_theory"][r][i] == canonical(sd_theory(r, d) / sd_theory(r, d_k[0]))


def test_spread_slope_is_near_one_half(results):
    sp = results["spread"]
    x = np.log(np.asarray(sp["d_k"], dtype=float))
    # The least-squares slope is sum_i w_i y_i with w_i = (x_i - mean x) / S_xx and
    # y_i = log SD_i. The SDs at different d are independent, and Var(log s) ~ rse^2 (delta
    # method), so SE(slope) = sqrt(sum_i w_i^2 rse_i^2): about 0.0011 with 20 000 pairs per d.
    # (The bias of log s, -rse^2/2 ~ -2e-5, hardly changes with d: negligible.)
    w = (x - x.mean()) / ((x - x.mean()) ** 2).sum()
    rse = np.array([sd_rse(dot_kurtosis(d), sp["n_pairs"]) for d in sp["d_k"]])
    se = math.sqrt(float((w ** 2 * rse ** 2).sum()))
    assert abs(sp["slope"] - 0.5) < N_SE * se, f"slope {sp['slope']:.5f} +- {N_SE * se:.5f}"
    # The slope was fitted to the unrounded SDs: rounding moves each log SD by <= ROUND, the
    # slope by <= ROUND * sum |w_i| (~0.5 ROUND), and the slope's own rounding adds ROUND / 2.
    refit = float(np.polyfit(x, np.log(sp["sd"]), 1)[0])
    assert abs(refit - sp["slope"]) <= ROUND * (float(np.abs(w).sum()) + 1)


def test_spread_histograms_hold_at_most_every_pair_and_pool_the_batches(results):
    sp = results["spread"]
    edges = np.asarray(sp["grid"]["z_edges"])
    p = spread.SpreadParams()
    assert edges[0] == -p.hist_limit and edges[-1] == p.hist_limit
    np.testing.assert_allclose(np.diff(edges), p.hist_bin, rtol=1e-12)
    for d, hist in zip(sp["d_k"], sp["grid"]["hist"]):
        pooled, batches = hist[0], hist[1:]
        assert len(batches) == sp["batches"]["n"]
        assert all(len(c) == len(edges) - 1 for c in hist)
        assert all(type(v) is int and v >= 0 for c in hist for v in c)
        assert all(sum(c) <= sp["batch_pairs"] for c in batches), d
        assert pooled == [sum(col) for col in zip(*batches)], d
        # Pairs outside +-6 SD: by Markov on x^4, P(|x| >= 6 sigma) <= kappa / 6^4 (0.35 % at
        # d = 4), so the count outside is binomial with mean <= n kappa / 1296 and SD <= its
        # root; allow 5 SE above that (the Poisson-Chernoff tail there is < 3e-5).
        mean_out = sp["n_pairs"] * dot_kurtosis(d) / 6 ** 4
        assert sp["n_pairs"] - sum(pooled) <= mean_out + N_SE * math.sqrt(mean_out), d


# --- the +-1 walk of footnote 2 ---------------------------------------------------------------

def test_walk_sd_is_within_five_se_of_sqrt_steps(results):
    w = results["walk"]
    n = w["steps"]
    assert w["sd_theory"] == canonical(math.sqrt(n))
    # One +-1 step has E x^2 = E x^4 = 1, kurtosis 1, excess -2; a sum of n steps has excess
    # -2/n, kurtosis 3 - 2/n. SE(s) = sqrt(n) sqrt((2 - 2/n) / 4 n_walks): 0.05 steps.
    tol = N_SE * math.sqrt(n) * sd_rse(3.0 - 2.0 / n, w["n_walks"])
    assert abs(w["sd"] - math.sqrt(n)) < tol, f"walk SD {w['sd']:.4f} +- {tol:.4f}"


def test_walk_paths_start_at_zero_and_move_one_step_at_a_time(results):
    paths = np.asarray(results["walk"]["paths"])
    assert paths.shape == (spread.WalkParams().n_paths_shown, results["walk"]["steps"] + 1)
    assert np.all(paths[:, 0] == 0)
    assert np.all(np.abs(np.diff(paths, axis=1)) == 1)


# --- rulers: 1, sqrt(d) and d -----------------------------------------------------------------

def test_rulers_sd_is_the_spread_sd_divided_by_one_sqrt_d_and_d(results):
    ru = results["rulers"]
    assert ru["d_k"] == results["spread"]["d_k"] and ru["names"] == list(RULERS)
    assert ru["sd"]["raw"] == results["spread"]["sd"]   # the same samples, the same value
    d = np.asarray(ru["d_k"], dtype=float)
    raw = np.asarray(ru["sd"]["raw"])
    # Dividing by a constant divides the SD exactly; each side was rounded once: 2 ROUND.
    np.testing.assert_allclose(ru["sd"]["sqrt"], raw / np.sqrt(d), rtol=2 * ROUND, atol=0)
    np.testing.assert_allclose(ru["sd"]["linear"], raw / d, rtol=2 * ROUND, atol=0)
    for r in RULERS:
        assert ru["sd_theory"][r] == canonical([sd_theory(r, int(v)) for v in d]), r


def test_rulers_shares_and_entropies_stay_in_their_ranges(results):
    ru = results["rulers"]
    assert ru["uniform_share"] == canonical(1 / ru["positions"])
    assert ru["max_entropy_bits"] == canonical(math.log2(ru["positions"]))
    for r in RULERS:
        assert all(1 / ru["positions"] <= s <= 1 for s in ru["winner_share"][r]), r  # max >= mean
        assert all(0 <= h <= math.log2(ru["positions"]) for h in ru["entropy_bits"][r]), r


def test_rulers_quotes_and_flat_ranges_are_read_from_the_per_d_lists(results):
    ru = results["rulers"]
    i = ru["d_k"].index(ru["quoted"]["d"])
    for kind in ("sd", "winner_share", "entropy_bits"):
        for r in RULERS:
            assert ru["quoted"][f"{kind}_{r}"] == ru[kind][r][i], (kind, r)
    # max - min of the rounded values against the rounded difference of the unrounded ones:
    # each of max, min is off by <= ROUND times itself, the difference by ROUND times itself.
    for key, values in (("share_range_sqrt", ru["winner_share"]["sqrt"]),
                        ("entropy_range_sqrt", ru["entropy_bits"]["sqrt"])):
        rng = max(values) - min(values)
        assert abs(ru["flat"][key] - rng) <= ROUND * (max(values) + min(values) + rng), key


# The monotone trends below are strict. Their justification is the size of each expected step
# in standard errors. That was measured once with 40 000 rows per d (per-row SDs of the winner
# share 0.09-0.21 raw, 0.002-0.07 linear; of the entropy 0.26-0.68 raw, 0.0003-0.14 linear).
# The smallest expected steps, in SEs of a difference of two 2 000-row means, are: raw share
# 4.6 (d = 512 -> 1024), raw entropy 5.6, linear share 18, linear entropy 20. So a chance
# reversal has probability <= Phi(-4.6) ~ 2e-6 per step, and far less elsewhere.

def test_raw_ruler_winner_share_increases_toward_one_hot_and_entropy_decreases(results):
    ru = results["rulers"]
    share = np.asarray(ru["winner_share"]["raw"])
    assert np.all(np.diff(share) > 0)
    assert np.all(np.diff(ru["entropy_bits"]["raw"]) < 0)
    # Toward 1: the raw SD grows 16x from d = 4 to d = 1024; once it is large, 1 - share falls
    # like 1/SD (rows with a top-two gap below ~1/SD keep a runner-up; the gap has a positive
    # density at 0). Demand only a 4x fall, with 5 bound-SEs of noise against it on both ends.
    band = N_SE * share_mean_se(ru["positions"], ru["n_rows"])
    assert (1 - share[-1]) + band < ((1 - share[0]) - band) / 4


def test_linear_ruler_winner_share_decreases_toward_uniform_and_entropy_increases(results):
    ru = results["rulers"]
    share = np.asarray(ru["winner_share"]["linear"])
    assert np.all(np.diff(share) < 0)
    # Toward 1/n: scores divided by d have SD 1/sqrt(d); to first order p_j = (1 + s_j - mean s)/n,
    # so share - 1/n ~ E[max of n N(0,1)] / (n sqrt d): 16x smaller at d = 1024 than at d = 4.
    # Demand 4x; per-row SDs <= 0.07 make the noise (SE <= 0.0016) negligible against that.
    excess = share - 1 / ru["positions"]
    assert excess[-1] < excess[0] / 4
    ent = np.asarray(ru["entropy_bits"]["linear"])
    assert np.all(np.diff(ent) > 0)
    # Toward log2 n: to second order the deficit log2 n - H is proportional to the variance of
    # the scores, 1/d, so 256x smaller at d = 1024 than at d = 4. Demand 16x.
    deficit = math.log2(ru["positions"]) - ent
    assert deficit[-1] < deficit[0] / 16


def test_sqrt_ruler_share_and_entropy_are_flat_across_d(results):
    ru = results["rulers"]
    # Nine independent means: max - min > c needs one of the 36 pairs to differ by > c. A pair's
    # difference has SE <= sqrt 2 * se (Popoviciu bounds above), so with c = 5 sqrt 2 se the
    # union bound gives a false alarm <= 36 * 5.7e-7 = 2e-5. The true mean share does drift a
    # little at small d, because |q|^2 / d fluctuates (variance 2/d): ~0.02 from d = 4 to 1024,
    # against a band of 0.069 (the bound is loose: real per-row SD ~0.13, not 0.44).
    share, ent = ru["winner_share"]["sqrt"], ru["entropy_bits"]["sqrt"]
    share_band = N_SE * math.sqrt(2) * share_mean_se(ru["positions"], ru["n_rows"])
    entropy_band = N_SE * math.sqrt(2) * entropy_mean_se(ru["positions"], ru["n_rows"])
    assert max(share) - min(share) < share_band
    assert max(ent) - min(ent) < entropy_band


def test_rulers_order_at_every_d_is_raw_then_sqrt_then_linear(results):
    # The rulers see the same rows, and the top share of softmax(t s) rises with t
    # (d p_w/dt = p_w (s_w - sum_j p_j s_j) >= 0) while its entropy falls
    # (dH/dt = -t Var_p(s) / ln 2). With t = 1 > 1/sqrt d > 1/d this orders every row, hence the
    # means, with no noise at all.
    ws, ent = results["rulers"]["winner_share"], results["rulers"]["entropy_bits"]
    for raw, sq, lin in zip(ws["raw"], ws["sqrt"], ws["linear"]):
        assert raw > sq > lin
    for raw, sq, lin in zip(ent["raw"], ent["sqrt"], ent["linear"]):
        assert raw < sq < lin


def test_rulers_example_rows_are_the_softmax_of_the_example_scores(results):
    ru, ex = results["rulers"], results["rulers"]["example"]
    n = ru["positions"]
    for i, d in enumerate(ru["d_k"]):
        scores = np.asarray(ex["scores"][i])
        assert scores.shape == (n,)
        for r in RULERS:
            shares = np.asarray(ex["shares"][r][i])
            # n rounded shares, each off by <= ROUND * p_i: the sum is 1 within ROUND.
            assert abs(shares.sum() - 1.0) <= ROUND, (d, r)
            # Rounding is monotone: the rounded largest share is the largest rounded share.
            assert ex["winner_share"][r][i] == max(ex["shares"][r][i]), (d, r)
            # The scores were rounded by <= ROUND |s_j|; since sum_j |dp_i/ds_j| =
            # 2 p_i (1 - p_i) <= 1/2 everywhere, the shares move by <= ROUND max|s| / (2 tau),
            # and their own rounding adds <= ROUND * p_i.
            tau = divisor(r, d)
            expected = softmax(scores / tau)
            tol = ROUND * float(np.abs(scores).max()) / (2 * tau) + ROUND * expected
            assert np.all(np.abs(shares - expected) <= tol), (d, r)
            # Entropy of shares rounded by a factor (1 + e), |e| <= ROUND: the term -p log2 p
            # moves by <= ROUND (p |log2 p| + 1.45 p), so the sum by <= ROUND (H + 1.45); the
            # entropy's own rounding adds ROUND H. H <= log2 n: tolerance ROUND (2 log2 n + 1.5).
            h = float(entropy_bits(shares))
            assert abs(ex["entropy_bits"][r][i] - h) <= ROUND * (2 * math.log2(n) + 1.5), (d, r)


# --- saturation: one row of scores under a growing scale --------------------------------------

@pytest.fixture(scope="module")
def row() -> saturation.Saturation:
    """The saturation experiment, unrounded (deterministic and cheap)."""
    return saturation.saturation(saturation.SaturationParams())


def test_saturation_section_is_the_rounded_experiment(results, row):
    sa = results["saturation"]
    assert sa["scales"] == canonical(row.scales)
    assert sa["shares"] == canonical(row.shares)
    assert sa["p_winner"] == canonical(row.p_winner)
    assert sa["sensitivity"] == canonical(row.sensitivity)
    assert sa["max_offdiag"] == canonical(row.max_offdiag)
    assert sa["row_sd"] == canonical(float(np.std(row.params.scores)))


def test_saturation_shares_sum_to_one_at_every_scale(row, results):
    np.testing.assert_allclose(np.asarray(row.shares).sum(axis=1), 1.0, rtol=0, atol=1e-13)
    # After rounding each share by <= ROUND p_i the sums are 1 within ROUND.
    np.testing.assert_allclose(np.asarray(results["saturation"]["shares"]).sum(axis=1), 1.0,
                               rtol=0, atol=ROUND)


def test_saturation_winner_is_the_largest_score(row, results):
    scores = row.params.scores
    assert scores[row.winner] == max(scores)
    np.testing.assert_array_equal(np.asarray(row.shares)[:, row.winner], row.p_winner)
    sa = results["saturation"]
    assert sa["winner"] == sa["labels"][sa["scores"].index(max(sa["scores"]))]


def test_saturation_winner_share_increases_with_the_scale(row, results):
    # d p_w / dc = p_w (s_w - sum_j p_j s_j) > 0 when s_w is the unique maximum. After rounding
    # (monotone) the shares can only tie, near 1.
    assert np.all(np.diff(row.p_winner) > 0)
    assert np.all(np.diff(results["saturation"]["p_winner"]) >= 0)


def test_saturation_sensitivity_is_p_times_one_minus_p(row):
    p = np.asarray(row.p_winner)
    # Absolute tolerance of a few eps: see test_jacobian_entries_are_p_one_minus_p_...
    np.testing.assert_allclose(row.sensitivity, p * (1 - p), rtol=1e-14, atol=1e-15)


def test_saturation_max_offdiag_is_the_largest_product_of_two_shares(row):
    for shares, got in zip(row.shares, row.max_offdiag):
        prod = np.outer(shares, shares)
        np.fill_diagonal(prod, 0.0)
        assert got == pytest.approx(prod.max(), rel=1e-14)


def test_saturation_sensitivity_peak_is_interior_and_half_scale_gives_one_half(row):
    sens = np.asarray(row.sensitivity)
    peak = int(np.argmax(sens))
    assert 0 < peak < len(sens) - 1
    # p_w rises with the scale and p(1 - p) is unimodal in p, so the sensitivity is unimodal.
    assert np.all(np.diff(sens[: peak + 1]) > 0)
    assert np.all(np.diff(sens[peak:]) < 0)
    # 60 bisection steps leave the scale exact to a few ulp (~1e-15); |dp/dc| <= 2 here.
    p_half = softmax(row.half_scale * np.asarray(row.params.scores))[row.winner]
    assert abs(p_half - 0.5) < 1e-12
    # The grid argmax of p(1 - p) is the grid point whose p is nearest 1/2, i.e. one of the two
    # grid points bracketing half_scale, one multiplicative step 2^(1/per_octave) apart.
    step = 2.0 ** (1 / row.params.per_octave)
    assert row.half_scale / step <= row.scales[peak] <= row.half_scale * step


def test_saturation_quotes_are_entries_of_the_per_scale_lists(results, row):
    sa = results["saturation"]
    sigma = sa["row_sd"]
    peak = int(np.argmax(row.sensitivity))

    def entry(i: int) -> dict[str, float]:
        return {"scale": sa["scales"][i], "p_winner": sa["p_winner"][i],
                "sensitivity": sa["sensitivity"][i], "max_offdiag": sa["max_offdiag"][i]}

    first = entry(sa["scales"].index(1.0))                  # the row as given
    assert sa["first"] == {k: first[k] for k in ("scale", "p_winner", "sensitivity")}
    for key, i in (("quoted", sa["scales"].index(row.params.quoted_scale)), ("peak", peak)):
        got = dict(sa[key])
        # (scale * sigma)^2 from two values rounded by ROUND each, itself rounded:
        # relative error <= 2 (ROUND + ROUND) + ROUND = 5 ROUND.
        assert got.pop("equivalent_dk") == pytest.approx((got["scale"] * sigma) ** 2,
                                                         rel=5 * ROUND), key
        got.pop("half_scale", None)
        got.pop("half_equivalent_dk", None)
        assert got == entry(i), key
    assert sa["peak"]["half_scale"] == canonical(row.half_scale)
    assert sa["peak"]["half_equivalent_dk"] == pytest.approx(
        (sa["peak"]["half_scale"] * sigma) ** 2, rel=5 * ROUND)
    assert all(s in sa["scales"] for s in sa["shown_scales"])   # the bar-chart panels


def test_saturation_scale_for_each_ruler_is_the_theory_sd_over_the_row_sd(results):
    sa = results["saturation"]
    sf = sa["scale_for"]
    assert sf["d_k"] == list(DIMENSIONS)
    for r in RULERS:
        # sd_theory is exact; row_sd and the result are rounded once each: 2 ROUND.
        np.testing.assert_allclose(sf[r], [sd_theory(r, d) / sa["row_sd"] for d in sf["d_k"]],
                                   rtol=2 * ROUND, atol=0)


# --- softmax Jacobian norms (seed 002) and two scores (seed 003) ------------------------------

def test_jacobian_norm_shrinks_when_the_score_variance_grows(results):
    jn = results["jacobian"]
    assert jn["var_small"] < jn["var_large"]
    # A row's norm lies in [0, 1/2], so its SD is <= 1/4 (Popoviciu) and the SE of a mean of
    # n_rows rows is <= 1/(4 sqrt n_rows); a difference of two independent means has SE <= sqrt 2
    # times that. Demanding a difference beyond 5 such SEs shows the order is not noise.
    norm_band = N_SE * math.sqrt(2) * 0.25 / math.sqrt(jn["n_rows"])
    share_band = N_SE * math.sqrt(2) * share_mean_se(jn["length"], jn["n_rows"])
    assert jn["norm_small"] - jn["norm_large"] > norm_band
    assert jn["winner_large"] - jn["winner_small"] > share_band


def test_jacobian_norms_stay_within_the_frobenius_bound(results):
    jn = results["jacobian"]
    assert jn["norm_max"] == jacobian_frobenius_bound()
    assert 0.0 < jn["norm_large"] < jacobian_frobenius_bound()
    assert 0.0 < jn["norm_small"] < jacobian_frobenius_bound()
    assert 1 / jn["length"] <= jn["winner_small"] <= 1.0
    assert 1 / jn["length"] <= jn["winner_large"] <= 1.0


def test_two_scores_match_the_logistic_function_and_sensitivities_are_products(results):
    ts = results["two_scores"]
    a, b = ts["scores"]
    gap = a - b
    assert ts["divisor"] == math.sqrt(ts["d_k"])
    # With two scores softmax is the logistic function of the gap; each stored share is the
    # exact value rounded once (relative error <= ROUND).
    for key, g in (("plain", gap), ("scaled", gap / math.sqrt(ts["d_k"]))):
        assert ts[key][0] == pytest.approx(1 / (1 + math.exp(-g)), rel=ROUND), key
        assert ts[key][1] == pytest.approx(1 / (1 + math.exp(g)), rel=ROUND), key
        # p1 p2 from two rounded shares, and the stored product rounded: <= 3 ROUND.
        assert ts[f"sensitivity_{key}"] == pytest.approx(ts[key][0] * ts[key][1],
                                                         rel=3 * ROUND), key
    assert ts["sensitivity_plain"] < ts["sensitivity_scaled"]


# --- the gradient reaching q ------------------------------------------------------------------
#
# Distribution-free noise of sample quantiles: the sample u-quantile of n draws exceeds the
# population (u + delta)-quantile only if Bin(n, u + delta) falls below ~u n, so with
# delta = 5 sqrt(u (1 - u) / n) that has probability ~5.7e-7. With n = 2 000 rows: the sample
# median lies in the population [0.444, 0.556] quantiles, the sample p10 below the population
# 0.134 quantile and the sample p90 above the population 0.866 quantile.

def test_gradient_quantiles_are_ordered_and_fractions_lie_in_the_unit_interval(results):
    g = results["gradient"]
    n = g["n_rows"]
    assert g["d_k"] == results["rulers"]["d_k"]
    for r in RULERS:
        for i in range(len(g["d_k"])):
            # np.quantile is monotone in the level and rounding is monotone.
            assert 0 <= g["p10"][r][i] <= g["median"][r][i] <= g["p90"][r][i], (r, i)
            below = g["below"][r][i]
            assert 0.0 <= below <= 1.0
            count = below * n   # k / 2 000 has <= 4 decimals: canonical keeps it exactly
            assert count == pytest.approx(round(count), abs=1e-6), (r, i)
            # np.quantile(0.5) interpolates between the sorted values at 999 and 1000 (0-based):
            # with <= 999 rows below the threshold both are above it, with >= 1 001 both below.
            if round(count) <= math.floor(0.5 * (n - 1)):
                assert g["median"][r][i] >= g["threshold"], (r, i)
            if round(count) > math.ceil(0.5 * (n - 1)):
                assert g["median"][r][i] <= g["threshold"], (r, i)


def test_gradient_summaries_are_entries_of_the_per_d_lists(results):
    g = results["gradient"]
    med, below = g["median"], g["below"]
    assert (g["d_first"], g["d_last"]) == (g["d_k"][0], g["d_k"][-1])
    assert g["raw_median_first"] == med["raw"][0] and g["raw_median_last"] == med["raw"][-1]
    assert g["sqrt_median_first"] == med["sqrt"][0] and g["sqrt_median_last"] == med["sqrt"][-1]
    assert g["raw_below_last"] == below["raw"][-1] and g["sqrt_below_last"] == below["sqrt"][-1]
    # Ratios of two rounded values, rounded again: relative error <= 3 ROUND.
    assert g["raw_drop"] == pytest.approx(med["raw"][0] / med["raw"][-1], rel=3 * ROUND)
    assert g["sqrt_drift"] == pytest.approx(max(med["sqrt"]) / min(med["sqrt"]), rel=3 * ROUND)


def test_sqrt_ruler_gradient_medians_stay_inside_every_other_d_s_middle_80_percent(results):
    g = results["gradient"]
    # Under /sqrt(d), dL/dq = K^T J u / sqrt(d): the part of each key orthogonal to q is
    # independent of the scores, so |dL/dq|^2 -> |J u|^2 (chi^2_{d-1}/d -> 1) and the scores
    # -> N(0, 1) as d grows: the law of the norm tends to one law, the same at every d. Flat
    # therefore means: no d's median leaves another d's 10-90 % range. By the quantile noise
    # above this fails by chance only if a population 0.556-quantile passes another d's
    # 0.866-quantile (or 0.444 passes 0.134), far from the near-equal laws here. 81 pairs x 2.
    for i, m in enumerate(g["median"]["sqrt"]):
        for j in range(len(g["d_k"])):
            assert g["p10"]["sqrt"][j] < m < g["p90"]["sqrt"][j], (g["d_k"][i], g["d_k"][j])


def test_raw_gradient_median_falls_from_the_smallest_to_the_largest_d(results):
    g = results["gradient"]
    # Unscaled, the largest d makes attention nearly one-hot (winner share > 0.9), so J, and
    # with it the gradient, nearly vanishes. By the quantile noise above, the median at the
    # largest d lies below the p10 at the smallest d, and below the /sqrt(d) p10 at the same d,
    # unless the population quantiles themselves cross.
    assert g["median"]["raw"][-1] < g["p10"]["raw"][0]
    assert g["median"]["raw"][-1] < g["p10"]["sqrt"][-1]
    assert g["below"]["raw"][-1] > g["below"]["sqrt"][-1]


# --- reproduce: the code shown is the code that ran -------------------------------------------

@pytest.mark.parametrize("name", SNIPPETS.names())
def test_snippet_code_carries_the_seed_and_prints_its_stdout_in_a_fresh_python(name, results,
                                                                             tmp_path):
    snippet = SNIPPETS[name]
    entry = results["reproduce"][name]
    assert entry["file"] == f"snippets/{snippet.path.name}" and entry["source"] == snippet.source
    text = snippet.path.read_text(encoding="utf-8")
    assert entry["code"] == reproduce.with_seed(text, DEFAULT_SEED)
    if re.search(r"^SEED = ", text, re.M):
        assert re.findall(r"^SEED = .*$", entry["code"], re.M) == [f"SEED = {DEFAULT_SEED}"]
    script = tmp_path / snippet.path.name
    script.write_text(entry["code"], encoding="utf-8")
    ran = subprocess.run([sys.executable, str(script)], cwd=tmp_path, check=True, encoding="utf-8",
                         capture_output=True)
    assert ran.stdout == entry["stdout"]
    assert entry["stdout"].strip()


# What each box's text puts it beside: the dimensions (or scales) of the numbers it sits under.
# A snippet run elsewhere prints numbers nobody can compare with the page's.
SNIPPET_SETTINGS = {
    "sheet1": (r"\bd = (\d+)", lambda r: {r["spread"]["d_small"], r["spread"]["d_large"]}),
    "sheet2": (r"^x(\d+):", lambda r: {r["saturation"]["shown_scales"][0],
                                         r["saturation"]["quoted"]["scale"]}),
    "sheet3": (r"\bd = (\d+)", lambda r: {r["rulers"]["quoted"]["d"]}),
    "gradient": (r"\bd = +(\d+)", lambda r: {r["gradient"]["d_first"], r["gradient"]["d_last"]}),
}


@pytest.mark.parametrize("name", SNIPPETS.names())
def test_snippet_runs_at_the_settings_of_the_experiment_it_reproduces(name, results):
    pattern, expected = SNIPPET_SETTINGS[name]
    printed = {float(m) for m in re.findall(pattern, results["reproduce"][name]["stdout"], re.M)}
    assert printed == {float(v) for v in expected(results)}, name


# --- claims and meta --------------------------------------------------------------------------

def test_every_registered_claim_is_evaluated_and_holds_for_the_default_seed(results):
    claims = results["claims"]
    assert set(claims) == set(CLAIMS.names())
    for claim in CLAIMS:
        got = claims[claim.name]
        assert got["op"] == claim.op and got["bound"] == canonical(claim.bound), claim.name
        assert got["section"] == claim.section, claim.name
        section = results[claim.section]
        if claim.each_dk:     # its value at each dₖ of the page's bar; the worst of them
            d_k = results["spread"]["d_k"]
            values = [canonical(float(claim.value(section, d_k.index(d)))) for d in got["d_k"]]
            assert got["values"] == values and got["value"] == claim.worst(values), claim.name
            assert got["d_k"] and d_k.index(results["spread"]["d_large"]) in \
                [d_k.index(d) for d in got["d_k"]], claim.name
        else:
            assert got["value"] == canonical(float(claim.value(section))), claim.name
            assert got["d_k"] == got["values"] == [], claim.name
        expected = (got["value"] <= got["bound"] if got["op"] == "<="
                    else got["value"] >= got["bound"])
        assert got["held"] is expected, claim.name
        assert got["held"] is True, f"{claim.name}: {got['value']} {got['op']} {got['bound']}"


def test_meta_records_seed_schema_versions_and_bounds(results):
    meta = results["meta"]
    assert meta["seed"] == DEFAULT_SEED
    assert meta["schema"] == SCHEMA
    assert meta["numpy"] == np.__version__
    assert meta["python"] == platform.python_version()
    assert meta["bounds"]


def test_every_bounds_pattern_matches_a_result_and_every_match_stays_inside(results):
    paths = {path: v for name in SECTIONS.names() for path, v in
             leaves(results[name], name).items()}
    for pattern, (low, high) in results["meta"]["bounds"].items():
        assert low <= high, pattern
        matched = [p for p in paths if fnmatch.fnmatchcase(p, pattern)]
        assert matched, f"bounds pattern {pattern!r} matches no result"
        for p in matched:
            assert low <= paths[p] <= high, (pattern, p, paths[p])


def _overflows(x: float) -> float:
    import numpy as np
    return float(np.exp(np.float64(x)))


def test_a_warning_in_an_experiment_s_job_is_an_error_at_its_function_not_raw_output() -> None:
    """numpy's 'RuntimeWarning: overflow encountered in exp' in a worker was printed raw in
    the build's terminal (and an inf reached the results): it is a BuildError at the line
    of the job's function, that crosses back from a worker process intact."""
    import inspect
    import pickle
    import warnings

    from sqrtdk.errors import BuildError
    from sqrtdk.science.registry import Job
    from sqrtdk.science.run import _call
    from sqrtdk.science_stage import without_warnings
    assert without_warnings(_call, Job("fine", _overflows, (1.0,))) == pytest.approx(2.718281828)
    with warnings.catch_warnings():
        warnings.simplefilter("error")       # nothing reaches the terminal
        with pytest.raises(BuildError) as e:
            without_warnings(_call, Job("big", _overflows, (1e6,)))
    assert e.value.line == inspect.getsourcelines(_overflows)[1], str(e.value)
    assert "RuntimeWarning" in e.value.message and "overflow" in e.value.message, e.value
    back = pickle.loads(pickle.dumps(e.value))
    assert str(back) == str(e.value) and isinstance(back, BuildError)


_TOLD = threading.Event()


def _waits_to_be_told() -> bool:
    return _TOLD.wait(timeout=60)    # a guard against a hang, not a measured time


def test_a_job_still_running_is_named_at_its_function_once_it_runs_long(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An endless loop in a job hung the build with no word. A job still running after
    slow.SLOW_S seconds (here tiny) is named in one line at its function's line, with the
    line it has reached; the job goes on (a note, not an error) and ends as it would."""
    import inspect

    from sqrtdk import slow
    from sqrtdk.science.registry import Job
    from sqrtdk.science.run import _call
    from sqrtdk.science_stage import without_warnings
    said: list[str] = []

    def say(line: str) -> None:
        said.append(line)
        _TOLD.set()
    _TOLD.clear()
    monkeypatch.setattr(slow, "SLOW_S", 0.01)
    monkeypatch.setattr(slow, "_say", say)
    assert without_warnings(_call, Job("long", _waits_to_be_told, ())) is True
    first = inspect.getsourcelines(_waits_to_be_told)[1]
    assert len(said) == 1, said
    assert said[0].startswith(f"{display_path(__file__)}:{first}: job 'long' of "
                              "'_waits_to_be_told' still running after 0.01 s"), said


def test_a_long_call_is_told_with_the_line_it_has_reached(monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """The note names the line of the author's function the call is at when it is told
    (where an endless loop turns), and nothing when the call has not run long (its timer,
    here one the test fires itself, is cancelled when the call returns)."""
    import inspect

    from sqrtdk import slow
    timers: list[Any] = []

    class Fired:
        """A timer the test fires itself (no waiting)."""

        def __init__(self, after: float, tell: Any) -> None:
            self.after, self.tell, self.cancelled, self.daemon = after, tell, False, False
            timers.append(self)

        def start(self) -> None:
            pass

        def cancel(self) -> None:
            self.cancelled = True
    said: list[str] = []
    monkeypatch.setattr(slow, "_TIMER", Fired)

    def loops() -> None:
        timers[-1].tell()         # the endless loop, told while it turns here
    with slow.told_if_slow(loops, "job 'x' of 'loops'", after_s=5, say=said.append):
        loops()
    first = inspect.getsourcelines(loops)[1]
    assert said == [f"{display_path(__file__)}:{first}: job 'x' of 'loops' still running "
                    f"after 5 s, now at line {first + 1}; the build waits for it (if it never "
                    "ends, stop the build with Ctrl+C and look at this code)"], said
    assert timers[-1].cancelled and timers[-1].after == 5
    with slow.told_if_slow(loops, "job 'y' of 'loops'", say=said.append):
        pass
    assert timers[-1].cancelled and timers[-1].after == slow.SLOW_S and len(said) == 1
    # a job that runs another author's file (a snippet) is told at the line it reached there
    other = str(Path(__file__).parent / "snippet_of_the_test.py")
    with slow.told_if_slow(loops, "job 'z' of 'loops'", say=said.append,
                           author=lambda name: name in (other, __file__)):
        exec(compile("x = 1\ntimers[-1].tell()\n", other, "exec"),  # noqa: S102 - the test's
             {"timers": timers})
    assert said[-1].startswith(f"{display_path(__file__)}:{first}: job 'z' of 'loops' still "
                               f"running after {slow.SLOW_S:g} s, now at "
                               f"{display_path(other)}:2;"), said


def _a_generator(n: int) -> Any:
    return (i * i for i in range(n))


def test_a_job_returning_what_cannot_be_pickled_is_an_error_at_its_function() -> None:
    """A job returning a generator (or a lambda) stopped the build with the process pool's
    traceback (it cannot be sent back from the worker): it is one line at the job's
    function, through a real pool too."""
    import functools
    import inspect

    from sqrtdk.errors import BuildError
    from sqrtdk.science.registry import Job
    from sqrtdk.science.run import _call
    from sqrtdk.science_stage import without_warnings
    from sqrtdk.workers import Pool
    job = Job("gen", _a_generator, (3,))
    with pytest.raises(BuildError) as e:
        without_warnings(_call, job)
    assert e.value.line == inspect.getsourcelines(_a_generator)[1], str(e.value)
    assert "returns a generator, which cannot be sent back" in e.value.message, e.value
    with Pool(1) as pool, pytest.raises(BuildError) as e:
        list(pool.map(functools.partial(without_warnings, _call), [job]))
    assert e.value.line == inspect.getsourcelines(_a_generator)[1], str(e.value)


def _warns() -> None:
    import numpy as np
    np.log(np.zeros(1))              # RuntimeWarning: divide by zero encountered in log


def _walk_warning_at_seed_2(p: Any, seed: int) -> Any:
    if seed == 2:
        _warns()
    return spread.walk(p, seed)


def _assemble_warns(p: Any, out: Any) -> Any:
    _warns()
    return out["walk"]


def _section_warns(data: Any) -> Any:
    _warns()
    return spread.walk_section(data)


def _claim_warns(s: Any) -> float:
    _warns()
    return 1.0


def _only_walk(monkeypatch: pytest.MonkeyPatch, *, jobs: Any = None, assemble: Any = None,
               section: Any = None, claim: Any = None) -> str:
    """The walk experiment, its section and a claim on it with parts replaced (for a
    warning), registered in place of the real ones for this test; returns the claim's
    name."""
    import dataclasses
    exp, sec = EXPERIMENTS["walk"], SECTIONS["walk"]
    monkeypatch.setitem(EXPERIMENTS._items, "walk", dataclasses.replace(
        exp, jobs=jobs or exp.jobs, assemble=assemble or exp.assemble))
    monkeypatch.setitem(SECTIONS._items, "walk", dataclasses.replace(
        sec, build=section or sec.build))
    monkeypatch.setitem(CLAIMS._items, "walk.test", Claim(
        "walk.test", "walk", "a test claim", claim or (lambda s: 1.0), "<=", 2.0))
    return "walk.test"


@pytest.mark.parametrize("part", ["assemble", "section", "claim"])
def test_a_warning_in_an_assembly_section_or_claim_is_an_error_at_its_function(
        monkeypatch: pytest.MonkeyPatch, part: str) -> None:
    """A warning raised in the build's own process (an experiment's assembly, a results
    section, a claim) was printed raw, as Python's two lines with the machine's path: it is
    an error at the line of that function, naming it, as a job's warning is."""
    import inspect
    import warnings

    from sqrtdk.science.run import _call
    from sqrtdk.science.warned import ScienceWarningError  # the build's BuildError
    fn = {"assemble": _assemble_warns, "section": _section_warns, "claim": _claim_warns}[part]
    name = _only_walk(monkeypatch, **{part: fn})
    run = Run(DEFAULT_SEED, None, {"walk"})
    with warnings.catch_warnings():
        warnings.simplefilter("error")       # nothing reaches the terminal
        with pytest.raises(ScienceWarningError) as e:
            for exp, job in run.jobs:
                run.done(exp, job.key, _call(job))
            run.results([name])
    assert (e.value.path.name, e.value.line) == \
        (Path(__file__).name, inspect.getsourcelines(fn)[1]), str(e.value)
    assert "RuntimeWarning in " in e.value.message and "divide by zero" in e.value.message
    assert {"assemble": "experiment 'walk'", "section": "section 'walk'",
            "claim": f"claim '{name}'"}[part] in e.value.message, e.value.message


_WALK_JOBS: list[Any] = []     # the walk experiment's own jobs function, kept by the test


def _jobs_wait(params: Any, seed: int) -> Any:
    _waits_to_be_told()
    return _WALK_JOBS[-1](params, seed)


def _assemble_waits(p: Any, out: Any) -> Any:
    _waits_to_be_told()
    return out["walk"]


def _section_waits(data: Any) -> Any:
    _waits_to_be_told()
    return spread.walk_section(data)


def _claim_waits(s: Any) -> float:
    _waits_to_be_told()
    return 1.0


@pytest.mark.parametrize("part", ["jobs", "assemble", "section", "claim"])
def test_an_assembly_section_or_claim_still_running_is_named_at_its_function(
        monkeypatch: pytest.MonkeyPatch, part: str) -> None:
    """An endless loop in an experiment's jobs list, assembly, a results section or a claim
    (run in the build's own process, not in a worker) hung the build with no word: with the
    build's watch (science_stage.watching), one still running after slow.SLOW_S seconds (here
    tiny) is named in one line at its function's line, as a job is, and goes on."""
    import inspect

    from sqrtdk import slow
    from sqrtdk.science.run import _call
    from sqrtdk.science_stage import watching
    said: list[str] = []
    fn = {"jobs": _jobs_wait, "assemble": _assemble_waits, "section": _section_waits,
          "claim": _claim_waits}[part]
    # on a loaded machine another part of the run (the walk's real jobs list or assembly)
    # may also pass the tiny limit and be told at its own line: only the waiting function's
    # note ends its wait, and it is told once
    here = f"{display_path(__file__)}:{inspect.getsourcelines(fn)[1]}: "

    def say(line: str) -> None:
        said.append(line)
        if line.startswith(here):
            _TOLD.set()
    _WALK_JOBS.append(EXPERIMENTS["walk"].jobs)
    name = _only_walk(monkeypatch, **{part: fn})
    _TOLD.clear()
    monkeypatch.setattr(slow, "SLOW_S", 0.01)
    monkeypatch.setattr(slow, "_say", say)
    run = Run(DEFAULT_SEED, None, {"walk"}, watching)
    for exp, job in run.jobs:
        run.done(exp, job.key, _call(job))
    assert run.results([name])["claims"][name]["held"]
    what = {"jobs": "the jobs of experiment 'walk'", "assemble": "the assembly of experiment "
            "'walk'", "section": "results section 'walk'", "claim": f"claim '{name}'"}[part]
    mine = [line for line in said if line.startswith(here)]
    assert len(mine) == 1, said
    assert mine[0].startswith(f"{here}{what} still running after 0.01 s"), said


def _walk_with(**changed: Any) -> Any:
    """A walk section whose results are changed as `changed` says (a key of None: dropped)."""
    def section(data: Any) -> Any:
        out = {**spread.walk_section(data), **changed}
        return {k: v for k, v in out.items() if v is not None}
    return section


@pytest.mark.parametrize(("returned", "said"), [
    (lambda data: None, "returns NoneType (None), not a dict"),
    (lambda data: [1.0, 2.0], "returns list ([1.0, 2.0]), not a dict"),
    (_walk_with(sd=float("nan")), "non-finite result nan at 'sd'"),
    (_walk_with(paths=[[0, 1], [0, float("inf")]]), "non-finite result inf at 'paths.1.1'"),
    (_walk_with(sd=np.float64("nan")), "non-finite result nan at 'sd'"),
    (_walk_with(sd=complex(1.0)), "complex number (1+0j) at 'sd'"),
    (_walk_with(sd=object()), "cannot store object at 'sd'"),
])
def test_a_section_returning_what_results_cannot_hold_is_an_error_at_its_function(
        monkeypatch: pytest.MonkeyPatch, returned: Any, said: str) -> None:
    """A results section that returns None, a list, or a nan, an inf, a complex number or
    an object among its results (a mutation pass) stopped the build with the traceback of
    results.canonical, in the science machinery: it is an error at the line of the
    section's function, naming the path of the value results.json cannot hold."""
    import inspect

    from sqrtdk.science.run import _call
    from sqrtdk.science.warned import ScienceWarningError  # the build's BuildError
    _only_walk(monkeypatch, section=returned)
    run = Run(DEFAULT_SEED, None, {"walk"})
    with pytest.raises(ScienceWarningError) as e:
        for exp, job in run.jobs:
            run.done(exp, job.key, _call(job))
    assert (e.value.path.name, e.value.line) == \
        (Path(__file__).name, inspect.getsourcelines(returned)[1]), str(e.value)
    assert "results section 'walk'" in e.value.message and said in e.value.message, \
        e.value.message


def _walk_done() -> Any:
    """A science Run of the walk experiment alone (its registrations as `_only_walk` left
    them), every job done, its sections and claims not yet built."""
    from sqrtdk.science.run import _call
    run = Run(DEFAULT_SEED, None, {"walk"})
    for exp, job in run.jobs:
        run.done(exp, job.key, _call(job))
    return run


@pytest.mark.parametrize(("value", "said"), [
    (lambda s: None, "computes NoneType (None), not one number"),
    (lambda s: "0.5", "computes str ('0.5'), not one number"),
    (lambda s: np.array([0.5, 0.7]), "not one number"),
    (lambda s: np.array([0.5]), "not one number"),
    (lambda s: float("nan"), "neither holds nor fails"),
    (lambda s: -math.inf, "neither holds nor fails"),
    (lambda s: s["sd"] > 1e9, "a yes or no"),           # False <= 2.0 held: a silent pass
    (lambda s: np.bool_(False), "a yes or no"),
])
def test_a_claim_computing_no_real_number_is_an_error_at_its_function(
        monkeypatch: pytest.MonkeyPatch, value: Any, said: str) -> None:
    """A claim whose function returns None, text, an array or a nan stopped the build with
    run.py's traceback (float() or the finite check there), and one returning a bool was
    compared with its bound as 0 or 1, so a claim that fails held (`abs(x) > b` with '<='):
    each is an error at the claim's line. A number, numpy's included, is taken as before."""
    import inspect

    from sqrtdk.science.warned import ScienceWarningError  # the build's BuildError
    name = _only_walk(monkeypatch, claim=value)
    run = _walk_done()
    with pytest.raises(ScienceWarningError) as e:
        run.results([name])
    assert (e.value.path.name, e.value.line) == \
        (Path(__file__).name, inspect.getsourcelines(value)[1]), str(e.value)
    assert f"claim '{name}'" in e.value.message and said in e.value.message, e.value.message
    for number in (1, np.float32(0.5), np.int64(1), 0.5):
        _only_walk(monkeypatch, claim=lambda s, v=number: v)
        assert run.results([name])["claims"][name]["held"] is True


def _job_misspells(p: Any, seed: int) -> Any:
    return p.stepz


def _assemble_misspells(p: Any, out: Any) -> Any:
    return out["wlak"]


def _section_misspells(data: Any) -> Any:
    return data["wlak"]


def _claim_misspells(s: Any) -> float:
    return float(s["sdd"])


def test_a_result_outside_its_declared_bounds_is_an_error_at_its_section(
        results: dict[str, Any]) -> None:
    """A Section's `bounds` say the interval a quantity cannot leave (the prose's honest
    rounding reads them); a value outside it (fuzz18: 0.73 against a declared [0, 0.5]) was
    published with exit 0, and a bound the value crosses lets the rounding print what the
    value is not. It is an error at the section's function, naming the path and interval;
    the run's own results pass."""
    import copy
    import fnmatch
    import inspect

    from sqrtdk.errors import BuildError
    from sqrtdk.science.registry import SECTIONS
    from sqrtdk.science_stage import _leaves, check_bounds
    check_bounds(results)
    section = next(s for s in SECTIONS if s.bounds and s.name in results)
    pattern, (low, high) = next(iter(section.bounds.items()))
    path = next(p for p, v in _leaves(section.name, results[section.name])
                if isinstance(v, float) and fnmatch.fnmatchcase(p, f"{section.name}.{pattern}"))
    broken = copy.deepcopy(results)
    *parents, last = path.split(".")
    holder: Any = broken
    for key in parents:
        holder = holder[int(key)] if isinstance(holder, list) else holder[key]
    if isinstance(holder, list):
        holder[int(last)] = high + 1.0
    else:
        holder[last] = high + 1.0
    with pytest.raises(BuildError) as e:
        check_bounds(broken)
    code = inspect.unwrap(section.build)
    assert (Path(e.value.path), e.value.line) == (Path(inspect.getsourcefile(code) or ""),
                                                  inspect.getsourcelines(code)[1]), e.value
    assert path in e.value.message and str(high) in e.value.message, e.value.message


def _job_exits(p: Any, seed: int) -> Any:
    import sys
    sys.exit(0)


def test_sys_exit_in_an_experiment_s_job_is_an_error_at_its_line() -> None:
    """`sys.exit(0)` in a job (a script's habit) raised SystemExit in the worker, which is
    not an Exception: it crossed back to the build's top and ended the build with no word
    and exit status 0, the site not written (a mutation pass). It is an error at its line,
    crossing back from a worker intact."""
    import inspect
    import pickle

    from sqrtdk.errors import BuildError
    from sqrtdk.science.registry import Job
    from sqrtdk.science.run import _call
    from sqrtdk.science_stage import without_warnings
    here = Path(spread.__file__)
    line = inspect.getsourcelines(_job_exits)[1]
    code = compile("\n" * (line - 1) + inspect.getsource(_job_exits), str(here), "exec")
    scope: dict[str, Any] = {"Any": Any}
    exec(code, scope)                   # the function as if written in that module
    with pytest.raises(BaseException) as e:
        without_warnings(_call, Job("walk", scope["_job_exits"],
                                    (EXPERIMENTS["walk"].params, 1)))
    assert isinstance(e.value, BuildError), repr(e.value)
    back = pickle.loads(pickle.dumps(e.value))
    assert str(back) == str(e.value)
    assert (Path(e.value.path), e.value.line) == (here, line + 2), e.value
    assert "sys.exit(0)" in e.value.message, e.value.message


@pytest.mark.parametrize("part", ["jobs", "assemble", "section", "claim"])
def test_a_python_mistake_in_an_experiment_is_an_error_at_its_line(
        monkeypatch: pytest.MonkeyPatch, part: str) -> None:
    """A misspelt parameter or key in an experiment module's job, assembly, section or claim
    (README's 'Add an experiment') stopped the build with Python's traceback (author12): it
    is an error at the line of the experiment module that raised it, naming the function and
    what Python said, and it crosses back from a worker intact. An error of the science
    package's own machinery keeps its traceback."""
    import inspect
    import pickle

    from sqrtdk.errors import BuildError
    from sqrtdk.science.registry import Job
    from sqrtdk.science.run import _call
    from sqrtdk.science_stage import placed_error, without_warnings
    fn = {"jobs": _job_misspells, "assemble": _assemble_misspells,
          "section": _section_misspells, "claim": _claim_misspells}[part]
    here = Path(spread.__file__)        # an experiment module, as the author's would be
    line = inspect.getsourcelines(fn)[1]
    code = compile("\n" * (line - 1) + inspect.getsource(fn), str(here), "exec")
    scope: dict[str, Any] = {"Any": Any}
    exec(code, scope)                   # the function as if written in that module
    fn = scope[fn.__name__]
    if part == "jobs":
        with pytest.raises(BuildError) as e:
            without_warnings(_call, Job("walk", fn, (EXPERIMENTS["walk"].params, 1)))
        back = pickle.loads(pickle.dumps(e.value))
        assert str(back) == str(e.value) and isinstance(back, BuildError)
        told: Any = e.value
    else:
        name = _only_walk(monkeypatch, **{part: fn})
        run = Run(DEFAULT_SEED, None, {"walk"})
        with pytest.raises(Exception) as raised:
            for exp, job in run.jobs:
                run.done(exp, job.key, _call(job))
            run.results([name])
        told = placed_error(raised.value)
        assert told is not None, raised.value
    assert (Path(told.path), told.line) == (here, line + 1), told
    assert ("AttributeError" if part == "jobs" else "KeyError") in told.message, told
    assert fn.__name__ in told.message, told
    with pytest.raises(KeyError) as ours:
        EXPERIMENTS["no_such_experiment"]    # the registry's own error: not placed
    assert placed_error(ours.value) is None


@pytest.mark.parametrize("where", ["job", "claim"])
def test_a_warning_in_a_sweep_is_an_error_at_its_function_naming_the_seed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str) -> None:
    """`--sweep`: a job's warning (in a worker) and a claim's (in the sweep's process) were
    printed raw, without the place, and the sweep went on and wrote its file: each is an
    error at the line of its function, as in a build, naming the seed to build alone."""
    import inspect

    from sqrtdk.errors import BuildError
    from sqrtdk.options import BuildOptions
    from sqrtdk.science.registry import Job
    from sqrtdk.sweep import run_seeds
    if where == "job":
        fn: Any = _walk_warning_at_seed_2
        name = _only_walk(monkeypatch, jobs=lambda p, seed: [Job("walk", fn, (p, seed))])
    else:
        fn = _claim_warns
        name = _only_walk(monkeypatch, claim=fn)
    opts = BuildOptions.for_project(tmp_path, jobs=2)
    with pytest.raises(BuildError) as e:
        run_seeds(opts, [1, 2, 3], lambda line: None, [name])
    assert (e.value.path.name, e.value.line) == \
        (Path(__file__).name, inspect.getsourcelines(fn)[1]), str(e.value)
    m = re.search(r"seed (\d) of the sweep: '.*--seed (\d)' builds it alone", e.value.message)
    assert m and m.group(1) == m.group(2), e.value.message
    assert where == "claim" or m.group(1) == "2", e.value.message   # the claim: every seed


def test_a_warning_in_a_build_s_own_process_stops_it_at_the_function_s_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A build's science stage: a section's warning (in the build's process, not a worker)
    is a BuildError at the section function's line, results.json left unwritten."""
    import inspect

    from sqrtdk.cache import Cache
    from sqrtdk.errors import BuildError
    from sqrtdk.options import BuildOptions
    from sqrtdk.science_stage import run_science
    _only_walk(monkeypatch, section=_section_warns)
    opts = BuildOptions.for_project(tmp_path, jobs=2)
    opts.figures_dir.mkdir(parents=True)
    with pytest.raises(BuildError) as e:
        run_science(opts, Cache(opts.cache_dir))
    assert (e.value.path.name, e.value.line) == \
        (Path(__file__).name, inspect.getsourcelines(_section_warns)[1]), str(e.value)
    assert "section 'walk'" in e.value.message and not opts.results_file.exists()


def test_an_error_in_a_snippet_is_placed_at_the_snippet_s_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A snippet of a reproduce box (README's 'Show the code that ran') that raises is an
    error at its own file and line, as an experiment module's is: it was told at
    reproduce.py's line that runs every snippet, which the author has nothing to fix in."""
    import sqrtdk.options
    from sqrtdk.science_stage import placed_error
    package = tmp_path / "sqrtdk"
    snippet = package / "science" / "snippets" / "broken.py"
    snippet.parent.mkdir(parents=True)
    snippet.write_text("import numpy as np\nSEED = 1\nnp.zeros(2).reshape(3)\n",
                       encoding="utf-8")
    monkeypatch.setattr(sqrtdk.options, "PACKAGE_DIR", package)
    with pytest.raises(ValueError) as raised:
        reproduce.run_snippet(snippet, DEFAULT_SEED)
    told = placed_error(raised.value)
    assert told is not None and (Path(told.path), told.line) == (snippet, 3), told
    assert "ValueError" in told.message, told


# A snippet's seed mistakes (each with the line told and the line the author then writes
# there, or None when the fix is a line of its own, added by the test before the draw).
_UNSEEDED = {
    "no SEED line": ("import numpy as np\nrng = np.random.default_rng()\nprint(rng.random())\n",
                     2, "rng = np.random.default_rng(SEED)"),
    "a seed of its own": ("import numpy as np\nrng = np.random.default_rng(7)\n"
                          "print(rng.random())\n", 2, "rng = np.random.default_rng(SEED)"),
    "SEED unused": ("import numpy as np\nSEED = 1\nrng = np.random.default_rng(7)\n"
                    "print(rng.random())\n", 2, None),
    "no seed given": ("import numpy as np\nSEED = 1\nrng = np.random.default_rng()\n"
                      "print(rng.random())\n", 3, "rng = np.random.default_rng(SEED)"),
    "shared generator": ("import numpy as np\nSEED = 1\nx = np.random.standard_normal(3)\n"
                         "print(x.std())\n", 3, None),
    "SEED with a type": ("import numpy as np\nSEED: int = 1\nrng = np.random.default_rng(SEED)\n"
                         "print(rng.random())\n", 2, "SEED = 1"),
    "shared generator under another name": ("import numpy.random as npr\nSEED = 1\n"
                                            "rng = npr.default_rng(SEED)\n"
                                            "print(npr.standard_normal(3))\n", 4, None),
    "Python's random under another name": ("import random as rnd\nimport numpy as np\n"
                                           "SEED = 1\nrng = np.random.default_rng(SEED)\n"
                                           "print(rnd.random())\n", 5, None),
    "a draw imported by name": ("from numpy.random import default_rng, normal\nSEED = 1\n"
                                "rng = default_rng(SEED)\nprint(normal(size=3))\n", 4, None),
    "a seed of None": ("import numpy as np\nSEED = 1\nprint(SEED)\n"
                       "rng = np.random.default_rng(seed=None)\nprint(rng.random())\n", 4,
                       "rng = np.random.default_rng(SEED)"),
    "a bit generator with no seed": ("import numpy as np\nSEED = 1\nprint(SEED)\n"
                                     "rng = np.random.Generator(np.random.PCG64())\n"
                                     "print(rng.random())\n", 4,
                                     "rng = np.random.default_rng(SEED)"),
}

# Snippets that take the build's seed, each through another of numpy's or Python's ways to
# make or seed a generator: none is told it is unseeded.
_SEEDED = {
    "default_rng imported": "from numpy.random import default_rng\nSEED = 1\n"
                            "rng = default_rng(SEED)\nprint(rng.random())\n",
    "numpy.random as npr": "import numpy.random as npr\nSEED = 1\nrng = npr.default_rng(SEED)\n"
                           "print(rng.random())\n",
    "Generator of a PCG64": "import numpy as np\nSEED = 1\n"
                            "rng = np.random.Generator(np.random.PCG64(SEED))\n"
                            "print(rng.random())\n",
    "shared, seeded": "import numpy.random as npr\nSEED = 1\nnpr.seed(SEED)\n"
                      "print(npr.standard_normal(3))\n",
    "Python's Random": "import random\nSEED = 1\nr = random.Random(SEED)\nprint(r.random())\n",
    "Python's random, seeded": "from random import gauss, seed\nSEED = 1\nseed(SEED)\n"
                               "print(gauss(0, 1))\n",
    "a SeedSequence": "import numpy as np\nSEED = 1\nss = np.random.SeedSequence(SEED)\n"
                      "rng = np.random.default_rng(ss.spawn(1)[0])\nprint(rng.random())\n",
    "seed as a keyword": "import numpy as np\nSEED = 1\nrng = np.random.default_rng(seed=SEED)\n"
                         "print(rng.random())\n",
    "a variable named random": "import numpy as np\nrandom = np.sqrt(2.0)\nprint(random)\n",
}


@pytest.mark.parametrize("case", list(_SEEDED))
def test_a_snippet_seeded_from_seed_in_any_of_numpy_s_ways_is_not_told_it_is_unseeded(
        tmp_path: Path, case: str) -> None:
    """`random.Random(SEED)` was told 'a draw from the shared random generator', and a
    variable named `random` that draws nothing 'draws random numbers and has no SEED line':
    an error at a correct snippet. Each of these builds."""
    from sqrtdk.snippet_seeds import check_snippet_seeds
    snippet = tmp_path / "seeded.py"
    snippet.write_text(_SEEDED[case], encoding="utf-8")
    check_snippet_seeds([snippet])


@pytest.mark.parametrize("case", list(_UNSEEDED))
def test_a_snippet_drawing_without_the_build_s_seed_is_an_error_at_its_line(
        tmp_path: Path, case: str) -> None:
    """A reproduce box's snippet (README's 'Show the code that ran') that drew random numbers
    without the build's seed built silently: its printout, quoted on the page, changed at
    every build (or ignored --seed). Now an error at the line, saying what to write; a
    snippet seeded from SEED, or drawing nothing random, builds."""
    from sqrtdk.errors import BuildError
    from sqrtdk.snippet_seeds import check_snippet_seeds
    code, line, fix = _UNSEEDED[case]
    snippet = tmp_path / "unseeded.py"
    snippet.write_text(code, encoding="utf-8")
    with pytest.raises(BuildError) as e:
        check_snippet_seeds([snippet])
    assert (e.value.path, e.value.line) == (snippet, line), str(e.value)
    assert "rng = np.random.default_rng(SEED)" in e.value.message or fix == "SEED = 1", str(e.value)
    # a snippet with no SEED line is told to add one
    assert ("SEED = " in code) != ("'SEED = 1'" in e.value.message), str(e.value)
    lines = code.split("\n")
    if fix is None:      # the draws of the snippet's own generator, seeded from SEED
        lines = ["import numpy as np", "SEED = 1", "rng = np.random.default_rng(SEED)",
                 "print(rng.standard_normal(3).std())", ""]
    else:
        lines[line - 1] = fix
        if "SEED = " not in code:
            lines.insert(line - 1, "SEED = 1")
    snippet.write_text("\n".join(lines), encoding="utf-8")
    check_snippet_seeds([snippet])
    snippet.write_text("import numpy as np\nprint(np.sqrt(2.0))\n", encoding="utf-8")
    check_snippet_seeds([snippet])


def test_every_registered_snippet_takes_the_build_s_seed() -> None:
    """The project's own snippets pass the check the build makes before the experiments."""
    from sqrtdk.snippet_seeds import check_snippet_seeds
    check_snippet_seeds(s.path for s in SNIPPETS)


def test_a_sweep_stops_at_a_snippet_that_ignores_the_seed(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """`--sweep` runs the snippets at every seed for the claims on their printouts: one seeded
    by a number of its own gave those claims one value over all the seeds, silently. It stops
    at the snippet's line, as the build does, before any seed runs."""
    from dataclasses import replace as replaced

    from sqrtdk.errors import BuildError
    from sqrtdk.options import BuildOptions
    from sqrtdk.sweep import sweep
    snippet = tmp_path / "gradient.py"
    snippet.write_text("import numpy as np\nrng = np.random.default_rng(3)\nprint(rng.random())\n",
                       encoding="utf-8")
    monkeypatch.setitem(SNIPPETS._items, "gradient",     # noqa: SLF001 (the test's own entry)
                        replaced(SNIPPETS["gradient"], path=snippet))
    opts = BuildOptions.for_project(PROJECT_ROOT, out=tmp_path / "site",
                                    figures_dir=tmp_path / "figures",
                                    cache_dir=tmp_path / "cache", sweep_path=tmp_path / "sweep.json")
    with pytest.raises(BuildError) as e:
        sweep(opts, 1, log=lambda _: None, claims=["reproduce.gradient_raw_falls"])
    assert (e.value.path, e.value.line) == (snippet, 2), str(e.value)
    assert not opts.sweep_file.exists()


@pytest.mark.parametrize("changed", [{"n_pairs": 20_001}, {"d_small": 3}],
                         ids=["pairs not split evenly", "dimension off the grid"])
def test_a_parameter_an_experiment_s_check_refuses_is_told_at_the_parameter_s_line(
        changed: dict[str, Any]) -> None:
    """README's 'change a parameter' with a value the experiment's own check refuses
    (`raise ValueError("n_pairs must split evenly into n_batches")`): it was told at the
    `raise` line with "fix the code at this line" (newbie16), where nothing is wrong; it is
    told at the line of the parameter's default in the `…Params` class, naming the check's
    line, and says to change the value."""
    import ast
    import inspect

    from sqrtdk.science_stage import placed_error
    params = replace(spread.SpreadParams(), **changed)
    with pytest.raises(ValueError) as raised:
        spread.jobs(params, DEFAULT_SEED)
    told = placed_error(raised.value)
    assert told is not None
    tree = ast.parse(Path(spread.__file__).read_text(encoding="utf-8"))
    fields = {node.target.id: node.lineno for cls in ast.walk(tree)
              if isinstance(cls, ast.ClassDef) and cls.name == "SpreadParams"
              for node in cls.body
              if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)}
    name = next(iter(changed))
    assert (Path(told.path), told.line) == (Path(spread.__file__), fields[name]), told
    check = inspect.getsourcelines(spread.jobs)
    raises = [check[1] + i for i, text in enumerate(check[0]) if "raise ValueError" in text]
    assert any(f"line {n}" in told.message for n in raises), told
    assert "fix the code" not in told.message and "change" in told.message, told


def _jobs_none(p: Any, seed: int) -> Any:
    return None


def _jobs_parts(p: Any, seed: int) -> Any:
    return [("walk", spread.walk, (p, seed))]


def _jobs_lambda(p: Any, seed: int) -> Any:
    return [registry.Job("walk", lambda: spread.walk(p, seed), ())]


def _jobs_one_argument_short(p: Any, seed: int) -> Any:
    return [registry.Job("walk", spread.walk, (p,))]


def _jobs_same_key(p: Any, seed: int) -> Any:
    return [registry.Job("walk", spread.walk, (p, seed)), registry.Job("walk", spread.walk,
                                                                        (p, seed + 1))]


@pytest.mark.parametrize(("jobs", "said"), [
    (_jobs_none, "are NoneType (None), not a list"),
    (_jobs_parts, "hold a tuple, not a Job;"),
    (_jobs_lambda, "cannot be sent to a worker process"),
    (_jobs_same_key, "two jobs have the key 'walk'"),
    (_jobs_one_argument_short, "missing a required argument: 'seed'"),
])
def test_jobs_that_are_no_list_of_jobs_are_an_error_at_the_jobs_function(
        jobs: Any, said: str) -> None:
    """An experiment's `jobs` returning None or tuples instead of Jobs stopped the build with
    the traceback of the cache's key (science_stage.experiment_code), a lambda as a job's
    function with the pool's pickling traceback, two jobs with one key with run.py's
    ValueError (a mutation pass): each is an error at the line of the `jobs` function."""
    import dataclasses
    import inspect

    from sqrtdk.science.warned import ScienceWarningError  # the build's BuildError
    from sqrtdk.science_stage import experiment_code
    exp = dataclasses.replace(EXPERIMENTS["walk"], jobs=jobs)
    with pytest.raises(ScienceWarningError) as e:
        experiment_code(exp, DEFAULT_SEED)
    assert (e.value.path.name, e.value.line) == \
        (Path(__file__).name, inspect.getsourcelines(jobs)[1]), str(e.value)
    assert "the jobs of experiment 'walk'" in e.value.message and said in e.value.message, \
        e.value.message
    assert experiment_code(EXPERIMENTS["walk"], DEFAULT_SEED)


@pytest.mark.parametrize(("name", "field", "grid"), [
    ("spread", "d_k", (4, 8, 16, 16, 32, 64)),
    ("rulers", "d_k", (4, 8, 64, 64)),
])
def test_a_grid_holding_a_value_twice_is_told_at_the_grid_s_line(
        name: str, field: str, grid: tuple[int, ...]) -> None:
    """A Params grid with a value written twice (d_k = (…, 16, 16, …)) gives two jobs one
    key: it was told at the experiment's `jobs` function, "give each job its own key", where
    nothing is wrong (fuzz20). It is told at the line of the grid's default, naming the
    value twice written."""
    import dataclasses

    from sqrtdk.science.warned import ScienceWarningError  # the build's BuildError
    from sqrtdk.science_stage import experiment_code
    exp = EXPERIMENTS[name]
    changed = dataclasses.replace(exp, params=replace(exp.params, **{field: grid}))
    with pytest.raises(ScienceWarningError) as e:
        experiment_code(changed, DEFAULT_SEED)
    assert (e.value.path, e.value.line) == _params_line(type(exp.params), field), str(e.value)
    twice = next(v for v in grid if grid.count(v) > 1)
    assert f"{field} holds {twice}" in e.value.message, e.value.message


def _job_draws_from_numpy_s_shared_generator(p: Any, seed: int) -> Any:
    return spread.walk(p, seed), float(np.random.standard_normal())


def _job_draws_from_python_s_random(p: Any, seed: int) -> Any:
    import random
    return spread.walk(p, seed), random.random()


@pytest.mark.parametrize("fn", [_job_draws_from_numpy_s_shared_generator,
                                _job_draws_from_python_s_random])
def test_a_job_drawing_from_a_shared_generator_is_an_error_at_its_function(fn: Any) -> None:
    """A job drawing from numpy's global generator (`np.random.randint(…)`) or Python's
    `random` instead of its stream gave other numbers at every build, silently: a build
    wrote them into results.json with exit status 0, and only --check told, naming no line
    (a mutation pass). It is an error at the job's function; a job on its stream passes."""
    import inspect

    from sqrtdk.errors import BuildError
    from sqrtdk.science.registry import Job
    from sqrtdk.science.run import _call
    from sqrtdk.science_stage import without_warnings
    params = EXPERIMENTS["walk"].params
    with pytest.raises(BuildError) as e:
        without_warnings(_call, Job("walk", fn, (params, 1)))
    assert (Path(e.value.path).name, e.value.line) == \
        (Path(__file__).name, inspect.getsourcelines(fn)[1]), e.value
    assert "shared random generator" in e.value.message, e.value.message
    assert without_warnings(_call, Job("walk", spread.walk, (params, 1))) == \
        spread.walk(params, 1)


def _job_unseeded_numpy(p: Any, seed: int) -> Any:
    rng = np.random.default_rng()
    return float(rng.standard_normal())


def _job_unseeded_bit_generator(p: Any, seed: int) -> Any:
    rng = np.random.Generator(np.random.PCG64())
    return float(rng.standard_normal())


def _job_unseeded_python(p: Any, seed: int) -> Any:
    import random
    rng = random.Random()
    return rng.random()


def _job_os_entropy(p: Any, seed: int) -> Any:
    import uuid
    return str(uuid.uuid4())


def _job_swallows_it(p: Any, seed: int) -> Any:
    try:
        return float(np.random.default_rng().standard_normal())
    except Exception:
        return 0.0


def _job_writes_a_file(p: Any, seed: int) -> Any:
    out = spread.walk(p, seed)
    np.save("walk.npy", np.asarray([1.0]))
    return out


def _job_writes_with_open(p: Any, seed: int) -> Any:
    with open("walk.txt", "w", encoding="utf-8") as f:
        f.write("1")
    return 1


@pytest.mark.parametrize(("fn", "offset", "said"), [
    (_job_unseeded_numpy, 1, "made without a seed (numpy's default_rng()"),
    (_job_unseeded_bit_generator, 1, "made without a seed (numpy's default_rng()"),
    (_job_unseeded_python, 2, "made without a seed (random.Random()"),
    (_job_os_entropy, 2, "made without a seed (os.urandom"),
    (_job_swallows_it, 2, "made without a seed (numpy's default_rng()"),
    (_job_writes_a_file, 2, "writes the file 'walk.npy'"),
    (_job_writes_with_open, 1, "writes the file 'walk.txt'"),
])
def test_a_job_with_a_generator_without_seed_or_writing_a_file_is_an_error_at_the_line(
        fn: Any, offset: int, said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
        ) -> None:
    """`np.random.default_rng()` with no seed in a job (or Python's `random.Random()`,
    `uuid.uuid4()`) gave other numbers at every build, told only by --check; a job writing a
    file wrote it beside the project. Each is an error at the line that does it (also when
    the job's code catches what it raised); nothing is written, and the functions it
    replaced are back after the job."""
    import builtins
    import inspect

    from sqrtdk.errors import BuildError
    from sqrtdk.science.registry import Job
    from sqrtdk.science.run import _call
    from sqrtdk.science_stage import without_warnings
    monkeypatch.chdir(tmp_path)
    opened = builtins.open
    with pytest.raises(BuildError) as e:
        without_warnings(_call, Job("walk", fn, (EXPERIMENTS["walk"].params, 1)))
    assert (Path(e.value.path).name, e.value.line) == \
        (Path(__file__).name, inspect.getsourcelines(fn)[1] + offset), e.value
    assert said in e.value.message, e.value.message
    assert list(tmp_path.iterdir()) == [] and builtins.open is opened
    assert isinstance(np.random.default_rng().standard_normal(), float)


def _job_with_scratch_files(p: Any, seed: int) -> Any:
    import os
    import subprocess
    import sys
    import tempfile
    with tempfile.TemporaryDirectory() as scratch:
        np.save(os.path.join(scratch, "walk.npy"), np.asarray([1.0, 2.0]))
        back = np.load(os.path.join(scratch, "walk.npy"))
    with tempfile.NamedTemporaryFile("w+", encoding="utf-8") as f:
        f.write("3")
        f.seek(0)
        third = float(f.read())
    with open(os.devnull, "w", encoding="utf-8") as quiet:
        quiet.write("noise")
    subprocess.run([sys.executable, "-c", "print(1)"], stdout=subprocess.DEVNULL, check=True)
    return [*back.tolist(), third]


def _job_temp_file_beside_the_project(p: Any, seed: int) -> Any:
    import os
    import tempfile
    handle, name = tempfile.mkstemp(dir=".")
    os.close(handle)
    return 1


def test_a_job_writing_only_scratch_files_or_to_devnull_is_not_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A job that writes a file under the temporary folder (tempfile's, whose own unseeded
    `random.Random()` only names its files) or output to os.devnull (`subprocess.DEVNULL`)
    changes no number and leaves nothing beside the project: it was refused as 'draws from a
    random generator made without a seed' or 'writes the file /dev/null'. It runs; a
    temporary file made beside the project is still refused at its line."""
    import inspect

    from sqrtdk.errors import BuildError
    from sqrtdk.science.registry import Job
    from sqrtdk.science.run import _call
    from sqrtdk.science_stage import without_warnings
    monkeypatch.chdir(tmp_path)
    params = EXPERIMENTS["walk"].params
    assert without_warnings(_call, Job("walk", _job_with_scratch_files, (params, 1))) == \
        [1.0, 2.0, 3.0]
    with pytest.raises(BuildError) as e:
        without_warnings(_call, Job("walk", _job_temp_file_beside_the_project, (params, 1)))
    assert (Path(e.value.path).name, e.value.line) == (
        Path(__file__).name, inspect.getsourcelines(_job_temp_file_beside_the_project)[1] + 3)
    assert "writes the file" in e.value.message, e.value.message
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("kwargs", "error", "said"), [
    ({"bound": "0.5"}, TypeError, "its bound is '0.5', not a number"),
    ({"value": lambda s, i: 1.0}, TypeError, "cannot be called as value(section)"),
    ({"value": lambda s: 1.0, "each_dk": True}, TypeError,
     "cannot be called as value(section, i)"),
    ({"op": ">"}, ValueError, "op must be '<=' or '>='"),
])
def test_a_claim_registered_with_a_bound_or_function_it_cannot_use_is_refused(
        kwargs: dict[str, Any], error: type, said: str) -> None:
    """A claim whose bound is text, or whose value function takes another number of
    parameters than its each_dk asks for, was registered and then stopped the build with
    run.py's traceback (a mutation pass): Claim refuses it when registered (one line at the
    registration, inputs.told_import_error)."""
    fields = {"name": "x.y", "section": "walk", "statement": "s", "value": lambda s: 1.0,
              "op": "<=", "bound": 0.5, **kwargs}
    with pytest.raises(error, match=re.escape(said)):
        Claim(**fields)
    fitting = (lambda s, i: 1.0) if fields.get("each_dk") else (lambda s: 1.0)
    Claim(**{**fields, "bound": 1, "op": ">=", "value": fitting})     # a whole bound passes


def test_a_claim_reading_a_section_no_experiment_makes_is_an_error_at_its_function(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A claim registered on a misspelt section ('wlak') stopped the build with run.py's
    ValueError traceback (a mutation pass): it is an error at its function's line, with the
    section it may have meant."""
    import inspect

    from sqrtdk.science.warned import ScienceWarningError  # the build's BuildError
    name = _only_walk(monkeypatch)
    value = CLAIMS[name].value
    monkeypatch.setitem(CLAIMS._items, name, replace(CLAIMS[name], section="wlak"))
    run = _walk_done()
    with pytest.raises(ScienceWarningError) as e:
        run.results([name])
    assert (e.value.path.name, e.value.line) == \
        (Path(__file__).name, inspect.getsourcelines(value)[1]), str(e.value)
    assert "'wlak'" in e.value.message and "did you mean 'walk'?" in e.value.message


def test_a_snippet_registered_with_a_file_that_is_not_there_is_told_at_its_registration(
        ) -> None:
    """`Snippet("sheet1", SNIPPET_DIR / "sheet_1.py", …)`, a misspelt file name, stopped the
    build with a FileNotFoundError traceback (a mutation pass): it is an error at the line
    of reproduce_boxes.py naming that file, with the snippet files that are there."""
    from sqrtdk.errors import BuildError
    from sqrtdk.science.reproduce import SNIPPET_DIR
    from sqrtdk.snippet_seeds import _registration, check_snippet_seeds
    registered = sorted(p for p in SNIPPET_DIR.glob("*.py"))[0]
    boxes, line = _registration(registered)
    assert line > 1 and registered.name in boxes.read_text("utf-8").splitlines()[line - 1]
    missing = SNIPPET_DIR / registered.name.replace(".py", "_.py")
    with pytest.raises(BuildError) as e:
        check_snippet_seeds([missing])
    assert Path(e.value.path).name == "reproduce_boxes.py", e.value
    assert missing.name in e.value.message and registered.name in e.value.message, e.value


def test_a_snippet_registered_with_a_source_module_that_is_not_there_is_told_at_its_registration(
        ) -> None:
    """`Snippet("mean_dot", SNIPPET_DIR / "mean_dot.py", "spreed.py")`, a misspelt experiment
    module (the one whose full source the box links to), was told only once pages were
    written, as a broken link in 'templates: en/index.html' (sixth newcomer pass, README's
    "Show the code that ran"): it is an error at the line of reproduce_boxes.py naming the
    snippet, with the module it may have meant."""
    from sqrtdk.errors import BuildError
    from sqrtdk.science.reproduce import SNIPPET_DIR
    from sqrtdk.site_stage import experiment_sources
    from sqrtdk.snippet_seeds import _registration, check_snippet_sources
    registered = sorted(p for p in SNIPPET_DIR.glob("*.py"))[0]
    source = sorted(experiment_sources())[0]
    check_snippet_sources([(registered, source)])       # a published module: nothing to say
    check_snippet_sources([(registered, "")])           # no link: nothing to say
    wrong = source.replace(".py", "x.py")
    with pytest.raises(BuildError) as e:
        check_snippet_sources([(registered, wrong)])
    assert (Path(e.value.path), e.value.line) == _registration(registered), e.value
    assert f"'{wrong}'" in e.value.message and f"did you mean '{source}'" in e.value.message, e.value


def test_a_section_built_from_an_experiment_not_registered_is_an_error_at_its_function(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`Section("walkies", ("wlak",), walk_section)`, a misspelt experiment in its needs,
    stopped the build with run.py's ValueError traceback (a mutation pass): it is an error
    at the section's function, with the experiment it may have meant."""
    import inspect

    from sqrtdk.science.warned import ScienceWarningError  # the build's BuildError

    def walkies(data: Any) -> Any:
        return {}

    monkeypatch.setitem(SECTIONS._items, "walkies", Section("walkies", ("wlak",), walkies))
    with pytest.raises(ScienceWarningError) as e:
        Run(DEFAULT_SEED, None, {"walk"})
    assert (e.value.path.name, e.value.line) == \
        (Path(__file__).name, inspect.getsourcelines(walkies)[1]), str(e.value)
    assert "'wlak'" in e.value.message and "did you mean 'walk'?" in e.value.message


def test_the_gradient_band_is_cut_at_the_levels_its_parameters_give():
    """The band's quantile levels are parameters and results (`band_lo`, `band_hi`: what the
    article and the figure's key quote), not numbers typed in the code and again in the
    prose: a narrower band (25 % to 75 %) lies inside the wider one at every d and ruler."""
    wide = rulers.gradient_section({"rulers": assembled("rulers", SMALL_RULERS, DEFAULT_SEED)})
    narrow = rulers.gradient_section({"rulers": assembled(
        "rulers", replace(SMALL_RULERS, band=(0.25, 0.75)), DEFAULT_SEED)})
    assert (narrow["band_lo"], narrow["band_hi"]) == (0.25, 0.75)
    assert (wide["band_lo"], wide["band_hi"]) == rulers.RulerParams().band
    for r in RULERS:
        assert all(w < n for w, n in zip(wide["p10"][r], narrow["p10"][r]))
        assert all(n < w for w, n in zip(wide["p90"][r], narrow["p90"][r]))
        assert narrow["median"][r] == wide["median"][r]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_paragraph_quoting_the_band_s_edges_quotes_their_levels(lang: str) -> None:
    """A band edge (`gradient.p10`, `gradient.p90`) is the length a share of the rows falls
    below, and that share is a parameter (`band_lo`, `band_hi`): a paragraph quoting an edge
    quotes its level too, or moving the levels in rulers.py left it saying 'a tenth of the
    rows', exit 0 (the level typed beside the number)."""
    text = (PROJECT_ROOT / "content" / lang / "index.md").read_text("utf-8")
    for paragraph in re.split(r"\n[ \t]*\n", text):
        for edge, level in (("p10", "band_lo"), ("p90", "band_hi")):
            if f"gradient.{edge}" in paragraph:
                assert f"gradient.{level}" in paragraph, (edge, paragraph[:200])


@pytest.mark.parametrize(("grid", "holds"), [((4, 8, 16, 32), True), ((4, 16, 64), False),
                                             ((4, 8, 12, 16), False)])
def test_the_grid_claim_holds_only_for_a_grid_that_doubles(grid, holds):
    """"Doubling each time" is a claim (spread.grid_doubles) on the grid the results carry,
    so a grid with another step stops the build at the sentence that says it."""
    claim = CLAIMS["spread.grid_doubles"]
    value = claim.value({"d_k": list(grid)})
    assert (value <= claim.bound) is holds


@pytest.mark.parametrize(("printed", "result", "said"), [
    (r"SD at d = (\d+", "spread.d_small", "is not a regular expression"),
    (r"SD at d = (\d+):", "spread", "is dict, not a number"),
    (r"SD at d = (\d+):", "spread.d_k", "is list, not a number"),
])
def test_an_agreement_with_a_broken_pattern_or_no_number_is_told_at_its_line(
        results: dict[str, Any], monkeypatch: pytest.MonkeyPatch, printed: str, result: str,
        said: str) -> None:
    """An agreement whose pattern is no regular expression, or whose result names a section
    or a list rather than one number, ended the build in a traceback (re.error, TypeError
    from float()). Each is an error at reproduce_boxes.py (the agreement's line)."""
    from sqrtdk.errors import BuildError
    from sqrtdk.science import reproduce_boxes
    from sqrtdk.science_stage import check_snippets
    monkeypatch.setattr(reproduce_boxes, "AGREES",
                        [reproduce_boxes.Agrees("sheet1", printed, result, 0)])
    with pytest.raises(BuildError) as e:
        check_snippets(results)
    assert e.value.path.name == "reproduce_boxes.py", e.value
    assert said in e.value.message, e.value.message


def test_a_snippet_printing_other_numbers_than_the_results_stops_the_build(
        results: dict[str, Any]) -> None:
    """A reproduce snippet whose printout disagreed with the results it reproduces (a
    dimension changed in the experiment and not in the snippet) was published beside them
    with exit 0. Each agreement of reproduce_boxes.AGREES holds for the build's results; a
    printed number moved past its `within`, or a printout its pattern does not find, is an
    error at that agreement's line of reproduce_boxes.py."""
    import copy
    import re

    from sqrtdk.errors import BuildError
    from sqrtdk.science.reproduce_boxes import AGREES
    from sqrtdk.science_stage import check_snippets
    check_snippets(results)
    boxes = (PROJECT_ROOT / "sqrtdk" / "science" / "reproduce_boxes.py").read_text(
        encoding="utf-8").splitlines()
    for agrees in (AGREES[0], AGREES[-1]):
        changed = copy.deepcopy(results)
        ran = changed["reproduce"][agrees.snippet]
        m = re.search(agrees.printed, ran["stdout"], re.M)
        assert m, (agrees, ran["stdout"])
        far = f"{float(m.group(1)) + 2 * agrees.within + 1:g}"
        ran["stdout"] = ran["stdout"][:m.start(1)] + far + ran["stdout"][m.end(1):]
        with pytest.raises(BuildError) as e:
            check_snippets(changed)
        assert e.value.path.name == "reproduce_boxes.py", e.value
        assert f'Agrees("{agrees.snippet}"' in boxes[e.value.line - 1], e.value
        assert f"prints {far} " in e.value.message and agrees.result in e.value.message, \
            e.value.message
        assert ("they must be equal" if not agrees.within else
                f"more than {agrees.within:g} apart") in e.value.message, e.value.message
        ran["stdout"] = "nothing\n"
        with pytest.raises(BuildError) as e:
            check_snippets(changed)
        assert "prints nothing the pattern" in e.value.message, e.value.message


def test_a_snippet_whose_printout_nothing_checks_is_a_warning_at_its_registration(
        results: dict[str, Any], caplog: pytest.LogCaptureFixture) -> None:
    """A new snippet with no entry in reproduce_boxes.AGREES was published with nothing
    checking its printout against the results: a warning at its registration saying what to
    add. Every snippet the build runs is checked (by an Agrees, or by a claim reading its
    printout, as the gradient snippet's claims do), so the build's own results warn nothing;
    the same snippet with neither is told once, at its line of reproduce_boxes.py."""
    import copy
    import logging

    from sqrtdk.science_stage import warn_unchecked_snippets
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        warn_unchecked_snippets(results)
    assert not caplog.records, [r.getMessage() for r in caplog.records]
    boxes = (PROJECT_ROOT / "sqrtdk" / "science" / "reproduce_boxes.py").read_text(
        encoding="utf-8").splitlines()
    for ran in results["reproduce"].values():
        changed = copy.deepcopy(results)
        changed["reproduce"] = {"unchecked": ran}      # its file, under a name nothing checks
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="sqrtdk"):
            warn_unchecked_snippets(changed)
        said = [r.getMessage() for r in caplog.records]
        assert len(said) == 1, said
        where, _, message = said[0].partition(": warning: ")
        path, line = where.rsplit(":", 1)
        assert path.endswith("reproduce_boxes.py") and \
            f'"{Path(ran["file"]).name}"' in boxes[int(line) - 1], said
        assert "snippet 'unchecked'" in message and 'Agrees("unchecked"' in message, said


@pytest.mark.cpu_timeout(60)
@pytest.mark.parametrize(("name", "changed", "said"), [
    ("spread", {"n_pairs": 20_000.0}, "write 20000"),
    ("spread", {"n_batches": "8"}, "a str where an int is meant"),
    ("walk", {"steps": None}, "None where an int is meant"),
    ("rulers", {"d_k": (4, 8.0, 16)}, "item 1 (8.0)"),
    ("rulers", {"band": (0.1,)}, "a tuple of 1 item(s)"),
    ("saturation", {"shown_scales": [1.0, 4.0]}, "not a tuple"),
    ("jacobian", {"var_small": "1.0"}, "a str where a number is meant"),
    ("rulers", {"d_k": tuple(np.int64(d) for d in (4, 8, 16))},
     "numpy's int64 where an int is meant (convert it: int(x); a grid: tuple(int(x) for x in"),
    ("jacobian", {"var_small": np.float32(1.0)},
     "numpy's float32 where a number is meant (convert it: float(x)"),
], ids=["float for int", "str for int", "None", "float in an int grid", "band of one",
        "list for tuple", "str for float", "numpy int in an int grid", "numpy float32"])
def test_a_parameter_of_the_wrong_type_is_told_at_its_line_before_any_job_runs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, changed: dict[str, Any],
        said: str) -> None:
    """README's 'change a parameter' with a value of another type than the field declares (a
    float where an int is meant, a string, None, a list or a tuple of the wrong length) ran
    the experiment until numpy or Python refused it deep inside ('float' object cannot be
    interpreted as an integer, at streams.py, "fix the code at this line"; fuzz20), or ran
    to the end on it: it is an error at the line of the field's default, naming the field,
    before any job runs."""
    import ast
    import dataclasses

    from sqrtdk.cache import Cache
    from sqrtdk.errors import BuildError
    from sqrtdk.options import BuildOptions
    from sqrtdk.science_stage import run_science
    registry.load()
    exp = EXPERIMENTS[name]
    params = replace(exp.params, **changed)
    monkeypatch.setattr(EXPERIMENTS, "_items", {name: dataclasses.replace(exp, params=params)})
    opts = BuildOptions.for_project(tmp_path, jobs=1)
    opts.figures_dir.mkdir(parents=True)
    with pytest.raises(BuildError) as e:
        run_science(opts, Cache(opts.cache_dir))
    field = next(iter(changed))
    source = Path(sys.modules[type(params).__module__].__file__ or "")
    tree = ast.parse(source.read_text(encoding="utf-8"))
    line = next(node.lineno for cls in ast.walk(tree)
                if isinstance(cls, ast.ClassDef) and cls.name == type(params).__name__
                for node in cls.body if isinstance(node, ast.AnnAssign)
                and isinstance(node.target, ast.Name) and node.target.id == field)
    assert (e.value.path, e.value.line) == (source, line), str(e.value)
    assert f"{type(params).__name__}.{field}" in e.value.message and said in e.value.message, \
        e.value.message
    assert not opts.results_file.exists()


def _params_line(cls: type, field: str) -> tuple[Path, int]:
    """The file of the `…Params` class `cls` and the line of its field `field`."""
    import ast
    source = Path(sys.modules[cls.__module__].__file__ or "")
    tree = ast.parse(source.read_text(encoding="utf-8"))
    return source, next(node.lineno for c in ast.walk(tree)
                        if isinstance(c, ast.ClassDef) and c.name == cls.__name__
                        for node in c.body if isinstance(node, ast.AnnAssign)
                        and isinstance(node.target, ast.Name) and node.target.id == field)


@pytest.mark.parametrize("case", ["grids made unequal", "negative n_pairs", "zero hist_bin",
                                  "negative var_small"])
def test_a_parameter_value_the_code_cannot_take_is_told_at_the_parameter_s_line(
        case: str) -> None:
    """README's 'change a parameter' with a value of the right type that the code cannot take
    was told at the line that raised, "fix the code at this line", where nothing is wrong
    (fuzz20): Experiment 1's d_k changed alone stopped at rulers.py's check that the two
    grids are equal (its message names no field), a negative n_pairs deep in streams.py, a
    zero hist_bin at z_edges' division, a negative var_small handed to a job as an argument
    at math.sqrt. Each is told at the line of a parameter the failing line (or the `if` of
    a check, or a local it uses, or an argument equal to a field) reads (one of 0 or below
    first), naming that line and the other parameters it reads."""
    from sqrtdk.science_stage import placed_error
    if case == "grids made unequal":
        changed = replace(spread.SpreadParams(), d_k=(4, 8, 16, 32, 64))
        data = {"rulers": (rulers.RulerParams(), ()), "spread": spread.Spread(changed, ())}
        with pytest.raises(ValueError) as raised:
            rulers.rulers_section(data)
        want, other = _params_line(spread.SpreadParams, "d_k"), "RulerParams.d_k"   # as read
    elif case == "negative n_pairs":
        with pytest.raises(ValueError) as raised:
            spread.sample(replace(spread.SpreadParams(), n_pairs=-8), DEFAULT_SEED, 4, 0)
        want, other = _params_line(spread.SpreadParams, "n_pairs"), "n_batches"
    elif case == "negative var_small":     # handed in as an argument, `var`, not p.var_small
        params = replace(saturation.JacobianParams(), var_small=-1.0)
        with pytest.raises(ValueError) as raised:
            saturation.jacobian_row_stats(params, DEFAULT_SEED, params.var_small)
        # n_rows, read by the statement's other call, is no part of math.sqrt(var)
        want, other = _params_line(saturation.JacobianParams, "var_small"), "var_small"
    else:
        with pytest.raises(ZeroDivisionError) as raised:
            spread.z_edges(replace(spread.SpreadParams(), hist_bin=0.0))
        want, other = _params_line(spread.SpreadParams, "hist_bin"), "hist_limit"  # the zero
    told = placed_error(raised.value)
    assert told is not None, raised.value
    assert (Path(told.path), told.line) == want, told
    assert other in told.message and "fix the code at this line" not in told.message, told


@pytest.mark.parametrize(("name", "changed", "field", "said"), [
    ("spread", {"n_batches": 1}, "n_batches", "at least 2"),
    ("spread", {"hist_limit": 0.0}, "hist_limit", "at least 3"),
    ("spread", {"hist_limit": 0.1}, "hist_limit", "bell"),
    ("spread", {"hist_bin": 20.0}, "hist_bin", "at most 0.5"),
    ("spread", {"n_pairs": 8}, "n_pairs", "write 16 or more"),
    ("rulers", {"grad_threshold": 0.0}, "grad_threshold", "above 0"),
    ("rulers", {"positions": 1}, "positions", "at least 2"),
    ("saturation", {"shown_scales": ()}, "shown_scales", "2 or more items"),
], ids=["one batch", "no histogram", "one-bin histogram", "wide bin", "one pair a batch",
        "zero threshold", "one position", "no panel"])
def test_a_parameter_outside_its_valid_range_is_told_at_its_line(
        name: str, changed: dict[str, Any], field: str, said: str) -> None:
    """fuzz20's leftovers: n_batches = 1 built with exit 0 ('1 independent batches … ranges
    from X to X'), hist_limit = 0 or 0.1 and hist_bin = 20 drew empty or one-bin histograms
    under an alt text telling a peak and a bell; n_pairs = 8 (one pair a batch) ended in a
    ZeroDivisionError in sample_sd, grad_threshold = 0 and shown_scales = () inside claims.
    Each field declares its range (registry.valid, or the class's invalid() for a limit
    joining two fields), and check_params tells a value outside it at the field's line,
    before any job runs. Today's values pass."""
    import dataclasses

    from sqrtdk.errors import BuildError
    from sqrtdk.science_stage import check_params
    registry.load()
    check_params(EXPERIMENTS)
    exp = EXPERIMENTS[name]
    params = replace(exp.params, **changed)
    with pytest.raises(BuildError) as e:
        check_params([dataclasses.replace(exp, params=params)])
    assert (Path(e.value.path), e.value.line) == _params_line(type(params), field), e.value
    assert f"{type(params).__name__}.{field}" in e.value.message and said in e.value.message, \
        e.value.message


def test_a_parameter_edited_outside_its_range_is_not_told_as_today_s_value(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """README's recipe changes a parameter by editing its default in the Params class: the
    value outside the range is then the field's default too, and the message ended '(today's
    value is 1)' about the 1 it refused, as if the value shipped were the one to keep. A
    default that is the value refused is not offered as today's value."""
    import dataclasses

    from sqrtdk.errors import BuildError
    from sqrtdk.science_stage import check_params
    registry.load()
    exp = EXPERIMENTS["spread"]
    edited = next(f for f in dataclasses.fields(exp.params) if f.name == "n_batches")
    monkeypatch.setattr(edited, "default", 1)       # as `n_batches: int = valid(1, ...)`
    params = replace(exp.params, n_batches=1)
    with pytest.raises(BuildError) as e:
        check_params([dataclasses.replace(exp, params=params)])
    assert "at least 2" in e.value.message, e.value.message
    assert "value is 1" not in e.value.message, e.value.message


@pytest.mark.cpu_timeout(60)
def test_zero_positions_is_told_at_its_line_not_while_rulers_py_is_imported(
        tmp_path: Path) -> None:
    """RulerParams.positions = 0 stopped the build while rulers.py was imported (1/0 in its
    results' bounds), a traceback at a code line: it is told at the field's line by
    check_params, as any value below its range. Run on a copy of the package."""
    import shutil
    copy = tmp_path / "sqrtdk"
    shutil.copytree(PROJECT_ROOT / "sqrtdk", copy,
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    source = copy / "science" / "rulers.py"
    text = source.read_text(encoding="utf-8")
    edited, n = re.subn(r"(\n    positions: int = (?:valid\(\s*)?)8\b", r"\g<1>0", text)
    assert n == 1, "RulerParams.positions' default is no longer written as 8"
    source.write_text(edited, encoding="utf-8")
    code = ("from sqrtdk.science import registry\nfrom sqrtdk.errors import BuildError\n"
            "from sqrtdk.science_stage import check_params\nregistry.load()\n"
            "try:\n    check_params(registry.EXPERIMENTS)\n"
            "except BuildError as e:\n    print(e.path, e.line, e.message)\n")
    ran = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                         text=True, check=False)
    line = next(i for i, t in enumerate(text.splitlines(), 1)
                if t.startswith("    positions: int = "))
    assert ran.returncode == 0 and ran.stdout.startswith(f"{source} {line} "), ran
    assert "RulerParams.positions" in ran.stdout and "at least 2" in ran.stdout, ran.stdout


def _default_edited(tmp_path: Path, module: str, field: str, old: str, new: str) -> tuple[
        Path, int, str]:
    """A copy of the package in `tmp_path` whose science/`module` has the default `old` of
    the Params field `field` (the first of that name, or "Class.field") written `new` (README's "To change a parameter"); the copied
    module, the field's line, and what check_params says of the copy (`path line message`,
    or '' when it passes)."""
    import shutil
    copy = tmp_path / "sqrtdk"
    shutil.copytree(PROJECT_ROOT / "sqrtdk", copy,
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    source = copy / "science" / module
    text = source.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    cls, _, field = field.rpartition(".")       # "TwoScoresParams.scores": in that class
    after = next(i for i, t in enumerate(lines) if t.startswith(f"class {cls}")) if cls else 0
    line = next(i for i, t in enumerate(lines, 1)
                if i > after and re.match(rf"    {field}: \S", t))
    start = sum(len(t) for t in lines[:line - 1])
    at = text.find(old, start)
    assert start <= at < start + sum(len(t) for t in lines[line - 1:line + 2]), \
        f"{module}: {field}'s default is no longer written as {old}"
    source.write_text(text[:at] + new + text[at + len(old):], encoding="utf-8")
    code = ("from sqrtdk.science import registry\nfrom sqrtdk.errors import BuildError\n"
            "from sqrtdk.science_stage import check_params\nregistry.load()\n"
            "try:\n    check_params(registry.EXPERIMENTS)\n"
            "except BuildError as e:\n    print(e.path, e.line, e.message)\n")
    ran = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                         text=True, check=False)
    assert ran.returncode == 0 and not ran.stderr, ran
    return source, line, ran.stdout.strip()


@pytest.mark.cpu_timeout(60)
@pytest.mark.parametrize(("module", "field", "old", "new", "said", "exp", "edge"), [
    ("saturation.py", "shown_scales", "(1.0, 4.0, 16.0)", "(4.0,)", "2 or more items",
     "saturation", (4.0, 8.0)),
    ("saturation.py", "shown_scales", "(1.0, 4.0, 16.0)", "(1.0, 3.0, 16.0)",
     "3 not on the grid of scales",
     "saturation", (0.5, 2.0 ** 0.5)),
    ("saturation.py", "shown_scales", "(1.0, 4.0, 16.0)", "(16.0, 4.0, 1.0)", "rising order",
     "saturation", (1.0, 16.0)),
    ("saturation.py", "quoted_scale", "16.0", "12.0", "not on the grid of scales",
     "saturation", 2.0 ** 0.25),
    ("saturation.py", "octave_max", "6", "1", "must lie inside the grid",
     "saturation", None),
    ("saturation.py", "octave_min", "-5", "1", "at most 0",
     "saturation", -1),
    ("saturation.py", "per_octave", "16", "0", "at least 1",
     "saturation", 1),
    ("saturation.py", "labels", '"H")', '"H", "I")', "9 label(s) for the 8 scores",
     "saturation", None),
    ("saturation.py", "labels", '"H")', '"A")', "a label given twice",
     "saturation", None),
    ("saturation.py", "scores", "0.55, 0.9)", "0.9, 0.9)", "make one score the largest",
     "saturation", None),
    ("rulers.py", "quoted_d", "64", "100", "not on the grid of d",
     "rulers", DIMENSIONS[0]),
    ("rulers.py", "band", "(0.1, 0.9)", "(0.9, 0.1)", "not below its upper",
     "rulers", (0.01, 0.02)),
    ("spread.py", "d_small", "4", "3", "not on the grid of d",
     "spread", DIMENSIONS[1]),
    ("spread.py", "d_large", "64", "4", "not above d_small = 4",
     "spread", DIMENSIONS[1]),
    ("spread.py", "n_pairs", "20_000", "20_001", "not a multiple of n_batches",
     "spread", 16),
    ("saturation.py", "length", "8", "1", "at least 2",
     "jacobian", 2),
    ("saturation.py", "n_rows", "10_000", "0", "at least 1",
     "jacobian", 1),
    ("saturation.py", "var_small", "1.0", "-1.0", "at least 0",
     "jacobian", 0.0),
    ("saturation.py", "var_large", "100.0", "0.5", "not above var_small = 1",
     "jacobian", 1.001),
    ("spread.py", "steps", "100", "0", "at least 1",
     "walk", 1),
    ("spread.py", "n_walks", "20_000", "1", "at least 2",
     "walk", 6),
    ("spread.py", "n_paths_shown", "6", "0", "at least 1",
     "walk", 1),
    ("spread.py", "n_paths_shown", "6", "30_000", "write 20000 or fewer",
     "walk", 20_000),
    ("saturation.py", "TwoScoresParams.scores", "(10.0, 5.0)", "(10.0, 5.0, 1.0)",
     "a tuple of 3 item(s)",
     "two_scores", None),
    ("saturation.py", "d_k", "64", "0", "at least 1",
     "two_scores", 1),
], ids=["one panel", "panel off the grid", "panels falling", "quoted scale off the grid",
        "grid short of the peak", "grid without scale 1", "no steps per octave",
        "a label short", "a label twice", "tied winners", "quoted d off the grid",
        "band reversed", "d_small off the grid", "d_large not above d_small",
        "uneven batches", "jacobian of one score", "jacobian of no rows",
        "negative variance", "large variance below the small", "walk of no steps",
        "one walk", "no walk shown", "more walks shown than simulated", "three scores",
        "two scores at d_k 0"])
def test_a_params_default_edited_to_a_value_the_science_cannot_take_is_told_at_its_line(
        tmp_path: Path, module: str, field: str, old: str, new: str, said: str, exp: str,
        edge: Any) -> None:
    """left20: values README's "To change a parameter" could write that built with a wrong
    description or stopped with an error at a code line: one bar-chart panel ('others
    drain' took max() of nothing), a shown or quoted scale off the grid and a quoted_d off
    the grid of d ("not on the grid" raised inside a section or claim), a band reversed (a
    band from the 90 % quantile 'to' the 10 %), JacobianParams and WalkParams with no ranges
    (a Jacobian of one score, no rows, one walk, no walk shown: tracebacks in claims and the
    figure), three scores for two_scores (told at the results schema's line); and of the
    same class d_small/d_large off the grid, uneven batches, labels not one per score,
    a tied winner, a grid that misses the sensitivity's peak. Each is told at the edited
    field's line by check_params, before any job runs, on a copy of the package; the
    nearest value the science still takes (`edge`: the smallest count, a variance of 0, a
    band of two neighbouring levels, ...) is not refused."""
    import dataclasses

    from sqrtdk.science_stage import check_params
    source, line, told = _default_edited(tmp_path, module, field, old, new)
    name = field.rpartition(".")[2]
    assert told.startswith(f"{source} {line} "), told
    assert f"Params.{name} of experiment" in told and said in told, told
    if edge is not None:
        registry.load()
        params = replace(EXPERIMENTS[exp].params, **{name: edge})
        check_params([dataclasses.replace(EXPERIMENTS[exp], params=params)])


def test_a_snippet_disagreeing_with_an_experiment_of_fewer_rows_says_the_tolerance_is_not_for_them(
        results: dict[str, Any]) -> None:
    """With RulerParams.n_rows = 1 the snippet-agreement check said the snippet does not
    compute what the experiment does, where the tolerance (5 SE of the difference of means
    over 1 000 and 2 000 rows) was derived for 2 000 rows: with one, the experiment's own
    mean moves further. The error at the agreement's line says so."""
    import copy

    from sqrtdk.errors import BuildError
    from sqrtdk.science.reproduce_boxes import AGREES
    from sqrtdk.science_stage import check_snippets
    agrees = next(a for a in AGREES if a.sample is not None and a.sample[0] == "rulers.n_rows")
    changed = copy.deepcopy(results)
    changed["rulers"]["n_rows"] = 1
    section, key = agrees.result.split(".", 1)
    quoted = changed[section]
    *groups, last = key.split(".")
    for g in groups:
        quoted = quoted[g]
    quoted[last] = quoted[last] + 3 * agrees.within + 1
    with pytest.raises(BuildError) as e:
        check_snippets(changed)
    assert e.value.path.name == "reproduce_boxes.py", e.value
    assert "rulers.n_rows is 1" in e.value.message and str(agrees.sample[1]) in \
        e.value.message, e.value.message
    assert "does not compute what the experiment does" not in e.value.message, e.value.message


_SHARES_A_VALUE = '''\
from dataclasses import dataclass


@dataclass(frozen=True)
class ProbeParams:
    n: int = 4
    offset: int = 0
    width: int = 16


def loop(p: ProbeParams) -> list[float]:
    out = []
    for i in range(p.n):
        out.append(p.width / i)
    return out


def two_calls(p: ProbeParams) -> int:
    return pick(p.width, 1) + pick(3, 5)


def pick(a: int, b: int) -> int:
    if b >= a:
        raise ValueError(f"{b} is not below {a}")
    return b


def grid_job(p: ProbeParams, seed: int, d: int) -> int:
    return [0, 1, 2][d]
'''


@pytest.mark.parametrize(("case", "want"), [("loop", 8), ("two_calls", 24), ("grid_job", 29)])
def test_a_parameter_is_not_blamed_for_a_local_or_a_call_it_is_no_part_of(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str, want: int) -> None:
    """placed_error put a failing line's error at a Params field's line when a local of the
    line merely held the field's value (a loop's i = 0 and ProbeParams.offset = 0, which the
    line never reads, told first as "reached from code that reads ProbeParams.offset"), or
    when the statement read a field in another call than the one that failed (pick(3, 5) of
    `pick(p.width, 1) + pick(3, 5)`, told at width). A local of the function's own is no
    parameter handed in, and only the part of the statement that was running counts: the
    division is told at width, which it reads, the call pick(3, 5) at its own check; a
    statement that reads no field (`[0, 1, 2][d]`, d = 16 handed in from a grid) is not
    told at a field that is 16 too, but at its own line."""
    import importlib.util

    import sqrtdk.options
    from sqrtdk.science_stage import placed_error
    package = tmp_path / "sqrtdk"
    module = package / "science" / "probe_shares.py"
    module.parent.mkdir(parents=True)
    module.write_text(_SHARES_A_VALUE, encoding="utf-8")
    monkeypatch.setattr(sqrtdk.options, "PACKAGE_DIR", package)
    spec = importlib.util.spec_from_file_location("probe_shares", module)
    assert spec is not None and spec.loader is not None
    probe = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "probe_shares", probe)      # its classes' source is found
    spec.loader.exec_module(probe)
    args = (DEFAULT_SEED, 16) if case == "grid_job" else ()
    with pytest.raises((ZeroDivisionError, ValueError, IndexError)) as raised:
        getattr(probe, case)(probe.ProbeParams(), *args)
    told = placed_error(raised.value)
    assert told is not None and (Path(told.path), told.line) == (module, want), told
    assert "offset" not in told.message and (case != "grid_job" or "width" not in
                                             told.message), told.message


_EVERY_ANNOTATION = '''\
from __future__ import annotations

import typing
from dataclasses import dataclass, field
from typing import Optional, Tuple, Union


@dataclass(frozen=True)
class InnerParams:
    k: int = 2


@dataclass(frozen=True)
class EveryParams:
    grid: tuple[int, ...] = (4, 16, 16)
    pair: tuple[float, float] = (0, 1.5)
    any_tuple: Tuple = (1, "a", 2.0)
    any_tuple_2: tuple = ()
    typed: typing.Tuple[int, ...] = (1,)
    maybe: Optional[int] = None
    either: Union[int, str] = "x"
    piped: int | None = 3
    inner: InnerParams = field(default_factory=InnerParams)
    nested: tuple[tuple[int, int], ...] = ((1, 2), (3, 4))
'''


def test_check_params_accepts_every_annotation_a_params_class_may_use(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """check_params read a bare `Tuple` (typing's, any tuple) as a tuple of no items and
    refused every value of it, "a tuple of 3 item(s) where the field has 0", at a field
    holding what its annotation allows. Each annotation here (Optional, unions, tuple[int,
    ...], a nested dataclass, strings under `from __future__ import annotations`) passes
    with a value it allows."""
    import importlib.util
    from types import SimpleNamespace

    from sqrtdk.science_stage import check_params
    module = tmp_path / "every_params.py"
    module.write_text(_EVERY_ANNOTATION, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("every_params", module)
    assert spec is not None and spec.loader is not None
    probe = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "every_params", probe)     # its annotations resolve
    spec.loader.exec_module(probe)
    check_params([SimpleNamespace(name="every", params=probe.EveryParams())])
