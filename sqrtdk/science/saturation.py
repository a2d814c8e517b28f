"""Experiment 2: one fixed row of scores turned up (source note 000's second experiment), the
softmax Jacobian norm of random rows (source note 002) and softmax([10, 5]) against
softmax([10, 5] / 8) (source note 003).

Tying a scale to d_k: a row whose scores have SD σ, multiplied by c, has SD cσ;
unscaled scores at dimension d have SD √d (footnote 4), so the scaled row looks like
unscaled scores at d ≈ (cσ)². Under a ruler the scores' SD is √d / divisor, so the scale
that matches (d, ruler) is c = √d / (divisor · σ).
"""
from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from .grid import DIMENSIONS, RULERS, sd_theory
from .registry import CLAIMS, EXPERIMENTS, SECTIONS, Claim, Experiment, Job, Section, valid
from .softmax import softmax, softmax_jacobian
from .streams import stream


@dataclass(frozen=True)
class SaturationParams:
    """Experiment 2: the row A–H (winner H), scales on a log grid of `per_octave` steps per doubling
    from 2^octave_min to 2^octave_max (at least 1 to 32, finely enough to find where the
    winner's share crosses ½)."""

    labels: tuple[str, ...] = ("A", "B", "C", "D", "E", "F", "G", "H")   # one per score
    scores: tuple[float, ...] = valid(
        (-0.8, 0.1, -0.35, 0.3, -0.1, 0.2, 0.55, 0.9), "the winner's share is compared with "
        "the others' (softmax over one score gives it everything at every scale)",
        min_items=2)
    octave_min: int = valid(     # the grid holds scale 1 (the row as given, results `first`)
        -5, "the grid must hold scale 1, the row as given, which the text quotes, and its "
        "scales 2^octave are float64 numbers (2^-1000 to 2^1000 keep clear of its limits)",
        at_least=-1000, at_most=0)
    octave_max: int = valid(
        6, "the grid must hold scale 1, the row as given, which the text quotes, and its "
        "scales 2^octave are float64 numbers (2^-1000 to 2^1000 keep clear of its limits)",
        at_least=0, at_most=1000)
    per_octave: int = valid(
        16, "the grid takes per_octave steps per doubling of the scale", at_least=1)
    quoted_scale: float = valid(  # the scale whose values the text quotes: on the grid
        16.0, "a scale multiplies the row", above=0.0)
    shown_scales: tuple[float, ...] = valid(    # the bar-chart panels, scales on the grid
        (1.0, 4.0, 16.0), "each is a panel of the bar chart, and the claims compare the "
        "shares from each panel to the next (the others drain): one panel has no next",
        above=0.0, min_items=2)

    def invalid(self) -> Iterator[tuple[str, str]]:
        """The limits joining two fields (`registry.valid`): (field, what is wrong). Run
        after each field's own range holds (per_octave >= 1)."""
        if len(self.labels) != len(self.scores):
            yield "labels", (f"with {len(self.labels)} label(s) for the {len(self.scores)} "
                             f"scores: each score is named by its label; write one label "
                             f"per score")
        if len(set(self.labels)) != len(self.labels):
            yield "labels", ("with a label given twice: the winner is found by its label; "
                             "write each label once")
        if list(self.scores).count(max(self.scores)) > 1:
            yield "scores", (f"with its largest score {max(self.scores):g} given more than "
                             f"once: the row has one winner, whose share rises to 1 and "
                             f"crosses 1/2 (tied winners share it, and never cross 1/2); "
                             f"make one score the largest")
        if self.octave_min >= self.octave_max:
            yield "octave_min", (f"not below octave_max = {self.octave_max}: the grid runs "
                                 f"from 2^octave_min to 2^octave_max; write a value below it")
        else:               # where the sensitivity peaks (half_scale) must lie on the grid
            row, w = np.asarray(self.scores, dtype=np.float64), int(np.argmax(self.scores))
            for name, octave, past in (("octave_min", self.octave_min, True),
                                       ("octave_max", self.octave_max, False)):
                share = float(softmax(2.0 ** octave * row)[w])
                if (share > 0.5) == past:
                    yield name, (f"a grid end where the winner's share is {share:.3g}, "
                                 f"{'already past' if past else 'not yet at'} 1/2: the "
                                 f"sensitivity's peak (where it crosses 1/2, results "
                                 f"peak.half_scale) must lie inside the grid; write "
                                 f"{'a smaller' if past else 'a larger'} octave")
        grid = tuple(float(x) for x in scales(self))
        span = f"2^{self.octave_min} to 2^{self.octave_max}, {self.per_octave} per doubling"
        if not _on_grid(grid, self.quoted_scale):
            yield "quoted_scale", (f"not on the grid of scales ({span}): the text quotes the "
                                   f"values computed there; write a scale on the grid, such "
                                   f"as a power of two in the range")
        off = [x for x in self.shown_scales if not _on_grid(grid, x)]
        if off:
            yield "shown_scales", (f"with {off[0]:g} not on the grid of scales ({span}): each "
                                   f"panel shows the shares computed there; write scales on "
                                   f"the grid, such as powers of two in the range")
        elif any(b <= a for a, b in itertools.pairwise(self.shown_scales)):
            yield "shown_scales", ("not rising from panel to panel: the bar chart and its "
                                   "claims read the panels left to right as the scale grows "
                                   "(the winner's bar grows, the others drain); write the "
                                   "scales in rising order, each once")


