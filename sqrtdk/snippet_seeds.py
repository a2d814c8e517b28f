"""A reproduce box's snippet that draws random numbers must take the build's seed.

The build puts its seed on a snippet's `SEED = …` line and runs that text
(science/reproduce.py), so the printout the page quotes is the same at every build of one
seed. A snippet that draws random numbers with no such line, or never passes SEED to its
generator, or makes a generator with no seed, prints other numbers at each build (the page,
results.json and the claims on the printout would change with no edit), or the same numbers
whatever --seed says (the sweep of a claim on its printout would see one value). Read from each
snippet's source (Python's own `ast`), before the experiments run; each mistake is a
BuildError at its line, as a snippet that raises is (science_stage.placed_error).
"""
from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from pathlib import Path

from .errors import BuildError, Mistakes, display_path, suggest

# the names through which a snippet reaches a random generator: numpy's `np.random…`,
# `default_rng`, `RandomState`, and Python's `random` module
_RANDOM_NAMES = frozenset({"random", "default_rng", "RandomState"})
# the calls that make or seed a generator: with no argument, they take a seed from the OS
# (numpy's bit generators and SeedSequence too, and Python's `random.Random`)
_SEEDING = frozenset({"default_rng", "RandomState", "seed", "SeedSequence", "PCG64",
                      "PCG64DXSM", "MT19937", "Philox", "SFC64", "Random"})
# what `np.random.…` (or Python's `random.…`) names besides draws: generators, their parts
# and seeding
_MAKERS = frozenset({"default_rng", "RandomState", "Generator", "SeedSequence", "PCG64",
                     "PCG64DXSM", "MT19937", "Philox", "SFC64", "BitGenerator", "seed",
                     "get_state", "set_state", "Random", "getstate", "setstate"})
_ADVICE = "rng = np.random.default_rng(SEED)"


def check_snippet_seeds(paths: Iterable[Path]) -> None:
    """Raise BuildError (every mistake of every snippet at `paths`, together: errors.Mistakes)
    for a snippet that draws random numbers without the build's seed; see the module's
    docstring. A snippet that does not parse is left to its run, which tells the line; one
    whose file is not there (a misspelt name in its registration stopped the build with a
    FileNotFoundError traceback) is told at its line of reproduce_boxes.py."""
    from .science.reproduce import with_seed
    mistakes = Mistakes()
    for path in paths:
        if not path.is_file():
            mistakes.add(BuildError(*_registration(path), f"the snippet file {path.name} is not "
                                    f"in {display_path(path.parent)}; "
                                    + suggest(path.name, sorted(p.name for p in
                                                                path.parent.glob("*.py")),
                                              "snippets")))
            continue
        code = path.read_text(encoding="utf-8")
        try:
            tree = ast.parse(code, str(path))
        except SyntaxError:
            continue
        seeded = with_seed(code, 1) != with_seed(code, 2)    # it has a `SEED = …` line
        for line, message in _mistakes(tree, seeded):
            mistakes.add(BuildError(path, line, message))
    mistakes.raise_any()


def check_snippet_sources(snippets: Iterable[tuple[Path, str]]) -> None:
    """Raise BuildError (every mistake together) for a snippet, given as (its file, its
    `source`), whose box would link to an experiment module the site does not publish (a
    misspelt `source` of its Snippet): at its line of reproduce_boxes.py, with "did you
    mean". Without it the build stopped only once pages were written, at a broken link."""
    from .site_stage import experiment_sources
    published = sorted(experiment_sources())
    mistakes = Mistakes()
    for path, source in snippets:
        if source and source not in published:
            mistakes.add(BuildError(*_registration(path), f"snippet {path.name} links to the "
                                    f"full source of '{source}', which is not an experiment "
                                    "module the site publishes; "
                                    + suggest(source, published, "experiment modules")))
    mistakes.raise_any()


def _registration(path: Path) -> tuple[Path, int]:
    """Where the snippet at `path` is registered: the line of reproduce_boxes.py naming its
    file (line 1 of that file when none does)."""
    from .options import PACKAGE_DIR
    boxes = PACKAGE_DIR / "science" / "reproduce_boxes.py"
    lines = boxes.read_text(encoding="utf-8").splitlines() if boxes.is_file() else []
    return boxes, next((i for i, line in enumerate(lines, 1) if f'"{path.name}"' in line), 1)


