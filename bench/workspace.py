"""Where the benchmark works: a copy of the project, so edits never touch the real repository.

Every path the benchmark uses is named here, relative to the repository it runs from.
"""
from __future__ import annotations

import shutil
import socket
import subprocess
from pathlib import Path

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parent
OUT_DIR = BENCH_DIR / "out"                  # gitignored: throw-away venv, generated sites
RESULTS_JSON = OUT_DIR / "results.json"
TOOLS_VENV = OUT_DIR / "venv"
PROJECT_PYTHON = ROOT / ".venv" / "bin" / "python"
LANGUAGES = ("zh", "en")
EDITED_ARTICLE = Path("content") / "en" / "index.md"   # relative to a project copy


def copy_project(dest: Path, from_head: bool = False) -> Path:
    """Copy the repository's tracked files into `dest` (as they are in the work tree, or as
    committed in HEAD), and link node_modules (KaTeX) into it. Returns `dest`."""
    dest.mkdir(parents=True, exist_ok=True)
    if from_head:
        archive = subprocess.run(["git", "archive", "--format=tar", "HEAD"], cwd=ROOT,
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    else:
        listing = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                                 check=True).stdout.decode("utf-8")
        for rel in filter(None, listing.split("\0")):
            src = ROOT / rel
            if not src.is_file():       # deleted in the work tree, or a submodule
                continue
            target = dest / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target)
    if (ROOT / "node_modules").is_dir():
        (dest / "node_modules").symlink_to(ROOT / "node_modules", target_is_directory=True)
    return dest


def git_describe() -> str:
    """The commit benchmarked, with '+changes' when the work tree differs from it."""
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                          text=True).stdout.strip() or "unknown"
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                           capture_output=True, text=True).stdout.strip()
    return head + ("+changes" if dirty else "")


def append_sentence(path: Path, tag: str) -> str:
    """Append a new paragraph holding a unique sentence to a Markdown file; returns the
    sentence (what a reader would then see on the page)."""
    sentence = f"Benchmark edit {tag}: the page shows this sentence."
    with path.open("a", encoding="utf-8") as f:
        f.write(f"\n\n{sentence}\n")
    return sentence


def remove_tree(path: Path) -> None:
    """Delete a folder (or a link to one) if it exists."""
    if path.is_symlink():
        path.unlink()
    elif path.exists():
        shutil.rmtree(path)


PORTS: range | None = None    # run.py --ports: the servers' ports come from this range


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free right now (from PORTS when it is set)."""
    for port in PORTS or [0]:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return s.getsockname()[1]
    raise OSError(f"no free port in {PORTS.start}-{PORTS.stop - 1}" if PORTS else "no free port")
