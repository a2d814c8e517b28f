"""Markdown as authors learned it on GitHub (issue 17): each habit where Python-Markdown reads
a block differently from CommonMark/GFM either gives the structure meant, or warns (or
stops) at the author's own line. Inputs are small passages of the kind an author writes."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import cmarkgfm
import pytest
from helpers import BODY_START, Tree, page

from sqrtdk.errors import BuildError
from sqrtdk.log import captured
from sqrtdk.web.block_diff import advice
from sqrtdk.web.blocks import (
    _CMARK_EXTENSIONS,
    _CMARK_OPTIONS,
    Block,
    _mark_raw_html,
    _TreeBuilder,
    cmark_tree,
)
from sqrtdk.web.cmark_html import place_raw_html
from sqrtdk.web.md_blocks import align

RESULTS: dict[str, Any] = {"claims": {}, "meta": {"bounds": {}}}
INTRO = "The scores of one query are spread out.\n\n"   # the passage starts 2 lines below it
AT = BODY_START + 2

# name -> (passage, the line of the passage the warning names (0-based), words the message
# must hold)
DIVERGENT: dict[str, tuple[str, int, str]] = {
    # a pasted post's own front matter under the article's (it was told to be a heading
    # written on two lines: 'write it on one line, as ## Its title')
    "a second front matter block": (
        "---\nlayout: post\ntitle: \"Scaled attention\"\ndate: 2023-04-01\n---\n", 1,
        "another front matter block"),
    # a spacer line of Word, WPS or an online editor: a paragraph on GitHub, a blank line here
    # (it was told to indent a nested list by 4 spaces)
    "a line of a non-breaking space": ("Text.\n\n\u00a0\n\nMore.\n", 2, "remove the line"),
    "a line of a non-breaking space between items": (
        "- one\n\n\u00a0\n\n- two\n", 2, "only a non-breaking or full-width space"),
    "list under a paragraph": (
        "Three steps:\n- scale the scores\n- take the softmax\n", 1, "blank line before a list"),
    "numbered list under a paragraph": (
        "Three steps:\n1. scale\n2. softmax\n", 1, "blank line before a numbered list"),
    "table under a paragraph": (
        "The sizes:\n| d | SD |\n|---|---|\n| 4 | 2 |\n", 1, "blank line before a table"),
    # at the list's line, not the paragraph's first (a real article's: a formula 4 lines up)
    "list under a paragraph of three lines": (
        "The scores\nare scaled in\nthree steps:\n- scale\n- softmax\n", 3,
        "blank line before a list"),
    "list under a paragraph that starts with a display formula": (
        "$$\nq \\cdot k\n$$\nwhere the terms are:\n- the query\n- the key\n", 4,
        "blank line before a list"),
    "nested list indented by two spaces": (
        "- the scores\n  - their mean\n  - their SD\n- the shares\n", 1, "4 spaces"),
    "paragraph at a nested item's content column": (
        "1. first\n\n    - nested item\n\n      Its second paragraph.\n\n2. second\n", 4,
        "4 spaces"),
    "closing fence indented": (
        "```python\nx = 1\n  ```\n", 2, "closing fence"),
    "multi-line setext heading": (
        "Scaled\nscores {#scaled}\n---\n", 0, "GitHub (CommonMark) as a level-2 heading"),
    "pipe inside code in a table cell": (
        "| code | what |\n|---|---|\n| `a|b` | either |\n", 2, "keep '|' out of `code`"),
    "quote right under a table": (
        "| d | SD |\n|---|---|\n| 4 | 2 |\n> a quote\n", 3, "blank line between the table"),
    "quote with a lazy list line": (
        "> a quote\n- an item\n", 1, "GitHub (CommonMark) as a list"),
    "text right under raw HTML": (
        "<div>a</div>\n*b* text\n", 1, "a blank line between the HTML and this line"),
    "list right under raw HTML": (
        "<p>x</p>\n* b\n", 1, "a blank line between the HTML and this line"),
    # an empty paragraph (a '&nbsp;' spacer) under the HTML, another (a comment) below:
    # difflib paired the first with GitHub's comment, and the warning went to the line
    # under the comment with the advice to indent a nested list
    "spacer right under raw HTML with a comment below": (
        "<p>x</p>\n&nbsp;\n\n<!-- end -->\n\nMore text.\n", 1,
        "a blank line between the HTML and this line"),
    "spacer right under raw HTML with a heading below": (
        "<p>x</p>\n&nbsp;\n\n<!-- end -->\n\n## More {#more}\n\n<!-- start -->\n", 1,
        "a blank line between the HTML and this line"),
}
BOTH_LOSE: dict[str, tuple[str, int, str]] = {
    "table row with more cells than the header": (
        "| d | SD |\n|---|---|\n| 4 | 2 | 0.5 |\n", 2, "3 cells, its header 2"),
    "table row with more cells in a list item": (
        "- the sizes:\n\n    | d | SD |\n    |---|---|\n    | 4 | 2 | 0.5 |\n", 4,
        "3 cells, its header 2"),
    # published with an empty cell at the row's end (on GitHub too): a cell forgotten, or an
    # empty one never written as '| |'
    "table row with fewer cells than the header": (
        "| d | SD | note |\n|---|---|---|\n| 4 | 2 |\n", 2, "2 cells, its header 3"),
    "table row with fewer cells in a quote": (
        "> | d | SD | note |\n> |---|---|---|\n> | 4 |\n", 2, "1 cell, its header 3"),
    # a sentence written right under a table (its blank line lost): one more row, its words
    # in the first cell, silently (a mutation pass over the article)
    "sentence right under a table": (
        "| d | SD |\n|---|---|\n| 4 | 2 |\nIts SD is 2.\n", 3, "one more row of the table"),
    "sentence right under a table in a list item": (
        "- the sizes:\n\n    | d | SD |\n    |---|---|\n    | 4 | 2 |\n    Its SD is 2.\n", 5,
        "one more row of the table"),
    "table without its delimiter row": (
        "| d | SD |\n| 4 | 2 |\n", 0, "'|---|---|'"),
    # cmark-gfm gives a table right under a paragraph line the paragraph's first line, and
    # its header row was read there
    "escaped pipe inside code in the header of a table under a paragraph": (
        "The sizes:\n| `a\\|b` | SD |\n|---|---|\n| 4 | 2 |\n", 1, "inside `code`"),
    "escaped pipe inside math in a table cell": (
        "| norm | what |\n|---|---|\n| $\\|v\\|$ | length |\n", 2, "'\\vert' for |"),
    "undefined reference link": (
        "As [the paper][vaswani] says.\n", 0, "no line '[vaswani]: address'"),
    "fence options": (
        "```python title=\"spread.py\" linenums=\"1\" hl_lines=\"2\"\nx = 1\ny = 2\n```\n", 0,
        "options 'title=\"spread.py\""),
    "heading level jump": (
        "## Scores {#scores}\n\n#### Their SD {#their-sd}\n", 2, "jumps from 2 to 4"),
}


def warnings(tmp_path: Path, body: str, lang: str) -> tuple[list[str], str]:
    with captured() as messages:
        html = page(tmp_path, body, RESULTS, lang=lang).body
    return list(messages), html


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", [*DIVERGENT, *BOTH_LOSE])
def test_a_passage_github_would_read_otherwise_warns_at_its_line(
        tmp_path: Path, name: str, lang: str) -> None:
    passage, line, words = {**DIVERGENT, **BOTH_LOSE}[name]
    messages, _ = warnings(tmp_path, INTRO + passage, lang)
    at = [m for m in messages if f":{AT + line}: warning:" in m]
    assert at and any(words in m for m in at), messages


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_same_undefined_reference_in_two_paragraphs_warns_at_each_ones_line(
        tmp_path: Path, lang: str) -> None:
    passage = "As [the paper][vaswani] says.\n\nOther words.\n\nAs [the paper][vaswani] says.\n"
    messages, _ = warnings(tmp_path, INTRO + passage, lang)
    lines = [int(m.split(": warning:")[0].rsplit(":", 1)[1]) for m in messages
             if "[vaswani]: address" in m]
    assert lines == [AT, AT + 4], messages


@pytest.mark.parametrize("lang, passage", [
    ("en", "The table dp[i][j] holds the best cost, and grid[r][c - 1] its left cell.\n"),
    ("en", "Entry A[0][1] of the matrix.\n"),
    ("zh", "\u901a\u5e38 dp[i][j - 1] \u8868\u793a\u524d\u4e00\u4e2a\u72b6\u6001\u3002\n"),
], ids=["en", "numbers", "zh"])
def test_an_index_written_in_prose_is_no_reference_link(tmp_path: Path, lang: str,
                                                        passage: str) -> None:
    """An array indexed twice in the text of algorithm notes ('dp[i][j]', LeetCode write-ups
    write it on every page) was told as a reference link whose '[j]: address' line is
    missing: both GitHub and the page show it as typed, as meant. Brackets right after a
    name's letter or digit are an index; '[the paper][vaswani]' is still told."""
    messages, html = warnings(tmp_path, INTRO + passage, lang)
    assert not [m for m in messages if "reference link" in m], messages
    assert "[i]" in html or "[0]" in html


