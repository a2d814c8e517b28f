"""Our build, timed as a whole process on a copy of the project: cold, unchanged, text edit,
and a typo in a fresh clone with no cache (reported before any experiment or figure)."""
from __future__ import annotations

import os
import re
import shutil
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


QUOTE = re.compile(r"\{\{ ([a-z_]+)\.")   # a quoted result: `{{ section.name | …`
TYPO_MESSAGE = re.compile(r"\bcontent/en/index\.md:\d+: .*did you mean")


def typo_clone(project: Path, dest: Path) -> Path:
    """A git clone of `project` (committed as it is) whose English article misspells the
    section of its first quoted result, as an author's one-character typo would; node_modules
    linked. Its build must stop at that line before any experiment runs or figure is drawn."""
    git = {**os.environ, "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.org",
           "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.org"}
    if not (project / ".git").exists():
        for cmd in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "benchmarked"]):
            subprocess.run(["git", *cmd], cwd=project, check=True, env=git, capture_output=True)
    remove_tree(dest)
    subprocess.run(["git", "clone", "-q", str(project), str(dest)], check=True,
                   capture_output=True)
    if (project / "node_modules").exists():
        (dest / "node_modules").symlink_to((project / "node_modules").resolve())
    article = dest / EDITED_ARTICLE
    text = article.read_text(encoding="utf-8")
    m = QUOTE.search(text)
    if m is None:
        raise ValueError(f"{EDITED_ARTICLE} quotes no result to misspell")
    typo = m[1][:-1] if len(m[1]) > 2 else m[1] + "x"     # 'spread' -> 'sprea'
    article.write_text(text[:m.start(1)] + typo + text[m.end(1):], encoding="utf-8")
    return dest


def mistake_case(project: Path, clone: Path, out: Path) -> Case:
    """A typo in a fresh clone, its cache emptied before each run: the build must exit 1 with
    the article's line (checked on every run)."""
    typo_clone(project, clone)

    def fresh(i: int) -> None:
        remove_tree(clone / CACHE)
        shutil.rmtree(out, ignore_errors=True)

    return Case(build_command(out), clone, fresh, "typo in a fresh git clone, no cache: exit 1 "
                "at the article's line, no experiment or figure", exit_code=1,
                says=TYPO_MESSAGE)


def stage_medians(outputs: list[str]) -> dict[str, float]:
    """Median seconds of each stage the build reports (experiments, figures, … total), measured
    inside the process: the rest of the wall time is start-up, imports and exit."""
    per_stage: dict[str, list[float]] = {}
    for text in outputs:
        for name, secs in _STAGE.findall(text):
            per_stage.setdefault(name, []).append(float(secs))
    return {name: round(statistics.median(v), 4) for name, v in per_stage.items()}
