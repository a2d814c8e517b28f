"""Markdown in, HTML out (in the style of Python-Markdown's assertMarkdownRenders): small
articles of our own through the real page pipeline, one behaviour per test."""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest
from helpers import BODY_START, FRONT, UI, Tree, math_context, page, resolver, strings

from sqrtdk.errors import BuildError
from sqrtdk.log import captured
from sqrtdk.web.markers import PRIVATE_USE_RE
from sqrtdk.web.pages import build_page

RESULTS: dict[str, Any] = {
    "spread": {"sd_small": 2.0104, "n_pairs": 20000},
    "claims": {}, "meta": {"bounds": {}},
    "reproduce": {"demo": {"code": "print(1 < 2)\n", "stdout": "True\n", "source": "spread.py"}},
}


def html(tmp_path: Path, body: str, lang: str = "en", **kw: Any) -> str:
    return page(tmp_path, body, RESULTS, lang=lang, **kw).body


def error(tmp_path: Path, body: str, lang: str = "en") -> BuildError:
    with pytest.raises(BuildError) as e:
        page(tmp_path, body, RESULTS, lang=lang)
    return e.value


def test_inline_math_is_not_emphasis(tmp_path: Path) -> None:
    p = page(tmp_path, "A $a_i * b_i * c_i$ and $x_1 * y_1$ *here*.\n", RESULTS)
    assert [f.plain for f in p.formulas] == ["a_i * b_i * c_i", "x_1 * y_1"]
    assert p.body.count("<em>") == 1 and "<em>here</em>" in p.body


def test_escaped_dollar_is_a_dollar(tmp_path: Path) -> None:
    assert "It costs $5." in html(tmp_path, "It costs \\$5.\n")


def test_pipes_inside_math_stay_in_their_cell(tmp_path: Path) -> None:
    p = page(tmp_path, "| a | b |\n|---|---|\n| $\\lvert x \\rvert$ | $P(A|B)$ |\n", RESULTS)
    assert [f.plain for f in p.formulas] == ["\\lvert x \\rvert", "P(A|B)"]
    # (a cell holding a formula carries its spoken name: md_math.HeaderNames)
    assert math_context(p.body, 1)[-2] == "td" and \
        len([e for e in Tree(p.body).elements if e["tag"] == "td"]) == 2


def test_every_table_can_be_reached_and_scrolled_from_the_keyboard(tmp_path: Path) -> None:
    body = ("| a | b |\n|---|---|\n| 1 | 2 |\n\n- item\n\n    | c |\n    |---|\n    | 3 |\n\n"
            "[^n]\n\n[^n]: | d |\n    |---|\n    | 4 |\n")
    tables = [e for e in Tree(html(tmp_path, body)).elements if e["tag"] == "table"]
    assert len(tables) == 3 and all(t["attrs"].get("tabindex") == "0" for t in tables)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_table_is_named_by_its_header_row_or_the_heading_above(tmp_path: Path,
                                                                    lang: str) -> None:
    """A table is a tab stop (it scrolls sideways), so it needs a name (WCAG 4.1.2; it had
    none): its header row (aria-labelledby the row), or, when that row has no words, the
    heading above it (its words, not its section link's name); each id is one no other element has, the author's `table-1-head`
    included."""
    body = ("## Numbers {#numbers}\n\n| size | $\\sqrt{d}$ |\n|---|---|\n| 1 | 2 |\n\n"
            "|   |   |\n|---|---|\n| 3 | 4 |\n\n- item\n\n    | c |\n    |---|\n    | 5 |\n\n"
            "## Other {#table-1-head}\n\nText[^n].\n\n[^n]: | d |\n    |---|\n    | 6 |\n")
    elements = Tree(html(tmp_path, body, lang=lang)).elements
    ids = [e["attrs"]["id"] for e in elements if e["attrs"].get("id")]
    assert len(ids) == len(set(ids)), ids
    by_id = {e["attrs"]["id"]: e for e in elements if e["attrs"].get("id")}
    tables = [e for e in elements if e["tag"] == "table"]
    named = [by_id[t["attrs"]["aria-labelledby"]] for t in tables]
    assert [(n["tag"], n["text"].split()) for n in named] == [
        ("tr", ["size", named[0]["text"].split()[1]]), ("span", ["Numbers"]), ("tr", ["c"]),
        ("tr", ["d"])], named
    assert all(t["attrs"].get("tabindex") == "0" for t in tables)


def test_chinese_punctuation_after_inline_math_stays_on_its_line(tmp_path: Path) -> None:
    body = "先看 $a$，再看 $b$。最后 $c$ 不接标点。\n"
    glued = [e for e in Tree(html(tmp_path, body, lang="zh")).elements
             if e["attrs"].get("class") == "nobr"]
    assert [e["text"][-1] for e in glued] == ["，", "。"]
    # the number of marks each holds, which the style sheet leaves room for
    assert [e["attrs"].get("style") for e in glued] == ["--marks: 1", "--marks: 1"]
    assert all("math" in e["attrs"].get("class", "") for g in glued for e in
               Tree(html(tmp_path, body, lang="zh")).elements if "nobr" in e["ancestors"])
    assert "nobr" not in html(tmp_path, "See $a$, then $b$.\n")


@pytest.mark.parametrize("mark", ["％", "%", "‰", "°", "℃", "～", "〜", "·", "・", "‼", "⁉"])
def test_a_sign_after_inline_math_in_chinese_stays_on_its_line(tmp_path: Path, mark: str) -> None:
    """Chromium at 360 px started a line with a percent sign, a degree sign, a wave dash, a
    middle dot or a doubled exclamation mark right after a formula (KaTeX's box; one place
    in 24), as it did a full-width colon or semicolon, which were glued already: each is
    kept on the formula's line, in its `.nobr`."""
    body = f"比例为 $p${mark}其余不变。\n"
    glued = [e for e in Tree(html(tmp_path, body, lang="zh")).elements
             if e["attrs"].get("class") == "nobr"]
    assert [e["text"][-1] for e in glued] == [mark], glued
    assert [e["attrs"].get("style") for e in glued] == ["--marks: 1"]


@pytest.mark.parametrize("lang, body, marks", [
    ("zh", "阈值（$d_k=1024$ 时为 0%），见「$a$」。\n", ["（", "「"]),
    ("en", "The rulers (1, $\\sqrt{d_k}$ or $d_k$) and ($a$, “$b$”).\n", ["(", "“"]),
], ids=["zh", "en"])
def test_an_opening_bracket_before_inline_math_stays_on_its_line(
        tmp_path: Path, lang: str, body: str, marks: list[str]) -> None:
    """A 360 px phone ended a line with "（" and began the next with the formula it opens (and
    an English one with "(" at 414 px): the browser may break before KaTeX's box. An opening
    bracket or quote written right against a formula is now kept with it; one with a space or
    words between is not."""
    elements = Tree(html(tmp_path, body, lang=lang)).elements
    glued = [i for i, e in enumerate(elements) if e["attrs"].get("class") == "nobr"
             and e["text"][:1] in "([（「“"]
    assert [elements[i]["text"][0] for i in glued] == marks, [e["text"] for e in elements]
    assert [elements[i]["attrs"].get("style") for i in glued] == \
        (["--marks: 1", "--marks: 3"] if lang == "zh" else ["--marks: 1", "--marks: 1"])
    # each holds the mark and, right after it, the formula
    assert all(elements[i + 1]["attrs"].get("class") == "math"
               and elements[i + 1]["depth"] == elements[i]["depth"] + 1 for i in glued)


def test_display_math_written_inside_a_paragraph_is_a_block(tmp_path: Path) -> None:
    out = html(tmp_path, "Before\n$$\nx^2\n$$\nafter.\n")
    assert re.search(r"<p>Before</p>\s*<div class=\"math display\">.*</div>\s*<p>after.</p>", out,
                     re.S)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_latex_delimiters_give_the_page_the_dollar_forms_give(tmp_path: Path, lang: str) -> None:
    latex = page(tmp_path, "So \\(x_i^2\\), and:\n\n\\[\n\\frac{1}{2}\n\\]\n\n- a list \\(y\\)\n",
                 RESULTS, lang=lang, name="latex.md")
    dollars = page(tmp_path, "So $x_i^2$, and:\n\n$$\n\\frac{1}{2}\n$$\n\n- a list $y$\n",
                   RESULTS, lang=lang, name="dollars.md")
    assert [(f.plain, f.display) for f in latex.formulas] == \
        [(f.plain, f.display) for f in dollars.formulas] == \
        [("x_i^2", False), ("\\frac{1}{2}", True), ("y", False)]
    assert latex.body == dollars.body


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_tex_a_chat_answer_lost_its_delimiters_in_warns_at_its_line(
        tmp_path: Path, lang: str) -> None:
    """A chat assistant's answer copied from its page loses the backslashes of its
    '\\[ … \\]' and '\\( … \\)': '[' and ']' lines around a line of TeX, '( d_k )' in a
    sentence, published as typed with no word. Each line of such TeX is now told at its
    line (once); TeX in code, in math and in the LaTeX delimiters stays quiet."""
    body = ("Scores grow as\n[\n\\mathrm{Var}[s] \\approx d_k\n]\nwith ( d_k ).\n\n"
            "- where ( s \\in \\mathbb{R} ) is a score\n\n"
            "Quiet: `\\frac{a}{b}`, $\\sqrt{d_k}$, \\(\\alpha\\), C:\\Users\\me, the token "
            "\"\\int\" or '\\partial'.\n\n"
            "\\[\n\\sum_i x_i \\approx 1\n\\]\n\n"
            "The answer is \\[ \\boxed{8} \\] here.\n")      # '\\[' inside a line: text
    with captured() as warned:
        html(tmp_path, body, lang=lang)
    told = [w for w in warned if "TeX outside a formula" in w]
    assert [w.split(": warning:")[0].rsplit(":", 1)[1] for w in told] == \
        [str(BODY_START + 2), str(BODY_START + 6), str(BODY_START + 14)], told
    assert "'\\mathrm{Var}[s] \\approx d_k'" in told[0] and "between dollars" in told[0]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_bibtex_accent_in_text_is_told_with_the_letter_meant(tmp_path: Path,
                                                               lang: str) -> None:
    """BibTeX's accent in a pasted citation, 'Jos{\\'e}', was published as typed, braces and
    backslash, with no word (TeX elsewhere in text is told). Each is now told at its line
    with the letter meant; in code and math, and Markdown's escaped quote ('it\\'s'), quiet."""
    body = ("As Jos{\\'e} Garc\\'{i}a and Fran{\\c c}ois found.\n\n"
            "- after \\v{S}koda and {\\'\\i}\n\n"
            "Quiet: `{\\'e}`, $\\'{e}$, it\\'s, C:\\users, a \\*star\\*.\n")
    with captured() as warned:
        html(tmp_path, body, lang=lang)
    told = [w for w in warned if "TeX (BibTeX) accent" in w]
    assert [w.split(": warning:")[0].rsplit(":", 1)[1] for w in told] == \
        [str(BODY_START)] * 3 + [str(BODY_START + 2)] * 2, told
    assert [w.split("write the letter itself, '")[1][0] for w in told] == \
        ["\u00e9", "\u00ed", "\u00e7", "\u0160", "\u00ed"], told
    assert "('{\\'e}')" in told[0], told


def test_footnote_with_paragraphs_code_and_display_math(tmp_path: Path) -> None:
    body = ("Text[^n].\n\n[^n]: First paragraph.\n\n    Second paragraph.\n\n"
            "    ```python\n    x = {'a': 1}\n    ```\n\n    $$\n    \\frac{a}{b}\n    $$\n")
    p = page(tmp_path, body, RESULTS)
    note = p.body[p.body.index('class="footnote"'):]
    assert note.count("<p>") >= 2 and "<code class=\"language-python\">" in note
    assert "x = {&#x27;a&#x27;: 1}" in note or "x = {'a': 1}" in note
    assert math_context(p.body, 0)[-2:] == ["li", "div"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_footnotes_are_numbered_in_reading_order_inside_lists_quotes_and_tables(
        tmp_path: Path, lang: str) -> None:
    body = ("First[^a].\n\n- an item[^b]\n\nThen[^c].\n\n> quoted[^d]\n\n"
            "| x |\n|---|\n| cell[^e] |\n\nLast[^f], and again[^b].\n\n"
            + "".join(f"[^{n}]: Note {n}.\n" for n in "fedcba"))   # defined in reverse
    elements = Tree(html(tmp_path, body, lang=lang)).elements
    refs = [(e["attrs"]["href"], e["text"]) for e in elements
            if e["tag"] == "a" and "footnote-ref" in e["attrs"].get("class", "")]
    assert refs == [(f"#fn-{label}", str(n)) for label, n in
                    [("a", 1), ("b", 2), ("c", 3), ("d", 4), ("e", 5), ("f", 6), ("b", 2)]]
    notes = [e for e in elements if e["tag"] == "li" and e["attrs"].get("id", "").startswith("fn-")]
    assert [e["attrs"]["id"] for e in notes] == [f"fn-{label}" for label in "abcdef"]
    backrefs = [e["attrs"]["title"] for e in elements
                if "footnote-backref" in e["attrs"].get("class", "") and
                e["attrs"]["href"] == "#fnref-d"]
    assert backrefs and all("4" in t for t in backrefs)    # "Back to note 4"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_note_referenced_inside_a_link_s_text_follows_the_link(tmp_path: Path,
                                                                 lang: str) -> None:
    """A link cannot hold a link: the note's number goes right after the link (with its
    superscript), the link keeps its words, nothing is lost around it."""
    body = ("Read [the *long[^a]* version[^b]](https://example.org/p), then stop.\n\n"
            "[^a]: Note a.\n\n[^b]: Note b.\n")
    elements = Tree(html(tmp_path, body, lang=lang)).elements
    links = [e for e in elements if e["tag"] == "a" and "footnote" not in
             e["attrs"].get("class", "")]
    assert [e["text"] for e in links] == ["the long version"]
    refs = [e for e in elements if "footnote-ref" in e["attrs"].get("class", "")]
    assert [(e["text"], e["ancestors"][-1]) for e in refs] == [("1", "sup"), ("2", "sup")]
    assert all("a" not in e["ancestors"] for e in refs)
    para = next(e for e in elements if e["tag"] == "p")
    assert para["text"].endswith("the long version12, then stop.")


@pytest.mark.parametrize("inner", ['<a href="https://example.org/q">q</a>',
                                   "<https://example.org/q>"], ids=["raw", "autolink"])
def test_a_link_inside_a_link_s_text_stops_at_its_line(tmp_path: Path, inner: str) -> None:
    e = error(tmp_path, f"One.\n\nTwo.\n\nRead [the {inner} page](https://example.org/p).\n")
    assert e.line == BODY_START + 4 and "a link cannot hold another one" in e.message, str(e)


def test_a_figure_not_registered_yet_says_how_to_make_it(tmp_path: Path) -> None:
    """A new author who wrote the figure's paragraph before its drawing (README's "Add a
    figure", step 3 first) was told only "did you mean 'spread_hist'?": the message says no
    drawing is registered under that name, and to write and register one first."""
    e = error(tmp_path, "Text.\n\n![Bars](spread_bars.svg \"The bars.\")\n")
    assert e.line == BODY_START + 2, str(e)
    assert "no function of sqrtdk/figures/ is registered as @figure(\"spread_bars\", …)" in \
        e.message and "write and register its drawing first" in e.message, e.message
    # a misspelt name's suggestion, a question, is not run into the next clause ("?;")
    e = error(tmp_path, "Text.\n\n![Walk](wakl.svg \"The walk.\")\n")
    assert "did you mean 'walk'?" in e.message and "?;" not in e.message, e.message


def test_figure_is_numbered_with_a_phone_variant_and_a_link_to_full_size(tmp_path: Path) -> None:
    out = html(tmp_path, "![What it shows](walk.svg \"A *walk*, $\\sqrt t$ wide, see [x](#x).\")\n"
               "\n## X {#x}\n")
    tree = Tree(out)
    fig = next(e for e in tree.elements if e["tag"] == "figure")
    assert fig["attrs"]["id"] == "fig-walk"
    a = next(e for e in tree.elements if e["tag"] == "a" and "fig-link" in e["attrs"].get("class", ""))
    src = next(e for e in tree.elements if e["tag"] == "source")
    img = next(e for e in tree.elements if e["tag"] == "img")
    assert a["attrs"]["href"] == img["attrs"]["src"] and src["attrs"]["media"].startswith("(max-width")
    assert a["text"].strip() == UI["figure_open"]     # the link says where it goes
    assert img["attrs"]["alt"] == "What it shows" and "figcaption" not in img["ancestors"]
    caption = out[out.index("<figcaption>"):out.index("</figcaption>")]
    assert "Fig 1." in caption and "<em>walk</em>" in caption and 'class="math"' in caption
    assert '<a href="#x">x</a>' in caption


def test_a_figure_is_named_by_its_caption_as_one_line_of_text(tmp_path: Path) -> None:
    """A figure's name (aria-label) is its caption as text: its number, its words without
    markup, a formula as its plain text (the marker assembly fills in), a quoted number as
    shown, no note reference. Its caption is not its last child (the table of numbers follows
    it), so chromium named no figure."""
    from sqrtdk.web.markers import MATH_TEXT_RE
    out = html(tmp_path, '![What it shows](walk.svg "A *walk*, $\\sqrt t$ wide, SD '
               '{{ spread.sd_small | fixed(2) }}[^n].")\n\n[^n]: A note.\n')
    fig = next(e for e in Tree(out).elements if e["tag"] == "figure")
    sd = f"{RESULTS['spread']['sd_small']:.2f}"
    assert MATH_TEXT_RE.sub("(F)", fig["attrs"]["aria-label"]) == f"Fig 1. A walk, (F) wide, SD {sd}."


def test_headings_reach_the_contents_exactly(tmp_path: Path) -> None:
    p = page(tmp_path, '## "Why" x < y & $d_k$[^a] {#why}\n\nText.\n\n[^a]: A note.\n', RESULTS)
    (h,) = p.conversion.headings
    assert h.id == "why" and h.text == "“Why” x < y &"
    assert "&ldquo;Why&rdquo;" in h.html and "x &lt; y &amp;" in h.html
    assert "math" in h.html and "footnote" not in h.html and "fnref" not in h.html


@pytest.mark.parametrize("link, words", [
    ("a [link](#other)", "link"), ("https://example.com/x", "https://example.com/x"),
    ('<a href="#other">raw link</a>', "raw link"), ("a [ref link][r]", "ref link"),
], ids=["inline link", "bare URL", "raw HTML link", "reference link"])
def test_a_link_in_a_heading_reaches_the_contents_as_its_text(tmp_path: Path, link: str,
                                                               words: str) -> None:
    """The contents entry is itself a link to the heading: a link inside it would be a link
    in a link, which the browser splits. The entry keeps the link's words (and the heading's
    code and math); the heading keeps its link. A footnote reference leaves no link either."""
    body = (f"## With `code`, $x^2$ and {link}[^n] {{#h}}\n\nText.\n\n## Other {{#other}}\n\n"
            "[r]: #other\n\n[^n]: A note.\n")
    p = page(tmp_path, body, RESULTS)
    entry = p.conversion.headings[0]
    tags = [e["tag"] for e in Tree(entry.html).elements]
    assert "a" not in tags and "code" in tags and "math" in entry.html, entry.html
    assert entry.text.startswith("With code,") and "fnref" not in entry.html, entry
    assert words in entry.text and words in entry.html, (words, entry.html)
    heading = next(e for e in Tree(p.body).elements if e["tag"] == "h2")
    links = [e for e in Tree(p.body).elements if e["tag"] == "a" and "h2" in e["ancestors"]
             and "headerlink" not in e["attrs"].get("class", "")
             and "footnote-ref" not in e["attrs"].get("class", "")]
    assert [e["text"] for e in links] == [words], (heading, links)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_dashes_stay_as_typed_and_quotes_curl(tmp_path: Path, lang: str) -> None:
    """`--flag`, `1--5` and `---` are shown as typed, as GitHub shows them (smarty made them
    – and —, corrupting a command's flag in prose); quotes still curl, `...` is an ellipsis."""
    body = ('Run "pip" with --no-cache, pages 1--5, a pause---then dots...\n\n'
            "| a | b |\n|---|---|---|\n")    # a delimiter row that makes no table
    tree = Tree(html(tmp_path, body, lang=lang))
    text, pipes = (e["text"] for e in tree.elements if e["tag"] == "p")
    assert "|---|---|---|" in pipes, pipes
    assert "--no-cache" in text and "1--5" in text and "pause---then" in text, text
    assert "\u2013" not in text and "\u2014" not in text and "dots\u2026" in text, text
    if lang == "en":
        assert "\u201cpip\u201d" in text, text


@pytest.mark.parametrize("source, expected", [
    ('for "large values of $d_k$", the', "for &ldquo;large values of ⟨m⟩&rdquo;, the"),
    ('a ("quote") b', "a (&ldquo;quote&rdquo;) b"),
    ("the paper's footnote", "the paper&rsquo;s footnote"),
    ('"$x$" is', "&ldquo;⟨m⟩&rdquo; is"),
    # smarty alone curled these the wrong way round
    ('a blank (" ") and " " or \' \' here', "a blank (&ldquo; &rdquo;) and &ldquo; &rdquo; or "
     "&lsquo; &rsquo; here"),
    ('say ("\\*") or (\'\\*\'), "a\\_", then', "say (&ldquo;*&rdquo;) or (&lsquo;*&rsquo;), "
     "&ldquo;a_&rdquo;, then"),
    ('("<b>x</b>"), "x<sub>2</sub>", ("&mdash;") and ("a<br>").',
     "(&ldquo;<b>x</b>&rdquo;), &ldquo;x<sub>2</sub>&rdquo;, (&ldquo;&mdash;&rdquo;) and "
     "(&ldquo;a<br>&rdquo;)."),
    ('he wrote "x"/"y" here', "he wrote &ldquo;x&rdquo;/&ldquo;y&rdquo; here"),
    ('stops at "\\<eos>".', "stops at &ldquo;&lt;eos&gt;&rdquo;."),
], ids=["math", "brackets", "apostrophe", "math only", "blank", "after an escape",
        "after inline html", "after a slash", "escaped token"])
def test_english_quotes_open_and_close_around_math_and_brackets(tmp_path: Path, source: str,
                                                                 expected: str) -> None:
    out = html(tmp_path, source + "\n")
    text = re.sub(r'<span class="math">[^<]*</span>', "⟨m⟩", out)
    assert expected in text


def _text(body: str) -> str:
    """A converted body's text as a reader sees it: each formula as `x`, code as typed."""
    body = re.sub(r'<span class="math">[^<]*</span>', "x", body)
    return "".join(e["text"] for e in Tree(body).elements if e["tag"] in ("p", "li", "h2"))


@pytest.mark.parametrize("source, expected", [
    ("rock 'n' roll", "rock \u2019n\u2019 roll"),
    ("'Tis so, tell 'em 'cause", "\u2019Tis so, tell \u2019em \u2019cause"),
    ("he wrote 'x'/'y' here", "he wrote \u2018x\u2019/\u2018y\u2019 here"),
    ("the labels 'x','y' and", "the labels \u2018x\u2019,\u2018y\u2019 and"),
    ("see '[link](/a)'", "see \u2018link\u2019"),
    ("the term \u6ce8\u610f'attention' here", "\u6ce8\u610f\u2018attention\u2019 here"),
    # right before, and kept
    ("An author's 'quoted word', the '90s, the students' 'x'.",
     "An author\u2019s \u2018quoted word\u2019, the \u201990s, the students\u2019 "
     "\u2018x\u2019."),
    ("'$x$' and $f$'s '`y`' and `'z'`", "\u2018x\u2019 and x\u2019s \u2018y\u2019 and 'z'"),
], ids=["rock n roll", "elisions", "after a slash", "after a comma", "around a link",
        "after chinese", "kept", "math and code"])
def test_english_single_quotes_open_and_close_and_apostrophes_are_apostrophes(
        tmp_path: Path, source: str, expected: str) -> None:
    """Single quotes: an opening and a closing one around a quotation, the closing one for an
    apostrophe (rock 'n' roll, 'tis: smarty opened these), also where smarty's rules see the
    wrong neighbour (after a slash or a comma, a link's end, a Chinese character); code keeps
    its typewriter quotes."""
    assert expected in _text(html(tmp_path, source + "\n")), source


@pytest.mark.parametrize("source, expected", [
    ('He said "\'Quoted\' words" here.', "\u201c\u2018Quoted\u2019 words\u201d"),
    ("He said 'a \"b\"' here.", "\u2018a \u201cb\u201d\u2019"),
], ids=["single inside double", "double inside single"])
def test_a_quote_beside_a_quote_warns_nothing(tmp_path: Path, caplog: pytest.LogCaptureFixture,
                                              source: str, expected: str) -> None:
    """smarty curls a double quote right beside a single one as one piece ("' -> \u201c\u2018),
    which the pairing of double quotes did not count: an odd number was warned."""
    import logging
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        out = html(tmp_path, source + "\n")
    assert expected in _text(out)
    assert [r.getMessage() for r in caplog.records] == []


def test_chinese_single_quotes_are_paired_and_apostrophes_curled(tmp_path: Path) -> None:
    """On a Chinese page (no smarty quotes) the ASCII single quotes of a block are paired
    \u2018 \u2019 in order, as the double ones are; an apostrophe (it's, rock 'n' roll, the '90s)
    is \u2019 and takes no part in the pairing; formulas and code keep theirs."""
    body = ("\u4ed6\u8bf4'\u5148\u522b\u6025'\uff0c\u7136\u540e'\u518d\u770b'\u3002"
            "rock 'n' roll \u5728 '90s\uff0cit's \u597d\uff0c$f'(x)$ \u548c `'c'`\u3002\n")
    p = page(tmp_path, body, RESULTS, lang="zh")
    assert _text(p.body) == ("\u4ed6\u8bf4\u2018\u5148\u522b\u6025\u2019\uff0c\u7136\u540e"
                             "\u2018\u518d\u770b\u2019\u3002rock \u2019n\u2019 roll \u5728 "
                             "\u201990s\uff0cit\u2019s \u597d\uff0cx \u548c 'c'\u3002")
    assert [f.plain for f in p.formulas] == ["f'(x)"]


def test_chinese_single_quotes_that_cannot_be_paired_warn_at_their_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    import logging
    body = "\u7b2c\u4e00\u6bb5\u3002\n\n\u7b2c\u4e8c\u6bb5'\u5f15\u53f7\u3002\n"
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        out = html(tmp_path, body, lang="zh")
    got = [r.getMessage() for r in caplog.records]
    assert len(got) == 1 and f"index.md:{BODY_START + 2}: warning:" in got[0], got
    assert "odd number of \"'\"" in got[0] and "\u2018 \u2019" in got[0], got
    assert "\u6bb5'\u5f15" in out                     # left as written


def test_chinese_ascii_quotes_are_paired(tmp_path: Path) -> None:
    out = html(tmp_path, '他说"先别急"，然后"再看"。\n', lang="zh")
    assert "他说“先别急”，然后“再看”。" in out


def test_a_line_break_inside_a_chinese_sentence_is_not_a_space(tmp_path: Path) -> None:
    out = html(tmp_path, "第一行的句子\n接着第二行，\n**粗体**\n继续。Latin words\nstay apart.\n",
               lang="zh")
    # (the English phrase carries its lang: md_text.LangMarks)
    assert ('第一行的句子接着第二行，<strong>粗体</strong>继续。<span lang="en">Latin words\n'
            'stay apart.</span>') in out


def test_text_in_the_other_script_carries_its_lang(tmp_path: Path) -> None:
    zh = html(tmp_path, "中文段落。\n\n> We suspect that for large values it grows.\n", lang="zh")
    assert '<p lang="en">We suspect' in zh and '<p>中文段落。</p>' in zh
    en = html(tmp_path, "The word 注意力 means attention.\n")
    assert '<span lang="zh-CN">注意力</span>' in en


