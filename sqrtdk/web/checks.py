"""Checks that run before a byte is written: the languages say the same things, the claims
the text relies on hold, and every link and resource of the assembled site resolves."""
from __future__ import annotations

import json
import logging
import posixpath
import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import unquote, urlsplit

from ..cache import key_for
from ..errors import BuildError, display_path, line_at, where
from ..log import warn
from .markers import ANY_MARKER_RE, CLAIM_RE, MATH_HTML_RE, QUOTE_RE
from .model import Citation, Page
from .output import Site

LOGGER = logging.getLogger("sqrtdk.web")
_CSS_URL = re.compile(r'url\(\s*["\']?([^"\')]+)["\']?\s*\)')
_EXTERNAL = ("http://", "https://", "//")

# what both languages must share, and the line each item was written on (0: not known)
Items = Callable[[Page], list[str]]
ItemLines = Callable[[Page], list[int]]
_PARITY: tuple[tuple[str, Items, ItemLines], ...] = (
    ("heading ids", lambda p: [h.id for h in p.conversion.headings],
     lambda p: [h.line for h in p.conversion.headings]),
    ("figures", lambda p: p.conversion.figures, lambda p: p.conversion.lines.figures),
    ("footnote labels", lambda p: p.conversion.footnotes, lambda p: p.conversion.lines.footnotes),
    ("collapsible boxes", lambda p: p.conversion.boxes, lambda p: p.conversion.lines.boxes),
    ("reproduce boxes", lambda p: p.conversion.snippets, lambda p: p.conversion.lines.snippets),
)


def check_parity(pages: list[Page]) -> None:
    """Every language has the first's heading ids (in order), figures, footnote labels,
    boxes and reproduce boxes, quotes the same results and relies on the same claims, and
    each section cites results, notes and claims as often. Raises BuildError naming both files
    and the first difference, each at the line its item was written on (recorded when the
    page was converted)."""
    base = pages[0]
    for other in pages[1:]:
        for kind, get, lines in _PARITY:
            a, b = get(base), get(other)
            if a != b:
                i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
                x = a[i] if i < len(a) else None
                y = b[i] if i < len(b) else None
                l1 = _nth(lines(base), i) if x else 0
                l2 = _nth(lines(other), i) if y else 0
                raise BuildError(base.source, l1, f"{kind} differ at position {i + 1}: "
                                 f"{x or 'nothing'} here, {y or 'nothing'} in "
                                 f"{where(other.source, l2)}; every language must match")
        sets: tuple[tuple[str, Callable[[Page], set[str]], Callable[[Page, str], int]], ...] = (
            ("quoted results", lambda p: {e[0] for e in p.quotes.entries},
             lambda p, x: p.quotes.line_of(x)),
            ("claims relied on", lambda p: set(p.quotes.claims),
             lambda p, x: p.quotes.line_of_claim(x)))
        for what, members, line in sets:
            sa, sb = members(base), members(other)
            if sa != sb:
                here, there = sorted(sa - sb)[:1], sorted(sb - sa)[:1]
                l1 = line(base, here[0]) if here else 0
                l2 = line(other, there[0]) if there else 0
                raise BuildError(base.source, l1, f"{what} differ: "
                                 f"{here[0] if here else 'nothing'} only here, "
                                 f"{there[0] if there else 'nothing'} only in "
                                 f"{where(other.source, l2)}; every language must match")
        _check_citations(base, other)


def _nth(lines: list[int], i: int) -> int:
    return lines[i] if i < len(lines) else 0


def _check_citations(p1: Page, p2: Page) -> None:
    a, b = Counter(p1.conversion.cited), Counter(p2.conversion.cited)
    for key in sorted(set(a) | set(b)):
        if a.get(key, 0) != b.get(key, 0):
            section, kind, name = key
            l1, l2 = _citation_line(p1, key), _citation_line(p2, key)
            what = {"result": "the result", "footnote": "the footnote reference",
                    "claim": "the claim"}[kind]
            raise BuildError(p1.source, l1, f"section '#{section}' cites {what} '{name}' "
                             f"{a.get(key, 0)} time(s) here but {b.get(key, 0)} in "
                             f"{where(p2.source, l2)}; every language must match")


