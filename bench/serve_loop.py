"""Serve-loop latency: from saving the Markdown to the open browser page showing the new text.

Runs a development server (`build.py --serve --port N --out OUT` on a project copy, or
`hugo server` on the Hugo copy), opens the English page in Debian's chromium through
Playwright, scrolls it to the middle, then, run after run, appends a sentence to the English
article and polls the page's DOM (every 5 ms) until its text contains the sentence. The time
covers the watcher's debounce, the rebuild, the event to the page, and the page's reload or
in-place patch. Each run also records whether the page was reloaded (a property set on
`window` before the edit is gone) and how far the view moved (scrollY, at the moment the text
shows and 300 ms later, the larger).
"""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

from timing import CommandFailed, Series
from workspace import EDITED_ARTICLE, PROJECT_PYTHON, append_sentence, free_port

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]
SHOWS = "s => document.body !== null && document.body.textContent.includes(s)"
_TOTAL = re.compile(r"^total\s+([\d.]+) s", re.M)


def available(help_text: str) -> bool:
    """Whether build.py has `--serve` and `--port`."""
    return "--serve" in help_text and "--port" in help_text


def _wait_http(url: str, proc: subprocess.Popen, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise CommandFailed(f"{Path(proc.args[0]).name} exited {proc.returncode} before "
                                "serving")
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            time.sleep(0.1)
    raise CommandFailed(f"nothing served at {url} within {timeout:.0f} s")


def _stop(proc: subprocess.Popen) -> None:
    """Ctrl+C the server's process group (it was started in its own session), then kill it."""
    if proc.poll() is not None:
        return
    os.killpg(proc.pid, signal.SIGINT)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


MARK = "() => { window.benchKept = 1; return scrollY; }"
KEPT = "() => [window.benchKept === 1, scrollY]"


def _time_edits(page, article: Path, runs: int, tag: str, timeout: float = 20.0) -> Series:
    from playwright.sync_api import Error as PlaywrightError
    series = Series(extras={"reloaded": [], "scroll_moved_px": []})
    page.evaluate("() => scrollTo(0, document.body.scrollHeight / 2)")
    for i in range(runs):
        time.sleep(1.0)   # let a reloaded page reconnect to the event stream
        before = page.evaluate(MARK)
        sentence = append_sentence(article, f"{tag} serve {i}")
        t0 = time.perf_counter()
        while True:
            try:
                if page.evaluate(SHOWS, sentence):
                    break
            except PlaywrightError:
                pass      # the page is being reloaded: its context went away
            if time.perf_counter() - t0 > timeout:
                raise CommandFailed(f"the page did not show the edit within {timeout:.0f} s")
            time.sleep(0.005)
        series.times.append(time.perf_counter() - t0)
        kept, y = page.evaluate(KEPT)
        page.wait_for_load_state("load")
        time.sleep(0.3)
        y_later = page.evaluate(KEPT)[1]
        series.extras["reloaded"].append(0.0 if kept else 1.0)
        series.extras["scroll_moved_px"].append(max(abs(y - before), abs(y_later - before)))
    return series


def measure(project: Path, out: Path, runs: int, log_file: Path) -> tuple[Series, list[float]]:
    """Time `runs` edits in our serve loop; returns the series and the rebuild times the
    server's builds reported ('total' lines, the first being the initial build)."""
    port = free_port()
    cmd = [str(PROJECT_PYTHON), "build.py", "--serve", "--port", str(port), "--out", str(out)]
    series = measure_server(cmd, project, f"http://127.0.0.1:{port}/en/",
                            project / EDITED_ARTICLE, runs, log_file, "ours")
    return series, [float(t) for t in _TOTAL.findall(log_file.read_text(encoding="utf-8"))]


def measure_hugo(site: Path, hugo: Path, runs: int, log_file: Path) -> Series:
    """Time `runs` edits with `hugo server` (its own watcher, in-memory rebuild and
    livereload) on the Hugo copy of the articles."""
    port = free_port()
    cmd = [str(hugo), "server", "--port", str(port), "--bind", "127.0.0.1",
           "--cacheDir", str(site / "hugo-cache")]
    return measure_server(cmd, site, f"http://127.0.0.1:{port}/en/",
                          site / "content" / "en" / "index.md", runs, log_file, "hugo")


def measure_server(cmd: list[str], cwd: Path, url: str, article: Path, runs: int,
                   log_file: Path, tag: str) -> Series:
    """Start the server `cmd` in `cwd`, open `url` in chromium, and time `runs` appended
    sentences in `article` until the page shows each; the server is stopped afterwards."""
    from playwright.sync_api import sync_playwright
    chromium = shutil.which("chromium")   # Debian's package: apt-get install chromium
    if chromium is None:
        raise CommandFailed("no chromium on PATH (apt-get install chromium)")
    with log_file.open("w", encoding="utf-8") as log:
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)
    try:
        _wait_http(url, proc, timeout=120)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, headless=True,
                                         args=CHROMIUM_ARGS)
            try:
                page = browser.new_page()
                page.goto(url, wait_until="load")
                series = _time_edits(page, article, runs, tag)
            finally:
                browser.close()
    finally:
        _stop(proc)
    series.note = ("save -> the page's DOM contains the edit (watch, rebuild, event, reload or "
                   "in-place patch); page scrolled to its middle")
    return series
