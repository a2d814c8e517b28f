"""Syntax of other Markdown tools, which Python-Markdown would publish as typed (issue 17,
item 5): a warning at its line that names the tool's syntax and says what to write here.

Block starts: MkDocs admonitions (`!!! note`, `??? note`) and content tabs (`=== "Python"`),
GitHub alerts (`> [!NOTE]`), task list items, `:::` containers (Docusaurus, VitePress, Pandoc's
fenced divs, MyST), reStructuredText directives (`.. note::`), a box opened with two slashes.
Anywhere in a block, also inside emphasis and a link's text: `~~strike~~` and `~strike~`,
`==mark==`, `^^insert^^`, `H~2~O` and `x^2^` (pymdown's tilde and caret, Pandoc), a Sphinx or
MyST role (`:numref:`, `{numref}`) written before a code span, Obsidian's callouts
(`> [!quote]`), wikilinks and embeds (`[[Page]]`, `![[image.png]]`), comments (`%%…%%`) and
block ids (`^name`), Pandoc's citations (`[@key]`) and Quarto's cross-references (`@fig-x`),
and an abbreviation's definition
(`*[RoPE]: Rotary Position Embedding`, kramdown and PHP Markdown Extra). Each is left as it
is, with a warning: taking them as markup would change text that means something else (`3~5`
is a range in Chinese). (A backslash at a line's end is a line break here, as on GitHub:
`converter`; emoji shortcodes are shown as GitHub shows them: `md_emoji`.)

`FOREIGN` reads a block's text in the converted tree. Other tools' syntax that never reaches
that text is told where its input is, each table beside the one function that reads it:
a fence's info string (`lexer`: GitHub's and HackMD's drawn fences, MyST directives, Quarto
chunks), `{{…}}` and `{%…%}` that stop Jinja before Markdown runs (`quote_messages`: Liquid,
GitBook, HackMD embeds, Hugo, Zola, Logseq macros, MediaWiki templates, Confluence's
monospace), and a block read from its source lines (`md_blocks`: HackMD's tags line,
Confluence's '# item' list, org-mode's '#+' lines, another tool's link not told twice).
"""
from __future__ import annotations

import difflib
import functools
import html
import logging
import re
import string
import unicodedata
import xml.etree.ElementTree as etree
from bisect import bisect_right
from collections.abc import Callable, Mapping
from pathlib import Path
from types import MappingProxyType

from markdown import Markdown
from markdown.extensions.attr_list import AttrListTreeprocessor
from markdown.treeprocessors import Treeprocessor, UnescapeTreeprocessor
from markdown.util import HTML_PLACEHOLDER, HTML_PLACEHOLDER_RE

from ..errors import line_of, lines_of, shortened
from ..log import warn
from .md_emoji import (
    ESCAPED_COLON,
    ESCAPED_SHORTCODE,
    PICTURE_ONLY,
    SHORTCODE,
    emoji_names,
    emoji_of,
)
from .md_text import CJK
from .positions import LineMap
from .quote_messages import BOX_NAMED

LOGGER = logging.getLogger("sqrtdk.web")
BOX = BOX_NAMED

# kramdown's table of contents, `* TOC` over `{:toc}` (Jekyll): stops the build at its line
# wherever it is (as a Liquid tag does: a directive of another tool, which would leave a
# bullet 'TOC' on the page)
# (`{::name}` … `{:/name}` or `{:/}`, opener to closer, is one: one warning, as one
# Obsidian comment is)
KRAMDOWN_EXTENSION = re.compile(r"\{::[a-z]+\b[^{}\n]*?/\}"
                                r"|\{::([a-z]+)\b[^{}\n]*\}(?:(?:(?!\{::).)*?\{:/(?:\1)?\})?"
                                r"|\{:/[a-z]*\}", re.S)
KRAMDOWN_EXTENSION_INSTEAD = ("a comment as <!-- … -->, HTML as it is (without '{::nomarkdown}' "
                              "and '{:/}'), and no '{::options …}'")
KRAMDOWN_TOC = re.compile(r"\{:?[ \t]*toc[ \t]*\}")
KRAMDOWN_TOC_MESSAGE = ("'{:toc}' is kramdown's (Jekyll's) table of contents ('{toc}', "
                        "Confluence's and Jira's), which this Markdown does not know; the page "
                        "makes its own contents, from the '##' and '###' headings: remove the "
                        "line (and kramdown's '* TOC' item above it)")
# the table-of-contents marker of other editors, a paragraph of its own: '[TOC]' (Typora,
# Python-Markdown's toc, Zhihu and CSDN editors), '[[TOC]]', '[[_TOC_]]' (GitLab, Azure DevOps
# wikis), CSDN's '@[TOC](title)' (read as '@' and a link 'TOC'), '${toc}' (a marker of some
# other editors; the lexer tells it, which would read it as a formula never closed);
# GitHub shows them as typed
OTHER_TOC = re.compile(r"@\[?toc\]?|\[\[?_?toc_?\]\]?|\$\{toc\}", re.I)
OTHER_TOC_MESSAGE = ("'{}' is the table-of-contents marker of other Markdown editors (Typora, "
                     "CSDN, GitLab), which this Markdown (and GitHub) shows as typed; the page "
                     "makes its own contents, from the '##' and '###' headings: remove the line")
NO_TOC = re.compile(r"\{:[^{}\n]*\.no_toc\b[^{}\n]*\}")
ATTRIBUTES_INSTEAD = ("no attributes (the build sizes and places figures and tables itself), or "
                      "a class the stylesheet knows on the last line of its paragraph: "
                      "'{: .screen-only }'")

PIPE_TABLE = "a pipe table: '| a | b |' over '|---|---|', then a line per row"
# the rule under a Pandoc simple table's header: dashes parted by spaces, which GitHub and this
# Markdown read as a horizontal rule (the header above a paragraph, the rows below another)
_PANDOC_RULE = re.compile(r"[ \t]{0,3}-{3,}(?:[ \t]+-{3,})+[ \t]*")
# Obsidian's (and wikis') `[[Page]]` and `![[image.png]]`, but not the table-of-contents markers
# (not a list of a list in the text, words parted by ', ': '[[aspect, sentiment]]', '[[0.1, 0.9]]')
WIKILINK = re.compile(r"!?\[\[(?!_?toc_?\]\])(?!" + r"(?:autodoc|open-in-colab)\]\])"
                      r"(?![^\[\]\n|#]*,[ \t][^\[\]\n|#]*\]\])[^\[\]\n]+\]\]", re.I)
# the Hugging Face doc-builder's directives: `[[autodoc]] LoraConfig` (a class's reference,
# made from its docstrings), `[[open-in-colab]]` (a row of notebook buttons)
HF_DIRECTIVE = re.compile(r"\[\[(?:autodoc|open-in-colab)\]\](?:[ \t]+[\w.]+)?")
_HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
# a quote mark as the tree holds it: typed, curled, or smarty's placeholder of a curled one
_QUOTE = ("(?:[\"'\u2018\u2019\u201c\u201d]|"
          + re.escape(HTML_PLACEHOLDER).replace("%s", r"\d+") + ")")
# a word character of no CJK script. Python's `\w` takes a Chinese character, so a rule
# that wants no word right before or after other tools' syntax (so that `a/b/c`, `C++`,
# 'H2O' and emails stay quiet) left that syntax untold right after Chinese text, where
# Chinese writes no space (`//italic//`, `++ctrl+k++`, `stem:[x]` after a Chinese word):
# a CJK character or full-width punctuation mark there is a boundary, as a space is. The
# rules below write `_NOT_AFTER_WORD` and `_NOT_BEFORE_WORD` for `(?<!\w)` and `(?!\w)`,
# and `_SPACE` for a space that must come before the syntax. Only where the tool itself
# takes the syntax next to a Chinese character (DokuWiki, pymdown's Keys and icons,
# AsciiDoc's macros, Reddit's superscript, bookdown, LaTeX, the end of Pandoc's citation
# key): org-mode's emphasis, reStructuredText's inline markup, Pandoc's citation after
# text, Obsidian's block id and AsciiDoc's bare address want a space (or punctuation)
# there, so after a Chinese character they are text in their own tool as on this page,
# and keep `\w`; so do Confluence's, Bear's and Ulysses' rules (not known here)
_WORD = f"[^\\W{CJK}]"
_NOT_AFTER_WORD = f"(?<!{_WORD})"
_NOT_BEFORE_WORD = f"(?!{_WORD})"
_SPACE = f"[\\s{CJK}]"


def _punctuation_class() -> str:
    """A character class of the punctuation marks of GFM's flanking rules (6.5): ASCII's
    and Unicode's (categories P*), as ranges."""
    marks = [c for c in range(0x10000) if chr(c) in string.punctuation
             or unicodedata.category(chr(c)).startswith("P")]
    ranges: list[list[int]] = []
    for c in marks:
        if ranges and ranges[-1][1] == c - 1:
            ranges[-1][1] = c
        else:
            ranges.append([c, c])
    return "[" + "".join(re.escape(chr(a)) + (f"-{re.escape(chr(b))}" if b > a else "")
                         for a, b in ranges) + "]"


_PUNCTUATION = _punctuation_class()
# a single tilde right after a Chinese character that opens GitHub's strikethrough (left-
# flanking): before no space and no punctuation mark
_CJK_TILDE = r"(?<=[\u3400-\u9fff\uf900-\ufaff])~(?![\s~]|" + _PUNCTUATION + ")"
# and one that closes it (right-flanking): after no space, and after a punctuation mark only
# before a space, a punctuation mark, an inline element (_EDGE, where a slot that more of
# its line follows ends: GitHub's '[', '`', '*', '$' or '<' there is a punctuation mark) or the
# text's end
_CLOSING_TILDE = (r"(?:(?<![\s~])(?<!" + _PUNCTUATION + r")~|(?<=" + _PUNCTUATION
                  + r")(?<!~)~(?=\s|" + _PUNCTUATION + r"|\u00aa|$))(?!~)")
# a single tilde of a range of numbers, `3~5`, that opens GitHub's strikethrough (left-
# flanking: before no space and no punctuation mark; not a subscript's, `2~3~`, told as one,
# nor the one closing it, `H~2~O`)
_RANGE_TILDE = (r"(?<=[0-9])(?<!~\w)(?<!~\w\w)(?<!~\w{3})~(?![A-Za-z0-9+-]{1,6}~(?!~))"
                r"(?![\s~]|" + _PUNCTUATION + ")")
# a Pandoc citation key that reads as one: a name with a year (`vaswani2017`,
# `vaswani2017attention`, `Vaswani_2017`, `smith2020a`), not a handle (`@huggingface`)
CITATION_KEY = (r"[A-Za-z][A-Za-z_:-]*?(?:19|20)\d\d[a-z]?(?:[A-Za-z_:-](?:" + _WORD
                + r"|[:-])*)?(?!@)" + _NOT_BEFORE_WORD)
# a changelog's (release notes') credit to GitHub users, whose names may end in a year as a
# citation key does ('@rashil2000'), shown as typed by GitHub in a file, as meant: handles
# alone in parentheses, '(@ann1985)', '(@ann1985, @bo)', a handle after 'thanks (to)' or
# closing such a list at the line's end ('Thanks to @a, @bo2000'), and GitHub's generated
# release notes' 'by @ann1985 in #12' ('in https://…'); a citation in parentheses is '[@…]'
# (the text read may hold a no-break space for a space: _BLANK)
# Chinese release notes write the parentheses and commas full-width, '\uff08@ann1985\uff09',
# '\uff08#12\uff0c@ann1985\uff09', and thank with '\u611f\u8c22' ('\u9e23\u8c22', '\u81f4\u8c22')
_BLANK = "[ \\t\u00a0]"
_HANDLE_LIST = r"@[\w-]+(?:" + _BLANK + "*(?:,|and|&|\uff0c|\u3001)" + _BLANK + r"*@[\w-]+)*"
_THANKS = "(?:\u611f\u8c22|\u9e23\u8c22|\u81f4\u8c22)"
_CREDIT = ("(?!(?:(?<=\\()|(?<=\uff08)|(?<=," + _BLANK + ")|(?<=[\uff0c\u3001])|(?<=" + _BLANK
           + "and" + _BLANK + ")|(?<=&" + _BLANK + "))" + _HANDLE_LIST + _BLANK + r"*[)\uff09]"
           "|(?<=," + _BLANK + ")" + _HANDLE_LIST + "(?:" + _BLANK + r"|\.)*(?:\n|\Z)"
           "|(?<=[Tt]hanks" + _BLANK + ")@|(?<=[Tt]hanks" + _BLANK + "to" + _BLANK + ")@"
           "|(?<=" + _THANKS + ")@|(?<=" + _THANKS + _BLANK + ")@"
           r"|(?<=\bby" + _BLANK + r")@[\w-]+" + _BLANK + "+in" + _BLANK
           + r"+(?:#\d|https?://))")
# a credit the lookahead above cannot see, as its words come before the handle or after
# the next ones: a thanks that opens a list of handles ('Thanks @a and @bo2000 for it',
# '\u611f\u8c22 @a \u548c @b2000', '\u611f\u8c22@a\u3001@b2000\u4e0e@c1999'), and a
# list of handles that opens a list item (a credits list's item, '* @donno2048 for the
# fix') before 'for' what each gave: consumed whole as the named group `credit`, so that
# none of its handles is told (a reading list's item cites a work that says or shows, '*
# @vaswani2017 says \u2026', told; Chinese prose joining two keys with '\u548c' without
# a thanks, told). A handle here is GitHub's (letters, digits, '-'), not a Chinese word.
# The item's form is matched only at the start of the text read (`_CREDITED_ITEM`, an
# item's own text: ForeignSyntax reads it in list items alone), never at a line of a
# paragraph: prose wrapped before a citation ('\u2026 as shown in' + a new line +
# '@vaswani2017 for the base model') or opening with one cites a work
_HANDLE = "@(?:" + _WORD + "|-)+"
_THANKED = (_HANDLE + "(?:(?:" + _BLANK + "*(?:,|\uff0c|\u3001|&|\u548c|\u4e0e|\u4ee5?\u53ca)"
            + _BLANK + "*|" + _BLANK + "*,?" + _BLANK + "+and" + _BLANK + "+)" + _HANDLE + ")*")
_THANKS_FIRST = ("(?:(?<![\\w-])[Tt]hanks(?:" + _BLANK + "+to)?" + _BLANK + "+|"
                 "(?:\u611f\u8c22|\u9e23\u8c22|\u81f4\u8c22|\u8c22\u8c22)" + _BLANK + "*)"
                 + _THANKED)
_CREDITED = "(?P<credit>" + _THANKS_FIRST + ")"
_CREDITED_ITEM = ("(?P<credit>" + _THANKS_FIRST + "|(?<![\\s\\S])[ \t]*" + _THANKED
                  + "(?=" + _BLANK + "+for" + _BLANK + "))")
# the environments KaTeX reads only inside a formula (its list of supported environments)
_INNER_MATH_ENVIRONMENT = (r"(?:[pbBvV]?matrix|smallmatrix|subarray|d?array|aligned|"
                           r"alignedat|gathered|split|d?r?cases)\*?")
# AsciiDoc's inline macros, `stem:[…]`, `footnote:[…]`, `image:a.png[…]`, `link:…[…]`: the
# text in brackets, read to the ']' on its line but not past the next opener of the same
# macro ('system:' in a formula is none); so is a macro's target before its '['
# (`_asciidoc_target`). Read to the line's end from each opener, a line of many openers and
# no ']' (or no '[') took time in the square of its length (a formula's opener right after
# Chinese text, 2,000 times: 8 s)
_STEM = "(?:stem|latexmath|asciimath):"
# math commands that prose never holds (TeX outside a formula, in FOREIGN; a command doubled
# by mistake in a formula, lexer_inline)
MATH_COMMANDS = (
    "d?t?frac|sqrt|math(?:bb|bf|rm|cal|it|sf|scr|frak)|boldsymbol|operatorname|text|hat|bar|"
    "tilde|vec|overline|sum|prod|i?int|oint|lim|infty|partial|nabla|in|notin|subseteq|approx|"
    "propto|leq?|geq?|neq|pm|mp|times|cdots?|ldots|top|forall|exists|[lL]eftarrow|"
    "[rR]ightarrow|leftrightarrow|mapsto|left|right|(?:var)?epsilon|alpha|beta|gamma|delta|"
    "zeta|eta|(?:var)?theta|kappa|lambda|mu|nu|xi|pi|rho|sigma|tau|(?:var)?phi|chi|psi|omega|"
    "Gamma|Delta|Theta|Lambda|Xi|Pi|Sigma|Phi|Psi|Omega|arg(?:max|min)|boxed|binom|"
    "underbrace|overbrace|langle|rangle|lvert|rvert|lVert|rVert|equiv|q?quad|mathop")


def _asciidoc_text(opener: str) -> str:
    """The bracketed text of an AsciiDoc macro whose name matches `opener`."""
    return r"\[(?:(?!" + _NOT_AFTER_WORD + opener + r")[^\]\n])*\]"


def _asciidoc_target(start: str, chars: str) -> str:
    """A macro's target (an address, a file) before its '[', of `chars`, read up to the next
    place where the rule's own opener, `start`, would begin: from each opener to the line's
    end, a line of many openers and no '[' took time in the square of its length."""
    return r"(?:(?!" + start + r")" + chars + r")+"


# where an AsciiDoc link, address or image begins (each rule's opener)
_LINK_START = r"(?<!/)" + _NOT_AFTER_WORD + r"(?:link|xref):"
_URL_START = r"(?:(?<=\u00aa)|(?<![\w/:\[(<]))(?:https?|ftp)://"
_IMAGE_START = r"(?<!:)" + _NOT_AFTER_WORD + r"image:"


CITATION_INSTEAD = ("the reference in words ('Vaswani et al., 2017'), or a footnote [^name] "
                    "holding it")


# d2l's framework tabs, ':begin_tab:`pytorch`' … ':end_tab:': each tab's text is shown here,
# one after another, with the markers as typed
D2L_TAB_INSTEAD = ("the text of one framework alone, without d2l's ':begin_tab:' and "
                   "':end_tab:' lines (every tab's text is shown here, one after another)")


