"""End to end: build both languages into tmp_path, check the HTML a reader gets, and that a
second build (without the cache) is byte-identical."""
from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest

from sqrtdk import config
from sqrtdk.pipeline import BuildOptions, build
from sqrtdk.quoting import format_number


class Page(HTMLParser):
    """Collects what the checks need from one built page."""

    SKIP = {"script", "style", "code", "pre", "annotation", "math"}

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.ids: list[str] = []
        self.headings: list[str] = []
        self.hrefs: list[tuple[str, dict]] = []
        self.srcs: list[str] = []
        self.classes: list[str] = []
        self.quotes: list[tuple[str, str, str]] = []   # (data-key, data-format, text)
        self.text: list[str] = []
        self.alternates: dict[str, str] = {}
        self.html_lang = ""
        self._stack: list[tuple[str, dict]] = []
        self._open_quotes: list[tuple[int, int]] = []   # (stack depth, index in quotes)
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "html":
            self.html_lang = a.get("lang", "")
        if "id" in a:
            self.ids.append(a["id"])
            if tag in ("h2", "h3") and a["id"] not in ("toc-title", "footnotes-title"):
                self.headings.append(a["id"])
        if tag == "link" and a.get("rel") == "alternate":
            self.alternates[a["hreflang"]] = a["href"]
        if "href" in a:
            self.hrefs.append((a["href"], a))
        if "src" in a:
            self.srcs.append(a["src"])
        self.classes.extend((a.get("class") or "").split())
        if tag not in ("meta", "link", "img", "br", "hr", "input"):
            self._stack.append((tag, a))
        if "data-key" in a:  # a quoted result, in prose or (via KaTeX's \htmlData) in math
            self.quotes.append((a["data-key"], a["data-format"], ""))
            self._open_quotes.append((len(self._stack), len(self.quotes) - 1))

    def handle_endtag(self, tag):
        while self._stack:
            t, _ = self._stack.pop()
            while self._open_quotes and self._open_quotes[-1][0] > len(self._stack):
                self._open_quotes.pop()
            if t == tag:
                break

    def handle_data(self, data):
        for _, i in self._open_quotes:
            k, f, text = self.quotes[i]
            self.quotes[i] = (k, f, text + data)
        if any(t in self.SKIP for t, _ in self._stack):
            return
        if any("katex" in (a.get("class") or "") for _, a in self._stack):
            return
        self.text.append(data)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict:
    root = tmp_path_factory.mktemp("build")
    opts = BuildOptions(out=root / "site", figures_dir=root / "figures", cache_dir=root / "cache")
    logs: list[str] = []
    build(opts, log=logs.append)
    results = json.loads((root / "figures" / "results.json").read_text(encoding="utf-8"))
    pages = {lang: Page((root / "site" / lang / "index.html").read_text(encoding="utf-8"))
             for lang in config.LANGUAGES}
    return {"root": root, "opts": opts, "results": results, "pages": pages, "logs": logs}


def lookup(results: dict, key: str):
    value = results
    for part in key.split("."):
        value = value[int(part)] if isinstance(value, list) else value[part]
    return value


def test_build_logs_one_line_per_stage(built):
    names = [line.split()[0] for line in built["logs"]]
    assert names == ["experiments", "figures", "markdown", "templates", "write"]


def test_site_has_root_and_both_languages(built):
    site = built["root"] / "site"
    for rel in ("index.html", "zh/index.html", "en/index.html", "assets/style.css",
                "assets/katex/katex.min.css", ".sqrtdk-site"):
        assert (site / rel).is_file(), rel


@pytest.mark.parametrize("lang,html_lang", [("zh", "zh-CN"), ("en", "en")])
def test_html_lang_and_hreflang_both_ways(built, lang, html_lang):
    page = built["pages"][lang]
    assert page.html_lang == html_lang
    assert set(page.alternates) == {"zh-CN", "en", "x-default"}
    assert page.alternates["zh-CN"].endswith("/zh/") and page.alternates["en"].endswith("/en/")


@pytest.mark.parametrize("lang", config.LANGUAGES)
def test_every_quoted_number_equals_results(built, lang):
    quotes = built["pages"][lang].quotes
    assert len(quotes) >= 40
    for key, fmt, text in quotes:
        kind, _, digits = fmt.partition(":")
        value = lookup(built["results"], key)
        expected = value if isinstance(value, str) else \
            format_number(kind, float(value), int(digits or 0))
        assert text == expected, (key, fmt)


