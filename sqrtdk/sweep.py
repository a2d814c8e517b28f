"""`python build.py --sweep N`: how often does each claim hold, over N seeds?

Runs the science half for seeds 1…N in worker processes (each seed's results are cached as a
normal build's are, so a second sweep only runs what changed), evaluates every claim on each,
and writes `figures/sweep.json` (kept in git: the articles quote it, e.g. "in every one of 100
seeds"). The file records the digest of the experiment code; a build warns when the code has
changed since (issue 7, item 6).
"""
from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from .cache import Cache, code_digest, write_if_changed
from .options import BuildOptions


def sweep_code() -> str:
    """The digest a sweep is valid for: the experiment modules (sqrtdk/science/, which import
    nothing else of the package; a test checks) and numpy's version. Other modules of the
    package can change without making the committed sweep stale."""
    from .cache import digest, tree_digest, versions
    from .options import PACKAGE_DIR
    return digest(tree_digest(PACKAGE_DIR / "science"), versions("numpy"))


def science_key(seed: int) -> str:
    """The cache key of one seed's results (the same as a build's)."""
    from .cache import digest, versions
    return digest(code_digest("science"), str(seed), versions("numpy"))


def _call(job: Any) -> Any:
    return job.fn(*job.args)


def run_seeds(opts: BuildOptions, seeds: list[int], log: Callable[[str], None]
              ) -> dict[int, dict[str, Any]]:
    """Each seed's claims (results.json["claims"]), from the cache or run in a pool."""
    from .science.results import dumps
    from .science.run import Run
    cache = Cache(opts.cache_dir)
    claims: dict[int, dict[str, Any]] = {}
    runs: dict[int, Run] = {}
    for seed in seeds:
        data = cache.get("results", science_key(seed))
        if data is not None:
            claims[seed] = json.loads(data)["claims"]
        else:
            runs[seed] = Run(seed)
    if not runs:
        return claims
    # seed by seed (the dearest job of each first), so seeds finish, and report, as it goes
    jobs = sorted(((seed, name, job) for seed, run in runs.items() for name, job in run.jobs),
                  key=lambda t: (t[0], -t[2].cost))
    t0 = time.perf_counter()
    from concurrent.futures import as_completed

    from .workers import Pool
    with Pool(opts.jobs) as pool:
        futures = {pool.submit(_call, job): (seed, name, job) for seed, name, job in jobs}
        for future in as_completed(futures):
            seed, name, job = futures[future]
            run = runs[seed]
            run.done(name, job.key, future.result())
            if run.finished:
                results = run.results()
                cache.put("results", science_key(seed), dumps(results).encode("utf-8"))
                claims[seed] = results["claims"]
                if len(claims) % 10 == 0:
                    log(f"  {len(claims)} of {len(seeds)} seeds ({time.perf_counter() - t0:.0f} s)")
    return claims


def summarise(per_seed: dict[int, dict[str, Any]], code: str) -> dict[str, Any]:
    """sweep.json: per claim, how many seeds it held in and the worst value seen."""
    seeds = sorted(per_seed)
    out: dict[str, Any] = {}
    for name in sorted(per_seed[seeds[0]]):
        rows = [per_seed[s][name] for s in seeds]
        first = rows[0]
        values = [r["value"] for r in rows]
        worst = max(values) if first["op"] == "<=" else min(values)
        held = sum(1 for r in rows if r["held"])
        out[name] = {"held": held, "share": held / len(rows), "worst": worst, "op": first["op"],
                     "bound": first["bound"], "unit": first["unit"],
                     "statement": first["statement"]}
    shares = [c["share"] for c in out.values()]
    return {"code": code, "n_seeds": len(seeds), "first_seed": seeds[0], "last_seed": seeds[-1],
            "claims": out, "min_share": min(shares), "all_held": all(s == 1 for s in shares),
            "n_claims": len(out)}


def table(summary: dict[str, Any]) -> str:
    """The sweep as a text table: claim, seeds where it held, worst value, bound."""
    rows = [("claim", "held", "worst value", "bound")]
    for name, c in summary["claims"].items():
        rows.append((name, f"{c['held']}/{summary['n_seeds']}", f"{c['worst']:.4g} ({c['unit']})",
                     f"{c['op']} {c['bound']:g}"))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def sweep(opts: BuildOptions, n: int, log: Callable[[str], None] = print) -> str:
    """Run seeds 1…n, write opts.sweep_file, return the table (see the module docstring)."""
    from .science.results import dumps
    log(f"sweep: {n} seeds")
    per_seed = run_seeds(opts, list(range(1, n + 1)), log)
    summary = summarise(per_seed, sweep_code())
    write_if_changed(opts.sweep_file, dumps(summary).encode("utf-8"))
    return table(summary) + f"\n-> {opts.sweep_file}"
