"""The labels of the figures (each language's figures.toml) against the registered figures:
the checks the figure stage runs before drawing and the early check runs before anything
(sqrtdk/early.py), with the registrations read from the source (figure_registrations).
"""
from __future__ import annotations

import difflib
import logging
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import BuildError, Mistakes, suggest, where
from .log import warn
from .markup import markup_told
from .settings import no_tex, straight_quote_warnings
from .textfiles import visible

if TYPE_CHECKING:
    from .figure_registrations import ParsedRegistration
    from .figures import Registration

LOGGER = logging.getLogger("sqrtdk.figures")
STYLE_KEYS = ("font_family",)          # [style]: what figures_stage and draw read
CARD_KEYS = ("title", "subtitle")      # [card]: the link-preview card's words


def check_fonts(toml: Any) -> None:
    """A warning at [style] font_family for each family matplotlib has no font for (it falls
    back to the next one, in the end to DejaVu Sans, which has no Chinese); BuildError at
    the first label with a character none of the families' fonts has (drawn as a box)."""
    from .figures import draw
    families = toml.data["style"]["font_family"]
    missing = draw.missing_fonts(families)
    known = draw.installed_fonts() if missing else []
    for name in missing:
        warn(LOGGER, toml.path, toml.line_of("style", "font_family"),
             f"[style] font_family: no font '{name}' is installed for the figures; "
             + suggest(name, known, "fonts"))
    for table, labels in toml.data.items():
        if table == "style" or not isinstance(labels, dict):
            continue
        for key, text in labels.items():
            char = draw.missing_glyph(families, text) if isinstance(text, str) else None
            if char is not None:
                raise toml.error(table, key, f"[{table}] {key}: '{char}' (U+{ord(char):04X}) "
                                 "is in none of the fonts of [style] font_family ("
                                 + ", ".join(families) + "), so the figure would show a box "
                                 "for it; add a font that has it to font_family (e.g. 'Noto "
                                 "Sans CJK SC' for Chinese), or write another character")


class RegisteredAsError(BuildError):
    """A label key misspelt in a figure module's `@figure(…, labels=…)`, told at that line:
    the figure registers `key`, its module and figures.toml (at `places`, each `path:line`)
    say `written`."""

    def __init__(self, path: Path | str, line: int, name: str, key: str, written: str,
                 places: list[str]):
        self.name, self.key, self.written, self.places = name, key, written, places
        super().__init__(path, line, f"@figure('{name}', labels=…) registers '{key}', but its "
                         f"module asks for '{written}', as [{name}] of {' and '.join(places)} "
                         f"name{'s' if len(places) == 1 else ''} it; did you mean "
                         f"'{written}'? write it in labels=…")


def validate_every_language(tomls: Iterable[Any], specs: Mapping[str, Any],
                            mistakes: Mistakes,
                            then: Callable[[Any], None] = lambda toml: None) -> None:
    """validate_labels (then `then`) for each language's figures.toml in `tomls`, each file's
    first mistake added to `mistakes`. A misspelt key of one figure module's labels=… (one
    line of a file every language shares) is told once, naming each figures.toml's line,
    not once per language."""
    registered: dict[tuple[Any, ...], RegisteredAsError] = {}
    for toml in tomls:
        with mistakes.seam():
            try:
                validate_labels(toml, specs)
            except RegisteredAsError as e:
                told = (e.path, e.line, e.name, e.key, e.written)
                first = registered.get(told)
                registered[told] = e if first is None else RegisteredAsError(
                    e.path, e.line, e.name, e.key, e.written, first.places + e.places)
                continue
            then(toml)
    for error in registered.values():
        mistakes.add(error)