def _role_instead(role: str, code: str) -> str:
    """What to write for a Sphinx or MyST role `role` (`{numref}`, `:math:`) on `code`:
    a math role's TeX between dollars, an equation reference's number, a label's id or tag,
    a citation's reference in words, else a link."""
    name = role.strip("{}:").rpartition(":")[2]
    if name == "math":
        return f"the formula between dollars, ${code}$"
    if name in ("eq", "eqref"):
        return ("the equation's number in words ('equation (1)'), the formula numbered with "
                "\\tag{1}")
    if name in ("label", "eqlabel"):
        # d2l's label under a heading, figure or formula (':label:`sec_x`')
        return ("nothing: give the heading above it an id, '## Title {#id}', and number a "
                "formula with \\tag{1}")
    if any(part.startswith("cite") for part in role.strip("{}:").split(":")):
        # sphinxcontrib-bibtex's and MyST's `{cite}`, `{cite:t}`, `:cite:p:`, Sphinx's `citet`
        return CITATION_INSTEAD
    if name == "begin_tab":
        return D2L_TAB_INSTEAD
    if name in ("width", "height"):
        return "nothing: the build sizes and places figures itself"
    return "a link, [text](#id), for a reference, or the code alone"


# the number of a Word or WPS list item: `1\u3001`, `\uff081\uff09`, `(1)`, `\uff081)`,
# `1\uff09` (a full-width parenthesis closing only), a circled number `\u2460` to `\u2473`,
# `\u2474` (a parenthesized one) to `\u249b` (one with a full stop)
_CHINESE_NUMERAL = "[\u4e00\u4e8c\u4e09\u56db\u4e94\u516d\u4e03\u516b\u4e5d\u5341]{1,3}"
_WORD_ITEM = re.compile(rf"[ \t>]*(?:(?:\d{{1,3}}|{_CHINESE_NUMERAL})[\u3001\uff09]|"
                        rf"[(\uff08](?:\d{{1,3}}|{_CHINESE_NUMERAL})[)\uff09]|[\u2460-\u249b])")
# a list item with no space after its marker, as Chinese posts write them: `1.\u5b89\u88c5`,
# `2\uff0e\u8fd0\u884c` (a full-width full stop), `-\u7b2c\u4e00\u9879`,
# `*\u7b2c\u4e00\u9879`; a number's decimals (`1.5`), a version's series (`1.x`, `2.X`), a
# dash before a Latin word (an option, `-v`) and a star another closes on its line
# (`*\u659c\u4f53*`, italics) are no such item
_NO_SPACE_ITEM = re.compile(r"[ \t>]*(?:(\d{1,3}[.\uff0e])(?=[^\s\d.\uff0e])"
                            r"(?![xX](?![A-Za-z]))|"
                            r"([-+]|\*(?!.*\*))(?=[\u3400-\u4dbf\u4e00-\u9fff])|"
                            # a number of full-width digits or stop, '\uff11. ' or '1\uff0e '
                            # (an input method's), under a line of text: text here as well
                            r"([\uff10-\uff19]{1,3}\.|\d{1,3}\uff0e)(?=[ \t]+\S))")
# a list item's first line ('- ', '1. ', in a quote too), and a line that opens a fence or
# another list item (a nested list), where the lines of an item's own text end
_LIST_MARKER = re.compile(r"[ \t>]*(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)")
_FENCE_OR_ITEM = re.compile(r"[ \t>]*(?:```|~~~|(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$))")
# an emphasis mark '*' that opens and is never closed (`the *key point is`, a '*' lost):
# neither here nor on GitHub italic, the asterisk shown before the word; not one after a
# Latin letter or digit (`2*3`, `a*b`), nor one before a space (`3 * 4`), nor a closer
# (`significant*`, a mark of its own), nor org-mode's `[[*Heading]]`, told as its link (nor
# the star of a list item written with no space, `*\u7b2c\u4e00\u9879` over
# `*\u7b2c\u4e8c\u9879`, told as that list: `_star_items`)
LONE_STAR = re.compile(r"(?<![A-Za-z0-9_*[])\*(?=[^\W\d_])")
# a line ending in a hard break (two spaces, a backslash, HTML's `<br>`, as pasted posts
# end their lines): the next line is shown under it
_HARD_BREAK = re.compile(r".*(?: {2,}|\\|<br[ \t]*/?>[ \t]*)$", re.I)


def _indent(line: str) -> str:
    """The spaces, tabs and quote marks a line starts with."""
    return line[:len(line) - len(line.lstrip(" \t>"))]


def _bare_items(own: list[str]) -> tuple[int | None, list[re.Match[str] | None]]:
    """For a paragraph's lines (`own`, as written): the index of the first of two lines
    under each other that are items of a list with no space after their marker, told as
    such (None if there are none, or where Word's numbering or a bullet character comes
    first, told as those), and each line's match of _NO_SPACE_ITEM (None: no such item)."""
    bare = [_NO_SPACE_ITEM.match(x) for x in own]
    n = _two_items([bool(x) for x in bare], own)
    k = _two_items([bool(_WORD_ITEM.match(x)) for x in own], own)
    b = _two_items([bool(_BULLET_ITEM.match(x)) for x in own], own)
    if n is None or (k is not None and k <= n) or (b is not None and b <= n):
        return None, bare
    return n, bare


# a line of a Notion page's properties, as its Markdown export writes them under the title
# ('Created: March 3, 2024 10:15 AM', 'Tags: ML, Transformer'): a name of one to four words
# and its value
_PROPERTY = re.compile(r"[ \t]*([A-Z][\w()#/.-]*(?: [\w()#/.-]+){0,3}): \S.*")
# Pelican's (Python-Markdown Meta-Data's, MultiMarkdown's) metadata lines at the top of a
# post, `Title: …`, `Date: …`, `Tags: …` (two such lines at least, the first of a key those
# tools read), told as such (FOREIGN), not as a Notion page's properties
_PELICAN_META = re.compile(
    r"^(?:Title|Date|Modified|Category|Tags|Slug|Authors?|Summary|Status|Lang|"
    r"Keywords|Series|Template|Save_as|Url|Translation):[ \t]+\S[^\n]*\n"
    r"[A-Z][\w-]*:[ \t]+\S")
# the properties Notion gives every page of a database, one of which such lines hold (its
# value a date, a name, tags, a status: no sentence, which `_SENTENCE_END` ends, as in
# prose 'Status: confirmed by the run below.')
_SENTENCE_END = re.compile(r".*[.!?\u3002\uff01\uff1f][ \t]*")
_NOTION_PROPERTIES = frozenset({
    "created", "created time", "created by", "last edited time", "last edited by",
    "last edited", "tags", "status", "date created"})


def _two_items(marked: list[bool], lines: list[str]) -> int | None:
    """The index of the first of two lines under each other that `marked` holds as list
    items, the first not ending in a hard break (which shows the next line under it, as a
    list would); None if there are none."""
    return next((k for k in range(len(marked) - 1) if marked[k] and marked[k + 1]
                 and not _HARD_BREAK.match(lines[k])), None)


# a bullet character at a line's start, as a list copied from Slack, Word or a web page
# holds it: '\u2022 item', '\u25cf', '\u25cb', '\u25e6', '\u25aa', '\u2023', '\u2043'
_BULLET_ITEM = re.compile(r"[ \t>]*([\u2022\u25cf\u25cb\u25e6\u25aa\u25ab\u2023\u2043])[ \t]")
# a line of TOML, `key = value` (a Zola or Hugo post's front matter)
_TOML_KEY = r"[ \t]*[A-Za-z_][\w.-]*[ \t]*="
_INERT = "\x1a"   # an escape's placeholder, matched as characters no pattern takes but these
# a link's or image's title that is a Docsify option (`':ignore'`, `':include :type=code'`,
# `':target=_blank'`, `':size=100'`)
_DOCSIFY_TITLE = re.compile(r":(?:ignore|include|target=|disabled|size=|class=|id=|no-zoom|"
                            r"type=|fragment=|crossorigin)")
_SPOILER = ("the words themselves, or a box that hides them: '/// details | Spoiler', "
            "'    attrs: {id: spoiler}' under it, the words, then '///'")
# (pattern, whether it only counts at the start of a block, what it is, what to write instead)
# the start of a link's address: an anchor, a path, a scheme, a file name
_ADDRESS = r"(?=#|\.{0,2}/|[a-z][a-z0-9+.-]*:|[\w.-]+\.[A-Za-z]{2,4}\b)"
_CONFLUENCE_MACROS = ("code|noformat|latex|mathblock|mathinline|math|info|note|tip|warning|"
                      "quote|panel|expand|color|excerpt|tasklist")
CONFLUENCE_MACRO_INSTEAD = (
    "Markdown: a '```python' fence for {code:python} … {code} and {noformat}; a formula "
    "between '$$' lines for {latex} and {mathblock}, $…$ for {mathinline}; "
    f"{BOX_NAMED} for {{info}}, {{note}}, {{tip}}, {{warning}}, {{panel}} and {{expand}}; "
    "'> ' lines for {quote}; the words alone for {color}")
# a Confluence macro's name, as attr_list reads `{code}` at a paragraph's end
CONFLUENCE_MACRO = re.compile(r"(?:" + _CONFLUENCE_MACROS + r")(?::.*)?", re.S)
_MARKUP_INSTEAD = ("Markdown: **bold**, *italic*, [text](address), '> ' lines for a quote, a "
                   "'```python' fence for code, $…$ for a formula, a figure the build draws "
                   "for a picture")
# Rules for the whole of another tool's construct (pattern, at a block's start only, what it
# is, what to write), first in FOREIGN: a later rule's match
# that overlaps one of theirs in the same block is not told again, as another tool's (a
# BBCode '[url]https://…[/url]' is no AsciiDoc link, Confluence's '||head||' row no Discord
# spoiler, LaTeX's 'Eq.~\ref{…} … Section~' no strikethrough)
_CLAIMED: tuple[tuple[re.Pattern[str], bool, str, str], ...] = (
    # Confluence's (Jira's) wiki markup, pasted: headings `h2. Title` (Textile's too), quotes
    # `bq. …`, the header row of a table `||a||b||`, links `[text|https://…]`,
    # `[mailto:…]`, `[~user]`, images `!diagram.png|thumbnail!` and macros `{code:python}`,
    # `{noformat}`, `{latex}`, `{info}` (the ones attr_list reads at a paragraph's end stop
    # the build: md_math)
    (re.compile(r"^h[1-6]\.[ \t]+\S[^\n]*", re.M), False,
     "a Confluence (Jira, Textile) heading 'h2. …'",
     "'## Its title {#some-id}' ('##' for 'h2.', '###' for 'h3.')"),
    (re.compile(r"^bq\.[ \t]+\S[^\n]*", re.M), False, "a Confluence (Jira, Textile) quote 'bq. …'",
     "'> ' at the start of each quoted line"),
    (re.compile(r"^\|\|[^|\n]+\|\|(?:[^|\n]+\|\|)*[ \t]*$", re.M), False,
     "the header row '||…||' of a Confluence (Jira) table", PIPE_TABLE),
    (re.compile(r"(?<!\[)\[(?:[^\[\]|\n]+\|\u00aa?(?:https?://|ftp://|mailto:)[^\[\]\s|]*"
               r"|mailto:[^\[\]\s|]+|~[\w.@-]+)\](?![(\[:])"), False,
     "a Confluence (Jira) link '[text|address]'",
     "[text](address) (a mention '[~name]' as the name in words)"),
    (re.compile(r"(?<![\w!\]])!(?=[^\s!])[^!\n]*?\.(?:png|jpe?g|gif|svg|webp)(?:\|[^!\n]*)?!"
               r"(?![\w(\[])", re.I), False, "a Confluence (Jira, Textile) image '!…!'",
     "a figure the build draws, ![what it shows](NAME.svg \"Caption\")"),
    # (a pair, `{code:python}` … `{code}`: `{note}` alone may be a word in braces)
    (re.compile(r"(?<![\w{}\\])\{(" + _CONFLUENCE_MACROS + r")(?::[^{}\n]*)?\}"
               r"(?:(?!\{\1:).)*?\{\1\}", re.S), False,
     "a Confluence (Jira) macro '{…}'", CONFLUENCE_MACRO_INSTEAD),
    # BBCode (a forum's post): `[b]…[/b]`, `[url=…]…[/url]`, `[quote="…"]…[/quote]`,
    # `[list][*]…[/list]` (its '[*]' read as emphasis), `[math]…[/math]`; a pair only
    (re.compile(r"\[(b|i|u|s|url|img|quote|code|list|math|tex|latex|color|size|center|spoiler|"
               r"sub|sup|youtube)(?:=[^\]\n]*)?\](?:(?!\[\1[=\]]).)*?\[/\1\]", re.S | re.I), False,
     "BBCode '[b]…[/b]' (a forum's markup)", _MARKUP_INSTEAD),
    # Textile's link `"text":https://…` (its quotes curled by smarty)
    (re.compile(_QUOTE + r"(?=\S)[^\n]{1,80}?(?<=\S)" + _QUOTE
               + r":\u00aa?(?:https?://|www\.|/)[^\s]*"), False,
     "a Textile link '\"text\":address'", "[text](address)"),
    # a slide deck's markers alone on their line: reveal.js' vertical slide separator `--`,
    # remark's presenter notes `???` (Marp's and reveal.js' `---` is a rule, as on GitHub)
    (re.compile(r"^(?:--|\?\?\?)[ \t]*$", re.M), False,
     "a slide deck's marker ('--' between reveal.js' vertical slides, '???' over remark's "
     "presenter notes)",
     "nothing: remove the line (a presenter's notes under '???' are text of the page too: "
     "remove them, or write them as its text)"),
    # Docsify's tip and warning paragraphs, `?> …` and `!> …` at a line's start
    (re.compile(r"^[?!]>[ \t]+\S[^\n]*", re.M), False, "a Docsify tip or warning ('?> …', '!> …')",
     f"{BOX}, or a quote, '> **Tip:** …'"),
    # HackMD's (CodiMD's) tags `[name=Alice]`, `[time=Sun, Dec 4]`, `[color=#907bf7]`
    (re.compile(r"\[(?:name|time|color)=[^\]\n]*\]"), False, "a HackMD (CodiMD) tag '[name=…]'",
     "the words ('(Alice Chen)'), or nothing"),
    # Bear's and Ulysses' highlight `::words::`, and Ulysses' comment `++words++` (words with
    # a space: pymdown's keys, `++ctrl+k++`, are told below; `C++` and `i++` stay quiet, and
    # so does prose about increments, "use ++i or i++", "++count … count++", "++x_1 or y++":
    # not when the first or last word is one letter (but 'a', 'I'), or the first holds a
    # digit, '_', '.', '[', '(' or ';', or the two are the same word)
    (re.compile(r"(?<![:\w])::(?=[^\s:])[^:\n]*?(?<=[^\s:])::(?![:\w])"), False,
     "a Bear (Ulysses) highlight '::…::'", "<mark>…</mark>"),
    (re.compile(r"(?<![\w+{])\+\+(?![^\WaAI]\b)(?![^\s+]*[\d_.\[\]();])(?=[^\s+])"
                r"(?=[^+\n]*[ \t])(?!(\w+)\b[^+\n]*\b\1\+\+)[^+\n]*?(?<=[^\s+])"
                r"(?<!\b[^\WaAI])\+\+(?![\w+}])"),
     False, "a Ulysses comment '++…++'",
     "an HTML comment <!-- … -->, which the page leaves out"),
    # DokuWiki's italic `//words//`, footnote `text((the note))` (words, not Logseq's
    # `((uuid))`) and a table's header row `^ a ^ b ^` (an address's `http://` closes no
    # italic, DokuWiki links the address first: Chinese prose about comments, 'begins with
    # // ... an address with http://' written without spaces, is no italic)
    (re.compile(r"(?<![:/])" + _NOT_AFTER_WORD + r"//(?=[^\s/])[^/\n]*?(?<=[^\s/:])//(?!/)"
                + _NOT_BEFORE_WORD), False,
     "DokuWiki's italic '//…//'", "*italic*"),
    (re.compile(r"(?<=[\w.,;:!?" + CJK + r"])\(\("
                r"(?=[^()\n]*?[A-Za-z]{2}[^()\n]*?\s[^()\n]*?[A-Za-z]{2})[^()\n]+\)\)"), False,
     "a DokuWiki footnote '((…))'",
     "a footnote: a reference [^name] in the text and '[^name]: the note' below it"),
    (re.compile(r"^\^[ \t][^\n]*[ \t]\^[ \t]*$", re.M), False,
     "the header row '^ … ^' of a DokuWiki table", PIPE_TABLE),
    # LaTeX in text: a comment line `% …`, quotes ``…'', a tie `~` before a command
    # (`Figure~\ref{…}`), after an abbreviation (`Eq.~(1)`, `e.g.~`) or in `et~al.`, and the
    # commands that take no braces (`\LaTeX`, `\noindent`) or a control space (`i.e.\ `);
    # not a value that starts with '%', shown as typed as meant: an RFC's (ABNF's) number,
    # `%x0`, `%d13`, `%b1` (WebSocket's opcodes listed one a line), a byte escaped in an
    # address, `%E4%BD`, `%20`, `%FF%FE`: two hex digits with a digit among them, or one of
    # a run of escapes; two hex letters alone are a word, a comment's first ('%Be careful',
    # '%ad hoc'); a Windows environment variable, `%PATH%`, `%APPDATA%\\app` (a line of
    # Windows docs wrapped before it), a name closed by '%' that no comment's word is
    (re.compile(r"^%(?!%|[xX][0-9A-Fa-f]|[dD][0-9]|[bB][01]"
                r"|(?:[0-9][0-9A-Fa-f]|[A-Fa-f][0-9])(?![A-Za-z])|[A-Fa-f]{2}%[0-9A-Fa-f]{2}"
                r"|[A-Za-z_][A-Za-z0-9_()]*%(?![A-Za-z0-9]))"
                r"[^\n]*", re.M), False, "a LaTeX comment '% …'",
     "an HTML comment <!-- … -->, which the page leaves out, or remove the line"),
    (re.compile(r"(?<!`)``(?!`)(?=\S)[^`\n]{1,200}?(?:''|" + _QUOTE + r")"), False,
     "LaTeX's quotes ``…''", "“…” (or \"…\", which the page curls)"),
    # (after a formula, `$10^{-3}$~s`: the formula's edge, _EDGE, before the tie)
    (re.compile(r"(?<=\w)~et~(?=al\b)|(?<=[\w.)\u00aa])~(?=\\[A-Za-z])|(?<=\.)~(?=[\w(\\])"
               r"|(?<=(?<![~\w])et)~(?=al\b)|(?<=\u00aa)~(?=[A-Za-z])"), False,
     "LaTeX's tie '~' (a space that does not break)", "a space"),
    # (bookdown's and R Markdown's chapters written for a PDF too: `chunks\index{code chunk}`,
    # `\vspace{2em}`, `\hfill`, which its HTML book leaves out and GitHub shows as typed)
    (re.compile(r"\\(?:LaTeX|TeX|noindent|newpage|clearpage|maketitle|centering|bigskip|medskip|"
               r"smallskip|hfill|vfill|newline|linebreak|pagebreak|today|"
               r"(?:bibliography(?:style)?|index|[vh]space\*?)\{[^{}\n]*\}?|includegraphics|caption"
               r"\{[^{}\n]*\}?)(?![A-Za-z])|(?<!\.)" + _NOT_AFTER_WORD
               + r"(?:[A-Za-z]{1,4}\.)+\\(?=[ \t])"), False,
     "a LaTeX command",
     "Markdown, or the words it stands for (LaTeX for \\LaTeX, a space for '\\ '); remove "
     "layout commands (\\noindent, \\centering, \\vspace{…}), index entries "
     "(\\index{…}) and bibliography lines"),
    # a list item's marker followed by a non-breaking space (a word processor's, an online
    # editor's) instead of a space: no list item, here and on GitHub; the line joins the
    # paragraph (or the item) above, its marker shown as typed
    (re.compile(r"(?m)^[ \t]*(?:[-*+]|\d{1,3}[.)])[\u00a0\u2007\u202f]+(?=\S)"), False,
     "a list item's marker followed by a non-breaking space",
     "a plain space after the marker ('- item', '1. item'), and a blank line above the list "
     "when a paragraph is above it"),
    # a link's parenthesis typed full-width by a Chinese input method, `[text]\uff08#id)`,
    # `[text]\uff08https://…\uff09`, `[text](https://…\uff09`: no link, here and on GitHub, the
    # brackets and the address shown as typed; only before an address (an anchor, a scheme, a
    # path, a file name), so `[1]\uff08…\uff09` of prose stays quiet
    # (an address the autolink made a link follows as an element: the block's _EDGE, 'ª')
    # (the address closed right after it, or a title after it: '[1]\uff08torch.nn \u2026\uff09'
    # is prose; so is an address the autolink made a link with words after it,
    # '[1]\uff08https://\u2026 \u8bf4\u660e\uff09', a source and what it is, no link's syntax on
    # GitHub either: the link's text, then the parenthesis closed in it or right after it)
    (re.compile(r"\](?:\uff08(?:\u00aa[^\u00aa\s]*(?:[)\uff09]\u00aa|\u00aa(?:[)\uff09]|"
                r"[ \t]+(?=[\"'\u201c\u2018(])))|" + _ADDRESS + r"[^\s()\uff08\uff09]*"
                r"(?:[)\uff09]|[ \t]+(?=[\"'\u201c\u2018(])))"
                r"|\(" + _ADDRESS + r"[^\s()\uff09]*\uff09)"),
     False, "a link's parenthesis typed full-width ('\uff08' or '\uff09')",
     "[text](address), the address between ASCII parentheses ('\uff08\uff09' are text, here "
     "and on GitHub)"),
)
# (and a wiki link, `[[https://…|text]]` of DokuWiki and Obsidian, no Slack or MediaWiki link)
_CLAIMING = frozenset(rule[0] for rule in _CLAIMED) | {WIKILINK}
# MediaWiki's (Wikipedia's) heading, `== Variants ==`, `==\u5386\u53f2==`; never inside a list item,
# where `==\u9ad8\u4eae==` is Typora's highlighting (told as that)
WIKI_HEADING = re.compile(r"^(={2,6})[ \t]*[^=\s][^\n]*?[ \t]*\1[ \t]*$")

