"""`python build.py --sweep N`: how often does each claim hold, over N seeds?

Runs the science half for seeds 1…N in worker processes (each seed's results are cached as a
normal build's are, so a second sweep only runs what changed), evaluates every claim on each,
and writes `figures/sweep.json` (kept in git: the articles quote it as `sweep.…`, e.g. "in
every one of 100 seeds"; every path it holds is declared in sqrtdk/science/outputs/sweep.py,
and what is written or read is checked against that declaration). Each claim's entry records
the digest of the code it depends on (`claim_code`: the claim, its section and the experiments
behind it), so a build names only the claims whose code changed, and `--sweep N --claims a,b`
refreshes only those; an experiment no claim reads never makes the sweep stale. Each experiment
of each seed is cached on its own code, so a sweep reruns only the experiments that changed
(the science stage's cache entries, science_stage.py). The file carries its own digest
(science.results.dumps_signed): a hand edit is refused. A build reads it with
`sweep_for_build`.
"""
from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .cache import Cache, closure_digest, key_for, stamp, tree_digest, write_if_changed
from .errors import display_path
from .options import PACKAGE_DIR, BuildOptions
from .results_paths import check_sweep
from .science.warned import ScienceWarningError
from .science_stage import (
    SCIENCE_PACKAGES,
    ExperimentCache,
    JobWarningError,
    check_params,
    listed_jobs,
    placed_error,
    refuse_edited,
    science_key,
    watching,
    without_warnings,
)

LOGGER = logging.getLogger("sqrtdk")


def claim_code(name: str) -> str:
    """What a claim's sweep entry depends on: the code of the claim (its module's import
    closure), of the section it reads and of every experiment that section is built from,
    the code that evaluates and rounds it (science/run.py, results.py) and numpy's version.
    An experiment no claim reads is not in any claim's key. A claim on one snippet's printout
    (`Claim.snippet`) depends on that snippet's file and the code that runs it (reproduce.py,
    which does not import the list of snippets, reproduce_boxes.py) instead of the whole
    reproduce section: a new snippet (README's recipe) does not make it stale."""
    from .science import registry
    from .science.registry import CLAIMS, EXPERIMENTS, SECTIONS, SNIPPETS
    registry.load()
    claim = CLAIMS[name]
    if claim.snippet:           # reproduce.py runs it; reproduce_boxes.py lists the others
        return stamp(closure_digest(claim.value.__module__, "sqrtdk.science.run",
                                    "sqrtdk.science.reproduce"),
                     SNIPPETS[claim.snippet].path, packages=SCIENCE_PACKAGES)
    sections = [SECTIONS[n] for n in claim.sections]    # an each_dk claim's: the bar's grid too
    needs = sorted({n for section in sections for n in section.needs})
    modules = [claim.value.__module__, *(s.build.__module__ for s in sections),
               "sqrtdk.science.run"]
    for exp in (EXPERIMENTS[n] for n in needs):
        modules += [exp.jobs.__module__, exp.assemble.__module__]
    files = sorted({a for exp in (EXPERIMENTS[n] for n in needs)
                    for job in listed_jobs(exp, 1) for a in job.args if isinstance(a, Path)})
    return stamp(closure_digest(*modules), files, repr(needs), packages=SCIENCE_PACKAGES)


def stale_claims(summary: dict[str, Any]) -> list[str]:
    """The claims whose sweep entry in `summary` (sweep.json) is missing or was computed by
    other code than today's (see claim_code); sorted."""
    from .science import registry
    from .science.registry import CLAIMS
    registry.load()
    entries = summary.get("claims", {})
    return sorted(c.name for c in CLAIMS if not isinstance(entries.get(c.name), dict)
                  or entries[c.name].get("code") != claim_code(c.name))


def claim_line(name: str) -> tuple[str, int]:
    """Where claim `name` is computed: the file and first line of its `value` function (in
    sqrtdk/science/, registered beside its experiment), the line a stale sweep entry is
    warned at. Loads the registry (imports the experiments)."""
    import inspect

    from .science import registry
    from .science.registry import CLAIMS
    registry.load()
    value = inspect.unwrap(CLAIMS[name].value)
    return inspect.getsourcefile(value) or "", inspect.getsourcelines(value)[1]


