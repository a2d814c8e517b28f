"""Turn experiment dataclasses into named, JSON-serialisable results: the contract between the
science half (experiments, figures) and the site half (Markdown, templates).

`figures/results.json` is canonical text: sorted keys, plain Python floats rounded to
`SIGNIFICANT` significant digits (so last-bit noise cannot change the file), one-space indent,
a final newline. Every number the articles quote is a key of this file.
"""
from __future__ import annotations

import json
import math
import platform
from importlib import metadata
from pathlib import Path
from typing import Any

from .config import Params
from .experiments import RULERS, Experiments

SIGNIFICANT = 6
SCHEMA = 1


def canonical(value: Any) -> Any:
    """Return `value` with numpy scalars and tuples made plain and floats rounded.

    Raises TypeError for a value JSON cannot hold, ValueError for NaN or infinity.
    """
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    kind = getattr(getattr(value, "dtype", None), "kind", "")
    if kind == "b":
        return bool(value)
    if kind == "c" or isinstance(value, complex):
        raise TypeError(f"cannot store the complex number {value!r} in results")
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float) or hasattr(value, "dtype"):
        x = float(value)
        if not math.isfinite(x):
            raise ValueError(f"non-finite result {x!r}")
        if x == int(x) and abs(x) < 2**53:
            return int(x) if hasattr(value, "dtype") and value.dtype.kind in "iu" else float(x)
        return float(f"{x:.{SIGNIFICANT}g}")
    if isinstance(value, dict):
        return {str(k): canonical(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [canonical(v) for v in value]
    raise TypeError(f"cannot store {type(value).__name__} in results")


def _at(xs: tuple, keys: tuple, key: Any) -> Any:
    return xs[keys.index(key)]


def build(exp: Experiments, p: Params) -> dict[str, Any]:
    """Name every result the site uses; returns a canonical, JSON-ready dict (see module doc).

    `p` gives the points the text quotes (d_small, d_large, the quoted scale and dimension);
    raises ValueError if one of them is not on the experiment's grid.
    """
    sp, sa, ru = exp.spread, exp.saturation, exp.rulers
    d_small, d_large = p.spread.d_small, p.spread.d_large
    ratios = [l / s for s, l in zip(sp.batch_sd_small, sp.batch_sd_large)]
    q = p.saturation.quoted_scale
    peak = max(range(len(sa.scales)), key=lambda i: sa.sensitivity[i])
    qd = p.rulers.quoted_d
    out = {
        "meta": {"schema": SCHEMA, "seed": exp.seed, "generator": "numpy PCG64 (default_rng)",
                 "python": platform.python_version(), "numpy": metadata.version("numpy"),
                 "matplotlib": metadata.version("matplotlib")},
        "spread": {
            "d_k": sp.d_k, "n_pairs": sp.n_pairs, "sd": sp.sd,
            "sd_theory": [math.sqrt(d) for d in sp.d_k],
            "d_small": d_small, "d_large": d_large, "d_ratio": d_large // d_small,
            "sd_small": _at(sp.sd, sp.d_k, d_small), "sd_large": _at(sp.sd, sp.d_k, d_large),
            "ratio": ratios[0], "ratio_theory": math.sqrt(d_large / d_small),
            "batches": {"n": len(ratios), "sd_small": sp.batch_sd_small,
                        "sd_large": sp.batch_sd_large, "ratio": ratios,
                        "ratio_min": min(ratios), "ratio_max": max(ratios)},
            "hist": {"edges": sp.hist_edges, "small": sp.hist_small, "large": sp.hist_large},
        },
        "walk": {"steps": exp.walk.steps, "n_walks": exp.walk.n_walks, "sd": exp.walk.sd,
                 "sd_theory": math.sqrt(exp.walk.steps), "paths": exp.walk.paths},
        "saturation": {
            "labels": sa.labels, "scores": sa.scores, "winner": sa.labels[sa.winner],
            "scales": sa.scales, "shares": sa.shares, "p_winner": sa.p_winner,
            "sensitivity": sa.sensitivity, "max_offdiag": sa.max_offdiag,
            "first": {"scale": sa.scales[0], "p_winner": sa.p_winner[0],
                      "sensitivity": sa.sensitivity[0]},
            "quoted": {"scale": q, "p_winner": _at(sa.p_winner, sa.scales, q),
                       "sensitivity": _at(sa.sensitivity, sa.scales, q),
                       "max_offdiag": _at(sa.max_offdiag, sa.scales, q)},
            "peak": {"scale": sa.scales[peak], "sensitivity": sa.sensitivity[peak],
                     "p_winner": sa.p_winner[peak], "half_scale": sa.half_scale},
        },
        "jacobian": {"length": exp.jacobian.length, "n_rows": exp.jacobian.n_rows,
                     "var_small": exp.jacobian.var_small, "var_large": exp.jacobian.var_large,
                     "norm_small": exp.jacobian.norm_small, "norm_large": exp.jacobian.norm_large,
                     "winner_small": exp.jacobian.winner_small,
                     "winner_large": exp.jacobian.winner_large},
        "two_scores": {"scores": exp.two_scores.scores, "divisor": exp.two_scores.divisor,
                       "plain": exp.two_scores.plain, "scaled": exp.two_scores.scaled},
        "rulers": {
            "d_k": ru.d_k, "positions": ru.positions, "n_rows": ru.n_rows, "names": RULERS,
            "sd": ru.sd, "winner_share": ru.winner_share, "entropy_bits": ru.entropy_bits,
            "sd_theory": {"raw": [math.sqrt(d) for d in ru.d_k], "sqrt": [1.0] * len(ru.d_k),
                          "linear": [1 / math.sqrt(d) for d in ru.d_k]},
            "uniform_share": 1 / ru.positions, "max_entropy_bits": math.log2(ru.positions),
            "quoted": {"d": qd, **{f"{kind}_{r}": _at(getattr(ru, kind)[r], ru.d_k, qd)
                                   for kind in ("sd", "winner_share", "entropy_bits")
                                   for r in RULERS}},
        },
    }
    return canonical(out)


def dumps(results: dict[str, Any]) -> str:
    """Serialise results as canonical text (sorted keys, UTF-8, newline-terminated)."""
    return json.dumps(results, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


def save(results: dict[str, Any], path: Path) -> None:
    """Write results to `path` as canonical text (see `dumps`)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps(results), encoding="utf-8")


def load(path: Path) -> dict[str, Any]:
    """Read a results file; raises FileNotFoundError or json.JSONDecodeError as they come."""
    return json.loads(path.read_text(encoding="utf-8"))
