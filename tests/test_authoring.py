"""The author's loop: caches, text-only rebuilds, a warm --serve, interrupted and killed
builds, --check, --clean, other seeds, a third language, folders moved elsewhere.

Tests that change files work on a copy of the project of their own (`project`), copied from
one built once per session, so no test sees another's edits or caches."""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import Tree, default_signals, ignoring, start_server

from sqrtdk.options import PROJECT_ROOT

PY = sys.executable


def tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file()}


def run(root: Path, *args: str, check: bool = True, env: dict[str, str] | None = None
        ) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run([PY, "build.py", *args], cwd=root, capture_output=True, encoding="utf-8",
                          env=env)
    if check:
        assert proc.returncode == 0, proc.stderr
    return proc


def stage(out: str, name: str) -> str:
    """The note of stage `name` in a build's output, e.g. '2 converted, 0 cached'."""
    m = re.search(rf"^{name}\s+[\d.]+ s(?:\s+\((.*)\))?$", out, re.M)
    assert m, out
    return m.group(1) or ""


@pytest.fixture
def project(built_project: Path, tmp_path: Path) -> Path:
    """This test's own copy of the built project (site, cache and all)."""
    dest = tmp_path / "p"
    shutil.copytree(built_project, dest, symlinks=True)
    return dest


def test_an_unchanged_rebuild_runs_no_stage_and_writes_nothing(project: Path) -> None:
    before = tree(project / "site")
    out = run(project).stdout
    assert stage(out, "unchanged") and not re.search(r"^(science|figures|pages|site|write) ",
                                                     out, re.M), out
    assert tree(project / "site") == before


def test_a_deleted_figure_or_site_sends_the_rebuild_through_the_stages(project: Path) -> None:
    """The whole-build shortcut also looks at what the build wrote: a figure deleted from
    figures/ is put back (from the cache), a deleted site is written again."""
    before, figure = tree(project / "site"), sorted((project / "figures").glob("*.svg"))[0]
    data = figure.read_bytes()
    figure.unlink()
    out = run(project).stdout
    assert stage(out, "figures").startswith("0 drawn") and stage(out, "write") == "unchanged"
    assert figure.read_bytes() == data
    shutil.rmtree(project / "site")
    out = run(project).stdout
    assert stage(out, "write") == "written" and tree(project / "site") == before


def test_a_text_edit_converts_one_page_and_imports_neither_numpy_nor_matplotlib(
        project: Path) -> None:
    md = project / "content" / "en" / "index.md"
    md.write_text(md.read_text(encoding="utf-8") + "\nOne more sentence for the test.\n",
                  encoding="utf-8")
    code = ("import runpy, sys; sys.argv = ['build.py']\n"
            "try:\n    runpy.run_path('build.py', run_name='__main__')\n"
            "except SystemExit as e:\n    assert not e.code, e.code\n"
            "print('LOADED', sorted(m for m in ('matplotlib', 'numpy', 'sqrtdk.science.run',"
            " 'sqrtdk.figures') if m in sys.modules))")
    proc = subprocess.run([PY, "-c", code], cwd=project, capture_output=True, encoding="utf-8")
    assert proc.returncode == 0, proc.stderr
    assert "LOADED []" in proc.stdout
    assert stage(proc.stdout, "pages") == "1 converted, 1 cached"
    html = (project / "site" / "en" / "index.html").read_text(encoding="utf-8")
    assert "One more sentence for the test." in html


def test_text_edits_leave_the_cache_no_larger_and_the_next_build_unchanged(
        project: Path) -> None:
    """A build removes the entries of the units every build makes again (pages, links,
    publish, the whole-build record, figures) that it did not use: an edit replaces the edited
    page's entries instead of adding a generation; the drawings of the current figures stay
    (their files on disk untouched, they are read only to put a deleted file back) and a
    drawing of older figure code goes; the experiments stay; the record the next build
    replays is kept."""
    from sqrtdk.cache import PRUNED_UNITS
    from sqrtdk.options import BuildOptions
    from sqrtdk.pipeline import Builder

    def entries(*units: str) -> set[str]:
        return {f"{u}/{p.name}" for u in units if (project / ".cache" / u).is_dir()
                for p in (project / ".cache" / u).iterdir()}

    def build() -> list[str]:       # a Builder each, as each `build.py` process has
        logs: list[str] = []
        Builder(BuildOptions.for_project(project), log=logs.append).build()
        return logs
    kept = entries("experiments", "figures", "results")
    from sqrtdk.cache import Cache
    Cache(project / ".cache").put("figures", "0" * 64, b"<svg>older figure code</svg>")
    md = project / "content" / "en" / "index.md"
    text = md.read_text(encoding="utf-8")
    counts = []
    for n in (1, 2):
        md.write_text(text + f"\nEdit number {n} of the cache test.\n", encoding="utf-8")
        before = entries(*PRUNED_UNITS)
        build()
        after = entries(*PRUNED_UNITS)
        assert before - after and after - before, n      # the old generation went, a new came
        counts.append(len(after))
    assert counts[0] == counts[1], counts
    assert kept <= entries("experiments", "figures", "results")
    assert not {f"figures/{'0' * 64}", f"figures/{'0' * 64}.json"} & entries("figures")
    assert [line.split()[0] for line in build()] == ["unchanged"]


