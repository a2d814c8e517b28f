"""Experiment 1: the dot product's spread grows as √d (source note 000; paper footnote 4), and
the ±1 random walk of footnote 2.

At every d of the grid, `n_pairs` pairs (q, k) with iid N(0, 1) components are drawn as
`n_batches` independent batches of equal size; the pooled sample gives the SD the text
quotes, the batches show how much another sample would move it. Histograms are kept in units
of √d (the theoretical SD), so one set of counts serves every ruler: under ruler r the bin
edges are z·√d / divisor(r, d).
"""
from __future__ import annotations

import math
from collections.abc import Hashable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from .grid import DIMENSIONS, RULERS, divisor, sd_theory
from .registry import CLAIMS, EXPERIMENTS, SECTIONS, Claim, Experiment, Job, Section, valid
from .streams import normals, stream


@dataclass(frozen=True)
class SpreadParams:
    """Experiment 1's parameters (at least 20 000 pairs per d, in at least 8 batches)."""

    d_k: tuple[int, ...] = valid(
        DIMENSIONS, "a slope is fitted through the grid and the SD is compared from one d to "
        "the next: it needs two dimensions, each of one component or more",
        at_least=1, min_items=2)
    n_pairs: int = valid(        # per d, pooled over the batches
        20_000, "a batch's sample SD divides by its pairs less one", at_least=2)
    n_batches: int = valid(      # independent batches of n_pairs / n_batches pairs each
        8, "the article compares independent batches (the range of their ratios): one batch "
        "has no other to compare with, and its range is one value", at_least=2)
    d_small: int = 4             # the two dimensions the article compares; the larger is the
    d_large: int = 64            # paper's d_k (§3.2.2), where the page's dₖ bar starts
    hist_limit: float = valid(   # histogram range ±limit, in units of √d
        6.0, "the histogram must hold the bell its alt text tells of: in units of √d its SD "
        "is 1, and ±3 SD hold 99.7 % of a normal", at_least=3.0)
    hist_bin: float = valid(     # bin width, in units of √d
        0.25, "a bell's shape shows in bins of half its SD or narrower (12 or more across "
        "±3 SD); a wider bin draws a block or two under an alt text telling a peak and a "
        "bell", above=0.0, at_most=0.5)

    def invalid(self) -> Iterator[tuple[str, str]]:
        """The limits joining two fields (`registry.valid`): (field, what is wrong)."""
        if self.n_pairs < 2 * self.n_batches:
            yield "n_pairs", (f"fewer than 2 pairs for each of the n_batches = {self.n_batches} "
                              f"batches: a batch's sample SD divides by its pairs less one; "
                              f"write {2 * self.n_batches} or more")
        if self.n_pairs % self.n_batches:
            yield "n_pairs", (f"not a multiple of n_batches = {self.n_batches}: the batches "
                              f"are of equal size; write a multiple, such as "
                              f"{self.n_pairs - self.n_pairs % self.n_batches}")
        for name in ("d_small", "d_large"):
            if getattr(self, name) not in self.d_k:
                yield name, (f"not on the grid of d ({', '.join(map(str, self.d_k))}): the "
                             f"article compares the SDs measured there; write a d of d_k")
        if self.d_large <= self.d_small:
            yield "d_large", (f"not above d_small = {self.d_small}: the article compares the "
                              f"larger d with the smaller (their ratio is d_large/d_small); "
                              f"write a larger d of the grid, or a smaller d_small")


@dataclass(frozen=True)
class BatchSample:
    """One batch at one d: moments of q·k (float64 sums) and its histogram in units of √d."""

    n: int
    total: float          # Σ q·k
    total_sq: float       # Σ (q·k)²
    counts: tuple[int, ...]


def z_edges(p: SpreadParams) -> np.ndarray:
    """The histogram's bin edges in units of √d: −limit … +limit in steps of `hist_bin`."""
    steps = round(2 * p.hist_limit / p.hist_bin)
    return np.linspace(-p.hist_limit, p.hist_limit, steps + 1)


def dot_products(rng: np.random.Generator, n: int, d: int) -> np.ndarray:
    """q·k of n pairs with iid N(0, 1) components in d dimensions, shape (n,), float64.
    Paper footnote 4: mean 0, variance d."""
    q, k = normals(rng, (n, d)), normals(rng, (n, d))
    out: np.ndarray = np.einsum("ij,ij->i", q, k).astype(np.float64)
    return out


