"""CommonMark's own examples as a test (issue 17): every example of the spec's block sections
and of GFM's tables, read from ../shared/corpus/commonmark-spec.json as it is, is put alone
under each language's real front matter and converted with the real page function and that
language's real strings. Each must give the spec's block structure and text, or stop or
warn at one of the example's own lines; nothing may diverge silently.

Each example is converted on its own (not after the whole article): converting the article's
~300 lines takes a few tenths of a second, so 450 pages would take minutes; what the article
adds to an example is only the text before it, and the front matter's end separates the
example from what precedes it as the blank line after the article's last block would.

The inline sections (emphasis, links, images, escapes, entities, line breaks, strikethrough)
are compared by their inline structure (`inlines`) with GitHub's reading (`github_inlines`);
autolinks by their links, code spans by their code. For the block sections:

Compared: block elements (p, headings, lists, items, quotes, code, tables and their rows and
cells, rules) and their text, whitespace collapsed, through an HTML parser. Tight and loose
lists may differ (an item's paragraph counts as its text), as may a list's start number,
inline markup (emphasis, links), smart quotes and dashes, and invisible whitespace in code.
Skipped, and counted: examples holding the product's own syntax ($, {{, {%, {#, {:, raw <);
the spec's "HTML blocks" and "Raw HTML" examples, all holding `<`, have their own test
(`test_every_html_example_reads_as_on_github_or_names_its_line`).
"""
from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

import pytest

from sqrtdk.errors import BuildError
from sqrtdk.log import captured
from sqrtdk.options import PROJECT_ROOT
from sqrtdk.settings import load_settings, load_strings
from sqrtdk.textfiles import read_text
from sqrtdk.web.model import SvgPair
from sqrtdk.web.pages import build_page, split_front_matter

CORPUS = PROJECT_ROOT.parent / "shared" / "corpus" / "commonmark-spec.json"
SECTIONS = ("Lists", "List items", "Block quotes", "Paragraphs", "Thematic breaks",
            "ATX headings", "Setext headings", "Fenced code blocks",
            "Link reference definitions", "Blank lines", "Tables (extension)",
            "Indented code blocks", "Tabs")
OWN_SYNTAX = ("$", "{{", "{%", "{#", "{:", "<")
BLOCKS = {"p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "blockquote", "pre",
          "table", "tr", "th", "td", "hr"}
VOID = {"hr", "br", "img", "input", "source", "wbr"}
if not CORPUS.is_file() and os.environ.get("CI"):
    raise RuntimeError(f"CI must run the corpus tests, but {CORPUS} is missing")
pytestmark = pytest.mark.skipif(not CORPUS.is_file(),
                                reason="the shared corpus is not beside the project")
TYPOGRAPHY = str.maketrans({"\u201c": '"', "\u201d": '"', "\u2018": "'", "\u2019": "'",
                            "\u2013": "--", "\u2014": "---", "\u2026": "...", "\xa0": " "})


def examples() -> list[dict[str, Any]]:
    """The spec's examples of SECTIONS, as they are in the corpus."""
    data = json.loads(CORPUS.read_text(encoding="utf-8"))
    every = data["examples"] + data["gfm_extensions"]["examples"]
    return [e for e in every if e["section"] in SECTIONS]


