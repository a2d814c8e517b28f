"""The benchmark's table (printed and as JSON) and the issue's targets with PASS/MISS."""
from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any

from timing import Series

CASES = (("cold", "cold build (empty cache)"), ("unchanged", "unchanged rebuild"),
         ("text_edit", "text-only edit"), ("serve", "serve: edit -> page shows it"))
TOOLS = (("ours", "ours"), ("mkdocs", "MkDocs+Material"), ("hugo", "Hugo"))
TARGETS = (("unchanged", 0.25), ("text_edit", 0.25), ("cold", 3.0), ("serve", 1.0))  # issue 3, item 7


@dataclass
class Results:
    """Every series measured, by tool then case, plus why a tool or case is missing."""

    series: dict[str, dict[str, Series]] = field(default_factory=dict)
    missing: dict[str, str] = field(default_factory=dict)   # "hugo" or "ours.serve" -> reason

    def get(self, tool: str, case: str) -> Series | None:
        return self.series.get(tool, {}).get(case)


def _cell(s: Series | None) -> str:
    return f"{s.median:7.3f} s [{s.low:.3f}–{s.high:.3f}]" if s else "—"


def _ratio(ours: Series | None, theirs: Series | None) -> float | None:
    return ours.median / theirs.median if ours and theirs and theirs.median > 0 else None


def rows(res: Results) -> list[dict[str, Any]]:
    """One row per case: each tool's median/min/max/runs and the ratios ours/theirs."""
    out = []
    for case, label in CASES:
        row: dict[str, Any] = {"case": case, "label": label}
        for tool, _ in TOOLS:
            s = res.get(tool, case)
            row[tool] = s.as_json() if s else None
            if tool != "ours":
                r = _ratio(res.get("ours", case), s)
                row[f"ours_over_{tool}"] = round(r, 3) if r is not None else None
        out.append(row)
    return out


def table(res: Results) -> str:
    """The table as text: median [min–max] per tool, and ratios ours/theirs."""
    head = f"{'case':<30} {'ours':>26} {'MkDocs+Material':>26} {'ours/MkDocs':>11} " \
           f"{'Hugo':>26} {'ours/Hugo':>9}"
    lines = [head, "-" * len(head)]
    for case, label in CASES:
        ours = res.get("ours", case)
        mk, hu = res.get("mkdocs", case), res.get("hugo", case)
        rm, rh = _ratio(ours, mk), _ratio(ours, hu)
        lines.append(f"{label:<30} {_cell(ours):>26} {_cell(mk):>26} "
                     f"{(f'{rm:.2f}' if rm else '—'):>11} {_cell(hu):>26} "
                     f"{(f'{rh:.2f}' if rh else '—'):>9}")
    return "\n".join(lines)


def targets(res: Results) -> list[dict[str, Any]]:
    """The issue's targets against our medians: PASS, MISS, or not measured."""
    out = []
    for case, limit in TARGETS:
        s = res.get("ours", case)
        verdict = "not measured" if s is None else ("PASS" if s.median <= limit else "MISS")
        out.append({"case": case, "limit_s": limit,
                    "median_s": round(s.median, 6) if s else None, "verdict": verdict})
    return out


def targets_text(res: Results) -> str:
    """One line per target."""
    labels = dict(CASES)
    lines = []
    for t in targets(res):
        shown = "—" if t["median_s"] is None else f"{t['median_s']:.3f} s"
        lines.append(f"{labels[t['case']]:<30} ≤ {t['limit_s']:.2f} s   {shown:>9}   {t['verdict']}")
    return "\n".join(lines)


def stages_text(res: Results) -> str:
    """Our build's own stage times (medians, inside the process) per case; the rest of the wall
    time is interpreter start-up, imports and exit."""
    lines = []
    for case, label in CASES:
        s = res.get("ours", case)
        if s is None or not s.stages:
            continue
        total = s.stages.get("total")
        outside = f"; outside the stages {s.median - total:.3f} s" if total is not None else ""
        parts = ", ".join(f"{k} {v:.3f}" for k, v in s.stages.items() if k != "total")
        lines.append(f"{label:<30} {parts}{outside}")
    return "\n".join(lines)


def cpu_text(res: Results) -> str:
    """Median CPU seconds (user + sys, worker processes included) per case and tool: unlike wall
    time, hardly changed by other load; on 2 cores, wall time cannot go below about half of it."""
    lines = [f"{'case':<30} " + " ".join(f"{label:>16}" for _, label in TOOLS)]
    for case, label in CASES[:3]:
        cells = []
        for tool, _ in TOOLS:
            s = res.get(tool, case)
            cells.append(f"{statistics.median(s.cpu):14.3f} s" if s and s.cpu else f"{'—':>16}")
        lines.append(f"{label:<30} " + " ".join(cells))
    return "\n".join(lines)
