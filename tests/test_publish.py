"""Publishing (issue 22): minified style sheets and scripts, content-hashed asset names with every reference rewritten, the
precompressed siblings and `_headers`. Unit tests on small inputs and on KaTeX's real style
sheet, then the session's built site read as a browser and a static host would."""
from __future__ import annotations

import gzip
import hashlib
import posixpath
from pathlib import Path, PurePosixPath
from types import SimpleNamespace
from typing import Any

import brotli
import pytest
from helpers import Tree

from sqrtdk.errors import BuildError
from sqrtdk.options import PROJECT_ROOT
from sqrtdk.web.assemble import CSP
from sqrtdk.web.minify import lint_css, minifiable, minify
from sqrtdk.web.output import Site
from sqrtdk.web.print_addresses import with_print_addresses
from sqrtdk.web.publish import (
    HASH_LENGTH,
    IMMUTABLE,
    REVALIDATE,
    TEXT_SUFFIXES,
    fingerprint,
    headers_file,
    is_stable,
    minify_assets,
    publish,
    site_path,
    unhashed_name,
)
from sqrtdk.web.rewrite import (
    css_references,
    may_reference,
    rewrite_css,
    rewrite_html,
    rewrite_srcset,
)

BASE = "https://example.org/some/path/"


def mark(url: str) -> str | None:
    """A rewrite that is easy to see: `x.ext` -> `x.NEW.ext`; data: URLs are left alone."""
    return None if url.startswith("data:") else url.replace(".", ".NEW.", 1)


# ---------------------------------------------------------------- style sheets

def test_katex_css_every_url_rewritten_and_nothing_else() -> None:
    css = (PROJECT_ROOT / "node_modules" / "katex" / "dist" / "katex.min.css").read_text("utf-8")
    before = css_references(css)
    assert before and all(u.startswith("fonts/KaTeX_") for u in before)
    after = rewrite_css(css, mark)
    assert css_references(after) == [mark(u) for u in before]
    # the rest of the sheet is byte for byte the same: undo the edits and compare
    undone = after
    for u in set(before):
        undone = undone.replace(f"url({mark(u)})", f"url({u})")
    assert undone == css


@pytest.mark.parametrize("css, expected", [
    ('a{background:url("i.png")}', 'a{background:url("i.NEW.png")}'),
    ("a{background:URL( 'i.png' )}", "a{background:URL( \"i.NEW.png\" )}"),
    ("a{background:url(  i.png  ) no-repeat}", "a{background:url(i.NEW.png) no-repeat}"),
    ('@import "b.css";\n@import url(c.css) screen;', '@import "b.NEW.css";\n@import url(c.NEW.css) screen;'),
    ("/* url(x.png) */ a{content:'url(y.png)'}", "/* url(x.png) */ a{content:'url(y.png)'}"),
    ("a{}\r\nb{\r\n  src: url(f.woff2) format('woff2')}", "a{}\r\nb{\r\n  src: url(f.NEW.woff2) format('woff2')}"),
    ("@media print{@font-face{src:url(f.woff)}}", "@media print{@font-face{src:url(f.NEW.woff)}}"),
    ("a{background:url(data:image/png;base64,AAAA)}", "a{background:url(data:image/png;base64,AAAA)}"),
    ("a{background:url(x\\).png)}", "a{background:url(x\\).NEW.png)}"),
])
def test_css_references_are_found_where_css_has_them(css: str, expected: str) -> None:
    assert rewrite_css(css, mark) == expected


# ---------------------------------------------------------------- HTML

