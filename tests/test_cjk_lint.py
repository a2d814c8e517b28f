"""The Chinese spacing and punctuation check (sqrtdk/web/cjk_lint.py): one `path:line: warning:`
per line autocorrect would change, never about formulas or code."""
from __future__ import annotations

import logging
from pathlib import Path

import pytest

from sqrtdk.web.cjk_lint import excerpt, lint_chinese, switched_off
from sqrtdk.web.lexer import mask

# Chinese text as \u escapes (no Chinese in .py files): "这是一个" and "测试"
ZH = "\u8fd9\u662f\u4e00\u4e2a"
TEST = "\u6d4b\u8bd5"
COMMA = "\uff0c"           # full-width comma


def warnings(tmp_path: Path, text: str, caplog: pytest.LogCaptureFixture) -> list[str]:
    path = tmp_path / "index.md"
    path.write_text(text, encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="sqrtdk.web.cjk_lint"):
        masked = mask(path, text)
        lint_chinese(path, masked.text, masked, switched_off(path, text))
    return [r.getMessage() for r in caplog.records]


def test_a_missing_space_and_a_half_width_comma_are_warned_at_their_lines(tmp_path, caplog):
    text = f"# {ZH}\n\n{ZH}{COMMA}{TEST} numpy {TEST}\n\n{ZH}numpy{TEST},{ZH}\n"
    found = warnings(tmp_path, text, caplog)
    assert len(found) == 1
    assert found[0].startswith(f"{tmp_path / 'index.md'}:5: warning: ")
    assert f" numpy {TEST}{COMMA}" in found[0]      # what it would read as


def test_a_spacing_warning_does_not_tell_the_author_to_ignore_it(tmp_path, caplog):
    """It said "fix the text, or ignore this warning", but a `--strict` build (CI's, the
    GitHub Pages workflow's) stops at every warning: an author who ignored it had a site
    that built on their machine and never published. It says so now."""
    (found,) = warnings(tmp_path, f"{ZH}numpy{TEST}\n", caplog)
    assert "ignore" not in found and "--strict" in found, found



def test_a_spacing_warning_says_how_to_switch_the_rules_off_and_doing_so_quiets_it(
        tmp_path, caplog):
    """It said only "fix the text": where a rule is wrong for a sentence (a name as its maker
    writes it) the switch was in README alone. It names autocorrect's switches and where they
    go, and writing them there quiets the line."""
    (found,) = warnings(tmp_path, f"{ZH}{COMMA}{TEST}\n{ZH}numpy{TEST}\n", caplog)
    assert ":2: warning: " in found
    off = found.index("<!-- autocorrect-disable -->")
    on = found.index("<!-- autocorrect-enable -->")
    assert off < on and "end of the line before" in found[off:on] and "end of its line" in found[on:]
    caplog.clear()
    switched = (f"{ZH}{COMMA}{TEST}<!-- autocorrect-disable -->\n"
                f"{ZH}numpy{TEST}<!-- autocorrect-enable -->\n")
    assert warnings(tmp_path, switched, caplog) == []

def test_formulas_and_code_are_not_checked(tmp_path, caplog):
    text = (f"{ZH} $x,y=1$ {TEST}{COMMA}{ZH}\n\n```\n{ZH}numpy,{TEST}\n```\n\n"
            f"$$\n{ZH}a,b\n$$\n")
    assert warnings(tmp_path, text, caplog) == []


# "监督学习", "无监督学习", "有标签": a table's cells, as a real article's row wrote them
SUPERVISED, UNSUPERVISED, LABELLED = ("\u76d1\u7763\u5b66\u4e60",
                                      "\u65e0\u76d1\u7763\u5b66\u4e60", "\u6709\u6807\u7b7e")


@pytest.mark.parametrize("row", [
    f"|{SUPERVISED}|{UNSUPERVISED}|{LABELLED}|",
    f"|{SUPERVISED} | {UNSUPERVISED} | {LABELLED}|",
    f"{SUPERVISED}|{UNSUPERVISED}|{LABELLED}",
    f"| {SUPERVISED}{{{{ x | pct(0) }}}}|{UNSUPERVISED}|{LABELLED}|",
], ids=["no spaces", "uneven spaces", "no outer pipes", "a filter's pipe in a cell"])
def test_a_table_row_s_pipes_are_not_linted(tmp_path, caplog, row):
    """A table's cells are separate on the page, however its pipes are spaced: autocorrect
    read the row as a sentence and wanted spaces around the pipes between Chinese words."""
    text = f"{ZH}{COMMA}{TEST}\n\n{row}\n|---|---|---|\n{row}\n\n> {row}\n> |---|---|---|\n"
    assert warnings(tmp_path, text, caplog) == []


