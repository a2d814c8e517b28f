"""The author-edited settings: `content/site.toml` and each language's `strings.toml`.

Everything is validated before any work starts, with `path:line: message; what to do`:
types and required keys, `base_url`, that each listed language has its folder, that every
language's strings have the same keys as the first language's, and that each `{field}` in a
string is one the code fills in (`FIELDS`; the widgets' slots are checked by `web.embed`).
"""
from __future__ import annotations

import difflib
import logging
import os
import re
from bisect import bisect_left
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import SplitResult, quote, urlsplit

from .errors import BuildError, Mistakes, display_path, suggest, where
from .formats import FormatError, Kind, check_format, fields_of
from .log import warn
from .markup import markup_told, paren_formulas
from .textfiles import TomlFile, load_toml, visible

LOGGER = logging.getLogger("sqrtdk.settings")
STRAIGHT_QUOTE = re.compile(r"\w'|'\w|\"")   # an apostrophe or quote mark as typed

# ui strings the code formats (str.format), with the fields each may use and what they hold
FIELDS: dict[str, dict[str, Kind]] = {
    "figure": {"n": Kind.COUNT},                             # md_figures: the figure's number
    "note_ref": {"n": Kind.COUNT},                           # md_notes: the note's number
    "built_with": {"seed": Kind.COUNT, "numpy": Kind.TEXT},  # assemble: the page's footer
}
REQUIRED_FIELDS = {"figure": ("n",), "note_ref": ("n",)}
# Python-Markdown's footnotes turn each %d of BACKLINK_TITLE into {} and call .format(number)
PERCENT_D = ("backlink_title",)
LANGUAGE_KEYS = ("html_lang", "name", "og_locale")                  # [language]'s required
LANGUAGE_ALL = (*LANGUAGE_KEYS, "other_lang", "script")             # and all it may have
STRINGS_TABLES = ("language", "ui", "box_titles")                   # strings.toml's tables
# a [box_titles] key: the kind of another tool's note box (GitHub's `[!TIP]`, MkDocs'
# `!!! tip`, `::: tip`, Notion's light bulb), lower case
_BOX_KIND = re.compile(r"[a-z][a-z-]*")
# [ui] keys that are lists of words, where none at all is a fine value (not an empty label)
MAY_BE_EMPTY = frozenset({"keep_whole", "number_labels"})


@dataclass(frozen=True)
class Settings:
    """content/site.toml, validated."""

    path: Path
    base_url: str
    default_language: str
    title: str
    languages: tuple[str, ...]
    social_figure: str
    math: str                                             # the math engine's name
    lines: dict[str, int] = field(default_factory=dict)   # setting -> its line in site.toml
    macros: dict[str, str] = field(default_factory=dict)  # [math.macros]: TeX name -> body
    macro_lines: dict[str, int] = field(default_factory=dict)   # [math.macros]: name -> line
    # the names of `macros` from [math.renew]: KaTeX's own commands given a new meaning on
    # purpose (a name of [math.macros] that is one of them is warned)
    renewed: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Strings:
    """One language's strings.toml: the words around the article."""

    lang: str
    path: Path
    language: dict[str, str]
    ui: dict[str, str]
    file: TomlFile
    # [box_titles] (optional): the title a box written for another tool's note box of each
    # kind gets on this language's page ('tip' -> its word for a tip); a kind not listed is
    # titled by its name, capitalised ('Tip')
    box_titles: dict[str, str] = field(default_factory=dict)

    @property
    def html_lang(self) -> str:
        """The BCP 47 tag for <html lang> and hreflang (e.g. zh-CN)."""
        return self.language["html_lang"]


