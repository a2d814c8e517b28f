"""Running the science half for one seed: jobs out, results.json in.

`Run` knows which jobs every registered experiment needs and, as their outputs arrive in any
order, assembles each experiment and builds each results section as soon as everything it
needs is there (so the pipeline can start drawing a figure while other experiments still
run). `run_all` is the same thing, one job after the other.

An `ExperimentStore` (the build's cache, keyed on each experiment module's own code) hands
back experiments assembled before: only the others run, so a change to one experiment module
reruns only it, and the sections and claims are rebuilt from the assembled outputs.
"""
from __future__ import annotations

import math
import platform
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from contextlib import AbstractContextManager, nullcontext
from importlib import metadata
from typing import Any, Protocol

from . import registry
from .grid import BAR_SECTION, bar_indices
from .registry import CLAIMS, EXPERIMENTS, SECTIONS, Claim, Experiment, Job
from .results import SCHEMA, canonical
from .warned import error_at, warned_at

Watch = Callable[[Callable[..., Any], str], AbstractContextManager[Any]]
"""What the build wraps each call of an author's function run here (an experiment's `jobs`
and assembly, a results section, a claim) in: given the function and what it is ("claim
'x'"), a context manager (the build's names one still running after a while). This package
imports nothing else of the build's, so the build hands it in."""


def _unwatched(fn: Callable[..., Any], what: str) -> AbstractContextManager[Any]:
    return nullcontext()


class ExperimentStore(Protocol):
    """Where assembled experiments are kept between runs (the build's cache)."""

    def get(self, exp: Experiment, seed: int) -> tuple[Any] | None:
        """(assembled,) for `exp` at `seed` if stored for its current code, else None."""

    def put(self, exp: Experiment, seed: int, assembled: Any) -> None:
        """Keep what `exp.assemble` returned for `seed`."""


class Run:
    """The state of one seed's experiments; feed it outputs with `done`. With `store`,
    experiments it holds are not run; `only` limits the run to the named experiments (and
    the sections built from them alone). `watch` wraps each call of the author's code here
    (see Watch; none by default)."""

    def __init__(self, seed: int, store: ExperimentStore | None = None,
                 only: set[str] | None = None, watch: Watch = _unwatched) -> None:
        registry.load()
        self.seed, self.store, self.watch = seed, store, watch
        self.jobs: list[tuple[str, Job]] = []
        self.waiting: dict[str, set[Hashable]] = {}
        self.outputs: dict[str, dict[Hashable, Any]] = {}
        self.assembled: dict[str, Any] = {}
        self.sections: dict[str, dict[str, Any]] = {}
        names = set(EXPERIMENTS.names()) if only is None else only
        self.wanted = [s.name for s in SECTIONS if set(s.needs) <= names]
        for exp in (e for e in EXPERIMENTS if e.name in names):
            stored = store.get(exp, seed) if store is not None else None
            if stored is not None:
                self.assembled[exp.name] = stored[0]
                self.waiting[exp.name] = set()
                continue
            with watch(exp.jobs, f"the jobs of experiment '{exp.name}'"):
                jobs = exp.jobs(exp.params, seed)
            self.jobs += [(exp.name, j) for j in jobs]
            self.waiting[exp.name] = {j.key for j in jobs}
            self.outputs[exp.name] = {}
            if len(self.waiting[exp.name]) < len(jobs):
                raise ValueError(f"experiment '{exp.name}' has two jobs with the same key")
        self.jobs.sort(key=lambda nj: -nj[1].cost)   # the largest first: workers end together
        for section in SECTIONS:
            missing = [n for n in section.needs if n not in EXPERIMENTS]
            if missing:
                import difflib
                close = difflib.get_close_matches(missing[0], EXPERIMENTS.names(), n=1)
                raise error_at(section.build, f"results section '{section.name}' is built "
                               f"from the experiment '{missing[0]}' (its Section's needs), "
                               "which is not registered; " + (
                                   f"did you mean '{close[0]}'?" if close else "the "
                                   f"experiments are {', '.join(EXPERIMENTS.names())}"))
            if section.name in ("claims", "meta", "sweep"):
                raise ValueError(f"'{section.name}' is a reserved name in results.json")
        for name in list(self.waiting):     # stored, or without jobs: complete already
            if not self.waiting[name]:
                self._assemble(name)

    def done(self, experiment: str, key: Hashable, output: Any) -> list[str]:
        """Record one job's output; returns the sections this completed (already built).
        Raises KeyError for a job that is not waiting (unknown, or reported twice)."""
        if key not in self.waiting[experiment]:
            raise KeyError(f"experiment '{experiment}' is not waiting for job {key!r}")
        self.outputs[experiment][key] = output
        self.waiting[experiment].discard(key)
        if self.waiting[experiment]:
            return []
        return self._assemble(experiment)

    def _assemble(self, experiment: str) -> list[str]:
        exp = EXPERIMENTS[experiment]
        if experiment not in self.assembled:
            outputs = self.outputs.pop(experiment)
            self.assembled[experiment] = _placed(
                self.watch, exp.assemble, f"the assembly of experiment '{experiment}'",
                exp.params, outputs)
            if self.store is not None:
                self.store.put(exp, self.seed, self.assembled[experiment])
        built = []
        for section in (SECTIONS[name] for name in self.wanted):
            ready = all(n in self.assembled for n in section.needs)
            if section.name not in self.sections and ready:
                what = f"results section '{section.name}'"
                self.sections[section.name] = _stored(
                    section.build, what, _placed(self.watch, section.build, what,
                                                  self.assembled))
                built.append(section.name)
        return built

    @property
    def finished(self) -> bool:
        """Whether every section has been built."""
        return len(self.sections) == len(self.wanted)

    def results(self, claims: list[str] | None = None) -> dict[str, Any]:
        """results.json: every section, the claims evaluated on them (`claims`: only
        those), and `meta`."""
        if not self.finished:
            raise RuntimeError("not every experiment has finished")
        out: dict[str, Any] = dict(self.sections)
        out["claims"] = evaluate_claims(out, claims, self.watch)
        out["meta"] = canonical(meta(self.seed))
        return out


