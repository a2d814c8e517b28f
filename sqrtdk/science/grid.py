"""The grid of dimensions every experiment over d uses, and the three rulers.

d_k runs over powers of two from 4 to 1024 (Experiments 1 and 3 both run over d = 4, 8, …, 1024). A
ruler is what the scores are divided by: 1 (no scaling), √d (the paper's) or d (the third row
of source note 004's table).
"""
from __future__ import annotations

import math

DIMENSIONS: tuple[int, ...] = (4, 8, 16, 32, 64, 128, 256, 512, 1024)
RULERS: tuple[str, ...] = ("raw", "sqrt", "linear")


def divisor(ruler: str, d: int) -> float:
    """What ruler `ruler` divides a score at dimension `d` by: 1, √d or d."""
    return {"raw": 1.0, "sqrt": math.sqrt(d), "linear": float(d)}[ruler]


def sd_theory(ruler: str, d: int) -> float:
    """SD of q·k / divisor under the footnote's assumptions (iid, mean 0, variance 1):
    √d, 1 and 1/√d (paper footnote 4; source note 004's table)."""
    return math.sqrt(d) / divisor(ruler, d)


# the results section whose grid (`d_k`, `d_small`, `d_large`) the page's dₖ bar moves over
BAR_SECTION = "spread"


def bar_indices(d_k: list[int], d_small: int, d_large: int) -> list[int]:
    """The places on the grid `d_k` the page's dₖ bar offers (static/explainer.js's bar: every
    dₖ above the small one the article compares with, which is the baseline) and the page's
    own, `d_large`: every dₖ at which a reader can read the text's numbers that follow the
    bar (web.embed.FOLLOW), so every dₖ a claim beside them must hold at
    (registry.Claim.each_dk)."""
    return sorted({d_k.index(d_large), *range(d_k.index(d_small) + 1, len(d_k))})
