"""Shared fixtures: the science half's results for the default seed, computed once per session,
and the site built once per session.

Whoever starts the suite (issue 18, item 7), the processes the tests start write their
output as UTF-8, which is how the tests read it (`encoding="utf-8"`): a caller's C or other
non-UTF-8 locale changes nothing a test reads. Tests that send a signal to a process reset
its disposition for it (helpers.default_signals); no test reads the working folder or needs
a terminal (tests/test_author_copy.py runs tests on the author's copy started that way).

The author's copy (issue 19, item 5): `pytest_generate_tests` runs each `author` test that
reads the built site through `site_build` on the project and on the copy, in this session.
"""
from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from author_copy import GUARD  # set in the copy's own pytest runs (tests/test_author_copy.py)

from sqrtdk.options import DEFAULT_SEED
from sqrtdk.science.run import run_all

os.environ["PYTHONIOENCODING"] = "utf-8"
ON_COPY = "author-copy"     # site_build's parameter: the author's copy (tests/author_copy.py)


def on_copy_in_session(item: pytest.Item | pytest.Function) -> bool:
    """Whether this `author` test runs on the author's copy in this very session (through
    `site_build`, parametrized) rather than in the copy's own pytest run: it reads the
    author's files only through `site_build` (directly, or through `served` and `visit`), so
    its module is not marked `author_own_run` (issue 19, item 5)."""
    fixtures = getattr(item, "fixturenames", ())
    return ("site_build" in fixtures and item.get_closest_marker("author") is not None
            and item.get_closest_marker("author_own_run") is None)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Each test that may be marked `author` (itself, or one of its parameters) and reaches
    `site_build` runs on the project and on the author's copy; `pytest_collection_modifyitems`
    keeps the copy's run of exactly the `author` ones. The project's parameter is None, as
    for an unparametrized test, so both share one `site_build` (pytest keys a fixture's
    instance by its parameter)."""
    if os.environ.get(GUARD) == "1" or not on_copy_in_session(metafunc.definition) \
            and not _an_author_parameter(metafunc):
        return
    metafunc.parametrize("site_build", [None, ON_COPY], ids=["project", ON_COPY],
                         indirect=True, scope="session")


def _an_author_parameter(metafunc: pytest.Metafunc) -> bool:
    """Whether one of the test's parameters is marked `author` (`pytest.param(marks=...)`)."""
    from _pytest.mark import ParameterSet
    if "site_build" not in metafunc.fixturenames or \
            metafunc.definition.get_closest_marker("author_own_run"):
        return False
    for mark in metafunc.definition.iter_markers("parametrize"):
        values = mark.args[1] if len(mark.args) > 1 else mark.kwargs.get("argvalues", ())
        if any(isinstance(v, ParameterSet) and any(m.name == "author" for m in v.marks)
               for v in values):
            return True
    return False


CPU_TIMEOUT_WALL = 10      # a cpu_timeout test's wall-clock limit, in multiples of its CPU limit
# ... and at least this many seconds: at load average 19 on 2 cores a test got a tenth of a
# core, and 0.5 s of CPU took more than 5 s of wall time (a fresh-clone CI run)
CPU_TIMEOUT_WALL_FLOOR = 120


