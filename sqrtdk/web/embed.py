"""What the article page hands to static/explainer.js: a slice of the results as JSON, the
widgets' sentences with their numbers filled in, and which quoted numbers follow the page's
state (the chosen dₖ, ruler and batch).

One source of truth: the widgets only look values up in this slice of results.json, which
keeps its dotted paths, and draw; nothing is computed in the browser. `FOLLOW` maps a quoted
result to the path that holds its value in another state: `{i}` is the chosen dₖ's index on
the grid, `{s}` the small dₖ's, `{b}` the batch (0: all batches pooled; the sheets only),
`{r}` the ruler. In the default state (the page's own dₖ, no scaling, pooled) every path gives
the number the page already shows. Sentences come from strings.toml, where `{name}` marks a
slot: the build fills it with the default state's value, formatted as the prose formats it
(quoting.format_number), and the script refills it.
"""
from __future__ import annotations

import fnmatch
import json
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from markupsafe import Markup, escape

from ..science.grid import bar_indices
from ..science.results import at
from .numbers import MAX_DIGITS, bounds_for, format_number, honest_digits

# results.json paths the page's script needs, as (group, keys); each keeps its place in the tree
EMBEDDED: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("saturation", ("labels", "winner", "scales", "shares", "p_winner", "sensitivity",
                    "scale_for", "scale_index")),
    ("spread", ("d_k", "d_small", "d_large", "n_pairs", "batch_pairs")),
    ("spread.batches", ("n",)),
    ("spread.grid", ("sd", "ratio", "hist", "z_edges", "ratio_theory", "d_ratio", "scale",
                     "batch_ratio_min", "batch_ratio_max")),
    ("rulers", ("d_k", "names", "sd", "winner_share", "entropy_bits", "positions", "n_rows")),
    ("rulers.example", ("shares", "winner_share", "entropy_bits")),
    ("meta", ("bounds",)),
)

FOLLOW: dict[str, str] = {
    "spread.d_large": "spread.d_k.{i}",
    # the prose speaks of all the pairs: it follows dₖ, never the batch a sheet shows (0: pooled)
    "spread.sd_small": "spread.grid.sd.raw.{s}.0",
    "spread.sd_large": "spread.grid.sd.raw.{i}.0",
    "spread.ratio": "spread.grid.ratio.raw.{i}.0",
    "spread.d_ratio": "spread.grid.d_ratio.{i}",
    "spread.ratio_theory": "spread.grid.ratio_theory.raw.{i}",
    "spread.batches.ratio_min": "spread.grid.batch_ratio_min.{i}",
    "spread.batches.ratio_max": "spread.grid.batch_ratio_max.{i}",
    "rulers.quoted.d": "rulers.d_k.{i}",
    **{f"rulers.quoted.{kind}_{r}": f"rulers.{kind}.{r}.{{i}}"
       for kind in ("sd", "winner_share", "entropy_bits") for r in ("raw", "sqrt", "linear")},
}

# An SD of the scores: three significant digits at every scale (7.94, 0.993, 0.124, 11.3),
# in the prose (`sig(3)`), the sheets, the figures' tables and their labels (figures.toml)
SD_FORMAT = "sig:3"
RATIO_FORMAT = "sig:3"
# A softmax share is a probability p, shown as the formulas write it (p = 0.879, p(1 − p)),
# never as a percent: one kind of number per quantity in the prose, the sheets, the figures'
# tables and their labels (figures.toml). The hand-picked row of sheet 2 (near 1 at large
# scales) with four decimals, as the prose's fixed(4), in the sheet, its bars' labels and
# the figures' tables; a mean winner's share (sheet 3, the rulers' tables) with three
SHARE_FORMAT = "fixed:4"
MEAN_SHARE_FORMAT = "fixed:3"
# An entropy in bits: three decimals, the fewest with which no mean on the grid near the
# uniform row's 3 bits needs an extra digit to stay honest (2.99938 reads 2.999, not 3.00)
ENTROPY_FORMAT = "fixed:3"

