"""Faults of the build engine, each pinned by the case that showed it: a new language's
first build converts its pages once."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from helpers import copy_project_files

PY = sys.executable


def build(root: Path) -> str:
    proc = subprocess.run([PY, "build.py"], cwd=root, capture_output=True, encoding="utf-8",
                          check=False)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def conversions(out: str) -> list[int]:
    """The pages each `pages` line of a build's log says it converted (the check against
    the figures on disk, and a second time when the real figures differ)."""
    return [int(n) for n in re.findall(r"^pages\s+[\d.]+ s\s+\((\d+) converted", out, re.M)]


def add_language(project: Path, lang: str, like: str) -> None:
    """A language `lang` whose folder is a copy of `like`'s (so its figure labels equal that
    language's), added to site.toml's languages."""
    content = project / "content"
    shutil.copytree(content / like, content / lang)
    strings = content / lang / "strings.toml"
    text = re.sub(r'^html_lang = "[^"]*"', f'html_lang = "{lang}"',
                  strings.read_text(encoding="utf-8"), flags=re.M)
    strings.write_text(re.sub(r'^og_locale = "[^"]*"', f'og_locale = "{lang}_XX"', text,
                              flags=re.M), encoding="utf-8")
    site = content / "site.toml"
    site.write_text(re.sub(r"^languages = \[(.*)\]", rf'languages = [\1, "{lang}"]',
                           site.read_text(encoding="utf-8"), flags=re.M), encoding="utf-8")


def test_a_new_language_whose_labels_equal_anothers_converts_its_pages_once(
        tmp_path: Path, site_build: dict[str, Any]) -> None:
    """Its figures are the other language's drawings (figures_stage), so the check before
    the figures (early.figures_on_disk) knows their sizes: the pages it made are the build's,
    not made a second time once the figures are drawn."""
    project = copy_project_files(tmp_path / "p")
    shutil.copytree(site_build["root"] / "cache", project / ".cache")
    build(project)
    like = site_build["languages"][-1]
    add_language(project, "fr", like)
    out = build(project)
    assert len(conversions(out)) == 1 and "again" not in out, out
    assert conversions(out) == [1], out        # the new language's page, the others cached
    fr = sorted(f.name for f in (project / "figures").iterdir() if ".fr." in f.name)
    assert fr and all((project / "figures" / f).read_bytes() ==
                      (project / "figures" / f.replace(".fr.", f".{like}.")).read_bytes()
                      for f in fr)
