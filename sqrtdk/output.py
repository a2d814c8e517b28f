"""Write a site atomically and delete only what this build made.

The new site is written into a temporary folder beside the target and swapped in with two
renames, so a reader (or a crash) never sees half a site. A folder is only ever deleted when it
holds the MARKER file that this module writes.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from .assemble import MARKER, Site
from .errors import BuildError


# folders the build reads from or that belong to the project: never an output folder
SOURCE_FOLDERS = ("content", "templates", "static", "sqrtdk", "figures", "tests", "bench",
                  "node_modules", ".venv", ".cache", ".git", ".ci")


def check_out_dir(out: Path) -> Path:
    """Refuse output folders that are not safe to replace; returns the resolved path.

    Refused: the filesystem root, the home folder or one of its ancestors, the project root or
    an ancestor of it, a folder inside one of the project's SOURCE_FOLDERS, and an existing
    non-empty folder without the build's MARKER.
    """
    from .config import ROOT
    target = out.expanduser().resolve()
    forbidden = {Path("/"), Path.home().resolve(), ROOT}
    if target in forbidden or any(target in p.parents for p in forbidden if p != Path("/")):
        raise BuildError(out, 0, "refusing to write the site here: it would replace a folder "
                                 "the build did not create; choose a folder such as 'site'")
    sources = [ROOT / d for d in SOURCE_FOLDERS]
    if any(target == s or s in target.parents for s in sources):
        raise BuildError(out, 0, "refusing to write the site inside a source folder (the next "
                                 "build would read it back); choose a folder such as 'site'")
    if target.exists() and (not target.is_dir() or
                            (any(target.iterdir()) and not (target / MARKER).exists())):
        raise BuildError(out, 0, f"refusing to replace '{out}': it was not made by this build "
                                 f"(no {MARKER} file); remove it yourself or choose another --out")
    return target


def write_site(site: Site, out: Path) -> None:
    """Write `site` into `out`, replacing a previous build there atomically."""
    target = check_out_dir(out)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}-new-", dir=target.parent))
    try:
        (tmp / MARKER).write_text("made by build.py; safe to delete\n", encoding="utf-8")
        for rel, data in sorted(site.files.items()):
            dest = tmp / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(data)
        for rel, src in sorted(site.copies.items()):
            dest = tmp / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, dest)
        os.chmod(tmp, 0o755)
        _swap(tmp, target)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _swap(new: Path, target: Path) -> None:
    old = None
    if target.exists():
        old = target.with_name(f".{target.name}-old-{os.getpid()}")
        target.rename(old)
    new.rename(target)
    if old is not None:
        if any(old.iterdir()):
            remove_built(old)
        else:
            old.rmdir()  # an empty folder made by hand (check_out_dir allows it)


def remove_built(folder: Path) -> None:
    """Delete `folder` only if this build made it (it holds MARKER); otherwise raise."""
    if not (folder / MARKER).is_file():
        raise BuildError(folder, 0, f"not deleting '{folder}': it has no {MARKER} file")
    shutil.rmtree(folder)
