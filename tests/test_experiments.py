"""Tests for sqrtdk.experiments: softmax identities, and every experiment against its theory.

Statistical tolerances come from the sampling distribution of the quantity under test. The
derivation is written next to each tolerance. No expected measurement is hard-coded.

Shared convention: a statistical check allows N_SE = 5 standard errors. For an approximately
normal estimate, P(|Z| > 5) ~ 5.7e-7 per check. The file makes about 75 such checks plus two
range checks of <= 2e-5 each, so by the union bound the chance that any of them fails on a correct
implementation is below 1e-4, whatever the seed. (The normal approximation is good here: every
estimate averages >= 2 000 rows.) The strict monotone trends of E3 are argued separately.
"""
from __future__ import annotations

import math
import os
import subprocess
import sys
from dataclasses import replace

import numpy as np
import pytest

from sqrtdk.config import DEFAULT_SEED, ROOT, RulerParams, SpreadParams
from sqrtdk.experiments import (RULERS, entropy_bits, rulers, softmax, softmax_jacobian, spread,
                                stream)

N_SE = 5.0


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
    # and |dp_i/ds_j| <= 1/4 per score, so the shares move by < 1e-12.
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
    p = softmax(scores)
    jac = softmax_jacobian(p)
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


def jacobian_frobenius_bound() -> float:
    """The largest Frobenius norm a softmax Jacobian can have: 1/2.

    ||J||_F^2 = sum_i p_i^2 (1 - p_i)^2 + sum_{i != j} p_i^2 p_j^2 = S2 - 2 S3 + S2^2 with
    S2 = sum p_i^2, S3 = sum p_i^3. Averaging under the weights p, S2 = E_p[p] and
    S3 = E_p[p^2] >= (E_p[p])^2 = S2^2 (Jensen), so ||J||_F^2 <= S2 - S2^2 <= 1/4. Equality needs
    S2 = 1/2 with p constant on its support: two shares of 1/2. (1/sqrt 2 is valid but loose.)
    """
    return 0.5


@pytest.mark.parametrize("scores", CASE_SCORES, ids=CASE_IDS)
def test_jacobian_frobenius_norm_never_exceeds_one_half(scores):
    assert np.linalg.norm(softmax_jacobian(softmax(scores))) <= jacobian_frobenius_bound() + 1e-15


def test_jacobian_frobenius_norm_reaches_one_half_at_two_equal_shares():
    p = np.array([0.5, 0.5, 0.0, 0.0, 0.0])
    assert np.linalg.norm(softmax_jacobian(p)) == pytest.approx(jacobian_frobenius_bound(),
                                                                 rel=1e-15)


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


# --- E1: the spread of q.k grows as sqrt(d) ---------------------------------------------------

def test_spread_sd_matches_sqrt_d_at_every_d(experiments):
    sp = experiments.spread
    for d, sd in zip(sp.d_k, sp.sd):
        theory = math.sqrt(d)
        # SE(s) = sqrt(d) * sqrt((kappa - 1) / 4n), kappa = 3 + 6/d (see dot_kurtosis).
        tol = N_SE * theory * sd_rse(dot_kurtosis(d), sp.n_pairs)
        assert abs(sd - theory) < tol, f"d={d}: SD {sd:.4f}, theory {theory:.4f} +- {tol:.4f}"


def test_spread_batch_sds_match_sqrt_d(experiments, params):
    sp, p = experiments.spread, params.spread
    for d, sds in ((p.d_small, sp.batch_sd_small), (p.d_large, sp.batch_sd_large)):
        tol = N_SE * math.sqrt(d) * sd_rse(dot_kurtosis(d), sp.n_pairs)  # as for the sweep
        for b, sd in enumerate(sds):
            assert abs(sd - math.sqrt(d)) < tol, f"batch {b}, d={d}: SD {sd:.4f}"