class Blocks(HTMLParser):
    """An HTML fragment as nested block nodes `(tag, [children])`, text as strings; wrappers
    (div, thead, tbody, details) are transparent; our section links and the notes are
    dropped."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.root: tuple[str, list[Any]] = ("root", [])
        self.stack = [self.root]
        self.skip = 0
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.skip or (tag == "a" and ("class", "headerlink") in attrs) or \
                (tag == "section" and ("class", "footnote") in attrs):
            self.skip += tag not in VOID
        elif tag in BLOCKS:
            node: tuple[str, list[Any]] = (tag, [])
            self.stack[-1][1].append(node)
            if tag not in VOID:
                self.stack.append(node)
        elif tag == "br":
            self.handle_data(" ")

    def handle_endtag(self, tag: str) -> None:
        if self.skip:
            self.skip -= tag not in VOID
        elif tag in BLOCKS and tag not in VOID:
            while len(self.stack) > 1 and self.stack.pop()[0] != tag:
                pass

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.stack[-1][1].append(data)


def normal(node: tuple[str, list[Any]]) -> tuple[Any, ...]:
    """A node with its text runs joined and whitespace collapsed (in code: removed); a list
    item's paragraphs as its text (tight and loose read alike)."""
    tag, children = node
    out: list[Any] = []
    for child in children:
        if tag == "li" and isinstance(child, tuple) and child[0] == "p":
            child = "".join(x for x in child[1] if isinstance(x, str)) + "\n"
        if isinstance(child, str):
            if out and isinstance(out[-1], str):
                out[-1] += child
            else:
                out.append(child)
        else:
            out.append(normal(child))
    cut = "" if tag == "pre" else " "
    texts = [re.sub(r"\s+", cut, x.translate(TYPOGRAPHY)).strip() if isinstance(x, str) else x
             for x in out]
    return (tag, *[x for x in texts if x != ""])


def structure(html: str) -> tuple[Any, ...]:
    return normal(Blocks(html).root)


@pytest.fixture(scope="module")
def articles() -> dict[str, Any]:
    """Each language's real article, front matter and strings, and the committed results."""
    content = PROJECT_ROOT / "content"
    settings = load_settings(content)
    strings = load_strings(content, settings.languages)
    texts = {lang: read_text(content / lang / "index.md") for lang in settings.languages}
    fronts = {lang: split_front_matter(content / lang / "index.md", text)[0]
              for lang, text in texts.items()}
    results = json.loads((PROJECT_ROOT / "figures" / "results.json").read_text("utf-8"))
    results["sweep"] = json.loads((PROJECT_ROOT / "figures" / "sweep.json").read_text("utf-8"))
    return {"strings": strings, "fronts": fronts, "texts": texts, "results": results}


def any_figure(name: str) -> SvgPair:
    return SvgPair(f"../figures/{name}.svg", 640, 320, f"../figures/{name}.n.svg", 320, 300)


def outcome(folder: Path, example: dict[str, Any], lang: str, articles: dict[str, Any],
            whole: bool = False, view: Callable[[str], Any] | None = None,
            reference: Callable[[dict[str, Any]], str] | None = None) -> str:
    """'same', 'stopped' or 'warned' (at a line of the example), or what went wrong; the
    example under the front matter alone, or after the `whole` article and a blank line.
    Compared: `view` of our page and of `reference(example)` (default: the block `structure`
    of the spec's HTML)."""
    view = view or structure
    expected = (reference or (lambda e: str(e["html"])))(example)
    before = articles["texts"][lang].rstrip("\n") + "\n\n" if whole else articles["fronts"][lang]
    path = folder / lang / "index.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(before + example["markdown"], encoding="utf-8")
    first = before.count("\n") + 1
    own = range(first, first + max(example["markdown"].count("\n"), 1))
    try:
        with captured() as messages:
            page = build_page(path, articles["strings"][lang], articles["results"],
                              any_figure, [], lambda module: module)
    except BuildError as e:
        return "stopped" if e.line in own else f"stopped at line {e.line}: {e.message}"
    ours, spec = view(page.body), view(expected)
    if ours == spec or whole and ours[len(ours) - len(spec) + 1:] == spec[1:]:
        return "same"
    lines = [int(m.group(1)) for m in map(re.compile(r":(\d+): warning:").search, messages) if m]
    # a link to this site written with a space: the site's check warns at its line (or stops
    # there, when no such file exists), once every page's files are known (site_links)
    lines += [n for url, n in page.conversion.lines.urls.items()
              if unquote(url) in page.conversion.lines.spaced]
    if any(n in own for n in lines):
        return "warned"
    return f"silent divergence\n  ours: {ours}\n  spec: {spec}\n  warnings: {messages}"


OK = ("same", "stopped", "warned")


