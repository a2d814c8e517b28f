"""`python build.py --serve`: build, serve the site on 127.0.0.1, rebuild on change, patch the
open pages in place.

- One warm process (issue 11): a `Builder` with an in-memory cache keeps Python's imports,
  the parsed templates, Markdown, the math worker and every cached result between builds,
  so a text edit re-converts one article. An edit to the code (sqrtdk/, build.py) cannot be
  reloaded in place: once the new code imports (checked in a child process first, see
  serve_code), the server replaces itself with a fresh process (`os.execv`) that keeps the
  listening socket, so the address stays the same. Code that does not import is not loaded:
  the server goes on with the code it runs and says so over every page.
- Never dies (issue 18): any exception in a rebuild, an author's mistakes (a BuildError: a line
  each, every one the build found) or a bug of ours (its traceback goes to the terminal),
  keeps the last good site served (the site is written atomically) and shows the error over
  every open page and every page opened while the build is broken; the next good save
  recovers.
- Watching is watchfiles' job. After an edit that changed only pages (content files in,
  nothing but HTML out), the event that announces the build carries the changed pages as soon
  as the build has checked them, before it writes the site (the Builder's `on_site` hook);
  each open tab morphs its page into the live DOM with morphdom (reload_client.js): scroll,
  open boxes, focus and the page's own state stay. Any other change reloads the tab, once the
  site is written, which restores its scroll position and open boxes. Before that build, a save of
  one article sends just its changed blocks' HTML, made on their own (serve_fast), where that
  is known to give the page the build will make; the build's page follows.
- What only a host needs is skipped (pipeline: `memory`): content-hashed names (the server
  sends every file uncached) and precompressed siblings.
- The client scripts are added to served HTML only, never to files on disk (as MkDocs does).
  They listen to a server-sent event stream; open tabs share one stream (Web Locks and a
  BroadcastChannel), so any number of tabs stays under the browser's six connections per host.
"""
from __future__ import annotations

import errno
import functools
import hashlib
import itertools
import os
import socket
import stat
import sys
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any

from ..errors import BuildError, display_path, machine_fault, report
from ..log import captured, summarise
from ..options import PACKAGE_DIR, BuildOptions
from ..textfiles import read_text
from .serve_code import import_problem, is_code, listen, restart, server_on
from .serve_fast import ArticleContext, Patch, articles, contexts, patch_page
from .serve_http import BuildState, Handler

MORPHDOM = Path("morphdom") / "dist" / "morphdom-umd.min.js"   # package.json pins the version
# watchfiles: a save is built once no other change came for STEP_MS (an editor's save is a
# few writes within a millisecond or two), at most DEBOUNCE_MS after the first
STEP_MS, DEBOUNCE_MS = 8, 400
RUST_TIMEOUT_MS = 200    # the watcher yields an empty set after this long without a change


def serve(opts: BuildOptions, port: int, log: Callable[[str], None] = print,
          stop: threading.Event | None = None) -> None:
    """Build, then serve `opts.out` on 127.0.0.1:`port` and rebuild on every change, until
    `stop` is set or Ctrl+C. Raises BuildError for a port that cannot be used, and
    NothingServed (a KeyboardInterrupt) for Ctrl+C before serving began; nothing a rebuild
    raises stops it (see the module's docstring)."""
    state = BuildState()
    sock = listen(port)
    morph_file = opts.node_modules / MORPHDOM
    handler = functools.partial(type("BoundHandler", (Handler,), {
        "state": state, "morph_js": morph_file.read_bytes() if morph_file.is_file() else None}),
        directory=str(opts.out))
    server = server_on(sock, handler)
    loop = _Loop(opts, state, log)
    code = (PACKAGE_DIR, PACKAGE_DIR.parent / "build.py")
    watched = [opts.content_dir, opts.templates_dir, opts.static_dir, PACKAGE_DIR,
               opts.sweep_file.parent]
    watched += [p for p in code if p.is_file()]
    serving = False
    try:
        try:
            loop.build(reload=True)
            # The watches are in place once the generator has yielded (an empty set when
            # nothing changed within RUST_TIMEOUT_MS): only then is the page served, so a save
            # made as soon as the page shows is never missed (it was, when serving started
            # first).
            saves = _changes(watched, _Relevant(opts, watched), stop, log)
            first = next(saves, set())
        except KeyboardInterrupt:
            raise NothingServed from None
        threading.Thread(target=server.serve_forever, daemon=True).start()
        serving = True
        log(f"serving {display_path(opts.out)} at http://127.0.0.1:{sock.getsockname()[1]}/ "
            "(Ctrl+C stops)")
        gone = False       # the site folder deleted by hand, and built again since
        for found in itertools.chain([first], saves):
            changes = found
            if not changes:      # the watcher's timeout: nothing changed
                # but the site folder deleted (it is not watched: the build writes there):
                # its pages were served from memory, its styles, scripts and figures not
                # found; built again, once (a build that fails waits for the next save)
                if gone or _still_there(opts.out):
                    gone = gone and not _still_there(opts.out)
                    continue
                gone = True
                changes = {(MODIFIED, str(opts.out))}
            try:
                loop.changed([Path(p) for _, p in changes], server, sock)
            except Exception:    # a bug of ours outside the build: said, and served on
                traceback.print_exc()
                state.publish(_bug_line(sys.exc_info()[1]))
    finally:
        loop.builder.close()
        if serving:        # (shutdown waits for serve_forever to end: forever, unstarted)
            server.shutdown()
        server.server_close()


