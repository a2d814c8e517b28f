"""The assembled site as a static host or a CDN wants it (issue 22), one pass before writing.

0. Minified style sheets and scripts (`minify`, done by esbuild, sqrtdk/web/minify.py):
   every .css and .js file copied from the project (static/), before it is hashed; not
   those already minified (`*.min.*`, KaTeX's), nor generated ones (the embedded data is
   compact JSON already, and tools read it back as JSON: embed.read_data_script).
1. Content-hashed names: every file a page loads (style sheets, scripts, the embedded data,
   the math engine's CSS and fonts, figures, link-preview cards) is renamed
   `name.<hash>.ext`, the hash being the first HASH_LENGTH hex digits of the SHA-256 of its
   final bytes, and every reference to it is rewritten (`rewrite`: HTML attributes, srcset,
   CSS url(), preloads).
   A style sheet is hashed after its own references are, so a new font gives a new sheet
   name too. Pages (`*.html`), sitemap.xml and robots.txt keep their addresses.
2. Precompressed siblings: `x.br` (Brotli, quality 11) and `x.gz` (gzip level 9, no file
   name, time 0: the same bytes every build) beside every text file.
3. `_headers` (Netlify and Cloudflare Pages): immutable caching for hashed files, `no-cache`
   for the rest, and the page's security headers.
"""
from __future__ import annotations

import gzip
import hashlib
import json
import os
import posixpath
import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit, urlunsplit

from .output import Site
from .rewrite import css_references, rewrite_css, rewrite_html

HASH_LENGTH = 12
STABLE = frozenset({"sitemap.xml", "robots.txt", "_headers"})   # beside every *.html
TEXT_SUFFIXES = frozenset({".html", ".css", ".js", ".mjs", ".json", ".svg", ".xml", ".txt",
                           ".map", ".webmanifest"})
BROTLI_QUALITY = 11
GZIP_LEVEL = 9
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
REFERRER_POLICY = "strict-origin-when-cross-origin"

Compress = Callable[[str, bytes], bytes]      # (encoding, bytes) -> compressed bytes
# (what, a page's or a style sheet's bytes, old path -> new path of every renamed file, make)
# -> what `make` returns: a cache may answer for bytes it has seen with the same names and
# `what` ("rewrite": the file with its references rewritten; "references": the site paths a
# style sheet refers to, one a line), so that only a changed file is parsed again
Rewrite = Callable[[str, bytes, dict[str, str], Callable[[], bytes]], bytes]
# (site path, bytes, source file) -> minified bytes
Minify = Callable[[str, bytes, Path], bytes]


def is_stable(rel: str) -> bool:
    """Whether the file keeps its address (a page or a file crawlers fetch by name)."""
    return rel.endswith(".html") or rel in STABLE


def hashed_name(rel: str, data: bytes) -> str:
    """`dir/name.ext` -> `dir/name.<first HASH_LENGTH hex digits of sha256(data)>.ext`."""
    path = PurePosixPath(rel)
    tag = hashlib.sha256(data).hexdigest()[:HASH_LENGTH]
    return str(path.with_name(f"{path.stem}.{tag}{path.suffix}"))


def unhashed_name(rel: str) -> str:
    """The name a file had before `hashed_name` (a name without a hash is returned as it is)."""
    return _HASHED.sub("", rel)


_HASHED = re.compile(rf"\.[0-9a-f]{{{HASH_LENGTH}}}(?=\.[^./]+$)")