# slot -> (results path in the default state, its format); slots may use FOLLOW's {…}
SLOTS: dict[str, tuple[str, str]] = {
    "share": ("saturation.p_winner.{k}", SHARE_FORMAT),     # the scale slider's position
    "sens": ("saturation.sensitivity.{k}", "sig:3"),
    "scale": ("saturation.scales.{k}", "sig:3"),
    # where the chosen dₖ lands: the slider's grid scale at that place, so the mark and the
    # slider name one number ({m}: saturation.scale_index.{r}.{i})
    "mark": ("saturation.scales.{m}", "sig:3"),
    "d": ("spread.d_k.{i}", "grouped"),     # every integer grouped in thousands: "1,024"
    "d_small": ("spread.d_small", "grouped"),
    # an SD of the scores in SD_FORMAT wherever it is shown (prose, sheets, figure tables);
    # a ratio of two SDs in significant digits too: under the rulers it runs from 0.06 to 16,
    # where a fixed number of decimals would be 1 figure at one end and 5 at the other
    "sd_small": ("spread.grid.sd.{r}.{s}.{b}", SD_FORMAT),
    "sd_large": ("spread.grid.sd.{r}.{i}.{b}", SD_FORMAT),
    "ratio": ("spread.grid.ratio.{r}.{i}.{b}", RATIO_FORMAT),
    "ratio_theory": ("spread.grid.ratio_theory.{r}.{i}", RATIO_FORMAT),
    "n": ("spread.batches.n", "grouped"),
    "pairs": ("spread.n_pairs", "grouped"),
    "batch_pairs": ("spread.batch_pairs", "grouped"),
    "b": ("{b}", "grouped"),
    **{f"win_{r}": (f"rulers.example.winner_share.{r}.{{i}}", MEAN_SHARE_FORMAT) for r in
       ("raw", "sqrt", "linear")},
    **{f"ent_{r}": (f"rulers.example.entropy_bits.{r}.{{i}}", ENTROPY_FORMAT) for r in
       ("raw", "sqrt", "linear")},
    # the mean over all rows beside the one example row (which is another random row at
    # each dₖ): the card's number moves with dₖ, the mean shows the trend
    **{f"mwin_{r}": (f"rulers.winner_share.{r}.{{i}}", MEAN_SHARE_FORMAT) for r in
       ("raw", "sqrt", "linear")},
    **{f"ment_{r}": (f"rulers.entropy_bits.{r}.{{i}}", ENTROPY_FORMAT) for r in
       ("raw", "sqrt", "linear")},
    "rows": ("rulers.n_rows", "grouped"),
    "d_built": ("spread.d_large", "grouped"),      # the dₖ the text and figures were built at
}
# Results whose bounds are never reached (a softmax share lies strictly between 0 and 1, its
# entropy below the uniform row's, p(1 − p) above 0): one stored exactly at a bound was
# rounded there by results.json's 6 significant digits, so a sheet shows "> 99.99%" for it.
# (Counts, such as the share of rows below a threshold, can be 0 or 1: not listed.)
OPEN_BOUNDS = ("saturation.*", "rulers.*", "jacobian.*", "two_scores.*")
# Softmax shares, whose small values a table or a sheet shows as the page shows every small
# number: too small for their format's decimals to keep two significant digits (below 0.001
# in fixed:4), in SMALL_FORMAT, significant digits and below 10⁻⁴ powers of ten ("6.75 × 10⁻⁵",
# never "0.0001", 50 % too high, beside "0.00001" for 1.36 × 10⁻⁵; `small_spec`)
SMALL_SHARES = ("saturation.shares*", "saturation.p_winner*", "rulers.*share*")
SMALL_FORMAT = "sig:3"
# Slots a sentence sets side by side to be compared ("ratio 0.0886, beside its theory
# 0.0884"): where their format rounds both to one text though they differ, both take the
# fewest more digits (at most WIDGET_EXTRA_DIGITS) that tell them apart in every state the
# slots can show, so a sheet never reads "0.09 beside 0.09" for 0.0886 and 0.0884, and a
# number keeps its digits as the reader moves the controls (`steady_specs`). The two slots
# of a pair have one format.
COMPARED: tuple[tuple[str, str], ...] = (("ratio", "ratio_theory"),)
# Slots a sentence relates by division, (numerator, denominator, quotient): "SD at 4: 1.004;
# at 8: 0.999; ratio 0.995". The two operands are shown in one format (one precision in one
# sentence), their own kind with the fewest digits from their own on with which the shown
# numerator over the shown denominator rounds to the quotient as shown, in every state: a
# reader who divides the shown numbers gets the shown ratio, or the number next to it in its
# last digit (`divides_out`, `steady_specs`).
RELATED: tuple[tuple[str, str, str], ...] = (("sd_large", "sd_small", "ratio"),)
# The quoted results of the prose that are the sheets' slots: a paragraph that quotes a whole
# COMPARED pair or RELATED triple of them shows them with digits fixed over every dₖ the text
# can follow (`steady_specs` over `prose_rows`), chosen in the build (quoting.Quoter, which
# writes them into the quote's data-shown, where static/explainer.js reads them)
PROSE_SLOTS: dict[str, str] = {"spread.sd_small": "sd_small", "spread.sd_large": "sd_large",
                               "spread.ratio": "ratio", "spread.ratio_theory": "ratio_theory"}
