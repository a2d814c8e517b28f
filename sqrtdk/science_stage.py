"""The science stage: results.json for one seed, from the cache or by running the experiments
in worker processes, each experiment cached on its own code (only those whose code changed
run). It produces `ScienceResults`; the keys of its cache units are made here (`science_key`,
`experiment_code`), and `--sweep` (sqrtdk/sweep.py) reads the same entries.
"""
from __future__ import annotations

import contextlib
import functools
import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .cache import Cache, closure_digest, key_for, tree_digest, write_if_changed
from .errors import BuildError, raised_words
from .options import PACKAGE_DIR, BuildOptions
from .science.warned import ScienceWarningError, error_at, warned_at

if TYPE_CHECKING:
    from .science.registry import Experiment, Section

RESULTS_FORMAT = "signed-1"   # results.json carries its digest (science.results.DIGEST)
SCIENCE_PACKAGES = ("numpy",)  # what the experiments compute with


@dataclass
class ScienceResults:
    """What the science stage produces: results.json's bytes as written, the results they
    hold (without the file's own digest), and whether they came from the cache."""

    data: bytes
    values: dict[str, Any]
    cached: bool


def science_key(seed: int) -> str:
    """The cache key of one seed's whole results.json: every module of sqrtdk/science/ (which
    imports nothing else of the package; a test checks), numpy's version and the seed."""
    return key_for("results", tree_digest(PACKAGE_DIR / "science"), str(seed), RESULTS_FORMAT,
                   packages=SCIENCE_PACKAGES)


def experiment_code(exp: Experiment, seed: int) -> str:
    """The key of one experiment's assembled output for `seed`: the import closure of the
    modules holding its jobs and its assembly, the files its jobs are given (a snippet it
    runs), numpy's version and the seed. Another experiment's module is not in it."""
    jobs = listed_jobs(exp, seed)
    files = sorted({a for job in jobs for a in job.args if isinstance(a, Path)})
    return key_for("experiments", closure_digest(exp.jobs.__module__, exp.assemble.__module__),
                   files, repr([(str(j.key), j.fn.__module__, j.fn.__qualname__) for j in jobs]),
                   str(seed), packages=SCIENCE_PACKAGES)


def listed_jobs(exp: Experiment, seed: int) -> list[Any]:
    """`exp.jobs(exp.params, seed)`, checked before any runs: a list of science.registry.Job
    with distinct keys, each function given arguments it takes, both able to reach a worker
    process (pickled: a module-level function, not a lambda or one defined inside another).
    Anything else (None, a tuple of parts for a Job, a lambda) stopped the build with the
    traceback of the cache's key or of the pool: it raises ScienceWarningError at the line
    of the experiment's `jobs` function, saying what to return. One still running after
    slow.SLOW_S seconds is named at its line on stderr (watching)."""
    import inspect
    import pickle

    from .science.registry import Job
    from .science.warned import error_at
    what = f"the jobs of experiment '{exp.name}'"
    with watching(exp.jobs, what):
        jobs = exp.jobs(exp.params, seed)
    if not isinstance(jobs, (list, tuple)):
        raise error_at(exp.jobs, f"{what} are {type(jobs).__name__} {_short(jobs)}, not a "
                       "list; return a list of Job(key, function, args)")
    for job in jobs:
        if not isinstance(job, Job):
            raise error_at(exp.jobs, f"{what} hold a {type(job).__name__}, not a Job; "
                           "return a list of Job(key, function, args)")
        try:
            inspect.signature(job.fn).bind(*job.args)
        except TypeError as e:
            raise error_at(exp.jobs, f"{what}: job {job.key!r} gives {len(job.args)} "
                           f"argument(s) to {getattr(job.fn, '__name__', 'its function')}"
                           f"{inspect.signature(job.fn)}, which says: {e}; give the Job the "
                           "arguments its function takes") from None
        except ValueError:          # a builtin without a signature: called as it is
            pass
        try:
            hash(job.key)
            pickle.dumps((job.fn, job.args))
        except Exception as e:
            raise error_at(exp.jobs, f"{what}: job {job.key!r} cannot be sent to a worker "
                           f"process ({type(e).__name__}: {e}); give Job a function defined "
                           "at the top of a module (not a lambda, not one defined inside "
                           "another) and a hashable key") from None
    keys = [job.key for job in jobs]
    twice = next((key for key in keys if keys.count(key) > 1), None)
    if twice is not None:
        doubled = _doubled_parameter(exp.params, twice)
        if doubled is not None:
            field, value = doubled
            path, line = _field_line(type(exp.params), field)
            raise ScienceWarningError(path, line, (
                f"{type(exp.params).__name__}.{field} holds {value!r} more than once, so two "
                f"jobs of experiment '{exp.name}' have the key {twice!r}; write each value "
                "once"))
        raise error_at(exp.jobs, f"{what}: two jobs have the key {twice!r}; give each job "
                       "its own key (its output is found by it)")
    return list(jobs)


def _doubled_parameter(params: Any, key: Any) -> tuple[str, Any] | None:
    """(field, value) when a tuple field of the dataclass `params` holds `value` more than
    once and `value` is the job key `key` or one of its parts (a grid d_k = (4, 16, 16)
    gives two jobs (16, 0)), else None."""
    import dataclasses
    if not dataclasses.is_dataclass(params) or isinstance(params, type):
        return None
    parts = key if isinstance(key, tuple) else (key,)
    for f in dataclasses.fields(params):
        values = getattr(params, f.name)
        if isinstance(values, tuple):
            for value in parts:
                try:
                    if values.count(value) > 1:
                        return f.name, value
                except TypeError:       # a value that cannot be compared
                    continue
    return None


