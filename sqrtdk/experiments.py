"""The experiments, as pure numpy functions: parameters and a seed in, frozen dataclasses out.

No I/O, no printing, no plotting. Randomness comes from named streams (`stream`), so adding an
experiment, a dimension or a batch never changes another experiment's numbers.

Sources: seed 000 (the three "sheets of paper" and footnote 2), seed 002 (softmax Jacobian norms),
seed 003 (softmax([10, 5])), seed 004 (the scaling-factor table); the question itself is
Vaswani et al. 2017, "Attention Is All You Need", section 3.2.1 and footnote 4.
"""
from __future__ import annotations

import zlib
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from .config import (JacobianParams, Params, RulerParams, SaturationParams, SpreadParams,
                     TwoScoresParams, WalkParams)


def stream(seed: int, name: str) -> np.random.Generator:
    """Return the random generator for the stream `name` of run `seed`.

    The stream key is (seed, crc32(name)); crc32 is stable across processes and Python versions,
    unlike `hash`. Raises ValueError for a negative seed (numpy's SeedSequence refuses it).
    """
    return np.random.default_rng([seed, zlib.crc32(name.encode("utf-8"))])


def dot_products(rng: np.random.Generator, n: int, d: int) -> np.ndarray:
    """Draw n pairs (q, k) with iid N(0, 1) components in d dimensions; return q·k, shape (n,).

    Vectors are drawn in float32 (twice as fast here; the rounding error of a 1024-term sum is
    ~1e-6 relative, far below the ~0.5 % sampling error of an SD from 20 000 pairs) and the dot
    products are returned as float64. Paper footnote 4: q·k has mean 0 and variance d.
    """
    q = rng.standard_normal((n, d), dtype=np.float32)
    k = rng.standard_normal((n, d), dtype=np.float32)
    return np.einsum("ij,ij->i", q, k).astype(np.float64)


def softmax(scores: np.ndarray) -> np.ndarray:
    """Softmax along the last axis, shape preserved; shifted by the row maximum for stability.

    p_i = exp(s_i) / sum_j exp(s_j) (paper section 3.2.1, seed 000 paper 2).
    """
    shifted = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(shifted)
    return e / e.sum(axis=-1, keepdims=True)


def softmax_jacobian(p: np.ndarray) -> np.ndarray:
    """Jacobian dp_i/ds_j = p_i (delta_ij - p_j) of softmax at shares p, shape (..., n, n).

    Diagonal p_i (1 - p_i), off-diagonal -p_i p_j; every row sums to 0 (seed 000, seed 002).
    """
    eye = np.eye(p.shape[-1])
    return p[..., :, None] * eye - p[..., :, None] * p[..., None, :]


def entropy_bits(p: np.ndarray) -> np.ndarray:
    """Shannon entropy in bits along the last axis; 0 for one-hot, log2(n) for uniform."""
    safe = np.where(p > 0, p, 1.0)
    return -(p * np.log2(safe)).sum(axis=-1)


@dataclass(frozen=True)
class Spread:
    """E1 result. SDs are sample SDs of q·k (ddof=1); theory: SD(q·k) = sqrt(d)."""

    d_k: tuple[int, ...]
    n_pairs: int
    sd: tuple[float, ...]              # per d_k; theory sqrt(d_k)
    batch_sd_small: tuple[float, ...]  # per batch, SD at d_small; batch 0 is the sweep's sample
    batch_sd_large: tuple[float, ...]  # per batch, SD at d_large
    hist_edges: tuple[float, ...]      # shared bin edges, raw score units
    hist_small: tuple[tuple[int, ...], ...]  # per batch, counts of q·k at d_small
    hist_large: tuple[tuple[int, ...], ...]  # per batch, counts of q·k at d_large


