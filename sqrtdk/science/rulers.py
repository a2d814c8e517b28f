"""Experiment 3: three rulers (source note 000's third experiment, source note 004's table),
and the gradient experiment, one step further back, to q.

At every d, `n_rows` rows are drawn: a query q against `positions` keys k_j, all with iid
N(0, 1) components; the scores are q·k_j divided by 1, √d or d. Per ruler: the mean winner
share and the mean entropy of the softmax, and one example row (row 0) for the page's dₖ
control. The same rows feed the gradient experiment: an attention output o = softmax(Kq/τ) V
with values V (iid N(0, 1), dimension d_v) read out by a random w (iid N(0, 1/d_v)), L = w·o.
Then ∂L/∂q = Kᵀ J (V w) / τ with J the softmax Jacobian. It is a property of one random
layer at initialisation-like scale, not a training run.
"""
from __future__ import annotations

import itertools
import math
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from .grid import DIMENSIONS, RULERS, divisor, sd_theory
from .registry import CLAIMS, EXPERIMENTS, SECTIONS, Claim, Experiment, Job, Section, valid
from .softmax import entropy_bits, softmax, softmax_vjp
from .streams import normals, stream


@dataclass(frozen=True)
class RulerParams:
    """Experiment 3 and the gradient experiment."""

    d_k: tuple[int, ...] = valid(
        DIMENSIONS, "the claims compare the smallest d with the larger ones: two dimensions "
        "or more, each of one component or more", at_least=1, min_items=2)
    n_rows: int = valid(         # rows of scores, each one query against `positions` keys
        2_000, "the means and quantiles are taken over the rows", at_least=1)
    positions: int = valid(
        8, "softmax over one position gives it all the weight whatever the scores: no "
        "winner's share or entropy to compare between rulers", at_least=2)
    quoted_d: int = 64           # the paper's d_k (§3.2.2), where the page's dₖ bar starts;
    #                              on the grid d_k (invalid())
    d_v: int = valid(            # the values' dimension (the paper's d_v = 64)
        64, "the values and the loss's weights have d_v components", at_least=1)
    grad_threshold: float = valid(  # "a vanishing gradient": ‖∂L/∂q‖ below this
        1e-3, "a length is never below 0, and the claims measure the medians in thresholds",
        above=0.0)
    # the quantile levels of the gradient's band (results `p10`, `p90`; quoted by the article
    # and the figure's key as `band_lo`, `band_hi`, so a change here changes what they say)
    band: tuple[float, float] = valid(   # (lower, upper): lower below upper (invalid())
        (0.1, 0.9), "quantile levels are shares of the rows", above=0.0, below=1.0)

    def invalid(self) -> Iterator[tuple[str, str]]:
        """The limits joining two fields (`registry.valid`), or two items of one: (field,
        what is wrong)."""
        if self.quoted_d not in self.d_k:
            yield "quoted_d", (f"not on the grid of d ({', '.join(map(str, self.d_k))}): the "
                               f"text quotes the values measured there; write a d of d_k")
        if self.band[0] >= self.band[1]:
            yield "band", (f"with its lower level {self.band[0]:g} not below its upper "
                           f"{self.band[1]:g}: the band runs from the lower quantile to the "
                           f"upper (results p10 to p90, the figure's shading); write "
                           f"(lower, upper)")


@dataclass(frozen=True)
class RowStats:
    """Everything Experiment 3 and the gradient experiment keep of the rows at one d, per ruler."""

    winner_share: dict[str, float]      # mean largest share
    entropy_bits: dict[str, float]      # mean entropy
    example_scores: tuple[float, ...]   # row 0, unscaled
    example_shares: dict[str, tuple[float, ...]]
    grad_quantiles: dict[str, tuple[float, float, float]]   # band[0], 50 %, band[1] of ‖∂L/∂q‖
    grad_below: dict[str, float]        # share of rows with ‖∂L/∂q‖ < threshold


