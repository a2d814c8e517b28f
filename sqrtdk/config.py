"""Every path and every experiment parameter, in one place.

Changing a parameter here changes the numbers the site quotes; nothing else in the package
hard-codes a dimension, a sample size or a path.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONTENT_DIR = ROOT / "content"
TEMPLATES_DIR = ROOT / "templates"
STATIC_DIR = ROOT / "static"
FIGURES_DIR = ROOT / "figures"
SITE_DIR = ROOT / "site"
CACHE_DIR = ROOT / ".cache"
NODE_MODULES = ROOT / "node_modules"
KATEX_DIST = NODE_MODULES / "katex" / "dist"
KATEX_SCRIPT = ROOT / "sqrtdk" / "katex_render.mjs"
RESULTS_FILE = "results.json"

LANGUAGES = ("zh", "en")
DEFAULT_SEED = 20170612  # arXiv:1706.03762 was submitted on 12 June 2017

DIMENSIONS = (4, 8, 16, 32, 64, 128, 256, 512, 1024)

# The figures, in article order; each is drawn once per language by sqrtdk/figures.py.
FIGURE_NAMES = ("spread_hist", "spread_sd", "batches", "walk", "saturation_bars",
                "saturation_sensitivity", "rulers_sd", "rulers_softmax")


@dataclass(frozen=True)
class SpreadParams:
    """E1: the dot product's spread grows as sqrt(d) (seed 000, paper 1)."""

    d_k: tuple[int, ...] = DIMENSIONS
    n_pairs: int = 20_000        # (q, k) pairs per dimension
    d_small: int = 4             # the two dimensions the article compares
    d_large: int = 512
    n_batches: int = 8           # batch 0 is the default sample; the others show the wobble
    hist_limit: float = 96.0     # histogram range [-limit, limit] in raw score units
    hist_bin: float = 1.0        # histogram bin width, raw score units


@dataclass(frozen=True)
class WalkParams:
    """The +-1 random walk of footnote 2 (seed 000): SD of the displacement is sqrt(steps)."""

    steps: int = 100
    n_walks: int = 20_000
    n_paths_shown: int = 6


@dataclass(frozen=True)
class SaturationParams:
    """E2: one fixed row of scores multiplied by a growing scale (seed 000, paper 2)."""

    labels: tuple[str, ...] = ("A", "B", "C", "D", "E", "F", "G", "H")
    scores: tuple[float, ...] = (-0.8, 0.1, -0.35, 0.3, -0.1, 0.2, 0.55, 0.9)
    scale_min: float = 1.0
    scale_max: float = 32.0
    scale_step: float = 0.25
    quoted_scale: float = 16.0   # the scale whose values the text quotes
    shown_scales: tuple[float, ...] = (1.0, 4.0, 16.0)  # the bar-chart panels


@dataclass(frozen=True)
class JacobianParams:
    """Softmax Jacobian norm for rows of scores with a small and a large variance (seed 002)."""

    length: int = 8
    n_rows: int = 10_000
    var_small: float = 1.0
    var_large: float = 100.0


@dataclass(frozen=True)
class TwoScoresParams:
    """softmax([10, 5]) against softmax([10, 5] / 8), 8 = sqrt(64) (seed 003)."""

    scores: tuple[float, ...] = (10.0, 5.0)
    d_k: int = 64


@dataclass(frozen=True)
class RulerParams:
    """E3: no scaling, / sqrt(d) and / d over the same dimensions (seed 000 paper 3, seed 004)."""

    d_k: tuple[int, ...] = DIMENSIONS
    n_rows: int = 2_000          # rows of scores, each one query against `positions` keys
    positions: int = 8
    quoted_d: int = 512


@dataclass(frozen=True)
class Params:
    """All experiment parameters; part of the cache key of results and figures."""

    spread: SpreadParams = field(default_factory=SpreadParams)
    walk: WalkParams = field(default_factory=WalkParams)
    saturation: SaturationParams = field(default_factory=SaturationParams)
    jacobian: JacobianParams = field(default_factory=JacobianParams)
    two_scores: TwoScoresParams = field(default_factory=TwoScoresParams)
    rulers: RulerParams = field(default_factory=RulerParams)
