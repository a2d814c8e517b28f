"""Two readings of the same blocks compared: cmark-gfm's (GitHub's) and ours aligned as
`diff` aligns lines, each stretch they read differently described in words, with how to
write the passage so both read it alike (the warnings of `md_blocks`)."""
from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from functools import lru_cache
from itertools import pairwise

from ..errors import shortened
from ..html_parsing import HTMLParser
from .blocks import Block, html_text
from .raw_html import markdown_raw_lines

NAMES = {"p": "a paragraph", "ul": "a list", "ol": "a numbered list", "li": "a list item",
         "blockquote": "a quote", "pre": "a code block", "table": "a table", "tr": "a table row",
         "th": "a header cell", "td": "a table cell", "hr": "a rule", "html": "raw HTML"}
_TABLE = {"tr", "th", "td"}
# a list item numbered in full-width digits ('\uff11. \u2026', a Chinese input method's):
# Python-Markdown's '\d' takes them, CommonMark's list marker does not
_WIDE_ITEM = re.compile(r"[ \t>]*([\uff10-\uff19]{1,9})\.[ \t]")
_ASCII_DIGITS = str.maketrans("\uff10\uff11\uff12\uff13\uff14\uff15\uff16\uff17\uff18\uff19",
                              "0123456789")
_PAREN_ITEM = re.compile(r"[ \t>]*\d{1,9}\)[ \t]")
_DETAILS = re.compile(r"<details[\s>]", re.I)
_BULLET = re.compile(r"([ \t>]*)([-*+]|\d{1,9}[.)])[ \t]")
_NOTE_DEFINITION = re.compile(r"\[\^[^\]\s]+\]:")
_ITEM = re.compile(r"[ \t]*(?:[-*+]|(\d{1,9})[.)])(?:[ \t]|$)")
_QUOTE = re.compile(r"[ \t]*>")
_QUOTED = re.compile(r"([ \t]*>(?:[ \t]?>)*[ \t]?)(.*)")     # a quote's line: its marks, text
_DELIMITER = re.compile(r"\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?")   # |---|:-:|
_YAML_KEY = re.compile(r"[A-Za-z_][\w-]*:(?:[ \t]|$)")       # a line of YAML front matter
ITEM_AS_TEXT = ("this Markdown reads the list item here as more text of the paragraph above "
                "it, GitHub (CommonMark) as a new item; the page shows it as text: put a blank "
                "line before it: right under a paragraph (code, a formula) indented into the "
                "item above, an item needs a blank line above it")
ITEM_UNDER_TABLE = ("this Markdown reads the list item here as more text of the table above "
                    "it, and the table's rows as text too, GitHub (CommonMark) as a table and "
                    "a new item; the page shows the table and the item as text: put a blank "
                    "line before it: right under a table indented into the item above, an "
                    "item needs a blank line above it")
ITEM_IN_NESTED_LIST = (
    "this Markdown reads the list item here as part of the nested list above it (more text of "
    "its last item, or one more item of it), GitHub (CommonMark) as an item of the outer list; "
    "the page shows it inside the nested list: put a blank line before it: right under a "
    "nested list that follows a blank line, an item of an outer list needs a blank line above "
    "it")
WORDS_ONLY = "only the words differ"    # the advice where the blocks are the same
_INTERRUPTERS = {"ul", "ol", "table", "pre", "blockquote", "hr", "h1", "h2", "h3", "h4", "h5",
                 "h6"}


def describe(blocks: list[Block]) -> str:
    """The outermost blocks of a stretch, in words ('a paragraph, then a list')."""
    if not blocks:
        return "nothing"
    top = min(b.depth for b in blocks)
    names = [NAMES.get(b.kind, f"a level-{b.kind[1:]} heading") for b in blocks
             if b.depth == top]
    unique = list(dict.fromkeys(names))
    return ", then ".join(unique[:3]) + (", …" if len(unique) > 3 else "")


