"""Errors an author can act on: one line, `path:line: what is wrong; what to do`."""
from __future__ import annotations

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


def line_of(text: str, needle: str, start_line: int = 1) -> int:
    """1-based line of the first occurrence of `needle` in `text` at or after `start_line`.

    Returns 0 when `needle` does not occur (callers then report the file without a line).
    """
    lines = text.split("\n")
    offset = sum(len(x) + 1 for x in lines[: start_line - 1])
    at = text.find(needle, offset)
    if at < 0:
        at = text.find(needle)
    return text.count("\n", 0, at) + 1 if at >= 0 else 0
