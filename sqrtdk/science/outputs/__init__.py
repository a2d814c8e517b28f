"""The results schema: every path of results.json, declared once beside the code that computes it.

Each module of sqrtdk/science/ that builds results sections has a data-only twin of the same
name in this folder (outputs/spread.py for spread.py) holding one literal
`RESULTS = {section: {path inside it: (unit, shape, what it is)}}`; outputs/run.py declares
`claims` and `meta`; outputs/sweep.py `sweep` (figures/sweep.json, from sqrtdk/sweep.py).
This module reads those literals with `ast`, importing neither the experiments nor numpy, so
the light path of a text edit can read the schema too. Everything that names a result path is
checked against it: the experiments' results once they ran and the sweep it writes or reads
(`Schema.problems`), figures' `needs`, the page's embedded slice and the script's lookups
(`Schema.unknown`), and a results.json read from disk before the pages are checked against it.

The declarations are kept out of the experiment modules so that an edit to one (a unit, a
description) neither reruns an experiment nor makes a claim's sweep entry stale: both are
keyed on the experiment modules' own code (sqrtdk/sweep.py).

Paths: `{ruler}` in a declared path stands for each of `grid.RULERS`; a `*` segment for any
key (a table by name, e.g. one entry per claim). Shapes: `""` is one value (a number, a
string or a flag); each `[n]` is a list level (`n` a number: exactly that long; a name: of
one length wherever the section uses that name); `{name}` a table of values by name. Units
say what a number counts: `""` a pure number (a ratio, a slope), `count`, `dimension` (a d),
`score` (the scale of q·k), `share` (0 to 1), `bits`, `scale`, `gradient` (‖∂L/∂q‖), `text`.
"""
from __future__ import annotations

import ast
import difflib
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..grid import RULERS

OUTPUTS_DIR = Path(__file__).resolve().parent
DECLARATION = "RESULTS"
PLACEHOLDERS: dict[str, tuple[str, ...]] = {"ruler": RULERS}
_SHAPE = re.compile(r"\[([\w+-]+)\]|\{(\w+)\}")
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


class DeclarationError(Exception):
    """A RESULTS literal this module cannot read: not a literal, or an entry not in the form
    (unit, shape, description). `path`/`line` say where (a bug in our code, not the content's)."""

    def __init__(self, path: Path, line: int, message: str):
        super().__init__(f"{path.parent.name}/{path.name}:{line}: {message}")
        self.path, self.line = path, line


@dataclass(frozen=True)
class Output:
    """One declared result: its dotted path (may hold `*`), unit, shape (see the module
    docstring), what it is, and the file and line that declare it."""

    path: str
    unit: str
    shape: str
    description: str
    file: Path
    line: int

    @property
    def dims(self) -> list[tuple[str, str]]:
        """The shape's levels, outermost first: ("[", name) for a list, ("{", name) a table."""
        return [("[", m.group(1)) if m.group(1) else ("{", m.group(2))
                for m in _SHAPE.finditer(self.shape)]


_LEAF = ""      # the key of a declared result in the tree of segments (no segment is empty)


