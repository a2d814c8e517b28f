"""What an experiment's job or a figure's drawing must not do while it runs, refused at the
author's line: draw from a generator without a seed, or write a file.

A job's numbers must be the same in every build of the same seed (results.json is in git,
and `--check` builds twice to compare), and so must a figure's bytes; a job or a drawing
gives its output back to the build, which writes every file itself. Unseeded randomness
(`np.random.default_rng()`, `np.random.PCG64()`, `np.random.SeedSequence()` or
`np.random.RandomState()` without a seed, `random.Random()`, `random.SystemRandom`, `secrets`,
`os.urandom`, `uuid.uuid4()`) made results differ between builds, caught only by `--check`;
`fig.savefig("x.png")` in a drawing wrote a file beside the project, silently. `refused`
replaces, for the duration of one call (in the worker that runs it), the functions those
reach: numpy's source of fresh entropy (`numpy.random.bit_generator.randbits`), `random`'s
seeding without a seed and its `_urandom`, `os.urandom`, and opening a file for writing
(`open`, `io.open`, `os.open`). Each raises `SideEffectError` at the author's line (the
innermost frame of the call in an author's file), also recorded in case the author's code
catches it. Numpy's and Python's shared generators (`np.random.rand`, `random.random`) are
told by science_stage's state comparison instead (their numbers do not come from outside).
Not refused, as they leave nothing beside the project and change no number: writing to
`os.devnull` (`subprocess.DEVNULL`, output silenced) and to files under the temporary folder
(`tempfile`, whose own unseeded `random.Random()` only names its files).
"""
from __future__ import annotations

import builtins
import io
import os
import random
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

UNSEEDED = "draws from a random generator made without a seed"
_PROJECT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


class SideEffectError(Exception):
    """A refused action, at the author's `path` and `line` (0: not found), `what` it was
    (for the message: 'writes the file x.png', or UNSEEDED with the call)."""

    def __init__(self, path: str, line: int, what: str):
        super().__init__(path, line, what)
        self.path, self.line, self.what = path, line, what

    def __str__(self) -> str:
        return self.what


@contextmanager
def refused(author: Callable[[str], bool]) -> Iterator[list[SideEffectError]]:
    """Within the `with` body, unseeded randomness and file writes raise SideEffectError at
    the innermost frame whose file `author(filename)` accepts; yields the list of those
    raised (the body may have caught them). Restores every replaced function on exit. Not
    thread-safe: for a worker process running one call at a time."""
    import tempfile

    from numpy.random import bit_generator
    found: list[SideEffectError] = []
    # the temporary folder (found, and cached by tempfile, before the guard) and the folders
    # a file must not be written into even there: the working folder and the project's
    scratch = (os.path.abspath(tempfile.gettempdir()), os.getcwd(), _PROJECT)

    def refuse(what: str) -> SideEffectError:
        frame: Any = sys._getframe(1)
        while frame is not None and not author(frame.f_code.co_filename):
            frame = frame.f_back
        error = SideEffectError(frame.f_code.co_filename if frame else "",
                                frame.f_lineno if frame else 0, what)
        found.append(error)
        return error

    def unseeded(call: str) -> Callable[..., Any]:
        def raise_it(*args: Any, **kwargs: Any) -> Any:
            raise refuse(f"{UNSEEDED} ({call})")
        return raise_it

    seed = random.Random.seed

    def seed_given(self: random.Random, a: Any = None, version: int = 2) -> None:
        if a is None and not _called_from(tempfile.__file__, author):
            raise refuse(f"{UNSEEDED} (random.Random() or seed() with no seed)")
        seed(self, a, version)

    def opener(original: Callable[..., Any]) -> Callable[..., Any]:
        def open_to_read(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
            if isinstance(mode, str) and set(mode) & set("wax+") and \
                    not isinstance(file, int) and not _harmless(file, scratch):
                raise refuse(f"writes the file {os.fsdecode(file)!r} (opened with "
                             f"mode {mode!r})")
            return original(file, mode, *args, **kwargs)
        return open_to_read

    os_open = os.open

    def os_open_to_read(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if flags & _WRITE_FLAGS and not _harmless(path, scratch):
            raise refuse(f"writes the file {os.fsdecode(path)!r} (os.open)")
        return os_open(path, flags, *args, **kwargs)

    replaced: list[tuple[Any, str, Any]] = [
        (bit_generator, "randbits", unseeded("numpy's default_rng(), PCG64(), SeedSequence() "
                                             "or RandomState() with no seed")),
        (random.Random, "seed", seed_given),
        (random, "_urandom", unseeded("random.SystemRandom or secrets")),
        (os, "urandom", unseeded("os.urandom, uuid.uuid4()")),
        (builtins, "open", opener(builtins.open)),
        (io, "open", opener(io.open)),
        (os, "open", os_open_to_read),
    ]
    saved = [(owner, name, getattr(owner, name)) for owner, name, _ in replaced]
    try:
        for owner, name, value in replaced:
            setattr(owner, name, value)
        yield found
    finally:
        for owner, name, value in saved:
            setattr(owner, name, value)


def _harmless(file: Any, scratch: tuple[str, str, str]) -> bool:
    """Whether writing `file` (a path, str, bytes or path-like) leaves nothing behind that
    matters: it is `os.devnull`, or a file under the temporary folder `scratch[0]` and not
    under `scratch[1]` or `scratch[2]` (the working and the project's folders, which a copy
    of the project in the temporary folder puts there)."""
    try:
        path = os.path.abspath(os.fsdecode(file))
        temp, *not_there = scratch
        return path == os.devnull or (_under(path, temp) and
                                      not any(_under(path, p) for p in not_there))
    except (TypeError, ValueError):     # not a path
        return False


def _under(path: str, folder: str) -> bool:
    """Whether the absolute `path` is `folder` or inside it (False on another drive)."""
    try:
        return os.path.commonpath([path, folder]) == folder
    except ValueError:
        return False


def _called_from(filename: str, author: Callable[[str], bool]) -> bool:
    """Whether a frame of the file `filename` is among the callers of the caller's caller,
    closer than the author's innermost frame (`author(filename)`)."""
    frame: Any = sys._getframe(2)
    while frame is not None and not author(frame.f_code.co_filename):
        if frame.f_code.co_filename == filename:
            return True
        frame = frame.f_back
    return False


def shared_generators() -> bytes:
    """The state of numpy's global RandomState and of Python's `random`: a call that changes
    either drew from them (`np.random.rand`, `random.random`) instead of its own seeded
    generator; their numbers depend on what ran before in the process, not on the seed."""
    import pickle

    import numpy as np
    return pickle.dumps((np.random.get_state(), random.getstate()))
