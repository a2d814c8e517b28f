"""Which `<name …>` in an article is HTML (issue 17, item 4).

Python-Markdown publishes any `<word …>` as raw HTML, so `<eos>`, `<pad>` or `List<T>` in
prose became unknown elements and vanished from the page. Here a tag is HTML only when its
name is an element of HTML: the list is npm's `html-tag-names` (Titus Wormer; generated from
the WHATWG HTML standard and the W3C specs, obsolete elements included), pinned in
package-lock.json and read from node_modules, where KaTeX comes from too. What counts as a
tag or an e-mail link is Python-Markdown's own patterns (`HTML_RE`, `AUTOMAIL_RE`), and an
autolink pymdownx.magiclink's (`RE_AUTOLINK`, which takes the place of Markdown's in the
converter), so the lexer decides exactly on what Markdown would take.
"""
from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from pathlib import Path

from markdown.htmlparser import void_tags
from markdown.inlinepatterns import AUTOMAIL_RE, HTML_RE
from markdown.util import BLOCK_LEVEL_ELEMENTS
from pymdownx.magiclink import RE_AUTOLINK

from ..errors import BuildError
from ..options import PROJECT_ROOT
from .lexer_ahead import Ahead, line_lead

PACKAGE = "html-tag-names"
_TAG = re.compile(HTML_RE, re.DOTALL)
# the autolinks the converter makes: magiclink's `<http(s)://…>`, `<ftp(s)://…>` (not
# Markdown's `AUTOLINK_RE`, any `<scheme://…>`: kept whole, `<irc://…>` reached Markdown as
# a tag, published as raw HTML that the browser hid), and e-mail addresses
_AUTOLINK = re.compile(f"{RE_AUTOLINK}|{AUTOMAIL_RE}")
_NAME = re.compile(r"</?([A-Za-z][^\s\"'<>@/]*)")
# CommonMark's autolinks (spec 0.31, 6.5): `<` an absolute URI of any scheme, or an e-mail
# address, `>`. GitHub links them all; Python-Markdown (`_AUTOLINK`) only http(s), ftp, e-mail
COMMONMARK_AUTOLINK = re.compile(
    r"<([A-Za-z][A-Za-z0-9+.-]{1,31}:[^\x00-\x20<>]*"
    r"|[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*)>")
_LISTED = re.compile(r"^\s*'([a-z][a-z0-9]*)',?\s*$", re.M)   # one name a line in index.js
# an MDX (JSX) component's tag: a capitalised name with a lower-case letter (`<Tip>`,
# `</Tip>`, `<Youtube id="…"/>`, `<CourseFloatingBanner`), not `<EOS>` or `<T>`
_COMPONENT = re.compile(r"<(/?)([A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*(?:\.[A-Za-z0-9]+)*)"
                        r"(?=[\s/>])")
# HTML's obsolete elements (the HTML standard, 'Non-conforming features'), which no page
# written today means: one named in PascalCase is a component that shares its name (the
# Rust book's `<Listing number="4-1">`, Next.js' `<Image src=…/>`, Mintlify's `<Frame>`)
_OBSOLETE = frozenset({
    "acronym", "applet", "basefont", "bgsound", "big", "blink", "center", "dir", "font",
    "frame", "frameset", "image", "isindex", "keygen", "listing", "marquee", "menuitem",
    "multicol", "nextid", "nobr", "noembed", "noframes", "plaintext", "rb", "rtc", "spacer",
    "strike", "tt", "xmp"})
# what makes it a component rather than a token in prose (`a <Tensor> or List<Tensor>`):
# attributes (`id="…"`, JSX's `{fw}`) or a self-closing end
# another tool's component in lower case, no HTML element: the Hugging Face docs'
# `<hfoption id="PyTorch">`, a web component `<gradio-app …>` (a custom element's name has a
# hyphen)
_LOWER_COMPONENT = re.compile(r"<(/?)([a-z][a-z0-9]*(?:-[a-z0-9]+)*)(?=[\s/>])")
_COMPONENT_ATTRIBUTES = re.compile(r"\s*/>|\s+\{|\s+[A-Za-z_:][\w:.-]*\s*=")
# elements whose content is another vocabulary (SVG's <circle>, MathML's <mi>): kept whole
FOREIGN_ROOTS = ("svg", "math")
# elements whose tag is also a well-known token (SentencePiece's sentence start `<s>`): always
# a warning, opened or closed; struck text is written <del>…</del>
TOKEN_LIKE = ("s",)