def load_settings(content_dir: Path) -> Settings:
    """Read and check content/site.toml. Raises BuildError at the offending line; every
    independent mistake of the file at once (errors.Mistakes): an unknown key, each setting
    missing or of the wrong kind, base_url, the languages and default_language, [math]. A
    check that needs a setting another check refused is left for the next build."""
    path = content_dir / "site.toml"
    if not path.is_file():
        _no_settings(content_dir, path)
    toml = load_toml(path)
    data = toml.data
    known = {"base_url": str, "default_language": str, "title": str, "languages": list,
             "social_figure": str}
    mistakes = Mistakes()
    with mistakes.seam():
        toml.check_known(None, [*known, "math"])
    misspelt = bool(mistakes)       # a misspelt key: the setting it meant is not missing too
    good: set[str] = set()
    for key, kind in known.items():
        with mistakes.seam():
            if key not in data:
                if misspelt:
                    continue
                raise toml.error(None, None, f"missing setting '{key}'; add a line '{key} = …'")
            if not isinstance(data[key], kind):
                raise toml.error(None, key, f"'{key}' must be a {_kind(kind)}")
            good.add(key)
    if "title" in good and not visible(data["title"]):
        with mistakes.seam():
            raise toml.error(None, "title", "title is empty or invisible; the root page's "
                                            "title would be blank: write the site's name")
    if "title" in good:
        with mistakes.seam():
            no_tex(toml, None, "title", data["title"], "the root page")   # before: {d_k}
            shown_as_typed(toml, None, "title")
    base = ""
    if "base_url" in good:
        with mistakes.seam():
            base = _base_url(toml, data["base_url"])
    langs: list[str] = data["languages"] if "languages" in good else []
    if "languages" in good:
        with mistakes.seam():
            _languages(content_dir, toml, langs)
            if "default_language" in good:
                _language_files(content_dir, toml, langs, data["default_language"])
                if data["default_language"] not in langs:
                    raise toml.error(None, "default_language", f"default_language "
                                     f"'{data['default_language']}' is not in languages; "
                                     + suggest(data["default_language"], langs, "languages"))
            _unread_content(content_dir, toml, langs)
    math: str = ""
    macros: dict[str, str] = {}
    renew: dict[str, str] = {}
    with mistakes.seam():
        math, macros, renew = _math(toml)
    mistakes.raise_any()
    return Settings(path=toml.path, base_url=base, default_language=data["default_language"],
                    title=data["title"], languages=tuple(langs),
                    social_figure=data["social_figure"], math=math,
                    lines={key: toml.line_of(None, key) for key in data},
                    macros={**macros, **renew}, renewed=frozenset(renew),
                    macro_lines={**{name: toml.line_of("math.macros", name) or
                                    _math_line(toml, "macros") for name in macros},
                                 **{name: toml.line_of("math.renew", name) or
                                    _math_line(toml, "renew") for name in renew}})


def _base_url(toml: TomlFile, value: str) -> str:
    """base_url as the folder's address (ending in '/'); BuildError at its line unless it is
    an absolute http(s) address without a query or fragment, a user name or password, an
    invalid port, a character an address cannot hold as typed (a space, `<`, a non-ASCII
    letter: the message gives the address to write), a broken %-escape or a `.`/`..` segment:
    every page, the sitemap and the link previews publish it as written."""
    base = value.strip()

    def refuse(what: str) -> BuildError:
        return toml.error(None, "base_url", f"base_url {what}")

    try:
        parts = urlsplit(base)
    except ValueError:      # a '[' or ']' around no IPv6 address: "https://[::1/", "[x]"
        raise refuse("has a '[' or ']' in its host around no IPv6 address; write the host "
                     "as a name ('example.org') or an IPv6 address in brackets "
                     "('https://[2001:db8::1]/')") from None
    if parts.scheme not in ("https", "http") or not parts.hostname or parts.query or \
            parts.fragment:
        raise refuse("must be the absolute http(s) address of the site's folder, e.g. "
                     "'https://example.org/sqrtdk/'")
    if parts.username is not None or parts.password is not None:
        raise refuse("holds a user name or password (before '@'), which every page would "
                     "publish; remove it")
    try:
        port_ok = parts.port != 0       # urlsplit raises ValueError beyond 65535
    except ValueError:
        port_ok = False
    if not port_ok:
        raise refuse(f"has no valid port after '{parts.hostname}:' (a number from 1 to "
                     "65535); correct it or remove it")
    typed = next((c for c in base if c.isspace() or ord(c) < 0x20 or ord(c) == 0x7F
                  or c in '<>"{}|\\^`'), None)
    if typed is not None:
        raise refuse(f"holds {typed!r}, which an address cannot hold as typed; remove it, "
                     f"or write it %-escaped ('%{ord(typed):02X}')")
    if not base.isascii():
        raise refuse("holds characters an address cannot hold as typed; write it "
                     + (f"as '{ascii_form}'" if (ascii_form := _ascii_url(parts)) else
                        "in ASCII (the host in its xn-- form, the path %-escaped)"))
    if re.search(r"%(?![0-9A-Fa-f]{2})", base):
        raise refuse("holds a '%' that starts no %-escape (two hex digits); write '%25' "
                     "for a percent sign")
    if any(segment in (".", "..") for segment in parts.path.split("/")):
        raise refuse("has a '.' or '..' folder in its path; write the folder's own address")
    last = parts.path.rsplit("/", 1)[-1]
    if _PAGE_FILE.search(last):     # `…/index.html`: every address would be `…/index.html/en/`
        folder = base[:len(base) - len(last)]
        raise refuse(f"names a page, '{last}', not the site's folder; write the folder's "
                     f"address, '{folder}'")
    # the folder the site is published in (MkDocs reads site_url so too)
    return base if base.endswith("/") else base + "/"