def _cause(source: Sequence[str], line: int, theirs: list[Block]) -> tuple[str, bool, int]:
    """A hint from the text of the stretch (the lines from `line`, 1-based, to one past
    cmark-gfm's last block of it) where its blocks alone would mislead ('' if none), and
    whether it is about how a list is written (a list right under a paragraph line then
    needs a blank line above it as well), and the line its fix goes at where the text tells
    (a nested list's first line; 0: where the stretch starts)."""
    if not source or not line:
        return "", False, 0
    end = _stretch_end(theirs, line)
    region = list(source[line - 1:end])
    k = line - 2                       # the block above, past blank lines
    while k >= 0 and not source[k].strip():
        k -= 1
    while k >= 0 and source[k].strip():
        k -= 1
    above = list(source[k + 1:line - 1])
    if region and all(_YAML_KEY.match(x) for x in region if x.strip() and x.strip() != "---") \
            and any(x.strip() == "---" for x in [*region, *source[line - 2:line - 1]]):
        return ("these lines are another front matter block (the pasted post's own YAML, "
                "'title: …', 'date: …'), a paragraph here: put its title and description in "
                "the front matter at the top of the file, and remove the block with its '---' "
                "lines"), False, 0
    if region and not region[0].strip() and region[0].strip(" \t"):
        return ("the line holds only a non-breaking or full-width space (a spacer of Word, "
                "WPS or an online editor), an empty paragraph on GitHub and a blank line "
                "here: remove the line"), False, 0
    if any(_PAREN_ITEM.match(x) for x in region):
        return ("a numbered list with '1)' is a paragraph here (this Markdown numbers only "
                "'1.'): write '1.', '2.', …"), True, 0
    wide = next((m for x in region if (m := _WIDE_ITEM.match(x))), None)
    if wide:
        narrow = wide[1].translate(_ASCII_DIGITS)
        return (f"'{wide[1]}.' is a number in full-width digits (as a Chinese input method "
                "types them), which this Markdown reads as a numbered list and GitHub as "
                f"text: write '{narrow}.', in ASCII digits, at the start of each item"), True, 0
    openers, closers = _details_lines(tuple(source))
    k = bisect_left(openers, line - 1)
    opened = openers[k - 1] if k else -1          # the last <details> above the stretch
    if any(_DETAILS.search(x) for x in region) or (
            opened >= 0 and bisect_left(closers, opened) == bisect_left(closers, line - 1)):
        title, box_id = _box_lines(source, opened if opened >= 0 else line - 1)
        return ("a <details> box written in HTML keeps the Markdown inside it as typed here: "
                f"write it as a box, its first lines '/// details | {title}' and "
                f"'    attrs: {{id: {box_id}}}' (a box needs an id), then the Markdown, "
                "closed by a line '///'"), False, 0
    if any(b.kind != "html" and b.line >= line for b in theirs) and \
            line in _kept_raw("\n".join(source)):
        return ("this Markdown keeps a block of HTML whole, as typed, up to its closing tag "
                "(Markdown inside it is not read: '*a*' keeps its stars), GitHub reads "
                "Markdown inside it after a blank line: write the Markdown outside the HTML "
                "block, or write its inside in HTML (<em>a</em>, <p>…</p>) with no blank "
                "line"), False, 0
    closing, at = _long_closer(source, line, end)
    if closing:
        return closing, False, at
    here = _BULLET.match(region[0]) if region else None
    if here and here.group(2) in "-*+" and any(
            (m := _BULLET.match(x)) and m.group(1) == here.group(1) and m.group(2) in "-*+"
            and m.group(2) != here.group(2) for x in above):
        return ("GitHub starts a new list where the bullet changes ('-', '*', '+'), this "
                "Markdown goes on with the same list: use one bullet character for a list, and "
                "put a paragraph between two lists"), True, 0
    if here and not here.group(1) and (note := _note_above(source, line)):
        return (f"the note's definition above ('{note}') ends the list before it on GitHub, "
                "which starts this list anew; this Markdown takes the definition out of the "
                "text and goes on with the list above (one list, its items spaced as "
                "paragraphs): write the notes' definitions at the end of the article, after "
                "its last list, and put a paragraph between two lists"), False, 0
    mixed, second = _mixed_lists(region)
    nested, at = _nested_indent(source, line, end)
    if nested and mixed:
        # a bulleted list right under a numbered one's item (a chat answer's '3. Title' over
        # '- point' lines) that holds a nested list indented by 2: this Markdown reads no
        # second list, GitHub does; indenting the nested list alone still leaves it out
        shown = shortened(region[second].strip(), 20)
        return (f"two fixes: {mixed.format(where=f' (above {shown!r})')}; "
                f"and {nested}"), True, at
    if nested:
        return nested, True, at
    late, at = _late_start(source, line, end)
    if late:
        return late, True, at
    quoted, at = _quote_hint(source, line, end)
    if quoted:
        return quoted, False, at
    if mixed:
        return mixed.format(where=""), True, 0
    return "", False, 0


def _mixed_lists(region: Sequence[str]) -> tuple[str, int]:
    """The advice to part a bulleted list from a numbered one whose last item's line it
    starts right under (this Markdown reads it as text of that item, GitHub as a list of
    its own), '{where}' in it for where that is, and the index in `region` (the lines of
    a stretch) of the second list's first line; ('', 0) if no two such lines are there."""
    for n, (upper, lower) in enumerate(pairwise(region)):
        a, b = _BULLET.match(upper), _BULLET.match(lower)
        if a and b and a.group(1) == b.group(1) and (a.group(2) in "-*+") != (
                b.group(2) in "-*+"):
            return ("put a blank line between a bulleted and a numbered list{where}: here "
                    "the second one's first line continues the other's last item"), n + 1
    return "", 0


def _note_above(source: Sequence[str], line: int) -> str:
    """The start of the footnote definition (`[^a]: …`) that the text right above line
    `line` (past blank lines) belongs to, its indented paragraphs included; '' if none."""
    k = line - 2
    while k >= 0:
        while k >= 0 and not source[k].strip():
            k -= 1
        while k > 0 and source[k - 1].strip():
            k -= 1
        if k < 0:
            return ""
        if _NOTE_DEFINITION.match(source[k]):
            return shortened(source[k].strip(), 30)
        if source[k][:1] not in (" ", "\t"):
            return ""
        k -= 1
    return ""


@lru_cache(maxsize=2)
def _details_lines(source: tuple[str, ...]) -> tuple[list[int], list[int]]:
    """The 0-based lines of `source` that open a `<details>`, and those that hold a
    `</details`: read once for all the stretches of a page (each stretch read every line
    above it again, in the square of the page's length)."""
    return ([n for n, x in enumerate(source) if _DETAILS.search(x)],
            [n for n, x in enumerate(source) if "</details" in x.lower()])


_OPEN_FENCE = re.compile(r"[> ]*(`{3,}|~{3,})")             # superfences' (its indent kept)
_CLOSE_FENCE = re.compile(r"[> ]*(`{3,}|~{3,})[ \t]*$")


@lru_cache(maxsize=2)
def _long_closers(source: tuple[str, ...]) -> tuple[tuple[int, int, int, str, str], ...]:
    """Each closing fence longer than its opening one (CommonMark closes the code there;
    superfences only at a fence of the opening one's length and indent): the 0-based
    lines of the opening fence, of it, and of the fence superfences closes with
    (len(source) if none), and the two fences, read once for all the stretches of a page."""
    found: list[tuple[int, int, int, str, str]] = []
    fence, opener, longer = "", 0, -1
    for n, x in enumerate(source):
        if not fence:
            opened = _OPEN_FENCE.match(x)
            if opened:
                fence, opener, longer = opened.group(0), n, -1
            continue
        closed = _CLOSE_FENCE.match(x)
        if closed and x.rstrip(" ") == fence:
            if longer >= 0:
                found.append((opener, longer, n, fence, source[longer].strip()))
            fence = ""
        elif closed and closed.group(1)[0] == fence[-1] and \
                len(closed.group(1)) > len(fence.lstrip("> ")) and longer < 0:
            longer = n
    if fence and longer >= 0:
        found.append((opener, longer, len(source), fence, source[longer].strip()))
    return tuple(found)