class NothingServed(KeyboardInterrupt):
    """Ctrl+C before the server served anything: in its first build, or while its file
    watcher started."""


WATCH_LIMIT = ("the system's limit of watched files is reached, so saves are found by "
               "reading the folders every {ms} ms (slower): raise the limit, e.g. 'sudo sysctl "
               "fs.inotify.max_user_watches=524288' (add it to /etc/sysctl.conf to keep it), "
               "or close programs that watch many files, then start the server again")
POLL_MS = 300


def _changes(watched: list[Path], relevant: Callable[[Any, str], bool],
             stop: threading.Event | None, log: Callable[[str], None],
             watch: Callable[..., Any] | None = None) -> Iterator[set[tuple[Any, str]]]:
    """watchfiles' change sets of `watched` (an empty set after RUST_TIMEOUT_MS without a
    change) until `stop` is set. An error of the watcher itself did not stop at the loop's
    `try` and ended the server with a traceback: the limit of inotify watches reached is now
    one line naming the limit and how to raise it, and saves are found by polling; any other
    error of the watcher (its traceback in the terminal) starts it again, polling from the
    second error in a row.

    A file under `watched` that is a symbolic link to a file elsewhere (an article kept in
    another folder) is watched at its target too, and a change there is named by the link
    (a save of the target was never seen: the watcher follows linked folders, not linked
    files); the watcher starts again when such a link or its target is made, moved or
    replaced (an editor's save that renames a new file over the old one)."""
    if watch is None:
        import watchfiles
        watch = watchfiles.watch
    polling, failures, said = False, 0, ""
    while stop is None or not stop.is_set():
        try:
            links = _linked_files(watched)
            targets = _targets(links)
            for changes in watch(*[p for p in watched if p.exists()],
                                 *sorted({t for t, ino in links.values() if ino != -1}),
                                 debounce=DEBOUNCE_MS,
                                 step=STEP_MS, stop_event=stop, raise_interrupt=True,
                                 rust_timeout=RUST_TIMEOUT_MS, yield_on_timeout=True,
                                 watch_filter=functools.partial(_or_target, targets,
                                                                relevant),
                                 force_polling=polling or None,
                                 poll_delay_ms=POLL_MS):
                failures = 0
                # a target replaced (a new file renamed over it) is not always told by the
                # watch on the old file: its inode is compared on every round
                replaced = {link for link, (target, inode) in links.items()
                            if _inode(target) != inode}
                yield {(c, str(link)) for link, (target, _) in links.items()
                       for c, p in changes if p == str(target)} | \
                    {(c, p) for c, p in changes if Path(p) not in targets} | \
                    {(MODIFIED, str(link)) for link in replaced}
                if replaced or (changes and _linked_files(watched) != links):
                    break       # a link or its target made, moved or replaced: watch anew
            else:
                return
        except Exception as e:     # the watcher's own error: the server goes on
            failures += 1
            if _watch_limit(e):
                line = "warning: " + WATCH_LIMIT.format(ms=POLL_MS)
                polling = True
            else:
                traceback.print_exc()
                polling = polling or failures > 1
                line = (f"warning: watching the files failed ({type(e).__name__}: {e}); it starts "
                        f"again{', polling' if polling else ''}")
            if line != said:
                log(line)
                said = line
            if failures > 1:
                time.sleep(1)      # failing again at once: not in a busy loop


