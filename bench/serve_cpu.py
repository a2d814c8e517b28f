#!/usr/bin/env python3
"""Where a warm `--serve` rebuild spends its CPU time after a text edit, step by step.

Usage (after `make site`): .venv/bin/python bench/serve_cpu.py [--runs N]

On a copy of the project (with a copy of the repository's `.cache`, so only the edit is new),
`--serve`'s own loop (one warm Builder, `memory=True`) builds once, then N times appends a
sentence to the English article, runs the fast path (the edited blocks, sent ahead of the
build: sqrtdk/web/serve_fast.py) and builds again. Named steps of the build are timed from
the inside (wrapped in place; a step that no longer exists under its name is left out) and
printed as the median CPU seconds per rebuild (`time.process_time`: this process only, so
hardly changed by other load, unlike wall time), with the wall time beside. Steps nest: a
step's time includes the steps called inside it. `sent` is the part before the pages leave
for the open tabs (the Builder's `on_site` hook); the floor's CPU time (bench/floor.py, a
fresh process) is printed for comparison.
"""
from __future__ import annotations

import argparse
import functools
import importlib
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from workspace import BENCH_DIR, PROJECT_PYTHON, ROOT, append_sentence, copy_project

# (module, attribute path, label): the steps of a text edit's rebuild, in build order
STEPS = (
    ("sqrtdk.web.serve", "_Loop._fast", "fast path, ahead of the build"),
    ("sqrtdk.web.serve_fast", "convert_blocks", "  the edited blocks converted"),
    ("sqrtdk.unchanged", "build_inputs", "build key (digest of the sources)"),
    ("sqrtdk.pipeline", "Builder.read_inputs", "inputs (TOML, ui strings)"),
    ("sqrtdk.pipeline", "Builder.check_first", "pages + site, checked first"),
    ("sqrtdk.web.pages", "build_page", "  one article, read and converted"),
    ("sqrtdk.web.pages", "mask", "    lexer (math and code out)"),
    ("sqrtdk.web.quoting", "Quoter.render_prose", "    quoted results"),
    ("markdown", "Markdown.convert", "    Python-Markdown's convert"),
    ("sqrtdk.web.checks", "check_parity", "  parity of the languages"),
    ("sqrtdk.web.assemble", "render_site", "  templates, every page"),
    ("sqrtdk.web.assemble", "typeset", "    math (the engine, cached)"),
    ("sqrtdk.web.assemble", "fill_tables", "    figure tables"),
    ("sqrtdk.web.assemble", "_fill", "    formulas and quotes filled in"),
    ("sqrtdk.web.checks", "check_site", "  links and ids of the site"),
    ("sqrtdk.pipeline", "Builder.science", "science (cached)"),
    ("sqrtdk.pipeline", "Builder.figures", "figures (cached)"),
    ("sqrtdk.pipeline", "Builder.publish", "publish"),
    ("sqrtdk.pipeline", "Builder.write", "write (after the pages are sent)"),
)
TIMES: dict[str, list[tuple[float, float]]] = {}


def _wrap(module: str, attr: str, label: str) -> bool:
    """Time every call of `module.attr` under `label`; False when it does not exist."""
    try:
        owner: Any = importlib.import_module(module)
        *path, name = attr.split(".")
        for part in path:
            owner = getattr(owner, part)
        fn = getattr(owner, name)
    except (ImportError, AttributeError):
        return False

    @functools.wraps(fn)
    def timed(*args: Any, **kwargs: Any) -> Any:
        cpu, wall = time.process_time(), time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            TIMES.setdefault(label, []).append((time.process_time() - cpu,
                                                time.perf_counter() - wall))
    setattr(owner, name, timed)
    return True


def _floor_cpu(project: Path, out: Path, runs: int) -> float:
    """Median CPU seconds of the floor (a fresh process), over `runs` runs."""
    cpu = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([str(PROJECT_PYTHON), str(BENCH_DIR / "floor.py"), str(project),
                        str(out)], check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return statistics.median(cpu)


def measure(project: Path, runs: int) -> list[str]:
    """The table's lines for `runs` rebuilds of `project` after a text edit each."""
    os.chdir(project)
    sys.path.insert(0, str(project))
    from sqrtdk.options import BuildOptions
    from sqrtdk.web.serve import _Loop
    from sqrtdk.web.serve_http import BuildState
    missing = [label for module, attr, label in STEPS if not _wrap(module, attr, label)]
    loop = _Loop(BuildOptions.for_project(project), BuildState(), lambda line: None)
    sent: list[tuple[float, float]] = []
    mark = [time.process_time(), time.perf_counter()]
    ready = loop._ready

    def on_site(site: Any) -> None:
        sent.append((time.process_time() - mark[0], time.perf_counter() - mark[1]))
        ready(site)
    loop.builder.on_site = on_site
    totals: list[tuple[float, float]] = []
    article = (project / "content" / "en" / "index.md").resolve()
    try:
        loop.build(reload=True)
        TIMES.clear()
        sent.clear()
        for i in range(runs):
            append_sentence(article, f"cpu {i}")
            mark[:] = [time.process_time(), time.perf_counter()]
            loop._fast([article])
            loop.build(reload=False)
            totals.append((time.process_time() - mark[0], time.perf_counter() - mark[1]))
    finally:
        loop.builder.close()
    rows = [("fast path + rebuild, whole", totals), ("  until the pages are sent", sent)]
    rows += [(label, TIMES[label]) for _, _, label in STEPS if label in TIMES]
    lines = [f"{'step (median per rebuild)':<40} {'CPU ms':>8} {'wall ms':>8}"]
    for label, runs_of in rows:
        per = len(runs_of) / max(1, len(totals))    # calls per rebuild
        cpu = statistics.median(c for c, _ in runs_of) * per * 1000
        wall = statistics.median(w for _, w in runs_of) * per * 1000
        lines.append(f"{label:<40} {cpu:8.1f} {wall:8.1f}")
    lines += [f"not found (renamed?): {label.strip()}" for label in missing]
    return lines


def main() -> int:
    """Copy the project, time the rebuilds, print the table."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=7, help="rebuilds timed (default 7)")
    args = p.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="sqrtdk-serve-cpu-"))
    try:
        project = copy_project(tmp / "project")
        if (ROOT / ".cache").is_dir():
            shutil.copytree(ROOT / ".cache", project / ".cache", symlinks=True)
        floor = _floor_cpu(project, tmp / "floor" / "index.html", args.runs)
        lines = measure(project, args.runs)
    finally:
        os.chdir(ROOT)
        shutil.rmtree(tmp, ignore_errors=True)
    print("\n".join(lines))
    print(f"{'floor (fresh process), for comparison':<40} {floor * 1000:8.1f}")
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