def _long_closer(source: Sequence[str], line: int, end: int) -> tuple[str, int]:
    """The advice for a stretch (lines `line`, 1-based, to `end`) that a closing fence longer
    than its opening one causes (GitHub ends the code at it, this Markdown reads on), and its
    1-based line; ('', 0) if none."""
    for opener, closer, closes, fence, written in _long_closers(tuple(source)):
        if opener < end and closes >= line - 1:
            return (f"the closing fence '{written}' is longer than its opening one "
                    f"'{fence.lstrip('> ')}': GitHub ends the code there, this Markdown "
                    "reads on as code up to a fence of the opening one's length: write the "
                    "closing fence as long as the opening one"), closer + 1
    return "", 0


@lru_cache(maxsize=2)
def _kept_raw(text: str) -> frozenset[int]:
    """`raw_html.markdown_raw_lines` of `text`, read once for all the stretches of a page."""
    return markdown_raw_lines(text)


class _Summary(HTMLParser):
    """The words of the first `<summary>` of some HTML, its code as `code`."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.inside, self.done = False, False
        self.words: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "summary" and not self.done:
            self.inside = True
        elif tag == "code" and self.inside:
            self.words.append("`")

    def handle_endtag(self, tag: str) -> None:
        if tag == "summary" and self.inside:
            self.inside, self.done = False, True
        elif tag == "code" and self.inside:
            self.words.append("`")

    def handle_data(self, data: str) -> None:
        if self.inside:
            self.words.append(data)


def _box_lines(source: Sequence[str], first: int) -> tuple[str, str]:
    """The title and an id for the box to write for the `<details>` opened on the 0-based
    line `first` of `source`: its summary's words (code as `code`) and their slug; a
    placeholder for each where there is no summary, or no Latin word to make an id of."""
    parser = _Summary()
    parser.feed("\n".join(source[first:first + 12]))
    title = " ".join("".join(parser.words).split())
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
    return title or "Its summary", slug or "some-id"


def _stretch_end(theirs: list[Block], line: int) -> int:
    """One past the line of cmark-gfm's last block of a stretch that starts at `line`."""
    return max([b.line for b in theirs if b.line] + [line]) + 1


def _nested_indent(source: Sequence[str], line: int, end: int) -> tuple[str, int]:
    """The hint for a nested list indented by 1 to 3 spaces in the lines from `line` (and the
    one above it) to `end`, and its first line; ('', 0) if there is none."""
    found = _nested_lists(source, line, end)
    return (_nested_hint(*found[0][1:]), found[0][0]) if found else ("", 0)


def _nested_lists(source: Sequence[str], line: int, end: int) -> list[tuple[int, int, int]]:
    """(first line, its indent, the indent of the item above) of each nested list indented
    by 1 to 3 spaces more than its item in the lines from `line` (and the one above it) to
    `end`: nested for GitHub, not for this Markdown, whose levels are 4 columns each (an item
    at 2 columns, then one at 4: both nest it)."""
    first = max(line - 2, 0)
    found: list[tuple[int, int, int]] = []
    for n, (upper, lower) in enumerate(pairwise(source[first:end]), first + 2):
        a, b = _BULLET.match(upper), _BULLET.match(lower)
        if not (a and b):
            continue
        above, here = _columns(a.group(1)), _columns(b.group(1))
        if above < here < above + 4 and above // 4 == here // 4:
            found.append((n, here, above))
    return found


def _nested_hint(here: int, above: int) -> str:
    typed = f" more than the item above ({here} in all)" if above else ""
    return ("indent a nested list by 4 spaces per level, and the code or paragraphs its "
            "items hold by 4 spaces more than their bullet (this one is indented by "
            f"{here - above}{typed}: here it is read as text of the item above, or "
            "as a sibling of it)")


def _columns(text: str) -> int:
    """The columns of the spaces and tabs that start `text` (a tab reaches the next multiple
    of 4, as both parsers count it)."""
    wide = text.expandtabs(4)
    return len(wide) - len(wide.lstrip(" "))


def _late_start(source: Sequence[str], line: int, end: int) -> tuple[str, int]:
    """The hint for a nested numbered list that starts at another number than 1 right under
    a line of text, in the lines from `line` (and the one above it) to `end`: GitHub takes
    its lines for more text there; and the list's first line (('', 0) if there is none)."""
    first = max(line - 2, 0)
    for n, (upper, lower) in enumerate(pairwise(source[first:end]), first + 2):
        item = _ITEM.match(lower)
        if item and item.group(1) and int(item.group(1)) != 1 and upper.strip() and \
                _columns(lower) > _columns(upper):
            return (f"GitHub starts a numbered list right under a line of text only at '1.' "
                    f"(this one starts at {int(item.group(1))}: GitHub reads it as more text "
                    "of the line above): start it at '1.', or leave a blank line before it "
                    "and after it"), n
    return "", 0


def _paragraph_start(source: Sequence[str], n: int) -> int:
    """The index (0-based) of the first line of the run of non-blank lines holding the
    0-based line `n`."""
    while n > 0 and source[n - 1].strip():
        n -= 1
    return n


def _quote_hint(source: Sequence[str], line: int, end: int) -> tuple[str, int]:
    """The hint for a quote the two parsers end or join differently in the lines from
    `line` to `end`, and the line its fix goes at (('', 0) if there is none): a list right
    under a quote's last line (at the list's first line), a list inside a quote right under
    a line of its paragraph (at the list's first line: GitHub starts a list there, this
    Markdown reads more text), or two quotes parted only by a blank line (where the stretch
    starts; with the list inside the first, both)."""
    region = range(max(line, 2), min(end, len(source)) + 1)
    inside = ""         # a list inside a quote right under a line of its paragraph
    at = 0
    for n in region:
        upper, lower = source[n - 2], source[n - 1]
        if _ITEM.match(lower) and upper.strip() and not _ITEM.match(upper) and \
                _QUOTE.match(source[_paragraph_start(source, n - 2)]):
            return ("a list right under a quote's last line is text of the quote here, and "
                    "a list after the quote on GitHub: put a blank line before the list (for "
                    "a list inside the quote, make that line '>' and start each of its lines "
                    "with '> ')"), n
        a, b = _QUOTED.match(upper), _QUOTED.match(lower)
        if not inside and a and b and a.group(1).count(">") == b.group(1).count(">") and \
                _ITEM.match(b.group(2)) and b.group(2).strip() and a.group(2).strip() and \
                not _ITEM.match(a.group(2)) and \
                not _ITEM.match(_QUOTED.sub(r"\2", source[_paragraph_start(source, n - 2)])):
            inside, at = ("a list inside a quote right under a line of its paragraph is more "
                          "text of that paragraph here, a list on GitHub: put a line '>' (a "
                          "blank line of the quote) before the list"), n
    first = source[line - 1] if 0 < line <= len(source) else ""
    k = line - 2
    while k >= 0 and not source[k].strip():
        k -= 1
    if _QUOTE.match(first) and 0 <= k < line - 2 and _QUOTE.match(source[k]):
        two = ("two quotes parted only by a blank line are one quote here and two on "
               "GitHub: for one quote, write '>' on the blank line between them; for two, "
               "put a paragraph between them")
        return (f"two fixes: {inside}; and {two}" if inside else two), at
    return inside, at