def meta(seed: int) -> dict[str, Any]:
    """What produced the numbers: schema, seed, generator, versions, each quantity's bounds
    (`section.pattern` -> [low, high]) for the prose's honest rounding, and the results kept
    as evidence only (Section.evidence)."""
    bounds = {f"{s.name}.{pattern}": list(b) for s in SECTIONS for pattern, b in s.bounds.items()}
    evidence = sorted(f"{s.name}.{path}" for s in SECTIONS for path in s.evidence)
    return {"schema": SCHEMA, "seed": seed, "generator": "numpy PCG64 (default_rng)",
            "python": platform.python_version(), "numpy": metadata.version("numpy"),
            "bounds": bounds, "evidence": evidence}


def evaluate_claims(sections: dict[str, Any], names: list[str] | None = None,
                    watch: Watch = _unwatched) -> dict[str, Any]:
    """Every registered claim (or those in `names`) on `sections`: held, value, op, bound,
    statement, unit, section and the result paths it read; for an `each_dk` claim also the
    dₖ of the page's bar it was checked at (`d_k`) and its value at each (`values`), its
    `value` the worst of them (empty lists for the others). `watch` wraps each claim's call
    (see Watch)."""
    out = {}
    for claim in (c for c in CLAIMS if names is None or c.name in names):
        for name in claim.sections:
            if name not in sections:
                import difflib
                close = difflib.get_close_matches(name, list(sections), n=1)
                raise error_at(claim.value, f"claim '{claim.name}' reads the results section "
                               f"'{name}', which no experiment makes; "
                               + (f"did you mean '{close[0]}'?" if close else
                                  f"the sections are {', '.join(sorted(sections))}"))
        reads: set[str] = set()
        section = sections[claim.section]
        what = f"claim '{claim.name}'"
        d_k: list[int] = []
        values: list[float] = []
        if claim.each_dk:
            grid = sections[BAR_SECTION]
            for i in bar_indices(grid["d_k"], grid["d_small"], grid["d_large"]):
                d_k.append(grid["d_k"][i])
                values.append(_number(claim, _placed(
                    watch, claim.value, what, _Reads(section, claim.section, reads), i)))
            value = claim.worst(values)
        else:
            value = _number(claim, _placed(
                watch, claim.value, what, _Reads(section, claim.section, reads)))
        out[claim.name] = {"held": claim.holds(value), "value": value, "op": claim.op,
                           "bound": claim.bound, "statement": claim.statement,
                           "unit": claim.unit, "section": claim.section,
                           "reads": sorted(reads), "d_k": d_k, "values": values}
    result: dict[str, Any] = canonical(out)
    return result


