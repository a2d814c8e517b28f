"""`python build.py --serve`: build, serve the site on 127.0.0.1, rebuild on change, reload.

- One warm process (issue 11): a `Builder` with an in-memory cache keeps Python's imports,
  the parsed templates, Markdown, the KaTeX worker and every cached result between builds,
  so a text edit re-converts one article. An edit to the code (sqrtdk/, build.py) cannot be
  reloaded in place: the server replaces itself with a fresh process (`os.execv`) that keeps
  the listening socket, so the address stays the same.
- Watching is watchfiles' job. The site is written atomically, so a failed rebuild leaves the
  last good site being served; its one-line error goes to the terminal and over the page.
- The reload script is injected into served HTML only, never into files on disk (as MkDocs
  does). It listens to a server-sent event stream; open tabs share one stream (Web Locks and a
  BroadcastChannel), so any number of tabs stays under the browser's six connections per host.
"""
from __future__ import annotations

import functools
import os
import socket
import sys
import threading
import time
import uuid
from collections.abc import Callable
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from ..errors import BuildError, display_path
from ..options import PACKAGE_DIR, BuildOptions

CLIENT_PATH = "/__reload/client.js"
EVENTS_PATH = "/__reload/events"
SOCKET_ENV = "SQRTDK_SERVE_FD"
CLIENT_JS = (Path(__file__).resolve().parent / "reload_client.js").read_bytes()


class BuildState:
    """The latest build outcome, shared between the watcher and the HTTP threads."""

    def __init__(self) -> None:
        self.run = uuid.uuid4().hex[:12]     # this server process
        self.generation = 0
        self.error = ""
        self.changed = threading.Condition()

    @property
    def token(self) -> str:
        """Identifies the site being served: a tab that saw another token reloads."""
        return f"{self.run}.{self.generation}"

    def publish(self, error: str) -> None:
        """A build finished ('' = it succeeded)."""
        with self.changed:
            self.generation += 1
            self.error = error
            self.changed.notify_all()


class Handler(SimpleHTTPRequestHandler):
    """Serves the site folder; adds the reload script to HTML; streams build events."""

    state: BuildState
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        path = self.path.split("?")[0].split("#")[0]
        if path == CLIENT_PATH:
            return self._send(CLIENT_JS, "text/javascript; charset=utf-8")
        if path == EVENTS_PATH:
            return self._events()
        file = Path(self.translate_path(path))
        if path.endswith("/"):
            file = file / "index.html"  # a folder without "/" gets http.server's redirect
        if file.suffix == ".html" and file.is_file():
            html = file.read_bytes().replace(b"</body>", self._client().encode() + b"</body>", 1)
            return self._send(html, "text/html; charset=utf-8")
        if not file.exists() and self.state.error and path.endswith(("/", ".html")):
            page = ("<!doctype html><meta charset=utf-8><title>build failed</title><body>"
                    f"{self._client()}</body>").encode()
            return self._send(page, "text/html; charset=utf-8")
        return super().do_GET()

    def _client(self) -> str:
        return f'<script src="{CLIENT_PATH}?token={self.state.token}"></script>'

    def _send(self, body: bytes, ctype: str) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def end_headers(self) -> None:
        if not self.path.startswith("/__reload/"):
            self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def _events(self) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        state = self.state
        seen = state.generation
        try:
            self._event("hello", state.token)
            if state.error:
                self._event("failed", state.error)
            while True:
                with state.changed:
                    state.changed.wait_for(functools.partial(_moved, state, seen), timeout=15)
                if state.generation == seen:
                    self.wfile.write(b": keep-alive\n\n")
                    self.wfile.flush()
                    continue
                seen = state.generation
                if state.error:
                    self._event("failed", state.error)
                else:
                    self._event("reload", state.token)
        except (BrokenPipeError, ConnectionResetError, OSError):
            return

    def _event(self, name: str, data: str) -> None:
        lines = "".join(f"data: {line}\n" for line in (data.splitlines() or [""]))
        self.wfile.write(f"event: {name}\n{lines}\n".encode())
        self.wfile.flush()

    def log_message(self, format: str, *args: object) -> None:
        pass


def _moved(state: BuildState, seen: int) -> bool:
    return state.generation != seen


def _listen(port: int) -> socket.socket:
    """The listening socket: inherited from the process this one replaced, or a new one."""
    fd = os.environ.pop(SOCKET_ENV, "")
    if fd:
        sock = socket.socket(fileno=int(fd))
    else:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError as e:
            sock.close()
            raise BuildError(Path(f"127.0.0.1:{port}"), 0, f"cannot serve here ({e.strerror}); "
                             "choose another --port, or 0 for any free port") from None
        sock.listen(64)
    return sock


def _server(sock: socket.socket, handler: Any) -> ThreadingHTTPServer:
    server = ThreadingHTTPServer(sock.getsockname()[:2], handler, bind_and_activate=False)
    server.socket.close()
    server.socket = sock
    server.daemon_threads = True
    return server


def serve(opts: BuildOptions, port: int, log: Callable[[str], None] = print,
          stop: threading.Event | None = None) -> None:
    """Build, then serve `opts.out` on 127.0.0.1:`port` and rebuild on every change, until
    `stop` is set or Ctrl+C. Raises BuildError for a port that cannot be used."""
    import watchfiles

    from ..pipeline import Builder
    state = BuildState()
    sock = _listen(port)
    handler = functools.partial(type("BoundHandler", (Handler,), {"state": state}),
                                directory=str(opts.out))
    server = _server(sock, handler)
    builder = Builder(opts, log, memory=True)
    state.publish(_build(builder, log))
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
            names = sorted({display_path(p) for _, p in changes})
            log(f"changed: {', '.join(names[:5])}{' …' if len(names) > 5 else ''}")
            if any(_is_code(Path(p)) for _, p in changes):
                _restart(builder, server, sock, log)
            state.publish(_build(builder, log))
    finally:
        builder.close()
        server.shutdown()
        server.server_close()


def _relevant(opts: BuildOptions, change: Any, path: str) -> bool:
    p = Path(path)
    if "__pycache__" in p.parts or p.name.startswith(".") or p.name.endswith("~") \
            or p.suffix in ("", ".pyc", ".tmp", ".swp", ".swx", ".bak"):
        return False        # editors' scratch files (sed's sedXXXXXX, vim's 4913, backups)
    if p.parent == opts.sweep_file.parent:
        return p == opts.sweep_file
    return True


def _is_code(path: Path) -> bool:
    return path.suffix in (".py", ".mjs") and (PACKAGE_DIR in path.parents or
                                               path.name == "build.py")


def _build(builder: Any, log: Callable[[str], None]) -> str:
    """One build in this process; its error line ('' on success)."""
    t0 = time.perf_counter()
    try:
        builder.build()
    except BuildError as e:
        log(f"error: {e}")
        return str(e)
    log(f"{'total':<12} {time.perf_counter() - t0:6.3f} s")
    return ""


def _restart(builder: Any, server: ThreadingHTTPServer, sock: socket.socket,
             log: Callable[[str], None]) -> None:
    """The code changed: become a fresh process with the same command line and socket."""
    log("code changed: restarting the server")
    builder.close()
    fd = os.dup(sock.fileno())
    os.set_inheritable(fd, True)
    os.environ[SOCKET_ENV] = str(fd)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(sys.executable, [sys.executable, *sys.argv])  # noqa: S606 - ourselves again
