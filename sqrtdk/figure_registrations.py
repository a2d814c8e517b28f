"""The figures as their modules register them, read without importing them: each
`@figure(name, needs=…, labels=…)` line parsed with `ast`, so a text edit checks the labels and
the figures' tables without importing numpy or matplotlib (sqrtdk/early.py, web/fig_tables.py).
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from .cache import Cache, key_for
from .options import PACKAGE_DIR
from .results_paths import check_needs, needs_declared


@dataclass(frozen=True)
class ParsedRegistration:
    """A figure as its `@figure(name, needs=…, labels=…)` line registers it (no drawer)."""

    name: str
    needs: tuple[str, ...]
    labels: dict[str, tuple[str, ...]]


def registered_figures(cache: Cache, folder: Path = PACKAGE_DIR / "figures"
                       ) -> dict[str, ParsedRegistration] | None:
    """Every figure the modules of `folder` register, in the order `figures.load()` registers
    them, read with `ast` (nothing imported; kept in `cache` by the modules' bytes). None when
    a registration is not a top-level `@figure(…)` decorator with literal arguments, or a
    module does not parse: then only importing the modules can tell."""
    if any(p.is_dir() and (p / "__init__.py").is_file() for p in folder.iterdir()):
        return None     # a sub-package registers figures too: only importing it can tell
    sources = {path: path.read_bytes() for path in sorted(folder.glob("*.py"))}
    key = key_for("registry", *(part for p, data in sources.items() for part in (p.name, data)))
    if key in _PARSED and _needs_declared(_PARSED[key]):   # a warm process (--serve) reads
        return _PARSED[key]                                 # the same modules again
    kept = cache.get_object("registry", key)
    if isinstance(kept, dict) and _needs_declared(kept):
        found: dict[str, ParsedRegistration] | None = kept
    else:                       # parsed again: a need no longer declared names its @figure line
        found = _parse_registrations(sources)
        if found is not None:
            cache.put_object("registry", key, found)
    _PARSED.clear()             # only the modules as they are now
    _PARSED[key] = found
    return found


_PARSED: dict[str, dict[str, ParsedRegistration] | None] = {}   # this process: by the bytes


def _needs_declared(found: dict[str, ParsedRegistration] | None) -> bool:
    """Whether every need of the registrations `found` is declared (results schema)."""
    return found is None or all(needs_declared(r.needs) for r in found.values())


def _parse_registrations(sources: dict[Path, bytes]) -> dict[str, ParsedRegistration] | None:
    found: dict[str, ParsedRegistration] = {}
    for path, source in sources.items():
        try:
            tree = ast.parse(source, str(path))
        except (SyntaxError, ValueError):
            return None
        decorators = [d for node in tree.body if isinstance(node, ast.FunctionDef)
                      for d in node.decorator_list]
        calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)
                 and isinstance(n.func, ast.Name) and n.func.id == "figure"]
        if path.name.startswith("_"):
            if calls:
                return None
            continue
        if any(c not in decorators for c in calls) or any(
                isinstance(n, ast.Name) and n.id == "FIGURES" for n in ast.walk(tree)):
            return None
        for call in sorted(calls, key=lambda c: c.lineno):
            spec = _literal_registration(call)
            if spec is None or spec.name in found:
                return None
            check_needs(spec.name, spec.needs, path, call.lineno)
            found[spec.name] = spec
    return found


def _literal_registration(call: ast.Call) -> ParsedRegistration | None:
    names = ("name", "needs", "labels")
    given = dict(zip(names, call.args)) | {k.arg: k.value for k in call.keywords if k.arg}
    try:
        values = {k: ast.literal_eval(given[k]) for k in names}
    except (KeyError, ValueError, TypeError, SyntaxError):
        return None
    name, needs, labels = values["name"], values["needs"], values["labels"]
    if not isinstance(name, str) or not isinstance(labels, dict):
        return None
    return ParsedRegistration(name, tuple(needs), {str(k): tuple(v) for k, v in labels.items()})


def registration_line(name: str, folder: Path = PACKAGE_DIR / "figures") -> tuple[Path, int]:
    """The module of `folder` and the line of its `@figure(name, …)` call (read with `ast`,
    nothing imported); (the folder, 0) where no such literal call is found."""
    for path in sorted(folder.glob("*.py")):
        try:
            tree = ast.parse(path.read_bytes(), str(path))
        except (SyntaxError, ValueError):
            continue
        for n in ast.walk(tree):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "figure" \
                    and n.args and isinstance(n.args[0], ast.Constant) and n.args[0].value == name:
                return path, n.lineno
    return folder, 0


def string_constants(path: Path, name: str) -> set[str]:
    """The string literals of module `path` outside its `@figure(name, …)` call (the label
    names its drawing asks `t` for, among others); empty when the module does not parse."""
    try:
        tree = ast.parse(path.read_bytes(), str(path))
    except (SyntaxError, ValueError):
        return set()
    skip = {id(c) for n in ast.walk(tree) if isinstance(n, ast.Call)
            and isinstance(n.func, ast.Name) and n.func.id == "figure" and n.args
            and isinstance(n.args[0], ast.Constant) and n.args[0].value == name
            for c in ast.walk(n)}
    return {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)
            and isinstance(n.value, str) and id(n) not in skip}