def spread_sample(p: SpreadParams, seed: int, d: int, batch: int) -> tuple[float, tuple[int, ...]]:
    """One sample of E1: (SD of q·k over p.n_pairs pairs in d dimensions, histogram counts).

    Batch 0 is the sweep's sample (stream `spread/d=D`); batch b > 0 has its own stream, so the
    batches are independent of each other and of the sweep.
    """
    name = f"spread/d={d}" if batch == 0 else f"spread/batch={batch}/d={d}"
    x = dot_products(stream(seed, name), p.n_pairs, d)
    edges = _hist_edges(p)
    return float(x.std(ddof=1)), tuple(int(c) for c in np.histogram(x, edges)[0])


def _hist_edges(p: SpreadParams) -> np.ndarray:
    return np.arange(-p.hist_limit, p.hist_limit + p.hist_bin / 2, p.hist_bin)


def spread_jobs(p: SpreadParams) -> list[tuple[int, int]]:
    """The (d, batch) samples E1 needs: every d of the sweep, then both d of each extra batch.

    Raises ValueError if d_small or d_large is not in p.d_k.
    """
    if p.d_small not in p.d_k or p.d_large not in p.d_k:
        raise ValueError("d_small and d_large must be among d_k")
    return [(d, 0) for d in p.d_k] + [(d, b) for b in range(1, p.n_batches)
                                      for d in (p.d_small, p.d_large)]


def spread_from_samples(p: SpreadParams, samples: dict[tuple[int, int], tuple]) -> Spread:
    """Assemble E1's result from the samples of `spread_jobs`."""
    def at(d: int, b: int) -> tuple:
        return samples[(d, b)]
    batches = range(p.n_batches)
    return Spread(
        d_k=tuple(p.d_k), n_pairs=p.n_pairs, sd=tuple(at(d, 0)[0] for d in p.d_k),
        batch_sd_small=tuple(at(p.d_small, b)[0] for b in batches),
        batch_sd_large=tuple(at(p.d_large, b)[0] for b in batches),
        hist_edges=tuple(float(e) for e in _hist_edges(p)),
        hist_small=tuple(at(p.d_small, b)[1] for b in batches),
        hist_large=tuple(at(p.d_large, b)[1] for b in batches))


def spread(p: SpreadParams, seed: int) -> Spread:
    """E1: per d, the SD of q·k over p.n_pairs pairs, plus p.n_batches batches at two dimensions.

    Raises ValueError if d_small or d_large is not in p.d_k.
    """
    return spread_from_samples(p, {job: spread_sample(p, seed, *job)
                                   for job in spread_jobs(p)})


@dataclass(frozen=True)
class Walk:
    """Footnote 2's walk: n_walks walks of `steps` steps of +-1; theory SD = sqrt(steps)."""

    steps: int
    n_walks: int
    sd: float                           # sample SD of the final displacement, in steps
    paths: tuple[tuple[int, ...], ...]  # a few whole paths, positions 0..steps


def walk(p: WalkParams, seed: int) -> Walk:
    """Simulate +-1 random walks with equal probabilities; return the displacement SD."""
    rng = stream(seed, "walk")
    steps = rng.integers(0, 2, size=(p.n_walks, p.steps), dtype=np.int8) * 2 - 1
    final = steps.sum(axis=1, dtype=np.int64)
    shown = np.concatenate([np.zeros((p.n_paths_shown, 1), dtype=np.int64),
                            np.cumsum(steps[: p.n_paths_shown], axis=1, dtype=np.int64)], axis=1)
    return Walk(steps=p.steps, n_walks=p.n_walks, sd=float(final.std(ddof=1)),
                paths=tuple(tuple(int(v) for v in row) for row in shown))


@dataclass(frozen=True)
class Saturation:
    """E2: shares of one row of scores times a scale. Deterministic (no randomness)."""

    labels: tuple[str, ...]
    scores: tuple[float, ...]
    scales: tuple[float, ...]
    shares: tuple[tuple[float, ...], ...]  # per scale, softmax(scale * scores), sums to 1
    p_winner: tuple[float, ...]            # per scale, the winner's share
    sensitivity: tuple[float, ...]         # per scale, dp_w/ds_w = p_w (1 - p_w)
    max_offdiag: tuple[float, ...]         # per scale, max_{i != j} p_i p_j
    winner: int                            # index of the largest score
    half_scale: float                      # the scale where p_winner = 1/2 (sensitivity peak)


