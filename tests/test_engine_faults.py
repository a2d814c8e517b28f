"""Faults of the build engine, each pinned by the case that showed it: a new language's
first build converts its pages once; Ctrl+C stops a build with one line, also while KaTeX
typesets; the benchmarks' plain Markdown reads the results and the sweep as the build does."""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from helpers import copy_project_files, default_signals

PY = sys.executable


def build(root: Path) -> str:
    proc = subprocess.run([PY, "build.py"], cwd=root, capture_output=True, encoding="utf-8",
                          check=False)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def conversions(out: str) -> list[int]:
    """The pages each `pages` line of a build's log says it converted (the check against
    the figures on disk, and a second time when the real figures differ)."""
    return [int(n) for n in re.findall(r"^pages\s+[\d.]+ s\s+\((\d+) converted", out, re.M)]


def add_language(project: Path, lang: str, like: str) -> None:
    """A language `lang` whose folder is a copy of `like`'s (so its figure labels equal that
    language's), added to site.toml's languages."""
    content = project / "content"
    shutil.copytree(content / like, content / lang)
    strings = content / lang / "strings.toml"
    text = re.sub(r'^html_lang = "[^"]*"', f'html_lang = "{lang}"',
                  strings.read_text(encoding="utf-8"), flags=re.M)
    text = re.sub(r'^og_locale = "[^"]*"', f'og_locale = "{lang}_XX"', text, flags=re.M)
    for key in ("name", "switch_to"):     # its own, as every language's (settings.DISTINCT)
        text = re.sub(rf'^{key} = "[^"]*"', f'{key} = "{key} {lang}"', text, flags=re.M)
    strings.write_text(text, encoding="utf-8")
    site = content / "site.toml"
    site.write_text(re.sub(r"^languages = \[(.*)\]", rf'languages = [\1, "{lang}"]',
                           site.read_text(encoding="utf-8"), flags=re.M), encoding="utf-8")


def test_a_new_language_whose_labels_equal_anothers_converts_its_pages_once(
        tmp_path: Path, site_build: dict[str, Any], built_project: Path) -> None:
    """Its figures are the other language's drawings (figures_stage), so the check before
    the figures (early.figures_on_disk) knows their sizes: the pages it made are the build's,
    not made a second time once the figures are drawn. In a copy of the session's built
    project (conftest's `built_project`: the files, the session build's cache, one build)."""
    project = tmp_path / "p"
    shutil.copytree(built_project, project, symlinks=True)
    like = site_build["languages"][-1]
    add_language(project, "fr", like)
    out = build(project)
    assert len(conversions(out)) == 1 and "again" not in out, out
    assert conversions(out) == [1], out        # the new language's page, the others cached
    fr = sorted(f.name for f in (project / "figures").iterdir() if ".fr." in f.name)
    assert fr and all((project / "figures" / f).read_bytes() ==
                      (project / "figures" / f.replace(".fr.", f".{like}.")).read_bytes()
                      for f in fr)


# a process that starts the KaTeX worker, waits while the test presses Ctrl+C (SIGINT to
# its whole process group, as a terminal sends it), and typesets once more when told to
_TYPESET_AROUND_CTRL_C = """
import signal, sys
from pathlib import Path
from sqrtdk.web.math import renderer
from sqrtdk.web.math.formula import Formula
seen = []
signal.signal(signal.SIGINT, lambda *_: seen.append(1))    # a build about to act on it
math = renderer("katex", Path(sys.argv[1]), None)
math.render([Formula(("x^2",), False, 1, "x^2", 1)])          # the worker is running
print("ready", flush=True)
sys.stdin.readline()
print(len(seen), len(math.render([Formula(("y^2",), False, 2, "y^2", 2)])[0].html) > 0)
math.close()
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="process groups, /proc")
def test_ctrl_c_reaches_the_build_not_its_katex_worker(tmp_path: Path) -> None:
    """Ctrl+C goes to the terminal's whole process group: the KaTeX worker (node) must not
    be in it, or it dies before the build acts on the signal, and the build, reading its
    answers, reports a dead worker (a RuntimeError's traceback, and the writer thread's
    BrokenPipeError) instead of stopping with one line. The worker ends when the build
    does (its stdin closes)."""
    from sqrtdk.options import PROJECT_ROOT
    script = tmp_path / "typeset.py"
    script.write_text(_TYPESET_AROUND_CTRL_C, encoding="utf-8")
    proc = subprocess.Popen([PY, str(script), str(PROJECT_ROOT / "node_modules")],
                            cwd=PROJECT_ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, encoding="utf-8", start_new_session=True,
                            preexec_fn=default_signals,
                            env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)})
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready"
    node = [k for k in _children(proc.pid) if "node" in _cmdline(k)]
    assert len(node) == 1
    os.killpg(proc.pid, signal.SIGINT)
    time.sleep(0.5)
    assert _state(node[0]) not in ("", "Z"), "the KaTeX worker died of the build's Ctrl+C"
    out, err = proc.communicate(input="\n", timeout=120)
    assert proc.returncode == 0 and out.split() == ["1", "True"], err
    assert _state(node[0]) in ("", "Z")                    # it ended with the build


def _state(pid: int) -> str:
    """A process's state letter from /proc ('Z': ended, not yet reaped; '': gone)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return ""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="process groups, /proc")
