"""Small articles for tests: strings of our own (never the project's wording), a fake figure
resolver, and `page()` to convert a Markdown body with the real pipeline."""
from __future__ import annotations

import gc
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from sqrtdk.options import PROJECT_ROOT
from sqrtdk.settings import Strings
from sqrtdk.textfiles import TomlFile
from sqrtdk.web.model import Page, SvgPair
from sqrtdk.web.pages import build_page

FRONT = "---\ntitle: A title\ndescription: A description\n---\n"   # lines 1-4; the body starts at 5
BODY_START = FRONT.count("\n") + 1

UI = {"figure": "Fig {n}.", "figure_open": "Open the full-size figure", "backlink_title": "Back to note %d", "permalink": "Link",
      "footnotes": "Notes", "reproduce_output": "Prints:", "reproduce_source": "Source",
      "reproduce_code": "Code", "note_ref": "Footnote {n}"}
LANGUAGE = {"en": {"html_lang": "en", "name": "English", "og_locale": "en_US", "script": "latin",
                   "other_lang": "zh-CN"},
            "zh": {"html_lang": "zh-CN", "name": "中文", "og_locale": "zh_CN", "script": "cjk",
                   "other_lang": "en"}}


def strings(lang: str) -> Strings:
    """A Strings object for tests (its words are ours, not the project's)."""
    return Strings(lang, Path(f"{lang}-strings.toml"), dict(LANGUAGE[lang]), dict(UI),
                   TomlFile(Path(f"{lang}-strings.toml"), "", {}))


def resolver(names: Iterable[str]) -> Any:
    """A figure resolver knowing `names` (any other name raises KeyError)."""
    known = set(names)

    def resolve(name: str) -> SvgPair:
        if name not in known:
            raise KeyError(name)
        return SvgPair(f"../figures/{name}.svg", 640, 320, f"../figures/{name}.n.svg", 320, 300)
    return resolve


def page(folder: Path, body: str, results: Mapping[str, Any], lang: str = "en",
         figures: Iterable[str] = ("spread_hist", "walk"), name: str = "index.md") -> Page:
    """Write FRONT + body to folder/name and convert it as the build does."""
    path = folder / name
    path.write_text(FRONT + body, encoding="utf-8")
    figs = list(figures)
    return build_page(path, strings(lang), results, resolver(figs), figs,
                      lambda module: f"../source/{module}.html")


# HTML's void elements (the HTML standard, "Void elements"): no content, no end tag
VOID = frozenset(("area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                  "source", "track", "wbr"))


class Tree(HTMLParser):
    """Every element of an HTML fragment, in document order: tag, attributes, enclosing tags
    (and their ids), its depth (its subtree: the elements after it that are deeper) and its
    own text."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.stack: list[dict[str, Any]] = []
        self.elements: list[dict[str, Any]] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        el = {"tag": tag, "attrs": {k: v or "" for k, v in attrs},
              "ancestors": [e["tag"] for e in self.stack],
              "ancestor_ids": [e["attrs"].get("id", "") for e in self.stack], "text": "",
              "depth": len(self.stack)}
        self.elements.append(el)
        if tag not in VOID:
            self.stack.append(el)

    def handle_endtag(self, tag: str) -> None:
        # a void element's end (HTMLParser reports `<source … />` as a start and an end) and
        # a stray end tag close nothing: popping to a tag never pushed emptied the stack, and
        # every later element lost its ancestors (all those after a figure's <source>)
        if tag in VOID or all(e["tag"] != tag for e in self.stack):
            return
        while self.stack.pop()["tag"] != tag:
            pass

    def handle_data(self, data: str) -> None:
        for el in self.stack:
            el["text"] += data


def math_contexts(html: str) -> dict[int, list[str]]:
    """Formula index -> the tags enclosing its placeholder in a converted body."""
    from sqrtdk.web.markers import MATH_HTML_RE
    out = {}
    for el in Tree(html).elements:
        m = MATH_HTML_RE.fullmatch(el["text"])
        if m and "math" in el["attrs"].get("class", "").split():
            out[int(m.group(1))] = [*el["ancestors"], el["tag"]]
    return out


def math_context(html: str, index: int) -> list[str]:
    """The tags enclosing formula `index`'s placeholder in a converted body."""
    contexts = math_contexts(html)
    assert index in contexts, f"formula {index} is not in the page"
    return contexts[index]


def copy_project_files(dest: Path) -> Path:
    """The project's files (tracked and new, not ignored) copied into `dest`, node_modules
    linked (the copy builds with the same KaTeX without installing it)."""
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                           cwd=PROJECT_ROOT, capture_output=True, encoding="utf-8", check=True).stdout
    for rel in filter(None, files.split("\0")):
        src = PROJECT_ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)
    (dest / "node_modules").symlink_to(PROJECT_ROOT / "node_modules")
    return dest


def git_copy(dest: Path) -> Path:
    """`copy_project_files(dest)`, `../shared` beside it when the project has one, committed in
    a git repository of its own (an author works in a clone)."""
    copy_project_files(dest)
    shared = PROJECT_ROOT.parent / "shared"
    if shared.is_dir() and not (dest.parent / "shared").exists():
        (dest.parent / "shared").symlink_to(shared)
    git = {**os.environ, "GIT_AUTHOR_NAME": "author", "GIT_AUTHOR_EMAIL": "author@example.org",
           "GIT_COMMITTER_NAME": "author", "GIT_COMMITTER_EMAIL": "author@example.org"}
    for cmd in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "the author's clone"]):
        subprocess.run(["git", *cmd], cwd=dest, check=True, env=git, capture_output=True)
    return dest