# GitHub's alert `> [!NOTE]` and Obsidian's callout `> [!example]+ Its title`, at the start of
# a quote's first paragraph: told the lines of the box to write (`_alert_instead`)
ALERT = re.compile(r"^\[![A-Za-z][\w-]*\][+-]?")
_ALERT_LINE = re.compile(r"\[!([A-Za-z][\w-]*)\][+-]?[ \t]*([^\n]*)")


# a `:::` container (Docusaurus' `:::tip Title`, VitePress' `::: warning`, Pandoc's and
# Quarto's `::: {.callout-note}`, MyST's `:::{note}`): told the lines of its box
CONTAINER = re.compile(r"^:{3,}(?![ \t]*\{(?:figure|image)\})[ \t]*(?:\{[^}\n]*\}|[\w.-]*)")
_CLOSING_COLONS = re.compile(r":{3,}")     # a container's closing line, alone
_CONTAINER_LINE = re.compile(r":{3,}[ \t]*(?:\{([^}\n]*)\}|([\w.-]*))(?:\[([^\]\n]*)\])?"
                             r"[ \t]*([^\n]*)")


def box_title(kind: str, titles: Mapping[str, str]) -> str:
    """The title of a box written for another tool's note box of `kind` ('tip', 'note'):
    the page language's word for it (`titles`, strings.toml's [box_titles]), else the kind's
    name capitalised ('Tip')."""
    return titles.get(kind.lower()) or kind.replace("-", " ").capitalize()


def box_slug(title: str, kind: str, unique: Callable[[str], str] = str) -> str:
    """The id of a box titled `title` for a note box of `kind`: the title's Latin letters and
    digits, lower case, joined by '-' (else the kind's name: a Chinese title), after the
    kind's name where it starts with a digit ('2018 results': 'note-2018-results', as a box's
    id starts with a letter), made one no element or earlier advice of the page has by
    `unique`."""
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
    if slug[:1].isdigit():
        slug = f"{kind.lower()}-{slug}"
    return unique(slug or kind.lower())


def unique_id(slug: str, taken: set[str]) -> str:
    """`slug`, or `slug-2`, `slug-3`, … the first one `taken` lacks, then added to it (an id
    to tell that no element or earlier advice of the page has)."""
    n, unique = 1, slug
    while unique in taken:
        n += 1
        unique = f"{slug}-{n}"
    taken.add(unique)
    return unique


def _container_instead(text: str, unique: Callable[[str], str] = str,
                       titles: Mapping[str, str] = MappingProxyType({})) -> str:
    """What to write for the `:::` container that starts `text`: the lines of a box titled
    as the container is (its own title, else its kind's, `box_title`: 'Tip' for `::: tip`,
    `::: {.callout-tip}`), with an id made of that title (`box_slug`), its closing ':::' as
    '///'."""
    m = _CONTAINER_LINE.match(text)
    braced, bare, bracketed, own = (m.groups("") if m else ("", "", "", ""))
    if re.search(r"(?:^|\s)#fig-", braced):      # Quarto's figure div, `::: {#fig-walk}`
        return ("the figure as a paragraph of its own, ![what it shows](NAME.svg \"Caption\"), "
                "in place of the container's lines, its caption in the quotes")
    words = [w for w in re.split(r"[\s]+", braced) if w and not w.startswith(("#", "title="))]
    kind = (bare or next((w.lstrip(".") for w in words), "")).lower()
    layout = _layout_instead(kind)
    if layout:
        return layout
    kind = re.sub(r"^callout-", "", kind) or "note"
    titled = re.search(r'title="([^"]*)"', braced)
    title = (titled.group(1) if titled else bracketed or own).strip().strip('"') or \
        box_title(kind, titles)
    slug = box_slug(title, kind, unique)
    return (f"a box in its place, these lines: '/// details | {title}', "
            f"'    attrs: {{id: {slug}}}', a blank line, the container's text, then '///' "
            "in place of its closing ':::'")


# Quarto's (Pandoc's) divs that lay a passage out rather than set it apart (`::: {.column-page}`,
# `::: {.columns}`, `::: {layout-ncol=2}`, reveal.js' `::: {.incremental}`), its tab set
# (`::: {.panel-tabset}`) and those it never shows on a page (`::: {.content-hidden}`, speaker
# notes `::: {.notes}`): no box of the author's
_LAYOUT_DIV = re.compile(r"columns?|column-[\w-]+|layout(?:-\w+)?(?:=.*)?|center|fragment|"
                         r"(?:non)?incremental|smaller|r-[\w-]+|panel-(?:input|fill|center|"
                         r"sidebar)|content-visible(?:[ \t].*)?|nostretch|"
                         # VuePress' (its theme hope's) alignment, Vue's and VitePress'
                         # passages kept from interpolation and from the theme's styles
                         r"left|right|justify|v-pre|raw")
# a set of tabs: Quarto's, VitePress' group of code blocks, VuePress' (theme hope's) tabs
_TABS_DIV = re.compile(r"panel-tabset|code-group|(?:code-)?tabs(?:#[\w-]+)?")
_HIDDEN_DIV = re.compile(r"content-hidden(?:[ \t].*)?|hidden|notes")


def _layout_instead(kind: str) -> str:
    """What to write for a `:::` container whose class `kind` is no box: Quarto's (Pandoc's)
    'column-page', 'panel-tabset', 'notes', VitePress' 'code-group', VuePress' 'right'; ''
    for a box's kind ('tip', 'callout-note', 'details')."""
    if _TABS_DIV.fullmatch(kind):
        return ("the variants one after another, each under its own heading or in a box "
                "('/// details | Title', '    attrs: {id: …}', its text, '///'), without the "
                f"container's ':::' lines (a set of tabs, '{kind}', which this page does not "
                "make)")
    if _HIDDEN_DIV.fullmatch(kind):
        return (f"nothing: remove the container's lines and the text between them (Quarto "
                f"never shows a '.{kind}' passage on a page, and this one would be shown)")
    if _LAYOUT_DIV.fullmatch(kind):
        return (f"its text alone: remove the container's ':::' lines, this one and its closing "
                f"one (a layout of Quarto's, Pandoc's or VuePress', '{kind}', which this page "
                "does not make: it lays out every passage itself)")
    return ""


def _container_closed(source: str, line: int) -> str:
    """The opening line of the `:::` container that the closing ':::' at `line` (1-based)
    of `source` closes ('' when none is open), each container closed by the nearest closing
    line below it, a fence's lines skipped."""
    innermost = _innermost_containers(source)
    return innermost[line - 1] if 0 < line <= len(innermost) else ""


@functools.lru_cache(maxsize=4)
def _innermost_containers(source: str) -> tuple[str, ...]:
    """For each line of `source` (0-based), the opening line of the innermost `:::`
    container open just above it ('' for none): one walk of the text, kept for the next
    closing line's question (walking the lines above each closing line took time in the
    square of their number)."""
    opened: list[str] = []
    fence = ""
    innermost: list[str] = []
    for text in source.split("\n"):
        innermost.append(opened[-1] if opened else "")
        bare = text.strip(" \t>")
        if fence:
            if bare.startswith(fence) and not bare.lstrip(fence[0]).strip():
                fence = ""
            continue
        if bare.startswith(("```", "~~~")):
            fence = bare[:3]
        elif _CLOSING_COLONS.fullmatch(bare):
            if opened:
                opened.pop()
        elif CONTAINER.match(bare):
            opened.append(bare)
    return tuple(innermost)


# the text of a markdown-it plugin's embed, `@[code](…)`, `@[code{2-3} python](…)`,
# `@[include](…)`, `@[youtube](…)` (markdown-it-video's `vimeo`, `bilibili`, …)
_PLUGIN_EMBED = re.compile(r"(code|include|youtube|vimeo|vine|prezi|osf|bilibili|video)"
                           r"(?:\{[^{}]*\})?(?:[ \t]+[\w.+#-]+)?", re.I)


def _words_of(block: etree.Element) -> str:
    """The text of `block` with its inline children's words (a code span's in its backticks,
    the other markup's without its marks), as a title to tell."""
    parts = [block.text or ""]
    for child in block:
        parts.append(f"`{child.text or ''}`" if child.tag == "code"
                     else "".join(child.itertext()))
        parts.append(child.tail or "")
    return "".join(parts)


def _alert_instead(text: str, unique: Callable[[str], str] = str,
                   titles: Mapping[str, str] = MappingProxyType({})) -> str:
    """What to write for the alert or callout that starts `text` (its paragraph's text): the
    lines of a box titled as the callout is (its own title, else its kind's, `box_title`:
    'Note' for `[!NOTE]`), with an id made of that title (`box_slug`), the quote's text
    inside without its '> '."""
    m = _ALERT_LINE.match(text)
    kind, own = (m.group(1), m.group(2).strip()) if m else ("note", "")
    title = own or box_title(kind, titles)
    slug = box_slug(title, kind, unique)
    return (f"a box in its place, these lines: '/// details | {title}', "
            f"'    attrs: {{id: {slug}}}', a blank line, the quote's text without its '> ' "
            f"(and without the '[!{kind}]' line), then '///'; or a plain quote, the "
            f"'[!{kind}]' line left out")


# MkDocs' admonition (pymdown's Details): `!!! note`, `??? tip "Its title"`, `???+ warning`
ADMONITION = re.compile(r"^(?:!!!|\?\?\?\+?)[ \t]+\w+")
# (its title's quotes as typed, or as the page's typography made them)
_ADMONITION_LINE = re.compile(r"(?:!!!|\?\?\?\+?)[ \t]+([\w-]+)"
                              r"(?:[ \t]+[\"\u201c]([^\"\u201c\u201d\n]*)[\"\u201d])?")


def admonition_instead(text: str, unique: Callable[[str], str] = str,
                        titles: Mapping[str, str] = MappingProxyType({})) -> str:
    """What to write for the MkDocs admonition that starts `text`: the lines of a box titled
    as the admonition is (its own quoted title, else its kind's, `box_title`: 'Note' for
    `!!! note`), with an id made of that title (`box_slug`), its indented text without the
    indent inside."""
    m = _ADMONITION_LINE.match(text)
    kind, own = (m.group(1), (m.group(2) or "").strip()) if m else ("note", "")
    title = own or box_title(kind, titles)
    slug = box_slug(title, kind, unique)
    return (f"a box in its place, these lines: '/// details | {title}', "
            f"'    attrs: {{id: {slug}}}', a blank line, the admonition's text without its "
            "4-space indent, then '///'")


# TeX outside a formula, a math command that prose never holds: a formula whose dollars
# were lost, or a chat assistant's answer copied from its page, whose '\\[ … \\]' and
# '\\( … \\)' lose their backslashes there ('[' and ']' lines around the TeX, '( d_k )' in a
# sentence); from the command to its line's end (or an element's edge): one line of TeX is
# one place to fix. Last in FOREIGN, and quiet on a line another rule told (AsciiDoc's
# 'stem:[\\sqrt{d}]', '\\begin{align}' inside a line of text); a command in quotes, the
# token '"\\int"' a paper writes about, is text
TEX_OUTSIDE = re.compile(r"\\(?:" + MATH_COMMANDS + r")(?![A-Za-z])(?!" + _QUOTE
                         + r")[^\n\u00aa]*")