def validate_labels(toml: Any, specs: Mapping[str, Registration | ParsedRegistration]
                    ) -> None:
    """One language's figures.toml against the registered figures: [style] and [card], one
    table per figure with exactly its labels (an extra label is a warning), strings only, and
    every {field} one the figure fills in, with a format spec str.format accepts."""
    data = toml.data
    for table in data:
        if table not in specs and table not in ("style", "card"):
            raise toml.error(None, table, f"[{table}] is not a figure; "
                             + suggest(table, [*specs, "style", "card"], "tables"))
    for table, keys in (("style", STYLE_KEYS), ("card", CARD_KEYS)):
        if not isinstance(data.get(table, {}), dict):   # `card = "…"` at the top of the file
            raise toml.error(None, table, f"{table} must be a table: a line [{table}] with "
                             + ", ".join(f"{k} = …" for k in keys) + " under it")
        toml.check_known(table, keys)
    family = data.get("style", {}).get("font_family")
    if not isinstance(family, list) or not family or \
            not all(isinstance(f, str) and f.strip() for f in family):
        raise toml.error("style", "font_family", "[style] needs font_family = [\"DejaVu Sans\", "
                                                 "…], a list of font names")
    for key in CARD_KEYS:
        if key not in data.get("card", {}):
            raise toml.error("card", None, f"[card] needs {key} = \"…\" (the link-preview card)")
        _check_label(toml, "card", key, data["card"][key], ())
    for name, spec in specs.items():
        table = data.get(name)
        if not isinstance(table, dict):
            # told at the last line: the first key's line lies inside [style], where a new
            # table cannot go, and tables may stand in any order
            last = max((n for n, line in enumerate(toml.text.split("\n"), 1) if line.strip()),
                       default=1)
            raise BuildError(toml.path, last, f"no table [{name}]; add it at the end of this "
                             "file with the figure's labels: "
                             + ", ".join(f'{key} = "…"' for key in spec.labels))
        unused = [key for key in table if key not in spec.labels]
        for key, fields in spec.labels.items():
            if key not in table:
                misspelt = difflib.get_close_matches(key, unused, n=1, cutoff=0.6)
                if misspelt:
                    _misspelt(toml, name, key, misspelt[0])
                raise toml.error(name, None, f"[{name}] has no label '{key}'; add {key} = \"…\""
                                 + (f" (it needs {', '.join('{' + f + '}' for f in fields)})"
                                    if fields else ""))
            _check_label(toml, name, key, table[key], fields)
        straight_quote_warnings(toml, name, table)
        for key in table:
            if key not in spec.labels:
                warn(LOGGER, toml.path, toml.line_of(name, key), f"[{name}] {key} is not used by "
                     "the figure; " + suggest(key, spec.labels, "labels"))


def _misspelt(toml: Any, name: str, key: str, written: str) -> None:
    """BuildError for a label the figure registers as `key` and [name] of figures.toml
    spells `written` (a close match): at the `@figure` line when its module asks for
    `written` elsewhere and never for `key` (`"titel": ()` in labels=, `t("title")` in the
    drawing), else at the figures.toml line, naming the other place either way."""
    from .figure_registrations import registration_line, string_constants
    path, line = registration_line(name)
    at = f"{where(path, line)}" if line else "its @figure(…, labels=…)"
    if line and written in (used := string_constants(path, name)) and key not in used:
        raise RegisteredAsError(path, line, name, key, written,
                                [where(toml.path, toml.line_of(name, written))])
    raise toml.error(name, written, f"[{name}] has '{written}', which the figure does not use, "
                     f"and no '{key}' ({at} registers '{key}'); did you mean '{key}'?")


def _check_label(toml: Any, name: str, key: str, text: Any, fields: tuple[str, ...]) -> None:
    """A label: a string whose fields are the registered ones, every one of them (a value the
    figure shows with these words), with valid specs (their kinds are known only when
    drawing, where `Labels` checks them against the values)."""
    from .formats import FormatError, Kind, check_format
    if not isinstance(text, str):
        raise toml.error(name, key, f"[{name}] {key} must be a string in quotes")
    if not visible(text):       # as an empty [ui] string (settings.py): a blank title or axis
        empty = "is empty" if not text.strip() else "holds only invisible characters"
        raise toml.error(name, key, f"[{name}] {key} {empty}; the figure would show nothing "
                         "there (no title, an unnamed axis or series): write its words")
    no_tex(toml, name, key, text, "the figure")
    if told := markup_told(text, f"[{name}] {key}", "the figure draws it as it is",
                           jinja=False):
        warn(LOGGER, toml.path, toml.line_of(name, key), told)
    try:
        found = {f.name for f in check_format(text, dict.fromkeys(fields, Kind.ANY))}
    except FormatError as e:
        raise toml.error(name, key, f"[{name}] {key}: {e}") from None
    missing = [f for f in fields if f not in found]
    if missing:     # `legend = "nothing"`: every series of the figure would be told alike
        braces = ", ".join("{" + f + "}" for f in missing)
        raise toml.error(name, key, f"[{name}] {key} has no {braces}, so the figure would show "
                         f"it without {'that value' if len(missing) == 1 else 'those values'}"
                         "; it needs " + ", ".join("{" + f + "}" for f in fields)
                         + " (in any order, each with a format if wanted, as in the other "
                         "language's file): write each into the label")
