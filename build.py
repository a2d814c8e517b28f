#!/usr/bin/env python3
"""Build the √dₖ explainer: run the experiments, draw the figures, render both articles to site/.

Usage: python build.py [--seed N] [--out DIR] [--no-cache] [--serve [--port P]] [--check] [--clean]
Author mistakes print one line `path:line: message` and exit 1; the previous site/ stays as it was.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from sqrtdk import config
from sqrtdk.errors import BuildError


def seed_arg(text: str) -> int:
    """argparse type for --seed: a whole number from 0 to 2**63 - 1."""
    try:
        value = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number") from None
    if not 0 <= value < 2**63:
        raise argparse.ArgumentTypeError(f"{value} is out of range (0 to 2**63 - 1)")
    return value


def parse_args(argv: list[str]) -> argparse.Namespace:
    """The command line; argparse exits with status 2 and a usage line on a bad option."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seed", type=seed_arg, default=config.DEFAULT_SEED,
                   help=f"seed of the experiments (default {config.DEFAULT_SEED})")
    p.add_argument("--out", type=Path, default=config.SITE_DIR, help="output folder (default site/)")
    p.add_argument("--no-cache", action="store_true",
                   help="run every experiment, draw every figure and typeset every formula anew")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--serve", action="store_true",
                      help="build, serve on 127.0.0.1, rebuild and reload the page on every change")
    mode.add_argument("--check", action="store_true",
                      help="build twice into temporary folders (the second without cache); "
                           "fail if any byte differs")
    mode.add_argument("--clean", action="store_true",
                      help="delete the built site (only if this build made it) and the cache")
    p.add_argument("--port", type=port_arg, default=8000, help="port for --serve (default 8000)")
    return p.parse_args(argv)


def port_arg(text: str) -> int:
    """argparse type for --port: 0 (any free port) or 1024 to 65535."""
    try:
        value = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a port number") from None
    if value != 0 and not 1024 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a port from 1024 to 65535 (or 0)")
    return value


def main(argv: list[str] | None = None) -> int:
    """Run the build; returns the process exit code."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    from sqrtdk.pipeline import BuildOptions, build, check_reproducible, clean
    # figures/ is the record of the default seed (it is in git); other seeds keep theirs aside
    figures_dir = config.FIGURES_DIR if args.seed == config.DEFAULT_SEED else \
        config.CACHE_DIR / f"seed-{args.seed}" / "figures"
    opts = BuildOptions(seed=args.seed, out=args.out, figures_dir=figures_dir,
                        cache_dir=None if args.no_cache else config.CACHE_DIR)
    t0 = time.perf_counter()
    try:
        if args.serve:
            from sqrtdk.serve import serve
            argv_build = ["--seed", str(args.seed), "--out", str(args.out)] + \
                (["--no-cache"] if args.no_cache else [])
            serve(args.out, args.port, argv_build)
            return 0
        if args.clean:
            for line in clean(opts):
                print(line)
            return 0
        if args.check:
            print(check_reproducible(opts))
            return 0
        build(opts)
    except BuildError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    print(f"{'total':<12} {time.perf_counter() - t0:6.3f} s -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