def scales(p: SaturationParams) -> np.ndarray:
    """The scale grid 2^(k / per_octave); contains every power of two in the range exactly."""
    k = np.arange(p.octave_min * p.per_octave, p.octave_max * p.per_octave + 1)
    out: np.ndarray = np.exp2(k / p.per_octave)
    return out


@dataclass(frozen=True)
class Saturation:
    """Experiment 2 (deterministic): per scale, the shares of softmax(scale · scores)."""

    params: SaturationParams
    scales: tuple[float, ...]
    shares: tuple[tuple[float, ...], ...]  # per scale, sums to 1
    p_winner: tuple[float, ...]
    sensitivity: tuple[float, ...]         # dp_w/ds_w = p_w (1 − p_w)
    max_offdiag: tuple[float, ...]         # max_{i≠j} p_i p_j
    winner: int
    half_scale: float                      # where p_winner = ½ (the sensitivity's peak)


def saturation(p: SaturationParams) -> Saturation:
    """softmax of scale · scores on the grid, with the winner's sensitivity.

    p(1 − p) peaks at p = ½ (source note 000); `half_scale` is where the winner's share crosses ½,
    by bisection (the share increases with the scale). Raises ValueError when it never does.
    """
    s = np.asarray(p.scores, dtype=np.float64)
    grid = scales(p)
    shares = softmax(grid[:, None] * s[None, :])
    w = int(np.argmax(s))
    jac = softmax_jacobian(shares)
    off = np.abs(jac) * (1 - np.eye(len(s)))
    return Saturation(
        params=p, scales=tuple(float(x) for x in grid),
        shares=tuple(tuple(float(v) for v in row) for row in shares),
        p_winner=tuple(float(v) for v in shares[:, w]),
        sensitivity=tuple(float(v) for v in jac[:, w, w]),
        max_offdiag=tuple(float(v) for v in off.max(axis=(1, 2))),
        winner=w, half_scale=_half_scale(s, w, float(grid[0]), float(grid[-1])))


def _half_scale(s: np.ndarray, w: int, lo: float, hi: float) -> float:
    def f(c: float) -> float:
        return float(softmax(c * s)[w]) - 0.5
    if f(lo) > 0 or f(hi) < 0:
        raise ValueError("the winner's share does not cross 1/2 inside the scale range")
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if f(mid) < 0 else (lo, mid)
    return (lo + hi) / 2


EXPERIMENTS.register(Experiment(
    "saturation", SaturationParams(), lambda p, seed: [Job("row", saturation, (p,))],
    lambda p, out: out["row"]))


def _on_grid(xs: tuple[float, ...], x: float) -> bool:
    """Whether `x` is a scale of the grid `xs` (as `_index` finds it)."""
    return any(math.isclose(v, x, rel_tol=1e-12) for v in xs)