def test_spread_ratio_of_each_batch_matches_sqrt_of_d_ratio(experiments, params):
    sp, p = experiments.spread, params.spread
    theory = math.sqrt(p.d_large / p.d_small)
    # The two SDs of a batch come from independent streams; by the delta method the relative SE
    # of their ratio is sqrt(rse_small^2 + rse_large^2).
    rse = math.hypot(sd_rse(dot_kurtosis(p.d_small), sp.n_pairs),
                     sd_rse(dot_kurtosis(p.d_large), sp.n_pairs))
    tol = N_SE * theory * rse
    for b, (small, large) in enumerate(zip(sp.batch_sd_small, sp.batch_sd_large)):
        assert abs(large / small - theory) < tol, f"batch {b}: ratio {large / small:.3f}"


def test_spread_batch_zero_is_the_sweep_sample(experiments, params):
    sp = experiments.spread
    assert sp.batch_sd_small[0] == sp.sd[sp.d_k.index(params.spread.d_small)]
    assert sp.batch_sd_large[0] == sp.sd[sp.d_k.index(params.spread.d_large)]
    assert len(sp.batch_sd_small) == len(sp.batch_sd_large) == params.spread.n_batches


def test_spread_batches_are_distinct_samples(experiments):
    # Each batch has its own named stream; continuous SDs of distinct samples never coincide.
    sp = experiments.spread
    assert len(set(sp.batch_sd_small)) == len(sp.batch_sd_small)
    assert len(set(sp.batch_sd_large)) == len(sp.batch_sd_large)


def test_spread_histogram_edges_are_even_and_span_the_limit(experiments, params):
    edges, p = np.asarray(experiments.spread.hist_edges), params.spread
    assert edges[0] == -p.hist_limit and edges[-1] == p.hist_limit
    np.testing.assert_allclose(np.diff(edges), p.hist_bin, rtol=1e-12)


def test_spread_small_histograms_hold_every_pair(experiments, params):
    # At d_small = 4, Chernoff with E exp(t q.k) = (1 - t^2)^(-d/2) at t = 1/2 gives
    # P(|q.k| > 96) <= 2 (4/3)^2 e^-48 ~ 5e-21: no pair of the 8 x 20 000 falls outside.
    for b, counts in enumerate(experiments.spread.hist_small):
        assert sum(counts) == params.spread.n_pairs, f"batch {b}"
    for counts in experiments.spread.hist_large:
        assert sum(counts) <= params.spread.n_pairs


# --- footnote 2: the +-1 walk -----------------------------------------------------------------

def test_walk_sd_matches_sqrt_steps(experiments):
    w = experiments.walk
    theory = math.sqrt(w.steps)
    # One +-1 step has E x^2 = E x^4 = 1, kurtosis 1, excess -2; a sum of n steps has excess
    # -2/n, kurtosis 3 - 2/n. SE(s) = sqrt(n) sqrt((2 - 2/n) / 4 n_walks).
    tol = N_SE * theory * sd_rse(3.0 - 2.0 / w.steps, w.n_walks)
    assert abs(w.sd - theory) < tol, f"walk SD {w.sd:.4f}, theory {theory} +- {tol:.4f}"


def test_walk_paths_start_at_zero_and_move_one_step_at_a_time(experiments, params):
    paths = np.asarray(experiments.walk.paths)
    assert paths.shape == (params.walk.n_paths_shown, params.walk.steps + 1)
    assert np.all(paths[:, 0] == 0)
    assert np.all(np.abs(np.diff(paths, axis=1)) == 1)


# --- E2: one row of scores under a growing scale ----------------------------------------------

def test_saturation_shares_sum_to_one_at_every_scale(experiments):
    shares = np.asarray(experiments.saturation.shares)
    np.testing.assert_allclose(shares.sum(axis=1), 1.0, rtol=0, atol=1e-13)


def test_saturation_winner_is_the_largest_score(experiments):
    sa = experiments.saturation
    assert sa.scores[sa.winner] == max(sa.scores)
    np.testing.assert_array_equal(np.asarray(sa.shares)[:, sa.winner], sa.p_winner)


