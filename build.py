#!/usr/bin/env python3
"""Build the √dₖ explainer: run the experiments, draw the figures, render every language to site/.

Usage: python build.py [--seed N] [--out DIR] [--no-cache] [--strict] [--all-warnings]
                       [--serve [--port P] | --check | --clean | --sweep [N] [--claims A,B]]
Author mistakes print one line each, `path:line: message`, and exit 1; the previous site/ stays
as it was.
"""
from __future__ import annotations

import os
import signal
import sys

# Ctrl+C before the build began, said by the early handler and by main() alike
EARLY_INTERRUPT = "interrupted (Ctrl+C): stopped before the build began; nothing was written"


def _interrupted_early(signum: int, frame: object) -> None:
    """Ctrl+C before main() takes over (while Python imports the modules): the same one
    line as later, not a KeyboardInterrupt traceback from inside an import."""
    sys.stderr.write(EARLY_INTERRUPT + "\n")
    os._exit(130)


# not when Ctrl+C is ignored (`nohup … &`: the build then keeps ignoring it)
if __name__ == "__main__" and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
    signal.signal(signal.SIGINT, _interrupted_early)

import argparse  # noqa: E402 (after the early Ctrl+C handler)
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

from sqrtdk.errors import BuildError, display_path  # noqa: E402
from sqrtdk.options import DEFAULT_SEED, PROJECT_ROOT, BuildOptions, seed_figures_dir  # noqa: E402


def whole_number(low: int, high: int, what: str) -> Callable[[str], int]:
    """An argparse type: a whole number from `low` to `high`."""
    def parse(text: str) -> int:
        try:
            value = int(text, 10)
        except ValueError:
            raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is not {what} ({low} to {high})")
        return value
    return parse


def port_arg(text: str) -> int:
    """argparse type for --port: 0 (any free port) or 1024 to 65535."""
    try:
        value = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a port number") from None
    if value != 0 and not 1024 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a port from 1024 to 65535 (or 0)")
    return value


def claim_list(text: str) -> list[str]:
    """argparse type for --claims: comma-separated claim names, none empty."""
    names = [name.strip() for name in text.split(",")]
    if not all(names):
        raise argparse.ArgumentTypeError(f"'{text}' is not a comma-separated list of claims")
    return names