# a bare citation in running text (FOREIGN's entry below): in a list item
# (IN_TEXT_CITATION) a credits list's item is passed over too, elsewhere
# (_IN_TEXT_OUTSIDE_ITEMS) only a thanks
_IN_TEXT = (r"|(?<![\w@\[.+/-])" + _CREDIT + "@" + CITATION_KEY + r"(?![^\[\]\n]*\])")
IN_TEXT_CITATION = re.compile(_CREDITED_ITEM + _IN_TEXT)
_IN_TEXT_OUTSIDE_ITEMS = re.compile(_CREDITED + _IN_TEXT)
FOREIGN: tuple[tuple[re.Pattern[str], bool, str, str], ...] = (
    *_CLAIMED,
    (ADMONITION, True, "MkDocs' admonition syntax", BOX),
    # MediaWiki's (Wikipedia's) heading, `== Variants ==`, `=== Motivation ===`
    (WIKI_HEADING, True, "a MediaWiki (Wikipedia) heading '== … ==' (or DokuWiki's)",
     "'## Its title {#some-id}' ('##' for MediaWiki's '==' and DokuWiki's '=====', '###' "
     "for MediaWiki's '===' and DokuWiki's '====')"),
    (re.compile(r"^===\+?[ \t]+(?![^\n]*[ \t]===[ \t]*$)\S[^\n]*"), True,
     "an MkDocs content tab ('=== \"Title\"')",
     f"the variants one after another, each under its own heading or in {BOX}"),
    # GitHub's five alerts and Obsidian's callouts (`> [!quote]`, `> [!example]+ Title`,
    # folded with '-' or open with '+'; any word is a callout type there)
    (ALERT, True, "a GitHub alert or Obsidian callout", f"{BOX}, or a plain quote"),
    (re.compile(r"^\[[ xX]\][ \t]"), True, "a task list item", "a plain list item"),
    (re.compile(r"^:{3,}[ \t]*\{(?:figure|image)\}"), True, "a MyST figure ':::{figure}'",
     "the figure as a paragraph of its own, ![what it shows](NAME.svg \"Caption\")"),
    (CONTAINER, True, "a ':::' container (Docusaurus, VitePress, Pandoc, MyST)", BOX),
    (re.compile(r"^\.\.[ \t]+math::"), True, "a reStructuredText directive",
     "the formula between two '$$' lines (a ':label:' as '\\tag{1}' inside, referred to in "
     "words)"),
    (re.compile(r"^\.\.[ \t]+(?:code-block|code|sourcecode|literalinclude)::"), True,
     "a reStructuredText directive", "a code fence, '```python' … '```'"),
    (re.compile(r"^\.\.[ \t]+(?:image|figure)::"), True, "a reStructuredText directive",
     "a figure the build draws, ![what it shows](NAME.svg \"Caption\")"),
    (re.compile(r"^\.\.[ \t]+(?:list-table|csv-table|table)::"), True,
     "a reStructuredText directive", PIPE_TABLE),
    (re.compile(r"^\.\.[ \t]+(?:contents|toctree|sectnum)::"), True,
     "a reStructuredText directive",
     "nothing: remove it (the page makes its own contents, from the '##' and '###' headings)"),
    (re.compile(r"^\.\.[ \t]+rubric::"), True, "a reStructuredText directive",
     "a heading, '## Its title {#some-id}'"),
    (re.compile(r"^\.\.[ \t]+(?!(?:math|code-block|code|sourcecode|literalinclude|image|figure|"
                r"list-table|csv-table|table|contents|toctree|sectnum|rubric)::)[\w-]+::"),
     True, "a reStructuredText directive", BOX),
    # reStructuredText's target `.. _name:` (`.. _name: https://…`), substitution
    # definition `.. |name| replace:: …` and footnote `.. [#f1] …`, each a line of text here
    (re.compile(r"^\.\.[ \t]+_[^:\n]+:(?=[ \t]|$)", re.M), False,
     "a reStructuredText target '.. _name:'",
     "an id on the heading it marks ('## Title {#name}'), or the address in a link "
     "[text](address) where it is used; remove the line"),
    (re.compile(r"^\.\.[ \t]+\|[^|\n]+\|[ \t]+[\w-]+::", re.M), False,
     "a reStructuredText substitution definition '.. |name| …::'",
     "what it stands for where it is used (a link: [text](address)); remove the line"),
    (re.compile(r"^\.\.[ \t]+\[(?:#[\w-]*|\d+|\*)\]", re.M), False,
     "a reStructuredText footnote '.. [#…]'", "a footnote, '[^name]: the note's text'"),
    # reStructuredText's footnote reference `[#f1]_`, `[1]_`, and substitution reference
    # `|name|_` (a link) in a sentence
    (re.compile(r"\[(?:#[\w-]*|\d+|\*)\]_(?![\w])"), False,
     "a reStructuredText footnote reference '[#…]_'",
     "a footnote: a reference [^name] in the text and '[^name]: the note' below it"),
    (re.compile(r"(?<![\w|])\|[\w][\w .-]*\|__?(?![\w])"), False,
     "a reStructuredText substitution '|name|_'",
     "the words or the link it stands for, [text](address)"),
    # reStructuredText's simple table: rows between lines of '=' runs parted by spaces
    # (one warning a table: its first such line, of the block's own text)
    (re.compile(r"^[ \t]*={2,}(?:[ \t]+={2,})+[ \t]*$", re.M), True,
     "a reStructuredText simple table ('=====  =====')", PIPE_TABLE),
    # LessWrong's collapsible section, `+++ Its title` … `+++`
    (re.compile(r"^\+\+\+[ \t]+[^\s{][^\n]*"), True,
     "a collapsible section '+++ Title' (LessWrong's)", BOX),
    (re.compile(r"^/{2}[ \t]*details\b"), True, "a box opened with two slashes",
     "'/// details | Title' (three slashes), with '    attrs: {id: some-id}' under it"),
    (re.compile(r"~~[^~\s](?:[^~]*[^~\s])?~~"), False, "strikethrough '~~…~~'",
     "<del>…</del>, or leave the text out"),
    # GitHub strikes a single tilde's pair too; one after a letter or digit is a subscript
    # (below) or a range (`3~5`), which is never struck here. The closing one is right-
    # flanking (GFM 6.5): after a letter or digit, or after a punctuation mark and before
    # no letter or digit (`(~5) and (~6)` strikes nothing on GitHub)
    # (not one or two letters or digits after a space: Typora's subscript, below)
    (re.compile(r"(?<![~\w)])~(?![A-Za-z0-9]{1,2}~(?![~0-9]))(?=[^~\s])[^~]*?"
                r"(?:(?<=\w)|(?<=[^\w\s~])(?=~(?!\w)))~(?!~)"),
     False,
     "strikethrough '~…~' (GitHub's single tilde)", "<del>…</del>, or leave the text out"),
    (re.compile(r"(?<![=\w])==[^=\s](?:[^=]*[^=\s])?==(?!=)"), False, "highlighting '==…=='",
     "<mark>…</mark>"),
    (re.compile(r"\^\^[^^\s](?:[^^]*[^^\s])?\^\^"), False, "an insertion '^^…^^'",
     "<ins>…</ins>"),
    # (Typora's and pandoc's after a space or a punctuation mark too, one or two letters or
    # digits: `Q ~m~`, `score ~0~`, `Q\uff0c~m~` in a Chinese note; a word or more there is
    # struck, above, and so is one before a digit, an approximate range `~10~20`; after a
    # Chinese character, struck: the Chinese rule below)
    (re.compile(r"(?<=[A-Za-z0-9)])(?<!~)~(?!~)[A-Za-z0-9+-]{1,6}~(?!~)"
                r"|(?<![\w~)])~[A-Za-z0-9]{1,2}~(?![~0-9])"), False,
     "a subscript '~…~'", "<sub>…</sub>, or a Unicode subscript (H₂O), or math ($H_2O$)"),
    (re.compile(r"(?<=[A-Za-z0-9)])(?<!\^)\^(?!\^)[A-Za-z0-9+-]{1,6}\^(?!\^)"), False,
     "a superscript '^…^'", "<sup>…</sup>, or math ($x^2$)"),
    # Reddit's spoiler `>!…!<` inside a line (at a line's start: `ForeignSyntax._spoiler_quote`) and
    # superscript, `^(a few words)` or `^word` after a space (`^I ^am
    # ^a ^bot`; not `c^2`, nor `^C` alone, nor Obsidian's block id `^name` ending a line)
    (re.compile(r">!(?=\S)(?:(?!>!)[^\n])*?(?<=\S)!<"), False, "a Reddit spoiler '>!…!<'",
     _SPOILER),
    # (a run of them, `^I ^am ^a ^bot`, is one warning; right after a Chinese character, a
    # word of Latin letters alone: '^C' as Ctrl-C in Chinese prose, '\u6309^C\u7ec8\u6b62',
    # is none)
    (re.compile(r"(?:(?:(?<=" + _SPACE + r")|^)\^\([^()\n]+\)|(?:(?<=\s)\^[A-Za-z][\w'/-]+"
                r"|(?<=[" + CJK + r"])\^[A-Za-z][A-Za-z0-9'/-]+)(?![\w'/-])"
                r"(?![ \t]*$))(?:[ \t]+\^[\w(][^\s]*)*", re.M),
     False, "a Reddit superscript ('^word', '^(…)')", "<sup>…</sup>, or plain words"),
    # the back-mark '^' that opens each entry of a Zhihu answer's reference list,
    # `1. ^Attention Is All You Need https://…` (not a line of Reddit's `^a ^b`)
    # (not an Obsidian block id alone on its line, `^fd7e3b` under a heading or a list)
    (re.compile(r"^\^(?=[^\s^(\[])(?![^\n]*\s\^)(?![\w-]+[ \t]*(?:\n|$))"), True,
     "a Zhihu reference's back-mark '^'",
     "the reference without it"),
    # what attr_list did not take (it takes `{: .name }` on a block's last line): a line of
    # its own, which kramdown applies to the block below, or one inside the text
    # kramdown's extensions: `{::comment}` … `{:/comment}`, `{::nomarkdown}` … `{:/}`,
    # `{::options parse_block_html="true" /}`
    (KRAMDOWN_EXTENSION, False, "kramdown's (Jekyll's) extension '{::…}'",
     KRAMDOWN_EXTENSION_INSTEAD),
    # just-the-docs' (kramdown's) class keeping a heading out of its contents, `{: .no_toc }`
    (NO_TOC, False, "just-the-docs' (kramdown's) '{: .no_toc }' (a heading kept out of the "
     "contents)", "nothing: the page's contents list every '##' and '###' heading (remove the "
     "line; words the contents should leave out can be a '####' heading or bold words)"),
    (re.compile(r"\{:(?![ \t]*toc[ \t]*\})(?![:/])(?![^{}\n]*\.no_toc\b)[^{}\n]*\}"), False,
     "kramdown's (Jekyll's) attribute list '{: …}'", ATTRIBUTES_INSTEAD),
    # an attribute list whose '}' was lost (`{: .screen-only` under a paragraph): attr_list
    # leaves it in the text, and the class is not given: classes and ids, then `name=value`s
    # (their quotes are smarty's placeholders here) to the line's end; not a brace opening
    # words ('the selector {.note is'), nor one a '}' further on closes ('{lr=3e-4,' with
    # 'wd=0.1}' on the next line)
    (re.compile(r"\{:?[ \t]*(?=[.#A-Za-z])(?:[.#][A-Za-z_][\w-]*[ \t]*)*"
                r"(?:[A-Za-z][\w-]*=[^{}\n]*)?$(?![^{}]*\})", re.M), False,
     "an attribute list without its closing '}'",
     "it closed, '{: .screen-only }', on the last line of the paragraph it marks, or remove it"),
    (HF_DIRECTIVE, False,
     "the Hugging Face doc-builder's directive '[[autodoc]]' or '[[open-in-colab]]' (the API "
     "reference it builds from docstrings; a notebook's buttons)",
     "a link to the reference or notebook, [its name](address), or remove the line"),
    # Obsidian's (and wikis') links and embeds: `[[Page]]`, `[[Page#Heading|text]]`,
    # `![[image.png]]` (an embedded picture or note, which would not be shown); the
    # table-of-contents markers `[[TOC]]`, `[[_TOC_]]` stop the build (OTHER_TOC)
    (WIKILINK, False,
     "an Obsidian (wiki) link or embed '[[…]]'",
     "[text](address) for a link, a figure the build draws for a picture, or the words alone"),
    # Obsidian's comment `%%…%%` (the words inside would be published)
    # (opener to closer, or to the text's end: one comment is one warning)
    (re.compile(r"(?<!%)%%(?!%)(?:[^%]|%(?!%))*?(?:(?<!%)%%(?!%)|\Z)"), False,
     "an Obsidian comment '%%…%%'",
     "an HTML comment <!-- … -->, which the page leaves out"),
    # Obsidian's block id, `^name` at the end of a line or alone on its line (under a list,
    # a quote or a heading), the target of `[[Page#^name]]`
    (re.compile(r"(?:(?<=[ \t])|^)\^[A-Za-z0-9][\w-]*[ \t]*$", re.M), False,
     "an Obsidian block id '^…'", "a heading with an id ('## Title {#some-id}') to link to, "
     "or remove it"),
    # Pandoc's (Quarto's, R Markdown's) citations `[@vaswani2017]`, `[-@key]`,
    # `[@a; @b, p. 4]`, and Quarto's (pandoc-crossref's) cross-references `@fig-x`, `@eq:x`
    (re.compile(r"\[-?@[\w:.-]+[^\[\]\n]*\]|\[[^\[\]@\n]*[ \t]-?@" + CITATION_KEY
                + r"[^\[\]\n]*\]"), False,
     "a Pandoc citation '[@…]' (Quarto, R Markdown)", CITATION_INSTEAD),
    # a bare citation in running text, `@vaswani2017 shows`, only of a key that reads as one
    # (a name with a year): a handle (`@huggingface`), an address (`a@b.org`, `x.com/@a`),
    # a bracketed citation (above) and a changelog's credit to a GitHub user whose name
    # ends in a year (_CREDIT) are not told here
    (IN_TEXT_CITATION, False,
     "a Pandoc in-text citation '@…' (Quarto, R Markdown)", CITATION_INSTEAD),
    # (pandoc-eqnos' and pandoc-fignos' braced form, `{@eq:description}`, told whole)
    (re.compile(r"\{@(?:fig|eq|tbl|sec|lst|thm|lem|def)[-:][\w-]+\}"
                r"|(?<![\w@\[{-])@(?:fig|eq|tbl|sec|lst|thm|lem|def)[-:][\w-]+"), False,
     "a Quarto (pandoc-crossref) cross-reference '@…'",
     "a link to what it names ('[Figure 1](#id)', '[the section](#id)'), or words"),
    # Pandoc's bracketed span, `[Small Caps]{.smallcaps}`, `[]{#tab:x}` (an anchor), text
    # here and on GitHub (attr_list takes a list only after an element)
    (re.compile(r"\[[^\[\]\n]*\]\{(?:[#.][\w:.-]|[A-Za-z][\w-]*=)[^{}\n]*\}"), False,
     "a Pandoc bracketed span '[…]{…}'",
     "the words alone (an anchor to link to is a heading's id, '## Title {#some-id}')"),
    # Pandoc's grid table, a paragraph here and on GitHub: `+-----+-----+` over `| a | b |`
    (re.compile(r"^\+[-=:]{3,}\+(?:[-=:]+\+)*[ \t]*$", re.M), True, "a Pandoc grid table",
     PIPE_TABLE),
    # MDX's (Docusaurus') module lines at a block's start, `import Tabs from '@theme/Tabs';`,
    # `import './styles.css';`, `export const Highlight = …`: code MDX runs, a paragraph of
    # text here and on GitHub (smarty has curled their quotes)
    (re.compile(r"^import[ \t]+(?:(?:[\w$]+|\{[^}\n]*\}|\*[ \t]+as[ \t]+[\w$]+)"
                r"(?:[ \t]*,[ \t]*(?:[\w$]+|\{[^}\n]*\}))*[ \t]+from[ \t]+)?"
                + _QUOTE + r"[^\s\"'\u2018\u2019\u201c\u201d]+" + _QUOTE + r";?[ \t]*$",
                re.M), True,
     "an MDX (Docusaurus) 'import' line",
     "nothing: remove the line (what it imports does not exist here; a component it brings "
     "is written in Markdown)"),
    (re.compile(r"^export[ \t]+(?:const|let|var|function|default|class)\b"), True,
     "an MDX (Docusaurus) 'export' line",
     "nothing: remove its lines, and write what a component made of it shows in Markdown"),
    # a line that includes another file: VitePress' code snippet `<<< @/snippets/a.js{2-3}`,
    # pymdown's Snippets `--8<-- "path"` (MkDocs); the file is never read here
    (re.compile(r"^(?:<<<[ \t]+\S|-{1,2}8<-{1,2}(?:[ \t]|$))", re.M), True,
     "a line including another file ('<<< @/…' of VitePress, '--8<--' of MkDocs' snippets)",
     "what the file holds, code in a fenced block"),
    # MkDocs Material's icon shortcodes (`:material-clock-fast:`, `:fontawesome-brands-python:`,
    # `:octicons-heart-16:`, `:simple-pytorch:`), no emoji of GitHub's list: shown as typed
    (re.compile(r"(?<!:)" + _NOT_AFTER_WORD + r":(?:material|fontawesome|octicons|simple)-[\w-]+:"
                r"(?!:)" + _NOT_BEFORE_WORD), False,
     "an MkDocs Material icon ':…-…:'",
     "the words it stands for, or one of GitHub's emoji (':warning:', ':bulb:')"),
    # pymdown's Keys `++ctrl+alt+del++`
    (re.compile(r"(?<![+{])" + _NOT_AFTER_WORD + r"\+\+[A-Za-z0-9-]+(?:\+[A-Za-z0-9-]+)*\+\+"
                r"(?![+}])" + _NOT_BEFORE_WORD), False,
     "a key combination '++…++' (pymdown's Keys)", "<kbd>Ctrl</kbd>+<kbd>K</kbd>"),
    # CriticMarkup (pymdown's Critic, MultiMarkdown): `{++added++}`, `{--deleted--}`,
    # `{~~old~>new~~}`, `{==marked==}`, `{>>comment<<}`
    (re.compile(r"\{(?:\+\+|--|~~|==|>>)(?:(?!\{(?:\+\+|--|~~|==|>>))[^\n])*?"
                r"(?:\+\+|--|~~|==|<<)\}"), False,
     "CriticMarkup '{++…++}', '{--…--}', '{~~…~>…~~}', '{>>…<<}'",
     "the text as it is meant to read (<ins>…</ins>, <del>…</del> for marked changes); an "
     "HTML comment <!-- … --> for a remark"),
    # MDX's comment `{/* … */}` (the words inside would be published)
    (re.compile(r"\{/\*"), False, "an MDX comment '{/* … */}'",
     "an HTML comment <!-- … -->, which the page leaves out"),
    # Pelican's (Python-Markdown Meta-Data's, MultiMarkdown's) metadata lines at the top of a
    # post, `Title: …`, `Date: …`, `Tags: …`: a paragraph of text here and on GitHub (two
    # such lines at least, the first of a key those tools read)
    (_PELICAN_META, True,
     "Pelican's (Python-Markdown Meta-Data's) metadata lines 'Key: value'",
     "the title and description in the front matter (title:, description:), and remove "
     "the lines"),
    # bookdown's (R Markdown's) cross-reference `\@ref(fig:hist)` (its `\@` an escape: the
    # tree holds the escape's placeholder, matched as _INERT), text reference
    # `(ref:hist-cap)` and label `(\#tab:sds)` (in a table's caption line)
    (re.compile("(?:" + _INERT + r"+|(?<!@)" + _NOT_AFTER_WORD + r"@)ref\([\w.:-]+\)"), False,
     "a bookdown cross-reference '\\@ref(…)'",
     "a link to what it names ('[Figure 1](#id)', '[the section](#id)'), or words"),
    (re.compile(r"\(ref:[\w.:-]+\)"), False, "a bookdown text reference '(ref:…)'",
     "the text itself where it is used, and remove the line defining it"),
    (re.compile(r"\((?:" + _INERT + r"+|\\#)[A-Za-z]+:[\w.:-]+\)"), False,
     "a bookdown label '(\\#…:…)'",
     "a caption as a sentence of its own, and remove the label (a heading's id is "
     "'{#id}')"),
    # Pandoc's (Quarto's, R Markdown's) inline footnote `^[the note's text]`
    (re.compile(r"\^\[[^\[\]\n]*\]"), False, "an inline footnote '^[…]' (Pandoc, R Markdown)",
     "a footnote: a reference [^name] in the text and, below the paragraph, "
     "'[^name]: the note's text'"),
    # MyST's (Jupyter Book's) target `(sec-intro)=` on the line above a heading, and its
    # notebook cell break `+++` (Jupytext's MyST notebooks), a line of text here and on GitHub
    (re.compile(r"^\([\w:.-]+\)=[ \t]*$", re.M), False, "a MyST target '(…)='",
     "an id on the heading below it ('## Title {#sec-intro}'), and remove the line"),
    (re.compile(r"^(?<![^\n]\n)\+\+\+(?:[ \t]*\{[^\n]*\})?[ \t]*$(?!\n" + _TOML_KEY + ")",
                re.M), False,
     "a notebook cell break '+++' (MyST, Jupytext)", "nothing: remove the line"),
    # a Zola or Hugo post's own front matter, `+++` over `title = "…"` lines, left under the
    # front matter: a paragraph of text here and on GitHub
    (re.compile(r"^\+\+\+[ \t]*\n" + _TOML_KEY, re.M), False,
     "a TOML front matter block '+++ … +++' (Zola's, Hugo's)",
     "the title and description in the front matter at the top (title:, description:), and "
     "remove the block"),
    # LaTeX outside a formula (course notes, a paper's source): a math environment inside a
    # line of text (one at a line's start is a display formula), any other environment
    # (`\begin{theorem}`, `\begin{itemize}`) and the text commands; its '*' may be emphasis
    (re.compile(r"\\begin\{(?:equation|align|alignat|gather|multline|flalign|eqnarray|CD)"
                r"(?![A-Za-z])"), False,
     "a LaTeX math environment inside a line of text ('\\begin{…}')",
     "it on lines of its own: a line that starts with '\\begin{align}' opens a display "
     "formula up to its '\\end{align}'"),
    # an environment KaTeX reads only inside a formula (a matrix, cases, aligned rows), on a
    # line of text: a MathJax page typesets it anywhere (processEnvironments), GitHub and
    # this site show its TeX as typed
    (re.compile(r"\\begin\{" + _INNER_MATH_ENVIRONMENT + r"\}"), False,
     "a LaTeX math environment outside a formula",
     "it inside one: a line '$$' above it and one below it (a display formula), or '$' "
     "before and after it in a line of text; KaTeX reads this environment only in a formula"),
    (re.compile(r"\\begin\{(?!(?:equation|align|alignat|gather|multline|flalign|eqnarray|CD)"
                r"(?![A-Za-z]))(?!" + _INNER_MATH_ENVIRONMENT + r"\})[A-Za-z]+\*?\}"), False,
     "a LaTeX environment",
     "it in Markdown and remove the '\\begin{…}' and '\\end{…}' lines: a bold lead-in "
     "('**Theorem 1.** …', '*Proof.* …') for a theorem, proof or definition, a list ('- …', "
     "'1. …') for itemize or enumerate, a table for a tabular ('| a | b |' rows under a "
     "'|---|---|' line, a formula in a cell between '$'), a figure for a figure"),
    (re.compile(r"\\(?:text(?:bf|it|tt|sc)|emph|underline|cite[pt]?|eqref|[cC]?ref|autoref|"
                r"label|(?:sub)*section\*?|paragraph|footnote|url|href)\{[^{}\n]*\}?"),
     False,
     "LaTeX's text command",
     "Markdown: **bold**, *italic*, `code`, [text](address), a footnote [^name], a heading "
     "'## …' with its {#id}, a reference in words or as a link [Figure 1](#id)"),
    # kramdown's (PHP Markdown Extra's) abbreviation: a line `*[term]: what it stands for`,
    # which would title every 'term' of the page; here the line is text
    (re.compile(r"^\*\[[^\]\n]+\]:", re.M), False,
     "an abbreviation's definition '*[…]: …' (kramdown, PHP Markdown Extra)",
     "the term in full where it first appears, 'RoPE (Rotary Position Embedding)', or "
     "<abbr title=\"Rotary Position Embedding\">RoPE</abbr>, and remove the line"),
    # AsciiDoc: a formula `stem:[\sqrt{d_k}]` (`latexmath:[…]`, `asciimath:[…]`), shown as
    # raw TeX, and its display block `[stem]` over `++++` … `++++`
    (re.compile(r"(?<!:)" + _NOT_AFTER_WORD + _STEM + _asciidoc_text(_STEM)), False,
     "an AsciiDoc formula 'stem:[…]'",
     "the formula between dollars, $…$ (the TeX between the brackets)"),
    (re.compile(r"^\[(?:stem|latexmath|asciimath)\][ \t]*$", re.M), False,
     "an AsciiDoc formula block '[stem]' over '++++'",
     "the formula between two '$$' lines, without the '[stem]' and '++++' lines"),
    # AsciiDoc's block attribute line, `[source,python]`, `[NOTE]`, `[quote, Author]`,
    # `[cols="1,1"]`, `[#id]`, `[.role]`, `[%header]`: a line of text here
    (re.compile(r"^\[(?:(?:source|listing|literal|NOTE|TIP|IMPORTANT|WARNING|CAUTION|quote|"
                r"verse|example|sidebar|abstract|appendix|bibliography|glossary|partintro|"
                r"horizontal|qanda)(?:[,\s][^\]\n]*)?|(?:cols|options|format|separator|frame|"
                r"grid|width|caption|title)=[^\]\n]*|[#.%][\w-][^\]\n]*)\][ \t]*$", re.M),
     False, "an AsciiDoc block attribute line '[…]'",
     "the block in Markdown and remove the line (for '[source,python]' over '----' lines, "
     f"a '```python' fence; '[NOTE]', {BOX_NAMED}; '[quote, …]', '> ' "
     "lines; a table, a pipe table)"),
    (re.compile(r"^\|={3,}[ \t]*$", re.M), True, "an AsciiDoc table '|==='", PIPE_TABLE),
    # AsciiDoc's links, `link:https://…[text]`, `https://…[text]`, `xref:file.adoc[text]`,
    # and cross-references `<<id>>`, `<<id,text>>` (the second '<' is an entity's
    # placeholder in the tree); an address linked by MagicLink sits after an element's edge
    (re.compile(_LINK_START + _asciidoc_target(_LINK_START, r"[^\s\[\]]")
                + _asciidoc_text("(?:link|xref):")),
     False,
     "an AsciiDoc link 'link:…[…]'",
     "[text](address); for a part of this page, [text](#id)"),
    (re.compile(_URL_START + _asciidoc_target(_URL_START, r"[^\s\[\]<>|]")
                + _asciidoc_text("(?:https?|ftp)://")),
     False, "an AsciiDoc link 'https://…[text]'", "[text](address)"),
    (re.compile("<(?:<|" + re.escape(HTML_PLACEHOLDER).replace("%s", r"\d+")
                + r")[A-Za-z_][\w:.-]*(?:,[^<>\n]*)?>>"), False,
     "an AsciiDoc cross-reference '<<…>>'", "a link to what it names, [text](#id)"),
    (re.compile(r"(?<!:)" + _NOT_AFTER_WORD + r"footnote(?:ref)?:[\w-]*"
                + _asciidoc_text("footnote(?:ref)?:")), False,
     "an AsciiDoc footnote 'footnote:[…]'",
     "a footnote: a reference [^name] in the text and '[^name]: the note' below it"),
    (re.compile(_IMAGE_START + ":?" + _asciidoc_target(_IMAGE_START, r"[^\s\[\]]")
                + _asciidoc_text("image:")),
     False,
     "an AsciiDoc image 'image::…[…]'",
     "a figure the build draws, ![what it shows](NAME.svg \"Caption\")"),
    # AsciiDoc's document title and attribute entries at its top (`= Title`, `:toc: left`
    # lines: one warning a run), and its numbered list, lines starting '. ' (not a line of
    # math going on from the one above, `= \frac{1}{2}` or `= x + y`: a title has no TeX or
    # operators)
    (re.compile(r"^=[ \t]+(?![^\n]*[\\^_{}=+<>])[^=\s][^\n]*$", re.M), True,
     "an AsciiDoc document title '= …'",
     "the title in the front matter (title:), and remove the line"),
    (re.compile(r"^:[a-z][\w-]*:(?:[ \t][^\n]*)?(?:\n:[a-z][\w-]*:(?:[ \t][^\n]*)?)+", re.M),
     False,
     "AsciiDoc's attribute entries ':name: value'",
     "nothing: remove the lines (the title and description go in the front matter)"),
    (re.compile(r"^\.[ \t]+\S[^\n]*(?:\n\.[ \t]+\S[^\n]*)+", re.M), False,
     "an AsciiDoc numbered list ('. item' lines)",
     "'1. ' at the start of each item's line, after a blank line"),
    # a line starting '** ' (or more stars): a nested list item of AsciiDoc or MediaWiki, an
    # org-mode heading (`** TODO Check`); text here and on GitHub
    (re.compile(r"^[ \t]*\*{2,}[ \t]+\S[^\n]*", re.M), False,
     "'** …' at a line's start (a nested list item of AsciiDoc or MediaWiki, an org-mode "
     "heading)",
     "a list item indented by 4 spaces per level ('    - …'), or a heading, "
     "'### Its title {#some-id}'"),
    # org-mode: footnotes `[fn:1]` (and `[fn:name:text]`), links `[[address][text]]`,
    # drawers (`:PROPERTIES:` … `:END:`, Logseq's `:LOGBOOK:`), planning lines
    # (`SCHEDULED: <2026-12-05 Sat>`), verbatim `=code=` and italic `/some words/`
    (re.compile(r"\[fn:[\w-]*(?::[^\]\n]*)?\]"), False, "an org-mode footnote '[fn:…]'",
     "a footnote: a reference [^name] in the text and '[^name]: the note' below it"),
    (re.compile(r"\[\[[^\[\]\n]+\]\[[^\[\]\n]+\]\]"), False,
     "an org-mode link '[[address][text]]'", "[text](address)"),
    (re.compile(r"^[ \t]*:[A-Z][A-Z_]*:[ \t]*$"
                r"(?:(?:\n(?![ \t]*:[A-Z][A-Z_]*:[ \t]*$)[^\n]*)*\n[ \t]*:END:[ \t]*$)?", re.M),
     False,
     "an org-mode (Logseq) drawer ':NAME:' … ':END:'",
     "nothing: remove its lines (a heading's id is written '## Title {#some-id}')"),
    (re.compile(r"^[ \t]*(?:SCHEDULED|DEADLINE|CLOSED):[ \t]*\S[^\n]*", re.M), False,
     "an org-mode (Logseq) planning line 'SCHEDULED: …'",
     "nothing: remove the line, or the date in words"),
    # (org-mode's emphasis wants a space or one of -('"{ before its opening mark
    # (org-emphasis-regexp-components), so '\u8fd9\u662f/\u659c\u4f53/' is no italic
    # in org-mode either: `\w`, a Chinese character with it, stays before and after)
    (re.compile(r"(?<![\w=])=(?=[^\s=])[^=\n]*?(?<=[^\s=])=(?![\w=])"), False,
     "org-mode's verbatim '=…='", "`code`"),
    # (not units, '3 /s and 5 m/', '/min or km2/': a one-letter word, but 'a' and 'I', or a
    # number at either end, or a number before it; nor paths, '/data or my_runs/', '/notes.md
    # or drafts/': a word holding '_', '~', '=', '\\' or a dot between letters)
    (re.compile(r"(?<![\w/:.<])(?<!\d[ \t])/(?![^\WaAI]\b)(?![^/\s]*\d)"
                r"(?![^/\n]*(?:[_~=\\]|\w\.\w))(?=[A-Za-z])[^/\s]*(?:[ \t]+[^/\s]+)+"
                r"(?<!\d)(?<!\b[^\WaAI])/(?![\w/])"),
     False, "org-mode's italic '/…/'", "*italic*"),
    # Logseq's (Roam's) properties `alias:: SDPA` and block references `((uuid))`
    (re.compile(r"^[ \t]*[A-Za-z][\w-]*::[ \t]+\S[^\n]*", re.M), False,
     "a Logseq (Roam) property 'name:: value'",
     "nothing: remove the line (the title and description go in the front matter)"),
    (re.compile(r"\(\((?=[\w-]*\d)[\w-]{9,}\)\)"), False,
     "a Logseq (Roam) block reference '((…))'",
     "the words of the block it refers to, or a link to a heading of this page, [text](#id)"),
    # Slack's link `<https://…|text>` (an autolink whose address holds '|text' here), and
    # Slack's and Discord's mentions `<@U02ABCDEF>`, `<#C01ML2READ|name>`, `<!here>`,
    # Discord's `<@123…>`, custom emoji `<:name:123…>` and spoiler `||…||`
    (re.compile(r"(?:https?|ftp|mailto):(?:(?!(?:https?|ftp|mailto):)[^\s|<>])*"
                r"\|(?=\S)[^\n>]*"), False,
     "a Slack link '<address|text>'", "[text](address)"),
    (re.compile(r"<(?:[@#][A-Z0-9]{6,}|@!?\d{15,}|#\d{15,}|!(?:here|channel|everyone)|"
                r"!subteam\^[A-Z0-9]+|a?:\w+:\d{15,})(?:\|[^<>\n]*)?>"), False,
     "a Slack or Discord mention '<@…>'", "the name in words ('@Priya'), or nothing"),
    # (words, not a norm written without math: `||q - k||`, `||W_Q||`)
    (re.compile(r"(?<!\|)\|\|(?=[^\s|])(?=[^|\n]*[ \t])(?=[^|\n]*[^\W\d_]{3})[^|\n]*?"
                r"(?<=[^\s|])\|\|(?!\|)"), False, "a Discord spoiler '||…||'", _SPOILER),
    # MediaWiki's (Wikipedia's) external link `[https://… its text]` (its address linked by
    # MagicLink, after an element's edge); its table is `_wiki_tables`
    (re.compile(r"\[\u00aa?(?:https?|ftp)://[^\s\]]+[ \t]+[^\]\n]+\]"), False,
     "a MediaWiki external link '[address text]'", "[text](address)"),
    # a bold mark without its pair (a '*' lost or doubled: `**bold*`, `*bold**`, `**bold`),
    # or with a space inside it: neither here nor on GitHub bold, its asterisks shown
    # (not '** ' at a line's start: an Org heading or AsciiDoc item, told above)
    (re.compile(r"(?<!\*)(?!(?<![^\n])\*+[ \t])\*\*+(?!\*)"), False,
     "a bold mark '**' without its pair (or with a space inside it)",
     "**bold words**, a pair with no space inside it, or '\\*\\*' for asterisks as text"),
    # a link whose brackets do not pair (`[text]](address)`: a ']' doubled, or a '[' lost):
    # its '](' shown, the address linked alone or not at all
    (re.compile(r"\]\("), False, "a link's '](' without its pair of brackets",
     "[text](address), one '[' before the text and one ']' after it"),
    (LONE_STAR, False,
     "an emphasis mark '*' without its pair",
     "*italic words*, the pair around the words, or '\\*' for an asterisk as text"),
    # Markdown Nice's (markdown-it-ruby's) annotation over Chinese words, `{words|reading}`
    # (a reading after each '|'): shown as typed here and on GitHub; not a quote `{{ a | f }}`
    (re.compile(r"(?<![{\\$])\{(?!\{)(?=[^{}|\n]*[\u3400-\u9fff\uf900-\ufaff])[^{}|\n]*"
                r"\|(?=[^{}\n]*[^{}\s|])[^{}\n]*\}(?!\})"), False,
     "a Markdown Nice ruby annotation '{words|reading}'",
     "HTML's annotation, <ruby>words<rt>reading</rt></ruby> (GitHub shows it alike), or the "
     "reading in parentheses after the words"),
    # the marks above right after a Chinese character, which their patterns leave out with
    # the letters and digits before them (`a==b`, `3~5`): Typora's `\u662f==\u9ad8\u4eae==`, and a
    # single tilde's pair GitHub strikes (GFM 6.5: a Chinese character is no punctuation),
    # `\u5468\u4e00~\u5468\u4e94\uff0c\u5468\u516d~\u5468\u65e5`, a range written twice; one
    # before a punctuation mark opens nothing there (not left-flanking: a home folder's
    # `\u4e3a~/data\uff0c\u6216\u8005~/code` is text on GitHub too)
    (re.compile(r"(?<=[\u3400-\u9fff\uf900-\ufaff])==[^=\s](?:[^=]*[^=\s])?==(?!=)"), False,
     "highlighting '==…=='", "<mark>…</mark>"),
    # two ranges of numbers in a paragraph, `3~5 \u4e2a\uff0c\u6216 7~9 \u4e2a` (`16~32`,
    # `1e-4~5e-4`): GitHub strikes from the first range's tilde to the second's
    (re.compile(_RANGE_TILDE + r"[^~]*?" + _CLOSING_TILDE),
     False, "strikethrough '~…~' (GitHub's single tilde: GitHub strikes the words between)",
     "<del>…</del> for struck words; for a range, '\uff5e' or '\u81f3', which GitHub never "
     "strikes"),
    (re.compile(_CJK_TILDE + r"[^~]*?" + _CLOSING_TILDE),
     False, "strikethrough '~…~' (GitHub's single tilde: GitHub strikes the words between)",
     "<del>…</del> for struck words; for a range, '\uff5e' or '\u81f3', which GitHub never "
     "strikes"),
    # the full-width dollar sign of a Chinese input method as a formula's delimiter: a pair
    # around TeX (`\uff04x_k\uff04`, `\uff04\\alpha\uff04`, a lone letter `\uff04x\uff04`), or one
    # right before a command (`\uff04\\frac`); text here and on GitHub (a price, `\uff045`, stays
    # quiet)
    (re.compile(r"\uff04(?=\S)(?:(?=[^\uff04\n]*[\\_^{}])[^\uff04\n]*|[A-Za-z])\uff04"
                r"|\uff04(?=\\)"),
     False, "a full-width dollar sign '\uff04' as a formula's delimiter",
     "the formula between ASCII dollar signs, $x_k$ ('\uff04' is text, here and on GitHub)"),
    # CSDN's note of a picture its editor failed to copy, left in the text where the
    # picture was: '[<failed to copy the external picture>,…(img-ID-time)(its old path)]'
    # (no '(' or '[' before its '(img-', and its path's parentheses one deep: a line of
    # the note's starts with no end is read once, not from each start to the line's end)
    (re.compile(r"\[\u5916\u94fe\u56fe\u7247\u8f6c\u5b58\u5931\u8d25[^\n(\[]*\(img-[\w-]+\)"
                r"(?:\((?:[^\n()]|\([^\n()]*\))*\))?\]"), False,
     "a CSDN export's note of a picture it failed to copy ('[\u5916\u94fe\u56fe\u7247"
     "\u8f6c\u5b58\u5931\u8d25…(img-…)(…)]')",
     "a figure the build draws in its place, ![what it shows](NAME.svg \"Caption\"), or "
     "remove it"),
    (TEX_OUTSIDE, False, "TeX outside a formula",
     "the formula between dollars, $…$ in a sentence, or between two '$$' lines (a chat "
     "answer copied from its page writes '[ … ]' and '( … )' around TeX for its '\\[ … \\]' "
     "and '\\( … \\)': write the dollars in their place); a command meant as text in "
     "`code`"),
)
# the classes an author gives with an attribute list (`{: .screen-only }`), which the site's
# stylesheet styles; any other (kramdown's `{: .notice--info}`, `{: .text-center}`) changes
# nothing on the page (tests check each is a class of static/style.css)
AUTHOR_CLASSES = frozenset({"screen-only"})