def test_an_unclosed_template_opener_masks_no_text_after_it(tmp_path, caplog):
    """The template pattern read from every `{{` to the next `}}` anywhere after it (and
    lazily to the end when there was none: quadratic in a long article): an opener written as
    text hid every line up to a later template, here a table, whose row autocorrect then read
    as a sentence. An opener reaches only to the next brace."""
    row = f"|{SUPERVISED}|{UNSUPERVISED}|{LABELLED}|"
    text = f"{ZH} {{{{ open\n\n{row}\n|---|---|---|\n{row}\n\n{ZH} {{{{ x | pct(0) }}}}\n"
    assert warnings(tmp_path, text, caplog) == []


def test_a_spacing_fault_in_a_table_cell_is_warned_at_its_row(tmp_path, caplog):
    """Inside a cell the rules hold: a missing space is warned at its row's line (the
    header's too, right under a paragraph line), quoting the cell, not the pipes."""
    text = (f"{ZH}{COMMA}{TEST}\n\n{ZH}\n|{SUPERVISED}|{TEST}numpy|\n|---|---|\n"
            f"|{LABELLED}|numpy{TEST}|\n")
    found = warnings(tmp_path, text, caplog)
    assert [int(m.split(":")[1]) for m in found] == [4, 6], found
    assert f"'{TEST} numpy'" in found[0] and f"'numpy {TEST}'" in found[1], found
    assert not any("| " in m or " |" in m for m in found), found


@pytest.mark.parametrize("attrs", ["{{#{id}}}", "{{: #{id} }}", "{{ #{id} .wide }}"])
def test_a_heading_s_id_is_not_linted_but_its_words_are(tmp_path, caplog, attrs):
    """A heading's id is an address, not text: spaces autocorrect would put into
    `{#words}` would make it an invalid id. The heading's words are still read."""
    ident = f"{ZH}numpy{TEST}"          # an id mixing Chinese and Latin, as a real note had
    heading = "## " + ZH + " " + attrs.format(id=ident)
    assert warnings(tmp_path, f"{heading}\n\n{ZH}\n", caplog) == []
    setext = f"{ZH} {attrs.format(id=ident)}\n---\n"        # underlined: its words' line
    assert warnings(tmp_path, setext, caplog) == []
    caplog.clear()
    bad = "## " + ident + " " + attrs.format(id=ident)       # the words need spaces
    found = warnings(tmp_path, f"{bad}\n", caplog)
    assert len(found) == 1 and found[0].startswith(f"{tmp_path / 'index.md'}:1: warning: ")
    assert f"{ZH} numpy {TEST}" in found[0]


def test_the_excerpt_shows_the_first_difference_with_some_context():
    old = "a" * 30 + "X" + "b" * 30
    new = "a" * 30 + "Y Z" + "b" * 30
    was, wants = excerpt(old, new)
    assert was == "a" * 12 + "X" + "b" * 12 and wants == "a" * 12 + "Y Z" + "b" * 12


# --- the words around the article: a Chinese strings.toml or figures.toml ------------------

# "图" (figure), "份额" (share), "尺子" (ruler), and the two quote styles
FIG, SHARE, RULER = "\u56fe", "\u4efd\u989d", "\u5c3a\u5b50"
CURLY, CORNER = "\u201c{}\u201d", "\u300c{}\u300d"


def toml_warnings(tmp_path: Path, text: str, caplog: pytest.LogCaptureFixture,
                  quotes: str | None = None) -> list[str]:
    from sqrtdk.textfiles import load_toml
    from sqrtdk.web.cjk_lint import lint_strings
    path = tmp_path / "strings.toml"
    path.write_text(text, encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="sqrtdk.web.cjk_lint"):
        lint_strings(load_toml(path), quotes)
    return [r.getMessage() for r in caplog.records]


