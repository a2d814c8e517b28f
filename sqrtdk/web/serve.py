"""`python build.py --serve`: build, serve the site on 127.0.0.1, rebuild on change, patch the
open pages in place.

- One warm process (issue 11): a `Builder` with an in-memory cache keeps Python's imports,
  the parsed templates, Markdown, the math worker and every cached result between builds,
  so a text edit re-converts one article. An edit to the code (sqrtdk/, build.py) cannot be
  reloaded in place: once the new code imports (checked in a child process first, see
  serve_code), the server replaces itself with a fresh process (`os.execv`) that keeps the
  listening socket, so the address stays the same. Code that does not import is not loaded:
  the server goes on with the code it runs and says so over every page.
- Never dies (issue 18): any exception in a rebuild, an author's mistake (BuildError, one line)
  or a bug of ours (its traceback goes to the terminal), keeps the last good site served
  (the site is written atomically) and shows the error over every open page and every page
  opened while the build is broken; the next good save recovers.
- Watching is watchfiles' job. After an edit that changed only pages (content files in,
  nothing but HTML out), each open tab fetches its page again and morphs it into the live DOM
  with morphdom (reload_client.js): scroll, open boxes, focus and the page's own state stay.
  Any other change reloads the tab, which restores its scroll position and open boxes.
- The client scripts are added to served HTML only, never to files on disk (as MkDocs does).
  They listen to a server-sent event stream; open tabs share one stream (Web Locks and a
  BroadcastChannel), so any number of tabs stays under the browser's six connections per host.
"""
from __future__ import annotations

import functools
import html
import json
import socket
import sys
import threading
import time
import traceback
import uuid
from collections.abc import Callable
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from ..errors import BuildError, display_path
from ..options import PACKAGE_DIR, BuildOptions
from .serve_code import import_problem, is_code, listen, restart, server_on

CLIENT_PATH = "/__reload/client.js"
MORPH_PATH = "/__reload/morphdom.js"
EVENTS_PATH = "/__reload/events"
CLIENT_JS = Path(__file__).resolve().parent / "reload_client.js"   # read on each request
MORPHDOM = Path("morphdom") / "dist" / "morphdom-umd.min.js"   # package.json pins the version


class BuildState:
    """The latest build outcome, shared between the watcher and the HTTP threads.

    `good` counts the sites built; `kinds` remembers, per good build, whether the open pages
    may morph ("morph") or must reload ("reload"); `error` is what the pages show ('' = none).
    """

    def __init__(self) -> None:
        self.run = uuid.uuid4().hex[:12]     # this server process
        self.generation = 0                  # every outcome, good or not
        self.good = 0
        self.kinds: dict[int, str] = {}
        self.error = ""
        self.changed = threading.Condition()

    @property
    def token(self) -> str:
        """Identifies the site being served: a tab that saw another token updates."""
        return f"{self.run}.{self.good}"

    def publish(self, error: str, kind: str | None = None) -> None:
        """A build finished: `kind` ("morph" or "reload") for a new good site, None if the
        site did not change; `error` is shown over the pages ('' hides it)."""
        with self.changed:
            self.generation += 1
            if kind is not None:
                self.good += 1
                self.kinds[self.good] = kind
                self.kinds.pop(self.good - 64, None)
            self.error = error
            self.changed.notify_all()

    def kind_since(self, good: int) -> str:
        """How a tab that saw good build `good` catches up: "morph" only if every build since
        allows it."""
        missed = [self.kinds.get(g, "reload") for g in range(good + 1, self.good + 1)]
        return "reload" if "reload" in missed else "morph"