# the last part of an address that names a page rather than a folder (index.html, home.php)
_PAGE_FILE = re.compile(r"\.(?:html?|xhtml|php|aspx?|jsp|md)$", re.I)


def _ascii_url(parts: SplitResult) -> str:
    """`parts` with its host in IDNA (xn--) form and its path %-escaped as UTF-8, or "" when
    the host has no IDNA form."""
    try:
        host = (parts.hostname or "").encode("idna").decode("ascii")
    except UnicodeError:
        return ""
    port = f":{parts.port}" if parts.port else ""
    path = quote(parts.path, safe="/%:@!$&'()*+,;=-._~")
    return f"{parts.scheme}://{host}{port}{path}"


# a language's folder name: it is also a folder of site/ and a part of the pages' addresses
_LANGUAGE_FOLDER = re.compile(r"[^\W_][\w-]*")
# the folders of site/ the build fills itself (web.assemble), which no language may take
SITE_FOLDERS = ("assets", "figures", "source")


def _languages(content_dir: Path, toml: TomlFile, langs: list[Any]) -> None:
    """BuildError at `languages` unless it lists each language folder once (also when told
    apart by case only, as Windows and macOS do not), each a folder of `content_dir` whose
    name is a plain folder name (no '/', '.', space) that is none of site/'s own folders."""
    def refuse(message: str) -> BuildError:
        return toml.error(None, "languages", message)

    if not langs or not all(isinstance(x, str) and x for x in langs) or \
            len({x.casefold() for x in langs}) != len(langs):
        raise refuse("languages must list each language folder once, e.g. "
                     "languages = [\"zh\", \"en\"]")
    for lang in langs:
        if not _LANGUAGE_FOLDER.fullmatch(lang):
            raise refuse(f"language '{lang}' is not a folder name of content/ (letters, "
                         "digits and '-', e.g. \"en\" or \"pt-BR\": it is also the folder "
                         "of its pages in site/ and in their address); write the folder's "
                         "name")
        if lang.casefold() in SITE_FOLDERS:
            raise refuse(f"language '{lang}' has the name of the site's own folder "
                         f"site/{lang.casefold()}/; name the language's folder by its "
                         "language tag, e.g. \"fr\"")
        if not (content_dir / lang).is_dir():
            raise refuse(f"language '{lang}' has no folder content/{lang}/; create it as a "
                         f"copy of another language's folder, its three files translated "
                         f"(README, \"Add a language\"), or remove '{lang}'")


_MACRO_NAME = re.compile(r"\\(?:[A-Za-z]+|[^A-Za-z\s])")
MATH_KEYS = ("engine", "macros", "renew")


def _math(toml: TomlFile) -> tuple[str, dict[str, str], dict[str, str]]:
    """The math engine and the site's TeX macros: `math = "<engine>"`, or a table `[math]`
    with `engine = "<engine>"` and `[math.macros]`, TeX macros every formula knows, as the
    engine's `macros` option takes them (`'\\R' = '\\mathbb{R}'`, `#1` for an argument),
    and `[math.renew]`, the same for the engine's own commands given a new meaning on
    purpose (`'\\epsilon' = '\\varepsilon'`; LaTeX's \\renewcommand). BuildError at the
    second line of a name in both. The engine is one sqrtdk.web.math registers (its
    DEFAULT_ENGINE when none is named)."""
    from .web.math import DEFAULT_ENGINE
    math = toml.data.get("math", {})
    if isinstance(math, str):
        return _engine(toml, None, math), {}, {}
    if not isinstance(math, dict):
        raise toml.error(None, "math", "math must be the math engine's name in quotes, e.g. "
                                       f"math = \"{DEFAULT_ENGINE}\", or a table [math] with "
                                       "engine = \"…\" and a table [math.macros]")
    toml.check_known("math", MATH_KEYS)
    engine = math.get("engine", DEFAULT_ENGINE)
    if not isinstance(engine, str):
        raise BuildError(toml.path, _math_line(toml, "engine"), "[math] engine must be the "
                         f"math engine's name in quotes, e.g. engine = \"{DEFAULT_ENGINE}\"")
    macros, renew = _math_macros(toml, math, "macros"), _math_macros(toml, math, "renew")
    for name in renew.keys() & macros.keys():
        raise toml.error("math.renew", name, f"{name} is in [math.macros] and in [math.renew]; "
                         "keep it in one: [math.renew] when it gives one of the engine's own "
                         "commands a new meaning, [math.macros] otherwise")
    return _engine(toml, "engine", engine), macros, renew


def _math_line(toml: TomlFile, key: str) -> int:
    """The line of `key` in the math table: a table [math.key], or `key = …` under [math]."""
    return toml.line_of(f"math.{key}") or toml.line_of("math", key)