def rows(p: RulerParams, seed: int, d: int) -> RowStats:
    """Draw the rows at dimension `d` (streams `rulers/d=D` and `gradient/d=D`)."""
    rng = stream(seed, f"rulers/d={d}")
    q = normals(rng, (p.n_rows, d))
    keys = normals(rng, (p.n_rows, p.positions, d))
    raw = np.einsum("rjd,rd->rj", keys, q).astype(np.float64)
    g = stream(seed, f"gradient/d={d}")
    values = normals(g, (p.n_rows, p.positions, p.d_v)).astype(np.float64)
    readout = g.standard_normal((p.n_rows, p.d_v)) / math.sqrt(p.d_v)
    upstream = np.einsum("rjv,rv->rj", values, readout)      # ∂L/∂p_j = v_j · w
    share, ent, shares, quant, below = {}, {}, {}, {}, {}
    for r in RULERS:
        tau = divisor(r, d)
        probs = softmax(raw / tau)
        share[r] = float(probs.max(axis=1).mean())
        ent[r] = float(entropy_bits(probs).mean())
        shares[r] = tuple(float(v) for v in probs[0])
        dscores = softmax_vjp(probs, upstream)                # ∂L/∂s
        dq = np.einsum("rjd,rj->rd", keys, dscores) / tau     # ∂L/∂q = Kᵀ ∂L/∂s / τ
        norms = np.linalg.norm(dq, axis=1)
        lo, mid, hi = np.quantile(norms, (p.band[0], 0.5, p.band[1]))
        quant[r] = (float(lo), float(mid), float(hi))
        below[r] = float((norms < p.grad_threshold).mean())
    return RowStats(share, ent, tuple(float(v) for v in raw[0]), shares, quant, below)


def jobs(p: RulerParams, seed: int) -> list[Job]:
    """One job per d; cost ∝ d (rows of 1 + positions vectors of d normals)."""
    return [Job(d, rows, (p, seed, d), cost=d * p.n_rows * (p.positions + 1) / 1e5)
            for d in p.d_k]


EXPERIMENTS.register(Experiment(
    "rulers", RulerParams(), jobs,
    lambda p, out: (p, tuple(out[d] for d in p.d_k))))


def rulers_section(data: Mapping[str, Any]) -> dict[str, Any]:
    """results.json["rulers"]. The SDs come from Experiment 1's samples (one quantity, one
    value: the raw SD at the quoted d is the same number in every experiment)."""
    p, stats = data["rulers"]
    spread = data["spread"]
    from .spread import sample_sd
    sd_raw = [sample_sd(list(bs)) for bs in spread.batches]
    if tuple(spread.params.d_k) != tuple(p.d_k):
        raise ValueError("Experiments 1 and 3 must use the same grid of d")
    i = p.d_k.index(p.quoted_d)

    def per_d(get: Any) -> dict[str, list[float]]:
        return {r: [get(s, r) for s in stats] for r in RULERS}
    sd = {r: [v / divisor(r, d) for v, d in zip(sd_raw, p.d_k)] for r in RULERS}
    share = per_d(lambda s, r: s.winner_share[r])
    ent = per_d(lambda s, r: s.entropy_bits[r])
    return {
        "d_k": list(p.d_k), "positions": p.positions, "n_rows": p.n_rows, "names": list(RULERS),
        "sd": sd, "sd_theory": {r: [sd_theory(r, d) for d in p.d_k] for r in RULERS},
        "winner_share": share, "entropy_bits": ent,
        "uniform_share": 1 / p.positions, "max_entropy_bits": math.log2(p.positions),
        "quoted": {"d": p.quoted_d, **{f"{k}_{r}": v[r][i] for k, v in
                                       (("sd", sd), ("winner_share", share),
                                        ("entropy_bits", ent)) for r in RULERS}},
        "flat": {"share_range_sqrt": max(share["sqrt"]) - min(share["sqrt"]),
                 "entropy_range_sqrt": max(ent["sqrt"]) - min(ent["sqrt"]),
                 # the d from which on the rows are compared with the smallest d's
                 # (sqrt_small_d_flatter): quoted_d, as built (quoted.d follows the page's bar)
                 "from_d": p.quoted_d},
        "example": {"scores": [list(s.example_scores) for s in stats],
                    "shares": {r: [list(s.example_shares[r]) for s in stats] for r in RULERS},
                    "winner_share": {r: [max(s.example_shares[r]) for s in stats] for r in RULERS},
                    "entropy_bits": {r: [float(entropy_bits(np.asarray(s.example_shares[r])))
                                         for s in stats] for r in RULERS}},
    }


