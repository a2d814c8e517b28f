"""The output folder holds the site as built and nothing else: what a build finds there that
it did not make is removed and named, without building the whole site (small sites, written
by `site_stage.write_out` as a build writes its own)."""
from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sqrtdk.options import PROJECT_ROOT, BuildOptions
from sqrtdk.site_stage import write_out
from sqrtdk.unchanged import site_state
from sqrtdk.web.output import Site

SITE = Site(files={"index.html": b"<p>a</p>", "en/index.html": b"<p>b</p>",
                   "assets/site.css": b"p{}"})


def _link_to_nothing(out: Path) -> str:
    os.symlink(out / "gone.html", out / "stray.html")
    return "stray.html"


def _link_to_a_folder(out: Path) -> str:
    os.symlink(out.parent / "elsewhere", out / "notes")
    (out.parent / "elsewhere").mkdir()
    (out.parent / "elsewhere" / "keep.txt").write_text("not the site's", encoding="utf-8")
    return "notes/"


def _empty_folder(out: Path) -> str:
    (out / "drafts").mkdir()
    return "drafts/"


def _link_to_a_page(out: Path) -> str:
    (out.parent / "draft.html").write_bytes(b"<p>b</p>")     # the page's bytes, for now
    (out / "en" / "index.html").unlink()
    os.symlink(out.parent / "draft.html", out / "en" / "index.html")
    return "en/index.html"


ADDED: dict[str, Callable[[Path], str]] = {
    "a link to nothing": _link_to_nothing, "a link to a folder": _link_to_a_folder,
    "an empty folder": _empty_folder, "a page made a link": _link_to_a_page}


@pytest.mark.parametrize("add", ADDED.values(), ids=ADDED)
def test_what_the_build_did_not_make_does_not_survive_a_build(tmp_path: Path,
                                                              add: Callable[[Path], str]) -> None:
    """A build finding the folder's marker naming this very site compared only its regular
    files: a symbolic link (to nothing, or to a folder), an empty folder, or a page replaced
    by a link to a file of the author's survived it, the build saying 'unchanged'. Each is removed now
    and named; what a link points to is left alone."""
    out = tmp_path / "site"
    assert write_out(SITE, out, ())[1] == "written"
    name = add(out)
    told = write_out(SITE, out, ())[1]
    assert told != "unchanged" and name in told, told
    found = sorted(p.relative_to(out).as_posix() for p in out.rglob("*"))
    assert found == [".sqrtdk-site", "assets", "assets/site.css", "en", "en/index.html",
                     "index.html"]
    assert not any(p.is_symlink() for p in out.rglob("*"))
    assert (out / "en" / "index.html").read_bytes() == b"<p>b</p>"
    assert write_out(SITE, out, ())[1] == "unchanged"
    if (tmp_path / "elsewhere").exists():
        assert (tmp_path / "elsewhere" / "keep.txt").is_file()


@pytest.mark.parametrize("add", ADDED.values(), ids=ADDED)
def test_the_unchanged_shortcut_sees_what_was_added(tmp_path: Path,
                                                    add: Callable[[Path], str]) -> None:
    """The whole-build shortcut's state of the folder (stat only) stat'ed what a link points
    to: a link to nothing stopped the build with a FileNotFoundError traceback, and a folder
    or a link to one, not a file, was not in it. Each changes the state now."""
    opts = BuildOptions.for_project(PROJECT_ROOT, out=tmp_path / "site")
    write_out(SITE, opts.out, ())
    before = site_state(opts)
    add(opts.out)
    assert site_state(opts) != before


@pytest.mark.parametrize("fault", [KeyboardInterrupt, OSError])
def test_an_interrupted_swap_leaves_the_previous_site(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch,
                                                      fault: type[BaseException]) -> None:
    """The new site is swapped in with two renames: the old folder aside, the new one in its
    place. A Ctrl+C (or an error) between them left no site at all, the previous one in a
    hidden '.site-old-…' folder, while the build said the site was as the last build left
    it. The previous site is put back."""
    out = tmp_path / "site"
    write_out(SITE, out, ())
    rename = Path.rename

    def interrupted(self: Path, target: Any) -> Any:
        if Path(target) == out and self.name.startswith(".site-new-"):
            raise fault
        return rename(self, target)

    monkeypatch.setattr(Path, "rename", interrupted)
    changed = Site(files={**SITE.files, "index.html": b"<p>new</p>"})
    with pytest.raises(fault):
        write_out(changed, out, ())
    monkeypatch.undo()
    assert (out / "index.html").read_bytes() == b"<p>a</p>"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]
    assert write_out(SITE, out, ())[1] == "unchanged"


def test_a_previous_site_left_half_deleted_is_no_obstacle_and_goes(tmp_path: Path) -> None:
    """A build swaps the previous site out to '.site-old-<pid>' and deletes it; a Ctrl+C
    while it deletes left that folder, and the next build by a process of the same id (a
    container's build runs as the same pid each time) could not rename site/ there: an
    OSError traceback at every build. Left over folders holding the build's marker are
    removed; anything else is left alone."""
    out = tmp_path / "site"
    write_out(SITE, out, ())
    leftover = tmp_path / f".site-old-{os.getpid()}"
    (leftover / "en").mkdir(parents=True)
    (leftover / ".sqrtdk-site").write_text("made by build.py", encoding="utf-8")
    (leftover / "en" / "index.html").write_bytes(b"<p>old</p>")
    mine = tmp_path / ".site-old-notes"
    mine.mkdir()
    changed = Site(files={**SITE.files, "index.html": b"<p>new</p>"})
    assert write_out(changed, out, ())[1] == "written"
    assert (out / "index.html").read_bytes() == b"<p>new</p>"
    assert sorted(p.name for p in tmp_path.iterdir()) == [".site-old-notes", "site"]


def test_a_deletion_stopped_halfway_leaves_the_marker(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The previous site's marker is deleted last, so a folder whose deletion stopped is still
    known as the build's (and removed by the next build)."""
    import shutil

    from sqrtdk.web.output import MARKER, remove_built
    out = tmp_path / "site"
    write_out(SITE, out, ())
    real = shutil.rmtree
    calls: list[Path] = []

    def stopped(path: Any, *args: Any, **kwargs: Any) -> None:
        calls.append(Path(path))
        if len(calls) == 2:
            raise KeyboardInterrupt
        real(path, *args, **kwargs)

    monkeypatch.setattr(shutil, "rmtree", stopped)
    with pytest.raises(KeyboardInterrupt):
        remove_built(out)
    monkeypatch.undo()
    assert (out / MARKER).is_file()
