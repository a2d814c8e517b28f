"""One fresh Python-Markdown instance per page, with the article's extensions.

Library extensions: attr_list (`{#id}`), tables, sane_lists, def_list, footnotes (configured
here and kept as an object, not found again by its class name), smarty (English quotes and the
ellipsis; no dashes: `--` stays as typed, as on GitHub; on CJK pages without quotes),
pymdownx.superfences (fences anywhere, also in list items and notes, and right under a line
of text, which they end as GitHub does: `md_blocks.FenceBreaks`, a preprocessor at 24, and
`FenceParagraphs`; the `reproduce` fence; relaxed headers: a fence with options such as
`title="…"` is still code, and `md_blocks` warns that the options are dropped; a MyST
directive's or Quarto chunk's `{name …}` is taken off before it, `md_blocks.PlainBracedFences`
at 25.5, a plain block of code as on GitHub, not one with an attribute per word),
pymdownx.blocks.details (`/// details` boxes), pymdownx.magiclink
(a bare `https://…`, `www.…` or e-mail address is a link, as GitHub's extended autolinks make
it; `md_autolink` ends it before CJK punctuation too), pymdownx.emoji (GitHub's shortcodes,
`:smile:`, as the emoji character: `md_emoji`). Math and code were taken out by `lexer`
before Markdown runs; `$` is escapable (`\\$`). `md_blocks` reads the same text again with
GitHub's parser (cmark-gfm) and warns wherever the two read the blocks or the links differently.

Markdown's `raw_html` postprocessor is replaced by `md_blocks.BlockTags`, which reads a
block's tag name up to any whitespace (a `<div` with its attributes on the next line is no
paragraph).

Each collector keeps its result as an attribute; `ArticleExtension.conversion` gathers them
into the page's `model.Conversion` (as MkDocs' `Page.render` keeps each treeprocessor's
result). The processors that only refuse a mistake are in `md_guards`.

Our treeprocessors, by priority (Markdown runs higher first; its own: inline 20, footnote 50,
footnote-reorder 19, footnote-duplicate 15, attr_list 8, smarty 6):

| class             | name               | prio | why there                                     |
|-------------------|--------------------|------|-----------------------------------------------|
| ReferenceEscapes  | sqrtdk-reference-escapes | 21 | after block parsing; before inline    |
| FenceParagraphs   | sqrtdk-fence-paragraphs | 19.85 | after inline; before the comparison   |
| BlockStructure    | sqrtdk-blocks      | 19.8 | after inline (text as the reader sees it);    |
|                   |                    |      | before footnotes are renumbered               |
| FootnoteNumbers   | sqrtdk-note-numbers| 19.5 | after inline made the references; before      |
|                   |                    |      | footnote-reorder sorts the notes by them      |
| FigureProcessor   | sqrtdk-figures     | 18   | after inline (images exist)                   |
| HtmlCodeText      | sqrtdk-html-code-text | 7.7 | before smarty and the CJK quotes: inline  |
|                   |                    |      | HTML code's quotes and '...' kept as typed    |
| CjkLineJoin       | sqrtdk-cjk-join    | 7.5  | after attr_list removed `{…}`; text is final  |
| CjkQuotes         | sqrtdk-cjk-quotes  | 7    | CJK pages: pairs `"` (smarty's are off there) |
| CjkSingleQuotes   | sqrtdk-single-quotes | 6.95 | CJK pages: pairs `'`, curls apostrophes    |
| SingleQuotes      | sqrtdk-single-quotes | 5.95 | Latin pages: right after smarty curled `'`; |
|                   |                    |      | before EnglishQuotes counts the `"`           |
| EnglishQuotes     | sqrtdk-english-quotes | 5.9 | Latin pages: right after smarty curled `"` |
| NoteAfterNumber   | sqrtdk-note-after-number | 4.5 | after smarty and the CJK line joins: |
|                   |                    |      | text final; before math: formulas as markers  |
| MathElements      | sqrtdk-math        | 4    | after smarty, which saw formulas as words     |
| MathPunctuationGlue | sqrtdk-math-glue | 3.95 | right after the math elements exist |
| KeepWhole | sqrtdk-keep-whole | 3.94 | after the math elements (their text is left out) |
| LabelGlue | sqrtdk-label-glue | 3.935 | the same; a label and its number ("footnote 4") |
| HeadingCollector  | sqrtdk-headings    | 3    | after attr_list's ids and the math elements   |
| IdCollector       | sqrtdk-ids         | 2.9  | after every id exists (headings, notes)       |
| ScrollingTables   | sqrtdk-tables      | 2.85 | after the ids are known: names each table by  |
|                   |                    |      | its header row (an id of its own) or heading  |
| BoxCollector      | sqrtdk-boxes       | 2.8  | any time after block parsing                  |
| BoxHeaderCheck    | sqrtdk-box-headers | 2.75 | any time after block parsing                  |
| EncodedAddresses  | sqrtdk-encoded-addresses | 2.72 | before the links are collected     |
| LinkCollector     | sqrtdk-links       | 2.7  | after figures added their links               |
| CitationCollector | sqrtdk-citations   | 2.6  | after math; before AttributeMarkers           |
| FootnoteChecks    | sqrtdk-note-checks | 2.5  | after Python-Markdown's footnote processors   |
| FootnoteSection   | sqrtdk-notes       | 2.4  | after the checks read the original list       |
| AttributeMarkers  | sqrtdk-attributes  | 2.3  | after the citations read the attributes       |
| RawHtmlGuard      | sqrtdk-raw-html    | 2.2  | the stash is complete after inline            |
| MathInRawHtml     | sqrtdk-raw-math    | 2.15 | the stash is complete after inline            |
| LeftoverCheck     | sqrtdk-leftovers   | 2.1  | after every text change                       |
| AmbiguousAddresses | sqrtdk-cjk-addresses | 2.06 | after inline made the links (warnings only) |
| ForeignSyntax     | sqrtdk-foreign     | 2.05 | after every text change (warnings only)       |
| TypedNumbers      | sqrtdk-typed-numbers | 2.04 | the same: numbers typed that equal a result |
| LangMarks         | sqrtdk-lang        | 2    | last: on the final text                       |
| FigureNames       | sqrtdk-figure-names | 1.89 | after the attribute checks; the text is final |
"""
from __future__ import annotations