def test_html_only_reference_values_change() -> None:
    page = ("<!doctype html>\n<link rel=stylesheet href=a.css>\n"
            "<img alt=\"Tom &amp; 'Jerry'\" src='p.svg' data-x=\"p.svg\">\n"
            "<!-- <img src=\"c.svg\"> -->\n<script>var s = 'src=\"d.js\"';</script>\n"
            "<source srcset=\"n.svg 1x, w.svg 2x\"><a href=\"q.pdf?x=1&amp;y=2#f\">q</a>\n"
            "<div style=\"background:url(b.png)\"></div><style>i{background:url(s.png)}</style>\n"
            f"<meta property=\"og:image\" content=\"{BASE}c.png\"><meta name=d content=\"e.f\">")
    out = rewrite_html(page, mark, lambda url: url.startswith(BASE))
    assert out == page.replace("href=a.css", 'href="a.NEW.css"') \
        .replace("src='p.svg'", "src='p.NEW.svg'") \
        .replace("n.svg 1x, w.svg 2x", "n.NEW.svg 1x, w.NEW.svg 2x") \
        .replace('href="q.pdf?x=1&amp;y=2#f"', 'href="q.NEW.pdf?x=1&amp;y=2#f"') \
        .replace("url(b.png)", "url(b.NEW.png)").replace("url(s.png)", "url(s.NEW.png)") \
        .replace(f'{BASE}c.png"', f'{BASE.replace(".", ".NEW.", 1)}c.png"')


@pytest.mark.parametrize("page, expected", [
    ('<style>@IMPORT "a.css";</style>', '<style>@IMPORT "a.NEW.css";</style>'),
    ("<style>i{background:u\\72l(s.png)}</style>", "<style>i{background:url(s.NEW.png)}</style>"),
    ('<p style="background:u\\72l(b.png)">x</p>', '<p style="background:url(b.NEW.png)">x</p>'),
    ('<p style="BACKGROUND:URL( b.png )">x</p>', '<p style="BACKGROUND:url(b.NEW.png)">x</p>'),
    ("<style>@font-face{src:src('f.woff')}</style>", "<style>@font-face{src:src(\"f.NEW.woff\")}</style>"),
])
def test_a_page_s_css_is_rewritten_whatever_the_case_or_escapes(page: str, expected: str
                                                                  ) -> None:
    """A `<style>` sheet's @import in capitals, or a url( spelled with an escape, was left
    pointing at the unhashed name (or, in a style attribute, stopped the build with a
    RuntimeError)."""
    assert rewrite_html(page, mark, lambda url: False) == expected