def _still_there(folder: Path) -> bool:
    """Whether the site folder is still there, for the serve loop's idle rounds: a folder
    that cannot be looked at (a permission error on its parent: is_dir raises for any error
    but a missing path) counts as there, so the loop goes on rather than ending the server
    with a traceback; the next build says what is wrong with it."""
    try:
        return folder.is_dir()
    except OSError:
        return True


def _linked_files(roots: list[Path]) -> dict[Path, tuple[Path, int]]:
    """Each symbolic link to a file found under the folders `roots` (links to folders are
    followed by the watcher, and walked here): link -> (its target, the target's inode);
    a link to nothing (its target deleted, or not yet made) has inode -1, so that the
    target made again is found by its inode (such a link was left out: once its target was
    deleted, by an editor's save or by hand, no later save of it was seen)."""
    from ..unchanged import walk_once
    found: dict[Path, tuple[Path, int]] = {}
    for root in roots:
        if not root.is_dir():
            continue
        for folder, dirs, files in walk_once(root):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            for name in files:
                path = Path(folder, name)
                if path.is_symlink():
                    try:
                        target = path.resolve(strict=False)
                    except (OSError, RuntimeError):   # a loop: the build says so
                        continue
                    try:
                        st = target.stat()
                    except OSError:       # to nothing (yet): the build says so
                        found[path] = (target, -1)
                        continue
                    if stat.S_ISREG(st.st_mode):
                        found[path] = (target, st.st_ino)
    return found


MODIFIED = 2    # watchfiles.Change.modified


def _inode(path: Path) -> int:
    try:
        return path.stat().st_ino
    except OSError:
        return -1


def _targets(links: dict[Path, tuple[Path, int]]) -> set[Path]:
    return {target for target, _ in links.values()}


def _or_target(targets: set[Path], relevant: Callable[[Any, str], bool], change: Any,
               path: str) -> bool:
    """The watcher's filter: a linked file's target, whatever its name, or what `relevant`
    takes."""
    return Path(path) in targets or relevant(change, path)


def _watch_limit(e: BaseException) -> bool:
    """Whether `e` is the watcher's 'OS file watch limit reached' (inotify_add_watch's
    ENOSPC), which watchfiles raises as an OSError, or wrapped in its internal error."""
    return "watch limit" in str(e).lower() or getattr(e, "errno", None) == errno.ENOSPC


