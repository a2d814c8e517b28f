"""The line-by-line reads skip what Markdown leaves as written: a line of a raw HTML block is
never a note's definition, a box line, a box's option, a reference definition, Chinese text
to lint or the place of a fault found in the tree (sqrtdk/web/raw_html.py).

Each check is given the same decoy inside a `<div>` (or `<pre>`) block: the page must read
as if the decoy were not there. Which lines are raw HTML is checked against cmark-gfm's own
output for every raw HTML block of the CommonMark spec's examples."""
from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import cmarkgfm
import pytest
from cmarkgfm.cmark import Options
from helpers import BODY_START, assert_linear_growth, page

from sqrtdk.errors import BuildError
from sqrtdk.options import PROJECT_ROOT
from sqrtdk.web.assemble import Site
from sqrtdk.web.blocks import cmark_tree
from sqrtdk.web.checks import check_site
from sqrtdk.web.raw_html import _cmark, markdown_raw_lines, raw_html_lines

RESULTS: dict[str, Any] = {"spread": {"sd_small": 2.0104}, "claims": {}, "meta": {"bounds": {}},
                           "reproduce": {}}
ZH = "\u6b63\u6587"          # body text


def div(text: str) -> str:
    return f"<div>\n{text}\n</div>\n\n"


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


@pytest.mark.parametrize("decoy", ["///", "/// note", "//// details | X",
                                   "/// details | X\n    attrs: {id: a}\n    attrs: {id: b}\n///"],
                         ids=["close", "other kind", "unclosed", "option twice"])
def test_a_box_line_inside_raw_html_is_no_box(tmp_path: Path, decoy: str) -> None:
    built = page(tmp_path, "Text.\n\n" + div(decoy) + "More text.\n", RESULTS)
    assert "<div>\n" + decoy.split("\n")[0] in built.conversion.html    # shown as written


def test_a_note_definition_inside_raw_html_is_no_note(tmp_path: Path) -> None:
    body = "A claim[^a].\n\n" + div("[^a]: an example of a note") + "[^a]: The note.\n"
    built = page(tmp_path, body, RESULTS)
    line = BODY_START + body.split("\n").index("[^a]: The note.")
    assert built.conversion.lines.footnotes == [line]


