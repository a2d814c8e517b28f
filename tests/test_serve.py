"""`build.py --serve` on a project copy of its own: an edit is patched into the open page in
place (DOM morph), other changes reload the page at the same place, and the server never dies
(an author's mistake, a bug of ours, code that does not import); every open tab and every tab
opened while the build is broken shows the error.

The browser parts drive Debian's chromium through Playwright (skipped without it, except in
CI). Edits are made relative to the article's structure (before its first `## ` heading,
appended at its end), never to its wording."""
from __future__ import annotations

import errno
import functools
import json
import os
import re
import shutil
import signal
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import start_server

PY = sys.executable
INSERTED = "Inserted by the serve test. " * 12   # a paragraph of several lines on a phone


@pytest.fixture
def server(built_project: Path, tmp_path: Path) -> Iterator[Server]:
    project = tmp_path / "p"
    shutil.copytree(built_project, project, symlinks=True)
    s = Server(project)
    try:
        yield s
    finally:
        s.stop()


class Server:
    """`build.py --serve` started in `project` on a free port (helpers.start_server); its
    output in a log file."""

    def __init__(self, project: Path):
        self.project, self.log = project, project.parent / "serve.log"
        self.proc, self.base = start_server(project, self.log)

    def get(self, path: str) -> str:
        with urllib.request.urlopen(self.base + path, timeout=30) as r:
            return str(r.read().decode("utf-8"))

    def events(self, wait: float = 120) -> Iterator[tuple[str, dict[str, Any]]]:
        """The server-sent events: (name, data) until the stream ends. AssertionError when
        none comes for `wait` seconds (the server's keep-alive comments would otherwise keep
        a missed edit waiting for ever)."""
        name = ""
        since = time.monotonic()
        with urllib.request.urlopen(self.base + "/__reload/events", timeout=wait) as stream:
            for raw in stream:
                if time.monotonic() - since > wait:
                    raise AssertionError(f"no event within {wait:.0f} s: " + self.log.read_text())
                line = raw.decode("utf-8").rstrip("\n")
                if line.startswith("event: "):
                    name = line[len("event: "):]
                elif line.startswith("data: ") and name:
                    yield name, json.loads(line[len("data: "):])
                    since = time.monotonic()

    def hello_of_a_new_process(self, run: str, timeout: float = 120) -> dict[str, Any]:
        """The first event of a server process other than `run` (after a restart)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                name, data = next(self.events())
                if name == "hello" and data["token"].split(".")[0] != run:
                    return data
            except (OSError, StopIteration):
                pass
            time.sleep(0.2)
        raise AssertionError("no new server process: " + self.log.read_text())

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(timeout=10)


def _article(project: Path) -> Path:
    return project / "content" / "en" / "index.md"


def _insert_before_first_section(text: str, paragraph: str) -> str:
    lines = text.split("\n")
    first = next(i for i, line in enumerate(lines) if line.startswith("## "))
    return "\n".join(lines[:first] + [paragraph, ""] + lines[first:])


def _next(events: Iterator[tuple[str, dict[str, Any]]], wanted: str) -> dict[str, Any]:
    for name, data in events:
        if name == wanted:
            return data
    raise AssertionError(f"the event stream ended before a '{wanted}' event")


def _served_error(page: str) -> str:
    m = re.search(r'<script src="/__reload/client\.js\?token=[^"]*" data-error="([^"]*)"', page)
    assert m, "the served page carries no client script"
    import html
    return html.unescape(m.group(1))


# --- what the tabs are told ------------------------------------------------------------------

def test_a_tab_that_missed_a_build_needing_a_reload_reloads() -> None:
    from sqrtdk.web.serve_http import BuildState
    state = BuildState()
    state.publish("", "morph", {"en/index.html": b"1"})
    state.publish("", "reload", {"en/index.html": b"1", "zh/index.html": b"2"})
    state.publish("content/en/index.md:3: a mistake")    # no new site
    state.publish("", "morph", {"en/index.html": b"3", "zh/index.html": b"2"})
    state.publish("", "morph", {"en/index.html": b"3", "zh/index.html": b"4"})
    assert state.token == f"{state.run}.4" and state.error == ""
    assert state.since(0)[0] == "reload" and state.since(1)[0] == "reload"
    assert state.since(2) == ("morph", {"en/index.html", "zh/index.html"})
    assert state.since(3) == ("morph", {"zh/index.html"})
    assert state.since(4) == ("morph", set())


def test_only_a_change_to_a_file_other_than_a_page_asks_for_a_reload(tmp_path: Path) -> None:
    """`_shared` sees a changed style sheet (generated or copied) and a changed figure, not a
    changed page."""
    from sqrtdk.web.output import Site
    from sqrtdk.web.serve import _shared
    figure = tmp_path / "f.svg"
    figure.write_text("<svg/>")
    files = {"en/index.html": b"<p>one</p>", "assets/style.css": b"p {}"}
    before = _shared(Site(files=dict(files), copies={"figures/f.svg": figure}))
    assert _shared(Site(files={**files, "en/index.html": b"<p>two</p>"},
                        copies={"figures/f.svg": figure})) == before
    assert _shared(Site(files={**files, "assets/style.css": b"p {color: red}"},
                        copies={"figures/f.svg": figure})) != before
    os.utime(figure, ns=(1, 1))      # redrawn: another modification time
    assert _shared(Site(files=dict(files), copies={"figures/f.svg": figure})) != before


def test_the_update_event_carries_the_changed_pages_as_served() -> None:
    """A stream that saw build 1 hears of build 3 with the pages changed in builds 2 and 3,
    each with the client scripts a GET would add (the new token and error)."""
    from sqrtdk.web.serve_http import BuildState, Handler, client_tags, site_path
    state = BuildState()
    state.publish("", "morph", {"en/index.html": b"<body>1</body>", "zh/index.html": b"z"})
    state.publish("", "morph", {"en/index.html": b"<body>2</body>", "zh/index.html": b"z"})
    state.publish("", "morph", {"en/index.html": b"<body>3</body>", "zh/index.html": b"z",
                                "index.html": b"root"})
    handler = type("H", (Handler,), {"state": state, "morph_js": b""})
    update = json.loads(Handler._update(handler.__new__(handler), 1))
    tags = client_tags(state.token, "", True)
    assert update["kind"] == "morph" and update["from"] == 1 and update["token"] == state.token
    assert update["pages"] == {"en/index.html": f"<body>3{tags}</body>", "index.html": "root"}
    assert (site_path("/en/"), site_path("/"), site_path("/en/index.html")) == \
        ("en/index.html", "index.html", "en/index.html")


def test_a_patch_names_its_build_and_the_build_that_made_its_page_says_so() -> None:
    """A patch is for the tabs of the build it was made from; the next build's update tells
    those tabs (only them) when it made the very page the patch made."""
    from sqrtdk.web.serve_http import BuildState, Handler
    state = BuildState()
    state.publish("", "morph", {"en/index.html": b"<body><p>0</p></body>"})
    state.publish("", "morph", {"en/index.html": b"<body><p>1</p></body>"})
    state.patch("en/index.html", "<p>1</p>", "<p>2</p>")
    assert state.patched == {"token": f"{state.run}.2", "page": "en/index.html",
                             "old": "<p>1</p>", "new": "<p>2</p>"}
    state.publish("", "morph", {"en/index.html": b"<body><p>2</p></body>"}, "en/index.html")
    handler = type("H", (Handler,), {"state": state, "morph_js": b""})
    update = functools.partial(Handler._update, handler.__new__(handler))
    assert json.loads(update(2))["patched"] == "en/index.html"
    assert json.loads(update(1))["patched"] == ""    # a tab of an older build: not patched
    state.publish("", "morph", {"en/index.html": b"<body><p>3</p></body>"})   # no patch
    assert json.loads(update(3))["patched"] == ""


# --- the fast path: the edited blocks ahead of the build ----------------------------------

def _blocks(text: str) -> list[str]:
    from sqrtdk.web.serve_fast import chunks
    return chunks(text.split("\n---\n", 1)[1])


def _edit_plain_paragraph(text: str) -> str:
    """Words added to the article's first paragraph of plain words (no quote, formula,
    note, link or markup)."""
    plain = next(b for b in _blocks(text) if re.fullmatch(r"[A-Z][\w ,.;:'()-]+", b))
    return text.replace(plain, plain + " Words added by the serve test.", 1)


def _add_paragraph(body: str) -> Callable[[str], str]:
    return lambda text: _insert_before_first_section(text, body)


def _edit_quoting_paragraph(text: str) -> str:
    """Words added to the article's first paragraph that quotes a result (and cites no note:
    the languages must cite the same results and notes, so none is added)."""
    block = next(b for b in _blocks(text) if re.match(r"[A-Z]", b) and "{{" in b
                 and "[^" not in b)
    return text.replace(block, block + " Words added by the serve test.", 1)


def _edit_heading(text: str) -> str:
    heading = next(b for b in _blocks(text) if b.startswith("## ") and "{#" in b)
    return text.replace(heading, heading.replace(" {#", " again {#", 1), 1)


def _edit_citing_paragraph(text: str) -> str:
    """Words added to the article's first paragraph with a footnote reference."""
    block = next(b for b in _blocks(text) if re.match(r"[A-Z]", b) and re.search(r"\[\^", b))
    return text.replace(block, block + " Words added by the serve test.", 1)