def _index(xs: tuple[float, ...], x: float) -> int:
    hits = [i for i, v in enumerate(xs) if math.isclose(v, x, rel_tol=1e-12)]
    if not hits:
        raise ValueError(f"scale {x} is not on the grid")
    return hits[0]


def _nearest(scales: tuple[float, ...], x: float) -> int:
    """Index of the grid scale nearest to `x` on a log scale (the end when `x` is off the grid)."""
    return min(range(len(scales)), key=lambda i: abs(math.log(scales[i] / x)))


def saturation_section(data: Mapping[str, Any]) -> dict[str, Any]:
    """results.json["saturation"]."""
    sa: Saturation = data["saturation"]
    p = sa.params
    sigma = float(np.std(p.scores))            # the row's own spread (ddof = 0)
    q, first = _index(sa.scales, p.quoted_scale), _index(sa.scales, 1.0)   # first: the row as given
    peak = max(range(len(sa.scales)), key=lambda i: sa.sensitivity[i])

    def at(i: int) -> dict[str, float]:
        return {"scale": sa.scales[i], "p_winner": sa.p_winner[i],
                "sensitivity": sa.sensitivity[i], "max_offdiag": sa.max_offdiag[i],
                "equivalent_dk": (sa.scales[i] * sigma) ** 2}
    return {
        "labels": list(p.labels), "scores": list(p.scores), "winner": p.labels[sa.winner],
        "scales": list(sa.scales), "shares": [list(r) for r in sa.shares],
        "p_winner": list(sa.p_winner), "sensitivity": list(sa.sensitivity),
        "max_offdiag": list(sa.max_offdiag), "row_sd": sigma,
        "shown_scales": list(p.shown_scales),
        "first": {k: at(first)[k] for k in ("scale", "p_winner", "sensitivity")},
        "quoted": at(q),
        "peak": {**at(peak), "half_scale": sa.half_scale,
                 "half_equivalent_dk": (sa.half_scale * sigma) ** 2},
        "scale_for": {"d_k": list(DIMENSIONS),
                      **{r: [sd_theory(r, d) / sigma for d in DIMENSIONS] for r in RULERS}},
        # the grid point nearest to each of those scales (on the log grid), for the slider
        "scale_index": {r: [_nearest(sa.scales, sd_theory(r, d) / sigma) for d in DIMENSIONS]
                        for r in RULERS},
    }


SECTIONS.register(Section(
    "saturation", ("saturation",), saturation_section,
    bounds={"*p_winner*": (0.0, 1.0), "shares*": (0.0, 1.0), "*sensitivity*": (0.0, 0.25),
            "*max_offdiag*": (0.0, 0.25)}))

CLAIMS.register(Claim(
    "saturation.rises_then_falls", "saturation",
    "the winner's sensitivity first rises, and peaks inside the grid where its share is near ½",
    lambda s: abs(s["peak"]["p_winner"] - 0.5), "<=", 0.05, "|p at the peak − ½|"))
CLAIMS.register(Claim(
    "saturation.collapses", "saturation",
    "at the quoted scale the winner holds nearly everything and its sensitivity is tiny",
    lambda s: s["quoted"]["sensitivity"], "<=", 0.01, "p(1 − p) at 16×"))


def _sensitivity_at(s: Mapping[str, Any], scale: float) -> float:
    """The winner's sensitivity p(1 − p) for the section's row multiplied by `scale`, at any
    scale (not only on the grid)."""
    shares = softmax(np.asarray(s["scores"], dtype=np.float64) * scale)
    p = float(shares[s["labels"].index(s["winner"])])
    return p * (1 - p)


# The row is fixed and nothing here is random: these hold on every seed or on none, and they
# fail only when the row, the grid or the rulers change.
# "Unscaled, even the smallest dimension of experiment 1 corresponds to a scale already past
# the peak."
CLAIMS.register(Claim(
    "saturation.raw_past_peak", "saturation",
    "unscaled, the row's scale at the smallest d of experiment 1 lies past the sensitivity's "
    "peak",
    lambda s: s["scale_for"]["raw"][0] / s["peak"]["scale"], ">=", 1.0,
    "scale of unscaled scores at the smallest d ÷ scale at the peak"))