def _items_read_as_text(source: Sequence[str], line: int, end: int) -> list[tuple[int, str]]:
    """The lines (1-based) from `line` to `end` that start a list item right under a block
    indented into the item above (after a blank line), each with its warning: this Markdown
    reads such an item as more text of that paragraph (code, formula), or as part of that
    nested list (text of its last item, or one more of its items, whatever its own indent),
    where GitHub (CommonMark) starts an item of the outer list."""
    found = []
    for n in range(max(line, 2), min(end, len(source)) + 1):
        upper, lower = source[n - 2], source[n - 1]
        if not _ITEM.match(lower) or not upper.strip():
            continue
        start = _paragraph_start(source, n - 2)
        first = source[start]
        if start == 0 or _QUOTE.match(first) or _columns(first) <= _columns(lower):
            continue
        if not _ITEM.match(first):
            if not _ITEM.match(upper):
                table = first.lstrip().startswith("|") or any(
                    _DELIMITER.fullmatch(x.strip()) for x in source[start:n - 1])
                found.append((n, ITEM_UNDER_TABLE if table else ITEM_AS_TEXT))
        elif _columns(lower) + 4 <= _columns(first) < _content_column(lower) + 4 and not (
                _ITEM.match(upper) and _columns(upper) <= _columns(lower)):
            # a nested list after a blank line, by the 4 spaces a level takes here and less
            # than GitHub's code indent (an item right under an item of its own level or less
            # was told already: the fix is one)
            found.append((n, ITEM_IN_NESTED_LIST))
    return found


def _content_column(item: str) -> int:
    """The column where the text of the list item on line `item` starts."""
    found = _BULLET.match(item)
    return len(found.group(0).expandtabs(4)) if found else _columns(item)


def _missing_blank_line(ours: list[Block], theirs: list[Block],
                        source: Sequence[str]) -> Block | None:
    """The block (a list, a table, …) GitHub starts right under a paragraph line of ours with
    no blank line above it, where a blank line is missing; None where none is."""
    top = min((b.depth for b in ours + theirs), default=0)
    first_new = next((b for b in theirs if b.depth == top and b.kind in _INTERRUPTERS), None)
    if first_new is None or not any(b.kind == "p" and b.depth == top for b in ours):
        return None
    # a blank line above it, and no paragraph of GitHub's before it: no blank line is missing
    spaced = bool(source and 1 < first_new.line <= len(source) + 1
                  and not source[first_new.line - 2].strip(" \t>") and not any(
                      b.kind == "p" and b.depth == top
                      for b in theirs[:theirs.index(first_new)]))
    return None if spaced else first_new


def _under_an_item(source: Sequence[str], block: Block) -> bool:
    """Whether `block` starts right under a list item's first line (a nested list there
    needs its 4 spaces, no blank line)."""
    return 1 < block.line <= len(source) + 1 and bool(_BULLET.match(source[block.line - 2]))


_COMPARED_LETTERS = 1_000_000     # the most letter pairs `_words_apart` compares one by one


def _shared_start(a: str, b: str) -> int:
    """How many characters `a` and `b` share at their start."""
    return next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))


def _words_apart(ours: list[Block], theirs: list[Block]) -> str:
    """' (GitHub shows 'eos', 'pad' where the page does not)': the letters and digits one
    reading has and the other lacks, so the author sees where to look ('' if none)."""
    mine, github = "".join(b.key for b in ours), "".join(b.key for b in theirs)
    only_github: list[str] = []
    only_mine: list[str] = []
    # difflib over two paragraphs' letters takes time in the square of their length (and
    # more: a 20,000-letter paragraph with one word apart, 7 s): for long ones, what they
    # share at either end is left out first, and a middle still too long to compare is told
    # as one (both sides non-empty there: an empty side makes the product 0)
    if len(mine) * len(github) > _COMPARED_LETTERS:
        head = _shared_start(mine, github)
        tail = _shared_start(mine[head:][::-1], github[head:][::-1])
        mine, github = mine[head:len(mine) - tail], github[head:len(github) - tail]
    opcodes = SequenceMatcher(None, mine, github, autojunk=False).get_opcodes() \
        if len(mine) * len(github) <= _COMPARED_LETTERS else \
        [("replace", 0, len(mine), 0, len(github))]
    for tag, i1, i2, j1, j2 in opcodes:
        if tag in ("replace", "delete") and mine[i1:i2] not in only_mine:
            only_mine.append(mine[i1:i2])
        if tag in ("replace", "insert") and github[j1:j2] not in only_github:
            only_github.append(github[j1:j2])

    def quoted(parts: list[str]) -> str:
        return ", ".join(f"'{x[:20]}'" for x in parts[:3]) + (", …" if len(parts) > 3 else "")
    said = [f"GitHub shows {quoted(only_github)} where the page does not"] if only_github \
        else []
    said += [f"the page shows {quoted(only_mine)} where GitHub does not"] if only_mine else []
    return f" ({'; '.join(said)})" if said else ""


def advice(ours: list[Block], theirs: list[Block], source: Sequence[str] = (),
           line: int = 0) -> str:
    """How to write a passage so that both parsers read it alike (`source`: the lines read,
    `line`: where the stretch starts, 1-based; without them the blocks alone tell)."""
    return _advice(ours, theirs, source, line)[0]


