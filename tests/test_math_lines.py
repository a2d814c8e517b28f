"""Display formulas broken into lines for a phone (sqrtdk/web/math/lines.py): cuts only at
top-level relations and wide spaces, never inside braces, \\left…\\right or environments; the
author's own layout is left alone; quoted numbers travel as Quotes. A formula the author broke
into lines with \\\\ is drawn as those lines, without a warning, and is as wide as its widest
line."""
from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from helpers import BODY_START, page, site_renderer

from sqrtdk.web.assemble import typeset
from sqrtdk.web.math.lines import pieces, runs
from sqrtdk.web.quoting import Formula, Quote


def formula(*parts: str | Quote) -> Formula:
    text = "".join(p if isinstance(p, str) else p.text for p in parts)
    return Formula(tuple(parts), True, 1, text, 1)


def by_length(fs):               # a stand-in for KaTeX's widths: a quarter em per character
    return [len(f.plain) / 4 for f in fs]


def test_cuts_before_relations_and_at_wide_spaces_only_at_the_top_level():
    f = formula(r"\frac{a=b}{c}=\left(x=y\right)\le 2,\qquad z\Rightarrow w")
    assert [(kind, "".join(map(str, p)).strip()) for kind, p in pieces(f)] == [
        ("start", r"\frac{a=b}{c}"), ("rel", r"=\left(x=y\right)"), ("rel", r"\le 2,"),
        ("new", "z"), ("rel", r"\Rightarrow w")]


def test_a_formula_the_author_laid_out_or_numbered_is_left_as_written():
    for tex in (r"a=b\\c=d", r"\begin{aligned}a&=b\end{aligned}", r"a=b \tag{1}"):
        assert len(pieces(formula(tex))) == 1
        assert runs(formula(tex), by_length, 0.0) is None


def test_a_quoted_number_stays_a_quote_in_the_pieces():
    q = Quote("spread.sd_large", "fixed:2", "22.77")
    cut = runs(formula(r"\operatorname{SD}=", q, r"\qquad d=512"), by_length, 0.0)
    assert cut is not None and [f.quotes for f, _ in cut] == [[], [q], [], []]
    assert [(f.plain, sep) for f, sep in cut] == [(r"\operatorname{SD}", ""), ("{}=22.77", ""),
                                                  (" d", r"\qquad"), ("{}=512", "")]


# four statements, each narrower than a phone's column (assemble: 1.2 x 328 px), together
# four times as wide; the author put each on a line of its own
LINES = [r"q_1 = X_1 W^Q, k_1 = X_1 W^K, v_1 = X_1 W^V",
         r"s_{12} = \frac{q_1 \cdot k_2}{\sqrt{d_k}}, s_{11} = \frac{q_1 \cdot k_1}{\sqrt{d_k}}",
         r"p_{11} = \frac{e^{s_{11}}}{e^{s_{11}} + e^{s_{12}}}",
         r"z_1 = v_1 \times p_{11} + v_2 \times p_{12}"]


@pytest.fixture(scope="module")
def katex() -> Any:
    renderer = site_renderer()
    yield renderer
    renderer.close()


def test_a_formula_broken_by_the_author_is_drawn_in_lines_without_a_warning(
        tmp_path: Path, katex: Any, caplog: pytest.LogCaptureFixture) -> None:
    """KaTeX draws a top-level \\\\ of a display formula as the line break the author meant
    (LaTeX would ignore it; KaTeX's strict rule said so, with no advice, in a warning that
    --strict made an error); the width that decides the phone layout is the widest line's,
    not the lines' sum (which gave a false 'about 1300 px wide')."""
    body = "Steps:\n\n$$\n" + " \\\\\n".join(LINES) + "\n$$\n"
    built = page(tmp_path, body, {"claims": {}, "meta": {"bounds": {}}})
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        html = typeset([built], katex)["en"]
    assert [r.getMessage() for r in caplog.records] == []
    assert html[0].count("katex-newline") == len(LINES) - 1
    whole = katex.render(built.formulas)[0].width_em
    alone = [r.width_em for r in katex.render([formula(t) for t in LINES])]
    assert whole == pytest.approx(max(alone), abs=0.05), (whole, alone)