class Once(argparse.Action):
    """argparse action for an option with a value: given twice (`--seed 1 … --seed 2`, a
    command edited from the shell's history), argparse kept the last without a word; it is
    a usage error naming both values."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        given: dict[str, Any] = namespace.__dict__.setdefault("_given", {})
        if self.dest in given:
            parser.error(f"{option_string} is given twice ({given[self.dest]} and {values}); "
                         "give it once")
        given[self.dest] = values
        setattr(namespace, self.dest, values)


def parse_args(argv: list[str]) -> argparse.Namespace:
    """The command line; argparse exits with status 2 and a usage line on a bad option."""
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--seed", action=Once, type=whole_number(0, 2**63 - 1, "a seed"),
                   default=None,
                   help=f"seed of the experiments (default {DEFAULT_SEED})")
    p.add_argument("--out", action=Once, type=Path, default=None,
                   help="output folder (default site/)")
    p.add_argument("--no-cache", action="store_true",
                   help="run every experiment, draw every figure and typeset every formula anew")
    p.add_argument("--strict", action="store_true", help="treat warnings as errors")
    p.add_argument("--all-warnings", action="store_true",
                   help="print every warning (by default a file's Chinese spacing warnings "
                        "stop after the first 10, with a line saying how many more)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--serve", action="store_true",
                      help="build, serve on 127.0.0.1, rebuild and reload the page on every change")
    mode.add_argument("--check", action="store_true",
                      help="build twice into temporary folders (the second without cache); "
                           "fail if any byte differs")
    mode.add_argument("--clean", action="store_true",
                      help="delete the built site (only if this build made it) and the cache")
    mode.add_argument("--sweep", action=Once, type=whole_number(1, 100_000, "a number of seeds"),
                      nargs="?",
                      const=100, default=None, metavar="N",
                      help="run the experiments for N seeds (default 100) and write "
                           "figures/sweep.json: how often each claim holds")
    p.add_argument("--claims", action=Once, type=claim_list, default=None, metavar="A,B",
                   help="with --sweep: recompute only these claims (comma-separated names, as "
                        "a build names stale ones) and keep the others' entries")
    p.add_argument("--port", action=Once, type=port_arg, default=None,
                   help="port for --serve (default 8000)")
    args = p.parse_args(argv)
    args.__dict__.pop("_given", None)
    if args.claims is not None and args.sweep is None:
        p.error("--claims goes with --sweep N (e.g. --sweep 100 --claims spread.sqrt_not_linear)")
    unread = _unread_option(args)
    if unread:
        p.error(unread)
    args.seed = DEFAULT_SEED if args.seed is None else args.seed
    args.port = 8000 if args.port is None else args.port
    return args


def _unread_option(args: argparse.Namespace) -> str:
    """What to leave out when an option was given that the chosen mode does not read (it was
    accepted and ignored: `--port 8001` without --serve built and served nothing on 8001,
    `--check --out DIR` wrote nothing there); "" when every option given is read."""
    if args.port is not None and not args.serve:
        return "--port goes with --serve (e.g. --serve --port 8001); leave it out"
    mode = "--check" if args.check else "--clean" if args.clean else \
        "--sweep" if args.sweep is not None else ""
    unread = {"--check": {"--out": "it builds into temporary folders",
                          "--no-cache": "it builds once with the cache and once without"},
              "--clean": {"--seed": "it removes every seed's files",
                          "--no-cache": "it removes the cache too",
                          "--strict": "it builds nothing", "--all-warnings": "it builds nothing"},
              "--sweep": {"--out": "it writes figures/sweep.json and no site",
                          "--seed": "it runs seeds 1 to N",
                          "--strict": "it builds no pages",
                          "--all-warnings": "it builds no pages"}}.get(mode, {})
    given = {"--out": args.out is not None, "--seed": args.seed is not None,
             "--no-cache": args.no_cache, "--strict": args.strict,
             "--all-warnings": args.all_warnings}
    for option, why in unread.items():
        if given[option]:
            return f"{mode} does not read {option} ({why}); leave it out"
    return ""


def options(args: argparse.Namespace) -> BuildOptions:
    """BuildOptions for the project this script belongs to, from the command line."""
    root = PROJECT_ROOT
    # figures/ records the default seed (it is in git); other seeds keep theirs aside
    figures = root / "figures" if args.seed == DEFAULT_SEED else \
        seed_figures_dir(root / ".cache", args.seed)
    changes: dict[str, object] = {"seed": args.seed, "figures_dir": figures,
                                  "strict": args.strict}
    if args.out is not None:
        changes["out"] = args.out
    if args.no_cache:
        changes["cache_dir"] = None
    return BuildOptions.for_project(root, **changes)


# what requirements.txt installs, by import name: every package sqrtdk/ imports, and mplfonts,
# whose font the figures load by path (tests/test_command_line.py keeps the list whole: one
# missing here was an ImportError traceback halfway through the build)
PACKAGES = ("numpy", "matplotlib", "cycler", "mplfonts", "fontTools", "markdown", "pymdownx",
            "cmarkgfm", "autocorrect_py", "jinja2", "markupsafe", "yaml", "brotli", "tinycss2")


def missing_packages(serve: bool) -> list[str]:
    """The packages this interpreter lacks (looked up, not imported)."""
    import importlib.util
    wanted = PACKAGES + (("watchfiles",) if serve else ())
    return [name for name in wanted if importlib.util.find_spec(name) is None]


def main(argv: list[str] | None = None) -> int:
    """Run the build; returns the process exit code."""
    try:
        return _main(argv)
    except KeyboardInterrupt:   # before the build's own handler below: nothing began yet
        print(EARLY_INTERRUPT, file=sys.stderr)
        return 130


def _main(argv: list[str] | None) -> int:
    """`main`: Ctrl+C from here on is a KeyboardInterrupt, raised outside imports (see
    sqrtdk/interrupt.py)."""
    if signal.getsignal(signal.SIGINT) is _interrupted_early:
        from sqrtdk import interrupt
        interrupt.install()
    args = parse_args(sys.argv[1:] if argv is None else argv)
    missing = missing_packages(args.serve)
    if missing:
        print(f"error: {sys.executable} has no {', '.join(missing)}; run 'make site' once (it "
              "creates .venv with the pinned packages), then use .venv/bin/python build.py",
              file=sys.stderr)
        return 1
    from sqrtdk import log
    from sqrtdk.pipeline import build, check_reproducible, clean
    log.install(most=None if args.all_warnings else log.MOST_OF_A_KIND)
    opts = options(args)
    t0 = time.perf_counter()
    try:
        if args.serve:
            from sqrtdk.web.serve import serve
            serve(opts, args.port)
            return 0
        if args.clean:
            for line in clean(opts):
                print(line)
            return 0
        if args.sweep is not None:
            from sqrtdk.sweep import sweep
            print(sweep(opts, args.sweep, claims=args.claims))
            return 0
        if args.check:
            print(check_reproducible(opts))
            return 0
        try:
            build(opts)
        finally:
            log.summarise()
    except BuildError as e:              # every mistake found, one line each (errors.report)
        from sqrtdk.errors import report
        for line in report(e):
            print(f"error: {line}", file=sys.stderr)
        return 1
    except (SyntaxError, SystemExit) as e:  # an author's module, met outside a build's stages
        from sqrtdk.inputs import told_import_error, told_syntax_error
        told = told_syntax_error(e) if isinstance(e, SyntaxError) else told_import_error(e)
        if told is None:
            raise                        # the engine's own: a bug, with its traceback
        print(f"error: {told}", file=sys.stderr)
        return 1
    except Exception as e:               # a full disk, a worker killed for memory
        from sqrtdk.errors import machine_fault
        from sqrtdk.inputs import told_import_error
        fault = told_import_error(e) or machine_fault(e)
        if fault is None:
            raise                        # not the machine's: a bug, with its traceback
        print(f"error: {fault}", file=sys.stderr)
        return 1
    except KeyboardInterrupt as stopped:  # Ctrl+C: one line, no traceback (workers ignore it)
        if args.serve:
            from sqrtdk.web.serve import NothingServed
            if isinstance(stopped, NothingServed):     # in the first build: no server yet
                print(f"stopped (Ctrl+C) before anything was served; "
                      f"{display_path(opts.out)} is as the last complete build left it")
                return 0
            # the way an author stops the server: no error (`make serve` said 'Error 130'
            # under it), also when it struck in a rebuild
            print(f"stopped serving (Ctrl+C); {display_path(opts.out)} is as the last complete "
                  "build left it")
            return 0
        # what is as it was: a sweep writes its file, not the site, once every seed has run
        kept = "" if args.clean else \
            f"; {display_path(opts.sweep_file)} is as it was (written once every seed has run)" \
            if args.sweep is not None else f"; {opts.out} is as the last complete build left it"
        print(f"interrupted (Ctrl+C): stopped{kept}", file=sys.stderr)
        return 130
    print(f"{'total':<12} {time.perf_counter() - t0:6.3f} s -> {opts.out}")
    return 0


if __name__ == "__main__":
    code = main()
    # done: a Ctrl+C that an import delayed (sqrtdk/interrupt.py) has nothing left to stop
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.exit(code)
