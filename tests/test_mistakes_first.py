"""Mistakes first (issue 19, item 3): on a fresh clone with no cache, an author's mistake is
reported before any experiment runs or any figure is drawn, and the check that finds it never
decides what is published (the real results and figures do)."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import copy_project_files, git_copy

# reads the author's files: runs again on the author's copy. It clones the project's folder, so on
# the copy it runs in the copy's own pytest run (tests/test_author_copy.py)
pytestmark = [pytest.mark.author, pytest.mark.author_own_run]

PY = sys.executable
QUOTE = re.compile(r"\{\{ ([a-z_]+)\.")      # a quoted result: `{{ section.name | …`
# Run build.py in this process's interpreter and say which expensive modules it imported.
PROBE = ("import runpy, sys; sys.argv = ['build.py']\n"
         "try:\n    runpy.run_path('build.py', run_name='__main__')\n"
         "except SystemExit as e:\n    print('EXIT', e.code)\n"
         "print('LOADED', sorted(m for m in ('matplotlib', 'sqrtdk.science.run', "
         "'sqrtdk.figures', 'sqrtdk.workers') if m in sys.modules))")


@pytest.fixture(scope="module")
def clone_source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's files committed in a git repository of their own, never built."""
    return git_copy(tmp_path_factory.mktemp("fresh") / "origin")


@pytest.fixture
def clone(clone_source: Path, tmp_path: Path) -> Path:
    """A fresh clone (no cache, no site) with node_modules linked."""
    dest = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(clone_source), str(dest)], check=True,
                   capture_output=True)
    (dest / "node_modules").symlink_to((clone_source / "node_modules").resolve())
    return dest


def misspell_first_quote(article: Path) -> int:
    """Drop the last letter of the first quoted result's section; returns the line."""
    text = article.read_text(encoding="utf-8")
    m = QUOTE.search(text)
    assert m, f"{article} quotes no result"
    article.write_text(text[:m.end(1) - 1] + text[m.end(1):], encoding="utf-8")
    return text.count("\n", 0, m.start()) + 1


def probe(root: Path) -> tuple[subprocess.CompletedProcess[str], str]:
    proc = subprocess.run([PY, "-c", PROBE], cwd=root, capture_output=True, encoding="utf-8")
    loaded = re.search(r"^LOADED (.*)$", proc.stdout, re.M)
    assert loaded, proc.stdout + proc.stderr
    return proc, loaded[1]


def test_a_typo_in_a_fresh_clone_is_reported_before_any_experiment_or_figure(
        clone: Path) -> None:
    figures = {p.name: p.read_bytes() for p in (clone / "figures").iterdir()}
    line = misspell_first_quote(clone / "content" / "en" / "index.md")
    proc, loaded = probe(clone)
    assert "EXIT 1" in proc.stdout, proc.stdout
    assert re.search(rf"^error: content/en/index\.md:{line}: .*did you mean", proc.stderr,
                     re.M), proc.stderr
    assert not re.search(r"^(science|figures|write) ", proc.stdout, re.M), proc.stdout
    assert loaded == "[]", loaded      # no experiment, drawing or worker code was even imported
    assert not (clone / ".cache" / "results").exists() and not (clone / "site").exists()
    assert {p.name: p.read_bytes() for p in (clone / "figures").iterdir()} == figures


def test_a_label_mistake_in_a_fresh_clone_is_reported_before_any_experiment(clone: Path) -> None:
    toml = clone / "content" / "en" / "figures.toml"
    text = toml.read_text(encoding="utf-8")
    m = re.search(r"^\[(?!style\]|card\])(\w+)\]\n(\w+) = ", text, re.M)
    assert m, "figures.toml has no figure table"
    toml.write_text(text[:m.start(2)] + m[2] + "x" + text[m.end(2):], encoding="utf-8")
    proc, loaded = probe(clone)
    line = text.count("\n", 0, m.start(2)) + 1
    assert re.search(rf"^error: content/en/figures\.toml:{line}: .*did you mean '{m[2]}'",
                     proc.stderr, re.M), proc.stderr
    assert loaded == "[]", loaded


