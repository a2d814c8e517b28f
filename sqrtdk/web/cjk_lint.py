"""Chinese text's spacing and punctuation, checked at build time (issue 20, item 6).

The rules are autocorrect's (the `autocorrect-py` package, pinned in requirements.txt): a
space between Chinese and Latin letters or digits, full-width punctuation after Chinese,
and the like. It reads the article with its formulas and code masked by the lexer, so TeX
and code are never "corrected"; each line it would change is one warning,
`path:line: warning: …`, quoting the first place that differs. Warnings, not errors: a rule
can be wrong for a sentence, and the author decides (`--strict` turns them into errors).

The words around the article are Chinese text too: every string of a Chinese strings.toml
and figures.toml (`lint_strings`, at the string's line) gets autocorrect's rules, and two
more that autocorrect cannot see in a string the page completes (its `{fields}` stand for
Chinese words): no half-width comma, colon or semicolon before a space, no half-width
parentheses around Chinese text or a field (`HALF`); and the article's quote marks (curly
quotes U+201C/U+201D or corner brackets U+300C/U+300D, one style per language: `quote_style`).
"""
from __future__ import annotations

import functools
import logging
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..html_parsing import HTMLParser
from ..log import SPACING, warn
from ..textfiles import TomlFile
from .blocks import cmark_html
from .lexer_inline import Masked
from .markers import PROBE_RE, TEXT_BRACKET, TEXT_BRACKET_CLOSE, probe

LOGGER = logging.getLogger("sqrtdk.web.cjk_lint")
_CONTEXT = 12            # characters shown on each side of the first difference
# what a spacing warning asks: "or ignore this warning", it said, but CI's (and the Pages
# workflow's) `--strict` build stops at every warning: an ignored one kept the site unpublished
FIX = "autocorrect's rules; fix the text: a --strict build, as CI's, stops at every warning"
# an article's line can also be switched off (switched_off), where a rule is wrong for it
FIX_ARTICLE = ("autocorrect's rules; fix the text, or, where a rule is wrong for it (a name "
               "as its maker writes it), switch them off: <!-- autocorrect-disable --> at the "
               "end of the line before, <!-- autocorrect-enable --> at the end of its line; a "
               "--strict build, as CI's, stops at every warning")


@dataclass(frozen=True)
class Finding:
    """One line autocorrect would change: its 1-based number, what is there, what it wants."""

    line: int
    old: str
    new: str


# autocorrect's rules but one: its space-dash, a space on each side of a hyphen between two
# Chinese characters, told d2l-zh's '\u7f16\u7801\u5668-\u89e3\u7801\u5668'
# ('encoder-decoder') to read better as a spaced hyphen, which no Chinese style writes: the
# short hyphen joins related words with no space around it (GB/T 15834-2011, 4.13), and a
# dash is the full-width '\u2014\u2014'
_CONFIG = '{"rules": {"space-dash": 0}}'


@functools.cache
def _autocorrect() -> Any:
    """The autocorrect_py module, its rules set up as _CONFIG says (once per process)."""
    import autocorrect_py
    # (the package's type stub leaves out load_config, which its module has)
    autocorrect_py.load_config(_CONFIG)  # type: ignore[attr-defined]
    return autocorrect_py


def findings(text: str, name: str = "index.md") -> list[Finding]:
    """What autocorrect's linter says about `text` (Markdown with formulas masked)."""
    autocorrect = _autocorrect()
    result = autocorrect.lint_for(text, name)
    return [Finding(int(r.line), str(r.old),
                    _settled(lambda line: str(autocorrect.format_for(line, name)), str(r.new)))
            for r in result.lines]


def _settled(step: Callable[[str], str], line: str) -> str:
    """`line` as autocorrect's `step` leaves it after as many passes as change it (at most
    a few): one pass makes full-width letters and digits half-width, 'GPU' typed full-width
    beside Chinese, and only the next spaces them, so the text a warning gave was warned
    again."""
    for _ in range(4):
        again = step(line)
        if again == line:
            break
        line = again
    return line