def test_reproduce_box_shows_the_code_that_ran_and_its_output(tmp_path: Path) -> None:
    p = page(tmp_path, "Try it:\n\n```reproduce\ndemo\n```\n", RESULTS)
    assert "print(1 &lt; 2)" in p.body and ">True</samp>" in p.body
    assert '../source/spread.py.html' in p.body and p.conversion.snippets == ["demo"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_reproduce_box_marks_the_program_english_and_its_own_words_the_page_s(
        tmp_path: Path, lang: str) -> None:
    """A snippet's code and what it prints are the program's, in English (sqrtdk/science);
    on the Chinese page they were not marked so, and a screen reader read "SD at d = 4" in
    the page's Chinese voice. They now carry lang="en"; the box's own words (the label over
    the output, the boxes' names) carry none, so they are the page's language."""
    p = page(tmp_path, "Try it:\n\n```reproduce\ndemo\n```\n", RESULTS, lang=lang)
    box = Tree(p.body).elements
    program = [e for e in box if e["tag"] in ("code", "samp")]
    assert [e["attrs"].get("lang") for e in program] == ["en", "en"]
    own = [e for e in box if e["tag"] in ("pre", "p")]    # the named boxes, the label, the link
    assert len(own) >= 3 and not [e["tag"] for e in own if "lang" in e["attrs"]]


def test_the_readme_s_reproduce_box_is_a_box_closed_until_opened(tmp_path: Path) -> None:
    """README's "Show the code that ran" called a bare reproduce fence a box, which the page
    shows as an always-open block: its example is now written as the article does it, in a
    collapsible box. Converted as written, the code that ran and its output are inside a
    closed <details> with an id (and a summary), not in the text."""
    from author_copy import recipes
    box = next((v for k, v in recipes().items() if k.startswith("reproduce box")), "")
    name = re.search(r"```reproduce\n(\S+)\n```", box)
    assert name, "README has no reproduce box recipe"
    results = {**RESULTS, "reproduce": {name[1]: RESULTS["reproduce"]["demo"]}}
    elements = Tree(page(tmp_path, box, results).body).elements
    shown = [e for e in elements if e["tag"] == "pre" and "print(1 < 2)" in e["text"]]
    assert shown and all("details" in e["ancestors"] for e in shown), elements
    details = [e for e in elements if e["tag"] == "details"]
    # its id: on the <details> or on an element inside it (md_blocks.BoxTargets)
    named = [e for e in elements if e["attrs"].get("id") and
             (e["tag"] == "details" or "details" in e["ancestors"])]
    assert len(details) == 1 and named and "open" not in details[0]["attrs"], details
    assert any(e["tag"] == "summary" for e in elements), elements


def test_unknown_reproduce_box_names_its_line(tmp_path: Path) -> None:
    e = error(tmp_path, "a\n\n```reproduce\ndemo\n```\n\n```reproduce\ndemp\n```\n")
    assert e.line == BODY_START + 6 and "did you mean 'demo'" in e.message


def test_collapsible_box(tmp_path: Path) -> None:
    p = page(tmp_path, "/// details | Why?\n    attrs: {id: why}\n\nBecause $x$.\n///\n", RESULTS)
    assert p.conversion.boxes == ["why"] and "<details" in p.body and "details" in math_context(p.body, 0)


def test_unclosed_box_names_its_opening_line(tmp_path: Path) -> None:
    e = error(tmp_path, "Intro.\n\n/// details | Why?\n    attrs: {id: why}\n\nText.\n\n## Next {#n}\n")
    assert e.line == BODY_START + 2 and "never closed" in e.message


@pytest.mark.parametrize("raw, what", [("<script>alert(1)</script>", "<script"),
                                        ('<div onclick="x()">a</div>', "onclick"),
                                        ('<a href="javascript:x()">a</a>', "javascript:"),
                                        # a browser removes the tab: javascript: (was published)
                                        ('<a href="java&#9;script:x()">a</a>', "href="),
                                        ('<a href=" JAVASCRIPT:x()">a</a>', "javascript:"),
                                        # sent the reader elsewhere at once (was published)
                                        ('<meta http-equiv="refresh" content="0;url=https://'
                                         'example.org/">', "<meta")])
def test_raw_html_that_the_csp_would_block_is_refused(tmp_path: Path, raw: str, what: str) -> None:
    e = error(tmp_path, "First.\n\n" + raw + "\n")
    assert e.line == BODY_START + 2 and what in e.message


@pytest.mark.parametrize("text, what", [("{{spread.sd_small}}", "{{"), ("{#TODO#}", "{#TODO#}")])
def test_template_syntax_left_in_the_text_is_an_error(tmp_path: Path, text: str, what: str) -> None:
    e = error(tmp_path, "a\n\nThe SD " + text + " here.\n")
    assert e.line == BODY_START + 2 and what in e.message


def test_literal_braces_in_code_are_code(tmp_path: Path) -> None:
    out = html(tmp_path, "Write `{{ spread.sd_small | fixed(2) }}` or\n\n```\n{# x #} $y$\n```\n")
    assert "<code>{{ spread.sd_small | fixed(2) }}</code>" in out and "{# x #} $y$" in out


def test_an_apostrophe_inside_an_english_word_is_curled_on_a_chinese_page(tmp_path: Path) -> None:
    tree = Tree(html(tmp_path, "论文说 it's simple，don't worry。代码 `it's` 不变。\n", lang="zh"))
    p = next(e for e in tree.elements if e["tag"] == "p")
    assert "it\u2019s simple" in p["text"] and "don\u2019t" in p["text"] and "'" not in \
        p["text"].replace("`it's`", "").split("代码")[0]
    code = next(e for e in tree.elements if e["tag"] == "code")
    assert code["text"] == "it's"                       # code keeps its typewriter quote


def test_a_prime_after_a_one_letter_name_in_chinese_is_no_quote(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A prime after a one-letter name in Chinese text (the projected Q', K', V', a
    prediction y') was counted as a single quote to pair: an odd number of them was warned
    ('write ‘ ’ yourself'), advice that does not apply, and an even number was paired into
    quotation marks around the words between. It stays as typed, as GitHub shows it, and the
    quotes around it are still paired."""
    import logging
    body = "得到新的 Q', K', V'，再计算。\n\n预测值 (y') 和真实值 x' 不同，他说'先别急'。\n"
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        p = page(tmp_path, body, RESULTS, lang="zh")
    assert [r.getMessage() for r in caplog.records] == []
    assert _text(p.body) == "得到新的 Q', K', V'，再计算。预测值 (y') 和真实值 x' 不同，他说‘先别急’。"


def test_a_prime_after_a_number_in_chinese_is_no_quote(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A step numbered with a prime in Chinese text (a heading '1' \u4e0b\u8f7d', '12' \u8bad\u7ec3',
    as a README numbers its steps) was counted as a single quote to pair: one of them was
    warned ('an odd number of', write \u2018 \u2019 yourself), advice that does not apply to
    a prime. It stays as typed, as GitHub shows it, and a quotation beside it is still
    paired."""
    import logging
    body = "## 1' \u4e0b\u8f7d {#a}\n\n\u6587\u5b57\u3002\n\n## 12' \u8bad\u7ec3 {#b}\n\n\u4ed6\u8bf4'\u5148\u522b\u6025'\uff0c'\u7b2c 2'\u3002\n\n1. 3' \u5b8c\u6210 (4') \u3002\n"
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        p = page(tmp_path, body, RESULTS, lang="zh")
    assert [r.getMessage() for r in caplog.records] == []
    assert "1' \u4e0b\u8f7d" in _text(p.body) and "12' \u8bad\u7ec3" in _text(p.body)
    assert "\u4ed6\u8bf4\u2018\u5148\u522b\u6025\u2019\uff0c\u2018\u7b2c 2\u2019" in _text(p.body)
    assert "3' \u5b8c\u6210 (4')" in _text(p.body)


def test_an_odd_number_of_quotes_in_chinese_warns_at_its_paragraph(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    import logging
    body = "第一段。\n\n第二段有\n一个\"引号，没有配对。\n\n第三段“好”的。\n"
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        html(tmp_path, body, lang="zh")
    got = [r.getMessage() for r in caplog.records if "odd number" in r.getMessage()]
    assert len(got) == 1 and f"index.md:{BODY_START + 2}: warning:" in got[0], got
    assert "\n" not in got[0]                      # one line, also for a paragraph of several


def test_an_odd_number_of_quotes_warns_at_its_paragraph_when_another_starts_alike(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    import logging
    # both paragraphs start with the same words: a search for them would find the first
    same = "\u4ed6\u4eec\u90fd\u8fd9\u6837\u8bf4\u8fc7"       # seven characters alike
    body = f"{same}\"\u597d\"\u7684\u3002\n\n{same}\"\u597d\u7684\u3002\n"
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        html(tmp_path, body, lang="zh")
    got = [r.getMessage() for r in caplog.records if "odd number" in r.getMessage()]
    assert len(got) == 1 and f"index.md:{BODY_START + 2}: warning:" in got[0], got


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_same_foreign_syntax_in_two_paragraphs_warns_at_each_ones_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, lang: str) -> None:
    import logging
    body = "Some ~~struck~~ text.\n\nOther words.\n\nSome ~~struck~~ text.\n"
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        html(tmp_path, body, lang=lang)
    got = [r.getMessage() for r in caplog.records if "strikethrough" in r.getMessage()]
    assert [g.split(": warning:")[0].rsplit(":", 1)[1] for g in got] == \
        [str(BODY_START), str(BODY_START + 4)], got


def test_each_line_of_foreign_syntax_in_one_paragraph_warns_at_its_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Two abbreviation definitions on consecutive lines (one paragraph) were told at the
    first only; an Obsidian comment over three lines is one warning, not one per '%%'."""
    import logging
    body = ("*[RoPE]: Rotary Position Embedding\n*[MQA]: Multi-query attention\n\n"
            "%%\nPrivate: vault notes\n%%\n")
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        html(tmp_path, body)
    got = [r.getMessage() for r in caplog.records if "published as typed" in r.getMessage()]
    assert [g.split(": warning:")[0].rsplit(":", 1)[1] for g in got] == \
        [str(BODY_START), str(BODY_START + 1), str(BODY_START + 3)], got


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("first, second, what", [
    ("\\@ref(fig:hist)", "\\@ref(tab:sds)", "bookdown cross-reference"),
    ("==one==", "==two==", "highlight"),
    ("[[Page]]", "[[Other page]]", "wiki"),
    ("[@vaswani2017]", "[@bahdanau2015]", "Pandoc citation"),
    ("\\cite{vaswani}", "\\ref{fig:x}", "LaTeX's text command"),
    ("[a|https://x.org/a]", "[b|https://x.org/b]", "Confluence (Jira) link"),
    ("~~the $x$ term~~", "~~the $y$ term~~", "strikethrough"),
], ids=["bookdown", "mark", "wikilink", "citation", "latex", "across a link",
        "across math"])
def test_two_of_one_foreign_syntax_on_one_line_warn_each_in_one_build(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, lang: str, first: str, second: str,
        what: str) -> None:
    """Two bookdown `\\@ref(…)` on one line were told one per build (the pattern's first
    match in the text only): every one is told, each quoting its own syntax, at its line;
    also two that span an element's edges (a Confluence link, its address linked; a
    strikethrough around math), of which only the first was told."""
    import logging
    body = f"Words {first} and {second} here.\n\nOther words.\n\nAnd {first} again.\n"
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        html(tmp_path, body, lang=lang)
    got = [r.getMessage() for r in caplog.records if "published as typed" in r.getMessage()]
    assert [g.split(": warning:")[0].rsplit(":", 1)[1] for g in got] == \
        [str(BODY_START)] * 2 + [str(BODY_START + 4)], got
    assert [g.split("('")[1].split("')")[0] for g in got] == [first, second, first], got
    assert all(what in g for g in got), got


# each other tool's syntax a rule of md_foreign.FOREIGN tells, and what its warning says
OTHER_TOOLS_SYNTAX = [
    ('!!! note "A note"\n    Body of the note.\n', "admonition"),
    ("> [!NOTE]\n> A GitHub alert.\n", "GitHub alert"),
    ("- [ ] an open task\n- plain item\n", "task list"),
    ("Some ~~struck~~ text.\n", "strikethrough"),
    ("See [a link](#x) and ~~then~~ this.\n", "strikethrough"),
    ("This is ~one tilde~ struck.\n", "strikethrough '~…~'"),
    ('=== "Python"\n\n    import numpy as np\n', "content tab"),
    (":::note\nA container's text.\n:::\n", "':::' container"),
    ("See :numref:`fig-walk` for the walk.\n", "Sphinx or MyST role ':numref:"),
    ("See {numref}`fig-walk` for the walk.\n", "Sphinx or MyST role '{numref}"),
    (".. note::\n\n   A directive's text.\n", "reStructuredText directive"),
    ("The ==key idea== here.\n", "highlighting"),
    ("The ==key\nidea== here.\n", "highlighting '==…==' is not understood here and is "
     "published as typed ('==key idea==')"),
    ("An ^^inserted\nword^^ here.\n", "('^^inserted word^^')"),
    ("This is ~one\ntilde~ struck.\n", "('~one tilde~')"),
    ("An ^^inserted^^ word.\n", "insertion"),
    ("Water is H~2~O.\n", "subscript"),
    # Typora's (pandoc's) subscript after a space, in a Chinese note (`Q ~m~`, `score ~0~`):
    # one or two letters or digits were told to be struck words, '<del>…</del>'
    ("当前词Q ~m~和所有 K做点积。\n", "a subscript '~…~' is not understood here "
     "and is published as typed ('~m~')"),
    ("The first row (score ~0~) here.\n", "a subscript '~…~' is not understood here "
     "and is published as typed ('~0~')"),
    ("The 2^10^ pairs.\n", "superscript"),
    ("// details | Why?\n", "two slashes"),
    ('{: class="table-of-content"}\n', "kramdown's (Jekyll's) attribute list"),
    ("{: .no_toc }\n", "'{: .no_toc }' (a heading kept out"),
    # its '}' lost: attr_list left it in the paragraph, the class not given
    ("{: .screen-only\n", "an attribute list without its closing '}'"),
    ('A picture of it {: style="width: 100%;" class="center"} here.\n', "kramdown's"),
    ("*[RoPE]: Rotary Position Embedding\n",
     "abbreviation's definition"),
    ("> [!quote] Vaswani et al.\n> We suspect that…\n", "Obsidian callout"),
    ("> [!example]+ Worked example\n> With four keys.\n", "Obsidian callout"),
    ("> [!warning]- Folded\n> An assumption.\n", "Obsidian callout"),
    ("Related: [[Softmax]] and more.\n", "Obsidian (wiki) link"),
    ("See [[Multi-Head Attention#Heads|the heads]].\n", "Obsidian (wiki) link"),
    ("![[attention-heatmap.png]]\n", "Obsidian (wiki) link or embed"),
    ("- read [[Xiong 2020]]\n", "Obsidian (wiki) link"),
    ("%%\nPrivate: vault notes\n%%\n", "Obsidian comment"),
    ("Some text %% a private remark %% here.\n", "Obsidian comment"),
    ("The gradient vanishes. ^saturation-claim\n", "Obsidian block id"),
    ("^saturation-claim\n", "Obsidian block id"),
    ("As shown by Vaswani et al. [@vaswani2017].\n", "Pandoc citation"),
    ("As argued [@vaswani2017; @yang2022, p. 4].\n", "Pandoc citation"),
    ("Vaswani et al. [-@vaswani2017] argue so.\n", "Pandoc citation"),
    ("As @vaswani2017 showed, the scores grow.\n", "Pandoc in-text citation '@…'"),
    ("It was shown by @vaswani2017 in their paper.\n", "('@vaswani2017')"),
    ("The rule of @Vaswani_2017attention holds.\n", "('@Vaswani_2017attention')"),
    ("As argued [see @vaswani2017, p. 4].\n", "Pandoc citation '[@…]'"),
    ("See @fig-spread for the result.\n", "cross-reference"),
    ("As @eq:var predicts.\n", "cross-reference"),
    ("See {@eq:description} for it.\n", "published as typed ('{@eq:description}')"),
    ("+-----+-----+\n| a   | b   |\n+=====+=====+\n| 1   | 2   |\n+-----+-----+\n",
     "Pandoc grid table"),
    ("Some [small caps]{.smallcaps} here.\n", "bracketed span '[…]{…}'"),
    ("[]{#tab:x}\n\n| a |\n|---|\n| 1 |\n", "('[]{#tab:x}')"),
    ("import Tabs from '@theme/Tabs';\nimport TabItem from '@theme/TabItem';\n",
     "MDX (Docusaurus) 'import' line"),
    ('import {Chart, Legend} from "../components/Chart";\n', "'import' line"),
    ("import './attention.css';\n", "'import' line"),
    ("export const Highlight = ({children}) => (\n  <span>{children}</span>\n);\n",
     "MDX (Docusaurus) 'export' line"),
    ("{/* TODO: add a benchmark table */}\n", "MDX comment"),
    ("The kernel is fast {/* measured on an A100 */} in practice.\n", "MDX comment"),
    ("<<< @/snippets/attention.js{2-3}\n", "including another file"),
    ('--8<-- "docs/snippets/attention.py"\n', "including another file"),
    ("--8<--\nsnippets/attention.py\n--8<--\n", "including another file"),
    (":material-information-outline: This page is part of the guide.\n", "MkDocs Material icon"),
    ("- Runs on :fontawesome-brands-nvidia: GPUs\n", "MkDocs Material icon"),
    ("Press ++ctrl+alt+del++ to restart.\n", "key combination"),
    ("Text can be {--deleted--} here.\n", "CriticMarkup"),
    ("Text can be {++added++} here.\n", "CriticMarkup"),
    ("The {~~old~>new~~} word.\n", "CriticMarkup"),
    ("A remark {>>check this<<} here.\n", "CriticMarkup"),
    ("(sec-variance)=\n", "a MyST target '(…)='"),
    ("+++\n", "notebook cell break"),
    (":::{figure} attention.png\n:name: fig-attention\n\nThe block.\n:::\n",
     "a MyST figure ':::{figure}'"),
    ("Title: Why attention divides by sqrt(d_k)\nDate: 2023-04-18 10:20\nTags: attention\n",
     "metadata lines"),
    ("Figure \\@ref(fig:hist) shows it.\n", "bookdown cross-reference"),
    ("(ref:hist-cap) Histogram of the scores.\n", "bookdown text reference"),
    ("Table: (\\#tab:sds) Standard deviations.\n", "bookdown label"),
    ("Text^[An inline note, with $x$.] here.\n", "inline footnote"),
    ("The SD is `r round(sd(x), 2)` here.\n", "R Markdown's inline code"),
    ("As @vaswani2017 [p. 4] argue.\n", "in-text citation"),
    ("As @vaswani2017attention argue.\n", "in-text citation"),
    ("The ending >!they all die!< is sad.\n", "Reddit spoiler"),
    (">!Spoiler: it hardly matters.!< I trained without it.\n", "spoiler '>!'"),
    (">! The answer is that it hardly matters.\n>! Second line.\n", "spoiler '>!'"),
    ("Edit: thanks. ^(didn't expect this)\n", "Reddit superscript"),
    ("^I ^am ^a ^bot, ^beep ^boop.\n", "Reddit superscript"),
    ("+++ Click to see the derivation\nThe variance is $d_k$.\n+++\n", "'+++ Title'"),
    ('{::options parse_block_html="true" /}\n', "kramdown's (Jekyll's) extension"),
    ("Some text {::nomarkdown}<b>raw</b>{:/} here.\n", "kramdown's (Jekyll's) extension"),
    ("1. ^Attention Is All You Need https://arxiv.org/abs/1706.03762\n",
     "Zhihu reference's back-mark"),
    ("== Variants ==\n", "MediaWiki (Wikipedia) heading"),
    ("=== Motivation for the scale ===\n", "MediaWiki (Wikipedia) heading"),
    (".. math::\n\n   x^2\n", "('.. math::'); write the formula between two '$$' lines"),
    (".. code-block:: python\n\n   x = 1\n", "('.. code-block::'); write a code fence"),
    (".. contents:: On this page\n", "the page makes its own contents"),
    (".. _sdpa-intro:\n", "reStructuredText target"),
    (".. |sdpa| replace:: ``sdpa``\n", "substitution definition"),
    (".. [#f1] A note.\n", "reStructuredText footnote '.. [#…]'"),
    ("It saturates [#f1]_ here.\n", "reStructuredText footnote reference"),
    ("PyTorch's |sdpa|_ function.\n", "reStructuredText substitution '|name|_'"),
    ("==========  =====\nParameter   Meaning\n==========  =====\n", "simple table"),
    ("The scale is stem:[\\sqrt{d_k}] here.\n", "AsciiDoc formula 'stem:[…]'"),
    ("So latexmath:[d_k] grows.\n", "('latexmath:[d_k]')"),
    ("[stem]\n++++\nx^2\n++++\n", "AsciiDoc formula block"),
    ("[NOTE]\nThe paper never measures it.\n", "AsciiDoc block attribute line"),
    ("|===\n| a | b\n|===\n", "AsciiDoc table"),
    ("See link:https://arxiv.org/abs/1706.03762[the paper].\n", "AsciiDoc link"),
    ("See https://arxiv.org/abs/1706.03762[the paper].\n", "AsciiDoc link 'https://…[text]'"),
    ("See xref:masking.adoc[the masking page].\n", "AsciiDoc link"),
    ("As <<variance>> shows.\n", "('<<variance>>')"),
    ("As <<variance,the variance>> shows.\n", "AsciiDoc cross-reference"),
    ("A note.footnote:[Only independence is needed.]\n", "AsciiDoc footnote"),
    ("image::attention-heatmap.png[Attention weights,400]\n", "AsciiDoc image"),
    ("= Why attention divides\n", "AsciiDoc document title"),
    (":author: A. Researcher\n:stem: latexmath\n", "AsciiDoc's attribute entries"),
    (". Ordered one\n. Ordered two\n", "AsciiDoc numbered list"),
    ("** Second level of a list\n", "'** …' at a line's start"),
    ("** TODO Check with numpy\n", "an org-mode heading"),
    ("Then[fn:1] it holds.\n", "org-mode footnote"),
    ("[fn:1] Only independence is needed.\n", "org-mode footnote"),
    ("See [[https://arxiv.org/abs/1706.03762][the paper]].\n", "org-mode link"),
    ("See [[*Variance][the variance section]].\n", "org-mode link"),
    (":PROPERTIES:\n:CUSTOM_ID: variance\n:END:\n", "drawer"),
    ("- :LOGBOOK:\n  CLOCK: [2026-12-03 Thu 21:10]\n  :END:\n", "drawer"),
    ("SCHEDULED: <2026-12-05 Sat>\n", "planning line"),
    ("where =Q= is a matrix.\n", "org-mode's verbatim"),
    ("The /Attention Is All You Need/ paper.\n", "org-mode's italic"),
    ("- title:: Scaled dot-product attention\n", "Logseq (Roam) property"),
    ("alias:: SDPA\n", "Logseq (Roam) property"),
    ("- footnote 4 ((6475a1b2-3c4d-4e5f-8a9b-0c1d2e3f4a5b))\n", "block reference"),
    ("See <https://arxiv.org/abs/1706.03762|the paper> now.\n", "Slack link"),
    ("<@U02ABCDEF> short version.\n", "('<@U02ABCDEF>')"),
    ("cc <!here> please.\n", "Slack or Discord mention"),
    ("It is ||because variance adds up|| here.\n", "Discord spoiler"),
    ('{| class="wikitable"\n|-\n| 64 || 8.0\n|}\n', "MediaWiki (Wikipedia) table"),
    ("* [https://arxiv.org/abs/1706.03762 The original paper]\n", "MediaWiki external link"),
    ("'''Scaled attention''' is here.\n", "MediaWiki's (Wikipedia's) bold"),
    ("The ''q'' vector.\n", "MediaWiki's (Wikipedia's) italic"),
    ("h2. Background\n", "Confluence (Jira, Textile) heading"),
    ("bq. A quote pasted from Confluence.\n", "quote 'bq. …'"),
    ("||d_k||SD raw||SD scaled||\n", "Confluence (Jira) table"),
    ("See [the paper|https://arxiv.org/abs/1706.03762] now.\n", "Confluence (Jira) link"),
    ("Ask [~alice.chen] about it.\n", "Confluence (Jira) link"),
    ("!attention-diagram.png|thumbnail!\n", "Confluence (Jira, Textile) image"),
    ("{noformat}\nsd=8.01\n{noformat} done.\n", "Confluence (Jira) macro"),
    ("A {color:red}red warning{color} here.\n", "Confluence (Jira) macro"),
    ("[b]Bold[/b] words.\n", "BBCode"),
    ("See [url=https://arxiv.org/abs/1706.03762]the paper[/url].\n", "BBCode"),
    ("[list]\n[*]first\n[*]second\n[/list]\n", "BBCode"),
    ('See "the paper":https://arxiv.org/abs/1706.03762 now.\n', "Textile link"),
    ("Agreed. [name=Alice Chen]\n", "HackMD (CodiMD) tag"),
    ("::Scaling keeps the logits at unit variance.:: Yes.\n", "Bear (Ulysses) highlight"),
    ("The ::crucial:: point.\n", "Bear (Ulysses) highlight"),
    ("It divides by //the square root// of d.\n", "DokuWiki's italic"),
    ("% TODO: shorten this section\n", "LaTeX comment"),
    ("We call it ``Scaled Dot-Product Attention'' here.\n", "LaTeX's quotes"),
    ("As Eq.~(1) shows.\n", "LaTeX's tie"),
    ("As Vaswani~et~al. argue.\n", "LaTeX's tie"),
    ("Typed the \\LaTeX{} way.\n", "a LaTeX command"),
    ("It is negligible, i.e.\\ small.\n", "a LaTeX command"),
    ("\\bibliography{refs}\n", "a LaTeX command"),
    ("Scores\\index{scores} grow with $d_k$.\n", "a LaTeX command"),
    ("The scale.\\vspace{1em} The rest.\n", "a LaTeX command"),
    ("?> **Tip** The scale is a constant.\n", "Docsify tip or warning"),
    ("!> Do not confuse $d_k$ with the model's width.\n", "Docsify tip or warning"),
    ("--\n\n### Below it {#below}\n", "slide deck's marker"),
    ("???\n\nPresenter notes: pause here.\n", "slide deck's marker"),
    ("A note((Vaswani et al., 2017.)) in DokuWiki.\n", "DokuWiki footnote"),
    ("^ d_k ^ SD raw ^\n| 16 | 4.0 |\n", "DokuWiki table"),
    ("====== Scaled attention ======\n", "DokuWiki's '====='"),
    ("The scale ++check this number++ holds.\n", "Ulysses comment"),
    ("A delay of $10^{-3}$~s here.\n", "LaTeX's tie"),
    ("So as ( d_k ) grows, divide by ( \\sqrt{d_k} ).\n", "TeX outside a formula"),
    ("[ \\mathrm{Var}[s] \\approx d_k ]\n", "TeX outside a formula"),
    ("[外链图片转存失败,建议将图片保存下来直接上传(img-Ab12Cd-1651672351492)(assets/a.png)]\n",
     "CSDN export's note of a picture"),
]
OTHER_TOOLS_IDS = ["admonition", "GitHub alert", "task list", "strikethrough", "strikethrough after a link",
    "single tilde", "MkDocs tab", "container", "Sphinx role", "MyST role", "rst directive",
    "mark", "mark over a line break", "insert over a line break",
    "single tilde over a line break", "insert", "subscript", "subscript after a space", "subscript after a parenthesis", "superscript", "two-slash box", "kramdown attributes", "just-the-docs no_toc", "attribute list unclosed",
    "kramdown attributes in a sentence", "abbreviation", "callout quote", "callout open",
    "callout folded", "wikilink", "wikilink heading alias", "embed", "wikilink in a list",
    "comment block", "comment inline", "block id", "block id alone", "citation", "citations", "citation year",
    "bare citation", "bare citation after by", "bare citation key with a title",
    "citation with a prefix",
    "crossref fig", "crossref eq", "crossref braced", "grid table", "bracketed span",
    "pandoc anchor",
    "mdx import", "mdx import named",
    "mdx import side effect", "mdx export", "mdx comment block", "mdx comment inline",
    "vitepress snippet", "mkdocs snippet", "mkdocs snippet block", "material icon",
    "material icon in a list", "keys", "critic deleted", "critic added", "critic substituted",
    "critic comment", "myst target", "myst cell break", "myst figure", "pelican metadata", "bookdown ref", "bookdown text ref",
    "bookdown label", "inline footnote", "inline r", "in-text citation",
    "in-text citation key", "reddit spoiler", "reddit spoiler in a quote", "lesswrong spoiler block",
    "reddit superscript words", "reddit superscript run", "lesswrong collapsible", "kramdown options", "kramdown nomarkdown", "zhihu back-mark",
    "mediawiki heading", "mediawiki heading 3", "rst math", "rst code", "rst contents",
    "rst target", "rst substitution definition", "rst footnote", "rst footnote reference",
    "rst substitution", "rst simple table", "asciidoc stem", "asciidoc latexmath",
    "asciidoc stem block", "asciidoc attribute line", "asciidoc table", "asciidoc link",
    "asciidoc url link", "asciidoc xref", "asciidoc cross-reference",
    "asciidoc cross-reference text", "asciidoc footnote", "asciidoc image",
    "asciidoc title", "asciidoc attributes", "asciidoc numbered list",
    "asciidoc nested item", "org heading", "org footnote", "org footnote definition",
    "org link", "org internal link", "org drawer", "logseq logbook", "org planning",
    "org verbatim", "org italic", "logseq property in a list", "logseq property",
    "logseq block reference", "slack link", "slack mention", "slack here",
    "discord spoiler", "mediawiki table", "mediawiki external link", "mediawiki bold",
    "mediawiki italic", "confluence heading", "confluence quote", "confluence table",
    "confluence link", "confluence mention", "confluence image", "confluence noformat",
    "confluence color", "bbcode bold", "bbcode url", "bbcode list", "textile link",
    "hackmd name", "bear highlight", "bear highlight word", "dokuwiki italic",
    "latex comment", "latex quotes", "latex tie before a command", "latex tie et al",
    "latex logo", "latex control space", "latex bibliography", "latex index",
    "latex spacing", "docsify tip",
    "docsify warning", "reveal.js vertical slide", "remark presenter notes",
    "dokuwiki footnote", "dokuwiki table", "dokuwiki heading", "ulysses comment", "latex tie after a formula",
    "tex in lost parentheses", "tex in lost brackets", "csdn failed picture"]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("syntax, what", OTHER_TOOLS_SYNTAX, ids=OTHER_TOOLS_IDS)
def test_syntax_of_other_markdown_tools_warns_at_its_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, syntax: str, what: str,
        lang: str) -> None:
    import logging
    body = f"First paragraph.\n\n{syntax}\nLast paragraph, with `~~code~~` and `[ ] x`.\n"
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        html(tmp_path, body, lang=lang)
    got = [r.getMessage() for r in caplog.records if "published as typed" in r.getMessage()]
    assert len(got) == 1 and what in got[0] and "\n" not in got[0], got
    assert f"index.md:{BODY_START + 2}: warning:" in got[0], got



# the sides of a sample where its own tool needs a space or a line's end (a keyword, a
# block's marker, LaTeX's control space '\\ '): a Chinese character there is no such syntax
_OWN_SPACE = {("task list", "after"), ("two-slash box", "after"), ("mdx export", "after"),
              ("mkdocs snippet", "after"), ("mkdocs snippet block", "after"),
              ("rst target", "after"), ("latex control space", "after"),
              ("block id", "before"), ("block id alone", "before")}
# the samples whose own tool does not take the syntax right after or before a Chinese
# character (a Chinese punctuation mark there it takes): org-mode's emphasis wants a space or
# one of -('"{ before it (org-emphasis-regexp-components); reStructuredText's inline markup,
# a space or punctuation around it; Pandoc's citation (Quarto's cross-reference) no text
# right before its '@'. Confluence's, Bear's and Ulysses' rules
# are not known here, so they stay as they were
_BOUNDED = {"org verbatim", "org italic", "rst footnote reference", "rst substitution",
            "Sphinx role", "bare citation", "bare citation after by",
            "bare citation key with a title", "crossref fig",
            "crossref eq", "in-text citation", "in-text citation key", "asciidoc url link", "confluence noformat", "confluence image", "confluence color",
            "bear highlight", "bear highlight word", "ulysses comment",
            # (and a single-tilde subscript after a space: right after a Chinese character it
            # is told as GitHub's strikethrough, by the Chinese rule, not as a subscript)
            "subscript after a space", "subscript after a parenthesis"}


def _told(tmp_path: Path, syntax: str, what: str, lang: str) -> list[str]:
    """The warnings naming `what` at the sample's line, `syntax` between two paragraphs."""
    body = (f"First paragraph.\n\n{syntax}\nLast paragraph.\n" if lang == "en" else
            f"第一段。\n\n{syntax}\n最后一段。\n")
    with captured() as warned:
        html(tmp_path, body, lang=lang)
    return [w for w in warned if "published as typed" in w and what in w
            and f"index.md:{BODY_START + 2}: warning:" in w]


@pytest.mark.parametrize("syntax, what, name", [
    (syntax, what, name) for (syntax, what), name in zip(OTHER_TOOLS_SYNTAX, OTHER_TOOLS_IDS,
                                                         strict=True)], ids=OTHER_TOOLS_IDS)
def test_other_tools_syntax_right_after_or_before_chinese_text_warns_at_its_line(
        tmp_path: Path, syntax: str, what: str, name: str) -> None:
    """A rule that wants no word character before or after the syntax (`(?<!\\w)`,
    `\\b`, a space) left it untold after a Chinese character, a word character to Python's
    regex: '第三行@fig-x', '这是//斜体//', '按++ctrl+k++' were published as typed with no
    word. Each sample, its syntax (as its English warning quotes it) moved right after a
    Chinese character or a full-width comma (in place of the space before it, or before it
    at a line's start) and right before one or a full-width stop, is told in a Chinese
    article wherever the English one is told with a word and a space there."""
    got = _told(tmp_path, syntax, what, "en")
    quoted = re.search(r"published as typed \('(.*?)'\); write|inline code '(.*?)'",
                       got[0]) if got else None
    assert quoted, got
    shown = quoted.group(1) or quoted.group(2)
    whole = not shown.endswith("\u2026")             # shortened: its end is not known
    found = re.search(r"\s+".join(map(re.escape, shown.rstrip("\u2026").split())), syntax)
    if not found:          # quoted without its markup ('?> Tip' of '?> **Tip**'): its start
        whole, found = False, re.search(re.escape(shown.split()[0]), syntax)
    assert found, (shown, syntax)
    i, j = found.span()
    variants = []
    if (i == 0 or syntax[i - 1] in " \n") and (name, "before") not in _OWN_SPACE and \
            _told(tmp_path, f"{syntax[:i]}word {syntax[i:]}", what, "en"):
        glued = syntax[:i - 1] if i and syntax[i - 1] == " " else syntax[:i]
        variants += [glued + mark + syntax[i:]
                     for mark in ("中", "，") if mark == "，" or name not in _BOUNDED]
    if whole and (j == len(syntax) or syntax[j] in " \n") and (name, "after") not in \
            _OWN_SPACE and _told(tmp_path, f"{syntax[:j]} word{syntax[j:]}", what, "en"):
        rest = syntax[j + 1:] if syntax[j:j + 1] == " " else syntax[j:]
        variants += [syntax[:j] + mark + rest
                     for mark in ("文", "。") if mark == "。" or name not in _BOUNDED]
    untold = [v for v in variants if not _told(tmp_path, v, what, "zh")]
    assert not untold, untold


@pytest.mark.parametrize("text, told", [
    ("用/Adam 优化器和 SGD/ 训练。\n", 0), ("这是/斜体 的字/。\n", 0), ("令=x 和 y=为零。\n", 0),
    ("如@fig-attention所示。\n", 0), ("见文献@vaswani2017。\n", 0), ("脚注[#f1]_在此。\n", 0),
    ("替换|name|_在此。\n", 0), ("角色:math:`x`在此。\n", 0),
    ("单行注释以//开头，而网址以http://开头。\n", 0), ("按^C终止程序。\n", 0),
    ("公式stem:[x+y]与 system:[a]。\n", 1)])
def test_other_tools_syntax_its_tool_does_not_take_after_chinese_text_stays_quiet(
        tmp_path: Path, text: str, told: int) -> None:
    """The rules told after a Chinese character are those whose tool takes the syntax there
    (DokuWiki, pymdown, AsciiDoc's macros, Reddit, bookdown). org-mode's emphasis wants a
    space or one of -('"{ before it, reStructuredText's markup a space or punctuation,
    Pandoc's citation (Quarto's cross-reference) no text right before '@': after a Chinese
    character each is text in its own tool, as on this page, and Chinese prose with a '/' or
    '=' ('\u7528/Adam \u2026 SGD/') was told as org-mode's italic (fails before: 9 of these
    were told, the Chinese prose about comments '\u4ee5//\u2026http://' as DokuWiki's
    italic, which DokuWiki does not close at an address's '//', and Ctrl-C written '^C'
    as a Reddit superscript). The last is an AsciiDoc formula, told once: its 'system:' is
    no opener"""
    with captured() as warned:
        html(tmp_path, "第一段。\n\n" + text, lang="zh")
    got = [w for w in warned if "published as typed" in w]
    assert len(got) == told, got


@pytest.mark.parametrize("text", ["Write to someone2017@example.org today.\n",
                                  "Follow @karpathy for more.\n", "See @2017 here.\n"])
def test_an_at_sign_that_is_no_citation_stays_quiet(tmp_path: Path, text: str) -> None:
    with captured() as warned:
        html(tmp_path, text)
    assert not [w for w in warned if "citation" in w], warned


@pytest.mark.parametrize("lang, text, told", [
    # a credits list: each item opens with the handle credited for something
    ("en", "## Thanks {#thanks}\n\n* @donno2048 for the fix\n* @ann1985, @bo2000 for the reports\n", 0),
    # a thanks that lists handles, in Chinese and in English: every handle of the list
    ("zh", "\u611f\u8c22 @a \u548c @b2000\u3002\n", 0),
    ("zh", "\u611f\u8c22@ann1985\u3001@bo2000\u4e0e@cy1999\u7684\u62a5\u544a\u3002\n", 0),
    ("en", "Thanks @a and @bo2000 for the report.\n", 0),
    # real citations beside them stay told: a reading list's item, a bracketed one, one in
    # running text, and two joined by '\u548c' in Chinese prose without a thanks
    ("en", "* @vaswani2017 says the scores grow.\n* See [@bahdanau2015].\n", 2),
    ("en", "As @vaswani2017 says, thanks to scaling.\n", 1),
    ("zh", "\u5982 @vaswani2017 \u548c @devlin2019 \u6240\u793a\u3002\n", 2),
], ids=["credits list", "chinese thanks with and", "chinese thanks list", "english thanks",
        "reading list", "citation before thanks", "chinese citations"])
def test_a_credit_to_a_github_user_is_no_citation_but_a_citation_stays_told(
        tmp_path: Path, lang: str, text: str, told: int) -> None:
    """A credit opening a list item, '* @donno2048 for the fix', and the second handle of a
    Chinese thanks, '\u611f\u8c22 @a \u548c @b2000', were told as Pandoc's in-text citations
    (a key that reads as a name with a year): a handle is credited when a thanks opens its
    list of handles, or when the list opens its line and 'for' what follows it; a citation
    in a reading list, in brackets or in running text is still told, once each."""
    with captured() as warned:
        html(tmp_path, "Intro.\n\n" + text, lang=lang)
    got = [w for w in warned if "citation" in w]
    assert len(got) == told, got


@pytest.mark.parametrize("text, lines", [
    ("The scaling follows the model of\n@vaswani2017 for the base model.\n", [1]),
    ("@vaswani2017 for the base model, and @devlin2019 for the encoder.\n", [0, 0]),
    ("- The scaling is old, as in\n  @vaswani2017 for the base model.\n", [1]),
    ("> @vaswani2017 for the base model.\n", [0]),
    ("* @donno2048 for the fix\n* @ann1985 and @bo2000 for the docs\n", []),
    ("1. @donno2048 for the fix\n\n2. @ann1985 for the docs\n", []),
], ids=["wrapped line", "paragraph", "item's wrapped line", "quote", "credits", "loose list"])
def test_a_citation_opening_a_line_of_prose_before_for_is_told(
        tmp_path: Path, text: str, lines: list[int]) -> None:
    """34d544f passed over a list of handles opening any line before 'for' (a credits
    list's item, '* @donno2048 for the fix'): prose wrapped before a citation, or a
    paragraph opening with one ('@vaswani2017 for the base model'), was published as typed
    with no word. The credit's form is now one only where it opens a list item."""
    with captured() as warned:
        html(tmp_path, "Intro.\n\n" + text)
    got = [w for w in warned if "in-text citation" in w]
    at = [int(w.split(": warning")[0].rsplit(":", 1)[1]) - BODY_START - 2 for w in got]
    assert at == lines, got


def test_a_kramdown_comment_is_told_as_kramdown_at_its_line(tmp_path: Path) -> None:
    """`{::comment}` … `{:/comment}`: its end, at the paragraph's end, was read as an
    attribute list and told as "'{_comment}' … is not an attribute", a name the author
    never wrote."""
    with pytest.raises(BuildError) as e:
        html(tmp_path, "Intro.\n\n{::comment}\nA hidden remark.\n{:/comment}\n")
    assert e.value.line == BODY_START + 4, str(e.value)
    assert "kramdown's (Jekyll's) extension" in e.value.message and "<!--" in e.value.message
    assert "_comment" not in e.value.message, str(e.value)


@pytest.mark.parametrize("fence", ["```rust\n{{#rustdoc_include ../listings/scale.rs:here}}\n```",
                                   "~~~console\n{{#include ../listings/output.txt}}\n~~~"])
def test_an_mdbook_directive_as_the_code_of_a_fence_warns_at_its_line(tmp_path: Path,
                                                                     fence: str) -> None:
    """The Rust book's listings are fences holding mdBook's `{{#rustdoc_include …}}`, which
    its preprocessor replaces with a file's lines: here and on GitHub the directive itself was
    published as the code, with no word."""
    with captured() as warned:
        html(tmp_path, "The program:\n\n" + fence + "\n\nEnd.\n")
    got = [w for w in warned if "mdBook's directive" in w]
    assert len(got) == 1 and f"index.md:{BODY_START + 3}:" in got[0], warned


@pytest.mark.parametrize("line, what", [
    ("@[code](../snippets/scale.py)", "including a file"),
    ("@[code{2-3} python](../snippets/scale.py)", "including a file"),
    ("@[include](./part.md)", "including a file"),
    ("@[youtube](abcdefghijk)", "video embed"),
])
def test_a_markdown_it_plugin_s_embed_warns_at_its_line(tmp_path: Path, line: str,
                                                       what: str) -> None:
    """VuePress' and VitePress' code import '@[code](path)' (and markdown-it's include and
    video embeds) was published as '@' and a link to the file, here and on GitHub, with no
    word; it is now a warning at its line. An '@' before an ordinary link, or a link whose
    text is 'code' with no '@', stays quiet."""
    quiet = "Mail me @[home](https://example.org/) or see [code](x.py).\n\n"
    with captured() as warned:
        html(tmp_path, quiet + line + "\n")
    got = [w for w in warned if "markdown-it plugin" in w]
    assert len(got) == 1 and f"index.md:{BODY_START + 2}:" in got[0] and what in got[0], \
        warned


@pytest.mark.parametrize("fence, line", [
    ('```cpp\n--8<-- "docs/code/scale.cpp"\n```', 3),
    ("```python\n# the helper:\n--8<-- 'snippets/softmax.py'\n```", 4),
    ("```text\n--8<--\nnotes/a.txt\n--8<--\n```", 3),
])
def test_a_snippets_line_as_the_code_of_a_fence_warns_at_its_line(tmp_path: Path, fence: str,
                                                                  line: int) -> None:
    """OI-wiki's listings are fences holding pymdown's Snippets line, `--8<-- "path"`, which
    MkDocs replaces with that file's lines, inside a fence too: here and on GitHub the line
    itself was published as the code, with no word (told only outside a fence); scissors
    and arrows in code above it are no such line."""
    quiet = "Scissors:\n\n```text\n-- >8 --\nx --8<y\n--8<--x\n```\n\n"      # 8 lines
    with captured() as warned:
        html(tmp_path, quiet + "The program:\n\n" + fence + "\n\nEnd.\n")
    got = [w for w in warned if "Snippets" in w]
    assert got and f"index.md:{BODY_START + 8 + line}:" in got[0], warned


def test_a_quote_starting_with_an_exclamation_mark_after_a_space_is_no_spoiler(
        tmp_path: Path) -> None:
    with captured() as warned:
        html(tmp_path, "> ! Not a spoiler, a quote.\n")
    assert not [w for w in warned if "spoiler" in w], warned


def test_an_obsidian_embed_right_after_a_quote_s_mark_is_no_spoiler(tmp_path: Path) -> None:
    """An Obsidian note's picture in a quote written right after its '>' (a real Obsidian
    vault's `>![[query.png|400]]` under a callout) was told as LessWrong's spoiler '>!',
    'write the words themselves, or a box that hides them'; it is told as the embed it is."""
    with captured() as warned:
        html(tmp_path, "Intro.\n\n>![[scores.png|400]]\n\nEnd.\n")
    assert not [w for w in warned if "spoiler" in w], warned
    embeds = [w for w in warned if "Obsidian (wiki) link or embed" in w]
    assert len(embeds) == 1 and f"index.md:{BODY_START + 2}:" in embeds[0], warned


@pytest.mark.parametrize("text", ["&gt; Why sqrt and not d_k?\n\nBecause.\n",
                                  "A reply:\n&gt; quoted words\n",
                                  "&#62; Why sqrt?\n"])
def test_a_quote_escaped_as_html_warns_at_its_line(tmp_path: Path, text: str) -> None:
    """Reddit's and Hacker News's pages hold a quote as `&gt; …`: shown as '>' and text
    here and on GitHub, where a quote was meant, with no word."""
    with captured() as warned:
        html(tmp_path, text)
    got = [w for w in warned if "escaped as HTML" in w]
    line = BODY_START + text.split("&")[0].count("\n")
    assert len(got) == 1 and f"index.md:{line}: warning:" in got[0], warned


@pytest.mark.parametrize("text", ["a &gt; b here.\n", "`&gt; code`\n", "> a real quote\n",
                                  "&amp;gt; typed\n"])
def test_a_greater_than_sign_of_text_is_no_escaped_quote(tmp_path: Path, text: str) -> None:
    with captured() as warned:
        html(tmp_path, text)
    assert not [w for w in warned if "escaped as HTML" in w], warned


@pytest.mark.parametrize("text", ["The variance is d_k/c^2 here.\n",
                                  "It grows as O(n^(1/2)) steps.\n",
                                  "Press ^C to stop.\n", "A caret ^ alone.\n"])
def test_a_caret_of_plain_text_is_no_reddit_superscript(tmp_path: Path, text: str) -> None:
    with captured() as warned:
        html(tmp_path, text)
    assert not [w for w in warned if "superscript" in w], warned


@pytest.mark.parametrize("text, link", [
    ("The scaling follows `Vaswani et al. (2017) <https://arxiv.org/abs/1706.03762>`_, "
     "section 3.2.1, and PyTorch's |sdpa|_.\n",
     "[Vaswani et al. (2017)](https://arxiv.org/abs/1706.03762)"),
    ("See `the paper <https://arxiv.org/abs/1706.03762>`__ here.\n",
     "[the paper](https://arxiv.org/abs/1706.03762)"),
    ("- See `Attention`_ for more.\n", "[Attention](address)"),
])
def test_a_restructuredtext_link_warns_at_its_line_with_the_link_to_write(
        tmp_path: Path, text: str, link: str) -> None:
    """reStructuredText's link `` `text <address>`_ `` was code and an underscore, which
    opened emphasis up to a later '_' (here and on GitHub): the address shown as code, the
    rest of the sentence in italics, with no word."""
    with captured() as warned:
        html(tmp_path, "Intro.\n\n" + text)
    got = [w for w in warned if "reStructuredText link" in w]
    assert len(got) == 1 and f"index.md:{BODY_START + 2}: warning:" in got[0], warned
    assert got[0].endswith(f"write {link}"), got


@pytest.mark.parametrize("text, close", [
    ("hey team, why sqrt? :thinking_face:\n", ":thinking:"),
    ("Thanks! :slightly_smiling_face: and :not_an_emoji_at_all: here.\n", ""),
])
def test_a_shortcode_of_no_github_emoji_warns_at_its_line(tmp_path: Path, text: str,
                                                          close: str) -> None:
    """Slack's and Discord's emoji names that GitHub's list lacks (`:thinking_face:`) were
    shown as typed, here and on GitHub, with no word; now a warning at the line naming
    GitHub's closest names (`:slightly_smiling_face:` is on GitHub's list: no warning)."""
    with captured() as warned:
        out = html(tmp_path, "Intro.\n\n" + text)
    got = [w for w in warned if "names no emoji" in w]
    assert len(got) == 1 and f"index.md:{BODY_START + 2}: warning:" in got[0], warned
    assert close in got[0] and "\U0001f642" in out if "slightly" in text else close in got[0]


@pytest.mark.parametrize("code", [":shipit:", ":octocat:", ":squirrel:", ":trollface:"])
def test_github_s_picture_emoji_is_told_as_github_s(tmp_path: Path, code: str) -> None:
    """GitHub's own emoji that have no character (`:shipit:`, `:octocat:`: GitHub draws a
    picture) were told to name 'no emoji of GitHub's list', 'shown as typed, here and on
    GitHub', and :shipit: to be GitHub's closest ':shit:'. The warning says GitHub shows a
    picture the page cannot, and suggests no other name."""
    with captured() as warned:
        out = html(tmp_path, f"Intro.\n\nShip it {code} today.\n")
    got = [w for w in warned if code in w]
    assert len(got) == 1 and f"index.md:{BODY_START + 2}: warning:" in got[0], warned
    assert "picture" in got[0] and "here and on GitHub" not in got[0], got
    assert "closest" not in got[0], got
    assert code in out


@pytest.mark.parametrize("text, role, advice", [
    ("## Scoring {#scoring}\n:label:`sec_scoring`\n\nWords.\n", ":label:", "{#id}"),
    ("$$ a = q^\\top k.$$\n:eqlabel:`eq_dot`\n", ":eqlabel:", "\\tag{1}"),
    ("As in Transformers :cite:`Vaswani.2017`.\n", ":cite:", "footnote"),
    ("The :key:`q` of it.\n", ":key:", "a link"),
    ("As {cite:t}`kihlstrom1984` argues.\n", "{cite:t}", "footnote"),
    ("![The EC2 panel.](https://example.org/ec2.png)\n:width:`700px`\n", ":width:",
     "sizes"),
], ids=["label", "eqlabel", "cite", "emoji name", "cite:t", "width"])
def test_a_role_whose_name_is_an_emoji_is_told_and_each_role_its_own_advice(
        tmp_path: Path, text: str, role: str, advice: str) -> None:
    """d2l's ':label:`sec_x`' under a heading was shown as the emoji \U0001f3f7\ufe0f and
    the name as code (':label:' is a GitHub shortcode), with no word; a role whose name is
    an emoji is now a role, told at its line as ':numref:' is (and nothing more: the GitHub
    comparison reads it as the page does). ':eqlabel:', ':cite:' and MyST's textual
    citation '{cite:t}`key`' were told to write a link; a label is told to give its heading an
    id or its formula a tag, a citation the reference in words or a footnote."""
    with captured() as warned:
        out = html(tmp_path, "Intro.\n\n" + text)
    got = [w for w in warned if "Sphinx or MyST role" in w]
    assert len(got) == 1 == len(warned) and f"'{role}`…`'" in got[0], warned
    assert advice in got[0], got
    assert role in out and "\U0001f3f7" not in out and "\U0001f511" not in out, out


def test_two_single_quotes_each_side_are_told_as_italic_or_a_quotation(
        tmp_path: Path) -> None:
    """A lecture's "a ''probability distribution''" (quotes typed as in TeX, shown curled as
    two single quotes a side) was told only as MediaWiki's italic, to write *…*; the advice
    now names the quotation too."""
    with captured() as warned:
        html(tmp_path, "Intro.\n\nThe concept of a ''probability distribution'' here.\n")
    assert len(warned) == 1 and f"index.md:{BODY_START + 2}: warning:" in warned[0], warned
    assert warned[0].endswith("write *…* for italic words, or \"…\" for a quotation "
                              "(TeX's quotes)"), warned


@pytest.mark.parametrize("text", [
    "> youtube: https://youtu.be/XfoYk_Z5AkI\n",
    "> twitter: https://twitter.com/jakevdp/status/1204765621767901185?s=20\n",
    "> YouTube: <https://youtu.be/XfoYk_Z5AkI>\n",
])
def test_a_fastpages_embed_is_told_at_its_line(tmp_path: Path, text: str) -> None:
    """fastpages' (nbdev's) '> youtube: https://…' embeds the video there; here and on
    GitHub it was a quote of 'youtube:' and a link, with no word."""
    with captured() as warned:
        html(tmp_path, "Intro.\n\n" + text)
    assert len(warned) == 1 and f"index.md:{BODY_START + 2}: warning:" in warned[0], warned
    assert "fastpages' (nbdev's) embed" in warned[0] and "[its title]" in warned[0], warned


@pytest.mark.parametrize("text", [
    "> youtube: the channel we like.\n", "YouTube: https://youtu.be/XfoYk_Z5AkI\n",
])
def test_a_quote_about_youtube_is_no_fastpages_embed(tmp_path: Path, text: str) -> None:
    with captured() as warned:
        html(tmp_path, "Intro.\n\n" + text)
    assert not [w for w in warned if "fastpages" in w], warned


@pytest.mark.parametrize("text, tag", [
    ("<center><h1>The Annotated Transformer</h1> </center>\n", "h1"),
    ('<div align="center">\n<h3>Table of Contents</h3>\n</div>\n', "h3"),
])
def test_a_heading_in_raw_html_is_told_at_its_line(tmp_path: Path, text: str, tag: str) -> None:
    """The annotated transformer's '<center><h1>The Annotated Transformer</h1></center>' was
    a second title on the page, left out of its contents and with no id, with no word (a
    '#' heading there is refused); a heading element in raw HTML is now told at its line."""
    with captured() as warned:
        out = html(tmp_path, "Intro.\n\n" + text + "\nText.\n")
    got = [w for w in warned if f"<{tag}> in a block of raw HTML" in w]
    line = BODY_START + 2 + text.split("\n").index(next(x for x in text.split("\n")
                                                       if f"<{tag}>" in x))
    assert len(got) == 1 and f"index.md:{line}: warning:" in got[0], warned
    assert ("second title" in got[0]) == (tag == "h1"), got
    assert f"<{tag}>" in out


def test_a_heading_tag_in_code_or_text_is_no_raw_heading(tmp_path: Path) -> None:
    with captured() as warned:
        html(tmp_path, "Intro.\n\n```html\n<h1>Title</h1>\n```\n\nWrite `<h2>` tags.\n")
    assert not [w for w in warned if "block of raw HTML" in w], warned


@pytest.mark.parametrize("text, quoted, advice", [
    ("::: {.callout-note}\nA note.\n:::\n", "('::: {.callout-note}')", "/// details | Note"),
    ("::: {#fig-descent}\n\nGradient descent, illustrated\n:::\n",
     "('::: {#fig-descent}')", "the figure as a paragraph of its own"),
])
def test_a_pandoc_div_is_quoted_whole_and_a_figure_div_told_as_a_figure(
        tmp_path: Path, text: str, quoted: str, advice: str) -> None:
    """A Pandoc (Quarto) div's opening line was quoted cut at its brace ('::: {',
    '::: {.callout-note'), and Quarto's figure div, '::: {#fig-descent}' (a real course's
    figure and its caption), was told to be a box; the line is quoted whole, and a figure
    div is told to be a figure."""
    with captured() as warned:
        html(tmp_path, "Intro.\n\n" + text)
    got = [w for w in warned if "':::' container" in w]
    assert len(got) == 1 and quoted in got[0] and advice in got[0], warned


def test_a_d2l_tab_is_told_once_at_each_marker_as_d2l_s(tmp_path: Path) -> None:
    """d2l's framework tab, ':begin_tab:`pytorch`', its text, ':end_tab:', was told as a
    Sphinx role to write a link and its end as an emoji name GitHub lacks (write the emoji
    itself); each marker is now told as d2l's tab: keep one framework's text alone."""
    with captured() as warned:
        html(tmp_path, "Intro.\n\n:begin_tab:`pytorch`\n[Discussions](https://d2l.ai/t/1)"
                       "\n:end_tab:\n")
    assert len(warned) == 2, warned
    assert all("one framework alone" in w for w in warned), warned
    assert [w.split(": warning:")[0].rsplit(":", 1)[1] for w in warned] == \
        [str(BODY_START + 2), str(BODY_START + 4)], warned


@pytest.mark.parametrize("text", [
    ":param q: the query, a vector.\n", "See :class:`Attention` and :func:`sdpa`.\n",
    "The ratio 1:2:3 at 10:30:00.\n", ":toc: left\n", "A :smile: and :+1: here.\n",
])
def test_a_colon_word_that_is_no_shortcode_stays_quiet(tmp_path: Path, text: str) -> None:
    with captured() as warned:
        html(tmp_path, text)
    assert not [w for w in warned if "names no emoji" in w], warned


@pytest.mark.parametrize("text, meant", [
    ("**Observation: ** the unscaled SD grows.\n", "'**Observation:** '"),
    ("The SD grows like √d, **not **like d.\n", "'**not** '"),
    ("The ** scaled** column.\n", "'**scaled**'"),
])
def test_bold_with_a_space_inside_its_marks_warns_at_its_line(tmp_path: Path, text: str,
                                                              meant: str) -> None:
    """Google Docs' Markdown export writes bold text that ends in a space as `**text **`:
    no bold here nor on GitHub, the asterisks shown, with no word."""
    with captured() as warned:
        out = html(tmp_path, "Intro.\n\n" + text)
    got = [w for w in warned if "is no bold" in w]
    assert len(got) == 1 and f"index.md:{BODY_START + 2}: warning:" in got[0], warned
    assert f"write {meant}" in got[0] and "<strong>" not in out, got


@pytest.mark.parametrize("text", ["2 ** 10 ** 3 pairs.\n", "**fine** and __fine__.\n",
                                  "a**b** c\n", "x ** 2\n"])
def test_asterisks_of_plain_text_are_no_spaced_bold(tmp_path: Path, text: str) -> None:
    with captured() as warned:
        html(tmp_path, text)
    assert not [w for w in warned if "is no bold" in w], warned


@pytest.mark.parametrize("text, line", [
    (">>> from the paper: we suspect the dot products grow large.\n", 0),
    ("An example:\n\n>>> import torch\n>>> torch.randn(3)\n", 2),
])
def test_a_line_starting_with_three_quote_marks_warns_once_at_its_line(
        tmp_path: Path, text: str, line: int) -> None:
    """Slack's `>>>` (a quote of every line below) and Python's prompt `>>> ` are three
    quotes nested, here and on GitHub, with no word; one warning, not one per level."""
    with captured() as warned:
        html(tmp_path, text)
    got = [w for w in warned if "starts three quotes" in w]
    assert len(got) == 1 and f"index.md:{BODY_START + line}: warning:" in got[0], warned


@pytest.mark.parametrize("text, said", [
    ("#+TITLE: Why attention divides by sqrt(d_k)\n", "'#+TITLE' is an org-mode keyword line"),
    ("#+OPTIONS: toc:nil num:nil\n", "remove the line"),
    ("#+BEGIN_SRC python\nx = 1\n#+END_SRC\n", "org-mode block, whose lines this Markdown"),
    ("#+BEGIN_QUOTE\nWe suspect that…\n#+END_QUOTE\n", "'> ' at the start of each"),
    ("- a list\n- #[[open question]] does it hold?\n", "for a literal #, write '\\#[[open'"),
    ("1. #tag here\n", "for a literal #, write '\\#tag'"),
    # a section heading of a Chinese note written for kramdown or Typora, which take it
    ("#一、概述\n\n正文。\n", "for a section heading, write '## 一、概述 {#some-id}'"),
    ("#1. git 简介\n\n正文。\n", "for a section heading, write '## 1. git 简介 {#some-id}'"),
])
def test_a_heading_of_org_keywords_or_a_hashtag_in_a_list_says_what_was_meant(
        tmp_path: Path, text: str, said: str) -> None:
    """Org-mode's `#+TITLE:` and `#+BEGIN_SRC python` lines (level-1 headings here, text on
    GitHub) were told to be written '\\#+TITLE:', and a Logseq tag `- #[[open question]]` in a
    list item was told to be a heading '## [[open question]] … {#some-id}': the error names
    the org-mode line and what to write for it, and the hashtag as a hashtag."""
    e = error(tmp_path, "Intro.\n\n" + text)
    assert e.line == BODY_START + 2 + text.split("#")[0].count("\n"), str(e)
    assert said in e.message, str(e)


def test_a_jupytext_script_is_told_at_its_first_cell_marker(tmp_path: Path) -> None:
    """A jupytext percent-format script pasted whole (`# %% [markdown]`, then '# ' comment
    lines) was told "'$$' inside a line ('$$# p_j = … #$$')" with an inline formula to write
    that held the '#'s, or a level-1 heading per line: now its first cell marker, saying what
    the file is. A '# %%' inside a code fence is code."""
    body = ("# %% [markdown]\n# ## Why divide {#why}\n#\n# $$\n# p_j = e^{s_j}\n# $$\n\n"
            "# %%\nimport numpy as np\n")
    e = error(tmp_path, "Intro.\n\n```python\n# %%\nx = 1\n```\n\n" + body)
    assert e.line == BODY_START + 7 and "jupytext" in e.message, str(e)
    html(tmp_path, "Intro.\n\n```python\n# %%\nx = 1\n```\n")


def test_an_asciidoc_comment_block_is_told_as_one(tmp_path: Path) -> None:
    """AsciiDoc's comment block, `////` … `////`, was told "'////' closes no box; remove
    it, or open the box with '/// details | Title'"."""
    e = error(tmp_path, "Intro.\n\n////\nA remark to remove.\n////\n")
    assert e.line == BODY_START + 2 and "AsciiDoc's comment block" in e.message, str(e)
    assert "<!-- … -->" in e.message, str(e)


def test_a_picture_embedded_as_data_is_told_shortly_as_google_docs_writes_it(
        tmp_path: Path) -> None:
    """Google Docs' Markdown export embeds each picture as a data: address of its bytes; the
    error quoted the whole address (tens of kilobytes on one line): now its start and end,
    and what the reference is."""
    data = "data:image/png;base64," + "iVBORw0KGgo" + "A" * 5000
    e = error(tmp_path, f"Intro.\n\n![][image1]\n\n[image1]: <{data}>\n")
    assert e.line == BODY_START + 2 and "Google Docs" in e.message, str(e)
    assert len(str(e)) < 800, len(str(e))


@pytest.mark.parametrize("text, mark", [
    ("<center><font color=red>**Original, please credit**</font></center>\n", "bold"),
    ('<div align="center">\n  See [the paper](https://arxiv.org/abs/1706.03762).\n</div>\n',
     "a link"),
    ("<div>\n  The **scaled_dot** product.\n</div>\n", "bold"),
    ('<div>\n  See [the paper](https://arxiv.org/abs/1706.03762 "Vaswani").\n</div>\n', "a link"),
])
def test_markdown_inside_a_block_of_raw_html_warns_at_its_line(tmp_path: Path, text: str,
                                                               mark: str) -> None:
    """A cnblogs or CSDN post's `<center><font …>**…**</font></center>` showed its asterisks,
    here and on GitHub, with no word: Markdown is not read inside a block of raw HTML."""
    with captured() as warned:
        html(tmp_path, "Intro.\n\n" + text)
    got = [w for w in warned if "inside a block of raw HTML" in w]
    line = BODY_START + 2 + text.split("\n").index(next(x for x in text.split("\n")
                                                       if "**" in x or "](" in x))
    assert len(got) == 1 and f"index.md:{line}: warning:" in got[0], warned
    assert f"HTML for {mark}" in got[0], got


@pytest.mark.parametrize("text", ["<pre>def f(**kwargs): pass</pre>\n",
                                  "Some **bold** and <span>**this**</span> text.\n",
                                  "<div>\n<code>a**b**c</code>\n</div>\n",
                                  "<div>\nThe norm x**2 + y**2 and 2**10.\n</div>\n",
                                  "<div>\nIn the my__init__file name.\n</div>\n"])
def test_markdown_marks_read_as_markdown_or_in_code_stay_quiet(tmp_path: Path,
                                                               text: str) -> None:
    """Python's power ('x**2 + y**2') and a name's inner '__' were told as bold inside raw
    HTML, which Markdown does not read as bold anywhere (no '**' or '__' pair inside a word
    here: the marks the title checks read, markup.MARKDOWN_MARKS)."""
    with captured() as warned:
        html(tmp_path, text)
    assert not [w for w in warned if "raw HTML" in w], warned


@pytest.mark.parametrize("text, warned", [
    ("Example::\n\n    >>> import torch\n    >>> torch.randn(3)\n", True),
    ("The same in a code block::\n\n```python\nx = 1\n```\n", True),
    ("The ratio a::b here::\n\nA paragraph.\n", False),
    ("A container:::\n\n    code\n", False),
])
def test_a_restructuredtext_literal_marker_above_code_warns_at_its_line(
        tmp_path: Path, text: str, warned: bool) -> None:
    """reStructuredText's `Example::` over indented code (shown as 'Example:' there) showed
    its '::', here and on GitHub, with no word."""
    with captured() as said:
        html(tmp_path, "Intro.\n\n" + text)
    got = [w for w in said if "marker of the literal block" in w]
    assert len(got) == warned and all(f"index.md:{BODY_START + 2}: warning:" in g
                                      for g in got), said


def test_three_levels_of_quotes_written_apart_stay_quiet(tmp_path: Path) -> None:
    with captured() as warned:
        html(tmp_path, "> > > deep\n")
    assert not [w for w in warned if "three quotes" in w], warned


@pytest.mark.parametrize("text, said", [
    ("See <https://arxiv.org/abs/1706.03762|the paper, §3.2.1> and more.\n", "Slack link"),
    ("See [[https://arxiv.org/abs/1706.03762][the paper]] and [[*Variance][the section]].\n",
     "org-mode link"),
    ("See https://arxiv.org/abs/1706.03762[Vaswani et al.] here.\n", "AsciiDoc link"),
    ("* [https://arxiv.org/abs/1706.03762 The original paper]\n", "MediaWiki external link"),
    ("See [[https://arxiv.org/abs/1706.03762|the paper]] here.\n", "(wiki) link"),
])
def test_another_tools_link_is_told_as_its_own_not_as_a_difference_of_links(
        tmp_path: Path, text: str, said: str) -> None:
    """Slack's `<address|text>` was told 'GitHub ends an address at a space; write each space
    as %20', an org-mode link 'a reference link … add that line', AsciiDoc's 'write
    [https://…\\[Vaswani](…)': advice about the two readings' links for a link of another
    tool, which neither reads; now only that tool's link is told, with what to write."""
    with captured() as warned:
        html(tmp_path, text)
    assert warned and all(said in w for w in warned), warned


@pytest.mark.parametrize("text", [
    "Set a = b, x=1 and y == z here.\n", "Run with --lr=3e-4 --wd=0.1 now.\n",
    "Paths like /usr/bin/ and /etc/hosts.\n", "It runs at 10 km/h or 3 m/s, and/or w/o.\n",
    "The C++ std::vector and a::b types.\n", "It costs (1) and ((2)) here.\n",
    "Use x << y >> z and <<EOF lines.\n", "An '' empty pair and it's the '90s.\n",
    "Write \"'quoted'\" words.\n", "The ratio is 1/√d_k / 2 here.\n",
    "Use a||b or a || b in C.\n", "| a | b |\n|---|---|\n| 1 || 2 |\n",
    "The norms ||q - k|| and ||W_Q|| grow.\n",
    "Products a*b*c and x_i_j stay, and ||x|| too.\n",
    "The heading tag h2. is named inside a sentence.\n",
    "The C++ std::vector and a::b, and x[::2] slices.\n",
    "Addresses https://example.org//a// and a // b // c.\n",
    "A share of 50% and 10%.\n",
    "See [1] and x[i] and [b] alone.\n", "A set {a, b}, a {note} alone and {x: 1}.\n",
    "Quote \"x\": then.\n", "A ``code span`` here.\n", "What now???\n", "Yes -- no.\n",
    "A function f((x)) and g((a, b)) here, and ((2 + 3)).\n",
    "Both C++ and C++17 work, i++ and j++ too.\n",
    "Use ++i or i++ here.\n", "First ++count is done, then count++ again.\n",
    "Write ++x_1 or y++ and ++arr[i] or j++.\n", "Ranges $a$~$b$ and $3$~5 here.\n", "The power 2^ 3 ^ 4.\n",
    # a brace opening words, its '}' on the next line: no attribute list that lost its '}'
    "The selector {.note is what we match.\n",
    "Pass the options as {lr=3e-4, wd=0.1,\nwarmup=100} to it.\n",
    "\u9009\u62e9\u5668 {.note \u5339\u914d\u8fd9\u4e9b\u6bb5\u843d\u3002\n",
])
def test_text_like_other_tools_syntax_stays_quiet(tmp_path: Path, text: str) -> None:
    """Nothing of plain text is taken for org-mode's `=code=` or `/italic/`, Logseq's
    properties or block references, AsciiDoc's cross-references, Discord's spoiler or
    MediaWiki's quotes."""
    with captured() as warned:
        html(tmp_path, text)
    assert not [w for w in warned if "published as typed" in w], warned


@pytest.mark.parametrize("text", [
    "```python\n'''Attention scores.'''\ndef f():\n    '''Return 1.'''\n```\n",
    "Code: `'''doc'''` and ``x = '''a'''`` here.\n",
], ids=["docstrings in a fence", "docstrings in inline code"])
def test_python_docstring_quotes_in_code_are_no_mediawiki_bold(tmp_path: Path,
                                                                text: str) -> None:
    """Python's docstring quotes inside a fenced code block (datawhalechina/happy-llm's
    attention code) were told as MediaWiki's bold, quoting the code block's HTML as what
    was typed: smarty's quotes are read from Markdown's stash, and every stashed piece of
    HTML (a code block, inline code, an HTML tag) was read character by character."""
    with captured() as warned:
        html(tmp_path, text)
    assert not [w for w in warned if "MediaWiki" in w], warned


@pytest.mark.parametrize("text", [
    "A quotation.\n\n-- [The Source](https://example.org/s)\n",
    "A quotation.\n\n-- *Someone*\n", "A quotation.\n\n-- `someone`\n",
    "A line\n--[link](#a) and text\n",
], ids=["dashes before a link", "dashes before emphasis", "dashes before code",
        "dashes against a link"])
def test_a_line_mark_of_another_tool_before_an_element_on_its_line_stays_quiet(
        tmp_path: Path, text: str) -> None:
    """Another tool's mark that must stand alone on its line (a slide deck's '--' or
    '???') was looked for in each piece of text between inline elements, whose end a '$'
    took for the line's: the attribution of a quotation, '-- ' before a link
    (ruanyf/weekly's), was told as a slide deck's marker, 'remove the line', the link
    with it. Alone on its line it is still told (OTHER_TOOLS)."""
    with captured() as warned:
        html(tmp_path, text)
    assert not [w for w in warned if "published as typed" in w], warned


@pytest.mark.parametrize("text", [
    "\u4e2d\u6587~\u6587\u5b57\u3002~[\u94fe\u63a5](#a)\n",
    "\u4e2d\u6587~\u6587\u5b57\u3002~`code`\n",
    "\u5927\u7ea6 3~5 \u4e2a\u3002~[\u94fe\u63a5](#a)\n",
], ids=["before a link", "before code", "a range's"])
def test_a_strikethrough_closed_before_an_element_on_its_line_is_told(tmp_path: Path,
                                                                       text: str) -> None:
    """A single tilde after a punctuation mark closes GitHub's strikethrough before a link or
    code on its line ('[' and '`' are punctuation marks to it): GitHub strikes the words
    between, here shown as typed. It was told until a slot that more of its line follows
    was matched with an element's edge after it (for the slide markers alone on a line),
    which the closing tilde's lookahead took for a letter."""
    with captured() as warned:
        html(tmp_path, text, lang="zh")
    assert [w for w in warned if "strikethrough '~\u2026~'" in w], warned


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_quotes_of_an_element_inside_inline_html_code_are_shown_as_typed(tmp_path: Path,
                                                                         lang: str) -> None:
    """Markdown is read inside inline HTML's `<code>`: its emphasis or link is an element
    inside the code, whose text, read apart from the `<code>` around it, had its quotes
    curled (GitHub shows them as typed); a paragraph after one whose `<code>` is never
    closed is prose again."""
    body = ('Run <code>a *"b"* [\'c\'](#x) d</code>, "said" then.\n\n'
            'Open <code>x\n\nThen "y" here.\n')
    made = html(tmp_path, body, lang=lang)
    assert '<em>"b"</em>' in made and ">'c'</a>" in made, made
    assert '"said"' not in made and '"y"' not in made, made          # curled or paired


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_quotes_inside_inline_html_code_are_shown_as_typed(tmp_path: Path, lang: str) -> None:
    """Inline HTML's `<code>` (README's form for code holding a pipe in a table), `<kbd>`
    and `<samp>` hold code, shown as typed on GitHub: smarty curled its quotes and made
    '...' an ellipsis (Latin pages), the CJK pages paired its quotes as the prose's
    (`print("hi")` became print(\u201chi\u201d)), and '''doc''' in it was told as
    MediaWiki's bold. The quotes of the prose around are still curled."""
    body = ("| a | b |\n|---|---|\n| <code>print(\"hi\")</code> | <kbd>'x'</kbd> |\n\n"
            "Run <samp>echo \"ok\" ...</samp> and <code>'''doc''' $x$</code>, "
            "\"said\" then.\n")
    with captured() as warned:
        made = html(tmp_path, body, lang=lang)
    assert '<code>print("hi")</code>' in made and "<kbd>'x'</kbd>" in made, made
    assert "<samp>echo \"ok\" ...</samp>" in made and "<code>'''doc''' " in made, made
    assert '"said"' not in made and "said" in made, made          # curled or paired
    assert "math" in made.split("'''doc'''")[1][:200], made
    assert not [w for w in warned if "MediaWiki" in w or "odd number" in w], warned


@pytest.mark.parametrize("text", [
    "The rate is 3 /s and 5 m/ here.\n", "A fraction 1 /n of 2/ here.\n",
    "Per 5 /sec or per km/ too.\n", "So 10 /min or km2/ here.\n",
    "Copy /data or my_runs/ there.\n", "Read /notes.md or the drafts/ folder.\n",
    "Set /home then ~/ and x=/ here.\n",
])
def test_units_and_paths_are_not_taken_for_org_mode_italic(tmp_path: Path, text: str) -> None:
    """Org-mode's italic '/…/' fired on units and paths in prose: '/s and 5 m/' (per second,
    then metres), '/n of 2/', '/min or km2/', '/notes.md or the drafts/'. A one-letter word
    (but 'a', 'I') or a number at either end, a number before the opening '/', and a word
    holding a file's marks ('_', '~', '=', a dot between letters) stay quiet now."""
    with captured() as warned:
        html(tmp_path, text)
    assert not [w for w in warned if "org-mode's italic" in w], warned


@pytest.mark.parametrize("text", ["The /Attention Is All You Need/ paper.\n",
                                  "Read /a note to self/ first.\n",
                                  "The /scale is needed/.\n"])
def test_org_mode_italic_of_words_is_told(tmp_path: Path, text: str) -> None:
    """Words between slashes, which org-mode reads as italic, are told, also when the first
    word is 'a' or 'I'."""
    with captured() as warned:
        html(tmp_path, text)
    assert [w for w in warned if "org-mode's italic" in w], warned


@pytest.mark.parametrize("text", ["The scale ++a note to self++ holds.\n",
                                  "The scale ++I should check++ holds.\n"])
def test_a_ulysses_comment_opening_with_a_or_i_is_told(tmp_path: Path, text: str) -> None:
    """Prose about increments ('++i or i++') stays quiet, so one-letter words do not open
    a comment; but 'a' and 'I' are words, and a comment starting with one is still told."""
    with captured() as warned:
        html(tmp_path, text)
    assert [w for w in warned if "Ulysses comment" in w], warned


@pytest.mark.parametrize("text", ["So the sum\n\n= \\frac{1}{2} + x here.\n",
                                  "The total\n\n= a + b, as shown.\n"])
def test_a_line_of_math_going_on_is_no_asciidoc_title(tmp_path: Path, text: str) -> None:
    """A paragraph going on with '= \\frac{1}{2} …' (an equation's next line, its formula
    marks lost) was told as AsciiDoc's document title; a title holds no TeX or operators."""
    with captured() as warned:
        html(tmp_path, text)
    assert not [w for w in warned if "AsciiDoc document title" in w], warned


def test_a_warning_quoting_an_e_mail_address_shows_it_as_typed(tmp_path: Path) -> None:
    """A strikethrough around an e-mail address ('~~mail alice@example.com now~~') was
    quoted with Markdown's internal '&' placeholder and the address as entities, '~~mail
    \\x02amp\\x03#97;…', MagicLink's hidden e-mail address; it is quoted as typed now."""
    with captured() as warned:
        html(tmp_path, "Text ~~mail alice@example.com now~~ here.\n")
    assert [w for w in warned if "('~~mail alice@example.com now~~')" in w], warned


@pytest.mark.parametrize("text", [
    "Mail [mailto:alice@example.com] or see [ticket|https://x.org/t] now.\n",
    "See [ticket|https://x.org/t] or mail [mailto:alice@example.com] now.\n",
])
def test_foreign_syntax_in_one_slot_and_across_an_edge_are_both_told(tmp_path: Path,
                                                                     text: str) -> None:
    """A Confluence link held in one text slot was told, and then one that spans an element
    (its e-mail address linked) on the same line was not looked for: the second of the two
    was published as typed with no message. Both are told now."""
    with captured() as warned:
        html(tmp_path, text)
    got = [w for w in warned if "Confluence (Jira) link" in w]
    assert len(got) == 2 and all(f"index.md:{BODY_START}: " in w for w in got), warned


@pytest.mark.parametrize(("text", "said", "not_said"), [
    ("Mirror: [url]https://example.com/a[/url] here.\n", "BBCode", "AsciiDoc"),
    ("||d_k||SD raw||SD scaled||\n|64|8.0|1.0|\n", "Confluence (Jira) table", "Discord"),
    ("As Eq.~(1) shows, see Section~2 for more.\n", "LaTeX's tie", "strikethrough"),
    ("See [[https://arxiv.org/abs/1706.03762|the paper]].\n", "", "Confluence"),
])
def test_another_tools_construct_is_told_once_as_its_own(tmp_path: Path, text: str, said: str,
                                                        not_said: str) -> None:
    """A BBCode '[url]https://…[/url]' was told as an AsciiDoc link 'https://…[text]',
    Confluence's table header '||d_k||SD raw||' as a Discord spoiler, LaTeX's ties
    'Eq.~(1) … Section~2' as GitHub's strikethrough: each is now told as its own tool's
    only (and a DokuWiki link '[[address|text]]' is no Confluence link)."""
    with captured() as warned:
        html(tmp_path, text)
    typed = [w for w in warned if "published as typed" in w]
    assert not [w for w in typed if not_said in w], typed
    assert not said or [w for w in typed if said in w], typed


def test_a_docsify_link_option_is_warned_at_its_line(tmp_path: Path) -> None:
    """Docsify's options written as a link's title, `[notes](https://…/a.pdf ':ignore')`,
    `[code](https://…/a.js ':include :type=code')`, were published as the link's tooltip with
    no message, and an ':include' embeds nothing here; each is a warning at its line now (a
    title of words stays quiet)."""
    body = ("Text with [a](https://example.com/a \"A title: the paper\").\n\n"
            "- [The paper](https://example.com/a.pdf ':ignore')\n"
            "- [Open](https://arxiv.org/abs/1706.03762 ':target=_blank')\n\n"
            "[code](https://example.com/a.js ':include :type=code')\n")
    with captured() as warned:
        html(tmp_path, body)
    got = [w for w in warned if "Docsify" in w]
    lines = [BODY_START + n for n, x in enumerate(body.split("\n")) if "':" in x]
    assert len(got) == 3 and all(f"index.md:{n}: warning:" in w
                                 for n, w in zip(lines, got, strict=True)), got
    assert "embeds nothing" in got[2], got


@pytest.mark.parametrize("code", ["r = q @ k", "r += 1", "r in rows", "r.shape", "r < 0"])
def test_code_about_a_variable_r_is_no_inline_r_code(tmp_path: Path, code: str) -> None:
    with captured() as warned:
        html(tmp_path, f"Here `{code}` holds the ratio.\n")
    assert not [w for w in warned if "inline code" in w], warned


@pytest.mark.parametrize(("role", "advice"), [
    ("{math}`1/\\sqrt{d_k}`", "$1/\\sqrt{d_k}$"),
    (":math:`1/\\sqrt{d_k}`", "$1/\\sqrt{d_k}$"),
    ("{eq}`eq-var`", "\\tag{1}"),
])
def test_a_math_role_is_told_to_be_math(tmp_path: Path, caplog: pytest.LogCaptureFixture,
                                        role: str, advice: str) -> None:
    """MyST's and Sphinx's math roles ({math}`…`, {eq}`label`) were told to become 'a link,
    [text](#id), for a reference, or the code alone', which loses the formula: the warning
    now says to write the TeX between dollars, or the equation's number."""
    import logging
    body = f"The scale is {role} here.\n"
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        html(tmp_path, body)
    got = [r.getMessage() for r in caplog.records if "published as typed" in r.getMessage()]
    assert len(got) == 1 and f"index.md:{BODY_START}: warning:" in got[0], got
    assert advice in got[0] and "the code alone" not in got[0], got


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_foreign_syntax_warning_quotes_the_syntax_not_the_start_of_its_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, lang: str) -> None:
    import logging
    body = "A long sentence that runs on for a while before it says that ==this== matters.\n"
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        html(tmp_path, body, lang=lang)
    got = [r.getMessage() for r in caplog.records if "published as typed" in r.getMessage()]
    assert len(got) == 1 and "('==this==')" in got[0], got


def test_a_definition_list_is_a_definition_list(tmp_path: Path) -> None:
    tree = Tree(html(tmp_path, "Term\n:   Its definition, with $x^2$.\n"))
    tags = [e["tag"] for e in tree.elements]
    assert "dl" in tags and "dt" in tags and "dd" in tags
    dd = next(e for e in tree.elements if e["tag"] == "dd")
    assert "Its definition" in dd["text"] and ":" not in dd["text"][:2]


@pytest.mark.parametrize("box", [
    "/// details | Why?\n    attrs: {id: bad id}\n\nText.\n///\n",
    "/// details | Why?\n    attrs: {id: a.b}\n\nText.\n///\n",
    "/// details | Why?\n    attrs: {id: 9lives}\n\nText.\n///\n",
    "/// details | Why?\n    attr: {id: why}\n\nText.\n///\n",
    "/// note | Why?\n    attrs: {id: why}\n\nText.\n///\n",
    "- item\n\n    /// details | Why?\n        attrs: {id: bad id}\n\n    Text.\n    ///\n",
], ids=["space in id", "dot in id", "digit first", "attr misspelt", "unknown kind", "in a list"])
def test_a_box_header_that_is_not_understood_is_an_error_at_its_line(tmp_path: Path,
                                                                     box: str) -> None:
    e = error(tmp_path, "Intro.\n\n" + box)
    first = next(i for i, line in enumerate(box.split("\n")) if "///" in line)
    assert e.line == BODY_START + 2 + first and "box not understood" in e.message
    # what is wrong on the option line is named (it was left to the author to compare)
    told = {"attr:": "'attr:' on the line under it is no option of a box: write 'attrs:'",
            "bad id": "the id 'bad id' is no id", "a.b": "the id 'a.b' is no id",
            "9lives": "the id '9lives' is no id"}
    assert all(said in e.message for typed, said in told.items() if typed in box), e.message


@pytest.mark.parametrize("html", [
    '<div class="note">Raw <em>html</em> with $x^2$ math</div>\n',
    "<details>\n<summary>More</summary>\n\nThe formula $x^2$ here.\n\n</details>\n",
], ids=["one line", "a block with blank lines"])
def test_a_formula_inside_raw_html_is_an_error_at_its_line_showing_the_tex(tmp_path: Path,
                                                                          html: str) -> None:
    e = error(tmp_path, "Intro.\n\n" + html)
    line = next(i for i, text in enumerate(html.split("\n")) if "$x^2$" in text)
    assert e.line == BODY_START + 2 + line and "$x^2$" in e.message and "raw HTML" in e.message
    assert not PRIVATE_USE_RE.search(e.message)     # no placeholder shown


def test_a_warning_quotes_the_text_as_written_not_its_placeholders(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    page(tmp_path, '实验 "用 $q$ 生成的分数。\n', RESULTS, lang="zh")
    shown = [r.getMessage() for r in caplog.records if "odd number" in r.getMessage()]
    assert shown and "$q$" in shown[0] and not PRIVATE_USE_RE.search(shown[0])


def test_a_formula_in_an_indented_code_block_says_it_is_code(tmp_path: Path) -> None:
    e = error(tmp_path, "Intro.\n\n    indented $x^2$ text\n")
    assert e.line == BODY_START + 2 and "indented code block" in e.message
    assert "raw HTML" not in e.message and "$x^2$" in e.message


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_comments_never_reach_the_page_and_nothing_inside_is_read(tmp_path: Path,
                                                                  lang: str) -> None:
    body = ("The scores grow with d.\n<!-- TODO: quote {{ spread.no_such | fixed(2) }} and\n"
            "check $\\frac{a}{b$ and [the paper](#missing) -->\nThen they saturate.\n\n"
            "{# reviewer note:\n\n    the SD is {{ spread.sd_small }} here\n\n#}\n"
            "Last paragraph.\n")
    built = page(tmp_path, body, RESULTS, lang=lang)
    tree = Tree(built.body)
    paragraphs = [e["text"] for e in tree.elements if e["tag"] == "p"]
    assert len(paragraphs) == 2 and "saturate" in paragraphs[0], paragraphs
    assert not any(w in built.body for w in ("TODO", "reviewer", "<!--", "missing", "frac"))
    assert built.formulas == [] and built.conversion.links == []


def test_a_comment_opened_in_indented_code_is_code_as_on_github(tmp_path: Path) -> None:
    """A real article's indented HTML (jalammar.github.io's transformer-activations post):
    '<!--' on the last line of an indented code block, '-->' on the next line at the margin.
    The comment step, which skipped only fences and code spans, took both as one comment and
    left its placeholder inside the code: the build stopped with 'unprocessed text near' and
    private-use characters, no line. GitHub shows the '<!--' in the code and '-->' as text;
    a comment in a list item's indented paragraph is still a comment."""
    body = ("Intro.\n\n    <p>Text here.</p>\n    <!--\n-->\n    <hr/>\n\n"
            "- an item\n\n    its paragraph <!-- a note -->\n")
    tree = Tree(html(tmp_path, body))
    code = [e["text"].strip() for e in tree.elements if e["tag"] == "code"]
    assert code == ["<p>Text here.</p>\n<!--"], code
    paragraphs = [e["text"] for e in tree.elements if e["tag"] == "p"]
    assert any(p.startswith("-->") for p in paragraphs), paragraphs
    assert "a note" not in " ".join(paragraphs)


def test_a_comment_inside_a_raw_html_block_leaves_nothing_on_the_page(tmp_path: Path) -> None:
    """The same post's figures: a comment over lines inside a raw HTML block. The comment step
    keeps such lines non-blank with a placeholder, which the math step removes from text but
    a stashed raw block never passed through: the build stopped on the placeholder."""
    from sqrtdk.web.markers import PRIVATE_USE_RE
    body = ('Intro.\n\n<figure class="l-page">\n    <!--\n        a note -->\n'
            '    <div id="viz-input">input</div>\n</figure>\n\nAfter.\n')
    out = html(tmp_path, body)
    assert '<div id="viz-input">input</div>' in out
    assert "a note" not in out and "<!--" not in out and not PRIVATE_USE_RE.search(out)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_angle_bracket_tokens_that_are_not_html_are_shown_as_written(tmp_path: Path,
                                                                     lang: str) -> None:
    body = ("The decoder stops at <eos>; <pad> positions get a score of $-\\infty$.\n\n"
            "| token | id |\n|---|---|\n| <unk> | 0 |\n\n"
            "A `Map<K, V>` in code, a generic List<T> in prose, H<sub>2</sub>O, and <br>.\n\n"
            "A Dict<String, Tensor> and a <Tensor> or <EOS> token are no MDX components.\n\n"
            "<Enter> submits the form, and a line may start with a key's name.\n")
    tree = Tree(html(tmp_path, body, lang=lang))
    text = " ".join(e["text"] for e in tree.elements if e["tag"] in ("p", "td"))
    for token in ("<eos>", "<pad>", "<unk>", "List<T>", "Map<K, V>", "Dict<String, Tensor>",
                  "<Tensor>", "<EOS>", "<Enter>"):
        assert token in text, (token, text)
    tags = {e["tag"] for e in tree.elements}
    assert not tags & {"eos", "pad", "unk", "t"} and {"sub", "br"} <= tags


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_component_of_another_tool_stops_at_its_line_in_one_build(
        tmp_path: Path, lang: str) -> None:
    """The Hugging Face docs' `<hfoptions id="usage">` / `<hfoption id="PyTorch">` and a
    web component `<gradio-app …>` (lower-case names of no HTML element) were published as
    typed, '<hfoption id=“PyTorch”>' on the page (GitHub hides them), with no message; and
    of MDX components only the first was named, one build each. Each is now named at its line,
    all in one build; tokens in prose (`<eos>`, `<pad>`, `a <mask> token`) stay text."""
    body = ('The decoder stops at <eos>; <pad> and a <mask> token are text.\n\n'
            '<pad> <pad> tokens fill a row.\n\n'
            '<hfoptions id="usage">\n<hfoption id="PyTorch">\n\nUse `torch`.\n\n'
            '</hfoption>\n\n<Tip warning={true}>\n\nA hint.\n\n</Tip>\n\n'
            '<gradio-app space="someone/demo"></gradio-app>\n\nEnd.\n')
    with pytest.raises(BuildError) as e:
        page(tmp_path, body, RESULTS, lang=lang)
    lines = body.split("\n")
    expected = [BODY_START + k for k, x in enumerate(lines)
                if x.startswith(("<hf", "</hf", "<Tip", "</Tip", "<gradio"))]
    got = sorted({x.line for x in e.value.errors})
    assert got == expected, [str(x) for x in e.value.errors]
    assert all("component" in x.message for x in e.value.errors), e.value


@pytest.mark.parametrize("written, meant", [
    ('Transformers <d-cite key="vaswani2017"></d-cite> compute it.', "footnote"),
    ("The score <d-math>s = q^\\top k</d-math> is scaled.", "'$…$'"),
    ("<d-math block>\np_j = e^{s_j}\n</d-math>", "'$$' lines"),
    ("Large.<d-footnote>Under the assumption.</d-footnote> Then.", "[^name]"),
    ('<d-code block language="python">\nx = 1\n</d-code>', "```python"),
    ("<d-byline></d-byline>", "remove it"),
    ("<d-appendix>\n<p>Thanks.</p>\n</d-appendix>", "remove it"),
], ids=["d-cite", "d-math", "d-math block", "d-footnote", "d-code", "d-byline", "d-appendix"])
def test_a_distill_component_says_what_to_write_once_a_line(
        tmp_path: Path, written: str, meant: str) -> None:
    """A Distill article's components were each told the Hugging Face docs' advice ('a
    video or notebook: a link; a tip: a quote; a quiz: a list'), and an opening and end tag
    on one line made two errors of one line. One error a line now, saying what to write."""
    e = error(tmp_path, f"Text.\n\n{written}\n\nMore.\n")
    first = [x for x in e.errors if x.line == BODY_START + 2]
    assert len(first) == 1 and "Distill" in first[0].message, [str(x) for x in e.errors]
    assert meant in first[0].message and "hfoption" not in first[0].message, first[0]


@pytest.mark.parametrize("written, tool, meant", [
    ('<callout emoji="\U0001f4a1">\nA tip.\n</callout>', "Feishu", "/// details"),
    ('<callout emoji="bulb" background-color="light-blue">', "Feishu", "/// details"),
    ('<hfoption id="PyTorch">\n\nUse it.\n\n</hfoption>', "Hugging Face", "variant"),
    ('<gradio-app space="someone/demo"></gradio-app>', "Gradio", "[its title](address)"),
    ('<TabItem value="py" label="Python">\n\nUse it.\n\n</TabItem>', "Docusaurus", "tab"),
    ("<file text output.txt>\nsd raw 8.01\n</file>", "DokuWiki", "```text"),
    ('<Listing number="2-1" caption="Scaled scores">\n\n```python\ns = q @ k.T\n```\n\n'
     "</Listing>", "Rust book", "the code fence alone"),
    # a reasoning model's thinking pasted with its answer: its start tag alone on its line
    # was published as typed, only the end tag told
    ("<think>\nThe user asks why.\n\nMore of it.\n</think>", "reasoning model", "remove the tags"),
    ("<thinking>\nWhy scale?\n\n</thinking>", "reasoning model", "remove the tags"),
], ids=["feishu callout", "feishu callout attributes", "hfoption", "gradio-app", "TabItem",
        "dokuwiki file", "mdbook listing", "think", "thinking"])
def test_a_component_of_a_known_tool_is_named_as_that_tool_s(
        tmp_path: Path, written: str, tool: str, meant: str) -> None:
    """Feishu's (Lark's) `<callout emoji="…">` was refused at its line, but its message gave
    the Hugging Face docs' and a web component as examples, a tool the author never used, and
    no word of a box. A component whose tool is known by its name now names that tool and
    says what to write; every tag of it is told at its own line."""
    e = error(tmp_path, f"Text.\n\n{written}\n\nMore.\n")
    first = [x for x in e.errors if x.line == BODY_START + 2]
    assert len(first) == 1 and tool in first[0].message, [str(x) for x in e.errors]
    assert meant in first[0].message, first[0]
    others = ("Feishu", "Hugging Face", "Gradio", "Docusaurus")
    assert not [t for t in others if t != tool and t in first[0].message], first[0]


@pytest.mark.parametrize("tag", ['<Badge type="tip" text="v2"/>', "<CodeGroup>", "<Tip>",
                                 '<Image src="/scores.png" alt="Scores" />', "<Frame>"])
def test_a_component_is_named_as_vue_s_or_mdx_s(tmp_path: Path, tag: str) -> None:
    """VitePress' `<Badge …/>` and `<CodeGroup>` (Vue components) were told to be MDX (JSX)
    components, a tool their author never used; the message now names both. A component
    named as one of HTML's obsolete elements (Next.js' `<Image>`, Mintlify's `<Frame>`, the
    Rust book's `<Listing>`) was taken for that element: `<Image …/>` passed untold, `<Frame>`
    was told to embed another page, `<Listing …>` to be closed with </listing> though its
    `</Listing>` closed it."""
    e = error(tmp_path, f"Text.\n\n{tag}\n\nMore.\n")
    assert [x.line for x in e.errors] == [BODY_START + 2], e
    assert "is a Vue or MDX (JSX) component, <" in e.errors[0].message, e


@pytest.mark.parametrize("lang, text", [
    # a range alone in its paragraph, and two with a space after the first tilde (two in
    # one paragraph, `3~5 ... 7~9`, are struck on GitHub: told, see
    # test_marks_right_after_a_chinese_character_warn_at_their_line)
    ("zh", "\u6bcf\u6279 3~5 \u4e2a\u3002\n\n\u6bcf\u6279 3~ 5 \u4e2a\uff0c\u5171 7~9 \u6279\u3002\n"),
    ("en", "If a == b and b == c, then 2^10 and x^2 hold.\n"),
    ("en", "Copy ~/.config to ~/backup, about ~5 or ~ 6 files.\n"),
    ("en", "A :term: and a {set} before `code` with spaces: see `x`.\n"),
    ("en", "About O(~1e12) steps (~10,000X) and (~5) more.\n"),
    ("en", "Mail a2017@b.org or vaswani2017@b.org, ping @huggingface or @karpathy, see "
           "medium.com/@jay2020/post and https://medium.com/@jay2020/post [@ 2017].\n"),
    # a changelog's credits to GitHub users whose names end in a year (shown as typed by
    # GitHub in a file, as meant), not Pandoc citations
    ("en", "- Add a completion, see #18 (@ann1985)\n- Page long output (@bo2000, @cy)\n"
           "- Thanks to @dee, @ed1999\n- Fix the pager by @fay2001 in #21\n"
           "- Thanks @gus1990 for the report.\n"),
    # the same in Chinese release notes: full-width parentheses and commas, a thanks
    ("zh", "- 修复滚动问题（@ann1985）\n- 新增预览窗口（#18，@bo2000）\n"
           "- 修复分页（@cy1999、@dee）\n- 感谢 @ed2001 的报告\n- 致谢@fay1990\n"),
    # values that start with '%' at a line's start: an RFC's (ABNF's) numbers, one a line as
    # an article on WebSocket lists the opcodes, and a byte escaped in an address
    ("en", "Opcodes:\n\n%x0: a continuation frame;  \n%x1: a text frame;  \n%xA: a pong;  \n"
           "%d13.10 ends a line.\n\n%E4%BD%A0 is an escaped character.\n"),
], ids=["chinese ranges", "comparisons and carets", "home and about",
                     "colons and braces", "tildes after brackets", "addresses and handles",
                     "changelog credits", "changelog credits in chinese",
                     "values starting with a percent sign"])
def test_text_that_only_looks_like_other_tools_syntax_does_not_warn(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, lang: str, text: str) -> None:
    import logging
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        html(tmp_path, text, lang=lang)
    assert not [r for r in caplog.records if "published as typed" in r.getMessage()]

def _told_as_latex_comment(tmp_path: Path, text: str, told: bool) -> None:
    """`text` after a paragraph: one LaTeX-comment warning, at the line opening with '%',
    when `told`; none otherwise."""
    with captured() as warned:
        html(tmp_path, f"Intro.\n\n{text}\n")
    got = [w for w in warned if "LaTeX comment" in w]
    assert len(got) == int(told), got
    at = BODY_START + 2 + next(i for i, x in enumerate(text.split("\n")) if x.startswith("%"))
    assert not told or f"index.md:{at}:" in got[0], got


@pytest.mark.parametrize("line, told", [
    # a comment whose first word is two of the letters a to f: a word, not a byte
    ("%Be careful: the scale is d, not d_k.", True), ("%ad hoc, to be checked", True),
    ("%FE is read as a word here", True),
    # bytes escaped in an address (two hex digits, a digit among them or a run of them) and
    # an RFC's numbers stay quiet
    ("%20 is the escaped space.", False), ("%FF%FE opens a file in UTF-16.", False),
    ("%E4%BD%A0 is an escaped character.", False), ("%xA: a pong", False),
], ids=["be careful", "ad hoc", "a capital pair before a word", "escaped space",
        "escaped letters", "escaped character", "rfc number"])
def test_a_latex_comment_whose_first_word_is_two_hex_letters_is_told(
        tmp_path: Path, line: str, told: bool) -> None:
    """'%Be careful' at a line's start is a LaTeX comment (published as typed, here and on
    GitHub), but the rule read its 'Be' as a byte escaped in an address, '%BE', and stayed
    quiet: a pair of hex letters before a space is a word; a byte is two hex digits with a
    digit among them, or one of a run of escapes ('%FF%FE')."""
    _told_as_latex_comment(tmp_path, line, told)


@pytest.mark.parametrize("text, told", [
    ("Add the folder to the search path in\n%PATH% and open a new shell.", False),
    ("The settings are kept under\n%APPDATA%\\\\sqrtdk on Windows.", False),
    ("The 32-bit programs are in\n%ProgramFiles(x86)% there.", False),
    ("Intro line.\n%TODO check the scale", True),
    ("Intro line.\n%Windows paths differ, 50% of the time", True),
], ids=["path", "appdata", "program files", "comment", "comment with a percent"])
def test_a_windows_variable_opening_a_line_is_no_latex_comment(
        tmp_path: Path, text: str, told: bool) -> None:
    """A line of Windows docs wrapped before an environment variable ('%PATH% and open a
    new shell') was told as a LaTeX comment, 'published as typed' and to be made an HTML
    comment, though it is text shown as meant: a name closed by '%' is no comment's
    word. A comment line is still told at its line."""
    _told_as_latex_comment(tmp_path, text, told)


@pytest.mark.parametrize("text, element", [
    ("Llama's tokenizer wraps each sentence in <s> and </s> before training.\n", "<s>"),
    ("The <b>winner takes almost all of the attention.\n", "<b>"),
], ids=["SentencePiece tokens", "an element left open"])
def test_an_element_tag_typed_as_a_token_or_left_open_warns_at_its_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, text: str, element: str) -> None:
    import logging
    body = "First paragraph, with H<sub>2</sub>O and a<br>break.\n\n" + text
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        html(tmp_path, body)
    got = [r.getMessage() for r in caplog.records if "opens the HTML element" in r.getMessage()]
    assert len(got) == 1 and f"index.md:{BODY_START + 2}: warning: '{element}'" in got[0], got


def test_a_comment_line_inside_a_list_or_a_table_hides_only_itself(tmp_path: Path) -> None:
    body = ("- first item\n<!-- - a hidden item -->\n- second item\n\n"
            "| d | SD |\n|---|---|\n| 4 | 2.0 |\n<!-- | 16 | 4.0 | -->\n| 64 | 8.0 |\n")
    tree = Tree(html(tmp_path, body))
    assert [e["text"].strip() for e in tree.elements if e["tag"] == "li"] == \
        ["first item", "second item"]
    rows = [e["text"].split() for e in tree.elements if e["tag"] == "tr"]
    assert rows == [["d", "SD"], ["4", "2.0"], ["64", "8.0"]]


def test_an_autolink_is_a_link_and_warns_nothing(tmp_path: Path,
                                                 caplog: pytest.LogCaptureFixture) -> None:
    """README: `<https://…>` is a link. It is neither an element left open (a new author's
    `<https://arxiv.org/…>` warned "opens the HTML element <https:>", which fails --strict)
    nor read differently from GitHub, and neither is an e-mail autolink."""
    import logging
    body = ("The paper: <https://arxiv.org/abs/1706.03762>, and its authors' address "
            "<someone@example.org>.\n")
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        tree = Tree(html(tmp_path, body))
    assert [r.getMessage() for r in caplog.records] == []
    hrefs = [e["attrs"].get("href", "") for e in tree.elements if e["tag"] == "a"]
    assert "https://arxiv.org/abs/1706.03762" in hrefs
    assert any("someone" in h or "&#" in h or h.startswith("mailto") for h in hrefs), hrefs


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_bare_address_ends_before_chinese_punctuation_without_a_warning(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, lang: str) -> None:
    """GitHub ends a bare address only at a space, so `…/path。后面` links the Chinese after
    it too; here it ends where the author meant, before the fullwidth punctuation, and the
    comparison with GitHub's reading does not report that deliberate difference."""
    import logging
    body = ("\u7f51\u5740 https://example.com/path\u3002\u540e\u9762\uff0c\u8fd8\u6709 "
            "www.example.org\uff0c\u4ee5\u53ca<https://example.net>\u3002"
            "\u53c2\u89c1\uff08https://example.com/x.\uff09\u3001\u300chttps://example.com/y\u300d"
            "\n\nPlain https://example.com/z, at the end.\n")
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        tree = Tree(html(tmp_path, body, lang=lang))
    hrefs = [e["attrs"]["href"] for e in tree.elements if e["tag"] == "a"]
    assert hrefs == ["https://example.com/path", "http://www.example.org", "https://example.net",
                     "https://example.com/x", "https://example.com/y", "https://example.com/z"], \
        hrefs
    assert [r.getMessage() for r in caplog.records] == []


def test_a_bare_address_running_into_chinese_letters_warns_at_its_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Letters may belong to an address, so `…/a后面` stays one link, as on GitHub, but the
    author hears of it at its line, with the `<…>` form that ends it."""
    import logging
    body = "\u7b2c\u4e00\u6bb5\u3002\n\n\u7f51\u5740 https://example.com/a\u540e\u9762\u3002\n"
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        html(tmp_path, body, lang="zh")
    got = [r.getMessage() for r in caplog.records]
    assert len(got) == 1 and f"index.md:{BODY_START + 2}: warning:" in got[0], got
    assert "<https://example.com/a>" in got[0], got


def test_a_space_in_a_link_address_is_percent_encoded(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """`[text](<address with a space>)` is a link on GitHub and here; GitHub writes the space
    as %20, and an address with a raw space is not a valid URL."""
    import logging
    body = "A [spaced](<https://example.com/a b>) link and [plain](https://example.com/c%20d).\n"
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        tree = Tree(html(tmp_path, body))
    hrefs = [e["attrs"]["href"] for e in tree.elements if e["tag"] == "a"]
    assert hrefs == ["https://example.com/a%20b", "https://example.com/c%20d"], hrefs
    assert [r.getMessage() for r in caplog.records] == []


def test_a_task_list_gets_the_task_list_warning_alone(tmp_path: Path,
                                                      caplog: pytest.LogCaptureFixture) -> None:
    """A task list warns that its `[x]` / `[ ]` are published as typed, on each item, and
    nothing else: GitHub's reading (a checkbox) and this one (the characters) hold the same
    text, so no "the two parsers split the lines differently" is added (a new author got
    that second warning, whose advice did not apply)."""
    import logging
    body = ("Before you go on:\n\n- [x] Read the short answer\n- [ ] Run the experiments "
            "yourself\n- [ ] Try other rulers\n\nAfter the list.\n")
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        html(tmp_path, body)
    got = [r.getMessage() for r in caplog.records]
    assert got and all("task list item" in g for g in got), got


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("where", ["paragraph", "bold", "link", "heading", "table", "list", "quote",
                                   "note", "box"])
def test_a_github_emoji_shortcode_is_the_emoji_wherever_it_stands(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, where: str, lang: str) -> None:
    """GitHub shows ':zap:' as the emoji; so does the page, in every place text stands, with
    no message; one in code and a ':word:' GitHub does not know stay text, as on GitHub (the
    latter with a warning of its own, the only message)."""
    import logging
    text = {"paragraph": "Fast :zap: here.", "bold": "It is **fast :zap:** here.",
            "link": "See [fast :zap:](#a) here.", "heading": "## Fast :zap: {#a}",
            "table": "| a | b |\n|---|---|\n| 1 | fast :zap: |",
            "list": "- one\n- fast :zap:", "quote": "> Quoted.\n> Fast :zap: here.",
            "note": "See[^n].\n\n[^n]: A note.\n    Fast :zap: here.",
            "box": "/// details | Why?\n    attrs: {id: why}\n\nFast :zap: here.\n///"}[where]
    body = ("Intro with `:zap:` in code and a :notanemoji: word.\n\n"
            + "## Head {#a}\n\n" * (where != "heading") + text + "\n")
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        out = html(tmp_path, body, lang=lang)
    got = [r.getMessage() for r in caplog.records]
    assert len(got) == 1 and "':notanemoji:' names no emoji" in got[0], got
    assert "\u26a1" in out and ":zap:</code>" in out and ":notanemoji:" in out, out


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("written, line, classes", [
    ("A notice.\n{: .notice--info}", 1, "'notice--info'"),
    ("> A quoted notice.\n{: .notice--info}", 1, "'notice--info'"),
    ("## A heading {#a-heading .fancy}", 0, "'fancy'"),
    ("- An item.\n{: .center .wide}", 1, "'center', 'wide'"),
], ids=["paragraph", "quote", "heading", "list item"])
def test_a_class_no_style_knows_warns_at_its_attribute_list(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, written: str, line: int,
        classes: str, lang: str) -> None:
    """kramdown's '{: .notice--info}' (a Jekyll theme's notice box) was taken by attr_list,
    its braces hidden and its class set, which no style of the site knows: the page showed a
    plain paragraph with no message (GitHub shows the braces). Each such class now warns at
    the attribute list's line; '{: .screen-only }' is the authors' class and stays quiet."""
    import logging
    body = ("## Top {#top}\n\nWords about the slider.\n{: .screen-only }\n\n" + written +
            "\n\nLast.\n")
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        html(tmp_path, body, lang=lang)
    got = [r.getMessage() for r in caplog.records if "no style" in r.getMessage()]
    at = BODY_START + body.split("\n").index(written.split("\n")[line])
    assert len(got) == 1 and f"index.md:{at}: warning:" in got[0] and classes in got[0], got


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("written, after", [
    ('[the paper](https://arxiv.org/abs/1706.03762){target="_blank"}', "a link"),
    ("[the paper](https://arxiv.org/abs/1706.03762){.external}", "a link"),
    ("[the paper](#paper-3){: .button}", "a link"),
    ('[Figure 1](#paper-3){reference-type="ref" reference="paper-3"}', "a link"),
    ("![a logo](https://example.org/logo.png){width=50%}", "an image"),
], ids=["target", "class", "kramdown class", "pandoc reference", "image width"])
def test_an_attribute_list_after_a_link_or_image_warns_at_its_line(
        tmp_path: Path, written: str, after: str, lang: str) -> None:
    """attr_list gave a link or image the attributes of a `{…}` written right after it and hid
    the braces, with no message, while GitHub shows them as text. Each now warns at the
    line of its braces (a link broken over two lines: the second), quoting it as typed."""
    body = f"## Paper {{#paper-3}}\n\nFirst words and\n{written} here.\n"
    with captured() as warned:
        page(tmp_path, body, RESULTS, lang=lang, figures=())
    lists = [w for w in warned if "attribute list" in w]
    shown = "{" + written.split("){", 1)[1]
    assert len(lists) == 1 and f"index.md:{BODY_START + 3}: " in lists[0], warned
    assert f"'{shown}' right after {after}" in lists[0] and "GitHub shows it as text" in \
        lists[0], lists


def test_the_authors_classes_are_the_stylesheet_s() -> None:
    """Each class the build lets an author give is one the site's stylesheet styles."""
    import tinycss2

    from sqrtdk.web.md_foreign import AUTHOR_CLASSES
    css = (Path(__file__).parent.parent / "static" / "style.css").read_text(encoding="utf-8")
    found: set[str] = set()

    def walk(tokens: list[Any]) -> None:
        for a, b in zip(tokens, tokens[1:]):
            if a.type == "literal" and a.value == "." and b.type == "ident":
                found.add(b.value)
        for t in tokens:
            if getattr(t, "prelude", None):
                walk(t.prelude)
            if t.type == "at-rule" and t.content:
                walk(tinycss2.parse_rule_list(t.content))

    walk(tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True))
    assert AUTHOR_CLASSES <= found, AUTHOR_CLASSES - found