class AuthorClasses(AttrListTreeprocessor):
    """attr_list's treeprocessor, which also records each element it gave classes and those
    classes (`given`, one page's), for ForeignSyntax to warn about the ones no style knows,
    and each inline element (a link, an image) it gave attributes from a `{…}` right after
    it (`inline`: the element and the list as written), which GitHub shows as text."""

    def run(self, doc: etree.Element) -> None:
        self.given: list[tuple[etree.Element, list[str]]] = []
        self.inline: list[tuple[etree.Element, str]] = []
        super().run(doc)

    def assign_attrs(self, elem: etree.Element, attrs_string: str, *,
                     strict: bool = False) -> str:
        before = set((elem.get("class") or "").split())
        if not self.md.is_block_level(elem.tag):
            self.inline.append((elem, attrs_string))
            # its classes are told with the rest of the list (`ForeignSyntax._inline_lists`)
            return super().assign_attrs(elem, attrs_string, strict=strict)
        rest = super().assign_attrs(elem, attrs_string, strict=strict)
        added = [c for c in (elem.get("class") or "").split() if c not in before]
        if added:
            self.given.append((elem, added))
        return rest


# what an attribute list right after an inline element is after, and what to write
_INLINE_LISTS = {
    "a": ("a link", " (a link here needs no attributes: it opens in the same tab; a "
                    "cross-reference is the link alone, '[Figure 1](#id)')"),
    "img": ("an image", " (the build sizes and places figures: draw the picture as a figure)"),
}
# the start of a Pandoc table caption (`: Scores`, `Table: Scores`)
_PANDOC_CAPTION = re.compile(r"(?:Table)?:[ \t]+(?=\S)")
# a role before a code span: Sphinx's :numref:`fig-1`, :math:`x`; MyST's {numref}`fig-1`
# R Markdown's inline code, `` `r expr` ``: the code span's text; not code about a variable
# r (`r = q @ k`, `r += 1`, `r in rows`, `r.shape`)
_INLINE_R = re.compile(r"r[ \t]+(?![=!<>+\-*/%&|^:.,)\]]|(?:in|is|for|and|or|if)\b)\S")
_ROLE = re.compile(r"(?:(?<![\w:]):[a-z][\w-]*(?::[\w-]+)?:|\{[a-z][\w:-]*\})$")
# fastpages' (nbdev's) embeds: a quote's text `youtube: https://…`, `twitter: https://…`
_EMBED_QUOTE = re.compile(r"(youtube:|twitter:)[ \t]*(?=$|https?://)", re.I)
# smarty's curly quotes back to the typewriter ones the author typed
STRAIGHT = str.maketrans("\u201c\u201d\u2018\u2019", "\"\"''")
_ESCAPE = UnescapeTreeprocessor.RE          # Markdown's placeholder of a backslash escape
# a TeX accent on a letter, as BibTeX spells a name in a pasted citation: `Jos{\'e}`, `\'{e}`,
# `M\"{u}ller`, `Garc{\'\i}a`, `Fran{\c c}ois`, `\v{S}koda`; its backslash and mark stand in
# the tree as Markdown's escape placeholder where the mark is escapable ('\x0239\x03' for
# `\'`); a letter command needs a space or a brace after it (`\users` in a path is no `\u`)
TEX_ACCENT = re.compile(r"(\{)?(?:\\(?P<mark>['`^\"~=.])|\x02(?P<code>\d{2,3})\x03|"
                        r"\\(?P<word>[cvuHkrd])(?=[ \t{]))[ \t]*"
                        r"(?:\{(?P<a>\\?[A-Za-z])\}|(?P<b>\\?[A-Za-z]))(?(1)\})")
