"""Shared fixtures: the science half's results for the default seed, computed once per session,
and the site built once per session.

Whoever starts the suite (issue 18, item 7), the processes the tests start write their
output as UTF-8, which is how the tests read it (`encoding="utf-8"`): a caller's C or other
non-UTF-8 locale changes nothing a test reads. Tests that send a signal to a process reset
its disposition for it (helpers.default_signals); no test reads the working folder or needs
a terminal (tests/test_author_copy.py runs the tests on the author's copy started that way).
"""
from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from sqrtdk.options import DEFAULT_SEED
from sqrtdk.science.run import run_all

os.environ["PYTHONIOENCODING"] = "utf-8"


@pytest.fixture(scope="session")
def results(tmp_path_factory: pytest.TempPathFactory, pytestconfig: pytest.Config
            ) -> dict[str, Any]:
    """`run_all(DEFAULT_SEED)`: results.json as a dict, computed once (~3 s of CPU, spread over
    the cores as the build spreads it; with pytest-xdist, once for all the workers). Never
    mutate it."""
    import pickle

    from sqrtdk.workers import Pool
    folder = _shared_folder(tmp_path_factory, pytestconfig, "results")
    with _first_only(folder) as first:
        if first:
            with Pool() as pool:
                made = run_all(DEFAULT_SEED, pool.map)
            (folder / "results.pickle").write_bytes(pickle.dumps(made))
    loaded: dict[str, Any] = pickle.loads((folder / "results.pickle").read_bytes())  # noqa: S301 - ours
    return loaded


def _shared_folder(factory: pytest.TempPathFactory, config: pytest.Config, name: str) -> Path:
    """A session folder: in a pytest-xdist worker, one for all the workers of the run (beside
    their own base folders), so what is made there once serves them all."""
    if hasattr(config, "workerinput"):
        return factory.getbasetemp().parent / name
    return factory.mktemp(name)


@contextmanager
def _first_only(folder: Path) -> Iterator[bool]:
    """Yields True to the first process of the run to get here (it fills `folder`), False to
    the others, which wait until it is done (an exclusive lock beside the folder)."""
    import fcntl
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder.parent / f"{folder.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = folder / ".done"
        first = not done.exists()
        yield first
        if first:
            done.touch()


@pytest.fixture(scope="session")
def site_build(tmp_path_factory: pytest.TempPathFactory, pytestconfig: pytest.Config
               ) -> dict[str, Any]:
    """The whole site, built once per session into a temporary folder, read back for the
    checks. Its cache starts as a copy of the project's own `.cache` when there is one (what
    `make site` left; CI builds before it tests): entries are content-addressed over their
    code and inputs and checked against their digests, so a copy serves exactly what a cold
    build would make, and the tests that change files copy this cache in turn. A cold build
    is still made by the tests of a fresh clone (tests/test_mistakes_first.py), the `results`
    fixture and `make site` in CI; the project's cache itself is never written."""
    import json
    import shutil

    from sqrtdk.options import PROJECT_ROOT, BuildOptions
    from sqrtdk.pipeline import build
    from sqrtdk.settings import load_settings, load_strings
    root = _shared_folder(tmp_path_factory, pytestconfig, "site-build")
    opts = BuildOptions.for_project(PROJECT_ROOT, out=root / "site", figures_dir=root / "figures",
                                    cache_dir=root / "cache")
    with _first_only(root) as first:
        if first:
            project_cache = BuildOptions.for_project(PROJECT_ROOT).cache_dir
            if project_cache is not None and project_cache.is_dir():
                shutil.copytree(project_cache, root / "cache")
            logs: list[str] = []
            build(opts, log=logs.append)
            (root / "logs.json").write_text(json.dumps(logs), encoding="utf-8")
    logs = json.loads((root / "logs.json").read_text(encoding="utf-8"))
    settings = load_settings(opts.content_dir)
    languages = list(settings.languages)
    return {
        "root": root, "site": root / "site", "opts": opts, "logs": logs, "settings": settings,
        "languages": languages, "strings": load_strings(opts.content_dir, settings.languages),
        "results": json.loads(opts.results_file.read_text(encoding="utf-8")),
        "html": {lang: (root / "site" / lang / "index.html").read_text(encoding="utf-8")
                 for lang in languages},
    }


@pytest.fixture(scope="session")
def served(site_build: dict[str, Any]) -> Any:
    """Base URL of the session's site served on a free port of 127.0.0.1 (stdlib server)."""
    import functools
    import threading
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            pass
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(
        Quiet, directory=str(site_build["site"])))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="session")
def browser() -> Any:
    """Debian's chromium through Playwright: skipped without it, except in CI, where it fails."""
    import shutil

    from browser import CHROMIUM_ARGS
    chromium = shutil.which("chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        sync_playwright = None  # type: ignore[assignment]
    if chromium is None or sync_playwright is None:
        missing = "chromium (apt-get install chromium)" if chromium is None else "playwright"
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the browser tests, but {missing} is missing")
        pytest.skip(f"{missing} is not installed")
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def visit(browser: Any, served: str) -> Any:
    """visit(**context options) -> Visit; the contexts close after the test."""
    from browser import Visit
    visits: list[Any] = []

    def make(**context: Any) -> Any:
        v = Visit(browser, served, **context)
        visits.append(v)
        return v
    yield make
    for v in visits:
        v.context.close()


@pytest.fixture(autouse=True)
def messages_show_only_what_the_author_wrote(monkeypatch: pytest.MonkeyPatch,
                                             caplog: pytest.LogCaptureFixture) -> Any:
    """Every BuildError a test makes, and every warning it logs, is scanned after the test:
    no internal placeholder (Python-Markdown's stash `wzxhzdk:4`, our private-use tokens and
    markers) may reach a message (issue 17, item 6)."""
    import re

    from sqrtdk.errors import BuildError
    made: list[str] = []
    original = BuildError.__init__

    def recording(self: BuildError, path: Any, line: int, message: str) -> None:
        made.append(message)
        original(self, path, line, message)
    monkeypatch.setattr(BuildError, "__init__", recording)
    yield
    leaked = re.compile("wzxhzdk|[\x02\x03\ue000-\uf8ff\U000f0000-\U0010ffff]")
    logged = [r.getMessage() for when in ("setup", "call") for r in caplog.get_records(when)
              if r.name.startswith("sqrtdk")]
    bad = [m for m in made + logged if leaked.search(m)]
    assert not bad, f"a message shows an internal placeholder: {bad[0]!r}"
