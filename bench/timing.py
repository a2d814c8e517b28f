"""Timing helpers: run a whole process several times and keep every wall-clock time.

Every measurement is `time.perf_counter()` around `subprocess.run`, so it includes interpreter
start-up and imports, as an author at the terminal experiences them.
"""
from __future__ import annotations

import re
import resource
import statistics
import subprocess
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path


class CommandFailed(RuntimeError):
    """A timed command exited non-zero; the message carries the tail of its output."""


@dataclass
class Series:
    """The wall-clock times (s) of one case, in run order."""

    times: list[float] = field(default_factory=list)
    note: str = ""
    cpu: list[float] = field(default_factory=list)        # user + sys s of each run, children too
    outputs: list[str] = field(default_factory=list)      # stdout of each timed run
    stages: dict[str, float] = field(default_factory=dict)  # median seconds per reported stage
    extras: dict[str, list[float]] = field(default_factory=dict)  # other per-run measures

    @property
    def median(self) -> float:
        return statistics.median(self.times)

    @property
    def low(self) -> float:
        return min(self.times)

    @property
    def high(self) -> float:
        return max(self.times)

    def as_json(self) -> dict:
        """Median, min, max and every run, rounded to the microsecond."""
        return {"median_s": round(self.median, 6), "min_s": round(self.low, 6),
                "max_s": round(self.high, 6), "runs": [round(t, 6) for t in self.times],
                **({"cpu_median_s": round(statistics.median(self.cpu), 6)} if self.cpu else {}),
                **({"note": self.note} if self.note else {}),
                **({"stages_median_s": self.stages} if self.stages else {}),
                **({"per_run": self.extras} if self.extras else {})}


def run_checked(cmd: Sequence[str], cwd: Path, timeout: float = 600,
                env: dict[str, str] | None = None, exit_code: int = 0,
                says: re.Pattern[str] | None = None) -> subprocess.CompletedProcess:
    """Run `cmd`, capturing its output; raise CommandFailed (with the last lines) unless it
    exits with `exit_code` (and, if given, its stderr matches `says`)."""
    try:
        proc = subprocess.run(list(cmd), cwd=cwd, capture_output=True, text=True,
                              timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        raise CommandFailed(f"{Path(cmd[0]).name}: no answer within {timeout:.0f} s") from None
    except OSError as e:
        raise CommandFailed(f"{Path(cmd[0]).name}: {e}") from None
    if proc.returncode != exit_code or (says is not None and not says.search(proc.stderr)):
        tail = "\n".join((proc.stderr or proc.stdout).strip().splitlines()[-8:])
        raise CommandFailed(f"{Path(cmd[0]).name} exited {proc.returncode} (expected "
                            f"{exit_code}):\n{tail}")
    return proc


@dataclass
class Case:
    """One timed case of one tool: the command, where it runs, and what `before(i)` (untimed)
    does before run i (i < 0 for warm-up runs): clear a cache, edit a file."""

    cmd: Sequence[str]
    cwd: Path
    before: Callable[[int], None] | None = None
    note: str = ""
    exit_code: int = 0                    # what the command must exit with
    says: re.Pattern[str] | None = None   # what its stderr must then say


def time_interleaved(cases: dict[str, Case], runs: int, warmup: int = 1,
                     failed: dict[str, str] | None = None) -> dict[str, Series]:
    """Time every tool's case round-robin (run i of each tool, then run i + 1 …), so that a
    burst of load from elsewhere hits all tools alike and the ratios stay fair.

    A tool whose command fails is dropped and its error recorded in `failed`.
    """
    series = {tool: Series(note=case.note) for tool, case in cases.items()}
    for i in range(-warmup, runs):
        for tool, case in cases.items():
            if tool not in series:
                continue
            try:
                if case.before is not None:
                    case.before(i)
                cpu0, t0 = children_cpu(), time.perf_counter()
                proc = run_checked(case.cmd, case.cwd, exit_code=case.exit_code,
                                   says=case.says)
                elapsed, cpu = time.perf_counter() - t0, children_cpu() - cpu0
            except (CommandFailed, OSError) as e:
                del series[tool]
                if failed is not None:
                    failed[tool] = str(e)
                continue
            if i >= 0:
                series[tool].times.append(elapsed)
                series[tool].cpu.append(cpu)
                series[tool].outputs.append(proc.stdout)
    return series


def children_cpu() -> float:
    """CPU seconds (user + sys) of all finished child processes so far, and of their children
    that they waited for (a build's worker pool counts)."""
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime
