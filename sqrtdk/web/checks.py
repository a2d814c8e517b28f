"""Checks that run before a byte is written: the languages say the same things, the claims
the text relies on hold, every result is used; and every link and resource of the assembled
site resolves (`site_links`, whose names are handed on here)."""
from __future__ import annotations

import difflib
import logging
import re
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ..errors import BuildError, Mistakes, display_path, json_key_line, where
from ..log import warn
from .embed import FOLLOW
from .followed import followed_claims
from .model import NOTE_PLACE, Citation, HeadingWithoutIdError, Page
from .site_links import LinkMemo, PageLinks, check_site, page_links

LOGGER = logging.getLogger("sqrtdk.web")

# what both languages must share, and the line each item was written on (0: not known):
# (what the items are, one of them, its name as the author writes it, the items, their lines)
Items = Callable[[Page], list[str]]
ItemLines = Callable[[Page], list[int]]
_PARITY: tuple[tuple[str, str, Callable[[str], str], Items, ItemLines], ...] = (
    ("figures", "figure", lambda x: f"'{x}.svg'", lambda p: p.conversion.figures,
     lambda p: p.conversion.lines.figures),
    ("collapsible boxes", "collapsible box", lambda x: f"'#{x}'", lambda p: p.conversion.boxes,
     lambda p: p.conversion.lines.boxes),
    ("reproduce boxes", "reproduce box", lambda x: f"'{x}'", lambda p: p.conversion.snippets,
     lambda p: p.conversion.lines.snippets),
    # a table has no name: it is told by its columns (a table only one language had was
    # published without a word)
    ("tables", "table", lambda x: f"of {x} columns", lambda p: p.conversion.tables,
     lambda p: p.conversion.lines.tables),
)


def check_parity(pages: list[Page]) -> None:
    """Every language has the first's heading ids (in order), figures, notes (in any
    order: `_check_notes`), boxes and reproduce boxes, quotes the same results and relies
    on the same claims, and each section cites results, notes and claims as often. Raises
    BuildError naming both files and the first difference, each at the line its item was
    written on (recorded when the page was converted)."""
    base = pages[0]
    for other in pages[1:]:
        _check_heading_levels(base, other)
        _check_heading_ids(base, other)
        for kind, one, name, get, lines in _PARITY:
            a, b = get(base), get(other)
            if a != b and kind == "tables":
                raise _tables_differ(base, other, (one, name, get, lines))
            if a != b:
                i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
                x = a[i] if i < len(a) else None
                y = b[i] if i < len(b) else None
                if x is not None and x not in b and (y is None or y in a):
                    raise _item_only_here(base, other, i, (one, name, get, lines))
                if y is not None and y not in a and (x is None or x in b):
                    raise _item_only_here(other, base, i, (one, name, get, lines))
                l1 = _nth(lines(base), i) if x else 0
                l2 = _nth(lines(other), i) if y else 0
                if x is None:    # at the item the other file has (the first has none there)
                    last = next((n for n in reversed(lines(base)[:i]) if n), 0)
                    raise BuildError(other.source, l2, f"{kind} differ at position {i + 1}: "
                                     f"{y} here, nothing in {display_path(base.source)}"
                                     + (f" after line {last}" if last else "")
                                     + "; every language must match")
                if x is not None and y is not None and x not in b and y not in a:
                    same = "the same id" if one == "collapsible box" else "the same one"
                    raise BuildError(base.source, l1, f"{kind} differ at position {i + 1}: "
                                     f"{name(x)} here, {name(y)} at the same place in "
                                     f"{where(other.source, l2)}; if it is the same {one}, give "
                                     f"every language {same}: write {name(x)} there, or "
                                     f"{name(y)} here")
                if x is not None and y is not None and x in b and y in a:
                    moved = _nth(lines(other), b.index(x))
                    raise BuildError(other.source, l2, f"{kind} in another order: {one} "
                                     f"{i + 1} is {name(y)} here but {name(x)} in "
                                     f"{where(base.source, l1)}, the reference language "
                                     f"({name(x)} is at line {moved} here); every language has "
                                     f"them in the same order: move {name(x)} here to before "
                                     f"line {l2}, or change the order in "
                                     f"{display_path(base.source)}")
                raise BuildError(base.source, l1, f"{kind} differ at position {i + 1}: "
                                 f"{x} here, {y or 'nothing'} in "
                                 f"{where(other.source, l2)}; every language must match")
        _check_notes(base, other)
        sets: tuple[tuple[str, Callable[[Page], set[str]], Callable[[Page, str], int]], ...] = (
            ("quoted results", lambda p: {e[0] for e in p.quotes.entries},
             lambda p, x: p.quotes.line_of(x)),
            ("claims relied on", lambda p: set(p.quotes.claims),
             lambda p, x: p.quotes.line_of_claim(x)))
        for what, members, line in sets:
            sa, sb = members(base), members(other)
            if sa != sb:
                here, there = sorted(sa - sb)[:1], sorted(sb - sa)[:1]
                l1 = line(base, here[0]) if here else 0
                l2 = line(other, there[0]) if there else 0
                add = ("every language must match: add it there, to the sentence that says "
                       "what this one does, or remove it here")
                if not here:     # at the item only the other file has
                    raise BuildError(other.source, l2, f"{what} differ: {there[0]} only here, "
                                     f"not in {display_path(base.source)}; {add}")
                raise BuildError(base.source, l1, f"{what} differ: {here[0]} only here, "
                                 + (f"{there[0]} only in " if there else "not in ")
                                 + f"{where(other.source, l2)}; "
                                 + ("every language must match: if they are one, write "
                                    "one name in both; else add each where it is missing"
                                    if there else add))
        _check_citations(base, other)


