"""A claim marker inside a figure's alt text or its caption (the image's title) is a claim
like any other: a claim that does not hold there stops the build at the figure's line, the
languages' parity check counts it in its section, and the page keeps no marker of it."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import BODY_START, page

from sqrtdk.errors import BuildError
from sqrtdk.web.checks import check_claims, check_parity
from sqrtdk.web.markers import CLAIM_RE
from sqrtdk.web.quoting import mark_quotes

CLAIM = '{{ claim("a.b") }}'
# where the marker sits: in the alt text, or in the caption
FIGURES = {
    "alt text": f'![It rises.{CLAIM}](spread_hist.svg "It is drawn.")',
    "caption": f'![It is drawn.](spread_hist.svg "It rises.{CLAIM}")',
}
WITHOUT = '![It is drawn.](spread_hist.svg "It is drawn.")'


def results(held: bool) -> dict[str, Any]:
    return {"claims": {"a.b": {"held": held, "statement": "it rises", "value": -1.0,
                               "op": ">=", "bound": 0.0, "unit": "rise"}},
            "meta": {"seed": 7, "bounds": {}}}


def body(figure: str) -> str:
    return f"## One {{#one}}\n\nText.\n\n{figure}\n"


FIGURE_LINE = BODY_START + body("X").split("\n").index("X")


@pytest.mark.parametrize("where", FIGURES)
def test_a_claim_that_fails_in_a_figure_stops_the_build_at_the_figure(
        tmp_path: Path, where: str) -> None:
    built = page(tmp_path, body(FIGURES[where]), results(False))
    with pytest.raises(BuildError) as e:
        check_claims([built], results(False))
    assert e.value.line == FIGURE_LINE and "'a.b'" in e.value.message, str(e.value)
    check_claims([page(tmp_path, body(FIGURES[where]), results(True))], results(True))


@pytest.mark.parametrize("where", FIGURES)
def test_a_claim_in_a_figure_leaves_no_marker_in_the_page(tmp_path: Path, where: str) -> None:
    built = page(tmp_path, body(FIGURES[where]), results(True))
    html = mark_quotes(built.body, built.quotes)       # as the page is written
    assert built.quotes.claims == ["a.b"] and not CLAIM_RE.search(html), html
    assert "claim" not in html and ('alt="It rises."' in html or "It rises.</span>" in html), html


@pytest.mark.parametrize("where", FIGURES)
@pytest.mark.parametrize("extra_in", ["en", "zh"])
def test_the_languages_must_rely_on_a_figure_s_claim_alike(tmp_path: Path, where: str,
                                                           extra_in: str) -> None:
    with_claim, without = body(FIGURES[where]), body(WITHOUT)
    en, zh = (with_claim, without) if extra_in == "en" else (without, with_claim)
    pages = [page(tmp_path, en, results(True), lang="en", name="en.md"),
             page(tmp_path, zh, results(True), lang="zh", name="zh.md")]
    with pytest.raises(BuildError) as e:
        check_parity(pages)
    assert e.value.path.name == f"{extra_in}.md" and e.value.line == FIGURE_LINE, str(e.value)
    assert "a.b" in e.value.message, e.value.message
    both = [page(tmp_path, with_claim, results(True), lang="en", name="en.md"),
            page(tmp_path, with_claim, results(True), lang="zh", name="zh.md")]
    check_parity(both)


# The claims behind the figures' outcomes, on small sections made up to hold or to break each
# one (not the committed results: what each claim's number says of a shape or an order).
def _saturation(panels: list[list[float]], cross: list[float],
                sensitivity: list[float] | None = None) -> dict[str, Any]:
    """A three-position row (winner C) whose bar-chart panels are `panels`, on a grid that
    is just the shown scales; `cross` the largest cross term per scale."""
    return {"labels": ["A", "B", "C"], "scores": [0.0, 1.0, 2.0], "winner": "C",
            "scales": [1.0, 4.0, 16.0][: len(panels)], "shown_scales": [1.0, 4.0, 16.0][: len(panels)],
            "shares": panels, "p_winner": [row[2] for row in panels], "max_offdiag": cross,
            "sensitivity": sensitivity or [row[2] * (1 - row[2]) for row in panels]}


KEPT = [[0.2, 0.3, 0.5], [0.1, 0.2, 0.7], [0.01, 0.09, 0.9]]
SWAPPED = [[0.2, 0.3, 0.5], [0.25, 0.05, 0.7], [0.01, 0.09, 0.9]]
A_GROWS = [[0.05, 0.35, 0.6], [0.1, 0.2, 0.7], [0.01, 0.09, 0.9]]
CLAIM_CASES = {
    # name: (a section on which it holds, one on which it does not)
    "saturation.order_kept": (_saturation(KEPT, [0.1, 0.2, 0.1]),
                              _saturation(SWAPPED, [0.1, 0.2, 0.1])),
    "saturation.others_drain": (_saturation(KEPT, [0.1, 0.2, 0.1]),
                                _saturation(A_GROWS, [0.1, 0.2, 0.1])),
    "saturation.winner_rises": (_saturation(KEPT, [0.1, 0.2, 0.1]),
                                _saturation(KEPT[::-1], [0.1, 0.2, 0.1])),
    "saturation.cross_rises_then_falls": (_saturation(KEPT, [0.1, 0.2, 0.1]),
                                          _saturation(KEPT, [0.1, 0.15, 0.2])),
    "saturation.cross_below_sensitivity": (_saturation(KEPT, [0.1, 0.2, 0.05]),
                                           _saturation(KEPT, [0.1, 0.3, 0.05])),
    "rulers.linear_share_sinks": ({"winner_share": {"linear": [0.3, 0.2, 0.13]}},
                                  {"winner_share": {"linear": [0.3, 0.2, 0.21]}}),
    "rulers.linear_entropy_rises": ({"entropy_bits": {"linear": [2.8, 2.9, 2.99]}},
                                    {"entropy_bits": {"linear": [2.8, 2.9, 2.89]}}),
    "gradient.raw_floor_sinks": ({"p10": {"raw": [0.1, 0.01, 1e-5]}},
                                 {"p10": {"raw": [0.1, 0.11, 1e-5]}}),
    "gradient.raw_floor_off_panel": (
        {"p10": {"raw": [0.1, 1e-9]}, "median": {"raw": [0.4, 1e-5], "sqrt": [0.3, 0.3]}},
        {"p10": {"raw": [0.1, 1e-7]}, "median": {"raw": [0.4, 1e-5], "sqrt": [0.3, 0.3]}}),
    "gradient.raw_below_climbs": ({"below": {"raw": [0.0, 0.3, 0.6]}},
                                  {"below": {"raw": [0.0, 0.6, 0.5]}}),
    "walk.most_within_band": ({"within_band": 0.73}, {"within_band": 0.45}),
}


def _printed(raw: tuple[float, float], sqrt: tuple[float, float],
             linear: tuple[float, float]) -> dict[str, Any]:
    lines = [f"d = {d:4}, divide by {name:>7}: median |dL/dq| = {v[i]:.3g}"
             for i, d in enumerate((4, 1024))
             for name, v in (("1", raw), ("sqrt(d)", sqrt), ("d", linear))]
    return {"gradient": {"stdout": "\n".join(lines) + "\n"}}


PATTERN = _printed((0.4, 2e-5), (0.26, 0.31), (0.14, 0.0097))
CLAIM_CASES.update({
    "reproduce.gradient_raw_falls": (PATTERN, _printed((0.4, 0.01), (0.26, 0.31), (0.14, 0.01))),
    "reproduce.gradient_sqrt_steady": (PATTERN, _printed((0.4, 2e-5), (0.26, 0.6), (0.14, 0.01))),
    "reproduce.gradient_linear_falls": (PATTERN,
                                        _printed((0.4, 2e-5), (0.26, 0.31), (0.14, 0.14))),
})


@pytest.mark.parametrize("name", CLAIM_CASES)
def test_a_figure_s_claim_holds_on_its_shape_and_fails_off_it(name: str) -> None:
    from sqrtdk.science import registry
    from sqrtdk.science.registry import CLAIMS
    registry.load()
    holds, breaks = CLAIM_CASES[name]
    claim = CLAIMS[name]
    assert claim.holds(claim.value(holds)), name
    assert not claim.holds(claim.value(breaks)), name


def test_the_snippet_s_pattern_claims_refuse_output_they_cannot_read() -> None:
    from sqrtdk.science import registry
    from sqrtdk.science.registry import CLAIMS
    registry.load()
    cut = {"gradient": {"stdout": PATTERN["gradient"]["stdout"].split("\n", 1)[1]}}
    with pytest.raises(ValueError, match="six lines"):
        CLAIMS["reproduce.gradient_raw_falls"].value(cut)


def test_a_claim_on_one_snippet_names_a_snippet_and_no_other_snippet_stales_it(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A claim on one reproduce box's printout (`Claim.snippet`) reads the section
    "reproduce", names a registered snippet, and its sweep entry's key does not change when
    another snippet is registered (README's snippet recipe): before, every claim on the
    section went stale, and --strict asked the author to sweep claims they never touched."""
    from sqrtdk.science import registry
    from sqrtdk.science.registry import CLAIMS, SNIPPETS, Snippet
    from sqrtdk.sweep import claim_code
    registry.load()
    on_snippets = [c for c in CLAIMS if c.snippet]
    for c in on_snippets:
        assert c.section == "reproduce" and c.snippet in SNIPPETS.names(), c.name
    if not on_snippets:
        pytest.skip("no claim reads one snippet's printout")
    before = {c.name: claim_code(c.name) for c in on_snippets}
    extra = tmp_path / "extra.py"
    extra.write_text("print(1)\n", encoding="utf-8")
    # registered as README's recipe does (the registry's own dict: every module sees it)
    monkeypatch.setitem(SNIPPETS._items, "extra", Snippet("extra", extra, "spread.py"))
    assert {c.name: claim_code(c.name) for c in on_snippets} == before
    # its own snippet's file is in the key
    own = SNIPPETS[on_snippets[0].snippet].path
    original = Path.read_bytes
    monkeypatch.setattr(Path, "read_bytes", lambda self: original(self) + (
        b"# edited\n" if self == own else b""))
    assert claim_code(on_snippets[0].name) != before[on_snippets[0].name]


