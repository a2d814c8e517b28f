"""How the page prints a number from the results: the format filters' kinds (`FILTERS`),
a number as each kind prints it (also as TeX text), and honest rounding (issue 7): the fewest
digits with which a value does not print as a bound it does not reach (each quantity's
bounds come from results.json, meta.bounds: 0.9962 is not "100%", 2.9997 bits not "3.00")."""
from __future__ import annotations

import fnmatch
from collections.abc import Mapping

FILTERS = ("fixed", "pct", "sig", "grouped")
_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
MAX_DIGITS = 12


def format_number(kind: str, value: float, digits: int = 0) -> str:
    """`value` as the filters print it: fixed (`digits` decimals), pct (a share as a
    percentage with `digits` decimals), sig (`digits` significant digits, also before the
    point: 24,990 to 3 figures is "25,000", to 1 "20,000") or grouped (an integer). Every
    kind groups the digits before the point in thousands with commas ("1,024", "1,024.50"):
    one rule for every number the page shows, in both languages. Python rounds exact ties to even; a
    negative number has a true minus sign (U+2212), and "× 10⁻⁵" is held to its number by
    no-break spaces. Raises ValueError for another kind."""
    text = _ascii_number(kind, value, digits)
    return "−" + text[1:] if text.startswith("-") else text


def tex_number(text: str) -> str:
    """A formatted number as TeX text: ASCII minus and spaces (KaTeX draws its own minus)."""
    return text.replace("−", "-").replace("\u00a0", " ")


def _ascii_number(kind: str, value: float, digits: int) -> str:
    if kind == "fixed":
        return f"{value:,.{digits}f}"
    if kind == "pct":
        return f"{100 * value:,.{digits}f}%"
    if kind == "sig":
        if value == 0:
            return "0"
        # the exponent after rounding to `digits` figures (0.9996 -> 1.00, not 1.000)
        mantissa, exp = f"{value:.{max(digits - 1, 0)}e}".split("e")
        exponent = int(exp)
        if exponent < -4:          # 1.87 × 10⁻¹⁰ rather than 0.000000000187
            return f"{mantissa}\u00a0×\u00a010{str(exponent).translate(_SUPERSCRIPT)}"
        if exponent >= digits:     # 24,990 to 3 figures is 25,000: zeros after the figures
            figures = mantissa.replace(".", "").lstrip("-")
            whole = int(figures + "0" * (exponent + 1 - len(figures)))
            return f"{'-' if value < 0 else ''}{whole:,}"
        return f"{value:,.{max(digits - 1 - exponent, 0)}f}"
    if kind == "grouped":
        return f"{round(value):,}"
    raise ValueError(f"unknown number format '{kind}'")


def exact_digits(kind: str, value: float, digits: int) -> int:
    """The fewest decimals ≥ `digits` that print `value` whole, as a level the build sets
    (a band's 0.125 as 12.5 %): a percentage as a figure's key prints it with Python's 'g'
    format (`f"{round(100 * level, 6):g}"`), a fixed() value to 6 significant digits (1e-7
    as 0.0000001, never 0); for 'fixed' and 'pct' only (the percentage's decimals for
    'pct'). Raises ValueError for another kind, and for a value no count of decimals up to
    MAX_DIGITS prints whole (1.5e-12 at 12 decimals is 0.000000000002, a value it is not)."""
    if kind not in ("fixed", "pct"):
        raise ValueError(f"exact digits are for fixed() and pct(), not {kind}()")
    x = 100 * value if kind == "pct" else value
    # the key's rounding for a percentage; 6 significant digits for fixed(), not 6 decimals,
    # which read 1e-7 as 0 and printed a value it is not
    whole = float(f"{round(x, 6):g}") if kind == "pct" else float(f"{x:.6g}")
    found = next((d for d in range(digits, MAX_DIGITS + 1) if float(f"{x:.{d}f}") == whole),
                 None)
    if found is None:
        raise ValueError(f"{value:g} needs more than {MAX_DIGITS} decimals to print whole")
    return found


def honest_digits(kind: str, value: float, digits: int, bounds: tuple[float, float] | None
                  ) -> int:
    """The fewest digits ≥ `digits` with which `value` does not print as a bound it does not
    reach (both ends of `bounds`); `digits` itself when there are no bounds."""
    if bounds is None or kind == "grouped":
        return digits
    for d in range(digits, MAX_DIGITS + 1):
        shown = format_number(kind, value, d)
        if not any(b != value and shown == format_number(kind, b, d) for b in bounds):
            return d
    return MAX_DIGITS


def bounds_for(path: str, patterns: Mapping[str, list[float]]) -> tuple[float, float] | None:
    """The bounds of result `path` from results.json meta.bounds (fnmatch patterns)."""
    for pattern, b in patterns.items():
        if fnmatch.fnmatchcase(path, pattern):
            return (float(b[0]), float(b[1]))
    return None