def test_a_string_joined_with_english_punctuation_is_warned_at_its_line(tmp_path, caplog):
    """A chart's name the page puts together (its {fields} stand for Chinese words) with
    ", ", ": " or " (…)" between its parts: autocorrect sees no Chinese beside them."""
    text = (f'[ui]\nfine = "{FIG}{COMMA}{SHARE}"\njoined = "{{chart}}: {{parts}}"\n'
            f'listed = "{FIG} {{a}}, {{b}}"\naside = "{{chart}} ({{ruler}})"\n'
            f'han_aside = "{SHARE} ({RULER})"\n')
    found = toml_warnings(tmp_path, text, caplog)
    lines = [int(m.split(":")[1]) for m in found]
    assert lines == [3, 4, 5, 6], found
    assert all("[ui] " in m for m in found)


# "encoder" and "decoder", joined by a hyphen as a compound term
ENCODER, DECODER = "\u7f16\u7801\u5668", "\u89e3\u7801\u5668"


def test_a_hyphen_joining_chinese_words_is_not_told_to_take_spaces(tmp_path, caplog):
    """'encoder-decoder' written in Chinese with a hyphen, as d2l-zh writes it throughout
    (GB/T 15834-2011, 4.13: the short hyphen joins related words, no space around it), was
    told to read better as 'encoder - decoder' (autocorrect's space-dash rule), a spaced
    hyphen no Chinese style writes (a dash is '\u2014\u2014'). That rule alone is off, in
    the article and in the strings; a missing space on the same line is still told."""
    line = f"{ZH}{ENCODER}-{DECODER}{COMMA}{TEST}"
    assert warnings(tmp_path, f"{line}\u3002\n", caplog) == []
    found = warnings(tmp_path, f"{line}numpy\u3002\n", caplog)
    assert len(found) == 1 and f"{TEST} numpy" in found[0] and " - " not in found[0], found
    caplog.clear()
    assert toml_warnings(tmp_path, f'[ui]\na = "{ENCODER}-{DECODER}"\n', caplog) == []


def test_the_text_a_warning_gives_is_one_the_rules_accept(tmp_path, caplog):
    """Full-width Latin letters and digits beside Chinese (an input method's, 'GPU' and
    '123' typed full-width) were told to read better as the half-width letters with no
    space, which the next build told again (autocorrect makes them half-width in one pass
    and spaces them in the next): the text a warning gives is now autocorrect's until it
    changes nothing more, in the article and in the strings."""
    full = "\uff27\uff30\uff35"                   # 'GPU' in full-width letters
    found = warnings(tmp_path, f"{ZH}{full}{TEST}\uff11\uff12\u3002\n", caplog)
    wants = found[0].split(" reads better as ")[-1] if found else ""
    assert len(found) == 1 and f"{ZH} GPU {TEST} 12\u3002" in wants, found
    caplog.clear()
    found = toml_warnings(tmp_path, f'[ui]\na = "{ZH}{full}{TEST}"\n', caplog)
    assert len(found) == 1 and f"{ZH} GPU {TEST}" in found[0].split(" reads better as ")[-1], \
        found


def test_numbers_fields_and_formulas_in_a_string_are_not_punctuation(tmp_path, caplog):
    text = (f'[ui]\na = "d = {{d:,}}{COMMA}{SHARE} 1,024"\nb = "{SHARE} p(1 \u2212 p)"\n'
            f'c = "{{p}}(1 \u2212 {{p}}) = {{s}}"\n[fig]\nd = "{FIG}\\n{{n}}"\n')
    assert toml_warnings(tmp_path, text, caplog) == []


def test_autocorrect_rules_apply_to_every_table_and_list(tmp_path, caplog):
    text = f'[a]\nx = "{ZH}numpy{TEST}"\n[b]\ny = ["ok", "{ZH},{TEST}"]\n'
    found = toml_warnings(tmp_path, text, caplog)
    assert [int(m.split(":")[1]) for m in found] == [2, 4], found


def test_a_string_quoting_with_other_marks_than_the_article_is_warned(tmp_path, caplog):
    text = (f'[ui]\nsame = "{CURLY.format(SHARE)}"\nother = "{CORNER.format(SHARE)}"\n')
    found = toml_warnings(tmp_path, text, caplog, quotes="\u201c\u201d")
    assert [int(m.split(":")[1]) for m in found] == [3], found
    caplog.clear()
    assert toml_warnings(tmp_path, text, caplog, quotes=None) == []    # the article quotes none