def with_shared_ids(found: list[BuildError], pages: list[Page]) -> list[BuildError]:
    """`found` (the mistakes of converting the articles), each heading without an id told
    the id another language's article (of `pages`, those converted; the first language's
    first) gives the heading at its place, as ids are shared by the languages: where that
    article has as many headings, each with the id this one gives it (or none given), so the
    place is the same section. Elsewhere, and for the other mistakes, as they are."""
    return [_with_shared_id(e, pages) if isinstance(e, HeadingWithoutIdError) else e for e in found]


def _with_shared_id(e: HeadingWithoutIdError, pages: list[Page]) -> BuildError:
    from .md_blocks import without_id  # Markdown's: converting an article imported it
    o = e.outline
    for other in pages:
        heads = other.conversion.headings
        if other.source == e.path or len(heads) != len(o.ids) or any(
                mine is not None and mine != h.id for mine, h in zip(o.ids, heads, strict=True)):
            continue
        there = heads[o.position]
        if there.id in o.ids:
            continue
        said = without_id(o.typed, o.level, o.why)
        here = f"the {other.lang} article's heading here ({where(other.source, there.line)})"
        told = without_id(o.typed, o.level, o.why, (there.id, here))
        if said in e.message:
            return BuildError(e.path, e.line, e.message.replace(said, told, 1))
    return e


def _check_heading_levels(base: Page, other: Page) -> None:
    """The headings both languages have at the same place (the same id, in the same order up
    to the first id that differs, which the ids' own check reports) have the same level: a
    `###` in one language and `##` in the other makes two different tables of contents and
    moves every citation of the text below it into another section. Raises BuildError at the
    heading of `other` (the language that differs from the reference `base`), naming the
    reference's line and level."""
    for mine, ref in zip(other.conversion.headings, base.conversion.headings):
        if mine.id != ref.id:
            return
        if mine.level != ref.level:
            raise BuildError(other.source, mine.line,
                             f"heading '#{mine.id}' is {_level(mine.level)} here but "
                             f"{_level(ref.level)} in {where(base.source, ref.line)}, the "
                             "reference language; every language must have the same sections: "
                             f"write it with {'#' * ref.level} here, or change both")


def _check_heading_ids(base: Page, other: Page) -> None:
    """Both languages have the same heading ids in the same order. At the first place they
    part, tells which of three it is: a section only one language has (added to one, or
    removed from the other: an error at its heading, naming the line of the other file after
    which it belongs, the end of the section both have before it), a heading whose id alone
    differs (the sections after it agree: both ids, either one will do) or sections in
    another order."""
    a, b = base.conversion.headings, other.conversion.headings
    ids_a, ids_b = [h.id for h in a], [h.id for h in b]
    if ids_a == ids_b:
        return
    i = next((i for i, (x, y) in enumerate(zip(ids_a, ids_b)) if x != y), min(len(a), len(b)))
    x = a[i] if i < len(a) else None
    y = b[i] if i < len(b) else None
    if x is not None and y is not None and x.id not in ids_b and y.id not in ids_a \
            and ids_a[i + 1:i + 2] == ids_b[i + 1:i + 2]:
        raise BuildError(base.source, x.line,
                         f"heading ids differ at position {i + 1}: {{#{x.id}}} here, "
                         f"{{#{y.id}}} at the same place in {where(other.source, y.line)} (the "
                         "headings around it agree); if it is the same section, give it one "
                         f"id in every language: write {{#{x.id}}} there, or {{#{y.id}}} here "
                         "(and in the links to it)")
    if y is None or (x is not None and x.id not in ids_b):
        raise _only_here(base, other, i)
    if x is None or y.id not in ids_a:
        raise _only_here(other, base, i)
    # both ids are in both lists: the same sections in another order
    there = b[ids_b.index(x.id)]
    raise BuildError(other.source, y.line,
                     f"sections in another order: heading {i + 1} is {{#{y.id}}} here but "
                     f"{{#{x.id}}} in {where(base.source, x.line)}, the reference language "
                     f"({{#{x.id}}} is at {where(other.source, there.line)} here); every "
                     f"language has its sections in the same order: move section '#{x.id}' "
                     f"here to before line {y.line}, or change the order in "
                     f"{display_path(base.source)}")