class _Loop:
    """The rebuilds of one server process: the Builder, the site's other files last seen, and
    a code change that could not be loaded."""

    def __init__(self, opts: BuildOptions, state: BuildState, log: Callable[[str], None]):
        self.opts, self.state, self.log = opts, state, log
        # the fast path (serve_fast): each article's context and text as the pages served
        # were built from it, and the HTML of blocks patched before
        self.contexts: dict[Path, ArticleContext] = {}
        self.texts: dict[Path, str] = {}
        self.known: dict[str, str] = {}
        self.patch: Patch | None = None     # sent ahead of the build under way
        self.pending: dict[Path, str] | None = None   # the texts the build under way read
        self.builder = self._builder()
        self.shared: dict[str, Any] | None = None   # `_shared` of the last site made
        self.code_error = ""
        self.code_changed: set[Path] = set()   # the code files changed since this process began
        self.reload = True
        self.after_write: dict[str, bytes] | None = None   # a reload's pages, once written
        self.sent = False
        self.started = 0.0
        self.said: list[str] = []       # the warnings of the build under way, as logged
        self.written = ""               # the fingerprint of the site this process wrote last
        self.mistaken = False           # the last build stopped on an author's mistakes
        # the pages served and `shared` before the site last sent, for a write that fails
        self.undo: tuple[dict[str, bytes], dict[str, Any] | None] = ({}, None)

    def _builder(self) -> Any:
        from ..pipeline import Builder
        loop = self

        class Recording(Builder):
            """A Builder that keeps each article's context for the fast path, and its text
            as the pages stage read it (when the file did not change meanwhile)."""

            def pages(self, inputs: Any, results: Any, data: bytes, figures: Any) -> Any:
                loop.contexts.update(contexts(self, inputs, results, figures))
                before = articles(loop.opts.content_dir)
                made = super().pages(inputs, results, data, figures)
                after = articles(loop.opts.content_dir)
                loop.pending = {p: t for p, t in before.items() if after.get(p) == t}
                return made

            def write(self, site: Any) -> tuple[str, str]:
                made: tuple[str, str] = super().write(site)
                loop.written = made[0]
                return made

        builder = Recording(self.opts, self.log, memory=True)
        builder.on_site = self._ready
        return builder

    def changed(self, paths: list[Path], server: ThreadingHTTPServer,
                sock: socket.socket) -> None:
        """Rebuild after `paths` changed; a code change restarts the server if it imports."""
        names = sorted({display_path(p) for p in paths})
        self.log(f"changed: {', '.join(names[:5])}{' …' if len(names) > 5 else ''}")
        self.log(f"{'watch':<12} {_since_saved(paths):6.3f} s  (the last save -> now)")
        if any(is_code(p) for p in paths):
            self.code_changed |= {p for p in paths if is_code(p)}
            problem = import_problem(PACKAGE_DIR.parent)
            if not problem:
                self.builder.close()
                restart(sock, self.log)
            self.code_error = (f"{problem}; the code change was not loaded (the server goes on "
                               "with the code it started with): fix it and save")
            self.log(f"error: {self.code_error}")
        content = all(self.opts.content_dir in p.parents for p in paths)
        if content and not self.code_error:
            self._fast(paths)
        self.build(reload=not content)

    def _fast(self, paths: list[Path]) -> None:
        """After a save of one article, send the open tabs its edited blocks' HTML before
        the build (serve_fast), where they can be made on their own."""
        t0 = time.perf_counter()
        try:
            found = {p.resolve() for p in paths if p.resolve() in self.contexts}
        except (OSError, RuntimeError):      # a link that loops: the build says so
            return
        if self.state.error or len(found) != 1 or len(set(paths)) != 1:   # one article saved
            return
        path = found.pop()
        ctx, old = self.contexts[path], self.texts.get(path)
        with self.state.changed:
            page = self.state.pages.get(ctx.rel)
        try:
            new = read_text(path)
            patch = None if old is None or page is None else \
                patch_page(ctx, old, new, page.decode("utf-8"), self.known)
        except BuildError:        # the build says it, at its line
            return
        except Exception:        # a bug of ours: said; the build goes on as without it
            traceback.print_exc()
            return
        if patch is None:
            self.log(f"{'patch':<12} {time.perf_counter() - t0:6.3f} s  (none: left to the "
                     "build)")
            return
        self.patch = patch
        self.state.patch(ctx.rel, patch.old, patch.new)
        self.state.wait_told(timeout=0.1)
        self.log(f"{'patched':<12} {time.perf_counter() - t0:6.3f} s  (the edited blocks, to "
                 "the open tabs)")

    def build(self, reload: bool) -> None:
        """One build; publishes its outcome: the error line, or the new site's pages (those
        that may morph as soon as the site is checked, see `_ready`), or, when nothing
        changed, only the error state."""
        self.reload, self.after_write, self.sent = reload, None, False
        self.pending = None
        # a site made in this process, which the next is compared to (`_ready`), else the
        # build makes one: the cache's 'unchanged' replay of a site left by another process
        # has no pages to patch or morph (the first edit reloaded the tabs, unpatched)
        self.builder.replay = self.shared is not None
        sources = _saved_sources(self.opts)
        error = self._build()
        if error and self.mistaken and _saved_sources(self.opts) != sources:
            # saved again while it ran (an editor's save in two writes, the file emptied
            # first; a save a moment after another): the watcher has that save, whose build
            # tells what is wrong with it; these mistakes may be of a half-written file
            self.patch = None
            self.log("(the sources changed during that build: the next one tells)")
            return
        if not error and self.after_write is None and not self.sent and not self._ours():
            # the site as these sources make it, written by another server of this checkout:
            # the pages held here are older; made again (from the cache), they are served
            self.log("the site was written by another build of this checkout: made here too")
            self.builder.replay = False
            error = self._build()
        self.patch = None
        if not error and self.pending is not None:   # the pages served now are made of these
            self.texts = self.pending
        if error and self.sent:     # sent, then not written (a full disk): the tabs go
            # back to the site on disk, which is served, and show why
            pages, shared = self.undo
            if self.shared is not None:     # (None after a bug: the next build makes all)
                self.shared = shared
            self.state.publish(_join(self.code_error, error), "morph", pages)
        elif error:     # a code change that was not loaded comes first: it may be the cause
            self.state.publish(_join(self.code_error, error))
        elif self.after_write is not None:
            self.state.publish(self.code_error, "reload", self.after_write,
                               warnings=_warnings(self.said))
        elif not self.sent:     # the site as these inputs made it before (its warnings
            # logged again: unchanged.replayed)
            self.state.publish(self.code_error, warnings=_warnings(self.said))

    def _ours(self) -> bool:
        """Whether the site in the output folder is the one this process wrote last (or it
        wrote none yet), by the fingerprint its marker file ends with."""
        from .output import MARKER
        if not self.written:
            return True
        try:
            marker = (self.opts.out / MARKER).read_text(encoding="utf-8")
        except (OSError, ValueError):
            return False
        return marker.strip().endswith(self.written)

    def _ready(self, site: Any) -> None:
        """The Builder's `on_site`: the new site, checked, not yet written. Its pages are
        sent now when every other file is as before (only pages changed: the tabs morph),
        else once the site is written (the tabs reload and fetch the new files)."""
        pages = {rel: data for rel, data in site.files.items() if rel.endswith(".html")}
        shared = _shared(site)
        same = not self.reload and shared == self.shared
        with self.state.changed:
            self.undo = (dict(self.state.pages), self.shared)
        self.shared = shared
        if same:
            patch, self.patch = self.patch, None
            made = patch.rel if patch is not None and \
                pages.get(patch.rel) == patch.page.encode("utf-8") else ""
            self.state.publish(self.code_error, "morph", pages, made,
                               warnings=_warnings(self.said))
            self.sent = True
            self.state.wait_told(timeout=0.25)
            self.log(f"{'sent':<12} {time.perf_counter() - self.started:6.3f} s  (the pages, "
                     "to the open tabs)")
        else:
            self.after_write = pages

    def _build(self) -> str:
        """Build; '' on success, else what to show: a line per mistake (errors.report), one
        for a fault of the machine (errors.machine_fault: a full disk), or one for a bug (its
        traceback goes to stderr, and the next build starts from a fresh Builder)."""
        self.started = t0 = time.perf_counter()
        self.mistaken = False
        try:
            try:
                with captured() as self.said:
                    self.builder.build()
            finally:
                summarise()
        except BuildError as e:     # every mistake found, one line each, as build.py says them
            self.mistaken = True
            lines = report(e)
            for line in lines:
                self.log(f"error: {line}")
            return "\n".join(lines)
        except Exception as e:
            fault = machine_fault(e)
            if fault is not None:   # a full disk, a worker killed: said as build.py does
                self.log(f"error: {fault}")
                return fault
            # with code on disk that does not import, the old code's build may stop on it
            # (a new experiment module is found, and imported, by itself): not a bug of ours,
            # when the traceback passes through a changed file (any other still is one, and
            # prints its traceback). One that stops where the import check stopped (its
            # traceback, printed already) prints none: a second one, through the old code's
            # cache keys, told nothing more about the author's SyntaxError
            unloaded = bool(self.code_error) and _through(e, self.code_changed)
            if not (unloaded and self.code_error.startswith(f"{_where(e)}: ")):
                traceback.print_exc()
            line = _unloaded_line(e) if unloaded else _bug_line(e)
            self.log(f"error: {line}")
            self.builder.close()
            self.builder = self._builder()
            self.shared = None
            return line
        self.log(f"{'total':<12} {time.perf_counter() - t0:6.3f} s")
        return ""


