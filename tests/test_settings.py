"""The TOML files authors edit: one loader, `path:line: message; what to do`, checked before
anything is drawn (issue 9). Each test copies the project's content folder and breaks one
thing, so the tests follow the files as they are, whatever their words."""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from sqrtdk.errors import BuildError
from sqrtdk.options import PROJECT_ROOT
from sqrtdk.settings import DISTINCT, LANGUAGE_FILES, load_settings, load_strings
from sqrtdk.textfiles import load_toml

# reads the author's files: runs again on the author's copy. It reads content/ and templates/ from
# the project's folder, so on the copy it runs in the copy's own pytest run
# (tests/test_author_copy.py)
pytestmark = [pytest.mark.author, pytest.mark.author_own_run]

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
    first = 1 + text.split("\n").index("[ui]")
    assert f"[ui] is given at line {first} already" in e.message, e.message


def test_a_duplicate_key_names_the_line_it_was_first_given_at(content: Path) -> None:
    """tomllib tells the second of two equal keys, not where the first is: the author had to
    search the file for it."""
    path = content / languages(content)[0] / "strings.toml"
    lines = path.read_text(encoding="utf-8").split("\n")
    at = lines.index("[ui]") + 1         # a key of [ui] given again right under its header
    key = next(line.split("=")[0].strip() for line in lines[at:] if "=" in line)
    path.write_text("\n".join(lines[:at] + [f'{key} = "again"'] + lines[at:]), encoding="utf-8")
    e = error(content)
    assert e.path == path and e.line == at + 2, str(e)     # the one that was there before
    assert f"'{key}' of [ui] is given at line {at + 1} already" in e.message, e.message


def test_a_duplicate_key_names_its_line(content: Path) -> None:
    path = content / "site.toml"
    line = edit(path, re.compile(r"^title = .*$", re.M), 'title = "A"\ntitle = "B"')
    e = error(content)
    assert (e.path, e.line) == (path, line + 1) and "invalid TOML" in e.message


@pytest.mark.parametrize("file", ["site.toml", "strings.toml"])
@pytest.mark.parametrize("tail", ["broken = [\n", 'broken = "x', "broken = {a = 1\n\n", "[broken"])
def test_a_file_that_ends_inside_a_value_names_the_line_it_began(content: Path, file: str,
                                                                   tail: str) -> None:
    """A TOML file cut off inside a value or a table header ('at end of document', tomllib
    says, with no line) is an error at the line where that began (found by servefuzz: the
    error had no line)."""
    path = content / ("site.toml" if file == "site.toml" else f"{languages(content)[0]}/{file}")
    text = path.read_text(encoding="utf-8").rstrip("\n") + "\n\n"
    path.write_text(text + tail, encoding="utf-8")
    e = error(content)
    assert (e.path, e.line) == (path, text.count("\n") + 1), (e.line, str(e))
    assert "invalid TOML" in e.message and "end of document" not in e.message, e.message


@pytest.mark.parametrize("file", ["site.toml", "strings.toml"])
def test_text_without_quotes_is_told_to_take_quotes(content: Path, file: str) -> None:
    """`base_url = https://…` or a translation typed bare: TOML's "Invalid value" alone does
    not say that text goes in quotes; the message does, with the key."""
    path = content / file if file == "site.toml" else \
        content / languages(content)[-1] / file
    key = "base_url" if file == "site.toml" else "toc"
    line = edit(path, re.compile(rf'^{key} = "(.*)"', re.M), f"{key} = words typed bare")
    e = error(content)
    assert (e.path, e.line) == (path, line)
    assert f'{key} = "' in e.message and "quotes" in e.message, e.message


@pytest.mark.parametrize("quote", ['"', "'"])
def test_a_syntax_error_names_its_line(content: Path, quote: str) -> None:
    """A string whose closing quote was forgotten: tomllib says only "Illegal character
    '\\n'" (or "Found invalid character '\\n'"); the message says the quote is not closed
    on its line and what to write."""
    path = content / languages(content)[1] / "strings.toml"
    line = edit(path, re.compile(r"^toc = .*$", re.M), f"toc = {quote}unclosed")
    e = error(content)
    assert (e.path, e.line) == (path, line)
    assert "not closed" in e.message and f"close it with {quote}" in e.message, e.message


@pytest.mark.parametrize("how", ["removed from another", "added to the first"])
def test_a_key_missing_in_one_language_is_named_at_the_line_it_is_on(content: Path,
                                                                      how: str) -> None:
    """A key the first language has and another lacks (removed there, or added to the first
    alone) is an error at its own line in the first language's file, which names the file
    that lacks it and where its table starts; not at that file's table, which has no line
    for it."""
    first, second = (content / lang / "strings.toml" for lang in languages(content)[:2])
    if how == "added to the first":
        key, line = "extra_key", add(first, "[ui]", 'extra_key = "x"')
    else:
        edit(second, re.compile(r"^skip = .*\n", re.M), "")
        key, line = "skip", load_toml(first).line_of("ui", "skip")
    e = error(content)
    assert (e.path, e.line) == (first, line), e
    assert e.message.startswith(f"[ui] {key} is not in ") and \
        f"{second.parent.name}/strings.toml (whose [ui] starts at line " \
        f"{load_toml(second).line_of('ui')})" in e.message, e.message
    assert e.message.endswith("add it there, or remove it here"), e.message


def _inputs_error(content: Path) -> BuildError:
    """The error the build's reading of its inputs raises for `content` (with the project's
    templates, which tell which [ui] keys the page needs)."""
    from sqrtdk.inputs import read_inputs
    from sqrtdk.options import BuildOptions
    with pytest.raises(BuildError) as e:
        read_inputs(BuildOptions.for_project(PROJECT_ROOT, content_dir=content))
    return e.value


@pytest.mark.parametrize("where_missing", [0, 1])
def test_every_key_one_language_lacks_is_told_and_one_the_page_needs_only_to_be_added(
        content: Path, where_missing: int) -> None:
    """Two [ui] keys missing from one language were told one at a time, and each with 'add it
    there, or remove it here', though removing a key the page reads (the headings' links'
    name, the skip link) from the other language only led to a second error: both are told
    at once, and only to be added."""
    files = [content / lang / "strings.toml" for lang in languages(content)[:2]]
    lacking, having = files[where_missing], files[1 - where_missing]
    for key in ("permalink", "skip"):
        edit(lacking, re.compile(rf"^{key} = .*\n", re.M), "")
    told = _inputs_error(content).errors
    assert sorted((e.path, e.line) for e in told) == sorted(
        (having, load_toml(having).line_of("ui", key)) for key in ("permalink", "skip")), told
    for e in told:
        assert "remove it" not in e.message and e.message.endswith("add it there" + (
            " too" if where_missing == 0 else "")) and "needed by" in e.message, e.message


@pytest.mark.parametrize("which", [0, 1])
def test_a_misspelt_key_the_page_needs_is_told_at_the_misspelling(content: Path,
                                                                  which: int) -> None:
    """A [ui] key the page reads, misspelt in one language (either): the error is at the
    misspelt line and names the key to write, not at the other language's correct line
    with 'one of the two is misspelt'."""
    files = [content / lang / "strings.toml" for lang in languages(content)[:2]]
    line = edit(files[which], re.compile(r"^skip = ", re.M), "skpi = ")
    [e] = _inputs_error(content).errors
    assert (e.path, e.line) == (files[which], line), e
    assert e.message.endswith("rename it to 'skip'"), e.message


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
    (0, "toc", "\\u200b", ("[ui] toc holds only invisible characters",)),
    (0, "figure", "Figure", ("{n}",)),                   # every caption would be unnumbered
    (0, "figure", "Figure {num}", ("unknown field {num}", "known fields: n")),
    (0, "figure", "Figure {n:.2q}", ("is not a format for a count",)),
    # issue 18: each of these was a traceback or printed something wrong
    (1, "figure", "Figure {n}. {", ("Single '{'", "literal brace")),
    (0, "figure", "Figure {n!x}.", ("conversion (!x)", "write {n}")),
    (1, "figure", "Figure {n:.2f}.", ("n is a count", "'1.00'")),    # printed Figure 1.00.
    (0, "figure", "Figure {n.real}.", ("attributes and indexes",)),
    (0, "backlink_title", "Back to note %d, %d", ("exactly once", "it has 2")),
    (1, "backlink_title", "Back to note %d {in}", ("{in} is not filled in", "%d")),
    (0, "backlink_title", "Back to the note", ("exactly once", "it has 0")),
    # published as 'Back to note %s 1' (Python-Markdown fills in %d alone)
    (1, "backlink_title", "Back to note %s %d", ("'%s' would be shown as typed",)),
    (1, "built_with", "Seed {seed:.1%}, numpy {numpy}", ("seed is a count",)),
    (0, "built_with", "Seed {seed}, numpy {numpy:.2f}", ("not a format for text",)),
    # a billion spaces: the check itself filled the memory
    (1, "figure", "Figure {n:>999999999}.", ("more than a label can show",)),
], ids=["empty", "invisible", "figure without its number", "unknown field", "bad format spec",
        "lone brace", "conversion", "decimals on a count", "attribute", "two %d",
        "a field in backlink_title", "no %d", "another % directive", "a percentage of a count", "decimals on text",
        "huge width"])
