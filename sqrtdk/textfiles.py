"""Reading the author's text files: UTF-8 required, errors as `path:line: message`."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

from .errors import BuildError


def read_text(path: Path) -> str:
    """Read a UTF-8 text file; a file that is not UTF-8 is a BuildError naming the line."""
    data = path.read_bytes()
    try:
        return data.decode("utf-8").removeprefix("\ufeff").replace("\r\n", "\n")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise BuildError(path, line, f"not UTF-8 (byte 0x{data[e.start]:02x}); "
                                     "save the file as UTF-8") from None


def load_strings(content_dir: Path, lang: str) -> dict[str, Any]:
    """The UI strings of one language (content/<lang>/strings.toml)."""
    path = content_dir / lang / "strings.toml"
    try:
        return tomllib.loads(read_text(path))
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"line (\d+)", str(e))
        raise BuildError(path, int(m.group(1)) if m else 0, f"invalid TOML: {e}") from None
