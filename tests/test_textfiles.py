"""Reading what authors save: any line end, with or without a BOM, is the same text."""
from __future__ import annotations

from pathlib import Path

import pytest

from sqrtdk.errors import BuildError
from sqrtdk.textfiles import load_toml, read_text

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


@pytest.mark.parametrize("char", ["\x00", "\x01", "\x0b", "\x1b", "\x7f", "\x93", "\ufffe"])
@pytest.mark.parametrize("newline", LINE_ENDS.values(), ids=LINE_ENDS.keys())
def test_a_control_character_is_an_error_at_its_line_and_column(
        tmp_path: Path, newline: str | None, char: str) -> None:
    """A NUL was dropped from the page silently, ESC, DEL or a C1 control (a Windows quote
    read as Latin-1) published as typed: invisible, or a box."""
    path = tmp_path / "index.md"
    path.write_bytes(saved(f"one\ntwo\nab{char}c\n", newline).encode("utf-8"))
    with pytest.raises(BuildError) as e:
        read_text(path)
    assert e.value.line == 3 and f"U+{ord(char):04X} at column 3" in e.value.message, e.value


def test_tabs_form_feeds_and_line_separators_are_text(tmp_path: Path) -> None:
    path = tmp_path / "index.md"
    path.write_text("a\tb\x0cc\u2028d\u00a0e\n", encoding="utf-8")
    assert read_text(path) == "a\tb\x0cc\u2028d\u00a0e\n"


@pytest.mark.parametrize("value", ["[" * 1000 + "]" * 1000, "{a=" * 1000 + "1" + "}" * 1000])
def test_a_toml_value_nested_too_deep_is_an_error_at_its_line(tmp_path: Path,
                                                              value: str) -> None:
    """tomllib reads nested arrays and inline tables recursively: a RecursionError."""
    path = tmp_path / "site.toml"
    path.write_text(f'a = "x"\n\nb = {value}\n', encoding="utf-8")
    with pytest.raises(BuildError) as e:
        load_toml(path)
    assert e.value.line == 3 and "nested too deeply" in e.value.message, e.value


@pytest.mark.parametrize("char", ["\u202a", "\u202e", "\u2066", "\u2069", "\ufeff"])
def test_a_bidi_control_or_a_bom_inside_the_text_is_an_error_at_its_line_and_column(
        tmp_path: Path, char: str) -> None:
    """A bidi override reorders what the reader sees (the page shows other text than the
    file holds, a known spoofing trick); a BOM mid-text is invisible. Both were published."""
    path = tmp_path / "index.md"
    path.write_text(f"one\ntwo\nab{char}c `x{char}y`\n", encoding="utf-8")
    with pytest.raises(BuildError) as e:
        read_text(path)
    assert e.value.line == 3 and f"U+{ord(char):04X} at column 3" in e.value.message, e.value
    assert "delete it" in e.value.message


@pytest.mark.parametrize("line", ["\u200b", "\u200b \u200b", "\u2060\u00ad", " \u200d\t"])
def test_a_line_of_only_invisible_characters_is_an_error_at_its_line(
        tmp_path: Path, line: str) -> None:
    """A paragraph of zero-width spaces was published as an empty-looking paragraph."""
    path = tmp_path / "index.md"
    path.write_text(f"one\n\n{line}\n\nlast\n", encoding="utf-8")
    with pytest.raises(BuildError) as e:
        read_text(path)
    assert e.value.line == 3 and "only invisible characters" in e.value.message, e.value


def test_invisible_characters_inside_words_are_text(tmp_path: Path) -> None:
    """Joiners inside words (emoji, Persian) and a soft hyphen are left as they are."""
    path = tmp_path / "index.md"
    text = "a\u200db \U0001f469\u200d\U0001f4bb hyph\u00aden \u200e\n"
    path.write_text(text, encoding="utf-8")
    assert read_text(path) == text


@pytest.mark.parametrize("block, kind", [
    ("- \u200b", "a list item"), ("3. \u2060\u200e", "a list item"),
    ("> \u200b", "a quote's line"), ("> - \u200b", "a list item"),
    ("| a | \u200b |", "a table cell"), ("\u200b | a", "a table cell"),
    ("[^n]: \u200b\u200c", "a note's definition"), (":   \u2060", "a definition"),
    ('![alt](fig.svg "\u200b")', "a caption"), ("/// details | \u200b", "a box's title"),
    ("![\u200b](fig.svg \"Cap\")", "alt text"), ("see [\u200b \u200b](https://a.b/)", "link's text"),
], ids=["item", "numbered item", "quote", "item in a quote", "cell", "last cell", "note",
        "definition", "caption", "box title", "alt text", "link text"])