def pytest_itemcollected(item: pytest.Item) -> None:
    """A `cpu_timeout(s)` test also gets pytest-timeout's wall-clock limit of
    max(CPU_TIMEOUT_WALL * s, CPU_TIMEOUT_WALL_FLOOR): the CPU limit is checked between
    Python's bytecodes, so a regular expression backtracking inside the C engine is stopped
    by the wall clock instead."""
    mark = item.get_closest_marker("cpu_timeout")
    if mark is not None and item.get_closest_marker("timeout") is None:
        item.add_marker(pytest.mark.timeout(max(CPU_TIMEOUT_WALL * float(mark.args[0]),
                                                CPU_TIMEOUT_WALL_FLOOR)))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Any:
    """A test marked `cpu_timeout(s)` fails once its call has used s seconds of this
    process's CPU (ITIMER_PROF: user and system time of all its threads): a test that the
    code's complexity is linear in its input. Unlike pytest-timeout's wall clock, a loaded
    machine (an author's make test beside other work, CI's neighbours) does not make it
    fail: 2 cores at load average 10 made a 6 s test pass 60 s of wall time. Fixtures'
    set-up is not counted, only the call."""
    import signal
    mark = item.get_closest_marker("cpu_timeout")
    if mark is None:
        return (yield)
    limit = float(mark.args[0])

    def expired(signum: int, frame: Any) -> None:
        pytest.fail(f"used more than {limit:g} s of CPU: the code is not linear in the "
                    "test's input (cpu_timeout)", pytrace=True)
    before = signal.signal(signal.SIGPROF, expired)
    signal.setitimer(signal.ITIMER_PROF, limit)
    try:
        return (yield)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, before)


@pytest.hookimpl(trylast=True)      # after pytest has grouped the tests by their fixtures
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Runs on the author's copy are kept for the `author` tests (not screenshots) only. In
    the copy's own pytest run (GUARD set), the `author` tests this session's caller runs on
    the copy itself are left out. The tests marked `slow` go first (in their order), so no
    worker of pytest-xdist is left running one while the others have nothing left to do."""
    def drop(item: pytest.Item) -> bool:
        if os.environ.get(GUARD) == "1":
            return on_copy_in_session(item)
        spec = getattr(item, "callspec", None)
        return spec is not None and spec.params.get("site_build") == ON_COPY and (
            not item.get_closest_marker("author") or bool(item.get_closest_marker("shots")))
    dropped = [item for item in items if drop(item)]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
    kept = [item for item in items if not drop(item)]
    slow = [item for item in kept if item.get_closest_marker("slow")]
    items[:] = slow + [item for item in kept if not item.get_closest_marker("slow")]


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
def site_build(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
               pytestconfig: pytest.Config) -> dict[str, Any]:
    """The whole site, built once per session into a temporary folder, read back for the
    checks. Its cache starts as a copy of the project's own `.cache` when there is one (what
    `make site` left; CI builds before it tests): entries are content-addressed over their
    code and inputs and checked against their digests, so a copy serves exactly what a cold
    build would make, and the tests that change files copy this cache in turn. A cold build
    is still made by the tests of a fresh clone (tests/test_mistakes_first.py), the `results`
    fixture and `make site` in CI; the project's cache itself is never written.

    Parametrized `author-copy` (see `pytest_generate_tests`), and in the copy's own pytest
    run: the author's copy's site, built by its `build.py --strict` (`author_copy`). Keys: root (its `site`, `figures` and
    `cache` folders), project (the folder built from), site, opts, logs, settings,
    languages, strings, results, html."""
    import json
    import shutil

    from sqrtdk.options import PROJECT_ROOT, BuildOptions
    from sqrtdk.pipeline import build
    if getattr(request, "param", None) == ON_COPY or os.environ.get(GUARD) == "1":
        return _copy_site(request.getfixturevalue("author_copy"))
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
    return _read_site(root, PROJECT_ROOT, opts, logs)


def _read_site(root: Path, project: Path, opts: Any, logs: list[str]) -> dict[str, Any]:
    """`site_build`'s dict for a site built from `project` with `opts`."""
    import json

    from sqrtdk.settings import load_settings, load_strings
    settings = load_settings(opts.content_dir)
    languages = list(settings.languages)
    return {
        "root": root, "project": project, "site": opts.out, "opts": opts, "logs": logs,
        "settings": settings, "languages": languages,
        "strings": load_strings(opts.content_dir, settings.languages),
        "results": json.loads(opts.results_file.read_text(encoding="utf-8")),
        "html": {lang: (opts.out / lang / "index.html").read_text(encoding="utf-8")
                 for lang in languages},
    }