def _engine(toml: TomlFile, key: str | None, name: str) -> str:
    """`name` when sqrtdk.web.math registers an engine by that name, else BuildError at the
    math table's `key` (None: the top-level `math = "…"`)."""
    from .web.math import engine_names
    names = engine_names()
    if name not in names:
        line = _math_line(toml, key) if key else toml.line_of(None, "math")
        raise BuildError(toml.path, line, f"there is no math engine '{name}'; "
                         + suggest(name, names, "math engines"))
    return name


def _math_macros(toml: TomlFile, math: dict[str, Any], table: str) -> dict[str, str]:
    """The optional `[math.<table>]` table ("macros" or "renew"), checked: TeX macro names,
    TeX text; BuildError at the line of the first that is not."""
    macros = math.get(table, {})
    if not isinstance(macros, dict):
        raise toml.error("math", table, f"[math] {table} must be a table of TeX macros, "
                                        f"e.g. {table} = {{ '\\R' = '\\mathbb{{R}}' }}")
    for name, body in macros.items():
        if not _MACRO_NAME.fullmatch(name):
            raise toml.error(f"math.{table}", name, f"'{name}' is not a TeX macro name; "
                             "write a backslash and letters in single quotes, e.g. '\\R'")
        if not isinstance(body, str):
            raise toml.error(f"math.{table}", name, f"the macro {name} must be TeX in single "
                                                    "quotes, e.g. '\\mathbb{R}'")
    return dict(macros)


LANGUAGE_FILES = ("index.md", "strings.toml", "figures.toml")   # what each language folder has
_TRANSLATE = {"index.md": "translate the article (headings keep their {#ids})",
              "strings.toml": "translate its strings (and set [language] for this language)",
              "figures.toml": "translate its labels"}


def _language_files(content_dir: Path, toml: TomlFile, langs: list[str], default: str) -> None:
    """BuildError naming a language's missing file and the file to copy in its place (from
    the default language, else the first that has it)."""
    for lang in langs:
        for name in LANGUAGE_FILES:
            path = content_dir / lang / name
            if path.is_file():
                continue
            _not_a_file(path)
            sources = [x for x in (default, *langs)
                       if x != lang and (content_dir / x / name).is_file()]
            todo = (f"copy content/{sources[0]}/{name} to content/{lang}/ and "
                    f"{_TRANSLATE[name]}") if sources else \
                f"every language folder needs {name} (README: Add a language)"
            raise BuildError(path, 0, f"file not found: '{lang}' is in languages "
                             f"({where(toml.path, toml.line_of(None, 'languages'))}) and each "
                             f"language has {', '.join(LANGUAGE_FILES)}; {todo}")


def _no_settings(content_dir: Path, path: Path) -> None:
    """BuildError for a site.toml that is not there as a file: what is there instead (a
    folder, a link to nothing, Site.toml: `_not_a_file`), or that it, or the whole content
    folder, is missing, with what to do (it was 'file not found' alone, or a traceback-free
    'cannot read the file (Is a directory)')."""
    if not content_dir.is_dir():
        raise BuildError(content_dir, 0, "the content folder is missing (or is not a "
                                         "folder); it holds site.toml and one folder per "
                                         "language: restore it (git checkout -- content), "
                                         "or build from the project's folder")
    _not_a_file(path)
    raise BuildError(path, 0, "file not found: the build reads the site's settings here "
                              "(base_url, languages, title, …); restore it (git checkout -- "
                              "content/site.toml) or write it as README's \"Where things "
                              "live\" describes")


def _not_a_file(path: Path) -> None:
    """BuildError for a language file that is there but is no file the build can read (a
    folder, a link to nothing, a pipe), or is missing while a file named almost so is there
    (Index.md, index.markdown, index.md.txt): each was told only 'file not found' and to
    copy another language's file."""
    if path.is_symlink() and not path.exists():
        raise BuildError(path, 0, f"is a link to '{os.readlink(path)}', which does not exist "
                                  "(or links back to itself); point it at the file, or put "
                                  "the file itself here")
    if path.exists():
        kind = "a folder" if path.is_dir() else "not a regular file"
        raise BuildError(path, 0, f"is {kind}; the build reads the file {path.name} here: "
                                  f"replace it with the file")
    stem = path.name.split(".")[0].casefold()
    try:
        entries = list(path.parent.iterdir())
    except OSError as e:        # a folder the build may not read (chmod 000)
        raise BuildError(path.parent, 0, f"cannot read the folder ({e.strerror}); make it "
                                         "readable") from None
    near = sorted(p.name for p in entries if p.name != path.name and
                  (p.name.casefold() == path.name.casefold() or
                   (p.name.casefold().startswith(stem + ".") and p.is_file())))
    if near:
        raise BuildError(path, 0, f"file not found, but {near[0]} is there; rename it to "
                                  f"{path.name} (the build reads that name only, in lower "
                                  "case)")