def _since_saved(paths: list[Path]) -> float:
    """Seconds since the newest of `paths` was modified (the watcher's delay; 0 when every
    path is gone)."""
    times = []
    for p in paths:
        try:
            times.append(p.stat().st_mtime)
        except OSError:      # deleted since
            continue
    return max(0.0, time.time() - max(times)) if times else 0.0


# the warnings shown over the pages at most (the terminal has them all), as --strict lists
# at most 20 errors
SHOWN_WARNINGS = 20


def _warnings(said: list[str]) -> str:
    """The warnings shown over the open pages: the build's distinct warnings (`path:line:
    warning: …`, as printed), a line each, the first SHOWN_WARNINGS of them and a line
    saying how many more the terminal has."""
    lines = list(dict.fromkeys(said))
    more = len(lines) - SHOWN_WARNINGS
    return "\n".join(lines[:SHOWN_WARNINGS] + ([f"… and {more} more warning(s), in the "
                                                  "terminal"] if more > 0 else []))


def _join(*errors: str) -> str:
    return "\n".join(e for e in errors if e)


def _bug_line(e: BaseException | None) -> str:
    return (f"a bug in the build, not in your files: {type(e).__name__}: {e} (the traceback is "
            "in the terminal); the last good site is still served")


def _unloaded_line(e: BaseException | None) -> str:
    return (f"the build stopped on the code change that was not loaded ({type(e).__name__}: "
            f"{e}); it builds again once that code imports; the last good site is still "
            "served")