CALLER_SIGNALS = (signal.SIGINT, signal.SIGQUIT, signal.SIGTERM, signal.SIGHUP)


def default_signals() -> None:
    """`preexec_fn` for a child process a test sends signals to: SIGINT, SIGQUIT, SIGTERM and
    SIGHUP back to their default action, whatever the test's caller left them at (a script's
    `nohup make test &` ignores SIGINT and SIGQUIT, nohup SIGHUP, and an ignored signal stays
    ignored across exec, so the build would never see the test's SIGINT)."""
    for sig in CALLER_SIGNALS:
        signal.signal(sig, signal.SIG_DFL)


SERVING = re.compile(r"^serving .* at (http://127\.0\.0\.1:\d+)/", re.M)


def start_server(project: Path, log: Path, timeout: float = 120
                 ) -> tuple[subprocess.Popen[bytes], str]:
    """`build.py --serve --port 0` in `project`, in a session of its own with its signals at
    their defaults, its output (unbuffered) in `log`. Returns the process and the address it
    says it serves (`http://127.0.0.1:PORT`) once it serves: the port is any free one, taken
    by the server itself as it binds (a port picked here and handed over could be taken by
    another process of the run in between). AssertionError if it does not come up."""
    with log.open("w") as out:
        proc = subprocess.Popen([sys.executable, "build.py", "--serve", "--port", "0"],
                                cwd=project, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True, preexec_fn=default_signals,
                                env={**os.environ, "PYTHONUNBUFFERED": "1"})
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        found = SERVING.search(log.read_text(encoding="utf-8", errors="replace"))
        if found:
            return proc, found[1]
        time.sleep(0.05)
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=10)
    raise AssertionError("the server did not come up: " + log.read_text(encoding="utf-8"))


@contextmanager
def ignoring(*signals: signal.Signals) -> Iterator[None]:
    """The signals ignored in this process for the block, as a background job's are: a child
    started inside inherits that unless it resets it (see `default_signals`)."""
    before = {sig: signal.signal(sig, signal.SIG_IGN) for sig in signals}
    try:
        yield
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)


def site_renderer(cache_dir: Path | None = None) -> Any:
    """The math renderer the build uses: the engine content/site.toml names, made through
    sqrtdk.web.math's registry (close it after use)."""
    from sqrtdk.settings import load_settings
    from sqrtdk.web.math import renderer
    engine = load_settings(PROJECT_ROOT / "content").math
    return renderer(engine, PROJECT_ROOT / "node_modules", cache_dir)



def cpu_seconds(work: Callable[[], object]) -> float:
    """The CPU seconds (user and system, all threads of this process: time.process_time)
    that `work()` takes; a loaded machine makes it wait, which is not counted."""
    start = time.process_time()
    work()
    return time.process_time() - start


def assert_linear_growth(make: Callable[[int], Callable[[], object]], n: int,
                         factor: int = 4, limit: float | None = None) -> None:
    """Asserts that the CPU time of `make(size)()` grows about linearly with `size`: the
    work on `factor * n` items takes less than `limit` times the work on `n` (default: twice
    `factor`, while code in the square of its input takes factor**2 times as long: 16 for
    4x, 64 for 8x). `make(size)` builds the input (not timed) and returns the work to time;
    its results are the caller's to check. A test passes `n` with the larger size's work
    well above the timer's noise (0.2 s of CPU or more here).

    A tiny run first warms what is made once (regular expressions, imports, caches), which
    would otherwise count in the small size only and hide a square. Each run starts from a
    collected heap with the cyclic garbage collector off: its full collections, more of them
    while the big input is alive, made a linear check 8.9 to 11.4 times as long for 8 times
    the input (8.0 with it off; limit 16) on the loaded 2-core machine, while code in the
    square of its input is so with or without it. A ratio over the limit is measured up to
    twice more (each size's smallest time kept): a neighbour's burst on the cores can slow
    one run (caches, frequency) but code in the square of its input stays over.
    Raises AssertionError with both times."""
    limit = 2.0 * factor if limit is None else limit
    make(max(1, n // 16))()
    small, big = make(n), make(factor * n)
    times = [_uncollected_cpu(small), _uncollected_cpu(big)]
    for _ in range(2):
        if times[1] < limit * times[0]:
            break
        times = [min(times[0], _uncollected_cpu(small)), min(times[1], _uncollected_cpu(big))]
    assert times[0] > 0.005, f"{n} items take {times[0]:.4f} s of CPU: too few to time"
    assert times[1] < limit * times[0], (
        f"{factor * n} items take {times[1]:.3f} s of CPU, {n} take {times[0]:.3f} s: "
        f"{times[1] / times[0]:.1f} times as long for {factor} times the input (the limit "
        f"is {limit:g}; linear is about {factor}, the square {factor * factor})")


def _uncollected_cpu(work: Callable[[], object]) -> float:
    """`cpu_seconds(work)` from a collected heap, with the cyclic garbage collector off
    while it runs (as it was before, after)."""
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        return cpu_seconds(work)
    finally:
        if was:
            gc.enable()
