"""The deploy against a real web server (issue 22): Debian's nginx serves the session's built
site with deploy/nginx/sqrtdk.conf (and brotli.conf) exactly as the repository has them, on
127.0.0.1, from a temporary prefix (its own pid, logs and temp folders), and is stopped after.
Checked: content types, the precompressed encodings, cache headers, the security headers
against the pages' own CSP, and the 404 page. Skipped when nginx is missing, except in CI."""
from __future__ import annotations

import gzip
import http.client
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import brotli
import pytest
from helpers import Tree

from sqrtdk.options import PROJECT_ROOT
from sqrtdk.web.publish import IMMUTABLE, REVALIDATE, unhashed_name

CONF = PROJECT_ROOT / "deploy" / "nginx"
BROTLI_MODULE = Path("/usr/lib/nginx/modules/ngx_http_brotli_static_module.so")


def nginx_binary() -> str:
    """Debian's nginx; a skip without it (a failure in CI, which must run this test)."""
    found = shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None)
    missing = "nginx" if found is None else "" if BROTLI_MODULE.is_file() else \
        "the brotli module (libnginx-mod-http-brotli-static)"
    if missing and os.environ.get("CI"):
        pytest.fail(f"CI must run the nginx test, but {missing} is missing")
    if found is None:
        pytest.skip("nginx is not installed (apt-get install nginx libnginx-mod-http-brotli-static)")
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def config(prefix: Path, site: Path, port: int) -> str:
    """A whole nginx.conf around the repository's snippets: everything nginx writes goes to
    `prefix`; as root, the workers keep root's user (the test's folders are private)."""
    brotli_on = BROTLI_MODULE.is_file()
    temp = "\n".join(f"    {kind}_temp_path {prefix / kind};"
                     for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    return f"""{f'load_module {BROTLI_MODULE};' if brotli_on else ''}
{'user root root;' if os.geteuid() == 0 else ''}
worker_processes 1;
daemon off;
pid {prefix / 'nginx.pid'};
error_log {prefix / 'error.log'} warn;
events {{ worker_connections 64; }}
http {{
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log {prefix / 'access.log'};
{temp}
    server {{
        listen 127.0.0.1:{port};
        root {site};
        include {CONF / 'sqrtdk.conf'};
        {f"include {CONF / 'brotli.conf'};" if brotli_on else ''}
    }}
}}
"""


@pytest.fixture(scope="module")
def nginx(site_build: dict[str, Any], tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """The port of nginx serving the session's site; stopped when the module's tests end."""
    binary = nginx_binary()
    prefix = tmp_path_factory.mktemp("nginx")
    for attempt in range(3):   # another process may take the free port before nginx does
        port = free_port()
        (prefix / "nginx.conf").write_text(config(prefix, site_build["site"], port), "utf-8")
        proc = subprocess.Popen([binary, "-p", str(prefix), "-c", str(prefix / "nginx.conf"),
                                 "-e", str(prefix / "error.log")],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if wait_for(port, proc):
            break
        err = proc.stderr.read().decode() if proc.stderr else ""
        if attempt == 2 or "Address already in use" not in err:
            pytest.fail(f"nginx did not start: {err}")
    try:
        yield port
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def wait_for(port: int, proc: subprocess.Popen[bytes]) -> bool:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return True
        except OSError:
            time.sleep(0.05)
    if proc.poll() is None:
        proc.kill()
    proc.wait()
    return False


def get(port: int, path: str, encoding: str = "") -> tuple[int, dict[str, str], bytes]:
    """(status, headers by lower-case name, body as sent) of one GET."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path, headers={"Accept-Encoding": encoding} if encoding else {})
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


def decoded(headers: dict[str, str], body: bytes) -> bytes:
    kind = headers.get("content-encoding", "")
    return brotli.decompress(body) if kind == "br" else gzip.decompress(body) if kind == "gzip" \
        else body


def page_assets(site: Path, lang: str) -> dict[str, str]:
    """Original name -> site path of the files the page loads, found through its HTML."""
    out = {}
    for el in Tree((site / lang / "index.html").read_text("utf-8")).elements:
        url = el["attrs"].get("src") or (el["attrs"].get("href") if el["tag"] == "link" else "")
        if url and url.startswith("../"):
            out[unhashed_name(url[3:])] = url[3:]
    return out


def page_csp(site: Path, rel: str) -> str:
    return next(e["attrs"]["content"] for e in Tree((site / rel).read_text("utf-8")).elements
                if e["attrs"].get("http-equiv") == "Content-Security-Policy")


@pytest.mark.parametrize("encoding", ["br", "gzip", ""])
def test_pages_are_sent_precompressed_and_revalidated(nginx: int, site_build: dict[str, Any],
                                                      encoding: str) -> None:
    if encoding == "br" and not BROTLI_MODULE.is_file():
        pytest.skip("no Brotli module for nginx (libnginx-mod-http-brotli-static)")
    site = site_build["site"]
    for lang in site_build["languages"]:
        for path in (f"/{lang}/", f"/{lang}/index.html"):
            status, h, body = get(nginx, path, encoding)
            assert status == 200, path
            assert h["content-type"] == "text/html; charset=utf-8"
            assert h.get("content-encoding", "") == encoding
            assert "Accept-Encoding" in h.get("vary", "")
            assert decoded(h, body) == (site / lang / "index.html").read_bytes()
            assert h["cache-control"] == REVALIDATE
            assert h["content-security-policy"] == page_csp(site, f"{lang}/index.html")
            assert h["x-content-type-options"] == "nosniff" and h["referrer-policy"]


@pytest.mark.parametrize("name, content_type, compressed", [
    ("assets/style.css", "text/css; charset=utf-8", True),
    ("assets/explainer.js", "application/javascript; charset=utf-8", True),
    ("assets/explainer-data.js", "application/javascript; charset=utf-8", True),
    ("assets/katex/katex.min.css", "text/css; charset=utf-8", True),
    ("assets/katex/fonts/KaTeX_Main-Regular.woff2", "font/woff2", False),
])
def test_hashed_assets_are_cached_forever(nginx: int, site_build: dict[str, Any], name: str,
                                          content_type: str, compressed: bool) -> None:
    site, lang = site_build["site"], site_build["languages"][0]
    rel = page_assets(site, lang)[name]
    assert rel != name                       # the page loads it under its hashed name
    status, h, body = get(nginx, f"/{rel}", "br, gzip")
    assert status == 200 and h["content-type"] == content_type
    best = "br" if BROTLI_MODULE.is_file() else "gzip"    # without the module: gzip_static
    assert h.get("content-encoding", "") == (best if compressed else "")
    assert decoded(h, body) == (site / rel).read_bytes()
    assert h["cache-control"] == IMMUTABLE and h["x-content-type-options"] == "nosniff"


def test_figures_and_cards_have_their_types(nginx: int, site_build: dict[str, Any]) -> None:
    site = site_build["site"]
    for pattern, content_type in (("*.svg", "image/svg+xml; charset=utf-8"),
                                  ("*.png", "image/png")):
        rel = next((site / "figures").glob(pattern)).relative_to(site).as_posix()
        status, h, body = get(nginx, f"/{rel}", "gzip")
        assert status == 200 and h["content-type"] == content_type, rel
        assert decoded(h, body) == (site / rel).read_bytes()
        assert h["cache-control"] == IMMUTABLE


@pytest.mark.parametrize("path", ["/no/such/page", "/assets/style.000000000000.css", "/en/x.html"])
def test_a_missing_address_gets_the_404_page(nginx: int, site_build: dict[str, Any],
                                             path: str) -> None:
    status, h, body = get(nginx, path, "br")
    assert status == 404
    assert h["content-type"] == "text/html; charset=utf-8"
    assert decoded(h, body) == (site_build["site"] / "404.html").read_bytes()
    assert h["cache-control"] == REVALIDATE


def test_files_crawlers_fetch_keep_their_names(nginx: int, site_build: dict[str, Any]) -> None:
    for path, content_type in (("/sitemap.xml", "text/xml; charset=utf-8"),
                               ("/robots.txt", "text/plain; charset=utf-8")):
        status, h, body = get(nginx, path)
        assert status == 200 and h["content-type"] == content_type, path
        assert body == (site_build["site"] / path[1:]).read_bytes()
        assert h["cache-control"] == REVALIDATE