def _where(e: BaseException) -> str:
    """`path:line` where `e` was raised (a SyntaxError: the line it names), as
    serve_code.import_problem names a failure; '' when unknown."""
    if isinstance(e, SyntaxError) and e.filename and e.lineno:
        return f"{display_path(e.filename)}:{e.lineno}"
    frames = traceback.extract_tb(e.__traceback__)
    return f"{display_path(frames[-1].filename)}:{frames[-1].lineno}" if frames else ""


def _through(e: BaseException, paths: set[Path]) -> bool:
    """Whether `e`, or an exception it was raised from or while handling, passed through one
    of `paths`: a frame of its traceback there, or a SyntaxError's file."""
    def key(name: str) -> str:
        try:
            return os.path.realpath(name)
        except (OSError, ValueError):
            return name
    wanted = {key(str(p)) for p in paths}
    seen: set[int] = set()
    at: BaseException | None = e
    while at is not None and id(at) not in seen:
        seen.add(id(at))
        files = [frame.filename for frame in traceback.extract_tb(at.__traceback__)]
        if isinstance(at, SyntaxError) and at.filename:
            files.append(at.filename)
        if any(key(f) in wanted for f in files):
            return True
        at = at.__cause__ or at.__context__
    return False


def _shared(site: Any) -> dict[str, Any]:
    """What every file of a site but its pages is: the SHA-256 of a generated file's bytes,
    the source, size and modification time of a copied one. Equal for two sites when a tab
    may keep every file it loaded and only patch its page."""
    found: dict[str, Any] = {}
    for rel, data in site.files.items():
        if not rel.endswith(".html"):
            found[rel] = hashlib.sha256(data).digest()
    for rel, path in site.copies.items():
        st = path.stat()
        found[rel] = (str(path), st.st_size, st.st_mtime_ns)
    return found


class _Relevant:
    """watchfiles' filter: which changes start a build. Editors' scratch files do not (sed's
    sedXXXXXX, vim's 4913, backups, swap files, JetBrains' and Emacs'); a folder does,
    whatever its name: one moved away or back (a language's, renamed in a file manager) is a
    single event naming the folder, which has no suffix (it was taken for a scratch file: the
    site went on showing a language that was gone). A folder deleted or moved away is no
    longer one on disk, so the folders are known from the start and as they come."""

    def __init__(self, opts: BuildOptions, roots: list[Path]):
        self.opts = opts
        self.folders = {Path(d) for root in roots if root.is_dir() for d, _, _ in os.walk(root)}

    def __call__(self, change: Any, path: str) -> bool:
        p = Path(path)
        if "__pycache__" in p.parts:
            return False
        if p.parent == self.opts.sweep_file.parent:
            return p == self.opts.sweep_file
        if p in self.folders or p.is_dir():
            self.folders.add(p)
            return True
        return not scratch(p)


def scratch(path: Path) -> bool:
    """Whether the file `path` is an editor's scratch file by its name (`_Relevant`): a
    change to it starts no build."""
    name = path.name
    return (name.startswith((".", "#")) or name.endswith(SCRATCH_ENDINGS)
            or path.suffix in ("", ".pyc", ".tmp", ".swp", ".swx", ".bak"))


def _saved_sources(opts: BuildOptions) -> dict[str, tuple[int, int, int]]:
    """unchanged.source_stamps without editors' scratch files: a change the watcher starts
    a build for (vim rewriting its swap file during a build that stopped on a mistake made
    the loop leave the mistake to a next build that never came: the tabs showed no error)."""
    from ..unchanged import source_stamps
    return {p: st for p, st in source_stamps(opts).items() if not scratch(Path(p))}


# the ends of editors' scratch names: backups (index.md~), JetBrains' atomic save
# (index.md___jb_tmp___ renamed over index.md, which went to index.md___jb_old___); Emacs'
# auto-save file is #index.md#
SCRATCH_ENDINGS = ("~", "___jb_tmp___", "___jb_old___")
