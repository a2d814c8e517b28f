"""Format strings that authors write (`str.format` fields in strings.toml and figures.toml),
checked against what each field holds before anything is formatted.

Python's own parser (`string.Formatter().parse`) splits the text, and the format-spec
mini-language (Python docs, "Format Specification Mini-Language") is read into its parts, so
a spec can be judged for the kind of value it formats: a percentage only for a share (0…1),
decimals never for a count, nothing numeric for text. A problem is a `FormatError` whose
message says what is wrong and what to write; the caller adds the file and line.
"""
from __future__ import annotations

import numbers
import re
import string
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any


class Kind(Enum):
    """What a field holds, which decides the format specs that make sense for it."""

    COUNT = "a count"        # a whole number: a figure's number, a seed, a number of pairs
    SHARE = "a share"        # a number from 0 to 1, which may be shown as a percentage
    NUMBER = "a number"      # any other measured number (an SD, a ratio, a scale)
    TEXT = "text"            # a word or a version string
    ANY = "a value"          # not known before drawing: checked again with the value itself


class FormatError(ValueError):
    """A format string that cannot be filled in, or would print something wrong."""


# [[fill]align][sign][z][#][0][width][grouping][.precision][type]  (Python docs, format spec)
_SPEC = re.compile(r"(?:(?P<fill>.)?(?P<align>[<>=^]))?(?P<sign>[-+ ])?(?P<z>z)?(?P<alt>#)?"
                   r"(?P<zero>0)?(?P<width>\d+)?(?P<grouping>[,_])?(?:\.(?P<precision>\d+))?"
                   r"(?P<type>[bcdeEfFgGnosxX%])?", re.S)
# the largest width and precision a spec may ask for: a label has no room for more, a double
# no more digits, and `{d:>999999999}` made a string of a billion spaces (matplotlib then
# failed to lay it out, with a traceback)
MAX_WIDTH, MAX_PRECISION = 40, 17
_SAMPLES: dict[Kind, tuple[Any, ...]] = {
    Kind.COUNT: (1234,), Kind.SHARE: (0.5,), Kind.NUMBER: (2.5,), Kind.TEXT: ("x",),
    Kind.ANY: (2.5, 1234, "x"),
}


@dataclass(frozen=True)
class Field:
    """One `{name:spec}` of a format string."""

    name: str
    spec: str

    def __str__(self) -> str:
        return "{" + self.name + (":" + self.spec if self.spec else "") + "}"


def fields_of(text: str) -> list[Field]:
    """The fields of `text` in order. Raises FormatError for a lone brace, a conversion
    (`!r`), an attribute or index (`{n.x}`, `{n[0]}`) or a field inside a spec."""
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError as e:
        raise FormatError(f"{e}; write a literal brace as {{{{ or }}}}") from None
    out = []
    for _, name, spec, conversion in parsed:
        if name is None:
            continue
        shown = "{" + name + (f"!{conversion}" if conversion else "") + \
            (f":{spec}" if spec else "") + "}"
        if conversion is not None:
            raise FormatError(f"{shown}: a conversion (!{conversion}) is not used here; "
                                f"write {{{name}}} or {{{name}:spec}}")
        if "." in name or "[" in name:
            base = re.split(r"[.\[]", name, maxsplit=1)[0]
            raise FormatError(f"{shown}: attributes and indexes are not filled in; "
                                f"write {{{base}}}")
        if "{" in (spec or ""):
            raise FormatError(f"{shown}: a field inside a format spec is not filled in; "
                                "write the spec out, e.g. {sd:.2f}")
        out.append(Field(name, spec or ""))
    return out


def check_spec(field: Field, kind: Kind) -> None:
    """Whether `field`'s spec is valid Python and sensible for a value of `kind`.

    Raises FormatError: a width or precision beyond MAX_WIDTH or MAX_PRECISION, a spec
    Python rejects for every value of that kind, a percentage
    or decimals on a count, a percentage on a number that is not a share, a numeric spec on
    text."""
    m = _SPEC.fullmatch(field.spec)
    if m is not None and (int(m.group("width") or 0) > MAX_WIDTH or
                          int(m.group("precision") or 0) > MAX_PRECISION):
        raise FormatError(f"{field}: '{field.spec}' asks for more than a label can show (a "
                          f"width above {MAX_WIDTH} characters or more than {MAX_PRECISION} "
                          "digits); write e.g. {sd:.2f}")
    if m is None or not any(_formats(sample, field.spec) for sample in _SAMPLES[kind]):
        example = {Kind.COUNT: "{n} or {n:,}", Kind.TEXT: "{name}"}.get(kind, "{sd:.2f}")
        raise FormatError(f"{field}: '{field.spec}' is not a format for {kind.value}; "
                            f"write e.g. {example}")
    spec_type = m.group("type") or ""
    fractional = spec_type != "" and spec_type in "eEfFgG%"
    if kind is Kind.COUNT and (fractional or m.group("precision")):
        raise FormatError(f"{field}: {field.name} is a count, and '{field.spec}' would print "
                            f"it with decimals or as a percentage (1 as "
                            f"'{format(1, field.spec)}'); write {{{field.name}}}")
    if kind is Kind.NUMBER and spec_type == "%":
        raise FormatError(f"{field}: {field.name} is not a share from 0 to 1, so '%' would "
                            f"print 2.01 as '{format(2.01, field.spec)}'; write "
                            f"{{{field.name}:.2f}}")


def _formats(sample: Any, spec: str) -> bool:
    try:
        format(sample, spec)
    except (ValueError, TypeError):
        return False
    return True


def check_format(text: str, kinds: Mapping[str, Kind], *, required: tuple[str, ...] = ()
                 ) -> list[Field]:
    """Check every field of `text` against `kinds` (field name -> what it holds). Returns the
    fields. Raises FormatError naming the first unknown field (with a suggestion), a bad
    spec (see `check_spec`) or a required field that is missing."""
    from .errors import suggest
    fields = fields_of(text)
    for f in fields:
        if f.name not in kinds:
            raise FormatError(
                f"unknown field {{{f.name}}}; "
                + (suggest(f.name, list(kinds), "fields") if kinds else "this text has no "
                   "fields (known: none)") + " (a literal brace is written {{ or }})")
        check_spec(f, kinds[f.name])
    names = {f.name for f in fields}
    for name in required:
        if name not in names:
            raise FormatError(f"needs {{{name}}}, where {kinds[name].value} goes")
    return fields


def check_value(text: str, values: Mapping[str, Any]) -> None:
    """Check `text`'s specs against the values it is about to be filled with (the kinds that
    were not known before: a figure label's fields). Raises FormatError for a percentage of
    a number outside 0…1 and for decimals on a whole number."""
    for f in fields_of(text):
        value = values.get(f.name)
        if isinstance(value, bool) or value is None:
            continue
        if isinstance(value, numbers.Integral):
            check_spec(f, Kind.COUNT)
        elif isinstance(value, numbers.Real) and not 0.0 <= float(value) <= 1.0:
            check_spec(f, Kind.NUMBER)
        elif isinstance(value, str):
            check_spec(f, Kind.TEXT)


__all__ = ["Field", "FormatError", "Kind", "check_format", "check_spec", "check_value",
           "fields_of"]