def test_a_ui_string_mistake_is_an_error_at_its_line(content: Path, lang: int, key: str,
                                                     wrong: str, says: tuple[str, ...]) -> None:
    path = content / languages(content)[lang] / "strings.toml"
    line = edit(path, re.compile(rf"^{key} = .*$", re.M), f'{key} = "{wrong}"')
    e = error(content)
    assert (e.path, e.line) == (path, line) and all(s in e.message for s in says), e.message


def test_a_list_of_words_may_be_empty_in_every_language(content: Path) -> None:
    """`keep_whole` lists words (none is a fine list); any other [ui] string left empty is
    refused above (an empty label)."""
    from sqrtdk.settings import MAY_BE_EMPTY, load_strings
    langs = languages(content)
    for lang in langs:
        for key in MAY_BE_EMPTY:
            edit(content / lang / "strings.toml", re.compile(rf"^{key} = .*$", re.M), f'{key} = ""')
    strings = load_strings(content, tuple(langs))
    assert all(strings[lang].ui[key] == "" for lang in langs for key in MAY_BE_EMPTY)


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


def unconfigured(content: Path) -> str:
    """A language code the project does not configure (a third language may be added)."""
    return next(c for c in ("fr", "de", "es", "ja", "ko") if c not in languages(content))


def test_a_language_without_its_folder(content: Path) -> None:
    path = content / "site.toml"
    new = unconfigured(content)
    listed = ", ".join(f'"{c}"' for c in [*languages(content), new])
    line = edit(path, re.compile(r"^languages = .*$", re.M), f"languages = [{listed}]")
    e = error(content)
    assert (e.path, e.line) == (path, line) and f"content/{new}/" in e.message
    # an empty folder would be the next error: the message says what goes into it
    assert "copy of another language's folder" in e.message and "Add a language" in e.message


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


def test_independent_site_toml_mistakes_are_named_in_one_build(content: Path) -> None:
    """A new author's base_url, default_language and math engine mistakes took a build each;
    a misspelt key is named once (the setting it meant is not also called missing)."""
    path = content / "site.toml"
    url = edit(path, re.compile(r'^base_url = "(.*)/"', re.M), 'base_url = "example.org/"')
    engine = edit(path, re.compile(r'^engine = ".*"', re.M), 'engine = "kattex"')
    default = edit(path, re.compile(r"^default_language = ", re.M), "default_langauge = ")
    e = error(content)
    said = {one.line: one.message for one in e.errors if one.path == path}
    assert sorted(said) == sorted((url, default, engine)) == [one.line for one in e.errors], str(e)
    assert "absolute http(s) address" in said[url]
    assert "did you mean 'default_language'" in said[default]
    assert "kattex" in said[engine] and "missing setting" not in str(e)


def test_a_misspelled_setting_is_unknown_and_suggests_the_right_name(content: Path) -> None:
    path = content / "site.toml"
    line = edit(path, re.compile(r"^base_url = ", re.M), "base_ur1 = ")
    e = error(content)
    assert (e.path, e.line) == (path, line) and "unknown setting 'base_ur1'" in e.message
    assert "did you mean 'base_url'" in e.message


def add(path: Path, after: str | None, text: str) -> int:
    """Put `text` (whole lines) on the line after the line `after` of `path` (None: at the
    end; "": at the start); returns the line its first line lands on."""
    lines = path.read_text(encoding="utf-8").rstrip("\n").split("\n")
    at = len(lines) if after is None else lines.index(after) + 1 if after else 0
    lines[at:at] = text.rstrip("\n").split("\n")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return at + 1


@pytest.mark.parametrize("file, after, text, says", [
    ("site.toml", None, '[maths]\nengine = "katex"', ("unknown setting 'maths'",
                                                     "did you mean 'math'")),
    ("site.toml", "", 'maths.engine = "katex"', ("unknown setting 'maths'",
                                                 "did you mean 'math'")),
    ("site.toml", None, "[colours]\nx = 1", ("unknown setting 'colours'", "known settings: "
                                            "base_url, default_language, languages, math, "
                                            "social_figure, title")),
    ("site.toml", "[math]", 'engnie = "katex"', ("unknown setting 'engnie' in [math]",
                                                 "did you mean 'engine'")),
    ("strings.toml", None, '[uii]\nskip = "x"', ("unknown table 'uii'", "did you mean 'ui'")),
    ("strings.toml", "[language]", 'scirpt = "cjk"', ("unknown setting 'scirpt' in [language]",
                                                      "did you mean 'script'")),
], ids=["a table", "a dotted key", "nothing close", "in [math]", "a strings table",
        "in [language]"])
def test_an_unknown_key_or_table_is_named_at_its_line_with_what_it_may_be(
        content: Path, file: str, after: str | None, text: str, says: tuple[str, ...]) -> None:
    """Every key and table of site.toml and strings.toml the build does not know is an error
    at its own line (a table's header too), with "did you mean" for a close name or else the
    whole list of what may be there."""
    path = content / file if file == "site.toml" else content / languages(content)[1] / file
    line = add(path, after, text)
    e = error(content)
    assert (e.path, e.line) == (path, line), e
    assert all(s in e.message for s in says), e.message


@pytest.mark.parametrize("table, text, says", [
    ("[card]", 'subtitel = "x"', "did you mean 'subtitle'"),
    ("[style]", 'font_familly = ["DejaVu Sans"]', "did you mean 'font_family'"),
])
def test_an_unknown_key_in_the_figures_card_or_style_is_named_at_its_line(
        content: Path, table: str, text: str, says: str) -> None:
    lang = languages(content)[0]
    path = content / lang / "figures.toml"
    text_now = path.read_text(encoding="utf-8")
    header = next(line for line in text_now.split("\n") if line.startswith(table))
    line = add(path, header, text)
    e = figure_error(content, lang)
    assert (e.path, e.line) == (path, line) and says in e.message, e


def test_a_default_language_that_is_not_listed(content: Path) -> None:
    path = content / "site.toml"
    line = edit(path, re.compile(r'^default_language = "\w+"', re.M), 'default_language = "eng"')
    e = error(content)
    assert (e.path, e.line) == (path, line) and "did you mean 'en'" in e.message


# --- figures.toml: checked against the registered figures (matplotlib is imported) ----------

def figure_error(content: Path, lang: str) -> BuildError:
    from sqrtdk import figures
    from sqrtdk.figure_labels import validate_labels
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
    from sqrtdk.figure_labels import validate_labels
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


@pytest.mark.parametrize("side", ["figure", "toml"])
def test_a_label_spelt_two_ways_is_told_where_the_misspelling_is(content: Path,
                                                                  side: str) -> None:
    """A label misspelt in the module's @figure(…, labels=…) (`"titel": ()`, while the drawing
    asks for "title") was told at figures.toml with "did you mean 'titel'?", advice that
    breaks the build; it is told at the @figure line with the key figures.toml has. A label
    misspelt in figures.toml is still told there (naming the @figure line too)."""
    from sqrtdk import figures
    from sqrtdk.figure_labels import validate_labels
    from sqrtdk.figure_registrations import ParsedRegistration, registration_line
    name, key, _ = a_figure_and_label()
    lang = languages(content)[0]
    path = content / lang / "figures.toml"
    specs: dict[str, Any] = dict(figures.load())
    at = registration_line(name)
    assert at[1], name
    wrong = key[:-1] + "x"
    if side == "figure":
        spec = specs[name]
        labels = {(wrong if k == key else k): v for k, v in spec.labels.items()}
        specs[name] = ParsedRegistration(name, spec.needs, labels)
    else:
        line = load_toml(path).line_of(name, key)
        lines = path.read_text(encoding="utf-8").split("\n")
        lines[line - 1] = lines[line - 1].replace(key, wrong, 1)
        path.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(BuildError) as e:
        validate_labels(load_toml(path), specs)
    if side == "figure":
        assert (e.value.path, e.value.line) == at, e.value
        assert f"did you mean '{key}'?" in e.value.message, e.value
        assert f"figures.toml:{load_toml(path).line_of(name, key)}" in e.value.message
    else:
        assert (e.value.path, e.value.line) == (path, load_toml(path).line_of(name, wrong))
        assert f"did you mean '{key}'?" in e.value.message, e.value
        assert f"{at[0].name}:{at[1]}" in e.value.message, e.value


def test_a_missing_figure_table_is_told_at_the_end_of_the_file(content: Path) -> None:
    """A figure with no table of labels was told at the file's first key, inside [style],
    where a table cannot be added; it is told at the file's last line, where it can."""
    name, _, _ = a_figure_and_label()
    lang = languages(content)[-1]
    path = content / lang / "figures.toml"
    start = load_toml(path).line_of(name) - 1
    lines = path.read_text(encoding="utf-8").split("\n")
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("[")),
               len(lines))
    del lines[start:end]
    path.write_text("\n".join(lines), encoding="utf-8")
    e = figure_error(content, lang)
    last = max(i for i, line in enumerate(lines, 1) if line.strip())
    assert (e.path, e.line) == (path, last), e
    assert f"no table [{name}]" in e.message and "at the end of this file" in e.message


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


