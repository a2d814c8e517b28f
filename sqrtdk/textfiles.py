"""Reading the files authors edit: UTF-8 required, every mistake as `path:line: message`.

`load_toml` is the one loader of `site.toml`, `strings.toml` and `figures.toml`. tomllib gives
no positions for keys, so `TomlFile.line_of` finds a key's line by scanning for its table
header and `key =` line (TOML is line-based: a key/value pair starts a line).
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import BuildError

_TOML_POSITION = re.compile(r"\(at line (\d+), column \d+\)")
_TABLE_HEADER = re.compile(r"^\s*\[\s*([^\[\]]+?)\s*\]\s*(?:#.*)?$")
_KEY_LINE = re.compile(r"^\s*(\"[^\"]*\"|'[^']*'|[A-Za-z0-9_-]+)\s*=")


def _lf(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def read_text(path: Path) -> str:
    """Read a UTF-8 text file; a BOM is dropped, and every line end (LF, CRLF, or a lone CR
    as old Mac editors save) becomes LF, as Python's universal newlines read them.

    Raises BuildError naming the line of the first byte that is not UTF-8, or the file when
    it cannot be read.
    """
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise BuildError(path, 0, "file not found") from None
    except OSError as e:
        raise BuildError(path, 0, f"cannot read the file ({e.strerror})") from None
    try:
        return _lf(data.decode("utf-8").removeprefix("\ufeff"))
    except UnicodeDecodeError as e:
        line = _lf(data[:e.start].decode("utf-8", errors="replace")).count("\n") + 1
        raise BuildError(path, line, f"not UTF-8 (byte 0x{data[e.start]:02x}); "
                                     "save the file as UTF-8") from None


@dataclass(frozen=True)
class TomlFile:
    """A parsed TOML file that can say where its tables and keys are."""

    path: Path
    text: str
    data: dict[str, Any]

    def line_of(self, table: str | None, key: str | None = None) -> int:
        """Line of `[table]` (or of `key =` inside it; `table=None`: top level), 0 if absent."""
        current: str | None = None
        header_line = 0
        for number, line in enumerate(self.text.split("\n"), 1):
            m = _TABLE_HEADER.match(line)
            if m:
                current = m.group(1).strip().strip("\"'")
                if current == table and key is None:
                    return number
                if current == table:
                    header_line = number
                continue
            if key is not None and current == table:
                k = _KEY_LINE.match(line)
                if k and k.group(1).strip("\"'") == key:
                    return number
        return header_line

    def error(self, table: str | None, key: str | None, message: str) -> BuildError:
        """A BuildError at the line of `[table]` / `key`."""
        return BuildError(self.path, self.line_of(table, key), message)


def load_toml(path: Path) -> TomlFile:
    """Read and parse a TOML file; BuildError with the line for a syntax error, a duplicate
    table or key, or text that is not UTF-8."""
    text = read_text(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = _TOML_POSITION.search(str(e))
        message = _TOML_POSITION.sub("", str(e)).strip()
        hint = ("; each table and key may appear once" if "twice" in message or
                "overwrite" in message else "; see https://toml.io for the syntax")
        raise BuildError(path, int(m.group(1)) if m else 0,
                         f"invalid TOML: {message}{hint}") from None
    return TomlFile(path, text, data)
