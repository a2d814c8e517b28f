"""Faults of the machine, not of the content (issue 18): a full disk, a folder that cannot be
written. One line naming the path and what to do, exit 1, no traceback, and the previous site
(or none) left exactly as it was, with no half-written folder beside it."""
from __future__ import annotations

import errno
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import SERVING, copy_project_files, default_signals

from sqrtdk.errors import machine_fault


@pytest.mark.parametrize("code, says", [
    (0, "sys.exit(0), which would end the build with no word (exit status 0"),
    (None, "sys.exit(), which would end the build with no word (exit status 0"),
    (True, "sys.exit(True), which would end the build with no word (exit status 1"),
    ("done", "sys.exit('done'), which would end the build with only 'done' printed (exit "
             "status 1"),
])
def test_what_sys_exit_in_an_authors_code_would_do_is_said_as_python_does_it(
        code: object, says: str) -> None:
    """The message for `sys.exit()` in a job or a figure said 'exit status done' for
    `sys.exit('done')` (Python prints the message and exits with status 1), 'exit status
    True' for `sys.exit(True)`, and 'sys.exit(None)' for a bare `sys.exit()`."""
    from sqrtdk.errors import raised_words
    assert raised_words(SystemExit(code) if code is not None else SystemExit()
                        ).startswith(says), raised_words(SystemExit(code))


def test_a_worker_that_ended_abruptly_is_one_line() -> None:
    """A worker of the build's pool that ended abruptly (code a figure or an experiment runs
    called os._exit, a C library crashed, the system killed it for memory) stopped the build
    with concurrent.futures' BrokenProcessPool traceback (a mutation pass): it is one line
    saying what may have happened and what to do, as a full disk is."""
    from sqrtdk.workers import Pool
    with Pool(1) as pool, pytest.raises(Exception) as raised:
        pool.submit(os._exit, 0).result()
    said = machine_fault(raised.value)
    assert said is not None and "worker process ended abruptly" in said, repr(raised.value)
    assert "\n" not in said and "build again" in said
    assert machine_fault(RuntimeError("ours")) is None   # another error stays a bug


@pytest.mark.parametrize("code, says", [
    (errno.ENOSPC, "free some disk space"),
    (errno.EACCES, "make it writable"),
    (errno.EROFS, "read-only"),
    (errno.EBUSY, "close the program"),
])
def test_a_machine_fault_is_one_line_naming_the_path(tmp_path: Path, code: int,
                                                     says: str) -> None:
    line = machine_fault(OSError(code, os.strerror(code), str(tmp_path / "site" / "x.html")))
    assert line is not None and "\n" not in line
    assert line.startswith(f"{(tmp_path / 'site' / 'x.html').as_posix()}: cannot write")
    assert os.strerror(code) in line and says in line


def test_other_os_errors_are_not_dressed_up() -> None:
    """A FileNotFoundError inside our code is a bug: it keeps its traceback."""
    assert machine_fault(FileNotFoundError(errno.ENOENT, "No such file", "x")) is None


def run_build(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "build.py", *args], cwd=project,
                          capture_output=True, text=True, timeout=600, check=False)


def test_a_full_disk_stops_with_one_line_and_leaves_nothing_half_written(
        tmp_path: Path, site_build: dict[str, Any]) -> None:
    """A real full disk: a 256 KiB tmpfs as the output folder's disk (the site is megabytes).
    Needs root's mount, as CI has; skipped where mounting is not allowed. Built in a copy of
    the project with a copy of the session build's cache (the project's own cache is never
    written, and no other test copies a cache while this build writes to it)."""
    project = copy_project_files(tmp_path / "project")
    shutil.copytree(site_build["root"] / "cache", project / ".cache")
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(disk)],
                             capture_output=True, check=False)
    if mounted.returncode != 0:
        pytest.skip("cannot mount a small tmpfs here (needs root)")
    try:
        done = run_build(project, "--out", str(disk / "site"))
        assert done.returncode == 1, done.stderr
        lines = done.stderr.strip().split("\n")
        assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
        assert lines[0].startswith("error: ") and "cannot write" in lines[0]
        assert os.strerror(errno.ENOSPC) in lines[0] and "free some disk space" in lines[0]
        # no site, no temporary folder (the builds' empty lock file beside site/ stays)
        from sqrtdk.web.output import lock_path
        left = [p for p in disk.iterdir() if p != lock_path(disk / "site")]
        assert not left, left
    finally:
        subprocess.run(["umount", str(disk)], check=False)