def _citation_line(page: Page, key: Citation) -> int:
    """The line of the page's first citation `key`, as recorded where it was written (a quote,
    claim, formula or footnote reference); for a section that does not cite it, the line of
    the section's heading (1 for the part before the first)."""
    c = page.conversion
    recorded = next((line for k, line in zip(c.cited, c.cited_lines, strict=True)
                     if k == key and line), 0)
    section = key[0]
    heading = next((h.line for h in c.headings if h.id == section), 0) if section else 1
    return recorded or heading


def check_claims(pages: list[Page], results: Mapping[str, Any]) -> None:
    """Every claim a sentence relies on holds for this build's results; BuildError at the
    sentence otherwise. Claims relied on by no sentence get a warning."""
    claims = results.get("claims", {})
    used: set[str] = set()
    for page in pages:
        for name, line in zip(page.quotes.claims, page.quotes.claim_lines, strict=True):
            used.add(name)
            c = claims[name]
            if not c["held"]:
                raise BuildError(page.source, line, f"this sentence relies on the claim '{name}' "
                                 f"({c['statement']}), which does not hold for seed "
                                 f"{results['meta']['seed']}: {c['unit'] or 'value'} = "
                                 f"{c['value']:.6g}, needed {c['op']} {c['bound']:g}; fix the "
                                 "experiment, or the text and its claim")
    for name in sorted(set(claims) - used):
        warn(LOGGER, pages[0].source, 0, f"claim '{name}' is checked but no sentence relies on "
                                         f"it; mark the sentence with {{{{ claim(\"{name}\") }}}}")


UNQUOTED_DEPTH = 3      # results are judged down to `section.key.key`
NOT_CONTENT = ("claims", "meta", "reproduce", "sweep")


def check_unused_results(results: Mapping[str, Any], used: set[str], results_file: Path) -> None:
    """A warning for each result (down to UNQUOTED_DEPTH levels) that no page quotes, no
    figure draws, the page's script does not embed and no claim reads: computed for nothing.
    `used` holds dotted paths (list indices as numbers or `[i]`); the warning names the line of
    `results_file` where the result is."""
    norm = {re.sub(r"\[[^\]]*\]|\.\d+(?=\.|$)", "", u) for u in used}
    # a path is covered when it is a used path, leads to one, or lies inside one
    within = {u.rsplit(".", n)[0] for u in norm for n in range(u.count(".") + 1)}

    def covered(path: str) -> bool:
        parts = path.split(".")
        return path in within or any(".".join(parts[:i]) in norm for i in range(1, len(parts)))

    unused: list[str] = []

    def walk(node: Any, path: str, depth: int) -> None:
        if isinstance(node, Mapping) and depth < UNQUOTED_DEPTH:
            for key, value in node.items():
                walk(value, f"{path}.{key}", depth + 1)
        elif not covered(path):
            unused.append(path)

    for section, value in results.items():
        if section not in NOT_CONTENT:
            walk(value, section, 1)
    if not unused:
        return
    try:
        text = results_file.read_text(encoding="utf-8")
    except OSError:
        text = ""
    for path in unused:
        warn(LOGGER, results_file, _json_line(text, path.split(".")),
             f"result '{path}' is computed but no page quotes it, no figure draws it, the "
             "page's script does not embed it and no claim reads it; quote it, or stop "
             "computing it")


def _json_line(text: str, keys: list[str]) -> int:
    """Line of the nested key `keys` in pretty-printed JSON (one space per level), or 0."""
    offset = 0
    for depth, key in enumerate(keys, 1):
        m = re.compile("^" + " " * depth + re.escape(json.dumps(key)) + ":", re.M).search(
            text, offset)
        if m is None:
            return 0
        offset = m.start()
    return line_at(text, offset) if keys else 0


