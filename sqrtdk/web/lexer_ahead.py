"""The lexer's reading aids, shared by `lexer_inline` and `html_names`: `Ahead`, the searches of
one paragraph's text kept while they still answer, and `line_lead`, whether only a line's
indentation and quote markers stand before a position."""
from __future__ import annotations

import re


class Ahead:
    """The first match of a pattern at or after a position of one paragraph's text, each
    search's answer kept while it still answers: the scan asks for positions that grow, so
    each pattern reads the text about once (a failing search from every opener read it to
    the end each time)."""

    def __init__(self, text: str):
        self.text = text
        # (searched from, found at) for each pattern (its text and flags: re.compile's cache
        # may make it anew)
        self._found: dict[tuple[str, int], tuple[int, int]] = {}

    def find(self, pattern: re.Pattern[str], pos: int) -> int:
        """Where the first match of `pattern` at or after text[pos] starts; len(text) if
        there is none."""
        known = self._found.get((pattern.pattern, pattern.flags))
        if known is not None and known[0] <= pos <= known[1]:
            return known[1]
        m = pattern.search(self.text, pos)
        at = m.start() if m else len(self.text)
        self._found[pattern.pattern, pattern.flags] = (pos, at)
        return at


def line_lead(text: str, i: int) -> bool:
    """Whether only spaces, tabs and quote markers ('>') stand between text[i] and its line's
    start, read back from text[i] (read forward from the line's start, each '<' or '[' of a
    long line read the line again)."""
    k = i
    while k and text[k - 1] in " \t>":
        k -= 1
    return not k or text[k - 1] == "\n"