def excerpt(old: str, new: str, written: Callable[[str], str] = lambda text: text
            ) -> tuple[str, str]:
    """The two texts around their first difference, `_CONTEXT` characters each side, as the
    author wrote them: `written` turns masked text back (code as written, formulas as
    `$…$`: `lexer_inline.Masked.as_written`), before the texts are cut, so no cut falls
    inside a placeholder."""
    old, new = written(old), written(new)
    start = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
    end_old, end_new = len(old), len(new)
    while end_old > start and end_new > start and old[end_old - 1] == new[end_new - 1]:
        end_old, end_new = end_old - 1, end_new - 1
    lo = max(start - _CONTEXT, 0)
    return old[lo:end_old + _CONTEXT], new[lo:end_new + _CONTEXT]


# a link whose text holds footnote references, `[words[^n] more](address)`: autocorrect reads
# the reference there as words (plain text's `words[^n]` it knows); the page moves the
# reference after the link (md_notes.NestedLinks), and so does what autocorrect reads
_NOTE_REF = re.compile(r"\[\^[^\]\s]+\]")
_NOTE_IN_LINK = re.compile(r"(?<!!)\[((?:[^\[\]\n]|\[\^[^\]\s]+\])*\[\^[^\]\s]+\]"
                           r"(?:[^\[\]\n]|\[\^[^\]\s]+\])*)\](\([^()\n]*\))")


def _note_after_link(m: re.Match[str]) -> str:
    """`[words[^n] more](address)` as `[words more](address)[^n]` (the same length)."""
    return (f"[{_NOTE_REF.sub('', m.group(1))}]{m.group(2)}"
            + "".join(_NOTE_REF.findall(m.group(1))))


# a label no reader sees: a note's, `[^label]` (a reference, or a definition's start), a
# full reference link's, `[words][label]`, and a link reference definition's, `[label]:` at
# a line's start, and a box's options line, `attrs: {id: …}` (ids, classes); one that is not
# ASCII (`[^\u6ce81]`, `[\u53c2\u80031]`: Chinese and digits) is read as an ASCII stand-in
_LABEL = re.compile(r"\[\^(?P<note>[^\]\s]+)\]|(?<=\])\[(?P<ref>[^\]\n]+)\]"
                    r"|^(?P<lead>[ \t>]*)\[(?P<defined>[^\]\n]+)\](?=:)"
                    r"|^(?P<indent>[ \t]+)(?P<attrs>attrs:[ \t]*\{[^{}\n]*\})[ \t]*$", re.M)


# a shortcut or collapsed reference link, `[\u53c2\u80031]` or `[\u53c2\u80031][]`, whose
# words are its label
_SHOWN_LABEL = re.compile(r"(?<![\]\\])\[(?!\^)([^\[\]\n]+)\](?:\[\])?(?![\[(:])")


def _label_key(label: str) -> str:
    """A reference label as links match it (case and runs of spaces aside)."""
    return " ".join(label.casefold().split())


class _StandIns(dict[str, str]):
    """Each ASCII stand-in of a label no reader sees and what it takes the place of."""

    def __init__(self) -> None:
        super().__init__()
        self._keys: dict[str, str] = {}     # the stand-in of each label as written

    def key(self, written: str, form: str = "{}") -> str:
        """The stand-in of `written` (one for each text written), made in `form`."""
        if written not in self._keys:
            self._keys[written] = form.format(f"label{len(self)}x")
            self[self._keys[written]] = written
        return self._keys[written]

    def restored(self, text: str) -> str:
        """`text` with each stand-in as written."""
        return _STAND_IN.sub(lambda m: self.get(m[0], m[0]), text) if self else text


# a stand-in as `_StandIns.key` makes them: `[^label0x]`, `[label1x]`, `label2x`
_STAND_IN = re.compile(r"\[\^?label\d+x\]|label\d+x")


