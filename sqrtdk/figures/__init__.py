"""The figures: one drawing function per figure, registered by name next to its code.

A drawer is `fn(fig, r, t, layout)`: it draws into `fig` (a matplotlib Figure or SubFigure)
from `r`, a view of results.json holding only the paths the registration names in `needs`
(reading anything else is a KeyError: figures read results only, and say which), with the
words from `t` (that language's figures.toml table; `labels` names each label and the
fields it is formatted with, so both can be checked before anything is drawn). `layout` is
`WIDE` (the desktop column) or `NARROW` (a phone: stacked panels, fewer ticks, larger type).

Register with the `figure` decorator in any module of this package; `load()` imports them.
Drawing, saving and the social card live in `draw.py` (matplotlib is imported there only).
"""
from __future__ import annotations

import importlib
import pkgutil
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from ..results_paths import check_needs
from ..results_paths import needed_results as needed_results  # re-exported: drawers read it here

WIDE, NARROW = "wide", "narrow"
LAYOUTS = (WIDE, NARROW)


@dataclass(frozen=True)
class Registration:
    """A registered figure: its drawer, the result paths it reads and its labels' fields."""

    name: str
    draw: Callable[..., None]
    needs: tuple[str, ...]
    labels: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


FIGURES: dict[str, Registration] = {}


def figure(name: str, needs: tuple[str, ...], labels: Mapping[str, tuple[str, ...]]
           ) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """Register the decorated drawer as figure `name` (see the module docstring).

    `needs` are dotted results.json paths (a section, or a key inside one); `labels` maps
    each label key of the figure's figures.toml table to the fields it is given. Raises
    BuildError at the caller's line for a need no experiment declares
    (sqrtdk.science.outputs); TypeError for a drawer that cannot be called with those four
    arguments (a drawing that took three stopped the build with the pool's traceback).
    """
    caller = sys._getframe(1)      # the `@figure(…)` line, for a need nothing declares
    check_needs(name, tuple(needs), caller.f_code.co_filename, caller.f_lineno)

    def register(fn: Callable[..., None]) -> Callable[..., None]:
        import inspect
        try:
            inspect.signature(fn).bind(None, None, None, None)
        except TypeError:   # one line at the `@figure` line (inputs.told_import_error)
            raise TypeError(f"figure '{name}': its drawing function "
                            f"{fn.__name__}{inspect.signature(fn)} cannot be called as "
                            f"{fn.__name__}(fig, r, t, layout); give it those four "
                            "parameters") from None
        if name in FIGURES:
            raise ValueError(f"figure '{name}' is registered twice")
        FIGURES[name] = Registration(name, fn, tuple(needs), dict(labels))
        return fn
    return register


_LOADED = False


def load() -> dict[str, Registration]:
    """Import every module of this package (each registers its figures); returns FIGURES."""
    global _LOADED
    if not _LOADED:
        package = importlib.import_module(__name__)
        for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
            if not info.name.startswith("_"):
                importlib.import_module(f"{__name__}.{info.name}")
        _LOADED = True
    return FIGURES