@pytest.mark.parametrize("src", ["https://example.org/x.png", "//example.org/x.png"])
def test_a_picture_from_another_site_stops_at_its_line_saying_to_link_to_it(
        tmp_path: Path, src: str) -> None:
    """The pages load nothing from other sites (their Content-Security-Policy): an image from
    elsewhere would be an empty box, so the build stops at its line and says what to write."""
    e = error(tmp_path, f"First paragraph.\n\n![A picture]({src})\n")
    assert e.line == BODY_START + 2, e
    assert f"[what it shows]({src})" in e.message and "Content-Security-Policy" in e.message


ESCAPED_TOKENS = 'stops at "\\<eos>", pads with \\<pad>; a List\\<T> and 1\\<2'


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("where", [
    "{t}.\n",
    "- {t}.\n",
    "| a | b |\n|---|---|\n| {t} | 1 |\n",
    "A note[^n].\n\n[^n]: {t}.\n",
    "## Heading {t} {{#h}}\n",
    "/// details | Why {t}?\n    attrs: {{id: why}}\n\nText.\n///\n",
], ids=["paragraph", "list", "table", "footnote", "heading", "box title"])
def test_a_backslash_before_an_angle_bracket_shows_the_bracket(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, lang: str, where: str) -> None:
    """`\\<eos>` is GitHub's way to write a tag-like token as text (CommonMark escapes every
    ASCII punctuation mark): the page shows `<eos>`, never a backslash and an element that
    swallows the word, and the comparison with GitHub finds nothing to warn about."""
    import logging
    body = "First.\n\n" + where.format(t=ESCAPED_TOKENS)
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        tree = Tree(html(tmp_path, body, lang=lang))
    text = " ".join(e["text"] for e in tree.elements)
    for token in ("<eos>", "<pad>", "List<T>", "1<2"):
        assert token in text, (token, text)
    assert "\\" not in text, text
    assert not {"eos", "pad", "t"} & {e["tag"] for e in tree.elements}
    assert [r.getMessage() for r in caplog.records] == []


