"""The TOML files authors edit: one loader, `path:line: message; what to do`, checked before
anything is drawn (issue 9). Each test copies the project's content folder and breaks one
thing, so the tests follow the files as they are, whatever their words."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from sqrtdk.errors import BuildError
from sqrtdk.options import PROJECT_ROOT
from sqrtdk.settings import load_settings, load_strings
from sqrtdk.textfiles import load_toml

pytestmark = pytest.mark.author    # reads the author's files: runs again on the author's copy

CONTENT = PROJECT_ROOT / "content"


@pytest.fixture
def content(tmp_path: Path) -> Path:
    dest = tmp_path / "content"
    shutil.copytree(CONTENT, dest)
    return dest


def edit(path: Path, old: str | re.Pattern[str], new: str) -> int:
    """Replace the first match of `old` in `path`; returns the 1-based line it was on."""
    text = path.read_text(encoding="utf-8")
    pattern = old if isinstance(old, re.Pattern) else re.compile(re.escape(old), re.M)
    m = pattern.search(text)
    assert m, f"{old!r} not in {path}"
    path.write_text(text[:m.start()] + new + text[m.end():], encoding="utf-8")
    return text.count("\n", 0, m.start()) + 1


def load_all(content: Path) -> None:
    settings = load_settings(content)
    load_strings(content, settings.languages)


def error(content: Path) -> BuildError:
    with pytest.raises(BuildError) as e:
        load_all(content)
    return e.value


def languages(content: Path) -> list[str]:
    return list(load_settings(content).languages)


def test_the_project_files_load(content: Path) -> None:
    load_all(content)


def test_a_duplicate_table_names_its_line(content: Path) -> None:
    path = content / languages(content)[0] / "strings.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text + "\n[ui]\nextra = \"x\"\n", encoding="utf-8")
    e = error(content)
    assert e.path == path and e.line == text.count("\n") + 2 and "may appear once" in e.message


def test_a_duplicate_key_names_its_line(content: Path) -> None:
    path = content / "site.toml"
    line = edit(path, re.compile(r"^title = .*$", re.M), 'title = "A"\ntitle = "B"')
    e = error(content)
    assert (e.path, e.line) == (path, line + 1) and "invalid TOML" in e.message


def test_a_syntax_error_names_its_line(content: Path) -> None:
    path = content / languages(content)[1] / "strings.toml"
    line = edit(path, re.compile(r"^toc = .*$", re.M), 'toc = "unclosed')
    e = error(content)
    assert (e.path, e.line) == (path, line)


def test_a_key_missing_in_one_language(content: Path) -> None:
    first, second = languages(content)[:2]
    path = content / second / "strings.toml"
    edit(path, re.compile(r"^skip = .*\n", re.M), "")
    e = error(content)
    assert e.path == path and e.line == load_toml(path).line_of("ui")
    assert "'skip'" in e.message and f"{first}/strings.toml" in e.message


def test_an_extra_key_suggests_the_right_name(content: Path) -> None:
    path = content / languages(content)[1] / "strings.toml"
    line = edit(path, re.compile(r"^skip = ", re.M), 'skpi = "x"\nskip = ')
    e = error(content)
    assert (e.path, e.line) == (path, line) and "did you mean 'skip'" in e.message


@pytest.mark.parametrize("which", [0, 1])
def test_a_key_misspelt_in_one_language_names_both_lines(content: Path, which: int) -> None:
    """A misspelt key in either the first or another language: the other language's line
    of the pair, and the first language's file and line, whichever holds the typo."""
    first, second = (content / lang / "strings.toml" for lang in languages(content)[:2])
    line = edit([first, second][which], re.compile(r"^skip = ", re.M), "skpi = ")
    e = error(content)
    assert (e.path, e.line) == (second, load_toml(second).line_of("ui", ["skip", "skpi"][which]))
    assert "'skpi'" in e.message and "'skip'" in e.message and "misspelt" in e.message
    first_line = line if which == 0 else load_toml(first).line_of("ui", "skip")
    assert f"{first.parent.name}/strings.toml:{first_line} has '{['skpi', 'skip'][which]}'" \
        in e.message


@pytest.mark.parametrize("lang, key, wrong, says", [
    (1, "toc", "  ", ("[ui] toc is empty",)),
    (0, "figure", "Figure", ("{n}",)),                   # every caption would be unnumbered
    (0, "figure", "Figure {num}", ("unknown field {num}", "known fields: n")),
    (0, "figure", "Figure {n:.2q}", ("bad format",)),
], ids=["empty", "figure without its number", "unknown field", "bad format spec"])
def test_a_ui_string_mistake_is_an_error_at_its_line(content: Path, lang: int, key: str,
                                                     wrong: str, says: tuple[str, ...]) -> None:
    path = content / languages(content)[lang] / "strings.toml"
    line = edit(path, re.compile(rf"^{key} = .*$", re.M), f'{key} = "{wrong}"')
    e = error(content)
    assert (e.path, e.line) == (path, line) and all(s in e.message for s in says), e.message


@pytest.mark.parametrize("setting, wrong, says", [
    ("script", "CJK", "did you mean 'cjk'"),            # read as Latin, silently, before
    ("html_lang", "english", "language tag"),
    ("other_lang", "Chinese", "language tag"),
    ("og_locale", "en-US", "en_US"),
])
def test_a_language_setting_the_browser_would_not_understand(content: Path, setting: str,
                                                             wrong: str, says: str) -> None:
    path = content / languages(content)[-1] / "strings.toml"
    text = path.read_text(encoding="utf-8")
    if not re.search(rf"^{setting} = ", text, re.M):     # add it if this language has none
        text = text.replace("[language]\n", f'[language]\n{setting} = "x"\n', 1)
        path.write_text(text, encoding="utf-8")
    line = edit(path, re.compile(rf"^{setting} = \"[^\"]*\"", re.M), f'{setting} = "{wrong}"')
    e = error(content)
    assert (e.path, e.line) == (path, line) and says in e.message