@pytest.mark.parametrize("passage", [
    "Three steps:\n\n- scale the scores\n- take the softmax\n",
    "- the scores\n\n    - their mean\n    - their SD\n\n- the shares\n",
    "The sizes:\n\n| d | SD |\n|---|---|\n| 4 | 2 |\n",
    "The code:\n\n```python\nx = 1\n```\n",
    "1. first\n\n    ```python\n    x = 1\n    ```\n\n2. second\n",
    "Scaled scores {#scaled}\n---\n",
    "As [the paper][vaswani] says.\n\n[vaswani]: https://arxiv.org/abs/1706.03762\n",
    "Text[^n].\n\n[^n]: A note.\n\n    Its second paragraph.\n",
    "/// details | Why?\n    attrs: {id: why}\n\nBecause.\n///\n",
    "Term\n:   Its definition.\n",
    "> > | d | SD |\n> > |---|---|\n> > | 4 | 2 |\n",
    "| norm | what |\n|---|---|\n| $\\Vert v\\Vert$ | length |\n",
    "| d | SD | note |\n|---|---|---|\n| 4 | 2 | |\n",
    # brackets in code and raw HTML are no reference links (a dict indexed twice)
    "The code:\n\n```python\nx = data[\"train\"][\"s1\"]\n```\n",
    "1. first\n\n    ```python\n    x = data[\"train\"][:8]\n    ```\n\n2. second\n",
    "<div>\nA[i][j] in a block of raw HTML.\n</div>\n",
    # an image's <div> and its caption's on the next line: one block to GitHub, two here
    "<div align=center>\n<img src=\"#\" alt=\"x\"/>\n</div>\n<div align=center>Figure 1</div>\n"
    "\nAfter.\n",
    "<div class=\"a\">\n\n<div class=\"b\">the scores</div>\n</div>\n",
    "Text[^n].\n\n[^n]: A note.\n\n    ```python\n    x = 1\n    ```\n",
], ids=["list", "nested list", "table", "fence", "fence in a list", "setext heading",
        "defined reference", "footnote", "box", "definition list", "table in a quote",
        "norm in a table cell", "table cell written empty", "brackets in a fence", "brackets in a fence in a list",
        "brackets in raw HTML",
        "raw HTML blocks on adjacent lines", "raw html with a blank line inside",
        "note ending with code"])
