"""The "reproduce it" boxes: a few lines of numpy per experiment that the page shows and the
build runs, so the code a reader sees is the code that ran.

Each snippet is a file in `snippets/`, runnable on its own. The build replaces the number on
its `SEED = …` line with the build's seed, runs exactly that text, and stores both the text
and what it printed in results.json["reproduce"]. The snippets are registered in
`reproduce_boxes.py`, which this module does not import: a claim on one snippet's printout
depends on this code and that snippet (sweep.claim_code), not on the list of the others.
"""
from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .registry import EXPERIMENTS, SECTIONS, SNIPPETS, Experiment, Job, Section

SNIPPET_DIR = Path(__file__).resolve().parent / "snippets"
_SEED_LINE = re.compile(r"^SEED = \d+(?=[ \t]*(?:#.*)?$)", re.M)



def with_seed(code: str, seed: int) -> str:
    """The snippet's text with the build's seed on its `SEED = …` line (if it has one)."""
    return _SEED_LINE.sub(f"SEED = {seed}", code)


def run_snippet(path: Path, seed: int) -> tuple[str, str]:
    """Run the snippet at `path` with `seed` as a script (`__name__ == "__main__"`); returns
    (the exact code that ran, what it printed)."""
    code = with_seed(path.read_text(encoding="utf-8"), seed)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(path), "exec"), {"__name__": "__main__"})  # noqa: S102 - ours
    return code, out.getvalue()


def _jobs(params: None, seed: int) -> list[Job]:
    return [Job(s.name, run_snippet, (s.path, seed), cost=s.cost) for s in SNIPPETS]


def _assemble(params: None, out: Mapping[Any, Any]) -> dict[str, tuple[str, str]]:
    return {name: out[name] for name in SNIPPETS.names()}


EXPERIMENTS.register(Experiment("reproduce", None, _jobs, _assemble))


def reproduce_section(data: Mapping[str, Any]) -> dict[str, Any]:
    """results.json["reproduce"]: per snippet its code (with the seed), its output and the
    experiment module it reproduces."""
    ran: dict[str, tuple[str, str]] = data["reproduce"]
    return {s.name: {"code": ran[s.name][0], "stdout": ran[s.name][1],
                     "file": f"snippets/{s.path.name}", "source": s.source} for s in SNIPPETS}


SECTIONS.register(Section("reproduce", ("reproduce",), reproduce_section))