_TEXT_SUFFIXES = (".md", ".markdown", ".toml", ".txt", ".html")
# an editor's or a merge tool's leftovers beside a file (index.md~, #index.md#, .orig, .rej):
# no author text of the page's, never warned
_LEFTOVER = re.compile(r"^#.*#$|~$|\.(?:bak|orig|rej|swp|tmp)$", re.I)


def _named_almost(name: str, expected: tuple[str, ...]) -> str | None:
    """The file of `expected` that `name` is a slip of (strings.tml, string.toml,
    Figures.toml, index.mdown), or None; an editor's leftover is none."""
    if _LEFTOVER.search(name):
        return None
    near = difflib.get_close_matches(name.casefold(), expected, n=1, cutoff=0.8)
    return near[0] if near else None


def _unread_content(content_dir: Path, toml: TomlFile, langs: list[str]) -> None:
    """A warning for each author file the build would not read: a language folder not in
    `languages`, an article or settings file beside the ones each language has, a file named
    almost as one the build reads (`strings.tml` beside strings.toml: edits made there were
    silently not published)."""
    for entry in sorted(content_dir.iterdir()):
        if entry.name.startswith("."):
            continue
        if entry.is_dir() and entry.name not in langs and (entry / "index.md").is_file():
            warn(LOGGER, toml.path, toml.line_of(None, "languages"), f"content/{entry.name}/ "
                 f"has an article, but '{entry.name}' is not in languages, so it is not "
                 f"published; add \"{entry.name}\" to languages, or remove the folder")
        elif entry.is_file() and entry.name != "site.toml" and \
                (near := _named_almost(entry.name, ("site.toml",))):
            warn(LOGGER, entry, 1, f"the build does not read this file, named almost as "
                 f"{near}, which it reads; move what you wrote here into {near}, or remove "
                 "this file")
        elif entry.is_file() and entry.name != "site.toml" and \
                entry.suffix.lower() in _TEXT_SUFFIXES:
            warn(LOGGER, entry, 1, "the build does not read this file (content/ holds site.toml "
                 "and one folder per language); move its text into a language's index.md, or "
                 "remove it")
    for lang in langs:
        for entry in sorted((content_dir / lang).iterdir()):
            if not entry.is_file() or entry.name in LANGUAGE_FILES or entry.name.startswith("."):
                continue
            if near := _named_almost(entry.name, LANGUAGE_FILES):
                warn(LOGGER, entry, 1, f"the build does not read this file, named almost as "
                     f"{near}, which it reads; move what you wrote here into {near}, or "
                     "remove this file")
            elif entry.suffix.lower() in _TEXT_SUFFIXES:
                warn(LOGGER, entry, 1, "the build does not read this file: each language has "
                     "one article, index.md (with strings.toml and figures.toml); move its "
                     "text into index.md, or remove it")


# a formula in TeX: `$…$` (or `\(…\)`) holding a command such as \cdot or \sqrt
_DOLLARS = re.compile(r"\$[^$\n]*\$")
_COMMAND = re.compile(r"\\[A-Za-z]+")


def _tex(text: str) -> str | None:
    """The first `$…$` or `\\(…\\)` on one line of `text` that holds a TeX command, or
    None, in one pass (the commands' starts found once, each formula's first by bisection)."""
    found = [(m.start(), m.group(0)) for m in _DOLLARS.finditer(text)
             if _COMMAND.search(m.group(0), 1)]
    commands = [m.start() for m in _COMMAND.finditer(text)]
    for start, end in paren_formulas(text):
        k = bisect_left(commands, start + 2)
        if k < len(commands) and commands[k] + 2 <= end - 2:
            found.append((start, text[start:end]))
            break
    return min(found)[1] if found else None


def no_tex(toml: TomlFile, table: str | None, key: str, text: str, where: str) -> None:
    """BuildError at `key` when its text holds a TeX formula (`$q\\cdot k$`): `where` (the
    page, a figure) shows it as typed, dollars and backslashes; only the article's text is
    typeset."""
    tex = _tex(text)
    if tex is None:
        return
    name = f"[{table}] {key}" if table else key
    raise toml.error(table, key, f"{name}: '{tex}' is TeX, which {where} shows as "
                     "typed (only the article's formulas are typeset); write it in Unicode "
                     "(q·k, √dₖ, ÷, pᵢ)")


