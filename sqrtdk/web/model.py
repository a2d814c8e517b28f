"""What flows from Markdown conversion to site assembly, with no heavy imports: a cached
conversion is unpickled without importing Markdown."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..errors import BuildError
from .math.formula import Formula
from .quoting import QuoteLog


@dataclass(frozen=True)
class Heading:
    """A heading: level, explicit id, inner HTML (math placeholders kept), plain text, and
    the file line it was written on (0: not known)."""

    level: int
    id: str
    html: str
    text: str
    line: int = 0


@dataclass(frozen=True)
class Outline:
    """A heading without an id (md_blocks) among the headings of its article's text: its
    index (`position`), the ids of all of them in order (None: a heading without one), and
    what its message was made from (`md_blocks.without_id`'s arguments), so that the pages
    stage can name the id another language gives the heading at that place
    (`checks.with_shared_ids`)."""

    position: int
    ids: tuple[str | None, ...]
    typed: str
    level: int
    why: str = ""


class HeadingWithoutIdError(BuildError):
    """The BuildError of a heading without an id, with its `outline`."""

    def __init__(self, path: Path | str, line: int, message: str, outline: Outline):
        super().__init__(path, line, message)
        self.outline = outline


@dataclass(frozen=True)
class SvgPair:
    """A figure's files for one language: URLs from the page, and CSS pixel sizes."""

    src: str
    width: int
    height: int
    narrow_src: str
    narrow_width: int
    narrow_height: int


Citation = tuple[str, str, str]   # (section id, "result" | "footnote" | "claim", name)
NOTE_PLACE = "[^{}]"    # the section of a citation in a note's text: its label in this form


@dataclass(frozen=True)
class Lines:
    """The file line (0: not known) each item of a `Conversion` was written on, from the
    page's source positions (`positions.LineMap`, the lexer's fences, the notes' and boxes'
    opening lines): parallel to the conversion's lists, or by id."""

    figures: list[int] = field(default_factory=list)
    footnotes: list[int] = field(default_factory=list)    # each note's definition
    boxes: list[int] = field(default_factory=list)        # each box's `/// details` line
    urls: dict[str, int] = field(default_factory=dict)    # each link's or image's address
    # every line each address was written on, in order (`urls` holds the one named first)
    url_lines: dict[str, tuple[int, ...]] = field(default_factory=dict)
    image_lines: dict[str, tuple[int, ...]] = field(default_factory=dict)   # of images alone
    # of links with nothing inside that names them (no text, no alt): (line, whether the link
    # is raw HTML's <a>, not Markdown's) of each, in order
    empty_links: dict[str, tuple[tuple[int, bool], ...]] = field(default_factory=dict)
    snippets: list[int] = field(default_factory=list)     # each reproduce box's fence
    ids: dict[str, int] = field(default_factory=dict)     # each id's first element
    # links to this site whose address was written with a space (GitHub shows text):
    # the address (decoded) -> how to write it so both make the link ('write [t](a%20b)')
    spaced: dict[str, str] = field(default_factory=dict)
    tables: list[int] = field(default_factory=list)       # each Markdown table's first line


@dataclass(frozen=True)
class Conversion:
    """One article converted by Markdown: its HTML (math placeholders and quote markers still
    in it) and what each collector gathered, in document order unless said otherwise, with
    the line each item was written on (`lines`)."""

    html: str
    headings: list[Heading]     # HeadingCollector
    figures: list[str]          # FigureProcessor: figure names
    footnotes: list[str]        # FootnoteChecks: labels, in order of definition
    boxes: list[str]            # BoxCollector: ids of <details>
    ids: set[str]               # IdCollector: every id
    links: list[str]            # LinkCollector: every href
    cited: list[Citation]       # CitationCollector: what each section cites
    cited_lines: list[int]      # the file line of each citation (0: not known)
    snippets: list[str]         # ReproduceBoxes: the reproduce boxes' snippet names
    lines: Lines = field(default_factory=Lines)
    # ScrollingTables: each Markdown table's number of header cells (what the languages share)
    tables: list[str] = field(default_factory=list)


@dataclass
class Page:
    """A converted article: its Markdown conversion, its quotes (with their lines) and its
    formulas (with theirs)."""

    lang: str
    source: Path
    meta: dict[str, str]
    conversion: Conversion
    quotes: QuoteLog
    formulas: list[Formula]

    @property
    def body(self) -> str:
        """The converted HTML (math placeholders and quote markers still in it)."""
        return self.conversion.html