# Quoted results that are the spread (largest minus smallest) of results a figure's table
# shows (its pattern, the table's format): the text quotes the difference of the numbers as
# the table shows them, so a reader who subtracts them gets the quoted number ("0.344 to
# 0.362" varies by 0.018, not by 0.019 from the unrounded 0.0185; `span_text`)
SPANS: dict[str, tuple[str, str]] = {
    "rulers.flat.share_range_sqrt": ("rulers.winner_share.sqrt.*", MEAN_SHARE_FORMAT),
    "rulers.flat.entropy_range_sqrt": ("rulers.entropy_bits.sqrt.*", ENTROPY_FORMAT),
}
PAPER_DK = "two_scores.d_k"      # the paper's dₖ (§3.2.2: 64), where the bar and sheets start
WIDGET_EXTRA_DIGITS = 2          # a widget number takes at most this many digits more than its
                                 # format before it is shown as "< 0.0001" / "> 99.9999%"

# a slot, and the relation sign ("=", "\u2248") with its spaces written just before it, if any
_SLOT_RE = re.compile(r"(?:([=\u2248][ \u00a0]*))?\{(\w+)\}")
BOUND_SIGNS = ("<", ">")     # how widget_number starts a number it shows as a bound


def default_state(results: Mapping[str, Any]) -> dict[str, Any]:
    """The page as built: its large dₖ, no scaling, all batches pooled, and the scale slider
    at the scale where that dₖ puts the row (`m`: the mark's place on the slider). The text
    shows this view until the reader moves a control."""
    sp = results["spread"]
    return _state(results, sp["d_k"].index(sp["d_large"]))


def start_state(results: Mapping[str, Any]) -> dict[str, Any]:
    """Where the dₖ bar and the Try-it sheets start: the paper's dₖ (`PAPER_DK`) when it is on
    the grid (sheet 2 then opens where the prose's example scale puts the row), else the page
    as built."""
    d_k = results["spread"]["d_k"]
    paper = at(dict(results), PAPER_DK) if "two_scores" in results else None
    if paper not in d_k:
        return default_state(results)
    return _state(results, d_k.index(paper))


def _state(results: Mapping[str, Any], i: int) -> dict[str, Any]:
    sp = results["spread"]
    k = results["saturation"]["scale_index"]["raw"][i]
    return {"i": i, "s": sp["d_k"].index(sp["d_small"]), "b": 0, "r": "raw", "k": k, "m": k}