def shown_as_typed(toml: TomlFile, table: str | None, key: str) -> None:
    """BuildError at `key` when its text (a string the pages show as it is, as the site's
    title and a language's name) holds a `{field}`, which nothing fills in: it would be
    published as typed (web/ui_check.py says the same of a [ui] string); a warning when it
    holds markup (HTML, an entity, Markdown's marks, Jinja: sqrtdk.markup), shown as typed."""
    values = toml.data if table is None else toml.data[table]
    name = f"[{table}] {key}" if table else key
    try:
        found = fields_of(values[key])
    except FormatError:
        found = []                  # a lone brace: shown as typed, which is what it says
    if found:
        raise toml.error(table, key, f"{name}: {found[0]} would be shown as typed: nothing "
                         "fills in this string; write the words themselves (a brace as "
                         "typed is fine on its own)")
    if told := markup_told(values[key], name, "the pages show it as it is"):
        warn(LOGGER, toml.path, toml.line_of(table, key), told)


def _kind(kind: type) -> str:
    names: dict[type, str] = {str: "string in quotes", list: "list such as [\"a\", \"b\"]"}
    return names.get(kind, kind.__name__)


def load_strings(content_dir: Path, languages: tuple[str, ...],
                 read: Mapping[str, str] | None = None) -> dict[str, Strings]:
    """Every language's strings.toml, checked against the first language's keys and FIELDS.
    Each file is read and checked on its own (its first mistake: a missing table would
    cascade), the mistakes of every file raised together (errors.Mistakes); the files are
    compared once each is read (`read`: the [ui] keys the code and the templates read, and
    what reads each, web/ui_check.needed_keys; a key one language lacks is then told to be
    added, not removed)."""
    read = read or {}
    out: dict[str, Strings] = {}
    mistakes = Mistakes()
    for lang in languages:
        with mistakes.seam():
            out[lang] = _load_strings_file(content_dir, lang, languages[0])
    mistakes.raise_any()
    first = out[languages[0]]
    for other in list(out.values())[1:]:
        with mistakes.seam():
            _same_keys(first, other, read)
    mistakes.raise_any()
    _distinct_languages(out)
    return out


def _load_strings_file(content_dir: Path, lang: str, first_lang: str) -> Strings:
    """One language's strings.toml, read and checked on its own (`load_strings`)."""
    toml = load_toml(content_dir / lang / "strings.toml")
    toml.check_known(None, STRINGS_TABLES, "table")
    if isinstance(toml.data.get("language"), dict):
        toml.check_known("language", LANGUAGE_ALL)
    for table in ("language", "ui"):
        if not isinstance(toml.data.get(table), dict):
            raise toml.error(None, None, f"missing table [{table}]; see "
                                         f"content/{first_lang}/strings.toml")
    for table in ("language", "ui"):
        for key, value in toml.data[table].items():
            if not isinstance(value, str):
                raise toml.error(table, key, f"[{table}] {key} must be a string in quotes")
            if not visible(value) and not (table == "ui" and key in MAY_BE_EMPTY):
                empty = "is empty" if not value.strip() else "holds only invisible characters"
                raise toml.error(table, key, f"[{table}] {key} {empty}; the page would show "
                                             "nothing there (an empty heading or button "
                                             "label, or no name for screen readers)")
            no_tex(toml, table, key, value, "the page")
    for key in LANGUAGE_KEYS:
        if key not in toml.data["language"]:
            raise toml.error("language", None, f"[language] needs '{key} = …'")
    shown_as_typed(toml, "language", "name")
    _check_language(toml)
    _check_fields(toml)
    return Strings(lang, toml.path, dict(toml.data["language"]), dict(toml.data["ui"]), toml,
                   _box_titles(toml))


def _box_titles(toml: TomlFile) -> dict[str, str]:
    """strings.toml's optional [box_titles]: kind -> title, each kind a lower-case word and
    each title a visible string on one line. Raises BuildError at the line of the first
    that is not."""
    table = toml.data.get("box_titles", {})
    if not isinstance(table, dict):
        raise toml.error(None, "box_titles", "box_titles must be a table, [box_titles], "
                         "with a line 'kind = \"title\"' for each kind ('tip = \"Tip\"')")
    for key, value in table.items():
        if not _BOX_KIND.fullmatch(key):
            raise toml.error("box_titles", key, f"[box_titles] '{key}' is no kind of box; "
                             "write the kind in lower case, as the other tool names it "
                             "('tip', 'warning', 'note')")
        if not isinstance(value, str) or not visible(value) or "\n" in value:
            raise toml.error("box_titles", key, f"[box_titles] {key} must be the box's "
                             "title, a string in quotes on one line ('tip = \"Tip\"')")
        no_tex(toml, "box_titles", key, value, "the page")
    return dict(table)


_FOLDER_TAG = re.compile(r"[A-Za-z]{2,3}")     # a folder named by a language subtag (de, zh)
# the [language] and [ui] values that say which language a page is in: two languages with the
# same value publish two pages claiming one language (lang, hreflang, the switch, the root)
DISTINCT = (("language", "html_lang"), ("language", "name"), ("ui", "switch_to"))


