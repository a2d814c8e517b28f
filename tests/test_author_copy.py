"""Tests that survive an author (issue 9, item 7; issue 19, item 5): the author's copy
(tests/author_copy.py: its first paragraph reworded in every language, a new section, and a
new figure added by following README.md's "Add a figure" recipe to the letter) builds with
`build.py --strict`, and every test marked `author` passes on it, in one of two ways:

- those reading the author's files only through conftest's `site_build` (directly, or
  through `served` and `visit`: the end-to-end and browser checks) run on the copy in this
  very session, `site_build` parametrized `author-copy` (conftest's `pytest_generate_tests`),
  spread over the workers like any other test;
- the others (marked `author_own_run`: they read the project's folders or import its code,
  which only a process started in the copy sees as the copy's) run in pytest runs of the
  copy's own, one a test file, started as a careless caller would (issue 18, item 7): from another working folder,
  with no terminal, SIGINT and SIGQUIT ignored (a script's `nohup make test &`), no TERM,
  and the C locale with Python's UTF-8 mode off (ASCII).

Together they are exactly the tests marked `author` (checked below). The copy's own run
skips this file (SQRTDK_AUTHOR_COPY), and the copy sees the same `../shared/` corpus as the
project.
"""
from __future__ import annotations

import inspect
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from author_copy import GUARD, OPENING, OPENING_OTHER, SECTION_ID, built, recipes, with_table
from conftest import ON_COPY, on_copy_in_session
from helpers import Tree

THIS = Path(__file__).name
# the test files marking `author` tests `author_own_run` (checked against the session below)
OWN_RUN = sorted(p.name for p in Path(__file__).parent.glob("test_*.py")
                 if p.name != THIS and "mark.author_own_run" in p.read_text(encoding="utf-8"))
pytestmark = pytest.mark.skipif(os.environ.get(GUARD) == "1",
                                reason="this is the author's copy already")


def test_the_readme_has_the_four_figure_recipes() -> None:
    steps = recipes()
    assert {"figure labels", "figure paragraph"} <= set(steps)
    assert any(k.startswith("figure module sqrtdk/figures/") for k in steps), steps.keys()
    assert "figure table sqrtdk/web/fig_tables.py" in steps, steps.keys()


def test_the_readme_puts_the_figure_table_among_the_table_functions() -> None:
    """README's step 4 said to put the table function "at the end of fig_tables.py", whose
    end holds the helpers that write the tables as HTML: followed to the letter, the new
    table sat after them, apart from the others. Put where the step says, it now follows the
    last table function, and every `@table` function of the module stays in one run."""
    import ast

    from sqrtdk.options import PACKAGE_DIR
    module = (PACKAGE_DIR / "web" / "fig_tables.py").read_text(encoding="utf-8")
    body = ast.parse(with_table(module, recipes()["figure table sqrtdk/web/fig_tables.py"])).body
    tabled = [i for i, node in enumerate(body) if isinstance(node, ast.FunctionDef) and any(
        isinstance(d, ast.Call) and getattr(d.func, "id", "") == "table"
        for d in node.decorator_list)]
    assert len(tabled) > 1 and tabled == list(range(tabled[0], tabled[-1] + 1)), tabled


def test_the_copy_builds_with_strict_and_shows_the_author_s_edits(author_copy: Path) -> None:
    done = built(author_copy)
    assert done["returncode"] == 0, done["stderr"]
    site = author_copy / "project" / "site"
    new_figure = re.search(r"\]\((\w+)\.svg", recipes()["figure paragraph"])
    assert new_figure
    langs = sorted(p.parent.name for p in site.glob("*/index.html"))
    assert len(langs) >= 2, langs
    for lang in langs:
        html = (site / lang / "index.html").read_text(encoding="utf-8")
        opening = OPENING.get(lang, OPENING_OTHER).rstrip(": \uff1a")
        assert opening in html and f'id="{SECTION_ID}"' in html, lang
        assert re.search(rf"{new_figure[1]}\.{lang}\.[0-9a-f]+\.svg", html), lang
        # its table of numbers (step 4), inside the new figure
        fig_id = "fig-" + new_figure[1].replace("_", "-")
        assert any(e["tag"] == "table" and fig_id in e["ancestor_ids"]
                   for e in Tree(html).elements), lang