def test_a_text_edit_parses_only_the_edited_page_for_its_links(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from sqrtdk.options import BuildOptions
    from sqrtdk.pipeline import Builder
    from sqrtdk.web import site_links
    opts = BuildOptions.for_project(project)
    Builder(opts, log=lambda _: None).build()       # every page's links are in the cache now
    md = project / "content" / "en" / "index.md"
    md.write_text(md.read_text(encoding="utf-8") + "\nA sentence the link check sees.\n",
                  encoding="utf-8")
    parsed: list[str] = []
    real = site_links.page_links
    monkeypatch.setattr(site_links, "page_links",
                        lambda html: parsed.append(html) or real(html))
    Builder(opts, log=lambda _: None).build()       # a new process would find the same cache
    assert len(parsed) == 1 and "A sentence the link check sees." in parsed[0]


def test_a_text_edit_publishes_only_the_edited_page_again(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After a one-word edit the site and publish stages take every file whose bytes did not
    change from the cache: only the edited page gets its printed addresses, its references
    rewritten and its .br and .gz made; no style sheet is read; the publish line says so."""
    from sqrtdk.options import BuildOptions
    from sqrtdk.pipeline import Builder
    from sqrtdk.web import assemble, publish
    opts = BuildOptions.for_project(project)
    Builder(opts, log=lambda _: None).build()
    md = project / "content" / "en" / "index.md"
    text = md.read_text(encoding="utf-8")
    paragraph = next(line for line in text.splitlines() if line[:1].isalpha()
                     and line.rstrip().endswith("."))
    md.write_text(text.replace(paragraph, paragraph + " Indeed.", 1), encoding="utf-8")
    seen: dict[str, list[str]] = {"addresses": [], "rewritten": [], "compressed": [],
                                  "sheets": []}

    def counting(module: Any, name: str, kind: str, text_of: Any) -> None:
        real = getattr(module, name)
        monkeypatch.setattr(module, name, lambda *a, **k: seen[kind].append(text_of(*a)) or
                            real(*a, **k))
    counting(assemble, "with_print_addresses", "addresses", lambda page, *_: page)
    counting(publish, "rewrite_html", "rewritten", lambda page, *_: page)
    counting(publish, "compressed", "compressed", lambda _, data: data.decode())
    counting(publish, "rewrite_css", "sheets", lambda css, *_: css)
    counting(publish, "css_references", "sheets", lambda css: css)
    logs: list[str] = []
    Builder(opts, log=logs.append).build()          # a new process would find the same cache
    assert [len(seen[k]) for k in seen] == [1, 1, 2, 0], {k: len(v) for k, v in seen.items()}
    assert all("Indeed." in page for k in ("addresses", "rewritten", "compressed")
               for page in seen[k])
    assert stage("\n".join(logs), "publish").endswith("; made: 1 rewritten, 2 compressed, "
                                                     "the rest cached")
    assert "Indeed." in (project / "site" / "en" / "index.html").read_text(encoding="utf-8")


SAVED_MID_BUILD = "A sentence saved while the build ran."


@pytest.mark.parametrize("when", ["after the inputs stage", "while the page converts"])
def test_a_save_during_a_build_is_never_replayed_for_the_text_it_replaced(
        project: Path, monkeypatch: pytest.MonkeyPatch, when: str) -> None:
    """The author saves while a build runs (an editor's save, a git checkout under --serve):
    the build reads the article at one moment for its keys and at another to convert it.
    What it made of the new text must not be kept under the key of the old one (it was: the
    whole-build record keyed by the sources as they were when the build began, a page's
    conversion by the article as it was when its key was made), or going back to the old
    text replays the new one's site as unchanged, silently, in this process and the next."""
    from sqrtdk.options import BuildOptions
    from sqrtdk.pipeline import Builder
    from sqrtdk.web import pages
    opts = BuildOptions.for_project(project)
    md = project / "content" / "en" / "index.md"
    # an edit no build converted yet, so that this build converts the page
    text = md.read_text(encoding="utf-8") + "\nA sentence of the text before the save.\n"
    md.write_text(text, encoding="utf-8")
    saved = _insert_before_first_section(text, SAVED_MID_BUILD)

    def save() -> None:
        md.write_text(saved, encoding="utf-8")

    if when == "after the inputs stage":
        class Saving(Builder):
            def read_inputs(self) -> Any:
                got = super().read_inputs()
                save()
                return got
        builder: Builder = Saving(opts, log=lambda _: None)
    else:
        real = pages.build_page
        monkeypatch.setattr(pages, "build_page",
                            lambda *a, **k: (save(), real(*a, **k))[1])
        builder = Builder(opts, log=lambda _: None)
    builder.build()
    monkeypatch.undo()
    page = project / "site" / "en" / "index.html"
    assert SAVED_MID_BUILD in page.read_text(encoding="utf-8")    # the text it converted
    md.write_text(text, encoding="utf-8")       # the author's undo
    Builder(opts, log=lambda _: None).build()
    assert SAVED_MID_BUILD not in page.read_text(encoding="utf-8")
    md.write_text(saved, encoding="utf-8")      # and redo
    Builder(opts, log=lambda _: None).build()
    assert SAVED_MID_BUILD in page.read_text(encoding="utf-8")


def test_a_save_and_its_undo_during_a_conversion_are_not_kept_under_the_undone_text(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The article saved while its page converts and saved back before the build ends (a
    git checkout and its undo; an editor's save of the same text in two writes, the
    conversion reading it half-written): the page is of the other text, while the article
    on disk, at the start and at the end, is the first. Neither the page nor the whole build
    may be kept under the first text (both were: each compared the text only, which is the
    same again, so the next build replayed the other text's site as unchanged)."""
    from sqrtdk.options import BuildOptions
    from sqrtdk.pipeline import Builder
    from sqrtdk.web import pages
    opts = BuildOptions.for_project(project)
    md = project / "content" / "en" / "index.md"
    text = md.read_text(encoding="utf-8") + "\nA sentence of the text before the save.\n"
    md.write_text(text, encoding="utf-8")
    saved = _insert_before_first_section(text, SAVED_MID_BUILD)
    real = pages.build_page

    def converted_while_saved(*a: Any, **k: Any) -> Any:
        md.write_text(saved, encoding="utf-8")
        try:
            return real(*a, **k)
        finally:
            time.sleep(0.01)     # past the file system's clock tick: a later save
            md.write_text(text, encoding="utf-8")
    monkeypatch.setattr(pages, "build_page", converted_while_saved)
    Builder(opts, log=lambda _: None).build()
    monkeypatch.undo()
    page = project / "site" / "en" / "index.html"
    assert SAVED_MID_BUILD in page.read_text(encoding="utf-8")    # the text it converted
    Builder(opts, log=lambda _: None).build()   # the build the watcher starts for the undo
    assert SAVED_MID_BUILD not in page.read_text(encoding="utf-8")


def test_strings_saved_after_the_inputs_stage_are_not_cached_under_a_page_of_the_old(
        project: Path) -> None:
    """strings.toml saved while a build runs, after the inputs stage read it and before the
    page converts: the page is converted with the strings read, and must not be kept under
    the key of the strings on disk (it was: the key read the file again when the page
    converted, so the next build, for that save, replayed the old words as the new)."""
    from sqrtdk.options import BuildOptions
    from sqrtdk.pipeline import Builder
    opts = BuildOptions.for_project(project)
    md = project / "content" / "en" / "index.md"
    # an edit no build converted yet, so that the build converts the page
    md.write_text(md.read_text(encoding="utf-8") + "\nA sentence no build converted.\n",
                  encoding="utf-8")
    strings = project / "content" / "en" / "strings.toml"
    old = strings.read_text(encoding="utf-8")
    word = next(line.split('"')[1] for line in old.split("\n")
                if line.startswith("permalink ="))
    new_word = "An anchor saved while the build ran"
    assert new_word not in old

    class Saving(Builder):
        def read_inputs(self) -> Any:
            got = super().read_inputs()
            strings.write_text(old.replace(f'"{word}"', f'"{new_word}"'), encoding="utf-8")
            return got
    Saving(opts, log=lambda _: None).build()
    page = project / "site" / "en" / "index.html"
    assert new_word not in page.read_text(encoding="utf-8")   # the strings it read
    Builder(opts, log=lambda _: None).build()   # the build the watcher starts for the save
    assert new_word in page.read_text(encoding="utf-8")


def _insert_before_first_section(text: str, paragraph: str) -> str:
    lines = text.split("\n")
    first = next(i for i, line in enumerate(lines) if line.startswith("## "))
    return "\n".join(lines[:first] + [paragraph, ""] + lines[first:])


def test_a_rebuild_writes_only_what_changed_and_never_edits_the_old_site(project: Path) -> None:
    """Unchanged files of the new site are hard links to the previous build's (same inode);
    the edited page is a new file, and the old one, held open, still reads as before."""
    site = project / "site"
    figure = next((site / "figures").glob("*.svg"))
    page, inode = site / "en" / "index.html", figure.stat().st_ino
    with page.open("rb") as held:
        md = project / "content" / "en" / "index.md"
        md.write_text(md.read_text(encoding="utf-8") + "\nA sentence for the links test.\n",
                      encoding="utf-8")
        run(project)
        old = held.read()
    assert figure.stat().st_ino == inode
    assert b"A sentence for the links test." in page.read_bytes()
    assert b"A sentence for the links test." not in old and old.startswith(b"<!doctype")


def test_a_new_module_of_the_science_half_is_part_of_the_cache_key(project: Path) -> None:
    (project / "sqrtdk" / "science" / "zz_new_module.py").write_text(
        '"""A module nobody listed anywhere."""\n', encoding="utf-8")
    assert stage(run(project).stdout, "science") == "ran"


def test_the_readme_s_experiment_recipe_builds_with_strict_and_is_quoted(project: Path) -> None:
    """README's "Add an experiment", followed to the letter: its module and its declaration
    written where the recipe names them, its paragraph in a new section of every language.
    The build runs the new experiment, writes its section into results.json as declared, and
    every page quotes it, with --strict (no warning either)."""
    from author_copy import add_section, recipes
    steps = recipes()
    keys = [k for k in steps if k.startswith(("experiment module ", "experiment outputs "))]
    assert len(keys) == 2 and "experiment paragraph" in steps, sorted(steps)
    for key in keys:
        path = project / key.split(" ", 2)[2]
        assert not path.exists(), f"the recipe would overwrite {path}"
        path.write_text(steps[key], encoding="utf-8")
    for article in sorted(project.glob("content/*/index.md")):
        article.write_text(add_section(article.read_text(encoding="utf-8"),
                                       steps["experiment paragraph"]), encoding="utf-8")
    done = run(project, "--strict", check=False)
    assert done.returncode == 0, done.stderr
    assert stage(done.stdout, "science") == "ran"
    quoted = set(re.findall(r"\{\{ *(\w+(?:\.\w+)+)", steps["experiment paragraph"]))
    results = json.loads((project / "figures" / "results.json").read_text(encoding="utf-8"))
    (section,) = {name.split(".")[0] for name in quoted}      # the new experiment's own
    assert {f"{section}.{key}" for key in results[section]} == quoted   # every result quoted
    for page in sorted((project / "site").glob("*/index.html")):
        html = page.read_text(encoding="utf-8")
        assert all(f'data-key="{name}"' in html for name in quoted), page


def test_the_readme_s_quoting_examples_print_what_it_says_with_the_committed_results(
        tmp_path: Path) -> None:
    """README's quoting examples, converted as the build converts an article with the
    committed results and sweep: "Quote a result in the prose" (its lines, and the sentence
    it says they print) and "Rely on a claim" (its sentence with the claim marker, and the
    sweep's quotes). A result, claim or sweep path renamed in the code, or a number the
    experiments now give otherwise, left README's examples stale with no test noticing."""
    from helpers import page

    from sqrtdk.science.results import DIGEST
    from sqrtdk.sweep import read_sweep
    readme = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")

    def section(title: str) -> str:
        assert f"\n### {title}\n" in readme, title
        return readme.split(f"\n### {title}\n", 1)[1].split("\n### ", 1)[0]

    def block(text: str) -> str:
        found = re.search(r"^```\n(.*?)\n```$", text, re.S | re.M)
        assert found, text[:200]
        return found[1]
    quote, claim = section("Quote a result in the prose"), section("Rely on a claim")
    said = re.search(r'prints \(with the committed results\) "([^"]+)"', quote)
    sweep_quotes = re.findall(r"`(\{\{ sweep\.[^`]*\}\})`", claim)
    assert said and len(sweep_quotes) >= 2, (quote, claim)
    results = json.loads((PROJECT_ROOT / "figures" / "results.json").read_text(encoding="utf-8"))
    results.pop(DIGEST, None)
    results["sweep"] = read_sweep(PROJECT_ROOT / "figures" / "sweep.json")
    body = f"{block(quote)}\n\n{block(claim)}\n\n{', '.join(sweep_quotes)}.\n"
    from html.parser import HTMLParser

    from sqrtdk.web.markers import strip_markers

    class Words(HTMLParser):
        words = ""

        def handle_data(self, data: str) -> None:
            self.words += data
    reader = Words()
    reader.feed(page(tmp_path, body, results).body)
    text = " ".join(strip_markers(reader.words).split())
    assert said[1] in text, text


def test_the_readme_s_snippet_recipe_shows_its_code_and_what_it_printed(project: Path) -> None:
    """README's "Show the code that ran", a new snippet followed to the letter: its script and
    its registration where the recipe names them, and its fence, in the recipe's box (the
    article's own snippet's name replaced by the new one's, as the recipe says), in a new
    section of every language. With --strict, every page shows the code as it ran (the
    build's seed on its SEED line), what it printed, and the link to the experiment's
    source, inside the box."""
    from author_copy import add_section, recipes
    steps = recipes()
    script_key = next((k for k in steps if k.startswith("snippet script ")), None)
    register_key = next((k for k in steps if k.startswith("snippet registration ")), None)
    assert script_key and register_key, sorted(steps)
    script = project / script_key.split(" ", 2)[2]
    assert not script.exists(), f"the recipe would overwrite {script}"
    script.write_text(steps[script_key], encoding="utf-8")
    module = project / register_key.split(" ", 2)[2]     # appended at its end
    module.write_text(module.read_text(encoding="utf-8").rstrip("\n") + "\n"
                      + steps[register_key], encoding="utf-8")
    name = re.search(r'Snippet\("([^"]+)"', steps[register_key])
    assert name
    shown = re.search(r"```reproduce\n(\w+)\n```", steps["reproduce box"])
    assert shown, steps["reproduce box"]
    box = steps["reproduce box"].replace(shown[1], name[1])
    box_id = re.search(r"attrs: \{id: ([\w-]+)\}", box)
    assert box_id, box
    for article in sorted(project.glob("content/*/index.md")):
        article.write_text(add_section(article.read_text(encoding="utf-8"), box),
                           encoding="utf-8")
    done = run(project, "--strict", check=False)
    assert done.returncode == 0, done.stderr
    results = json.loads((project / "figures" / "results.json").read_text(encoding="utf-8"))
    ran = results["reproduce"][name[1]]
    assert ran["stdout"].strip() and f"SEED = {results['meta']['seed']}\n" in ran["code"]
    from helpers import Tree
    for page in sorted((project / "site").glob("*/index.html")):
        elements = Tree(page.read_text(encoding="utf-8")).elements
        in_box = [e["text"] for e in elements
                  if e["tag"] == "pre" and box_id[1] in e["ancestor_ids"]]
        assert any(ran["code"].strip() == t.strip() for t in in_box), page
        assert any(ran["stdout"].strip() == t.strip() for t in in_box), page
        assert any(e["attrs"].get("href") == f"../source/{ran['source']}.html"
                   for e in elements if e["tag"] == "a"), page


_READS_MORE = """\"\"\"A figure whose drawing or table reads more than its needs.\"\"\"
from __future__ import annotations

from typing import Any

from . import figure
from .draw import Canvas, Labels, panels


@figure("reads_more", needs=("spread.d_k",), labels={"title": ()})
def reads_more(fig: Canvas, r: dict[str, Any], t: Labels, layout: str) -> None:
    (ax,) = panels(fig, 1, layout)
    ax.plot(r["spread"]["d_k"], DRAWN)
    ax.set(title=t("title"))
"""
_READS_MORE_TABLE = """

@table("reads_more")
def _reads_more(r: Mapping[str, Any]) -> Tables:
    return (Table(("col_d", "col_sd"), (
        (_c(r, "spread.d_k.0", "grouped"), _c(r, "spread.sd.0", SD)),)),)
"""


@pytest.mark.parametrize("reader", ["figure", "table"])
def test_a_figure_or_table_reading_a_result_outside_its_needs_is_one_line_at_the_read(
        project: Path, reader: str) -> None:
    """A figure's drawing (in a worker) or its table's function reads a result its
    `@figure(needs=…)` does not list: one line at the line that reads it, naming the path
    and what to add, no traceback."""
    from author_copy import add_section
    drawn = 'r["spread"]["sd"]' if reader == "figure" else 'r["spread"]["d_k"]'
    module = project / "sqrtdk" / "figures" / "reads_more.py"
    module.write_text(_READS_MORE.replace("DRAWN", drawn), encoding="utf-8")
    tables = project / "sqrtdk" / "web" / "fig_tables.py"
    if reader == "table":
        tables.write_text(tables.read_text(encoding="utf-8") + _READS_MORE_TABLE,
                          encoding="utf-8")
    for lang in sorted(p for p in (project / "content").iterdir() if p.is_dir()):
        labels = lang / "figures.toml"
        labels.write_text(labels.read_text(encoding="utf-8") + '\n[reads_more]\ntitle = "T"\n',
                          encoding="utf-8")
        article = lang / "index.md"
        article.write_text(add_section(article.read_text(encoding="utf-8"),
                                       '![A line](reads_more.svg "A line.")\n'),
                           encoding="utf-8")
    done = run(project, check=False)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    file = module if reader == "figure" else tables
    read_at = next(i for i, line in enumerate(file.read_text(encoding="utf-8").splitlines(), 1)
                   if ('"sd"' if reader == "figure" else "spread.sd.0") in line)
    assert len(lines) == 1 and lines[0].startswith(
        f"error: {file.relative_to(project).as_posix()}:{read_at}: "), lines
    assert "'spread.sd" in lines[0] and "needs" in lines[0], lines


def test_corrupt_cache_entries_are_rebuilt_not_used(project: Path) -> None:
    before = tree(project / "site")
    for kind in ("figures", "results", "build", "manifest"):
        # every entry of the small kinds; of the figures, one (they are read by the same code,
        # and redrawing all of them would only make the test slower)
        entries = sorted(e for e in (project / ".cache" / kind).iterdir() if e.suffix != ".json")
        if kind == "figures":   # one the build reads (its bytes are a figure's), not a stale one
            # (an entry of older figure code may hold the same bytes: the newest is current)
            drawn = {f.read_bytes() for f in (project / "figures").glob("*.svg")}
            entries = sorted((e for e in entries if e.read_bytes() in drawn),
                             key=lambda e: e.stat().st_mtime_ns)[-1:]
            assert entries, "no figure entry of the cache holds a figure the build wrote"
        for entry in entries:
            entry.write_bytes(entry.read_bytes()[:-10] + b"corrupted!")
    out = run(project).stdout
    assert stage(out, "science") == "ran" and not stage(out, "figures").startswith("0 drawn")
    assert tree(project / "site") == before


def _children(pid: int) -> set[int]:
    """Every process whose parent is `pid` (from /proc)."""
    kids = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            kids.add(int(stat.parent.name))
    return kids


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError:           # it ended between the listing and now
        return ""


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT])
def test_a_killed_build_leaves_no_worker_and_the_site_as_it_was(project: Path,
                                                                sig: signal.Signals) -> None:
    """Also when the suite itself runs with SIGINT and SIGTERM ignored (as under `nohup make
    test &` from a script): the build is started from such a process (`ignoring` makes this
    process one, however the suite was started, so the author's copy need not run this
    again), and the test resets the signals it sends to their default action for it
    (issue 18, item 7)."""
    if not sys.platform.startswith("linux"):
        pytest.skip("reads /proc")
    before = tree(project / "site")
    with ignoring(signal.SIGINT, signal.SIGTERM):
        proc = subprocess.Popen([PY, "build.py", "--no-cache"], cwd=project,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, encoding="utf-8",
                                preexec_fn=default_signals)
    workers: set[int] = set()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not workers:
        workers = {k for k in _children(proc.pid) if "python" in _cmdline(k)} \
            if _alive(proc.pid) else set()
        time.sleep(0.02)
    assert workers, "the build started no worker process"
    os.kill(proc.pid, sig)        # the build only: its workers must notice by themselves
    _, err = proc.communicate(timeout=120)
    if sig == signal.SIGINT:      # Ctrl+C: one line, wherever it struck (also in an import)
        assert proc.returncode == 130 and len(err.splitlines()) == 1 and \
            err.startswith("interrupted (Ctrl+C)"), err
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and any(_alive(w) for w in workers):
        time.sleep(0.05)
    assert not [w for w in workers if _alive(w)]
    assert tree(project / "site") == before
    assert not [p for p in project.iterdir() if p.name.startswith(".site-")]


@pytest.mark.slow
def test_check_builds_twice_and_compares(project: Path) -> None:
    assert "byte-identical" in run(project, "--check").stdout


def test_clean_deletes_only_what_the_build_made(project: Path, tmp_path: Path) -> None:
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "keep.txt").write_text("x")
    proc = run(project, "--clean", "--out", str(foreign), check=False)
    assert proc.returncode == 1 and (foreign / "keep.txt").exists()
    built = tmp_path / "built"
    run(project, "--out", str(built))
    run(project, "--clean", "--out", str(built))
    assert not built.exists()


@pytest.mark.parametrize("folder", ["content/en/out", "static/built", "figures/x", "sqrtdk/x",
                                    "tests/x", "."])
def test_out_inside_or_around_the_sources_is_refused(project: Path, folder: str) -> None:
    proc = run(project, "--out", folder, check=False)
    assert proc.returncode == 1 and proc.stderr.startswith("error: ") and \
        "refusing" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_another_seed_gives_other_numbers_the_same_claims_and_no_new_committed_figure(
        project: Path) -> None:
    before = tree(project / "figures")
    entries = {p.relative_to(project / ".cache") for p in (project / ".cache").rglob("*")}
    run(project, "--seed", "7", "--out", str(project / "site-seed-7"))
    assert tree(project / "figures") == before
    # a side trip: the default seed's cache entries all stay (its figures not drawn again)
    assert entries <= {p.relative_to(project / ".cache") for p in (project / ".cache").rglob("*")}
    other = json.loads((project / ".cache" / "seed-7" / "figures" / "results.json")
                       .read_text(encoding="utf-8"))
    results = json.loads((project / "figures" / "results.json").read_text(encoding="utf-8"))
    assert other["meta"]["seed"] == 7 and other["spread"]["sd"] != results["spread"]["sd"]
    assert other["saturation"] == results["saturation"]          # E2 has no randomness
    assert all(c["held"] for c in other["claims"].values())


@pytest.mark.parametrize("args, says", [(["--seed", "-1"], "is not a seed"),
                                        (["--seed", "x"], "not a whole number"),
                                        (["--port", "80", "--serve"], "not a port"),
                                        (["--sweep", "0"], "not a number of seeds"),
                                        (["--nope"], "unrecognized arguments"),
                                        # an option the mode does not read: it was dropped
                                        # (every such pair: tests/test_command_line.py)
                                        (["--port", "8001"], "--port goes with --serve"),
                                        (["--claims", "a"], "--claims goes with --sweep"),
                                        (["--sweep", "3", "--seed", "5"],
                                         "--sweep does not read --seed")])
def test_bad_options_print_usage_and_exit_2(project: Path, args: list[str], says: str) -> None:
    """Also an option the chosen mode does not read (`--port` without `--serve`, `--seed`
    with `--sweep`): it was dropped without a word, and the build did something else than
    the author asked (served nothing, swept seeds 1 to N, built into temporary folders)."""
    proc = run(project, *args, check=False)
    assert proc.returncode == 2 and says in proc.stderr and "usage:" in proc.stderr


def test_strict_turns_a_warning_into_an_error_and_writes_nothing(project: Path) -> None:
    before = tree(project / "site")
    figures = next((project / "content").glob("*/figures.toml"))
    # the first figure's table (not [style] or [card], whose extra keys are not labels; a
    # comment may mention them too, so look only at table headers)
    first_table = next((m for m in re.finditer(r"^\[(\w+)\][ \t]*(?:#.*)?$",
                                                figures.read_text(encoding="utf-8"), re.M)
                        if m.group(1) not in ("style", "card")), None)
    assert first_table
    text = figures.read_text(encoding="utf-8").replace(
        first_table.group(0), f"{first_table.group(0)}\nunused_label = \"x\"", 1)
    figures.write_text(text, encoding="utf-8")
    proc = run(project, "--strict", check=False)
    assert proc.returncode == 1 and "warning: " in proc.stderr and "--strict" in proc.stderr
    assert tree(project / "site") == before
    assert run(project).returncode == 0      # without --strict the warning does not stop it


@pytest.mark.slow
def test_a_third_language_is_its_folder_and_one_setting(project: Path) -> None:
    content = project / "content"
    shutil.copytree(content / "en", content / "fr")
    strings = content / "fr" / "strings.toml"
    text = strings.read_text(encoding="utf-8")
    text = re.sub(r'^html_lang = "[^"]*"', 'html_lang = "fr"', text, flags=re.M)
    text = re.sub(r'^name = "[^"]*"', 'name = "Français"', text, flags=re.M)
    text = re.sub(r'^og_locale = "[^"]*"', 'og_locale = "fr_FR"', text, flags=re.M)
    text = re.sub(r'^switch_to = "[^"]*"', 'switch_to = "Lire en français"', text, flags=re.M)
    strings.write_text(text, encoding="utf-8")
    site = content / "site.toml"
    site.write_text(re.sub(r"^languages = \[(.*)\]", r'languages = [\1, "fr"]',
                           site.read_text(encoding="utf-8"), flags=re.M), encoding="utf-8")
    out = run(project).stdout
    html = (project / "site" / "fr" / "index.html").read_text(encoding="utf-8")
    # the page's language read off its <html> element, whatever else the tag carries (an
    # article page's class: a check of the tag's text broke when one was added)
    elements = Tree(html).elements
    assert next(e for e in elements if e["tag"] == "html")["attrs"].get("lang") == "fr"
    assert any(e["attrs"].get("hreflang") == "fr" for e in elements)
    other = Tree((project / "site" / "en" / "index.html").read_text(encoding="utf-8"))
    assert any(e["attrs"].get("hreflang") == "fr" for e in other.elements)
    # its labels are the English ones: no figure is drawn again, each is English's drawing
    figures = project / "figures"
    fr = sorted(f for f in figures.iterdir() if ".fr." in f.name)
    assert fr and _drawn(out) == 0, out
    assert all(f.read_bytes() == _in(f, "en").read_bytes() for f in fr)
    # one label of one figure (not the card's) differs: that figure alone is drawn, per layout
    name, key = _a_label(project / "content" / "fr" / "figures.toml",
                         _setting(project, "social_figure"))
    _edit_label(project / "content" / "fr" / "figures.toml", name, key, " (fr)")
    out = run(project).stdout
    changed = [f.name for f in fr if f.read_bytes() != _in(f, "en").read_bytes()]
    assert _drawn(out) == len(changed) == 2, out      # the wide and the narrow drawing
    assert all(c.startswith(f"{name}.fr.") for c in changed)


def _drawn(out: str) -> int:
    """How many drawings the figure stage of a build's output says it drew."""
    found = re.match(r"(\d+) drawn, \d+ cached", stage(out, "figures"))
    assert found, out
    return int(found.group(1))


def _in(file: Path, lang: str) -> Path:
    """The file of figures/ that is `file`'s drawing in language `lang`."""
    name, _, rest = file.name.partition(".")
    return file.with_name(f"{name}.{lang}.{rest.partition('.')[2]}")


def _setting(project: Path, key: str) -> str:
    import tomllib
    value = tomllib.loads((project / "content" / "site.toml").read_text(encoding="utf-8"))[key]
    return str(value)


def _a_label(toml: Path, social: str) -> tuple[str, str]:
    """(figure, label key) of the first label of a figure that is not on the card."""
    import tomllib
    data = tomllib.loads(toml.read_text(encoding="utf-8"))
    name = next(n for n in data if n not in ("style", "card", social))
    return name, next(iter(data[name]))


def _edit_label(toml: Path, name: str, key: str, tail: str) -> None:
    """Append `tail` to label `key` of table [name] (a one-line "…" string)."""
    text = toml.read_text(encoding="utf-8")
    start = text.index(f"\n[{name}]")
    m = re.compile(rf'^{re.escape(key)} = "(.*)"$', re.M).search(text, start)
    assert m, (name, key)
    toml.write_text(text[:m.end(1)] + tail + text[m.end(1):], encoding="utf-8")


def test_a_build_with_every_folder_elsewhere_touches_nothing_in_the_project(
        project: Path, tmp_path: Path) -> None:
    away = tmp_path / "away"
    for name in ("content", "templates", "static"):
        shutil.copytree(project / name, away / name)
    (away / "node_modules").symlink_to(PROJECT_ROOT / "node_modules")
    (away / "figures").mkdir()      # the sweep is an input the article quotes: it comes along
    shutil.copy2(project / "figures" / "sweep.json", away / "figures" / "sweep.json")
    shutil.copytree(project / ".cache", away / "cache")   # the cache moves too (and is warm)
    before = tree(project)
    code = (
        "from pathlib import Path; import sys\n"
        "from sqrtdk.options import BuildOptions\nfrom sqrtdk.pipeline import build\n"
        f"a = Path({str(away)!r})\n"
        "build(BuildOptions(content_dir=a/'content', templates_dir=a/'templates', "
        "static_dir=a/'static', figures_dir=a/'figures', node_modules=a/'node_modules', "
        "out=a/'site', cache_dir=a/'cache', sweep_path=a/'figures'/'sweep.json').resolve(), "
        "log=lambda _: None)\n")
    proc = subprocess.run([PY, "-B", "-c", code], cwd=project, capture_output=True, encoding="utf-8")
    assert proc.returncode == 0, proc.stderr
    assert (away / "site" / "en" / "index.html").is_file() and (away / "figures").is_dir()
    after = tree(project)
    assert after == before


# --- serve: one warm process ------------------------------------------------------------------

def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as r:
        return str(r.read().decode("utf-8"))


def _events(url: str) -> Iterator[tuple[str, str]]:
    stream = urllib.request.urlopen(url, timeout=60)
    name = ""
    for raw in stream:
        line = raw.decode("utf-8").rstrip("\n")
        if line.startswith("event: "):
            name = line[len("event: "):]
        elif line.startswith("data: ") and name:
            yield name, line[len("data: "):]
            name = ""


def _built(events: Iterator[tuple[str, str]]) -> tuple[str, str]:
    """The next build's event: an edit's changed blocks may come first as a `patch`, sent
    ahead of the build (serve_fast); the build then says `update` or `failed`."""
    event = next(events)
    while event[0] == "patch":
        event = next(events)
    return event


@pytest.fixture
def server(project: Path, tmp_path: Path) -> Iterator[tuple[Path, str, subprocess.Popen[bytes]]]:
    proc, base = start_server(project, tmp_path / "serve.log")
    try:
        yield project, base, proc
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=10)


def test_serve_reloads_on_edit_keeps_the_last_good_site_and_restarts_on_code(
        server: tuple[Path, str, subprocess.Popen[bytes]]) -> None:
    project, base, proc = server
    page = _get(f"{base}/en/index.html")
    assert "/__reload/client.js?token=" in page
    assert "__reload" not in (project / "site" / "en" / "index.html").read_text("utf-8")
    events = _events(f"{base}/__reload/events")
    kind, greeting = next(events)
    assert kind == "hello"
    token = json.loads(greeting)["token"]
    md = project / "content" / "en" / "index.md"
    original = md.read_text(encoding="utf-8")
    md.write_text(original + "\nEdited by the serve test.\n", encoding="utf-8")
    assert _built(events)[0] == "update"
    assert "Edited by the serve test." in _get(f"{base}/en/index.html")
    md.write_text(original + "\nBroken $\\frac{x$ here.\n", encoding="utf-8")
    kind, data = _built(events)
    error = json.loads(data)["error"]
    assert kind == "failed" and re.match(r"content/en/index\.md:\d+: ", error), error
    assert "Edited by the serve test." in _get(f"{base}/en/index.html")
    md.write_text(original, encoding="utf-8")
    assert _built(events)[0] == "update"
    code = project / "sqrtdk" / "web" / "embed.py"
    code.write_text(code.read_text(encoding="utf-8") + "\n# touched by the serve test\n",
                    encoding="utf-8")
    run = token.split(".")[0]            # the token is "<server process>.<build number>"
    deadline, hello = time.monotonic() + 60, ("", "")
    while time.monotonic() < deadline:      # the same address, served by a fresh process
        try:
            hello = next(_events(f"{base}/__reload/events"))
            if json.loads(hello[1])["token"].split(".")[0] != run:
                break
        except (OSError, StopIteration):     # the old process went away mid-connection
            pass
        time.sleep(0.2)
    assert hello[0] == "hello" and json.loads(hello[1])["token"].split(".")[0] != run
    assert proc.poll() is None
    assert "Edited by the serve test." not in _get(f"{base}/en/index.html")


def test_a_misspelt_slot_in_a_widget_sentence_is_one_line_at_its_key(project: Path) -> None:
    from sqrtdk.settings import FIELDS
    from sqrtdk.textfiles import load_toml
    from sqrtdk.web.embed import SLOTS
    path = project / "content" / "en" / "strings.toml"
    toml = load_toml(path)
    key, slot = next((k, name) for k, text in toml.data["ui"].items() for name in SLOTS
                     if "{" + name + "}" in text and k not in FIELDS)   # FIELDS: str.format
    line = toml.line_of("ui", key)
    lines = path.read_text(encoding="utf-8").split("\n")
    lines[line - 1] = lines[line - 1].replace("{" + slot + "}", "{" + slot + "x}", 1)
    path.write_text("\n".join(lines), encoding="utf-8")
    before = tree(project / "site")
    proc = run(project, check=False)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines()[-1].startswith(
        f"error: content/en/strings.toml:{line}: [ui] {key}: {{{slot}x}}")
    assert f"did you mean {{{slot}}}?" in proc.stderr
    assert tree(project / "site") == before


def test_serve_on_a_busy_port_is_one_line(project: Path) -> None:
    """The line also tells `make serve`'s user how to choose the port (README: `make serve
    PORT=8001`): it named only --port, which `make serve` does not take."""
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        proc = run(project, "--serve", "--port", str(port), check=False)
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines() == [
        f"error: 127.0.0.1:{port}: cannot serve here (Address already in use); "
        "choose another --port (with make: make serve PORT=8001), or 0 for any free port"]


def test_make_serve_takes_another_port_when_8000_is_busy() -> None:
    """`make serve` serves on 8000; on a busy port the build says to choose another, which
    `make serve PORT=…` passes on (make -n: printed, not run)."""
    done = subprocess.run(["make", "-n", "-C", str(PROJECT_ROOT), "serve", "PORT=0"],
                          capture_output=True, encoding="utf-8")
    assert done.returncode == 0, done.stderr
    assert re.search(r"build\.py --serve --port 0$", done.stdout, re.M), done.stdout


def test_sweep_writes_how_often_each_claim_holds(project: Path) -> None:
    out = run(project, "--sweep", "2").stdout
    sweep = json.loads((project / "figures" / "sweep.json").read_text(encoding="utf-8"))
    assert sweep["n_seeds"] == 2 and set(sweep["claims"]) == set(
        json.loads((project / "figures" / "results.json").read_text("utf-8"))["claims"])
    for name, claim in sweep["claims"].items():
        assert name in out and 0 <= claim["held"] <= 2


def test_chinese_words_around_the_article_are_warned_at_their_lines(project: Path) -> None:
    """The build's Chinese check (web/cjk_lint.py) reads the article's front matter, its
    strings.toml and its figures.toml too: a Latin word glued to Chinese, or parts joined
    with ", ", is one `path:line: warning:` at the line it is on."""
    from sqrtdk.textfiles import load_toml
    lang = next(p.parent.name for p in sorted((project / "content").glob("*/strings.toml"))
                if load_toml(p).data["language"].get("script") == "cjk")
    han = re.compile("[\u4e00-\u9fff]")
    where: list[str] = []
    for name in ("index.md", "strings.toml", "figures.toml"):
        path = project / "content" / lang / name
        lines = path.read_text(encoding="utf-8").split("\n")
        # the first line of Chinese text given as a value (`title: …`, `key = "…"`)
        n = next(i for i, line in enumerate(lines)
                 if re.match(r"^\w+ *[:=] *\"?[^\"]*$|^\w+ *= *\"[^\"]*\"", line)
                 and han.search(line.split("#")[0]))
        at = han.search(lines[n]).end()           # glue a Latin word to its first Han one
        lines[n] = lines[n][:at] + "numpy, x" + lines[n][at:]
        path.write_text("\n".join(lines), encoding="utf-8")
        where.append(f"content/{lang}/{name}:{n + 1}: warning: ")
    proc = run(project, check=False)
    assert proc.returncode == 0, proc.stderr
    for w in where:
        assert w in proc.stderr, (w, proc.stderr)


# ---- every independent mistake of a build at once -------------------------------------------
# Mistakes are written into the articles at places found by their structure: after the first
# paragraph of prose (below the front matter), and before the last section's heading.

_NOT_PROSE = re.compile(r"^(#|/|`|~|\||- |\* |\d+\. |<|\$\$|!\[|\[\^|\s)")


def _insert(article: Path, where: str, paragraph: str) -> int:
    """Write `paragraph` into `article` after its first paragraph of prose (`where` "first")
    or before its last `## ` heading ("last"); returns the line it starts at."""
    lines = article.read_text(encoding="utf-8").split("\n")
    if where == "first":
        at = lines.index("---", 1) + 1      # below the front matter
        while not lines[at].strip() or _NOT_PROSE.match(lines[at]):
            at += 1
        while lines[at].strip():
            at += 1
    else:
        at = max(i for i, line in enumerate(lines) if line.startswith("## "))
    lines[at:at] = ["", *paragraph.split("\n"), ""]
    article.write_text("\n".join(lines), encoding="utf-8")
    return at + 2


def _errors(proc: subprocess.CompletedProcess[str]) -> list[str]:
    assert proc.returncode == 1, proc.stderr
    return [line for line in proc.stderr.splitlines() if line.startswith("error: ")]


def _article(project: Path, lang: str) -> Path:
    return project / "content" / lang / "index.md"


def _languages(project: Path) -> list[str]:
    """The first two languages of site.toml (the first is the reference of the others)."""
    from sqrtdk.settings import load_settings
    return list(load_settings(project / "content").languages[:2])


def _placed(project: Path, mistakes: list[tuple[str, str, str, str]]) -> list[tuple[str, str]]:
    """Write each mistake (language, where, paragraph, what the build says about it) into its
    article (`_insert`, in this order: write a file's "first" one before its "last" one);
    returns (`path:line`, what is said) of each, sorted as the build lists them."""
    placed = [(f"content/{lang}/index.md", _insert(_article(project, lang), where, text), says)
              for lang, where, text, says in mistakes]
    return [(f"{path}:{line}", says) for path, line, says in sorted(placed)]


def _named(errors: list[str]) -> list[str]:
    """The `path:line` each error line names."""
    return [e[len("error: "):].split(": ", 1)[0] for e in errors]


@pytest.mark.parametrize("kind", ["quotes", "formulas and links"])
def test_one_build_names_every_independent_mistake_at_its_line(project: Path, kind: str
                                                               ) -> None:
    """Two mistakes in two places of one language and one in the other: one build names all
    three, each at its line, sorted by file then line, and writes nothing. `quotes`: an
    unknown result in each (the articles are read on their own, each paragraph's quotes too);
    `formulas and links`: invalid TeX and a link to no anchor (each formula and each link is
    checked on its own)."""
    before = tree(project / "site")
    first, second = _languages(project)
    if kind == "quotes":
        mistakes = [(first, "first", "A {{ spread.sd_smal | fixed(2) }} here.",
                     "did you mean 'spread.sd_small'"),
                    (first, "last", "B {{ spread.nope | fixed(2) }} there.",
                     "no result 'spread.nope'"),
                    (second, "first", "C {{ spread.nah | fixed(2) }}.", "no result 'spread.nah'")]
    else:
        mistakes = [(first, "first", "A $\\fraq{1}{2}$ here.", "invalid TeX $\\fraq{1}{2}$"),
                    (first, "last", "See [this](#no-such-anchor-here).",
                     "has no anchor '#no-such-anchor-here'"),
                    (second, "first", "C $x^2^3$.", "invalid TeX $x^2^3$")]
    wanted = _placed(project, mistakes)
    errors = _errors(run(project, check=False))
    assert _named(errors) == [at for at, _ in wanted], errors
    for line, (_, says) in zip(errors, wanted, strict=True):
        assert says in line, errors
    assert tree(project / "site") == before


def test_a_mistake_that_swallows_the_rest_of_its_file_stops_that_file_only(project: Path
                                                                          ) -> None:
    """A code fence left open after the first paragraph swallows everything below it: the
    fence is named, the mistake written below it in that file is not; the other file's
    mistake still is."""
    first, second = _languages(project)
    wanted = _placed(project, [(first, "first", "```python\nx = 1", "is not closed"),
                               (first, "last", "B {{ spread.nope | fixed(2) }}.", ""),
                               (second, "first", "C {{ spread.nah | fixed(2) }}.", "spread.nah")])
    errors = _errors(run(project, check=False))
    assert _named(errors) == [at for at, says in wanted if says], errors
    assert "spread.nope" not in "\n".join(errors), errors


def test_a_build_with_many_mistakes_lists_twenty_and_says_how_many_more(project: Path) -> None:
    from sqrtdk.errors import MOST_ERRORS
    first = _languages(project)[0]
    extra = 3
    _insert(_article(project, first), "first", "\n\n".join(
        f"Mistake {{{{ spread.nope{n} | fixed(2) }}}}." for n in range(MOST_ERRORS + extra)))
    errors = _errors(run(project, check=False))
    assert len(errors) == MOST_ERRORS + 1, errors
    assert all(f"content/{first}/index.md:" in e for e in errors[:-1]), errors
    assert errors[-1].startswith(f"error: {extra} more mistake(s) not shown"), errors


def test_strict_lists_every_warning_as_an_error_at_its_line(project: Path) -> None:
    """Three warnings in two files (two labels no figure draws, a front-matter key no page
    reads): --strict names each as an error at its line, sorted, then says why; nothing is
    written, and without --strict the build passes."""
    before = tree(project / "site")
    first, second = _languages(project)
    toml = project / "content" / first / "figures.toml"
    text = toml.read_text(encoding="utf-8")
    tables = [m for m in re.finditer(r"^\[(\w+)\][ \t]*(?:#.*)?$", text, re.M)
              if m.group(1) not in ("style", "card")][:2]
    assert len(tables) == 2, "figures.toml has fewer than two figure tables"
    for m in reversed(tables):
        text = text[:m.end()] + "\nunused_by_the_test = \"x\"" + text[m.end():]
    toml.write_text(text, encoding="utf-8")
    labels = [n + 1 for n, line in enumerate(text.split("\n"))
              if line.startswith("unused_by_the_test")]
    md = _article(project, second)
    md.write_text(md.read_text(encoding="utf-8").replace("---\n", "---\ndate: 2024-01-01\n", 1),
                  encoding="utf-8")
    errors = _errors(run(project, "--strict", check=False))
    assert _named(errors[:3]) == sorted([f"content/{first}/figures.toml:{labels[0]}",
                                         f"content/{first}/figures.toml:{labels[1]}",
                                         f"content/{second}/index.md:2"]), errors
    assert all(": warning: " in e for e in errors[:3]), errors
    assert sum("unused_by_the_test" in e for e in errors) == 2, errors
    assert sum("'date:'" in e for e in errors) == 1, errors
    assert len(errors) == 4 and "--strict makes the 3 warning(s)" in errors[3], errors
    assert tree(project / "site") == before
    assert run(project).returncode == 0


@pytest.mark.parametrize("kind", ["TOML syntax", "a misspelt label"])
def test_each_language_s_figures_toml_mistake_is_named_in_one_build(project: Path,
                                                                     kind: str) -> None:
    """The files around the articles are read on their own too: a mistake in each language's
    figures.toml (a line TOML refuses, or a figure's label misspelt) names both files."""
    wanted = []
    for lang in sorted(_languages(project)):
        toml = project / "content" / lang / "figures.toml"
        text = toml.read_text(encoding="utf-8")
        if kind == "TOML syntax":
            text += "\nthis line = is not toml\n"
            line = text.count("\n")
        else:
            m = re.search(r"^\[(?!style\]|card\])(\w+)\]\n(\w+) = ", text, re.M)
            assert m, "figures.toml has no figure table"
            text = text[:m.start(2)] + m[2] + "x" + text[m.end(2):]
            line = text.count("\n", 0, m.start(2)) + 1
        toml.write_text(text, encoding="utf-8")
        wanted.append(f"content/{lang}/figures.toml:{line}")
    errors = _errors(run(project, check=False))
    assert _named(errors) == wanted, errors


def test_a_heading_only_one_language_has_is_told_once_not_again_at_its_links(
        project: Path) -> None:
    """A heading whose id one language changed: the languages differ there (one mistake, at
    the heading), and a link to the old id in that language, which would now miss, is not
    told as a second mistake of its own."""
    first, second = _languages(project)
    md = _article(project, second)
    lines = md.read_text(encoding="utf-8").split("\n")
    n, m = next((i, m) for i, line in enumerate(lines)
                if (m := re.match(r"^## .*\{#([\w-]+)\}\s*$", line)))
    ident = m.group(1)
    lines[n] = lines[n].replace(f"{{#{ident}}}", f"{{#{ident}-renamed}}")
    md.write_text("\n".join(lines), encoding="utf-8")
    for lang in (first, second):
        _insert(_article(project, lang), "first", f"See [there](#{ident}).")
    errors = _errors(run(project, check=False))
    assert len(errors) == 1 and "heading ids differ" in errors[0], errors
    assert "no anchor" not in errors[0], errors


def test_a_missing_sweep_is_said_before_the_quotes_it_fails(project: Path) -> None:
    """figures/sweep.json deleted: every quote of a sweep.* result failed ('no result
    'sweep.n_seeds'; there are no results in sweep'), and the warning that says why (the
    file is missing; how to restore it) was held back by the pages checked first and never
    printed. It comes before the errors now."""
    for lang in ("en", "zh"):     # a quote of the sweep, whatever the article quotes now
        article = _article(project, lang)
        article.write_text(article.read_text(encoding="utf-8").rstrip("\n")
                           + "\n\n{{ sweep.n_seeds | grouped }}\n", encoding="utf-8")
    (project / "figures" / "sweep.json").unlink()
    proc = run(project, check=False)
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = proc.stderr.splitlines()
    said = [i for i, line in enumerate(lines) if line.startswith("figures/sweep.json:")
            and "warning" in line]
    errors = [i for i, line in enumerate(lines) if line.startswith("error: ")]
    assert said and errors and said[0] < errors[0], proc.stderr


def test_a_file_the_templates_load_from_static_missing_is_told_once_at_it(
        project: Path) -> None:
    """static/style.css deleted (or its name misspelt in a template) was told on every page
    (17 lines), and on each article page at the article ('content/en/index.md: link to
    '../assets/style.css'…'), which has no such link. It is one line at the file of static/
    the templates load, with the closest published name; a layout's other faults are told
    at templates/, not at the article."""
    (project / "static" / "style.css").unlink()
    base = project / "templates" / "base.html"
    text = base.read_text(encoding="utf-8")
    assert "assets/theme.js" in text
    base.write_text(text.replace("assets/theme.js", "assets/them.js"), encoding="utf-8")
    before = tree(project / "site")
    proc = run(project, check=False)
    assert "Traceback" not in proc.stderr, proc.stderr
    errors = _errors(proc)
    assert [e.split(":")[1].strip() for e in errors] == ["static/style.css", "static/them.js"], \
        errors
    assert "did you mean 'theme.js'?" in errors[1], errors
    assert not any("content/" in e for e in errors), errors
    assert tree(project / "site") == before


def test_a_style_rule_a_browser_would_drop_stops_the_build_at_its_line(project: Path) -> None:
    """A misspelt pseudo-class in static/style.css (`a:hvoer`) passed esbuild and the build
    published a sheet whose rule no browser applies, exit 0. stylelint's check stops the
    build at the line; its advice for a line the browser does accept (the disable comment
    above it) builds."""
    sheet = project / "static" / "style.css"
    text = sheet.read_text(encoding="utf-8").rstrip("\n") + "\n"
    line = text.count("\n") + 1
    sheet.write_text(text + "a:hvoer { color: red; }\n", encoding="utf-8")
    before = tree(project / "site")
    proc = run(project, check=False)
    assert "Traceback" not in proc.stderr, proc.stderr
    errors = _errors(proc)
    assert len(errors) == 1 and f"static/style.css:{line}:" in errors[0], errors
    assert ":hvoer" in errors[0], errors
    assert tree(project / "site") == before
    advice = re.search(r"'(/\* stylelint-disable-next-line [a-z-]+ \*/)'", errors[0])
    assert advice, errors
    sheet.write_text(text + advice.group(1) + "\na:hvoer { color: red; }\n", encoding="utf-8")
    run(project)


@pytest.mark.parametrize("module", ["science/*.py", "figures/*.py", "web/fig_tables.py"])
def test_a_module_python_cannot_parse_is_told_at_its_line(project: Path, module: str) -> None:
    """A comma too many in an experiment, figure or figure-table module (the modules README's
    recipes have an author edit) stopped the build with a SyntaxError's traceback of 49
    lines from the figures' cache key, which parses every figure module's imports. Now it is
    one line at the line Python names, before any work, and the site is left as it was."""
    path = next(p for p in sorted((project / "sqrtdk").glob(module))
                if not p.name.startswith("_"))
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.lstrip().startswith("def "))
    lines[at] = lines[at].replace("(", "(,", 1)
    path.write_text("".join(lines), encoding="utf-8")
    before = tree(project / "site")
    proc = run(project, check=False)
    assert "Traceback" not in proc.stderr, proc.stderr
    rel = path.relative_to(project).as_posix()
    errors = _errors(proc)
    assert len(errors) == 1 and errors[0].startswith(f"error: {rel}:{at + 1}: "), errors
    assert errors[0].endswith("; fix the code"), errors
    assert tree(project / "site") == before