def _distinct_languages(strings: dict[str, Strings]) -> None:
    """Each language says it is itself: html_lang's primary subtag is the folder's name
    (when the folder is named by a language subtag: zh has zh-CN; a folder named by the
    region, cn with zh-CN, is accepted too), and html_lang, [language]
    name and [ui] switch_to differ between languages. A folder copied from another language
    (README's "Add a language") with these left as they were would publish `<html lang>`,
    hreflang alternates, switch links and root-picker entries of the other language.
    Raises BuildError at the line of the later language's value."""
    for st in strings.values():
        subtags = [t.lower() for t in st.html_lang.split("-")]   # cn/ with zh-CN is fine too
        if _FOLDER_TAG.fullmatch(st.lang) and st.lang.lower() not in subtags:
            raise st.file.error("language", "html_lang", f"[language] html_lang = "
                                f"'{st.html_lang}' is not a tag of '{st.lang}', the folder "
                                f"this file is in; write html_lang = \"{st.lang}\" (or "
                                f"{st.lang} and a region, e.g. \"{st.lang}-"
                                f"{st.lang.upper()}\")")
    for st in strings.values():     # after html_lang is known to be the folder's language
        other = st.language.get("other_lang")
        if other is not None and \
                other.split("-")[0].lower() == st.html_lang.split("-")[0].lower():
            raise st.file.error("language", "other_lang", f"[language] other_lang = '{other}' "
                                f"is this page's own language (html_lang = '{st.html_lang}'); "
                                "it tags the runs of another language on this page (Chinese "
                                "words on an English page, English ones on a Chinese page): "
                                "write that language's tag, or remove the line")
    seen: dict[tuple[str, str, str], Strings] = {}
    for st in strings.values():
        for table, key in DISTINCT:
            value = st.file.data[table][key]
            norm = value.strip().lower() if key == "html_lang" else value.strip()
            before = seen.setdefault((table, key, norm), st)
            if before is not st:
                at = where(before.path, before.file.line_of(table, key))
                what = {"html_lang": "the language tag of its pages",
                        "name": "its name in the language menu",
                        "switch_to": "the link to it on the other pages"}[key]
                raise st.file.error(table, key, f"[{table}] {key} = '{value}' is also "
                                    f"{before.lang}'s ({at}); it is {what}, and each "
                                    f"language needs its own: write {st.lang}'s, in its "
                                    "own words")


def straight_quote_warnings(toml: TomlFile, table: str, values: dict[str, Any]) -> None:
    """A warning for each string with a typewriter apostrophe or quote: these texts reach the
    page as they are (the prose gets curly quotes from Markdown, TOML strings do not)."""
    for key, text in values.items():
        if isinstance(text, str) and STRAIGHT_QUOTE.search(text):
            warn(LOGGER, toml.path, toml.line_of(table, key), f"[{table}] {key} has a straight "
                 "quote; write ’ for an apostrophe and “…” or ‘…’ for quotes")


# BCP 47 (RFC 5646 §2.1), loosely: a 2–3 letter language, then subtags (zh-CN, en-GB, zh-Hans)
_LANGUAGE_TAG = re.compile(r"[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*")
_OG_LOCALE = re.compile(r"[a-z]{2,3}_[A-Z]{2}")      # Open Graph's language_TERRITORY
SCRIPTS = ("latin", "cjk")


def _check_language(toml: TomlFile) -> None:
    """[language]: tags the browser and link previews understand, and a known script."""
    language = toml.data["language"]
    for key in ("html_lang", "other_lang"):
        if key in language and not _LANGUAGE_TAG.fullmatch(language[key]):
            raise toml.error("language", key, f"[language] {key} = '{language[key]}' is not a "
                             "language tag; write one such as en, en-GB, zh-CN (BCP 47)")
    if not _OG_LOCALE.fullmatch(language["og_locale"]):
        raise toml.error("language", "og_locale", f"[language] og_locale = "
                         f"'{language['og_locale']}' is not an Open Graph locale; write "
                         "language_TERRITORY, such as en_US or zh_CN")
    script = language.get("script", "latin")
    if script not in SCRIPTS:
        raise toml.error("language", "script", f"[language] script = '{script}' is not one of "
                         + ", ".join(f"'{s}'" for s in SCRIPTS) + "; "
                         + suggest(script.lower(), SCRIPTS, "scripts"))


