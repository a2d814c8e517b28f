#!/usr/bin/env python3
"""Build the √dₖ explainer: run the experiments, draw the figures, render both articles to site/.

Usage: python build.py [--seed N] [--out DIR]
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
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Run the build; returns the process exit code."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    from sqrtdk.pipeline import BuildOptions, build
    t0 = time.perf_counter()
    try:
        build(BuildOptions(seed=args.seed, out=args.out))
    except BuildError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(f"{'total':<12} {time.perf_counter() - t0:6.3f} s -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
