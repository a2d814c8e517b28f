"""The page's two sliders (the dₖ bar's `#dk-input`, sheet 2's `#scale-input`) as tests drive
them: role="slider" elements of explainer.js (slider()), not range inputs, so Playwright's
`fill` and `input_value` do not apply. Their `value`, `min` and `max` are the step on the
grid and its bounds (strings, as a range input's), and a move fires "input" as a reader's does.
"""
from __future__ import annotations

from typing import Any

# (selector, step) -> the slider focused (the bar shows while it holds the focus), at that step,
# told as a reader's move tells it; returns the step it took (the step is clamped to the grid)
_MOVE = """([sel, step]) => { const el = document.querySelector(sel);
    el.focus(); el.value = step; el.dispatchEvent(new Event('input', {bubbles: true}));
    return +el.value; }"""


def move(page: Any, selector: str, step: int | str) -> int:
    """Focus the slider `selector` and move it to `step` (an index on its grid), as a reader's
    drag or key would; the step it shows after."""
    return int(page.evaluate(_MOVE, [selector, int(step)]))


def step(page: Any, selector: str) -> int:
    """The step on the grid the slider `selector` shows."""
    return int(page.locator(selector).evaluate("el => +el.value"))


def bounds(page: Any, selector: str) -> tuple[int, int]:
    """(first, last) step of the slider `selector`."""
    lo, hi = page.locator(selector).evaluate("el => [+el.min, +el.max]")
    return int(lo), int(hi)