def small_spec(kind: str, value: float, digits: int) -> tuple[str, int]:
    """The format a share (SMALL_SHARES) is shown in: SMALL_FORMAT where `digits` decimals
    of `kind` "fixed" keep fewer than two significant digits of it, else its own."""
    if kind == "fixed" and value and abs(value) < 10.0 ** (1 - digits):
        return split_spec(SMALL_FORMAT)
    return kind, digits


def is_small(path: str) -> bool:
    """Whether result `path` is a share whose small values take SMALL_FORMAT (SMALL_SHARES)."""
    return any(fnmatch.fnmatchcase(path, p) for p in SMALL_SHARES)


def widget_number(kind: str, value: float, digits: int,
                  bounds: tuple[float, float] | None, is_open: bool = False,
                  small: bool = False) -> str:
    """`value` as a Try-it sheet shows it: as the prose would (quoting.honest_digits: never a
    bound it does not reach), but with at most WIDGET_EXTRA_DIGITS more digits; a value still
    closer to a bound than that is shown as a bound at those most digits, "< 0.0001" or
    "> 99.9999%" for `digits` 2 (one precision rule: the sheet never reads "99.9999%" and
    then "> 99.99%"; static/explainer.js's `format` does the same). With `is_open`
    (OPEN_BOUNDS) a value stored at a bound is shown that way too; with `small`
    (SMALL_SHARES) a value too small for the format's decimals is shown in `small_spec`'s."""
    if small:
        kind, digits = small_spec(kind, value, digits)
    n = honest_digits(kind, value, digits, bounds)
    at_open_bound = bounds is not None and is_open and value in bounds and kind != "grouped"
    if bounds is None or (n <= digits + WIDGET_EXTRA_DIGITS and not at_open_bound):
        return format_number(kind, value, n)
    low, high = bounds
    most = digits + WIDGET_EXTRA_DIGITS
    unit = 10.0 ** -most / (100 if kind == "pct" else 1)
    if abs(value - low) <= abs(value - high):
        return "<\u00a0" + format_number(kind, low + unit, most)
    return ">\u00a0" + format_number(kind, high - unit, most)


def decimals(text: str) -> int:
    """How many decimals a formatted number shows ("0.502" 3, "32.0" 1, "1,024" 0)."""
    return len(text.split(".")[1]) if "." in text else 0


def shown_value(text: str) -> float:
    """The number a formatted text shows ("1,024.5" 1024.5, "−0.5" -0.5, "1.87 × 10⁻¹⁰")."""
    mantissa, _, power = text.replace(",", "").replace("\u2212", "-").partition("\u00a0×\u00a010")
    return float(mantissa) * 10.0 ** int(power.translate(_PLAIN_DIGITS)) if power else \
        float(mantissa)


_PLAIN_DIGITS = str.maketrans("⁻⁰¹²³⁴⁵⁶⁷⁸⁹", "-0123456789")


def last_digit_unit(text: str) -> float:
    """The place value of the last digit a formatted number shows ("3.957" 0.001, "1,024" 1,
    "1.87 × 10⁻¹⁰" 10⁻¹²)."""
    mantissa, _, power = text.replace(",", "").partition("\u00a0×\u00a010")
    decimals = len(mantissa.partition(".")[2].rstrip(" %\u00a0"))
    return 10.0 ** (int(power.translate(_PLAIN_DIGITS)) if power else 0) * 10.0 ** -decimals


def divides_out(got: float, quotient_text: str, kind: str, n: int) -> bool:
    """Whether `got` (the shown numerator over the shown denominator) printed as the quotient
    is (`kind`, `n` digits) reads as `quotient_text` to within one unit of its last digit: a
    reader who divides the shown numbers lands on the shown ratio or next to it ("2.008 and
    7.944, a factor of 3.957": 3.956). Exactly, it would take six-figure SDs (their sampling
    error is ~0.5 %: digits nobody should read), and one unit off is what rounding the
    operands does to any quotient."""
    mine = shown_value(format_number(kind, got, n))
    return abs(mine - shown_value(quotient_text)) <= last_digit_unit(quotient_text) * 1.000001


