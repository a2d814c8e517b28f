"""The math renderer behind one small interface (issue 11, item 6).

A renderer turns `Formula`s (TeX text and quoted results as data) into HTML, lists the files
the site must serve for it (style sheet, fonts, scripts) and the tags its pages put in
<head>. Swapping KaTeX for another engine means a new module here and `renderer()` below
returning it; templates only print `math_head`.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from ..quoting import Formula


@dataclass(frozen=True)
class Rendered:
    """One formula's HTML, or the engine's error message; warnings are non-fatal notes;
    `width_em` estimates its width (0: unknown); `defines` are the TeX macros it defined or
    changed, `conflict` one of them that already had another meaning."""

    html: str = ""
    error: str = ""
    warnings: tuple[str, ...] = ()
    width_em: float = 0.0
    defines: tuple[str, ...] = ()
    conflict: str = ""


class MathRenderer(Protocol):
    """What the site needs from a math engine."""

    name: str

    def key(self) -> str:
        """Everything that changes the output (engine version, options), for cache keys."""

    def render(self, formulas: Sequence[Formula],
               macros: Mapping[str, str] | None = None) -> list[Rendered]:
        """One Rendered per formula of one article, in order; errors are returned, not
        raised. The formulas start from `macros` (name -> TeX), and a macro one of them
        defines holds for the later ones (never for another call)."""

    def assets(self, rendered: Sequence[str]) -> dict[str, Path | bytes]:
        """Site-relative path -> file to copy (or bytes to write), for every file the
        rendered HTML needs; `rendered` is every formula's HTML on the site (a renderer may
        serve fonts cut down to the characters they draw)."""

    def head(self, root: str) -> str:
        """HTML for <head> (`root` is the page's relative path to the site root)."""

    def close(self) -> None:
        """Stop any helper process."""


def renderer(node_modules: Path, cache_dir: Path | None, memory: bool = False) -> MathRenderer:
    """The site's math renderer: KaTeX from `node_modules`, caching in `cache_dir`."""
    from .katex import KatexRenderer
    return KatexRenderer(node_modules, cache_dir, memory)