# "Divided by √d, ... the scale 1/σ whatever d is: a little below the peak, on the
# responsive part of the curve": below the peak, and with a sensitivity there of at least
# 80 % of its ceiling ¼.
CLAIMS.register(Claim(
    "saturation.sqrt_below_peak", "saturation",
    "divided by √d, the row's scale 1/σ lies below the sensitivity's peak",
    lambda s: s["scale_for"]["sqrt"][0] / s["peak"]["scale"], "<=", 1.0,
    "scale 1/σ ÷ scale at the peak"))
CLAIMS.register(Claim(
    "saturation.sqrt_responsive", "saturation",
    "at the scale 1/σ (scores divided by √d) the winner's sensitivity is at least 0.2, "
    "80 % of its ceiling ¼",
    lambda s: _sensitivity_at(s, s["scale_for"]["sqrt"][0]), ">=", 0.2,
    "p(1 − p) at the scale 1/σ"))
# "The cross terms vanish as well": at the quoted scale the largest p_i p_j is as small as
# saturation.collapses asks of the sensitivity.
CLAIMS.register(Claim(
    "saturation.cross_terms_vanish", "saturation",
    "at the quoted scale the largest cross term p_i p_j is tiny",
    lambda s: s["quoted"]["max_offdiag"], "<=", 0.01, "largest p_i p_j at 16×"))
# "The scale 16× corresponds to d ≈ (16σ)², close to the base model's d_k = 64": within 10 %.
CLAIMS.register(Claim(
    "saturation.quoted_near_base", "saturation",
    "the quoted scale stands for a d within 10 % of the paper's base model's d_k",
    lambda s: abs(s["quoted"]["equivalent_dk"] / TwoScoresParams().d_k - 1), "<=", 0.1,
    "|(16σ)² ÷ the base model's d_k − 1|"))


def _panels(s: Mapping[str, Any]) -> list[list[float]]:
    """The shares drawn in the bar chart: one row of shares per shown scale, in order."""
    return [s["shares"][_index(tuple(s["scales"]), x)] for x in s["shown_scales"]]


def _steps(values: list[float]) -> list[float]:
    """Each value minus the one before it."""
    return [b - a for a, b in itertools.pairwise(values)]


def _order_changes(s: Mapping[str, Any]) -> float:
    """How many of the bar chart's panels rank the positions otherwise than the scores do
    (by share, largest first; a tie counts as a change)."""
    scores = s["scores"]
    rank = sorted(range(len(scores)), key=lambda i: -scores[i])
    return float(sum(any(row[a] <= row[b] for a, b in itertools.pairwise(rank))
                     for row in _panels(s)))


def _others_largest_rise(s: Mapping[str, Any]) -> float:
    """The largest change, from one panel of the bar chart to the next, of a share other
    than the winner's (at most 0: every other bar shrinks)."""
    w = s["labels"].index(s["winner"])
    panels = _panels(s)
    return max(step for j in range(len(s["labels"])) if j != w
               for step in _steps([row[j] for row in panels]))


def _cross_against_shape(s: Mapping[str, Any]) -> float:
    """Steps of the largest cross term against a rise then a fall: falls before its peak on
    the grid plus rises after it, and 1 more when the peak is an end of the grid."""
    c = s["max_offdiag"]
    top = c.index(max(c))
    steps = _steps(c)
    return float(sum(x < 0 for x in steps[:top]) + sum(x > 0 for x in steps[top:])
                 + (top in (0, len(c) - 1)))


# The bar chart (figure "saturation_bars"): "the order never changes", "the winner H's bar
# grows", "the others drain". Exact, as the claims above.
CLAIMS.register(Claim(
    "saturation.order_kept", "saturation",
    "in every panel of the bar chart the positions rank as their scores do",
    _order_changes, "<=", 0.0, "panels ranked otherwise than the scores"))
CLAIMS.register(Claim(
    "saturation.others_drain", "saturation",
    "from each panel of the bar chart to the next, every share but the winner's shrinks",
    _others_largest_rise, "<=", 0.0,
    "largest change of a share other than the winner's from one panel to the next"))
