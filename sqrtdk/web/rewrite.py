"""Rewrite the references of an HTML page or a style sheet, leaving every other byte alone.

Used by `publish` to point pages and style sheets at content-hashed file names. Nothing is
re-serialised: the HTML is read by Python's html.parser and only the text of the attribute
values (and `<style>` sheets) that hold a reference is replaced in place; a style sheet is
tokenized by tinycss2 (CSS Syntax Level 3) and only its `url(…)` tokens, `url("…")` strings and
`@import "…"` strings are replaced. `Map` decides each new reference (None: keep it).
"""
from __future__ import annotations

import html.parser
import re
from collections.abc import Callable, Iterator

import tinycss2
import tinycss2.ast
from tinycss2.serializer import serialize_string_value, serialize_url

from ..html_parsing import HTMLParser

Map = Callable[[str], str | None]          # reference as written -> new reference, or None

# attributes whose whole value is one URL (a <meta content> only when it is an absolute URL)
# (data-print-href: a link's address on paper, print_addresses)
URL_ATTRS = frozenset({"href", "src", "poster", "data", "action", "formaction",
                       "data-print-href"})
SRCSET_ATTRS = frozenset({"srcset", "imagesrcset"})
_NEWLINES = re.compile(r"\r\n|\r|\n|\f")    # CSS Syntax 3.3: what tinycss2 counts as a line end


# ---------------------------------------------------------------- style sheets

def rewrite_css(css: str, new_url: Map) -> str:
    """`css` with every url() and @import reference passed through `new_url`.

    Raises RuntimeError if tinycss2's token positions do not point at the token's text (a bug
    here, never an author's mistake): a sheet is never rewritten at the wrong place."""
    starts = [0] + [m.end() for m in _NEWLINES.finditer(css)]
    edits: list[tuple[int, int, str]] = []
    for token, kind in _url_tokens(tinycss2.parse_component_value_list(css)):
        value = str(token.value)
        new = new_url(value)
        if new is None or new == value:
            continue
        start = starts[token.source_line - 1] + token.source_column - 1
        if kind == "url":
            end = _url_end(css, start)
            edits.append((start, end, "url(" + serialize_url(new) + ")"))
        else:
            end = _string_end(css, start)
            edits.append((start, end, '"' + serialize_string_value(new) + '"'))
    return _apply(css, edits)


def may_reference(css: str) -> bool:
    """Whether `css` may hold a reference `rewrite_css` rewrites, without tokenizing it: a
    url( or src( function or an @import (any case), or an escape, which may spell one
    (`u\\72l(`). False is certain, so the style attributes of a page (thousands, the
    formulas' layout) are tokenized only when one of them may point at a file."""
    lower = css.lower()
    return "\\" in css or "url(" in lower or "src(" in lower or "@import" in lower


def css_references(css: str) -> list[str]:
    """Every url() and @import reference of a style sheet, as written (escapes decoded)."""
    return [str(token.value) for token, _ in _url_tokens(tinycss2.parse_component_value_list(css))]


def _url_tokens(tokens: list[tinycss2.ast.Node]
                ) -> Iterator[tuple[tinycss2.ast.URLToken | tinycss2.ast.StringToken, str]]:
    """(token, 'url' or 'string') of every reference, in blocks and functions too."""
    after_import = False
    for token in tokens:
        if isinstance(token, tinycss2.ast.URLToken):
            yield token, "url"
        elif isinstance(token, tinycss2.ast.StringToken) and after_import:
            yield token, "string"
        elif isinstance(token, tinycss2.ast.FunctionBlock):
            if token.lower_name in ("url", "src"):
                strings = [t for t in token.arguments if t.type not in ("whitespace", "comment")]
                if strings and isinstance(strings[0], tinycss2.ast.StringToken):
                    yield strings[0], "string"
            else:
                yield from _url_tokens(token.arguments)
        elif isinstance(token, (tinycss2.ast.CurlyBracketsBlock, tinycss2.ast.SquareBracketsBlock,
                                tinycss2.ast.ParenthesesBlock)):
            yield from _url_tokens(token.content)
        if token.type not in ("whitespace", "comment"):
            after_import = (isinstance(token, tinycss2.ast.AtKeywordToken)
                            and token.lower_value == "import")


def _url_end(css: str, start: int) -> int:
    """End of the unquoted url(…) token starting at `start` (after its closing parenthesis);
    its name may be written with escapes (`u\\72l(`)."""
    i = start
    while i < len(css) and css[i] != "(":
        i += 2 if css[i] == "\\" else 1
    name = css[start:i]
    if i == len(css) or (name.lower() != "url" and "\\" not in name):
        raise RuntimeError(f"no url( at offset {start}: {css[start:start + 20]!r}")
    i += 1
    while i < len(css) and css[i] != ")":
        i += 2 if css[i] == "\\" else 1
    return i + 1


def _string_end(css: str, start: int) -> int:
    """End of the quoted string starting at `start` (after its closing quote)."""
    quote = css[start:start + 1]
    if quote not in ("'", '"'):
        raise RuntimeError(f"no string at offset {start}: {css[start:start + 20]!r}")
    i = start + 1
    while i < len(css) and css[i] != quote:
        i += 2 if css[i] == "\\" else 1
    return i + 1