# fewer than 2 positions are told at the field's line (check_params, before any job runs),
# after this import: the bounds must not fail on them first (1/0, log2(0))
_POSITIONS = max(RulerParams().positions, 1)
SECTIONS.register(Section(
    "rulers", ("rulers", "spread"), rulers_section,
    bounds={"*winner_share*": (1 / _POSITIONS, 1.0),
            "*entropy_bits*": (0.0, math.log2(_POSITIONS)), "example.shares*": (0.0, 1.0)},
    evidence=("example.scores",)))   # the tests recompute the example shares from them

# Nearly flat under /√d. Not exactly: a row's scores q·k_j/√d have SD |q|/√d, which varies
# from row to row, more at small d (|q|²/d has variance 2/d), so small d mixes sharper and
# flatter rows and the mean winner share sits a little lower there (about 0.34 at d = 4 against
# 0.36 from d = 64 on). The bands hold that drift plus the sampling error. A row's winner share
# lies in [1/8, 1], so its SD is at most (1 − 1/8)/2 = 0.4375 (Popoviciu) and the mean of 2 000
# rows has an SE of at most 0.0098; the difference of two independent means has an SE of at
# most 0.0138, and 5 SE is 0.069. An entropy lies in [0, 3] bits: SE ≤ 1.5/√2000 = 0.034,
# difference ≤ 0.047, 5 SE = 0.24. The range over the grid is the largest of 36 differences.
# Over seeds 1-100 (figures/sweep.json) the worst ranges were 0.030 and 0.068 bits.
CLAIMS.register(Claim(
    "rulers.sqrt_flat_share", "rulers",
    "under /√d the mean winner share barely moves with d: its range over the grid stays "
    "below 0.07",
    lambda s: s["flat"]["share_range_sqrt"], "<=", 0.07, "range of the share over d"))
CLAIMS.register(Claim(
    "rulers.sqrt_flat_entropy", "rulers",
    "under /√d the mean entropy barely moves with d: its range over the grid stays below "
    "0.24 bits",
    lambda s: s["flat"]["entropy_range_sqrt"], "<=", 0.24, "range of the entropy over d (bits)"))
CLAIMS.register(Claim(
    "rulers.raw_one_hot", "rulers",
    "without scaling, attention at the largest d is close to one-hot",
    lambda s: s["winner_share"]["raw"][-1], ">=", 0.9, "mean winner share, largest d, raw"))
CLAIMS.register(Claim(
    "rulers.linear_uniform", "rulers",
    "divided by d, attention at the largest d is close to uniform",
    lambda s: s["winner_share"]["linear"][-1] - s["uniform_share"], "<=", 0.02,
    "winner share above uniform, largest d, /d"))


def _steps(values: list[float]) -> list[float]:
    """Each value minus the one before it, along the grid of d."""
    return [b - a for a, b in itertools.pairwise(values)]


# "Without scaling, the winner's share climbs with d and the entropy sinks": at every step of
# the grid, not only from end to end. The smallest steps come at the largest d, where the
# share is already near 1; over seeds 1-100 the smallest rise was 0.0063 and the smallest
# fall 0.022 bits, both many standard errors from 0.
CLAIMS.register(Claim(
    "rulers.raw_share_climbs", "rulers",
    "without scaling, the mean winner share rises at every step of d",
    lambda s: min(_steps(s["winner_share"]["raw"])), ">=", 0.0,
    "smallest rise of the share from one d to the next, raw"))
CLAIMS.register(Claim(
    "rulers.raw_entropy_sinks", "rulers",
    "without scaling, the mean entropy falls at every step of d",
    lambda s: max(_steps(s["entropy_bits"]["raw"])), "<=", 0.0,
    "largest change of the entropy from one d to the next, raw (bits)"))
# "at the largest dimensions both numbers end up just short of the reference row": the share
# is rulers.linear_uniform; the entropy's shortfall from log2(positions) at the largest d
# must stay within 1 % of those 3 bits (near uniform it is about half the variance of the
# scaled scores, in nats: 0.0006 bits here, with a far smaller sampling error).
CLAIMS.register(Claim(
    "rulers.linear_entropy_near_max", "rulers",
    "divided by d, the mean entropy at the largest d is just short of uniform's log2(positions)",
    lambda s: s["max_entropy_bits"] - s["entropy_bits"]["linear"][-1], "<=", 0.03,
    "bits below uniform's entropy, largest d, /d"))