# "the winner H's share p rises along an S-curve": it never falls along the grid (at the top
# of the grid it is 1 to the six digits results.json keeps, so a step can be 0 there) ...
CLAIMS.register(Claim(
    "saturation.winner_rises", "saturation",
    "the winner's share never falls from one scale of the grid to the next",
    lambda s: min(_steps(s["p_winner"])), ">=", 0.0,
    "smallest change of the winner's share from one scale to the next"))
# ... and levels off at both ends: near the uniform share at the smallest scale, near 1 at
# the largest (0.003 from each).
CLAIMS.register(Claim(
    "saturation.winner_levels_off", "saturation",
    "the winner's share starts within 0.01 of the uniform share at the smallest scale and "
    "ends within 0.01 of 1 at the largest",
    lambda s: max(abs(s["p_winner"][0] - 1 / len(s["labels"])), 1 - s["p_winner"][-1]),
    "<=", 0.01, "the larger gap: smallest scale from uniform, largest scale from 1"))
# "the largest cross term p_i p_j also rises and then falls, staying below the sensitivity".
# Below: p_w p_j <= p_w (1 − p_w) for every j, and p_i p_j for two losers is smaller still;
# at the top of the grid the two agree to six digits, hence <= 0 rather than < 0.
CLAIMS.register(Claim(
    "saturation.cross_rises_then_falls", "saturation",
    "the largest cross term p_i p_j rises along the grid to a peak inside it, then falls",
    _cross_against_shape, "<=", 0.0,
    "steps against rise-then-fall, plus 1 if the peak is an end of the grid"))
CLAIMS.register(Claim(
    "saturation.cross_below_sensitivity", "saturation",
    "at every scale of the grid the largest cross term p_i p_j is at most the winner's "
    "sensitivity p(1 − p)",
    lambda s: max(c - p for c, p in zip(s["max_offdiag"], s["sensitivity"])), "<=", 0.0,
    "largest excess of the cross term over the sensitivity"))


@dataclass(frozen=True)
class JacobianParams:
    """Softmax Jacobian norm for rows of scores with a small and a large variance (source note
    002)."""

    length: int = valid(         # scores per row
        8, "softmax over one score gives it everything: its Jacobian is 0, and the claims "
        "divide by the small variance's norm", at_least=2)
    n_rows: int = valid(         # rows drawn per variance
        10_000, "the norms and shares are means over the rows", at_least=1)
    var_small: float = valid(
        1.0, "a variance is never below 0 (its square root is the scores' SD)", at_least=0.0)
    var_large: float = valid(
        100.0, "a variance is never below 0 (its square root is the scores' SD)",
        at_least=0.0)

    def invalid(self) -> Iterator[tuple[str, str]]:
        """The limits joining two fields (`registry.valid`): (field, what is wrong)."""
        if self.var_large <= self.var_small:
            yield "var_large", (f"not above var_small = {self.var_small:g}: the claims and "
                                f"the text compare the large variance's rows with the "
                                f"small one's; write a larger value")
        elif f"{self.var_small:g}" == f"{self.var_large:g}":
            yield "var_large", (f"equal to var_small = {self.var_small:g} to the 6 digits "
                                f"that name each variance's random stream: both would draw "
                                f"the same numbers; write values further apart")


def jacobian_row_stats(p: JacobianParams, seed: int, var: float) -> tuple[float, float]:
    """(mean Frobenius norm of the Jacobian, mean largest share) over N(0, var) rows."""
    x = stream(seed, f"jacobian/var={var:g}").normal(0.0, math.sqrt(var), (p.n_rows, p.length))
    y = softmax(x)
    norms = np.linalg.norm(softmax_jacobian(y), axis=(1, 2))
    return float(norms.mean()), float(y.max(axis=1).mean())


def _jacobian_jobs(p: JacobianParams, seed: int) -> list[Job]:
    return [Job(var, jacobian_row_stats, (p, seed, var)) for var in (p.var_small, p.var_large)]


EXPERIMENTS.register(Experiment(
    "jacobian", JacobianParams(), _jacobian_jobs,
    lambda p, out: (p, out[p.var_small], out[p.var_large])))