def test_ctrl_c_while_typesetting_stops_with_one_line(tmp_path: Path,
                                                      site_build: dict[str, Any],
                                                      built_project: Path) -> None:
    """Ctrl+C (SIGINT to the build's process group) while KaTeX typesets every formula anew:
    exit 130, one line, no traceback, site/ as it was and no temporary folder left. In a
    copy of the session's built project (conftest's `built_project`)."""
    project = tmp_path / "p"
    shutil.copytree(built_project, project, symlinks=True)
    before = {p.relative_to(project).as_posix(): p.read_bytes()
              for p in sorted((project / "site").rglob("*")) if p.is_file()}
    shutil.rmtree(project / ".cache" / "math")           # every formula typeset again
    article = project / "content" / site_build["languages"][0] / "index.md"
    article.write_text(article.read_text(encoding="utf-8") + "\nOne more line.\n",
                       encoding="utf-8")
    proc = subprocess.Popen([PY, "build.py"], cwd=project, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, encoding="utf-8", start_new_session=True,
                            preexec_fn=default_signals)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and proc.poll() is None and \
            not any("node" in _cmdline(k) for k in _children(proc.pid)):
        time.sleep(0.01)
    assert proc.poll() is None, "the build ended before its KaTeX worker started"
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 130, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert "interrupted" in err, err
    after = {p.relative_to(project).as_posix(): p.read_bytes()
             for p in sorted((project / "site").rglob("*")) if p.is_file()}
    assert after == before
    assert not [p for p in project.iterdir() if p.name.startswith(".site-")]


def _children(pid: int) -> set[int]:
    """The processes whose parent is `pid` (from /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(stat[1]) == pid:
                found.add(int(entry.name))
    return found


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return ""


@pytest.mark.parametrize("name", ["results.json", "sweep.json"])
def test_the_benchmarks_plain_markdown_refuses_a_hand_edited_output(tmp_path: Path,
                                                                    name: str) -> None:
    """bench/plain_md.py quotes the results for the other generators: through the build's
    own readers, which refuse a file whose digest does not match (json.loads took any)."""
    from sqrtdk.errors import BuildError
    from sqrtdk.options import PROJECT_ROOT
    sys.path.insert(0, str(PROJECT_ROOT / "bench"))
    try:
        from plain_md import resolved_article
    finally:
        sys.path.remove(str(PROJECT_ROOT / "bench"))
    project = copy_project_files(tmp_path / "p")
    lang = "en"
    assert resolved_article(project, lang)           # as committed: read
    output = project / "figures" / name
    text = output.read_text(encoding="utf-8")
    edited = re.sub(r'("n_seeds": |"seed": )(\d+)', lambda m: f"{m[1]}{int(m[2]) + 1}", text,
                    count=1)
    assert edited != text
    output.write_text(edited, encoding="utf-8")
    with pytest.raises(BuildError) as e:
        resolved_article(project, lang)
    assert e.value.path.name == name and "changed since the build wrote it" in e.value.message