class Handler(SimpleHTTPRequestHandler):
    """Serves the site folder; adds the client scripts to HTML; streams build events."""

    state: BuildState
    morph_js: bytes | None
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        path = self.path.split("?")[0].split("#")[0]
        if path == CLIENT_PATH:
            return self._send(CLIENT_JS.read_bytes(), "text/javascript; charset=utf-8")
        if path == MORPH_PATH and self.morph_js is not None:
            return self._send(self.morph_js, "text/javascript; charset=utf-8")
        if path == EVENTS_PATH:
            return self._events()
        file = Path(self.translate_path(path))
        if path.endswith("/"):
            file = file / "index.html"  # a folder without "/" gets http.server's redirect
        if file.suffix == ".html" and file.is_file():
            page = file.read_bytes().replace(b"</body>", self._client().encode() + b"</body>", 1)
            return self._send(page, "text/html; charset=utf-8")
        if not file.exists() and self.state.error and path.endswith(("/", ".html")):
            page = ("<!doctype html><meta charset=utf-8><title>build failed</title><body>"
                    f"{self._client()}</body>").encode()
            return self._send(page, "text/html; charset=utf-8")
        return super().do_GET()

    def _client(self) -> str:
        """The client scripts, with the site's token and the current error (a tab opened
        while the build is broken shows it at once)."""
        state = self.state
        with state.changed:
            token, error = state.token, state.error
        morph = f'<script src="{MORPH_PATH}"></script>' if self.morph_js is not None else ""
        return (f'{morph}<script src="{CLIENT_PATH}?token={token}" '
                f'data-error="{html.escape(error)}"></script>')

    def _send(self, body: bytes, ctype: str) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
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
        try:
            self._event("hello", json.dumps({"token": token, "error": error}))
            while True:
                with state.changed:
                    state.changed.wait_for(functools.partial(_moved, state, seen), timeout=15)
                    moved = state.generation != seen
                    seen, error, token = state.generation, state.error, state.token
                    kind, new_site, good = state.kind_since(good), state.good != good, state.good
                if new_site:
                    self._event("update", json.dumps({"token": token, "kind": kind,
                                                      "error": error}))
                elif moved:
                    self._event("failed", json.dumps({"error": error}))
                else:
                    self.wfile.write(b": keep-alive\n\n")
                    self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError, OSError):
            return

    def _event(self, name: str, data: str) -> None:
        self.wfile.write(f"event: {name}\ndata: {data}\n\n".encode())
        self.wfile.flush()

    def log_message(self, format: str, *args: object) -> None:
        pass


def _moved(state: BuildState, seen: int) -> bool:
    return state.generation != seen


