"""Reading the files authors edit: UTF-8 required, every mistake as `path:line: message`.

`load_toml` is the one loader of `site.toml`, `strings.toml` and `figures.toml`. tomllib gives
no positions for keys, so `TomlFile.line_of` finds a key's line by scanning for its table
header and `key =` line (TOML is line-based: a key/value pair starts a line).
"""
from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import BuildError, deepest_line, suggest, too_deep

_TOML_POSITION = re.compile(r"\(at line (\d+), column \d+\)")
_TABLE_HEADER = re.compile(r"^\s*\[\[?\s*([^\[\]]+?)\s*\]\]?\s*(?:#.*)?$")   # [a.b], [[a]]
_KEY_LINE = re.compile(r"^\s*((?:\"[^\"]*\"|'[^']*'|[A-Za-z0-9_-]+)"
                       r"(?:\s*\.\s*(?:\"[^\"]*\"|'[^']*'|[A-Za-z0-9_-]+))*)\s*=")
_KEY_PART = re.compile(r"\"[^\"]*\"|'[^']*'|[A-Za-z0-9_-]+")


def _key_path(text: str) -> list[str]:
    """The parts of a TOML key or table name: `a."b.c".d` -> ["a", "b.c", "d"]."""
    return [p.strip("\"'") for p in _KEY_PART.findall(text)]


def _lf(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


# characters no page may hold (HTML's "control" and "noncharacter" parse errors, NUL): C0
# controls but tab, line feed, form feed and carriage return; DEL; C1 controls (U+0080 to
# U+009F, which a Windows-1252 quote or dash read as Latin-1 becomes); U+FFFE, U+FFFF
_CONTROL = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f\ufffe\uffff]")


def _no_control(path: Path, text: str) -> str:
    """`text`, or BuildError at the line of its first control character (`_CONTROL`), which
    the page would publish invisible or as a box (a NUL was dropped)."""
    m = _CONTROL.search(text)
    if m is None:
        return text
    line = text.count("\n", 0, m.start()) + 1
    column = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
    code = ord(m.group(0))
    hint = (" (a Windows quote or dash read as Latin-1 becomes one: type the character meant)"
            if 0x80 <= code <= 0x9F else "")
    raise BuildError(path, line, f"control character U+{code:04X} at column {column}, which "
                                 f"a page shows as nothing or a box{hint}; delete it")


# bidi embeddings, overrides and isolates (U+202A to U+202E, U+2066 to U+2069): they reorder
# the characters a reader sees, so the page (and an editor) can show other words than the
# file holds ("Trojan Source"); a BOM (U+FEFF) after the file's start, left by joining files
_HIDDEN = re.compile("[\u202a-\u202e\u2066-\u2069\ufeff]")
# invisible characters a line of text can be made of: format characters (zero-width space,
# joiners, marks, word joiner, invisible operators, a BOM) and the soft hyphen
_INVISIBLE = "\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff"
_INVISIBLE_LINE = re.compile(f"^[ \t\f{_INVISIBLE}]*[{_INVISIBLE}][ \t\f{_INVISIBLE}]*$", re.M)


