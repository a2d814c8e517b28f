"""A content-addressed cache for what is expensive: results, figures, converted pages, formulas.

An entry's key is a SHA-256 over everything it depends on: the code (every module of the half
that produces it, found by listing its folder, so a new module is covered without anyone
listing it; or the import closure of the modules that produce it), the options that change
output, library versions and the inputs. Every key is made by `key_for(unit, inputs…)`, from
the unit's own inputs; the units are the cache's folders (`UNITS`). Each entry stores the
digest of its own bytes; an entry whose bytes no longer match (a partial write, a hand edit,
disk trouble) is a miss and is rebuilt. `--serve` keeps a memory layer in front.
"""
from __future__ import annotations

import functools
import hashlib
import importlib.util
import json
import os
import pickle
import tempfile
from collections.abc import Sequence
from pathlib import Path

from .options import PACKAGE_DIR

# Every kind of unit the build caches, one folder of the cache each ("jinja": Jinja's own
# bytecode cache; "math" and "fonts": the math renderer's; the others through `Cache`).
UNITS = ("results", "experiments", "sweep", "registry", "manifest", "figures", "pages", "links",
         "published", "compressed", "minified", "build", "jinja", "math", "fonts")

# The units whose entries every full build reads, writes or keeps (`Cache.keep`) again: the
# pages, the checked links, what publish makes, the whole-build record, and the figures (the
# drawings of the current figure set, even those whose files are on disk untouched, and its
# manifest). Each edit of text or figure code leaves one more generation of them, so a build
# removes those it did not use (`Cache.prune`, after each default-seed build but --serve's;
# another seed's figures are drawn again when that seed is built again, in seconds). Results
# and experiments are kept: `make sweep` caches every seed's, which takes minutes to make
# again. Jinja, math and fonts keep their own folders.
PRUNED_UNITS = ("pages", "links", "published", "compressed", "minified", "build", "figures",
                "manifest")

Input = bytes | str | Path | Sequence[Path]


def digest(*parts: bytes | str) -> str:
    """SHA-256 hex digest of the parts, each length-prefixed so boundaries cannot shift."""
    h = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


def key_for(unit: str, *inputs: Input, packages: Sequence[str] = ()) -> str:
    """The cache key of one unit of work of kind `unit` (one of UNITS): a digest of the unit's
    kind and its own inputs, in order (bytes and text as they are; a Path or a list of Paths:
    the files' bytes, see `file_digest`), with the versions of the installed `packages`
    (`versions`). The code a unit runs is one of its inputs (`code_digest`, `closure_digest`).
    Raises ValueError for an unknown unit (a bug of ours)."""
    if unit not in UNITS:
        raise ValueError(f"no cache unit '{unit}'; add it to cache.UNITS")
    return stamp(unit, *inputs, packages=packages)


def stamp(*inputs: Input, packages: Sequence[str] = ()) -> str:
    """The digest `key_for` makes, without a unit: what a committed file records of the code
    and inputs it was made from (sweep.json's claim entries), so a build can tell it is stale."""
    parts: list[bytes | str] = []
    for i in inputs:
        if isinstance(i, (bytes, str)):
            parts.append(i)
        else:
            parts.append(file_digest(i) if isinstance(i, Path) else file_digest(*i))
    return digest(*parts, versions(*packages))


def file_digest(*paths: Path) -> str:
    """Digest of the named files' bytes (a missing file contributes its name only)."""
    return digest(*[p.read_bytes() if p.is_file() else f"missing:{p.name}" for p in paths])


def tree_digest(*folders: Path, suffixes: tuple[str, ...] | None = (".py", ".mjs")) -> str:
    """Digest of every file with one of `suffixes` (None: any file) under `folders` (names and
    bytes, sorted): the derived code key of one half of the package, or of a source folder."""
    parts: list[bytes | str] = []
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if (suffixes is None or path.suffix in suffixes) and path.is_file() \
                    and "__pycache__" not in path.parts:
                parts += [path.relative_to(folder.parent).as_posix(), path.read_bytes()]
    return digest(*parts)


def code_digest(*halves: str) -> str:
    """Digest of the package's shared modules plus the named sub-packages (`science`,
    `figures`, `web`): a new or edited module of any of them changes the key."""
    shared = sorted(p for p in PACKAGE_DIR.glob("*.py"))
    return digest(file_digest(*shared), tree_digest(*(PACKAGE_DIR / h for h in halves)))


