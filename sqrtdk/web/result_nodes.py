"""The results as a template sees them: `Node`s that remember their dotted path, so every
number a page quotes is traced to its place in results.json, and a name that is not there
is an error naming the results it could have meant."""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import jinja2

from ..errors import suggest
from .markers import PRIVATE_USE_RE


class UnknownResultError(Exception):
    """A name that is not in results.json. Deliberately not a LookupError: Jinja turns those
    into an Undefined whose message names our class instead of the missing result."""


class Node:
    """A branch of the results: attribute and index access return child Nodes or Quantities."""

    __slots__ = ("path", "value")

    def __init__(self, path: str, value: Any):
        self.path, self.value = path, value

    def _child(self, key: Any) -> Node:
        v = self.value
        if isinstance(key, slice):      # `raw[1:3]`: values picked by their places
            raise UnknownResultError(
                f"a slice of {self.path} picks values by their places, which a quote does "
                f"not do: quote each value by itself, a named result (one the experiment's "
                f"section gives) or {self.path}[0] / {self.path}[-1] for the first and last")
        if isinstance(v, dict) and isinstance(key, str) and key in v:
            return wrap(f"{self.path}.{key}", v[key])
        if isinstance(v, list) and isinstance(key, int) and -len(v) <= key < len(v):
            return wrap(f"{self.path}.{key % len(v)}", v[key])
        if isinstance(v, dict):
            hint = suggest(str(key), v, f"results in {self.path}", prefix=f"{self.path}.")
        elif not v:
            hint = f"{self.path} is an empty list today; quote it only where it has values"
        else:
            hint = (f"{self.path} is a list with indices 0..{len(v) - 1} (its length follows "
                    f"the experiment's parameters): quote a place it has, {self.path}[-1] "
                    f"for the last, or write the row once for every value, {{% for v in "
                    f"{self.path} %}}…{{% endfor %}}")
        raise UnknownResultError(f"no result '{self.path}.{key}'; {hint}")

    def __getattr__(self, key: str) -> Node:
        if key.startswith("__"):
            raise AttributeError(key)
        return self._child(key)

    def __getitem__(self, key: Any) -> Node:
        return self._child(key)

    def __iter__(self) -> Iterator[Node]:
        """The values of a list, each with its path (`{% for s in saturation.scores %}`:
        saturation.scores.0, .1, ...); TypeError for a table of results."""
        if not isinstance(self.value, list):
            raise TypeError(f"'{self.path}' is a table of results, not a list; loop over "
                            f"one of its lists, or quote its results by name")
        return (wrap(f"{self.path}.{i}", v) for i, v in enumerate(self.value))

    def __str__(self) -> str:
        raise TypeError(f"'{self.path}' is a group of results, not a value; pick one of its keys")


class Quantity(Node):
    """A leaf of the results: a number or a string, with its dotted path."""

    def _child(self, key: Any) -> Node:
        raise UnknownResultError(
            f"'{self.path}' is one value, with no parts: '{self.path}"
            f"{f'[{key}]' if isinstance(key, int) else f'.{key}'}' is no result; quote "
            f"{self.path} itself" + ("" if isinstance(self.value, str) else
                                     f", e.g. {self._example()}"))

    def __str__(self) -> str:
        if isinstance(self.value, str):
            return self.value
        raise TypeError(f"'{self.path}' is a number: quote it through a format filter, "
                        f"e.g. {self._example()}")

    def _example(self) -> str:
        """A quote of this number to suggest: `grouped` for a whole number (a count, a
        dimension: fixed(2) would print 20,000.00), else `fixed(2)`."""
        whole = isinstance(self.value, int) and not isinstance(self.value, bool)
        return f"{{{{ {self.path} | {'grouped' if whole else 'fixed(2)'} }}}}"


def wrap(path: str, value: Any) -> Node:
    """Wrap a results value at `path`: dicts and lists become Nodes, scalars Quantities."""
    return Node(path, value) if isinstance(value, (dict, list)) else Quantity(path, value)


def number_of(q: Any, filter_name: str) -> tuple[str, float]:
    """(dotted path, value) of the quantity a format filter was given; TypeError for
    anything else (a group of results, a text, a number typed into the text)."""
    if isinstance(q, jinja2.Undefined):
        q._fail_with_undefined_error()
    if not isinstance(q, Quantity) or isinstance(q.value, (str, bool)):
        raise TypeError(f"filter '{filter_name}' formats a number from the results, "
                        f"got {describe(q)}; {_instead(q)}")
    return q.path, float(q.value)


def _instead(q: Any) -> str:
    """What to write for a quote whose filter got no number (`number_of`)."""
    if isinstance(q, Quantity) and isinstance(q.value, str):
        return f"a text prints as it is: write {{{{ {q.path} }}}}, without a filter"
    if isinstance(q, Node) and not isinstance(q, Quantity):
        v = q.value
        if isinstance(v, list) and v:
            return (f"quote one of its {len(v)} numbers, {q.path}[0] to "
                    f"{q.path}[{len(v) - 1}]")
        if isinstance(v, dict) and v:
            keys = sorted(v)
            shown = ", ".join(f"{q.path}.{k}" for k in keys[:6]) + (", …" if len(keys) > 6
                                                                   else "")
            return f"quote one of its results: {shown}"
    if isinstance(q, str) and PRIVATE_USE_RE.search(q):
        return ("a format filter takes a result, once: write {{ group.name | pct(1) }}; "
                "claim() takes no filter")
    return "numbers are looked up, never typed"


def describe(q: Any) -> str:
    """How a message names what a filter was given."""
    if isinstance(q, Quantity):
        return f"'{q.path}' = {q.value!r}"
    if isinstance(q, Node):
        return f"'{q.path}', a group of results"
    if isinstance(q, str) and PRIVATE_USE_RE.search(q):     # a filter's output (its marker)
        return "what another filter or claim() already made"
    return repr(q)
