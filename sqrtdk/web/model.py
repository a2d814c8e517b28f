"""What flows from Markdown conversion to site assembly, with no heavy imports: a cached
conversion is unpickled without importing Markdown."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .math.formula import Formula
from .quoting import QuoteLog

MATH_HTML = "\U000f0015{}\U000f0016"            # where formula n's rendered HTML goes
MATH_HTML_RE = re.compile("\U000f0015(\\d+)\U000f0016")


@dataclass(frozen=True)
class Heading:
    """A heading: level, explicit id, inner HTML (math placeholders kept) and plain text."""

    level: int
    id: str
    html: str
    text: str


@dataclass(frozen=True)
class SvgPair:
    """A figure's files for one language: URLs from the page, and CSS pixel sizes."""

    src: str
    width: int
    height: int
    narrow_src: str
    narrow_width: int
    narrow_height: int


@dataclass
class Facts:
    """What one page contains, gathered while converting, one list per collector."""

    headings: list[Heading] = field(default_factory=list)
    figures: list[str] = field(default_factory=list)
    footnotes: list[str] = field(default_factory=list)   # labels, in order of definition
    boxes: list[str] = field(default_factory=list)       # ids of <details>
    ids: set[str] = field(default_factory=set)
    links: list[str] = field(default_factory=list)       # every href, in order
    # what each section cites, in order: (section id, "result" | "footnote" | "claim", name)
    cited: list[tuple[str, str, str]] = field(default_factory=list)
    snippets: list[str] = field(default_factory=list)    # reproduce boxes, in order


@dataclass
class Page:
    """A converted article (body HTML still carries math placeholders and quote markers)."""

    lang: str
    source: Path
    text: str                  # the source after quoting, code and math masked, lines kept
    meta: dict[str, str]
    body: str
    facts: Facts
    quotes: QuoteLog
    formulas: list[Formula]
    claim_lines: list[int]     # the line of each claim marker (QuoteLog.claims order)