_ONLY = f"[ \t\f{_INVISIBLE}]*[{_INVISIBLE}][ \t\f{_INVISIBLE}]*"
# the other blocks of a Markdown article a line of invisible characters can make, after their
# mark: a list item, a quote line, a note's definition, a definition (`:   `), a table cell
# or a box's title (between pipes, or after one to the line's end), a figure's caption (a
# link's or image's title), an image's alt text or a link's text
# (the quote marks' prefix written `(?:>[ \t]*)*` after the indent, not `(?:>[ \t]?)*[ \t]*`:
# two runs of spaces that could split one indent between them made each deep list line
# quadratic in its indent: 300 nested items took 6.4 s here, now milliseconds)
_INVISIBLE_BLOCK = re.compile(
    f"^[ \t]*(?:>[ \t]*)*(?P<item>(?:[-*+]|\\d{{1,9}}[.)])[ \t]+){_ONLY}$"
    f"|^[ \t]*(?P<quote>(?:>[ \t]?)+){_ONLY}$"
    f"|^[ \t]*(?:>[ \t]*)*(?P<note>\\[\\^[^\\]\n]+\\]:[ \t]*){_ONLY}$"
    f"|^[ \t]*(?:>[ \t]*)*(?P<definition>:[ \t]+){_ONLY}$"
    f"|(?P<cell>^|(?<!\\\\)\\|){_ONLY}(?=(?<!\\\\)\\||$)"
    f"|(?P<caption>\\]\\([^()\\s]*[ \t]+\"){_ONLY}\"[ \t]*\\)"
    f"|(?P<text>!?\\[){_ONLY}\\]\\(", re.M)
_BLOCK_KIND = {"item": "a list item", "quote": "a quote's line", "note": "a note's definition",
               "definition": "a definition", "cell": "a table cell or a box's title",
               "caption": "a caption (a figure's or link's title)",
               "text": "a link's text or an image's alt text"}


def visible(text: str) -> str:
    """`text` without the invisible characters of `_INVISIBLE` and outer white space: ''
    for a title, heading or paragraph that a reader sees as nothing."""
    return re.sub(f"[{_INVISIBLE}]+", "", text).strip()


def _no_hidden(path: Path, text: str) -> str:
    """`text`, or BuildError at the line of its first bidi control or mid-text BOM
    (`_HIDDEN`), or of its first line made of invisible characters only (a paragraph, a
    title or a heading a reader sees as nothing)."""
    found = [m for m in (_HIDDEN.search(text), _INVISIBLE_LINE.search(text)) if m]
    if not found:
        return text
    m = min(found, key=lambda m: m.start())
    line = text.count("\n", 0, m.start()) + 1
    if m.re is _INVISIBLE_LINE:
        codes = ", ".join(dict.fromkeys(f"U+{ord(c):04X}" for c in m.group(0) if not c.isspace()))
        raise BuildError(path, line, f"the line holds only invisible characters ({codes}), "
                                     "which make an empty paragraph, heading or value a reader "
                                     "cannot see; delete them (a blank line separates blocks)")
    column = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
    code = ord(m.group(0))
    if code == 0xFEFF:
        what = "a byte-order mark in the middle of the text (left by joining files), invisible"
    else:
        what = ("a bidi control, which reorders the characters a reader sees around it: the "
                "page would show other text than the file holds; right-to-left words need "
                "none, the browser orders them")
    raise BuildError(path, line, f"U+{code:04X} at column {column} is {what}; delete it")


def _no_invisible_block(path: Path, text: str) -> str:
    """`text`, or BuildError at the line of its first Markdown block (`_INVISIBLE_BLOCK`: a
    list item, quote line, note, table cell, caption, ...) made of invisible characters only,
    which a reader sees as empty, as a paragraph of them (`_no_hidden`)."""
    m = _INVISIBLE_BLOCK.search(text)
    if m is None:
        return text
    line = text.count("\n", 0, m.start()) + 1
    kind = next(k for k, v in m.groupdict().items() if v is not None)
    rest = m.group(0)[len(m.group(kind)):]
    codes = ", ".join(dict.fromkeys(f"U+{ord(c):04X}" for c in rest if not visible(c)
                                    and not c.isspace()))
    raise BuildError(path, line, f"{_BLOCK_KIND[kind]} holds only invisible characters "
                                 f"({codes}), which a reader sees as empty; delete them, or "
                                 "write its words")