def _call(job: Any) -> Any:
    return job.fn(*job.args)


def run_seeds(opts: BuildOptions, seeds: list[int], log: Callable[[str], None],
              claims: list[str] | None = None) -> dict[int, dict[str, Any]]:
    """Each seed's claims (results.json["claims"]; `claims`: only those, running only the
    experiments their sections are built from), from the cache or run in a pool."""
    from .science.registry import CLAIMS, EXPERIMENTS, SECTIONS
    from .science.results import dumps_signed
    from .science.run import Run
    check_params(EXPERIMENTS)       # a parameter of the wrong type: at its line, not deep in a job
    cache = Cache(opts.cache_dir)
    store = ExperimentCache(cache)
    only = None if claims is None else \
        {n for c in claims for section in CLAIMS[c].sections for n in SECTIONS[section].needs}
    found: dict[int, dict[str, Any]] = {}
    runs: dict[int, Run] = {}
    for seed in seeds:
        data = cache.get("results", science_key(seed))
        if data is not None:
            found[seed] = _pick(json.loads(data)["claims"], claims)
        else:
            with _of_seed(seed):            # experiments the cache held are assembled here
                runs[seed] = Run(seed, store, only, watching)
    for seed, run in list(runs.items()):
        if run.finished:                    # every experiment it needs was cached
            with _of_seed(seed):
                found[seed] = _finish(cache, run, claims, dumps_signed)
            del runs[seed]
    if not runs:
        return found
    # seed by seed (the dearest job of each first), so seeds finish, and report, as it goes
    jobs = sorted(((seed, name, job) for seed, run in runs.items() for name, job in run.jobs),
                  key=lambda t: (t[0], -t[2].cost))
    t0 = time.perf_counter()
    from concurrent.futures import as_completed

    from .workers import Pool
    with Pool(opts.jobs) as pool:
        futures = {pool.submit(without_warnings, _call, job): (seed, name, job)
                   for seed, name, job in jobs}
        for future in as_completed(futures):
            seed, name, job = futures[future]
            run = runs[seed]
            with _of_seed(seed):
                run.done(name, job.key, future.result())
                if run.finished:
                    found[seed] = _finish(cache, run, claims, dumps_signed)
            if run.finished and len(found) % 10 == 0:
                log(f"  {len(found)} of {len(seeds)} seeds ({time.perf_counter() - t0:.0f} s)")
    return found


@contextmanager
def _of_seed(seed: int) -> Iterator[None]:
    """A warning raised by a job (in a worker) or by an experiment's assembly, a section or
    a claim (here) of `seed` is an error at that code's line, as in a build
    (science.warned.warned_at), which also names the seed and how to run it alone."""
    try:
        yield
    except (JobWarningError, ScienceWarningError) as e:
        raise JobWarningError(e.path, e.line, f"{e.message}; seed {seed} of the sweep: "
                              f"'{BUILD_COMMAND} --seed {seed}' builds it alone") from None
    except (Exception, SystemExit) as e:    # a mistake in an experiment module's code
        placed = placed_error(e)
        if placed is None:
            raise
        raise JobWarningError(placed.path, placed.line, f"{placed.message}; seed {seed} of "
                              f"the sweep: '{BUILD_COMMAND} --seed {seed}' builds it alone"
                              ) from None


def _pick(claims: dict[str, Any], names: list[str] | None) -> dict[str, Any]:
    return claims if names is None else {n: claims[n] for n in names}


def _finish(cache: Cache, run: Any, claims: list[str] | None,
            dumps_signed: Callable[[dict[str, Any]], str]) -> dict[str, Any]:
    """A finished run's claims; a complete run's results are cached as a build's are."""
    results: dict[str, Any] = run.results(claims)
    if claims is None:
        cache.put("results", science_key(run.seed), dumps_signed(results).encode("utf-8"))
    return dict(results["claims"])


