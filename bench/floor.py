"""The floor of issue 11: a fresh Python process that only converts the English article with
Python-Markdown and fills one Jinja template, then writes the page.

    .venv/bin/python bench/floor.py PROJECT OUT_HTML

No quoted numbers, no math, no checks: what any Markdown-to-HTML script costs on this machine
(interpreter start-up, the two libraries' imports, one conversion, one template). The benchmark
times it in the same run as our build and states our targets as ratios to it.
"""
from __future__ import annotations

import sys
from pathlib import Path

import jinja2
import markdown

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{ title }}</title></head>
<body><main>{{ body }}</main></body></html>
"""


def main(project: Path, out: Path) -> None:
    """Convert content/en/index.md (front matter left as text) and write one page to `out`."""
    text = (project / "content" / "en" / "index.md").read_text(encoding="utf-8")
    md = markdown.Markdown(extensions=["footnotes", "toc", "attr_list", "tables"])
    body = md.convert(text)
    env = jinja2.Environment(autoescape=True)
    html = env.from_string(PAGE).render(title="floor", body=jinja2.utils.markupsafe.Markup(body))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(html, encoding="utf-8")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
