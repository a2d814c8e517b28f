"""Every mistake at its own line (issue 9): each error an article can cause, placed at the
start, in the middle, at the end, inside a list, a footnote, a box and a table, must stop
the build with `path:line:` naming exactly the line the fault is on."""
from __future__ import annotations

import html
import logging
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers import BODY_START, Tree, assert_linear_growth, page, site_renderer

from sqrtdk.errors import BuildError
from sqrtdk.log import captured
from sqrtdk.web.assemble import Site, typeset
from sqrtdk.web.checks import check_site
from sqrtdk.web.markers import PRIVATE_USE_RE

RESULTS: dict[str, Any] = {
    "spread": {"sd_small": 2.0104, "n_pairs": 20000}, "claims": {"a.b": {"held": True}},
    "meta": {"bounds": {}}, "reproduce": {"demo": {"code": "x\n", "stdout": "", "source": ""}},
}

# name -> (the fault, one line or a block; what the message must say; the stage that finds it)
INLINE: dict[str, tuple[str, str, str]] = {
    "unknown result": ("the SD {{ spread.sd_smal | fixed(2) }} here", "no result", "page"),
    "unknown filter": ("the SD {{ spread.sd_small | fxed(2) }} here", "No filter", "page"),
    "number without filter": ("the SD {{ spread.sd_small }} here", "format filter", "page"),
    "template syntax": ("the SD {{ spread.sd_small | fixed(2 }} here", "template syntax", "page"),
    "unclosed statement": ("a {% if true %} b", "template syntax", "page"),
    "unknown claim": ("true{{ claim(\"a.c\") }} here", "no claim", "page"),
    "stray dollar": ("it costs $ 5", "starts no formula", "page"),
    "unclosed formula": ("where $x + y is", "never closed", "page"),
    # the closing '$' is there, inside a '{' never closed: the fix is the '}'
    "formula with a brace left open": ("so $\\frac{q\\cdot k}{\\sqrt{d_k}$ here",
                                       "the '{' of '{\\sqrt{d_k}' is never closed", "page"),
    "formula with a brace left open, no closing dollar": (
        "so $\\frac{q}{\\sqrt{d_k} here", "end it with '$'", "page"),
    "unclosed LaTeX formula": ("where \\(x + y is", "never closed", "page"),
    # braces right after an inline element: attr_list's, quoted as typed (not '{#some-id x}')
    "braces after bold text": ("a **bold text**{x} here",
                               "'{x}' right after the bold text is read as an attribute list",
                               "page"),
    "braces after code": ("a `code`{a} here", "write '\\{a}'", "page"),
    "MDX's doubled backslashes": ("so \\\\( A_{\\text {mem }}=\\frac{a}{b_{s-1}} \\\\) is",
                                  "doubled backslashes", "page"),
    "MDX's doubled brackets": ("so \\\\[ x^{2} \\\\] is", "doubled backslashes", "page"),
    "kramdown's contents": ("the contents {:toc} here", "kramdown", "page"),
    "display inside a line": ("see $$x$$ here", "'$$' inside a line", "page"),
    "invalid TeX": ("where $\\frac{a}$ is", "invalid TeX", "math"),
    "TeX that needs trust": ("see $\\href{https://x.org}{x}$ here", "trust", "math"),
    "footnote without note": ("a claim[^nope] here", "has no note", "page"),
    "template left in text": ("the SD }} here", "left in the text", "page"),
    "comment left in text": ("a {#TODO#} here", "left in the text", "page"),
    "raw script": ("a <script>x()</script> b", "would run a script", "page"),
    # issue 18: each with the policy's own reason (an iframe used to 'run a script')
    "inline stylesheet": ("a <style>p {color: red}</style> b", "inline stylesheet", "page"),
    "frame": ("a <iframe src=\"https://example.org/\"></iframe> b", "embeds another page",
              "page"),
    "plug-in object": ("a <object data=\"x.swf\"></object> b", "object-src 'none'", "page"),
    "missing anchor": ("see [there](#nowhere) now", "no anchor", "site"),
    # a pasted post's own footnote links (Substack's), told to be footnotes, not "did you
    # mean '#fn-1'" (a note's own id on the page)
    "pasted footnote link": ("see[1](#footnote-1) now", "write it as a footnote", "site"),
    "pasted footnote back-link": ("[1](#footnote-anchor-1) the note", "write it as a footnote",
                                  "site"),
    "missing file": ("see [there](../nowhere.html) now",
                     "a file the site does not have; ", "site"),
    # raw HTML: Markdown stashes it, so no tree element holds its address
    "missing anchor in raw HTML": ('see <a href="#nowhere-raw">x</a> now', "no anchor", "site"),
    "missing image in raw HTML": ('an <img src="missing-raw.png" alt="x"> image',
                                  "image 'missing-raw.png', a file the site does not have: "
                                  "the pages show only the figures the build draws", "site"),
    "external image in raw HTML": ('an <img src="https://example.org/x.png" alt="x"> image',
                                   "link to it instead, [what it shows](https://example.org/"
                                   "x.png), or draw it as a figure", "site"),
    "external resource": ("an ![x](https://example.org/x.png) image", "external resource", "site"),
    # a formula drawn as a picture by another site (a Zhihu answer saved as Markdown): the
    # TeX is in the address; linking to the picture was the advice
    "formula image in raw HTML": ('where <img src="https://www.zhihu.com/equation?tex='
                                  '%5Csqrt%7Bd_k%7D" alt="x"> is', "write the formula as "
                                  "math, $\\sqrt{d_k}$ in a sentence", "site"),
    # Zhihu ends a display formula's TeX with '\\': told '$a=b\\$' in a sentence, a line break
    "Zhihu display formula image": ("where ![f](https://www.zhihu.com/equation?tex=a%3Db%5C%5C) "
                                    "is", "between two '$$' lines, without that '\\\\': "
                                    "'$$', 'a=b', '$$'", "site"),
    # Yuque's (语雀's) export draws each formula as a picture whose address holds no TeX:
    # told to link to the picture
    "Yuque formula image": ("即 ![img](https://cdn.nlark.com/yuque/__latex/2dddc128ab24d074409d6a"
                            "dbc51398f3.svg) 其中", "a formula drawn as a picture by Yuque", "site"),
    # Markdown Nice's footnote, a link whose address is the note: told to link a page
    "note as an address": ("a [term](是一种写法，不是文件。 \"名\") here",
                           "Markdown Nice's footnote", "site"),
    "note as an address, no mark": ("a [term](这是一个很长的注释文字) here",
                                    "'[^name]: 这是一个很长的注释文字'", "site"),
    # Markdown Nice's picture size: told to link '[what it shows](x.png =40%x)'
    "picture size in a sentence": ("an ![a](https://example.org/x.png =40%x) image",
                                   "'=40%x' after its address is Markdown Nice's picture size",
                                   "site"),
    # Typora's pasted picture, a Windows path: told to be linked as an address elsewhere
    "windows path picture": ('an <img src="C:\\Users\\me\\AppData\\Roaming\\Typora\\typora-user-'
                             'images\\image-1.png" alt="x"> here', "a file on your own machine",
                             "site"),
    "windows path image": ("an ![x](C:\\Users\\me\\Pictures\\a.png) here",
                           "a file on your own machine", "site"),
    # Typora's pasted picture on macOS, in its folder in Application Support, and a file in a
    # home folder: told as a file the site does not have
    "Typora's macOS picture": ("an ![x](/Users/me/Library/Application Support/typora-user-"
                               "images/image-1.png) here", "Typora's copy of a pasted picture",
                               "site"),
    "home folder link": ("see [x](/home/me/notes.pdf) now", "a path in your home folder", "site"),
    "formula image": ("where ![d](https://latex.codecogs.com/svg.latex?%5Cfrac%7Ba%7D%7Bb%7D) is",
                      "write the formula as math, $\\frac{a}{b}$", "site"),
    "javascript link": ("see [x](javascript:alert(1)) now", "would run a script", "site"),
    # links a reader's browser does not open were published with a warning about GitHub only
    "data: link": ("see [x](data:text/html,hi) now", "browsers refuse to open a data:", "site"),
    "file: link": ("see [x](file:///etc/hosts) now", "on the reader's own machine", "site"),
    "vbscript: link": ("see [x](vbscript:msgbox) now", "no browser runs VBScript", "site"),
    # a note written in Zotero or Obsidian links the author's own library or vault
    "zotero: link": ('"grow large" ([Vaswani, p. 4](zotero://select/library/items/AB12CD34))',
                     "the author's own Zotero library", "site"),
    "obsidian: link": ("see [x](obsidian://open?vault=ML&file=Attention) now",
                       "the author's own Obsidian vault", "site"),
    "link with no host": ("see [x](https:///page) now", "names no site after 'https://'",
                          "site"),
    # GitHub's inline math goes through the checks of `$…$`
    "invalid TeX in GitHub's inline math": ("where $`\\frac{a}`$ is", "invalid TeX", "math"),
    "empty GitHub inline math": ("where $` `$ is", "empty formula", "page"),
    "space before the closing dollar": ("where $x $ is", "closing '$' follows", "page"),
    "Liquid tag": ("see {% post_url 2010-07-21-name %} here", "Liquid", "page"),
    "Hugo shortcode": ('see {{< figure src="x.png" >}} here', "Hugo shortcode", "page"),
    "include": ('see {% include "footer.html" %} here', "would read another file", "page"),
    # al-folio's collapsible tag and Jekyll's address filters, as a pasted post holds them
    "al-folio details": ("{% details More %}\nhidden\n{% enddetails %}",
                         "write a box, '/// details | Title'", "page"),
    "Jekyll filter": ("see [x]({{ '/a.html' | relative_url }}) now",
                      "'relative_url' is a Jekyll (Liquid) filter", "page"),
    # MDX (JSX) components, as in the Hugging Face course's sources: GitHub hides them, this
    # Markdown would publish them as typed (the quiz's props, JavaScript, as a paragraph)
    "MDX component": ('see <Youtube id="ftWlj4FBHTg"/> here', "MDX", "page"),
    "MDX component's end tag": ("the tip </Tip> here", "MDX", "page"),
    "Svelte block": ("the {#if fw === 'pt'} PyTorch {:else} TensorFlow {/if} here", "Svelte",
                     "page"),
    # any mistake inside two braces says what the text knows there and how to write braces
    "JSX object attribute": ("a <span style={{color: 'red'}}>red</span> word", "MDX's (JSX's)",
                             "page"),
    "Vue interpolation": ("the title {{ $frontmatter.title }} here", "Vue's", "page"),
    # a quoted string between two braces printed its words, silently (GitHub shows it as typed)
    "interpolated text": ('the badge {{ "v2" }} here', "quoted string between two braces",
                          "page"),
    "interpolated joined text": ("the badge {{ 'v' ~ '2' }} here", "would show 'v2'", "page"),
    # one '}' too many after a tag's braces (Handlebars' triple braces): Jinja printed it
    # beside the number ('2.01}'), silently
    "brace after a quote": ("the SD {{ spread.sd_small | fixed(2) }}} here", "one '}' too many",
                            "page"),
    "brace after a claim": ('it holds.{{ claim("a.b") }}} here', "one '}' too many", "page"),
    "brace after a statement": ("a {% if true %}b{% endif %}} here", "one '}' too many", "page"),
    "unexpected character in a quote": ("the SD {{ spread.sd_small ? }} here",
                                        "a quote is written {{ name | fixed(2) }}", "page"),
    "unexpected token in a quote": ("the SD {{ spread.sd_small | sig(3) | }} here",
                                    "for literal braces", "page"),
    # another tool's double braces and tags, as pasted Logseq pages and Wikipedia articles
    # hold them, were told as a template's syntax error or a Hugging Face component
    "Logseq macro": ("see {{embed ((6475a1b2-3c4d-4e5f-8a9b-0c1d2e3f4a5b))}} here",
                     "Logseq (Roam) macro", "page"),
    "MediaWiki template": ("see {{cite journal |last=Vaswani |year=2017}} here",
                           "MediaWiki (Wikipedia) template", "page"),
    "MediaWiki template alone": ("see {{Reflist}} here", "MediaWiki (Wikipedia) template",
                                 "page"),
    # mdBook's directive in prose was told only as a template's syntax error ("unexpected
    # char '#'"), with the advice about quotes and literal braces
    "mdBook include": ("see {{#include ../notes/scaling.md}} here", "mdBook's directive",
                       "page"),
    "MediaWiki reference": ("see<ref>Vaswani et al., 2017.</ref> here",
                            "MediaWiki's (Wikipedia's) reference", "page"),
    # TeX in MediaWiki's <math> reached the page as typed, or as "'}}' left in the text"
    "MediaWiki formula": ("where <math>\\frac{q}{\\sqrt{d_k}}</math> is",
                          "write '$\\frac{q}{\\sqrt{d_k}}$'", "page"),
    "TeX outside a formula": ("so \\frac{q \\cdot k}{\\sqrt{d_k}} here",
                              "TeX outside a formula", "page"),
    # a BibTeX accent in a name pasted from a citation was told only to quote a result or
    # write its braces apart, which shows '{\\"{u} }' to the reader; then each was told to
    # write its example's letter, 'ü' (for 'Jos{\\'{e}}' too): now the letter it writes
    "BibTeX accent": ('by Ana Sch{\\"{o}}n et al. here', "write the letter itself, '\u00f6'",
                      "page"),
    "BibTeX accent, apostrophe": ("by Jos{\\'{e}} et al. here",
                                  "write the letter itself, '\u00e9'", "page"),
}
BLOCK: dict[str, tuple[str, str, str]] = {
    # a Zhihu or CodeCogs formula picture as a paragraph of its own was told to become a link
    "formula picture as a figure": ("![d_k](https://www.zhihu.com/equation?tex=%5Csqrt%7Bd_k%7D)",
                                    "write the formula as math, $\\sqrt{d_k}$", "page"),
    "Zhihu display formula picture": ("![f](https://www.zhihu.com/equation?tex=a%3Db+%5C%5C)",
                                      "between two '$$' lines, without that '\\\\': '$$', "
                                      "'a=b', '$$'", "page"),
    "Yuque formula picture": ("![img](https://cdn.nlark.com/yuque/__latex/2dddc128ab24d074409d6a"
                              "dbc51398f3.svg)", "a formula drawn as a picture by Yuque", "page"),
    "picture size": ("![a](https://example.org/x.png =150x150)", "'=150x150' after its "
                     "address is Markdown Nice's picture size", "page"),
    "figure with a size": ("![A chart](walk.svg =50%x \"Caption.\")", "'=50%x' after its "
                           "address is Markdown Nice's picture size", "page"),
    # Typora's pasted picture alone on its line was only 'not a figure name', never told that
    # the file is on the author's machine (the same picture in a sentence was)
    "windows path picture as a figure": (
        "![x](C:\\Users\\me\\AppData\\Roaming\\Typora\\typora-user-images\\a.png)",
        "a file on your own machine", "page"),
    "windows path picture as a figure, forward slashes": (
        "![x](D:/notes/assets/a.png \"A caption.\")", "a file on your own machine", "page"),
    "Typora's macOS picture as a figure": (
        "![x](/Users/me/Library/Application Support/typora-user-images/image-1.png)",
        "Typora's copy of a pasted picture", "page"),
    "heading without id": ("## A heading", "no explicit id", "page"),
    "id with a space": ("## A heading {#bars note}", "an id has no spaces", "page"),
    "figure not made": ("![A chart](spred_hist.svg \"Caption.\")", "did you mean 'spread_hist'",
                        "page"),
    "figure without alt": ("![](spread_hist.svg \"Caption.\")", "no alt text", "page"),
    "figure without caption": ("![A chart](spread_hist.svg)", "has no caption", "page"),
    "figure not made, its alt quoting a result": (
        "![SD {{ spread.sd_small | fixed(2) }}](spred_hist.svg \"C.\")", "did you mean", "page"),
    "formula in alt text": ("![The SD of $q \\cdot k$](spread_hist.svg \"C.\")",
                            "alt text holds the formula $q \\cdot k$", "page"),
    "unclosed fence": ("```python\nx = 1", "never closed", "page"),
    "fence left open before another": ("```python\nx = 1\n\n```reproduce\ndemo\n```",
                                       "not closed before line", "page"),
    "unclosed display formula": ("$$\n\\frac{a}{b}", "not closed", "page"),
    # GitHub's display math goes through the checks of `$$…$$`
    "invalid TeX in a math fence": ("```math\n\\frac{a}\n```", "invalid TeX", "math"),
    "empty math fence": ("```math\n```", "empty display formula", "page"),
    "unknown reproduce box": ("```reproduce\ndemx\n```", "did you mean 'demo'", "page"),
    "heading without a space or id": ("##Heading", "no explicit id", "page"),
    # a hashtag (a paragraph on GitHub) is a level-1 heading to Python-Markdown
    "a hashtag at a line's start": ("#hashtag is text.", "write '\\#hashtag'", "page"),
    "setext heading without id": ("A heading\n---------", "no explicit id", "page"),
    "unclosed HTML comment": ("<!-- TODO: cite\nthe paper", "never closed", "page"),
    "unclosed template comment": ("{# TODO: cite\nthe paper", "never closed", "page"),
    "MDX component over several lines": (
        '<CourseFloatingBanner\n    chapter={1}\n    classNames="absolute z-10"\n/>', "MDX",
        "page"),
    "MDX component around Markdown": ("<Tip>\n\nA hint.\n\n</Tip>", "MDX", "page"),
    "Svelte blocks around Markdown": ("{#if fw === 'pt'}\n\nPyTorch.\n\n{:else}\n\nTF.\n\n{/if}",
                                      "Svelte", "page"),
    "MkDocs admonition with math": ('??? note "Why"\n\n    The SD is $\\sqrt{d}$.',
                                    "MkDocs' admonition", "page"),
    "MkDocs content tab with math": ('=== "NumPy"\n\n    The SD is $\\sqrt{d}$.',
                                     "an MkDocs content tab", "page"),
}


def indent(text: str, n: int) -> str:
    return "\n".join(" " * n + line for line in text.split("\n"))


def place(position: str, fault: str, block: bool, unclosed: bool = False) -> str | None:
    """An article body with `fault` at `position`; None where Markdown cannot hold it."""
    if position == "start":
        return f"{fault}\n\nParagraph two.\n\nParagraph three.\n"
    if position == "middle":
        return f"Paragraph one.\n\n{fault}\n\nParagraph three.\n"
    if position == "end":
        return f"Paragraph one.\n\nParagraph two.\n\n{fault}\n"
    if position == "list":
        if block:
            return f"Paragraph one.\n\n- first item\n- second item\n\n{indent(fault, 4)}\n"
        return f"Paragraph one.\n\n- first item\n- second: {fault}\n- third item\n"
    if position == "footnote":
        if block:
            return f"Text[^f].\n\n[^f]: The note.\n\n{indent(fault, 4)}\n"
        return f"Text[^f].\n\n[^f]: The note: {fault}\n"
    if position == "box":
        end = "" if unclosed else "\n///\n"    # an unclosed fence would swallow the `///`
        return f"Paragraph.\n\n/// details | A box\n    attrs: {{id: bx}}\n\n{fault}\n{end}"
    if position == "table":
        return None if block else f"Paragraph.\n\n| a | b |\n|---|---|\n| 1 | {fault} |\n"
    raise ValueError(position)


POSITIONS = ("start", "middle", "end", "list", "footnote", "box", "table")
CASES = [(name, pos, *spec, False) for name, spec in INLINE.items() for pos in POSITIONS] + \
        [(name, pos, *spec, True) for name, spec in BLOCK.items() for pos in POSITIONS
         if place(pos, spec[0], True) is not None]
# where a block fault cannot be what it is (a box would close an unclosed fence's box first:
# its error is the box's), the check below accepts the box's own error at the same line
BOX_SWALLOWS = {"unclosed fence", "unclosed display formula"}


@pytest.fixture(scope="module")
def katex() -> Any:
    renderer = site_renderer()   # the engine the build uses, from the registry
    yield renderer
    renderer.close()


def run(tmp_path: Path, body: str, stage: str, katex: Any) -> None:
    built = page(tmp_path, body, RESULTS, figures=["spread_hist", "walk"])
    if stage == "math":
        typeset([built], katex)
    elif stage == "site":
        check_site(Site(files={"en/index.html": built.body.encode("utf-8")}), [built],
                   "https://site.example/")


@pytest.mark.parametrize("name, position, fault, says, stage, block", CASES,
                         ids=[f"{c[0]}@{c[1]}" for c in CASES])
def test_the_message_names_the_line_of_the_fault(tmp_path: Path, katex: Any, name: str,
                                                 position: str, fault: str, says: str,
                                                 stage: str, block: bool) -> None:
    body = place(position, fault, block, unclosed=name in BOX_SWALLOWS)
    assert body is not None
    first = fault.split("\n")[0]
    line = BODY_START + next(i for i, text in enumerate(body.split("\n")) if first in text)
    with pytest.raises(BuildError) as e:
        run(tmp_path, body, stage, katex)
    path = (tmp_path / "index.md").as_posix()
    if position == "box" and name in BOX_SWALLOWS and "box" in e.value.message:
        line = BODY_START + 2
    assert str(e.value).startswith(f"{path}:{line}: "), (name, position, str(e.value))
    assert says in e.value.message, str(e.value)


def error(tmp_path: Path, body: str, stage: str = "page", katex: Any = None,
          front: Callable[[str], str] | None = None) -> BuildError:
    with pytest.raises(BuildError) as e:
        run(tmp_path, body, stage, katex)
    return e.value


@pytest.mark.parametrize("body, written", [
    ("## Where it goes\n", "## Where it goes {#some-id}"),
    ("### Where it goes\n", "### Where it goes {#some-id}"),
    ("Where it goes\n-------------\n", "## Where it goes {#some-id}"),
    # its id's '}' lost: the words and the id, closed (it said '## Where {#where {#some-id}')
    ("## Where it goes {#where\n", "## Where it goes {#where}"),
    # a brace or hash typed full-width (a Chinese input method): it said to write the words
    # with the full-width id still in them, '## Where \uff5b#where} {#some-id}'
    ("## Where it goes \uff5b#where}\n", "## Where it goes {#where}"),
    ("## Where it goes {#where\uff5d\n", "## Where it goes {#where}"),
    ("## \u54ea\u91cc\uff5b\uff03where\uff5d\n", "## \u54ea\u91cc {#where}"),
], ids=["atx", "level 3", "setext", "id not closed", "full-width brace",
        "full-width closing brace", "full-width braces and hash"])
