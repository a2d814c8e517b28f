"""KaTeX's own screenshot suite, written into articles the way an author would (issue 9).

Every case of ../shared/corpus/katex-screenshotter.json (read as it is) goes into an article
in each context an author uses: a paragraph (English and Chinese), a nested list item at its
natural indentation, a table cell, a footnote, a `///` details box, a figure caption and a
heading. One-line cases that are not display cases are written inline (`$…$`), the others
as a `$$` block (contexts that hold one line only take the one-line cases). Then:
- the TeX reaches KaTeX byte for byte, in the context it was written in;
- it renders to the same HTML as KaTeX called directly (node, same options);
- the cases KaTeX rejects, and commands that need `trust`, stop the build with the file and
  the formula's own line.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from helpers import BODY_START, math_contexts, page, site_renderer

from sqrtdk.errors import BuildError
from sqrtdk.options import PROJECT_ROOT
from sqrtdk.web.assemble import typeset
from sqrtdk.web.math.katex import ANNOTATION, HIDDEN_ANNOTATION

CORPUS = PROJECT_ROOT.parent / "shared" / "corpus" / "katex-screenshotter.json"
CASES: list[dict[str, Any]] = json.loads(CORPUS.read_text(encoding="utf-8")) if CORPUS.is_file() else []
NODE_MODULES = PROJECT_ROOT / "node_modules"
CONTEXTS = ("paragraph-en", "paragraph-zh", "list", "table", "footnote", "box", "caption",
            "heading")
ONE_LINE_ONLY = {"table", "caption", "heading"}   # a cell, a title attribute, a heading line

if not CASES and os.environ.get("CI"):
    raise RuntimeError(f"CI must run the corpus tests, but {CORPUS} is missing")
pytestmark = pytest.mark.skipif(not CASES, reason="the shared corpus is not beside the project")


def inline(case: dict[str, Any]) -> bool:
    return "\n" not in case["tex"] and not case["display"]


def indent(text: str, n: int) -> str:
    return "\n".join(" " * n + line if line else line for line in text.split("\n"))


def snippet(context: str, case: dict[str, Any], i: int) -> str:
    """Markdown holding case `i` in `context` (None-free: callers filter one-line contexts)."""
    tex, one = case["tex"], inline(case)
    block = f"$$\n{tex}\n$$"
    if context.startswith("paragraph"):
        return f"Case {i}: ${tex}$ ends here.\n\n" if one else f"Case {i}:\n\n{block}\n\n"
    if context == "list":
        if one:
            return f"- outer {i}\n    - inner: ${tex}$ ends\n\n"
        return f"- outer {i}\n\n    - inner\n\n{indent(block, 8)}\n\n"
    if context == "table":
        return f"| {i} | ${tex}$ |\n"
    if context == "footnote":
        body = f"[^n{i}]: The note ${tex}$ ends." if one else \
            f"[^n{i}]: The note's first paragraph.\n\n{indent(block, 4)}"
        return f"Text {i}[^n{i}].\n\n{body}\n\n"
    if context == "box":
        inner = f"Box text ${tex}$ ends." if one else block
        return f"/// details | Box {i}\n    attrs: {{id: box-{i}}}\n\n{inner}\n///\n\n"
    if context == "caption":
        return f"![Figure {i}](fig{i}.svg \"Caption ${tex}$ ends.\")\n\n"
    if context == "heading":
        return f"## Heading {i} ${tex}$ {{#h-{i}}}\n\nText.\n\n"
    raise ValueError(context)


def cases_for(context: str) -> list[tuple[int, dict[str, Any]]]:
    return [(i, c) for i, c in enumerate(CASES) if context not in ONE_LINE_ONLY or inline(c)]


def article(context: str, chosen: list[tuple[int, dict[str, Any]]]) -> str:
    head = "| case | formula |\n|---|---|\n" if context == "table" else ""
    return head + "".join(snippet(context, c, i) for i, c in chosen)


EXPECTED_TAGS = {"paragraph-en": {"p", "div"}, "paragraph-zh": {"p", "div"}, "list": {"li"},
                 "table": {"td"}, "footnote": {"li"}, "box": {"details"}, "caption": {"figcaption"},
                 "heading": {"h2"}}


@pytest.fixture(scope="module")
def rejected() -> set[int]:
    """Cases KaTeX refuses (undefined macros, …) and cases that use a command needing
    KaTeX's `trust` option: found by asking KaTeX directly, not by a list of names."""
    answers = direct_katex([(c["tex"], c["display"] or "\n" in c["tex"]) for c in CASES])
    return {i for i, a in enumerate(answers) if "error" in a or a.get("trust")}


