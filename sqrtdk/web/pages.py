"""One article page: read, take math and code out, quote the results, convert.

Nothing is written here; a `Page` holds the conversion (its HTML, math placeholders and quote
markers still in it, and what each collector found), which the site builder validates before
it writes a byte. Every line number in a message is the article's own: the front matter is
kept as blank lines, the lexer and the template keep lines in place, and each formula, quote
and claim records the line it was written on.
"""
from __future__ import annotations

import difflib
import logging
import re
from collections.abc import Callable, Hashable, Mapping
from pathlib import Path
from typing import Any

import yaml

from ..errors import BuildError, Mistakes, combined, deepest_line, line_of, too_deep
from ..log import warn
from ..markup import markup_told
from ..settings import Strings
from ..textfiles import read_text, visible
from .article_text import read_article
from .blocks import deepest_block
from .cjk_lint import lint_chinese, switched_off
from .comment_blocks import comment_block_warnings
from .converter import PageContext, markdown_for
from .editor_blocks import (
    generated_contents,
    heading_anchors,
    myst_box_fences,
    notion_callout,
    notion_callouts,
)
from .html_names import element_names
from .lexer import Masked, code_block_end, mask
from .markers import strip_markers
from .math.formula import Formula
from .md_math import ContentError
from .md_reproduce import UnknownSnippet
from .model import Conversion, HeadingWithoutIdError, Page, SvgPair
from .quoting import Quoter
from .raw_html import blank_lines

_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?\n)---[ \t]*\n", re.S)
# a front matter below the file's first line: '---', a title: or description: line, '---'
_LATER_FRONT_MATTER = re.compile(r"^---[ \t]*\n(?:(?!---).*\n)*?(?:title|description):"
                                 r".*\n(?:(?!---).*\n)*?---[ \t]*$", re.M)
REQUIRED_META = ("title", "description")
LOGGER = logging.getLogger("sqrtdk.web")


_TEX_COMMAND = re.compile(r"\\[A-Za-z]{2,}|\\[()\[\]]")   # \sqrt, \frac, \( … (not \n)


def split_front_matter(path: Path, text: str) -> tuple[str, str]:
    """(the leading `---` block with its fences, the rest); BuildError if there is none."""
    m = _FRONT_MATTER.match(text)
    if not m and text.lstrip("\ufeff").startswith("---"):
        raise BuildError(path, 1, "the front matter opened here is never closed; end it with "
                                  "a line '---' after its 'description: …' line")
    if not m:
        later = _LATER_FRONT_MATTER.search(text)
        if later:       # a comment or a line above it: the block is then text, not settings
            found = text.count("\n", 0, later.start()) + 1
            first = text.lstrip("\ufeff").lstrip()
            above = "the comment" if first.startswith(("<!--", "{#")) else "the text"
            raise BuildError(path, 1, f"the front matter must be the first thing in the file "
                                      f"(found at line {found}); move {above} above it below "
                                      "its closing '---'")
        if re.match(r"\+{3}[ \t]*\n", text.lstrip("\ufeff")):     # Hugo's TOML front matter
            raise BuildError(path, 1, "front matter between '+++' lines (Hugo's TOML) is not "
                                      "read here; write it between '---' lines as YAML: "
                                      "'title: …', 'description: …'")
        if re.match(r"Title:[ \t]*\S[^\n]*\n[A-Z][\w-]*:", text.lstrip("\ufeff")):
            raise BuildError(path, 1, "missing front matter: metadata lines 'Title: …', "
                                      "'Date: …' (Pelican's, MultiMarkdown's) are not read "
                                      "here; write them as YAML between '---' lines: "
                                      "'title: …', 'description: …' (a Summary: is the "
                                      "description), and remove the others")
        raise BuildError(path, 1, "missing front matter; start the file with '---', "
                                  "'title: …', 'description: …', '---'")
    return m.group(0), text[m.end():]