def test_a_heading_without_id_is_told_the_heading_to_write(tmp_path: Path, body: str,
                                                           written: str) -> None:
    """The heading to write is the author's own, with an id: copied as it is, it only needs
    the id chosen (it said '## Its title {#some-id}')."""
    e = error(tmp_path, "Text.\n\n" + body)
    assert "no explicit id" in e.message and f"'{written}'" in e.message, e.message


@pytest.mark.parametrize("heading", ["##", "## ", "###### ", "## {#x}", "## \u200b\u2060"],
                         ids=["bare", "space", "level 6", "only an id", "invisible"])
def test_a_heading_without_words_is_told_to_write_words_not_to_add_an_id(
        tmp_path: Path, heading: str) -> None:
    """An empty heading has no words to link: it was told "write it as '##  {#some-id}'"
    (for `## {#x}`, "'## {#x} {#some-id}'"), a heading still without words."""
    e = error(tmp_path, "Text.\n\n" + heading + "\n\nMore text.\n")
    assert e.line == BODY_START + 2 and "has no words" in e.message, str(e)
    assert "Its words {#" in e.message and "delete the line" in e.message, str(e)
    assert "#x" not in heading or "{#x}'" in e.message, str(e)


@pytest.mark.parametrize("line", ["####### Seven", "####### Seven {#seven}", "######## Eight"])
def test_seven_hashes_are_told_that_headings_stop_at_six(tmp_path: Path, line: str) -> None:
    """GitHub reads seven '#' as a paragraph, Python-Markdown as a level-6 heading '# …':
    it was told "write it as '###### # Seven {#some-id}'" (or, with an id, that the section
    is only in one language)."""
    e = error(tmp_path, "## One {#one}\n\nText.\n\n" + line + "\n\nMore text.\n")
    words = line.lstrip("#").replace(" {#seven}", "").strip()
    assert e.line == BODY_START + 4 and "six levels at most" in e.message, str(e)
    assert f"'### {words} {{#" in e.message and "# #" not in e.message, str(e)


def _converted(tmp_path: Path, bodies: dict[str, str]) -> BuildError:
    """The error of the pages stage converting each language's article (`bodies`, the first
    language first) as the build does, from content/<lang>/index.md under `tmp_path`."""
    from types import SimpleNamespace

    from helpers import FRONT, strings

    from sqrtdk.cache import Cache
    from sqrtdk.figures_stage import DrawnFigures
    from sqrtdk.options import PROJECT_ROOT, BuildOptions
    from sqrtdk.pages_stage import convert_pages
    for lang, body in bodies.items():
        (tmp_path / "content" / lang).mkdir(parents=True)
        (tmp_path / "content" / lang / "index.md").write_text(FRONT + body, encoding="utf-8")
    opts = BuildOptions.for_project(tmp_path, node_modules=PROJECT_ROOT / "node_modules",
                                    cache_dir=None)
    inputs = SimpleNamespace(settings=SimpleNamespace(languages=list(bodies)),
                             strings={lang: strings(lang) for lang in bodies})
    with pytest.raises(BuildError) as e:
        convert_pages(opts, Cache(None), inputs, RESULTS, b"", DrawnFigures())  # type: ignore[arg-type]
    return e.value


_OUTLINE = "## {} {{#one}}\n\nText.\n\n{}\n\nText.\n\n### {} {{#three}}\n\nText.\n"


@pytest.mark.parametrize("missing_in", ["en", "zh"])
def test_a_heading_without_id_is_told_the_id_the_other_language_gives_it_there(
        tmp_path: Path, missing_in: str) -> None:
    """Ids are shared by the languages: a heading without one, where the other language's
    article has a heading at the same place (the headings around it agree), is told that
    heading's id and where it is (it was told '{#some-id}', though the id was known)."""
    with_id = {"zh": _OUTLINE.format("\u4e00", "## \u4e8c {#paper-3}", "\u4e09"),
               "en": _OUTLINE.format("One", "## Two {#paper-3}", "Three")}
    title = "\u4e8c" if missing_in == "zh" else "Two"
    bodies = {**with_id, missing_in: with_id[missing_in].replace(" {#paper-3}", "")}
    e = _converted(tmp_path, bodies)
    other = "en" if missing_in == "zh" else "zh"
    from sqrtdk.errors import where
    there = where(tmp_path / "content" / other / "index.md", BODY_START + 4)
    assert e.path.parts[-2] == missing_in and e.line == BODY_START + 4, str(e)
    assert f"'## {title} {{#paper-3}}'" in e.message, str(e)
    assert f"the {other} article's heading here ({there}) has {{#paper-3}}" in e.message, str(e)


@pytest.mark.parametrize("outline", [
    _OUTLINE.format("One", "## Two", "Three") + "\n## Four {#four}\n\nText.\n",
    _OUTLINE.format("One", "## Two", "Three").replace("{#three}", "{#other}"),
], ids=["a heading more", "another id around it"])
def test_a_heading_without_id_is_told_no_other_language_s_id_where_the_headings_differ(
        tmp_path: Path, outline: str) -> None:
    """Where the headings around it do not agree, the place is not known: no id is guessed."""
    e = _converted(tmp_path, {"zh": _OUTLINE.format("\u4e00", "## \u4e8c {#paper-3}",
                                                    "\u4e09"), "en": outline})
    assert "'## Two {#some-id}'" in e.message and "paper-3" not in e.message, str(e)


def test_a_duplicate_id_names_its_second_occurrence(tmp_path: Path) -> None:
    e = error(tmp_path, "## A {#x}\n\nText.\n\n## B {#x}\n")
    assert e.line == BODY_START + 4 and "duplicate id 'x'" in e.message
    assert f"the other is at line {BODY_START}" in e.message


def test_a_figure_shown_twice_names_both_lines(tmp_path: Path) -> None:
    fig = '![A chart](spread_hist.svg "Caption.")'
    e = error(tmp_path, f"{fig}\n\nText.\n\n{fig}\n")
    assert e.line == BODY_START + 4 and f"the other is at line {BODY_START}" in e.message
    assert "](#fig-spread-hist)" in e.message       # how to point to it again


@pytest.mark.parametrize("body, tag", [
    ('<div id="app">\n  <button @click="count++">Count is: {{ count }}</button>\n</div>\n',
     "{{ count }}"),
    ('<ul x-data="{ items: [] }">\n  <li>{{ item.name }}</li>\n</ul>\n', "{{ item.name }}"),
    ("The count {{ count }} here.\n", "{{ count }}"),
], ids=["Vue in raw HTML", "a name's field in raw HTML", "in text"])
def test_another_template_s_interpolation_is_told_what_braces_do_here(
        tmp_path: Path, body: str, tag: str) -> None:
    """A Vue (Alpine, Angular) template's `{{ count }}`, as a pasted component's HTML holds
    it, was told only as an unknown result ("'count' is undefined; there are no result
    groups"), with no word on what '{{ … }}' is here nor how to show braces as typed."""
    e = error(tmp_path, "Intro.\n\n" + body)
    line = BODY_START + 2 + next(i for i, x in enumerate(body.split("\n")) if tag in x)
    assert str(e).startswith(f"{(tmp_path / 'index.md').as_posix()}:{line}: "), str(e)
    assert f"'{tag}' is read as a quote" in e.message and "Vue's" in e.message, e.message
    literal = f"&#123;&#123; {tag[2:-2].strip()} &#125;&#125;"
    assert f"'{literal}'" in e.message, e.message
    # the braces written as the message says: shown as typed, without a message
    fixed = page(tmp_path, ("Intro.\n\n" + body).replace(tag, literal), RESULTS).body
    assert literal in fixed


def test_a_quote_missing_a_brace_says_how_a_quote_is_written(tmp_path: Path) -> None:
    e = error(tmp_path, "One.\n\nThe SD {{ spread.sd_small | fixed(2) } here.\n")
    assert e.line == BODY_START + 2 and "two braces on each side" in e.message


def test_a_note_defined_twice_names_the_second_definition(tmp_path: Path) -> None:
    e = error(tmp_path, "A[^a].\n\n[^a]: One.\n[^a]: Two.\n")
    assert e.line == BODY_START + 3 and "defined twice" in e.message


def test_an_unreferenced_note_names_its_definition(tmp_path: Path) -> None:
    e = error(tmp_path, "A[^a].\n\n[^a]: Used.\n\n[^b]: Not used.\n")
    assert e.line == BODY_START + 4 and "never referenced" in e.message


@pytest.mark.parametrize("link, definition", [("[x](#paper-)", ""),
                                              ("[x][r]", "\n[r]: #paper-\n")],
                         ids=["inline", "reference"])
def test_a_missing_anchor_that_begins_an_id_names_the_link_not_the_heading(
        tmp_path: Path, link: str, definition: str) -> None:
    body = f"## One {{#paper-1}}\n\nText.\n\nSee {link} here.\n{definition}"
    written = next(i for i, text in enumerate(body.split("\n"))
                   if "(#paper-)" in text or "]: #paper-" in text)
    e = error(tmp_path, body, stage="site")
    assert e.line == BODY_START + written and "no anchor '#paper-'" in e.message, str(e)


def test_a_hashtag_heading_is_at_its_own_line_when_its_words_are_in_a_sentence_above(
        tmp_path: Path) -> None:
    """GitHub reads `#hashtag is text.` as a paragraph, so the heading's line is found by its
    words: not in the sentence above that holds them after an 'A #'."""
    body = "A #hashtag is text.\n\n#hashtag is text.\n"
    e = error(tmp_path, body)
    assert e.line == BODY_START + 2 and "write '\\#hashtag'" in e.message, str(e)


@pytest.mark.parametrize("link, says", [
    ("#Batch-Two", "did you mean '#batch-two'? (ids are case-sensitive)"),
    ("#playground-for-github-markdown", "did you mean '#playground'? (the heading "
                                        "'Playground for GitHub Markdown' has the id"),
    ("#batch-tow", "did you mean '#batch-two'?"),
    ("#zzzz", "link to an id the page has"),
    # copied from GitHub's rendered page, which puts 'user-content-' before every id
    ("#user-content-batch-two", "did you mean '#batch-two'? (GitHub's pages put "),
    ("#user-content-playground-for-github-markdown", "did you mean '#playground'? (GitHub's "
                                                     "pages put "),
], ids=["case", "GitHub's slug of a heading", "close", "nothing close", "GitHub's prefix",
        "GitHub's prefix and slug"])
def test_a_missing_anchor_suggests_the_id_meant(tmp_path: Path, link: str, says: str) -> None:
    body = ("## Playground for GitHub Markdown {#playground}\n\nText.\n\n"
            "### Batch two {#batch-two}\n\nText.\n\n"
            f"See [it]({link}) and <a href=\"{link}\">it</a>.\n")
    e = error(tmp_path, body, stage="site")
    assert e.line == BODY_START + 8 and f"no anchor '{link}'; {says}" in e.message, str(e)


@pytest.mark.parametrize("link, here", [
    ("http://localhost:8000/en/", True), ("http://127.0.0.1:8000/", True),
    ("http://192.168.1.20/notes", True), ("http://dev.localhost/", True),
    ("https://arxiv.org/abs/1706.03762", False), ("http://localhost.example.org/", False),
])
def test_a_link_that_works_only_on_the_author_s_machine_is_warned_at_its_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, link: str, here: bool) -> None:
    """A reader following a link to localhost or a private address reaches nothing (the new
    author's trial: `http://localhost:8000/` was accepted without comment)."""
    body = f"Text.\n\nOpen [the page]({link}) to see it.\n"
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        run(tmp_path, body, "site", None)
    warned = [r.getMessage() for r in caplog.records if "only works on your own" in r.getMessage()]
    if not here:
        assert not warned, warned
        return
    path = (tmp_path / "index.md").as_posix()
    assert len(warned) == 1 and warned[0].startswith(f"{path}:{BODY_START + 2}: "), warned
    assert f"(`{link}`)" in warned[0], warned


@pytest.mark.parametrize("body, says", [
    ("First $\\E[y]$ here.\n\n$$\n\\newcommand{\\E}{\\mathbb{E}}\n\\E[x]\n$$\n",
     "defined later, at line"),
    ("See $x = 1 \\label{eq:x}$ here.\n", "\\tag{"),
], ids=["macro used before its definition", "label"])
def test_a_latex_habit_katex_refuses_gets_a_hint(tmp_path: Path, katex: Any, body: str,
                                                 says: str) -> None:
    e = error(tmp_path, body, stage="math", katex=katex)
    assert "invalid TeX" in e.message and says in e.message, str(e)


@pytest.mark.parametrize("body, shown", [
    ("Where $\\frac{a}$ is.\n", "$\\frac{a}$"),
    ("Where\n\n$$\n\\frac{a}\n$$\n", "$$\\frac{a}$$"),
    ("Where\n\n\\[\n\\frac{a}\n\\]\n", "$$\\frac{a}$$"),
    ("Where $" + "x+" * 50 + "\\frac{a}$ is.\n", "$" + "x+" * 39 + "x…$"),
], ids=["inline", "display", "LaTeX display", "long"])
def test_invalid_tex_is_quoted_as_written_inline_or_display(tmp_path: Path, katex: Any,
                                                            body: str, shown: str) -> None:
    """The formula KaTeX refuses is quoted with the delimiters of its kind (a display
    formula is not shown as an inline one), and a long one is cut with an ellipsis, not in
    the middle of a command with nothing to say that it goes on."""
    e = error(tmp_path, body, stage="math", katex=katex)
    assert e.message.startswith(f"invalid TeX {shown}: "), e.message


@pytest.mark.parametrize("body, says, wrong", [
    ("Costs $\\$5 + \\frac{a}$ here.\n", "invalid TeX", "left open"),    # TeX's dollar sign
    # two prices whose dollar signs pair up, TeX that KaTeX refuses (a price's '$' closed by
    # a formula's is the lexer's: test_lexer)
    ("It costs $5 & tax, or 6$ here.\n", "write '\\$'", "left open"),
], ids=["escaped dollar", "prices around words"])
def test_a_dollar_hint_fits_the_dollars_written(tmp_path: Path, katex: Any, body: str,
                                                says: str, wrong: str) -> None:
    e = error(tmp_path, body, stage="math", katex=katex)
    assert says in e.message and wrong not in e.message, str(e)


# (before the closing '$': the space, the line break; the '$' that closes nothing is on the
# formula's line, or the next; what the message names)
CLOSING_AFTER = {"space": (" $", 2, "space"), "line break": ("\n$", 3, "line break")}


@pytest.mark.parametrize("lang, sentence", [
    ("zh", "\u8bbe $\\gamma \\in [0,1]{gap} \u662f\u6298\u6263\u56e0\u5b50\uff0c$x$ \u7684\u503c\n"),
    ("en", "Let $\\gamma \\in [0,1]{gap} be the discount and $x$ the state.\n"),
], ids=["zh", "en"])
@pytest.mark.parametrize("before", CLOSING_AFTER)
def test_a_gap_before_a_closing_dollar_is_named_on_either_language_s_page(
        tmp_path: Path, katex: Any, lang: str, sentence: str, before: str) -> None:
    """A space or a line break before the closing '$' (`$x $`, `$x` + new line + `$`): the
    formula runs on to the next formula's '$'; the message names the gap and the formula to
    write, not KaTeX's failure and a '$' left open."""
    gap, line, named = CLOSING_AFTER[before]
    with pytest.raises(BuildError) as e:
        typeset([page(tmp_path, "One.\n\n" + sentence.format(gap=gap), RESULTS, lang=lang)],
                katex)
    assert e.value.line == BODY_START + line, str(e.value)
    assert named in e.value.message, str(e.value)
    assert "write '$\\gamma \\in [0,1]$'" in e.value.message, str(e.value)
    assert "left open" not in e.value.message, str(e.value)


def test_a_figure_inside_a_sentence(tmp_path: Path) -> None:
    e = error(tmp_path, "One.\n\nSee ![a](walk.svg) here.\n")
    assert e.line == BODY_START + 2 and "inside a sentence" in e.message


@pytest.mark.parametrize("alone", [True, False], ids=["alone", "in a sentence"])
def test_a_figure_wrapped_in_a_link(tmp_path: Path, alone: bool) -> None:
    fig = '[![A walk](walk.svg "The walk.")](https://example.org/walk)'
    e = error(tmp_path, "One.\n\n" + (fig if alone else f"See {fig} here.") + "\n")
    assert e.line == BODY_START + 2 and "wrapped in a link" in e.message, str(e)
    assert "remove the link" in e.message and "inside a sentence" not in e.message


def test_a_figure_twice(tmp_path: Path) -> None:
    e = error(tmp_path, '![a](walk.svg "C.")\n\nText.\n\n![b](walk.svg "C.")\n')
    assert e.line == BODY_START + 4 and "appears twice" in e.message


def test_a_box_without_an_id(tmp_path: Path) -> None:
    e = error(tmp_path, "One.\n\n/// details | Why?\n\nText.\n///\n")
    assert e.line == BODY_START + 2 and "without an id" in e.message


def test_a_closing_box_marker_that_closes_nothing(tmp_path: Path) -> None:
    e = error(tmp_path, "One.\n\n///\n")
    assert e.line == BODY_START + 2 and "closes no box" in e.message


@pytest.mark.parametrize("opener", ["    /// details | Why\n        attrs: {id: why}\n",
                                    "\t/// details | Why\n",
                                    "    /// note | Why\n"],
                         ids=["four spaces", "a tab", "another kind of box"])
def test_a_box_opener_indented_into_code_is_told_at_its_line(tmp_path: Path,
                                                              opener: str) -> None:
    """A `/// details` line indented by four spaces is an indented code block (here and on
    GitHub), so the box was told at its closing line, '///' closing no box, far from the
    slip: it is told at the opening line, with the indent to remove."""
    e = error(tmp_path, f"One.\n\n{opener}\nText inside.\n\nMore.\n///\n\nEnd.\n")
    assert e.line == BODY_START + 2, str(e)
    assert "indent" in e.message and "code" in e.message and "Why" in e.message, str(e)



@pytest.mark.parametrize("front, line, says", [
    ("---\ntitle: T\n---\n", 1, "description"),
    ("---\ntitle: [unclosed\ndescription: D\n---\n", 3, "not valid YAML"),
    ("---\ntitle: Why $\\sqrt{d}$\ndescription: D\n---\n", 2, "plain text"),
    ("---\ntitle: Why $d_k$\ndescription: D\n---\n", 2, "plain text"),
    ("---\ntitle: T\ndescription: Why divide by \\sqrt{d_k}\n---\n", 3, "plain text"),
    ("title: T\n", 1, "missing front matter"),
    ("Title: T\nDate: 2023-04-18\nSummary: S\n", 1, "(Pelican's, MultiMarkdown's) are not read"),
    ('+++\ntitle = "T"\ndescription = "D"\n+++\n', 1, "(Hugo's TOML) is not read here"),
    ("<!-- a comment -->\n---\ntitle: T\ndescription: D\n---\n", 1,
     "the front matter must be the first thing in the file (found at line 2); move the comment"),
    ("A line.\n\n---\ntitle: T\ndescription: D\n---\n", 1,
     "the front matter must be the first thing in the file (found at line 3); move the text"),
    ("---\ntitel: T\ndescription: D\n---\n", 2, "'titel' here looks like it"),
    ("---\ntitle: Why: a question\ndescription: D\n---\n", 2, "in double quotes"),
    ("---\ntitle: T {{ spread.nope | fixed(2) }}\ndescription: D\n---\n", 2, "no result"),
    # a title or description that is there but no text was told to add the line it is on
    ("---\ntitle:\ndescription: D\n---\n", 2, "front matter 'title:' is empty"),
    ("---\ntitle: T\ndescription: ''\n---\n", 3, "front matter 'description:' is empty"),
    # a title of zero-width spaces was published as an empty-looking <title> and heading
    ('---\ntitle: "\u200b\u2060"\ndescription: D\n---\n', 2, "only invisible characters"),
    ("---\ntitle: [a, b]\ndescription: D\n---\n", 2, "'title:' is not text (YAML reads"),
    ("---\ntitle: 2017\ndescription: D\n---\n", 2, "as a number"),
    ("---\ntitle: T\ndescription: 2020-01-01\n---\n", 3, "as a date"),
    ("---\ntitle: {a: 1}\ndescription: D\n---\n", 2, "as a table of keys"),
    # values PyYAML's constructors cannot make were tracebacks (ValueError, TypeError, ...)
    ("---\ntitle: T\ndate: 2026-13-45\ndescription: D\n---\n", 3,
     "'2026-13-45' is read as a date, but is none (month must be in 1..12)"),
    ("---\ntitle: T\ndescription: D\nupdated: 2026-02-30 10:00:00\n---\n", 4, "as a date"),
    ("---\ntitle: T\ndescription: D\nweight: !!int ten\n---\n", 4, "as a whole number"),
    ("---\ntitle: T\ndescription: D\ndraft: !!bool maybe\n---\n", 4, "as a yes/no value"),
    ("---\ntitle: T\ndescription: D\nx: !!map [1]\n---\n", 4, "expected a mapping"),
    ("---\ntitle: T\ndescription: D\n? [a, b]\n: c\n---\n", 4, "a list or table as a key"),
    ("---\ntitle: T\nx: {[1]: 2}\ndescription: D\n---\n", 3, "a list or table as a key"),
])
def test_front_matter_mistakes(tmp_path: Path, front: str, line: int, says: str) -> None:
    from helpers import resolver, strings

    from sqrtdk.web.pages import build_page
    path = tmp_path / "index.md"
    path.write_text(front + "\nText.\n", encoding="utf-8")
    with pytest.raises(BuildError) as e:
        build_page(path, strings("en"), RESULTS, resolver([]), [], lambda m: m)
    assert e.value.line == line and says in e.value.message, str(e.value)