def test_a_formula_with_one_line_too_wide_warns_of_that_line(
        tmp_path: Path, katex: Any, caplog: pytest.LogCaptureFixture) -> None:
    """The warning says the widest line is too wide (it said 'even broken at its relations',
    which the build does not do to a formula the author laid out)."""
    wide = ", ".join(LINES[:3])
    body = "Steps:\n\n$$\n" + LINES[3] + " \\\\\n" + wide + "\n$$\n"
    built = page(tmp_path, body, {"claims": {}, "meta": {"bounds": {}}})
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        typeset([built], katex)
    got = [r.getMessage() for r in caplog.records]
    assert len(got) == 1 and "wide, more than a phone's" in got[0], got
    assert "in its widest line" in got[0] and "relations" not in got[0], got
    assert "newLineInDisplayMode" not in got[0]


@pytest.mark.parametrize("tex, code", [
    (r"x_{\textcircled{1}} = 1", "mathVsTextAccents"),      # a real textbook's (pumpkin-book)
    ("x_{\u6837\u672c} = 1", "unicodeTextInMathMode"),     # Chinese words in math
], ids=["text accent", "words"])
def test_a_katex_warning_says_what_to_write(tmp_path: Path, katex: Any,
                                            caplog: pytest.LogCaptureFixture, tex: str,
                                            code: str) -> None:
    """KaTeX's strict-mode warnings came with their code and LaTeX's complaint only
    ('LaTeX's accent \\textcircled works only in text mode', 64 times in a real chapter):
    each now says what to write, at the formula's line."""
    built = page(tmp_path, f"Intro.\n\nThe term ${tex}$ here.\n", {"claims": {},
                                                                   "meta": {"bounds": {}}})
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        typeset([built], katex)
    got = [r.getMessage() for r in caplog.records if code in r.getMessage()]
    line = f"index.md:{BODY_START + 2}: warning:"
    assert got and all("\\text{" in m and line in m for m in got), got


def test_every_katex_warning_code_has_advice() -> None:
    """Each strict-mode code the pinned KaTeX can report (its katex.js) has advice in
    ADVICE, except the two the worker leaves out (htmlExtension: our \\htmlData;
    newLineInDisplayMode: the author's line breaks): a KaTeX upgrade adding a code fails
    here until the code is given its advice."""
    import re as regex

    from sqrtdk.options import PROJECT_ROOT
    from sqrtdk.web.math.katex import ADVICE
    source = (PROJECT_ROOT / "node_modules" / "katex" / "dist" / "katex.js").read_text(
        encoding="utf-8")
    codes = set(regex.findall(r'errorCode: "(\w+)"', source))
    assert codes, "no errorCode found in katex.js: the test's pattern is out of date"
    assert codes - {"htmlExtension", "newLineInDisplayMode"} == set(ADVICE), codes


def test_a_wide_space_cuts_only_after_a_statement():
    """A real note wrote `\\ Max \\quad L(w,b,a) = +\\infty \\quad <reason in Chinese>`; a
    phone showed a bare 'Max', then 'L(w,b,a)=+inf' as a claim of its own. A \\quad or
    \\qquad cuts only where the text before it holds a relation and does not end with an
    operator: a word, an operator or a term stays with what follows."""
    reason = "\u56e0\u4e3aa_{i}\u53ef\u4ee5\u53d6\u5230\u65e0\u7a77"
    f = formula(r"\ Max \quad L(w,b,a) = +\infty \quad " + reason)
    assert [(kind, "".join(map(str, p)).strip()) for kind, p in pieces(f)] == [
        ("start", r"\ Max \quad L(w,b,a)"), ("rel", r"= +\infty"), ("new", reason)]
    for tex in (r"\max_x \qquad f(x) = x^2", r"\sum_i \quad a_i = 1", r"y = a + \qquad b = c",
                r"x = \quad \lim_n a_n"):
        assert all(kind != "new" for kind, _ in pieces(formula(tex))), tex
    cut = runs(f, by_length, 0.0)
    assert cut is not None and cut[0][0].plain == r"\ Max \quad L(w,b,a) "


