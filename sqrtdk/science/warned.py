"""A warning while the science code runs (numpy's RuntimeWarning for an overflow or a division
by zero: an inf or nan in the results) as an error at the line of the function that ran: a
job (in a worker), an experiment's assembly, a results section or a claim. Imported by
`run.py`, so it imports nothing of the package: every claim's code digest
(sweep.claim_code) holds run.py's import closure, which stays the science code's own; the
build makes a BuildError of it (science_stage.JobWarningError)."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any


class ScienceWarningError(Exception):
    """A warning raised while science code ran: where that code is, and what to say."""

    def __init__(self, path: Path | str, line: int, message: str):
        self.path, self.line, self.message = Path(path), line, message
        super().__init__(f"{path}:{line}: {message}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (str(self.path), self.line, self.message))


def warned_at(code: Callable[..., Any], what: str, call: Callable[[], Any]) -> Any:
    """`call()`; a warning while it runs is a ScienceWarningError at the line of `code` (the
    function of the job, the experiment's assembly, the section or the claim that `what`
    names), saying where the warning came from, instead of Python's two raw lines."""
    import inspect
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        output = call()
    if not caught:
        return output
    code = inspect.unwrap(code)
    first = caught[0]
    said = " ".join(str(first.message).split())
    raise ScienceWarningError(inspect.getsourcefile(code) or "",
                              inspect.getsourcelines(code)[1],
                              f"{first.category.__name__} in {what} ({said}, at line "
                              f"{first.lineno} of {Path(first.filename).name}): the results "
                              "may hold an inf or nan; fix the computation (a seed or a "
                              "parameter reaches it)")


def error_at(code: Callable[..., Any], message: str) -> ScienceWarningError:
    """An error at the line of `code` (a results section's or a claim's function) for what
    it returned, which the build cannot use: the author's line, not the machinery's
    traceback."""
    import inspect
    code = inspect.unwrap(code)
    return ScienceWarningError(inspect.getsourcefile(code) or "",
                               inspect.getsourcelines(code)[1], message)
