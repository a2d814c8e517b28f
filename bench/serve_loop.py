"""Serve-loop latency: from saving the Markdown to the open browser page showing the new text.

Runs a development server (`build.py --serve --port N --out OUT` on a project copy, or
`hugo server` on the Hugo copy), opens the English page in Debian's chromium through
Playwright, scrolls it to the middle, then, run after run, runs the floor (bench/floor.py, so
the ratio compares runs made in the same rounds), appends a sentence to the English article
and polls the page's DOM (every 5 ms) until its text contains the sentence. The time covers
the watcher's debounce, the rebuild, the event to the page, and the page's reload or in-place
patch. Each run also records whether the page was reloaded (a property set on `window` before
the edit is gone), how far the view moved (scrollY, at the moment the text shows and 300 ms
later, the larger), the CPU time of the server's processes for the edit's whole rebuild, and
for our server where the time went: save -> event at the page, its parse, the morph and the
page's redraw (reload_client.js's `sqrtdkServeTimes`), and the build's own `sent` time (and
`patched`, the fast path's, when it patched the edited blocks ahead of the build).
"""
from __future__ import annotations

import os
import re
import shutil
import signal
import statistics
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

from timing import Case, CommandFailed, Series, children_cpu, run_checked
from workspace import EDITED_ARTICLE, PROJECT_PYTHON, append_sentence, free_port

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]
SHOWS = "s => document.body !== null && document.body.textContent.includes(s)"
_TOTAL = re.compile(r"^total\s+([\d.]+) s", re.M)
_SENT = re.compile(r"^sent\s+([\d.]+) s", re.M)
_PATCHED = re.compile(r"^patched\s+([\d.]+) s", re.M)   # the fast path's (serve_fast)
CLK_TCK = os.sysconf("SC_CLK_TCK")


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
# the page's own record of the last update, as milliseconds since the epoch
STEPS = """() => { const t = window.sqrtdkServeTimes; if (!t) return null;
  const o = performance.timeOrigin;
  return [t.event, t.parsed, t.morphed, t.redrawn].map((v) => (v === undefined ? null : v + o)); }"""
STEP_NAMES = ("save_to_event", "event_to_parsed", "parsed_to_morphed", "morphed_to_redrawn")


def session_cpu(sid: int) -> float:
    """CPU seconds (user + sys) of every live process in session `sid` (the server and its
    KaTeX and worker processes), from /proc; 0 where /proc cannot be read."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == sid:      # fields after the name: state, ppid, pgrp, session …
            total += int(fields[11]) + int(fields[12])
    return total / CLK_TCK


def _time_edits(page, article: Path, runs: int, tag: str, floor: Case | None,
                server_pid: int, timeout: float = 20.0) -> Series:
    from playwright.sync_api import Error as PlaywrightError
    names = ("reloaded", "scroll_moved_px", "server_cpu_s", "floor_s", "floor_cpu_s",
             *STEP_NAMES)
    series = Series(extras={name: [] for name in names})
    page.evaluate("() => scrollTo(0, document.body.scrollHeight / 2)")
    for i in range(runs):
        time.sleep(1.0)   # let a reloaded page reconnect; the last rebuild write its site
        if floor is not None:
            cpu, t0 = children_cpu(), time.perf_counter()
            run_checked(floor.cmd, floor.cwd)
            series.extras["floor_s"].append(time.perf_counter() - t0)
            series.extras["floor_cpu_s"].append(children_cpu() - cpu)
        before, cpu0 = page.evaluate(MARK), session_cpu(server_pid)
        sentence = append_sentence(article, f"{tag} serve {i}")
        saved, t0 = time.time(), time.perf_counter()
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
        steps = page.evaluate(STEPS) if kept else None
        page.wait_for_load_state("load")
        time.sleep(0.3)
        y_later = page.evaluate(KEPT)[1]
        series.extras["reloaded"].append(0.0 if kept else 1.0)
        series.extras["scroll_moved_px"].append(max(abs(y - before), abs(y_later - before)))
        time.sleep(0.7)   # the rest of the rebuild (the site written after the page was sent)
        series.extras["server_cpu_s"].append(session_cpu(server_pid) - cpu0)
        if steps:
            marks = [saved * 1000, *steps]
            for name, a, b in zip(STEP_NAMES, marks, marks[1:]):
                if a is not None and b is not None:     # a patch's redraw may come later
                    series.extras[name].append((b - a) / 1000)
    for name in names:
        if not series.extras[name]:
            del series.extras[name]
    return series


def breakdown(series: Series) -> str:
    """Where the median edit's time went (medians of each step, in ms)."""
    parts = [f"{name.replace('_', ' ')} {statistics.median(v) * 1000:.0f}"
             for name in ("patched", "sent", *STEP_NAMES, "server_cpu_s", "floor_s", "floor_cpu_s")
             if (v := series.extras.get(name))]
    return ", ".join(parts) + " ms" if parts else ""


def measure(project: Path, out: Path, runs: int, log_file: Path,
            floor: Case | None = None) -> tuple[Series, list[float]]:
    """Time `runs` edits in our serve loop, each after a run of `floor`; returns the series
    and the rebuild times the server's builds reported ('total' lines, the first being the
    initial build)."""
    port = free_port()
    cmd = [str(PROJECT_PYTHON), "build.py", "--serve", "--port", str(port), "--out", str(out)]
    series = measure_server(cmd, project, f"http://127.0.0.1:{port}/en/",
                            project / EDITED_ARTICLE, runs, log_file, "ours", floor)
    log = log_file.read_text(encoding="utf-8")
    sent = [float(t) for t in _SENT.findall(log)]
    if len(sent) >= runs:
        series.extras["sent"] = sent[-runs:]
    patched = [float(t) for t in _PATCHED.findall(log)]
    if patched:      # the edits the fast path patched ahead of the build
        series.extras["patched"] = patched[-runs:]
    return series, [float(t) for t in _TOTAL.findall(log)]


def measure_hugo(site: Path, hugo: Path, runs: int, log_file: Path,
                 floor: Case | None = None) -> Series:
    """Time `runs` edits with `hugo server` (its own watcher, in-memory rebuild and
    livereload) on the Hugo copy of the articles."""
    port = free_port()
    cmd = [str(hugo), "server", "--port", str(port), "--bind", "127.0.0.1",
           "--cacheDir", str(site / "hugo-cache")]
    return measure_server(cmd, site, f"http://127.0.0.1:{port}/en/",
                          site / "content" / "en" / "index.md", runs, log_file, "hugo", floor)


def measure_server(cmd: list[str], cwd: Path, url: str, article: Path, runs: int,
                   log_file: Path, tag: str, floor: Case | None = None) -> Series:
    """Start the server `cmd` in `cwd`, open `url` in chromium, and time `runs` appended
    sentences in `article` until the page shows each (each after a run of `floor`); the
    server is stopped afterwards."""
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
                series = _time_edits(page, article, runs, tag, floor, proc.pid)
            finally:
                browser.close()
    finally:
        _stop(proc)
    series.note = ("save -> the page's DOM contains the edit (watch, rebuild, event, reload or "
                   "in-place patch); page scrolled to its middle; the floor run before each edit")
    return series
