"""The published style sheets and scripts minified by esbuild (npm `esbuild`, pinned in
package.json), in the publish step only (sqrtdk/web/publish.py: the files copied from
static/): `--serve` serves them as written.

esbuild's transform (no bundling, no target: no syntax is rewritten for older browsers)
drops comments and white space, shortens names local to a function and writes shorter
equivalent syntax; top-level names of a classic script, which other scripts may read, are
kept, and so are a style sheet's url()s (the publish step rewrites them to hashed names
afterwards). Its output depends on its input, options and version only (the cache key's
parts). Files named `*.min.*` were minified by their authors and are left as they are.
"""
from __future__ import annotations

import json
import subprocess
from pathlib import Path, PurePosixPath

from ..errors import BuildError, display_path

LOADERS = {".css": "css", ".js": "js", ".mjs": "js"}
# what esbuild is told besides the loader (part of the cache key): minify; keep non-ASCII
# characters as they are (UTF-8) rather than as escapes
OPTIONS = ("--minify", "--charset=utf8")


def minifiable(rel: str) -> bool:
    """Whether the site file `rel` is one esbuild minifies here: a style sheet or script
    not already minified (`*.min.*`)."""
    path = PurePosixPath(rel)
    return path.suffix in LOADERS and ".min" not in path.suffixes


def esbuild_package(node_modules: Path) -> Path:
    """esbuild's package.json: its version is part of every minified file's cache key."""
    return node_modules / "esbuild" / "package.json"


def esbuild_version(node_modules: Path) -> str:
    """The installed esbuild's version; BuildError with what to run when it is missing."""
    return _installed_version(esbuild_package(node_modules), "esbuild")


def _installed_version(package: Path, name: str) -> str:
    """The version in npm package `name`'s package.json `package`; BuildError with what to
    run when it is missing or unreadable."""
    try:
        return str(json.loads(package.read_text(encoding="utf-8"))["version"])
    except (OSError, ValueError, KeyError):
        raise BuildError(package, 0, f"{name} is not installed: run 'npm ci' in the project "
                                     "folder (or 'make site')") from None


def minify(node_modules: Path, rel: str, data: bytes, source: Path | str | None = None
           ) -> bytes:
    """`data`, the site file `rel` (.css, .js or .mjs, UTF-8), minified by esbuild. `source`
    names the file in messages (default: `rel`). Raises BuildError at the file's line for
    anything esbuild reports, errors and warnings alike (invalid CSS that a browser would
    drop, say): the published file must be exactly what the author meant."""
    loader = LOADERS[PurePosixPath(rel).suffix]
    name = display_path(source) if source is not None else rel
    binary = node_modules / "esbuild" / "bin" / "esbuild"
    if not binary.is_file():
        esbuild_version(node_modules)                    # the missing-install message
    proc = subprocess.run([str(binary), *OPTIONS, f"--loader={loader}", "--log-level=warning",
                           "--color=false", "--log-limit=1", f"--sourcefile={name}"],
                          input=data, capture_output=True, check=False)
    if proc.returncode != 0 or proc.stderr.strip():
        raise BuildError(source or rel, *_first_message(proc.stderr.decode("utf-8", "replace"),
                                                        name))
    return proc.stdout


CSS_LINT = Path(__file__).with_name("css_lint.mjs")


def stylelint_package(node_modules: Path) -> Path:
    """stylelint's package.json: its version is part of every style sheet's cache key."""
    return node_modules / "stylelint" / "package.json"


def stylelint_version(node_modules: Path) -> str:
    """The installed stylelint's version (part of a style sheet's check's cache key);
    BuildError with what to run when it is missing."""
    return _installed_version(stylelint_package(node_modules), "stylelint")


def lint_css(node_modules: Path, data: bytes, source: Path | str) -> None:
    """Checks the style sheet `data` (UTF-8) with stylelint's rules for CSS a browser drops
    or misreads without a word (css_lint.mjs: an unknown property, unit, function,
    pseudo-class or pseudo-element, an invalid colour or value, a misspelt media feature):
    esbuild accepts `a::is(.x)` and `colr: red` and the page silently lost the rule.
    Raises BuildError at the first such line of `source`, with stylelint's words, the rule
    and how to keep a line the browser does accept (stylelint's own disable comment)."""
    stylelint_version(node_modules)                      # the missing-install message
    name = display_path(source)
    proc = subprocess.run(["node", str(CSS_LINT), str(node_modules), name], input=data,
                          capture_output=True, check=False)
    if proc.returncode != 0:          # a fault of the checker (or of node), not of the sheet
        raise RuntimeError(f"stylelint failed on {name}: "
                           f"{proc.stderr.decode('utf-8', 'replace').strip()}")
    found = sorted(json.loads(proc.stdout), key=lambda w: (w["line"], w["column"]))
    if found:
        first = found[0]
        text = str(first["text"]).removesuffix(f" ({first['rule']})")
        more = f" ({len(found) - 1} more after it)" if len(found) > 1 else ""
        keep = (f"; if browsers do accept it (a gap in the checker), put "
                f"'/* stylelint-disable-next-line {first['rule']} */' on the line above")
        raise BuildError(source, int(first["line"]),
                         f"{text}, column {first['column']}: a browser would drop or misread "
                         f"it{more}; fix it there{keep}")


def _first_message(stderr: str, name: str) -> tuple[int, str]:
    """(line, text) of esbuild's first message ('▲ [WARNING] text' / '✘ [ERROR] text', then
    '    name:line:column:'), with what to do."""
    lines = [ln.strip() for ln in stderr.splitlines() if ln.strip()]
    text = next((ln.split("]", 1)[1].strip() for ln in lines if ln.lstrip("▲✘ ").startswith("[")),
                lines[0] if lines else "esbuild failed without a message")
    line = 0
    for ln in lines:
        if ln.startswith(f"{name}:"):
            parts = ln[len(name) + 1:].split(":")
            line = int(parts[0]) if parts and parts[0].isdigit() else 0
            break
    return line, f"esbuild, minifying it for publishing: {text}; fix it there"


__all__ = ["LOADERS", "OPTIONS", "esbuild_package", "esbuild_version", "minifiable", "minify"]