# the combining mark of each accent (TeX's names; Unicode's combining characters)
_ACCENT_MARKS = {"'": "\u0301", "`": "\u0300", "^": "\u0302", '"': "\u0308", "~": "\u0303",
                 "=": "\u0304", ".": "\u0307", "u": "\u0306", "v": "\u030c", "H": "\u030b",
                 "c": "\u0327", "k": "\u0328", "r": "\u030a", "d": "\u0323"}


def accented(m: re.Match[str]) -> str:
    """The letter a TEX_ACCENT match writes (e with an acute accent for `{\\'e}`), or ''
    where its escaped character is no accent's mark (`\\*e`), or a mark stands with no brace
    (`\\'e`)."""
    mark = m["mark"] or m["word"] or chr(int(m["code"]))
    if mark not in _ACCENT_MARKS or (not m["word"] and not m[1] and not m["a"]):
        return ""       # a bare `\'s` is Markdown's escaped quote as often (`it\'s`)
    base = (m["a"] or m["b"]).lstrip("\\")        # `\\i`, `\\j`: TeX's dotless letters
    return unicodedata.normalize("NFC", base + _ACCENT_MARKS[mark])


# a raw-HTML placeholder of Markdown's stash at a line's start, and the entities of '>'
_STASHED_LINE_START = re.compile(r"(?:^|(?<=\n))\x02wzxhzdk:(?P<index>\d+)\x03(?=[ \t])")
_SPOILER_LINE = re.compile(r"[ \t]*(?:>[ \t]?)*>!")   # a line opening a spoiler quote
_GREATER_THAN = frozenset(("&gt;", "&#62;", "&#x3e;", "&#x003e;", "&#062;"))
_EDGE = "\u00aa"   # an inline element's edge in a block's joined text: a letter, as math is text
# to GitHub ($a$~$b$ is a range, no strikethrough)
_TEXT_BLOCKS = ("p", "li", "td", "th", "dd", "dt", "h1", "h2", "h3", "h4", "h5", "h6")
_NOT_INLINE = {"code", "pre", "ul", "ol", "blockquote", "table", "div", "details", "dl",
               "section", "figure", "script", "style", "math", "svg"}


# smarty's single quotes as the stash holds them (unescaped), and the typewriter one
_SINGLE_QUOTES = frozenset(("'", "\u2018", "\u2019"))
# MediaWiki's bold and italic: three or two single quotes on each side of the words (the
# quotes read as `_wiki_quotes` reads them)
_WIKI_QUOTES = re.compile(r"(?<!')('{3}|'{2})(?=[^'\s])[^'\n]*?(?<=[^'\s])\1(?!')")
# a pair of '**' (or '__') with a space on an inner side: `**bold **`, `** bold**`
_SPACED_STRONG = re.compile(r"(?<![*_\w])(\*\*|__)([ \t]+[^*_\s](?:[^*_\n]*?[^*_\s])?"
                            r"|[^*_\s](?:[^*_\n]*?[^*_\s])?[ \t]+)\1(?![*_])")


_NOT_EDGE = re.compile(f"[^{_EDGE}]")


def _line_goes_on(joined: str, at: int) -> bool:
    """Whether the first character of `joined` (a block's slots joined by _EDGE) from `at`
    that is no _EDGE is no line break: more of the line follows there (or only elements,
    such as code, whose text is no slot)."""
    m = _NOT_EDGE.search(joined, at)
    return m is None or m.group(0) != "\n"


def _line_starts(text: str, span: tuple[int, int]) -> list[int]:
    """The offsets in `text` where the lines holding `span` start (with the line after a
    span that ends with its line's newline)."""
    starts, at = [text.rfind("\n", 0, span[0]) + 1], span[0]
    while (at := text.find("\n", at, span[1])) >= 0:
        at += 1
        starts.append(at)
    return starts


def _quiet(m: re.Match[str]) -> bool:
    """Whether a match of a FOREIGN pattern is its group `credit`: text that only looks like
    the syntax (_CREDITED), matched to be passed over, never told."""
    return "credit" in m.re.groupindex and m.group("credit") is not None


def _overlaps(span: tuple[int, int], spans: list[tuple[int, int]]) -> bool:
    """Whether `span` shares a character with one of `spans`."""
    return any(span[0] < end and start < span[1] for start, end in spans)


def _inline_slots(parent: etree.Element) -> list[tuple[etree.Element, str]]:
    """(element, "text" | "tail") of the text inside `parent`'s inline children (emphasis,
    links, spans, at any depth) and after each child, in document order; the text of code
    and of nested blocks is not `parent`'s (a nested block is a block of its own here)."""
    out: list[tuple[etree.Element, str]] = []
    for child in parent:
        if child.tag not in _TEXT_BLOCKS and child.tag not in _NOT_INLINE:
            out.append((child, "text"))
            out += _inline_slots(child)
        out.append((child, "tail"))
    return out


