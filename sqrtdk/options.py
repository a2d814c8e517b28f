"""What one build reads, writes and does: the one place every path comes from.

`BuildOptions` is passed down to every stage (MkDocs passes its `config` the same way). The
module-level `PROJECT_ROOT` is only the default for a project checked out as this repository
is; a build with every folder moved elsewhere gives each path explicitly and touches nothing
in the project.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent   # the default project folder only
PACKAGE_DIR = Path(__file__).resolve().parent           # the code being run (for cache keys)
DEFAULT_SEED = 20170612  # arXiv:1706.03762 was submitted on 12 June 2017
RESULTS_FILE = "results.json"
SWEEP_FILE = "sweep.json"


def seed_figures_dir(cache_dir: Path, seed: int) -> Path:
    """Where a build of another seed than DEFAULT_SEED keeps its results and SVGs (figures/
    holds the default seed's, which are in git): `seed-N/figures` in the cache folder."""
    return cache_dir / f"seed-{seed}" / "figures"


def is_seed_folder(path: Path) -> bool:
    """Whether `path`, an entry of the cache folder, is one `seed_figures_dir` makes."""
    name = path.name
    return path.is_dir() and name.startswith("seed-") and name[5:].isdigit()


@dataclass(frozen=True)
class BuildOptions:
    """Every folder a build reads or writes, and the switches that change what it does.

    Paths are absolute after `resolve()`; `cache_dir=None` disables the cache (every
    experiment, figure and formula is made anew). `strict` turns warnings into errors.
    """

    content_dir: Path
    templates_dir: Path
    static_dir: Path
    figures_dir: Path
    node_modules: Path
    out: Path
    cache_dir: Path | None
    sweep_path: Path | None = None  # None: figures_dir / sweep.json
    seed: int = DEFAULT_SEED
    strict: bool = False
    jobs: int = 0                 # worker processes; 0: one per core

    @classmethod
    def for_project(cls, root: Path = PROJECT_ROOT, **changes: object) -> BuildOptions:
        """The options of a project laid out as this repository: content/, templates/,
        static/, figures/, node_modules/, site/ and .cache/ under `root`; `changes` override
        any field (e.g. `out=`, `cache_dir=None`, `seed=`)."""
        root = Path(root)
        opts = cls(content_dir=root / "content", templates_dir=root / "templates",
                   static_dir=root / "static", figures_dir=root / "figures",
                   node_modules=root / "node_modules", out=root / "site",
                   cache_dir=root / ".cache", sweep_path=root / "figures" / SWEEP_FILE)
        return dataclasses.replace(opts, **changes).resolve()  # type: ignore[arg-type]

    def resolve(self) -> BuildOptions:
        """The same options with every path made absolute (so a later chdir changes nothing)."""
        def fix(p: Path) -> Path:
            return Path(p).expanduser().resolve()
        return dataclasses.replace(
            self, content_dir=fix(self.content_dir), templates_dir=fix(self.templates_dir),
            static_dir=fix(self.static_dir), figures_dir=fix(self.figures_dir),
            node_modules=fix(self.node_modules), out=fix(self.out),
            cache_dir=None if self.cache_dir is None else fix(self.cache_dir),
            sweep_path=None if self.sweep_path is None else fix(self.sweep_path))

    @property
    def sources(self) -> tuple[Path, ...]:
        """Folders the build reads: never an output folder."""
        return (self.content_dir, self.templates_dir, self.static_dir, self.node_modules,
                PACKAGE_DIR)

    @property
    def results_file(self) -> Path:
        """The results of this build's seed (the contract between the two halves)."""
        return self.figures_dir / RESULTS_FILE

    @property
    def sweep_file(self) -> Path:
        """The claims over many seeds, written by `build.py --sweep N` (kept in git beside the
        default seed's results, whatever seed this build runs)."""
        return self.sweep_path or self.figures_dir / SWEEP_FILE