def compared_fails(kind: str, n: int, rows: Sequence[Mapping[str, float]], a: str, b: str
                   ) -> int:
    """In how many states (`rows`: slot -> value) the compared slots `a` and `b` differ but
    print alike at `n` digits of `kind`."""
    return sum(r[a] != r[b] and format_number(kind, r[a], n) == format_number(kind, r[b], n)
               for r in rows)


def related_fails(spec: str, quotient_spec: str, rows: Sequence[Mapping[str, float]],
                  num: str, den: str, quotient: str) -> int:
    """In how many states the operands `num` and `den` shown in `spec` do not divide out to
    `quotient` as shown in `quotient_spec` (`divides_out`: to within its last digit),
    counting only the states where the results themselves do (results.json keeps 6
    significant digits: 5.63372 / 1.96674 is 2.864497, stored as 2.8645, so no shown digits
    make the two agree at 4 figures there)."""
    kind, n = split_spec(spec)
    q_kind, q_n = split_spec(quotient_spec)
    out = 0
    for r in rows:
        want = format_number(q_kind, r[quotient], q_n)
        if not r[den] or format_number(q_kind, r[num] / r[den], q_n) != want:
            continue
        shown_den = shown_value(format_number(kind, r[den], n))
        shown = shown_value(format_number(kind, r[num], n)) / shown_den if shown_den else None
        out += shown is None or not divides_out(shown, want, q_kind, q_n)
    return out


def steady_specs(rows: Sequence[Mapping[str, float]], specs: Mapping[str, str]
                 ) -> dict[str, str]:
    """The format of each slot in `specs` (name -> its own format, "fixed:2") for every state
    it can show, `rows` (one mapping name -> value per state): the digits are the slot's, not
    the state's, so a number keeps one precision as the reader moves the controls. A COMPARED
    pair present whole takes the fewest digits (its own, up to WIDGET_EXTRA_DIGITS more) with
    which the two print differently in every state where they differ; then a RELATED triple
    present whole gives its two operands one format, their own kind (one kind per quantity:
    an SD has significant digits at every scale) with the fewest digits with which the shown
    numerator over the shown denominator prints as the shown quotient (to within its last digit,
    `divides_out`) in every state (up to
    MAX_DIGITS). Where no digits satisfy every state, the fewest failing states win (the
    tests then name them). Raises ValueError for operands of two kinds."""
    out = dict(specs)
    for a, b in COMPARED:
        if a in specs and b in specs:
            kind, first = split_spec(specs[a])
            if kind == "grouped":
                continue
            tries = range(first, first + WIDGET_EXTRA_DIGITS + 1)
            n = min(tries, key=lambda m: (compared_fails(kind, m, rows, a, b), m))
            out[a] = out[b] = f"{kind}:{n}"
    for num, den, quotient in RELATED:
        if not all(x in specs for x in (num, den, quotient)):
            continue
        (kind, d1), (kind2, d2) = split_spec(specs[num]), split_spec(specs[den])
        if kind != kind2:
            raise ValueError(f"the operands {num} ({specs[num]}) and {den} ({specs[den]}) "
                             "have two kinds of number; give them one")
        failing = {m: related_fails(f"{kind}:{m}", out[quotient], rows, num, den, quotient)
                   for m in range(max(d1, d2), MAX_DIGITS + 1)}
        n = min(failing, key=lambda m: (failing[m], m))
        out[num] = out[den] = f"{kind}:{n}"
    return out