def _advice(ours: list[Block], theirs: list[Block], source: Sequence[str],
            line: int) -> tuple[str, int]:
    """`advice`, and the line its fix goes at where that is not where the stretch starts (0
    where it is): a blank line missing above a list (a table, …) goes at the list's first
    line, which may be lines below the paragraph's first (the line the stretch starts at)."""
    cause, of_list, at = _cause(source, line, theirs)
    missing = _missing_blank_line(ours, theirs, source)
    named = NAMES.get(missing.kind, "the heading") if missing else ""
    if cause and of_list and missing and not _under_an_item(source, missing):
        # two fixes, both needed (the second warning came once the first was made): both
        return (f"two fixes: put a blank line before {named} (it cannot start right under "
                f"a paragraph line); and {cause}", missing.line)
    if cause:
        return cause, at
    if not theirs and 1 < line <= len(source) + 1 and \
            source[line - 2].lstrip(" \t>").startswith("<"):
        return ("GitHub reads a line right under a line of raw HTML as part of its HTML block "
                "(up to a blank line, its Markdown not read), this Markdown as a block of its "
                "own: put a blank line between the HTML and this line"), 0
    return _shape_advice(ours, theirs, missing, source)


_FENCE_LINE = re.compile(r"((?:[ \t]*>)*[ \t]*)(`{3,}|~{3,})")
_MARKS = re.compile(r"(?:[ \t]*>)*[ \t]?")        # a line's quote marks ('> > '), if any
_ITEM_TEXT = re.compile(r"[ \t>]*(?:[-*+]|\d{1,9}[.)])[ \t]+")   # a list item up to its text


def _at_margin(source: Sequence[str], line: int, prefix: str) -> str:
    """`prefix` (a fence's indent and quote marks, at line `line`) moved to the margin of its
    block: as it is under a list item (whose margin for this Markdown, 4 spaces, and for
    GitHub, the item's text, may differ: not judged here), else its quote marks alone (a
    fence indented 1 to 3 spaces outside a list is read as no fence here)."""
    if any(_ITEM_TEXT.match(x) for x in source[:line - 1]):
        return prefix
    marks = _MARKS.match(prefix)
    kept = marks.group(0) if marks else ""
    return kept if ">" in kept else ""


def _misindented_fence(source: Sequence[str], opening: int
                       ) -> tuple[int, str, str, tuple[int, str] | None] | None:
    """The fence opened at line `opening` (1-based) and the fence that closes it on GitHub,
    where one is indented more than the other (this Markdown then sees no code block): the
    line of the one indented more ('closing' or 'opening' says which; the one to change),
    that line as it should read (the other fence's indent and '>' marks, its own fence and
    words), and, where the other fence is itself off its block's margin (top-level fences
    indented 3 and 2 spaces: at 2 and 2 this Markdown still reads none), that fence's line
    and the line as it should read, both then at the margin (else None); None where the
    opening line holds no fence, none closes it, or they are indented alike or in ways
    neither holds the other's (then the blocks' shapes tell)."""
    if not 0 < opening <= len(source):
        return None
    start = _FENCE_LINE.match(source[opening - 1])
    if not start:
        return None
    prefix, fence = start.groups()
    for n in range(opening, len(source)):
        end = _FENCE_LINE.match(source[n])
        if not end or end.group(2)[0] != fence[0] or len(end.group(2)) < len(fence) or \
                source[n][end.end():].strip():
            continue
        closing = end.group(1)
        opening_rest = source[opening - 1][len(prefix):].rstrip()
        if closing != prefix and closing.startswith(prefix) and not closing[len(prefix):].strip():
            margin = _at_margin(source, opening, prefix)
            return n + 1, "closing", margin + end.group(2), \
                None if margin == prefix else (opening, margin + opening_rest)
        if closing != prefix and prefix.startswith(closing) and not prefix[len(closing):].strip():
            margin = _at_margin(source, n + 1, closing)
            return opening, "opening", margin + opening_rest, \
                None if margin == closing else (n + 1, margin + end.group(2))
        return None
    return None