def test_a_backslash_makes_every_ascii_punctuation_mark_text_as_on_github(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """CommonMark's escapes (its example of all of them, less `\\(`, which opens a formula
    here): each mark is shown without its backslash; `\\&ouml;` is the five characters, not
    an entity; code and math keep the backslash."""
    import logging
    import string
    marks = "".join(c for c in string.punctuation if c not in "()")
    body = ("x " + "".join("\\" + c for c in marks) + " y\n\n"
            "Not an entity: \\&ouml; and \\&amp; here.\n\n"
            "Code `\\<b> \\&ouml;` and $a \\< b$.\n")
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        built = page(tmp_path, body, RESULTS)
    paragraphs = [e["text"] for e in Tree(built.body).elements if e["tag"] == "p"]
    assert paragraphs[0] == f"x {marks} y", paragraphs
    assert paragraphs[1] == "Not an entity: &ouml; and &amp; here.", paragraphs
    code = [e["text"] for e in Tree(built.body).elements if e["tag"] == "code"]
    assert code == ["\\<b> \\&ouml;"] and built.formulas[0].plain == "a \\< b"
    assert [r.getMessage() for r in caplog.records] == []


def test_an_escaped_tilde_is_no_strikethrough_and_a_warning_quotes_escapes_as_typed(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """`\\~\\~x\\~\\~` is text on GitHub too: no "strikethrough" warning; a warning about a
    paragraph holding escapes quotes them as the author typed them, not Markdown's
    placeholders."""
    import logging
    body = "Escaped \\~\\~not struck\\~\\~ here.\n\nA ~~List\\<T> struck~~ text.\n"
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        html(tmp_path, body)
    got = [r.getMessage() for r in caplog.records]
    assert len(got) == 1 and f"index.md:{BODY_START + 2}: warning:" in got[0], got
    assert "List\\<T>" in got[0] and "\x02" not in got[0], got


def test_english_quotes_that_cannot_be_paired_warn_at_their_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """An odd number of '"' that smarty curls out of order (`"x"/"y`) warns at its line with
    what the page shows; an inch mark (5") and a quote going on in the next paragraph do
    not."""
    import logging
    body = ('A 5" screen and "a word".\n\n"A quote going on\n\n"and ending."\n\n'
            'He wrote "x"/"y and went on.\n')
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        html(tmp_path, body)
    got = [r.getMessage() for r in caplog.records]
    assert len(got) == 1 and f"index.md:{BODY_START + 6}: warning:" in got[0], got
    assert "odd number" in got[0] and "\u201c \u201d \u201d" in got[0], got


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("toc", ["* TOC\n{:toc}\n", "{:toc}\n", "Contents: {: toc }\n"],
                         ids=["under its list item", "alone", "in a sentence"])
def test_kramdown_s_table_of_contents_stops_at_its_line(tmp_path: Path, toc: str,
                                                        lang: str) -> None:
    """`{:toc}` (Jekyll) is named as what it is, at its own line; it was 'toc is not an
    attribute; write {#some-id-toc}', quoting text the author never wrote."""
    e = error(tmp_path, "First paragraph.\n\n" + toc + "\nLast.\n", lang=lang)
    line = next(n for n, x in enumerate(toc.split("\n")) if "toc" in x)
    assert e.line == BODY_START + 2 + line, e
    assert "kramdown" in e.message and "contents" in e.message and "some-id" not in e.message


def test_confluence_s_table_of_contents_is_told_as_confluence_s(tmp_path: Path) -> None:
    """Confluence's (Jira's) '{toc}' was told to be kramdown's, with 'remove the {:toc} line
    and the * TOC item above it', neither of which the author wrote."""
    e = error(tmp_path, "First paragraph.\n\n{toc}\n\nLast.\n")
    assert e.line == BODY_START + 2, e
    assert "'{toc}', Confluence's" in e.message and "remove the line" in e.message, e


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("toc", ["[TOC]", "[toc]", "[[TOC]]", "[[_TOC_]]", "@[TOC](Contents)",
                                 "${toc}", "${TOC}"])
@pytest.mark.parametrize("where", ["top", "quote", "list"])
def test_another_editor_s_table_of_contents_stops_at_its_line(tmp_path: Path, toc: str,
                                                               where: str, lang: str) -> None:
    """A paragraph '[TOC]' (Typora, Zhihu and CSDN posts; '[[_TOC_]]' GitLab's, '@[TOC](…)'
    CSDN's) was published as the text '[TOC]' (GitHub shows it so too), with no message,
    where its author meant a table of contents: the build now stops at its line and says the
    page makes its own. '[TOC]' inside a sentence is text."""
    block = {"top": toc, "quote": f"> {toc}", "list": f"- item\n\n    {toc}"}[where]
    body = "Write [TOC] in Typora for contents.\n\n## Head {#head}\n\n" + block + "\n\nLast.\n"
    e = error(tmp_path, body, lang=lang)
    assert e.line == BODY_START + body.split("\n").index(block.split("\n")[-1]), e
    assert "contents" in e.message and "remove the line" in e.message, e


@pytest.mark.parametrize("written, meant", [
    ("{% highlight python %}\nx = 1\n{% endhighlight %}", "```python"),
    ("{% katex %}\nx^2\n{% endkatex %}", "'$$' lines"),
    ("See {% link _posts/2023-01-01-intro.md %} here.", "[its title](https://"),
    ("![A diagram]({{ site.baseurl }}/assets/attn.png)", "Liquid (Jekyll) variable"),
    ("Back to [{{ page.title }}](#top).", "a Liquid (Jekyll) or a Tera (Zola) variable"),
    ("![A diagram]({{ config.base_url }}/attn.png)", "a Tera (Zola) variable"),
    ('{% include figure.html path="assets/a.png" caption="A" %}', "included file's content"),
    ("{% include_relative notes.md %}", "included file's content"),
    ("As {% cite vaswani2017 %} put it.", "footnote"),
], ids=["highlight", "katex", "link", "site.baseurl", "page.title", "config.base_url", "include",
        "include_relative", "cite"])
def test_a_jekyll_tag_or_variable_is_told_what_to_write_at_its_line(
        tmp_path: Path, written: str, meant: str) -> None:
    """A post pasted from a Jekyll site: '{% highlight python %}' was told 'for a link write
    [text](../en/), for a figure …, for a box …' (none of them a code fence), and
    '{{ site.baseurl }}' that 'site' is undefined, with a list of result groups. Each is now
    named as Liquid's, with what to write for it, at its line; a Zola post's variables
    ('{{ config.base_url }}', and 'page', which both tools have) as Tera's."""
    e = error(tmp_path, "Intro.\n\n" + written + "\n\nLast.\n")
    assert e.line == BODY_START + 2 and meant in e.message, e
    assert "result groups" not in e.message and "for a box" not in e.message, e


@pytest.mark.parametrize("written, meant", [
    ('{% hint style="info" %}\nA tip.\n{% endhint %}', "GitBook tag"),
    ('{% tabs %}\n{% tab title="PyTorch" %}\nx\n{% endtab %}\n{% endtabs %}', "one after"),
    ('{% content-ref url="grads.md" %}\n[grads.md](grads.md)\n{% endcontent-ref %}',
     "'{% content-ref … %}' is a GitBook tag"),
    ('{% embed url="https://www.youtube.com/watch?v=x" %}', "[its title](https://"),
    ('{% code title="a.py" %}\n```python\nx = 1\n```\n{% endcode %}', "code fence alone"),
    ("{%youtube iDulhoQ2pro %}", "HackMD (CodiMD)"),
    ("{%speakerdeck someone/attention-talk %}", "HackMD (CodiMD)"),
], ids=["hint", "tabs", "content-ref", "embed", "code", "hackmd youtube", "hackmd speakerdeck"])
def test_a_gitbook_or_hackmd_tag_is_told_as_that_tools_at_its_line(
        tmp_path: Path, written: str, meant: str) -> None:
    """A GitBook page's '{% hint style="info" %}' and a HackMD note's '{%speakerdeck … %}'
    were told 'not a statement here (it is Liquid's, as in Jekyll, or another tool's)', with
    advice about links, figures and boxes whatever the tag, and '{% content-ref %}' was
    named '{% content … %}'. Each is now named as its tool's, whole, with what to write."""
    e = error(tmp_path, "Intro.\n\n" + written + "\n\nLast.\n")
    assert e.line == BODY_START + 2 and meant in e.message, e
    assert "result groups" not in e.message and "or another tool's" not in e.message, e


@pytest.mark.parametrize("written, meant", [
    ("{{< math >}}\n$$\nx = 1\n$$\n{{< /math >}}", "remove the '{{< math >}}'"),
    ("A norm {{< math >}}$\\|x\\|${{< /math >}} here.", "around the formula (a formula "
     "between '$' signs"),
    ('As {{< cite page="/publication/vaswani-2017" >}} shows.', "footnote"),
    ('{{% callout note %}}\nThe factor is 8.\n{{% /callout %}}', "'/// details | Title'"),
    ('{{< figure src="softmax.png" caption="Softmax." >}}', '![what it shows](NAME.svg'),
    ('Read [the next]({{< ref "posts/rope.md" >}}).', "[its title](https://"),
    ('Note{{% sidenote %}}Aside.{{% /sidenote %}} here.', "footnote"),
], ids=["math", "inline math", "cite", "callout", "figure", "ref", "sidenote"])
def test_a_hugo_shortcode_is_told_what_to_write_at_its_line(
        tmp_path: Path, written: str, meant: str) -> None:
    """A Wowchemy (Hugo Academic) post: every shortcode was told the same 'for a link write
    [text](../en/), for a figure …, for a box …', '{{< math >}}' around a formula too (which
    needs none here). Each now says what to write for it; an inline '{{< math >}}$…$…' was
    told to remove the shortcode's 'lines', though it stood in a sentence."""
    e = error(tmp_path, "Intro.\n\n" + written + "\n\nLast.\n")
    assert e.line == BODY_START + 2 and meant in e.message and "Hugo" in e.message, e
    opening = written.split("{{")[1][0]
    assert f" … {'>' if opening == '<' else '%'}}}}}' is a Hugo shortcode" in e.message, e


@pytest.mark.parametrize("written, meant", [
    ('{{ figure(src="attention.png", caption="Scores, shares.", width=600) }}',
     '![what it shows](NAME.svg "Caption")'),
    ('{{ youtube(id="dQw4w9WgXcQ", autoplay=false) }}', "[its title](https://"),
    ('{{ gist(url="https://gist.github.com/someone/abc123") }}', "[its title](https://"),
    ('{{ admonition(type="tip", text="Short.") }}', "'/// details | Title'"),
    ('{% note(kind="info") %}\nIf you have never seen softmax.\n{% end %}',
     "'/// details | Title'"),
    ('{% quote(author="Vaswani et al.") %}\nWe suspect.\n{% end %}', "'> ' lines"),
    ('{% details(summary="Show the output") %}\nOutput.\n{% end %}', "'/// details | Title'"),
    ('{{ mermaid(code="graph TD") }}', "this text does not know"),
], ids=["figure", "youtube", "gist", "admonition", "note with a body", "quote with a body",
        "details with a body", "a theme's own, with keyword arguments"])
def test_a_zola_shortcode_is_told_what_to_write_at_its_line(
        tmp_path: Path, written: str, meant: str) -> None:
    """A post pasted from a Zola site: '{{ figure(src=…) }}' was told that 'figure' is
    undefined, with a list of result groups, and '{% note() %}' that it is Liquid's; each is
    now named as a shortcode, with what to write for it, at its line."""
    e = error(tmp_path, "Intro.\n\n" + written + "\n\nLast.\n")
    assert e.line == BODY_START + 2 and meant in e.message and "shortcode" in e.message, e
    assert "result groups" not in e.message and "Liquid" not in e.message, e


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("title", ["# Scaled attention", "# Scaled attention {#top}",
                                   "Scaled attention\n================",
                                   "<!-- {blog_metadata} -->\n\n# Scaled attention"],
                         ids=["atx", "with an id", "setext", "under a comment"])
def test_a_title_over_the_text_is_told_to_go_not_to_become_level_two(
        tmp_path: Path, title: str, lang: str) -> None:
    """A Hugging Face blog post, a Jekyll post or a README opens with its title as '# …': the
    build told it to become '## Scaled attention {#some-id}', a section heading repeating
    the page's title. A level-1 heading that opens the article is now told that the page shows
    the front matter's title there: remove the line. One further down keeps the advice to
    write it at level 2."""
    e = error(tmp_path, title + "\n\nBody.\n\n# Later\n\nMore.\n", lang=lang)
    line = BODY_START + next(i for i, x in enumerate(title.split("\n")) if "Scaled" in x)
    assert e.line == line and "is a title" in e.message and "remove this line" in e.message, e
    assert "## " not in e.message, e
    later = error(tmp_path, "Body.\n\n# Later\n\nMore.\n", lang=lang)
    assert "is a title" not in later.message and "## Later" in later.message, later


def test_an_attribute_list_under_a_figure_stops_at_its_line(tmp_path: Path) -> None:
    """kramdown's way to size a picture, on the line under it: the build names the
    attribute line and says the figure is sized by the build (it said 'the figure sits
    inside a sentence')."""
    e = error(tmp_path, 'First.\n\n![A walk](walk.svg "The walk")\n'
                        '{: style="width: 100%;" class="center"}\n')
    assert e.line == BODY_START + 3 and "kramdown" in e.message and "sentence" not in e.message
    # Pandoc's (and attr_list's) `{width=50%}` right after it was told the same
    e = error(tmp_path, 'First.\n\n![A walk](walk.svg "The walk"){width=50%}\n')
    assert e.line == BODY_START + 2 and "after figure" in e.message and \
        "sentence" not in e.message, e


def _inside(container: str, block: str) -> str:
    """An article body with `block` at the top, in a quote, a list item or a note."""
    if container == "top":
        return f"Before.\n\n{block}\n\nAfter.\n"
    if container == "quote":
        return "Before.\n\n" + "\n".join(f"> {x}".rstrip() for x in block.split("\n")) + \
            "\n\nAfter.\n"
    lines = "\n".join(f"    {x}".rstrip() for x in block.split("\n"))
    if container == "list":
        return f"Before.\n\n- outer item\n\n{lines}\n\nAfter.\n"
    if container == "note":
        return f"Before[^f].\n\n[^f]: The note.\n\n{lines}\n"
    raise ValueError(container)


CONTAINERS = ("top", "quote", "list", "note")


@pytest.mark.parametrize("container", CONTAINERS)
@pytest.mark.parametrize("comment", ["<!-- end list -->", "<!--\nend\n\nlist -->",
                                     "{# end list #}"], ids=["html", "lines", "template"])
def test_a_comment_standing_as_a_block_keeps_two_lists_apart(tmp_path: Path, container: str,
                                                             comment: str) -> None:
    """GitHub reads a comment between blank lines as a block (an HTML block), which ends the
    list above it: two tight lists. The build took comments out as blank lines, so the two
    lists became one loose list of three paragraphs, and the GitHub comparison (which read the
    same text) saw no difference."""
    body = _inside(container, f"- list one a\n- list one b\n\n{comment}\n\n- list two c")
    with captured() as warned:
        elements = Tree(html(tmp_path, body)).elements
    ours = [e for e in elements if "list" in e["text"] and "outer" not in e["text"]
            and "note" not in e["text"]]
    assert [e["text"].split() for e in ours if e["tag"] == "li"] == [
        ["list", "one", "a"], ["list", "one", "b"], ["list", "two", "c"]]
    assert len([e for e in ours if e["tag"] == "ul"]) == 2, ours
    assert not any(e["tag"] == "p" and "li" in e["ancestors"] for e in ours), "a loose list"
    assert not any(e["tag"] == "p" and not e["text"].strip() for e in elements)
    assert warned == []


def test_a_comment_between_paragraphs_leaves_no_empty_paragraph(tmp_path: Path) -> None:
    body = "One.\n\n<!-- a note -->\n\nTwo.\n\n> Three.\n>\n> <!-- x -->\n>\n> Four.\n"
    assert [(e["tag"], e["text"].strip()) for e in Tree(html(tmp_path, body)).elements
            if e["tag"] == "p"] == [("p", "One."), ("p", "Two."), ("p", "Three."),
                                    ("p", "Four.")]


@pytest.mark.parametrize("reference", ["top", "list", "table"])
@pytest.mark.parametrize("definition", ["[^n3]:", "[^n3]:   ", "[^n3]: <!-- todo -->"],
                         ids=["bare", "spaces", "comment"])
def test_an_empty_note_stops_at_its_definition(tmp_path: Path, reference: str,
                                               definition: str) -> None:
    """`[^n3]:` with nothing after it was published as an empty note, with no text and no
    back-reference, and no message."""
    ref = {"top": "A claim[^n3] here.", "list": "- a claim[^n3] here\n- another",
           "table": "| a | b |\n|---|---|\n| 1 | x[^n3] |"}[reference]
    body = f"{ref}\n\nMiddle.\n\n{definition}\n\nLast.\n"
    e = error(tmp_path, body)
    assert e.line == BODY_START + body.split("\n").index(definition), e
    assert "has no text" in e.message and "after the colon" in e.message, e


def test_a_note_whose_text_starts_on_the_next_line_is_no_empty_note(tmp_path: Path) -> None:
    body = "A claim[^n3] here.\n\n[^n3]:\n    The text, on the next line.\n"
    assert "The text, on the next line." in html(tmp_path, body)


@pytest.mark.parametrize("container", CONTAINERS)
def test_github_s_math_syntax_is_a_formula(tmp_path: Path, container: str) -> None:
    """GitHub's display math (a ```math fence) was a code block, and its inline math
    ($`x^2`$) reached KaTeX with its backticks (quote marks on the page)."""
    block = ("Inline $`x^2`$ and $`` a`b ``$, not `$c$`.\n\n```math\n\\sqrt{d_k}\n\\cdot 2\n```"
             "\n\n~~~math\ny\n~~~")
    with captured() as warned:
        p = page(tmp_path, _inside(container, block), RESULTS)
    assert warned == []
    assert [(f.plain, f.display) for f in p.formulas] == [
        ("x^2", False), ("a`b", False), ("\\sqrt{d_k}\n\\cdot 2", True), ("y", True)]
    assert "<pre" not in p.body and "<code>$c$</code>" in p.body


@pytest.mark.parametrize("container", CONTAINERS)
@pytest.mark.parametrize("outer, inner", [("````", "```"), ("`````", "````"), ("~~~~", "~~~")])
def test_a_shorter_fence_inside_a_longer_one_is_code(tmp_path: Path, container: str,
                                                     outer: str, inner: str) -> None:
    """A Markdown tutorial shows a fence as code inside a longer fence (CommonMark 4.5: only a
    fence at least as long closes it); the build stopped at the outer fence saying it was
    'not closed before line …, which opens another' and to 'open the outer one with' one more
    backtick than it had. The page now shows the inner fence's lines as code, as GitHub does."""
    block = f"{outer}markdown\n{inner}python\nx = 1\n{inner}\n{outer}"
    body = _inside(container, block)
    pres = [e for e in Tree(html(tmp_path, body)).elements if e["tag"] == "pre"]
    assert len(pres) == 1 and pres[0]["text"].split() == [f"{inner}python", "x", "=", "1",
                                                         inner], pres


@pytest.mark.parametrize("outer, inner", [("```", "```"), ("```", "````")])
def test_a_fence_as_long_inside_an_open_one_still_stops_at_its_line(
        tmp_path: Path, outer: str, inner: str) -> None:
    """The fence left open (its closing line forgotten) before another, whose closing line
    then closes it, still stops at the opening line."""
    e = error(tmp_path, f"Intro.\n\n{outer}python\nx = 1\n\n{inner}python\ny = 2\n{inner}\n")
    assert e.line == BODY_START + 2 and "not closed before line" in e.message, e


def test_a_math_fence_s_formula_names_its_lines(tmp_path: Path) -> None:
    p = page(tmp_path, "Text.\n\n```math\nx^2\n```\n\nMore $`y`$.\n", RESULTS)
    assert [f.line for f in p.formulas] == [BODY_START + 2, BODY_START + 6]


@pytest.mark.parametrize("container", CONTAINERS)
@pytest.mark.parametrize("kind", ["mermaid", "geojson", "topojson", "stl"])
def test_a_fence_github_draws_is_warned_at_its_line(tmp_path: Path, container: str,
                                                    kind: str) -> None:
    """A ```mermaid fence is a diagram on GitHub and was a plain code block here, with no
    message (so are GitHub's maps and 3D models)."""
    body = _inside(container, f"Text.\n\n```{kind}\ngraph TD; A-->B\n```\n\nMore.")
    with captured() as warned:
        html(tmp_path, body)
    line = BODY_START + next(n for n, x in enumerate(body.split("\n")) if kind in x)
    assert len(warned) == 1 and f"index.md:{line}: " in warned[0], warned
    assert "does not draw" in warned[0] and "figure" in warned[0], warned


@pytest.mark.parametrize("container", CONTAINERS)
@pytest.mark.parametrize("kind", ["sequence", "flow", "graphviz", "abc"])
def test_a_fence_hackmd_draws_is_warned_at_its_line(tmp_path: Path, container: str,
                                                    kind: str) -> None:
    """A HackMD note's ```sequence (```flow, ```graphviz, ```abc) fence is a diagram there
    and was a plain code block here, with no message."""
    body = _inside(container, f"Text.\n\n```{kind}\nAlice->Bob: hi\n```\n\nMore.")
    with captured() as warned:
        html(tmp_path, body)
    line = BODY_START + next(n for n, x in enumerate(body.split("\n")) if kind in x)
    assert len(warned) == 1 and f"index.md:{line}: " in warned[0], warned
    assert "HackMD" in warned[0] and "figure" in warned[0], warned


@pytest.mark.parametrize("container", CONTAINERS)
@pytest.mark.parametrize("gap", ["", "\n"])
def test_a_pandoc_caption_under_a_code_block_leaves_the_code_a_code_block(
        tmp_path: Path, container: str, gap: str) -> None:
    """Pandoc's and Quarto's listing caption under a fence (`: Listing 1 {#lst-x}`, right
    under it or after a blank line) made the fence a definition's term: the code block inside
    a <dt> (a <pre> in a term, no valid HTML, shown as a term), with a warning about the
    closing fence's indentation, which was not the fault. GitHub shows the code, then a
    paragraph ': Listing 1 …'. Now the code stays a code block, the caption a paragraph as
    there, with one warning at its line: write it as a sentence above the code."""
    block = f"Text.\n\n```python\nx = 1\n```\n{gap}: Listing 1 {{#lst-x}}\n\nMore."
    body = _inside(container, block)
    with captured() as warned:
        out = html(tmp_path, body)
    tree = Tree(out)
    assert not [e for e in tree.elements if e["tag"] in ("dl", "dt", "dd")], out
    assert any(e["tag"] == "pre" for e in tree.elements), out
    line = BODY_START + next(n for n, x in enumerate(body.split("\n")) if "Listing 1" in x)
    assert len(warned) == 1 and f"index.md:{line}: " in warned[0], warned
    assert "caption" in warned[0] and "above the code" in warned[0], warned


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("caption", [": Scores by head {#tbl-scores}", ": Scores by head",
                                     "Table: Scores by head"])
def test_a_pandoc_caption_right_under_a_table_warns_at_its_line(
        tmp_path: Path, lang: str, caption: str) -> None:
    """Pandoc's and Quarto's table caption written right under the table (`: Caption
    {#tbl-x}`, or `Table: Caption`, no blank line) is one more row of the table, here and on
    GitHub (its `{#…}` hidden here, shown there), with no message: the author meant a
    caption. A warning at its line; a row that only starts with ':' among other cells
    stays quiet."""
    body = ("| a | b |\n|---|---|\n| 1 | 2 |\n| : x | 3 |\n" + caption + "\n\nAfter.\n")
    with captured() as warned:
        html(tmp_path, body, lang=lang)
    line = BODY_START + 4
    assert len(warned) == 1 and f"index.md:{line}: " in warned[0], warned
    assert "caption" in warned[0] and "above the table" in warned[0], warned


@pytest.mark.parametrize("container", CONTAINERS)
@pytest.mark.parametrize("info", ["{python}", "{r}", "{python echo=FALSE}", "{julia}"])
def test_a_chunk_quarto_would_run_is_warned_at_its_line(tmp_path: Path, container: str,
                                                        info: str) -> None:
    """A Quarto or R Markdown chunk (```` ```{python} ````) is code those tools run, showing
    its output (a plot, a table) under it; here, as on GitHub, only its code was shown, with
    no message, so the output the author meant was lost silently. A fence of a language
    (```` ```python ````) or of pandoc's attributes (```` ```{.python} ````) stays quiet."""
    body = _inside(container, f"Text.\n\n```{info}\nimport numpy as np\nprint(np.pi)\n```\n\n"
                              "```python\nx = 1\n```\n\n```{.python}\ny = 2\n```\n\nMore.")
    with captured() as warned:
        out = html(tmp_path, body)
    line = BODY_START + next(n for n, x in enumerate(body.split("\n")) if info in x)
    # the chunk's message alone: its options (`echo=FALSE`) and language in braces are no
    # 'code fence options' to remove as well (the chunk's advice says what to write)
    chunk = [w for w in warned if "not run" in w]
    assert len(chunk) == 1 and all(f"index.md:{line}: " in w for w in warned), warned
    assert not [w for w in warned if "fence option" in w], warned
    lang = info.strip("{}").split()[0]
    assert f"write the fence as '```{lang}'" in chunk[0], warned
    assert "print(np.pi)" in out, out


@pytest.mark.parametrize("container", CONTAINERS)
def test_docusaurus_s_mdx_wrapper_fence_is_warned_at_its_line(tmp_path: Path,
                                                            container: str) -> None:
    """Docusaurus' ```` ```mdx-code-block ```` fence wraps MDX (imports, components) that
    Docusaurus reads as the page's own; here, as on GitHub, it was a block of code, with no
    message. Its line now says so; a fence of a language stays quiet."""
    body = _inside(container, "Text.\n\n```mdx-code-block\nimport Tabs from '@theme/Tabs';\n"
                              "```\n\n```python\nx = 1\n```\n\nMore.")
    with captured() as warned:
        out = html(tmp_path, body)
    line = BODY_START + next(n for n, x in enumerate(body.split("\n")) if "mdx-code" in x)
    assert len(warned) == 1 and f"index.md:{line}: " in warned[0], warned
    assert "Docusaurus' MDX wrapper" in warned[0] and "as a block of code" in warned[0], warned
    assert "@theme/Tabs" in out, out


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("body, comment", [
    ("Line one.\n<!-- a note -->\nLine two.\n", 1),
    ("- item\n<!-- - a hidden item -->\n- next\n", 1),
    ("> Line one.\n> <!-- a note -->\n> Line two.\n", 1),
    ("| d | SD |\n|---|---|\n| 4 | 2.0 |\n<!-- | 16 | 4.0 | -->\n| 64 | 8.0 |\n", 3),
    ("- item\n\n    Its text.\n    <!-- a note -->\n    More text.\n", 3),
    ("Line one.\n<!-- a note\n\nover lines -->\nLine two.\n", 1),
], ids=["paragraph", "list", "quote", "table", "item's paragraph", "over lines"])
def test_a_comment_line_right_under_text_warns_at_its_line(tmp_path: Path, lang: str,
                                                           body: str, comment: int) -> None:
    """A comment that starts a line is a block of raw HTML on GitHub (CommonMark's HTML block
    of kind 2), which ends the paragraph, list, quote or table right above it: `Line one.`,
    `<!-- … -->`, `Line two.` is two paragraphs there, `- item`, comment, `- next` two lists.
    The build drops comments before anything reads the article (so the GitHub comparison,
    reading the same text, saw nothing) and kept the lines together: one paragraph, one list,
    silently."""
    with captured() as warned:
        html(tmp_path, body, lang=lang)
    at = [w for w in warned if "this comment starts a line right under" in w]
    assert len(at) == 1 and f"index.md:{BODY_START + comment}: warning:" in at[0], warned
    assert "put a blank line before and after the comment" in at[0]


@pytest.mark.parametrize("body", [
    "Line one.\n\n<!-- a note -->\nLine two.\n",
    "Line one.\n<!-- a note -->\n\nLine two.\n",
    "Line one. <!-- a note -->\nLine two.\n",
    "Line one.\n    <!-- a note, indented into the paragraph -->\nLine two.\n",
    "## A heading {#a-heading}\n<!-- a note -->\nLine two.\n",
    "Line one.\n\n<!-- a note -->\n\nLine two.\n",
    "```\nLine one.\n<!-- code -->\nLine two.\n```\n",
], ids=["blank above", "blank below", "inside the line", "indented", "under a heading",
        "a block of its own", "in code"])
def test_a_comment_both_parsers_read_alike_does_not_warn(tmp_path: Path, body: str) -> None:
    with captured() as warned:
        html(tmp_path, body)
    assert warned == []


@pytest.mark.parametrize("body, line", [
    ("<!-- a note -->*Line one.*\n*Line two.*\n", 0),
    ("Before.\n\n<!-- a note\nover lines --> Text.\n", 3),
], ids=["one line", "over lines"])
def test_text_after_a_comment_that_starts_a_line_warns_at_its_line(tmp_path: Path, body: str,
                                                                   line: int) -> None:
    """GitHub reads the rest of the line holding the `-->` of a comment that starts a line as
    HTML (CommonMark's example 179: `*bar*` keeps its stars, and is no paragraph); the page
    read it as Markdown, with no message."""
    with captured() as warned:
        html(tmp_path, body)
    at = [w for w in warned if "text follows this comment's '-->'" in w]
    assert len(at) == 1 and f"index.md:{BODY_START + line}: warning:" in at[0], warned


@pytest.mark.parametrize("tag", ['<div\nclass="note">', '<details\nopen>', '<div\n>'])
def test_a_block_tag_with_attributes_on_its_next_line_is_no_paragraph(tmp_path: Path,
                                                                      tag: str) -> None:
    """A raw `<div` whose attributes (or `>`) are on the next line was published inside a
    `<p>` (Python-Markdown read the tag's name up to a space only, 'div\\nclass="note"', no
    block element): a block inside a paragraph, where GitHub writes the HTML as typed."""
    name = tag[1:].split()[0]
    body = f"Before.\n\n{tag}\nText inside.\n</{name}>\n\nAfter.\n"
    out = html(tmp_path, body)
    assert f"{tag}\nText inside.\n</{name}>" in out and f"<p>{tag}" not in out, out


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_emoji_shortcodes_are_shown_as_on_github(tmp_path: Path, lang: str) -> None:
    """GitHub shows `:smile:`, `:+1:`, `:warning:` as the emoji; the page showed the
    shortcodes as typed. Now pymdownx.emoji (gemoji's index, the character itself: no image,
    no network), in text, headings, list items, table cells, quotes, links and notes, with
    no message (the GitHub comparison reads the same emoji)."""
    body = ("Done :smile: and :+1:, mind :warning:.\n\n## Next :tada: {#next}\n\n"
            "- :heart: item\n\n| a | b |\n|---|---|\n| :x: | 1 |\n\n> :bulb: quoted\n\n"
            "A [link :rocket:](#next) and a note[^n].\n\n[^n]: A note :smile:.\n")
    with captured() as warned:
        out = html(tmp_path, body, lang=lang)
    for shown in ("Done \U0001f604 and \U0001f44d, mind \u26a0", "Next \U0001f389",
                  "\u2764", "<td>\u274c</td>", "\U0001f4a1 quoted", "link \U0001f680",
                  "A note \U0001f604"):
        assert shown in out, (shown, out)
    assert ":smile:" not in out and "<img" not in out and warned == []


@pytest.mark.parametrize("text, kept", [
    ("The ratio a:b:c is 1:2:3.", "a:b:c is 1:2:3"),
    ("It ran from 10:30:00 to 12:100:5.", "10:30:00 to 12:100:5"),
    ("An :not_an_emoji: stays, and :smile without its colon.", ":not_an_emoji: stays"),
    ("In code `:smile:` stays.", "<code>:smile:</code>"),
    ("In math $a:smile:b$ too.", 'class="math"'),
    ("A ratio 1:{{ spread.n_pairs | grouped }}:smile.", ":smile."),
    ("A :term: and a {: .screen-only } attribute.", ":term:"),
], ids=["ratios", "times", "unknown names", "code", "math", "template", "colons"])
def test_text_that_only_looks_like_a_shortcode_stays_as_typed(tmp_path: Path, text: str,
                                                              kept: str) -> None:
    out = html(tmp_path, text + "\n")
    assert not re.search("[\U0001f300-\U0001faff\u2600-\u27bf]", out), out
    assert kept in out, out


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_shortcode_with_an_escaped_colon_warns_that_github_shows_the_emoji(
        tmp_path: Path, lang: str) -> None:
    """`\\:smile:` showed ':smile:' here, while GitHub, which reads shortcodes after Markdown
    (the backslash gone), shows the emoji; the only message was the comparison's 'only the
    words differ'. Each now warns at its own line, saying what GitHub shows and how to
    write either; code and a name of no emoji stay quiet."""
    body = ("First :tada: words.\n\nA \\:smile: and :smile\\: here, `\\:smile:` and "
            "\\:notanemoji:.\n\n- item \\:warning\\:\n")
    with captured() as warned:
        out = html(tmp_path, body, lang=lang)
    assert [w.split(": warning: ")[0].rsplit(":", 1)[1] for w in warned] == \
        [str(BODY_START + 2)] * 2 + [str(BODY_START + 4)], warned
    assert "'\\:smile:': GitHub shows the emoji \U0001f604" in warned[0], warned
    assert "write it as code, `:warning:`" in warned[2], warned
    assert out.count(":smile:") == 3 and "\U0001f604" not in out, out


def test_a_shortcode_in_a_code_block_stays_as_typed(tmp_path: Path) -> None:
    body = "Before :smile:.\n\n```\nprint(':smile:')\n```\n\n    indented :smile:\n"
    out = html(tmp_path, body)
    assert "print(&#x27;:smile:&#x27;)" in out or "print(':smile:')" in out, out
    assert "indented :smile:" in out and "Before \U0001f604." in out


def _links(body: str) -> list[tuple[str, str, str]]:
    """(href, title, text) of each link of a page's HTML, notes' numbers left out."""
    return [(e["attrs"]["href"], e["attrs"].get("title", ""), e["text"])
            for e in Tree(body).elements if e["tag"] == "a" and "footnote" not in
            e["attrs"].get("class", "")]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_escaped_parentheses_in_a_link_address_are_parentheses_as_on_github(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, lang: str) -> None:
    """`\\(` and `\\)` in a link's address or title (a Wikipedia address) are escaped
    parentheses, as on GitHub, in an inline link, a reference definition and a note; they
    were read as a formula `\\(…\\)`, and the page linked `…/Python_programming_language`.
    Outside a link's address `\\(x\\)` stays a formula."""
    import logging
    wiki = "https://en.wikipedia.org/wiki/Python_\\(programming_language\\)"
    body = (f"See [Python]({wiki} \"the \\(language\\)\"), [it][ref] and \\(x^2\\) here[^n].\n\n"
            f"[ref]: {wiki} \"a \\(title\\)\"\n\n"
            f"[^n]: A note: [Python]({wiki}).\n")
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        p = page(tmp_path, body, RESULTS, lang=lang)
    meant = "https://en.wikipedia.org/wiki/Python_(programming_language)"
    assert _links(p.body) == [(meant, "the (language)", "Python"), (meant, "a (title)", "it"),
                              (meant, "", "Python")], p.body
    assert [f.plain for f in p.formulas] == ["x^2"]
    assert [r.getMessage() for r in caplog.records] == []


def test_a_backslash_escape_in_a_reference_definition_is_the_mark_it_escapes(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """As in an inline link and on GitHub (Python-Markdown kept the backslash of a
    reference definition's address and title, and the page linked `/bar%5C*`)."""
    import logging
    body = "[foo] and [bar](/bar\\* \"ti\\*tle\").\n\n[foo]: /bar\\* \"ti\\*tle\"\n"
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        links = _links(html(tmp_path, body))
    assert links == [("/bar*", "ti*tle", "foo"), ("/bar*", "ti*tle", "bar")]
    assert [r.getMessage() for r in caplog.records] == []


def test_a_backslash_in_a_link_address_is_sent_as_github_sends_it(tmp_path: Path) -> None:
    """A browser takes a raw backslash in an address for a '/' (`foo\\bar` went to
    `foo/bar`); GitHub writes it %5C, typed or escaped."""
    body = "[a](foo\\bar), [b](foo\\\\bar) and <https://example.org/c\\d>.\n"
    assert [h for h, _, _ in _links(html(tmp_path, body))] == [
        "foo%5Cbar", "foo%5Cbar", "https://example.org/c%5Cd"]


def test_the_line_of_a_link_written_with_an_entity_or_escape_is_known(tmp_path: Path) -> None:
    """The site's check looks a link's line up by its address as read from the page
    (entities decoded): `[a](url &quot;t&quot;)` (a link here, text on GitHub: the check
    warns) and `[b](/p\\*)` were looked up as written in the tree, and warned at line 0."""
    p = page(tmp_path, "One.\n\n[a](url &quot;t&quot;) and [b](/p\\*).\n", RESULTS)
    urls = p.conversion.lines.urls
    assert urls.get('url%20"t"') == BODY_START + 2 and urls.get("/p*") == BODY_START + 2, urls
    assert 'url "t"' in p.conversion.lines.spaced


@pytest.mark.parametrize("body", ["[foo [bar](/uri)](/uri)\n", "[foo *[bar](/x)*](/uri)\n"])
def test_a_link_written_inside_a_link_s_text_stops_at_its_line(tmp_path: Path,
                                                               body: str) -> None:
    """GitHub links only the inner one (the outer brackets are text); the page linked the
    outer text, the inner link shown as typed (silently, when both go to one address)."""
    e = error(tmp_path, "One.\n\n" + body)
    assert e.line == BODY_START + 2 and "a link cannot hold another one" in e.message, str(e)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("written, said", [
    ('a*"foo"*', "the page shows '\"foo\"' in italics, GitHub as plain text"),
    ('a**"foo"**', "the page shows '\"foo\"' in bold, GitHub as plain text"),
    ("*(*foo)", "the page shows '(' in italics, GitHub as plain text"),
    ("**(**foo)", "the page shows '(' in bold, GitHub as plain text"),
    ("*(*foo*)*", "the page shows 'foo' as plain text, GitHub in italics"),
    # bold code against a letter: a backtick is a punctuation mark to CommonMark, so the
    # stars open or close nothing there (code and two asterisks on GitHub)
    ("a list of **`Tensor`**s", "the page shows 'Tensor' in bold, GitHub as plain text"),
    ("\u4ee5\u53ca**`torch.softmax`**\u51fd\u6570",
     "the page shows 'torch.softmax' in bold, GitHub as plain text"),
])
@pytest.mark.parametrize("where", ["paragraph", "item", "cell", "note"])
def test_emphasis_github_reads_otherwise_warns_at_its_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, lang: str, written: str, said: str,
        where: str) -> None:
    """CommonMark opens and closes emphasis by what stands around each `*` (its flanking
    rules), Python-Markdown does not: where the two read a block's emphasis differently, a
    warning at the block's line says how each shows it."""
    import logging
    body = {"paragraph": f"One.\n\nWords {written} here.\n",
            "item": f"One.\n\n- first\n- Words {written} here.\n",
            "cell": f"One.\n\n| a | b |\n|---|---|\n| x | Words {written} |\n",
            "note": f"One[^n].\n\n[^n]: Words {written} here.\n"}[where]
    line = BODY_START + {"paragraph": 2, "item": 3, "cell": 4, "note": 2}[where]
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        html(tmp_path, body, lang=lang)
    got = [r.getMessage() for r in caplog.records]
    assert len(got) == 1 and f"index.md:{line}: warning:" in got[0] and said in got[0], got


@pytest.mark.cpu_timeout(20)    # about 1.5 s (the growth check); before, minutes
@pytest.mark.parametrize("unit, lang", [("*a*中 ", "zh"), ("x*y ", "en")],
                         ids=["emphasis then Chinese", "asterisks between letters"])
def test_a_long_paragraph_s_emphasis_is_compared_in_linear_time(
        tmp_path: Path, unit: str, lang: str) -> None:
    """The two readings' emphasis was aligned letter by letter with difflib, in the square
    of the paragraph's length and more (50 KB of `*a*中 `: 110 s; `x*y ` 4,000 times: 12 s).

    A paragraph of 1,000 and 4,000 units through the page: `*a*中 ` about 0.22 s and
    1.04 s of CPU, `x*y ` 0.13 s and 0.53 s (4.8 and 4.2 times; the limit is 8, the square
    16); with difflib over every letter again (emphasis_diff's bound on the pairs it
    compares lifted), 0.43 s and 4.5 s, 0.34 s and 4.1 s (10.5 and 12 times)."""
    from helpers import assert_linear_growth

    from sqrtdk.log import captured

    def paragraph(times: int) -> Any:
        def work() -> None:
            with captured():
                html(tmp_path, "One.\n\n" + unit * times + "\n", lang=lang)
        return work
    assert_linear_growth(paragraph, 1000)


@pytest.mark.cpu_timeout(60)    # linear: a second; before, the readings' alignment took minutes
def test_a_long_table_both_read_alike_is_compared_in_linear_time(tmp_path: Path) -> None:
    """The two readings' blocks were aligned by difflib even where they were the same, and a
    table row is junk to it (md_blocks' comparison, block_diff.align): a table of 10,000
    rows and 20,000 cells, each row '| $x_{i}$ | i |', took over a minute, in the square of
    its rows (these 30,000 rows: many minutes). Read alike, the blocks are aligned at once,
    each at its own line; a table of a few rows goes through the whole comparison."""
    from sqrtdk.log import captured
    from sqrtdk.web.block_diff import align
    from sqrtdk.web.blocks import Block
    rows = 30000
    blocks = [Block("table", 0, "", 1)] + [b for i in range(rows) for b in (
        Block("tr", 1, "", i + 3), Block("td", 2, f"x{i}", i + 3), Block("td", 2, str(i), i + 3))]
    done = align(blocks, list(blocks))
    assert done.differences == [] and all(done.exact) and done.lines == [b.line for b in blocks]
    body = "| a | b |\n|---|---|\n" + "".join(f"| $x_{{{i}}}$ | {i} |\n" for i in range(20))
    with captured() as warned:
        made = html(tmp_path, "One.\n\n" + body)
    assert warned == [] and made.count("<tr") == 21, warned


@pytest.mark.cpu_timeout(60)    # linear: about a second; before, minutes
def test_markdown_marks_in_a_long_article_are_placed_in_linear_time() -> None:
    """Bold, links and code between raw HTML's tags are found in the text the HTML parser
    hands over, which for an article with little HTML is most of the article: each mark's
    line was counted from that text's start, in the square of its length (12,000 links:
    12 s of a build's 33; these 100,000: minutes). The mark in the HTML block at the end
    is still told at its line."""
    from sqrtdk.web.raw_html import markdown_in_raw_html
    text = "See [a link](https://a.example/x) here.\n" * 100000 + "<div>\n**b**\n</div>\n"
    assert markdown_in_raw_html(text) == [("**b**", 100002)]


def test_a_long_block_s_emphasis_read_otherwise_is_still_found() -> None:
    """Long blocks are aligned by what they share at either end first: a letter shown in
    italics by one reading only is still named, before, in and after a stretch apart."""
    from sqrtdk.web.emphasis_diff import emphasis_difference
    plain, em = frozenset(), frozenset({"em"})
    text = [(c, plain) for c in "abcdefghij" * 200]
    assert emphasis_difference(text, list(text)) == ""
    for at in (5, 1000, 1995):
        mine = [*text[:at], ("Q", em), *text[at:]]
        github = [*text[:at], ("Q", plain), *text[at:]]
        assert emphasis_difference(mine, github) == \
            "the page shows 'Q' in italics, GitHub as plain text"
        # a stretch one reading has and the other lacks, then the difference after it
        assert emphasis_difference([*mine[:10], ("X", plain), *mine[10:]], github) == \
            "the page shows 'Q' in italics, GitHub as plain text"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_emphasis_both_read_alike_warns_nothing(tmp_path: Path,
                                                caplog: pytest.LogCaptureFixture,
                                                lang: str) -> None:
    import logging
    body = ('Some *em*, **strong**, ***both***, _u_ and __uu__, *"quoted"* and a *(b)*, '
            "snake_case_name, 2 * 3 * 4, a [*link*](https://example.org) and `*code*`.\n\n"
            "- *item* **bold**\n- plain\n\nCall **`softmax`** here, (**`x`**), "
            "**`d_k`**-dimensional, *`a < b`* and ***`c`***.\n")
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        html(tmp_path, body, lang=lang)
    assert [r.getMessage() for r in caplog.records] == []


@pytest.mark.parametrize("body, what", [
    ("*Water is H~2~O.*\n", "subscript"),
    ("**a ~~b~~ c**\n", "strikethrough"),
    ("[see ==this==](https://example.org)\n", "highlighting"),
    ("*See :numref:`fig-walk`*.\n", "Sphinx or MyST role"),
])
def test_other_tools_syntax_inside_emphasis_or_a_link_warns_at_its_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, body: str, what: str) -> None:
    """The check looked at a block's own text and what follows each inline element, never
    inside emphasis or a link's text: `*foo\\` + a line break + `bar*` was published with
    its backslash, silently (now a line break: see the test below)."""
    import logging
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        html(tmp_path, "One.\n\n" + body)
    got = [r.getMessage() for r in caplog.records if "published as typed" in r.getMessage()]
    assert len(got) == 1 and what in got[0] and "\n" not in got[0], got
    assert f"index.md:{BODY_START + 2}: warning:" in got[0], got


def test_bold_quoted_words_right_after_chinese_text_warn_saying_where_the_quotes_go(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """`这是**“重点”**内容`: on GitHub a `**` between a Chinese letter and a quotation mark
    opens no emphasis (the asterisks are shown), here it is bold; with the quotation marks
    outside the emphasis both read it as bold."""
    import logging
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        html(tmp_path, "第一段。\n\n这是**“重点”**内容。\n\n这是“**重点**”内容。\n", lang="zh")
    got = [r.getMessage() for r in caplog.records]
    assert len(got) == 1 and f"index.md:{BODY_START + 2}: warning:" in got[0], got
    assert "'“重点”' in bold, GitHub as plain text" in got[0] and "outside the emphasis" in got[0]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_backslash_at_a_line_s_end_is_a_line_break_as_on_github(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, lang: str) -> None:
    """CommonMark's hard line break `\\` + line ending, in emphasis too (it was published as
    typed, with a warning, and inside emphasis without one); an escaped backslash at a
    line's end (`\\\\`) stays a backslash, and a paragraph's last backslash stays too."""
    import logging
    body = "One\\\ntwo, *foo\\\nbar* and c\\\\\nd.\n\nend\\\n"
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        tree = Tree(html(tmp_path, body, lang=lang))
    paragraphs = [e for e in tree.elements if e["tag"] == "p"]
    brs = [e["ancestors"][-1] for e in tree.elements if e["tag"] == "br"]
    assert brs == ["p", "em"], brs
    assert "c\\" in paragraphs[0]["text"] and paragraphs[1]["text"] == "end\\"
    assert "\\" not in paragraphs[0]["text"].replace("c\\", "")
    assert [r.getMessage() for r in caplog.records] == []


def test_an_address_in_angle_brackets_that_looks_like_a_tag_is_an_address(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """`[b](<my file.html>)` (CommonMark's way to write an address with a space): the lexer
    took `<my …>` for a tag-like token and wrote its `<` as `&lt;`, so the page linked
    `<my%20file.html>` and GitHub's reading of the same text saw no link at all."""
    import logging
    body = 'A [b](<my file.html>) and [c](<docs/a b.html> "<b>t</b>") link, a <span>x</span>.\n'
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        p = page(tmp_path, body, RESULTS)
    assert _links(p.body) == [("my%20file.html", "", "b"), ("docs/a%20b.html", "<b>t</b>", "c")]
    assert "<span>x</span>" in p.body and not p.conversion.lines.spaced
    assert [r.getMessage() for r in caplog.records] == []


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_definition_with_no_term_warns_at_its_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, lang: str) -> None:
    """Pandoc's table caption ': Caption {#tbl-x}' was a <dl> with a bare <dd>, silently
    (GitHub shows a paragraph ': Caption')."""
    import logging
    body = "First.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n: SD of the raw scores {#tbl-raw}\n\nLast.\n"
    line = BODY_START + body.split("\n").index(": SD of the raw scores {#tbl-raw}")
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        html(tmp_path, body, lang=lang)
    got = [r.getMessage() for r in caplog.records if "no term" in r.getMessage()]
    assert len(got) == 1 and f"index.md:{line}: warning:" in got[0], got
    assert "caption" in got[0]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("above", ["Intro.\n\n", "- a\n- b\n\n"], ids=["paragraph", "list"])
def test_a_definition_a_blank_line_below_its_term_draws_no_advice_about_nested_lists(
        tmp_path: Path, lang: str, above: str) -> None:
    """A definition list with a blank line between each term and its ': …' line
    (567-labs/instructor's docs/blog/posts/chain-of-density.md: '`3.5 Finetuned (n)`', a
    blank line, ': This is a GPT 3.5 model …') is a definition list here, as the same list
    without the blank lines is (README: definition lists are this Markdown's own, shown as
    paragraphs on GitHub); it was told 'GitHub (CommonMark) starts a paragraph here … the
    page keeps these lines in the block above: indent a nested list … by 4 spaces per
    level', advice about lists for a list of terms, which changes nothing when followed.
    The term's paragraph is left out on GitHub's side, as its ': …' paragraph already was:
    no warning, as for the list without blank lines."""
    body = f"{above}`Apple`\n\n: A fruit.\n\n`Pear`\n\n: Another fruit.\n\nAfter.\n"
    with captured() as warned:
        out = html(tmp_path, body, lang=lang)
    assert "<dt><code>Apple</code></dt>" in out and "<dt><code>Pear</code></dt>" in out, out
    assert not [w for w in warned if "GitHub" in w], warned


def test_a_definition_with_its_term_does_not_warn(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    import logging
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        html(tmp_path, "First.\n\nTerm\n:   Its definition.\n")
    assert not [r for r in caplog.records if "no term" in r.getMessage()]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("syntax, what", [
    ("The ~~key $x$ idea~~ here.\n", "strikethrough"),
    ("The ~~key `code` idea~~ here.\n", "strikethrough"),
    ("==The sum of $d_k$ products.== It grows.\n", "highlighting"),
    ("The ==key *idea*== here.\n", "highlighting"),
    ("An ^^inserted [link](#x)^^ word.\n", "insertion"),
], ids=["strike over math", "strike over code", "mark over math", "mark over emphasis",
        "insert over link"])
def test_other_tools_markup_around_math_code_or_emphasis_warns_at_its_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, syntax: str, what: str,
        lang: str) -> None:
    """Markup of other tools spanning an inline element (math, code, emphasis, a link) was
    published as typed with no message (GitHub strikes '~~the $x$ term~~')."""
    import logging
    body = f"First paragraph.\n\n{syntax}\nLast paragraph.\n"
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        html(tmp_path, body, lang=lang)
    got = [r.getMessage() for r in caplog.records if "published as typed" in r.getMessage()]
    assert len(got) == 1 and what in got[0] and "\n" not in got[0], got
    assert f"index.md:{BODY_START + 2}: warning:" in got[0], got


@pytest.mark.parametrize("body", ["范围是 $a$~$b$，和 $c$~$d$ 一样。\n",
                                  "From `a`~`b` and `c`~`d`.\n"])
def test_a_tilde_range_between_math_or_code_does_not_warn(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, body: str) -> None:
    import logging
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        html(tmp_path, body, lang="zh")
    assert not [r for r in caplog.records if "published as typed" in r.getMessage()]


def test_a_stylesheet_in_a_raw_block_with_blank_lines_is_refused_at_its_line(
        tmp_path: Path) -> None:
    """nbconvert's pandas table, a <div> holding <style scoped> with blank lines, was refused
    at the '</style>' line (where GitHub's last block of it starts)."""
    raw = ("<div>\n<style scoped>\n    .dataframe th {\n        vertical-align: top;\n    }\n\n"
           "    .dataframe td {\n        text-align: right;\n    }\n</style>\n"
           "<table><tr><td>1</td></tr></table>\n</div>\n")
    for above in ("", "```python\ndf\n```\n\n\n\n\n"):
        body = "First.\n\n" + above + raw + "\nLast.\n"
        e = error(tmp_path, body)
        line = BODY_START + body.split("\n").index("<style scoped>")
        assert e.line == line and "<style" in e.message, above


@pytest.mark.parametrize("ident", ["sec:related", "fig.1", "related"])
def test_a_level_one_heading_is_told_the_heading_to_write_with_its_whole_id(
        tmp_path: Path, ident: str) -> None:
    """pandoc's '# Related work {#sec:related}' was told to write '## Related work {#sec}',
    another id (the id was cut at its ':' or '.')."""
    e = error(tmp_path, f"First.\n\n## A {{#a}}\n\nText.\n\n# Related work {{#{ident}}}\n\nMore.\n")
    assert e.line == BODY_START + 6 and f"'## Related work {{#{ident}}}'" in e.message, e.message


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_pandoc_simple_table_warns_at_its_rule(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, lang: str) -> None:
    """Pandoc's simple table (a header, dashes parted by spaces, rows) became a paragraph, a
    rule and a definition list, with a warning about list indentation at a row."""
    import logging
    body = ("First.\n\n  Scale     SD\n  --------- -----\n  none      8\n  scaled    1\n\n"
            "Last.\n")
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        html(tmp_path, body, lang=lang)
    got = [r.getMessage() for r in caplog.records if "simple table" in r.getMessage()]
    assert len(got) == 1 and f"index.md:{BODY_START + 3}: warning:" in got[0], got
    assert "pipe table" in got[0]


def test_a_rule_of_spaced_dashes_after_a_blank_line_does_not_warn(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    import logging
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        html(tmp_path, "First.\n\n- - -\n\n--- --- ---\n\nLast.\n")
    assert not [r for r in caplog.records if "simple table" in r.getMessage()]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_emphasis_warning_quotes_a_formula_as_written(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, lang: str) -> None:
    """A CSDN post's '来了：**为什么要除以 $\\sqrt{d_k}$？**' was told 'the page shows
    '为什么要除以\\U000f0010 2\\U000f0011？' in bold': the formula's private-use marker."""
    import logging
    body = "First.\n\n那么问题来了：**为什么要除以 $\\sqrt{d_k}$？**🤔\n"
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        html(tmp_path, body, lang=lang)
    got = [r.getMessage() for r in caplog.records if "emphasis" in r.getMessage()]
    assert len(got) == 1 and "$\\sqrt{d_k}$" in got[0], got
    assert not PRIVATE_USE_RE.search(got[0]), got


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("spacer", ["&nbsp;", "&emsp;&emsp;", "&#160;"])
def test_a_paragraph_of_only_a_character_reference_is_a_paragraph_as_on_github(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, spacer: str, lang: str) -> None:
    """CSDN's and Yuque's spacer paragraph '&nbsp;' was warned as raw HTML here and a
    paragraph on GitHub (or, under a raw block, 'GitHub starts a paragraph here … indent a
    nested list …'), though both show an empty line."""
    import logging
    for above in ("", "<center>x</center>\n\n"):
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="sqrtdk"):
            out = html(tmp_path, f"First.\n\n{above}{spacer}\n\n## H {{#h}}\n\nText.\n", lang=lang)
        assert [r.getMessage() for r in caplog.records] == [], above
        assert "<p>" + spacer + "</p>" in out or "<p>\u00a0</p>" in out or \
            "<p>\u2003\u2003</p>" in out, out


@pytest.mark.parametrize("container", CONTAINERS)
@pytest.mark.parametrize(("info", "advice"), [
    ("{note}", "'/// details | Note', '    attrs: {id: note}'"),
    ("{admonition} Assumption", "'/// details | Assumption', '    attrs: {id: assumption}'"),
    ("{dropdown} Derivation", "'/// details | Derivation', '    attrs: {id: derivation}'"),
    ("{math}", "two '$$' lines"),
    ("{code-cell} ipython3", "write the fence as '```python'"),
    ("{glue:figure} entropy_plot", "![what it shows](NAME.svg \"Caption\")"),
    ("{list-table} Hyperparameters", "pipe table"),
    ("{bibliography}", "in Markdown"),
])
def test_a_myst_directive_fence_is_warned_at_its_line_with_what_to_write(
        tmp_path: Path, container: str, info: str, advice: str) -> None:
    """MyST's (Jupyter Book's) directives are fences (```` ```{note} ````, ```` ```{math} ````,
    ```` ```{admonition} Title ````): published as code, here as on GitHub. One without an
    argument was told it is a Quarto chunk to write as ```` ```note ```` (a code block still);
    one with an argument after its brace, or a ':' in its name, had no message at all (or
    only a fence option ':figure' to remove), its box, formula, figure or table lost."""
    body = _inside(container, f"Text.\n\n```{info}\n:label: x\n\nSome $x$ text.\n```\n\nMore.")
    with captured() as warned:
        html(tmp_path, body)
    line = BODY_START + next(n for n, x in enumerate(body.split("\n")) if info in x)
    assert len(warned) == 1 and f"index.md:{line}: " in warned[0], warned
    assert "MyST" in warned[0] and "Quarto" not in warned[0], warned
    assert advice in warned[0], warned


@pytest.mark.parametrize("lang, info, title, box_id", [
    ("en", "{important}", "Important", "important"),
    ("en", "{admonition} Why the root", "Why the root", "why-the-root"),
    ("zh", "{admonition} \u5c0f\u6280\u5de7", "\u5c0f\u6280\u5de7", "admonition"),
    ("en", "{prf:theorem}", "Theorem", "theorem"),
    # a dollar sign in the info string (code there) is written '\$' in the title line, which
    # stopped the build as written; a formula stays one
    ("en", "{admonition} Cost in $", "Cost in \\$", "cost-in"),
    ("zh", "{admonition} \u8d39\u7528 $5 \u6216 $6", "\u8d39\u7528 \\$5 \u6216 \\$6",
     "admonition-5-6"),
    ("en", "{admonition} Why $\\sqrt{d}$", "Why $\\sqrt{d}$", "why-sqrt-d"),
])
def test_a_myst_box_fence_is_plain_code_and_told_the_lines_of_its_box(
        tmp_path: Path, lang: str, info: str, title: str, box_id: str) -> None:
    """```` ```{important} ```` was published as `<code important="None">` (superfences read
    the braces as an attribute list: an attribute no reader sees) and told to write "a
    '/// details | Title' box", which, followed, stopped the build (a box needs an id). It
    is now a plain block of code, as on GitHub, and told the lines of its box as GitHub's
    alerts and MkDocs' admonitions are; those lines make the box with no warning."""
    fence = f"Intro.\n\n```{info}\n:class: dropdown\nScale by the root of the width.\n```\n"
    with captured() as warned:
        made = html(tmp_path, fence, lang=lang)
    assert '="None"' not in made and "<pre" in made and "<code>" in made, made
    got = [w for w in warned if "MyST" in w]
    assert len(got) == 1 and f"index.md:{BODY_START + 2}: warning:" in got[0], warned
    assert f"'/// details | {title}', '    attrs: {{id: {box_id}}}'" in got[0], got[0]
    assert "':class: …'" in got[0], got[0]
    box = (f"Intro.\n\n/// details | {title}\n    attrs: {{id: {box_id}}}\n\n"
           "Scale by the root of the width.\n///\n")
    with captured() as warned:
        made = html(tmp_path, box, lang=lang)
    assert warned == [] and f'id="{box_id}"' in made and "<details" in made, warned


@pytest.mark.parametrize("passage, text", [
    ("::: tip 2018 results\nText.\n:::\n", "Text."),
    ('!!! note "2018 results"\n    Text.\n', "Text."),
    ("```{admonition} 2018 results\nText.\n```\n", "Text."),
    ("> [!NOTE] 2018 results\n> Text.\n", "Text."),
], ids=["container", "admonition", "myst", "alert"])
def test_a_box_told_for_a_title_that_starts_with_a_digit_has_an_id_that_builds(
        tmp_path: Path, passage: str, text: str) -> None:
    """A box told in place of another tool's (a ':::' container, MkDocs' admonition, a MyST
    directive, a GitHub alert) titled '2018 results' was told 'attrs: {id: 2018-results}',
    which, followed, stopped the build: a box's id starts with a letter. The id starts with
    the box's kind now, and the lines told build with no warning."""
    with captured() as warned:
        html(tmp_path, f"Intro.\n\n{passage}")
    told = [re.search(r"'(/// details \| [^']*)', '(    attrs: \{id: [^}]*\})'", w) for w in warned]
    lines = next(m for m in told if m)
    box = f"Intro.\n\n{lines[1]}\n{lines[2]}\n\n{text}\n///\n"
    with captured() as warned:
        made = html(tmp_path, box)
    assert warned == [] and "<details" in made and "2018 results" in made, (box, warned)


@pytest.mark.parametrize("info", ["{python}", "{r echo=FALSE}", "{code-cell} ipython3",
                                  "{list-table}"])
def test_a_braced_fence_carries_no_attribute_of_its_words(tmp_path: Path, info: str) -> None:
    """A Quarto chunk or a MyST directive of another kind: a plain block of code, with no
    `python="None"` on its code element."""
    with captured():
        made = html(tmp_path, f"Intro.\n\n```{info}\nx = 1\n```\n")
    assert '="None"' not in made and "<code>x = 1</code>" in made, made


def test_two_myst_boxes_alike_are_told_ids_of_their_own(tmp_path: Path) -> None:
    """As two Notion callouts: each box told takes an id no other box told and no id the
    article writes has."""
    body = ("## Notes {#note}\n\nIntro.\n\n```{note}\nScale it.\n```\n\nMore.\n\n"
            "```{note}\nCheck it.\n```\n\nEnd.\n")
    with captured() as warned:
        html(tmp_path, body)
    got = [w for w in warned if "MyST" in w]
    assert [re.search(r"attrs: \{id: ([\w-]+)\}", w)[1] for w in got] == ["note-2", "note-3"], got


@pytest.mark.parametrize("container", CONTAINERS)
@pytest.mark.parametrize("header", [":::python", "#!python", ":::python hl_lines=\"1\""])
@pytest.mark.parametrize("fenced", [False, True], ids=["indented", "fenced"])
def test_a_codehilite_language_line_is_warned_at_its_line(
        tmp_path: Path, container: str, header: str, fenced: bool) -> None:
    """Python-Markdown's codehilite (Pelican, MkDocs) reads a code block's first line
    ':::python' or '#!python' as the block's language; this build (and GitHub) shows it as
    the code's first line, with no message. A warning at that line: write a fence. A real
    shebang ('#!/usr/bin/env python') stays quiet."""
    code = f"{header}\nimport numpy as np\nprint(np.pi)"
    block = f"```\n{code}\n```" if fenced else "\n".join("    " + x for x in code.split("\n"))
    shebang = "    #!/usr/bin/env python\n    print(1)"
    body = _inside(container, f"Text.\n\n{block}\n\nMiddle.\n\n{shebang}\n\nMore.")
    with captured() as warned:
        out = html(tmp_path, body)
    line = BODY_START + next(n for n, x in enumerate(body.split("\n")) if header in x)
    got = [w for w in warned if "codehilite" in w]
    assert len(got) == 1 and f"index.md:{line}: " in got[0], warned
    assert "```python" in got[0], got
    assert out.count("print(np.pi)") == 1 and out.count("print(1)") == 1, out


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("tag", ['<div markdown="1">', "<div markdown>", '<section markdown="block">'])
def test_markdown_inside_a_raw_html_block_is_warned_at_its_line(
        tmp_path: Path, lang: str, tag: str) -> None:
    """`<div markdown="1">` asks md_in_html (Python-Markdown's extension, kramdown, PHP
    Markdown Extra) to read the Markdown inside the block; this build does not use it, and
    GitHub does not either: '**bold**' and '$x$' inside were published as typed, with no
    message. A warning at the tag's line; an inline `<span markdown="1">` in a paragraph,
    whose words Markdown reads anyway, stays quiet."""
    name = tag[1:].split()[0]
    body = (f"Text with <span markdown=\"1\">*inline*</span> here.\n\n{tag}\n"
            f"This is **Markdown** inside.\n</{name}>\n\nAfter.\n")
    with captured() as warned:
        html(tmp_path, body, lang=lang)
    got = [w for w in warned if "markdown=" in w]
    assert len(got) == 1 and f"index.md:{BODY_START + 2}: warning:" in got[0], warned
    assert "published as typed" in got[0], got


@pytest.mark.parametrize("blank", [True, False], ids=["blank line under the tag", "none"])
def test_a_markdown_attribute_warning_says_what_github_reads_after_a_blank_line(
        tmp_path: Path, blank: bool) -> None:
    """`<div markdown="1">` with a blank line under it (jalammar/jalammar.github.io's
    _posts/2019-08-12-illustrated-gpt2.md, its contents box) was told that this Markdown
    does not read the Markdown inside '(nor GitHub)', while the comparison's warning at the
    next lines said, rightly, that GitHub reads it after a blank line: two warnings that
    contradicted each other. With a blank line under the tag the warning says GitHub reads
    what follows as Markdown; without one it still says 'nor GitHub'."""
    gap = "\n" if blank else ""
    body = f'Intro.\n\n<div markdown="1">\n{gap}This is **Markdown** inside.\n{gap}</div>\n\nAfter.\n'
    with captured() as warned:
        html(tmp_path, body)
    got = [w for w in warned if "markdown=" in w]
    assert len(got) == 1 and f"index.md:{BODY_START + 2}: warning:" in got[0], warned
    assert ("nor GitHub" in got[0]) != blank, got
    assert ("GitHub reads what follows the blank line" in got[0]) == blank, got


@pytest.mark.parametrize("block", [
    '<div class="box"\n     markdown="1">\n\nThis is **Markdown** inside.\n\n</div>\n',
    '<details markdown="1">\n<summary>More</summary>\n\nThis is **Markdown** inside.\n\n'
    '</details>\n',
], ids=["tag over two lines", "summary under the tag"])
def test_a_markdown_attribute_warning_finds_the_blank_line_below_the_tag_s_own_line(
        tmp_path: Path, block: str) -> None:
    """The blank line was looked for right under the tag's first line: a tag whose
    attributes run over two lines, or a `<details markdown="1">` with its `<summary>` line
    under it (the usual way to write one), was told '(nor GitHub)' while the comparison's
    warning a few lines below said that GitHub reads the Markdown after the blank line,
    the contradiction 36f9ff4 ended for the blank line right under the tag."""
    with captured() as warned:
        html(tmp_path, f"Intro.\n\n{block}\nAfter.\n")
    got = [w for w in warned if "markdown=" in w]
    assert len(got) == 1 and f"index.md:{BODY_START + 2}: warning:" in got[0], warned
    assert "nor GitHub" not in got[0] and "GitHub reads what follows the blank line" in got[0]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_raw_html_block_marked_markdown_0_asks_for_what_both_parsers_do_and_stays_quiet(
        tmp_path: Path, lang: str) -> None:
    """kramdown's `markdown="0"` asks for the block's inside to be kept as typed, raw HTML,
    which is what this build and GitHub do: each of jalammar/jalammar.github.io's
    _posts/2019-06-26-visual-numpy.md pictures, `<div class="img-div-any-width"
    markdown="0">` over an `<image src=…/>` line, was told that it 'asks for the Markdown
    inside the HTML block to be read' (37 warnings in that post, none true). No warning; the
    block is published as written, as on GitHub."""
    body = ('Text.\n\n<div class="img-div-any-width" markdown="0">\n'
            '  <image src="/images/numpy/numpy-array.png"/>\n  <br />\n</div>\n\nAfter.\n')
    with captured() as warned:
        out = html(tmp_path, body, lang=lang)
    assert not [w for w in warned if "markdown=" in w], warned
    assert '<div class="img-div-any-width" markdown="0">' in out, out


@pytest.mark.parametrize("lines", ["# First point\n# Second point",
                                   "Steps:\n\n# Collect\n# Scale\n# Normalise"])
def test_a_confluence_numbered_list_is_told_to_be_a_list_not_headings(tmp_path: Path,
                                                                      lines: str) -> None:
    """'# item' lines one under another (a numbered list of Confluence, Jira and Textile)
    were told to become '## First point {#some-id}', a section each; now they are told to
    be a list, '1. ' at each line's start, at the first such line."""
    body = f"Intro.\n\n{lines}\n\nText.\n"
    e = error(tmp_path, body)
    first = next(n for n, x in enumerate(body.split("\n")) if x.startswith("# "))
    assert e.line == BODY_START + first, e
    assert "numbered list in Confluence" in e.message and "'1. '" in e.message, e.message
    assert "{#some-id}" not in e.message, e.message


def test_one_level_one_heading_is_still_told_to_be_a_section(tmp_path: Path) -> None:
    e = error(tmp_path, "Intro.\n\n# Results\n\nText.\n")
    assert "## Results {#some-id}" in e.message and "Confluence" not in e.message, e.message


def test_a_hackmd_tags_line_is_told_as_hackmds(tmp_path: Path) -> None:
    """HackMD's '###### tags: `a` `b`' line was told to get an id, '###### tags: … {#some-id}'
    (and warned as a jump of heading levels); it is now told to be HackMD's tags line, to
    remove."""
    e = error(tmp_path, "###### tags: `reading-group` `attention`\n\nText.\n")
    assert e.line == BODY_START, e
    assert "HackMD" in e.message and "remove it" in e.message, e.message


@pytest.mark.parametrize("macro", ["{code}", "{noformat}", "{latex}", "{info}"])
def test_a_confluence_macro_ending_a_paragraph_is_told_as_confluences(tmp_path: Path,
                                                                      macro: str) -> None:
    """'{code:python}' … '{code}' pasted from Confluence: attr_list reads the closing
    '{code}' as an attribute list, and the error said to write '\\{code}' for braces as text;
    it now names Confluence's macro and what to write for it."""
    body = f"Intro.\n\n{macro}\nx = q @ k\n{macro}\n\nText.\n"
    e = error(tmp_path, body)
    assert e.line == BODY_START + 4, e
    assert "Confluence (Jira) macro" in e.message and "```python" in e.message, e.message


@pytest.mark.parametrize("level", ["#", "##", "###"])
def test_a_pandoc_unnumbered_heading_is_told_the_heading_to_write(tmp_path: Path,
                                                                   level: str) -> None:
    """Pandoc's (bookdown's, Quarto's) unnumbered heading, '# References {-}', was told to
    become '## References {-} {#some-id}', which publishes '{-}' as text. The heading to
    write leaves it out and the message says what it was."""
    e = error(tmp_path, f"Intro.\n\n{level} References {{-}}\n\nText.\n")
    assert e.line == BODY_START + 2, e
    assert "References {#some-id}" in e.message and "{-} {#" not in e.message, e.message
    assert "unnumbered" in e.message, e.message


def test_a_chunk_option_named_out_something_is_no_program_output() -> None:
    """knitr's chunk options 'out.width', 'out.height' were read as the Hugging Face course's
    'out' (a program's output), so the warning told an R Markdown author to say the code is
    what a program prints."""
    from sqrtdk.web.md_blocks import fence_options
    assert "Hugging Face" not in fence_options("hist, fig.cap='x', out.width='80%'")
    assert "Hugging Face" not in fence_options("out.height=\"4in\"")
    assert "Hugging Face" in fence_options("out")


@pytest.mark.parametrize("info", ["{block2, type='rmdtip'}", "{block, type='rmdnote'}"])
def test_a_bookdown_block_is_told_to_be_a_box(tmp_path: Path, info: str) -> None:
    """bookdown's custom block (```` ```{block2, type='rmdtip'} ````), a styled box of text,
    was told as a chunk R runs, to write as ```` ```block2 ```` (a code block still)."""
    with captured() as warned:
        html(tmp_path, f"Text.\n\n```{info}\nUse `cache=TRUE` for slow chunks.\n```\n")
    got = [w for w in warned if "custom block" in w]
    assert len(got) == 1 and f"index.md:{BODY_START + 2}: " in got[0], warned
    assert "'/// details | Title' box" in got[0] and "write the fence as" not in got[0], got


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_rule_right_under_a_quote_is_told_to_be_a_rule(tmp_path: Path, lang: str) -> None:
    """A chat answer's '---' right under a quote's last line: GitHub reads the quote, then a
    rule; this Markdown underlines the quote's line as a heading, and the error told the
    author to write '## > A quote line. {#some-id}'. It now says to put a blank line before
    the '---'; a heading underlined inside the quote ('> ---') is still a heading."""
    e = error(tmp_path, "Intro.\n\n> A quote line.\n---\n\nAfter.\n", lang=lang)
    assert e.line == BODY_START + 2, e
    assert "blank line before the '---'" in e.message and "## >" not in e.message, e.message


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("syntax, what, shown", [
    ("\\begin{theorem}[Footnote 4]\nLet $q$ be a query.\n\\end{theorem}\n",
     "a LaTeX environment is", "('\\begin{theorem}')"),
    ("\\begin{proof}\nBy linearity.\n\\end{proof}\n", "a LaTeX environment is", "('\\begin{proof}')"),
    ("\\begin{itemize}\n\\item First\n\\end{itemize}\n", "a LaTeX environment is", "('\\begin{itemize}')"),
    ("We have \\begin{equation} x = 1 \\end{equation} here.\n",
     "a LaTeX math environment inside a line of text", "\\begin{"),
    ("Also \\begin{align*} a &= b \\end{align*}\n",
     "a LaTeX math environment inside a line of text", "\\begin{"),
    ("This is \\textbf{bold} text.\n", "LaTeX's text command", "('\\textbf{bold}')"),
    ("As shown by \\cite{vaswani2017}.\n", "LaTeX's text command", "('\\cite{vaswani2017}')"),
    ("See equation \\eqref{eq:attn}.\n", "LaTeX's text command", "('\\eqref{eq:attn}')"),
    ("An *\\emph{inner}* word.\n", "LaTeX's text command", "('\\emph{inner}')"),
], ids=["theorem", "proof", "itemize", "equation in a sentence", "align* in a sentence",
        "textbf", "cite", "eqref", "emph in emphasis"])
def test_latex_outside_math_warns_at_its_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, syntax: str, what: str, shown: str,
        lang: str) -> None:
    """Course notes pasted from LaTeX: an environment or text command outside a formula is
    shown as typed (here and on GitHub), the author meant a theorem, a list, bold."""
    import logging
    body = f"First paragraph.\n\n{syntax}\nLast paragraph.\n"
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        html(tmp_path, body, lang=lang)
    got = [r.getMessage() for r in caplog.records if "published as typed" in r.getMessage()]
    assert len(got) == 1 and what in got[0] and shown in got[0] and "\n" not in got[0], got
    assert f"index.md:{BODY_START + 2}: warning:" in got[0], got


@pytest.mark.parametrize("text", [
    "First.\n\n\\begin{align}\na &= b\n\\end{align}\n\nAfter.\n",
    "Write `\\textbf{x}` and `\\begin{theorem}` in LaTeX.\n",
    "```latex\n\\begin{theorem}\n\\textbf{x}\n\\end{theorem}\n```\n",
    "In $\\text{\\textbf{x}}$ and $\\begin{aligned}a\\end{aligned}$.\n",
])
def test_latex_in_math_or_code_is_not_told(tmp_path: Path, text: str) -> None:
    with captured() as warned:
        html(tmp_path, text)
    assert not [w for w in warned if "LaTeX" in w], warned


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("lines", [
    "1\u3001\u70b9\u79ef\uff1b\n2\u3001\u65b9\u5dee\uff1b\n3\u3001\u68af\u5ea6\u3002\n",
    "\uff081\uff09\u70b9\u79ef\uff1b\n\uff082\uff09\u65b9\u5dee\u3002\n",
    "(1) the dot product grows;\n(2) softmax saturates.\n",
    "(1) at $d_k = 64$ the SD is 8;\n(2) at $d_k = 512$ it is 22.6.\n",
    "\u4e00\u3001\u65b9\u5dee\uff1b\n\u4e8c\u3001\u68af\u5ea6\u3002\n",
    "\uff08\u4e00\uff09\u65b9\u5dee\uff1b\n\uff08\u4e8c\uff09\u68af\u5ea6\u3002\n",
], ids=["1\u3001", "\uff081\uff09", "(1)", "with a formula", "\u4e00\u3001",
        "\uff08\u4e00\uff09"])
def test_numbered_lines_of_a_word_list_warn_at_their_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, lines: str, lang: str) -> None:
    """A list converted from Word or WPS, '1\u3001\u2026' or '\uff081\uff09\u2026' on lines
    under each other, is one paragraph here and on GitHub: the lines ran together into one,
    silently, where the author meant a list."""
    import logging
    body = f"First paragraph.\n\n{lines}\nLast paragraph.\n"
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        html(tmp_path, body, lang=lang)
    got = [r.getMessage() for r in caplog.records if "published as typed" in r.getMessage()]
    assert len(got) == 1 and "numbered list" in got[0], got
    assert f"index.md:{BODY_START + 2}: warning:" in got[0], got
    assert f"('{lines.split(chr(10))[0][:20]}" in got[0], got       # as written


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("lines", [
    "Created: May 2, 2024 9:10 AM\nTags: attention, scaling\nStatus: Draft\n",
    "Owner: Ann Lee\nLast edited time: June 1, 2025\n",
    "Type: note\nStatus: done\nURL: https://arxiv.org/abs/1706.03762\n",
], ids=["created", "last edited", "with an address"])
def test_a_notion_page_s_properties_warn_at_their_first_line(
        tmp_path: Path, lines: str, lang: str) -> None:
    """A Notion page exported to Markdown starts with its properties, one 'Name: value' a
    line: one paragraph here and on GitHub, the lines run together ('Created: May 2 Tags:
    attention Status: Draft'), with no word. Told at the first line."""
    with captured() as warned:
        html(tmp_path, f"First paragraph.\n\n{lines}\nLast paragraph.\n", lang=lang)
    got = [w for w in warned if "Notion page's properties" in w]
    assert len(got) == 1 and f"index.md:{BODY_START + 2}: warning:" in got[0], warned
    assert "'- '" in got[0], got


