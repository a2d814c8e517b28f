"""The snippets the reproduce boxes show, each with the experiment module whose full source
its box links to and its cost (its running time relative to the others, for the workers'
order). A new one is registered at the end (README, "Show the code that ran"); the code that
runs them is reproduce.py's, which does not import this list. Below them, `AGREES`: the numbers
each snippet prints that reproduce a result, checked against results.json by the build.
"""
from __future__ import annotations

from dataclasses import dataclass

from .registry import SNIPPETS, Snippet
from .reproduce import SNIPPET_DIR

SNIPPETS.register(Snippet("sheet1", SNIPPET_DIR / "sheet1.py", "spread.py", cost=3.0))
SNIPPETS.register(Snippet("sheet2", SNIPPET_DIR / "sheet2.py", "saturation.py", cost=0.1))
SNIPPETS.register(Snippet("sheet3", SNIPPET_DIR / "sheet3.py", "rulers.py", cost=2.0))
SNIPPETS.register(Snippet("gradient", SNIPPET_DIR / "gradient.py", "rulers.py", cost=1.0))


@dataclass(frozen=True)
class Agrees:
    """A number snippet `snippet` prints that reproduces a result of the experiments: the
    first group of the regular expression `printed` over its output (a multiline search),
    which must be within `within` of results.json's `result` (a dotted path, list items by
    index), or the build stops at this registration (science_stage.check_snippets). `within`
    is the sampling error the two may differ by (the snippet draws its own, smaller sample;
    write its derivation beside it) plus half a unit of the printed last digit; for a number
    the snippet computes without randomness, only the rounding. `sample`: for a `within`
    derived from the experiment's sample size, (its result in results.json, the size the
    derivation assumed): with fewer, the experiment's own sampling error outgrows `within`,
    and a disagreement is told as that, not as a snippet behind."""

    snippet: str
    printed: str
    result: str
    within: float
    sample: tuple[str, int] | None = None


AGREES: list[Agrees] = []

# sheet1 prints the SD of 10 000 dot products at each dimension; spread.sd_small/sd_large are
# the SD of spread.n_pairs = 20 000. The SE of a sample SD is SD·sqrt((kurtosis − 1)/(4n));
# the kurtosis of q·k is 3 + 6/d (4.5 at d = 4, 3.1 at d = 64), so the SE of the difference
# is 0.023 at d = 4 and 0.071 at d = 64, and of the ratio about 0.058: 5 SE each, plus
# 0.005 for the printed rounding. The dimensions must be the results' own.
AGREES += [
    Agrees("sheet1", r"SD at d = (\d+):", "spread.d_small", 0),
    Agrees("sheet1", r"SD at d = \d+: \S+ +SD at d = (\d+):", "spread.d_large", 0),
    Agrees("sheet1", r"SD at d = \d+: (\S+)", "spread.sd_small", 0.12,
           ("spread.n_pairs", 20_000)),
    Agrees("sheet1", r"SD at d = \d+: \S+ +SD at d = \d+: (\S+)", "spread.sd_large", 0.36,
           ("spread.n_pairs", 20_000)),
    Agrees("sheet1", r"^ratio (\S+)", "spread.ratio", 0.3, ("spread.n_pairs", 20_000)),
]
# sheet2 computes the softmax of the same row of scores as the saturation experiment at scale
# 1 (saturation.first) and 16 (saturation.quoted), without randomness: only the rounding
# (half a unit of the printed 4th or 5th decimal, and results.json's 6 significant digits).
AGREES += [
    Agrees("sheet2", r"^x(\d+):", "saturation.first.scale", 0),
    Agrees("sheet2", r"^x1: H's share (\S+)", "saturation.first.p_winner", 0.00006),
    Agrees("sheet2", r"^x1: .*p\(1 - p\) = (\S+)", "saturation.first.sensitivity", 0.000006),
    Agrees("sheet2", r"^x\d+:.*\n^x(\d+):", "saturation.quoted.scale", 0),
    Agrees("sheet2", r"^x16: H's share (\S+)", "saturation.quoted.p_winner", 0.00006),
    Agrees("sheet2", r"^x16: .*p\(1 - p\) = (\S+)", "saturation.quoted.sensitivity", 0.000006),
]
# sheet3 prints the mean winner's share and entropy of 1 000 rows at d = 64; rulers.quoted
# holds those of rulers.n_rows = 2 000 rows. Per row their SD (measured on 20 000 rows) is
# 0.164, 0.118, 0.0093 (share) and 0.50, 0.295, 0.0057 bits (entropy) under 1, sqrt(d), d, so
# the SE of the difference of the two means is that × sqrt(1/1000 + 1/2000) = × 0.0387: 5 SE
# each, plus 0.0005 for the printed rounding. The dimension and the keys must be the results'.
ROWS = ("rulers.n_rows", 2_000)     # the rows the tolerances below were derived for
AGREES += [
    Agrees("sheet3", r"^d = (\d+),", "rulers.quoted.d", 0),
    Agrees("sheet3", r"^d = \d+, \d+ rows of (\d+) scores", "rulers.positions", 0),
    Agrees("sheet3", r"by +1: winner's share (\S+),", "rulers.quoted.winner_share_raw", 0.033,
           ROWS),
    Agrees("sheet3", r"by sqrt\(d\): winner's share (\S+),",
           "rulers.quoted.winner_share_sqrt", 0.024, ROWS),
    Agrees("sheet3", r"by +d: winner's share (\S+),", "rulers.quoted.winner_share_linear",
           0.0023, ROWS),
    Agrees("sheet3", r"by +1: .*entropy (\S+) bits", "rulers.quoted.entropy_bits_raw", 0.1,
           ROWS),
    Agrees("sheet3", r"by sqrt\(d\): .*entropy (\S+) bits", "rulers.quoted.entropy_bits_sqrt",
           0.058, ROWS),
    Agrees("sheet3", r"by +d: .*entropy (\S+) bits", "rulers.quoted.entropy_bits_linear",
           0.0016, ROWS),
]