def _ascii_note_labels(text: str) -> tuple[str, _StandIns]:
    """`text` with each label no reader sees (_LABEL) that is not ASCII as an ASCII
    stand-in, and what each stand-in takes the place of (to quote the text as written). So
    is the label of a shortcut or collapsed reference that a definition defines: its words
    are the label, which changed there alone no longer names the definition."""
    stand_ins = _StandIns()

    def stand_in(m: re.Match[str]) -> str:
        label = m["note"] or m["ref"] or m["defined"] or m["attrs"]
        if label.isascii():
            return m.group(0)
        lead = m["lead"] or m["indent"] or ""
        return lead + stand_ins.key(m["attrs"] or m.group(0)[len(lead):],
                                    "[^{}]" if m["note"] else "[{}]")

    defined = {_label_key(m["defined"]) for m in _LABEL.finditer(text) if m["defined"]}

    def shown(m: re.Match[str]) -> str:
        if m[1].isascii() or _label_key(m[1]) not in defined:
            return m.group(0)
        return stand_ins.key(f"[{m[1]}]", "[{}]") + m.group(0)[len(m[1]) + 2:]
    return _SHOWN_LABEL.sub(shown, _LABEL.sub(stand_in, text)), stand_ins


# a cell's end in a table row: a '|' that is not escaped, nor inside a template's {{ }} or
# {% %} (a filter: `{{ x | pct(0) }}`); code and formulas are masked already. An opener
# reaches only to the next brace: one written as text masks nothing after it (it read to a
# `}}` anywhere later, and, with none, to the end from every opener: quadratic)
_CELL_PART = re.compile(r"\{\{[^{}]*\}\}|\{%[^{}]*%\}|\\.|[^|{\\]+|\{")
_TEMPLATE = re.compile(r"\{\{[^{}]*\}\}|\{%[^{}]*%\}")


def _cells(row: str) -> list[str]:
    """The texts of a table row's cells (a quote's '>' and the indentation before it, and
    the outer pipes, left out)."""
    text = row.lstrip(" \t>").rstrip()
    cells, cell, at = [], "", 0
    while at < len(text):
        if text[at] == "|":
            cells.append(cell)
            cell, at = "", at + 1
            continue
        part = _CELL_PART.match(text, at)
        assert part is not None
        cell, at = cell + part.group(0), part.end()
    cells.append(cell)
    if text.startswith("|"):
        cells = cells[1:]
    if text.endswith("|") and len(text) > 1:
        cells = cells[:-1]
    return [c.strip() for c in cells if c.strip()]


def _github_reading(text: str) -> Any:
    """`text` as GitHub reads it (cmark-gfm's tree with source positions), once for the table
    rows and the headings; None when it can hold neither ('|' nor '{')."""
    if "|" not in text and "{" not in text:
        return None
    from .blocks import cmark_tree
    # the page's Markdown reads the template's output: a filter's '|' is no cell's end
    return cmark_tree(_TEMPLATE.sub(lambda m: re.sub("[^\n]", "x", m.group(0)), text))


def _table_rows(text: str, tree: Any) -> dict[int, list[str]]:
    """The 1-based line of every table row of `text` as GitHub reads it (`tree`, from
    `_github_reading`), with its cells' texts."""
    if tree is None:
        return {}
    from .blocks import sourcepos_line
    lines = text.split("\n")
    rows = {sourcepos_line(tr) for tr in tree.iter("tr")}
    return {n: _cells(lines[n - 1]) for n in sorted(rows) if 0 < n <= len(lines)}


# a heading's attribute list, `{#id}`, `{: #id .class }` (md_blocks' _HEADING_ID)
_HEADINGS = ("h1", "h2", "h3", "h4", "h5", "h6")
_HEADING_ATTRS = re.compile(r"\s*\{(?=[^{}\n]*\}[ \t]*$)[^{}\n]*#[\w-]+[^{}\n]*\}[ \t]*$")


