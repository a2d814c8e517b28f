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


def test_prune_removes_only_what_this_cache_object_did_not_use(tmp_path):
    """Entries read or written stay (with their digests); the others of the pruned units go;
    other units and a write in progress (atomic_write's dot file) are left alone."""
    first = Cache(tmp_path)
    for key in ("old", "read", "written"):
        first.put("pages", key, key.encode())
    first.put("figures", "drawn", b"<svg/>")
    (tmp_path / "pages" / ".written.abc").write_bytes(b"half")
    cache = Cache(tmp_path)                                 # the next build's
    assert cache.get("pages", "read") == b"read"
    cache.put("pages", "written", b"new")
    assert cache.get("pages", "missing") is None
    old_size = sum(p.stat().st_size for p in (tmp_path / "pages").glob("old*"))
    assert cache.prune(("pages", "links")) == (1, old_size)
    assert sorted(p.name for p in (tmp_path / "pages").iterdir()) == [
        ".written.abc", "read", "read.json", "written", "written.json"]
    assert cache.get("pages", "read") == b"read" and cache.get("pages", "written") == b"new"
    assert Cache(tmp_path).get("figures", "drawn") == b"<svg/>"
    assert Cache(None).prune() == (0, 0)


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
    (science_stage.science_key, sweep.claim_code): sound only
    while no experiment module imports another part of the package."""
    import ast

    from sqrtdk.options import PACKAGE_DIR
    science = PACKAGE_DIR / "science"
    for path in sorted(science.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        depth = len(path.relative_to(science).parts) - 1   # folders below sqrtdk/science/
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):            # `..grid` from science/outputs/ stays in
                outside = node.level > 1 + depth or (node.level == 0 and (node.module or "")
                    .startswith("sqrtdk") and not (node.module or "").startswith("sqrtdk.science"))
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


def test_key_for_is_the_units_kind_and_its_own_inputs(tmp_path):
    """Every cache key comes from cache.key_for: the unit's kind and its inputs, a file by
    its bytes (a missing one by its name), the named packages' versions."""
    from sqrtdk.cache import key_for
    path = tmp_path / "input.txt"
    path.write_text("one", encoding="utf-8")
    first = key_for("pages", "text", path)
    assert key_for("pages", "text", path) == first                     # deterministic
    assert key_for("figures", "text", path) != first                   # another unit
    assert key_for("pages", "other text", path) != first
    path.write_text("two", encoding="utf-8")
    assert key_for("pages", "text", path) != first                     # the file's bytes
    path.unlink()
    assert key_for("pages", "text", [path]) != key_for("pages", "text", [])
    assert key_for("pages", "x", packages=("numpy",)) != key_for("pages", "x")
    with pytest.raises(ValueError, match="no cache unit"):
        key_for("pagse", "text")


def _page_keys(opts, figures):
    from sqrtdk.pages_stage import page_key
    results = {"sweep": {"n_seeds": 3}}
    return {lang: page_key(opts, lang, "", results, b"{}", figures, "web code")
            for lang in ("aa", "bb")}


def test_an_edit_to_one_pages_inputs_changes_that_pages_key_alone(tmp_path):
    """A page is keyed on its own article, strings and figure sizes: an edit to one
    language's article, or another size of one language's figure, changes that page's key
    and leaves the other language's key as it was."""
    from sqrtdk.figures_stage import DrawnFigures
    from sqrtdk.options import BuildOptions
    opts = BuildOptions.for_project(tmp_path)
    for lang in ("aa", "bb"):
        (opts.content_dir / lang).mkdir(parents=True)
        (opts.content_dir / lang / "index.md").write_text(f"# {lang}\n", encoding="utf-8")
        (opts.content_dir / lang / "strings.toml").write_text("", encoding="utf-8")
    sizes = {f"f.{lang}.svg": (640, 320) for lang in ("aa", "bb")}
    before = _page_keys(opts, DrawnFigures(sizes=sizes, names=["f"]))
    (opts.content_dir / "bb" / "index.md").write_text("# bb, edited\n", encoding="utf-8")
    edited = _page_keys(opts, DrawnFigures(sizes=sizes, names=["f"]))
    assert edited["aa"] == before["aa"] and edited["bb"] != before["bb"]
    resized = _page_keys(opts, DrawnFigures(sizes={**sizes, "f.aa.svg": (640, 330)},
                                            names=["f"]))
    assert resized["aa"] != edited["aa"] and resized["bb"] == edited["bb"]


def test_an_edit_to_one_figures_labels_or_results_changes_its_files_keys_alone(tmp_path):
    """A figure file is keyed on its own figure's code, labels and the results it registers
    as `needs`: a label of figure `a` in one language changes only that file pair's keys;
    a result only `b` reads changes only `b`'s files (and the card, drawn from `b`)."""
    from types import SimpleNamespace

    from sqrtdk.cache import Cache
    from sqrtdk.figures import Registration
    from sqrtdk.figures_stage import FigureFile, FigureStage
    from sqrtdk.options import BuildOptions
    specs = {"a": Registration("a", lambda *_: None, ("x",), {}),
             "b": Registration("b", lambda *_: None, ("y",), {})}
    labels = {lang: {"a": {"title": "A"}, "b": {"title": "B"}, "style": {}, "card": {}}
              for lang in ("aa", "bb")}
    files = [FigureFile(name, lang, layout) for name in specs for lang in labels
             for layout in ("wide", "narrow")] + [FigureFile("b", lang, "card") for lang in labels]

    def keys(labels, results):
        inputs = SimpleNamespace(labels=labels, settings=SimpleNamespace(social_figure="b"))
        stage = FigureStage(BuildOptions.for_project(tmp_path), Cache(None), inputs)  # type: ignore[arg-type]
        return stage._keys(files, specs, results, {"a": "code a", "b": "code b"})

    results = {"x": 1.0, "y": 2.0}
    before = keys(labels, results)
    relabelled = keys({**labels, "bb": {**labels["bb"], "a": {"title": "A, edited"}}}, results)
    assert {f for f in files if relabelled[f] != before[f]} == \
        {FigureFile("a", "bb", "wide"), FigureFile("a", "bb", "narrow")}
    recomputed = keys(labels, {**results, "y": 2.5})
    assert {f for f in files if recomputed[f] != before[f]} == {f for f in files if f.name == "b"}