def watching(fn: Callable[..., Any], what: str) -> contextlib.AbstractContextManager[None]:
    """science.run.Watch for the author's code the build's own process runs (an
    experiment's `jobs` and assembly, a results section, a claim `what` names, function
    `fn`): one still running after slow.SLOW_S seconds is named at `fn`'s line on stderr,
    with the line of an experiment module it has reached (slow.told_if_slow), as a job in a
    worker is; an endless loop there hung the build with no word."""
    from .slow import told_if_slow
    return told_if_slow(fn, what, author=functools.partial(_in_experiment_code, fn))


def _short(value: Any) -> str:
    text = repr(value)
    return f"({text[:40]}…)" if len(text) > 40 else f"({text})"


class ExperimentCache:
    """science.run.ExperimentStore over the build's cache (unit "experiments")."""

    def __init__(self, cache: Cache) -> None:
        self.cache = cache

    def get(self, exp: Experiment, seed: int) -> tuple[Any] | None:
        """(assembled,) when cached for the experiment's current code, else None."""
        found = self.cache.get_object("experiments", experiment_code(exp, seed))
        return found if isinstance(found, tuple) and len(found) == 1 else None

    def put(self, exp: Experiment, seed: int, assembled: Any) -> None:
        """Cache what the experiment assembled."""
        self.cache.put_object("experiments", experiment_code(exp, seed), (assembled,))


def run_science(opts: BuildOptions, cache: Cache, meanwhile: Callable[[], None] = lambda: None
                ) -> ScienceResults:
    """results.json for opts.seed, from the cache or run (and written to opts.results_file).
    `meanwhile` is called in this process once every job is with the workers (the pipeline
    loads the figures' libraries then). A results.json edited by hand (its digest does not
    match) raises BuildError saying how to restore it, and is not overwritten. A snippet of
    a reproduce box that draws random numbers without the build's seed raises BuildError at
    its line (snippet_seeds), before they run (results cached for the current science code,
    snippets included, were made by snippets that passed). One whose box would link to an
    experiment module the site does not publish (results.json's `reproduce.*.source`) raises
    BuildError at its registration, cached results or not; one whose printout nothing checks
    against the results is a warning there (warn_unchecked_snippets)."""
    # another seed's results live in the cache folder, not in git: simply rewritten
    if opts.cache_dir is None or opts.cache_dir not in opts.results_file.parents:
        from .results_paths import unknown_section
        refuse_edited(opts.results_file, "delete it and run build.py again (the "
                      "experiments recompute it)", unknown_section)
    key = science_key(opts.seed)
    data = cache.get("results", key)
    hit = data is not None
    if data is None:
        from .science import registry
        from .science.registry import SNIPPETS
        from .snippet_seeds import check_snippet_seeds
        registry.load()
        check_snippet_seeds(s.path for s in SNIPPETS)
        data = _run(opts, cache, meanwhile)
        cache.put("results", key, data)
    write_if_changed(opts.results_file, data)
    values = values_of(data)
    check_known_results(values)
    warn_unchecked_snippets(values)
    return ScienceResults(data, values, hit)


def check_known_results(values: Mapping[str, Any]) -> None:
    """What results.json's `values` hold that the author's registrations can still get
    wrong with the results cached (they are the same for a cached or a fresh run): a
    snippet's box linking to an experiment module the site does not publish (BuildError at
    its registration, snippet_seeds.check_snippet_sources). Cheap (no experiment is
    imported), so the pages checked first against known results (pipeline.check_first)
    call it too: without it, a build after one that stopped there told the box's broken
    link first, not the registration."""
    from .snippet_seeds import check_snippet_sources
    check_snippet_sources((Path(s["file"]), s["source"])
                          for s in values.get("reproduce", {}).values())


def values_of(data: bytes) -> dict[str, Any]:
    """The results that results.json's bytes hold, without the file's own digest (no result;
    science.results.DIGEST). Raises ValueError for bytes that are not JSON."""
    from .science.results import DIGEST
    values: dict[str, Any] = json.loads(data)
    values.pop(DIGEST, None)
    return values


def _run(opts: BuildOptions, cache: Cache, meanwhile: Callable[[], None]) -> bytes:
    from .results_paths import check_results
    from .science.results import dumps_signed
    from .science.run import run_all
    from .workers import Pool

    def map_then_wait(fn: Callable[[Any], Any], jobs: Iterable[Any]) -> Iterator[Any]:
        outputs = pool.map(functools.partial(without_warnings, fn), jobs)   # all with workers
        meanwhile()
        return outputs
    from .science.registry import EXPERIMENTS
    check_params(EXPERIMENTS)
    with Pool(opts.jobs) as pool:
        try:
            results = run_all(opts.seed, map_then_wait, ExperimentCache(cache), watching)
        except ScienceWarningError as e:    # an assembly, a section or a claim (here)
            raise JobWarningError(e.path, e.line, e.message) from None
        except (Exception, SystemExit) as e:    # a mistake in an experiment module's own code
            placed = placed_error(e)
            if placed is None:
                raise
            raise placed from None
    check_results(results)               # as sqrtdk/science/outputs/ declares them
    check_bounds(results)
    check_snippets(results)
    return dumps_signed(results).encode("utf-8")