def test_a_block_of_only_invisible_characters_is_an_error_at_its_line(
        tmp_path: Path, block: str, kind: str) -> None:
    """A list item, table cell, quote line, note, caption or box title of zero-width spaces
    (or U+2060, a BOM, bidi marks) was published empty, silently; a paragraph of them was
    already an error at its line."""
    path = tmp_path / "index.md"
    path.write_text(f"one\n\n{block}\n\nlast\n", encoding="utf-8")
    with pytest.raises(BuildError) as e:
        read_text(path)
    assert e.value.line == 3 and kind in e.value.message, e.value
    assert "only invisible characters" in e.value.message and "delete them" in e.value.message


@pytest.mark.parametrize("block", ["- a\u200bb", "| a | |", "- ", "> ", "[^n]: x\u200d",
                                   '![alt](fig.svg "Cap\u00adtion")', "a\u200b|b"])
def test_blocks_with_visible_words_or_empty_are_left_alone(tmp_path: Path, block: str) -> None:
    path = tmp_path / "index.md"
    path.write_text(f"one\n\n{block}\n", encoding="utf-8")
    assert read_text(path) == f"one\n\n{block}\n"


@pytest.mark.parametrize(("toml", "line", "code"), [
    ('[ui]\ntoc = "Con\\u0007tents"\n', 2, "U+0007"),
    ('[ui]\ntoc = "C\\u202eon"\n', 2, "U+202E"),
    ('title = "x\\uFEFF"\n', 1, "U+FEFF"),
    ('[style]\nfonts = ["A", "B\\u0000"]\n', 2, "U+0000"),
    ('[a]\nb = 1\n[a.c]\nd = { e = "\\u0085" }\n', 4, "U+0085"),
    ("[ui]\nx = '''\nok\n'''\ny = \"\\u001b[31m\"\n", 5, "U+001B"),
])
def test_a_control_or_bidi_character_written_as_a_toml_escape_is_an_error_at_its_line(
        tmp_path: Path, toml: str, line: int, code: str) -> None:
    """The file's text is refused with a control character or a bidi control typed into
    it, but `"\\u0007"` or `"\\u202E"` in a TOML string made the same character after
    parsing, and it reached the page (exit 0, no warning)."""
    path = tmp_path / "strings.toml"
    path.write_text(toml, encoding="utf-8")
    with pytest.raises(BuildError) as e:
        load_toml(path)
    assert e.value.line == line and code in e.value.message, e.value
    assert "written as an escape" in e.value.message and "delete it" in e.value.message


def test_tabs_line_breaks_and_no_break_spaces_written_as_escapes_are_text(
        tmp_path: Path) -> None:
    path = tmp_path / "figures.toml"
    path.write_text('[a]\ntitle = "one\\ntwo\\tthree\\u00a0four\\u2096"\n', encoding="utf-8")
    assert load_toml(path).data == {"a": {"title": "one\ntwo\tthree\u00a0four\u2096"}}


@pytest.mark.parametrize(("fault", "says"), [
    (PermissionError(13, "Permission denied"), "make it readable"),
    (IsADirectoryError(21, "Is a directory"), "replace it with the file"),
    (FileNotFoundError(2, "No such file or directory"), "restore it"),
    (OSError(5, "Input/output error"), "check the file and the disk"),
], ids=["unreadable", "folder", "gone", "disk"])
def test_a_file_that_cannot_be_read_says_what_to_do(tmp_path: Path, fault: OSError,
                                                    says: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """'cannot read the file (Permission denied)' and 'file not found' said what was wrong
    only. (Tests run as root, which reads a file chmod 000: the read is made to fail.)"""
    path = tmp_path / "strings.toml"
    path.write_text("a = 1\n", encoding="utf-8")

    def refused(self: Path) -> bytes:
        raise fault
    monkeypatch.setattr(Path, "read_bytes", refused)
    with pytest.raises(BuildError) as e:
        read_text(path)
    assert e.value.path == path and e.value.line == 0, e.value
    assert says in e.value.message and ";" in e.value.message, e.value


@pytest.mark.parametrize("toml", ["[ui]\nskip = 'Skip to the article\nnext = \"x\"\nlast = 1\n",
                                  "[ui]\nfirst = \"x\"\nskip = 'Skip to the article"],
                         ids=["lines below", "at the end"])
def test_a_literal_string_unclosed_with_no_quote_after_it_is_told_at_its_line(
        tmp_path: Path, toml: str) -> None:
    """A '…' string whose closing quote was forgotten, with no ' further down the file:
    tomllib looks for the quote to the file's end and says 'Expected "'"' with no line,
    which was told at the file's last key ('what begins at this line is not closed') and
    not at the string's; it is told at the line of its opening quote, with the quote to
    write, as an unclosed string with a ' further down is."""
    path = tmp_path / "strings.toml"
    path.write_text(toml, encoding="utf-8")
    with pytest.raises(BuildError) as e:
        load_toml(path)
    line = next(n for n, text in enumerate(toml.split("\n"), 1) if text.startswith("skip"))
    assert e.value.line == line and "close it with '" in e.value.message, e.value
