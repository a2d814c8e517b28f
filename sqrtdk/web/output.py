"""Write a site atomically and delete only what this build made.

The new site is written into a temporary folder beside the target and swapped in with two
renames, so a reader (or a crash) never sees half a site. A folder is only ever deleted when it
holds the MARKER file that this module writes.
"""
from __future__ import annotations

import errno
import glob
import hashlib
import os
import secrets
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import BuildError, display_path

MARKER = ".sqrtdk-site"          # a folder holding this file was made by this build


@dataclass
class Site:
    """The whole site before it is written: generated files and files copied as they are.

    `link_html` holds, for a generated page whose formulas were filled in afterwards, the page
    as it was before (formula placeholders instead of the engine's markup): what the link
    checks parse, since a formula carries no link, id or resource of its own.
    """

    files: dict[str, bytes] = field(default_factory=dict)   # relative path -> bytes
    copies: dict[str, Path] = field(default_factory=dict)   # relative path -> source file
    link_html: dict[str, str] = field(default_factory=dict)  # relative path -> HTML to parse

    def paths(self) -> set[str]:
        """Every file the site will have."""
        return set(self.files) | set(self.copies)

    def data(self, rel: str) -> bytes:
        """The bytes of the site's file `rel`: generated, or read from the file copied."""
        return self.files[rel] if rel in self.files else self.copies[rel].read_bytes()


def lock_path(folder: Path) -> Path:
    """The lock file of the builds that write `folder`: a hidden file beside it
    (`.sqrtdk-site.lock` for site/), so every process that writes the folder finds the same
    file, whatever its temporary folder (one in the system's temporary folder, named by the
    folder's digest, was another file for a terminal with another TMPDIR: two builds at once
    again)."""
    return folder.with_name(f".sqrtdk-{folder.name.lstrip('.')}.lock")


@contextmanager
def out_lock(out: Path, cache: Path | None, log: Callable[[str], None],
             *also: Path, waiting: str = "") -> Iterator[None]:
    """Hold the lock of every folder the block writes (`out`, `cache` when there is one, and
    `also`: the figures folder) while it runs; if another process holds one, say so with `log`
    and wait for it. Two builds of one checkout at once (a second terminal, an editor's
    build-on-save beside `--serve`) raced: one stat'ed site/ while the other swapped it in (a
    FileNotFoundError traceback), and one pruned the cache the other read. One lock per
    folder, not one per build: a `--no-cache` build shares no cache with a cached one but
    writes the same site/ and figures/. The locks are taken in one order (their paths'), so
    two builds never each hold one the other waits for. POSIX record locks (lockf): the
    processes a build forks do not hold them, and they go with the process that took them,
    also when killed. Where there are none (Windows), or a file cannot be opened, the build
    goes on without that lock, as where locks are refused (a filesystem without them:
    ENOLCK). `waiting`: what to say while waiting, if not who may hold the lock (a build of
    `out` for the site's; a build or a sweep, which writes no site, for the cache's or the
    figures')."""
    try:
        import fcntl
    except ImportError:         # Windows: no lockf
        yield
        return
    paths = sorted({lock_path(folder) for folder in (out, cache, *also) if folder is not None})
    fds: list[int] = []
    try:
        told = False
        for path in paths:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666)
            except OSError:
                continue
            fds.append(fd)
            try:
                fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as e:
                if e.errno not in (errno.EACCES, errno.EAGAIN):   # no locks here: without
                    continue
                if not told:
                    # a sweep takes the cache's and the figures' locks, never the site's
                    held = f"another build of {display_path(out)}" \
                        if path == lock_path(out) else "another build or sweep of this checkout"
                    log(f"{'waiting':<12} " + (waiting or f"for {held} to finish"))
                    told = True
                try:
                    fcntl.lockf(fd, fcntl.LOCK_EX)
                except OSError:     # refused now (ENOLCK, EDEADLK): on without it
                    continue
        yield
    finally:
        for fd in fds:
            os.close(fd)        # releases its lock