def check_params(experiments: Iterable[Experiment]) -> None:
    """Each field of each experiment's parameters (a dataclass, its `…Params` class) holds a
    value of the type its annotation declares: an int field an int (not a float, not a bool),
    a float field a number, a str field a str, a tuple a tuple of the declared length and
    item types (`tuple[int, ...]`, `tuple[float, float]`). README's "To change a parameter"
    with a float where an int is meant, a string or None ran the experiment until numpy or
    Python refused the value deep in its code, told at that line with "fix the code at this
    line", where nothing is wrong: BuildError at the line of the field's default, saying
    what to write. Annotations it cannot read, or types it does not know, are not judged.

    Then the range a field declares (`registry.valid`: at least 2 batches, a histogram bin
    narrower than the bell), and the limits joining two fields (the class's `invalid()`): a
    value that builds with a wrong description (one batch "ranging from X to X", a one-bin
    histogram under an alt text telling a bell) or fails at a code line (a batch of one
    pair, a zero threshold inside a claim) is told at the field's line, saying why."""
    import dataclasses
    import typing

    from .science.registry import Valid
    for exp in experiments:
        params = exp.params
        if not dataclasses.is_dataclass(params) or isinstance(params, type):
            continue
        cls = type(params)
        try:
            hints = typing.get_type_hints(cls)
        except (NameError, TypeError, AttributeError, SyntaxError):
            hints = {}          # an annotation Python cannot resolve: not judged here
        for f in dataclasses.fields(params):
            value = getattr(params, f.name)
            wrong = _not_of_type(value, hints.get(f.name, Any))
            if wrong is None:
                continue
            path, line = _field_line(cls, f.name)
            raise BuildError(path, line, f"{cls.__name__}.{f.name} of experiment '{exp.name}' "
                             f"is {_short(value)[1:-1]}, {wrong}; write a value of the type "
                             f"the field declares ({_type_name(hints[f.name])})")
        for f in dataclasses.fields(params):
            rule = f.metadata.get("valid")
            if not isinstance(rule, Valid):
                continue
            value = getattr(params, f.name)
            wrong = rule.broken(value)
            if wrong is not None:
                path, line = _field_line(cls, f.name)
                # the field's default is the value refused when the author edited it there
                # (README's recipe): offered as the value to write back only when it differs
                default = "" if f.default == value else \
                    f" (the field's default is {_short(f.default)[1:-1]})"
                raise BuildError(path, line, f"{cls.__name__}.{f.name} of experiment "
                                 f"'{exp.name}' is {_short(value)[1:-1]}, {wrong}: "
                                 f"{rule.why}; write {rule.wanted()}{default}")
        joined = getattr(params, "invalid", None)
        for name, wrong in (joined() if callable(joined) else ()):
            path, line = _field_line(cls, name)
            raise BuildError(path, line, f"{cls.__name__}.{name} of experiment '{exp.name}' "
                             f"is {_short(getattr(params, name))[1:-1]}, {wrong}")


def _not_of_type(value: Any, hint: Any) -> str | None:
    """Why `value` is not of the type `hint` (int, float, str, bool, a tuple of them, a
    union), or None when it is, or when `hint` is a type this check does not know."""
    import types
    import typing
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        reasons = [_not_of_type(value, arm) for arm in args]
        return None if None in reasons else f"none of {_type_name(hint)}"
    if hint is type(None):
        return None if value is None else f"a {type(value).__name__}, not None"
    if hint in (int, float, str, bool):
        ok = isinstance(value, bool) if hint is bool else (
            not isinstance(value, bool) and isinstance(value, (int, float) if hint is float
                                                        else hint))
        if ok:
            return None
        said = "None" if value is None else f"a {type(value).__name__}"
        meant = {int: "an int", float: "a number", str: "a str", bool: "a bool"}[hint]
        if hint is int and isinstance(value, float) and value.is_integer():
            return f"{said} where {meant} is meant (write {int(value)})"
        if type(value).__module__ == "numpy" and hint in (int, float):
            # a grid computed with numpy (tuple(2 ** np.arange(2, 11))) holds numpy's
            # scalars, which are no Python int; converted, they are the values meant
            kind = hint.__name__
            return (f"numpy's {type(value).__name__} where {meant} is meant (convert it: "
                    f"{kind}(x); a grid: tuple({kind}(x) for x in …))")
        return f"{said} where {meant} is meant"
    if origin is tuple:
        if not isinstance(value, tuple):
            said = "None" if value is None else f"a {type(value).__name__}"
            return f"{said}, not a tuple (write it in parentheses: (1, 2) or (1,))"
        # bare typing.Tuple: any tuple (its args, (), are those of tuple[()] too)
        if hint is typing.Tuple:  # noqa: UP006 (the annotation an author writes, not ours)
            return None
        items = list(args[:1]) * len(value) if len(args) == 2 and args[1] is Ellipsis else \
            list(args)
        if len(items) != len(value) and args != ((),):
            return f"a tuple of {len(value)} item(s) where the field has {len(items)}"
        for i, (item, arm) in enumerate(zip(value, items)):
            why = _not_of_type(item, arm)
            if why is not None:
                return f"whose item {i} ({item!r}) is {why}"
    return None


def _type_name(hint: Any) -> str:
    """`hint` as it is written in the source (int, tuple[int, ...])."""
    import typing
    plain = isinstance(hint, type) and not typing.get_args(hint)
    return hint.__name__ if plain else str(hint).replace("typing.", "")


