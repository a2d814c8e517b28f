"""`python build.py --serve`: build, serve site/ on 127.0.0.1, rebuild on change, reload the page.

- Watching is watchfiles' job (content/, templates/, static/, the code); each change triggers
  one rebuild in a fresh `build.py` process, so edited code takes effect too. The rebuild is fast
  because experiments, figures and formulas come from the cache unless their inputs changed.
- The site is written atomically, so a failed rebuild leaves the last good site/ being served;
  its one-line error is printed in the terminal and shown over the page.
- The reload script is injected into served HTML responses only, never into files on disk
  (as MkDocs does); it listens to a server-sent event stream.
"""
from __future__ import annotations

import functools
import subprocess
import sys
import threading
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Callable

from . import config
from .errors import BuildError, display_path

CLIENT_PATH = "/__reload/client.js"
EVENTS_PATH = "/__reload/events"
WATCHED = ("content", "templates", "static", "sqrtdk", "build.py")

CLIENT_JS = b"""// Injected by build.py --serve only; never part of the built site.
(function () {
  var box = null;
  function show(message) {
    if (!box) {
      box = document.createElement("pre");
      box.setAttribute("role", "alert");
      box.style.cssText = "position:fixed;left:0;right:0;bottom:0;margin:0;padding:1rem;" +
        "background:#7f1d1d;color:#fff;font:14px/1.4 monospace;white-space:pre-wrap;z-index:99999";
      document.body.appendChild(box);
    }
    box.textContent = "build failed (still showing the last good site):\\n" + message;
  }
  var source = new EventSource("/__reload/events");
  source.addEventListener("reload", function () { location.reload(); });
  source.addEventListener("failed", function (e) { show(e.data); });
})();
"""


class BuildState:
    """The latest build outcome, shared between the watcher and the HTTP threads."""

    def __init__(self) -> None:
        self.generation = 0
        self.error = ""
        self.changed = threading.Condition()

    def publish(self, error: str) -> None:
        with self.changed:
            self.generation += 1
            self.error = error
            self.changed.notify_all()


class Handler(SimpleHTTPRequestHandler):
    """Serves the site folder; adds the reload script to HTML; streams build events."""

    state: BuildState

    def do_GET(self) -> None:  # noqa: N802 (http.server's naming)
        path = self.path.split("?")[0]
        if path == CLIENT_PATH:
            return self._send(CLIENT_JS, "text/javascript; charset=utf-8")
        if path == EVENTS_PATH:
            return self._events()
        file = Path(self.translate_path(path))
        if path.endswith("/"):
            file = file / "index.html"  # a folder without "/" gets http.server's redirect
        if file.suffix == ".html" and file.is_file():
            html = file.read_bytes().replace(
                b"</body>", f'<script src="{CLIENT_PATH}"></script></body>'.encode(), 1)
            return self._send(html, "text/html; charset=utf-8")
        return super().do_GET()

    def _send(self, body: bytes, ctype: str) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def _events(self) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        state = self.state
        seen = state.generation
        try:
            if state.error:
                self._event("failed", state.error)
            while True:
                with state.changed:
                    state.changed.wait_for(lambda: state.generation != seen, timeout=15)
                if state.generation == seen:
                    self.wfile.write(b": keep-alive\n\n")
                    self.wfile.flush()
                    continue
                seen = state.generation
                self._event("failed", state.error) if state.error else self._event("reload", "")
        except (BrokenPipeError, ConnectionResetError):
            return

    def _event(self, name: str, data: str) -> None:
        lines = "".join(f"data: {line}\n" for line in (data.splitlines() or [""]))
        self.wfile.write(f"event: {name}\n{lines}\n".encode())
        self.wfile.flush()

    def log_message(self, format: str, *args: object) -> None:  # quiet: the build logs
        pass


def rebuild(argv: list[str]) -> str:
    """Run one build in a fresh process; returns its error line ('' on success)."""
    proc = subprocess.run([sys.executable, str(config.ROOT / "build.py"), *argv],
                          capture_output=True, text=True, encoding="utf-8", check=False)
    sys.stdout.write(proc.stdout)
    if proc.returncode == 0:
        return ""
    sys.stderr.write(proc.stderr)
    lines = [ln for ln in proc.stderr.strip().splitlines() if ln.strip()]
    return lines[-1] if lines else f"build exited with status {proc.returncode}"


def serve(out: Path, port: int, build_argv: list[str],
          log: Callable[[str], None] = print, stop: threading.Event | None = None) -> None:
    """Build, then serve `out` on 127.0.0.1:`port` and rebuild on every change until `stop`."""
    import watchfiles
    state = BuildState()
    handler = functools.partial(type("BoundHandler", (Handler,), {"state": state}),
                                directory=str(out))
    try:
        server = ThreadingHTTPServer(("127.0.0.1", port), handler)
    except OSError as e:
        raise BuildError(Path(f"127.0.0.1:{port}"), 0, f"cannot serve here ({e.strerror}); "
                         "choose another --port, or 0 for any free port") from None
    state.publish(rebuild(build_argv))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    log(f"serving {display_path(out)} at http://127.0.0.1:{server.server_address[1]}/ "
        "(Ctrl+C stops)")
    paths = [config.ROOT / p for p in WATCHED if (config.ROOT / p).exists()]
    try:
        for changes in watchfiles.watch(*paths, debounce=60, step=20, stop_event=stop,
                                        raise_interrupt=False):
            names = sorted({Path(p).name for _, p in changes})
            log(f"changed: {', '.join(names[:5])}{' …' if len(names) > 5 else ''}")
            state.publish(rebuild(build_argv))
    finally:
        server.shutdown()
        server.server_close()