@pytest.mark.parametrize("lang", [0, 1])
def test_a_figure_label_without_its_fields_is_an_error_at_its_line(content: Path,
                                                                   lang: int) -> None:
    """`legend = "nothing"` built silently: both histograms were labelled alike, without
    their dₖ or SD. A label lacking a field its figure registers (a value shown with these
    words) is an error at its line naming the fields it needs."""
    name, key, fields = a_figure_and_label()
    path = content / languages(content)[lang] / "figures.toml"
    line = load_toml(path).line_of(name, key)
    lines = path.read_text(encoding="utf-8").split("\n")
    lines[line - 1] = f'{key} = "nothing"'
    path.write_text("\n".join(lines), encoding="utf-8")
    e = figure_error(content, languages(content)[lang])
    assert (e.path, e.line) == (path, line), str(e)
    assert f"[{name}] {key} has no " in e.message and \
        "it needs " + ", ".join("{" + f + "}" for f in fields) in e.message, e.message


@pytest.mark.parametrize("spec", [">999999999", ".999"])
def test_a_label_field_asking_for_more_than_a_label_shows_names_its_line(content: Path,
                                                                        spec: str) -> None:
    """'{d:>999999999}' made a string of a billion spaces, which matplotlib failed to lay
    out: a RuntimeError traceback from the figures' worker."""
    name, key, fields = a_figure_and_label()
    lang = languages(content)[1]
    path = content / lang / "figures.toml"
    line = load_toml(path).line_of(name, key)
    lines = path.read_text(encoding="utf-8").split("\n")
    lines[line - 1] = f'{key} = "x {{{fields[0]}:{spec}}}"'
    path.write_text("\n".join(lines), encoding="utf-8")
    e = figure_error(content, lang)
    assert (e.path, e.line) == (path, line) and "more than a label can show" in e.message, e


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


# --- [ui] strings against what reads them (the templates, parsed by Jinja; the code) --------

def ui_check(content: Path) -> None:
    from sqrtdk.web.embed import SLOTS
    from sqrtdk.web.ui_check import check_ui_strings
    settings = load_settings(content)
    check_ui_strings(load_strings(content, settings.languages), PROJECT_ROOT / "templates",
                     tuple(SLOTS))


def edit_in_key(path: Path, key: str, old: str, new: str) -> int:
    """Replace `old` by `new` on the line of [ui] `key`; returns that line."""
    line = load_toml(path).line_of("ui", key)
    lines = path.read_text(encoding="utf-8").split("\n")
    assert old in lines[line - 1]
    lines[line - 1] = lines[line - 1].replace(old, new, 1)
    path.write_text("\n".join(lines), encoding="utf-8")
    return line


def a_slotted_key(content: Path) -> tuple[str, str]:
    """A widget sentence of the project (read through `| slots`) and one slot it uses."""
    from sqrtdk.formats import fields_of
    from sqrtdk.web.ui_check import template_use
    use = template_use(PROJECT_ROOT / "templates")
    ui = load_toml(content / languages(content)[0] / "strings.toml").data["ui"]
    for key in sorted(use.slotted):
        found = [f.name for f in fields_of(ui.get(key, ""))]
        if found:
            return key, found[0]
    raise AssertionError("no widget sentence with a slot")


def test_the_project_ui_strings_pass_and_every_key_is_read(
        content: Path, caplog: pytest.LogCaptureFixture) -> None:
    import logging
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        ui_check(content)
    assert not caplog.records, [r.getMessage() for r in caplog.records]


@pytest.mark.parametrize("lang, written, says", [
    # `{b:.2f}` was left in the sentence as typed (the slot pattern took bare names only)
    (1, "{%s:.2f}", "{%s:.2f} has a format spec"),
    (0, "{%sx}", "did you mean {%s}?"),
], ids=["format spec in a slot", "misspelt slot"])
def test_a_widget_slot_mistake_is_an_error_at_its_line(content: Path, lang: int, written: str,
                                                      says: str) -> None:
    key, slot = a_slotted_key(content)
    path = content / languages(content)[lang] / "strings.toml"
    line = edit_in_key(path, key, "{" + slot + "}", written % slot)
    with pytest.raises(BuildError) as e:
        ui_check(content)
    assert (e.value.path, e.value.line) == (path, line), str(e.value)
    assert says % slot in e.value.message, e.value.message


@pytest.mark.parametrize("written", ["{%sx}", "{%s:>3}"], ids=["misspelt", "format spec"])
def test_a_field_the_page_fills_with_words_is_checked_at_its_line(content: Path,
                                                                  written: str) -> None:
    """A chart's name for screen readers (ui_check.FILLED): only the fields its filler
    fills in, without a spec (anything else would be read out as typed)."""
    from sqrtdk.formats import fields_of
    from sqrtdk.web.ui_check import FILLED
    path = content / languages(content)[1] / "strings.toml"
    ui = load_toml(path).data["ui"]
    key, field = next((k, f.name) for k in sorted(FILLED) if k in ui
                      for f in fields_of(ui[k]))
    line = edit_in_key(path, key, "{" + field + "}", written % field)
    with pytest.raises(BuildError) as e:
        ui_check(content)
    assert (e.value.path, e.value.line) == (path, line), str(e.value)
    assert "is not filled in by" in e.value.message, e.value.message


def test_a_field_in_a_string_nothing_fills_in_is_an_error(content: Path) -> None:
    """`{n}` in switch_to was published as typed."""
    from sqrtdk.settings import FIELDS, PERCENT_D
    from sqrtdk.web.ui_check import READ_BY_CODE
    path = content / languages(content)[1] / "strings.toml"
    ui = load_toml(path).data["ui"]
    key = next(k for k in sorted(READ_BY_CODE) if k in ui and "{" not in ui[k]
               and k not in FIELDS and k not in PERCENT_D)
    line = edit(path, re.compile(rf"^{key} = .*$", re.M), f'{key} = "Read in {{n}} words"')
    with pytest.raises(BuildError) as e:
        ui_check(content)
    assert (e.value.path, e.value.line) == (path, line) and "shown as typed" in e.value.message


def test_a_ui_key_nothing_reads_warns_at_its_line(
        content: Path, caplog: pytest.LogCaptureFixture) -> None:
    import logging
    lines = {}
    for lang in languages(content):             # in every language, so the keys still match
        path = content / lang / "strings.toml"   # (first in [ui], whatever table ends the file)
        lines[lang] = edit(path, re.compile(r"^\[ui\][^\n]*\n", re.M),
                           '[ui]\ntoc_titel = "Contents"\n') + 1
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        ui_check(content)
    got = [r.getMessage() for r in caplog.records]
    assert len(got) == len(languages(content)), got
    first = lines[languages(content)[0]]
    assert f"strings.toml:{first}: warning: [ui] toc_titel is not used" in got[0], got


# --- files the build would not read --------------------------------------------------------

