"""A claim relied on beside numbers that follow the page's dₖ bar (embed.FOLLOW) is read at
whatever dₖ the reader chose, so the build checks it at every dₖ the bar offers
(Claim.each_dk), and refuses one checked only at the built dₖ there. Figures and reproduce
boxes stay as built: a claim there is checked at the built dₖ as before."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers import BODY_START, page

from sqrtdk.errors import BuildError
from sqrtdk.science import run
from sqrtdk.science.registry import Claim, Registry
from sqrtdk.web.checks import check_claims
from sqrtdk.web.embed import FOLLOW, PROSE_SLOTS

# a result the text quotes that follows the bar (and that no paragraph relates to another)
KEY = next(k for k in sorted(FOLLOW) if k not in PROSE_SLOTS and k.count(".") == 1)
STAYS = "spread.n_pairs"          # a result that does not follow the bar
assert STAYS not in FOLLOW
CLAIM = '{{ claim("a.b") }}'


def results(each_dk: bool, held: bool = True) -> dict[str, Any]:
    entry = {"held": held, "statement": "it holds", "value": 0.01, "op": "<=", "bound": 0.05,
             "unit": "dev", "d_k": [8, 64] if each_dk else [],
             "values": [0.01, 0.002] if each_dk else []}
    group, name = KEY.split(".")
    return {group: {name: 64, "n_pairs": 20_000}, "claims": {"a.b": entry},
            "reproduce": {"demo": {"code": "print(1 < 2)\n", "stdout": "True\n",
                                   "source": "spread.py"}},
            "meta": {"seed": 7, "bounds": {}}}


def body(*paragraphs: str) -> str:
    return "## One {#one}\n\n" + "\n\n".join(paragraphs) + "\n"


def line_of(text: str, paragraphs: tuple[str, ...]) -> int:
    return BODY_START + body(*paragraphs).split("\n").index(text)


FOLLOWS = f"It is {{{{ {KEY} | grouped }}}}, as it should be.{CLAIM}"
CASES = {
    "text": (FOLLOWS,),
    "formula": (f"It is $x={{{{ {KEY} | grouped }}}}$, as it should be.{CLAIM}",),
    "other sentence": (f"It is {{{{ {KEY} | grouped }}}}. So it holds.{CLAIM}",),
    "list item": (f"- It is {{{{ {KEY} | grouped }}}}, as it should be.{CLAIM}",),
    "table row": (f"| a | b |\n|---|---|\n| {{{{ {KEY} | grouped }}}} | it holds{CLAIM} |",),
    # a collapsible box follows the bar like the text, unless it holds a reproduce snippet
    "box": (f"/// details | Why\n    attrs: {{id: why}}\n\n{FOLLOWS}\n\n///",),
}


@pytest.mark.parametrize("case", CASES)
def test_a_claim_beside_a_number_that_follows_the_bar_must_hold_at_every_dk(
        tmp_path: Path, case: str) -> None:
    paragraphs = CASES[case]
    built = page(tmp_path, body(*paragraphs), results(False))
    with pytest.raises(BuildError) as e:
        check_claims([built], results(False))
    where = next(line for line in body(*paragraphs).split("\n") if "claim(" in line)
    assert e.value.line == line_of(where, paragraphs), str(e.value)
    assert "'a.b'" in e.value.message and f"'{KEY}'" in e.value.message, e.value.message
    assert "each_dk" in e.value.message, e.value.message
    # checked at every dₖ of the bar, it is the claim the sentence needs
    check_claims([page(tmp_path, body(*paragraphs), results(True))], results(True))


@pytest.mark.parametrize("paragraphs", [
    (f"It is {{{{ {STAYS} | grouped }}}}, as it should be.{CLAIM}",),
    (f"It is {{{{ {KEY} | grouped }}}}.", f"It holds.{CLAIM}"),          # another paragraph
    (f'![It is {{{{ {KEY} | grouped }}}}.{CLAIM}](spread_hist.svg "It is '
     f'{{{{ {KEY} | grouped }}}}, as drawn.{CLAIM}")',),                 # a figure stays
    (f"/// details | Try it\n    attrs: {{id: try}}\n\n{FOLLOWS}\n\n```reproduce\ndemo\n```"
     "\n\n///",),                                                     # a reproduce box stays
], ids=["a number that stays", "another paragraph", "a figure", "a reproduce box"])
def test_a_claim_away_from_numbers_that_follow_the_bar_may_be_checked_as_built(
        tmp_path: Path, paragraphs: tuple[str, ...]) -> None:
    check_claims([page(tmp_path, body(*paragraphs), results(False))], results(False))


def _grid(ratio: list[float]) -> dict[str, Any]:
    d_k = [4, 8, 16, 64]
    return {"spread": {"d_k": d_k, "d_small": 4, "d_large": 64, "ratio": ratio}}


def test_a_claim_each_dk_is_checked_at_every_dk_of_the_bar(monkeypatch: pytest.MonkeyPatch,
                                                          tmp_path: Path) -> None:
    """True at the built dₖ, false at another the bar offers: the claim does not hold, and
    the build stops at the sentence, naming that dₖ."""
    from sqrtdk.science.grid import bar_indices
    claims: Registry[Claim] = Registry("claim")
    claims.register(Claim("a.b", "spread", "it is small", lambda s, i: s["ratio"][i], "<=",
                          0.05, "dev", each_dk=True))
    monkeypatch.setattr(run, "CLAIMS", claims)
    sections = _grid([0.0, 0.2, 0.01, 0.01])       # 0.2 at dₖ = 8, within the bound at 64
    out = run.evaluate_claims(sections)["a.b"]
    grid = sections["spread"]
    assert out["d_k"] == [grid["d_k"][i] for i in bar_indices(grid["d_k"], 4, 64)] == [8, 16, 64]
    assert not out["held"] and out["value"] == 0.2 and out["values"] == [0.2, 0.01, 0.01]
    got = {**results(True), "claims": {"a.b": out}}
    built = page(tmp_path, body(FOLLOWS), got)
    with pytest.raises(BuildError) as e:
        check_claims([built], got)
    assert e.value.line == line_of(FOLLOWS, (FOLLOWS,)) and "= 8" in e.value.message, \
        e.value.message
    # d = 4 is the bar's baseline, never offered: a claim may fail there
    assert run.evaluate_claims(_grid([0.9, 0.01, 0.01, 0.01]))["a.b"]["held"]


def test_every_sentence_relying_on_a_failed_claim_is_told_in_every_language(
        tmp_path: Path) -> None:
    """A claim that does not hold was told at the first sentence of the first language only:
    the author fixed that one and built again to learn of the next. Each is told, in one
    build."""
    failed = results(False, held=False)
    (tmp_path / "en").mkdir()
    (tmp_path / "zh").mkdir()
    first, second = f"It holds here.{CLAIM}", f"And it holds there.{CLAIM}"
    en = page(tmp_path / "en", body(first, second), failed)
    zh = page(tmp_path / "zh", body(second), failed, lang="zh")
    with pytest.raises(BuildError) as e:
        check_claims([en, zh], failed)
    told = sorted((one.path, one.line) for one in e.value.errors)
    assert told == sorted([(en.source, line_of(first, (first, second))),
                           (en.source, line_of(second, (first, second))),
                           (zh.source, line_of(second, (second,)))]), told
    assert all("does not hold" in one.message for one in e.value.errors), str(e.value)
