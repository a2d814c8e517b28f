"""Views of results.json by dotted path, and the checks of paths named outside the science
half against the schema its modules declare (sqrtdk.science.outputs): what a figure or a
figure's table may read (its `needs`), whether a results file on disk is laid out as the
experiments now declare, and whether the sweep (the section `sweep`: figures/sweep.json,
beside results.json) is as outputs/sweep.py declares, when written and when read. Shared by
the figures and the site half, and light: importing it imports neither the figure modules,
the experiments, numpy nor matplotlib."""
from __future__ import annotations

import json
import sys
import traceback
from collections.abc import Callable, Mapping
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

from .errors import BuildError, json_key_line, line_of, suggest
from .science.outputs import OUTPUTS_DIR, Schema, declared

SWEEP = "sweep"     # the section of figures/sweep.json (declared in outputs/sweep.py)
SWEEP_DECLARATION = OUTPUTS_DIR / "sweep.py"


class NotNeededError(KeyError):
    """A path read from a figure's view of the results (`needed_results`) that its `needs`
    do not list; `file` and `line` are where the figure's drawing or table function read it
    (`at_reader`), when known. Picklable: a figure is drawn in a worker process."""

    def __init__(self, path: str, file: str = "", line: int = 0) -> None:
        super().__init__(path, file, line)
        self.path, self.file, self.line = path, file, line

    def at_reader(self, reader: Callable[..., Any]) -> NotNeededError:
        """This error at the line of `reader` (a figure's drawing or table function, or code
        nested in it) that read the path: the last frame of the traceback inside it."""
        return NotNeededError(self.path, *reader_line(reader, self))

    def message(self, figure: str, what: str) -> str:
        """The author's message: `what` ("figure 'x'", "the table of figure 'x'") reads a
        path outside the figure's needs; a path no experiment declares (a misspelt key) is
        told so, with "did you mean", not to be added to needs (which refuses it)."""
        problem = declared().unknown(self.path)
        if problem is not None:
            return f"{what} reads '{self.path}': {problem}"
        return (f"{what} reads '{self.path}', which @figure('{figure}', needs=…) does not list: "
                "a figure and its table see only the results it needs; add "
                f"'{self.path}' (or its group) to needs")


def reader_line(reader: Callable[..., Any], error: BaseException) -> tuple[str, int]:
    """The file and line of `reader` (a figure's drawing or table function) at which `error`
    was raised: the last frame of its traceback inside the function (or code nested in it),
    else the function's first line."""
    code = reader.__code__
    first = code.co_firstlineno
    last = max((line for *_, line in code.co_lines() if line), default=first)
    file, line = code.co_filename, first
    for frame, at in traceback.walk_tb(error.__traceback__):
        inner = frame.f_code
        if inner.co_filename == file and first <= inner.co_firstlineno <= last:
            line = at
    return file, line


class _View(dict):  # type: ignore[type-arg]
    """A part of a figure's view of the results: a key it lacks raises NotNeededError with the
    whole dotted path."""

    def __init__(self, prefix: str) -> None:
        super().__init__()
        self.prefix = prefix

    def __missing__(self, key: object) -> Any:
        raise NotNeededError(f"{self.prefix}{key}")


def needed_results(results: Mapping[str, Any], needs: tuple[str, ...]) -> dict[str, Any]:
    """The sub-tree of `results` holding only the dotted paths in `needs` (same nesting).
    Reading a path outside them (one `needs` does not list) raises NotNeededError.

    Raises KeyError naming a path results.json does not have.
    """
    out: dict[str, Any] = _View("")
    for path in needs:
        src: Any = results
        dst = out
        parts = path.split(".")
        for i, part in enumerate(parts[:-1]):
            src = src[part]
            dst = dst.setdefault(part, _View(".".join(parts[:i + 1]) + "."))
        if parts[-1] not in src:
            raise KeyError(f"results.json has no '{path}'")
        dst[parts[-1]] = src[parts[-1]]
    return out


def check_needs(figure: str, needs: tuple[str, ...], file: Path | str, line: int) -> None:
    """Raise BuildError at `file:line` (the figure's registration) for a path in `needs` that
    no experiment declares (a result, or a group of them), with "did you mean"."""
    schema = declared()
    for path in needs:
        problem = schema.unknown(path)
        if problem is not None:
            raise BuildError(file, line, f"figure '{figure}' needs '{path}': {problem}")


