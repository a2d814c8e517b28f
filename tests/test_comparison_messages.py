"""The messages of the comparison with GitHub's reading (cmark-gfm) and of the math scanner,
as a new author met them: each names the author's own line, says what the page shows, and
never sends the author to a text that is wrong too (a suggested `write …` is converted
here and must give what it promises, without a message). The passages are small articles
of our own."""
from __future__ import annotations

import re
from contextlib import nullcontext
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from helpers import BODY_START, Tree, assert_linear_growth, page

from sqrtdk.errors import BuildError
from sqrtdk.log import captured

RESULTS: dict[str, Any] = {"claims": {}, "meta": {"bounds": {}}}
FILLER = "Some words.\n\n" * 6


def convert(tmp_path: Path, body: str, lang: str = "en") -> tuple[list[str], str]:
    """The warnings (file:line: warning: …) and the page's HTML."""
    with captured() as messages:
        html = page(tmp_path, body, RESULTS, lang=lang).body
    return list(messages), html


def line_of(body: str, words: str) -> int:
    """The file line of the body's line holding `words`."""
    return BODY_START + next(n for n, x in enumerate(body.split("\n")) if words in x)


def at(messages: list[str], line: int) -> list[str]:
    return [m for m in messages if f":{line}: warning:" in m]


def links(html: str) -> list[tuple[str, str]]:
    return [(el["attrs"].get("href", ""), el["text"]) for el in Tree(html).elements
            if el["tag"] == "a" and not el["attrs"].get("href", "").startswith("#")]


def suggestions(message: str) -> list[str]:
    return re.findall(r"write (\[[^\]]*\]\(.*?\))(?:$|[;,:]? )", message) + \
        re.findall(r"(<https?://\S+>)$", message)


def test_links_are_paired_by_place_not_by_count(tmp_path: Path) -> None:
    """A link both read alike and one each reads with another address: the warning is at
    the second's line only, none at a line that merely holds the same word."""
    body = ("A [spaced](<https://example.com/a b>) link.\n\n" + FILLER +
            "Words about paren, no link.\n\n" + FILLER +
            "See [paren](https://example.com/p (Paren title)) here.\n")
    messages, html = convert(tmp_path, body)
    assert not at(messages, line_of(body, "Words about paren")), messages
    here = at(messages, line_of(body, "See [paren]"))
    assert len(here) == 1 and len(messages) == 1, messages
    # the page has a link, to the whole text in parentheses (its spaces sent as %20,
    # md_autolink): the message says so
    assert ("https://example.com/p%20(Paren%20title)", "paren") in links(html)
    assert "as text" not in here[0] and "https://example.com/p (Paren title)" in here[0], here


def test_an_escaped_character_in_an_address_is_the_same_link(tmp_path: Path) -> None:
    body = ("Words with query.\n\n" + FILLER +
            "A [query](https://example.com/?q=\\$a) and [u](https://example.com/a\\_b).\n")
    messages, html = convert(tmp_path, body)
    assert messages == []
    assert ("https://example.com/?q=$a", "query") in links(html)


@pytest.mark.parametrize("passage", [
    "See [paren](https://example.com/p (Paren title)) here.\n",
    "A link <irc://example.org/a> here.\n",
    "A link <ssh://example.org/\\$a> here.\n",
    "A link <https://example.org/a b> here.\n",
], ids=["title in parentheses", "other scheme", "dollar in address", "space in address"])
def test_a_suggested_link_is_accepted_and_read_alike(tmp_path: Path, passage: str) -> None:
    """Every `write [text](address)` of a link message, put in the passage's place, converts
    without an error or a warning about links."""
    body = FILLER + passage
    messages, _ = convert(tmp_path, body)
    offered = [s for m in messages for s in suggestions(m)]
    assert offered, messages
    for n, text in enumerate(offered):
        folder = tmp_path / str(n)
        folder.mkdir()
        try:
            again, _ = convert(folder, FILLER + f"Now {text} here.\n")
        except BuildError as e:
            pytest.fail(f"the suggestion {text!r} stops the build: {e}")
        assert not [m for m in again if "link" in m], (text, again)


@pytest.mark.parametrize("passage", [
    '<div class="box">Words with $y^2$ and *stars*.</div>\n',
    '<div class="box">Many more words here, then $y^2$ and *stars*.</div>\n',
    '<div class="box">$y^2$ first.</div>\n',
], ids=["formula at the cut", "formula after the cut", "formula first"])
def test_a_formula_in_raw_html_is_quoted_as_written(tmp_path: Path, passage: str) -> None:
    """The raw HTML is quoted as the author wrote it, never with the number that stood for
    a formula while math was out of the way."""
    body = FILLER + passage
    with pytest.raises(BuildError) as e:
        convert(tmp_path, body)
    assert e.value.line == line_of(body, "<div")
    quoted = re.search(r"\('(.*)…'\)", str(e.value))
    assert quoted and passage.startswith(quoted.group(1)), str(e.value)


def test_a_heading_with_a_formula_is_quoted_as_written(tmp_path: Path) -> None:
    body = "## Start {#start}\n\n#### Heading about the scores of one query $q^2$ and more {#q}\n"
    messages, _ = convert(tmp_path, body)
    assert any("jumps from 2 to 4" in m for m in messages), messages


@pytest.mark.parametrize("heading, level", [
    ("#### Their `SD` and $q^2$ {#their-sd}", 4),
    ("#### Their `SD` and $q^2$ {: #their-sd }", 4),
    ("# Their `SD` and $q^2$ {#their-sd}", 1),
], ids=["level jump", "attribute list", "level 1"])
def test_a_heading_is_quoted_as_the_reader_sees_it(tmp_path: Path, heading: str,
                                                     level: int) -> None:
    """A message quoting a heading quotes its words (code in backticks, a formula as
    written), not the {#id} written after them, which the reader never sees."""
    body = "## Start {#start}\n\nSome words.\n\n" + heading + "\n"
    if level == 1:
        with pytest.raises(BuildError) as e:
            convert(tmp_path, body)
        messages = [e.value.message]
    else:
        messages, _ = convert(tmp_path, body)
    assert len(messages) == 1 and "'Their `SD` and $q^2$'" in messages[0], messages


@pytest.mark.parametrize("code", [
    "    echo $HOME and $PATH\n    for <b> and *stars*\n",
    "    echo $HOME\n\n    cost: $5 and $ 6\n",
    "\techo $HOME and {{ not_a_quote }}\n",
], ids=["dollars and a tag", "two parts", "a tab"])
def test_an_indented_code_block_is_code_as_markdown_reads_it(tmp_path: Path, code: str) -> None:
    """Indented code (after a paragraph and a blank line) is code: its '$' is a dollar sign,
    its '<b>' text, without an error or a warning; the page shows it as typed."""
    body = "Run this:\n\n" + code + "\nAfter.\n"
    messages, html = convert(tmp_path, body)
    assert messages == []
    shown = " ".join(el["text"] for el in Tree(html).elements if el["tag"] == "code")
    for line in code.split("\n"):
        assert line.strip() in shown, (line, shown)