class _Links(HTMLParser):
    """Ids, and (tag, attribute, URL, rel) of every link and resource, of one page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.duplicate_ids: list[str] = []
        self.urls: list[tuple[str, str, str, str]] = []
        self.styles: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if a.get("id"):
            if a["id"] in self.ids:
                self.duplicate_ids.append(a["id"])
            self.ids.add(a["id"])
        for attr in ("href", "src"):
            if attr in a:
                self.urls.append((tag, attr, a[attr], a.get("rel", "")))
        if "srcset" in a:
            for part in a["srcset"].split(","):
                if part.strip():
                    self.urls.append((tag, "srcset", part.strip().split()[0], ""))
        if a.get("style"):
            self.styles.append(a["style"])

    def handle_data(self, data: str) -> None:
        if self.lasttag == "style":
            self.styles.append(data)


@dataclass(frozen=True)
class PageLinks:
    """What the checks read from one page's HTML: its ids, the (tag, attribute, URL, rel) of
    every link and resource, and its inline styles."""

    ids: frozenset[str]
    urls: tuple[tuple[str, str, str, str], ...]
    styles: tuple[str, ...]
    duplicate_ids: tuple[str, ...] = ()     # ids given to a second element of the page


class LinkMemo(Protocol):
    """Where check_site keeps each page's PageLinks by the digest of its HTML."""

    def get(self, key: str) -> PageLinks | None:
        """The links of the HTML with this digest, or None."""

    def put(self, key: str, links: PageLinks) -> None:
        """Remember them."""


def page_links(html: str) -> PageLinks:
    """Parse one page's HTML (Python's html.parser) for the checks."""
    parser = _Links()
    parser.feed(html)
    parser.close()
    return PageLinks(frozenset(parser.ids), tuple(parser.urls), tuple(parser.styles),
                     tuple(parser.duplicate_ids))


def check_site(site: Site, pages: list[Page], base_url: str, memo: LinkMemo | None = None
               ) -> None:
    """Links, resources and leftovers of every generated HTML page; url()s of copied CSS.

    A page is parsed as it was before its formulas were filled in (`Site.link_html`): KaTeX's
    markup holds no link, id or resource (\\href and \\includegraphics need `trust`, which
    only \\htmlData has), and it is most of the page. `memo` (the build's cache) keeps what
    each page's HTML held, so an unchanged page is not parsed again (a text edit parses the
    edited language's page only). Raises BuildError at the first fault."""
    by_path = {f"{p.lang}/index.html": p for p in pages}
    parsed: dict[str, PageLinks] = {}
    for rel, data in site.files.items():
        if rel.endswith(".html"):
            html = site.link_html.get(rel) or data.decode("utf-8")
            key = key_for("links", html)
            links = memo.get(key) if memo is not None else None
            if links is None:
                links = page_links(html)
                if memo is not None:
                    memo.put(key, links)
            parsed[rel] = links
    for rel, links in parsed.items():
        _check_page(rel, site.files[rel].decode("utf-8"), links, site, parsed, by_path.get(rel),
                    base_url)
    for rel, src in site.copies.items():
        if rel.endswith(".css"):
            for url in _CSS_URL.findall(src.read_text(encoding="utf-8")):
                if not url.startswith("data:") and _resolve(rel, url) not in site.paths():
                    raise BuildError(src, 0, f"url({url}) points to a file the site lacks")


def _resolve(rel: str, url: str) -> str:
    path = unquote(url.split("#", maxsplit=1)[0])
    return posixpath.normpath(posixpath.join(posixpath.dirname(rel), path))


def _internal(rel: str, url: str, base_url: str) -> tuple[str, str] | None:
    """(site path, fragment) of a URL that stays on this site, or None for another site."""
    if url.startswith(base_url):
        url = "/" + url[len(base_url):]
    base_path = urlsplit(base_url).path or "/"
    parts = urlsplit(url)
    if parts.scheme or parts.netloc:
        return None
    if parts.path.startswith("/"):
        path = parts.path[len(base_path):] if parts.path.startswith(base_path) else parts.path[1:]
        target = posixpath.normpath(unquote(path)) if path else "index.html"
    else:
        target = _resolve(rel, parts.path) if parts.path else rel
    if target in (".", ""):
        target = "index.html"
    return target, unquote(parts.fragment)


