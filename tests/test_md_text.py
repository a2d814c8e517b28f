"""md_text's tree processors on trees of our own: each reads a paragraph of any length in
time linear in it, and each block's quotes are its own (not those of a block inside it)."""
from __future__ import annotations

import xml.etree.ElementTree as etree
from pathlib import Path

import pytest
from helpers import BODY_START, page
from markdown import Markdown

from sqrtdk.log import captured
from sqrtdk.web.md_text import CjkLineJoin, KeepWhole, LangMarks
from sqrtdk.web.positions import LineMap

RESULTS = {"claims": {}, "meta": {"bounds": {}}}
HAN = "\u4e2d"          # a Chinese character
BITS = "\u6bd4\u7279"   # the Chinese unit for bits


@pytest.mark.cpu_timeout(60)    # linear: well under a second; before, minutes (square of the lines)
def test_a_paragraph_of_many_chinese_lines_is_joined_in_linear_time() -> None:
    """CjkLineJoin summed the lengths of all the text kept so far at every line break it
    dropped, and sliced the text before each break: a Chinese paragraph of 100,000 short
    lines took minutes (53 s at 50,000). Each break is now joined at once; the offsets
    recorded for `positions` are those of the text as joined."""
    root = etree.fromstring("<div><p/></div>")
    root[0].text = (HAN + "\n") * 100000
    at = LineMap()
    CjkLineJoin(Markdown(), at).run(root)
    assert root[0].text == HAN * 100000 + "\n"
    assert at.removed[(root[0], "text")][:3] == [1, 2, 3]


def test_a_line_break_is_joined_by_the_characters_of_the_slots_around_it() -> None:
    """A break at a slot's start or end looks at the last character of the text before it
    (as already joined) and the first one after it, across elements."""
    root = etree.fromstring(f"<div><p>{HAN}\n<em>{HAN}</em>\n{HAN} a\n<em>b</em>\n{HAN}"
                            f"<em>{HAN}\n</em>{HAN}</p></div>")
    CjkLineJoin(Markdown()).run(root)
    assert etree.tostring(root, encoding="unicode") == (
        f"<div><p>{HAN}<em>{HAN}</em>{HAN} a\n<em>b</em>\n{HAN}<em>{HAN}</em>{HAN}</p></div>")


@pytest.mark.cpu_timeout(60)    # linear: about a second; before, minutes
@pytest.mark.parametrize("what", ["lang", "keep_whole"])
def test_many_runs_after_elements_are_wrapped_in_linear_time(what: str) -> None:
    """LangMarks and KeepWhole found the parent of each element whose tail they wrapped by a
    walk of the whole tree, and its place there by a scan of the parent's children: a
    paragraph of 40,000 emphasised words, each followed by a Chinese character (or the
    unit to keep whole), took time in the square of their number. The parents and places
    are now read once."""
    n = 40000
    word = HAN if what == "lang" else BITS
    root = etree.fromstring("<div><p>" + f"<em>a</em>{word} " * n + "</p></div>")
    if what == "lang":
        LangMarks(Markdown(), "latin", "zh-CN").run(root)
        wrapped = f'<span lang="zh-CN">{word}</span>'
    else:
        KeepWhole(Markdown(), word).run(root)
        wrapped = f'<span class="nobr">{word}</span>'
    assert etree.tostring(root, encoding="unicode") == \
        "<div><p>" + f"<em>a</em>{wrapped} " * n + "</p></div>"


@pytest.mark.parametrize("what", ["lang", "keep_whole"])
def test_runs_in_texts_and_tails_are_wrapped_in_place(what: str) -> None:
    """The spans go right after the element whose tail held the run, also after spans put
    into the same parent before (from its text, or an earlier tail)."""
    word = HAN if what == "lang" else BITS
    root = etree.fromstring(f"<div><p>{word}x{word}<em>a{word}</em>{word}y<b>c</b>z{word}"
                            "</p></div>")
    if what == "lang":
        LangMarks(Markdown(), "latin", "zh-CN").run(root)
        w = f'<span lang="zh-CN">{word}</span>'
    else:
        KeepWhole(Markdown(), word).run(root)
        w = f'<span class="nobr">{word}</span>'
    assert etree.tostring(root, encoding="unicode") == \
        f"<div><p>{w}x{w}<em>a{w}</em>{w}y<b>c</b>z{w}</p></div>"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_quote_in_a_loose_list_item_is_its_paragraph_s_only(tmp_path: Path,
                                                                lang: str) -> None:
    """The quotes of a block were counted with those of every element inside the blocks it
    holds: a loose list item counted its paragraph's emphasis, so one closing quote inside
    '*…*' was an odd one of the item, warned about at the item's first line, although its
    paragraph pairs it. Each block now counts only its own text."""
    body = "- a\n\n    He said \"hi *there\"* ok.\n\n- b\n"
    with captured() as warned:
        out = page(tmp_path, body, RESULTS, lang=lang).body
    assert not warned, warned
    closing = "\u201d" if lang == "zh" else "&rdquo;"
    assert f"<em>there{closing}</em>" in out


@pytest.mark.parametrize("written", [
    "Term\n:   {words}\n",
    "/// details | {words}\n    attrs: {{id: box}}\n\nBody.\n///\n",
    "Text[^n].\n\n[^n]: {words}\n"], ids=["definition", "box title", "note"])
def test_an_odd_quote_is_warned_at_its_own_line_not_where_its_words_came_first(
        tmp_path: Path, written: str) -> None:
    """A block of no recorded line (a definition, a box's title) was found by its first
    words from the file's start: the same words in a paragraph above named that
    paragraph's line, twice. Now the search starts at the line the block cannot be before.
    The note's text shows no placeholder of the note's back-link
    ('qq3936677670287331zz')."""
    words = 'Odd "quote here.'
    body = f"{words}\n\n" + written.format(words=words)
    with captured() as warned:
        page(tmp_path, body, RESULTS, lang="zh")
    own = BODY_START + body.split("\n").index(next(x for x in body.split("\n")[1:]
                                                    if words in x))
    assert sorted(int(w.split(":")[1]) for w in warned) == [BODY_START, own], warned
    assert not [w for w in warned if "qq" in w or "zz" in w], warned