def test_notion_properties_pelican_reads_are_told_once(tmp_path: Path) -> None:
    """Properties whose first is one of Pelican's metadata keys ('Author: …' over 'Status: …')
    are told once at their line, as Pelican's (which says to remove them), not twice."""
    with captured() as warned:
        html(tmp_path, "First paragraph.\n\nAuthor: Ann Lee\nStatus: Draft\n"
                       "Last edited time: June 1, 2025\n\nLast paragraph.\n")
    got = [w for w in warned if f"index.md:{BODY_START + 2}: warning:" in w]
    assert len(got) == 1 and "remove" in got[0], warned


@pytest.mark.parametrize("text", [
    "Status: done.\n",
    "Created: May 2, 2024  \nTags: attention, scaling\n",
    "Note: the scores grow.\nTip: divide them.\n",
    "Tags: attention, and the words\nof a sentence that goes on.\n",
    "In short: the scaling keeps the variance at one.\nStatus: confirmed by the run below.\n",
    "Q: What are the tags?\nTags: none.\n",
], ids=["one line", "hard break", "no property of notion", "prose", "sentences",
        "a question and its answer"])
def test_lines_that_are_no_notion_properties_are_not_told(tmp_path: Path, text: str) -> None:
    with captured() as warned:
        html(tmp_path, f"First paragraph.\n\n{text}\nLast paragraph.\n")
    assert not [w for w in warned if "Notion page's properties" in w], warned


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(("lines", "mark"), [
    ("1.\u5b89\u88c5\u4f9d\u8d56\n2.\u8fd0\u884c\u811a\u672c\n", "1."),
    ("1\uff0e\u70b9\u79ef\uff1b\n2\uff0e\u7f29\u653e\u3002\n", "1."),
    ("1.Install the package;\n2.Run the script.\n", "1."),
    ("-\u7b2c\u4e00\u9879\n-\u7b2c\u4e8c\u9879\n", "-"),
    ("*\u7b2c\u4e00\u9879\n*\u7b2c\u4e8c\u9879\n", "*"),
    ("\u6b65\u9aa4\uff1a\n1.\u70b9\u79ef\n2.\u7f29\u653e\n", "1."),
    ("\uff11\uff0e\u70b9\u79ef\uff1b\n\uff12\uff0e\u7f29\u653e\u3002\n", "1."),
    ("\uff11.\u70b9\u79ef\uff1b\n\uff12.\u7f29\u653e\u3002\n", "1."),
    # a space after them, under a line of text: text here too (GitHub: at any line)
    ("\u6b65\u9aa4\uff1a\n\uff11. \u70b9\u79ef\n\uff12. \u7f29\u653e\n", "1."),
    ("1\uff0e \u70b9\u79ef\uff1b\n2\uff0e \u7f29\u653e\u3002\n", "1."),
], ids=["1.", "full-width stop", "English", "dash", "star", "under a line",
        "full-width digits and stop", "full-width digits", "full-width digits spaced",
        "full-width stop spaced"])