def _only_here(here: Page, there: Page, i: int) -> BuildError:
    """The error for heading `i` of `here`, a section `there` lacks, whose headings before it
    both pages share: at its heading, naming its sub-headings `there` lacks too and the line
    of `there` after which the section belongs."""
    mine, theirs = here.conversion.headings, there.conversion.headings
    new = mine[i]
    ids = {h.id for h in theirs}
    subs: list[str] = []
    for h in mine[i + 1:]:
        if h.level <= new.level or h.id in ids:
            break
        subs.append(f"'#{h.id}'")
    with_subs = f" (with its sub-heading{'s' if len(subs) > 1 else ''} {', '.join(subs)})" \
        if subs else ""
    before = theirs[i - 1] if i else None
    start = before.line if before else 1
    stop = theirs[i].line if i < len(theirs) else None
    end = _section_end(there, start, stop) if stop != 0 else start
    place = f"the end of section '#{before.id}'" if before else \
        "the end of the text before the first section"
    return BuildError(here.source, new.line,
                      f"section '#{new.id}'{with_subs} is only in this language"
                      + (" (the headings before it are in both)" if i else "")
                      + f"; add the section to {display_path(there.source)} "
                      f"after line {end}, {place} (a heading with the same id {{#{new.id}}}), "
                      "or remove it here")


def _tables_differ(base: Page, other: Page,
                   kind: tuple[str, Callable[[str], str], Items, ItemLines]) -> BuildError:
    """The error for the first difference of two pages' tables, told by their shapes (the
    number of header columns), which unlike figures' and boxes' names repeat: aligned as
    `diff` aligns lines (difflib), a table one page has and the other lacks is told where
    it belongs (`_item_only_here`), not as tables in another order (an extra table of 2
    columns before tables of 3 and 2 was told to move the one of 3 above it)."""
    one, name, get, lines = kind
    a, b = get(base), get(other)
    for op, i1, _, j1, _ in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "delete":
            return _item_only_here(base, other, i1, kind)
        if op == "insert":
            return _item_only_here(other, base, j1, kind)
        if op == "replace":
            return BuildError(base.source, _nth(lines(base), i1),
                              f"tables differ at position {i1 + 1}: the {one} {name(a[i1])} "
                              f"here is {name(b[j1])} at the same place in "
                              f"{where(other.source, _nth(lines(other), j1))}; if it is the "
                              "same table, give it the same columns in every language")
    raise AssertionError("the tables are the same")     # (called only when they differ)


def _item_only_here(here: Page, there: Page, i: int,
                    kind: tuple[str, Callable[[str], str], Items, ItemLines]) -> BuildError:
    """The error for item `i` of `here` (a figure, a box, a reproduce box), one `there`
    lacks, whose items of its kind before it both pages share: at its own line, naming the
    line of `there` after which it belongs. That is the end of the item both have before it
    when that one is in the same place; else, in the same place, the end of the text before
    the item both have after it, or the end of the place. The place is the section (the
    headings both pages have, `_check_heading_ids`) or, for an item written inside a
    collapsible box both have (a reproduce box in its box), that box."""
    one, name, get, lines = kind
    items, at, theirs_at = get(here), lines(here), lines(there)
    line = _nth(at, i)
    section = _section_index(here, line)
    box = _enclosing_box(here, line)
    theirs_box = there.conversion.boxes.index(box) if box in there.conversion.boxes else -1
    if theirs_box < 0:
        box = ""

    def where_in(n: int) -> tuple[int, str]:
        return _section_index(here, n), _enclosing_box(here, n) if box else ""

    heads = there.conversion.headings
    title = f"section '#{heads[section].id}'" if section >= 0 else \
        "the text before the first section"
    stop: int | None
    if box:          # inside a box both have: from its opening line up to its closing one
        opened = there.conversion.lines.boxes[theirs_box]
        start, stop = _item_start(there, opened), _item_end(there, opened)
        title = f"the collapsible box '#{box}'"
    else:
        start = heads[section].line if section >= 0 else 1
        stop = heads[section + 1].line if section + 1 < len(heads) else None
    prev, after = _nth(theirs_at, i - 1) if i else 0, _nth(theirs_at, i)
    if prev and where_in(_nth(at, i - 1)) == where_in(line):
        end = _item_end(there, prev)
        place = f"the end of the {one} {name(items[i - 1])} both have before it, in {title}"
    elif after and i + 1 < len(at) and where_in(at[i + 1]) == where_in(line):
        end = _section_end(there, start, _item_start(there, after))
        place = f"in {title}, before the {one} {name(items[i + 1])} both have after it"
    else:
        end = _section_end(there, start, stop)
        place = f"the end of {title}" if not box else f"the end of the text in {title}"
    if one == "figure" and (written := _figure_written(there, f"{items[i]}.svg", start)):
        # there, but not read as a figure (indented, a bracket lost): at that line
        return BuildError(there.source, written,
                          f"'{items[i]}.svg' is named here but not read as a figure (it is one "
                          f"at {display_path(here.source)}:{line}); write it as a paragraph of "
                          "its own, unindented: ![what it shows](NAME.svg \"Caption\")")
    return BuildError(here.source, line,
                      f"{one} {name(items[i])} is only in this language; add it to "
                      f"{display_path(there.source)} after line {end}, {place}, "
                      "or remove it here")