import html
import re
import string
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import markdown
from markdown import Extension, Markdown
from markdown.extensions.attr_list import AttrListExtension
from markdown.extensions.def_list import DefListExtension
from markdown.extensions.footnotes import FN_BACKLINK_TEXT, NBSP_PLACEHOLDER, FootnoteExtension
from markdown.extensions.sane_lists import SaneListExtension
from markdown.extensions.smarty import SmartyExtension
from markdown.extensions.tables import TableExtension
from markdown.inlinepatterns import SubstituteTagInlineProcessor
from markdown.treeprocessors import UnescapeTreeprocessor
from markdown.util import AMP_SUBSTITUTE, HTML_PLACEHOLDER_RE
from pymdownx.blocks.details import DetailsExtension
from pymdownx.highlight import HighlightExtension
from pymdownx.superfences import SuperFencesCodeExtension

from .article_text import ArticleText
from .markers import (
    ANY_MATH_RE,
    BROKEN_MARKER_RE,
    MATH_HTML_RE,
    PRIVATE_USE_RE,
    strip_markers,
)
from .math.formula import Formula
from .md_autolink import (
    AmbiguousAddresses,
    CjkMagiclinkExtension,
    EncodedAddresses,
    ReferenceEscapes,
)
from .md_blocks import (
    BlockStructure,
    BlockTags,
    BoxTargets,
    FenceBreaks,
    FenceParagraphs,
    LoneTags,
    PlainBracedFences,
    StashTermDefList,
)
from .md_collect import (
    AttributeMarkers,
    BoxCollector,
    CitationCollector,
    HeadingCollector,
    IdCollector,
    LinkCollector,
)
from .md_emoji import GitHubEmojiExtension
from .md_figures import FigureNames, FigureProcessor, ScrollingTables
from .md_foreign import AuthorClasses, ForeignSyntax
from .md_guards import BoxHeaderCheck, LeftoverCheck, MathInRawHtml, RawHtmlGuard
from .md_math import HeaderNames, MathElements
from .md_note_marks import NoteAfterNumber
from .md_notes import FootnoteChecks, FootnoteNumbers, FootnoteSection, NestedLinks
from .md_reproduce import reproduce_fence
from .md_single_quotes import CjkSingleQuotes, SingleQuotes
from .md_text import (
    CJK_CLOSING,
    CjkLineJoin,
    CjkQuotes,
    CodeSpans,
    EnglishQuotes,
    HtmlCodeText,
    KeepWhole,
    LabelGlue,
    LangMarks,
    MathPunctuationGlue,
    TupleGlue,
    smarty_quote_patterns,
)
from .md_typed import TypedNumbers
from .model import Conversion, Lines, SvgPair
from .quoting import QuoteLog