def _remove(line: str) -> Callable[[str], str]:
    return lambda text: text.replace(f"{line}\n\n", "", 1)


def test_the_client_scripts_go_before_the_page_end_not_an_earlier_body_tag() -> None:
    """The scripts went before the first `</body>`: one in the article (raw HTML, a comment,
    a script's string) put them inside it, and the page's own end had none. They go before
    the last; a page without one is sent as it is."""
    from sqrtdk.web.serve_http import served
    page = b"<html><body><!-- ends with </body> --><p>x</p></body></html>"
    assert served(page, "<s></s>") == \
        b"<html><body><!-- ends with </body> --><p>x</p><s></s></body></html>"
    assert served(b"<p>x</p>", "<s></s>") == b"<p>x</p>"


def test_the_fast_path_takes_one_changed_place_with_a_neighbour_that_shows() -> None:
    """What the fast path converts: the changed blocks; an added or removed block with the
    nearest block that shows in the text (definitions skipped, the one before first); nothing
    for two places or an edited definition."""
    from sqrtdk.web.serve_fast import changed_blocks, chunks
    old = chunks("# T\n\nOne.\n\n[^a]: A note.\n\n[b]: https://example.org\n\n\n  \nTwo.\n")
    assert old == ["# T", "One.", "[^a]: A note.", "[b]: https://example.org", "Two."]
    assert changed_blocks(old, [*old[:1], "One!", *old[2:]]) == [(["One."], ["One!"])]
    added = [*old[:4], "New.", old[4]]
    assert changed_blocks(old, added) == [(["One."], ["One.", "New."]),
                                          (["Two."], ["New.", "Two."])]
    assert changed_blocks(old, old[:4]) == [(["One.", "Two."], ["One."])]
    assert changed_blocks(old, [old[0], "One!", *old[2:4], "Two!"]) == []     # two places
    assert changed_blocks(old, [*old[:2], "[^a]: Another.", *old[3:]]) == []  # a definition
    assert changed_blocks(old, old) == []


def test_the_fast_patch_is_the_page_the_build_then_makes(built_project: Path,
                                                         tmp_path: Path) -> None:
    """For several kinds of edit, the page patched by the fast path (serve_fast) is the page
    the full build then makes, byte for byte; where the fast path declines (a footnote
    reference, numbered by the others), the build's page is what the tab gets. Each edit is
    made to the article as the last left it. The page of the last build equals a fresh
    build's of the same article."""
    from sqrtdk.options import BuildOptions
    from sqrtdk.pipeline import Builder
    from sqrtdk.web.serve import _Loop
    from sqrtdk.web.serve_http import BuildState
    project = tmp_path / "p"
    shutil.copytree(built_project, project, symlinks=True)
    opts = BuildOptions.for_project(project, out=tmp_path / "out")
    md = _article(project).resolve()
    edits: list[tuple[str, Callable[[str], str], bool]] = [
        ("paragraph text", _edit_plain_paragraph, True),
        ("a new paragraph", _add_paragraph("A paragraph added by the serve test."), True),
        ("a quoted number", _edit_quoting_paragraph, True),
        ("a formula", _add_paragraph("A formula by the serve test: $\\sqrt{d_k}+x^2_{7}$."),
         True),
        ("a heading", _edit_heading, True),
        # printed, a link to the site's own page shows its address (data-print-href): the
        # patch had the link without it
        ("a link to the site's page",
         _add_paragraph("A link by the serve test to [the other page](../zh/)."), True),
        ("a footnote reference", _edit_citing_paragraph, False),
        ("a removed paragraph", _remove("A paragraph added by the serve test."), True),
        ("appended at the end", lambda t: t + "\n\nAppended by the serve test.\n", True),
    ]
    state = BuildState()
    loop = _Loop(opts, state, lambda line: None)
    try:
        loop.build(reload=True)
        for kind, edit, fast in edits:
            old = md.read_text("utf-8")
            new = edit(old)
            assert new != old, kind
            page = state.pages["en/index.html"].decode("utf-8")
            token, patches = state.token, state.patches
            md.write_text(new, "utf-8")
            loop._fast([md])             # what the open tabs are sent ahead of the build
            sent = state.patched if state.patches != patches else None
            loop.build(reload=False)
            built = state.pages["en/index.html"].decode("utf-8")
            assert state.error == "", (kind, state.error)
            assert built != page, kind
            patched = page.replace(sent["old"], sent["new"], 1) if sent else None
            # the build tells the tabs when their patched page is its page
            assert state.kept == ((token, "en/index.html") if patched == built else None), kind
            if not fast:
                assert sent is None or patched == built, kind
                continue
            assert sent is not None, f"{kind}: no fast patch"
            assert sent["token"] == token and page.count(sent["old"]) == 1, kind
            assert sent["new"] in built, kind     # the blocks as the build makes them
            if kind != "a heading":               # (the contents list follows with the build)
                assert patched == built, kind
        # every attribute the build gives the article's elements, the fast path gives too:
        # the whole article converted by the fast path's steps is the built page's article
        # (the edits above try a few kinds of block; this tries every kind the article has)
        from sqrtdk.web.pages import split_front_matter
        from sqrtdk.web.serve_fast import convert_blocks
        whole = convert_blocks(loop.contexts[md], split_front_matter(md, md.read_text("utf-8"))[1])
        assert whole is not None and built.count(whole) == 1, \
            _first_difference(whole or "", built)
        fresh = Builder(BuildOptions.for_project(project, out=tmp_path / "fresh"),
                        lambda line: None, memory=True)
        fresh.on_site = lambda site: fresh_pages.update(site.files)
        fresh_pages: dict[str, bytes] = {}
        try:
            fresh.build()
        finally:
            fresh.close()
        assert fresh_pages["en/index.html"] == state.pages["en/index.html"]
    finally:
        loop.builder.close()


def test_an_edit_after_a_start_on_an_unchanged_site_morphs(built_project: Path,
                                                            tmp_path: Path) -> None:
    """A server started again on the site the last one left (its first build is the cache's
    'unchanged' replay, which makes no site): the first edit of an article is patched ahead of
    the build and morphed in, as every later one is (found by servefuzz: it reloaded the tab,
    losing its open boxes and dₖ state, and had no fast patch)."""
    from sqrtdk.options import BuildOptions
    from sqrtdk.web.serve import _Loop
    from sqrtdk.web.serve_http import BuildState
    project = tmp_path / "p"
    shutil.copytree(built_project, project, symlinks=True)
    opts = BuildOptions.for_project(project, out=tmp_path / "out")
    first = _Loop(opts, BuildState(), lambda line: None)    # the server that built the site
    try:
        first.build(reload=True)
    finally:
        first.builder.close()
    md = _article(project).resolve()
    state = BuildState()
    loop = _Loop(opts, state, lambda line: None)
    try:
        loop.build(reload=True)
        patches = state.patches
        md.write_text(_insert_before_first_section(md.read_text("utf-8"), INSERTED), "utf-8")
        loop._fast([md])
        assert state.patches == patches + 1, "no fast patch"
        good = state.good
        loop.build(reload=False)
        assert state.error == "" and state.since(good) == ("morph", {"en/index.html"})
    finally:
        loop.builder.close()


def test_a_site_another_build_wrote_is_served_not_the_pages_this_server_holds(
        built_project: Path, tmp_path: Path) -> None:
    """Two servers on one project: the other one builds
    a save and writes the site, and this server's build of the same save finds the site as
    these sources make it (the cache's 'unchanged' replay). It went on serving the pages it
    held in memory, from before the save, to every tab opened or reloaded; it now makes the
    site itself again (write: unchanged) and serves and sends the new pages."""
    from sqrtdk.options import BuildOptions
    from sqrtdk.pipeline import Builder
    from sqrtdk.web.serve import _Loop
    from sqrtdk.web.serve_http import BuildState
    project = tmp_path / "p"
    shutil.copytree(built_project, project, symlinks=True)
    opts = BuildOptions.for_project(project)
    state = BuildState()
    loop = _Loop(opts, state, lambda line: None)
    try:
        loop.build(reload=True)
        md = _article(project)
        md.write_text(_insert_before_first_section(md.read_text("utf-8"), INSERTED), "utf-8")
        other = Builder(opts, log=lambda line: None, memory=True)   # the other server
        try:
            other.build()
        finally:
            other.close()
        good = state.good
        loop.build(reload=False)
        assert state.error == ""
        assert INSERTED.strip() in state.pages["en/index.html"].decode("utf-8")
        assert state.since(good) == ("morph", {"en/index.html"})
    finally:
        loop.builder.close()


