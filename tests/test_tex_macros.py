"""TeX macros (issue 17, item 7): the site's [math.macros] table, and a definition in one
formula holding for the later formulas of the same article, in document order; never for
another language's article or another build; the HTML does not depend on the order pages
are typeset or on what the cache holds; a second meaning stops at its line."""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from helpers import BODY_START, page, site_renderer

from sqrtdk.errors import BuildError
from sqrtdk.options import PROJECT_ROOT
from sqrtdk.settings import load_settings
from sqrtdk.web.assemble import typeset

RESULTS: dict[str, Any] = {"spread": {"sd_small": 2.0104}, "claims": {}, "meta": {"bounds": {}}}
# as a textbook chapter writes them: a definition in the first display formula, uses later
CHAPTER = ("Write vectors in bold:\n\n$$\n\\gdef\\vx{\\mathbf{x}}\n"
           "\\newcommand{\\norm}[1]{\\left\\lVert #1 \\right\\rVert}\n\\vx \\cdot \\vx / \\sdk\n$$\n\n"
           "so that $\\norm{\\vx} = 1$ and $\\vx^\\top \\vx = 1$.\n")


@pytest.fixture(scope="module")
def katex() -> Any:
    renderer = site_renderer()   # the engine the build uses, from the registry
    yield renderer
    renderer.close()


def folder(tmp_path: Path, name: str) -> Path:
    (tmp_path / name).mkdir()
    return tmp_path / name


def test_a_definition_holds_for_the_later_formulas_and_site_macros_for_all(
        tmp_path: Path, katex: Any) -> None:
    built = page(tmp_path, CHAPTER, RESULTS)
    html = typeset([built], katex, {"\\sdk": "\\sqrt{d_k}"})["en"]
    assert len(html) == 3 and all("katex-error" not in h for h in html)
    assert "mathbf" in html[2] and "\u2225" in html[1]       # bold x; the norm's ‖ bars
    with pytest.raises(BuildError) as e:                       # without the site's \R
        typeset([built], katex, {})
    assert e.value.line == BODY_START + 5 and "\\sdk" in e.value.message   # its own line


def test_definitions_never_cross_articles_and_the_order_of_pages_does_not_matter(
        tmp_path: Path, katex: Any) -> None:
    zh = page(folder(tmp_path, "zh"), CHAPTER, RESULTS, lang="zh")
    en = page(folder(tmp_path, "en"), "Then $\\vx^\\top \\vx$ is used undefined.\n", RESULTS)
    with pytest.raises(BuildError) as e:
        typeset([zh, en], katex, {"\\sdk": "\\sqrt{d_k}"})
    assert e.value.path == en.source and "Undefined control sequence: \\vx" in e.value.message
    en_ok = page(folder(tmp_path, "en2"), CHAPTER.replace("bold", "heavy"), RESULTS)
    one = typeset([zh, en_ok], katex, {"\\sdk": "\\sqrt{d_k}"})
    other = typeset([en_ok, zh], katex, {"\\sdk": "\\sqrt{d_k}"})
    assert one == other


def test_the_cache_keys_a_formula_on_the_definitions_before_it(tmp_path: Path) -> None:
    """The same `$\\vx$` after two different definitions (cached from the first article) gives
    two different formulas; a rebuild from the cache gives the same HTML as a fresh one."""
    cache = tmp_path / "cache"
    renderer = site_renderer(cache)
    try:
        bold = page(folder(tmp_path, "a"), "$\\gdef\\vx{\\mathbf{x}}$ and $\\vx$.\n", RESULTS)
        vec = page(folder(tmp_path, "b"), "$\\gdef\\vx{\\vec{x}}$ and $\\vx$.\n", RESULTS)
        first = typeset([bold], renderer)["en"][1]
        second = typeset([vec], renderer)["en"][1]
        assert first != second and "mathbf" in first and "mathbf" not in second
    finally:
        renderer.close()
    again = site_renderer(cache)
    try:
        assert typeset([vec], again)["en"][1] == second
    finally:
        again.close()