def test_an_article_quoting_two_ways_is_warned_at_the_rarer_style(tmp_path, caplog):
    from sqrtdk.web.cjk_lint import quote_style
    path = tmp_path / "index.md"
    text = (f"{CORNER.format(ZH)}\n\n{CURLY.format(TEST)}{CORNER.format(ZH)}\n"
            f"{CORNER.format(TEST)}\n")
    with caplog.at_level(logging.WARNING, logger="sqrtdk.web.cjk_lint"):
        assert quote_style(path, text) == "\u300c\u300d"
    found = [r.getMessage() for r in caplog.records]
    assert len(found) == 1 and found[0].startswith(f"{path}:3: warning: "), found


@pytest.mark.parametrize("where", ["plain", "link"])
def test_a_note_reference_inside_a_link_s_text_is_read_as_in_plain_text(tmp_path, caplog,
                                                                        where: str) -> None:
    """The page moves the reference after the link (md_notes.NestedLinks); it is no word of
    the sentence in either place, so no space is asked for before it."""
    said = f"{ZH}[^n]" if where == "plain" else f"[{ZH}[^n]](https://example.org/p)"
    text = f"{TEST}{COMMA}{said}{COMMA}{TEST}\u3002\n\n[^n]: {ZH}\u3002\n"
    assert warnings(tmp_path, text, caplog) == []


def test_a_missing_space_inside_a_link_with_a_note_is_still_warned(tmp_path, caplog):
    text = f"{TEST}{COMMA}[{ZH}numpy[^n]](https://example.org/p)\u3002\n\n[^n]: {ZH}\u3002\n"
    found = warnings(tmp_path, text, caplog)
    assert len(found) == 1 and f"{ZH} numpy" in found[0], found


# "not", "link", "later", "note": the words of a sentence with a bracket GitHub reads as text
NOT, LINK, LATER, NOTE = "\u4e0d\u662f", "\u94fe\u63a5", "\u540e\u6587", "\u9644\u6ce8"


@pytest.mark.parametrize("bracket", [
    f"[{NOT}`{LINK}](/foo`)", f"[{NOT}`{LINK}][ref]`", f"![{NOT}`](a.svg)`",
    f"`[`{NOT}[{LINK}", "[0, 1)",
], ids=["code hides a link's end", "code hides a reference's end", "code hides an image's end",
        "code hides a bracket's pair", "an interval"])
def test_a_bracket_github_reads_as_text_is_no_link_to_the_lint(tmp_path, caplog,
                                                               bracket: str) -> None:
    """CommonMark: a code span takes precedence over a link, so `[not a `link](/foo`)` is
    no link (GitHub's cmark-gfm reads '[', code, ')'). With the code masked, autocorrect read
    its '[' as a link's and warned: a space before that "link", and before every real link
    after it, in later paragraphs too. A '[' GitHub reads as text is text to the lint now
    (and its warnings quote it as written); a real link is still read as one."""
    text = (f"{ZH}{bracket}{COMMA}{TEST}\u3002\n\n{LATER}[{NOTE}](#x)\u3002\n\n"
            f"{ZH}{bracket}{COMMA}{TEST}numpy\u3002\n\n[ref]: /r\n")
    found = warnings(tmp_path, text, caplog)
    assert len(found) == 1 and found[0].startswith(f"{tmp_path / 'index.md'}:5: "), found
    assert f"{TEST} numpy" in found[0], found      # (no placeholder in it: conftest checks)


@pytest.mark.parametrize("bracket", [
    f"[{TEST}]", f"[**{TEST}**]", "[1]", "\\[1\\]", f"[{NOT} [{LINK}](#x)]", f"[{NOT}`]`]",
], ids=["words", "bold words", "a citation", "escaped", "around a link", "code holds a ']'"])
def test_brackets_github_reads_as_text_get_no_space_on_one_side(tmp_path, caplog,
                                                                  bracket: str) -> None:
    """A pair of brackets that GitHub shows as text, right against Chinese (a citation,
    `\u6587\u732e[1]\u6307\u51fa`, or d2l-zh's `[**words**]`): autocorrect, reading
    Markdown, asks for no space around it, and the lint told its ']' alone, '] ' plus the
    next word (its '[' was hidden as text, its ']' left for autocorrect to read as a lone
    bracket): a space on one side only. A text bracket's ']' is hidden too; a missing space
    elsewhere on the line is still told."""
    assert warnings(tmp_path, f"{ZH}{bracket}{OF}{TEST}\u3002\n", caplog) == []
    found = warnings(tmp_path, f"{ZH}{bracket}{OF}{TEST}numpy\u3002\n", caplog)
    assert len(found) == 1 and f"{TEST} numpy" in found[0] and "] " not in found[0], found