def _field_line(cls: type, name: str) -> tuple[Path, int]:
    """The file of `cls` and the line of its field `name` (the class's line when no class
    of that name in the file writes the field: an inherited one), read with Python's own
    parser."""
    import ast
    import inspect
    path = Path(inspect.getsourcefile(cls) or "")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == cls.__name__:
            for item in node.body:
                if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name) \
                        and item.target.id == name:
                    return path, item.lineno
    return path, inspect.getsourcelines(cls)[1]


def without_warnings(fn: Callable[[Any], Any], job: Any) -> Any:
    """`fn(job)` for a science.registry.Job (in a worker). A warning while it runs (numpy's
    RuntimeWarning for an overflow or a division by zero: an inf or nan in the results) is
    not printed raw: it is a BuildError at the line of the job's function, naming the job
    and where the warning came from (science.warned.warned_at). A job that draws from
    numpy's or Python's shared generator (its numbers would change from build to build,
    seen only by --check) is an error at the line of its function; one that makes a generator
    without a seed or writes a file (side_effects.refused) is an error at the line that did
    it. A job still running after
    slow.SLOW_S seconds is named at its function's line on stderr (slow.told_if_slow)."""
    import inspect

    from .side_effects import SideEffectError, refused, shared_generators
    from .slow import told_if_slow
    name = inspect.unwrap(job.fn).__name__
    try:
        before = shared_generators()
        # a SideEffectError is told below, at its line (also one the job's code caught)
        author = functools.partial(_in_experiment_code, job.fn)
        with told_if_slow(job.fn, f"job {job.key!r} of '{name}'", author=author), \
                refused(author) as done, \
                contextlib.suppress(SideEffectError):
            output = warned_at(job.fn, f"job {job.key!r} of '{name}'", lambda: fn(job))
        if done:
            raise _side_effect_error(job.fn, f"job {job.key!r} of '{name}'", done[0])
        if shared_generators() != before:
            from .science.warned import error_at
            raise error_at(job.fn, f"job {job.key!r} of '{name}' draws from a shared random "
                           "generator (numpy's np.random.… functions or Python's random "
                           "module), whose numbers depend on what ran before it in the "
                           "worker, not on the seed: the results would differ from build to "
                           "build; draw from the job's own stream, rng = stream(seed, name)")
        _check_sendable(job, name, output)
        return output
    except ScienceWarningError as e:
        raise JobWarningError(e.path, e.line, e.message) from None
    except (Exception, SystemExit) as e:    # sys.exit() too: it would end the build silently
        placed = placed_error(e)
        if placed is None:
            raise
        raise placed from None


def _in_experiment_code(fn: Callable[..., Any], filename: str) -> bool:
    """Whether `filename` is the file of a job's function `fn` or of an experiment module
    (sqrtdk/science/, not its machinery)."""
    import inspect
    path = Path(filename)
    return filename == inspect.getsourcefile(inspect.unwrap(fn)) or (
        path.is_relative_to(PACKAGE_DIR / "science") and path.name not in _MACHINERY)


def _side_effect_error(fn: Callable[..., Any], what: str, done: Any) -> ScienceWarningError:
    """The error for a side_effects.SideEffectError `done` by job `what` (function `fn`): at
    its line, or at `fn`'s when no line of an experiment module made it."""
    from .side_effects import UNSEEDED
    if done.what.startswith(UNSEEDED):
        said = (f"{what} {done.what}: its numbers come from the operating system, different "
                "in every build; draw from the job's own seeded stream, rng = stream(seed, "
                "name) (sqrtdk/science/streams.py)")
    else:
        said = (f"{what} {done.what}: a job returns its output and the build writes every "
                "file itself (results.json); return the values instead")
    error = error_at(fn, said)
    if done.line:
        error = ScienceWarningError(done.path, done.line, said)
    return error


def _check_sendable(job: Any, name: str, output: Any) -> None:
    """ScienceWarningError at the line of the job's function when its `output` cannot be
    pickled (a generator, a lambda, an open file): the pool, sending it back from the worker,
    stopped the build with its own traceback. Its outputs are small (the experiments' cache
    holds them pickled), so pickling them twice costs little."""
    import pickle

    from .science.warned import error_at
    try:
        pickle.dumps(output)
    except Exception as e:
        raise error_at(job.fn, f"job {job.key!r} of '{name}' returns a "
                       f"{type(output).__name__}, which cannot be sent back "
                       f"from its worker process ({type(e).__name__}: {e}); return plain "
                       "values (numbers, strings, tuples, lists, dicts, numpy arrays), not a "
                       "generator (write list(…) or tuple(…)), a lambda or a function defined "
                       "inside another") from None


# the science package's own machinery: an error raised there is ours (its traceback kept),
# and a key a claim reads through run.py's recording view is raised a frame further in
_MACHINERY = frozenset({"run.py", "registry.py", "results.py", "warned.py"})