def summarise(per_seed: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """sweep.json: per claim, how many seeds it held in, the worst value seen and the
    digest of the code it depends on (claim_code)."""
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
                     "statement": first["statement"], "code": claim_code(name)}
    return _totals({"n_seeds": len(seeds), "first_seed": seeds[0], "last_seed": seeds[-1],
                    "claims": out})


def _totals(summary: dict[str, Any]) -> dict[str, Any]:
    shares = [c["share"] for c in summary["claims"].values()]
    return {**summary, "min_share": min(shares), "all_held": all(s == 1 for s in shares),
            "n_claims": len(shares)}


def table(summary: dict[str, Any], names: list[str] | None = None) -> str:
    """The sweep as a text table: claim, seeds where it held, worst value, bound."""
    rows = [("claim", "held", "worst value", "bound")]
    for name, c in summary["claims"].items():
        if names is None or name in names:
            rows.append((name, f"{c['held']}/{summary['n_seeds']}",
                         f"{c['worst']:.4g} ({c['unit']})", f"{c['op']} {c['bound']:g}"))
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


BUILD_COMMAND = ".venv/bin/python build.py"   # as the README and the Makefile run it (build.py
# is not executable, and the system's python lacks the pinned packages)


def refresh_command(n_seeds: int, claims: list[str]) -> str:
    """The command that recomputes only `claims` over `n_seeds` seeds, as an author types it
    in the project folder."""
    return f"{BUILD_COMMAND} --sweep {n_seeds} --claims {','.join(claims)}"


def sweep(opts: BuildOptions, n: int, log: Callable[[str], None] = print,
          claims: list[str] | None = None) -> str:
    """Run seeds 1…n, write opts.sweep_file, return the table (see the module docstring).
    With `claims`, only those claims' entries are recomputed and the others kept: the file
    must then hold a sweep of the same n seeds (BuildError otherwise, or for an unknown
    claim name). Holds the locks a build takes of the folders it writes (the cache, where
    each seed's results go, and the figures folder, which holds sweep.json), waiting for a
    build or another sweep that holds one: a sweep took none, and wrote the cache entries
    and sweep.json while a build or another sweep read and wrote them (a build pruning the
    cache under it; the last sweep to finish replacing the other's file, a `--claims` sweep
    keeping entries of the file as it was before the other's)."""
    from .web.output import out_lock
    with out_lock(opts.figures_dir, opts.cache_dir, log, opts.sweep_file.parent,
                  waiting="for another build or sweep of this checkout to finish"):
        return _sweep(opts, n, log, claims)


def _sweep(opts: BuildOptions, n: int, log: Callable[[str], None],
           claims: list[str] | None) -> str:
    """`sweep`'s work, under its locks."""
    from .errors import BuildError, suggest
    from .science import registry
    from .science.registry import CLAIMS, SNIPPETS
    from .science.results import dumps_signed
    from .snippet_seeds import check_snippet_seeds
    registry.load()
    # a snippet that ignores the seed would give its claims one value (or noise) over the seeds
    check_snippet_seeds(s.path for s in SNIPPETS)
    old: dict[str, Any] = {}
    if claims is not None:
        for name in claims:
            if name not in CLAIMS:
                raise BuildError(opts.sweep_file, 0, f"--claims: no claim '{name}'; "
                                 + suggest(name, CLAIMS.names(), "claims"))
        old = read_sweep(opts.sweep_file) or {}
        if not old:         # `--sweep N --claims …` again would only say this again
            raise BuildError(opts.sweep_file, 0, f"--claims refreshes claims of a sweep over {n} "
                             "seeds, but there is no sweep; run "
                             f"'{BUILD_COMMAND} --sweep {n}' for every claim")
        if old.get("n_seeds") != n:
            raise BuildError(opts.sweep_file, 0, f"--claims refreshes claims of a sweep over {n} "
                             f"seeds, but the file holds {old['n_seeds']}; run "
                             f"'{BUILD_COMMAND} --sweep {old['n_seeds']} --claims …', "
                             f"or '{BUILD_COMMAND} --sweep {n}' for every claim")
    log(f"sweep: {n} seeds" + (f", claims {', '.join(claims)}" if claims else ""))
    summary = summarise(run_seeds(opts, list(range(1, n + 1)), log, claims))
    if claims is not None:
        kept = {k: v for k, v in old["claims"].items() if k in CLAIMS.names()}
        summary = _totals({**summary, "claims": dict(sorted({**kept, **summary["claims"]}
                                                             .items()))})
    check_sweep(summary)        # as outputs/sweep.py declares, or nothing is written
    write_if_changed(opts.sweep_file, dumps_signed(summary).encode("utf-8"))
    return table(summary, claims) + f"\n-> {opts.sweep_file}"


