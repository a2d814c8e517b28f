"""The math engine is chosen by content/site.toml's `math` setting from sqrtdk.web.math's
registry (issue 21, item 5): an unknown name stops at its line with a suggestion, and a build
with another engine registered and named uses it for every formula, its style sheet and its
hooks, with nothing of the default engine left in the site."""
from __future__ import annotations

import re
import shutil
from collections.abc import Iterator, Mapping, Sequence
from html import escape
from pathlib import Path
from typing import Any

import pytest
from helpers import Tree

from sqrtdk.errors import BuildError
from sqrtdk.options import PROJECT_ROOT, BuildOptions
from sqrtdk.settings import load_settings
from sqrtdk.web.math import DEFAULT_ENGINE, ENGINES, Engine, engine_names
from sqrtdk.web.math.formula import Formula, Quote, Rendered

_MATH_HEADER = re.compile(r"^\s*\[\s*math\s*[.\]]")
_ANY_HEADER = re.compile(r"^\s*\[")
_MATH_KEY = re.compile(r"^\s*math\s*=")


def without_math(text: str) -> str:
    """site.toml's text without its math setting (a `math = …` line or the [math] tables)."""
    out, inside = [], False
    for line in text.split("\n"):
        if _ANY_HEADER.match(line):
            inside = bool(_MATH_HEADER.match(line))
        if not inside and not _MATH_KEY.match(line):
            out.append(line)
    return "\n".join(out).rstrip("\n") + "\n"


@pytest.fixture
def content(tmp_path: Path) -> Path:
    dest = tmp_path / "content"
    shutil.copytree(PROJECT_ROOT / "content", dest)
    site = dest / "site.toml"
    site.write_text(without_math(site.read_text(encoding="utf-8")), encoding="utf-8")
    return dest


def with_math(content: Path, setting: str) -> int:
    """Append `setting` to the copy's site.toml; returns the line its first line is on."""
    site = content / "site.toml"
    text = site.read_text(encoding="utf-8") + "\n"
    site.write_text(text + setting, encoding="utf-8")
    return text.count("\n") + 1


def test_the_project_names_a_registered_engine() -> None:
    assert load_settings(PROJECT_ROOT / "content").math in engine_names()


def test_without_a_math_setting_the_default_engine_is_used(content: Path) -> None:
    assert DEFAULT_ENGINE in engine_names() and load_settings(content).math == DEFAULT_ENGINE


@pytest.mark.parametrize("form", ['math = "{}"\n', '[math]\nengine = "{}"\n'])
def test_both_forms_name_the_engine(content: Path, form: str, monkeypatch: Any) -> None:
    monkeypatch.setitem(ENGINES, "fake", Engine("fake", FakeRenderer, lambda _: ()))
    with_math(content, form.format("fake"))
    assert load_settings(content).math == "fake"


@pytest.mark.parametrize("form", ['math = "{}"\n', '[math]\nengine = "{}"\n'])
def test_a_misspelt_engine_is_an_error_at_its_line_with_the_right_name(content: Path,
                                                                      form: str) -> None:
    name = engine_names()[0]
    at = with_math(content, form.format(name + "x"))
    with pytest.raises(BuildError) as e:
        load_settings(content)
    assert e.value.line == at + form.count("\n") - 1, str(e.value)
    assert f"no math engine '{name}x'" in e.value.message
    assert f"did you mean '{name}'" in e.value.message


@pytest.mark.parametrize("setting, says", [
    ('math = "no such thing at all"\n', "known math engines: " + ", ".join(engine_names())),
    ("math = 3\n", "math must be the math engine's name in quotes"),
    ("[math]\nengine = 3\n", "[math] engine must be the math engine's name"),
    ("[math]\nengin = 'x'\n", "did you mean 'engine'"),
], ids=["far from any", "a number", "engine a number", "misspelt key"])
def test_a_bad_math_setting_is_an_error_at_its_line(content: Path, setting: str,
                                                    says: str) -> None:
    at = with_math(content, setting)
    with pytest.raises(BuildError) as e:
        load_settings(content)
    assert e.value.line == at + setting.count("\n") - 1 and says in e.value.message, \
        str(e.value)


