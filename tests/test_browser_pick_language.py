"""The root page's script (static/pick-language.js) over any configured languages (issue 21,
item 7): a root page rendered from the project's template with three languages, none of them
special to the script, opened with each browser language."""
from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from sqrtdk.options import PROJECT_ROOT
from sqrtdk.web.assemble import template_env

pytestmark = pytest.mark.browser
# (folder, html_lang): the first is the default language, the root page's own
LANGUAGES = (("pt", "pt-BR"), ("fr", "fr"), ("zh", "zh-CN"), ("zh-tw", "zh-TW"))


@pytest.fixture(scope="module")
def root_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("pick")
    alternates = [{"lang": lang, "html_lang": tag, "name": lang, "title": f"Title {lang}"}
                  for lang, tag in LANGUAGES]
    env = template_env(PROJECT_ROOT / "templates")
    html = env.get_template("index.html").render(
        csp="", title="A title", title_html="A title", base_url="https://example.org/",
        alternates=alternates,
        description="A description", html_lang=LANGUAGES[0][1], og=None, root="",
        canonical="https://example.org/")
    (folder / "index.html").write_text(html, encoding="utf-8")
    (folder / "assets").mkdir()
    for name in ("pick-language.js", "theme.js", "style.css"):
        shutil.copy(PROJECT_ROOT / "static" / name, folder / "assets" / name)
    for lang, _ in LANGUAGES:
        (folder / lang).mkdir()
        (folder / lang / "index.html").write_text(f"<title>{lang}</title>", encoding="utf-8")
    return folder


@pytest.mark.parametrize("locale, lang", [
    ("fr-CA", "fr"),          # the same language, another region
    ("zh-TW", "zh-tw"),       # the same tag beats the same language (zh, listed before it)
    ("zh-HK", "zh"),          # the same language: the first such link
    ("de-DE", "pt"),          # none: the page's own language, the default
    ("pt-PT", "pt"),
])
def test_the_reader_goes_to_their_language_among_any_configured(
        browser: Any, root_page: Path, locale: str, lang: str) -> None:
    context = browser.new_context(locale=locale)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto((root_page / "index.html").as_uri())
        page.wait_for_url(f"**/{lang}/index.html")
        assert errors == []
    finally:
        context.close()