FIGURE = "\u56fe\uff1a"         # "figure" and a full-width colon
OF = "\u7684"                   # a particle


@pytest.mark.parametrize("near, shown", [
    ("`it`", "`it`"), ("``a`b``", "``a`b``"), ("$x^2$", "$…$"), ("\\(y\\)", "$…$"),
    ("`" + "long" * 10 + "`", "`" + "long" * 10 + "`"),
], ids=["code", "code with a backtick", "formula", "LaTeX formula", "code longer than the "
                                                                     "excerpt's context"])
def test_a_warning_quotes_code_and_formulas_as_written(tmp_path, caplog, near: str,
                                                       shown: str) -> None:
    """The lint reads the text with code and formulas masked by placeholders; its warning
    showed them ('{FIGURE}\\U000f0020 16\\U000f0021{OF}attention'): code is shown as written,
    a formula as $…$, and the excerpt is cut after that, never inside a placeholder."""
    found = warnings(tmp_path, f"{ZH}\n\n{FIGURE}{near}{OF}attention{TEST}\n", caplog)
    assert len(found) == 1 and found[0].startswith(f"{tmp_path / 'index.md'}:3: "), found
    was = found[0].split(" reads better as ")[0].split(": ", 3)[-1]
    assert f"{OF} attention" in found[0] and f"{shown[-6:]}{OF}attention" in was, found
    assert was.startswith(f"'{FIGURE}{shown}") or len(shown) > 12, found


@pytest.mark.parametrize("most", ["default", "all"])
def test_a_file_s_many_spacing_warnings_are_summarised_and_the_others_stay_visible(
        tmp_path, most: str) -> None:
    """A pasted Chinese article gave 100 spacing warnings that buried 7 structural ones: the
    printer shows a file's first MOST_OF_A_KIND, then (after the build) one line saying how
    many more and how to see them all; every other warning, and another file's spacing
    warnings, are printed; `--all-warnings` (most=None) prints every one."""
    import io

    from sqrtdk.log import LOGGER, MOST_OF_A_KIND, SPACING, WarningPrinter, warn
    stream = io.StringIO()
    printer = WarningPrinter(stream, MOST_OF_A_KIND if most == "default" else None)
    extra = 5
    pasted, other = tmp_path / "index.md", tmp_path / "strings.toml"
    text = "\n\n".join(f"{ZH}{n}numpy{TEST}" for n in range(MOST_OF_A_KIND + extra)) + "\n"
    pasted.write_text(text, encoding="utf-8")
    LOGGER.addHandler(printer)
    try:
        masked = mask(pasted, text)
        assert lint_chinese(pasted, masked.text, masked) == MOST_OF_A_KIND + extra
        warn(LOGGER, pasted, 3, "a structural problem; fix it")
        for n in range(2):
            warn(LOGGER, other, n + 1, f"[ui] key{n}: {SPACING}: 'a' reads better as 'b'")
        printer.summary()
    finally:
        LOGGER.removeHandler(printer)
    out = stream.getvalue().splitlines()
    spacing = [line for line in out if line.startswith(f"{pasted}:") and SPACING in line]
    assert f"{pasted}:3: warning: a structural problem; fix it" in out, out
    assert len([line for line in out if line.startswith(f"{other}:")]) == 2, out
    if most == "all":
        assert len(spacing) == MOST_OF_A_KIND + extra and "--all-warnings" not in out[-1], out
        return
    assert len(spacing) == MOST_OF_A_KIND + 1, out      # and the summary line, last
    assert out[-1] == (f"{pasted}: warning: {extra} more '{SPACING}' warning(s) not shown (the "
                       f"first {MOST_OF_A_KIND} are above); to see them all, build with "
                       "--all-warnings"), out[-1]