def closure_digest(*modules: str, extra: Sequence[Path] = ()) -> str:
    """Digest of the import closure (see `import_closure`) of the named modules of this package
    (dotted names) and of the files `extra`, with their paths: the code a unit made by those
    modules runs, so a module it does not import is not in its key."""
    files = import_closure(*(PACKAGE_DIR.parent.joinpath(*m.split(".")).with_suffix(".py")
                             for m in modules))
    return digest(file_digest(*files, *extra),
                  repr([f.relative_to(PACKAGE_DIR).as_posix() for f in files]))


def import_closure(*paths: Path) -> list[Path]:
    """`paths` (modules of this package) and every module of the package they import,
    directly or not, sorted: what a module's output can depend on in our code. Read from the
    import statements (relative and `sqrtdk.…`, also inside functions and TYPE_CHECKING
    blocks, so the closure may be larger than what runs, never smaller), with the
    `__init__.py` of every package on the way (importing a module runs them)."""
    seen: set[Path] = set()
    todo = [p.resolve() for p in paths]
    while todo:
        path = todo.pop()
        if path in seen or not path.is_file():
            continue
        seen.add(path)
        todo += _imported(path)
    return sorted(seen)


def _imported(path: Path) -> list[Path]:
    """The package's modules that the module at `path` names in its import statements."""
    return [f for f in _imported_by(path, path.read_bytes()) if f.is_file()]


@functools.lru_cache(maxsize=512)
def _imported_by(path: Path, source: bytes) -> tuple[Path, ...]:
    """`_imported` for the module at `path` holding `source`: parsed once per content in a
    process (a warm `--serve` computes the figures' and experiments' closures on every
    rebuild; parsing the modules again each time cost ~20–50 ms)."""
    import ast
    root = PACKAGE_DIR.resolve()
    found: list[Path] = []

    def add(target: Path, names: list[str]) -> None:
        for folder in [target, *target.parents]:   # the packages on the way run __init__
            if folder == root.parent or root not in [folder, *folder.parents]:
                break
            found.append(folder / "__init__.py")
        found.append(target.with_suffix(".py"))
        for name in names:                      # `from . import m`: m may be a module
            found.extend([(target / name).with_suffix(".py"), target / name / "__init__.py"])

    for node in ast.walk(ast.parse(source, str(path))):
        if isinstance(node, ast.ImportFrom):
            parts = (node.module or "").split(".") if node.module else []
            if node.level:
                base = path.parent
                for _ in range(node.level - 1):
                    base = base.parent
            elif parts and parts[0] == root.name:
                base = root.parent
            else:
                continue
            add(base.joinpath(*parts), [a.name for a in node.names])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == root.name:
                    add(root.parent.joinpath(*alias.name.split(".")), [])
    return tuple(f for f in found if root in f.resolve().parents)


@functools.cache
def versions(*packages: str) -> str:
    """'name==version' of installed packages (nothing is imported), for cache keys.

    Read from the `NAME-VERSION.dist-info` folder beside the package (a directory listing),
    falling back to importlib.metadata, whose import alone costs ~20 ms of every rebuild here.
    Raises ModuleNotFoundError for a package that is not installed.
    """
    return ";".join(f"{p}=={_version(p)}" for p in packages)


_MODULE = {"pymdown-extensions": "pymdownx", "PyYAML": "yaml", "Markdown": "markdown",
           "Jinja2": "jinja2", "MarkupSafe": "markupsafe"}


@functools.cache
def _version(package: str) -> str:
    spec = importlib.util.find_spec(_MODULE.get(package, package))
    if spec is None or spec.origin is None:
        raise ModuleNotFoundError(package)
    site = Path(spec.origin).parent.parent
    wanted = package.lower().replace("-", "_")
    found = [name for name in _dist_infos(site)
             if name.split("-")[0].lower().replace("-", "_") == wanted]
    if len(found) == 1:
        return found[0][: -len(".dist-info")].split("-", 1)[1]
    from importlib import metadata
    return metadata.version(package)