def test_clean_removes_everything_it_says_and_names_what_it_keeps(tmp_path: Path) -> None:
    """`--clean` empties the cache of the units and of another seed's figures (a build with
    --seed 7 keeps its SVGs in .cache/seed-7/figures/): it printed "emptied .cache" and left
    those. An entry the build did not make is kept, and the line names it."""
    from sqrtdk.cache import UNITS
    from sqrtdk.options import BuildOptions, seed_figures_dir
    from sqrtdk.pipeline import clean
    cache = tmp_path / ".cache"
    for unit in UNITS[:3]:
        (cache / unit).mkdir(parents=True)
        (cache / unit / "entry").write_text("x")
    seed = seed_figures_dir(cache, 7)
    seed.mkdir(parents=True)
    (seed / "walk.en.svg").write_text("<svg/>")
    opts = BuildOptions.for_project(tmp_path, out=tmp_path / "site", cache_dir=cache)
    said = clean(opts)
    assert not any(cache.iterdir()) and said[-1].startswith("emptied ") and \
        said[-1].endswith(".cache"), said
    (cache / "notes.txt").write_text("mine")
    (cache / "results").mkdir()
    said = clean(opts)
    assert [p.name for p in cache.iterdir()] == ["notes.txt"], said
    assert said[-1].endswith("kept what it did not make: notes.txt"), said


def test_clean_removes_the_previous_sites_a_stopped_build_left(tmp_path: Path) -> None:
    """A build stopped while deleting the site it swapped out leaves it hidden beside site/
    ('.site-old-…', holding the marker); `--clean` removed site/ and left those, a whole site
    each, until the next build. Another folder of that name without the marker is kept."""
    from sqrtdk.options import BuildOptions
    from sqrtdk.pipeline import clean
    from sqrtdk.web.output import MARKER
    old = tmp_path / ".site-old-123-abcd"
    (old / "en").mkdir(parents=True)
    (old / MARKER).write_text("made by build.py")
    (old / "en" / "index.html").write_text("<p>old</p>")
    mine = tmp_path / ".site-old-notes"
    mine.mkdir()
    clean(BuildOptions.for_project(tmp_path, out=tmp_path / "site", cache_dir=None))
    assert not old.exists() and mine.is_dir()


@pytest.mark.parametrize("what", ["a folder of other files", "a file"])
def test_out_refused_names_an_empty_or_new_folder_not_removing_it(tmp_path: Path,
                                                                   what: str) -> None:
    """`--out` at a folder holding files the build did not make (or at a file) is refused
    with what to give instead: an empty or new folder; never "remove it yourself"."""
    from sqrtdk.errors import BuildError
    from sqrtdk.web.output import check_out_dir
    out = tmp_path / "out"
    if what == "a file":
        out.write_text("x")
    else:
        out.mkdir()
        (out / "mine.txt").write_text("x")
    with pytest.raises(BuildError) as e:
        check_out_dir(out, ())
    assert "give --out an empty or new folder" in e.value.message, e.value
    assert "yourself" not in e.value.message, e.value
    if what != "a file":
        assert e.value.message.endswith(f"e.g. --out {(out / 'sqrtdk-site').as_posix()}")


@pytest.mark.parametrize("below", ["notes.txt/site", "notes.txt/a/b"])
def test_out_below_a_file_is_refused_before_any_work(tmp_path: Path, below: str) -> None:
    """`--out notes.txt/site` (a file where a folder must be) passed the checks and stopped
    the build at its end with a FileExistsError or NotADirectoryError traceback."""
    from sqrtdk.errors import BuildError
    from sqrtdk.web.output import check_out_dir
    (tmp_path / "notes.txt").write_text("x")
    with pytest.raises(BuildError) as e:
        check_out_dir(tmp_path / below, ())
    assert "notes.txt is a file, not a folder" in e.value.message, e.value


