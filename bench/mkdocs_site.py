"""The two articles as an MkDocs + Material site, and its build times.

Math: pymdown-extensions arithmatex in generic mode, typeset in the browser by KaTeX's
auto-render (the setup Material documents), so MkDocs does no typesetting at build time,
unlike our build and Hugo. MkDocs has no incremental build: `mkdocs build` always rebuilds
everything (only `mkdocs serve --dirty` skips unchanged pages), so its three cases differ only
by the edit.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import yaml
from plain_md import figure_files, for_mkdocs
from timing import Case
from tools import venv_bin
from workspace import LANGUAGES, append_sentence, remove_tree

KATEX_INIT = """\
document$.subscribe(({ body }) => {
  renderMathInElement(body, {
    delimiters: [
      { left: "\\\\[", right: "\\\\]", display: true },
      { left: "\\\\(", right: "\\\\)", display: false },
    ],
  });
});
"""


def config(site_name: str) -> dict:
    """mkdocs.yml: Material, the article's Markdown extensions, KaTeX from node_modules."""
    return {
        "site_name": site_name,
        "docs_dir": "docs",
        "site_dir": "site",
        "theme": {"name": "material"},
        "nav": [{"Home": "index.md"}, {"English": "en/index.md"}, {"中文": "zh/index.md"}],
        "markdown_extensions": [
            "attr_list", "tables", "sane_lists", "footnotes", {"toc": {"permalink": True}},
            {"pymdownx.arithmatex": {"generic": True}}, "pymdownx.blocks.details"],
        "extra_css": ["assets/katex/katex.min.css"],
        "extra_javascript": ["assets/katex/katex.min.js",
                             "assets/katex/contrib/auto-render.min.js",
                             "assets/katex-init.js"],
    }


def generate(project: Path, dest: Path) -> Path:
    """Write the MkDocs project for `project`'s articles into `dest` (replaced); returns it."""
    remove_tree(dest)
    docs = dest / "docs"
    for lang in LANGUAGES:
        text = for_mkdocs(project, lang)
        (docs / lang).mkdir(parents=True)
        (docs / lang / "index.md").write_text(text, encoding="utf-8")
        for name in figure_files(text):
            shutil.copy2(project / "figures" / name, docs / lang / name)
    (docs / "index.md").write_text("# √dₖ\n\n- [English](en/index.md)\n- [中文](zh/index.md)\n",
                                   encoding="utf-8")
    katex = project / "node_modules" / "katex" / "dist"
    (docs / "assets" / "katex" / "contrib").mkdir(parents=True)
    for rel in ("katex.min.css", "katex.min.js", "contrib/auto-render.min.js"):
        shutil.copy2(katex / rel, docs / "assets" / "katex" / rel)
    shutil.copytree(katex / "fonts", docs / "assets" / "katex" / "fonts")
    (docs / "assets" / "katex-init.js").write_text(KATEX_INIT, encoding="utf-8")
    (dest / "mkdocs.yml").write_text(
        yaml.safe_dump(config("Why divide by √dₖ? (benchmark copy)"), allow_unicode=True,
                       sort_keys=False), encoding="utf-8")
    return dest


def cases(site: Path) -> dict[str, Case]:
    """`mkdocs build` cold (no site/), unchanged, and after a sentence is appended."""
    cmd = [str(venv_bin("mkdocs")), "build", "--quiet"]
    full = "full rebuild: MkDocs has no incremental build"
    return {"cold": Case(cmd, site, lambda i: remove_tree(site / "site"),
                         "no output folder; MkDocs keeps no build cache"),
            "unchanged": Case(cmd, site, None, full),
            "text_edit": Case(cmd, site, lambda i: append_sentence(
                site / "docs" / "en" / "index.md", f"mkdocs {i}"), full)}