def placed_error(error: BaseException) -> JobWarningError | None:
    """A Python error raised in an experiment module's own code (a job, an assembly, a
    section or a claim of a module of sqrtdk/science/: a misspelt parameter or key, a shape
    numpy refuses there) as an error at that line, naming the function and what Python said;
    None when the last frame of the science code in its traceback is not in such a module
    (an error of run.py or the registry, or none of the science code's). A SystemExit
    (`sys.exit()` in a job) is placed too: unplaced, it ended the build with no word.
    When the line that raised, or the line of an experiment module that led to it, reads
    fields of a `…Params` instance (`p.n_pairs`; for a `raise`, the `if` above it), the
    error is at the first field's line (where an author changes a parameter), naming the
    line that raised: a parameter of a value the code cannot take (n_pairs = 0, a band
    outside 0…1, two grids made unequal) was told as "fix the code at this line"
    (parameters_read)."""
    import traceback

    from .options import PACKAGE_DIR
    science = PACKAGE_DIR / "science"
    walked = [(frame, line) for frame, line in traceback.walk_tb(error.__traceback__)
              if Path(frame.f_code.co_filename).resolve().is_relative_to(science)]
    frames = [(frame.f_code, line) for frame, line in walked]
    if not frames or Path(frames[-1][0].co_filename).name in _MACHINERY:
        frames = [f for f in frames if Path(f[0].co_filename).name not in _MACHINERY][-1:]
        if not frames or not isinstance(error, (KeyError, IndexError)):
            return None
    code, line = frames[-1]
    where = "" if code.co_name.startswith("<") else f" in '{code.co_name}'"  # not '<lambda>'
    refused = refused_parameters(code.co_filename, line, str(error))
    if refused:
        (first, at), others = refused[0], refused[1:]
        also = "".join(f", or {name} (line {n})" for name, n in others)
        return JobWarningError(code.co_filename, at, f"{type(error).__name__}{where}: {error} "
                               f"(the check at line {line}); the value of {first} here does "
                               f"not pass it: change it{also}")
    if isinstance(error, SystemExit):
        return JobWarningError(code.co_filename, line, f"the code{where} calls "
                               f"{raised_words(error)}; remove it (return the result instead)")
    lasti = {id(tb.tb_frame): tb.tb_lasti for tb in _tracebacks(error.__traceback__)}
    read, check = parameters_read([(f, n, lasti.get(id(f), -1)) for f, n in reversed(walked)
                                   if Path(f.f_code.co_filename).name not in _MACHINERY])
    if read:
        (home, home_line, field, _), more = read[0], read[1:]
        also = "".join(f", or {name} (line {n})" if p == home else
                       f", or {name} ({display(p)}:{n})" for p, n, name, _ in more)
        said = f"{type(error).__name__}{where}: {error}"
        if check is not None:
            return JobWarningError(home, home_line, f"{said} (the check at {display(check[0])}:"
                                   f"{check[1]}); the value of {field} here does not pass "
                                   f"it: change it{also}")
        return JobWarningError(home, home_line, f"{said} (at {display(code.co_filename)}:"
                               f"{line}, reached from code that reads {field}); the value "
                               f"of {field} here may be one the code cannot take: change "
                               f"it{also}, or fix the code there")
    return JobWarningError(code.co_filename, line, f"{type(error).__name__}{where}: {error}; "
                           "fix the code at this line")


def display(path: Path | str) -> str:
    """errors.display_path(Path(path))."""
    from .errors import display_path
    return display_path(Path(path))


def _tracebacks(tb: Any) -> list[Any]:
    """The traceback objects of the chain starting at `tb`, outermost first."""
    out = []
    while tb is not None:
        out.append(tb)
        tb = tb.tb_next
    return out


def parameters_read(frames: list[tuple[Any, int, int]]
                    ) -> tuple[list[tuple[Path, int, str, Any]], tuple[Path, int] | None]:
    """The fields of `…Params` instances that the statement at each (frame, line, lasti)
    reads (`p.n_pairs`, `s.params.d_k`: a chain of names and attributes from the frame's
    locals ending at a dataclass whose class name ends with "Params"; for a `raise`
    statement, the test of the `if` it is the body of), only in the part of the statement
    its instruction `lasti` (the traceback's tb_lasti; -1: the whole statement) was running
    (the call `g(3, 5)` of `f(p.n, 1) + g(3, 5)`: p.n is no part of it), from the first of
    `frames` (innermost first) that reads any: each as (file of its class, line of its
    default, "Class.field", its value), those of a value 0 or below first (the likeliest
    culprits: a zero divisor, a negative count), else as written, with that statement's
    (file, line) when it is a `raise` (a check), else None. ([], None) when no frame reads
    one. Read with Python's own parser (ast)."""
    import ast
    import dataclasses
    for frame, line, lasti in frames:
        path = Path(frame.f_code.co_filename)
        found = _statement(path, line)
        if found is None:
            continue
        stmt, guard = found
        parts: list[Any] = [guard] if guard is not None else []
        parts += _running(stmt, frame.f_code, lasti)
        parts += _assigned_before(path, stmt, parts)
        read: list[tuple[Path, int, str, Any]] = []
        nodes = sorted((node for part in parts
                        for p in (part if isinstance(part, list) else [part])
                        if isinstance(p, ast.AST) for node in ast.walk(p)
                        if isinstance(node, ast.Attribute)),
                       key=lambda node: (node.lineno, node.col_offset))   # as written
        for node in nodes:
            if isinstance(node, ast.Attribute):
                owner = _resolve(node.value, frame.f_locals)
                if owner is None or not dataclasses.is_dataclass(owner) or \
                        isinstance(owner, type) or not type(owner).__name__.endswith("Params") \
                        or node.attr not in {f.name for f in dataclasses.fields(owner)}:
                    continue
                at = _field_line(type(owner), node.attr)
                entry = (at[0], at[1], f"{type(owner).__name__}.{node.attr}",
                         getattr(owner, node.attr))
                if entry[:3] not in [e[:3] for e in read]:
                    read.append(entry)
        whole = [node for p in [guard, *_running(stmt, frame.f_code, -1)]
                 for q in (p if isinstance(p, list) else [p]) if isinstance(q, ast.AST)
                 for node in ast.walk(q) if isinstance(node, ast.Attribute)]
        for entry in _handed_in(frame.f_code, frame.f_locals, whole, parts):
            if entry[:3] not in [e[:3] for e in read]:
                read.append(entry)
        if read:
            return sorted(read, key=lambda entry: not _at_most_zero(entry[3])), \
                ((path, line) if guard is not None else None)
    return [], None