@pytest.mark.parametrize("body, says", [
    ("$$\n\\gdef\\vx{\\mathbf{x}}\n$$\n\nText.\n\n$\\gdef\\vx{\\vec{x}} \\vx$\n",
     "defined again here with another meaning (first at line 5)"),
    ("$\\newcommand{\\E}{\\mathbb{E}} \\E[x]$\n\nText.\n\n$\\newcommand{\\E}{\\mathbb{E}} \\E[y]$\n",
     "already defined at line 5"),
    ("Text.\n\n$\\gdef\\sdk{d_k}$\n", "in [math.macros] of content/site.toml"),
], ids=["gdef with another meaning", "newcommand twice", "a site macro redefined"])
def test_a_second_meaning_stops_at_its_line(tmp_path: Path, katex: Any, body: str,
                                            says: str) -> None:
    built = page(tmp_path, body, RESULTS)
    with pytest.raises(BuildError) as e:
        typeset([built], katex, {"\\sdk": "\\sqrt{d_k}"})
    last = body.rstrip("\n").count("\n")
    assert e.value.line == BODY_START + last and says in e.value.message, str(e.value)


@pytest.mark.parametrize("name", ["\\R", "\\N", "\\Z", "\\bold"])
def test_redefining_a_command_katex_has_says_so_not_the_site_table(
        tmp_path: Path, katex: Any, name: str) -> None:
    """Scribe notes open with `\\newcommand{\\R}{\\mathbb{R}}`; KaTeX has \\R already. The
    message said it was defined in site.toml's [math.macros], which had no such table."""
    built = page(tmp_path, f"Text.\n\n$\\newcommand{{{name}}}{{\\mathbb{{R}}}} {name}^n$\n", RESULTS)
    with pytest.raises(BuildError) as e:
        typeset([built], katex, {})
    message = e.value.message
    assert e.value.line == BODY_START + 2 and "site.toml" not in message, message
    assert f"{name} is one of KaTeX's own commands" in message and "\\renewcommand" in message


def test_a_redefinition_in_a_display_formula_names_its_own_line(tmp_path: Path,
                                                               katex: Any) -> None:
    """Scribe notes define their macros in one display formula, a definition a line; a
    \\newcommand of a command KaTeX has was named at the formula's '$$' line, not its own."""
    body = ("Text.\n\n$$\n\\newcommand{\\E}{\\mathbb{E}}\n\\newcommand{\\R}{\\mathbb{R}}\n"
            "\\newcommand{\\Var}{\\operatorname{Var}}\n$$\n")
    built = page(tmp_path, body, RESULTS)
    with pytest.raises(BuildError) as e:
        typeset([built], katex, {})
    assert e.value.line == BODY_START + 4 and "\\R is one of KaTeX's own" in e.value.message, \
        (e.value.line, e.value.message)


def test_the_same_definition_again_is_not_a_conflict(tmp_path: Path, katex: Any) -> None:
    built = page(tmp_path, "$\\gdef\\vx{\\mathbf{x}}\\vx$\n\n$\\gdef\\vx{ \\mathbf{x} }\\vx$\n",
                 RESULTS)
    assert len(typeset([built], katex)["en"]) == 2


@pytest.mark.parametrize("definition", ["\\gdef\\vx{\\mathbf{x}}",
                                        "\\providecommand{\\vx}{\\mathbf{x}}",
                                        "\\renewcommand{\\vx}{\\mathbf{x}}"])
def test_a_macro_used_before_its_definition_says_where_the_definition_is(
        tmp_path: Path, katex: Any, definition: str) -> None:
    built = page(tmp_path, f"First $\\vx$ here.\n\nThen ${definition}\\vx$.\n", RESULTS)
    with pytest.raises(BuildError) as e:
        typeset([built], katex)
    assert e.value.line == BODY_START and f"defined later, at line {BODY_START + 2}" in \
        e.value.message


@pytest.fixture
def content(tmp_path: Path) -> Path:
    dest = tmp_path / "content"
    shutil.copytree(PROJECT_ROOT / "content", dest)
    return dest


def test_site_macros_are_read_from_site_toml(content: Path) -> None:
    site = content / "site.toml"
    site.write_text(site.read_text(encoding="utf-8") + "\n[math.macros]\n'\\R' = '\\mathbb{R}'\n"
                    "'\\norm' = '\\left\\lVert #1 \\right\\rVert'\n", encoding="utf-8")
    assert load_settings(content).macros == {"\\R": "\\mathbb{R}",
                                             "\\norm": "\\left\\lVert #1 \\right\\rVert"}