def test_a_language_without_its_folder(content: Path) -> None:
    path = content / "site.toml"
    line = edit(path, re.compile(r"^languages = .*$", re.M), 'languages = ["zh", "en", "fr"]')
    e = error(content)
    assert (e.path, e.line) == (path, line) and "content/fr/" in e.message


def test_a_base_url_without_its_slash_is_its_folder(content: Path) -> None:
    path = content / "site.toml"
    edit(path, re.compile(r'^base_url = "(.*)/"', re.M), 'base_url = "https://example.org/sub"')
    assert load_settings(content).base_url == "https://example.org/sub/"


@pytest.mark.parametrize("url", ["example.org/", "ftp://example.org/", "https:///x/",
                                 "https://example.org/?a=1", "https://example.org/#top"])
def test_a_base_url_that_is_no_http_folder_is_an_error_at_its_line(content: Path,
                                                                    url: str) -> None:
    path = content / "site.toml"
    line = edit(path, re.compile(r'^base_url = "(.*)/"', re.M), f'base_url = "{url}"')
    e = error(content)
    assert (e.path, e.line) == (path, line) and "absolute http(s) address" in e.message


def test_a_misspelled_setting_is_unknown_and_suggests_the_right_name(content: Path) -> None:
    path = content / "site.toml"
    line = edit(path, re.compile(r"^base_url = ", re.M), "base_ur1 = ")
    e = error(content)
    assert (e.path, e.line) == (path, line) and "unknown setting 'base_ur1'" in e.message
    assert "did you mean 'base_url'" in e.message


def test_a_default_language_that_is_not_listed(content: Path) -> None:
    path = content / "site.toml"
    line = edit(path, re.compile(r'^default_language = "\w+"', re.M), 'default_language = "eng"')
    e = error(content)
    assert (e.path, e.line) == (path, line) and "did you mean 'en'" in e.message


# --- figures.toml: checked against the registered figures (matplotlib is imported) ----------

def figure_error(content: Path, lang: str) -> BuildError:
    from sqrtdk import figures
    from sqrtdk.figures_stage import validate_labels
    with pytest.raises(BuildError) as e:
        validate_labels(load_toml(content / lang / "figures.toml"), figures.load())
    return e.value


def a_figure_and_label() -> tuple[str, str, tuple[str, ...]]:
    from sqrtdk import figures
    for name, spec in figures.load().items():
        for key, fields in spec.labels.items():
            if fields:
                return name, key, fields
    raise AssertionError("no figure label has fields")


def test_every_language_has_valid_figure_labels(content: Path) -> None:
    from sqrtdk import figures
    from sqrtdk.figures_stage import validate_labels
    for lang in languages(content):
        validate_labels(load_toml(content / lang / "figures.toml"), figures.load())


def test_a_missing_label_names_its_table(content: Path) -> None:
    name, key, _ = a_figure_and_label()
    lang = languages(content)[0]
    path = content / lang / "figures.toml"
    lines = path.read_text(encoding="utf-8").split("\n")
    del lines[load_toml(path).line_of(name, key) - 1]
    path.write_text("\n".join(lines), encoding="utf-8")
    e = figure_error(content, lang)
    assert e.path == path and e.line == load_toml(path).line_of(name)
    assert f"no label '{key}'" in e.message


def test_a_misspelt_label_is_named_at_its_own_line(content: Path) -> None:
    name, key, _ = a_figure_and_label()
    lang = languages(content)[-1]
    path = content / lang / "figures.toml"
    line = load_toml(path).line_of(name, key)
    lines = path.read_text(encoding="utf-8").split("\n")
    misspelt = key[:-1] + key[-1] * 2          # xlabel -> xlabell
    lines[line - 1] = lines[line - 1].replace(key, misspelt, 1)
    path.write_text("\n".join(lines), encoding="utf-8")
    e = figure_error(content, lang)
    assert (e.path, e.line) == (path, line)
    assert f"'{misspelt}'" in e.message and f"did you mean '{key}'" in e.message


def test_an_unknown_field_in_a_label_names_its_line(content: Path) -> None:
    name, key, fields = a_figure_and_label()
    lang = languages(content)[1]
    path = content / lang / "figures.toml"
    toml = load_toml(path)
    line = toml.line_of(name, key)
    lines = path.read_text(encoding="utf-8").split("\n")
    lines[line - 1] = f'{key} = "x {{{fields[0]}x}}"'
    path.write_text("\n".join(lines), encoding="utf-8")
    e = figure_error(content, lang)
    assert (e.path, e.line) == (path, line) and f"unknown field {{{fields[0]}x}}" in e.message
    assert f"did you mean '{fields[0]}'" in e.message


def test_a_field_in_the_card_labels_which_have_none(content: Path) -> None:
    lang = languages(content)[0]
    path = content / lang / "figures.toml"
    line = load_toml(path).line_of("card", "title")
    lines = path.read_text(encoding="utf-8").split("\n")
    lines[line - 1] = 'title = "A {title} card"'
    path.write_text("\n".join(lines), encoding="utf-8")
    e = figure_error(content, lang)
    assert (e.path, e.line) == (path, line) and "unknown field {title}" in e.message


def test_a_misspelled_figure_table(content: Path) -> None:
    name, _, _ = a_figure_and_label()
    lang = languages(content)[0]
    path = content / lang / "figures.toml"
    line = edit(path, f"[{name}]", f"[{name[:-1]}]")
    e = figure_error(content, lang)
    assert (e.path, e.line) == (path, line) and f"did you mean '{name}'" in e.message