def _handed_in(code: Any, scope: Mapping[str, Any], attributes: list[Any], parts: list[Any]
               ) -> list[tuple[Path, int, str, Any]]:
    """The fields of the `…Params` instances that `attributes` (the whole statement's
    attribute nodes, `p.n_rows` of `f(math.sqrt(var), p.n_rows)`) reach whose value is that
    of a plain number an argument of the function (`code`, its frame's locals `scope`) that
    `parts` (the part of the statement running) name holds: a parameter handed in as an
    argument (`var` given JacobianParams.var_small), which no attribute of that part reads.
    A local of the function's own (a loop's `i = 0`) is no parameter, whatever value it
    shares with a field; a statement reading no field gives none (`np.zeros(3)[d]` with
    d = 16 from a grid is not told at a field that is 16 too). Each as parameters_read
    gives it."""
    import ast
    import dataclasses
    arguments = code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]
    owners = {id(o): o for o in [_resolve(node.value, scope) for node in attributes]
              if o is not None and dataclasses.is_dataclass(o) and not isinstance(o, type)
              and type(o).__name__.endswith("Params")}
    names = [node.id for part in parts for p in (part if isinstance(part, list) else [part])
             if isinstance(p, ast.AST) for node in ast.walk(p) if isinstance(node, ast.Name)]
    values = [scope[n] for n in dict.fromkeys(names) if n in scope and n in arguments
              and isinstance(scope[n], (int, float)) and not isinstance(scope[n], bool)]
    found: list[tuple[Path, int, str, Any]] = []
    for owner in owners.values():
        for f in dataclasses.fields(owner):
            value = getattr(owner, f.name)
            if isinstance(value, (int, float)) and not isinstance(value, bool) and \
                    value in values:
                path, line = _field_line(type(owner), f.name)
                found.append((path, line, f"{type(owner).__name__}.{f.name}", value))
    return found


def _running(stmt: Any, code: Any, lasti: int) -> list[Any]:
    """The expressions of statement `stmt` (its own fields, not the statements of its body)
    within the source span of the instruction at byte offset `lasti` of `code` (the one a
    traceback says was running: a call, a division), or all of them when the span is
    unknown (`lasti` -1, no positions) or holds none of them."""
    import ast
    fields = [value for name, value in ast.iter_fields(stmt)
              if name not in ("body", "orelse", "finalbody", "handlers")]
    try:
        span = list(code.co_positions())[lasti // 2] if lasti >= 0 else None
    except IndexError:
        span = None
    if span is None or None in span:
        return fields
    first, last, start, end = span
    inside = [node for part in fields for p in (part if isinstance(part, list) else [part])
              if isinstance(p, ast.AST) for node in ast.walk(p) if isinstance(node, ast.expr)
              and (node.lineno, node.col_offset) >= (first, start)
              and (node.end_lineno or 0, node.end_col_offset or 0) <= (last, end)]
    return inside or fields


def _at_most_zero(value: Any) -> bool:
    """Whether `value` is a number (not a bool) that is 0 or below: the value a count, a width
    or a divisor most often cannot take, told first."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value <= 0


def _assigned_before(path: Path, stmt: Any, parts: list[Any]) -> list[Any]:
    """The values assigned, earlier in the function of the file `path` holding statement
    `stmt`, to the plain names `parts` (ast nodes or lists of them) use (`n = p.n_pairs //
    p.n_batches` for a line using `n`): one step back, so a parameter handed on in a local
    is still seen."""
    import ast
    used = {node.id for part in parts for p in (part if isinstance(part, list) else [part])
            if isinstance(p, ast.AST) for node in ast.walk(p) if isinstance(node, ast.Name)}
    tree = _parsed(path)
    functions = [node for node in ast.walk(tree) if isinstance(
        node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and node.lineno <= stmt.lineno <= (node.end_lineno or 0)]
    if not used or not functions:
        return []
    inner = min(functions, key=lambda f: (f.end_lineno or 0) - f.lineno)
    return [node.value for node in ast.walk(inner)
            if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign))
            and node.lineno < stmt.lineno and node.value is not None
            and any(isinstance(t, ast.Name) and t.id in used
                    for t in (node.targets if isinstance(node, ast.Assign) else [node.target]))]


def _resolve(node: Any, scope: Mapping[str, Any]) -> Any:
    """The object a chain of names and attributes (`s.params`) is in `scope` (a frame's
    locals), read with getattr; None for anything else (a call, a subscript)."""
    import ast
    if isinstance(node, ast.Name):
        return scope.get(node.id)
    if isinstance(node, ast.Attribute):
        owner = _resolve(node.value, scope)
        return None if owner is None else getattr(owner, node.attr, None)
    return None


def _statement(path: Path, line: int) -> tuple[Any, Any] | None:
    """The innermost statement of the file `path` holding line `line`, and, when it is a
    `raise` directly in the body of an `if`, that `if`'s test (else None); None when the file
    cannot be read or parsed."""
    import ast
    tree = _parsed(path)
    if tree is None:
        return None
    best: Any = None
    parent_of: dict[int, Any] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parent_of[id(child)] = node
        if isinstance(node, ast.stmt) and node.lineno <= line <= (node.end_lineno or line) \
                and (best is None or (node.end_lineno or 0) - node.lineno
                     <= (best.end_lineno or 0) - best.lineno):
            best = node
    if best is None:
        return None
    parent = parent_of.get(id(best))
    guard = parent.test if isinstance(best, ast.Raise) and isinstance(parent, ast.If) \
        and best in parent.body else None
    return best, guard


@functools.lru_cache(maxsize=16)
def _parsed(path: Path) -> Any:
    """ast.parse of the file `path`, None when it cannot be read or parsed."""
    import ast
    try:
        return ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
        return None


def refused_parameters(path: str, line: int, said: str) -> list[tuple[str, int]]:
    """When line `line` of the experiment module `path` is a `raise` statement (the module's
    own check of its parameters) and its message `said` names fields of one of the module's
    `…Params` classes: those fields, in the order the message names them, each with the line
    of its default (where an author changes a parameter, README's "To change a parameter");
    else []. Read with Python's own parser (ast); the class naming the most of them wins."""
    import ast
    import linecache
    import re
    if not linecache.getline(path, line).lstrip().startswith("raise"):
        return []
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, SyntaxError):
        return []
    words = list(dict.fromkeys(re.findall(r"[A-Za-z_]\w*", said)))
    best: list[tuple[str, int]] = []
    for cls in ast.walk(tree):
        if isinstance(cls, ast.ClassDef) and cls.name.endswith("Params"):
            fields = {node.target.id: node.lineno for node in cls.body
                      if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)}
            named = [(w, fields[w]) for w in words if w in fields]
            if len(named) > len(best):
                best = named
    return best


