"""A content-addressed cache for what is expensive: experiment results and figures.

An entry's key is a SHA-256 over everything it depends on (source code, parameters, seed,
library versions, inputs). Each entry stores the digest of its own bytes; an entry whose bytes
no longer match (a partial write, a hand edit, disk trouble) counts as a miss and is rebuilt.
"""
from __future__ import annotations

import functools
import hashlib
import json
import pickle
import os
import tempfile
import importlib.util
from pathlib import Path


def digest(*parts: bytes | str) -> str:
    """SHA-256 hex digest of the parts, each length-prefixed so boundaries cannot shift."""
    h = hashlib.sha256()
    for part in parts:
        data = part.encode("utf-8") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


def file_digest(*paths: Path) -> str:
    """Digest of the named files' bytes (a missing file contributes its name only)."""
    return digest(*[p.read_bytes() if p.exists() else f"missing:{p.name}" for p in paths])


@functools.cache
def versions(*packages: str) -> str:
    """'name==version' of installed packages (nothing is imported), for cache keys.

    Read from the `NAME-VERSION.dist-info` folder beside the package (a directory listing),
    falling back to importlib.metadata, whose import alone costs ~20 ms of every rebuild here.
    Raises ModuleNotFoundError for a package that is not installed.
    """
    return ";".join(f"{p}=={_version(p)}" for p in packages)


_MODULE = {"pymdown-extensions": "pymdownx", "PyYAML": "yaml", "Markdown": "markdown",
           "Jinja2": "jinja2"}


def _version(package: str) -> str:
    spec = importlib.util.find_spec(_MODULE.get(package, package))
    if spec is None or spec.origin is None:
        raise ModuleNotFoundError(package)
    site = Path(spec.origin).parent.parent
    wanted = package.lower().replace("-", "_")
    found = [d.name for d in site.glob("*.dist-info")
             if d.name.split("-")[0].lower().replace("-", "_") == wanted]
    if len(found) == 1:
        return found[0][: -len(".dist-info")].split("-", 1)[1]
    from importlib import metadata
    return metadata.version(package)


class Cache:
    """Entries under `root/<kind>/<key>`; `root=None` disables the cache (always a miss)."""

    def __init__(self, root: Path | None):
        self.root = root

    def get(self, kind: str, key: str) -> bytes | None:
        """The entry's bytes, or None when absent, unreadable or corrupt."""
        if self.root is None:
            return None
        path = self.root / kind / key
        try:
            meta = json.loads((path.with_suffix(".json")).read_text(encoding="utf-8"))
            data = path.read_bytes()
        except (OSError, ValueError):
            return None
        return data if meta.get("sha256") == hashlib.sha256(data).hexdigest() else None

    def put(self, kind: str, key: str, data: bytes) -> None:
        """Store bytes atomically (write to a temporary file, then rename)."""
        if self.root is None:
            return
        folder = self.root / kind
        folder.mkdir(parents=True, exist_ok=True)
        _atomic_write(folder / key, data)
        _atomic_write((folder / key).with_suffix(".json"),
                      json.dumps({"sha256": hashlib.sha256(data).hexdigest()}).encode())


    def get_object(self, kind: str, key: str) -> object | None:
        """An object stored with `put_object`, or None (a corrupt entry is a miss)."""
        data = self.get(kind, key)
        if data is None:
            return None
        try:
            return pickle.loads(data)  # our own cache folder, written by put_object only
        except Exception:  # noqa: BLE001 - any unpickling failure means "rebuild it"
            return None

    def put_object(self, kind: str, key: str, obj: object) -> None:
        """Store a picklable object (see `put`)."""
        self.put(kind, key, pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL))


def _atomic_write(path: Path, data: bytes) -> None:
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
    _atomic_write(path, data)
    return True
