"""Running the science half for one seed: jobs out, results.json in.

`Run` knows which jobs every registered experiment needs and, as their outputs arrive in any
order, assembles each experiment and builds each results section as soon as everything it
needs is there (so the pipeline can start drawing a figure while other experiments still
run). `run_all` is the same thing, one job after the other.
"""
from __future__ import annotations

import math
import platform
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from importlib import metadata
from typing import Any

from . import registry
from .registry import CLAIMS, EXPERIMENTS, SECTIONS, Job
from .results import SCHEMA, canonical


class Run:
    """The state of one seed's experiments; feed it outputs with `done`."""

    def __init__(self, seed: int) -> None:
        registry.load()
        self.seed = seed
        self.jobs: list[tuple[str, Job]] = []
        self.waiting: dict[str, set[Hashable]] = {}
        self.outputs: dict[str, dict[Hashable, Any]] = {}
        self.assembled: dict[str, Any] = {}
        self.sections: dict[str, dict[str, Any]] = {}
        for exp in EXPERIMENTS:
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
                raise ValueError(f"section '{section.name}' needs unknown experiments {missing}")
            if section.name in ("claims", "meta", "sweep"):
                raise ValueError(f"'{section.name}' is a reserved name in results.json")
        for exp in EXPERIMENTS:             # an experiment without jobs is complete already
            if not self.waiting[exp.name]:
                self._assemble(exp.name)

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
        self.assembled[experiment] = exp.assemble(exp.params, self.outputs.pop(experiment))
        built = []
        for section in SECTIONS:
            ready = all(n in self.assembled for n in section.needs)
            if section.name not in self.sections and ready:
                self.sections[section.name] = canonical(section.build(self.assembled))
                built.append(section.name)
        return built

    @property
    def finished(self) -> bool:
        """Whether every section has been built."""
        return len(self.sections) == len(SECTIONS.names())

    def results(self) -> dict[str, Any]:
        """results.json: every section, the claims evaluated on them, and `meta`."""
        if not self.finished:
            raise RuntimeError("not every experiment has finished")
        out: dict[str, Any] = dict(self.sections)
        out["claims"] = evaluate_claims(out)
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


def evaluate_claims(sections: dict[str, Any]) -> dict[str, Any]:
    """Every registered claim on `sections`: held, value, op, bound, statement, unit."""
    out = {}
    for claim in CLAIMS:
        if claim.section not in sections:
            raise ValueError(f"claim '{claim.name}' reads unknown section '{claim.section}'")
        reads: set[str] = set()
        value = canonical(float(claim.value(_Reads(sections[claim.section], claim.section,
                                                   reads))))  # as stored
        if not math.isfinite(value):
            raise ValueError(f"claim '{claim.name}' computed {value!r}")
        out[claim.name] = {"held": claim.holds(value), "value": value, "op": claim.op,
                           "bound": claim.bound, "statement": claim.statement,
                           "unit": claim.unit, "section": claim.section,
                           "reads": sorted(reads)}
    result: dict[str, Any] = canonical(out)
    return result


def _call(job: Job) -> Any:
    return job.fn(*job.args)


def run_all(seed: int, map_fn: Callable[[Callable[[Job], Any], Iterable[Job]], Iterable[Any]]
            = map) -> dict[str, Any]:
    """Every experiment for `seed`, through `map_fn` (a pool's map spreads them over cores;
    the numbers do not depend on it: each job draws from its own named stream)."""
    run = Run(seed)
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