class FakeRenderer:
    """A math engine for the test: each formula as `<span class="fake-math">` holding its TeX,
    each quoted number as an element with data-key and data-format (what the page's script
    looks for), one style sheet of its own."""

    name = "fake"
    label = "Fake"
    STYLE = "assets/fake-math/fake.css"

    def __init__(self, node_modules: Path, cache_dir: Path | None, memory: bool = False):
        self.closed = False

    def key(self) -> str:
        return "fake 1"

    def render(self, formulas: Sequence[Formula],
               macros: Mapping[str, str] | None = None) -> list[Rendered]:
        return [Rendered(html='<span class="fake-math">' + "".join(
            escape(p) if isinstance(p, str) else self._quote(p) for p in f.parts) + "</span>")
            for f in formulas]

    @staticmethod
    def _quote(q: Quote) -> str:
        return (f'<span data-key="{escape(q.key)}" data-format="{escape(q.format)}">'
                f"{escape(q.text)}</span>")

    def assets(self, rendered: Sequence[str]) -> dict[str, Path | bytes]:
        return {self.STYLE: b".fake-math { font-style: italic; }\n"}

    def head(self, root: str) -> str:
        return f'<link rel="stylesheet" href="{root}{self.STYLE}">'

    def hooks(self) -> dict[str, str]:
        return {"formula": ".fake-math", "drawn": ".fake-math", "speech": ".fake-math math"}

    def commands(self) -> list[str]:
        return ["\\sqrt"]

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def fake_engine(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(ENGINES, "fake", Engine("fake", FakeRenderer, lambda _: ()))
    yield


def test_the_build_typesets_with_the_engine_site_toml_names(
        tmp_path: Path, content: Path, site_build: dict[str, Any], fake_engine: None) -> None:
    """Built from the session build's cache and figures (only pages and the site are redone)."""
    from sqrtdk.pipeline import build
    with_math(content, '[math]\nengine = "fake"\n')
    shutil.copytree(site_build["root"] / "cache", tmp_path / "cache")
    shutil.copytree(site_build["root"] / "figures", tmp_path / "figures")
    opts = BuildOptions.for_project(PROJECT_ROOT, content_dir=content, out=tmp_path / "site",
                                    figures_dir=tmp_path / "figures",
                                    cache_dir=tmp_path / "cache")
    build(opts, log=lambda _: None)
    site = tmp_path / "site"
    for lang in site_build["languages"]:
        html = (site / lang / "index.html").read_text(encoding="utf-8")
        elements = Tree(html).elements
        wrappers = [e for e in elements if "math" in e["attrs"].get("class", "").split()]
        fake = [e for e in elements if e["attrs"].get("class") == "fake-math"]
        assert wrappers and len(fake) == len(wrappers), lang
        sheets = [e["attrs"]["href"] for e in elements if e["tag"] == "link"
                  and e["attrs"].get("rel") == "stylesheet"]
        assert any(h.startswith("../assets/fake-math/fake.") for h in sheets), sheets
        hooks = next(e for e in elements if e["attrs"].get("id") == "math-hooks")
        assert '"formula": ".fake-math"' in hooks["text"]
    mentions = [p.relative_to(site).as_posix() for p in sorted(site.rglob("*"))
                if p.is_file() and p.suffix not in (".br", ".gz")
                and re.search(rb"katex", p.read_bytes(), re.I)]
    assert not mentions, f"the default engine is still named in {mentions}"


def test_the_page_gets_every_hook_as_data_and_an_engine_missing_one_is_a_bug() -> None:
    from sqrtdk.web.math import page_head

    class Odd(FakeRenderer):
        def hooks(self) -> dict[str, str]:
            return {"formula": "x</script><script>", "drawn": ".d", "speech": ".s"}

    head = page_head(Odd(PROJECT_ROOT, None), "../")
    data = Tree(head).elements[-1]
    assert data["attrs"] == {"type": "application/json", "id": "math-hooks"}
    assert head.count("</script>") == 1 and '"formula": "x\\u003c/script>' in head

    class Missing(FakeRenderer):
        def hooks(self) -> dict[str, str]:
            return {"formula": ".f", "drawn": ".d"}

    with pytest.raises(RuntimeError, match="speech"):
        page_head(Missing(PROJECT_ROOT, None), "../")


def test_a_write_to_a_worker_the_build_closed_ends_quietly() -> None:
    """Ctrl+C stops the build, which closes the KaTeX worker's stdin while the writer thread
    may still be sending: the write ends without a traceback (the build's one line says it
    was interrupted); a worker that stopped by itself still ends it quietly too."""
    import subprocess
    import sys

    from sqrtdk.web.math.katex import KatexRenderer
    proc = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"],
                            stdin=subprocess.PIPE, text=True, encoding="utf-8")
    try:
        assert proc.stdin is not None
        proc.stdin.close()
        KatexRenderer._write(proc, '{"tex": "x"}\n')     # raised ValueError before
    finally:
        proc.wait(timeout=10)


def test_an_engine_s_error_is_told_in_its_own_name(tmp_path: Path) -> None:
    """A TeX error reaches the author labelled with the engine that gave it (its `label`),
    never with another engine's name: the build's messages around it are the engine's."""
    from helpers import page

    from sqrtdk.web.assemble import typeset

    class Refusing(FakeRenderer):
        label = "FakeTeX"

        def render(self, formulas: Sequence[Formula],
                   macros: Mapping[str, str] | None = None) -> list[Rendered]:
            return [Rendered(error="refused", error_at=-1, reason="no such thing")
                    for _ in formulas]

    built = page(tmp_path, "A formula $x+y$ here.\n", {})
    with pytest.raises(BuildError) as e:
        typeset([built], Refusing(PROJECT_ROOT, None))
    assert "FakeTeX: no such thing" in e.value.message, e.value.message
    assert "katex" not in e.value.message.lower(), e.value.message
