"""The math renderer behind one small interface (issue 11, item 6; issue 21, item 5).

A renderer turns `Formula`s (TeX text and quoted results as data) into HTML, lists the files
the site must serve for it (style sheet, fonts, scripts) and the tags its pages put in
<head>. The engine is chosen by name in content/site.toml (`math = "…"`, validated by
sqrtdk.settings against `engine_names()`); each engine is a module of this package that
registers itself (see `engine.py`). Another engine is one new module here, imported below,
and its name in site.toml; nothing outside this package names an engine.
"""
from __future__ import annotations

import json
from pathlib import Path

from . import katex as _katex  # noqa: F401  (registers "katex")
from .engine import ENGINES, HOOKS, Engine, MathRenderer, register
from .formula import Formula, Quote, Rendered

__all__ = ["DEFAULT_ENGINE", "ENGINES", "Engine", "Formula", "MathRenderer", "Quote", "Rendered",
           "engine_names", "identity_files", "page_head", "register", "renderer"]

DEFAULT_ENGINE = "katex"    # when content/site.toml names none


def engine_names() -> list[str]:
    """The registered engines' names, sorted."""
    return sorted(ENGINES)


def renderer(name: str, node_modules: Path, cache_dir: Path | None,
             memory: bool = False) -> MathRenderer:
    """The renderer of the engine registered as `name` (KeyError for an unknown name:
    settings are validated before this is called), caching in `cache_dir`."""
    return ENGINES[name].renderer(node_modules, cache_dir, memory)


def identity_files(node_modules: Path) -> tuple[Path, ...]:
    """The installed files whose bytes identify every registered engine's version."""
    return tuple(p for name in engine_names() for p in ENGINES[name].identity(node_modules))


def page_head(math: MathRenderer, root: str) -> str:
    """The engine's tags for <head>, then its hooks as JSON (`<script id="math-hooks">`, data,
    never run) for the page's script."""
    hooks = dict(math.hooks())
    missing = [h for h in HOOKS if h not in hooks]
    if missing:
        raise RuntimeError(f"the math engine {math.name!r} gives no hook {missing[0]!r}")
    data = json.dumps({h: hooks[h] for h in HOOKS}, ensure_ascii=True).replace("<", "\\u003c")
    return (math.head(root) + "\n"
            f'<script type="application/json" id="math-hooks">{data}</script>')