def test_a_folder_moved_away_or_back_starts_a_build_and_scratch_files_do_not(
        tmp_path: Path) -> None:
    """A language's folder moved out of content/ and back (watchfiles names only the folder,
    which has no suffix, as a scratch file has) or renamed to a dot name starts a build;
    editors' scratch files still do not (found by servefuzz: the moved folder was taken for a
    scratch file, and the site went on showing the language that was gone)."""
    from watchfiles import Change

    from sqrtdk.options import BuildOptions
    from sqrtdk.web.serve import _Relevant
    project = tmp_path / "p"
    for lang in ("en", "zh"):
        (project / "content" / lang).mkdir(parents=True)
        (project / "content" / lang / "index.md").write_text("# T\n", "utf-8")
    opts = BuildOptions.for_project(project, out=tmp_path / "out")
    relevant = _Relevant(opts, [opts.content_dir])
    zh, away = opts.content_dir / "zh", tmp_path / "away"
    zh.rename(away)
    assert relevant(Change.deleted, str(zh)), "moved away"
    away.rename(zh)
    assert relevant(Change.added, str(zh)), "moved back"
    hidden = opts.content_dir / ".zh"
    zh.rename(hidden)
    assert relevant(Change.deleted, str(zh)) and relevant(Change.added, str(hidden))
    hidden.rename(zh)
    en = opts.content_dir / "en"
    for name in ("4913", "sedAb12Cd", "index.md~", ".index.md.swp", "index.md.tmp"):
        (en / name).write_text("", "utf-8")
        assert not relevant(Change.added, str(en / name)), name
        (en / name).unlink()
        assert not relevant(Change.deleted, str(en / name)), name
    assert relevant(Change.modified, str(en / "index.md"))


def test_jetbrains_and_emacs_scratch_files_start_no_build(tmp_path: Path) -> None:
    """A JetBrains save (index.md___jb_tmp___ written, index.md renamed to index.md___jb_old___,
    the first renamed over it, the old one deleted) and Emacs' auto-save file (#index.md#)
    started builds of their own, and the save of one article came as three changed files, so
    it was never patched ahead of the build (found saving as those editors do under a running
    --serve)."""
    from watchfiles import Change

    from sqrtdk.options import BuildOptions
    from sqrtdk.web.serve import _Relevant
    en = tmp_path / "p" / "content" / "en"
    en.mkdir(parents=True)
    (en / "index.md").write_text("# T\n", "utf-8")
    opts = BuildOptions.for_project(tmp_path / "p", out=tmp_path / "out")
    relevant = _Relevant(opts, [opts.content_dir])
    for name in ("index.md___jb_tmp___", "index.md___jb_old___", "#index.md#"):
        (en / name).write_text("", "utf-8")
        assert not relevant(Change.added, str(en / name)), name
        (en / name).unlink()
        assert not relevant(Change.deleted, str(en / name)), name
    assert relevant(Change.modified, str(en / "index.md"))


def _template_error(built_project: Path, tmp_path: Path, template: str) -> list[str]:
    """The lines a build of a copy of the project (at tmp_path/p) reports when its
    templates/article.html is `template` (the build must fail)."""
    from sqrtdk.errors import BuildError, report
    from sqrtdk.options import BuildOptions
    from sqrtdk.pipeline import Builder
    project = tmp_path / "p"
    shutil.copytree(built_project, project, symlinks=True)
    (project / "templates" / "article.html").write_text(template, "utf-8")
    builder = Builder(BuildOptions.for_project(project, out=tmp_path / "out"),
                      lambda line: None, memory=True)
    try:
        with pytest.raises(BuildError) as caught:
            builder.build()
        return report(caught.value)
    finally:
        builder.close()


@pytest.mark.parametrize("broken", ["{% if %}", "{{ x ", "{% for x in y %}", "{% endblock %}"])
def test_a_template_that_does_not_parse_is_the_authors_line(built_project: Path,
                                                           tmp_path: Path, broken: str) -> None:
    """A template saved with a Jinja syntax error is the author's mistake at its line (as
    build.py says it), not a bug of ours with a traceback; the next good save clears it (found
    by servefuzz: 'a bug in the build: TemplateSyntaxError', traceback in the terminal)."""
    good = (built_project / "templates" / "article.html").read_text("utf-8")
    lines = _template_error(built_project, tmp_path, good.rstrip("\n") + "\n" + broken + "\n")
    line = good.rstrip("\n").count("\n") + 2
    assert len(lines) == 1 and re.search(
        rf"templates/article\.html:{line}: [^;]*[^.]; fix the template's syntax", lines[0]), lines


@pytest.mark.parametrize("broken", ["{{ nope.x }}", "{{ 1 / 0 }}", '{% include "nope.html" %}',
                                    "{{ nope }}", "<p title='{{ nope }}'>", "{{ nope ~ 'x' }}"])
def test_a_template_that_fails_to_render_is_the_authors_line(built_project: Path,
                                                            tmp_path: Path, broken: str) -> None:
    """A template whose expression fails as the page is made (an undefined name, a template
    it includes that is not there, a division by zero) is the author's mistake at its line,
    not a bug of ours with a traceback."""
    good = (built_project / "templates" / "article.html").read_text("utf-8")
    at = good.index("%}", good.index("{% block")) + 2      # inside the first block
    lines = _template_error(built_project, tmp_path, good[:at] + "\n" + broken + good[at:])
    line = good[:at].count("\n") + 2
    assert re.search(rf"templates/article\.html:{line}: \w+: [^;]*; fix the template$",
                     lines[0]) and str(tmp_path / "p") not in lines[0].split(": ", 1)[1], lines


def _first_difference(part: str, page: str) -> str:
    """Where `part` (HTML) stops matching `page` from the start of its first line found in
    it, for an assertion's message."""
    first = part.split("\n", 1)[0]
    at = page.find(first)
    if at < 0:
        return f"first line not in the page: {first[:200]!r}"
    n = next((k for k, (a, b) in enumerate(zip(part, page[at:], strict=False)) if a != b),
             min(len(part), len(page) - at))
    return f"differs at {n}: part {part[max(n - 80, 0):n + 80]!r}, page {page[at + max(n - 80, 0):at + n + 80]!r}"


def test_a_failed_build_shows_every_mistake_it_found_one_line_each(built_project: Path,
                                                                    tmp_path: Path) -> None:
    """A rebuild that finds a mistake in each language tells the tabs both (the error they
    show over the page), one line each as the build prints them, and the terminal each on
    an `error:` line; the next good save clears it. (It told only the first.)"""
    from sqrtdk.options import BuildOptions
    from sqrtdk.web.serve import _Loop
    from sqrtdk.web.serve_http import BuildState
    project = tmp_path / "p"
    shutil.copytree(built_project, project, symlinks=True)
    articles = sorted((project / "content").glob("*/index.md"))[:2]
    originals = [md.read_text("utf-8") for md in articles]
    state, said = BuildState(), []
    loop = _Loop(BuildOptions.for_project(project, out=tmp_path / "out"), state, said.append)
    try:
        loop.build(reload=True)
        assert state.error == "", state.error
        for n, md in enumerate(articles):
            md.write_text(_insert_before_first_section(
                md.read_text("utf-8"), f"Broken {{{{ spread.broken_by_test{n} | fixed(2) }}}}."),
                "utf-8")
        del said[:]
        loop.build(reload=False)
        shown = state.error.split("\n")
        assert [re.search(r"content/\w+/index\.md:\d+: .*broken_by_test\d", line) is not None
                for line in shown] == [True, True], shown
        assert [f"error: {line}" for line in shown] == [s for s in said if s.startswith("error")]
        for md, text in zip(articles, originals, strict=True):
            md.write_text(text, "utf-8")
        loop.build(reload=False)
        assert state.error == "", state.error
    finally:
        loop.builder.close()


# --- never dies ---------------------------------------------------------------------------------

def _nest_quotes(text: str) -> str:
    return _insert_before_first_section(text, ">" * 1000 + " nested by the serve test")


def _loop_link(text: str) -> str:
    return text      # the file itself is replaced by a link to itself (below)


@pytest.mark.parametrize("edit", [_nest_quotes, _loop_link], ids=["nested quotes", "link loop"])
def test_an_author_mistake_that_broke_the_fast_path_is_the_builds_line(
        built_project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        edit: Callable[[str], str]) -> None:
    """The save's fast patch (serve_fast) printed a RecursionError traceback as a bug of ours
    for a thousand nested quotes; an article made a link to itself raised RuntimeError
    (Symlink loop) before the build, so the tabs showed a bug and not the author's line.
    Each is now the build's one line; the next good save clears it."""
    from sqrtdk.options import BuildOptions
    from sqrtdk.web.serve import _Loop
    from sqrtdk.web.serve_http import BuildState
    project = tmp_path / "p"
    shutil.copytree(built_project, project, symlinks=True)
    md = _article(project)
    original = md.read_text("utf-8")
    state = BuildState()
    loop = _Loop(BuildOptions.for_project(project, out=tmp_path / "out"), state,
                 lambda line: None)
    try:
        loop.build(reload=True)
        assert state.error == "", state.error
        if edit is _loop_link:
            md.unlink()
            md.symlink_to(md)
        else:
            md.write_text(edit(original), "utf-8")
        loop._fast([md])
        loop.build(reload=False)
        assert re.search(r"content/en/index\.md(:\d+)?: ", state.error), state.error
        assert "Traceback" not in capsys.readouterr().err
        md.unlink()
        md.write_text(original, "utf-8")
        loop.build(reload=False)
        assert state.error == "", state.error
    finally:
        loop.builder.close()


def _add_unused_label(text: str) -> str:
    """A label no figure uses, in the first figure's table of a figures.toml (a warning)."""
    first = next(m for m in re.finditer(r"^\[(\w+)\][ \t]*(?:#.*)?$", text, re.M)
                 if m.group(1) not in ("style", "card"))
    return text.replace(first.group(0), f"{first.group(0)}\nunused_label_by_test = \"x\"", 1)


