"""Our build, timed as a whole process on a copy of the project: cold, unchanged, text edit."""
from __future__ import annotations

import re
import statistics
import subprocess
from pathlib import Path

from timing import Case
from workspace import EDITED_ARTICLE, PROJECT_PYTHON, append_sentence, remove_tree

CACHE = ".cache"   # the build's cache folder inside a project copy (sqrtdk.config.CACHE_DIR)
_STAGE = re.compile(r"^(\w+)\s+([\d.]+) s\b", re.M)   # the build's own `stage  0.123 s` lines


def build_command(out: Path) -> list[str]:
    """`python build.py --out OUT` with the project's interpreter."""
    return [str(PROJECT_PYTHON), "build.py", "--out", str(out)]


def help_text(project: Path) -> str:
    """`build.py --help`, to see which options exist (--serve, --port, --no-cache …)."""
    proc = subprocess.run([str(PROJECT_PYTHON), "build.py", "--help"], cwd=project,
                          capture_output=True, text=True, timeout=120)
    return proc.stdout


def cases(project: Path, out: Path) -> dict[str, Case]:
    """The three build cases on `project` (a copy: its article gets edited)."""
    cmd = build_command(out)

    def cold(i: int) -> None:
        remove_tree(project / CACHE)   # experiments, figures and KaTeX all start afresh

    def edit(i: int) -> None:
        append_sentence(project / EDITED_ARTICLE, f"ours {i}")

    return {"cold": Case(cmd, project, cold, "empty cache folder each run (experiments, "
                                             "figures, KaTeX)"),
            "unchanged": Case(cmd, project),
            "text_edit": Case(cmd, project, edit, "a sentence appended to "
                                                  f"{EDITED_ARTICLE.as_posix()} before each run")}


def stage_medians(outputs: list[str]) -> dict[str, float]:
    """Median seconds of each stage the build reports (experiments, figures, … total), measured
    inside the process: the rest of the wall time is start-up, imports and exit."""
    per_stage: dict[str, list[float]] = {}
    for text in outputs:
        for name, secs in _STAGE.findall(text):
            per_stage.setdefault(name, []).append(float(secs))
    return {name: round(statistics.median(v), 4) for name, v in per_stage.items()}