@functools.cache
def element_names(node_modules: Path = PROJECT_ROOT / "node_modules") -> frozenset[str]:
    """The lower-case names of HTML's elements (about 150). Raises BuildError, saying what to
    run, when the package is missing or does not hold the list."""
    path = node_modules / PACKAGE / "index.js"
    try:
        names = frozenset(_LISTED.findall(path.read_text(encoding="utf-8")))
    except OSError:
        names = frozenset()
    if not {"a", "p", "div", "span", "template"} <= names:
        raise BuildError(path, 0, f"the list of HTML element names ({PACKAGE}) is not "
                                  "installed: run 'npm ci' in the project folder (or 'make site')")
    return names


def angle_bracket(text: str, i: int, elements: frozenset[str],
                  ahead: Ahead | None = None) -> tuple[str, int]:
    """What the `<` at text[i] is, as (what to write, where to go on).

    An autolink (`<https://…>`, `<me@example.org>`) and a tag of an HTML element (`<br>`,
    `</sub>`, `<span class="x">`) are kept whole; an `<svg>` or `<math>` element is kept up
    to its end tag. A tag-like token whose name is no HTML element (`<eos>`, `<pad>`,
    `<T>`, `</s>` is an element, `<x+y>` is not) is text: its `<` is written `&lt;`, so
    Markdown shows it as typed. Any other `<` (`a < b`) is left to Markdown. `ahead`: the
    text's searches so far (a scan of a paragraph)."""
    link = _AUTOLINK.match(text, i)
    if link:
        return link.group(0), link.end()
    tag = _TAG.match(text, i)
    name = _NAME.match(text, i)
    if tag is None or name is None:
        return "<", i + 1
    element = name.group(1).lower()
    if element not in elements:
        return "&lt;", i + 1
    if element in FOREIGN_ROOTS and not text.startswith("</", i):
        closing = re.compile(rf"</{element}\s*>", re.I)
        end = closing.match(text, (ahead or Ahead(text)).find(closing, tag.end()))
        if end is not None:     # (found once: where the search found it, read again)
            return text[i:end.end()], end.end()
    return tag.group(0), tag.end()