def fingerprint(site: Site, base_url: str, memo: Rewrite | None = None) -> dict[str, str]:
    """Rename every asset of `site` to its content-hashed name and rewrite every reference to
    it, in place; returns old path -> new path. Copied files are read, generated files
    replaced; HTML pages, sitemap.xml and robots.txt keep their paths. `memo` may keep what
    is read from the pages and style sheets (parsing them is most of the cost; see Rewrite)."""
    def remembered(what: str, data: bytes, names: dict[str, str],
                   make: Callable[[], bytes]) -> bytes:
        return memo(what, data, names, make) if memo is not None else make()

    renamed: dict[str, str] = {}
    assets = sorted(rel for rel in site.paths() if not is_stable(rel))
    sheets = [rel for rel in assets if rel.endswith(".css")]
    for rel in assets:                                   # files that reference nothing
        if rel not in sheets:
            renamed[rel] = _rename(site, rel, _bytes(site, rel))
    targets = {rel: _css_targets(rel, _bytes(site, rel), remembered) for rel in sheets}
    pending = list(sheets)
    while pending:                                       # a sheet after the sheets it imports
        ready = [rel for rel in pending if not targets[rel] & set(pending)]
        if not ready:
            raise RuntimeError(f"style sheets import each other: {pending}")
        for rel in ready:
            sheet = _bytes(site, rel)

            def rewrite_sheet(sheet: bytes = sheet, rel: str = rel) -> bytes:
                return rewrite_css(sheet.decode("utf-8"),
                                   _mapper(rel, renamed, base_url)).encode("utf-8")
            data = remembered("rewrite", sheet, {"": rel, "base": base_url, **renamed},
                              rewrite_sheet)
            renamed[rel] = _rename(site, rel, data)
            pending.remove(rel)
    for rel in sorted(site.files):
        if rel.endswith(".html"):
            page = site.files[rel]

            def rewrite(page: bytes = page, rel: str = rel) -> bytes:
                return rewrite_html(page.decode("utf-8"), _mapper(rel, renamed, base_url),
                                    lambda url: url.startswith(base_url)).encode("utf-8")
            site.files[rel] = remembered("rewrite", page, {"": rel, "base": base_url, **renamed},
                                         rewrite)
    return renamed


def _bytes(site: Site, rel: str) -> bytes:
    return site.files[rel] if rel in site.files else site.copies[rel].read_bytes()


def _rename(site: Site, rel: str, data: bytes) -> str:
    """Move `rel` to its hashed name; a copied file whose bytes `data` still are stays a copy
    (not held in memory)."""
    new = hashed_name(rel, data)
    source = site.copies.pop(rel, None)
    generated = site.files.pop(rel, None)
    if source is not None and generated is None and data == source.read_bytes():
        site.copies[new] = source
    else:
        site.files[new] = data
    return new


def _css_targets(rel: str, data: bytes, memo: Rewrite) -> set[str]:
    """Site paths the style sheet `rel` (its bytes `data`) refers to."""
    def read() -> bytes:
        urls = css_references(data.decode("utf-8"))
        found = {target for url in urls if (target := site_path(rel, url, "")) is not None}
        return json.dumps(sorted(found)).encode("utf-8")
    return set(json.loads(memo("references", data, {"": rel}, read)))


def site_path(rel: str, url: str, base_url: str) -> str | None:
    """The site path `url`, written in the file `rel`, points to; None for another site,
    a data: URL or a bare fragment. An absolute URL under `base_url` and a path starting
    with its path (404.html's links) count as this site's."""
    base_path = urlsplit(base_url).path or "/"
    if base_url and url.startswith(base_url):
        url = base_path + url[len(base_url):]
    parts = urlsplit(url)
    if parts.scheme or parts.netloc or not parts.path:
        return None
    path = unquote(parts.path)
    if path.startswith("/"):
        if not path.startswith(base_path):
            return None
        return posixpath.normpath(path[len(base_path):] or ".")
    return posixpath.normpath(posixpath.join(posixpath.dirname(rel), path))


def _mapper(rel: str, renamed: dict[str, str], base_url: str) -> Callable[[str], str | None]:
    """A reference written in `rel` -> the same reference to the renamed file (only the last
    path segment changes; query and fragment stay), or None when it names no renamed file."""
    def new_url(url: str) -> str | None:
        target = site_path(rel, url, base_url)
        if target not in renamed:
            return None
        parts = urlsplit(url)
        head, _, _ = parts.path.rpartition("/")
        new_name = PurePosixPath(renamed[target]).name
        return urlunsplit(parts._replace(path=f"{head}/{new_name}" if "/" in parts.path
                                         else new_name))
    return new_url


def minify_assets(site: Site, minify: Minify) -> int:
    """Replace every copied style sheet and script of `site` that `minify.minifiable`
    accepts by `minify(path, bytes, source file)` (see sqrtdk/web/minify.py; the build
    caches it), in place; returns how many were minified. Generated files and pages are
    untouched."""
    from .minify import minifiable
    done = 0
    for rel in sorted(site.copies):
        if is_stable(rel) or not minifiable(rel):
            continue
        source = site.copies.pop(rel)
        site.files[rel] = minify(rel, source.read_bytes(), source)
        done += 1
    return done