@pytest.mark.parametrize("where", [
    "1. An item:\n\n{code}\n2. The next.\n",
    "- an item\n\n    its second paragraph\n\n{code}",
    "- an item\n    - a nested one\n\n{code+4}",
    "Text[^n].\n\n[^n]: A note.\n\n{code}",
], ids=["list item", "after an item's paragraph", "nested item", "note"])
def test_indented_code_inside_a_list_item_or_note_is_code(tmp_path: Path, where: str) -> None:
    """Code indented by 4 columns more than a list item's or note's content is code, as
    Python-Markdown reads it: its '<tok>' is shown once escaped (a real chapter's
    '<prompt_1>' in a numbered item's code was shown as '&lt;prompt_1>', the lexer having
    taken it for a token of the text), its '{% … %}' as typed (it was a template error)."""
    code = "        input = <prompt_1><completion_1> {% if x %}\n        output = [MASK]<eos>\n"
    deeper = "".join(f"    {line}\n" for line in code.splitlines())
    messages, html = convert(tmp_path, where.replace("{code+4}", deeper).replace("{code}", code))
    assert messages == []
    shown = " ".join(el["text"] for el in Tree(html).elements if el["tag"] == "code")
    for line in code.strip("\n").split("\n"):
        assert line.strip() in shown, (line, shown)


@pytest.mark.parametrize("where", [
    "- an item\n\n    its $x$ continues\n",
    "Text[^n].\n\n[^n]: A note.\n\n    its $x$ continues\n",
], ids=["list item", "note"])
def test_indented_lines_that_continue_a_block_keep_their_math(tmp_path: Path,
                                                              where: str) -> None:
    messages, html = convert(tmp_path, where)
    assert messages == [] and 'class="math"' in html, messages


def test_a_formula_in_a_raw_pre_block_is_said_to_be_in_raw_html(tmp_path: Path) -> None:
    """A `<pre>` written as HTML is raw HTML, not an indented code block; the hint for a
    dollar sign there ('&#36;') gives one."""
    body = FILLER + "<pre>\npre *text* and $z$\n</pre>\n"
    with pytest.raises(BuildError) as e:
        convert(tmp_path, body)
    assert e.value.line == line_of(body, "$z$")
    assert "raw HTML" in str(e.value) and "indented code" not in str(e.value)
    assert "&#36;" in str(e.value)
    messages, html = convert(tmp_path, body.replace("$z$", "&#36;z&#36;"))
    assert messages == [] and "&#36;z&#36;" in html


@pytest.mark.parametrize("rows", [
    ["| 1 | 2 | 3 |", "| `a|b` | c | 22 |"],
    ["| `a|b` | c | 22 |", "| 1 | 2 | 3 |"],
    ["| `a|b` | c | 22 |"],
], ids=["last row", "first of two", "only row"])
def test_a_pipe_in_code_in_a_table_row_warns_once_at_that_row(tmp_path: Path,
                                                               rows: list[str]) -> None:
    body = ("Intro.\n\n| x | y | z |\n|---|---|---|\n" + "\n".join(rows) +
            "\n\nNext paragraph.\n")
    messages, _ = convert(tmp_path, body)
    assert len(messages) == 1, messages
    assert at(messages, line_of(body, "`a|b`")) and "keep '|' out of `code`" in messages[0]
    # what the two readings do, in words that do not contradict each other
    assert not re.search(r"as (a [a-z ]+), GitHub \(CommonMark\) as \1", messages[0])


# passage (after "Intro.\n\n"), the words of the line the warning names, words its hint
# must hold, words it must not (the hint that does not fit the cause)
CAUSES: dict[str, tuple[str, str, str, str]] = {
    "')' numbered list": ("1) first\n2) second\n\nNext.\n", "1) first", "write '1.'",
                          "blank line"),
    "')' list under a paragraph": ("Steps:\n1) first\n2) second\n", "1) first", "write '1.'",
                                   "4 spaces"),
    # a Chinese input method's full-width digits: a list here, text on GitHub (was told to
    # indent a nested list by 4 spaces, which changes nothing)
    "full-width digits": ("\uff11. first\n\uff12. second\n\nNext.\n", "\uff11. first",
                          "write '1.', in ASCII digits", "4 spaces"),
    "full-width digits, ten": ("\uff11\uff10. tenth\n\uff11\uff11. eleventh\n\nNext.\n",
                               "\uff11\uff10. tenth", "write '10.'", "4 spaces"),
    "HTML details": ("<details><summary>Why</summary>\n\nSome *words* here.\n\n</details>\n",
                     "Some *words*", "/// details", "4 spaces"),
    "bullet changes": ("* a\n* b\n\n+ c\n", "+ c", "one bullet character", "4 spaces"),
    "numbered right under a bullet": ("- bullet\n1. ordered\n", "- bullet",
                                      "blank line between a bulleted and a numbered list",
                                      "4 spaces"),
    "nested list at 2 spaces": ("- outer\n  - inner two\n    - inner three\n- outer two\n",
                                "  - inner two", "by 4 spaces", "blank line"),
    "nested list at 3 spaces under a number": ("1. first\n   - detail a\n   - detail b\n"
                                               "2. second\n", "   - detail a", "by 4 spaces",
                                               "blank line"),
    "only the words differ": ("Math snake_$x$_case and $a$_b_.\n", "snake_", "'\\_'",
                              "blank lines"),
    "closing fence indented under a paragraph": ("The code:\n```python\nx = 1\n  ```\n",
                                                 "  ```", "write it as '```'",
                                                 "blank line"),
    "both fences indented off the margin": ("  ```python\nx = 1\n  ```\n", "  ```python",
                                            "at the margin of their block",
                                            "closing fence as the opening"),
    "closing fence longer than the opening one": ("```python\nx = 1\n``````\n\n## Next {#next}\n"
                                                  "\nMore.\n", "``````",
                                                  "as long as the opening one", "indent"),
    "too few delimiter cells": ("| a | b | c |\n|---|---|\n| 1 | 2 | 3 |\n", "|---|---|",
                                "'|---|---|---|'", "needs a line"),
}


@pytest.mark.parametrize("name", CAUSES)
def test_a_hint_names_the_cause_of_the_difference(tmp_path: Path, name: str) -> None:
    passage, where, says, not_says = CAUSES[name]
    body = "Intro.\n\n" + passage
    messages, _ = convert(tmp_path, body)
    here = at(messages, line_of(body, where))
    assert here and says in here[0] and not_says not in here[0], messages


# a code block whose two fences are indented differently: (passage after "Intro.\n\n", the
# words of the fence to change, that fence as the warning says to write it)
FENCES_APART: dict[str, tuple[str, str, str]] = {
    "closing indented more": ("```python\nx = 1\n\ny = 2\n  ```\n\nNext.\n", "  ```", "```"),
    "closing indented more in a list item": ("- item\n\n    ```python\n    x = 1\n      ```\n"
                                             "\nNext.\n", "      ```", "    ```"),
    "closing indented more in a quote": ("> ```python\n> x = 1\n>   ```\n\nNext.\n",
                                         ">   ```", "> ```"),
    "opening indented more": ("  ```python\nx = 1\n```\n\nNext.\n", "  ```python",
                              "```python"),
}


@pytest.mark.parametrize("name", FENCES_APART)
def test_a_fence_indented_apart_from_its_pair_is_told_at_its_own_line(tmp_path: Path,
                                                                       name: str) -> None:
    passage, where, want = FENCES_APART[name]
    body = "Intro.\n\n" + passage
    messages, _ = convert(tmp_path, body)
    assert len(messages) == 1 and at(messages, line_of(body, where)), messages
    assert f"write it as '{want}'" in messages[0], messages
    # the line written as the warning says: a code block, read alike, without a message
    fixed = body.replace(where, want, 1)
    messages, html = convert(tmp_path, fixed)
    assert not messages and "<pre" in html, (messages, html)