def check_out_dir(out: Path, sources: tuple[Path, ...]) -> Path:
    """Refuse output folders that are not safe to replace; returns the resolved path.

    Refused: the filesystem root, the home folder or one of its ancestors, any of the
    `sources` (the folders the build reads), a folder inside one or holding one (the project
    folder holds content/), and an existing non-empty folder without the build's MARKER.
    """
    target = out.expanduser().resolve()
    home = Path.home().resolve()
    if target == Path("/") or target == home or target in home.parents:
        raise BuildError(out, 0, "refusing to write the site here: it would replace a folder "
                                 "the build did not create; choose a folder such as 'site'")
    for src in (s.resolve() for s in sources):
        if target == src or src in target.parents:
            raise BuildError(out, 0, f"refusing to write the site inside {display_path(src)}, a "
                                     "folder the build reads or writes itself; choose a folder "
                                     "such as 'site'")
        if target in src.parents:
            raise BuildError(out, 0, "refusing to write the site here: it holds the build's "
                                     f"sources ({display_path(src)}); choose a folder such as "
                                     "'site'")
    built = next((parent for parent in target.parents if (parent / MARKER).is_file()), None)
    if built is not None:
        raise BuildError(out, 0, f"refusing to write the site inside the site this build made "
                                 f"({display_path(built)}); choose a folder outside it")
    if target.exists() and not target.is_dir():
        raise BuildError(out, 0, f"refusing to write the site to '{out}': it is a file; give "
                                 "--out an empty or new folder")
    above = next((p for p in target.parents if p.exists()), None)
    if above is not None and not above.is_dir():    # `--out notes.txt/site`
        raise BuildError(out, 0, f"cannot make the folder '{display_path(out)}': "
                                 f"{display_path(above)} is a file, not a folder; give "
                                 "--out a folder outside it")
    if target.exists() and any(target.iterdir()) and not (target / MARKER).exists():
        new = target / "sqrtdk-site"
        example = "" if new.exists() else f", e.g. --out {display_path(new)}"
        raise BuildError(out, 0, f"refusing to replace '{out}': it holds files this build did "
                                 f"not make (no {MARKER} file), which writing the site would "
                                 f"delete; give --out an empty or new folder{example}")
    return target


def site_digest(site: Site) -> str:
    """A digest of every path and byte of `site` (to skip writing an unchanged site)."""
    h = hashlib.sha256()
    for rel in sorted(site.paths()):
        h.update(rel.encode() + b"\0" + hashlib.sha256(site.data(rel)).digest())
    return h.hexdigest()


def edited_files(site: Site, out: Path) -> list[str]:
    """The entries of `out` that differ from `site`: files edited, deleted or added since,
    and anything else the build never makes there, each named as added: a symbolic link (to
    a file, a folder or nothing), a folder no file of the site is in (relative paths, a
    folder's ending in '/', sorted; the MARKER file aside). Reads every byte: called only
    when a build went through its stages anyway."""
    wanted = site.paths()
    folders = {parent.as_posix() for rel in wanted for parent in Path(rel).parents}
    found, differ = set(), []
    for folder, dirs, files in os.walk(out):     # links to folders are listed, not entered
        base = Path(folder)
        for name in dirs:
            rel = (base / name).relative_to(out).as_posix()
            if (base / name).is_symlink() or rel not in folders:
                differ.append(rel + "/")
        dirs[:] = [d for d in dirs if (base / d).relative_to(out).as_posix() in folders
                   and not (base / d).is_symlink()]
        for name in files:
            rel = (base / name).relative_to(out).as_posix()
            if rel == MARKER:
                continue
            found.add(rel)
            if (base / name).is_symlink() or not (base / name).is_file():
                differ.append(rel)
            elif rel in wanted:
                if (base / name).read_bytes() != site.data(rel):
                    differ.append(rel)
            else:
                differ.append(rel)
    differ += [rel for rel in wanted if rel not in found]
    return sorted(set(differ))