def precompress(site: Site, compress: Compress) -> int:
    """Add `x.br` and `x.gz` beside every text file `x` of `site`; returns how many files got
    siblings. `compress(encoding, data)` does the work (see `compressed`; the build caches
    it), in threads: Brotli and zlib release the GIL while they compress."""
    texts = [rel for rel in sorted(site.paths()) if PurePosixPath(rel).suffix in TEXT_SUFFIXES]
    jobs = [(rel, suffix, encoding) for rel in texts
            for suffix, encoding in ((".br", "br"), (".gz", "gzip"))]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        done = pool.map(lambda job: compress(job[2], _bytes(site, job[0])), jobs)
        for (rel, suffix, _), data in zip(jobs, done):
            site.files[rel + suffix] = data
    return len(texts)


def compressed(encoding: str, data: bytes) -> bytes:
    """`data` compressed as `br` (Brotli at its best quality, 11) or `gzip` (level 9, no file
    name and time 0 in the header, so the bytes depend on `data` alone; RFC 1952)."""
    if encoding == "br":
        import brotli
        return bytes(brotli.compress(data, quality=BROTLI_QUALITY))
    if encoding == "gzip":
        return gzip.compress(data, compresslevel=GZIP_LEVEL, mtime=0)
    raise ValueError(f"unknown encoding {encoding!r}")


def headers_file(site: Site, base_url: str, csp: str, hashed: bool = True) -> bytes:
    """`_headers` in the format Netlify and Cloudflare Pages read: the security headers for
    every address, `Cache-Control` immutable for hashed files and `no-cache` for the others;
    with `hashed` False (`--serve`'s site, whose files keep their names: the next edit gives
    new bytes at the same address), `no-cache` for every file, so that a `site/` copied to a
    host straight after serving is never cached for a year under names that do not change.
    Rules never overlap on Cache-Control (both hosts join the values of overlapping rules):
    a folder of hashed files only gets one wildcard rule, any other file its own."""
    base = urlsplit(base_url).path or "/"
    lines = [f"{base}*", f"  Content-Security-Policy: {csp}", "  X-Content-Type-Options: nosniff",
             f"  Referrer-Policy: {REFERRER_POLICY}", ""]
    paths = sorted(rel for rel in site.paths() if rel != "_headers"
                   and not rel.endswith((".br", ".gz")))
    done: set[str] = set()          # files under a folder's wildcard rule
    for folder in sorted({posixpath.dirname(rel) for rel in paths}):
        subtree = [rel for rel in paths if rel.startswith(f"{folder}/")]
        if hashed and folder and subtree[0] not in done \
                and not any(is_stable(rel) for rel in subtree):
            lines += [f"{base}{folder}/*", f"  Cache-Control: {IMMUTABLE}", ""]
            done.update(subtree)
    for rel in paths:
        if rel in done:
            continue
        addresses = [rel]
        if rel == "index.html" or rel.endswith("/index.html"):
            addresses.insert(0, rel[:-len("index.html")])
        value = REVALIDATE if is_stable(rel) or not hashed else IMMUTABLE
        for address in addresses:         # one block each: a path line ends the block above
            lines += [f"{base}{address}", f"  Cache-Control: {value}", ""]
    return "\n".join(lines).encode("utf-8")


def publish(site: Site, base_url: str, csp: str, compress: Compress | None,
            memo: Rewrite | None = None, hashed: bool = True,
            minify: Minify | None = None) -> dict[str, int]:
    """The steps above on the assembled `site`, in place (`minify` None: style sheets and
    scripts as written; `compress` None: no precompressed siblings; `hashed` False: every
    file keeps its name, as `--serve` builds; `memo`: see fingerprint); returns counts for
    the build's log line."""
    minified = minify_assets(site, minify) if minify is not None else 0
    renamed = fingerprint(site, base_url, memo) if hashed else {}
    site.files["_headers"] = headers_file(site, base_url, csp, hashed)
    packed = precompress(site, compress) if compress is not None else 0
    return {"minified": minified, "hashed": len(renamed), "compressed": packed}


__all__ = ["compressed", "fingerprint", "hashed_name", "headers_file", "is_stable",
           "minify_assets", "precompress", "publish", "site_path", "unhashed_name"]