def _figure_written(page: Page, file: str, start: int) -> int:
    """The line of `page`'s article, from line `start` on (else anywhere), that names the
    figure's file `file` (one the page did not read as a figure); 0 if none."""
    lines = page.source.read_text(encoding="utf-8").split("\n")
    found = [n for n, text in enumerate(lines, 1)
             if re.search(r"(?<![\w./-])" + re.escape(file), text)]
    return next((n for n in found if n >= start), found[0] if found else 0)


def _enclosing_box(page: Page, line: int) -> str:
    """The id of the innermost collapsible box of `page` whose text holds its line `line`
    (not the box that opens there); '' if none does."""
    found = ""
    own = _item_start(page, line)
    for ident, at in zip(page.conversion.boxes, page.conversion.lines.boxes, strict=False):
        start = _item_start(page, at) if at else 0
        if 0 < start < line and start != own and line < _item_end(page, at):
            found = ident
    return found


def _section_index(page: Page, line: int) -> int:
    """The index of the heading of `page` whose section holds its line `line`; -1 before the
    first heading."""
    return sum(1 for h in page.conversion.headings if 0 < h.line <= line) - 1


def _source_lines(page: Page) -> list[str]:
    try:
        return page.source.read_text(encoding="utf-8").split("\n")
    except (OSError, UnicodeDecodeError):
        return []


_BOX_OPEN = re.compile(r"^[ \t>]*(/{3,})[ \t]*details\b")


def _item_start(page: Page, line: int) -> int:
    """The first line of the block of the item recorded at `line`: a box's `/// details`
    line (its id's line is recorded), else `line`."""
    lines = _source_lines(page)
    opener = next((n for n in range(line, max(line - 3, 0), -1)
                   if n <= len(lines) and _BOX_OPEN.match(lines[n - 1])), 0)
    return opener or line


def _item_end(page: Page, line: int) -> int:
    """The last line of the block of the item recorded at `line`: a box's closing `///`, a
    code fence's closing fence, else the last line of the paragraph (a figure's)."""
    from .lexer import fence_end
    lines = _source_lines(page)
    if not 0 < line <= len(lines):
        return line
    start = _item_start(page, line)
    box = _BOX_OPEN.match(lines[start - 1])
    if box:
        slashes, depth, j = box.group(1), 0, start - 1
        while j < len(lines):
            fence = fence_end(lines, j)
            if fence is not None:
                j = fence + 1
                continue
            text = lines[j].strip().lstrip(">").strip()
            if text == slashes:
                depth -= 1
                if depth == 0:
                    return j + 1
            elif text.startswith(slashes) and not text.startswith(slashes + "/"):
                depth += 1
            j += 1
        return len(lines)
    fence = fence_end(lines, line - 1)
    if fence is not None:
        return fence + 1
    return next((n for n in range(line, len(lines)) if not lines[n].strip()), len(lines))


def _section_end(page: Page, start: int, stop: int | None) -> int:
    """The last line of text of the part of `page`'s file from line `start` up to the line
    before `stop` (None: to the end of the file), the definitions of notes at its end left out
    (articles keep them at the end: a section added after the last one goes before them);
    `start` if the part holds no more."""
    try:
        lines = page.source.read_text(encoding="utf-8").split("\n")
    except (OSError, UnicodeDecodeError):
        return start
    last = len(lines) if stop is None else stop - 1
    notes = set(page.conversion.lines.footnotes)
    cut = last + 1                    # the first line of the notes' definitions at the end
    for n in range(last, start, -1):
        text = lines[n - 1]
        if n in notes:
            cut = n
        elif text.strip() and not text[:1].isspace():
            break                     # text of the section (a note's lines are indented)
    return next((n for n in range(cut - 1, start, -1) if lines[n - 1].strip()), start)


def _level(level: int) -> str:
    """'level 2 (##)'."""
    return f"level {level} ({'#' * level})"