def write_site(site: Site, out: Path, sources: tuple[Path, ...], fingerprint: str = "") -> None:
    """Write `site` into `out`, replacing a previous build there atomically; the marker file
    records `fingerprint` (see site_digest)."""
    target = check_out_dir(out, sources)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}-new-", dir=target.parent))
    except (FileNotFoundError, FileExistsError, NotADirectoryError) as e:
        # a folder no file can be made in (`--out /proc/site`), or one made a file meanwhile
        raise BuildError(out, 0, f"cannot make the folder '{display_path(out)}' "
                                 f"({e.strerror}); give --out a folder you can create files "
                                 "in, e.g. 'site'") from None
    try:
        remove_leftovers(target)
        (tmp / MARKER).write_text(f"made by build.py; safe to delete\n{fingerprint}\n",
                                  encoding="utf-8")
        previous = target if (target / MARKER).is_file() else None
        for rel in sorted(site.paths()):
            dest = tmp / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            if previous is not None and _reuse(previous / rel, dest, site, rel):
                continue
            if rel in site.files:
                dest.write_bytes(site.files[rel])
            else:
                shutil.copyfile(site.copies[rel], dest)
        os.chmod(tmp, 0o755)  # noqa: S103 - a web folder: readable by the server
        _swap(tmp, target)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _reuse(old: Path, dest: Path, site: Site, rel: str) -> bool:
    """Hard-link `old` (the previous build's file) to `dest` when it already holds the bytes
    of the site's file `rel`: unchanged files are not written again. The previous site is
    never edited in place, only swapped out, so sharing is safe. A link there (put by hand)
    is not the build's file: linking it put the link, or what it points to, an author's
    file, into the new site."""
    try:
        st = old.lstat()
        if not stat.S_ISREG(st.st_mode):
            return False
        data = site.files.get(rel)
        if st.st_size != (len(data) if data is not None else site.copies[rel].stat().st_size):
            return False
        if old.read_bytes() != site.data(rel):
            return False
        os.link(old, dest)
    except OSError:      # no such file, or a filesystem without hard links: write it
        return False
    return True


def _swap(new: Path, target: Path) -> None:
    """Put `new` in the place of `target`, whose folder is deleted after. Between the two
    renames there is no `target`: when the second fails (Ctrl+C, a full disk), the old
    folder is put back, so an error leaves the previous site where it was (it left it in a
    hidden `.site-old-…` folder, and no site)."""
    old = None
    if target.exists():
        # a name of its own: a leftover of an earlier build's (see `remove_leftovers`) by a
        # process of the same id (a container's build runs as the same pid each time) made
        # the rename fail, an OSError traceback at every build
        old = target.with_name(f".{target.name}-old-{os.getpid()}-{secrets.token_hex(4)}")
        target.rename(old)
    try:
        new.rename(target)
    except BaseException:
        if old is not None and not target.exists():
            old.rename(target)
        raise
    if old is not None:
        if any(old.iterdir()):
            remove_built(old)
        else:
            old.rmdir()  # an empty folder made by hand (check_out_dir allows it)


def remove_built(folder: Path) -> None:
    """Delete `folder` only if this build made it (it holds MARKER); otherwise raise. The
    MARKER goes last, so a deletion stopped halfway (Ctrl+C) leaves a folder still known as
    the build's (`remove_leftovers`)."""
    if not (folder / MARKER).is_file():
        raise BuildError(folder, 0, f"not deleting '{folder}': it has no {MARKER} file, so "
                                    "this build did not make it; --clean deletes only a site it "
                                    "made: give --out the folder you built into")
    for entry in folder.iterdir():
        if entry.name == MARKER:
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry)
        else:
            entry.unlink()
    shutil.rmtree(folder)


def remove_leftovers(target: Path) -> None:
    """Delete the previous sites beside `target` that a build swapped out and was stopped
    while deleting (`.site-old-…`, holding MARKER); they piled up, hidden, a whole site
    each. Another build's folder being written (`.site-new-…`) is never touched."""
    for folder in target.parent.glob(f".{glob.escape(target.name)}-old-*"):
        if folder.is_dir() and not folder.is_symlink() and (folder / MARKER).is_file():
            shutil.rmtree(folder, ignore_errors=True)
