"""The two articles as plain Markdown for the other generators.

Quoted results are resolved with the project's own `render_source` and the quote markers
dropped with `strip_quotes`, so MkDocs and Hugo get the same numbers as a reader of our site.
Figure links `NAME.svg` become the page language's `NAME.<lang>.svg` (copied beside the page).
For Hugo, pymdownx `/// details` boxes become raw `<details>` HTML, which Goldmark passes through.
"""
from __future__ import annotations

import html
import re
import sys
from pathlib import Path

import yaml

_FIGURE_LINK = re.compile(r"\]\(([A-Za-z0-9_\-]+)\.svg(?=[ )])")
_SVG_LINK = re.compile(r"\]\(([A-Za-z0-9_.\-]+\.svg)(?=[ )])")
_DETAILS = re.compile(r"^/// details \| (?P<title>[^\n]*)\n(?P<opts>(?:    [^\n]*\n)*)"
                      r"(?P<body>.*?)^///[ \t]*$", re.M | re.S)


def resolved_article(project: Path, lang: str) -> str:
    """content/<lang>/index.md with every `{{ result | filter }}` replaced by its text and each
    formula written back as `$…$` / `$$…$$` with its numbers (the project's own lexer and
    quoting do the work)."""
    if str(project) not in sys.path:
        sys.path.insert(0, str(project))
    from sqrtdk.science_stage import refuse_edited, values_of
    from sqrtdk.sweep import read_sweep
    from sqrtdk.web.lexer import mask
    from sqrtdk.web.markers import DISPLAY_MATH_RE, FILLER, INLINE_MATH_RE, strip_markers
    from sqrtdk.web.quoting import Quoter
    # read as the build reads them: each file's digest checked and dropped (a hand edit, or
    # a file laid out otherwise than sqrtdk/science/outputs declares, is a BuildError)
    results = values_of((refuse_edited(project / "figures" / "results.json",
                                       "run build.py again") or "{}").encode("utf-8"))
    results["sweep"] = read_sweep(project / "figures" / "sweep.json") or {}
    path = project / "content" / lang / "index.md"
    text = path.read_text(encoding="utf-8")
    masked = mask(path, text)
    quoter = Quoter(path, results, results.get("claims", {}))
    rendered = quoter.render_prose(masked.text)
    formulas = [quoter.render_formula(f) for f in masked.formulas]
    rendered = INLINE_MATH_RE.sub(lambda m: f"${formulas[int(m.group(1))].plain}$", rendered)
    rendered = DISPLAY_MATH_RE.sub(lambda m: f"$$\n{formulas[int(m.group(1))].plain}\n$$",
                                   rendered)
    return strip_markers(masked.restore_code(rendered)).replace(FILLER, "")


def figure_files(text: str) -> list[str]:
    """The SVG file names an article links to (`](FILE.svg`), in order."""
    return _SVG_LINK.findall(text)


def localise_figures(text: str, lang: str) -> str:
    """`](NAME.svg` -> `](NAME.<lang>.svg` (the SVG files are copied beside the page)."""
    return _FIGURE_LINK.sub(lambda m: f"]({m.group(1)}.{lang}.svg", text)


def details_to_html(text: str) -> str:
    """`/// details | Title` + `attrs: {id: x}` boxes -> `<details id="x"><summary>`; the body
    stays Markdown (Goldmark ends the HTML block at the blank line that follows)."""
    def box(m: re.Match) -> str:
        opts = yaml.safe_load("\n".join(line[4:] for line in m["opts"].splitlines())) or {}
        attrs = "".join(f' {k}="{html.escape(str(v))}"'
                        for k, v in (opts.get("attrs") or {}).items())
        return (f"<details{attrs}>\n<summary>{html.escape(m['title'].strip())}</summary>\n\n"
                f"{m['body'].strip()}\n\n</details>")
    return _DETAILS.sub(box, text)


def for_mkdocs(project: Path, lang: str) -> str:
    """The article for MkDocs: front matter kept (MkDocs meta), pymdownx syntax kept."""
    return localise_figures(resolved_article(project, lang), lang)


def for_hugo(project: Path, lang: str) -> str:
    """The article for Hugo: front matter kept, details boxes as raw HTML."""
    return details_to_html(localise_figures(resolved_article(project, lang), lang))