def _duplicate_id(rel: str, id_: str, page: Page | None) -> None:
    """An id given to two elements of one page: links to it would reach only the first. When
    the article wrote it (a heading's {#id}, a box's id), the error is at that line (recorded
    when the page was converted)."""
    if page is None:
        raise BuildError(Path("templates"), 0, f"{rel}: id '{id_}' is used twice in the page")
    line = page.conversion.lines.ids.get(id_, 0)
    raise BuildError(page.source, line, f"the id '{id_}' is used twice in the page "
                     + ("(the page's own layout has an element with this id: the contents, "
                        "the skip link's target, the notes …)" if line else "")
                     + "; links to it would reach only the first: choose another id")


def _link_line(page: Page, url: str) -> int:
    """The line of the article's first link or image to `url`, as recorded when the page
    was converted (0: the page's layout has it, not the article)."""
    return page.conversion.lines.urls.get(url, 0)


def _marker_line(page: Page, html: str, at: int) -> int:
    """The line of the quote, claim or formula whose marker was left at `html[at]`."""
    for pattern, lines in ((QUOTE_RE, page.quotes.lines), (CLAIM_RE, page.quotes.claim_lines),
                           (MATH_HTML_RE, [f.line for f in page.formulas])):
        m = pattern.match(html, at)
        if m and int(m.group(1)) < len(lines):
            return lines[int(m.group(1))]
    return 0


def _check_page(rel: str, html: str, links: PageLinks, site: Site,
                parsed: Mapping[str, PageLinks],
                page: Page | None, base_url: str) -> None:
    def fail(url: str, message: str) -> None:
        if page is None:
            raise BuildError(Path("templates"), 0, f"{rel}: {message}")
        raise BuildError(page.source, _link_line(page, url), message)

    for dup in links.duplicate_ids:
        _duplicate_id(rel, dup, page)
    m = ANY_MARKER_RE.search(html)
    if m:
        message = f"unprocessed text near '{html[max(m.start() - 30, 0):m.end() + 30]}'"
        if page is None:
            raise BuildError(Path("templates"), 0, f"{rel}: {message}")
        raise BuildError(page.source, _marker_line(page, html, m.start()), message)
    for style in links.styles:
        for url in _CSS_URL.findall(style):
            if url.startswith(_EXTERNAL):
                fail(url, f"external resource '{url}' in a style: pages load nothing from "
                          "other sites")
    paths = site.paths()
    for tag, _attr, url, rel_attr in links.urls:
        if url.strip().lower().startswith("javascript:"):
            fail(url, f"link '{url}' would run a script, which the page's "
                      "Content-Security-Policy blocks; link to a page or an anchor instead")
        if url.startswith(("mailto:", "data:")):
            continue
        target = _internal(rel, url, base_url)
        if target is None:
            if tag != "a" and not (tag == "link" and rel_attr in ("canonical", "alternate")):
                fail(url, f"external resource '{url}': pages load nothing from other sites")
            continue
        if tag == "link" and rel_attr in ("canonical", "alternate"):
            continue
        path, frag = target
        if path not in paths and path.rstrip("/") + "/index.html" not in paths \
                and path + "/index.html" not in paths:
            fail(url, f"link to '{url}', a file the site does not have")
        page_path = path if path in parsed else path.rstrip("/") + "/index.html"
        if frag and page_path in parsed and frag not in parsed[page_path].ids:
            fail(url, f"link to '{url}': {page_path} has no anchor '#{frag}'")


__all__ = ["LinkMemo", "PageLinks", "check_claims", "check_parity", "check_site",
           "check_unused_results", "display_path", "page_links"]