# two fences indented apart, the one indented less off its block's margin too: (passage
# after "Intro.\n\n", the fence told, it and the other fence as the warning says to write them)
FENCES_OFF_MARGIN: dict[str, tuple[str, str, str, str, str]] = {
    "opening 3, closing 2": ("   ```python\nx = 1\n  ```\n\nNext.\n", "   ```python",
                             "```python", "  ```", "```"),
    "opening 1, closing 2": (" ```python\nx = 1\n  ```\n\nNext.\n", "  ```", "```",
                             " ```python", "```python"),
    "in a quote": (">   ```python\n> x = 1\n>  ```\n\nNext.\n", ">   ```python",
                   "> ```python", ">  ```", "> ```"),
}


@pytest.mark.parametrize("name", FENCES_OFF_MARGIN)
def test_fences_indented_apart_and_off_the_margin_are_told_both_fixes(tmp_path: Path,
                                                                      name: str) -> None:
    """Fences indented 3 and 2 spaces were told to write the one indented more at the
    other's indent; so written (2 and 2) this Markdown still reads no code block, and the
    next build told the same lines again. Where the other fence is off its block's margin
    too, the warning says how to write both; so written, a code block, read alike."""
    passage, where, want, other, other_want = FENCES_OFF_MARGIN[name]
    body = "Intro.\n\n" + passage
    messages, _ = convert(tmp_path, body)
    assert len(messages) == 1 and at(messages, line_of(body, where)), messages
    assert f"write it as '{want}'" in messages[0] and f"as '{other_want}'" in messages[0], \
        messages
    lines = body.split("\n")
    fixed = "\n".join(want if x == where else other_want if x == other else x for x in lines)
    messages, html = convert(tmp_path, fixed)
    assert not messages and "<pre" in html, (messages, html)


