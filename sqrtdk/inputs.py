"""The inputs stage: the author-edited files every later stage reads (site.toml, each
language's strings.toml and figures.toml), read and validated before any work starts."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import BuildError, Mistakes, display_path
from .options import BuildOptions
from .settings import Settings, Strings, load_settings, load_strings
from .textfiles import TomlFile, read_text


@dataclass
class Inputs:
    """The author-edited files, read and validated."""

    settings: Settings
    strings: dict[str, Strings]
    labels: dict[str, dict[str, Any]]      # lang -> figures.toml data
    label_files: dict[str, Any]            # lang -> TomlFile


def lint_words(article: Path, *files: TomlFile) -> None:
    """Chinese spacing, punctuation and quote marks of a language's strings and figure labels
    (web/cjk_lint.py), quotes as its article quotes (an article not there yet: no style)."""
    from .web.cjk_lint import lint_strings, quote_line, quote_style
    text = read_text(article) if article.is_file() else ""
    quotes = quote_style(article, text) if article.is_file() else None
    where = f"{display_path(article)}:{quote_line(text, quotes)}" if quotes else ""
    for f in files:
        lint_strings(f, quotes, where)


def _authored_code() -> list[Path]:
    """The modules an author edits (README: an experiment in sqrtdk/science/, a figure in
    sqrtdk/figures/, its table in sqrtdk/web/fig_tables.py), which the build reads as text
    (published on the site, quoted in the reproduce boxes, parsed for claims, parameters and
    cache keys): `read_inputs` reads each with `textfiles.read_text` first, so one saved in
    another encoding (Python imports it when its first line says `# -*- coding: latin-1 -*-`)
    or holding a bidi control is told at its line, not met as a UnicodeDecodeError in the
    stage that reads it; one Python cannot parse is told by `told_syntax_error`."""
    from .options import PACKAGE_DIR
    return sorted([*(p for folder in ("science", "figures")
                     for p in (PACKAGE_DIR / folder).rglob("*.py")),
                   PACKAGE_DIR / "web" / "fig_tables.py"])


def told_syntax_error(error: SyntaxError) -> BuildError | None:
    """The one-line BuildError for a SyntaxError in a module an author edits
    (`_authored_code`): a comma too many, an unclosed bracket, a tab among spaces, met where a
    stage parses the module (the figures' cache key reads every figure module's imports) or
    imports it (the engine imports sqrtdk/science/grid.py and the schema as it starts). None
    for any other module's (a bug in the engine keeps its traceback). Checked where it is
    met rather than by parsing every module up front: that cost ~35 ms on every build."""
    if not error.filename:
        return None
    path = Path(error.filename).resolve()
    if path not in {p.resolve() for p in _authored_code()}:
        return None
    column = f", at column {error.offset}" if error.offset else ""
    return BuildError(path, error.lineno or 0,
                      f"Python cannot read this line ({error.msg}{column}); fix the code")


# the engine's own code in the folders an author edits: an error raised there while a module
# is imported (a registration refused) is placed at the author's line that called it
_ENGINE_CODE = ("science/registry.py", "science/run.py", "science/results.py",
                "science/warned.py", "figures/__init__.py")


def told_import_error(error: BaseException) -> BuildError | None:
    """The one-line BuildError for an error raised while Python imports a module an author
    edits (`_authored_code`): its module-level code (a misspelt name, an import of a package
    the build does not have, `sys.exit()`, which ended the build with no word and exit status
    0) or a registration the registries refuse there (a name registered twice, a claim's
    operator), at the module's line that raised or made the call. None when no module-level
    code of such a module is in the traceback, or the error was raised in the engine's own
    module-level code (a bug keeps its traceback); BuildError and SyntaxError are told
    elsewhere (`told_syntax_error`)."""
    import traceback

    from .errors import raised_words
    from .options import PACKAGE_DIR
    if isinstance(error, (BuildError, SyntaxError, KeyboardInterrupt)):
        return None
    authored = {p.resolve() for p in _authored_code()}
    engine = {(PACKAGE_DIR / e).resolve() for e in _ENGINE_CODE}
    frames = [(Path(frame.f_code.co_filename).resolve(), frame.f_code.co_name, line)
              for frame, line in traceback.walk_tb(error.__traceback__)]
    imported = [i for i, (path, name, _) in enumerate(frames)
                if name == "<module>" and path in authored]
    if not imported:
        return None
    placed = [f for f in frames[imported[-1]:] if f[0] in authored and f[0] not in engine]
    if not placed:
        return None
    path, name, line = placed[-1]
    where = "" if name.startswith("<") else f" in '{name}'"
    said = f"{raised_words(error)}{where}, while Python imports this module"
    if isinstance(error, SystemExit):
        return BuildError(path, line, f"{said}; remove it")
    if isinstance(error, ModuleNotFoundError) and error.name:
        return BuildError(path, line, f"{said}; the build has no package '{error.name}': "
                          "remove the import (the experiments compute with numpy, the "
                          "figures draw with matplotlib)")
    return BuildError(path, line, f"{said}; fix the code at this line")


def read_inputs(opts: BuildOptions) -> Inputs:
    """site.toml, every language's strings.toml and figures.toml, validated; raises
    BuildError at the author's line for a mistake (see settings.py, web/ui_check.py).
    site.toml's first mistake stops at once (it names the languages); then the strings
    files (with their [ui] texts) and every figures.toml are read on their own, and their
    mistakes raised together (errors.Mistakes)."""
    from .textfiles import load_toml
    from .web.embed import SLOTS
    from .web.template_check import check_page_templates, check_templates
    from .web.ui_check import (
        check_ui_strings,
        field_differences,
        needed_keys,
        untranslated_warnings,
    )
    settings = load_settings(opts.content_dir)
    check_page_templates(opts.templates_dir)    # before the strings are checked against them
    mistakes = Mistakes()
    strings: dict[str, Strings] | None = None
    with mistakes.seam():
        strings = load_strings(opts.content_dir, settings.languages,
                               needed_keys(opts.templates_dir))
    files: dict[str, TomlFile] = {}
    for lang in settings.languages:
        with mistakes.seam():
            files[lang] = load_toml(opts.content_dir / lang / "figures.toml")
    if strings is not None:
        with mistakes.seam():
            check_ui_strings(strings, opts.templates_dir, tuple(SLOTS))
    with mistakes.seam():
        check_templates(opts.templates_dir)
    for module in _authored_code():
        with mistakes.seam():
            read_text(module)
    mistakes.raise_any()
    assert strings is not None
    untranslated_warnings(strings, files)
    field_differences(strings, files)
    for lang, st in strings.items():        # Chinese words around the article: warnings only
        if st.language.get("script") == "cjk":
            lint_words(opts.content_dir / lang / "index.md", st.file, files[lang])
    return Inputs(settings, strings, {k: f.data for k, f in files.items()}, files)