def parse_front_matter(path: Path, block: str) -> dict[str, str]:
    """The front matter's YAML (quotes already evaluated): title and description required,
    plain text (they become <title>, the description and link previews)."""
    inner = block.split("\n", 1)[1].rsplit("---", 1)[0]
    try:
        meta = yaml.load(inner, Loader=_UniqueKeyLoader) or {}  # noqa: S506 (a SafeLoader)
    except _DuplicateKeyError as e:
        raise BuildError(path, e.line + 2, f"front matter has '{e.key}:' twice (also at line "
                         f"{e.first + 2}); YAML would keep the last one silently: keep one "
                         "line") from None
    except RecursionError:      # YAML reads nested brackets recursively
        raise too_deep(path, deepest_line(inner, 2), "the front matter's brackets or "
                       "braces") from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        raise BuildError(path, (mark.line + 2) if mark else 1,
                         f"front matter is not valid YAML: {getattr(e, 'problem', e)}"
                         + ("; inside \"…\" a backslash starts an escape: a dollar sign "
                            "is $5 there (\\$ only outside quotes), and title and "
                            "description are plain text: write √dₖ, not TeX"
                            if "escape" in str(getattr(e, "problem", "")) else
                            "; a value holding ': ' or starting with a quote or bracket goes "
                            "in double quotes, e.g. title: \"Why: a question\"")) from None
    if not isinstance(meta, dict):
        raise BuildError(path, 2, "front matter must be 'key: value' lines")
    for key in REQUIRED_META:
        if key in meta and not (isinstance(meta[key], str) and visible(meta[key])):
            value = meta[key]
            what = ("is empty" if value is None or (isinstance(value, str) and not value.strip())
                    else "holds only invisible characters" if isinstance(value, str)
                    else f"is not text (YAML reads {value!r} as a {_yaml_kind(value)})")
            raise BuildError(path, _line_of_key(block, key), f"front matter '{key}:' {what}; "
                             f"write its text after '{key}: ', in double quotes if it starts "
                             "with a bracket or holds ': '")
        if not isinstance(meta.get(key), str) or not visible(meta[key]):
            others = [str(k) for k in meta if str(k) not in REQUIRED_META]
            close = difflib.get_close_matches(key, others, n=1, cutoff=0.6)
            if close:
                raise BuildError(path, _line_of_key(block, close[0]),
                                 f"front matter needs a '{key}: …' line; '{close[0]}' here looks "
                                 f"like it, misspelt: write '{key}:'")
            raise BuildError(path, 1, f"front matter needs a '{key}: …' line")
        if _FORMULA_START.search(meta[key]) or _TEX_COMMAND.search(meta[key]):
            raise BuildError(path, _line_of_key(block, key), f"the {key} is plain text (it becomes "
                             "the page's <title> and link previews, where TeX cannot show); write "
                             "math in Unicode, e.g. √dₖ (a dollar sign is '$5' or '\\$')")
        meta[key] = meta[key].replace("\\$", "$")
        _shown_as_typed(path, _line_of_key(block, key), key, meta[key])
    for key in meta:
        if str(key) not in REQUIRED_META:   # date:, tags:, author: reach no page
            close = difflib.get_close_matches(str(key), REQUIRED_META, n=1, cutoff=0.6)
            warn(LOGGER, path, _line_of_key(block, str(key)), f"front matter '{key}:' is not "
                 "used: the page takes only title and description from it; "
                 + (f"did you mean '{close[0]}:'?" if close else "remove the line"))
    return {str(k): strip_markers(str(v)) for k, v in meta.items()}


def _yaml_kind(value: object) -> str:
    """What YAML read a value as, in words ("list", "number", "date", …)."""
    kinds = {list: "list", dict: "table of keys", bool: "yes/no value", int: "number",
             float: "number"}
    return next((word for kind, word in kinds.items() if isinstance(value, kind)),
                "date" if type(value).__name__ in ("date", "datetime") else type(value).__name__)


def _shown_as_typed(path: Path, line: int, key: str, value: str) -> None:
    """A warning when the title or description holds Markdown formatting or HTML (a tag, an
    entity such as &mdash;): both are plain text, so the page's <title>, heading and link
    previews would show the marks as typed."""
    if told := markup_told(value, f"the {key}", "the <title>, the heading and link previews"):
        warn(LOGGER, path, line, told)


class _DuplicateKeyError(Exception):
    """A key given twice in one YAML mapping (0-based lines of both)."""

    def __init__(self, key: str, first: int, line: int):
        super().__init__(key)
        self.key, self.first, self.line = key, first, line