def read_text(path: Path) -> str:
    """Read a UTF-8 text file; a BOM is dropped, and every line end (LF, CRLF, or a lone CR
    as old Mac editors save) becomes LF, as Python's universal newlines read them.

    Raises BuildError naming the line of the first byte that is not UTF-8, of the first
    control character (`_CONTROL`), bidi control or mid-text BOM (`_HIDDEN`) or line of
    invisible characters only, or the file when it cannot be read.
    """
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise BuildError(path, 0, "file not found; restore it (it was there when the build "
                                  "began, or another file names it)") \
            from None
    except IsADirectoryError:
        raise BuildError(path, 0, f"is a folder; the build reads the file {path.name} here: "
                                  "replace it with the file") from None
    except PermissionError as e:
        raise BuildError(path, 0, f"cannot read the file ({e.strerror}); make it readable "
                                  "for you (chmod u+r)") from None
    except OSError as e:
        raise BuildError(path, 0, f"cannot read the file ({e.strerror}); check the file and "
                                  "the disk, then build again") from None
    try:
        text = _lf(data.decode("utf-8").removeprefix("\ufeff"))
    except UnicodeDecodeError as e:
        line = _lf(data[:e.start].decode("utf-8", errors="replace")).count("\n") + 1
        raise BuildError(path, line, f"not UTF-8 (byte 0x{data[e.start]:02x}); "
                                     "save the file as UTF-8") from None
    text = _no_hidden(path, _no_control(path, text))
    return _no_invisible_block(path, text) if path.suffix == ".md" else text


@dataclass(frozen=True)
class TomlFile:
    """A parsed TOML file that can say where its tables and keys are."""

    path: Path
    text: str
    data: dict[str, Any]

    def line_of(self, table: str | None, key: str | None = None) -> int:
        """Line of `[table]` (or of `key` inside it; `table=None`: top level), 0 if absent.

        `table` is a dotted name ("math.macros"). A table is found at its header, or else
        where a dotted key first defines it (`math.engine = …`); a key at its `key = …` line,
        a dotted key starting with it (`key.sub = …`) or a header of a table under it
        (`[table.key]`, `[table.key.sub]`, `[[table.key]]`); a key not found gives its
        table's line."""
        want = table.split(".") if table else []
        current: list[str] = []
        header_line = 0
        for number, line in enumerate(self.text.split("\n"), 1):
            m = _TABLE_HEADER.match(line)
            if m:
                current = _key_path(m.group(1))
                full = current
            else:
                k = _KEY_LINE.match(line)
                if not k:
                    continue
                full = current + _key_path(k.group(1))
            if key is None:
                if full == want or (not m and full[:len(want)] == want and len(full) > len(want)):
                    return number
                continue
            if full[:len(want) + 1] == [*want, key]:
                return number
            if not header_line and (full == want if m else
                                    full[:len(want)] == want and len(full) > len(want)):
                header_line = number if m or want else 0
        return header_line

    def check_known(self, table: str | None, known: Iterable[str], what: str = "setting"
                    ) -> None:
        """BuildError at the line of the first key of `[table]` (None: the top level) that is
        not in `known` (a key or a table: `[maths]`, `maths.engine = …`), with "did you mean"
        a close known name, else the list of every known one. `what` names a key ("setting")."""
        names = sorted(set(known))
        values: Any = self.data
        for part in table.split(".") if table else []:
            values = values.get(part, {}) if isinstance(values, dict) else {}
        if not isinstance(values, dict):
            return
        for key in values:
            if key not in names:
                where = f" in [{table}]" if table else ""
                raise self.error(table, key, f"unknown {what} '{key}'{where}; "
                                 + suggest(key, names, f"{what}s"))

    def error(self, table: str | None, key: str | None, message: str) -> BuildError:
        """A BuildError at the line of `[table]` / `key`."""
        return BuildError(self.path, self.line_of(table, key), message)


_KEY_VALUE = re.compile(r'\s*([\w.-]+|"[^"]*")\s*=\s*(\S)')
_VALUE_START = re.compile(r'["\'\[{+\-\d]|(?:true|false|inf|nan)\b')


