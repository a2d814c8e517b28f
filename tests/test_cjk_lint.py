"""The Chinese spacing and punctuation check (sqrtdk/web/cjk_lint.py): one `path:line: warning:`
per line autocorrect would change, never about formulas or code."""
from __future__ import annotations

import logging
from pathlib import Path

import pytest

from sqrtdk.web.cjk_lint import excerpt, lint_chinese
from sqrtdk.web.lexer import mask

# Chinese text as \u escapes (no Chinese in .py files): "这是一个" and "测试"
ZH = "\u8fd9\u662f\u4e00\u4e2a"
TEST = "\u6d4b\u8bd5"
COMMA = "\uff0c"           # full-width comma


def warnings(tmp_path: Path, text: str, caplog: pytest.LogCaptureFixture) -> list[str]:
    path = tmp_path / "index.md"
    path.write_text(text, encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="sqrtdk.web.cjk_lint"):
        lint_chinese(path, mask(path, text).text)
    return [r.getMessage() for r in caplog.records]


def test_a_missing_space_and_a_half_width_comma_are_warned_at_their_lines(tmp_path, caplog):
    text = f"# {ZH}\n\n{ZH}{COMMA}{TEST} numpy {TEST}\n\n{ZH}numpy{TEST},{ZH}\n"
    found = warnings(tmp_path, text, caplog)
    assert len(found) == 1
    assert found[0].startswith(f"{tmp_path / 'index.md'}:5: warning: ")
    assert f" numpy {TEST}{COMMA}" in found[0]      # what it would read as


def test_formulas_and_code_are_not_checked(tmp_path, caplog):
    text = (f"{ZH} $x,y=1$ {TEST}{COMMA}{ZH}\n\n```\n{ZH}numpy,{TEST}\n```\n\n"
            f"$$\n{ZH}a,b\n$$\n")
    assert warnings(tmp_path, text, caplog) == []


def test_the_excerpt_shows_the_first_difference_with_some_context():
    old = "a" * 30 + "X" + "b" * 30
    new = "a" * 30 + "Y Z" + "b" * 30
    was, wants = excerpt(old, new)
    assert was == "a" * 12 + "X" + "b" * 12 and wants == "a" * 12 + "Y Z" + "b" * 12
