"""A site published under a sub-path (issue 22), as a GitHub Pages project site is: built with
`base_url = "https://example.org/some/path/"`, served under /some/path/ only (a missing file
gets 404.html with status 404, as GitHub Pages does), and opened in chromium. Every page
loads every asset without a failed request or a request outside the sub-path, and every link
of every page leads to a file the server has."""
from __future__ import annotations

import functools
import re
import shutil
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

import pytest
from browser import lay_out_everything

from sqrtdk.options import PROJECT_ROOT, BuildOptions
from sqrtdk.pipeline import build
from sqrtdk.web.serve_code import QuietServer

PREFIX = "/some/path/"
BASE_URL = f"https://example.org{PREFIX}"

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def subpath_site(site_build: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's content with base_url on a sub-path, built with a copy of the session
    build's cache (its own: other workers copy the session's while this build writes)."""
    root = tmp_path_factory.mktemp("subpath")
    shutil.copytree(site_build["opts"].cache_dir, root / "cache")
    content = root / "content"
    shutil.copytree(PROJECT_ROOT / "content", content)
    settings = content / "site.toml"
    text, n = re.subn(r'^base_url = ".*"$', f'base_url = "{BASE_URL}"',
                      settings.read_text("utf-8"), count=1, flags=re.M)
    assert n == 1, "content/site.toml has no base_url line"
    settings.write_text(text, "utf-8")
    opts = BuildOptions.for_project(PROJECT_ROOT, content_dir=content, out=root / "site",
                                    figures_dir=root / "figures",
                                    cache_dir=root / "cache")
    build(opts, log=lambda _: None)
    return root / "site"


class UnderPrefix(SimpleHTTPRequestHandler):
    """Serves the folder under PREFIX only; anything else, or a missing file, is 404.html."""

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass

    def send_head(self) -> Any:
        path = urlsplit(self.path).path
        if path.startswith(PREFIX):
            local = Path(self.translate_path("/" + path[len(PREFIX):]))
            if local.is_file() or (local / "index.html").is_file() or not path.endswith("/") \
                    and local.is_dir():
                self.path = "/" + self.path[len(PREFIX):]
                return super().send_head()
        body = (Path(self.directory) / "404.html").read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return _Body(body)


class _Body:
    def __init__(self, data: bytes):
        self.data = data

    def read(self, *_: Any) -> bytes:
        data, self.data = self.data, b""
        return data

    def close(self) -> None:
        pass


@pytest.fixture(scope="module")
def subpath_server(subpath_site: Path) -> Iterator[str]:
    httpd = QuietServer(("127.0.0.1", 0), functools.partial(
        UnderPrefix, directory=str(subpath_site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}{PREFIX}"
    httpd.shutdown()
    httpd.server_close()


def open_and_record(browser: Any, url: str, origin: str) -> tuple[Any, Any, list[str]]:
    """The page at `url` with every asset and lazy image loaded; problems: failed requests,
    error statuses (but the document's own), requests outside the sub-path, console errors."""
    context = browser.new_context()
    page = context.new_page()
    problems: list[str] = []
    page.on("requestfailed", lambda r: problems.append(f"failed: {r.url} {r.failure}"))
    page.on("response", lambda r: r.status >= 400 and r.url != url
            and problems.append(f"{r.status}: {r.url}"))
    page.on("request", lambda r: r.url.startswith((origin, "data:"))
            or problems.append(f"outside the sub-path: {r.url}"))
    page.on("console", lambda m: m.type == "error" and m.location.get("url") != url
            and problems.append(f"console: {m.text}"))   # the document's own 404 is meant
    page.goto(url, wait_until="load")
    lay_out_everything(page)
    return context, page, problems


def site_pages(site: Path) -> list[str]:
    return sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))


@pytest.mark.slow
def test_every_page_loads_everything_under_the_subpath(browser: Any, subpath_site: Path,
                                                       subpath_server: str) -> None:
    pages = site_pages(subpath_site)
    assert "404.html" in pages and len(pages) > 3
    for rel in [*pages, "no/such/page"]:
        url = urljoin(subpath_server, rel)
        context, page, problems = open_and_record(browser, url, subpath_server)
        try:
            loaded = page.evaluate("""() => performance.getEntriesByType('resource')
                .map(e => e.name)""")
            assert problems == [], (rel, problems)
            if rel != "no/such/page":
                assert any(u.endswith(".css") for u in loaded), rel   # the style sheet came
            links = page.evaluate("""() => [...document.querySelectorAll('a[href]')]
                .map(a => a.href)""")
            for link in {link.split("#")[0] for link in links}:
                if link.startswith(subpath_server):
                    status = context.request.get(link).status
                    assert status == 200, (rel, link, status)
                else:   # other sites, or this site's published address (canonical links)
                    assert not link.startswith("http://127.0.0.1"), (rel, link)
        finally:
            context.close()