def test_a_paragraph_under_a_note_inside_raw_html_is_not_read_as_the_notes(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    body = "A claim[^a].\n\n[^a]: The note.\n\n<pre>\n[^b]: t\n\n  indented\n</pre>\n"
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        page(tmp_path, body, RESULTS)
    assert not [w for w in warnings(caplog) if "not part of the note" in w]


def test_a_reference_definition_inside_raw_html_is_not_the_links(tmp_path: Path) -> None:
    body = div("[r]: #nowhere") + "See [there][r] now.\n\n[r]: #nowhere\n"
    built = page(tmp_path, body, RESULTS)
    with pytest.raises(BuildError) as e:
        check_site(Site(files={"en/index.html": built.body.encode("utf-8")}), [built],
                   "https://site.example/")
    assert e.value.line == BODY_START + body.split("\n").index("[r]: #nowhere", 3), str(e.value)


def test_chinese_inside_raw_html_is_not_linted(tmp_path: Path,
                                               caplog: pytest.LogCaptureFixture) -> None:
    body = f"{ZH}\u3002\n\n" + div(f"{ZH}English{ZH}") + f"{ZH}English{ZH}\n"
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        page(tmp_path, body, RESULTS, lang="zh")
    lint = [w for w in warnings(caplog) if "Chinese spacing" in w]
    assert len(lint) == 1 and f"index.md:{BODY_START + 6}:" in lint[0], lint


@pytest.mark.parametrize("fault, says", [("the ~~gone~~ here", "strikethrough"),
                                         (f'{ZH}"{ZH}', "odd number")],
                         ids=["foreign syntax", "odd quote"])
def test_a_warning_found_in_the_tree_is_not_at_raw_html_with_its_words(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, fault: str, says: str) -> None:
    """The fault is in a list item the two parsers read differently (no line of its own:
    its words are looked for in the article), the same words earlier in raw HTML."""
    body = div(fault) + f"- an item\n  - {fault}\n"
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        page(tmp_path, body, RESULTS, lang="zh")
    found = [w for w in warnings(caplog) if says in w]
    line = BODY_START + body.split("\n").index(f"  - {fault}")
    assert found and all(f"index.md:{line}:" in w for w in found), found


def test_the_parsers_disagreeing_keep_the_line_read(tmp_path: Path) -> None:
    """A `<span>` line is raw HTML to CommonMark (kind 7) but text to Python-Markdown, which
    reads the note definition under it: the definition is still checked."""
    body = "A claim[^a].\n\n<span>\n[^a]: One.\n\n[^a]: Two.\n"
    with pytest.raises(BuildError) as e:
        page(tmp_path, body, RESULTS)
    assert "defined twice" in e.value.message
    assert e.value.line == BODY_START + body.split("\n").index("[^a]: Two."), str(e.value)


SPEC = json.loads((PROJECT_ROOT.parent / "shared" / "corpus" / "commonmark-spec.json")
                  .read_text(encoding="utf-8"))["examples"]
RAW = [e for e in SPEC if any(el.tag == "html" for el in cmark_tree(e["markdown"]).iter())]


@pytest.mark.parametrize("example", RAW, ids=[str(e["example"]) for e in RAW])
def test_each_raw_html_block_of_the_spec_has_exactly_its_lines(example: dict[str, Any]) -> None:
    """cmark-gfm writes each block's own text when allowed to (CMARK_OPT_UNSAFE): the lines
    found for each block, without their containers' markers, are that text, and there are as
    many runs of lines as blocks."""
    source = example["markdown"]
    lines = source.split("\n")
    found = sorted(_cmark(source))
    runs: list[list[int]] = []
    for n in found:
        if runs and runs[-1][-1] == n - 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    blocks = sum(1 for el in cmark_tree(source).iter() if el.tag == "html")
    written = cmarkgfm.markdown_to_html_with_extensions(source, Options.CMARK_OPT_UNSAFE)
    assert len(runs) == blocks, runs
    shown = [_bare(x) for x in written.split("\n")]
    for run in runs:
        own = [_bare(lines[n - 1]) for n in run]
        assert any(shown[i:i + len(own)] == own for i in range(len(shown))), (run, written)


def _bare(line: str) -> str:
    """A line without indentation, a quote's '>' and a list item's marker."""
    line = line.strip().removeprefix(">").strip()
    return line[2:] if line[:2] in ("- ", "* ", "+ ") else line


def test_raw_html_lines_of_a_plain_article_are_none() -> None:
    assert raw_html_lines("# A\n\nText with <b>bold</b> inline.\n") == frozenset()


@pytest.mark.parametrize("text", [
    "A row of pictures <![one](a.jpg),![two](b.jpg)> in a sentence.\n",   # Markdown Nice's
    "<![one](a.jpg),![two](b.jpg)>\n",
    div("<![x] not a marked section >"),
    "Text <![1 and <![ at the end\n",
])
def test_a_bracket_after_less_than_bang_is_read_without_a_traceback(tmp_path: Path,
                                                                    text: str) -> None:
    """`<![` that opens no CDATA section (Markdown Nice's slide row `<![a](x),![b](y)>`: text
    here and on GitHub) made Python's html.parser raise AssertionError in the build's own
    checks, a traceback instead of the page. Read as a browser reads it, it converts, and the
    site's checks tell the pictures the site lacks, at their line; a paragraph that is the
    row alone is told as Markdown Nice's slide row, at its line."""
    body = "Before.\n\n" + text + "\nAfter.\n"
    if text.startswith("<![one]"):
        with pytest.raises(BuildError) as e:
            page(tmp_path, body, RESULTS)
        assert e.value.line == BODY_START + 2 and "slide row" in e.value.message, str(e.value)
        return
    built = page(tmp_path, body, RESULTS)
    assert "After." in built.body
    site = Site(files={"en/index.html": built.body.encode("utf-8")})
    if "a.jpg" not in text:
        check_site(site, [built], "https://site.example/")
        return
    with pytest.raises(BuildError) as e:
        check_site(site, [built], "https://site.example/")
    assert e.value.line == BODY_START + 2 and "'a.jpg'" in e.value.message, str(e.value)


def test_no_module_reads_html_with_html_parser_s_own_class() -> None:
    """Every HTML parser of the build is sqrtdk.html_parsing's, which reads `<![` as a
    browser does (the test above): html.parser's own would raise at `<![x]`."""
    own = [p.relative_to(PROJECT_ROOT).as_posix() for p in (PROJECT_ROOT / "sqrtdk").rglob("*.py")
           if p.name != "html_parsing.py"
           and ("from html.parser import HTMLParser" in p.read_text(encoding="utf-8")
                or "(html.parser.HTMLParser)" in p.read_text(encoding="utf-8"))]
    assert own == []


@pytest.mark.cpu_timeout(20)    # about 1 s of CPU (the growth check)
def test_the_lines_of_many_raw_html_blocks_are_found_in_linear_time() -> None:
    """Each raw block's first line was found by counting the line breaks from the text's
    start, in the square of the blocks (an article of many small HTML blocks; the lexer
    reads them too where a <script> or <style> is written): 100,000 blocks took 37 s of
    CPU, counted on 3.8 s (the rest is Python-Markdown's own).

    10,000 and 40,000 blocks: about 0.17 s and 0.75 s of CPU (4.4 times; the limit is 8,
    the square 16); counted from the text's start again, 0.5 s and 7.1 s (14 times)."""
    def blocks(n: int) -> Any:
        text = "<div></div>\n\n" * n

        def work() -> None:
            assert markdown_raw_lines(text) == frozenset(range(1, 2 * n, 2))
        return work
    assert_linear_growth(blocks, 10_000)