# The figure's "divided by d the share sinks toward the uniform 1/8 and the entropy rises toward
# 3 bits": at every step of d. Near uniform both move by about half of what they moved at the
# step before (the scaled scores' variance 1/d halves); the smallest such move, at the last
# step, is about 0.0006 bits and 0.002 of share on the build's seed, while the SE of a
# difference of two means of 2 000 rows is below 1e-4 for either (a row's shortfall from
# uniform has an SD below its mean of about 0.0006 bits, and its winner's excess over 1/8 an
# SD near 0.002: divided by √1000).
CLAIMS.register(Claim(
    "rulers.linear_share_sinks", "rulers",
    "divided by d, the mean winner share falls at every step of d",
    lambda s: max(_steps(s["winner_share"]["linear"])), "<=", 0.0,
    "largest change of the share from one d to the next, /d"))
CLAIMS.register(Claim(
    "rulers.linear_entropy_rises", "rulers",
    "divided by d, the mean entropy rises at every step of d",
    lambda s: min(_steps(s["entropy_bits"]["linear"])), ">=", 0.0,
    "smallest change of the entropy from one d to the next, /d (bits)"))


def _small_d_flatter(s: Mapping[str, Any]) -> float:
    """Under /√d, how much flatter the rows are at the smallest d than, on average, from
    the quoted d on: the smaller of (mean share there − share at the smallest d) and
    (entropy at the smallest d − mean entropy there); the entropy is in bits, the share a
    probability, and either falling to 0 or below fails."""
    i = s["d_k"].index(s["quoted"]["d"])
    share, ent = s["winner_share"]["sqrt"], s["entropy_bits"]["sqrt"]
    later_share = sum(share[i:]) / len(share[i:])
    later_ent = sum(ent[i:]) / len(ent[i:])
    return float(min(later_share - share[0], ent[0] - later_ent))


# "The one movement that holds from seed to seed is at the smallest d: the rows come out a
# little flatter there than from the quoted d on". Where in the grid the largest deviation
# falls is not stable (over seeds 1-100 the entropy's highest point was at d = 16 once), but
# the direction at the smallest d is: a mean over 2 000 rows has an SE near 0.0035 (share)
# and 0.01 bits (entropy), the gaps are about 0.017 and 0.035, and the worst over seeds 1-100
# was 0.009.
CLAIMS.register(Claim(
    "rulers.sqrt_small_d_flatter", "rulers",
    "under /√d, rows at the smallest d come out flatter (lower winner share, higher entropy) "
    "than the mean from the quoted d on",
    _small_d_flatter, ">=", 0.0,
    "the smaller of the share's and the entropy's gap, smallest d against d ≥ quoted d"))


def gradient_section(data: Mapping[str, Any]) -> dict[str, Any]:
    """results.json["gradient"]: per ruler and d, the median of ‖∂L/∂q‖ and its quantiles at
    the band's levels (`p10`, `p90`: at `band_lo`, `band_hi`, 10 % and 90 % today), and the
    share of rows below the threshold."""
    p, stats = data["rulers"]

    def q(k: int) -> dict[str, list[float]]:
        return {r: [s.grad_quantiles[r][k] for s in stats] for r in RULERS}
    median = q(1)
    below = {r: [s.grad_below[r] for s in stats] for r in RULERS}
    first, last, i = 0, len(p.d_k) - 1, p.d_k.index(p.quoted_d)
    return {
        "d_k": list(p.d_k), "n_rows": p.n_rows, "positions": p.positions, "d_v": p.d_v,
        "threshold": p.grad_threshold, "band_lo": p.band[0], "band_hi": p.band[1],
        "p10": q(0), "median": median, "p90": q(2), "below": below,
        "d_first": p.d_k[first], "d_last": p.d_k[last],
        "raw_drop": median["raw"][first] / median["raw"][last],
        "sqrt_drift": max(median["sqrt"]) / min(median["sqrt"]),
        "raw_below_last": below["raw"][last], "sqrt_below_last": below["sqrt"][last],
        "raw_median_last": median["raw"][last], "sqrt_median_last": median["sqrt"][last],
        "raw_median_first": median["raw"][first], "sqrt_median_first": median["sqrt"][first],
        "quoted": {"d": p.quoted_d, "raw_below": below["raw"][i]},
    }


