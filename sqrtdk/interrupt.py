"""Ctrl+C for the build: a KeyboardInterrupt in the main thread, never inside an import.

Python's own SIGINT handler raises KeyboardInterrupt wherever the main thread happens to be.
Inside an import that breaks more than the import: a KeyboardInterrupt while a C extension
initialises (matplotlib's ft2font, which a cold build imports while the experiments run in
the workers, see figures_stage.load_drawing) comes out as an ImportError, or as a
RuntimeError from a class's `__set_name__`, which the build's `except KeyboardInterrupt`
does not catch: a traceback and exit 1, and once in about 200 such Ctrl+Cs CPython aborted
("Fatal Python error: PyThreadState_Get", SIGABRT) while finalising the half-made module.
The handler here lets an import finish first: a thread sends the signal to the main thread
again every 20 ms (`signal.pthread_kill`, which runs this handler again there) until the
handler finds the main thread outside importlib's frames and raises KeyboardInterrupt as
Python's would.

A KeyboardInterrupt raised where CPython swallows exceptions is lost the same way: in a
callback `os.register_at_fork` runs after a fork (logging's `_releaseLock`, while the build
starts its workers), a `__del__`, a weakref or garbage-collector callback. CPython prints
"Exception ignored in: …" with a traceback and goes on: the build finished, exit 0, as if
Ctrl+C had never been pressed (seen once in CI). Such an exception goes through
`sys.unraisablehook`; the hook installed here takes a KeyboardInterrupt and delivers the
interrupt again, as after an import. An interrupt that strikes inside that hook itself (the
thread it starts sent its first signal before `Thread.start` had returned, under load) would be
swallowed the same way, so it too waits for the hook to return.
"""
from __future__ import annotations

import signal
import sys
import threading
import time
from collections.abc import Callable
from types import FrameType
from typing import Any

RETRY_S = 0.02
"""How long an interrupt that arrived inside an import waits before it asks again (s)."""


def in_import(frame: FrameType | None) -> bool:
    """Whether `frame` or a frame it was called from is importlib's own: the main thread is
    importing a module (CPython 3.11 names those frames `<frozen importlib._bootstrap>` and
    `<frozen importlib._bootstrap_external>`)."""
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib."):
            return True
        frame = frame.f_back
    return False


def _in_redelivery(frame: FrameType | None) -> bool:
    """Whether `frame` or a frame it was called from is the unraisable hook's
    (`_redeliver_swallowed`): a KeyboardInterrupt raised there is swallowed by CPython."""
    while frame is not None:
        if frame.f_code is _redeliver_swallowed.__code__:
            return True
        frame = frame.f_back
    return False


class _Retry:
    """The interrupt that waits for an import to end: sent to the main thread every RETRY_S
    until the handler has raised it. Sent again and again, not once: a signal that reaches
    the main thread just before it blocks (the import done, a sleep or a wait for a job's
    result begun) is run only when the block ends; seen in 4 of 48 tries under load."""

    def __init__(self) -> None:
        self.pending = False
        self.thread: threading.Thread | None = None

    def ask(self, signum: int) -> None:
        self.pending = True
        if self.thread is None or not self.thread.is_alive():
            self.thread = threading.Thread(target=self._send, args=(signum,), daemon=True,
                                           name="interrupt-after-import")
            self.thread.start()

    def _send(self, signum: int) -> None:
        while True:
            time.sleep(RETRY_S)
            if not self.pending:
                return
            # a real signal to the main thread: a blocking wait there (a job's result, a
            # sleep) wakes up for it; `_thread.interrupt_main` only flags the next bytecode
            signal.pthread_kill(threading.main_thread().ident or 0, signum)


_RETRY = _Retry()


def interrupt_when_safe(signum: int, frame: FrameType | None) -> None:
    """A SIGINT handler: raises KeyboardInterrupt, unless the main thread is importing (see
    the module's docstring) or inside the hook that delivers a swallowed interrupt again, in
    which case the interrupt is delivered again once that is done. Raises KeyboardInterrupt."""
    if not in_import(frame) and not _in_redelivery(frame):
        _RETRY.pending = False
        raise KeyboardInterrupt
    _RETRY.ask(signum)


def _redeliver_swallowed(unraisable: Any, hook: Callable[[Any], object]) -> object:
    """Deliver a swallowed KeyboardInterrupt again; pass every other unraisable exception
    (`sys.UnraisableHookArgs`) to `hook`. A SIGINT handled while this runs waits for it to
    return (`interrupt_when_safe`)."""
    if unraisable.exc_type is not None and issubclass(unraisable.exc_type, KeyboardInterrupt):
        _RETRY.ask(signal.SIGINT)
        return None
    return hook(unraisable)


def _redelivering(hook: Callable[[Any], object]) -> Callable[[Any], object]:
    """`sys.unraisablehook` that delivers a swallowed KeyboardInterrupt again (see the
    module's docstring) and passes every other unraisable exception to `hook`."""
    def handle(unraisable: Any) -> object:
        return _redeliver_swallowed(unraisable, hook)
    handle.redelivers = True    # type: ignore[attr-defined]
    return handle


def install() -> None:
    """Use `interrupt_when_safe` for SIGINT in this process, unless SIGINT is ignored (a
    build started by `nohup … &` keeps ignoring it), and a `sys.unraisablehook` that
    delivers a KeyboardInterrupt CPython swallowed again. Call it from the main thread."""
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        signal.signal(signal.SIGINT, interrupt_when_safe)
        if not getattr(sys.unraisablehook, "redelivers", False):
            sys.unraisablehook = _redelivering(sys.unraisablehook)
