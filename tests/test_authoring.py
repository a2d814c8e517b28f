"""The author's loop: caching, text-only rebuilds, interrupted builds, --serve, --check, and the
link checks. Most tests run build.py on a copy of the project in tmp_path, so they can edit the
content and kill builds without touching the real tree."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from sqrtdk import config
from sqrtdk.assemble import Site
from sqrtdk.checks import check_site
from sqrtdk.errors import BuildError
from sqrtdk.pages import build_page, load_strings

PY = sys.executable


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    """A copy of the project's files (tracked and new, not ignored) with node_modules linked
    and the cache copied, built once."""
    dest = tmp_path_factory.mktemp("project")
    files = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                           cwd=config.ROOT, capture_output=True, text=True, check=True).stdout
    for rel in files.split():
        src = config.ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)
    (dest / "node_modules").symlink_to(config.NODE_MODULES)
    if config.CACHE_DIR.is_dir():
        shutil.copytree(config.CACHE_DIR, dest / ".cache")
    run(dest)
    return dest


def run(root: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    proc = subprocess.run([PY, "build.py", *args], cwd=root, capture_output=True, text=True)
    if check:
        assert proc.returncode == 0, proc.stderr
    return proc


def test_unchanged_rebuild_uses_every_cache(project):
    out = run(project).stdout
    assert "(cached)" in out.splitlines()[0]
    assert "0 drawn, 16 cached" in out
    assert "0 converted, 2 cached" in out


def test_text_only_edit_imports_neither_matplotlib_nor_numpy(project):
    md = project / "content" / "en" / "index.md"
    original = md.read_text(encoding="utf-8")
    md.write_text(original + "\nOne more sentence for the test.\n", encoding="utf-8")
    try:
        code = ("import runpy, sys; sys.argv = ['build.py']\n"
                "try:\n    runpy.run_path('build.py', run_name='__main__')\n"
                "except SystemExit as e:\n    assert not e.code, e.code\n"
                "print('LOADED', sorted(m for m in ('matplotlib', 'numpy', 'sqrtdk.experiments')"
                " if m in sys.modules))")
        proc = subprocess.run([PY, "-c", code], cwd=project, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
        assert "LOADED []" in proc.stdout
        assert "1 converted, 1 cached" in proc.stdout
        html = (project / "site" / "en" / "index.html").read_text(encoding="utf-8")
        assert "One more sentence for the test." in html
    finally:
        md.write_text(original, encoding="utf-8")
        run(project)


def test_corrupt_cache_entries_are_rebuilt_not_used(project):
    before = _tree(project / "site")
    for entry in (project / ".cache" / "figures").iterdir():
        if entry.suffix != ".json":
            entry.write_bytes(b"<svg>not what was stored</svg>")   # bytes no longer match
    for entry in (project / ".cache" / "results").iterdir():
        if entry.suffix != ".json":
            entry.write_bytes(entry.read_bytes()[:-100])            # truncated
    out = run(project).stdout
    assert "16 drawn, 0 cached" in out and "(ran)" in out
    assert _tree(project / "site") == before


def test_interrupted_build_leaves_the_site_byte_identical(project):
    before = _tree(project / "site")
    proc = subprocess.Popen([PY, "build.py", "--no-cache"], cwd=project, stdout=subprocess.PIPE,
                            text=True, start_new_session=True)
    first = proc.stdout.readline()            # "experiments ..." is printed when figures start
    assert first.startswith("experiments")
    time.sleep(0.3)                           # well inside the figure stage (about 1.5 s)
    os.killpg(proc.pid, signal.SIGKILL)       # the build and its worker processes
    proc.wait()
    assert _tree(project / "site") == before
    assert not [p for p in project.iterdir() if p.name.startswith(".site-")]


def test_check_builds_twice_and_compares(project):
    out = run(project, "--check").stdout
    assert "byte-identical" in out


def test_clean_deletes_only_what_the_build_made(project, tmp_path):
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "keep.txt").write_text("x")
    proc = run(project, "--clean", "--out", str(foreign), check=False)
    assert proc.returncode == 1 and "keep" not in proc.stderr
    assert (foreign / "keep.txt").exists()
    built = tmp_path / "built"
    run(project, "--out", str(built))
    run(project, "--clean", "--out", str(built))
    assert not built.exists()


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as r:
        return r.read().decode("utf-8")


def test_serve_rebuilds_reloads_and_keeps_the_last_good_site(project):
    port = _free_port()
    server = subprocess.Popen([PY, "build.py", "--serve", "--port", str(port)], cwd=project,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              start_new_session=True)
    md = project / "content" / "en" / "index.md"
    original = md.read_text(encoding="utf-8")
    try:
        _wait(lambda: "Ctrl+C" in _get_or_empty(f"http://127.0.0.1:{port}/__reload/client.js")
              or _get_or_empty(f"http://127.0.0.1:{port}/en/index.html"))
        page = _get(f"http://127.0.0.1:{port}/en/index.html")
        assert '<script src="/__reload/client.js"></script></body>' in page
        assert "__reload" not in (project / "site" / "en" / "index.html").read_text("utf-8")
        events = urllib.request.urlopen(f"http://127.0.0.1:{port}/__reload/events", timeout=20)
        md.write_text(original.replace("What slips past", "Edited: what slips past"), "utf-8")
        assert _next_event(events) == "reload"
        assert "Edited: what slips past" in _get(f"http://127.0.0.1:{port}/en/index.html")
        md.write_text(original.replace("$d_k$", r"$\frac{d_k$", 1), "utf-8")
        assert _next_event(events) == "failed"
        assert "Edited: what slips past" in _get(f"http://127.0.0.1:{port}/en/index.html")
    finally:
        md.write_text(original, encoding="utf-8")
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=10)
        run(project)


def _next_event(stream) -> str:
    while True:
        line = stream.readline().decode("utf-8")
        if line.startswith("event: "):
            return line[len("event: "):].strip()


def _get_or_empty(url: str) -> str:
    try:
        return _get(url)
    except OSError:
        return ""


def _wait(ready, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if ready():
            return
        time.sleep(0.1)
    raise AssertionError("server did not come up")


def _free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --- link and resource checks on the assembled site -----------------------------------------

def _site_with(tmp_path: Path, body: str) -> tuple[Site, list, Path]:
    results = __import__("json").loads((config.FIGURES_DIR / "results.json").read_text("utf-8"))
    path = tmp_path / "index.md"
    path.write_text("---\ntitle: T\ndescription: D\n---\n\n" + body, encoding="utf-8")
    page = build_page(path, "en", results, load_strings(config.CONTENT_DIR, "en"),
                      lambda name: (_ for _ in ()).throw(KeyError(name)))
    site = Site(files={"en/index.html": page.body.encode("utf-8")})
    return site, [page], path


def test_link_to_a_missing_anchor(tmp_path):
    site, pages, path = _site_with(tmp_path, "## A {#a}\n\nSee [b](#b).\n")
    with pytest.raises(BuildError) as e:
        check_site(site, pages)
    assert str(e.value) == f"{path.as_posix()}:8: link to '#b', an anchor the page does not have"


def test_link_to_a_missing_file(tmp_path):
    site, pages, path = _site_with(tmp_path, "## A {#a}\n\nText.\n\nSee [b](../nowhere.html).\n")
    with pytest.raises(BuildError) as e:
        check_site(site, pages)
    assert str(e.value).startswith(f"{path.as_posix()}:10: link to '../nowhere.html'")


def test_external_resource_is_refused(tmp_path):
    site, pages, path = _site_with(tmp_path, "## A {#a}\n\nAn ![x](https://example.org/x.png) inline.\n")
    with pytest.raises(BuildError) as e:
        check_site(site, pages)
    assert str(e.value).startswith(f"{path.as_posix()}:8: external resource")


def test_external_link_is_allowed(tmp_path):
    site, pages, _ = _site_with(tmp_path, "## A {#a}\n\nSee [the paper](https://arxiv.org/abs/1706.03762).\n")
    check_site(site, pages)


def test_external_url_in_a_style_is_refused(tmp_path):
    site, pages, path = _site_with(
        tmp_path, '## A {#a}\n\n<div style="background:url(https://example.org/x.png)">x</div>\n')
    with pytest.raises(BuildError) as e:
        check_site(site, pages)
    assert str(e.value).startswith(f"{path.as_posix()}:8: external resource "
                                   "'https://example.org/x.png' in a style")


@pytest.mark.parametrize("folder", ["static/built", "content/en/out", "figures/x"])
def test_out_inside_a_source_folder_is_refused(folder):
    from sqrtdk.output import check_out_dir
    with pytest.raises(BuildError) as e:
        check_out_dir(config.ROOT / folder)
    assert "inside a source folder" in str(e.value)


def test_serve_on_a_busy_port_is_one_line(project):
    import socket
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        proc = run(project, "--serve", "--port", str(port), check=False)
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines() == [
        f"error: 127.0.0.1:{port}: cannot serve here (Address already in use); "
        "choose another --port, or 0 for any free port"]


def test_another_seed_leaves_the_committed_figures_alone(project):
    before = _tree(project / "figures")
    run(project, "--seed", "7", "--out", str(project / "site-seed-7"))
    assert _tree(project / "figures") == before
    assert (project / ".cache" / "seed-7" / "figures" / "results.json").is_file()