def _shape_advice(ours: list[Block], theirs: list[Block], missing: Block | None,
                  source: Sequence[str] = ()) -> tuple[str, int]:
    """`_advice` where the text of the stretch names no cause: from the blocks' shapes."""
    named = NAMES.get(missing.kind, "the heading") if missing else ""
    if any(b.kind == "html" and b.depth > 0 for b in theirs) and \
            not any(b.kind == "html" for b in ours):
        return ("raw HTML inside a list item or a quote is text of a paragraph here (this "
                "Markdown reads a block of HTML only at the margin, outside lists and quotes): "
                "write it in Markdown (a table as '| a | b |' rows, indented as the text "
                "around it), or move it out of the list or quote"), 0
    top = min((b.depth for b in ours + theirs), default=0)
    if any(b.kind == "html" and b.depth == top for b in theirs) and \
            not any(b.kind == "html" for b in ours):
        return ("a line holding only a tag this Markdown reads as inline HTML (<span>, <b>, "
                "<a …>, a tag of its own name) starts a block of raw HTML on GitHub (its "
                "lines up to a blank line, their Markdown not read), text of a paragraph "
                "here: write the tag on the line of the text it marks, as "
                "'<span>words</span>', or use a <div>"), 0
    if [(b.kind, b.depth) for b in ours] == [(b.kind, b.depth) for b in theirs] and \
            any(b.kind in ("p", "li") for b in ours):
        return (f"{WORDS_ONLY}{_words_apart(ours, theirs)}: one parser takes a "
                "character for markup ('_', '*', '`', '<') that the other shows as typed; "
                "where it is text, write it with a backslash ('\\_', '\\*', '\\<') or put "
                "it in `code`"), 0
    new = [b.kind for b in theirs if b.depth == top and b.kind in _INTERRUPTERS]
    if "pre" in new:     # a fence this Markdown read (no blank line is needed around one)
        opening = next(b.line for b in theirs if b.depth == top and b.kind == "pre")
        fences = _misindented_fence(source, opening)
        if fences:       # told at the fence to change, the one indented more is kept
            at, which, want, also = fences
            other = "opening" if which == "closing" else "closing"
            if also:     # the other is off the margin too: both to it
                return (f"the {which} fence here is indented more than the {other} one, and "
                        "neither starts at the margin of its block, so this Markdown reads no "
                        f"code block there: write it as '{want}', and the {other} fence "
                        f"{'above' if other == 'opening' else 'below'} as '{also[1]}'"), at
            return (f"the {which} fence here is indented more than the {other} one, so this "
                    "Markdown reads no code block there: write it as "
                    f"'{want}', at the {other} fence's indent"), at
        return ("start the opening and the closing fence at the margin of their block, at "
                "the same indent (a fence inside a list item: both by the item's 4 spaces)"), 0
    setext = [k for k in new if k in ("h1", "h2") and k not in [b.kind for b in ours]]
    if setext:
        return ("a heading underlined with '---' or '===' takes one line here: write it on one "
                "line, as '## Its title {#some-id}'"), 0
    if missing:
        return (f"put a blank line before {named}: here it cannot start right under a "
                "paragraph line"), missing.line
    kinds = {b.kind for b in ours + theirs}
    if not theirs and {b.kind for b in ours} <= _TABLE and not any(b.key for b in ours):
        if sum(b.kind == "td" for b in ours) == 1:      # the empty row of one column
            # Yuque's export of a boxed block: `| yum install -y wget && … |` over `| --- |`
            return ("this table of one cell has no row under its header, so an empty row is "
                    "shown under it: where the cell is a boxed block of text or commands (as "
                    "a Yuque export holds one), write commands as a '```' fence and text as a "
                    "paragraph (a '<br/>' in the cell is a line of its own), or add a row"), 0
        return "this table has no row under its header, so an empty row is shown: add a row", 0
    if kinds & _TABLE and kinds - _TABLE - {"table"}:
        return ("put a blank line between the table and what follows it: a line right under a "
                "table is read as one more row by one parser and not by the other"), 0
    if kinds & {"blockquote"} and not kinds & {"ul", "ol", "li"}:
        return ("start every line of a quote with '>', and leave a blank line after it: a "
                "line right under a quote is read as part of it by one parser only"), 0
    if kinds & _TABLE:
        return ("a '|' inside a table cell ends the cell on GitHub, also inside `code`, where "
                "'\\|' keeps its backslash here: keep '|' out of `code` in a table (in text, "
                "write '\\|'); for code that holds one, write the code as HTML, "
                "'<code>a&#124;b</code>', which both show as a|b"), 0
    if any(b.kind in ("ul", "ol", "li") for b in ours + theirs) or \
            [b.depth for b in ours] != [b.depth for b in theirs]:
        return ("indent a nested list, and any paragraph, formula or code inside a list item, "
                "by 4 spaces per level (after a blank line)"), 0
    return ("separate blocks by blank lines, indent what belongs inside a list item by 4 "
            "spaces, and start fences and headings at the margin of their block"), 0


def _under_html(source: Sequence[str], first: int, after: int) -> int:
    """The first line below line `first` (a block of raw HTML), and above line `after` (0:
    the end), that holds text other than a tag: where this Markdown's block under the HTML
    starts, which GitHub keeps in its HTML block; 0 if there is none."""
    end = after - 1 if after else len(source)
    return next((n for n in range(first + 1, end + 1) if source[n - 1].strip()
                 and not source[n - 1].lstrip(" \t>").startswith("<")), 0) if first else 0


def _held_html(theirs: list[Block], j1: int, j2: int) -> list[tuple[int, int]]:
    """GitHub's blocks of raw HTML that may hold the stretch theirs[j1:j2] (all of them, all
    raw HTML; where it is empty, the block before it and the block after it that are), each
    as (its line, the line of the next block of GitHub's, 0: none); [] where one is not."""
    kept = range(j1, j2) if j2 > j1 else [k for k in (j1 - 1, j1) if 0 <= k < len(theirs)
                                          and theirs[k].kind == "html"]
    if not kept or any(theirs[k].kind != "html" or not theirs[k].line for k in kept):
        return []
    return [(theirs[k].line, next((b.line for b in theirs[k + 1:] if b.line), 0))
            for k in kept]


def _tags_only_under_html(ours: Sequence[Block], source: Sequence[str],
                          held: list[tuple[int, int]]) -> bool:
    """Whether `ours`, blocks of a stretch whose lines GitHub reads as the raw HTML blocks
    `held` ((first line, line of the next block), `_held_html`), are that HTML's own blocks
    (read as raw HTML here too) and paragraphs of lines holding only tags, no text ('<br>', a
    badge's '<a><img></a>'): both readings show the same tags, this Markdown in a paragraph
    of its own, so there is nothing to tell (an awesome list's '<br>' lines between its
    centred '<p>' blocks, or around a banner)."""
    if not ours or not all(b.kind == "html" or (b.kind == "p" and not b.key) for b in ours):
        return False
    raw = _kept_raw("\n".join(source))
    inline = [source[n - 1] for first, after in held
              for n in range(first, (after - 1 if after else len(source)) + 1)
              if source[n - 1].strip() and n not in raw]
    return bool(inline) and all(x.lstrip(" \t").startswith("<") and
                                not html_text(x).strip(" \t") for x in inline)


@dataclass
class Alignment:
    """Our blocks matched to cmark-gfm's: each block's line (`exact` where cmark-gfm read
    the same block, else the line of the stretch where the readings part), `starts` where
    that line is where the block starts (read the same, or a block of the same kind and level
    in its place whose words differ, at least the first of a stretch read differently), and
    each stretch read differently as (its line, the warning); `partners`: the index of the
    block cmark-gfm read the same, where there is one (-1 elsewhere)."""

    lines: list[int]
    exact: list[bool]
    differences: list[tuple[int, str]]
    starts: list[bool] = field(default_factory=list)
    partners: list[int] = field(default_factory=list)


