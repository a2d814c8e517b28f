"""End to end: the whole site, built once per session into a temporary folder (conftest's
`site_build`), read back as a reader's browser and a crawler would get it. Facts about the
article (how many figures, which sections) come from the article itself, never from here."""
from __future__ import annotations

import json
import re
import xml.etree.ElementTree as etree
from html.parser import HTMLParser
from itertools import takewhile
from typing import Any

import pytest
from helpers import Tree

from sqrtdk.settings import load_settings
from sqrtdk.web.embed import span_text
from sqrtdk.web.markers import ANY_MARKER_RE
from sqrtdk.web.publish import unhashed_name
from sqrtdk.web.quoting import format_number

pytestmark = pytest.mark.author    # reads the author's files: runs again on the author's copy


def quotes(html: str) -> list[tuple[str, str, str]]:
    """(data-key, data-format, text) of every quoted number (prose, widgets, formulas)."""
    out = []
    for el in Tree(html).elements:
        a = el["attrs"]
        if "data-key" in a and "data-format" in a:   # data-shown: the digits a paragraph
            out.append((a["data-key"], a.get("data-shown") or a["data-format"], el["text"]))   # relating it gave
    return out


def meta(html: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for el in Tree(html).elements:
        if el["tag"] == "meta":
            key = el["attrs"].get("property") or el["attrs"].get("name")
            if key:
                out.setdefault(key, []).append(el["attrs"].get("content", ""))
    return out


def test_every_language_and_the_files_around_them(site_build: dict[str, Any]) -> None:
    site = site_build["site"]
    for rel in ("index.html", "404.html", "sitemap.xml", "robots.txt", "_headers",
                ".sqrtdk-site", *(f"{lang}/index.html" for lang in site_build["languages"])):
        assert (site / rel).is_file(), rel
    sheets = [e["attrs"]["href"] for e in Tree((site / "index.html").read_text("utf-8")).elements
              if e["tag"] == "link" and e["attrs"].get("rel") == "stylesheet"]
    assert sheets and all((site / href).is_file() for href in sheets)


def test_build_logs_one_line_per_stage(site_build: dict[str, Any]) -> None:
    names = [line.split()[0] for line in site_build["logs"]]
    later = ["science", "figures", "pages", "site", "publish", "write"]
    first = ["pages", "site", "science", "figures", "publish", "write"]   # results known:
    assert names in (["inputs", *later], ["inputs", *first],             # pages checked first
                     ["inputs", "pages", "site", *later]), names   # ... and made again


def test_lang_hreflang_and_canonical_both_ways(site_build: dict[str, Any]) -> None:
    base = site_build["settings"].base_url
    tags = {lang: site_build["strings"][lang].html_lang for lang in site_build["languages"]}
    for lang in site_build["languages"]:
        tree = Tree(site_build["html"][lang])
        html_el = next(e for e in tree.elements if e["tag"] == "html")
        assert html_el["attrs"]["lang"] == tags[lang]
        links = [e["attrs"] for e in tree.elements if e["tag"] == "link"]
        alternates = {a["hreflang"]: a["href"] for a in links if a.get("rel") == "alternate"}
        assert alternates == {**{t: f"{base}{k}/" for k, t in tags.items()}, "x-default": base}
        assert [a["href"] for a in links if a.get("rel") == "canonical"] == [f"{base}{lang}/"]


def test_sharing_cards_and_their_images(site_build: dict[str, Any]) -> None:
    base = site_build["settings"].base_url
    locales = {lang: site_build["strings"][lang].language["og_locale"]
               for lang in site_build["languages"]}
    for lang in site_build["languages"]:
        m = meta(site_build["html"][lang])
        for key in ("og:title", "og:description", "og:url", "og:image", "og:image:alt",
                    "twitter:card", "og:locale"):
            assert m.get(key) and all(m[key]), key
        assert m["og:locale"] == [locales[lang]]
        assert sorted(m["og:locale:alternate"]) == sorted(v for k, v in locales.items() if k != lang)
        image = m["og:image"][0]
        assert image.startswith(base) and m["og:url"] == [f"{base}{lang}/"]
        png = (site_build["site"] / image[len(base):]).read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
        assert (width, height) == (int(m["og:image:width"][0]), int(m["og:image:height"][0]))
        assert (width, height) == (1200, 630)


def test_every_page_with_an_address_of_its_own_has_a_sharing_card(
        site_build: dict[str, Any]) -> None:
    """The root page, the address a reader shares first, had a canonical address, a title and
    a description but no Open Graph card: a link to it showed no picture. Every page of the
    site with a canonical address (the ones a link should preview) has the card: title,
    description, its own address, a locale, and a 1200 x 630 PNG of the site."""
    site = site_build["site"]
    base = site_build["settings"].base_url
    carded = []
    for path in sorted(site.rglob("*.html")):
        html = path.read_text(encoding="utf-8")
        canonical = [e["attrs"]["href"] for e in Tree(html).elements
                     if e["tag"] == "link" and e["attrs"].get("rel") == "canonical"]
        if not canonical:
            continue
        m = meta(html)
        rel = path.relative_to(site).as_posix()
        for key in ("og:type", "og:title", "og:description", "og:url", "og:image",
                    "og:image:alt", "og:locale", "twitter:card"):
            assert m.get(key) and all(m[key]), (rel, key)
        assert m["og:url"] == canonical, rel
        image = m["og:image"][0]
        assert image.startswith(base), (rel, image)
        png = (site / image[len(base):]).read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n", rel
        size = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
        assert size == (int(m["og:image:width"][0]), int(m["og:image:height"][0])), rel
        carded.append(rel)
    assert "index.html" in carded, carded


def test_sitemap_lists_every_language_with_alternates(site_build: dict[str, Any]) -> None:
    base = site_build["settings"].base_url
    root = etree.fromstring((site_build["site"] / "sitemap.xml").read_bytes())
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
    urls = root.findall("s:url", ns)
    assert sorted(u.find("s:loc", ns).text for u in urls) == \
        sorted(f"{base}{lang}/" for lang in site_build["languages"])
    for u in urls:
        hreflangs = {link.get("hreflang") for link in u.findall("x:link", ns)}
        assert hreflangs == {*(site_build["strings"][k].html_lang for k in site_build["languages"]),
                             "x-default"}
    robots = (site_build["site"] / "robots.txt").read_text(encoding="utf-8")
    assert f"Sitemap: {base}sitemap.xml" in robots


def test_404_offers_every_language_from_any_address(site_build: dict[str, Any]) -> None:
    html = (site_build["site"] / "404.html").read_text(encoding="utf-8")
    base_path = re.sub(r"^https?://[^/]+", "", site_build["settings"].base_url)
    hrefs = [e["attrs"]["href"] for e in Tree(html).elements if e["tag"] == "a"]
    assert sorted(hrefs) == sorted(f"{base_path}{lang}/" for lang in site_build["languages"])
    sources = [e["attrs"].get("src") or e["attrs"].get("href") for e in Tree(html).elements
               if e["tag"] in ("script", "link") and e["attrs"].get("rel") != "icon"]
    assert all(s.startswith(base_path) for s in sources if s)
    # it says, in every language, that the address has no page, and asks not to be indexed
    elements = Tree(html).elements
    said = {e["attrs"].get("lang"): e["text"].strip() for e in elements if e["tag"] == "p"}
    from sqrtdk.settings import load_strings
    strings = load_strings(site_build["opts"].content_dir, tuple(site_build["languages"]))
    assert said == {st.html_lang: st.ui["not_found"] for st in strings.values()}
    assert any(e["tag"] == "meta" and e["attrs"].get("name") == "robots" and
               "noindex" in e["attrs"].get("content", "") for e in elements)


def test_the_404_heading_says_in_every_language_that_the_page_is_missing(
        site_build: dict[str, Any]) -> None:
    """The 404 page's <h1> is what a screen reader announces first and what its heading list
    offers: it says that the address has no page, in every language (strings.toml
    not_found_title), each part in its own language. It was the site's title, the same as the
    language picker's, so a reader who moved by headings heard no word of what had happened."""
    elements = Tree((site_build["site"] / "404.html").read_text(encoding="utf-8")).elements
    at = next(i for i, e in enumerate(elements) if e["tag"] == "h1")
    inside = list(takewhile(lambda e: e["depth"] > elements[at]["depth"], elements[at + 1:]))
    heading = "".join(e["text"] for e in [elements[at], *inside])
    by_lang = {e["attrs"].get("lang"): e["text"].strip() for e in inside}
    for st in site_build["strings"].values():
        assert st.ui["not_found_title"] in heading, (heading, st.html_lang)
        if len(site_build["strings"]) > 1:
            assert by_lang.get(st.html_lang) == st.ui["not_found_title"], by_lang


def lookup(data: Any, path: str) -> Any:
    """The value at a quoted number's dotted data-key. Unlike `at`, a dict key may itself
    contain dots: sweep.claims["spread.sqrt_not_linear"].worst is quoted as
    sweep.claims.spread.sqrt_not_linear.worst. KeyError if nothing matches."""
    if not path:
        return data
    if isinstance(data, list):
        head, _, rest = path.partition(".")
        return lookup(data[int(head)], rest)
    parts = path.split(".")
    for i in range(len(parts), 0, -1):
        key = ".".join(parts[:i])
        if isinstance(data, dict) and key in data:
            return lookup(data[key], ".".join(parts[i:]))
    raise KeyError(path)


@pytest.mark.parametrize("index", [0, 1])
def test_every_quoted_number_equals_results(site_build: dict[str, Any], index: int) -> None:
    lang = site_build["languages"][index]
    found = quotes(site_build["html"][lang])
    assert found, "the article quotes no result"
    # the build quotes the sweep (figures/sweep.json) beside results.json
    sweep = json.loads(site_build["opts"].sweep_file.read_text(encoding="utf-8"))
    results = {**site_build["results"], "sweep": sweep}
    for key, fmt, text in found:
        value = lookup(results, key)
        kind, _, digits = fmt.partition(":")
        expected = value if isinstance(value, str) else format_number(kind, float(value),
                                                                       int(digits or 0))
        # a spread quoted as the difference of its operands as their table shows them
        expected = span_text(key, results, fmt) or expected
        assert text == expected, (key, fmt, text)


def test_every_language_quotes_the_same_results(site_build: dict[str, Any]) -> None:
    keys = [{k for k, _, _ in quotes(site_build["html"][lang])} for lang in site_build["languages"]]
    assert all(k == keys[0] for k in keys)


@pytest.mark.parametrize("index", [0, 1])
def test_no_leftover_markup_text(site_build: dict[str, Any], index: int) -> None:
    lang = site_build["languages"][index]
    html = site_build["html"][lang]
    visible = " ".join(VisibleText(html).parts)
    assert "{{" not in visible and "}}" not in visible and "{%" not in visible
    assert not ANY_MARKER_RE.search(html)
    assert "katex-error" not in html
    # a `$` the reader sees is one the author escaped (`\$`), never a formula left as text
    source = (site_build["opts"].content_dir / lang / "index.md").read_text(encoding="utf-8")
    assert visible.count("$") <= source.count("\\$"), "a '$' left in the text"


class VisibleText(HTMLParser):
    """The text a reader sees as prose: outside scripts, styles, code and typeset math."""

    SKIP = {"script", "style", "code", "pre", "annotation"}

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.stack: list[bool] = []      # per open element: is it (inside) skipped text?
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("br", "img", "hr", "input", "source", "meta", "link", "wbr"):
            return
        classes = (dict(attrs).get("class") or "").split()
        self.stack.append(bool(self.stack and self.stack[-1]) or tag in self.SKIP
                          or "math" in classes)    # the build's box around each formula

    def handle_endtag(self, tag: str) -> None:
        if self.stack:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        if not (self.stack and self.stack[-1]):
            self.parts.append(data)


@pytest.mark.parametrize("index", [0, 1])
def test_footnotes_have_notes_and_back_references(site_build: dict[str, Any], index: int) -> None:
    tree = Tree(site_build["html"][site_build["languages"][index]])
    ids = [e["attrs"]["id"] for e in tree.elements if "id" in e["attrs"]]
    assert len(ids) == len(set(ids)), "ids must be unique on the page"
    links = [e["attrs"] for e in tree.elements if e["tag"] == "a"]
    refs = [a["href"][1:] for a in links if "footnote-ref" in a.get("class", "")]
    backs = [a["href"][1:] for a in links if "footnote-backref" in a.get("class", "")]
    assert refs and all(ref in ids for ref in refs)      # each reference reaches its note
    # each reference (a note referenced twice has fnref-x and fnref2-x) gets a back-reference
    ref_ids = {i for i in ids if i.startswith("fnref")}   # fnref-x, fnref2-x: the <sup>s
    assert set(backs) == ref_ids and len(backs) == len(refs)


@pytest.mark.parametrize("index", [0, 1])
def test_figures_are_localized_with_a_phone_variant(site_build: dict[str, Any], index: int) -> None:
    lang = site_build["languages"][index]
    page_dir = site_build["site"] / lang
    tree = Tree(site_build["html"][lang])
    figures = [e for e in tree.elements if e["tag"] == "figure"]
    assert figures
    for el in tree.elements:
        if el["tag"] == "img" and "picture" in el["ancestors"]:
            assert el["attrs"]["alt"].strip()
            assert unhashed_name(el["attrs"]["src"]).endswith(f".{lang}.svg")
            assert (page_dir / el["attrs"]["src"]).resolve().is_file()
        if el["tag"] == "source":
            assert unhashed_name(el["attrs"]["srcset"]).endswith(f".{lang}.narrow.svg")
            assert (page_dir / el["attrs"]["srcset"]).resolve().is_file()


@pytest.mark.parametrize("index", [0, 1])
def test_contents_match_the_headings(site_build: dict[str, Any], index: int) -> None:
    lang = site_build["languages"][index]
    html = site_build["html"][lang]
    nav = html[html.index('<nav class="toc"'):html.index("</nav>", html.index('<nav class="toc"'))]
    links = [e for e in Tree(nav).elements if e["tag"] == "a"]      # each page parsed once
    toc = [e["attrs"]["href"][1:] for e in links]
    article = Tree(html[html.index("<article"):]).elements
    heads = [e["attrs"]["id"] for e in article
             if e["tag"] in ("h2", "h3") and e["attrs"].get("id") not in (None, "footnotes-title")]
    assert toc == heads
    for ident in toc:   # the same visible words, entities and math included
        toc_text = next(e["text"] for e in links if e["attrs"]["href"] == f"#{ident}")
        head = next(e for e in article if e["attrs"].get("id") == ident)
        assert head["text"].removesuffix("#").strip() == toc_text.strip()
        assert "&" not in toc_text or "&amp;" not in toc_text


def test_every_language_has_the_same_sections(site_build: dict[str, Any]) -> None:
    ids = []
    for lang in site_build["languages"]:
        html = site_build["html"][lang]
        ids.append([e["attrs"]["id"] for e in Tree(html[html.index("<article"):]).elements
                    if e["tag"] in ("h2", "h3") and "id" in e["attrs"]])
    assert all(i == ids[0] for i in ids) and ids[0]


REPRODUCE_FENCE = re.compile(r"^[ \t>]*[`~]{3,}[ \t]*reproduce[ \t]*\n[ \t>]*(\S+)", re.M)
SOURCE_LINK = re.compile(r"\]\((\.\./source/[^)\s]+)\)")


def article_source(site_build: dict[str, Any], lang: str) -> str:
    """The Markdown the page was built from (what it must show is read from there)."""
    return (site_build["opts"].content_dir / lang / "index.md").read_text(encoding="utf-8")


def reproduce_boxes(html: str) -> list[dict[str, Any]]:
    """Each reproduce box of a page, in order: its code, its printed output, its links."""
    tree = Tree(html).elements
    boxes = [i for i, e in enumerate(tree) if e["tag"] == "div"
             and "reproduce" in e["attrs"].get("class", "").split()]
    out = []
    for at in boxes:
        depth = tree[at]["depth"]
        inside = list(takewhile(lambda e: e["depth"] > depth, tree[at + 1:]))
        out.append({"code": [e["text"] for e in inside if e["tag"] == "code"],
                    "output": [e["text"] for e in inside if e["tag"] == "samp"],
                    "links": [e["attrs"]["href"] for e in inside if e["tag"] == "a"]})
    return out


def test_reproduce_boxes_show_the_code_that_ran(site_build: dict[str, Any]) -> None:
    """Each box the article asks for (```reproduce naming a snippet), in the article's order,
    shows that snippet's code and what it printed when the build ran it, and links its
    experiment's published source; a box lost or filled with another snippet fails."""
    snippets = site_build["results"]["reproduce"]
    asked = {lang: REPRODUCE_FENCE.findall(article_source(site_build, lang))
             for lang in site_build["languages"]}
    if not any(asked.values()):
        pytest.skip("the article has no reproduce box")
    for lang, names in asked.items():
        boxes = reproduce_boxes(site_build["html"][lang])
        assert len(boxes) == len(names), (lang, names, len(boxes))
        for name, box in zip(names, boxes):
            s = snippets[name]
            assert box["code"] == [s["code"].rstrip()], (lang, name)
            assert box["output"] == [s["stdout"].rstrip()] and s["stdout"].strip(), (lang, name)
            assert box["links"] == ([f"../source/{s['source']}.html"] if s.get("source")
                                    else []), (lang, name)


def test_published_experiment_sources_are_linked(site_build: dict[str, Any]) -> None:
    """Every link to an experiment's source (written in the article, or under a reproduce
    box) is on the page and reaches a published page that shows that module's code."""
    snippets = site_build["results"]["reproduce"]
    checked = 0
    for lang in site_build["languages"]:
        text = article_source(site_build, lang)
        expected = set(SOURCE_LINK.findall(text)) | {
            f"../source/{snippets[n]['source']}.html" for n in REPRODUCE_FENCE.findall(text)
            if snippets[n].get("source")}
        hrefs = {e["attrs"]["href"] for e in Tree(site_build["html"][lang]).elements
                 if e["tag"] == "a" and "/source/" in e["attrs"].get("href", "")}
        assert hrefs == expected, lang
        for href in hrefs:
            published = (site_build["site"] / lang / href).resolve()
            assert published.is_file(), href
            shown = "".join(e["text"] for e in Tree(published.read_text("utf-8")).elements
                            if e["tag"] == "html")
            name = unhashed_name(href).rsplit("/", 1)[-1][:-len(".html")]
            module = site_build["project"] / "sqrtdk" / "science" / name
            lines = [x.strip() for x in module.read_text("utf-8").splitlines() if x.strip()]
            assert lines and all(x in shown for x in lines), href
            checked += 1
    if not checked:
        pytest.skip("the article links no experiment source")


def test_the_project_settings_are_what_was_built(site_build: dict[str, Any]) -> None:
    """The built site has a page for each configured language and no other, and its root page
    offers exactly those (hreflang alternates), whatever languages site.toml lists."""
    settings = load_settings(site_build["opts"].content_dir)
    site = site_build["site"]
    pages = sorted(p.parent.name for p in site.glob("*/index.html"))
    assert pages == sorted(settings.languages)
    links = [e["attrs"] for e in Tree((site / "index.html").read_text("utf-8")).elements
             if e["tag"] == "link" and e["attrs"].get("rel") == "alternate"]
    offered = sorted(a["href"] for a in links if a.get("hreflang") != "x-default")
    assert offered == sorted(f"{settings.base_url}{lang}/" for lang in settings.languages)


def test_every_page_s_title_holds_the_words_of_its_heading(site_build: dict[str, Any]) -> None:
    """A browser tab, a bookmark and a screen reader's list of windows tell pages apart by
    their <title>: each published page's title holds its <h1>'s words (the pages of the
    experiments' sources were all titled with the site's name alone, one like the next)."""
    pages = sorted(site_build["site"].rglob("*.html"))
    assert pages
    for page in pages:
        elements = Tree(page.read_text("utf-8")).elements
        titles = [" ".join(e["text"].split()) for e in elements if e["tag"] == "title"]
        headings = [" ".join(e["text"].split()) for e in elements if e["tag"] == "h1"]
        assert len(titles) == 1 and headings, page
        assert headings[0] in titles[0], (str(page.relative_to(site_build["site"])), titles[0],
                                          headings[0])


def test_no_two_pages_share_a_title(site_build: dict[str, Any]) -> None:
    """Each published page has a <title> no other page has: the 404 page, reached from a
    mistyped address, was titled as the site's root page, so the tab and a screen reader
    gave no hint that the address had no page."""
    by_title: dict[str, list[str]] = {}
    for page in sorted(site_build["site"].rglob("*.html")):
        titles = [" ".join(e["text"].split()) for e in Tree(page.read_text("utf-8")).elements
                  if e["tag"] == "title"]
        by_title.setdefault(titles[0] if titles else "", []).append(
            str(page.relative_to(site_build["site"])))
    assert by_title and "" not in by_title
    assert not {t: p for t, p in by_title.items() if len(p) > 1}, by_title


class _LangOfText(HTMLParser):
    """Each character of the <h1>'s text with the `lang` it is read in (the nearest one)."""

    def __init__(self) -> None:
        super().__init__()
        self.langs: list[str] = []
        self.chars: list[tuple[str, str]] = []
        self.h1 = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("meta", "link", "br", "img", "input"):
            return
        a = dict(attrs)
        self.langs.append(a.get("lang") or (self.langs[-1] if self.langs else ""))
        self.h1 += tag == "h1"

    def handle_endtag(self, tag: str) -> None:
        self.h1 -= tag == "h1"
        self.langs.pop()

    def handle_data(self, data: str) -> None:
        if self.h1:
            self.chars += [(c, self.langs[-1]) for c in data]


@pytest.mark.parametrize("name", ["index.html", "404.html"])
def test_the_root_pages_title_marks_each_language_with_its_own_lang(site_build, name) -> None:
    """The language picker's <h1> (site.toml's title, naming the site in every language):
    Chinese characters are read as Chinese, Latin letters as the page's language (issue 20)."""
    strings = site_build["strings"]
    by_script = {st.language.get("script", "latin"): st.html_lang for st in strings.values()}
    if len(by_script) < 2:
        pytest.skip("the site has one script")
    p = _LangOfText()
    p.feed((site_build["site"] / name).read_text("utf-8"))
    cjk = [lang for c, lang in p.chars if "\u4e00" <= c <= "\u9fff"]
    latin = [lang for c, lang in p.chars if c.isascii() and c.isalpha()]
    assert set(cjk) <= {by_script["cjk"]}
    assert set(latin) <= {by_script["latin"]}