# a list right under a paragraph line, written wrong in a second way too: (passage, words of
# the second fix, the passage with both fixes made)
TWO_FIXES: dict[str, tuple[str, str, str]] = {
    "nested at 2 spaces": ("The parts:\n- input\n  - words\n  - places\n- coder\n", "by 4 spaces",
                           "The parts:\n\n- input\n    - words\n    - places\n- coder\n"),
    "')' numbers": ("Steps:\n1) scale\n2) softmax\n", "write '1.'",
                    "Steps:\n\n1. scale\n2. softmax\n"),
    "numbered under a bullet": ("Kinds:\n- a bullet\n1. a number\n", "bulleted and a numbered",
                                "Kinds:\n\n- a bullet\n\n1. a number\n"),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", TWO_FIXES)
def test_a_list_under_a_paragraph_written_wrong_twice_is_told_both_fixes_at_once(
        tmp_path: Path, name: str, lang: str) -> None:
    """The new author's trial (a list under a paragraph line, its nested items at 2 spaces)
    was told to indent by 4; done, the same line's next warning said 'put a blank line
    before a list', the fix that was needed first. One message names both; both made, the
    passage warns nothing."""
    passage, second, fixed = TWO_FIXES[name]
    body = "Intro.\n\n" + passage
    messages, _ = convert(tmp_path, body, lang)
    here = at(messages, line_of(body, passage.split("\n")[1]))      # the list's first line
    assert len(here) == 1 and "blank line before a" in here[0] and second in here[0], messages
    messages, html = convert(tmp_path, "Intro.\n\n" + fixed, lang)
    assert messages == [] and ("<ul>" in html or "<ol>" in html), messages


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_bulleted_list_under_a_numbered_item_with_a_nested_list_is_told_both_fixes(
        tmp_path: Path, lang: str) -> None:
    """A chat answer's '3. Title' with '- point' lines right under it, one holding a nested
    list at 2 spaces: GitHub reads a numbered list then a bulleted one, this Markdown one
    item whose text holds the '- ' lines. Only the nested list was told (indent by 4); done,
    the bullets were still the item's text. One message names both fixes, and where the
    blank line goes; both made, the passage warns nothing and shows both lists."""
    passage = "3. Scaling\n- Why:\n  - scores grow\n  - softmax saturates\n- Then: divide.\n"
    messages, _ = convert(tmp_path, "Intro.\n\n" + passage, lang)
    assert len(messages) == 1, messages
    assert "blank line between a bulleted and a numbered list (above '- Why:')" in messages[0] \
        and "by 4 spaces" in messages[0], messages
    fixed = "3. Scaling\n\n- Why:\n    - scores grow\n    - softmax saturates\n- Then: divide.\n"
    messages, html = convert(tmp_path, "Intro.\n\n" + fixed, lang)
    assert messages == [] and "<ol" in html and html.count("<ul>") == 2, messages


def test_the_line_under_a_header_with_too_few_cells_fixed_makes_a_table(tmp_path: Path) -> None:
    body = "Intro.\n\n| a | b | c |\n|---|---|\n| 1 | 2 | 3 |\n"
    messages, _ = convert(tmp_path, body)
    fix = re.search(r"'(\|[-|]+)'$", messages[0])
    assert fix, messages
    messages, html = convert(tmp_path, body.replace("|---|---|", fix.group(1)))
    assert messages == [] and "<table" in html


def test_two_paragraphs_read_with_other_words_warn_each_at_its_line_naming_the_words(
        tmp_path: Path) -> None:
    """Two paragraphs in a row whose words differ were one stretch of the comparison, with
    one warning at the first's line; each gets its own, saying which words differ."""
    body = ("Intro.\n\nMath snake_$x$_case and $a$_b_.\n\nMath other_$y$_case and $c$_d_.\n\n"
            "Last.\n")
    messages, _ = convert(tmp_path, body)
    first, second = line_of(body, "snake_"), line_of(body, "other_")
    assert len(at(messages, first)) == 1 and len(at(messages, second)) == 1, messages
    assert all("GitHub shows '_' where the page does not" in m for m in messages), messages


@pytest.mark.parametrize("code", ["`<b>`", "`a < b && c`", "`\\<eos>`", "`&ouml;`"])
def test_code_holding_html_characters_is_read_alike(tmp_path: Path, code: str) -> None:
    """A code span's `<` and `&` are the same characters in both readings (this Markdown keeps
    them escaped in its tree, which the comparison took for other words)."""
    messages, html = convert(tmp_path, f"Intro.\n\nThe code {code} here.\n")
    assert messages == [], messages
    assert [e["text"] for e in Tree(html).elements if e["tag"] == "code"] == [code.strip("`")]


def test_links_in_html_details_already_warned_are_not_warned_each(tmp_path: Path) -> None:
    """Markdown links inside a raw HTML `<details>` block with blank lines (GitHub reads the
    Markdown inside, this Markdown keeps it as typed): one warning for the passage, none
    per link, whose advice would be to write what is already written."""
    body = ("Intro.\n\n<details>\n<summary>Sources</summary>\n\n"
            "| Name | Where |\n|---|---|\n"
            "| [First one](https://example.com/a%20b) | x |\n"
            "| [Second one](https://example.com/c) | y |\n\n"
            "- [Third one](https://example.com/d)\n\n</details>\n\n" + FILLER)
    messages, _ = convert(tmp_path, body)
    assert messages and any("/// details" in m for m in messages), messages
    assert not [m for m in messages if "a link" in m], messages
    details = next(m for m in messages if "/// details" in m)
    assert "attrs: {id: sources}" in details, details


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_box_closing_line_right_under_a_table_is_no_difference(tmp_path: Path,
                                                                  lang: str) -> None:
    """GitHub reads a box's `///` right under a table's last row as one more row; this
    Markdown closes the box there, as the author meant: nothing to warn about."""
    body = ("Intro.\n\n/// details | Numbers\n    attrs: {id: nums}\n\n"
            "| a | b |\n|---|---|\n| 1 | 2 |\n///\n\nAfter.\n")
    messages, html = convert(tmp_path, body, lang=lang)
    assert messages == [], messages
    assert "///" not in html


def test_a_suggested_address_keeps_its_spaces_as_percent_20(tmp_path: Path) -> None:
    """A link GitHub makes and this Markdown does not (a bare address is linked by both; a
    `<scheme:…>` only by GitHub), its address holding %20: the suggestion writes %20, not
    a literal space."""
    body = FILLER + "A link <irc://example.org/a%20b> here.\n"
    messages, _ = convert(tmp_path, body)
    offered = [s for m in messages for s in suggestions(m)]
    assert offered and all("%20" in s and " " not in s.split("](")[1] for s in offered), \
        messages


@pytest.mark.parametrize("text", ["`details`", "*the* `qr` code", "**bold** `x`"])
def test_a_link_github_makes_is_suggested_with_its_text_as_written(tmp_path: Path,
                                                                   text: str) -> None:
    """A reference link whose text is code, `[`details`][]` under a line '[`details`]:
    /shortcodes/details/' (gohugoio/hugoDocs' content-management/shortcodes.md, five such
    links), is a link on GitHub and text here; the warning said to write
    '[details](/shortcodes/details/)', which drops the code the author wrote. The
    suggestion keeps the text's code and emphasis, and followed, both parsers read it as
    the link GitHub showed, with that code or emphasis."""
    body = f"The embedded [{text}][] shortcode.\n\n[{text}]: /shortcodes/details/\n"
    messages, _ = convert(tmp_path, body)
    offered = [x for m in at(messages, BODY_START) for x in suggestions(m)]
    assert offered == [f"[{text}](/shortcodes/details/)"], messages
    fixed, html = convert(tmp_path, f"The embedded {offered[0]} shortcode.\n")
    assert fixed == [], fixed
    assert links(html) == [("/shortcodes/details/", re.sub(r"[`*]", "", text))], html
    assert ("<em>" in html) == ("*the*" in text) and ("<strong>" in html) == ("**" in text)
    assert "<code>" in html


def test_a_link_only_github_makes_is_told_at_the_line_of_its_own_brackets(tmp_path: Path) -> None:
    """'See the [tablesort documentation]' over a line '[tablesort] for more information.'
    (squidfunk/mkdocs-material's docs/reference/data-tables.md): this Markdown reads the two
    bracket pairs, a line break between them, as one reference link, GitHub the second
    alone as a link 'tablesort'. Its warning was at the paragraph's first line, which holds
    another '[tablesort]' both parsers link, where the advice to write [tablesort](…) changes
    nothing; it is now at the line of the brackets GitHub linked."""
    body = ("Note that [tablesort] provides alternative comparison implementations like\n"
            "numbers, filesizes, dates and month names. See the [tablesort documentation]\n"
            "[tablesort] for more information.\n\n"
            "  [tablesort]: http://tristen.ca/tablesort/demo/\n")
    messages, _ = convert(tmp_path, body)
    github = [m for m in messages if "GitHub makes 'tablesort' a link" in m]
    assert len(github) == 1 and f":{BODY_START + 2}: warning:" in github[0], messages


@pytest.mark.cpu_timeout(20)    # about 2 s of CPU (the growth check)
def test_links_whose_text_is_not_written_as_it_reads_are_placed_in_linear_time(
        tmp_path: Path) -> None:
    """GitHub's links were placed at the k-th '[text]' counted from their block's first
    line to the file's end: a link whose text is written otherwise ('[_w_ x](…)' reads
    'w x') was looked for in every line below it, in the square of the article's length
    (4,000 links over 150,000 lines: 136 s of CPU). Looked for in its block alone.

    250 and 1,000 links over 9,375 and 37,500 lines: about 0.32 s and 1.23 s of CPU (3.8
    times; the limit is 8, the square 16); with each '[text]' counted line by line to the
    file's end again, 1.07 s and 13.9 s (13 times)."""
    def article(n: int) -> Any:
        body = "".join(("See " if i % 10 == 0 else "") + f"[_w{i}_ x](https://example.com/{i})"
                       + ("\n\n" if i % 10 == 9 else "\n") for i in range(n)) + \
            "\n" * (n * 75 // 2) + "Words.\n"

        def work() -> None:
            messages, html = convert(tmp_path, body)
            assert not messages, messages[:3]
            assert len(links(html)) == n
        return work
    assert_linear_growth(article, 250)


@pytest.mark.cpu_timeout(20)    # about 3 s of CPU (the growth check)
def test_a_paragraph_of_many_links_places_them_in_linear_time(tmp_path: Path) -> None:
    """Each of GitHub's links was placed by counting its '[text]' in every line from its
    block's first line: a paragraph of thousands of links read its own lines once a link,
    and a link whose text is written otherwise ('[**w**](…)' reads 'w') read every line of
    the paragraph (8,000 such links in a paragraph of 88,000 lines: over two minutes). The
    '[text]' of the text are now indexed once.

    250 links over 2,750 lines and 2,000 over 22,000: about 0.23 s and 1.93 s of CPU (8.5
    times; the limit is 16, the square 64); with each '[text]' counted line by line from
    the block's first line again, 0.36 s and 9.7 s (27 times)."""
    def paragraph(n: int) -> Any:
        body = "See\n" + "".join(f"[**w{i}**](https://example.com/{i})\n" for i in range(n)) \
            + "words\n" * (10 * n)

        def work() -> None:
            messages, html = convert(tmp_path, body)
            assert not messages, messages[:3]
            assert len(links(html)) == n
        return work
    assert_linear_growth(paragraph, 250, factor=8)


def test_a_link_both_make_is_not_paired_with_one_of_the_same_text_in_raw_html(
        tmp_path: Path) -> None:
    """google-research/tuning_playbook's README links 'Shallue et al. 2018' inside a
    `<details>` block written in HTML (Markdown there after a blank line on GitHub, text
    here: told at the block) and again in a list below it, which both parsers link. The two
    readings' links were paired by their texts' order, so the page's link below was taken for
    GitHub's in the block, and the one below was told 'GitHub makes … a link, this Markdown
    does not' at a line where both make it. Links of the same text on the same line are
    paired first: nothing is told at the list's line."""
    body = ("Intro.\n\n<details><summary><em>[Click to expand]</em></summary>\n\n<br>\n\n"
            "-   Steps can improve performance (see\n"
            "    [Shallue et al. 2018](https://arxiv.org/abs/1811.03600)).\n\n</details>\n\n"
            "## Next {#next}\n\n-   Training for more steps (see\n"
            "    [Shallue et al. 2018](https://arxiv.org/abs/1811.03600)).\n-   Other.\n")
    messages, _ = convert(tmp_path, body)
    below = line_of(body, "Training for more steps")
    assert not at(messages, below) and not at(messages, below + 1), messages
    assert at(messages, line_of(body, "Steps can improve")), messages


@pytest.mark.parametrize("line", ["See [`x`][] and [`x`](https://b.example/).",
                                  "See [`x`](https://b.example/) and [`x`][]."],
                         ids=["github's alone first", "both's first"])
def test_links_of_one_text_on_one_line_are_paired_by_their_address_first(
        tmp_path: Path, line: str) -> None:
    """Two links of one text on one line, one GitHub alone makes ('[`x`][]': a code span in
    a reference's label is no label here) and one both make: ours was paired with GitHub's
    first of that text on the line, so with '[`x`][]' first the page was told 'links x to
    b, GitHub to a; write [`x`](a)' (which, followed, loses the link to b) and 'GitHub makes
    x a link (to b)'. One warning now, for the link GitHub alone makes, and its advice
    followed builds quiet with both links."""
    body = f"Intro.\n\n{line}\n\n[`x`]: https://a.example/\n"
    messages, _ = convert(tmp_path, body)
    assert len(messages) == 1 and "GitHub makes 'x' a link (to https://a.example/)" in \
        messages[0], messages
    told = suggestions(messages[0])
    assert told == ["[`x`](https://a.example/)"], messages
    messages, html = convert(tmp_path, body.replace("[`x`][]", told[0]))
    assert messages == [] and sorted(href for href, _ in links(html)) == \
        ["https://a.example/", "https://b.example/"], (messages, links(html))


# passages that each parser reads differently where the old hint sent the author to the
# wrong fix ('indent by 4 spaces' for lines indented by 4, "start every line with '>'" for
# quotes that do): (passage, words of the line the warning is at, words the warning says,
# the passage with that fix made, which both parsers read alike)
WRONG_HINT: dict[str, tuple[str, str, str, str]] = {
    "item under an item's indented paragraph": (
        "1. first\n\n    More about the first.\n2. second\n3. third\n", "2. second",
        "blank line before", "1. first\n\n    More about the first.\n\n2. second\n3. third\n"),
    "item under a tab-indented paragraph": (
        "1. first\n\n\tMore about the first.\n2. second\n\t1. its part\n", "2. second",
        "blank line before",
        "1. first\n\n\tMore about the first.\n\n2. second\n\t1. its part\n"),
    "bulleted item under an item's indented paragraph": (
        "- first\n\n    More about the first.\n- second\n", "- second", "blank line before",
        "- first\n\n    More about the first.\n\n- second\n"),
    "nested numbers from 5 under an item's line": (
        "1. Parent\n    5. child\n    6. child two\n2. next\n", "    5. child", "'1.'",
        "1. Parent\n    1. child\n    2. child two\n2. next\n"),
    "list under a quote's line": (
        "> A quote\nits lazy line:\n- item\n- item two\n", "- item", "blank line before",
        "> A quote\nits lazy line:\n\n- item\n- item two\n"),
    "quotes parted by a blank line": (
        "> one\n\n> two\n\nAfter.\n", "> two", "'>' on the blank line", "> one\n>\n> two\n\nAfter.\n"),
    # an item right under a nested list that follows a blank line (4 spaces, as the other
    # hint asks): this Markdown takes it into the nested list, as text of its last item or
    # as one more of its items; the hint was to indent by 4 spaces, which it was
    "item under a nested list's wrapped item": (
        "1. Draw:\n\n    - then score\n      each pair\n2. Compare\n", "2. Compare",
        "the nested list above it",
        "1. Draw:\n\n    - then score\n      each pair\n\n2. Compare\n"),
    "bulleted item under a nested list": (
        "- first\n\n    - its part\n- second\n", "- second", "the nested list above it",
        "- first\n\n    - its part\n\n- second\n"),
    "numbered items under a nested numbered list": (
        "1. first\n\n    1. its part\n2. second\n3. third\n", "2. second",
        "the nested list above it", "1. first\n\n    1. its part\n\n2. second\n3. third\n"),
    "nested item under a list nested once more": (
        "- a\n    - b\n\n        - c\n    - d\n", "    - d", "the nested list above it",
        "- a\n    - b\n\n        - c\n\n    - d\n"),
    "item under a table in an item": (
        "1. Scores:\n\n    | d | SD |\n    |---|---|\n    | 4 | 2 |\n2. Then\n", "2. Then",
        "the table above it",
        "1. Scores:\n\n    | d | SD |\n    |---|---|\n    | 4 | 2 |\n\n2. Then\n"),
    "item under code in an item": (
        "1. Run:\n\n    ```\n    x = 1\n    ```\n2. Then\n", "2. Then", "blank line before",
        "1. Run:\n\n    ```\n    x = 1\n    ```\n\n2. Then\n"),
}


@pytest.mark.parametrize("name", WRONG_HINT)
def test_a_hint_names_a_fix_that_makes_both_readings_agree(tmp_path: Path, name: str) -> None:
    """A real article's lists and quotes (a question list whose 'Hint' paragraphs swallowed
    the next items into text) were warned with advice that did not apply: each warning is at
    the line to change, and the fix it names, made, warns nothing."""
    passage, where, says, fixed = WRONG_HINT[name]
    body = "Intro.\n\n" + passage
    messages, _ = convert(tmp_path, body)
    here = at(messages, line_of(body, where))
    assert len(messages) == 1 and here and says in here[0], messages
    assert "indented by 1" not in here[0] and "by 4 spaces per level" not in here[0], here
    messages, _ = convert(tmp_path, "Intro.\n\n" + fixed)
    assert messages == [], messages


def test_each_item_read_as_text_warns_at_its_own_line(tmp_path: Path) -> None:
    """Two items of one list, each right under an indented paragraph of the item above:
    one stretch of the comparison, but each item's line gets its own warning."""
    body = ("Intro.\n\n1. first\n\n    More about the first.\n2. second\n3. third\n\n"
            "    More about the third.\n4. fourth\n5. fifth\n")
    messages, _ = convert(tmp_path, body)
    assert len(at(messages, line_of(body, "2. second"))) == 1, messages
    assert len(at(messages, line_of(body, "4. fourth"))) == 1, messages
    assert len(messages) == 2, messages


# raw HTML inside a list item or a quote, as GitHub reads it (an HTML block) and as this
# Markdown does (text of a paragraph): (passage, the passage written in Markdown)
HTML_INSIDE: dict[str, tuple[str, str]] = {
    "HTML table in a list item": (
        "1. Given the scores:\n\n    <table>\n    <tr><td>4</td></tr>\n    </table>\n\n"
        "2. next\n",
        "1. Given the scores:\n\n    | d |\n    |---|\n    | 4 |\n\n2. next\n"),
    "HTML table in a quote": (
        "> Given the scores:\n>\n> <table>\n> <tr><td>4</td></tr>\n> </table>\n\nNext.\n",
        "> Given the scores:\n>\n> | d |\n> |---|\n> | 4 |\n\nNext.\n"),
}


@pytest.mark.parametrize("name", HTML_INSIDE)
def test_raw_html_inside_a_list_item_or_quote_is_told_to_be_written_in_markdown(
        tmp_path: Path, name: str) -> None:
    """An HTML table indented into a list item (a real article's confusion matrix) was told
    to 'separate blocks by blank lines, indent by 4 spaces', which it was: the hint says
    that this Markdown reads HTML blocks only at the margin, and its fix warns nothing.
    The warning is at the `<table>` line (it was at the line of the block after it)."""
    passage, fixed = HTML_INSIDE[name]
    body = "Intro.\n\n" + passage
    messages, _ = convert(tmp_path, body)
    assert len(messages) == 1 and "write it in Markdown" in messages[0], messages
    assert at(messages, line_of(body, "<table>")), messages
    assert "by 4 spaces" not in messages[0], messages
    messages, html = convert(tmp_path, "Intro.\n\n" + fixed)
    assert messages == [] and "<table" in html, messages


# a block of raw HTML the two readings differ on (GitHub reads an HTML block, this Markdown
# a paragraph): (passage, words of the block's first line)
HTML_DIFFERS: dict[str, tuple[str, str]] = {
    "inline tag alone on its line, at the margin": (
        "<span>\nhello\n</span>\n\nNext.\n", "<span>"),
    "on a list item's own line": ("- one\n- <div>\n  hello\n  </div>\n\nNext.\n", "- <div>"),
    "last in a quote": ("> Quote.\n>\n> <table>\n> <tr><td>4</td></tr>\n> </table>\n",
                        "> <table>"),
    "under a paragraph of its item": (
        "1. first\n\n    Its text.\n\n    <div>\n    hello\n    </div>\n\n2. next\n",
        "    <div>"),
}


@pytest.mark.parametrize("name", HTML_DIFFERS)
def test_a_raw_html_block_read_differently_is_warned_at_its_own_line(
        tmp_path: Path, name: str) -> None:
    """cmark-gfm writes no position for a raw HTML block: the warning about one was at the
    line of the block after it (or, with none after it, of the block before it)."""
    passage, where = HTML_DIFFERS[name]
    body = "Intro.\n\n" + passage
    messages, _ = convert(tmp_path, body)
    assert messages and at(messages, line_of(body, where)) == messages[:1], \
        (line_of(body, where), messages)


# raw HTML the two readings differ on, whose hint was 'separate blocks by blank lines …' or
# 'indent a nested list …': (passage, words of the line warned, words the hint says, the
# passage with its fix made)
HTML_HINTS: dict[str, tuple[str, str, str, str]] = {
    "inline tag alone on its line": (
        "<span>\nhello\n</span>\n\nNext.\n", "<span>", "on the line of the text",
        "<span>hello</span>\n\nNext.\n"),
    "Markdown after a blank line inside a div": (
        "<div>\n\n*hello*\n\n</div>\n\nNext.\n", "*hello*", "write its inside in HTML",
        "<div>\n<em>hello</em>\n</div>\n\nNext.\n"),
    "a list inside a div": (
        "<div>\n\n- one\n- two\n\n</div>\n", "- one", "write the Markdown outside",
        "<div>\n<ul><li>one</li><li>two</li></ul>\n</div>\n"),
}


@pytest.mark.parametrize("name", HTML_HINTS)
def test_a_raw_html_difference_is_told_its_cause(tmp_path: Path, name: str) -> None:
    passage, where, says, fixed = HTML_HINTS[name]
    body = "Intro.\n\n" + passage
    messages, _ = convert(tmp_path, body)
    here = at(messages, line_of(body, where))
    assert len(messages) == 1 and here and says in here[0], messages
    assert "4 spaces" not in here[0] and "separate blocks" not in here[0], here
    messages, _ = convert(tmp_path, "Intro.\n\n" + fixed)
    assert messages == [], messages


NOTEBOOK = ("https://colab.research.google.com/github/huggingface/notebooks/blob/master/"
            "course/en/chapter3/section2_pt.ipynb")


def _quotes_whole_or_both_ends(message: str, address: str) -> bool:
    """Every quote of `address` in `message` is whole, or its start (the host) and its end
    (the file) around '…' (letters the address runs into may follow)."""
    for m in re.finditer(re.escape(address[:20]) + r"[^\s'<>\]]*", message):
        quoted = re.sub(r"[^\x00-\x7f]+$", "", m.group(0).rstrip("),;:")).replace("\\", "")
        start, _, end = quoted.partition("\u2026")
        if not (quoted == address or
                (end and address.startswith(start) and address.endswith(end))):
            return False
    return True


URN = "urn:isbn:0451450523-with-a-tail-long-enough-to-be-cut-in-a-message-" + "x" * 20


@pytest.mark.parametrize("lang, body, address", [
    ("zh", f"\u6253\u5f00 {NOTEBOOK}\u4e0b\u4e00\u6b65\u3002\n", NOTEBOOK),
    ("en", f"Some words.\n\nA link <{NOTEBOOK.replace('https', 'irc')}> here.\n",
     NOTEBOOK.replace("https", "irc")),
    ("en", f"Some words.\n\nA book <{URN}> here.\n", URN),
], ids=["bare address into CJK letters", "link GitHub makes", "CommonMark's autolink"])
def test_a_long_address_is_quoted_so_the_author_recognises_it(tmp_path: Path, lang: str,
                                                              body: str, address: str) -> None:
    """A long address in a warning was cut in the middle ('(to https://…noteboo)'), its
    advice too: it is quoted with its start and its end, and an address to write is whole
    (following the advice links the whole address, without a warning)."""
    messages, _ = convert(tmp_path, body, lang=lang)
    about = [m for m in messages if address[:20] in m]
    assert about and all(_quotes_whole_or_both_ends(m, address) for m in about), messages
    offered = [s for m in about for s in suggestions(m) + re.findall(r"<https?://[^>\s]+>", m)]
    assert offered and all(address in s for s in offered), messages
    fixed = body.replace(address, offered[0]) if offered[0].startswith("<") else \
        body.replace(f"<{address}>", offered[0])
    messages, html = convert(tmp_path, fixed, lang=lang)
    assert not [m for m in messages if address[:20] in m], messages
    assert address in [href for href, _ in links(html)], html


IRC = "irc://irc.libera.chat/huggingface-with-a-channel-name-long-enough-to-be-cut"


@pytest.mark.parametrize("body, address", [
    (f"Some words.\n\nJoin us on the chat\nat <{IRC}> today.\n", IRC),
    ("Some words.\n\nJoin <irc://irc.libera.chat/hf> today.\n", "irc://irc.libera.chat/hf"),
    ("Some words.\n\nThe sources,\n<git://example.org/a/b_c_d.git>, are here.\n",
     "git://example.org/a/b_c_d.git"),
], ids=["long irc, on the paragraph's second line", "short irc", "git"])
def test_an_autolink_of_another_scheme_gets_one_message_whose_advice_works(
        tmp_path: Path, body: str, address: str) -> None:
    """`<irc://…>`, a link on GitHub (CommonMark's autolink), was kept whole by the lexer as
    an autolink of Markdown's, which magiclink (in its place here) does not make: published as
    a tag the browser hid, with a second warning at the paragraph's line ('GitHub shows
    'ircircliberachathugg'', write it with backslashes). One message, at the address's line,
    whose advice followed links the address without a message; until then the page shows it
    as typed."""
    messages, html = convert(tmp_path, body)
    assert len(messages) == 1 and address[:20] in messages[0], messages
    assert f":{line_of(body, address)}: warning:" in messages[0], messages
    assert "backslash" not in messages[0], messages
    assert any(f"<{address}>" in el["text"] for el in Tree(html).elements
               if el["tag"] == "p"), html
    offered = suggestions(messages[0])
    assert offered, messages
    fixed = body.replace(f"<{address}>", offered[0])
    messages, html = convert(tmp_path, fixed)
    assert not messages, messages
    assert address in [href for href, _ in links(html)], html


@pytest.mark.parametrize("address", [
    "zotero://select/library/items/AB12CD34", "obsidian://open?vault=ML&file=Attention",
    "file:///home/ann/notes.pdf",
], ids=["zotero", "obsidian", "file"])
def test_an_autolink_the_site_refuses_is_told_to_be_code(tmp_path: Path, address: str) -> None:
    """`<zotero://…>` (a Zotero or Obsidian note's link), a link on GitHub and text here, was
    told to be written [address](address): a link the site's check then refuses (it opens the
    author's own library, no reader's). One message, saying why, whose advice is the address
    as code; followed, it leaves no message."""
    body = f"Some words.\n\nSee <{address}> for the note.\n"
    messages, _ = convert(tmp_path, body)
    assert len(messages) == 1 and "leads nowhere for a reader" in messages[0], messages
    assert "](" not in messages[0] and f"`{address}`" in messages[0], messages
    messages, _ = convert(tmp_path, body.replace(f"<{address}>", f"`{address}`"))
    assert not messages, messages


@pytest.mark.parametrize("body", [
    "Some words.\n\nThe queue holds Id::<h2::proto::streams::Next> here.\n",
    "Some words.\n\nSee <std::vec::Vec> for the type.\n",
    "Some words.\n\nA <std::vec::Vec<u8>> of bytes.\n",
], ids=["a Rust path in a log", "a type", "a type with its parameter"])
def test_a_path_with_two_colons_in_angle_brackets_is_told_as_text(tmp_path: Path,
                                                                   body: str) -> None:
    """A Rust path in angle brackets ('Id::<h2::proto::streams::Next>', a trace log pasted in
    an issue) is CommonMark's autolink, 'h2:' taken for a scheme; the warning advised
    '[h2::proto::streams::Next](h2::proto::streams::Next)', a link to nowhere. A name with
    '::' after its first word is no address: the advice is '\\<', which both parsers show as
    typed, and followed it leaves no message."""
    messages, _ = convert(tmp_path, body)
    assert len(messages) == 1 and "'\\<'" in messages[0], messages
    assert "](" not in messages[0], messages
    fixed = body.replace("<h2", "\\<h2").replace("<std", "\\<std")
    messages, html = convert(tmp_path, fixed)
    assert not messages, messages
    assert any("<h2::proto" in el["text"] or "<std::vec" in el["text"]
               for el in Tree(html).elements if el["tag"] == "p"), html


@pytest.mark.parametrize("before", ["", "Some text:\n\n"], ids=["at the top", "after text"])
@pytest.mark.parametrize("blank", ["", "\n"], ids=["tight", "a blank line before the deep list"])
@pytest.mark.parametrize("deep", [["1. deep numbered", "2. deep two"], ["- deep bullet"]],
                         ids=["numbered", "bulleted"])
def test_a_deep_list_the_page_nests_is_not_blamed_for_a_shallow_one_above(
        tmp_path: Path, before: str, blank: str, deep: list[str]) -> None:
    """A nested list indented by 2 (GitHub nests it, this Markdown does not), and under its
    last item a list indented by 4, which both nest: one warning, at the 2-space list's
    line. difflib matched a deep item of one reading to a shallow item of the other, and a
    second warning at the deep list said 'the page shows a paragraph … (this one is indented
    by 2)' where the page shows that list nested and its line is indented by 4."""
    body = (f"{FILLER}{before}- item one\n- item two\n  - nested a\n  - nested b\n{blank}"
            + "".join(f"    {x}\n" for x in deep) + f"\n{FILLER}")
    messages, html = convert(tmp_path, body)
    shallow = line_of(body, "  - nested a")
    assert len(messages) == 1 and at(messages, shallow), messages
    assert "indented by 2" in messages[0], messages
    # the page: the deep list inside 'nested b's item
    inner = "ol" if deep[0][0].isdigit() else "ul"
    assert re.search(rf"nested b\s*(</p>\s*)?<{inner}>", html), html


@pytest.mark.parametrize("note", ["[^a]: The note.\n",
                                  "[^a]: The note.\n\n    Its second paragraph.\n"],
                         ids=["one paragraph", "two paragraphs"])
def test_a_list_after_the_notes_is_told_it_joins_the_list_above(tmp_path: Path,
                                                               note: str) -> None:
    """A list written after the notes' definitions, right after the article's last list:
    GitHub ends that list at the definition and starts a new one, this Markdown takes the
    definition out and goes on with the list above. The warning told to indent a nested list
    by 4 spaces, which was no fix; it now says what happens and what to write, and the text
    it asks for reads alike (no warning)."""
    body = f"First[^a].\n\n- one\n- two\n\n{note}\n- three\n- four\n"
    messages, html = convert(tmp_path, body)
    here = at(messages, line_of(body, "- three"))
    assert len(here) == 1 and len(messages) == 1, messages
    assert "'[^a]: The note.'" in here[0] and "goes on with the list above" in here[0] and \
        "4 spaces" not in here[0], here
    fixed = f"First[^a].\n\n- one\n- two\n\nBetween them.\n\n- three\n- four\n\n{note}"
    messages, html = convert(tmp_path, fixed)
    assert messages == [], messages
    assert html.count("<ul>") == 2, html


def test_every_nested_list_indented_by_3_of_a_list_is_named_at_once(tmp_path: Path) -> None:
    """A chat assistant's answer nests a bullet under each numbered item by 3 spaces (the
    item's text column, where GitHub nests it). The comparison warned at the first such
    list only: fixed, the next build warned at the second, and so on, one build per item."""
    body = ("Intro.\n\n1. **First:** one.\n   - detail a\n2. **Second:** two.\n   - detail b\n"
            "3. **Third:** three.\n   - detail c\n\nAfter.\n")
    messages, _ = convert(tmp_path, body)
    for nested in ("   - detail a", "   - detail b", "   - detail c"):
        told = at(messages, line_of(body, nested))
        assert len(told) == 1 and "by 4 spaces" in told[0], messages
    assert len(messages) == 3, messages


@pytest.mark.parametrize(("cell", "shown"), [("`x \\| y`", "x | y"), ("`a|b`", "a|b")],
                         ids=["escaped pipe", "bare pipe"])
def test_a_pipe_in_code_in_a_table_is_told_a_form_both_read_alike(
        tmp_path: Path, cell: str, shown: str) -> None:
    """A '\\|' in code in a table cell was told to drop the backslash, and a '|' in code to
    keep it out of code: the first advice, followed, gave the second warning, and neither
    named a way to show code that holds a pipe. Each names code written as HTML with the
    pipe as '&#124;', which, written in the cell, warns nothing and shows the code."""
    body = f"Intro.\n\n| code | what |\n|---|---|\n| {cell} | two |\n"
    messages, _ = convert(tmp_path, body)
    assert messages and all("&#124;" in m for m in messages), messages
    assert not any("needs no backslash" in m for m in messages), messages
    suggested = re.findall(r"<code>[^<]*</code>", messages[0])
    assert suggested, messages
    messages, html = convert(tmp_path, body.replace(cell, suggested[0]))
    assert messages == [], messages
    code = re.search(r"<td><code>([^<]*)</code></td>", html)
    assert code and unescape(code.group(1)) == shown, html


@pytest.mark.parametrize(("summary", "title", "box_id"), [
    ("Why <code>sqrt</code>?", "Why `sqrt`?", "why-sqrt"),
    ("Why is the <b>variance</b> 1", "Why is the variance 1", "why-is-the-variance-1"),
], ids=["code in the summary", "bold in the summary"])
def test_a_details_box_in_html_is_told_the_box_lines_of_its_own_summary(
        tmp_path: Path, summary: str, title: str, box_id: str) -> None:
    """GitHub's collapsible section, `<details>` with a `<summary>` and Markdown inside, was
    told to write a box whose first lines were '/// details | Its summary' and an id
    'some-id': the author had to work out both. The warning gives the lines for this box,
    its summary's words (code as `code`) and an id made of them; written, they warn
    nothing, and the page's box shows that summary."""
    body = (f"Intro.\n\n<details>\n<summary>{summary}</summary>\n\nBecause **it** is.\n\n"
            "</details>\n\nAfter.\n")
    messages, _ = convert(tmp_path, body)
    assert len(messages) == 1, messages
    assert f"'/// details | {title}'" in messages[0], messages
    assert f"'    attrs: {{id: {box_id}}}'" in messages[0], messages
    fixed = (f"Intro.\n\n/// details | {title}\n    attrs: {{id: {box_id}}}\n\n"
             "Because **it** is.\n\n///\n\nAfter.\n")
    messages, html = convert(tmp_path, fixed)
    assert messages == [], messages
    assert "<details>" in html and f'id="{box_id}"' in html and "<strong>it</strong>" in html, html


@pytest.mark.parametrize("items", ["- [x] Drawn\n\n- [ ] Scored\n",
                                   "1. [x] Drawn\n\n2. [ ] Scored\n"])
def test_a_loose_task_list_is_told_as_a_task_list_only(tmp_path: Path, items: str) -> None:
    """cmark-gfm writes a loose task item's checkbox before its paragraph: the item was
    also told to be 'a paragraph ... with other blocks inside it', to be indented by 4
    spaces, advice that changes nothing; only the task list's own warning is right."""
    messages, _ = convert(tmp_path, "Intro.\n\n" + items)
    assert len(messages) == 2 and all("task list item" in m for m in messages), messages


def test_a_one_cell_table_without_rows_is_told_as_a_boxed_block(tmp_path: Path) -> None:
    """A Yuque export holds a boxed block of commands as a table of one cell with no row
    (`| yum install -y wget<br/>yum install -y vim |` over `| --- |`); it was told only to
    'add a row', a table nobody meant."""
    messages, _ = convert(tmp_path, "Intro.\n\n| yum install -y wget<br/>yum install -y vim |\n"
                                    "| --- |\n")
    assert len(messages) == 1 and "'```' fence" in messages[0], messages
    two, _ = convert(tmp_path, "Intro.\n\n| a | b |\n| --- | --- |\n")
    assert len(two) == 1 and "fence" not in two[0] and "add a row" in two[0], two


@pytest.mark.parametrize("passage", [
    "![a](x.png =150x150)\n",
    "![a](https://example.org/x.png =150x150)\n",
    "An ![a](x.png =40%x) picture.\n",
    "Some words,\nan ![b](https://example.org/y.png =40x40) picture\nand more.\n",
    "![a](/Users/me/Library/Application Support/typora-user-images/image-1.png)\n",
    "A ![a](/Users/me/Library/Application Support/typora-user-images/image-1.png) here.\n",
], ids=["alone", "alone, another site's", "in a sentence", "in a paragraph's middle line",
        "Typora's macOS picture alone", "Typora's macOS picture in a sentence"])
def test_a_picture_the_build_stops_at_is_no_difference_to_tell(tmp_path: Path,
                                                                passage: str) -> None:
    """Markdown Nice's picture size (`![a](x.png =150x150)`) and Typora's pasted picture on
    macOS (its path has a space, an address's end on GitHub) are told by the build's error
    at the picture (md_figures): GitHub showing that picture as typed (and linking the
    address in it) was a second message, of words that differ, about the same fault."""
    stops = pytest.raises(BuildError) if passage.startswith("!") else nullcontext()
    with captured() as messages, stops:
        page(tmp_path, FILLER + passage, RESULTS)
    assert list(messages) == []



@pytest.mark.parametrize("row", ["| {x} |\n|---|\n", "| {x} | b |\n|---|---|\n"],
                         ids=["one cell", "two cells"])
def test_tables_with_no_row_under_the_header_are_each_told_at_their_own_line(
        tmp_path: Path, row: str) -> None:
    """The empty row this Markdown adds under a table of only a header, which cmark-gfm does
    not, was placed at cmark-gfm's next block: the next table's line, so the first table was
    never named and each other one was told at the line of the one after it. A stretch of
    ours deeper than cmark-gfm's block after it is inside the block before; adding a row to
    each table, as the warning says, leaves no warning."""
    body = "".join(row.format(x=f"t{n}") + "\n" for n in range(3))
    messages, _ = convert(tmp_path, body)
    assert sorted(int(m.split(":")[1]) for m in messages) == \
        [line_of(body, f"t{n}") for n in range(3)], messages
    fixed = "".join(row.format(x=f"t{n}") + row.split("\n")[0].format(x="r") + "\n\n"
                    for n in range(3))
    assert convert(tmp_path, fixed)[0] == []


def test_a_link_github_makes_in_a_kept_html_block_says_the_block_is_why(
        tmp_path: Path) -> None:
    """Markdown links after a blank line inside a `<div>` (a README's row of badges, its
    language switch): GitHub reads them, this Markdown keeps the block as typed. Where the
    block's own difference was not told (its words differ only by the links), each link was
    told 'GitHub makes … a link; write [text](address)', the very text already written
    there (and '[](address)' for a link holding only a picture, which loses the picture).
    The warning now says the link is inside an HTML block kept as typed, and what to do."""
    body = ("Intro.\n\n<div align=\"center\">\n\n[Other language](./other.md) | This one\n\n"
            "</div>\n\n<div align=\"center\">\n\n[![Stars](pic.svg)](https://a.example/)\n\n"
            "</div>\n\nMore.\n")
    messages, _ = convert(tmp_path, body)
    for words in ("[Other language]", "[![Stars]"):
        here = at(messages, line_of(body, words))
        assert here and all("HTML block" in m and "write [" not in m for m in here), messages


@pytest.mark.parametrize("after", ["After the quote.\n", "> Another quote.\n"],
                         ids=["a paragraph after", "a quote after"])
def test_a_list_inside_a_quote_right_under_its_paragraph_line_is_told_the_quote_line(
        tmp_path: Path, after: str) -> None:
    """A list inside a quote right under a line of its paragraph (a README's alert, '> You
    can override it' over '> * by setting …' lines) is a list on GitHub and more text of the
    paragraph here. With a second quote a blank line below, the warning, at the quote's first
    line, told to indent a nested list by 4 spaces, which changes nothing. It is told at the
    list's first line to put a line '>' above it; so written, no list is told."""
    body = FILLER + "> You can override it\n> * by this\n> * or by that\n\n" + after
    messages, _ = convert(tmp_path, body)
    told = at(messages, line_of(body, "by this"))
    assert told and "put a line '>' (a blank line of the quote) before the list" in told[0], \
        messages
    assert not [m for m in messages if "4 spaces" in m], messages
    fixed = body.replace("> You can override it\n", "> You can override it\n>\n")
    (tmp_path / "fixed").mkdir()
    messages, _ = convert(tmp_path / "fixed", fixed)
    assert not [m for m in messages if "a line '>'" in m or "4 spaces" in m], messages
