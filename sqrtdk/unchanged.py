"""The whole-build shortcut: when nothing a build reads changed since the last one and the
output folder still holds that build's site, file for file, the build only replays its
warnings (the `unchanged` line). The last build is kept in the cache (unit "build") by the
digest of everything a build reads and the state of the figures folder it wrote.
"""
from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

from .cache import Cache, code_digest, key_for, tree_digest
from .errors import display_path
from .figures_stage import FIGURE_PACKAGES
from .log import replay
from .options import BuildOptions
from .pages_stage import WEB_PACKAGES


def build_inputs(opts: BuildOptions, serve: bool) -> str | None:
    """The digest of everything a build reads, or None without a cache: the code of every
    half, the library versions, the options (paths as messages show them: relative to the
    working folder, so a project copied elsewhere and built from its root still matches),
    whether it serves (--serve writes no precompressed files), and the bytes of every file
    under content/, templates/ and static/, the sweep and the installed versions of the math
    engines, of esbuild (the minifier) and of stylelint (the style sheets' check, with its
    rules). With the state of the figures folder (`build_key`) it keys the whole build, so
    an unchanged rebuild reads no page, result or figure (cost measured by `make bench`: the
    'unchanged rebuild' case)."""
    o = opts
    if o.cache_dir is None:
        return None
    from .web.math import identity_files
    from .web.minify import CSS_LINT, esbuild_package, stylelint_package
    where = [display_path(p) for p in (o.content_dir, o.templates_dir, o.static_dir,
                                        o.figures_dir, o.node_modules, o.out, o.sweep_file)]
    return key_for("build", code_digest("science", "figures", "web"),
                   repr((where, o.seed, o.strict, serve)),
                   tree_digest(o.content_dir, o.templates_dir, o.static_dir, suffixes=None),
                   [o.sweep_file, *identity_files(o.node_modules),
                    esbuild_package(o.node_modules), stylelint_package(o.node_modules), CSS_LINT],
                   packages=(*FIGURE_PACKAGES, *WEB_PACKAGES))


def walk_once(root: Path | str) -> Iterator[tuple[str, list[str], list[str]]]:
    """os.walk of `root` following links to folders, as the watcher does, each real folder
    once (a link to a folder above it would loop); a caller may prune `dirs` in place, as
    with os.walk."""
    seen: set[str] = set()
    for folder, dirs, files in os.walk(root, followlinks=True):
        real = os.path.realpath(folder)
        if real in seen:
            dirs[:] = []
            continue
        seen.add(real)
        yield folder, dirs, files


def source_stamps(opts: BuildOptions) -> dict[str, tuple[int, int, int]]:
    """Each file under content/, templates/ and static/ (links followed): its size,
    modification time and inode, to tell a build whose sources were saved while it ran, even
    when saved back to the same bytes before it ended (a save and its undo; an editor's
    save of the same text in two writes, read half-written): what it made is of neither.
    Stat only, no file read."""
    found: dict[str, tuple[int, int, int]] = {}
    for root in (opts.content_dir, opts.templates_dir, opts.static_dir):
        for folder, _, files in walk_once(root):
            for name in files:
                path = os.path.join(folder, name)
                try:
                    st = os.stat(path)
                except OSError:       # gone meanwhile, or a link to nothing
                    continue
                found[path] = (st.st_size, st.st_mtime_ns, st.st_ino)
    return found


def build_key(opts: BuildOptions, inputs: str) -> str:
    """The cache key of a build: `inputs` (build_inputs) and the names, sizes and
    modification times of the files in the figures folder (the build writes them; a deleted
    or edited one makes the next build go through every stage)."""
    folder = opts.figures_dir
    entries = sorted(folder.iterdir()) if folder.is_dir() else []
    return key_for("build", inputs, repr([(p.name, p.stat().st_size, p.stat().st_mtime_ns)
                                         for p in entries if p.is_file()]))


def site_state(opts: BuildOptions) -> str:
    """Digest of the path, size and modification time of every file in the output
    folder, as the last build left it: a hand edit, a new or a deleted file changes it
    (as for make and rsync; not the change time or inode, so a project copied with its
    times kept still matches). Stat only, no file is read: about 4 ms for the site's 122
    files against 53 ms to hash their bytes, measured on the loaded 2-core machine. Folders
    and symbolic links count as what they are (lstat: a link is not followed), so a folder
    or a link added by hand, even one to nothing, changes it too (a link to nothing stopped
    the build with a FileNotFoundError traceback, and a folder or link added survived)."""
    out = opts.out
    entries = []
    for folder, dirs, files in os.walk(out):
        dirs.sort()
        for name in sorted(dirs + files):
            path = os.path.join(folder, name)
            st = os.lstat(path)
            rel = os.path.relpath(path, out)
            entries.append((rel, "dir") if stat.S_ISDIR(st.st_mode) else
                           (rel, stat.S_IFMT(st.st_mode), st.st_size, st.st_mtime_ns))
    return key_for("build", repr(entries))


def replayed(opts: BuildOptions, cache: Cache, inputs: str) -> bool:
    """Whether the last build had these inputs and the output folder still holds its site,
    every file as that build left it (see `site_state`); if so, its warnings are logged
    again. Otherwise the build goes through its stages and `write` puts back any file
    edited by hand, and names it."""
    entry = cache.get_object("build", build_key(opts, inputs))
    if not isinstance(entry, tuple) or len(entry) != 3 or entry[2] != site_state(opts):
        return False
    fingerprint, messages, _ = entry
    from .web.output import MARKER
    try:
        marker = (opts.out / MARKER).read_text(encoding="utf-8")
    except OSError:
        return False
    if not marker.strip().endswith(fingerprint):
        return False
    replay(messages)
    return True


def remember(opts: BuildOptions, cache: Cache, inputs: str, fingerprint: str,
             messages: list[str]) -> None:
    """Keep the build just written (its site's fingerprint and warnings) for `replayed`."""
    cache.put_object("build", build_key(opts, inputs), (fingerprint, messages, site_state(opts)))