def sample(p: SpreadParams, seed: int, d: int, batch: int) -> BatchSample:
    """Batch `batch` at dimension `d`, from its own stream `spread/d=D/batch=B`."""
    n = p.n_pairs // p.n_batches
    x = dot_products(stream(seed, f"spread/d={d}/batch={batch}"), n, d)
    counts = np.histogram(x / math.sqrt(d), z_edges(p))[0]
    return BatchSample(n=n, total=float(x.sum()), total_sq=float((x * x).sum()),
                       counts=tuple(int(c) for c in counts))


def sample_sd(samples: list[BatchSample]) -> float:
    """Sample SD (ddof=1) of the pooled batches, from their sums."""
    n = sum(s.n for s in samples)
    total, total_sq = sum(s.total for s in samples), sum(s.total_sq for s in samples)
    return math.sqrt((total_sq - total * total / n) / (n - 1))


@dataclass(frozen=True)
class Spread:
    """Experiment 1 assembled: per d (grid order), per batch."""

    params: SpreadParams
    batches: tuple[tuple[BatchSample, ...], ...]     # [d index][batch]


def jobs(p: SpreadParams, seed: int) -> list[Job]:
    """One job per (d, batch); cost ∝ d (2·d normal draws per pair)."""
    if p.d_small not in p.d_k or p.d_large not in p.d_k:
        raise ValueError("d_small and d_large must be among d_k")
    if p.n_pairs % p.n_batches:
        raise ValueError("n_pairs must split evenly into n_batches")
    return [Job((d, b), sample, (p, seed, d, b), cost=d * p.n_pairs / p.n_batches / 5e4)
            for d in p.d_k for b in range(p.n_batches)]


def assemble(p: SpreadParams, out: Mapping[Hashable, Any]) -> Spread:
    """Gather the batches by d."""
    return Spread(p, tuple(tuple(out[(d, b)] for b in range(p.n_batches)) for d in p.d_k))


EXPERIMENTS.register(Experiment("spread", SpreadParams(), jobs, assemble))