def _bare_text(text: str, line: int) -> str:
    """The hint for `key = words` at `line` (1-based), text typed without quotes, which TOML
    calls an invalid value; "" for any other line."""
    lines = text.splitlines()
    m = _KEY_VALUE.match(lines[line - 1]) if 0 < line <= len(lines) else None
    if m is None or _VALUE_START.match(lines[line - 1], m.start(2)):
        return ""
    return f'; text is written in double quotes: {m[1]} = "…"'


# a table's header, `[ui]` (not `_TABLE_HEADER`, which also reads `[[runs]]`)
_PLAIN_HEADER = re.compile(r"\s*\[\s*([^\[\]]+?)\s*\]\s*(?:#.*)?$")
# an array of tables' header, `[[runs]]`: each starts a table of its own
_ARRAY_HEADER = re.compile(r"\s*\[\[\s*([^\[\]]+?)\s*\]\]\s*(?:#.*)?$")
# the candidates tried for the first of two (nearest first): enough for a real file
_TRIES = 20


def _given_before(text: str, line: int) -> str:
    """For a table header or key at `line` (1-based) that tomllib says is given twice, where
    it was first given: "; [ui] is given at line 9 already" or "; 'skip' of [ui] is given
    at line 12 already"; "" when the line holds neither, or no earlier one is found (a key
    that a dotted key or an inline table made). A candidate, a line that reads as the same
    header or key, is the first only if the file without it parses past `line` (not a line
    of a multi-line string, nor a key of another entry of an array of tables)."""
    lines = text.splitlines()
    if not 0 < line <= len(lines):
        return ""
    headers: dict[str, list[int]] = {}
    keys: dict[tuple[str | None, str], list[int]] = {}
    table: str | None = None
    for n, typed in enumerate(lines[:line], 1):
        if header := _PLAIN_HEADER.match(typed):
            name = header.group(1)
            if n == line:
                first = _first_of(lines, headers.get(name, []), line)
                return f"; [{name}] is given at line {first} already" if first else ""
            headers.setdefault(name, []).append(n)
            table = name
        elif header := _ARRAY_HEADER.match(typed):
            table = f"[{header.group(1)}]"      # (its keys are its entry's: `[[runs]]`)
        elif key := _KEY_VALUE.match(typed):
            name = key.group(1)
            if n == line:
                first = _first_of(lines, keys.get((table, name), []), line)
                where = f" of [{table}]" if table else ""
                return f"; '{name}'{where} is given at line {first} already" if first else ""
            keys.setdefault((table, name), []).append(n)
    return ""


def _first_of(lines: list[str], candidates: list[int], line: int) -> int:
    """The candidate (1-based) without which `lines` parse past `line`, nearest first (at
    most `_TRIES` parses); 0 if none."""
    for n in reversed(candidates[-_TRIES:]):
        try:
            tomllib.loads("\n".join([*lines[:n - 1], "", *lines[n:]]))
        except tomllib.TOMLDecodeError as e:
            m = _TOML_POSITION.search(str(e))
            if not m or int(m.group(1)) <= line:
                continue
        return n
    return 0


# tomllib's words for a line's end inside a one-line string: a "…" string (basic), a '…' one
# (literal); a comment's end is no error
_LINE_END_IN = {"Illegal character '\\n'": '"', "Found invalid character '\\n'": "'"}
# what is said for a '…' string with no ' after it in the file (tomllib: 'Expected "'"' at
# the end of the document, no line)
_NO_CLOSING_QUOTE = "no ' closes the ' of this line before the file's end"
_LINE_END_IN[_NO_CLOSING_QUOTE] = "'"


def _unclosed(message: str) -> str:
    """The hint for a one-line string that reaches its line's end unclosed (tomllib names
    only the character), "" for any other message."""
    quote = next((q for words, q in _LINE_END_IN.items() if message.startswith(words)), "")
    if not quote:
        return ""
    return (f"; the text in quotes is not closed on its line: close it with {quote} (text of "
            'several lines goes between """ and """)')