SECTIONS.register(Section("gradient", ("rulers",), gradient_section,
                          bounds={"below*": (0.0, 1.0), "*_below_last": (0.0, 1.0),
                                  "quoted.raw_below": (0.0, 1.0)}))

CLAIMS.register(Claim(
    "gradient.raw_vanishes", "gradient",
    "without scaling, the median gradient reaching q falls by orders of magnitude from the "
    "smallest to the largest d",
    lambda s: s["raw_drop"], ">=", 100.0, "median at smallest d ÷ median at largest d"))
CLAIMS.register(Claim(
    "gradient.sqrt_steady", "gradient",
    "divided by √d, the median gradient reaching q stays within a factor of 2 across d",
    lambda s: s["sqrt_drift"], "<=", 2.0, "largest ÷ smallest median over d"))
CLAIMS.register(Claim(
    "gradient.linear_shrinks", "gradient",
    "divided by d, the median gradient reaching q falls at every step from the smallest to "
    "the largest d",
    lambda s: max(b / a for a, b in zip(s["median"]["linear"], s["median"]["linear"][1:])),
    "<=", 0.9, "largest ratio of one d's median to the one before, /d"))

# "That threshold is small beside a typical length": at the smallest d both medians (raw and
# /√d) are at least 100 times the threshold (two orders of magnitude; about 260 on every
# seed of 1-100).
CLAIMS.register(Claim(
    "gradient.threshold_small", "gradient",
    "at the smallest d the median gradient reaching q, raw and /√d, is at least 100 times "
    "the threshold",
    lambda s: min(s["raw_median_first"], s["sqrt_median_first"]) / s["threshold"], ">=", 100.0,
    "smaller median at the smallest d ÷ threshold"))
# "The rows do not fade evenly": from the smallest to the largest d, the spread between the
# rows' 90th and 10th percentiles widens by at least two orders of magnitude (by about 10^15
# on seeds 1-100: the 10th percentile collapses while the 90th does not).
CLAIMS.register(Claim(
    "gradient.raw_uneven", "gradient",
    "without scaling, the ratio of the 90th to the 10th percentile of the gradient reaching "
    "q grows at least a hundredfold from the smallest to the largest d",
    lambda s: (s["p90"]["raw"][-1] / s["p10"]["raw"][-1])
    / (s["p90"]["raw"][0] / s["p10"]["raw"][0]), ">=", 100.0,
    "p90/p10 at the largest d ÷ p90/p10 at the smallest d, raw"))
# "Divided by d, no row falls below the threshold either" (nor under /√d): a count of rows,
# so the bound is exact. Over seeds 1-100 not one of the 2 000 rows at any d did; the 10th
# percentile under /d at the largest d is about six times the threshold.
CLAIMS.register(Claim(
    "gradient.scaled_none_below", "gradient",
    "divided by √d or by d, no row's gradient reaching q falls below the threshold at any d",
    lambda s: max(*s["below"]["sqrt"], *s["below"]["linear"]), "<=", 0.0,
    "largest share of rows below the threshold, /√d and /d"))
# "At the smallest d the unscaled median is larger than the scaled one": about 1.64 times,
# at least 1.59 over seeds 1-100.
CLAIMS.register(Claim(
    "gradient.raw_above_sqrt_first", "gradient",
    "at the smallest d the unscaled median gradient reaching q is larger than the /√d one",
    lambda s: s["raw_median_first"] / s["sqrt_median_first"], ">=", 1.0,
    "raw median ÷ /√d median at the smallest d"))
# The figure (gradient_q): without scaling "its band widens downwards until it runs out of the
# bottom of the panel, which stops at least two powers of ten below the smallest median".
# Downwards: the 10th percentile falls at every step of d. The first step, d = 4 to 8, is the
# narrowest: over seeds 1-100 it multiplies the percentile by 0.73 with an SD of 0.07 (the
# sampling error of two 10th percentiles of 2 000 rows), so 1 lies 4 SD away; every later step
# divides it by far more (up to 10^5 at the last). Out of
# the panel: the panel stops between 100 and 1 000 times below the smallest median (a power of
# ten), so a lower edge more than 1 000 times below it is always cut (about 10^11 times on the
# build's seed).
CLAIMS.register(Claim(
    "gradient.raw_floor_sinks", "gradient",
    "without scaling, the 10th percentile of the gradient reaching q falls at every step of d",
    lambda s: max(b / a for a, b in zip(s["p10"]["raw"], s["p10"]["raw"][1:])), "<=", 1.0,
    "largest ratio of one d's 10th percentile to the one before, raw"))