def test_the_unambiguous_form_gives_the_same_structure_without_a_warning(
        tmp_path: Path, passage: str) -> None:
    messages, html = warnings(tmp_path, INTRO + passage, "en")
    assert messages == []
    assert not re.search(r"\[the paper\]|```|\| d \|", html)     # nothing published as typed


@pytest.mark.parametrize("indent", ["\t", "    "], ids=["tab", "4 spaces"])
def test_a_fence_right_under_a_list_item_s_line_is_the_item_s_code(tmp_path: Path,
                                                                  indent: str) -> None:
    """Both parsers read the item's words, then its code (the new author's trial was told
    the page shows a paragraph)."""
    fence = f"{indent}```python\n{indent}x = 1\n{indent}```\n"
    messages, html = warnings(tmp_path, INTRO + "1. step\n" + fence + "\nAfter.\n", "en")
    assert messages == []
    code = [e for e in Tree(html).elements if e["tag"] == "code"]
    assert len(code) == 1 and code[0]["ancestors"][-3:] == ["ol", "li", "pre"], code


# a fence touching text, as GitHub reads it: a paragraph, the code, a paragraph (the same
# inside a quote and a note); under a list item's or a quote's line at the margin, the fence
# ends the item or the quote (lazy lines continue a paragraph, never a fence)
FENCE = "```python\nx = 1\n```\n"
TOUCHING: dict[str, tuple[str, list[str]]] = {
    "under a paragraph line": (
        "The sentence is:\n" + FENCE + "Its *it* is a pronoun.\n", ["p", "pre", "p"]),
    "indented by 3 under a paragraph line": (
        "The sentence is:\n" + re.sub("(?m)^(?=.)", "   ", FENCE) + "After *it*.\n",
        ["p", "pre", "p"]),
    "two fences in a row": ("Both:\n" + FENCE + FENCE + "After.\n", ["p", "pre", "pre", "p"]),
    "in a quote": ("> The sentence is:\n" + re.sub("(?m)^(?=.)", "> ", FENCE) + "> After.\n",
                   ["blockquote", "p", "pre", "p"]),
    "at the margin under a list item": ("- an item\n" + FENCE + "After.\n",
                                        ["ul", "li", "pre", "p"]),
    "at the margin under a quote": ("> a quote\n" + FENCE, ["blockquote", "p", "pre"]),
    "in a note": ("Text[^n].\n\n[^n]: The note:\n" + re.sub("(?m)^(?=.)", "    ", FENCE)
                  + "    After.\n", ["p", "sup", "section", "li", "p", "pre", "p"]),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", TOUCHING)
def test_a_fence_touching_text_is_a_block_of_its_own_as_on_github(
        tmp_path: Path, name: str, lang: str) -> None:
    """A fence right under a line of text (or text right under its closing fence) ends the
    paragraph, as CommonMark reads it; the page held a <pre> inside a <p>, which a browser
    closes early (the text after the code then stood in no paragraph), and warned that 'the
    page shows a paragraph'."""
    passage, blocks = TOUCHING[name]
    messages, html = warnings(tmp_path, INTRO + passage, lang)
    assert messages == []
    elements = Tree(html).elements
    assert not [e for e in elements if e["tag"] == "pre" and "p" in e["ancestors"]], html
    shown = [e["tag"] for e in elements if e["tag"] in ("p", "pre", "ul", "li", "blockquote",
                                                        "section", "sup")][1:]
    assert shown == blocks, html
    assert "x = 1" in html and "```" not in html


def test_fence_options_are_dropped_and_the_code_is_still_code(tmp_path: Path) -> None:
    _, html = warnings(tmp_path, BOTH_LOSE["fence options"][0], "en")
    code = [e for e in Tree(html).elements if e["tag"] == "code"]
    assert len(code) == 1 and code[0]["ancestors"][-1] == "pre" and "title" not in html
    assert code[0]["text"] == "x = 1\ny = 2"


@pytest.mark.parametrize("heading", ["# Scores {#scores}", "Scores {#scores}\n==="],
                         ids=["ATX", "setext"])
def test_a_level_one_heading_stops_at_its_line(tmp_path: Path, heading: str) -> None:
    with pytest.raises(BuildError) as e:
        page(tmp_path, INTRO + heading + "\n", RESULTS)
    assert e.value.line == AT and "level-1 heading" in e.value.message


@pytest.mark.parametrize("heading", ["## Scores", "Scores\n---", "> ## Scores", "- ## Scores",
                                     "##Scores"],
                         ids=["ATX", "setext", "in a quote", "in a list item",
                              "no space after the hashes"])
def test_a_heading_without_an_id_stops_at_its_line(tmp_path: Path, heading: str) -> None:
    with pytest.raises(BuildError) as e:
        page(tmp_path, INTRO + heading + "\n", RESULTS)
    assert e.value.line == AT, e.value


def test_every_heading_without_an_id_is_named_in_one_build(tmp_path: Path) -> None:
    """A pasted post has a dozen headings and none has an id: only the first was named, so
    its author rebuilt once per heading. Each is now an error at its line, all in one build."""
    body = INTRO + "## Why it hurts\n\nText.\n\n### The assumptions\n\nMore.\n\n## Summary\n"
    with pytest.raises(BuildError) as e:
        page(tmp_path, body, RESULTS)
    lines = sorted(x.line for x in getattr(e.value, "errors", [e.value]))
    assert lines == [AT, AT + 4, AT + 8], [str(x) for x in getattr(e.value, "errors", [e.value])]


def test_alignment_names_the_line_of_githubs_block_where_the_readings_part() -> None:
    ours = [Block("p", 0, "Intro"), Block("p", 0, "Stepsab")]
    theirs = [Block("p", 0, "Intro", 1), Block("p", 0, "Steps", 3), Block("ul", 0, "", 4),
              Block("li", 1, "", 4), Block("p", 2, "a", 4), Block("li", 1, "", 5),
              Block("p", 2, "b", 5)]
    alignment = align(ours, theirs)
    assert alignment.lines[0] == 1 and alignment.exact == [True, False]
    # the blank line missing above the list goes at the list's line
    assert [line for line, _ in alignment.differences] == [4]


def test_githubs_reading_is_the_same_through_expat_and_through_html_parser() -> None:
    source = ("Text[^n] and <b>bold</b>.\n\n- a <i>tight</i> item\n- b\n\n<div>\nraw\n</div>\n\n"
              "| a |\n|---|\n| 1 |\n\n[^n]: A note.\n")
    fast = cmark_tree(source)
    builder = _TreeBuilder()
    builder.feed(cmarkgfm.markdown_to_html_with_extensions(source, _CMARK_OPTIONS,
                                                          _CMARK_EXTENSIONS))
    builder.close()
    _mark_raw_html(builder.root)
    place_raw_html(builder.root, source.split("\n"))
    shape = [(el.tag, el.get("data-sourcepos")) for el in fast.iter()]
    assert shape == [(el.tag, el.get("data-sourcepos")) for el in builder.root.iter()]
    assert [t for t, _ in shape].count("html") == 1 and [t for t, _ in shape].count("span") == 4
    assert ("html", "6:1-8:6") in shape          # the lines of the raw block, <div> to </div>
    with_control = cmark_tree("A form\x0cfeed.\n\n<div>\nraw\n</div>\n")   # expat refuses it
    assert [el.tag for el in with_control] == ["p", "html"]


@pytest.mark.parametrize("passage", [
    "<pre>\nthe scores\n</pre>\n",
    "<pre>\nthe scores\n\n  their SD\n</pre>\n",
    "```text\n<pre>the scores</pre>\n```\n",
    "- an item\n\n    ```text\n    the scores\n    ```\n",
], ids=["raw pre", "raw pre with a blank line", "fence", "fence in a list"])
def test_raw_pre_html_and_code_fences_read_alike_by_both_parsers_warn_nothing(
        tmp_path: Path, passage: str) -> None:
    """A raw `<pre>` block is raw HTML to both parsers (it was taken for a fence's code, and
    the two readings were said to differ, at the line after it)."""
    messages, html = warnings(tmp_path, INTRO + passage + "\nThe end.\n", "en")
    assert not messages, messages
    assert "<pre" in html


@pytest.mark.parametrize("passage", [
    "<p align=\"center\">\n\t<a href=\"https://example.org\">A list</a>&nbsp;\n</p>\n<br>\n<br>\n"
    "<p align=\"center\">\n\tWords to read.\n</p>\n<br>\n",
    "<div align=\"center\">\n  <b>Scores</b>\n</div>\n<br>\n<a href=\"https://example.org\"><img "
    "src=\"badge.svg\" alt=\"\"></a>\n",
    "<br>\n<br>\n\n## Contents {#contents}\n\n- [A](https://example.org/a)\n\n<br>\n<hr>\n<br>\n"
    "<a href=\"https://example.org\">\n\t<img src=\"https://example.org/b.svg\">\n</a>\n<br>\n"
    "<hr>\n<br>\n\n## More {#more}\n\n- [C](https://example.org/c)\n",
], ids=["breaks between centred paragraphs", "a badge under a div", "a banner between rules"])
def test_lines_of_tags_only_under_raw_html_warn_nothing(tmp_path: Path, passage: str) -> None:
    """A line holding only tags this Markdown reads inline ('<br>', a badge's '<a><img></a>')
    right under a block of raw HTML (an awesome list's centred header): GitHub keeps it in
    the HTML block, this Markdown makes it a paragraph of its own, and both show the same
    tags. The build warned at a line of words inside the next block ('put a blank line
    between the HTML and this line', which changes nothing); words under the HTML are still
    told (DIVERGENT's 'text right under raw HTML')."""
    messages, html = warnings(tmp_path, INTRO + passage + "\nThe end.\n", "en")
    assert not messages, messages
    assert "<br" in html


@pytest.mark.parametrize("passage", [
    "<details>\n<summary>Full traceback</summary>\n\n```\nRuntimeError: nan\n```\n\n</details>\n",
    "<details>\n<summary>Output</summary>\n\n```python\nx = 1\n```\n\n```text\n1\n```\n\n"
    "</details>\n",
    "```python\nx = 1\n```\n\n<details>\n<summary>Log</summary>\n\n```\nlog\n```\n\n</details>\n",
], ids=["one fence", "two fences", "a fence before"])
def test_code_in_an_html_details_box_reads_alike_by_both_parsers_warn_nothing(
        tmp_path: Path, passage: str) -> None:
    """A GitHub issue's traceback in '<details><summary>…</summary>' and a fence, after a
    blank line: the page shows the code as code, as GitHub does, yet the build warned that
    the box keeps the Markdown inside it as typed (at the fence's line, or at an earlier
    fence's)."""
    messages, html = warnings(tmp_path, INTRO + passage + "\nThe end.\n", "en")
    assert not messages, messages
    assert "<details>" in html and "<pre" in html and "```" not in html


def test_text_in_an_html_details_box_is_still_warned(tmp_path: Path) -> None:
    passage = "<details>\n<summary>More</summary>\n\nSome *text*.\n\n```\ncode\n```\n\n</details>\n"
    messages, _ = warnings(tmp_path, INTRO + passage + "\nThe end.\n", "en")
    assert any("<details> box written in HTML" in m for m in messages), messages


@pytest.mark.parametrize("passage", ["H<sub>2</sub>O and CO<sub>2</sub> are molecules.\n",
                                     "Scores &amp; logits, <b>both</b> unscaled.\n",
                                     "- an item with <abbr title=\"scaled\">SDP</abbr>\n"],
                         ids=["sub", "entity and b", "abbr in a list"])
def test_inline_html_and_entities_read_alike_by_both_parsers_warn_nothing(
        tmp_path: Path, passage: str) -> None:
    """Inline HTML and entities are in Markdown's stash under its block placeholder; their
    text counts as the paragraph's (the placeholder's letters and digits made the words
    differ: every paragraph with a <sub> was said to be split differently, and lost its
    line)."""
    messages, _ = warnings(tmp_path, INTRO + passage + "\nThe end.\n", "en")
    assert not messages, messages


@pytest.mark.parametrize("passage", [
    '<img alt="Scores before and after the\nscaling" src="scores.svg" />\n',
    '<img src="scores.svg"\n     alt="Scores" width="300">\n',
    '<span class="caption">Scores\nafter scaling</span>\n',
], ids=["alt over lines", "attributes over lines", "span"])
def test_an_inline_tag_over_lines_is_a_paragraph_to_both_parsers(tmp_path: Path,
                                                                 passage: str) -> None:
    """A picture's `<img alt="…` going on to the next lines, alone between blank lines (the
    Rust book's figures): the page keeps it in a paragraph, as GitHub does (its block of raw
    HTML needs the tag whole on its first line), yet the build warned that this Markdown
    reads raw HTML there and GitHub a paragraph."""
    messages, _ = warnings(tmp_path, INTRO + passage + "\nThe end.\n", "en")
    assert not [m for m in messages if "GitHub" in m], messages


def test_a_tab_indents_a_nested_list_by_four_columns() -> None:
    """A nested list indented by a tab is at 4 columns, as both parsers count it: a hint
    about another difference in its lines never calls it 'indented by 1'."""
    source = ["1. Given two sets:", "\t1. find their basis", "\t1. find their span"]
    ours = [Block("ol", 0, ""), Block("li", 1, ""), Block("p", 2, "Giventwosetsfind")]
    theirs = [Block("ol", 0, "", 1), Block("li", 1, "", 1), Block("p", 2, "Giventwosets", 1),
              Block("ol", 2, "", 2)]
    assert "indented by" not in advice(ours, theirs, source, 1)
    assert "indented by 2" in advice(ours, theirs, ["1. a", "  1. b"], 1)


@pytest.mark.parametrize("info, says", [
    ("python out", "output"),                          # the Hugging Face course's output
    ('python title="spread.py"', "title bar"),
    ('python linenums="1"', "line numbers"),
    ('python hl_lines="2"', "marked lines"),
    ("python {2}", "marked lines"),
    ("python copy", "does not know"),
    ("python [1|2-3]", "marked lines"),                # reveal.js' steps of marked lines
], ids=["out", "title", "line numbers", "marked lines", "marked lines in braces", "unknown",
        "reveal.js steps"])
def test_the_fence_options_warning_names_only_what_applies(tmp_path: Path, info: str,
                                                           says: str) -> None:
    """A plain `out` after the language was told the page shows no 'title bar, line numbers
    or marked lines': the warning names what the options would have shown, nothing else."""
    messages, html = warnings(tmp_path, INTRO + f"```{info}\nx = 1\n```\n", "en")
    assert len(messages) == 1 and f":{AT}: " in messages[0], messages
    assert says in messages[0] and f"'{info.split(' ', 1)[1]}'" in messages[0], messages
    others = {"title bar", "line numbers", "marked lines", "output"} - {says}
    assert not [w for w in others if w in messages[0]], messages
    assert "x = 1" in html


@pytest.mark.parametrize("info, kept", [
    ('{.python title="spread.py"}', "python"),       # Pandoc's and MkDocs' attribute form
    ("{ .python #listing .numberLines data-x=1 }", "python"),
    ("{#listing}", ""),
], ids=["title", "id and classes", "id alone"])
def test_a_fence_s_attribute_list_is_dropped_as_its_warning_says(tmp_path: Path, info: str,
                                                                 kept: str) -> None:
    """The fence options' warning says 'the code is shown without them', but an attribute
    list in braces was published: the title as a tooltip, an id and classes on the code,
    and `{#listing}` with no warning at all. The code keeps its language alone."""
    from helpers import Tree
    messages, html = warnings(tmp_path, INTRO + f"```{info}\nx = 1\n```\n", "en")
    assert len(messages) == 1 and f":{AT}: " in messages[0], messages
    assert "shown without" in messages[0], messages
    code = [e for e in Tree(html).elements if e["tag"] == "code"]
    assert len(code) == 1 and code[0]["attrs"] == (
        {"class": f"language-{kept}"} if kept else {}), code


@pytest.mark.parametrize("info", ["python=", "python=12", "python=+"])
def test_hackmd_s_line_numbers_are_named_in_the_fence_options_warning(tmp_path: Path,
                                                                     info: str) -> None:
    """HackMD's line numbers, ```` ```python= ```` (from line 12: `=12`; continuing: `=+`),
    were told "code fence option '=' is not supported here (this Markdown does not know
    it)"; the warning now says what it would have shown, line numbers."""
    messages, html = warnings(tmp_path, INTRO + f"```{info}\nx = 1\n```\n", "en")
    assert len(messages) == 1 and f":{AT}: " in messages[0], messages
    assert "line numbers" in messages[0] and "does not know" not in messages[0], messages
    assert "x = 1" in html


@pytest.mark.parametrize("passage", [
    "<hr style=\"margin: 2em 0\">\n<br>\n\nAfter.\n",
    "Before.\n\n<br>\n\nAfter.\n",
    "- an item\n\n    <br>\n\n- another item\n",
], ids=["right under raw HTML", "after a blank line", "in a list item"])
def test_a_line_holding_only_an_inline_tag_is_raw_html_as_on_github(
        tmp_path: Path, passage: str) -> None:
    """A line of only `<br>` is a block of raw HTML to GitHub (CommonMark's kind 7, or part of
    the HTML block right above it: a real post's `<hr …>` then `<br>`), not a paragraph: the
    page showed an empty paragraph, <p><br></p>, with its margins, and the comparison, which
    reads a paragraph holding only a tag as raw HTML, said nothing."""
    messages, html = warnings(tmp_path, INTRO + passage, "en")
    assert messages == []
    assert "<br>" in html and "<p><br></p>" not in html and "<p><br>" not in html, html


def test_a_list_both_parsers_nest_is_never_called_indented_too_little() -> None:
    """An item at 2 columns and one at 4 under it: this Markdown (4 columns a level) nests
    the second as GitHub does, so a hint about other lines never blames it ('indented by
    2', said of a line indented by 4); one at 2 under one at 0, and one at 6 under one at
    4, are nested only by GitHub, said with the columns as typed."""
    ours = [Block("ul", 0, ""), Block("li", 1, ""), Block("p", 2, "ab")]
    theirs = [Block("ul", 0, "", 1), Block("li", 1, "", 1), Block("p", 2, "a", 1),
              Block("ol", 2, "", 2)]
    assert "indented by" not in advice(ours, theirs, ["  - a", "    1. b"], 1)
    assert "indented by 2:" in advice(ours, theirs, ["- a", "  1. b"], 1)
    assert "indented by 2 more than the item above (6 in all)" in \
        advice(ours, theirs, ["    - a", "      1. b"], 1)


def test_github_s_reading_shows_emoji_shortcodes_outside_code() -> None:
    """GitHub shows `:smile:` as the emoji after cmark-gfm has read the text (not in code):
    the comparison reads it so, as the page shows it (md_emoji), and warns at neither."""
    root = cmark_tree("Done :smile: and `:smile:`, a:b:c and :nope:.\n\n    :+1: code\n")
    assert "".join(root.find("p").itertext()) == "Done \U0001f604 and :smile:, a:b:c and :nope:."
    assert "".join(root.find("pre").itertext()) == ":+1: code\n"


def test_a_nested_list_by_3_with_code_in_an_item_is_told_its_indent_first_and_what_to_move(
        tmp_path: Path) -> None:
    """GitHub's nested list indented by 3 with a fence in its first item and its next item
    right under the fence: the build told only that the next item needed a blank line, then
    (once that was done) the indent, which said nothing of the item's code, so an author who
    moved only the bullets put the code outside the item on both readings. The indent is
    told first, with the column for what the items hold; doing what it says (bullets at 4,
    their code at 8) leaves only the blank line to tell, and with it nothing."""
    fence = "```python\nq = 1\n```\n"

    def passage(bullet: int, inside: int, blank: str) -> str:
        pad, code = " " * bullet, re.sub("(?m)^(?=.)", " " * inside, fence)
        return (f"1. Draw the vectors:\n{pad}- in numpy:\n\n{code}{blank}{pad}- or by hand."
                f"\n{blank}2. Compare the SDs.\n\nThe end.\n")

    first, _ = warnings(tmp_path, INTRO + passage(3, 5, ""), "en")
    assert first and "4 spaces per level" in first[0] and "4 spaces more than their bullet" \
        in first[0] and f":{AT + 1}: warning:" in first[0], first
    second, _ = warnings(tmp_path, INTRO + passage(4, 8, ""), "en")
    assert second and all("blank line" in m for m in second), second
    done, html = warnings(tmp_path, INTRO + passage(4, 8, "\n"), "en")
    assert done == [], done
    pre = [e for e in Tree(html).elements if e["tag"] == "pre"]
    assert len(pre) == 1 and pre[0]["ancestors"][-4:] == ["ol", "li", "ul", "li"], pre


@pytest.mark.cpu_timeout(60)    # about 2 s; before, cubic (13 s at 500 tables, minutes at 1,500)
def test_many_stretches_read_differently_are_aligned_in_time() -> None:
    """align() matched the two readings with difflib over every block's signature, where the
    containers' (a table, a row, an item: no words) recur once a table: difflib looked at
    every place of each for every block it matched, in the cube of the page's length, and
    each stretch's hint read every line above it again for a <details>. Containers now only
    extend a match (difflib's junk) and the <details> lines are read once; every table's
    empty row is still told, at its own table's line."""
    from sqrtdk.web.block_diff import align
    from sqrtdk.web.blocks import Block
    ours: list[Block] = []
    theirs: list[Block] = []
    source: list[str] = []
    for n in range(1500):
        line = len(source) + 1
        source += [f"| t{n} |", "|---|", ""]
        ours += [Block("table", 0, ""), Block("tr", 1, ""), Block("th", 2, f"t{n}"),
                 Block("tr", 1, ""), Block("td", 2, "")]
        theirs += [Block("table", 0, "", line), Block("tr", 1, "", line),
                   Block("th", 2, f"t{n}", line)]
    found = align(ours, theirs, source)
    assert [line for line, _ in found.differences] == list(range(1, len(source), 3))


@pytest.mark.cpu_timeout(60)    # well under a second; before, minutes
def test_the_words_two_long_paragraphs_differ_in_are_named_in_time() -> None:
    """Where both parsers read the same blocks with other words, the warning names the
    letters one has and the other lacks, found by difflib over the two paragraphs' letters:
    in the square of their length and more (20,000 letters with one word apart: 7 s; with
    a letter apart every 50, minutes). A long pair is compared without what it shares at
    either end, and a middle still too long is named as one stretch."""
    from sqrtdk.web.block_diff import advice
    from sqrtdk.web.blocks import Block
    text = "".join("abcdefghij"[(n * n + 3 * n) % 10] for n in range(100000))
    one = advice([Block("p", 0, text)], [Block("p", 0, text[:50000] + "eos" + text[50000:])])
    assert "GitHub shows 'eos' where the page does not" in one, one
    every = "".join(x + ("z" if n % 50 == 0 else "") for n, x in enumerate(text))
    many = advice([Block("p", 0, text)], [Block("p", 0, every)])
    assert "GitHub shows 'z" in many, many


def test_a_row_github_splits_at_a_bar_in_code_is_not_told_as_short(tmp_path: Path) -> None:
    """'| `x|y` |' under a header of two cells: one cell here, two on GitHub (a '|' in code
    ends a cell there), told as a row the two split differently; it was also told that 'the
    page (and GitHub) shows 1 empty cell', which GitHub does not."""
    messages, _ = warnings(tmp_path, INTRO + "| a | b |\n|---|---|\n| `x|y` |\n", "en")
    assert [m for m in messages if "split this table row into cells differently" in m], messages
    assert not [m for m in messages if "empty cell" in m], messages


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("passage,lines", [
    # two labels, each over its own list (a tutorial's "Pros:" and "Cons:")
    ("**Pros**:\n- fast\n- simple\n\n**Cons**:\n- noisy\n- biased\n", [1, 5]),
    # three in a row, a numbered one among them
    ("Steps:\n1. scale\n2. softmax\n\nWhy:\n- to keep the spread\n\nThen:\n- sum\n",
     [1, 5, 8]),
    # a table under a paragraph, then a list under another
    ("The sizes:\n| d | SD |\n|---|---|\n| 4 | 2 |\n\nThe steps:\n- scale\n- sum\n", [1, 6]),
], ids=["two lists", "three lists", "a table, then a list"])
def test_each_block_right_under_a_paragraph_warns_at_its_own_line(
        tmp_path: Path, passage: str, lines: list[int], lang: str) -> None:
    """Two such paragraphs one after another made one stretch the two readings part on (their
    words differ, so difflib matched neither): the first list was warned and the second
    published as text of its paragraph without a word."""
    messages, _ = warnings(tmp_path, INTRO + passage, lang)
    told = sorted(int(m.split(": warning:")[0].rsplit(":", 1)[1]) - AT for m in messages
                  if "put a blank line before" in m)
    assert told == lines, messages