def test_committed_results_are_trusted_only_with_the_experiments_as_committed(
        clone: Path) -> None:
    code = ("from sqrtdk import early\nfrom sqrtdk.cache import Cache\n"
            "from sqrtdk.options import BuildOptions\n"
            "found = early.known_results(BuildOptions.for_project(), Cache(None), 'no-entry')\n"
            "print('TRUSTED', found is not None)")

    def trusted() -> str:
        proc = subprocess.run([PY, "-c", code], cwd=clone, capture_output=True, encoding="utf-8")
        assert proc.returncode == 0, proc.stderr
        return proc.stdout.strip()
    assert trusted() == "TRUSTED True"
    new = clone / "sqrtdk" / "science" / "added.py"      # an experiment the results predate
    new.write_text('"""An experiment added after the results were committed."""\n',
                   encoding="utf-8")
    assert trusted() == "TRUSTED False"
    new.unlink()
    (clone / "figures" / "results.json").write_bytes(
        (clone / "figures" / "results.json").read_bytes().replace(b'"seed"', b'"seed" '))
    assert trusted() == "TRUSTED False"


def test_the_registrations_read_without_importing_are_those_importing_makes(
        tmp_path: Path) -> None:
    from sqrtdk import figures
    from sqrtdk.cache import Cache
    from sqrtdk.figure_registrations import registered_figures
    read = registered_figures(Cache(None))
    assert read is not None
    real = figures.load()
    assert list(read) == list(real)
    assert all((read[n].needs, read[n].labels) == (real[n].needs, dict(real[n].labels))
               for n in real)
    folder = tmp_path / "figs"      # a registration only importing can read: no answer
    folder.mkdir()
    (folder / "a.py").write_text('NAME = "x"\n\n@figure(NAME, needs=(), labels={})\n'
                                 "def x(fig, r, t, layout):\n    pass\n", encoding="utf-8")
    assert registered_figures(Cache(None), folder) is None


# ---------------------------------------------------------------- the real build decides


@pytest.fixture
def built(tmp_path: Path, site_build: dict[str, Any]) -> Path:
    """A copy of the project with a copy of the session build's cache (nothing to run)."""
    dest = copy_project_files(tmp_path / "p")
    shutil.copytree(site_build["root"] / "cache", dest / ".cache")
    return dest


def build(root: Path, monkeypatch: pytest.MonkeyPatch, data: bytes | None = None) -> list[str]:
    """Build `root` in this process (the check running against `data` if given); returns the
    stages it logged, in order."""
    from sqrtdk import early
    from sqrtdk.options import BuildOptions
    from sqrtdk.pipeline import Builder
    if data is not None:
        monkeypatch.setattr(early, "known_results", lambda *_: data)
    logs: list[str] = []
    builder = Builder(BuildOptions.for_project(root), log=logs.append)
    try:
        builder.build()
    finally:
        builder.close()
    return [line.split()[0] for line in logs]


def first_quoted(html: str) -> tuple[str, str]:
    m = re.search(r'<span class="q" data-key="([^"]+)"[^>]*>([^<]+)</span>', html)
    assert m, "the page quotes no result"
    return m[1], m[2]


def test_results_other_than_those_checked_make_the_pages_again(
        built: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    stages = build(built, monkeypatch)
    assert stages == ["inputs", "pages", "site", "science", "figures", "publish", "write"], stages
    page = built / "site" / "en" / "index.html"
    key, shown = first_quoted(page.read_text(encoding="utf-8"))
    real = json.loads((built / "figures" / "results.json").read_bytes())
    stale = json.loads(json.dumps(real))
    node = stale
    *parents, last = key.split(".")
    for part in parents:
        node = node[int(part) if isinstance(node, list) else part]
    at = int(last) if isinstance(node, list) else last
    node[at] = node[at] + 1 if isinstance(node[at], int) else node[at] / 2   # not the real one
    (built / "content" / "en" / "index.md").open("a", encoding="utf-8").write("\nOne more.\n")
    stages = build(built, monkeypatch, json.dumps(stale).encode())
    assert stages == ["inputs", "pages", "site", "science", "figures", "pages", "site",
                      "publish", "write"], stages
    assert first_quoted(page.read_text(encoding="utf-8")) == (key, shown)


def test_an_error_against_known_results_stops_the_build_before_the_experiments(
        built: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from sqrtdk.errors import BuildError
    real = json.loads((built / "figures" / "results.json").read_bytes())
    section = QUOTE.search((built / "content" / "en" / "index.md").read_text("utf-8"))
    assert section
    known = {k: v for k, v in real.items() if k != section[1]}    # the text quotes it
    monkeypatch.setattr("sqrtdk.pipeline.Builder.science", lambda *_: pytest.fail("ran"))
    with pytest.raises(BuildError, match=rf"'{section[1]}' is undefined"):
        build(built, monkeypatch, json.dumps(known).encode())