def test_saturation_winner_share_increases_with_the_scale(experiments):
    # d p_w / dc = p_w (s_w - sum_j p_j s_j) > 0 when s_w is the unique maximum.
    assert np.all(np.diff(experiments.saturation.p_winner) > 0)


def test_saturation_sensitivity_is_p_times_one_minus_p(experiments):
    p = np.asarray(experiments.saturation.p_winner)
    # Absolute tolerance of a few eps: see test_jacobian_entries_are_p_one_minus_p_...
    np.testing.assert_allclose(experiments.saturation.sensitivity, p * (1 - p), rtol=1e-14,
                               atol=1e-15)


def test_saturation_max_offdiag_is_the_largest_product_of_two_shares(experiments):
    for row, got in zip(experiments.saturation.shares, experiments.saturation.max_offdiag):
        prod = np.outer(row, row)
        np.fill_diagonal(prod, 0.0)
        assert got == pytest.approx(prod.max(), rel=1e-14)


def test_saturation_sensitivity_rises_then_falls_with_interior_peak(experiments):
    sens = np.asarray(experiments.saturation.sensitivity)
    peak = int(np.argmax(sens))
    assert 0 < peak < len(sens) - 1
    # p_w rises with the scale and p(1 - p) is unimodal in p, so the sensitivity is unimodal.
    assert np.all(np.diff(sens[: peak + 1]) > 0)
    assert np.all(np.diff(sens[peak:]) < 0)


def test_half_scale_gives_the_winner_one_half_within_a_grid_step_of_the_peak(experiments,
                                                                               params):
    sa = experiments.saturation
    p_half = softmax(sa.half_scale * np.asarray(sa.scores))[sa.winner]
    assert abs(p_half - 0.5) < 1e-9
    # The grid argmax of p(1 - p) is the grid point whose p is nearest 1/2, i.e. one of the two
    # grid points bracketing half_scale.
    peak = sa.scales[int(np.argmax(sa.sensitivity))]
    assert abs(peak - sa.half_scale) <= params.saturation.scale_step


def test_saturation_quoted_share_obeys_the_gap_bounds_and_exceeds_99_percent(experiments,
                                                                               params):
    sa, c = experiments.saturation, params.saturation.quoted_scale
    s = np.sort(np.asarray(sa.scores))[::-1]
    p = sa.p_winner[sa.scales.index(c)]
    # Exactly p_w = 1 / (1 + sum_{j != w} exp(-c (s_w - s_j))).
    exact = 1.0 / (1.0 + np.exp(-c * (s[0] - s[1:])).sum())
    assert p == pytest.approx(exact, rel=1e-12)
    # Every term is <= exp(-c g1), g1 = top-two gap: the crude bound (n-1) terms. With this row
    # it only gives ~0.975, so also bound the n-2 terms past the runner-up by exp(-c g2),
    # g2 = gap from the top to the third score.
    g1, g2 = s[0] - s[1], s[0] - s[2]
    crude = 1.0 / (1.0 + (len(s) - 1) * math.exp(-c * g1))
    sharp = 1.0 / (1.0 + math.exp(-c * g1) + (len(s) - 2) * math.exp(-c * g2))
    assert p >= crude and p >= sharp
    assert sharp > 0.99


# --- seed 002: Jacobian norms; seed 003: two scores -------------------------------------------

def test_jacobian_norm_shrinks_when_the_score_variance_grows(experiments):
    jn = experiments.jacobian
    # A row's norm lies in [0, 1/2], so its SD is <= 1/4 (Popoviciu) and the SE of a mean of
    # n_rows rows is <= 1/(4 sqrt n_rows); a difference of two independent means has SE <= sqrt 2
    # times that. Demanding a difference beyond 5 such SEs shows the order is not noise.
    norm_band = N_SE * math.sqrt(2) * 0.25 / math.sqrt(jn.n_rows)
    share_band = N_SE * math.sqrt(2) * share_mean_se(jn.length, jn.n_rows)
    assert jn.norm_small - jn.norm_large > norm_band
    assert jn.winner_large - jn.winner_small > share_band