CLAIMS.register(Claim(
    "gradient.raw_floor_off_panel", "gradient",
    "without scaling, the 10th percentile of the gradient reaching q at the largest d lies "
    "more than 1 000 times below the smallest median of any ruler",
    lambda s: s["p10"]["raw"][-1] / min(v for r in s["median"] for v in s["median"][r]), "<=",
    1e-3, "10th percentile at the largest d, raw ÷ the smallest median"))
# "without scaling it climbs to 60 % at d = 1024": the share of rows below the threshold is
# highest at the largest d. At the last step it rises from about 0.48 to 0.60; the SE of that
# difference of two shares of 2 000 rows is about 0.016, so the margin is some 8 SE.
CLAIMS.register(Claim(
    "gradient.raw_below_climbs", "gradient",
    "without scaling, the share of rows below the threshold is highest at the largest d",
    lambda s: s["below"]["raw"][-1] - max(s["below"]["raw"][:-1]), ">=", 0.0,
    "share below at the largest d − the highest share at a smaller d, raw"))


# The gradient experiment's reproduce box says of its snippet (snippets/gradient.py, which
# links this file as its source): "Its digits differ from the numbers above; the pattern does
# not." The pattern is what gradient.raw_vanishes, gradient.sqrt_steady and
# gradient.linear_shrinks check, read from the lines the snippet prints (its own 500 rows at
# its two dimensions, results.json["reproduce"]): without scaling the median falls at least a
# hundredfold (about 10^4 on the build's seed), divided by √d it stays within a factor of 2
# (1.2), divided by d it falls (to about a fourteenth).
_PRINTED = re.compile(r"^d = *(\d+), divide by *(\S+): median \|dL/dq\| = (\S+)$", re.M)


def _printed_medians(s: Mapping[str, Any]) -> dict[str, tuple[float, float]]:
    """What the gradient snippet printed: per divisor ("1", "sqrt(d)", "d") its median at the
    smaller and at the larger of its two dimensions."""
    rows = [(int(d), name, float(v)) for d, name, v in _PRINTED.findall(s["gradient"]["stdout"])]
    dims = sorted({d for d, _, _ in rows})
    if len(dims) != 2 or len(rows) != 6:
        raise ValueError("the gradient snippet must print six lines 'd = D, divide by X: "
                         "median |dL/dq| = V', three divisors at each of two dimensions")
    by = {(d, name): v for d, name, v in rows}
    return {name: (by[dims[0], name], by[dims[1], name]) for name in ("1", "sqrt(d)", "d")}


def _printed_ratio(s: Mapping[str, Any], divisor_name: str) -> float:
    """The snippet's median at its larger dimension ÷ at its smaller one, for one divisor."""
    small, large = _printed_medians(s)[divisor_name]
    return large / small


CLAIMS.register(Claim(
    "reproduce.gradient_raw_falls", "reproduce",
    "the gradient snippet's unscaled median falls at least a hundredfold between its two "
    "dimensions",
    lambda s: 1 / _printed_ratio(s, "1"), ">=", 100.0,
    "printed median at the smaller d ÷ at the larger d, raw", snippet="gradient"))
CLAIMS.register(Claim(
    "reproduce.gradient_sqrt_steady", "reproduce",
    "the gradient snippet's median divided by √d stays within a factor of 2 between its two "
    "dimensions",
    lambda s: max(_printed_ratio(s, "sqrt(d)"), 1 / _printed_ratio(s, "sqrt(d)")), "<=", 2.0,
    "larger ÷ smaller printed median, /√d", snippet="gradient"))
CLAIMS.register(Claim(
    "reproduce.gradient_linear_falls", "reproduce",
    "the gradient snippet's median divided by d falls between its two dimensions",
    lambda s: _printed_ratio(s, "d"), "<=", 0.9,
    "printed median at the larger d ÷ at the smaller d, /d", snippet="gradient"))
