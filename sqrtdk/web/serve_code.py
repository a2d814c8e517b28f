"""`--serve`'s process: its listening socket, kept across restarts, and the code it runs.

A code edit is loaded by replacing the process, but only once the new code imports (checked in
a child process), so a SyntaxError in a new figure module leaves the server running on the code
it has, saying so."""
from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from collections.abc import Callable
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any

from ..errors import BuildError, display_path
from ..options import PACKAGE_DIR

SOCKET_ENV = "SQRTDK_SERVE_FD"
# Imports every module of the package, then build.py (as a module: its main() does not run);
# one that does not finish within the seconds given (argv[1]) has its stack printed and ends
_IMPORT_ALL = ("import faulthandler, sys\n"
               "faulthandler.dump_traceback_later(float(sys.argv[1]), exit=True)\n"
               "import importlib, pkgutil, sqrtdk\n"
               "for m in pkgutil.walk_packages(sqrtdk.__path__, 'sqrtdk.'):\n"
               "    importlib.import_module(m.name)\n"
               "import build\n")
_FRAME = re.compile(r'^\s*File "([^"]+)", line (\d+)', re.M)
_TIMED_OUT = re.compile(r"^Timeout \(", re.M)    # faulthandler's, before the stack it prints
# the last line of a traceback for code Python could not parse (IndentationError, TabError
# are SyntaxErrors): the path and line say all there is, the stack is importlib's
_UNREADABLE = re.compile(r"^(SyntaxError|IndentationError|TabError): .*\s*\Z", re.M)


def is_code(path: Path) -> bool:
    """Whether `path` is code the server runs (it cannot be reloaded in place)."""
    return path.suffix in (".py", ".mjs") and (PACKAGE_DIR in path.parents or
                                               path.name == "build.py")


def import_problem(project: Path, timeout: float = 120) -> str:
    """'' if every module of the package and build.py import in a fresh interpreter started in
    `project`; else `path:line: ErrorType: message` of the failure (innermost frame), its
    whole traceback printed to stderr (the terminal), except for a syntax error (the line
    says it all; the stack is importlib's). An import still running after
    `timeout` seconds (a loop at a new module's top level) is named at the line it was
    running (it was subprocess's TimeoutExpired, shown over the pages as a bug of ours)."""
    proc = subprocess.run([sys.executable, "-c", _IMPORT_ALL, str(timeout)], cwd=project,
                          capture_output=True, text=True, timeout=timeout + 60, check=False)
    if proc.returncode == 0:
        return ""
    if not _UNREADABLE.search(proc.stderr):    # a syntax error is all in the one line
        sys.stderr.write(proc.stderr)
    if _TIMED_OUT.search(proc.stderr):      # most recent call first: the module's own line
        hung = [f for f in _FRAME.findall(proc.stderr) if not f[0].startswith("<")]
        where = f"{display_path(hung[0][0])}:{hung[0][1]}" if hung else \
            display_path(project / "build.py")
        return (f"{where}: importing the code did not finish within {timeout:g} s (a loop "
                "that never ends, or work done at a module's top level, which belongs in a "
                "function)")
    lines = proc.stderr.strip().splitlines()
    frames = _FRAME.findall(proc.stderr)
    last = lines[-1] if lines else f"exit status {proc.returncode}"
    if not frames:
        return f"{display_path(project / 'build.py')}: {last}"
    path, line = frames[-1]
    return f"{display_path(path)}:{line}: {last}"


def restart(sock: socket.socket, log: Callable[[str], None]) -> None:
    """Become a fresh process with the same command line, handing it the listening socket
    (so the address stays the same). Does not return."""
    log("code changed: restarting the server")
    fd = os.dup(sock.fileno())
    os.set_inheritable(fd, True)
    os.environ[SOCKET_ENV] = str(fd)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(sys.executable, [sys.executable, *sys.argv])  # noqa: S606 - ourselves again


def listen(port: int) -> socket.socket:
    """The listening socket on 127.0.0.1:`port`: inherited from the process this one
    replaced, or a new one. Raises BuildError for a port that cannot be used."""
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
                             "choose another --port (with make: make serve PORT=8001), or 0 "
                             "for any free port") from None
        sock.listen(64)
    return sock


class QuietServer(ThreadingHTTPServer):
    """The stdlib's threading HTTP server, silent when a client drops a request half sent (a
    tab reloaded or closed while a file was on its way): a BrokenPipeError or
    ConnectionResetError is the browser's doing, and its traceback in the terminal read as
    the server failing. Any other error still prints its traceback."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


def server_on(sock: socket.socket, handler: Any) -> ThreadingHTTPServer:
    """A threading HTTP server on the socket `sock` (already listening)."""
    server = QuietServer(sock.getsockname()[:2], handler, bind_and_activate=False)
    server.socket.close()
    server.socket = sock
    server.daemon_threads = True
    return server