def _check_notes(base: Page, other: Page) -> None:
    """Both languages define the same notes, wherever their definitions stand (the page
    numbers notes by their references; `_check_citations` compares the references, section
    by section). A note only one language has: an error at its definition."""
    def notes(page: Page) -> dict[str, int]:
        c = page.conversion
        return dict(zip(c.footnotes, c.lines.footnotes, strict=False))
    a, b = notes(base), notes(other)
    for here, there, only in ((base, other, [x for x in a if x not in b]),
                              (other, base, [x for x in b if x not in a])):
        if only:
            label = only[0]
            twin = _note_twin(here, there, label,
                              [x for x in notes(there) if x not in notes(here)])
            if twin is not None:
                line, place, at = twin[1:]
                raise BuildError(here.source, notes(here)[label],
                                 f"note '{label}' is only in this language, and "
                                 f"{display_path(there.source)} has note '{twin[0]}' in its "
                                 f"place (referenced at line {at} there, in {place}, as this "
                                 f"one is at line {line} here); if they are one note, it has "
                                 f"one label in every language: write '[^{twin[0]}]' here "
                                 f"(its reference and its definition), or '[^{label}]' there")
            found = _note_place(here, there, label)
            if found is None:
                raise BuildError(here.source, notes(here)[label],
                                 f"note '{label}' is only in this language; add it (its "
                                 f"'[^{label}]: …' and its reference) to "
                                 f"{display_path(there.source)}, or remove it here")
            line, place, span = found
            raise BuildError(here.source, notes(here)[label],
                             f"note '{label}' is only in this language (its reference is at "
                             f"line {line}, in {place}); add it to "
                             f"{display_path(there.source)}: the reference in {place}{span} and "
                             f"'[^{label}]: …' with the other notes' definitions, or remove it "
                             "here")


def _note_twin(here: Page, there: Page, label: str,
               unmatched: list[str]) -> tuple[str, int, str, int] | None:
    """The note of `there` that note `label`, only `here` has, most likely is under another
    label: among `there`'s notes `here` lacks (`unmatched`), those first referenced in the
    place where `label` is first referenced here, the one whose label is closest to it
    (difflib). (label there, line of the reference here, the place, line of
    the reference there); None when no such note is there."""
    def first(page: Page, name: str) -> Citation | None:
        return next((k for k in page.conversion.cited
                     if k[1] == "footnote" and k[2] == name), None)
    mine = first(here, label)
    if mine is None:
        return None
    alike = {name: key for name in unmatched
             if (key := first(there, name)) is not None and key[0] == mine[0]}
    if not alike:
        return None
    name = difflib.get_close_matches(label, list(alike), n=1, cutoff=0)[0]
    return (name, _citation_line(here, mine), _place(mine[0]),
            _citation_line(there, alike[name]))


def _note_place(here: Page, there: Page, label: str) -> tuple[int, str, str] | None:
    """Where a note only `here` has goes in `there`: the line of its first reference here,
    that reference's place (a section, the text before the first one, or another note's
    text) and the lines of `there` that place spans (' (lines a–b there)', '' when not
    known); None when no reference of it is recorded or `there` lacks its section."""
    cited = next((k for k in here.conversion.cited if k[1] == "footnote" and k[2] == label),
                 None)
    if cited is None:
        return None
    section = cited[0]
    heads = there.conversion.headings
    outer = _note_label(section)
    if outer is not None:
        start = dict(zip(there.conversion.footnotes, there.conversion.lines.footnotes,
                         strict=False)).get(outer, 0)
        span = f" (its definition is at line {start} there)" if start else ""
    else:
        at = next((n for n, h in enumerate(heads) if h.id == section), -1) if section else -1
        if section and at < 0:
            return None
        start = heads[at].line if at >= 0 else 1
        stop = heads[at + 1].line if at + 1 < len(heads) else None
        span = f" (lines {start}–{_section_end(there, start, stop)} there)"
    return _citation_line(here, cited), _place(section), span


def check_figure_tables(pages: list[Page]) -> None:
    """Warn, in each article that shows it and at that article's own line, about each
    figure with no table of its numbers (`@table(name)` in web/fig_tables.py, README's "Add
    a figure", step 4): a screen reader, or a reader who wants the values, would get only
    the alt text. Raises nothing."""
    from .fig_tables import TABLES
    for page in pages:
        for name, line in zip(page.conversion.figures, page.conversion.lines.figures):
            if name in TABLES:
                continue
            warn(LOGGER, page.source, line,
                 f"figure '{name}' has no table of its numbers, so a screen reader gets only "
                 f"its alt text; register one with @table(\"{name}\") in "
                 "sqrtdk/web/fig_tables.py (README, 'Add a figure', step 4)")