def test_a_builds_warnings_reach_every_tab_and_a_clean_build_clears_them(server: Server) -> None:
    """A save the build warns about (CI's --strict build stops on it) was told in the terminal
    only: the open tabs showed nothing, and a quote whose digits the build kept against the
    author's format looked like a save that did not arrive. The build's warnings now come
    with its event and with every page served (each at its `path:line`), and the next build
    without them (here one that finds the site as these inputs made it before, whose
    warnings the cache logs again) clears them."""
    events = server.events()
    assert _next(events, "hello")["warnings"] == ""
    figures = server.project / "content" / "en" / "figures.toml"
    original = figures.read_text("utf-8")
    figures.write_text(_add_unused_label(original), "utf-8")
    data = next(events)[1]
    assert data["error"] == "", data
    assert re.match(r"content/en/figures\.toml:\d+: warning: .*unused_label_by_test",
                    data["warnings"]), data["warnings"]
    page = server.get("/en/index.html")
    assert 'data-warnings="content/en/figures.toml:' in page, page[-600:]
    assert next(server.events())[1]["warnings"] == data["warnings"]    # a new tab's hello
    figures.write_text(original, "utf-8")
    data = next(events)[1]
    assert data["warnings"] == "" and data["error"] == "", data
    assert "data-warnings" not in server.get("/en/index.html")


def test_a_failed_build_keeps_the_warnings_of_the_site_served() -> None:
    from sqrtdk.web.serve_http import BuildState
    state = BuildState()
    state.publish("", "morph", {"en/index.html": b"1"}, warnings="a.md:1: warning: x")
    state.publish("a.md:2: a mistake")                  # a failed build: the site served
    assert state.warnings == "a.md:1: warning: x"
    state.publish("", "morph", {"en/index.html": b"2"}, warnings="")
    assert state.warnings == ""


def test_an_author_error_keeps_the_last_good_site_and_every_new_page_shows_it(
        server: Server) -> None:
    events = server.events()
    _next(events, "hello")
    md = _article(server.project)
    original = md.read_text(encoding="utf-8")
    md.write_text(original + "\nBroken $\\frac{x$ here.\n", encoding="utf-8")
    error = _next(events, "failed")["error"]
    assert re.match(r"content/en/index\.md:\d+: ", error), error
    page = server.get("/en/index.html")       # a page opened now: the last good site + the error
    assert "Broken" not in page and _served_error(page) == error
    md.write_text(original + "\nMended by the serve test.\n", encoding="utf-8")
    update = _next(events, "update")
    assert update["error"] == "" and update["kind"] == "morph"
    sent = update["pages"]["en/index.html"]      # the page itself, as a GET serves it
    assert "Mended by the serve test." in sent and _served_error(sent) == ""
    page = server.get("/en/index.html")
    assert "Mended by the serve test." in page and _served_error(page) == ""


def test_a_bug_in_a_rebuild_is_shown_with_its_traceback_and_the_server_goes_on(
        server: Server) -> None:
    """A KeyError raised inside the build (injected into the project copy's page conversion,
    triggered by a word in the article) is a bug of ours: traceback in the terminal, one line
    over the pages, the last good site served, and the next good save recovers."""
    token = next(server.events())[1]["token"]
    pages = server.project / "sqrtdk" / "web" / "pages.py"
    pages.write_text(pages.read_text(encoding="utf-8") + (
        "\n\n_real_build_page = build_page\n\n\n"
        "def build_page(path, *args, **kwargs):  # injected by test_serve\n"
        "    if 'TRIGGER-THE-BUG' in path.read_text(encoding='utf-8'):\n"
        "        raise KeyError('injected by the serve test')\n"
        "    return _real_build_page(path, *args, **kwargs)\n"), encoding="utf-8")
    server.hello_of_a_new_process(token.split(".")[0])   # the code imports: a fresh process
    events = server.events()
    _next(events, "hello")
    md = _article(server.project)
    original = md.read_text(encoding="utf-8")
    md.write_text(original + "\nTRIGGER-THE-BUG\n", encoding="utf-8")
    error = _next(events, "failed")["error"]
    assert "KeyError" in error and "bug" in error and "traceback" in error, error
    assert server.proc.poll() is None
    assert "TRIGGER-THE-BUG" not in server.get("/en/index.html")
    log = server.log.read_text(encoding="utf-8")
    assert "Traceback (most recent call last)" in log and "injected by the serve test" in log
    md.write_text(original + "\nMended by the serve test.\n", encoding="utf-8")
    assert _next(events, "update")["error"] == ""
    assert "Mended by the serve test." in server.get("/en/index.html")


def test_the_site_folder_deleted_by_hand_is_built_again(server: Server) -> None:
    """site/ deleted by hand under a running server: its pages were still served (from
    memory), without their style sheets, scripts and figures (404), until the next save."""
    site = server.project / "site"
    shutil.rmtree(site)
    deadline = time.monotonic() + 120
    while not (site / "en" / "index.html").is_file():
        assert time.monotonic() < deadline, "not built again: " + server.log.read_text()
        time.sleep(0.2)
    assert (site / "assets").is_dir() and server.proc.poll() is None