class ArticleExtension(Extension):
    """Registers the processors of the table above on one page's Markdown instance; keeps
    the collectors, whose results make the page's `Conversion` (see `conversion`)."""

    def __init__(self, page: PageContext):
        super().__init__()
        self.page = page

    def conversion(self, html: str) -> Conversion:
        """What Markdown made of the page (`html`, from its `convert`) and what each collector
        gathered; the headings are serialised here, once Markdown's stash is complete."""
        self.headings.finish()
        p = self.page
        url_lines = _url_lines(p.text.raw_urls, self.links.lines, p.text.references,
                               p.text.prose)
        # the line named first: a reference definition's, else a Markdown link's, else a tag's
        urls = {url: lines[0] for source in (p.text.raw_urls, self.links.lines,
                                             p.text.references)
                for url, lines in source.items() if lines}
        lines = Lines(figures=self.figures.lines, footnotes=self.notes.lines,
                      boxes=self.boxes.lines, urls=urls, url_lines=url_lines,
                      image_lines={url: tuple(sorted({*p.text.raw_images.get(url, ()),
                                                      *self.links.images.get(url, ())}))
                                   for url in {**p.text.raw_images, **self.links.images}},
                      empty_links={url: tuple(sorted(
                          {*((n, True) for n in p.text.raw_empty_links.get(url, ())),
                           *((n, False) for n in self.links.empty.get(url, ()))}))
                          for url in {**p.text.raw_empty_links, **self.links.empty}},
                      snippets=p.text.snippet_lines(p.snippets_shown), ids=self.ids.lines,
                      spaced=self.blocks.spaced, tables=self.tables.lines)
        return Conversion(html=html, headings=self.headings.headings,
                          figures=self.figures.figures, footnotes=self.notes.labels,
                          boxes=self.boxes.boxes, ids=self.ids.ids, links=self.links.links,
                          cited=self.citations.cited, cited_lines=self.citations.lines,
                          snippets=self.page.snippets_shown, lines=lines,
                          tables=self.tables.shapes)

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 (Python-Markdown's name)
        p, text = self.page, self.page.text
        # CommonMark's escapes (spec 0.31, 2.4): a backslash makes any ASCII punctuation
        # literal, as on GitHub; Python-Markdown's own list lacks '<', '~', '=', …, and
        # `\<eos>` became a backslash and an unknown element (the word vanished). `\&` is
        # the lexer's (`&amp;`): an escaped '&' reaching the serializer as '&' keeps
        # `\&ouml;` an entity
        md.ESCAPED_CHARS.extend(c for c in string.punctuation
                                if c not in md.ESCAPED_CHARS and c != "&")
        self.blocks = BlockStructure(md, p.source, lambda: text.markdown,
                                     lambda: text.prose, lambda: text.first_line, p.readable)
        at = self.positions = self.blocks.positions
        self.figures = FigureProcessor(md, p.ui["figure"], p.resolve, p.known_figures,
                                       text.markdown, [f.line for f in p.formulas], at,
                                       text.first_line + 1, p.ui["figure_open"])
        self.math = MathElements(md, p.formulas, at)
        self.headings = HeadingCollector(md, p.ui["permalink"], lambda: text.prose,
                                         self.blocks.heading_lines, at,
                                         LangMarks(md, p.script, p.other_lang).run)
        self.ids = IdCollector(md, at, text.boxes, lambda: text.raw_ids,
                               lambda: text.own_anchors)
        self.boxes = BoxCollector(md, at, text.boxes)
        self.links = LinkCollector(md, at, lambda: text.prose)
        self.citations = CitationCollector(md, p.quotes, p.formulas, at)
        self.notes = FootnoteChecks(md, p.footnotes, at, text.notes, lambda: text.lines)
        self._register(md)

    def _register(self, md: Markdown) -> None:
        p, tp, text = self.page, md.treeprocessors, self.page.text
        self.blocks.raw_html.register()
        md.inlinePatterns.register(CodeSpans(), "backtick", 190)
        # CommonMark's other hard line break, a backslash at a line's end, as on GitHub (after
        # the escapes, 180, so that `\\` + a line break stays an escaped backslash)
        md.inlinePatterns.register(SubstituteTagInlineProcessor(r"\\\n", "br"),
                                   "sqrtdk-backslash-break", 99)
        md.preprocessors.register(FenceBreaks(md), "sqrtdk-fence-breaks", 24)
        md.preprocessors.register(PlainBracedFences(md, lambda: text.braced_fences,
                                                    lambda: text.first_line),
                                  "sqrtdk-plain-braced-fences", 25.5)
        # def_list's, a fence or raw HTML block never a term (replaces its 'deflist')
        md.parser.blockprocessors.register(StashTermDefList(md.parser, self.blocks.is_fence),
                                           "deflist", 25)
        tp.register(ReferenceEscapes(md), "sqrtdk-reference-escapes", 21)
        tp.register(FenceParagraphs(md, self.blocks.is_fence), "sqrtdk-fence-paragraphs", 19.85)
        tp.register(self.blocks, "sqrtdk-blocks", 19.8)
        tp.register(NestedLinks(md, self.positions), "sqrtdk-nested-links", 19.7)
        tp.register(FootnoteNumbers(md, p.footnotes, p.ui["note_ref"]), "sqrtdk-note-numbers", 19.5)
        tp.register(self.figures, "sqrtdk-figures", 18)
        tp.register(HtmlCodeText(md), "sqrtdk-html-code-text", 7.7)
        if p.script != "cjk":
            smarty_quote_patterns(md)
            tp.register(SingleQuotes(md, p.source, lambda: text.prose, p.readable,
                                     self.positions), "sqrtdk-single-quotes", 5.95)
            tp.register(EnglishQuotes(md, p.source, lambda: text.prose, p.readable,
                                      self.positions), "sqrtdk-english-quotes", 5.9)
        if p.script == "cjk":
            tp.register(CjkLineJoin(md, self.positions), "sqrtdk-cjk-join", 7.5)
            tp.register(CjkQuotes(md, p.source, lambda: text.prose, p.readable,
                                  self.positions),
                        "sqrtdk-cjk-quotes", 7)
            tp.register(CjkSingleQuotes(md, p.source, lambda: text.prose, p.readable,
                                        self.positions), "sqrtdk-single-quotes", 6.95)
        tp.register(NoteAfterNumber(md, p.source, lambda: [f.source for f in p.formulas],
                                    p.footnotes.get_separator(), self.positions),
                    "sqrtdk-note-after-number", 4.5)
        tp.register(self.math, "sqrtdk-math", 4)
        # every page: an opening bracket before a formula; CJK pages: closing marks after it
        tp.register(MathPunctuationGlue(md, self.positions,
                                        CJK_CLOSING if p.script == "cjk" else ""),
                    "sqrtdk-math-glue", 3.95)
        tp.register(KeepWhole(md, p.ui.get("keep_whole", ""), self.positions),
                    "sqrtdk-keep-whole", 3.94)
        tp.register(LabelGlue(md, p.ui.get("number_labels", ""), self.positions),
                    "sqrtdk-label-glue", 3.935)
        tp.register(TupleGlue(md), "sqrtdk-tuple-glue", 3.93)
        tp.register(self.headings, "sqrtdk-headings", 3)
        tp.register(self.ids, "sqrtdk-ids", 2.9)
        self.tables = ScrollingTables(md, lambda: self.ids.ids, self.positions)
        tp.register(self.tables, "sqrtdk-tables", 2.85)
        tp.register(self.boxes, "sqrtdk-boxes", 2.8)
        tp.register(BoxHeaderCheck(md, p.readable, self.positions, text.boxes,
                                   lambda: text.lines),
                    "sqrtdk-box-headers", 2.75)
        tp.register(EncodedAddresses(md), "sqrtdk-encoded-addresses", 2.72)
        tp.register(self.links, "sqrtdk-links", 2.7)
        tp.register(self.citations, "sqrtdk-citations", 2.6)
        tp.register(self.notes, "sqrtdk-note-checks", 2.5)
        tp.register(FootnoteSection(md, p.ui["footnotes"]), "sqrtdk-notes", 2.4)
        tp.register(AttributeMarkers(md), "sqrtdk-attributes", 2.3)
        tp.register(RawHtmlGuard(md, self.positions, lambda: text.lines), "sqrtdk-raw-html",
                    2.2)
        tp.register(MathInRawHtml(md, lambda: text.lines, p.formulas, p.readable,
                                  lambda: self.blocks.raw_html.entries, p.box_titles),
                    "sqrtdk-raw-math", 2.15)
        tp.register(LeftoverCheck(md, self.positions), "sqrtdk-leftovers", 2.1)
        tp.register(AmbiguousAddresses(md, p.magiclink.link_pattern, p.source,
                                       lambda: text.prose, self.positions),
                    "sqrtdk-cjk-addresses", 2.06)
        classes = AuthorClasses(md)                      # attr_list's, recording classes
        tp.register(classes, "attr_list", 8)
        tp.register(ForeignSyntax(md, p.source, lambda: text.prose, p.readable,
                                  self.positions, classes, p.box_titles, p.told_ids),
                    "sqrtdk-foreign", 2.05)
        tp.register(TypedNumbers(md, p.source, p.results, p.quotes, lambda: text.prose,
                                 self.positions), "sqrtdk-typed-numbers", 2.04)
        tp.register(LangMarks(md, p.script, p.other_lang), "sqrtdk-lang", 2)
        tp.register(HeaderNames(md), "sqrtdk-header-names", 1.9)
        tp.register(FigureNames(md), "sqrtdk-figure-names", 1.89)
        tp.register(LoneTags(md), "sqrtdk-lone-tags", 1.8)
        tp.register(BoxTargets(md), "sqrtdk-box-targets", 1.75)
        md.postprocessors.register(BlockTags(md), "raw_html", 30)


def _url_lines(raw: Mapping[str, list[int]], links: Mapping[str, list[int]],
               references: Mapping[str, list[int]], prose: str) -> dict[str, tuple[int, ...]]:
    """Every line each address was written on (raw HTML's tags, Markdown's links and images,
    reference definitions), in order: a mistake in an address written several times is
    told at each of them in one build. A link to a reference definition is fixed at the
    definition: a Markdown link's line counts for an address that has a definition only
    when the address is written on it (`[a](url)` besides `[b][ref]`)."""
    text: list[str] = []
    out: dict[str, tuple[int, ...]] = {}
    for url in {**raw, **links, **references}:
        lines = set(raw.get(url, ())) | set(references.get(url, ()))
        written = links.get(url, [])
        if url in references and written:
            text = text or prose.split("\n")
            written = [n for n in written if 0 < n <= len(text) and
                       (f"]({url}" in text[n - 1] or f"](<{url}" in text[n - 1])]
        out[url] = tuple(sorted(lines | set(written)))
    return out


class PageContext:
    """What the extensions of one page need to know."""

    def __init__(self, source: Path, quotes: QuoteLog, formulas: list[Formula],
                 ui: Mapping[str, str], language: Mapping[str, str],
                 resolve: Callable[[str], SvgPair], known_figures: list[str],
                 snippets: Mapping[str, Any], source_url: Callable[[str], str],
                 text: ArticleText | None = None, box_titles: Mapping[str, str] | None = None,
                 told_ids: Iterable[str] = (), results: Mapping[str, Any] | None = None):
        self.source, self.quotes, self.formulas = source, quotes, formulas
        # the build's results, for the numbers typed by hand that equal one (md_typed)
        self.results: Mapping[str, Any] = results or {}
        # the page language's titles of boxes told for other tools' note boxes (md_foreign),
        # and the ids already told for such boxes before the conversion (Notion's callouts)
        self.box_titles: Mapping[str, str] = box_titles or {}
        self.told_ids = frozenset(told_ids)
        self.text = ArticleText() if text is None else text   # the article (article_text)
        self.ui, self.resolve, self.known_figures = ui, resolve, known_figures
        self.snippets, self.source_url = snippets, source_url
        self.snippets_shown: list[str] = []   # the reproduce boxes' snippets, in order
        self.md: Markdown | None = None   # the page's Markdown (set by markdown_for)
        self.script = language.get("script", "latin")
        self.other_lang = language.get("other_lang", "")
        self.footnotes = FootnoteExtension(
            SEPARATOR="-", BACKLINK_TEXT="↩\ufe0e", USE_DEFINITION_ORDER=False,
            BACKLINK_TITLE=ui["backlink_title"], SUPERSCRIPT_TEXT="{}")
        self.magiclink = CjkMagiclinkExtension(hide_protocol=False, repo_url_shortener=False,
                                               social_url_shortener=False)


    def readable(self, text: str) -> str:
        """`text` as the author wrote it, for messages, on one line: each formula's token back
        to its `$…$` or `$$…$$`, Markdown's stash placeholders (smart quotes, raw HTML) back
        to their text, quote markers and any other private-use character out."""
        def formula(m: re.Match[str]) -> str:
            f = self.formulas[int(m.group(1))]
            fence = "$$" if f.display else "$"
            return f"{fence}{' '.join(f.source.split())}{fence}"

        def stashed(m: re.Match[str]) -> str:
            blocks = self.md.htmlStash.rawHtmlBlocks if self.md else []
            n = int(m.group(1))
            return html.unescape(str(blocks[n])) if n < len(blocks) else ""
        text = MATH_HTML_RE.sub(formula, ANY_MATH_RE.sub(formula, text))   # tokens, math elements
        text = HTML_PLACEHOLDER_RE.sub(stashed, strip_markers(text))
        # a note's back-link and the no-break space before it: the footnotes' placeholders
        text = text.replace(NBSP_PLACEHOLDER, "").replace(FN_BACKLINK_TEXT, "")
        # an entity Markdown wrote itself (MagicLink's e-mail address, `&#97;…`), its '&' held
        # as Markdown's placeholder
        text = _AMP_ENTITY.sub(lambda m: html.unescape("&" + m.group(1)), text)
        # a backslash escape (`\<`, `\~`) as typed: Markdown keeps it as a placeholder
        text = UnescapeTreeprocessor.RE.sub(lambda m: "\\" + chr(int(m.group(1))), text)
        # a marker cut short (a bug: text sliced before this) never shows its number
        return PRIVATE_USE_RE.sub("", BROKEN_MARKER_RE.sub("…", text))


_AMP_ENTITY = re.compile(re.escape(AMP_SUBSTITUTE) + r"(#?\w+;)")


def markdown_for(page: PageContext) -> tuple[Markdown, ArticleExtension]:
    """A fresh Markdown for one page (never reused across pages) and its article extension.

    Extensions are passed as instances, not names: a name makes Python-Markdown list every
    installed package's entry points first (tens of ms of every text-edit rebuild here)."""
    article = ArticleExtension(page)
    md = page.md = markdown.Markdown(extensions=[
        AttrListExtension(), TableExtension(), SaneListExtension(), DefListExtension(),
        page.footnotes,
        # no dashes: `--no-cache`, `1--5` and `---` stay as typed, as GitHub shows them (a
        # dash is typed as – or —); curly quotes and the ellipsis stay
        SmartyExtension(smart_quotes=page.script != "cjk", smart_angled_quotes=False,
                        smart_dashes=False),
        # plain <pre><code class="language-…">: the same HTML with or without Pygments
        HighlightExtension(use_pygments=False),
        # relaxed headers: a fence with options (title="…") is still code; md_blocks warns
        SuperFencesCodeExtension(relaxed_headers=True, custom_fences=[reproduce_fence(
            page.snippets, page.ui, page.snippets_shown, page.source_url)]),
        # GitHub's extended autolinks: a bare https://…, www.… or e-mail address is a link
        # (md_autolink: ending before CJK punctuation too)
        page.magiclink,
        # GitHub's emoji shortcodes (`:smile:`), as the character itself (md_emoji)
        GitHubEmojiExtension(),
        DetailsExtension(), article])
    return md, article