def check_unshown_figures(pages: list[Page], names: list[str], social: str) -> None:
    """Warn, at its `@figure` line, about each registered figure (`names`) that no article
    shows and that is not the link-preview card (`social`): it is still drawn and published,
    and the results it reads count as used, as if it were on the page (an author who took a
    figure out of every article is told what is left). Raises nothing."""
    from ..figure_registrations import registration_line
    shown = {name for p in pages for name in p.conversion.figures} | {social}
    for name in names:
        if name not in shown:
            path, line = registration_line(name)
            warn(LOGGER, path, line,
                 f"figure '{name}' is shown by no article, yet it is drawn and published and "
                 "the results it reads count as used; show it in every article (a paragraph "
                 f"'![what it shows]({name}.svg \"Caption\")'), or remove its @figure "
                 "function here, its table in figures.toml and its @table in "
                 "sqrtdk/web/fig_tables.py")


def _nth(lines: list[int], i: int) -> int:
    return lines[i] if i < len(lines) else 0


def _check_citations(p1: Page, p2: Page) -> None:
    """Each section cites each result, footnote and claim as often in both languages; else
    BuildError naming the lines of every citation of the first differing one in both files
    (which of them is the extra one, only the author can tell) and the others that differ."""
    a, b = Counter(p1.conversion.cited), Counter(p2.conversion.cited)
    differing = [key for key in sorted(set(a) | set(b)) if a.get(key, 0) != b.get(key, 0)]
    if not differing:
        return
    key = differing[0]
    section, kind, name = key
    l1, l2 = _citation_line(p1, key), _citation_line(p2, key)
    what = {"result": "the result", "footnote": "the footnote reference",
            "claim": "the claim"}[kind]
    others = ", ".join(f"'{k[2]}'" for k in differing[1:4] if k[0] == section)
    n1, n2 = a.get(key, 0), b.get(key, 0)
    # what to do: the text that cites it less lacks a citation, or the other has one extra
    todo = ("every language must match: add it "
            + ("there, to the sentence that says what this one does, or remove the extra one "
               "here" if n1 > n2 else "here, to the sentence that says what that one does, or "
               "remove the extra one there"))
    raise BuildError(p1.source, l1, f"{_place(section)} cites {what} '{name}' "
                     f"{n1} time(s) here{_at_lines(p1, key, l1)} but "
                     f"{n2} in {where(p2.source, l2)}{_at_lines(p2, key, l2)}; "
                     + todo + (f" ({others} differ too)" if others else ""))


def _place(section: str) -> str:
    """A citation's place as the author knows it: "section '#paper-1'", "note '[^a]'" (the
    text of a note, wherever its definition stands) or the text before the first section."""
    if _note_label(section) is not None:
        return f"note '{section}'"
    return f"section '#{section}'" if section else "the text before the first section"


def _note_label(section: str) -> str | None:
    """The label of the note whose text is the place `section`, or None (a section)."""
    m = re.fullmatch(re.escape(NOTE_PLACE).replace(r"\{\}", "(.+)"), section)
    return m.group(1) if m else None


def _at_lines(page: Page, key: Citation, named: int) -> str:
    """' (also lines 3, 7 ×2)': where else the page cites `key`, as recorded, than the line
    `named` the message already gives, each line citing it more than once with how often
    (' ×2'), the named line too ('×2 on this line'); '' if nothing of that is known. A
    figure's alt text and caption stand on one line: without the counts a claim left out of
    one of them showed as many lines in both languages, and the line that differed was not
    to be seen."""
    c = page.conversion
    counts = Counter(line for k, line in zip(c.cited, c.cited_lines, strict=True)
                     if k == key and line)
    lines = sorted(line for line in counts if line != named)
    said = [f"×{counts[named]} on this line"] if counts[named] > 1 else []
    if lines:
        said.append(f"also line{'s' if len(lines) > 1 else ''} " + ", ".join(
            f"{line} ×{counts[line]}" if counts[line] > 1 else str(line) for line in lines))
    return f" ({'; '.join(said)})" if said else ""


def _citation_line(page: Page, key: Citation) -> int:
    """The line of the page's first citation `key`, as recorded where it was written (a quote,
    claim, formula or footnote reference); for a section that does not cite it, the line of
    the section's heading (1 for the part before the first), for a note its definition's."""
    c = page.conversion
    recorded = next((line for k, line in zip(c.cited, c.cited_lines, strict=True)
                     if k == key and line), 0)
    if recorded:
        return recorded
    section, label = key[0], _note_label(key[0])
    if label is not None:
        return dict(zip(c.footnotes, c.lines.footnotes, strict=False)).get(label, 0)
    return next((h.line for h in c.headings if h.id == section), 0) if section else 1


