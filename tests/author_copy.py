"""The author's copy (issue 9, item 7; issue 19, item 5): the project copied, its articles
reworded and extended the way the README tells an author to, built with `build.py --strict`.
Made once per session (conftest's `author_copy`), for every pytest-xdist worker.

The copy gets: its first paragraph reworded in every language, a new section, and a new
figure (with its table of numbers) added by following README.md's "Add a figure" recipe to the letter (the blocks marked
`<!-- recipe: … -->` are applied as written). Its cache starts as a copy of the project's
`.cache` when there is one (what `make site` left): what the author's edits change is made
anew, the rest is served by content-addressed entries, so the copy is not built cold.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from helpers import git_copy

from sqrtdk.options import PROJECT_ROOT

GUARD = "SQRTDK_AUTHOR_COPY"     # set in the copy's own pytest run (tests/test_author_copy.py)
README = PROJECT_ROOT / "README.md"
# a recipe's block: fenced by ``` (or more backticks, for one that holds a fence itself)
RECIPE = re.compile(r"<!-- recipe: (?P<what>[^>]*?) -->\s*\n\s*(?P<fence>```+)\w*\n(?P<body>.*?)"
                    r"\n\s*(?P=fence)(?!`)", re.S)
OPENING = {"zh": "\u5148\u628a\u80cc\u666f\u4ea4\u4ee3\u6e05\u695a\uff1a"}   # "first, the background:"
OPENING_OTHER = "To set the scene before anything else: "
SECTION_ID = "author-added"


def recipes() -> dict[str, str]:
    """README's recipe blocks, by their label, de-indented as a reader would copy them."""
    found = {}
    for m in RECIPE.finditer(README.read_text(encoding="utf-8")):
        lines = m["body"].split("\n")
        indent = min((len(x) - len(x.lstrip()) for x in lines if x.strip()), default=0)
        found[m["what"].strip()] = "\n".join(x[indent:] for x in lines) + "\n"
    return found


def front_matter_end(text: str) -> int:
    """Offset just after the closing `---` line of the front matter (0 if there is none)."""
    m = re.match(r"---\n.*?\n---\n", text, re.S)
    return m.end() if m else 0


def reword_first_paragraph(text: str, lang: str) -> str:
    """The article's first paragraph said differently: a new opening clause, the old first
    word lower-cased (what an author's edit of the opening words amounts to)."""
    start = front_matter_end(text)
    body = text[start:]
    lead = len(body) - len(body.lstrip("\n"))
    opening = OPENING.get(lang, OPENING_OTHER)
    first = body[lead:]
    if lang not in OPENING and first[:1].isupper() and not first[1:2].isupper():
        first = first[:1].lower() + first[1:]
    return text[:start] + body[:lead] + opening + first


def add_section(text: str, figure_paragraph: str) -> str:
    """A new section, holding the README's figure paragraph, before the article's second `##`
    heading (so both languages put it at the same place among their headings)."""
    headings = [m.start() for m in re.finditer(r"^## ", text, re.M)]
    at = headings[1] if len(headings) > 1 else len(text)
    section = (f"## A section an author added {{#{SECTION_ID}}}\n\n"
               "One sentence of new prose.\n\n" + figure_paragraph + "\n")
    return text[:at] + section + text[at:]


# where README's "Add a figure" step 4 puts the table function in its module, as it words it
TABLE_AFTER_LAST = "after the last function registered with `@table`"
TABLE_AT_END = "at the end of `sqrtdk/web/fig_tables.py`"


def with_table(module: str, function: str) -> str:
    """The text of the figure tables' module `module` with the README's table `function` put
    where step 4 of "Add a figure" says: after the last `@table` function (before the
    helpers below it), or at the module's end. AssertionError when the step names neither."""
    import ast
    text = README.read_text(encoding="utf-8")
    step = " ".join(text[text.index("Give it a table of its numbers"):][:400].split())
    if TABLE_AFTER_LAST in step:
        last = max(node.end_lineno or node.lineno for node in ast.parse(module).body
                   if isinstance(node, ast.FunctionDef) and any(
                       isinstance(d, ast.Call) and getattr(d.func, "id", "") == "table"
                       for d in node.decorator_list))
        lines = module.split("\n")
        return "\n".join([*lines[:last], "", "", function.rstrip("\n"), *lines[last:]])
    if TABLE_AT_END in step:
        return module.rstrip("\n") + "\n\n\n" + function
    raise AssertionError(f"README's step 4 names no place the author's copy knows: {step!r}")


def make(root: Path) -> Path:
    """The edited copy in `root` (a git clone of the project's files, committed before the
    author's edits), its cache a copy of the project's `.cache` when there is one."""
    git_copy(root)
    project_cache = PROJECT_ROOT / ".cache"
    if project_cache.is_dir():
        shutil.copytree(project_cache, root / ".cache")
    steps = recipes()
    module_key = next(k for k in steps if k.startswith("figure module "))
    module = root / module_key.split(" ", 2)[2]
    if module.exists():
        raise AssertionError(f"the recipe would overwrite {module}")
    module.write_text(steps[module_key], encoding="utf-8")
    table_key = next(k for k in steps if k.startswith("figure table "))
    tables = root / table_key.split(" ", 2)[2]            # step 4: where the README says
    tables.write_text(with_table(tables.read_text(encoding="utf-8"), steps[table_key]),
                      encoding="utf-8")
    for lang_dir in sorted(p for p in (root / "content").iterdir() if p.is_dir()):
        labels = lang_dir / "figures.toml"
        labels.write_text(labels.read_text(encoding="utf-8").rstrip("\n") + "\n\n"
                          + steps.get(f"figure labels {lang_dir.name}", steps["figure labels"]),
                          encoding="utf-8")
        article = lang_dir / "index.md"
        text = reword_first_paragraph(article.read_text(encoding="utf-8"), lang_dir.name)
        article.write_text(add_section(text, steps.get(f"figure paragraph {lang_dir.name}",
                                                       steps["figure paragraph"])),
                           encoding="utf-8")
    return root


def make_and_build(folder: Path) -> None:
    """`make(folder / "project")`, then `build.py --strict` in it, as an author runs it; the
    build's exit code and output are kept in `folder / "build.json"` (`built` reads them)."""
    root = make(folder / "project")
    env = {**os.environ, GUARD: "1"}
    done = subprocess.run([sys.executable, "build.py", "--strict"], cwd=root,
                          capture_output=True, encoding="utf-8", errors="replace", env=env)
    from sqrtdk.options import BuildOptions
    opts = BuildOptions.for_project(root)
    layout = folder / "layout"     # conftest's site_build layout over the copy's own folders
    layout.mkdir()
    assert opts.cache_dir is not None
    for name, target in (("site", opts.out), ("figures", opts.figures_dir),
                         ("cache", opts.cache_dir)):
        (layout / name).symlink_to(target)
    (folder / "build.json").write_text(json.dumps(
        {"returncode": done.returncode, "stdout": done.stdout, "stderr": done.stderr}),
        encoding="utf-8")


def built(folder: Path) -> dict[str, object]:
    """The copy's `build.py --strict` run (see `make_and_build`): returncode, stdout, stderr."""
    data: dict[str, object] = json.loads((folder / "build.json").read_text(encoding="utf-8"))
    return data
