"""`--serve`'s HTTP side: the latest build outcome, the site's files, the client scripts and
the event stream that tells open tabs about each build.

A new good site's pages are held in memory (`BuildState.pages`) and served from there, so a
page is served as soon as its build has checked it, before the site is written; the event
that announces a build carries every page that changed since the tab's last build, with the
client scripts added as a GET would add them, so a tab patches itself without fetching. Ahead
of a build, a `patch` event may carry the edited blocks' HTML, old and new (serve_fast).
"""
from __future__ import annotations

import functools
import html
import json
import posixpath
import threading
import uuid
from collections.abc import Mapping
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler
from pathlib import Path
from urllib.parse import unquote

CLIENT_PATH = "/__reload/client.js"
MORPH_PATH = "/__reload/morphdom.js"
EVENTS_PATH = "/__reload/events"
CLIENT_JS = Path(__file__).resolve().parent / "reload_client.js"   # read on each request
KEPT_BUILDS = 64      # a tab that missed more builds than this reloads


class BuildState:
    """The latest build outcome, shared between the watcher and the HTTP threads.

    `good` counts the sites built; `builds` remembers, per good build, whether the open pages
    may morph ("morph") or must reload ("reload") and which pages it changed; `pages` holds
    the latest good site's pages (site path -> bytes); `error` is what the pages show
    ('' = none); `warnings`, the latest site's warnings, a line each, shown while there is no
    error ('' = none).
    """

    def __init__(self) -> None:
        self.run = uuid.uuid4().hex[:12]     # this server process
        self.generation = 0                  # every outcome, good or not
        self.good = 0
        self.builds: dict[int, tuple[str, frozenset[str]]] = {}
        self.pages: dict[str, bytes] = {}
        self.error = ""
        self.warnings = ""
        self.changed = threading.Condition()
        self.streams = 0            # event streams open now
        self.told = 0               # of them, those that sent the latest outcome
        self.patches = 0            # patches sent ahead of a build (see `patch`)
        self.patched: dict[str, str] = {}   # the latest: page, its good build, HTML old/new
        self.kept: tuple[str, str] | None = None   # (its build, page) if the next build made it

    @property
    def token(self) -> str:
        """Identifies the site being served: a tab that saw another token updates."""
        return f"{self.run}.{self.good}"

    def publish(self, error: str, kind: str | None = None,
                pages: Mapping[str, bytes] | None = None, patched: str = "",
                warnings: str | None = None) -> None:
        """A build finished: `kind` ("morph" or "reload") and its `pages` (every page of the
        new site, site path -> bytes; None: served from the folder) for a new good site,
        kind None if the site did not change; `error` is shown over the pages ('' hides it).
        `patched`: the page the latest `patch` made just as this site has it ('' for none).
        `warnings`: the build's warnings, a line each ('' for none; None: those of the site
        served, as before: a failed build, or one that found the site as it was)."""
        with self.changed:
            self.generation += 1
            self.kept = (self.patched.get("token", ""), patched) if patched else None
            if kind is not None:
                new = dict(pages or {})
                changed = frozenset(rel for rel in new.keys() | self.pages.keys()
                                    if new.get(rel) != self.pages.get(rel))
                self.good += 1
                self.builds[self.good] = (kind if pages is not None else "reload", changed)
                self.builds.pop(self.good - KEPT_BUILDS, None)
                self.pages = new
            self.error = error
            if warnings is not None:
                self.warnings = warnings
            self.told = 0
            self.changed.notify_all()

    def patch(self, rel: str, old: str, new: str) -> None:
        """Tell the open tabs of page `rel`, as built by the latest good build, that its HTML
        `old` (found once in it) is now `new` (serve_fast), ahead of the build that will send
        the whole page."""
        with self.changed:
            self.patches += 1
            self.patched = {"token": self.token, "page": rel, "old": old, "new": new}
            self.told = 0
            self.changed.notify_all()

    def wait_told(self, timeout: float) -> None:
        """Wait (at most `timeout` s) until every open event stream has sent the latest
        outcome: the build thread, which would compete for the interpreter, writes the site
        after the tabs have their pages."""
        with self.changed:
            self.changed.wait_for(lambda: self.told >= self.streams, timeout=timeout)

    def since(self, good: int) -> tuple[str, frozenset[str]]:
        """How a tab that saw good build `good` catches up: ("morph", the pages changed
        since) only if every build since allows it, else ("reload", nothing)."""
        missed = [self.builds.get(g) for g in range(good + 1, self.good + 1)]
        if any(m is None or m[0] != "morph" for m in missed):
            return "reload", frozenset()
        return "morph", frozenset().union(*(m[1] for m in missed if m is not None))


def client_tags(token: str, error: str, morph: bool, warnings: str = "") -> str:
    """The client scripts for a served page, with the site's token, the current error (a tab
    opened while the build is broken shows it at once) and the site's warnings."""
    tag = f'<script src="{MORPH_PATH}"></script>' if morph else ""
    said = f' data-warnings="{html.escape(warnings)}"' if warnings else ""
    return f'{tag}<script src="{CLIENT_PATH}?token={token}" data-error="{html.escape(error)}"' \
           f'{said}></script>'


def served(page: bytes, tags: str) -> bytes:
    """A page as the server sends it: the client scripts added before its last `</body>`
    (an earlier one is in the article: raw HTML, a comment, a script's string); a page
    without one is sent as it is."""
    head, end, tail = page.rpartition(b"</body>")
    return head + tags.encode() + end + tail if end else page