def test_jacobian_norms_stay_within_the_frobenius_bound(experiments):
    jn = experiments.jacobian
    assert 0.0 < jn.norm_large < jacobian_frobenius_bound()
    assert 0.0 < jn.norm_small < jacobian_frobenius_bound()
    assert 1 / jn.length <= jn.winner_small <= 1.0 and 1 / jn.length <= jn.winner_large <= 1.0


def test_two_scores_match_the_logistic_function(experiments, params):
    ts, p = experiments.two_scores, params.two_scores
    gap = p.scores[0] - p.scores[1]
    assert ts.divisor == math.sqrt(p.d_k)
    assert ts.plain[0] == pytest.approx(1.0 / (1.0 + math.exp(-gap)), abs=1e-12)
    assert ts.scaled[0] == pytest.approx(1.0 / (1.0 + math.exp(-gap / math.sqrt(p.d_k))),
                                         abs=1e-12)
    assert sum(ts.plain) == pytest.approx(1.0, abs=1e-15)
    assert sum(ts.scaled) == pytest.approx(1.0, abs=1e-15)


# --- E3: three rulers -------------------------------------------------------------------------

def ruler_sd_rse(d: int, positions: int, n_rows: int) -> float:
    """Relative SE of the SD of all n_rows * positions raw scores of `rulers` at dimension d.

    Scores in one row share the query: x_j = q.k_j. They are uncorrelated but dependent:
    given q, x_j ~ N(0, |q|^2), so Cov(x_i^2, x_j^2) = Var|q|^2 = 2d for i != j, while
    Var(x^2) = E x^4 - d^2 = 3(d^2 + 2d) - d^2 = 2d^2 + 6d. With N = n_rows * m scores,
    Var(mean x^2) = [Var(x^2) + (m - 1) Cov] / N, a relative variance (2 + (2m + 4)/d) / N:
    an effective kurtosis 3 + (2m + 4)/d in place of 3 + 6/d.
    """
    return sd_rse(3.0 + (2.0 * positions + 4.0) / d, n_rows * positions)


def test_rulers_raw_sd_matches_sqrt_d(experiments):
    ru = experiments.rulers
    for d, sd in zip(ru.d_k, ru.sd["raw"]):
        tol = N_SE * math.sqrt(d) * ruler_sd_rse(d, ru.positions, ru.n_rows)
        assert abs(sd - math.sqrt(d)) < tol, f"d={d}: SD {sd:.4f}"


def test_rulers_scaled_sds_are_the_raw_sd_divided_by_sqrt_d_and_d(experiments):
    # Dividing one sample by a constant divides its SD exactly (up to rounding), so with the
    # raw check above the theories 1 and 1/sqrt(d) hold with the same relative tolerance.
    ru = experiments.rulers
    d = np.asarray(ru.d_k, dtype=float)
    raw = np.asarray(ru.sd["raw"])
    np.testing.assert_allclose(ru.sd["sqrt"], raw / np.sqrt(d), rtol=1e-12)
    np.testing.assert_allclose(ru.sd["linear"], raw / d, rtol=1e-12)


def test_rulers_shares_and_entropies_stay_in_their_ranges(experiments):
    ru = experiments.rulers
    for r in RULERS:
        assert all(1 / ru.positions <= s <= 1 for s in ru.winner_share[r]), r  # max >= mean
        assert all(0 <= h <= math.log2(ru.positions) for h in ru.entropy_bits[r]), r


