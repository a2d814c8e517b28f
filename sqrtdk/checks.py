"""Checks that run before a byte is written: bilingual parity and the built site's integrity."""
from __future__ import annotations

import posixpath
import re
from collections import Counter
from pathlib import Path

from .assemble import Site
from .errors import BuildError, display_path, line_of
from .model import Page
from .textfiles import read_text

_ATTR = re.compile(r'<(\w+)\b([^>]*?)\s(href|src)="([^"]*)"')
_ID = re.compile(r'\sid="([^"]+)"')
_CSS_URL = re.compile(r'url\(\s*["\']?([^"\')]+)["\']?\s*\)')
_LEFTOVER = re.compile("[\ue000-\ue002\ue010\ue011]")


def _needle(page: Page, kind: str, item: str) -> str:
    return {"heading ids": "{#" + item, "figures": f"({item}.svg", "footnote labels": f"[^{item}]",
            "collapsible boxes": f"id: {item}", "quoted results": item}[kind]


def _line(page: Page, kind: str, item: str | None) -> int:
    if not item:
        return 0
    # page.text has the quoted numbers in place of `{{ name | … }}`: look for names in the source
    text = read_text(page.source) if kind == "quoted results" else page.text
    return line_of(text, _needle(page, kind, item))


def check_parity(pages: list[Page]) -> None:
    """Every language has the same heading ids (in order), figures, footnote labels, boxes and
    quoted result names as the first, and each section quotes the same results and cites the
    same footnotes as often; raises BuildError naming both files and the first difference."""
    base = pages[0]
    for other in pages[1:]:
        for kind, get in (("heading ids", lambda p: [h[1] for h in p.facts.headings]),
                          ("figures", lambda p: p.facts.figures),
                          ("footnote labels", lambda p: p.facts.footnotes),
                          ("collapsible boxes", lambda p: p.facts.boxes),
                          ("quoted results", lambda p: sorted({e[0] for e in p.quotes.entries}))):
            a, b = get(base), get(other)
            if a != b:
                _parity_error(kind, base, a, other, b)
        _check_citations(base, other)


def _check_citations(p1: Page, p2: Page) -> None:
    """Per section, the same results quoted and footnotes cited, the same number of times."""
    def counts(p: Page) -> dict[tuple[str, str, str], int]:
        return Counter(p.facts.cited)
    a, b = counts(p1), counts(p2)
    for key in sorted(set(a) | set(b)):
        if a.get(key, 0) != b.get(key, 0):
            section, kind, name = key
            needle = name if kind == "result" else f"[^{name}]"
            l1 = _section_line(p1, section, needle)
            l2 = _section_line(p2, section, needle)
            what = "result" if kind == "result" else "footnote reference"
            raise BuildError(p1.source, l1, f"section '#{section}' cites the {what} '{name}' "
                             f"{a.get(key, 0)} time(s) here but {b.get(key, 0)} in "
                             f"{display_path(p2.source)}" + (f":{l2}" if l2 else "") +
                             "; both languages must match")


def _section_line(page: Page, section: str, needle: str) -> int:
    source = read_text(page.source)
    start = line_of(source, "{#" + section) if section else 1
    return line_of(source, needle, start_line=start or 1)


def _parity_error(kind: str, p1: Page, a: list[str], p2: Page, b: list[str]) -> None:
    i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    x = a[i] if i < len(a) else None
    y = b[i] if i < len(b) else None
    if kind == "quoted results":
        x, y = sorted(set(a) - set(b))[:1] or [None], sorted(set(b) - set(a))[:1] or [None]
        x, y = x[0], y[0]
    l1, l2 = _line(p1, kind, x), _line(p2, kind, y)
    what = f"{kind} differ at position {i + 1}: {x or 'nothing'!s} here, " \
           f"{y or 'nothing'!s} in {display_path(p2.source)}" + (f":{l2}" if l2 else "")
    if kind == "quoted results":
        what = f"quoted results differ: {x or 'nothing'} only here, {y or 'nothing'} only in " \
               f"{display_path(p2.source)}" + (f":{l2}" if l2 else "")
    raise BuildError(p1.source, l1, what + "; both languages must match")


def check_site(site: Site, pages: list[Page]) -> None:
    """Links, resources and leftovers of every generated HTML page; CSS url()s of copied CSS."""
    by_path = {f"{p.lang}/index.html": p for p in pages}
    ids = {rel: set(_ID.findall(data.decode("utf-8")))
           for rel, data in site.files.items() if rel.endswith(".html")}
    for rel, data in site.files.items():
        if rel.endswith(".html"):
            _check_html(rel, data.decode("utf-8"), site, ids, by_path.get(rel))
    for rel, src in site.copies.items():
        if rel.endswith(".css"):
            for url in _CSS_URL.findall(src.read_text(encoding="utf-8")):
                if not url.startswith("data:") and _resolve(rel, url) not in site.paths():
                    raise BuildError(src, 0, f"url({url}) points to a file the site lacks")


def _resolve(rel: str, url: str) -> str:
    return posixpath.normpath(posixpath.join(posixpath.dirname(rel), url.split("#")[0]))


def _check_html(rel: str, html: str, site: Site, ids: dict[str, set[str]], page: Page | None) -> None:
    def fail(needle: str, message: str) -> None:
        if page is None:
            raise BuildError(Path("templates"), 0, f"{rel}: {message}")
        raise BuildError(page.source, line_of(page.text, needle), message)

    m = _LEFTOVER.search(html)
    if m:
        fail("{{", f"unprocessed text near '{html[max(m.start() - 30, 0):m.end() + 30]}'")
    for m in _CSS_URL.finditer(html):   # style attributes and <style> blocks in raw HTML
        if m.group(1).startswith(("http://", "https://", "//")):
            fail(m.group(1), f"external resource '{m.group(1)}' in a style: pages load nothing "
                             "from other sites")
    for tag, attrs, attr, url in _ATTR.findall(html):
        if url.startswith(("http://", "https://", "//")):
            if tag != "a" and not (tag == "link" and re.search(r'rel="(canonical|alternate)"', attrs)):
                fail(url, f"external resource '{url}': pages load nothing from other sites")
            continue
        if url.startswith(("mailto:", "data:")):
            continue
        path, _, frag = url.partition("#")
        target = _resolve(rel, path) if path else rel
        if path and target not in site.paths() and target + "/index.html" not in site.paths():
            fail(url, f"link to '{url}', a file the site does not have")
        if frag and target in ids and frag not in ids[target]:
            fail(f"#{frag}", f"link to '#{frag}', an anchor the page does not have")