class Schema:
    """Every declared result path (placeholders expanded), with lookups and checks."""

    def __init__(self, outputs: Iterable[Output]):
        self.outputs: dict[str, Output] = {}
        self._tree: dict[str, Any] = {}       # segment -> subtree; _LEAF -> the Output
        for out in outputs:
            if out.path in self.outputs:
                first = self.outputs[out.path]
                raise DeclarationError(out.file, out.line, f"'{out.path}' is declared again "
                                       f"(first at {first.file.name}:{first.line})")
            self.outputs[out.path] = out
            node = self._tree
            for part in out.path.split("."):
                node = node.setdefault(part, {})
            node[_LEAF] = out
        self.sections = sorted({p.split(".", 1)[0] for p in self.outputs})

    def names(self) -> list[str]:
        """Every declared path and every group above one (what "did you mean" offers)."""
        groups = {".".join(p.split(".")[:i]) for p in self.outputs
                  for i in range(1, p.count(".") + 1)}
        return sorted(groups | set(self.outputs))

    def _walk(self, parts: list[str]) -> tuple[dict[str, Any] | None, int]:
        """The subtree at `parts` (a `*` matching any segment) and how many segments led
        there; it stops at a declared result (whose subtree has _LEAF) or where none goes on."""
        node = self._tree
        for i, part in enumerate(parts):
            if _LEAF in node:
                return node, i
            child = node.get(part, node.get("*"))
            if child is None:
                return None, i
            node = child
        return node, len(parts)

    def find(self, path: str | list[str]) -> tuple[Output, list[str]] | None:
        """The declared result `path` (dotted, or its segments) is, or lies inside (with the
        indices or keys below it), or None."""
        parts = path.split(".") if isinstance(path, str) else path
        node, used = self._walk(parts)
        if node is None or _LEAF not in node:
            return None
        return node[_LEAF], parts[used:]

    def is_group(self, path: str | list[str]) -> bool:
        """Whether `path` (dotted, or its segments) names a group of declared results (a
        section, or a table in one)."""
        parts = path.split(".") if isinstance(path, str) else path
        node, used = self._walk(parts)
        return node is not None and used == len(parts) and _LEAF not in node

    def unknown(self, path: str) -> str | None:
        """None when `path` is a declared result, a group of them, or an element inside one
        (as many indices as its shape has levels); else what is wrong, with "did you mean"."""
        if self.is_group(path):
            return None
        found = self.find(path)
        if found is None:
            return f"no result '{path}' is declared; " + _suggest(path, self.names())
        out, rest = found
        dims = out.dims
        if len(rest) > len(dims):
            return (f"'{out.path}' has shape '{out.shape or 'one value'}', so '{path}' goes "
                    f"{len(rest) - len(dims)} level(s) too deep")
        for (kind, _), key in zip(dims, rest):
            if kind == "[" and not key.isdigit():
                return f"'{out.path}' is a list: '{key}' in '{path}' must be an index"
        return None

    def problems(self, results: Mapping[str, Any], sections: Iterable[str] | None = None
                 ) -> list[str]:
        """What in `results` differs from the declaration (of `sections`, default all):
        undeclared and missing paths, and values whose shape is not the declared one, each
        as one sentence."""
        return [text for text, _ in self.located_problems(results, sections)]

    def _expected(self, section: str, seen: set[tuple[str, ...]]
                  ) -> Iterator[tuple[tuple[str, ...], Output]]:
        """Every path section `section` must hold: its declared paths, a `*` segment once
        for each key found there (every claim has each of a claim's fields)."""
        keys: dict[tuple[str, ...], set[str]] = {}     # the keys found under each `*`
        for path, out in self.outputs.items():
            if not path.startswith(section + "."):
                continue
            declared = tuple(path.split("."))
            if "*" not in declared:
                yield declared, out
                continue
            k = declared.index("*")
            if declared[:k] not in keys:
                keys[declared[:k]] = {p[k] for p in seen if len(p) > k and p[:k] == declared[:k]}
            for key in sorted(keys[declared[:k]]):
                yield (*declared[:k], key, *declared[k + 1:]), out

    def located_problems(self, results: Mapping[str, Any], sections: Iterable[str] | None
                         = None) -> list[tuple[str, Output | None]]:
        """`problems`, each with the declaration it is about (None for an undeclared path)."""
        wanted = self.sections if sections is None else list(sections)
        found: list[tuple[str, Output | None]] = []
        for name in wanted:
            if name not in results:
                found.append((f"'{name}' is missing", None))
                continue
            sizes: dict[str, int] = {}
            seen: set[tuple[str, ...]] = set()
            for parts, value in _leaves(results[name], [name], self):
                out = self.find(parts)
                if out is None or out[1]:
                    found.append((f"'{'.'.join(parts)}' is not declared", None))
                    continue
                seen.add(tuple(parts))
                shared = sizes if "*" not in out[0].path else {}   # one size per table entry
                if (bad := _shape_problem(value, out[0], shared)) is not None:
                    found.append((f"'{'.'.join(parts)}' {bad}", out[0]))
            found += [(f"'{'.'.join(p)}' is missing", o) for p, o in self._expected(name, seen)
                      if p not in seen]
        return found


def _leaves(value: Any, parts: list[str], schema: Schema
            ) -> Iterator[tuple[list[str], Any]]:
    """(path segments, value) of every declared result in `value`, descending through tables
    the schema declares as groups; an undeclared key is yielded where it is (so it is
    reported)."""
    if isinstance(value, Mapping) and schema.is_group(parts):
        for key, child in value.items():
            yield from _leaves(child, [*parts, str(key)], schema)
    else:
        yield parts, value