def _without_heading_ids(text: str, tree: Any) -> str:
    """`text` with the attribute list at the end of each heading's last line taken out: an
    id is an address, and autocorrect would space its Chinese and Latin apart (`{#zh-and-latin}`
    to an id with spaces, which the build refuses). The headings are those GitHub reads
    (cmark-gfm: `tree`, from `_github_reading`), so a line that merely ends in braces inside
    code or a paragraph is kept."""
    if tree is None or "{" not in text:
        return text
    lines = text.split("\n")
    for h in (e for e in tree.iter() if e.tag in _HEADINGS):
        pos = h.get("data-sourcepos", "")
        if not pos[:1].isdigit():
            continue
        first, last = int(pos.split(":", 1)[0]), int(pos.split("-", 1)[1].split(":", 1)[0])
        # a setext heading's underline is its last line: the words end on the line above
        for n in (last, last - 1) if last > first else (last,):
            if 0 < n <= len(lines) and _HEADING_ATTRS.search(lines[n - 1]):
                lines[n - 1] = _HEADING_ATTRS.sub("", lines[n - 1])
                break
    return "\n".join(lines)


def _table_findings(text: str, name: str, tree: Any) -> list[Finding]:
    """`findings` of `text` with each table row read cell by cell: the page shows the cells
    apart, however the pipes between them are spaced, and autocorrect read a row as one
    sentence (a row of Chinese words between pipes with no spaces was to have spaces
    around its inner pipes only: a change the page does not show).
    A row's first cell that autocorrect would change is its line's finding."""
    rows = _table_rows(text, tree)
    if not rows:
        return findings(text, name)
    outside = "\n".join("" if n in rows else line for n, line in enumerate(text.split("\n"), 1))
    found = findings(outside, name)
    for n, cells in rows.items():
        inside = findings("\n\n".join(cells), name)
        found += [Finding(n, inside[0].old, inside[0].new)] if inside else []
    return sorted(found, key=lambda f: f.line)


# a '[' to leave as it is: escaped (GitHub reads it as text: `_text_brackets`), right after
# a ']' (a reference's label, `[text][ref]`: a mark between them would part them), or opening
# a line that defines a reference or a note, `[ref]: address` (a mark would undo it)
_ESCAPED_BRACKET = re.compile(r"(?<!\\)(?:\\\\)*\\\[")
_DEFINITION = re.compile(r"^[ \t>]*(\[)[^\]\n]*\]:", re.M)


def _text_brackets(text: str, masked: Masked) -> str:
    """`text` (the masked article) with each '[' that GitHub reads as text, not as a link's,
    an image's or a note reference's, as TEXT_BRACKET. The code masked, autocorrect took a
    '[' whose ']( … )' a code span holds for a link's (CommonMark 0.31, 6.1: a code span
    takes precedence, so `[not a `link](/foo`)` is none), as it did an interval's '[0, 1)',
    and warned about that link and every real one after it. GitHub's reading decides: each
    '[' gets a probe (markers.probe) in the text with its code restored, and cmark-gfm's
    HTML shows which probes a link, an image or a note reference follows."""
    plain = _TEMPLATE.sub(lambda m: re.sub("[^\n]", "x", m.group(0)), text)
    escaped = {m.end() - 1 for m in _ESCAPED_BRACKET.finditer(plain)}
    kept = escaped | {m.start(1) for m in _DEFINITION.finditer(plain)}
    at = [i for i, c in enumerate(plain) if c == "[" and i not in kept
          and plain[i - 1:i] != "]"]
    if not at and not escaped:
        return text
    probed, last = [], 0
    for n, i in enumerate(at):
        start = i - 1 if plain[i - 1:i] == "!" else i      # an image's '!' stays with its '['
        probed += [plain[last:start], probe(n)]
        last = start
    html = cmark_html(masked.restore_code("".join(probed) + plain[last:]))
    # a probe in the text (one in an address is %-encoded, so not found: left as it is)
    # that no link, image or note reference (<sup><a>) follows
    text_at = {at[int(m.group(1))] for m in PROBE_RE.finditer(html)
               if not html.startswith(("<a ", "<img ", "<sup "), m.end())} | escaped
    closes = _closing_brackets(plain, text_at)
    return "".join(TEXT_BRACKET if i in text_at else TEXT_BRACKET_CLOSE if i in closes else c
                   for i, c in enumerate(text))