@pytest.mark.parametrize("table, says, at", [
    ("[math.macros]\n'R' = '\\mathbb{R}'\n", "not a TeX macro name", 2),
    ("[math.macros]\n'\\R' = 1\n", "must be TeX", 2),
    ("[math.macro]\n'\\R' = '\\mathbb{R}'\n", "did you mean 'macros'", 1),   # its header
], ids=["name without backslash", "not a string", "misspelt table"])
def test_a_bad_macro_table_is_an_error_at_its_line(content: Path, table: str, says: str,
                                                   at: int) -> None:
    site = content / "site.toml"
    text = site.read_text(encoding="utf-8") + "\n"
    site.write_text(text + table, encoding="utf-8")
    with pytest.raises(BuildError) as e:
        load_settings(content)
    assert e.value.line == text.count("\n") + at and says in e.value.message, str(e.value)


def test_an_invalid_site_macro_is_named_at_the_formula_that_uses_it(tmp_path: Path,
                                                                    katex: Any) -> None:
    built = page(tmp_path, "Text.\n\nThe ruler $\\sdk$ here.\n", RESULTS)
    with pytest.raises(BuildError) as e:
        typeset([built], katex, {"\\sdk": "\\sqrt{d_k"})
    assert e.value.line == BODY_START + 2 and "\\sdk from [math.macros]" in e.value.message


@pytest.mark.parametrize("definition", ["\\global\\def\\vy{\\mathbf{y}}", "\\def\\vy{\\mathbf{y}}",
                                        "\\gdef\\vy{\\mathbf{y}}",
                                        "\\newcommand{\\vy}{\\mathbf{y}}",
                                        "\\providecommand{\\vy}{\\mathbf{y}}",
                                        "\\newcommand\\vy{\\mathbf{y}}"])
def test_every_form_of_definition_holds_for_later_formulas(tmp_path: Path, katex: Any,
                                                           definition: str) -> None:
    built = page(tmp_path, f"Let ${definition} \\vy$ be a key.\n\nThen $\\vy^\\top q$ is a score.\n",
                 RESULTS)
    first, second = typeset([built], katex)["en"]
    assert 'class="mord mathbf"' in first and 'class="mord mathbf"' in second    # a bold y


@pytest.mark.parametrize("tex, hint", [
    ("\\require{cancel} \\cancel{d_k}", "remove \\require{"),
    ("\\bbox[yellow]{x}", "\\boxed{"),
    ("\\vxx + 1", "define it, in a formula"),
    ("\\mathbbm{1}[j = y]", "\\mathbf{1}"),
    ("\\mathds{1}_{x>0}", "\\mathbf{1}"),
    ("\\norm{q}_2", "\\lVert q \\rVert"),
    ("\\abs{s}", "\\lvert s \\rvert"),
    ("\\DeclareMathOperator*{\\argmax}{arg\\,max} \\argmax_i s_i",
     "\\newcommand{\\argmax}{\\operatorname*{arg\\,max}}"),
    ("\\DeclareMathOperator{\\Var}{Var} \\Var(x)", "\\newcommand{\\Var}{\\operatorname{Var}}"),
    ("\\DeclareMathOperator\\Tr{tr} \\Tr A", "\\newcommand{\\Tr}{\\operatorname{tr}}"),
    ("a \\unicode{x2248} b", "the character itself, '\u2248'"),
    ("a \\unicode{8776} b", "the character itself, '\u2248'"),
    ("\\enclose{circle}{x}", "\\boxed{"),
    ("\\ce{H2O}", "\\mathrm{H_2O}"),
    ("\\begin{aligned} a &= b \\\\ \\intertext{so} c &= d \\end{aligned}",
     "write the words as a paragraph between two formulas"),
    ("x = 1 \\qedhere", "\\blacksquare"),
    ("\\hfill y", "\\qquad"),
    ("z \\numberthis", "\\tag{1}"),
    ("\\textsc{Softmax}(s)", "no small capitals"),
    # the physics package's, as physics course notes write them (KaTeX's nearest names,
    # '\\pod or \\div', were offered: \\div is a division sign)
    ("\\pdv{\\psi}{t} = 0", "physics package's (physics course notes use it), which KaTeX "
     "does not have: write \\frac{\\partial f}{\\partial x}"),
    ("\\vb{F} = m \\vb{a}", "\\newcommand{\\vb}[1]{\\mathbf{#1}}"),
], ids=["require", "bbox", "unknown", "mathbbm", "mathds", "norm", "abs", "DeclareMathOperator*",
        "DeclareMathOperator", "DeclareMathOperator no braces", "unicode hex", "unicode decimal",
        "enclose", "mhchem", "intertext", "qedhere", "hfill", "numberthis", "textsc", "pdv",
        "vb"])