def check_precision(pages: list[Page], seed: int | None = None) -> None:
    """One quantity at one precision (README, "Show one quantity at one precision
    everywhere"): within a page, every quote of a result, alt texts and captions included,
    shows it as most of its quotes do (as the first does, when as many show it each way): the
    same resolution (`fixed:3` shows thousandths, as `pct:1` does; `sig:n` n significant
    digits) and a percent everywhere or nowhere. A warning at each quote that differs, naming
    the format and line of the first quote written that way. A quote its paragraph
    relates to others (quoting.Quoter.relate: `shown`) is shown with the digits the relation
    needs, which may be more than the quantity's own elsewhere, so it is left out of that
    comparison; where those digits are not what its filter asks for, a warning at its line
    says what is shown, why, and the filter to write. A paragraph quoting a ratio and one of
    its two operands but not the other (QuoteLog.missing) gets a warning at the ratio.
    `seed`: the build's, when not the default one: the digits a relation needs depend on
    the seed's numbers, so that warning says the filter it names is for that seed (written,
    it changes the default seed's page too, which may not need the digits)."""
    for page in pages:
        log = page.quotes
        for n, (left_out, fmt) in sorted(log.missing.items()):
            path, _, text = log.entries[n]
            warn(LOGGER, page.source, log.lines[n],
                 f"'{path}' ({text}) is a ratio of two results, and its paragraph quotes one "
                 f"but not '{left_out}': a number typed in its place follows neither the "
                 f"results nor the dₖ bar; quote it, {{{{ {left_out} | {_written(fmt)} }}}}")
        for n, why in sorted(log.why.items()):
            path, fmt, text = log.entries[n]
            shown = _written(log.shown[n])
            advice = f"write {shown}" if seed is None else (
                f"this page of seed {seed} shows {shown} either way; the digits a relation "
                "needs depend on the seed's numbers (the default seed's build warns where it "
                f"needs more): write {shown} only to show them at every seed, the default "
                "seed's page included")
            warn(LOGGER, page.source, log.lines[n],
                 f"'{path}' is written {_written(fmt)} here but shown as {shown} "
                 f"({text}): {why}; {advice}")
        quotes = sorted(((line, entry) for n, (line, entry)
                         in enumerate(zip(log.lines, log.entries, strict=True))
                         if n not in log.shown),      # in reading order (alt texts too)
                        key=lambda q: q[0])
        # each result's model: the first quote of the way most of its quotes show it (the
        # first quote's, when as many show it each way), so that one quote written apart
        # from the others is the one told, not the others
        ways: dict[str, Counter[tuple[tuple[str, int], bool]]] = {}
        for _, (path, fmt, _) in quotes:
            ways.setdefault(path, Counter())[_way(fmt)] += 1
        model: dict[str, tuple[str, str, int]] = {}
        for line, (path, fmt, text) in quotes:
            if path not in model and _way(fmt) == ways[path].most_common(1)[0][0]:
                model[path] = (fmt, text, line)
        for line, (path, fmt, text) in quotes:
            was, was_text, at = model[path]
            if _way(fmt) != _way(was) and not _same_number(text, was_text):
                warn(LOGGER, page.source, line,
                     f"'{path}' is shown as {_written(fmt)} here and as {_written(was)} at "
                     f"line {at}: a quantity is shown at one precision everywhere, so that "
                     f"readers can compare; write {_written(was)} here (or change both)")


def _way(fmt: str) -> tuple[tuple[str, int], bool]:
    """How a quote's format shows its number, for the one-precision rule: its resolution
    (`_resolution`) and whether it is a percent."""
    return _resolution(fmt), fmt.startswith("pct")


def _same_number(a: str, b: str) -> bool:
    """Whether two quotes show one number (an exact value: `3` and `3.000`); False when
    either is not a plain decimal (a percentage, a power of ten)."""
    try:
        return float(a.replace(",", "")) == float(b.replace(",", ""))
    except ValueError:
        return False


def _resolution(fmt: str) -> tuple[str, int]:
    """What a quote's format shows: ("dec", decimals of the fraction) for fixed and pct
    (`pct:1` shows what `fixed:3` shows) and grouped (0), ("sig", digits) for sig."""
    kind, _, digits = fmt.partition(":")
    n = int(digits or 0)
    return ("sig", n) if kind == "sig" else ("dec", n + 2 if kind == "pct" else n)


def _written(fmt: str) -> str:
    """A quote's format as an author writes the filter: `fixed:2` -> `fixed(2)`."""
    kind, _, digits = fmt.partition(":")
    return f"{kind}({digits})" if digits else kind


def check_claims(pages: list[Page], results: Mapping[str, Any]) -> None:
    """Every claim a sentence relies on holds for this build's results; BuildError at the
    sentence otherwise. A claim relied on beside numbers that follow the page's dₖ bar
    (followed.followed_claims) must hold at every dₖ the bar offers (Claim.each_dk: its
    results entry lists them in `d_k`); BuildError at the sentence otherwise, since a reader
    who moves the bar reads the sentence of numbers the claim was never checked on. Claims
    relied on by no sentence get a warning."""
    claims = results.get("claims", {})
    used: set[str] = set()
    mistakes = Mistakes()       # every sentence of every language relying on a failed claim
    for page in pages:
        beside = followed_claims(page, FOLLOW)
        for n, (name, line) in enumerate(zip(page.quotes.claims, page.quotes.claim_lines,
                                             strict=True)):
            used.add(name)
            with mistakes.seam():
                _holds(page, n, name, line, claims[name], beside, results)
    mistakes.raise_any()
    for name in sorted(set(claims) - used):
        path, line = claim_registration(name) or (pages[0].source, 0)
        warn(LOGGER, path, line, f"claim '{name}' is checked but no sentence relies on it; "
                                 f"mark the sentence with {{{{ claim(\"{name}\") }}}} in every "
                                 "language, or remove the claim here")


