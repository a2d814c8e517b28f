"""Tests that survive an author (issue 9, item 7): a copy of the project whose articles were
reworded and extended the way the README tells an author to, and the tests that read the
author's files run on it.

The copy gets: its first paragraph reworded in every language, a new section, and a new
figure added by following README.md's "Add a figure" recipe to the letter (the blocks marked
`<!-- recipe: … -->` are applied as written). Then `build.py --strict` and the tests marked
`author` (those reading the articles, strings and labels; issue 19, item 5: not the whole
suite again) must pass on the copy. They are started as a careless caller would start them
(issue 18, item 7): from another working folder, with no terminal, SIGINT and SIGQUIT
ignored (a script's `nohup make test &`), no TERM, and the C locale with Python's UTF-8 mode
off (ASCII). The copy's own run of this file skips itself (SQRTDK_AUTHOR_COPY), and the copy
sees the same `../shared/` corpus as the project.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import git_copy

from sqrtdk.options import PROJECT_ROOT

GUARD = "SQRTDK_AUTHOR_COPY"
README = PROJECT_ROOT / "README.md"
RECIPE = re.compile(r"<!-- recipe: (?P<what>[^>]*?) -->\s*\n\s*```\w*\n(?P<body>.*?)\n\s*```",
                    re.S)
pytestmark = pytest.mark.skipif(os.environ.get(GUARD) == "1",
                                reason="this is the author's copy already")


def recipes() -> dict[str, str]:
    """README's recipe blocks, by their label, de-indented as a reader would copy them."""
    found = {}
    for m in RECIPE.finditer(README.read_text(encoding="utf-8")):
        lines = m["body"].split("\n")
        indent = min((len(x) - len(x.lstrip()) for x in lines if x.strip()), default=0)
        found[m["what"].strip()] = "\n".join(x[indent:] for x in lines) + "\n"
    return found


def front_matter_end(text: str) -> int:
    """Offset just after the closing `---` line of the front matter (0 if there is none)."""
    m = re.match(r"---\n.*?\n---\n", text, re.S)
    return m.end() if m else 0


def reword_first_paragraph(text: str, lang: str) -> str:
    """The article's first paragraph said differently: a new opening clause, the old first
    word lower-cased (what an author's edit of the opening words amounts to)."""
    start = front_matter_end(text)
    body = text[start:]
    lead = len(body) - len(body.lstrip("\n"))
    opening = {"zh": "先把背景交代清楚："}.get(lang, "To set the scene before anything else: ")
    first = body[lead:]
    if lang != "zh" and first[:1].isupper() and not first[1:2].isupper():
        first = first[:1].lower() + first[1:]
    return text[:start] + body[:lead] + opening + first


def add_section(text: str, figure_paragraph: str) -> str:
    """A new section, holding the README's figure paragraph, before the article's second `##`
    heading (so both languages put it at the same place among their headings)."""
    headings = [m.start() for m in re.finditer(r"^## ", text, re.M)]
    at = headings[1] if len(headings) > 1 else len(text)
    section = ("## A section an author added {#author-added}\n\n"
               "One sentence of new prose.\n\n" + figure_paragraph + "\n")
    return text[:at] + section + text[at:]


@pytest.fixture(scope="module")
def author_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The edited copy (see the module docstring), its cache a copy of the project's `.cache`
    when there is one (what `make site` left): what the author's edits change is made anew,
    the rest is served by content-addressed entries, so the copy is not built cold."""
    root = git_copy(tmp_path_factory.mktemp("author") / "project")
    project_cache = PROJECT_ROOT / ".cache"
    if project_cache.is_dir():
        shutil.copytree(project_cache, root / ".cache")
    steps = recipes()
    module_key = next(k for k in steps if k.startswith("figure module "))
    module = root / module_key.split(" ", 2)[2]
    assert not module.exists(), f"the recipe would overwrite {module}"
    module.write_text(steps[module_key], encoding="utf-8")
    for lang_dir in sorted(p for p in (root / "content").iterdir() if p.is_dir()):
        labels = lang_dir / "figures.toml"
        labels.write_text(labels.read_text(encoding="utf-8").rstrip("\n") + "\n\n"
                          + steps["figure labels"], encoding="utf-8")
        article = lang_dir / "index.md"
        text = reword_first_paragraph(article.read_text(encoding="utf-8"), lang_dir.name)
        article.write_text(add_section(text, steps["figure paragraph"]), encoding="utf-8")
    return root


def test_the_readme_has_the_three_figure_recipes() -> None:
    steps = recipes()
    assert {"figure labels", "figure paragraph"} <= set(steps)
    assert any(k.startswith("figure module sqrtdk/figures/") for k in steps), steps.keys()


@pytest.mark.slow
def test_an_author_who_rewords_and_follows_the_recipes_still_gets_green_tests(
        author_copy: Path, request: pytest.FixtureRequest) -> None:
    env = {**os.environ, GUARD: "1"}   # the copy's own run seeds its build from the copy's .cache
    build = subprocess.run([sys.executable, "build.py", "--strict"], cwd=author_copy,
                           capture_output=True, encoding="utf-8", env=env)
    assert build.returncode == 0, build.stderr
    html = (author_copy / "site" / "en" / "index.html").read_text(encoding="utf-8")
    assert "To set the scene before anything else" in html and 'id="author-added"' in html
    new_figure = re.search(r"\]\((\w+)\.svg", recipes()["figure paragraph"])
    assert new_figure and re.search(rf"{new_figure[1]}\.en\.[0-9a-f]+\.svg", html)
    report = author_copy.parent / "author-tests.xml"
    # one worker per core as `make test` has them (pytest-xdist): the copy's tests are a long
    # chain of their own, and this test starts first (its file is collected first)
    suite = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
                            "-n", "auto", "--maxprocesses", "4", "--dist", "worksteal",
                            "-m", "author and not shots", "--durations=12",
                            f"--junitxml={report}", "--rootdir", str(author_copy),
                            str(author_copy / "tests")],
                           cwd=author_copy / "tests", capture_output=True, encoding="utf-8",
                           errors="replace", env=careless_caller(env),
                           stdin=subprocess.DEVNULL, preexec_fn=ignore_interrupts)
    tail = "\n".join(suite.stdout.strip().splitlines()[-25:])
    print(tail)     # the copy's slowest tests (pytest -rP shows them)
    assert suite.returncode == 0, tail
    marked, others = author_tests(request.session)
    got = ran(report)
    assert got, tail                              # it ran
    assert marked <= got, sorted(marked - got)[:5]     # every author test this session has...
    assert not got & others, sorted(got & others)[:5]  # ...and only those: a selection


def author_tests(session: pytest.Session) -> tuple[set[str], set[str]]:
    """Node ids (`tests/test_x.py::test_y[param]`) of this session's tests marked `author`
    (the tests that must run again on the author's copy), and of the others (screenshots
    aside). Whatever part of the suite the session has: all of it under `make test`."""
    marked: set[str] = set()
    others: set[str] = set()
    for item in session.items:
        if not item.get_closest_marker("shots"):
            (marked if item.get_closest_marker("author") else others).add(item.nodeid)
    return marked, others


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
