"""The snippets the reproduce boxes show, each with the experiment module whose full source
its box links to and its cost (its running time relative to the others, for the workers'
order). A new one is registered at the end (README, "Show the code that ran"); the code that
runs them is reproduce.py's, which does not import this list.
"""
from __future__ import annotations

from .registry import SNIPPETS, Snippet
from .reproduce import SNIPPET_DIR

SNIPPETS.register(Snippet("sheet1", SNIPPET_DIR / "sheet1.py", "spread.py", cost=3.0))
SNIPPETS.register(Snippet("sheet2", SNIPPET_DIR / "sheet2.py", "saturation.py", cost=0.1))
SNIPPETS.register(Snippet("sheet3", SNIPPET_DIR / "sheet3.py", "rulers.py", cost=2.0))
SNIPPETS.register(Snippet("gradient", SNIPPET_DIR / "gradient.py", "rulers.py", cost=1.0))
