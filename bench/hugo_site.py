"""The two articles as a Hugo site with server-side KaTeX, and its build times.

Math: Goldmark's passthrough extension keeps `$…$` and `$$…$$` away from Markdown, and the
passthrough render hook typesets each with `transform.ToMath` (Hugo's embedded KaTeX), so Hugo,
like our build, ships typeset formulas. Each article is a leaf bundle (content/<lang>/index.md)
with its SVGs beside it. Hugo keeps file caches between runs (--cacheDir); a cold run starts
without them, and a plain `hugo build` always renders every page (only `hugo server` rebuilds
incrementally).
"""
from __future__ import annotations

import shutil
from pathlib import Path

from plain_md import figure_files, for_hugo
from timing import Case
from workspace import LANGUAGES, append_sentence, remove_tree

CONFIG = """\
baseURL = "/"
title = "Why divide by √dₖ? (benchmark copy)"
relativeURLs = true
disableKinds = ["taxonomy", "term", "rss", "sitemap", "404"]

[markup.goldmark.renderer]
unsafe = true   # the <details> boxes

[markup.goldmark.extensions.passthrough]
enable = true

[markup.goldmark.extensions.passthrough.delimiters]
block = [["$$", "$$"]]
inline = [["$", "$"]]

[markup.tableOfContents]
startLevel = 2
endLevel = 3
"""

LAYOUTS = {
    "_markup/render-passthrough.html": """\
{{- $opts := dict "output" "htmlAndMathml" "displayMode" (eq .Type "block") -}}
{{- with try (transform.ToMath .Inner $opts) -}}
  {{- with .Err -}}
    {{- errorf "KaTeX: %s: see %s" . $.Position -}}
  {{- else -}}
    {{- .Value -}}
  {{- end -}}
{{- end -}}
""",
    "single.html": """\
<!doctype html>
<html>
<head>
<meta charset="utf-8">
<title>{{ .Title }}</title>
<meta name="description" content="{{ .Description }}">
<link rel="stylesheet" href="{{ "katex/katex.min.css" | relURL }}">
</head>
<body>
<nav>{{ .TableOfContents }}</nav>
<main><h1>{{ .Title }}</h1>{{ .Content }}</main>
</body>
</html>
""",
    "home.html": """\
<!doctype html>
<html>
<head><meta charset="utf-8"><title>{{ .Site.Title }}</title></head>
<body><ul>{{ range .Site.RegularPages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul></body>
</html>
""",
}


def generate(project: Path, dest: Path) -> Path:
    """Write the Hugo project for `project`'s articles into `dest` (replaced); returns it."""
    remove_tree(dest)
    for lang in LANGUAGES:
        text = for_hugo(project, lang)
        bundle = dest / "content" / lang
        bundle.mkdir(parents=True)
        (bundle / "index.md").write_text(text, encoding="utf-8")
        for name in figure_files(text):
            shutil.copy2(project / "figures" / name, bundle / name)
    for rel, text in LAYOUTS.items():
        (dest / "layouts" / rel).parent.mkdir(parents=True, exist_ok=True)
        (dest / "layouts" / rel).write_text(text, encoding="utf-8")
    katex = project / "node_modules" / "katex" / "dist"
    (dest / "static" / "katex").mkdir(parents=True)
    shutil.copy2(katex / "katex.min.css", dest / "static" / "katex" / "katex.min.css")
    shutil.copytree(katex / "fonts", dest / "static" / "katex" / "fonts")
    (dest / "hugo.toml").write_text(CONFIG, encoding="utf-8")
    return dest


def cases(site: Path, hugo: Path) -> dict[str, Case]:
    """`hugo build` cold (no output, no caches), unchanged, and after an appended sentence."""
    cmd = [str(hugo), "build", "--quiet", "--cacheDir", str(site / "hugo-cache"),
           "--destination", "public"]

    def cold(i: int) -> None:
        for folder in ("public", "resources", "hugo-cache"):
            remove_tree(site / folder)

    def edit(i: int) -> None:
        append_sentence(site / "content" / "en" / "index.md", f"hugo {i}")

    warm = "full render with warm file caches (no incremental build outside `hugo server`)"
    return {"cold": Case(cmd, site, cold, "no public/, resources/ or cache folder"),
            "unchanged": Case(cmd, site, None, warm),
            "text_edit": Case(cmd, site, edit, warm)}