# The monotone trends below are strict. Their justification is the size of each expected step
# in standard errors. That was measured once with 40 000 rows per d (per-row SDs of the winner
# share 0.09-0.21 raw, 0.002-0.07 linear; of the entropy 0.26-0.68 raw, 0.0003-0.14 linear).
# The smallest expected steps, in SEs of a difference of two 2 000-row means, are: raw share
# 4.6 (d = 512 -> 1024), raw entropy 5.6, linear share 18, linear entropy 20. So a chance
# reversal has probability <= Phi(-4.6) ~ 2e-6 per step, and far less elsewhere.

def test_raw_ruler_winner_share_increases_with_d_toward_one(experiments):
    ru = experiments.rulers
    share = np.asarray(ru.winner_share["raw"])
    assert np.all(np.diff(share) > 0)
    # Toward 1: the raw SD grows 16x from d = 4 to d = 1024; once it is large, 1 - share falls
    # like 1/SD (rows with a top-two gap below ~1/SD keep a runner-up; the gap has a positive
    # density at 0). Demand only a 4x fall, with 5 bound-SEs of noise against it on both ends.
    band = N_SE * share_mean_se(ru.positions, ru.n_rows)
    assert (1 - share[-1]) + band < ((1 - share[0]) - band) / 4


def test_raw_ruler_entropy_decreases_with_d(experiments):
    ent = np.asarray(experiments.rulers.entropy_bits["raw"])
    assert np.all(np.diff(ent) < 0)


def test_linear_ruler_winner_share_decreases_with_d_toward_uniform(experiments):
    ru = experiments.rulers
    share = np.asarray(ru.winner_share["linear"])
    assert np.all(np.diff(share) < 0)
    # Toward 1/n: scores divided by d have SD 1/sqrt(d); to first order p_j = (1 + s_j - mean s)/n,
    # so share - 1/n ~ E[max of n N(0,1)] / (n sqrt d): 16x smaller at d = 1024 than at d = 4.
    # Demand 4x; per-row SDs <= 0.07 make the noise (SE <= 0.0016) negligible against that.
    excess = share - 1 / ru.positions
    assert excess[-1] < excess[0] / 4


def test_linear_ruler_entropy_increases_with_d_toward_log2_n(experiments):
    ru = experiments.rulers
    ent = np.asarray(ru.entropy_bits["linear"])
    assert np.all(np.diff(ent) > 0)
    # Toward log2 n: to second order the deficit log2 n - H is proportional to the variance of
    # the scores, 1/d, so 256x smaller at d = 1024 than at d = 4. Demand 16x.
    deficit = math.log2(ru.positions) - ent
    assert deficit[-1] < deficit[0] / 16


def test_sqrt_ruler_share_and_entropy_are_flat_across_d(experiments):
    ru = experiments.rulers
    # Nine independent means: max - min > c needs one of the 36 pairs to differ by > c. A pair's
    # difference has SE <= sqrt 2 * se (Popoviciu bounds above), so with c = 5 sqrt 2 se the
    # union bound gives a false alarm <= 36 * 5.7e-7 = 2e-5. The true mean share does drift a
    # little at small d, because |q|^2 / d fluctuates (variance 2/d): ~0.02 from d = 4 to 1024,
    # against a band of 0.069 (the bound is loose: real per-row SD ~0.13, not 0.44).
    share, ent = ru.winner_share["sqrt"], ru.entropy_bits["sqrt"]
    share_band = N_SE * math.sqrt(2) * share_mean_se(ru.positions, ru.n_rows)
    entropy_band = N_SE * math.sqrt(2) * entropy_mean_se(ru.positions, ru.n_rows)
    assert max(share) - min(share) < share_band
    assert max(ent) - min(ent) < entropy_band


def test_rulers_order_at_every_d_is_raw_then_sqrt_then_linear(experiments):
    # The rulers see the same rows, and the top share of softmax(t s) rises with t
    # (d p_w/dt = p_w (s_w - sum_j p_j s_j) >= 0) while its entropy falls
    # (dH/dt = -t Var_p(s) / ln 2). With t = 1 > 1/sqrt d > 1/d this orders every row, hence the
    # means, with no noise at all.
    ws, ent = experiments.rulers.winner_share, experiments.rulers.entropy_bits
    for raw, sq, lin in zip(ws["raw"], ws["sqrt"], ws["linear"]):
        assert raw > sq > lin
    for raw, sq, lin in zip(ent["raw"], ent["sqrt"], ent["linear"]):
        assert raw < sq < lin