def _holds(page: Page, n: int, name: str, line: int, c: Mapping[str, Any],
           beside: Mapping[int, Any], results: Mapping[str, Any]) -> None:
    """BuildError at `line` of `page` when its `n`-th claim `name` (results entry `c`) does
    not hold, or holds only at the built dₖ beside numbers that follow the bar (`beside`,
    followed.followed_claims); see `check_claims`."""
    if not c["held"]:
        at_dk = ""
        if c.get("d_k"):
            worst = c["values"].index(c["value"])
            at_dk = f" (at d\u2096 = {c['d_k'][worst]:,} of the page's bar)"
        raise BuildError(page.source, line, f"this sentence relies on the claim '{name}' "
                         f"({c['statement']}), which does not hold for seed "
                         f"{results['meta']['seed']}: {c['unit'] or 'value'} = "
                         f"{c['value']:.6g}{at_dk}, needed {c['op']} {c['bound']:g}; "
                         "fix the experiment, or the text and its claim")
    if n in beside and not c.get("d_k"):
        keys = ", ".join(f"'{k}'" for k in beside[n])
        raise BuildError(page.source, line, f"this sentence relies on the claim '{name}', "
                         f"checked only at the d\u2096 the page was built at, beside "
                         f"{keys}, which {'follows' if len(beside[n]) == 1 else 'follow'} "
                         "the page's d\u2096 bar: a reader who "
                         "moves the bar reads the sentence of numbers the claim was "
                         "never checked on; register the claim with each_dk=True (its "
                         "value(section, i) at each place i of the grid), or quote "
                         "numbers that stay (a fixed place on the grid)")


def claim_registration(name: str) -> tuple[Path, int] | None:
    """The module of sqrtdk/science/ and the line where claim `name` is registered: the first
    string literal equal to the name, in whatever quotes or pieces it is written ("a.b",
    'a.b', "a." "b"), found by Python's own parser (ast) so that a text-only build imports
    no experiment; None when no module writes the name as a literal (one built at run time)
    or a module does not parse (the experiments' import tells that at its line)."""
    import ast

    from ..options import PACKAGE_DIR
    for path in sorted((PACKAGE_DIR / "science").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        try:
            tree = ast.parse(text, filename=str(path))
        except SyntaxError:
            continue
        lines = [node.lineno for node in ast.walk(tree)
                 if isinstance(node, ast.Constant) and node.value == name]
        if lines:
            return path, min(lines)
    return None


UNQUOTED_DEPTH = 3      # results are judged down to `section.key.key`
NOT_CONTENT = ("claims", "meta", "reproduce", "sweep")


def check_unused_results(results: Mapping[str, Any], used: set[str], results_file: Path) -> None:
    """A warning for each result (down to UNQUOTED_DEPTH levels) that no page quotes, no
    figure draws, the page's script does not embed and no claim reads: computed for nothing.
    `used` holds dotted paths (list indices as numbers or `[i]`); the warning names the line of
    `results_file` where the result is."""
    norm = {re.sub(r"\[[^\]]*\]|\.\d+(?=\.|$)", "", u) for u in used}
    # a path is covered when it is a used path, leads to one, or lies inside one
    within = {u.rsplit(".", n)[0] for u in norm for n in range(u.count(".") + 1)}

    def covered(path: str) -> bool:
        parts = path.split(".")
        return path in within or any(".".join(parts[:i]) in norm for i in range(1, len(parts)))

    unused: list[str] = []

    def walk(node: Any, path: str, depth: int) -> None:
        if isinstance(node, Mapping) and depth < UNQUOTED_DEPTH:
            for key, value in node.items():
                walk(value, f"{path}.{key}", depth + 1)
        elif not covered(path):
            unused.append(path)

    for section, value in results.items():
        if section not in NOT_CONTENT:
            walk(value, section, 1)
    if not unused:
        return
    try:
        text = results_file.read_text(encoding="utf-8")
    except OSError:
        text = ""
    for path in unused:
        warn(LOGGER, results_file, json_key_line(text, path.split(".")),
             f"result '{path}' is computed but no page quotes it, no figure draws it, the "
             "page's script does not embed it and no claim reads it; quote it, or stop "
             "computing it")


__all__ = ["LinkMemo", "PageLinks", "check_claims", "check_parity", "check_precision", "check_site",
           "check_unused_results", "display_path", "page_links", "with_shared_ids"]