def test_strict_lists_each_distinct_warning_once_and_counts_what_it_lists(tmp_path) -> None:
    """--strict said '340 warning(s) above' when 120 were printed: the printer holds back a
    file's spacing warnings after MOST_OF_A_KIND and shows a repeated warning once, while the
    build counted every record. Now --strict prints none as it comes: it lists each distinct
    warning once, as an error at its line, sorted, the first MOST_ERRORS of them and one line
    for the others, and the count it gives is of those it lists."""
    import io

    from sqrtdk.errors import MOST_ERRORS, report
    from sqrtdk.log import LOGGER, MOST_OF_A_KIND, SPACING, WarningPrinter, unprinted, warn
    from sqrtdk.pipeline import _Counter, strict_failure
    stream, counter = io.StringIO(), _Counter()
    printer = WarningPrinter(stream, MOST_OF_A_KIND)
    extra, path = MOST_ERRORS, tmp_path / "index.md"
    LOGGER.addHandler(printer)
    LOGGER.addHandler(counter)
    try:
        with unprinted():
            for n in range(MOST_OF_A_KIND + extra):
                warn(LOGGER, path, n + 1, f"{SPACING}: 'a{n}' reads better as 'b'")
            for _ in range(3):
                warn(LOGGER, path, 99, "KaTeX: the same formula's warning")
    finally:
        LOGGER.removeHandler(printer)
        LOGGER.removeHandler(counter)
    assert stream.getvalue() == ""
    total = MOST_OF_A_KIND + extra + 1
    said = report(strict_failure(list(counter.seen), tmp_path, [], tmp_path / "site"))
    assert [line.split(": warning: ")[0] for line in said[:MOST_ERRORS]] == \
        [f"{path.as_posix()}:{n}" for n in range(1, MOST_ERRORS + 1)], said
    assert said[MOST_ERRORS].startswith(f"{total - MOST_ERRORS} more mistake(s) not shown") \
        and "without --strict" in said[MOST_ERRORS], said
    assert len(said) == MOST_ERRORS + 2 and f"--strict makes the {total} warning(s)" in said[-1]


@pytest.mark.parametrize("where, prefix", [("starts", ""), ("ends", ""), ("starts", "- "),
                                           ("starts", "> ")], ids=["starts", "ends", "item",
                                                                   "quote"])
def test_a_full_width_indent_is_named_not_quoted_as_no_change(tmp_path, caplog, where, prefix):
    """A paragraph pasted from Word or WPS starts with '\u3000\u3000' (full-width spaces, its
    indent). autocorrect reports the line without its leading spaces, so the warning quoted
    two equal texts ('… reads better as …' the same words); it now names the indent, also
    in a list item or a quote."""
    indent = "\u3000\u3000"
    line = prefix + (f"{indent}{ZH}{COMMA}{TEST}" if where == "starts" else
                     f"{ZH}{COMMA}{TEST}{indent}")
    found = warnings(tmp_path, f"{ZH}{COMMA}{TEST}\n\n{line}\n", caplog)
    assert len(found) == 1 and "index.md:3: warning:" in found[0], found
    assert f"text {where} with full-width space" in found[0] and "U+3000" in found[0], found
    was, _, wants = found[0].partition(" reads better as ")
    assert not wants or was.rsplit("'", 2)[-2] != wants.split("'")[1], found


def test_a_string_quoting_otherwise_than_the_article_names_the_article_s_quote(
        tmp_path, caplog) -> None:
    """An article pasted from a blog that quotes with corner brackets (one licence line)
    made every curly-quoted interface string warn "but the article quotes with 「」", at
    strings.toml's lines, which the author never touched, with no word of where the
    article's quote is: the warning names the article's line of its first such mark."""
    from sqrtdk.errors import display_path
    from sqrtdk.inputs import lint_words
    from sqrtdk.textfiles import load_toml
    article = tmp_path / "index.md"
    article.write_text(f"---\ntitle: x\n---\n\n{ZH}\n\n{CORNER.format(TEST)}\n",
                       encoding="utf-8")
    strings = tmp_path / "strings.toml"
    strings.write_text(f'[ui]\nother = "{CURLY.format(SHARE)}"\n', encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="sqrtdk.web.cjk_lint"):
        lint_words(article, load_toml(strings))
    found = [r.getMessage() for r in caplog.records]
    assert len(found) == 1 and f"(first at {display_path(article)}:7)" in found[0], found