_TOML_END = "(at end of document)"


def _last_begun(text: str) -> int:
    """The line (1-based) of the last key or table header, else of the last line with text:
    where a value or table the file ends inside began."""
    lines = text.splitlines()
    filled = [n for n, line in enumerate(lines, 1) if line.strip()]
    begun = [n for n in filled if _KEY_VALUE.match(lines[n - 1]) or
             lines[n - 1].lstrip().startswith("[")]
    return (begun or filled or [1])[-1]


def load_toml(path: Path) -> TomlFile:
    """Read and parse a TOML file; BuildError with the line for a syntax error, a duplicate
    table or key, or text that is not UTF-8."""
    text = read_text(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = _TOML_POSITION.search(str(e))
        message = _TOML_POSITION.sub("", str(e)).strip()
        line = int(m.group(1)) if m else 0
        if m is None and message == f"Expected \"'\" {_TOML_END}" and "'" in text:
            # a '…' string never closed, and no ' after it in the file: tomllib looked for
            # its closing quote up to the file's end, so its opening one is the file's last
            line = text.count("\n", 0, text.rindex("'")) + 1
            message = _NO_CLOSING_QUOTE
        elif m is None and _TOML_END in message:    # no line: the last key or table begun
            line, message = _last_begun(text), message.replace(
                _TOML_END, "at the end of the file: what begins at this line is not closed "
                "(a quote, ] or } is missing)")
        twice = "twice" in message or "overwrite" in message
        hint = (_given_before(text, line) + "; each table and key may appear once" if twice
                else _bare_text(text, line) or _unclosed(message)
                or "; see https://toml.io for the syntax")
        raise BuildError(path, line, f"invalid TOML: {message}{hint}") from None
    except RecursionError:      # tomllib reads nested arrays and inline tables recursively
        raise too_deep(path, deepest_line(text), "brackets or braces") from None
    toml = TomlFile(path, text, data)
    _no_hidden_values(toml, data, ())
    return toml


_HIDDEN_OR_CONTROL = re.compile(f"{_CONTROL.pattern}|{_HIDDEN.pattern}")


def _no_hidden_values(toml: TomlFile, values: Any, at: tuple[str, ...]) -> None:
    """BuildError at the line of the first key or string (in a table, an inline table or a
    list, at any depth) that holds a control character (`_CONTROL`), a bidi control or a
    byte-order mark (`_HIDDEN`) written as a TOML escape (`"\\u0007"`, `"\\u202E"`):
    `read_text` refuses them typed into the file, and the escape put them on the page."""
    items = values.items() if isinstance(values, dict) else \
        ((None, v) for v in values) if isinstance(values, list) else ()
    for key, value in items:
        where = (*at, key) if key is not None else at
        for text in (key, value):
            m = (_CONTROL.search(text) or _HIDDEN.search(text)) if isinstance(text, str) \
                else None
            if m is None:
                continue
            code = ord(m.group(0))
            what = ("a control character, which a page shows as nothing or a box"
                    if _CONTROL.match(m.group(0)) else "a byte-order mark, invisible"
                    if code == 0xFEFF else "a bidi control, which reorders the characters a "
                    "reader sees around it")
            shown = [_HIDDEN_OR_CONTROL.sub(lambda c: f"\\u{ord(c.group(0)):04X}", part)
                     for part in where]
            name = (f"[{'.'.join(shown[:-1])}] " if len(shown) > 1 else "") + shown[-1]
            line = next((n for i in range(len(where), 0, -1)    # an inline table's: its key's
                         if (n := toml.line_of(".".join(where[:i - 1]) or None, where[i - 1]))),
                        0)
            raise BuildError(toml.path, line, f"{name} holds U+{code:04X} (written as an "
                             f"escape), {what}; delete it")
        _no_hidden_values(toml, value, where)