def _shape_problem(value: Any, out: Output, sizes: dict[str, int]) -> str | None:
    """What is wrong with `value`'s shape for `out`, or None. `sizes` keeps each named
    list level's length across one section (across one entry of a `*` table)."""
    level: list[Any] = [value]
    for kind, name in out.dims:
        want = list if kind == "[" else dict
        if not all(isinstance(v, want) for v in level):
            return f"is not {'a list' if want is list else 'a table'} where '{out.shape}' says so"
        if kind == "[":
            if not level:       # an empty list further up: no list at this level to measure
                return None
            lengths = {len(v) for v in level}
            expected = int(name) if name.isdigit() else sizes.setdefault(name, min(lengths))
            if lengths != {expected}:
                return f"has lists of length {sorted(lengths)} at [{name}], not {expected}"
            level = [x for v in level for x in v]
        else:
            level = [x for v in level for x in v.values()]
    if any(isinstance(v, (list, dict)) for v in level):
        return f"holds more levels than its shape '{out.shape or 'one value'}'"
    return None


def _suggest(path: str, names: list[str]) -> str:
    close = difflib.get_close_matches(path, names, n=3, cutoff=0.6)
    if close:
        return "did you mean " + " or ".join(f"'{c}'" for c in close) + "?"
    return "the declared results are in RESULTS of sqrtdk/science/outputs/"


def read_declarations(path: Path, source: bytes) -> list[Output]:
    """The outputs the module at `path` declares in its top-level RESULTS literal (none when
    it has no RESULTS). Raises DeclarationError for a RESULTS that is not in the form."""
    tree = ast.parse(source, str(path))
    for node in tree.body:
        if not isinstance(node, (ast.Assign, ast.AnnAssign)):
            continue
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        if any(isinstance(t, ast.Name) and t.id == DECLARATION for t in targets):
            value = node.value
            if not isinstance(value, ast.Dict):
                raise DeclarationError(path, node.lineno, f"{DECLARATION} must be a dict literal")
            return list(_section_outputs(path, value))
    return []


def _section_outputs(path: Path, table: ast.Dict) -> Iterator[Output]:
    for key, entries in zip(table.keys, table.values):
        section = _literal(path, key, str)
        if not isinstance(entries, ast.Dict):
            raise DeclarationError(path, entries.lineno, f"section '{section}' must be a dict")
        for sub, entry in zip(entries.keys, entries.values):
            name = _literal(path, sub, str)
            spec = _literal(path, entry, tuple)
            if len(spec) != 3 or not all(isinstance(s, str) for s in spec):
                raise DeclarationError(path, entry.lineno, f"'{section}.{name}' must be "
                                       "(unit, shape, description), three strings")
            for full in _expand(f"{section}.{name}", path, entry.lineno):
                yield Output(full, spec[0], spec[1], spec[2], path, entry.lineno)


def _literal(path: Path, node: ast.expr | None, kind: type) -> Any:
    try:
        value = ast.literal_eval(node) if node is not None else None
    except ValueError:
        value = None
    if not isinstance(value, kind):
        raise DeclarationError(path, getattr(node, "lineno", 0),
                               f"expected a literal {kind.__name__} in {DECLARATION}")
    return value


def _expand(path: str, file: Path, line: int) -> list[str]:
    match = _PLACEHOLDER.search(path)
    if match is None:
        return [path]
    if match.group(1) not in PLACEHOLDERS:
        raise DeclarationError(file, line, f"unknown placeholder {{{match.group(1)}}} in "
                               f"'{path}' (known: {', '.join(PLACEHOLDERS)})")
    return [p for value in PLACEHOLDERS[match.group(1)]
            for p in _expand(path[:match.start()] + value + path[match.end():], file, line)]


_CACHE: dict[tuple[tuple[str, int, int], ...], Schema] = {}


def declared(folder: Path = OUTPUTS_DIR) -> Schema:
    """The schema the declaration modules of `folder` declare (kept in memory while their
    names, sizes and times stay). Raises DeclarationError for a RESULTS not in the form."""
    files = [p for p in sorted(folder.glob("*.py")) if p.name != "__init__.py"]
    key = tuple((p.name, st.st_size, st.st_mtime_ns) for p in files for st in [p.stat()])
    if key not in _CACHE:
        _CACHE.clear()
        _CACHE[key] = Schema(out for p in files for out in read_declarations(p, p.read_bytes()))
    return _CACHE[key]