@pytest.mark.slow
@pytest.mark.parametrize("module", OWN_RUN)
def test_the_author_tests_reading_the_project_s_folders_pass_on_the_copy_started_carelessly(
        author_copy: Path, request: pytest.FixtureRequest, module: str) -> None:
    """The copy's own pytest run of one test file marking tests `author_own_run`: the
    `author` tests that this session cannot run on the copy (conftest's GUARD leaves the
    others out of that run; it reads the copy's own build as its `site_build`), started as
    a careless caller would. One file a run, so that each run is short and the runs spread
    over the workers; one process each (the workers are this session's)."""
    project = author_copy / "project"
    assert built(author_copy)["returncode"] == 0
    report = author_copy / f"own-run-{module}.xml"
    suite = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
                            "-n", "0", "-m", "author and not shots", "--durations=5",
                            f"--junitxml={report}", "--rootdir", str(project),
                            str(project / "tests" / module)],
                           cwd=project / "tests", capture_output=True, encoding="utf-8",
                           errors="replace", env=careless_caller({**os.environ, GUARD: "1"}),
                           stdin=subprocess.DEVNULL, preexec_fn=ignore_interrupts)
    tail = "\n".join(suite.stdout.strip().splitlines()[-12:])
    print(tail)     # the copy's slowest tests (pytest -rP shows them)
    assert suite.returncode == 0, tail
    got = ran(report)
    assert got, tail                                          # it ran
    own, in_session, others = author_tests(request.session)
    mine = {t for t in own if t.startswith(f"tests/{module}::")}
    assert mine <= got, sorted(mine - got)[:5]                # every such test this session has
    assert not got & (in_session | others), sorted(got & (in_session | others))[:5]
    assert not [t for t in got if ON_COPY in t]               # nothing parametrized there


def test_the_tests_run_on_the_copy_in_this_session_are_the_author_tests_that_can_be(
        request: pytest.FixtureRequest) -> None:
    """Each `author` test reaching `site_build` (not marked `author_own_run`) has a run on the
    copy in this session, and no other test has; every other `author` test is in a file the
    copy's own runs above collect."""
    copy = set()
    for item in request.session.items:
        spec = getattr(item, "callspec", None)
        if spec is not None and spec.params.get("site_build") == ON_COPY:
            assert on_copy_in_session(item) and not item.get_closest_marker("shots"), item.nodeid
            copy.add(base_id(item))
    own, in_session, _ = author_tests(request.session)
    assert copy == in_session, sorted(copy ^ in_session)[:5]
    assert {t.split("::")[0] for t in own} <= {f"tests/{m}" for m in OWN_RUN}, OWN_RUN


def test_the_tests_run_on_the_copy_in_this_session_read_it_through_site_build(
        request: pytest.FixtureRequest) -> None:
    """A test run on the copy in this session that read the project's own folders would pass
    without reading the copy: no module holding such a test names them (the installed
    packages in node_modules and the screenshots' folder aside, which an author does not
    edit); its tests read what was built through `site_build` (its `project`, `opts`...)."""
    project_paths = re.compile(r"\b(PROJECT_ROOT|PACKAGE_DIR|__file__)\b")
    allowed = re.compile(r"^\s*(from|import) |node_modules|test-artifacts")
    modules = {item.module for item in request.session.items
               if getattr(item, "callspec", None) is not None
               and item.callspec.params.get("site_build") == ON_COPY}
    for module in modules:
        for n, line in enumerate(inspect.getsource(module).splitlines(), 1):
            assert not project_paths.search(line) or allowed.search(line), \
                f"{module.__file__}:{n}: reads the project's folders: {line.strip()}"


def base_id(item: pytest.Item) -> str:
    """`item`'s node id without its project/author-copy parameter: `x.py::t[project-0]` and
    `x.py::t[author-copy-0]` are `x.py::t[0]`, as the copy's own run names it."""
    name, bracket, params = item.nodeid.partition("[")
    if not bracket:
        return name
    left = re.sub(rf"(^|-)(project|{ON_COPY})(?=-|$)", "", params[:-1], count=1).lstrip("-")
    return f"{name}[{left}]" if left else name


def author_tests(session: pytest.Session) -> tuple[set[str], set[str], set[str]]:
    """Base ids (see `base_id`) of this session's tests (screenshots aside): the `author`
    tests the copy's own run has, those run on the copy in this session, and the others.
    Whatever part of the suite the session has: all of it under `make test`."""
    own: set[str] = set()
    in_session: set[str] = set()
    others: set[str] = set()
    for item in session.items:
        if item.get_closest_marker("shots"):
            continue
        if not item.get_closest_marker("author"):
            others.add(base_id(item))
        else:
            (in_session if on_copy_in_session(item) else own).add(base_id(item))
    return own, in_session, others


def ran(junit_xml: Path) -> set[str]:
    """Node ids of the tests a pytest run reported in its JUnit XML file (`--junitxml`)."""
    import xml.etree.ElementTree as ET
    cases = ET.parse(junit_xml).getroot().iter("testcase")
    return {f"{'/'.join(c.get('classname', '').split('.'))}.py::{c.get('name')}" for c in cases}


def careless_caller(env: dict[str, str]) -> dict[str, str]:
    """`env` as a script started from cron or CI might leave it: no terminal type, the C
    locale and Python's UTF-8 mode off (its files and pipes default to ASCII)."""
    out = {k: v for k, v in env.items() if k not in ("TERM", "LANG", "LANGUAGE", "COLUMNS")
           and not k.startswith(("LC_", "PYTEST_")) and k != "PYTHONIOENCODING"}
    return {**out, "LC_ALL": "C", "PYTHONUTF8": "0"}


def ignore_interrupts() -> None:
    """What a non-interactive shell does to a job started with `&`: SIGINT and SIGQUIT ignored
    (inherited by everything the job starts)."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGQUIT, signal.SIG_IGN)
