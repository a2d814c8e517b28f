"""One article page: read the Markdown, quote the results, convert with a fresh Markdown.

Nothing is written here; a `Page` holds the converted body with math tokens and quote markers
still in it, and the facts the site builder validates before it writes a byte.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable

import markdown
import yaml

from .errors import BuildError, line_of
from .textfiles import load_strings, read_text  # noqa: F401 (re-exported)
from .mdext import ArticleExtension, ContentError
from .model import Facts, Page
from .quoting import QuoteLog, render_source, strip_quotes

_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?\n)---[ \t]*\n", re.S)
REQUIRED_META = ("title", "description")


def split_front_matter(path: Path, text: str) -> tuple[dict[str, str], str]:
    """Parse the leading `---` YAML block; returns (meta, body with the block blanked out).

    The block's lines become empty lines so the body keeps the file's line numbers.
    """
    m = _FRONT_MATTER.match(text)
    if not m:
        raise BuildError(path, 1, "missing front matter; start the file with '---', "
                                  "'title: …', 'description: …', '---'")
    try:
        meta = yaml.safe_load(m.group(1)) or {}
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        raise BuildError(path, (mark.line + 2) if mark else 1,
                         f"front matter is not valid YAML: {getattr(e, 'problem', e)}") from None
    if not isinstance(meta, dict):
        raise BuildError(path, 2, "front matter must be 'key: value' lines")
    for key in REQUIRED_META:
        if not isinstance(meta.get(key), str) or not meta[key].strip():
            raise BuildError(path, 1, f"front matter needs a '{key}: …' line")
    body = "\n" * m.group(0).count("\n") + text[m.end():]
    return {k: strip_quotes(str(v)) for k, v in meta.items()}, body


def markdown_instance(lang_strings: dict[str, Any], facts: Facts,
                      resolve: Callable[[str], tuple[str, int, int]],
                      quotes: QuoteLog | None = None) -> markdown.Markdown:
    """A fresh Markdown with the article's extensions (never reused across pages)."""
    ui = lang_strings["ui"]
    ext = ArticleExtension(facts, ui, resolve, quotes)
    return markdown.Markdown(
        extensions=["attr_list", "tables", "fenced_code", "sane_lists", "footnotes", "toc", "smarty",
                    "pymdownx.arithmatex", "pymdownx.blocks.details", ext],
        extension_configs={
            "pymdownx.arithmatex": {"generic": True},
            "footnotes": {"SEPARATOR": "-", "BACKLINK_TEXT": "↩\ufe0e",
                          "USE_DEFINITION_ORDER": False,   # numbered as the text cites them
                          "BACKLINK_TITLE": ui["backlink_title"],
                          "SUPERSCRIPT_TEXT": "{}"},
            "toc": {"toc_depth": "2-3", "permalink": "#", "permalink_title": ui["permalink"]},
        })


_FOOTNOTE_DEF = re.compile(r"^ {0,3}\[\^([^\]]+)\]:", re.M)


def _check_footnote_definitions(path: Path, body: str) -> None:
    """A label defined twice: Python-Markdown would silently keep the last definition."""
    seen: set[str] = set()
    for m in _FOOTNOTE_DEF.finditer(body):
        if m.group(1) in seen:
            raise BuildError(path, body.count("\n", 0, m.start()) + 1,
                             f"footnote '[^{m.group(1)}]' is defined twice; keep one definition")
        seen.add(m.group(1))


def build_page(path: Path, lang: str, results: dict[str, Any], strings: dict[str, Any],
               resolve: Callable[[str], tuple[str, int, int]]) -> Page:
    """Read, quote and convert one article. Raises BuildError with the file and line."""
    quoted, log = render_source(path, read_text(path), results)
    meta, body = split_front_matter(path, quoted)
    _check_footnote_definitions(path, body)
    facts = Facts()
    md = markdown_instance(strings, facts, resolve, log)
    try:
        html = md.convert(body)
    except ContentError as e:
        raise BuildError(path, line_of(strip_quotes(quoted), e.needle, occurrence=e.occurrence),
                         e.message) from None
    return Page(lang=lang, source=path, text=strip_quotes(quoted), meta=meta, body=html,
                toc=md.toc_tokens, facts=facts, quotes=log)
