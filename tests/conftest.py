"""Shared fixtures: the science half's results for the default seed, computed once per session."""
from __future__ import annotations

from typing import Any

import pytest

from sqrtdk.options import DEFAULT_SEED
from sqrtdk.science.run import run_all


@pytest.fixture(scope="session")
def results() -> dict[str, Any]:
    """`run_all(DEFAULT_SEED)`: results.json as a dict, computed once (~3 s). Never mutate it."""
    return run_all(DEFAULT_SEED)


@pytest.fixture(scope="session")
def site_build(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The whole site, built once per session into a temporary folder with its own cache
    (so no test depends on another's cache), read back for the checks."""
    import json

    from sqrtdk.options import PROJECT_ROOT, BuildOptions
    from sqrtdk.pipeline import build
    from sqrtdk.settings import load_settings, load_strings
    root = tmp_path_factory.mktemp("site-build")
    opts = BuildOptions.for_project(PROJECT_ROOT, out=root / "site", figures_dir=root / "figures",
                                    cache_dir=root / "cache")
    logs: list[str] = []
    build(opts, log=logs.append)
    settings = load_settings(opts.content_dir)
    languages = list(settings.languages)
    return {
        "root": root, "site": root / "site", "opts": opts, "logs": logs, "settings": settings,
        "languages": languages, "strings": load_strings(opts.content_dir, settings.languages),
        "results": json.loads(opts.results_file.read_text(encoding="utf-8")),
        "html": {lang: (root / "site" / lang / "index.html").read_text(encoding="utf-8")
                 for lang in languages},
    }
