"""Worker processes for the expensive stages, that never outlive the build.

A `Pool` forks its workers on first use (a cached build starts none). Each worker asks the
kernel to kill it when its parent dies (Linux `PR_SET_PDEATHSIG`; elsewhere a thread that
watches the parent's pid), so SIGINT, SIGTERM and even SIGKILL of the build leave no worker
behind. Workers ignore SIGINT: Ctrl+C stops the parent, which cancels what is left.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, InvalidStateError, ProcessPoolExecutor
from typing import Any

PR_SET_PDEATHSIG = 1
_THREAD_HOOK = threading.excepthook


def _quiet_cancelled_in_a_broken_pool(args: threading.ExceptHookArgs) -> None:
    """threading.excepthook, minus one error of CPython's ProcessPoolExecutor (3.11): when
    the pool breaks (`Pool.close(wait=False)` kills its workers on Ctrl+C), its manager
    thread marks every pending job failed, also one already cancelled (`Executor.map`
    cancels the rest when the loop over it stops), and dies of InvalidStateError, printed
    as a traceback after the build's one line about Ctrl+C. The job was cancelled: nothing
    is lost."""
    if isinstance(args.exc_value, InvalidStateError) and \
            type(args.thread).__name__ == "_ExecutorManagerThread":
        return
    _THREAD_HOOK(args)


threading.excepthook = _quiet_cancelled_in_a_broken_pool


def _die_with_parent(parent: int) -> None:
    """Worker initializer: exit when the parent process goes away."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:          # the parent died before prctl took effect
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                os._exit(1)
    threading.Thread(target=watch, daemon=True).start()


class Pool:
    """A process pool created on first use; `jobs=0` means one worker per core."""

    def __init__(self, jobs: int = 0) -> None:
        self.jobs = jobs or os.cpu_count() or 1
        self.executor: ProcessPoolExecutor | None = None
        self._children_before: set[Any] = set()

    def _get(self) -> ProcessPoolExecutor:
        if self.executor is None:
            import multiprocessing
            self._children_before = set(multiprocessing.active_children())
            self.executor = ProcessPoolExecutor(
                max_workers=self.jobs, mp_context=multiprocessing.get_context("fork"),
                initializer=_die_with_parent, initargs=(os.getpid(),))
        return self.executor

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future[Any]:
        """Run `fn(*args)` in a worker."""
        return self._get().submit(fn, *args)

    def map(self, fn: Callable[..., Any], items: Iterable[Any]) -> Iterator[Any]:
        """`fn` over `items` in the workers, results in order."""
        return self._get().map(fn, items)

    def close(self, wait: bool = True) -> None:
        """Cancel what has not started and stop the workers: after the jobs running now
        finish, or (`wait` False) at once, killing them mid-job."""
        if self.executor is not None:
            if not wait:    # concurrent.futures has no public way to stop a running job
                import multiprocessing
                # also a worker forked while Ctrl+C struck, before the executor noted it in
                # `_processes`: multiprocessing joins every child at exit, and an idle worker
                # of a live parent never ends (the build would hang there)
                new = set(multiprocessing.active_children()) - self._children_before
                for process in new | set((self.executor._processes or {}).values()):
                    process.kill()
                # the jobs queued for the killed workers are dropped: the queue's feeder
                # thread, which may be blocked writing them into a full pipe no worker reads
                # now, is not joined at exit (a Ctrl+C'd build could hang there)
                queue = getattr(self.executor, "_call_queue", None)
                if queue is not None:
                    queue.cancel_join_thread()
            manager = getattr(self.executor, "_executor_manager_thread", None)
            self.executor.shutdown(wait=wait, cancel_futures=True)
            self.executor = None
            if manager is not None:
                # the executor's manager thread closes its wake-up pipe as it ends; left
                # running, it could close it while the interpreter's exit hook writes to it
                # (concurrent.futures' _python_exit), which printed 'Exception ignored …
                # OSError: [Errno 9] Bad file descriptor' and a traceback after a failed
                # build's one-line error (author12). With its workers killed it ends at once.
                manager.join(timeout=5)

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        """A build that failed, or Ctrl+C, does not wait for the running jobs."""
        self.close(wait=kind is None)