def _copy_site(folder: Path) -> dict[str, Any]:
    """`site_build` of the author's copy in `folder` (made by `author_copy`): its own
    `build.py --strict` wrote site/, figures/ and .cache/ in it, as `make site` does."""
    from author_copy import built

    from sqrtdk.options import BuildOptions
    project = folder / "project"
    done = built(folder)
    if done["returncode"] != 0:
        pytest.fail(f"the author's copy does not build with --strict:\n{done['stderr']}")
    logs = [line for line in str(done["stdout"]).splitlines()
            if line.split()[:1] != ["total"]]
    return _read_site(folder / "layout", project, BuildOptions.for_project(project), logs)


@pytest.fixture(scope="session")
def built_project(tmp_path_factory: pytest.TempPathFactory, pytestconfig: pytest.Config,
                  site_build: dict[str, Any]) -> Path:
    """A copy of the project's files (tracked and new, not ignored), node_modules linked,
    built once by `build.py` for all the workers, with a cache of its own: a copy of the
    session build's (made from these files), so the experiments and figures are not made a
    second time. Never changed: a test that builds copies it first (tests/test_authoring.py
    `project`, tests/test_serve.py `server`)."""
    import shutil
    import subprocess
    import sys

    from helpers import copy_project_files
    folder = _shared_folder(tmp_path_factory, pytestconfig, "built-project")
    with _first_only(folder) as first:
        if first:
            dest = copy_project_files(folder / "p")
            shutil.copytree(site_build["root"] / "cache", dest / ".cache")
            done = subprocess.run([sys.executable, "build.py"], cwd=dest, capture_output=True,
                                  encoding="utf-8")
            assert done.returncode == 0, done.stderr
    return folder / "p"


@pytest.fixture(scope="session")
def author_copy(tmp_path_factory: pytest.TempPathFactory, pytestconfig: pytest.Config) -> Path:
    """The folder of the author's copy (tests/author_copy.py): `project` (the copy, built with
    `build.py --strict`) and `build.json` (that build's outcome). Made once for all the
    workers; in the copy's own pytest run (GUARD set), the folder holding this project."""
    from author_copy import make_and_build

    from sqrtdk.options import PROJECT_ROOT
    if os.environ.get(GUARD) == "1":
        return PROJECT_ROOT.parent
    folder = _shared_folder(tmp_path_factory, pytestconfig, "author-copy")
    with _first_only(folder) as first:
        if first:
            make_and_build(folder)
    return folder


@pytest.fixture(scope="session")
def served(site_build: dict[str, Any]) -> Any:
    """Base URL of the session's site served on a free port of 127.0.0.1 (stdlib server)."""
    import functools
    import threading
    from http.server import SimpleHTTPRequestHandler

    from sqrtdk.web.serve_code import QuietServer

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            pass

        def end_headers(self) -> None:
            # nothing kept between page loads: a tab the pool gives out again (browser.PagePool)
            # fetches the page and its assets as a new context does
            self.send_header("Cache-Control", "no-store")
            super().end_headers()
    httpd = QuietServer(("127.0.0.1", 0), functools.partial(
        Quiet, directory=str(site_build["site"])))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="session")
def browser(tmp_path_factory: pytest.TempPathFactory, pytestconfig: pytest.Config) -> Any:
    """Debian's chromium through Playwright: skipped without it, except in CI, where it fails.
    Playwright's own `--disable-features` list (browser.launch_chromium) is read by the first
    worker of the run and kept for the others."""
    import json
    import shutil

    from browser import launch_chromium, playwright_features
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
    folder = _shared_folder(tmp_path_factory, pytestconfig, "chromium-features")
    with sync_playwright() as pw:
        with _first_only(folder) as first:
            if first:
                (folder / "playwright.json").write_text(
                    json.dumps(playwright_features(pw.chromium, chromium)), encoding="utf-8")
        names = json.loads((folder / "playwright.json").read_text(encoding="utf-8"))
        b = launch_chromium(pw.chromium, chromium, playwright_s=names)
        yield b
        b.close()


