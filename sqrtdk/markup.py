"""Markup in a text the site shows as plain text: the article's title and description (front
matter), the site's title and a language's name (TOML), a [ui] string. Each shows HTML, an
entity, Markdown's marks or a Jinja expression as typed, so `markup_told` gives the warning's
words (sqrtdk.web.pages, sqrtdk.settings, sqrtdk.web.ui_check)."""
from __future__ import annotations

import html
import re
from collections.abc import Iterator

from .html_parsing import HTMLParser

# Markdown's marks where Markdown is not read (a title, a block of raw HTML): *x*, **x**, _x_
# (not inside a word: snake_case, my__init__, x**2 + y**2), ~~x~~, `x`, [x](address) (its
# parentheses paired, '[x](f(y))'); sqrtdk.web.raw_html tells the bold, code and links of these
MARKDOWN_MARKS = re.compile(r"(?<![\w*])(\*{1,3})(?=\S)[^*\n]+?(?<=\S)\1(?!\*)"
                            r"|(?<![\w_])(_{1,3})(?=\S)[^_\n]+?(?<=\S)\2(?![\w_])"
                            r"|~~(?=\S)[^~\n]+?(?<=\S)~~|`[^`\n]+`"
                            r"|\[[^\[\]\n]+\]\((?:[^()\n]|\([^()\n]*\))*\)")
# a Jinja expression or statement, which only the article's text runs; each opener reaches
# only to the next brace (a lazy `.*?` scanned to the end from every `{{`: quadratic)
_JINJA = re.compile(r"\{\{[^{}]*\}\}|\{%[^{}]*%\}|\{\{|\{%")


def paren_formulas(text: str) -> Iterator[tuple[int, int]]:
    """The span of each `\\(…\\)` on one line of `text`, in order: each '\\(' with the
    first '\\)' after it (the settings' TeX check, the lexer's indented code). One pass: a
    lazy `\\(.*?\\)` scanned to the end from every opener, and slicing each opener's span
    to a far closer, were quadratic in a long line."""
    closer = newline = -1
    opener = text.find("\\(")
    while opener >= 0:
        if closer < opener + 2:
            closer = text.find("\\)", opener + 2)
            if closer < 0:
                return
        if newline < opener:
            newline = text.find("\n", opener)
            newline = len(text) if newline < 0 else newline
        if closer < newline:
            yield opener, closer + 2
        opener = text.find("\\(", opener + 2)


class _Markup(HTMLParser):
    """The HTML tags and entity or character references in a text (Python's HTML parser)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.found: list[tuple[str, str]] = []      # (as typed, what to write instead)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.append((self.get_starttag_text() or f"<{tag}>", ""))

    def handle_endtag(self, tag: str) -> None:
        self.found.append((f"</{tag}>", ""))

    def handle_entityref(self, name: str) -> None:
        typed = f"&{name};"
        if html.unescape(typed) != typed:
            self.found.append((typed, html.unescape(typed)))

    def handle_charref(self, name: str) -> None:
        self.found.append((f"&#{name};", html.unescape(f"&#{name};")))


def markup_told(value: str, what: str, where: str, jinja: bool = True) -> str | None:
    """The words of a warning when `value` (the text of `what`, e.g. "the title", shown as
    plain text in `where`) holds an HTML tag, an entity or character reference (told the
    character to write), Markdown's emphasis, code or link marks, or (`jinja`; not in a
    format string, where `{{` is a brace) a Jinja expression; None when it holds none."""
    parser = _Markup()
    parser.feed(value)
    parser.close()
    marks = [*parser.found, *((m.group(0), "") for m in MARKDOWN_MARKS.finditer(value)),
             *((m.group(0), "") for m in (_JINJA.finditer(value) if jinja else ()))]
    if not marks:
        return None
    shown = ", ".join(typed for typed, _ in marks[:3])
    chars = [f"{char} for {typed}" for typed, char in marks if char]
    return (f"{what} holds markup ({shown}), which the page shows as typed: {what} is plain "
            f"text ({where}); write the " + (f"character itself ({chars[0]}) and the "
                                             if chars else "")
            + "words without Markdown, HTML or Jinja marks")