def test_list_items_with_no_space_after_their_marker_warn_at_their_line(
        tmp_path: Path, lines: str, mark: str, lang: str) -> None:
    """Chinese posts write a list's items with no space after the marker ('1.\u5b89\u88c5',
    '-\u7b2c\u4e00\u9879'): no list here nor on GitHub, the lines ran together into one
    paragraph, with no word. Told at the first item's line, with the marker to write."""
    with captured() as warned:
        html(tmp_path, f"First paragraph.\n\n{lines}\nLast paragraph.\n", lang=lang)
    got = [w for w in warned if "no list here" in w]
    first = next(k for k, x in enumerate(lines.split("\n")) if x[:1] in "12-*\uff11")
    assert len(got) == 1 and f"index.md:{BODY_START + 2 + first}: warning:" in got[0], warned
    assert f"write '{mark} '" in got[0], got


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("lines", [
    "1\uff09\u5b89\u88c5\u4f9d\u8d56\n2\uff09\u8fd0\u884c\u811a\u672c\n",
    "\u2460 \u8ba1\u7b97\u70b9\u79ef\n\u2461 \u7f29\u653e\n\u2462 softmax\n",
], ids=["1\uff09", "\u2460"])
def test_other_chinese_numbering_runs_together_and_warns(
        tmp_path: Path, lines: str, lang: str) -> None:
    """'1\uff09' (a full-width parenthesis closing only) and circled numbers are Word's and
    WPS's numbering as much as '1\u3001': lines under each other run together, told."""
    with captured() as warned:
        html(tmp_path, f"First paragraph.\n\n{lines}\nLast paragraph.\n", lang=lang)
    got = [w for w in warned if "numbered list of Word or WPS" in w]
    assert len(got) == 1 and f"index.md:{BODY_START + 2}: warning:" in got[0], warned


@pytest.mark.parametrize("text", [
    "1.5 \u500d\u7684\u65f6\u95f4\uff1b\n2.5 \u500d\u7684\u5185\u5b58\u3002\n",
    "-v \u663e\u793a\u7248\u672c\n-h \u663e\u793a\u5e2e\u52a9\n",
    "1.\u89e3\u538b  \n2.\u5b89\u88c5  \n3.\u8fd0\u884c\n",
    "1\u3001\u70b9\u79ef\\\n2\u3001\u65b9\u5dee\n",
    "1.\u89e3\u538b<br>\n2.\u5b89\u88c5<BR />\n3.\u8fd0\u884c\n",
    "\u2460\u8ba1\u7b97\u70b9\u79ef<br/>\n\u2461\u7f29\u653e\n",
    "\u2022 \u7b2c\u4e00\u9879<br>\n\u2022 \u7b2c\u4e8c\u9879\n",
    "1. \u5b89\u88c5\n2. \u8fd0\u884c\n",
    "1.\u5b89\u88c5\u4f9d\u8d56\u3002\n",
    "*\u5b50\u7a7a\u95f4*\u662f\u6709\u76ca\u7684\uff0c\n*\u7ebf\u6027\u6295\u5f71*\u53d8\u6362\u3002\n",
    "1.x \u7248\u672c\u7684\u63a5\u53e3\u5df2\u5e9f\u5f03\uff0c\n2.X\u7248\u672c\u6539\u7528\u65b0\u63a5\u53e3\u3002\n",
], ids=["decimals", "options", "hard breaks", "backslash break", "<br>", "<br/>", "bullets, <br>",
        "a list",
        "one line",
        "italics at lines' starts", "versions' series"])
def test_lines_shown_as_written_are_no_list_without_spaces(tmp_path: Path, text: str) -> None:
    with captured() as warned:
        html(tmp_path, f"First paragraph.\n\n{text}\nLast paragraph.\n", lang="zh")
    assert not [w for w in warned if "no list here" in w or "Word or WPS" in w], warned


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(("lines", "mark"), [
    ("1. \u5b89\u88c5\n2.\u8fd0\u884c\n3. \u6d4b\u8bd5\n", "2."),
    ("- \u7b2c\u4e00\u9879\n-\u7b2c\u4e8c\u9879\n- \u7b2c\u4e09\u9879\n", "-"),
    ("> 1. \u5b89\u88c5\n> 2\uff0e\u8fd0\u884c\n", "2."),
], ids=["numbered", "dash", "in a quote, a full-width stop"])
def test_an_item_with_no_space_among_items_warns_at_its_line(
        tmp_path: Path, lines: str, mark: str, lang: str) -> None:
    """'1. \u5b89\u88c5' over '2.\u8fd0\u884c' over '3. \u6d4b\u8bd5': the middle line is
    no item here nor on GitHub but text of the first item, run on after its words, with no
    word. Told at its line, with the marker to write."""
    with captured() as warned:
        html(tmp_path, f"First paragraph.\n\n{lines}\nLast paragraph.\n", lang=lang)
    got = [w for w in warned if "no list item here" in w]
    assert len(got) == 1 and f"index.md:{BODY_START + 3}: warning:" in got[0], warned
    assert f"write '{mark} '" in got[0], got


@pytest.mark.parametrize("text", [
    "1. \u5b89\u88c5\n   ```\n   -\u7b2c\u4e00\u9879\n   -\u7b2c\u4e8c\u9879\n   ```\n"
    "2. \u8fd0\u884c\n",
    "1. \u7248\u672c\n1.x \u7248\u672c\u5df2\u5e9f\u5f03\n2. \u6e29\u5ea6\n-5 \u5ea6\n",
    "- \u6b65\u9aa4\uff1a\n  1.\u5b89\u88c5\n  2.\u8fd0\u884c\n",
    "- \u8bf4\u660e  \n-\u7b2c\u4e00\u9879\n",
], ids=["code in the item", "a version, a number", "indented", "after a hard break"])
def test_lines_of_an_item_that_are_no_bare_item_are_not_told(tmp_path: Path,
                                                             text: str) -> None:
    with captured() as warned:
        html(tmp_path, f"First paragraph.\n\n{text}\nLast paragraph.\n", lang="zh")
    assert not [w for w in warned if "no list item here" in w], warned


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_star_list_with_no_space_is_told_once_as_a_list(tmp_path: Path, lang: str) -> None:
    """'*\u7b2c\u4e00\u9879' over '*\u7b2c\u4e8c\u9879' was told as a list whose items need
    '* ' and, at each line, as an emphasis mark without its pair ('write *italic words*'),
    advice that contradicts it: only the list is told; a lost star on another line of the
    paragraph, or in another paragraph, still is."""
    body = ("First paragraph.\n\n\u8fd9\u91cc\u6709\u4e2a*\u8ff7\u5931\u7684\u661f\u53f7\n"
            "*\u7b2c\u4e00\u9879\n*\u7b2c\u4e8c\u9879\n*\u7b2c\u4e09\u9879\n\n"
            "The *key point is lost.\n")
    with captured() as warned:
        html(tmp_path, body, lang=lang)
    lists = [w for w in warned if "no list here" in w]
    stars = sorted(int(re.search(r"index\.md:(\d+):", w)[1])   # type: ignore[index]
                   for w in warned if "'*' without its pair" in w)
    assert len(lists) == 1 and f"index.md:{BODY_START + 3}: warning:" in lists[0], warned
    assert stars == [BODY_START + 2, BODY_START + 7], warned


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("lines", [
    "\u2022 Does it hold after training?\n\u2022 What about RoPE?\n",
    "\u25cf \u70b9\u79ef\uff1b\n\u25cf \u65b9\u5dee\u3002\n",
    "Open questions:\n\u25e6 the first one\n\u25e6 the second one\n",
], ids=["bullet", "black circle", "under a line"])
def test_lines_starting_with_a_bullet_character_warn_at_their_line(
        tmp_path: Path, lines: str, lang: str) -> None:
    """A list copied from Slack, Word or a web page keeps its bullet characters ('\u2022 …'
    lines): one paragraph here and on GitHub, its items run together, with no word."""
    with captured() as warned:
        html(tmp_path, f"First paragraph.\n\n{lines}\nLast paragraph.\n", lang=lang)
    got = [w for w in warned if "lines starting with" in w]
    line = BODY_START + 2 + next(k for k, x in enumerate(lines.split("\n")) if x[:1] in
                                 "\u2022\u25cf\u25e6")
    assert len(got) == 1 and f"index.md:{line}: warning:" in got[0], warned


def test_a_bullet_character_in_a_sentence_is_no_list(tmp_path: Path) -> None:
    with captured() as warned:
        html(tmp_path, "A \u2022 in a sentence and\n\u2022 one line only.\n")
    assert not [w for w in warned if "lines starting with" in w], warned