class Handler(SimpleHTTPRequestHandler):
    """Serves the site (its pages from memory once a build has made them); adds the client
    scripts to HTML; streams build events."""

    state: BuildState
    morph_js: bytes | None
    protocol_version = "HTTP/1.1"

    def do_HEAD(self) -> None:
        """As GET, without the body: the same status, type and length (http.server's HEAD
        sent the page on disk, not the one in memory, and without the client scripts)."""
        self.do_GET()

    def do_GET(self) -> None:
        path = self.path.split("?")[0].split("#")[0]
        if path == EVENTS_PATH and self.command == "HEAD":   # a stream has no length
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            return None
        if path == CLIENT_PATH:
            return self._send(CLIENT_JS.read_bytes(), "text/javascript; charset=utf-8")
        if path == MORPH_PATH and self.morph_js is not None:
            return self._send(self.morph_js, "text/javascript; charset=utf-8")
        if path == EVENTS_PATH:
            return self._events()
        if "\0" in unquote(path):    # no file's name: os.stat raised ValueError, a traceback
            return self.send_error(HTTPStatus.NOT_FOUND, "no such file")
        rel = site_path(path)
        with self.state.changed:
            page = self.state.pages.get(rel)
        file = Path(self.translate_path(path))
        if path.endswith("/"):
            file = file / "index.html"  # a folder without "/" gets http.server's redirect
        if page is None and file.suffix == ".html" and file.is_file():
            page = file.read_bytes()
        if page is not None:
            return self._send(served(page, self._tags()), "text/html; charset=utf-8")
        if not file.exists() and self.state.error and path.endswith(("/", ".html")):
            page = ("<!doctype html><meta charset=utf-8><title>build failed</title><body>"
                    f"{self._tags()}</body>").encode()
            return self._send(page, "text/html; charset=utf-8")
        return super().do_HEAD() if self.command == "HEAD" else super().do_GET()

    def send_error(self, code: int, message: str | None = None,
                   explain: str | None = None) -> None:
        """A missing page or file gets the site's own 404.html (with the client scripts: a
        fix of the link reloads the tab), status 404, as the deployed site answers; other
        errors, and a site without one, http.server's page."""
        if code == HTTPStatus.NOT_FOUND:
            with self.state.changed:
                page = self.state.pages.get("404.html")
            file = Path(self.directory) / "404.html"
            if page is None and file.is_file():
                page = file.read_bytes()
            if page is not None:
                body = served(page, self._tags())
                self.send_response(HTTPStatus.NOT_FOUND, message)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(body)
                return
        super().send_error(code, message, explain)

    def _tags(self) -> str:
        with self.state.changed:
            token, error, warnings = self.state.token, self.state.error, self.state.warnings
        return client_tags(token, error, self.morph_js is not None, warnings)

    def _send(self, body: bytes, ctype: str) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def _events(self) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        state = self.state
        with state.changed:
            seen, good, token, error = state.generation, state.good, state.token, state.error
            warnings, patches = state.warnings, state.patches
            state.streams += 1
        try:
            self._event("hello", json.dumps({"token": token, "error": error,
                                             "warnings": warnings}, ensure_ascii=False))
            while True:
                with state.changed:
                    state.changed.wait_for(functools.partial(_moved, state, seen, patches),
                                           timeout=15)
                    moved, seen = state.generation != seen, state.generation
                    patch = state.patched if state.patches != patches else None
                    patches = state.patches
                    update = self._update(good) if state.good != good else None
                    good, error, warnings = state.good, state.error, state.warnings
                if patch is not None:
                    self._event("patch", json.dumps(patch, ensure_ascii=False))
                if update is not None:
                    self._event("update", update)
                elif moved:
                    self._event("failed", json.dumps({"error": error, "warnings": warnings},
                                                     ensure_ascii=False))
                elif patch is None:
                    self.wfile.write(b": keep-alive\n\n")
                    self.wfile.flush()
                if moved or patch is not None:
                    with state.changed:
                        if seen == state.generation and patches == state.patches:
                            state.told += 1
                        state.changed.notify_all()
        except (BrokenPipeError, ConnectionResetError, OSError):
            return
        finally:
            with state.changed:
                state.streams -= 1
                state.changed.notify_all()

    def _update(self, good: int) -> str:
        """The update event for a stream that saw good build `good` (called holding the
        state's lock): the new token, how to catch up, and the pages changed since, as
        served (`from`: the build they are counted from)."""
        state = self.state
        kind, changed = state.since(good)
        tags = client_tags(state.token, state.error, self.morph_js is not None, state.warnings)
        pages = {rel: served(state.pages[rel], tags).decode("utf-8")
                 for rel in sorted(changed) if rel in state.pages}
        # a tab that patched the page of build `good` as the build since made it need not
        # morph it again
        patched = state.kept[1] if state.kept and state.kept[0] == f"{state.run}.{good}" \
            and state.good == good + 1 else ""
        return json.dumps({"token": state.token, "kind": kind, "error": state.error,
                           "warnings": state.warnings, "from": good, "pages": pages,
                           "patched": patched}, ensure_ascii=False)

    def _event(self, name: str, data: str) -> None:
        self.wfile.write(f"event: {name}\ndata: {data}\n\n".encode())
        self.wfile.flush()

    def log_message(self, format: str, *args: object) -> None:
        pass


def site_path(url_path: str) -> str:
    """The site path an address names: `/en/` -> `en/index.html`."""
    rel = posixpath.normpath(unquote(url_path)).lstrip("/")
    if url_path.endswith("/"):
        rel = posixpath.join(rel, "index.html") if rel not in ("", ".") else "index.html"
    return rel


def _moved(state: BuildState, seen: int, patches: int) -> bool:
    return state.generation != seen or state.patches != patches
