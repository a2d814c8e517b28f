"""The data that flows from Markdown conversion to site assembly, with no heavy imports:
a cached conversion is unpickled without importing Markdown."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .quoting import QuoteLog

MATH_TOKEN = "\ue010{}\ue011"          # stands for formula n in a converted body
MATH_TOKEN_RE = re.compile("\ue010(\\d+)\ue011")


@dataclass(frozen=True)
class Formula:
    """One formula: TeX as KaTeX will see it, display or inline, and as the author wrote it
    (after quoting; used to find its line)."""

    tex: str
    display: bool
    source: str = field(default="", compare=False)


@dataclass
class Facts:
    """What one page contains, gathered while converting (for validation and parity checks)."""

    formulas: list[Formula] = field(default_factory=list)
    headings: list[tuple[int, str, str]] = field(default_factory=list)  # (level, id, text)
    figures: list[str] = field(default_factory=list)
    footnotes: list[str] = field(default_factory=list)   # labels, in order of definition
    boxes: list[str] = field(default_factory=list)       # ids of <details>
    ids: set[str] = field(default_factory=set)
    links: list[str] = field(default_factory=list)       # every href, in order
    # what each section cites, in order: (section id, "result" or "footnote", name)
    cited: list[tuple[str, str, str]] = field(default_factory=list)


@dataclass
class Page:
    """A converted article (body HTML still carries math tokens and quote markers)."""

    lang: str
    source: Path
    text: str                 # the source after quoting, lines unchanged (for error lines)
    meta: dict[str, str]
    body: str
    toc: list[dict[str, Any]]
    facts: Facts
    quotes: QuoteLog