def test_a_numbered_line_in_a_sentence_is_no_list(tmp_path: Path) -> None:
    with captured() as warned:
        html(tmp_path, "See point (1) here and\n(2) there in one sentence.\n\n"
                       "(1) A single line.\n")
    assert not [w for w in warned if "numbered" in w], warned


@pytest.mark.parametrize("line", ["\t\u8868 1\u3000\u4e0d\u540c\u7f29\u653e\u65b9\u5f0f\u7684\u6bd4\u8f83",
                                  "\t\u3000\u3000\u8fd9\u662f\u4e00\u6bb5\u6b63\u6587\u3002"],
                         ids=["a caption", "a paragraph"])
def test_a_line_of_chinese_text_indented_by_a_tab_is_warned(tmp_path: Path, line: str) -> None:
    """A document converted from Word or WPS indents a caption or a paragraph with a tab:
    after a blank line it is an indented code block here and on GitHub, the words shown as
    code, silently. A warning at its line."""
    with captured() as warned:
        html(tmp_path, f"Text.\n\n{line}\n\nMore.\n")
    got = [w for w in warned if "indented by a tab" in w]
    assert len(got) == 1 and f"index.md:{BODY_START + 2}: " in got[0], warned


@pytest.mark.parametrize("code", ["\tprint('\u4f60\u597d')", "    \u8bad\u7ec3\u5b8c\u6210",
                                  "\t# \u8ba1\u7b97\u6ce8\u610f\u529b\n\tx = q @ k"])
def test_indented_code_with_chinese_is_not_told(tmp_path: Path, code: str) -> None:
    with captured() as warned:
        html(tmp_path, f"Text.\n\n{code}\n\nMore.\n")
    assert not [w for w in warned if "indented by a tab" in w], warned



@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_toml_front_matter_block_below_the_front_matter_is_named(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, lang: str) -> None:
    """A Zola or Hugo post's own '+++' TOML block left under the front matter was told to be a
    notebook cell break: 'remove the line', which left its 'title = …' lines on the page."""
    import logging
    body = 'First paragraph.\n\n+++\ntitle = "Scaled attention"\ndate = 2023-04-01\n+++\n\nLast.\n'
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        html(tmp_path, body, lang=lang)
    got = [r.getMessage() for r in caplog.records if "published as typed" in r.getMessage()]
    assert len(got) == 1 and "TOML front matter" in got[0] and "cell break" not in got[0], got
    assert f"index.md:{BODY_START + 2}: warning:" in got[0] and "remove the block" in got[0], got


# a mark without its pair (found by mdfuzz): its case, the warning's words, what it says to
# write, and whether a case gives one warning (an unpaired bold mark may give one per '**')
UNPAIRED = {
    "bold opened": ("The **scaled score is here.\n", "bold mark '**' without its pair",
                    "**bold words**", False),
    "bold closed": ("The scaled** score.\n", "bold mark '**' without its pair",
                    "**bold words**", False),
    "bold spaced": ("The ** scaled ** score.\n", "bold mark '**' without its pair",
                    "**bold words**", False),
    "bold in Chinese": ("\u7528\u76f8\u4e92\u72ec\u7acb\u7684**\u6807\u51c6\u6b63\u6001*"
                        "\u5206\u91cf\u3002\n", "bold mark '**' without its pair",
                        "**bold words**", False),
    "italic opened": ("The *scaled score is here.\n", "emphasis mark '*' without its pair",
                      "*italic words*", True),
    "italic in brackets": ("A share (*not a score) here.\n",
                           "emphasis mark '*' without its pair", "*italic words*", True),
    "italic in Chinese": ("\u7528\u76f8\u4e92\u72ec\u7acb\u7684*\u6807\u51c6\u6b63\u6001"
                          "\u5206\u91cf\u3002\n", "emphasis mark '*' without its pair",
                          "*italic words*", True),
    "link ']' doubled": ("See [the paper]](https://example.org/paper) now.\n",
                         "'](' without its pair of brackets", "[text](address)", True),
    "link '[' lost": ("See the paper](https://example.org/paper) now.\n",
                      "'](' without its pair of brackets", "[text](address)", True),
    "link in Chinese": ("\u89c1[\u8bba\u6587]](https://example.org/paper)\u3002\n",
                        "'](' without its pair of brackets", "[text](address)", True),
}


@pytest.mark.parametrize("text, said, write, once", UNPAIRED.values(), ids=UNPAIRED)
def test_a_mark_without_its_pair_warns_at_its_line(tmp_path: Path, text: str, said: str,
                                                   write: str, once: bool) -> None:
    """A '*' lost or doubled at a bold pair (`**bold*`), an italic '*' never closed, a ']'
    doubled or a '[' lost at a link: each showed its marks on the page, exit 0, no word;
    neither reading makes bold, italics or a link of it."""
    with captured() as warned:
        html(tmp_path, "Intro.\n\n" + text)
    got = [w for w in warned if said in w]
    assert got and all(f"index.md:{BODY_START + 2}: warning:" in g for g in got), warned
    assert len(got) == 1 or not once, got
    assert f"; write {write}" in got[0], got


# marks in pairs, in code or math, or as text: (case, the warning that must not come)
PAIRED = [
    ("Some **bold** and ***bold italic*** and *italic* words.\n", "bold mark"),
    ("Asterisks as text: \\*\\* here, and `a**b` in code.\n", "bold mark"),
    ("Math $a^{**}$ keeps its stars.\n", "bold mark"),
    ("```python\nf(**kwargs)\n```\n", "bold mark"),
    ("A product, 3 * 4, stays text.\n", "bold mark"),
    ("Some *italic*, **bold**, ***both*** and \u7684*\u6807\u51c6*\u5206 words.\n",
     "emphasis mark '*'"),
    ("An escaped \\*star, `*code` and $a^*$ math.\n", "emphasis mark '*'"),
    ("Products 2*3 and a*b, 3 * 4, and a note mark: significant*.\n", "emphasis mark '*'"),
    ("```python\nf(*args)\n```\n", "emphasis mark '*'"),
    ("* a list item\n* another\n", "emphasis mark '*'"),
    ("| a | b |\n|---|---|\n| *x* | 1 |\n", "emphasis mark '*'"),
    ("See [the paper](https://example.org/paper) and [a [nested] one](https://example.org).\n",
     "'](' without"),
    ("Code `f[0](x)` and math $[0](1)$ and an escaped \\](x).\n", "'](' without"),
    ("```python\nxs[0](1)\n```\n", "'](' without"),
]


@pytest.mark.parametrize("text, said", PAIRED)
def test_marks_in_pairs_in_code_or_as_text_stay_quiet(tmp_path: Path, text: str,
                                                      said: str) -> None:
    with captured() as warned:
        html(tmp_path, "Intro.\n\n" + text)
    assert not [w for w in warned if said in w], warned


@pytest.mark.parametrize(("text", "words"), [
    ("The **scaled score* is here.\n", "scaled score"),
    ("The *scaled score** is here.\n", "scaled score"),
    ("A list:\n\n- the **scaled score* here\n", "scaled score"),
])
def test_a_bold_pair_with_a_star_lost_is_told_the_bold_to_write(tmp_path: Path, text: str,
                                                                words: str) -> None:
    """`**bold*` (README: 'a `*` lost') was told to write *italic words*, and `*bold**` was
    not warned at all: both show an asterisk beside italic words, here and on GitHub."""
    with captured() as warned:
        html(tmp_path, "Intro.\n\n" + text)
    got = [w for w in warned if "one '*' lost" in w]
    assert len(got) == text.count("**"), warned
    line = BODY_START + 2 + text[:text.index("*")].count("\n")
    assert all(f"index.md:{line}: warning:" in g for g in got), warned
    assert f"write **{words}**" in got[0], got
    assert not [w for w in warned if "*italic words*" in w], warned


@pytest.mark.parametrize("text", ["简直是{喜大普奔|hē hē hē hē}呀！\n",
                                  "读作{漢字|かん|じ}。\n",
                                  "An *{拼音|pīn yīn}* here.\n"])
def test_a_markdown_nice_ruby_annotation_warns_at_its_line(tmp_path: Path, text: str) -> None:
    """Markdown Nice's ruby `{words|reading}` (the WeChat editor's): shown as typed here and
    on GitHub, the braces and the bar with it, with no word."""
    body = "Intro.\n\n" + text
    with captured() as warned:
        html(tmp_path, body, lang="zh")
    got = [w for w in warned if "ruby annotation" in w]
    assert len(got) == 1 and f"index.md:{BODY_START + 2}: warning:" in got[0], warned
    assert "<ruby>" in got[0]


@pytest.mark.parametrize("text", ["The set {x | x > 0} here.\n", "A {{ spread.sd_small | sig(3) }} value.\n",
                                  "集合 $\\{x|x>0\\}$ 中。\n", "`{中|文}` 代码。\n"])
def test_braces_with_a_bar_that_are_no_ruby_stay_quiet(tmp_path: Path, text: str) -> None:
    with captured() as warned:
        html(tmp_path, text, lang="zh")
    assert not [w for w in warned if "ruby annotation" in w], warned


@pytest.mark.parametrize("source, what, title, box_id", [
    ("> [!TIP]\n> Scale by the root of the width.\n", "GitHub alert", "Tip", "tip"),
    ("> [!example]+ Worked example\n> Scale by the root of the width.\n", "GitHub alert",
     "Worked example", "worked-example"),
    ("!!! note\n    Scale by the root of the width.\n", "MkDocs' admonition", "Note", "note"),
    ('??? tip "Why the root"\n    Scale by the root of the width.\n', "MkDocs' admonition",
     "Why the root", "why-the-root"),
])
def test_another_tool_s_box_is_told_the_lines_of_its_box(tmp_path: Path, source: str,
                                                          what: str, title: str,
                                                          box_id: str) -> None:
    """GitHub's alert (Obsidian's callout) and MkDocs' admonition were told to become "a
    '/// details | Title' box", leaving the author to work out its lines; the warning now
    gives them (the title its own, else its kind's), and the lines it gives make the box,
    with no warning."""
    with captured() as warned:
        html(tmp_path, "Intro.\n\n" + source)
    got = [w for w in warned if what in w]
    assert len(got) == 1 and f"index.md:{BODY_START + 2}: warning:" in got[0], warned
    assert f"'/// details | {title}', '    attrs: {{id: {box_id}}}'" in got[0], got[0]
    box = (f"Intro.\n\n/// details | {title}\n    attrs: {{id: {box_id}}}\n\n"
           "Scale by the root of the width.\n///\n")
    with captured() as warned:
        made = html(tmp_path, box)
    assert warned == [] and f'id="{box_id}"' in made and "<details" in made, warned


def test_a_variable_named_as_a_symbol_is_told_how_to_stay_one(tmp_path: Path) -> None:
    """A formula's variable named as a symbol is ('delta_1', a shift table of a string
    search): the advice '\\delta' would make it the Greek letter. The warning also gives its
    name in \\mathit{…}, and that, written, builds with no word."""
    with captured() as warned:
        html(tmp_path, "The table $delta_1$ shifts.\n")
    got = [w for w in warned if "by its name without a backslash" in w]
    assert len(got) == 1 and "'\\mathit{delta}'" in got[0], warned
    with captured() as warned:
        html(tmp_path, "The table $\\mathit{delta}_1$ shifts.\n")
    assert warned == [], warned


@pytest.mark.parametrize("text, named", [
    ("The query is $W_Q dot E_i$ here.", "'\\cdot' for 'dot'"),             # Typst's
    ("GPT-3 uses $128 times 12288$ weights.", "'\\times' for 'times'"),
    ("The embedding $E_i^->$ moves.", "'\\vec{x}' for 'x^->'"),
    ("The shift $Delta E$ is added.", "'\\Delta' for 'Delta'"),
    ("Noise $epsilon_i$ per sample.", "'\\epsilon' for 'epsilon'"),      # a lost backslash
    ("Scale:\n\n$$\nsqrt(d_k)\n$$\n", "'\\sqrt{…}' for 'sqrt'"),
])
def test_a_symbol_written_by_its_name_in_a_formula_warns_at_its_line(
        tmp_path: Path, text: str, named: str) -> None:
    """Notes written with Typst's (or AsciiMath's) math inside '$' ('$W_Q dot E_i$',
    '$E_i^->$'), or TeX's '\\epsilon' whose backslash was lost, were typeset by KaTeX as
    italic letters, 'd o t' a product of three variables, here and on GitHub, with no word;
    each such name is now told at the formula's line with the TeX to write; the names in
    text, in a longer word or after a backslash around it are not."""
    quiet = ("Intro: $\\alpha + \\beta$, $\\text{alpha}$, $\\operatorname{delta}(x)$, "
             "$\\dot{x} \\times y$, $\\Delta t$, $betas$, $d_{model}$, $\\mathrm{softmax}(x)$, "
             "$\\varepsilon$, $x \\to y$.\n\n")
    with captured() as warned:
        html(tmp_path, quiet + text)
    got = [w for w in warned if "by its name without a backslash" in w]
    line = BODY_START + 2 + (3 if "$$" in text else 0)      # a display formula's TeX line
    assert len(got) == 1 and f"index.md:{line}:" in got[0], warned
    assert named in got[0], got[0]


def test_a_symbol_s_name_in_a_formula_is_also_offered_as_a_word_of_text(
        tmp_path: Path) -> None:
    """'f(i-1, j) & match & 1+ times' in a display formula (a LeetCode write-up's case
    analysis, its words in the TeX) was told to write '\\times' for 'times', which makes the
    word a multiplication sign, or '\\mathit{times}', a variable: a word meant as text is
    '\\text{times}', which the warning now offers too."""
    with captured() as warned:
        html(tmp_path, "Intro.\n\n$$\nf(i-1, j) \\quad match \\quad 1+ \\quad times\n$$\n")
    got = [w for w in warned if "by its name without a backslash" in w]
    assert len(got) == 1 and "'\\text{times}'" in got[0], warned
    with captured() as warned:      # followed: quiet
        html(tmp_path, "Intro.\n\n$$\nf(i-1, j) \\quad match \\quad 1+ \\quad \\text{times}\n$$\n")
    assert not [w for w in warned if "by its name without a backslash" in w], warned


@pytest.mark.parametrize("tex", [
    "% the table of delta values\n\\begin{array}{c|c} a & b \\\\ c & d \\end{array}",
    "x^2 % then times the rate, sigma\n+ y",
    "a \\\\% the row of alpha values\nb",
])
def test_words_of_a_tex_comment_in_a_formula_are_no_symbols_named(tmp_path: Path,
                                                                   tex: str) -> None:
    """A display formula whose TeX holds comments ('% inner array of delta values', as a
    math.SE answer on nested arrays writes them) was told to write '\\delta' for 'delta':
    a comment is not typeset. A name in the TeX itself is still told."""
    with captured() as warned:
        html(tmp_path, f"Intro.\n\n$$\n{tex}\n$$\n")
    assert not [w for w in warned if "by its name without a backslash" in w], warned
    with captured() as warned:
        html(tmp_path, f"Intro.\n\n$$\n{tex}\nDelta\n$$\n")
    assert [w for w in warned if "'\\Delta' for 'Delta'" in w], warned


@pytest.mark.cpu_timeout(30)    # one walk: a second or less; before, hours
def test_the_container_each_closing_line_closes_is_found_in_one_walk() -> None:
    """Which ':::' container a closing ':::' closes (its advice: '///', or nothing for a
    layout div's) was found by walking every line above it, for each closing line: 40,000
    containers took time in the square of their number. A fence's ':::' closes nothing."""
    from sqrtdk.web.md_foreign import _container_closed
    text = "::: {.columns}\n\n```\n:::\n```\n\n" + "::: tip\nx\n:::\n" * 40_000 + ":::\n"
    closing = [n for n, line in enumerate(text.split("\n"), 1) if line == ":::" and n > 5]
    got = [_container_closed(text, n) for n in closing]
    assert got == ["::: tip"] * 40_000 + ["::: {.columns}"]


@pytest.mark.parametrize("opening, advice", [
    ("::: {.column-page}", "remove the container's ':::' lines"),
    ("::: {.column-margin}", "remove the container's ':::' lines"),
    ("::: {layout-ncol=2}", "remove the container's ':::' lines"),
    ("::: columns", "remove the container's ':::' lines"),
    ("::: {.panel-tabset}", "each under its own heading"),
    ("::: {.content-hidden}", "remove the container's lines and the text between them"),
    ("::: code-group", "each under its own heading"),                  # VitePress'
    ("::: tabs", "each under its own heading"),                        # VuePress' theme's
    ("::: v-pre", "remove the container's ':::' lines"),
    ("::: right", "remove the container's ':::' lines"),
])
def test_a_quarto_layout_div_is_not_told_to_become_a_box(tmp_path: Path, opening: str,
                                                        advice: str) -> None:
    """Quarto's divs that lay a passage out (a wide column, two columns, tabs) or hide it
    were told, as a callout is, to become a collapsible box titled by their class
    ('/// details | Column page'): a box the author never meant. They are now told to go
    (their text kept, or not where Quarto hides it), their closing ':::' too; a callout's
    closing line is still told to become '///'."""
    source = (f"Intro.\n\n{opening}\n\nThe wide passage.\n\n:::\n\n::: {{.callout-tip}}\n\n"
              "A tip.\n\n:::\n")
    with captured() as warned:
        html(tmp_path, source)
    told = [w for w in warned if "container" in w]
    assert len(told) == 4, warned
    assert f"index.md:{BODY_START + 2}:" in told[0] and advice in told[0], told[0]
    assert "/// details" not in told[0].split("write", 1)[1].split("box (", 1)[0], told[0]
    assert f"index.md:{BODY_START + 6}:" in told[1] and "remove it" in told[1], told[1]
    assert "'///' in its place" in told[3], told[3]
    kept = "" if "hidden" in opening else "The wide passage.\n\n"
    with captured() as warned:
        html(tmp_path, f"Intro.\n\n{kept}End.\n")
    assert warned == [], warned


@pytest.mark.parametrize("lang, source, title, box_id", [
    ("en", '??? note "Why the mean is zero"\n    Let $X$ be a score.\n\n    $$\n    E[X] = 0\n    $$\n',
     "Why the mean is zero", "why-the-mean-is-zero"),
    ("en", "!!! tip\n    A line.\n\n    The SD is $\\sqrt{d}$.\n", "Tip", "tip"),
    ("zh", '???+ note "\u8bc1\u660e"\n    \u8bbe $X$\u3002\n\n    $$\n    E[X] = 0\n    $$\n',
     "\u8bc1\u660e", "note"),
], ids=["titled", "kind only", "zh"])
def test_an_admonition_holding_a_formula_is_told_the_lines_of_its_box(
        tmp_path: Path, lang: str, source: str, title: str, box_id: str) -> None:
    """An MkDocs admonition whose indented body holds a formula (OI-wiki writes its proofs
    so) stops the build, its body being a code block; the error said "write a '/// details
    | Title' box", its own title and the id left out: followed, the box without an id
    stopped the next build. It now gives the box's lines, as the admonition's warning does,
    and those lines, the body unindented, build with no word."""
    e = error(tmp_path, "Intro.\n\n" + source, lang=lang)
    assert e.line == BODY_START + 2 and "admonition" in e.message, str(e)
    assert f"'/// details | {title}', '    attrs: {{id: {box_id}}}'" in e.message, str(e)
    body = "\n".join(line[4:] if line.startswith("    ") else line
                     for line in source.split("\n")[1:])
    box = (f"Intro.\n\n/// details | {title}\n    attrs: {{id: {box_id}}}\n\n{body}\n///\n")
    with captured() as warned:
        made = html(tmp_path, box, lang=lang)
    assert warned == [] and f'id="{box_id}"' in made and "<details" in made, warned


@pytest.mark.parametrize("text, what", [
    ("这里是==高亮==的词。\n", "highlighting '==…=='"),          # Typora's, after Chinese
    ("这是~删除~的词。\n", "strikethrough '~…~'"),              # GitHub strikes it
    ("周一~周五，周六~周日。\n", "strikethrough '~…~'"),        # a range GitHub strikes
    ("取 3~5 个，或 7~9 个。\n", "strikethrough '~…~'"),        # two ranges of numbers
    ("学习率取1e-4~5e-4，批量取16~32。\n", "strikethrough '~…~'"),
])
def test_marks_right_after_a_chinese_character_warn_at_their_line(tmp_path: Path, text: str,
                                                                  what: str) -> None:
    """`==mark==` and a single tilde's pair right after a Chinese character were left out
    with the letters and digits before them (`a==b`, `3~5`): published as typed with no
    word, where Typora highlights and GitHub strikes. So were two ranges of numbers in one
    paragraph (so-large-lm, d2l-zh write `3~5`), whose tildes GitHub pairs and strikes
    between: told too (a subscript's `H~2~O` before a range stays a subscript's)."""
    with captured() as warned:
        html(tmp_path, "Intro.\n\n" + text, lang="zh")
    got = [w for w in warned if what in w]
    assert len(got) == 1 and f"index.md:{BODY_START + 2}: warning:" in got[0], warned


@pytest.mark.parametrize("text, lang", [("It takes ~10~20 ms a step.\n", "en"),
                                        ("约 ~10~20 毫秒。\n", "zh")])
def test_an_approximate_range_of_two_tildes_is_told_struck_not_a_subscript(
        tmp_path: Path, text: str, lang: str) -> None:
    """'~10~20' (about 10 to 20) after a space: GitHub strikes '10', and a6054f4 told it as
    Typora's subscript, whose advice, <sub>10</sub>20, no range means. One or two letters or
    digits between tildes and a digit right after are struck words, told so (fails before)."""
    with captured() as warned:
        html(tmp_path, text, lang=lang)
    got = [w for w in warned if "published as typed" in w]
    assert len(got) == 1 and "strikethrough" in got[0] and "('~10~')" in got[0], warned


@pytest.mark.parametrize("text", ["温度在 20~30 度之间。\n", "（~5）和（~6）。\n", "约 ~5 个。\n",
                                  "路径为~/data，或者~/code。\n", "从~（5）到~（10）。\n",
                                  "约~5，~°C。\n"])
def test_a_tilde_github_strikes_nothing_with_stays_quiet_after_chinese(tmp_path: Path,
                                                                       text: str) -> None:
    """A tilde right after a Chinese character and before a punctuation mark opens no
    strikethrough on GitHub (not left-flanking, GFM 6.5), nor closes one after a mark and
    before a symbol: home folders, '为~/data，或者~/code', were told as struck
    (the last three fail before)."""
    with captured() as warned:
        html(tmp_path, text, lang="zh")
    assert not [w for w in warned if "strikethrough" in w], warned


@pytest.mark.parametrize("text", ["其中＄x_k＄是变量。\n", "其中＄x＄是变量。\n",
                                  "可以看到＄\\frac{1}{2}＄成立。\n"])
def test_a_full_width_dollar_around_a_formula_warns_at_its_line(tmp_path: Path,
                                                                text: str) -> None:
    """A Chinese input method's full-width '＄' around TeX: text here and on GitHub, where a
    formula was meant, with no word."""
    with captured() as warned:
        html(tmp_path, "Intro.\n\n" + text, lang="zh")
    got = [w for w in warned if "full-width dollar sign" in w]
    assert len(got) == 1 and f"index.md:{BODY_START + 2}: warning:" in got[0], warned


@pytest.mark.parametrize("text", ["价格在 ＄5 到 ＄10 之间。\n", "约 ＄38,250,000。\n"])
def test_a_full_width_dollar_of_a_price_stays_quiet(tmp_path: Path, text: str) -> None:
    with captured() as warned:
        html(tmp_path, text, lang="zh")
    assert not [w for w in warned if "full-width dollar sign" in w], warned


@pytest.mark.parametrize("block", ["---\ntheme: smartblue\n---\n", "---\nhighlight: darcula\n---\n"])
def test_a_one_line_front_matter_in_the_text_is_told_as_one(tmp_path: Path, block: str) -> None:
    """A Juejin post's own front matter (`theme: smartblue` between '---' lines) pasted
    below the article's first paragraph is a rule and a heading, here and on GitHub: it was
    told to be written '## theme: smartblue {#some-id}'."""
    with pytest.raises(BuildError) as e:
        html(tmp_path, "Intro.\n\n" + block + "\nMore text.\n")
    assert e.value.line == BODY_START + 3, str(e.value)
    assert "pasted post's own front matter" in e.value.message
    assert "{#some-id}" not in e.value.message


def test_a_capitalised_heading_under_a_rule_is_still_a_heading(tmp_path: Path) -> None:
    with pytest.raises(BuildError) as e:
        html(tmp_path, "Intro.\n\n---\nNote: a heading\n---\n\nMore text.\n")
    assert "has no explicit id" in e.value.message, str(e.value)


@pytest.mark.parametrize("container, title, box_id", [
    ("::: {.callout-tip}\nScale by the root of the width.\n:::\n", "Tip", "tip"),
    ("::: callout-caution\nScale by the root of the width.\n:::\n", "Caution", "caution"),
    (":::tip[Why the root]\nScale by the root of the width.\n:::\n", "Why the root",
     "why-the-root"),
])
def test_a_container_is_told_the_lines_of_its_box(tmp_path: Path, container: str, title: str,
                                                  box_id: str) -> None:
    """A ':::' container (Quarto's callout, Docusaurus' admonition) was told to become "a
    '/// details | Title' box", no lines to copy; the warning now gives them, and the lines
    it gives make the box, with no warning."""
    with captured() as warned:
        html(tmp_path, "Intro.\n\n" + container)
    got = [w for w in warned if "':::' container" in w]
    assert len(got) == 1 and f"index.md:{BODY_START + 2}: warning:" in got[0], warned
    assert f"'/// details | {title}', '    attrs: {{id: {box_id}}}'" in got[0], got[0]
    box = (f"Intro.\n\n/// details | {title}\n    attrs: {{id: {box_id}}}\n\n"
           "Scale by the root of the width.\n///\n")
    with captured() as warned:
        made = html(tmp_path, box)
    assert warned == [] and f'id="{box_id}"' in made, warned


@pytest.mark.parametrize("syntax, title", [
    ("> [!tip] Use the *root* of `d_k` here\n> Body.\n", "Use the root of `d_k` here"),
    ("> [!note] On [the scale](#a) alone\n", "On the scale alone"),
    ("::: tip A **bold** claim\nBody.\n:::\n", "A bold claim"),
], ids=["emphasis and code", "link", "container"])
def test_a_box_title_with_markup_is_told_whole(tmp_path: Path, syntax: str,
                                               title: str) -> None:
    """A callout's title going on past emphasis ('[!tip] In _Live Preview_, you can …', a
    real Obsidian help note) was told as its words before the emphasis, '/// details | In':
    followed, the box lost the rest of its title. The title is told whole, its words (a
    code span's in backticks), and the lines told build with no warning."""
    with captured() as warned:
        html(tmp_path, "## A {#a}\n\n" + syntax)
    got = [w for w in warned if "/// details | " in w]
    assert len(got) == 1 and f"'/// details | {title}'," in got[0], warned
    box_id = re.search(r"attrs: \{id: ([\w-]+)\}", got[0])
    assert box_id, got[0]
    box = (f"## A {{#a}}\n\n/// details | {title}\n    attrs: {{id: {box_id.group(1)}}}\n\n"
           "Body.\n///\n")
    with captured() as warned:
        html(tmp_path, box)
    assert warned == [], warned


def test_a_callout_in_lines_github_reads_as_code_is_told_at_its_own_line(
        tmp_path: Path) -> None:
    """A callout shown as an example inside a quote's fence whose opening line is indented
    one more space than its closing one (a real Obsidian help note): this Markdown reads a
    nested quote there, GitHub code. Its '[!tip]' line, masked as code in the text the
    warnings search, was told at the first '[!tip]' of the article, many lines above; it is
    told at its own line (the nested quote's), as the fence's warning is."""
    body = ("> [!tip] Scale first\n> By the root.\n\nMiddle.\n\n"
            "> An example:\n>  ```md\n> > [!tip]\n> > Text.\n> ```\n\nEnd.\n")
    with captured() as warned:
        html(tmp_path, body)
    lines = sorted(int(w.split("index.md:")[1].split(":")[0]) for w in warned
                   if "'[!tip]'" in w)
    assert lines == [BODY_START, BODY_START + 7], warned


@pytest.mark.parametrize("syntax, title, box_id", [
    ("> [!tip] Don't skip the root\n> Scale it.\n", "Don't skip the root", "don-t-skip-the-root"),
    ('> [!note] A "fair" scale\n> Scale it.\n', 'A "fair" scale', "a-fair-scale"),
    ("::: tip Don't skip the root\nScale it.\n:::\n", "Don't skip the root",
     "don-t-skip-the-root"),
    ('::: {.callout-note title="The root\'s job"}\nScale it.\n:::\n', "The root's job",
     "the-root-s-job"),
], ids=["alert apostrophe", "alert quotes", "container", "callout title="])
def test_a_box_title_with_quotes_is_told_as_typed(tmp_path: Path, syntax: str, title: str,
                                                  box_id: str) -> None:
    """An Obsidian callout's or a container's title holding an apostrophe or quotes
    ('Here's a callout title', a real Obsidian help note) was told with smarty's stash
    placeholders in it ('/// details | Herewzxhzdk:21s ...', an id of them), and a Quarto
    callout's title="..." holding one was not found (told 'Note'). The title is told as
    typed, and the lines told build with no warning."""
    with captured() as warned:
        html(tmp_path, "Intro.\n\n" + syntax)
    got = [w for w in warned if "/// details | " in w]
    assert len(got) == 1 and "wzxhzdk" not in got[0], warned
    assert f"'/// details | {title}', '    attrs: {{id: {box_id}}}'" in got[0], got[0]
    box = f"Intro.\n\n/// details | {title}\n    attrs: {{id: {box_id}}}\n\nScale it.\n///\n"
    with captured() as warned:
        made = html(tmp_path, box)
    assert warned == [] and f'id="{box_id}"' in made, warned


def test_a_container_s_closing_line_in_a_list_item_is_told_at_its_own_line(
        tmp_path: Path) -> None:
    """The closing ':::' of a container inside a list item (a real Docusaurus page's
    ':::warning' in a numbered step), whose line the page does not know, was told at the
    container's opening line, the first line holding ':::' from the item on; a line that the
    syntax fills is looked for whole."""
    body = "1. Install:\n\n   :::warning\n\n   Pin it.\n\n   :::\n\n2. Run.\n"   # (by 3, as there)
    with captured() as warned:
        html(tmp_path, body)
    ends = [w for w in warned if "closing line ':::'" in w]
    assert len(ends) == 1 and f"index.md:{BODY_START + 6}:" in ends[0], warned


def test_a_container_s_closing_line_of_its_own_is_told_as_its_end(tmp_path: Path) -> None:
    """A ':::' container written with blank lines inside (Docusaurus' docs write them so, a
    real Docusaurus page) has its closing ':::' as a paragraph of its own, which was told as
    a second container, to become a box of its own titled 'Note': followed, the page had an
    empty box. It is told as the container's end, to become the '///' that closes the box its
    opening line is told; the lines told build with no warning."""
    with captured() as warned:
        html(tmp_path, "Intro.\n\n:::tip\n\nScale it.\n\n:::\n\nEnd.\n")
    boxes = [w for w in warned if "/// details | " in w]
    assert len(boxes) == 1 and f"index.md:{BODY_START + 2}:" in boxes[0], warned
    ends = [w for w in warned if "closing line ':::'" in w]
    assert len(ends) == 1 and f"index.md:{BODY_START + 6}:" in ends[0], warned
    assert "'///' in its place" in ends[0], ends
    with captured() as warned:
        html(tmp_path, "Intro.\n\n/// details | Tip\n    attrs: {id: tip}\n\nScale it.\n\n///\n"
                       "\nEnd.\n")
    assert warned == [], warned


@pytest.mark.parametrize("syntax, title", [
    ("::: warning \u6ce8\u610f\n\u8fd9\u91cc\u6709\u5751\n:::\n", "\u6ce8\u610f"),
    ("::: details \u89e3\n\u65b9\u7a0b\u5de6\u7aef\u7684\u884c\u5217\u5f0f\n:::\n", "\u89e3"),
    ("> [!tip] \u5c0f\u6280\u5de7\n> \u9664\u4ee5\u6839\u53f7\u3002\n", "\u5c0f\u6280\u5de7"),
], ids=["container", "VuePress details", "callout"])
def test_a_chinese_box_title_is_its_own_line_only(tmp_path: Path, syntax: str,
                                                  title: str) -> None:
    """On a Chinese page a line break between two Chinese characters is joined away
    (CjkLineJoin) before other tools' syntax is read, so a container's or callout's title
    took the next line's text with it: `::: details \u89e3` over '\u65b9\u7a0b\u2026' was told to
    become '/// details | \u89e3\u65b9\u7a0b\u2026'. The title is its own line's."""
    with captured() as warned:
        html(tmp_path, "\u5f00\u5934\u3002\n\n" + syntax, lang="zh")
    got = [w for w in warned if "/// details | " in w]
    assert len(got) == 1 and f"'/// details | {title}'," in got[0], warned


@pytest.mark.parametrize("text", ["<div>\nCall `softmax` on each row.\n</div>\n",
                                  "<aside>\nCall `softmax` on each row.\n\n</aside>\n"])
def test_code_inside_a_block_of_raw_html_warns_at_its_line(tmp_path: Path, text: str) -> None:
    """A code span inside a raw HTML block (a Notion callout's `<aside>`) shows its
    backticks, here and on GitHub: the lexer had masked it as code before the raw HTML's
    Markdown was looked for, so it went unwarned where bold and links were told."""
    with captured() as warned:
        html(tmp_path, "Intro.\n\n" + text)
    got = [w for w in warned if "inside a block of raw HTML" in w]
    assert len(got) == 1 and f"index.md:{BODY_START + 3}: warning:" in got[0], warned
    assert "HTML for code, <code>" in got[0], got


def test_a_note_defined_in_a_list_item_and_again_is_defined_twice(tmp_path: Path) -> None:
    """Typora writes a note's definition as a list item (`- [^a]: …`), which both parsers read
    as the definition; the line-by-line read looked only at the margin, so a second
    definition of the label went unnamed (the page kept the last, GitHub the first)."""
    body = "A claim[^a].\n\n- An item\n- [^a]: One.\n\n[^a]: Two.\n"
    e = error(tmp_path, body)
    assert e.line == BODY_START + 5 and "defined twice" in e.message, str(e)
    assert f"line {BODY_START + 3}" in e.message, str(e)


@pytest.mark.parametrize("text", ["- ==高亮功能==\n- 其他\n", "- 一项\n\n- ==高亮功能==\n",
                                  "| 语法 | 效果 |\n|---|---|\n| `==x==` | ==高亮文字== |\n"])
def test_a_highlight_in_a_list_item_is_no_mediawiki_heading(tmp_path: Path, text: str) -> None:
    """Typora's `- ==highlight==` was told twice, as highlighting and as a MediaWiki heading
    '== … ==' to be written '## Its title {#some-id}': no heading stands in a list item, nor
    in a table's cell (a real Obsidian help note's table of its syntax)."""
    with captured() as warned:
        html(tmp_path, "Intro.\n\n" + text, lang="zh")
    assert not [w for w in warned if "MediaWiki" in w], warned
    assert [w for w in warned if "highlighting" in w], warned


@pytest.mark.parametrize("line", ["-  " * 40 + "x", ">  " * 40 + "x",
                                  "{" + "\u4e2d" * 3000 + "|" + "a " * 3000,
                                  "\uff04" + "x_" * 3000])
@pytest.mark.cpu_timeout(60)    # read at once it takes well under a second; backtracking, hours
def test_a_long_line_of_markers_reads_in_linear_time(tmp_path: Path, line: str) -> None:
    """The readings added for Typora's and Markdown Nice's habits (a note defined in a list
    item, a ruby annotation, a full-width dollar) backtracked without end on a line of many
    list markers or quote marks parted by two spaces, or a long brace never closed: the build
    stalled. Each is read at once now."""
    from sqrtdk.web.line_reads import check_footnote_definitions
    check_footnote_definitions(tmp_path / "index.md", line + "\n")
    with captured():
        html(tmp_path, "Intro.\n\n" + line + "\n", lang="zh")


@pytest.mark.cpu_timeout(20)    # about 0.5 s each (the growth check); before, the square
@pytest.mark.parametrize("unit, n", [("http:", 5000), ("link:", 5000), ("[b]x ", 5000),
                                     ("{code:a} x ", 2500), (">!a ", 5000), ("{++a ", 5000),
                                     (":A:\n", 2000)],
                         ids=["slack", "asciidoc", "bbcode", "confluence", "spoiler", "critic",
                              "drawer"])
def test_many_openers_of_other_tools_syntax_read_in_linear_time(tmp_path: Path, unit: str,
                                                                n: int) -> None:
    """Other tools' syntax read from an opener to its closer (a Slack link's '|', an
    AsciiDoc link's '[', a BBCode or Confluence pair, a Reddit spoiler, CriticMarkup, an
    org-mode drawer's ':END:') was looked for from every opener to the end of the line or
    block: a paragraph of many openers and no closer took time in the square of its length
    (each of these took 10 to 30 s at 40,000 to 80,000 openers). Each opener's search now
    stops at the next opener.

    A paragraph of n and 4n openers through the page (n a sixteenth of those sizes): under
    8 times as long (linear about 4, the square 16)."""
    from helpers import assert_linear_growth

    def paragraph(times: int) -> Any:
        def work() -> None:
            with captured():
                body = html(tmp_path, "Intro.\n\n" + unit * times + "\n")
            assert "Intro." in body
        return work
    assert_linear_growth(paragraph, n)


@pytest.mark.cpu_timeout(20)    # linear: about 0.3 s each; before, over a minute each
@pytest.mark.parametrize("opener", ["公式stem:[", "图footnote:[", "图image::a.png[", "见xref:x[",
                                    "，https://a.b[", "图image:a.png", "，https://a.b",
                                    "见link:a"])