def _mistakes(tree: ast.Module, seeded: bool) -> Iterator[tuple[int, str]]:
    """(line, message) of each seed mistake of one snippet's `tree`; `seeded`: whether the
    build finds its `SEED = …` line."""
    nodes = list(ast.walk(tree))
    modules, imported = _random_imports(nodes)

    def _shared(func: ast.expr) -> bool:
        if isinstance(func, ast.Attribute):
            return func.attr not in _MAKERS and (_name(func.value) == "random"
                                                 or _name(func.value) in modules)
        return isinstance(func, ast.Name) and imported.get(func.id, "") not in ("", *_MAKERS)
    draws = sorted(getattr(n, "lineno", 1) for n in nodes if _random(n, modules))
    if not draws:
        return
    calls = sorted((n.lineno, ast.unparse(n.func)) for n in nodes if isinstance(n, ast.Call)
                   and _name(n.func) in _SEEDING and _no_seed(n))
    unseeded = [line for line, _ in calls]
    add = "" if seeded else "a line 'SEED = 1' before it and "
    for line, call in calls:
        # the call itself with the seed (`random.Random(SEED)`, `np.random.PCG64(SEED)`)
        yield line, ("a random generator made (or seeded) with no seed draws other numbers at "
                     f"every build, and the page quotes them; pass the build's seed: {add}"
                     f"'{call}(SEED)', as in '{_ADVICE}'")
    # draws from numpy's or Python's shared generator (`np.random.standard_normal(…)`,
    # `random.random()`, `npr.normal(…)` after `import numpy.random as npr`, `normal(…)`
    # after `from numpy.random import normal`) that no `np.random.seed(…)` /
    # `random.seed(…)` seeds
    shared = sorted(n.lineno for n in nodes if isinstance(n, ast.Call) and _shared(n.func))
    if shared and not any(isinstance(n, ast.Call) and _name(n.func) == "seed" and n.args
                          for n in nodes):
        yield shared[0], ("a draw from the shared random generator, which nothing seeds with "
                          "the build's seed: its printout would differ at every build; make "
                          f"a generator of the snippet's own, {add}'{_ADVICE}', and draw "
                          "from it (rng.standard_normal(…), rng.random(…))")
        return
    if not seeded:
        written = sorted(n.lineno for n in nodes if isinstance(n, (ast.Assign, ast.AnnAssign))
                         and any(isinstance(t, ast.Name) and t.id == "SEED"
                                 for t in (n.targets if isinstance(n, ast.Assign)
                                           else [n.target])))
        if written:
            yield written[0], ("the build puts its seed only on a line written 'SEED = "
                               "<digits>' (no type, no expression), and this one is not: "
                               "each build would run the snippet with this seed, not its own; "
                               "write it 'SEED = 1'")
        elif not unseeded:
            yield draws[0], ("the snippet draws random numbers and has no 'SEED = …' line, "
                             "where the build puts its seed: unseeded, its printout differs "
                             "at every build; seeded by a number of its own, it ignores "
                             "--seed (and the sweep of a claim on it sees one value); add "
                             f"'SEED = 1' before its first draw and seed its generator with "
                             f"it, '{_ADVICE}'")
        return
    if not any(isinstance(n, ast.Name) and n.id == "SEED" and isinstance(n.ctx, ast.Load)
               for n in nodes) and not unseeded:
        line = next((n.lineno for n in nodes if isinstance(n, ast.Assign)
                     and any(isinstance(t, ast.Name) and t.id == "SEED" for t in n.targets)),
                    draws[0])
        yield line, ("SEED is never used: the snippet's random numbers do not come from the "
                     "build's seed (unseeded, they differ at every build; seeded by a number "
                     "of its own, they ignore --seed); seed its generator with it, "
                     f"'{_ADVICE}'")


def _no_seed(call: ast.Call) -> bool:
    """Whether a call that makes or seeds a generator passes no seed: no argument, or only
    None (`default_rng(None)`, `seed=None`: a seed from the OS)."""
    given = [*call.args, *(k.value for k in call.keywords)]
    return all(isinstance(a, ast.Constant) and a.value is None for a in given)


def _random_imports(nodes: list[ast.AST]) -> tuple[set[str], dict[str, str]]:
    """The names a snippet binds to a random module (`random` of `import random`, `npr` of
    `import numpy.random as npr`, `nr` of `from numpy import random as nr`), and those it
    binds to a name imported from one (`normal` of `from numpy.random import normal`: its
    name in the module)."""
    modules: set[str] = set()
    imported: dict[str, str] = {}
    for node in nodes:
        if isinstance(node, ast.Import):
            modules.update(a.asname for a in node.names
                           if a.asname and a.name.split(".")[-1] == "random")
            modules.update(a.name for a in node.names if a.name == "random")
        elif isinstance(node, ast.ImportFrom):
            if (node.module or "").split(".")[-1] == "random":
                imported.update((a.asname or a.name, a.name) for a in node.names)
            else:
                modules.update(a.asname or a.name for a in node.names if a.name == "random")
    return modules, imported


def _random(node: ast.AST, modules: set[str]) -> bool:
    """Whether `node` reaches a random generator (`np.random.…`, `default_rng`, `import
    random`, `from numpy import random`); `modules`: the names bound to a random module
    (`_random_imports`), as a bare name `random` that the snippet assigns is none."""
    if isinstance(node, ast.Import):
        return any(a.name.split(".")[-1] == "random" for a in node.names)
    if isinstance(node, ast.ImportFrom):
        return (node.module or "").split(".")[-1] == "random" or \
            any(a.name in _RANDOM_NAMES for a in node.names)
    if isinstance(node, ast.Name) and node.id == "random":
        return node.id in modules
    return _name(node) in _RANDOM_NAMES


def _name(node: ast.AST) -> str:
    """The name a Name or an Attribute ends with ('' for another node)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""
