"""Comments out of the article before anything else reads it (issue 17, item 3).

An HTML comment `<!-- … -->` and a template comment `{# … #}` are the author's notes: they
never reach the page, and nothing inside them is math, a quote, a link or a check. Both may
span lines and blank lines. Code keeps them (a fence, or a code span, shows `<!--` as
typed, and so does an indented code block), and `\\<` or `\\{` is an escaped character,
not a comment.

Lines stay where they were, so every message still names the author's line: a comment on
lines of its own, with a blank line (or the file's start or end) on one side, becomes blank
lines, but one with a blank line on both sides and blocks before and after it leaves
`FILLER` on each of its lines: a block of its own (GitHub's HTML block, which ends a list
above it: two lists, not one loose list), which the math step drops after the conversion;
one between two lines of a paragraph or a list, or inside a line, leaves `FILLER` (a
private-use character the math step removes) on each line it held, so the text around it
stays one paragraph, as the author wrote it. (GitHub ends a paragraph at a comment that starts
a line: `comment_blocks` warns where the two readings part.)
"""
from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from pathlib import Path

from ..errors import BuildError, line_at

_OPENERS = re.compile(r"\\.|`+|<!--|\{# ", re.S)
_BLANK_LINE = re.compile(r"\n[ \t>]*\n")


def drop_comments(path: Path, text: str, filler: str,
                  fence_end: Callable[[list[str], int], int | None]) -> str:
    """`text` without its comments, lines kept (see the module docstring).

    `fence_end(lines, i)` is the lexer's `code_block_end`: the index of the last line of the
    code block (a fence, or indented code) that starts at line i, or None when none does.
    Raises BuildError at the line of a comment that is never closed."""
    out: list[str] = []
    pos = 0
    # where the text's first and last characters other than blanks and quote marks are (for
    # each comment, whether the text before or after its line holds any: slicing the text
    # there for each took the number of comments times the length)
    first, last = _CONTENT.search(text), _CONTENT.search(text[::-1])
    content = [first.start(), len(text) - 1 - last.start()] if first and last else \
        [len(text), -1]
    for m in comment_spans(path, text, fence_end):
        out.append(text[pos:m[0]])
        out.append(_replacement(text, m[0], m[1], filler, content))
        pos = m[1]
    out.append(text[pos:])
    return "".join(out)


def comment_spans(path: Path, text: str,
                  fence_end: Callable[[list[str], int], int | None]) -> list[tuple[int, int]]:
    """(start, end) of every comment of `text` outside code, in order (`fence_end` as for
    `drop_comments`). Raises BuildError at the line of a comment that is never closed."""
    lines = text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    code: list[tuple[int, int]] = []           # code blocks: character ranges to skip
    i = 0
    while i < len(lines):
        end = fence_end(lines, i)
        if end is not None:
            code.append((starts[i], starts[end + 1] - 1))
            i = end + 1
        else:
            i += 1
    return _comments(path, text, code)


def _comments(path: Path, text: str, code: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """(start, end) of every comment outside code, in order."""
    found: list[tuple[int, int]] = []
    pos = 0
    blank = (-1, -1)        # a position and the first blank line after it (len(text): none)
    # the code block an opener stands in, found among the blocks' starts (in order, apart):
    # looking through every block for each opener took their number squared (10,000 fences
    # each followed by a comment: 6 s)
    starts = [s for s, _ in code]
    while (m := _OPENERS.search(text, pos)) is not None:
        k = bisect_right(starts, m.start()) - 1
        if k >= 0 and m.start() < code[k][1]:
            pos = code[k][1]
            continue
        opener = m.group(0)
        if opener.startswith("\\"):
            pos = m.end()
        elif opener.startswith("`"):
            if not blank[0] <= m.start() <= blank[1]:
                # one search for the blank line ending the paragraph, not one from each code
                # span (a paragraph of 30000 code spans: 1.6 s)
                limit = _BLANK_LINE.search(text, m.start())
                blank = (m.start(), limit.start() if limit else len(text))
            pos = _code_span_end(text, m.start(), len(opener), blank[1])
        else:
            end = _comment_end(text, m.start(), opener)
            if end < 0:
                close = "-->" if opener == "<!--" else "#}"
                raise BuildError(path, line_at(text, m.start()),
                                 f"the comment opened here with '{opener.strip()}' is never "
                                 f"closed; end it with '{close}' (everything after it would "
                                 "be left out of the page)")
            found.append((m.start(), end))
            pos = end
    return found


def _code_span_end(text: str, start: int, run: int, stop: int) -> int:
    """Where a code span opened by `run` backticks at `start` ends (it does not cross the
    blank line at `stop`); just after the backticks when nothing closes it (they are text
    then)."""
    close = re.compile(r"(?<!`)" + "`" * run + r"(?!`)").search(text, start + run, stop)
    return close.end() if close else start + run


def _comment_end(text: str, start: int, opener: str) -> int:
    """The end of the comment opened at `start`, or -1. `<!-->` and `<!--->` are complete
    comments (CommonMark 0.31, HTML's own parser); Jinja's comment ends at `#}`."""
    if opener == "{# ":
        end = text.find("#}", start + 3)
        return end + 2 if end >= 0 else -1
    for short in ("<!-->", "<!--->"):
        if text.startswith(short, start):
            return start + len(short)
    end = text.find("-->", start + 4)
    return end + 3 if end >= 0 else -1


_CONTENT = re.compile(r"[^ \t>\n]")


def _replacement(text: str, start: int, end: int, filler: str, content: list[int]) -> str:
    """What stands in a comment's place: its line breaks, and `filler` on each line that would
    otherwise turn blank inside a paragraph (see the module docstring). `content`: the
    first and last positions of `text` holding a character other than ' ', tab, '>' or a
    line break."""
    breaks = text.count("\n", start, end)
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    before, after = text[line_start:start], text[end:line_end]
    whole = not before.strip(" \t>") and not after.strip()
    if whole:
        previous = text[text.rfind("\n", 0, max(line_start - 1, 0)) + 1:max(line_start - 1, 0)]
        following = text[line_end + 1:(text.find("\n", line_end + 1) + 1 or len(text) + 1) - 1]
        at_edge = line_start == 0 or line_end >= len(text)
        alone = content[0] >= line_start or content[-1] < line_end
        if not at_edge and not alone and not previous.strip(" \t>") and not following.strip(" \t>"):
            # a block of its own between two blocks: on GitHub it ends a list (two lists, not
            # one loose list) as any block does; `filler` on each of its lines (after their
            # `>` and indentation: it stays in its quote, note or item) is a paragraph to
            # both parsers, which the math step drops (`md_math`)
            inner = text[start:end].split("\n")[1:]
            return filler + "".join("\n" + x[:len(x) - len(x.lstrip(" \t>"))] + filler
                                    for x in inner)
        if at_edge or not previous.strip(" \t>") or not following.strip(" \t>"):
            return "\n" * breaks                       # at a block's edge: blank lines
        return (filler + "\n") * breaks + filler
    first = filler if not before.strip(" \t>") else ""
    return first + ("\n" + filler) * breaks
