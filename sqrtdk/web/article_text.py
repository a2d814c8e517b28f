"""One article's text as the page's conversion reads it: one object, made once per page by
`read_article`, that every Markdown processor and message reads (through
`converter.PageContext.text`), instead of each being handed its own string.

It holds the text in the two forms the conversion needs, both with the file's lines (the
front matter kept as blank lines, comments and formulas as lines of filler), and where the
article's line-by-line reads (`line_reads`, which skip the lines of raw HTML blocks:
`raw_html`) and the lexer found the things Markdown keeps no
position of: each note's definition, each box's opening and `attrs:` lines, each reference
definition, each reproduce fence. The line of everything else comes from the tree itself
(`positions.LineMap`, made while converting).
"""
from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..log import warn
from .editor_blocks import own_id_anchors
from .lexer import Masked, braced_info
from .line_reads import (
    check_blocks,
    check_box_options,
    check_footnote_definitions,
    check_note_continuations,
    reference_urls,
)
from .markers import strip_markers
from .positions import BoxLines
from .quote_messages import BOX_NAMED
from .raw_html import (
    blank_lines,
    markdown_attributes,
    markdown_in_raw_html,
    markdown_raw_lines,
    raw_headings,
    raw_html_empty_links,
    raw_html_ids,
    raw_html_images,
    raw_html_lines,
    raw_html_urls,
)

LOGGER = logging.getLogger("sqrtdk.web")


@dataclass
class ArticleText:
    """The text of one article and where its parts were written (file lines, 1-based)."""

    markdown: str = ""       # what Markdown converts: the body after quoting, code back in
    lines: str = ""          # the same from line 1, code masked, markers out
    # `lines` with each line of a raw HTML block as a FILLER (`raw_html`): read line by line,
    # and searched for a tree element's text (which never comes from raw HTML)
    prose: str = ""
    raw_html: frozenset[int] = frozenset()   # the lines of raw HTML blocks
    first_line: int = 0      # lines before `markdown`'s first (the front matter)
    notes: dict[str, int] = field(default_factory=dict)       # note label -> its definition
    boxes: BoxLines = field(default_factory=BoxLines)
    # address -> the line of each `[ref]: address`; of each raw HTML tag holding it
    references: dict[str, list[int]] = field(default_factory=dict)
    raw_urls: dict[str, list[int]] = field(default_factory=dict)
    raw_images: dict[str, list[int]] = field(default_factory=dict)   # of <img>, <source> …
    # address -> the line of each raw <a href> with nothing inside that names it
    raw_empty_links: dict[str, list[int]] = field(default_factory=dict)
    raw_ids: list[tuple[str, int]] = field(default_factory=list)  # (id, line) of raw HTML's
    # (name, line) of each empty anchor in or right before a heading that has its id
    own_anchors: set[tuple[str, int]] = field(default_factory=set)
    reproduce: list[tuple[int, str]] = field(default_factory=list)   # (fence line, snippet)
    # the line of each fence whose info is a MyST directive or a Quarto chunk, `{name …}`,
    # or an attribute list, `{.python title="t"}`: the info it is converted with
    # (lexer.braced_info)
    braced_fences: dict[int, str] = field(default_factory=dict)

    def snippet_lines(self, shown: list[str]) -> list[int]:
        """The fence line of each reproduce box of `shown` (snippet names, in order): the
        k-th box of a snippet is the k-th reproduce fence naming it (0: none)."""
        seen: dict[str, int] = {}
        lines = []
        for name in shown:
            fences = [line for line, named in self.reproduce if named == name]
            k = seen[name] = seen.get(name, -1) + 1
            lines.append(fences[k] if k < len(fences) else 0)
        return lines


# a note's reference, `[^label]`, or its definition, `[^label]:` at a line's start
_NOTE = re.compile(r"(^ {0,3})?\[\^([^\]\s]+)\](:)?", re.M)


# a regular expression's character class written as text ('[^a-z]', '[^0-9A-F]', '[^\\s]'):
# a range of two letters or digits in order, or a backslash; a note's label has neither.
# (One of signs alone, '[^/]', '[^,]', '[^"]', no letter or digit: `_is_pattern_class`)
_PATTERN_CLASS = re.compile(r"\\|(?<![A-Za-z0-9])(?:[a-z]-[a-z]|[A-Z]-[A-Z]|[0-9]-[0-9])")


def _is_pattern_class(label: str) -> bool:
    """Whether `[^label]` reads as a regular expression's negated class rather than a note:
    a range or a backslash in it (`_PATTERN_CLASS`), or no letter or digit at all ('[^/]+',
    '[^,]*', '[^"]': a note's label names something, in any script)."""
    return bool(_PATTERN_CLASS.search(label)) or not any(c.isalnum() for c in label)


def _notes_referenced(prose: str) -> set[str]:
    """The labels of the notes `prose` (the article, its raw HTML blocks blanked) references
    outside their definitions: a `[^label]` anywhere but at a line's start before a colon."""
    return {m.group(2) for m in _NOTE.finditer(prose) if m.group(1) is None or not m.group(3)}