def align(ours: list[Block], theirs: list[Block], source: Sequence[str] = ()) -> Alignment:
    """Align two readings as `diff` aligns lines (difflib, no junk heuristic); `source`, the
    lines both read, lets a warning's hint name the cause it finds there."""
    mine, github = [b.signature for b in ours], [b.signature for b in theirs]
    # read alike (the usual case): difflib's answer, one 'equal', without its search, which
    # over a long table (a row is junk, `_container`) took time in the square of its rows
    # (10,000 rows read alike: a minute)
    opcodes = ([("equal", 0, len(mine), 0, len(github))] if mine else []) if mine == github \
        else _trimmed_opcodes(mine, github)
    result = Alignment([0] * len(ours), [False] * len(ours), [], [False] * len(ours),
                       [-1] * len(ours))
    stretches: list[_Opcode] = []
    for op in _slid_under_html(_anchored(opcodes, ours), ours, theirs):
        stretches += [op] if op[0] == "equal" else [
            ("replace", *part) for part in _split_stretch(ours, theirs, *op[1:])]
    for tag, i1, i2, j1, j2 in stretches:
        if tag == "equal":
            result.lines[i1:i2] = [b.line for b in theirs[j1:j2]]
            result.partners[i1:i2] = range(j1, j2)
            result.exact[i1:i2] = result.starts[i1:i2] = [True] * (i2 - i1)
            continue
        # cmark-gfm's first block of the stretch; where it has none, the block after it, but
        # for cells (of a row cmark-gfm split into fewer), or blocks deeper than the block
        # after them (a table's empty row: inside the table above), the block before
        cells = all(b.kind in ("td", "th") for b in ours[i1:i2])
        inside = i1 < i2 and j1 < len(theirs) and ours[i1].depth > theirs[j1].depth
        after = next((b.line for b in theirs[j1:] if b.line), 0)
        before = next((b.line for b in reversed(theirs[:j1]) if b.line), 0)
        line = (before or after) if j1 == j2 and (cells or inside) else (after or before)
        if (held := _held_html(theirs, j1, j2)) and _tags_only_under_html(
                ours[i1:i2], source, held):
            # lines of tags only, in GitHub's raw HTML blocks: the same tags on both pages
            result.lines[i1:i2] = [held[0][0]] * (i2 - i1)
            continue
        if j1 == j2 and j1 and theirs[j1 - 1].kind == "html":
            # blocks of ours that GitHub keeps in its raw HTML block above: where they start
            line = _under_html(source, theirs[j1 - 1].line, after) or line
        result.lines[i1:i2] = [line] * (i2 - i1)
        shape = [(b.kind, b.depth) for b in theirs[j1:j2]]
        paired = i2 - i1 if [(b.kind, b.depth) for b in ours[i1:i2]] == shape else \
            int(i2 > i1 and shape[:1] == [(ours[i1].kind, ours[i1].depth)])
        # the same blocks in place (only their words differ), or at least the first of each
        result.lines[i1:i1 + paired] = [b.line for b in theirs[j1:j1 + paired]]
        result.starts[i1:i1 + paired] = [True] * paired
        if paired and paired == i2 - i1 == j2 - j1:
            # each block whose words differ, at its own line: two such paragraphs in a row
            # made one warning, at the first, and the second's line was never named
            result.differences += [
                (b.line or line, difference([a], [b], source, b.line or line))
                for a, b in zip(ours[i1:i2], theirs[j1:j2], strict=True)
                if a.signature != b.signature]
        elif not _nested_lists(source, line, _stretch_end(theirs[j1:j2], line)) and (
                items := _items_read_as_text(source, line, _stretch_end(theirs[j1:j2], line))):
            # (a nested list indented by 1 to 3 spaces is told first: its fix moves the rest)
            # items this Markdown read as text: each at its own line, where the fix goes
            result.differences += items
        else:
            message, fix = _difference(ours[i1:i2], theirs[j1:j2], source, line)
            result.differences.append((fix or line, message))
            # a chat assistant's answer nests a list under every item by 3 spaces: each such
            # list at its own line, in one build (the warning named the first only)
            nested = _nested_lists(source, line, _stretch_end(theirs[j1:j2], line))
            if nested and nested[0][0] == fix and _nested_hint(*nested[0][1:]) in message:
                result.differences += [
                    (n, message.replace(_nested_hint(*nested[0][1:]), _nested_hint(h, a)))
                    for n, h, a in nested[1:]]
    return result


def _slid_under_html(opcodes: Sequence[_Opcode], ours: list[Block],
                     theirs: list[Block]) -> list[_Opcode]:
    """`opcodes` with each run of blocks only ours has moved up over the equal blocks
    above it that read as its own blocks do (the same signature), where that puts it right
    under a block GitHub reads as raw HTML. Two empty paragraphs (a '&nbsp;' spacer line
    under the HTML, which GitHub keeps in the HTML block; a comment lines below) are alike
    to difflib, which paired the spacer with GitHub's comment and called the comment ours
    alone: the warning went to the block under the comment, with advice about lists, and
    the spacer's line was never named."""
    out: list[_Opcode] = []
    for op in opcodes:
        tag, i1, i2, j1, j2 = op
        before = out[-1] if out else None
        if tag == "equal" or j1 != j2 or i1 == i2 or before is None or \
                before[0] != "equal" or (j1 and theirs[j1 - 1].kind == "html"):
            out.append(op)
            continue
        k, most = 0, before[2] - before[1]
        while k < most and ours[i1 - k - 1].signature == ours[i2 - k - 1].signature:
            k += 1
            if j1 - k >= 1 and theirs[j1 - k - 1].kind == "html":
                break
        else:
            out.append(op)
            continue
        out[-1:] = [("equal", before[1], i1 - k, before[3], j1 - k)] if i1 - k > before[1] \
            else []
        out += [(tag, i1 - k, i2 - k, j1 - k, j1 - k), ("equal", i2 - k, i2, j1 - k, j1)]
    return _merged_equal(out)


def _merged_equal(opcodes: list[_Opcode]) -> list[_Opcode]:
    """`opcodes` with equal runs that follow each other made one."""
    out: list[_Opcode] = []
    for op in opcodes:
        if out and op[0] == "equal" == out[-1][0] and out[-1][2] == op[1]:
            out[-1] = ("equal", out[-1][1], op[2], out[-1][3], op[4])
        else:
            out.append(op)
    return out