def mdx_component(text: str, i: int, elements: frozenset[str],
                  ahead: Ahead | None = None) -> str:
    """The tag name when the `<` at text[i] starts an MDX (JSX) component's tag, else "".
    A component is a capitalised name that is no HTML element, standing at the start of a
    line (after indentation or a quote's `>`), or written with attributes or as `<Name/>`, or
    an end tag `</Name>`; never right after a letter or digit (a generic type, `List<Tensor>`).
    A name in lower case that is no HTML element is another tool's component (the Hugging
    Face docs' `<hfoption id="PyTorch">`, a web component `<gradio-app>`) when written with
    attributes or as `<name/>`, as a custom element's name (with a hyphen), or as an end tag
    alone on its line; a token in prose (`<eos>`, `<pad>`) is text. `ahead`: the text's
    searches so far (a scan of a paragraph)."""
    if i and (text[i - 1].isalnum() or text[i - 1] == "_"):
        return ""
    lower = _LOWER_COMPONENT.match(text, i)
    if lower is not None:
        if lower.group(2) in elements:
            return ""
        alone = line_lead(text, i) and \
            _TAG_END_ALONE.match(text, lower.end()) is not None
        # (or a start tag alone on its line with bare words, DokuWiki's `<file text a.txt>`;
        # or alone on its line with its end tag alone on a later one of the text, or a
        # reasoning model's `<think>` alone on its line: its reasoning pasted with its
        # answer, whose end tag alone was told, the start tag published as typed)
        if _COMPONENT_ATTRIBUTES.match(text, lower.end()) or "-" in lower.group(2) or \
                (lower.group(1) and alone) or (alone and (
                    lower.group(2) in _REASONING or (ahead or Ahead(text)).find(
                        re.compile(rf"^[ \t>]*</{lower.group(2)}[ \t]*>[ \t]*$", re.M),
                        lower.end()) < len(text))) or (
                    not lower.group(1) and line_lead(text, i) and
                    _BARE_WORDS_ALONE.match(text, lower.end()) is not None):
            return lower.group(2)
        return ""
    m = _COMPONENT.match(text, i)
    if m is None or (m.group(2).lower() in elements and m.group(2).lower() not in _OBSOLETE):
        return ""
    # where its '>' is, if on its line (searched once for the paragraph's every '<': each
    # '<Name' of a long line without '>' read to the line's end, 1.5 s for 80,000 characters)
    stop = (ahead or Ahead(text)).find(_TAG_END_OR_LINE_END, m.end())
    closed = stop < len(text) and text[stop] == ">"
    # alone on its line: nothing before it, and nothing after it but its own props (a tag
    # whose props run on to the next lines); `<Enter> submits the form.` is prose
    alone = line_lead(text, i) and (
        not closed or _SPACES_TO_LINE_END.match(text, stop + 1) is not None)
    if m.group(1) or alone or _COMPONENT_ATTRIBUTES.match(text, m.end()):
        return m.group(2)
    return ""


# what follows a tag's name up to its line's end: its '>' alone, or its props and '>', then
# nothing but spaces (each read from the tag on, not as the rest of the line: a long line's
# every '<' copied the line)
# the tags a reasoning model wraps its thinking in (DeepSeek-R1's, Qwen's `<think>`)
_REASONING = frozenset({"think", "thinking"})
_TAG_END_ALONE = re.compile(r"[^\S\n]*>[^\S\n]*(?:\n|\Z)")
_BARE_WORDS_ALONE = re.compile(r"(?:[^\S\n]+[^\s<>=\"']+)+[^\S\n]*>[^\S\n]*(?:\n|\Z)")
_TAG_END_OR_LINE_END = re.compile(r"[>\n]")
_SPACES_TO_LINE_END = re.compile(r"[^\S\n]*(?:\n|\Z)")


def left_open(text: str, i: int, written: str, ahead: Ahead | None = None) -> str:
    """The element name when `written` (kept at text[i]) opens an inline element that nothing
    after it in `text` (one paragraph) closes, or one in TOKEN_LIKE, else "". `<b>` or `<i>`
    typed as a token would run to the end of the block: a warning's business. Void elements
    (`<br>`), block-level ones (`<details>`, which span paragraphs) and `<… />` open nothing.
    `ahead`: the text's searches so far (a scan of a paragraph)."""
    name = _NAME.match(written)
    if name is None or written.startswith("</") or written.rstrip(">").endswith("/") \
            or _AUTOLINK.fullmatch(written):      # `<https://…>` is a link, not an element
        return ""
    element = name.group(1).lower()
    if element in void_tags or element in BLOCK_LEVEL_ELEMENTS or element in FOREIGN_ROOTS:
        return ""
    closing = re.compile(rf"</{re.escape(element)}\s*>", re.I)
    if element in TOKEN_LIKE:          # `<s> … </s>`: most likely the tokens, struck through
        return element
    return "" if (ahead or Ahead(text)).find(closing, i + len(written)) < len(text) else element


def targets(tag: str, attrs: Mapping[str, str | None]) -> list[str]:
    """The fragments a tag is the target of: its id, and an <a>'s name (the HTML standard's
    "find a potential indicated element": an id, else an <a> with that name; browsers and
    GitHub scroll to `<a name="x">` for '#x'), the same name once."""
    found = [v for k in ("id", "name") if (v := attrs.get(k)) and (k == "id" or tag == "a")]
    return list(dict.fromkeys(found))