def test_an_unknown_command_says_what_to_write(tmp_path: Path, katex: Any, tex: str,
                                                hint: str) -> None:
    """A command KaTeX does not know (MathJax's, as in a blog post written for it, or any
    other) stops at its line with what to write instead, not KaTeX's message alone."""
    built = page(tmp_path, f"Intro.\n\n$${tex}$$\n", RESULTS)
    with pytest.raises(BuildError) as e:
        typeset([built], katex, {})
    assert e.value.line == BODY_START + 2 and hint in e.value.message, str(e.value)


def test_a_site_macro_no_formula_uses_that_cannot_be_typeset_warns_at_its_line(
        tmp_path: Path, content: Path, katex: Any, caplog: pytest.LogCaptureFixture) -> None:
    """'\\broken' = '\\frac{' in [math.macros] passed every build in silence until a formula
    used it, and then failed at that formula, far from the line at fault. A macro no
    formula uses is tried (with {x} for each argument): a warning at its own line if the
    engine refuses it; one that works, or a formula that uses it, says nothing here."""
    import logging

    from sqrtdk.web.assemble import check_unused_macros
    site = content / "site.toml"
    before = site.read_text(encoding="utf-8") + "\n[math.macros]\n"
    site.write_text(before + "'\\broken' = '\\frac{'\n'\\fine' = '\\mathbb{#1}'\n"
                    "'\\usedbad' = '\\frac{'\n", encoding="utf-8")
    settings = load_settings(content)
    built = page(tmp_path, "A formula $\\usedbad$ here.\n", RESULTS)
    with caplog.at_level(logging.WARNING):
        check_unused_macros([built], katex, settings)
    said = [r.getMessage() for r in caplog.records]
    line = before.count("\n") + 1
    assert len(said) == 1, said
    assert f"site.toml:{line}: warning: [math.macros] \\broken cannot be typeset" in said[0], said


def test_a_site_macro_named_as_a_katex_command_warns_unless_in_math_renew(
        content: Path, katex: Any, caplog: pytest.LogCaptureFixture) -> None:
    """'\\sqrt' = '\\surd' in [math.macros] gave every √ of the site a new meaning without a
    word (an article's \\newcommand of a KaTeX command is refused, the site table's was
    not). It is a warning at its line now; [math.renew] holds a deliberate one, and a name
    there that KaTeX lacks is told to move to [math.macros]; a name in both is an error."""
    import logging

    from sqrtdk.web.assemble import check_renewed_macros
    site = content / "site.toml"
    before = site.read_text(encoding="utf-8")
    site.write_text(before + "\n[math.macros]\n'\\sqrt' = '\\surd'\n'\\vq' = '\\mathbf{q}'\n"
                    "'\\R' = '\\mathbb{R}'\n"
                    "\n[math.renew]\n'\\epsilon' = '\\varepsilon'\n'\\myown' = 'x'\n",
                    encoding="utf-8")
    settings = load_settings(content)
    assert settings.renewed == {"\\epsilon", "\\myown"} and settings.macros["\\epsilon"]
    with caplog.at_level(logging.WARNING):
        check_renewed_macros(katex, settings)
    said = sorted(r.getMessage() for r in caplog.records)
    start = before.count("\n") + 1
    assert len(said) == 3, said
    assert f"site.toml:{start + 2}: warning: [math.macros] \\sqrt gives the math engine's " \
        "own \\sqrt" in said[0] and "move it to [math.renew]" in said[0], said
    assert f"site.toml:{start + 4}: warning: [math.macros] \\R is a command the math " \
        "engine has itself, with the same meaning: remove the line" in said[1], said
    assert f"site.toml:{start + 8}: warning: [math.renew] \\myown: the math engine has no " \
        "command" in said[2] and "move it to [math.macros]" in said[2], said

    site.write_text(before + "\n[math.macros]\n'\\R' = '\\mathbb{R}'\n\n[math.renew]\n"
                    "'\\R' = '\\mathbb{R}'\n", encoding="utf-8")
    with pytest.raises(BuildError) as e:
        load_settings(content)
    assert e.value.line == start + 5 and "in [math.macros] and in [math.renew]" in e.value.message