def _trimmed_opcodes(mine: list[str], github: list[str]) -> list[tuple[str, int, int, int,
                                                                        int]]:
    """difflib's opcodes (junk: `_container`) of the blocks between what the two lists share
    at their start and at their end, those as 'equal' runs around them: difflib over a long
    table the readings part on at one row took time in the square of its rows (4,000 rows:
    8.5 s), though everything before and after that row is the same."""
    head = next((k for k, (x, y) in enumerate(zip(mine, github)) if x != y),
                min(len(mine), len(github)))
    most = min(len(mine), len(github)) - head
    tail = next((k for k in range(most) if mine[-1 - k] != github[-1 - k]), most)
    m_end, g_end = len(mine) - tail, len(github) - tail
    middle = SequenceMatcher(_container, mine[head:m_end], github[head:g_end],
                             autojunk=False).get_opcodes()
    out = [("equal", 0, head, 0, head)] if head else []
    for tag, i1, i2, j1, j2 in middle:
        if out and tag == "equal" == out[-1][0]:
            out[-1] = ("equal", out[-1][1], head + i2, out[-1][3], head + j2)
        else:
            out.append((tag, head + i1, head + i2, head + j1, head + j2))
    if tail:
        if out and out[-1][0] == "equal":
            out[-1] = ("equal", out[-1][1], len(mine), out[-1][3], len(github))
        else:
            out.append(("equal", m_end, len(mine), g_end, len(github)))
    return out


def _split_stretch(ours: list[Block], theirs: list[Block], i1: int, i2: int, j1: int,
                   j2: int) -> list[tuple[int, int, int, int]]:
    """The stretch ours[i1:i2] / theirs[j1:j2] cut before each later paragraph of ours that
    starts as a later one of GitHub's does (one's letters the start of the other's, at the
    same depth): two paragraphs in a row, each with a list (a table) right under its line,
    made one stretch, since the words of both differ and difflib matches neither; its one
    warning named the first list, and the second was published as text of its paragraph
    unwarned. Time linear in the stretch: GitHub's paragraphs are looked up by their first
    letters."""
    top = min((b.depth for b in ours[i1:i2] + theirs[j1:j2]), default=0)

    def anchor(b: Block) -> bool:
        return b.kind == "p" and b.depth == top and len(b.key) >= _ANCHOR_LETTERS
    github: dict[str, list[int]] = {}
    for j in range(j1 + 1, j2):
        if anchor(theirs[j]):
            github.setdefault(theirs[j].key[:_ANCHOR_LETTERS], []).append(j)
    parts: list[tuple[int, int, int, int]] = []
    for i in range(i1 + 1, i2):
        a = ours[i]
        if not anchor(a):
            continue
        candidates = github.get(a.key[:_ANCHOR_LETTERS], [])
        j = next((j for j in candidates[bisect_left(candidates, j1 + 1):]
                  if a.key.startswith(theirs[j].key) or theirs[j].key.startswith(a.key)), 0)
        if j:
            parts.append((i1, i, j1, j))
            i1, j1 = i, j
    return [*parts, (i1, i2, j1, j2)]


_ANCHOR_LETTERS = 2     # the fewest letters of a paragraph that anchors a cut (a label, 'Cons')


def _container(signature: str) -> bool:
    """A block with no words of its own (a list, an item, a table row, a quote, a rule): a
    match never starts at one, only grows over them from a block with words, as difflib's
    junk. Each such signature is found hundreds of times in a long page, and difflib looks at
    every place of it for every block: a page of many tables or quotes that the two parsers
    read differently took time in the cube of their number (1,000 one-cell tables: minutes)."""
    return signature.endswith(":")


_Opcode = tuple[str, int, int, int, int]


def _anchored(opcodes: Sequence[_Opcode], ours: list[Block]) -> list[_Opcode]:
    """`opcodes` with each run of equal blocks that are only empty containers (a list item's
    `li`, a list's `ul`) between two differing stretches taken into one stretch with them:
    where a nested list's depth differs, difflib matched an item of one reading to an item
    of the other at the same depth but another place (ours' third-level numbered item to
    GitHub's second-level bulleted one), splitting one difference into several, each
    described wrongly ('reads … as a paragraph, GitHub as a paragraph, then a numbered list'
    where the page shows that numbered list)."""
    out: list[_Opcode] = []
    for n, op in enumerate(opcodes):
        tag, i1, i2, _, j2 = op
        between = tag == "equal" and not any(b.key for b in ours[i1:i2]) and \
            n + 1 < len(opcodes) and opcodes[n + 1][0] != "equal"
        if out and out[-1][0] != "equal" and (tag != "equal" or between):
            out[-1] = ("replace", out[-1][1], i2, out[-1][3], j2)
        else:
            out.append(op)
    return out


def difference(ours: list[Block], theirs: list[Block], source: Sequence[str] = (),
               line: int = 0) -> str:
    """The warning for a stretch the two parsers read differently (`source` and `line` as
    for `advice`)."""
    return _difference(ours, theirs, source, line)[0]


def _difference(ours: list[Block], theirs: list[Block], source: Sequence[str],
                line: int) -> tuple[str, int]:
    """`difference`, and the line its fix goes at (as for `_advice`; 0: where the stretch
    starts)."""
    what = describe(ours)
    if {b.kind for b in ours + theirs} <= {"td", "th"}:
        said = ("this Markdown and GitHub (CommonMark) split this table row into cells "
                "differently; the page shows this Markdown's cells")
    elif not theirs:
        said = (f"this Markdown starts {what} here, GitHub (CommonMark) does not; the page "
                "shows it")
    elif not ours:
        said = (f"GitHub (CommonMark) starts {describe(theirs)} here, this Markdown does not; "
                "the page keeps these lines in the block above")
    elif [b.kind for b in ours] == [b.kind for b in theirs]:
        how = "nest" if [b.depth for b in ours] != [b.depth for b in theirs] else "split"
        said = (f"this Markdown and GitHub (CommonMark) {how} the lines here differently "
                f"({what}{' at another level' if how == 'nest' else ', with other text'}); "
                "the page shows this Markdown's reading")
    elif what == describe(theirs):       # the same outer blocks, other blocks inside
        said = (f"this Markdown and GitHub (CommonMark) both read {what} here, but with "
                f"other blocks inside it; the page shows this Markdown's reading")
    else:
        said = (f"this Markdown reads the lines here as {what}, GitHub (CommonMark) as "
                f"{describe(theirs)}; the page shows {what}")
    hint, fix = _advice(ours, theirs, source, line)
    return f"{said}: {hint}", fix