def test_style_attributes_that_cannot_point_at_a_file_are_not_tokenized(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A formula's layout is thousands of style attributes (`height:0.8em`); the page is
    rewritten without tokenizing them (it took a third of the edited page's rewrite), and
    `may_reference` says no only where tinycss2 finds nothing."""
    import tinycss2
    calls: list[str] = []
    tokenize = tinycss2.parse_component_value_list
    monkeypatch.setattr(tinycss2, "parse_component_value_list",
                        lambda css, *a, **k: calls.append(css) or tokenize(css, *a, **k))
    layout = '<span style="height:0.8em;vertical-align:-0.2em">x</span>' * 50
    page = f'<p>{layout}<i style="background:url(b.png)"></i></p>'
    assert rewrite_html(page, mark, lambda url: False) == page.replace("b.png", "b.NEW.png")
    assert calls == ["background:url(b.png)"]
    katex = (PROJECT_ROOT / "node_modules" / "katex" / "dist" / "katex.min.css").read_text("utf-8")
    pieces = [*katex.split("}"), "a{background:u\\72l(x)}", "@IMPORT 'a.css'", "src('f')",
              "a{background:Url(x)}", "@\\69mport 'a.css'"]
    assert all(may_reference(css) for css in pieces if css_references(css))


def test_only_tags_that_may_hold_a_reference_are_read_again(monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    """Each start tag was read a second time (its attributes' exact spans, to edit them in
    place), most of them a formula's spans with nothing to rewrite; now only a tag with an
    attribute that may hold a reference is, and every one of those still is."""
    import sqrtdk.web.rewrite as rewrite_module
    read: list[str] = []
    real = rewrite_module._attributes
    monkeypatch.setattr(rewrite_module, "_attributes", lambda raw: read.append(raw) or real(raw))
    spans = '<span class="mord" style="height:0.8em" aria-hidden="true">x</span>' * 30
    links = ['<a href="p.pdf">', '<img alt="" srcset="n.svg 1x">', '<i style="background:url(b.png)">',
             f'<meta property="og:image" content="{BASE}c.png">']
    page = f'<p>{spans}{"".join(links)}</p>'
    out = rewrite_html(page, mark, lambda url: url.startswith(BASE))
    assert read == links
    assert out.count(".NEW.") == 4


@pytest.mark.parametrize("srcset, expected", [
    ("a.svg", "a.NEW.svg"),
    ("a.svg 320w,b.svg 640w", "a.NEW.svg 320w,b.NEW.svg 640w"),
    (" a.svg,  b.svg 2x ", " a.NEW.svg,  b.NEW.svg 2x "),
])
def test_srcset_candidates(srcset: str, expected: str) -> None:
    assert rewrite_srcset(srcset, mark) == expected


@pytest.mark.parametrize("rel, url, expected", [
    ("en/index.html", "../assets/x.css", "assets/x.css"),
    ("en/index.html", f"{BASE}figures/c.png", "figures/c.png"),
    ("404.html", "/some/path/assets/x.css", "assets/x.css"),
    ("404.html", "/elsewhere/x.css", None),
    ("en/index.html", "https://other.example/x.css", None),
    ("en/index.html", "#note", None),
    ("assets/katex/k.css", "fonts/f.woff2", "assets/katex/fonts/f.woff2"),
])
def test_where_a_reference_points(rel: str, url: str, expected: str | None) -> None:
    assert site_path(rel, url, BASE) == expected


# ---------------------------------------------------------------- the pass over a site

def small_site(font: bytes) -> Site:
    site = Site()
    site.files["assets/k/fonts/f.woff2"] = font
    site.files["assets/k/k.css"] = b"@font-face{src:url(fonts/f.woff2)}"
    site.files["en/index.html"] = b'<link rel="stylesheet" href="../assets/k/k.css">'
    site.files["sitemap.xml"] = b"<urlset/>"
    return site


def test_a_new_font_renames_the_sheet_that_loads_it() -> None:
    one, two = small_site(b"font 1"), small_site(b"font 2")
    names = [fingerprint(s, BASE) for s in (one, two)]
    assert names[0]["assets/k/fonts/f.woff2"] != names[1]["assets/k/fonts/f.woff2"]
    assert names[0]["assets/k/k.css"] != names[1]["assets/k/k.css"]
    for site, renamed in zip((one, two), names):
        assert set(site.paths()) == {*renamed.values(), "en/index.html", "sitemap.xml"}
        sheet = site.files[renamed["assets/k/k.css"]].decode()
        font = posixpath.basename(renamed["assets/k/fonts/f.woff2"])
        assert css_references(sheet) == [f"fonts/{font}"]
        assert renamed["assets/k/k.css"].split("/")[-1] in site.files["en/index.html"].decode()


def test_headers_rules_never_overlap_on_cache_control() -> None:
    site = small_site(b"f")
    fingerprint(site, BASE)
    rules = parse_headers(headers_file(site, BASE, CSP).decode())
    for rel in site.paths():
        assert cache_control(rules, "/some/path/" + rel) == \
            (REVALIDATE if is_stable(rel) else IMMUTABLE), rel


def test_a_site_whose_names_are_not_hashed_is_never_cached_for_long() -> None:
    """`--serve` writes site/ with plain asset names (publish(hashed=False)): an edit puts new
    bytes at the same address, so no file of it may be marked immutable in `_headers` (a
    site/ copied to a host straight after serving would keep stale assets for a year)."""
    site = small_site(b"f")
    publish(site, BASE, CSP, compress=None, hashed=False)
    rules = parse_headers(site.files["_headers"].decode())
    for rel in site.paths():
        if rel != "_headers":
            assert cache_control(rules, "/some/path/" + rel) == REVALIDATE, rel


# ---------------------------------------------------------------- minified sheets and scripts

NODE_MODULES = PROJECT_ROOT / "node_modules"
SCRIPT = b"""// a comment esbuild drops
(() => {
  "use strict";
  const longLocalName = [3, 1, 2];          // a local name it may shorten
  window.kept = longLocalName.map((value) => value * 2).join(" ");
})();
globalThis.result = function topLevel(x) { return x + 1; }(41) + " " + window.kept;
"""


def run_node(script: bytes) -> str:
    """What `script` leaves in globalThis.result, run by node."""
    import subprocess
    code = script.decode() + "\nprocess.stdout.write(String(globalThis.result));"
    return subprocess.run(["node", "-e", "globalThis.window = globalThis;\n" + code],
                          capture_output=True, text=True, check=True).stdout


def test_a_minified_script_is_smaller_and_computes_the_same() -> None:
    small = minify(NODE_MODULES, "assets/x.js", SCRIPT)
    assert len(small) < len(SCRIPT) * 0.8 and b"comment" not in small
    assert run_node(small) == run_node(SCRIPT) == "42 6 2 4"


def test_a_minified_sheet_is_smaller_and_keeps_its_rules_and_urls() -> None:
    import tinycss2
    sheet = ("/* a comment */\n.a  >  .b {\n  color : #ff0000 ;\n  margin: 0px 0px 0px 0px;\n}\n"
             "@font-face {\n  src: url(fonts/f.woff2) format('woff2');\n}\n"
             ":root:lang(zh) p { text-autospace: normal; content: \"「中」\"; }\n").encode()
    small = minify(NODE_MODULES, "assets/x.css", sheet)
    assert len(small) < len(sheet) * 0.8 and b"comment" not in small
    text = small.decode()
    assert css_references(text) == ["fonts/f.woff2"]          # the publish step rewrites it
    assert "text-autospace" in text and "「中」" in text       # kept, as UTF-8
    rules = tinycss2.parse_stylesheet(text, skip_comments=True, skip_whitespace=True)
    assert [r.type for r in rules] == ["qualified-rule", "at-rule", "qualified-rule"]
    declarations = list(tinycss2.parse_declaration_list(rules[0].content, True, True))
    assert [(d.type, d.lower_name) for d in declarations] == \
        [("declaration", "color"), ("declaration", "margin")]


@pytest.mark.parametrize("rel, data, line", [
    ("assets/x.js", b"const a = 1;\nconst b = ;\n", 2),
    ("assets/x.css", b"a { color: red }\nb { colr: red }\n", 2),      # a warning is an error too
])
def test_what_esbuild_reports_stops_the_build_at_the_line(rel: str, data: bytes, line: int,
                                                           tmp_path: Path) -> None:
    source = tmp_path / PurePosixPath(rel).name
    with pytest.raises(BuildError) as e:
        minify(NODE_MODULES, rel, data, source)
    assert e.value.path == source and e.value.line == line
    assert "esbuild" in e.value.message and "fix it" in e.value.message


# One mistake each that esbuild lets through and a browser drops or misreads without a word
# (the rule, the declaration or the media query is ignored), on line 2 of its sheet.
DROPPED = {
    "pseudo-element for a pseudo-class": b"a { color: red }\na::is(.x) { color: red }\n",
    "misspelt pseudo-class": b"a { color: red }\na:focus-visable { outline: 0 }\n",
    "unknown unit": b"a { color: red }\nb { width: 10pz }\n",
    "invalid hex colour": b"a { color: red }\nb { color: #ggg }\n",
    "unknown keyword": b"a { color: red }\nb { display: flexbox }\n",
    "misspelt media feature": b"a { color: red }\n@media (prefers-contrst: more) { a { x: 1 } }\n",
    "unspaced calc": b"a { color: red }\nb { width: calc(1px+2px) }\n",
    "unknown function": b"a { color: red }\nb { color: lightdark(red, blue) }\n",
}


@pytest.mark.parametrize("data", DROPPED.values(), ids=DROPPED.keys())
def test_a_style_rule_a_browser_drops_stops_the_build_at_its_line(data: bytes,
                                                                  tmp_path: Path) -> None:
    source = tmp_path / "style.css"
    with pytest.raises(BuildError) as e:
        lint_css(NODE_MODULES, data, source)
    assert e.value.path == source and e.value.line == 2, e.value.message
    assert "fix it there" in e.value.message


def test_modern_and_real_style_sheets_pass_the_check() -> None:
    """No false alarm on CSS browsers read: the project's own sheet, KaTeX's (a real sheet
    nobody here wrote), and what a sheet of today uses (nesting, :is/:where/:has, @layer,
    @container, light-dark(), color-mix(), custom properties, vendor prefixes, a custom
    element)."""
    modern = b"""@layer base { :where(a, b):is(:hover, :focus-visible) { color: var(--ink, red) } }
.card { & > h2 { text-wrap: balance } &:has(img) { padding: 1rem } }
@container (min-width: 30em) { .x { inline-size: 50cqi } }
:root { color-scheme: light dark; --ink: light-dark(#111, #eee) }
p { color: color-mix(in oklch, red 40%, blue); -webkit-text-size-adjust: 100% }
my-widget { display: block }
@media (prefers-reduced-motion: reduce) and (forced-colors: active) { * { animation: none } }
@supports (text-autospace: normal) { p { text-autospace: normal } }
"""
    for data in (modern, (PROJECT_ROOT / "static" / "style.css").read_bytes(),
                 (NODE_MODULES / "katex" / "dist" / "katex.css").read_bytes()):
        lint_css(NODE_MODULES, data, "x.css")


def test_only_copied_unminified_sheets_and_scripts_are_minified(tmp_path: Path) -> None:
    files = {"assets/a.js": b"x", "assets/k/k.min.css": b"y", "assets/b.css": b"z",
             "assets/f.svg": b"<svg/>"}
    site = Site()
    for rel, data in files.items():
        (tmp_path / PurePosixPath(rel).name).write_bytes(data)
        site.copies[rel] = tmp_path / PurePosixPath(rel).name
    site.files["assets/data.js"] = b"generated"
    site.files["en/index.html"] = b"<p>page</p>"
    assert minify_assets(site, lambda rel, data, source: b"min:" + data) == 2
    assert site.files["assets/a.js"] == b"min:x" and site.files["assets/b.css"] == b"min:z"
    assert set(site.copies) == {"assets/k/k.min.css", "assets/f.svg"}
    assert site.files["assets/data.js"] == b"generated"
    assert site.files["en/index.html"] == b"<p>page</p>"
    assert [minifiable(r) for r in ("a.css", "a.mjs", "a.min.js", "a.svg")] == \
        [True, True, False, False]


def text_site(word: str, sheet: bytes = b"@font-face{src:url(fonts/f.woff2)}") -> Site:
    """Two pages, one of them ending in `word`, a style sheet loading a font, a figure."""
    site = Site()
    site.files["assets/k/fonts/f.woff2"] = b"font"
    site.files["assets/k/k.css"] = sheet
    site.files["figures/f.svg"] = b"<svg/>"
    for lang in ("en", "zh"):
        site.files[f"{lang}/index.html"] = (
            '<link rel="stylesheet" href="../assets/k/k.css"><img src="../figures/f.svg">'
            f'<p>{lang}: {"the same text " * 40}{word if lang == "en" else ""}</p>').encode()
    site.files["sitemap.xml"] = b"<urlset/>"
    return site


def publish_twice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, first: Site, second: Site
                  ) -> tuple[dict[str, int], list[bytes], list[str]]:
    """`second` published with the cache `first` left: its counts, the bytes compressed
    (each encoding) and the style sheets tokenized while publishing it."""
    import tinycss2

    import sqrtdk.web.publish as publish_module
    from sqrtdk.cache import Cache
    from sqrtdk.site_stage import publish_site
    inputs: Any = SimpleNamespace(settings=SimpleNamespace(base_url=BASE))
    cache = Cache(tmp_path / "cache")
    publish_site(cache, inputs, first, True, PROJECT_ROOT / "node_modules")
    compressed: list[bytes] = []
    tokenized: list[str] = []
    compress, tokenize = publish_module.compressed, tinycss2.parse_component_value_list
    monkeypatch.setattr(publish_module, "compressed",
                        lambda encoding, data: compressed.append(data) or compress(encoding, data))
    monkeypatch.setattr(tinycss2, "parse_component_value_list",
                        lambda css, *a, **k: tokenized.append(css) or tokenize(css, *a, **k))
    counts = publish_site(cache, inputs, second, True, PROJECT_ROOT / "node_modules")
    return counts, compressed, tokenized


def test_a_one_word_edit_makes_only_the_edited_page_again(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """The second build after a one-word edit takes every file whose bytes did not change
    from the cache: it rewrites and compresses the edited page only, reads no style sheet
    again (each build tokenized every sheet twice, to order and to rewrite them), says so on
    the publish line, and publishes the bytes a build without a cache does."""
    from sqrtdk.cache import Cache
    from sqrtdk.pipeline import publish_note
    from sqrtdk.site_stage import publish_site
    counts, compressed, tokenized = publish_twice(tmp_path, monkeypatch, text_site("one"),
                                                  edited := text_site("two"))
    page = edited.files["en/index.html"]
    assert compressed == [page, page] and tokenized == []
    assert (counts["made rewritten"], counts["made compressed"], counts["made minified"]) \
        == (1, 2, 0)
    assert "made: 1 rewritten, 2 compressed, the rest cached" in publish_note(counts)
    clean = text_site("two")
    publish_site(Cache(None), SimpleNamespace(settings=SimpleNamespace(base_url=BASE)), clean,
                 True, PROJECT_ROOT / "node_modules")
    assert clean.files == edited.files and clean.copies == edited.copies == {}


def test_a_changed_file_is_published_with_its_new_bytes(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A page or style sheet whose bytes changed is rewritten, renamed and compressed
    again: every .br and .gz holds its file's new bytes (a cache that answered by the
    file's name, or kept the sheet's old references, would publish the old ones)."""
    counts, compressed, tokenized = publish_twice(
        tmp_path, monkeypatch, text_site("one"),
        second := text_site("two", b"@font-face{src:url(fonts/f.woff2)}i{color:red}"))
    assert counts["made rewritten"] == 3          # the sheet and both pages, which load it
    assert b"two" in second.files["en/index.html"]
    sheet = next(rel for rel in second.files if rel.endswith(".css"))
    assert second.files[sheet].endswith(b"i{color:red}") and tokenized
    assert sum(data == second.files[sheet] for data in compressed) == 2
    for rel, data in second.files.items():
        if rel.endswith(".br"):
            assert brotli.decompress(data) == second.files[rel[:-3]], rel
        if rel.endswith(".gz"):
            assert gzip.decompress(data) == second.files[rel[:-3]], rel
    assert all(sheet.split("/")[-1].encode() in second.files[f"{lang}/index.html"]
               for lang in ("en", "zh"))


# ---------------------------------------------------------------- the built site

def loaded_by(page: Path, site: Path, base_url: str) -> set[str]:
    """Site paths of every file `page` loads or links to as a file (not a page)."""
    rel = page.relative_to(site).as_posix()
    found: set[str] = set()
    for el in Tree(page.read_text("utf-8")).elements:
        a = el["attrs"]
        urls = [a.get("src", ""), a.get("href", "")] + [c.split()[0] for c in
                                                         a.get("srcset", "").split(",") if c.strip()]
        if el["tag"] == "meta" and a.get("content", "").startswith(base_url):
            urls.append(a["content"])
        for url in urls:
            target = site_path(rel, url, base_url) if url else None
            if target and not is_stable(target) and not target.endswith("/") \
                    and (site / target).suffix and not (site / target).is_dir():
                found.add(target)
    return found


def has_its_hash(rel: str, site: Path) -> bool:
    digest = hashlib.sha256((site / rel).read_bytes()).hexdigest()[:HASH_LENGTH]
    return unhashed_name(rel) != rel and rel.rsplit(".", 2)[-2] == digest


def test_every_asset_a_page_loads_is_named_by_its_hash(site_build: dict[str, Any]) -> None:
    site, base = site_build["site"], site_build["settings"].base_url
    loaded: set[str] = set()
    for page in site.rglob("*.html"):
        loaded |= loaded_by(page, site, base)
    sheets = [rel for rel in loaded if rel.endswith(".css")]
    for rel in sheets:
        for url in css_references((site / rel).read_text("utf-8")):
            target = site_path(rel, url, base)
            if target is not None:
                loaded.add(target)
    assert sheets and any(rel.endswith(".woff2") for rel in loaded)
    assert any(rel.endswith(".png") for rel in loaded)           # the link-preview cards
    missing = sorted(rel for rel in loaded if not (site / rel).is_file())
    assert missing == []
    assert sorted(rel for rel in loaded if not has_its_hash(rel, site)) == []
    # and nothing else is left under an old name
    assets = [p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()
              and not p.name.startswith((".", "_")) and p.suffix not in (".br", ".gz")]
    assert sorted(rel for rel in assets if not is_stable(rel) and not has_its_hash(rel, site)) == []


def test_every_text_file_has_br_and_gz_siblings_with_its_bytes(site_build: dict[str, Any]) -> None:
    site = site_build["site"]
    texts = [p for p in site.rglob("*") if p.is_file() and p.suffix in TEXT_SUFFIXES]
    assert any(p.suffix == ".html" for p in texts) and any(p.suffix == ".css" for p in texts)
    for p in texts:
        data = p.read_bytes()
        br, gz = Path(f"{p}.br").read_bytes(), Path(f"{p}.gz").read_bytes()
        assert brotli.decompress(br) == data, p
        assert gzip.decompress(gz) == data, p
        # RFC 1952 header: no FNAME flag (bit 3), MTIME zero
        assert gz[3] & 0x08 == 0 and gz[4:8] == b"\0\0\0\0", p


def parse_headers(text: str) -> list[tuple[list[str], dict[str, str]]]:
    """_headers as (paths, headers) rules."""
    rules: list[tuple[list[str], dict[str, str]]] = []
    for line in text.splitlines():
        if line.startswith("/"):
            rules.append(([line], {}))
        elif line.strip():
            assert line.startswith("  ") and rules, line
            name, _, value = line.strip().partition(":")
            rules[-1][1][name] = value.strip()
    assert all(headers for _, headers in rules)      # no path line without its headers
    return rules


def matches(pattern: str, path: str) -> bool:
    """Netlify's and Cloudflare's rule: `*` at the end matches anything, also with slashes."""
    return path.startswith(pattern[:-1]) if pattern.endswith("*") else path == pattern


def cache_control(rules: list[tuple[list[str], dict[str, str]]], path: str) -> str:
    values = [h["Cache-Control"] for paths, h in rules if "Cache-Control" in h
              and any(matches(p, path) for p in paths)]
    assert len(values) == 1, (path, values)
    return values[0]


def test_headers_file_caches_hashed_files_forever_and_pages_never(site_build: dict[str, Any]
                                                                  ) -> None:
    site, base = site_build["site"], site_build["settings"].base_url
    prefix = base[base.index("/", len("https://")):]
    rules = parse_headers((site / "_headers").read_text("utf-8"))
    everywhere = [h for paths, h in rules if paths == [f"{prefix}*"]]
    assert everywhere and everywhere[0]["X-Content-Type-Options"] == "nosniff"
    assert everywhere[0]["Referrer-Policy"]
    for lang in site_build["languages"]:
        csp = [e["attrs"]["content"] for e in Tree(site_build["html"][lang]).elements
               if e["attrs"].get("http-equiv") == "Content-Security-Policy"]
        assert csp == [everywhere[0]["Content-Security-Policy"]]
        assert cache_control(rules, f"{prefix}{lang}/") == "no-cache"
    for p in site.rglob("*"):
        rel = p.relative_to(site).as_posix()
        if p.is_file() and not p.name.startswith((".", "_")) and p.suffix not in (".br", ".gz"):
            expected = "no-cache" if is_stable(rel) else "public, max-age=31536000, immutable"
            assert cache_control(rules, prefix + rel) == expected, rel


def test_published_sheets_and_scripts_are_minified_and_still_parse(site_build: dict[str, Any]
                                                                   ) -> None:
    """Every style sheet and script of static/ is published smaller than its source and
    still parses (node's syntax check, tinycss2 without parse errors); what they do is what
    the browser tests check, on these published files."""
    import subprocess

    import tinycss2
    site, static = site_build["site"], site_build["opts"].static_dir
    published = {unhashed_name(p.relative_to(site).as_posix()): p
                 for p in (site / "assets").glob("*") if p.suffix in (".css", ".js")}
    sources = [p for p in static.iterdir() if p.suffix in (".css", ".js")]
    assert sources and any(p.suffix == ".css" for p in sources)
    for source in sources:
        out = published[f"assets/{source.name}"]
        assert out.stat().st_size < 0.8 * source.stat().st_size, source.name
        if source.suffix == ".js":
            subprocess.run(["node", "--check", str(out)], check=True, capture_output=True)
        else:
            rules = tinycss2.parse_stylesheet(out.read_text("utf-8"))
            assert [r for r in rules if r.type == "error"] == [], source.name


def test_a_link_to_another_page_of_the_site_gets_its_full_address_for_paper() -> None:
    """Each link of the article to another page of the site (a relative href) gets its full
    address under base_url in data-print-href (the print style sheet shows it); a link inside
    the page, to another site, a figure's link and a link outside <article> get none; every
    other byte stays as it was. Without a base_url the page is left alone."""
    page = ('<nav><a href="../zh/index.html">zh</a></nav>\n<article><p><a href="#s1">s</a> '
            '<a href="../source/run.py.html#L2">run.py</a> <a href="https://x.org/">x</a> '
            "<A class='fig-link big' href=../figures/f.svg><img src=../figures/f.svg alt=f></A> "
            "<a\nhref='../zh/index.html'>zh</a></p></article>")
    out = with_print_addresses(page, "en/index.html", BASE)
    assert out == page.replace('<a href="../source', f'<a data-print-href="{BASE}source/run.py'
                               '.html#L2" href="../source') \
        .replace("<a\nhref='../zh", f'<a data-print-href="{BASE}zh/index.html"\nhref=\'../zh')
    assert with_print_addresses(page, "en/index.html", "") == page


def test_a_link_s_printed_address_follows_its_renamed_file() -> None:
    """Publishing renames a file and rewrites the address printed for a link to it too."""
    site = Site()
    site.files["figures/f.svg"] = b"<svg/>"
    site.files["en/index.html"] = with_print_addresses(
        '<article><a href="../figures/f.svg">f</a></article>', "en/index.html", BASE).encode()
    renamed = fingerprint(site, BASE)
    name = renamed["figures/f.svg"]
    assert site.files["en/index.html"].decode() == (
        f'<article><a data-print-href="{BASE}{name}" href="../{name}">f</a></article>')
