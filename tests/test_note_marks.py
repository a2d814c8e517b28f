"""A footnote reference right after a number or a formula reads as an exponent ("not 100.\u00b2"
is 100 squared): a warning at the reference's line, in both languages; none after a word, a
citation's year, code, an address or an emoji (sqrtdk/web/md_note_marks.py)."""
from __future__ import annotations

import logging
from pathlib import Path

import pytest
from helpers import BODY_START, page

RESULTS = {"spread": {"sd_small": 2.0104}, "claims": {}, "meta": {"bounds": {}}}


def _warnings(tmp_path: Path, body: str, lang: str, caplog: pytest.LogCaptureFixture
              ) -> list[str]:
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="sqrtdk"):
        page(tmp_path, body, RESULTS, lang=lang)
    return [r.getMessage() for r in caplog.records if "note marker" in r.getMessage()]


@pytest.mark.parametrize("lang, sentence, shown", [
    ("en", "The spread is ten steps, not 100.[^n]", "'100.'"),
    ("en", "It came out as 1.708,[^n] which is odd.", "'1.708,'"),
    ("en", "The ceiling is \u00bc.[^n]", "'\u00bc.'"),
    ("en", "The spread was {{ spread.sd_small | fixed(2) }}.[^n]", "'2.01.'"),
    ("en", "Each holds $d_k$ components of $q$:[^n]", "'$q$:'"),
    ("en", "The scale was (n = 100).[^n]", "'(n = 100).'"),
    ("zh", "\u6807\u51c6\u5dee\u662f 1.708\u3002[^n]", "'1.708\u3002'"),
    ("zh", "\u6807\u51c6\u5dee\u662f {{ spread.sd_small | fixed(2) }}\uff1b[^n]",
     "'2.01\uff1b'"),
    ("zh", "\u4e0a\u9650\u662f $\\frac14$\u3002[^n]", "'$\\frac14$\u3002'"),
    ("zh", "\u7ed3\u679c\uff08n = 100\uff09[^n]", "'\uff08n = 100\uff09'"),
], ids=["en-number", "en-comma", "en-fraction", "en-quote", "en-formula", "en-bracket",
        "zh-number", "zh-quote", "zh-formula", "zh-bracket"])
def test_a_note_marker_after_a_number_warns_at_its_line(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, lang: str, sentence: str,
        shown: str) -> None:
    body = f"A first line.\n\nA paragraph of\ntwo lines. {sentence}\n\n[^n]: A note.\n"
    got = _warnings(tmp_path, body, lang, caplog)
    assert len(got) == 1, got
    assert f"index.md:{BODY_START + 3}: warning:" in got[0], got
    assert shown in got[0] and "exponent" in got[0] and "after a word" in got[0], got


@pytest.mark.parametrize("lang, sentence", [
    ("en", "The spread is ten steps,[^n] not a hundred."),
    ("en", "The model of (Vaswani et al., 2017)[^n] divides."),
    ("en", "Vaswani et al. (2017)[^n] divide."),
    ("en", "It said \u201cabout 100\u201d.[^n]"),
    ("en", "GPT-4[^n] and H100[^n] are names."),
    ("en", "Write `x = 1`[^n] here."),
    ("en", "See <https://example.org/2017>[^n] there."),
    ("en", "A party \U0001f389[^n] and 1\ufe0f\u20e3[^n] keycap."),
    ("en", "The spread is 100 [^n] steps."),
    ("zh", "\u6807\u51c6\u5dee[^n]\u662f 1.708\u3002"),
    ("zh", "\u89c1\u539f\u6587\uff08Vaswani \u7b49\uff0c2017\uff09[^n]\u3002"),
    ("zh", "\u89c1\u8868\uff08\u7b2c 3 \u884c\uff09[^n]\u3002"),
    ("zh", "\u8fd9\u662f\u5b9e\u9a8c\u4e09[^n]\u3002"),
], ids=["en-word", "en-citation", "en-year", "en-quote-mark", "en-names", "en-code",
        "en-address", "en-emoji", "en-space", "zh-word", "zh-citation", "zh-words-in-brackets",
        "zh-numeral"])
def test_a_note_marker_after_a_word_warns_nothing(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, lang: str, sentence: str) -> None:
    body = f"{sentence}\n\n[^n]: A note ending in 2017.\n"
    assert _warnings(tmp_path, body, lang, caplog) == []


def test_a_number_in_a_note_s_own_body_is_not_prose(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The back link after a note's last word is no note marker of the text."""
    body = "A claim.[^n]\n\n[^n]: The value was 1.708.\n"
    assert _warnings(tmp_path, body, "en", caplog) == []