@pytest.mark.parametrize("folder", ["science", "figures"])
def test_a_module_saved_in_another_encoding_is_told_at_its_line(project: Path,
                                                                 folder: str) -> None:
    """An experiment or figure module saved as Latin-1 with its coding line imports, but the
    build reads the modules as text too (published, quoted, parsed): it stopped with a
    UnicodeDecodeError's traceback at the site stage. Now the first byte that is not UTF-8
    is told at its line, before any work, and the site is left as it was."""
    module = next(p for p in sorted((project / "sqrtdk" / folder).glob("*.py"))
                  if not p.name.startswith("_"))
    text = module.read_text(encoding="utf-8")
    module.write_bytes(("# -*- coding: latin-1 -*-\n# caf\u00e9\n" + text).encode("latin-1",
                                                                            "replace"))
    before = tree(project / "site")
    proc = run(project, check=False)
    assert "Traceback" not in proc.stderr, proc.stderr
    rel = module.relative_to(project).as_posix()
    assert _errors(proc) == [f"error: {rel}:2: not UTF-8 (byte 0xe9); save the file as UTF-8"]
    assert tree(project / "site") == before


def test_a_misspelt_snippet_source_is_told_at_its_registration_in_the_next_build_too(
        project: Path) -> None:
    """A Snippet registered with a misspelt experiment module (its box's link) stops the
    build at its registration; building again with nothing changed told the box's broken
    link instead (the pages are checked first against the results the first build cached,
    and the registration was checked only in the science stage). Both builds tell the
    registration, and only it."""
    boxes = project / "sqrtdk" / "science" / "reproduce_boxes.py"
    text = boxes.read_text(encoding="utf-8")
    found = re.search(r'^SNIPPETS\.register\(Snippet\("\w+", [^,]+, "(\w+)\.py"', text, re.M)
    assert found, text
    line = text[:found.start()].count("\n") + 1
    boxes.write_text(text[:found.start(1)] + found[1] + "x" + text[found.end(1):],
                     encoding="utf-8")
    for _ in range(2):
        done = run(project, check=False)
        errors = [e for e in done.stderr.splitlines() if e.startswith("error: ")]
        assert done.returncode == 1 and errors, done.stderr
        assert errors[0].startswith(f"error: sqrtdk/science/reproduce_boxes.py:{line}: ") \
            and f"'{found[1]}x.py'" in errors[0], done.stderr
        assert not any("link to" in e for e in errors), done.stderr