def test_out_where_no_folder_can_be_made_is_one_line(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder in which no file can be made (`--out /proc/site`: mkdtemp's FileNotFoundError)
    was a traceback; it is an error naming --out, and nothing is left behind."""
    import tempfile

    from sqrtdk.errors import BuildError
    from sqrtdk.web.output import Site, write_site

    def refuse(**_: Any) -> str:
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), "x")

    monkeypatch.setattr(tempfile, "mkdtemp", refuse)
    with pytest.raises(BuildError) as e:
        write_site(Site(), tmp_path / "site", ())
    assert "cannot make the folder" in e.value.message and "--out" in e.value.message, e.value
    assert list(tmp_path.iterdir()) == []


# holds the site's lock (argv[1]; the cache's too, argv[2]) until a line arrives on stdin
# (at most 300 s): a hold of fixed length races the waiter on a loaded machine
_HOLD_LOCK = """
import select, sys
from pathlib import Path
from sqrtdk.web.output import out_lock
with out_lock(Path(sys.argv[1]), Path(sys.argv[2]) if sys.argv[2] else None, print):
    print("held", flush=True)
    select.select([sys.stdin], [], [], 300)
"""

# how long the holder keeps its locks after the waiter said it waits: a waiter that says so
# and does not wait works within it, before the holder lets go (and fails the test); one that
# waits cannot work before the holder lets go, however long a loaded machine makes this
LINGER = 0.5


class LetGo:
    """The waiter's `log`: records what it says; once it says it waits, a thread tells the
    holder (a process reading its stdin) to let go, LINGER seconds later, and notes when."""

    def __init__(self, holder: subprocess.Popen[str]):
        import threading
        assert holder.stdin is not None
        self.stdin, self.said, self.at = holder.stdin, list[str](), list[float]()
        self._told = threading.Event()
        self._thread = threading.Thread(target=self._let_go, daemon=True)
        self._thread.start()

    def __call__(self, line: str) -> None:
        self.said.append(line)
        if line.startswith("waiting"):
            self._told.set()

    def _let_go(self) -> None:
        import time
        if self._told.wait(300):
            time.sleep(LINGER)
            self.at.append(time.monotonic())
        self.close()

    def close(self) -> None:
        """Lets the holder go now (the test is over)."""
        self._told.set()
        try:
            self.stdin.write("done\n")
            self.stdin.close()
        except (OSError, ValueError):     # closed already
            pass


@pytest.mark.parametrize("holder_cache", ["cache", "no cache"])
def test_a_build_waits_for_another_build_into_the_same_folder(
        tmp_path: Path, site_build: dict[str, Any], holder_cache: str) -> None:
    """Two builds of one checkout at once raced: one stat'ed site/ while the other swapped
    it in, and stopped with a FileNotFoundError traceback (about one run in 25 here). Now the
    second says it waits, and builds when the first is done. Also `--clean`. The holder may
    be a `--no-cache` build (README's "take turns" holds for every flag): its lock was keyed
    on the output folder alone, a cached build's on the cache folder alone, so the two wrote
    site/ and figures/ at once without a word.
    The holder keeps its locks until the build has said it waits (a fixed hold of 3 s ran
    out on a loaded machine before the build, 5.9 s reading its inputs, reached the lock)."""
    import time
    project = copy_project_files(tmp_path / "project")
    shutil.copytree(site_build["root"] / "cache", project / ".cache")
    cache = str(project / ".cache") if holder_cache == "cache" else ""
    holder = subprocess.Popen([sys.executable, "-c", _HOLD_LOCK, str(project / "site"), cache],
                              cwd=project, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        build = subprocess.Popen([sys.executable, "build.py"], cwd=project, text=True,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 env={**os.environ, "PYTHONUNBUFFERED": "1"})
        assert build.stdout is not None
        said = []
        for line in build.stdout:           # up to the line saying it waits (or its end)
            said.append(line)
            if line.startswith("waiting"):
                break
        time.sleep(0.5)
        still_waiting = build.poll() is None        # it does wait for the holder
        assert holder.stdin is not None
        holder.stdin.write("done\n")
        holder.stdin.close()
        out, err = build.communicate(timeout=600)
        said.append(out)
        assert build.returncode == 0 and "Traceback" not in err, err
        # who holds a lock the build waits for: a build, for the site's; a build or a sweep,
        # for the cache's or the figures'
        assert re.search(r"^waiting +for another build (of site|or sweep of this checkout) to "
                         r"finish$", "".join(said), re.M), said
        assert still_waiting, said
    finally:
        if holder.stdin is not None and not holder.stdin.closed:
            holder.stdin.close()
        holder.wait(timeout=60)
    assert (project / "site" / "index.html").is_file()
    assert not [p.name for p in project.iterdir() if p.name.startswith(".site")]


# a build's locks (pipeline.Builder.build) or a sweep's (sweep.sweep, its work a wait),
# held in a process of their own until a line arrives on stdin (at most 300 s): argv[1] the
# role, argv[2] the project
_HOLD_AS = """
import select, sys
from pathlib import Path
from sqrtdk import sweep
from sqrtdk.options import BuildOptions
from sqrtdk.web.output import out_lock
role, opts = sys.argv[1], BuildOptions.for_project(Path(sys.argv[2]))
def hold(*_):
    print("held", flush=True)
    select.select([sys.stdin], [], [], 300)
    return ""
if role == "sweep":
    sweep._sweep = hold
    sweep.sweep(opts, 1, log=lambda _: None)
else:
    with out_lock(opts.out, opts.cache_dir if role == "build" else None, print,
                  opts.figures_dir):
        hold()
"""


@pytest.mark.parametrize("holder, waiter", [("build", "sweep"), ("build --no-cache", "sweep"),
                                            ("sweep", "sweep"), ("sweep", "build"),
                                            ("sweep", "build --no-cache")])
def test_a_sweep_and_a_build_of_one_checkout_take_turns(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, holder: str, waiter: str) -> None:
    """`build.py --sweep` took no lock: two sweeps, or a sweep and a build, wrote the cache's
    entries and figures/sweep.json at once. A sweep takes the locks a build takes of the
    folders it writes (the cache, the figures folder), and waits, saying so.
    The holder keeps its locks until the waiter has said it waits, and the waiter's work must
    come after the holder let go (a fixed hold of 2 s, the work asked to start 1 s after the
    holder said it held, failed when a loaded machine kept this process from reading that
    for a second)."""
    import time

    from sqrtdk import sweep as sweep_module
    from sqrtdk.options import BuildOptions
    from sqrtdk.web.output import out_lock
    project = tmp_path / "project"
    opts = BuildOptions.for_project(project)
    root = Path(__file__).resolve().parents[1]
    held = subprocess.Popen([sys.executable, "-c", _HOLD_AS, holder, str(project)],
                            cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    ran: list[float] = []
    monkeypatch.setattr(sweep_module, "_sweep",
                        lambda *_: ran.append(time.monotonic()) or "")
    told = LetGo(held)
    try:
        assert held.stdout is not None and held.stdout.readline().strip() == "held"
        if waiter == "sweep":
            sweep_module.sweep(opts, 1, log=told)
        else:
            with out_lock(opts.out, opts.cache_dir if waiter == "build" else None,
                          told, opts.figures_dir):
                ran.append(time.monotonic())
    finally:
        told.close()
        held.wait(timeout=60)
    said = told.said
    # it waited: told so while the holder held, and worked after the holder let go
    assert said and said[0].startswith("waiting") and ran and told.at and ran[0] > told.at[0], \
        (said, ran, told.at)
    # a sweep holds no lock of the site: whoever waits is told it may be a sweep
    if waiter == "sweep" or holder == "sweep":
        assert "for another build or sweep of this checkout to finish" in said[0], said


def test_builds_started_together_all_finish(tmp_path: Path,
                                            site_build: dict[str, Any]) -> None:
    project = copy_project_files(tmp_path / "project")
    shutil.copytree(site_build["root"] / "cache", project / ".cache")
    article = project / "content" / "en" / "index.md"
    for n in range(3):
        article.write_text(article.read_text(encoding="utf-8") + f"\nMore words {n}.\n",
                           encoding="utf-8")
        runs = [subprocess.Popen([sys.executable, "build.py"], cwd=project, text=True,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                for _ in range(3)]
        for run in runs:
            out, err = run.communicate(timeout=600)
            assert run.returncode == 0 and "Traceback" not in err, err


def test_builds_with_different_temporary_folders_take_turns(tmp_path: Path) -> None:
    """The lock was a file of the system's temporary folder: a terminal with another TMPDIR
    took another file, and the two builds wrote site/ at once. The lock lives beside the
    folder it guards. The holder keeps it until the waiter has said it waits (a fixed hold of
    2 s, the wait asked to last 0.5 s from the holder's word, was a race on a loaded
    machine)."""
    import time

    from sqrtdk.web.output import out_lock
    (tmp_path / "tmp-a").mkdir()
    (tmp_path / "tmp-b").mkdir()
    site = tmp_path / "project" / "site"
    root = Path(__file__).resolve().parents[1]
    holder = subprocess.Popen([sys.executable, "-c", _HOLD_LOCK, str(site), ""],
                              cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, env={**os.environ, "TMPDIR": str(tmp_path / "tmp-a")})
    told = LetGo(holder)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        os.environ["TMPDIR"], before = str(tmp_path / "tmp-b"), os.environ.get("TMPDIR")
        import tempfile
        tempfile.tempdir = None         # read TMPDIR again
        try:
            with out_lock(site, None, told):
                got = time.monotonic()
        finally:
            if before is None:
                del os.environ["TMPDIR"]
            else:
                os.environ["TMPDIR"] = before
            tempfile.tempdir = None
    finally:
        told.close()
        holder.wait(timeout=60)
    # it waited: told so while the holder held, and got the lock after the holder let go
    assert told.said and told.said[0].startswith("waiting") and told.at and got > told.at[0], \
        (told.said, told.at)
    assert not list((tmp_path / "tmp-b").iterdir())


def test_a_folder_without_locks_builds_without_the_lock(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the filesystem refuses record locks (ENOLCK: some network or temporary folders)
    taking the lock was an OSError traceback, though the build is meant to go on without
    it."""
    import fcntl

    from sqrtdk.web.output import out_lock

    def refuse(*_: Any) -> None:
        raise OSError(errno.ENOLCK, os.strerror(errno.ENOLCK))

    monkeypatch.setattr(fcntl, "lockf", refuse)
    said: list[str] = []
    ran = False
    with out_lock(tmp_path / "site", tmp_path / ".cache", said.append):
        ran = True
    assert ran and said == [], said


@pytest.mark.parametrize("delay", [0.0, 0.01, 0.03, 0.1, 0.2, 0.3, 0.45])
def test_ctrl_c_while_the_build_starts_is_one_line(tmp_path: Path, delay: float,
                                                   site_build: dict[str, Any]) -> None:
    """Ctrl+C in the first few tenths of a second (Python importing the modules, before
    main's handler) printed a KeyboardInterrupt traceback from inside an import, exit -2.
    The delay counts from build.py's first import after its early handler (argparse, as
    `-X importtime` reports it): before that the interpreter itself is starting (on a busy
    machine 0.1 s after the start it may still be reading build.py, and a Ctrl+C there is
    Python's own "KeyboardInterrupt", exit 1, or its default action, exit -2: no line of
    build.py has run)."""
    import select
    import signal
    import time
    project = copy_project_files(tmp_path / "project")
    shutil.copytree(site_build["root"] / "cache", project / ".cache")
    # unbuffered bytes: readline takes one line and leaves the next in the pipe for select
    run = subprocess.Popen([sys.executable, "-X", "importtime", "build.py"], cwd=project,
                           bufsize=0, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           preexec_fn=default_signals)
    assert run.stderr is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:   # stderr holds only importtime's lines until then
        ready, _, _ = select.select([run.stderr], [], [], 1)
        if ready and run.stderr.readline().rstrip().endswith(b"| argparse"):
            break
    else:
        pytest.fail("build.py did not import argparse within 60 s")
    time.sleep(delay)
    run.send_signal(signal.SIGINT)
    _, raw = run.communicate(timeout=300)
    err = "".join(line for line in raw.decode("utf-8").splitlines(keepends=True)
                  if not line.startswith("import time:"))
    assert "Traceback" not in err, err
    if run.returncode != 0:     # a machine fast enough may have finished the build
        assert run.returncode == 130 and len(err.strip().split("\n")) == 1, err
        assert err.startswith("interrupted (Ctrl+C): stopped"), err


def test_ctrl_c_ignored_by_the_caller_stays_ignored(tmp_path: Path,
                                                    site_build: dict[str, Any]) -> None:
    """A build started with SIGINT ignored (a script's `nohup python build.py &`) keeps
    ignoring it, also while it starts (build.py's early Ctrl+C handler is not set then)."""
    import signal
    import time
    project = copy_project_files(tmp_path / "project")
    shutil.copytree(site_build["root"] / "cache", project / ".cache")

    def ignoring() -> None:
        default_signals()
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    run = subprocess.Popen([sys.executable, "build.py"], cwd=project, text=True,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=ignoring)
    time.sleep(0.1)
    run.send_signal(signal.SIGINT)
    out, err = run.communicate(timeout=300)
    assert run.returncode == 0 and "interrupted" not in err, err


def test_ctrl_c_of_an_idle_server_is_the_builds_one_line(tmp_path: Path,
                                                         site_build: dict[str, Any]) -> None:
    """Ctrl+C while --serve waited for a save exited 0 with watchfiles' own
    'KeyboardInterrupt caught, stopping watch'; in a rebuild it exited 130 with the build's
    line. Then always the build's line and 130, which `make serve` told as an error
    ('make: *** [Makefile:NN: serve] Error 130') under the way an author stops the server.
    Now the build's one calm line and 0."""
    import re
    import signal
    import time
    project = copy_project_files(tmp_path / "project")
    shutil.copytree(site_build["root"] / "cache", project / ".cache")
    log = tmp_path / "serve.log"
    with log.open("w") as sink:
        run = subprocess.Popen([sys.executable, "build.py", "--serve", "--port", "0"],
                               cwd=project, text=True, stdout=sink, stderr=subprocess.PIPE,
                               preexec_fn=default_signals)
        deadline = time.monotonic() + 120
        while not SERVING.search(log.read_text()) and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1.0)              # idle: the watcher waits for a save
        run.send_signal(signal.SIGINT)
        _, err = run.communicate(timeout=60)
    assert run.returncode == 0 and err == "", (run.returncode, err)
    said = log.read_text().split("\n")
    assert re.fullmatch(r"stopped serving \(Ctrl\+C\); .* is as the last complete build left "
                        r"it", said[-2]) and said[-1] == "", said[-3:]


def test_ctrl_c_in_the_first_build_of_a_server_says_nothing_was_served(
        tmp_path: Path) -> None:
    """Ctrl+C in --serve's first build (before the server has served anything) printed
    'stopped serving (Ctrl+C)', as if a page had been served. Now one calm line saying
    that nothing was served, and 0 (as for Ctrl+C at any other time of the server); the
    first build is made to meet Ctrl+C at once, so the test waits for nothing."""
    project = copy_project_files(tmp_path / "project")
    script = ("import sys\nimport build\nfrom sqrtdk.web import serve\n"
              "def interrupted(self, reload=False):\n    raise KeyboardInterrupt\n"
              "serve._Loop.build = interrupted\n"
              "sys.exit(build.main(['--serve', '--port', '0']))\n")
    run = subprocess.run([sys.executable, "-c", script], cwd=project, text=True,
                         capture_output=True, timeout=120, preexec_fn=default_signals)
    assert run.returncode == 0 and run.stderr == "", (run.returncode, run.stderr)
    said = run.stdout.strip().split("\n")
    assert len(said) == 1 and said[0].startswith("stopped (Ctrl+C) before anything was "
                                                 "served; "), said


def test_ctrl_c_stops_make_serve_with_one_calm_line(tmp_path: Path,
                                                    site_build: dict[str, Any]) -> None:
    """Ctrl+C in the terminal of `make serve` (SIGINT to make and the build, its foreground
    process group) printed the build's line, then make's 'make: *** [Makefile:NN: serve]
    Error 130': the author stopping the server on purpose read an error. Now the build's
    line alone (make, which got the Ctrl+C too, stops quietly when its job stopped calmly)."""
    import signal
    import time
    make = shutil.which("make")
    if make is None:
        pytest.skip("make is not installed")
    project = copy_project_files(tmp_path / "project")
    shutil.copytree(site_build["root"] / "cache", project / ".cache")
    log = tmp_path / "make-serve.log"
    with log.open("w") as sink:
        # the install steps' stamps taken as done (-o); this interpreter as the venv's
        run = subprocess.Popen([make, "-o", ".venv/.installed", "-o", "node_modules/.installed",
                                "serve", "PORT=0", f"PY={sys.executable}"], cwd=project,
                               text=True, stdout=sink, stderr=subprocess.STDOUT,
                               preexec_fn=default_signals, start_new_session=True)
        deadline = time.monotonic() + 120
        while not SERVING.search(log.read_text()) and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1.0)
        os.killpg(run.pid, signal.SIGINT)      # what a terminal's Ctrl+C does
        run.wait(timeout=60)
    said = log.read_text()
    assert SERVING.search(said), said
    after = said[SERVING.search(said).end():].split("\n", 1)[1].strip().split("\n")
    assert len(after) == 1 and after[0].startswith("stopped serving (Ctrl+C)"), after


_IMPORT_MISTAKES = {
    "name": ("x = 1\nundefined_name + x\n", 2, "NameError: name 'undefined_name'",
             "fix the code at this line"),
    "package": ("import numpy\nimport a_package_the_build_lacks\n", 2,
                "ModuleNotFoundError", "the build has no package 'a_package_the_build_lacks'"),
    "exit": ("import sys\n\nsys.exit(0)\n", 3, "sys.exit(0)", "remove it"),
    "helper": ("def helper():\n    return 1 / 0\n\n\nvalue = helper()\n", 2,
               "ZeroDivisionError", "in 'helper'"),
    "operator": ("from sqrtdk.science.registry import CLAIMS, Claim\n"
                 "CLAIMS.register(Claim(\n    'x.y', 'walk', 'a claim', lambda s: 1.0,\n"
                 "    '>', 0.5))\n", 2, "op must be '<=' or '>='", "fix the code at this line"),
    "twice": ("from sqrtdk.science.registry import CLAIMS, Claim\n"
              "CLAIMS.register(next(iter(CLAIMS)))\n", 2, "registered twice",
              "fix the code at this line"),
}


@pytest.mark.parametrize("mistake", list(_IMPORT_MISTAKES))
def test_an_error_importing_an_authored_module_is_one_line_at_its_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, mistake: str) -> None:
    """An error raised by an experiment's or a figure's module-level code while Python
    imports it (a misspelt name, a package the build lacks, a registration the registry
    refuses: a claim's operator, a name registered twice) stopped the build with Python's
    traceback, and `sys.exit(0)` there ended it with no word and exit status 0 (a mutation
    pass): each is one line at the module's line. The engine's own module-level code keeps
    its traceback."""
    import importlib.util

    from sqrtdk import inputs
    from sqrtdk.science import registry
    registry.load()
    text, line, said, advice = _IMPORT_MISTAKES[mistake]
    module = tmp_path / f"authored_{mistake}.py"
    module.write_text(text, encoding="utf-8")
    monkeypatch.setattr(inputs, "_authored_code", lambda: [module])
    spec = importlib.util.spec_from_file_location(module.stem, module)
    assert spec is not None and spec.loader is not None
    with pytest.raises(BaseException) as raised:
        spec.loader.exec_module(importlib.util.module_from_spec(spec))
    told = inputs.told_import_error(raised.value)
    assert told is not None, raised.value
    assert (Path(told.path), told.line) == (module, line), told
    assert said in told.message and advice in told.message, told.message
    assert "while Python imports this module" in told.message, told.message
    monkeypatch.setattr(inputs, "_authored_code", list)     # the engine's own
    assert inputs.told_import_error(raised.value) is None