_BLANK_LINE = re.compile(r"\n[ \t>]*(?=\n)")


def _closing_brackets(plain: str, opens: set[int]) -> set[int]:
    """The ']' of `plain` that are text: the one closing each '[' at `opens` (brackets
    nested between them paired first, none across a blank line) and every escaped one.
    Only the '[' hidden, autocorrect read its ']' as a lone bracket and asked for a space
    after it, `[1]\u7684` told '1] \u7684': a space on one side of the pair."""
    closes: set[int] = set()
    stack: list[int] = []
    blank = {m.start() for m in _BLANK_LINE.finditer(plain)}
    i = 0
    while i < len(plain):
        c = plain[i]
        if c == "\\":                 # an escape: a bracket after it is text
            after = plain[i + 1:i + 2]
            if after == "]":
                closes.add(i + 1)
            elif after == "[":
                stack.append(i + 1)
            i += 2
            continue
        if i in blank:
            stack.clear()
        elif c == "[":
            stack.append(i)
        elif c == "]" and stack and stack.pop() in opens:
            closes.add(i)
        i += 1
    return closes


# autocorrect's own switches, in a comment (its documentation, "Disable with inline comment":
# a comment holding `autocorrect-disable` or `autocorrect: false` turns the rules off until
# one holding `autocorrect-enable` or `autocorrect: true`); MDN's Chinese pages use them
_SWITCH = re.compile(r"autocorrect(?:-(disable|enable)\b|\s*:\s*(false|true)\b)")


def switched_off(path: Path, text: str) -> set[int]:
    """The 1-based lines of `text` (an article, lines as in the file at `path`) where the
    author turned autocorrect's rules off: the lines whose text lies between a comment
    (`<!-- … -->` or `{# … #}`, outside code) holding `autocorrect-disable` or `autocorrect:
    false` and the next one holding `autocorrect-enable` or `autocorrect: true`, or the end.
    So a switch off at a line's end starts at the next line and a switch on at a line's start
    ends at the line before: a sentence of a paragraph (a Chinese paragraph is one line) is
    switched off on a line of its own, the switches at the ends of the lines, without the
    line before it (a comment on a line of its own would split the paragraph on GitHub).
    The lexer drops comments before the text is linted, so autocorrect never sees its
    switches itself. Raises BuildError as `comment_spans`."""
    from .comments import comment_spans
    from .lexer import code_block_end
    off: set[int] = set()
    start: int | None = None           # where the text switched off starts

    def switch_off(begin: int, end: int) -> None:
        """The lines of the text in [begin, end), surrounding white space left out."""
        chunk = text[begin:end]
        first, last = begin + len(chunk) - len(chunk.lstrip()), begin + len(chunk.rstrip())
        if first < last:
            off.update(range(text.count("\n", 0, first) + 1,
                             text.count("\n", 0, last - 1) + 2))

    for begin, end in comment_spans(path, text, code_block_end):
        m = _SWITCH.search(text, begin, end)
        if m is None:
            continue
        disable = (m.group(1) or m.group(2)) in ("disable", "false")
        if disable and start is None:
            start = end
        elif not disable and start is not None:
            switch_off(start, begin)
            start = None
    if start is not None:
        switch_off(start, len(text))
    return off


