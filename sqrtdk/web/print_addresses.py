"""Printed, a link to another page of this site shows where it leads.

The print style sheet follows a link to another site with its address (`attr(href)`); a link
to one of the site's own pages (an experiment's published source, the other language) has a
relative href, which paper cannot use. Each such link of the article gets its full address
under the site's base_url in `data-print-href`, which the print rule shows. A link inside the
page (`#...`) and a figure's link (the figure itself is printed) get none; without a base_url
nothing is added. Nothing is re-serialised: the attribute is inserted after the tag's name,
every other byte stays as it was. Publishing rewrites the address of a renamed file
(rewrite.URL_ATTRS)."""
from __future__ import annotations

import html
import html.parser
import re
from urllib.parse import urljoin, urlsplit

from ..html_parsing import HTMLParser

ATTRIBUTE = "data-print-href"
_SKIPPED_CLASSES = frozenset({"fig-link"})


def with_print_addresses(page: str, rel: str, base_url: str, article: bool = False) -> str:
    """`page` (the site path `rel`) with `data-print-href` on each link of its <article> to
    another page of the site, the link's full address under `base_url`. `article`: `page` is
    a part of the article's HTML (`--serve`'s fast patch, serve_fast), every link in it."""
    if not base_url:
        return page
    parser = _Links(page, urljoin(base_url, rel), article)
    parser.feed(page)
    parser.close()
    out, at = [], 0
    for offset, text in parser.inserts:
        out += [page[at:offset], text]
        at = offset
    return "".join(out) + page[at:]


class _Links(HTMLParser):
    def __init__(self, page: str, address: str, article: bool):
        super().__init__(convert_charrefs=True)
        self.page, self.address = page, address
        self.starts = [0] + [m.end() for m in re.finditer("\n", page)]
        self.inserts: list[tuple[int, str]] = []
        self.depth = int(article)           # open <article> elements

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "article":
            self.depth += 1
        if tag != "a" or not self.depth:
            return
        values = dict(attrs)
        href = (values.get("href") or "").strip()
        classes = set((values.get("class") or "").split())
        if not href or href.startswith(("#", "//")) or urlsplit(href).scheme or \
                ATTRIBUTE in values or classes & _SKIPPED_CLASSES:
            return
        line, column = self.getpos()
        start = self.starts[line - 1] + column
        if self.page[start:start + 2].lower() != "<a":
            raise RuntimeError(f"link not found at offset {start}")
        full = urljoin(self.address, href)
        self.inserts.append((start + 2, f' {ATTRIBUTE}="{html.escape(full, quote=True)}"'))

    def handle_endtag(self, tag: str) -> None:
        if tag == "article" and self.depth:
            self.depth -= 1
