"""Views of results.json by dotted path: what a figure or a figure's table may read (its
`needs`). Shared by the figures and the site half, and light: importing it imports neither the
figure modules nor matplotlib."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def needed_results(results: Mapping[str, Any], needs: tuple[str, ...]) -> dict[str, Any]:
    """The sub-tree of `results` holding only the dotted paths in `needs` (same nesting).

    Raises KeyError naming a path results.json does not have.
    """
    out: dict[str, Any] = {}
    for path in needs:
        src: Any = results
        dst = out
        parts = path.split(".")
        for part in parts[:-1]:
            src = src[part]
            dst = dst.setdefault(part, {})
        if parts[-1] not in src:
            raise KeyError(f"results.json has no '{path}'")
        dst[parts[-1]] = src[parts[-1]]
    return out


__all__ = ["needed_results"]