def read_sweep(path: Path) -> dict[str, Any] | None:
    """sweep.json without its digest, or None when missing. A file edited by hand, or not
    laid out as sqrtdk/science/outputs/sweep.py declares (written by older code), raises
    BuildError saying how to restore it (see refuse_edited, check_sweep)."""
    from .science.results import DIGEST
    text = refuse_edited(path, "rerun the sweep ('make sweep') and commit it")
    if text is None:
        return None
    data: dict[str, Any] = json.loads(text)
    data.pop(DIGEST, None)
    check_sweep(data, read_from=path)
    return data


def sweep_for_build(opts: BuildOptions, cache: Cache, staleness: bool = True) -> dict[str, Any]:
    """The claims over many seeds (opts.sweep_file), for the text to quote. Refused (BuildError)
    when edited by hand; a warning when missing, or naming the claims whose code or results
    changed since (claim_code) with the command that refreshes only them (`staleness=False`:
    not looked at, since it imports the experiments: the pages checked first only read the
    file). The stale claims are kept in the cache (unit "sweep") by the science code and the
    file's bytes."""
    from .log import warn
    path = opts.sweep_file
    sweep = read_sweep(path)
    if sweep is None:
        warn(LOGGER, path, 0, "no sweep of the claims over many seeds; restore the "
             f"committed one (git checkout -- {display_path(path)}) or compute it ('make "
             f"sweep', {BUILD_COMMAND} --sweep 100: a few minutes) and commit it")
        return {}
    if not staleness:
        return sweep
    key = key_for("sweep", tree_digest(PACKAGE_DIR / "science"), path, packages=SCIENCE_PACKAGES)
    stale = cache.get_object("sweep", key)  # the claims' keys import the experiments
    if not isinstance(stale, list):
        stale = stale_claims(sweep)
        cache.put_object("sweep", key, stale)
    if stale:
        entries = sweep.get("claims", {})
        n_seeds = int(sweep.get("n_seeds", 100))
        from .science import registry
        from .science.registry import CLAIMS
        registry.load()     # `stale` may come from the cache, with no experiment imported yet
        # every claim (a change to code they all import): the whole sweep, not a list of all
        # the names written into every line
        command = f"{BUILD_COMMAND} --sweep {n_seeds}" if set(stale) >= set(CLAIMS.names()) \
            else refresh_command(n_seeds, stale)
        # what the command costs, where it is given: an author who followed README's recipe
        # for a parameter was told what to run but not that it takes minutes, not seconds
        # (a seed's results are cached per experiment, so only the changed ones run again;
        # one seed of every experiment took 9.4 s on a shared two-core machine)
        cost = (f" (it reruns the changed experiments for each of the {n_seeds} seeds: "
                "minutes, not seconds; it prints its progress every 10 seeds)")
        # a command naming the claims is given once, at the first of their lines (as the
        # build sorts its warnings); the others point there (an experiment's edit made ~30
        # lines each carrying the same ~1,500-character command)
        lines = sorted((claim_line(name), name) for name in stale)
        first = lines[0][0]
        for where, name in lines:
            told = (f"claim '{name}' has no entry in {path.name} (registered since the sweep "
                    "was computed)" if not isinstance(entries.get(name), dict) else
                    f"the sweep of claim '{name}' in {path.name} was computed by other code "
                    "or results than today's")
            run = (f"run '{command}'{cost if where == first else ''}"
                   if where == first or "--claims" not in command else
                   f"run the command the warning at {display_path(first[0])}:{first[1]} "
                   f"gives (it refreshes {len(lines)} claims, this one among them)")
            warn(LOGGER, *where, f"{told}; {run} and commit {display_path(path)}")
    return sweep