class JobWarningError(BuildError):
    """A warning raised while science code ran (science.warned), as a BuildError that
    crosses back from a worker (pickled as its three arguments)."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (str(self.path), self.line, self.message))


def refuse_edited(path: Path, rerun: str,
                  explain: Callable[[str], tuple[int, str] | None] = lambda text: None
                  ) -> str | None:
    """The text of `path` (None when it does not exist); BuildError when it is not as the
    build wrote it (its digest, see science.results.dumps_signed, does not match), saying
    to restore it with git or `rerun`: at line 1, or at the line `explain(text)` gives with
    its words before (results_paths.unknown_section: a section no experiment makes)."""
    from .errors import BuildError, display_path
    from .science.results import DIGEST
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        if not path.exists():
            return None
        text = ""
    if not _is_signed(text):
        line, what = explain(text) or (1, "")
        raise BuildError(path, line, f"{what}this file was changed since the build wrote it "
                         f"(its {DIGEST} does not match its contents); restore it (git "
                         f"checkout -- {display_path(path)}) or {rerun}")
    return text


@functools.lru_cache(maxsize=4)
def _is_signed(text: str) -> bool:
    """science.results.is_signed, remembered by the text: a warm process (--serve) checks
    the same results and sweep on every rebuild."""
    from .science.results import is_signed
    return is_signed(text)


def _leaves(path: str, value: Any) -> Iterator[tuple[str, Any]]:
    """Every result under `value` with its dotted path from `path` (a list's items by
    index: 'rulers.winner_share.raw.3', as a quote names them)."""
    if isinstance(value, Mapping):
        for key, item in value.items():
            yield from _leaves(f"{path}.{key}", item)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _leaves(f"{path}.{i}", item)
    else:
        yield path, value


def check_bounds(results: Mapping[str, Any]) -> None:
    """Each number of each results section stays in the interval its first matching
    `Section.bounds` pattern declares (as web/numbers.bounds_for reads them for the prose's
    honest rounding); one outside it is an error at the section's function (JobWarningError,
    with the path, value and interval): a bound the value crosses would make the rounding
    print what the value is not (0.73 against a declared [0, 0.5] was published with exit
    0). Here, after the run, not in science/run.py: that module is part of every claim's
    sweep key."""
    from .science.registry import SECTIONS
    for section in SECTIONS:
        if section.name in results:
            _within_bounds(section, results[section.name])


def _within_bounds(section: Section, values: Mapping[str, Any]) -> None:
    """`check_bounds` for one section's stored `values`."""
    import fnmatch
    patterns = [(f"{section.name}.{p}", b) for p, b in section.bounds.items()]
    for path, value in _leaves(section.name, values) if patterns else ():
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        for pattern, (low, high) in patterns:
            if fnmatch.fnmatchcase(path, pattern):
                if not low <= value <= high:
                    e = error_at(section.build, (
                        f"results section '{section.name}': {path} is {value!r}, outside "
                        f"[{low}, {high}], the interval its bounds ('{pattern.split('.', 1)[1]}'"
                        f") say it cannot leave; fix the code, or the bounds if it can be there"))
                    raise JobWarningError(e.path, e.line, e.message)
                break


