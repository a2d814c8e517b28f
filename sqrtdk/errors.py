"""Errors an author can act on: one line, `path:line: what is wrong; what to do`."""
from __future__ import annotations

import re
from pathlib import Path

from .config import ROOT


def display_path(path: Path | str) -> str:
    """Path relative to the project root when inside it (messages never show machine paths)."""
    p = Path(path)
    try:
        return p.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return p.as_posix()


class BuildError(Exception):
    """A mistake in the content, the templates or the command line; printed as one line.

    `line` is 1-based; 0 means "the whole file" and is left out of the message.
    """

    def __init__(self, path: Path | str, line: int, message: str):
        self.path, self.line, self.message = Path(path), line, message
        where = display_path(path) + (f":{line}" if line else "")
        super().__init__(f"{where}: {message}")


def line_of(text: str, needle: str | re.Pattern[str], start_line: int = 1,
            occurrence: int = 1) -> int:
    """1-based line of the `occurrence`-th match of `needle` (text or regex) in `text`, counting
    from `start_line` (and from the top if there are not that many after it).

    Returns 0 when `needle` does not occur (callers then report the file without a line).
    """
    lines = text.split("\n")
    offset = sum(len(x) + 1 for x in lines[: start_line - 1])
    pattern = needle if isinstance(needle, re.Pattern) else re.compile(re.escape(needle))
    for begin in (offset, 0):
        starts = [m.start() for m in pattern.finditer(text, begin)]
        if starts:
            at = starts[min(occurrence, len(starts)) - 1]
            return text.count("\n", 0, at) + 1
    return 0