class ForeignSyntax(Treeprocessor):
    """A warning at its line for each piece of other tools' syntax (see the module
    docstring) that would reach the page as typed, at the line `positions` gives where it
    stands in the tree; where that is not known, the syntax is looked for in the article
    (`text`) from its block's line on."""

    def __init__(self, md: Markdown, source: Path, text: Callable[[], str],
                 readable: Callable[[str], str], positions: LineMap | None = None,
                 classes: AuthorClasses | None = None,
                 box_titles: Mapping[str, str] = MappingProxyType({}),
                 told_ids: frozenset[str] = frozenset()):
        super().__init__(md)
        self.source, self.text, self.readable = source, text, readable
        self.box_titles = box_titles    # the page language's titles of boxes (box_title)
        self.told_ids = told_ids        # ids told before the conversion (Notion's callouts)
        self.positions = LineMap() if positions is None else positions
        self.classes = classes

    def run(self, root: etree.Element) -> None:
        self._quotes: list[etree.Element] = []     # the quotes `_prompt_quote` has seen
        # the page's ids and those a box to write was told, so that no advice gives one twice
        self._ids = {str(el.get("id")) for el in root.iter() if el.get("id")} | self.told_ids
        star_items = self._star_items(root)
        # the one walk of the tree: the passes after it read what they need from here
        elements: list[etree.Element] = []
        by_tag: dict[str, list[etree.Element]] = {}
        parents: dict[etree.Element, etree.Element] = {}    # filled as the walk goes down

        def in_item(el: etree.Element) -> bool:
            here: etree.Element | None = el
            while here is not None and here.tag != "li":
                here = parents.get(here)
            return here is not None

        for block in root.iter():
            elements.append(block)
            by_tag.setdefault(block.tag, []).append(block)
            parents.update((child, block) for child in block)
            if block.tag == "blockquote":
                self._spoiler_quote(block)
                self._prompt_quote(block)
                self._embed_quote(block)
            if block.tag not in _TEXT_BLOCKS:
                continue
            # the block's own text, the text inside its inline children (emphasis, links:
            # `*foo\` + a line break + `bar*` was never looked at) and the text after each
            # (code and nested blocks are skipped: their tails are prose, their text is not)
            slots = [(block, "text"), *_inline_slots(block)]
            texts = [((el.text if s == "text" else el.tail) or "", el, s) for el, s in slots]
            # an escaped character (`\~~`, `\==`) is text, never the start of markup: each
            # placeholder is matched as characters no pattern takes (offsets kept for `at`)
            matched = [_ESCAPE.sub(lambda m: _INERT * len(m.group(0)), own) for own, _, _ in texts]
            # the block's slots as one text, an element's edge as _EDGE: markup that spans
            # math, code, emphasis or a link (`~~the $x$ term~~`, struck on GitHub) is
            # found there when no one slot holds it
            joined = _EDGE.join(matched)
            offsets = [0]
            for inert in matched:
                offsets.append(offsets[-1] + len(inert) + len(_EDGE))
            # the slots a pattern is matched in (no pattern matches an empty text), and the
            # block's own text, where the patterns of a block's start look
            # a slot that more of its line follows (an element, or the text after one) is
            # matched with an _EDGE after it, so that its end is no line's end to a '$'
            # (`-- [source](…)`, a quotation's attribution, is no slide marker '--' alone)
            live = [(k, texts[k], inert + _EDGE if k + 1 < len(texts) and
                     _line_goes_on(joined, offsets[k] + len(inert)) else inert)
                    for k, inert in enumerate(matched) if inert]
            own_text = live[:1] if matched[0] else []
            # in `joined`: see _CLAIMING (a lost star's asterisk is told once, as bold)
            claimed: list[tuple[int, int]] = self._lost_stars(block, texts, matched, offsets)
            # in `joined`: the lines holding what an earlier pattern told (see TEX_OUTSIDE)
            lines_told: set[int] = set()    # (the offsets where those lines start)
            for pattern, at_start, what, instead in FOREIGN:
                if pattern is WIKILINK and block.tag in _HEADINGS:
                    continue        # Hugging Face's heading anchor, told by `HeadingCollector`
                if pattern is WIKI_HEADING and (in_item(block) or block.tag in ("td", "th")):
                    continue        # no heading in a list item or a table's cell: Typora's
                    # (Obsidian's) `==mark==` there
                told: list[tuple[int, int]] = []      # in `joined`: this pattern's, so far
                # (a credits list's item is one only in a list: IN_TEXT_CITATION)
                search = _IN_TEXT_OUTSIDE_ITEMS \
                    if pattern is IN_TEXT_CITATION and not in_item(block) else pattern
                claims = pattern in _CLAIMING
                for k, (own, el, slot), inert in own_text if at_start else live:
                    # every one in the slot, not only its first: two on one line are two
                    # places to fix, told in one build
                    # (one that takes in the _EDGE spans the element: `joined`'s, below)
                    # (a match of a group named `credit` is text that only looks like the
                    # syntax, consumed so that no part of it is told: _CREDITED)
                    spans = [m.span() for m in search.finditer(inert)
                             if m.end() <= len(own) and not _quiet(m)]
                    for span in spans[:1] if at_start else spans:
                        where = (offsets[k] + span[0], offsets[k] + span[1])
                        if pattern is LONE_STAR and \
                                self.positions.at(el, slot, span[0]) in star_items:
                            told.append(where)      # (the list's item: `_star_items`)
                            continue
                        if _overlaps(where, claimed) or (
                                pattern is TEX_OUTSIDE and
                                not lines_told.isdisjoint(_line_starts(joined, where))):
                            continue
                        told.append(where)
                        lines_told.update(_line_starts(joined, where))
                        if claims:
                            claimed.append(where)
                        rest = self._lines_kept(el, slot, own, span[0]) \
                            if pattern in (ALERT, CONTAINER, ADMONITION) else ""
                        if pattern in (ALERT, CONTAINER) and len(block) and el is block:
                            # a title goes on past the slot, into emphasis, code or a link
                            # ('[!tip] In _Live Preview_, you can …' was told 'In'): its words
                            # are the paragraph's, up to its line's end
                            rest = self._lines_kept(el, slot, _words_of(block), span[0])
                        if pattern in (ALERT, CONTAINER):
                            # its title as typed: smarty's quotes stand in the tree as
                            # the stash's placeholders (an apostrophe was told as one,
                            # 'wzxhzdk:4', and `title="…"` was not found)
                            rest = self.readable(rest).translate(STRAIGHT)
                        if pattern is CONTAINER and \
                                _CLOSING_COLONS.fullmatch(rest.split("\n", 1)[0].strip()):
                            # a container's closing line, a paragraph of its own after a
                            # blank line (Docusaurus writes them so): no box of its own,
                            # which its opening line was told (it was told to make one)
                            opening = _container_closed(
                                self.text(), self.positions.at(el, slot, span[0])
                                or self.positions.floor(block))
                            m = _CONTAINER_LINE.match(opening)
                            kind = (m.group(2) or next(
                                (w.lstrip(".") for w in (m.group(1) or "").split()
                                 if not w.startswith(("#", "title="))), "")).lower() if m \
                                else ""
                            self._warn(block, (own, el, slot), span,
                                       "the closing line ':::' of a ':::' container",
                                       f"nothing: remove it, as its opening line '{opening}' "
                                       "is told" if _layout_instead(kind) else
                                       "'///' in its place, the end of the box its opening "
                                       "line is told to become")
                            continue
                        self._warn(block, (own, el, slot), span, what,
                                   _alert_instead(rest, self._unique, self.box_titles)
                                   if pattern is ALERT
                                   else _container_instead(rest, self._unique, self.box_titles)
                                   if pattern is CONTAINER
                                   else admonition_instead(  # its title's quotes
                                       self.readable(rest.split("\n", 1)[0]),
                                       self._unique, self.box_titles)
                                   if pattern is ADMONITION else instead)
                if at_start or len(texts) == 1:
                    continue        # (one slot and no edge: `joined` is that slot's text)
                # every one across the edges, as in a slot (two Confluence links, each
                # with its address linked, on one line), beside those one slot holds
                for m in search.finditer(joined):
                    # (TeX's first: its lines hold what `told` holds, a set read at once)
                    if _quiet(m) or (pattern is TEX_OUTSIDE and
                            not lines_told.isdisjoint(_line_starts(joined, m.span()))) or \
                            _overlaps(m.span(), claimed) or _overlaps(m.span(), told):
                        continue
                    lines_told.update(_line_starts(joined, m.span()))
                    if claims:
                        claimed.append(m.span())
                    k = bisect_right(offsets, m.start()) - 1
                    own, el, slot = texts[k]
                    local = m.start() - offsets[k]
                    end = min(len(own), local + m.end() - m.start())
                    # the message quotes the whole match, across the elements' edges
                    whole = self.readable(m.group(0).replace(_EDGE, ""))
                    self._warn(block, (own, el, slot), (local, end), what, instead, whole)
            inert_of = {(id(el), slot): inert
                        for (_, el, slot), inert in zip(texts, matched, strict=True)}
            for parent in [block, *(el for el, slot in slots[1:] if slot == "text")]:
                for k, child in enumerate(parent):
                    if child.tag != "code":
                        continue
                    el, slot = (parent, "text") if k == 0 else (parent[k - 1], "tail")
                    inert = inert_of.get((id(el), slot), "")
                    role = _ROLE.search(inert)
                    if _INLINE_R.match(child.text or ""):
                        own = (el.text if slot == "text" else el.tail) or ""
                        line = self.positions.at(el, slot, len(own)) or line_of(
                            self.text(), f"`{child.text}`",
                            start=self.positions.floor(block) or 1)
                        warn(LOGGER, self.source, line,
                             f"R Markdown's inline code '`{shortened(child.text or '', 30)}`' "
                             "is not run here and is published as typed, as code; write its "
                             "value, quoted from the results ('{{ name | fixed(2) }}')")
                    if role is not None:
                        own = (el.text if slot == "text" else el.tail) or ""
                        self._warn(block, (own, el, slot), role.span(),
                                   f"a Sphinx or MyST role '{role.group(0)}`…`'",
                                   _role_instead(role.group(0), child.text or ""))
                    self._rest_link(child, parent[k + 1] if k + 1 < len(parent) else None)
            self._escaped_emoji(block, texts)
            self._tex_accents(block, texts)
            self._unknown_emoji(block, texts)
            self._wiki_quotes(block, texts)
            self._unclosed_strong(block, texts)
            if block.tag == "p":
                self._escaped_quote(block)
        self._classes()
        self._inline_lists()
        self._definitions_without_term(by_tag.get("dl", []))
        self._caption_rows(by_tag.get("table", []))
        self._code_captions(elements)
        self._simple_tables(by_tag.get("hr", []))
        self._wiki_tables(elements)
        self._literal_markers(elements)
        self._word_lists(by_tag.get("p", []))
        self._bare_item_in_list(by_tag.get("li", []))
        self._docsify_titles(elements)
        self._plugin_embeds(elements)

    def _unique(self, slug: str) -> str:
        """`slug`, or `slug-2`, `slug-3`, … where the page or an earlier advice has it."""
        return unique_id(slug, self._ids)

    def _plugin_embeds(self, elements: list[etree.Element]) -> None:
        """A link right after '@' whose text names a markdown-it plugin's embed: VuePress'
        and VitePress' code import `@[code](../snippets/a.py)`, `@[code{2-3} python](…)`,
        an include `@[include](part.md)`, a video `@[youtube](id)` (markdown-it-video): here
        and on GitHub an '@' and a link to the file (or to a page named by the video's id),
        the file never read; a warning at its line."""
        for block in elements:
            if block.tag not in _TEXT_BLOCKS:
                continue
            before = block.text or ""
            for el in block.iter():
                if el is block:
                    continue
                m = _PLUGIN_EMBED.fullmatch("".join(el.itertext()))
                if el.tag == "a" and before.endswith("@") and m:
                    line = line_of(self.text(), re.compile(
                        r"@\[" + re.escape(m.group(0)) + r"\]\("),
                        start=self.positions.floor(block) or 1) or self.positions.line(block)
                    video = m.group(1).lower() not in ("code", "include")
                    warn(LOGGER, self.source, line,
                         f"'@[{m.group(0)}](…)' is a markdown-it plugin's "
                         f"{'video embed' if video else 'line including a file'} (VuePress', "
                         "VitePress'), which this Markdown (and GitHub) shows as '@' and a "
                         "link" + ("; write a link in a sentence, [its title](address)" if video
                                   else ", the file never read; write what the file holds, "
                                   "code in a fenced block"))
                before = el.tail or ""

    def _docsify_titles(self, elements: list[etree.Element]) -> None:
        """A link or image whose title is Docsify's option (`[notes](a.pdf ':ignore')`,
        `[f](a.md ':include')`, `![logo](a.png ':size=100')`, `':target=_blank'`): a
        tooltip ':ignore' here and on GitHub, and an ':include' embeds nothing; a warning at
        its line."""
        for block in elements:
            if block.tag not in _TEXT_BLOCKS:
                continue
            for el in block.iter():
                title = el.get("title") or ""
                if el.tag not in ("a", "img") or not _DOCSIFY_TITLE.match(title):
                    continue
                line = line_of(self.text(), re.compile(
                    r"\][ \t]*\([^()\n]*?[\"']" + re.escape(title) + r"[\"']"),
                    start=self.positions.floor(block) or 1) or self.positions.line(block)
                embed = title.startswith(":include")
                warn(LOGGER, self.source, line,
                     f"the title '{title}' of the {'image' if el.tag == 'img' else 'link'} "
                     "is Docsify's option, which this Markdown (and GitHub) shows as its "
                     "tooltip" + (" and embeds nothing: write the file's content itself here "
                                  "(code in a fence)" if embed else
                                  "; remove it (a link here opens in the same tab)"))

    def _rest_link(self, code: etree.Element, after: etree.Element | None) -> None:
        """A code span followed by '_', `` `text <address>`_ `` (or `` `text`_ ``,
        `` `text <address>`__ ``): a reStructuredText link, which Markdown reads as code
        and an underscore, or as code and emphasis the '_' opens (`after`, the element next
        to it, when the code names an address); a warning at its line, giving the link."""
        written, tail = html.unescape(code.text or ""), code.tail or ""   # code_escape'd
        target = re.fullmatch(r"(.*?)\s*<([^<>\s]+)>", written, re.S)
        if not re.match(r"__?(?!\w)", tail) and not (
                target and not tail and after is not None and after.tag == "em"):
            return
        line = self.positions.at(code, "tail", 0) or self.positions.end(code)
        link = (f"[{' '.join(target[1].split()) or target[2]}]({target[2]})" if target else
                f"[{' '.join(written.split())}](address)")
        shown = shortened(f"`{' '.join(written.split())}`_", 40)
        warn(LOGGER, self.source, line,
             f"'{shown}' is a reStructuredText link, which this Markdown (and GitHub) reads "
             "as code followed by '_' (which may start emphasis up to a later '_'); write "
             f"{link}")

    def _star_items(self, root: etree.Element) -> set[int]:
        """The lines (1-based) of the items of a list written with a star and no space after
        it ('*\u7b2c\u4e00\u9879' over '*\u7b2c\u4e8c\u9879') that `_word_lists` tells as
        that list: its advice, '* ', is the one that fits, so their stars are not told again
        as emphasis marks without their pair ('write *italic words*')."""
        lines = self.text().split("\n")
        out: set[int] = set()
        for p in root.iter("p"):
            first, last = self.positions.line(p), self.positions.end(p)
            if not first or last <= first:
                continue
            own = lines[first - 1:last]
            n, bare = _bare_items(own)
            if n is None:
                continue
            for j in range(len(own) - 1):
                if bare[j] and bare[j + 1] and not _HARD_BREAK.match(own[j]):
                    out.update(first + i for i in (j, j + 1)
                               if bare[i][2] == "*")   # type: ignore[index]
        return out

    def _bare_item_in_list(self, items: list[etree.Element]) -> None:
        """A list item with no space after its number or dash among items written right
        ('1. \u5b89\u88c5' over '2.\u8fd0\u884c' over '3. \u6d4b\u8bd5'): here and on GitHub
        text of the item above, run on after its words, with no word; a warning at its line
        (the first such line of an item). Read from the lines right under the item's first
        line, up to a blank line, a fence or a line opening a list item."""
        lines = self.text().split("\n")
        for li in items:
            first = self.positions.line(li)
            if not 0 < first < len(lines) or not _LIST_MARKER.match(lines[first - 1]):
                continue
            j = first + 1
            while j <= len(lines) and lines[j - 1].strip() and \
                    not _FENCE_OR_ITEM.match(lines[j - 1]):
                m = _NO_SPACE_ITEM.match(lines[j - 1])
                # (at the item's own indent: an indented one meant a nested list, whose
                # indent is told by the comparison once it is one)
                if m and m[2] != "*" and not _HARD_BREAK.match(lines[j - 2]) and \
                        _indent(lines[j - 1]) == _indent(lines[first - 1]):
                    mark = m[1] or m[2] or m[3]
                    spaced = f"{int(mark[:-1])}." if mark[0].isdigit() else mark
                    need = (f"a list item's number is written in ASCII digits and stop, "
                            f"'{spaced}'" if m[3] else "a list item needs a space after its "
                            + ("number" if mark[0].isdigit() else "dash" if mark == "-"
                               else "bullet"))
                    shown = shortened(self.readable(lines[j - 1]).strip(), 30)
                    warn(LOGGER, self.source, j,
                         f"the line '{shown}' is no list item here nor on GitHub: {need}, "
                         "so it runs on as text of the item above; write "
                         f"'{spaced} ' (a space after '{spaced}') at its start")
                    break
                j += 1

    def _word_lists(self, paragraphs: list[etree.Element]) -> None:
        """A numbered list of Word or WPS, lines starting `1\u3001`, `\uff081\uff09`, `(1)` or
        `\u2460` under each other, or a list whose items have no space after their marker,
        `1.\u5b89\u88c5` or `-\u7b2c\u4e00\u9879` (Chinese posts'): one paragraph here and on
        GitHub, its lines run together (on a Chinese page with no space between them); a
        warning at the first such line (not where that line ends in a hard break, which shows
        the next under it). Read from the article's lines, which a Chinese page's line
        joining leaves as written."""
        lines = self.text().split("\n")
        for p in paragraphs:
            first, last = self.positions.line(p), self.positions.end(p)
            if not first or last <= first:
                continue
            own = lines[first - 1:last]
            keys = [_PROPERTY.fullmatch(x) for x in own]
            if all(keys) and any(m and m[1].lower() in _NOTION_PROPERTIES
                                 and not _SENTENCE_END.fullmatch(m[0]) for m in keys) \
                    and _two_items([True] * len(own), own) == 0 \
                    and not _PELICAN_META.match("\n".join(x.strip() for x in own)):
                shown = "', '".join(shortened(x.strip(), 24) for x in own[:2])
                warn(LOGGER, self.source, first,
                     f"lines '{shown}' are a Notion page's properties (as its Markdown export "
                     "writes them under the title), which run together into one paragraph "
                     "here and on GitHub; remove them, or write those that matter as a list, "
                     "'- ' at the start of each line (a date or a title belongs in the front "
                     "matter)")
                continue
            k = _two_items([bool(_WORD_ITEM.match(x)) for x in own], own)
            bullets = [_BULLET_ITEM.match(x) for x in own]
            b = _two_items([bool(x) for x in bullets], own)
            n, bare = _bare_items(own)
            if n is not None:
                marker = bare[n]
                mark = marker[1] or marker[2] or marker[3]   # type: ignore[index]
                shown = shortened(self.readable(lines[first - 1 + n]).strip(), 30)
                # (a full-width stop or full-width digits, '\uff11\uff0e', as ASCII: GitHub
                # takes '\uff11. ' for text)
                spaced = f"{int(mark[:-1])}." if mark[0].isdigit() else mark
                word = "number" if mark[0].isdigit() else "dash" if mark == "-" else "bullet"
                need = (f"a list item's number is written in ASCII digits and stop, "
                        f"'{spaced}'" if marker[3]  # type: ignore[index]
                        else f"a list item needs a space after its {word}")
                warn(LOGGER, self.source, first + n,
                     f"lines starting '{shown}' are no list here nor on GitHub: {need}, so "
                     f"they run together into one paragraph; write '{spaced} ' (a space "
                     f"after '{spaced}') at the start of each item's line, after a blank line")
                continue
            if b is not None and (k is None or b < k):
                mark = bullets[b].group(1)   # type: ignore[union-attr]
                warn(LOGGER, self.source, first + b,
                     f"lines starting with '{mark}' (a list copied from Slack, Word or a web "
                     "page) are no list here nor on GitHub: they run together into one "
                     "paragraph; write '- ' at the start of each item's line, after a blank "
                     "line")
                continue
            if k is not None:
                shown = shortened(self.readable(lines[first - 1 + k]).strip(), 30)
                warn(LOGGER, self.source, first + k,
                     "a numbered list of Word or WPS (lines starting '1\u3001', '\uff081\uff09', "
                     "'(1)' or '\u2460') is not understood here and is published as typed "
                     f"('{shown}'), its lines run together into one paragraph, here and on "
                     "GitHub; write a numbered list: '1. ' at the start of each item's line, "
                     "after a blank line")

    def _simple_tables(self, rules: list[etree.Element]) -> None:
        """A horizontal rule written as dashes parted by spaces right under a line of text:
        the rule under a Pandoc simple table's header, which is no table here or on GitHub;
        a warning at its line."""
        lines = self.text().split("\n")
        for hr in rules:
            line = self.positions.line(hr)
            if 1 < line <= len(lines) and _PANDOC_RULE.fullmatch(lines[line - 1]) and \
                    lines[line - 2].strip():
                warn(LOGGER, self.source, line,
                     "a line of dashes parted by spaces under a line of text is the rule under a "
                     "Pandoc simple table's header, which is no table here (nor on GitHub: a "
                     f"horizontal rule between paragraphs); write {PIPE_TABLE}")

    def _literal_markers(self, elements: list[etree.Element]) -> None:
        """A paragraph ending in '::' right above a code block (`Example::` over indented
        lines): reStructuredText's marker of a literal block, which reST shows as one ':';
        here and on GitHub the paragraph shows both. A warning at its line."""
        for parent in elements:
            for k, el in enumerate(parent[:-1]):
                nxt = parent[k + 1]
                own = (el[-1].tail if len(el) else el.text) or ""
                if el.tag != "p" or not own.rstrip().endswith("::") or \
                        own.rstrip().endswith(":::") or \
                        not HTML_PLACEHOLDER_RE.fullmatch((nxt.text or "").strip()) or len(nxt):
                    continue
                line = self.positions.end(el) or self.positions.line(el)
                shown = shortened(" ".join(self.readable(own).split()), 30)
                warn(LOGGER, self.source, line,
                     f"'{shown}' ends with '::', reStructuredText's marker of the literal "
                     "block below it (which reST shows as one ':'); here and on GitHub the "
                     "paragraph shows '::'; write one ':' (and the code below in a '```' "
                     "fence)")

    def _wiki_tables(self, elements: list[etree.Element]) -> None:
        """MediaWiki's (Wikipedia's) table, `{| class="wikitable"` … `|}`: a paragraph of its
        lines here and on GitHub, or (with a '|-' row under its first line) a table of
        stray cells here; a warning at its first line."""
        lines = self.text().split("\n")
        for el in elements:
            line = (self.positions.line(el) or self.positions.floor(el)) \
                if el.tag in ("p", "table") else 0
            if 0 < line <= len(lines) and re.match(r"[ \t>]*\{\|", lines[line - 1]):
                warn(LOGGER, self.source, line,
                     "a MediaWiki (Wikipedia) table '{| … |}' is not understood here and is "
                     f"published as typed ('{shortened(lines[line - 1].strip(), 30)}'); "
                     f"write {PIPE_TABLE}")

    def _definitions_without_term(self, lists: list[etree.Element]) -> None:
        """A definition with no term above it (`: SD of the scores {#tbl-raw}` under a table,
        Pandoc's and Quarto's table caption; a ': ' line after a blank line): def_list makes
        a `<dl>` holding a bare `<dd>`, GitHub a paragraph ': …'; a warning at its line."""
        for dl in lists:
            first = next(iter(dl), None)
            if first is None or first.tag != "dd":
                continue
            text = "".join(first.itertext()).strip()
            line = self.positions.line(first) or line_of(
                self.text(), re.compile(r"^[ \t]*:[ \t]+" + re.escape(text[:20]), re.M),
                start=self.positions.floor(dl) or 1)
            warn(LOGGER, self.source, line,
                 f"':   {text[:30]}' is a definition with no term above it here (GitHub shows "
                 "a paragraph starting with ':'); as a table's caption (Pandoc, Quarto) write "
                 "it as a sentence of its own above the table; as a definition, put its term "
                 "on the line right above it")

    def _caption_rows(self, tables: list[etree.Element]) -> None:
        """Pandoc's and Quarto's table caption written right under the table (`: Scores
        {#tbl-x}`, `Table: Scores`): a last row of the table here and on GitHub, its text
        in the first cell and the others empty; a warning at its line."""
        for table in tables:
            rows = [tr for tr in table.iter("tr") if tr.find("td") is not None]
            if not rows:
                continue
            cells = rows[-1].findall("td")
            text = "".join(cells[0].itertext()).strip()
            if not _PANDOC_CAPTION.match(text) or any("".join(c.itertext()).strip()
                                                      for c in cells[1:]):
                continue
            words = _PANDOC_CAPTION.sub("", text)
            line = self.positions.line(rows[-1]) or line_of(
                self.text(), re.compile(r"^[ \t>]*(?:Table)?:[ \t]*" + re.escape(words[:20]),
                                        re.M), start=self.positions.floor(table) or 1)
            warn(LOGGER, self.source, line,
                 f"'{text[:30]}' right under the table is one more row of it, here and on "
                 "GitHub; as the table's caption (Pandoc, Quarto) write it as a sentence of its "
                 "own above the table, with a blank line between")

    def _code_captions(self, elements: list[etree.Element]) -> None:
        """Pandoc's and Quarto's listing caption under a code block (`: Listing 1 {#lst-x}`):
        a paragraph starting with ':' here and on GitHub (md_blocks.StashTermDefList keeps
        the fence out of a definition list); a warning at its line."""
        for parent in elements:
            previous = None
            for el in parent:
                text = (el.text or "").lstrip()
                if el.tag == "p" and previous is not None and not len(previous) and \
                        _PANDOC_CAPTION.match(text) and \
                        HTML_PLACEHOLDER_RE.fullmatch((previous.text or "").strip()):
                    line = self.positions.line(el) or line_of(
                        self.text(), re.compile(r"^[ \t>]*:[ \t]*" + re.escape(
                            _PANDOC_CAPTION.sub("", text)[:20]), re.M),
                        start=self.positions.floor(el) or 1)
                    warn(LOGGER, self.source, line,
                         f"'{text[:30]}' under the code block is a paragraph starting with ':' "
                         "(here and on GitHub); as the code's caption (Pandoc, Quarto) write it "
                         "as a sentence of its own above the code, with a blank line between")
                previous = el if el.tag == "p" else None

    def _classes(self) -> None:
        """A class given by an attribute list that no style of the site knows: a warning at
        the line of its `{…}` (the element's last line)."""
        for el, added in getattr(self.classes, "given", []):
            unknown = [c for c in added if c not in AUTHOR_CLASSES]
            if not unknown:
                continue
            line = self.positions.end(el) or line_of(
                self.text(), re.compile(r"\{[^{}\n]*\." + re.escape(unknown[0]) + r"\b"),
                start=self.positions.floor(el) or 1)
            names = ", ".join(f"'{c}'" for c in unknown)
            warn(LOGGER, self.source, line,
                 f"the attribute list gives the class{'es' if len(unknown) > 1 else ''} "
                 f"{names} (as kramdown's '{{: .{unknown[0]}}}' does), which no style of this "
                 "site knows: it changes nothing on the page (GitHub shows the braces as "
                 f"text); remove it (the class for authors is "
                 f"{', '.join(sorted(AUTHOR_CLASSES))}: words about the controls, "
                 "left out of print)")

    def _tex_accents(self, block: etree.Element,
                     texts: list[tuple[str, etree.Element, str]]) -> None:
        """A TeX accent in text (BibTeX's `Jos{\\'e}`, a pasted citation's name): the page
        shows it as typed, backslash and braces, as GitHub does; a warning at its line with
        the letter meant (each accent is one place to fix)."""
        for own, el, slot in texts:
            for m in TEX_ACCENT.finditer(own):
                if letter := accented(m):
                    self._warn(block, (own, el, slot), m.span(), "a TeX (BibTeX) accent",
                               f"the letter itself, '{letter}' (a name as its owner spells "
                               "it; Markdown has no accent commands)")

    def _escaped_emoji(self, block: etree.Element,
                       texts: list[tuple[str, etree.Element, str]]) -> None:
        """An emoji shortcode with a backslash before a colon (`\\:smile:`): the page shows
        ':smile:' as typed, GitHub the emoji all the same (it reads shortcodes after Markdown,
        with the backslash gone); a warning at its line."""
        for own, el, slot in texts:
            for m in ESCAPED_SHORTCODE.finditer(own):
                code = f":{m['name']}:"
                if ESCAPED_COLON not in m.group(0) or not (emoji := emoji_of(code)):
                    continue
                self._warn_at(block, (own, el, slot), m.span(),
                              f"'{self.readable(m.group(0))}': GitHub shows the emoji {emoji} "
                              "here all the same (it reads shortcodes after Markdown, the "
                              f"backslash gone), the page shows '{code}' as typed; for the "
                              f"shortcode on both write it as code, `{code}`; for the emoji, "
                              f"{code} without the backslash")

    def _unknown_emoji(self, block: etree.Element,
                       texts: list[tuple[str, etree.Element, str]]) -> None:
        """A shortcode that names no emoji of GitHub's list (`:thinking_face:`, Slack's and
        Discord's names): shown as typed, here and on GitHub; a warning at its line naming
        GitHub's closest names. Not a role before code (`:class:` then a backtick, told by
        `run`), nor a field or attribute at a line's start (`:param q: …`, `:toc: left`)."""
        for k, (own, el, slot) in enumerate(texts):
            for m in SHORTCODE.finditer(own):
                code = m.group(1)
                name = code[1:-1]
                after = own[m.end():m.end() + 1]
                if not after and k + 1 < len(texts) and texts[k + 1][1].tag == "code":
                    after = "`"     # right before a code span: a role's
                before = own[m.start() - 1:m.start()]
                if (before == ":" and after == ":") or own.startswith("//", m.end()):
                    continue        # Bear's highlight '::word::', an address' ':https://'
                if emoji_of(code) or not re.search("[a-z]", name) or after == "`" or \
                        (after in (" ", "\t") and
                         not own[:m.start()].rpartition("\n")[2].strip()):
                    continue
                if name == "end_tab":
                    self._warn(block, (own, el, slot), m.span(1),
                               "d2l's tab end ':end_tab:'", D2L_TAB_INSTEAD)
                    continue
                if name in PICTURE_ONLY:
                    self._warn_at(block, (own, el, slot), m.span(1),
                                  "'{shown}' is one of GitHub's own emoji that have no "
                                  "character: GitHub draws it as a picture, the page shows "
                                  "it as typed (it draws emoji as characters only); write "
                                  "the words, or an emoji of GitHub's list that is a "
                                  "character")
                    continue
                close = difflib.get_close_matches(name, emoji_names(), 3, 0.6)
                like = (f" (GitHub's closest: {', '.join(f':{c}:' for c in close)})"
                        if close else "")
                self._warn_at(block, (own, el, slot), m.span(1),
                              f"'{{shown}}' names no emoji of GitHub's list{like} (Slack's, "
                              "Discord's or another tool's name?), so it is shown as typed, "
                              "here and on GitHub; write the emoji itself, a name of GitHub's "
                              "list, or the words")

    def _wiki_quotes(self, block: etree.Element,
                     texts: list[tuple[str, etree.Element, str]]) -> None:
        """MediaWiki's (Wikipedia's) bold and italic, three or two typewriter single quotes
        on each side of the words: curled by smarty into runs of quote marks here, shown as
        typed on GitHub; a warning at its line. The tree holds smarty's quotes as stash
        placeholders: each is read as the quote it stands for."""
        stash = self.md.htmlStash.rawHtmlBlocks
        for own, el, slot in texts:
            units: list[tuple[str, int, int]] = []    # (character, start, end) in `own`
            pos = 0
            for m in HTML_PLACEHOLDER_RE.finditer(own):
                units += [(c, k, k + 1) for k, c in enumerate(own[pos:m.start()], pos)]
                n = int(m.group(1))
                held = html.unescape(str(stash[n])) if n < len(stash) else ""
                # smarty's quotes, each stashed as its entity; any other stashed HTML (a
                # code block, inline code, a tag) is one unit, its quotes no markup
                quotes = bool(held) and all(c in _SINGLE_QUOTES for c in held)
                units += [("'", m.start(), m.end()) for _ in held] if quotes else \
                    [("\x00", m.start(), m.end())]
                pos = m.end()
            units += [(c, k, k + 1) for k, c in enumerate(own[pos:], pos)]
            chars = "".join("'" if c in _SINGLE_QUOTES else c for c, _, _ in units)
            for q in _WIKI_QUOTES.finditer(chars):
                bold = len(q.group(1)) == 3
                # two on each side are also a quotation typed as in TeX ('' for both
                # `` and ''), as a lecture's "a ''probability distribution''" means
                self._warn(block, (own, el, slot), (units[q.start()][1], units[q.end() - 1][2]),
                           "MediaWiki's (Wikipedia's) " + ("bold" if bold else "italic") +
                           " (" + q.group(1) + "…" + q.group(1) + ")",
                           "**…**" if bold else
                           "*…* for italic words, or \"…\" for a quotation (TeX's quotes)")

    def _unclosed_strong(self, block: etree.Element,
                         texts: list[tuple[str, etree.Element, str]]) -> None:
        """`**bold **` or `** bold**`: a space inside a pair of '**' (or '__'), as Google
        Docs' Markdown export writes bold text that ends in a space: no bold here nor on
        GitHub (a closing '**' must follow a non-space), the asterisks shown; a warning at
        its line, giving the bold to write."""
        for own, el, slot in texts:
            for m in _SPACED_STRONG.finditer(own):
                mark, inner = m.group(1), m.group(2)
                meant = f"{mark}{inner.strip()}{mark}" + (" " if inner != inner.rstrip() else "")
                self._warn_at(block, (own, el, slot), m.span(),
                              f"'{{shown}}' is no bold here nor on GitHub (a '{mark}' with a "
                              "space on its inner side neither opens nor closes it: Google "
                              "Docs' Markdown export writes bold so), so the asterisks are "
                              f"shown; write '{self.readable(meant)}'")

    def _lost_stars(self, block: etree.Element, texts: list[tuple[str, etree.Element, str]],
                    matched: list[str], offsets: list[int]) -> list[tuple[int, int]]:
        """`**bold*` or `*bold**`: a bold pair with one '*' lost, which this Markdown and
        GitHub read as italic words with an asterisk shown before or after them (the
        emphasis pattern told the first to write *italic words*, and missed the second); a
        warning at its line giving the bold to write. The asterisks' spans in the block's
        joined text, so that no pattern tells them again."""
        spans: list[tuple[int, int]] = []
        tails = {id(el): k for k, (_, el, slot) in enumerate(texts) if slot == "tail"}
        for k, (_, el, slot) in enumerate(texts):
            if el.tag != "em" or slot != "text" or k == 0 or id(el) not in tails:
                continue
            before, after = matched[k - 1], matched[tails[id(el)]]
            lost_before = before.endswith("*") and not before.endswith("**")
            lost_after = after.startswith("*") and not after.startswith("**")
            if lost_before == lost_after:
                continue
            j = k - 1 if lost_before else tails[id(el)]
            at = len(before) - 1 if lost_before else 0
            words = self.readable("".join(el.itertext())).strip()
            self._warn_at(block, (texts[j][0], texts[j][1], texts[j][2]), (at, at + 1),
                          "a bold pair with one '*' lost ('**' on one side of the words, '*' "
                          "on the other) shows an asterisk beside italic words, here and on "
                          f"GitHub; write **{words}**, or *{words}* for italics")
            spans.append((offsets[j] + at, offsets[j] + at + 1))
        return spans

    def _prompt_quote(self, quote: etree.Element) -> None:
        """A line starting '>>>': three quotes nested, here and on GitHub, where Slack's
        '>>>' quotes every line below it, and '>>> ' is Python's prompt in a pasted session;
        a warning at its line (once, for the outermost of the three)."""
        if any(quote in parent for parent in self._quotes):
            self._quotes.append(quote)
            return
        self._quotes.append(quote)
        lines = self.text().split("\n")
        line = self.positions.line(quote)
        if 0 < line <= len(lines) and re.match(r"[ \t]*>>>(?!>)", lines[line - 1]):
            shown = shortened(lines[line - 1].strip(), 30)
            warn(LOGGER, self.source, line,
                 f"'{shown}' starts three quotes, one inside the other, here and on GitHub "
                 "(Slack's '>>>' quotes all the lines below it; '>>> ' is Python's prompt); "
                 "for a quote write '> ' at the start of each quoted line, for a Python "
                 "session a '```python' fence, for three levels of quotes '> > >'")

    def _escaped_quote(self, block: etree.Element) -> None:
        """A line of a paragraph starting `&gt; ` (a quote as Reddit's and Hacker News's
        pages hold it, HTML-escaped): shown as '>' and text, here and on GitHub, where the
        author meant a quote; a warning at the line."""
        own = block.text or ""
        stash = self.md.htmlStash.rawHtmlBlocks
        for m in _STASHED_LINE_START.finditer(own):
            k = int(m["index"])
            if k < len(stash) and str(stash[k]).lower() in _GREATER_THAN:
                self._warn_at(block, (own, block, "text"), m.span(),
                              f"'{stash[k]} ' at a line's start (a quote as Reddit's or "
                              "Hacker News's pages hold it, escaped as HTML) is shown as '>' "
                              "and text, not as a quote; write '> ' at the line's start")

    def _spoiler_quote(self, quote: etree.Element) -> None:
        """A quote written `>!` (a spoiler block of LessWrong's and Reddit's, `>! hidden` or
        `>!hidden!<`): here and on GitHub a quote whose text starts with '!', shown to every
        reader; a warning at its line. `> !` with a space is a quote of its own choosing."""
        lines = self.text().split("\n")
        for p in quote:
            own = p.text or ""
            line = self.positions.line(p)
            if p.tag != "p" or not own.startswith("!") or not 0 < line <= len(lines):
                continue
            # (an Obsidian embed right after the '>', `>![[chart.png|400]]`, is told as one)
            if _SPOILER_LINE.match(lines[line - 1]) and not WIKILINK.match(own):
                self._warn(p, (own, p, "text"), (0, len(own.split("\n")[0])),
                           "a spoiler '>!' (LessWrong's, Reddit's)", _SPOILER)

    def _embed_quote(self, quote: etree.Element) -> None:
        """fastpages' (nbdev's) embed, a quote `> youtube: https://…` or `> twitter: https://…`:
        there the video or tweet itself, here and on GitHub a quote of the word and a link; a
        warning at its line."""
        for p in quote:
            own = p.text or ""
            m = _EMBED_QUOTE.match(own)
            if p.tag == "p" and m and (m.end() < len(own) or (len(p) and p[0].tag == "a")):
                self._warn(p, (own, p, "text"), m.span(1),
                           f"fastpages' (nbdev's) embed '> {m.group(1)} …' (shown as a quote "
                           "of the word and the address)",
                           "a link to it, [its title](https://…), in a sentence")

    def _inline_lists(self) -> None:
        """An attribute list right after a link or an image (`[text](url){target="_blank"}`,
        `![alt](a.png){width=50%}`, pandoc's `{reference-type="ref" …}`): attr_list gives the
        element those attributes and hides the braces, GitHub shows them as text after it; a
        warning at its line."""
        for el, written in getattr(self.classes, "inline", []):
            what, instead = _INLINE_LISTS.get(el.tag, (f"<{el.tag}>", ""))
            shown = self.readable("{" + written + "}").translate(STRAIGHT)
            line = self.positions.at(el, "tail", 0) or self.positions.end(el) or line_of(
                self.text(), shown, start=self.positions.floor(el) or 1)
            # as typed: kramdown's `{: .button}` reaches here as '.button'
            lines = self.text().split("\n")
            typed = re.search(r"\{:?[ \t]*" + re.escape(shown[1:-1].strip()) + r"[ \t]*\}",
                              lines[line - 1] if 0 < line <= len(lines) else "")
            shown = typed.group(0) if typed else shown
            if len(shown) > 50:
                shown = shown[:49] + "\u2026"
            warn(LOGGER, self.source, line,
                 f"the attribute list '{shown}' right after {what} is read here as its "
                 "attributes, the braces hidden, while GitHub shows it as text after it; "
                 f"remove it{instead}")

    def _lines_kept(self, el: etree.Element, slot: str, own: str, at: int) -> str:
        """`own[at:]` (a slot's text from a box's syntax on), with the line break that ends
        its source line where a Chinese page joined it away (CjkLineJoin: `::: tip \u63d0\u793a`
        over a line of Chinese text reads as one line), so a title is its own line's."""
        rest = own[at:]
        line = self.positions.at(el, slot, at)
        lines = self.text().split("\n")
        if not line or line > len(lines):
            return rest
        source = lines[line - 1]
        start = source.find(rest[:3])
        piece = source[start:].rstrip() if start >= 0 else ""
        head = rest.split("\n", 1)[0]
        if piece and len(head) > len(piece) and head.startswith(piece):
            return piece + "\n" + rest[len(piece):]
        return rest

    def _warn(self, block: etree.Element, where: tuple[str, etree.Element, str],
              span: tuple[int, int], what: str, instead: str, whole: str = "") -> None:
        self._warn_at(block, where, span, f"{what} is not understood here and is published as "
                      f"typed ('{{shown}}'); write {instead}", whole)

    def _warn_at(self, block: etree.Element, where: tuple[str, etree.Element, str],
                 span: tuple[int, int], message: str, whole: str = "") -> None:
        """A warning at the line of `span` of a text slot (`where`); '{shown}' in `message`
        is the syntax found there, as typed (`whole`, when it spans elements' edges)."""
        own, el, slot = where
        start = own.rfind("\n", 0, span[0]) + 1     # the line of the match
        found = self.readable(own[start:span[1]]).rstrip("\n").strip()
        typed = found.translate(STRAIGHT)            # smarty's quotes, as the author typed
        floor = self.positions.floor(block)
        start = floor or 1   # not an earlier block's text
        line = self.positions.at(el, slot, span[0])
        if line:
            # its line known: the typed form is looked for there only (a search from the
            # block's start for each of a block's many messages took their number squared)
            last = max(self.positions.at(el, slot, span[1]), line + found.count("\n")) + 1
            if typed in lines_of(self.text(), line, last):
                found = typed
        else:
            if line_of(self.text(), typed, start=start):
                found = typed
            tries: tuple[str | re.Pattern[str], ...] = (found, found[:20], found[-12:])
            end = own.find("\n", span[1])
            if found and not own[span[1]:end if end >= 0 else len(own)].strip():
                # a whole line (a container's closing ':::'): that line, not the first one
                # holding it among others (the ':::warning' above it)
                tries = (re.compile(r"(?m)^[ \t>]*" + re.escape(found) + r"[ \t]*$"), *tries)
            # not found from the block's floor on (its text masked there, as a line GitHub
            # reads as code is): the floor itself, never the same words earlier, another
            # block's
            line = next((n for t in tries if t and (n := line_of(self.text(), t, start=start))),
                        0) or floor
        # the message quotes the syntax itself, not the start of its line
        shown = self.readable(own[span[0]:span[1]]).strip().translate(STRAIGHT)
        if not shown or shown not in found.translate(STRAIGHT):
            shown = found
        if whole.strip():
            shown = whole.strip().translate(STRAIGHT)
        shown = " ".join(shown.split())            # one line, when it spans a line break
        if len(shown) > 30:
            shown = shown[:29] + "\u2026"
        warn(LOGGER, self.source, line, message.replace("{shown}", shown))

