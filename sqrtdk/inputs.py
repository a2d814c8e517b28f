"""The inputs stage: the author-edited files every later stage reads (site.toml, each
language's strings.toml and figures.toml), read and validated before any work starts."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .options import BuildOptions
from .settings import Settings, Strings, load_settings, load_strings


@dataclass
class Inputs:
    """The author-edited files, read and validated."""

    settings: Settings
    strings: dict[str, Strings]
    labels: dict[str, dict[str, Any]]      # lang -> figures.toml data
    label_files: dict[str, Any]            # lang -> TomlFile


def read_inputs(opts: BuildOptions) -> Inputs:
    """site.toml, every language's strings.toml and figures.toml, validated; raises
    BuildError at the author's line for a mistake (see settings.py, web/ui_check.py)."""
    from .textfiles import load_toml
    from .web.embed import SLOTS
    from .web.ui_check import check_ui_strings
    settings = load_settings(opts.content_dir)
    strings = load_strings(opts.content_dir, settings.languages)
    files = {lang: load_toml(opts.content_dir / lang / "figures.toml")
             for lang in settings.languages}
    check_ui_strings(strings, opts.templates_dir, tuple(SLOTS))
    return Inputs(settings, strings, {k: f.data for k, f in files.items()}, files)