def test_a_tab_dropping_a_file_half_sent_prints_no_traceback(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    """A tab reloaded or closed while a file was on its way (a large figure, a font) made the
    server print 'Exception occurred during processing of request' and a
    ConnectionResetError traceback in the author's terminal, as if it had failed (the
    tests' own server was quiet about it; the dev server was not). It goes on serving."""
    import socket
    import threading

    from sqrtdk.web.serve_code import listen, server_on
    from sqrtdk.web.serve_http import BuildState, Handler
    (tmp_path / "big.bin").write_bytes(b"a" * 20_000_000)
    handler = functools.partial(type("Bound", (Handler,), {
        "state": BuildState(), "morph_js": None}), directory=str(tmp_path))
    server = server_on(listen(0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    try:
        for _ in range(3):
            with socket.create_connection(("127.0.0.1", port)) as client:
                client.sendall(b"GET /big.bin HTTP/1.1\r\nHost: x\r\n\r\n")
                client.recv(100)
                # closed with data unread: a reset, as a browser's tab drops a download
                client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                  (1).to_bytes(4, sys.byteorder) + bytes(4))
            time.sleep(0.3)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/missing.html", timeout=10) as r:
            raise AssertionError(r.status)
    except urllib.error.HTTPError as e:
        assert e.code == 404               # still serving
    finally:
        server.shutdown()
        server.server_close()
    err = capfd.readouterr().err
    assert "Traceback" not in err and "Exception occurred" not in err, err


def test_an_address_holding_a_null_byte_is_not_found_without_a_traceback(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    """'/a%00b' made the file lookup raise ValueError (embedded null byte): a traceback in the
    terminal and the connection dropped without an answer. It is a 404 like any address
    naming no file."""
    import threading

    from sqrtdk.web.serve_code import listen, server_on
    from sqrtdk.web.serve_http import BuildState, Handler
    handler = functools.partial(type("Bound", (Handler,), {
        "state": BuildState(), "morph_js": None}), directory=str(tmp_path))
    server = server_on(listen(0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        for address in ("/a%00b", "/a%00b.html", "/en%00/"):
            with pytest.raises(urllib.error.HTTPError) as e:
                urllib.request.urlopen(f"http://127.0.0.1:{server.server_address[1]}{address}",
                                       timeout=10)
            assert e.value.code == 404, address
    finally:
        server.shutdown()
        server.server_close()
    assert "Traceback" not in capfd.readouterr().err


def test_a_missing_address_gets_the_site_s_404_page_with_status_404(tmp_path: Path) -> None:
    """The dev server answered an address naming no file with http.server's own 'Error
    response' page (an author's trial); the deployed site answers with its 404.html. It does
    so too now, status 404, with the client scripts (a fixed link reloads the tab); without a
    404.html, http.server's page as before."""
    import threading

    from sqrtdk.web.serve_code import listen, server_on
    from sqrtdk.web.serve_http import BuildState, Handler
    handler = functools.partial(type("Bound", (Handler,), {
        "state": BuildState(), "morph_js": None}), directory=str(tmp_path))
    server = server_on(listen(0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(f"{base}/nowhere/", timeout=10)
        assert e.value.code == 404 and b"Not found here" not in e.value.read()
        (tmp_path / "404.html").write_text("<!doctype html><title>x</title><body><p>Not "
                                           "found here</p></body>", encoding="utf-8")
        for address in ("/nowhere/", "/en/missing.html", "/a.png"):
            with pytest.raises(urllib.error.HTTPError) as e:
                urllib.request.urlopen(f"{base}{address}", timeout=10)
            body = e.value.read()
            assert e.value.code == 404 and b"Not found here" in body, address
            assert body.index(b"<script") < body.index(b"</body>"), address
    finally:
        server.shutdown()
        server.server_close()


def test_a_head_request_answers_as_the_get_would_without_a_body(tmp_path: Path) -> None:
    """HEAD fell through to http.server's: a page was sent from the folder, not the page in
    memory (the site not yet written, or the folder deleted: 404 where GET answered 200), its
    Content-Length without the client scripts GET adds, and the client scripts' addresses
    answered 404. It now answers as GET would: the same status, type and length, no body."""
    import http.client
    import threading

    from sqrtdk.web.serve_code import listen, server_on
    from sqrtdk.web.serve_http import BuildState, Handler
    state = BuildState()
    state.publish("", "reload", {"en/index.html": b"<!doctype html><body><p>held</p></body>"})
    (tmp_path / "a.css").write_text("p{}", encoding="utf-8")
    handler = functools.partial(type("Bound", (Handler,), {
        "state": state, "morph_js": None}), directory=str(tmp_path))
    server = server_on(listen(0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        for address in ("/en/", "/__reload/client.js", "/a.css", "/nowhere/"):
            answers = []
            for method in ("GET", "HEAD"):
                conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1],
                                                  timeout=10)
                conn.request(method, address)
                r = conn.getresponse()
                answers.append((r.status, r.getheader("Content-Type"),
                                r.getheader("Content-Length"), r.read()))
                conn.close()
            (status, ctype, length, body), head = answers
            assert head == (status, ctype, length, b""), address
            assert length == str(len(body)), address
        assert answers[0][0] == 404
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("error", [
    OSError("OS file watch limit reached."),
    RuntimeError("Error in underlying watcher: OS file watch limit reached."),
    OSError(errno.ENOSPC, "No space left on device"),
    KeyError("a bug in the watch filter"),
], ids=["limit", "limit wrapped", "inotify's ENOSPC", "another error"])
def test_an_error_of_the_file_watcher_does_not_stop_the_server(
        tmp_path: Path, error: Exception, capfd: pytest.CaptureFixture[str]) -> None:
    """The watcher (watchfiles) raised outside the loop's `try`: the inotify watch limit
    reached, or any error of the watcher or its filter, ended the server with a traceback.
    The limit is one line naming it (fs.inotify.max_user_watches) and what to do, and saves
    are found by polling; another error restarts the watcher. (A test double for watchfiles:
    the limit cannot be reached on purpose here.)"""
    import threading

    from sqrtdk.web.serve import _changes
    calls: list[dict[str, Any]] = []
    stop = threading.Event()

    def watch(*_: Any, **kwargs: Any) -> Iterator[set[tuple[int, str]]]:
        calls.append(kwargs)
        if len(calls) == 1:
            raise error
        yield {(1, str(tmp_path / "a.md"))}
        stop.set()

    said: list[str] = []
    got = list(_changes([tmp_path], lambda *_: True, stop, said.append, watch=watch))
    assert got == [{(1, str(tmp_path / "a.md"))}] and len(calls) == 2, (got, calls)
    assert len(said) == 1 and said[0].startswith("warning: "), said
    if isinstance(error, KeyError):
        assert "Traceback" in capfd.readouterr().err and "KeyError" in said[0], said
    else:
        assert "fs.inotify.max_user_watches" in said[0] and calls[1]["force_polling"], said
        assert "Traceback" not in capfd.readouterr().err


def _linked_article(tmp_path: Path) -> tuple[Path, Path, Path, Path]:
    """content/en/index.md a symbolic link to notes/index.md: (content, notes, the target,
    the link)."""
    content, notes = tmp_path / "content", tmp_path / "notes"
    (content / "en").mkdir(parents=True)
    notes.mkdir()
    target, link = notes / "index.md", content / "en" / "index.md"
    target.write_text("# T\n", "utf-8")
    link.symlink_to(target)
    return content, notes, target, link


def _changes_seen(content: Path, saves: list[Callable[[], object]]) -> list[set[str]]:
    """The paths of each change batch serve's watcher reports under `content` while `saves`
    are made one at a time, each once the one before was seen (at most 30 s)."""
    import threading

    from sqrtdk.web.serve import _changes
    stop = threading.Event()
    seen: list[set[str]] = []
    deadline = time.monotonic() + 30
    changes = _changes([content], lambda *_: True, stop, lambda line: None)
    saved = 0
    try:
        for found in changes:
            if time.monotonic() > deadline:
                break
            if found:
                seen.append({p for _, p in found})
            elif len(seen) >= len(saves):
                break
            elif saved == len(seen) < len(saves):   # the last save seen, the watcher on
                saves[saved]()
                saved += 1
    finally:
        stop.set()
        changes.close()
    return seen


def test_a_save_of_a_linked_article_s_target_is_a_change_of_the_article(
        tmp_path: Path) -> None:
    """content/en/index.md a symbolic link to an article kept elsewhere: a save of the target
    (in place, or an editor's new file renamed over it) was never seen, since the watcher
    follows linked folders, not linked files, and the page went on showing the old text. The
    target is watched too, and named by the link."""
    content, notes, target, link = _linked_article(tmp_path)

    def renamed_over() -> None:
        (notes / "new").write_text("# T\n\nRenamed over.\n", "utf-8")
        (notes / "new").rename(target)
    saves = [lambda: target.write_text("# T\n\nSaved in place.\n", "utf-8"), renamed_over,
             lambda: target.write_text("# T\n\nIn place again.\n", "utf-8")]
    seen = _changes_seen(content, saves)
    assert seen == [{str(link)}] * 3, seen


def test_a_linked_article_s_target_deleted_and_made_again_is_watched_again(
        tmp_path: Path) -> None:
    """content/en/index.md a symbolic link to an article kept elsewhere, whose target is
    deleted (by hand, or an editor's save that removes the file before writing it again):
    the link to nothing was left out of the watch from then on, so the target made again,
    and every save of it after, was never seen. Each is a change of the link."""
    content, _, target, link = _linked_article(tmp_path)
    saves = [target.unlink, lambda: target.write_text("# T\n\nMade again.\n", "utf-8"),
             lambda: target.write_text("# T\n\nSaved in place.\n", "utf-8")]
    seen = _changes_seen(content, saves)
    assert seen == [{str(link)}] * 3, seen


def _code_folders() -> list[str]:
    """The package's folders of modules (not the numpy snippets, which are scripts the
    reproduce boxes run), relative to the project."""
    from sqrtdk.options import PACKAGE_DIR
    return sorted({p.parent.relative_to(PACKAGE_DIR.parent).as_posix()
                   for p in PACKAGE_DIR.rglob("*.py")
                   if "__pycache__" not in p.parts and "snippets" not in p.parts})


@pytest.mark.parametrize("folder", _code_folders())
def test_code_that_does_not_import_is_found_in_every_folder_of_the_package(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, folder: str) -> None:
    """The server loads a code edit only once every module imports in a fresh process. The
    check walked the package with pkgutil, which skips a folder without __init__.py: no
    module of sqrtdk/web/ (the server's own among them) was ever imported, so an edit there
    that did not import passed, the server replaced itself with it and died on the import,
    with a traceback. Each folder's broken module is now named at its line."""
    from sqrtdk.options import PACKAGE_DIR
    from sqrtdk.web.serve_code import import_problem
    shutil.copytree(PACKAGE_DIR, tmp_path / "sqrtdk",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(PACKAGE_DIR.parent / "build.py", tmp_path / "build.py")
    (tmp_path / folder / "broken_by_test.py").write_text(
        '"""A module that does not import."""\nx = name_nobody_defined_by_test\n',
        encoding="utf-8")
    monkeypatch.chdir(tmp_path)     # the server's working folder: its project
    said = import_problem(tmp_path)
    assert said.startswith(f"{folder}/broken_by_test.py:2: NameError"), said


def test_code_python_cannot_parse_is_one_line_with_no_traceback(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A comma too many in a figure module, saved while serving, printed the import check's
    traceback (importlib's frames down to the caret) before the server's own line saying
    where it was: for a syntax error the line is all there is to say."""
    from sqrtdk.options import PACKAGE_DIR
    from sqrtdk.web.serve_code import import_problem
    shutil.copytree(PACKAGE_DIR, tmp_path / "sqrtdk",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(PACKAGE_DIR.parent / "build.py", tmp_path / "build.py")
    (tmp_path / "sqrtdk" / "figures" / "broken_by_test.py").write_text(
        '"""A module Python cannot parse."""\n\n\ndef f(, x):\n    return x\n',
        encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    said = import_problem(tmp_path)
    assert said.startswith("sqrtdk/figures/broken_by_test.py:4: SyntaxError"), said
    assert "Traceback" not in capsys.readouterr().err


def test_code_whose_import_never_ends_is_named_at_its_line(tmp_path: Path) -> None:
    """The server imports changed code in a child process before loading it; a module whose
    import never finished (a loop at its top level) made that check raise subprocess's
    TimeoutExpired, shown over the pages as 'a bug in the build, not in your files'. It is
    the module's line, where the import was running."""
    from sqrtdk.web.serve_code import import_problem
    (tmp_path / "sqrtdk").mkdir()
    (tmp_path / "sqrtdk" / "__init__.py").write_text(
        "import time\n\nwhile True:\n    time.sleep(0.05)\n", encoding="utf-8")
    said = import_problem(tmp_path, timeout=2)
    assert re.match(r".*sqrtdk/__init__\.py:[34]: importing the code did not finish", said), said
    assert "bug" not in said, said


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EACCES])
def test_a_full_disk_in_a_rebuild_is_the_machines_line_not_a_bug(tmp_path: Path,
                                                                 code: int) -> None:
    """A rebuild stopped by the machine (a full disk, a folder made read-only) was shown over
    the pages as "a bug in the build, not in your files: OSError …", with a traceback; the
    build alone says it as errors.machine_fault does: the path, what to do, no traceback."""
    from sqrtdk.options import PROJECT_ROOT as ROOT
    from sqrtdk.options import BuildOptions
    from sqrtdk.web.serve import _Loop
    from sqrtdk.web.serve_http import BuildState
    said: list[str] = []
    state = BuildState()
    loop = _Loop(BuildOptions.for_project(ROOT, out=tmp_path / "out"), state, said.append)

    def full(*_: Any) -> None:
        raise OSError(code, os.strerror(code), str(tmp_path / "out"))

    loop.builder.build = full
    try:
        loop.build(reload=True)
    finally:
        loop.builder.close()
    assert "bug" not in state.error and "cannot write" in state.error, state.error
    assert os.strerror(code) in state.error and said[-1] == f"error: {state.error}", said


def _loop_on_copy(built_project: Path, tmp_path: Path) -> tuple[Path, Any, list[str], Any]:
    """A copy of the built project and serve's build loop on it, with no server: (the
    project, its BuildState, the lines the loop said, the loop); close loop.builder after."""
    from sqrtdk.options import BuildOptions
    from sqrtdk.web.serve import _Loop
    from sqrtdk.web.serve_http import BuildState
    project = tmp_path / "p"
    shutil.copytree(built_project, project, symlinks=True)
    state = BuildState()
    said: list[str] = []
    return project, state, said, _Loop(BuildOptions.for_project(project), state, said.append)


def test_a_mistake_in_a_save_written_again_during_its_build_is_not_shown(
        built_project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An editor's save in two writes (the file emptied, then written) with the build starting
    in between, or a save a moment after another: the build of the half-written file failed
    ('missing front matter'), and every open tab showed that error, and took back the edit
    patched ahead of it, until the next build a second later. A build whose sources changed
    while it ran leaves its mistakes to the build of that save (the terminal still has
    them)."""
    from sqrtdk.web import pages
    project, state, said, loop = _loop_on_copy(built_project, tmp_path)
    try:
        loop.build(reload=True)
        md = _article(project)
        saved = _insert_before_first_section(md.read_text("utf-8"), INSERTED)
        md.write_text("", "utf-8")          # the first write of the save
        real = pages.build_page

        def second_write(*args: Any, **kwargs: Any) -> Any:
            try:
                return real(*args, **kwargs)
            finally:
                md.write_text(saved, "utf-8")
        monkeypatch.setattr(pages, "build_page", second_write)
        generation = state.generation
        loop.build(reload=False)
        assert any("missing front matter" in line for line in said), said   # the terminal's
        assert state.error == "" and state.generation == generation
        monkeypatch.undo()
        loop.build(reload=False)         # the build of the second write
        assert state.error == ""
        assert INSERTED.strip() in state.pages["en/index.html"].decode("utf-8")
    finally:
        loop.builder.close()


def test_a_mistake_is_shown_when_only_an_editor_s_scratch_file_changed_during_its_build(
        built_project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A save with a mistake, and the editor's swap file (or auto-save file) rewritten while
    its build ran: the build counted it as a source saved meanwhile and left the mistake to
    the next build, which the watcher never starts for a scratch file: the tabs showed no
    error at all. Only a file the watcher builds for defers the mistake."""
    from sqrtdk.web import pages
    project, state, said, loop = _loop_on_copy(built_project, tmp_path)
    try:
        loop.build(reload=True)
        md = _article(project)
        md.write_text("", "utf-8")          # the mistake: no front matter
        real = pages.build_page
        scratch_files = [md.parent / ".index.md.swp", md.parent / "#index.md#",
                         md.parent / "index.md~"]

        def editor_writes_scratch(*args: Any, **kwargs: Any) -> Any:
            try:
                return real(*args, **kwargs)
            finally:
                for f in scratch_files:
                    f.write_text(f"{time.monotonic()}", "utf-8")
        monkeypatch.setattr(pages, "build_page", editor_writes_scratch)
        loop.build(reload=False)
        assert "missing front matter" in state.error, (state.error, said[-3:])
    finally:
        loop.builder.close()


def test_a_site_the_disk_could_not_take_is_not_served_nor_left_in_the_tabs(
        built_project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A save whose site the disk could not take (full, as the write began): the open tabs
    had morphed to its pages (sent as soon as the site was checked, before it was written)
    and every tab opened since got them from memory, under the error saying 'the previous
    site is left as it was'. The tabs now morph back to the site on disk, which is served,
    with the error over it."""
    from sqrtdk.options import BuildOptions
    from sqrtdk.pipeline import Builder
    from sqrtdk.web.serve import _Loop
    from sqrtdk.web.serve_http import BuildState
    project = tmp_path / "p"
    shutil.copytree(built_project, project, symlinks=True)
    state = BuildState()
    loop = _Loop(BuildOptions.for_project(project), state, lambda line: None)
    try:
        loop.build(reload=True)
        before = state.pages["en/index.html"]
        md = _article(project)
        md.write_text(_insert_before_first_section(md.read_text("utf-8"), INSERTED), "utf-8")

        def full(*_: Any) -> None:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(project / "site"))
        monkeypatch.setattr(Builder, "write", full)
        good = state.good
        loop.build(reload=False)
        assert "cannot write" in state.error, state.error
        assert state.pages["en/index.html"] == before
        kind, changed = state.since(good)
        assert kind == "reload" or "en/index.html" in changed or state.good == good
        monkeypatch.undo()
        loop.build(reload=False)         # the disk freed, the next save
        assert state.error == ""
        assert INSERTED.strip() in state.pages["en/index.html"].decode("utf-8")
    finally:
        loop.builder.close()


@pytest.mark.parametrize("where", ["the changed file", "our own code"])
def test_only_a_failure_through_the_unloaded_code_is_blamed_on_it(tmp_path: Path,
                                                                  where: str) -> None:
    """While a code change that does not import was pending, every exception of a rebuild,
    a bug of ours in a file nobody changed too, was shown as "the build stopped on the code
    change that was not loaded". Only one whose traceback passes through a changed file is;
    any other is a bug line."""
    from sqrtdk.options import PROJECT_ROOT as ROOT
    from sqrtdk.options import BuildOptions
    from sqrtdk.web.serve import _Loop
    from sqrtdk.web.serve_http import BuildState
    changed = tmp_path / "extra_by_test.py"
    changed.write_text("def fail():\n    raise KeyError('in the changed file')\n",
                       encoding="utf-8")
    namespace: dict[str, Any] = {}
    exec(compile(changed.read_text(encoding="utf-8"), str(changed), "exec"), namespace)

    def ours(*_: Any) -> None:
        raise KeyError("a bug of ours")

    state = BuildState()
    loop = _Loop(BuildOptions.for_project(ROOT, out=tmp_path / "out"), state, lambda _: None)
    loop.code_error = f"{changed}:2: SyntaxError; the code change was not loaded"
    loop.code_changed = {changed}
    loop.builder.build = namespace["fail"] if where == "the changed file" else ours
    try:
        loop.build(reload=True)
    finally:
        loop.builder.close()
    blamed = "stopped on the code change that was not loaded" in state.error
    assert blamed == (where == "the changed file"), state.error
    assert ("a bug in the build" in state.error) == (where != "the changed file"), state.error


@pytest.mark.parametrize("where", ["the line the import check named", "another line",
                                   "our own code"])
def test_a_rebuild_stopping_where_the_import_check_did_prints_no_second_traceback(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str) -> None:
    """A SyntaxError in a figure module: the import check prints its traceback and names
    `path:line`; the old code's rebuild, which parses the module for its cache keys, then
    stopped on the same SyntaxError and printed a second traceback of our cache code, some
    40 lines more in the terminal for a one-character typo. A failure elsewhere in the
    changed file, or in our own code, still prints its traceback."""
    from sqrtdk.errors import display_path
    from sqrtdk.options import PROJECT_ROOT as ROOT
    from sqrtdk.options import BuildOptions
    from sqrtdk.web.serve import _Loop
    from sqrtdk.web.serve_http import BuildState
    changed = tmp_path / "extra_by_test.py"
    changed.write_text("def fine():\n    raise KeyError('elsewhere')\nbroken(:\n",
                       encoding="utf-8")

    def parse(*_: Any) -> None:      # as the figures' cache key reads a module
        compile(changed.read_text(encoding="utf-8"), str(changed), "exec")

    def elsewhere(*_: Any) -> None:
        namespace: dict[str, Any] = {}
        exec(compile("def fine():\n    raise KeyError('elsewhere')\n", str(changed), "exec"),
             namespace)
        namespace["fine"]()

    def ours(*_: Any) -> None:
        raise KeyError("a bug of ours")

    state = BuildState()
    loop = _Loop(BuildOptions.for_project(ROOT, out=tmp_path / "out"), state, lambda _: None)
    loop.code_error = (f"{display_path(changed)}:3: SyntaxError: invalid syntax; the code "
                       "change was not loaded")
    loop.code_changed = {changed}
    loop.builder.build = {"the line the import check named": parse, "another line": elsewhere,
                          "our own code": ours}[where]
    capsys.readouterr()
    try:
        loop.build(reload=True)
    finally:
        loop.builder.close()
    printed = capsys.readouterr().err
    assert ("Traceback" in printed) == (where != "the line the import check named"), printed
    assert ("stopped on the code change that was not loaded" in state.error) == \
        (where != "our own code"), state.error


@pytest.mark.parametrize("half", ["figures", "science"])
def test_code_that_does_not_import_is_not_loaded_and_the_server_says_so(
        server: Server, half: str) -> None:
    """README's 'Add a figure' and 'Add an experiment' recipes make a new module under
    sqrtdk/figures/ or sqrtdk/science/: one with a SyntaxError leaves the server on its old
    code (the same process) until it is fixed, and the error shown is the author's, never "a
    bug in the build, not in your files": the old code's rebuild, which reads the package's
    modules from disk (the figures' cache key parses them, a new experiment is found and
    imported by itself), stopped on the new module and said the SyntaxError was a bug of
    ours. Where the old code cannot build with it, the line now says so."""
    events = server.events()
    run = _next(events, "hello")["token"].split(".")[0]
    module = server.project / "sqrtdk" / half / "extra_by_test.py"
    module.write_text('"""A module with a typo."""\ndef broken(:\n    pass\n',
                      encoding="utf-8")
    error = next(events)[1]["error"]         # 'failed', or 'update' if nothing it drew changed
    assert error.startswith(f"sqrtdk/{half}/extra_by_test.py:2: SyntaxError"), error
    assert "not loaded" in error and "a bug in the build" not in error, error
    md = _article(server.project)
    md.write_text(md.read_text(encoding="utf-8") + "\nStill served.\n", encoding="utf-8")
    name, data = next(events)   # the rebuild, on the old code (its figure workers may not be)
    assert data["error"].startswith(error.splitlines()[0]), data
    assert "a bug in the build" not in data["error"], data
    assert name == "failed" or "Still served." in server.get("/en/index.html")
    assert server.proc.poll() is None
    assert next(server.events())[1]["token"].split(".")[0] == run   # the same process
    module.unlink()
    hello = server.hello_of_a_new_process(run)
    assert hello["error"] == "" and server.proc.poll() is None


# --- in the browser ---------------------------------------------------------------------------

def _open(context: Any, server: Server, query: str = "") -> Any:
    """A new tab of `context` (tabs of one context share one event stream) at the English
    page, once its script has built the widgets."""
    page = context.new_page()
    page.goto(f"{server.base}/en/index.html{query}", wait_until="load")
    page.wait_for_selector("html[data-ready]", state="attached")
    return page


def _wait(page: Any, expression: str, arg: Any = None, timeout: float = 60) -> None:
    """Poll `expression` (a function of `arg`) in the page: the CSP forbids string eval, so
    Playwright's wait_for_function cannot be used."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if page.evaluate(expression, arg):
                return
        except Exception:        # noqa: BLE001 - the page is being reloaded
            pass
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {expression}")


PLACE = """() => {   // the first paragraph below the top of the window: its words and position
  const p = [...document.querySelectorAll('main p')].find(e => e.getBoundingClientRect().top > 80);
  return {text: p.textContent, top: p.getBoundingClientRect().top};
}"""
WHERE = """(text) => {
  const p = [...document.querySelectorAll('main p')].find(e => e.textContent === text);
  return p ? p.getBoundingClientRect().top : null;
}"""
STATE = """() => ({kept: window.keptByTest === 1, search: location.search,
  toc: document.querySelector('#toc').open, bar: document.querySelector('.dk-bar output').textContent,
  quotes: [...document.querySelectorAll('[data-key]')].map(e => e.textContent)})"""
SERVED_QUOTES = """async () => {   // the quoted numbers as the server wrote them (no dₖ state)
  const html = await (await fetch(location.pathname, {cache: 'no-store'})).text();
  const d = new DOMParser().parseFromString(html, 'text/html');
  return [...d.querySelectorAll('[data-key]')].map(e => e.textContent);
}"""


def test_an_edit_arrives_in_place_keeping_scroll_open_box_and_dk(browser: Any,
                                                                 server: Server) -> None:
    results = json.loads((server.project / "figures" / "results.json").read_text("utf-8"))
    dk, ruler = results["spread"]["d_k"][-1], results["rulers"]["names"][-1]
    page = _open(browser.new_context(), server, f"?dk={dk}&ruler={ruler}")
    page.evaluate("window.keptByTest = 1; document.querySelector('#toc').open = true;"
                  "scrollTo(0, document.body.scrollHeight / 2)")
    time.sleep(0.3)
    before, state = page.evaluate(PLACE), page.evaluate(STATE)
    assert state["quotes"] != page.evaluate(SERVED_QUOTES)   # the dₖ state shows other numbers
    md = _article(server.project)
    md.write_text(_insert_before_first_section(md.read_text("utf-8"), INSERTED), "utf-8")
    _wait(page, "(s) => document.body.textContent.includes(s)", INSERTED.strip())
    after = page.evaluate(STATE)
    assert after == state, "reloaded, or lost the open box or the dₖ state"
    top = page.evaluate(WHERE, before["text"])
    assert top is not None and abs(top - before["top"]) <= 40, (before, top)
    assert not page.locator("[data-serve-error]").count()


def test_a_broken_build_shows_in_open_and_new_tabs_and_a_good_save_clears_it(
        browser: Any, server: Server) -> None:
    """A mistake in each of two articles: both are shown, each on a line of its own (a block
    whose wrapped lines are indented under its first), in the open tab and in one opened
    while the build is broken; the next good save clears them."""
    first = _open(browser.new_context(), server)
    first.evaluate("window.keptByTest = 1")
    md = _article(server.project)
    other = next(p for p in sorted((server.project / "content").glob("*/index.md")) if p != md)
    original, other_text = md.read_text("utf-8"), other.read_text("utf-8")
    other.write_text(other_text + "\nBroken $\\frac{x$ here.\n", "utf-8")
    md.write_text(original + "\nBroken $\\frac{x$ here.\n", "utf-8")
    box = "[data-serve-error]"
    _wait(first, "(s) => !!document.querySelector(s)", box)
    _wait(first, f"(s) => document.querySelector(s).textContent.includes('{other.parent.name}/')",
          box)
    second = _open(first.context, server)    # opened while the build is broken
    for page in (first, second):
        lines = page.eval_on_selector_all(f"{box} > div", "(ds) => ds.map((d) => [d.textContent,"
                                          " getComputedStyle(d).textIndent])")
        assert [bool(re.match(r"content/\w+/index\.md:\d+: ", text))
                for text, _ in lines] == [False, True, True], lines
        assert [indent.startswith("-") for _, indent in lines] == [False, True, True], lines
        assert "Broken" not in page.locator("main").text_content()
    other.write_text(other_text, "utf-8")
    md.write_text(original + "\nMended by the serve test.\n", "utf-8")
    for page in (first, second):
        _wait(page, "(s) => document.body.textContent.includes(s)", "Mended by the serve test.")
        assert not page.locator(box).count()
    assert first.evaluate("window.keptByTest") == 1


SAME_TITLE = "".join(f"/// details | A box of the serve test\n    attrs: {{id: serve-test-{x}}}\n\n"
                     f"Box {x} of the serve test.\n\n///\n\n" for x in "ab")
# a box's id: on the div around its text (md_blocks.BoxTargets), else on the <details>
OPEN_BOXES = ("() => [...document.querySelectorAll('details')].filter(d => d.open)"
              ".map(d => d.querySelector(':scope > .box[id]')?.id || d.id)")


def test_warnings_show_over_the_open_tab_below_an_error_and_go_with_them(
        browser: Any, server: Server) -> None:
    """The open tab shows a build's warnings in a box of their own, a line each at its
    `path:line`; a failed build's error takes its place, and the warnings come back with the
    good build after it; a build without warnings takes the box away. No reload."""
    page = _open(browser.new_context(), server)
    page.evaluate("window.keptByTest = 1")
    figures = server.project / "content" / "en" / "figures.toml"
    original = figures.read_text("utf-8")
    figures.write_text(_add_unused_label(original), "utf-8")
    _wait(page, "(s) => !!document.querySelector(s)", "[data-serve-warnings]")
    lines = page.eval_on_selector_all("[data-serve-warnings] > div", "(ds) => ds.map((d) => d.textContent)")
    assert re.match(r"content/en/figures\.toml:\d+: warning: .*unused_label_by_test", lines[1]), lines
    md = _article(server.project)
    text = md.read_text("utf-8")
    md.write_text(text + "\nBroken $\\frac{x$ here.\n", "utf-8")
    _wait(page, "(s) => !!document.querySelector(s)", "[data-serve-error]")
    assert not page.locator("[data-serve-warnings]").count()
    md.write_text(text, "utf-8")
    _wait(page, "(s) => !!document.querySelector(s)", "[data-serve-warnings]")
    figures.write_text(original, "utf-8")
    _wait(page, "() => !document.querySelector('[data-serve-warnings], [data-serve-error]')")
    assert page.evaluate("window.keptByTest") == 1, "reloaded"


def test_boxes_of_one_title_are_reopened_one_by_one(browser: Any, server: Server) -> None:
    """Two boxes with the same title (as every figure's table box has), the first opened by
    the reader: an edit patched in, and a style sheet edit that reloads the page, leave the
    first open and the second closed (the boxes were found again by their title, which
    opened both)."""
    for md in sorted((server.project / "content").glob("*/index.md")):
        md.write_text(_insert_before_first_section(md.read_text("utf-8"), SAME_TITLE), "utf-8")
    page = _open(browser.new_context(), server)
    _wait(page, "() => !!document.getElementById('serve-test-b')")
    page.evaluate("document.getElementById('serve-test-a').closest('details').open = true")
    opened = page.evaluate(OPEN_BOXES)
    assert "serve-test-a" in opened and "serve-test-b" not in opened, opened
    page.evaluate("window.keptByTest = 1")
    md = _article(server.project)
    md.write_text(_insert_before_first_section(md.read_text("utf-8"), INSERTED), "utf-8")
    _wait(page, "(s) => document.body.textContent.includes(s)", INSERTED.strip())
    time.sleep(0.3)
    assert page.evaluate("window.keptByTest") == 1, "reloaded"
    assert page.evaluate(OPEN_BOXES) == opened, "after an edit patched in"
    css = server.project / "static" / "style.css"
    css.write_text(css.read_text("utf-8") + "\n/* edited by the serve test */\n", "utf-8")
    _wait(page, "() => window.keptByTest === undefined && document.readyState === 'complete'")
    page.wait_for_selector("html[data-ready]", state="attached")
    # polled, not read once after a pause: a later event may reload the page again, and a
    # read while it loads finds no box at all (CI, under load: [] after 0.3 s)
    deadline, now = time.monotonic() + 30, None
    while time.monotonic() < deadline:
        try:
            now = page.evaluate(OPEN_BOXES)
        except Exception:        # noqa: BLE001 - the page is being reloaded
            now = None
        if now == opened:
            break
        time.sleep(0.05)
    assert now == opened, f"after a reload: {now}"


def test_a_style_sheet_edit_reloads_at_the_same_place(browser: Any, server: Server) -> None:
    page = _open(browser.new_context(), server)
    page.evaluate("window.keptByTest = 1; document.querySelector('#toc').open = true;"
                  "scrollTo(0, document.body.scrollHeight / 2)")
    time.sleep(0.3)
    before = page.evaluate(PLACE)
    css = server.project / "static" / "style.css"
    css.write_text(css.read_text("utf-8") + "\n/* edited by the serve test */\n", "utf-8")
    _wait(page, "() => window.keptByTest === undefined && document.readyState === 'complete'")
    page.wait_for_selector("html[data-ready]", state="attached")
    time.sleep(0.3)
    top = page.evaluate(WHERE, before["text"])
    assert top is not None and abs(top - before["top"]) <= 40, (before, top)
    assert page.evaluate("document.querySelector('#toc').open")


# Set up before a reload's page runs its scripts: the place the reload client saved, and from
# then on, once each frame has been drawn (a message posted from requestAnimationFrame runs after
# the frame's paint), how far the saved block is from where it was, until two frames after the
# page's script is ready (`data-ready`). The block is found by its words, the nearest of equal
# ones to where it was.
FOLLOW_PLACE = """(() => {
  const saved = sessionStorage.getItem('sqrtdk-serve:' + location.pathname);
  if (!saved) return;
  const p = JSON.parse(saved), seen = window.placeSeenByTest = [];
  const BLOCK = ':is(h1,h2,h3,h4,h5,h6,p,li,figure,pre,table,blockquote,.math)';
  const off = () => {
    const tops = [...document.querySelectorAll('main ' + BLOCK)].filter((el) => el.textContent === p.text)
      .map((el) => el.getBoundingClientRect().top - p.top);
    return tops.length ? tops.reduce((a, b) => (Math.abs(a) <= Math.abs(b) ? a : b)) : null;
  };
  const channel = new MessageChannel();
  let after = -1;
  channel.port1.onmessage = () => {
    seen.push(Math.round(off()));
    if (document.documentElement.hasAttribute('data-ready') && after < 0) after = 2;
    if (after !== 0) requestAnimationFrame(() => { after -= after > 0 ? 1 : 0; channel.port2.postMessage(0); });
    else window.placeSeenDoneByTest = true;
  };
  document.addEventListener('DOMContentLoaded', () => channel.port2.postMessage(0));
})()"""


def test_a_reload_keeps_the_place_while_the_page_lays_itself_out(browser: Any,
                                                                 server: Server) -> None:
    """After a reload (a style sheet edit), the page's script draws the blocks above the
    reader at their real heights, one group a task, until it is ready: the reader's place was
    put back when the page loaded and again once it was ready, and in between the text had
    moved away by hundreds of pixels (727 px at the middle of the English page), for as long
    as the script took (seconds on a slow machine). Every frame drawn keeps it in place."""
    page = _open(browser.new_context(), server)
    page.evaluate("""() => {   // a paragraph of the middle of the page at the window's top
      const ps = [...document.querySelectorAll('article > p')];
      const p = ps.slice(ps.length / 2).find((e) => !e.querySelector('[data-key]')) || ps[ps.length >> 1];
      scrollBy(0, p.getBoundingClientRect().top - 4);
      window.keptByTest = 1;
    }""")
    time.sleep(0.3)
    page.add_init_script(FOLLOW_PLACE)
    css = server.project / "static" / "style.css"
    css.write_text(css.read_text("utf-8") + "\n/* edited by the serve test */\n", "utf-8")
    _wait(page, "() => window.keptByTest === undefined && window.placeSeenDoneByTest === true",
          timeout=120)
    seen = page.evaluate("window.placeSeenByTest")
    assert seen and None not in seen, seen
    assert max(abs(x) for x in seen) <= 40, seen


def test_a_footnote_reference_added_by_a_patch_opens_its_note(browser: Any,
                                                              server: Server) -> None:
    """The page's script binds what a patch adds: hovering a footnote reference that arrived
    in place (no reload) shows its note, as one present at load does."""
    page = _open(browser.new_context(), server)
    page.evaluate("window.keptByTest = 1")
    note = "A note added by the serve test."
    for lang in ("zh", "en"):           # the same label in every language (the parity check)
        md = server.project / "content" / lang / "index.md"
        text = _insert_before_first_section(md.read_text("utf-8"), "Serve test.[^serve-test]")
        md.write_text(f"{text}\n[^serve-test]: {note}\n", "utf-8")
    ref = 'a.footnote-ref[href="#fn-serve-test"]'
    _wait(page, "(s) => !!document.querySelector(s)", ref)
    assert page.evaluate("window.keptByTest") == 1, "reloaded instead of patched"
    page.hover(ref)
    _wait(page, "() => !document.querySelector('#fn-pop').hidden")
    assert note in (page.locator("#fn-pop").text_content() or "")


SAW = """(s) => { window.sawByTest = false;   // whether the text was ever in the page
  new MutationObserver(() => { if (document.querySelector('main').textContent.includes(s))
    window.sawByTest = true; }).observe(document.body, {childList: true, subtree: true}); }"""


def test_a_patch_ahead_of_a_build_that_fails_is_taken_back(browser: Any,
                                                           server: Server) -> None:
    """A paragraph quoting a result in one language only: the fast path puts it in the page
    at once, the build then fails (the languages must cite the same results); the tab shows
    the error at the author's line and the page as it was, without a reload. The save waits
    for the tab's event stream: a patch published before the tab listens is never sent to
    it (its stream starts from the outcome then), which a loaded machine made happen once."""
    context = browser.new_context()
    streams: list[str] = []
    context.on("response", lambda r: streams.append(r.url) if r.url.endswith(
        "/__reload/events") else None)
    page = _open(context, server)
    deadline = time.monotonic() + 60
    while not streams and time.monotonic() < deadline:
        page.wait_for_timeout(20)        # (lets Playwright deliver the response event)
    assert streams, "the tab opened no event stream"
    added = "Quoted in one language by the serve test:"
    page.evaluate("window.keptByTest = 1")
    page.evaluate(SAW, added)
    md = _article(server.project)
    text = md.read_text("utf-8")
    quote = re.search(r"\{\{[^{}\n]+\}\}", text)
    assert quote, "the article quotes no result"
    # saved at once, as editors save (a new file renamed over the article): written in place,
    # its truncation and its text could reach the watcher as two saves on a loaded machine,
    # the first one's empty file is no page to patch, the build that followed read the whole
    # text and showed its error, and the second save found the page in error: no fast path
    # (the one red CI run of this test, at load 10-12)
    saved = server.project.parent / "index.md.saving"          # outside the watched folders
    saved.write_text(_insert_before_first_section(text, f"{added} {quote.group(0)}."), "utf-8")
    os.replace(saved, md)
    _wait(page, "(s) => !!document.querySelector(s)", "[data-serve-error]")
    error = page.locator("[data-serve-error]").text_content() or ""
    assert re.search(r"content/(en|zh)/index\.md:\d+: .*every language must match", error), error
    assert page.evaluate("window.sawByTest"), "the patch did not come ahead of the build"
    _wait(page, "(s) => !document.querySelector('main').textContent.includes(s)", added)
    assert page.evaluate("window.keptByTest") == 1, "reloaded"


def test_a_site_folder_that_cannot_be_looked_at_does_not_end_the_server(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The serve loop's idle rounds look for the site folder (deleted by hand: built again);
    Path.is_dir raises for any error but a missing path (a permission error on its parent),
    which ended the server with a traceback. Such a folder counts as there."""
    from sqrtdk.web.serve import _still_there

    def refused(self: Path) -> bool:
        raise PermissionError(13, "Permission denied", str(self))
    assert _still_there(tmp_path) and not _still_there(tmp_path / "gone")
    monkeypatch.setattr(Path, "is_dir", refused)
    assert _still_there(tmp_path / "site")