def _apply(text: str, edits: list[tuple[int, int, str]]) -> str:
    out, at = [], 0
    for start, end, new in sorted(edits):
        if start < at:
            raise RuntimeError(f"overlapping edits at offset {start}")
        out += [text[at:start], new]
        at = end
    return "".join(out) + text[at:]


# ---------------------------------------------------------------- HTML

def rewrite_html(page: str, new_url: Map, absolute: Callable[[str], bool]) -> str:
    """`page` with every reference in href, src, srcset, … (and a <meta content> for which
    `absolute` is true), in style attributes and in <style> sheets passed through `new_url`.
    Every other byte stays as it was."""
    parser = _References(page, new_url, absolute)
    parser.feed(page)
    parser.close()
    return _apply(page, parser.edits)


def rewrite_srcset(srcset: str, new_url: Map) -> str:
    """A srcset's candidates with each URL passed through `new_url`, descriptors kept (HTML's
    parsing rules: a URL is a run of non-space characters, trailing commas end its candidate;
    otherwise a comma outside parentheses ends the descriptors)."""
    edits, i, n = [], 0, len(srcset)
    while i < n:
        while i < n and (srcset[i].isspace() or srcset[i] == ","):
            i += 1
        start = i
        while i < n and not srcset[i].isspace():
            i += 1
        url = srcset[start:i]
        if url.endswith(","):
            url = url.rstrip(",")
        else:
            depth = 0
            while i < n and (srcset[i] != "," or depth):
                depth += {"(": 1, ")": -1}.get(srcset[i], 0)
                i += 1
        new = new_url(url) if url else None
        if new is not None:
            edits.append((start, start + len(url), new))
    return _apply(srcset, edits)


class _References(HTMLParser):
    def __init__(self, page: str, new_url: Map, absolute: Callable[[str], bool]):
        super().__init__(convert_charrefs=True)
        self.page, self.new_url, self.absolute = page, new_url, absolute
        self.starts = [0] + [m.end() for m in re.finditer("\n", page)]
        self.edits: list[tuple[int, int, str]] = []

    def _offset(self) -> int:
        line, column = self.getpos()
        return self.starts[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if not any(value is not None and _may_change(tag, name, value) for name, value in attrs):
            return          # most tags (a formula's thousands of spans): nothing to find
        raw = self.get_starttag_text() or ""
        start = self._offset()
        if self.page[start:start + len(raw)] != raw:
            raise RuntimeError(f"start tag not found at offset {start}: {raw[:40]!r}")
        found = []
        for name, value, (vstart, vend) in _attributes(raw):
            found.append((name, value))
            if value is None:
                continue
            new = self._new_value(tag, name, value, dict(attrs))
            if new is not None and new != value:
                quote = raw[vstart] if raw[vstart] in "'\"" else '"'
                escaped = new.replace("&", "&amp;").replace(quote, f"&#{ord(quote)};")
                self.edits.append((start + vstart, start + vend, quote + escaped + quote))
        if found != attrs:
            raise RuntimeError(f"attributes read differently from html.parser: {raw[:60]!r}")

    handle_startendtag = handle_starttag

    def handle_data(self, data: str) -> None:
        if self.cdata_elem != "style" or not may_reference(data):
            return
        start = self._offset()
        if self.page[start:start + len(data)] != data:
            raise RuntimeError(f"style sheet not found at offset {start}")
        new = rewrite_css(data, self.new_url)
        if new != data:
            self.edits.append((start, start + len(data), new))

    def _new_value(self, tag: str, name: str, value: str, attrs: dict[str, str | None]
                   ) -> str | None:
        if name in URL_ATTRS:
            return self.new_url(value)
        if name in SRCSET_ATTRS:
            return rewrite_srcset(value, self.new_url)
        if name == "style":
            return rewrite_css(value, self.new_url) if may_reference(value) else None
        if tag == "meta" and name == "content" and self.absolute(value):
            return self.new_url(value)
        return None


def _may_change(tag: str, name: str, value: str) -> bool:
    """Whether `_References._new_value` may give the attribute another value."""
    return name in URL_ATTRS or name in SRCSET_ATTRS or (name == "style" and
                                                         may_reference(value)) \
        or (tag == "meta" and name == "content")


def _attributes(raw: str) -> Iterator[tuple[str, str | None, tuple[int, int]]]:
    """(name, value as html.parser decodes it, span of the value as written) of each
    attribute of one start tag, found as html.parser's parse_starttag finds them."""
    tag = html.parser.tagfind_tolerant.match(raw, 1)   # type: ignore[attr-defined]
    assert tag is not None, raw
    k = tag.end()
    while k < len(raw):
        m = html.parser.attrfind_tolerant.match(raw, k)   # type: ignore[attr-defined]
        if not m:
            break
        name, rest, value = m.group(1, 2, 3)
        span = m.span(3)
        if not rest:
            value = None
        elif value[:1] == "'" == value[-1:] or value[:1] == '"' == value[-1:]:
            value = value[1:-1]
        if value:
            value = html.unescape(value)
        yield name.lower(), value, span
        k = m.end()


__all__ = ["css_references", "may_reference", "rewrite_css", "rewrite_html", "rewrite_srcset"]