def tally(folder: Path, chosen: list[dict[str, Any]], sections: Any, articles: dict[str, Any],
          view: Callable[[str], Any] | dict[str, Callable[[str], Any]] | None = None,
          reference: Callable[[dict[str, Any]], str] | None = None,
          excuse: Callable[[dict[str, Any]], str] | None = None, width: int = 28,
          ) -> tuple[Counter[tuple[str, str]], list[str], str]:
    """Each of the `chosen` examples' `outcome` in each language (see `outcome` for `view` and
    `reference`; `view` may be one for each section): the counts by (section, outcome), the silent divergences as lines, and a
    table of the counts by section. An example holding the product's own syntax is skipped
    unless `excuse` is given; then one that diverges is skipped when `excuse` names its
    reason (and the reason is in the line of the divergence list, not a failure)."""
    counts: Counter[tuple[str, str]] = Counter()
    failures = []
    for example in chosen:
        if excuse is None and any(s in example["markdown"] for s in OWN_SYNTAX):
            counts[example["section"], "skipped"] += len(articles["fronts"])
            continue
        for lang in articles["fronts"]:
            result = outcome(folder / str(example["example"]), example, lang, articles,
                             view=view[example["section"]] if isinstance(view, dict) else view,
                             reference=reference)
            if result not in OK and excuse is not None and (why := excuse(example)):
                failures.append(f"skipped {example['example']} {lang}: {why}")
                result = "skipped"
            counts[example["section"], result if result in (*OK, "skipped") else "wrong"] += 1
            if result not in (*OK, "skipped"):
                failures.append(f"example {example['example']} ({example['section']}, {lang}): "
                                f"{example['markdown']!r}: {result}")
    table = "\n".join(f"{s:{width}} " + " ".join(f"{k}={counts[s, k]}" for k in
                                                  (*OK, "skipped", "wrong"))
                      for s in sections)
    return counts, failures, table


def test_every_block_example_gives_the_specs_structure_or_names_its_line(
        tmp_path: Path, articles: dict[str, Any]) -> None:
    counts, failures, table = tally(tmp_path, examples(), SECTIONS, articles)
    print(table)
    assert not failures, f"{len(failures)} example(s) diverge silently:\n" + \
        "\n".join(failures[:20]) + "\n" + table


def test_an_example_after_the_whole_article_reads_as_it_does_alone(
        tmp_path: Path, articles: dict[str, Any]) -> None:
    """The first example of each section that makes blocks of its own, starts at the
    margin (an indented one would continue the article's last note) and not with a list
    item (which would continue a list the article ends with, as this Markdown reads through
    the notes' definitions: warned, so not alone's outcome), after the whole real article:
    the same outcome as alone (the article costs a few tenths of a second a page, so one
    example per section)."""
    chosen = {}
    for example in examples():
        if example["section"] not in chosen and example["html"].strip() and \
                not re.match(r"[ \t]+\S|([-+*]|\d+[.)])([ \t]|$)", example["markdown"]) and \
                not any(s in example["markdown"] for s in OWN_SYNTAX):
            chosen[example["section"]] = example
    assert set(chosen) == set(SECTIONS)
    for example in chosen.values():
        for lang in articles["fronts"]:
            folder = tmp_path / str(example["example"])
            alone = outcome(folder / "alone", example, lang, articles)
            after = outcome(folder / "after", example, lang, articles, whole=True)
            assert after == alone, (example["example"], lang, example["markdown"], after)


