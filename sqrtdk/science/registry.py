"""Registries of the science half, filled by the modules next to the code they describe.

Like Python-Markdown's processor registries, each thing is registered by name where it is
defined, and nothing looks functions up by name:

| registry        | entry        | what it is                                              |
|-----------------|--------------|---------------------------------------------------------|
| `EXPERIMENTS`   | `Experiment` | parameters, the independent jobs to run, how to assemble |
| `SECTIONS`      | `Section`    | one named group of results.json, built from experiments  |
| `CLAIMS`        | `Claim`      | a sentence the articles rely on, checked on the results  |
| `SNIPPETS`      | `Snippet`    | a few lines of numpy the page shows and the build runs   |

`load()` imports every module of this package once, so a new experiment module is found
without being listed anywhere.
"""
from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from .grid import BAR_SECTION


class Named(Protocol):
    """Anything registered: it has a name."""

    @property
    def name(self) -> str: ...


T = TypeVar("T", bound=Named)


@dataclass(frozen=True)
class Job:
    """One independent unit of work: `fn(*args)` in a worker process; `cost` orders jobs
    (largest first) so the workers finish together; `key` identifies the output."""

    key: Hashable
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    cost: float = 1.0


@dataclass(frozen=True)
class Valid:
    """The values a field of an experiment's parameters can take (`valid`): a number, or each
    item of a tuple, at least `at_least`, above `above`, at most `at_most`, below `below`;
    a tuple of at least `min_items` items. `why` says what a value outside breaks."""

    why: str
    at_least: float | None = None
    above: float | None = None
    at_most: float | None = None
    below: float | None = None
    min_items: int = 0

    def broken(self, value: Any) -> str | None:
        """What is wrong with `value` (a number or a tuple of numbers), None when nothing:
        'less than 2', 'with 0 item(s), fewer than 1', 'whose item 1 (0.0) is not above 0'."""
        if isinstance(value, tuple):
            if len(value) < self.min_items:
                return f"with {len(value)} item(s), fewer than {self.min_items}"
            for i, item in enumerate(value):
                wrong = self._number(item)
                if wrong is not None:
                    return f"whose item {i} ({item!r}) is {wrong}"
            return None
        return self._number(value)

    def _number(self, x: Any) -> str | None:
        if not isinstance(x, (int, float)) or isinstance(x, bool):
            return None             # its type is told by check_params' type check
        for bound, fails, words in ((self.at_least, x < (self.at_least or 0), "less than"),
                                    (self.above, x <= (self.above or 0), "not above"),
                                    (self.at_most, x > (self.at_most or 0), "more than"),
                                    (self.below, x >= (self.below or 0), "not below")):
            if bound is not None and fails:
                return f"{words} {bound:g}"
        return None

    def wanted(self) -> str:
        """The range in words: 'at least 2', 'above 0 and at most 0.5', '2 or more items,
        each at least 1'."""
        limits = " and ".join(f"{w} {b:g}" for w, b in (
            ("at least", self.at_least), ("above", self.above), ("at most", self.at_most),
            ("below", self.below)) if b is not None)
        if not self.min_items:
            return limits or "any value"
        return f"{self.min_items} or more items" + (f", each {limits}" if limits else "")


def valid(default: Any, why: str, **limits: Any) -> Any:
    """A field of an experiment's parameters (a `...Params` dataclass) whose default is
    `default` and whose values `check_params` (sqrtdk.science_stage) holds to `limits`
    (`Valid`'s fields: at_least, above, at_most, below, min_items) before any job runs,
    telling a value outside at the field's line with `why`. A limit that joins two fields
    is a method `invalid(self)` of the Params class, yielding (field, what is wrong)."""
    return field(default=default, metadata={"valid": Valid(why, **limits)})


@dataclass(frozen=True)
class Experiment:
    """A pure numpy experiment: `jobs(params, seed)` lists independent jobs (each draws from
    its own named random stream), `assemble(params, outputs)` turns their outputs (by job key)
    into one frozen dataclass."""

    name: str
    params: Any
    jobs: Callable[[Any, int], list[Job]]
    assemble: Callable[[Any, Mapping[Hashable, Any]], Any]


@dataclass(frozen=True)
class Section:
    """results.json[`name`], built by `build(data)` from the assembled outputs of the
    experiments in `needs` (`data[experiment name]`). `bounds` maps result paths inside the
    section (fnmatch patterns) to the interval the quantity cannot leave, so a rounded number
    in the prose never lands on a bound the true value does not reach. `evidence` names
    results kept only so that others can be checked against them (the scores behind shown
    shares): the build does not warn that nothing quotes them."""

    name: str
    needs: tuple[str, ...]
    build: Callable[[Mapping[str, Any]], dict[str, Any]]
    bounds: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    evidence: tuple[str, ...] = ()


