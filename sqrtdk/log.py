"""The warning channel: non-fatal problems an author should see, as `path:line: warning: …`.

Modules log through `logging.getLogger("sqrtdk.<module>")` with `warn(...)`; the command line
installs `WarningPrinter`, which prints each warning once. A build counts its own warnings
(pipeline.Builder), so `--strict` can turn them into a failed build (as MkDocs'
`CountHandler` does): there they are not printed as they come (`unprinted`) but listed with
the build's errors, each at its line (`as_error`).

A kind of warning a file can hold by the hundred (`PLENTIFUL`: Chinese spacing, in an article
pasted from elsewhere) would bury the others: the printer shows the first `MOST_OF_A_KIND` of
it per file, and `summarise` (after each build) one line per file saying how many more there
are and how to see them all (`build.py --all-warnings`). Only the printing changes: every
warning is still logged and counted (`--strict` makes each an error).
"""
from __future__ import annotations

import logging
import re
import sys
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from .errors import WARNING, BuildError, one_line, where

LOGGER = logging.getLogger("sqrtdk")
# kinds of warning, by the words after `warning: ` (or after a TOML key's `name: `), that the
# printer shows at most MOST_OF_A_KIND times per file
SPACING = "Chinese spacing or punctuation"
PLENTIFUL = (SPACING,)
MOST_OF_A_KIND = 10
_WARNING = re.compile(r"^(?P<path>.*?)(?::(?P<line>\d+))?: warning: (?P<text>.*)$", re.S)


def warn(logger: logging.Logger, path: Path | str, line: int, message: str) -> None:
    """Log an author-facing warning about `path:line` (line 0: the whole file)."""
    logger.warning("%s: warning: %s", where(path, line), one_line(message))


class WarningPrinter(logging.Handler):
    """Prints warnings (once each, in order) to `stream`; of each PLENTIFUL kind, at most
    `most` per file (None: all), the others counted for `summary`."""

    def __init__(self, stream: TextIO | None = None, most: int | None = MOST_OF_A_KIND) -> None:
        super().__init__(logging.WARNING)
        self.stream, self.most = stream, most
        self.seen: set[str] = set()
        self.shown: Counter[tuple[str, str]] = Counter()     # (file, kind) -> printed
        self.held: Counter[tuple[str, str]] = Counter()      # (file, kind) -> not printed

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if text in self.seen:
            return
        self.seen.add(text)
        key = _plentiful(text)
        if key is not None and self.most is not None:
            if self.shown[key] >= self.most:
                self.held[key] += 1
                return
            self.shown[key] += 1
        self._write(text)

    def summary(self) -> None:
        """One line per file and kind whose warnings were not all printed since the last
        summary: how many more, and how to see them."""
        for (path, kind), n in self.held.items():
            self._write(f"{path}: warning: {n} more '{kind}' warning(s) not shown (the first "
                        f"{self.most} are above); to see them all, build with --all-warnings")
        self.held.clear()

    def _write(self, text: str) -> None:
        stream = self.stream or sys.stderr
        stream.write(text + "\n")
        stream.flush()


def _plentiful(text: str) -> tuple[str, str] | None:
    """(file, kind) of a warning of a PLENTIFUL kind, else None."""
    m = _WARNING.match(text)
    if m is None:
        return None
    kind = next((k for k in PLENTIFUL if m["text"].startswith(f"{k}:") or f": {k}:" in m["text"]),
                None)
    return (m["path"], kind) if kind else None


def as_error(text: str, path: Path) -> BuildError:
    """A warning's line (`path:line: warning: …`) as the error `--strict` makes it, at its
    file and line (`path` when the line names none), its words as they were."""
    m = _WARNING.match(text)
    if m is None:
        return BuildError(path, 0, text)
    return BuildError(m["path"], int(m["line"] or 0), WARNING + m["text"])


@contextmanager
def unprinted() -> Iterator[None]:
    """The package's warnings of a block not printed (the WarningPrinter is taken off), but
    still seen by every other handler: `--strict` lists them with the errors instead."""
    printers = [h for h in LOGGER.handlers if isinstance(h, WarningPrinter)]
    for h in printers:
        LOGGER.removeHandler(h)
    try:
        yield
    finally:
        for h in printers:
            LOGGER.addHandler(h)


def install(stream: TextIO | None = None, most: int | None = MOST_OF_A_KIND) -> WarningPrinter:
    """Route the package's warnings to a new WarningPrinter (replacing an earlier one)."""
    for h in list(LOGGER.handlers):
        if isinstance(h, WarningPrinter):
            LOGGER.removeHandler(h)
    printer = WarningPrinter(stream, most)
    LOGGER.addHandler(printer)
    LOGGER.setLevel(logging.WARNING)
    LOGGER.propagate = False
    return printer


def summarise() -> None:
    """The installed printer's `summary` (after a build): nothing when none is installed."""
    for h in LOGGER.handlers:
        if isinstance(h, WarningPrinter):
            h.summary()


class _Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@contextmanager
def captured() -> Iterator[list[str]]:
    """Collect the package's warnings of a block (they still go out as usual), so a cached
    result can carry them and `replay` them on a later build."""
    handler = _Capture()
    LOGGER.addHandler(handler)
    try:
        yield handler.messages
    finally:
        LOGGER.removeHandler(handler)


@contextmanager
def held() -> Iterator[list[str]]:
    """The package's warnings of a block, kept back (not printed, not counted) in the list
    yielded; `replay` sends them out later (the pages checked before the experiments)."""
    hold = _Capture()
    handlers, propagate = list(LOGGER.handlers), LOGGER.propagate
    for h in handlers:
        LOGGER.removeHandler(h)
    LOGGER.addHandler(hold)
    LOGGER.propagate = False
    try:
        yield hold.messages
    finally:
        LOGGER.removeHandler(hold)
        for h in handlers:
            LOGGER.addHandler(h)
        LOGGER.propagate = propagate


def replay(messages: list[str]) -> None:
    """Log again warnings recorded by `captured` (a cached page or figure set)."""
    for message in messages:
        LOGGER.warning("%s", message)