@pytest.fixture(scope="session")
def platform_browser(browser: Any) -> Any:
    """A chromium of its own (launched by the session's Playwright) in the accessibility mode
    a screen reader turns on (`--force-renderer-accessibility`): it builds the whole tree the
    platform's screen readers get (ATK / AT-SPI on Linux, what Orca reads), which headless
    chromium otherwise builds only in part, on demand."""
    import shutil

    from browser import launch_chromium
    b = launch_chromium(browser.browser_type, shutil.which("chromium"),
                        "--force-renderer-accessibility")
    yield b
    b.close()


@pytest.fixture(scope="session")
def page_pool(browser: Any) -> Any:
    """The tabs this process's tests load their pages in (browser.PagePool)."""
    from browser import PagePool
    pool = PagePool(browser)
    yield pool
    pool.close()


@pytest.fixture
def visit(page_pool: Any, served: str) -> Any:
    """visit(**context options) -> Visit, in a tab of the pool as a new context has it; after
    the test each tab goes back to the pool or its context is closed (Visit.close)."""
    from browser import Visit
    visits: list[Any] = []

    def make(**context: Any) -> Any:
        v = Visit(page_pool.browser, served, pool=page_pool, **context)
        visits.append(v)
        return v
    yield make
    for v in visits:
        v.close()


@pytest.fixture(scope="module")
def pages(page_pool: Any, served: str) -> Any:
    """The loaded pages a module's read-only browser checks share, one load each per module
    (browser.Pages); through `served`, they follow the site a test is parametrized with."""
    from browser import Pages
    loaded = Pages(page_pool.browser, served, page_pool)
    yield loaded
    loaded.close()


@pytest.fixture
def shared(pages: Any) -> Any:
    """The module's shared pages, proven unchanged after the test (Pages.unchanged)."""
    yield from pages.unchanged()


@pytest.fixture(autouse=True)
def messages_show_only_what_the_author_wrote(monkeypatch: pytest.MonkeyPatch,
                                             caplog: pytest.LogCaptureFixture) -> Any:
    """Every BuildError a test makes, and every warning it logs, is scanned after the test:
    no internal placeholder (Python-Markdown's stash `wzxhzdk:4`, our private-use tokens and
    markers) may reach a message (issue 17, item 6)."""
    import re

    from sqrtdk.errors import BuildError
    from sqrtdk.web.markers import BROKEN_MARKER_RE
    from sqrtdk.web.md_math import ContentError
    made: list[str] = []
    drafts: list[str] = []      # messages before the page puts the author's text back
    original, draft = BuildError.__init__, ContentError.__init__

    def recording(self: BuildError, path: Any, line: int, message: str) -> None:
        made.append(message)
        original(self, path, line, message)

    def drafting(self: ContentError, message: str, *args: Any, **kwargs: Any) -> None:
        drafts.append(message)
        draft(self, message, *args, **kwargs)
    monkeypatch.setattr(BuildError, "__init__", recording)
    monkeypatch.setattr(ContentError, "__init__", drafting)
    yield
    leaked = re.compile("wzxhzdk|[\x02\x03\ue000-\uf8ff\U000f0000-\U0010ffff]")
    logged = [r.getMessage() for when in ("setup", "call") for r in caplog.get_records(when)
              if r.name.startswith("sqrtdk")]
    bad = [m for m in made + logged if leaked.search(m)]
    assert not bad, f"a message shows an internal placeholder: {bad[0]!r}"
    # a marker cut short before the author's text was put back: only its number would show
    cut = [m for m in drafts + logged if BROKEN_MARKER_RE.search(m)]
    assert not cut, f"a message quotes text cut inside a placeholder: {cut[0]!r}"