@dataclass(frozen=True)
class Claim:
    """A qualitative statement the articles rely on, as a number and a bound.

    `value(section)` computes the number from results.json[`section`]; the claim holds when
    `value op bound` (`op` is "<=" or ">="). `unit` is how the value is read in the sweep
    table. A false claim stops the build at the article line that relies on it.
    `snippet`: for a claim on section "reproduce", the one snippet whose printout it reads;
    its sweep entry then depends on that snippet and the code that runs it (sweep.claim_code),
    so adding another snippet leaves it current.
    `each_dk`: the claim must hold at every dₖ the page's bar offers (grid.bar_indices), as a
    sentence beside numbers that follow the bar says it at whatever dₖ the reader chose:
    `value(section, i)` is its number at place `i` of the grid (`spread.d_k`), and the claim
    holds when the worst of them (the largest for "<=", the smallest for ">=") does. A claim
    relied on beside such numbers must be one (checks.check_followed_claims).
    """

    name: str
    section: str
    statement: str
    value: Callable[..., float]
    op: str
    bound: float
    unit: str = ""
    snippet: str = ""
    each_dk: bool = False

    def __post_init__(self) -> None:
        """Refuses (ValueError, TypeError: one line at the registration, told by the build's
        inputs.told_import_error) an `op` other than "<=" or ">=", a `bound` that is no
        number, and a `value` that cannot be called with the section (and, for an `each_dk`
        claim, the place on the grid), which stopped the build with run.py's traceback."""
        import inspect
        if self.op not in ("<=", ">="):
            raise ValueError(f"claim '{self.name}': op must be '<=' or '>=', not {self.op!r}")
        if isinstance(self.bound, bool) or not isinstance(self.bound, (int, float)):
            raise TypeError(f"claim '{self.name}': its bound is {self.bound!r}, not a number; "
                            "write it as one (0.5, not '0.5')")
        args = (None, 0) if self.each_dk else (None,)
        try:
            inspect.signature(self.value).bind(*args)
        except TypeError:
            call = "value(section, i)" if self.each_dk else "value(section)"
            raise TypeError(f"claim '{self.name}': its value function "
                            f"{inspect.signature(self.value)} cannot be called as {call}"
                            + (", as each_dk=True calls it (its value at place i of the grid)"
                               if self.each_dk else ", as a claim without each_dk=True is") +
                            "; give it those parameters, or change each_dk") from None
        except ValueError:          # a builtin without a signature: called as it is
            pass

    def holds(self, value: float) -> bool:
        """Whether `value` satisfies `op bound`."""
        return value <= self.bound if self.op == "<=" else value >= self.bound

    @property
    def sections(self) -> tuple[str, ...]:
        """The results sections the claim's value depends on: its own, and for an `each_dk`
        claim the one holding the bar's grid (grid.BAR_SECTION)."""
        if self.each_dk and self.section != BAR_SECTION:
            return (self.section, BAR_SECTION)
        return (self.section,)

    def worst(self, values: list[float]) -> float:
        """The one of `values` furthest on the failing side of the bound."""
        return max(values) if self.op == "<=" else min(values)


@dataclass(frozen=True)
class Snippet:
    """A short numpy program shown on the page in a "reproduce" box; the build runs exactly
    this file (with the build's seed on its `SEED = …` line) and quotes what it prints."""

    name: str
    path: Path
    source: str = ""      # the experiment module (file name) whose full source the box links
    cost: float = 1.0


class Registry(Generic[T]):
    """Named entries in registration order; a name registered twice is a bug (ValueError)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._items: dict[str, T] = {}

    def register(self, item: T) -> T:
        """Add `item` under its `.name`; returns it (so modules can keep a reference)."""
        name: str = item.name
        if name in self._items:
            raise ValueError(f"{self.kind} '{name}' is registered twice")
        self._items[name] = item
        return item

    def __getitem__(self, name: str) -> T:
        return self._items[name]

    def __contains__(self, name: object) -> bool:
        return name in self._items

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self._items.values())

    def names(self) -> list[str]:
        """Registered names, in registration order."""
        return list(self._items)


EXPERIMENTS: Registry[Experiment] = Registry("experiment")
SECTIONS: Registry[Section] = Registry("results section")
CLAIMS: Registry[Claim] = Registry("claim")
SNIPPETS: Registry[Snippet] = Registry("snippet")

_LOADED = False


def load() -> None:
    """Import every module of the science package (each registers what it defines)."""
    global _LOADED
    if _LOADED:
        return
    package = importlib.import_module("sqrtdk.science")
    for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda m: m.name):
        if not info.name.startswith("_"):
            importlib.import_module(f"sqrtdk.science.{info.name}")
    _LOADED = True
