"""KaTeX's errors and the worker that reports them (katex_worker.mjs)."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from helpers import site_renderer


@pytest.fixture(scope="module")
def katex() -> Iterator[Any]:
    renderer = site_renderer()
    yield renderer
    renderer.close()


def formula(tex: str) -> Any:
    from sqrtdk.web.math import Formula
    return Formula((tex,), True, 1, tex, 1)


def test_show_in_a_formula_does_not_break_the_renderer(katex: Any) -> None:
    """KaTeX's \\show prints with console.log, on the worker's stdout, where the build reads
    answers: the build failed to read them (a traceback). Now it is a formula like any."""
    rendered = katex.render([formula("\\show\\alpha x"), formula("y")])
    assert all(r.html and not r.error for r in rendered), rendered