def test_words_in_math_are_one_warning_per_formula(tmp_path: Path, katex: Any,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    """KaTeX warns once per character: a real note's formula with a Chinese clause gave one
    'unicodeTextInMathMode' line per character (68 of 118 lines of a --strict run). Now one
    warning per formula and code names the characters as the runs they form."""
    clause, word = "\u867d\u7136\u4e0d\u662f\u7b49\u4ef7\u95ee\u9898", "\u6837\u672c"
    body = f"Intro.\n\n$$\nL = 1 \\quad {clause} \\quad x_{{{word}}}\n$$\n"
    built = page(tmp_path, body, {"claims": {}, "meta": {"bounds": {}}})
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        typeset([built], katex)
    got = [r.getMessage() for r in caplog.records if "unicodeTextInMathMode" in r.getMessage()]
    assert len(got) == 1, got
    assert f'"{clause}", "{word}"' in got[0] and "\\text{" in got[0], got


def test_a_run_of_letters_counts_every_letter_of_it(katex: Any) -> None:
    """KaTeX joins a run of characters of one font into one symbol and keeps the first one's
    width: a Chinese clause in math (a real note's '因为…可以取到无穷') was estimated at one
    character, \\operatorname{softmax} at its 's', so formulas wider than a phone were not
    warned. The run is now as wide as its characters set one by one (CJK exactly, Latin
    letters within a fifth: the estimate counts half an em for each after the first)."""
    def em(tex: str) -> float:
        return float(katex.render([formula(tex)])[0].width_em)
    words = "\u56e0\u4e3a\u53ef\u4ee5\u53d6\u5230\u65e0\u7a77"
    assert em(f"\\text{{{words}}}") == pytest.approx(
        sum(em(f"\\text{{{c}}}") for c in words), rel=0.02)
    letters = sum(em(f"\\operatorname{{{c}}}") for c in "softmax")
    assert em("\\operatorname{softmax}") == pytest.approx(letters, rel=0.2)


def test_a_formula_s_scrolling_box_is_a_group_named_by_the_formula(
        tmp_path: Path, katex: Any) -> None:
    """A formula too wide for a phone gets a box that scrolls and is a tab stop; a stop needs
    a name (WCAG 4.1.2), which the box lacked (a generic element named ""): it is a group
    named in the page's language (strings.toml `formula_box`), as the figures' tables and the
    reproduce boxes are named groups. Display and inline, the wide one and its phone lines."""
    from helpers import Tree
    wide = ", ".join(LINES[:3])
    body = f"Steps:\n\n$$\n{wide}\n$$\n\nInline ${wide}$ too.\n"
    built = page(tmp_path, body, {"claims": {}, "meta": {"bounds": {}}})
    html = "".join(typeset([built], katex, box_names={"en": "A box"})["en"])
    boxes = [e for e in Tree(html).elements if "math-scroll" in e["attrs"].get("class", "")]
    assert {e["tag"] for e in boxes} == {"div", "span"}, boxes
    for box in boxes:
        assert box["attrs"].get("tabindex") == "0" and box["attrs"].get("role") == "group"
        assert box["attrs"].get("aria-label") == "A box", box["attrs"]


@pytest.mark.parametrize("tex, drawn", [
    (r"\mathbb{1}[j = y]", "1"),           # the indicator function, as ML posts write it
    (r"\mathbb 1_{x > 0}", "1"),
    (r"\mathbb{E}[x] + \mathbb{x}", "x"),
], ids=["braced one", "bare one", "lower-case letter"])
def test_a_blackboard_character_katex_lacks_is_a_warning(
        tmp_path: Path, katex: Any, caplog: pytest.LogCaptureFixture, tex: str,
        drawn: str) -> None:
    """KaTeX's blackboard-bold font has the capital letters only (and k): '\\mathbb{1}',
    the indicator function (GitHub's MathJax draws 𝟙), came out as a plain '1', with no
    message. A warning at the formula's line naming what to write instead; '\\mathbb{R}'
    stays quiet."""
    built = page(tmp_path, f"Intro.\n\nThe term ${tex} + \\mathbb{{R}}^n$ here.\n",
                 {"claims": {}, "meta": {"bounds": {}}})
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        typeset([built], katex)
    got = [r.getMessage() for r in caplog.records]
    assert len(got) == 1 and f"index.md:{BODY_START + 2}: warning:" in got[0], got
    assert f"'{drawn}'" in got[0] and "\\mathbf{" in got[0] and "'R'" not in got[0], got


def test_runs_keep_a_short_piece_with_its_neighbour_and_copy_as_written():
    """The phone's pieces (lines.runs): a piece narrower than the least width stays with the
    next or the one before (`o` of `o = …` was once alone on a phone's line); a relation that
    starts a piece keeps its spacing (`{}=`); a wide space between statements is the gap the
    page may break at; the pieces copy, one after the other, as the author's TeX."""
    tex = r"o=\operatorname{softmax}(x)=y_1+y_2 \qquad z=w"
    cut = runs(formula(tex), by_length, 2.0)        # "o" 0.25 em, "=w" 0.5 em
    assert cut is not None
    assert [(f.plain, sep) for f, sep in cut] == [
        (r"o=\operatorname{softmax}(x)", ""), (r"{}=y_1+y_2 ", ""), (" z=w", r"\qquad")]
    assert "".join(f.copy_text for f, _ in cut) == tex
    assert runs(formula(r"o=\operatorname{softmax}(x)"), by_length, 2.0) is None
    assert runs(formula(r"a=b\\c=d"), by_length, 0.0) is None


@pytest.mark.parametrize("char, name", [("\u00a0", "U+00A0"), ("\u200b", "U+200B"),
                                        ("\u3000", "U+3000")],
                         ids=["no-break space", "zero-width space", "full-width space"])
def test_an_invisible_character_in_a_formula_is_named(
        tmp_path: Path, katex: Any, caplog: pytest.LogCaptureFixture, char: str,
        name: str) -> None:
    """A no-break or zero-width space pasted into a formula (from a web page or Word) was
    warned as 'Unrecognized Unicode character(s) " "': the character itself, which shows as
    nothing. The warning now names it by its code and says to delete it."""
    built = page(tmp_path, f"Intro.\n\nThe score $q{char}k$ here.\n",
                 {"claims": {}, "meta": {"bounds": {}}})
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        typeset([built], katex)
    got = [r.getMessage() for r in caplog.records]
    assert got and all(char not in g for g in got), got
    assert any(name in g and "delete it" in g for g in got), got


def test_the_phone_layout_is_one_formula_for_a_screen_reader_and_for_copying(
        tmp_path: Path, katex: Any) -> None:
    """A formula cut into pieces for a phone was as many formulas as pieces: each piece had
    its own MathML (a screen reader read "o", then "= softmax(…)V", as formulas of their own)
    and its own TeX. Now the phone's layout holds one MathML, the whole formula's, with its
    TeX, and the pieces only as drawings inside the part hidden from assistive technology."""
    from helpers import Tree
    body = f"Steps:\n\n$$\n{', '.join(LINES[:3])}\n$$\n"
    built = page(tmp_path, body, {"claims": {}, "meta": {"bounds": {}}})
    els = Tree("".join(typeset([built], katex, box_names={"en": "A box"})["en"])).elements

    def inside(cls: str) -> list[dict[str, Any]]:
        k = next(i for i, e in enumerate(els) if cls in e["attrs"].get("class", "").split())
        end = next((j for j in range(k + 1, len(els)) if els[j]["depth"] <= els[k]["depth"]),
                   len(els))
        return els[k:end]

    wide, narrow = inside("math-wide"), inside("math-narrow")
    assert [e["tag"] for e in narrow].count("math") == 1
    notes = [[e["text"] for e in part if e["tag"] == "annotation"] for part in (wide, narrow)]
    assert notes[0] == notes[1] and len(notes[1]) == 1
    runs_at = [e["depth"] for e in narrow if "math-run" in e["attrs"].get("class", "").split()]
    assert len(runs_at) > 1
    hidden = [e["depth"] for e in narrow if e["attrs"].get("aria-hidden") == "true"]
    assert hidden and min(hidden) < min(runs_at)     # drawn part, around every piece


def test_a_tagged_formula_keeps_its_number_on_a_phone_s_screen(
        tmp_path: Path, katex: Any, browser: Any) -> None:
    """A display formula with \\tag{…} a little wider than a 360 px phone's column scrolled
    sideways with its equation number past the column's edge, off screen, and without a
    warning (that starts at 1.2 x the column, the width estimate being rough). On a phone the
    number now stands at the column's right edge: beside a formula that fits, under one that
    does not (as LaTeX sets a long equation's number)."""
    from sqrtdk.options import PROJECT_ROOT
    from sqrtdk.web.math.katex import STYLE
    letters = "abcdefghijklmnopqrstuvwxy"
    blocks = []
    for n in range(3, 12):
        tex = " + ".join(f"{c}_1" for c in letters[:n]) + r" = z_1 \tag{3.14}"
        folder = tmp_path / str(n)
        folder.mkdir()
        built = page(folder, f"Steps:\n\n$$\n{tex}\n$$\n", {"claims": {}, "meta": {"bounds": {}}})
        html = "".join(typeset([built], katex)["en"])
        blocks.append(f'<div class="math display">{html}</div>')
    # as the pages load them: the site's sheet, then the site's rules for KaTeX and KaTeX's
    sheet = ((PROJECT_ROOT / "static/style.css").read_text() + STYLE
             + (PROJECT_ROOT / "node_modules/katex/dist/katex.min.css").read_text())
    context = browser.new_context(viewport={"width": 360, "height": 740})
    try:
        tab = context.new_page()
        tab.set_content(f"<style>{sheet}</style><body style='margin:0 16px'>{''.join(blocks)}")
        got = tab.evaluate("""() => [...document.querySelectorAll('div.math.display')].map(d => {
            const box = d.getBoundingClientRect();
            const tag = d.querySelector('.katex-tag').getBoundingClientRect();
            const base = d.querySelector('.katex-html > .katex-base').getBoundingClientRect();
            const html = d.querySelector('.katex-html');
            const over = [...d.querySelectorAll('.katex-html > .katex-base')].some(b => {
                const r = b.getBoundingClientRect();
                return tag.left < r.right && r.left < tag.right && tag.top < r.bottom &&
                    r.top < tag.bottom; });
            return {left: tag.left - box.left, right: box.right - tag.right, over,
                    below: tag.top >= base.bottom - 1, wide: html.scrollWidth > box.width};
        })""")
    finally:
        context.close()
    assert any(g["wide"] for g in got) and not all(g["wide"] for g in got), got
    for g in got:
        assert g["left"] >= -0.5 and g["right"] >= -0.5, got      # on screen, in the column
        assert not g["over"], got                                  # never over the formula
    assert not got[0]["below"] and all(g["below"] for g in got if g["wide"]), got