@pytest.mark.parametrize(("off", "on"), [
    ("<!-- autocorrect-disable -->", "<!-- autocorrect-enable -->"),
    ("<!-- autocorrect: false -->", "<!-- autocorrect: true -->"),
    ("{# autocorrect-disable: a product's name as its maker writes it #}",
     "{# autocorrect-enable #}")])
def test_autocorrect_s_own_comments_turn_its_rules_off_and_on(tmp_path, caplog, off, on):
    """autocorrect's switches (its documentation's "Disable with inline comment", as MDN's
    Chinese pages write them) were dropped with the other comments before the lint read the
    text: a sentence the author had switched off was still warned, and --strict stopped.
    The lines from the switch off to the switch on are quiet; the rest is still read."""
    bad = f"{ZH}numpy{TEST}"
    text = f"{bad}\n\n{off}\n\n{bad}\n\n{bad}\n\n{on}\n\n{bad}\n"
    found = warnings(tmp_path, text, caplog)
    assert [m.split(": warning")[0].rsplit(":", 1)[1] for m in found] == ["1", "11"], found


def test_a_switch_off_never_switched_on_holds_to_the_end_and_code_holds_no_switch(
        tmp_path, caplog):
    bad = f"{ZH}numpy{TEST}"
    shown = f"```\n<!-- autocorrect-disable -->\n```\n\n{bad}\n\n<!-- autocorrect: false -->\n\n{bad}\n"
    found = warnings(tmp_path, shown, caplog)
    assert [m.split(": warning")[0].rsplit(":", 1)[1] for m in found] == ["5"], found


def test_a_switch_at_a_line_s_end_turns_off_the_lines_after_it_not_its_own(tmp_path, caplog):
    """A Chinese paragraph is one line, and a comment on a line of its own inside it splits it
    on GitHub (comment_blocks warns, and says to move the comment to the end of the line
    above). Written so, the switch turned off the whole line above as well: the rest of the
    paragraph went unchecked, unsaid. A line is off now when its text lies between the
    switches: a switch off at a line's end starts at the next line, a switch on at a line's
    start ends at the line before."""
    bad = f"{ZH}numpy{TEST}"
    text = (f"{bad}<!-- autocorrect-disable -->\n{bad}<!-- autocorrect-enable -->\n{bad}\n\n"
            f"{bad}\n<!-- autocorrect: false -->{bad}\n<!-- autocorrect: true -->{bad}\n")
    found = warnings(tmp_path, text, caplog)
    assert [m.split(": warning")[0].rsplit(":", 1)[1] for m in found] == ["1", "3", "5", "7"], \
        found


NOTE = "\u6ce8"           # a note label's word ("note"), as Chinese notes name them


def test_a_note_s_label_is_not_linted_but_the_words_around_it_are(tmp_path, caplog):
    """A note's label is an address (`[^\u6ce81]` is the note's id), not text: autocorrect read
    it as words and told '^\u6ce81' to be '^\u6ce8 1', a label with a space, which is an
    error. The sentence around the reference is still read."""
    text = (f"{ZH}{TEST}[^{NOTE}1]{COMMA}{ZH}\n\n[^{NOTE}1]: {ZH}{TEST}\n")
    assert warnings(tmp_path, text, caplog) == []
    caplog.clear()
    found = warnings(tmp_path, f"{ZH}numpy[^{NOTE}1]{COMMA}{ZH}\n\n[^{NOTE}1]: {ZH}\n", caplog)
    assert len(found) == 1 and found[0].startswith(f"{tmp_path / 'index.md'}:1: warning: ")
    assert f"'{ZH} numpy" in found[0] and "label0x" not in found[0], found


REF = "\u53c2\u8003"      # "reference", a link reference's label as a Chinese post names it


def test_a_link_reference_s_label_is_not_linted_but_the_link_s_words_are(tmp_path, caplog):
    """A full reference link's label (`[words][参考1]`) and its definition's are never
    shown: autocorrect told '参考1' to be '参考 1' at both, where changing one breaks the
    link. The link's words are still read."""
    text = f"{ZH}[{TEST}][{REF}1]{COMMA}{ZH}\n\n[{REF}1]: https://example.org/\n"
    assert warnings(tmp_path, text, caplog) == []
    caplog.clear()
    found = warnings(tmp_path, f"{ZH}[{TEST}numpy][{REF}1]\n\n[{REF}1]: https://example.org/\n",
                     caplog)
    assert len(found) == 1 and f"'{TEST} numpy" in found[0], found