def test_many_asciidoc_macros_after_chinese_text_read_in_linear_time(opener: str) -> None:
    """AsciiDoc's inline macros ('stem:[', 'footnote:[', 'image:…[', 'link:…[', an address
    and '[') read their text from each opener to the line's end: a line of many openers
    with no ']', told now right after a Chinese character, took time in the square of its
    length (1.4 s at 30,000 characters, minutes at 600,000). Each opener's text now
    stops at the next opener; so does an image's file or an address before its '[' (a line
    of them with no '[' at all: 1 s at 40,000 characters, minutes at 600,000). (The rules alone: Python-Markdown's own reading of a line of
    many '[' is slow of itself.)"""
    from helpers import assert_linear_growth

    from sqrtdk.web.md_foreign import FOREIGN

    def line_of(chars: int) -> Any:
        # every rule over a line of 40,000 and 160,000 characters: about 0.05 s and 0.2 s of
        # CPU (4 times; the limit is 8, the square 16); before, 2.5 s at 40,000
        line = opener * (chars // len(opener))

        def work() -> None:
            for pattern, *_ in FOREIGN:
                for _ in pattern.finditer(line):
                    pass
        return work
    assert_linear_growth(line_of, 40_000)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("text", ["## T " + "{#a " * 3000 + "\n",
                                  "## T {#t}\n\n" + "{a " * 30000 + "\n",
                                  "## T " + "{#a " * 3000 + "{#t}\n"],
                         ids=["heading of many lists never closed", "a line of many '{'",
                              "and one closed at its end"])
@pytest.mark.cpu_timeout(60)    # linear: well under a second; before, cubic (13 s at 2,000)
def test_a_heading_or_line_of_many_braces_reads_in_linear_time(tmp_path: Path, text: str,
                                                                lang: str) -> None:
    """The patterns that find a heading's `{#id}` at its line's end (md_blocks, md_collect,
    the Chinese lint) tried the list's body from every '{' to the line's end and back over
    every '#': a heading of many '{#a' and no '}' took cubic time; a line of many '{' with no
    '}', quadratic (editor_blocks, md_foreign, md_math). Whatever the page makes of them, it
    is made at once."""
    try:
        with captured():
            html(tmp_path, "Intro.\n\n" + text, lang=lang)
    except BuildError:
        pass


@pytest.mark.parametrize("row", ["<![a](x.jpg),![b](y.jpg)>\n",
                                 "<![第一张](https://example.org/a.png)，![第二张](b.png)>\n",
                                 "- <![a](x.jpg), ![b](y.jpg)>\n"])
def test_a_markdown_nice_slide_row_is_told_as_one(tmp_path: Path, row: str) -> None:
    """Markdown Nice's slide row was told only picture by picture (a file the site lacks,
    an external resource), never as the row it is; now it stops the build once, at its
    line, naming it and what to write."""
    e = error(tmp_path, "Intro.\n\n" + row)
    assert e.line == BODY_START + 2 and "Markdown Nice's slide row" in e.message, str(e)
    assert "a paragraph of its own" in e.message, str(e)


@pytest.mark.parametrize("body", ["Some ![a](https://example.org/a.png) here.\n",
                                  "See <![a](x.jpg) and more.\n",
                                  "<![a](https://example.org/a.png)\n"])
def test_pictures_that_are_no_slide_row_are_not_told_as_one(tmp_path: Path, body: str) -> None:
    with captured():
        try:
            html(tmp_path, "Intro.\n\n" + body)
        except BuildError as e:
            assert "slide row" not in e.message, str(e)


@pytest.mark.parametrize("opener, closer", [("<!-- TOC -->", "<!-- /TOC -->"),
                                            ("<!-- toc -->", "<!-- tocstop -->"),
                                            ("<!-- TOC depthFrom:2 -->", "<!-- /TOC -->")])
def test_a_generated_contents_list_is_told_once_at_its_first_line(
        tmp_path: Path, opener: str, closer: str) -> None:
    """A contents list VS Code's Markdown All in One or markdown-toc generated links to the
    ids GitHub makes of the headings' text: each link was told as a link to a missing
    anchor, never the block as what it is; now one error at its first line says to remove
    it."""
    body = (f"Intro.\n\n{opener}\n\n- [Why scale](#why-scale)\n  - [The walk](#the-walk)\n\n"
            f"{closer}\n\n## Why scale {{#why}}\n\nText.\n")
    e = error(tmp_path, body)
    assert e.line == BODY_START + 2 and "generated contents list" in e.message, str(e)
    assert "remove the block" in e.message and closer in e.message, str(e)
    assert "#why-scale" not in str(e) and "#the-walk" not in str(e), str(e)


def test_a_lone_contents_comment_is_no_contents_list(tmp_path: Path) -> None:
    with captured() as warned:
        made = html(tmp_path, "Intro.\n\n<!-- TOC -->\n\nText.\n")
    assert "Text." in made and not [w for w in warned if "contents list" in w], warned


@pytest.mark.parametrize("mark, title", [("💡", "Tip"), ("ℹ️", "Note"), ("⚠️", "Warning"),
                                         ("⚠", "Warning"), ("❗", "Important"), ("📌", "Note"),
                                         ('<img src="https://example.org/i.png" alt="x"/>',
                                          "Note")],
                         ids=["light bulb", "information", "warning", "warning, no selector",
                              "exclamation", "pin, no clear kind", "icon"])
def test_a_notion_callout_is_told_the_lines_of_its_box(tmp_path: Path, mark: str,
                                                       title: str) -> None:
    """Notion's callout (its export's `<aside>`, an emoji, the text, `</aside>`) was
    published as a plain aside with no word; it is told as Notion's, with the lines of the
    box to write, titled by the kind its emoji names (it was always 'Note'), and those lines
    make the box with no warning."""
    with captured() as warned:
        html(tmp_path, f"Intro.\n\n<aside>\n{mark} Scale by the root of the width.\n</aside>\n"
                       "\nMore.\n")
    got = [w for w in warned if "Notion's callout" in w]
    assert len(got) == 1 and f"index.md:{BODY_START + 2}: warning:" in got[0], warned
    slug = title.lower()
    assert f"'/// details | {title}', '    attrs: {{id: {slug}}}'" in got[0], got[0]
    box = (f"Intro.\n\n/// details | {title}\n    attrs: {{id: {slug}}}\n\n"
           "Scale by the root of the width.\n///\n\nMore.\n")
    with captured() as warned:
        made = html(tmp_path, box)
    assert warned == [] and f'id="{slug}"' in made and "<details" in made, warned


@pytest.mark.parametrize("anchor, gap", [('<a name="why"></a>', "\n"),
                                         ('<a id="why"></a>', "\n\n")],
                         ids=["name, right above", "id, a blank line between"])
def test_an_anchor_right_before_a_heading_is_told_the_heading_s_own_id(
        tmp_path: Path, anchor: str, gap: str) -> None:
    """`<a name="why"></a>` on the line before a heading (a GitHub README's anchor) was
    published silently as an empty paragraph above the heading, which has its own id here:
    it is told, with the id to link to or the heading to write, and either way of following
    the message gives a page without a warning."""
    body = f"Intro [up](#why).\n\n{anchor}{gap}## Why it *scales* {{#scaling}}\n\nText.\n"
    with captured() as warned:
        html(tmp_path, body)
    got = [w for w in warned if "right before a heading" in w]
    assert len(got) == 1 and f"index.md:{BODY_START + 2}: warning:" in got[0], warned
    assert "link to the heading's own id, '#scaling'" in got[0], got[0]
    assert "'## Why it *scales* {#why}'" in got[0], got[0]
    for fixed in ("Intro [up](#scaling).\n\n## Why it *scales* {#scaling}\n\nText.\n",
                  "Intro [up](#why).\n\n## Why it *scales* {#why}\n\nText.\n"):
        with captured() as warned:
            made = html(tmp_path, fixed)
        assert warned == [] and "<p></p>" not in made, warned


@pytest.mark.parametrize("heading", ['## <a name="why"></a>Why it *scales* {#scaling}',
                                     '## Why it <a id="why"></a> *scales* {#scaling}'],
                         ids=["first", "among the words"])
def test_an_anchor_in_a_heading_is_told_the_heading_s_own_id(tmp_path: Path,
                                                             heading: str) -> None:
    """The same README habit inside the heading's line: the heading has two ids."""
    with captured() as warned:
        html(tmp_path, f"Intro [up](#why).\n\n{heading}\n\nText.\n")
    got = [w for w in warned if "in the heading is an anchor" in w]
    assert len(got) == 1 and f"index.md:{BODY_START + 2}: warning:" in got[0], warned
    assert "link to the heading's own id, '#scaling'" in got[0], got[0]
    assert "'## Why it *scales* {#why}'" in got[0], got[0]


@pytest.mark.parametrize("body, at", [
    ('## Why <a name="why"></a> {#why}\n', 2),
    ('## <a id="why"></a>Why it *scales* {#why}\n', 2),
    ('<a name="why"></a>\n## Why {#why}\n', 2),
    ('<a id="why"></a>\n\n## Why {#why}\n', 2),
], ids=["name, in the heading", "id, first in the heading", "name, right above",
        "id, a blank line between"])
def test_an_anchor_with_the_heading_s_own_id_is_told_to_be_removed(tmp_path: Path, body: str,
                                                                    at: int) -> None:
    """An anchor naming the very id its heading has (`## Why <a name="why"></a> {#why}`)
    stopped the build as a 'duplicate id', telling the author to choose another id and
    change what links to it, though the heading already is the target: it is told at the
    anchor's line to be removed, links to '#why' reaching the heading as before."""
    text = f"Intro [up](#why).\n\n{body}\nText.\n"
    with captured():
        e = error(tmp_path, text)
    assert e.line == BODY_START + at, str(e)
    assert "remove the anchor" in e.message and "choose another id" not in e.message, str(e)
    assert "'#why'" in e.message, str(e)
    fixed = "Intro [up](#why).\n\n## Why {#why}\n\nText.\n"
    with captured() as warned:
        made = html(tmp_path, fixed)
    assert warned == [] and 'id="why"' in made, warned


def test_an_anchor_before_a_heading_without_id_is_told_to_be_its_id(tmp_path: Path) -> None:
    with captured() as warned, pytest.raises(BuildError):
        html(tmp_path, 'Intro.\n\n<a name="why"></a>\n## Why\n\nText.\n')
    got = [w for w in warned if "right before a heading" in w]
    assert len(got) == 1 and "give the heading that id, '## Why {#why}'" in got[0], warned


@pytest.mark.parametrize("body", ['A word <a name="why"></a> in a sentence.\n\n## Why {#why-a}\n',
                                  '<a href="#why-a">Why</a>\n\n## Why {#why-a}\n',
                                  '<a name="why"></a>\n\nA paragraph.\n'],
                         ids=["in a sentence", "a link", "no heading after"])
def test_an_anchor_not_alone_before_a_heading_is_not_told(tmp_path: Path, body: str) -> None:
    with captured() as warned:
        html(tmp_path, body)
    assert not [w for w in warned if "right before a heading" in w], warned


def test_two_notion_callouts_alike_are_told_ids_of_their_own(tmp_path: Path) -> None:
    """Two tips (or a tip and a heading with the id 'tip') were each told '{id: tip}':
    followed to the letter, the build stopped on a duplicate id. Each box told now takes an
    id no other callout's box and no id the article writes has, and the lines given build."""
    callout = "<aside>\n\U0001f4a1 {}\n</aside>\n"
    body = ("## Tips {#tip}\n\nIntro.\n\n" + callout.format("Scale it.") + "\nMore.\n\n"
            + callout.format("Check it.") + "\nEnd.\n")
    with captured() as warned:
        html(tmp_path, body)
    got = [w for w in warned if "Notion's callout" in w]
    ids = [re.search(r"attrs: \{id: ([\w-]+)\}", w)[1] for w in got]
    assert ids == ["tip-2", "tip-3"], got
    boxed = ("## Tips {#tip}\n\nIntro.\n\n/// details | Tip\n    attrs: {id: tip-2}\n\nScale it."
             "\n///\n\nMore.\n\n/// details | Tip\n    attrs: {id: tip-3}\n\nCheck it.\n///\n"
             "\nEnd.\n")
    with captured() as warned:
        made = html(tmp_path, boxed)
    assert warned == [] and made.count("<details") == 2, warned


def test_an_aside_of_the_author_s_own_is_no_notion_callout(tmp_path: Path) -> None:
    with captured() as warned:
        html(tmp_path, "Intro.\n\n<aside>\nScale by the root.\n</aside>\n\nMore.\n")
    assert not [w for w in warned if "Notion" in w], warned


@pytest.mark.parametrize("syntax", ["*bold**", "<https://example.org|text>"])
def test_other_tools_syntax_in_a_definition_is_told_at_its_line(tmp_path: Path,
                                                                syntax: str) -> None:
    """A definition list is read by this Markdown only (GitHub has none), so its elements
    have no line of their own; a warning inside one searched the article from its first
    line, and one written earlier too was named twice, the definition's at the earlier
    line. The search now starts after the block before the list."""
    body = f"Intro {syntax} here.\n\nTerm\n:   one\n    more {syntax}\n"
    with captured() as warned:
        html(tmp_path, body)
    got = sorted(int(w.split("index.md:")[1].split(":")[0]) for w in warned)
    assert got == [BODY_START, BODY_START + 4], warned


@pytest.mark.parametrize("syntax", ["> [!NOTE]\n> {}\n", "::: note\n{}\n:::\n",
                                    "!!! note\n    {}\n"])
def test_the_box_told_for_two_alerts_alike_takes_an_id_of_its_own(tmp_path: Path,
                                                                   syntax: str) -> None:
    """Two GitHub alerts (MkDocs admonitions, ':::' containers) of one kind were each told
    to be written as a box with the same id, '{id: note}', which a heading also had:
    followed to the letter, the build stopped on a duplicate id. Each box told now takes an
    id no element of the page and no earlier advice has, and the boxes written as told
    build."""
    body = ("## Note {#note}\n\n" + syntax.format("First.") + "\nMiddle.\n\n"
            + syntax.format("Second."))
    with captured() as warned:
        html(tmp_path, body)
    ids = [re.search(r"attrs: \{id: ([\w-]+)\}", w) for w in warned]
    told = [m.group(1) for m in ids if m]
    assert len(told) == 2 and len(set(told)) == 2 and "note" not in told, warned
    boxes = "".join(f"/// details | Note\n    attrs: {{id: {ident}}}\n\n{words}\n///\n\n"
                    for ident, words in zip(told, ("First.", "Second."), strict=True))
    with captured():
        html(tmp_path, "## Note {#note}\n\n" + boxes)


@pytest.mark.parametrize("heading", ["## Results {#res (draft)}", "## Results {#res !draft}"])
def test_a_bare_word_in_an_id_list_is_no_kramdown_extension(tmp_path: Path,
                                                            heading: str) -> None:
    """A word attr_list makes a name of (its first character not a letter: '(draft)' as
    '_draft_') was told as kramdown's '{:/…}' end, with advice about '{::comment}' the
    article does not hold; it is told as the bare word it is, in the list it was written in."""
    e = error(tmp_path, "Intro.\n\n" + heading + "\n")
    assert e.line == BODY_START + 2 and "kramdown" not in e.message, str(e)


@pytest.mark.parametrize(("syntax", "kind"), [
    ("> [!TIP]\n> {}\n", "tip"), ("!!! warning\n    {}\n", "warning"),
    ("::: danger\n{}\n:::\n", "danger"), ("<aside>\n\u26a0\ufe0f {}\n</aside>\n", "warning"),
])
def test_the_box_told_for_a_note_box_is_titled_in_the_page_s_language(
        tmp_path: Path, syntax: str, kind: str) -> None:
    """A GitHub alert, MkDocs admonition, ':::' container or Notion callout on a Chinese page
    was told a box titled in English ('/// details | Tip'): followed, the page showed an
    English title among Chinese text. The title is now strings.toml's [box_titles] word for
    the kind (its id the kind's name where the title has no Latin letters), and the lines
    told build."""
    title = "\u5c0f\u63d0\u793a\u4e4b\u7c7b"      # a title of ours, not the project's
    st = dataclasses.replace(strings("zh"), box_titles={kind: title})
    path = tmp_path / "index.md"
    path.write_text(FRONT + "\u524d\u6587\u3002\n\n" + syntax.format("\u5148\u7f29\u653e\u3002")
                    + "\n\u7ed3\u5c3e\u3002\n", encoding="utf-8")
    with captured() as warned:
        build_page(path, st, RESULTS, resolver([]), [], lambda module: module)
    told = [w for w in warned if "/// details |" in w]
    assert len(told) == 1 and f"'/// details | {title}'" in told[0] \
        and f"attrs: {{id: {kind}}}" in told[0], warned
    boxed = (f"\u524d\u6587\u3002\n\n/// details | {title}\n    attrs: {{id: {kind}}}\n\n"
             "\u5148\u7f29\u653e\u3002\n///\n\n\u7ed3\u5c3e\u3002\n")
    path.write_text(FRONT + boxed, encoding="utf-8")
    with captured() as warned:
        made = build_page(path, st, RESULTS, resolver([]), [], lambda module: module).body
    assert warned == [] and title in made and f'id="{kind}"' in made, warned


def test_a_notion_callout_and_an_alert_of_one_kind_are_told_ids_of_their_own(
        tmp_path: Path) -> None:
    """Notion's callouts are told before the conversion, the other tools' note boxes during
    it, each keeping its own list of ids: a tip of each was told '{id: tip}', and followed to
    the letter the build stopped on a duplicate id. The conversion now avoids the ids told
    for callouts too."""
    body = ("Intro.\n\n> [!TIP]\n> Scale it.\n\nMiddle.\n\n<aside>\n\U0001f4a1 Check it.\n"
            "</aside>\n\nEnd.\n")
    with captured() as warned:
        html(tmp_path, body)
    told = [m.group(1) for w in warned for m in [re.search(r"attrs: \{id: ([\w-]+)\}", w)] if m]
    assert len(told) == 2 and len(set(told)) == 2, warned


def test_a_myst_box_fence_is_titled_in_the_page_s_language() -> None:
    """The kind's title comes from strings.toml's [box_titles], as for GitHub's alerts."""
    from sqrtdk.web.editor_blocks import myst_box_fences
    text = "Intro.\n\n```{tip}\nScale it.\n```\n"
    told = myst_box_fences(text, [(3, "{tip}", "Scale it.")], {"tip": "\u63d0\u793a"})
    assert [(line, slug) for line, _, slug in told] == [(3, "tip")], told
    assert "'/// details | \u63d0\u793a', '    attrs: {id: tip}'" in told[0][1], told


@pytest.mark.cpu_timeout(10)    # about 0.5 s of CPU; before, the small size alone takes 24 s
def test_a_long_table_the_readings_part_on_at_one_row_is_compared_in_linear_time(
        tmp_path: Path) -> None:
    """The two readings of a long table that part on one row (a '|' inside `code`, a cell
    boundary on GitHub) were aligned by difflib over every row, in the square of their
    number (4,000 rows: 8.5 s; 8,000: 31 s). What they share at the start and end is now
    taken as equal first; the warning is still at that row's line.

    The alignment (block_diff.align, where the square was) of 2,000 and 8,000 rows, 15 times
    each: about 0.07 s and 0.25 s of CPU (3.5 times), before about 24 s and 400 s (16
    times). A table of 40 rows goes through the whole page for the warning's line."""
    from helpers import assert_linear_growth

    from sqrtdk.web.block_diff import align
    from sqrtdk.web.blocks import Block

    def readings(rows: int) -> Any:
        ours = [Block("table", 0, "", 1)] + [b for i in range(rows) for b in (
            Block("tr", 1, "", i + 3), Block("td", 2, f"r{i}", i + 3),
            Block("td", 2, f"v{i}", i + 3))]
        theirs = list(ours)
        theirs[18:19] = [Block("td", 2, "`a", 8), Block("td", 2, "b`", 8)]   # row 5's cells

        def work() -> None:
            for _ in range(15):
                done = align(ours, theirs)
            assert [line for line, _ in done.differences] == [8], done.differences
        return work
    assert_linear_growth(readings, 2000)
    rows = [f"| r{i} | v{i} |" for i in range(40)]
    rows[5] = "| r5 | `a|b` |"
    body = "Intro.\n\n| a | b |\n|---|---|\n" + "\n".join(rows) + "\n\nEnd.\n"
    with captured() as messages:
        page(tmp_path, body, {"claims": {}, "meta": {"bounds": {}}})
    assert len(messages) == 1 and f":{BODY_START + 9}: warning:" in messages[0] and \
        "split this table row into cells differently" in messages[0], messages


@pytest.mark.parametrize("text, lang, shown", [
    ("See [the figure]\uff08#fig-walk) below.\n", "en", "]\uff08#fig-walk)"),
    ("See [the figure]\uff08#fig-walk\uff09 below.\n", "en", "]\uff08#fig-walk\uff09"),
    ("See [the figure](#fig-walk\uff09 below.\n", "en", "](#fig-walk\uff09"),
    ("\u53c2\u89c1[\u8bba\u6587]\uff08https://arxiv.org/abs/1706.03762\uff09\u3002\n", "zh",
     "]\uff08https://arxiv.org/abs/1706.\u2026"),
    ("\u53c2\u89c1[\u6e90\u7801]\uff08walk.py)\u3002\n", "zh", "]\uff08walk.py)"),
])
def test_a_links_full_width_parenthesis_warns_at_its_line(tmp_path: Path, text: str,
                                                         lang: str, shown: str) -> None:
    """A Chinese input method's '\uff08' (or '\uff09') around a link's address: no link, here and
    on GitHub, the brackets and the address published as typed, with no word (a mutation
    pass over the article)."""
    with captured() as warned:
        html(tmp_path, "Intro.\n\n" + text, lang=lang)
    got = [w for w in warned if "parenthesis typed full-width" in w]
    assert len(got) == 1 and f"index.md:{BODY_START + 2}: warning:" in got[0], warned
    assert f"('{shown}')" in got[0], got
    assert not [w for w in warned if "without its pair of brackets" in w], warned


@pytest.mark.parametrize("text", ["\u53c2\u89c1[1]\uff08\u7b2c\u4e09\u8282\uff09\u3002\n",
                                  "A list [a, b]\uff08in order\uff09.\n",
                                  # a name with a dot, then more words in the parentheses
                                  "\u89c1[3]\uff08torch.nn \u7684\u6587\u6863\uff09\u3002\n",
                                  "As [2]\uff08./walk.py holds it\uff09 says.\n",
                                  # an address the autolink makes a link, then words: a
                                  # source and what it is, no link's syntax on GitHub either
                                  "\u53c2\u89c1[1]\uff08https://example.com \u8bf4\u660e"
                                  "\uff09\u3002\n",
                                  "See [1]\uff08https://example.com/a the paper\uff09.\n"])
def test_brackets_before_full_width_parentheses_of_prose_stay_quiet(tmp_path: Path,
                                                                  text: str) -> None:
    with captured() as warned:
        html(tmp_path, text, lang="zh")
    assert not [w for w in warned if "parenthesis typed full-width" in w], warned


@pytest.mark.parametrize("text, at", [("- one\n-\u00a0two\n", 1), ("1.\u00a0first\n", 0),
                                      ("A line.\n*\u00a0a star item\n", 1),
                                      ("\u4e00\u3002\n-\u00a0\u4e8c\n", 1)])
def test_a_list_marker_before_a_non_breaking_space_warns_at_its_line(
        tmp_path: Path, text: str, at: int) -> None:
    """'-' and a non-breaking space (a word processor's, an online editor's) starts no list
    item, here or on GitHub: the line joined the item or paragraph above, its '-' shown,
    silently (a mutation pass over the article)."""
    with captured() as warned:
        html(tmp_path, "Intro.\n\n" + text, lang="zh" if "\u4e00" in text else "en")
    got = [w for w in warned if "followed by a non-breaking space" in w]
    assert len(got) == 1 and f"index.md:{BODY_START + 2 + at}: warning:" in got[0], warned


@pytest.mark.parametrize("text", ["- one\n- two\n", "A price of 5\u00a0USD, and -\u00a03 here.\n",
                                  "In 2017.\u00a0Then.\n"])
def test_a_non_breaking_space_elsewhere_is_no_list_marker(tmp_path: Path, text: str) -> None:
    with captured() as warned:
        html(tmp_path, text)
    assert not [w for w in warned if "followed by a non-breaking space" in w], warned


@pytest.mark.cpu_timeout(60)    # linear: well under a second; before, minutes
@pytest.mark.parametrize("unit", ["[\u5916\u94fe\u56fe\u7247\u8f6c\u5b58\u5931\u8d25",
                                  "[\u5916\u94fe\u56fe\u7247\u8f6c\u5b58\u5931\u8d25(img-a)("])
def test_csdns_failed_picture_note_is_looked_for_in_linear_time(unit: str) -> None:
    """The note's start repeated on one line with no end: each start was read to the
    line's end (8,000 of them: 2.6 s of CPU, in the square of their number)."""
    from sqrtdk.web.md_foreign import FOREIGN
    pattern = next(p for p, _, what, _ in FOREIGN if "CSDN export" in what)
    assert not list(pattern.finditer(unit * 60_000))


@pytest.mark.cpu_timeout(30)    # about 3.5 s of CPU (the growth check); before, the square
def test_many_warnings_in_one_paragraph_find_their_lines_in_linear_time(tmp_path: Path) -> None:
    """Each warning of md_foreign found its line by a search from its block's start (and
    counted the line breaks from the article's start): a paragraph of 16,000 lines of TeX
    outside a formula took 10 s of CPU, in the square of their number. A line known from
    the tree is now only checked, and the article's line offsets are kept; each warning
    is still at its own line.

    4,000 and 32,000 lines: about 0.35 s and 2.8 s of CPU (about 8 times; the limit is 12,
    the square 64); with aa7d39f's fix reverted, about 0.9 s and 18 s, 20 times (its
    linear part is large: 2,000 to 16,000 lines is 16 times there, so not those sizes)."""
    from helpers import assert_linear_growth

    def paragraph(n: int) -> Any:
        body = "Intro.\n\n" + "\n".join(f"\\alpha {i}" for i in range(n)) + "\n\nEnd.\n"

        def work() -> None:
            with captured() as messages:
                page(tmp_path, body, {"claims": {}, "meta": {"bounds": {}}})
            assert len(messages) == n, len(messages)
            for k in (0, n // 2, n - 1):
                assert f":{BODY_START + 2 + k}: warning:" in messages[k] and \
                    f"\\alpha {k}'" in messages[k], messages[k]
        return work
    assert_linear_growth(paragraph, 4000, factor=8, limit=12)


@pytest.mark.cpu_timeout(60)    # linear: well under a second; before, hours
def test_a_paragraph_of_many_single_quotes_is_marked_in_linear_time() -> None:
    """Each single quote of a block was looked for among the block's quotes, a list, before
    its mark was set: time in the square of their number (a paragraph of 20,000 quoted words
    took 13.6 s of CPU, 10 of it there). The quotes are a set now. (The rest of that time
    is Python-Markdown's own, over its placeholders in one long paragraph.)"""
    import markdown

    from sqrtdk.web.md_single_quotes import SingleQuotes, _Site
    n = 200_000
    md = markdown.Markdown()
    md.htmlStash.rawHtmlBlocks = ["&lsquo;"] * n
    visible = " " + " 'w" * n + " "
    sites = [_Site(2 + 3 * k, stash=k) for k in range(n)]
    SingleQuotes(md, Path("index.md"), str)._flank(visible, sites, sites)
    assert md.htmlStash.rawHtmlBlocks == ["&lsquo;"] * n


@pytest.mark.parametrize("written", [
    '{% hint style="info" %}\nThe factor is 8.\n{% endhint %}',
    '{% note info %}\nThe factor is 8.\n{% endnote %}',
    '{% details Show the output %}\nOutput.\n{% enddetails %}',
    '{% note(kind="info") %}\nIf you have never seen softmax.\n{% end %}',
    '{{ admonition(type="tip", text="Short.") }}',
    "#+BEGIN_NOTE\nThe factor is 8.\n#+END_NOTE",
    '{% tabs %}\n{% tab title="PyTorch" %}\nx\n{% endtab %}\n{% endtabs %}',
], ids=["GitBook hint", "Hexo NexT note", "al-folio details", "Zola note", "Zola admonition",
        "org-mode block", "GitBook tabs"])
def test_a_box_another_tool_writes_is_told_the_box_s_lines_with_its_id(
        tmp_path: Path, written: str) -> None:
    """Another tool's box (GitBook's hint, NexT's note, al-folio's details, Zola's note, an
    org-mode block) was told to be written as "a box, '/// details | Title' … '///'":
    followed, such a box stopped the next build ('collapsible box without an id'). The
    advice now gives the id line with it, and a box written by it builds."""
    e = error(tmp_path, "Intro.\n\n" + written + "\n\nLast.\n")
    assert e.line == BODY_START + 2 and "'    attrs: {id: some-id}'" in e.message, e
    with captured() as messages:
        page(tmp_path, "Intro.\n\n/// details | Title\n    attrs: {id: some-id}\n\nThe factor "
             "is 8.\n///\n\nLast.\n", RESULTS)
    assert messages == []


@pytest.mark.parametrize("written", [
    "?> The factor is 8 here.", "!> Never divide by zero.", "+++ Why the root\nBecause.\n+++",
], ids=["Docsify tip", "Docsify warning", "LessWrong section"])
def test_a_box_told_by_its_own_tool_s_syntax_is_told_with_its_id_line(
        tmp_path: Path, written: str) -> None:
    """The same class as GitBook's hint: a Docsify tip ('?> …') or warning ('!> …'), or a
    LessWrong section, was told to be written as "a '/// details | Title' box", which,
    written so, stopped the next build ('collapsible box without an id'). The warning now
    names the id line too."""
    with captured() as warned:
        html(tmp_path, "Intro.\n\n" + written + "\n\nLast.\n")
    got = [w for w in warned if "'/// details | Title' box" in w]
    assert got and all("'    attrs: {id: some-id}'" in w for w in got), warned


@pytest.mark.parametrize("written, words", [
    ("```{block2, type='rmdtip'}\nUse `cache=TRUE` for slow chunks.\n```", "custom block"),
    ('<div markdown="1">\n\n**Tip**: the factor is 8.\n\n</div>', "asks for the Markdown"),
], ids=["bookdown block", "markdown=1"])
def test_the_other_warnings_that_advise_a_box_name_its_id_line(
        tmp_path: Path, written: str, words: str) -> None:
    """The rest of the class of d2ff2fe: bookdown's custom block and an HTML block asking for
    its Markdown to be read were told to write "a '/// details | Title' box", which, written
    so, stopped the next build for want of an id. Their warnings name the id line too."""
    with captured() as warned:
        html(tmp_path, "Intro.\n\n" + written + "\n\nLast.\n")
    got = [w for w in warned if words in w]
    assert got and all("'    attrs: {id: some-id}'" in w for w in got), warned


def test_a_component_that_is_a_tip_is_told_a_box_with_its_id_line(tmp_path: Path) -> None:
    """An MDX or Vue component was told 'a tip or warning: a quote, or a '/// details |
    Title' box', a box that stopped the next build for want of an id."""
    e = error(tmp_path, "Intro.\n\n<Tip>\n\nThe factor is 8.\n\n</Tip>\n\nLast.\n")
    assert "'/// details | Title' box" in e.message, e
    assert "'    attrs: {id: some-id}'" in e.message, e


@pytest.mark.parametrize("line", ["[[autodoc]] ScaledConfig", "[[autodoc]] ScaledModel.forward",
                                  "[[open-in-colab]]"])
def test_a_hugging_face_doc_builder_directive_is_told_as_that(tmp_path: Path,
                                                              line: str) -> None:
    """The Hugging Face doc-builder's `[[autodoc]] Name` (a class's reference, built from its
    docstrings) and `[[open-in-colab]]` were told as an Obsidian (wiki) link, 'write
    [text](address) for a link, a figure the build draws for a picture, or the words alone':
    not what the line is. Each is told once, at its line, as the doc-builder's directive."""
    with captured() as warned:
        html(tmp_path, f"Intro.\n\n## Reference {{#reference}}\n\n{line}\n\nEnd.\n")
    told = [w for w in warned if "published as typed" in w]
    assert len(told) == 1 and "doc-builder" in told[0] and "Obsidian" not in told[0] and \
        f"index.md:{BODY_START + 4}:" in told[0], warned


@pytest.mark.parametrize("text", ["The reference output is [[performance, positive]].",
                                  "| output | [[0.1, 0.9]] |\n|---|---|\n| b | c |",
                                  "The labels [[cat, dog, bird]] come first."])
def test_a_list_literal_in_double_brackets_is_no_wiki_link(tmp_path: Path, text: str) -> None:
    """A list of a list written in the text (a task's reference output
    '[[aspect, sentiment]]', a batch of one row '[[0.1, 0.9]]') was told as an Obsidian
    (wiki) link, 'write [text](address) …': a false alarm, as both parsers show it as typed,
    as meant. Words parted by ', ' in '[[…]]' are no page's name here."""
    with captured() as warned:
        html(tmp_path, f"Intro.\n\n{text}\n\nEnd.\n")
    assert not [w for w in warned if "Obsidian" in w], warned


@pytest.mark.parametrize("body, env", [
    ("The rotation:\n\n\\begin{bmatrix} a & b \\\\ c & d \\end{bmatrix}\n", "bmatrix"),
    ("Then\n\\begin{cases} 1 & x > 0 \\\\ 0 & x \\le 0 \\end{cases}\nholds.\n", "cases"),
    ("So \\begin{aligned} y &= 1 \\end{aligned} here.\n", "aligned"),
])
def test_a_math_environment_outside_a_formula_is_told_to_go_into_one(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, body: str, env: str) -> None:
    """A matrix (cases, aligned rows) written on a line of text, as notes for a MathJax page
    write one (MathJax typesets any environment; GitHub and KaTeX only one in a formula),
    was told as a LaTeX document environment, with advice for a theorem, a list or a
    figure. It is told at its line to go between '$$' lines (or '$')."""
    import logging
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        html(tmp_path, body)
    got = [r.getMessage() for r in caplog.records if f"\\begin{{{env}}}" in r.getMessage()]
    line = BODY_START + body[:body.index("\\begin")].count("\n")
    assert len(got) == 1 and f"index.md:{line}: warning: a LaTeX math environment outside " \
        "a formula" in got[0] and "a line '$$' above it" in got[0] and "Theorem" not in \
        got[0], got


def test_a_latex_table_is_told_to_be_a_markdown_table(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A table a paper's conversion (Mathpix, Nougat) leaves in LaTeX, '\\begin{tabular}'
    over '\\hline a & b \\\\' rows, was told to be written in Markdown with advice for a
    theorem, a list or a figure only. The advice names a table's Markdown."""
    import logging
    body = ("Two estimators.\n\n\\begin{tabular}{|l|c|}\n\\hline Estimator & Bias \\\\\n"
            "\\hline mean & 0 \\\\\n\\hline\n\\end{tabular}\n")
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        html(tmp_path, body)
    got = [r.getMessage() for r in caplog.records if "\\begin{tabular}" in r.getMessage()]
    assert len(got) == 1 and f"index.md:{BODY_START + 2}: warning:" in got[0] and \
        "a table for a tabular ('| a | b |' rows under a '|---|---|' line" in got[0], got


@pytest.mark.parametrize("log", ["    $ (cd build && make)\n    $ ls out\n",
                                 "\t$ (cd build && make)\n\t$ ls out\n"],
                         ids=["spaces", "tab"])
def test_a_shell_log_inside_raw_html_is_told_how_to_show_it_as_code(
        tmp_path: Path, log: str) -> None:
    """A shell log indented under '<details><summary>' with no blank line between is raw
    HTML to GitHub and to this Markdown (text run together, no formula, no escape): the
    build stopped with "write '\\$' for a dollar sign", which shows its backslash there and
    no code either. The error now says where the raw HTML begins and how to write the log
    as code in a box; so written, it builds and the box shows the log as code."""
    body = f"Intro.\n\n<details>\n<summary>Log</summary>\n{log}</details>\n"
    e = error(tmp_path, body)
    assert e.line == BODY_START + 4, str(e)
    assert "write '\\$'" not in e.message and "'<details>'" in e.message, e.message
    assert "line " + str(BODY_START + 2) in e.message and "```" in e.message, e.message
    written = ("Intro.\n\n/// details | Log\n    attrs: {id: log}\n\n```\n"
               "$ (cd build && make)\n$ ls out\n```\n\n///\n")
    with captured() as warned:
        tree = Tree(html(tmp_path, written))
    assert not warned, warned
    shown = [e["text"] for e in tree.elements if e["tag"] == "code"]
    assert any("$ (cd build && make)" in t for t in shown), tree.elements


@pytest.mark.parametrize("block", ["<div>\nIt costs $5 a run.\n</div>\n",
                                   "<div>It costs $5 a run.</div>\n"],
                         ids=["lines", "one line"])
def test_a_dollar_sign_inside_raw_html_is_told_to_be_written_as_html(
        tmp_path: Path, block: str) -> None:
    """A price in a block of raw HTML (a '$' no other closes) stopped the build with "write
    '\\$' for a dollar sign": GitHub keeps that backslash in raw HTML. The error now says
    '&#36;', which both show as a dollar sign; so written, the page builds and shows it."""
    e = error(tmp_path, f"Intro.\n\n{block}")
    assert "write '\\$'" not in e.message and "'&#36;'" in e.message, e.message
    assert e.line == BODY_START + block.count("\n", 0, block.index("$")) + 2, str(e)
    with captured() as warned:
        shown = html(tmp_path, "Intro.\n\n" + block.replace("$", "&#36;"))
    assert not warned and "&#36;5" in shown, (warned, shown)


@pytest.mark.parametrize("block, tag", [
    ("<pre>\n$ make\n</pre>\n", "pre"),
    ("<div>\n<pre><code>$ make\n$ ls out\n</code></pre>\n</div>\n", "code"),
    ("<div>Run <kbd>$ make</kbd> first.</div>\n", "kbd"),
], ids=["pre", "pre in a div", "kbd"])
def test_a_dollar_sign_in_code_inside_raw_html_is_not_told_to_be_run_together_text(
        tmp_path: Path, block: str, tag: str) -> None:
    """A '$' in a <pre> (or <code>, <kbd>) of a block of raw HTML was told that this page
    and GitHub show the block's lines 'as HTML text run together (no formula, no code …)'
    and to write a '/// details' box: GitHub shows a <pre>'s lines as typed, as code. The
    error now names the element and says '&#36;' or a fence; '&#36;' so written builds
    without a word and stands in that element."""
    e = error(tmp_path, f"Intro.\n\n{block}")
    assert e.line == BODY_START + block.count("\n", 0, block.index("$")) + 2, str(e)
    assert f"<{tag}>" in e.message and "run together" not in e.message, e.message
    assert "'&#36;'" in e.message and "```" in e.message and "details" not in e.message, \
        e.message
    with captured() as warned:
        tree = Tree(html(tmp_path, "Intro.\n\n" + block.replace("$", "&#36;")))
    assert not warned, warned
    assert any("$ make" in el["text"] for el in tree.elements if el["tag"] == tag), \
        tree.elements