def _grid(s: Spread) -> dict[str, Any]:
    """Per ruler, d and batch (index 0: all batches pooled, 1…B: one batch): the SD of the
    scaled scores and its ratio to the SD at the first d; the histograms, pooled then per
    batch. These are what the page's dₖ control looks up."""
    p = s.params
    sd_raw = [[sample_sd(list(bs))] + [sample_sd([b]) for b in bs] for bs in s.batches]
    sd = {r: [[v / divisor(r, d) for v in row] for d, row in zip(p.d_k, sd_raw)] for r in RULERS}
    ratio = {r: [[v / base for v, base in zip(row, sd[r][0])] for row in sd[r]] for r in RULERS}
    hist = [[[sum(c) for c in zip(*(b.counts for b in bs))]] + [list(b.counts) for b in bs]
            for bs in s.batches]
    batch_ratios = [row[1:] for row in ratio["raw"]]
    return {"sd": sd, "ratio": ratio, "hist": hist, "z_edges": z_edges(p).tolist(),
            "ratio_theory": {r: [sd_theory(r, d) / sd_theory(r, p.d_k[0]) for d in p.d_k]
                             for r in RULERS},
            "scale": {r: [math.sqrt(d) / divisor(r, d) for d in p.d_k] for r in RULERS},
            "d_ratio": [d // p.d_k[0] for d in p.d_k],
            "batch_ratio_min": [min(row) for row in batch_ratios],
            "batch_ratio_max": [max(row) for row in batch_ratios]}


def _slope(d: list[int], sd: list[float]) -> float:
    """Least-squares slope of log SD against log d (√d has slope ½)."""
    x, y = np.log(np.asarray(d, float)), np.log(np.asarray(sd, float))
    return float(np.polyfit(x, y, 1)[0])


def spread_section(data: Mapping[str, Any]) -> dict[str, Any]:
    """results.json["spread"]."""
    s: Spread = data["spread"]
    p = s.params
    grid = _grid(s)
    pooled = [row[0] for row in grid["sd"]["raw"]]
    i_small, i_large = p.d_k.index(p.d_small), p.d_k.index(p.d_large)
    small = list(grid["sd"]["raw"][i_small][1:])
    large = list(grid["sd"]["raw"][i_large][1:])
    ratios = [b / a for a, b in zip(small, large)]
    ratio_theory = math.sqrt(p.d_large / p.d_small)
    return {
        "d_k": list(p.d_k), "n_pairs": p.n_pairs,
        "batch_pairs": p.n_pairs // p.n_batches,
        "sd": pooled, "sd_theory": [math.sqrt(d) for d in p.d_k],
        "slope": _slope(list(p.d_k), pooled),
        "mean_max": max(abs(sum(b.total for b in bs) / sum(b.n for b in bs)) / math.sqrt(d)
                        for d, bs in zip(p.d_k, s.batches)),
        "sd_max_rel_dev": max(abs(v / math.sqrt(d) - 1) for v, d in zip(pooled, p.d_k)),
        "d_small": p.d_small, "d_large": p.d_large, "d_ratio": p.d_large // p.d_small,
        "sd_small": pooled[i_small], "sd_large": pooled[i_large],
        "ratio": pooled[i_large] / pooled[i_small], "ratio_theory": ratio_theory,
        "batches": {"n": p.n_batches, "ratio": ratios,
                    "ratio_min": min(ratios), "ratio_max": max(ratios)},
        "grid": grid,
    }


SECTIONS.register(Section("spread", ("spread",), spread_section))


# Claims the article relies on. Tolerances are 5 standard errors of the sampling
# distribution, so a true claim fails for fewer than 1 seed in 100 000:
# SE of a sample SD over n pairs is σ·sqrt((κ − 1)/(4n)) with kurtosis κ = 3 + 6/d for q·k;
# with 2 500 pairs per batch that is 1.9 % at d = 4 and 1.4 % at d = 64, so the ratio of the
# two has a relative SE of 2.4 % (delta method) and 5 SE is 12 %.
# "From d_k = 4 to 1024, doubling each time": the grid's setup, which the prose states in
# words; exact (no sampling), so a change of grid.DIMENSIONS to another step stops the build
# at that sentence.
CLAIMS.register(Claim(
    "spread.grid_doubles", "spread",
    "each d of the grid is twice the one before",
    lambda s: max(abs(b / a - 2.0) for a, b in zip(s["d_k"], s["d_k"][1:])), "<=", 0.0,
    "largest |d(i+1)/d(i) − 2| over the grid"))
CLAIMS.register(Claim(
    "spread.sqrt_not_linear", "spread",
    "the SD of q·k grows like √d (log–log slope ½), not like d (slope 1)",
    lambda s: abs(s["slope"] - 0.5), "<=", 0.05, "|slope − ½|"))
# The sentence quotes the batches' range at the dₖ the reader chose on the bar, so the claim
# holds at each (Claim.each_dk): there the ratio is SD(d)/SD(d_small); its relative SE is
# largest at the smallest d the bar offers, 8 (1.9 % at 4 and 1.7 % at 8: 2.5 %), so 5 SE
# is 12.5 %.
def _batches_dev(s: Mapping[str, Any], i: int) -> float:
    """The largest |batch ratio ÷ √(d/d_small) − 1| at place `i` of the grid."""
    g = s["grid"]
    theory = float(g["ratio_theory"]["raw"][i])
    return max(abs(float(g[k][i]) / theory - 1) for k in ("batch_ratio_min", "batch_ratio_max"))


CLAIMS.register(Claim(
    "spread.batches_near_sqrt", "spread",
    "at every dₖ of the page's bar, every batch's ratio SD(dₖ)/SD(d_small) stays near "
    "√(dₖ/d_small), far from the dimension ratio itself",
    _batches_dev, "<=", 0.125, "largest |ratio/√(dₖ/d_small) − 1|", each_dk=True))
# "At every dimension measured, the SD follows √d": each pooled SD (20 000 pairs) has a
# relative SE of sqrt((κ − 1)/(4n)), largest at the smallest d: 0.66 % at d = 4, so 5 SE is
# 3.3 % and the bound 3.5 %.
CLAIMS.register(Claim(
    "spread.every_d_near_sqrt", "spread",
    "at every d of the grid the pooled SD of q·k lies within 3.5 % of √d",
    lambda s: s["sd_max_rel_dev"], "<=", 0.035, "largest |SD/√d − 1| over d"))
# "That factor sits next to √(d_large/d_small), not next to d_large/d_small", said of the
# numbers at the dₖ the reader chose on the bar (Claim.each_dk): the pooled ratio's relative
# SE is that of the two pooled SDs combined, largest at the bar's smallest d, 8: 0.88 %
# (0.84 % at 64); 5 SE is 4.4 %.
CLAIMS.register(Claim(
    "spread.ratio_near_sqrt", "spread",
    "at every dₖ of the page's bar, the pooled ratio SD(dₖ)/SD(d_small) lies within 5 % of "
    "√(dₖ/d_small)",
    lambda s, i: abs(s["grid"]["ratio"]["raw"][i][0] / s["grid"]["ratio_theory"]["raw"][i] - 1),
    "<=", 0.05, "|ratio/√(dₖ/d_small) − 1|", each_dk=True))
# "The mean stays near zero": the pooled mean of q·k in units of its SD √d has an SE of
# 1/√20 000 = 0.71 %; 5 SE is 3.5 %.
CLAIMS.register(Claim(
    "spread.mean_near_zero", "spread",
    "at every d of the grid the pooled mean of q·k lies within 0.035 √d of zero",
    lambda s: s["mean_max"], "<=", 0.035, "largest |mean|/√d over d"))


@dataclass(frozen=True)
class WalkParams:
    """The ±1 random walk of footnote 2 (source note 000): SD of the displacement is √steps."""

    steps: int = valid(
        100, "the claims divide by the theory's SD √steps", at_least=1)
    n_walks: int = valid(
        20_000, "the walks' sample SD divides by their number less one", at_least=2)
    n_paths_shown: int = valid(  # whole paths the figure and its table draw
        6, "the figure draws a few whole walks inside the band, and its scale is set by "
        "them", at_least=1)

    def invalid(self) -> Iterator[tuple[str, str]]:
        """The limits joining two fields (`registry.valid`): (field, what is wrong)."""
        if self.n_paths_shown > self.n_walks:
            yield "n_paths_shown", (f"more than the n_walks = {self.n_walks} walks "
                                    f"simulated: the figure would draw {self.n_walks}; write "
                                    f"{self.n_walks} or fewer")


@dataclass(frozen=True)
class Walk:
    """n_walks walks of `steps` steps of ±1; theory SD = √steps."""

    steps: int
    n_walks: int
    sd: float                           # sample SD of the final displacement, in steps
    mean_distance: float                # mean |final displacement|, in steps
    within_band: float                  # share of walks ending within ±√steps
    paths: tuple[tuple[int, ...], ...]  # a few whole paths, positions 0..steps


def walk(p: WalkParams, seed: int) -> Walk:
    """Simulate ±1 random walks with equal probabilities; return the displacement SD."""
    rng = stream(seed, "walk")
    steps = rng.integers(0, 2, size=(p.n_walks, p.steps), dtype=np.int8) * 2 - 1
    final = steps.sum(axis=1, dtype=np.int64)
    shown = np.concatenate([np.zeros((p.n_paths_shown, 1), dtype=np.int64),
                            np.cumsum(steps[: p.n_paths_shown], axis=1, dtype=np.int64)], axis=1)
    return Walk(steps=p.steps, n_walks=p.n_walks, sd=float(final.std(ddof=1)),
                mean_distance=float(np.abs(final).mean()),
                within_band=float((np.abs(final) <= math.sqrt(p.steps)).mean()),
                paths=tuple(tuple(int(v) for v in row) for row in shown))


EXPERIMENTS.register(Experiment(
    "walk", WalkParams(), lambda p, seed: [Job("walk", walk, (p, seed))],
    lambda p, out: out["walk"]))


def walk_section(data: Mapping[str, Any]) -> dict[str, Any]:
    """results.json["walk"]."""
    w: Walk = data["walk"]
    return {"steps": w.steps, "n_walks": w.n_walks, "sd": w.sd, "sd_theory": math.sqrt(w.steps),
            "mean_distance": w.mean_distance, "within_band": w.within_band,
            "paths": [list(p) for p in w.paths]}


SECTIONS.register(Section("walk", ("walk",), walk_section))

# "Simulating 20 000 such walks gives" an SD beside the theory's √steps: the final position of
# 100 steps of ±1 has kurtosis 3 − 2/100, so the sample SD's relative SE is
# sqrt((κ − 1)/(4n)) = 0.50 %; 5 SE is 2.5 %.
CLAIMS.register(Claim(
    "walk.sd_near_sqrt", "walk",
    "the simulated walks' SD of the final position lies within 2.5 % of √steps",
    lambda s: abs(s["sd"] / s["sd_theory"] - 1), "<=", 0.025, "|SD/√steps − 1|"))
# Footnote: single walks' "mean distance from the start comes out somewhat below" the SD.
# For 100 steps it is about 0.80 of it (√(2/π) in the limit), with an SE of the mean of
# 20 000 distances near 0.043 steps; at most 0.9 of the SD leaves it well clear of equal.
CLAIMS.register(Claim(
    "walk.mean_distance_below_sd", "walk",
    "the simulated walks' mean distance from the start is at most 0.9 times √steps",
    lambda s: s["mean_distance"] / s["sd_theory"], "<=", 0.9, "mean |final position| ÷ √steps"))
# The walk figure's caption, "the band that holds most of them": most walks end inside ±√steps.
# For 100 steps the share is P(|S| <= 10) = 0.729 (exact, binomial), and the SE of a share of
# 20 000 walks is 0.0031: "most" (above ½) is some 70 SE away.
CLAIMS.register(Claim(
    "walk.most_within_band", "walk",
    "most of the simulated walks end within ±√steps of the start",
    lambda s: s["within_band"], ">=", 0.5, "share of walks ending within ±√steps"))