@pytest.mark.parametrize("name", ["index.md~", "#index.md#", "strings.toml.orig", "notes.png"])
def test_an_editor_s_leftover_beside_a_language_s_file_stays_quiet(
        content: Path, caplog: pytest.LogCaptureFixture, name: str) -> None:
    import logging
    (content / languages(content)[-1] / name).write_text("x\n", encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        load_settings(content)
    assert [r.getMessage() for r in caplog.records] == []


@pytest.mark.parametrize("where, says", [
    ("{new}/index.md", "'{new}' is not in languages"),
    ("{lang}/about.md", "does not read this file"),
    ("notes.md", "does not read this file"),
    # named almost as a file the build reads, beside it: what was written there was lost
    ("{lang}/strings.tml", "named almost as strings.toml"),
    ("{lang}/figure.toml", "named almost as figures.toml"),
    ("{lang}/Index.md", "named almost as index.md"),
    ("site.tml", "named almost as site.toml"),
])
def test_a_content_file_the_build_does_not_read_warns(
        content: Path, caplog: pytest.LogCaptureFixture, where: str, says: str) -> None:
    import logging
    new = unconfigured(content)
    path = content / where.format(lang=languages(content)[-1], new=new)
    says = says.format(new=new)
    path.parent.mkdir(exist_ok=True)
    path.write_text("---\ntitle: T\ndescription: D\n---\n\nText.\n", encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        load_settings(content)
    got = [r.getMessage() for r in caplog.records]
    assert len(got) == 1 and says in got[0], got
    if "languages" in says:
        line = load_toml(content / "site.toml").line_of(None, "languages")
        assert got[0].startswith(f"{(content / 'site.toml').as_posix()}:{line}: warning:")


def test_a_figure_label_is_checked_against_the_value_it_formats() -> None:
    """`{sd:.2%}` printed an SD of 2.01 as 201 %; `{n:.2f}` printed a count as 1.00. The
    label's kinds are known only when drawing: Labels checks each value before formatting,
    and the error carries the label's key for the figures.toml line."""
    from sqrtdk.figures import Registration
    from sqrtdk.figures.draw import Labels
    spec = Registration("demo", lambda *a: None, (), {"point": ("sd", "n"), "share": ("p",)})
    labels = Labels({"point": "SD {sd:.2%} of {n:.1f}", "share": "{p:.0%}"}, spec)
    assert labels("share", p=0.25) == "25%"
    with pytest.raises(ValueError) as e:
        labels("point", sd=2.01, n=3)
    assert getattr(e.value, "label_key", "") == "point" and "not a share" in str(e.value)
    labels = Labels({"point": "SD {sd:.2f} of {n:.1f}"}, spec)
    with pytest.raises(ValueError, match="n is a count"):
        labels("point", sd=2.01, n=3)


@pytest.mark.parametrize("which", ["code", "template"])
def test_a_ui_key_missing_from_every_language_is_an_error_not_a_traceback(
        content: Path, which: str) -> None:
    """Both files agree, so the comparison between languages passes; the code read
    ui["figure"] and stopped with a KeyError."""
    from sqrtdk.web.ui_check import READ_BY_CODE, template_use
    first = load_toml(content / languages(content)[0] / "strings.toml").data["ui"]
    keys = sorted(READ_BY_CODE) if which == "code" else \
        sorted(template_use(PROJECT_ROOT / "templates").keys)
    key = next(k for k in keys if k in first)
    for lang in languages(content):
        path = content / lang / "strings.toml"
        edit(path, re.compile(rf"^{key} = .*\n", re.M), "")
    with pytest.raises(BuildError) as e:
        ui_check(content)
    toml = load_toml(e.value.path)
    assert e.value.line == toml.line_of("ui") and f"[ui] has no '{key}'" in e.value.message


def a_third_language(content: Path, source: str, new: str) -> Path:
    """content/<new>/ copied from content/<source>/ and added to languages (README's recipe),
    nothing else changed."""
    shutil.copytree(content / source, content / new)
    edit(content / "site.toml", re.compile(r"^languages = \[(.*)\]", re.M),
         "languages = [" + ", ".join(f'"{x}"' for x in [*languages(content), new]) + "]")
    return content / new / "strings.toml"


def test_a_copied_language_keeping_the_html_lang_of_its_source(content: Path) -> None:
    source = languages(content)[-1]
    strings = a_third_language(content, source, "xq")
    line = load_toml(strings).line_of("language", "html_lang")
    e = error(content)
    assert (e.path, e.line) == (strings, line), e
    assert "html_lang" in str(e) and 'html_lang = "xq"' in str(e), e


@pytest.mark.parametrize("table, key", DISTINCT)
def test_two_languages_saying_they_are_the_same_one(content: Path, table: str,
                                                    key: str) -> None:
    source = languages(content)[0]
    strings = a_third_language(content, source, "copy")    # no language subtag: any tag fits
    toml = load_toml(strings)
    for t, k in DISTINCT[:DISTINCT.index((table, key))]:   # those checked first made its own
        edit(strings, f'{k} = "{toml.data[t][k]}"', f'{k} = "{"xq" if k == "html_lang" else "X"}"')
    value = toml.data[table][key]
    line = load_toml(strings).line_of(table, key)
    e = error(content)
    assert (e.path, e.line) == (strings, line), e
    assert f"{key} = '{value}' is also" in str(e) and "its own" in str(e), e


@pytest.mark.parametrize("name", LANGUAGE_FILES)
def test_a_new_language_without_one_of_its_files_says_which_to_copy(content: Path,
                                                                    name: str) -> None:
    default = load_settings(content).default_language
    a_third_language(content, default, "xq")
    (content / "xq" / name).unlink()
    e = error(content)
    assert e.path == content / "xq" / name, e
    assert f"copy content/{default}/{name} to content/xq/ and translate" in e.message, e


def test_a_folder_named_by_the_region_of_its_language_tag(content: Path) -> None:
    first = languages(content)[0]
    strings = a_third_language(content, first, "xq")
    toml = load_toml(strings)
    for table, key in DISTINCT:
        new = "ab-XQ" if key == "html_lang" else "Q"
        edit(strings, f'{key} = "{toml.data[table][key]}"', f'{key} = "{new}"')
    load_all(content)


@pytest.mark.parametrize(("url", "says"), [
    ("https://u:p@example.org/", "user name or password"),
    ("https://example.org:99999/", "port"),
    ("https://example.org:x/", "port"),
    ("https://:80/", "absolute http(s) address"),
    ("https://exa mple.org/", "' '"),
    ("https://example.org/a b/", "' '"),
    ("https://example.org/<x>/", "'<'"),
    ("https://example.org/\\t/", "'\\t'"),
    ("https://example.org/\u200b/", "'https://example.org/%E2%80%8B/'"),
    ("https://\u4f8b\u5b50.\u6d4b\u8bd5/", "'https://xn--fsqu00a.xn--0zwm56d/'"),
    ("https://example.org/%zz/", "'%25'"),
    ("https://example.org/a/../b/", "'..'"),
    ("https://[::1/", "IPv6"),
    ("https://example.org]/", "IPv6"),
    ("https://[example.org]/", "IPv6"),
    ("https://example.org/sub/index.html", "'https://example.org/sub/'"),
    ("https://example.org/Home.PHP", "'https://example.org/'"),
])
def test_a_base_url_no_page_could_publish_is_an_error_at_its_line(content: Path, url: str,
                                                                   says: str) -> None:
    """Such an address was published as typed in every page's canonical link, the sitemap
    and the link previews: a password, a port that does not exist, a space, an unescaped
    character, a broken escape, a page's address (`…/index.html` became the folder
    `…/index.html/`, every page's address below it). A '[' around no IPv6 address stopped
    the build with urllib's ValueError traceback."""
    path = content / "site.toml"
    line = edit(path, re.compile(r'^base_url = "(.*)/"', re.M), f'base_url = "{url}"')
    e = error(content)
    assert (e.path, e.line) == (path, line) and "base_url" in e.message, e
    assert says in e.message, e


@pytest.mark.parametrize("url", ["https://example.org/  ", "  https://example.org/",
                                 "https://example.org:8443/x/", "http://example.org/a%20b/",
                                 "https://[2001:db8::1]/", "https://example.org/v1.2/",
                                 "https://example.org/index.html/"])
def test_a_base_url_with_spaces_around_or_a_port_or_escapes_is_taken(content: Path,
                                                                     url: str) -> None:
    edit(content / "site.toml", re.compile(r'^base_url = "(.*)/"', re.M), f'base_url = "{url}"')
    assert load_settings(content).base_url == url.strip()


@pytest.mark.parametrize("title", ['""', '"   "', '"\u200b"', '" \\u200b\\u2060 "'])
def test_an_empty_site_title_is_an_error_at_its_line(content: Path, title: str) -> None:
    """It published an empty <title> on the root page."""
    path = content / "site.toml"
    line = edit(path, re.compile(r"^title = .*$", re.M), f"title = {title}")
    e = error(content)
    assert (e.path, e.line) == (path, line) and "title is empty" in e.message, e


def rename_language(content: Path, old: str, new: str) -> int:
    """Move content/<old>/ to content/<new>/ and name it so in site.toml; the line of
    `languages`."""
    path = content / "site.toml"
    listed = ", ".join(f'"{new if c == old else c}"' for c in languages(content))
    (content / old).rename(content / new)
    line = edit(path, re.compile(r"^languages = .*$", re.M), f"languages = [{listed}]")
    edit(path, re.compile(r'^default_language = "\w+"', re.M), f'default_language = "{new}"')
    return line


@pytest.mark.parametrize(("folder", "says"), [
    ("source", "site's own folder site/source/"), ("Assets", "site's own folder site/assets/"),
    ("figures", "site's own folder site/figures/"), ("index.html", "not a folder name"),
    ("a b", "not a folder name"), ("-x", "not a folder name")],
    # ids of their own: one starting with '-' was read back from the author copy's
    # junit report under another name (test_author_copy compares the two)
    ids=["source", "Assets", "figures", "index.html", "a space", "a leading dash"])
def test_a_language_folder_that_is_no_folder_of_its_own_in_site_is_an_error(
        content: Path, folder: str, says: str) -> None:
    """'source' merged the article into site/source/ with the code pages, 'index.html'
    stopped the build with a traceback (FileExistsError), a space split the figure names."""
    first = languages(content)[-1]
    line = rename_language(content, first, folder)
    e = error(content)
    assert (e.path, e.line) == (content / "site.toml", line) and says in e.message, e


@pytest.mark.parametrize("listed", ['["zh", ["en"]]', '["zh", {a = 1}]'])
def test_a_language_that_is_a_list_or_table_is_an_error_not_a_traceback(content: Path,
                                                                         listed: str) -> None:
    """A list inside `languages` raised TypeError: unhashable type: 'list'."""
    path = content / "site.toml"
    line = edit(path, re.compile(r"^languages = .*$", re.M), f"languages = {listed}")
    e = error(content)
    assert (e.path, e.line) == (path, line) and "each language folder once" in e.message, e


@pytest.mark.parametrize("how", [".", "..", "./{}", "{}/", "../content/{}"])
def test_a_language_named_by_a_path_is_an_error_at_its_line(content: Path, how: str) -> None:
    """'.' was told 'content/index.md: file not found', '../content/en' built links to
    '../figures/x.../content/en.svg'."""
    path = content / "site.toml"
    first = languages(content)[0]
    name = how.format(first)
    line = edit(path, re.compile(r"^languages = .*$", re.M), f'languages = ["{name}"]')
    edit(path, re.compile(r'^default_language = "\w+"', re.M), f'default_language = "{name}"')
    e = error(content)
    assert (e.path, e.line) == (path, line) and "not a folder name" in e.message, e


def test_two_languages_told_apart_by_case_only_are_an_error(content: Path) -> None:
    """On Windows and macOS 'zh' and 'ZH' are one folder."""
    path = content / "site.toml"
    first = languages(content)[0]
    (content / first.upper()).symlink_to(first)
    listed = ", ".join(f'"{c}"' for c in [*languages(content), first.upper()])
    line = edit(path, re.compile(r"^languages = .*$", re.M), f"languages = [{listed}]")
    e = error(content)
    assert (e.path, e.line) == (path, line) and "each language folder once" in e.message, e


@pytest.mark.parametrize("name", LANGUAGE_FILES)
@pytest.mark.parametrize(("make", "says"), [
    (lambda p: p.mkdir(), "is a folder; the build reads the file"),
    (lambda p: os.mkfifo(p), "is not a regular file"),
    (lambda p: p.symlink_to(p.parent / "nowhere"), "is a link to '"),
    (lambda p: p.symlink_to(p), "is a link to '"),
    (lambda p: p.with_name(p.name.capitalize()).write_text("x"), "rename it to"),
    (lambda p: p.with_name(p.name + ".txt").write_text("x"), "rename it to"),
], ids=["folder", "pipe", "dangling link", "link loop", "capitalised", "extra suffix"])
def test_a_language_file_that_is_there_but_no_file_says_what_it_is(
        content: Path, name: str, make: Any, says: str) -> None:
    """Each was told 'file not found' and to copy another language's file over it; a link
    that loops raised RuntimeError while the message was written."""
    lang = languages(content)[-1]
    path = content / lang / name
    path.unlink()
    make(path)
    e = error(content)
    assert e.path == path and says in e.message, e
    assert "copy content/" not in e.message, e
    str(e)      # the message can be written (a loop resolved in display_path raised)


def test_a_language_folder_that_cannot_be_read_says_so(content: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder chmod 000 (its files cannot even be stat'ed: not files) raised
    PermissionError from listing it for a near name. (Tests run as root, which reads any
    folder: the listing is made to fail as it does for another user.)"""
    lang = languages(content)[-1]
    folder = content / lang
    real_iterdir = Path.iterdir

    def refused(self: Path) -> Any:
        if self == folder:
            raise PermissionError(13, "Permission denied", str(self))
        return real_iterdir(self)
    (folder / "index.md").unlink()
    monkeypatch.setattr(Path, "iterdir", refused)
    e = error(content)
    assert e.path == folder and "cannot read the folder (Permission denied)" in e.message, e


def test_every_widget_sentence_says_which_slots_it_needs() -> None:
    """A new widget sentence (read through `| slots`) or chart name (FILLED) declares the
    slots it is there to show (ui_check.REQUIRED), so a translation without them is caught."""
    from sqrtdk.web.ui_check import FILLED, REQUIRED, template_use
    use = template_use(PROJECT_ROOT / "templates")
    assert use.slotted | set(FILLED) <= set(REQUIRED), sorted(use.slotted | set(FILLED))


@pytest.mark.parametrize("lang", [0, 1])
def test_a_widget_sentence_without_its_slots_is_an_error_at_its_line(content: Path,
                                                                     lang: int) -> None:
    """`batch_readout = "nothing"` built silently and the widget showed no number: every
    string of ui_check.REQUIRED (widget sentences, chart names) missing a slot it needs is
    an error at its line naming the slots it needs, every such string in one build."""
    from sqrtdk.web.ui_check import REQUIRED
    path = content / languages(content)[lang] / "strings.toml"
    ui = load_toml(path).data["ui"]
    keys = sorted(k for k in REQUIRED if k in ui)
    lines = {}
    for key in keys:
        lines[key] = edit(path, re.compile(rf"^{key} = .*$", re.M), f'{key} = "nothing"')
    with pytest.raises(BuildError) as e:
        ui_check(content)
    found = e.value.errors
    assert sorted((x.path, x.line) for x in found) == sorted((path, n) for n in lines.values())
    for x in found:
        key = next(k for k, n in lines.items() if n == x.line)
        assert f"[ui] {key} has no " in x.message, x.message
        assert "it needs " + ", ".join("{" + s + "}" for s in REQUIRED[key]) in x.message


def test_a_misspelt_slot_is_told_the_slots_of_its_sentence(content: Path) -> None:
    from sqrtdk.web.ui_check import REQUIRED
    key, slot = a_slotted_key(content)
    path = content / languages(content)[0] / "strings.toml"
    line = edit_in_key(path, key, "{" + slot + "}", "{" + slot[:-1] + "q}" if len(slot) > 2
                       else "{" + slot + "q}")
    with pytest.raises(BuildError) as e:
        ui_check(content)
    assert e.value.line == line, str(e.value)
    assert "needs " + ", ".join("{" + s + "}" for s in REQUIRED[key]) in e.value.message


def test_a_ui_key_misspelt_in_every_language_is_one_error_at_its_line(
        content: Path, caplog: pytest.LogCaptureFixture) -> None:
    """`batch_redout` in every strings.toml was a warning at its line ("appears nowhere")
    and an error at the [ui] line ("has no 'batch_readout'"): one mistake told twice, the
    error not where it was made. It is one error at the misspelt key's line."""
    import logging

    from sqrtdk.web.ui_check import template_use
    key = next(k for k in sorted(template_use(PROJECT_ROOT / "templates").keys)
               if k[-1] != k[-2])
    typo = key[:-2] + key[-1] + key[-2]            # the last two letters swapped
    lines = {}
    for lang in languages(content):
        path = content / lang / "strings.toml"
        lines[path] = edit(path, re.compile(rf"^{key} =", re.M), f"{typo} =")
    with caplog.at_level(logging.WARNING, logger="sqrtdk"), pytest.raises(BuildError) as e:
        ui_check(content)
    assert sorted((x.path, x.line) for x in e.value.errors) == sorted(lines.items())
    assert all(f"did you mean '{key}'? rename it" in x.message for x in e.value.errors)
    assert not [r for r in caplog.records if typo in r.getMessage()], caplog.records


def test_a_ui_key_misspelt_in_a_template_names_the_template_s_line(content: Path,
                                                                   tmp_path: Path) -> None:
    """`{{ ui.skipp }}` typed in a template: the error, at the [ui] key nothing reads any
    more, said only "which the templates (skipp) reads; did you mean 'skipp'? rename it",
    which sends the author to rename a right key after a wrong one. It names the template's
    line that reads the new key, and says to fix the template there if that is the
    misspelling."""
    import shutil

    from sqrtdk.errors import display_path
    from sqrtdk.web.embed import SLOTS
    from sqrtdk.web.ui_check import check_ui_strings, template_use
    templates = tmp_path / "templates"
    shutil.copytree(PROJECT_ROOT / "templates", templates)
    files = sorted(templates.glob("*.html"))
    texts = {f: f.read_text(encoding="utf-8") for f in files}

    def reads(key: str) -> list[Path]:
        return [f for f in files for _ in re.finditer(rf"\bui\.{key}\b", texts[f])]
    key = next(k for k in sorted(template_use(templates).keys) if len(reads(k)) == 1
               and not any(f"ui['{k}']" in t or f'ui["{k}"]' in t for t in texts.values()))
    path = reads(key)[0]
    line = edit(path, re.compile(rf"\bui\.{key}\b"), f"ui.{key}x")
    settings = load_settings(content)
    with pytest.raises(BuildError) as e:
        check_ui_strings(load_strings(content, settings.languages), templates, tuple(SLOTS))
    errors = e.value.errors
    assert errors and all(f"{display_path(path)}:{line}" in x.message for x in errors), errors
    assert all(f"'{key}x'" in x.message and "misspel" in x.message for x in errors), errors


def test_a_block_tag_never_closed_in_a_template_is_told_at_its_line(tmp_path: Path) -> None:
    """`{% if … %}` typed in a template without its `{% endif %}`: Jinja stops at the end
    tag of the block around it ("Encountered unknown tag 'endblock' … The innermost block
    that needs to be closed is 'if'"), lines below, and the error was told there. It is
    told at the line of the `{% if %}`, with the `{% endif %}` to write."""
    import shutil

    from sqrtdk.web.ui_check import template_use
    templates = tmp_path / "templates"
    shutil.copytree(PROJECT_ROOT / "templates", templates)
    path = next(f for f in sorted(templates.glob("*.html"))
                if re.search(r"{%-? block \w+ -?%}\n", f.read_text(encoding="utf-8"))
                and "{% endblock" in f.read_text(encoding="utf-8"))
    text = path.read_text(encoding="utf-8")
    m = re.search(r"{%-? block \w+ -?%}\n", text)
    assert m
    path.write_text(text[:m.end()] + "{% if true %}\n" + text[m.end():], encoding="utf-8")
    line = text[:m.end()].count("\n") + 1
    with pytest.raises(BuildError) as e:
        template_use(templates)
    assert (e.value.path, e.value.line) == (path, line), str(e.value)
    assert "{% endif %}" in e.value.message, e.value.message


@pytest.mark.parametrize(("key", "value"), [
    ("default_language", '"""\nen\nzh"""'), ("engine", '"a\\rb"'),
    ("languages", '["a\\u2028b"]')])
def test_a_value_with_line_breaks_is_quoted_on_the_message_s_one_line(
        content: Path, key: str, value: str) -> None:
    """`default_language = \"\"\"…\"\"\"` (a multi-line string) was quoted as it was in the
    message, which then took two lines, the second with no path: every mistake is one
    line, its value's line breaks written as their escapes."""
    path = content / "site.toml"
    line = edit(path, re.compile(rf"^{key} = .*$", re.M), f"{key} = {value}")
    with pytest.raises(BuildError) as caught:
        load_settings(content)
    e = caught.value
    assert (e.path, e.line) == (path, line), e
    assert len(str(e).splitlines()) == 1, repr(str(e))


def test_a_warning_quoting_line_breaks_is_one_line(caplog: pytest.LogCaptureFixture) -> None:
    """The same for a warning (sqrtdk.log.warn), which quotes the author's words too."""
    import logging

    from sqrtdk.log import warn
    with caplog.at_level(logging.WARNING):
        warn(logging.getLogger("sqrtdk.test"), "content/x.toml", 3, "'a\nb\r\nc' is odd; fix it")
    said = [r.getMessage() for r in caplog.records]
    assert said == ["content/x.toml:3: warning: 'a\\nb\\r\\nc' is odd; fix it"], said


@pytest.mark.parametrize("value", ["42", "true", '["a", "b"]', "{ a = \"b\" }"])
def test_a_card_label_that_is_no_text_is_named_at_its_own_line(content: Path,
                                                                value: str) -> None:
    """`[card] title = 42` was told "[card] needs title = …" at the [card] line, as if the
    label were missing, not at the line that has it."""
    lang = languages(content)[0]
    path = content / lang / "figures.toml"
    line = load_toml(path).line_of("card", "title")
    lines = path.read_text(encoding="utf-8").split("\n")
    lines[line - 1] = f"title = {value}"
    path.write_text("\n".join(lines), encoding="utf-8")
    e = figure_error(content, lang)
    assert (e.path, e.line) == (path, line) and "must be a string in quotes" in e.message, e


@pytest.mark.parametrize("table", ["style", "card"])
def test_a_style_or_card_that_is_no_table_is_an_error_at_its_line(content: Path,
                                                                  table: str) -> None:
    """`card = "title subtitle"` (or `style = …`) above every table stopped the build with
    an AttributeError traceback."""
    lang = languages(content)[0]
    path = content / lang / "figures.toml"
    text = path.read_text(encoding="utf-8")
    text = re.sub(rf"^\[{table}\][^\n]*\n(?:(?!\[)[^\n]*\n)*", "", text, flags=re.M)
    path.write_text(f'{table} = "title subtitle"\n' + text, encoding="utf-8")
    e = figure_error(content, lang)
    assert (e.path, e.line) == (path, 1) and f"{table} must be a table" in e.message, e


@pytest.mark.parametrize("value", ['""', '"  "', '"\\u200b"', '"\\n"'])
def test_an_empty_figure_label_is_an_error_at_its_line(content: Path, value: str) -> None:
    """An empty label (a figure's title, axis or series name; the card's title) was drawn as
    nothing, in silence: an empty [ui] string was an error already."""
    from sqrtdk import figures
    lang = languages(content)[0]
    path = content / lang / "figures.toml"
    plain = next((name, key) for name, spec in figures.load().items()
                 for key, fields in spec.labels.items() if not fields)
    for table, key in (plain, ("card", "title")):
        shutil.copy(CONTENT / lang / "figures.toml", path)
        line = load_toml(path).line_of(table, key)
        lines = path.read_text(encoding="utf-8").split("\n")
        lines[line - 1] = f"{key} = {value}"
        path.write_text("\n".join(lines), encoding="utf-8")
        e = figure_error(content, lang)
        assert (e.path, e.line) == (path, line) and f"[{table}] {key} " in e.message, e
        assert "would show nothing" in e.message, e


@pytest.mark.parametrize("text", ["Site {name}", "Site {}", "Site {0:>3}"])
def test_a_field_in_the_site_title_or_a_language_name_is_an_error_at_its_line(
        content: Path, text: str) -> None:
    """`title = "… {name}"` in site.toml or `[language] name = "{lang}"` was published as
    typed, braces and all, exit 0: nothing fills these strings in (a [ui] string with a
    field was an error already). A lone brace stays what it says."""
    path = content / "site.toml"
    line = edit(path, re.compile(r"^title = .*$", re.M), f'title = "{text}"')
    e = error(content)
    assert (e.path, e.line) == (path, line) and "title: {" in e.message, e
    assert "shown as typed" in e.message, e
    shutil.copy(CONTENT / "site.toml", path)
    strings = content / languages(content)[-1] / "strings.toml"
    line = edit(strings, re.compile(r"^name = .*$", re.M), f'name = "{text}"')
    e = error(content)
    assert (e.path, e.line) == (strings, line) and "[language] name: {" in e.message, e


@pytest.mark.parametrize("text, shown", [
    ("Why <em>divide</em>", "<em>"), ("Attention &mdash; why", "&mdash;"),
    ("Why *divide* by it", "*divide*"), ("Why `sqrt` at all", "`sqrt`"),
    ("{{ site.title }} notes", "{{ site.title }}")])
def test_markup_in_a_string_shown_as_typed_is_a_warning_at_its_line(
        content: Path, caplog: pytest.LogCaptureFixture, text: str, shown: str) -> None:
    """HTML, an entity, Markdown's marks or a Jinja expression in site.toml's title, a
    language's name or a [ui] string shown as it is reached the page as typed, exit 0, no
    word (the article's title and description were warned already)."""
    import logging

    from sqrtdk.settings import FIELDS, PERCENT_D
    from sqrtdk.web.ui_check import READ_BY_CODE
    site = content / "site.toml"
    strings = content / languages(content)[-1] / "strings.toml"
    ui = load_toml(strings).data["ui"]
    key = next(k for k in sorted(READ_BY_CODE) if k in ui and "{" not in ui[k]
               and k not in FIELDS and k not in PERCENT_D)
    lines = [(site, edit(site, re.compile(r"^title = .*$", re.M), f'title = "{text}"')),
             (strings, edit(strings, re.compile(r"^name = .*$", re.M), f'name = "{text}"')),
             (strings, edit(strings, re.compile(rf"^{key} = .*$", re.M), f'{key} = "{text}"'))]
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        ui_check(content)           # (the printer shows a warning logged twice once)
    got = list(dict.fromkeys(r.getMessage() for r in caplog.records
                             if "holds markup" in r.getMessage()))
    assert len(got) == len(lines), got
    for (path, line), message in zip(lines, got, strict=True):
        assert message.startswith(f"{path.as_posix()}:{line}: warning: ") and shown in message, got


def test_a_string_without_markup_stays_quiet(content: Path,
                                             caplog: pytest.LogCaptureFixture) -> None:
    """Snake case, a product, a lone asterisk, a price and angle brackets around no tag stay
    quiet."""
    import logging
    site = content / "site.toml"
    edit(site, re.compile(r"^title = .*$", re.M), 'title = "d_k and a*b: 2 < 3 > 1, $5 {a"')
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        load_settings(content)
    assert [r.getMessage() for r in caplog.records] == []


def test_a_lone_brace_in_the_site_title_is_taken(content: Path) -> None:
    edit(content / "site.toml", re.compile(r"^title = .*$", re.M), 'title = "Sets {a, b"')
    assert load_settings(content).title == "Sets {a, b"


@pytest.mark.parametrize(("make", "says"), [
    (lambda p: None, "restore it"),
    (lambda p: p.mkdir(), "is a folder"),
    (lambda p: p.symlink_to(p.parent / "nowhere"), "is a link to '"),
    (lambda p: p.with_name("Site.toml").write_text("x"), "rename it to site.toml"),
    (lambda p: p.with_name("site.toml.bak").write_text("x"), "rename it to site.toml"),
], ids=["missing", "folder", "dangling link", "capitalised", "extra suffix"])
def test_a_site_toml_that_is_not_there_as_a_file_says_what_to_do(
        content: Path, make: Any, says: str) -> None:
    """It was 'content/site.toml: file not found' or 'cannot read the file (Is a
    directory)', with nothing to do; a Site.toml beside it was not named."""
    path = content / "site.toml"
    path.unlink()
    make(path)
    with pytest.raises(BuildError) as e:
        load_settings(content)
    assert e.value.path == path and says in e.value.message, e.value
    assert ";" in e.value.message, e.value


def test_a_missing_content_folder_says_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(BuildError) as e:
        load_settings(tmp_path / "content")
    assert e.value.path == tmp_path / "content" and "restore it" in e.value.message, e.value


@pytest.mark.parametrize("same", ["tag", "subtag"])
def test_other_lang_that_is_the_page_s_own_language_is_an_error_at_its_line(
        content: Path, same: str) -> None:
    """`other_lang = "en"` on the English page tagged its runs of Chinese as English, for
    screen readers and fonts, exit 0. (A html_lang of another folder's language is told at
    html_lang, not here.)"""
    strings = content / languages(content)[-1] / "strings.toml"
    own = load_toml(strings).data["language"]["html_lang"]
    other = own if same == "tag" else own.split("-")[0].upper() + "-XQ"
    text = strings.read_text(encoding="utf-8")
    text = re.sub(r"^other_lang = .*\n", "", text, flags=re.M)
    text = re.sub(r"^html_lang = .*$", f'html_lang = "{own}"\nother_lang = "{other}"', text,
                  count=1, flags=re.M)
    strings.write_text(text, encoding="utf-8")
    line = load_toml(strings).line_of("language", "other_lang")
    e = error(content)
    assert (e.path, e.line) == (strings, line), e
    assert "this page's own language" in e.message, e


def set_label(content: Path, lang: str, text: str) -> tuple[Path, str, str, int]:
    """The first label without fields of the first registered figure that has one set to
    `text` in `lang`'s figures.toml: (the file, the figure, the label's key, its line)."""
    from sqrtdk import figures
    path = content / lang / "figures.toml"
    name, key = next((n, k) for n, spec in figures.load().items()
                     for k, fields in spec.labels.items() if not fields)
    line = load_toml(path).line_of(name, key)
    lines = path.read_text(encoding="utf-8").split("\n")
    lines[line - 1] = f'{key} = "{text}"'
    path.write_text("\n".join(lines), encoding="utf-8")
    return path, name, key, line


@pytest.mark.parametrize("tex", ["$q\\\\cdot k$", "\\\\(\\\\sqrt{d_k}\\\\)"])
def test_tex_in_a_label_a_ui_string_or_the_title_is_an_error_at_its_line(
        content: Path, tex: str) -> None:
    """A figure label, a [ui] string or the site's title is text, drawn or shown as typed:
    `xlabel = "dot product $q\\cdot k$"` published the dollars and the backslash, exit 0.
    Dollar signs of prices ('$5 and $10') are text and stay."""
    from sqrtdk import figures
    lang = languages(content)[-1]
    path, _, _, line = set_label(content, lang, f"the {tex} here")
    e = figure_error(content, lang)
    assert (e.path, e.line) == (path, line) and "is TeX, which the figure shows" in e.message, e
    set_label(content, lang, "costs $5 and $10")
    from sqrtdk.figure_labels import validate_labels
    validate_labels(load_toml(path), figures.load())

    strings = content / lang / "strings.toml"
    line = edit(strings, re.compile(r"^toc = .*$", re.M), f'toc = "The {tex}"')
    e = error(content)
    assert (e.path, e.line) == (strings, line) and "is TeX, which the page" in e.message, e
    shutil.copy(CONTENT / lang / "strings.toml", strings)
    site = content / "site.toml"
    line = edit(site, re.compile(r"^title = .*$", re.M), f'title = "Why {tex}"')
    e = error(content)
    assert (e.path, e.line) == (site, line) and "is TeX, which the root page" in e.message, e


def test_tex_told_quotes_only_the_formula_with_the_command(content: Path) -> None:
    """'\\(x\\) and \\(\\sqrt{d}\\)' in the title was quoted from the first '\\(' to the
    last '\\)', both formulas and the words between; each '\\(' pairs with its own '\\)'."""
    site = content / "site.toml"
    line = edit(site, re.compile(r"^title = .*$", re.M),
                'title = "Why \\\\(x\\\\) and \\\\(\\\\sqrt{d}\\\\) here"')
    e = error(content)
    assert (e.path, e.line) == (site, line), e
    assert "'\\(\\sqrt{d}\\)' is TeX" in e.message and "and \\(" not in e.message, e


@pytest.mark.cpu_timeout(10)
def test_tex_after_many_openers_before_one_closer_is_found_in_linear_time(
        content: Path) -> None:
    """Each '\\(' sliced and searched the text up to the same '\\)': a title of 30,000
    '\\(' before one '\\)', no command between, took seconds, 100,000 far longer than the
    test's timeout (markup.paren_formulas pairs them in one pass)."""
    site = content / "site.toml"
    edit(site, re.compile(r"^title = .*$", re.M),
         'title = "' + "\\\\( " * 100000 + '\\\\) and \\\\(\\\\sqrt{d}\\\\) here"')
    e = error(content)
    assert "'\\(\\sqrt{d}\\)' is TeX" in e.message, e


def test_html_lang_of_the_other_language_is_told_at_html_lang_not_other_lang(
        content: Path) -> None:
    """html_lang copied from the other language equals that file's other_lang: the mistake
    is html_lang's (not a tag of the folder), and is told there."""
    first, last = languages(content)[0], languages(content)[-1]
    strings = content / last / "strings.toml"
    theirs = load_toml(content / first / "strings.toml").data["language"]["html_lang"]
    mine = load_toml(strings).data["language"]
    if mine.get("other_lang", "").split("-")[0].lower() != theirs.split("-")[0].lower():
        pytest.skip("this language's other_lang is not the first language's")
    line = edit(strings, re.compile(r"^html_lang = .*$", re.M), f'html_lang = "{theirs}"')
    e = error(content)
    assert (e.path, e.line) == (strings, line) and "is not a tag of" in e.message, e


@pytest.mark.parametrize("key", ["FIELDS", "PERCENT_D"])
def test_markup_in_a_ui_string_the_page_fills_in_is_a_warning_at_its_line(
        content: Path, caplog: pytest.LogCaptureFixture, key: str) -> None:
    """A [ui] string with {fields} (or backlink_title's %d) is filled in and shown as text,
    as a plain one is: '<b>bold</b>' in one was published as typed, exit 0, no word (the
    plain strings were warned). Its `{{` is a brace, no Jinja."""
    import logging

    from sqrtdk import settings
    strings = content / languages(content)[-1] / "strings.toml"
    ui = load_toml(strings).data["ui"]
    name = sorted(k for k in getattr(settings, key) if k in ui)[0]
    line = edit(strings, re.compile(rf'^{name} = "', re.M), f'{name} = "<b>bold</b> {{{{x}}}} ')
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        ui_check(content)
    got = list(dict.fromkeys(r.getMessage() for r in caplog.records
                             if "holds markup" in r.getMessage()))
    assert len(got) == 1 and got[0].startswith(f"{strings.as_posix()}:{line}: warning: "), got
    assert "<b>" in got[0] and "{{x}}" not in got[0], got


@pytest.mark.parametrize("text, warned", [
    ("the <b>raw</b> scores", "<b>"), ("SD &times; 2", "&times;"), ("the *raw* scores", "*raw*"),
    ("{{braces}} drawn as one", ""), ("p < 0.001 and d_k", "")])
def test_markup_in_a_figure_label_is_a_warning_at_its_line(
        content: Path, caplog: pytest.LogCaptureFixture, text: str, warned: str) -> None:
    """A label is drawn as typed: HTML, an entity or Markdown's marks in it reached the figure
    as they were written, exit 0, no word. A doubled brace is a brace in a label (a format
    string), no Jinja; '<' before a number is no tag."""
    import logging

    from sqrtdk import figures
    from sqrtdk.figure_labels import validate_labels
    path, name, key, line = set_label(content, languages(content)[-1], text)
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        validate_labels(load_toml(path), figures.load())
    got = [r.getMessage() for r in caplog.records if "holds markup" in r.getMessage()]
    if not warned:
        assert got == []
        return
    assert len(got) == 1 and warned in got[0], got
    assert got[0].startswith(f"{path.as_posix()}:{line}: warning: [{name}] {key} holds"), got


@pytest.mark.parametrize(("entry", "says"), [
    ('Tip = "Hint"', ("no kind of box", "lower case")),
    ('tip = ""', ("must be the box's title",)),
    ("tip = 3", ("must be the box's title",)),
    ("tip = 'Use $q\\cdot k$'", ("TeX",)),
])
def test_a_box_title_mistake_is_an_error_at_its_line(content: Path, entry: str,
                                                     says: tuple[str, ...]) -> None:
    """strings.toml's optional [box_titles] (the title of the box the build tells an author
    to write for another tool's note box, per kind): a kind that is no lower-case word, or a
    title that is not a visible string, is an error at its line."""
    path = content / languages(content)[-1] / "strings.toml"
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"^\[box_titles\][^\[]*", "", text, flags=re.M)    # the project's own, if any
    line = text.count("\n") + 3
    path.write_text(text + f"\n[box_titles]\n{entry}\n", encoding="utf-8")
    e = error(content)
    assert (e.path, e.line) == (path, line) and all(s in e.message for s in says), e.message


def test_box_titles_are_read_per_language(content: Path) -> None:
    """[box_titles] is optional and each language's own (no language must list the kinds
    another lists)."""
    first = languages(content)[0]
    path = content / first / "strings.toml"
    text = re.sub(r"^\[box_titles\][^\[]*", "", path.read_text(encoding="utf-8"), flags=re.M)
    path.write_text(text + '\n[box_titles]\ntip = "A hint of ours"\n', encoding="utf-8")
    got = load_strings(content, load_settings(content).languages)
    assert got[first].box_titles == {"tip": "A hint of ours"}


def _ui_warnings(content: Path, caplog: pytest.LogCaptureFixture, check: Any) -> list[str]:
    """The warnings `check(strings, labels)` (a ui_check pass over every language's
    strings.toml and figures.toml) gives for the files under `content`."""
    import logging
    langs = languages(content)
    strings = load_strings(content, tuple(langs))
    labels = {lang: load_toml(content / lang / "figures.toml") for lang in langs}
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        check(strings, labels)
    return [r.getMessage() for r in caplog.records]


def _untranslated(content: Path, caplog: pytest.LogCaptureFixture) -> list[str]:
    from sqrtdk.web.ui_check import untranslated_warnings
    return _ui_warnings(content, caplog, untranslated_warnings)


def test_a_string_copied_from_the_other_language_and_not_translated_warns_at_its_line(
        content: Path, caplog: pytest.LogCaptureFixture) -> None:
    """author12: an English [ui] string or figure label copied into the Chinese files (or a
    Chinese one into the English files) and left untranslated gave no word, and the page
    showed it as it is. It is now a warning at its line naming the other file's; strings
    the same in both that are no language's words (symbols: '÷√dₖ') stay quiet."""
    assert _untranslated(content, caplog) == []       # the project's own files
    langs = languages(content)
    by_script = {load_strings(content, tuple(langs))[lang].language.get("script", "latin"): lang
                 for lang in langs}
    latin, cjk = by_script["latin"], by_script["cjk"]
    for source, target, table, file in [(latin, cjk, "ui", "strings.toml"),
                                        (cjk, latin, "ui", "strings.toml"),
                                        (latin, cjk, None, "figures.toml")]:
        src = load_toml(content / source / file).data
        tgt_path = content / target / file
        tgt = load_toml(tgt_path).data
        if table is None:        # the first figure label with a word in it
            table, key = next((t, k) for t, d in src.items() if isinstance(d, dict) and t != "style"
                              for k, v in d.items() if isinstance(v, str)
                              and re.search("[A-Za-z]{2}", v) and k in tgt.get(t, {}))
        else:
            key = next(k for k, v in src[table].items()
                       if re.search("[A-Za-z]{2}" if source == latin else "[\u4e00-\u9fff]", v)
                       and "{" not in v and k in tgt[table] and v != tgt[table][k])
        text = tgt_path.read_text(encoding="utf-8")
        start = text.index(f"[{table}]")
        m = re.compile(rf"^{re.escape(key)} = .*$", re.M).search(text, start)
        assert m
        line = text.count("\n", 0, m.start()) + 1
        value = src[table][key].replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        saved = text
        tgt_path.write_text(text[:m.start()] + f'{key} = "{value}"' + text[m.end():],
                            encoding="utf-8")
        got = _untranslated(content, caplog)
        tgt_path.write_text(saved, encoding="utf-8")
        assert len(got) == 1 and f"{file}:{line}: warning: [{table}] {key}" in got[0] \
            and f"{source}/{file}:" in got[0], got


def _a_latin_pages_words(content: Path, file: str) -> tuple[Path, str, re.Match[str]]:
    """`file` of the first Latin-script language, its text, and its first string of words
    (a [ui] string, or a figure label): `key = "Words like these"`."""
    langs = languages(content)
    strings = load_strings(content, tuple(langs))
    latin = next(lang for lang in langs if strings[lang].language.get("script") == "latin")
    path = content / latin / file
    text = path.read_text(encoding="utf-8")
    m = re.compile(r'^(\w+) = "[A-Za-z][a-z ]+"', re.M).search(
        text, text.index("[ui]" if file == "strings.toml" else "title"))
    assert m
    return path, text, m


@pytest.mark.parametrize("file", ["strings.toml", "figures.toml"])
def test_chinese_in_a_latin_pages_string_warns_even_when_no_copy(
        content: Path, caplog: pytest.LogCaptureFixture, file: str) -> None:
    """fuzz17: a [ui] string or figure label of a Latin-script language written in Chinese
    words of the author's own (not the Chinese file's, so not "word for word") built with no
    word, and the English page showed Chinese (a mutation pass: `skip`, `toc`,
    `batch_button`). It is a warning at its line, naming the characters."""
    path, text, m = _a_latin_pages_words(content, file)
    line = text.count("\n", 0, m.start()) + 1
    path.write_text(text[:m.start()] + f'{m.group(1)} = "\u8df3\u5230 \u6587\u7ae0"'
                    + text[m.end():], encoding="utf-8")
    got = _untranslated(content, caplog)
    assert len(got) == 1 and f"{file}:{line}: warning: " in got[0] and m.group(1) in got[0] \
        and "\u8df3\u5230" in got[0], got


@pytest.mark.parametrize("file", ["strings.toml", "figures.toml"])
def test_a_chinese_term_named_among_a_latin_pages_words_is_no_warning(
        content: Path, caplog: pytest.LogCaptureFixture, file: str) -> None:
    """A Latin page's string that names a Chinese term on purpose among its own words
    ('the term \u7f29\u653e (scaling)') is written in the page's language: no warning, as a Latin
    term among a Chinese page's words is none."""
    path, text, m = _a_latin_pages_words(content, file)
    path.write_text(text[:m.start()] + f'{m.group(1)} = "the term \u7f29\u653e (scaling)"'
                    + text[m.end():], encoding="utf-8")
    assert _untranslated(content, caplog) == []


@pytest.mark.parametrize("file", ["strings.toml", "figures.toml"])
def test_a_field_one_language_has_and_another_lacks_warns_at_the_line_lacking_it(
        content: Path, caplog: pytest.LogCaptureFixture, file: str) -> None:
    """fuzz17: `{seed}` deleted from one language's `built_with` (the other's kept it) built
    with no word, and one page no longer said what the other said (a mutation pass over
    strings.toml). A `{field}` of a [ui] string or a figure label that another language's
    has and this one's lacks is a warning at this one's line, naming the field and the
    other file's line; the same field written twice in one language is no difference."""
    from sqrtdk.web.ui_check import field_differences

    def told() -> list[str]:
        return _ui_warnings(content, caplog, field_differences)

    assert told() == []                                # the project's own files
    last = languages(content)[-1]
    path = content / last / file
    text = path.read_text(encoding="utf-8")
    # (in strings.toml the footer's built_with: its fields are no required slot, so the build
    # reads it without them)
    m = re.compile(r'^(\w+) = "([^"\n]*?)(\{(\w+)(:[^}]*)?\})([^"\n]*)"', re.M).search(
        text, text.index("built_with =") if file == "strings.toml" else 0)
    assert m
    line = text.count("\n", 0, m.start()) + 1
    path.write_text(text[:m.start(3)] + text[m.end(3):], encoding="utf-8")
    got = told()
    assert len(got) == 1 and f"{last}/{file}:{line}: warning: " in got[0] and \
        "{" + m.group(4) + "}" in got[0] and m.group(1) in got[0], got
    path.write_text(text[:m.end(3)] + m.group(3) + text[m.end(3):], encoding="utf-8")
    assert told() == []


@pytest.mark.parametrize("text, first", [
    ('[[runs]]\nseed = 1\n[[runs]]\nseed = 2\nseed = 3\n', 4),      # its own entry's
    ('[a]\nseed = 0\n[[a.runs]]\nseed = 1\nseed = 3\n', 4),
    ('note = """\nskip = 0\n"""\nskip = 1\nskip = 2\n', 4),           # not in a string
    ('doc = """\n[ui]\n"""\n[ui]\nx = 1\n[ui]\n', 4)])
def test_a_duplicate_is_told_where_it_was_really_first_given(tmp_path: Path, text: str,
                                                            first: int) -> None:
    """The line given as the first of two equal keys or tables is that one, not a line of a
    multi-line string nor a key of another entry of an array of tables; a line that cannot
    be found is not named."""
    path = tmp_path / "x.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(BuildError) as e:
        load_toml(path)
    assert f"at line {first} already" in e.value.message, e.value.message


def test_a_table_of_an_array_of_tables_is_found_at_its_header(tmp_path: Path) -> None:
    """`line_of` reads `[[a.runs]]` as a header (a second pattern of the same name, for the
    duplicate's first line, had hidden the one that reads it)."""
    path = tmp_path / "x.toml"
    path.write_text('[a]\nx = 1\n\n[[a.runs]]\nseed = 1\n', encoding="utf-8")
    assert load_toml(path).line_of("a.runs", "seed") == 5