def test_a_misspelt_label_key_of_a_figure_module_is_told_once(project: Path) -> None:
    """A label key misspelt in a figure module's `@figure(…, labels={…})` (its drawing and
    every figures.toml use the right one) was told once per language: the same line of the
    module twice, each naming its figures.toml. It is one line at the @figure line, naming
    every language's figures.toml line."""
    found = None
    for module in sorted((project / "sqrtdk" / "figures").glob("*.py")):
        text = module.read_text(encoding="utf-8")
        found = re.search(r'labels=\{"(\w+)": ', text)
        if found and f't("{found[1]}")' in text:
            break
    assert found, "no figure module registers a label its drawing asks for by t(\"…\")"
    module.write_text(text[:found.start(1)] + found[1] + "x" + text[found.end(1):],
                      encoding="utf-8")
    done = run(project, check=False)
    errors = [e for e in done.stderr.splitlines() if e.startswith("error: ")]
    assert done.returncode == 1 and errors, done.stderr
    told = [e for e in errors if f"registers '{found[1]}x'" in e]
    assert len(told) == 1, done.stderr
    assert told[0].startswith(f"error: sqrtdk/figures/{module.name}:"), done.stderr
    tomls = sorted(project.glob("content/*/figures.toml"))
    assert all(f"{p.relative_to(project).as_posix()}:" in told[0] for p in tomls), told