@pytest.mark.parametrize("use", ["[{label}]", "[{label}][]"], ids=["shortcut", "collapsed"])
def test_a_shortcut_reference_s_label_is_not_told_to_change_on_one_side(tmp_path, caplog, use):
    """A shortcut or collapsed reference's words are its label (`[参考1]` with its
    `[参考1]: …`): it was told '参考1' reads better as '参考 1'
    at the use alone (the definition's label is read as a stand-in), and done, the link
    named no definition and was published as text, silently. Such a label is read as a
    stand-in at both; a shortcut no definition defines is text, still read."""
    label = f"{REF}1"
    text = f"{ZH}{use.format(label=label)}{COMMA}{ZH}\n\n[{label}]: https://example.org/\n"
    assert warnings(tmp_path, text, caplog) == []
    caplog.clear()
    found = warnings(tmp_path, f"{ZH}{use.format(label=label)}{COMMA}[numpy{REF}]\n\n"
                     f"[{label}]: https://example.org/\n", caplog)
    assert len(found) == 1 and f"[numpy {REF}]" in found[0] and "label" not in found[0], found


def test_a_box_s_id_is_not_linted_but_its_title_is(tmp_path, caplog):
    """A box's `attrs: {id: 推导1}` is an address: autocorrect told the id to be '推导 1'
    (an id a link names, `(#推导1)`, would then miss it). Its title is still read."""
    box = f"/// details | {ZH}\n    attrs: {{id: {TEST}1}}\n\n{ZH}\n\n///\n"
    assert warnings(tmp_path, box, caplog) == []
    caplog.clear()
    found = warnings(tmp_path, box.replace(f"| {ZH}", f"| {ZH}1"), caplog)
    assert len(found) == 1 and found[0].startswith(f"{tmp_path / 'index.md'}:1: warning: ")


def test_an_html_attribute_s_address_is_not_linted_but_the_element_s_words_are(tmp_path,
                                                                                caplog):
    """Inline HTML in a Chinese sentence: autocorrect read an attribute's value as words,
    `<a href="#图1">` told to be '#图 1' (an address: the link would miss its anchor) and
    `<img src="图1.png">` a path with spaces. The element's words are still read."""
    text = f'{ZH}<a href="#{TEST}1">{ZH}</a>{COMMA}<span id="{TEST}1">{ZH}</span>\n'
    assert warnings(tmp_path, text, caplog) == []
    caplog.clear()
    found = warnings(tmp_path, f'{ZH}<a href="#{TEST}1">{ZH}numpy</a>\n', caplog)
    assert len(found) == 1 and f"{ZH} numpy" in found[0] and "label" not in found[0], found


def test_strict_s_last_line_says_the_site_was_not_written_not_that_nothing_was(
        tmp_path: Path) -> None:
    """--strict's last line said 'nothing was written', but a build that ran the experiments
    or drew the figures before its checks had written figures/results.json and the SVGs
    (author12): it names the site folder, which is left as it was."""
    from sqrtdk.errors import BuildError, display_path, report
    from sqrtdk.pipeline import strict_failure
    out = tmp_path / "site"
    said = report(strict_failure([], tmp_path, [BuildError(tmp_path / "a.md", 1, "x")], out))
    assert "nothing was written" not in said[-1], said
    assert f"the site was not written: {display_path(out)} is as it was" in said[-1], said


@pytest.mark.cpu_timeout(60)    # linear: well under a second; before, in the square of the count
def test_many_labels_on_a_line_read_in_linear_time() -> None:
    """Each label's stand-in was looked up among all those made before it (the labels' and
    the HTML attributes' lookups written twice): a line of 100,000 notes' labels, each its
    own, took time in the square of their number (1 s at 10,000)."""
    from sqrtdk.web.cjk_lint import _ascii_note_labels
    line = "".join(f"[^{NOTE}{k}]" for k in range(100_000))
    text, stand_ins = _ascii_note_labels(line)
    assert text.isascii() and len(stand_ins) == 100_000