def _check_fields(toml: TomlFile) -> None:
    """The [ui] strings the code fills in: known fields only, specs sensible for what each
    field holds (see sqrtdk.formats), the footnote number's %d exactly once."""
    straight_quote_warnings(toml, "ui", toml.data["ui"])
    for key, text in toml.data["ui"].items():
        try:
            if key in PERCENT_D:
                _check_percent_d(key, text)
            elif key in FIELDS:
                check_format(text, FIELDS[key], required=REQUIRED_FIELDS.get(key, ()))
        except FormatError as e:
            raise toml.error("ui", key, f"[ui] {key}: {e}") from None
        # filled in, then shown as text: markup is shown as typed, as in a plain string
        # (ui_check); `{{` is a brace in a format string, not Jinja
        if (key in PERCENT_D or key in FIELDS) and (told := markup_told(
                text, f"[ui] {key}", "the pages show it as it is", jinja=False)):
            warn(LOGGER, toml.path, toml.line_of("ui", key), told)


def _check_percent_d(key: str, text: str) -> None:
    """`backlink_title`: one %d for the note's number; any other field would fail (or be
    filled with the number) when Python-Markdown formats it."""
    count = text.count("%d")
    if count != 1:
        raise FormatError(f"needs '%d' exactly once, where the note's number goes (it has "
                            f"{count})")
    # any other '%' directive ('%s', '%i', '% d') would be shown as typed beside the number
    other = re.search(r"%(?:\([^)]*\))?[-#0+]*\d*(?:\.\d+)?[iouxXeEfFgGcrsa]|%\(\w+\)d|"
                      r"%[-#0+]+\d*d|%\d+d", text)
    if other:
        raise FormatError(f"'{other.group(0)}' would be shown as typed: only '%d', where the "
                            "note's number goes, is filled in; write the words themselves")
    try:
        others = fields_of(text.replace("%d", ""))
    except FormatError as e:
        raise FormatError(f"{e} (the text is filled in by str.format)") from None
    if others:
        raise FormatError(f"{others[0]} is not filled in; write the note's number as %d "
                            "and a literal brace as {{ or }}")


def _same_keys(first: Strings, other: Strings, read: Mapping[str, str]) -> None:
    """Every key one of the two files has and the other lacks, each told (all at once) at the
    line of the file that has it. `read`: the [ui] keys the code or the templates read, and
    what reads each; those are told to be added, never to be removed."""
    mistakes = Mistakes()
    for table in ("language", "ui"):
        a, b = set(first.file.data[table]), set(other.file.data[table])
        paired: set[str] = set()
        for key in sorted(a - b):
            close = difflib.get_close_matches(key, sorted(b - a - paired), n=1, cutoff=0.6)
            if close:       # one of the two is misspelt: show both lines
                paired.add(close[0])
                mistakes.add(_misspelt(table, (first, key), (other, close[0]), read))
                continue
            # at the line the key is on (the author's own; the other file has none for it)
            mistakes.add(first.file.error(
                table, key, f"[{table}] {key} is not in {display_path(other.path)} (whose "
                f"[{table}] starts at line {other.file.line_of(table)}); "
                + _add_or_remove(table, key, read, "every language has the same keys: add it "
                                 "there")))
        for key in sorted(b - a - paired):
            like = difflib.get_close_matches(key, sorted(a), n=1, cutoff=0.6)
            mistakes.add(other.file.error(
                table, key, f"[{table}] {key} is not in {display_path(first.path)} (the first "
                "language, which the others follow"
                + (f"; did you mean '{like[0]}'?" if like else "") + "); "
                + _add_or_remove(table, key, read, "add it there too")))
    mistakes.raise_any()


def _misspelt(table: str, one: tuple[Strings, str], two: tuple[Strings, str],
              read: Mapping[str, str]) -> BuildError:
    """Two files naming one key two ways (`one` in the first language): at the line of the
    one nothing reads when the other is read (`read`), else at the other language's."""
    (first, a), (other, b) = one, two
    for (right, good), (wrong, bad) in ((one, two), (two, one)):
        if table == "ui" and good in read and bad not in read:
            return wrong.file.error(table, bad, f"[{table}] has '{bad}', which nothing reads, "
                                    f"where {where(right.path, right.file.line_of(table, good))}"
                                    f" has '{good}', needed by {read[good]}: rename it to "
                                    f"'{good}'")
    first_at = where(first.path, first.file.line_of(table, a))
    return other.file.error(table, b, f"[{table}] has '{b}' where {first_at} has '{a}'; one "
                            "of the two is misspelt; rename it so both files use the same name")


def _add_or_remove(table: str, key: str, read: Mapping[str, str], add: str) -> str:
    """What to do about a key one language lacks: add it (only that, when the page needs it:
    removing it too would leave the page without it), or remove it here."""
    if table == "ui" and key in read:
        return f"it is needed by {read[key]}: {add.rsplit(': ', 1)[-1]}"
    return f"{add}, or remove it here"