@functools.cache
def _dist_infos(site: Path) -> list[str]:
    """The `*.dist-info` folder names of one site-packages folder (listed once a process)."""
    return [name for name in os.listdir(site) if name.endswith(".dist-info")]


class Cache:
    """Entries under `root/<kind>/<key>`; `root=None` disables the disk (always a miss).

    With `memory=True` (the warm `--serve` process) entries read or written once are kept in
    memory too, so an unchanged input costs a dictionary lookup.
    """

    def __init__(self, root: Path | None, memory: bool = False):
        self.root = root
        self.memory: dict[tuple[str, str], object] | None = {} if memory else None
        self.used: set[tuple[str, str]] = set()     # (kind, key) read (a hit) or written

    def get(self, kind: str, key: str) -> bytes | None:
        """The entry's bytes, or None when absent, unreadable or corrupt."""
        if self.memory is not None and (kind, key) in self.memory:
            value = self.memory[(kind, key)]
            self.used.add((kind, key))
            return value if isinstance(value, bytes) else None
        if self.root is None:
            return None
        path = self.root / kind / key
        try:
            meta = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
            data = path.read_bytes()
        except (OSError, ValueError):
            return None
        if meta.get("sha256") != hashlib.sha256(data).hexdigest():
            return None
        self.used.add((kind, key))
        if self.memory is not None:
            self.memory[(kind, key)] = data
        return data

    def put(self, kind: str, key: str, data: bytes) -> None:
        """Store bytes atomically (write to a temporary file, then rename)."""
        self.used.add((kind, key))
        if self.memory is not None:
            self.memory[(kind, key)] = data
        if self.root is None:
            return
        folder = self.root / kind
        folder.mkdir(parents=True, exist_ok=True)
        atomic_write(folder / key, data)
        atomic_write((folder / key).with_suffix(".json"),
                     json.dumps({"sha256": hashlib.sha256(data).hexdigest()}).encode())

    def keep(self, kind: str, key: str) -> None:
        """Count the entry as used by this build without reading it (`prune` keeps it): one
        the build would read if an output it wrote were gone."""
        self.used.add((kind, key))

    def prune(self, units: Sequence[str] = PRUNED_UNITS) -> tuple[int, int]:
        """Remove from disk every entry of `units` that this Cache object neither read nor
        wrote: (entries, bytes) removed. Call it after a build that ran every stage, so what
        it did not use is what no current input makes (the cache grew without bound before:
        59 MB after a day of edits, 30 MB of it old pages' publish entries, against 5 MB on a
        fresh clone; every test that copies the cache paid for it). Entries are
        content-addressed: one removed too many is made again, never read wrong. A file being
        written by another build (atomic_write's `.name.` temporary) is left alone."""
        if self.root is None:
            return 0, 0
        entries = size = 0
        for unit in units:
            folder = self.root / unit
            if not folder.is_dir():
                continue
            for path in folder.iterdir():
                key = path.name[:-len(".json")] if path.name.endswith(".json") else path.name
                if path.name.startswith(".") or (unit, key) in self.used:
                    continue
                try:
                    size += path.stat().st_size
                    path.unlink()
                except OSError:
                    continue
                entries += path.name == key
        return entries, size

    def get_object(self, kind: str, key: str) -> object | None:
        """An object stored with `put_object`, or None (a corrupt entry is a miss)."""
        if self.memory is not None and (kind, "obj:" + key) in self.memory:
            self.used.add((kind, key))
            return self.memory[(kind, "obj:" + key)]
        data = self.get(kind, key)
        if data is None:
            return None
        try:
            obj: object = pickle.loads(data)  # noqa: S301 - our own cache, written by put_object
        except Exception:
            return None
        if self.memory is not None:
            self.memory[(kind, "obj:" + key)] = obj
        return obj

    def put_object(self, kind: str, key: str, obj: object) -> None:
        """Store a picklable object (see `put`)."""
        self.put(kind, key, pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL))
        if self.memory is not None:
            self.memory[(kind, "obj:" + key)] = obj


def atomic_write(path: Path, data: bytes) -> None:
    """Write `data` to `path` through a temporary file in the same folder and a rename."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_if_changed(path: Path, data: bytes) -> bool:
    """Write `data` to `path` unless it already holds exactly those bytes; True if written."""
    try:
        if path.read_bytes() == data:
            return False
    except OSError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, data)
    return True