def test_the_readme_s_parameter_example_is_written_as_the_code_writes_it() -> None:
    """README's "Add an experiment" says where a parameter's default is edited, with one
    field as the example (`n_rows: int = valid(10_000, …)` in `JacobianParams` of
    `saturation.py`). The field, its class and module exist, the default is the field's, and
    it is written as the code writes it: a field declared with `valid(…)` (registry.valid)
    shown as a bare `= 10_000` sent an author looking for a line the module does not have."""
    import dataclasses
    import importlib
    import inspect
    readme = (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")
    said = re.search(r"To change a parameter of an experiment that exists, .*?\(.*?`(\w+): (\w+) = "
                     r"(valid\()?([\d_.]+)[^`]*` in `(\w+)` of `(\w+)\.py`", readme, re.S)
    assert said, "README's parameter example not found"
    field, kind, valid, default, cls_name, module = said.groups()
    cls = getattr(importlib.import_module(f"sqrtdk.science.{module}"), cls_name)
    fld = next(f for f in dataclasses.fields(cls) if f.name == field)
    assert getattr(fld.type, "__name__", fld.type) == kind, (fld.type, kind)
    assert fld.default == float(default.replace("_", "")), (fld.default, default)
    code = re.search(rf"^\s+{field}: {kind} = (\S*)", inspect.getsource(cls), re.M)
    assert code and code[1].startswith("valid(") == bool(valid), (code and code[0], said[0])
