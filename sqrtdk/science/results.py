"""results.json as canonical text: the contract between the science half and the site half.

Sorted keys, plain Python floats rounded to `SIGNIFICANT` significant digits (so last-bit
noise cannot change the file), one-space indent, a final newline (HOUSE_STYLE rule 4).
"""
from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path
from typing import Any

SIGNIFICANT = 6
SCHEMA = 2


def canonical(value: Any, at: str = "") -> Any:
    """Return `value` with numpy scalars and tuples made plain and floats rounded.

    Raises TypeError for a value JSON cannot hold, ValueError for NaN or infinity; the
    message names where inside `value` it is (`at`, the dotted path of `value` itself).
    """
    where = f" at '{at}'" if at else ""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, str):
        return str(value)            # np.str_ becomes a plain str
    if getattr(value, "ndim", 0) > 0:          # a numpy array: element by element
        return [canonical(v, _join(at, i)) for i, v in enumerate(value)]
    kind = getattr(getattr(value, "dtype", None), "kind", "")
    if kind == "b":
        return bool(value)
    if kind == "c" or isinstance(value, complex):
        raise TypeError(f"cannot store the complex number {value!r}{where} in results")
    if isinstance(value, int) or kind in ("i", "u"):
        return int(value)
    if isinstance(value, float) or kind == "f":
        x = float(value)
        if not math.isfinite(x):
            raise ValueError(f"non-finite result {x!r}{where}")
        return float(f"{x:.{SIGNIFICANT}g}")
    if isinstance(value, dict):
        out = {str(k): canonical(v, _join(at, k)) for k, v in value.items()}
        if len(out) < len(value):
            raise ValueError(f"keys that are equal as text in {list(value)!r}{where}")
        return out
    if isinstance(value, (list, tuple)):
        return [canonical(v, _join(at, i)) for i, v in enumerate(value)]
    raise TypeError(f"cannot store {type(value).__name__}{where} in results")


def _join(at: str, key: Any) -> str:
    return f"{at}.{key}" if at else str(key)


def dumps(results: dict[str, Any]) -> str:
    """Serialise results as canonical text (sorted keys, UTF-8, newline-terminated)."""
    return json.dumps(results, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


DIGEST = "sha256"    # the top-level key holding the digest of the rest of the file


def dumps_signed(data: dict[str, Any]) -> str:
    """`dumps(data)` with a top-level DIGEST: the SHA-256 of the file's text without it, so
    a reader can tell a file written by the build from one edited by hand."""
    body = {k: v for k, v in data.items() if k != DIGEST}
    return dumps({**body, DIGEST: hashlib.sha256(dumps(body).encode("utf-8")).hexdigest()})


def is_signed(text: str) -> bool:
    """Whether `text` is a file `dumps_signed` wrote, unedited (its DIGEST matches the rest;
    the canonical form round-trips through json, so the text can be written again)."""
    try:
        data = json.loads(text)
    except ValueError:
        return False
    if not isinstance(data, dict):
        return False
    sha = data.pop(DIGEST, None)
    return sha == hashlib.sha256(dumps(data).encode("utf-8")).hexdigest() and \
        dumps_signed(data) == text


def load(path: Path) -> dict[str, Any]:
    """Read a results file; raises FileNotFoundError or json.JSONDecodeError as they come."""
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def at(results: dict[str, Any], path: str) -> Any:
    """The value at dotted `path` (list indices as numbers); KeyError/IndexError if absent."""
    value: Any = results
    for part in path.split("."):
        value = value[int(part)] if isinstance(value, list) else value[part]
    return value