@pytest.mark.parametrize("title, shown", [("A $5 GPU", "A $5 GPU"), ("US$ 5", "US$ 5"),
                                           ("'Cost: \\$x'", "Cost: $x")])
def test_a_dollar_sign_in_the_title_is_a_dollar_sign(tmp_path: Path, title: str,
                                                     shown: str) -> None:
    from helpers import resolver, strings

    from sqrtdk.web.pages import build_page
    path = tmp_path / "index.md"
    path.write_text(f"---\ntitle: {title}\ndescription: D\n---\n\nText.\n", encoding="utf-8")
    page = build_page(path, strings("en"), RESULTS, resolver([]), [], lambda m: m)
    assert page.meta["title"] == shown


def test_an_unused_front_matter_key_warns_at_its_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    import logging

    from helpers import resolver, strings

    from sqrtdk.web.pages import build_page
    path = tmp_path / "index.md"
    path.write_text("---\ntitle: T\nauthor: Jane Doe\ndescription: D\n---\n\nText.\n",
                    encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        build_page(path, strings("en"), RESULTS, resolver([]), [], lambda m: m)
    got = [r.getMessage() for r in caplog.records if "front matter" in r.getMessage()]
    assert len(got) == 1 and "index.md:3: warning:" in got[0] and "'author:'" in got[0], got


def front_matter_warnings(tmp_path: Path, caplog: pytest.LogCaptureFixture,
                          front: str) -> list[str]:
    import logging

    from helpers import resolver, strings

    from sqrtdk.web.pages import build_page
    path = tmp_path / "index.md"
    path.write_text(f"---\n{front}---\n\nText.\n", encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        build_page(path, strings("en"), RESULTS, resolver([]), [], lambda m: m)
    return [r.getMessage() for r in caplog.records]


@pytest.mark.parametrize("key, value, says", [
    ("title", "A *b* c", "(*b*)"), ("title", "A __b__ c", "(__b__)"),
    ("title", "A `b` c", "(`b`)"), ("title", "A [b](c) d", "([b](c))"),
    ("title", "A &mdash; b", "character itself (— for &mdash;)"),
    ("description", "A &#215; b", "character itself (× for &#215;)"),
    ("description", "A <em>b</em> c", "(<em>, </em>)"),
])
def test_markup_in_the_title_or_description_warns_at_its_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, key: str, value: str,
        says: str) -> None:
    fields = {"title": "T", "description": "D", key: value}
    front = "".join(f"{k}: \"{v}\"\n" for k, v in fields.items())
    got = front_matter_warnings(tmp_path, caplog, front)
    line = 2 + list(fields).index(key)
    assert len(got) == 1 and f"index.md:{line}: warning: the {key} holds markup" in got[0] \
        and says in got[0] and "plain text" in got[0], got


@pytest.mark.parametrize("value", ["A snake_case name", "2*3*4 and a < b > c", "R&D; 5 √dₖ — ×"])
def test_plain_text_in_the_title_does_not_warn(tmp_path: Path,
                                               caplog: pytest.LogCaptureFixture,
                                               value: str) -> None:
    assert front_matter_warnings(tmp_path, caplog, f"title: \"{value}\"\ndescription: D\n") \
        == []


def test_a_misspelt_front_matter_key_says_which_it_may_be(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    got = front_matter_warnings(tmp_path, caplog, "title: T\ndescription: D\ndescripton: E\n")
    assert len(got) == 1 and "index.md:4: warning: front matter 'descripton:'" in got[0] \
        and "did you mean 'description:'?" in got[0], got


def test_not_utf8_names_the_line(tmp_path: Path) -> None:
    from helpers import resolver, strings

    from sqrtdk.web.pages import build_page
    path = tmp_path / "index.md"
    path.write_bytes(b"---\ntitle: T\ndescription: D\n---\nok\ncaf\xe9\n")
    with pytest.raises(BuildError) as e:
        build_page(path, strings("en"), RESULTS, resolver([]), [], lambda m: m)
    assert e.value.line == 6 and "not UTF-8" in e.value.message


def test_a_citation_missing_from_a_section_points_at_that_section_in_both_files(
        tmp_path: Path) -> None:
    from sqrtdk.errors import where
    from sqrtdk.web.checks import check_parity
    quote = "The SD {{ spread.sd_small | fixed(2) }} here."
    zh = page(tmp_path, f"## One {{#one}}\n\n{quote}\n\n## Two {{#two}}\n\n{quote}\n", RESULTS,
              lang="zh", name="zh.md")
    en = page(tmp_path, f"## One {{#one}}\n\nNo number.\n\n## Two {{#two}}\n\n{quote}\n",
              RESULTS, lang="en", name="en.md")
    with pytest.raises(BuildError) as e:
        check_parity([zh, en])
    assert e.value.line == BODY_START + 2                     # the quote in zh's section one
    assert f"{where(en.source, BODY_START)};" in e.value.message   # en's heading of section one


def _parity_error(tmp_path: Path, zh_body: str, en_body: str) -> BuildError:
    from sqrtdk.web.checks import check_parity
    zh = page(tmp_path, zh_body, RESULTS, lang="zh", name="zh.md")
    en = page(tmp_path, en_body, RESULTS, lang="en", name="en.md")
    with pytest.raises(BuildError) as e:
        check_parity([en, zh])
    return e.value


# the item's name written earlier as text (a code span, a comment): a search for the name
# would stop there; the line must be the quote's or claim's own
NAMED_FIRST = {
    "code span": "The result `{name}` is explained below.\n\n",
    "comment": "<!-- {name}: check the number -->\n\n",
}


@pytest.mark.parametrize("earlier", NAMED_FIRST)
def test_a_quoted_result_only_one_language_has_is_at_its_quote_not_at_its_name(
        tmp_path: Path, earlier: str) -> None:
    named = NAMED_FIRST[earlier].format(name="spread.n_pairs")
    en = named + "Pairs: {{ spread.n_pairs | grouped }} here.\n"
    e = _parity_error(tmp_path, "No number.\n", en)
    assert "quoted results differ" in e.message
    assert e.line == BODY_START + en.split("\n").index("Pairs: {{ spread.n_pairs | grouped }} "
                                                        "here."), str(e)


@pytest.mark.parametrize("earlier", NAMED_FIRST)
def test_a_claim_only_one_language_relies_on_is_at_its_sentence_not_at_its_name(
        tmp_path: Path, earlier: str) -> None:
    en = NAMED_FIRST[earlier].format(name="a.b") + "It holds.{{ claim(\"a.b\") }}\n"
    e = _parity_error(tmp_path, "It holds.\n", en)
    assert "claims relied on differ" in e.message
    assert e.line == BODY_START + en.split("\n").index('It holds.{{ claim("a.b") }}'), str(e)


@pytest.mark.parametrize("earlier", NAMED_FIRST)
def test_a_section_citing_a_result_more_often_is_at_the_quote_not_at_the_name(
        tmp_path: Path, earlier: str) -> None:
    quote = "The SD {{ spread.sd_small | fixed(2) }} here."
    section = "## One {#one}\n\n" + NAMED_FIRST[earlier].format(name="spread.sd_small")
    en = section + quote + "\n\n" + quote + "\n"
    e = _parity_error(tmp_path, section + quote + "\n", en)
    assert "cites the result 'spread.sd_small'" in e.message
    assert e.line == BODY_START + en.split("\n").index(quote), str(e)


def test_heading_ids_that_differ_are_at_the_heading_not_at_an_id_it_begins(
        tmp_path: Path) -> None:
    zh = "## A {#results-table}\n\nText.\n\n## B {#summary}\n\nText.\n"
    en = "## A {#results-table}\n\nText.\n\n## B {#results}\n\nText.\n"
    e = _parity_error(tmp_path, zh, en)
    assert "heading ids differ at position 2" in e.message
    assert e.line == BODY_START + 4, str(e)


def test_box_ids_that_differ_are_at_the_box_not_at_an_id_it_begins(tmp_path: Path) -> None:
    box = "/// details | {title}\n    attrs: {{id: {ident}}}\n\nText.\n///\n\n"
    zh = box.format(title="A", ident="why-not") + box.format(title="B", ident="how")
    en = box.format(title="A", ident="why-not") + box.format(title="B", ident="why")
    e = _parity_error(tmp_path, zh, en)
    assert "collapsible boxes differ at position 2" in e.message
    assert e.line == BODY_START + 7, str(e)


def test_a_heading_without_id_is_at_its_own_line_when_an_earlier_one_has_its_words(
        tmp_path: Path) -> None:
    body = "## Results {#results}\n\nText.\n\n## Results\n\nMore text.\n"
    with pytest.raises(BuildError) as e:
        page(tmp_path, body, RESULTS)
    assert "no explicit id" in e.value.message
    assert e.value.line == BODY_START + 4, str(e.value)


def test_a_formula_in_raw_html_is_at_its_own_line_when_its_tex_is_also_elsewhere(
        tmp_path: Path) -> None:
    body = "The SD is $\\sqrt{d}$.\n\n<div>\nAgain $\\sqrt{d}$.\n</div>\n"
    with pytest.raises(BuildError) as e:
        page(tmp_path, body, RESULTS)
    assert "inside raw HTML" in e.value.message and "$\\sqrt{d}$" in e.value.message
    assert e.value.line == BODY_START + 3, str(e.value)


MULTILINE = {"dollars": ("$$", "$$"), "brackets": ("\\[", "\\]"),
             "align": ("\\begin{align}", "\\end{align}")}
INSIDE = {"unknown result": ("x = {{ spread.sd_smal | fixed(2) }}", "no result", "page"),
          "undefined TeX command": ("x = \\foo{a}", "invalid TeX", "math")}


@pytest.mark.parametrize("form", MULTILINE)
@pytest.mark.parametrize("fault", INSIDE)
@pytest.mark.parametrize("where", ["top", "list"])
def test_a_fault_inside_a_formula_of_several_lines_names_its_own_line_in_one_line(
        tmp_path: Path, katex: Any, form: str, fault: str, where: str) -> None:
    opening, closing = MULTILINE[form]
    text, says, stage = INSIDE[fault]
    formula = f"{opening}\na = 1 \\\\\n{text}\n{closing}"
    body = ("Paragraph one.\n\n" + formula + "\n" if where == "top" else
            "Paragraph one.\n\n- an item\n\n" + indent(formula, 4) + "\n")
    line = BODY_START + next(i for i, t in enumerate(body.split("\n")) if text in t)
    e = error(tmp_path, body, stage, katex)
    assert e.line == line and says in e.message, str(e)
    assert "\n" not in str(e)


@pytest.mark.parametrize("front, line, says", [
    ("---\ntitle: T\ndescription: D\ntitle: U\n---\n", 4, "'title:' twice (also at line 2)"),
    ("---\ndescription: D\ntitle: T\ndescription: E\n---\n", 4, "'description:' twice"),
])
def test_a_front_matter_key_given_twice_is_an_error_at_the_second(
        tmp_path: Path, front: str, line: int, says: str) -> None:
    """YAML keeps the last of two equal keys without a word (the first title was lost)."""
    from helpers import resolver, strings

    from sqrtdk.web.pages import build_page
    path = tmp_path / "index.md"
    path.write_text(front + "\nText.\n", encoding="utf-8")
    with pytest.raises(BuildError) as e:
        build_page(path, strings("en"), RESULTS, resolver([]), [], lambda m: m)
    assert e.value.line == line and says in e.value.message, str(e.value)


@pytest.mark.parametrize("label", ["my note", "a#b", "why?"])
def test_a_note_label_an_address_cannot_hold_is_an_error(tmp_path: Path, label: str) -> None:
    """It became the note's id with a space in it (`#fn-my note`), which no link reaches."""
    body = f"Paragraph one.\n\nA claim[^{label}] here.\n\n[^{label}]: The note.\n"
    e = error(tmp_path, body)
    assert e.line == BODY_START + 2 and f"'{label}'" in e.message, str(e)
    assert "write it as '" in e.message


def test_an_id_the_page_layout_also_uses_is_an_error_at_the_heading(tmp_path: Path) -> None:
    """A heading whose id the template gives another element: two elements, one id."""
    built = page(tmp_path, "Paragraph.\n\n## Notes here {#taken}\n\nText.\n", RESULTS)
    html = '<nav id="taken"></nav>' + built.body       # the layout's element, then the article
    with pytest.raises(BuildError) as e:
        check_site(Site(files={"en/index.html": html.encode("utf-8")}), [built],
                   "https://site.example/")
    assert e.value.line == BODY_START + 2 and "'taken' is used twice" in e.value.message


@pytest.mark.parametrize("first, second", [
    ('<div id="x">A.</div>', '<div id="x">B.</div>'),
    ('<div id="x">A.</div>', 'A <span id="x">word</span> here.'),
    ("## A heading {#x}", '<div id="x">B.</div>'),
    ('<div id="x">A.</div>', "## A heading {#x}"),
    ("A note[^x].\n\n[^x]: The note.", '<p id="fn-x">B.</p>'),
    ('<div id="x">A.</div>', '<div class="c">\n\n            <span id="x"></span>\n</div>'),
    ('<svg viewBox="0 0 9 9"><marker id="x"/><path d="M0 0" marker-end="url(#x)"/></svg>',
     '<svg viewBox="0 0 9 9"><marker id="x"/><path d="M1 1" marker-end="url(#x)"/></svg>'),
], ids=["raw HTML twice", "raw HTML, then inline raw HTML", "a heading, then raw HTML",
        "raw HTML, then a heading", "a note, then raw HTML",
        "raw HTML, then an indented line of a raw block", "two inline SVGs' markers"])
def test_a_duplicate_id_in_raw_html_names_both_lines(tmp_path: Path, first: str,
                                                      second: str) -> None:
    """Markdown keeps raw HTML out of the tree, so an id it repeats was found only in the
    assembled page: 'index.md: the id 'x' is used twice in the page ; …', with no line (or
    at a heading's line, blaming the page's layout)."""
    body = f"{first}\n\nText.\n\n{second}\n"
    e = error(tmp_path, body)
    lines = body.split("\n")
    at = BODY_START + max(i for i, text in enumerate(lines) if 'id="' in text or "{#" in text)
    other = BODY_START + next(i for i, text in enumerate(lines)
                              if 'id="' in text or "{#" in text or text.startswith("[^"))
    assert e.line == at and "duplicate id" in e.message, str(e)
    assert f"(the other is at line {other})" in e.message and " ;" not in str(e), str(e)
    # what refers to the renamed one changes with it (an SVG's markers, as a course's three
    # inline SVGs each defined 'arrowhead')
    assert re.search(r"'url\(#(?:fn-)?x\)'", e.message), e.message


def test_a_raw_html_id_the_page_layout_also_uses_is_an_error_at_its_tag(tmp_path: Path) -> None:
    built = page(tmp_path, 'Paragraph.\n\n<div id="taken">A.</div>\n\nText.\n', RESULTS)
    html = '<nav id="taken"></nav>' + built.body       # the layout's element, then the article
    with pytest.raises(BuildError) as e:
        check_site(Site(files={"en/index.html": html.encode("utf-8")}), [built],
                   "https://site.example/")
    assert e.value.line == BODY_START + 2 and "'taken' is used twice" in e.value.message
    assert " ;" not in e.value.message, e.value.message


@pytest.mark.parametrize("box, says", [
    ("/// details | Why?\n    attrs: {id: why}\n\nText.\n////\n\nThe rest of the article.\n",
     "does not close the '/// details' box opened at line"),
    ("//// details | Why?\n    attrs: {id: why}\n\nText.\n///\n\nThe rest of the article.\n",
     "write '////'"),
], ids=["four under three", "three under four"])
def test_a_box_closed_with_another_number_of_slashes_stops_at_the_close(
        tmp_path: Path, box: str, says: str) -> None:
    e = error(tmp_path, "Intro.\n\n" + box)
    assert e.line == BODY_START + 6 and says in e.message, str(e)


@pytest.mark.parametrize("body", [
    '## The "why" of it\n\nText.\n',
    '## It\'s <em>the</em> "ruler"\n',
    '/// note | "Why" it\'s so\n    attrs: {id: why}\n\nText.\n///\n',
    'Text with "quotes" and a [^nope] reference.\n',
    '<div title="a &amp; b">Raw "HTML" with $x^2$</div>\n',
    '- "A" item\n\n    !!! note "Title"\n\n        With $$\n        x^2\n        $$\n',
    "## The $\\sqrt{d}$ ruler\n\nText.\n",
], ids=["heading", "heading with html", "box", "footnote", "raw html", "admonition",
        "heading with math"])
def test_a_message_never_shows_a_placeholder(tmp_path: Path, body: str) -> None:
    """Smart quotes, entities and raw HTML are kept in Markdown's stash while it converts;
    a message quoting such text shows the text (the autouse fixture in conftest scans every
    message of every test too)."""
    import re
    e = error(tmp_path, body)
    assert e.line and not re.search("wzxhzdk|[\x02\x03]", str(e)), str(e)
    assert not PRIVATE_USE_RE.search(str(e)), str(e)
    assert "$" not in body or re.search(r"\$[^$]+\$", e.message), str(e)   # math as written
    assert "\n" not in str(e)


@pytest.mark.parametrize("heading", ["##\u7b80\u4ecb", "\u7b80\u4ecb\n----"],   # level 2: a level 1 stops first
                         ids=["no space after ##", "setext"])
def test_a_chinese_heading_without_an_id_names_its_line(tmp_path: Path, heading: str) -> None:
    text = "\u6b63\u6587\u3002"                     # a sentence of body text
    with pytest.raises(BuildError) as e:
        page(tmp_path, f"{text}\n\n{heading}\n\n{text}\n", RESULTS, lang="zh")
    assert e.value.line == BODY_START + 2 and "no explicit id" in e.value.message, str(e.value)


def test_a_box_closed_with_words_on_its_line_stops_there(tmp_path: Path) -> None:
    e = error(tmp_path, "Intro.\n\n/// details | Why?\n    attrs: {id: why}\n\nText.\n/// end\n\n"
                        "The rest of the article.\n")
    assert e.line == BODY_START + 6 and "ends with a line of slashes alone" in e.message


@pytest.mark.parametrize("body", [
    'The scores:\n```python\n# scaled scores\ns = q @ k.T / d ** 0.5\n```\n',
    'The scores:\n\n```python title="scores.py"\n# scaled scores\ns = q @ k.T / d ** 0.5\n```\n',
], ids=["fence under a paragraph line", "fence with a title option"])
def test_a_comment_line_in_code_is_code_or_stops_at_its_own_line(tmp_path: Path,
                                                                 body: str) -> None:
    """Where Markdown does not read a fence the lexer took for code, its `# comment` line
    would become a heading: the build either shows the code as code or stops at that line
    (it stopped with no line at all)."""
    from helpers import Tree
    comment = BODY_START + next(i for i, t in enumerate(body.split("\n")) if t.startswith("#"))
    try:
        built = page(tmp_path, body, RESULTS)
    except BuildError as e:
        assert e.line == comment and "fence" in e.message, str(e)
        return
    code = [el["text"] for el in Tree(built.body).elements if el["tag"] == "code"]
    assert any("# scaled scores" in c for c in code), built.body


def test_a_box_option_given_twice_is_an_error_at_the_second(tmp_path: Path) -> None:
    """The box's YAML kept the last `attrs:` and the first id vanished without a word."""
    body = ("Intro.\n\n/// details | Why?\n    attrs: {id: why-a}\n    attrs: {id: why-b}\n\n"
            "Text.\n///\n")
    e = error(tmp_path, body)
    assert e.line == BODY_START + 4 and "'attrs:' is given twice" in e.message, str(e)
    assert f"also at line {BODY_START + 3}" in e.message


@pytest.mark.parametrize("indent", [1, 2, 3])
def test_a_note_paragraph_indented_less_than_four_warns_at_its_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, indent: int) -> None:
    """It was published as the article's own paragraph, after the notes' text, silently."""
    import logging
    body = (f"A claim.[^long]\n\n[^long]: First paragraph of the note.\n\n"
            f"{' ' * indent}Second paragraph, meant for the note.\n")
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        page(tmp_path, body, RESULTS)
    got = [r.getMessage() for r in caplog.records if "not part of the note" in r.getMessage()]
    assert len(got) == 1 and f"index.md:{BODY_START + 4}: warning:" in got[0], got


def test_a_note_paragraph_indented_by_four_stays_in_the_note_without_a_warning(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    import logging

    from helpers import Tree
    body = ("A claim.[^long]\n\n[^long]: First paragraph of the note.\n\n"
            "    Second paragraph of the note.\n\nThe article goes on.\n")
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        built = page(tmp_path, body, RESULTS)
    assert not [r for r in caplog.records if "not part of the note" in r.getMessage()]
    second = [el for el in Tree(built.body).elements
              if el["tag"] == "p" and "Second paragraph" in el["text"]]
    assert len(second) == 1 and "section" in second[0]["ancestors"], second


# Issue 21: every line from where the text came from, never from a search. Each fault below
# follows a decoy: the same text written earlier where it is no fault (inside a raw HTML
# block, which Markdown leaves as written, or in a link's title), so a search of the article
# for the fault's text stops at the decoy; the message must name the fault's own line.
def _decoy_block(text: str) -> str:
    return f"<div>\n{text}\n</div>\n\n"


def _title_decoy(text: str) -> str:
    return f'See [the top](#top "{text}") first.\n\n'


WRONG_FIRST: dict[str, tuple[str, str, str]] = {   # name -> (decoy, fault, what is said)
    "template left in text": (_decoy_block("the SD }} here"), "the SD }} here",
                              "left in the text"),
    "comment left in text": (_decoy_block("a {#TODO#} here"), "a {#TODO#} here",
                             "left in the text"),
    "footnote without note": (_decoy_block("a claim[^nope] here"), "a claim[^nope] here",
                              "has no note"),
    "figure not made": (_decoy_block('![A chart](spred_hist.svg "C.")'),
                        '![A chart](spred_hist.svg "C.")', "did you mean"),
    "figure without alt": (_decoy_block('![](spread_hist.svg "C.")'),
                           '![](spread_hist.svg "C.")', "no alt text"),
    "figure without caption": (_decoy_block("![A chart](spread_hist.svg)"),
                               "![A chart](spread_hist.svg)", "has no caption"),
    "figure inside a sentence": (_decoy_block("See ![a](walk.svg) here."),
                                 "See ![a](walk.svg) here.", "inside a sentence"),
    "id with a space": (_decoy_block("{#bars note}"), "## A heading {#bars note}",
                        "an id has no spaces"),
    "box not understood": (_title_decoy("/// details | Why"),
                           "/// details | Why\n    atrs: {id: why}\n\nText.\n///",
                           "box not understood"),
    "raw script": (_title_decoy("<script"), "a <script>x()</script> b", "run a script"),
    "unreferenced note": (_title_decoy("[^b]:"), "A claim[^a].\n\n[^a]: Used.\n\n[^b]: Unused.",
                          "never referenced"),
    "label an address cannot hold": (_decoy_block("[^my note]"),
                                     "A claim[^my note].\n\n[^my note]: The note.",
                                     "write it as 'my-note'"),
}




@pytest.mark.parametrize("name", WRONG_FIRST)
def test_a_fault_is_at_its_own_line_when_its_text_was_written_earlier(tmp_path: Path,
                                                                      name: str) -> None:
    decoy, fault, says = WRONG_FIRST[name]
    body = "Paragraph one.\n\n" + decoy + "Paragraph two.\n\n" + fault + "\n"
    lines = body.split("\n")
    # the fault's first line (a note's definition when the note is the fault), after the decoy
    own = "[^b]: Unused." if name == "unreferenced note" else fault.split("\n")[0]
    line = BODY_START + max(i for i, text in enumerate(lines) if text == own)
    e = error(tmp_path, body)
    assert e.line == line and says in e.message, str(e)


def test_a_duplicate_id_is_at_its_second_heading_when_the_id_is_also_written_between(
        tmp_path: Path) -> None:
    body = "## A {#x}\n\nText.\n\n" + _decoy_block("{#x}") + "## B {#x}\n"
    e = error(tmp_path, body)
    assert e.line == BODY_START + body.split("\n").index("## B {#x}"), str(e)
    assert f"the other is at line {BODY_START}" in e.message, str(e)


def test_a_box_without_an_id_is_at_its_own_line_when_another_box_has_its_title(
        tmp_path: Path) -> None:
    body = ("/// details | Why?\n    attrs: {id: why}\n\nText.\n///\n\n"
            "/// details | Why?\n\nMore text.\n///\n")
    e = error(tmp_path, body)
    assert e.line == BODY_START + 6 and "without an id" in e.message, str(e)


@pytest.mark.parametrize("link, definition", [("[there](#nowhere)", ""),
                                              ("[there][r]", "\n[r]: #nowhere\n")],
                         ids=["inline", "reference"])
def test_a_missing_anchor_is_at_the_link_when_its_text_was_written_earlier(
        tmp_path: Path, link: str, definition: str) -> None:
    body = _decoy_block("[there](#nowhere) and [r]: #nowhere") + f"See {link} now.\n{definition}"
    lines = body.split("\n")
    written = lines.index("[r]: #nowhere") if definition else lines.index(f"See {link} now.")
    e = error(tmp_path, body, stage="site")
    assert e.line == BODY_START + written and "no anchor '#nowhere'" in e.message, str(e)


def test_an_id_the_layout_also_uses_is_at_the_heading_when_the_id_was_written_earlier(
        tmp_path: Path) -> None:
    body = _decoy_block("{#taken}") + "## Notes here {#taken}\n\nText.\n"
    built = page(tmp_path, body, RESULTS)
    html = '<nav id="taken"></nav>' + built.body
    with pytest.raises(BuildError) as e:
        check_site(Site(files={"en/index.html": html.encode("utf-8")}), [built],
                   "https://site.example/")
    assert e.value.line == BODY_START + body.split("\n").index("## Notes here {#taken}"), \
        str(e.value)


def test_figures_that_differ_are_at_the_figure_when_its_name_was_written_earlier(
        tmp_path: Path) -> None:
    en = _decoy_block("(walk.svg)") + '![A walk](walk.svg "C.")\n'
    e = _parity_error(tmp_path, '![A chart](spread_hist.svg "C.")\n', en)
    assert "figures differ at position 1" in e.message
    assert e.line == BODY_START + en.split("\n").index('![A walk](walk.svg "C.")'), str(e)


def test_note_labels_that_differ_are_at_the_definition_when_the_label_was_written_earlier(
        tmp_path: Path) -> None:
    en = _title_decoy("[^b]:") + "A claim[^b].\n\n[^b]: A note.\n"
    e = _parity_error(tmp_path, "A claim[^a].\n\n[^a]: A note.\n", en)
    assert "note 'b' is only in this language" in e.message and "zh.md" in e.message
    assert e.line == BODY_START + en.split("\n").index("[^b]: A note."), str(e)


def test_a_note_under_another_label_in_the_other_language_is_told_as_one_note(
        tmp_path: Path) -> None:
    """A note whose label one language spells otherwise (`[^first-sd]` there, `[^first_sd]`
    here), referenced in the same section, is told as one note with two labels, both named,
    to write one of them; not as a note to add to the other language, which would give that
    language the note twice."""
    zh = "## One {#one}\n\nA claim[^first-sd], one more[^other].\n\n[^first-sd]: A.\n\n[^other]: B.\n"
    en = "## One {#one}\n\nA claim[^first_sd], one more[^other].\n\n[^first_sd]: A.\n\n[^other]: B.\n"
    e = _parity_error(tmp_path, zh, en)
    assert e.line == BODY_START + en.split("\n").index("[^first_sd]: A."), str(e)
    assert "note 'first_sd' is only in this language" in e.message, e.message
    assert "has note 'first-sd' in its place" in e.message and "zh.md" in e.message, e.message
    assert "write '[^first-sd]' here" in e.message and "'[^first_sd]' there" in e.message, \
        e.message
    assert "add it" not in e.message, e.message


def test_notes_defined_in_another_order_in_one_language_are_the_same_notes(
        tmp_path: Path) -> None:
    """Definitions may stand anywhere (the page numbers notes by their references): one
    language moving a definition to the end is no difference."""
    from sqrtdk.web.checks import check_parity
    refs = "One[^a], two[^b].\n\n"
    zh = page(tmp_path, refs + "[^b]: B.\n\n[^a]: A.\n", RESULTS, lang="zh", name="zh.md")
    en = page(tmp_path, refs + "[^a]: A.\n\n[^b]: B.\n", RESULTS, lang="en", name="en.md")
    check_parity([en, zh])


def test_a_note_only_the_second_language_has_is_at_its_definition(tmp_path: Path) -> None:
    zh = "One[^a], two[^b].\n\n[^b]: B.\n\n[^a]: A.\n"
    e = _parity_error(tmp_path, zh, "One[^a].\n\n[^a]: A.\n")
    assert "note 'b' is only in this language" in e.message and "en.md" in e.message
    assert e.path.name == "zh.md" and e.line == BODY_START + 2, str(e)


def test_reproduce_boxes_that_differ_are_at_the_fence_when_the_name_was_written_earlier(
        tmp_path: Path) -> None:
    results = {**RESULTS, "reproduce": {"demo": RESULTS["reproduce"]["demo"],
                                        "other": RESULTS["reproduce"]["demo"]}}
    en = "The demo below.\n\n```reproduce\ndemo\n```\n"
    zh = page(tmp_path, "```reproduce\nother\n```\n", results, lang="zh", name="zh.md")
    en_page = page(tmp_path, en, results, lang="en", name="en.md")
    from sqrtdk.web.checks import check_parity
    with pytest.raises(BuildError) as e:
        check_parity([en_page, zh])
    assert "reproduce boxes differ at position 1" in e.value.message
    assert e.value.line == BODY_START + en.split("\n").index("```reproduce"), str(e.value)


def test_a_footnote_citation_missing_from_a_section_is_at_the_reference_not_at_its_code(
        tmp_path: Path) -> None:
    """A note cited in section one here and in section two there: the line is the
    reference's own, not the `[^a]` written earlier in code in the same section."""
    en = ("## One {#one}\n\nThe `[^a]` syntax.\n\nA claim[^a].\n\n## Two {#two}\n\n"
          "A claim.\n\n[^a]: A note.\n")
    zh = "## One {#one}\n\nA claim.\n\n## Two {#two}\n\nA claim[^a].\n\n[^a]: A note.\n"
    e = _parity_error(tmp_path, zh, en)
    assert "cites the footnote reference 'a'" in e.message
    assert e.line == BODY_START + en.split("\n").index("A claim[^a]."), str(e)


def test_a_fault_after_joined_chinese_lines_is_at_its_own_line(tmp_path: Path) -> None:
    """A line break between two Chinese characters is dropped from the page's text
    (md_text.CjkLineJoin); the lines after it are still counted."""
    text = "\u6b63\u6587"                          # body text
    fault = f"{text} }}}} {text}\u3002"
    body = _decoy_block("}}") + f"{text}\n{text}\n{fault}\n"
    with pytest.raises(BuildError) as e:
        page(tmp_path, body, RESULTS, lang="zh")
    assert e.value.line == BODY_START + body.split("\n").index(fault), str(e.value)
    assert "left in the text" in e.value.message


def test_a_fault_in_a_block_the_two_parsers_read_differently_is_not_at_an_earlier_line(
        tmp_path: Path) -> None:
    """A list nested by two spaces: GitHub nests it, this Markdown does not, so the item has
    no line of its own; its fault is looked for from where the readings part, not from the
    top of the article (where the same text was written earlier)."""
    body = _decoy_block("}}") + "- an item\n  - the SD }} here\n"
    e = error(tmp_path, body)
    assert e.line == BODY_START + body.split("\n").index("  - the SD }} here"), str(e)
    assert "left in the text" in e.message


def test_a_caption_is_read_at_its_figure_not_where_the_same_image_was_written_earlier(
        tmp_path: Path) -> None:
    """The caption is read back from the source (Markdown flattens links in an image title);
    the same image written earlier in raw HTML (left as written) is not the figure."""
    from helpers import Tree
    body = (_decoy_block('![A walk](walk.svg "An example, not shown.")')
            + '![A walk](walk.svg "The walk shown.")\n')
    built = page(tmp_path, body, RESULTS)
    captions = [el["text"] for el in Tree(built.body).elements if el["tag"] == "figcaption"]
    assert len(captions) == 1 and "The walk shown." in captions[0], captions


@pytest.mark.parametrize("formula_at", ["end of the first line", "end of the second line",
                                        "inside the first line", "before a comma",
                                        "before a comma, after an attribute with the fault"])
def test_a_fault_after_joined_chinese_lines_and_an_inline_formula_is_at_its_own_line(
        tmp_path: Path, formula_at: str) -> None:
    """The formula becomes an element of its own (md_math), the text after it that
    element's tail: the line breaks joined in that text (md_text.CjkLineJoin) still count."""
    text = "\u6b63\u6587"                          # body text
    fault = f"{text} }}}} {text}\u3002"
    lines = {"end of the first line": [f"{text}$x$", text, text, fault],
             "end of the second line": [text, f"{text}$x$", text, text, fault],
             "inside the first line": [f"{text}$x${text}", text, text, fault],
             "before a comma": [f"{text}$x$\uff0c{text}", text, text, fault],
             "before a comma, after an attribute with the fault": [
                 f'{text}<abbr title="}}}}">{text}</abbr>$x$\uff0c{text}', text, text, fault],
             }[formula_at]
    body = _decoy_block("}}") + "\n".join(lines) + "\n"
    with pytest.raises(BuildError) as e:
        page(tmp_path, body, RESULTS, lang="zh")
    assert e.value.line == BODY_START + body.split("\n").index(fault), str(e.value)
    assert "left in the text" in e.value.message


def test_a_fault_in_a_heading_is_at_the_heading_when_its_text_was_written_earlier(
        tmp_path: Path) -> None:
    """The heading's words move into a span of their own (md_collect.HeadingCollector, for
    its section link); the span starts on the heading's line. The same `}}` earlier in an
    attribute (raw HTML, which the tree does not read) is not the fault."""
    body = 'A <abbr title="}}">word</abbr> here.\n\n## The }} heading {#h}\n\nText.\n'
    e = error(tmp_path, body)
    assert e.line == BODY_START + 2 and "left in the text" in e.message, str(e)


def test_a_section_citing_results_more_often_names_every_citation_line_and_the_others(
        tmp_path: Path) -> None:
    """Which of a result's citations is the extra one only the author can tell: the message
    gives the lines of every citation of it in both files, and names the other results the
    section cites a different number of times (a new author added three at once and was
    shown one, at a line that was not theirs)."""
    one = "The SD {{ spread.sd_small | fixed(2) }} here."
    two = "Pairs {{ spread.n_pairs | grouped }} and SD {{ spread.sd_small | fixed(2) }}."
    section = "## One {#one}\n\n"
    other = "\n## Two {#two}\n\nPairs: {{ spread.n_pairs | grouped }}.\n"
    shorter = section + one + "\n" + other
    longer = section + one + "\n\n" + two + "\n" + other
    e = _parity_error(tmp_path, shorter, longer)
    first, second = (BODY_START + longer.split("\n").index(x) for x in (one, two))
    # the results in name order: n_pairs, whose one citation is the new sentence, then
    # sd_small, cited on lines `first` and `second` here and once in the other file
    assert e.line == second and "'spread.n_pairs' 1 time(s) here but 0 in" in e.message, \
        e.message                             # its one line is the message's own, not again
    assert "'spread.n_pairs'" in e.message and "'spread.sd_small' differ too" in e.message
    assert first < second


@pytest.mark.parametrize("extra_in", ["en", "zh"])
def test_a_citation_in_one_language_only_says_where_to_add_it(tmp_path: Path,
                                                              extra_in: str) -> None:
    """A claim relied on in one language only was told "every language must match", not
    what to do: the message says which file lacks it (add it there, to the same sentence)
    or has one extra (remove it)."""
    claim = '{{ claim("a.b") }}'
    two = f"\n## Two {{#two}}\n\nIt holds.{claim}\n"
    with_claim = f"## One {{#one}}\n\nIt grows like the root.{claim}\n" + two
    without = "## One {#one}\n\nIt grows like the root.\n" + two
    en, zh = (with_claim, without) if extra_in == "en" else (without, with_claim)
    e = _parity_error(tmp_path, zh, en)          # en is the reference: the error is at en.md
    assert e.path.name == "en.md", str(e)
    told = ("add it there, to the sentence that says what this one does, or remove the extra "
            "one here" if extra_in == "en" else "add it here, to the sentence that says what "
            "that one does, or remove the extra one there")
    assert told in e.message, e.message


@pytest.mark.parametrize("extra_in", ["en", "zh"])
def test_a_claim_relied_on_in_one_language_only_says_to_add_it_there(tmp_path: Path,
                                                                     extra_in: str) -> None:
    claim = '{{ claim("a.b") }}'
    with_claim = f"## One {{#one}}\n\nIt grows like the root.{claim}\n"
    without = "## One {#one}\n\nIt grows like the root.\n"
    en, zh = (with_claim, without) if extra_in == "en" else (without, with_claim)
    e = _parity_error(tmp_path, zh, en)
    assert e.path.name == f"{extra_in}.md" and "only here" in e.message, str(e)
    assert "add it there, to the sentence that says what this one does, or remove it here" \
        in e.message, e.message


def test_a_citation_counted_differently_names_each_line_once(tmp_path: Path) -> None:
    """The line a message starts with is not given again in it ('index.md:399 (line 399)');
    the other lines of the same citation are ('also lines …')."""
    quote = "The SD {{ spread.sd_small | fixed(2) }} here."
    longer = f"## One {{#one}}\n\n{quote}\n\n{quote}\n\n{quote}\n"
    e = _parity_error(tmp_path, f"## One {{#one}}\n\n{quote}\n", longer)
    lines = [BODY_START + i for i, text in enumerate(longer.split("\n")) if text == quote]
    assert e.line == lines[0], e
    assert f"3 time(s) here (also lines {lines[1]}, {lines[2]}) but 1 in " in e.message, e.message
    assert f"zh.md:{BODY_START + 2}; every" in e.message and "(line" not in e.message, e.message


def test_a_line_citing_more_than_once_says_how_often(tmp_path: Path) -> None:
    """A figure's alt text and caption stand on one line, each carrying its claim: one left
    out in a language was told as "4 time(s) here (also lines 79, 81) but 5 in ... (also
    lines 77, 79)", the same number of lines on both sides, so the line that differed could
    not be seen (sixth newcomer pass, README's "Add a figure"). A line citing it more than
    once says how often ("×2"), the message's own line too."""
    twice = "The SD {{ spread.sd_small | fixed(2) }}, again {{ spread.sd_small | fixed(2) }}."
    once = "The SD {{ spread.sd_small | fixed(2) }}, again."
    lone = "Here {{ spread.sd_small | fixed(2) }}."
    longer = f"## One {{#one}}\n\n{twice}\n\n{lone}\n\n{twice}\n"
    shorter = f"## One {{#one}}\n\n{twice}\n\n{lone}\n\n{once}\n"
    e = _parity_error(tmp_path, shorter, longer)
    first, middle, last = (BODY_START + i for i, text in enumerate(longer.split("\n"))
                           if text in (twice, lone))
    assert e.line == first, e
    assert f"5 time(s) here (×2 on this line; also lines {middle}, {last} ×2) but 4 in " \
        in e.message, e.message
    assert f"(×2 on this line; also lines {middle}, {last})" in e.message, e.message


@pytest.mark.parametrize("where", ["the last heading", "an inner heading"])
@pytest.mark.parametrize("reference_level, other_level", [(2, 3), (3, 2)])
def test_a_heading_of_another_level_than_the_reference_s_is_at_its_heading(
        tmp_path: Path, where: str, reference_level: int, other_level: int) -> None:
    """`###` in one language and `##` in the other, same id: two tables of contents, and
    every citation below moved into another section. The error is at the heading of the
    language that differs from the reference (the first), naming the reference's line and
    level, whether or not the text below cites anything (it used to build silently, or to
    blame results nobody touched)."""
    def body(level: int) -> str:
        text = (f"## One {{#one}}\n\nA claim[^a].\n\n{'#' * level} Two {{#two}}\n\n"
                "Text.\n\n")
        if where == "an inner heading":
            text += "## Three {#three}\n\nText.\n\n"
        return text + "[^a]: The SD {{ spread.sd_small | fixed(2) }}.\n"
    reference, other = body(reference_level), body(other_level)
    e = _parity_error(tmp_path, other, reference)       # en is the reference here
    heading = BODY_START + other.split("\n").index(f"{'#' * other_level} Two {{#two}}")
    assert e.path.name == "zh.md" and e.line == heading, str(e)
    ref_line = BODY_START + reference.split("\n").index(f"{'#' * reference_level} Two {{#two}}")
    assert (f"heading '#two' is level {other_level} ({'#' * other_level}) here but level "
            f"{reference_level} ({'#' * reference_level}) in ") in e.message, e.message
    assert f"en.md:{ref_line}," in e.message, e.message


def test_a_result_a_note_quotes_more_often_is_named_in_that_note(tmp_path: Path) -> None:
    """A note's text is listed after the last section, but it is no part of it: a quote in
    a note is counted in the note, and the message names the note and, where the other
    language's note does not quote it, that note's definition (it named the last section,
    and that section's heading in the other file)."""
    quote = "The SD {{ spread.sd_small | fixed(2) }} here."
    sections = f"## One {{#one}}\n\n{quote} A claim[^a].\n\n## Two {{#two}}\n\nText.\n\n"
    en = sections + f"[^a]: {quote}\n"
    zh = sections + "[^a]: No number.\n"
    e = _parity_error(tmp_path, zh, en)
    assert e.path.name == "en.md" and e.line == BODY_START + en.split("\n").index(f"[^a]: {quote}")
    assert "note '[^a]' cites the result 'spread.sd_small' 1 time(s) here but 0 in " in e.message
    assert f"zh.md:{BODY_START + zh.split(chr(10)).index('[^a]: No number.')};" in e.message, \
        e.message
    assert "#two" not in e.message, e.message


def test_a_note_defined_in_another_section_cites_in_the_note_not_in_either_section(
        tmp_path: Path) -> None:
    """Where a note's definition is written (under its section, or at the end) does not
    move its quotes into a section: the two languages agree."""
    from sqrtdk.web.checks import check_parity
    note = "[^a]: The SD {{ spread.sd_small | fixed(2) }}.\n\n"
    one, two = "## One {#one}\n\nA claim[^a].\n\n", "## Two {#two}\n\nText.\n\n"
    zh = page(tmp_path, one + note + two, RESULTS, lang="zh", name="zh.md")
    en = page(tmp_path, one + two + note, RESULTS, lang="en", name="en.md")
    check_parity([zh, en])
    assert ("[^a]", "result", "spread.sd_small") in zh.conversion.cited


def test_a_citation_before_the_first_section_names_that_place(tmp_path: Path) -> None:
    quote = "The SD {{ spread.sd_small | fixed(2) }} here."
    e = _parity_error(tmp_path, f"Text.\n\n## One {{#one}}\n\n{quote}\n",
                      f"{quote}\n\n## One {{#one}}\n\nText.\n")
    assert e.message.startswith("the text before the first section cites the result "
                                "'spread.sd_small'"), e.message


@pytest.mark.parametrize("what, zh_body, says", [
    ("reproduce boxes", "Text.\n\n```reproduce\ndemo\n```\n",
     "reproduce box 'demo' is only in this language; add it to "),
    ("quoted results", "Text.\n\nSD {{ spread.sd_small | fixed(2) }}.\n",
     "quoted results differ: spread.sd_small only here, not in "),
    # a table only one language had was published without a word
    ("tables", "Text.\n\n| d | SD |\n|---|---|\n| 4 | 2 |\n",
     "table of 2 columns is only in this language; add it to "),
], ids=["reproduce boxes", "quoted results", "tables"])
def test_an_item_only_another_language_has_is_at_its_line_there(
        tmp_path: Path, what: str, zh_body: str, says: str) -> None:
    """What the first language lacks has no line there: the error is at the line of the
    other language that has it ("content/zh/index.md: reproduce boxes differ … nothing here"
    had no line at all)."""
    e = _parity_error(tmp_path, zh_body, "Text.\n")
    assert e.path.name == "zh.md" and e.line == BODY_START + 2, e
    assert e.message.startswith(says) and "en.md" in e.message, e.message


def test_a_table_only_the_first_language_has_is_told_where_it_belongs_in_the_other(
        tmp_path: Path) -> None:
    """A table the first language has and the second lacks, between two both have: told at
    its line, naming the table both have after it; tables of the same shape in both pass."""
    from sqrtdk.web.checks import check_parity
    small, wide = "| d | SD |\n|---|---|\n| 4 | 2 |\n", "| a | b | c |\n|---|---|---|\n| 1 | 2 | 3 |\n"
    zh = f"## One {{#one}}\n\nText.\n\n{small}\nMore.\n\n{wide}"
    en = f"## One {{#one}}\n\nText.\n\nMore.\n\n{wide}"
    e = _parity_error(tmp_path, zh, en)
    assert e.path.name == "zh.md" and e.line == BODY_START + 4, e
    assert e.message.startswith("table of 2 columns is only in this language"), e.message
    assert "before the table of 3 columns both have after it" in e.message, e.message
    check_parity([page(tmp_path, zh, RESULTS, lang="zh", name="zh.md"),
                  page(tmp_path, zh.replace("Text.", "Other words."), RESULTS, lang="en",
                       name="en.md")])


def test_a_table_only_one_language_has_before_tables_both_have_is_told_as_only_there(
        tmp_path: Path) -> None:
    """Tables are told by their columns, which repeat: an extra table of 2 columns before
    tables of 3 and 2 columns both have was told as 'tables in another order', to move the
    table of 3 columns above it (followed, the pages still differed). It is the one only
    this language has, at its line, to add before the table both have after it."""
    small, wide = "| d | SD |\n|---|---|\n| 4 | 2 |\n", "| a | b | c |\n|---|---|---|\n| 1 | 2 | 3 |\n"
    en = f"## One {{#one}}\n\nText.\n\nMid.\n\n{wide}\nMore.\n\n{small}"
    zh = f"## One {{#one}}\n\nText.\n\n{small}\nMid.\n\n{wide}\nMore.\n\n{small}"
    e = _parity_error(tmp_path, zh, en)
    assert e.path.name == "zh.md" and e.line == BODY_START + 4, e
    assert e.message.startswith("table of 2 columns is only in this language"), e.message
    assert "before the table of 3 columns both have after it" in e.message, e.message


def test_an_item_only_the_first_language_has_says_not_in_the_other(tmp_path: Path) -> None:
    """'… only here, nothing only in zh.md' read as if zh had an item of its own."""
    e = _parity_error(tmp_path, "Text.\n", "Text.\n\nSD {{ spread.sd_small | fixed(2) }}.\n")
    assert e.path.name == "en.md" and e.line == BODY_START + 2, e
    assert e.message.startswith("quoted results differ: spread.sd_small only here, not in "), \
        e.message


@pytest.mark.parametrize("typed", ["Sets {{a}, {b}} here.", "Sets \\{\\{a}, {b}} here.",
                                   "Sets {a, {b}} here."])
def test_two_braces_in_prose_say_how_literal_braces_are_written(tmp_path: Path,
                                                                  typed: str) -> None:
    e = error(tmp_path, f"{typed}\n")
    assert e.line == BODY_START, str(e)
    for way in ("for literal braces", "`code`", "math", "a space between two braces"):
        assert way in e.message, str(e)


@pytest.mark.parametrize("typed, shown", [("Sets `{{a}, {b}}` here.", "{{a}, {b}}"),
                                          ("Sets { {a}, {b} } here.", "{ {a}, {b} }")])
def test_literal_braces_written_as_the_message_says_are_published(tmp_path: Path, typed: str,
                                                                   shown: str) -> None:
    built = page(tmp_path, f"{typed}\n", RESULTS, figures=[])
    assert shown in html.unescape(built.body), built.body


def test_a_missing_anchor_in_an_indented_line_of_a_raw_html_block_is_at_its_line(
        tmp_path: Path) -> None:
    """A real post's table of contents (jalammar's transformer-activations): a raw <div> at
    the margin whose links, after a blank line, are indented by 8 spaces. Markdown keeps the
    whole block as raw HTML, but the line reads took those lines for indented code, so the
    missing anchor was reported with no line at all."""
    body = ('Intro.\n\n<div class="toc">\n    <h3>Contents</h3>\n\n        <ul><li>\n'
            '        <a href="#nowhere-toc">Input Saliency</a>\n        </li></ul>\n</div>\n')
    e = error(tmp_path, body, stage="site")
    assert e.line == BODY_START + 6 and "no anchor '#nowhere-toc'" in e.message, str(e)


# Chinese prose with code and a formula ("figure: `it`'s attention"), before a fault on its line
WITH_CODE = "\u56fe\uff1a`it`\u7684attention $y$ "


@pytest.mark.parametrize("name", [*INLINE, *BLOCK])
def test_a_message_quoting_a_line_with_code_shows_the_code_as_written(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, name: str) -> None:
    """Code and formulas are placeholders while the lexer, the templates and the line-by-line
    reads see the text: the Chinese spacing lint quoted '\u56fe\uff1a\U000f0020 16\U000f0021
    \u7684attention', and the autouse fixture, which scans every message for placeholders,
    sees only what tests provoke: none had code on the line a message quotes. Each error
    case, on a Chinese page (whose spacing lint quotes the line too), after code and a
    formula: no message shows a placeholder, and one quoting the line shows the code."""
    fault = {**INLINE, **BLOCK}[name][0]
    first, _, rest = fault.partition("\n")
    body = f"Paragraph.\n\n{WITH_CODE}{first}\n" + (f"{rest}\n" if rest else "")
    messages: list[str] = []
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        try:
            page(tmp_path, body, RESULTS, lang="zh")
        except BuildError as e:
            messages.append(e.message)
    messages += [r.getMessage() for r in caplog.records]
    for m in messages:
        assert not PRIVATE_USE_RE.search(m), m
        assert "attention" not in m or "`it`" in m, m


@pytest.mark.parametrize("line", ["/// note | The `x` box", "/// `x` box"],
                         ids=["an unknown kind", "no kind"])
def test_a_box_not_understood_is_quoted_with_its_code(tmp_path: Path, line: str) -> None:
    """Its line was quoted from the masked text ('/// note | The \U000f00200\U000f0021 box'),
    or from the paragraph's own text, which stops at its first code span ('/// ')."""
    e = error(tmp_path, f"Text.\n\n{line}\n\nMore text.\n")
    assert e.line == BODY_START + 2 and f"box not understood: '{line}'" in e.message, str(e)


@pytest.mark.parametrize("inside", ["", "<img src=\"figure-missing-alt.svg\" alt=\"\">", " "])
def test_a_link_with_no_text_warns_at_its_line(tmp_path: Path, inside: str) -> None:
    """`<a href>` around nothing (its image removed) has no name for a screen reader."""
    from sqrtdk.log import captured
    body = f"Paragraph one.\n\nSee <a href=\"https://a.example/x\">{inside}</a> here.\n"
    built = page(tmp_path, body, RESULTS, figures=["spread_hist", "walk"])
    files = {"en/index.html": built.body.encode("utf-8"),
             "en/figure-missing-alt.svg": b"<svg/>"}
    with captured() as messages:
        check_site(Site(files=files), [built], "https://site.example/")
    path = (tmp_path / "index.md").as_posix()
    assert [m for m in messages if m.startswith(f"{path}:{BODY_START + 2}: warning:")
            and "no text" in m], messages
    # with words inside, no warning
    again = page(tmp_path, body.replace(f">{inside}</a>", ">words</a>"), RESULTS,
                 figures=["spread_hist", "walk"])
    with captured() as messages:
        check_site(Site(files={"en/index.html": again.body.encode("utf-8")}), [again],
                   "https://site.example/")
    assert not messages, messages


def test_a_myst_reference_with_no_text_is_told_as_markdown(tmp_path: Path) -> None:
    """MyST's '[](#kljs)' (a real lattice-standard note: MyST fills the text with what the
    label names) was told to put words 'between its <a …> and </a>', HTML the author never
    wrote; the warning quotes the Markdown and gives the link to write."""
    body = "Paragraph one.\n\n## Variance {#kljs}\n\nEquations, such as [](#kljs), are cited.\n"
    built = page(tmp_path, body, RESULTS, figures=["spread_hist", "walk"])
    with captured() as messages:
        check_site(Site(files={"en/index.html": built.body.encode("utf-8")}), [built],
                   "https://site.example/")
    path = (tmp_path / "index.md").as_posix()
    got = [m for m in messages if "no text" in m]
    assert len(got) == 1 and got[0].startswith(f"{path}:{BODY_START + 4}: warning:"), messages
    assert "'[](#kljs)' is a link with no text" in got[0] and "[the section](#kljs)" in got[0]


@pytest.mark.parametrize("body, lines, says", [
    ('See <a href="https://a.example/x"></a> here.\n\nAgain <a href="https://a.example/x">'
     '</a> here.\n', (2, 4), "between its <a …> and </a>"),
    ("See [words](https://a.example/x) here.\n\nAgain [](https://a.example/x) here.\n", (4,),
     "'[](https://a.example/x)' is a link with no text"),
    ("See [words][r] here.\n\nAnd\n[][r] too.\n\n[r]: https://a.example/x\n", (5,),
     "between its brackets"),
    ("See [](\nhttps://a.example/x) here.\n", (2,), "between its brackets"),
], ids=["repeated", "after-one-with-words", "reference", "address-on-the-next-line"])
def test_a_link_with_no_text_warns_at_the_line_of_each_such_link(
        tmp_path: Path, body: str, lines: tuple[int, ...], says: str) -> None:
    """The warning named the first line writing the address (the line of a link to it that
    has words, a reference definition's), and one line for several such links: now each
    link with no text is told at its own line, in the way it was written."""
    built = page(tmp_path, f"Paragraph one.\n\n{body}", RESULTS, figures=["spread_hist", "walk"])
    with captured() as messages:
        check_site(Site(files={"en/index.html": built.body.encode("utf-8")}), [built],
                   "https://site.example/")
    path = (tmp_path / "index.md").as_posix()
    got = [m for m in messages if "no text" in m]
    assert [m.partition(": warning:")[0] for m in got] == \
        [f"{path}:{BODY_START + n}" for n in lines], messages
    assert all(says in m for m in got), got


@pytest.mark.cpu_timeout(20)    # about 1 s (the growth check); before, the article read for each link
def test_many_links_with_no_text_are_told_in_linear_time(tmp_path: Path) -> None:
    """Each link with no text read the whole article again to see how it was written: in
    the links times the article's length (6,000 such links in an article of a million
    lines: minutes). The article is read once.

    check_site on 250 and 1,000 such links in an article of 25,000 and 100,000 lines more
    (the pages converted outside the time), 5 times each: about 0.06 s and 0.24 s of CPU
    (4 times; the limit is 8, the square 16); with the article read again for each link,
    about 1 s and 15 s."""
    def article(n: int) -> Any:
        folder = tmp_path / str(n)
        folder.mkdir(exist_ok=True)
        body = "".join(f"See [](https://a.example/{i}) here.\n\n" for i in range(n))
        built = page(folder, f"Paragraph one.\n\n{body}", RESULTS, figures=["spread_hist", "walk"])
        with built.source.open("a", encoding="utf-8") as written:   # a long tail of lines
            written.write("More words.\n" * (100 * n))
        site = Site(files={"en/index.html": built.body.encode("utf-8")})

        def work() -> None:
            for _ in range(5):
                with captured() as messages:
                    check_site(site, [built], "https://site.example/")
                assert len([m for m in messages if "'[](https://a.example/" in m]) == n, \
                    len(messages)
        return work
    assert_linear_growth(article, 250)


@pytest.mark.parametrize("lang, title", [("en", "Fine-tuning a model"),
                                         ("zh", "\u5fae\u8c03\u6a21\u578b")])
@pytest.mark.parametrize("position", ["middle", "list", "footnote", "box"])
@pytest.mark.parametrize("space", ["", " "], ids=["glued", "spaced"])
def test_a_hugging_face_anchor_on_a_heading_is_told_to_become_its_id(
        tmp_path: Path, lang: str, title: str, position: str, space: str) -> None:
    """The Hugging Face course writes a heading's anchor `## Title[[anchor]]` (GitHub shows
    it as text): the message says to write `{#anchor}` instead, and doing so builds."""
    body = place(position, f"## {title}{space}[[fine-tuning]]", True)
    assert body is not None
    with pytest.raises(BuildError) as e:
        page(tmp_path, body, RESULTS, lang=lang)
    meant = f"## {title} {{#fine-tuning}}"
    assert f"write '{meant}'" in e.value.message and "[[fine-tuning]]" in e.value.message, \
        str(e.value)
    page(tmp_path, body.replace(f"## {title}{space}[[fine-tuning]]", meant), RESULTS, lang=lang)


@pytest.mark.parametrize("lang, title", [("en", "Fine-tuning a model"),
                                         ("zh", "\u5fae\u8c03\u6a21\u578b")])
@pytest.mark.parametrize("written, ident, position", [
    (written, ident, position)
    for written, ident in [("# {title}[[fine-tuning]]", "fine-tuning"),
                           ("# {title} [[fine-tuning]] {{#fine-tuning}}", "fine-tuning"),
                           ("# {title}", "some-id")]
    for position in ["middle", "list", "footnote", "box"]])
def test_a_level_one_heading_is_told_every_fix_at_once(
        tmp_path: Path, lang: str, title: str, position: str, written: str,
        ident: str) -> None:
    """`# Title[[anchor]]`: the level-1 heading's error came first, and only on the next build
    the anchor's (write '{#anchor}'; or, beside an id, its warning). One message names both:
    write '## Title {#anchor}', and doing so builds without a message."""
    heading = written.format(title=title)
    body = place(position, heading, True)
    assert body is not None
    with pytest.raises(BuildError) as e:
        page(tmp_path, body, RESULTS, lang=lang)
    meant = f"## {title} {{#{ident}}}"
    assert f"'{meant}'" in e.value.message and "level-1" in e.value.message, str(e.value)
    if "[[" in heading:
        assert "[[fine-tuning]]" in e.value.message, str(e.value)
    fixed = body.replace(heading, meant)
    with captured() as messages:
        page(tmp_path, fixed, RESULTS, lang=lang)
    assert list(messages) == [], messages


@pytest.mark.parametrize("lang, title", [("en", "Fine-tuning a model"),
                                         ("zh", "\u5fae\u8c03\u6a21\u578b")])
@pytest.mark.parametrize("position", ["middle", "list", "footnote", "box"])
@pytest.mark.parametrize("level", ["##", "###"])
def test_a_hugging_face_anchor_left_beside_an_id_is_warned_at_its_line(
        tmp_path: Path, lang: str, title: str, position: str, level: str) -> None:
    """`## Title[[anchor]] {#anchor}`: the id is there, and the page (as GitHub) showed
    '[[anchor]]' in the heading without a word; it warns at the heading's line, and the
    heading without it has no warning. In a note too (it was not warned: only the text's
    headings were read for it)."""
    heading = f"{level} {title}[[fine-tuning]] {{#fine-tuning}}"
    body = place(position, heading, True)
    assert body is not None
    body = "## A section {#a-section}\n\n" + body        # a level-3 heading jumps no level
    line = BODY_START + next(n for n, x in enumerate(body.split("\n")) if "[[" in x)
    with captured() as messages:
        page(tmp_path, body, RESULTS, lang=lang)
    said = [m for m in messages if "[[fine-tuning]]" in m]
    assert len(said) == 1 and f":{line}: " in said[0] and "anchor syntax" in said[0], messages
    with captured() as messages:
        page(tmp_path, body.replace("[[fine-tuning]]", ""), RESULTS, lang=lang)
    assert list(messages) == [], messages


_OTHER_PAGES = dict.fromkeys(("index.html", "zh/index.html", "404.html", "source/run.py.html"),
                             b"<!doctype html><title>T</title><p>Text.</p>")


@pytest.mark.parametrize("written, meant", [
    ("../fr/", ("../en/", "../zh/")), ("../en/index.htm", ("../en/index.html",)),
    ("/fr/", ("/en/", "/zh/")), ("https://site.example/fr/", ("https://site.example/en/",)),
    ("../source/rn.py.html", ("../source/run.py.html",)),
], ids=["relative folder", "relative file", "from the root", "full address", "another page"])
def test_a_link_to_a_page_the_site_lacks_is_told_the_closest_pages_as_it_was_written(
        tmp_path: Path, written: str, meant: tuple[str, ...]) -> None:
    """A link to a page the site does not have was told generic addresses ('../en/'): it is
    told the site's own pages closest to what it wrote (difflib), addressed the same way
    (relative, from the root, in full; a folder or a file), and the first of them works."""
    body = f"Paragraph one.\n\nSee [there]({written}) now.\n"
    built = page(tmp_path, body, RESULTS)
    with pytest.raises(BuildError) as e:
        check_site(Site(files={"en/index.html": built.body.encode("utf-8"), **_OTHER_PAGES}),
                   [built], "https://site.example/")
    assert e.value.line == BODY_START + 2 and "a file the site does not have" in e.value.message
    assert all(f"'{m}'" in e.value.message for m in meant), str(e.value)
    assert "404" not in e.value.message, str(e.value)     # not a page to link to
    fixed = page(tmp_path, body.replace(written, meant[0]), RESULTS)
    with captured() as messages:
        check_site(Site(files={"en/index.html": fixed.body.encode("utf-8"), **_OTHER_PAGES}),
                   [fixed], "https://site.example/")
    assert not [m for m in messages if "does not have" in m], messages


@pytest.mark.parametrize("tag", ['<video controls src="demo.mp4"></video>',
                                 '<audio controls src="talk.mp3"></audio>'])
def test_a_missing_video_is_told_as_a_video_not_a_link(tmp_path: Path, tag: str) -> None:
    """'<video src="demo.mp4">' of a pasted post was told 'link to demo.mp4, a file the site
    does not have', with the site's pages closest to it, as if a typo of a link."""
    body = f"Paragraph one.\n\n{tag}\n\nMore.\n"
    built = page(tmp_path, body, RESULTS)
    with pytest.raises(BuildError) as e:
        check_site(Site(files={"en/index.html": built.body.encode("utf-8"), **_OTHER_PAGES}),
                   [built], "https://site.example/")
    assert e.value.line == BODY_START + 2, str(e.value)
    assert e.value.message.startswith(("video ", "audio ")), str(e.value)
    assert "source/run.py.html" not in e.value.message, str(e.value)


@pytest.mark.parametrize("written, tool", [("@/blog/softmax.md", "Zola"),
                                           ("@/blog/softmax.md#heads", "Zola")])
def test_a_zola_internal_link_is_told_what_it_is(tmp_path: Path, written: str,
                                                 tool: str) -> None:
    """Zola's links to its own content files ('@/blog/post.md') were told the site's pages
    closest to them, as if a typo; the error now says what the address is."""
    body = f"Paragraph one.\n\nSee [there]({written}) now.\n"
    built = page(tmp_path, body, RESULTS)
    with pytest.raises(BuildError) as e:
        check_site(Site(files={"en/index.html": built.body.encode("utf-8"), **_OTHER_PAGES}),
                   [built], "https://site.example/")
    assert e.value.line == BODY_START + 2 and tool in e.value.message, str(e.value)
    assert "source/run.py.html" not in e.value.message, str(e.value)


@pytest.mark.parametrize("written", ["{filename}/2023/softmax.md", "{tag}attention",
                                     "{static}/notes.pdf"])
def test_a_pelican_link_is_told_what_it_is(tmp_path: Path, written: str) -> None:
    """Pelican's links to its own files ('{filename}/post.md', '{static}/x.pdf', '{tag}x')
    were told the site's pages closest to them ('../source/softmax.py.html'), as if a typo:
    the error now says what the address is, and what to link to instead."""
    body = f"Paragraph one.\n\nSee [there]({written}) now.\n"
    built = page(tmp_path, body, RESULTS)
    with pytest.raises(BuildError) as e:
        check_site(Site(files={"en/index.html": built.body.encode("utf-8"), **_OTHER_PAGES}),
                   [built], "https://site.example/")
    assert e.value.line == BODY_START + 2 and "Pelican" in e.value.message, str(e.value)
    assert "source/run.py.html" not in e.value.message, str(e.value)


@pytest.mark.parametrize("exists", [False, True], ids=["no such file", "a file of the site"])
def test_a_link_whose_address_has_spaces_gets_one_message_whose_advice_works(
        tmp_path: Path, exists: bool) -> None:
    """A real post's [You and Your Research](You and Your Research): a link here, text on
    GitHub (an address has no spaces). It got two warnings at its line (the words differ;
    the link, told to write the spaces as %20) and then the missing file's error, which
    writing %20 did not fix. One message: where the site has no such file, the error, told
    to link to a page of this site or to a full address; where it has, the %20 that works."""
    target = "notes of the talk.txt"
    body = f"Paragraph one.\n\nRead [the notes]({target}) now.\n"
    built = page(tmp_path, body, RESULTS)
    files = {"en/index.html": built.body.encode("utf-8")}
    if exists:
        files["en/" + target] = b"notes\n"
    path = (tmp_path / "index.md").as_posix()
    with captured() as messages:
        try:
            check_site(Site(files=files), [built], "https://site.example/")
            stopped = ""
        except BuildError as e:
            stopped = str(e)
    with captured() as page_messages:
        page(tmp_path, body, RESULTS)
    said = [*page_messages, *messages, *([stopped] if stopped else [])]
    assert len(said) == 1 and said[0].startswith(f"{path}:{BODY_START + 2}: "), said
    if not exists:
        assert stopped and "%20" not in stopped and "full address" in stopped, said
        return
    written = "[the notes](notes%20of%20the%20talk.txt)"
    assert not stopped and written in said[0], said
    fixed = page(tmp_path, body.replace(f"[the notes]({target})", written), RESULTS)
    with captured() as again:
        check_site(Site(files={**files, "en/index.html": fixed.body.encode("utf-8")}), [fixed],
                   "https://site.example/")
    assert again == [], again


@pytest.mark.parametrize("link, says", [
    ("[the talk](https://example.org/you and your research)",
     "write [the talk](https://example.org/you%20and%20your%20research)"),
    ("[the talk](#you and your research)", "no anchor '#you and your research' (and GitHub "
                                           "shows the link as text"),
], ids=["full address", "anchor"])
def test_a_link_whose_address_has_spaces_is_told_once_what_both_read_as_meant(
        tmp_path: Path, link: str, says: str) -> None:
    """Its words differ on GitHub only by that link: the link's message alone, not also
    'only the words differ'; a full address is told its %20, not the part GitHub linked."""
    body = f"Paragraph one.\n\nRead {link} now.\n"
    with captured() as messages:
        try:
            run(tmp_path, body, "site", None)
        except BuildError as e:
            messages.append(str(e))
    assert len(messages) == 1 and f":{BODY_START + 2}: " in messages[0], messages
    assert says in messages[0], messages


# an article of a few sections, the same in both languages (the words need not be
# translated for the parity check); a note's definition at the end, as articles have them
SECTIONS = ("Before the sections.\n\n"
            "## One {#one}\n\nText of one.[^a]\n\n### One a {#one-a}\n\nMore of one.\n\n"
            "## Two {#two}\n\nText of two.\n\n"
            "## Three {#three}\n\nText of three.\n\n"
            "[^a]: A note.\n")
# what an author adds: a heading, paragraphs, a sub-heading, a formula and a note
NEW_SECTION = ("## New {#new-id}\n\nWords of the new section, $x^2$.[^new]\n\n"
               "[^new]: Its note.\n\n### New part {#new-part}\n\n$$\ny = x\n$$\n\n")


def _insert(text: str, before: str | None, section: str) -> str:
    """`text` with `section` before its line `before` (None: before the notes' definitions,
    the end of the last section)."""
    lines = text.split("\n")
    at = (lines.index(before) if before is not None
          else next(i for i, line in enumerate(lines) if line.startswith("[^")))
    return "\n".join(lines[:at] + section.rstrip("\n").split("\n") + [""] + lines[at:])


def _after_line(message: str, path: Path) -> int:
    """The N of the message's 'add ... to <path> after line N'."""
    import re

    from sqrtdk.errors import display_path
    m = re.search(re.escape(display_path(path)) + r" after line (\d+)", message)
    assert m, message
    return int(m.group(1))


def _insert_after(path: Path, line: int, section: str) -> None:
    """Follow the advice: write `section` into the file after its line `line`."""
    lines = path.read_text(encoding="utf-8").split("\n")
    path.write_text("\n".join(lines[:line] + [""] + section.rstrip("\n").split("\n") + [""]
                              + lines[line:]), encoding="utf-8")


@pytest.mark.parametrize("position", ["## One {#one}", "## Two {#two}", "## Three {#three}", None],
                         ids=["first", "middle", "before the last", "end"])
@pytest.mark.parametrize("only_in", ["en", "zh"])
def test_a_section_only_one_language_has_names_where_it_belongs_in_the_other(
        tmp_path: Path, only_in: str, position: str | None) -> None:
    """A new section (heading, sub-heading, formula, note) in one language only: the error is
    at its heading and names the line of the other file after which it belongs; following
    the advice (the same section written there) makes the languages agree."""
    from sqrtdk.web.checks import check_parity
    longer = _insert(SECTIONS, position, NEW_SECTION)
    bodies = {"zh": SECTIONS, "en": SECTIONS, only_in: longer}
    e = _parity_error(tmp_path, bodies["zh"], bodies["en"])
    mine, other = tmp_path / f"{only_in}.md", tmp_path / f"{'zh' if only_in == 'en' else 'en'}.md"
    assert e.path == mine, str(e)
    assert e.line == BODY_START + longer.split("\n").index("## New {#new-id}"), str(e)
    assert "{#new-id}" in e.message and "remove it here" in e.message, str(e)
    n = _after_line(e.message, other)
    # the end of the section before it: the last line of text before the next heading, or
    # before the notes' definitions at the end
    shared = SECTIONS.split("\n")
    end = (shared.index(position) if position is not None
           else next(i for i, line in enumerate(shared) if line.startswith("[^")))
    while not shared[end - 1].strip():
        end -= 1
    assert n == BODY_START + end - 1, str(e)
    _insert_after(other, n, NEW_SECTION)
    zh = page(tmp_path, (tmp_path / "zh.md").read_text(encoding="utf-8").split("---\n", 2)[2],
              RESULTS, lang="zh", name="zh.md")
    en = page(tmp_path, (tmp_path / "en.md").read_text(encoding="utf-8").split("---\n", 2)[2],
              RESULTS, lang="en", name="en.md")
    check_parity([zh, en])


@pytest.mark.parametrize("removed_from", ["en", "zh"])
def test_a_section_removed_from_one_language_is_told_where_to_put_it_back(
        tmp_path: Path, removed_from: str) -> None:
    """The section '## Two' deleted from one language: the error is at its heading in the
    other, and names the line after which it goes back (the end of section one)."""
    lines = SECTIONS.split("\n")
    cut = "\n".join(lines[:lines.index("## Two {#two}")] + lines[lines.index("## Three {#three}"):])
    bodies = {"zh": SECTIONS, "en": SECTIONS, removed_from: cut}
    e = _parity_error(tmp_path, bodies["zh"], bodies["en"])
    kept = "zh" if removed_from == "en" else "en"
    assert e.path == tmp_path / f"{kept}.md", str(e)
    assert e.line == BODY_START + lines.index("## Two {#two}"), str(e)
    assert "{#two}" in e.message, str(e)
    assert _after_line(e.message, tmp_path / f"{removed_from}.md") == \
        BODY_START + lines.index("More of one."), str(e)


@pytest.mark.parametrize("renamed_in", ["en", "zh"])
def test_a_heading_renamed_in_one_language_is_told_both_ids_to_choose_from(
        tmp_path: Path, renamed_in: str) -> None:
    """Only the id of one section differs: not 'only in one language' (the section is in
    both), but the two ids, either of which both languages can take."""
    renamed = SECTIONS.replace("{#two}", "{#second}")
    bodies = {"zh": SECTIONS, "en": SECTIONS, renamed_in: renamed}
    e = _parity_error(tmp_path, bodies["zh"], bodies["en"])
    assert e.line == BODY_START + SECTIONS.split("\n").index("## Two {#two}"), str(e)
    assert "{#two}" in e.message and "{#second}" in e.message, str(e)
    assert "remove it" not in e.message, str(e)
    other = tmp_path / ("en.md" if e.path.name == "zh.md" else "zh.md")
    from sqrtdk.errors import where
    assert where(other, e.line) in e.message, str(e)


def test_sections_in_another_order_are_told_where_each_heading_is(tmp_path: Path) -> None:
    """Two sections swapped in one language: both sections are in both, so neither is 'only
    in this language'; the message names both ids and the line of each."""
    swapped = (SECTIONS.replace("{#two}", "{#swap}").replace("{#three}", "{#two}")
               .replace("{#swap}", "{#three}"))
    e = _parity_error(tmp_path, swapped, SECTIONS)
    assert "{#two}" in e.message and "{#three}" in e.message, str(e)
    assert "only in this language" not in e.message, str(e)
    lines = SECTIONS.split("\n")
    assert e.line == BODY_START + lines.index("## Two {#two}"), str(e)
    assert f":{BODY_START + lines.index('## Three {#three}')}" in e.message, str(e)


# an article with one figure, one collapsible box and one reproduce box in its first section;
# what an author adds to one language only: another of each
ITEMS = ("Before the sections.\n\n"
         "## One {#one}\n\nText of one.\n\n"
         "![A chart](spread_hist.svg \"C.\")\n\n"
         "/// details | Why\n    attrs: {id: shared-box}\n\nBox text.\n\n///\n\n"
         "```reproduce\ndemo\n```\n\n"
         "More of one.\n\n"
         "## Two {#two}\n\nText of two.\n\n"
         "## Three {#three}\n\nText of three.\n")
NEW_ITEM = {"figure": ('![A walk](walk.svg "W.")\n', '![A walk](walk.svg "W.")'),
            "box": ("/// details | How\n    attrs: {id: new-box}\n\nNew box text.\n\n///\n",
                    "    attrs: {id: new-box}"),
            "reproduce box": ("```reproduce\nother\n```\n", "```reproduce")}
ITEM_RESULTS = {**RESULTS, "reproduce": {"demo": RESULTS["reproduce"]["demo"],
                                         "other": RESULTS["reproduce"]["demo"]}}


def _items_pages(tmp_path: Path) -> list[Any]:
    """The en and zh pages of tmp_path (en first: the reference), as the build reads them."""
    return [page(tmp_path, (tmp_path / f"{lang}.md").read_text(encoding="utf-8")
                 .split("---\n", 2)[2], ITEM_RESULTS, lang=lang, name=f"{lang}.md")
            for lang in ("en", "zh")]


def _section_at(text: str, line: int) -> str:
    """The id of the section of the file's line `line` ('' before the first)."""
    import re
    ids = [m.group(1) for m in (re.match(r"#+ .*\{#([\w-]+)\}$", t)
                                for t in text.split("\n")[:line]) if m]
    return ids[-1] if ids else ""


@pytest.mark.parametrize("position", ["More of one.", "Text of one.", "## Three {#three}", None],
                         ids=["after the shared ones", "before the shared ones",
                              "in a later section", "at the end"])
@pytest.mark.parametrize("only_in", ["en", "zh"])
@pytest.mark.parametrize("kind", list(NEW_ITEM))
def test_an_item_only_one_language_has_names_where_it_belongs_in_the_other(
        tmp_path: Path, kind: str, only_in: str, position: str | None) -> None:
    """A figure, box or reproduce box in one language only: the error is at its own line
    and names the line of the other file after which it belongs; following the advice (the
    same item written there) puts it in the same section and makes the languages agree."""
    from sqrtdk.web.checks import check_parity
    block, own_line = NEW_ITEM[kind]
    lines = ITEMS.split("\n")
    at = lines.index(position) if position is not None else len(lines)
    longer = "\n".join(lines[:at] + block.rstrip("\n").split("\n") + [""] + lines[at:])
    other_lang = "zh" if only_in == "en" else "en"
    for lang, body in ((only_in, longer), (other_lang, ITEMS)):
        page(tmp_path, body, ITEM_RESULTS, lang=lang, name=f"{lang}.md")
    with pytest.raises(BuildError) as raised:
        check_parity(_items_pages(tmp_path))
    e = raised.value
    mine, other = tmp_path / f"{only_in}.md", tmp_path / f"{other_lang}.md"
    assert e.path == mine, str(e)
    assert e.line == BODY_START + longer.split("\n").index(own_line, at), str(e)
    assert "only in this language" in e.message and "remove it here" in e.message, str(e)
    assert "every language must match" not in e.message, str(e)
    n = _after_line(e.message, other)
    _insert_after(other, n, block)
    check_parity(_items_pages(tmp_path))       # the advice followed: the languages agree
    text = other.read_text(encoding="utf-8")
    assert _section_at(text, n + 2) == _section_at(mine.read_text(encoding="utf-8"), e.line), \
        (str(e), text)


@pytest.mark.parametrize("removed_from", ["en", "zh"])
@pytest.mark.parametrize("kind", list(NEW_ITEM))
def test_an_item_removed_from_one_language_is_told_where_to_put_it_back(
        tmp_path: Path, kind: str, removed_from: str) -> None:
    """The second of two items of a kind in section one deleted from one language: the error
    is at the item in the other, and names the end of the first (the line after which it
    goes back); putting it back there makes the languages agree."""
    from sqrtdk.web.checks import check_parity
    block, own_line = NEW_ITEM[kind]
    lines = ITEMS.split("\n")
    at = lines.index("More of one.")
    full = "\n".join(lines[:at] + block.rstrip("\n").split("\n") + [""] + lines[at:])
    kept = "zh" if removed_from == "en" else "en"
    for lang, body in ((kept, full), (removed_from, ITEMS)):
        page(tmp_path, body, ITEM_RESULTS, lang=lang, name=f"{lang}.md")
    with pytest.raises(BuildError) as raised:
        check_parity(_items_pages(tmp_path))
    e = raised.value
    assert e.path == tmp_path / f"{kept}.md", str(e)
    assert e.line == BODY_START + full.split("\n").index(own_line, at), str(e)
    assert "only in this language" in e.message and "remove it here" in e.message, str(e)
    first = {"figure": '![A chart](spread_hist.svg "C.")', "box": "///",
             "reproduce box": "```"}[kind]       # the last line of the one both have
    shared_end = max(n for n, text in enumerate(lines[:at]) if text == first)
    n = _after_line(e.message, tmp_path / f"{removed_from}.md")
    assert n == BODY_START + shared_end, str(e)
    _insert_after(tmp_path / f"{removed_from}.md", n, block)
    check_parity(_items_pages(tmp_path))


@pytest.mark.parametrize("only_in", ["en", "zh"])
def test_a_reproduce_box_only_one_language_has_inside_a_shared_box_belongs_inside_it(
        tmp_path: Path, only_in: str) -> None:
    """A reproduce box written inside a collapsible box both languages have (as the articles
    hold them), with no other reproduce box in its section: the line named is inside that
    box in the other file (before its closing `///`), not after it."""
    from sqrtdk.web.checks import check_parity
    shared = "## Two {#two}\n\nText of two.\n\n/// details | Run it\n    attrs: {id: run-it}\n\n" \
             "Run box text.\n\n///\n\nAfter the box.\n\n"
    base = ITEMS.replace("## Three {#three}", shared + "## Three {#three}")
    base = base.replace("## Two {#two}\n\nText of two.\n\n", "", 1)
    lines = base.split("\n")
    close = lines.index("Run box text.") + 2
    longer = "\n".join(lines[:close] + ["```reproduce", "other", "```", ""] + lines[close:])
    other_lang = "zh" if only_in == "en" else "en"
    for lang, body in ((only_in, longer), (other_lang, base)):
        page(tmp_path, body, ITEM_RESULTS, lang=lang, name=f"{lang}.md")
    with pytest.raises(BuildError) as raised:
        check_parity(_items_pages(tmp_path))
    e = raised.value
    assert e.path == tmp_path / f"{only_in}.md", str(e)
    assert e.line == BODY_START + close, str(e)
    n = _after_line(e.message, tmp_path / f"{other_lang}.md")
    assert BODY_START + lines.index("/// details | Run it") < n < BODY_START + close, str(e)
    _insert_after(tmp_path / f"{other_lang}.md", n, "```reproduce\nother\n```\n")
    check_parity(_items_pages(tmp_path))


# ---- every independent mistake of a build at once ---------------------------------------------
# (a build used to stop at its first mistake: an article with six needed six builds)


def _lines(e: BuildError, path: Path) -> list[int]:
    """The line of each mistake `e` names (one per line of its text), all in `path`."""
    import re
    found = [re.match(rf"{re.escape(path.as_posix())}:(\d+): ", line)
             for line in str(e).splitlines()]
    assert all(found), str(e)
    return [int(m.group(1)) for m in found if m]


@pytest.mark.parametrize("statement", ["", "{% if true %}A statement.{% endif %}\n\n"],
                         ids=["without", "with a statement"])
def test_every_paragraph_s_and_formula_s_quote_mistake_is_at_its_line(
        tmp_path: Path, statement: str) -> None:
    """A mistake in the quotes of three places (two paragraphs, a formula) names all three,
    each at its own line: each paragraph is a template of its own (also in an article that
    holds a statement, as the project's does, whose block stays in its paragraph), and so is
    each formula."""
    body = ("One {{ spread.sd_smal | fixed(2) }} here.\n\nFine.\n\n" + statement +
            "Two {{ spread.nope | fixed(2) }} there.\n\nSee $x = {{ spread.nah | fixed(2) }}$.\n")
    e = error(tmp_path, body)
    at = body.split("\n")
    assert _lines(e, tmp_path / "index.md") == [
        BODY_START + next(i for i, text in enumerate(at) if word in text)
        for word in ("sd_smal", "spread.nope", "spread.nah")], str(e)
    assert "did you mean 'spread.sd_small'" in str(e), str(e)


def test_a_statement_never_closed_is_one_mistake_and_hides_what_it_swallows(
        tmp_path: Path) -> None:
    """An `{% if %}` never closed makes the rest of the text its block: the mistakes before it
    are named, it is named at its line, and none inside what it swallowed is (a cascade)."""
    body = ("One {{ spread.nope | fixed(2) }}.\n\n{% if true %}Open.\n\n"
            "Inside {{ spread.nah | fixed(2) }}.\n")
    e = error(tmp_path, body)
    assert _lines(e, tmp_path / "index.md") == [BODY_START, BODY_START + 2], str(e)
    assert "spread.nah" not in str(e), str(e)


def test_an_unclosed_fence_stops_its_file_at_its_line(tmp_path: Path) -> None:
    """A code fence never closed swallows the rest: one mistake, at the fence, and not the
    mistakes written after it."""
    body = "Before.\n\n```python\nx = 1\n\nAfter {{ spread.nope | fixed(2) }} and $\\fraq{1}$.\n"
    e = error(tmp_path, body)
    assert _lines(e, tmp_path / "index.md") == [BODY_START + 2], str(e)


def test_every_formula_the_engine_refuses_is_named_in_every_page(tmp_path: Path,
                                                                 katex: Any) -> None:
    """Two bad formulas in one page and one in another: three lines, by file then line."""
    en = page(tmp_path, "A $\\fraq{1}{2}$ b.\n\nFine $x$.\n\nC $x^2^3$ d.\n", RESULTS,
              name="en.md")
    zh = page(tmp_path, "甲 $\\sqrt[}{2}$ 乙。\n", RESULTS, lang="zh", name="zh.md")
    with pytest.raises(BuildError) as raised:
        typeset([zh, en], katex)
    lines = str(raised.value).splitlines()
    assert [line.split(": ", 1)[0] for line in lines] == [
        f"{(tmp_path / 'en.md').as_posix()}:{BODY_START}",
        f"{(tmp_path / 'en.md').as_posix()}:{BODY_START + 4}",
        f"{(tmp_path / 'zh.md').as_posix()}:{BODY_START}"], lines
    assert all("invalid TeX" in line for line in lines), lines


def test_a_formula_failing_as_it_defines_a_macro_hides_the_formulas_after_it(
        tmp_path: Path, katex: Any) -> None:
    """A formula that fails while it defines a macro: its use later fails too (the macro was
    never defined), which is not a mistake of its own; the page names the first only."""
    body = "A $\\fraq{1} \\gdef\\half{\\frac12}$ b.\n\nThen $\\half x$ c.\n"
    with pytest.raises(BuildError) as raised:
        typeset([page(tmp_path, body, RESULTS)], katex)
    assert _lines(raised.value, tmp_path / "index.md") == [BODY_START], str(raised.value)


def test_every_link_at_fault_is_named_at_its_line(tmp_path: Path, katex: Any) -> None:
    body = ("See [a](#nowhere) now.\n\nFine [b](#bx) text.\n\n"
            "Then [c](../nothing.html) and ![d](https://example.org/x.png) too.\n\n"
            "/// details | Box\n    attrs: {id: bx}\n\nText.\n\n///\n")
    with pytest.raises(BuildError) as raised:
        run(tmp_path, body, "site", katex)
    lines = str(raised.value).splitlines()
    assert _lines(raised.value, tmp_path / "index.md") == [BODY_START, BODY_START + 4,
                                                          BODY_START + 4], lines
    assert "no anchor" in lines[0] and "external resource" in str(raised.value) and \
        "a file the site does not have" in str(raised.value), lines


def test_a_failed_build_lists_at_most_twenty_and_says_how_many_more() -> None:
    """errors.report: sorted by file then line, a mistake named twice listed once, the first
    MOST_ERRORS, then one line saying how many more."""
    from sqrtdk.errors import MOST_ERRORS, combined, report
    made = [BuildError(f"{name}.md", line, f"mistake {name} {line}")
            for line in range(MOST_ERRORS + 5, 0, -1) for name in ("zh", "en")]
    said = report(combined([*made, made[0]]))
    assert len(said) == MOST_ERRORS + 1, said
    assert said[:3] == ["en.md:1: mistake en 1", "en.md:2: mistake en 2",
                        "en.md:3: mistake en 3"], said
    assert said[-1].startswith(f"{2 * (MOST_ERRORS + 5) - MOST_ERRORS} more mistake(s) not "
                               "shown"), said
    assert report(BuildError("en.md", 3, "one")) == ["en.md:3: one"]


@pytest.mark.parametrize("body, token", [
    ("where $\\fracc{1}{2}$ is\n", "\\fracc"),
    ("where $x^2^3$ is\n", "^"),
], ids=["undefined command", "double superscript"])
def test_katex_s_fault_is_named_without_its_underline_marks(tmp_path: Path, katex: Any,
                                                            body: str, token: str) -> None:
    """KaTeX underlines the token at fault with combining marks (U+0332), which a terminal
    shows as stray marks under the formula already quoted: the message names the token."""
    e = error(tmp_path, body, stage="math", katex=katex)
    assert "invalid TeX" in e.message and "\u0332" not in e.message, e.message
    assert f"('{token}')" in e.message, e.message


@pytest.mark.parametrize("formula, brace, add", [
    ("$\\frac{q\\cdot k}{\\sqrt{d_k}$", "{\\sqrt{d_k}", "'}'"),
    ("$x^{2 + y$", "{2 + y", "'}'"),
    ("$\\frac{a{b}{c$", "{a{b}{c", "'}}'"),
])
def test_a_closing_dollar_inside_an_open_brace_asks_for_the_brace(
        tmp_path: Path, formula: str, brace: str, add: str) -> None:
    """A formula's '$' is there but a '{' before it is never closed: the message names that
    '{' and asks for the '}' (it used to ask to end the formula with the '$' it has)."""
    e = error(tmp_path, place("middle", f"so {formula} here", False) or "")
    assert e.line == BODY_START + 2, str(e)
    assert f"'{brace}'" in e.message and f"add the {add}" in e.message, e.message
    assert "end it with '$'" not in e.message, e.message


@pytest.mark.parametrize("element, name", [("**bold text**", "the bold text"),
                                           ("*italic*", "the italic text"),
                                           ("`code`", "the code"),
                                           ("[a link](https://example.org/)", "the link")])
@pytest.mark.parametrize("braces", ["{x}", "{x y}"])
def test_braces_right_after_an_inline_element_are_quoted_as_typed(
        tmp_path: Path, element: str, name: str, braces: str) -> None:
    """`**bold**{x}` is an attribute list to attr_list: the message quotes the braces the
    author typed, names the element they follow and says how to write them as text (it used
    to quote an id list, '{#some-id x}', nobody wrote)."""
    e = error(tmp_path, place("middle", f"so {element}{braces} here", False) or "")
    assert e.line == BODY_START + 2, str(e)
    assert f"'{braces}' right after {name} is read as an attribute list" in e.message, e.message
    assert f"write '\\{braces}'" in e.message and "some-id" not in e.message, e.message


def test_braces_written_with_a_backslash_are_text(tmp_path: Path) -> None:
    built = page(tmp_path, "Para.\n\nso **bold text**\\{x} here\n", RESULTS)
    assert "<strong>bold text</strong>{x} here" in built.body


@pytest.mark.parametrize("position", ["start", "middle", "end", "list", "footnote", "box"])
@pytest.mark.parametrize("target", ['<a name="custom-anchor"></a>',
                                    'A <a name="custom-anchor">named</a> word.'],
                         ids=["a block", "inline"])
def test_an_a_name_is_a_link_target(tmp_path: Path, position: str, target: str) -> None:
    """`<a name="x">` is what '#x' scrolls to in browsers and on GitHub (the HTML standard's
    indicated element: an id, else an <a> with that name): the link check said the page has
    no anchor '#x'."""
    body = place(position, target, True) or ""
    built = page(tmp_path, body + "\nSee [x](#custom-anchor).\n", RESULTS)
    check_site(Site(files={"en/index.html": built.body.encode("utf-8")}), [built],
               "https://site.example/")


@pytest.mark.parametrize("first, second", [
    ("## A heading {#x}", '<a name="x"></a>'), ('<a name="x"></a>', '<div id="x">B.</div>'),
    ('<a name="x"></a>', 'A <a name="x">word</a>.')])
def test_an_a_name_an_id_also_has_is_a_duplicate_at_its_line(tmp_path: Path, first: str,
                                                              second: str) -> None:
    """A name is in the ids' namespace: a second target 'x' is a duplicate, at its line."""
    e = error(tmp_path, f"{first}\n\nText.\n\n{second}\n")
    assert e.line == BODY_START + 4 and "duplicate id 'x'" in e.message, str(e)


def test_a_name_on_another_element_is_no_link_target(tmp_path: Path) -> None:
    e = error(tmp_path, 'A <span name="y">word</span>; see [x](#y).\n', stage="site")
    assert "no anchor '#y'" in e.message and "<a name=" in e.message, str(e)


@pytest.mark.parametrize("position", ["start", "middle", "end", "list", "footnote", "box"])
@pytest.mark.parametrize("underline, says", [
    ("---", "a blank line before the '---' makes that line a horizontal rule"),
    ("===", "put a blank line between them")])
def test_a_setext_heading_without_id_says_what_makes_it_a_heading(
        tmp_path: Path, position: str, underline: str, says: str) -> None:
    """Text with a line of '---' under it is a heading to an author who meant a rule: the
    message said only 'heading … has no explicit id', not why that line is a heading."""
    body = place(position, f"Paragraph line\n{underline}", True) or ""
    e = error(tmp_path, body)
    line = BODY_START + next(i for i, text in enumerate(body.split("\n"))
                             if "Paragraph line" in text)
    assert e.line == line and ("no explicit id" in e.message or "level-1" in e.message or
                               "is a title" in e.message), str(e)
    assert f"the line '{underline}' under it makes it a heading" in e.message, e.message
    assert says in e.message, e.message


@pytest.mark.parametrize("above", ["![](https://example.org/algo.png)", "&nbsp;"])
def test_a_line_with_no_words_over_a_rule_says_what_makes_it_a_heading(
        tmp_path: Path, above: str) -> None:
    """A picture right over '---' (a real lecture note's '![](./images/algo.png)' over the
    rule that ends its section) is a heading with no words, here and on GitHub: the message
    said only "heading '##' has no words … delete the line if no section starts here", not
    that the '---' makes it one, nor that a blank line before it makes the rule."""
    e = error(tmp_path, f"Text.\n\n{above}\n---\n\nMore text.\n")
    assert e.line == BODY_START + 2, str(e)
    assert "the line '---' under it makes it a heading" in e.message, e.message
    assert "a blank line before the '---' makes that line a horizontal rule" in e.message, \
        e.message


def test_a_heading_written_with_hashes_gets_no_underline_hint(tmp_path: Path) -> None:
    e = error(tmp_path, place("middle", "## A heading\n---", True) or "")
    assert "no explicit id" in e.message and "under it" not in e.message, e.message


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_formula_block_in_raw_html_is_named_in_one_build(tmp_path: Path,
                                                               lang: str) -> None:
    """A blog post's display formulas each wrapped in `<div>` (Hexo's, Hugo's way around
    their Markdown): every such block is an error at its formula's line, in one build."""
    body = "Intro.\n\n<div>\n$$\na = b\n$$\n</div>\n\nText.\n\n<div>\n$$\nc = d\n$$\n</div>\n"
    with pytest.raises(BuildError) as e:
        page(tmp_path, body, RESULTS, lang=lang)
    found = [(one.line, one.message) for one in e.value.errors]
    assert [line for line, _ in found] == [BODY_START + 3, BODY_START + 11], found
    assert all("inside raw HTML" in m for _, m in found), found


BOX_TITLES = {"inline formula": "Why $x$ agrees", "LaTeX delimiters": "Why \\(x\\) agrees",
              "formula and code": "Why `a` and $x$ agree"}


@pytest.mark.parametrize("where", ["first box", "after another box", "inside another box"])
@pytest.mark.parametrize("title", list(BOX_TITLES.values()), ids=list(BOX_TITLES))
def test_a_box_with_a_formula_in_its_title_is_at_its_own_line(
        tmp_path: Path, title: str, where: str) -> None:
    """A box whose `/// details |` title holds a formula: the formula is an element on the
    opening line itself, which the line lookup took for content of the box opened before it
    (a first box got no line at all). Every box's line is its own `attrs:` line, and a box
    only one language has is told at that line."""
    new = f"/// details | {title}\n    attrs: {{id: new-box}}\n\nNew box text.\n\n///\n"
    other = "/// details | Other\n    attrs: {id: other-box}\n\nOther text.\n\n{inner}///\n"
    head = "## One {#one}\n\nText.\n\n"
    shorter = head + other.replace("{inner}", "")
    longer = {"first box": head + new + "\n" + other.replace("{inner}", ""),
              "after another box": shorter + "\n" + new,
              "inside another box": head + other.replace("{inner}", new + "\n")}[where]
    lines = longer.split("\n")
    own = {ident: BODY_START + lines.index(f"    attrs: {{id: {ident}}}")
           for ident in ("new-box", "other-box")}
    p = page(tmp_path, longer, RESULTS, lang="zh", name="zh.md")
    assert dict(zip(p.conversion.boxes, p.conversion.lines.boxes, strict=True)) == own
    e = _parity_error(tmp_path, longer, shorter)
    assert e.path == tmp_path / "zh.md" and e.line == own["new-box"], str(e)
    assert "'#new-box' is only in this language" in e.message, str(e)


@pytest.mark.parametrize("where", ["Text of two.", "Text of one.", "Text."],
                         ids=["a later section", "the first section", "before the sections"])
def test_a_note_only_one_language_has_names_its_reference_and_the_place_in_the_other(
        tmp_path: Path, where: str) -> None:
    """A note (reference and definition) only one language has was told 'add it to <file>',
    with no place: it now names its reference's line and section here and that section's
    lines in the other file; a reference written there (at the section's last line) and the
    definition at the end make the languages agree."""
    import re

    from sqrtdk.web.checks import check_parity
    base = "Text.\n\n## One {#one}\n\nText of one.\n\n## Two {#two}\n\nText of two.\n"
    longer = base.replace(where, where[:-1] + "[^extra].", 1) + "\n[^extra]: The note.\n"
    e = _parity_error(tmp_path, longer, base)
    lines = longer.split("\n")
    assert e.path == tmp_path / "zh.md" and e.line == BODY_START + lines.index(
        "[^extra]: The note."), str(e)
    ref = next(n for n, t in enumerate(lines) if "[^extra]." in t)
    assert f"its reference is at line {BODY_START + ref}" in e.message, str(e)
    m = re.search(r"\(lines (\d+)–(\d+) there\)", e.message)
    assert m, str(e)
    en = tmp_path / "en.md"
    text = en.read_text(encoding="utf-8").split("\n")
    last = int(m.group(2)) - 1
    assert text[last].strip(), str(e)        # the section's last line of text
    text[last] = text[last] + "[^extra]"
    en.write_text("\n".join(text) + "\n[^extra]: The note.\n", encoding="utf-8")
    pages = [page(tmp_path, p.read_text(encoding="utf-8").split("---\n", 2)[2], RESULTS,
                  lang=p.stem, name=p.name) for p in (en, tmp_path / "zh.md")]
    check_parity(pages)


TWO_ITEMS = {
    "figure": ('![A chart](spread_hist.svg "C.")\n', '![A walk](walk.svg "W.")\n',
               "'spread_hist.svg'", "'walk.svg'"),
    "box": ("/// details | A\n    attrs: {id: box-a}\n\nText a.\n\n///\n",
            "/// details | B\n    attrs: {id: box-b}\n\nText b.\n\n///\n", "'#box-a'", "'#box-b'"),
    "reproduce box": ("```reproduce\ndemo\n```\n", "```reproduce\nother\n```\n", "'demo'",
                      "'other'"),
}


@pytest.mark.parametrize("kind", list(TWO_ITEMS))
def test_items_in_another_order_are_told_where_each_is(tmp_path: Path, kind: str) -> None:
    """Two figures, boxes or reproduce boxes swapped in one language were told only '… differ
    at position 1: x here, y in <file>; every language must match': now, as for sections, the
    error is at the item out of place in the second language, names where the reference
    language has it and where the one meant there is, and says to move it."""
    first, second, one, two = TWO_ITEMS[kind]
    body = "## One {#one}\n\nText.\n\n{a}\nMiddle.\n\n{b}\nEnd.\n"
    en = body.replace("{a}", first).replace("{b}", second)
    zh = body.replace("{a}", second).replace("{b}", first)
    for lang, text in (("en", en), ("zh", zh)):
        page(tmp_path, text, ITEM_RESULTS, lang=lang, name=f"{lang}.md")
    from sqrtdk.web.checks import check_parity
    with pytest.raises(BuildError) as raised:
        check_parity(_items_pages(tmp_path))
    e = raised.value
    assert e.path == tmp_path / "zh.md" and "in another order" in e.message, str(e)
    assert f"is {two} here but {one} in " in e.message and "move" in e.message, str(e)
    assert "every language must match" not in e.message, str(e)


@pytest.mark.parametrize("kind", list(TWO_ITEMS))
def test_an_item_renamed_in_one_language_is_told_both_names(tmp_path: Path, kind: str) -> None:
    """A figure, box id or reproduce box that differs at one place, the others agreeing: told
    both names, either of which both languages can take; writing the one named makes them
    agree."""
    first, second, one, two = TWO_ITEMS[kind]
    body = "## One {#one}\n\nText.\n\n{a}\nEnd.\n"
    for lang, item in (("en", first), ("zh", second)):
        page(tmp_path, body.replace("{a}", item), ITEM_RESULTS, lang=lang, name=f"{lang}.md")
    from sqrtdk.web.checks import check_parity
    with pytest.raises(BuildError) as raised:
        check_parity(_items_pages(tmp_path))
    e = raised.value
    assert e.path == tmp_path / "en.md", str(e)
    assert f"write {one} there, or {two} here" in e.message, str(e)
    page(tmp_path, body.replace("{a}", first), ITEM_RESULTS, lang="zh", name="zh.md")
    check_parity(_items_pages(tmp_path))


@pytest.mark.parametrize("body, line, says", [
    ("One.\n\n" + ">" * 1000 + " deep\n", 3, "lists or quotes (1000 levels)"),
    ("One.\n\n" + "\n".join("    " * i + "- x" for i in range(300)) + "\n", 302,
     "lists or quotes (300 levels)"),
    ("One.\n\nA {{ " + "(" * 200 + "spread" + ")" * 200 + " }} quote.\n", 3,
     "a quote's parentheses, brackets or {% … %} blocks"),
    ("One.\n\n$x = {{ " + "(" * 200 + "spread" + ")" * 200 + " }}$\n", 3,
     "a quote's parentheses, brackets or {% … %} blocks"),
], ids=["quotes", "lists", "quote", "quote in a formula"])
def test_nesting_too_deep_for_the_parsers_is_an_error_at_its_line(
        tmp_path: Path, body: str, line: int, says: str) -> None:
    """A thousand nested quotes or three hundred nested list items raised RecursionError
    (a walk of cmark-gfm's tree; Python-Markdown's lists), two hundred parentheses in a quote
    too (Jinja's parser): a traceback."""
    e = error(tmp_path, body)
    assert e.line == BODY_START + line - 1 and says in e.message, e
    assert "nested too deeply" in e.message, e


def test_front_matter_nested_too_deep_is_an_error_at_its_line(tmp_path: Path) -> None:
    from helpers import resolver, strings

    from sqrtdk.web.pages import build_page
    path = tmp_path / "index.md"
    path.write_text("---\ntitle: T\nx: " + "[" * 1000 + "]" * 1000 + "\ndescription: D\n---\n"
                    "\nText.\n", encoding="utf-8")
    with pytest.raises(BuildError) as e:
        build_page(path, strings("en"), RESULTS, resolver([]), [], lambda m: m)
    assert e.value.line == 3 and "nested too deeply" in e.value.message, e.value


@pytest.mark.parametrize("target", ["inside", "outside"])
def test_an_error_in_a_linked_article_names_the_link_not_its_target(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, target: str) -> None:
    """content/en/index.md, a symbolic link to a draft, was named by the draft's path
    (drafts/en.md), or by its absolute path when the draft lies outside the project."""
    from helpers import FRONT, resolver, strings

    from sqrtdk.web.pages import build_page
    project = tmp_path / "project"
    draft = (project / "drafts" if target == "inside" else tmp_path / "elsewhere") / "en.md"
    draft.parent.mkdir(parents=True)
    draft.write_text(FRONT + "Text {{ nope.x }}.\n", encoding="utf-8")
    link = project / "content" / "en" / "index.md"
    link.parent.mkdir(parents=True)
    link.symlink_to(draft)
    monkeypatch.chdir(project)
    with pytest.raises(BuildError) as e:
        build_page(link, strings("en"), RESULTS, resolver([]), [], lambda m: m)
    assert str(e.value).startswith(f"content/en/index.md:{BODY_START}: "), str(e.value)


_OLD_PAGE = ('<h2 id="toc-title">Contents</h2>'
             '<h2 aria-labelledby="intro-name" id="intro"><span id="intro-name">Intro</span>'
             '<a class="headerlink" href="#intro">#</a></h2><p>Text.</p>'
             '<h2 aria-labelledby="gradient-name" id="gradient"><span id="gradient-name">The '
             'gradient <span class="katex"><math><mi>q</mi></math><span>q</span></span></span>'
             '<a class="headerlink" href="#gradient">#</a></h2>')


@pytest.mark.parametrize("words", ["The gradient q", "Renamed too"], ids=["same words", "new words"])
def test_a_link_to_a_renamed_id_is_told_the_id_of_the_heading_now_at_its_place(
        words: str) -> None:
    """'{#gradient}' renamed '{#grad-q}' in every language: a link to '#gradient' was told
    "did you mean '#fig-gradient-q'?" (the closest id by spelling, a figure's). With the
    previous build's page it is told the heading there now (by its words, or else by its
    place among as many sections)."""
    from sqrtdk.web.model import Heading
    from sqrtdk.web.site_links import _anchor_hint
    headings = [Heading(2, "intro", "Intro", "Intro"), Heading(2, "grad-q", words, words)]
    page: Any = type("P", (), {"conversion": type("C", (), {"headings": headings})()})()
    ids = frozenset({"intro", "grad-q", "fig-gradient-q"})
    assert "did you mean '#fig-gradient-q'" in _anchor_hint("gradient", ids, page)
    said = _anchor_hint("gradient", ids, page, _OLD_PAGE)
    assert "'#gradient' is gone" in said and "is now '#grad-q'" in said, said
    assert "fig-gradient-q" not in said and f"'{words}'" in said, said


@pytest.mark.cpu_timeout(120)
def test_many_nested_quotes_written_with_spaces_build(tmp_path: Path) -> None:
    """`> > > … x`: the pattern for an indented code block in a quote let the space after each
    `>` go to that marker or to the next one's indent, 2 ** n ways to fail: 28 levels took
    44 s, 40 would take a day (1000 levels written `>>>…` were fine)."""
    built = page(tmp_path, "One.\n\n" + "> " * 40 + "deep\n", RESULTS,
                 figures=["spread_hist", "walk"])
    assert built.body.count("<blockquote") == 40 and "deep" in built.body


@pytest.mark.parametrize("close", [" ```", "  ```", "   ```"])
def test_a_reproduce_box_running_past_an_indented_closing_fence_is_at_its_fence(
        tmp_path: Path, close: str) -> None:
    """A reproduce box whose closing fence is indented runs on to the next fence: the
    error is at the box's fence and says to write its closing fence at the line's start,
    not a snippet 'name' made of the swallowed lines (with the page's private markers)."""
    body = (f"Some words.\n\n```reproduce\ndemo\n{close}\n\nA paragraph with $x$ in it.\n\n"
            "```python\ny = 2\n```\n")
    e = error(tmp_path, body)
    assert e.line == BODY_START + body.split("\n").index("```reproduce"), str(e)
    assert "closing" in e.message and "start of its line" in e.message, str(e)
    assert "\n" not in str(e) and not PRIVATE_USE_RE.search(str(e)), str(e)


@pytest.mark.parametrize("fence", ["```reproduce demo\n```", "```reproduce\n```"])
def test_a_reproduce_box_naming_no_snippet_is_at_its_fence(tmp_path: Path, fence: str) -> None:
    """The snippet's name joined to the fence's line (or left out): the error named no
    line and the snippet ''."""
    body = f"Some words.\n\n{fence}\n\nMore words.\n"
    e = error(tmp_path, body)
    assert e.line == BODY_START + 2, str(e)
    assert "names no snippet" in e.message and "line under" in e.message, str(e)


@pytest.mark.parametrize("ref", ["[^a", "^a]", "[a]"])
def test_a_note_reference_missing_a_mark_is_at_the_reference(tmp_path: Path, ref: str) -> None:
    """A reference with its ']', '[' or '^' lost was told at the note's definition ('defined
    but never referenced'), far from the slip, which the page showed as typed."""
    body = f"One claim{ref} here.\n\nMore words.\n\n[^a]: A note.\n"
    e = error(tmp_path, body)
    assert e.line == BODY_START, str(e)
    assert f"'{ref}' is missing a mark" in e.message and "write it '[^a]'" in e.message, str(e)


@pytest.mark.parametrize("wrapper", ["<figure markdown>", "<div>"])
def test_a_note_referenced_only_inside_raw_html_is_told_at_the_reference(
        tmp_path: Path, wrapper: str) -> None:
    """A table written inside `<figure markdown>` (squidfunk/mkdocs-material's
    docs/blog/posts/search-better-faster-smaller.md: 'Indexing time[^7]' in a cell) is kept
    as typed by this Markdown, a raw HTML block up to `</figure>`, so its '[^7]' is no
    reference; the build stopped at the note's definition saying it was 'defined but never
    referenced; reference it in the text or delete it', though the author had referenced it.
    Now the error is at the reference, says it lies in the HTML block that opens at its
    line, and says to write the passage in Markdown outside that block."""
    tag = wrapper[1:].split(">")[0].split()[0]
    body = (f"Words.\n\n{wrapper}\n\n| What | Time |\n|---|---|\n| Indexing[^7] | 265 ms |\n\n"
            f"</{tag}>\n\nMore words.\n\n[^7]: Smallest of ten runs.\n")
    e = error(tmp_path, body)
    assert e.line == BODY_START + 6, str(e)
    assert "never referenced" not in e.message, str(e)
    assert f"line {BODY_START + 2}" in e.message and "outside" in e.message, str(e)


@pytest.mark.parametrize("lang, words", [("en", "A claim"), ("zh", "\u4e00\u4e2a\u8bf4\u6cd5")])
def test_a_note_referenced_only_inside_raw_html_is_told_once(tmp_path: Path, lang: str,
                                                             words: str) -> None:
    """A reference inside a `<div>` both parsers keep as typed (no blank line under the tag),
    to a note referenced nowhere else, drew a warning ('shown as typed, no note's reference
    … write the passage in Markdown outside the HTML') and the error at the same line with
    the same advice. The error alone now."""
    body = f"Intro.\n\n<div>\n{words}[^n] here.\n</div>\n\nMore.\n\n[^n]: The note.\n"
    with captured() as messages, pytest.raises(BuildError) as e:
        page(tmp_path, body, {"claims": {}, "meta": {"bounds": {}}}, lang=lang)
    assert e.value.line == BODY_START + 3 and "outside the HTML block" in e.value.message, \
        str(e.value)
    assert not [m for m in messages if "[^n]" in m], messages


def test_a_note_defined_only_inside_raw_html_is_told_where_it_is(tmp_path: Path) -> None:
    """The same class the other way round: a note's definition inside a `<details>` block
    written in HTML (which this Markdown keeps as typed up to `</details>`) defines nothing,
    and the reference was told 'has no note; add a line [^1]: … at the end of the file',
    though the author wrote one. The error, at the reference, names the definition's line
    and the HTML block's, and says to move the definition out of the block."""
    body = ("Words[^1].\n\n<details>\n<summary>More</summary>\n\nText here.\n\n"
            "[^1]: The note.\n\n</details>\n\nAfter.\n")
    e = error(tmp_path, body)
    assert e.line == BODY_START, str(e)
    assert f"line {BODY_START + 7}" in e.message and f"line {BODY_START + 2}" in e.message, str(e)
    assert "move the definition out of the HTML block" in e.message, str(e)


@pytest.mark.parametrize("lang, words", [("en", "See"), ("zh", "\u89c1")])
def test_a_note_reference_inside_raw_html_is_warned_where_the_note_is_referenced_elsewhere(
        tmp_path: Path, lang: str, words: str) -> None:
    """A note referenced in the text and again inside a block of raw HTML (a `<div>`, which
    both this Markdown and GitHub keep as typed up to a blank line) built silently with
    '[^x]' shown as typed in the block: the error for a note referenced only there did
    not reach it, and bold, links and code there are warned. A warning at the line; with
    the tags removed, as it says, the reference is a note's and nothing is told."""
    body = f"Words[^x].\n\n<div>\n{words}[^x].\n</div>\n\nMore.\n\n[^x]: The note.\n"
    with captured() as messages:
        page(tmp_path, body, {"claims": {}, "meta": {"bounds": {}}}, lang=lang)
    got = [m for m in messages if "'[^x]' inside a block of raw HTML" in m]
    assert len(got) == 1 and f":{BODY_START + 3}: warning:" in got[0], messages
    fixed = body.replace("<div>\n", "").replace("</div>\n", "")
    with captured() as messages:
        built = page(tmp_path, fixed, {"claims": {}, "meta": {"bounds": {}}}, lang=lang)
    assert list(messages) == [] and "[^x]" not in built.body, messages
    # a regex's class in the block's text is no note the article defines: nothing is told
    with captured() as messages:
        page(tmp_path, body.replace(f"{words}[^x].", f"{words} [^a-z]+."),
             {"claims": {}, "meta": {"bounds": {}}}, lang=lang)
    assert not [m for m in messages if "[^a-z]" in m], messages
    # in code inside the block it is code, as typed on purpose: nothing is told
    with captured() as messages:
        page(tmp_path, body.replace(f"{words}[^x].", f"<code>{words}[^x]</code>"),
             {"claims": {}, "meta": {"bounds": {}}}, lang=lang)
    assert not [m for m in messages if "[^x]" in m], messages


@pytest.mark.parametrize("block, at", [
    ("<div>\nIndexing[^7] took 265 ms.\n</div>", 3),
    ("<table><tr>\n<td>Indexing[^7]</td>\n</tr></table>", 3),
    ("<div>\nText.\n[^7]: Smallest of ten runs.\n</div>", 4),
], ids=["reference in a div", "reference in a td", "definition in a div"])
def test_a_note_inside_raw_html_with_no_note_anywhere_is_warned_at_its_line(
        tmp_path: Path, block: str, at: int) -> None:
    """A reference '[^7]' inside a block of raw HTML (a `<div>`, a `<td>`) to a note defined
    nowhere, or a definition there that nothing references, built with no word: the page
    showed '[^7]' (or the whole definition) as typed. The same with a note defined or
    referenced elsewhere was told already. A warning at its line now, saying what to do; a
    regex's class there ('[^a-z]', '[^\\s]') is still text, not told."""
    body = f"Intro.\n\n{block}\n\nMore.\n"
    with captured() as messages:
        page(tmp_path, body, {"claims": {}, "meta": {"bounds": {}}})
    got = [m for m in messages if "'[^7]" in m and "inside a block of raw HTML" in m]
    assert len(got) == 1 and f":{BODY_START + at}: warning:" in got[0], messages
    assert "outside the HTML" in got[0], got
    # (and one of signs alone: '[^/]+', '[^,]*' were told as notes to add)
    for pattern in ("[^a-z]", "[^0-9A-F]", "[^\\s]", "[^/]", "[^,]", '[^"]') \
            if "[^7]:" not in block else ():
        with captured() as messages:
            page(tmp_path, body.replace("[^7]", pattern), {"claims": {}, "meta": {"bounds": {}}})
        assert not [m for m in messages if pattern in m], messages


@pytest.mark.parametrize("hidden", ["\u200b", "\u00a0", "\ufeff", "\u3000"])
def test_a_box_closing_line_with_an_invisible_space_is_at_that_line(tmp_path: Path,
                                                                   hidden: str) -> None:
    """'///' with a zero-width or no-break space closes no box: it was told as the box
    'never closed', at its opening line, far from the closing line that looks right."""
    body = ("/// details | More\n    attrs: {id: more}\n\nInside.\n\nStill inside.\n\n"
            f"///{hidden}\n\nAfter the box.\n")
    e = error(tmp_path, body)
    assert e.line == BODY_START + 7, str(e)
    assert f"U+{ord(hidden):04X}" in e.message and "delete it" in e.message, str(e)


@pytest.mark.parametrize("broken", ["    ![Bars](walk.svg \"Walk.\")",
                                    "![Bars]walk.svg \"Walk.\")",
                                    "![Bars]\u200b(walk.svg \"Walk.\")"])
def test_a_figure_not_read_as_one_in_one_language_is_at_its_own_line(tmp_path: Path,
                                                                    broken: str) -> None:
    """A figure indented or with a bracket lost in one language was told as 'only in' the
    other language, at the other's line, with advice to add what is already there."""
    en = "Intro.\n\n![Bars](walk.svg \"Walk.\")\n\nAfter.\n"
    zh = f"Intro.\n\n{broken}\n\nAfter.\n"
    e = _parity_error(tmp_path, zh, en)
    assert e.path.name == "zh.md" and e.line == BODY_START + 2, str(e)
    assert "not read as a figure" in e.message, str(e)


@pytest.mark.parametrize("link", ["[jump](#nowhere)", "[jump](<#nowhere>)",
                                  "![a chart](https://example.org/c.png)"])
def test_a_link_in_a_block_the_parsers_read_differently_is_named_at_its_line(
        tmp_path: Path, link: str) -> None:
    """A paragraph indented by 2 spaces under a list item (as Typora writes one: a paragraph
    of the item on GitHub, one after the list here) has no line from the source positions:
    a broken link in it was told as 'index.md: link to …', with no line at all."""
    body = f"Intro.\n\n- An item\n\n  See {link} here.\n"
    built = page(tmp_path, body, RESULTS)
    with pytest.raises(BuildError) as e:
        check_site(Site(files={"en/index.html": built.body.encode("utf-8")}), [built],
                   "https://site.example/")
    assert e.value.line == BODY_START + 4, str(e.value)


@pytest.mark.parametrize("link, target", [
    ("https://link.zhihu.com/?target=http%3A//citeseerx.ist.psu.edu/viewdoc/a%3Fdoi%3D1",
     "http://citeseerx.ist.psu.edu/viewdoc/a?doi=1"),
    ("https://link.juejin.cn/?target=https%3A%2F%2Fgithub.com%2Fa%2Fb", "https://github.com/a/b"),
    ("https://arxiv.org/abs/1706.03762?target=x", None),
])
def test_a_link_through_a_chinese_site_s_redirect_names_its_address(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, link: str, target: str | None) -> None:
    """A Zhihu or Juejin post copied with its links holds each outside link as the site's
    redirect page (`link.zhihu.com/?target=…`): a reader meets that site's notice first, with
    no word to the author."""
    body = f"Text.\n\nSee [the paper]({link}) here.\n"
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        run(tmp_path, body, "site", None)
    warned = [r.getMessage() for r in caplog.records if "redirect page" in r.getMessage()]
    if target is None:
        assert not warned, warned
        return
    path = (tmp_path / "index.md").as_posix()
    assert len(warned) == 1 and warned[0].startswith(f"{path}:{BODY_START + 2}: "), warned
    assert warned[0].endswith(target), warned


@pytest.mark.parametrize("written", ['<img src="somefig.svg" width="300" alt="x">',
                                     '<img src="./somefig.svg" alt="x">'])
def test_a_figure_shown_with_an_html_img_is_told_how_an_article_shows_it(
        tmp_path: Path, written: str) -> None:
    """An <img> of a figure by the name the article gives it (GitHub's way to give an image
    a width) was told 'a file the site does not have' and the general recipe of a new
    figure: it names the figure and the paragraph that shows it."""
    body = f"Paragraph one.\n\n{written}\n"
    built = page(tmp_path, body, RESULTS)
    files = {"en/index.html": built.body.encode("utf-8"), **_OTHER_PAGES,
             "figures/somefig.en.svg": b"<svg/>", "figures/somefig.en.narrow.svg": b"<svg/>"}
    with pytest.raises(BuildError) as e:
        check_site(Site(files=files), [built], "https://site.example/")
    assert e.value.line == BODY_START + 2, str(e.value)
    assert "figure 'somefig'" in e.value.message and \
        '![what it shows](somefig.svg "Caption")' in e.value.message, str(e.value)


@pytest.mark.parametrize("first, second, third", [
    ("[there](../nowhere.html)", "[again](<../nowhere.html>)",
     '<a href="../nowhere.html">x</a>'),
    ("[there](#nowhere)", "[again][r]", '<a href="#nowhere">x</a>'),
], ids=["missing file", "missing anchor"])
def test_a_bad_address_written_several_times_is_named_at_every_line(
        tmp_path: Path, first: str, second: str, third: str) -> None:
    """One line was kept per address: a bad link written three times was named at its first
    line only, and the author found the next one a build later. Markdown links, raw HTML and
    reference definitions each keep every line (a reference is fixed at its definition)."""
    body = (f"Text {first} here.\n\nMore {second} here.\n\nAnd {third} too.\n\n"
            "Last [one](../nowhere.html) [two](#nowhere).\n"
            + ("\n[r]: #nowhere\n" if "[r]" in second else ""))
    e = error(tmp_path, body, stage="site")
    path = (tmp_path / "index.md").as_posix()
    address = "#nowhere'" if "[r]" in second else "'../nowhere.html'"
    named = sorted(one.line for one in e.errors if path in str(one) and address in one.message)
    want = [BODY_START, BODY_START + 4, BODY_START + 6]
    if "[r]" in second:
        want.append(BODY_START + 8)
    else:
        want.insert(1, BODY_START + 2)
    assert named == want, str(e)


def test_an_address_both_linked_and_shown_as_an_image_is_told_at_each_as_it_is_written(
        tmp_path: Path) -> None:
    """A missing file written as an image on some lines and a link on others: the image's
    fault is told at the image lines, the link's at the link lines."""
    body = ("See ![a](gone.png) here.\n\nAnd [it](gone.png) there.\n\n"
            "Or <img src=\"gone.png\" alt=\"b\"> too.\n\n"
            "Then [again](gone.png) and <a href=\"gone.png\">c</a>.\n")
    e = error(tmp_path, body, stage="site")
    images = sorted(one.line for one in e.errors if one.message.startswith("image 'gone.png'"))
    links = sorted(one.line for one in e.errors if one.message.startswith("link to 'gone.png'"))
    assert images == [BODY_START, BODY_START + 4], str(e)
    assert links == [BODY_START + 2, BODY_START + 6], str(e)


def test_a_warned_address_written_several_times_is_warned_at_every_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    body = ("Open [the page](http://localhost:8000/) to see it.\n\n"
            "Or <a href=\"http://localhost:8000/\">here</a>.\n\n"
            "Or [there][local].\n\n[local]: http://localhost:8000/\n")
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        run(tmp_path, body, "site", None)
    warned = sorted(int(r.getMessage().split(":")[1]) for r in caplog.records
                    if "only works on your own" in r.getMessage())
    assert warned == [BODY_START, BODY_START + 2, BODY_START + 6], warned


@pytest.mark.parametrize("body, shown", [
    # a formula's own brace after a quote in it (the formula is typeset later: its marker)
    ("the SD $\\frac{1}{ {{ spread.sd_small | fixed(2) }}}$ here", 'class="math"'),
    ("the SD {{ spread.sd_small | fixed(2) }} } here", "2.01 } here"),   # after a space
    ("the code `{{x}}}` here", "<code>{{x}}}</code>"),                         # code, as typed
    ("the SD {{ {'a': spread.sd_small}['a'] | fixed(2) }} here", "2.01 here"),
])
def test_a_brace_meant_beside_a_quote_is_not_one_too_many(tmp_path: Path, body: str,
                                                          shown: str) -> None:
    built = page(tmp_path, body + "\n", RESULTS, figures=["spread_hist", "walk"])
    assert shown in PRIVATE_USE_RE.sub("", built.body), built.body   # markers of quotes out


@pytest.mark.parametrize("alt", ["A walk }} of steps", "A walk of { walk.steps | grouped }} steps",
                                 "A walk of \uff5b{ walk.steps | grouped }} steps"])
def test_template_syntax_left_in_a_pictures_alt_text_is_an_error_at_its_line(
        tmp_path: Path, alt: str) -> None:
    """A picture's alt text is an attribute, not a text slot, but it is published (read
    aloud, shown when the figure fails): a quote that lost a brace there (or took a
    full-width one) was published as typed, silently (a mutation pass over the article)."""
    body = f"Text.\n\n![{alt}](walk.svg \"The walk.\")\n"
    e = error(tmp_path, body)
    assert e.line == BODY_START + 2 and "left in the picture's alt text" in e.message, str(e)


@pytest.mark.parametrize("reference, note", [("row-sd", "rrow-sd"), ("rowsd", "row-sd")])
def test_a_reference_and_a_note_whose_labels_differ_are_both_named(
        tmp_path: Path, reference: str, note: str) -> None:
    """A note's label misspelt at its definition was told at the reference, "add a line
    '[^row-sd]: …' at the end of the file" (a second note, the misspelt one still there):
    when a note nobody references has a label close to the reference's, both lines are named
    and either is the fix (a mutation pass over the article)."""
    body = (f"Text with a note.[^{reference}]\n\nMore text.\n\n[^{note}]: The note.\n")
    e = error(tmp_path, body)
    assert e.line == BODY_START, str(e)
    assert f"the note '[^{note}]' of line {BODY_START + 4} is referenced nowhere" in e.message
    assert f"'[^{note}]'" in e.message and f"'[^{reference}]: …'" in e.message, str(e)


@pytest.mark.parametrize("lang, body", [
    ("zh", "模型是任务无关的[^task-agnostic指不针对任何特定任务优化的方法，它可以用于许多下游任务。]，"
           "可以用于许多任务。\n"),
    ("en", "The model is task-agnostic[^A-model-that-is-trained-without-any-one-task-in-mind-"
           "and-is-used-for-many-tasks-later].\n"),
], ids=["zh", "en"])
def test_a_note_s_text_written_inside_its_reference_is_told_to_be_a_note_at_the_end(
        tmp_path: Path, lang: str, body: str) -> None:
    """A note's text written inside its reference, as an inline note ('[^a sentence of
    explanation]'), was told 'has no note; add a line [^<the whole sentence>]: … at the end
    of the file', the sentence quoted whole as the label to define (its advice, followed,
    gives a label of a hundred characters and the sentence twice). It is told as the note's
    text, shortened, with a short label to write at the reference and the line of the note."""
    with pytest.raises(BuildError) as caught:
        page(tmp_path, body, {"claims": {}, "meta": {"bounds": {}}}, lang=lang)
    e = caught.value
    assert e.line == BODY_START, str(e)
    assert "'[^1]'" in e.message and "[^1]: " in e.message and "note's text" in e.message, \
        str(e)
    assert len(e.message) < 400, str(e)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_formula_indented_under_a_list_read_as_text_is_told_the_blank_line_above_the_list(
        tmp_path: Path, lang: str) -> None:
    """A formula indented under an item of a list written right under a paragraph line
    (which this Markdown reads as text of that paragraph, so the indented lines are code)
    was told 'inside an indented code block; for text and math remove the indent', advice
    that, followed, takes the formula out of the item the author put it in (and the list
    stays text). The error names the item and the list's first line, where the blank line
    goes; with it there, the build passes and the formula is the item's."""
    lines = ["The block has two parts:", "-   **First**: a norm.", "-   **Second**: a layer:",
             "", "    $$", "    y = W_2 x", "    $$", "", "After."]
    with pytest.raises(BuildError) as caught:
        page(tmp_path, "\n".join(lines) + "\n", {"claims": {}, "meta": {"bounds": {}}},
             lang=lang)
    e = caught.value
    assert e.line == BODY_START + 4, str(e)
    assert f"line {BODY_START + 2}" in e.message and f"line {BODY_START + 1}" in e.message, \
        str(e)
    assert "blank line before the list" in e.message, str(e)
    fixed = [*lines[:1], "", *lines[1:]]
    with captured():
        p = page(tmp_path, "\n".join(fixed) + "\n", {"claims": {}, "meta": {"bounds": {}}},
                 lang=lang)
    assert re.search(r"<li[^>]*>\s*<p[^>]*><strong>Second.*?math display.*?</li>", p.body,
                     re.S), p.body


# every message that suggests a box, as one of these passages brings it (another tool's tabs,
# spoilers, callouts, macros; a box line written wrong; Svelte's branches)
BOX_SUGGESTED = {
    "MkDocs tab holding a formula": '=== "PyTorch"\n\n    $$\n    x = 1\n    $$\n',
    "closing line that closes no box": "Words.\n\n///\n",
    "box of another kind": "/// note | Why\n\nWords.\n\n///\n",
    "box opened with two slashes": "// details | Why\n\nWords.\n",
    "Svelte branch": "{#if fw === 'pt'}\nPyTorch words.\n{:else}\nOther words.\n{/if}\n",
    "Discord spoiler": "The end is ||a twist|| here.\n",
    "Reddit spoiler": "The end is >!a twist!< here.\n",
    "Confluence macro": "{info}\nWords.\n{info}\n",
    "AsciiDoc admonition": "[NOTE]\nWords.\n",
    "formula in raw HTML": "<div>\nthe SD $x$ here\n</div>\n",
    "unknown tag": "see {% aside %} here\n",
    "Feishu callout": "<callout emoji=\"bulb\">\nWords.\n</callout>\n",
    "Hugging Face switch": "<hfoptions id=\"x\">\nWords.\n</hfoptions>\n",
    "Docusaurus tabs": "<Tabs>\nWords.\n</Tabs>\n",
}


@pytest.mark.parametrize("name", BOX_SUGGESTED)
def test_a_suggested_box_is_given_with_its_id_line(tmp_path: Path, name: str) -> None:
    """A box written without its `attrs: {id: …}` line stops the next build ('collapsible
    box without an id'): every message that suggests a `/// details` box gives that line too
    (MkDocs' tabs, a line of slashes closing nothing and Svelte's branches said only
    "a '/// details | Title' box")."""
    told: list[str] = []
    with captured() as messages:
        try:
            page(tmp_path, "Intro.\n\n" + BOX_SUGGESTED[name], RESULTS)
        except BuildError as e:
            told += [one.message for one in e.errors]
    told += list(messages)
    boxes = [m for m in told if "/// details" in m]
    assert boxes, told
    assert all("attrs: {id: " in m for m in boxes), boxes


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_box_indented_under_a_list_read_as_text_is_told_the_blank_line_above_the_list(
        tmp_path: Path, lang: str) -> None:
    """A box indented under an item of a list written right under a paragraph line, its
    closing '///' at the margin: this Markdown reads the list as text of the paragraph, so
    the box's lines are code, and the error quoted the closing '///' as 'box not
    understood' at the opening line, with how a box opens (which it does). It now names the
    item and the list's first line, where the blank line goes (as a formula there is told),
    and the closing line to indent; followed, the box is the item's."""
    lines = ["The steps:", "- **First**: scale.", "", "    /// details | Why",
             "        attrs: {id: why}", "", "    Because.", "///", "", "After."]
    with pytest.raises(BuildError) as caught:
        page(tmp_path, "\n".join(lines) + "\n", RESULTS, lang=lang)
    e = caught.value
    assert e.line == BODY_START + 3, str(e)
    assert f"line {BODY_START + 1}" in e.message and "blank line before the list" in e.message, \
        str(e)
    assert f"closing '///' of line {BODY_START + 7}" in e.message and "'    ///'" in e.message, \
        str(e)
    fixed = [lines[0], "", *lines[1:7], "    ///", *lines[8:]]
    with captured() as warned:
        p = page(tmp_path, "\n".join(fixed) + "\n", RESULTS, lang=lang)
    assert not list(warned)
    # the box is the item's: its <details>, and the box's id (on the div around its text,
    # md_blocks.BoxTargets), inside the list item
    boxes = [el for el in Tree(p.body).elements if el["attrs"].get("id") == "why"]
    assert [el["ancestors"][-2:] for el in boxes] == [["li", "details"]], p.body


@pytest.mark.parametrize("link, says", [
    ("[the demo](javascript:void(0))", "would run a script"),
    ("[the demo](javascript:alert(1))", "would run a script"),
    ("[x](vbscript:msgbox)", "no browser runs VBScript"),
    ("[x](file:///etc/hosts)", "on the reader's own machine"),
], ids=["javascript void", "javascript call", "vbscript", "file"])
def test_a_link_the_site_refuses_for_its_scheme_is_told_once(tmp_path: Path, katex: Any,
                                                             link: str, says: str) -> None:
    """`[text](javascript:void(0))`: beside the site's error ('would run a script …; link to
    a page or an anchor instead') a warning said GitHub makes no link of it (its safe mode
    empties such an address) and to 'write it as [text](address), with each '$' written
    '\\$'', advice that does not fit. The comparison of links now leaves out an address
    the site refuses for its scheme: one message, the error at its line."""
    with captured() as warned:
        e = error(tmp_path, f"Paragraph one.\n\nSee {link} here.\n", "site", katex)
    assert says in e.message and str(e).split(": ")[0].endswith(f":{BODY_START + 2}"), str(e)
    assert not [w for w in warned if "link" in w], warned
