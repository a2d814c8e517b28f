"""Errors an author can act on: one line, `path:line: what is wrong; what to do`.

Paths are shown relative to the current folder when they lie inside it (as compilers do), so
a message never shows more of this machine than the author typed. Bugs in our own code are
not BuildErrors and keep their traceback.
"""
from __future__ import annotations

import difflib
import errno
import re
from collections.abc import Iterable
from pathlib import Path


def display_path(path: Path | str) -> str:
    """`path` relative to the current folder when inside it, else as given (POSIX form)."""
    p = Path(path)
    try:
        return p.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except (ValueError, OSError):
        return p.as_posix()


class BuildError(Exception):
    """A mistake in the content, the templates, the settings or the command line.

    `line` is 1-based; 0 means "the whole file" and is left out of the message.
    """

    def __init__(self, path: Path | str, line: int, message: str):
        self.path, self.line, self.message = Path(path), line, message
        super().__init__(f"{where(path, line)}: {message}")


def where(path: Path | str, line: int) -> str:
    """`path:line`, or `path` alone for line 0."""
    return display_path(path) + (f":{line}" if line else "")


def suggest(name: str, known: Iterable[str], what: str = "names", prefix: str = "") -> str:
    """"did you mean 'x'?" when a known name is close to `name` (difflib), else the list of
    what exists (at most 12 shown). `prefix` is written before each suggested name (the group
    of a dotted path, so the suggestion can be pasted as it is)."""
    names = sorted(set(known))
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.6)
    if close:
        return "did you mean " + " or ".join(f"'{prefix}{c}'" for c in close) + "?"
    if not names:
        return f"there are no {what}"
    shown = ", ".join(names[:12]) + (", …" if len(names) > 12 else "")
    return f"known {what}: {shown}"


def shortened(text: str, most: int = 60) -> str:
    """`text` for a message that quotes it: whole when at most `most` characters, else its
    start and its end around '…' (an address's host and its file name both recognisable)."""
    if len(text) <= most:
        return text
    tail = most // 3
    return f"{text[:most - tail - 1]}…{text[-tail:]}"


def line_at(text: str, offset: int) -> int:
    """1-based line of character `offset` in `text`."""
    return text.count("\n", 0, max(offset, 0)) + 1


def line_of(text: str, needle: str | re.Pattern[str], occurrence: int = 1,
            start: int = 1) -> int:
    """1-based line of the `occurrence`-th match of `needle` (a literal string or a compiled
    pattern) in `text` from line `start` on (the line a block was read at: the same text
    earlier is another's); the last match if there are fewer; 0 if none."""
    pattern = needle if isinstance(needle, re.Pattern) else re.compile(re.escape(needle))
    offset = 0
    for _ in range(start - 1):
        offset = text.find("\n", offset) + 1
        if not offset:
            return 0
    starts = [m.start() for m in pattern.finditer(text, offset)]
    if not starts or not needle:
        return 0
    return line_at(text, starts[min(occurrence, len(starts)) - 1])


# faults of the machine rather than of our code or the content: what to do about each
_MACHINE_FAULTS = {
    errno.ENOSPC: "free some disk space, then build again",
    errno.EDQUOT: "free some space within your disk quota, then build again",
    errno.EACCES: "make it writable for you (or build elsewhere: --out DIR), then build again",
    errno.EPERM: "make it writable for you (or build elsewhere: --out DIR), then build again",
    errno.EROFS: "the disk is mounted read-only; build elsewhere with --out DIR",
    errno.EBUSY: "close the program that holds it (a file manager, a server), then build again",
    errno.ETXTBSY: "close the program that holds it, then build again",
    errno.EMFILE: "too many open files: close other programs, then build again",
    errno.EIO: "the disk reported an error; check it, then build again",
}


def machine_fault(e: OSError) -> str | None:
    """One line for an OSError caused by the machine (a full disk, a folder without write
    permission, a file held by another program): `path: what happened; what to do`.
    None for any other OSError, which is left to show its traceback."""
    hint = _MACHINE_FAULTS.get(e.errno or 0)
    if hint is None:
        return None
    path = e.filename if e.filename is not None else "(the build)"
    return f"{display_path(path) if isinstance(path, str | Path) else path}: cannot write " \
           f"({e.strerror or e}); {hint}; the previous site is left as it was"