def relations(present: set[str]) -> dict[str, str]:
    """Slot -> why a paragraph holding the slots `present` relates it (a COMPARED pair or a
    RELATED triple present whole; by result path, PROSE_SLOTS), as a clause that ends "…
    at {written}" filled in with the author's format ("its paragraph compares it with
    'spread.ratio_theory', and the two would print alike at some dₖ the text follows at
    sig(3)"). A slot in no relation present is left out."""
    path = {slot: p for p, slot in PROSE_SLOTS.items()}
    out: dict[str, str] = {}
    for num, den, quotient in RELATED:
        if {num, den, quotient} <= present:
            for x in (num, den):
                out[x] = (f"its paragraph divides '{path[num]}' by '{path[den]}' to give "
                          f"'{path[quotient]}', and at {{written}} the numbers shown would not "
                          "divide out to the ratio shown at some dₖ the text follows")
    for a, b in COMPARED:
        if {a, b} <= present:
            for x, other in ((a, b), (b, a)):
                out.setdefault(x, f"its paragraph compares it with '{path[other]}', and at "
                                  "{written} the two would print alike at some dₖ the text "
                                  "follows though they differ")
    return out


def missing_operands(present: set[str]) -> dict[str, tuple[str, str]]:
    """Quotient slot -> (the RELATED operand a paragraph holding the slots `present` leaves
    out, the operand it quotes), where it quotes a relation's quotient and one operand only
    ("the SD goes from 2.5 to {{ sd_large }}, a factor of {{ ratio }}": the 2.5 was typed by
    hand, and follows neither the results nor the dₖ bar). Empty when every relation present
    is whole or holds no quotient."""
    out: dict[str, tuple[str, str]] = {}
    for num, den, quotient in RELATED:
        if quotient in present and len({num, den} & present) == 1:
            out[quotient] = (den, num) if num in present else (num, den)
    return out