class _Inline(HTMLParser):
    """An HTML fragment as the reader meets it in a line: each tag (name only, attributes
    left out) and each run of text, whitespace collapsed; comments are invisible (the text
    on both sides of one is one run). HTML's
    `<!-->` and `<!--->` are whole comments (CommonMark 0.31 follows HTML; Python's parser
    before 3.13 reads on to the next `-->`, and would take the text after them for part of
    the comment)."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.seen: list[str] = []
        self.skip = 0
        self.spans: list[bool] = []      # each open <span>: only the page's language mark?
        self.feed(html)
        self.close()

    def parse_comment(self, i: int, report: bool = True) -> int:
        for short in ("<!-->", "<!--->"):
            if self.rawdata.startswith(short, i):
                return i + len(short)
        return int(super().parse_comment(i, report))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.skip or (tag == "a" and ("class", "headerlink") in attrs) or \
                (tag == "section" and ("class", "footnote") in attrs):
            self.skip += tag not in VOID
        elif tag == "span" and [name for name, _ in attrs] == ["lang"]:
            self.spans.append(True)      # Latin words on a Chinese page marked English (md_text)
        else:
            if tag == "span":
                self.spans.append(False)
            self.seen.append(f"<{tag}>")

    def handle_endtag(self, tag: str) -> None:
        if self.skip:
            self.skip -= tag not in VOID
        elif tag == "span" and self.spans and self.spans.pop():
            return
        elif tag not in VOID:
            self.seen.append(f"</{tag}>")

    def handle_data(self, data: str) -> None:
        if self.skip or not data.strip():
            return
        text = " ".join(data.translate(TYPOGRAPHY).split())
        if self.seen and not self.seen[-1].startswith("<"):     # a comment between: one run
            self.seen[-1] += " " + text
        else:
            self.seen.append(text)


HTML_SECTIONS: dict[str, Callable[[str], Any]] = {
    "HTML blocks": structure,                       # which blocks, and their text
    "Raw HTML": lambda html: _Inline(html).seen,    # which tags, and the text between them
}
# a tag whose name is no HTML element ('<bab>', '<b2/>', '<responsive-image …/>', '</foo >')
_TAG_NAME = re.compile(r"</?([A-Za-z][A-Za-z0-9-]*)")


def _own_tokens(markdown: str) -> list[str]:
    """The tags of `markdown` whose name is no HTML element. README, "Angle brackets": such a
    token (`<eos>`, `List<T>`) is text here, shown as typed, where GitHub takes it for a tag
    and hides it; an example holding one may differ there, by design."""
    from sqrtdk.web.html_names import element_names
    names = element_names()
    return [m.group(0) for m in _TAG_NAME.finditer(markdown)
            if m.group(1).lower() not in names]


def test_every_html_example_reads_as_on_github_or_names_its_line(
        tmp_path: Path, articles: dict[str, Any]) -> None:
    """CommonMark's "HTML blocks" and "Raw HTML" examples, from the corpus as they are, which
    the block test skips (they hold `<`): each gives the spec's blocks and text (HTML blocks)
    or its tags and text (raw HTML), or stops or warns at one of its lines. What is this
    site's own by design, not GitHub's: comments are dropped before anything reads the
    article (the page, like the spec's HTML, shows nothing of one; where GitHub's reading of
    one as a block parts from the page's, the build warns at it); `<script>`, `<style>` and
    `on…=` stop the build (the page's Content-Security-Policy), and so does a `$` that starts
    no formula; and a tag whose name is no HTML element is text (`_own_tokens`): an example
    holding one that differs is counted as skipped, with its tokens named."""
    data = json.loads(CORPUS.read_text(encoding="utf-8"))
    chosen = [e for e in data["examples"] if e["section"] in HTML_SECTIONS]
    assert {e["section"] for e in chosen} == set(HTML_SECTIONS)
    counts, lines, table = tally(tmp_path, chosen, HTML_SECTIONS, articles,
                                 view=HTML_SECTIONS,
                                 excuse=lambda e: " ".join(_own_tokens(e["markdown"])))
    skipped = [x for x in lines if x.startswith("skipped ")]
    failures = [x for x in lines if not x.startswith("skipped ")]
    print(table, "\nskipped (not HTML elements, text here by design):", *skipped, sep="\n")
    assert not failures, f"{len(failures)} example(s) diverge silently:\n" + \
        "\n".join(failures) + "\n" + table
    # the skip is for a few inline tokens only: every HTML block example counts
    assert counts["HTML blocks", "skipped"] == 0 and \
        len(skipped) <= len(articles["fronts"]) * len(chosen) // 10, table


LINK_SECTIONS = ("Autolinks", "Autolinks (extension)")


class _Links(HTMLParser):
    """The links of an HTML fragment: (href, text) each, in order."""

    def __init__(self, html: str):
        super().__init__()
        self.links: list[tuple[str, str]] = []
        self._open: list[Any] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "a":
            self._open.append([dict(attrs).get("href") or "", ""])

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._open:
            href, text = self._open.pop()
            self.links.append((href, text))

    def handle_data(self, data: str) -> None:
        for link in self._open:
            link[1] += data


def github(example: dict[str, Any]) -> str:
    """The example's HTML as GitHub shows it: the spec's, except that the core section's
    examples are also read with GFM's extended autolinks, as GitHub reads every text (a bare
    `https://example.com` is text in CommonMark, a link on GitHub), by cmark-gfm, GitHub's
    own parser."""
    if example["section"] != "Autolinks":
        return str(example["html"])
    import cmarkgfm
    return str(cmarkgfm.markdown_to_html_with_extensions(example["markdown"],
                                                         extensions=["autolink"]))


def test_every_autolink_example_gives_the_specs_links_or_names_its_line(
        tmp_path: Path, articles: dict[str, Any]) -> None:
    """CommonMark's autolinks (`<https://…>`, `<me@example.org>`, any scheme) and GFM's
    extended ones (bare `www.…`, `https://…`, e-mail addresses), from the corpus as they are:
    each example gives GitHub's links (address and text; see `github`), or stops or warns at
    one of its own lines. (The README promises `<https://…>` is a link; a warning on it would fail
    `--strict`.)"""
    data = json.loads(CORPUS.read_text(encoding="utf-8"))
    chosen = [e for e in data["examples"] + data["gfm_extensions"]["examples"]
              if e["section"] in LINK_SECTIONS]
    assert {e["section"] for e in chosen} == set(LINK_SECTIONS)
    failures = []
    for example in chosen:
        for lang in articles["fronts"]:
            result = outcome(tmp_path / str(example["example"]), example, lang, articles,
                             view=lambda html: _Links(html).links, reference=github)
            if result not in ("same", "stopped", "warned"):
                failures.append(f"example {example['example']} ({example['section']}, {lang}) "
                                f"{example['markdown']!r}: {result}")
    assert not failures, f"{len(failures)} example(s):\n" + "\n".join(failures)


class _Code(HTMLParser):
    """The text of each inline <code> of an HTML fragment, exactly (its spaces kept)."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.spans: list[str] = []
        self._depth = 0
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "code":
            self._depth += 1
            self.spans.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "code" and self._depth:
            self._depth -= 1

    def handle_data(self, data: str) -> None:
        if self._depth:
            self.spans[-1] += data


def test_every_code_span_example_keeps_the_specs_code_or_names_its_line(
        tmp_path: Path, articles: dict[str, Any]) -> None:
    """CommonMark's code spans, from the corpus as they are: each gives the spec's code,
    spaces included (a real post's `self.h = ... ` lost its trailing space: Python-Markdown
    strips every space from both ends, CommonMark one from each end only when both ends have
    one, and turns a line ending into a space), or stops or warns at one of its lines."""
    data = json.loads(CORPUS.read_text(encoding="utf-8"))
    chosen = [e for e in data["examples"] if e["section"] == "Code spans"
              and not any(s in e["markdown"] for s in OWN_SYNTAX)]
    assert chosen
    failures = []
    for example in chosen:
        for lang in articles["fronts"]:
            result = outcome(tmp_path / str(example["example"]), example, lang, articles,
                             view=lambda html: _Code(html).spans)
            if result not in ("same", "stopped", "warned"):
                failures.append(f"example {example['example']} ({lang}) "
                                f"{example['markdown']!r}: {result}")
    assert not failures, f"{len(failures)} example(s):\n" + "\n".join(failures)


INLINE_SECTIONS = ("Emphasis and strong emphasis", "Links", "Images", "Backslash escapes",
                   "Entity and numeric character references", "Hard line breaks",
                   "Strikethrough (extension)", "Textual content", "Soft line breaks",
                   "Precedence", "Inlines")
_FORMATS = {"em", "strong", "del", "code", "a"}


class Inlines(HTMLParser):
    """An HTML fragment's inline structure: runs of text, each with the formats around it
    as a sorted tuple (em, strong, del, code, and a link as `a=href`, its address as sent:
    `sent`), as a reader sees them (`<em><strong>` and `<strong><em>` alike, an `<em>`
    inside an `<em>` as one), and between them a `br` and an image (`img=src|alt`). Blocks
    are spaces; our section links and the notes are dropped."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.runs: list[tuple[tuple[str, ...], str]] = []
        self.open: list[str] = []
        self.skip = 0
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if self.skip or (tag == "a" and ("class", "headerlink") in attrs) or \
                (tag in ("section", "div") and values.get("class") in ("footnote", "footnotes")):
            self.skip += tag not in VOID
        elif tag in _FORMATS:
            self.open.append(f"a={sent(values.get('href') or '')}" if tag == "a" else tag)
        elif tag in ("br", "img"):
            mark = "br" if tag == "br" else f"img={values.get('src')}|{values.get('alt')}"
            self.runs.append(((mark,), ""))
        elif tag in BLOCKS:
            self.handle_data(" ")

    def handle_endtag(self, tag: str) -> None:
        if self.skip:
            self.skip -= tag not in VOID
        elif tag in _FORMATS:
            for i in range(len(self.open) - 1, -1, -1):
                if self.open[i].split("=", 1)[0] == tag:
                    del self.open[i]
                    break
        elif tag in BLOCKS:
            if tag == "pre" and self.runs and "code" in self.runs[-1][0]:
                # the line ending that ends a code block's last line is no text
                self.runs[-1] = (self.runs[-1][0], self.runs[-1][1].removesuffix("\n"))
            self.handle_data(" ")

    def handle_data(self, data: str) -> None:
        if self.skip:
            return
        state = tuple(sorted(set(self.open)))
        if self.runs and self.runs[-1][0] == state:
            self.runs[-1] = (state, self.runs[-1][1] + data)
        else:
            self.runs.append((state, data))


def sent(href: str) -> str:
    """A link's address as a browser sends it: each space, control and non-ASCII character
    percent-encoded (UTF-8), as cmark-gfm writes it (`/f%C3%B6%C3%B6`); a backslash is kept
    (a browser takes it for a '/', GitHub sends `%5C`)."""
    return quote(href, safe="".join(map(chr, range(33, 127))))


def inlines(html: str) -> list[tuple[tuple[str, ...], str]]:
    """`Inlines` of `html`, each run's text normalised, runs of only spaces outside any
    format dropped (and what they separated joined when the formats are the same)."""
    out: list[tuple[tuple[str, ...], str]] = []
    for state, text in Inlines(html).runs:
        text = re.sub(r"\s+", " ", text.translate(TYPOGRAPHY))
        if not text.strip() and not state:
            continue
        if out and out[-1][0] == state:
            out[-1] = (state, out[-1][1] + text)
        else:
            out.append((state, text))
    return [(state, text.strip() if not state or "code" not in state else text)
            for state, text in out]


def github_inlines(example: dict[str, Any]) -> str:
    """The example as GitHub shows it: read by cmark-gfm, GitHub's own parser, with GitHub's
    extensions. Under `inlines` it reads every inline example as the spec's HTML does but
    one: `&#87654321;` (too long for a character reference) is U+FFFD on GitHub, text in the
    spec."""
    import cmarkgfm
    return str(cmarkgfm.markdown_to_html_with_extensions(
        example["markdown"], extensions=["table", "autolink", "strikethrough", "tasklist"]))


def test_every_inline_example_gives_the_specs_inline_structure_or_names_its_line(
        tmp_path: Path, articles: dict[str, Any]) -> None:
    """CommonMark's inline sections (emphasis, links, images, escapes, entities, line
    breaks, strikethrough), from the corpus as they are: each gives GitHub's emphasis, links
    (address), images, code, deletions and line breaks, with the text between them
    (`inlines`; GitHub's reading: `github_inlines`), or stops or warns at one of its own
    lines. Skipped, as in the block test: examples holding the product's own syntax."""
    data = json.loads(CORPUS.read_text(encoding="utf-8"))
    chosen = [e for e in data["examples"] + data["gfm_extensions"]["examples"]
              if e["section"] in INLINE_SECTIONS]
    assert {e["section"] for e in chosen} == set(INLINE_SECTIONS)
    counts, failures, table = tally(tmp_path, chosen, INLINE_SECTIONS, articles, view=inlines,
                                    reference=github_inlines, width=40)
    print(table)
    assert not failures, f"{len(failures)} example(s) diverge silently:\n" + \
        "\n".join(failures) + "\n" + table
