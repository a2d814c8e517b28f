"""The warning channel: non-fatal problems an author should see, as `path:line: warning: …`.

Modules log through `logging.getLogger("sqrtdk.<module>")` with `warn(...)`; the command line
installs `WarningPrinter`, which prints each warning once. A build counts its own warnings
(pipeline.Builder), so `--strict` can turn them into a failed build (as MkDocs'
`CountHandler` does).
"""
from __future__ import annotations

import logging
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from .errors import where

LOGGER = logging.getLogger("sqrtdk")


def warn(logger: logging.Logger, path: Path | str, line: int, message: str) -> None:
    """Log an author-facing warning about `path:line` (line 0: the whole file)."""
    logger.warning("%s: warning: %s", where(path, line), message)


class WarningPrinter(logging.Handler):
    """Prints warnings (once each, in order) to `stream`."""

    def __init__(self, stream: TextIO | None = None) -> None:
        super().__init__(logging.WARNING)
        self.stream = stream
        self.seen: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if text in self.seen:
            return
        self.seen.append(text)
        stream = self.stream or sys.stderr
        stream.write(text + "\n")
        stream.flush()


def install(stream: TextIO | None = None) -> WarningPrinter:
    """Route the package's warnings to a new WarningPrinter (replacing an earlier one)."""
    for h in list(LOGGER.handlers):
        if isinstance(h, WarningPrinter):
            LOGGER.removeHandler(h)
    printer = WarningPrinter(stream)
    LOGGER.addHandler(printer)
    LOGGER.setLevel(logging.WARNING)
    LOGGER.propagate = False
    return printer


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
