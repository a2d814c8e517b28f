"""An author's code that runs long: one line naming it and where it is, while the build waits.

An endless loop (or a very slow step) in an experiment's job or in a figure's drawing code
hung the build with no word: Ctrl+C stopped it, but the author could not tell which job or
figure was still running. `told_if_slow` wraps one such call (in the worker that runs it; an
experiment's list of jobs, its assembly, a results section and a claim in the build's own
process, science_stage.watching): if
the call has not returned after `after_s` seconds, a timer thread prints one line,
`path:line: job 'x' of 'walk' still running after 30 s, now at line 57; …`, at the line of
the function the author wrote, with the line the call has reached in that function's file
when the call is there. It is a note, not a warning: the build goes on waiting (a slow
experiment is not a mistake; --strict does not fail for it), and nothing is printed when the
call ends in time. One timer thread per call (tens per build), cancelled when it returns.
"""
from __future__ import annotations

import inspect
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

SLOW_S = 30.0
"""How long a job or a drawing runs before the build names it (s)."""


_TIMER = threading.Timer     # what runs `tell` later (a test gives one it calls itself)


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


@contextmanager
def told_if_slow(code: Callable[..., Any], what: str, doing: str = "running",
                 after_s: float | None = None, say: Callable[[str], None] | None = None,
                 author: Callable[[str], bool] | None = None) -> Iterator[None]:
    """Run the `with` body; if it is still running after `after_s` seconds (SLOW_S unless
    given), `say` (stderr unless given) one line once, from a timer thread:
    `path:line: {what} still {doing} after N s[, now at …]; …`, at the line where `code`
    (the author's function: a job's, a figure's drawing function) is defined; `now at` names
    the innermost frame of the body's thread in an author's file (`author(filename)`; by
    default that function's file): `line M` in that file, `other.py:M` in another (a
    snippet the job runs). Raises nothing of its own; the body's exceptions pass through."""
    target = inspect.unwrap(code)
    try:
        path = inspect.getsourcefile(target) or ""
        line = inspect.getsourcelines(target)[1]
    except (OSError, TypeError):    # a builtin or a function without source: no timer
        yield
        return
    from .errors import where
    place = where(path, line)
    runner = threading.get_ident()
    wait = SLOW_S if after_s is None else after_s
    tell_to = _say if say is None else say
    mine = author or path.__eq__

    def tell() -> None:
        file, now = _innermost(runner, mine)
        at = "" if not now or (file, now) == (path, line) else \
            f", now at line {now}" if file == path else f", now at {where(file, now)}"
        tell_to(f"{place}: {what} still {doing} after {wait:g} s{at}; the build waits for "
                "it (if it never ends, stop the build with Ctrl+C and look at this code)")
    timer = _TIMER(wait, tell)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()


def _innermost(thread: int, author: Callable[[str], bool]) -> tuple[str, int]:
    """The file and line of the innermost frame of thread `thread` whose file `author`
    accepts (("", 0): none)."""
    frame = sys._current_frames().get(thread)
    while frame is not None:
        if author(frame.f_code.co_filename):
            return frame.f_code.co_filename, frame.f_lineno
        frame = frame.f_back
    return "", 0
