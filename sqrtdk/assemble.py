"""Site assembly: typeset the formulas, fill the templates, collect assets and figures.

Gather first, write last (MkDocs' build order): every page, asset and figure of the new site is
held in memory or named by path in a `Site`; `checks` validates it and `output` writes it
atomically, so a failed build leaves the old site untouched.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup, escape

from .config import STATIC_DIR
from .embed import explainer_data, json_script, slot_filter
from .errors import BuildError, line_of
from .model import MATH_TOKEN_RE, Formula, Page
from .quoting import mark_quotes
from .typeset import katex_assets, typeset

MARKER = ".sqrtdk-site"          # a folder holding this file was made by this build
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; "
       "img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; "
       "base-uri 'none'; form-action 'none'")


@dataclass
class Site:
    """The whole site before it is written: generated files and files copied as they are."""

    files: dict[str, bytes] = field(default_factory=dict)   # relative path -> bytes
    copies: dict[str, Path] = field(default_factory=dict)   # relative path -> source file

    def paths(self) -> set[str]:
        return set(self.files) | set(self.copies)


def template_env(templates_dir: Path, cache_dir: Path | None = None) -> jinja2.Environment:
    """Strict, autoescaping environment for the page templates; compiled templates are kept in
    `cache_dir/jinja` (Jinja's own bytecode cache, checked against each template's source)."""
    bytecode = None
    if cache_dir is not None:
        (cache_dir / "jinja").mkdir(parents=True, exist_ok=True)
        bytecode = jinja2.FileSystemBytecodeCache(str(cache_dir / "jinja"))
    return jinja2.Environment(loader=jinja2.FileSystemLoader(templates_dir),
                              undefined=jinja2.StrictUndefined, autoescape=True,
                              keep_trailing_newline=True, bytecode_cache=bytecode)


def typeset_pages(pages: list[Page], cache_dir: Path | None = None) -> dict[str, list[str]]:
    """Typeset every page's formulas in one KaTeX run; returns lang -> HTML per formula.

    Formulas already in `cache_dir` are not typeset again (None: typeset all).
    Raises BuildError naming the file, line and formula for TeX that KaTeX rejects.
    """
    formulas = [f for p in pages for f in p.facts.formulas]
    done = iter(typeset(formulas, cache_dir))
    bodies = {}
    for page in pages:
        out = [next(done) for _ in page.facts.formulas]
        for f, t in zip(page.facts.formulas, out):
            if t.error:
                raise BuildError(page.source, line_of(page.text, _formula_pattern(f)),
                                 f"invalid TeX ${f.source or f.tex}$: {t.error}")
        bodies[page.lang] = [_annotate(t.html, f) for f, t in zip(page.facts.formulas, out)]
    return bodies


def _formula_pattern(f: Formula) -> re.Pattern[str]:
    """The formula with its delimiters, so a broken formula is not found inside a good one."""
    tex = re.escape(f.source or f.tex)
    if f.display:
        return re.compile(r"(\$\$|\\\[)\s*" + tex + r"\s*(\$\$|\\\])")
    return re.compile(r"(?<!\$)(\$|\\\()\s*" + tex + r"\s*(\$|\\\))")


_ANNOTATION = re.compile(r'(<annotation encoding="application/x-tex">).*?(</annotation>)', re.S)


def _annotate(html: str, f: Formula) -> str:
    """Readers who copy a formula get the TeX as written, without the \\htmlData wrappers
    that carry quoted results' names."""
    if f.source and f.source != f.tex:
        source = str(escape(f.source))
        return _ANNOTATION.sub(lambda m: m.group(1) + source + m.group(2), html, count=1)
    return html


def _fill_math(html: str, typeset_html: list[str]) -> str:
    return MATH_TOKEN_RE.sub(lambda m: typeset_html[int(m.group(1))], html)


def render_site(pages: list[Page], results: dict[str, Any], strings: dict[str, dict],
                settings: dict[str, Any], figures: dict[str, Path],
                templates_dir: Path, cache_dir: Path | None = None) -> Site:
    """Fill the templates for the root page and every article; collect assets and figures."""
    env = template_env(templates_dir, cache_dir)
    env.filters["slots"] = slot_filter(results)   # the widgets' sentences, numbers filled in
    math = typeset_pages(pages, cache_dir)
    alternates = [{"lang": p.lang, "html_lang": strings[p.lang]["language"]["html_lang"],
                   "name": strings[p.lang]["language"]["name"], "title": p.meta["title"]}
                  for p in pages]
    site = Site()
    data = json_script(explainer_data(results))
    for page in pages:
        ui = strings[page.lang]["ui"]
        html = env.get_template("article.html").render(
            html_lang=strings[page.lang]["language"]["html_lang"], lang=page.lang, root="../",
            csp=CSP, title=page.meta["title"], description=page.meta["description"],
            base_url=settings["base_url"], alternates=alternates, ui=ui, toc=page.toc,
            body=Markup(page.body), explainer_json=data,
            built_with=ui["built_with"].format(seed=results["meta"]["seed"],
                                               numpy=results["meta"]["numpy"]))
        html = mark_quotes(_fill_math(html, math[page.lang]), page.quotes)
        site.files[f"{page.lang}/index.html"] = html.encode("utf-8")
    default = next(a for a in alternates if a["lang"] == settings["default_language"])
    site.files["index.html"] = env.get_template("index.html").render(
        html_lang=default["html_lang"], root="", csp=CSP, title=settings["title"],
        description=" / ".join(p.meta["description"] for p in pages),
        base_url=settings["base_url"], alternates=alternates).encode("utf-8")
    _add_assets(site, figures)
    return site


def _add_assets(site: Site, figures: dict[str, Path]) -> None:
    for f in sorted(STATIC_DIR.rglob("*")):
        if f.is_file():
            site.copies[f"assets/{f.relative_to(STATIC_DIR).as_posix()}"] = f
    css, fonts = katex_assets()
    site.copies["assets/katex/katex.min.css"] = css
    for f in sorted(fonts.iterdir()):
        site.copies[f"assets/katex/fonts/{f.name}"] = f
    for rel, src in figures.items():
        site.copies[f"figures/{rel}"] = src