def test_both_languages_quote_the_same_results(built):
    zh, en = ({k for k, _, _ in built["pages"][lang].quotes} for lang in ("zh", "en"))
    assert zh == en
    for key in ("spread.sd_small", "spread.sd_large", "spread.ratio", "spread.ratio_theory",
                "saturation.quoted.p_winner", "saturation.quoted.sensitivity",
                "jacobian.norm_small", "jacobian.norm_large", "walk.sd"):
        assert key in zh


@pytest.mark.parametrize("lang", config.LANGUAGES)
def test_math_is_typeset_and_no_dollar_or_braces_are_left(built, lang):
    page = built["pages"][lang]
    assert page.classes.count("katex") >= 30
    assert "katex-error" not in page.classes
    text = "".join(page.text)
    assert "$" not in text, re.findall(r".{30}\$.{30}", text)
    assert "{{" not in text and "}}" not in text
    assert not re.search("[\ue000-\uf8ff]", text)   # no quote marker or math token left


@pytest.mark.parametrize("lang", config.LANGUAGES)
def test_footnotes_have_notes_and_back_references(built, lang):
    page = built["pages"][lang]
    refs = [h[1:] for h, a in page.hrefs if "footnote-ref" in (a.get("class") or "")]
    backs = [(h[1:], a) for h, a in page.hrefs if "footnote-backref" in (a.get("class") or "")]
    assert len(refs) >= 2
    assert len(set(page.ids)) == len(page.ids), "ids must be unique on the page"
    for ref in refs:
        assert ref in page.ids                           # the note exists
        assert "fnref-" + ref[len("fn-"):] in page.ids   # and the reference is an anchor
    assert {b for b, _ in backs} == {"fnref-" + r[len("fn-"):] for r in refs}
    strings = (config.CONTENT_DIR / lang / "strings.toml").read_text(encoding="utf-8")
    for _, a in backs:
        assert a["title"].split()[0] in strings or a["title"][:3] in strings


@pytest.mark.parametrize("lang", config.LANGUAGES)
def test_figures_exist_and_are_localized(built, lang):
    page = built["pages"][lang]
    figs = [s for s in page.srcs if "/figures/" in s]
    assert len(figs) == len(config.FIGURE_NAMES)
    for src in figs:
        assert src.endswith(f".{lang}.svg")
        assert (built["root"] / "site" / lang / src).resolve().is_file()


def test_same_heading_ids_in_both_languages(built):
    zh, en = built["pages"]["zh"].headings, built["pages"]["en"].headings
    assert zh == en and len(zh) >= 7


def test_in_page_links_resolve(built):
    for lang, page in built["pages"].items():
        for href, _ in page.hrefs:
            if href.startswith("#"):
                assert href[1:] in page.ids, (lang, href)


def test_second_build_without_cache_is_byte_identical(built, tmp_path):
    first = built["root"]
    opts = BuildOptions(out=tmp_path / "site", figures_dir=tmp_path / "figures", cache_dir=None)
    build(opts, log=lambda _: None)
    for folder in ("site", "figures"):
        a = {p.relative_to(first / folder): p.read_bytes()
             for p in sorted((first / folder).rglob("*")) if p.is_file()}
        b = {p.relative_to(tmp_path / folder): p.read_bytes()
             for p in sorted((tmp_path / folder).rglob("*")) if p.is_file()}
        assert a.keys() == b.keys()
        assert [k for k in a if a[k] != b[k]] == []


def test_another_seed_gives_other_numbers(built, tmp_path):
    opts = BuildOptions(seed=7, out=tmp_path / "site", figures_dir=tmp_path / "figures",
                        cache_dir=built["root"] / "cache")
    build(opts, log=lambda _: None)
    other = json.loads((tmp_path / "figures" / "results.json").read_text(encoding="utf-8"))
    assert other["meta"]["seed"] == 7
    assert other["spread"]["sd"] != built["results"]["spread"]["sd"]
    assert other["saturation"] == built["results"]["saturation"]   # E2 has no randomness