def saturation(p: SaturationParams) -> Saturation:
    """E2: softmax of scale * scores on a grid of scales, with the winner's sensitivity.

    The self-sensitivity p(1 - p) peaks at p = 1/2 (seed 000); `half_scale` is where the winner's
    share crosses 1/2, found by bisection (p_winner increases with the scale). Raises ValueError
    when the winner's share never crosses 1/2 inside [scale_min, scale_max].
    """
    s = np.asarray(p.scores, dtype=np.float64)
    scales = np.arange(p.scale_min, p.scale_max + p.scale_step / 2, p.scale_step)
    shares = softmax(scales[:, None] * s[None, :])
    w = int(np.argmax(s))
    jac = softmax_jacobian(shares)
    off = np.abs(jac) * (1 - np.eye(len(s)))
    pw = shares[:, w]
    return Saturation(
        labels=tuple(p.labels), scores=tuple(p.scores), scales=tuple(float(x) for x in scales),
        shares=tuple(tuple(float(v) for v in row) for row in shares),
        p_winner=tuple(float(v) for v in pw),
        sensitivity=tuple(float(v) for v in jac[:, w, w]),
        max_offdiag=tuple(float(v) for v in off.max(axis=(1, 2))),
        winner=w, half_scale=_half_scale(s, w, p.scale_min, p.scale_max))


def _half_scale(s: np.ndarray, w: int, lo: float, hi: float) -> float:
    """Bisection for the scale c in [lo, hi] where softmax(c s)_w = 1/2."""
    def f(c: float) -> float:
        return float(softmax(c * s)[w]) - 0.5
    if f(lo) > 0 or f(hi) < 0:
        raise ValueError("the winner's share does not cross 1/2 inside the scale range")
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if f(mid) < 0 else (lo, mid)
    return (lo + hi) / 2


@dataclass(frozen=True)
class JacobianNorms:
    """Frobenius norm of the softmax Jacobian for rows with a small and a large variance."""

    length: int
    n_rows: int
    var_small: float
    var_large: float
    norm_small: float  # mean over rows
    norm_large: float  # mean over rows; -> 0 as rows saturate (seed 002)
    winner_small: float  # mean largest share, variance var_small
    winner_large: float  # mean largest share, variance var_large


def jacobian_norms(p: JacobianParams, seed: int) -> JacobianNorms:
    """Seed 002's experiment, averaged over rows: N(0, var) scores -> ||J||_F of softmax."""
    out = []
    for var in (p.var_small, p.var_large):
        x = stream(seed, f"jacobian/var={var}").normal(0.0, np.sqrt(var), (p.n_rows, p.length))
        y = softmax(x)
        norms = np.linalg.norm(softmax_jacobian(y), axis=(1, 2))
        out.append((float(norms.mean()), float(y.max(axis=1).mean())))
    return JacobianNorms(length=p.length, n_rows=p.n_rows, var_small=p.var_small,
                         var_large=p.var_large, norm_small=out[0][0], norm_large=out[1][0],
                         winner_small=out[0][1], winner_large=out[1][1])


@dataclass(frozen=True)
class TwoScores:
    """Seed 003: softmax of two scores as they are and divided by sqrt(d_k)."""

    scores: tuple[float, ...]
    divisor: float
    plain: tuple[float, ...]
    scaled: tuple[float, ...]


def two_scores(p: TwoScoresParams) -> TwoScores:
    """softmax(scores) and softmax(scores / sqrt(d_k)); deterministic."""
    s = np.asarray(p.scores, dtype=np.float64)
    div = float(np.sqrt(p.d_k))
    return TwoScores(scores=tuple(p.scores), divisor=div,
                     plain=tuple(float(v) for v in softmax(s)),
                     scaled=tuple(float(v) for v in softmax(s / div)))