def lint_chinese(path: Path, masked_text: str, masked: Masked,
                 off: set[int] | frozenset[int] = frozenset()) -> int:
    """Warn at every line of `masked_text` (the lexer's masked article, lines as in the file
    at `path`) whose spacing or punctuation autocorrect would change; returns how many.
    `masked`: the lexer's record of the code and formulas the text's tokens stand for, so
    the warning quotes the text as written. A table row is read cell by cell, a heading
    without its `{#id}`, a '[' GitHub reads as text as no link's (`_text_brackets`). `off`:
    the lines the author turned the rules off for (`switched_off`)."""
    text = _text_brackets(_NOTE_IN_LINK.sub(_note_after_link, masked_text), masked)
    text, stand_ins = _ascii_note_labels(text)
    text = _ascii_attribute_values(text, stand_ins)
    tree = _github_reading(text)     # lines stay as they are: one reading serves both
    found = [f for f in _table_findings(_without_heading_ids(text, tree), path.name, tree)
             if f.line not in off]
    lines = text.split("\n")
    for f in found:
        line = lines[f.line - 1] if 0 < f.line <= len(lines) else ""
        if f.old == f.new:
            # autocorrect reports the line without the spaces around its text: its one
            # change, full-width spaces made ASCII, would not show in the two texts
            where = "starts" if _INDENTED.match(line) else "ends"
            warn(LOGGER, path, f.line, f"{SPACING}: the line's text {where} with full-width "
                 "spaces (U+3000, as a Word or WPS paragraph indent), which Markdown does not "
                 "read as an indent (GitHub shows them as blank space, the page leaves them "
                 "out at a paragraph's start); remove them (autocorrect's rules would make "
                 "them ASCII spaces)")
            continue
        was, wants = excerpt(f.old, f.new, lambda text: masked.as_written(
            stand_ins.restored(text).replace(TEXT_BRACKET, "[").replace(
                TEXT_BRACKET_CLOSE, "]"), "$…$"))
        warn(LOGGER, path, f.line, f"{SPACING}: '{was}' reads better as "
             f"'{wants}' ({FIX_ARTICLE})")
    return len(found)


# the attributes of inline HTML whose values are words a reader gets; the others (an address,
# an id, a class) are not checked
_WORDS_ATTRIBUTES = frozenset(("alt", "title", "aria-label", "aria-description", "summary"))