class _UniqueKeyLoader(yaml.SafeLoader):
    """PyYAML's safe loader, except that a mapping with a key given twice is an error
    (PyYAML keeps the last value without a word; YAML 1.2 §3.2.1.1 requires unique keys)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False
                          ) -> dict[Any, Any]:
        seen: dict[Any, int] = {}
        if not isinstance(node, yaml.MappingNode):      # `!!map [1]`
            raise yaml.constructor.ConstructorError(
                None, None, f"expected a mapping node, but found {node.id}", node.start_mark)
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if not isinstance(key, Hashable):          # `? [a, b]`, `{[1]: 2}`
                raise yaml.constructor.ConstructorError(
                    None, None, "a list or table as a key is not a name", key_node.start_mark)
            if key in seen:
                raise _DuplicateKeyError(str(key), seen[key], key_node.start_mark.line)
            seen[key] = key_node.start_mark.line
        return super().construct_mapping(node, deep)

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        """PyYAML's, except that a value its tag cannot be made of (`2026-13-45` read as a
        date, `!!int "abc"`, `!!bool "abc"`) is a YAMLError at the value's line: PyYAML's
        constructors let Python's ValueError (and others) out with no line."""
        try:
            return super().construct_object(node, deep)
        except (yaml.YAMLError, _DuplicateKeyError, RecursionError):
            raise
        except (ValueError, TypeError, KeyError, AttributeError, OverflowError) as e:
            kind = _TAG_KINDS.get(str(node.tag).rsplit(":", 1)[-1], "its tag's kind")
            value = f"'{node.value}'" if isinstance(node.value, str) else "this value"
            detail = f" ({e})" if isinstance(e, ValueError) and str(e) else ""
            raise yaml.constructor.ConstructorError(
                None, None, f"{value} is read as {kind}, but is none{detail}",
                node.start_mark) from None


# what a YAML tag makes, in words (for _UniqueKeyLoader.construct_object)
_TAG_KINDS = {"timestamp": "a date", "int": "a whole number", "float": "a number",
              "bool": "a yes/no value", "map": "a table of keys", "seq": "a list",
              "str": "text", "binary": "binary data", "set": "a set", "omap": "an ordered table",
              "pairs": "a list of pairs", "null": "nothing (null)"}


# a `$` that would open a formula in the article (before a non-space, not a digit: `$d_k$`);
# `$5`, `US$ 5` and `\$` are dollar signs
_FORMULA_START = re.compile(r"(?<!\\)\$(?=[^\s\d$])")


def _line_of_key(block: str, key: str) -> int:
    for i, line in enumerate(block.split("\n"), 1):
        if line.startswith(f"{key}:"):
            return i
    return 1


def build_page(path: Path, strings: Strings, results: Mapping[str, Any],
               resolve: Callable[[str], SvgPair], known_figures: list[str],
               source_url: Callable[[str], str], cache_dir: Path | None = None,
               node_modules: Path | None = None) -> Page:
    """Read, quote and convert one article (`_build_page`). Raises BuildError with the file
    and line; also where the article nests blocks or brackets deeper than a recursive part of
    the conversion can follow (a RecursionError: Python-Markdown's lists, a walk of the
    tree), at the line where they nest deepest."""
    try:
        return _build_page(path, strings, results, resolve, known_figures, source_url,
                           cache_dir, node_modules)
    except RecursionError:
        text = read_text(path)
        depth, line = deepest_block(text)
        if depth >= 50:
            raise too_deep(path, line, f"lists or quotes ({depth} levels)") from None
        raise too_deep(path, deepest_line(text), "brackets or emphasis") from None