def check_snippets(results: Mapping[str, Any]) -> None:
    """Each number a reproduce snippet prints that reproduces a result (science.
    reproduce_boxes.AGREES) is within its `within` of that result: a snippet whose printout
    disagreed with results.json (a dimension, a scale or a ruler changed in the experiment
    and not in the snippet, or the other way round) was published beside the numbers it
    claims to reproduce with exit 0. BuildError at the agreement's line of reproduce_boxes.py
    for a number that is off, a printout the pattern does not find, or a result or snippet
    that is not there."""
    import math
    import re

    from .errors import suggest
    from .science.reproduce_boxes import AGREES
    from .science.results import at
    ran = results.get("reproduce", {})
    for agrees in AGREES:
        path, line = _agreement_line(agrees)
        said = f"snippet '{agrees.snippet}'"
        if agrees.snippet not in ran:
            raise BuildError(path, line, f"{said} is not a registered snippet; "
                             + suggest(agrees.snippet, ran, "snippets"))
        try:
            value = at(dict(results), agrees.result)
        except (KeyError, IndexError, ValueError, TypeError):
            raise BuildError(path, line, f"results.json has no '{agrees.result}' for {said} "
                             "to agree with; name a result (a dotted path, list items by "
                             "index)") from None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise BuildError(path, line, f"results.json's '{agrees.result}' for {said} is "
                             f"{type(value).__name__}, not a number; name one number (a "
                             "dotted path to it, list items by index)")
        stdout = ran[agrees.snippet]["stdout"]
        try:
            found = re.search(agrees.printed, stdout, re.M)
        except re.error as e:
            raise BuildError(path, line, f"the pattern {agrees.printed!r} of {said} is not a "
                             f"regular expression ({e}); fix it") from None
        try:
            printed = float(found.group(1)) if found else math.nan
        except (IndexError, ValueError):
            printed = math.nan
        if found is None or math.isnan(printed):
            raise BuildError(path, line, f"{said} prints nothing the pattern {agrees.printed!r} "
                             "finds a number in (its first group): its output is "
                             f"{stdout.strip()[:200]!r}; make the pattern match the line "
                             "that prints the number, or the snippet print it")
        if not abs(printed - float(value)) <= agrees.within:
            fewer = _fewer_than_derived(results, agrees.sample)
            if fewer:
                raise BuildError(path, line, f"{said} prints {found.group(1)} where "
                                 f"results.json's {agrees.result} is {value!r}, more than "
                                 f"{agrees.within:g} apart; but {fewer}: the difference may "
                                 "be the experiment's own sampling error, not a snippet "
                                 "behind; set the parameter back, or derive this tolerance "
                                 "again for the size you set (beside this line)")
            apart = "they must be equal" if not agrees.within else \
                f"more than {agrees.within:g} apart, the sampling error they may differ by"
            raise BuildError(path, line, f"{said} prints {found.group(1)} "
                             f"(at {found.group(0).strip()!r}) where results.json's "
                             f"{agrees.result} is {value!r} ({apart}): the snippet does not "
                             "compute what the experiment does; change the one that is "
                             "behind (a dimension, a scale, a ruler)")


def _fewer_than_derived(results: Mapping[str, Any], sample: tuple[str, int] | None) -> str:
    """How an agreement's sample (`Agrees.sample`: the result holding the experiment's
    sample size, the size its tolerance was derived for) is smaller than derived for, in
    words ('rulers.n_rows is 1, where the tolerance was derived for 2000'); '' when it is
    not (or the agreement has none, or the result is not a number)."""
    from .science.results import at
    if sample is None:
        return ""
    name, derived = sample
    try:
        size = at(dict(results), name)
    except (KeyError, IndexError, ValueError, TypeError):
        return ""
    if isinstance(size, bool) or not isinstance(size, (int, float)) or size >= derived:
        return ""
    return (f"{name} is {size!r}, where the tolerance was derived for {derived}, and with "
            "fewer the experiment's mean moves more from sample to sample than it allows")


def warn_unchecked_snippets(results: Mapping[str, Any]) -> None:
    """A warning at its registration in science/reproduce_boxes.py for each snippet that ran
    (results["reproduce"]) whose printout nothing checks against the results: no `Agrees`
    of reproduce_boxes.AGREES names it and no claim reads its printout (a claim's `reads`
    holding `reproduce.<name>.stdout`: one registered with `snippet=<name>`). Such a snippet
    was published beside the numbers it claims to reproduce with nothing telling when the
    two part (the check_snippets check it is not in). Cheap (reads results.json's values and
    the list of agreements), so it runs on cached results too."""
    import logging

    from .log import warn
    from .science.reproduce_boxes import AGREES
    from .snippet_seeds import _registration
    agreed = {a.snippet for a in AGREES}
    read = {path.split(".")[1] for claim in results.get("claims", {}).values()
            for path in claim.get("reads", ()) if path.startswith("reproduce.")}
    for name, ran in results.get("reproduce", {}).items():
        if name in agreed or name in read:
            continue
        warn(logging.getLogger("sqrtdk"), *_registration(Path(ran["file"])),
             f"nothing checks what snippet '{name}' prints against the results it "
             "reproduces: below the registrations, add for each such number "
             f"'AGREES += [Agrees(\"{name}\", r\"<pattern whose first group is the "
             "number>\", \"<its result in results.json>\", <the sampling error they may "
             "differ by, derived beside it>)]' (README, \"Show the code that ran\"), or "
             f"register a claim on its printout, Claim(…, \"reproduce\", …, snippet="
             f"\"{name}\")")


def _agreement_line(agrees: Any) -> tuple[Path, int]:
    """The file and line of `agrees`' registration in science/reproduce_boxes.py (an
    Agrees(…) call whose first two arguments are its snippet and pattern; line 1 if none),
    read with Python's own parser."""
    import ast
    path = PACKAGE_DIR / "science" / "reproduce_boxes.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Agrees" and \
                [getattr(a, "value", None) for a in node.args[:2]] == \
                [agrees.snippet, agrees.printed]:
            return path, node.lineno
    return path, 1