def needs_declared(needs: tuple[str, ...]) -> bool:
    """Whether every path in `needs` is declared (check_needs says where one is not)."""
    schema = declared()
    return all(schema.unknown(path) is None for path in needs)


def check_results(results: Mapping[str, Any]) -> None:
    """Raise BuildError at the declaration (sqrtdk/science/outputs/) when the experiments'
    `results` differ from it: a path a section returns that is not declared, a declared path
    it does not return, or a value not of the declared shape. The message names the
    experiments the section is built from. Then a section's bounds pattern that matches no
    declared result, or evidence path not declared, is an error at the experiment module's
    line. Call it right after the experiments ran."""
    from .science.registry import SECTIONS, load
    schema = declared()
    body = {k: v for k, v in results.items() if k != "sha256"}
    found = schema.located_problems(body, sorted(set(results_sections(schema)) | set(body)))
    if not found:
        _check_section_paths(body.get("meta", {}))
        return
    load()      # the sections and their experiments, also where none was imported yet
    text, out = found[0]
    section = text.strip("'").split(".", 1)[0].split("'", 1)[0]
    module = SECTIONS[section].build.__module__ if section in SECTIONS else "sqrtdk.science.run"
    twin = OUTPUTS_DIR / (module.rsplit(".", 1)[-1] + ".py")
    file, line = (out.file, out.line) if out is not None else (twin, _section_line(twin, section))
    made_by = (f"experiment(s) {', '.join(SECTIONS[section].needs)} (section '{section}', "
               f"built in {module})") if section in SECTIONS else f"section '{section}'"
    raise BuildError(file, line, f"{made_by}: {_told(found)}; declare every path the section "
                     "returns in RESULTS here, and return every path declared here")


SHOWN_PROBLEMS = 3      # the problems a results check names in full; the rest are counted


def _told(found: list[tuple[str, Any]]) -> str:
    """The first SHOWN_PROBLEMS of check_results' `found` ("'a.b' is not declared", "'a.c' is
    missing", ...), joined, the rest counted. An undeclared path is told with the missing
    paths it may stand for ("did you mean"): a key misspelt where a section returns it makes
    one of each, and '(and 1 more)' hid the one the author meant."""
    undeclared, missing = " is not declared", " is missing"
    absent = [text[:-len(missing)].strip("'") for text, _ in found if text.endswith(missing)]
    told = []
    for text, _ in found[:SHOWN_PROBLEMS]:
        hint = suggest(text[:-len(undeclared)].strip("'"), absent)
        told.append(f"{text} ({hint})" if text.endswith(undeclared) and hint.startswith("did")
                    else text)
    rest = len(found) - len(told)
    return "; ".join(told) + (f" (and {rest} more)" if rest else "")


def _check_section_paths(meta: Mapping[str, Any]) -> None:
    """Raise BuildError at the experiment module's line for a `Section(bounds=…)` pattern
    that matches no declared result (its quantity would lose its honest rounding) or a
    `Section(evidence=…)` path that is not declared (meta.bounds, meta.evidence)."""
    schema = declared()
    paths = [p for p in schema.outputs if "*" not in p]
    for pattern in meta.get("bounds", {}):
        if not any(fnmatchcase(p, pattern) or fnmatchcase(p + ".0", pattern) for p in paths):
            _section_error(pattern, "bounds", f"the bounds pattern '{pattern}' matches no declared "
                           "result; " + suggest(pattern, paths, "results"))
    for path in meta.get("evidence", ()):
        if (problem := schema.unknown(path)) is not None:
            _section_error(path, "evidence", f"the evidence '{path}': {problem}")


def _section_error(path: str, key: str, message: str) -> None:
    """Raise BuildError at the line of the section's module that names `path` (inside its
    section), else at its `Section(...)`'s `key=` line (`bounds`, `evidence`), else at the
    registration itself."""
    from .science.registry import SECTIONS, load
    load()      # the sections register on import: a text-only build imported none of them
    section, _, inside = path.partition(".")
    module = sys.modules.get(SECTIONS[section].build.__module__) if section in SECTIONS \
        else None
    file = Path(getattr(module, "__file__", None) or OUTPUTS_DIR.parent / "registry.py")
    text = file.read_text(encoding="utf-8") if file.is_file() else ""
    registered = line_of(text, f'"{section}", (')
    # (nothing after the section's name: '""' would be found in a docstring's quotes)
    line = ((inside and line_of(text, f'"{inside}"', start=max(registered, 1)))
            or (registered and line_of(text, f"{key}=", start=registered)) or registered)
    raise BuildError(file, line, message)