def _build_page(path: Path, strings: Strings, results: Mapping[str, Any],
                resolve: Callable[[str], SvgPair], known_figures: list[str],
                source_url: Callable[[str], str], cache_dir: Path | None = None,
                node_modules: Path | None = None) -> Page:
    """Read, quote and convert one article. Raises BuildError with the file and line.
    `cache_dir` keeps the compiled templates of its quotes (see quoting.Quoter);
    `node_modules` holds the list of HTML's element names (default: the project's).

    A mistake that leaves the rest unreadable (the file, its front matter, a fence or formula
    never closed: the lexer's) stops at once. The quotes are independent of each other: every
    paragraph's and formula's first mistake, and the front matter's, are raised together
    (errors.Mistakes), and the article is not converted further. Converting (Markdown)
    stops at its first mistake."""
    text = read_text(path)
    front, body = split_front_matter(path, text)
    blank_front = "\n" * front.count("\n")
    elements = element_names(node_modules) if node_modules else element_names()
    masked: Masked = mask(path, blank_front + body, elements)       # lines as in the file
    for line, message in comment_block_warnings(path, blank_front + body, code_block_end):
        warn(LOGGER, path, line, message)
    callouts = notion_callouts(blank_front + body, strings.box_titles)
    for line, title, slug in callouts:
        warn(LOGGER, path, line, notion_callout(title, slug))
    myst_boxes = myst_box_fences(blank_front + body, masked.fences, strings.box_titles,
                                 {slug for _, _, slug in callouts})
    for line, message, _slug in myst_boxes:
        warn(LOGGER, path, line, message)
    for line, message in heading_anchors(blank_front + body):
        warn(LOGGER, path, line, message)
    quoter = Quoter(path, results, results.get("claims", {}), cache_dir)
    mistakes = Mistakes()
    contents = generated_contents(path, blank_front + body, code_block_end)
    if contents is not None:    # its links' anchors are GitHub's: told once, not each
        mistakes.add(contents)
    rendered: str | None = None
    meta: dict[str, str] = {}
    formulas: list[Formula] = []
    with mistakes.seam():
        rendered = quoter.render_prose(front + masked.text[len(blank_front):])
    if rendered is not None:        # its front matter is read once it is quoted
        with mistakes.seam():
            meta = parse_front_matter(path, _front_of(rendered))
    for raw in masked.formulas:
        with mistakes.seam():
            formulas.append(quoter.render_formula(raw))
    mistakes.raise_any()
    assert rendered is not None
    rendered_front = _front_of(rendered)
    article = read_article(path, masked, rendered[len(rendered_front):], front.count("\n"))
    if strings.language.get("script") == "cjk":     # spacing and punctuation: warnings only
        # the front matter too (title and description: plain text, shown in previews)
        linted = blank_lines(masked.text, article.raw_html, "")
        lint_chinese(path, front + linted[len(blank_front):], masked,
                     switched_off(path, blank_front + body))
    page = PageContext(path, quoter.log, formulas, strings.ui, strings.language, resolve,
                       known_figures, results.get("reproduce", {}), source_url, article,
                       strings.box_titles, {slug for _, _, slug in (*callouts, *myst_boxes)},
                       results)
    return Page(lang=strings.lang, source=path, meta=meta, conversion=convert(page, masked),
                quotes=quoter.log, formulas=formulas)


def convert(page: PageContext, masked: Masked) -> Conversion:
    """Convert the page's Markdown (`page.text.markdown`) with a fresh Markdown instance:
    its HTML and what each collector gathered. A mistake found while converting is a
    BuildError at its line (see `_located`)."""
    md, article = markdown_for(page)
    try:
        return article.conversion(md.convert(page.text.markdown))
    except ContentError as e:
        raise combined(_located(one, page, masked) for one in (e, *e.more)) from None
    except UnknownSnippet as e:     # the first reproduce fence naming it (the lexer's record)
        line = next((line for line, name in page.text.reproduce if name == e.name), 0) or \
            next((line for line, info, code in masked.fences   # '```reproduce demo', code ''
                  if info.split()[:1] == ["reproduce"]
                  and code.strip().split("\n")[0].strip() == e.name), 0)
        raise BuildError(page.source, line, str(e)) from None


def _located(e: ContentError, page: PageContext, masked: Masked) -> BuildError:
    """The BuildError for a mistake found while converting: at the line the collector knew
    from the page's source positions (`e.line`); where they give none (a block the two
    parsers read differently), where its needle is in the article as written, from the line
    its block cannot be before (`e.after`), else in the article with its code back (text the
    lexer took for code, Markdown did not)."""
    needles = e.needle if isinstance(e.needle, tuple) else (e.needle,)
    line, searchable = 0, page.text.lines
    for searchable in (page.text.prose, page.text.lines):   # raw HTML last (RawHtmlGuard's)
        line = e.line or next((found for n in needles if e.after and
                               (found := line_of(searchable, n, start=e.after))), 0) or \
            next((found for n in needles if (found := line_of(searchable, n, e.occurrence))), 0)
        if line:
            break
    message = page.readable(e.message)
    if not line:       # text the lexer took for code, which Markdown did not
        restored = masked.restore_code(searchable)
        line = next((found for n in needles if (found := line_of(restored, n, e.occurrence))), 0)
        message += ("; this line is inside a code fence that Markdown did not read as "
                    "code: check the fence's opening line above it") if line else ""
    if e.occurrence > 1 and not e.line:    # a second occurrence: say where the first is
        first = next((found for n in needles if (found := line_of(searchable, n))), 0)
        if first and first != line:
            message += f" (the other is at line {first})"
    if e.outline:       # a heading without an id: the pages stage may name another's id
        return HeadingWithoutIdError(page.source, line, message, e.outline)
    return BuildError(page.source, line, message)


def _front_of(rendered: str) -> str:
    m = _FRONT_MATTER.match(rendered)
    return m.group(0) if m else ""