def serve(opts: BuildOptions, port: int, log: Callable[[str], None] = print,
          stop: threading.Event | None = None) -> None:
    """Build, then serve `opts.out` on 127.0.0.1:`port` and rebuild on every change, until
    `stop` is set or Ctrl+C. Raises BuildError for a port that cannot be used; nothing a
    rebuild raises stops it (see the module's docstring)."""
    import watchfiles
    state = BuildState()
    sock = listen(port)
    morph_file = opts.node_modules / MORPHDOM
    handler = functools.partial(type("BoundHandler", (Handler,), {
        "state": state, "morph_js": morph_file.read_bytes() if morph_file.is_file() else None}),
        directory=str(opts.out))
    server = server_on(sock, handler)
    loop = _Loop(opts, state, log)
    loop.build(reload=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    log(f"serving {display_path(opts.out)} at http://127.0.0.1:{sock.getsockname()[1]}/ "
        "(Ctrl+C stops)")
    code = (PACKAGE_DIR, PACKAGE_DIR.parent / "build.py")
    watched = [opts.content_dir, opts.templates_dir, opts.static_dir, PACKAGE_DIR,
               opts.sweep_file.parent]
    watched += [p for p in code if p.is_file()]
    try:
        for changes in watchfiles.watch(*[p for p in watched if p.exists()], debounce=400,
                                        step=8, stop_event=stop, raise_interrupt=False,
                                        watch_filter=functools.partial(_relevant, opts)):
            try:
                loop.changed([Path(p) for _, p in changes], server, sock)
            except Exception:    # a bug of ours outside the build: said, and served on
                traceback.print_exc()
                state.publish(_bug_line(sys.exc_info()[1]))
    finally:
        loop.builder.close()
        server.shutdown()
        server.server_close()


class _Loop:
    """The rebuilds of one server process: the Builder, the outputs last seen, and a code
    change that could not be loaded."""

    def __init__(self, opts: BuildOptions, state: BuildState, log: Callable[[str], None]):
        from ..pipeline import Builder
        self.opts, self.state, self.log = opts, state, log
        self.builder = Builder(opts, log, memory=True)
        self.assets = _assets(opts.out)
        self.code_error = ""

    def changed(self, paths: list[Path], server: ThreadingHTTPServer,
                sock: socket.socket) -> None:
        """Rebuild after `paths` changed; a code change restarts the server if it imports."""
        names = sorted({display_path(p) for p in paths})
        self.log(f"changed: {', '.join(names[:5])}{' …' if len(names) > 5 else ''}")
        if any(is_code(p) for p in paths):
            problem = import_problem(PACKAGE_DIR.parent)
            if not problem:
                self.builder.close()
                restart(sock, self.log)
            self.code_error = (f"{problem}; the code change was not loaded (the server goes on "
                               "with the code it started with): fix it and save")
            self.log(f"error: {self.code_error}")
        content = all(self.opts.content_dir in p.parents for p in paths)
        self.build(reload=not content)

    def build(self, reload: bool) -> None:
        """One build; publishes its outcome (the error line, or how the pages update)."""
        error = self._build()
        if error:       # a code change that was not loaded comes first: it may be the cause
            self.state.publish(_join(self.code_error, error))
            return
        assets = _assets(self.opts.out)
        kind = "reload" if reload or assets != self.assets else "morph"
        self.assets = assets
        self.state.publish(self.code_error, kind)

    def _build(self) -> str:
        """Build; '' on success, else the line to show (a bug's traceback goes to stderr,
        and the next build starts from a fresh Builder)."""
        t0 = time.perf_counter()
        try:
            self.builder.build()
        except BuildError as e:
            self.log(f"error: {e}")
            return str(e)
        except Exception as e:
            traceback.print_exc()
            self.log(f"error: {_bug_line(e)}")
            self.builder.close()
            from ..pipeline import Builder
            self.builder = Builder(self.opts, self.log, memory=True)
            return _bug_line(e)
        self.log(f"{'total':<12} {time.perf_counter() - t0:6.3f} s")
        return ""


def _join(*errors: str) -> str:
    return "\n".join(e for e in errors if e)


def _bug_line(e: BaseException | None) -> str:
    return (f"a bug in the build, not in your files: {type(e).__name__}: {e} (the traceback is "
            "in the terminal); the last good site is still served")


def _assets(out: Path) -> dict[str, tuple[int, int, int]]:
    """Every file of the site but its pages and the build's marker, as (inode, size, mtime):
    the site is written anew with unchanged files hard-linked from the last one, so a changed
    file has a new inode."""
    from .output import MARKER
    if not out.is_dir():
        return {}
    found = {}
    for p in out.rglob("*"):
        if p.suffix != ".html" and p.name != MARKER and p.is_file():
            st = p.stat()
            found[p.relative_to(out).as_posix()] = (st.st_ino, st.st_size, st.st_mtime_ns)
    return found


def _relevant(opts: BuildOptions, change: Any, path: str) -> bool:
    p = Path(path)
    if "__pycache__" in p.parts or p.name.startswith(".") or p.name.endswith("~") \
            or p.suffix in ("", ".pyc", ".tmp", ".swp", ".swx", ".bak"):
        return False        # editors' scratch files (sed's sedXXXXXX, vim's 4913, backups)
    if p.parent == opts.sweep_file.parent:
        return p == opts.sweep_file
    return True
