"""The text protocol (sqrtdk.web.markers): one module spells the markers' code points, every
marker is found by its own pattern and by the leftover pattern, and a marker's line is where
it was written."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from sqrtdk.options import PROJECT_ROOT
from sqrtdk.web import markers as m

# a plane-15/16 character written as an escape (\U000fxxxx, \U0010xxxx) or typed as itself
_SPELLED = re.compile(r"\\U000[fF][0-9a-fA-F]{4}|\\U0010[0-9a-fA-F]{4}|"
                      f"[{chr(0xF0000)}-{chr(0x10FFFF)}]")


def test_no_module_but_markers_spells_a_marker_code_point() -> None:
    spelled = [f"{p.relative_to(PROJECT_ROOT)}:{n}"
               for p in sorted((PROJECT_ROOT / "sqrtdk").rglob("*.py")) if p.name != "markers.py"
               for n, line in enumerate(p.read_text(encoding="utf-8").split("\n"), 1)
               if _SPELLED.search(line)]
    assert spelled == []
    assert _SPELLED.search(Path(m.__file__).read_text(encoding="utf-8"))   # the pattern works


MADE = {
    "inline math": (m.inline_math(7), m.INLINE_MATH_RE, "7"),
    "display math": (m.display_math(12), m.DISPLAY_MATH_RE, "12"),
    "code": (m.code(3), m.CODE_RE, "3"),
    "quote": (m.quote(4, "2.01"), m.QUOTE_RE, "4"),
    "claim": (m.claim(5), m.CLAIM_RE, "5"),
    "math html": (m.math_html(9), m.MATH_HTML_RE, "9"),
    "figure data": (m.fig_data("spread_hist"), m.FIG_DATA_RE, "spread_hist"),
}


@pytest.mark.parametrize("kind", MADE)
def test_each_marker_is_found_by_its_own_pattern_only_and_by_the_leftover_pattern(
        kind: str) -> None:
    made, pattern, index = MADE[kind]
    found = pattern.fullmatch(made)
    assert found is not None and found.group(1) == index
    others = [k for k, (_, p, _) in MADE.items() if k != kind and p.search(made)]
    assert others == []
    assert m.ANY_MARKER_RE.search(made) and m.PRIVATE_USE_RE.search(made)


def test_math_markers_tell_inline_from_display_and_split_keeps_them() -> None:
    text = f"a {m.inline_math(0)} b {m.display_math(1)} c"
    assert [x.group(1) for x in m.ANY_MATH_RE.finditer(text)] == ["0", "1"]
    assert [m.is_display(x.group(0)) for x in m.ANY_MATH_RE.finditer(text)] == [False, True]
    assert m.MATH_SPLIT_RE.split(text) == ["a ", m.inline_math(0), " b ", m.display_math(1), " c"]
    assert m.has_math(text) and m.has_math(m.FILLER) and not m.has_math("a $x$ b")


def test_stripping_quotes_and_claims_keeps_the_shown_text_and_other_markers() -> None:
    text = f"SD {m.quote(0, '2.01')} holds{m.claim(0)} in {m.inline_math(1)}"
    assert m.strip_markers(text) == f"SD 2.01 holds in {m.inline_math(1)}"
    assert m.has_quote_or_claim(text) and not m.has_quote_or_claim(m.strip_markers(text))


def test_a_markers_line_is_counted_from_the_piece_it_was_written_in() -> None:
    text = f"one {m.claim(0)}\ntwo\nthree {m.claim(1)} {m.claim(2)}\n{m.claim(3)}"
    assert m.line_of_marker(text, m.CLAIM_RE, first_line=10) == {0: 10, 1: 12, 2: 12, 3: 13}