def _section_line(file: Path, section: str) -> int:
    """The line of `"section": {` in a declaration file (0 when absent)."""
    try:
        return line_of(file.read_text(encoding="utf-8"), f'"{section}": {{')
    except OSError:
        return 0


def matches_schema(results: Mapping[str, Any]) -> bool:
    """Whether `results` (results.json, its digest aside) holds exactly the declared paths,
    in the declared shapes."""
    body = {k: v for k, v in results.items() if k != "sha256"}
    schema = declared()
    sections = results_sections(schema)
    return set(body) == set(sections) and not schema.problems(body, sections)


def unknown_section(text: str) -> tuple[int, str] | None:
    """(line, what is wrong) of the first name in `text`, a results.json edited by hand, that
    is no declared section: a top-level key, or the section of a `meta.bounds` pattern or a
    `meta.evidence` path (`wlak.*`), with the declared ones suggested; the line is the key's
    (for an evidence path, the path's own in its list); None when every one is declared, or
    `text` is no JSON object. The experiments write the file: a section is made by its
    `Section(...)` registration and declared in sqrtdk/science/outputs/, never by an edit."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    sections = results_sections(declared())
    meta = data.get("meta")
    meta = meta if isinstance(meta, dict) else {}
    bounds = meta.get("bounds")
    bounds = bounds if isinstance(bounds, dict) else {}
    evidence = meta.get("evidence")
    evidence = evidence if isinstance(evidence, list) else []
    # (section name, the keys down to its line, what holds it, the list entry that does)
    places: list[tuple[str, list[str], str, str]] = [
        (key, [key], "", "") for key in data if key != "sha256"]
    places += [(str(key).split(".", 1)[0], ["meta", "bounds", key],
                f" (of the bounds pattern '{key}')", "") for key in bounds]
    places += [(str(path).split(".", 1)[0], ["meta", "evidence"],
                f" (of the evidence path '{path}')", str(path)) for path in evidence]
    for name, keys, named, entry in places:
        if name not in sections:
            line = json_key_line(text, keys)
            if entry and line:      # the entry's own line in its list
                line = line_of(text, json.dumps(entry), start=line) or line
            return (line or 1,
                    f"'{name}'{named} is no results section "
                    f"({suggest(name, sections, 'sections')}): the experiments write this "
                    "file, each section from its Section(...) registration in sqrtdk/science/ "
                    "and declared in sqrtdk/science/outputs/; ")
    return None


def results_sections(schema: Schema) -> list[str]:
    """The declared sections results.json holds: all but the sweep's (its own file)."""
    return [s for s in schema.sections if s != SWEEP]


def check_sweep(summary: Mapping[str, Any], read_from: Path | None = None) -> None:
    """Raise BuildError when `summary` (sweep.json's content, its digest aside) differs from
    what outputs/sweep.py declares: a path not declared, a declared one missing, or a value
    not of the declared shape. Written (`read_from` None): at the declaration, since
    sqrtdk/sweep.py built it; read from the file `read_from`: at that file, which older code
    wrote (rerunning the sweep writes it anew)."""
    body = {k: v for k, v in summary.items() if k != "sha256"}
    found = declared().located_problems({SWEEP: body}, [SWEEP])
    if not found:
        return
    text, out = found[0]
    more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
    if read_from is not None:
        raise BuildError(read_from, 0, f"{text}{more}: the sweep in this file is not laid out "
                         f"as {SWEEP_DECLARATION.parent.name}/{SWEEP_DECLARATION.name} declares "
                         "(older code wrote it); rerun the sweep ('make sweep') and commit it")
    file = out.file if out is not None else SWEEP_DECLARATION
    line = out.line if out is not None else _section_line(SWEEP_DECLARATION, SWEEP)
    raise BuildError(file, line, f"the sweep's summary (sqrtdk/sweep.py): {text}{more}; "
                     "declare every path it writes in RESULTS here, and write every path "
                     "declared here")


__all__ = ["SWEEP", "NotNeededError", "check_needs", "check_results", "check_sweep",
           "matches_schema", "needed_results", "needs_declared", "results_sections",
           "unknown_section"]
