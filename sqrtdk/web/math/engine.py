"""What the site needs from a math engine, and the registry of engines by name.

An engine is one module of this package: it defines a `MathRenderer` and calls `register`
with an `Engine` (its name as `math = "…"` in content/site.toml names it, how to make its
renderer, and the installed files that identify its version for the build's cache key).
The stylesheets, fonts and scripts it needs are the renderer's `assets` and `head`; the
classes its HTML uses that the page's script reads are its `hooks`.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from .formula import Formula, Rendered

# What a page's script may ask of a formula's HTML (explainer.js): CSS selectors for
# "formula" (the element around one rendering), "drawn" (the part drawn on screen, inside
# it; a quoted number is an element with data-key and data-format there) and "speech" (the
# MathML tree inside it whose leaves a screen reader reads, in order).
HOOKS = ("formula", "drawn", "speech")


class MathRenderer(Protocol):
    """What the site needs from a math engine."""

    name: str
    label: str      # the engine's name as its authors write it ("KaTeX"), before its messages

    def key(self) -> str:
        """Everything that changes the output (engine version, options), for cache keys."""

    def render(self, formulas: Sequence[Formula],
               macros: Mapping[str, str] | None = None) -> list[Rendered]:
        """One Rendered per formula of one article, in order; errors are returned, not
        raised. The formulas start from `macros` (name -> TeX), and a macro one of them
        defines holds for the later ones (never for another call)."""

    def commands(self) -> Sequence[str]:
        """The TeX commands the engine knows by itself ("\\sqrt", …), without any macro:
        a site macro named as one gives it a new meaning in every formula."""

    def assets(self, rendered: Sequence[str]) -> dict[str, Path | bytes]:
        """Site-relative path -> file to copy (or bytes to write), for every file the
        rendered HTML needs (its stylesheet, with the site's rules for the engine's HTML,
        fonts, scripts); `rendered` is every formula's HTML on the site (a renderer may
        serve fonts cut down to the characters they draw)."""

    def head(self, root: str) -> str:
        """HTML for <head> (`root` is the page's relative path to the site root)."""

    def hooks(self) -> Mapping[str, str]:
        """A CSS selector for each of HOOKS, in the HTML this engine writes."""

    def close(self) -> None:
        """Stop any helper process."""


@dataclass(frozen=True)
class Engine:
    """One math engine as its module registers it.

    `renderer(node_modules, cache_dir, memory)` makes its renderer (caching in `cache_dir`,
    None: no cache; `memory`: keep results in memory too, for --serve); `identity(node_modules)`
    names the installed files whose bytes identify its version (the whole build's cache key
    reads them)."""

    name: str
    renderer: Callable[[Path, Path | None, bool], MathRenderer]
    identity: Callable[[Path], tuple[Path, ...]]


ENGINES: dict[str, Engine] = {}


def register(engine: Engine) -> Engine:
    """Add `engine` under its name (a second registration of a name replaces the first)."""
    ENGINES[engine.name] = engine
    return engine