def test_a_claim_no_sentence_relies_on_is_told_at_its_registration(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """An unused claim was told at the first article with no line ('content/zh/index.md:
    warning: …'), a file that does not hold it; it is told at the line of sqrtdk/science/
    that registers it, where it can be removed (read as text: no experiment is imported)."""
    import json
    import re

    from sqrtdk.options import PACKAGE_DIR
    from sqrtdk.web.checks import LOGGER
    committed = json.loads((PACKAGE_DIR.parent / "figures" / "results.json").read_text(
        encoding="utf-8"))
    name = sorted(committed["claims"])[0]
    got = {"claims": {name: dict(results(True)["claims"]["a.b"])}, "meta": {"seed": 7}}
    with caplog.at_level("WARNING", logger=LOGGER.name):
        check_claims([page(tmp_path, body(WITHOUT), got)], got)
    (said,) = [r.getMessage() for r in caplog.records if name in r.getMessage()]
    m = re.match(r"(sqrtdk/science/\w+\.py):(\d+): warning: ", said)
    assert m, said
    lines = (PACKAGE_DIR.parent / m[1]).read_text(encoding="utf-8").split("\n")
    assert f'"{name}"' in lines[int(m[2]) - 1], said


@pytest.mark.parametrize("registered", [
    '"a.b"', "'a.b'", '"a." "b"', "(\n    'a.'\n    'b')", '"""a.b"""'])
def test_a_claim_s_registration_is_found_however_its_name_is_quoted(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, registered: str) -> None:
    """checks.claim_registration reads the science modules with Python's parser: a name in
    single quotes, in pieces or on a later line than its call's was not found, and an unused
    claim was told at line 0 of the first article. The line is the name's first piece."""
    import sqrtdk.options
    from sqrtdk.web.checks import claim_registration
    science = tmp_path / "science"
    science.mkdir()
    head = "# a comment naming a.b, which is no registration\nX = 'a'\n"
    (science / "zz.py").write_text(f"{head}CLAIMS.register(Claim({registered}, 'a'))\n",
                                   encoding="utf-8")
    (science / "aa.py").write_text("this is not Python (\n", encoding="utf-8")
    monkeypatch.setattr(sqrtdk.options, "PACKAGE_DIR", tmp_path)
    first = 3 + registered.startswith("(")
    assert claim_registration("a.b") == (science / "zz.py", first)
    assert claim_registration("a.c") is None