def jacobian_section(data: Mapping[str, Any]) -> dict[str, Any]:
    """results.json["jacobian"]."""
    p, small, large = data["jacobian"]
    return {"length": p.length, "n_rows": p.n_rows, "var_small": p.var_small,
            "var_large": p.var_large, "norm_small": small[0], "norm_large": large[0],
            "winner_small": small[1], "winner_large": large[1],
            "norm_max": 0.5}   # the Frobenius norm never exceeds 1/2 (two equal shares)


SECTIONS.register(Section("jacobian", ("jacobian",), jacobian_section,
                          bounds={"norm_*": (0.0, 0.5), "winner_*": (0.0, 1.0)}))

# The mean norm over 10 000 rows has an SE of at most 0.25/√10000 = 0.0025 (a norm lies in
# [0, ½], so its SD is at most ¼); the bounds below are more than 25 SE from the values, so
# only a real change of behaviour fails them.
CLAIMS.register(Claim(
    "jacobian.shrinks", "jacobian",
    "the average Jacobian norm is much smaller for variance-100 rows than for variance-1 rows",
    lambda s: s["norm_large"] / s["norm_small"], "<=", 0.5, "norm ratio large/small"))
CLAIMS.register(Claim(
    "jacobian.not_zero", "jacobian",
    "the average Jacobian norm of variance-100 rows stays well above zero (rows whose top two "
    "scores land close together stay responsive)",
    lambda s: s["norm_large"], ">=", 0.05, "mean norm at variance 100"))


@dataclass(frozen=True)
class TwoScoresParams:
    """softmax([10, 5]) against softmax([10, 5] / 8), 8 = √64 (source note 003)."""

    # two scores: the results hold p₁p₂, the sensitivity of two positions (schema `[2]`)
    scores: tuple[float, float] = (10.0, 5.0)
    d_k: int = valid(            # the scores are divided by √d_k
        64, "a dimension has one component or more, and √d_k divides the scores",
        at_least=1)


def two_scores(p: TwoScoresParams) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """(softmax(scores), softmax(scores / √d_k)); deterministic."""
    s = np.asarray(p.scores, dtype=np.float64)
    return (tuple(float(v) for v in softmax(s)),
            tuple(float(v) for v in softmax(s / math.sqrt(p.d_k))))


EXPERIMENTS.register(Experiment(
    "two_scores", TwoScoresParams(), lambda p, seed: [Job("two", two_scores, (p,))],
    lambda p, out: (p, *out["two"])))


def two_scores_section(data: Mapping[str, Any]) -> dict[str, Any]:
    """results.json["two_scores"]: the shares and, with two positions, the winner's
    sensitivity p(1 − p) = p₁p₂."""
    p, plain, scaled = data["two_scores"]
    return {"scores": list(p.scores), "d_k": p.d_k, "divisor": math.sqrt(p.d_k),
            "plain": list(plain), "scaled": list(scaled),
            "sensitivity_plain": plain[0] * plain[1], "sensitivity_scaled": scaled[0] * scaled[1]}


SECTIONS.register(Section("two_scores", ("two_scores",), two_scores_section,
                          bounds={"plain*": (0.0, 1.0), "scaled*": (0.0, 1.0),
                                  "sensitivity_*": (0.0, 0.25)}))

# Deterministic, like the saturation claims. "Divided first by √d_k, ... the first position
# still clearly leads": its share stays at least 1.5 times the second's. "... the sensitivity
# goes to 0.227, near its ceiling of ¼": at least 0.2, 80 % of the ceiling, the bound
# saturation.sqrt_responsive uses.
CLAIMS.register(Claim(
    "two_scores.scaled_still_leads", "two_scores",
    "divided by √d_k, the first score's share is still at least 1.5 times the second's",
    lambda s: s["scaled"][0] / s["scaled"][1], ">=", 1.5, "first share ÷ second, scaled"))
CLAIMS.register(Claim(
    "two_scores.scaled_near_ceiling", "two_scores",
    "divided by √d_k, the two-score sensitivity p₁p₂ is at least 0.2, near its ceiling ¼",
    lambda s: s["sensitivity_scaled"], ">=", 0.2, "p₁p₂, scaled"))
