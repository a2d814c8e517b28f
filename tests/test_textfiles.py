"""Reading what authors save: any line end, with or without a BOM, is the same text."""
from __future__ import annotations

from pathlib import Path

import pytest

from sqrtdk.errors import BuildError
from sqrtdk.textfiles import read_text

TEXT = "---\ntitle: T\n---\nfirst line\nsecond, with 中文\n\nlast\n"
LINE_ENDS = {"LF": "\n", "CRLF": "\r\n", "CR": "\r", "mixed": None}


def saved(text: str, newline: str | None) -> str:
    if newline is not None:
        return text.replace("\n", newline)
    ends = ["\n", "\r\n", "\r"]       # one editor's lines after another's
    return "".join(line + ends[i % 3] for i, line in enumerate(text.split("\n")[:-1]))


@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"], ids=["no BOM", "BOM"])
@pytest.mark.parametrize("newline", LINE_ENDS.values(), ids=LINE_ENDS.keys())
def test_any_line_end_and_a_bom_read_as_the_same_text(tmp_path: Path, newline: str | None,
                                                      bom: bytes) -> None:
    path = tmp_path / "index.md"
    path.write_bytes(bom + saved(TEXT, newline).encode("utf-8"))
    assert read_text(path) == TEXT


@pytest.mark.parametrize("newline", LINE_ENDS.values(), ids=LINE_ENDS.keys())
def test_a_byte_that_is_not_utf8_is_reported_on_its_line_whatever_the_line_ends(
        tmp_path: Path, newline: str | None) -> None:
    path = tmp_path / "index.md"
    path.write_bytes(saved("one\ntwo\nthree\n", newline).encode("utf-8") + b"caf\xe9\n")
    with pytest.raises(BuildError) as e:
        read_text(path)
    assert e.value.line == 4 and "0xe9" in e.value.message