def sheet_states(results: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every state a Try-it sheet can show: each dₖ the bar reaches (those above the small
    one, and the page's own) under each ruler, with each batch (0: pooled)."""
    sp = results["spread"]
    first = sp["d_k"].index(sp["d_small"]) + 1
    wanted = sorted({*range(first, len(sp["d_k"])), default_state(results)["i"],
                     start_state(results)["i"]})
    out = []
    for i in wanted:
        for r in results["rulers"]["names"]:
            for b in range(sp["batches"]["n"] + 1):
                m = results["saturation"]["scale_index"][r][i]
                out.append({**_state(results, i), "r": r, "b": b, "k": m, "m": m})
    return out


def _joined() -> set[str]:
    return {x for link in (*COMPARED, *RELATED) for x in link}


_SHEET_SPECS: dict[int, tuple[Mapping[str, Any], dict[str, str]]] = {}


def sheet_specs(results: Mapping[str, Any]) -> dict[str, str]:
    """Slot name -> the format the sheets show it with in every state (`steady_specs` over
    `sheet_states`; the slots no pair or triple joins keep their own)."""
    hit = _SHEET_SPECS.get(id(results))
    if hit is not None and hit[0] is results:
        return hit[1]
    joined = sorted(_joined() & set(SLOTS))
    rows = [{x: _slot_value(x, results, st)[0] for x in joined} for st in sheet_states(results)]
    specs = {**{x: spec for x, (_, spec) in SLOTS.items()},
             **steady_specs(rows, {x: SLOTS[x][1] for x in joined})}
    _SHEET_SPECS.clear()
    _SHEET_SPECS[id(results)] = (results, specs)
    return specs


def prose_rows(results: Mapping[str, Any]) -> list[dict[str, float]]:
    """The values of the prose's quotes that are sheet slots (PROSE_SLOTS, by slot name) in
    every state the text can show: the page as built and each dₖ the bar reaches (the text
    follows dₖ only, FOLLOW)."""
    sp = results["spread"]
    s = sp["d_k"].index(sp["d_small"])
    return [{name: float(at(dict(results), resolve(FOLLOW[path], {"i": i, "s": s})))
             for path, name in PROSE_SLOTS.items()}
            for i in bar_indices(sp["d_k"], sp["d_small"], sp["d_large"])]


def partner(name: str) -> str | None:
    """The slot that `name` is compared with (COMPARED), if any."""
    return next((b if a == name else a for a, b in COMPARED if name in (a, b)), None)


def resolve(template: str, state: Mapping[str, Any]) -> str:
    """A path template with the state filled in."""
    return template.format(**state)


def explainer_data(results: Mapping[str, Any]) -> dict[str, Any]:
    """The subset of `results` listed in EMBEDDED, at the same paths, plus FOLLOW, the slots'
    formats and the default state. Raises KeyError naming a path results.json lacks."""
    out: dict[str, Any] = {}
    for group, keys in EMBEDDED:
        src: Any = results
        dst = out
        for part in group.split("."):
            src, dst = src[part], dst.setdefault(part, {})
        for key in keys:
            if key not in src:
                raise KeyError(f"results.json has no '{group}.{key}', which the page embeds")
            dst[key] = src[key]
    return {"results": out, "follow": FOLLOW, "slots": {k: list(v) for k, v in SLOTS.items()},
            "state": default_state(results), "start": start_state(results),
            "extra": WIDGET_EXTRA_DIGITS, "open": list(OPEN_BOUNDS),
            "small": [list(SMALL_SHARES), SMALL_FORMAT],
            "specs": sheet_specs(results)}


def json_script(data: Any) -> Markup:
    """`data` as JSON safe inside <script type="application/json">: compact, and no `<`, `>` or
    `&` that could close the element or start markup."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


DATA_FILE = "assets/explainer-data.js"   # one file for every language's page (cached once)
DATA_GLOBAL = "sqrtdkData"


def data_script(data: Any) -> bytes:
    """The embedded slice as a script file that sets `window.sqrtdkData` (loaded with `defer`
    before explainer.js: out of the page's HTML, so the first paint does not wait for it, and
    it works from file:// where fetching JSON would not)."""
    return f"window.{DATA_GLOBAL} = {json_script(data)};\n".encode()


def read_data_script(text: str) -> Any:
    """The data back from `data_script`'s text (for tests and tools)."""
    prefix = f"window.{DATA_GLOBAL} = "
    if not text.startswith(prefix):
        raise ValueError("not an explainer data script")
    return json.loads(text[len(prefix):].rstrip().rstrip(";"))


def _slot_value(name: str, results: Mapping[str, Any], state: Mapping[str, Any]
                ) -> tuple[float, str]:
    path = resolve(SLOTS[name][0], state)
    return (float(path) if path.isdigit() else float(at(dict(results), path))), path


def split_spec(spec: str) -> tuple[str, int]:
    """A format spec as the widgets and quotes write it ("fixed:3", "pct") as (kind, digits)."""
    kind, _, digits = spec.partition(":")
    return kind, int(digits or 0)


def _at(spec: str, value: float) -> tuple[str, float, int]:
    """format_number's arguments for `value` in `spec`."""
    kind, n = split_spec(spec)
    return kind, value, n


def slot_text(name: str, results: Mapping[str, Any], state: Mapping[str, Any]) -> tuple[str, str]:
    """(shown text, format) of slot `name` in `state`, rounded honestly (`widget_number`)
    with the digits `sheet_specs` gives it in every state; the format returned is the slot's
    own (SLOTS)."""
    value, path = _slot_value(name, results, state)
    kind, n = split_spec(sheet_specs(results)[name])
    bounds = bounds_for(path, results.get("meta", {}).get("bounds", {}))
    return widget_number(kind, value, n, bounds, is_open(path), is_small(path)), SLOTS[name][1]


def span_text(path: str, results: Mapping[str, Any], spec: str) -> str | None:
    """The text of result `path` (SPANS) quoted in `spec`: the largest minus the smallest of
    its operands as their table shows them (`widget_number`), in `spec`; None for a path
    that is no span, or operands shown as a bound ("> 0.9999"). KeyError for a pattern that
    matches no result."""
    if path not in SPANS:
        return None
    pattern, table_spec = SPANS[path]
    group, _, _ = pattern.rpartition(".")
    values = at(dict(results), group)
    if not values:
        raise KeyError(f"no results match {pattern!r}")
    bounds = bounds_for(group + ".0", results.get("meta", {}).get("bounds", {}))
    t_kind, t_digits = split_spec(table_spec)
    texts = [widget_number(t_kind, float(v), t_digits, bounds, is_open(f"{group}.{j}"),
                           is_small(f"{group}.{j}")) for j, v in enumerate(values)]
    if any(t.startswith(BOUND_SIGNS) for t in texts):
        return None
    shown = [shown_value(t) for t in texts]
    kind, digits = split_spec(spec)
    return format_number(kind, round(max(shown) - min(shown), MAX_DIGITS), digits)


def is_open(path: str) -> bool:
    """Whether result `path` never reaches its bounds (OPEN_BOUNDS)."""
    return any(fnmatch.fnmatchcase(path, p) for p in OPEN_BOUNDS)


class UnknownSlotError(Exception):
    """A `{name}` in a UI string that is no slot; `known` lists the slots there are. The
    template renderer reports it at the string's line in strings.toml."""

    def __init__(self, name: str, known: tuple[str, ...]):
        super().__init__(f"unknown slot {{{name}}}")
        self.name, self.known = name, known


def _slot(name: str, results: Mapping[str, Any], ui: Mapping[str, str], rel: str = "") -> str:
    if name == "pH":                                   # the winner's share, p with subscript H
        winner = results["saturation"]["winner"]
        return rel + str(Markup("<var>p</var><sub>{}</sub>").format(winner))
    if name == "ruler":                                # the chosen ruler's name (default: none)
        return rel + str(Markup("<span data-ruler>{}</span>").format(ui["ruler_raw"]))
    if name not in SLOTS:
        raise UnknownSlotError(name, ("pH", "ruler", *SLOTS))
    text, spec = slot_text(name, results, start_state(results))
    number = str(Markup('<span class="q" data-slot="{}" data-format="{}">{}</span>')
                 .format(name, spec, text))
    if not rel:
        return number
    # the relation written before the slot gives way to the bound's own sign: "p = 99.98%"
    # but "p > 99.9999%", never "p = > 99.9999%" (explainer.js's `slot` does the same)
    sign = Markup('<span data-rel="{}">{}</span>').format(rel, relation_text(rel, text))
    return str(sign) + number


def relation_text(rel: str, number: str) -> str:
    """What the relation `rel` written before a slot shows beside the slot's `number`: itself,
    or nothing when the number is shown as a bound ("> 99.9999%" carries its own relation)."""
    return "" if number.startswith(BOUND_SIGNS) else rel


def slot_filter(results: Mapping[str, Any], ui: Mapping[str, str]) -> Callable[[str], Markup]:
    """Jinja filter `slots`: a UI string as HTML, escaped, each `{name}` replaced by its number
    (see SLOTS) in a `<span data-slot="name">` that explainer.js refills. A relation sign
    written just before a slot ("= {share}") goes in a `<span data-rel>` of its own, which
    shows nothing while the number is a bound (`relation_text`). The words of `keep_whole`
    (a Chinese unit such as the word for bits) go in a `<span class="nobr">`, as in the
    article (md_text.KeepWhole)."""
    words = sorted(set(ui.get("keep_whole", "").split()), key=len, reverse=True)
    whole = re.compile("|".join(re.escape(str(escape(w))) for w in words)) if words else None

    def slots(text: str) -> Markup:
        html = str(escape(text))
        if whole is not None:
            html = whole.sub(lambda m: f'<span class="nobr">{m.group(0)}</span>', html)
        return Markup(_SLOT_RE.sub(lambda m: _slot(m.group(2), results, ui, m.group(1) or ""),
                                   html))
    return slots
