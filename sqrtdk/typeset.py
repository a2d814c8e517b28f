"""Typeset formulas with KaTeX (npm `katex`, pinned in package-lock.json) at build time.

Pages then need no JavaScript to show a formula. One Node process typesets every formula that is
not cached yet; the cache (`.cache/katex.json`) is keyed on KaTeX's version, the display flag and
the TeX, so unchanged formulas are never typeset twice.
"""
from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .config import CACHE_DIR, KATEX_DIST, KATEX_SCRIPT, NODE_MODULES
from .model import Formula


class KatexUnavailable(RuntimeError):
    """Node or the katex package is missing; the message says how to install them."""


@dataclass(frozen=True)
class Typeset:
    """KaTeX's answer for one formula: html, or an error message; plus any strict warning."""

    html: str = ""
    error: str = ""
    warning: str = ""


def katex_version() -> str:
    """The installed KaTeX version, read from node_modules/katex/package.json."""
    pkg = NODE_MODULES / "katex" / "package.json"
    if not pkg.exists():
        raise KatexUnavailable("KaTeX is not installed: run 'npm ci' in the project root "
                               "(or 'make site', which does it)")
    return json.loads(pkg.read_text(encoding="utf-8"))["version"]


def _key(version: str, f: Formula) -> str:
    return hashlib.sha256(f"{version}\0{int(f.display)}\0{f.tex}".encode()).hexdigest()


def _load_cache(path: Path) -> dict[str, dict]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}  # missing or corrupt: start afresh, never trust it


def typeset(formulas: list[Formula], cache_dir: Path | None = CACHE_DIR) -> list[Typeset]:
    """Typeset `formulas` in order; returns one Typeset per formula (errors are not raised).

    Raises KatexUnavailable when Node or KaTeX is missing, RuntimeError if Node fails.
    """
    version = katex_version()
    cache_file = cache_dir / "katex.json" if cache_dir else None
    cache = _load_cache(cache_file) if cache_file else {}
    keys = [_key(version, f) for f in formulas]
    todo = {k: f for k, f in zip(keys, formulas) if k not in cache}
    if todo:
        cache.update(zip(todo, _run_node(list(todo.values()))))
        if cache_file:
            cache_file.parent.mkdir(parents=True, exist_ok=True)
            tmp = cache_file.with_suffix(".tmp")
            tmp.write_text(json.dumps({k: cache[k] for k in sorted(set(keys) | set(cache))}),
                           encoding="utf-8")
            tmp.replace(cache_file)
    return [Typeset(**cache[k]) for k in keys]


def _run_node(formulas: list[Formula]) -> list[dict]:
    node = shutil.which("node")
    if node is None:
        raise KatexUnavailable("Node.js is not on PATH; install it to typeset formulas")
    payload = json.dumps([{"tex": f.tex, "display": f.display} for f in formulas])
    proc = subprocess.run([node, str(KATEX_SCRIPT)], input=payload, capture_output=True,
                          text=True, encoding="utf-8", check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"KaTeX renderer failed: {proc.stderr.strip()}")
    return json.loads(proc.stdout)["results"]


def katex_assets() -> tuple[Path, Path]:
    """(katex.min.css, fonts folder) of the same KaTeX version that typesets the formulas."""
    katex_version()
    return KATEX_DIST / "katex.min.css", KATEX_DIST / "fonts"