@dataclass(frozen=True)
class Rulers:
    """E3: three rulers. Theory for the SD: sqrt(d), 1, 1/sqrt(d) (seed 004's table)."""

    d_k: tuple[int, ...]
    positions: int
    n_rows: int
    sd: dict[str, tuple[float, ...]]            # ruler -> per d, SD of the scaled score
    winner_share: dict[str, tuple[float, ...]]  # ruler -> per d, mean largest softmax share
    entropy_bits: dict[str, tuple[float, ...]]  # ruler -> per d, mean entropy in bits


RULERS = ("raw", "sqrt", "linear")  # divide by 1, sqrt(d), d


def rulers(p: RulerParams, seed: int) -> Rulers:
    """E3: rows of `positions` scores, one query against that many keys, per d and per ruler."""
    sd = {r: [] for r in RULERS}
    share = {r: [] for r in RULERS}
    ent = {r: [] for r in RULERS}
    for d in p.d_k:
        rng = stream(seed, f"rulers/d={d}")
        q = rng.standard_normal((p.n_rows, 1, d), dtype=np.float32)
        k = rng.standard_normal((p.n_rows, p.positions, d), dtype=np.float32)
        raw = np.einsum("rid,rjd->rj", q, k).astype(np.float64)
        for r, div in zip(RULERS, (1.0, np.sqrt(d), float(d))):
            scores = raw / div
            probs = softmax(scores)
            sd[r].append(float(scores.std(ddof=1)))
            share[r].append(float(probs.max(axis=1).mean()))
            ent[r].append(float(entropy_bits(probs).mean()))
    freeze = lambda m: {r: tuple(v) for r, v in m.items()}  # noqa: E731
    return Rulers(d_k=tuple(p.d_k), positions=p.positions, n_rows=p.n_rows,
                  sd=freeze(sd), winner_share=freeze(share), entropy_bits=freeze(ent))


@dataclass(frozen=True)
class Experiments:
    """Everything the experiments produce for one seed."""

    seed: int
    spread: Spread
    walk: Walk
    saturation: Saturation
    jacobian: JacobianNorms
    two_scores: TwoScores
    rulers: Rulers


def _call(job: tuple[Callable[..., Any], tuple]) -> Any:
    fn, args = job
    return fn(*args)


def run_all(params: Params, seed: int, map_fn: Callable = map) -> Experiments:
    """Run every experiment with `seed`; pure, deterministic for a given numpy version.

    `map_fn` maps independent jobs (a process pool's `map` spreads them over cores); the result
    does not depend on it, since every job draws from its own named stream.
    """
    sp = spread_jobs(params.spread)
    jobs = [(spread_sample, (params.spread, seed, *job)) for job in sp] + [
        (walk, (params.walk, seed)), (saturation, (params.saturation,)),
        (jacobian_norms, (params.jacobian, seed)), (two_scores, (params.two_scores,)),
        (rulers, (params.rulers, seed))]
    # the largest jobs first, so two workers finish together
    order = sorted(range(len(jobs)), key=lambda i: -_cost(jobs[i]))
    done = dict(zip(order, map_fn(_call, [jobs[i] for i in order])))
    outs = [done[i] for i in range(len(jobs))]
    w, sa, jn, ts, ru = outs[len(sp):]
    return Experiments(seed=seed, spread=spread_from_samples(params.spread, dict(zip(sp, outs))),
                       walk=w, saturation=sa, jacobian=jn, two_scores=ts, rulers=ru)


def _cost(job: tuple[Callable[..., Any], tuple]) -> float:
    fn, args = job
    if fn is spread_sample:
        return args[2]                      # proportional to d
    if fn is rulers:
        return sum(args[0].d_k) * (args[0].positions + 1) * args[0].n_rows / 40_000
    return 1.0