class _StartTags(HTMLParser):
    """The start tags of a text (Markdown with inline HTML): where each starts (line, column),
    its text as written and its attributes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[int, int, str, list[tuple[str, str | None]]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        line, column = self.getpos()
        self.tags.append((line, column, self.get_starttag_text() or "", attrs))

    handle_startendtag = handle_starttag


def _ascii_attribute_values(text: str, stand_ins: _StandIns) -> str:
    """`text` with each value of an inline HTML attribute that is no words (an address, an
    id: `<a href="#\u56fe1">`) and not ASCII as an ASCII stand-in, recorded in `stand_ins`."""
    if "<" not in text:
        return text
    parser = _StartTags()
    parser.feed(text)
    parser.close()
    lines = text.split("\n")
    for line, column, written, attrs in reversed(parser.tags):
        changed = written
        for name, value in attrs:
            if not value or value.isascii() or name in _WORDS_ATTRIBUTES or value not in changed:
                continue
            changed = changed.replace(value, stand_ins.key(value))
        row = lines[line - 1] if 0 < line <= len(lines) else ""
        if changed != written and row.startswith(written, column):
            lines[line - 1] = row[:column] + changed + row[column + len(written):]
    return "\n".join(lines)


# full-width spaces at the start of a line's text, after a quote's '>' or a list's marker
_INDENTED = re.compile(r"[ \t>]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)?\u3000")


# Han characters (the unified blocks and their extension A, the compatibility block) and
# CJK punctuation
_CJK = "\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef"
# half-width punctuation a Chinese string should not hold: a comma, colon or semicolon before
# a space or at the end (parts joined as English joins them: "<Chinese>: A, B"), and parentheses
# after a space or Chinese, around Chinese text or a {field} ("<Chinese> ({ruler})"); a number's
# "1,024", a field's "{d:,}" and a formula's "p(1 − p)" or "{pH}(1 − {pH})" are not
# punctuation of the sentence
HALF = re.compile(rf"[,:;](?=\s|$)|(?:^|(?<=[\s{_CJK}]))\([^()]*(?:[{_CJK}]|\{{\w+\}})[^()]*\)")
# a style: the marks that make it (curly quotes, corner brackets)
QUOTES = {"\u201c\u201d": "\u201c\u201d", "\u300c\u300d": "\u300c\u300d"}


def quote_styles(text: str) -> list[str]:
    """The quote styles (QUOTES) `text` uses, in the order of their first mark."""
    at = {style: min((i for i in (text.find(c) for c in marks) if i >= 0), default=-1)
          for style, marks in QUOTES.items()}
    return sorted((st for st, i in at.items() if i >= 0), key=lambda st: at[st])


def quote_style(path: Path, text: str) -> str | None:
    """The article's quote style (QUOTES), None if it quotes nothing; an article that uses
    two is warned at the first line of the less used one (its majority style is returned)."""
    counts = {st: sum(text.count(c) for c in marks) for st, marks in QUOTES.items()}
    used = sorted((st for st in counts if counts[st]), key=lambda st: -counts[st])
    for other in used[1:]:
        line = 1 + text[:min(i for i in (text.find(c) for c in other) if i >= 0)].count("\n")
        warn(LOGGER, path, line, f"Chinese quote marks: {other} here, {used[0]} elsewhere in "
             f"the article; use one style ({used[0]}) in the article and the interface")
    return used[0] if used else None


def _strings_of(data: dict[str, Any]) -> Iterator[tuple[str | None, str, str]]:
    """(table or None, key, text) of every string of a TOML file, one level of tables deep
    (a list of strings: each of them)."""
    for name, value in data.items():
        items = value.items() if isinstance(value, dict) else [(name, value)]
        for key, v in items:
            table = name if isinstance(value, dict) else None
            for text in v if isinstance(v, list) else [v]:
                if isinstance(text, str):
                    yield table, key, text


def quote_line(text: str, style: str) -> int:
    """The 1-based line of the first mark of quote style `style` in `text` (0: none)."""
    at = [i for i in (text.find(c) for c in QUOTES[style]) if i >= 0]
    return 1 + text.count("\n", 0, min(at)) if at else 0


def lint_strings(file: TomlFile, quotes: str | None, where: str = "") -> int:
    """Warn at the line of every string of `file` (a Chinese strings.toml or figures.toml)
    that autocorrect would change, that holds half-width punctuation (HALF), or that quotes
    with other marks than the article's style `quotes` (None: the article quotes nothing;
    `where`: the article's path and line of its first such mark, which the warning names:
    an article pasted in with another style than the interface's is told where it is);
    returns how many."""
    autocorrect = _autocorrect()
    found = 0
    for table, key, text in _strings_of(file.data):
        line = file.line_of(table, key)
        name = f"[{table}] {key}" if table else key
        wants = _settled(lambda t: str(autocorrect.format(t)), text)
        half = HALF.search(text)
        other = [st for st in quote_styles(text) if quotes and st != quotes]
        if wants != text:
            was, new = excerpt(text, wants)
            warn(LOGGER, file.path, line, f"{name}: {SPACING}: '{was}' "
                 f"reads better as '{new}' ({FIX})")
        elif half:
            warn(LOGGER, file.path, line, f"{name}: half-width '{half.group(0).strip()}' in "
                 "Chinese text; write full-width punctuation (\uff0c\uff1a\uff1b\uff08\uff09) "
                 "with no space after it")
        elif other:
            seen = f" (first at {where})" if where else ""
            warn(LOGGER, file.path, line, f"{name}: quote marks {other[0]}, but the article "
                 f"quotes with {quotes}{seen}; use one style in the article and the interface")
        else:
            continue
        found += 1
    return found
