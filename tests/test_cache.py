"""The cache's building blocks: digests, versions, entries that verify their own bytes."""
from __future__ import annotations

from importlib import metadata

import pytest

from sqrtdk.cache import Cache, digest, versions, write_if_changed


@pytest.mark.parametrize("package", ["numpy", "matplotlib", "mplfonts", "Markdown",
                                     "pymdown-extensions", "Jinja2", "PyYAML"])
def test_versions_agree_with_importlib_metadata(package):
    assert versions(package) == f"{package}=={metadata.version(package)}"


def test_digest_separates_parts():
    assert digest("ab", "c") != digest("a", "bc")
    assert digest("ab", "c") == digest(b"ab", b"c")


def test_entry_round_trip_and_corruption(tmp_path):
    cache = Cache(tmp_path)
    assert cache.get("figures", "k") is None
    cache.put("figures", "k", b"<svg/>")
    assert cache.get("figures", "k") == b"<svg/>"
    (tmp_path / "figures" / "k").write_bytes(b"<svg>changed</svg>")
    assert cache.get("figures", "k") is None            # digest mismatch: a miss, never used
    cache.put_object("pages", "p", {"a": [1, 2]})
    assert cache.get_object("pages", "p") == {"a": [1, 2]}
    (tmp_path / "pages" / "p.json").write_text("not json")
    assert cache.get_object("pages", "p") is None


def test_disabled_cache_always_misses(tmp_path):
    cache = Cache(None)
    cache.put("figures", "k", b"x")
    assert cache.get("figures", "k") is None


def test_write_if_changed_keeps_identical_files(tmp_path):
    path = tmp_path / "a.svg"
    assert write_if_changed(path, b"x") is True
    mtime = path.stat().st_mtime_ns
    assert write_if_changed(path, b"x") is False and path.stat().st_mtime_ns == mtime
    assert write_if_changed(path, b"y") is True and path.read_bytes() == b"y"


def test_code_digest_covers_every_module_of_a_half(tmp_path, monkeypatch):
    from sqrtdk import cache as cache_module
    pkg = tmp_path / "pkg"
    (pkg / "science").mkdir(parents=True)
    (pkg / "shared.py").write_text("x = 1\n")
    (pkg / "science" / "a.py").write_text("a = 1\n")
    monkeypatch.setattr(cache_module, "PACKAGE_DIR", pkg)
    before = cache_module.code_digest("science")
    (pkg / "science" / "new_module.py").write_text("b = 2\n")
    after_new = cache_module.code_digest("science")
    (pkg / "shared.py").write_text("x = 2\n")
    after_shared = cache_module.code_digest("science")
    assert len({before, after_new, after_shared}) == 3


def test_memory_layer_serves_without_the_disk(tmp_path):
    cache = Cache(tmp_path, memory=True)
    cache.put("figures", "k", b"x")
    (tmp_path / "figures" / "k").unlink()
    assert cache.get("figures", "k") == b"x"


def test_the_experiments_import_nothing_else_of_the_package():
    """The results and the committed sweep are keyed on sqrtdk/science/ alone
    (sweep.science_key, sweep.claim_code): sound only
    while no experiment module imports another part of the package."""
    import ast

    from sqrtdk.options import PACKAGE_DIR
    for path in sorted((PACKAGE_DIR / "science").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                outside = node.level > 1 or (node.level == 0 and (node.module or "").startswith(
                    "sqrtdk") and not (node.module or "").startswith("sqrtdk.science"))
                assert not outside, f"{path.name}:{node.lineno} imports {node.module}"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    assert not alias.name.startswith("sqrtdk") or alias.name.startswith(
                        "sqrtdk.science"), f"{path.name}:{node.lineno} imports {alias.name}"


def test_import_closure_follows_the_package_imports_of_one_module(tmp_path, monkeypatch):
    """Relative and absolute imports, `from . import module`, imports inside functions and
    the __init__.py of each package on the way; a sibling module not imported stays out."""
    from sqrtdk import cache as cache_module
    pkg = tmp_path / "sqrtdk"
    (pkg / "figures").mkdir(parents=True)
    files = {"__init__.py": "", "shared.py": "import numpy\n",
             "figures/__init__.py": "", "figures/draw.py": "from .. import shared\n",
             "figures/one.py": "from .draw import x\nfrom . import fonts\n"
                               "def f():\n    import sqrtdk.late\n",
             "figures/fonts.py": "", "figures/two.py": "", "late.py": ""}
    for name, text in files.items():
        (pkg / name).write_text(text)
    monkeypatch.setattr(cache_module, "PACKAGE_DIR", pkg)
    found = {p.relative_to(pkg).as_posix() for p in cache_module.import_closure(
        pkg / "figures" / "one.py")}
    assert found == {"__init__.py", "shared.py", "figures/__init__.py", "figures/draw.py",
                     "figures/one.py", "figures/fonts.py", "late.py"}
