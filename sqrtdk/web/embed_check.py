"""The page's embedded results against the schema (sqrtdk.science.outputs), at build time.

Every results path the page's script can read is named in `embed` (EMBEDDED, FOLLOW, SLOTS)
or looked up literally in static/explainer.js with `at("group.name")`. Both are checked here
before the page is written: a path no experiment declares stops the build at the line that
names it, with "did you mean", and so does a lookup the embedded slice does not carry, so a
renamed result never reads `undefined` in the browser.
"""
from __future__ import annotations

import re
from fnmatch import fnmatchcase
from pathlib import Path

from ..errors import BuildError, line_at, line_of, suggest
from ..science.grid import RULERS
from ..science.outputs import declared
from .embed import EMBEDDED, FOLLOW, OPEN_BOUNDS, PAPER_DK, SLOTS

SCRIPT = "explainer.js"       # under static/: reads the results only through at(…)
_STATE_RE = re.compile(r"\{([iskmb])\}")
# a lookup: at("a.b") with a literal path, or at(path) with one filled from FOLLOW or SLOTS
_LOOKUP_RE = re.compile(r"""\bat\(\s*(?:"([^"\n]*)"|'([^'\n]*)'|([^)]*))\)""")
_DIRECT_RE = re.compile(r"\bR\s*(?:\.|\[|\?\.)")   # the results object read around at()
_EMBED_PY = Path(__file__).with_name("embed.py")


def embedded() -> list[str]:
    """The paths EMBEDDED carries, each with its place in results.json."""
    return [f"{group}.{key}" for group, keys in EMBEDDED for key in keys]


def script_paths() -> list[str]:
    """Every results path the page reads: EMBEDDED's, PAPER_DK, FOLLOW's and SLOTS' (a
    state slot `{r}` once per ruler, an index slot as 0; the batch number `{b}` is none)."""
    paths = [*embedded(), PAPER_DK]
    for template in [*FOLLOW, *FOLLOW.values(), *(t for t, _ in SLOTS.values())]:
        if template != "{b}":
            filled = _STATE_RE.sub("0", template)
            paths += [filled.replace("{r}", r) for r in RULERS] if "{r}" in filled else [filled]
    return paths


def check_declared() -> None:
    """Raise BuildError at embed.py's line that names a results path (EMBEDDED, PAPER_DK,
    FOLLOW, SLOTS) no experiment declares, with "did you mean"; an OPEN_BOUNDS pattern that
    matches no declared result; or a FOLLOW or SLOTS path outside the embedded slice (the
    script could not find it)."""
    schema = declared()
    for path in script_paths():
        problem = schema.unknown(path)
        if problem is not None:
            raise BuildError(_EMBED_PY, _line(path), f"the page embeds '{path}': {problem}")
    for pattern in OPEN_BOUNDS:
        if not any(fnmatchcase(p, pattern) for p in schema.outputs):
            raise BuildError(_EMBED_PY, _line(pattern), f"OPEN_BOUNDS' '{pattern}' matches no "
                             "declared result; " + suggest(pattern, schema.names(), "results"))
    for template in [*FOLLOW.values(), *(t for t, _ in SLOTS.values())]:
        path = _STATE_RE.sub("0", template).replace("{r}", RULERS[0])
        if template != "{b}" and not is_embedded(path):
            raise BuildError(_EMBED_PY, _line(template), f"the script looks up '{template}', "
                             "which the page does not embed; add it to EMBEDDED")


def _line(path: str) -> int:
    source = _EMBED_PY.read_text(encoding="utf-8")
    return line_of(source, f'"{path}"') or line_of(source, f'"{path.rsplit(".", 1)[-1]}"')


def is_embedded(path: str) -> bool:
    """Whether `path` is an EMBEDDED path or lies inside one."""
    return any(path == e or path.startswith(e + ".") for e in embedded())


def script_lookups(text: str) -> list[tuple[int, str | None, str]]:
    """Every `at(…)` of a script's `text` outside `//` comments: (line, the literal path or
    None, the argument as written)."""
    found = []
    for m in _LOOKUP_RE.finditer(text):
        if not _in_comment(text, m.start()):
            literal = m.group(1) if m.group(1) is not None else m.group(2)
            found.append((line_at(text, m.start()), literal, m.group(3) or ""))
    return found


def check_script(path: Path) -> None:
    """Raise BuildError at the line of the script at `path` (static/explainer.js) that looks up
    a result the page does not embed, or reads the results other than through
    `at("group.name")` (or `at(path)`, a path filled from FOLLOW or SLOTS: check_declared
    checks those). A missing file is no error (a project without the script)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return
    for line, literal, written in script_lookups(text):
        if literal is None and written.strip() != "path":
            raise BuildError(path, line, f"at({written.strip()}): the script looks results up "
                             "by a literal path, at(\"group.name\"), or by a path filled from "
                             "the page's data, at(path)")
        if literal is not None and not is_embedded(literal):
            problem = declared().unknown(literal)
            raise BuildError(path, line, f"the script looks up '{literal}', which the page "
                             "does not embed; " + (problem or "add it to EMBEDDED in "
                                                   "sqrtdk/web/embed.py"))
    direct = _DIRECT_RE.search(text)
    if direct:
        raise BuildError(path, line_at(text, direct.start()), "the script reads the results "
                         "object directly; look a result up with at(\"group.name\") so the "
                         "build can check that the page embeds it")


def _in_comment(text: str, offset: int) -> bool:
    """Whether `offset` follows a `//` comment's start on its line (a comment line, or one
    after code and a space)."""
    before = text[text.rfind("\n", 0, offset) + 1:offset]
    return before.lstrip().startswith("//") or " // " in before


def check_embed(static_dir: Path) -> None:
    """Both checks: embed's paths against the schema, the script's lookups against the
    embedded slice."""
    check_declared()
    check_script(static_dir / SCRIPT)
