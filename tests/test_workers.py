"""The worker pool stops at once when the build is interrupted (Ctrl+C in `--serve` or a
build): the jobs running then are killed, not waited for."""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from helpers import default_signals

from sqrtdk.options import PROJECT_ROOT

INTERRUPTED = """
import os, sys, time
from pathlib import Path

from sqrtdk.options import PROJECT_ROOT
from sqrtdk.workers import Pool

def job(flag):
    Path(flag).write_text(str(os.getpid()))
    time.sleep(600)

flag = sys.argv[1]
try:
    with Pool(1) as pool:
        pool.submit(job, flag)
        while not Path(flag).exists() or not Path(flag).read_text():
            time.sleep(0.01)
        raise KeyboardInterrupt    # what Ctrl+C raises in the build's main thread
except KeyboardInterrupt:
    print("interrupted")
"""


def test_ctrl_c_kills_the_running_jobs_instead_of_waiting_for_them(tmp_path: Path) -> None:
    """The job sleeps 600 s: a pool that waited for it would outlast the 120 s allowed."""
    flag = tmp_path / "worker.pid"
    root = Path(__file__).resolve().parent.parent
    proc = subprocess.run([sys.executable, "-c", INTERRUPTED, str(flag)], cwd=root,
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0 and proc.stdout.strip() == "interrupted", proc.stderr
    worker = int(flag.read_text())
    try:
        os.kill(worker, 0)
        state = Path(f"/proc/{worker}/stat").read_text().split()[2] \
            if sys.platform.startswith("linux") else "?"
    except (ProcessLookupError, FileNotFoundError):
        return
    assert state == "Z", f"the worker {worker} still runs"


_CANCEL_THEN_BREAK = """
import time
from sqrtdk.workers import Pool
for _ in range(20):
    pool = Pool(2)
    jobs = [pool.submit(time.sleep, 0.3) for _ in range(30)]
    time.sleep(0.1)
    for job in jobs:            # what Executor.map does when the loop over it stops
        job.cancel()
    thread = pool.executor._executor_manager_thread
    pool.close(wait=False)      # Ctrl+C: the workers are killed
    thread.join(10)
"""


def test_a_cancelled_job_in_a_broken_pool_prints_no_traceback() -> None:
    """Ctrl+C in a build's loop over Pool.map (a --seed build's experiments) printed
    'Exception in thread …: InvalidStateError: CANCELLED' after the one line about Ctrl+C
    (CPython's manager thread failing a job map had cancelled; here 3 runs in 10)."""
    done = subprocess.run([sys.executable, "-c", _CANCEL_THEN_BREAK], cwd=PROJECT_ROOT,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr


SLOW_MODULE = """
import builtins, os, signal, time
os.kill(os.getpid(), signal.SIGINT)   # Ctrl+C halfway through this module's body
start = time.monotonic()
while time.monotonic() - start < 0.2:
    pass
builtins.SLOW_MODULE_DONE = True      # the body's last line ran
"""

IMPORTS_IT = """
import builtins, sys, time
sys.path.insert(0, sys.argv[1])
from sqrtdk import interrupt
interrupt.install()
try:
    import slow_module
    time.sleep(30)
    print("not interrupted")
except KeyboardInterrupt:
    print("interrupted; import complete:", getattr(builtins, "SLOW_MODULE_DONE", False))
"""


def test_ctrl_c_inside_an_import_arrives_after_it() -> None:
    """Python's handler raised KeyboardInterrupt inside whatever the main thread imported:
    inside a C extension's initialisation (matplotlib, while the experiments run) that was an
    ImportError or a RuntimeError traceback, exit 1, and once a fatal error (SIGABRT). The
    interrupt must come, after the import is complete (long before the 30 s sleep ends)."""
    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "slow_module.py").write_text(SLOW_MODULE, encoding="utf-8")
        # SIGINT at its default, whatever the suite's caller left it at: under `nohup make
        # test &` it is ignored, the child would inherit that and never see its own Ctrl+C
        proc = subprocess.run([sys.executable, "-c", IMPORTS_IT, folder], cwd=root,
                              capture_output=True, text=True, timeout=20, check=False,
                              preexec_fn=default_signals)
    assert proc.stdout == "interrupted; import complete: True\n", proc.stdout + proc.stderr
    assert proc.returncode == 0 and not proc.stderr, proc.stderr


FORKED_UNNOTED = """
import os, time
from sqrtdk.workers import Pool

try:
    with Pool(2) as pool:
        pool.submit(os.getpid).result()
        processes = pool.executor._processes
        while len(processes) < 2:
            time.sleep(0.01)
        # Ctrl+C struck inside `_spawn_process`, after the fork (multiprocessing knows the
        # child) and before the executor wrote it into its dict of workers
        processes.pop(max(processes))
        raise KeyboardInterrupt
except KeyboardInterrupt:
    print("interrupted", flush=True)
"""


def test_ctrl_c_between_a_workers_fork_and_its_notice_still_ends_the_build() -> None:
    """multiprocessing joins every child it started when the process exits: a worker the
    executor never noted was not killed, idled, and the build hung at exit."""
    root = Path(__file__).resolve().parent.parent
    proc = subprocess.run([sys.executable, "-c", FORKED_UNNOTED], cwd=root,
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.stdout == "interrupted\n" and proc.returncode == 0, proc.stderr


SWALLOWED = """
import os, signal, sys, threading, time
sys.path.insert(0, sys.argv[1])
from sqrtdk import interrupt
interrupt.install()
where = sys.argv[2]


def slow():                     # Ctrl+C strikes in here
    start = time.monotonic()
    while time.monotonic() - start < 0.5:
        pass


class Slow:
    def __del__(self):
        slow()


threading.Timer(0.1, os.kill, (os.getpid(), signal.SIGINT)).start()
try:
    if where == "fork":         # logging's _releaseLock runs there after each fork
        os.register_at_fork(after_in_parent=slow)
        if os.fork() == 0:
            os._exit(0)
    else:
        Slow()                  # dropped at once: __del__ runs
    time.sleep(10)
    print("not interrupted")
except KeyboardInterrupt:
    print("interrupted")
"""


@pytest.mark.parametrize("where", ["fork", "del"])
def test_ctrl_c_where_python_swallows_exceptions_still_interrupts(where: str) -> None:
    """Ctrl+C inside a callback run after a fork (logging's `_releaseLock`, as the build
    starts its workers) or a `__del__` was printed as 'Exception ignored in: …' with a
    traceback, and the build went on to exit 0 (a CI run). The interrupt comes again, at
    once: one line, no traceback."""
    root = Path(__file__).resolve().parent.parent
    proc = subprocess.run([sys.executable, "-c", SWALLOWED, str(root), where], cwd=root,
                          capture_output=True, text=True, timeout=20, check=False,
                          preexec_fn=default_signals)
    assert proc.stdout == "interrupted\n" and not proc.stderr, proc.stdout + proc.stderr


HOOK_STRUCK = """
import os, signal, sys, threading, time
sys.path.insert(0, sys.argv[1])
from sqrtdk import interrupt
interrupt.install()
start = threading.Thread.start
struck = []


def struck_while_starting(thread):
    # the redelivery's own signal arriving while the hook starts the thread that sends it
    # (under load the new thread sent its first signal before start() had returned)
    if not struck:
        struck.append(True)
        os.kill(os.getpid(), signal.SIGINT)
    start(thread)


threading.Thread.start = struck_while_starting


class Swallowed:
    def __del__(self):
        raise KeyboardInterrupt     # what Ctrl+C inside a __del__ is: handed to the hook


try:
    Swallowed()
    time.sleep(10)
    print("not interrupted")
except KeyboardInterrupt:
    print("interrupted")
"""


def test_ctrl_c_striking_the_hook_that_delivers_it_again_still_interrupts() -> None:
    """The hook that delivers a swallowed Ctrl+C again starts a thread that sends SIGINT
    until the interrupt is raised; under load (a full suite beside four other jobs) that
    thread's first signal reached the main thread while the hook was still inside
    `Thread.start`: raised there, the KeyboardInterrupt was itself swallowed ('Exception
    ignored in sys.unraisablehook') after it had told the thread to stop, and the build went
    on. The interrupt raised inside the hook waits for the hook to return."""
    root = Path(__file__).resolve().parent.parent
    proc = subprocess.run([sys.executable, "-c", HOOK_STRUCK, str(root)], cwd=root,
                          capture_output=True, text=True, timeout=20, check=False,
                          preexec_fn=default_signals)
    assert proc.stdout == "interrupted\n" and not proc.stderr, proc.stdout + proc.stderr


def test_a_failed_build_s_pool_leaves_no_manager_thread_for_the_exit_hook() -> None:
    """A build failing while figures were still being drawn sometimes (1 in 5 here) printed,
    after its one-line error, 'Exception ignored in: <module 'threading'> … OSError: [Errno
    9] Bad file descriptor' (author12): concurrent.futures' exit hook wrote to the wake-up
    pipe of the executor's manager thread while that thread, still running after the
    pool was closed without waiting, closed it. Closing without waiting now also ends that
    thread (its workers are killed, so at once): none is left for the hook to race."""
    import time

    from sqrtdk.workers import Pool
    pool = Pool(2)
    futures = [pool.submit(time.sleep, 30) for _ in range(4)]
    time.sleep(0.5)
    assert pool.executor is not None
    manager = pool.executor._executor_manager_thread     # type: ignore[attr-defined]
    assert manager is not None and manager.is_alive()
    t0 = time.monotonic()
    pool.close(wait=False)
    assert not manager.is_alive() and time.monotonic() - t0 < 5, futures


def test_a_cpu_timeout_counts_cpu_not_waiting(tmp_path: Path) -> None:
    """`cpu_timeout(s)` (tests/conftest.py) fails a test that uses s seconds of CPU, with a
    message saying so, and passes one that waits longer than s (as a test on a loaded
    machine waits for a core): the linear-time tests must not fail because the machine is
    busy. Run in a pytest of its own, with this suite's hooks."""
    import subprocess
    import sys
    tests = Path(__file__).resolve().parent
    (tmp_path / "conftest.py").write_text(
        "import importlib.util, sys\n"
        f"sys.path[:0] = [{str(tests)!r}, {str(tests.parent)!r}]\n"
        "spec = importlib.util.spec_from_file_location('suite_conftest', "
        f"{str(tests / 'conftest.py')!r})\n"
        "suite = importlib.util.module_from_spec(spec)\nspec.loader.exec_module(suite)\n"
        "pytest_itemcollected = suite.pytest_itemcollected\n"
        "pytest_runtest_call = suite.pytest_runtest_call\n",
        encoding="utf-8")
    (tmp_path / "test_limits.py").write_text(
        "import time\nimport pytest\n\n"
        "@pytest.mark.cpu_timeout(0.5)\ndef test_busy():\n"
        "    end = time.process_time() + 3\n    while time.process_time() < end:\n        pass\n\n"
        "@pytest.mark.cpu_timeout(0.5)\ndef test_waiting():\n    time.sleep(1.5)\n",
        encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "-o", "addopts=", "-o", "markers=cpu_timeout", str(tmp_path)],
                          cwd=tmp_path, capture_output=True, encoding="utf-8", check=False)
    out = done.stdout + done.stderr
    assert "1 failed, 1 passed" in out and "used more than 0.5 s of CPU" in out, out
    assert "FAILED test_limits.py::test_busy" in out, out


def test_no_test_is_limited_by_the_wall_clock() -> None:
    """A wall-clock limit on one test (`pytest.mark.timeout`) fails on a busy machine: a
    test that code is linear in its input is marked `cpu_timeout` (tests/conftest.py). The
    suite's own 20-minute hang guard (pyproject.toml) stays."""
    import ast
    tests = Path(__file__).resolve().parent
    found = []
    for path in sorted(tests.glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "timeout" and \
                    isinstance(node.value, ast.Attribute) and node.value.attr == "mark":
                found.append(f"{path.name}:{node.lineno}")
    assert not found, f"use @pytest.mark.cpu_timeout(s) instead of a wall-clock limit: {found}"