def read_article(path: Path, masked: Masked, body: str, first_line: int) -> ArticleText:
    """The text model of the article at `path`: `masked` is the lexer's reading of it,
    `body` its text after the front matter, quoted (markers in place, code as tokens),
    `first_line` the number of the front matter's lines. Raises BuildError at the line of a
    box or note that Markdown would read otherwise than written (see `line_reads`)."""
    lines = strip_markers("\n" * first_line + body)
    raw = raw_html_lines(lines)
    prose = blank_lines(lines, raw)
    written = masked.as_written(masked.text).split("\n")     # the lines as the author wrote them
    openers = check_blocks(path, prose, lambda n: _nth_line(written, n))
    notes = check_footnote_definitions(path, prose)
    attrs = check_box_options(path, prose)
    check_note_continuations(path, prose)
    for tag, line, github_reads in markdown_attributes(lines):
        # GitHub ends an HTML block at a blank line and reads what follows as Markdown
        shown = ("the page publishes what is inside as typed, '**' and '$' included, and "
                 "GitHub reads what follows the blank line inside the block as Markdown"
                 if github_reads else
                 "nor GitHub): what is inside is published as typed, '**' and '$' included")
        opening = ": " if shown.startswith("the page") else " ("
        warn(LOGGER, path, line,
             f"<{tag} markdown=…> asks for the Markdown inside the HTML block to be read "
             f"(md_in_html, kramdown), which this Markdown does not do{opening}{shown}; "
             f"write the passage in Markdown outside the HTML ({BOX_NAMED} for a box)")
    for tag, line in raw_headings(lines):
        title = (" (and a second title: the page shows the front matter's 'title:' as its "
                 "only level-1 heading; remove it if it is the post's title)"
                 if tag == "h1" else "")
        warn(LOGGER, path, line,
             f"<{tag}> in a block of raw HTML is a heading the page's contents leave out, with "
             f"no id to link to{title}; write it in Markdown, '## Its words {{#some-id}}' "
             "(the HTML around it as its own block), or as text, <p><strong>…</strong></p>")
    referenced = _notes_referenced(prose)
    # with the code the lexer masked back: `x` inside a raw HTML block is no code span
    for mark, line in markdown_in_raw_html(masked.restore_code(lines)):
        shown = mark if len(mark) <= 30 else mark[:29] + "\u2026"
        if mark.startswith("[^"):      # no HTML makes a note: the passage goes outside
            kind = "definition" if mark.endswith(":") else "reference"
            label = mark.rstrip(":")[2:-1]
            defined = notes.get(label, line) != line     # a note the article defines elsewhere
            if kind == "reference" and defined and label not in referenced:
                continue    # nowhere else: the conversion stops here, saying so (md_notes)
            if kind == "definition" and not defined and label in referenced:
                continue    # the reference has no other note: md_notes tells it there
            if kind == "reference" and not defined and _is_pattern_class(label):
                continue    # a regex's class, '[^a-z]', '[^\\s]', no note's reference
            warn(LOGGER, path, line,
                 f"'{shown}' inside a block of raw HTML is shown as typed, no note's {kind}"
                 + ("" if defined or kind == "definition" else
                    f", and no note '[^{label}]: \u2026' is defined anywhere")
                 + ": Markdown is not read inside an HTML block (here nor on GitHub); write "
                 "the passage in Markdown outside the HTML (remove the tags around it, or "
                 "close the block above it)"
                 + ("" if defined or kind == "definition" else
                    f" and add a line '[^{label}]: \u2026' at the end of the file; for text "
                    "meant as typed, put it in <code>\u2026</code>"))
            continue
        what = ("bold, <strong>…</strong>" if mark[0] in "*_" else
                "a link, <a href=\"…\">…</a>" if mark[0] == "[" else "code, <code>…</code>")
        warn(LOGGER, path, line,
             f"'{shown}' inside a block of raw HTML is shown as typed: Markdown is not read "
             f"inside an HTML block (here nor on GitHub); write the HTML for {what}, or the "
             "passage in Markdown outside the HTML")
    return ArticleText(
        markdown=masked.restore_code(body), lines=lines, prose=prose, raw_html=raw,
        first_line=first_line, notes=notes, boxes=BoxLines(openers, attrs),
        references=reference_urls(prose),
        # the code-restored read finds the tags of lines the lexer took for indented code
        # that Markdown keeps in a raw HTML block (indented lines after a blank one in a
        # <div> at the margin); the masked read wins where both have an address
        raw_urls={**raw_html_urls(masked.restore_code(lines)), **raw_html_urls(lines)},
        raw_images={**raw_html_images(masked.restore_code(lines)), **raw_html_images(lines)},
        raw_empty_links={**raw_html_empty_links(masked.restore_code(lines)),
                         **raw_html_empty_links(lines)},
        raw_ids=_raw_ids(lines, masked.restore_code(lines)),
        own_anchors=own_id_anchors(lines),
        reproduce=[(line, code.strip()) for line, info, code in masked.fences
                   if info == "reproduce"],
        braced_fences={line: kept for line, info, _ in masked.fences
                       if (kept := braced_info(info)) is not None})


def _raw_ids(lines: str, restored: str) -> list[tuple[str, int]]:
    """(id, line) of the raw HTML's ids, in order: those read with code masked, and those of
    lines the lexer took for indented code that Markdown keeps in a raw HTML block (a real
    post's <span id> lines indented by 12 spaces inside a <div>: the page has them, and a
    duplicate was blamed on the page's layout). An id shown in a code block is no id."""
    masked = set(raw_html_ids(lines))
    in_raw = markdown_raw_lines(lines)
    return [(i, n) for i, n in raw_html_ids(restored) if (i, n) in masked or n in in_raw]


def _nth_line(lines: list[str], n: int) -> str:
    return lines[n - 1] if 0 < n <= len(lines) else ""