# --- streams ----------------------------------------------------------------------------------

def test_stream_is_deterministic():
    a = stream(DEFAULT_SEED, "spread/d=4").standard_normal(16)
    b = stream(DEFAULT_SEED, "spread/d=4").standard_normal(16)
    np.testing.assert_array_equal(a, b)


def test_stream_is_the_same_in_another_process():
    # Python's own hash() of a str changes with PYTHONHASHSEED; the stream key must not.
    code = ("from sqrtdk.experiments import stream; "
            f"print(repr(stream({DEFAULT_SEED}, 'walk').standard_normal(4).tolist()))")
    outputs = {subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, text=True,
                              capture_output=True, env={**os.environ, "PYTHONHASHSEED": hs}
                              ).stdout for hs in ("1", "2")}
    here = repr(stream(DEFAULT_SEED, "walk").standard_normal(4).tolist())
    assert outputs == {here + "\n"}


def test_stream_names_and_seeds_give_different_numbers():
    base = stream(DEFAULT_SEED, "spread/d=4").standard_normal(16)
    assert not np.array_equal(base, stream(DEFAULT_SEED, "spread/d=8").standard_normal(16))
    assert not np.array_equal(base, stream(DEFAULT_SEED + 1, "spread/d=4").standard_normal(16))


def test_stream_rejects_a_negative_seed():
    with pytest.raises(ValueError):
        stream(-1, "walk")


def test_adding_a_dimension_keeps_the_other_spread_sds():
    small = replace(SpreadParams(), d_k=(4, 512), n_pairs=2_000, n_batches=2)
    more = replace(small, d_k=(4, 16, 512))
    a, b = spread(small, DEFAULT_SEED), spread(more, DEFAULT_SEED)
    assert b.sd[0] == a.sd[0] and b.sd[2] == a.sd[1]
    assert b.batch_sd_small == a.batch_sd_small and b.batch_sd_large == a.batch_sd_large


def test_adding_a_dimension_keeps_the_other_ruler_values():
    small = replace(RulerParams(), d_k=(4, 64), n_rows=200)
    more = replace(small, d_k=(4, 16, 64))
    a, b = rulers(small, DEFAULT_SEED), rulers(more, DEFAULT_SEED)
    for field in ("sd", "winner_share", "entropy_bits"):
        for r in RULERS:
            got = getattr(b, field)[r]
            assert (got[0], got[2]) == getattr(a, field)[r], (field, r)


def test_another_seed_gives_other_spread_sds_still_within_theory(experiments):
    p = replace(SpreadParams(), n_batches=1)
    other = spread(p, DEFAULT_SEED + 1)
    for d, sd, sd0 in zip(other.d_k, other.sd, experiments.spread.sd):
        assert sd != sd0, f"d={d}"
        # Same tolerance as test_spread_sd_matches_sqrt_d_at_every_d.
        tol = N_SE * math.sqrt(d) * sd_rse(dot_kurtosis(d), other.n_pairs)
        assert abs(sd - math.sqrt(d)) < tol, f"d={d}: SD {sd:.4f}"


def test_another_seed_gives_other_ruler_sds_still_within_theory(experiments):
    other = rulers(RulerParams(), DEFAULT_SEED + 1)
    for d, sd, sd0 in zip(other.d_k, other.sd["raw"], experiments.rulers.sd["raw"]):
        assert sd != sd0, f"d={d}"
        tol = N_SE * math.sqrt(d) * ruler_sd_rse(d, other.positions, other.n_rows)
        assert abs(sd - math.sqrt(d)) < tol, f"d={d}: SD {sd:.4f}"