def _stored(build: Callable[..., Any], what: str, value: Any) -> dict[str, Any]:
    """What a section's `build` returned, as results.json stores it (results.canonical);
    a value that is not a dict of storable results (None, a list; a nan, an inf, a complex
    number or an object inside it) is an error at `build`'s line, naming where it is."""
    if not isinstance(value, Mapping):
        raise error_at(build, f"{what} returns {type(value).__name__} {_short(value)}, not a "
                       "dict of its results; return a dict, a key per result its module in "
                       "sqrtdk/science/outputs/ declares")
    try:
        out: dict[str, Any] = canonical(dict(value))
    except (TypeError, ValueError) as e:
        raise error_at(build, f"{what} returns what results.json cannot hold: {e}; return "
                       "finite numbers, text, lists and dicts of them (a nan or an inf "
                       "comes from the computation: a seed or a parameter reaches it)"
                       ) from None
    return out


def _number(claim: Claim, value: Any) -> float:
    """A claim's value as stored (rounded as results.json rounds it); anything but a finite
    real number (None, text, a bool, an array, a nan or an inf) is an error at the line of
    the claim's function: a bool would be compared with the bound as 0 or 1, so a claim
    that fails could hold."""
    said = f"claim '{claim.name}' computes {type(value).__name__} {_short(value)}"
    if isinstance(value, bool) or getattr(getattr(value, "dtype", None), "kind", "") == "b":
        raise error_at(claim.value, f"{said}, a yes or no, not the number its bound "
                       f"'{claim.op} {claim.bound}' is compared with (a bool counts as 0 or "
                       "1 there, so a claim that fails could hold); return the number itself")
    kind = getattr(getattr(value, "dtype", None), "kind", "")
    real = isinstance(value, (int, float)) or (kind in ("i", "u", "f")
                                               and getattr(value, "ndim", 1) == 0)
    if not real:
        raise error_at(claim.value, f"{said}, not one number; return the float its bound "
                       f"'{claim.op} {claim.bound}' is compared with")
    number = float(value)
    if not math.isfinite(number):
        raise error_at(claim.value, f"{said}, which neither holds nor fails its bound "
                       f"'{claim.op} {claim.bound}'; fix the computation (a seed or a "
                       "parameter reaches it)")
    stored: float = canonical(number)
    return stored


def _short(value: Any) -> str:
    text = repr(value)
    return f"({text[:40]}…)" if len(text) > 40 else f"({text})"


def _placed(watch: Watch, fn: Callable[..., Any], what: str, *args: Any) -> Any:
    """`fn(*args)`, run in the build's process inside `watch(fn, what)`; a warning while it
    runs (numpy's RuntimeWarning: an inf or nan in the results) is an error at `fn`'s line
    (warned.warned_at), as a job's is, not Python's raw lines without the place."""
    with watch(fn, what):
        return warned_at(fn, what, lambda: fn(*args))


def _call(job: Job) -> Any:
    return job.fn(*job.args)


def run_all(seed: int, map_fn: Callable[[Callable[[Job], Any], Iterable[Job]], Iterable[Any]]
            = map, store: ExperimentStore | None = None, watch: Watch = _unwatched
            ) -> dict[str, Any]:
    """Every experiment for `seed`, through `map_fn` (a pool's map spreads them over cores;
    the numbers do not depend on it: each job draws from its own named stream); with
    `store`, only the experiments it does not hold run; `watch` wraps each call of the
    author's code run here (see Watch)."""
    run = Run(seed, store, watch=watch)
    names = [name for name, _ in run.jobs]
    jobs = [job for _, job in run.jobs]
    for name, job, output in zip(names, jobs, map_fn(_call, jobs)):
        run.done(name, job.key, output)
    return run.results()


class _Reads(Mapping[str, Any]):
    """A results section as a claim sees it: reads pass through, and the dotted path of every
    value read (not of the tables on the way) is added to `log` (results.json records it, so
    the build can tell a result nothing uses)."""

    def __init__(self, data: Mapping[str, Any], path: str, log: set[str]):
        self._data, self._path, self._log = data, path, log

    def __getitem__(self, key: str) -> Any:
        value = self._data[key]
        path = f"{self._path}.{key}"
        if isinstance(value, Mapping):
            return _Reads(value, path, self._log)
        self._log.add(path)
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)