def direct_katex(items: list[tuple[str, bool]]) -> list[dict[str, Any]]:
    """katex.renderToString called directly (no worker, no build), one answer per item:
    its HTML or error, and whether the formula asked for `trust`."""
    node = shutil.which("node")
    assert node is not None, "node is needed to typeset formulas"
    script = (
        "const katex = require(process.argv[1]);"
        "const items = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "const out = items.map(([tex, display]) => { let asked = false; try { "
        "const html = katex.renderToString(tex, {displayMode: display, throwOnError: true, "
        "output: 'htmlAndMathml', strict: 'ignore', trust: () => { asked = true; return false; }});"
        " return {html, trust: asked}; } catch (e) { return {error: String(e.message)}; } });"
        "process.stdout.write(JSON.stringify(out));")
    proc = subprocess.run([node, "-e", script, str(NODE_MODULES / "katex")],
                          input=json.dumps(items), capture_output=True, encoding="utf-8", check=True)
    answers: list[dict[str, Any]] = json.loads(proc.stdout)
    return answers


@pytest.fixture(scope="module")
def katex() -> Any:
    renderer = site_renderer()   # the engine the build uses, from the registry
    yield renderer
    renderer.close()


@pytest.mark.parametrize("context", CONTEXTS)
def test_every_accepted_case_reaches_katex_as_written_and_renders_as_katex_does(
        tmp_path: Path, results: dict[str, Any], katex: Any, rejected: set[int],
        context: str) -> None:
    chosen = [(i, c) for i, c in cases_for(context) if i not in rejected]
    lang = "zh" if context.endswith("-zh") else "en"
    built = page(tmp_path, article(context, chosen), results, lang=lang,
                 figures=[f"fig{i}" for i, _ in chosen])
    assert [(f.plain, f.display) for f in built.formulas] == \
        [(c["tex"], not inline(c)) for _, c in chosen]
    contexts = math_contexts(built.body)
    for k, (i, case) in enumerate(chosen):
        tags = contexts[k]
        assert EXPECTED_TAGS[context] & set(tags), (case["name"], context, tags)
        if context == "list":
            assert tags.count("li") >= 2, (case["name"], tags)   # the inner item
    if katex.name != "katex":
        pytest.skip(f"the build's math engine is {katex.name!r}, not KaTeX, which this "
                    "compares with")
    mine = katex.render(built.formulas)
    theirs = direct_katex([(c["tex"], not inline(c)) for _, c in chosen])
    for (i, case), m, t in zip(chosen, mine, theirs):
        # (our one change: the TeX annotation hidden from screen readers, katex.py)
        assert m.error == "" and m.html.replace(HIDDEN_ANNOTATION, ANNOTATION) == t["html"], \
            (case["name"], context)
        assert m.html.count(HIDDEN_ANNOTATION) == t["html"].count(ANNOTATION), case["name"]


@pytest.mark.parametrize("context", CONTEXTS)
def test_rejected_cases_stop_the_build_at_the_formula_line(
        tmp_path: Path, results: dict[str, Any], katex: Any, rejected: set[int],
        context: str) -> None:
    chosen = [(i, c) for i, c in cases_for(context) if i in rejected]
    assert chosen or context in ONE_LINE_ONLY
    for i, case in chosen:
        lead = "Some text first.\n\nAnother paragraph\nover two lines.\n\n"
        head = "| case | formula |\n|---|---|\n" if context == "table" else ""
        text = lead + head + snippet(context, case, i)
        built = page(tmp_path, text, results, lang="zh" if context.endswith("zh") else "en",
                     figures=[f"fig{i}"])
        with pytest.raises(BuildError) as err:
            typeset([built], katex)
        opener = "$$" if not inline(case) else "$"
        first = next(n for n, line in enumerate(text.split("\n")) if opener in line)
        assert err.value.line == BODY_START + first, (case["name"], context, str(err.value))
        assert str(err.value).startswith(f"{err.value.path.as_posix()}:{err.value.line}: ")


def test_a_formula_without_quotes_is_exactly_what_jinja_would_make_of_it() -> None:
    """render_formula skips Jinja for TeX without `{{ `; on every corpus formula (as written,
    and with Windows line ends, which Jinja normalises) the result is Jinja's own."""
    from sqrtdk.web.lexer import RawFormula
    from sqrtdk.web.quoting import Quoter
    quoter = Quoter(Path("corpus.md"), {}, {})
    for case in CASES:
        for tex in (case["tex"], case["tex"].replace("\n", "\r\n"), case["tex"] + "\n"):
            ours = quoter.render_formula(RawFormula(0, tex, case["display"], 1)).plain
            assert ours == quoter.math.from_string(tex).render({}), case["name"]
