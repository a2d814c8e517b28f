"""The links of the assembled site, checked before a byte is written: every link and
resource of every page resolves (a page, a file, an anchor), nothing is loaded from another
site, no id is given twice, and no marker of the text protocol is left in a page."""
from __future__ import annotations

import difflib
import ipaddress
import logging
import posixpath
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol
from urllib.parse import parse_qs, unquote, urlsplit

from ..cache import key_for
from ..errors import BuildError, Mistakes, combined, suggest
from ..html_parsing import HTMLParser
from ..log import warn
from .html_names import targets
from .markers import ANY_MARKER_RE, ANY_MARKERS_RE, CLAIM_RE, MATH_HTML_RE, QUOTE_RE
from .md_figures import (
    YUQUE_FORMULA_AS_MATH,
    formula_as_math,
    formula_of_picture,
    on_own_machine,
    size_told,
    yuque_formula,
)
from .model import Page
from .output import Site
from .raw_html import IMAGE_TAGS

_CSS_URL = re.compile(r'url\(\s*["\']?([^"\')]+)["\']?\s*\)')
_EXTERNAL = ("http://", "https://", "//")
LOGGER = logging.getLogger("sqrtdk.web")


class _Links(HTMLParser):
    """Ids, and (tag, attribute, URL, rel) of every link and resource, of one page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.duplicate_ids: list[str] = []
        self.urls: list[tuple[str, str, str, str]] = []
        self.styles: list[str] = []
        self.empty_links: list[str] = []     # hrefs of <a>s with no text, nor alt, nor label
        self.anchor: list[str] = []          # the open <a>'s href, while it has no name yet

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        for target in targets(tag, a):
            if target in self.ids:
                self.duplicate_ids.append(target)
            self.ids.add(target)
        for attr in ("href", "src"):
            if attr in a:
                self.urls.append((tag, attr, a[attr], a.get("rel", "")))
        if "srcset" in a:
            for part in a["srcset"].split(","):
                if part.strip():
                    self.urls.append((tag, "srcset", part.strip().split()[0], ""))
        if a.get("style"):
            self.styles.append(a["style"])
        if tag == "a":
            named = a.get("aria-label", "").strip() or a.get("aria-labelledby")
            self.anchor = [] if named or "href" not in a else [a["href"]]
        elif self.anchor and (a.get("alt", "").strip() or a.get("aria-label", "").strip()):
            self.anchor = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self.anchor:
            self.empty_links.append(self.anchor[0])
        if tag == "a":
            self.anchor = []

    def handle_data(self, data: str) -> None:
        if self.lasttag == "style":
            self.styles.append(data)
        if data.strip():
            self.anchor = []


@dataclass(frozen=True)
class PageLinks:
    """What the checks read from one page's HTML: its ids, the (tag, attribute, URL, rel) of
    every link and resource, and its inline styles."""

    ids: frozenset[str]
    urls: tuple[tuple[str, str, str, str], ...]
    styles: tuple[str, ...]
    duplicate_ids: tuple[str, ...] = ()     # ids given to a second element of the page
    empty_links: tuple[str, ...] = ()       # hrefs of links with no text: no name


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
                     tuple(parser.duplicate_ids), tuple(parser.empty_links))


def check_site(site: Site, pages: list[Page], base_url: str, memo: LinkMemo | None = None,
               previous: Callable[[str], str | None] | None = None) -> None:
    """Links, resources and leftovers of every generated HTML page; url()s of copied CSS.

    A page is parsed as it was before its formulas were filled in (`Site.link_html`): KaTeX's
    markup holds no link, id or resource (\\href and \\includegraphics need `trust`, which
    only \\htmlData has), and it is most of the page. `memo` (the build's cache) keeps what
    each page's HTML held, so an unchanged page is not parsed again (a text edit parses the
    edited language's page only). `previous`: a page's HTML in the previous build (path in
    the site -> its text, None if there is none), read for a link to an id that is gone
    (renamed_ids). Raises BuildError for every link, id or leftover at fault
    (errors.Mistakes: each is a fault of its own), together."""
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
    mistakes = Mistakes()
    for rel, links in parsed.items():
        _check_page(rel, site.files[rel].decode("utf-8"), links, site, parsed, by_path.get(rel),
                    base_url, by_path, mistakes, previous)
    for rel, src in site.copies.items():
        if rel.endswith(".css"):
            for url in _CSS_URL.findall(src.read_text(encoding="utf-8")):
                if not url.startswith("data:") and _resolve(rel, url) not in site.paths():
                    mistakes.add(BuildError(src, 0, f"url({url}) points to a file the site "
                                                    "lacks"))
    mistakes.raise_any()


# the redirect pages Chinese sites put before every outside link of a post (Zhihu's
# `link.zhihu.com/?target=…`, Juejin's, CSDN's, Jianshu's), copied with the post's links
_REDIRECTS = ("link.zhihu.com", "link.juejin.cn", "link.csdn.net", "links.jianshu.com")


def _redirect_target(url: str) -> str | None:
    """The address a Chinese site's redirect link `url` leads to, else None."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if (parts.hostname or "") not in _REDIRECTS:
        return None
    target = parse_qs(parts.query).get("target") or parse_qs(parts.query).get("to")
    return target[0] if target else None


def _only_here(url: str) -> bool:
    """Whether `url`'s host is this machine or a private network: `localhost` (and
    `*.localhost`, RFC 6761), a loopback, unspecified, private or link-local address."""
    try:
        host = urlsplit(url).hostname or ""
    except ValueError:
        return False
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    return ip.is_loopback or ip.is_unspecified or ip.is_private or ip.is_link_local


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
    raise BuildError(page.source, line, f"the id '{id_}' is used twice in the page"
                     + (" (the page's own layout has an element with this id: the contents, "
                        "the skip link's target, the notes …)" if line else "")
                     + "; links to it would reach only the first: choose another id for "
                       "the second, and change what refers to that one (a link's "
                       f"'#{id_}', an SVG's 'url(#{id_})' or href='#{id_}')")


def _file_lines(path: Path) -> list[str]:
    """The lines of the article at `path` as written ([""] if it cannot be read)."""
    try:
        return path.read_text(encoding="utf-8").split("\n")
    except (OSError, UnicodeDecodeError):
        return [""]


def _link_line(page: Page, url: str) -> int:
    """The line of the article's first link or image to `url`, as recorded when the page
    was converted (0: the page's layout has it, not the article)."""
    return page.conversion.lines.urls.get(url, 0)


def _link_lines(page: Page, url: str, tag: str = "") -> tuple[int, ...]:
    """Every line of the article with a link or image to `url` (`(0,)`: the page's layout
    has it, not the article): a fault of the address is told at each, in one build. Of a
    `tag` that shows a picture, the lines of its images; of another, those of its links
    (each where the article has any, else every line)."""
    lines = page.conversion.lines.url_lines.get(url) or (_link_line(page, url),)
    if not tag:
        return lines
    images = page.conversion.lines.image_lines.get(url, ())
    kept = images if tag in _IMAGE_TAGS else tuple(n for n in lines if n not in images)
    return kept or lines


def _warn_at_links(page: Page, url: str, message: str) -> None:
    """A warning about link `url` (an <a>'s) at each line of the article that writes it."""
    for line in _link_lines(page, url, "a"):
        warn(LOGGER, page.source, line, message)


_IMAGE_TAGS = IMAGE_TAGS
_MEDIA_TAGS = ("video", "audio")
_IMAGES = ("the pages show only the figures the build draws (a function in sqrtdk/figures/, "
           "shown as ![what it shows](NAME.svg \"Caption\"); README, 'Add a figure')")


def _external(tag: str, url: str) -> str:
    """The error for a resource `url` of another site that a `<tag>` would load."""
    said = f"external resource '{url}': pages load nothing from other sites"
    if tag in _IMAGE_TAGS and (tex := formula_of_picture(url)):
        return (f"{said} (their Content-Security-Policy), and this one is "
                + formula_as_math(tex))
    if tag in _IMAGE_TAGS and yuque_formula(url):
        return f"{said} (their Content-Security-Policy), and this one is {YUQUE_FORMULA_AS_MATH}"
    if tag in _IMAGE_TAGS:
        return (f"{said} (their Content-Security-Policy), so the image would be an empty box; "
                f"link to it instead, [what it shows]({url}), or draw it as a figure: "
                f"{_IMAGES}")
    return f"{said} (their Content-Security-Policy); remove it, or link to it instead"


def _marker_line(page: Page, html: str, at: int) -> int:
    """The line of the quote, claim or formula whose marker was left at `html[at]`."""
    for pattern, lines in ((QUOTE_RE, page.quotes.lines), (CLAIM_RE, page.quotes.claim_lines),
                           (MATH_HTML_RE, [f.line for f in page.formulas])):
        m = pattern.match(html, at)
        if m and int(m.group(1)) < len(lines):
            return lines[int(m.group(1))]
    return 0


# a footnote's anchor of another tool, as a pasted post links it: Substack's `#footnote-1`
# and `#footnote-anchor-1`, Word's `#_ftn1` / `#_ftnref1`, Wikipedia's `#cite_note-…`,
# kramdown's and others' `#fn:1`, `#fnref:1`, `#fn1`
_PASTED_NOTE = re.compile(r"footnote(?:-anchor)?-\d+|_ftn(?:ref)?\d+|cite_(?:note|ref)-[\w.-]+|"
                          r"fn(?:ref)?(?::[\w-]+|-?\d+)")


_GITHUB_PREFIX = "user-content-"


def _anchor_hint(frag: str, ids: frozenset[str], target: Page | None,
                 old_html: str | None = None) -> str:
    """What to write for a link to `#frag` that a page lacks, of all its `ids`: the id that
    differs only in case (`#Batch-Two`); the id of the heading whose text GitHub would slug
    to `frag` (`#playground-for-github-markdown` for `## Playground for GitHub Markdown
    {#playground}`: an article's headings carry the ids written after them); the closest id
    (difflib); else what an anchor may be. Before all but the first: the id now of the
    heading that had `frag` in the page's previous HTML, `old_html` (a renamed id)."""
    from pymdownx.slugs import slugify

    names = sorted(ids)
    same = [i for i in names if i.lower() == frag.lower()]
    if same:
        return f"did you mean '#{same[0]}'? (ids are case-sensitive)"
    if old_html is not None and target is not None:
        from .renamed_ids import renamed_to
        renamed = renamed_to(frag, old_html, target.conversion.headings)
        if renamed:
            return renamed
    if frag.startswith(_GITHUB_PREFIX) and len(frag) > len(_GITHUB_PREFIX):
        # copied from GitHub's rendered page, which puts 'user-content-' before every id
        meant = frag[len(_GITHUB_PREFIX):]
        inner = f"did you mean '#{meant}'?" if meant in ids else _anchor_hint(meant, ids, target)
        if inner.startswith("did you mean '#"):
            named, _, why = inner.partition("?")
            why = why.strip()
            more = f"; {why[1:-1]}" if why.startswith("(") and why.endswith(")") else ""
            return (f"{named}? (GitHub's pages put '{_GITHUB_PREFIX}' before every id of a "
                    f"document; here an id is as written{more})")
    github = slugify(case="lower")
    for h in target.conversion.headings if target is not None else ():
        if frag.lower() in (github(h.text, "-"), github(h.text, "-").strip("-")):
            return (f"did you mean '#{h.id}'? (the heading '{h.text}' has the id written after "
                    f"it, {{#{h.id}}}, not the one GitHub would make of its text)")
    if _PASTED_NOTE.fullmatch(frag):      # not "did you mean '#fn-1'", a note's own id
        return ("it is a footnote of the pasted post (Substack's '#footnote-1', Word's "
                "'#_ftn1', Wikipedia's '#cite_note-…'): write it as a footnote, a reference "
                "[^1] in the text and '[^1]: the note' below, and remove the link and the "
                "note's own number")
    close = difflib.get_close_matches(frag, names, n=1, cutoff=0.6)
    if close:
        return f"did you mean '#{close[0]}'?"
    return "link to an id the page has (a heading's {#id}, a box's id, a figure's, an <a name=…>)"


def _check_page(rel: str, html: str, links: PageLinks, site: Site,
                parsed: Mapping[str, PageLinks],
                page: Page | None, base_url: str, by_path: Mapping[str, Page],
                mistakes: Mistakes, previous: Callable[[str], str | None] | None = None
                ) -> None:
    """One page's ids, leftovers and links; each fault (the first of each link) is kept in
    `mistakes`."""
    for dup in links.duplicate_ids:
        with mistakes.seam():
            _duplicate_id(rel, dup, page)
    m = ANY_MARKER_RE.search(html)
    if m:
        line = _marker_line(page, html, m.start()) if page is not None else 0
        near = ANY_MARKERS_RE.sub("…", html[max(m.start() - 30, 0):m.end() + 30])
        if not line:
            # a placeholder that stands for no quote, claim or formula of the author's is a
            # bug of ours (a step that left its token behind): it keeps its traceback
            raise RuntimeError(f"{rel}: a placeholder of the build was left on the page "
                               f"near {near!r} ({html[m.start()]!r})")
        assert page is not None
        mistakes.add(BuildError(page.source, line, f"unprocessed text near '{near}'"))
    written: list[str] = []      # the article's lines, read once for all its empty links
    for href in dict.fromkeys(links.empty_links):
        if page is not None:
            written = written or _file_lines(page.source)
            _warn_empty_link(page, href, written)
    for style in links.styles:
        for url in _CSS_URL.findall(style):
            if url.startswith(_EXTERNAL):
                with mistakes.seam():
                    _fail(rel, page, url, f"external resource '{url}' in a style: pages load "
                                          "nothing from other sites")
    paths = site.paths()
    # each address once: its fault is told at every line that writes it (`_link_lines`)
    for tag, url, rel_attr in dict.fromkeys((tag, url, rel_attr)
                                            for tag, _attr, url, rel_attr in links.urls):
        with mistakes.seam():
            _check_url(rel, page, (tag, url, rel_attr), paths, parsed, base_url, by_path,
                       previous)


def _warn_empty_link(page: Page, href: str, written: list[str]) -> None:
    """A warning at each line of the article that writes a link to `href` with no text: the
    lines of those links (recorded when the page was converted), else the first line
    writing the address (none: the page's layout has it). `written`: the article's lines
    (`_file_lines`)."""
    lines = page.conversion.lines.empty_links.get(href) or ((_link_line(page, href), True),)
    for line, raw in lines:
        if not line:
            continue
        if f"[]({href}" in (written[line - 1] if 0 < line <= len(written) else ""):
            # MyST's (Jupyter Book's) reference `[](#label)`: there the target's title or
            # number fills it; here and on GitHub, nothing shows
            warn(LOGGER, page.source, line,
                 f"'[]({href})' is a link with no text (MyST fills it with what it names; "
                 "here and on GitHub it shows nothing, and a screen reader finds a link "
                 f"with no name); write its words, '[the section]({href})', or remove it")
        elif not raw:
            warn(LOGGER, page.source, line,
                 f"the link to '{href}' has no text: a screen reader finds a link with no "
                 "name; write its words between its brackets, '[its words](…)', or remove "
                 "the link")
        else:
            warn(LOGGER, page.source, line,
                 f"the link to '{href}' has no text (an <a> around nothing, or around an "
                 "image with no alt text): a screen reader finds a link with no name; put "
                 "words between its <a …> and </a>, or remove the link")


def _fail(rel: str, page: Page | None, url: str, message: str, tag: str = "") -> None:
    """The BuildError of a fault of link or resource `url` of page `rel`: at the article's
    line of it, or the templates' when the page's layout has it (an article page's too: it
    was told at the article, with no line, though the article has no such link)."""
    lines = _link_lines(page, url, tag) if page is not None else (0,)
    if page is None or lines == (0,):
        raise BuildError(Path("templates"), 0, f"{rel}: {message}")
    raise combined(BuildError(page.source, line, message) for line in lines)


def _missing_asset(path: str, paths: set[str], page: Page | None, url: str) -> None:
    """A resource under the site's `assets/` that the page's layout loads (the templates'
    `{{ root }}assets/style.css`) and the site does not have: the file of static/ it is
    published from is gone or misspelt. BuildError at that file, the same for every page
    (told once), naming the closest file static/ has; nothing for another address."""
    name = path.removeprefix("assets/")
    if not path.startswith("assets/") or "/" in name or \
            (page is not None and _link_lines(page, url) != (0,)):
        return
    published = [p.removeprefix("assets/") for p in paths
                 if p.startswith("assets/") and "/" not in p.removeprefix("assets/")]
    raise BuildError(Path("static") / name, 0, (
        f"file not found, and the templates load it on every page as 'assets/{name}'; "
        f"restore it (git checkout -- static/{name}), or change the link in templates/ "
        f"({suggest(name, published, 'files under assets/')})"))


def _addresses(rel: str, written: str, base_url: str, pages: Iterable[str]) -> list[str]:
    """Every page of the site (`pages`: their paths in it; not the 404 page, which no link
    needs) addressed from page `rel` as `written` is: relative to it, up as many folders
    as it goes up first ('../en/' and '../zh/' from en/ for '../fr/'), from the site's root
    ('/en/', under the base URL's path) or in full (the base URL's); a folder's index.html
    as its folder ('../en/') unless `written` names a file ('../en/index.htm'). The
    fragment of `written` is kept ('#intro')."""
    parts = urlsplit(written)
    fragment = f"#{parts.fragment}" if parts.fragment else ""
    names_file = "." in posixpath.basename(parts.path)
    prefix = base_url if written.startswith(base_url) else \
        (urlsplit(base_url).path or "/") if written.startswith("/") else ""
    here = posixpath.dirname(rel)
    ups = next(n for n in range(len(parts.path) + 1) if not parts.path.startswith("../" * (n + 1)))
    ups = min(ups, len(here.split("/")) if here else 0)     # no higher than the site's root
    start = posixpath.normpath(posixpath.join(here, *[".."] * ups)) if here else "."
    found = []
    for path in pages:
        name, folder = posixpath.basename(path), posixpath.dirname(path)
        if not name.endswith(".html") or name == "404.html":
            continue
        as_folder = name == "index.html" and not names_file
        if prefix:
            address = prefix + ((folder + "/" if folder else "") if as_folder else path)
        else:
            below = posixpath.relpath(folder or ".", start) + "/" if as_folder else \
                posixpath.relpath(path, start)
            address = "../" * ups + below if below != "./" or not ups else "../" * ups
        found.append(address + fragment)
    return found


# Markdown Nice's (the WeChat editor's) footnote: a link whose address is the note's text,
# `[term](the note, a sentence "its title")`: Chinese text with a full-width sentence mark,
# or 8 characters or more of Chinese text that name no file (no '/', no '.')
_CJK = "\u3400-\u9fff\uf900-\ufaff"
_NOTE_AS_ADDRESS = re.compile(f"(?=.*[{_CJK}])(?:.*[\uff0c\u3002\uff1b\uff01\uff1f\uff1a\u3001]"
                              "|[^/.]{8,}$)")

# Pelican's links to the files of its blog, `{filename}/post.md`, `{static}/a.pdf`, `{tag}x`
_PELICAN_LINK = re.compile(r"\{(?:filename|static|attach|tag|category|author|index|drafts)\}")


def _closest_pages(written: str, addresses: list[str]) -> str:
    """What to do about a link to `written`, a page the site lacks: "did you mean 'x'?" with
    the `addresses` of the site's pages close to it (difflib's ratio, as errors.suggest),
    closest first (of those as close, the ones as long first: '../en/' before '../' for
    '../fr/'); else the pages, closest first. Or a full address, for a page elsewhere."""
    def ratio(address: str) -> float:
        return difflib.SequenceMatcher(None, written, address).ratio()
    ranked = sorted(addresses, key=lambda a: (-ratio(a), abs(len(a) - len(written)), a))
    close = [a for a in ranked[:3] if ratio(a) >= 0.6]
    elsewhere = "a full address ('https://…') for a page elsewhere"
    if close:
        return ("did you mean " + " or ".join(f"'{a}'" for a in close) + "? (a page of this "
                f"site, addressed as the browser shows it); or link to {elsewhere}")
    shown = ", ".join(f"'{a}'" for a in ranked[:5]) + (", …" if len(ranked) > 5 else "")
    return ("link to a page of this site, addressed as the browser shows it"
            + (f" (its pages, closest first: {shown})" if ranked else "")
            + f", or to {elsewhere}")


_URL_SPACE = "".join(chr(c) for c in range(0x21))       # C0 controls and the space


def url_scheme(url: str) -> str:
    """The scheme of `url` as a browser reads it, lower case ('' for none): the URL standard
    removes ASCII tabs and newlines anywhere and C0 controls and spaces at either end, so
    `java&#9;script:` and ` JAVASCRIPT:` are javascript: to a browser."""
    cleaned = re.sub(r"[\t\n\r]", "", url).strip(_URL_SPACE)
    m = re.match(r"([A-Za-z][A-Za-z0-9+.-]*):", cleaned)
    return m.group(1).lower() if m else ""


def _host(url: str) -> str:
    """The host of an absolute `url` ('' for none, or for an address urlsplit refuses)."""
    try:
        return urlsplit(url.strip()).hostname or ""
    except ValueError:
        return ""


# schemes a link of a web page cannot open for a reader, and why
_DEAD_SCHEMES = {
    "data": "browsers refuse to open a data: address from a link",
    "file": "it names a file on the reader's own machine, which a web page may not open",
    "vbscript": "no browser runs VBScript",
    # an item in the author's own library of a desktop program, as a note written in it or
    # exported from it links one: Zotero's annotation ('zotero://open-pdf/library/items/…',
    # 'zotero://select/…'), a note of an Obsidian vault, Logseq's graph, Bear, DEVONthink,
    # Evernote; the reader has neither the program nor the author's library (GitHub shows
    # such a link as its text)
    "zotero": "it opens an item of the author's own Zotero library, which a reader does "
              "not have",
    "obsidian": "it opens a note of the author's own Obsidian vault, which a reader does not "
                "have",
    "logseq": "it opens a page of the author's own Logseq graph, which a reader does not "
              "have",
    "bear": "it opens a note of the author's own Bear app, which a reader does not have",
    "x-devonthink-item": "it opens an item of the author's own DEVONthink database, which a "
                         "reader does not have",
    "evernote": "it opens a note of the author's own Evernote, which a reader does not have",
}


def scheme_refusal(url: str) -> str:
    """Why the site's check stops the build at a link to `url` for its scheme alone
    ('it opens an item of the author's own Zotero library, …'); '' where it does not."""
    scheme = url_scheme(url)
    return "it would run a script" if scheme == "javascript" else _DEAD_SCHEMES.get(scheme, "")


def refused_scheme(url: str) -> bool:
    """Whether the site's check stops the build at a link to `url` for its scheme alone
    (`javascript:`, `vbscript:`, `file:`, `data:`), at the link's line, saying what to
    write: a message about the same link from elsewhere (GitHub's safe mode empties such
    an address) would only be a second one, with advice that does not fit."""
    scheme = url_scheme(url)
    return scheme == "javascript" or scheme in _DEAD_SCHEMES


def _figure_named(path: str, paths: set[str]) -> str | None:
    """The figure a missing image's `path` names as an article names it (`NAME.svg`, for the
    build's `figures/NAME.<lang>.svg`), or None."""
    name = posixpath.basename(path)
    if not name.endswith(".svg"):
        return None
    stem = name.removesuffix(".svg")
    drawn = f"figures/{stem}."
    return stem if "." not in stem and any(p.startswith(drawn) and p.endswith(".svg")
                                           for p in paths) else None


def _check_url(rel: str, page: Page | None, link: tuple[str, str, str], paths: set[str],
               parsed: Mapping[str, PageLinks], base_url: str, by_path: Mapping[str, Page],
               previous: Callable[[str], str | None] | None = None) -> None:
    """One link or resource of page `rel` (`link`: its tag, address and rel=): BuildError at
    its first fault; warnings for an address only the author's machine reaches or one with
    spaces. `previous`: as check_site's."""
    tag, url, rel_attr = link

    def fail(url: str, message: str) -> None:
        _fail(rel, page, url, message, tag)

    scheme = url_scheme(url)
    if scheme == "javascript":
        fail(url, f"link '{url}' would run a script, which the page's "
                  "Content-Security-Policy blocks; link to a page or an anchor instead")
    if scheme in ("http", "https") and not _host(url):
        fail(url, f"link '{url}' names no site after '{scheme}://' (a reader's browser "
                  f"cannot open it); write the whole address, e.g. '{scheme}://example.org/"
                  "page', or a link to a page of this site such as '../en/'")
    if tag == "a" and scheme in _DEAD_SCHEMES:
        fail(url, f"link '{url}' leads nowhere for a reader: {_DEAD_SCHEMES[scheme]}; link "
                  "to a page, or write the address as code (`…`), which is no link")
    if url.startswith(("mailto:", "data:")):
        return
    if (own := on_own_machine(url)) is not None:
        what = "image" if tag in _IMAGE_TAGS else tag if tag in _MEDIA_TAGS else "link"
        fail(url, f"{what} '{unquote(url)}' {own}; "
                  + (f"draw it as a figure ({_IMAGES}), or leave it out" if what != "link" else
                     "link to where the file is published, or leave the link out"))
    if tag in _IMAGE_TAGS and (sized := size_told(url)) is not None:
        fail(url, sized)
    target = _internal(rel, url, base_url)
    if target is None:
        if tag != "a" and not (tag == "link" and rel_attr in ("canonical", "alternate")):
            fail(url, _external(tag, url))
        if tag == "a" and page is not None and (meant := _redirect_target(url)):
            _warn_at_links(page, url, f"link through {urlsplit(url).hostname}'s redirect page "
                           "(as a post copied from that site holds every outside link), which "
                           "shows the reader that site's notice before the address; link to "
                           f"the address itself, {meant}")
        if tag == "a" and page is not None and _only_here(url):
            _warn_at_links(page, url,
                           f"link to '{url}', an address that only works on your own machine or "
                           "network, not for a reader; if it is an instruction, write it as code "
                           f"(`{url}`), which is no link")
        return
    if tag == "link" and rel_attr in ("canonical", "alternate"):
        return
    path, frag = target
    spaced = page.conversion.lines.spaced.get(unquote(url)) if page and tag == "a" else None
    if path not in paths and path.rstrip("/") + "/index.html" not in paths \
            and path + "/index.html" not in paths:
        written = unquote(url) if spaced else url
        if unquote(url).startswith("@/"):
            fail(url, f"link to '{unquote(url)}': '@/' is Zola's link to a file of its own "
                      "content, which this site does not have; link to a page of this site "
                      "('#id', '../en/'), or to the full address ('https://…') where that "
                      "page is published")
        if pelican := _PELICAN_LINK.match(unquote(url)):
            fail(url, f"link to '{unquote(url)}': '{pelican.group(0)}' is Pelican's link to a "
                      "file of its own blog, which this site does not have; link to a page "
                      "of this site ('#id', '../en/'), or to the full address ('https://…') "
                      "where that file is published")
        if tag == "a" and _NOTE_AS_ADDRESS.match(unquote(url)):
            fail(url, f"link to '{unquote(url)}', a file the site does not have: an address "
                      "that reads as a sentence is Markdown Nice's footnote (the WeChat "
                      "editor writes a note as a link whose address is the note, [term](the "
                      "note \"its title\")); write it as a footnote: the linked words with a "
                      f"reference [^name] after them, and '[^name]: {unquote(url)}' below")
        if tag in _MEDIA_TAGS:
            fail(url, f"{tag} '{url}', a file the site does not have: the site publishes no "
                      f"{tag} files; remove the <{tag}>, or link to where it is published, "
                      "[what it shows](https://…)")
        _missing_asset(path, paths, page, url)
        if tag in _IMAGE_TAGS and (name := _figure_named(path, paths)):
            fail(url, f"image '{url}' names figure '{name}', which an HTML <{tag}> does not "
                      f"show (the page has no such file): write it as its own paragraph, "
                      f"![what it shows]({name}.svg \"Caption\"), once in the page; its "
                      "size follows the page's column, so a width is not needed")
        fail(url, f"image '{url}', a file the site does not have: {_IMAGES}; remove it, "
                  "or link to where the image is published" if tag in _IMAGE_TAGS else
             f"link to '{written}', a file the site does not "
             "have" + (" (and GitHub shows the link as text: an address has no spaces)"
                       if spaced else "") +
             f"; {_closest_pages(written, _addresses(rel, written, base_url, parsed))}")
    page_path = path if path in parsed else path.rstrip("/") + "/index.html"
    if frag and page_path in parsed and frag not in parsed[page_path].ids:
        fail(url, f"link to '{url}': {page_path} has no anchor '#{frag}'"
             + (" (and GitHub shows the link as text: an address has no spaces)"
                if spaced else "") + "; "
             + _anchor_hint(frag, parsed[page_path].ids, by_path.get(page_path),
                            previous(page_path) if previous is not None else None))
    if spaced and page is not None:
        _warn_at_links(page, url, f"link to '{unquote(url)}', an address written with spaces: "
                       "GitHub ends an address at a space and shows the link as text, the page "
                       f"links it; {spaced}")
